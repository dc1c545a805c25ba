//! Lockstep of the SB2SB leg: the golden pair composed from the golden blocks
//! (`sb2sb_model::pair`) against the Verilated `rtl/sb2sb_pair.sv`, driven by
//! the environment that plays both Q7s; the seed 001 §8 leg checked against
//! the system model's fast mode; faults of the composition caught at the
//! right cycle and signal.

mod common;

use sb2sb::lockstep::{self, MismatchKind, Options, Report};
use sb2sb::rtl::XInit;
use sb2sb_model::pair::{
    leg16_params, LegEnv, LegFault, Pair, PairOut, Scenario, BLOCK, BLOCK_LEG16, SCENARIOS,
};
use sb2sb_model::ports::{CycleModel, PortBundle, Stimulus};

fn opts(seed: u64, cycles: u64) -> Options {
    Options {
        seed,
        cycles,
        x_init: XInit::Random,
        ..Options::default()
    }
}

fn clean(r: &Report) {
    if let Some(m) = &r.first_mismatch {
        panic!("{}", m.render());
    }
    assert_eq!(r.cov("check_fail"), 0);
}

fn run(seed: u64, cycles: u64, sc: Option<Scenario>, directed_only: bool) -> Report {
    let _g = common::lock();
    let mut env = LegEnv::with_scenario(seed, cycles, sc);
    if directed_only {
        env = env.directed_only();
    }
    lockstep::run(Pair::default(), env, &BLOCK, &opts(seed, cycles)).unwrap()
}

#[test]
fn seed8_leg_is_lockstep_clean_and_the_end_images_are_checked() {
    // 128 partitions x 256 B from 0x100000 on die 0 to 0x100000 on die 1,
    // engines 0x000F; the environment checks B's SBUF image (A's bytes) and
    // semaphores 12 (A) and 20 (B) = 4 at the end, compare_final checks the
    // golden-driven and RTL-driven scans are equal.
    let r = run(1, 60_000, Some(Scenario::Seed8), true);
    clean(&r);
    assert_eq!(r.cov("scen_seed8"), 1);
    assert_eq!(r.cov("legs"), 1);
    assert_eq!(r.cov("bytes_copied"), 128 * 256);
    assert_eq!(
        r.cov("sbuf_words_checked"),
        2 * 4096,
        "final image check ran"
    );
    assert_eq!(r.cov("sems_checked"), 2 * 256);
}

#[test]
fn every_directed_scenario_then_random_legs_are_lockstep_clean() {
    let r = run(2, 400_000, None, false);
    clean(&r);
    for (n, _) in SCENARIOS {
        assert!(
            r.cov(&format!("scen_{n}")) > 0,
            "scenario {n} never completed"
        );
    }
    for n in [
        "bp_mem",
        "bp_link",
        "link_stall_cycles",
        "tx_first_delays",
        "resets",
    ] {
        assert!(r.cov(n) > 0, "coverage counter {n} never hit");
    }
    assert!(
        r.cov("link_stall_cycles") >= 3000,
        "a stall of thousands of cycles"
    );
}

/// Block `leg16` (an opt-in build: `SB2SB_BLOCKS=leg16`; the test prints
/// why it skips otherwise): the pair with 16 engines per core runs every
/// directed scenario then random legs in lockstep with the golden pair at
/// the same parameters, clean, with the end images and semaphores checked;
/// the environment's legs (the same seed run on the golden pair alone)
/// use engines above the 4-engine pair's, and engine 15.
#[test]
fn sixteen_engine_pair_is_lockstep_clean_over_legs_of_all_16_engines() {
    let name = BLOCK_LEG16.name;
    if !sb2sb::rtl::compiled_blocks().iter().any(|b| b == name) {
        eprintln!(
            "SKIP: block {name} is not in this build; build it with \
             SB2SB_BLOCKS=all,{name} cargo test --release --test cosim_leg"
        );
        return;
    }
    let (seed, cycles) = (3, 300_000);
    let p = leg16_params();
    let r = {
        let _g = common::lock();
        let env = LegEnv::with_params(p, seed, cycles, None);
        lockstep::run(Pair::new(&p), env, &BLOCK_LEG16, &opts(seed, cycles)).unwrap()
    };
    clean(&r);
    for (n, _) in SCENARIOS {
        assert!(
            r.cov(&format!("scen_{n}")) > 0,
            "scenario {n} never completed"
        );
    }
    assert_eq!(r.cov("sems_checked"), 2 * 256, "final check ran");
    let mut env = LegEnv::with_params(p, seed, cycles, None);
    let mut golden = Pair::new(&p);
    let mut prev: Option<PairOut> = None;
    for c in 0..cycles {
        let i = env.next(c, prev.as_ref());
        prev = Some(golden.step(&i));
    }
    let masks = env.legs().iter().fold(0u16, |m, l| m | l.mask);
    assert_eq!(masks, 0xFFFF, "every engine of the 16 carried a leg");
}

