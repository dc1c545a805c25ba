//! Unit tests of the EVT_SEM golden model: AXI semantics per window, the
//! same-cycle rules, the seed's completion sequence, and a property test
//! against an independent reference (plain maps, i64 arithmetic).

use std::collections::HashMap;

use proptest::prelude::*;

use super::regs::*;
use super::stim::{Cov, EvtSemStim, LOCAL_SEM, REMOTE_SEM};
use super::*;
use crate::ports::{CycleModel, Stimulus};

// ---------------------------------------------------------------------------------------
// Small drivers
// ---------------------------------------------------------------------------------------

fn idle() -> EvtSemIn {
    EvtSemIn::idle()
}

/// One AXI write with AW and W together; returns BRESP.
fn write_strb(m: &mut EvtSem, addr: u32, data: u32, strb: u32) -> u32 {
    let mut i = idle();
    i.s_axil_awvalid = 1;
    i.s_axil_awaddr = u64::from(addr);
    i.s_axil_wvalid = 1;
    i.s_axil_wdata = u64::from(data);
    i.s_axil_wstrb = u64::from(strb);
    i.s_axil_bready = 1;
    for _ in 0..8 {
        let o = m.step(&i);
        if i.s_axil_awvalid == 1 && o.s_axil_awready == 1 {
            i.s_axil_awvalid = 0;
        }
        if i.s_axil_wvalid == 1 && o.s_axil_wready == 1 {
            i.s_axil_wvalid = 0;
        }
        if o.s_axil_bvalid == 1 {
            return o.s_axil_bresp as u32;
        }
    }
    panic!("no B response for write to {addr:#x}");
}

fn write(m: &mut EvtSem, addr: u32, data: u32) -> u32 {
    write_strb(m, addr, data, EVT_SEM_FULL_STRB)
}

/// One AXI read; returns (RDATA, RRESP).
fn read(m: &mut EvtSem, addr: u32) -> (u32, u32) {
    let mut i = idle();
    i.s_axil_arvalid = 1;
    i.s_axil_araddr = u64::from(addr);
    i.s_axil_rready = 1;
    for _ in 0..8 {
        let o = m.step(&i);
        if i.s_axil_arvalid == 1 && o.s_axil_arready == 1 {
            i.s_axil_arvalid = 0;
        }
        if o.s_axil_rvalid == 1 {
            return (o.s_axil_rdata as u32, o.s_axil_rresp as u32);
        }
    }
    panic!("no R response for read of {addr:#x}");
}

fn sem(i: u8, w: SemWindow) -> u32 {
    Reg::Sem(w, i).offset()
}

fn peek(m: &mut EvtSem, i: u8) -> i32 {
    let mut x = idle();
    x.dbg_idx_i = u64::from(i);
    let v = m.step(&x).dbg_sem_o as u32 as i32;
    assert_eq!(v, m.sem(i));
    v
}

const OKAY: u32 = EVT_SEM_RESP_OKAY;
const SLVERR: u32 = EVT_SEM_RESP_SLVERR;

// ---------------------------------------------------------------------------------------
// Register windows
// ---------------------------------------------------------------------------------------

#[test]
fn public_facts_2_set_incr_decr_read_semantics_and_all_windows_read_the_value() {
    let mut m = EvtSem::new();
    assert_eq!(write(&mut m, sem(7, SemWindow::Set), 100), OKAY);
    assert_eq!(write(&mut m, sem(7, SemWindow::Incr), 5), OKAY);
    assert_eq!(write(&mut m, sem(7, SemWindow::Decr), 8), OKAY);
    for w in [
        SemWindow::Read,
        SemWindow::Set,
        SemWindow::Incr,
        SemWindow::Decr,
    ] {
        assert_eq!(read(&mut m, sem(7, w)), (97, OKAY), "{w:?}");
    }
    // Signed: INCR by 0xFFFF_FFFF is -1, DECR below zero goes negative.
    write(&mut m, sem(7, SemWindow::Incr), u32::MAX);
    assert_eq!(m.sem(7), 96);
    write(&mut m, sem(7, SemWindow::Decr), 200);
    assert_eq!(read(&mut m, sem(7, SemWindow::Read)).0 as i32, -104);
    assert_eq!(m.err_status(), 0, "nothing went wrong");
}

#[test]
fn public_facts_2_events_hold_0_or_1_and_writes_store_wdata_bit0() {
    let mut m = EvtSem::new();
    assert_eq!(write(&mut m, Reg::Event(255).offset(), 0xFFFF_FFFE), OKAY);
    assert_eq!(read(&mut m, Reg::Event(255).offset()), (0, OKAY));
    write(&mut m, Reg::Event(255).offset(), 0x8000_0003);
    assert_eq!(read(&mut m, Reg::Event(255).offset()), (1, OKAY));
    assert!(m.evt(255) && !m.evt(254));
    let o = m.step(&idle());
    assert!(o.evt(255));
}

