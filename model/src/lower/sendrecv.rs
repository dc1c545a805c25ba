//! SENDRECV (0xCB) host lowering (seed 000 §3–8): `is_send` → ENC_SEND /
//! ENC_RECV, the guards of `__compose_p2p_channel`, `enc_init_sendrecv_group`
//! and `instr_col_setup_psr`, peer resolution, and the pairing of a SEND
//! with its RECV into one directed leg.
//!
//! The leg never reduces (seed 000 §7: the P2P composer calls only
//! `direct_send` / `direct_recv`, whose signatures carry no SDMA_CCETYPE):
//! [`pair`] always builds legs with `reduce: None`.

use super::error::Guard;
use super::layout::{pair_legs, Layout};
use super::target::Leg;
use crate::isa::{EncOpType, Events, SendRecv, UpdateMode};

/// The host validator of `__compose_p2p_channel` (seed 000 §5a): `(op − 5) <= 1`.
pub fn check_p2p_op(op: EncOpType) -> Result<(), Guard> {
    if op.is_p2p() {
        Ok(())
    } else {
        Err(Guard::NotP2p { op })
    }
}

/// "Collective instruction must increment semaphore when done" (seed 000
/// §8a). Project-defined reading: the update must be an increment at
/// completion — SEM_INC_ON_COMPLETE, or SEM_ADD_ON_COMPLETE with a positive
/// value. An on-read update fires before the data lands, so it is refused.
pub fn check_completion_semaphore(ev: &Events) -> Result<(), Guard> {
    let ok = match ev.update_mode {
        UpdateMode::SemIncOnComplete => true,
        UpdateMode::SemAddOnComplete => ev.semaphore_value as i32 > 0,
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(Guard::NoSemaphoreIncrement {
            mode: ev.update_mode.name(),
            value: ev.semaphore_value,
        })
    }
}

/// Where the peer comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PeerSource {
    /// The word's `peer_id`.
    PeerId,
    /// The other element of a 2-rank replica group (`get_peer_id`, seed 000 §4a).
    Group(u32),
    /// An engine register written by 0xDB (seed 002 §6), holding this value.
    Register(u64),
}

/// Resolve the peer of `w` issued by `rank` and apply the peer guards:
/// the pair group has exactly 2 ranks and holds `rank`; the group's peer
/// agrees with `peer_id`; the peer exists; the peer is not `rank` itself.
pub fn resolve_peer(
    w: &SendRecv,
    rank: u32,
    source: PeerSource,
    groups: &[Vec<u32>],
    ranks: usize,
) -> Result<u32, Guard> {
    let peer: u64 = match source {
        PeerSource::PeerId => w.peer_id,
        PeerSource::Register(v) => v,
        PeerSource::Group(g) => {
            let members = groups.get(g as usize).ok_or(Guard::NoSuchGroup {
                group: g,
                groups: groups.len(),
            })?;
            if members.len() != 2 {
                return Err(Guard::GroupNotPair {
                    group: g,
                    len: members.len(),
                });
            }
            let other = match members.iter().position(|&r| r == rank) {
                Some(0) => members[1],
                Some(_) => members[0],
                None => {
                    return Err(Guard::NotInGroup {
                        rank,
                        group: g,
                        members: members.clone(),
                    })
                }
            };
            if w.peer_id != other as u64 {
                return Err(Guard::PeerConflict {
                    group: g,
                    group_peer: other,
                    peer_id: w.peer_id,
                });
            }
            other as u64
        }
    };
    if peer >= ranks as u64 {
        return Err(Guard::NoSuchPeer { peer, ranks });
    }
    if peer == rank as u64 {
        return Err(Guard::SendToSelf { rank });
    }
    Ok(peer as u32)
}

/// `offset_bytes + size_bytes` inside the tensor (no overflow).
pub fn check_range(w: &SendRecv, tensor: &Layout) -> Result<(), Guard> {
    match w.offset_bytes.checked_add(w.size_bytes) {
        Some(end) if end <= tensor.size => Ok(()),
        _ => Err(Guard::OutOfTensor {
            tensor: w.tensor_id,
            offset: w.offset_bytes,
            size: w.size_bytes,
            tensor_size: tensor.size,
        }),
    }
}

/// A SEND or RECV that has been issued and waits for its other side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Posted {
    /// Issuing rank.
    pub rank: u32,
    /// Its instruction index.
    pub pc: usize,
    /// ENC_SEND or ENC_RECV.
    pub op: EncOpType,
    /// Resolved peer rank.
    pub peer: u32,
    /// The local tensor.
    pub tensor: Layout,
    /// offset_bytes.
    pub offset: u64,
    /// size_bytes.
    pub size: u64,
    /// The word's EVENTS (its completion update).
    pub events: Events,
}

impl Posted {
    /// True for the TX leg.
    pub fn is_send(&self) -> bool {
        self.op == EncOpType::Send
    }

    /// Does `other` complete this one (opposite direction, each other's peer)?
    pub fn meets(&self, other: &Posted) -> bool {
        self.peer == other.rank && other.peer == self.rank && self.is_send() != other.is_send()
    }
}

