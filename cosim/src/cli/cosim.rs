//! `sb2sb cosim`: lockstep co-simulation of golden models against the
//! Verilated RTL, with a summary table (or JSON) and coverage counters.

use std::path::PathBuf;

use anyhow::Result;

use crate::blocks::{self, Fault};
use crate::lockstep::{self, Options, Report};
use crate::rtl::XInit;

#[derive(clap::Args, Debug)]
pub struct CosimArgs {
    /// Block to run (`all` runs every block compiled into this build).
    #[arg(long, default_value = "all")]
    pub block: String,
    /// Cycles per block.
    #[arg(long, default_value_t = 1_000_000)]
    pub cycles: u64,
    /// Stimulus seed (decimal or 0x-hex).
    #[arg(long, default_value = "1", value_parser = parse_u64)]
    pub seed: u64,
    /// Write golden, RTL and comparison VCDs and a .gtkw per block into DIR.
    #[arg(long, value_name = "DIR")]
    pub vcd: Option<PathBuf>,
    /// Initial RTL state before reset.
    #[arg(long, value_enum, default_value = "random")]
    pub x_init: XInit,
    /// Test-only fault in the golden model: flip output bit SIGNAL:BIT@CYCLE.
    #[arg(long, value_name = "SIGNAL:BIT@CYCLE")]
    pub inject_fault: Option<String>,
    /// Block `leg` only: run this directed scenario first (then random legs).
    #[arg(long, value_name = "NAME")]
    pub scenario: Option<String>,
    /// Block `leg` only, test-only: a fault in the golden pair
    /// (drop-remote-sem, wrong-die-bit).
    #[arg(long, value_name = "NAME")]
    pub leg_fault: Option<String>,
    /// Cycles of history printed with a mismatch.
    #[arg(long, default_value_t = 32)]
    pub history: usize,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
    /// 1: golden and RTL on one thread; 2: the Verilated RTL on a second
    /// thread (default: 2 when the machine has two hardware threads).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=2))]
    pub threads: Option<u8>,
    /// Coverage builds (`make coverage`): write each block's Verilator
    /// coverage points to `DIR/<block>.s<seed>.dat`.
    #[arg(long, value_name = "DIR")]
    pub coverage_dir: Option<PathBuf>,
    /// With --vcd: write FST instead of VCD (converted with GTKWave's
    /// vcd2fst; much smaller for long runs).
    #[arg(long, requires = "vcd")]
    pub fst: bool,
    /// Blocks whose environment keeps end-of-run state (udma, udma_w32,
    /// udma_w128, leg): drive the RTL from an environment twin of its own
    /// (fed by the RTL's outputs), check both twins' inputs every cycle and
    /// compare their memory images at the end. Default: one environment
    /// drives both sides (equivalent while every output is checked equal
    /// every cycle, and the twin's cost is gone).
    #[arg(long)]
    pub twin: bool,
}

/// Parse a decimal or `0x`-prefixed hexadecimal u64.
pub fn parse_u64(s: &str) -> Result<u64, String> {
    let t = s.trim().replace('_', "");
    let r = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        u64::from_str_radix(h, 16)
    } else {
        t.parse()
    };
    r.map_err(|e| format!("`{s}` is not a 64-bit number ({e})"))
}

/// Where the time went: CPU seconds per thread and the rate the busier
/// thread allows (what the run reaches on an otherwise idle machine).
fn cpu_line(r: &Report) -> Option<String> {
    let main = r.cpu_main_s?;
    let busiest = main.max(r.cpu_rtl_s.unwrap_or(0.0));
    if busiest <= 0.0 || r.cycles_run == 0 {
        return None;
    }
    let rtl = r
        .cpu_rtl_s
        .map(|s| format!(", RTL thread {s:.2} s"))
        .unwrap_or_default();
    Some(format!(
        "{:<10} {} thread(s): CPU golden+env thread {main:.2} s{rtl}; busiest thread allows {:.0} cycles/s",
        r.block,
        r.threads,
        r.cycles_run as f64 / busiest
    ))
}

