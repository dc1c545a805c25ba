//! `sb2sb nccom` algorithms and outputs through the binary: the algorithm
//! column, auto by size, every algorithm checked in fast and cycle mode,
//! CSV, the JSON report and the SVG plot.

use std::process::{Command, Output};

fn sb2sb(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sb2sb"))
        .args(args)
        .output()
        .expect("run sb2sb")
}

/// `sb2sb` with the words of `line`, then `extra` (paths) as given.
fn sb2sb_line(line: &str, extra: &[&str]) -> Output {
    let mut args: Vec<&str> = line.split_whitespace().collect();
    args.extend_from_slice(extra);
    sb2sb(&args)
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The table rows (lines after the column header, before the average).
fn rows(out: &str) -> Vec<Vec<String>> {
    out.lines()
        .skip_while(|l| !l.trim_start().starts_with("size(B)"))
        .skip(1)
        .take_while(|l| !l.starts_with("Avg bus bandwidth"))
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect()
}

#[test]
fn auto_on_32_ranks_prints_the_algorithm_per_row_and_checks() {
    let o = sb2sb_line(
        "nccom all_gather -r 32 -b 1K -e 512K -f 8 --algorithm auto --show-algorithm --check",
        &[],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("algorithm") && out.contains("time:avg(us)"),
        "{out}"
    );
    let r = rows(&out);
    // 1K, 8K, 64K, 512K: all below 1 MiB, so mesh (runtime docs ranges).
    assert_eq!(r.len(), 4, "{out}");
    for row in &r {
        assert_eq!(row[3], "mesh", "{out}");
        assert_eq!(row.last().map(String::as_str), Some("ok"), "{out}");
    }
    // One fan-out step (one hop; the Q7 issues 31 legs at 0.6 µs each,
    // system::timing) instead of 31 ring steps of a hop and a leg each.
    let ring = sb2sb(&["nccom", "all_gather", "-r", "32", "-b", "1K", "-e", "1K"]);
    let t_ring: f64 = rows(&stdout(&ring))[0][3].parse().unwrap();
    let t_mesh: f64 = r[0][4].parse().unwrap();
    assert!(
        t_mesh * 4.0 < t_ring,
        "mesh {t_mesh} us vs ring {t_ring} us"
    );
}

#[test]
fn every_op_algorithm_and_dtype_checks_in_fast_and_cycle_mode() {
    for mode in ["fast", "cycle"] {
        for op in ["all_gather", "reduce_scatter", "all_reduce"] {
            for d in ["fp32", "bf16", "fp16", "int32"] {
                let o = sb2sb(&[
                    "nccom",
                    op,
                    "-r",
                    "4",
                    "-b",
                    "1K",
                    "-e",
                    "2K",
                    "-d",
                    d,
                    "--mode",
                    mode,
                    "--algorithm",
                    "ring,mesh,rdh,auto",
                    "--reduce",
                    "max",
                    "--check",
                    "--show-algorithm",
                ]);
                assert_eq!(o.status.code(), Some(0), "{op} {d} {mode}: {}", stderr(&o));
                let out = stdout(&o);
                assert_eq!(
                    out.lines()
                        .filter(|l| l.trim_end().ends_with(" ok"))
                        .count(),
                    8,
                    "{op} {d} {mode}: {out}"
                );
            }
        }
    }
}

#[test]
fn rdh_on_six_ranks_is_a_one_line_error() {
    let o = sb2sb(&["nccom", "all_reduce", "-r", "6", "--algorithm", "rdh"]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("power-of-two number of ranks, not 6"), "{e}");
    assert_eq!(e.trim_end().lines().count(), 1, "{e}");
    let o = sb2sb(&["nccom", "all_reduce", "--algorithm", "tree"]);
    assert!(stderr(&o).contains("--algorithm: unknown \"tree\""));
}

#[test]
fn csv_has_a_header_and_one_line_per_row() {
    let o = sb2sb_line(
        "nccom all_reduce -r 8 -b 1K -e 4K --algorithm mesh,rdh --csv",
        &[],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("requested,op,ranks,mode,size_bytes"),
        "{out}"
    );
    assert_eq!(lines.len(), 1 + 2 * 3, "{out}");
    let cols = lines[0].split(',').count();
    for l in &lines[1..] {
        assert_eq!(l.split(',').count(), cols, "{l}");
    }
    assert!(
        lines[1].starts_with("mesh,all_reduce,8,fast,1024,256,fp32,mesh,"),
        "{out}"
    );
    assert!(
        lines[4].starts_with("rdh,all_reduce,8,fast,1024,256,fp32,rdh,"),
        "{out}"
    );
}

#[test]
fn report_file_holds_arguments_machine_timing_version_and_records() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("r.json");
    let o = sb2sb_line(
        "nccom all_gather -r 8 -b 1K -e 64K -f 8 --algorithm auto --report-to-json-file",
        &[f.to_str().unwrap()],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&f).unwrap()).unwrap();
    assert!(v["arguments"]
        .as_array()
        .unwrap()
        .iter()
        .any(|a| a == "--report-to-json-file"));
    assert_eq!(v["machine"]["mode"], "fast");
    assert_eq!(v["version"], env!("CARGO_PKG_VERSION"));
    assert!(v["commit"].as_str().is_some_and(|c| !c.is_empty()));
    // The timing parameters (system::timing): the one clock, the firmware
    // costs (PUBLIC-FACTS §7: ~1300 ns semaphore-to-start) and the derived rows.
    assert_eq!(v["timing"]["clock_mhz"], 850);
    assert_eq!(v["timing"]["firmware"]["step_hop_ns"], 1300);
    assert_eq!(v["timing"]["data_path"].as_array().unwrap().len(), 15);
    let recs = v["results"].as_array().unwrap();
    assert_eq!(recs.len(), 3);
    for (r, size) in recs.iter().zip([1024, 8192, 65536]) {
        assert_eq!(r["size_bytes"], size);
        assert_eq!(r["algorithm"], "mesh");
        assert!(r["time_avg_us"].as_f64().unwrap() > 0.0);
    }
}

