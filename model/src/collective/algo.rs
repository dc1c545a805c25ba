//! The collective algorithms besides the ring, and the size rule that picks
//! one (public runtime docs, aws-neuron-sdk
//! `neuron-runtime/explore/intranode-collective-comm.rst`; PUBLIC-FACTS §7):
//!
//! - **mesh**: every rank fans out the same send/recv leg to its peers in
//!   one step (seed 000 §6: "a mesh/kangaring step fans out the same
//!   primitive to up to three peer semaphores"), each peer's completion on
//!   its own semaphore (`lower::system_target`); the fan-out order starts
//!   with the peers the host peer-node helper names ([`mesh_peers`]).
//! - **rdh**: recursive halving (reduce-scatter, distances n/2 … 1) and
//!   recursive doubling (all-gather, distances 1 … n/2): log2(n) steps each,
//!   power-of-two rank counts only ([`super::CollectiveError::NotPowerOfTwo`]).
//! - **auto**: mesh below [`AUTO_MESH_BELOW`], rdh below [`AUTO_RDH_BELOW`],
//!   ring above (the runtime runs KangaRing there; this model has none,
//!   docs/decisions.md). A power-of-two rule that rdh cannot meet falls back
//!   to the ring.
//!
//! Everything here is in ring-index space, as [`super::schedule`]: block `k`
//! belongs to ring index `k`; [`super::Ring`] maps indices to positions.

use serde::Serialize;

use super::CollectiveOp;
use crate::system::cayman_get_p2p_pod_peer_node;
use crate::system::peer::POD_NODE_OFFSET;

/// `auto` runs mesh for sizes below this many bytes ("< 1MB", runtime docs).
pub const AUTO_MESH_BELOW: u64 = 1 << 20;
/// `auto` runs rdh for sizes below this many bytes ("1-56MB", runtime docs);
/// from here up the ring (the runtime's KangaRing range).
pub const AUTO_RDH_BELOW: u64 = 56 << 20;

/// An algorithm that runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Algorithm {
    /// The ring of PUBLIC-FACTS §5 (n−1 steps per phase).
    Ring,
    /// One fan-out step per phase (plus the local fold of a reducing phase).
    Mesh,
    /// Recursive halving / doubling, log2(n) steps per phase.
    Rdh,
}

impl Algorithm {
    /// Every algorithm.
    pub const ALL: [Algorithm; 3] = [Algorithm::Ring, Algorithm::Mesh, Algorithm::Rdh];

    /// The name nccom-test prints in its `algorithm` column.
    pub const fn name(self) -> &'static str {
        match self {
            Algorithm::Ring => "ring",
            Algorithm::Mesh => "mesh",
            Algorithm::Rdh => "rdh",
        }
    }
}

impl core::fmt::Display for Algorithm {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// What `--algorithm` asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Choice {
    /// Always this algorithm.
    Fixed(Algorithm),
    /// By size ([`choose`]).
    Auto,
}

impl Choice {
    /// Parse `ring`, `mesh`, `rdh` or `auto`.
    pub fn parse(s: &str) -> Option<Choice> {
        match s.to_ascii_lowercase().as_str() {
            "auto" => Some(Choice::Auto),
            t => Algorithm::ALL
                .into_iter()
                .find(|a| a.name() == t)
                .map(Choice::Fixed),
        }
    }

    /// `ring`, `mesh`, `rdh` or `auto`.
    pub const fn name(self) -> &'static str {
        match self {
            Choice::Fixed(a) => a.name(),
            Choice::Auto => "auto",
        }
    }
}

/// The algorithm `auto` runs `op` of `size` bytes (as nccom-test sizes it)
/// on `n` ranks with: the runtime docs' ranges for the blocked ops; permute
/// and sendrecv are one step whatever the algorithm and stay on the ring.
pub fn choose(op: CollectiveOp, n: usize, size: u64) -> Algorithm {
    if !op.blocked() {
        Algorithm::Ring
    } else if size < AUTO_MESH_BELOW {
        Algorithm::Mesh
    } else if size < AUTO_RDH_BELOW && n.is_power_of_two() {
        Algorithm::Rdh
    } else {
        Algorithm::Ring
    }
}

