//! The timeline's structure (docs/timeline.md) on the seed 001 §8 leg and on
//! an all-gather, in fast and cycle mode: [`check::check`] (written against
//! the trace-event format) finds every slice closed and nested, each engine
//! transfer inside leg ← step ← collective; the counter tracks end at the
//! golden EVT_SEM values the system holds; the last timestamp is the
//! reported modeled time; the engine transfers add up to the gen's
//! descriptor count and the bytes the leg moved.

use serde_json::{json, Value};

use super::check::{check, Summary};
use super::*;
use crate::collective::algo::{Algorithm, Choice};
use crate::collective::nccom::{prepare, Config, Machine};
use crate::collective::{run, CollectiveOp};
use crate::datapath::reduce::{Dtype, ReduceOp};
use crate::isa::Arch;
use crate::system::{CoreId, Mode, System, SystemLeg, Topology};

/// Every counter of the trace ends at the system's semaphore value, and
/// every semaphore the run left non-zero has a counter.
fn counters_match(s: &Summary, sem: impl Fn(u16, u8) -> i32, cores: u16) {
    for ((pid, name), v) in &s.counters {
        let idx: u8 = name.strip_prefix("sem ").unwrap().parse().unwrap();
        let core = (*pid - 1) as u16;
        assert_eq!(*v, f64::from(sem(core, idx)), "core {core} {name}");
    }
    for c in 0..cores {
        for i in 0..=255u8 {
            if sem(c, i) != 0 {
                assert!(
                    s.counters
                        .contains_key(&(u64::from(c) + 1, format!("sem {i}"))),
                    "core {c} sem {i} = {} has no counter track",
                    sem(c, i)
                );
            }
        }
    }
}

