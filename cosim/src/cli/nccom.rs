//! `sb2sb nccom OP -r RANKS -b MIN -e MAX -f FACTOR -d DTYPE [--check] [--json]`:
//! an nccom-test style sweep of a ring collective on the fast path
//! (docs/collectives.md). Prints the nccom-test columns — size(B),
//! count(elems), type, time(us) (modeled), algbw(GB/s), busbw(GB/s) — plus
//! host time and simulated GB/s, then the "Avg bus bandwidth" line.
//! Progress goes to stderr when it is a terminal.

use std::io::IsTerminal;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use sb2sb_model::collective::nccom::{self, parse_size, Config, Machine, Row};
use sb2sb_model::collective::CollectiveOp;
use sb2sb_model::datapath::reduce::{Dtype, ReduceOp};
use sb2sb_model::isa::Arch;
use serde_json::json;

/// `sb2sb nccom …` (values are parsed here so that a bad one is one line on stderr).
#[derive(clap::Args, Debug)]
pub struct NccomArgs {
    /// all_reduce, all_gather, reduce_scatter, permute or sendrecv.
    op: String,
    /// Ranks (2..=64), one per NeuronCore.
    #[arg(short = 'r', long = "ranks", default_value = "8")]
    ranks: String,
    /// Smallest size (K/M/G = 1024-based), per rank as in nccom-test.
    #[arg(short = 'b', long = "minbytes", default_value = "1K")]
    min: String,
    /// Largest size.
    #[arg(short = 'e', long = "maxbytes", default_value = "16M")]
    max: String,
    /// Size multiplier between rows.
    #[arg(short = 'f', long = "stepfactor", default_value = "2")]
    factor: String,
    /// Element type: fp32, bf16, fp16, int32.
    #[arg(short = 'd', long = "datatype", default_value = "fp32")]
    dtype: String,
    /// Reduction of all_reduce / reduce_scatter: sum, max, min.
    #[arg(long, default_value = "sum")]
    reduce: String,
    /// Ring direction: 0 (group order) or 1 (reverse).
    #[arg(long, default_value = "0")]
    channel: String,
    /// Architecture (SBUF partition size).
    #[arg(long, default_value = "cayman")]
    arch: String,
    /// Seed of the input data.
    #[arg(long, default_value = "1")]
    seed: String,
    /// Machine: fast (system model, fast mode; default), flat (plain per-core SBUF images, no descriptor rings),
    /// cycle (system model, cycle mode).
    #[arg(long, default_value = "fast")]
    mode: String,
    /// Check every size bit for bit against the plain reference.
    #[arg(long)]
    check: bool,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    json: bool,
    /// Write the sweep's timeline here (Chrome trace-event JSON, docs/timeline.md; fast and cycle mode).
    #[arg(long, value_name = "FILE")]
    pub trace: Option<std::path::PathBuf>,
}

fn num(flag: &str, s: &str) -> anyhow::Result<u64> {
    s.trim()
        .parse::<u64>()
        .map_err(|_| anyhow::anyhow!("{flag}: {s:?} is not a whole number"))
}

fn config(a: &NccomArgs) -> anyhow::Result<Config> {
    let op = CollectiveOp::parse(&a.op).with_context(|| {
        format!(
            "unknown operation {:?} (all_reduce, all_gather, reduce_scatter, permute, sendrecv)",
            a.op
        )
    })?;
    let dtype = Dtype::parse(&a.dtype)
        .with_context(|| format!("-d: unknown type {:?} (fp32, bf16, fp16, int32)", a.dtype))?;
    let reduce = ReduceOp::parse(&a.reduce)
        .with_context(|| format!("--reduce: unknown {:?} (sum, max, min)", a.reduce))?;
    let channel = num("--channel", &a.channel)?;
    if channel > 1 {
        anyhow::bail!("--channel {channel}: a group has two rings, channel 0 or 1");
    }
    let cfg = Config {
        op,
        ranks: num("-r", &a.ranks)? as usize,
        min_bytes: parse_size(&a.min).context("-b")?,
        max_bytes: parse_size(&a.max).context("-e")?,
        factor: num("-f", &a.factor)?,
        dtype,
        reduce,
        check: a.check,
        channel: channel as u16,
        arch: a.arch.parse::<Arch>()?,
        seed: num("--seed", &a.seed)?,
        machine: match a.mode.as_str() {
            "flat" => Machine::Flat,
            "fast" => Machine::SystemFast,
            "cycle" => Machine::SystemCycle,
            m => anyhow::bail!("--mode: unknown {m:?} (flat, fast, cycle)"),
        },
    };
    cfg.validate()?;
    Ok(cfg)
}

