//! Generated CSR tests (model/src/regs/csr.rs: reset values, read/write,
//! bit-bash, aliasing, WO/RO/W1C) in lockstep: golden model against the RTL
//! for EVT_SEM and every UDMA width.

mod common;

use sb2sb::lockstep::{self, Options};
use sb2sb_model::evt_sem::csr::EvtSemCsr;
use sb2sb_model::evt_sem::EvtSem;
use sb2sb_model::ports::Stimulus;
use sb2sb_model::udma::csr::UdmaCsr;
use sb2sb_model::udma::{UdmaEngine, UdmaWidth, W128, W32, W64};

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
}
