//! What the host lowering needs from a machine: SBUF regions, engine
//! registers, semaphores and directed legs — the narrow interface between
//! [`crate::lower`] / [`crate::collective`] and whatever executes the legs.
//!
//! [`FlatTarget`] is the fast-path implementation used by `sb2sb nccom` and
//! `sb2sb run --mode fast`: one SBUF image per core, legs executed with the
//! SIMD copy ([`fn@crate::datapath::copy`]) or the fused receive-reduce
//! ([`crate::datapath::reduce`]), and the data-path rows of `system::timing` for the
//! modeled time.

use thiserror::Error;

use crate::datapath::reduce::{Dtype, ReduceError, ReduceOp};
use crate::isa::{Arch, Events, UpdateMode, WaitMode};

/// SBUF partitions per NeuronCore (PUBLIC-FACTS §4).
pub use crate::system::topology::SBUF_PARTITIONS;

/// Bytes per SBUF partition: 192 KiB on NeuronCore-v2 (trn1/inf2), 224 KiB on
/// NeuronCore-v3 (trn2) (PUBLIC-FACTS §4). v4/v5 are not public: project-defined 224 KiB.
pub const fn default_partition_bytes(arch: Arch) -> u64 {
    match arch {
        Arch::Sunda => 192 * 1024,
        Arch::Cayman | Arch::Mariana | Arch::Maverick => 224 * 1024,
    }
}

/// A rectangle of SBUF: `partitions` rows starting at `partition`, each
/// `bytes` long at byte `offset` of its partition, on core `core`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Region {
    /// Global core index.
    pub core: usize,
    /// First partition.
    pub partition: u32,
    /// Number of partitions.
    pub partitions: u32,
    /// Byte offset inside each partition.
    pub offset: u64,
    /// Bytes per partition.
    pub bytes: u64,
}

impl Region {
    /// Total bytes of the rectangle.
    pub const fn total(&self) -> u64 {
        self.partitions as u64 * self.bytes
    }

    /// The rectangle lies on one of `cores` cores and inside an SBUF of
    /// [`SBUF_PARTITIONS`] partitions of `partition_bytes` bytes.
    pub fn check(&self, cores: usize, partition_bytes: u64) -> Result<(), TargetError> {
        check_core(self.core, cores)?;
        let end_p = u64::from(self.partition) + u64::from(self.partitions);
        let end_o = self.offset.saturating_add(self.bytes);
        if end_p > u64::from(SBUF_PARTITIONS) || end_o > partition_bytes {
            return Err(TargetError::OutOfRange {
                core: self.core,
                partition: self.partition,
                end_partition: end_p,
                offset: self.offset,
                end_offset: end_o,
                partitions: SBUF_PARTITIONS.into(),
                partition_bytes,
            });
        }
        Ok(())
    }
}

/// Core `core` is one of `cores` cores.
pub fn check_core(core: usize, cores: usize) -> Result<(), TargetError> {
    if core >= cores {
        return Err(TargetError::NoSuchCore { core, cores });
    }
    Ok(())
}

/// One directed leg: the SEND side reads `src`, the RECV side writes `dst`
/// (`reduce: None`, a pure move — seed 000 §7) or folds into it
/// (`reduce: Some(..)`, a ring step's `recv_reduce`, seed 000 §6 NOTE).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Leg {
    /// Where the bytes come from (the TX / M2S side).
    pub src: Region,
    /// Where they land (the RX / S2M side).
    pub dst: Region,
    /// Fold on receive: `dst = op(src, dst)` element-wise.
    pub reduce: Option<(Dtype, ReduceOp)>,
}

/// What running a batch of concurrent legs cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub struct LegReport {
    /// Legs executed.
    pub legs: u64,
    /// Bytes moved (sum over legs).
    pub bytes: u64,
    /// Modeled time of the batch in nanoseconds (legs of a batch overlap).
    pub modeled_ns: u64,
}

