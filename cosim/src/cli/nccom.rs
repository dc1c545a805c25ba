//! `sb2sb nccom OP -r RANKS -b MIN -e MAX -f FACTOR -d DTYPE [--algorithm A] [--check] …`:
//! an nccom-test style sweep of a collective on the system model
//! (docs/collectives.md). Prints the nccom-test columns — size(B),
//! count(elems), type, \[algorithm\], time:avg(us) (modeled), algbw(GB/s),
//! busbw(GB/s) — plus host time and simulated GB/s, then the "Avg bus
//! bandwidth" line; or CSV (`--csv`) or one JSON object (`--json`); writes a
//! report (`--report-to-json-file`) and a busbw-against-size SVG (`--plot`).
//! Progress goes to stderr when it is a terminal.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use sb2sb_model::collective::algo::Choice;
use sb2sb_model::collective::nccom::{
    self, parse_size, published_busbw, Config, Machine, Row, PUBLISHED_TRN2_ALL_GATHER_R8_FP32,
};
use sb2sb_model::collective::CollectiveOp;
use sb2sb_model::datapath::reduce::{Dtype, ReduceOp};
use sb2sb_model::isa::Arch;
use sb2sb_model::lower::Target;
use sb2sb_model::pair::configs::SystemConfig;
use sb2sb_model::pair::system::SYS_CORES;
use serde_json::json;

use crate::sys_target::rtl_target;

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
    /// cycle (system model, cycle mode), rtl (the Verilated 4-core system top, block system_coll;
    /// a reducing step's fold runs on the host between legs).
    #[arg(long, default_value = "fast")]
    mode: String,
    /// Configuration of the cores (docs/core.md, docs/collectives.md):
    /// system (the system model's 16-engine core, 4 cores per die; default
    /// of fast and cycle mode) or coll (SysParams::COLL: the 4 cores of the
    /// block system_coll, 2 engines, 2 cores per die; what --mode rtl runs,
    /// so `--mode cycle --config coll` is its golden twin).
    #[arg(long, value_name = "NAME")]
    config: Option<String>,
    /// Algorithm: ring, mesh, rdh or auto (by size, as the runtime); a comma
    /// list runs one sweep per entry (e.g. ring,mesh,rdh,auto).
    #[arg(long, default_value = "ring")]
    algorithm: String,
    /// Print the algorithm of each row (nccom-test's `algorithm` column).
    #[arg(long)]
    show_algorithm: bool,
    /// Check every size bit for bit against the plain reference.
    #[arg(long)]
    check: bool,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    json: bool,
    /// Print the table as CSV (one header line, one line per row).
    #[arg(long, conflicts_with = "json")]
    csv: bool,
    /// Also write a JSON report: arguments, machine and mode, timing
    /// parameters, version and commit, one record per size.
    #[arg(long = "report-to-json-file", value_name = "FILE")]
    report: Option<PathBuf>,
    /// Write busbw against size as an SVG, one line per algorithm.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    /// Add the published Trainium2 points (8-rank fp32 all_gather, nccom-test 2.28) to the plot.
    #[arg(long, requires = "plot")]
    plot_published: bool,
    /// Write the sweep's timeline here (Chrome trace-event JSON, docs/timeline.md; fast and cycle mode).
    #[arg(long, value_name = "FILE")]
    pub trace: Option<std::path::PathBuf>,
}

fn num(flag: &str, s: &str) -> anyhow::Result<u64> {
    s.trim()
        .parse::<u64>()
        .map_err(|_| anyhow::anyhow!("{flag}: {s:?} is not a whole number"))
}

