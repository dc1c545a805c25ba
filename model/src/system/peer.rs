//! The host's peer-node helpers (seed 000 §4b, seed 001 §7.2, §8) and their
//! binding to the topology.
//!
//! - [`cayman_get_p2p_pod_peer_node`] (libnrt @ 0x25ca90, HIGH/OBSERVED body):
//!   `node = core >> 1` (the LNC2 core pairing), then the direction code picks
//!   the neighbor — 0 same, 1 `^1`, 2 `^2`, 3 `^3` — then `+= 8` into the pod.
//! - [`sengine_get_d2d_peer_nums`] (libnccom, CARRIED): `peer = seng ^ 2`
//!   (the §8 example: 5 ^ 2 = 7).
//!
//! Binding to this model's topology (project-defined, docs/decisions.md): a
//! core's global id is `(package·2 + die)·4 + core_in_die` and a SENG is a
//! pair of cores (PUBLIC-FACTS §3: 2 SENG per die, 2 cores per SENG), so the
//! helper's `node = core >> 1` is the global SENG index `(package·2 + die)·2 +
//! core_in_die / 2`: bit 0 picks the SENG of the die, bit 1 the die. Hence
//! direction 1 is the other SENG of the same die, 2 (= the d2d peer, seng ^ 2)
//! the same SENG position on the other die, 3 both. The helper's `+ 8` is the
//! host's pod-node offset; the model strips it to get the SENG back and keeps
//! the core's position inside its pair. The helpers need the CAYMAN layout
//! (4 cores per die).
//!
//! Direction code ↔ `encd_neigh` ordinal (MED in the seed: "same vocabulary,
//! ordinals not byte-equated"): this model takes the positional reading
//! 0 = LOCAL, 1 = NEXT, 2 = PREV, 3 = PEER_RMTV ([`Neigh`]).

use super::topology::{CoreId, Topology};
use super::SystemError;

/// The `+= 8` pod offset of `cayman_get_p2p_pod_peer_node` (seed 000 §4b).
pub const POD_NODE_OFFSET: u32 = 8;
/// Cores per die the helpers assume (2 SENG × 2 cores, PUBLIC-FACTS §3).
pub const HELPER_CORES_PER_DIE: u8 = 4;

/// The host peer ordinal a direction code names (positional reading, MED).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Neigh {
    /// Code 0: the same node.
    Local = 0,
    /// Code 1: node ^ 1 (the other SENG of the die).
    Next = 1,
    /// Code 2: node ^ 2 (the other die: the d2d peer).
    Prev = 2,
    /// Code 3: node ^ 3.
    PeerRmtv = 3,
}

impl Neigh {
    /// The ordinal of direction code `dir`, or an error naming the rule.
    pub fn from_code(dir: u8) -> Result<Self, SystemError> {
        Ok(match dir {
            0 => Self::Local,
            1 => Self::Next,
            2 => Self::Prev,
            3 => Self::PeerRmtv,
            _ => {
                return Err(SystemError::Topology {
                    field: "dir",
                    value: dir.into(),
                    rule: "a direction code is 0..=3 (0 same, 1 ^1, 2 ^2, 3 ^3)",
                })
            }
        })
    }
}

/// `cayman_get_p2p_pod_peer_node(core, dir)`: `((core >> 1) ^ dir) + 8`
/// (seed 000 §4b: shr $1; xor by the direction code; addl $0x8).
pub fn cayman_get_p2p_pod_peer_node(core: u32, dir: u8) -> Result<u32, SystemError> {
    let d = Neigh::from_code(dir)? as u32;
    Ok(((core >> 1) ^ d) + POD_NODE_OFFSET)
}

/// `sengine_get_d2d_peer_nums(seng)`: `seng ^ 2` (seed 001 §7.2, §8).
pub const fn sengine_get_d2d_peer_nums(seng: u32) -> u32 {
    seng ^ 2
}

impl Topology {
    fn helper_layout(&self) -> Result<(), SystemError> {
        if self.cores_per_die != HELPER_CORES_PER_DIE {
            return Err(SystemError::Topology {
                field: "cores_per_die",
                value: self.cores_per_die.into(),
                rule: "the CAYMAN peer helpers need 4 cores per die (2 SENG x 2 cores)",
            });
        }
        Ok(())
    }

    /// The global SENG index of core `c` (`c >> 1`, module docs).
    pub fn seng_of(&self, c: CoreId) -> Result<u32, SystemError> {
        self.helper_layout()?;
        self.loc(c)?;
        Ok(u32::from(c.0) >> 1)
    }

    /// The core at the same position of the pair of SENG `seng`, as `c`.
    fn core_of_seng(&self, seng: u32, like: CoreId) -> Result<CoreId, SystemError> {
        let id = seng * 2 + u32::from(like.0 & 1);
        let c = CoreId(u16::try_from(id).unwrap_or(u16::MAX));
        self.loc(c)?;
        Ok(c)
    }