/// Where a transfer reads or writes on a rank: its data buffer, or slot `i`
/// of its scratch area (the mesh reduce-scatter's receive slots).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Place {
    /// The (in-place) buffer.
    Data,
    /// Scratch slot `i` (input-shaped, [`super::Member::slot`]).
    Slot(usize),
}

/// One transfer of a step: blocks `block .. block + blocks` (ring-index
/// blocks) from `src` on index `from` to `dst` on index `to`, folded into
/// the destination when `reduce` (`dst = op(incoming, dst)`). `from == to`
/// is a local fold on one core.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Xfer {
    /// Sending ring index.
    pub from: usize,
    /// Receiving ring index.
    pub to: usize,
    /// Source buffer on `from`.
    pub src: Place,
    /// Destination buffer on `to`.
    pub dst: Place,
    /// First block.
    pub block: usize,
    /// Consecutive blocks.
    pub blocks: usize,
    /// Fold on receive.
    pub reduce: bool,
}

/// One step: transfers that run concurrently.
pub type XStep = Vec<Xfer>;

/// The order in which ring index `r` of `n` fans out to its peers: first the
/// three peers the host's `cayman_get_p2p_pod_peer_node` names for direction
/// codes 1, 2, 3 (the node `r >> 1` xor the code, same position in the core
/// pair, seed 000 §4b, `system::peer`), then the pair partner `r ^ 1`, then
/// the others by xor distance; indices outside the group are skipped, and
/// for a group that is not a power of two the rest follow in index order.
pub fn mesh_peers(r: usize, n: usize) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::with_capacity(n.saturating_sub(1));
    let push = |p: usize, out: &mut Vec<usize>| {
        if p < n && p != r && !out.contains(&p) {
            out.push(p);
        }
    };
    for dir in 1..=3u8 {
        if let Ok(node) = cayman_get_p2p_pod_peer_node(r as u32, dir) {
            let p = ((node - POD_NODE_OFFSET) as usize) << 1 | (r & 1);
            push(p, &mut out);
        }
    }
    push(r ^ 1, &mut out);
    for d in 1..n.next_power_of_two() {
        push(r ^ d, &mut out);
    }
    for p in 0..n {
        push(p, &mut out);
    }
    out
}

/// Mesh all-gather: one step; every index sends its block to every peer.
pub fn mesh_all_gather(n: usize) -> Vec<XStep> {
    if n < 2 {
        return Vec::new();
    }
    vec![(0..n)
        .flat_map(|r| {
            mesh_peers(r, n).into_iter().map(move |p| Xfer {
                from: r,
                to: p,
                src: Place::Data,
                dst: Place::Data,
                block: r,
                blocks: 1,
                reduce: false,
            })
        })
        .collect()]
}

/// The place of value `i` of the mesh fold on the block's owner: value 0 is
/// its own block, value i ≥ 1 (the block of index owner + i) scratch slot i − 1.
const fn mesh_value(i: usize) -> Place {
    if i == 0 {
        Place::Data
    } else {
        Place::Slot(i - 1)
    }
}

/// Mesh reduce-scatter: one fan-out step, every index sending its copy of
/// block p to index p's scratch slot ((r − p) mod n) − 1, then ⌈log2 n⌉
/// local fold steps on every owner: at distance h = 1, 2, 4, … value i
/// (i a multiple of 2h, i + h < n) becomes op(value i + h, value i); value 0,
/// the owner's block, ends fully reduced.
pub fn mesh_reduce_scatter(n: usize) -> Vec<XStep> {
    if n < 2 {
        return Vec::new();
    }
    let mut steps = vec![(0..n)
        .flat_map(|r| {
            mesh_peers(r, n).into_iter().map(move |p| Xfer {
                from: r,
                to: p,
                src: Place::Data,
                dst: mesh_value((r + n - p) % n),
                block: p,
                blocks: 1,
                reduce: false,
            })
        })
        .collect::<XStep>()];
    let mut h = 1;
    while h < n {
        let mut step = Vec::new();
        for k in 0..n {
            for i in (0..n).step_by(2 * h).filter(|i| i + h < n) {
                step.push(Xfer {
                    from: k,
                    to: k,
                    src: mesh_value(i + h),
                    dst: mesh_value(i),
                    block: k,
                    blocks: 1,
                    reduce: true,
                });
            }
        }
        steps.push(step);
        h *= 2;
    }
    steps
}