#[test]
fn plot_writes_an_svg_with_one_series_per_algorithm_and_the_published_points() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("p.svg");
    let o = sb2sb_line(
        "nccom all_gather -r 8 -b 1K -e 512K -f 8 --algorithm ring,mesh,rdh,auto --plot",
        &[f.to_str().unwrap(), "--plot-published"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let svg = std::fs::read_to_string(&f).unwrap();
    assert!(
        svg.starts_with("<svg") || svg.starts_with("<?xml"),
        "{}",
        &svg[..80]
    );
    assert!(svg.trim_end().ends_with("</svg>"));
    // One 2-pixel line per algorithm (axes and ticks are 1 pixel), four
    // points each; the legend names each series and the published points.
    let series: Vec<&str> = svg
        .lines()
        .filter(|l| l.starts_with("<polyline") && l.contains("stroke-width=\"2\" points"))
        .collect();
    assert_eq!(series.len(), 4, "{svg}");
    for l in &series {
        assert_eq!(l.matches(',').count(), 4, "{l}");
    }
    let texts: Vec<&str> = svg
        .lines()
        .map(str::trim)
        .filter(|l| !l.starts_with('<'))
        .collect();
    for name in ["ring", "mesh", "rdh", "auto"] {
        assert!(texts.contains(&name), "{name} missing from the legend");
    }
    assert!(texts
        .iter()
        .any(|t| t.starts_with("published trn2 all_gather 8 ranks")));
}

/// Whether this build verilated the RTL-only system top of `--mode rtl`
/// (an opt-in block: `SB2SB_BLOCKS=all,system_coll`); the RTL tests print
/// why they skip otherwise.
fn rtl_built() -> bool {
    let name = sb2sb_model::pair::system::BLOCK_COLL.name;
    let ok = sb2sb::rtl::compiled_blocks().iter().any(|b| b == name);
    if !ok {
        eprintln!(
            "SKIP: block {name} is not in this build; build it with \
             SB2SB_BLOCKS=all,{name} cargo test --release --test cli_nccom"
        );
    }
    ok
}

/// `--mode rtl -r 4 --check` for every op at 1 KiB and 64 KiB per rank: the
/// Verilated system's buffers equal the plain reference (`--check`) and the
/// modeled time is a positive number of clock cycles.
#[test]
fn rtl_mode_checks_every_op_on_4_ranks_at_1k_and_64k() {
    if !rtl_built() {
        return;
    }
    for op in [
        "all_gather",
        "reduce_scatter",
        "all_reduce",
        "permute",
        "sendrecv",
    ] {
        let o = sb2sb_line(
            &format!("nccom {op} -r 4 -b 1K -e 64K -f 64 --mode rtl --check --json"),
            &[],
        );
        assert_eq!(o.status.code(), Some(0), "{op}: {}", stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["machine"], "rtl", "{v}");
        let rows = v["rows"].as_array().unwrap();
        assert_eq!(rows.len(), 2, "{op}: {v}");
        for r in rows {
            assert_eq!(r["verified"], true, "{op}: {r}");
            assert!(r["cycles"].as_u64().unwrap() > 0, "{op}: {r}");
        }
    }
}

/// `rows` of an `nccom ... --json` run: (size, cycles, time_us, verified).
fn json_rows(line: &str) -> Vec<(u64, u64, f64, bool)> {
    let o = sb2sb_line(line, &[]);
    assert_eq!(o.status.code(), Some(0), "{line}: {}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["size_bytes"].as_u64().unwrap(),
                r["cycles"].as_u64().unwrap(),
                r["time_us"].as_f64().unwrap(),
                r["verified"] == true,
            )
        })
        .collect()
}

