//! Lockstep of the system top: the golden `SysTop` (four golden cores and the
//! golden SoC fabric) against the Verilated `rtl/sb2sb_system.sv`, driven by
//! the environment that plays every core's Q7; a fault of the composition
//! (every link at the on-die latency) caught by the lockstep.

mod common;

use sb2sb::lockstep::{self, Options, Report};
use sb2sb::rtl::XInit;
use sb2sb_model::pair::sys_stim::SysEnv;
use sb2sb_model::pair::system::{SysFault, SysTop, BLOCK};
use sb2sb_model::ports::Stimulus;

fn opts(seed: u64, cycles: u64) -> Options {
    Options {
        seed,
        cycles,
        x_init: XInit::Random,
        ..Options::default()
    }
}

fn run(golden: SysTop, seed: u64, cycles: u64) -> Report {
    let _g = common::lock();
    lockstep::run(
        golden,
        SysEnv::new(seed, cycles),
        &BLOCK,
        &opts(seed, cycles),
    )
    .unwrap()
}

#[test]
fn ring_steps_and_random_mixes_are_lockstep_clean_and_the_end_images_are_checked() {
    let r = run(SysTop::default(), 4, 300_000);
    if let Some(m) = &r.first_mismatch {
        panic!("{}", m.render());
    }
    assert_eq!(r.cov("check_fail"), 0);
    assert!(r.cov("legs") >= 20, "legs: {}", r.cov("legs"));
    assert!(r.cov("legs_same_die") > 0 && r.cov("legs_other_die") > 0);
    assert_eq!(
        r.cov("sbuf_words_checked"),
        4 * 4096,
        "final image check ran"
    );
    assert_eq!(r.cov("sems_checked"), 4 * 256);
}

#[test]
fn links_at_the_wrong_latency_are_caught() {
    let mut golden = SysTop::default();
    golden.inject(SysFault::OnDieLatencyEverywhere);
    let r = run(golden, 1, 100_000);
    assert!(r.first_mismatch.is_some(), "the lockstep missed the fault");
}
