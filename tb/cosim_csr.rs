//! Generated CSR tests (model/src/regs/csr.rs: reset values, read/write,
//! bit-bash, aliasing, WO/RO/W1C) in lockstep: golden model against the RTL
//! for EVT_SEM and every UDMA width.

mod common;

use sb2sb::lockstep::{self, Options};
use sb2sb_model::evt_sem::csr::EvtSemCsr;
use sb2sb_model::evt_sem::EvtSem;
use sb2sb_model::ports::Stimulus;
use sb2sb_model::udma::csr::UdmaCsr;
use sb2sb_model::udma::{UdmaEngine, UdmaWidth, W128, W256, W32, W64};

fn opts(cycles: u64) -> Options {
    Options {
        seed: 1,
        cycles,
        ..Options::default()
    }
}

fn check(r: &lockstep::Report, what: &str) {
    if let Some(m) = &r.first_mismatch {
        panic!("{what}: {}", m.render());
    }
    assert!(r.passed(), "{what}: lockstep did not pass");
    assert_eq!(r.cov("csr_fail"), 0, "{what}");
    assert_eq!(r.cov("csr_left"), 0, "{what}: plan not finished");
    for name in ["hw_reset", "rw", "bit_bash", "aliasing", "wo", "ro", "w1c"] {
        assert!(r.cov(&format!("csr_{name}")) > 0, "{what}: csr_{name}");
    }
}

#[test]
fn evt_sem_csr_tests_pass_in_lockstep() {
    let _g = common::lock();
    let n = 60_000;
    let r = lockstep::run(
        EvtSem::new(),
        EvtSemCsr::new(1, n),
        &sb2sb_model::evt_sem::BLOCK,
        &opts(n),
    )
    .unwrap();
    check(&r, "evt_sem");
}

fn udma<W: UdmaWidth>() {
    let n = 200_000;
    let r = lockstep::run(
        UdmaEngine::<W>::new(),
        UdmaCsr::<W>::new(1, n),
        W::BLOCK,
        &opts(n),
    )
    .unwrap();
    check(&r, W::BLOCK.name);
}

#[test]
fn udma_csr_tests_pass_in_lockstep_at_every_width() {
    let _g = common::lock();
    udma::<W64>();
    udma::<W32>();
    udma::<W128>();
    udma::<W256>();
}

// ---- `sb2sb csr` (the CLI over the same generated plans) ----

fn sb2sb_csr(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_sb2sb"))
        .arg("csr")
        .args(args)
        .output()
        .expect("run sb2sb csr")
}

/// Transactions of each test kind in a plan, counted here from the plan itself.
fn kinds_of(plan: &[(sb2sb_model::regs::csr::Op, &'static str)]) -> Vec<(String, u64)> {
    sb2sb_model::regs::csr::SEQ_NAMES
        .iter()
        .map(|n| {
            (
                n.to_string(),
                plan.iter().filter(|(_, k)| k == n).count() as u64,
            )
        })
        .collect()
}

#[test]
fn csr_cli_runs_every_block_and_reports_the_plan_counts() {
    let _g = common::lock();
    use sb2sb_model::regs::csr::plan;
    let evt = plan(&EvtSemCsr::insts());
    let udma = plan(&sb2sb_model::udma::csr::insts());
    for (block, p) in [
        ("evt_sem", &evt),
        ("udma", &udma),
        ("udma_w32", &udma),
        ("udma_w128", &udma),
        ("udma_w256", &udma),
    ] {
        let o = sb2sb_csr(&["--block", block, "--json"]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            o.status.success(),
            "{block}: exit {:?}: {err}",
            o.status.code()
        );
        let j: serde_json::Value = serde_json::from_slice(&o.stdout).expect("--json parses");
        assert_eq!(j["block"], block);
        assert_eq!(j["passed"], true, "{block}: {j}");
        assert_eq!(j["failures"], 0, "{block}");
        assert_eq!(j["left"], 0, "{block}");
        assert_eq!(j["mismatches"], 0, "{block}");
        assert_eq!(j["planned"], p.len() as u64, "{block}");
        // Every kind ran, exactly as many transactions as the plan holds.
        let want = kinds_of(p);
        let got: Vec<(String, u64)> = j["kinds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| (k[0].as_str().unwrap().to_string(), k[1].as_u64().unwrap()))
            .collect();
        assert_eq!(got, want, "{block}");
        assert!(want.iter().all(|(_, n)| *n > 0), "{block}: {want:?}");
    }
    // The table names every kind and the verdict.
    let o = sb2sb_csr(&["--block", "evt_sem"]);
    assert!(o.status.success());
    let t = String::from_utf8_lossy(&o.stdout);
    for k in [
        "hw_reset",
        "rw",
        "bit_bash",
        "aliasing",
        "wo",
        "ro",
        "w1c",
        "result: PASS",
    ] {
        assert!(t.contains(k), "{k} missing:\n{t}");
    }
}

#[test]
fn csr_cli_reports_a_mismatch_with_cycle_signal_and_both_values() {
    let _g = common::lock();
    let o = sb2sb_csr(&[
        "--block",
        "udma_w32",
        "--inject-fault",
        "s_axil_rdata:3@150",
    ]);
    assert_eq!(o.status.code(), Some(1), "a flipped bit must fail the run");
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(out.contains("result: FAIL"), "{out}");
    assert!(err.contains("at cycle 150"), "{err}");
    assert!(err.contains("s_axil_rdata"), "{err}");
    assert!(err.contains("golden") && err.contains("rtl"), "{err}");
    // Unknown block: one-line error naming the known ones.
    let o = sb2sb_csr(&["--block", "leg"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("evt_sem, udma, udma_w32, udma_w128, udma_w256"),
        "{err}"
    );
}
