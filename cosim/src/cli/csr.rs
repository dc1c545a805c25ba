//! `sb2sb csr --block evt_sem|udma|udma_w32|udma_w128|udma_w256`: the CSR tests generated
//! from a block's register description (model/src/regs/csr.rs: reset values,
//! read/write, bit-bash, aliasing, WO/RO/W1C), run in lockstep against the
//! Verilated RTL. Prints the number of transactions of each test kind, the
//! shadow-check failures and any golden/RTL mismatch (cycle, signal, both
//! values); exit code 1 on any failure or an unfinished plan.

use anyhow::{bail, Result};
use sb2sb_model::evt_sem::csr::EvtSemCsr;
use sb2sb_model::evt_sem::EvtSem;
use sb2sb_model::ports::{CycleModel, Stimulus};
use sb2sb_model::regs::csr::{plan, SEQ_NAMES};
use sb2sb_model::udma::csr::{insts as udma_insts, UdmaCsr};
use sb2sb_model::udma::{UdmaEngine, UdmaWidth, W128, W256, W32, W64};

use crate::lockstep::{self, Options, Report};

/// Blocks `sb2sb csr` accepts.
pub const CSR_BLOCKS: [&str; 5] = ["evt_sem", "udma", "udma_w32", "udma_w128", "udma_w256"];

/// Cycles a transaction of the plan may take at most (request, commit, response,
/// and the adapter's registered answer); the run is sized from the plan.
const CYCLES_PER_OP: u64 = 8;

#[derive(clap::Args, Debug)]
pub struct CsrArgs {
    /// Block: evt_sem, udma (64-bit data), udma_w32, udma_w128 or udma_w256.
    #[arg(long)]
    pub block: String,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Cycles of history printed with a mismatch.
    #[arg(long, default_value_t = 32)]
    pub history: usize,
    /// 1: golden and RTL on one thread; 2: the RTL on a second thread.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=2))]
    pub threads: Option<u8>,
    /// Test-only fault in the golden model: flip output bit SIGNAL:BIT@CYCLE
    /// (shows how a golden/RTL mismatch is reported).
    #[arg(long, value_name = "SIGNAL:BIT@CYCLE")]
    pub inject_fault: Option<String>,
}

/// Result of one `sb2sb csr` run.
#[derive(Debug, Clone, serde::Serialize)]
pub struct CsrReport {
    pub block: String,
    /// Transactions of the generated plan.
    pub planned: u64,
    /// Transactions answered, per test kind (`hw_reset`, `rw`, `bit_bash`,
    /// `aliasing`, `wo`, `ro`, `w1c`).
    pub kinds: Vec<(String, u64)>,
    /// Shadow-check failures (response or read data differing from the description).
    pub failures: u64,
    /// Transactions not answered when the run ended.
    pub left: u64,
    pub cycles: u64,
    /// Golden/RTL mismatches (0 or 1: the run stops at the first).
    pub mismatches: u64,
    /// The first failure or mismatch as printed by the lockstep (cycle, register,
    /// field, golden and RTL values).
    pub first_failure: Option<String>,
    pub passed: bool,
}

fn go<G, S>(block: &str, golden: G, stim: S, planned: u64, a: &CsrArgs) -> Result<Report>
where
    G: CycleModel<In = S::In, Out = S::Out> + Clone,
    S: Stimulus,
{
    let Some(desc) = sb2sb_model::blocks::find(block) else {
        bail!("block `{block}` is not registered in this build")
    };
    let opts = Options {
        seed: 1,
        cycles: planned * CYCLES_PER_OP + 100,
        history: a.history,
        progress: false,
        threads: a
            .threads
            .map(usize::from)
            .unwrap_or_else(lockstep::default_threads),
        replay_extra: String::new(),
        ..Options::default()
    };
    match &a.inject_fault {
        None => lockstep::run(golden, stim, desc, &opts),
        Some(spec) => {
            let (signal, bit, cycle) = lockstep::parse_fault(spec)?;
            let g = lockstep::FlipOutputBit::new(golden, &signal, bit, cycle)?;
            lockstep::run(g, stim, desc, &opts)
        }
    }
}

fn udma<W: UdmaWidth>(block: &str, a: &CsrArgs) -> Result<(Report, u64)> {
    let planned = plan(&udma_insts()).len() as u64;
    let stim = UdmaCsr::<W>::new(1, 0);
    Ok((
        go(block, UdmaEngine::<W>::new(), stim, planned, a)?,
        planned,
    ))
}

/// Run the generated CSR tests of `a.block` in lockstep.
pub fn run_block(a: &CsrArgs) -> Result<CsrReport> {
    let (r, planned) = match a.block.as_str() {
        "evt_sem" => {
            let planned = plan(&EvtSemCsr::insts()).len() as u64;
            let stim = EvtSemCsr::new(1, 0);
            (go("evt_sem", EvtSem::new(), stim, planned, a)?, planned)
        }
        "udma" => udma::<W64>("udma", a)?,
        "udma_w32" => udma::<W32>("udma_w32", a)?,
        "udma_w128" => udma::<W128>("udma_w128", a)?,
        "udma_w256" => udma::<W256>("udma_w256", a)?,
        other => bail!(
            "--block `{other}` has no generated CSR tests (known: {})",
            CSR_BLOCKS.join(", ")
        ),
    };
    let kinds: Vec<(String, u64)> = SEQ_NAMES
        .iter()
        .map(|n| (n.to_string(), r.cov(&format!("csr_{n}"))))
        .collect();
    let failures = r.cov("csr_fail");
    let left = r.cov("csr_left");
    let first_failure = r.first_mismatch.as_ref().map(|m| m.render());
    Ok(CsrReport {
        block: a.block.clone(),
        planned,
        kinds,
        failures,
        left,
        cycles: r.cycles_run,
        mismatches: r.mismatches,
        passed: r.passed() && failures == 0 && left == 0,
        first_failure,
    })
}

fn print_table(r: &CsrReport) {
    println!(
        "CSR tests of {} (generated from the register description), in lockstep against the RTL",
        r.block
    );
    println!("{:<10} {:>12}", "kind", "transactions");
    for (n, c) in &r.kinds {
        println!("{n:<10} {c:>12}");
    }
    println!(
        "{:<10} {:>12}",
        "total",
        r.kinds.iter().map(|k| k.1).sum::<u64>()
    );
    println!(
        "planned {}, left {}, failures {}, golden/RTL mismatches {}, cycles {}",
        r.planned, r.left, r.failures, r.mismatches, r.cycles
    );
    println!("result: {}", if r.passed { "PASS" } else { "FAIL" });
}

pub fn run(a: CsrArgs) -> Result<i32> {
    let r = run_block(&a)?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&r)?);
    } else {
        print_table(&r);
        if let Some(f) = &r.first_failure {
            eprint!("{f}");
        }
    }
    Ok(if r.passed { 0 } else { 1 })
}
