//! Environment of the lockstep block `system`: it plays every core's Q7 over
//! its AXI4-Lite port.
//!
//! The Q7 programs are the pair environment's ([`super::stim`]): the
//! system's firmware (`system::firmware`) lowered to port ops
//! (`stim::lower`) over the pair's ring layout
//! ([`RingLayout::for_core`]), carried by the one Q7-side AXI4-Lite master
//! (`system::q7_master::AxilMaster`, one per Q7 port). Addresses are folded
//! by the system's one fold ([`Topology::fold`]) for the placement of the
//! system top, so a leg between two cores of one die, of two dies or of two
//! packages carries the fold the fabric must decode.
//!
//! After a reset every core's SBUF is preloaded through its debug port and
//! every core's Q7 brings its engines to NORMAL, configures its queue-0 rings
//! and stores the semaphore constants. Then batches of legs, each batch
//! started once the previous one has completed:
//!
//! - a **ring step**: core i → core i + 1 (mod 4) for every i at once, each
//!   leg on its own quarter of the partitions;
//! - a **random mix**: one to three legs between random core pairs with
//!   distinct TX cores (a core's queue-0 rings serve one leg at a time), so
//!   both directions of a pair and several legs into one core are in flight
//!   together; every leg of a batch has its own partition range and its own
//!   semaphores, so no leg's source is another's destination.
//!
//! A leg is the pair's (seed 001 §4, §5, §8): the TX Q7 stores the M2S rings,
//! the RX Q7 the S2M rings next to them through the TX core's port, arms
//! them and raises the TX core's go semaphore; the TX Q7 takes it and rings
//! the M2S doorbells (per engine or through the broadcast doorbell); TX polls
//! local_sem, RX polls remote_sem on its own port.
//!
//! Around the legs: random memory backpressure per core and link
//! backpressure per sending core, AW and W offered apart, BREADY / RREADY
//! held low, and a continuous scan of every core's SBUF and semaphores
//! through the debug ports; at the end the expected images and semaphores
//! (computed by the environment from the legs it ran) are checked.

use std::collections::VecDeque;

use crate::ports::Stimulus;
use crate::regs::axil::{AxilIn, AxilOut};
use crate::stim::StimRng;
use crate::system::bcast::Doorbells;
use crate::system::firmware::{self, RingLayout, SEMA_CONST_BYTES};
use crate::system::legs::split_partitions;
use crate::system::map;
use crate::system::q7_exec::POLL_GAP;
use crate::system::q7_master::AxilMaster;
use crate::system::topology::{CoreId, Topology};
use crate::system::DEFAULT_GO_SEM;
use crate::udma::desc::RingPos;
use crate::udma::regs::{eng_addr, AXI_RESP_SLVERR, UDMA_ENG_CHANGE_STATE};

use super::stim::{infallible, lower, probe_seq, KCopy, Op, PairDoorbells, KCOPY_LEAD};
use super::system::{field, set_field, SysIn, SysOut, SysParams, SYS_CORES};
use super::top::{CoreInPins, CoreOutPins};

/// Cycles of a system reset.
pub const RESET_CYCLES: u64 = 4;
/// Semaphores per leg of a batch: leg `k` takes its local and remote
/// semaphores from `k * SEMS_PER_LEG ..`, below [`DEFAULT_GO_SEM`].
const SEMS_PER_LEG: u8 = 60;
/// Cycles the error leg's programs wait after the launch before reading
/// the semaphores no engine raised (as the pair's ring_id_error).
const ERR_LEG_WAIT: u64 = 4000;

/// What a leg's descriptors do besides moving its partitions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LegKind {
    Plain,
    /// The first engine's ring starts with the constant copy (the pair
    /// environment's, [`KCopy`]).
    KCopy(KCopy),
    /// The error leg ([`SysEnv::start_err_leg`]).
    Errors,
}

/// One leg of the system: TX core `tx` to RX core `rx`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SysLeg {
    pub tx: usize,
    pub rx: usize,
    pub mask: u16,
    pub part_start: u8,
    pub part_count: u8,
    /// Bytes per partition.
    pub bytes: u32,
    /// Source / destination offsets inside the partition.
    pub src_off: u32,
    pub dst_off: u32,
    pub local_sem: u8,
    pub remote_sem: u8,
    /// Doorbells through the broadcast doorbell block.
    pub bcast: bool,
}

/// A Q7 program: its ops, the port of the TX core and (RX programs) of the
/// RX core.
#[derive(Debug, Clone)]
struct Prog {
    tx: usize,
    rx: Option<usize>,
    ops: VecDeque<Op>,
    /// The last `rx_tail` ops of an RX program (its completion wait) run on
    /// the RX core's port, the rest on the TX core's.
    rx_tail: usize,
    /// No access before this cycle (poll gaps).
    wait_until: u64,
}

impl Prog {
    /// The port the head op uses: an RX program's completion wait on the RX
    /// port, the rest on the TX core's port.
    fn port(&self) -> usize {
        match self.rx {
            Some(r) if self.ops.len() <= self.rx_tail => r,
            _ => self.tx,
        }
    }
}

#[derive(Debug, Clone)]
struct LegRun {
    spec: SysLeg,
    done_sides: u32,
    /// The error leg ([`SysEnv::start_err_leg`]): no engine completes, no byte lands.
    failed: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    Reset,
    Preload,
    Setup,
    /// The error leg after the first set-up, then a reset.
    ErrLeg,
    Batch,
}

