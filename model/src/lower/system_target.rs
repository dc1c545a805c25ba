//! [`Target`] on the system model ([`crate::system::System`]): every leg is a
//! real `rdma_desc_gen` / `rdma_desc_start` pair (RX arms first, TX fires)
//! over UDMA descriptor rings, in the system's fast or cycle mode; a reducing
//! leg passes the fused kernel as the receive hook (`LegOp::Reduce`).
//!
//! Project-defined choices (docs/decisions.md):
//! - The leg's own completion semaphores use the reserved indices
//!   [`LEG_LOCAL_SEM`] / [`LEG_REMOTE_SEM`] (the go handshake uses the
//!   system's 255), so they never disturb a program's semaphores; after each
//!   leg the lowering waits for both to reach the engine count and
//!   decrements them (the next step's `wait ≥ target and decrement`, seed 001 §5.2).
//! - A leg of p partitions uses ⌈p / 8⌉ DMA engines (about 8 partitions per
//!   engine, PUBLIC-FACTS §4), queue 0.
//! - One device leg copies partition p to partition p; a transfer whose
//!   two sides sit on different partitions is refused (the flat target
//!   accepts it).
//! - A batch that fans out (a mesh step: one core sending to, or receiving
//!   from, several peers) completes each peer on its own semaphore pair: the
//!   j-th distinct peer a core sends to in the batch raises local semaphore
//!   `LEG_LOCAL_SEM − 2j` on it, the i-th distinct peer a core receives from
//!   raises remote semaphore `LEG_REMOTE_SEM − 2i` on it (down to
//!   [`LEG_SEM_FLOOR`]; a single leg uses 252 / 253 as before).
//! - A leg whose two sides sit on one core (the mesh reduce-scatter's local
//!   fold of its receive slots) is not an rdma leg (the system refuses a leg
//!   to itself): the target folds (or copies) the bytes on the core with the
//!   same kernel and times it as an on-die leg of ⌈p / 8⌉ engines with the
//!   data-path row of `system::timing` (the closed form fast mode sums).
//! - Every step adds the firmware cost `system::timing::step_ns` (hop and
//!   the Q7's per-leg cost of the core issuing the most legs).
//! - Legs of one batch run one after the other (they share no bytes, checked
//!   by [`check_batch`]); the batch's modeled time is its slowest leg. In
//!   fast mode their byte moves are held and run together, on the system's
//!   threads ([`System::threads`]), after the last leg's control.

use std::sync::Arc;

use super::target::{check_batch, Leg, LegReport, RegFile, Region, Target, TargetError};
use crate::datapath::reduce::recv_reduce;
use crate::isa::{Arch, Events, UpdateMode};
use crate::pair::system::SysParams;
use crate::system::link::LinkClass;
use crate::system::mirror::Mirror;
use crate::system::timing;
use crate::system::{CoreId, LegOp, Mode, RingLayout, System, SystemError, SystemLeg, Topology};

/// TX-core semaphore of a lowered leg (project-defined, reserved).
pub const LEG_LOCAL_SEM: u8 = 252;
/// RX-core semaphore of a lowered leg (project-defined, reserved).
pub const LEG_REMOTE_SEM: u8 = 253;
/// Lowest semaphore a fan-out batch's per-peer completions use (63 peers:
/// 252 − 2·62 = 128; project-defined, reserved for collectives).
pub const LEG_SEM_FLOOR: u8 = 128;

/// The system model as a lowering target.
pub struct SystemTarget {
    /// The system.
    pub sys: System,
    /// Fast or cycle mode for every leg.
    pub mode: Mode,
    /// The completions of the last batch's rdma legs: (TX core, local
    /// semaphore, RX core, remote semaphore), in issue order.
    pub last_sems: Vec<(usize, u8, usize, u8)>,
    /// A fixed system top ([`SystemTarget::with_params`], e.g.
    /// `SysParams::COLL`): its batches run in the rounds of the Verilated
    /// top's target ([`rounds`]); `None`: the system sized to the run.
    pub fixed: Option<SysParams>,
    /// The instruction engine's registers (host-side, as on every target).
    regs: RegFile,
    /// A system top clocked beside cycle mode ([`SystemTarget::mirrored`]):
    /// what `--mode rtl` runs on.
    pub(super) mirror: Option<Box<dyn Mirror>>,
}