#[test]
fn write_to_read_window_answers_slverr_sets_sticky_bit_and_first_error() {
    let mut m = EvtSem::new();
    write(&mut m, sem(3, SemWindow::Set), 9);
    assert_eq!(write(&mut m, sem(3, SemWindow::Read), 1), SLVERR);
    assert_eq!(m.sem(3), 9, "no effect");
    assert_eq!(m.err_status(), ErrKind::WrRo.bit());
    let fe = m.first_err();
    assert_eq!(
        fe,
        FirstErr {
            valid: true,
            kind: EVT_SEM_ERR_WR_RO,
            write: true,
            info: sem(3, SemWindow::Read)
        }
    );
    assert_eq!(read(&mut m, EVT_SEM_FIRST_ERR_DATA), (1, OKAY));
    // A second error sets its sticky bit but does not replace the first.
    assert_eq!(write(&mut m, EVT_SEM_FIRST_ERR_DATA, 0), SLVERR);
    assert_eq!(read(&mut m, 0x0800), (0, SLVERR));
    assert_eq!(
        m.err_status(),
        ErrKind::WrRo.bit() | ErrKind::Unmapped.bit()
    );
    assert_eq!(m.first_err(), fe);
    // W1C one bit, then re-arm FIRST_ERR.
    assert_eq!(write(&mut m, EVT_SEM_ERR_STATUS, ErrKind::WrRo.bit()), OKAY);
    assert_eq!(
        read(&mut m, EVT_SEM_ERR_STATUS),
        (ErrKind::Unmapped.bit(), OKAY)
    );
    write(&mut m, EVT_SEM_FIRST_ERR, 1 << EVT_SEM_FE_VALID_BIT);
    assert_eq!(read(&mut m, EVT_SEM_FIRST_ERR), (0, OKAY));
    assert_eq!(read(&mut m, EVT_SEM_FIRST_ERR_DATA), (0, OKAY));
    // A FIRST_ERR write without VALID does nothing (and is not an error).
    assert_eq!(write(&mut m, 0x0FFC, 0), SLVERR);
    let fe = m.first_err();
    assert_eq!(write(&mut m, EVT_SEM_FIRST_ERR, 0x7FFF_FFFF), OKAY);
    assert_eq!(m.first_err(), fe);
    assert_eq!(fe.kind, EVT_SEM_ERR_UNMAPPED);
    assert_eq!(fe.info, 0x0FFC);
}

#[test]
fn partial_strobe_write_is_rejected_with_slverr_and_has_no_effect() {
    let mut m = EvtSem::new();
    write(&mut m, sem(1, SemWindow::Set), 5);
    for strb in 0..EVT_SEM_FULL_STRB {
        assert_eq!(
            write_strb(&mut m, sem(1, SemWindow::Incr), 1, strb),
            SLVERR,
            "strb {strb:#x}"
        );
        assert_eq!(write_strb(&mut m, Reg::Event(1).offset(), 1, strb), SLVERR);
    }
    assert_eq!(m.sem(1), 5);
    assert!(!m.evt(1));
    assert_eq!(m.err_status(), ErrKind::PartialStrb.bit());
}

#[test]
fn overflow_saturates_in_both_directions_and_is_flagged_never_silent() {
    let mut m = EvtSem::new();
    write(&mut m, sem(9, SemWindow::Set), i32::MAX as u32 - 1);
    assert_eq!(
        write(&mut m, sem(9, SemWindow::Incr), 5),
        OKAY,
        "the write itself is fine"
    );
    assert_eq!(m.sem(9), i32::MAX);
    assert_eq!(m.err_status(), ErrKind::Overflow.bit());
    let fe = m.first_err();
    assert_eq!(
        (fe.kind, fe.info, fe.write),
        (EVT_SEM_ERR_OVERFLOW, 9, false)
    );
    assert_eq!(read(&mut m, EVT_SEM_FIRST_ERR_DATA).0, i32::MAX as u32);

    write(&mut m, EVT_SEM_ERR_STATUS, ERR_MASK);
    write(&mut m, EVT_SEM_FIRST_ERR, 1 << EVT_SEM_FE_VALID_BIT);
    write(&mut m, sem(9, SemWindow::Set), i32::MIN as u32 + 2);
    write(&mut m, sem(9, SemWindow::Decr), 3);
    assert_eq!(m.sem(9), i32::MIN);
    assert_eq!(m.err_status(), ErrKind::Overflow.bit());
    assert_eq!(read(&mut m, EVT_SEM_FIRST_ERR_DATA).0, i32::MIN as u32);

    // In range again: exact arithmetic, no flag.
    write(&mut m, EVT_SEM_ERR_STATUS, ERR_MASK);
    write(&mut m, sem(9, SemWindow::Incr), 10);
    assert_eq!(m.sem(9), i32::MIN + 10);
    assert_eq!(m.err_status(), 0);
}

#[test]
fn exact_sum_is_formed_before_saturation_so_opposite_deltas_do_not_overflow() {
    let mut m = EvtSem::new();
    write(&mut m, sem(4, SemWindow::Set), i32::MAX as u32);
    let mut i = idle();
    i.set_inc(0, 4, 10);
    i.set_inc(1, 4, -10);
    m.step(&i);
    assert_eq!(
        m.step(&idle()).err_pulse_o,
        0,
        "no overflow pulse next cycle"
    );
    assert_eq!(m.sem(4), i32::MAX);
    assert_eq!(m.err_status(), 0);
}

// ---------------------------------------------------------------------------------------
// AXI handshakes
// ---------------------------------------------------------------------------------------

