//! Environment of the lockstep block `leg`: it plays both Q7s of the pair.
//!
//! The Q7 programs are the system's firmware (`system::firmware`, the one
//! generator) over the pair's ring layout ([`LegEnv::layout`]:
//! [`RingLayout::compact`], rings of 64 descriptors in the pair's small
//! descriptor RAM), carried by the one Q7-side AXI4-Lite master
//! (`system::q7_master::AxilMaster`, one per Q7 port). After a reset each
//! Q7 brings its engines to NORMAL, configures every queue-0 ring
//! ([`firmware::queue_config`]) and stores the semaphore constants. Per leg
//! (seed 001 §4, §5, §8), through the Q7 AXI4-Lite ports only, the TX Q7
//! stores the M2S rings of every engine of the mask in the TX core's
//! descriptor RAM and the RX Q7 the S2M rings next to them (one data
//! descriptor per partition, [`firmware::data_desc`], then the LOCAL and
//! REMOTE semaphore descriptors of [`RingLayout::sema_desc`]); the RX Q7
//! arms the S2M rings ([`firmware::rx_arm`]: RDRTP_inc or broadcast, then
//! right_push of the go semaphore), the TX Q7 launches
//! ([`firmware::tx_launch`]: left_pop as a SEM_READ poll and a SEM_DECR
//! write, then the M2S doorbells). Completion is the two-semaphore pair of
//! §5: the TX Q7 polls local_sem, the RX Q7 polls remote_sem on its own core.
//!
//! The RX Q7's accesses to the TX engines' S2M queues (ring, doorbell) and
//! to the TX core's go semaphore enter through the TX core's Q7 port: the
//! pair does not model the Q7 MMIO route over the fabric (docs/pair.md), so
//! the addresses of the pair's firmware steps are core offsets, played on
//! the port of the core they address.
//!
//! Around the legs: random backpressure on both memories and both links,
//! long link stalls, Q7 handshake variations (AW and W offered apart,
//! BREADY/RREADY held low) and probes the Q7 port must refuse, a continuous
//! scan of both SBUFs and all 256 semaphores through the debug ports (so
//! internal state is compared every cycle), and at the end the expected SBUF
//! images and semaphore values (computed independently by the environment)
//! are checked.

use std::collections::VecDeque;
use std::convert::Infallible;

use crate::ports::Stimulus;
use crate::regs::axil::{AxilIn, AxilOut};
use crate::stim::StimRng;
use crate::system::bcast::{bcast_reg, Doorbells};
use crate::system::firmware::{self, DoorbellAddrs, Q7Step, RingLayout, SEMA_CONST_BYTES};
use crate::system::legs::split_partitions;
use crate::system::map;
use crate::system::q7_exec::POLL_GAP;
use crate::system::q7_master::AxilMaster;
use crate::system::topology::FoldMode;
use crate::system::DEFAULT_GO_SEM;
use crate::udma::desc::RingPos;
use crate::udma::regs::{
    eng_addr, AXI_RESP_SLVERR, Q_PTR_RING_ID, UDMA_ENG_CHANGE_STATE, UDMA_Q_RTP_INC,
};

use super::regs::{BCAST_MASK, BCAST_TAIL_INC};
use super::top::{
    straps, CoreInPins, CoreOutPins, PairIn, PairOut, PLACE_OTHER_DIE, PLACE_OTHER_PKG,
    PLACE_SAME_DIE,
};
use super::{CoreParams, Straps};

/// Cycles of a pair reset.
const RESET_CYCLES: u64 = 4;
/// A directed scenario (`sb2sb cosim --block leg --scenario NAME`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scenario {
    /// Seed 001 §8: A (die 0) → B (die 1), engines 0x000F, local_sem 12,
    /// remote_sem 20, 128 partitions from SBUF offset 0x100000 to 0x100000.
    Seed8,
    /// Two cores of one die.
    SameDie,
    /// Other package (chip-id fold).
    CrossPkg,
    /// A two-rank ring step: A → B and B → A in flight together.
    TwoRank,
    /// TX rings its M2S doorbells before RX arms (the sender must wait).
    TxFirst,
    /// A ring-id error in one engine's M2S ring in the middle of the leg.
    RingIdError,
    /// Both links stalled for thousands of cycles during the data phase.
    LinkStall,
    /// The §8 leg launched by one broadcast doorbell per side (seed 001 §4.4).
    Bcast,
}

/// Every scenario with its CLI name.
pub const SCENARIOS: &[(&str, Scenario)] = &[
    ("seed8", Scenario::Seed8),
    ("same_die", Scenario::SameDie),
    ("cross_pkg", Scenario::CrossPkg),
    ("two_rank", Scenario::TwoRank),
    ("tx_first", Scenario::TxFirst),
    ("ring_id_error", Scenario::RingIdError),
    ("link_stall", Scenario::LinkStall),
    ("bcast", Scenario::Bcast),
];

impl Scenario {
    /// Look a scenario up by name.
    pub fn by_name(n: &str) -> Option<Scenario> {
        SCENARIOS.iter().find(|s| s.0 == n).map(|s| s.1)
    }
    /// CLI name.
    pub fn name(self) -> &'static str {
        SCENARIOS.iter().find(|s| s.1 == self).map_or("?", |s| s.0)
    }
    fn place(self) -> u64 {
        match self {
            Scenario::SameDie => PLACE_SAME_DIE,
            Scenario::CrossPkg => PLACE_OTHER_PKG,
            _ => PLACE_OTHER_DIE,
        }
    }
}

/// One leg: TX core `tx` (0 = A, 1 = B) to the other core.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LegSpec {
    pub tx: usize,
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
    pub tx_first: bool,
    /// Engine (index in the mask order) whose M2S ring gets a bad ring id, and the descriptor.
    pub ring_err: Option<(usize, u32)>,
    pub stall: Option<(u64, u64)>,
    /// Ring the doorbells through the broadcast doorbell (one MASK write and
    /// one TAIL_INC trigger per side and group of engines with the same
    /// descriptor count), not one RTP_INC per engine.
    pub bcast: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Op {
    /// A bus write of a firmware step; `launch`: an M2S doorbell (the TX
    /// launch, [`LegMarks::tx_doorbell`]).
    Wr {
        addr: u32,
        data: u32,
        launch: bool,
    },
    /// Poll until the read value (as i32) is at least `min`.
    Poll {
        addr: u32,
        min: i32,
    },
    /// Read and check an exact value.
    Expect {
        addr: u32,
        value: u32,
    },
    /// A write that must be refused (SLVERR), with its byte strobes.
    WrErr {
        addr: u32,
        data: u32,
        strb: u32,
    },
    /// A read the Q7 port must refuse (SLVERR).
    RdErr {
        addr: u32,
    },
    Delay(u64),
    /// Mark a program point (arming done: no byte may have landed yet).
    CheckNoLanding {
        rx: usize,
    },
    /// Program end: leg `id` side `role` done.
    Done {
        leg: usize,
    },
}

impl Op {
    /// A non-bus op (run by [`LegEnv::run_local_ops`] when at a program's head).
    pub(super) fn is_local(&self) -> bool {
        matches!(
            self,
            Op::Delay(_) | Op::Done { .. } | Op::CheckNoLanding { .. }
        )
    }

    /// A plain write at core offset `off`.
    pub(super) fn wr(off: u64, data: u32) -> Op {
        Op::Wr {
            addr: off as u32,
            data,
            launch: false,
        }
    }
}

/// Append the port ops of firmware steps (addresses: core offsets) to
/// `ops`: one write per 32-bit word of a bus step (an M2S doorbell marked as
/// the launch), a wait as a SEM_READ poll and a SEM_DECR write of its target
/// ([`firmware::port_wait`], as cycle mode's Q7 executor plays it). The pre-sync
/// flag is Q7-local (no op); the pair's firmware has no completion-ring
/// poll (its completion is the two semaphores).
pub(super) fn lower(steps: &[Q7Step], ops: &mut VecDeque<Op>) {
    for s in steps {
        match *s {
            Q7Step::WaitDec { sem, target } => {
                let w = firmware::port_wait(sem, target);
                ops.push_back(Op::Poll {
                    addr: w.read as u32,
                    min: w.min,
                });
                ops.push_back(Op::wr(w.decr, w.data));
            }
            Q7Step::Doorbell {
                soc, data, side, ..
            } => ops.push_back(Op::Wr {
                addr: soc as u32,
                data,
                launch: side == 0,
            }),
            Q7Step::ReadyFlag { .. } | Q7Step::PollComp { .. } => {}
            Q7Step::Csr { .. } | Q7Step::Store { .. } | Q7Step::Push { .. } => {
                ops.extend(s.words().into_iter().map(|(a, d)| Op::wr(a, d)));
            }
        }
    }
}

