//! The two device legs: `rdma_desc_gen` (extended op 8) and `rdma_desc_start`
//! (extended op 9), seed 001 §2.5, §4, §5.
//!
//! Model of one leg (project-defined where the seed is MED/LOW, see
//! docs/system.md): DMA engine `e` of the TX (source) core runs a
//! memory-to-memory copy on queue `q` — its M2S side reads the source SBUF,
//! its S2M side writes the destination through the routed (folded) SoC
//! address, like the seed's CME-COPY ("buf_ptr = src SBUF SoC on the M2S BD,
//! = dst_soc on the S2M BD"). The M2S ring lives in the TX core's descriptor
//! RAM and is built by the TX Q7; the S2M ring is built by the RX Q7 (which
//! programs its windows, as the seed's figure shows) and stored over the
//! fabric into the TX core's descriptor RAM next to the M2S ring, so the TX
//! engine fetches both from its own RAM (as in `pair::core`, whose
//! interconnect answers a descriptor read leaving the core with DECERR). After
//! the data descriptors each engine carries a LOCAL semaphore descriptor (a
//! 4-byte write of 1 into SEM_INCR\[local_sem\] of the TX core) and a REMOTE one
//! (SEM_INCR\[remote_sem\] of the RX core, routed with the routing id).
//!
//! The Q7 that runs a leg is named by its PRID: [`prid`]`(core, role)`, whose
//! parity is the role (seed 001 §4.2: bit 0 of the role word = PRID parity;
//! 0 = RX, 1 = TX). Both words of a leg carry the semaphores as seen from TX
//! (local_sem on the TX core, remote_sem on the RX core).

use crate::addr;
use crate::isa::{RdmaDescGen, RdmaDescStart, Role};
use crate::udma::regs::*;

use super::classify::{PeerClass, PreSync};
use super::firmware::{self, Q7Step, RingLayout};
use super::map::{self, core_local, sbuf_offset};
use super::topology::{CoreId, DMA_ENGINES};
use super::{Q7Op, SystemError, SystemState};

/// Largest data length of one descriptor (PUBLIC-FACTS §1).
pub const MAX_DESC_LEN: u64 = UDMA_DESC_MAX_LEN as u64;
/// Base of the Q7-local window views of the peer SBUF: window `k` maps
/// `k << 28` (256 MiB, the whole SBUF aperture) to the peer SBUF.
pub const XT_WINDOW_SHIFT: u32 = 28;

/// The PRID of the Q7 that plays `role` on `core` (project-defined: two Q7s
/// per core, PRID = 2 × core + role, so the parity is the role).
pub const fn prid(core: CoreId, role: Role) -> u32 {
    core.0 as u32 * 2 + role as u32
}

/// Role a PRID may play (its parity).
pub const fn role_of_prid(prid: u32) -> Role {
    if prid & 1 == 1 {
        Role::Tx
    } else {
        Role::Rx
    }
}

/// What one `rdma_desc_gen` wrote (the DescriptorStream of that Q7).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct GenReport {
    /// Core that ran it.
    pub core: CoreId,
    /// Role (from PRID parity).
    pub role: Role,
    /// The peer core.
    pub peer: CoreId,
    /// `dst_addr` after the fold, as the firmware logs it (seed 001 §2.3,
    /// "after remote_routing_id=$%d, dst_addr=0x%llx").
    pub dst_soc: u64,
    /// The peer's routing id the word carried (`remote_routing_id`, logged
    /// "after remote_routing_id=$%d" in decimal and on the remote semaphore BD).
    pub routing_id: u32,
    /// Descriptors written per engine (index = engine number).
    pub per_engine: Vec<(u8, u32)>,
    /// Total descriptors written (the DescriptorStream count).
    pub total: u32,
    /// Q7-local window view of the peer SBUF per engine (`xt_addrs[16]`), RX only.
    pub xt_addrs: Vec<u32>,
    /// The §2.4 classifier's view of the peer base.
    pub class: PeerClass,
    /// The fold mode the classifier picked.
    pub fold: super::FoldMode,
    /// program_window / update_window log lines (§2.5), RX only.
    pub window_log: Vec<String>,
    /// The pre-sync record (§2.5), RX only.
    pub pre_sync: Option<PreSync>,
    /// The semaphore-descriptor log lines (seed 001 §5), two per engine.
    pub sema_log: Vec<String>,
    /// AXI4-Lite transactions of the set-up program this gen queued (its
    /// CSR writes and 32-bit descriptor-RAM stores, [`Q7Step`]).
    pub setup_writes: u32,
}

