//! 0xDB PseudoCurProcessingRankID and 0xDC GID_LOAD at load/run time
//! (seed 002 §4–8).
//!
//! 0xDB: `(group_id, channel_id, iteration_id)` → the rank whose data this
//! rank processes at that iteration, written into `engine_reg[dst_reg]`.
//! Iteration 0 is the rank itself; then the walk goes around the ring
//! (PUBLIC-FACTS §4, NKI `collective_permute_implicit_current_processing_rank_id`).
//! Project-defined directions (docs/collectives.md):
//! - channel 0 walks backwards in group order, `group[(p − i) mod n]`: the
//!   rank whose block arrives at iteration i of the ring that sends to p+1
//!   (all-gather step i−1 delivers block p−i);
//! - channel 1 walks forwards, `group[(p + i) mod n]`: the same on the
//!   reverse ring.
//!
//! The ISA has no static validator for 0xDB (seed 002 §1 QUIRK), so every
//! field is checked here at run time: dst_reg < NUM_REGISTERS of the arch,
//! the group exists and holds this rank, channel < 2, iteration < group size,
//! and stream_id ↔ group_id stays one-to-one.
//!
//! Peer rank → NeuronCore node (seed 000 §4b, the second link of the peer
//! chain): once a 0xDB word or a SENDRECV pair names the peer rank, and the
//! placement names its core, the host resolves the peer's node with the
//! peer-node helpers ([`host_route`]): the direction code `dir` (0 LOCAL,
//! 1 NEXT, 2 PREV, 3 PEER_RMTV — the positional reading, MED, see
//! `system::peer`) for which `cayman_get_p2p_pod_peer_node(core, dir)` is the
//! peer's node `peer_core >> 1` plus the pod offset 8, and whether the peer's
//! SENG is `sengine_get_d2d_peer_nums` of this core's (the d2d peer, seed
//! 001 §7.2, §8). The run report lists one [`HostRoute`] per resolved peer.

use std::collections::BTreeMap;

use super::error::Guard;
use crate::isa::{Arch, CurProcessingRankId};
use crate::system::peer::{
    cayman_get_p2p_pod_peer_node, sengine_get_d2d_peer_nums, HELPER_CORES_PER_DIE, POD_NODE_OFFSET,
};
use crate::system::Neigh;

/// CC rings per group: channel_id is 0 or 1 (seed 002 §5, header verbatim).
pub const CHANNELS: u16 = 2;
/// `NEC_MAX_STREAM_N`: the host's bound `stream_id < NEC_MAX_STREAM_N` (seed
/// 002 §5 names the bound, not its value; project-defined, docs/decisions.md).
pub const NEC_MAX_STREAM_N: u16 = 16;

/// The peer rank of iteration `iteration` on `channel` for the rank at
/// position `pos` of `group`.
pub fn ring_peer(group: &[u32], pos: usize, channel: u16, iteration: u16) -> u32 {
    let n = group.len();
    let i = iteration as usize % n;
    let at = if channel == 0 {
        (pos + n - i) % n
    } else {
        (pos + i) % n
    };
    group[at]
}

/// Resolve one 0xDB word for `rank` against the replica groups (all checks of
/// the module docs except the stream map, see [`StreamMap`]).
pub fn resolve(
    w: &CurProcessingRankId,
    rank: u32,
    groups: &[Vec<u32>],
    arch: Arch,
) -> Result<u32, Guard> {
    if w.dst_reg as u16 >= arch.num_registers() {
        return Err(Guard::DstRegOutOfRange {
            reg: w.dst_reg,
            arch,
            num: arch.num_registers(),
        });
    }
    let g = w.group_id as u32;
    let members = groups.get(g as usize).ok_or(Guard::NoSuchGroup {
        group: g,
        groups: groups.len(),
    })?;
    let pos = members
        .iter()
        .position(|&r| r == rank)
        .ok_or_else(|| Guard::NotInGroup {
            rank,
            group: g,
            members: members.clone(),
        })?;
    if w.channel_id >= CHANNELS {
        return Err(Guard::ChannelOutOfRange {
            channel: w.channel_id,
        });
    }
    if w.iteration_id as usize >= members.len() {
        return Err(Guard::IterationOutOfRange {
            iteration: w.iteration_id,
            group: g,
            n: members.len(),
        });
    }
    Ok(ring_peer(members, pos, w.channel_id, w.iteration_id))
}

