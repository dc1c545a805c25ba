//! The Q7 firmware of a leg, written once: a generator of typed Q7 programs
//! ([`Q7Step`]) from one ring layout ([`RingLayout`]).
//!
//! `rdma_desc_gen` (seed 001 §4, §5: the queue registers, the descriptor
//! ring, the semaphore constants), `rdma_desc_start` (the doorbells, §4.4
//! broadcast or per engine; right_push / left_pop of the go semaphore), the
//! pre-sync flag (§2.5), the completion poll (§5.3) and `wait_sem`
//! (add_semaphore_wait_ge_and_dec, §5.2) are built here as lists of steps.
//! Every executor consumes the same list:
//!
//! - fast mode applies each step directly (`FastExec::try_q7`,
//!   `FastExec::apply_setups`);
//! - cycle mode runs each bus step as 32-bit AXI4-Lite transactions on the
//!   Q7 port of the core it addresses, through the one Q7-side master
//!   ([`super::q7_master::AxilMaster`], [`super::q7_exec`]).
//!
//! The generator knows addresses only as routed SoC addresses its caller
//! computes (the system folds them with its topology; a two-core
//! environment passes its own), and the ring geometry only through a
//! [`RingLayout`], so a caller with another ring length or base (the pair
//! environment's 64-descriptor rings) uses the same functions.

use crate::udma::desc::{DescError, M2sDesc, S2mDesc};
use crate::udma::regs::{
    UDMA_CHANGE_STATE_NORMAL_BIT, UDMA_COMP_CFG_EN_COMP_RING_UPDATE_BIT, UDMA_DESC_BYTES,
    UDMA_NUM_QUEUES, UDMA_Q_CFG, UDMA_Q_CFG_EN_PREF_BIT, UDMA_Q_CFG_EN_SCHED_BIT, UDMA_Q_CRBP_HIGH,
    UDMA_Q_CRBP_LOW, UDMA_Q_RBP_HIGH, UDMA_Q_RBP_LOW, UDMA_Q_RL, UDMA_S2M_Q_COMP_CFG,
};

use super::bcast::Doorbells;
use super::map;

/// Where a core keeps its descriptor rings and semaphore constants (core
/// offsets), and the length its firmware programs into RL.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct RingLayout {
    /// Descriptors per ring (the queue's RL value), 2..=`slot_bytes / 16`.
    pub ring_len: u32,
    /// Core offset of the ring slot of (engine 0, queue 0, M2S).
    pub ring_base: u64,
    /// Bytes of one ring slot.
    pub slot_bytes: u64,
    /// Queues per engine that have a slot (slot index = (e × queues + q) × 2 + side).
    pub queues: u8,
    /// Core offset of the S2M completion ring of (engine 0, queue 0), one
    /// `slot_bytes` slot per engine queue.
    pub comp_base: u64,
    /// Core offset of the 16 bytes of semaphore constants `{1, 0}`, `{0, 1}`.
    pub sema_const: u64,
}

/// The semaphore descriptor of one semaphore (the one rule, seed 001 §5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SemaDesc {
    /// Bytes the descriptor moves (4 or 8).
    pub len: u32,
    /// Core offset of the constant it reads (on the TX core).
    pub src: u64,
    /// Core offset of the SEM_INCR register it writes (on the semaphore's core).
    pub incr: u64,
}

impl SemaDesc {
    /// The core offset the descriptor of `side` points at: M2S reads the
    /// constant on the TX core, S2M writes SEM_INCR on the semaphore's core.
    pub const fn target(&self, side: u8) -> u64 {
        if side == 0 {
            self.src
        } else {
            self.incr
        }
    }
}

/// The 16 bytes of semaphore constants at [`RingLayout::sema_const`]: `{1, 0}` then `{0, 1}`.
pub const SEMA_CONST_BYTES: [u8; 16] = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0];
/// Offset of the odd-semaphore pair `{0, 1}` inside the constants.
pub const SEMA_PAIR_BYTES: u64 = 8;

/// Descriptors per ring of the compact layout ([`RingLayout::for_core`]) of
/// a core whose descriptor RAM cannot hold [`RingLayout::SYSTEM`]: the pair's
/// rings (project-defined, docs/pair.md).
pub const COMPACT_RING_LEN: u32 = 64;