/// The sweeps asked for: one config per `--algorithm` entry, and the
/// configuration of the cores they run on.
fn configs(a: &NccomArgs) -> anyhow::Result<(Vec<Config>, SystemConfig)> {
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
    let mut algos = Vec::new();
    for s in a.algorithm.split(',') {
        let c = Choice::parse(s.trim()).with_context(|| {
            format!(
                "--algorithm: unknown {:?} (ring, mesh, rdh, auto)",
                s.trim()
            )
        })?;
        if !algos.contains(&c) {
            algos.push(c);
        }
    }
    let base = Config {
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
            "rtl" => Machine::Rtl,
            m => anyhow::bail!("--mode: unknown {m:?} (flat, fast, cycle, rtl)"),
        },
        algorithm: algos[0],
    };
    let config = match &a.config {
        Some(n) => SystemConfig::parse(n)?,
        None => SystemConfig::default_for(base.machine == Machine::Rtl),
    };
    config.check_mode(base.machine.mode_name())?;
    if base.machine == Machine::Rtl && a.trace.is_some() {
        anyhow::bail!("--trace: the timeline covers fast and cycle mode, not --mode rtl");
    }
    if base.machine == Machine::Rtl && base.ranks > SYS_CORES {
        anyhow::bail!(
            "-r {}: --mode rtl runs on the Verilated system top's {SYS_CORES} cores (-r 2..={SYS_CORES})",
            base.ranks
        );
    }
    let cfgs = algos
        .into_iter()
        .map(|algorithm| {
            let c = Config { algorithm, ..base };
            c.validate()?;
            if c.machine != Machine::Rtl {
                nccom::check_config(&c, config)?;
            }
            Ok(c)
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok((cfgs, config))
}

/// One sweep's result.
struct Sweep {
    cfg: Config,
    config: SystemConfig,
    rows: Vec<Row>,
}

fn machine_name(m: Machine) -> &'static str {
    match m {
        Machine::Flat => "flat fast path",
        Machine::SystemFast => "system model, fast mode",
        Machine::SystemCycle => "system model, cycle mode",
        Machine::Rtl => "Verilated system top, 4 cores, clocked beside cycle mode at --config coll; reducing steps fold on the host",
    }
}

/// One size on the configured machine: the RTL target is built here (a
/// fresh Verilated system per size), the others by `nccom::run_size_with`.
fn run_size(cfg: &Config, config: SystemConfig, size: u64) -> anyhow::Result<Row> {
    if cfg.machine != Machine::Rtl {
        return Ok(nccom::run_size_with(cfg, size, config)?);
    }
    let t = rtl_target(cfg.arch)?;
    let need = nccom::partition_bytes_needed(cfg, size);
    if need > t.partition_bytes() {
        anyhow::bail!(
            "size {size}: the buffers take {need} bytes per SBUF partition, the Verilated system holds {} (--mode rtl)",
            t.partition_bytes()
        );
    }
    Ok(nccom::run_size_on(cfg, size, Box::new(t))?)
}