impl LegReport {
    /// Add a later batch (times add up, batches are sequential).
    pub fn then(&mut self, o: LegReport) {
        self.legs += o.legs;
        self.bytes += o.bytes;
        self.modeled_ns += o.modeled_ns;
    }
}

/// A machine access that cannot be done.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TargetError {
    /// The core index is not in the topology.
    #[error("core {core} does not exist (the topology has {cores} cores)")]
    NoSuchCore {
        /// Core asked for.
        core: usize,
        /// Cores present.
        cores: usize,
    },
    /// The rectangle leaves the SBUF.
    #[error("SBUF region out of range on core {core}: partitions {partition}..{end_partition} bytes {offset}..{end_offset} (SBUF is {partitions} partitions x {partition_bytes} bytes)")]
    OutOfRange {
        /// Core.
        core: usize,
        /// First partition.
        partition: u32,
        /// One past the last partition.
        end_partition: u64,
        /// First byte in the partition.
        offset: u64,
        /// One past the last byte.
        end_offset: u64,
        /// Partitions in the SBUF.
        partitions: u32,
        /// Bytes per partition.
        partition_bytes: u64,
    },
    /// Source and destination shapes of a leg differ.
    #[error("leg shape mismatch: source {src_partitions} x {src_bytes} B, destination {dst_partitions} x {dst_bytes} B")]
    ShapeMismatch {
        /// Source partitions.
        src_partitions: u32,
        /// Source bytes per partition.
        src_bytes: u64,
        /// Destination partitions.
        dst_partitions: u32,
        /// Destination bytes per partition.
        dst_bytes: u64,
    },
    /// Two legs of one batch write overlapping bytes, or one reads what another writes.
    #[error("legs {a} and {b} of one batch overlap on core {core} (a leg's destination may not overlap another leg's source or destination)")]
    Overlap {
        /// First leg index.
        a: usize,
        /// Second leg index.
        b: usize,
        /// Core.
        core: usize,
    },
    /// The system model refused (its message).
    #[error("system model: {0}")]
    System(String),
    /// The fused receive-reduce refused the buffers.
    #[error(transparent)]
    Reduce(#[from] ReduceError),
    /// The register number is not writable on this arch.
    #[error("engine register {reg} is not writable on {arch} (NUM_REGISTERS = {num}, plus DGE_TABLE_LO/HI 130/131)")]
    BadRegister {
        /// Register.
        reg: u8,
        /// Arch.
        arch: Arch,
        /// Its NUM_REGISTERS.
        num: u16,
    },
}

/// The machine the lowering drives.
pub trait Target {
    /// Architecture (register-file size).
    fn arch(&self) -> Arch;
    /// Number of cores.
    fn cores(&self) -> usize;
    /// Bytes per SBUF partition.
    fn partition_bytes(&self) -> u64;
    /// Write bytes into one partition.
    fn write(
        &mut self,
        core: usize,
        partition: u32,
        offset: u64,
        data: &[u8],
    ) -> Result<(), TargetError>;
    /// Read bytes of one partition.
    fn read(
        &self,
        core: usize,
        partition: u32,
        offset: u64,
        len: u64,
    ) -> Result<Vec<u8>, TargetError>;
    /// Write engine register `reg` (a TLD control instruction after lowering, seed 002 §4).
    fn reg_write(&mut self, core: usize, reg: u8, value: u64) -> Result<(), TargetError>;
    /// Read engine register `reg` (0 when never written).
    fn reg_read(&self, core: usize, reg: u8) -> Result<u64, TargetError>;
    /// Semaphore value.
    fn sem(&self, core: usize, idx: u8) -> Result<i32, TargetError>;
    /// Apply an instruction's EVENTS update to its semaphore.
    fn sem_update(&mut self, core: usize, events: &Events) -> Result<(), TargetError>;
    /// Run legs that execute concurrently (one ring step): all sources are
    /// read before any destination is written.
    fn run_legs(&mut self, legs: &[Leg]) -> Result<LegReport, TargetError>;
    /// Timeline scope (docs/timeline.md): `Some(name)` opens a collective,
    /// `None` closes it. Machines without a timeline ignore it.
    fn trace_collective(&mut self, _name: Option<&str>) {}
    /// Start a collective: its launch cost in ns
    /// ([`crate::system::timing::COLLECTIVE_LAUNCH_NS`]); machines with a
    /// timeline draw it as the collective's first span.
    fn launch(&mut self) -> u64 {
        crate::system::timing::COLLECTIVE_LAUNCH_NS
    }