/// The probes: outside every window (write and read), a read of the
/// memory window, a MASK with a bit of an absent engine, TAIL_INC with an
/// empty mask, a read of TAIL_INC (write-only), an offset between the
/// broadcast registers, stores the interconnect refuses, and a MASK
/// written and read back. Queue 15's broadcast group, which no leg uses
/// (legs ring queue 0); its mask is left 0. `engines`: the Q7 port's engines.
pub(super) fn probe_ops(rng: &mut StimRng, engines: usize) -> [Op; 15] {
    let side = rng.below(2) as u8;
    let g = (map::CORE_BCAST_BASE + u64::from(bcast_reg(15, side, 0))) as u32;
    let absent = 1u32 << engines;
    let mask = (rng.u32() & (absent - 1)).max(1);
    let mut at = |base: u32, step: u32| base + step * rng.below(64) as u32;
    let err = |addr: u32, data: u32| Op::WrErr {
        addr,
        data,
        strb: 0xF,
    };
    let wr = |addr: u32, data: u32| Op::wr(addr.into(), data);
    [
        err(at(0x1800_0000, 4), 1),
        Op::RdErr {
            addr: at(0x1700_0000, 4),
        },
        Op::RdErr {
            addr: at(map::CORE_DESC_BASE as u32, 8),
        },
        err(g + BCAST_MASK, absent | mask),
        err(g + BCAST_TAIL_INC, 1),
        Op::RdErr {
            addr: g + BCAST_TAIL_INC,
        },
        err(g + 2, 1),
        Op::RdErr { addr: g + 2 },
        // memory stores the interconnect refuses: outside the SBUF window
        // of partition 0, and between the descriptor RAM and the Q7
        // port's memory window end
        err(at(0, 8), 1),
        err(at(0x1300_0000, 8), 1),
        wr(g + BCAST_MASK, mask),
        Op::Expect {
            addr: g + BCAST_MASK,
            value: mask,
        },
        // TAIL_INC with one strobe: forwarded to every engine of the mask,
        // each refuses the partial-strobe RTP_INC (no doorbell), the first
        // refusal is the answer
        Op::WrErr {
            addr: g + BCAST_TAIL_INC,
            data: 1,
            strb: 0x1,
        },
        wr(g + BCAST_MASK, 0),
        Op::Expect {
            addr: g + BCAST_MASK,
            value: 0,
        },
    ]
}

/// The probe program's ops ([`probe_ops`]): the empty-mask TAIL_INC
/// (the fifth) must find the mask 0, so either the first ten alone or, one
/// time in two, the mask block (the last five, which end with mask 0) first.
pub(super) fn probe_seq(rng: &mut StimRng, engines: usize) -> VecDeque<Op> {
    let all = probe_ops(rng, engines);
    if rng.bool() {
        all[10..].iter().chain(&all[..10]).copied().collect()
    } else {
        all[..10].iter().copied().collect()
    }
}

/// The value of a generator call whose address closure cannot fail.
pub(super) fn infallible<T>(r: Result<T, Infallible>) -> T {
    match r {
        Ok(v) => v,
        Err(e) => match e {},
    }
}

/// The doorbell registers of queue 0, side `side`, as core offsets.
pub(super) struct PairDoorbells {
    pub(super) side: u8,
}

impl DoorbellAddrs for PairDoorbells {
    type Error = Infallible;
    fn per_engine(&self, e: u8) -> Result<u64, Infallible> {
        Ok(map::udma_q_offset(e, self.side, 0, UDMA_Q_RTP_INC))
    }
    fn bcast(&self) -> Result<(u64, u64), Infallible> {
        let reg = |r| map::CORE_BCAST_BASE + u64::from(bcast_reg(0, self.side, r));
        Ok((reg(BCAST_MASK), reg(BCAST_TAIL_INC)))
    }
}

#[derive(Debug, Clone)]
struct Prog {
    port: Vec<usize>,
    ops: VecDeque<Op>,
    /// No access before this cycle (delays, poll gaps).
    wait_until: u64,
}

/// The transaction in flight on one Q7 port.
#[derive(Debug, Clone, Copy)]
struct PortTxn {
    /// The Q7-side AXI4-Lite master carrying it.
    axil: AxilMaster,
    /// Program that owns it.
    prog: usize,
    /// It must be answered SLVERR (`WrErr`/`RdErr`).
    want_err: bool,
}

/// The ring_id_error scenario's failing descriptor `(k, j)` with an odd `j`
/// (and more than one beat per partition) writes past the end of the RX
/// core's SEM_INCR window instead of reading outside the TX core: both stop
/// that engine's queue at descriptor `j` and raise none of its semaphores.
fn sem_overrun(x: &LegCtx) -> bool {
    x.read_err.is_some_and(|(_, j)| j % 2 == 1) && x.l.bytes > 8
}

/// Bytes of the free descriptor RAM right below the semaphore constants that
/// the constant copy takes along ([`LegEnv::engine_descs`]): its 40 bytes
/// then start 24 bytes into a 256-bit word and end at the descriptor RAM's
/// end, two words (a multi-beat burst at every data width). Every core's descriptor RAM is cleared by the preload and
/// nothing else writes there (the completion rings end below it, checked by
/// `the_pair_layout_fits_every_registered_descriptor_ram`), so the bytes are
/// zero on both cores.
pub(super) const KCOPY_LEAD: u64 = 24;

/// Where the constant copy of a leg writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum KCopy {
    /// Onto the RX core's copy: a link burst into the peer's descriptor RAM
    /// (an in-lane's descriptor target).
    Peer,
    /// Onto the TX core's own copy: a write lane's burst into its own
    /// descriptor RAM.
    Own,
}

/// What the leg being built needs: its spec, the straps of its TX and RX
/// cores, the engine whose read leaves the core, the constant copy.
#[derive(Debug, Clone, Copy)]
struct LegCtx {
    l: LegSpec,
    ts: Straps,
    rs: Straps,
    read_err: Option<(usize, u32)>,
    kcopy: Option<KCopy>,
}
#[derive(Debug, Clone)]
struct LegRun {
    spec: LegSpec,
    done_sides: u32,
    sides: u32,
    /// xbar write-burst counter of the RX core when the leg started.
    rx_bursts0: u64,
    /// (engine index in the mask order, descriptor) whose M2S data read
    /// leaves the core (DECERR), or, at an odd descriptor, whose S2M write
    /// runs past the RX core's SEM_INCR window (SLVERR): that engine stops
    /// there.
    read_err: Option<(usize, u32)>,
    landed_early: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    Reset(u64),
    Preload,
    Setup,
    Legs(Scenario),
    /// One given leg.
    One(LegSpec),
    Random,
}

/// Coverage counters (stable names).
#[derive(Debug, Clone, Default)]
struct Cov {
    legs: u64,
    scen: [u64; 8],
    bytes: u64,
    q7_writes: u64,
    q7_reads: u64,
    polls: u64,
    bp_mem: u64,
    bp_link: u64,
    stall_cycles: u64,
    resets: u64,
    words_checked: u64,
    sems_checked: u64,
    tx_waited: u64,
    /// Writes whose AW and W were offered in different cycles.
    q7_aw_w_apart: u64,
    /// Cycles a Q7 response waited for BREADY/RREADY.
    q7_resp_held: u64,
    /// Accesses the Q7 port refused as expected (SLVERR probes).
    q7_slverr: u64,
    /// Q7 stores into the port's own SBUF (same bytes written back).
    q7_sbuf_stores: u64,
    /// Legs that copied the semaphore constants into the peer's descriptor RAM.
    konst_copies: u64,
    /// Legs that copied them onto the TX core's own copy.
    konst_copies_own: u64,
    check_fail: u64,
}

/// The `leg` environment.
#[derive(Debug, Clone)]
pub struct LegEnv {
    rng: StimRng,
    /// The Q7 masters' handshake timing and probes (its own stream, so the
    /// legs' random sequence is the same with or without it).
    q7rng: StimRng,
    p: CoreParams,
    cycles: u64,
    /// Random legs after the directed ones.
    random: bool,
    plan: VecDeque<Step>,
    step: Option<Step>,
    step_until: u64,
    place: u64,
    rst: bool,
    progs: Vec<Prog>,
    /// The transaction in flight on each Q7 port.
    m: [Option<PortTxn>; 2],
    /// The pair's ring layout (rings of 64 descriptors).
    layout: RingLayout,
    legs: Vec<LegRun>,
    /// Ring tails per core, engine, side.
    tails: Vec<[RingPos; 2]>,
    /// Expected SBUF bytes per core (flat: partition × part_bytes).
    exp_sbuf: [Vec<u8>; 2],
    /// Expected semaphores since the last reset.
    exp_sem: [[i32; 256]; 2],
    /// Observed (scanned) SBUF words and semaphores.
    obs_sbuf: [Vec<u64>; 2],
    obs_sem: [[u32; 256]; 2],
    preload_k: usize,
    scan_k: u64,
    stall_window: Option<(u64, u64)>,
    quiet_since: u64,
    last_xbar: [u64; 2],
    /// (valid, sel, addr) of the debug memory read of the last two cycles.
    scan_hist: [(bool, bool, usize); 2],
    last_sem_idx: Option<usize>,
    bp_on: bool,
    /// The next leg's read error (`LegRun::read_err`), set by the ring_id_error scenario.
    read_err_next: Option<(usize, u32)>,
    final_checked: bool,
    cov: Cov,
    fail_msg: Option<String>,
    /// SBUF words the debug port preloads, scans and checks, in order
    /// (`None`: every word). A single leg on a large SBUF touches only its
    /// own source and destination words.
    dbg_map: Option<Vec<u32>>,
    /// Milestones of the run (cycles), for the leg's timing report.
    marks: LegMarks,
    /// Semaphore the debug port watches every cycle (core, index, target)
    /// until it reaches the target, instead of rotating over all 256.
    watch: Option<(usize, u8, i32)>,
    /// The testbench loads and reads the SBUF words itself (a backdoor into
    /// the memory arrays, [`LegEnv::with_backdoor`]): the preload takes no
    /// cycle of the pair, no scan through the debug memory port.
    backdoor: bool,
    /// Cycles of the environment's clock that took no cycle of the pair
    /// (the backdoor's preload): the environment's cycle is the caller's
    /// plus this.
    skipped: u64,
    /// The Q7 masters drive every access at once (AW with W, BREADY and
    /// RREADY high) as the system's Q7 executor does, without the handshake
    /// variations of the lockstep runs ([`LegEnv::single_with`]).
    q7_ideal: bool,
}