/// Sum of an argument over the slices of a category.
fn sum_arg(trace: &Value, cat: &str, arg: &str) -> u64 {
    trace["traceEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| (e["ph"] == "B" || e["ph"] == "i") && e["cat"] == cat)
        .map(|e| e["args"][arg].as_u64().unwrap_or(0))
        .sum()
}

/// The §8 leg with 256 bytes per partition (one descriptor per partition).
fn s8_leg(mode: Mode) {
    let topo = Topology {
        sbuf_bytes_per_partition: 2 << 20,
        ..Topology::seed_001_s8()
    };
    let leg = SystemLeg {
        engine_mask: 0x000F,
        ..SystemLeg::new(CoreId(3), 0x10_0000, CoreId(7), 0x10_0000, 256, 128)
    };
    let mut sys = System::new(topo).unwrap();
    sys.st.trace_start();
    let rep = sys.send_recv(&leg, mode).unwrap();
    // The next step's wait (as `sb2sb run sendrecv` does): outside the
    // leg, so at its end on the timeline.
    sys.wait_sem(CoreId(7), 20, 4, mode).unwrap();
    let rec = sys.st.trace_finish(None).unwrap();
    let t = chrome(&[rec], json!({}));
    let s = check(&t).unwrap();
    assert_eq!(s.end_ps, rep.modeled_ps, "{mode:?}: last timestamp");
    let cores = sys.st.topology().num_cores() as u16;
    counters_match(&s, |c, i| sys.st.sem(CoreId(c), i).unwrap(), cores);
    // The handshake's semaphores all moved: go (255) on TX, local 12 on
    // TX (left at 4), remote 20 on RX (4, then 0 after the wait).
    for (core, sem) in [(3u64, 255u8), (3, 12), (7, 20)] {
        assert!(
            s.counters.contains_key(&(core + 1, format!("sem {sem}"))),
            "{mode:?}: core {core} sem {sem}"
        );
    }
    assert_eq!(s.counters[&(4, "sem 12".into())], 4.0);
    assert_eq!(s.counters[&(8, "sem 20".into())], 0.0);
    // Every engine transfer inside its leg.
    let want: std::collections::BTreeSet<Vec<String>> =
        [vec!["leg".to_string(), "dma".to_string()]].into();
    assert_eq!(s.dma_chains, want, "{mode:?}");
    // The transfers are the gen's descriptors: 128 / 4 data descriptors
    // + 2 semaphore descriptors per engine, 4 engines; their bytes the
    // leg's plus 4 per semaphore write (12 and 20 are even: one register).
    assert_eq!(rep.descriptors, 4 * (32 + 2));
    assert_eq!(sum_arg(&t, "dma", "descriptors"), 4 * 34, "{mode:?}");
    assert_eq!(
        sum_arg(&t, "dma", "bytes"),
        128 * 256 + 4 * 2 * 4,
        "{mode:?}"
    );
    // One process per core, the Q7s and the four engine queues named.
    let names: Vec<&String> = s.threads.values().collect();
    for n in [
        "Q7 TX (PRID 7)",
        "Q7 RX (PRID 14)",
        "DMA engine 3 queue 0",
        "link to core 7",
    ] {
        assert!(
            names.iter().any(|x| *x == n),
            "{mode:?}: no thread {n}: {names:?}"
        );
    }
    assert_eq!(s.processes[&4], "core 3 (package 0 die 0 core 3)");
}

#[test]
fn s8_leg_trace_is_nested_counts_descriptors_and_ends_at_the_modeled_time_fast() {
    s8_leg(Mode::Fast);
}

#[test]
fn s8_leg_trace_is_nested_counts_descriptors_and_ends_at_the_modeled_time_cycle() {
    s8_leg(Mode::Cycle);
}

/// An nccom all-gather on the system model, captured as `sb2sb nccom
/// --trace` does: the collective's steps follow each other and the trace
/// ends at the reported time (the sum of the steps' slowest legs).
fn all_gather(machine: Machine, ranks: usize, size: u64) {
    let cfg = Config {
        op: CollectiveOp::AllGather,
        ranks,
        min_bytes: size,
        max_bytes: size,
        factor: 2,
        dtype: Dtype::Fp32,
        reduce: ReduceOp::Sum,
        check: false,
        channel: 0,
        arch: Arch::Cayman,
        seed: 3,
        machine,
        algorithm: Choice::Fixed(Algorithm::Ring),
    };
    let ((modeled_ns, sems), runs) = capture(|| {
        label_systems([format!("all_gather {size} B")]);
        let mut p = prepare(&cfg, size).unwrap();
        let rep = run(p.target.as_mut(), cfg.op, &p.members, 0, None).unwrap();
        let sems: Vec<Vec<i32>> = (0..ranks)
            .map(|c| (0..=255u8).map(|i| p.target.sem(c, i).unwrap()).collect())
            .collect();
        (rep.modeled_ns, sems)
    });
    assert_eq!(runs.len(), 1);
    let t = chrome(&runs, json!({}));
    let s = check(&t).unwrap();
    assert_eq!(s.end_ps, modeled_ns * 1000, "{machine:?}");
    counters_match(
        &s,
        |c, i| sems.get(usize::from(c)).map_or(0, |v| v[usize::from(i)]),
        ranks as u16,
    );
    let want: std::collections::BTreeSet<Vec<String>> = [["collective", "step", "leg", "dma"]
        .map(String::from)
        .to_vec()]
    .into();
    assert_eq!(s.dma_chains, want, "{machine:?}");
    // n − 1 steps of n legs.
    let steps = t["traceEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["cat"] == "step")
        .filter_map(|e| e["name"].as_str())
        .collect::<std::collections::BTreeSet<_>>();
    assert_eq!(steps.len(), ranks - 1, "{machine:?}: {steps:?}");
    // Every rank receives every other rank's block once; the rest are the
    // semaphore writes, 8 bytes (two registers) per engine of a leg.
    let data = (ranks * (ranks - 1)) as u64 * size / ranks as u64;
    let extra = sum_arg(&t, "dma", "bytes") - data;
    assert!(
        extra > 0 && extra.is_multiple_of(8),
        "{machine:?}: {extra} bytes beside the data"
    );
}

#[test]
fn all_gather_trace_fast_mode() {
    all_gather(Machine::SystemFast, 8, 8 << 10);
}

#[test]
fn all_gather_trace_cycle_mode() {
    all_gather(Machine::SystemCycle, 4, 4 << 10);
}

/// The checker refuses what a viewer would draw wrongly.
#[test]
fn check_refuses_partial_overlap_unclosed_slices_and_negative_durations() {
    let x = |ts: f64, dur: f64| json!({"name": "a", "ph": "X", "ts": ts, "dur": dur, "pid": 1, "tid": 1});
    let ok = json!({"traceEvents": [x(0.0, 2.0), x(0.5, 1.0), x(2.0, 0.0)]});
    assert_eq!(check(&ok).unwrap().slices, 3);
    let overlap = json!({"traceEvents": [x(0.0, 2.0), x(1.0, 2.0)]});
    assert!(check(&overlap).unwrap_err().contains("without nesting"));
    let neg = json!({"traceEvents": [x(0.0, -1.0)]});
    assert!(check(&neg).unwrap_err().contains("negative"));
    let unclosed =
        json!({"traceEvents": [{"name": "b", "ph": "B", "ts": 0.0, "pid": 1, "tid": 1}]});
    assert!(check(&unclosed).unwrap_err().contains("never closed"));
}

/// Slices of one track that overlap without nesting go to separate lanes;
/// the trace then passes the check.
#[test]
fn overlapping_slices_of_one_track_get_lanes() {
    let mut r = Recorder::new(vec!["core 0".into()]);
    r.leg_begin("leg".into(), json!({}), 0);
    let tr = Track::Q7 {
        core: 0,
        role: Q7Role::Tx,
    };
    r.slice(tr, "a", 0, 2_000, json!({}));
    r.slice(tr, "b", 1_000, 3_000, json!({}));
    r.slice(tr, "c", 1_500, 1_800, json!({}));
    r.leg_end(3_000);
    let t = chrome(&[r.finish(None)], json!({}));
    let s = check(&t).unwrap();
    assert_eq!(s.end_ps, 3_000);
    let lanes: Vec<&String> = s.threads.values().collect();
    assert_eq!(lanes, ["Q7 TX (PRID 1)", "Q7 TX (PRID 1) (2)"]);
}