    /// Does the instruction's wait predicate hold now?
    fn wait_satisfied(&self, core: usize, events: &Events) -> Result<bool, TargetError> {
        let v = self.sem(core, events.wait_idx)? as i64;
        let imm = events.semaphore_value as i32 as i64;
        Ok(match events.wait_mode {
            WaitMode::None => true,
            WaitMode::SemEqImm => v == imm,
            WaitMode::SemLtImm => v < imm,
            WaitMode::SemLeImm => v <= imm,
            WaitMode::SemGtImm => v > imm,
            WaitMode::SemGeImm => v >= imm,
            // Events and register-compare waits are not modeled by the host
            // lowering: treated as satisfied (documented in docs/programs.md).
            _ => true,
        })
    }
}

/// Modeled time of the flat path: the data-path rows of
/// [`crate::system::timing`] (the closed form of fast mode) with the link
/// class of the two cores as the system model lays them out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Timing {
    /// NeuronCores per die of the layout (global core = (package × 2 + die) × this + core).
    pub cores_per_die: usize,
}

impl Default for Timing {
    fn default() -> Self {
        Self { cores_per_die: 4 }
    }
}

impl Timing {
    /// Modeled time of one leg (no firmware costs), ns, rounded up.
    pub fn leg_ns(&self, l: &Leg) -> u64 {
        use crate::system::timing;
        let class = if l.src.core == l.dst.core {
            crate::system::LinkClass::OnDie
        } else {
            timing::class_of(l.src.core, l.dst.core, self.cores_per_die)
        };
        let engines = timing::lowered_engines(l.src.partitions);
        timing::leg_ps(class, l.src.partitions.into(), l.src.bytes, engines).div_ceil(1000)
    }
}

/// The most legs one core sends in a batch (its Q7 issues them one after
/// the other: `system::timing::step_ns`).
pub fn legs_per_core(legs: &[Leg]) -> u64 {
    let mut n: Vec<(usize, u64)> = Vec::new();
    for l in legs
        .iter()
        .filter(|l| l.src.partitions > 0 && l.src.bytes > 0)
    {
        match n.iter_mut().find(|(c, _)| *c == l.src.core) {
            Some((_, k)) => *k += 1,
            None => n.push((l.src.core, 1)),
        }
    }
    n.iter().map(|&(_, k)| k).max().unwrap_or(0)
}

/// Fast-path machine: a flat SBUF image per core (allocated on first use),
/// engine registers and semaphores, legs run with the SIMD kernels.
#[derive(Debug, Clone)]
pub struct FlatTarget {
    arch: Arch,
    partition_bytes: u64,
    sbuf: Vec<crate::datapath::ZeroedBuf>,
    regs: RegFile,
    sems: Vec<[i32; 256]>,
    /// Rate model for [`Target::run_legs`].
    pub timing: Timing,
    /// Threads a batch of legs runs on (`collective::parallel`).
    threads: usize,
}

/// Engine register slots kept per core (covers R0..R191 and the specials up to 255).
const REG_SLOTS: usize = 256;

