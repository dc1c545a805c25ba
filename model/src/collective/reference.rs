//! Plain reference results of the collectives, written independently of the
//! ring executor and of the SIMD kernels: typed scalar loops (`half` for the
//! 16-bit floats) that fold the contributions of each block in the ring's
//! order, so floating-point results compare bit for bit.
//!
//! Reduction order: block `b` is owned by the rank at ring index `k`; its
//! result is `op(…op(op(x[k+1], x[k+2]), x[k+3])…, x[k+n])` (ring indices
//! mod n): the partial result starts at the owner's successor and travels
//! once around the ring, each rank folding its own block into the partial it
//! received (`op(incoming, own)`).

use half::{bf16, f16};

use super::{Algorithm, CollectiveOp, Ring};
use crate::datapath::reduce::{Dtype, ReduceOp};

/// Bytes a rank must hold after the collective: `bytes` at byte `offset` of
/// its output buffer (the input buffer for in-place ops).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expected {
    /// Group position of the rank.
    pub pos: usize,
    /// Byte offset in the buffer.
    pub offset: u64,
    /// Expected bytes.
    pub bytes: Vec<u8>,
}

fn max_by<T: PartialOrd + Copy>(a: T, b: T) -> T {
    if a > b {
        a
    } else {
        b
    }
}

fn min_by<T: PartialOrd + Copy>(a: T, b: T) -> T {
    if a < b {
        a
    } else {
        b
    }
}

/// `acc = op(acc, x)` element by element (acc is the travelling partial).
pub fn fold_into(dtype: Dtype, op: ReduceOp, acc: &mut [u8], x: &[u8]) {
    match dtype {
        Dtype::Fp32 => {
            for (a, b) in acc.chunks_exact_mut(4).zip(x.chunks_exact(4)) {
                let p = f32::from_le_bytes([a[0], a[1], a[2], a[3]]);
                let q = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                let r = match op {
                    ReduceOp::Sum => p + q,
                    ReduceOp::Max => max_by(p, q),
                    ReduceOp::Min => min_by(p, q),
                };
                a.copy_from_slice(&r.to_le_bytes());
            }
        }
        Dtype::Int32 => {
            for (a, b) in acc.chunks_exact_mut(4).zip(x.chunks_exact(4)) {
                let p = i32::from_le_bytes([a[0], a[1], a[2], a[3]]);
                let q = i32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                let r = match op {
                    ReduceOp::Sum => p.wrapping_add(q),
                    ReduceOp::Max => p.max(q),
                    ReduceOp::Min => p.min(q),
                };
                a.copy_from_slice(&r.to_le_bytes());
            }
        }
        Dtype::Bf16 => {
            for (a, b) in acc.chunks_exact_mut(2).zip(x.chunks_exact(2)) {
                let p = bf16::from_le_bytes([a[0], a[1]]);
                let q = bf16::from_le_bytes([b[0], b[1]]);
                let r = match op {
                    ReduceOp::Sum => bf16::from_f32(p.to_f32() + q.to_f32()),
                    ReduceOp::Max => max_by(p, q),
                    ReduceOp::Min => min_by(p, q),
                };
                a.copy_from_slice(&r.to_le_bytes());
            }
        }
        Dtype::Fp16 => {
            for (a, b) in acc.chunks_exact_mut(2).zip(x.chunks_exact(2)) {
                let p = f16::from_le_bytes([a[0], a[1]]);
                let q = f16::from_le_bytes([b[0], b[1]]);
                let r = match op {
                    ReduceOp::Sum => f16::from_f32(p.to_f32() + q.to_f32()),
                    ReduceOp::Max => max_by(p, q),
                    ReduceOp::Min => min_by(p, q),
                };
                a.copy_from_slice(&r.to_le_bytes());
            }
        }
    }
}

/// The reduced value of block `block` (a group position) of `inputs`
/// (indexed by group position), in the ring order of `ring`.
pub fn reduced_block(
    inputs: &[Vec<u8>],
    ring: &Ring,
    block: usize,
    dtype: Dtype,
    op: ReduceOp,
) -> Vec<u8> {
    let n = inputs.len();
    let bs = inputs[0].len() / n;
    let range = block * bs..(block + 1) * bs;
    let k = ring.index_of(block);
    let mut acc = inputs[ring.pos((k + 1) % n)][range.clone()].to_vec();
    for step in 2..=n {
        let pos = ring.pos((k + step) % n);
        fold_into(dtype, op, &mut acc, &inputs[pos][range.clone()]);
    }
    acc
}