/// First cycle and outputs where a faulty golden pair departs from a clean
/// one under the same environment (computed without the RTL).
fn first_divergence(
    fault: LegFault,
    seed: u64,
    cycles: u64,
    sc: Scenario,
) -> (u64, Vec<&'static str>) {
    let mut env = LegEnv::with_scenario(seed, cycles, Some(sc)).directed_only();
    let mut good = Pair::default();
    let mut bad = Pair::default();
    bad.inject(fault);
    let mut prev: Option<PairOut> = None;
    for c in 0..cycles {
        let i = env.next(c, prev.as_ref());
        let a = good.step(&i);
        let b = bad.step(&i);
        if a != b {
            let (mut wa, mut wb) = (vec![0u64; PairOut::WORDS], vec![0u64; PairOut::WORDS]);
            a.pack(&mut wa);
            b.pack(&mut wb);
            let mut off = 0;
            let mut names = Vec::new();
            for s in PairOut::SIGNALS {
                let n = s.words();
                if wa[off..off + n] != wb[off..off + n] {
                    names.push(s.name);
                }
                off += n;
            }
            return (c, names);
        }
        prev = Some(a);
    }
    panic!("fault {fault:?} never changed an output in {cycles} cycles");
}

fn fault_is_caught(fault: LegFault, sc: Scenario) -> (u64, Vec<String>) {
    let seed = 3;
    let cycles = 60_000;
    let (cycle, signals) = first_divergence(fault, seed, cycles, sc);
    let _g = common::lock();
    let mut golden = Pair::default();
    golden.inject(fault);
    let env = LegEnv::with_scenario(seed, cycles, Some(sc)).directed_only();
    let r = lockstep::run(golden, env, &BLOCK, &opts(seed, cycles)).unwrap();
    let m = r.first_mismatch.as_ref().expect("the fault must be caught");
    assert_eq!(m.kind, MismatchKind::Output);
    assert_eq!(m.cycle, cycle, "{}", m.render());
    let got: Vec<String> = m.diffs.iter().map(|d| d.signal.clone()).collect();
    assert_eq!(got, signals, "{}", m.render());
    assert!(
        m.render().contains("sb2sb cosim --block leg --seed 3"),
        "{}",
        m.render()
    );
    (cycle, got)
}

#[test]
fn dropped_remote_semaphore_write_in_the_link_is_caught_at_the_right_cycle_and_signal() {
    let (_, sig) = fault_is_caught(LegFault::DropRemoteSem, Scenario::Seed8);
    // the link's own counters show the missing burst first
    assert!(sig.iter().any(|s| s == "dbg_ab_link_o"), "{sig:?}");
}

#[test]
fn wrong_die_bit_in_the_router_is_caught_at_the_right_cycle_and_signal() {
    let (_, sig) = fault_is_caught(LegFault::WrongDieBit, Scenario::Seed8);
    // the first misrouted burst goes to a link lane instead of a local
    // memory: the write lane hands the link lane the AW with its first W
    // beat, so link lane 0's debug (dbg_ab_link_o) or core A's interconnect
    // debug (dbg_a_xbar_o, the memory's write owner dbg_a_xin_o) shows it first
    assert!(
        sig.iter()
            .any(|s| s == "dbg_a_xbar_o" || s == "dbg_a_xin_o" || s == "dbg_ab_link_o"),
        "{sig:?}"
    );
}