impl SystemTarget {
    /// A system of `packages` packages × 2 dies × `cores_per_die` cores.
    pub fn new(
        arch: Arch,
        packages: usize,
        cores_per_die: usize,
        partition_bytes: u64,
        mode: Mode,
    ) -> Result<Self, TargetError> {
        let topo = Topology {
            packages: u8::try_from(packages).unwrap_or(u8::MAX),
            cores_per_die: u8::try_from(cores_per_die).unwrap_or(u8::MAX),
            sbuf_bytes_per_partition: u32::try_from(partition_bytes).unwrap_or(u32::MAX),
            arch,
            ..Topology::trn2(u8::try_from(packages).unwrap_or(1).max(1))
        };
        let regs = RegFile::new(arch, topo.num_cores());
        Ok(Self {
            sys: System::new(topo).map_err(sys_err)?,
            mode,
            last_sems: Vec::new(),
            fixed: None,
            regs,
            mirror: None,
        })
    }

    /// The system top of parameters `p` (its cores, engines, placement,
    /// SBUF window and descriptor RAM: `System::with_core`), the golden
    /// twin of the Verilated top built at `p` (`SysParams::COLL`: block
    /// `system_coll`). Its batches run as that top's target runs them:
    /// legs cut into pieces of [`leg_partitions`], one piece per TX core
    /// per round, the round's pieces issued together and run to completion
    /// ([`rounds`]); a round's time is its clock cycles.
    pub fn with_params(arch: Arch, p: SysParams, mode: Mode) -> Result<Self, TargetError> {
        Self::fixed_on(arch, p, mode, None)
    }

    /// The fixed system top of parameters `p` with an optional machine
    /// clocked beside its cycle mode: unbooted, then the boot program run
    /// in `mode` (on the Q7 ports in cycle mode; every core clocked every
    /// cycle, as the Verilated top clocks them).
    pub(super) fn fixed_on(
        arch: Arch,
        p: SysParams,
        mode: Mode,
        mirror: Option<Box<dyn Mirror>>,
    ) -> Result<Self, TargetError> {
        let topo = Topology {
            arch,
            ..p.topology()
        };
        let regs = RegFile::new(arch, topo.num_cores());
        let mut sys = System::unbooted(topo, p.core).map_err(sys_err)?;
        sys.cycle.clock_all = true;
        let mut t = Self {
            sys,
            mode,
            last_sems: Vec::new(),
            fixed: Some(p),
            regs,
            mirror,
        };
        t.sys.queue_boot().map_err(sys_err)?;
        t.run_programs()?;
        t.check_mirror_sems()?;
        Ok(t)
    }

    /// Run the queued Q7 programs and legs in this target's mode, with
    /// the mirror (if any) clocked beside cycle mode.
    pub(super) fn run_programs(&mut self) -> Result<(), TargetError> {
        match self.mirror.as_deref_mut() {
            Some(m) => self.sys.run_mirrored(m),
            None => self.sys.run(self.mode),
        }
        .map_err(sys_err)
    }
}

/// A piece of an rdma leg that one round of a fixed system top carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Piece {
    /// TX core.
    pub tx: usize,
    /// RX core.
    pub rx: usize,
    /// First partition.
    pub part: u32,
    /// Partitions.
    pub parts: u32,
    /// Bytes per partition.
    pub bytes: u64,
    /// Source offset in the partition.
    pub src_off: u64,
    /// Destination offset in the partition.
    pub dst_off: u64,
    /// The receive-reduce of a reducing leg.
    pub reduce: Option<(
        crate::datapath::reduce::Dtype,
        crate::datapath::reduce::ReduceOp,
    )>,
}

/// UDMA engines a leg of `partitions` partitions uses on a core of
/// `core_engines` engines: ⌈p / 8⌉ (module docs), at most the core's.
pub fn leg_engines(partitions: u32, core_engines: usize) -> u32 {
    timing::lowered_engines(partitions).min(u32::try_from(core_engines).unwrap_or(u32::MAX).max(1))
}

/// Partitions one leg carries on a core of parameters `core`: every
/// engine's ring holds its partitions and the two semaphore descriptors,
/// one slot stays free (the ring layout of `System::with_core`).
pub fn leg_partitions(core: &crate::pair::CoreParams) -> u32 {
    (RingLayout::for_core(core).ring_len - 3) * core.engines as u32
}

