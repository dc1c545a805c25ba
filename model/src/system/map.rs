//! The address map of a die and of a core (project-defined, docs/system.md),
//! and the fabric decode of a routed SoC address to a (core, target) pair.
//!
//! Die-local LOCAL `[46:0]` space (bit 46 is host memory, PUBLIC-FACTS §3):
//!
//! | LOCAL range | content |
//! | --- | --- |
//! | `c × 0x1_0000_0000` | core (TPB) `c` of this die, 4 GiB each, up to 8 cores |
//!
//! Inside a core (offset from its base):
//!
//! | offset | size | content |
//! | --- | --- | --- |
//! | `0x0000_0000 + p × 0x20_0000` | `bytes_per_partition` of 2 MiB | SBUF partition `p` (0..128) |
//! | `0x1000_0000` | 0x2000 | EVT_SEM window (INCR at +0x1800, seed 001 §5.1) |
//! | `0x1100_0000 + e × 0x4_0000` | 0x4_0000 | UDMA engine `e` CSRs (M2S 0x0, S2M 0x20000; PUBLIC-FACTS §1) |
//! | `0x1140_0000` | 0x100 | broadcast doorbell block (`dma_apb_bcast` targets, seed 001 §4.4; [`super::bcast`]) |
//! | `0x1200_0000` | 0x0400_0000 | descriptor RAM (rings and constants, sparse) |
//!
//! Routed addresses (seed 001 §2): with ID_VALID `[54]` = 0 the address is
//! un-routed and DIE `[47]` names a die of the issuing core's package. With
//! ID_VALID = 1 the fabric reads `[53:48]` in the neighbor view when
//! NEIGHBOR_ROUTE `[52]` and EXIT_DIE `[51]` are both set (the other die of the
//! issuing package), otherwise in the chip-id view (CAYMAN_ID names the
//! package: the package whose cores carry that routing id, seed 001 §2.3
//! `CAYMAN_ID [53:48] <- routing_id`). [`super::Topology`] never assigns a
//! CAYMAN_ID or routing id with bits 4 and 3 both set, so the rule is
//! unambiguous.

use crate::addr::fields::{CAYMAN_ID, DIE, EXIT_DIE, ID_VALID, LOCAL, NEIGHBOR_ROUTE};
use crate::addr::{ADDR_HOST_BIT, ADDR_RSVD_MID_LSB};
use crate::udma::regs::{q_addr, Side};

use super::topology::{CoreId, CoreLoc, Topology, DMA_ENGINES, SBUF_PARTITIONS};
use super::SystemError;

/// Largest number of cores per die the map has room for.
pub const MAX_CORES_PER_DIE: u8 = 8;
/// Stride of the cores in the die-local space.
pub const CORE_STRIDE: u64 = 1 << 32;
/// SBUF aperture base inside a core (the RTL tests `addr < CORE_SBUF_WINDOW_BYTES`,
/// so it stays 0).
pub const CORE_SBUF_BASE: u64 = 0;
/// Address stride of one SBUF partition (the largest configurable partition).
pub const SBUF_PARTITION_STRIDE: u64 = 0x20_0000;
/// CSR space of one UDMA engine (18 address bits, `udma::regs::UDMA_CSR_ADDR_WIDTH`).
pub const CORE_UDMA_STRIDE: u64 = 1 << crate::udma::regs::UDMA_CSR_ADDR_WIDTH;
/// Offset of the EVT_SEM SEM_READ window inside a core (a Q7 poll reads it).
pub const CORE_EVT_READ_BASE: u64 =
    CORE_EVT_SEM_BASE + crate::evt_sem::regs::EVT_SEM_SEM_READ_BASE as u64;
/// Offset of the EVT_SEM SEM_DECR window inside a core (a Q7 takes a semaphore with it).
pub const CORE_EVT_DECR_BASE: u64 =
    CORE_EVT_SEM_BASE + crate::evt_sem::regs::EVT_SEM_SEM_DECR_BASE as u64;