/// Entry point of `sb2sb nccom`.
pub fn run(a: NccomArgs) -> anyhow::Result<i32> {
    let cfg = config(&a)?;
    super::timeline::label(cfg.sizes().iter().map(|s| format!("{} {s} B", cfg.op)));
    let sizes = cfg.sizes();
    if sizes.is_empty() {
        anyhow::bail!(
            "no size in {}..={} holds a whole {} element per rank for {} ranks",
            cfg.min_bytes,
            cfg.max_bytes,
            cfg.dtype,
            cfg.ranks
        );
    }
    let bar = if std::io::stderr().is_terminal() {
        let b = ProgressBar::new(sizes.len() as u64);
        if let Ok(style) =
            ProgressStyle::with_template("{spinner} {prefix} [{bar:30}] {pos}/{len} {msg}")
        {
            b.set_style(style.progress_chars("=> "));
        }
        b.set_prefix(format!("{} x{}", cfg.op, cfg.ranks));
        b
    } else {
        ProgressBar::hidden()
    };
    let mut rows: Vec<Row> = Vec::with_capacity(sizes.len());
    for s in sizes {
        bar.set_message(format!("{s} B"));
        let row = nccom::run_size(&cfg, s);
        bar.inc(1);
        match row {
            Ok(r) => rows.push(r),
            Err(e) => {
                bar.finish_and_clear();
                return Err(e.into());
            }
        }
    }
    bar.finish_and_clear();
    let avg = nccom::avg_busbw(&rows);
    if a.json {
        let v = json!({
            "op": cfg.op, "ranks": cfg.ranks, "dtype": cfg.dtype, "reduce": cfg.reduce,
            "channel": cfg.channel, "arch": cfg.arch, "checked": cfg.check, "machine": cfg.machine,
            "bus_factor": cfg.op.bus_factor(cfg.ranks),
            "threads": threads_used(cfg.machine),
            "rows": rows, "avg_busbw_gbps": avg,
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(0);
    }
    println!(
        "# {} on {} ranks ({}, {}), dtype {}{}, ring channel {}, {} host thread(s); time = modeled, host = wall clock",
        cfg.op,
        cfg.ranks,
        match cfg.machine {
            Machine::Flat => "flat fast path",
            Machine::SystemFast => "system model, fast mode",
            Machine::SystemCycle => "system model, cycle mode",
        },
        cfg.arch.name(),
        cfg.dtype,
        if cfg.op.reduces() {
            format!(", reduce {}", cfg.reduce)
        } else {
            String::new()
        },
        cfg.channel,
        threads_used(cfg.machine)
    );
    println!(
        "{:>12} {:>14} {:>6} {:>12} {:>12} {:>12} {:>12} {:>10} {:>6}",
        "size(B)",
        "count(elems)",
        "type",
        "time(us)",
        "algbw(GB/s)",
        "busbw(GB/s)",
        "host(us)",
        "sim(GB/s)",
        "check"
    );
    for r in &rows {
        println!(
            "{:>12} {:>14} {:>6} {:>12.2} {:>12.2} {:>12.2} {:>12.1} {:>10.2} {:>6}",
            r.size_bytes,
            r.count,
            r.dtype.name(),
            r.time_us,
            r.algbw_gbps,
            r.busbw_gbps,
            r.host_us,
            r.sim_gbps,
            match r.verified {
                Some(true) => "ok",
                Some(false) => "FAIL",
                None => "-",
            }
        );
    }
    println!("Avg bus bandwidth:    {avg:.4} GB/s");
    Ok(0)
}

/// Host threads a step's legs run on: the flat machine runs a step's
/// independent legs in parallel (`collective::parallel`), and so does the
/// system model's fast mode for its byte moves (`system::fast`, the same
/// thread count); cycle mode steps its clocks on one thread.
fn threads_used(m: Machine) -> usize {
    match m {
        Machine::Flat | Machine::SystemFast => sb2sb_model::collective::parallel::threads(),
        Machine::SystemCycle => 1,
    }
}