/// The rdma legs of a batch cut into pieces of at most `cap` partitions
/// (one-core and empty legs are not rdma legs); a leg that shifts
/// partitions is refused.
pub fn pieces(legs: &[Leg], cap: u32) -> Result<Vec<Piece>, TargetError> {
    let mut out = Vec::new();
    for l in legs {
        if l.src.partitions == 0 || l.src.bytes == 0 || l.src.core == l.dst.core {
            continue;
        }
        if l.dst.partition != l.src.partition {
            return Err(TargetError::System(format!(
                "a leg from partitions {}.. to partitions {}.. shifts partitions; one rdma leg copies partition p to partition p",
                l.src.partition, l.dst.partition
            )));
        }
        let mut p = 0;
        while p < l.src.partitions {
            let n = cap.max(1).min(l.src.partitions - p);
            out.push(Piece {
                tx: l.src.core,
                rx: l.dst.core,
                part: l.src.partition + p,
                parts: n,
                bytes: l.src.bytes,
                src_off: l.src.offset,
                dst_off: l.dst.offset,
                reduce: l.reduce,
            });
            p += n;
        }
    }
    Ok(out)
}

/// Alignment of a receive slot of the Verilated top's target.
pub const SLOT_ALIGN: u64 = 32;

/// A round's pieces with their landing offsets.
pub type Round = Vec<(Piece, u64)>;

/// Pieces in rounds of a fixed system top: one piece per TX core per
/// round, the first round it fits; a reducing piece also takes a receive
/// slot of its bytes ([`SLOT_ALIGN`]) in `lo..hi` of its RX core's
/// partitions (where the Verilated top's target lands it before its host
/// fold). Each piece comes with its slot's offset (`dst_off` for a copy).
pub fn rounds(pieces: &[Piece], lo: u64, hi: u64, cores: usize) -> Vec<Round> {
    // Each round with the receive-slot bytes taken per RX core.
    let mut rounds: Vec<(Round, Vec<u64>)> = Vec::new();
    for &pc in pieces {
        let need = if pc.reduce.is_some() {
            pc.bytes.next_multiple_of(SLOT_ALIGN)
        } else {
            0
        };
        let fits = |(r, slots): &(Round, Vec<u64>)| {
            r.iter().all(|(q, _)| q.tx != pc.tx) && lo + slots[pc.rx] + need <= hi
        };
        let k = match rounds.iter().position(fits) {
            Some(k) => k,
            None => {
                rounds.push((Vec::new(), vec![0; cores]));
                rounds.len() - 1
            }
        };
        let (r, slots) = &mut rounds[k];
        let land = if pc.reduce.is_some() {
            lo + slots[pc.rx]
        } else {
            pc.dst_off
        };
        slots[pc.rx] += need;
        r.push((pc, land));
    }
    rounds.into_iter().map(|(r, _)| r).collect()
}

/// The leg semaphores of a round's pieces: the TX core's
/// [`LEG_LOCAL_SEM`] (one piece per TX core), the j-th piece into an RX
/// core on `LEG_REMOTE_SEM − 2j`.
pub fn round_sems(round: &[(Piece, u64)], cores: usize) -> Vec<(u8, u8)> {
    let mut into = vec![0u8; cores];
    round
        .iter()
        .map(|(pc, _)| {
            let j = into[pc.rx];
            into[pc.rx] += 1;
            (LEG_LOCAL_SEM, LEG_REMOTE_SEM - 2 * j)
        })
        .collect()
}

/// One partition's bytes `offset..offset + bytes` of core `core`.
fn row_region(core: usize, partition: u32, offset: u64, bytes: u64) -> Region {
    Region {
        core,
        partition,
        partitions: 1,
        offset,
        bytes,
    }
}

impl SystemTarget {
    /// A region of a fixed system top must lie in the lower half of the
    /// partitions ([`Target::partition_bytes`]); the sized system's
    /// accesses are checked by the system.
    fn check_region(&self, r: &Region) -> Result<(), TargetError> {
        match self.fixed {
            Some(_) => r.check(self.cores(), self.partition_bytes()),
            None => Ok(()),
        }
    }
}

fn sys_err(e: SystemError) -> TargetError {
    TargetError::System(e.to_string())
}

fn core(c: usize) -> CoreId {
    CoreId(c as u16)
}