/// Milestones of a run, in cycles of the pair's clock as the environment
/// counts them (for `run sendrecv --mode rtl`'s timing report; with the
/// backdoor the count includes the preload that took no cycle of the pair,
/// [`LegEnv::with_backdoor`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LegMarks {
    /// The first leg started: its ring stores begin.
    pub leg_start: Option<u64>,
    /// The first M2S doorbell write (per-engine RTP_INC or broadcast
    /// TAIL_INC) offered on a Q7 port: the TX launch.
    pub tx_doorbell: Option<u64>,
    /// The watched semaphore was first seen at its target through the debug
    /// port (one cycle after the increment that reached it).
    pub sem_reached: Option<u64>,
}

/// Un-routed SoC address of a core-relative offset of core `s` (the local fold).
fn soc_local(s: Straps, off: u64) -> u64 {
    fold(FoldMode::Local, s, off)
}

/// Routed SoC address of core `to`'s offset as reached from core `from`
/// (rdma_desc_gen's fold, seed 001 §2.3): the system's one fold,
/// [`FoldMode::fold`], in the mode of the placement, with `to`'s chip strap
/// as the routing id.
pub fn soc_route(place: u64, from: Straps, to: Straps, off: u64) -> u64 {
    let mode = match place {
        _ if from == to => FoldMode::Local,
        PLACE_OTHER_PKG => FoldMode::ChipId,
        PLACE_SAME_DIE => FoldMode::Local,
        _ => FoldMode::Neighbor,
    };
    fold(mode, to, off)
}

/// [`FoldMode::fold`] of core offset `off` of the core with straps `to`.
/// The pair's straps ([`super::top::straps`]: die 0/1, core 0/1, chip id
/// 0 or 0x12) and core offsets (< 4 GiB) are always in the fold's range.
fn fold(mode: FoldMode, to: Straps, off: u64) -> u64 {
    let local = map::core_local(to.core_idx as u8, off);
    mode.fold(local, to.die as u8, to.chip as u32)
        .expect("pair straps and core offsets lie in the fold's field ranges")
}

impl LegEnv {
    /// Environment for `seed` running only `only` (then random legs), or every
    /// scenario in turn when `None`.
    pub fn with_scenario(seed: u64, cycles: u64, only: Option<Scenario>) -> Self {
        Self::with_params(CoreParams::default(), seed, cycles, only)
    }

    /// [`LegEnv::with_scenario`] for a pair of parameters `p`.
    pub fn with_params(p: CoreParams, seed: u64, cycles: u64, only: Option<Scenario>) -> Self {
        let mut rng = StimRng::new(seed ^ 0x1e6);
        let bytes = (128 * p.sbuf_part_bytes) as usize;
        let mut img = [vec![0u8; bytes], vec![0u8; bytes]];
        for i in img.iter_mut() {
            rng.fill(i);
        }
        let words = p.sbuf_words();
        let mut plan = VecDeque::new();
        let first = only.map_or(PLACE_OTHER_DIE, Scenario::place);
        plan.push_back(Step::Reset(first));
        plan.push_back(Step::Preload);
        plan.push_back(Step::Setup);
        let order: Vec<Scenario> = match only {
            Some(s) => vec![s],
            None => SCENARIOS.iter().map(|s| s.1).collect(),
        };
        let mut place = first;
        for s in order {
            if s.place() != place {
                plan.push_back(Step::Reset(s.place()));
                plan.push_back(Step::Setup);
                place = s.place();
            }
            plan.push_back(Step::Legs(s));
            if s == Scenario::RingIdError {
                // the stopped queue is recovered by a reset
                plan.push_back(Step::Reset(place));
                plan.push_back(Step::Setup);
            }
        }
        plan.push_back(Step::Random);
        Self {
            rng,
            q7rng: StimRng::new(seed ^ 0x9a7),
            p,
            cycles,
            random: true,
            plan,
            step: None,
            step_until: 0,
            place: first,
            rst: true,
            progs: Vec::new(),
            m: [None; 2],
            layout: RingLayout::for_core(&p),
            legs: Vec::new(),
            tails: vec![[RingPos::default(); 2]; 2 * p.engines],
            exp_sbuf: img,
            exp_sem: [[0; 256]; 2],
            obs_sbuf: [vec![0; words], vec![0; words]],
            obs_sem: [[0; 256]; 2],
            preload_k: 0,
            scan_k: 0,
            stall_window: None,
            quiet_since: 0,
            last_xbar: [0; 2],
            scan_hist: [(false, false, 0); 2],
            last_sem_idx: None,
            bp_on: false,
            read_err_next: None,
            final_checked: false,
            cov: Cov::default(),
            fail_msg: None,
            dbg_map: None,
            marks: LegMarks::default(),
            watch: None,
            backdoor: false,
            skipped: 0,
            q7_ideal: false,
        }
    }

    fn fail(&mut self, cycle: u64, msg: String) {
        self.cov.check_fail += 1;
        if self.fail_msg.is_none() {
            self.fail_msg = Some(format!("cycle {cycle}: {msg}"));
        }
    }

    fn words(&self) -> usize {
        self.p.sbuf_words()
    }

    /// The §8 leg (and the base of the directed scenarios).
    pub fn seed8_leg(&self) -> LegSpec {
        LegSpec {
            tx: 0,
            mask: 0x000F,
            part_start: 0,
            part_count: 128,
            bytes: self.p.sbuf_part_bytes,
            src_off: self.p.sbuf_win_base,
            dst_off: self.p.sbuf_win_base,
            local_sem: 12,
            remote_sem: 20,
            tx_first: false,
            ring_err: None,
            stall: None,
            bcast: false,
        }
    }

    /// A random leg whose partitions lie in `parts` (`lo..hi`, non-empty).
    fn random_leg(&mut self, tx: usize, parts: (u8, u8)) -> LegSpec {
        let pb = self.p.sbuf_part_bytes;
        // every engine of the core (all 16: the shift is taken at 32 bits)
        let nmask = ((1u32 << self.p.engines) - 1) as u16;
        let mask = loop {
            let m = self.rng.u32() as u16 & nmask;
            if m != 0 {
                break m;
            }
        };
        let (lo, hi) = (u64::from(parts.0), u64::from(parts.1));
        // An engine's ring takes its partitions plus the two semaphore
        // descriptors and at most ring_len - 1 of them (the driver keeps one
        // slot free; a larger doorbell is refused and stops the queue).
        let per_engine = u64::from(self.layout.ring_len - 3) * u64::from(mask.count_ones());
        let count = self.rng.range(1, 64.min(hi - lo).min(per_engine)) as u8;
        let start = (lo + self.rng.below(hi - lo - u64::from(count) + 1)) as u8;
        let bytes = 8 * self.rng.range(1, u64::from(pb / 8)) as u32;
        let src = 8 * self.rng.below(u64::from((pb - bytes) / 8) + 1) as u32;
        let dst = self.rng.below(u64::from(pb - bytes) + 1) as u32;
        let local = self.rng.range(0, 199) as u8;
        let remote = self.rng.range(0, 199) as u8;
        let bcast = self.rng.chance(1, 4);
        LegSpec {
            tx,
            mask,
            part_start: start,
            part_count: count,
            bytes,
            src_off: self.p.sbuf_win_base + src,
            dst_off: self.p.sbuf_win_base + dst,
            local_sem: local,
            remote_sem: remote,
            tx_first: false,
            ring_err: None,
            stall: None,
            bcast,
        }
    }

    /// One random leg, or two in opposite directions in flight together.
    ///
    /// Two directions use disjoint partition ranges and disjoint semaphores:
    /// a leg's source bytes must not be the other leg's destination while
    /// both are in flight (the bytes read would depend on timing; the
    /// firmware reuses a source only after local_sem, seed 001 §5).
    pub(super) fn random_mix(&mut self) -> (LegSpec, Option<LegSpec>) {
        let tx = self.rng.below(2) as usize;
        if !self.rng.chance(1, 3) {
            return (self.random_leg(tx, (0, 128)), None);
        }
        let cut = self.rng.range(1, 127) as u8;
        let (mine, theirs) = if self.rng.bool() {
            ((0, cut), (cut, 128))
        } else {
            ((cut, 128), (0, cut))
        };
        let l = self.random_leg(tx, mine);
        let mut m = self.random_leg(1 - tx, theirs);
        m.local_sem = 200 + (m.local_sem % 20);
        m.remote_sem = 220 + (m.remote_sem % 20);
        (l, Some(m))
    }