/// Coverage counters (stable names).
#[derive(Debug, Clone, Default)]
struct Cov {
    legs: u64,
    ring_steps: u64,
    mixes: u64,
    bcast_legs: u64,
    /// Legs per link class: same die, other die, other package.
    class: [u64; 3],
    bytes: u64,
    q7_writes: u64,
    q7_reads: u64,
    polls: u64,
    q7_aw_w_apart: u64,
    q7_resp_held: u64,
    bp_mem: u64,
    bp_link: u64,
    words_checked: u64,
    sems_checked: u64,
    /// Accesses the Q7 port refused as expected (SLVERR probes).
    q7_slverr: u64,
    /// Probe programs run ([`super::stim::probe_ops`]).
    probes: u64,
    /// Legs whose first descriptor copies the semaphore constants onto the
    /// RX core's copy / onto the TX core's own.
    konst_copies: u64,
    konst_copies_own: u64,
    /// Error legs run (a read leaving the core, an S2M burst past SEM_INCR).
    err_legs: u64,
    check_fail: u64,
}

/// The `system` environment.
#[derive(Debug, Clone)]
pub struct SysEnv {
    rng: StimRng,
    q7rng: StimRng,
    p: SysParams,
    topo: Topology,
    cycles: u64,
    step: Option<Step>,
    step_until: u64,
    rst: bool,
    progs: Vec<Prog>,
    /// The transaction in flight on each Q7 port (and its program).
    m: [Option<(AxilMaster, usize)>; SYS_CORES],
    layout: RingLayout,
    legs: Vec<LegRun>,
    /// Ring tails per core, engine (`core * engines + e`) and side.
    tails: Vec<[RingPos; 2]>,
    exp_sbuf: Vec<Vec<u8>>,
    exp_sem: [[i32; 256]; SYS_CORES],
    obs_sbuf: Vec<Vec<u64>>,
    obs_sem: [[u32; 256]; SYS_CORES],
    preload_k: usize,
    scan_k: u64,
    scan_hist: [Option<usize>; 2],
    last_sem_idx: Option<usize>,
    quiet_since: u64,
    bp_on: bool,
    /// No further batch starts: the run ends with the drain and a full scan.
    drain: bool,
    /// The SBUFs and descriptor RAMs are loaded (a later reset keeps them).
    preloaded: bool,
    /// The error leg has run.
    err_done: bool,
    final_checked: bool,
    cov: Cov,
    fail_msg: Option<String>,
}

impl SysEnv {
    /// Environment for `seed` on a system top of parameters `p`.
    pub fn with_params(p: SysParams, seed: u64, cycles: u64) -> Self {
        let mut rng = StimRng::new(seed ^ 0x5157);
        let bytes = (128 * p.core.sbuf_part_bytes) as usize;
        let mut img = vec![vec![0u8; bytes]; SYS_CORES];
        for i in img.iter_mut() {
            rng.fill(i);
        }
        let words = p.core.sbuf_words();
        Self::base(p, seed, cycles, rng, img, words)
    }

    fn base(
        p: SysParams,
        seed: u64,
        cycles: u64,
        rng: StimRng,
        img: Vec<Vec<u8>>,
        words: usize,
    ) -> Self {
        Self {
            rng,
            q7rng: StimRng::new(seed ^ 0x9a7),
            p,
            topo: p.topology(),
            cycles,
            step: None,
            step_until: 0,
            rst: true,
            progs: Vec::new(),
            m: [None; SYS_CORES],
            layout: RingLayout::for_core(&p.core),
            legs: Vec::new(),
            tails: vec![[RingPos::default(); 2]; SYS_CORES * p.core.engines],
            exp_sbuf: img,
            exp_sem: [[0; 256]; SYS_CORES],
            obs_sbuf: vec![vec![0; words]; if words > 0 { SYS_CORES } else { 0 }],
            obs_sem: [[0; 256]; SYS_CORES],
            preload_k: 0,
            scan_k: 0,
            scan_hist: [None; 2],
            last_sem_idx: None,
            quiet_since: u64::MAX,
            bp_on: false,
            drain: false,
            preloaded: false,
            err_done: false,
            final_checked: false,
            cov: Cov::default(),
            fail_msg: None,
        }
    }
}

impl SysEnv {
    fn fail(&mut self, cycle: u64, msg: String) {
        self.cov.check_fail += 1;
        if self.fail_msg.is_none() {
            self.fail_msg = Some(format!("cycle {cycle}: {msg}"));
        }
    }

    fn words(&self) -> usize {
        self.p.core.sbuf_words()
    }

    fn desc_words(&self) -> usize {
        (self.p.core.desc_bytes / 8) as usize
    }

    /// The SoC address core `from` uses for offset `off` of core `to` (the
    /// system's fold; the placement's cores and core offsets always fold).
    fn soc(&self, from: usize, to: usize, off: u64) -> u64 {
        let (f, t) = (CoreId(from as u16), CoreId(to as u16));
        self.topo
            .loc(t)
            .and_then(|l| self.topo.fold(f, t, map::core_local(l.core, off)))
            .expect("the system top's cores and core offsets lie in the fold's ranges")
    }

