//! `sb2sb run sendrecv`: the seed 001 §8 leg end to end on the system model.

mod common;

use std::process::{Command, Output};

fn sb2sb(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sb2sb"))
        .args(args)
        .output()
        .unwrap()
}

fn json(args: &[&str]) -> serde_json::Value {
    let o = sb2sb(args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn seed001_s8_leg_folds_to_0x58800000100000_and_both_semaphores_reach_4() {
    let o = sb2sb(&["run", "sendrecv"]);
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("dst_soc          0x58800000100000"), "{text}");
    assert!(text.contains("result: PASS"), "{text}");
    let v = json(&["run", "sendrecv", "--json"]);
    assert_eq!(v["dst_soc"], 0x58800000100000u64);
    assert_eq!(v["bytes"], 128 * 16384);
    assert_eq!(v["engines"], 4);
    assert_eq!(
        v["descriptors"], 136,
        "4 engines x (32 data + local + remote semaphore descriptors)"
    );
    assert_eq!(v["local_sem"]["index"], 12);
    assert_eq!(v["local_sem"]["value"], 4);
    assert_eq!(v["remote_sem"]["index"], 20);
    assert_eq!(v["remote_sem"]["value"], 4);
    assert_eq!(v["remote_sem"]["after_wait_ge_and_dec"], 0);
    assert_eq!(v["verified"], true);
    assert!(v["modeled_us"].as_f64().unwrap() > 0.0);
}

#[test]
fn same_die_and_cross_chip_variants_verify_in_fast_and_cycle_mode() {
    let s = json(&[
        "run",
        "sendrecv",
        "--same-die",
        "--json",
        "--bytes",
        "4K",
        "--partitions",
        "16",
    ]);
    assert_eq!(s["dst_soc"], 0x100000, "same die: no fold");
    assert_eq!(s["link"], "on_die");
    assert_eq!(s["pass"], true);
    for mode in ["fast", "cycle"] {
        let c = json(&[
            "run",
            "sendrecv",
            "--cross-chip",
            "--json",
            "--bytes",
            "2K",
            "--partitions",
            "8",
            "--mode",
            mode,
        ]);
        // Chip-id fold of 0x100000, die 1, CAYMAN_ID 0x12 (the field-table value, seed 001 §8).
        assert_eq!(c["dst_soc"], 0x0052_8000_0010_0000u64, "{mode}");
        assert_eq!(c["pass"], true, "{mode}");
        assert_eq!(c["remote_sem"]["value"], 4, "{mode}");
    }
}

#[test]
fn engine_mask_sets_the_semaphore_targets() {
    let v = json(&[
        "run",
        "sendrecv",
        "--json",
        "--engine-mask",
        "0xFFFF",
        "--bytes",
        "1K",
    ]);
    assert_eq!(v["engines"], 16);
    assert_eq!(
        v["local_sem"]["value"], 16,
        "local_sem is bumped by all 16 engines (seed 001 §5.2)"
    );
    assert_eq!(v["remote_sem"]["value"], 16);
}

#[test]
fn transaction_trace_is_a_vcd_gtkwave_parses() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("leg.vcd");
    let o = sb2sb(&[
        "run",
        "sendrecv",
        "--bytes",
        "1K",
        "--partitions",
        "8",
        "--vcd",
        p.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    common::vcd2fst_accepts(&p);
    let vars = common::vcd_vars(&p, "system.core7");
    assert!(
        vars.iter().any(|v| v.0 == "sem20"),
        "remote_sem traced on the RX core: {vars:?}"
    );
}

#[test]
fn bad_leg_arguments_are_one_line_errors() {
    for args in [
        &["run", "sendrecv", "--engine-mask", "0"][..],
        &["run", "sendrecv", "--partitions", "0"][..],
        &["run", "sendrecv", "--chip-id", "64", "--cross-chip"][..],
        &["run", "sendrecv", "--src-offset", "0x10000000"][..],
    ] {
        let o = sb2sb(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let e = String::from_utf8_lossy(&o.stderr);
        assert_eq!(e.trim_end().lines().count(), 1, "{args:?}: {e}");
    }
}

#[test]
fn odd_byte_offsets_run_in_both_modes() {
    for mode in ["fast", "cycle"] {
        let o = sb2sb(&[
            "run",
            "sendrecv",
            "--src-offset",
            "0x100003",
            "--dst-offset",
            "0x100005",
            "--mode",
            mode,
        ]);
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(0), "{mode}: {out}");
        assert!(out.contains("bytes equal, byte by byte"), "{mode}: {out}");
    }
}
