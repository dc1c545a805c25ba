//! `sb2sb run program FILE` and `sb2sb run sendrecv`: run JSON programs
//! (docs/programs.md) or one SENDRECV pair on the system model, check the
//! expected results, print a report (or `--json`). Exit code 0 when every
//! check passes, 1 when one fails; errors exit 2 with one line on stderr.

use std::path::PathBuf;

use anyhow::{bail, Context};
use sb2sb_model::collective::nccom::parse_size;
use sb2sb_model::datapath::reduce::Dtype;
use sb2sb_model::isa::Arch;
use sb2sb_model::lower::{self, Program, RunReport};
use sb2sb_model::pair::configs::SystemConfig;
use sb2sb_model::system::Mode as SysMode;
use serde_json::json;

/// `sb2sb run …`
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    #[command(subcommand)]
    cmd: RunCmd,
}

#[derive(clap::Subcommand, Debug)]
enum RunCmd {
    /// Run a JSON program (docs/programs.md) and check its expected results.
    Program(ProgramArgs),
    /// One directed SBUF->SBUF leg on the system model (seed 001 §8 by default):
    /// folded dst_soc, semaphores, byte verification, modeled and host time.
    Sendrecv(LegTraceArgs),
    /// One lowered SENDRECV (0xCB) pair: a SEND on one core, the matching RECV on another.
    Pair(SendrecvArgs),
}

/// Execution mode.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// System model, fast mode: real rdma_desc_gen/start legs over UDMA
    /// descriptor rings, SIMD copies and fused receive-reduce.
    Fast,
    /// System model, cycle mode: the UDMA and EVT_SEM golden models stepped every cycle.
    Cycle,
    /// Flat fast path: SBUF images and SIMD kernels only (also accepts
    /// transfers that shift partitions).
    Flat,
    /// The Verilated 4-core system top (block system_coll, program ranks on
    /// cores 0..=3; a reducing leg's fold runs on the host).
    Rtl,
}

impl Mode {
    /// The `--mode` name.
    fn name(self) -> &'static str {
        match self {
            Mode::Fast => "fast",
            Mode::Cycle => "cycle",
            Mode::Flat => "flat",
            Mode::Rtl => "rtl",
        }
    }
}