/// Rdh reduce-scatter (recursive halving): at step s the distance is
/// d = n / 2^(s+1); index r sends the half of its current range that its
/// partner r ^ d keeps (blocks (r ^ d) & !(d − 1) .. + d), folded there, and
/// keeps the half holding block r. n must be a power of two.
pub fn rdh_reduce_scatter(n: usize) -> Vec<XStep> {
    let mut steps = Vec::new();
    let mut d = n / 2;
    while d >= 1 {
        steps.push(
            (0..n)
                .map(|r| Xfer {
                    from: r,
                    to: r ^ d,
                    src: Place::Data,
                    dst: Place::Data,
                    block: (r ^ d) & !(d - 1),
                    blocks: d,
                    reduce: true,
                })
                .collect(),
        );
        d /= 2;
    }
    steps
}

/// Rdh all-gather (recursive doubling): at step s the distance is d = 2^s;
/// index r sends the d blocks it holds (r & !(d − 1) .. + d) to r ^ d.
/// n must be a power of two.
pub fn rdh_all_gather(n: usize) -> Vec<XStep> {
    let mut steps = Vec::new();
    let mut d = 1;
    while d < n {
        steps.push(
            (0..n)
                .map(|r| Xfer {
                    from: r,
                    to: r ^ d,
                    src: Place::Data,
                    dst: Place::Data,
                    block: r & !(d - 1),
                    blocks: d,
                    reduce: false,
                })
                .collect(),
        );
        d *= 2;
    }
    steps
}

/// The steps of a blocked `op` under `algo` (mesh or rdh; the ring's steps
/// come from [`super::schedule`]). All-reduce is the reduce-scatter then the
/// all-gather of the same algorithm.
pub fn steps(op: CollectiveOp, algo: Algorithm, n: usize) -> Vec<XStep> {
    type Phase = fn(usize) -> Vec<XStep>;
    let (rs, ag): (Phase, Phase) = match algo {
        Algorithm::Rdh => (rdh_reduce_scatter, rdh_all_gather),
        _ => (mesh_reduce_scatter, mesh_all_gather),
    };
    match op {
        CollectiveOp::AllGather => ag(n),
        CollectiveOp::ReduceScatter => rs(n),
        CollectiveOp::AllReduce => {
            let mut v = rs(n);
            v.extend(ag(n));
            v
        }
        CollectiveOp::Permute | CollectiveOp::SendRecv => Vec::new(),
    }
}

/// Scratch slots a rank needs for `op` under `algo` (mesh reduce-scatter and
/// all-reduce: one per peer).
pub const fn scratch_slots(op: CollectiveOp, algo: Algorithm, n: usize) -> usize {
    if matches!(algo, Algorithm::Mesh) && op.reduces() {
        n.saturating_sub(1)
    } else {
        0
    }
}

#[cfg(test)]
// The loops index ranks and blocks of the simulated state by number, as the
// schedules name them.
#[allow(clippy::needless_range_loop)]
mod tests {
    use super::*;

    #[test]
    fn auto_follows_the_runtime_docs_ranges() {
        let ag = CollectiveOp::AllGather;
        assert_eq!(choose(ag, 8, 1024), Algorithm::Mesh);
        assert_eq!(choose(ag, 8, (1 << 20) - 1), Algorithm::Mesh);
        assert_eq!(choose(ag, 8, 1 << 20), Algorithm::Rdh);
        assert_eq!(choose(ag, 8, (56 << 20) - 1), Algorithm::Rdh);
        assert_eq!(choose(ag, 8, 56 << 20), Algorithm::Ring);
        // rdh needs a power of two: 6 ranks fall back to the ring.
        assert_eq!(choose(ag, 6, 4 << 20), Algorithm::Ring);
        assert_eq!(choose(CollectiveOp::Permute, 8, 1024), Algorithm::Ring);
        assert_eq!(Choice::parse("RDH"), Some(Choice::Fixed(Algorithm::Rdh)));
        assert_eq!(Choice::parse("auto"), Some(Choice::Auto));
        assert_eq!(Choice::parse("tree"), None);
    }