// The core address map: the one definition, rendered into `rtl/sb2sb_pkg.sv`
// ("SB2SB core address map" group) for `rtl/sb2sb_q7_port.sv`. Only what
// the RTL decodes is exported (the whole-pair lint checks UNUSEDPARAM).
crate::sv_consts! {
    /// Size of the SBUF aperture at core offset 0: every core offset below it is SBUF.
    CORE_SBUF_WINDOW_BYTES: u64 [32] = 0x1000_0000;
    /// EVT_SEM window base inside a core.
    CORE_EVT_SEM_BASE: u64 [32] = 0x1000_0000;
    /// EVT_SEM window size (PUBLIC-FACTS §2).
    CORE_EVT_SEM_BYTES: u64 [32] = 0x2000;
    /// Offset of the EVT_SEM SEM_INCR window inside a core (seed 001 §5.1): the
    /// target of every semaphore descriptor, and of the interconnect's increment ports.
    CORE_EVT_INCR_BASE: u64 [32] =
        CORE_EVT_SEM_BASE + crate::evt_sem::regs::EVT_SEM_SEM_INCR_BASE as u64;
    /// Bytes of the SEM_INCR window (one 32-bit word per semaphore).
    CORE_EVT_INCR_BYTES: u64 [32] = 4 * crate::evt_sem::NUM_SEM as u64;
    /// UDMA engine CSR base inside a core (engine e at + e << UDMA_CSR_ADDR_WIDTH).
    CORE_UDMA_BASE: u64 [32] = 0x1100_0000;
    /// Broadcast doorbell block inside a core (seed 001 §4.4; registers BCAST_*).
    CORE_BCAST_BASE: u64 [32] = 0x1140_0000;
    /// Bytes of the broadcast doorbell block: 16 queue groups of 16 bytes.
    CORE_BCAST_BYTES: u64 [32] = 0x100;
    /// Descriptor RAM base inside a core.
    CORE_DESC_BASE: u64 [32] = 0x1200_0000;
    /// Descriptor RAM size.
    CORE_DESC_BYTES: u64 [32] = 0x0400_0000;
}

/// Bytes of one ring slot in descriptor RAM: 4096 descriptors of 16 bytes.
pub const RING_BYTES: u64 = 0x1_0000;
/// Descriptors per ring slot: the largest ring length (the queue's RL register).
pub const RING_LEN: u32 = (RING_BYTES / crate::udma::regs::UDMA_DESC_BYTES as u64) as u32;
/// Offset in descriptor RAM of the constant `1` that semaphore descriptors read.
pub const SEMA_ONE_OFFSET: u64 = 0x0300_0000;

/// What a core-relative offset addresses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// SBUF partition `partition`, byte `offset`.
    Sbuf { partition: u8, offset: u32 },
    /// EVT_SEM window byte offset.
    EvtSem { offset: u32 },
    /// UDMA engine `engine`, CSR byte offset.
    Udma { engine: u8, offset: u32 },
    /// Descriptor RAM byte offset.
    Desc { offset: u32 },
    /// Broadcast doorbell block byte offset ([`super::bcast`]).
    Bcast { offset: u32 },
}

/// Byte offset of (partition, offset) inside a core.
pub const fn sbuf_offset(partition: u8, offset: u64) -> u64 {
    CORE_SBUF_BASE + partition as u64 * SBUF_PARTITION_STRIDE + offset
}

/// Die-local address of a core-relative offset.
pub const fn core_local(core_in_die: u8, offset: u64) -> u64 {
    core_in_die as u64 * CORE_STRIDE + offset
}

/// Offset inside a core of the EVT_SEM SEM_INCR register of semaphore `sem`.
pub const fn sem_incr_offset(sem: u8) -> u64 {
    CORE_EVT_INCR_BASE + sem as u64 * 4
}