fn print_table(reports: &[Report]) {
    println!(
        "{:<10} {:>12} {:>11} {:>14} {:>8}",
        "block", "cycles", "mismatches", "cycles/s", "seed"
    );
    for r in reports {
        println!(
            "{:<10} {:>12} {:>11} {:>14.0} {:>8}",
            r.block, r.cycles_run, r.mismatches, r.cycles_per_sec, r.seed
        );
    }
    for r in reports {
        if let Some(line) = cpu_line(r) {
            println!("{line}");
        }
    }
    for r in reports {
        println!("\ncoverage: {}", r.block);
        let w = r.coverage.iter().map(|c| c.0.len()).max().unwrap_or(0);
        for (n, v) in &r.coverage {
            let flag = if *v == 0 { "   <-- never hit" } else { "" };
            println!("  {n:w$}  {v:>10}{flag}");
        }
        if let Some(wv) = &r.waves {
            println!(
                "waves: {} (RTL), {} (golden), {} (side by side)\n  gtkwave -r {} {}",
                wv.rtl_vcd.display(),
                wv.golden_vcd.display(),
                wv.cmp_vcd.display(),
                crate::waves::rc_path(&wv.gtkw).display(),
                wv.gtkw.display()
            );
            if let Some(p) = &wv.pair_gtkw {
                println!(
                    "  gtkwave {}   (the RTL pair, grouped per core)",
                    p.display()
                );
            }
        }
    }
}

pub fn run(a: CosimArgs) -> Result<i32> {
    let names: Vec<String> = if a.block == "all" {
        // The registered lockstep blocks this build verilated (`SB2SB_BLOCKS`
        // may have left some out).
        let built = crate::rtl::compiled_blocks();
        blocks::names()
            .into_iter()
            .filter(|n| built.iter().any(|b| b == n))
            .map(String::from)
            .collect()
    } else {
        vec![a.block.clone()]
    };
    anyhow::ensure!(!names.is_empty(), "no blocks are compiled into this build");
    let fault = match &a.inject_fault {
        Some(spec) => {
            anyhow::ensure!(a.block != "all", "--inject-fault needs one --block");
            let (signal, bit, cycle) = lockstep::parse_fault(spec)?;
            Some(Fault { signal, bit, cycle })
        }
        None => None,
    };
    let opts = Options {
        seed: a.seed,
        cycles: a.cycles,
        vcd_dir: a.vcd.clone(),
        progress: !a.json,
        history: a.history,
        x_init: a.x_init,
        replay_extra: [
            a.inject_fault
                .as_ref()
                .map(|f| format!("--inject-fault {f}")),
            a.scenario.as_ref().map(|s| format!("--scenario {s}")),
            a.leg_fault.as_ref().map(|f| format!("--leg-fault {f}")),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" "),
        threads: a
            .threads
            .map(usize::from)
            .unwrap_or_else(lockstep::default_threads),
        coverage_out: None,
        fst: a.fst,
        twin: a.twin,
    };
    anyhow::ensure!(
        a.coverage_dir.is_none() || crate::rtl::COVERAGE_BUILD,
        "--coverage-dir needs a coverage build (SB2SB_COVERAGE=1; `make coverage` makes one)"
    );
    anyhow::ensure!(
        (a.scenario.is_none() && a.leg_fault.is_none()) || a.block == "leg",
        "--scenario and --leg-fault need --block leg"
    );
    let mut reports = Vec::new();
    for n in &names {
        let mut opts = opts.clone();
        opts.coverage_out = a
            .coverage_dir
            .as_ref()
            .map(|d| d.join(format!("{n}.s{}.dat", a.seed)));
        let r = if n == "leg" {
            let mut r = blocks::run_leg(
                &opts,
                a.scenario.as_deref(),
                a.leg_fault.as_deref(),
                fault.as_ref(),
            )?;
            if let Some(wv) = r.waves.as_mut() {
                crate::waves::add_pair_gtkw(wv)?;
            }
            r
        } else {
            blocks::run_named(n, &opts, fault.as_ref())?
        };
        let failed = !r.passed();
        reports.push(r);
        if failed {
            break;
        }
    }
    if a.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({ "blocks": reports }))?
        );
    } else {
        print_table(&reports);
    }
    let mut code = 0;
    for r in &reports {
        if let Some(m) = &r.first_mismatch {
            eprint!("{}", m.render());
            code = 1;
        }
    }
    Ok(code)
}
