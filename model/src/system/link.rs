//! Link classes and the unit of modeled time. The timing of each class
//! (fabric latency in the cycle model, the derived data-path rows of fast
//! mode) lives in [`super::timing`] and [`super::cycle::link_latency`].

use crate::addr::Route;

/// Modeled time in picoseconds (one definition, [`crate::trace::Ps`]).
pub use crate::trace::Ps;

/// The three transport classes of seed 001 §3.4 as the model sees them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkClass {
    /// On-die fabric (source and destination on one die).
    OnDie,
    /// io_d2d: the other die of the same package (DWC-PCIe over XSR, seed 001 §3.1).
    D2d,
    /// Chip-to-chip (another package, CAYMAN_ID routed).
    C2c,
}

impl LinkClass {
    /// Link class of a route.
    pub const fn of(r: Route) -> Self {
        match r {
            Route::SameDie => LinkClass::OnDie,
            Route::OtherDie => LinkClass::D2d,
            Route::OtherChip | Route::NeighborDevice | Route::Host => LinkClass::C2c,
        }
    }
    /// Stable name.
    pub const fn name(self) -> &'static str {
        match self {
            LinkClass::OnDie => "on_die",
            LinkClass::D2d => "io_d2d",
            LinkClass::C2c => "c2c",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_map_to_the_three_classes() {
        assert_eq!(LinkClass::of(Route::SameDie), LinkClass::OnDie);
        assert_eq!(LinkClass::of(Route::OtherDie), LinkClass::D2d);
        assert_eq!(LinkClass::of(Route::OtherChip), LinkClass::C2c);
        assert_eq!(LinkClass::D2d.name(), "io_d2d");
    }
}