    fn start_step(&mut self, s: Step, cycle: u64) {
        self.step = Some(s);
        match s {
            Step::Reset(place) => {
                self.place = place;
                self.rst = true;
                self.step_until = cycle + RESET_CYCLES;
                self.tails
                    .iter_mut()
                    .for_each(|t| *t = [RingPos::default(); 2]);
                self.exp_sem = [[0; 256]; 2];
                self.m = [None; 2];
                self.progs.clear();
                self.cov.resets += 1;
            }
            Step::Preload => self.preload_k = 0,
            Step::Setup => {
                for c in 0..2 {
                    let prog = self.setup_prog(c);
                    self.progs.push(prog);
                }
            }
            Step::Legs(sc) => {
                let mut l = self.seed8_leg();
                match sc {
                    Scenario::TwoRank => {
                        let mut back = self.seed8_leg();
                        back.tx = 1;
                        back.local_sem = 22;
                        back.remote_sem = 14;
                        l.part_count = 64;
                        back.part_start = 64;
                        back.part_count = 64;
                        self.start_leg(back, cycle, Some(sc));
                    }
                    Scenario::TxFirst => l.tx_first = true,
                    Scenario::RingIdError => {
                        let k = self.rng.range(4, 28) as u32;
                        let e = self.rng.below(4) as usize;
                        l.ring_err = Some((e, k));
                        // A second engine's M2S descriptor reads the peer's
                        // SBUF (a read leaving the core: the read path
                        // answers DECERR, M2S stops that queue before sending
                        // a byte of that single-descriptor packet).
                        let j = self.q7rng.range(4, 28) as u32;
                        self.read_err_next = Some(((e + 1 + self.q7rng.below(3) as usize) % 4, j));
                    }
                    Scenario::LinkStall => {
                        let len = self.rng.range(3000, 6000);
                        l.stall = Some((self.rng.range(14_000, 16_000), len));
                    }
                    Scenario::Bcast => l.bcast = true,
                    _ => {}
                }
                self.start_leg(l, cycle, Some(sc));
            }
            Step::One(l) => {
                self.marks.leg_start.get_or_insert(cycle);
                self.start_leg(l, cycle, None)
            }
            Step::Random => {}
        }
    }

    fn step_done(&self, cycle: u64) -> bool {
        match self.step {
            None => true,
            Some(Step::Reset(_)) => cycle >= self.step_until,
            Some(Step::Preload) => self.preload_k >= self.dbg_words() + self.desc_words(),
            Some(_) => {
                self.progs.iter().all(|p| p.ops.is_empty()) && self.m.iter().all(Option::is_none)
            }
        }
    }

    fn desc_words(&self) -> usize {
        (self.p.desc_bytes / 8) as usize
    }

    /// The boot and queue set-up program of core `c`, from the firmware: per
    /// engine and side the `change_state` to NORMAL, then the queue-0 ring of
    /// the pair's layout ([`firmware::queue_config`]: RL, ring base, CFG);
    /// then the semaphore constants the semaphore descriptors read.
    fn setup_prog(&self, c: usize) -> Prog {
        let (sa, sb) = straps(self.place);
        let me = [sa, sb][c];
        let lay = self.layout;
        let mut steps = Vec::new();
        for e in 0..self.p.engines as u8 {
            for side in 0..2u8 {
                let state = eng_addr(map::side_of(side), UDMA_ENG_CHANGE_STATE);
                steps.push(firmware::engine_normal(map::udma_offset(e, state)));
                let csr = |r| Ok(map::udma_q_offset(e, side, 0, r));
                let ring = soc_local(me, lay.ring_offset(e, 0, side));
                let q = infallible(firmware::queue_config(csr, ring, Some(lay.ring_len)));
                steps.extend(q.into_iter().map(|(_, s)| s));
            }
        }
        steps.push(firmware::sema_constants(lay.sema_const));
        let mut ops = VecDeque::new();
        lower(&steps, &mut ops);
        Prog {
            port: vec![c],
            ops,
            wait_until: 0,
        }
    }

    /// Build the two Q7 programs of a leg: `rdma_desc_gen` of both roles
    /// (the ring stores, [`Self::leg_rings`]), `rdma_desc_start` of both
    /// roles ([`Self::leg_start`]), the completion polls
    /// ([`Self::leg_completion`]); then record the leg.
    fn start_leg(&mut self, l: LegSpec, cycle: u64, sc: Option<Scenario>) {
        let (sa, sb) = straps(self.place);
        let st = [sa, sb];
        let read_err = self.read_err_next.take();
        // One random leg in four first copies the TX core's semaphore constants
        // with the free bytes below them (KCOPY_LEAD) onto the RX core's copy
        // or, one copy in two, onto the TX core's own: both hold the same
        // bytes, so there is nothing to expect beyond "unchanged" (checked by
        // every later semaphore descriptor that reads the constants).
        let kcopy = (sc.is_none() && self.q7rng.chance(1, 4)).then(|| {
            if self.q7rng.bool() {
                KCopy::Own
            } else {
                KCopy::Peer
            }
        });
        let x = LegCtx {
            l,
            ts: st[l.tx],
            rs: st[1 - l.tx],
            read_err,
            kcopy,
        };
        let id = self.legs.len();
        let (mut tx_ops, mut rx_ops, counts) = self.leg_rings(&x, id, cycle);
        Self::leg_start(&x, &counts, &mut tx_ops, &mut rx_ops);
        self.leg_completion(&x, id, counts.len(), &mut tx_ops, &mut rx_ops);
        // the RX Q7's own-core accesses (remote_sem poll) go through the RX port
        self.progs.push(Prog {
            port: vec![l.tx],
            ops: tx_ops,
            wait_until: 0,
        });
        self.progs.push(Prog {
            port: vec![l.tx, 1 - l.tx],
            ops: rx_ops,
            wait_until: 0,
        });
        self.legs.push(LegRun {
            spec: l,
            done_sides: 0,
            sides: 2,
            rx_bursts0: if l.tx_first {
                self.rx_bursts(1 - l.tx)
            } else {
                u64::MAX
            },
            landed_early: false,
            read_err,
        });
        if let Some((at, len)) = l.stall {
            self.stall_window = Some((cycle + at, cycle + at + len));
        }
        self.quiet_since = u64::MAX;
    }

    /// `rdma_desc_gen` of both roles: per engine of the mask its M2S ring
    /// (TX program) and S2M ring (RX program, through the TX core's port)
    /// stored from the ring tails ([`firmware::ring_stores`]). Returns the two
    /// programs' ops and the M2S descriptor count per engine.
    #[allow(clippy::type_complexity)]
    fn leg_rings(
        &mut self,
        x: &LegCtx,
        id: usize,
        cycle: u64,
    ) -> (VecDeque<Op>, VecDeque<Op>, Vec<(u8, u32)>) {
        let lay = self.layout;
        let mut ops = [VecDeque::new(), VecDeque::new()];
        let mut counts = Vec::new();
        let split = split_partitions(x.l.mask, x.l.part_start, x.l.part_count);
        for (k, &(e, p0, np)) in split.iter().enumerate() {
            for side in 0..2u8 {
                let tail = (2 * usize::from(e) + x.l.tx, usize::from(side));
                let first = self.tails[tail.0][tail.1];
                let mut pos = first;
                let descs = self.engine_descs(x, (k, p0, np), side, &mut pos);
                self.tails[tail.0][tail.1] = pos;
                let slot = |s| Ok(lay.desc_offset(e, 0, side, s));
                let stores = firmware::ring_stores(slot, first.offset, lay.ring_len, &descs);
                lower(&infallible(stores), &mut ops[usize::from(side)]);
                if side == 0 {
                    counts.push((e, descs.len() as u32));
                }
            }
            let nd = counts[k].1;
            if nd >= lay.ring_len {
                self.fail(
                    cycle,
                    format!(
                        "leg {id}: engine {e} would ring {nd} descriptors on a ring of {} (at most {})",
                        lay.ring_len,
                        lay.ring_len - 1
                    ),
                );
            }
        }
        let [tx, rx] = ops;
        (tx, rx, counts)
    }