fn part(p: u32) -> u8 {
    p as u8
}

impl Target for SystemTarget {
    fn arch(&self) -> Arch {
        self.sys.st.topology().arch
    }

    fn cores(&self) -> usize {
        self.sys.st.topology().num_cores()
    }

    /// A fixed system top: the lower half of each partition (the upper
    /// half holds the receive slots of reducing legs, [`slot_base`]).
    fn partition_bytes(&self) -> u64 {
        match self.fixed {
            Some(p) => slot_base(&p.core),
            None => self.sys.st.topology().sbuf_bytes_per_partition.into(),
        }
    }

    fn write(
        &mut self,
        c: usize,
        partition: u32,
        offset: u64,
        data: &[u8],
    ) -> Result<(), TargetError> {
        self.check_region(&row_region(c, partition, offset, data.len() as u64))?;
        self.write_row(c, partition, offset, data)
    }

    /// The golden cores' bytes; with a mirror, the mirror's, which must
    /// be equal.
    fn read(
        &self,
        c: usize,
        partition: u32,
        offset: u64,
        len: u64,
    ) -> Result<Vec<u8>, TargetError> {
        self.check_region(&row_region(c, partition, offset, len))?;
        self.read_row(c, partition, offset, len)
    }

    fn reg_write(&mut self, c: usize, reg: u8, value: u64) -> Result<(), TargetError> {
        self.regs.write(c, reg, value)
    }

    fn reg_read(&self, c: usize, reg: u8) -> Result<u64, TargetError> {
        self.regs.read(c, reg)
    }

    fn sem(&self, c: usize, idx: u8) -> Result<i32, TargetError> {
        self.sys.st.sem(core(c), idx).map_err(sys_err)
    }

    fn sem_update(&mut self, c: usize, ev: &Events) -> Result<(), TargetError> {
        if ev.update_mode == UpdateMode::None {
            return Ok(());
        }
        let cur = self.sem(c, ev.update_idx)?;
        let new = sem_after(cur, ev);
        if self.fixed.is_some() {
            // a fixed system top: the core's Q7 writes the difference
            return self.host_sem_add(c, ev.update_idx, new.wrapping_sub(cur));
        }
        self.sys
            .st
            .set_sem(core(c), ev.update_idx, new)
            .map_err(sys_err)
    }

    fn run_legs(&mut self, legs: &[Leg]) -> Result<LegReport, TargetError> {
        check_batch(legs)?;
        // Fast mode: the batch's byte moves are held across its legs and
        // run together on the system's threads (system/fast.rs); the legs
        // share no bytes (check_batch), so the result is the serial one.
        let hold = self.mode == Mode::Fast;
        self.sys.hold_moves(hold);
        if let Some(rec) = self.sys.st.rec() {
            rec.step_begin(serde_json::json!({}));
        }
        let fw = timing::step_ns(super::target::legs_per_core(legs));
        let r = self.run_legs_held(legs).map(|mut rep| {
            rep.modeled_ns += fw;
            rep
        });
        if let Some(rec) = self.sys.st.rec() {
            // The step lasts its reported time (the slowest leg, in ns).
            rec.step_end(r.as_ref().ok().map(|rep| rep.modeled_ns * 1000));
        }
        self.sys.hold_moves(false);
        let f = self.sys.flush_moves().map_err(sys_err);
        let mut rep = r.and_then(|rep| f.map(|()| rep))?;
        // Legs on one core, after the rdma legs' bytes have landed (they
        // share no byte with them: check_batch).
        for l in legs.iter().filter(|l| l.src.core == l.dst.core) {
            let t = local_leg(self, l)?;
            rep.legs += 1;
            rep.bytes += l.src.total();
            rep.modeled_ns = rep.modeled_ns.max(t + fw);
        }
        Ok(rep)
    }

    fn launch(&mut self) -> u64 {
        let ns = timing::COLLECTIVE_LAUNCH_NS;
        if let Some(rec) = self.sys.st.rec() {
            rec.launch(ns * 1000);
        }
        ns
    }

    fn trace_collective(&mut self, name: Option<&str>) {
        if let Some(rec) = self.sys.st.rec() {
            match name {
                Some(n) => rec.collective_begin(n, serde_json::json!({})),
                None => rec.collective_end(),
            }
        }
    }
}