/// The four ops of the RTL's modeled-time comparison.
const RTL_OPS: [&str; 4] = ["all_gather", "reduce_scatter", "all_reduce", "permute"];

/// One op at one size on a caller-built 4-core target, checked against
/// the plain reference: its modeled ns and the prepared run (for byte and
/// semaphore comparisons).
fn run_on_target(
    op: &str,
    size: u64,
    t: Box<dyn sb2sb_model::lower::Target>,
) -> (u64, sb2sb_model::collective::nccom::Prepared) {
    use sb2sb_model::collective::algo::Algorithm;
    use sb2sb_model::collective::nccom::{self, Config, Machine};
    use sb2sb_model::collective::{run_algo, CollectiveOp};
    use sb2sb_model::datapath::reduce::{Dtype, ReduceOp};
    let op = CollectiveOp::parse(op).unwrap();
    let cfg = Config {
        machine: Machine::Rtl,
        ..four_rank_config(op, size, Dtype::Fp32, 1, Algorithm::Ring)
    };
    let red = op.reduces().then_some((Dtype::Fp32, ReduceOp::Sum));
    let mut p = nccom::prepare_on(&cfg, size, t).unwrap();
    let rep = run_algo(p.target.as_mut(), op, &p.members, 0, red, Algorithm::Ring).unwrap();
    nccom::verify(&cfg, size, &p).unwrap();
    (rep.modeled_ns, p)
}

/// `--mode rtl` runs the block `system_coll` beside the system model's
/// cycle mode at `--config coll`, its Q7 ports driven by cycle mode's
/// executor and checked every cycle: for every op at 1 KiB and 64 KiB per
/// rank it reports the same modeled time as cycle mode, to the cycle, and
/// the same bytes and semaphores; the command line's `--json` rows (cycles
/// included) are equal too, and both pass `--check`.
#[test]
fn rtl_mode_equals_cycle_mode_at_config_coll_to_the_cycle() {
    use sb2sb::sys_target::rtl_target;
    use sb2sb_model::isa::Arch;
    use sb2sb_model::lower::system_target::SystemTarget;
    use sb2sb_model::pair::system::SysParams;
    use sb2sb_model::system::Mode;
    if !rtl_built() {
        return;
    }
    for op in RTL_OPS {
        for size in [1u64 << 10, 64 << 10] {
            let (rtl_ns, rtl) =
                run_on_target(op, size, Box::new(rtl_target(Arch::Cayman).unwrap()));
            let twin =
                SystemTarget::with_params(Arch::Cayman, SysParams::COLL, Mode::Cycle).unwrap();
            let (cyc_ns, cyc) = run_on_target(op, size, Box::new(twin));
            assert_eq!(rtl_ns, cyc_ns, "{op} {size}");
            assert_same_ranks(&rtl, &cyc, &format!("{op} {size}"));
        }
        let base = format!("nccom {op} -r 4 -b 1K -e 64K -f 64 --check --json");
        let rtl = json_rows(&format!("{base} --mode rtl"));
        let cyc = json_rows(&format!("{base} --mode cycle --config coll"));
        assert_eq!(rtl.len(), 2, "{op}");
        assert_eq!(rtl, cyc, "{op}: (size, cycles, ns, passed)");
        assert!(rtl.iter().all(|r| r.3), "{op}: {rtl:?}");
    }
}