impl RingLayout {
    /// The system's layout (docs/system.md "Address map"): 64 KiB slots of
    /// 4096 descriptors for 16 engines × 16 queues × 2 sides from the base of
    /// descriptor RAM, the completion rings 32 MiB in, the constants at 48 MiB.
    pub const SYSTEM: Self = Self {
        ring_len: map::RING_LEN,
        ring_base: map::CORE_DESC_BASE,
        slot_bytes: map::RING_BYTES,
        queues: UDMA_NUM_QUEUES as u8,
        comp_base: map::CORE_DESC_BASE + 0x0200_0000,
        sema_const: map::CORE_DESC_BASE + map::SEMA_ONE_OFFSET,
    };

    /// A layout for a small descriptor RAM of `desc_bytes` from the core's
    /// descriptor base (the pair environment's): queue 0 only, one ring
    /// slot of `ring_len` descriptors per (engine, side) from the base, the
    /// completion rings of `engines` engines right after them, the
    /// semaphore constants in the last 16 bytes ([`Self::fits`] checks it).
    pub const fn compact(ring_len: u32, engines: u8, desc_bytes: u64) -> Self {
        let slot_bytes = ring_len as u64 * UDMA_DESC_BYTES as u64;
        Self {
            ring_len,
            ring_base: map::CORE_DESC_BASE,
            slot_bytes,
            queues: 1,
            comp_base: map::CORE_DESC_BASE + 2 * engines as u64 * slot_bytes,
            sema_const: map::CORE_DESC_BASE + desc_bytes - SEMA_CONST_BYTES.len() as u64,
        }
    }

    /// Whether the rings and completion rings of `engines` engines and the
    /// semaphore constants lie in a descriptor RAM of `desc_bytes` from the
    /// core's descriptor base, in that order and without overlap.
    pub const fn fits(&self, engines: u8, desc_bytes: u64) -> bool {
        let last = engines.saturating_sub(1);
        let q = self.queues.saturating_sub(1);
        self.ring_base >= map::CORE_DESC_BASE
            && self.ring_offset(last, q, 1) + self.slot_bytes <= self.comp_base
            && self.comp_ring_offset(last, q) + self.slot_bytes <= self.sema_const
            && self.sema_const + SEMA_CONST_BYTES.len() as u64 <= map::CORE_DESC_BASE + desc_bytes
    }

    /// The layout of a core with parameters `p`: [`Self::SYSTEM`] when its
    /// descriptor RAM holds it, else [`Self::compact`] with rings of
    /// [`COMPACT_RING_LEN`] (the pair environment's layout).
    pub const fn for_core(p: &crate::pair::CoreParams) -> Self {
        let (e, d) = (p.engines as u8, p.desc_bytes as u64);
        if Self::SYSTEM.fits(e, d) {
            Self::SYSTEM
        } else {
            Self::compact(COMPACT_RING_LEN, e, d)
        }
    }

    /// The same layout with `ring_len` descriptors per ring.
    pub const fn with_ring_len(self, ring_len: u32) -> Self {
        Self { ring_len, ..self }
    }

    /// The largest ring a slot holds.
    pub const fn max_ring_len(&self) -> u32 {
        (self.slot_bytes / UDMA_DESC_BYTES as u64) as u32
    }

    /// Whether `ring_len` fits the rule 2..=[`Self::max_ring_len`] (RL 0
    /// means no ring; a ring of 1 has no free slot, PUBLIC-FACTS §1).
    pub const fn ring_len_ok(&self) -> bool {
        self.ring_len >= 2 && self.ring_len <= self.max_ring_len()
    }

    /// Core offset of the ring of (engine, queue, side) (side 0 = M2S, 1 = S2M).
    pub const fn ring_offset(&self, engine: u8, queue: u8, side: u8) -> u64 {
        let slot = (engine as u64 * self.queues as u64 + queue as u64) * 2 + side as u64;
        self.ring_base + slot * self.slot_bytes
    }

    /// Core offset of descriptor `slot` of the ring of (engine, queue, side).
    pub const fn desc_offset(&self, engine: u8, queue: u8, side: u8, slot: u32) -> u64 {
        self.ring_offset(engine, queue, side) + slot as u64 * UDMA_DESC_BYTES as u64
    }