/// A semaphore's value after an instruction's EVENTS update (the one rule
/// of every target that keeps hardware semaphores).
pub fn sem_after(cur: i32, ev: &Events) -> i32 {
    let v = ev.semaphore_value as i32;
    match ev.update_mode {
        UpdateMode::None => cur,
        UpdateMode::SemIncOnRead | UpdateMode::SemIncOnComplete => cur.wrapping_add(1),
        UpdateMode::SemDecOnRead | UpdateMode::SemDecOnComplete => cur.wrapping_sub(1),
        UpdateMode::SemAddOnRead | UpdateMode::SemAddOnComplete => cur.wrapping_add(v),
        UpdateMode::SemSubOnRead | UpdateMode::SemSubOnComplete => cur.wrapping_sub(v),
        UpdateMode::SemWrOnRead | UpdateMode::SemWrOnComplete => v,
    }
}

/// A leg inside one core on any target: fold (or copy) row by row with the
/// datapath kernel through the target's reads and writes; its modeled ns,
/// an on-die leg of ⌈p / 8⌉ engines by the data-path row of
/// `system::timing` (module docs). The one rule for one-core legs of every
/// rdma target.
pub fn local_leg<T: Target + ?Sized>(t: &mut T, l: &Leg) -> Result<u64, TargetError> {
    if l.src.partitions == 0 || l.src.bytes == 0 {
        return Ok(0);
    }
    for i in 0..l.src.partitions {
        let src = t.read(l.src.core, l.src.partition + i, l.src.offset, l.src.bytes)?;
        let out = match l.reduce {
            Some((dtype, op)) => {
                let mut dst = t.read(l.dst.core, l.dst.partition + i, l.dst.offset, l.dst.bytes)?;
                recv_reduce(&mut dst, &src, dtype, op)?;
                dst
            }
            None => src,
        };
        t.write(l.dst.core, l.dst.partition + i, l.dst.offset, &out)?;
    }
    let engines = timing::lowered_engines(l.src.partitions);
    let ps = timing::leg_ps(
        LinkClass::OnDie,
        l.src.partitions.into(),
        l.src.bytes,
        engines,
    );
    Ok(ps.div_ceil(1000))
}

impl SystemTarget {
    fn run_legs_held(&mut self, legs: &[Leg]) -> Result<LegReport, TargetError> {
        if let Some(p) = self.fixed {
            return self.run_rounds(legs, p);
        }
        let mut rep = LegReport::default();
        self.last_sems.clear();
        // Distinct peers per core in issue order: its semaphore slot.
        let mut tx_peers: Vec<(usize, Vec<usize>)> = Vec::new();
        let mut rx_peers: Vec<(usize, Vec<usize>)> = Vec::new();
        fn slot(list: &mut Vec<(usize, Vec<usize>)>, c: usize, peer: usize) -> u8 {
            let i = match list.iter().position(|(k, _)| *k == c) {
                Some(i) => i,
                None => {
                    list.push((c, Vec::new()));
                    list.len() - 1
                }
            };
            let peers = &mut list[i].1;
            let j = peers.iter().position(|&p| p == peer).unwrap_or_else(|| {
                peers.push(peer);
                peers.len() - 1
            });
            u8::try_from(2 * j).unwrap_or(u8::MAX)
        }
        for l in legs {
            if l.src.partitions == 0 || l.src.bytes == 0 || l.src.core == l.dst.core {
                continue;
            }
            let engines = leg_engines(l.src.partitions, self.sys.st.engines().into());
            let mut spec = SystemLeg::new(
                core(l.src.core),
                l.src.offset,
                core(l.dst.core),
                l.dst.offset,
                u32::try_from(l.src.bytes).map_err(|_| {
                    TargetError::System(format!(
                        "leg of {} bytes per partition exceeds 32 bits",
                        l.src.bytes
                    ))
                })?,
                part(l.src.partitions),
            );
            spec.partition_start = part(l.src.partition);
            if l.dst.partition != l.src.partition {
                // One device leg copies partition p of the source to partition
                // p of the destination (seed 001 §8: free_dim_bytes × partitions).
                return Err(TargetError::System(format!(
                    "a leg from partitions {}..{} to partitions {}..{} shifts partitions; one rdma leg copies partition p to partition p (place both tensors on the same partitions, at the same offset_bytes, or use --mode flat)",
                    l.src.partition,
                    l.src.partition + l.src.partitions,
                    l.dst.partition,
                    l.dst.partition + l.dst.partitions
                )));
            }
            spec.engine_mask = ((1u32 << engines) - 1) as u16;
            let (ls, rs) = (
                slot(&mut tx_peers, l.src.core, l.dst.core),
                slot(&mut rx_peers, l.dst.core, l.src.core),
            );
            let floor = LEG_REMOTE_SEM - LEG_SEM_FLOOR;
            if ls > floor || rs > floor {
                return Err(TargetError::System(format!(
                    "a batch fans out to more than {} peers of one core (semaphores {LEG_SEM_FLOOR}..={LEG_REMOTE_SEM})",
                    floor / 2 + 1
                )));
            }
            spec.local_sem = LEG_LOCAL_SEM - ls;
            spec.remote_sem = LEG_REMOTE_SEM - rs;
            self.last_sems
                .push((l.src.core, spec.local_sem, l.dst.core, spec.remote_sem));
            if let Some((dtype, op)) = l.reduce {
                spec.op = LegOp::Reduce(Arc::new(move |dst: &mut [u8], src: &[u8]| {
                    recv_reduce(dst, src, dtype, op).map_err(|e| e.to_string())
                }));
            }
            let r = self.leg(&spec, engines)?;
            rep.legs += 1;
            rep.bytes += l.src.total();
            rep.modeled_ns = rep.modeled_ns.max(r);
        }
        Ok(rep)
    }
}

