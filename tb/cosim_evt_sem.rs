//! Lockstep of the EVT_SEM block (golden `sb2sb_model::evt_sem` against
//! `rtl/evt_sem.sv`), and the proof that the harness catches a lost
//! same-cycle increment at the right cycle and signal.

mod common;

use std::time::Instant;

use sb2sb::lockstep::{self, MismatchKind, Options};
use sb2sb::rtl::{RtlDut, XInit};
use sb2sb_model::evt_sem::stim::Cov;
use sb2sb_model::evt_sem::{EvtSem, EvtSemFault, EvtSemIn, EvtSemOut, EvtSemStim, BLOCK};
use sb2sb_model::ports::{CycleModel, PortBundle, Stimulus};

fn opts(seed: u64, cycles: u64) -> Options {
    Options {
        seed,
        cycles,
        ..Options::default()
    }
}

#[test]
fn evt_sem_lockstep_is_clean_and_covers_every_counter() {
    let _g = common::lock();
    for seed in [1u64, 2, 0xC0FF_EE00] {
        let cycles = 200_000;
        let r = lockstep::run(
            EvtSem::new(),
            EvtSemStim::new(seed, cycles),
            &BLOCK,
            &opts(seed, cycles),
        )
        .unwrap();
        if let Some(m) = &r.first_mismatch {
            panic!("{}", m.render());
        }
        assert_eq!(r.cycles_run, cycles);
        // Every window, every wait mode, collisions, overflow, SLVERR, resets, the seed's sequence.
        for (name, n) in &r.coverage {
            assert!(*n > 0, "seed {seed}: coverage counter {name} never hit");
        }
        assert_eq!(
            r.cov("directed_completion"),
            2,
            "seed 001 §8 example and the 16-engine step"
        );
    }
}

#[test]
fn random_initial_rtl_state_does_not_matter_after_reset() {
    let _g = common::lock();
    for seed in 0..6u64 {
        let o = Options {
            x_init: XInit::Random,
            ..opts(seed, 4_000)
        };
        let r = lockstep::run(EvtSem::new(), EvtSemStim::new(seed, 4_000), &BLOCK, &o).unwrap();
        assert!(r.passed(), "{}", r.first_mismatch.unwrap().render());
    }
}

/// First cycle where a faulty golden model's outputs differ from a clean one
/// under the same (reactive) stimulus, with the differing signal names —
/// computed without the RTL, as the independent expectation.
fn first_divergence(seed: u64, cycles: u64) -> Option<(u64, Vec<&'static str>, EvtSemOut)> {
    let mut clean = EvtSem::new();
    let mut faulty = EvtSem::new();
    faulty.fault = Some(EvtSemFault::DropSameCycleIncrement);
    let mut sc = EvtSemStim::new(seed, cycles);
    let mut sf = sc.clone();
    let (mut pc, mut pf) = (None, None);
    let (mut wc, mut wf) = (vec![0u64; EvtSemOut::WORDS], vec![0u64; EvtSemOut::WORDS]);
    for c in 0..cycles {
        let ic = sc.next(c, pc.as_ref());
        let i_f = sf.next(c, pf.as_ref());
        assert_eq!(ic, i_f, "twins agree while outputs agree");
        let oc = clean.step(&ic);
        let of = faulty.step(&i_f);
        if oc != of {
            oc.pack(&mut wc);
            of.pack(&mut wf);
            let mut names = Vec::new();
            let mut off = 0;
            for s in EvtSemOut::SIGNALS {
                let n = s.words();
                if wc[off..off + n] != wf[off..off + n] {
                    names.push(s.name);
                }
                off += n;
            }
            return Some((c, names, of));
        }
        pc = Some(oc);
        pf = Some(of);
    }
    None
}

