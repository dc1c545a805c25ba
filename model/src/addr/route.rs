//! Decode with reserved-bit reporting, and route classification.
//!
//! # Route rule (project-defined, docs/address.md)
//!
//! The address alone does not say which view it was built with (seed 001
//! §2.2 GOTCHA: the two headers are alternative views of bits `[53:48]`), so a
//! route is classified under a chosen [`View`], relative to this core's own
//! die and chip id ([`SelfId`]):
//!
//! 1. ID_VALID `[54]` = 0 (an un-routed physical address, PUBLIC-FACTS §3):
//!    bit 52 set → [`Route::NeighborDevice`] (PCIe B0_n aperture, selector
//!    `[51:50]`); else bit 46 set → [`Route::Host`] (PCIe A0); else DIE equal to
//!    this die → [`Route::SameDie`], otherwise [`Route::OtherDie`].
//! 2. ID_VALID = 1, chip-id view: CAYMAN_ID ≠ this chip → [`Route::OtherChip`];
//!    otherwise bit 46 → Host, else by DIE as in 1.
//! 3. ID_VALID = 1, neighbor view: NEIGHBOR_ROUTE = 1 and EXIT_DIE = 1 →
//!    [`Route::OtherDie`] (the seed 001 §8 same-package hop over io_d2d);
//!    NEIGHBOR_ROUTE = 1 and EXIT_DIE = 0 → [`Route::NeighborDevice`];
//!    NEIGHBOR_ROUTE = 0 → bit 46 → Host, else by DIE as in 1.
//!
//! Reserved bits never change the route; they are reported beside it.

use super::fields::{
    LocalView, NeighborView, CAYMAN_ID, DIE, EXIT_DIE, ID_VALID, NEIGHBOR_ROUTE, RSVD_HI, RSVD_MID,
    RSVD_NBR,
};
use super::*;

/// Which header's view to read bits `[53:48]` with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum View {
    /// `cayman_addr_decode.h`: CAYMAN_ID `[53:48]`.
    ChipId,
    /// `cayman_addr_decode_neighbor.h`: EXIT_SENG/EXIT_DIE/NEIGHBOR_ROUTE/PEB.
    Neighbor,
}

/// The classifying core's own position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SelfId {
    /// This core's die (0 or 1).
    pub die: u8,
    /// This core's chip id (0..64).
    pub chip_id: u8,
}

/// Where an access goes, seen from [`SelfId`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Route {
    SameDie,
    OtherDie,
    OtherChip,
    NeighborDevice,
    Host,
}

impl Route {
    /// Every route, in code order.
    pub const ALL: [Route; 5] = [
        Route::SameDie,
        Route::OtherDie,
        Route::OtherChip,
        Route::NeighborDevice,
        Route::Host,
    ];

    /// The 3-bit code on `route_*_o` (`sb2sb_pkg::ROUTE_*`).
    pub const fn code(self) -> u8 {
        match self {
            Route::SameDie => ROUTE_SAME_DIE,
            Route::OtherDie => ROUTE_OTHER_DIE,
            Route::OtherChip => ROUTE_OTHER_CHIP,
            Route::NeighborDevice => ROUTE_NEIGHBOR_DEVICE,
            Route::Host => ROUTE_HOST,
        }
    }
    /// Route from its code, `None` for unused codes.
    pub fn from_code(c: u64) -> Option<Route> {
        Route::ALL.into_iter().find(|r| u64::from(r.code()) == c)
    }
    /// Stable lower-case name (CLI, JSON, coverage counters).
    pub const fn name(self) -> &'static str {
        match self {
            Route::SameDie => "same_die",
            Route::OtherDie => "other_die",
            Route::OtherChip => "other_chip",
            Route::NeighborDevice => "neighbor_device",
            Route::Host => "host",
        }
    }
}

/// Classify `a` under `view` relative to `me` (rule in the module docs).
#[inline(always)]
pub const fn classify(a: u64, view: View, me: SelfId) -> Route {
    let host = (a >> ADDR_HOST_BIT) & 1 == 1;
    let die_route = if DIE.get(a) == me.die as u64 & 1 {
        Route::SameDie
    } else {
        Route::OtherDie
    };
    let local_route = if host { Route::Host } else { die_route };
    if ID_VALID.get(a) == 0 {
        if NEIGHBOR_ROUTE.get(a) == 1 {
            return Route::NeighborDevice;
        }
        return local_route;
    }
    match view {
        View::ChipId => {
            if CAYMAN_ID.get(a) != CAYMAN_ID.mask() & me.chip_id as u64 {
                Route::OtherChip
            } else {
                local_route
            }
        }
        View::Neighbor => {
            if NEIGHBOR_ROUTE.get(a) == 1 {
                if EXIT_DIE.get(a) == 1 {
                    Route::OtherDie
                } else {
                    Route::NeighborDevice
                }
            } else {
                local_route
            }
        }
    }
}

/// Values of the reserved fields of an address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub struct ReservedBits {
    /// `[49:48]`, reserved in the neighbor view only.
    pub nbr_49_48: u8,
    /// `[56:55]`, reserved in both views.
    pub mid_56_55: u8,
    /// `[63:57]`, reserved in both views.
    pub hi_63_57: u8,
}

