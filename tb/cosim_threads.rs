//! The two-thread lockstep (golden + environment on the caller's thread, the
//! Verilated RTL on a second one) must check exactly what the serial runner
//! checks: same first mismatch (kind, cycle, signals, values, history),
//! same cycles run, same coverage — for a reactive block (one environment,
//! `Stimulus::TWIN = false`) and for a block with environment twins.

mod common;

use sb2sb::lockstep::{self, FlipOutputBit, Options, Report};
use sb2sb_model::decoder::{self, Decoder, DecoderStim};
use sb2sb_model::evt_sem::{self, EvtSem, EvtSemFault, EvtSemStim};
use sb2sb_model::ports::Stimulus;
use sb2sb_model::udma::{self, Udma, UdmaStim};

fn opts(seed: u64, cycles: u64, threads: usize) -> Options {
    Options {
        seed,
        cycles,
        threads,
        ..Options::default()
    }
}

/// Everything a user sees of a run, except the wall-clock figures.
fn visible(r: &Report) -> String {
    let m = r
        .first_mismatch
        .as_ref()
        .map(|m| m.render())
        .unwrap_or_default();
    format!(
        "run={} planned={} mism={} threads-independent:\n{m}\ncov={:?}",
        r.cycles_run, r.cycles_planned, r.mismatches, r.coverage
    )
}

#[test]
fn reported_thread_count_follows_the_option() {
    let _g = common::lock();
    for t in [1usize, 2] {
        let r = lockstep::run(
            Decoder::new(),
            DecoderStim::new(3, 2_000),
            &decoder::BLOCK,
            &opts(3, 2_000, t),
        )
        .unwrap();
        assert!(r.passed());
        assert_eq!(r.threads, t);
        assert_eq!(r.cycles_run, 2_000);
    }
}

#[test]
fn evt_sem_dropped_increment_is_reported_identically_on_one_and_two_threads() {
    let _g = common::lock();
    let (seed, cycles) = (5u64, 40_000u64);
    let run = |t| {
        let mut g = EvtSem::new();
        g.fault = Some(EvtSemFault::DropSameCycleIncrement);
        lockstep::run(
            g,
            EvtSemStim::new(seed, cycles),
            &evt_sem::BLOCK,
            &opts(seed, cycles, t),
        )
        .unwrap()
    };
    let (one, two) = (run(1), run(2));
    assert!(one.first_mismatch.is_some(), "the fault is caught");
    assert_eq!(visible(&one), visible(&two));
    // A flip in the middle of a batch, long after reset: the golden thread
    // is batches ahead when the RTL thread stops.
    let flip = |t| {
        let g = FlipOutputBit::new(EvtSem::new(), "dbg_sem_o", 7, 12_345).unwrap();
        lockstep::run(
            g,
            EvtSemStim::new(seed, cycles),
            &evt_sem::BLOCK,
            &opts(seed, cycles, t),
        )
        .unwrap()
    };
    let (one, two) = (flip(1), flip(2));
    assert_eq!(two.first_mismatch.as_ref().map(|m| m.cycle), Some(12_345));
    assert_eq!(visible(&one), visible(&two));
}

#[test]
fn a_flipped_output_bit_late_in_a_batch_is_reported_identically() {
    let _g = common::lock();
    // Cycle 1535 is the last cycle of the third 512-cycle batch.
    for cycle in [0u64, 1, 511, 512, 1535] {
        let run = |t| {
            let g = FlipOutputBit::new(Decoder::new(), "addr_o", 3, cycle).unwrap();
            lockstep::run(
                g,
                DecoderStim::new(9, 5_000),
                &decoder::BLOCK,
                &opts(9, 5_000, t),
            )
            .unwrap()
        };
        let (one, two) = (run(1), run(2));
        let m = two.first_mismatch.as_ref().expect("flip is caught");
        assert_eq!(m.cycle, cycle);
        assert_eq!(two.cycles_run, cycle + 1);
        assert_eq!(visible(&one), visible(&two));
    }
}

/// `Options::twin`: the RTL driven by an environment twin of its own.
fn twin_opts(seed: u64, cycles: u64, threads: usize) -> Options {
    Options {
        twin: true,
        ..opts(seed, cycles, threads)
    }
}

#[test]
fn udma_twin_environments_run_on_both_threads_and_agree() {
    let _g = common::lock();
    let (seed, cycles) = (2u64, 30_000u64);
    let run = |o: Options| {
        lockstep::run(Udma::new(), UdmaStim::new(seed, cycles), &udma::BLOCK, &o).unwrap()
    };
    let (one, two) = (
        run(twin_opts(seed, cycles, 1)),
        run(twin_opts(seed, cycles, 2)),
    );
    assert!(two.passed(), "{}", two.first_mismatch.unwrap().render());
    assert!(one.twin && two.twin);
    assert_eq!(visible(&one), visible(&two));
    // One environment (the default) runs the same cycles to the same coverage.
    let single = run(opts(seed, cycles, 2));
    assert!(!single.twin);
    assert_eq!(visible(&single), visible(&two));
}