    /// Core offset of the S2M completion ring of TX engine queue (engine, queue).
    pub const fn comp_ring_offset(&self, engine: u8, queue: u8) -> u64 {
        self.comp_base + (engine as u64 * self.queues as u64 + queue as u64) * self.slot_bytes
    }

    /// The semaphore descriptor of `sem`: an even semaphore is a 4-byte
    /// write of 1 into SEM_INCR\[sem\] (seed 001 §5); an odd one is an 8-byte
    /// write of `{0, 1}` into the aligned pair INCR\[sem−1\], INCR\[sem\]
    /// (project-defined: the UDMA moves 8-byte lanes from lane 0, so a
    /// 4-byte write can only land on an 8-byte boundary).
    pub const fn sema_desc(&self, sem: u8) -> SemaDesc {
        if sem.is_multiple_of(2) {
            SemaDesc {
                len: 4,
                src: self.sema_const,
                incr: map::sem_incr_offset(sem),
            }
        } else {
            SemaDesc {
                len: 8,
                src: self.sema_const + SEMA_PAIR_BYTES,
                incr: map::sem_incr_offset(sem - 1),
            }
        }
    }
}

/// One step of a Q7 program.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub enum Q7Step {
    /// One 32-bit register write (a queue or completion-ring CSR, a
    /// broadcast MASK) at a routed SoC address.
    Csr { soc: u64, data: u32 },
    /// A 16-byte memory store (one ring descriptor, or the semaphore
    /// constants): four 32-bit stores at `soc`, `soc + 4`, … , word 0 first.
    Store { soc: u64, bytes: [u8; 16] },
    /// A doorbell write of `data` descriptors (a per-engine `*DRTP_inc` or a
    /// broadcast TAIL_INC) of queue `queue`, side `side` (0 M2S / 1 S2M);
    /// `lands` = the engines whose tail it moves.
    Doorbell {
        soc: u64,
        data: u32,
        queue: u8,
        side: u8,
        lands: u16,
    },
    /// right_push: a write of 1 into the SEM_INCR register at `soc`.
    Push { soc: u64 },
    /// Wait until semaphore `sem` of the Q7's own core is ≥ `target`, then
    /// decrement it by `target` (left_pop, add_semaphore_wait_ge_and_dec).
    /// Through a port: a SEM_READ poll, then a SEM_DECR write. Only the
    /// first step of a program waits.
    WaitDec { sem: u8, target: i32 },
    /// Poll the completion rings of queue `queue` of the Q7's own engines
    /// until each (engine, total) has seen its total (seed 001 §5.3).
    PollComp { queue: u8, engines: Vec<(u8, u64)> },
    /// Q7-local store of the pre-sync flag `sb2sb_ready_to_receive_remote` (§2.5).
    ReadyFlag { value: u32 },
}

impl Q7Step {
    /// The 32-bit writes of a bus-write step, in order: (routed SoC address, data).
    pub fn words(&self) -> Vec<(u64, u32)> {
        match *self {
            Q7Step::Csr { soc, data } | Q7Step::Doorbell { soc, data, .. } => vec![(soc, data)],
            Q7Step::Push { soc } => vec![(soc, 1)],
            Q7Step::Store { soc, bytes } => (0..4)
                .map(|k| {
                    let w = [
                        bytes[4 * k],
                        bytes[4 * k + 1],
                        bytes[4 * k + 2],
                        bytes[4 * k + 3],
                    ];
                    (soc + 4 * k as u64, u32::from_le_bytes(w))
                })
                .collect(),
            Q7Step::WaitDec { .. } | Q7Step::PollComp { .. } | Q7Step::ReadyFlag { .. } => {
                Vec::new()
            }
        }
    }

    /// AXI4-Lite transactions the step takes on a Q7 port when its wait or
    /// poll succeeds at the first read (32-bit data).
    pub fn transactions(&self) -> u32 {
        match self {
            Q7Step::WaitDec { .. } => 2,
            _ => self.words().len() as u32,
        }
    }
}