    /// Core `c`'s boot and queue set-up program (as the pair's): per engine
    /// and side NORMAL and the queue-0 ring, then the semaphore constants.
    fn setup_prog(&self, c: usize) -> Prog {
        let lay = self.layout;
        let mut steps = Vec::new();
        for e in 0..self.p.core.engines as u8 {
            for side in 0..2u8 {
                let state = eng_addr(map::side_of(side), UDMA_ENG_CHANGE_STATE);
                steps.push(firmware::engine_normal(map::udma_offset(e, state)));
                let csr = |r| Ok(map::udma_q_offset(e, side, 0, r));
                let ring = self.soc(c, c, lay.ring_offset(e, 0, side));
                let q = infallible(firmware::queue_config(csr, ring, Some(lay.ring_len)));
                steps.extend(q.into_iter().map(|(_, s)| s));
            }
        }
        steps.push(firmware::sema_constants(lay.sema_const));
        let mut ops = VecDeque::new();
        lower(&steps, &mut ops);
        Prog {
            tx: c,
            rx: None,
            ops,
            rx_tail: 0,
            wait_until: 0,
        }
    }

    /// A random leg from `tx` to `rx` on partitions `lo..hi`, with its
    /// semaphores in `sems..sems + SEMS_PER_LEG`.
    fn random_leg(&mut self, (tx, rx): (usize, usize), (lo, hi): (u8, u8), sems: u8) -> SysLeg {
        let pb = self.p.core.sbuf_part_bytes;
        let nmask = (1u16 << self.p.core.engines) - 1;
        let mask = loop {
            let m = self.rng.u32() as u16 & nmask;
            if m != 0 {
                break m;
            }
        };
        let (lo, hi) = (u64::from(lo), u64::from(hi));
        // an engine's ring takes its partitions and the two semaphore
        // descriptors, at most ring_len - 1 in all
        let per_engine = u64::from(self.layout.ring_len - 3) * u64::from(mask.count_ones());
        let count = self.rng.range(1, 64.min(hi - lo).min(per_engine)) as u8;
        let start = (lo + self.rng.below(hi - lo - u64::from(count) + 1)) as u8;
        let bytes = 8 * self.rng.range(1, u64::from(pb / 8)) as u32;
        let src = 8 * self.rng.below(u64::from((pb - bytes) / 8) + 1) as u32;
        let dst = self.rng.below(u64::from(pb - bytes) + 1) as u32;
        let half = SEMS_PER_LEG / 2;
        let local = sems + self.rng.below(u64::from(half)) as u8;
        let remote = sems + half + self.rng.below(u64::from(half)) as u8;
        SysLeg {
            tx,
            rx,
            mask,
            part_start: start,
            part_count: count,
            bytes,
            src_off: self.p.core.sbuf_win_base + src,
            dst_off: self.p.core.sbuf_win_base + dst,
            local_sem: local,
            remote_sem: remote,
            bcast: self.rng.chance(1, 4),
        }
    }

    /// The next batch: a ring step (one in three) or a random mix.
    fn batch(&mut self) -> Vec<SysLeg> {
        if self.rng.chance(1, 3) {
            self.cov.ring_steps += 1;
            let q = (128 / SYS_CORES) as u8;
            return (0..SYS_CORES)
                .map(|i| {
                    let parts = (i as u8 * q, (i as u8 + 1) * q);
                    let sems = i as u8 * SEMS_PER_LEG;
                    self.random_leg((i, (i + 1) % SYS_CORES), parts, sems)
                })
                .collect();
        }
        self.cov.mixes += 1;
        let n = self.rng.range(1, 3) as usize;
        let mut txs: Vec<usize> = (0..SYS_CORES).collect();
        let mut legs = Vec::with_capacity(n);
        let q = 128 / n as u32;
        for k in 0..n {
            let tx = txs.remove(self.rng.below(txs.len() as u64) as usize);
            let rx = (tx + 1 + self.rng.below(SYS_CORES as u64 - 1) as usize) % SYS_CORES;
            let parts = ((k as u32 * q) as u8, ((k as u32 + 1) * q) as u8);
            legs.push(self.random_leg((tx, rx), parts, k as u8 * SEMS_PER_LEG));
        }
        legs
    }

    /// Estimated cycles of a batch (ring stores dominate; generous: the
    /// end-of-run check needs a quiet system).
    fn budget(&self, legs: &[SysLeg]) -> u64 {
        legs.iter()
            .map(|l| {
                let descs = u64::from(l.part_count)
                    + 2 * split_partitions(l.mask, 0, l.part_count).len() as u64;
                descs * 8 * 24 + u64::from(l.part_count) * u64::from(l.bytes) + 20_000
            })
            .sum()
    }