#[test]
fn dropped_same_cycle_increment_is_caught_at_the_right_cycle_and_signal() {
    let _g = common::lock();
    let (seed, cycles) = (5u64, 20_000u64);
    let (cycle, names, _) =
        first_divergence(seed, cycles).expect("the fault must change some output");
    let mut g = EvtSem::new();
    g.fault = Some(EvtSemFault::DropSameCycleIncrement);
    let r = lockstep::run(
        g,
        EvtSemStim::new(seed, cycles),
        &BLOCK,
        &opts(seed, cycles),
    )
    .unwrap();
    let m = r
        .first_mismatch
        .as_ref()
        .expect("the lockstep must catch the lost increment");
    assert_eq!(m.kind, MismatchKind::Output);
    assert_eq!(
        m.cycle, cycle,
        "reported at the first cycle an output differs"
    );
    assert_eq!(r.cycles_run, cycle + 1, "the run stops there");
    let got: Vec<&str> = m.diffs.iter().map(|d| d.signal.as_str()).collect();
    assert_eq!(got, names, "the differing signals");
    assert!(m.replay.contains(&format!("--seed {seed}")) && m.replay.contains("--block evt_sem"));
    assert_eq!(m.history.len(), 32.min(cycle as usize + 1));
    // The lost count shows up as a semaphore value: the debug port or an AXI read.
    assert!(
        names
            .iter()
            .any(|n| ["dbg_sem_o", "s_axil_rdata", "wait_done_o", "err_pulse_o"].contains(n)),
        "{names:?}"
    );
}

#[test]
fn dropped_increment_in_the_16_engine_burst_is_caught_on_the_debug_port() {
    let _g = common::lock();
    // Directed: all 16 engines bump semaphore 12 in one cycle, the debug port watches it.
    let mut g = EvtSem::new();
    g.fault = Some(EvtSemFault::DropSameCycleIncrement);
    let mut rtl: RtlDut<EvtSemIn, EvtSemOut> = RtlDut::new(&BLOCK, 1, XInit::Zero).unwrap();
    let mut i = EvtSemIn {
        rst_ni: 0,
        ..EvtSemIn::default()
    };
    assert_eq!(g.step(&i), rtl.step(&i));
    i = EvtSemIn::idle();
    i.dbg_idx_i = 12;
    for p in 0..16 {
        i.set_inc(p, 12, 1);
    }
    assert_eq!(g.step(&i), rtl.step(&i), "the increments land at the edge");
    let mut j = EvtSemIn::idle();
    j.dbg_idx_i = 12;
    let (og, or) = (g.step(&j), rtl.step(&j));
    assert_eq!(
        (og.dbg_sem_o, or.dbg_sem_o),
        (1, 16),
        "golden lost 15 of 16, RTL counted all"
    );
}

#[test]
fn waveforms_are_written_and_gtkwave_parses_them() {
    let _g = common::lock();
    let dir = tempfile::tempdir().unwrap();
    let o = Options {
        vcd_dir: Some(dir.path().to_path_buf()),
        ..opts(4, 800)
    };
    let r = lockstep::run(EvtSem::new(), EvtSemStim::new(4, 800), &BLOCK, &o).unwrap();
    assert!(r.passed(), "{}", r.first_mismatch.unwrap().render());
    let w = r.waves.expect("wave paths");
    for p in [&w.rtl_vcd, &w.golden_vcd, &w.cmp_vcd] {
        common::vcd2fst_accepts(p);
    }
    assert!(w.gtkw.exists());
}

#[test]
fn stimulus_counts_the_seed_sequence_before_random_traffic() {
    // The directed phase runs first and completes on the RTL as on the model.
    let _g = common::lock();
    let r = lockstep::run(
        EvtSem::new(),
        EvtSemStim::new(8, 3_000),
        &BLOCK,
        &opts(8, 3_000),
    )
    .unwrap();
    assert!(r.passed(), "{}", r.first_mismatch.unwrap().render());
    assert_eq!(r.cov("directed_completion"), 2);
    assert!(r.cov(sb2sb_model::evt_sem::stim::COV_NAMES[Cov::CollideIncAll16 as usize]) > 0);
}