#[test]
fn axi_w_before_aw_and_b_backpressure_hold_the_response() {
    let mut m = EvtSem::new();
    let mut i = idle();
    i.s_axil_wvalid = 1;
    i.s_axil_wdata = 42;
    i.s_axil_wstrb = u64::from(EVT_SEM_FULL_STRB);
    assert_eq!(m.step(&i).s_axil_wready, 1); // W accepted first
    i.s_axil_wvalid = 0;
    for _ in 0..3 {
        let o = m.step(&i);
        assert_eq!(
            (o.s_axil_wready, o.s_axil_bvalid),
            (0, 0),
            "W held, no B without AW"
        );
    }
    i.s_axil_awvalid = 1;
    i.s_axil_awaddr = u64::from(sem(2, SemWindow::Set));
    assert_eq!(m.step(&i).s_axil_awready, 1);
    i.s_axil_awvalid = 0;
    m.step(&i); // commit
    assert_eq!(m.sem(2), 42);
    for _ in 0..4 {
        let o = m.step(&i);
        assert_eq!(
            (o.s_axil_bvalid, o.s_axil_bresp),
            (1, u64::from(OKAY)),
            "B held under backpressure"
        );
        assert_eq!(
            o.s_axil_awready, 1,
            "the next AW may be accepted while B waits"
        );
    }
    i.s_axil_bready = 1;
    assert_eq!(m.step(&i).s_axil_bvalid, 1);
    assert_eq!(m.step(&i).s_axil_bvalid, 0);
}

#[test]
fn axi_read_data_is_captured_at_ar_and_held_under_r_backpressure() {
    let mut m = EvtSem::new();
    write(&mut m, sem(5, SemWindow::Set), 11);
    let mut i = idle();
    i.s_axil_arvalid = 1;
    i.s_axil_araddr = u64::from(sem(5, SemWindow::Read));
    assert_eq!(m.step(&i).s_axil_arready, 1);
    i.s_axil_arvalid = 0;
    i.set_inc(0, 5, 1); // changes the semaphore after the read was captured
    for _ in 0..3 {
        let o = m.step(&i);
        assert_eq!(
            (o.s_axil_rvalid, o.s_axil_rdata, o.s_axil_arready),
            (1, 11, 0)
        );
    }
    assert_eq!(m.sem(5), 14);
}

// ---------------------------------------------------------------------------------------
// Increment ports and same-cycle rules
// ---------------------------------------------------------------------------------------

#[test]
fn sixteen_ports_on_one_semaphore_plus_axi_incr_all_count_in_one_cycle() {
    let mut m = EvtSem::new();
    // Put an INCR of 100 into the slave, then fire all 16 ports in its commit cycle.
    let mut i = idle();
    i.s_axil_awvalid = 1;
    i.s_axil_awaddr = u64::from(sem(LOCAL_SEM, SemWindow::Incr));
    i.s_axil_wvalid = 1;
    i.s_axil_wdata = 100;
    i.s_axil_wstrb = u64::from(EVT_SEM_FULL_STRB);
    m.step(&i);
    let mut i = idle();
    for p in 0..NUM_INC {
        i.set_inc(p, LOCAL_SEM, 1);
    }
    m.step(&i);
    assert_eq!(m.sem(LOCAL_SEM), 116);
}

#[test]
fn axi_set_applies_first_then_every_same_cycle_increment() {
    let mut m = EvtSem::new();
    write(&mut m, sem(8, SemWindow::Set), 1000);
    let mut i = idle();
    i.s_axil_awvalid = 1;
    i.s_axil_awaddr = u64::from(sem(8, SemWindow::Set));
    i.s_axil_wvalid = 1;
    i.s_axil_wdata = 50;
    i.s_axil_wstrb = u64::from(EVT_SEM_FULL_STRB);
    m.step(&i);
    let mut i = idle();
    i.set_inc(3, 8, 2);
    i.set_inc(9, 8, 5);
    m.step(&i);
    assert_eq!(m.sem(8), 57, "SET 50, then +2 +5");
}

#[test]
fn two_ge_dec_waiters_on_one_semaphore_never_consume_the_same_count() {
    let mut m = EvtSem::new();
    write(&mut m, sem(20, SemWindow::Set), 5);
    let mut i = idle();
    i.set_wait(0, EVT_SEM_WAIT_SEM_GE_DEC as u8, 20, 4);
    i.set_wait(1, EVT_SEM_WAIT_SEM_GE_DEC as u8, 20, 4);
    i.set_wait(2, EVT_SEM_WAIT_SEM_EQ as u8, 20, 1); // sees port 0's decrement
    i.set_wait(3, EVT_SEM_WAIT_SEM_EQ as u8, 20, 5); // ...so this one does not
    let o = m.step(&i);
    assert_eq!(o.wait_done_o, 0b0101);
    assert_eq!(m.sem(20), 1);
    // With 8 both are served in one cycle.
    write(&mut m, sem(20, SemWindow::Set), 8);
    let o = m.step(&i);
    assert_eq!(o.wait_done_o & 0b11, 0b11);
    assert_eq!(m.sem(20), 0);
}

#[test]
fn ge_dec_waiter_does_not_see_increments_of_its_own_cycle() {
    let mut m = EvtSem::new();
    let mut i = idle();
    i.set_wait(0, EVT_SEM_WAIT_SEM_GE_DEC as u8, 1, 2);
    i.set_inc(0, 1, 2);
    assert_eq!(m.step(&i).wait_done_o, 0, "state before the edge is 0");
    assert_eq!(m.sem(1), 2);
    assert_eq!(m.step(&i).wait_done_o, 1);
    assert_eq!(m.sem(1), 2, "-2 from the waiter, +2 from the port");
}

