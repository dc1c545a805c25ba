//! UDMA M2S/S2M queue engine: registers, descriptors, golden cycle model and
//! its testbench environment.
//!
//! See `docs/udma.md` for the theory of operation, the FSMs and the register map.
pub mod desc;
pub mod engine;
pub mod m2s;
pub mod mem;
pub mod regfile;
pub mod regs;
pub mod s2m;
pub mod stim;

pub use engine::{Udma, UdmaFault, UdmaIn, UdmaOut, BLOCK};
pub use stim::UdmaStim;

#[cfg(test)]
mod tests;
