//! Subcommands. Each `run` returns the process exit code on success; errors
//! are printed by `main` as one line on stderr with exit code 2.

pub mod addr;
pub mod cosim;
pub mod cov_credit;
pub mod coverage;
pub mod csr;
pub mod isa;
pub mod leg;
pub mod nccom;
pub mod regress;
pub mod run;
pub mod timeline;
pub mod topo;
