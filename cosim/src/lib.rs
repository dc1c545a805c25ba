//! `sb2sb`: the lockstep co-simulation harness (golden Rust models against
//! Verilated RTL through a `cxx` bridge) and the CLI.

pub mod cli;