/// `op(incoming, acc)` into `acc`: the receive-side fold of a leg.
fn fold_incoming(dtype: Dtype, op: ReduceOp, acc: &mut Vec<u8>, incoming: &[u8]) {
    let mut r = incoming.to_vec();
    fold_into(dtype, op, &mut r, acc);
    *acc = r;
}

/// The reduced value of block `block` (a group position) in the order of
/// `algo`. Ring: [`reduced_block`]. With `x[j]` the block's bytes of ring
/// index j and k the block's ring index:
///
/// - mesh: values v_i = x[k + i] (i = 0..n, mod n); at h = 1, 2, 4, …
///   v_i = op(v_{i+h}, v_i) for i a multiple of 2h with i + h < n; result v_0.
/// - rdh (recursive halving, n a power of two): P(r, n) = `x[r]` and
///   P(r, d) = op(P(r ^ d, 2d), P(r, 2d)); result P(k, 1).
pub fn reduced_block_algo(
    inputs: &[Vec<u8>],
    ring: &Ring,
    block: usize,
    dtype: Dtype,
    op: ReduceOp,
    algo: Algorithm,
) -> Vec<u8> {
    let n = inputs.len();
    let bs = inputs[0].len() / n;
    let range = block * bs..(block + 1) * bs;
    let k = ring.index_of(block);
    let x = |j: usize| inputs[ring.pos(j % n)][range.clone()].to_vec();
    match algo {
        Algorithm::Ring => reduced_block(inputs, ring, block, dtype, op),
        Algorithm::Mesh => {
            let mut v: Vec<Vec<u8>> = (0..n).map(|i| x(k + i)).collect();
            let mut h = 1;
            while h < n {
                let mut i = 0;
                while i + h < n {
                    let inc = v[i + h].clone();
                    fold_incoming(dtype, op, &mut v[i], &inc);
                    i += 2 * h;
                }
                h *= 2;
            }
            v.swap_remove(0)
        }
        Algorithm::Rdh => {
            fn p(
                r: usize,
                d: usize,
                n: usize,
                x: &dyn Fn(usize) -> Vec<u8>,
                dtype: Dtype,
                op: ReduceOp,
            ) -> Vec<u8> {
                if d >= n {
                    return x(r);
                }
                let mut own = p(r, 2 * d, n, x, dtype, op);
                let inc = p(r ^ d, 2 * d, n, x, dtype, op);
                fold_incoming(dtype, op, &mut own, &inc);
                own
            }
            p(k, 1, n, &x, dtype, op)
        }
    }
}

/// What each rank must hold after `op` over `inputs` (one buffer per group
/// position, equal sizes). `reduce` is needed for the reducing ops.
pub fn expected(
    op: CollectiveOp,
    inputs: &[Vec<u8>],
    ring: &Ring,
    reduce: Option<(Dtype, ReduceOp)>,
) -> Vec<Expected> {
    expected_algo(op, inputs, ring, reduce, Algorithm::Ring)
}