/// A wait step ([`Q7Step::WaitDec`]) as a Q7 plays it through its port
/// (the port has no wait port): poll SEM_READ\[sem\] of its own core until
/// the value is at least `min`, then write `data` into SEM_DECR\[sem\]
/// (core offsets `read`, `decr`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PortWait {
    pub read: u64,
    pub min: i32,
    pub decr: u64,
    pub data: u32,
}

/// The port form of a wait for `sem` ≥ `target` then take `target`.
pub const fn port_wait(sem: u8, target: i32) -> PortWait {
    PortWait {
        read: map::sem_read_offset(sem),
        min: target,
        decr: map::sem_decr_offset(sem),
        data: target as u32,
    }
}

/// The queue-register writes that give (engine, queue, side) the ring at
/// routed `ring_soc`: RL (when `rl` is given: the queue has no ring yet),
/// RBP_LOW, RBP_HIGH, CFG (EN_PREF | EN_SCHED). `csr(reg)` is the routed
/// address of the queue's register `reg`. Returns (register, step) pairs.
pub fn queue_config<E>(
    mut csr: impl FnMut(u32) -> Result<u64, E>,
    ring_soc: u64,
    rl: Option<u32>,
) -> Result<Vec<(u32, Q7Step)>, E> {
    let cfg = 1 << UDMA_Q_CFG_EN_PREF_BIT | 1 << UDMA_Q_CFG_EN_SCHED_BIT;
    let mut out = Vec::with_capacity(4);
    let regs = rl.map(|n| (UDMA_Q_RL, n)).into_iter().chain([
        (UDMA_Q_RBP_LOW, ring_soc as u32),
        (UDMA_Q_RBP_HIGH, (ring_soc >> 32) as u32),
        (UDMA_Q_CFG, cfg),
    ]);
    for (r, v) in regs {
        out.push((
            r,
            Q7Step::Csr {
                soc: csr(r)?,
                data: v,
            },
        ));
    }
    Ok(out)
}

/// The completion-ring writes of an S2M queue (seed 001 §5.3): CRBP_LOW,
/// CRBP_HIGH for the ring at routed `base`, then COMP_CFG
/// (EN_COMP_RING_UPDATE); `csr(reg)` as in [`queue_config`].
pub fn comp_ring_config<E>(
    mut csr: impl FnMut(u32) -> Result<u64, E>,
    base: u64,
) -> Result<Vec<(u32, Q7Step)>, E> {
    let mut out = Vec::with_capacity(3);
    for (r, v) in [
        (UDMA_Q_CRBP_LOW, base as u32),
        (UDMA_Q_CRBP_HIGH, (base >> 32) as u32),
        (
            UDMA_S2M_Q_COMP_CFG,
            1 << UDMA_COMP_CFG_EN_COMP_RING_UPDATE_BIT,
        ),
    ] {
        out.push((
            r,
            Q7Step::Csr {
                soc: csr(r)?,
                data: v,
            },
        ));
    }
    Ok(out)
}

/// The boot write that brings one side of an engine to NORMAL: its
/// `change_state` register at routed `soc` (PUBLIC-FACTS §1).
pub fn engine_normal(soc: u64) -> Q7Step {
    Q7Step::Csr {
        soc,
        data: 1 << UDMA_CHANGE_STATE_NORMAL_BIT,
    }
}

/// The store of the semaphore constants at routed `soc`.
pub fn sema_constants(soc: u64) -> Q7Step {
    Q7Step::Store {
        soc,
        bytes: SEMA_CONST_BYTES,
    }
}

/// A data descriptor of `side` (0 M2S: reads `ptr`; 1 S2M: writes `ptr`),
/// one whole packet of `len` bytes.
pub fn data_desc(side: u8, len: u32, ring_id: u8, ptr: u64) -> Result<[u8; 16], DescError> {
    if side == 0 {
        M2sDesc::whole_packet(len, ring_id, ptr).encode()
    } else {
        S2mDesc {
            len,
            ring_id,
            int_en: false,
            buf2_ptr_lo: 0,
            buf1_ptr: ptr,
        }
        .encode()
    }
}