#[test]
fn every_wait_mode_is_satisfied_exactly_when_its_predicate_holds() {
    for v in [-3i32, 0, 7] {
        for imm in [-3i32, 0, 7, 8] {
            let mut m = EvtSem::new();
            write(&mut m, sem(30, SemWindow::Set), v as u32);
            let cases = [
                (EVT_SEM_WAIT_NONE, true),
                (EVT_SEM_WAIT_SEM_EQ, v == imm),
                (EVT_SEM_WAIT_SEM_LT, v < imm),
                (EVT_SEM_WAIT_SEM_LE, v <= imm),
                (EVT_SEM_WAIT_SEM_GT, v > imm),
                (EVT_SEM_WAIT_SEM_GE, v >= imm),
            ];
            for (mode, want) in cases {
                let mut i = idle();
                i.set_wait(2, mode as u8, 30, imm);
                assert_eq!(
                    m.step(&i).wait_done_o == 0b100,
                    want,
                    "mode {mode} v {v} imm {imm}"
                );
                assert_eq!(m.sem(30), v, "compare modes have no side effect");
            }
        }
    }
}

#[test]
fn event_waits_set_and_set_then_clear_and_axi_write_wins_over_clear() {
    let mut m = EvtSem::new();
    let mut i = idle();
    i.set_wait(0, EVT_SEM_WAIT_EVT_SET as u8, 6, 0);
    i.set_wait(1, EVT_SEM_WAIT_EVT_SET_CLR as u8, 6, 0);
    i.set_wait(2, EVT_SEM_WAIT_EVT_SET_CLR as u8, 6, 0);
    assert_eq!(m.step(&i).wait_done_o, 0);
    write(&mut m, Reg::Event(6).offset(), 1);
    let o = m.step(&i);
    assert_eq!(o.wait_done_o, 0b011, "port 2 sees port 1's clear");
    assert!(!m.evt(6));
    // Clear and an AXI event write in the same cycle: the write wins.
    write(&mut m, Reg::Event(6).offset(), 1);
    let mut w = i;
    w.s_axil_awvalid = 1;
    w.s_axil_awaddr = u64::from(Reg::Event(6).offset());
    w.s_axil_wvalid = 1;
    w.s_axil_wdata = 1;
    w.s_axil_wstrb = u64::from(EVT_SEM_FULL_STRB);
    let mut i1 = idle();
    i1.s_axil_awvalid = 1;
    i1.s_axil_awaddr = w.s_axil_awaddr;
    i1.s_axil_wvalid = 1;
    i1.s_axil_wdata = 1;
    i1.s_axil_wstrb = w.s_axil_wstrb;
    m.step(&i1); // AW+W accepted
    let o = m.step(&i); // commit cycle, with the clearing waiter
    assert_eq!(o.wait_done_o & 0b10, 0b10);
    assert!(m.evt(6), "AXI write of 1 overrides the clear");
}

#[test]
fn unsupported_wait_mode_never_completes_and_is_flagged() {
    let mut m = EvtSem::new();
    let mut i = idle();
    i.set_wait(3, 0x81, 0, 0);
    i.set_wait(1, 0x09, 0, 0);
    let o = m.step(&i);
    assert_eq!(o.wait_done_o, 0);
    assert_eq!(o.err_pulse_o, 0, "err_pulse_o is registered");
    let o = m.step(&idle());
    assert_eq!(
        o.err_pulse_o,
        u64::from(ErrKind::BadWaitMode.bit()),
        "pulse in the cycle after, with the sticky bit"
    );
    assert_eq!(o.err_status_o, u64::from(ErrKind::BadWaitMode.bit()));
    assert_eq!(m.step(&idle()).err_pulse_o, 0, "one cycle only");
    let fe = m.first_err();
    assert_eq!(
        (fe.kind, fe.info),
        (EVT_SEM_ERR_BAD_WAIT_MODE, 1),
        "lowest port"
    );
    assert_eq!(read(&mut m, EVT_SEM_FIRST_ERR_DATA).0, 0x09);
}

#[test]
fn reset_clears_state_and_outputs_in_the_same_cycle() {
    let mut m = EvtSem::new();
    write(&mut m, sem(1, SemWindow::Set), 3);
    write(&mut m, Reg::Event(1).offset(), 1);
    write(&mut m, sem(1, SemWindow::Read), 0);
    let mut i = idle();
    i.rst_ni = 0;
    i.dbg_idx_i = 1;
    i.set_inc(0, 1, 5); // ignored: state stays reset through the edge
    let o = m.step(&i);
    assert_eq!((o.dbg_sem_o, o.err_status_o, o.evt_o), (0, 0, [0; 4]));
    assert_eq!(peek(&mut m, 1), 0);
    assert_eq!(m.first_err(), FirstErr::default());
}

#[test]
fn drop_fault_loses_exactly_the_second_same_cycle_increment() {
    let mut good = EvtSem::new();
    let mut bad = EvtSem::new();
    bad.fault = Some(EvtSemFault::DropSameCycleIncrement);
    let mut i = idle();
    i.set_inc(0, 2, 1);
    i.set_inc(5, 2, 1);
    i.set_inc(6, 3, 1);
    good.step(&i);
    bad.step(&i);
    assert_eq!((good.sem(2), bad.sem(2)), (2, 1));
    assert_eq!((good.sem(3), bad.sem(3)), (1, 1));
}