/// How the host reaches a peer core (module docs; seed 000 §4b, 001 §7.2).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct HostRoute {
    /// What named the peer: `"0xDB"` (PseudoCurProcessingRankID) or `"SENDRECV"` (a completed pair, TX → RX).
    pub via: &'static str,
    /// This rank (the TX rank of a pair).
    pub rank: u32,
    /// The peer rank.
    pub peer_rank: u32,
    /// This rank's core.
    pub core: usize,
    /// The peer's core.
    pub peer_core: usize,
    /// The direction code whose helper result is the peer's node (`None`:
    /// the peer is outside this core's pod of 4 nodes, or the topology is
    /// not the helpers' 2 dies × 4 cores).
    pub dir: Option<u8>,
    /// The host peer ordinal of `dir` (positional reading, MED).
    pub neigh: Option<Neigh>,
    /// `cayman_get_p2p_pod_peer_node(core, dir)`: the pod node, offset 8 included.
    pub pod_node: Option<u32>,
    /// The peer's SENG is `sengine_get_d2d_peer_nums(core >> 1)`: the d2d peer.
    pub d2d: bool,
}

/// The host's node resolution of `peer_core` from `core` (module docs) on a
/// topology of `dies_per_package` × `cores_per_die`: the direction code is
/// the first `dir` in 0..=3 whose `cayman_get_p2p_pod_peer_node(core, dir)`
/// names the peer's node.
pub fn host_route(
    dies_per_package: usize,
    cores_per_die: usize,
    (rank, core): (u32, usize),
    (peer_rank, peer_core): (u32, usize),
    via: &'static str,
) -> HostRoute {
    let mut r = HostRoute {
        via,
        rank,
        peer_rank,
        core,
        peer_core,
        dir: None,
        neigh: None,
        pod_node: None,
        d2d: false,
    };
    if dies_per_package != 2 || cores_per_die != usize::from(HELPER_CORES_PER_DIE) {
        return r;
    }
    let (Ok(c), Ok(p)) = (u32::try_from(core), u32::try_from(peer_core)) else {
        return r;
    };
    for dir in 0..4u8 {
        let Ok(node) = cayman_get_p2p_pod_peer_node(c, dir) else {
            continue;
        };
        if node - POD_NODE_OFFSET == p >> 1 {
            r.dir = Some(dir);
            r.neigh = Neigh::from_code(dir).ok();
            r.pod_node = Some(node);
            break;
        }
    }
    r.d2d = sengine_get_d2d_peer_nums(c >> 1) == p >> 1;
    r
}

/// The core the host's helper names from `core` in direction `dir` on a
/// topology of `dies_per_package` × `cores_per_die`: the node
/// `cayman_get_p2p_pod_peer_node(core, dir)` minus the pod offset 8, at the
/// same position of its core pair (the binding of `system::peer`). `None`
/// where the helpers do not apply (not 2 dies × 4 cores, or `dir` > 3).
pub fn helper_peer_core(
    dies_per_package: usize,
    cores_per_die: usize,
    core: usize,
    dir: u8,
) -> Option<usize> {
    if dies_per_package != 2 || cores_per_die != usize::from(HELPER_CORES_PER_DIE) {
        return None;
    }
    let c = u32::try_from(core).ok()?;
    let node = cayman_get_p2p_pod_peer_node(c, dir).ok()? - POD_NODE_OFFSET;
    usize::try_from(node * 2 + (c & 1)).ok()
}

