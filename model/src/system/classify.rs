//! The device-side peer classifier of seed 001 §2.4 and the pre-sync record.
//!
//! `remote_copy.cpp` logs `P%i: engine_base_addr=%llx tpb_base_addr=%llx ->
//! is_tpb=%u is_die_0=%u engine_idx=%u` (HIGH/OBSERVED log; the bit-extract
//! body MED): `is_die_0` is the DIE bit `[47]` of the peer base, `engine_idx`
//! which engine, `is_tpb` whether the base is a TPB SBUF aperture. The Q7 uses
//! it to tell a local-die from a cross-die peer and so to pick the §2.3 fold
//! mode; whether the peer is in another package is host-topology-decided
//! (§7), so [`Topology::fold_mode_of_class`] combines the two.
//!
//! Project-defined readings (docs/decisions.md): the host hands the Q7 the
//! peer's un-routed die-local bases — `engine_base_addr` = DIE `[47]` | the
//! peer's first UDMA engine CSR block, `tpb_base_addr` = DIE `[47]` | the peer's
//! SBUF aperture ([`Topology::peer_bases`]); `engine_idx` is the global index
//! of the core (TPB) the engine base names (the §8 example prints
//! `engine_idx=7` for peer core 7).

use crate::addr::fields::{DIE, LOCAL};

use super::map::{self, Target};
use super::topology::{CoreId, CoreLoc, FoldMode, Topology};
use super::SystemError;

/// What the classifier reports for a peer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct PeerClass {
    /// `engine_base_addr` given to the classifier.
    pub engine_base_addr: u64,
    /// `tpb_base_addr` given to the classifier.
    pub tpb_base_addr: u64,
    /// The TPB base names a core's SBUF aperture.
    pub is_tpb: bool,
    /// DIE bit `[47]` of the peer base is 0.
    pub is_die_0: bool,
    /// Global index of the core the engine base names.
    pub engine_idx: u32,
}

impl PeerClass {
    /// The firmware's log line (seed 001 §2.4, DRAM 0x0f98), for Q7 `prid`.
    pub fn log(&self, prid: u32) -> String {
        format!(
            "P{prid}: engine_base_addr={:x} tpb_base_addr={:x} -> is_tpb={} is_die_0={} engine_idx={}",
            self.engine_base_addr,
            self.tpb_base_addr,
            u8::from(self.is_tpb),
            u8::from(self.is_die_0),
            self.engine_idx
        )
    }
}

/// The pre-sync record (seed 001 §2.5, DRAM 0x0c3e: `remote_pool_xt_addr=0x%x,
/// remote_q7_xt_addr=0x%x, sb2sb_ready_to_receive_remote=0x%x`): the two
/// programmed window views and the ready flag, as the RX Q7 leaves them after
/// `program_window`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct PreSync {
    /// Q7-local view of the first engine's window (project reading: the pool view).
    pub remote_pool_xt_addr: u32,
    /// Q7-local view of the last engine's window (project reading: the Q7 view).
    pub remote_q7_xt_addr: u32,
    /// `sb2sb_ready_to_receive_remote`: 1 once the RX windows are programmed
    /// and until the RX start arms the S2M ring.
    pub sb2sb_ready_to_receive_remote: u32,
}

impl PreSync {
    /// The firmware's log line.
    pub fn log(&self) -> String {
        format!(
            "remote_pool_xt_addr=0x{:x}, remote_q7_xt_addr=0x{:x}, sb2sb_ready_to_receive_remote=0x{:x}",
            self.remote_pool_xt_addr, self.remote_q7_xt_addr, self.sb2sb_ready_to_receive_remote
        )
    }
}

impl Topology {
    /// The un-routed bases the host gives a Q7 for peer core `peer`:
    /// (`engine_base_addr`, `tpb_base_addr`).
    pub fn peer_bases(&self, peer: CoreId) -> Result<(u64, u64), SystemError> {
        let l = self.loc(peer)?;
        let at = |off: u64| -> Result<u64, SystemError> {
            Ok(DIE.set(LOCAL.set(0, map::core_local(l.core, off))?, l.die.into())?)
        };
        Ok((at(map::CORE_UDMA_BASE)?, at(map::CORE_SBUF_BASE)?))
    }