    /// The descriptors of the ring on `side` of the engine with mask index
    /// `k` and partitions `p0..p0 + np` of leg `l` (as the pair
    /// environment's): one data descriptor per partition, then the LOCAL and
    /// REMOTE semaphore descriptors; ring positions from `pos` (advanced).
    /// `kind` adds the constant copy before the first engine's partitions,
    /// or the error leg's two faults ([`Self::start_err_leg`]).
    fn engine_descs(
        &self,
        l: &SysLeg,
        kind: LegKind,
        (k, p0, np): (usize, u8, u8),
        side: u8,
        pos: &mut RingPos,
    ) -> Vec<[u8; 16]> {
        let lay = self.layout;
        let mut descs = Vec::new();
        let mut push = |d: Result<[u8; 16], _>, pos: &mut RingPos| {
            descs.push(d.unwrap_or([0; 16]));
            *pos = pos.advance(1, lay.ring_len);
        };
        if let LegKind::KCopy(kc) = kind {
            if k == 0 && u32::from(np) + 3 < lay.ring_len {
                // the pair environment's constant copy (stim::KCOPY_LEAD)
                let to = match (side, kc) {
                    (1, KCopy::Peer) => l.rx,
                    _ => l.tx,
                };
                let ptr = self.soc(l.tx, to, lay.sema_const - KCOPY_LEAD);
                let len = SEMA_CONST_BYTES.len() as u32 + KCOPY_LEAD as u32;
                push(firmware::data_desc(side, len, pos.ring_id, ptr), pos);
            }
        }
        let err = kind == LegKind::Errors;
        for p in p0..p0 + np {
            let ptr = match side {
                // error leg, first engine: the M2S read leaves the core
                0 if err && k == 0 => self.soc(l.tx, l.rx, map::sbuf_offset(p, l.src_off.into())),
                0 => self.soc(l.tx, l.tx, map::sbuf_offset(p, l.src_off.into())),
                // error leg, second engine: the S2M burst starts in the last
                // 8 bytes of the RX core's SEM_INCR window and runs past its end
                _ if err && k == 1 => {
                    let end = map::CORE_EVT_INCR_BASE + map::CORE_EVT_INCR_BYTES;
                    self.soc(l.tx, l.rx, end - 8)
                }
                _ => self.soc(l.tx, l.rx, map::sbuf_offset(p, l.dst_off.into())),
            };
            push(firmware::data_desc(side, l.bytes, pos.ring_id, ptr), pos);
        }
        if err && k == 1 {
            // nothing after the overrun: its SLVERR B returns after S2M has
            // taken the ring's next descriptor (overlap), whose semaphore
            // increment would still go out
            return descs;
        }
        for (core, sem) in [(l.tx, l.local_sem), (l.rx, l.remote_sem)] {
            let sd = lay.sema_desc(sem);
            let to = if side == 0 { l.tx } else { core };
            let ptr = self.soc(l.tx, to, sd.target(side));
            push(firmware::sema_desc(side, sd, pos.ring_id, ptr), pos);
        }
        descs
    }

    /// The two Q7 programs of a leg (as the pair environment's): the ring
    /// stores of both roles, RX's arming and TX's launch, the completion
    /// polls (an error leg: a wait, then exact reads of both semaphores,
    /// which no engine raised); then the leg is recorded.
    fn start_leg(&mut self, l: SysLeg, kind: LegKind) {
        let id = self.legs.len();
        let lay = self.layout;
        let mut ops = [VecDeque::new(), VecDeque::new()];
        let mut counts = Vec::new();
        let n = self.p.core.engines;
        let split = split_partitions(l.mask, l.part_start, l.part_count);
        for (k, &(e, p0, np)) in split.iter().enumerate() {
            for side in 0..2u8 {
                let t = l.tx * n + usize::from(e);
                let first = self.tails[t][usize::from(side)];
                let mut pos = first;
                let descs = self.engine_descs(&l, kind, (k, p0, np), side, &mut pos);
                self.tails[t][usize::from(side)] = pos;
                let slot = |s| Ok(lay.desc_offset(e, 0, side, s));
                let stores = firmware::ring_stores(slot, first.offset, lay.ring_len, &descs);
                lower(&infallible(stores), &mut ops[usize::from(side)]);
                if side == 0 {
                    counts.push((e, descs.len() as u32));
                }
            }
        }
        let [mut tx_ops, mut rx_ops] = ops;
        let mode = if l.bcast {
            self.cov.bcast_legs += 1;
            Doorbells::Broadcast
        } else {
            Doorbells::PerEngine
        };
        let db = |side| {
            infallible(firmware::doorbells(
                mode,
                (0, side),
                &counts,
                &PairDoorbells { side },
            ))
        };
        lower(
            &firmware::rx_arm(db(1), map::sem_incr_offset(DEFAULT_GO_SEM)),
            &mut rx_ops,
        );
        lower(&firmware::tx_launch(DEFAULT_GO_SEM, db(0)), &mut tx_ops);
        // completion: every engine raises local_sem on TX and remote_sem on
        // RX; an error leg's engines all stop before raising either
        let failed = kind == LegKind::Errors;
        let k = if failed { 0 } else { counts.len() as i32 };
        let before = rx_ops.len();
        for (core, sem, ops) in [
            (l.tx, l.local_sem, &mut tx_ops),
            (l.rx, l.remote_sem, &mut rx_ops),
        ] {
            self.exp_sem[core][usize::from(sem)] += k;
            let (addr, want) = (
                map::sem_read_offset(sem) as u32,
                self.exp_sem[core][usize::from(sem)],
            );
            if failed {
                ops.push_back(Op::Delay(ERR_LEG_WAIT));
                ops.push_back(Op::Expect {
                    addr,
                    value: want as u32,
                });
                if core == l.rx {
                    // the overrun's two semaphores of the RX core (the last
                    // 8 bytes of SEM_INCR) were not incremented either
                    let last = (map::CORE_EVT_INCR_BYTES / 4) as usize;
                    for sem in [last - 2, last - 1] {
                        ops.push_back(Op::Expect {
                            addr: map::sem_read_offset(sem as u8) as u32,
                            value: self.exp_sem[core][sem] as u32,
                        });
                    }
                }
            } else {
                ops.push_back(Op::Poll { addr, min: want });
            }
            ops.push_back(Op::Done { leg: id });
        }
        let rx_tail = rx_ops.len() - before;
        self.progs.push(Prog {
            tx: l.tx,
            rx: None,
            ops: tx_ops,
            rx_tail: 0,
            wait_until: 0,
        });
        self.progs.push(Prog {
            tx: l.tx,
            rx: Some(l.rx),
            ops: rx_ops,
            rx_tail,
            wait_until: 0,
        });
        self.record_leg(l, failed);
    }