/// The core of every rank: `ranks` (default one rank per core), then each
/// `peers` entry in order, decided by [`helper_peer_core`] (module docs).
/// An entry the helper cannot place, or whose helper core differs from an
/// explicit `ranks` core, is a
/// [`ProgramError::Placement`](super::ProgramError::Placement).
pub fn place(p: &super::Program) -> Result<Vec<usize>, super::ProgramError> {
    let mut cores = p.rank_cores();
    let t = &p.topology;
    for (index, e) in p.peers.iter().enumerate() {
        let err = |placed, of_core, helper, rule| super::ProgramError::Placement {
            index,
            rank: e.rank,
            placed,
            of: e.of,
            of_core,
            dir: e.dir,
            helper,
            rule,
        };
        let (Some(&of_core), Some(&mine)) = (cores.get(e.of as usize), cores.get(e.rank as usize))
        else {
            return Err(err(None, 0, None, "both ranks must exist"));
        };
        let helper = helper_peer_core(t.dies_per_package, t.cores_per_die, of_core, e.dir)
            .filter(|&c| c < t.cores());
        let Some(h) = helper else {
            return Err(err(
                None,
                of_core,
                None,
                "the helpers need 2 dies x 4 cores per package and a direction code 0..=3",
            ));
        };
        if p.ranks.is_some() {
            if mine != h {
                return Err(err(
                    Some(mine),
                    of_core,
                    Some(h),
                    "the explicit placement and the helper disagree",
                ));
            }
        } else {
            cores[e.rank as usize] = h;
        }
    }
    Ok(cores)
}

/// The one-to-one stream_id ↔ group_id map (`enc_context::stream_map_get_stream_id`,
/// seed 002 §5). Built from the program's `streams` list or bound on first use.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StreamMap {
    by_stream: BTreeMap<u16, u16>,
    by_group: BTreeMap<u16, u16>,
    /// Fixed: unknown pairs are violations (a `streams` list was given).
    fixed: bool,
}

impl StreamMap {
    /// A map that binds on first use.
    pub fn open() -> Self {
        Self::default()
    }

    /// A fixed map from explicit bindings; fails if they are not one-to-one.
    pub fn fixed(bindings: impl IntoIterator<Item = (u16, u16)>) -> Result<Self, Guard> {
        let mut m = Self::default();
        for (s, g) in bindings {
            m.use_pair(s, g)?;
        }
        m.fixed = true;
        Ok(m)
    }

