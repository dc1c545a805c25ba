//! `--trace FILE` end to end (docs/timeline.md): `sb2sb run sendrecv`, `sb2sb
//! run program` and `sb2sb nccom` in fast and cycle mode write a trace that
//! passes the structure check, whose last timestamp is the modeled time the
//! command's own `--json` report gives, and whose semaphore counters end at
//! the values that report gives.

use std::process::{Command, Output};

use sb2sb_model::trace::check::{check, Summary};
use serde_json::Value;

fn sb2sb(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sb2sb"))
        .args(args)
        .output()
        .expect("run sb2sb")
}

/// Run with `--json --trace FILE`: (the report, the checked trace).
fn traced(args: &[&str]) -> (Value, Summary) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.json");
    let mut a = args.to_vec();
    a.extend(["--json", "--trace", file.to_str().unwrap()]);
    let o = sb2sb(&a);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let rep: Value = serde_json::from_slice(&o.stdout).unwrap();
    let t: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    let s = check(&t).unwrap_or_else(|e| panic!("{args:?}: {e}"));
    assert!(s.slices > 0);
    (rep, s)
}

fn ps_of_us(v: &Value) -> u64 {
    (v.as_f64().unwrap() * 1e6).round() as u64
}

#[test]
fn run_sendrecv_trace_ends_at_the_modeled_time_with_the_reported_semaphores() {
    for mode in ["fast", "cycle"] {
        let (rep, s) = traced(&["run", "sendrecv", "--mode", mode, "--bytes", "1K"]);
        assert_eq!(s.end_ps, ps_of_us(&rep["modeled_us"]), "{mode}");
        let (src, dst) = (
            rep["src_core"].as_u64().unwrap(),
            rep["dst_core"].as_u64().unwrap(),
        );
        let local = format!("sem {}", rep["local_sem"]["index"]);
        let remote = format!("sem {}", rep["remote_sem"]["index"]);
        assert_eq!(
            s.counters[&(src + 1, local)],
            rep["local_sem"]["value"].as_f64().unwrap(),
            "{mode}"
        );
        // After the next step's wait-and-decrement, which the command runs.
        assert_eq!(
            s.counters[&(dst + 1, remote)],
            rep["remote_sem"]["after_wait_ge_and_dec"].as_f64().unwrap(),
            "{mode}"
        );
        assert!(s
            .dma_chains
            .iter()
            .all(|c| c.ends_with(&["leg".to_string(), "dma".to_string()])));
    }
}

#[test]
fn run_program_and_nccom_traces_end_at_the_reported_time() {
    let prog = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/all_gather.json");
    for mode in ["fast", "cycle"] {
        let (rep, s) = traced(&["run", "program", prog, "--mode", mode]);
        assert_eq!(
            s.end_ps,
            rep["legs"]["modeled_ns"].as_u64().unwrap() * 1000,
            "{mode}"
        );
        let (rep, s) = traced(&[
            "nccom",
            "all_gather",
            "-r",
            "4",
            "-b",
            "1K",
            "-e",
            "4K",
            "-f",
            "4",
            "--mode",
            mode,
        ]);
        let total: f64 = rep["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["time_us"].as_f64().unwrap())
            .sum();
        assert_eq!(s.end_ps, (total * 1e6).round() as u64, "{mode}");
        let want = ["collective", "step", "leg", "dma"]
            .map(String::from)
            .to_vec();
        assert!(
            s.dma_chains.iter().all(|c| *c == want),
            "{mode}: {:?}",
            s.dma_chains
        );
        // The lowering's leg semaphores end where they started.
        assert!(
            s.counters.values().all(|v| *v == 0.0),
            "{mode}: {:?}",
            s.counters
        );
    }
}

#[test]
fn trace_of_a_flat_run_or_rtl_mode_is_a_one_line_error() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("t.json");
    let f = f.to_str().unwrap();
    let o = sb2sb(&[
        "nccom",
        "all_gather",
        "-r",
        "2",
        "-b",
        "1K",
        "-e",
        "1K",
        "--mode",
        "flat",
        "--trace",
        f,
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--mode flat has no timeline"));
    let o = sb2sb(&["run", "sendrecv", "--mode", "rtl", "--trace", f]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("rtl mode"));
}
