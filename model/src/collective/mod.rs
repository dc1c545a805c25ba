//! Ring collectives built from the point-to-point primitive: a ring step is
//! a set of concurrent send/recv legs (seed 000 §6), and a reducing step's
//! receive folds on arrival (`recv_reduce`, seed 000 §6 NOTE) with the fused
//! kernels of [`crate::datapath::reduce`].
//!
//! - [`schedule`]: the ring schedules of PUBLIC-FACTS §5 (all-gather,
//!   reduce-scatter, all-reduce, permute, sendrecv).
//! - [`algo`]: mesh and recursive halving/doubling, and the size rule
//!   (`auto`) that picks an algorithm; [`run_algo`] runs them.
//! - [`mod@reference`]: an independent scalar reference in the ring's reduction order.
//! - [`run`]: execute a schedule on a [`Target`].
//! - [`nccom`]: the nccom-test style size sweep and table.
//! - [`parallel`]: a step's independent legs on every hardware thread
//!   (bit-identical to the serial run).
//!
//! Channels: channel 0 is the ring in group order (position p sends to p+1),
//! channel 1 the reverse ring (p sends to p−1) — project-defined, matching
//! 0xDB's resolution in [`crate::lower::rank_id`].

pub mod algo;
pub mod nccom;
pub mod parallel;
pub mod reference;
pub mod schedule;

use serde::Serialize;
use thiserror::Error;

use crate::datapath::reduce::{Dtype, ReduceOp};
use crate::isa::EncOpType;
use crate::lower::layout::{pair_legs, Layout};
use crate::lower::target::{LegReport, Target, TargetError};
pub use algo::Algorithm;
use algo::Place;

/// The collectives this module runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CollectiveOp {
    /// Ring all-gather (in place; position p's contribution is block p).
    AllGather,
    /// Ring reduce-scatter (in place; position p's result is block p).
    ReduceScatter,
    /// Ring all-reduce (in place): reduce-scatter then all-gather.
    AllReduce,
    /// Ring shift: position p's input goes to the next position's output.
    Permute,
    /// Pairs (2k, 2k+1) exchange inputs into each other's outputs.
    SendRecv,
}

impl CollectiveOp {
    /// All ops, in nccom-test order.
    pub const ALL: [CollectiveOp; 5] = [
        CollectiveOp::AllReduce,
        CollectiveOp::AllGather,
        CollectiveOp::ReduceScatter,
        CollectiveOp::SendRecv,
        CollectiveOp::Permute,
    ];

    /// nccom-test name (`all_reduce`, …).
    pub const fn name(self) -> &'static str {
        match self {
            CollectiveOp::AllGather => "all_gather",
            CollectiveOp::ReduceScatter => "reduce_scatter",
            CollectiveOp::AllReduce => "all_reduce",
            CollectiveOp::Permute => "permute",
            CollectiveOp::SendRecv => "sendrecv",
        }
    }

    /// Parse a name (`all_reduce`, `allreduce`, `all-reduce`).
    pub fn parse(s: &str) -> Option<CollectiveOp> {
        let t = s.to_ascii_lowercase().replace(['-', '_'], "");
        CollectiveOp::ALL
            .into_iter()
            .find(|o| o.name().replace('_', "") == t)
    }

    /// True when the receives fold (reduce-scatter, all-reduce).
    pub const fn reduces(self) -> bool {
        matches!(self, CollectiveOp::ReduceScatter | CollectiveOp::AllReduce)
    }

    /// True when the buffer is cut into one block per rank.
    pub const fn blocked(self) -> bool {
        matches!(
            self,
            CollectiveOp::AllGather | CollectiveOp::ReduceScatter | CollectiveOp::AllReduce
        )
    }

    /// True when a separate output buffer is needed.
    pub const fn needs_output(self) -> bool {
        matches!(self, CollectiveOp::Permute | CollectiveOp::SendRecv)
    }

    /// The host op-kind (seed 000 §3).
    pub const fn enc_op_type(self) -> EncOpType {
        match self {
            CollectiveOp::AllGather => EncOpType::Allgather,
            CollectiveOp::ReduceScatter => EncOpType::ReduceScatter,
            CollectiveOp::AllReduce => EncOpType::Allreduce,
            CollectiveOp::Permute => EncOpType::Permute,
            CollectiveOp::SendRecv => EncOpType::Send,
        }
    }

    /// nccom-test bus-bandwidth factor (PUBLIC-FACTS §4): all-reduce
    /// 2(n−1)/n; all-gather, reduce-scatter (n−1)/n; sendrecv, permute 1.
    pub fn bus_factor(self, n: usize) -> f64 {
        let n = n as f64;
        match self {
            CollectiveOp::AllReduce => 2.0 * (n - 1.0) / n,
            CollectiveOp::AllGather | CollectiveOp::ReduceScatter => (n - 1.0) / n,
            CollectiveOp::Permute | CollectiveOp::SendRecv => 1.0,
        }
    }
}

