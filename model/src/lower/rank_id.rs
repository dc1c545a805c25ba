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

use std::collections::BTreeMap;

use super::error::Guard;
use crate::isa::{Arch, CurProcessingRankId};

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