#[test]
fn run_sendrecv_mode_rtl_runs_the_seed_leg_on_the_pair_and_agrees_with_fast_mode() {
    let _g = common::lock();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sb2sb"))
        .args(["run", "sendrecv", "--mode", "rtl", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["dst_soc_hex"], "0x58800000100000");
    assert_eq!(v["local_sem"]["value"], 4);
    assert_eq!(v["local_sem"]["fast"], 4);
    assert_eq!(v["remote_sem"]["value"], 4);
    assert_eq!(v["remote_sem"]["fast"], 4);
    // seed 001 §8 at its own size: 128 partitions x 16 KiB
    assert_eq!(v["bytes"], 128 * 16384);
    assert_eq!(v["bytes_per_partition"], 16384);
    assert_eq!(v["verified_against_fast"], true);
    assert_eq!(v["pass"], true);
    // the data phase (TX doorbell -> last remote_sem increment) lies inside
    // the run, and no 4 engines of 32 bytes a beat move more than 128 B a cycle
    let data = v["bus"]["data_cycles"].as_u64().unwrap();
    let setup = v["bus"]["setup_cycles"].as_u64().unwrap();
    assert!(setup > 0 && data > 0);
    assert!(setup + data < v["cycles"].as_u64().unwrap());
    assert!(128 * 16384 <= 4 * 32 * data, "{data} cycles");
    let u = v["bus"]["utilisation"].as_f64().unwrap();
    let want = (128.0 * 16384.0) / data as f64 / 128.0;
    assert!((u - want).abs() < 1e-9 && u > 0.0 && u <= 1.0, "{u}");
}

/// Seed 001 §4.4 / issue 12.2 on the RTL: the §8 leg launched through the
/// broadcast doorbell of `rtl/sb2sb_q7_port.sv` (one MASK write and one
/// TAIL_INC trigger per side) is lockstep-clean against the golden pair and
/// leaves the same SBUF images and semaphores as the per-engine doorbells.
#[test]
fn broadcast_doorbell_leg_on_the_rtl_moves_the_same_bytes_as_per_engine_doorbells() {
    let r = run(1, 60_000, Some(Scenario::Bcast), true);
    clean(&r);
    assert_eq!(r.cov("scen_bcast"), 1);
    assert_eq!(r.cov("bytes_copied"), 128 * 256);
    assert_eq!(
        r.cov("sbuf_words_checked"),
        2 * 4096,
        "final image check ran"
    );
    let pe = run(1, 60_000, Some(Scenario::Seed8), true);
    clean(&pe);
    // the environment checked both end images against the same expectation
    // (A's bytes in B, A unchanged); the doorbell path costs 4 fewer Q7 writes
    assert_eq!(pe.cov("q7_writes") - r.cov("q7_writes"), 4);
}

/// `run sendrecv --mode rtl --vcd DIR/`: the Verilator trace of the whole
/// pair and a `.gtkw` grouped per core whose every signal exists in the trace.
#[test]
fn run_sendrecv_mode_rtl_vcd_dir_writes_a_gtkw_grouped_per_core() {
    let _g = common::lock();
    let dir = tempfile::tempdir().unwrap();
    let d = format!("{}/", dir.path().join("w").display());
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sb2sb"))
        .args([
            "run",
            "sendrecv",
            "--mode",
            "rtl",
            "--partitions",
            "4",
            "--vcd",
            &d,
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let vcd = dir.path().join("w/leg_rtl.vcd");
    let g = std::fs::read_to_string(dir.path().join("w/leg_rtl.gtkw")).unwrap();
    for title in [
        "core A: Q7 CSR writes",
        "core A: engine 0 AXI4 bursts",
        "core A: engine 3 AXI4 bursts",
        "core A: EVT_SEM increments",
        "core B: Q7 CSR writes",
        "core B: EVT_SEM increments",
        "link A -> B",
        "link B -> A",
    ] {
        assert!(g.contains(&format!("-{title}")), "group {title} missing");
    }
    // every signal line names a variable of the trace, and each group has some
    let header: String = std::fs::read_to_string(&vcd)
        .unwrap()
        .split("$enddefinitions")
        .next()
        .unwrap()
        .to_string();
    let sigs: Vec<&str> = g.lines().filter(|l| l.starts_with("TOP.")).collect();
    assert!(sigs.len() > 100, "{} signals", sigs.len());
    for s in &sigs {
        let leaf = s.rsplit('.').next().unwrap();
        let name = leaf.split('[').next().unwrap();
        assert!(header.contains(&format!(" {name} ")), "{s} not in the VCD");
    }
    assert!(g.contains("u_core_a.gen_eng[2].u_udma.m_axi_awaddr[63:0]"));
    assert!(g.contains("u_core_b.u_evt_sem.inc_valid_i"));
    common::vcd2fst_accepts(&vcd);
}

/// Seed 001 §4 on the RTL: the TX Q7 rings its M2S doorbells 3000 cycles
/// before the RX Q7 arms; the environment fails the run if the RX core's
/// interconnect routed any burst before the RX arming point, and the leg
/// still completes with both semaphores (lockstep-clean against golden).
#[test]
fn tx_first_leg_on_the_rtl_waits_for_rx_and_lands_no_byte_early() {
    let r = run(1, 60_000, Some(Scenario::TxFirst), true);
    clean(&r);
    assert_eq!(r.cov("scen_tx_first"), 1);
    assert!(r.cov("tx_first_delays") >= 1);
    assert_eq!(r.cov("bytes_copied"), 128 * 256);
    assert_eq!(
        r.cov("sbuf_words_checked"),
        2 * 4096,
        "final image check ran"
    );
}

/// `cosim --block leg --vcd DIR`: besides the port-level golden/RTL
/// comparison, `DIR/leg.pair.gtkw` opens the RTL trace of the whole pair
/// grouped per core (the save file of `run sendrecv --mode rtl --vcd`), every
/// signal of it a variable of the trace, and the text report names it.
#[test]
fn cosim_leg_vcd_dir_also_writes_the_pair_gtkw_grouped_per_core() {
    if sb2sb::waves::RTL_TRACE_EXT != "vcd" {
        return; // an FST build (SB2SB_TRACE_FST=1): no text header to group from
    }
    let _g = common::lock();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("w");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sb2sb"))
        .args([
            "cosim", "--block", "leg", "--cycles", "3000", "--seed", "1", "--vcd",
        ])
        .arg(&d)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let gp = d.join("leg.pair.gtkw");
    assert!(
        stdout.contains(&gp.display().to_string()),
        "report names the pair .gtkw: {stdout}"
    );
    assert!(d.join("leg.gtkw").exists(), "the comparison .gtkw stays");
    let g = std::fs::read_to_string(&gp).unwrap();
    let vcd = d.join(format!("leg.rtl.{}", sb2sb::waves::RTL_TRACE_EXT));
    assert!(g.contains(&format!(
        "[dumpfile] \"{}\"",
        std::fs::canonicalize(&vcd).unwrap().display()
    )));
    for title in [
        "core A: Q7 CSR writes",
        "core A: engine 0 AXI4 bursts",
        "core A: EVT_SEM increments",
        "core B: Q7 CSR writes",
        "core B: engine 0 AXI4 bursts",
        "core B: EVT_SEM increments",
        "link A -> B",
        "link B -> A",
    ] {
        assert!(g.contains(&format!("-{title}")), "group {title} missing");
    }
    let header: String = std::fs::read_to_string(&vcd)
        .unwrap()
        .split("$enddefinitions")
        .next()
        .unwrap()
        .to_string();
    let sigs: Vec<&str> = g.lines().filter(|l| l.starts_with("TOP.")).collect();
    assert!(sigs.len() > 100, "{} signals", sigs.len());
    for s in &sigs {
        let leaf = s.rsplit('.').next().unwrap();
        let name = leaf.split('[').next().unwrap();
        assert!(header.contains(&format!(" {name} ")), "{s} not in the VCD");
    }
    // only the engines the pair has: no group for an engine the trace lacks
    let engines = g.matches("-core A: engine ").count() / 2;
    assert!((1..=16).contains(&engines), "{engines}");
    assert!(!g.contains(&format!("-core A: engine {engines} AXI4")));
}