/// The instruction engine's registers of every core of a target (seed 002:
/// `Arch::num_registers` general registers and the specials 128–131, what
/// GID_LOAD and CurProcessingRankID write and the lowering reads), kept by
/// the host: the one register file of every lowering target (no core
/// model has one behind an address).
#[derive(Debug, Clone)]
pub struct RegFile {
    arch: Arch,
    regs: Vec<[u64; REG_SLOTS]>,
}

impl RegFile {
    /// `cores` cores of `arch`, every register 0.
    pub fn new(arch: Arch, cores: usize) -> Self {
        Self {
            arch,
            regs: vec![[0; REG_SLOTS]; cores],
        }
    }

    /// Write register `reg` of `core` (a register the arch lets a program write).
    pub fn write(&mut self, core: usize, reg: u8, value: u64) -> Result<(), TargetError> {
        check_core(core, self.regs.len())?;
        if !self.arch.is_valid_register_write(reg) {
            return Err(TargetError::BadRegister {
                reg,
                arch: self.arch,
                num: self.arch.num_registers(),
            });
        }
        self.regs[core][usize::from(reg)] = value;
        Ok(())
    }

    /// Register `reg` of `core`.
    pub fn read(&self, core: usize, reg: u8) -> Result<u64, TargetError> {
        check_core(core, self.regs.len())?;
        Ok(self.regs[core][usize::from(reg)])
    }
}

impl FlatTarget {
    /// `cores` cores of `arch` with `partition_bytes` per SBUF partition.
    pub fn new(arch: Arch, cores: usize, partition_bytes: u64) -> Self {
        Self {
            arch,
            partition_bytes,
            sbuf: (0..cores)
                .map(|_| crate::datapath::ZeroedBuf::default())
                .collect(),
            regs: RegFile::new(arch, cores),
            sems: vec![[0; 256]; cores],
            timing: Timing::default(),
            threads: crate::collective::parallel::threads(),
        }
    }

    /// Run batches of legs on `n` threads (1 = serial); the bytes are the
    /// same for every `n` (`collective::parallel`).
    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.max(1);
    }

    /// Threads a batch of legs runs on.
    pub fn threads(&self) -> usize {
        self.threads
    }

    fn check_core(&self, core: usize) -> Result<(), TargetError> {
        check_core(core, self.sbuf.len())
    }

    fn check_region(&self, r: &Region) -> Result<(), TargetError> {
        r.check(self.sbuf.len(), self.partition_bytes)
    }

    fn image(&mut self, core: usize) -> &mut [u8] {
        let size = (SBUF_PARTITIONS as u64 * self.partition_bytes) as usize;
        let img = &mut self.sbuf[core];
        if img.is_empty() {
            // Zeroed pages backed on first touch, huge-page advised
            // (`datapath::buf`): no memset of the whole SBUF.
            *img = crate::datapath::ZeroedBuf::zeroed(size);
        }
        img
    }

    /// Byte range of row `i` of a region inside its core image.
    fn row(&self, r: &Region, i: u32) -> core::ops::Range<usize> {
        let start = (r.partition + i) as u64 * self.partition_bytes + r.offset;
        start as usize..(start + r.bytes) as usize
    }
}

/// Do two rectangles on the same core share a byte?
fn overlaps(a: &Region, b: &Region) -> bool {
    a.core == b.core
        && a.partition < b.partition + b.partitions
        && b.partition < a.partition + a.partitions
        && a.offset < b.offset + b.bytes
        && b.offset < a.offset + a.bytes
        && a.bytes > 0
        && b.bytes > 0
        && a.partitions > 0
        && b.partitions > 0
}

/// Check a batch for shape errors and hazards (a destination overlapping
/// another leg's source or destination).
pub fn check_batch(legs: &[Leg]) -> Result<(), TargetError> {
    for l in legs {
        if l.src.partitions != l.dst.partitions || l.src.bytes != l.dst.bytes {
            return Err(TargetError::ShapeMismatch {
                src_partitions: l.src.partitions,
                src_bytes: l.src.bytes,
                dst_partitions: l.dst.partitions,
                dst_bytes: l.dst.bytes,
            });
        }
    }
    for (i, a) in legs.iter().enumerate() {
        for (j, b) in legs.iter().enumerate() {
            if i != j && (overlaps(&a.dst, &b.src) || (i < j && overlaps(&a.dst, &b.dst))) {
                return Err(TargetError::Overlap {
                    a: i,
                    b: j,
                    core: a.dst.core,
                });
            }
        }
    }
    Ok(())
}