/// What the first stage of `rdma_desc_gen` established about the word.
#[derive(Debug, Clone, Copy)]
struct Gen {
    core: CoreId,
    prid: u32,
    role: Role,
    peer: CoreId,
    tx: CoreId,
    rx: CoreId,
    bytes: u64,
    q: u8,
    /// Side of the ring this role fills (0 M2S on TX, 1 S2M on RX).
    side: u8,
    tx_loc: super::topology::CoreLoc,
    rx_loc: super::topology::CoreLoc,
    /// Routing id of the RX core (the chip-id fold's CAYMAN_ID).
    rx_rid: u32,
}

impl Gen {
    /// The two semaphore-descriptor log lines of one engine (seed 001 §5).
    fn sema_log(&self, w: &RdmaDescGen) -> [String; 2] {
        [
            format!(
                "P{}: Q7: rdma_desc_gen [{}] Pushing local  semaphore descriptor, tpb_idx={}, sem={}",
                self.prid,
                self.role.name(),
                self.tx.0,
                w.local_sem
            ),
            format!(
                "P{}: Q7: rdma_desc_gen [{}] Pushing remote semaphore descriptor, remote_tpb={}, routing_id={}, sem={}",
                self.prid,
                self.role.name(),
                self.rx.0,
                self.rx_rid,
                w.remote_sem
            ),
        ]
    }
}

/// Split `count` partitions from `start` over the engines of `mask`:
/// contiguous blocks, the first `count % n` engines take one more.
pub fn split_partitions(mask: u16, start: u8, count: u8) -> Vec<(u8, u8, u8)> {
    let engines: Vec<u8> = (0..DMA_ENGINES).filter(|e| mask >> e & 1 == 1).collect();
    let n = engines.len() as u16;
    let mut out = Vec::new();
    if n == 0 {
        return out;
    }
    let mut p = u16::from(start);
    for (k, &e) in engines.iter().enumerate() {
        let c = u16::from(count) / n + u16::from((k as u16) < u16::from(count) % n);
        out.push((e, p as u8, c as u8));
        p += c;
    }
    out
}

/// Descriptors one engine needs: one per ≤ 64 KiB chunk of each partition, plus 2 semaphore BDs.
pub fn descs_for(parts: u8, bytes: u64) -> u32 {
    u32::from(parts) * bytes.div_ceil(MAX_DESC_LEN).max(1) as u32 + 2
}

/// A queue register a set-up program writes, decoded (what later
/// `rdma_desc_gen`s plan against while the program is queued).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PlannedReg {
    /// The engine's core.
    pub core: u16,
    pub engine: u8,
    pub queue: u8,
    pub side: u8,
    /// Register offset inside the queue group (`UDMA_Q_*`).
    pub reg: u32,
    pub value: u32,
}

impl PlannedReg {
    /// The write applied to a copy of the queue's registers, as the golden
    /// register file stores it (writable bits only).
    fn apply(&self, r: &mut crate::udma::regfile::QueueRegs) {
        let v = self.value;
        match self.reg {
            UDMA_Q_RL => r.rl = Q_RL_LEN.get(v),
            UDMA_Q_RBP_LOW => r.rbp_lo = v & Q_BASE_LOW.mask(),
            UDMA_Q_RBP_HIGH => r.rbp_hi = v,
            UDMA_Q_CFG => r.cfg = v & Q_CFG.mask(),
            UDMA_Q_CRBP_LOW => r.crbp_lo = v & Q_BASE_LOW.mask(),
            UDMA_Q_CRBP_HIGH => r.crbp_hi = v,
            UDMA_S2M_Q_COMP_CFG => r.comp_cfg = v & Q_COMP_CFG.mask(),
            _ => {}
        }
    }
}

