//! Ring schedules (PUBLIC-FACTS §5, after NVIDIA/nccl src/device/all_gather.h,
//! reduce_scatter.h, all_reduce.h): who sends which block at which step.
//!
//! Everything here is in *ring index* space: ring index `j` sends to `j + 1`
//! and receives from `j − 1` (mod n); "step s" counts sends; block `k` is the
//! block owned by ring index `k` (its own contribution for all-gather, its
//! result for reduce-scatter). [`super::Ring`] maps ring indices to group
//! positions for the two channels.

use serde::Serialize;

use super::CollectiveOp;

/// What one ring index does in one step: send block `send` to the next
/// index; the next index receives it into its block of the same number and,
/// when `reduce` is set, folds it into its own data (`recv_reduce`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Send {
    /// Sending ring index.
    pub from: usize,
    /// Receiving ring index (`from + 1 mod n`, or the pair partner for sendrecv).
    pub to: usize,
    /// Block sent (and received into). `None`: the whole buffer (permute, sendrecv).
    pub block: Option<usize>,
    /// The receive folds into the destination (reducing step).
    pub reduce: bool,
}

/// One step: the sends that run concurrently.
pub type Step = Vec<Send>;

const fn md(x: i64, n: usize) -> usize {
    x.rem_euclid(n as i64) as usize
}

/// All-gather: at step s (0..n−1) index r sends block (r−s) mod n; the
/// receiver (r+1) gets block ((r+1)−s−1) = (r−s). n−1 steps.
pub fn all_gather(n: usize) -> Vec<Step> {
    (0..n.saturating_sub(1))
        .map(|s| {
            (0..n)
                .map(|r| Send {
                    from: r,
                    to: (r + 1) % n,
                    block: Some(md(r as i64 - s as i64, n)),
                    reduce: false,
                })
                .collect()
        })
        .collect()
}

/// Reduce-scatter: step 0 sends block (r−1); at steps j = 1..n−2 index r has
/// received and reduced block (r−j−1) and sends it; the last receive
/// reduces block r. Every send is a reducing receive on the other side. n−1 steps.
pub fn reduce_scatter(n: usize) -> Vec<Step> {
    (0..n.saturating_sub(1))
        .map(|j| {
            (0..n)
                .map(|r| Send {
                    from: r,
                    to: (r + 1) % n,
                    block: Some(md(r as i64 - j as i64 - 1, n)),
                    reduce: true,
                })
                .collect()
        })
        .collect()
}

/// All-reduce: reduce-scatter then all-gather, 2(n−1) steps.
pub fn all_reduce(n: usize) -> Vec<Step> {
    let mut v = reduce_scatter(n);
    v.extend(all_gather(n));
    v
}

/// Permute (ring shift): index r sends its whole input to r+1's output. One step.
pub fn permute(n: usize) -> Vec<Step> {
    if n < 2 {
        return Vec::new();
    }
    vec![(0..n)
        .map(|r| Send {
            from: r,
            to: (r + 1) % n,
            block: None,
            reduce: false,
        })
        .collect()]
}

/// Send/recv: pairs (2k, 2k+1) exchange their inputs into each other's
/// outputs. One step; n must be even.
pub fn sendrecv(n: usize) -> Vec<Step> {
    vec![(0..n - n % 2)
        .map(|r| Send {
            from: r,
            to: r ^ 1,
            block: None,
            reduce: false,
        })
        .collect()]
}

/// The schedule of `op` on `n` ring indices.
pub fn schedule(op: CollectiveOp, n: usize) -> Vec<Step> {
    match op {
        CollectiveOp::AllGather => all_gather(n),
        CollectiveOp::ReduceScatter => reduce_scatter(n),
        CollectiveOp::AllReduce => all_reduce(n),
        CollectiveOp::Permute => permute(n),
        CollectiveOp::SendRecv => sendrecv(n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_gather_step_s_sends_block_r_minus_s_public_facts_5() {
        let n = 5;
        let s = all_gather(n);
        assert_eq!(s.len(), n - 1);
        for (st, step) in s.iter().enumerate() {
            for x in step {
                assert_eq!(x.block, Some((x.from + n * 2 - st) % n));
                assert_eq!(x.to, (x.from + 1) % n);
            }
        }
        // Every index ends up having received every block except its own once.
        for r in 0..n {
            let mut got: Vec<usize> = s
                .iter()
                .flatten()
                .filter(|x| x.to == r)
                .map(|x| x.block.unwrap())
                .collect();
            got.sort();
            let want: Vec<usize> = (0..n).filter(|b| *b != r).collect();
            assert_eq!(got, want);
        }
    }

    #[test]
    fn reduce_scatter_last_receive_is_own_block_public_facts_5() {
        let n = 6;
        let s = reduce_scatter(n);
        assert_eq!(s.len(), n - 1);
        assert!(s[0].iter().all(|x| x.block == Some((x.from + n - 1) % n)));
        for x in s.last().unwrap() {
            assert_eq!(
                x.block,
                Some(x.to),
                "the last receive reduces the receiver's own block"
            );
        }
        // Each send at step j ≥ 1 forwards the block received at step j−1.
        for j in 1..n - 1 {
            for x in &s[j] {
                let prev = s[j - 1].iter().find(|y| y.to == x.from).unwrap();
                assert_eq!(prev.block, x.block);
            }
        }
    }

    /// Seed 000 §6: a ring step is a send/recv — every step of the ring
    /// collectives is one directed leg per ring index, to the next index (each
    /// index sends once and receives once); the reducing steps are exactly the
    /// reduce-scatter phase (recv_reduce), never the all-gather phase.
    #[test]
    fn seed000_s6_every_ring_step_is_one_send_recv_leg_per_rank() {
        for n in [2usize, 3, 5, 8] {
            for (op, steps) in [
                (CollectiveOp::AllGather, all_gather(n)),
                (CollectiveOp::ReduceScatter, reduce_scatter(n)),
                (CollectiveOp::AllReduce, all_reduce(n)),
            ] {
                for (k, st) in steps.iter().enumerate() {
                    let mut from: Vec<usize> = st.iter().map(|x| x.from).collect();
                    let mut to: Vec<usize> = st.iter().map(|x| x.to).collect();
                    from.sort_unstable();
                    to.sort_unstable();
                    assert_eq!(from, (0..n).collect::<Vec<_>>(), "{op:?} n={n} step {k}");
                    assert_eq!(to, (0..n).collect::<Vec<_>>(), "{op:?} n={n} step {k}");
                    assert!(
                        st.iter().all(|x| x.to == (x.from + 1) % n),
                        "{op:?}: to the next index"
                    );
                    let reducing = match op {
                        CollectiveOp::AllGather => false,
                        CollectiveOp::ReduceScatter => true,
                        _ => k < n - 1,
                    };
                    assert!(
                        st.iter().all(|x| x.reduce == reducing),
                        "{op:?} n={n} step {k}"
                    );
                }
            }
        }
    }

    #[test]
    fn all_reduce_is_2n_minus_2_steps() {
        assert_eq!(all_reduce(8).len(), 14);
        assert_eq!(permute(8).len(), 1);
        assert_eq!(sendrecv(8)[0].len(), 8);
    }
}
