//! UDMA M2S/S2M queue engine (owner: UDMA work). Placeholder.
pub mod regs;
