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
use crate::udma::desc::{M2sDesc, S2mDesc};
use crate::udma::regs::*;

use super::classify::{PeerClass, PreSync};
use super::map::{
    self, core_local, ring_offset, sbuf_offset, sem_incr_offset, udma_offset, RING_LEN,
};
use super::topology::{CoreId, DMA_ENGINES};
use super::{System, SystemError};

/// Largest data length of one descriptor (PUBLIC-FACTS §1).
pub const MAX_DESC_LEN: u64 = UDMA_DESC_MAX_LEN as u64;
/// Offset in descriptor RAM of the 8-byte semaphore constants: `{1, 0}` for an
/// even semaphore, then `{0, 1}` for an odd one.
pub const SEMA_PAIR_BYTES: u64 = 8;

/// (length, source constant offset, INCR register offset) of the semaphore
/// descriptor for `sem`: an even semaphore is a 4-byte write of 1 (seed 001
/// §5); an odd one is an 8-byte write of `{0, 1}` into the aligned pair
/// INCR\[sem−1\], INCR\[sem\] (project-defined: the UDMA moves 8-byte lanes
/// from lane 0, so a 4-byte write can only land on an 8-byte boundary).
pub const fn sema_desc(sem: u8) -> (u32, u64, u64) {
    if sem.is_multiple_of(2) {
        (4, map::SEMA_ONE_OFFSET, sem_incr_offset(sem))
    } else {
        (
            8,
            map::SEMA_ONE_OFFSET + SEMA_PAIR_BYTES,
            sem_incr_offset(sem - 1),
        )
    }
}

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
    /// CSR writes and 32-bit descriptor-RAM stores, [`SetupAccess`]).
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

/// One access of a Q7 set-up program: what the Q7 firmware's stores make of
/// `rdma_desc_gen`'s ring set-up, with their routed SoC addresses (seed 001
/// §5: the queue registers, the descriptor ring in descriptor RAM, the
/// semaphore constants).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum SetupAccess {
    /// One 32-bit CSR write (a queue or completion-ring register of a UDMA engine).
    Csr { soc: u64, data: u32 },
    /// A 16-byte memory store (one ring descriptor, or the semaphore
    /// constants): four 32-bit stores at `soc`, `soc + 4`, … , word 0 first.
    Store { soc: u64, bytes: [u8; 16] },
}

impl SetupAccess {
    /// The 32-bit writes of this access, in order: (routed SoC address, data).
    pub fn words(&self) -> impl Iterator<Item = (u64, u32)> + '_ {
        let (soc, n) = match *self {
            SetupAccess::Csr { soc, .. } => (soc, 1),
            SetupAccess::Store { soc, .. } => (soc, 4),
        };
        (0..n).map(move |k| {
            let data = match self {
                SetupAccess::Csr { data, .. } => *data,
                SetupAccess::Store { bytes, .. } => u32::from_le_bytes([
                    bytes[4 * k],
                    bytes[4 * k + 1],
                    bytes[4 * k + 2],
                    bytes[4 * k + 3],
                ]),
            };
            (soc + 4 * k as u64, data)
        })
    }

    /// AXI4-Lite transactions the access takes on a Q7 port (32-bit data).
    pub const fn transactions(&self) -> u32 {
        match self {
            SetupAccess::Csr { .. } => 1,
            SetupAccess::Store { .. } => 4,
        }
    }
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
    /// The accesses, in program order.
    pub accesses: Vec<SetupAccess>,
    /// The queue registers they set.
    pub regs: Vec<PlannedReg>,
}

/// What `rdma_desc_gen` plans before it emits anything.
#[derive(Debug, Default)]
pub(crate) struct Plan {
    pub accesses: Vec<SetupAccess>,
    pub regs: Vec<PlannedReg>,
    /// Completion polls of the TX Q7 to restart at the completion head,
    /// (engine, queue), once the plan is committed.
    pub comp_resets: Vec<(u8, u8)>,
}

impl Plan {
    /// A CSR write by the Q7 (routed `soc`) of queue register `reg`.
    pub fn csr(&mut self, soc: u64, at: (CoreId, u8, u8, u8), reg: u32, value: u32) {
        self.accesses.push(SetupAccess::Csr { soc, data: value });
        self.regs.push(PlannedReg {
            core: at.0 .0,
            engine: at.1,
            queue: at.2,
            side: at.3,
            reg,
            value,
        });
    }
}