/// Offset inside a core of the EVT_SEM SEM_READ register of semaphore `sem`.
pub const fn sem_read_offset(sem: u8) -> u64 {
    CORE_EVT_READ_BASE + sem as u64 * 4
}

/// Offset inside a core of the EVT_SEM SEM_DECR register of semaphore `sem`.
pub const fn sem_decr_offset(sem: u8) -> u64 {
    CORE_EVT_DECR_BASE + sem as u64 * 4
}

/// A semaphore register of the EVT_SEM window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SemReg {
    /// SEM_READ\[sem\].
    Read(u8),
    /// SEM_INCR\[sem\].
    Incr(u8),
    /// SEM_DECR\[sem\].
    Decr(u8),
}

/// The semaphore register at EVT_SEM window offset `off`, if it is one.
pub fn sem_reg(off: u32) -> Option<SemReg> {
    use crate::evt_sem::regs::{
        EVT_SEM_NUM_SEM, EVT_SEM_SEM_DECR_BASE, EVT_SEM_SEM_INCR_BASE, EVT_SEM_SEM_READ_BASE,
    };
    let span = EVT_SEM_NUM_SEM * 4;
    let sem = |base: u32| ((off - base) / 4) as u8;
    if off >= EVT_SEM_SEM_DECR_BASE && off < EVT_SEM_SEM_DECR_BASE + span {
        Some(SemReg::Decr(sem(EVT_SEM_SEM_DECR_BASE)))
    } else if off >= EVT_SEM_SEM_INCR_BASE && off < EVT_SEM_SEM_INCR_BASE + span {
        Some(SemReg::Incr(sem(EVT_SEM_SEM_INCR_BASE)))
    } else if off >= EVT_SEM_SEM_READ_BASE && off < EVT_SEM_SEM_READ_BASE + span {
        Some(SemReg::Read(sem(EVT_SEM_SEM_READ_BASE)))
    } else {
        None
    }
}

/// Offset inside a core of UDMA engine `engine`'s CSR `reg`.
pub const fn udma_offset(engine: u8, reg: u32) -> u64 {
    CORE_UDMA_BASE + engine as u64 * CORE_UDMA_STRIDE + reg as u64
}

/// Offset inside a core of per-queue register `reg` of queue `queue`, side
/// `side` (0 M2S / 1 S2M) of UDMA engine `engine` (the queue-register
/// formula is [`crate::udma::regs::q_addr`]).
pub const fn udma_q_offset(engine: u8, side: u8, queue: u8, reg: u32) -> u64 {
    udma_offset(engine, q_addr(side_of(side), queue as u32, reg))
}

/// The UDMA side of a side index (0 M2S / 1 S2M).
pub const fn side_of(side: u8) -> Side {
    if side == 0 {
        Side::M2s
    } else {
        Side::S2m
    }
}

/// Decode a core-relative offset.
pub fn decode_core_offset(off: u64, bytes_per_partition: u32) -> Result<Target, SystemError> {
    let unmapped = Err(SystemError::Unmapped { offset: off });
    if off < CORE_SBUF_BASE + u64::from(SBUF_PARTITIONS) * SBUF_PARTITION_STRIDE {
        let rel = off - CORE_SBUF_BASE;
        let partition = (rel / SBUF_PARTITION_STRIDE) as u8;
        let offset = rel % SBUF_PARTITION_STRIDE;
        if offset >= u64::from(bytes_per_partition) {
            return Err(SystemError::SbufRange {
                partition,
                offset,
                len: 1,
                bytes_per_partition,
            });
        }
        return Ok(Target::Sbuf {
            partition,
            offset: offset as u32,
        });
    }
    if (CORE_EVT_SEM_BASE..CORE_EVT_SEM_BASE + CORE_EVT_SEM_BYTES).contains(&off) {
        return Ok(Target::EvtSem {
            offset: (off - CORE_EVT_SEM_BASE) as u32,
        });
    }
    if (CORE_UDMA_BASE..CORE_UDMA_BASE + u64::from(DMA_ENGINES) * CORE_UDMA_STRIDE).contains(&off) {
        let rel = off - CORE_UDMA_BASE;
        return Ok(Target::Udma {
            engine: (rel / CORE_UDMA_STRIDE) as u8,
            offset: (rel % CORE_UDMA_STRIDE) as u32,
        });
    }
    if (CORE_BCAST_BASE..CORE_BCAST_BASE + CORE_BCAST_BYTES).contains(&off) {
        return Ok(Target::Bcast {
            offset: (off - CORE_BCAST_BASE) as u32,
        });
    }
    if (CORE_DESC_BASE..CORE_DESC_BASE + CORE_DESC_BYTES).contains(&off) {
        return Ok(Target::Desc {
            offset: (off - CORE_DESC_BASE) as u32,
        });
    }
    unmapped
}