    /// Check (and, for an open map, record) that `stream` ↔ `group` keeps the map one-to-one.
    pub fn use_pair(&mut self, stream: u16, group: u16) -> Result<(), Guard> {
        if stream >= NEC_MAX_STREAM_N {
            return Err(Guard::StreamIdOutOfRange {
                stream,
                max: NEC_MAX_STREAM_N,
            });
        }
        match (self.by_stream.get(&stream), self.by_group.get(&group)) {
            (Some(&g), _) if g != group => Err(Guard::StreamMap {
                detail: format!("stream_id {stream} is bound to group_id {g}, and is used with group_id {group}"),
            }),
            (_, Some(&s)) if s != stream => Err(Guard::StreamMap {
                detail: format!("group_id {group} is bound to stream_id {s}, and is used with stream_id {stream}"),
            }),
            (Some(_), Some(_)) => Ok(()),
            _ if self.fixed => Err(Guard::StreamMap {
                detail: format!("stream_id {stream} / group_id {group} is not in the program's streams map"),
            }),
            _ => {
                self.by_stream.insert(stream, group);
                self.by_group.insert(group, stream);
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(group_id: u16, channel_id: u16, iteration_id: u16, dst_reg: u8) -> CurProcessingRankId {
        CurProcessingRankId {
            group_id,
            channel_id,
            iteration_id,
            dst_reg,
            ..Default::default()
        }
    }

    fn route(core: usize, peer: usize) -> HostRoute {
        host_route(2, 4, (0, core), (1, peer), "SENDRECV")
    }

    #[test]
    fn seed001_s8_host_route_of_core_3_to_core_7_is_the_d2d_peer_in_direction_2() {
        // §8: TX core 3 → RX core 7 (same package, other die). node = 3 >> 1
        // = 1; direction 2 (^2): node 3 = 7 >> 1, + 8 into the pod = 11; SENG 1 ^ 2 = 3.
        let r = route(3, 7);
        assert_eq!(
            (r.dir, r.neigh, r.pod_node, r.d2d),
            (Some(2), Some(Neigh::Prev), Some(11), true)
        );
        // The seed's 5 ^ 2 = 7 as SENG numbers: SENG 5 = cores 10/11, SENG 7 = cores 14/15.
        let r = route(10, 14);
        assert_eq!(
            (r.dir, r.pod_node, r.d2d),
            (Some(2), Some(7 + 8), true),
            "5 ^ 2 = 7, + 8"
        );
        assert_eq!(route(11, 15).pod_node, Some(15));
    }

    #[test]
    fn seed000_s4b_host_route_uses_node_core_shr_1_xor_dir_plus_8() {
        // The CLI example: core 5, direction 2 → node (5 >> 1) ^ 2 = 0, + 8 = 8:
        // cores 0 and 1 are node 0.
        for peer in [0, 1] {
            let r = route(5, peer);
            assert_eq!(
                (r.dir, r.pod_node, r.d2d),
                (Some(2), Some(8), true),
                "5 → {peer}"
            );
        }
        // Direction 0: the same node (the LNC2 pair, core 4 and core 5).
        let r = route(5, 4);
        assert_eq!(
            (r.dir, r.neigh, r.pod_node, r.d2d),
            (Some(0), Some(Neigh::Local), Some(10), false)
        );
        // Direction 1 (^1): node 2 → node 3 = cores 6/7, pod node 11.
        let r = route(5, 7);
        assert_eq!(
            (r.dir, r.neigh, r.pod_node),
            (Some(1), Some(Neigh::Next), Some(11))
        );
        // Direction 3 (^3): node 2 → node 1 = cores 2/3, pod node 9.
        let r = route(5, 2);
        assert_eq!(
            (r.dir, r.neigh, r.pod_node),
            (Some(3), Some(Neigh::PeerRmtv), Some(9))
        );
        // Outside the pod (another package: node 4): no direction code.
        let r = route(0, 8);
        assert_eq!((r.dir, r.pod_node, r.d2d), (None, None, false));
        // Independent arithmetic over a 2-package system.
        for c in 0..16usize {
            for p in 0..16usize {
                let x = (c >> 1) ^ (p >> 1);
                let r = route(c, p);
                assert_eq!(r.dir, (x < 4).then_some(x as u8), "{c} → {p}");
                assert_eq!(r.pod_node, (x < 4).then_some((p >> 1) as u32 + 8));
                assert_eq!(r.d2d, x == 2);
            }
        }
        // Not the helpers' layout: no resolution.
        assert_eq!(host_route(2, 2, (0, 0), (1, 2), "0xDB").dir, None);
    }

    #[test]
    fn iteration_zero_is_own_rank_then_around_the_ring_public_facts_4() {
        let g = vec![vec![10, 11, 12, 13]];
        for (pos, &rank) in g[0].iter().enumerate() {
            assert_eq!(
                resolve(&w(0, 0, 0, 5), rank, &g, Arch::Cayman).unwrap(),
                rank
            );
            assert_eq!(
                resolve(&w(0, 1, 0, 5), rank, &g, Arch::Cayman).unwrap(),
                rank
            );
            for i in 1..4u16 {
                let back = g[0][(pos + 4 - i as usize) % 4];
                let fwd = g[0][(pos + i as usize) % 4];
                assert_eq!(
                    resolve(&w(0, 0, i, 5), rank, &g, Arch::Cayman).unwrap(),
                    back
                );
                assert_eq!(
                    resolve(&w(0, 1, i, 5), rank, &g, Arch::Cayman).unwrap(),
                    fwd
                );
            }
        }
    }

    #[test]
    fn dst_reg_bound_is_64_on_v2_to_v4_and_192_on_v5_seed_002_2() {
        let g = vec![vec![0, 1]];
        for arch in [Arch::Sunda, Arch::Cayman, Arch::Mariana] {
            assert!(resolve(&w(0, 0, 0, 63), 0, &g, arch).is_ok());
            let e = resolve(&w(0, 0, 0, 64), 0, &g, arch).unwrap_err();
            assert!(e.to_string().contains("NUM_REGISTERS is 64"), "{e}");
        }
        assert!(resolve(&w(0, 0, 0, 191), 0, &g, Arch::Maverick).is_ok());
        let e = resolve(&w(0, 0, 0, 192), 0, &g, Arch::Maverick).unwrap_err();
        assert!(e.to_string().contains("NUM_REGISTERS is 192"), "{e}");
        // 0xDB has no DGE-table exception: 130 is not a general register.
        assert!(resolve(&w(0, 0, 0, 130), 0, &g, Arch::Cayman).is_err());
    }

    #[test]
    fn group_channel_iteration_are_checked_at_run_time_seed_002_1() {
        let g = vec![vec![0, 1, 2]];
        let e = resolve(&w(1, 0, 0, 0), 0, &g, Arch::Cayman).unwrap_err();
        assert!(e.to_string().contains("group_id 1 does not exist"), "{e}");
        let e = resolve(&w(0, 2, 0, 0), 0, &g, Arch::Cayman).unwrap_err();
        assert!(e.to_string().contains("channel_id 2"), "{e}");
        let e = resolve(&w(0, 0, 3, 0), 0, &g, Arch::Cayman).unwrap_err();
        assert!(e.to_string().contains("iteration_id 3"), "{e}");
        let e = resolve(&w(0, 0, 0, 0), 7, &g, Arch::Cayman).unwrap_err();
        assert!(
            e.to_string().contains("rank 7 is not in replica group 0"),
            "{e}"
        );
    }

    #[test]
    fn stream_group_map_must_be_one_to_one_seed_002_5() {
        let mut m = StreamMap::open();
        m.use_pair(0, 0).unwrap();
        m.use_pair(1, 1).unwrap();
        m.use_pair(0, 0).unwrap();
        let e = m.use_pair(0, 1).unwrap_err();
        assert!(
            e.to_string().starts_with(
                "stream_id <-> group_id mapping violation. There should be a one-to-one"
            ),
            "{e}"
        );
        let e = m.use_pair(2, 0).unwrap_err();
        assert!(
            e.to_string().contains("group_id 0 is bound to stream_id 0"),
            "{e}"
        );
        let e = StreamMap::fixed([(0, 0), (1, 0)]).unwrap_err();
        assert!(e.to_string().contains("mapping violation"), "{e}");
        // seed 002 §5: stream_id < NEC_MAX_STREAM_N (value project-defined, 16).
        assert!(StreamMap::open().use_pair(NEC_MAX_STREAM_N - 1, 0).is_ok());
        let e = StreamMap::open().use_pair(NEC_MAX_STREAM_N, 0).unwrap_err();
        assert_eq!(
            e,
            Guard::StreamIdOutOfRange {
                stream: 16,
                max: 16
            }
        );
        assert!(
            e.to_string().contains("stream_id < NEC_MAX_STREAM_N = 16"),
            "{e}"
        );
        assert!(StreamMap::fixed([(16, 1)]).is_err());
        let mut f = StreamMap::fixed([(3, 1)]).unwrap();
        assert!(f.use_pair(3, 1).is_ok());
        assert!(f.use_pair(4, 2).is_err());
    }
}