    /// The descriptors of the ring on `side` of the engine with mask index
    /// `k` and partitions `p0..p0 + np`, from ring position `pos` (advanced):
    /// the constant copy (one random leg in four), one data descriptor per
    /// partition ([`firmware::data_desc`]; the scenario's bad ring id or read
    /// leaving the core), then the LOCAL and REMOTE semaphore descriptors
    /// ([`RingLayout::sema_desc`], [`firmware::sema_desc`]).
    fn engine_descs(
        &mut self,
        x: &LegCtx,
        (k, p0, np): (usize, u8, u8),
        side: u8,
        pos: &mut RingPos,
    ) -> Vec<[u8; 16]> {
        let (lay, place, l) = (self.layout, self.place, x.l);
        let mut descs = Vec::new();
        let mut push = |d: Result<[u8; 16], _>, pos: &mut RingPos| {
            descs.push(d.unwrap_or([0; 16]));
            *pos = pos.advance(1, lay.ring_len);
        };
        if let Some(kc) = x
            .kcopy
            .filter(|_| k == 0 && u32::from(np) + 3 < lay.ring_len)
        {
            let to = match (side, kc) {
                (1, KCopy::Peer) => x.rs,
                _ => x.ts,
            };
            let ptr = soc_route(place, x.ts, to, lay.sema_const - KCOPY_LEAD);
            let len = SEMA_CONST_BYTES.len() as u32 + KCOPY_LEAD as u32;
            push(firmware::data_desc(side, len, pos.ring_id, ptr), pos);
            if side == 0 {
                match kc {
                    KCopy::Peer => self.cov.konst_copies += 1,
                    KCopy::Own => self.cov.konst_copies_own += 1,
                }
            }
        }
        for (j, p) in (p0..p0 + np).enumerate() {
            let at = Some((k, j as u32));
            let (ring_id, ptr) = if side == 0 {
                let rid = if l.ring_err == at {
                    Q_PTR_RING_ID.wrapping_add(pos.ring_id.into(), 2) as u8
                } else {
                    pos.ring_id
                };
                let to = if x.read_err == at && !sem_overrun(x) {
                    x.rs
                } else {
                    x.ts
                };
                let src = map::sbuf_offset(p, l.src_off.into());
                (rid, soc_route(place, x.ts, to, src))
            } else if x.read_err == at && sem_overrun(x) {
                // the S2M burst starts in the RX core's SEM_INCR window and
                // runs past its end: SLVERR at the in-lane, that S2M queue stops
                let end = map::CORE_EVT_INCR_BASE + map::CORE_EVT_INCR_BYTES;
                (pos.ring_id, soc_route(place, x.ts, x.rs, end - 8))
            } else {
                let dst = map::sbuf_offset(p, l.dst_off.into());
                (pos.ring_id, soc_route(place, x.ts, x.rs, dst))
            };
            push(firmware::data_desc(side, l.bytes, ring_id, ptr), pos);
        }
        for (sem_core, sem) in [(x.ts, l.local_sem), (x.rs, l.remote_sem)] {
            let sd = lay.sema_desc(sem);
            let to = if side == 0 { x.ts } else { sem_core };
            let ptr = soc_route(place, x.ts, to, sd.target(side));
            push(firmware::sema_desc(side, sd, pos.ring_id, ptr), pos);
        }
        descs
    }

    /// `rdma_desc_start` of both roles, from the firmware: RX clears its
    /// flag, rings the S2M doorbells and raises the TX core's go semaphore
    /// ([`firmware::rx_arm`]); TX takes the go semaphore, then rings the M2S
    /// doorbells ([`firmware::tx_launch`]). Doorbells per engine or through
    /// the broadcast block (`bcast`). A `tx_first` leg holds RX back and
    /// moves TX's left_pop after its doorbells: the sender rings before the
    /// receiver armed and still consumes the go signal once RX raises it, so
    /// the handshake stays balanced for the next leg.
    fn leg_start(
        x: &LegCtx,
        counts: &[(u8, u32)],
        tx_ops: &mut VecDeque<Op>,
        rx_ops: &mut VecDeque<Op>,
    ) {
        let mode = if x.l.bcast {
            Doorbells::Broadcast
        } else {
            Doorbells::PerEngine
        };
        let db = |side| {
            infallible(firmware::doorbells(
                mode,
                (0, side),
                counts,
                &PairDoorbells { side },
            ))
        };
        let rx = firmware::rx_arm(db(1), map::sem_incr_offset(DEFAULT_GO_SEM));
        let mut tx = firmware::tx_launch(DEFAULT_GO_SEM, db(0));
        if x.l.tx_first {
            rx_ops.push_back(Op::Delay(3000));
            tx.rotate_left(1);
        }
        rx_ops.push_back(Op::CheckNoLanding { rx: 1 - x.l.tx });
        lower(&rx, rx_ops);
        lower(&tx, tx_ops);
    }

    /// Completion (seed 001 §5): every engine that completes raises
    /// local_sem on TX and remote_sem on RX by one; TX polls its local_sem,
    /// RX its remote_sem up to the expected values. An engine stopped by a
    /// ring-id error raises neither: after a wait TX reads the exact value.
    fn leg_completion(
        &mut self,
        x: &LegCtx,
        id: usize,
        engines: usize,
        tx_ops: &mut VecDeque<Op>,
        rx_ops: &mut VecDeque<Op>,
    ) {
        let l = x.l;
        let (t, r) = (l.tx, 1 - l.tx);
        let failed = l.ring_err.map_or(0, |_| 1) + x.read_err.map_or(0, |_| 1);
        let ok = engines as i32 - failed;
        let (ls, rsm) = (l.local_sem, l.remote_sem);
        self.exp_sem[t][usize::from(ls)] += ok;
        self.exp_sem[r][usize::from(rsm)] += ok;
        let lmin = self.exp_sem[t][usize::from(ls)];
        let rmin = self.exp_sem[r][usize::from(rsm)];
        tx_ops.push_back(Op::Poll {
            addr: map::sem_read_offset(ls) as u32,
            min: lmin,
        });
        rx_ops.push_back(Op::Poll {
            addr: map::sem_read_offset(rsm) as u32,
            min: rmin,
        });
        if l.ring_err.is_some() {
            // the stopped engine never raises its semaphores: wait, then read exact values
            tx_ops.push_back(Op::Delay(4000));
            tx_ops.push_back(Op::Expect {
                addr: map::sem_read_offset(ls) as u32,
                value: lmin as u32,
            });
            rx_ops.push_back(Op::Delay(4000));
        }
        tx_ops.push_back(Op::Done { leg: id });
        rx_ops.push_back(Op::Done { leg: id });
    }

    /// Accesses the Q7 port must refuse (SLVERR) or answer from its own
    /// broadcast registers, on a random port while random legs run
    /// ([`probe_seq`]), then a store into the port's own SBUF
    /// ([`Self::sbuf_store_probe`]).
    fn probe_prog(&mut self) -> Prog {
        let c = self.q7rng.below(2) as usize;
        let mut ops = probe_seq(&mut self.q7rng, self.p.engines);
        self.sbuf_store_probe(c, &mut ops);
        Prog {
            port: vec![c],
            ops,
            wait_until: 0,
        }
    }

    /// A Q7 store into the port's own SBUF (the Q7 write lane's local SBUF
    /// target, a 4-byte strobe): it writes the word's current expected bytes
    /// back, so the image is unchanged, and only on a core that no leg in
    /// flight writes to (a leg's TX side only reads its SBUF).
    fn sbuf_store_probe(&mut self, c: usize, ops: &mut VecDeque<Op>) {
        let rx_busy = self
            .legs
            .iter()
            .any(|l| l.done_sides < l.sides && 1 - l.spec.tx == c);
        if rx_busy {
            return;
        }
        let pb = self.p.sbuf_part_bytes;
        let part = self.q7rng.below(128) as u8;
        let off = 4 * self.q7rng.below(u64::from(pb / 4)) as u32;
        let k = usize::from(part) * pb as usize + off as usize;
        let b = &self.exp_sbuf[c][k..k + 4];
        ops.push_back(Op::wr(
            map::sbuf_offset(part, u64::from(self.p.sbuf_win_base + off)),
            u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        ));
        self.cov.q7_sbuf_stores += 1;
    }

    /// The port a program's head op uses.
    fn op_port(p: &Prog) -> usize {
        // RX programs: everything on the TX port except the final remote_sem poll
        // and the landing check, which read the RX core.
        let go = map::sem_read_offset(DEFAULT_GO_SEM) as u32;
        match (p.port.len(), p.ops.front()) {
            (2, Some(Op::Poll { addr, .. })) if *addr != go => p.port[1],
            (2, Some(Op::Expect { .. })) => p.port[1],
            _ => p.port[0],
        }
    }

    fn leg_done(&mut self, id: usize, cycle: u64) {
        let lr = &mut self.legs[id];
        lr.done_sides += 1;
        if lr.done_sides < lr.sides {
            return;
        }
        let l = lr.spec;
        let read_err = lr.read_err;
        let early = lr.landed_early;
        if early {
            self.fail(
                cycle,
                format!("leg {id}: bytes reached the RX core before it armed"),
            );
        }
        // Expected bytes: every partition of the engines that completed.
        let split = split_partitions(l.mask, l.part_start, l.part_count);
        let pb = self.p.sbuf_part_bytes as usize;
        let wb = self.p.sbuf_win_base;
        let (t, r) = (l.tx, 1 - l.tx);
        for (k, &(_, p0, np)) in split.iter().enumerate() {
            let upto = match (l.ring_err, read_err) {
                (Some((ke, j)), _) if ke == k => j as u8,
                (_, Some((ke, j))) if ke == k => j as u8,
                _ => np,
            };
            for p in p0..p0 + upto {
                let s = usize::from(p) * pb + (l.src_off - wb) as usize;
                let d = usize::from(p) * pb + (l.dst_off - wb) as usize;
                let n = l.bytes as usize;
                let src: Vec<u8> = self.exp_sbuf[t][s..s + n].to_vec();
                self.exp_sbuf[r][d..d + n].copy_from_slice(&src);
                self.cov.bytes += n as u64;
            }
        }
        self.cov.legs += 1;
    }

    fn scenario_done(&mut self, s: Scenario) {
        let k = SCENARIOS.iter().position(|x| x.1 == s).unwrap_or(0);
        self.cov.scen[k] += 1;
    }

    /// The Q7 ports: the responses seen in `o`, then the next accesses.
    fn masters(&mut self, cycle: u64, o: Option<&PairOut>) {
        if let Some(o) = o {
            for c in 0..2 {
                self.retire(c, cycle, &o.axil(c));
            }
        }
        for c in 0..2 {
            if self.m[c].is_none() {
                self.issue(c, cycle);
            }
        }
    }