/// Which core a routed SoC address `soc`, issued by core `from`, reaches, and
/// the core-relative offset (rule in the module docs).
pub fn route_address(t: &Topology, from: CoreId, soc: u64) -> Result<(CoreId, u64), SystemError> {
    let me = t.loc(from)?;
    let bad = |rule: &'static str| {
        Err(SystemError::Route {
            from: from.0,
            addr: soc,
            rule,
        })
    };
    if soc >> ADDR_RSVD_MID_LSB != 0 {
        return bad("reserved bits [63:55] must be zero");
    }
    let local = LOCAL.get(soc);
    if (local >> ADDR_HOST_BIT) & 1 == 1 {
        return bad("host memory (LOCAL bit 46) is not modeled");
    }
    let die = DIE.get(soc) as u8;
    let package = if ID_VALID.get(soc) == 0 {
        if NEIGHBOR_ROUTE.get(soc) == 1 {
            return bad("a neighbor-device aperture (bit 52 without ID_VALID) is not modeled");
        }
        if CAYMAN_ID.get(soc) != 0 {
            return bad("bits [53:48] must be zero in an un-routed address");
        }
        me.package
    } else if NEIGHBOR_ROUTE.get(soc) == 1 && EXIT_DIE.get(soc) == 1 {
        // Neighbor view: the other die of this package; [49:48] and PEB reserved.
        if soc >> 48 & 0b11 != 0 || soc >> 53 & 1 != 0 {
            return bad("neighbor view: [49:48] and PEB [53] must be zero");
        }
        if die == me.die {
            return bad("neighbor view: EXIT_DIE set but DIE names the issuing die");
        }
        me.package
    } else {
        let id = CAYMAN_ID.get(soc) as u8;
        match t.package_of_routing_id(id) {
            Some(p) => p,
            None => return bad("chip-id view: CAYMAN_ID names no routing id of the topology"),
        }
    };
    let core_in_die = local / CORE_STRIDE;
    if core_in_die >= u64::from(t.cores_per_die) {
        return bad("LOCAL names a core beyond cores_per_die");
    }
    let core = t
        .core_at(CoreLoc {
            package,
            die,
            core: core_in_die as u8,
        })
        .ok_or(SystemError::Route {
            from: from.0,
            addr: soc,
            rule: "no such core",
        })?;
    Ok((core, local % CORE_STRIDE))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The fabric decoders never panic: any 64-bit address gives a
        /// (core, offset) or a typed error, and any offset a target or an error.
        #[test]
        fn route_and_decode_never_panic(soc: u64, off: u64, from in 0u16..16) {
            let t = Topology { chip_ids: vec![0, 0x12], ..Topology::trn2(2) };
            if let Ok((c, o)) = route_address(&t, CoreId(from), soc) {
                prop_assert!(usize::from(c.0) < t.num_cores());
                prop_assert!(o < CORE_STRIDE);
                let _ = decode_core_offset(o, t.sbuf_bytes_per_partition);
            }
            let _ = decode_core_offset(off, t.sbuf_bytes_per_partition);
        }
    }

    #[test]
    fn decode_core_offset_covers_every_region() {
        let bpp = 224 * 1024;
        assert_eq!(
            decode_core_offset(sbuf_offset(3, 17), bpp).unwrap(),
            Target::Sbuf {
                partition: 3,
                offset: 17
            }
        );
        assert!(matches!(
            decode_core_offset(sbuf_offset(3, u64::from(bpp)), bpp),
            Err(SystemError::SbufRange { partition: 3, .. })
        ));
        assert_eq!(
            decode_core_offset(sem_incr_offset(20), bpp).unwrap(),
            Target::EvtSem {
                offset: 0x1800 + 80
            }
        );
        // Between the EVT_SEM window and the UDMA engines nothing is
        // mapped (the Q7 port answers SLVERR there).
        assert!(matches!(
            decode_core_offset(0x1001_0008, bpp),
            Err(SystemError::Unmapped {
                offset: 0x1001_0008
            })
        ));
        assert_eq!(
            decode_core_offset(udma_offset(15, 0x2_1038), bpp).unwrap(),
            Target::Udma {
                engine: 15,
                offset: 0x2_1038
            }
        );
        assert_eq!(
            decode_core_offset(0x1201_0000, bpp).unwrap(),
            Target::Desc { offset: 0x1_0000 }
        );
        // S2M queue 3 RTP_INC of engine 2: 0x1100_0000 + 2·0x4_0000 + 0x2_0000 + 0x1000 + 3·0x1000 + 0x38.
        assert_eq!(udma_q_offset(2, 1, 3, 0x38), 0x1108_0000 + 0x2_4038);
        assert_eq!(
            (sem_read_offset(7), sem_decr_offset(7)),
            (0x1000_101C, 0x1000_1C1C)
        );
        // PUBLIC-FACTS §2 / seed 001 §5.1 window: READ 0x1000, INCR 0x1800, DECR 0x1C00.
        assert_eq!(sem_reg(0x1000 + 4 * 255), Some(SemReg::Read(255)));
        assert_eq!(sem_reg(0x1830), Some(SemReg::Incr(12)));
        assert_eq!(sem_reg(0x1C00), Some(SemReg::Decr(0)));
        assert_eq!(sem_reg(0x1400), None);
        assert_eq!(sem_reg(0x0FFC), None);
        assert!(matches!(
            decode_core_offset(0x1300_0000 + CORE_DESC_BYTES, bpp),
            Err(SystemError::Unmapped { .. })
        ));
    }

    #[test]
    fn route_address_finds_the_core_a_fold_names() {
        let t = Topology {
            chip_ids: vec![0, 0x12],
            ..Topology::trn2(2)
        };
        for from in 0..t.num_cores() as u16 {
            for to in 0..t.num_cores() as u16 {
                let (from, to) = (CoreId(from), CoreId(to));
                let loc = t.loc(to).unwrap();
                let off = sem_incr_offset(7);
                let soc = t.fold(from, to, core_local(loc.core, off)).unwrap();
                assert_eq!(
                    route_address(&t, from, soc).unwrap(),
                    (to, off),
                    "{from} -> {to}: {soc:#x}"
                );
            }
        }
    }

    #[test]
    fn route_address_rejects_unknown_chips_and_reserved_bits() {
        let t = Topology::trn2(1);
        let far = crate::addr::fold_chip_id(0, 0, 9).unwrap();
        assert!(matches!(
            route_address(&t, CoreId(0), far),
            Err(SystemError::Route { .. })
        ));
        assert!(route_address(&t, CoreId(0), 1u64 << 60).is_err());
        assert!(route_address(&t, CoreId(0), 1u64 << 46).is_err());
        assert!(route_address(&t, CoreId(0), 7 * CORE_STRIDE).is_err());
    }
}