/// The set-up program of one `rdma_desc_gen`, queued for [`System::run`]:
/// fast mode applies it at once, cycle mode plays it on the Q7 ports
/// ([`super::q7_exec`]) before any start program of the run.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Q7Setup {
    /// Unique per system (the order of issue).
    pub id: u64,
    /// The core whose Q7 runs it.
    pub core: CoreId,
    pub role: Role,
    /// The program: CSR writes and stores, in order.
    pub accesses: Vec<Q7Step>,
    /// The queue registers they set.
    pub regs: Vec<PlannedReg>,
}

/// What `rdma_desc_gen` plans before it emits anything.
#[derive(Debug, Default)]
pub(crate) struct Plan {
    pub accesses: Vec<Q7Step>,
    pub regs: Vec<PlannedReg>,
    /// Completion polls of the TX Q7 to restart at the completion head,
    /// (engine, queue), once the plan is committed.
    pub comp_resets: Vec<(u8, u8)>,
}

impl Plan {
    /// The queue-register writes `steps` ([`firmware::queue_config`]) of
    /// (core, engine, queue, side) `at`, recorded for later plans.
    pub fn queue_regs(&mut self, at: (CoreId, u8, u8, u8), steps: Vec<(u32, Q7Step)>) {
        for (reg, step) in steps {
            if let Q7Step::Csr { data, .. } = step {
                self.regs.push(PlannedReg {
                    core: at.0 .0,
                    engine: at.1,
                    queue: at.2,
                    side: at.3,
                    reg,
                    value: data,
                });
            }
            self.accesses.push(step);
        }
    }
}

impl SystemState {
    /// The ring layout of this system's cores ([`RingLayout::for_core`] with
    /// [`SystemState::ring_len`] descriptors per ring).
    pub fn layout(&self) -> RingLayout {
        self.layout.with_ring_len(self.ring_len)
    }

    /// The Q7 program of a queued start, wait or poll op, from the one
    /// firmware generator ([`firmware`]): what fast mode applies step by step
    /// and cycle mode runs on the Q7 ports. Returns the core whose Q7 runs it.
    pub(crate) fn q7_program(&self, op: &Q7Op) -> Result<(CoreId, Vec<Q7Step>), SystemError> {
        Ok(match op {
            Q7Op::RxArm {
                core,
                tx,
                queue,
                engines,
                go_sem,
            } => {
                let txl = self.topo.loc(*tx)?;
                let db = self.doorbell_steps(*core, *tx, *queue, 1, engines)?;
                let go = self.topo.fold(
                    *core,
                    *tx,
                    core_local(txl.core, map::sem_incr_offset(*go_sem)),
                )?;
                (*core, firmware::rx_arm(db, go))
            }
            Q7Op::TxLaunch {
                core,
                queue,
                engines,
                go_sem,
            } => {
                let db = self.doorbell_steps(*core, *core, *queue, 0, engines)?;
                (*core, firmware::tx_launch(*go_sem, db))
            }
            Q7Op::Wait { core, sem, target } => {
                self.core(*core)?;
                (
                    *core,
                    vec![Q7Step::WaitDec {
                        sem: *sem,
                        target: *target,
                    }],
                )
            }
            Q7Op::PollComp {
                core,
                queue,
                engines,
            } => (
                *core,
                vec![Q7Step::PollComp {
                    queue: *queue,
                    engines: engines.clone(),
                }],
            ),
            Q7Op::Host { core, steps, .. } => (*core, steps.clone()),
        })
    }