/// Without a Verilated build: the golden system top (`pair::system::SysTop`,
/// the `system_coll` block's lockstep twin, an independent composition of
/// the golden cores and links) clocked beside cycle mode at `--config coll`
/// answers every Q7 port transaction of every op at 1 KiB and 64 KiB per
/// rank in the same cycle with the same data, ends every batch with the
/// same semaphores and every read with the same bytes, and so reports the
/// modeled time of cycle mode alone; both pass the plain reference.
#[test]
fn cycle_mode_at_config_coll_runs_cycle_for_cycle_on_the_golden_system_top() {
    use sb2sb::sys_target::golden_target;
    use sb2sb_model::isa::Arch;
    use sb2sb_model::lower::system_target::SystemTarget;
    use sb2sb_model::pair::system::SysParams;
    use sb2sb_model::system::Mode;
    for op in RTL_OPS {
        for size in [1u64 << 10, 64 << 10] {
            let gold_t = golden_target(Arch::Cayman).unwrap();
            let (gold_ns, gold) = run_on_target(op, size, Box::new(gold_t));
            let twin =
                SystemTarget::with_params(Arch::Cayman, SysParams::COLL, Mode::Cycle).unwrap();
            let (cyc_ns, cyc) = run_on_target(op, size, Box::new(twin));
            assert_eq!(gold_ns, cyc_ns, "{op} {size}");
            assert_same_ranks(&gold, &cyc, &format!("{op} {size}"));
        }
    }
}

/// The check can fail: a golden system top whose fabric links all take the
/// on-die latency (`SysFault::OnDieLatencyEverywhere`, a composition bug)
/// parts from cycle mode on a Q7 port — a leg across the dies completes
/// early, so a semaphore poll reads another value — and the run stops with
/// the cycle, the core and both outputs named.
#[test]
fn a_system_top_with_a_wrong_link_latency_parts_from_cycle_mode() {
    use sb2sb::sys_target::target_on;
    use sb2sb_model::collective::algo::Algorithm;
    use sb2sb_model::collective::nccom::{self, Config, Machine};
    use sb2sb_model::collective::{run_algo, CollectiveOp};
    use sb2sb_model::datapath::reduce::Dtype;
    use sb2sb_model::isa::Arch;
    use sb2sb_model::pair::system::{SysFault, SysParams, SysTop};
    let mut top = SysTop::new(SysParams::COLL);
    top.inject(SysFault::OnDieLatencyEverywhere);
    let op = CollectiveOp::Permute;
    let cfg = Config {
        machine: Machine::Rtl,
        ..four_rank_config(op, 4 << 10, Dtype::Fp32, 1, Algorithm::Ring)
    };
    let t = target_on(Arch::Cayman, top).unwrap();
    let mut p = nccom::prepare_on(&cfg, 4 << 10, Box::new(t)).unwrap();
    let e = run_algo(p.target.as_mut(), op, &p.members, 0, None, Algorithm::Ring)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("the mirrored system top parted from the golden cores on core")
            && e.contains("Q7 port: golden AxilOut"),
        "{e}"
    );
}