/// Entry point of `sb2sb nccom`.
pub fn run(a: NccomArgs) -> anyhow::Result<i32> {
    let (cfgs, config) = configs(&a)?;
    let first = cfgs[0];
    let sizes = first.sizes();
    super::timeline::label(cfgs.iter().flat_map(|c| {
        c.sizes()
            .into_iter()
            .map(move |s| format!("{} {} {s} B", c.op, c.algorithm_for(s).name()))
    }));
    if sizes.is_empty() {
        anyhow::bail!(
            "no size in {}..={} holds a whole {} element per rank for {} ranks",
            first.min_bytes,
            first.max_bytes,
            first.dtype,
            first.ranks
        );
    }
    let bar = if std::io::stderr().is_terminal() {
        let b = ProgressBar::new((sizes.len() * cfgs.len()) as u64);
        if let Ok(style) =
            ProgressStyle::with_template("{spinner} {prefix} [{bar:30}] {pos}/{len} {msg}")
        {
            b.set_style(style.progress_chars("=> "));
        }
        b.set_prefix(format!("{} x{}", first.op, first.ranks));
        b
    } else {
        ProgressBar::hidden()
    };
    let mut sweeps = Vec::with_capacity(cfgs.len());
    for cfg in cfgs {
        let mut rows: Vec<Row> = Vec::with_capacity(sizes.len());
        for &s in &sizes {
            bar.set_message(format!("{} {s} B", cfg.algorithm.name()));
            let row = run_size(&cfg, config, s);
            bar.inc(1);
            match row {
                Ok(r) => rows.push(r),
                Err(e) => {
                    bar.finish_and_clear();
                    return Err(e);
                }
            }
        }
        sweeps.push(Sweep { cfg, config, rows });
    }
    bar.finish_and_clear();
    if let Some(f) = &a.report {
        let v = report(&sweeps);
        std::fs::write(f, serde_json::to_string_pretty(&v)?)
            .with_context(|| format!("--report-to-json-file: cannot write {}", f.display()))?;
    }
    if let Some(f) = &a.plot {
        plot(f, &sweeps, a.plot_published)?;
    }
    if a.json {
        let v: Vec<_> = sweeps.iter().map(sweep_json).collect();
        let v = if v.len() == 1 {
            v.into_iter().next().unwrap_or_default()
        } else {
            json!({ "sweeps": v })
        };
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(0);
    }
    if a.csv {
        println!("requested,op,ranks,mode,size_bytes,count,type,algorithm,time_avg_us,algbw_gbps,busbw_gbps,host_us,sim_gbps,check,config");
        for sw in &sweeps {
            for r in &sw.rows {
                println!(
                    "{},{},{},{},{},{},{},{},{:.3},{:.4},{:.4},{:.1},{:.3},{},{}",
                    sw.cfg.algorithm.name(),
                    sw.cfg.op,
                    sw.cfg.ranks,
                    sw.cfg.machine.mode_name(),
                    r.size_bytes,
                    r.count,
                    r.dtype.name(),
                    r.algorithm,
                    r.time_us,
                    r.algbw_gbps,
                    r.busbw_gbps,
                    r.host_us,
                    r.sim_gbps,
                    check_mark(r),
                    sw.config.name()
                );
            }
        }
        return Ok(0);
    }
    for sw in &sweeps {
        table(sw, a.show_algorithm);
    }
    Ok(0)
}

fn check_mark(r: &Row) -> &'static str {
    match r.verified {
        Some(true) => "ok",
        Some(false) => "FAIL",
        None => "-",
    }
}

/// The configuration a sweep ran, and for `--mode rtl` the cycle-mode
/// command of its golden twin.
fn config_label(c: SystemConfig, m: Machine) -> String {
    if m == Machine::Rtl {
        format!("{} (twin: --mode cycle --config {})", c.name(), c.name())
    } else {
        c.name().to_string()
    }
}

fn table(sw: &Sweep, show_algorithm: bool) {
    let cfg = &sw.cfg;
    println!(
        "# {} on {} ranks ({}, config {}, {}), dtype {}{}, algorithm {}, ring channel {}, {} host thread(s); time = modeled, host = wall clock",
        cfg.op,
        cfg.ranks,
        machine_name(cfg.machine),
        config_label(sw.config, cfg.machine),
        cfg.arch.name(),
        cfg.dtype,
        if cfg.op.reduces() {
            format!(", reduce {}", cfg.reduce)
        } else {
            String::new()
        },
        cfg.algorithm.name(),
        cfg.channel,
        threads_used(cfg.machine)
    );
    let algo_col = |s: &str| {
        if show_algorithm {
            format!(" {s:>10}")
        } else {
            String::new()
        }
    };
    println!(
        "{:>12} {:>14} {:>6}{} {:>13} {:>12} {:>12} {:>12} {:>10} {:>6}",
        "size(B)",
        "count(elems)",
        "type",
        algo_col("algorithm"),
        "time:avg(us)",
        "algbw(GB/s)",
        "busbw(GB/s)",
        "host(us)",
        "sim(GB/s)",
        "check"
    );
    for r in &sw.rows {
        println!(
            "{:>12} {:>14} {:>6}{} {:>13.2} {:>12.2} {:>12.2} {:>12.1} {:>10.2} {:>6}",
            r.size_bytes,
            r.count,
            r.dtype.name(),
            algo_col(r.algorithm.name()),
            r.time_us,
            r.algbw_gbps,
            r.busbw_gbps,
            r.host_us,
            r.sim_gbps,
            check_mark(r)
        );
    }
    println!(
        "Avg bus bandwidth:    {:.4} GB/s",
        nccom::avg_busbw(&sw.rows)
    );
}

