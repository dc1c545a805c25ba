//! Lockstep of the UDMA engine (golden `sb2sb_model::udma` against
//! `rtl/udma_engine.sv`) driven like the public driver drives it, with every
//! injected error kind, and the proof that golden-model faults are caught at
//! the right cycle and signal.

mod common;

use sb2sb::lockstep::{self, MismatchKind, Options};
use sb2sb::rtl::XInit;
use sb2sb_model::ports::{CycleModel, PortBundle, Stimulus};
use sb2sb_model::udma::{
    FaultyUdma, Udma, UdmaEngine, UdmaEnv, UdmaFault, UdmaIn, UdmaOut, UdmaStim, UdmaWidth, BLOCK,
    W128, W256, W32, W64,
};

fn opts(seed: u64, cycles: u64) -> Options {
    Options {
        seed,
        cycles,
        x_init: XInit::Random,
        ..Options::default()
    }
}

#[test]
fn udma_lockstep_is_clean_with_wraps_every_ring_id_every_error_and_backpressure() {
    let _g = common::lock();
    let cycles = 700_000;
    let r = lockstep::run(
        Udma::new(),
        UdmaStim::new(5, cycles),
        &BLOCK,
        &opts(5, cycles),
    )
    .unwrap();
    if let Some(m) = &r.first_mismatch {
        panic!("{}", m.render());
    }
    assert_eq!(r.cycles_run, cycles);
    assert_eq!(r.cov("directed_jobs"), 24, "driver-style phase");
    assert_eq!(
        r.cov("queues_with_jobs"),
        16,
        "all 16 queues completed transfers"
    );
    let must = [
        "wraps_m2s",
        "wraps_s2m",
        "ring_id_0",
        "ring_id_1",
        "ring_id_2",
        "ring_id_3",
        "multi_desc_pkts",
        "unaligned_ptr_jobs",
        "guard_bytes_checked",
        "completions_checked",
        "err_m2s_pref_ring_id",
        "err_s2m_pref_ring_id",
        "err_m2s_db_overflow",
        "err_s2m_db_overflow",
        "err_m2s_data_axi",
        "err_m2s_pref_axi",
        "err_s2m_data_axi",
        "err_s2m_pref_axi",
        "err_s2m_no_desc",
        "err_m2s_desc_first",
        "dmb_wait_cycles",
        "stream_split_beats",
        "csr_slverr",
        "stream_close_beats",
        "axi_slverr_beats",
        "axi_decerr_beats",
        "irq_cycles",
        "bp_ar",
        "bp_r",
        "bp_aw",
        "bp_w",
        "bp_b",
        "bp_axis_out",
        "bp_axis_in",
        "bp_csr",
    ];
    for name in must {
        assert!(r.cov(name) > 0, "coverage counter {name} never hit");
    }
    for name in [
        "fail_check",
        "fail_unexpected_err",
        "fail_inject_missed",
        "fail_hang",
    ] {
        assert_eq!(r.cov(name), 0, "{name}");
    }
}

/// First cycle at which a faulty golden model's outputs differ from a clean
/// one's on the same environment, and the differing signals: an oracle for
/// what the lockstep must report (the RTL equals the clean model).
fn first_divergence(fault: UdmaFault, seed: u64, cycles: u64) -> (u64, Vec<&'static str>) {
    let mut env = UdmaStim::new(seed, cycles);
    let mut clean = Udma::new();
    let mut faulty = FaultyUdma::<W64>::new(fault);
    let mut prev: Option<UdmaOut> = None;
    for c in 0..cycles {
        let i: UdmaIn = env.next(c, prev.as_ref());
        let a = clean.step(&i);
        let b = faulty.step(&i);
        if a != b {
            let (mut wa, mut wb) = (vec![0u64; UdmaOut::WORDS], vec![0u64; UdmaOut::WORDS]);
            a.pack(&mut wa);
            b.pack(&mut wb);
            let names = UdmaOut::SIGNALS
                .iter()
                .enumerate()
                .filter(|(k, _)| wa[*k] != wb[*k])
                .map(|(_, s)| s.name)
                .collect();
            return (c, names);
        }
        prev = Some(a);
    }
    panic!("fault {fault:?} never changed an output in {cycles} cycles");
}