    #[test]
    fn mesh_peers_start_with_the_pod_peer_helper_seed000_s4b() {
        // Core 5: node 2; 2^1 = 3 -> core 7, 2^2 = 0 -> core 1, 2^3 = 1 -> core 3
        // (same position in the pair), then the pair partner 4.
        assert_eq!(&mesh_peers(5, 8)[..4], &[7, 1, 3, 4]);
        for n in [2usize, 3, 6, 8, 32] {
            for r in 0..n {
                let mut p = mesh_peers(r, n);
                p.sort_unstable();
                let want: Vec<usize> = (0..n).filter(|&x| x != r).collect();
                assert_eq!(p, want, "n={n} r={r}");
            }
        }
    }

    /// Walk a schedule on sets of contributions: every index ends with the
    /// blocks (all-gather) or the contributions (reduce-scatter) it must.
    fn simulate(n: usize, steps: &[XStep]) -> Vec<Vec<Vec<u64>>> {
        // state[rank][place][block] = bitmask of contributions; place 0 =
        // data, 1.. = slots.
        let mut st = vec![vec![vec![0u64; n]; n]; n];
        for (r, s) in st.iter_mut().enumerate() {
            s[0].fill(1 << r);
        }
        let pl = |p: Place| match p {
            Place::Data => 0,
            Place::Slot(i) => i + 1,
        };
        for step in steps {
            let before = st.clone();
            for x in step {
                for b in x.block..x.block + x.blocks {
                    let v = before[x.from][pl(x.src)][b];
                    let d = &mut st[x.to][pl(x.dst)][b];
                    if x.reduce {
                        assert_eq!(*d & v, 0, "a contribution is folded twice");
                        *d |= v;
                    } else {
                        *d = v;
                    }
                }
            }
        }
        st
    }

    #[test]
    fn rdh_takes_log2_steps_and_every_rank_ends_complete() {
        for n in [2usize, 4, 8, 16, 32] {
            let all = (1u64 << n) - 1;
            let rs = rdh_reduce_scatter(n);
            assert_eq!(rs.len(), n.trailing_zeros() as usize);
            let st = simulate(n, &rs);
            for r in 0..n {
                assert_eq!(st[r][0][r], all, "n={n}: block {r} fully reduced on {r}");
            }
            let ag = rdh_all_gather(n);
            assert_eq!(ag.len(), n.trailing_zeros() as usize);
            // Distances double: 1, 2, 4, …
            for (s, step) in ag.iter().enumerate() {
                assert!(step.iter().all(|x| x.to == x.from ^ (1 << s)));
            }
            let st = simulate(n, &ag);
            for r in 0..n {
                for b in 0..n {
                    assert_eq!(st[r][0][b], 1 << b, "n={n}: rank {r} block {b}");
                }
            }
        }
    }

    #[test]
    fn mesh_is_one_fan_out_step_and_a_local_fold_tree() {
        for n in [2usize, 3, 5, 8, 32] {
            let ag = mesh_all_gather(n);
            assert_eq!(ag.len(), 1);
            assert_eq!(ag[0].len(), n * (n - 1));
            let st = simulate(n, &ag);
            for r in 0..n {
                for b in 0..n {
                    assert_eq!(st[r][0][b], 1 << b);
                }
            }
            let rs = mesh_reduce_scatter(n);
            // One remote step, then only local folds: ceil(log2 n) of them.
            assert_eq!(
                rs.len(),
                1 + n.next_power_of_two().trailing_zeros() as usize
            );
            assert!(rs[0].iter().all(|x| x.from != x.to && !x.reduce));
            assert!(rs[1..].iter().flatten().all(|x| x.from == x.to && x.reduce));
            let st = simulate(n, &rs);
            for r in 0..n {
                assert_eq!(st[r][0][r], (1u64 << n) - 1, "n={n} r={r}");
            }
        }
    }
}