    /// `rdma_desc_gen` (op 8) on the Q7 `prid` of `core`, in the firmware's
    /// stages: check the word (`Self::gen_check`), fold `dst_addr`
    /// (`Self::gen_fold`, seed 001 §2.3/§2.4), program the windows (RX) or
    /// plan the semaphore constants (TX) (`Self::gen_windows`, §2.5), then
    /// per engine plan its queue registers (`Self::gen_queue`), build its
    /// ring (`Self::gen_ring`, data then LOCAL/REMOTE semaphore BDs, §5)
    /// and plan its stores into descriptor RAM (`Self::gen_store`).
    ///
    /// Every check runs against the registers as the queued set-up programs
    /// leave them (`Self::planned_queue`) before anything is emitted; then
    /// the Q7-local state (windows, pre-sync flag, completion polls) is
    /// committed and the set-up program (an ordered list of MMIO writes and
    /// stores, [`Q7Step`]) is queued for [`super::System::run`]: fast mode
    /// applies it at once, cycle mode runs it on the Q7 ports. An error
    /// leaves the system untouched.
    pub fn rdma_desc_gen(
        &mut self,
        core: CoreId,
        prid: u32,
        w: &RdmaDescGen,
    ) -> Result<GenReport, SystemError> {
        let g = self.gen_check(core, prid, w)?;
        let (class, fold, dst_soc) = self.gen_fold(&g, w)?;
        let split = split_partitions(w.dma_engine_mask, w.partition_start, w.partition_count);
        let mut plan = Plan::default();
        let (xt_addrs, window_log, pre_sync, windows) =
            self.gen_windows(&g, split.len(), &mut plan)?;
        let mut per_engine = Vec::new();
        let mut sema_log = Vec::new();
        for (k, &(e, p0, np)) in split.iter().enumerate() {
            let rl = self.gen_queue(&g, e, &mut plan)?;
            if g.role == Role::Tx && self.completion_rings {
                self.plan_completion_ring(g.tx, e, g.q, &mut plan)?;
            }
            let n = descs_for(np, g.bytes);
            let qs = self.planned_queue(g.tx, e, g.q, g.side, &plan.regs)?;
            if n > qs.free() {
                return Err(SystemError::RingFull {
                    core: g.tx.0,
                    engine: e,
                    queue: g.q,
                    side: g.side,
                    need: n,
                    free: qs.free(),
                });
            }
            let xt = xt_addrs.get(k).copied().unwrap_or(0);
            let descs = self.gen_ring(&g, w, (p0, np), qs.tail, rl, (xt, windows.as_ref()))?;
            sema_log.extend(g.sema_log(w));
            self.gen_store(&g, e, qs.tail.offset, rl, &descs, &mut plan)?;
            debug_assert_eq!(descs.len() as u32, n);
            per_engine.push((e, n));
        }
        // Every check passed: commit the Q7-local state, queue the program.
        if let Some(wr) = windows {
            let c = self.core_mut(g.core)?;
            c.windows = wr;
            c.q7_local(&Q7Step::ReadyFlag { value: 1 });
        }
        let c = self.core_mut(g.tx)?;
        for &(e, q) in &plan.comp_resets {
            let crhp = c.queue(e, q, 1).crhp;
            let p = &mut c.comp_poll[usize::from(e)][usize::from(q)];
            *p = super::comp::CompPoll {
                pos: crhp,
                seen: p.want,
                want: p.want,
            };
        }
        let total = per_engine.iter().map(|x| x.1).sum();
        let setup_writes = plan.accesses.iter().map(Q7Step::transactions).sum();
        let rep = GenReport {
            core,
            role: g.role,
            peer: g.peer,
            dst_soc,
            routing_id: w.remote_routing_id,
            class,
            fold,
            per_engine,
            total,
            xt_addrs,
            window_log,
            sema_log,
            pre_sync,
            setup_writes,
        };
        self.setup_seq += 1;
        self.setups.push_back(Q7Setup {
            id: self.setup_seq,
            core,
            role: g.role,
            accesses: plan.accesses,
            regs: plan.regs,
        });
        self.streams
            .insert((core.0, g.role as u8, g.q), rep.clone());
        let _ = addr::NUM_WINDOWS;
        Ok(rep)
    }

    /// The registers of (core, engine, queue, side) as the golden register
    /// file will hold them once every queued set-up program and then the
    /// writes `own` (the plan in progress) have landed: what `rdma_desc_gen`
    /// plans against (it never reads back what it is about to write).
    pub(crate) fn planned_queue(
        &self,
        core: CoreId,
        e: u8,
        q: u8,
        side: u8,
        own: &[PlannedReg],
    ) -> Result<super::QueueState, SystemError> {
        let c = self.core(core)?;
        let mut r = c.engines[usize::from(e)].regs.side[usize::from(side)].q[usize::from(q)];
        let key = (core.0, e, q, side);
        for p in self.setups.iter().flat_map(|s| s.regs.iter()).chain(own) {
            if (p.core, p.engine, p.queue, p.side) == key {
                p.apply(&mut r);
            }
        }
        Ok(super::QueueState::of(&r))
    }