/// Offset of the receive slots in a partition of a fixed system top's
/// core: its upper half (the lower half is what the Verilated top's target
/// lays buffers in).
pub fn slot_base(core: &crate::pair::CoreParams) -> u64 {
    u64::from(core.sbuf_part_bytes) / 2
}

impl SystemTarget {
    /// The system's clock: cycles clocked (cycle mode) or modeled ps
    /// (fast mode).
    fn clock(&self) -> u64 {
        match self.mode {
            Mode::Cycle => self.sys.cycle.cycles,
            Mode::Fast => self.sys.st.now_ps(),
        }
    }

    /// A batch on a fixed system top ([`SystemTarget::with_params`]): its
    /// rdma legs in [`rounds`], every round's pieces issued together, run,
    /// and both sides' semaphores waited for and decremented; the modeled
    /// time is the rounds' clock.
    fn run_rounds(&mut self, legs: &[Leg], p: SysParams) -> Result<LegReport, TargetError> {
        self.last_sems.clear();
        let cores = self.cores();
        for l in legs
            .iter()
            .filter(|l| l.src.core != l.dst.core && l.src.total() > 0)
        {
            self.check_region(&l.src)?;
            self.check_region(&l.dst)?;
        }
        let (lo, hi) = (slot_base(&p.core), u64::from(p.core.sbuf_part_bytes));
        let mut ticks = 0;
        for round in rounds(&pieces(legs, leg_partitions(&p.core))?, lo, hi, cores) {
            let t0 = self.clock();
            let mut waits = Vec::with_capacity(round.len());
            for ((pc, land), (ls, rs)) in round.iter().zip(round_sems(&round, cores)) {
                let engines = leg_engines(pc.parts, p.core.engines);
                let bytes = u32::try_from(pc.bytes).map_err(|_| {
                    TargetError::System(format!(
                        "leg of {} bytes per partition exceeds 32 bits",
                        pc.bytes
                    ))
                })?;
                let mut spec = SystemLeg::new(
                    core(pc.tx),
                    pc.src_off,
                    core(pc.rx),
                    *land,
                    bytes,
                    part(pc.parts),
                );
                spec.partition_start = part(pc.part);
                spec.engine_mask = ((1u32 << engines) - 1) as u16;
                spec.local_sem = ls;
                spec.remote_sem = rs;
                self.sys.st.issue_leg(&spec).map_err(sys_err)?;
                self.last_sems.push((pc.tx, ls, pc.rx, rs));
                waits.push((spec.src, ls, spec.dst, rs, engines as i32));
            }
            // Every side's completion wait in flight with the legs, as each
            // core's Q7 program ends with it on the Verilated top.
            for (tx, ls, rx, rs, n) in waits {
                self.sys.queue_wait_sem(tx, ls, n).map_err(sys_err)?;
                self.sys.queue_wait_sem(rx, rs, n).map_err(sys_err)?;
            }
            self.run_programs()?;
            ticks += self.clock() - t0;
            if round.iter().any(|(pc, _)| pc.reduce.is_some()) {
                // fast mode holds the round's byte moves: land them first
                self.sys.flush_moves().map_err(sys_err)?;
            }
            for (pc, land) in &round {
                self.fold_slot(pc, *land)?;
            }
        }
        self.check_mirror_sems()?;
        let ps = match self.mode {
            Mode::Cycle => crate::clock::cycles_to_ps(ticks),
            Mode::Fast => ticks,
        };
        let mut rep = LegReport {
            modeled_ns: ps.div_ceil(1000),
            ..LegReport::default()
        };
        for l in legs {
            if l.src.partitions > 0 && l.src.bytes > 0 && l.src.core != l.dst.core {
                rep.legs += 1;
                rep.bytes += l.src.total();
            }
        }
        Ok(rep)
    }