// ---------------------------------------------------------------------------------------
// Seed 001 §5.2 / §8: two-semaphore completion
// ---------------------------------------------------------------------------------------

#[test]
fn seed001_5_2_completion_local_and_remote_rise_by_engine_count_and_waiter_decrements() {
    let mut m = EvtSem::new();
    // §5.2 (3): all 16 engines bump local_sem; (4) remote_sem rises by the engine count,
    // one routed increment per engine at different cycles.
    let mut i = idle();
    for p in 0..NUM_INC {
        i.set_inc(p, LOCAL_SEM, 1);
    }
    m.step(&i);
    assert_eq!(m.sem(LOCAL_SEM), 16);
    let mut waiter = idle();
    waiter.set_wait(0, EVT_SEM_WAIT_SEM_GE_DEC as u8, REMOTE_SEM, NUM_INC as i32);
    for e in 0..NUM_INC {
        let mut i = waiter;
        i.set_inc(e, REMOTE_SEM, 1);
        assert_eq!(
            m.step(&i).wait_done_o,
            0,
            "waiter must not fire before all {NUM_INC} engines"
        );
    }
    assert_eq!(m.sem(REMOTE_SEM), 16);
    // (5) the next step waits remote_sem >= target, then atomically decrements it.
    assert_eq!(m.step(&waiter).wait_done_o, 1);
    assert_eq!(m.sem(REMOTE_SEM), 0);
    assert_eq!(m.step(&waiter).wait_done_o, 0, "consumed once");
}

#[test]
fn seed001_8_directed_sequence_of_the_stimulus_completes_on_the_golden_model() {
    let mut m = EvtSem::new();
    let mut s = EvtSemStim::new(3, 100_000);
    let mut prev = None;
    let mut c = 0;
    while !s.directed_done() {
        let i = s.next(c, prev.as_ref());
        prev = Some(m.step(&i));
        c += 1;
        assert!(c < 10_000, "directed sequence did not finish");
    }
    assert_eq!(
        s.count(Cov::DirectedCompletion),
        2,
        "4-engine example and 16-engine step"
    );
    assert_eq!(
        (m.sem(LOCAL_SEM), m.sem(REMOTE_SEM)),
        (0, 0),
        "every count consumed exactly"
    );
    assert_eq!(m.err_status(), 0);
}

#[test]
fn stimulus_covers_every_counter_on_the_golden_model() {
    let cycles = 150_000;
    let mut m = EvtSem::new();
    let mut s = EvtSemStim::new(11, cycles);
    let mut prev = None;
    for c in 0..cycles {
        let i = s.next(c, prev.as_ref());
        prev = Some(m.step(&i));
    }
    for (name, n) in s.coverage() {
        assert!(n > 0, "coverage counter {name} never hit");
    }
}

/// Updates (semaphore, value) in first-touch order, and the first overflow.
type PlainSum = (Vec<(u8, i32)>, Option<(u8, i32)>);

/// The plain form of stage 3 that `sum_semaphores` replaces: one update per
/// semaphore in the order of first touch, each the base (the SET value, else
/// the semaphore) plus the exact sum of its deltas, saturated; the first
/// saturating one is reported.
fn plain_sum(sem: &[i32; NUM_SEM], set: Option<(u8, i32)>, deltas: &[(u8, i64)]) -> PlainSum {
    let mut order: Vec<u8> = Vec::new();
    let mut sum: HashMap<u8, i64> = HashMap::new();
    // The SET is slot 0: a touch without a delta.
    let mut touches: Vec<(u8, i64)> = set.map(|(s, _)| (s, 0)).into_iter().collect();
    touches.extend_from_slice(deltas);
    for &(idx, d) in &touches {
        if !order.contains(&idx) {
            order.push(idx);
        }
        *sum.entry(idx).or_default() += d;
    }
    let mut ovf = None;
    let ups = order
        .iter()
        .map(|&idx| {
            let base = match set {
                Some((s, v)) if s == idx => i64::from(v),
                _ => i64::from(sem[usize::from(idx)]),
            };
            let exact = base + sum[&idx];
            let v = exact.clamp(i64::from(i32::MIN), i64::from(i32::MAX));
            if v != exact && ovf.is_none() {
                ovf = Some((idx, v as i32));
            }
            (idx, v as i32)
        })
        .collect();
    (ups, ovf)
}