impl core::fmt::Display for CollectiveOp {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// Ring order of a group for one channel: `order[j]` is the group position
/// at ring index `j`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ring {
    order: Vec<usize>,
}

impl Ring {
    /// Channel 0: ring index j = position j. Channel 1: the reverse ring,
    /// ring index j = position (n − j) mod n. Other channels: as channel
    /// `channel mod 2` (callers check the channel range).
    pub fn new(n: usize, channel: u16) -> Ring {
        let order = (0..n)
            .map(|j| {
                if channel.is_multiple_of(2) {
                    j
                } else {
                    (n - j) % n
                }
            })
            .collect();
        Ring { order }
    }

    /// Group position at ring index `j`.
    pub fn pos(&self, j: usize) -> usize {
        self.order[j]
    }

    /// Ring index of group position `p`.
    pub fn index_of(&self, p: usize) -> usize {
        self.order.iter().position(|&x| x == p).unwrap_or(0)
    }

    /// Number of ranks.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// True for an empty ring.
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }
}

/// One participant: where its buffers are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Member {
    /// The (in-place) buffer, or the input of permute / sendrecv.
    pub input: Layout,
    /// The output of permute / sendrecv.
    pub output: Option<Layout>,
    /// Scratch slot 0 of the mesh reduce-scatter / all-reduce (input-shaped;
    /// slot i sits i × its row bytes further in every partition, [`Member::slot`]).
    pub scratch: Option<Layout>,
}

impl Member {
    /// A member with no output and no scratch.
    pub const fn in_place(input: Layout) -> Member {
        Member {
            input,
            output: None,
            scratch: None,
        }
    }

    /// Scratch slot `i`: slot 0 shifted by `i` rows in every partition
    /// (each slot is input-shaped, so block b of every slot sits on the
    /// partitions of block b of the input).
    pub fn slot(&self, i: usize) -> Option<Layout> {
        self.scratch.map(|s| Layout {
            offset: s.offset + i as u64 * s.row(),
            ..s
        })
    }
}

/// A collective that cannot run.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CollectiveError {
    /// No members.
    #[error("{op}: the group is empty")]
    Empty {
        /// Op.
        op: CollectiveOp,
    },
    /// Buffers of different sizes.
    #[error("{op}: buffer sizes differ (position 0 has {first} bytes, position {pos} has {size})")]
    SizeMismatch {
        /// Op.
        op: CollectiveOp,
        /// First size.
        first: u64,
        /// Offending position.
        pos: usize,
        /// Its size.
        size: u64,
    },
    /// The buffer does not split into whole elements per rank.
    #[error("{op}: buffer of {size} bytes does not split into {n} blocks of whole {dtype} elements ({unit} bytes each)")]
    Indivisible {
        /// Op.
        op: CollectiveOp,
        /// Buffer bytes.
        size: u64,
        /// Ranks.
        n: usize,
        /// Element type.
        dtype: Dtype,
        /// Granule that must divide size.
        unit: u64,
    },
    /// A reducing op without a (dtype, op).
    #[error("{op} needs a dtype and a reduction operator")]
    NoReduction {
        /// Op.
        op: CollectiveOp,
    },
    /// Permute / sendrecv without output buffers.
    #[error("{op} needs an output buffer on every rank (position {pos} has none)")]
    NoOutput {
        /// Op.
        op: CollectiveOp,
        /// Position.
        pos: usize,
    },
    /// Sendrecv with an odd group.
    #[error("sendrecv pairs ranks (2k, 2k+1): the group needs an even number of ranks, not {n}")]
    OddPairs {
        /// Ranks.
        n: usize,
    },
    /// Rdh with a rank count that is not a power of two.
    #[error("{op}: --algorithm rdh needs a power-of-two number of ranks, not {n} (use ring, mesh or auto)")]
    NotPowerOfTwo {
        /// Op.
        op: CollectiveOp,
        /// Ranks.
        n: usize,
    },
    /// Mesh / rdh asked for an op they do not cover.
    #[error("{op}: --algorithm {algo} covers all_gather, reduce_scatter and all_reduce only (permute and sendrecv are one ring step)")]
    NotBlocked {
        /// Op.
        op: CollectiveOp,
        /// Algorithm asked for.
        algo: Algorithm,
    },
    /// Mesh reduce without scratch slots.
    #[error("{op} on the mesh needs {slots} scratch slots on every rank (position {pos} has none, or too few bytes)")]
    NoScratch {
        /// Op.
        op: CollectiveOp,
        /// Position.
        pos: usize,
        /// Slots needed.
        slots: usize,
    },
    /// The machine refused a leg.
    #[error(transparent)]
    Target(#[from] TargetError),
}