#[test]
fn udma_flipped_bit_is_caught_at_its_cycle_on_two_threads() {
    let _g = common::lock();
    let (seed, cycles) = (2u64, 20_000u64);
    let fault_at = 7_777;
    let run = |t| {
        let g = FlipOutputBit::new(Udma::new(), "s_axil_awready", 0, fault_at).unwrap();
        lockstep::run(
            g,
            UdmaStim::new(seed, cycles),
            &udma::BLOCK,
            &opts(seed, cycles, t),
        )
        .unwrap()
    };
    let (one, two) = (run(1), run(2));
    let m = two.first_mismatch.as_ref().expect("flip is caught");
    assert_eq!(m.cycle, fault_at);
    assert_eq!(m.diffs[0].signal, "s_axil_awready");
    assert_eq!(visible(&one), visible(&two));
}

/// An environment whose RTL-side twin (the runner's clone) flips input bit
/// `bit` at cycle `at`: a stimulus divergence, which the two-thread runner
/// finds on the golden thread, batches after the RTL thread passed it.
#[derive(Debug)]
struct TwinFlips {
    inner: UdmaStim,
    twin: bool,
    at: u64,
    bit: usize,
}

impl Clone for TwinFlips {
    fn clone(&self) -> Self {
        Self {
            inner: self.inner.clone(),
            twin: true,
            at: self.at,
            bit: self.bit,
        }
    }
}

impl Stimulus for TwinFlips {
    type In = <UdmaStim as Stimulus>::In;
    type Out = <UdmaStim as Stimulus>::Out;
    fn new(seed: u64, cycles: u64) -> Self {
        Self {
            inner: UdmaStim::new(seed, cycles),
            twin: false,
            at: u64::MAX,
            bit: 0,
        }
    }
    fn next(&mut self, cycle: u64, prev: Option<&Self::Out>) -> Self::In {
        use sb2sb_model::ports::PortBundle;
        let i = self.inner.next(cycle, prev);
        if !(self.twin && cycle == self.at) {
            return i;
        }
        let mut w = vec![0u64; <Self::In as PortBundle>::WORDS];
        i.pack(&mut w);
        w[self.bit / 64] ^= 1 << (self.bit % 64);
        <Self::In as PortBundle>::unpack(&w)
    }
    fn coverage(&self) -> Vec<(String, u64)> {
        self.inner.coverage()
    }
    fn compare_final(&self, other: &Self) -> Result<(), String> {
        self.inner.compare_final(&other.inner)
    }
}

#[test]
fn udma_twin_divergence_is_reported_identically_on_one_and_two_threads() {
    let _g = common::lock();
    let (seed, cycles) = (2u64, 20_000u64);
    // Mid-batch, first cycle of a batch, and late (the RTL thread is
    // batches ahead of the golden-thread twin when it is found).
    for (at, bit) in [(3_000u64, 64usize), (4_096, 0), (15_000, 128)] {
        let run = |t| {
            let mut s = TwinFlips::new(seed, cycles);
            s.at = at;
            s.bit = bit;
            lockstep::run(Udma::new(), s, &udma::BLOCK, &twin_opts(seed, cycles, t)).unwrap()
        };
        let (one, two) = (run(1), run(2));
        let m = two
            .first_mismatch
            .as_ref()
            .unwrap_or_else(|| panic!("not caught: {}", visible(&one)));
        assert_eq!(m.kind, lockstep::MismatchKind::Stimulus);
        assert_eq!(m.cycle, at);
        assert_eq!(two.cycles_run, at);
        // The 32 cycles before the divergence, in order, none overwritten by
        // the row of the diverging cycle itself (written, not committed).
        assert_eq!(m.history.len(), 32);
        for (j, row) in m.history.iter().enumerate() {
            let want = format!("cycle {:>8} |", at - 32 + j as u64);
            assert!(row.starts_with(&want), "row {j}: {row}");
        }
        assert!(!m.history.iter().any(|r| r.contains("RTL differs")));
        assert_eq!(visible(&one), visible(&two));
        assert!(m.replay.contains("--twin"), "{}", m.replay);
    }
    // Without `twin` no clone of the environment drives the RTL: the flip in
    // the clone cannot happen and the run passes.
    for t in [1, 2] {
        let mut s = TwinFlips::new(seed, cycles);
        s.at = 3_000;
        s.bit = 64;
        let r = lockstep::run(Udma::new(), s, &udma::BLOCK, &opts(seed, cycles, t)).unwrap();
        assert!(r.passed(), "{}", r.first_mismatch.unwrap().render());
    }
}