    /// Port `c`'s handshakes in its outputs `o` of the last cycle; a taken
    /// response ends the access (checked against the expected answer) and
    /// pops its op.
    fn retire(&mut self, c: usize, cycle: u64, o: &AxilOut) {
        let Some(mut t) = self.m[c] else {
            return;
        };
        if t.axil.held(o) {
            self.cov.q7_resp_held += 1;
        }
        let done = t.axil.observe(o);
        self.m[c] = Some(t);
        let Some((resp, data)) = done else {
            return;
        };
        let dir = if t.axil.write { "write" } else { "read" };
        if (resp != 0) != t.want_err || (t.want_err && resp != AXI_RESP_SLVERR) {
            let msg = format!("Q7 {c}: {dir} 0x{:08x} answered {resp}", t.axil.addr);
            self.fail(cycle, msg);
        } else if t.want_err {
            self.cov.q7_slverr += 1;
        }
        self.m[c] = None;
        self.pop_op(t.prog, cycle, (!t.axil.write).then_some(data));
    }

    /// Idle port `c` takes the first ready program op aimed at it (programs
    /// taken in turn from one that rotates with the cycle).
    fn issue(&mut self, c: usize, cycle: u64) {
        let busy = self.m.map(|t| t.map(|t| t.prog));
        let np = self.progs.len();
        let start = (cycle as usize) % np.max(1);
        for k in 0..np {
            let pi = (start + k) % np;
            let pr = &self.progs[pi];
            if busy.contains(&Some(pi)) || pr.wait_until > cycle || Self::op_port(pr) != c {
                continue;
            }
            let Some(&op) = pr.ops.front() else {
                continue;
            };
            if let Some(axil) = self.access(op, cycle) {
                let want_err = matches!(op, Op::WrErr { .. } | Op::RdErr { .. });
                self.m[c] = Some(PortTxn {
                    axil,
                    prog: pi,
                    want_err,
                });
                return;
            }
        }
    }

    /// The AXI4-Lite transaction of bus op `op` (`None`: a local op).
    fn access(&mut self, op: Op, cycle: u64) -> Option<AxilMaster> {
        match op {
            Op::Wr { addr, data, launch } => {
                if launch {
                    self.marks.tx_doorbell.get_or_insert(cycle);
                }
                Some(self.write_access(AxilMaster::write(addr, data)))
            }
            Op::WrErr { addr, data, strb } => {
                Some(self.write_access(AxilMaster::write(addr, data).with_strb(strb)))
            }
            Op::Poll { addr, .. } | Op::Expect { addr, .. } | Op::RdErr { addr } => {
                if let Op::Poll { .. } = op {
                    self.cov.polls += 1;
                }
                self.cov.q7_reads += 1;
                Some(AxilMaster::read(addr))
            }
            Op::Delay(_) | Op::CheckNoLanding { .. } | Op::Done { .. } => None,
        }
    }

    /// A write, with one in eight offering AW and W 1..3 cycles apart,
    /// either one first.
    fn write_access(&mut self, m: AxilMaster) -> AxilMaster {
        self.cov.q7_writes += 1;
        if self.q7_ideal || !self.q7rng.chance(1, 8) {
            return m;
        }
        let d = self.q7rng.range(1, 3) as u32;
        self.cov.q7_aw_w_apart += 1;
        if self.q7rng.bool() {
            m.offer_apart(d, 0)
        } else {
            m.offer_apart(0, d)
        }
    }