/// Pair a SEND with its RECV into the directed leg(s): sizes must be equal
/// ("a send must meet a receive of the same size"), and the legs are pure
/// moves from the sender's tensor range to the receiver's.
pub fn pair(send: &Posted, recv: &Posted) -> Result<Vec<Leg>, Guard> {
    if send.size != recv.size {
        return Err(Guard::SizeMismatch {
            send_rank: send.rank,
            send_pc: send.pc,
            send_size: send.size,
            recv_rank: recv.rank,
            recv_pc: recv.pc,
            recv_size: recv.size,
        });
    }
    Ok(pair_legs(
        &send.tensor,
        send.offset,
        &recv.tensor,
        recv.offset,
        send.size,
        None,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::{EncOpType, Events, SendRecv, UpdateMode};

    #[test]
    fn only_enc_send_and_enc_recv_pass_the_p2p_guard_seed_000_5a() {
        for op in EncOpType::ALL {
            let r = check_p2p_op(op);
            assert_eq!(
                r.is_ok(),
                matches!(op, EncOpType::Send | EncOpType::Recv),
                "{op}"
            );
            if let Err(e) = r {
                assert!(
                    e.to_string()
                        .contains("send_recv_op_type == ENC_SEND || send_recv_op_type == ENC_RECV"),
                    "{e}"
                );
            }
        }
    }

    #[test]
    fn is_send_byte_maps_to_enc_send_5_and_enc_recv_6_seed_000_3() {
        let mut w = SendRecv {
            is_send: 1,
            ..Default::default()
        };
        assert_eq!(w.enc_op_type().code(), 5);
        w.is_send = 0;
        assert_eq!(w.enc_op_type().code(), 6);
        w.is_send = 0x80;
        assert_eq!(w.enc_op_type(), EncOpType::Send);
    }

    #[test]
    fn completion_semaphore_must_increment_seed_000_8a() {
        let mut ev = Events::default();
        let e = check_completion_semaphore(&ev).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("Collective instruction must increment semaphore when done"),
            "{e}"
        );
        ev.update_mode = UpdateMode::SemIncOnComplete;
        assert!(check_completion_semaphore(&ev).is_ok());
        ev.update_mode = UpdateMode::SemAddOnComplete;
        assert!(
            check_completion_semaphore(&ev).is_err(),
            "adding 0 does not increment"
        );
        ev.semaphore_value = 2;
        assert!(check_completion_semaphore(&ev).is_ok());
        for m in [
            UpdateMode::SemIncOnRead,
            UpdateMode::SemDecOnComplete,
            UpdateMode::SemWrOnComplete,
        ] {
            ev.update_mode = m;
            assert!(check_completion_semaphore(&ev).is_err(), "{m:?}");
        }
    }

    #[test]
    fn peer_guards_seed_000_4a() {
        let groups = vec![vec![0, 1, 2], vec![2, 5]];
        let w = SendRecv {
            peer_id: 3,
            ..Default::default()
        };
        assert_eq!(
            resolve_peer(&w, 1, PeerSource::PeerId, &groups, 8).unwrap(),
            3
        );
        let e = resolve_peer(&w, 3, PeerSource::PeerId, &groups, 8).unwrap_err();
        assert!(e.to_string().contains("g_device_id != peer_id"), "{e}");
        let e = resolve_peer(&w, 1, PeerSource::PeerId, &groups, 3).unwrap_err();
        assert!(e.to_string().contains("peer rank 3 does not exist"), "{e}");
        // 2-rank group: the other element.
        let w5 = SendRecv {
            peer_id: 5,
            ..Default::default()
        };
        assert_eq!(
            resolve_peer(&w5, 2, PeerSource::Group(1), &groups, 8).unwrap(),
            5
        );
        let e = resolve_peer(&w, 2, PeerSource::Group(1), &groups, 8).unwrap_err();
        assert!(e.to_string().contains("makes the peer rank 5"), "{e}");
        let e = resolve_peer(&w, 0, PeerSource::Group(0), &groups, 8).unwrap_err();
        assert!(e.to_string().contains("has exactly 2"), "{e}");
        let e = resolve_peer(&w, 0, PeerSource::Group(1), &groups, 8).unwrap_err();
        assert!(
            e.to_string().contains("rank 0 is not in replica group 1"),
            "{e}"
        );
        assert_eq!(
            resolve_peer(&w, 0, PeerSource::Register(7), &groups, 8).unwrap(),
            7
        );
    }

    #[test]
    fn range_must_fit_in_tensor_without_overflow() {
        let t = Layout {
            core: 0,
            partition: 0,
            partitions: 4,
            offset: 0,
            size: 64,
        };
        let ok = SendRecv {
            offset_bytes: 32,
            size_bytes: 32,
            ..Default::default()
        };
        assert!(check_range(&ok, &t).is_ok());
        let bad = SendRecv {
            offset_bytes: 33,
            size_bytes: 32,
            ..Default::default()
        };
        assert!(check_range(&bad, &t)
            .unwrap_err()
            .to_string()
            .contains("exceeds tensor"));
        let wrap = SendRecv {
            offset_bytes: u64::MAX,
            size_bytes: 2,
            ..Default::default()
        };
        assert!(check_range(&wrap, &t).is_err());
    }

    #[test]
    fn paired_legs_never_reduce_seed_000_7() {
        let t = Layout {
            core: 0,
            partition: 0,
            partitions: 4,
            offset: 0,
            size: 64,
        };
        let s = Posted {
            rank: 0,
            pc: 0,
            op: EncOpType::Send,
            peer: 1,
            tensor: t,
            offset: 0,
            size: 64,
            events: Events::default(),
        };
        let r = Posted {
            rank: 1,
            op: EncOpType::Recv,
            peer: 0,
            tensor: Layout { core: 1, ..t },
            ..s
        };
        assert!(s.meets(&r) && r.meets(&s));
        let legs = pair(&s, &r).unwrap();
        assert!(legs.iter().all(|l| l.reduce.is_none()));
        let e = pair(&s, &Posted { size: 32, ..r }).unwrap_err();
        assert!(
            e.to_string()
                .contains("a send must meet a receive of the same size"),
            "{e}"
        );
    }
}