/// [`expected`] for `op` run with `algo` (the reduction order differs, the
/// placement of the results does not).
pub fn expected_algo(
    op: CollectiveOp,
    inputs: &[Vec<u8>],
    ring: &Ring,
    reduce: Option<(Dtype, ReduceOp)>,
    algo: Algorithm,
) -> Vec<Expected> {
    let n = inputs.len();
    let size = inputs.first().map_or(0, |b| b.len());
    let bs = size / n.max(1);
    let mut out = Vec::new();
    match op {
        CollectiveOp::AllGather => {
            let mut full = Vec::with_capacity(size);
            for (b, inp) in inputs.iter().enumerate() {
                full.extend_from_slice(&inp[b * bs..(b + 1) * bs]);
            }
            for pos in 0..n {
                out.push(Expected {
                    pos,
                    offset: 0,
                    bytes: full.clone(),
                });
            }
        }
        CollectiveOp::ReduceScatter | CollectiveOp::AllReduce => {
            let (dtype, rop) = reduce.unwrap_or((Dtype::Int32, ReduceOp::Sum));
            if n == 1 {
                out.push(Expected {
                    pos: 0,
                    offset: 0,
                    bytes: inputs[0].clone(),
                });
                return out;
            }
            let blocks: Vec<Vec<u8>> = (0..n)
                .map(|b| reduced_block_algo(inputs, ring, b, dtype, rop, algo))
                .collect();
            for pos in 0..n {
                if op == CollectiveOp::AllReduce {
                    out.push(Expected {
                        pos,
                        offset: 0,
                        bytes: blocks.concat(),
                    });
                } else {
                    out.push(Expected {
                        pos,
                        offset: (pos * bs) as u64,
                        bytes: blocks[pos].clone(),
                    });
                }
            }
        }
        CollectiveOp::Permute => {
            // Ring index k's input lands in ring index k+1's output.
            for k in 0..n {
                if n < 2 {
                    break;
                }
                let to = ring.pos((k + 1) % n);
                out.push(Expected {
                    pos: to,
                    offset: 0,
                    bytes: inputs[ring.pos(k)].clone(),
                });
            }
        }
        CollectiveOp::SendRecv => {
            for k in 0..n - n % 2 {
                let to = ring.pos(k ^ 1);
                out.push(Expected {
                    pos: to,
                    offset: 0,
                    bytes: inputs[ring.pos(k)].clone(),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mesh_and_rdh_orders_by_hand() {
        // Four ranks, one fp32 per block; block 0 (ring index 0).
        let vals = [1.0e8f32, 1.0, -1.0e8, 1.0];
        let inputs: Vec<Vec<u8>> = vals.iter().map(|v| v.to_le_bytes().repeat(4)).collect();
        let ring = Ring::new(4, 0);
        let f = |b: &[u8]| f32::from_le_bytes(b[..4].try_into().unwrap());
        let (a, b, c, d) = (vals[0], vals[1], vals[2], vals[3]);
        // Mesh: h = 1: v0 = v1 + v0, v2 = v3 + v2; h = 2: v0 = v2 + v0.
        let m = reduced_block_algo(
            &inputs,
            &ring,
            0,
            Dtype::Fp32,
            ReduceOp::Sum,
            Algorithm::Mesh,
        );
        assert_eq!(f(&m), (d + c) + (b + a));
        // Rdh: P(0,1) = P(1,2) + P(0,2); P(0,2) = P(2,4) + P(0,4) = c + a;
        // P(1,2) = P(3,4) + P(1,4) = d + b.
        let r = reduced_block_algo(
            &inputs,
            &ring,
            0,
            Dtype::Fp32,
            ReduceOp::Sum,
            Algorithm::Rdh,
        );
        assert_eq!(f(&r), (d + b) + (c + a));
        // Mesh and rdh give different sums here.
        let g = reduced_block(&inputs, &ring, 0, Dtype::Fp32, ReduceOp::Sum);
        assert_eq!(f(&g), ((b + c) + d) + a);
        assert_ne!(f(&m), f(&r));
    }

    #[test]
    fn fp32_sum_order_matters_and_follows_the_ring() {
        // 1e8 + 1 − 1e8 depends on the order; pick inputs where it shows.
        let vals = [1.0e8f32, 1.0, -1.0e8, 1.0];
        let inputs: Vec<Vec<u8>> = vals.iter().map(|v| v.to_le_bytes().repeat(4)).collect();
        let ring = Ring::new(4, 0);
        let b0 = reduced_block(&inputs, &ring, 0, Dtype::Fp32, ReduceOp::Sum);
        // Block 0 owner is index 0: ((x1 + x2) + x3) + x0 = ((1 − 1e8) + 1) + 1e8.
        let want = ((1.0f32 + -1.0e8) + 1.0) + 1.0e8;
        assert_eq!(f32::from_le_bytes(b0[..4].try_into().unwrap()), want);
        let b1 = reduced_block(&inputs, &ring, 1, Dtype::Fp32, ReduceOp::Sum);
        let want1 = ((-1.0e8f32 + 1.0) + 1.0e8) + 1.0;
        assert_eq!(f32::from_le_bytes(b1[..4].try_into().unwrap()), want1);
    }
}