/// Fast and cycle mode at `--config coll` (the RTL's twin configuration,
/// no Verilated build needed) leave every rank's buffers equal to each
/// other byte for byte and to the plain reference
/// (`collective::reference`), for the four ops at 1 KiB and 64 KiB per
/// rank; both run the same legs.
#[test]
fn fast_and_cycle_mode_at_config_coll_agree_with_the_reference() {
    use sb2sb_model::collective::algo::Algorithm;
    use sb2sb_model::collective::nccom::{self, Config, Machine};
    use sb2sb_model::collective::{run_algo, CollectiveOp};
    use sb2sb_model::datapath::reduce::{Dtype, ReduceOp};
    use sb2sb_model::pair::configs::SystemConfig;
    for op in RTL_OPS {
        let op = CollectiveOp::parse(op).unwrap();
        for size in [1u64 << 10, 64 << 10] {
            let cfg = four_rank_config(op, size, Dtype::Fp32, 3, Algorithm::Ring);
            let ccfg = Config {
                machine: Machine::SystemCycle,
                ..cfg
            };
            let red = op.reduces().then_some((Dtype::Fp32, ReduceOp::Sum));
            let mut fast = nccom::prepare_with(&cfg, size, SystemConfig::Coll).unwrap();
            let mut cyc = nccom::prepare_with(&ccfg, size, SystemConfig::Coll).unwrap();
            let mut legs = Vec::new();
            for p in [&mut fast, &mut cyc] {
                assert_eq!(p.target.cores(), 4);
                let rep =
                    run_algo(p.target.as_mut(), op, &p.members, 0, red, Algorithm::Ring).unwrap();
                legs.push(rep.legs);
            }
            assert_eq!(legs[0], legs[1], "{op} {size}");
            nccom::verify(&cfg, size, &fast).unwrap();
            nccom::verify(&ccfg, size, &cyc).unwrap();
            assert_same_ranks(&fast, &cyc, &format!("{op} {size}"));
        }
    }
}

/// `--config` names a configuration a mode can run, or stops with one
/// line: the RTL has no top at the system's default core, the flat path
/// no cores, `coll` has 4 cores, a lockstep top's core is not a system.
#[test]
fn config_option_refuses_what_a_mode_cannot_run() {
    for (line, want) in [
        (
            "nccom all_gather -r 4 -b 1K -e 1K --mode rtl --config system",
            "--config system with --mode rtl",
        ),
        (
            "nccom all_gather -r 4 -b 1K -e 1K --mode flat --config coll",
            "--config coll with --mode flat",
        ),
        (
            "nccom all_gather -r 8 -b 1K -e 1K --mode cycle --config coll",
            "config coll has 4 cores",
        ),
        (
            "nccom all_gather -r 4 -b 1K -e 1K --config leg16",
            "--config leg16: the core of lockstep block `leg16`",
        ),
        (
            "nccom all_gather -r 4 -b 1K -e 1K --config huge",
            "--config \"huge\": unknown configuration",
        ),
        (
            "run program examples/reduce_scatter_int32_min.json --mode rtl --config system",
            "--config system with --mode rtl",
        ),
    ] {
        let o = sb2sb_line(line, &[]);
        assert_ne!(o.status.code(), Some(0), "{line}");
        let e = stderr(&o);
        assert!(e.contains(want), "{line}: {e}");
        assert_eq!(e.trim_end().lines().count(), 1, "{line}: {e}");
    }
    // The table names the configuration it ran.
    let o = sb2sb_line(
        "nccom all_gather -r 4 -b 1K -e 1K --mode cycle --config coll --check",
        &[],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("config coll"), "{}", stdout(&o));
}

/// More ranks than the Verilated system has cores is one line on stderr.
#[test]
fn rtl_mode_refuses_more_ranks_than_the_system_top_has_cores() {
    let o = sb2sb_line("nccom all_gather -r 8 -b 1K -e 1K --mode rtl", &[]);
    assert_ne!(o.status.code(), Some(0));
    assert!(
        stderr(&o).contains("--mode rtl runs on the Verilated system top's 4 cores"),
        "{}",
        stderr(&o)
    );
}