impl Target for FlatTarget {
    fn arch(&self) -> Arch {
        self.arch
    }

    fn cores(&self) -> usize {
        self.sbuf.len()
    }

    fn partition_bytes(&self) -> u64 {
        self.partition_bytes
    }

    fn write(
        &mut self,
        core: usize,
        partition: u32,
        offset: u64,
        data: &[u8],
    ) -> Result<(), TargetError> {
        let r = Region {
            core,
            partition,
            partitions: 1,
            offset,
            bytes: data.len() as u64,
        };
        self.check_region(&r)?;
        let range = self.row(&r, 0);
        self.image(core)[range].copy_from_slice(data);
        Ok(())
    }

    fn read(
        &self,
        core: usize,
        partition: u32,
        offset: u64,
        len: u64,
    ) -> Result<Vec<u8>, TargetError> {
        let r = Region {
            core,
            partition,
            partitions: 1,
            offset,
            bytes: len,
        };
        self.check_region(&r)?;
        let img = &self.sbuf[core];
        if img.is_empty() {
            return Ok(vec![0; len as usize]);
        }
        Ok(img[self.row(&r, 0)].to_vec())
    }

    fn reg_write(&mut self, core: usize, reg: u8, value: u64) -> Result<(), TargetError> {
        self.regs.write(core, reg, value)
    }

    fn reg_read(&self, core: usize, reg: u8) -> Result<u64, TargetError> {
        self.regs.read(core, reg)
    }

    fn sem(&self, core: usize, idx: u8) -> Result<i32, TargetError> {
        self.check_core(core)?;
        Ok(self.sems[core][idx as usize])
    }

    fn sem_update(&mut self, core: usize, ev: &Events) -> Result<(), TargetError> {
        self.check_core(core)?;
        let s = &mut self.sems[core][ev.update_idx as usize];
        let v = ev.semaphore_value as i32;
        match ev.update_mode {
            UpdateMode::None => {}
            UpdateMode::SemIncOnRead | UpdateMode::SemIncOnComplete => *s = s.wrapping_add(1),
            UpdateMode::SemDecOnRead | UpdateMode::SemDecOnComplete => *s = s.wrapping_sub(1),
            UpdateMode::SemAddOnRead | UpdateMode::SemAddOnComplete => *s = s.wrapping_add(v),
            UpdateMode::SemSubOnRead | UpdateMode::SemSubOnComplete => *s = s.wrapping_sub(v),
            UpdateMode::SemWrOnRead | UpdateMode::SemWrOnComplete => *s = v,
        }
        Ok(())
    }