/// Stage 3 summing into the next-value copy (repeats included, no first-touch
/// detection) gives the plain form's updates and first overflow, over random
/// states, AXI writes, increment ports and decrementing waiters.
#[test]
fn summing_into_next_values_equals_the_first_touch_plain_form() {
    let mut rng = crate::stim::StimRng::new(99);
    let extreme = [
        i32::MIN,
        i32::MIN + 1,
        -5,
        -1,
        0,
        1,
        3,
        i32::MAX - 2,
        i32::MAX,
    ];
    let pick_val = |rng: &mut crate::stim::StimRng| {
        if rng.below(2) == 0 {
            extreme[rng.below(extreme.len() as u64) as usize]
        } else {
            rng.u64() as i32
        }
    };
    for round in 0..20_000 {
        let mut m = EvtSem::new();
        // Few distinct semaphores, so repeats are common.
        let span = [4u64, 16, 256][round % 3];
        for k in 0..span as usize {
            m.sem[k] = pick_val(&mut rng);
            m.next[k] = i64::from(m.sem[k]);
        }
        let idx = |rng: &mut crate::stim::StimRng| rng.below(span) as u8;
        let op = match rng.below(4) {
            0 => WriteOp::SemSet(idx(&mut rng), pick_val(&mut rng)),
            1 => WriteOp::SemAdd(idx(&mut rng), i64::from(pick_val(&mut rng))),
            2 => WriteOp::SemAdd(idx(&mut rng), -i64::from(pick_val(&mut rng))),
            _ => WriteOp::None,
        };
        let mut i = idle();
        for p in 0..NUM_INC {
            if rng.below(3) == 0 {
                let (x, v) = (idx(&mut rng), pick_val(&mut rng));
                i.set_inc(p, x, v);
            }
        }
        let mut w = Waits::IDLE;
        for p in 0..NUM_WAIT {
            w.idx[p] = idx(&mut rng);
            w.imm[p] = pick_val(&mut rng);
        }
        w.dec = rng.below(1 << NUM_WAIT) as u32;
        // The plain form's inputs, in slot order.
        let mut set = None;
        let mut deltas = Vec::new();
        match op {
            WriteOp::SemSet(x, v) => set = Some((x, v)),
            WriteOp::SemAdd(x, v) => deltas.push((x, v)),
            _ => {}
        }
        for p in 0..NUM_INC {
            let (valid, x, v) = i.inc(p);
            if valid {
                deltas.push((x, i64::from(v)));
            }
        }
        for p in 0..NUM_WAIT {
            if (w.dec >> p) & 1 == 1 {
                deltas.push((w.idx[p], -i64::from(w.imm[p])));
            }
        }
        let (want, want_ovf) = plain_sum(&m.sem, set, &deltas);
        let mut out = SemUpdates {
            idx: [0; SLOT_CAP],
            count: 0,
            overflow: None,
        };
        m.sum_semaphores(&i, op, &w, &mut out);
        let mut got: Vec<(u8, i32)> = Vec::new();
        for &x in &out.idx[..out.count] {
            if !got.iter().any(|g| g.0 == x) {
                got.push((x, m.next[usize::from(x)] as i32));
            }
            assert_eq!(
                m.next[usize::from(x)],
                i64::from(m.next[usize::from(x)] as i32),
                "saturated"
            );
        }
        assert_eq!(got, want, "round {round}");
        assert_eq!(out.overflow, want_ovf, "round {round}");
        for k in 0..NUM_SEM {
            if !got.iter().any(|g| usize::from(g.0) == k) {
                assert_eq!(
                    m.next[k],
                    i64::from(m.sem[k]),
                    "untouched {k}, round {round}"
                );
            }
        }
    }
}

/// The wait-mode predicate of the RTL's `unique case`, arm by arm.
fn wait_predicate_by_arm(code: u32, eff: i64, imm: i64, ev: bool) -> bool {
    match WaitMode::from_code(code) {
        Some(WaitMode::None) => true,
        Some(WaitMode::SemEq) => eff == imm,
        Some(WaitMode::SemLt) => eff < imm,
        Some(WaitMode::SemLe) => eff <= imm,
        Some(WaitMode::SemGt) => eff > imm,
        Some(WaitMode::SemGe) | Some(WaitMode::SemGeDec) => eff >= imm,
        Some(WaitMode::EvtSet) | Some(WaitMode::EvtSetThenClear) => ev,
        None => false,
    }
}

#[test]
fn wait_accept_table_equals_every_arm_of_the_wait_case_for_every_mode_byte() {
    let vals = [i64::from(i32::MIN), -3, -1, 0, 1, 2, 7, i64::from(i32::MAX)];
    for code in 0..=255u32 {
        for &eff in &vals {
            for &imm in &vals {
                for ev in [false, true] {
                    assert_eq!(
                        wait_satisfied(MODE_INFO[code as usize], eff - 1, imm, ev),
                        wait_predicate_by_arm(code, eff - 1, imm, ev),
                        "mode {code:#x} eff {eff} imm {imm} ev {ev}"
                    );
                }
            }
        }
    }
}

/// The flags of the mode table equal the mode decode (known modes) and the
/// two side-effect arms, for every mode byte.
#[test]
fn mode_info_flags_equal_the_mode_decode_for_every_mode_byte() {
    for code in 0..=255u32 {
        let info = MODE_INFO[code as usize];
        let known = WaitMode::from_code(code).is_some();
        assert_eq!(info & MI_KNOWN != 0, known, "mode {code:#x}");
        assert_eq!(
            info & MI_CLR != 0,
            code == EVT_SEM_WAIT_EVT_SET_CLR,
            "mode {code:#x}"
        );
        assert_eq!(
            info & MI_DEC != 0,
            code == EVT_SEM_WAIT_SEM_GE_DEC,
            "mode {code:#x}"
        );
        if !known {
            assert_eq!(info, 0, "unknown mode {code:#x} accepts nothing");
        }
    }
}