/// Rate over `n` cycles: (wall-clock cycles/s, CPU-time cycles/s when available).
fn rate<T>(n: u64, f: impl FnOnce() -> T) -> (f64, Option<f64>, T) {
    let (c0, t0) = (sb2sb::cputime::thread_cpu_ns(), Instant::now());
    let r = f();
    let wall = n as f64 / t0.elapsed().as_secs_f64();
    let cpu = sb2sb::cputime::thread_cpu_s_since(c0)
        .filter(|s| *s > 0.0)
        .map(|s| n as f64 / s);
    (wall, cpu, r)
}

/// Throughput figures (golden alone, RTL alone, lockstep) — printed, not
/// asserted. Run: `cargo test --release --test cosim_evt_sem -- --ignored --nocapture`.
#[test]
#[ignore]
fn evt_sem_throughput_figures() {
    let _g = common::lock();
    let n = 1_000_000u64;
    // Record the inputs once (stimulus driven by the golden model).
    let mut m = EvtSem::new();
    let mut s = EvtSemStim::new(1, n);
    let mut prev = None;
    let mut ins = Vec::with_capacity(n as usize);
    for c in 0..n {
        let i = s.next(c, prev.as_ref());
        prev = Some(m.step(&i));
        ins.push(i);
    }
    let mut s = EvtSemStim::new(1, n);
    let mut outs = Vec::with_capacity(n as usize);
    let mut m = EvtSem::new();
    for i in &ins {
        outs.push(m.step(i));
    }
    let env = rate(n, || {
        let mut prev = None;
        let mut acc = 0u64;
        for (c, o) in outs.iter().enumerate() {
            acc ^= s.next(c as u64, prev).inc_valid_i;
            prev = Some(o);
        }
        acc
    });
    let mut g = EvtSem::new();
    let golden = rate(n, || ins.iter().fold(0u64, |a, i| a ^ g.step(i).dbg_sem_o));
    let mut rtl: RtlDut<EvtSemIn, EvtSemOut> = RtlDut::new(&BLOCK, 1, XInit::Zero).unwrap();
    let verilated = rate(n, || {
        ins.iter().fold(0u64, |a, i| a ^ rtl.step(i).dbg_sem_o)
    });
    assert_eq!(golden.2, verilated.2, "same outputs on the recorded inputs");
    let o = Options {
        x_init: XInit::Zero,
        ..opts(1, n)
    };
    let lock = rate(n, || {
        lockstep::run(EvtSem::new(), EvtSemStim::new(1, n), &BLOCK, &o).unwrap()
    });
    assert!(lock.2.passed());
    let f = |x: Option<f64>| {
        x.map(|v| format!("{:.2} M", v / 1e6))
            .unwrap_or_else(|| "n/a".into())
    };
    let r = &lock.2;
    let busiest = r.cpu_main_s.unwrap_or(0.0).max(r.cpu_rtl_s.unwrap_or(0.0));
    println!(
        "evt_sem cycles/s (wall): environment {:.2} M, golden {:.2} M, RTL {:.2} M, lockstep ({} threads) {:.2} M",
        env.0 / 1e6,
        golden.0 / 1e6,
        verilated.0 / 1e6,
        r.threads,
        lock.0 / 1e6
    );
    println!(
        "evt_sem cycles/s (thread CPU time): environment {}, golden {}, RTL {}; golden/RTL {:.1}x; \
         lockstep threads: golden+env {:.3} s, RTL {:.3} s -> {:.2} M cycles/s on idle cores",
        f(env.1),
        f(golden.1),
        f(verilated.1),
        golden.1.unwrap_or(golden.0) / verilated.1.unwrap_or(verilated.0),
        r.cpu_main_s.unwrap_or(0.0),
        r.cpu_rtl_s.unwrap_or(0.0),
        if busiest > 0.0 { n as f64 / busiest / 1e6 } else { 0.0 }
    );
}
