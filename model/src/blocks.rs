//! Registry of lockstep blocks: golden model ↔ RTL top.
//!
//! `build.rs` verilates exactly the blocks listed here and generates a C++
//! shim per block from its port lists, so a block joins the Verilator build
//! (and `sb2sb cosim`) by adding its [`BlockDesc`] to [`BLOCKS`].

use crate::ports::BlockDesc;

/// Every block with a golden model and an RTL top.
pub const BLOCKS: &[BlockDesc] = &[
    crate::decoder::BLOCK,
    crate::evt_sem::BLOCK,
    crate::udma::BLOCK,
    crate::udma::BLOCK_W32,
    crate::udma::BLOCK_W128,
    crate::udma::BLOCK_W256,
    crate::pair::BLOCK,
    crate::pair::system::BLOCK,
];

/// Blocks verilated for RTL-only runs (no lockstep arm, not in `cosim
/// --block all`, not in coverage or assertion builds): the pair at the
/// seed's size for `sb2sb run sendrecv --mode rtl`.
pub const RTL_ONLY: &[BlockDesc] = &[crate::pair::BLOCK_SEED];

/// RTL-only blocks built only when `SB2SB_BLOCKS` names them (e.g.
/// `SB2SB_BLOCKS=all,leg_seed16`): the 16-engine seed-size pair, and the
/// system top that runs collectives (`system_coll`, `sb2sb nccom --mode rtl`).
pub const RTL_OPT_IN: &[BlockDesc] = &[crate::pair::BLOCK_SEED16, crate::pair::system::BLOCK_COLL];

/// Lockstep blocks built only when `SB2SB_BLOCKS` names them (e.g.
/// `SB2SB_BLOCKS=all,system_2pkg`) and run only when asked for by name
/// (`sb2sb cosim --block system_2pkg`; not in `--block all`, regress or
/// coverage): the system top on its two-package placement, a second
/// Verilated build of the longest lockstep top; the pair with the system's
/// 16 engines per core (`leg16`), whose Verilation and C++ build cost
/// several times that of the 4-engine `leg`.
pub const LOCKSTEP_OPT_IN: &[BlockDesc] =
    &[crate::pair::system::BLOCK_2PKG, crate::pair::BLOCK_LEG16];

/// Look a block up by its CLI name.
pub fn find(name: &str) -> Option<&'static BlockDesc> {
    BLOCKS
        .iter()
        .chain(LOCKSTEP_OPT_IN)
        .find(|b| b.name == name)
}