    /// One device leg plus the completion waits; returns its modeled ns.
    fn leg(&mut self, spec: &SystemLeg, engines: u32) -> Result<u64, TargetError> {
        let r = self.sys.send_recv(spec, self.mode).map_err(sys_err)?;
        self.sys
            .wait_sem(spec.src, spec.local_sem, engines as i32, self.mode)
            .map_err(sys_err)?;
        self.sys
            .wait_sem(spec.dst, spec.remote_sem, engines as i32, self.mode)
            .map_err(sys_err)?;
        Ok(r.modeled_ps.div_ceil(1000))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datapath::reduce::{Dtype, ReduceOp};
    use crate::lower::Region;

    fn leg(tx: usize, rx: usize, partitions: u32, reduce: bool) -> Leg {
        let r = |core| Region {
            core,
            partition: 0,
            partitions,
            offset: 0,
            bytes: 512,
        };
        Leg {
            src: r(tx),
            dst: r(rx),
            reduce: reduce.then_some((Dtype::Fp32, ReduceOp::Sum)),
        }
    }

    /// Hand-computed: a 128-partition leg on 2 engines with rings of 64 is
    /// cut at 122 (61 per engine); pieces of one TX core go to successive
    /// rounds; reducing pieces into one core take 512-byte receive slots
    /// until the 1 KiB between `lo` and `hi` is full; the j-th piece into a
    /// core completes on 253 − 2j; engines are ⌈p / 8⌉, at most 2.
    #[test]
    fn pieces_rounds_engines_and_semaphores_follow_the_rtl_targets_rules() {
        let core = SysParams::COLL.core;
        assert_eq!(leg_partitions(&core), 122);
        let ps = pieces(&[leg(0, 1, 128, false)], 122).unwrap();
        assert_eq!(
            ps.iter().map(|p| (p.part, p.parts)).collect::<Vec<_>>(),
            vec![(0, 122), (122, 6)]
        );
        assert_eq!(rounds(&ps, 8192, 16384, 4).len(), 2);
        assert_eq!(
            [1, 6, 8, 9, 122].map(|p| leg_engines(p, core.engines)),
            [1, 1, 1, 2, 2]
        );
        // Three reducing legs into core 3 from distinct TX cores: two slots
        // of 512 B fit 1 KiB, the third waits for the next round.
        let legs = [leg(0, 3, 4, true), leg(1, 3, 4, true), leg(2, 3, 4, true)];
        let r = rounds(&pieces(&legs, 122).unwrap(), 1024, 2048, 4);
        assert_eq!(r.len(), 2);
        assert_eq!(
            r[0].iter()
                .map(|(p, land)| (p.tx, *land))
                .collect::<Vec<_>>(),
            vec![(0, 1024), (1, 1536)]
        );
        assert_eq!(r[1][0].1, 1024);
        assert_eq!(
            round_sems(&r[0], 4),
            vec![(LEG_LOCAL_SEM, 253), (LEG_LOCAL_SEM, 251)]
        );
        // A copy lands at its destination offset; a shifted leg is refused.
        let c = rounds(&pieces(&[leg(0, 1, 4, false)], 122).unwrap(), 1024, 2048, 4);
        assert_eq!(c[0][0].1, 0);
        let mut s = leg(0, 1, 4, false);
        s.dst.partition = 8;
        assert!(pieces(&[s], 122).is_err());
    }
}