    /// Stage 1 of `rdma_desc_gen`: the word against the topology (PRID of this
    /// core, the role from its parity, the peer, the routing id the host map
    /// gives, a non-empty leg that fits every partition on both sides).
    fn gen_check(&self, core: CoreId, prid: u32, w: &RdmaDescGen) -> Result<Gen, SystemError> {
        w.validate(self.topo.arch).map_err(SystemError::Isa)?;
        self.topo.loc(core)?;
        if prid / 2 != u32::from(core.0) {
            return Err(SystemError::Prid {
                core: core.0,
                prid,
                rule: "a core's Q7 PRIDs are 2×core and 2×core+1",
            });
        }
        let role = role_of_prid(prid);
        let peer = CoreId(u16::try_from(w.remote_core_id).unwrap_or(u16::MAX));
        self.topo.loc(peer)?;
        if peer == core {
            return Err(SystemError::SelfPeer { core: core.0 });
        }
        let (tx, rx) = match role {
            Role::Tx => (core, peer),
            Role::Rx => (peer, core),
        };
        let want_rid = self.topo.routing_id(core, peer)?;
        if w.remote_routing_id != want_rid {
            return Err(SystemError::RoutingId {
                core: core.0,
                peer: peer.0,
                expected: want_rid,
                found: w.remote_routing_id,
            });
        }
        let bytes = u64::from(w.free_dim_bytes);
        if bytes == 0 {
            return Err(SystemError::Leg {
                field: "free_dim_bytes",
                value: 0,
                rule: "must be > 0",
            });
        }
        if u32::from(w.dma_engine_mask) >> self.engines() != 0 {
            return Err(SystemError::Leg {
                field: "dma_engine_mask",
                value: w.dma_engine_mask.into(),
                rule: "selects an engine the core does not have (CoreParams::engines)",
            });
        }
        let end = u16::from(w.partition_start) + u16::from(w.partition_count);
        for (field, c, off) in [("src_addr", tx, w.src_addr), ("dst_addr", rx, w.dst_addr)] {
            let sb = &self.core(c)?.sbuf;
            for p in [w.partition_start, (end - 1) as u8] {
                sb.check(p, off, bytes).map_err(|_| SystemError::Leg {
                    field,
                    value: off,
                    rule: "offset + free_dim_bytes must lie inside every partition of the leg",
                })?;
            }
        }
        // The chip-id fold writes the routing id of the RX core into
        // CAYMAN_ID (on TX that is the word's remote_routing_id, checked above).
        let rx_rid = match role {
            Role::Tx => w.remote_routing_id,
            Role::Rx => self.topo.routing_id_of(core)?,
        };
        Ok(Gen {
            core,
            prid,
            role,
            peer,
            tx,
            rx,
            bytes,
            q: w.queue_id,
            side: match role {
                Role::Tx => 0,
                Role::Rx => 1,
            },
            tx_loc: self.topo.loc(tx)?,
            rx_loc: self.topo.loc(rx)?,
            rx_rid,
        })
    }

    /// Stage 2: the fold of `dst_addr` as the firmware logs it (seed 001 §2.3 /
    /// §8); the device-side classifier of the peer base picks the fold mode
    /// (§2.4: cross-die iff is_die_0 differs from this die; another package is
    /// host-topology-decided).
    fn gen_fold(
        &self,
        g: &Gen,
        w: &RdmaDescGen,
    ) -> Result<(PeerClass, super::FoldMode, u64), SystemError> {
        let (eb, tb) = self.topo.peer_bases(g.peer)?;
        let class = self.topo.classify_peer(g.core, eb, tb)?;
        let fold = self.topo.fold_mode_of_class(g.core, g.peer, &class)?;
        let dst_soc = self.topo.fold_in_mode(fold, g.rx, w.dst_addr, g.rx_rid)?;
        Ok((class, fold, dst_soc))
    }

