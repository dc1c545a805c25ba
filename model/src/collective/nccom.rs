//! nccom-test style sweeps: for each size, lay the buffers out in SBUF, fill
//! them, run the ring collective on the fast path, optionally check against
//! [`super::reference`], and report the row of the nccom-test table
//! (PUBLIC-FACTS §4: size(B), count(elems), type, time(us), algbw(GB/s),
//! busbw(GB/s), then "Avg bus bandwidth").
//!
//! Sizes follow nccom-test/nccl-tests: all_reduce and reduce_scatter give the
//! per-rank input, all_gather the per-rank output, permute and sendrecv the
//! bytes each rank sends. A size is rounded down to a whole number of
//! elements per rank (blocked ops) or of elements (others); sizes that round
//! to zero are skipped.

use std::time::Instant;

use serde::Serialize;
use thiserror::Error;

use super::algo::{self, Algorithm, Choice};
use super::{
    read_tensor, reference, run_algo, write_tensor, CollectiveError, CollectiveOp, Member, Ring,
};
use crate::datapath::reduce::{Dtype, ReduceOp};
use crate::isa::Arch;
use crate::lower::layout::Layout;
use crate::lower::system_target::slot_base;
use crate::lower::target::{
    default_partition_bytes, FlatTarget, Target, TargetError, SBUF_PARTITIONS,
};
use crate::lower::SystemTarget;
use crate::pair::configs::{ConfigError, SystemConfig};
use crate::stim::StimRng;

/// Most ranks the fast path accepts.
pub const MAX_RANKS: usize = 64;
/// Largest buffer: 128 partitions × 2 MiB (the SBUF aperture's partition stride).
pub const MAX_BYTES: u64 = 256 << 20;
/// Most host memory a sweep may hold in SBUF images (all ranks, all buffers).
pub const MAX_HOST_BYTES: u64 = 4 << 30;

/// Which machine runs the legs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Machine {
    /// The flat fast path ([`FlatTarget`]): SIMD copy / fused reduce per leg row.
    Flat,
    /// The system model in fast mode (real descriptor rings, SIMD data moves).
    SystemFast,
    /// The system model in cycle mode (UDMA / EVT_SEM stepped every cycle).
    SystemCycle,
    /// The Verilated system top (`sb2sb nccom --mode rtl`): a target the
    /// caller builds and hands to [`prepare_on`] / [`run_size_on`].
    Rtl,
}

impl Machine {
    /// The `--mode` name.
    pub const fn mode_name(self) -> &'static str {
        match self {
            Machine::Flat => "flat",
            Machine::SystemFast => "fast",
            Machine::SystemCycle => "cycle",
            Machine::Rtl => "rtl",
        }
    }
}

/// A sweep's parameters.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Config {
    /// Collective.
    pub op: CollectiveOp,
    /// Ranks (one per core).
    pub ranks: usize,
    /// Smallest size, bytes.
    pub min_bytes: u64,
    /// Largest size, bytes.
    pub max_bytes: u64,
    /// Multiplier between sizes (≥ 2).
    pub factor: u64,
    /// Element type.
    pub dtype: Dtype,
    /// Reduction operator of the reducing ops.
    pub reduce: ReduceOp,
    /// Check every size against the reference.
    pub check: bool,
    /// Ring direction.
    pub channel: u16,
    /// Architecture.
    pub arch: Arch,
    /// Seed of the input data.
    pub seed: u64,
    /// Machine.
    pub machine: Machine,
    /// Algorithm (`auto`: by size, [`algo::choose`]).
    pub algorithm: Choice,
}

/// One row of the table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// size(B).
    pub size_bytes: u64,
    /// count(elems).
    pub count: u64,
    /// type.
    pub dtype: Dtype,
    /// algorithm that ran.
    pub algorithm: Algorithm,
    /// time(us), modeled.
    pub time_us: f64,
    /// The modeled time in core-clock cycles (`clock`, rounded up).
    pub cycles: u64,
    /// algbw(GB/s) = size / time.
    pub algbw_gbps: f64,
    /// busbw(GB/s) = algbw × bus factor.
    pub busbw_gbps: f64,
    /// Host wall time of the collective, µs.
    pub host_us: f64,
    /// Bytes the model moved per host second, GB/s.
    pub sim_gbps: f64,
    /// Legs executed.
    pub legs: u64,
    /// `Some(true)` when checked and equal to the reference.
    pub verified: Option<bool>,
}