    /// The error leg, once per run after the first set-up (a reset follows
    /// it, as after the pair's ring_id_error scenario): from a random core
    /// to another with the first two engines, one partition each of 16
    /// bytes. The first engine's M2S descriptor reads the RX core's SBUF (a
    /// read leaving the core: the read lane answers DECERR for every beat and
    /// that M2S queue stops before sending a byte); the second engine's S2M
    /// descriptor writes the last 8 bytes of the RX core's SEM_INCR window
    /// and 8 past it (the RX in-lane answers SLVERR, nothing is incremented,
    /// that S2M queue stops). No byte lands, no semaphore rises: both are
    /// read exactly after a wait, and the end-of-run check covers the SBUFs.
    fn start_err_leg(&mut self) {
        let n = self.p.core.engines.min(2);
        let tx = self.q7rng.below(SYS_CORES as u64) as usize;
        let rx = (tx + 1 + self.q7rng.below(SYS_CORES as u64 - 1) as usize) % SYS_CORES;
        let part = self.q7rng.below(128 - n as u64 + 1) as u8;
        let wb = self.p.core.sbuf_win_base;
        let l = SysLeg {
            tx,
            rx,
            mask: (1u16 << n) - 1,
            part_start: part,
            part_count: n as u8,
            bytes: 16,
            src_off: wb,
            dst_off: wb,
            local_sem: 0,
            remote_sem: SEMS_PER_LEG / 2,
            bcast: false,
        };
        self.cov.err_legs += 1;
        self.start_leg(l, LegKind::Errors);
    }

    /// Count leg `l` by link class and keep it for its completion.
    fn record_leg(&mut self, l: SysLeg, failed: bool) {
        let class = match self
            .topo
            .link_class(CoreId(l.tx as u16), CoreId(l.rx as u16))
        {
            Ok(crate::system::link::LinkClass::OnDie) => 0,
            Ok(crate::system::link::LinkClass::D2d) => 1,
            _ => 2,
        };
        self.cov.class[class] += 1;
        self.legs.push(LegRun {
            spec: l,
            done_sides: 0,
            failed,
        });
        self.quiet_since = u64::MAX;
    }

    /// Both programs of leg `id` are done: its bytes are expected at the RX core.
    fn leg_done(&mut self, id: usize) {
        let lr = &mut self.legs[id];
        lr.done_sides += 1;
        if lr.done_sides < 2 {
            return;
        }
        if lr.failed {
            return;
        }
        let l = lr.spec;
        self.cov.legs += 1;
        let pb = self.p.core.sbuf_part_bytes as usize;
        let wb = self.p.core.sbuf_win_base;
        for p in l.part_start..l.part_start + l.part_count {
            let s = usize::from(p) * pb + (l.src_off - wb) as usize;
            let d = usize::from(p) * pb + (l.dst_off - wb) as usize;
            let n = l.bytes as usize;
            let src: Vec<u8> = self.exp_sbuf[l.tx][s..s + n].to_vec();
            self.exp_sbuf[l.rx][d..d + n].copy_from_slice(&src);
            self.cov.bytes += n as u64;
        }
    }

    fn step_done(&self, cycle: u64) -> bool {
        match self.step {
            None => true,
            Some(Step::Reset) => cycle >= self.step_until,
            Some(Step::Preload) => self.preload_k >= self.words() + self.desc_words(),
            Some(_) => {
                self.progs.iter().all(|p| p.ops.is_empty()) && self.m.iter().all(Option::is_none)
            }
        }
    }

    fn next_step(&mut self, cycle: u64) {
        if !self.step_done(cycle) {
            return;
        }
        match self.step {
            None | Some(Step::ErrLeg) => self.reset(cycle),
            Some(Step::Reset) if !self.preloaded => {
                self.step = Some(Step::Preload);
                self.preload_k = 0;
            }
            Some(Step::Reset) | Some(Step::Preload) => {
                // the memories keep their words over a reset
                self.preloaded = true;
                self.step = Some(Step::Setup);
                self.progs = (0..SYS_CORES).map(|c| self.setup_prog(c)).collect();
            }
            Some(Step::Setup) if !self.err_done => {
                self.err_done = true;
                self.step = Some(Step::ErrLeg);
                self.bp_on = true;
                self.progs.clear();
                self.start_err_leg();
            }
            Some(Step::Setup) | Some(Step::Batch) => {
                self.step = Some(Step::Batch);
                if self.drain {
                    return;
                }
                let legs = self.batch();
                let reserve = self.words() as u64 + 64;
                if cycle + self.budget(&legs) + reserve < self.cycles {
                    self.bp_on = true;
                    self.progs.clear();
                    self.start_batch(legs);
                } else {
                    // the drain: no batch fits any more
                    self.drain = true;
                }
            }
        }
    }

    /// A reset of the system (the first, and the one after the error leg):
    /// ring tails and semaphores start over.
    fn reset(&mut self, cycle: u64) {
        self.step = Some(Step::Reset);
        self.rst = true;
        self.step_until = cycle + RESET_CYCLES;
        self.tails
            .iter_mut()
            .for_each(|t| *t = [RingPos::default(); 2]);
        self.exp_sem = [[0; 256]; SYS_CORES];
        self.m = [None; SYS_CORES];
        self.progs.clear();
    }