fn fault_is_caught(fault: UdmaFault, seed: u64) {
    let _g = common::lock();
    let cycles = 700_000;
    let (cycle, signals) = first_divergence(fault, seed, cycles);
    let golden = FaultyUdma::<W64>::new(fault);
    let r = lockstep::run(
        golden,
        UdmaStim::new(seed, cycles),
        &BLOCK,
        &opts(seed, cycles),
    )
    .unwrap();
    let m = r.first_mismatch.as_ref().expect("the fault must be caught");
    assert_eq!(m.kind, MismatchKind::Output);
    assert_eq!(m.cycle, cycle, "{}", m.render());
    let got: Vec<&str> = m.diffs.iter().map(|d| d.signal.as_str()).collect();
    assert_eq!(got, signals, "{}", m.render());
    assert!(m.render().contains(&format!("seed {seed}")));
}

#[test]
fn skipped_ring_id_check_in_the_golden_model_is_caught_at_the_right_cycle_and_signal() {
    fault_is_caught(UdmaFault::SkipRingIdCheck, 5);
}

#[test]
fn miscounted_tail_wrap_in_the_golden_model_is_caught_at_the_right_cycle_and_signal() {
    fault_is_caught(UdmaFault::TailWrapNoRingId, 5);
}

/// Lockstep of the engine at data width `W` for `cycles` cycles: no mismatch,
/// no failed driver check, memory images equal (checked by the runner).
fn lockstep_at<W: UdmaWidth>(seed: u64, cycles: u64) -> lockstep::Report {
    let _g = common::lock();
    let r = lockstep::run(
        UdmaEngine::<W>::new(),
        UdmaEnv::<W>::new(seed, cycles),
        W::BLOCK,
        &opts(seed, cycles),
    )
    .unwrap();
    if let Some(m) = &r.first_mismatch {
        panic!("{}", m.render());
    }
    assert_eq!(r.cycles_run, cycles);
    for name in [
        "fail_check",
        "fail_unexpected_err",
        "fail_inject_missed",
        "fail_hang",
    ] {
        assert_eq!(r.cov(name), 0, "{name}");
    }
    r
}

/// The driver-style directed phase (issue 5 §6) at a non-default width: RX
/// doorbell first, bytes and pointers checked per transfer, ring of 4 wrapped
/// six times so every ring id is seen.
fn driver_style_wraps_at<W: UdmaWidth>(cycles: u64) {
    let r = lockstep_at::<W>(11, cycles);
    assert_eq!(r.cov("directed_jobs"), 24, "driver-style phase");
    assert!(r.cov("wraps_m2s") >= 5 && r.cov("wraps_s2m") >= 5);
    for k in 0..4 {
        assert!(r.cov(&format!("ring_id_{k}")) > 0, "ring id {k}");
    }
    assert!(r.cov("completions_checked") >= 24);
}

#[test]
fn udma_w128_lockstep_driver_style_copy_wraps_ring_with_every_ring_id() {
    driver_style_wraps_at::<W128>(150_000);
}

/// Block `udma_w256` is the engine every core of the pair and the system top
/// instances (`rtl/sb2sb_core.sv`), at its parameters and width.
#[test]
fn udma_w256_lockstep_driver_style_copy_wraps_ring_with_every_ring_id() {
    driver_style_wraps_at::<W256>(150_000);
}

#[test]
fn udma_w32_lockstep_driver_style_copy_wraps_ring_with_every_ring_id() {
    driver_style_wraps_at::<W32>(450_000);
}

/// Random traffic at a width of 128 bits or more: all 16 queues used, and
/// the counters of packing, alignment, bursts and error beats hit.
fn wide_random_traffic_at<W: UdmaWidth>() {
    let r = lockstep_at::<W>(7, 300_000);
    assert_eq!(r.cov("queues_with_jobs"), 16);
    for name in [
        "multi_desc_pkts",
        "unaligned_ptr_jobs",
        "guard_bytes_checked",
        "axi_data_write_bursts",
        "bp_w",
        "bp_axis_in",
        "axi_slverr_beats",
    ] {
        assert!(r.cov(name) > 0, "coverage counter {name} never hit");
    }
}

#[test]
fn udma_w128_lockstep_random_traffic_is_clean_on_all_queues() {
    wide_random_traffic_at::<W128>();
}

#[test]
fn udma_w256_lockstep_random_traffic_is_clean_on_all_queues() {
    wide_random_traffic_at::<W256>();
}

#[test]
fn udma_w32_lockstep_random_traffic_is_clean_on_all_queues() {
    let r = lockstep_at::<W32>(7, 700_000);
    assert!(r.cov("random_jobs") > 0);
    for name in [
        "multi_desc_pkts",
        "unaligned_ptr_jobs",
        "guard_bytes_checked",
        "axi_data_write_bursts",
        "bp_w",
        "bp_axis_in",
    ] {
        assert!(r.cov(name) > 0, "coverage counter {name} never hit");
    }
}