    fn run_legs(&mut self, legs: &[Leg]) -> Result<LegReport, TargetError> {
        check_batch(legs)?;
        for l in legs {
            self.check_region(&l.src)?;
            self.check_region(&l.dst)?;
        }
        for l in legs {
            self.image(l.src.core);
            self.image(l.dst.core);
        }
        crate::collective::parallel::run_batch(
            &mut self.sbuf,
            self.partition_bytes,
            legs,
            self.threads,
        )?;
        let mut rep = LegReport::default();
        for l in legs {
            rep.legs += 1;
            rep.bytes += l.src.total();
            if l.src.total() > 0 {
                rep.modeled_ns = rep.modeled_ns.max(self.timing.leg_ns(l));
            }
        }
        rep.modeled_ns += crate::system::timing::step_ns(legs_per_core(legs));
        Ok(rep)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t() -> FlatTarget {
        FlatTarget::new(Arch::Cayman, 2, 1024)
    }

    #[test]
    fn leg_copies_rectangle_between_cores() {
        let mut m = t();
        for p in 0..4 {
            m.write(0, p, 16, &[p as u8 + 1; 8]).unwrap();
        }
        let leg = Leg {
            src: Region {
                core: 0,
                partition: 0,
                partitions: 4,
                offset: 16,
                bytes: 8,
            },
            dst: Region {
                core: 1,
                partition: 10,
                partitions: 4,
                offset: 100,
                bytes: 8,
            },
            reduce: None,
        };
        let rep = m.run_legs(&[leg]).unwrap();
        assert_eq!(rep.bytes, 32);
        for p in 0..4 {
            assert_eq!(m.read(1, 10 + p, 100, 8).unwrap(), vec![p as u8 + 1; 8]);
        }
        assert_eq!(m.read(1, 14, 100, 8).unwrap(), vec![0; 8]);
    }

    #[test]
    fn out_of_range_region_is_an_error() {
        let mut m = t();
        let e = m.write(0, 127, 1020, &[0; 8]).unwrap_err();
        assert!(e.to_string().contains("out of range"), "{e}");
        let e = m.write(5, 0, 0, &[0; 8]).unwrap_err();
        assert!(e.to_string().contains("core 5 does not exist"), "{e}");
    }

    #[test]
    fn overlapping_legs_in_one_batch_are_rejected() {
        let r = Region {
            core: 0,
            partition: 0,
            partitions: 1,
            offset: 0,
            bytes: 8,
        };
        let a = Leg {
            src: Region { core: 1, ..r },
            dst: r,
            reduce: None,
        };
        let b = Leg {
            src: r,
            dst: Region {
                core: 1,
                offset: 64,
                ..r
            },
            reduce: None,
        };
        let e = check_batch(&[a, b]).unwrap_err();
        assert!(matches!(e, TargetError::Overlap { .. }), "{e}");
    }

    #[test]
    fn register_write_bounds_follow_arch() {
        let mut m = t();
        assert!(m.reg_write(0, 63, 1).is_ok());
        assert!(m.reg_write(0, 64, 1).is_err());
        assert!(m.reg_write(0, 130, 1).is_ok());
        let mut v5 = FlatTarget::new(Arch::Maverick, 1, 64);
        assert!(v5.reg_write(0, 191, 7).is_ok());
        assert_eq!(v5.reg_read(0, 191).unwrap(), 7);
    }

    #[test]
    fn flat_leg_time_uses_the_layout_class_and_the_busiest_engine() {
        use crate::system::timing::{class_of, coeffs};
        use crate::system::LinkClass;
        // Cores 0..3 die 0, 4..7 die 1 of package 0, 8.. package 1.
        assert_eq!(class_of(0, 3, 4), LinkClass::OnDie);
        assert_eq!(class_of(3, 7, 4), LinkClass::D2d);
        assert_eq!(class_of(7, 8, 4), LinkClass::C2c);
        let t = Timing::default();
        let r = |core, partitions, bytes| Region {
            core,
            partition: 0,
            partitions,
            offset: 0,
            bytes,
        };
        // 20 partitions → 3 engines; the busiest takes 7 partitions:
        // 7 data + 2 semaphore descriptors, 7 × 1000 bytes.
        let l = Leg {
            src: r(0, 20, 1000),
            dst: r(4, 20, 1000),
            reduce: None,
        };
        let c = coeffs(LinkClass::D2d, 3);
        let mcyc = c.fixed_mcyc + 9 * c.desc_mcyc + 7000 * c.byte_ucyc / 1000;
        // milli-cycles at 850 MHz → ps → ns (rounded up).
        let ps = (mcyc.max(0) as u128 * 1000 + 425) / 850;
        assert_eq!(t.leg_ns(&l), (ps as u64).div_ceil(1000));
    }
}