/// The RTL's final buffers and semaphores equal fast mode's byte for byte,
/// for every op (ring and the mesh / rdh algorithms of the blocked ops), and
/// both equal the plain reference (`collective::reference`, the independent
/// oracle).
#[test]
fn rtl_final_buffers_and_semaphores_equal_fast_modes() {
    use sb2sb_model::collective::algo::Algorithm;
    use sb2sb_model::collective::nccom::{self, Config, Machine};
    use sb2sb_model::collective::{run_algo, CollectiveOp};
    use sb2sb_model::datapath::reduce::{Dtype, ReduceOp};
    use sb2sb_model::isa::Arch;
    if !rtl_built() {
        return;
    }
    let cases = [
        (CollectiveOp::AllReduce, Algorithm::Ring, Dtype::Bf16),
        (CollectiveOp::AllReduce, Algorithm::Rdh, Dtype::Fp32),
        (CollectiveOp::ReduceScatter, Algorithm::Mesh, Dtype::Fp32),
        (CollectiveOp::AllGather, Algorithm::Ring, Dtype::Fp16),
        (CollectiveOp::AllGather, Algorithm::Mesh, Dtype::Int32),
        (CollectiveOp::Permute, Algorithm::Ring, Dtype::Fp32),
    ];
    for (op, algo, dtype) in cases {
        let size = 16 << 10;
        let cfg = four_rank_config(op, size, dtype, 5, algo);
        let red = op.reduces().then_some((dtype, ReduceOp::Sum));
        let mut fast = nccom::prepare(&cfg, size).unwrap();
        let rtl_t = sb2sb::sys_target::rtl_target(Arch::Cayman).unwrap();
        let rcfg = Config {
            machine: Machine::Rtl,
            ..cfg
        };
        let mut rtl = nccom::prepare_on(&rcfg, size, Box::new(rtl_t)).unwrap();
        for p in [&mut fast, &mut rtl] {
            run_algo(p.target.as_mut(), op, &p.members, 0, red, algo).unwrap();
        }
        nccom::verify(&rcfg, size, &rtl).unwrap();
        nccom::verify(&cfg, size, &fast).unwrap();
        assert_same_ranks(&fast, &rtl, &format!("{op} {algo:?}"));
    }
}

/// `run program --mode rtl` (and `run pair`) on the Verilated system: a
/// 4-rank example program passes its own checks, a SENDRECV pair across the
/// dies lands its bytes and raises both semaphores to 1 (host semaphore
/// updates carried by the cores' Q7s), and a program that places a rank on
/// a fifth core is a typed error.
#[test]
fn run_program_in_rtl_mode_passes_its_checks() {
    if !rtl_built() {
        return;
    }
    let o = sb2sb_line(
        "run program examples/reduce_scatter_int32_min.json --mode rtl --json",
        &[],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["mode"], "rtl");
    assert_eq!(v["passed"], true, "{v}");
    assert!(v["cycles"].as_u64().unwrap() > 0, "{v}");
    let o = sb2sb_line(
        "run pair --from-core 0 --to-core 2 --bytes 16K --mode rtl --json",
        &[],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["passed"], true, "{v}");
    let checks = v["checks"].as_array().unwrap();
    assert_eq!(checks.len(), 3, "{v}");
    assert!(checks.iter().all(|c| c["ok"] == true), "{v}");
    let o = sb2sb_line("run program examples/all_gather.json --mode rtl", &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("core 4 does not exist (the topology has 4 cores)"),
        "{}",
        stderr(&o)
    );
}