    /// Stage 3. RX: program_window, one window per engine, the Q7-local view
    /// of the RX SBUF as the TX engine reaches it (seed 001 §2.5; a valid
    /// window is re-pointed with update_window), then the pre-sync ready flag
    /// — planned on a copy of the Q7's remapper, returned for the commit.
    /// TX: the stores of the constants the semaphore descriptors read.
    #[allow(clippy::type_complexity)]
    fn gen_windows(
        &self,
        g: &Gen,
        engines: usize,
        plan: &mut Plan,
    ) -> Result<
        (
            Vec<u32>,
            Vec<String>,
            Option<PreSync>,
            Option<crate::addr::WindowRemapper>,
        ),
        SystemError,
    > {
        let mut xt_addrs = Vec::new();
        let mut window_log = Vec::new();
        if g.role == Role::Tx {
            let soc = self.topo.fold(
                g.tx,
                g.tx,
                core_local(g.tx_loc.core, self.layout().sema_const),
            )?;
            plan.accesses.push(firmware::sema_constants(soc));
            return Ok((xt_addrs, window_log, None, None));
        }
        let sbuf_soc =
            self.topo
                .fold(g.tx, g.rx, core_local(g.rx_loc.core, map::CORE_SBUF_BASE))?;
        let l_mask = (1u32 << XT_WINDOW_SHIFT) - 1;
        let mut wr = self.core(g.core)?.windows.clone();
        for k in 0..engines {
            let xt = (k as u32) << XT_WINDOW_SHIFT;
            let (op, r) = if wr.window(k).is_some() {
                ("update_window: ", wr.update_window(k, xt, sbuf_soc, l_mask))
            } else {
                (
                    "program_window:",
                    wr.program_window(k, xt, sbuf_soc, l_mask),
                )
            };
            r.map_err(SystemError::Addr)?;
            window_log.push(format!(
                "R: {op} num={k}, {}xt_addr=0x{xt:x}, soc_addr=0x{sbuf_soc:x}, u_mask=0x{:x}, l_mask=0x{l_mask:x}",
                if op.starts_with("program") { "vld=1, " } else { "" },
                !l_mask
            ));
            xt_addrs.push(xt);
        }
        // The flag this gen sets (committed with the windows).
        let ready = 1;
        let pre_sync = (!xt_addrs.is_empty()).then(|| PreSync {
            remote_pool_xt_addr: xt_addrs[0],
            remote_q7_xt_addr: xt_addrs[xt_addrs.len() - 1],
            sb2sb_ready_to_receive_remote: ready,
        });
        Ok((xt_addrs, window_log, pre_sync, Some(wr)))
    }

    /// Stage 4: plan the configuration of queue `q` of TX engine `e` for this
    /// role's side if its ring is not set up there (CSR writes by this Q7,
    /// routed for RX), against the planned registers; returns the ring length.
    fn gen_queue(&self, g: &Gen, e: u8, plan: &mut Plan) -> Result<u32, SystemError> {
        // Both rings of TX engine `e` live in the TX core's descriptor RAM
        // (the S2M one written there by the RX Q7), as in `pair::core`: the
        // core's interconnect serves descriptor reads from its own RAM only.
        let layout = self.layout();
        let ring_local = core_local(g.tx_loc.core, layout.ring_offset(e, g.q, g.side));
        let ring_soc_from_tx = self.topo.fold(g.tx, g.tx, ring_local)?;
        let qs = self.planned_queue(g.tx, e, g.q, g.side, &plan.regs)?;
        if qs.rl != 0 && qs.rbp == ring_soc_from_tx {
            return Ok(qs.rl);
        }
        if qs.pending() != 0 {
            return Err(SystemError::RingBusy {
                core: g.tx.0,
                engine: e,
                queue: g.q,
                side: g.side,
            });
        }
        if qs.rl == 0 && !layout.ring_len_ok() {
            return Err(SystemError::Leg {
                field: "ring_len",
                value: self.ring_len.into(),
                rule: "2..=4096 descriptors (one 64 KiB ring slot)",
            });
        }
        let rl = if qs.rl == 0 { layout.ring_len } else { qs.rl };
        let csr = |r: u32| {
            let off = map::udma_q_offset(e, g.side, g.q, r);
            self.topo.fold(g.core, g.tx, core_local(g.tx_loc.core, off))
        };
        let steps = firmware::queue_config(csr, ring_soc_from_tx, (qs.rl == 0).then_some(rl))?;
        plan.queue_regs((g.tx, e, g.q, g.side), steps);
        Ok(rl)
    }