    /// Start the programs of a batch: each leg, one in four with the
    /// constant copy (onto the RX core's copy or the TX core's own), and one
    /// batch in three a probe program on a random Q7 port (the pair
    /// environment's, [`probe_seq`]). These draw from the Q7 stream.
    fn start_batch(&mut self, legs: Vec<SysLeg>) {
        for l in legs {
            let kind = if self.q7rng.chance(1, 4) {
                let kc = if self.q7rng.bool() {
                    self.cov.konst_copies_own += 1;
                    KCopy::Own
                } else {
                    self.cov.konst_copies += 1;
                    KCopy::Peer
                };
                LegKind::KCopy(kc)
            } else {
                LegKind::Plain
            };
            self.start_leg(l, kind);
        }
        if self.q7rng.chance(1, 3) {
            self.cov.probes += 1;
            let c = self.q7rng.below(SYS_CORES as u64) as usize;
            let ops = probe_seq(&mut self.q7rng, self.p.core.engines);
            self.progs.push(Prog {
                tx: c,
                rx: None,
                ops,
                rx_tail: 0,
                wait_until: 0,
            });
        }
    }
}

impl SysEnv {
    /// Port `c`'s handshakes in its outputs `o` of the last cycle; a taken
    /// response ends the access and pops its op.
    fn retire(&mut self, c: usize, cycle: u64, o: &AxilOut) {
        let Some((mut ax, pi)) = self.m[c] else {
            return;
        };
        if ax.held(o) {
            self.cov.q7_resp_held += 1;
        }
        let done = ax.observe(o);
        self.m[c] = Some((ax, pi));
        let Some((resp, data)) = done else {
            return;
        };
        // the program's head op is the access in flight
        let want_err = matches!(
            self.progs[pi].ops.front(),
            Some(Op::WrErr { .. } | Op::RdErr { .. })
        );
        if (resp != 0) != want_err || (want_err && resp != AXI_RESP_SLVERR) {
            let dir = if ax.write { "write" } else { "read" };
            self.fail(
                cycle,
                format!("Q7 {c}: {dir} 0x{:08x} answered {resp}", ax.addr),
            );
        } else if want_err {
            self.cov.q7_slverr += 1;
        }
        self.m[c] = None;
        self.pop_op(pi, cycle, (!ax.write).then_some(data));
    }

    /// Idle port `c` takes the first ready program op aimed at it (programs
    /// taken in turn from one that rotates with the cycle).
    fn issue(&mut self, c: usize, cycle: u64) {
        let busy: Vec<usize> = self.m.iter().flatten().map(|t| t.1).collect();
        let np = self.progs.len();
        let start = (cycle as usize) % np.max(1);
        for k in 0..np {
            let pi = (start + k) % np;
            let pr = &self.progs[pi];
            if busy.contains(&pi) || pr.wait_until > cycle || pr.port() != c {
                continue;
            }
            let ax = match pr.ops.front() {
                Some(&Op::Wr { addr, data, .. }) => {
                    self.write_access(AxilMaster::write(addr, data))
                }
                Some(&Op::WrErr { addr, data, strb }) => {
                    self.write_access(AxilMaster::write(addr, data).with_strb(strb))
                }
                Some(&Op::Poll { addr, .. }) => {
                    self.cov.polls += 1;
                    self.cov.q7_reads += 1;
                    AxilMaster::read(addr)
                }
                Some(&Op::Expect { addr, .. } | &Op::RdErr { addr }) => {
                    self.cov.q7_reads += 1;
                    AxilMaster::read(addr)
                }
                _ => continue,
            };
            self.m[c] = Some((ax, pi));
            return;
        }
    }

    /// A write, with one in eight offering AW and W 1..3 cycles apart,
    /// either one first.
    fn write_access(&mut self, m: AxilMaster) -> AxilMaster {
        self.cov.q7_writes += 1;
        if self.q7rng.chance(1, 8) {
            self.cov.q7_aw_w_apart += 1;
            let d = self.q7rng.range(1, 3) as u32;
            if self.q7rng.bool() {
                m.offer_apart(d, 0)
            } else {
                m.offer_apart(0, d)
            }
        } else {
            m
        }
    }

    /// The access of program `pi`'s head op completed (`rd`: read data).
    fn pop_op(&mut self, pi: usize, cycle: u64, rd: Option<u32>) {
        match (self.progs[pi].ops.front().copied(), rd) {
            (Some(Op::Poll { min, .. }), Some(v)) if (v as i32) < min => {
                // poll again later (the Q7 busy-waits with a gap)
                self.progs[pi].wait_until = cycle + POLL_GAP;
                return;
            }
            (Some(Op::Expect { addr, value }), Some(v)) if v != value => {
                self.fail(
                    cycle,
                    format!("read 0x{addr:08x}: expected {value}, got {v}"),
                );
            }
            _ => {}
        }
        self.progs[pi].ops.pop_front();
        self.run_local_ops(pi, cycle);
    }