/// A semaphore descriptor of `side` for [`SemaDesc`] `s`: M2S reads the
/// constant at routed `ptr` (with DMB: after every data write of the ring
/// before it); S2M writes the SEM_INCR register at routed `ptr`.
pub fn sema_desc(side: u8, s: SemaDesc, ring_id: u8, ptr: u64) -> Result<[u8; 16], DescError> {
    if side == 0 {
        M2sDesc {
            dmb: true,
            ..M2sDesc::whole_packet(s.len, ring_id, ptr)
        }
        .encode()
    } else {
        data_desc(1, s.len, ring_id, ptr)
    }
}

/// The stores of `descs` into a ring from slot `first` (wrapping at `rl`);
/// `slot_soc(slot)` is the routed address of a slot.
pub fn ring_stores<E>(
    mut slot_soc: impl FnMut(u32) -> Result<u64, E>,
    first: u32,
    rl: u32,
    descs: &[[u8; 16]],
) -> Result<Vec<Q7Step>, E> {
    let mut slot = first;
    let mut out = Vec::with_capacity(descs.len());
    for d in descs {
        out.push(Q7Step::Store {
            soc: slot_soc(slot)?,
            bytes: *d,
        });
        slot = (slot + 1) % rl;
    }
    Ok(out)
}

/// Routed addresses of one queue's doorbells as the issuing Q7 sees them.
pub trait DoorbellAddrs {
    type Error;
    /// The `*DRTP_inc` register of engine `e`.
    fn per_engine(&self, e: u8) -> Result<u64, Self::Error>;
    /// The broadcast (MASK, TAIL_INC) registers of the queue and side.
    fn bcast(&self) -> Result<(u64, u64), Self::Error>;
}

/// The doorbells of `engines` (engine, descriptors) on queue `queue`,
/// `side`: per engine one `*DRTP_inc`, or per distinct descriptor count one
/// broadcast MASK write and one TAIL_INC trigger, in engine order.
pub fn doorbells<A: DoorbellAddrs>(
    mode: Doorbells,
    (queue, side): (u8, u8),
    engines: &[(u8, u32)],
    at: &A,
) -> Result<Vec<Q7Step>, A::Error> {
    let mut out = Vec::with_capacity(engines.len());
    match mode {
        Doorbells::PerEngine => {
            for &(e, n) in engines {
                out.push(Q7Step::Doorbell {
                    soc: at.per_engine(e)?,
                    data: n,
                    queue,
                    side,
                    lands: 1 << e,
                });
            }
        }
        Doorbells::Broadcast => {
            let mut groups: Vec<(u32, u16)> = Vec::new();
            for &(e, n) in engines {
                match groups.iter_mut().find(|g| g.0 == n) {
                    Some(g) => g.1 |= 1 << e,
                    None => groups.push((n, 1 << e)),
                }
            }
            let (mask_soc, trig_soc) = at.bcast()?;
            for (n, mask) in groups {
                out.push(Q7Step::Csr {
                    soc: mask_soc,
                    data: mask.into(),
                });
                out.push(Q7Step::Doorbell {
                    soc: trig_soc,
                    data: n,
                    queue,
                    side,
                    lands: mask,
                });
            }
        }
    }
    Ok(out)
}

/// `rdma_desc_start`, RX role: clear the pre-sync flag, ring the S2M
/// doorbells, raise the TX go semaphore at routed `go_incr` (right_push).
pub fn rx_arm(doorbells: Vec<Q7Step>, go_incr: u64) -> Vec<Q7Step> {
    let mut p = Vec::with_capacity(doorbells.len() + 2);
    p.push(Q7Step::ReadyFlag { value: 0 });
    p.extend(doorbells);
    p.push(Q7Step::Push { soc: go_incr });
    p
}