/// A sweep that cannot run.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NccomError {
    /// Bad rank count.
    #[error("ranks must be 2..={MAX_RANKS} for the fast path, got {0}")]
    Ranks(usize),
    /// Bad size bounds.
    #[error("size range is empty: min {min} > max {max}")]
    Range {
        /// Min.
        min: u64,
        /// Max.
        max: u64,
    },
    /// Bad factor.
    #[error("factor must be at least 2, got {0}")]
    Factor(u64),
    /// Too large a buffer.
    #[error("largest size {0} exceeds {MAX_BYTES} bytes (128 partitions x 2 MiB)")]
    TooLarge(u64),
    /// Mesh scratch slots that do not fit an SBUF partition.
    #[error("size {size}: {bufs} input-shaped buffers of {row} bytes per partition (mesh scratch slots included) exceed the {max} bytes of a partition")]
    PartitionFull {
        /// Size.
        size: u64,
        /// Buffers per rank.
        bufs: u64,
        /// Bytes per partition of one buffer.
        row: u64,
        /// Partition stride.
        max: u64,
    },
    /// Too much host memory.
    #[error("{ranks} ranks x {bytes} bytes x {bufs} buffers needs more than {MAX_HOST_BYTES} bytes of host memory")]
    HostMemory {
        /// Ranks.
        ranks: usize,
        /// Largest size.
        bytes: u64,
        /// Buffers per rank.
        bufs: u64,
    },
    /// A size string that does not parse.
    #[error("bad size {0:?}: expected a number with an optional K, M or G suffix (powers of 1024), e.g. 1K, 16M")]
    Size(String),
    /// Reference mismatch.
    #[error("{op} size {size}: rank {pos} differs from the reference at byte {at} (got {got:#04x}, want {want:#04x})")]
    Mismatch {
        /// Op.
        op: CollectiveOp,
        /// Size.
        size: u64,
        /// Group position.
        pos: usize,
        /// Byte offset in the buffer.
        at: u64,
        /// Value read.
        got: u8,
        /// Reference value.
        want: u8,
    },
    /// The collective failed.
    #[error(transparent)]
    Collective(#[from] CollectiveError),
    /// The machine failed.
    #[error(transparent)]
    Target(#[from] TargetError),
    /// A configuration this machine cannot run.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// More ranks than a fixed configuration has cores.
    #[error("-r {ranks}: config {config} has {cores} cores (-r 2..={cores})")]
    ConfigCores {
        /// Ranks asked for.
        ranks: usize,
        /// The configuration.
        config: &'static str,
        /// Its cores.
        cores: usize,
    },
    /// A machine this crate cannot build (the RTL): the caller passes it.
    #[error("machine {0:?} is built by its caller: use prepare_on / run_size_on")]
    ExternalMachine(Machine),
}

/// Parse `1K`, `16M`, `2G`, `4096` (K/M/G are powers of 1024; `B` and `iB` accepted).
pub fn parse_size(s: &str) -> Result<u64, NccomError> {
    let t = s.trim();
    let t = t
        .strip_suffix("iB")
        .or_else(|| t.strip_suffix('B'))
        .unwrap_or(t);
    let (num, mul) = match t.chars().last() {
        Some('k' | 'K') => (&t[..t.len() - 1], 1u64 << 10),
        Some('m' | 'M') => (&t[..t.len() - 1], 1 << 20),
        Some('g' | 'G') => (&t[..t.len() - 1], 1 << 30),
        _ => (t, 1),
    };
    num.parse::<u64>()
        .ok()
        .and_then(|v| v.checked_mul(mul))
        .ok_or_else(|| NccomError::Size(s.to_string()))
}

impl Config {
    /// Check the parameters.
    pub fn validate(&self) -> Result<(), NccomError> {
        if !(2..=MAX_RANKS).contains(&self.ranks) {
            return Err(NccomError::Ranks(self.ranks));
        }
        if self.min_bytes > self.max_bytes {
            return Err(NccomError::Range {
                min: self.min_bytes,
                max: self.max_bytes,
            });
        }
        if self.factor < 2 {
            return Err(NccomError::Factor(self.factor));
        }
        if self.max_bytes > MAX_BYTES {
            return Err(NccomError::TooLarge(self.max_bytes));
        }
        if let Choice::Fixed(a) = self.algorithm {
            if a != Algorithm::Ring && !self.op.blocked() {
                return Err(CollectiveError::NotBlocked {
                    op: self.op,
                    algo: a,
                }
                .into());
            }
            if a == Algorithm::Rdh && !self.ranks.is_power_of_two() {
                return Err(CollectiveError::NotPowerOfTwo {
                    op: self.op,
                    n: self.ranks,
                }
                .into());
            }
        }
        for size in self.sizes().into_iter().chain([self.max_bytes]) {
            let bufs = self.buffers(size);
            if (self.ranks as u64)
                .saturating_mul(size)
                .saturating_mul(bufs)
                > MAX_HOST_BYTES
            {
                return Err(NccomError::HostMemory {
                    ranks: self.ranks,
                    bytes: size,
                    bufs,
                });
            }
            let row = size / partitions_for(size.max(1)) as u64;
            let max = MAX_BYTES / SBUF_PARTITIONS as u64;
            let slots = algo::scratch_slots(self.op, self.algorithm_for(size), self.ranks);
            if slots > 0 && row.saturating_mul(bufs) > max {
                return Err(NccomError::PartitionFull {
                    size,
                    bufs,
                    row,
                    max,
                });
            }
        }
        if self.op == CollectiveOp::SendRecv && !self.ranks.is_multiple_of(2) {
            return Err(CollectiveError::OddPairs { n: self.ranks }.into());
        }
        Ok(())
    }

    /// The algorithm a size runs with.
    pub fn algorithm_for(&self, size: u64) -> Algorithm {
        match self.algorithm {
            Choice::Fixed(a) => a,
            Choice::Auto => algo::choose(self.op, self.ranks, size),
        }
    }

    /// Input-shaped buffers per rank at `size`: the buffer, the output of
    /// permute / sendrecv, the mesh scratch slots.
    fn buffers(&self, size: u64) -> u64 {
        let a = self.algorithm_for(size);
        1 + u64::from(self.op.needs_output()) + algo::scratch_slots(self.op, a, self.ranks) as u64
    }

    /// The (rounded) sizes of the sweep, smallest first, zeros dropped.
    pub fn sizes(&self) -> Vec<u64> {
        let unit = self.unit();
        let mut out = Vec::new();
        let mut s = self.min_bytes.max(1);
        while s <= self.max_bytes {
            let r = s - s % unit;
            if r > 0 && out.last() != Some(&r) {
                out.push(r);
            }
            match s.checked_mul(self.factor) {
                Some(x) => s = x,
                None => break,
            }
        }
        out
    }

    /// Granule a size is rounded down to.
    fn unit(&self) -> u64 {
        let e = self.dtype.size() as u64;
        if self.op.blocked() {
            e * self.ranks as u64
        } else {
            e
        }
    }

    /// The reduction passed to the executor.
    fn reduction(&self) -> Option<(Dtype, ReduceOp)> {
        self.op.reduces().then_some((self.dtype, self.reduce))
    }
}

/// The partition count for a buffer: the largest p ≤ 128 dividing `size`.
fn partitions_for(size: u64) -> u32 {
    (1..=u32::from(SBUF_PARTITIONS))
        .rev()
        .find(|p| size.is_multiple_of(*p as u64))
        .unwrap_or(1)
}

/// Fill `buf` with finite values of `dtype` (magnitudes in [0.5, 1) for the
/// floats, any value for int32), reproducibly from `rng`.
pub fn fill_values(rng: &mut StimRng, dtype: Dtype, buf: &mut [u8]) {
    rng.fill(buf);
    match dtype {
        Dtype::Int32 => {}
        Dtype::Fp32 => {
            for c in buf.chunks_exact_mut(4) {
                let v = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
                c.copy_from_slice(&((v & 0x807F_FFFF) | 0x3F00_0000).to_le_bytes());
            }
        }
        Dtype::Bf16 => {
            for c in buf.chunks_exact_mut(2) {
                let v = u16::from_le_bytes([c[0], c[1]]);
                c.copy_from_slice(&((v & 0x807F) | 0x3F00).to_le_bytes());
            }
        }
        Dtype::Fp16 => {
            for c in buf.chunks_exact_mut(2) {
                let v = u16::from_le_bytes([c[0], c[1]]);
                c.copy_from_slice(&((v & 0x83FF) | 0x3800).to_le_bytes());
            }
        }
    }
}

/// One prepared size: the machine, the members and the inputs.
pub struct Prepared {
    /// The machine.
    pub target: Box<dyn Target>,
    /// Members by group position (rank r on core r).
    pub members: Vec<Member>,
    /// Inputs by group position (kept for the check).
    pub inputs: Vec<Vec<u8>>,
    /// The algorithm of this size.
    pub algorithm: Algorithm,
}

/// Lay out and fill the buffers for one size. The SBUF is sized to hold the
/// buffers when they exceed the arch default (nccom-test buffers live in HBM
/// on hardware; this model moves them SBUF→SBUF — project-defined).
pub fn prepare(cfg: &Config, size: u64) -> Result<Prepared, NccomError> {
    prepare_with(cfg, size, SystemConfig::System)
}

/// Check that a sweep fits a fixed configuration: its ranks on the
/// configuration's cores, every size's buffers (all of a rank's, per
/// partition) below the receive slots ([`slot_base`]) — the room the
/// Verilated top's target gives them, so the twin runs the same layout.
pub fn check_config(cfg: &Config, config: SystemConfig) -> Result<(), NccomError> {
    let Some(p) = config.params() else {
        return Ok(());
    };
    let cores = config.cores().unwrap_or(usize::MAX);
    if cfg.ranks > cores {
        return Err(NccomError::ConfigCores {
            ranks: cfg.ranks,
            config: config.name(),
            cores,
        });
    }
    let max = slot_base(&p.core);
    for size in cfg.sizes() {
        if partition_bytes_needed(cfg, size) > max {
            return Err(NccomError::PartitionFull {
                size,
                bufs: cfg.buffers(size),
                row: size / partitions_for(size) as u64,
                max,
            });
        }
    }
    Ok(())
}

/// [`prepare`] at a configuration: [`SystemConfig::System`] sizes the
/// system to the ranks and buffers, a fixed one ([`SystemConfig::Coll`])
/// builds its system top ([`SystemTarget::with_params`]).
pub fn prepare_with(cfg: &Config, size: u64, config: SystemConfig) -> Result<Prepared, NccomError> {
    if let Some(p) = config.params() {
        config.check_mode(cfg.machine.mode_name())?;
        let mode = match cfg.machine {
            Machine::SystemFast => crate::system::Mode::Fast,
            Machine::SystemCycle => crate::system::Mode::Cycle,
            Machine::Flat | Machine::Rtl => return Err(NccomError::ExternalMachine(cfg.machine)),
        };
        check_config(cfg, config)?;
        let t = SystemTarget::with_params(cfg.arch, p, mode)?;
        return prepare_on(cfg, size, Box::new(t));
    }
    let row = size / partitions_for(size) as u64;
    // Rounded up to 64 bytes (the system model's partition granule).
    let pb = default_partition_bytes(cfg.arch).max((row * cfg.buffers(size)).next_multiple_of(64));
    let target: Box<dyn Target> = match cfg.machine {
        Machine::Flat => Box::new(FlatTarget::new(cfg.arch, cfg.ranks, pb)),
        Machine::SystemFast | Machine::SystemCycle => {
            // Packages of 2 dies x 4 cores (the last one may be partly used).
            let packages = cfg.ranks.div_ceil(8);
            let mode = if cfg.machine == Machine::SystemFast {
                crate::system::Mode::Fast
            } else {
                crate::system::Mode::Cycle
            };
            Box::new(SystemTarget::new(cfg.arch, packages, 4, pb, mode)?)
        }
        Machine::Rtl => return Err(NccomError::ExternalMachine(cfg.machine)),
    };
    prepare_on(cfg, size, target)
}

/// Bytes per SBUF partition the buffers of one size take (every buffer,
/// output and scratch slot of a rank): what a caller-built target must hold.
pub fn partition_bytes_needed(cfg: &Config, size: u64) -> u64 {
    size / partitions_for(size) as u64 * cfg.buffers(size)
}

/// [`prepare`] on a machine the caller built (rank r on core r).
pub fn prepare_on(
    cfg: &Config,
    size: u64,
    mut target: Box<dyn Target>,
) -> Result<Prepared, NccomError> {
    let parts = partitions_for(size);
    let row = size / parts as u64;
    let algorithm = cfg.algorithm_for(size);
    let slots = algo::scratch_slots(cfg.op, algorithm, cfg.ranks);
    let mut rng = StimRng::new(cfg.seed ^ size);
    let mut members = Vec::with_capacity(cfg.ranks);
    let mut inputs = Vec::with_capacity(cfg.ranks);
    for r in 0..cfg.ranks {
        let input = Layout {
            core: r,
            partition: 0,
            partitions: parts,
            offset: 0,
            size,
        };
        let output = cfg.op.needs_output().then_some(Layout {
            offset: row,
            ..input
        });
        // Mesh scratch: slots 0.. right after the buffer in every partition.
        let scratch = (slots > 0).then_some(Layout {
            offset: row,
            ..input
        });
        let mut data = vec![0u8; size as usize];
        fill_values(&mut rng, cfg.dtype, &mut data);
        write_tensor(target.as_mut(), &input, 0, &data)?;
        members.push(Member {
            input,
            output,
            scratch,
        });
        inputs.push(data);
    }
    Ok(Prepared {
        target,
        members,
        inputs,
        algorithm,
    })
}

/// Compare the machine's buffers with the reference.
pub fn verify(cfg: &Config, size: u64, p: &Prepared) -> Result<(), NccomError> {
    let ring = Ring::new(cfg.ranks, cfg.channel);
    for e in reference::expected_algo(cfg.op, &p.inputs, &ring, cfg.reduction(), p.algorithm) {
        let m = &p.members[e.pos];
        let buf = if cfg.op.needs_output() {
            m.output.unwrap_or(m.input)
        } else {
            m.input
        };
        let got = read_tensor(p.target.as_ref(), &buf, e.offset, e.bytes.len() as u64)?;
        if let Some(i) = got.iter().zip(&e.bytes).position(|(a, b)| a != b) {
            return Err(NccomError::Mismatch {
                op: cfg.op,
                size,
                pos: e.pos,
                at: e.offset + i as u64,
                got: got[i],
                want: e.bytes[i],
            });
        }
    }
    Ok(())
}

/// Run one size: prepare, time the collective, check if asked, build the row.
pub fn run_size(cfg: &Config, size: u64) -> Result<Row, NccomError> {
    run_prepared(cfg, size, prepare(cfg, size)?)
}

/// [`run_size`] at a configuration ([`prepare_with`]).
pub fn run_size_with(cfg: &Config, size: u64, config: SystemConfig) -> Result<Row, NccomError> {
    run_prepared(cfg, size, prepare_with(cfg, size, config)?)
}

/// [`run_size`] on a machine the caller built.
pub fn run_size_on(cfg: &Config, size: u64, target: Box<dyn Target>) -> Result<Row, NccomError> {
    run_prepared(cfg, size, prepare_on(cfg, size, target)?)
}

fn run_prepared(cfg: &Config, size: u64, mut p: Prepared) -> Result<Row, NccomError> {
    let t0 = Instant::now();
    let rep = run_algo(
        p.target.as_mut(),
        cfg.op,
        &p.members,
        cfg.channel,
        cfg.reduction(),
        p.algorithm,
    )?;
    let host = t0.elapsed().as_secs_f64();
    let verified = if cfg.check {
        verify(cfg, size, &p)?;
        Some(true)
    } else {
        None
    };
    let time_us = rep.modeled_ns as f64 / 1e3;
    let algbw = if rep.modeled_ns > 0 {
        size as f64 / rep.modeled_ns as f64
    } else {
        0.0
    };
    Ok(Row {
        size_bytes: size,
        count: size / cfg.dtype.size() as u64,
        dtype: cfg.dtype,
        algorithm: p.algorithm,
        time_us,
        cycles: crate::clock::ps_to_cycles(rep.modeled_ns * 1000),
        algbw_gbps: algbw,
        busbw_gbps: algbw * cfg.op.bus_factor(cfg.ranks),
        host_us: host * 1e6,
        sim_gbps: if host > 0.0 {
            rep.bytes as f64 / host / 1e9
        } else {
            0.0
        },
        legs: rep.legs,
        verified,
    })
}

/// A published Trainium2 measurement: nccom-test user guide, SDK 2.28
/// example (PUBLIC-FACTS §7), `nccom-test -r 8 --minbytes 1kb --maxbytes 1mb
/// --stepfactor 8 --datatype fp32 allg`: (size in bytes, time:avg in µs).
pub const PUBLISHED_TRN2_ALL_GATHER_R8_FP32: [(u64, f64); 4] = [
    (1024, 10.0),
    (8192, 10.22),
    (65536, 11.31),
    (524_288, 14.83),
];

/// busbw (GB/s) of a published row: size / time × the op's bus factor.
pub fn published_busbw(op: CollectiveOp, ranks: usize, size: u64, time_us: f64) -> f64 {
    size as f64 / (time_us * 1e3) * op.bus_factor(ranks)
}

/// Average bus bandwidth of the rows (the "Avg bus bandwidth" line).
pub fn avg_busbw(rows: &[Row]) -> f64 {
    if rows.is_empty() {
        0.0
    } else {
        rows.iter().map(|r| r.busbw_gbps).sum::<f64>() / rows.len() as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(op: CollectiveOp, ranks: usize, dtype: Dtype) -> Config {
        Config {
            op,
            ranks,
            min_bytes: 1024,
            max_bytes: 64 * 1024,
            factor: 4,
            dtype,
            reduce: ReduceOp::Sum,
            check: true,
            channel: 0,
            arch: Arch::Cayman,
            seed: 7,
            machine: Machine::Flat,
            algorithm: Choice::Fixed(Algorithm::Ring),
        }
    }

    #[test]
    fn parse_size_accepts_suffixes_and_rejects_garbage() {
        assert_eq!(parse_size("1K").unwrap(), 1024);
        assert_eq!(parse_size("16M").unwrap(), 16 << 20);
        assert_eq!(parse_size("2G").unwrap(), 2 << 30);
        assert_eq!(parse_size("4096").unwrap(), 4096);
        assert_eq!(parse_size("8KiB").unwrap(), 8192);
        let e = parse_size("12Q").unwrap_err();
        assert!(e.to_string().contains("bad size \"12Q\""), "{e}");
    }

    #[test]
    fn bus_factors_follow_public_facts_4() {
        assert_eq!(CollectiveOp::AllReduce.bus_factor(8), 1.75);
        assert_eq!(CollectiveOp::AllGather.bus_factor(8), 0.875);
        assert_eq!(CollectiveOp::ReduceScatter.bus_factor(4), 0.75);
        assert_eq!(CollectiveOp::Permute.bus_factor(8), 1.0);
        assert_eq!(CollectiveOp::SendRecv.bus_factor(2), 1.0);
    }

    #[test]
    fn sweep_sizes_multiply_by_factor_and_round_to_rank_elements() {
        let mut c = cfg(CollectiveOp::AllReduce, 3, Dtype::Fp32);
        c.min_bytes = 1000;
        c.max_bytes = 16000;
        assert_eq!(c.sizes(), vec![996, 3996, 15996]);
    }

    #[test]
    fn every_op_and_dtype_verifies_on_a_small_sweep() {
        for op in CollectiveOp::ALL {
            for dtype in Dtype::ALL {
                let c = cfg(op, 4, dtype);
                for s in c.sizes() {
                    let row = run_size(&c, s).unwrap();
                    assert_eq!(row.verified, Some(true));
                    assert!(row.time_us > 0.0);
                }
            }
        }
    }

    #[test]
    fn system_model_fast_mode_gives_the_reference_result() {
        for op in [
            CollectiveOp::AllReduce,
            CollectiveOp::AllGather,
            CollectiveOp::Permute,
        ] {
            let mut c = cfg(op, 8, Dtype::Bf16);
            c.machine = Machine::SystemFast;
            c.max_bytes = 16 * 1024;
            for s in c.sizes() {
                assert_eq!(run_size(&c, s).unwrap().verified, Some(true));
            }
        }
    }

    /// Modeled µs of one size of `op` on `ranks` ranks with `algorithm` on `machine`.
    fn time_us(
        op: CollectiveOp,
        ranks: usize,
        algorithm: Choice,
        machine: Machine,
        size: u64,
    ) -> f64 {
        let mut c = cfg(op, ranks, Dtype::Fp32);
        c.algorithm = algorithm;
        c.machine = machine;
        c.check = false;
        run_size(&c, size).unwrap().time_us
    }

    #[test]
    fn flat_fast_and_cycle_modeled_times_agree_within_10_percent() {
        // Issue 34 item 4: one modeled time across the three machines. The
        // flat path and fast mode share the closed form of the data-path
        // rows; cycle mode is what the rows were derived from.
        let cases = [
            (
                CollectiveOp::AllGather,
                4,
                Choice::Fixed(Algorithm::Ring),
                64 << 10,
            ),
            (CollectiveOp::AllGather, 8, Choice::Auto, 1 << 10),
            (CollectiveOp::AllGather, 8, Choice::Auto, 64 << 10),
            (
                CollectiveOp::AllReduce,
                4,
                Choice::Fixed(Algorithm::Rdh),
                16 << 10,
            ),
            (
                CollectiveOp::ReduceScatter,
                4,
                Choice::Fixed(Algorithm::Mesh),
                16 << 10,
            ),
        ];
        let mut bad = Vec::new();
        for (op, ranks, algo, size) in cases {
            let f = time_us(op, ranks, algo, Machine::Flat, size);
            let s = time_us(op, ranks, algo, Machine::SystemFast, size);
            let c = time_us(op, ranks, algo, Machine::SystemCycle, size);
            eprintln!("{op} r={ranks} {algo:?} {size} B: flat {f:.3} fast {s:.3} cycle {c:.3} us");
            for (what, x) in [("flat", f), ("fast", s)] {
                if !(0.9..=1.1).contains(&(x / c)) {
                    bad.push((op, ranks, size, what, x, c));
                }
            }
        }
        assert!(bad.is_empty(), "outside 10 % of cycle mode: {bad:?}");
    }

    #[test]
    fn published_trn2_all_gather_rows_are_within_1_5x_where_the_data_path_allows() {
        // Issue 34 item 5 / issue 37 item 5: nccom-test SDK 2.28, 8 ranks,
        // all_gather, fp32, `auto` (PUBLIC-FACTS §7). The firmware costs of
        // system::timing are the same for every op and rank count. A row
        // whose data path alone (the cycle model's, without any firmware
        // cost) already exceeds 1.5× the measurement cannot be reached by
        // calibration: it is reported, not tuned (docs/performance.md).
        use crate::system::timing::{step_ns, COLLECTIVE_LAUNCH_NS};
        let mut outside = Vec::new();
        for (size, published) in PUBLISHED_TRN2_ALL_GATHER_R8_FP32 {
            let model = time_us(
                CollectiveOp::AllGather,
                8,
                Choice::Auto,
                Machine::SystemFast,
                size,
            );
            // One mesh step, 7 legs per core.
            let firmware = (COLLECTIVE_LAUNCH_NS + step_ns(7)) as f64 / 1e3;
            let data = model - firmware;
            let ratio = model / published;
            eprintln!("{size:>7} B: model {model:.2} us (data path {data:.2}), published {published} us, ratio {ratio:.2}");
            assert!(data > 0.0);
            if !(1.0 / 1.5..=1.5).contains(&ratio) {
                outside.push((size, ratio));
                assert!(
                    data > 1.5 * published,
                    "{size} B: {ratio:.2}x the measurement although the data path alone is {data:.2} us: recalibrate system::timing"
                );
            }
        }
        // The small rows, where the firmware costs dominate, are within 1.5×.
        assert!(outside.iter().all(|&(s, _)| s > 64 << 10), "{outside:?}");
    }

    #[test]
    fn bad_config_is_rejected_with_a_message() {
        let mut c = cfg(CollectiveOp::AllReduce, 65, Dtype::Fp32);
        assert!(c
            .validate()
            .unwrap_err()
            .to_string()
            .contains("ranks must be 2..=64"));
        c.ranks = 8;
        c.factor = 1;
        assert!(c
            .validate()
            .unwrap_err()
            .to_string()
            .contains("factor must be at least 2"));
        c.factor = 2;
        c.min_bytes = 10;
        c.max_bytes = 1;
        assert!(c
            .validate()
            .unwrap_err()
            .to_string()
            .contains("size range is empty"));
        c.max_bytes = 1 << 40;
        c.min_bytes = 1;
        assert!(c
            .validate()
            .unwrap_err()
            .to_string()
            .contains("exceeds 268435456 bytes"));
        c.max_bytes = 256 << 20;
        c.ranks = 64;
        assert!(c
            .validate()
            .unwrap_err()
            .to_string()
            .contains("host memory"));
        let mut c = cfg(CollectiveOp::SendRecv, 3, Dtype::Fp32);
        c.ranks = 3;
        assert!(c
            .validate()
            .unwrap_err()
            .to_string()
            .contains("even number"));
    }
}