impl System {
    /// `rdma_desc_gen` (op 8) on the Q7 `prid` of `core`, in the firmware's
    /// stages: check the word ([`Self::gen_check`]), fold `dst_addr`
    /// ([`Self::gen_fold`], seed 001 §2.3/§2.4), program the windows (RX) or
    /// plan the semaphore constants (TX) ([`Self::gen_windows`], §2.5), then
    /// per engine plan its queue registers ([`Self::gen_queue`]), build its
    /// ring ([`Self::gen_ring`], data then LOCAL/REMOTE semaphore BDs, §5)
    /// and plan its stores into descriptor RAM ([`Self::gen_store`]).
    ///
    /// Every check runs against the registers as the queued set-up programs
    /// leave them ([`Self::planned_queue`]) before anything is emitted; then
    /// the Q7-local state (windows, pre-sync flag, completion polls) is
    /// committed and the set-up program (an ordered list of MMIO writes and
    /// stores, [`SetupAccess`]) is queued for [`System::run`]: fast mode
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
            if g.role == Role::Tx {
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
            c.ready_to_receive_remote = 1;
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
        let setup_writes = plan.accesses.iter().map(SetupAccess::transactions).sum();
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

    /// Fast mode: apply every queued set-up program at once, in order (the
    /// same register writes and bytes cycle mode plays on the Q7 ports;
    /// no modeled time, as before set-up went through the ports).
    pub(crate) fn apply_setups(&mut self) -> Result<(), SystemError> {
        while let Some(s) = self.setups.front() {
            let (by, acc) = (s.core, std::mem::take(&mut self.setups[0].accesses));
            let r = self.apply_setup(by, &acc);
            if r.is_err() {
                self.setups[0].accesses = acc;
                return r;
            }
            self.setups.pop_front();
        }
        Ok(())
    }

    /// Apply the accesses of one set-up program by the Q7 of `by`.
    fn apply_setup(&mut self, by: CoreId, acc: &[SetupAccess]) -> Result<(), SystemError> {
        for a in acc {
            match *a {
                SetupAccess::Csr { soc, data } => self.mmio_write(by, soc, data)?,
                SetupAccess::Store { soc, bytes } => {
                    let (to, off) = map::route_address(&self.topo, by, soc)?;
                    match map::decode_core_offset(off, self.topo.sbuf_bytes_per_partition)? {
                        map::Target::Desc { offset } => {
                            self.core_mut(to)?.desc.write(offset, &bytes)
                        }
                        _ => {
                            for (a, d) in a.words() {
                                self.mmio_write(by, a, d)?;
                            }
                        }
                    }
                }
            }
        }
        Ok(())
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
            let bytes: [u8; 16] = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0];
            let soc = self.topo.fold(
                g.tx,
                g.tx,
                core_local(g.tx_loc.core, map::DESC_BASE + map::SEMA_ONE_OFFSET),
            )?;
            plan.accesses.push(SetupAccess::Store { soc, bytes });
            return Ok((xt_addrs, window_log, None, None));
        }
        let sbuf_soc = self
            .topo
            .fold(g.tx, g.rx, core_local(g.rx_loc.core, map::SBUF_BASE))?;
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
        let ring_local = core_local(g.tx_loc.core, ring_offset(e, g.q, g.side));
        let ring_soc_from_tx = self.topo.fold(g.tx, g.tx, ring_local)?;
        let qs = self.planned_queue(g.tx, e, g.q, g.side, &plan.regs)?;
        let mut rl = qs.rl;
        if rl != 0 && qs.rbp == ring_soc_from_tx {
            return Ok(rl);
        }
        if qs.pending() != 0 {
            return Err(SystemError::RingBusy {
                core: g.tx.0,
                engine: e,
                queue: g.q,
                side: g.side,
            });
        }
        let base = if g.side == 0 {
            UDMA_M2S_BASE
        } else {
            UDMA_S2M_BASE
        };
        let qreg = base + UDMA_Q_ARRAY_BASE + u32::from(g.q) * UDMA_Q_STRIDE;
        let csr = |r: u32| core_local(g.tx_loc.core, udma_offset(e, qreg + r));
        let at = (g.tx, e, g.q, g.side);
        let w = |plan: &mut Plan, r: u32, v: u32| -> Result<(), SystemError> {
            plan.csr(self.topo.fold(g.core, g.tx, csr(r))?, at, r, v);
            Ok(())
        };
        if rl == 0 {
            if !(2..=RING_LEN).contains(&self.ring_len) {
                return Err(SystemError::Leg {
                    field: "ring_len",
                    value: self.ring_len.into(),
                    rule: "2..=4096 descriptors (one 64 KiB ring slot)",
                });
            }
            w(plan, UDMA_Q_RL, self.ring_len)?;
            rl = self.ring_len;
        }
        w(plan, UDMA_Q_RBP_LOW, ring_soc_from_tx as u32)?;
        w(plan, UDMA_Q_RBP_HIGH, (ring_soc_from_tx >> 32) as u32)?;
        w(
            plan,
            UDMA_Q_CFG,
            1 << UDMA_Q_CFG_EN_PREF_BIT | 1 << UDMA_Q_CFG_EN_SCHED_BIT,
        )?;
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
                let d = if g.role == Role::Tx {
                    let src = self.topo.fold(
                        g.tx,
                        g.tx,
                        core_local(g.tx_loc.core, sbuf_offset(p, w.src_addr + off)),
                    )?;
                    M2sDesc::whole_packet(len as u32, rid, src).encode()
                } else {
                    let x = xt + sbuf_offset(p, w.dst_addr + off) as u32;
                    let wr = match windows {
                        Some(wr) => wr,
                        None => &self.core(g.core)?.windows,
                    };
                    let (_, dst) = wr.translate(x).map_err(SystemError::Addr)?;
                    S2mDesc {
                        len: len as u32,
                        ring_id: rid,
                        int_en: false,
                        buf2_ptr_lo: 0,
                        buf1_ptr: dst,
                    }
                    .encode()
                };
                push(d, &mut pos)?;
                off += len;
            }
        }
        for (sem_core, sem_loc, sem) in [
            (g.tx, g.tx_loc, w.local_sem),
            (g.rx, g.rx_loc, w.remote_sem),
        ] {
            let rid = pos.ring_id;
            let (len, konst, incr) = sema_desc(sem);
            let d = if g.role == Role::Tx {
                let one = self.topo.fold(
                    g.tx,
                    g.tx,
                    core_local(g.tx_loc.core, map::DESC_BASE + konst),
                )?;
                M2sDesc {
                    len,
                    ring_id: rid,
                    first: true,
                    last: true,
                    int_en: false,
                    dmb: true,
                    concat: false,
                    meta_ctrl: 0,
                    buf_ptr: one,
                }
                .encode()
            } else {
                let a = self
                    .topo
                    .fold(g.tx, sem_core, core_local(sem_loc.core, incr))?;
                S2mDesc {
                    len,
                    ring_id: rid,
                    int_en: false,
                    buf2_ptr_lo: 0,
                    buf1_ptr: a,
                }
                .encode()
            };
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
        mut slot: u32,
        rl: u32,
        descs: &[[u8; 16]],
        plan: &mut Plan,
    ) -> Result<(), SystemError> {
        for d in descs {
            let local = core_local(
                g.tx_loc.core,
                map::ring_offset(e, g.q, g.side) + u64::from(slot) * 16,
            );
            let soc = self.topo.fold(g.core, g.tx, local)?;
            plan.accesses.push(SetupAccess::Store { soc, bytes: *d });
            slot = (slot + 1) % rl;
        }
        Ok(())
    }

    /// `rdma_desc_start` (op 9) on the Q7 `prid` of `core`: checks the role
    /// against PRID parity and the DescriptorStream count, then queues the Q7
    /// program (RX: S2M doorbells, right_push; TX: left_pop wait, M2S
    /// doorbells) for [`System::run`].
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
            Role::Rx => super::Q7Op::RxArm {
                core,
                tx: peer,
                queue: w.queue_id,
                engines: rec.per_engine.clone(),
                go_sem: w.go_sem,
            },
            Role::Tx => super::Q7Op::TxLaunch {
                core,
                queue: w.queue_id,
                engines: rec.per_engine.clone(),
                go_sem: w.go_sem,
            },
        };
        self.pending.push_back(op);
        if w.role == Role::Tx {
            // seed 001 §5.3: poll the completions of what this start launched
            // (generation tags) before the ring slots are reused.
            let c = self.core_mut(core)?;
            let mut targets = Vec::with_capacity(rec.per_engine.len());
            for &(e, n) in &rec.per_engine {
                let p = &mut c.comp_poll[usize::from(e)][usize::from(w.queue_id)];
                p.want += u64::from(n);
                targets.push((e, p.want));
            }
            self.pending.push_back(super::Q7Op::PollComp {
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