/// A leg the Verilated system cannot carry is a typed error: a fifth core,
/// a region past the target's 8 KiB of each partition, a leg that shifts
/// partitions; a leg it can carry lands its bytes (read back through the
/// backdoor) and leaves its semaphores at 0.
#[test]
fn rtl_target_refuses_legs_it_cannot_carry() {
    use sb2sb_model::isa::Arch;
    use sb2sb_model::lower::{Leg, Region, Target, TargetError};
    if !rtl_built() {
        return;
    }
    let mut t = sb2sb::sys_target::rtl_target(Arch::Cayman).unwrap();
    let r = |core, partition, offset, bytes| Region {
        core,
        partition,
        partitions: 4,
        offset,
        bytes,
    };
    let leg = |src, dst| Leg {
        src,
        dst,
        reduce: None,
    };
    assert_eq!(t.partition_bytes(), 8192);
    assert!(matches!(
        t.run_legs(&[leg(r(0, 0, 0, 64), r(4, 0, 0, 64))]),
        Err(TargetError::NoSuchCore { core: 4, cores: 4 })
    ));
    assert!(matches!(
        t.run_legs(&[leg(r(0, 0, 0, 64), r(1, 0, 8160, 64))]),
        Err(TargetError::OutOfRange {
            end_offset: 8224,
            ..
        })
    ));
    assert!(matches!(
        t.run_legs(&[leg(r(0, 0, 0, 64), r(1, 8, 0, 64))]),
        Err(TargetError::System(m)) if m.contains("shifts partitions")
    ));
    let data: Vec<u8> = (0..64u8).map(|b| b.wrapping_mul(7) ^ 0x5a).collect();
    for p in 0..4 {
        t.write(2, p, 96, &data).unwrap();
    }
    let rep = t
        .run_legs(&[leg(r(2, 0, 96, 64), r(1, 0, 200, 64))])
        .unwrap();
    assert_eq!((rep.legs, rep.bytes), (1, 256));
    for p in 0..4 {
        assert_eq!(t.read(1, p, 200, 64).unwrap(), data, "partition {p}");
    }
    assert_eq!(t.read(1, 4, 200, 64).unwrap(), vec![0u8; 64]);
    for c in 0..4 {
        for s in 0..=255u8 {
            assert_eq!(t.sem(c, s).unwrap(), 0, "core {c} semaphore {s}");
        }
    }
}

/// Two runs of one collective on four cores end with every rank's input and
/// output buffer byte for byte equal and all 256 semaphores of every core
/// equal (`what` names the run in a failure).
fn assert_same_ranks(
    x: &sb2sb_model::collective::nccom::Prepared,
    y: &sb2sb_model::collective::nccom::Prepared,
    what: &str,
) {
    use sb2sb_model::collective::read_tensor;
    for (mx, my) in x.members.iter().zip(&y.members) {
        for (bx, by) in [(Some(mx.input), Some(my.input)), (mx.output, my.output)] {
            let (Some(bx), Some(by)) = (bx, by) else {
                continue;
            };
            let a = read_tensor(x.target.as_ref(), &bx, 0, bx.size).unwrap();
            let b = read_tensor(y.target.as_ref(), &by, 0, by.size).unwrap();
            assert!(a == b, "{what}: rank {} differs", mx.input.core);
        }
    }
    for c in 0..4 {
        for s in 0..=255u8 {
            assert_eq!(
                x.target.sem(c, s).unwrap(),
                y.target.sem(c, s).unwrap(),
                "{what}: core {c} semaphore {s}"
            );
        }
    }
}

/// A 4-rank nccom run of one size on the system model in fast mode, fixed
/// algorithm, summing reductions, checked.
fn four_rank_config(
    op: sb2sb_model::collective::CollectiveOp,
    size: u64,
    dtype: sb2sb_model::datapath::reduce::Dtype,
    seed: u64,
    algo: sb2sb_model::collective::algo::Algorithm,
) -> sb2sb_model::collective::nccom::Config {
    use sb2sb_model::collective::algo::Choice;
    use sb2sb_model::collective::nccom::{Config, Machine};
    Config {
        op,
        ranks: 4,
        min_bytes: size,
        max_bytes: size,
        factor: 2,
        dtype,
        reduce: sb2sb_model::datapath::reduce::ReduceOp::Sum,
        check: true,
        channel: 0,
        arch: sb2sb_model::isa::Arch::Cayman,
        seed,
        machine: Machine::SystemFast,
        algorithm: Choice::Fixed(algo),
    }
}