/// Check the members of `op` and return the block size in bytes.
pub fn check_members(
    op: CollectiveOp,
    members: &[Member],
    reduce: Option<(Dtype, ReduceOp)>,
) -> Result<u64, CollectiveError> {
    let n = members.len();
    let first = members
        .first()
        .ok_or(CollectiveError::Empty { op })?
        .input
        .size;
    for (pos, m) in members.iter().enumerate() {
        if m.input.size != first {
            return Err(CollectiveError::SizeMismatch {
                op,
                first,
                pos,
                size: m.input.size,
            });
        }
        if op.needs_output() {
            match m.output {
                None => return Err(CollectiveError::NoOutput { op, pos }),
                Some(o) if o.size != first => {
                    return Err(CollectiveError::SizeMismatch {
                        op,
                        first,
                        pos,
                        size: o.size,
                    })
                }
                _ => {}
            }
        }
    }
    if op.reduces() && reduce.is_none() {
        return Err(CollectiveError::NoReduction { op });
    }
    if op == CollectiveOp::SendRecv && !n.is_multiple_of(2) {
        return Err(CollectiveError::OddPairs { n });
    }
    if op.blocked() {
        let dtype = reduce.map_or(Dtype::Int32, |r| r.0);
        let esize = if op.reduces() { dtype.size() as u64 } else { 1 };
        let unit = n as u64 * esize;
        if !first.is_multiple_of(unit) {
            return Err(CollectiveError::Indivisible {
                op,
                size: first,
                n,
                dtype,
                unit,
            });
        }
        Ok(first / n as u64)
    } else {
        Ok(first)
    }
}

/// Run `op` over `members` (indexed by group position) on `target`, ring
/// direction `channel`. Each step's legs run as one concurrent batch; the
/// report's modeled time is the sum of the steps.
pub fn run(
    target: &mut dyn Target,
    op: CollectiveOp,
    members: &[Member],
    channel: u16,
    reduce: Option<(Dtype, ReduceOp)>,
) -> Result<LegReport, CollectiveError> {
    let bs = check_members(op, members, reduce)?;
    let n = members.len();
    let ring = Ring::new(n, channel);
    let mut report = LegReport {
        modeled_ns: target.launch(),
        ..LegReport::default()
    };
    for step in schedule::schedule(op, n) {
        let mut legs = Vec::new();
        for s in &step {
            let from = &members[ring.pos(s.from)];
            let to = &members[ring.pos(s.to)];
            let fold = if s.reduce { reduce } else { None };
            match s.block {
                Some(k) => {
                    // Ring block k is the block of group position ring.pos(k).
                    let at = ring.pos(k) as u64 * bs;
                    legs.extend(pair_legs(&from.input, at, &to.input, at, bs, fold));
                }
                None => {
                    let out = to.output.ok_or(CollectiveError::NoOutput {
                        op,
                        pos: ring.pos(s.to),
                    })?;
                    legs.extend(pair_legs(&from.input, 0, &out, 0, bs, None));
                }
            }
        }
        report.then(target.run_legs(&legs)?);
    }
    Ok(report)
}