/// The multiply gather of a flag from the four mode entries equals reading
/// the flag of each byte, over random entries.
#[test]
fn port_flags_gather_equals_the_per_byte_flags() {
    let mut rng = crate::stim::StimRng::new(3);
    for _ in 0..20_000 {
        let infos = rng.u64() as u32;
        for flag in [MI_KNOWN, MI_CLR, MI_DEC, 1, 1 << 7] {
            let want = (0..NUM_WAIT).fold(0u32, |m, p| {
                m | u32::from((infos >> (8 * p)) as u8 & flag != 0) << p
            });
            assert_eq!(port_flags(infos, flag), want, "{infos:#x} {flag:#x}");
        }
    }
}

/// The stimulus's all-nibbles-at-once port gate equals comparing each
/// port's nibble, for every burst density and random gates.
#[test]
fn increment_port_gate_equals_the_per_port_nibble_compare() {
    let mut rng = crate::stim::StimRng::new(4);
    for k in 0..20_000 {
        let gate = match k {
            0 => 0,
            1 => u64::MAX,
            _ => rng.u64(),
        };
        for density in 1..=16u32 {
            let want = (0..NUM_INC).fold(0u64, |m, p| {
                m | u64::from((((gate >> (4 * p)) & 0xF) as u32) < density) << p
            });
            assert_eq!(
                super::stim::gate_ports(gate, density),
                want,
                "{gate:#x} {density}"
            );
        }
    }
}

/// `set_wait`'s written-out lane updates equal the generic lane writes, on
/// random bundles (other ports' lanes kept).
#[test]
fn set_wait_equals_the_generic_lane_writes() {
    let mut rng = crate::stim::StimRng::new(8);
    for _ in 0..20_000 {
        let mut i = idle();
        i.wait_valid_i = rng.below(1 << NUM_WAIT);
        i.wait_mode_i = rng.u64() & 0xFFFF_FFFF;
        i.wait_idx_i = rng.u64() & 0xFFFF_FFFF;
        i.wait_value_i = [rng.u64(), rng.u64()];
        let mut want = i;
        let (p, mode, idx, value) = (
            rng.below(NUM_WAIT as u64) as usize,
            rng.u64() as u8,
            rng.u64() as u8,
            rng.u64() as i32,
        );
        i.set_wait(p, mode, idx, value);
        want.wait_valid_i |= 1 << p;
        io::set_lane(
            core::slice::from_mut(&mut want.wait_mode_i),
            p,
            io::MODE_W,
            u64::from(mode),
        );
        io::set_lane(
            core::slice::from_mut(&mut want.wait_idx_i),
            p,
            io::IDX_W,
            u64::from(idx),
        );
        io::set_lane(
            &mut want.wait_value_i,
            p,
            io::VAL_W,
            u64::from(value as u32),
        );
        assert_eq!(i, want);
        assert_eq!(i.wait(p), (true, mode, idx, value));
    }
}

#[test]
fn increment_lane_accessors_equal_the_generic_lane_reads() {
    let mut rng = crate::stim::StimRng::new(7);
    for _ in 0..1000 {
        let mut i = idle();
        i.inc_idx_i = [rng.u64(), rng.u64()];
        i.inc_value_i = core::array::from_fn(|_| rng.u64());
        for p in 0..NUM_INC {
            assert_eq!(
                u64::from(i.inc_idx(p)),
                io::lane(&i.inc_idx_i, p, io::IDX_W)
            );
            assert_eq!(
                u64::from(i.inc_value(p) as u32),
                io::lane(&i.inc_value_i, p, io::VAL_W)
            );
        }
        assert_eq!(i.inc_idx_lanes(), core::array::from_fn(|p| i.inc_idx(p)));
        assert_eq!(
            i.inc_value_lanes(),
            core::array::from_fn(|p| i.inc_value(p))
        );
    }
}

// ---------------------------------------------------------------------------------------
// Property tests: independent reference; never panic
// ---------------------------------------------------------------------------------------

/// Plain reference of the port semantics (maps, i64 sums, saturation at the end).
#[derive(Default)]
struct Reference {
    sem: HashMap<u8, i32>,
    evt: HashMap<u8, bool>,
}

impl Reference {
    fn get(&self, i: u8) -> i32 {
        *self.sem.get(&i).unwrap_or(&0)
    }
    /// One cycle of ports: returns (wait_done, overflow).
    fn cycle(&mut self, inc: &[(u8, i32)], waits: &[(usize, u8, u8, i32)]) -> (u64, bool) {
        let mut done = 0u64;
        let mut sums: HashMap<u8, i64> = HashMap::new();
        let mut consumed: Vec<(u8, i64)> = Vec::new();
        let mut cleared: Vec<u8> = Vec::new();
        for &(p, mode, idx, imm) in waits {
            let cur = i64::from(self.get(idx))
                - consumed
                    .iter()
                    .filter(|c| c.0 == idx)
                    .map(|c| c.1)
                    .sum::<i64>();
            let ev = *self.evt.get(&idx).unwrap_or(&false) && !cleared.contains(&idx);
            let imm = i64::from(imm);
            let ok = match u32::from(mode) {
                EVT_SEM_WAIT_NONE => true,
                EVT_SEM_WAIT_SEM_EQ => cur == imm,
                EVT_SEM_WAIT_SEM_LT => cur < imm,
                EVT_SEM_WAIT_SEM_LE => cur <= imm,
                EVT_SEM_WAIT_SEM_GT => cur > imm,
                EVT_SEM_WAIT_SEM_GE => cur >= imm,
                EVT_SEM_WAIT_EVT_SET => ev,
                EVT_SEM_WAIT_EVT_SET_CLR => {
                    if ev {
                        cleared.push(idx);
                    }
                    ev
                }
                EVT_SEM_WAIT_SEM_GE_DEC => {
                    if cur >= imm {
                        consumed.push((idx, imm));
                    }
                    cur >= imm
                }
                _ => false,
            };
            if ok {
                done |= 1 << p;
            }
        }
        for &(idx, v) in inc {
            *sums.entry(idx).or_default() += i64::from(v);
        }
        for (idx, v) in consumed {
            *sums.entry(idx).or_default() -= v;
        }
        let mut ovf = false;
        for (idx, d) in sums {
            let exact = i64::from(self.get(idx)) + d;
            let clamped = exact.clamp(i64::from(i32::MIN), i64::from(i32::MAX));
            ovf |= clamped != exact;
            self.sem.insert(idx, clamped as i32);
        }
        for idx in cleared {
            self.evt.insert(idx, false);
        }
        (done, ovf)
    }
}