fn sweep_json(sw: &Sweep) -> serde_json::Value {
    let cfg = &sw.cfg;
    json!({
        "op": cfg.op, "ranks": cfg.ranks, "dtype": cfg.dtype, "reduce": cfg.reduce,
        "channel": cfg.channel, "arch": cfg.arch, "checked": cfg.check, "machine": cfg.machine,
        "config": sw.config.name(),
        "algorithm": cfg.algorithm.name(),
        "bus_factor": cfg.op.bus_factor(cfg.ranks),
        "threads": threads_used(cfg.machine),
        "rows": sw.rows, "avg_busbw_gbps": nccom::avg_busbw(&sw.rows),
    })
}

/// The commit the binary was built from: `SB2SB_GIT_COMMIT` at build time,
/// else `git rev-parse HEAD` in the source tree, else "unknown".
fn commit() -> String {
    if let Some(c) = option_env!("SB2SB_GIT_COMMIT") {
        return c.to_string();
    }
    std::process::Command::new("git")
        .args(["-C", env!("CARGO_MANIFEST_DIR"), "rev-parse", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".into())
}

/// The timing parameters of a machine, as the model uses them (one set
/// for every machine: `system::timing`).
fn timing_json(m: Machine) -> serde_json::Value {
    let mut v = sb2sb_model::system::timing::summary();
    v["machine"] = json!(m);
    v
}

/// The `--report-to-json-file` object.
fn report(sweeps: &[Sweep]) -> serde_json::Value {
    let cfg = &sweeps[0].cfg;
    let records: Vec<_> = sweeps
        .iter()
        .flat_map(|sw| {
            sw.rows.iter().map(move |r| {
                json!({
                    "requested_algorithm": sw.cfg.algorithm.name(),
                    "algorithm": r.algorithm,
                    "size_bytes": r.size_bytes, "count": r.count, "type": r.dtype,
                    "time_avg_us": r.time_us, "cycles": r.cycles, "algbw_gbps": r.algbw_gbps, "busbw_gbps": r.busbw_gbps,
                    "host_us": r.host_us, "sim_gbps": r.sim_gbps, "legs": r.legs,
                    "check": check_mark(r),
                })
            })
        })
        .collect();
    json!({
        "tool": "sb2sb nccom",
        "version": env!("CARGO_PKG_VERSION"),
        "commit": commit(),
        "arguments": std::env::args().collect::<Vec<_>>(),
        "config": {
            "op": cfg.op, "ranks": cfg.ranks, "min_bytes": cfg.min_bytes, "max_bytes": cfg.max_bytes,
            "step_factor": cfg.factor, "dtype": cfg.dtype, "reduce": cfg.reduce, "channel": cfg.channel,
            "seed": cfg.seed, "check": cfg.check,
            "algorithms": sweeps.iter().map(|s| s.cfg.algorithm.name()).collect::<Vec<_>>(),
        },
        "machine": {
            "kind": cfg.machine,
            "mode": cfg.machine.mode_name(),
            "config": sweeps[0].config.name(),
            "description": machine_name(cfg.machine),
            "arch": cfg.arch,
            "packages": match sweeps[0].config.params() {
                Some(p) => usize::from(p.topology().packages),
                None => cfg.ranks.div_ceil(8),
            },
            "dies_per_package": 2,
            "cores_per_die": sweeps[0].config.params().map_or(4, |p| usize::from(p.cores_per_die)),
            "engines_per_core": sweeps[0]
                .config
                .params()
                .map_or(sb2sb_model::pair::CoreParams::SYSTEM.engines, |p| p.core.engines),
            "host_threads": threads_used(cfg.machine),
        },
        "timing": timing_json(cfg.machine),
        "results": records,
    })
}

/// Write busbw against size: one line per sweep (its `--algorithm` entry),
/// the published points as a separate series when asked.
fn plot(path: &Path, sweeps: &[Sweep], published: bool) -> anyhow::Result<()> {
    use plotters::prelude::*;
    let cfg = &sweeps[0].cfg;
    let mut pts: Vec<(String, Vec<(f64, f64)>)> = sweeps
        .iter()
        .map(|sw| {
            (
                sw.cfg.algorithm.name().to_string(),
                sw.rows
                    .iter()
                    .map(|r| ((r.size_bytes as f64).log2(), r.busbw_gbps))
                    .collect(),
            )
        })
        .collect();
    if published {
        let op = CollectiveOp::AllGather;
        pts.push((
            "published trn2 all_gather 8 ranks fp32 (nccom-test 2.28)".into(),
            PUBLISHED_TRN2_ALL_GATHER_R8_FP32
                .iter()
                .map(|&(s, t)| ((s as f64).log2(), published_busbw(op, 8, s, t)))
                .collect(),
        ));
    }
    let all = pts.iter().flat_map(|(_, v)| v.iter());
    let (mut x0, mut x1, mut y1) = (f64::INFINITY, f64::NEG_INFINITY, 0.0f64);
    for &(x, y) in all {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y1 = y1.max(y);
    }
    if x1 <= x0 {
        x1 = x0 + 1.0;
    }
    let err = |e: &dyn std::fmt::Display| anyhow::anyhow!("--plot {}: {e}", path.display());
    let root = SVGBackend::new(path, (900, 560)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let title = format!(
        "{} on {} ranks, {} ({}): busbw against size",
        cfg.op,
        cfg.ranks,
        cfg.dtype,
        cfg.machine.mode_name()
    );
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(x0..x1, 0.0..(y1 * 1.1).max(1e-3))
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .x_desc("size (bytes, log2)")
        .y_desc("busbw (GB/s)")
        .x_label_formatter(&|x| size_label(*x))
        .draw()
        .map_err(|e| err(&e))?;
    for (i, (name, v)) in pts.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        let is_pub = published && i + 1 == pts.len();
        if is_pub {
            chart
                .draw_series(v.iter().map(|&p| Cross::new(p, 6, color.stroke_width(2))))
                .map_err(|e| err(&e))?
                .label(name.as_str())
                .legend(move |(x, y)| Cross::new((x + 10, y), 5, color.stroke_width(2)));
        } else {
            chart
                .draw_series(LineSeries::new(v.iter().copied(), color.stroke_width(2)))
                .map_err(|e| err(&e))?
                .label(name.as_str())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
            chart
                .draw_series(v.iter().map(|&p| Circle::new(p, 3, color.filled())))
                .map_err(|e| err(&e))?;
        }
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    Ok(())
}

/// `2^x` bytes as 1K / 1M / 1G style.
fn size_label(x: f64) -> String {
    let b = x.exp2().round() as u64;
    match b {
        b if b >= 1 << 30 && b % (1 << 30) == 0 => format!("{}G", b >> 30),
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{}M", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{}K", b >> 10),
        b => b.to_string(),
    }
}

/// Host threads a step's legs run on: the flat machine runs a step's
/// independent legs in parallel (`collective::parallel`), and so does the
/// system model's fast mode for its byte moves (`system::fast`, the same
/// thread count); cycle mode steps its clocks on one thread.
fn threads_used(m: Machine) -> usize {
    match m {
        Machine::Flat | Machine::SystemFast => sb2sb_model::collective::parallel::threads(),
        Machine::SystemCycle | Machine::Rtl => 1,
    }
}