    /// Execute the program's non-bus ops at its head (a delay holds the
    /// program's next access back).
    fn run_local_ops(&mut self, pi: usize, cycle: u64) {
        while let Some(&op) = self.progs[pi].ops.front() {
            if !op.is_local() {
                break;
            }
            self.progs[pi].ops.pop_front();
            match op {
                Op::Done { leg } => self.leg_done(leg),
                Op::Delay(n) => {
                    self.progs[pi].wait_until = cycle + n;
                    break;
                }
                _ => {}
            }
        }
    }

    /// This cycle's drive of every Q7 port, with BREADY / RREADY low one
    /// cycle in four (the port holds its response).
    fn drive_ports(&mut self, i: &mut SysIn) {
        for c in 0..SYS_CORES {
            let (br, rr) = (!self.q7rng.chance(1, 4), !self.q7rng.chance(1, 4));
            let d = match &mut self.m[c] {
                Some((ax, _)) => {
                    ax.set_ready(if ax.write { br } else { rr });
                    ax.drive()
                }
                None => AxilIn {
                    bready: br,
                    rready: rr,
                    ..AxilIn::default()
                },
            };
            i.set_axil(c, &d);
        }
    }

    /// The debug ports' answers to the reads of one and two cycles ago.
    fn record_scan(&mut self, cycle: u64, o: &SysOut) {
        if let Some(k) = self.scan_hist[cycle as usize % 2] {
            for c in 0..SYS_CORES {
                self.obs_sbuf[c][k] = field(&o.dbg_mem_rdata_o, c, 64);
            }
        }
        if let Some(s) = self.last_sem_idx {
            for c in 0..SYS_CORES {
                self.obs_sem[c][s] = field(&o.dbg_sem_o, c, 32) as u32;
            }
        }
    }

    /// The debug ports: preload of every SBUF and descriptor RAM, then a
    /// continuous scan of the SBUFs and the semaphores.
    fn drive_debug(&mut self, cycle: u64, i: &mut SysIn) {
        let words = self.words();
        let mut hist = None;
        if self.step == Some(Step::Preload) && !self.rst {
            let k = self.preload_k;
            for c in 0..SYS_CORES {
                if k < words {
                    let mut w = [0u8; 8];
                    w.copy_from_slice(&self.exp_sbuf[c][8 * k..8 * k + 8]);
                    set_field(&mut i.dbg_mem_wdata_i, c, 64, u64::from_le_bytes(w));
                    set_field(&mut i.dbg_mem_addr_i, c, 20, k as u64);
                } else {
                    set_field(&mut i.dbg_mem_addr_i, c, 20, (k - words) as u64);
                }
            }
            let all = (1u64 << SYS_CORES) - 1;
            i.dbg_mem_we_i = all;
            i.dbg_mem_sel_i = if k < words { 0 } else { all };
            self.preload_k += 1;
        } else {
            let k = (self.scan_k % words as u64) as usize;
            self.scan_k += 1;
            for c in 0..SYS_CORES {
                set_field(&mut i.dbg_mem_addr_i, c, 20, k as u64);
            }
            hist = (!self.rst).then_some(k);
        }
        self.scan_hist[cycle as usize % 2] = hist;
        let sk = (cycle % 256) as usize;
        for c in 0..SYS_CORES {
            set_field(std::slice::from_mut(&mut i.dbg_sem_idx_i), c, 8, sk as u64);
        }
        self.last_sem_idx = (!self.rst).then_some(sk);
    }

    fn final_check(&mut self, cycle: u64) {
        let reserve = self.words() as u64 + 64;
        let quiet = self.quiet_since != u64::MAX && cycle >= self.quiet_since + reserve;
        if !quiet {
            // batches start only while their budget and a full scan fit
            // before the end, so a system still busy here has a leg that
            // never completed
            if self.step == Some(Step::Batch) {
                let open: Vec<usize> = (0..self.legs.len())
                    .filter(|&k| self.legs[k].done_sides < 2)
                    .collect();
                self.fail(
                    cycle,
                    format!("system not quiet at the end of the run: legs {open:?} in flight"),
                );
            }
            return;
        }
        self.final_checked = true;
        for c in 0..SYS_CORES {
            for k in 0..self.words() {
                let mut e = [0u8; 8];
                e.copy_from_slice(&self.exp_sbuf[c][8 * k..8 * k + 8]);
                let e = u64::from_le_bytes(e);
                let w = self.obs_sbuf[c][k];
                self.cov.words_checked += 1;
                if w != e {
                    let pb = self.p.core.sbuf_part_bytes as usize;
                    let msg = format!(
                        "core {c} SBUF partition {} offset 0x{:x}: expected 0x{e:016x}, found 0x{w:016x}",
                        8 * k / pb,
                        self.p.core.sbuf_win_base as usize + 8 * k % pb
                    );
                    self.fail(cycle, msg);
                    break;
                }
            }
            for s in 0..256 {
                self.cov.sems_checked += 1;
                if self.obs_sem[c][s] as i32 != self.exp_sem[c][s] {
                    let msg = format!(
                        "core {c} semaphore {s}: expected {}, found {}",
                        self.exp_sem[c][s], self.obs_sem[c][s] as i32
                    );
                    self.fail(cycle, msg);
                    break;
                }
            }
        }
    }

    /// First environment check failure, if any.
    pub fn failure(&self) -> Option<&str> {
        self.fail_msg.as_deref()
    }

    /// True once the end-of-run image check ran.
    pub fn final_checked(&self) -> bool {
        self.final_checked
    }

    /// Legs completed so far.
    pub fn legs_done(&self) -> usize {
        self.legs.iter().filter(|l| l.done_sides == 2).count()
    }
}