/// `rdma_desc_start`, TX role: take the go semaphore (left_pop), ring the M2S doorbells.
pub fn tx_launch(go_sem: u8, doorbells: Vec<Q7Step>) -> Vec<Q7Step> {
    let mut p = Vec::with_capacity(doorbells.len() + 1);
    p.push(Q7Step::WaitDec {
        sem: go_sem,
        target: 1,
    });
    p.extend(doorbells);
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::udma::regs::{q_addr, Side, UDMA_Q_RTP_INC};

    #[test]
    fn the_system_layout_matches_the_documented_map() {
        let l = RingLayout::SYSTEM;
        // docs/system.md: ring (e, q, side) at 0x1200_0000 + ((16e + q)·2 + side) · 64 KiB.
        assert_eq!(l.ring_offset(0, 0, 0), 0x1200_0000);
        assert_eq!(l.ring_offset(0, 0, 1), 0x1201_0000);
        assert_eq!(l.ring_offset(1, 2, 1), 0x1200_0000 + 37 * 0x1_0000);
        assert_eq!(l.ring_offset(15, 15, 1), 0x1200_0000 + 511 * 0x1_0000);
        assert_eq!(l.desc_offset(0, 0, 1, 3), 0x1201_0030);
        assert_eq!(l.comp_ring_offset(2, 0), 0x1400_0000 + 32 * 0x1_0000);
        assert!(l.ring_offset(15, 15, 1) + l.slot_bytes <= l.comp_ring_offset(0, 0));
        assert!(l.comp_ring_offset(15, 15) + l.slot_bytes <= l.sema_const);
        assert_eq!(l.sema_const, 0x1500_0000);
        assert_eq!((l.ring_len, l.max_ring_len()), (4096, 4096));
        assert!(l.ring_len_ok());
        assert!(!l.with_ring_len(1).ring_len_ok());
        assert!(!l.with_ring_len(4097).ring_len_ok());
    }

    #[test]
    fn the_compact_layout_packs_rings_completion_rings_and_constants() {
        // Pair environment: rings of 64 on queue 0 only, slot (2e + s) × 1 KiB,
        // 4 engines in 16 KiB: completion rings from 8 KiB, constants at 16 KiB − 16.
        let l = RingLayout::compact(64, 4, 16384);
        assert_eq!(l.ring_offset(0, 0, 0), 0x1200_0000);
        assert_eq!(l.ring_offset(3, 0, 1), 0x1200_0000 + 7 * 1024);
        assert_eq!(l.desc_offset(1, 0, 1, 2), 0x1200_0000 + 3 * 1024 + 32);
        assert_eq!(l.comp_ring_offset(0, 0), 0x1200_2000);
        assert_eq!(l.sema_const, 0x1200_3FF0);
        assert_eq!(l.max_ring_len(), 64);
        assert!(l.ring_len_ok() && l.fits(4, 16384));
        // 16 engines need 48 KiB of rings and completion rings: 64 KiB fits, 32 KiB not.
        assert!(RingLayout::compact(64, 16, 65536).fits(16, 65536));
        assert!(!RingLayout::compact(64, 16, 32768).fits(16, 32768));
        assert!(RingLayout::SYSTEM.fits(16, map::CORE_DESC_BYTES));
        // the semaphore descriptors read the compact layout's constants
        assert_eq!(l.sema_desc(7).target(0), 0x1200_3FF8);
        assert_eq!(l.sema_desc(7).target(1), 0x1000_1818);
    }

    #[test]
    fn seed_section5_semaphore_descriptors() {
        let l = RingLayout::SYSTEM;
        // seed 001 §8: local_sem 12 (even): a 4-byte write of 1 into INCR[12] = 0x1000_1830.
        assert_eq!(
            l.sema_desc(12),
            SemaDesc {
                len: 4,
                src: 0x1500_0000,
                incr: 0x1000_1830
            }
        );
        // odd 21: 8 bytes {0, 1} into INCR[20], INCR[21].
        assert_eq!(
            l.sema_desc(21),
            SemaDesc {
                len: 8,
                src: 0x1500_0008,
                incr: 0x1000_1850
            }
        );
        assert_eq!(
            u32::from_le_bytes(SEMA_CONST_BYTES[8..12].try_into().unwrap()),
            0
        );
        assert_eq!(
            u32::from_le_bytes(SEMA_CONST_BYTES[12..16].try_into().unwrap()),
            1
        );
    }

    #[test]
    fn queue_config_writes_rl_base_and_cfg_in_order() {
        let ring = 0x0000_8003_1201_0000u64;
        let csr = |r: u32| Ok::<u64, ()>(0x1100_0000 + u64::from(q_addr(Side::S2m, 2, r)));
        let p = queue_config(csr, ring, Some(4096)).unwrap();
        let words: Vec<(u32, u64, u32)> = p
            .iter()
            .map(|(r, s)| match s {
                Q7Step::Csr { soc, data } => (*r, *soc, *data),
                _ => unreachable!(),
            })
            .collect();
        // S2M queue 2: 0x2_0000 + 0x1000 + 2 × 0x1000 = 0x2_3000 (PUBLIC-FACTS §1 layout).
        assert_eq!(
            words,
            vec![
                (UDMA_Q_RL, 0x1102_3030, 4096),
                (UDMA_Q_RBP_LOW, 0x1102_3028, 0x1201_0000),
                (UDMA_Q_RBP_HIGH, 0x1102_302c, 0x8003),
                (UDMA_Q_CFG, 0x1102_3020, 0x3_0000),
            ]
        );
        assert_eq!(queue_config(csr, ring, None).unwrap().len(), 3);
    }

    #[test]
    fn ring_stores_wrap_at_the_ring_length() {
        let l = RingLayout::SYSTEM.with_ring_len(8);
        let slot = |k: u32| Ok::<u64, ()>(l.desc_offset(1, 0, 0, k));
        let d = [[1u8; 16], [2; 16], [3; 16]];
        let p = ring_stores(slot, 6, l.ring_len, &d).unwrap();
        // engine 1 queue 0 M2S = slot (16 + 0)·2 = 32: 0x1200_0000 + 32·64 KiB = 0x1220_0000.
        let socs: Vec<u64> = p
            .iter()
            .map(|s| match s {
                Q7Step::Store { soc, .. } => *soc,
                _ => unreachable!(),
            })
            .collect();
        assert_eq!(socs, vec![0x1220_0060, 0x1220_0070, 0x1220_0000]);
        assert_eq!(p[2].words()[3], (0x1220_000C, 0x0303_0303));
        assert_eq!(p.iter().map(Q7Step::transactions).sum::<u32>(), 12);
    }

    struct Addrs;
    impl DoorbellAddrs for Addrs {
        type Error = ();
        fn per_engine(&self, e: u8) -> Result<u64, ()> {
            Ok(0x1100_0000
                + u64::from(e) * 0x4_0000
                + u64::from(q_addr(Side::M2s, 0, UDMA_Q_RTP_INC)))
        }
        fn bcast(&self) -> Result<(u64, u64), ()> {
            Ok((0x1140_0000, 0x1140_0004))
        }
    }

    #[test]
    fn doorbells_group_engines_by_count() {
        let e = [(0, 34), (1, 34), (2, 33), (3, 34)];
        let b = doorbells(Doorbells::Broadcast, (0, 0), &e, &Addrs).unwrap();
        assert_eq!(
            b,
            vec![
                Q7Step::Csr {
                    soc: 0x1140_0000,
                    data: 0b1011
                },
                Q7Step::Doorbell {
                    soc: 0x1140_0004,
                    data: 34,
                    queue: 0,
                    side: 0,
                    lands: 0b1011
                },
                Q7Step::Csr {
                    soc: 0x1140_0000,
                    data: 0b0100
                },
                Q7Step::Doorbell {
                    soc: 0x1140_0004,
                    data: 33,
                    queue: 0,
                    side: 0,
                    lands: 0b0100
                },
            ]
        );
        let p = doorbells(Doorbells::PerEngine, (0, 0), &e[..2], &Addrs).unwrap();
        // M2S queue 0 RTP_INC = 0x1038; engine 1 at + 0x4_0000.
        assert_eq!(
            p,
            vec![
                Q7Step::Doorbell {
                    soc: 0x1100_1038,
                    data: 34,
                    queue: 0,
                    side: 0,
                    lands: 1
                },
                Q7Step::Doorbell {
                    soc: 0x1104_1038,
                    data: 34,
                    queue: 0,
                    side: 0,
                    lands: 2
                },
            ]
        );
        let tx = tx_launch(255, p.clone());
        assert_eq!(
            tx[0],
            Q7Step::WaitDec {
                sem: 255,
                target: 1
            }
        );
        assert_eq!(tx.iter().map(Q7Step::transactions).sum::<u32>(), 2 + 2);
        let rx = rx_arm(p, 0x1000_1BFC);
        assert_eq!(rx.first(), Some(&Q7Step::ReadyFlag { value: 0 }));
        assert_eq!(rx.last().unwrap().words(), vec![(0x1000_1BFC, 1)]);
    }
}