    /// The §2.4 classifier run by a Q7 of core `from` on the two bases.
    pub fn classify_peer(
        &self,
        from: CoreId,
        engine_base_addr: u64,
        tpb_base_addr: u64,
    ) -> Result<PeerClass, SystemError> {
        let me = self.loc(from)?;
        let core_of = |a: u64| -> Result<CoreId, SystemError> {
            let local = LOCAL.get(a);
            self.core_at(CoreLoc {
                package: me.package,
                die: DIE.get(a) as u8,
                core: (local / map::CORE_STRIDE).min(255) as u8,
            })
            .ok_or(SystemError::Route {
                from: from.0,
                addr: a,
                rule: "classifier: the base names no core of this package",
            })
        };
        let engine = core_of(engine_base_addr)?;
        let tpb_core = core_of(tpb_base_addr)?;
        let is_tpb = tpb_core == engine
            && matches!(
                map::decode_core_offset(
                    LOCAL.get(tpb_base_addr) % map::CORE_STRIDE,
                    self.sbuf_bytes_per_partition
                ),
                Ok(Target::Sbuf { .. })
            );
        Ok(PeerClass {
            engine_base_addr,
            tpb_base_addr,
            is_tpb,
            is_die_0: DIE.get(engine_base_addr) == 0,
            engine_idx: engine.0.into(),
        })
    }

    /// The fold mode a Q7 of `from` picks for peer `to` from its classifier
    /// output (cross-die iff `is_die_0` differs from its own die) and the host
    /// topology (another package → chip-id fold). Refuses a base that is not a
    /// TPB or names another core than `to`.
    pub fn fold_mode_of_class(
        &self,
        from: CoreId,
        to: CoreId,
        c: &PeerClass,
    ) -> Result<FoldMode, SystemError> {
        let (a, b) = (self.loc(from)?, self.loc(to)?);
        if !c.is_tpb {
            return Err(SystemError::Route {
                from: from.0,
                addr: c.tpb_base_addr,
                rule: "classifier: the peer base is not a TPB SBUF aperture",
            });
        }
        if a.package != b.package {
            return Ok(FoldMode::ChipId);
        }
        if c.engine_idx != u32::from(to.0) {
            return Err(SystemError::Route {
                from: from.0,
                addr: c.engine_base_addr,
                rule: "classifier: engine_idx names another core than the peer",
            });
        }
        Ok(if c.is_die_0 == (a.die == 0) {
            FoldMode::Local
        } else {
            FoldMode::Neighbor
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed001_s2_4_classifier_of_the_s8_peer_is_die_1_engine_7_cross_die() {
        // §8: "die-decode (§2.4): is_die_0(peer)=0, engine_idx=7 -> cross-die -> NEIGHBOR fold mode".
        let t = Topology::default();
        let (eb, tb) = t.peer_bases(CoreId(7)).unwrap();
        assert_eq!(eb >> 47 & 1, 1, "DIE bit of the peer base");
        assert_eq!(eb, 1 << 47 | 3 << 32 | map::CORE_UDMA_BASE);
        assert_eq!(tb, 1 << 47 | 3 << 32);
        let c = t.classify_peer(CoreId(3), eb, tb).unwrap();
        assert!(c.is_tpb);
        assert!(!c.is_die_0);
        assert_eq!(c.engine_idx, 7);
        assert_eq!(
            t.fold_mode_of_class(CoreId(3), CoreId(7), &c).unwrap(),
            FoldMode::Neighbor
        );
        assert_eq!(
            c.log(7),
            format!("P7: engine_base_addr={eb:x} tpb_base_addr={tb:x} -> is_tpb=1 is_die_0=0 engine_idx=7")
        );
        // Same die: is_die_0 = 1 seen from die 0 → local.
        let (eb, tb) = t.peer_bases(CoreId(2)).unwrap();
        let c = t.classify_peer(CoreId(3), eb, tb).unwrap();
        assert!(c.is_die_0 && c.is_tpb && c.engine_idx == 2);
        assert_eq!(
            t.fold_mode_of_class(CoreId(3), CoreId(2), &c).unwrap(),
            FoldMode::Local
        );
        // The same peer seen from die 1 (core 5): is_die_0 = 0 equals own die → local.
        let (eb, tb) = t.peer_bases(CoreId(7)).unwrap();
        let c = t.classify_peer(CoreId(5), eb, tb).unwrap();
        assert_eq!(
            t.fold_mode_of_class(CoreId(5), CoreId(7), &c).unwrap(),
            FoldMode::Local
        );
        // A base that is not an SBUF aperture is not a TPB.
        let c = t.classify_peer(CoreId(3), eb, eb).unwrap();
        assert!(!c.is_tpb);
        assert!(t.fold_mode_of_class(CoreId(3), CoreId(7), &c).is_err());
        // Every pair of the default topology: the classifier's mode is the topology's.
        for f in 0..8u16 {
            for p in (0..8u16).filter(|&p| p != f) {
                let (eb, tb) = t.peer_bases(CoreId(p)).unwrap();
                let c = t.classify_peer(CoreId(f), eb, tb).unwrap();
                assert_eq!(c.is_die_0, p < 4);
                assert_eq!(c.engine_idx, u32::from(p));
                assert_eq!(
                    t.fold_mode_of_class(CoreId(f), CoreId(p), &c).unwrap(),
                    t.fold_mode(CoreId(f), CoreId(p)).unwrap()
                );
            }
        }
    }
}
