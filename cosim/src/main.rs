//! `sb2sb` command-line tool. Each subcommand lives in `cosim/src/cli/<name>.rs`.

use clap::{Parser, Subcommand};
use sb2sb::cli;

#[derive(Parser)]
#[command(
    name = "sb2sb",
    version,
    about = "Cross-die SBUF->SBUF data path: ISA, address fold, lockstep cosim, system model, collectives"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// CAYMAN SoC address codec: decode and fold.
    Addr(cli::addr::AddrArgs),
    /// 64-byte instruction words: decode and encode.
    Isa(cli::isa::IsaArgs),
    /// Lockstep co-simulation of golden models against Verilated RTL.
    Cosim(cli::cosim::CosimArgs),
    /// Run a program or a single send/recv leg on the system model.
    Run(cli::run::RunArgs),
    /// nccom-test style collective benchmark on the system model.
    Nccom(Box<cli::nccom::NccomArgs>),
    /// Host topology: the peer-node helpers.
    Topo(cli::topo::TopoArgs),
    /// Per-block coverage table of `make coverage` (merged Verilator .dat files).
    Coverage(cli::coverage::CoverageArgs),
    /// Blocks x seeds lockstep regression over all hardware threads.
    Regress(cli::regress::RegressArgs),
    /// Generated CSR tests (reset, RW, bit-bash, aliasing, WO/RO/W1C) in lockstep against the RTL.
    Csr(cli::csr::CsrArgs),
    /// Coverage builds: the generated CSR tests in lockstep, one .dat per CSR block.
    CoverageCsr(cli::coverage::CovCsrArgs),
}

fn main() {
    // Like other Unix filters: `sb2sb ... | head` ends quietly when the reader
    // closes the pipe, instead of panicking on a failed print.
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of one signal at start-up,
    // before any other thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    let r = match cli.cmd {
        Cmd::Addr(a) => cli::addr::run(a),
        Cmd::Isa(a) => cli::isa::run(a),
        Cmd::Cosim(a) => cli::cosim::run(a),
        Cmd::Run(a) => cli::run::run(a),
        Cmd::Nccom(a) => cli::timeline::traced(a.trace.clone().as_deref(), || cli::nccom::run(*a)),
        Cmd::Topo(a) => cli::topo::run(a),
        Cmd::Coverage(a) => cli::coverage::run(a),
        Cmd::Regress(a) => cli::regress::run(a),
        Cmd::Csr(a) => cli::csr::run(a),
        Cmd::CoverageCsr(a) => cli::coverage::run_csr(a),
    };
    match r {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!("sb2sb: error: {e:#}");
            std::process::exit(2);
        }
    }
}