    /// This cycle's drive of both Q7 ports: each port's transaction, with
    /// BREADY / RREADY low one cycle in four (the port holds its response).
    fn drive_ports(&mut self, i: &mut PairIn) {
        for c in 0..2 {
            let (br, rr) = match self.q7_ideal {
                true => (true, true),
                false => (!self.q7rng.chance(1, 4), !self.q7rng.chance(1, 4)),
            };
            let d = match &mut self.m[c] {
                Some(t) => {
                    t.axil.set_ready(if t.axil.write { br } else { rr });
                    t.axil.drive()
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

    /// The access of program `pi`'s head op completed (`rd`: read data).
    fn pop_op(&mut self, pi: usize, cycle: u64, rd: Option<u32>) {
        let Some(op) = self.progs[pi].ops.front().copied() else {
            return;
        };
        match (op, rd) {
            (Op::Poll { min, .. }, Some(v)) if (v as i32) < min => {
                // poll again later (the Q7 busy-waits with a gap)
                self.progs[pi].wait_until = cycle + POLL_GAP;
                return;
            }
            (Op::Expect { addr, value }, Some(v)) if v != value => {
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

    /// Execute the program's non-bus ops at its head.
    fn run_local_ops(&mut self, pi: usize, cycle: u64) {
        while let Some(op) = self.progs[pi].ops.front().copied() {
            match op {
                Op::Delay(n) => {
                    self.progs[pi].ops.pop_front();
                    self.progs[pi].wait_until = cycle + n;
                    self.cov.tx_waited += 1;
                    break;
                }
                Op::Done { leg } => {
                    self.progs[pi].ops.pop_front();
                    self.leg_done(leg, cycle);
                }
                Op::CheckNoLanding { rx } => {
                    self.progs[pi].ops.pop_front();
                    let now = self.rx_bursts(rx);
                    for lr in self.legs.iter_mut().filter(|l| l.done_sides < l.sides) {
                        if lr.spec.tx_first && lr.rx_bursts0 != now {
                            lr.landed_early = true;
                        }
                    }
                }
                _ => break,
            }
        }
    }

    fn rx_bursts(&self, c: usize) -> u64 {
        // write bursts routed by the core's xbar ([31:24] of dbg_xbar_o), as last seen
        self.last_xbar[c] >> 24 & 0xFF
    }
}

impl LegEnv {
    /// Estimated cycles of a leg (ring stores dominate).
    fn leg_budget(&self, l: &LegSpec) -> u64 {
        let descs =
            u64::from(l.part_count) + 2 * split_partitions(l.mask, 0, l.part_count).len() as u64;
        // generous: the end-of-run image check needs a quiet pair
        descs * 8 * 24 + u64::from(l.part_count) * u64::from(l.bytes) + 20_000
    }

    fn scan_reserve(&self) -> u64 {
        self.dbg_words() as u64 + 64
    }

    /// Words the debug port preloads and scans.
    fn dbg_words(&self) -> usize {
        self.dbg_map.as_ref().map_or(self.words(), Vec::len)
    }

    /// The SBUF word of debug-port position `k` (< [`Self::dbg_words`]).
    fn dbg_word(&self, k: usize) -> usize {
        self.dbg_map.as_ref().map_or(k, |m| m[k] as usize)
    }

    fn next_step(&mut self, cycle: u64) {
        if !self.step_done(cycle) {
            return;
        }
        if let Some(Step::Legs(sc)) = self.step {
            self.scenario_done(sc);
        }
        if (self.step == Some(Step::Random) || self.plan.is_empty()) && !self.random {
            self.step = Some(Step::Random);
            return;
        }
        if self.step == Some(Step::Random) || self.plan.is_empty() {
            // Random mix: one leg, or both directions at once.
            let (l, m) = self.random_mix();
            let budget = self.leg_budget(&l) + m.as_ref().map_or(0, |m| self.leg_budget(m));
            if cycle + budget + self.scan_reserve() < self.cycles {
                self.bp_on = true;
                // every earlier program has finished (step_done): drop them
                self.progs.clear();
                if let Some(m) = m {
                    self.start_leg(m, cycle, None);
                }
                self.start_leg(l, cycle, None);
                if self.q7rng.chance(1, 3) {
                    let prog = self.probe_prog();
                    self.progs.push(prog);
                }
            }
            self.step = Some(Step::Random);
            return;
        }
        let s = self.plan.pop_front().unwrap_or(Step::Random);
        self.start_step(s, cycle);
    }

    fn record_scan(&mut self, cycle: u64, o: &PairOut) {
        let (valid, sel, addr) = self.scan_hist[cycle as usize % 2];
        if valid && !sel {
            self.obs_sbuf[0][addr] = o.dbg_a_mem_rdata_o;
            self.obs_sbuf[1][addr] = o.dbg_b_mem_rdata_o;
        }
        if let Some(k) = self.last_sem_idx {
            self.obs_sem[0][k] = o.dbg_a_sem_o as u32;
            self.obs_sem[1][k] = o.dbg_b_sem_o as u32;
            if let Some((c, idx, min)) = self.watch {
                if usize::from(idx) == k && self.obs_sem[c][k] as i32 >= min {
                    self.marks.sem_reached = Some(cycle);
                    self.watch = None;
                }
            }
        }
    }

    fn final_check(&mut self, cycle: u64) {
        let quiet = self.quiet_since != u64::MAX && cycle >= self.quiet_since + self.scan_reserve();
        if !quiet {
            // Random legs start only while their budget and a full scan fit
            // before the end (the drain), so a pair still busy here has a
            // leg that never completed.
            if self.random && self.step == Some(Step::Random) {
                let open: Vec<usize> = (0..self.legs.len())
                    .filter(|&k| self.legs[k].done_sides < self.legs[k].sides)
                    .collect();
                self.fail(
                    cycle,
                    format!(
                        "pair not quiet at the end of the run (drain): legs {open:?} in flight"
                    ),
                );
            }
            return;
        }
        self.final_checked = true;
        for c in 0..2 {
            for j in 0..self.dbg_words() {
                let k = self.dbg_word(j);
                let w = &self.obs_sbuf[c][k];
                let mut e = [0u8; 8];
                e.copy_from_slice(&self.exp_sbuf[c][8 * k..8 * k + 8]);
                let e = u64::from_le_bytes(e);
                self.cov.words_checked += 1;
                if *w != e {
                    let pb = self.p.sbuf_part_bytes as usize;
                    let msg = format!(
                        "core {} SBUF partition {} offset 0x{:x}: expected 0x{e:016x}, found 0x{w:016x}",
                        ["A", "B"][c],
                        8 * k / pb,
                        self.p.sbuf_win_base as usize + 8 * k % pb
                    );
                    self.fail(cycle, msg);
                    break;
                }
            }
            for s in 0..256 {
                self.cov.sems_checked += 1;
                if self.obs_sem[c][s] as i32 != self.exp_sem[c][s] {
                    let msg = format!(
                        "core {} semaphore {s}: expected {}, found {}",
                        ["A", "B"][c],
                        self.exp_sem[c][s],
                        self.obs_sem[c][s] as i32
                    );
                    self.fail(cycle, msg);
                    break;
                }
            }
        }
    }

    /// Environment that runs one leg `l` in placement `place` (then idles);
    /// the pair's initial SBUF images are this environment's random images.
    pub fn single(seed: u64, cycles: u64, place: u64, l: LegSpec) -> Self {
        let mut e = Self::with_scenario(seed, cycles, None).directed_only();
        e.place = place;
        e.plan = VecDeque::from([Step::Reset(place), Step::Preload, Step::Setup, Step::One(l)]);
        e
    }

    /// [`LegEnv::single`] on a pair of parameters `p`: the debug port
    /// preloads, scans and checks only the leg's source and destination
    /// words, and watches the RX core's remote semaphore every cycle until
    /// it reaches the engine count ([`LegEnv::marks`]).
    pub fn single_with(p: CoreParams, seed: u64, cycles: u64, place: u64, l: LegSpec) -> Self {
        let mut e = Self::with_params(p, seed, cycles, None).directed_only();
        e.place = place;
        e.plan = VecDeque::from([Step::Reset(place), Step::Preload, Step::Setup, Step::One(l)]);
        let pw = (p.sbuf_part_bytes / 8) as usize;
        let mut used = vec![false; p.sbuf_words()];
        for part in l.part_start..l.part_start + l.part_count {
            for off in [l.src_off, l.dst_off] {
                let w0 = usize::from(part) * pw + ((off - p.sbuf_win_base) / 8) as usize;
                let w1 = w0 + l.bytes.div_ceil(8) as usize + usize::from(off % 8 != 0);
                used[w0..w1.min(usize::from(part + 1) * pw)].fill(true);
            }
        }
        e.dbg_map = Some(
            (0..used.len() as u32)
                .filter(|&k| used[k as usize])
                .collect(),
        );
        let engines = split_partitions(l.mask, l.part_start, l.part_count).len() as i32;
        e.watch = Some((1 - l.tx, l.remote_sem, engines));
        e.q7_ideal = true;
        e
    }

    /// The same single-leg environment with the lockstep runs' Q7 handshake
    /// variations (one write in eight offers AW and W apart, BREADY and
    /// RREADY low one cycle in four) instead of [`LegEnv::single_with`]'s
    /// Q7 masters that drive every access at once.
    pub fn with_q7_variations(mut self) -> Self {
        self.q7_ideal = false;
        self
    }

    /// The pair's ring layout: rings of 64 descriptors on queue 0 in the
    /// pair's descriptor RAM ([`RingLayout::compact`]).
    pub fn layout(&self) -> RingLayout {
        self.layout
    }

    /// Milestones of the run so far.
    pub fn marks(&self) -> LegMarks {
        self.marks
    }

    /// Preloaded SBUF image of core `c` of a pair of parameters `p`.
    pub fn initial_sbuf_with(p: CoreParams, seed: u64, c: usize) -> Vec<u8> {
        Self::with_params(p, seed, 1, None).exp_sbuf[c].clone()
    }

    /// Words the debug port scans (and a full scan's length in cycles);
    /// none with the backdoor.
    pub fn scan_words(&self) -> usize {
        if self.backdoor {
            0
        } else {
            self.dbg_words()
        }
    }

    /// The same environment with the SBUFs loaded and read by the testbench
    /// through a backdoor into the memory arrays instead of the one-word
    /// debug memory port: the caller stores [`LegEnv::preload_image`] and
    /// clears [`LegEnv::desc_ram_words`] words of each descriptor RAM before
    /// the first cycle, and hands the images it reads after the leg to
    /// [`LegEnv::observe_image`]; the debug memory port stays idle.
    ///
    /// The preload step takes no cycle of the pair, but the environment's
    /// clock and its Q7 handshake stream advance over it as over the debug
    /// port's preload (`LegEnv::skip_preload`), so from the queue set-up on
    /// the pair's inputs are the debug-port path's, cycle for cycle, shifted
    /// by the preload's length: the leg's milestones ([`LegEnv::marks`], in
    /// the environment's cycles) are the same.
    pub fn with_backdoor(mut self) -> Self {
        self.backdoor = true;
        self
    }

    /// The preload step under the backdoor, at environment cycle `cycle`:
    /// the idle Q7 ports' handshake draws of the preload's cycles (one word
    /// per cycle: the debug map, then the descriptor RAM), the step
    /// complete, the clock advanced. Returns the environment cycle to go on with.
    fn skip_preload(&mut self, cycle: u64) -> u64 {
        let n = self.dbg_words() + self.desc_words();
        let mut idle = PairIn::default();
        for _ in 0..n {
            self.drive_ports(&mut idle);
        }
        self.preload_k = n;
        self.skipped += n as u64;
        cycle + n as u64
    }

    /// Writes into `img` (core `c`'s SBUF as 64-bit words, partition-major,
    /// [`CoreParams::sbuf_words`] long) every word the preload through the
    /// debug port would store, from this environment's initial image.
    pub fn preload_image(&self, c: usize, img: &mut [u64]) {
        for j in 0..self.dbg_words() {
            let k = self.dbg_word(j);
            let mut w = [0u8; 8];
            w.copy_from_slice(&self.exp_sbuf[c][8 * k..8 * k + 8]);
            img[k] = u64::from_le_bytes(w);
        }
    }

    /// Words of each descriptor RAM the preload clears (the debug port's
    /// second phase, `dbg_*_mem_sel_i` = 1).
    pub fn desc_ram_words(&self) -> usize {
        self.desc_words()
    }

    /// Records core `c`'s SBUF image `img` (read through the backdoor after
    /// the leg) as the debug port's scan would: the scanned words only.
    pub fn observe_image(&mut self, c: usize, img: &[u64]) {
        for j in 0..self.dbg_words() {
            let k = self.dbg_word(j);
            self.obs_sbuf[c][k] = img[k];
        }
    }

    /// True when every leg started so far has completed.
    pub fn legs_complete(&self) -> bool {
        !self.legs.is_empty() && self.legs.iter().all(|l| l.done_sides == l.sides)
    }

    /// Stored bytes per partition and the partition offset where they start.
    pub fn sbuf_window(&self) -> (u32, u32) {
        (self.p.sbuf_part_bytes, self.p.sbuf_win_base)
    }

    /// Preloaded SBUF image of core `c` before any leg (`seed`'s images).
    pub fn initial_sbuf(seed: u64, c: usize) -> Vec<u8> {
        Self::with_scenario(seed, 1, None).exp_sbuf[c].clone()
    }

    /// No random legs after the directed ones.
    pub fn directed_only(mut self) -> Self {
        self.random = false;
        self
    }

    /// Expected SBUF image of core `c` (partition-major, `part_bytes` each).
    pub fn expected_sbuf(&self, c: usize) -> &[u8] {
        &self.exp_sbuf[c]
    }

    /// Semaphores of core `c` as scanned through the debug port.
    pub fn observed_sems(&self, c: usize) -> [i32; 256] {
        self.obs_sem[c].map(|v| v as i32)
    }

    /// SBUF image of core `c` as scanned through the debug port.
    pub fn observed_sbuf(&self, c: usize) -> Vec<u8> {
        self.obs_sbuf[c]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect()
    }

    /// Initial (preloaded) SBUF bytes are the environment's first image; the
    /// legs run so far.
    pub fn legs(&self) -> Vec<LegSpec> {
        self.legs.iter().map(|l| l.spec).collect()
    }

    /// First environment check failure, if any.
    pub fn failure(&self) -> Option<&str> {
        self.fail_msg.as_deref()
    }

    /// True once the end-of-run image check ran.
    pub fn final_checked(&self) -> bool {
        self.final_checked
    }
}

impl Stimulus for LegEnv {
    type In = PairIn;
    type Out = PairOut;

    fn new(seed: u64, cycles: u64) -> Self {
        Self::with_scenario(seed, cycles, None)
    }

    fn next(&mut self, cycle: u64, prev_out: Option<&PairOut>) -> PairIn {
        let mut cycle = cycle + self.skipped;
        if let Some(o) = prev_out {
            self.last_xbar = [o.dbg_a_xbar_o, o.dbg_b_xbar_o];
            self.record_scan(cycle, o);
        }
        self.masters(cycle, prev_out);
        self.next_step(cycle);
        if self.backdoor && self.step == Some(Step::Preload) {
            cycle = self.skip_preload(cycle);
            self.next_step(cycle);
        }
        self.rst = matches!(self.step, Some(Step::Reset(_))) && cycle < self.step_until;
        let mut i = PairIn::default();
        // `run_local_ops` never adds or drops programs (only `next_step` does);
        // a program whose head is a bus op (or that is empty) has nothing to run.
        for p in 0..self.progs.len() {
            if self.progs[p].ops.front().is_some_and(Op::is_local) {
                self.run_local_ops(p, cycle);
            }
        }
        i.rst_ni = u64::from(!self.rst);
        i.place_i = self.place;
        self.drive_ports(&mut i);
        // debug memory port: preload, then a continuous scan
        let words = self.dbg_words();
        let mut hist = (false, false, 0usize);
        if self.step == Some(Step::Preload) && !self.rst {
            let k = self.preload_k;
            if k < words {
                let k = self.dbg_word(k);
                let mut w = [0u8; 8];
                w.copy_from_slice(&self.exp_sbuf[0][8 * k..8 * k + 8]);
                i.dbg_a_mem_wdata_i = u64::from_le_bytes(w);
                w.copy_from_slice(&self.exp_sbuf[1][8 * k..8 * k + 8]);
                i.dbg_b_mem_wdata_i = u64::from_le_bytes(w);
                i.dbg_a_mem_addr_i = k as u64;
                i.dbg_b_mem_addr_i = k as u64;
            } else {
                i.dbg_a_mem_sel_i = 1;
                i.dbg_b_mem_sel_i = 1;
                i.dbg_a_mem_addr_i = (k - words) as u64;
                i.dbg_b_mem_addr_i = (k - words) as u64;
            }
            i.dbg_a_mem_we_i = 1;
            i.dbg_b_mem_we_i = 1;
            self.preload_k += 1;
        } else if !self.backdoor {
            let k = self.dbg_word((self.scan_k % words as u64) as usize);
            self.scan_k += 1;
            i.dbg_a_mem_addr_i = k as u64;
            i.dbg_b_mem_addr_i = k as u64;
            hist = (!self.rst, false, k);
        }
        self.scan_hist[cycle as usize % 2] = hist;
        let sk = self
            .watch
            .map_or((cycle % 256) as usize, |w| usize::from(w.1));
        i.dbg_a_sem_idx_i = sk as u64;
        i.dbg_b_sem_idx_i = sk as u64;
        self.last_sem_idx = (!self.rst).then_some(sk);
        // backpressure and long stalls
        if self.bp_on && !self.rst {
            for (k, v) in [&mut i.a_mem_stall_i, &mut i.b_mem_stall_i]
                .into_iter()
                .enumerate()
            {
                let _ = k;
                if self.rng.chance(1, 8) {
                    *v = 1;
                    self.cov.bp_mem += 1;
                }
            }
            for v in [&mut i.ab_stall_i, &mut i.ba_stall_i] {
                if self.rng.chance(1, 16) {
                    *v = 1;
                    self.cov.bp_link += 1;
                }
            }
        }
        if let Some((a, b)) = self.stall_window {
            if (a..b).contains(&cycle) {
                i.ab_stall_i = 1;
                i.ba_stall_i = 1;
                self.cov.stall_cycles += 1;
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
        let mut v = vec![("legs".to_string(), c.legs)];
        for (k, (n, _)) in SCENARIOS.iter().enumerate() {
            v.push((format!("scen_{n}"), c.scen[k]));
        }
        for (n, x) in [
            ("bytes_copied", c.bytes),
            ("q7_writes", c.q7_writes),
            ("q7_reads", c.q7_reads),
            ("sem_polls", c.polls),
            ("bp_mem", c.bp_mem),
            ("bp_link", c.bp_link),
            ("link_stall_cycles", c.stall_cycles),
            ("resets", c.resets),
            ("tx_first_delays", c.tx_waited),
            ("q7_aw_w_apart", c.q7_aw_w_apart),
            ("q7_resp_held", c.q7_resp_held),
            ("q7_slverr", c.q7_slverr),
            ("q7_sbuf_stores", c.q7_sbuf_stores),
            ("konst_copies", c.konst_copies),
            ("konst_copies_own", c.konst_copies_own),
            ("sbuf_words_checked", c.words_checked),
            ("sems_checked", c.sems_checked),
            ("check_fail", c.check_fail),
        ] {
            v.push((n.to_string(), x));
        }
        v
    }

    fn compare_final(&self, other: &Self) -> Result<(), String> {
        if let Some(m) = &self.fail_msg {
            return Err(format!("environment check failed: {m}"));
        }
        for c in 0..2 {
            if self.obs_sbuf[c] != other.obs_sbuf[c] {
                return Err(format!(
                    "core {} SBUF images differ (golden vs RTL)",
                    ["A", "B"][c]
                ));
            }
            if self.obs_sem[c] != other.obs_sem[c] {
                return Err(format!(
                    "core {} semaphores differ (golden vs RTL)",
                    ["A", "B"][c]
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod closure_tests {
    use super::super::tests::run_golden;
    use super::*;

    /// The pair's ring layout fits the descriptor RAM of every registered
    /// pair: 4 engines × 2 rings of 64 × 16 B = 8 KiB, completion rings to
    /// 12 KiB, constants at 16 KiB − 16 (16 engines: 32 + 16 KiB in 64 KiB).
    #[test]
    fn the_pair_layout_fits_every_registered_descriptor_ram() {
        for p in [
            CoreParams::default(),
            super::super::seed_params(),
            super::super::seed16_params(),
        ] {
            let l = LegEnv::with_params(p, 1, 1, None).layout();
            assert_eq!((l.ring_len, l.slot_bytes, l.queues), (64, 1024, 1));
            assert!(l.fits(p.engines as u8, p.desc_bytes.into()), "{p:?}");
            assert_eq!(l.sema_const, 0x1200_0000 + u64::from(p.desc_bytes) - 16);
            // the constant copy's lead bytes lie past the last completion ring
            let last = p.engines as u8 - 1;
            assert!(l.comp_ring_offset(last, 0) + l.slot_bytes <= l.sema_const - KCOPY_LEAD);
        }
        let l = LegEnv::with_scenario(1, 1, None).layout();
        assert_eq!(l.comp_ring_offset(0, 0), 0x1200_2000);
    }

    /// The set-up program of core B (die 1) on the other-die placement, as
    /// hand-computed from the map (PUBLIC-FACTS §1 queue layout): engine 0
    /// M2S change_state NORMAL (0x1100_0204 ← 1), RL (0x1100_1030 ← 64),
    /// RBP_LOW/HIGH of the un-routed ring 1 << 47 | 0x1200_0000, CFG
    /// (0x1100_1020 ← EN_PREF | EN_SCHED); engine 0 S2M the same 0x2_0000
    /// further with the ring 1 KiB further; the program ends with the
    /// constants {1, 0}, {0, 1} at 0x1200_3FF0.
    #[test]
    fn core_b_setup_program_is_the_hand_computed_sequence() {
        let env = LegEnv::with_scenario(1, 1, None);
        let ops: Vec<(u32, u32)> = env
            .setup_prog(1)
            .ops
            .iter()
            .map(|o| match *o {
                Op::Wr { addr, data, .. } => (addr, data),
                ref x => panic!("{x:?}"),
            })
            .collect();
        assert_eq!(ops.len(), 4 * 2 * 5 + 4);
        assert_eq!(
            &ops[..10],
            &[
                (0x1100_0204, 1),
                (0x1100_1030, 64),
                (0x1100_1028, 0x1200_0000),
                (0x1100_102C, 0x8000),
                (0x1100_1020, 0x3_0000),
                (0x1102_0204, 1),
                (0x1102_1030, 64),
                (0x1102_1028, 0x1200_0400),
                (0x1102_102C, 0x8000),
                (0x1102_1020, 0x3_0000),
            ]
        );
        // engine 3 S2M: ring slot 7, CSRs at 0x1100_0000 + 3 << 18 + 0x2_0000
        assert_eq!(ops[37], (0x110E_1028, 0x1200_1C00));
        assert_eq!(
            &ops[40..],
            &[
                (0x1200_3FF0, 1),
                (0x1200_3FF4, 0),
                (0x1200_3FF8, 0),
                (0x1200_3FFC, 1)
            ]
        );
    }

    /// The Q7 handshake variations and probes (docs/signoff.md §6) on the
    /// golden pair: every scenario and the random legs still complete, the
    /// end-of-run images and semaphores check, every probe is refused with
    /// SLVERR (the environment fails on any other answer), and the
    /// ring_id_error scenario's second engine with a read leaving the core
    /// stops exactly there (exact semaphore reads and the image check).
    #[test]
    fn q7_variations_probes_and_the_read_error_leave_the_checks_clean() {
        let cycles = 700_000;
        let env = run_golden(LegEnv::with_scenario(3, cycles, None), cycles);
        let cov: std::collections::HashMap<String, u64> = env.coverage().into_iter().collect();
        assert_eq!(env.failure(), None, "{cov:?}");
        assert!(env.final_checked());
        for (n, _) in SCENARIOS {
            assert!(cov[&format!("scen_{n}")] > 0, "scenario {n}: {cov:?}");
        }
        for n in [
            "q7_aw_w_apart",
            "q7_resp_held",
            "q7_slverr",
            "q7_sbuf_stores",
            "konst_copies",
            "konst_copies_own",
        ] {
            assert!(cov[n] > 0, "{n}: {cov:?}");
        }
        assert_eq!(cov["check_fail"], 0);
    }
}