impl Stimulus for SysEnv {
    type In = SysIn;
    type Out = SysOut;

    fn new(seed: u64, cycles: u64) -> Self {
        Self::with_params(SysParams::BLOCK, seed, cycles)
    }

    fn next(&mut self, cycle: u64, prev_out: Option<&SysOut>) -> SysIn {
        if let Some(o) = prev_out {
            self.record_scan(cycle, o);
            for c in 0..SYS_CORES {
                self.retire(c, cycle, &o.axil(c));
            }
        }
        for c in 0..SYS_CORES {
            if self.m[c].is_none() {
                self.issue(c, cycle);
            }
        }
        self.next_step(cycle);
        self.rst = self.step == Some(Step::Reset) && cycle < self.step_until;
        for p in 0..self.progs.len() {
            self.run_local_ops(p, cycle);
        }
        let mut i = SysIn {
            rst_ni: u64::from(!self.rst),
            ..SysIn::default()
        };
        self.drive_ports(&mut i);
        self.drive_debug(cycle, &mut i);
        if self.bp_on && !self.rst {
            for c in 0..SYS_CORES {
                if self.rng.chance(1, 8) {
                    i.mem_stall_i |= 1 << c;
                    self.cov.bp_mem += 1;
                }
                if self.rng.chance(1, 16) {
                    i.link_stall_i |= 1 << c;
                    self.cov.bp_link += 1;
                }
            }
        }
        let quiet = self.progs.iter().all(|p| p.ops.is_empty())
            && self.m.iter().all(Option::is_none)
            && !self.rst;
        if !quiet {
            self.quiet_since = u64::MAX;
        } else if self.quiet_since == u64::MAX {
            self.quiet_since = cycle;
        }
        if cycle + 1 == self.cycles {
            self.final_check(cycle);
        }
        i
    }

    fn coverage(&self) -> Vec<(String, u64)> {
        let c = &self.cov;
        [
            ("legs", c.legs),
            ("ring_steps", c.ring_steps),
            ("random_mixes", c.mixes),
            ("bcast_legs", c.bcast_legs),
            ("legs_same_die", c.class[0]),
            ("legs_other_die", c.class[1]),
            ("legs_other_package", c.class[2]),
            ("bytes_copied", c.bytes),
            ("q7_writes", c.q7_writes),
            ("q7_reads", c.q7_reads),
            ("sem_polls", c.polls),
            ("q7_aw_w_apart", c.q7_aw_w_apart),
            ("q7_resp_held", c.q7_resp_held),
            ("bp_mem", c.bp_mem),
            ("bp_link", c.bp_link),
            ("sbuf_words_checked", c.words_checked),
            ("sems_checked", c.sems_checked),
            ("q7_slverr", c.q7_slverr),
            ("probes", c.probes),
            ("konst_copies", c.konst_copies),
            ("konst_copies_own", c.konst_copies_own),
            ("err_legs", c.err_legs),
            ("check_fail", c.check_fail),
        ]
        .into_iter()
        // a one-package placement has no other-package leg to count
        .filter(|&(n, _)| n != "legs_other_package" || self.topo.packages > 1)
        .map(|(n, v)| (n.to_string(), v))
        .collect()
    }

    fn compare_final(&self, other: &Self) -> Result<(), String> {
        if let Some(m) = &self.fail_msg {
            return Err(format!("environment check failed: {m}"));
        }
        for c in 0..SYS_CORES {
            if self.obs_sbuf[c] != other.obs_sbuf[c] {
                return Err(format!("core {c} SBUF images differ (golden vs RTL)"));
            }
            if self.obs_sem[c] != other.obs_sem[c] {
                return Err(format!("core {c} semaphores differ (golden vs RTL)"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ports::CycleModel;

    /// Golden system top and environment alone: batches of legs between
    /// all core pairs complete and the end-of-run check (bytes and
    /// semaphores computed by the environment from the legs it ran) passes.
    #[test]
    fn golden_system_runs_ring_steps_and_mixes_clean() {
        for p in [SysParams::BLOCK, SysParams::BLOCK.two_packages()] {
            let cycles = 160_000;
            let mut env = SysEnv::with_params(p, 3, cycles);
            // the constant copy's lead bytes lie past the last completion ring
            let lay = env.layout;
            let last = p.core.engines as u8 - 1;
            assert!(lay.comp_ring_offset(last, 0) + lay.slot_bytes <= lay.sema_const - KCOPY_LEAD);
            let mut top = super::super::system::SysTop::new(p);
            let mut out = None;
            for c in 0..cycles {
                let i = env.next(c, out.as_ref());
                out = Some(top.step(&i));
            }
            assert_eq!(env.failure(), None);
            assert!(env.final_checked());
            assert!(env.legs_done() >= 4, "legs done: {}", env.legs_done());
            let cov: std::collections::HashMap<String, u64> = env.coverage().into_iter().collect();
            assert!(cov["sbuf_words_checked"] > 0);
            // the error leg ran and stopped its engines (exact semaphore
            // reads), the probes were refused, the constant copies landed
            // (every later semaphore descriptor reads the constants)
            for n in [
                "err_legs",
                "q7_slverr",
                "probes",
                "konst_copies",
                "konst_copies_own",
            ] {
                assert!(cov[n] > 0, "{n}: {cov:?}");
            }
            assert_eq!(out.unwrap().route_err_o, 0);
        }
    }
}