/// `run sendrecv`: the leg's arguments and the timeline.
#[derive(clap::Args, Debug)]
struct LegTraceArgs {
    #[command(flatten)]
    leg: super::leg::LegArgs,
    /// Write the leg's timeline here (Chrome trace-event JSON, docs/timeline.md).
    #[arg(long, value_name = "FILE")]
    trace: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
struct ProgramArgs {
    /// The program file (JSON).
    file: PathBuf,
    /// Execution mode.
    #[arg(long, value_enum, default_value = "fast")]
    mode: Mode,
    /// Print one JSON object instead of the report.
    #[arg(long)]
    json: bool,
    /// Write the run's timeline here (Chrome trace-event JSON, docs/timeline.md; fast and cycle mode).
    #[arg(long, value_name = "FILE")]
    trace: Option<PathBuf>,
    /// Configuration of the cores (docs/core.md): system (the system
    /// model sized to the program's topology; default of fast and cycle
    /// mode) or coll (SysParams::COLL, the 4 cores of the block
    /// system_coll; what --mode rtl runs, so `--mode cycle --config coll`
    /// is its golden twin).
    #[arg(long, value_name = "NAME")]
    config: Option<String>,
}

#[derive(clap::Args, Debug)]
struct SendrecvArgs {
    /// Architecture (sunda|v2, cayman|v3, mariana|v4, maverick|v5).
    #[arg(long, default_value = "cayman")]
    arch: String,
    /// Core of the sending rank.
    #[arg(long, default_value = "0")]
    from_core: String,
    /// Core of the receiving rank (default: the sender's d2d peer,
    /// `sengine_get_d2d_peer_nums` seng ^ 2 — core 0 → core 4 on the other die).
    #[arg(long)]
    to_core: Option<String>,
    /// Bytes moved (K/M/G suffixes).
    #[arg(long, default_value = "64K")]
    bytes: String,
    /// SBUF partitions the tensors span.
    #[arg(long, default_value = "128")]
    partitions: String,
    /// Element type of the tensors.
    #[arg(long, default_value = "bf16")]
    dtype: String,
    /// Execution mode.
    #[arg(long, value_enum, default_value = "fast")]
    mode: Mode,
    /// Print one JSON object instead of the report.
    #[arg(long)]
    json: bool,
}

/// Entry point of `sb2sb run`.
pub fn run(a: RunArgs) -> anyhow::Result<i32> {
    match a.cmd {
        RunCmd::Program(p) => {
            let text = std::fs::read_to_string(&p.file)
                .with_context(|| format!("cannot read {}", p.file.display()))?;
            let prog = Program::from_json(&text)
                .with_context(|| format!("{} is not a valid program", p.file.display()))?;
            let config = match &p.config {
                Some(n) => SystemConfig::parse(n)?,
                None => SystemConfig::default_for(p.mode == Mode::Rtl),
            };
            config.check_mode(p.mode.name())?;
            super::timeline::traced(p.trace.as_deref(), || execute(prog, p.mode, config, p.json))
        }
        RunCmd::Sendrecv(l) => {
            anyhow::ensure!(
                l.leg.mode != super::leg::LegMode::Rtl || l.trace.is_none(),
                "--trace: the timeline covers fast and cycle mode; rtl mode writes waveforms (--vcd)"
            );
            let label = format!("sendrecv ({:?} mode)", l.leg.mode).to_lowercase();
            super::timeline::traced(l.trace.as_deref(), || {
                super::timeline::label([label]);
                super::leg::run(l.leg)
            })
        }
        RunCmd::Pair(s) => execute(
            sendrecv_program(&s)?,
            s.mode,
            SystemConfig::default_for(s.mode == Mode::Rtl),
            s.json,
        ),
    }
}

fn number(what: &str, s: &str) -> anyhow::Result<u64> {
    parse_size(s).map_err(|_| anyhow::anyhow!("--{what}: {s:?} is not a number"))
}

/// The program of `run sendrecv`: rank 0 SENDs its tensor to rank 1, which
/// held 0x55 bytes before; expect an exact copy and both semaphores at 1.
fn sendrecv_program(s: &SendrecvArgs) -> anyhow::Result<Program> {
    let arch: Arch = s.arch.parse()?;
    let dtype = Dtype::parse(&s.dtype).with_context(|| {
        format!(
            "--dtype: unknown type {:?} (fp32, bf16, fp16, int32)",
            s.dtype
        )
    })?;
    let bytes = parse_size(&s.bytes)?;
    let parts = number("partitions", &s.partitions)?;
    let from = number("from-core", &s.from_core)?;
    let to = match &s.to_core {
        Some(t) => number("to-core", t)?,
        None => {
            let topo = sb2sb_model::system::Topology::trn2(1 + (from / 8) as u8);
            let c = u16::try_from(from).unwrap_or(u16::MAX);
            u64::from(topo.d2d_peer(sb2sb_model::system::CoreId(c))?.0)
        }
    };
    if parts == 0 || parts > 128 || bytes % parts != 0 {
        bail!("--partitions {parts}: must be 1..=128 and divide --bytes {bytes}");
    }
    let word = |is_send: u8, peer: u32| {
        json!({"kind": "sendrecv", "fields": {"tensor_id": 1, "peer_id": peer, "is_send": is_send,
            "offset_bytes": 0, "size_bytes": bytes, "update_mode": "SEM_INC_ON_COMPLETE", "update_idx": 1}})
    };
    let v = json!({
        "name": "sendrecv",
        "arch": arch,
        "topology": {"packages": 1 + from.max(to) / 8, "dies_per_package": 2, "cores_per_die": 4},
        "ranks": [from, to],
        "replica_groups": [[0, 1]],
        "tensors": [
            {"rank": 0, "id": 1, "partitions": [0, parts], "size": bytes, "dtype": dtype},
            {"rank": 1, "id": 1, "partitions": [0, parts], "size": bytes, "dtype": dtype}
        ],
        "init": [
            {"rank": 0, "tensor": 1, "data": {"random": 1}},
            {"rank": 1, "tensor": 1, "data": {"fill": 0x55}}
        ],
        "programs": [[word(1, 1)], [word(0, 0)]],
        "expect": {
            "data": [{"rank": 1, "tensor": 1, "data": {"copy_of": {"rank": 0, "tensor": 1}}}],
            "sems": [{"rank": 0, "idx": 1, "value": 1}, {"rank": 1, "idx": 1, "value": 1}]
        }
    });
    Ok(serde_json::from_value(v)?)
}

fn execute(prog: Program, mode: Mode, config: SystemConfig, as_json: bool) -> anyhow::Result<i32> {
    let loaded = lower::load(prog)?;
    // Cycle mode: the cycles the system model clocked (every leg, wait
    // and set-up program of the run).
    let (rep, cycles) = match mode {
        Mode::Flat => {
            let mut t = lower::fast_target(&loaded);
            (lower::run(&loaded, &mut t)?, None)
        }
        Mode::Fast | Mode::Cycle => {
            let m = if mode == Mode::Fast {
                SysMode::Fast
            } else {
                SysMode::Cycle
            };
            let mut t = match config.params() {
                Some(p) => lower::SystemTarget::with_params(loaded.program.arch, p, m)?,
                None => lower::system_target(&loaded, m)?,
            };
            let rep = lower::run(&loaded, &mut t)?;
            (rep, (mode == Mode::Cycle).then_some(t.sys.cycle.cycles))
        }
        Mode::Rtl => {
            let mut t = crate::sys_target::rtl_target(loaded.program.arch)?;
            let rep = lower::run(&loaded, &mut t)?;
            (rep, Some(t.sys.cycle.cycles))
        }
    };
    let passed = rep.passed();
    if as_json {
        let mut v = serde_json::to_value(&rep)?;
        v["mode"] = json!(format!("{mode:?}").to_lowercase());
        v["config"] = json!(config.name());
        v["passed"] = json!(passed);
        v["clock_mhz"] = json!(sb2sb_model::clock::CORE_CLK_MHZ);
        if let Some(c) = cycles {
            v["cycles"] = json!(c);
        }
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        print_report(&rep, mode, config, cycles);
    }
    Ok(if passed { 0 } else { 1 })
}

fn print_report(rep: &RunReport, mode: Mode, config: SystemConfig, cycles: Option<u64>) {
    let twin = if mode == Mode::Rtl {
        format!(", twin: --mode cycle --config {}", config.name())
    } else {
        String::new()
    };
    println!(
        "program {:?} ({} mode, config {}{twin}): {} ranks, {} entries issued, {} send/recv pairs, {} collectives",
        rep.name,
        format!("{mode:?}").to_lowercase(),
        config.name(),
        rep.ranks,
        rep.issued,
        rep.pairs,
        rep.collectives
    );
    println!(
        "  {} legs, {} bytes, modeled {:.3} us, host {:.1} us{}",
        rep.legs.legs,
        rep.legs.bytes,
        rep.legs.modeled_ns as f64 / 1e3,
        rep.host_us,
        cycles
            .map(|c| format!(
                " ({c} cycles clocked at {} MHz)",
                sb2sb_model::clock::CORE_CLK_MHZ
            ))
            .unwrap_or_default()
    );
    if let Some(e) = &rep.error {
        println!("  run stopped (as expected): {e}");
    }
    for c in &rep.checks {
        println!(
            "  {} {}: {}",
            if c.ok { "PASS" } else { "FAIL" },
            c.what,
            c.detail
        );
    }
    let ok = rep.checks.iter().filter(|c| c.ok).count();
    println!(
        "result: {} ({ok}/{} checks)",
        if rep.passed() { "PASS" } else { "FAIL" },
        rep.checks.len()
    );
}