fn small_idx() -> impl Strategy<Value = u8> {
    prop_oneof![Just(0u8), Just(1), Just(2), Just(255)]
}

fn value() -> impl Strategy<Value = i32> {
    prop_oneof![
        -3i32..=3,
        Just(i32::MAX),
        Just(i32::MIN),
        Just(0x4000_0000),
        any::<i32>()
    ]
}

proptest! {
    #[test]
    fn ports_agree_with_an_independent_reference(
        cycles in prop::collection::vec(
            (
                prop::collection::vec((any::<bool>(), small_idx(), value()), NUM_INC),
                prop::collection::vec((any::<bool>(), 0u8..=9, small_idx(), value()), NUM_WAIT),
                any::<bool>(),
                small_idx(),
            ),
            1..40,
        )
    ) {
        let mut m = EvtSem::new();
        let mut r = Reference::default();
        for (incs, waits, set_evt, evt_idx) in cycles {
            if set_evt {
                // Events are set through AXI (their only writer besides the clears).
                write(&mut m, Reg::Event(evt_idx).offset(), 1);
                r.evt.insert(evt_idx, true);
                // Keep the reference in step with the AXI idle cycles (no port activity).
            }
            let mut i = idle();
            let mut inc = Vec::new();
            for (p, &(v, idx, val)) in incs.iter().enumerate() {
                if v {
                    i.set_inc(p, idx, val);
                    inc.push((idx, val));
                }
            }
            let mut wl = Vec::new();
            for (p, &(v, mode, idx, val)) in waits.iter().enumerate() {
                if v {
                    i.set_wait(p, mode, idx, val);
                    wl.push((p, mode, idx, val));
                }
            }
            let o = m.step(&i);
            let (done, ovf) = r.cycle(&inc, &wl);
            prop_assert_eq!(o.wait_done_o, done);
            prop_assert_eq!(m.err_pulse() & ErrKind::Overflow.bit() != 0, ovf);
            for idx in [0u8, 1, 2, 255] {
                prop_assert_eq!(m.sem(idx), r.get(idx), "semaphore {}", idx);
                prop_assert_eq!(m.evt(idx), *r.evt.get(&idx).unwrap_or(&false), "event {}", idx);
            }
        }
    }

    #[test]
    fn decode_never_panics_and_is_total(off in any::<u32>()) {
        let r = Reg::decode(off);
        if r != Reg::Unmapped {
            prop_assert_eq!(Reg::decode(r.offset()), r);
        }
    }

    /// Arbitrary input words, cycle after cycle: a wait port answers only
    /// when it is valid, a valid port with mode NONE always answers out of
    /// reset (the RTL's wait `unique case`), and the error status holds only
    /// defined bits.
    #[test]
    fn arbitrary_inputs_answer_only_valid_wait_ports(words in prop::collection::vec(any::<u64>(), 30), n in 1usize..20) {
        use crate::ports::PortBundle;
        let mut m = EvtSem::new();
        let mut w = [0u64; 32];
        w[..30].copy_from_slice(&words);
        for k in 0..n {
            w.rotate_left(k % 7);
            let i = EvtSemIn::unpack(&w);
            let o = m.step(&i);
            prop_assert!(o.err_status_o <= u64::from(ERR_MASK));
            prop_assert_eq!(o.wait_done_o & !i.wait_valid_i, 0, "cycle {}", k);
            for p in 0..NUM_WAIT {
                let (valid, mode, _, _) = i.wait(p);
                if i.rst_ni == 1 && valid && u32::from(mode) == EVT_SEM_WAIT_NONE {
                    prop_assert_eq!((o.wait_done_o >> p) & 1, 1, "cycle {} port {}", k, p);
                }
            }
        }
    }
}

#[test]
fn branch_free_conditional_chance_draws_as_the_short_circuit_form() {
    let mut a = super::bfm::Dice::new(crate::stim::StimRng::new(11));
    let mut b = a.clone();
    let mut c = crate::stim::StimRng::new(12);
    for _ in 0..100_000 {
        let cond = c.below(3) != 0;
        let num = c.below(17) as u32;
        let k = c.range(1, 12) as u32;
        assert_eq!(a.chance16_if(cond, num), cond && b.chance16(num));
        // Interleaved plain draws of other widths keep the pools in step.
        assert_eq!(a.bits(k), b.bits(k));
    }
}
