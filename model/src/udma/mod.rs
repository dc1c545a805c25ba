//! UDMA M2S/S2M queue engine: registers, descriptors, golden cycle model and
//! its testbench environment.
//!
//! See `docs/udma.md` for the theory of operation, the FSMs and the register map.
pub mod beat;
pub mod csr;
pub mod desc;
pub mod engine;
pub mod fault;
pub mod fetch;
pub mod m2s;
pub mod mem;
pub mod pf;
pub mod regfile;
pub mod regs;
pub mod s2m;
pub mod stim;

pub use engine::{
    PinsIn, PinsOut, Udma, UdmaEngine, UdmaIn, UdmaOut, UdmaW128In, UdmaW128Out, UdmaW256In,
    UdmaW256Out, UdmaW32In, UdmaW32Out, UdmaWidth, BLOCK, BLOCK_W128, BLOCK_W256, BLOCK_W32, W128,
    W256, W32, W64,
};
pub use fault::{FaultyUdma, UdmaFault};
pub use stim::{UdmaEnv, UdmaStim};

#[cfg(test)]
mod tests;