impl ReservedBits {
    /// Reserved fields of `a`.
    pub const fn of(a: u64) -> Self {
        Self {
            nbr_49_48: RSVD_NBR.get(a) as u8,
            mid_56_55: RSVD_MID.get(a) as u8,
            hi_63_57: RSVD_HI.get(a) as u8,
        }
    }
    /// First reserved field set under `view`, as an error.
    pub fn check(&self, view: View) -> Result<(), AddrError> {
        let mut fields = vec![(RSVD_MID, self.mid_56_55), (RSVD_HI, self.hi_63_57)];
        if view == View::Neighbor {
            fields.insert(0, (RSVD_NBR, self.nbr_49_48));
        }
        for (f, v) in fields {
            if v != 0 {
                return Err(AddrError::Reserved {
                    field: f.name,
                    msb: f.msb(),
                    lsb: f.lsb,
                    value: v.into(),
                });
            }
        }
        Ok(())
    }
}

/// An address decoded through both views.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Decoded {
    /// The raw address.
    pub addr: u64,
    /// Chip-id view.
    pub local_view: LocalView,
    /// Neighbor view.
    pub neighbor_view: NeighborView,
    /// Reserved fields (reported, never an error in [`decode`]).
    pub reserved: ReservedBits,
}

/// Decode any 64-bit value through both views; never fails, never panics.
pub const fn decode(a: u64) -> Decoded {
    Decoded {
        addr: a,
        local_view: LocalView::from_addr(a),
        neighbor_view: NeighborView::from_addr(a),
        reserved: ReservedBits::of(a),
    }
}

/// Strict decode under `view`: error if a reserved field of that view is set.
pub fn decode_strict(a: u64, view: View) -> Result<Decoded, AddrError> {
    let d = decode(a);
    d.reserved.check(view)?;
    Ok(d)
}

impl Decoded {
    /// Route of this address under `view` (see [`classify`]).
    pub const fn route(&self, view: View, me: SelfId) -> Route {
        classify(self.addr, view, me)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::addr::fold::{fold_chip_id, fold_neighbor};

    const ME: SelfId = SelfId { die: 0, chip_id: 5 };

    #[test]
    fn seed001_s8_worked_example_routes_to_other_die_in_neighbor_view() {
        let a = fold_neighbor(0x10_0000, 1, 0).unwrap();
        assert_eq!(classify(a, View::Neighbor, ME), Route::OtherDie);
        // Read as a chip-id view the same bits name chip 0x18, another chip.
        assert_eq!(decode(a).local_view.cayman_id, 0x18);
        assert_eq!(classify(a, View::ChipId, ME), Route::OtherChip);
    }

    #[test]
    fn chip_id_fold_routes_by_chip_id() {
        let other = fold_chip_id(0x10_0000, 1, 0x12).unwrap();
        assert_eq!(classify(other, View::ChipId, ME), Route::OtherChip);
        let mine_same = fold_chip_id(0x10_0000, 0, 5).unwrap();
        assert_eq!(classify(mine_same, View::ChipId, ME), Route::SameDie);
        let mine_other = fold_chip_id(0x10_0000, 1, 5).unwrap();
        assert_eq!(classify(mine_other, View::ChipId, ME), Route::OtherDie);
        let mine_host = fold_chip_id(1u64 << 46, 0, 5).unwrap();
        assert_eq!(classify(mine_host, View::ChipId, ME), Route::Host);
    }

    /// PUBLIC-FACTS §3 (aws-neuron-driver v3/address_map.h): the die bit 47,
    /// host memory (PCIe A0) at bit 46, neighbor apertures at bit 52 | n << 50.
    #[test]
    fn public_facts_s3_unrouted_apertures() {
        for v in [View::ChipId, View::Neighbor] {
            assert_eq!(classify(1u64 << 46, v, ME), Route::Host);
            assert_eq!(classify(1u64 << 47, v, ME), Route::OtherDie);
            assert_eq!(classify(0x1000, v, ME), Route::SameDie);
            for n in 0..4u64 {
                assert_eq!(
                    classify(0x0010_0000_0000_0000 | n << 50, v, ME),
                    Route::NeighborDevice
                );
            }
        }
    }

    #[test]
    fn neighbor_route_without_exit_die_is_neighbor_device() {
        let a = (1u64 << 54) | (1u64 << 52);
        assert_eq!(classify(a, View::Neighbor, ME), Route::NeighborDevice);
    }

    #[test]
    fn route_codes_are_distinct_and_round_trip() {
        for r in Route::ALL {
            assert_eq!(Route::from_code(r.code().into()), Some(r));
        }
        assert_eq!(Route::from_code(7), None);
    }

    #[test]
    fn decode_reports_reserved_fields_without_failing() {
        let a = (0b11u64 << 48) | (0b10u64 << 55) | (0x7Fu64 << 57);
        let d = decode(a);
        assert_eq!(
            d.reserved,
            ReservedBits {
                nbr_49_48: 3,
                mid_56_55: 2,
                hi_63_57: 0x7F
            }
        );
        let e = decode_strict(a, View::Neighbor).unwrap_err();
        assert_eq!(
            e,
            AddrError::Reserved {
                field: "RSVD[49:48]",
                msb: 49,
                lsb: 48,
                value: 3
            }
        );
        let e = decode_strict(a, View::ChipId).unwrap_err();
        assert_eq!(
            e,
            AddrError::Reserved {
                field: "RSVD[56:55]",
                msb: 56,
                lsb: 55,
                value: 2
            }
        );
        // [49:48] is CAYMAN_ID in the chip-id view, not reserved.
        assert!(decode_strict(0b11u64 << 48, View::ChipId).is_ok());
        let e = decode_strict(1u64 << 62, View::ChipId).unwrap_err();
        assert!(e.to_string().contains("RSVD[63:57] [63:57]"), "{e}");
    }
}