    /// Stage 5: the descriptors of one engine from the submitter's position
    /// `tail`: one per ≤ 64 KiB chunk of each partition `parts` (M2S reads the
    /// TX SBUF; S2M writes through window `xt` of the planned remapper
    /// `windows`), then the LOCAL and REMOTE
    /// semaphore descriptors (seed 001 §5; the remote one is routed with the
    /// routing id).
    fn gen_ring(
        &self,
        g: &Gen,
        w: &RdmaDescGen,
        (p0, np): (u8, u8),
        tail: crate::udma::desc::RingPos,
        rl: u32,
        (xt, windows): (u32, Option<&crate::addr::WindowRemapper>),
    ) -> Result<Vec<[u8; 16]>, SystemError> {
        let layout = self.layout();
        let mut pos = tail;
        let mut descs: Vec<[u8; 16]> = Vec::new();
        let mut push = |d: Result<[u8; 16], crate::udma::desc::DescError>,
                        pos: &mut crate::udma::desc::RingPos| {
            *pos = pos.advance(1, rl);
            d.map(|b| descs.push(b)).map_err(SystemError::Desc)
        };
        for p in p0..p0 + np {
            let mut off = 0u64;
            while off < g.bytes {
                let len = (g.bytes - off).min(MAX_DESC_LEN);
                let rid = pos.ring_id;
                let ptr = if g.role == Role::Tx {
                    self.topo.fold(
                        g.tx,
                        g.tx,
                        core_local(g.tx_loc.core, sbuf_offset(p, w.src_addr + off)),
                    )?
                } else {
                    let x = xt + sbuf_offset(p, w.dst_addr + off) as u32;
                    let wr = match windows {
                        Some(wr) => wr,
                        None => &self.core(g.core)?.windows,
                    };
                    wr.translate(x).map_err(SystemError::Addr)?.1
                };
                let d = firmware::data_desc(g.side, len as u32, rid, ptr);
                push(d, &mut pos)?;
                off += len;
            }
        }
        for (sem_core, sem_loc, sem) in [
            (g.tx, g.tx_loc, w.local_sem),
            (g.rx, g.rx_loc, w.remote_sem),
        ] {
            let rid = pos.ring_id;
            let sd = layout.sema_desc(sem);
            let (to, to_loc) = if g.side == 0 {
                (g.tx, g.tx_loc)
            } else {
                (sem_core, sem_loc)
            };
            let ptr = self
                .topo
                .fold(g.tx, to, core_local(to_loc.core, sd.target(g.side)))?;
            let d = firmware::sema_desc(g.side, sd, rid, ptr);
            push(d, &mut pos)?;
        }
        Ok(descs)
    }

    /// Stage 6: plan the stores of the ring bytes into the TX core's
    /// descriptor RAM from slot `slot` (wrapping at `rl`), one 16-byte store
    /// per descriptor (the RX Q7's stores are routed across the fabric).
    fn gen_store(
        &self,
        g: &Gen,
        e: u8,
        slot: u32,
        rl: u32,
        descs: &[[u8; 16]],
        plan: &mut Plan,
    ) -> Result<(), SystemError> {
        let layout = self.layout();
        let slot_soc = |slot: u32| {
            let off = layout.desc_offset(e, g.q, g.side, slot);
            self.topo.fold(g.core, g.tx, core_local(g.tx_loc.core, off))
        };
        plan.accesses
            .extend(firmware::ring_stores(slot_soc, slot, rl, descs)?);
        Ok(())
    }

