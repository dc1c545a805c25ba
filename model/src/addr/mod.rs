//! CAYMAN SoC address codec (seed 001 §2, ARCHITECTURE §2, PUBLIC-FACTS §3).
//!
//! A routed SoC address is a 64-bit word read through one of two views that
//! share the low 48 bits and bit 54 (seed 001 §2.1/§2.2, HIGH/OBSERVED):
//!
//! | bits      | chip-id view     | neighbor view       |
//! |-----------|------------------|---------------------|
//! | `[46:0]`  | LOCAL            | LOCAL               |
//! | `[47]`    | DIE              | DIE                 |
//! | `[49:48]` | `CAYMAN_ID[1:0]` | reserved            |
//! | `[50]`    | `CAYMAN_ID[2]`   | EXIT_SENG           |
//! | `[51]`    | `CAYMAN_ID[3]`   | EXIT_DIE            |
//! | `[52]`    | `CAYMAN_ID[4]`   | NEIGHBOR_ROUTE      |
//! | `[53]`    | `CAYMAN_ID[5]`   | PEB                 |
//! | `[54]`    | CAYMAN_ID_VALID  | ID_VALID (same bit) |
//! | `[56:55]` | reserved         | reserved            |
//! | `[63:57]` | reserved         | reserved            |
//!
//! Submodules: [`fields`] (GET/SET per field, the two views), [`fold`]
//! (`fold_chip_id`, `fold_neighbor`), [`route`] (decode with reserved-bit
//! reporting and route classification), [`window`] (the program_window
//! remapper). Field positions are declared once below and exported to
//! `rtl/sb2sb_pkg.sv`.

pub mod fields;
pub mod fold;
pub mod route;
pub mod window;

#[cfg(test)]
mod props;

pub use fields::{Field, LocalView, NeighborView};
pub use fold::{fold_chip_id, fold_neighbor};
pub use route::{classify, decode, Decoded, ReservedBits, Route, SelfId, View};
pub use window::{Window, WindowRemapper, NUM_WINDOWS};

crate::sv_consts! {
    /// LOCAL `[46:0]`: byte offset inside the target die (both views).
    ADDR_LOCAL_LSB: u32 [6] = 0;
    /// Width of LOCAL.
    ADDR_LOCAL_W: u32 [6] = 47;
    /// DIE `[47]`: die of the target inside its package (both views).
    ADDR_DIE_BIT: u32 [6] = 47;
    /// CAYMAN_ID `[53:48]` (chip-id view): target chip in the 64-die mesh.
    ADDR_CAYMAN_ID_LSB: u32 [6] = 48;
    /// Width of CAYMAN_ID.
    ADDR_CAYMAN_ID_W: u32 [6] = 6;
    /// CAYMAN_ID_VALID / ID_VALID `[54]`: the routing id is valid (same bit in both views).
    ADDR_ID_VALID_BIT: u32 [6] = 54;
    /// EXIT_SENG `[50]` (neighbor view; position inferred, PUBLIC-FACTS §3).
    ADDR_EXIT_SENG_BIT: u32 [6] = 50;
    /// EXIT_DIE `[51]` (neighbor view): cross the die boundary.
    ADDR_EXIT_DIE_BIT: u32 [6] = 51;
    /// NEIGHBOR_ROUTE `[52]` (neighbor view): engage neighbor routing.
    ADDR_NEIGHBOR_ROUTE_BIT: u32 [6] = 52;
    /// PEB `[53]` (neighbor view; position inferred).
    ADDR_PEB_BIT: u32 [6] = 53;
    /// Reserved `[49:48]` in the neighbor view.
    ADDR_RSVD_NBR_LSB: u32 [6] = 48;
    /// Width of the neighbor-view reserved field.
    ADDR_RSVD_NBR_W: u32 [6] = 2;
    /// Reserved `[56:55]` in both views.
    ADDR_RSVD_MID_LSB: u32 [6] = 55;
    /// Width of the `[56:55]` reserved field.
    ADDR_RSVD_MID_W: u32 [6] = 2;
    /// Reserved `[63:57]` in both views.
    ADDR_RSVD_HI_LSB: u32 [6] = 57;
    /// Width of the `[63:57]` reserved field.
    ADDR_RSVD_HI_W: u32 [6] = 7;
    /// Host memory (PCIe A0) aperture bit inside LOCAL (PUBLIC-FACTS §3).
    ADDR_HOST_BIT: u32 [6] = 46;
    /// Width of a route code.
    ROUTE_W: u32 [6] = 3;
    /// Route: the target is this core's own die.
    ROUTE_SAME_DIE: u8 [3] = 0;
    /// Route: the other die of this package (io_d2d).
    ROUTE_OTHER_DIE: u8 [3] = 1;
    /// Route: another chip, addressed by CAYMAN_ID.
    ROUTE_OTHER_CHIP: u8 [3] = 2;
    /// Route: a neighbor device aperture (PCIe B0_n).
    ROUTE_NEIGHBOR_DEVICE: u8 [3] = 3;
    /// Route: host memory (PCIe A0).
    ROUTE_HOST: u8 [3] = 4;
    /// Width of the decoder op code.
    ADDR_OP_W: u32 [6] = 2;
    /// Decoder op: decode `addr_i`.
    ADDR_OP_DECODE: u8 [2] = 0;
    /// Decoder op: fold_chip_id(local_i, die_i, chip_id_i).
    ADDR_OP_FOLD_CHIP: u8 [2] = 1;
    /// Decoder op: fold_neighbor(local_i, die_i, exit_seng_i).
    ADDR_OP_FOLD_NEIGHBOR: u8 [2] = 2;
}

/// Errors of the address codec. Each names the field, its bit position and
/// the rule it breaks.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AddrError {
    /// A field value does not fit the field's width.
    #[error("field {field} [{msb}:{lsb}]: value {value:#x} exceeds the field width of {width} bit(s) (maximum {max:#x})")]
    FieldRange {
        field: &'static str,
        msb: u32,
        lsb: u32,
        width: u32,
        value: u64,
        max: u64,
    },
    /// Reserved bits are set where the strict decode requires zero.
    #[error("reserved bits {field} [{msb}:{lsb}] must be zero, found {value:#x}")]
    Reserved {
        field: &'static str,
        msb: u32,
        lsb: u32,
        value: u64,
    },
    /// A Q7-local address matched no valid window.
    #[error("program_window: xt_addr {xt_addr:#010x} matches no valid window (of {NUM_WINDOWS})")]
    WindowMiss { xt_addr: u32 },
    /// A window number outside 0..16.
    #[error("program_window: window number {num} out of range (0..{NUM_WINDOWS})")]
    WindowIndex { num: usize },
    /// `update_window` on a window that was never programmed (vld = 0).
    #[error("update_window: window {num} is not valid (program_window it first)")]
    WindowNotValid { num: usize },
    /// A window programmed with inconsistent values.
    #[error("program_window {num}: {field} = {value:#x}: {rule}")]
    WindowConfig {
        num: usize,
        field: &'static str,
        value: u64,
        rule: &'static str,
    },
}