/// Run `op` with `algo`: the ring as [`run`]; mesh and rdh from
/// [`algo::steps`] (each step's transfers as one concurrent batch, the
/// report's modeled time the sum of the steps). Rdh needs a power-of-two
/// group, mesh's reducing ops a scratch area on every member (one input-
/// shaped slot per peer, [`Member::slot`]); permute and sendrecv run only as
/// the ring.
pub fn run_algo(
    target: &mut dyn Target,
    op: CollectiveOp,
    members: &[Member],
    channel: u16,
    reduce: Option<(Dtype, ReduceOp)>,
    algo: Algorithm,
) -> Result<LegReport, CollectiveError> {
    if algo == Algorithm::Ring {
        return run(target, op, members, channel, reduce);
    }
    let bs = check_algo(op, members, reduce, algo)?;
    let n = members.len();
    let ring = Ring::new(n, channel);
    let place = |m: &Member, p: Place, pos: usize| -> Result<Layout, CollectiveError> {
        match p {
            Place::Data => Ok(m.input),
            Place::Slot(i) => m.slot(i).ok_or(CollectiveError::NoScratch {
                op,
                pos,
                slots: algo::scratch_slots(op, algo, n),
            }),
        }
    };
    let mut report = LegReport {
        modeled_ns: target.launch(),
        ..LegReport::default()
    };
    for step in algo::steps(op, algo, n) {
        let mut legs = Vec::new();
        for x in &step {
            let (pf, pt) = (ring.pos(x.from), ring.pos(x.to));
            let src = place(&members[pf], x.src, pf)?;
            let dst = place(&members[pt], x.dst, pt)?;
            let fold = if x.reduce { reduce } else { None };
            // Ring-index blocks k.. map to positions ring.pos(k)..: runs of
            // consecutive positions move as one range.
            let mut j = x.block;
            while j < x.block + x.blocks {
                let first = ring.pos(j);
                let mut len = 1;
                while j + len < x.block + x.blocks && ring.pos(j + len) == first + len {
                    len += 1;
                }
                let at = first as u64 * bs;
                legs.extend(pair_legs(&src, at, &dst, at, len as u64 * bs, fold));
                j += len;
            }
        }
        report.then(target.run_legs(&legs)?);
    }
    Ok(report)
}

/// [`check_members`] plus the conditions of `algo` (mesh, rdh).
pub fn check_algo(
    op: CollectiveOp,
    members: &[Member],
    reduce: Option<(Dtype, ReduceOp)>,
    algo: Algorithm,
) -> Result<u64, CollectiveError> {
    if algo != Algorithm::Ring && !op.blocked() {
        return Err(CollectiveError::NotBlocked { op, algo });
    }
    let bs = check_members(op, members, reduce)?;
    let n = members.len();
    if algo == Algorithm::Ring {
        return Ok(bs);
    }
    if algo == Algorithm::Rdh && !n.is_power_of_two() {
        return Err(CollectiveError::NotPowerOfTwo { op, n });
    }
    let slots = algo::scratch_slots(op, algo, n);
    if slots > 0 {
        for (pos, m) in members.iter().enumerate() {
            let ok = m
                .scratch
                .is_some_and(|s| s.partitions == m.input.partitions && s.size == m.input.size);
            if !ok {
                return Err(CollectiveError::NoScratch { op, pos, slots });
            }
        }
    }
    Ok(bs)
}

/// Read `len` bytes of a tensor starting at tensor byte `start`.
pub fn read_tensor(
    target: &dyn Target,
    t: &Layout,
    start: u64,
    len: u64,
) -> Result<Vec<u8>, TargetError> {
    let mut out = Vec::with_capacity(len as usize);
    for (p, off, l) in t.runs(start, len) {
        out.extend(target.read(t.core, p, off, l)?);
    }
    Ok(out)
}

/// Write bytes into a tensor starting at tensor byte `start`.
pub fn write_tensor(
    target: &mut dyn Target,
    t: &Layout,
    start: u64,
    data: &[u8],
) -> Result<(), TargetError> {
    let mut k = 0usize;
    for (p, off, l) in t.runs(start, data.len() as u64) {
        target.write(t.core, p, off, &data[k..k + l as usize])?;
        k += l as usize;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