    /// `rdma_desc_start` (op 9) on the Q7 `prid` of `core`: checks the role
    /// against PRID parity and the DescriptorStream count, then queues the Q7
    /// program (RX: S2M doorbells, right_push; TX: left_pop wait, M2S
    /// doorbells) for [`super::System::run`].
    pub fn rdma_desc_start(
        &mut self,
        core: CoreId,
        prid: u32,
        w: &RdmaDescStart,
    ) -> Result<(), SystemError> {
        w.validate(self.topo.arch).map_err(SystemError::Isa)?;
        self.topo.loc(core)?;
        if prid / 2 != u32::from(core.0) {
            return Err(SystemError::Prid {
                core: core.0,
                prid,
                rule: "a core's Q7 PRIDs are 2×core and 2×core+1",
            });
        }
        // seed 001 §4.2: bit 0 of the role word = PRID parity; bne → error path.
        let parity = role_of_prid(prid);
        if parity != w.role {
            return Err(SystemError::RoleMismatch {
                core: core.0,
                prid,
                parity,
                word: w.role,
            });
        }
        // seed 001 §5.3: "DescriptorStream wrote %d descriptors, expected %d" is a hard error.
        let rec = self.streams.remove(&(core.0, w.role as u8, w.queue_id));
        let wrote = rec.as_ref().map_or(0, |r| r.total);
        if wrote != w.num_descriptors {
            return Err(SystemError::DescriptorStream {
                core: core.0,
                wrote,
                expected: w.num_descriptors,
            });
        }
        let rec = rec.ok_or(SystemError::DescriptorStream {
            core: core.0,
            wrote: 0,
            expected: w.num_descriptors,
        })?;
        let mask: u16 = rec.per_engine.iter().fold(0, |m, (e, _)| m | 1 << e);
        if mask != w.dma_engine_mask {
            return Err(SystemError::Leg {
                field: "dma_engine_mask",
                value: w.dma_engine_mask.into(),
                rule: "rdma_desc_start must name the engines rdma_desc_gen used",
            });
        }
        let peer = CoreId(u16::try_from(w.remote_core_id).unwrap_or(u16::MAX));
        if peer != rec.peer {
            return Err(SystemError::Leg {
                field: "remote_core_id",
                value: w.remote_core_id.into(),
                rule: "rdma_desc_start must name the peer rdma_desc_gen used",
            });
        }
        let op = match w.role {
            Role::Rx => Q7Op::RxArm {
                core,
                tx: peer,
                queue: w.queue_id,
                engines: rec.per_engine.clone(),
                go_sem: w.go_sem,
            },
            Role::Tx => Q7Op::TxLaunch {
                core,
                queue: w.queue_id,
                engines: rec.per_engine.clone(),
                go_sem: w.go_sem,
            },
        };
        self.pending.push_back(op);
        if w.role == Role::Tx && self.completion_rings {
            // seed 001 §5.3: poll the completions of what this start launched
            // (generation tags) before the ring slots are reused.
            let c = self.core_mut(core)?;
            let mut targets = Vec::with_capacity(rec.per_engine.len());
            for &(e, n) in &rec.per_engine {
                let p = &mut c.comp_poll[usize::from(e)][usize::from(w.queue_id)];
                p.want += u64::from(n);
                targets.push((e, p.want));
            }
            self.pending.push_back(Q7Op::PollComp {
                core,
                queue: w.queue_id,
                engines: targets,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_is_contiguous_and_balanced() {
        assert_eq!(
            split_partitions(0x000F, 0, 128),
            vec![(0, 0, 32), (1, 32, 32), (2, 64, 32), (3, 96, 32)]
        );
        assert_eq!(
            split_partitions(0b1010_0001, 4, 10),
            vec![(0, 4, 4), (5, 8, 3), (7, 11, 3)]
        );
        let s = split_partitions(0xFFFF, 0, 128);
        assert!(
            s.iter().all(|&(_, _, n)| n == 8),
            "PUBLIC-FACTS §4: about 8 partitions per engine"
        );
    }

    #[test]
    fn descs_cover_64k_chunks_plus_two_semaphores() {
        assert_eq!(descs_for(32, 0x4000), 34);
        assert_eq!(descs_for(1, 224 * 1024), 4 + 2);
        assert_eq!(descs_for(1, 65536), 3);
    }

    #[test]
    fn prid_parity_is_the_role() {
        assert_eq!(role_of_prid(prid(CoreId(7), Role::Tx)), Role::Tx);
        assert_eq!(role_of_prid(prid(CoreId(7), Role::Rx)), Role::Rx);
    }
}