/// The two-thread RTL side checks a whole batch in place and writes only the
/// rows the history keeps (at the batch's end, or up to the failing cycle):
/// the report must still be the serial one for a flip on either side of a
/// batch boundary (2048 cycles), for histories shorter than, equal to and
/// longer than a batch, and for no history at all; for the decoder (no beat
/// records) and the UDMA block (AXI4 beat records in every row).
#[test]
fn history_of_an_in_place_batch_check_equals_the_serial_one() {
    let _g = common::lock();
    let check = |one: &Report, two: &Report, cycle: u64, hist: usize| {
        let m = two.first_mismatch.as_ref().expect("flip is caught");
        assert_eq!(m.cycle, cycle);
        assert_eq!(two.cycles_run, cycle + 1);
        assert_eq!(m.history.len(), hist.min(cycle as usize + 1));
        if hist > 0 {
            let last = m.history.last().unwrap();
            assert!(last.starts_with(&format!("cycle {cycle:>8} |")), "{last}");
            assert!(last.contains("RTL differs"), "{last}");
        }
        assert_eq!(visible(one), visible(two));
    };
    for hist in [0usize, 5, 32, 2048, 3000] {
        for cycle in [20u64, 2047, 2048, 2049, 2070, 4095, 6000] {
            let run = |t| {
                let g = FlipOutputBit::new(Decoder::new(), "route_nbr_o", 1, cycle).unwrap();
                let o = Options {
                    history: hist,
                    ..opts(4, 8_000, t)
                };
                lockstep::run(g, DecoderStim::new(4, 8_000), &decoder::BLOCK, &o).unwrap()
            };
            check(&run(1), &run(2), cycle, hist);
        }
    }
    for cycle in [4095u64, 4096, 4100] {
        let run = |t| {
            let g = FlipOutputBit::new(Udma::new(), "s_axil_rvalid", 0, cycle).unwrap();
            lockstep::run(
                g,
                UdmaStim::new(3, 10_000),
                &udma::BLOCK,
                &opts(3, 10_000, t),
            )
            .unwrap()
        };
        check(&run(1), &run(2), cycle, 32);
    }
}

/// The two-thread golden thread follows the AXI4 beats and hands each batch
/// its beat records and the tracker as it stood at the batch start; on a
/// mismatch inside a batch the RTL thread rebuilds the tracker at the
/// failing cycle from that snapshot. A golden W beat dropped in the middle of
/// a write burst (m_axi_wvalid flipped to 0 where the RTL's beat is taken)
/// makes the RTL side's record of the row differ from the golden one, so the
/// report names the RTL beat `k/n` from the rebuilt tracker: it must equal
/// the serial report, for beats in the first, a middle and a later batch.
#[test]
fn a_dropped_mid_burst_beat_is_numbered_identically_on_one_and_two_threads() {
    use sb2sb_model::ports::CycleModel;
    let _g = common::lock();
    let (seed, cycles) = (3u64, 10_000u64);
    // Cycles of a W beat taken that is neither the first nor the last of its
    // burst, from the golden model driving the environment.
    let mut mid = Vec::new();
    let (mut g, mut s) = (Udma::new(), UdmaStim::new(seed, cycles));
    let (mut prev, mut k) = (None, 0u32);
    for c in 0..cycles {
        let i = s.next(c, prev.as_ref());
        let o = g.step(&i);
        if o.m_axi_wvalid == 1 && i.m_axi_wready == 1 {
            k += 1;
            if k >= 2 && o.m_axi_wlast == 0 {
                mid.push(c);
            }
            if o.m_axi_wlast == 1 {
                k = 0;
            }
        }
        prev = Some(o);
    }
    let pick = |from: u64| {
        *mid.iter()
            .find(|&&c| c >= from)
            .expect("a mid-burst W beat")
    };
    for cycle in [pick(100), pick(2100), pick(4200)] {
        let run = |t| {
            let g = FlipOutputBit::new(Udma::new(), "m_axi_wvalid", 0, cycle).unwrap();
            lockstep::run(
                g,
                UdmaStim::new(seed, cycles),
                &udma::BLOCK,
                &opts(seed, cycles, t),
            )
            .unwrap()
        };
        let (one, two) = (run(1), run(2));
        let m = two.first_mismatch.as_ref().expect("flip is caught");
        assert_eq!(m.cycle, cycle);
        let last = m.history.last().unwrap();
        assert!(last.contains("|| rtl:") && last.contains("beat "), "{last}");
        assert_eq!(visible(&one), visible(&two));
    }
}