    /// The core `cayman_get_p2p_pod_peer_node(c, dir)` names (the pod offset
    /// stripped, the position in the pair kept).
    pub fn pod_peer(&self, c: CoreId, dir: u8) -> Result<CoreId, SystemError> {
        self.helper_layout()?;
        self.loc(c)?;
        let node = cayman_get_p2p_pod_peer_node(c.0.into(), dir)? - POD_NODE_OFFSET;
        self.core_of_seng(node, c)
    }

    /// The d2d peer of core `c`: `sengine_get_d2d_peer_nums(seng_of(c))`, same
    /// position in the pair (core 3 → core 7 in the default topology).
    pub fn d2d_peer(&self, c: CoreId) -> Result<CoreId, SystemError> {
        let s = self.seng_of(c)?;
        self.core_of_seng(sengine_get_d2d_peer_nums(s), c)
    }

    /// The direction code (host peer ordinal) under which `to` is `from`'s pod
    /// peer, if any.
    pub fn neigh_of(&self, from: CoreId, to: CoreId) -> Result<Option<Neigh>, SystemError> {
        for d in 0..4u8 {
            if self.pod_peer(from, d)? == to {
                return Ok(Some(Neigh::from_code(d)?));
            }
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::system::topology::{CoreLoc, FoldMode};

    #[test]
    fn seed000_s4b_pod_peer_node_is_core_shr_1_xor_dir_plus_8() {
        // Independent arithmetic over every direction code: node = core / 2,
        // code 0 same, 1 ^1, 2 ^2, 3 ^3, then + 8.
        for core in 0..64u32 {
            let node = core / 2;
            let want = [node, node ^ 1, node ^ 2, node ^ 3];
            for (dir, w) in want.iter().enumerate() {
                assert_eq!(
                    cayman_get_p2p_pod_peer_node(core, dir as u8).unwrap(),
                    w + 8,
                    "core {core} dir {dir}"
                );
            }
        }
        // The CLI example: core 5, direction 2 → node 2 ^ 2 = 0, + 8 = 8.
        assert_eq!(cayman_get_p2p_pod_peer_node(5, 2).unwrap(), 8);
        assert_eq!(cayman_get_p2p_pod_peer_node(5, 0).unwrap(), 10);
        assert_eq!(cayman_get_p2p_pod_peer_node(5, 1).unwrap(), 11);
        assert_eq!(cayman_get_p2p_pod_peer_node(5, 3).unwrap(), 9);
        assert!(matches!(
            cayman_get_p2p_pod_peer_node(5, 4),
            Err(SystemError::Topology {
                field: "dir",
                value: 4,
                ..
            })
        ));
    }

    #[test]
    fn seed001_s8_d2d_peer_of_seng_5_is_7() {
        assert_eq!(sengine_get_d2d_peer_nums(5), 7);
        assert_eq!(sengine_get_d2d_peer_nums(7), 5);
        for s in 0..64 {
            assert_eq!(sengine_get_d2d_peer_nums(sengine_get_d2d_peer_nums(s)), s);
            assert_eq!(
                sengine_get_d2d_peer_nums(s) & !2,
                s & !2,
                "only bit 1 toggles"
            );
        }
    }

    #[test]
    fn topology_d2d_peer_is_the_same_position_on_the_other_die() {
        let t = Topology::trn2(2);
        for c in 0..t.num_cores() as u16 {
            let a = t.loc(CoreId(c)).unwrap();
            let p = t.d2d_peer(CoreId(c)).unwrap();
            let b = t.loc(p).unwrap();
            assert_eq!((b.package, b.die, b.core), (a.package, 1 - a.die, a.core));
            assert_eq!(t.fold_mode(CoreId(c), p).unwrap(), FoldMode::Neighbor);
            assert_eq!(t.pod_peer(CoreId(c), 2).unwrap(), p, "direction 2 = d2d");
            assert_eq!(t.neigh_of(CoreId(c), p).unwrap(), Some(Neigh::Prev));
        }
        // The §8 pair in this numbering: core 3 (die 0) → core 7 (die 1).
        assert_eq!(t.d2d_peer(CoreId(3)).unwrap(), CoreId(7));
        assert_eq!(t.seng_of(CoreId(5)).unwrap(), 2);
        // Direction 1: the other SENG of the same die; 3: the other die's other SENG.
        assert_eq!(t.pod_peer(CoreId(5), 1).unwrap(), CoreId(7));
        assert_eq!(t.pod_peer(CoreId(5), 3).unwrap(), CoreId(3));
        assert_eq!(t.pod_peer(CoreId(5), 0).unwrap(), CoreId(5));
        assert_eq!(
            t.loc(t.pod_peer(CoreId(12), 1).unwrap()).unwrap(),
            CoreLoc {
                package: 1,
                die: 1,
                core: 2
            }
        );
        let odd = Topology {
            cores_per_die: 2,
            ..Topology::trn2(1)
        };
        assert!(matches!(
            odd.d2d_peer(CoreId(0)),
            Err(SystemError::Topology {
                field: "cores_per_die",
                ..
            })
        ));
    }
}
