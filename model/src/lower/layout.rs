//! Where a tensor lives in SBUF, and how a byte range of one tensor pairs
//! with a byte range of another as rectangular legs.
//!
//! A tensor occupies `partitions` consecutive SBUF partitions starting at
//! `partition`, the same `size / partitions` bytes at byte `offset` of each.
//! Its bytes are numbered partition-major (project-defined, docs/programs.md):
//! tensor byte `k` sits in partition `partition + k / row`, at byte
//! `offset + k % row` of it, with `row = size / partitions`.

use super::target::{Leg, Region};
use crate::datapath::reduce::{Dtype, ReduceOp};

/// SBUF placement of one tensor on one core.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Layout {
    /// Global core index.
    pub core: usize,
    /// First partition.
    pub partition: u32,
    /// Number of partitions (> 0).
    pub partitions: u32,
    /// Byte offset inside each partition.
    pub offset: u64,
    /// Total bytes (a multiple of `partitions`).
    pub size: u64,
}

/// One row piece: `len` bytes at (`partition`, `offset`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Piece {
    partition: u32,
    offset: u64,
    len: u64,
}

impl Layout {
    /// Bytes per partition.
    pub const fn row(&self) -> u64 {
        self.size / self.partitions as u64
    }

    /// The whole tensor as one SBUF rectangle.
    pub const fn region(&self) -> Region {
        Region {
            core: self.core,
            partition: self.partition,
            partitions: self.partitions,
            offset: self.offset,
            bytes: self.row(),
        }
    }

    /// Location (partition, byte offset) of tensor byte `k`.
    pub const fn locate(&self, k: u64) -> (u32, u64) {
        let row = self.row();
        (self.partition + (k / row) as u32, self.offset + k % row)
    }

    /// The row pieces covering tensor bytes `[start, start + len)` (caller
    /// checks the range is inside the tensor).
    fn pieces(&self, start: u64, len: u64) -> Vec<Piece> {
        let row = self.row();
        let mut out = Vec::new();
        let mut k = start;
        let end = start + len;
        while k < end {
            let (partition, offset) = self.locate(k);
            let take = (row - k % row).min(end - k);
            out.push(Piece {
                partition,
                offset,
                len: take,
            });
            k += take;
        }
        out
    }

    /// Contiguous-run description `[(partition, offset, len)]` of a byte
    /// range, for reading it back.
    pub fn runs(&self, start: u64, len: u64) -> Vec<(u32, u64, u64)> {
        self.pieces(start, len)
            .into_iter()
            .map(|p| (p.partition, p.offset, p.len))
            .collect()
    }
}

/// The legs that move `len` bytes from `src` tensor byte `src_start` to `dst`
/// tensor byte `dst_start`: the two row tilings are cut at every boundary of
/// either, then vertically adjacent pieces of equal shape merge into one
/// rectangle. Aligned transfers between tensors of equal row length give one
/// leg per side.
pub fn pair_legs(
    src: &Layout,
    src_start: u64,
    dst: &Layout,
    dst_start: u64,
    len: u64,
    reduce: Option<(Dtype, ReduceOp)>,
) -> Vec<Leg> {
    let sp = src.pieces(src_start, len);
    let dp = dst.pieces(dst_start, len);
    let mut legs: Vec<Leg> = Vec::new();
    let (mut i, mut j) = (0usize, 0usize);
    let (mut si, mut dj) = (0u64, 0u64); // bytes consumed of sp[i] / dp[j]
    while i < sp.len() && j < dp.len() {
        let (s, d) = (sp[i], dp[j]);
        let take = (s.len - si).min(d.len - dj);
        let piece = Leg {
            src: Region {
                core: src.core,
                partition: s.partition,
                partitions: 1,
                offset: s.offset + si,
                bytes: take,
            },
            dst: Region {
                core: dst.core,
                partition: d.partition,
                partitions: 1,
                offset: d.offset + dj,
                bytes: take,
            },
            reduce,
        };
        match legs.last_mut() {
            Some(l)
                if l.src.bytes == take
                    && l.src.offset == piece.src.offset
                    && l.dst.offset == piece.dst.offset
                    && l.src.partition + l.src.partitions == piece.src.partition
                    && l.dst.partition + l.dst.partitions == piece.dst.partition =>
            {
                l.src.partitions += 1;
                l.dst.partitions += 1;
            }
            _ => legs.push(piece),
        }
        si += take;
        dj += take;
        if si == s.len {
            i += 1;
            si = 0;
        }
        if dj == d.len {
            j += 1;
            dj = 0;
        }
    }
    legs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aligned_block_is_one_rectangle() {
        let a = Layout {
            core: 0,
            partition: 0,
            partitions: 128,
            offset: 0,
            size: 128 * 64,
        };
        let b = Layout {
            core: 1,
            partition: 0,
            partitions: 128,
            offset: 4096,
            size: 128 * 64,
        };
        let legs = pair_legs(&a, 16 * 64, &b, 16 * 64, 16 * 64, None);
        assert_eq!(legs.len(), 1);
        assert_eq!(
            legs[0].src,
            Region {
                core: 0,
                partition: 16,
                partitions: 16,
                offset: 0,
                bytes: 64
            }
        );
        assert_eq!(
            legs[0].dst,
            Region {
                core: 1,
                partition: 16,
                partitions: 16,
                offset: 4096,
                bytes: 64
            }
        );
    }

    #[test]
    fn misaligned_range_is_cut_at_both_tilings_and_covers_every_byte_once() {
        let a = Layout {
            core: 0,
            partition: 3,
            partitions: 4,
            offset: 10,
            size: 4 * 24,
        };
        let b = Layout {
            core: 1,
            partition: 0,
            partitions: 6,
            offset: 0,
            size: 6 * 16,
        };
        let legs = pair_legs(&a, 5, &b, 7, 60, None);
        // Walk tensor bytes and check each maps to the right destination.
        let mut seen = Vec::new();
        for l in &legs {
            for p in 0..l.src.partitions {
                for x in 0..l.src.bytes {
                    let s = ((l.src.partition + p - 3) as u64) * 24 + (l.src.offset + x - 10);
                    let d = ((l.dst.partition + p) as u64) * 16 + (l.dst.offset + x);
                    seen.push((s, d));
                }
            }
        }
        seen.sort();
        assert_eq!(seen.len(), 60);
        for (n, (s, d)) in seen.iter().enumerate() {
            assert_eq!(*s, 5 + n as u64);
            assert_eq!(*d, 7 + n as u64);
        }
    }
}
