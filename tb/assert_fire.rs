//! Each interface assertion of `rtl/assert/` fires on a hand-made violation,
//! and stays quiet on the legal sequence next to it.
//!
//! The checkers are driven through the harness `tb/assert/assert_harness.sv`
//! (every checker with its inputs on top-level ports, Verilated only in
//! assertion builds): one input vector per cycle, cycle 0 in reset. Run with
//! `make assert-test` (an `SB2SB_ASSERT=1` build); in the default build these
//! tests are ignored.
//!
//! The X/Z rules (`*_X_HANDSHAKE`, `*_X_PAYLOAD`) cannot fire in Verilator's
//! two-state simulation (no signal is ever X); they are for four-state tools.

mod common;

use sb2sb::assert_ports::{HarnessIn, HarnessOut, HARNESS};
use sb2sb::rtl::{RtlDut, XInit};

/// Idle inputs out of reset: no VALID anywhere, ring ids at their initial 1.
fn idle() -> HarnessIn {
    HarnessIn {
        rst_ni: 1,
        ur_head_id: 0x55,
        ur_tail_id: 0x55,
        ur_tail_off: [1, 0],
        ..HarnessIn::default()
    }
}

/// Step `cycles` (cycle 0 is prepended in reset); the first failure as
/// (cycle, assertion name).
fn first_failure(cycles: &[HarnessIn]) -> Option<(usize, String)> {
    first_failure_in(cycles).map(|(c, name, _)| (c, name))
}

/// As [`first_failure`], with the failing check's scope (`%m`).
fn first_failure_in(cycles: &[HarnessIn]) -> Option<(usize, String, String)> {
    let _g = common::lock();
    let mut dut: RtlDut<HarnessIn, HarnessOut> =
        RtlDut::new(&HARNESS, 1, XInit::Zero).expect("assertion build with the checker harness");
    let mut all = vec![HarnessIn {
        rst_ni: 0,
        ..idle()
    }];
    all.extend_from_slice(cycles);
    for (c, i) in all.iter().enumerate() {
        sb2sb_model::ports::CycleModel::step(&mut dut, i);
        if let Some(f) = dut.take_assert_failure() {
            let (name, scope) = f.split_once(" in ").unwrap_or((&f, ""));
            return Some((c, name.to_string(), scope.to_string()));
        }
    }
    None
}

fn fires(name: &str, at: usize, cycles: &[HarnessIn]) {
    assert_eq!(
        first_failure(cycles),
        Some((at, name.to_string())),
        "expected {name} to fire at cycle {at}"
    );
}

fn quiet(cycles: &[HarnessIn]) {
    assert_eq!(first_failure(cycles), None);
}

fn cyc(f: impl Fn(&mut HarnessIn)) -> HarnessIn {
    let mut i = idle();
    f(&mut i);
    i
}

// ---- AXI4-Lite slave ------------------------------------------------------

#[test]
#[cfg_attr(
    not(sb2sb_assert),
    ignore = "needs an assertion build: make assert-test"
)]
fn axil_valid_held_and_stable_fire_per_channel() {
    // AW: valid dropped before ready / address changed while stalled.
    let aw = cyc(|i| {
        i.axil_awvalid = 1;
        i.axil_awaddr = 4
    });
    fires("AXIL_AW_VALID_HELD", 2, &[aw, idle()]);
    fires(
        "AXIL_AW_STABLE",
        2,
        &[
            aw,
            cyc(|i| {
                i.axil_awvalid = 1;
                i.axil_awaddr = 8
            }),
        ],
    );
    quiet(&[
        aw,
        cyc(|i| {
            i.axil_awvalid = 1;
            i.axil_awaddr = 4;
            i.axil_awready = 1
        }),
        idle(),
    ]);
    // W.
    let w = cyc(|i| {
        i.axil_wvalid = 1;
        i.axil_wdata = 1;
        i.axil_wstrb = 0xf
    });
    fires("AXIL_W_VALID_HELD", 2, &[w, idle()]);
    fires(
        "AXIL_W_STABLE",
        2,
        &[
            w,
            cyc(|i| {
                i.axil_wvalid = 1;
                i.axil_wdata = 1;
                i.axil_wstrb = 0x3
            }),
        ],
    );
    // AR.
    let ar = cyc(|i| {
        i.axil_arvalid = 1;
        i.axil_araddr = 0x10
    });
    fires("AXIL_AR_VALID_HELD", 2, &[ar, idle()]);
    fires(
        "AXIL_AR_STABLE",
        2,
        &[
            ar,
            cyc(|i| {
                i.axil_arvalid = 1;
                i.axil_araddr = 0x14
            }),
        ],
    );
}

/// A write (AW and W accepted in cycle 1) then a stalled B; a read then a stalled R.
fn axil_write() -> HarnessIn {
    cyc(|i| {
        i.axil_awvalid = 1;
        i.axil_awready = 1;
        i.axil_wvalid = 1;
        i.axil_wready = 1
    })
}

#[test]
#[cfg_attr(
    not(sb2sb_assert),
    ignore = "needs an assertion build: make assert-test"
)]
fn axil_responses_need_a_request_and_are_held() {
    fires("AXIL_B_NO_REQ", 1, &[cyc(|i| i.axil_bvalid = 1)]);
    fires("AXIL_R_NO_REQ", 1, &[cyc(|i| i.axil_rvalid = 1)]);
    let b = cyc(|i| i.axil_bvalid = 1);
    fires("AXIL_B_VALID_HELD", 3, &[axil_write(), b, idle()]);
    fires(
        "AXIL_B_STABLE",
        3,
        &[
            axil_write(),
            b,
            cyc(|i| {
                i.axil_bvalid = 1;
                i.axil_bresp = 2
            }),
        ],
    );
    quiet(&[
        axil_write(),
        b,
        cyc(|i| {
            i.axil_bvalid = 1;
            i.axil_bready = 1
        }),
    ]);
    let ar = cyc(|i| {
        i.axil_arvalid = 1;
        i.axil_arready = 1
    });
    let r = cyc(|i| {
        i.axil_rvalid = 1;
        i.axil_rdata = 7
    });
    fires("AXIL_R_VALID_HELD", 3, &[ar, r, idle()]);
    fires(
        "AXIL_R_STABLE",
        3,
        &[
            ar,
            r,
            cyc(|i| {
                i.axil_rvalid = 1;
                i.axil_rdata = 8
            }),
        ],
    );
    // A second response for one request.
    let r_ok = cyc(|i| {
        i.axil_rvalid = 1;
        i.axil_rready = 1
    });
    quiet(&[ar, r_ok]);
    fires("AXIL_R_NO_REQ", 3, &[ar, r_ok, r_ok]);
}

#[test]
#[cfg_attr(
    not(sb2sb_assert),
    ignore = "needs an assertion build: make assert-test"
)]
fn axil_responses_are_okay_or_slverr() {
    let b = |resp| {
        cyc(|i| {
            i.axil_bvalid = 1;
            i.axil_bready = 1;
            i.axil_bresp = resp
        })
    };
    quiet(&[axil_write(), b(0)]);
    quiet(&[axil_write(), b(2)]);
    fires("AXIL_RESP", 2, &[axil_write(), b(1)]);
    let ar = cyc(|i| {
        i.axil_arvalid = 1;
        i.axil_arready = 1
    });
    let r = |resp| {
        cyc(|i| {
            i.axil_rvalid = 1;
            i.axil_rready = 1;
            i.axil_rresp = resp
        })
    };
    quiet(&[ar, r(2)]);
    fires("AXIL_RESP", 2, &[ar, r(3)]);
}

#[test]
#[cfg_attr(
    not(sb2sb_assert),
    ignore = "needs an assertion build: make assert-test"
)]
fn axil_bounded_waits_and_outstanding_limit() {
    // The checker's bounds: a request accepted within 8 cycles, a response
    // shown within 8 cycles of a complete request.
    let ar_stall = cyc(|i| {
        i.axil_arvalid = 1;
        i.axil_araddr = 4
    });
    quiet(&[ar_stall; 8]);
    fires("AXIL_AR_WAIT", 9, &[ar_stall; 9]);
    // AW waiting although its W was taken; W waiting although its AW was taken.
    let w_first = cyc(|i| {
        i.axil_wvalid = 1;
        i.axil_wready = 1
    });
    let aw_stall = cyc(|i| i.axil_awvalid = 1);
    let mut v = vec![w_first];
    v.extend([aw_stall; 9]);
    fires("AXIL_AW_WAIT", 10, &v);
    let aw_first = cyc(|i| {
        i.axil_awvalid = 1;
        i.axil_awready = 1
    });
    let w_stall = cyc(|i| i.axil_wvalid = 1);
    let mut v = vec![aw_first];
    v.extend([w_stall; 9]);
    fires("AXIL_W_WAIT", 10, &v);
    // A waiting AW is no stall while the slave waits for W, nor while B is shown.
    quiet(&[aw_stall; 12]);
    // No B for a complete write; no R for a read.
    let mut v = vec![axil_write()];
    v.extend([idle(); 8]);
    quiet(&v);
    v.push(idle());
    fires("AXIL_B_DELAY", 10, &v);
    let ar = cyc(|i| {
        i.axil_arvalid = 1;
        i.axil_arready = 1
    });
    let mut v = vec![ar];
    v.extend([idle(); 9]);
    fires("AXIL_R_DELAY", 10, &v);
    // 255 write addresses without their data: the 8-bit counter would wrap.
    let mut v = vec![aw_first; 254];
    quiet(&v);
    v.push(aw_first);
    v.push(idle());
    fires("AXIL_OUTSTANDING", 256, &v);
}

// ---- AXI4 master ----------------------------------------------------------

fn aw(addr: u64, len: u64, ready: u64) -> HarnessIn {
    cyc(|i| {
        i.axi_awvalid = 1;
        i.axi_awready = ready;
        i.axi_awaddr = addr;
        i.axi_awlen = len;
        i.axi_awsize = 2;
        i.axi_awburst = 1
    })
}

fn ar(addr: u64, len: u64, ready: u64) -> HarnessIn {
    cyc(|i| {
        i.axi_arvalid = 1;
        i.axi_arready = ready;
        i.axi_araddr = addr;
        i.axi_arlen = len;
        i.axi_arsize = 2;
        i.axi_arburst = 1
    })
}

fn wbeat(last: u64) -> HarnessIn {
    cyc(|i| {
        i.axi_wvalid = 1;
        i.axi_wready = 1;
        i.axi_wlast = last;
        i.axi_wstrb = 0xf
    })
}

#[test]
#[cfg_attr(
    not(sb2sb_assert),
    ignore = "needs an assertion build: make assert-test"
)]
fn axi_valid_held_and_stable_fire_per_channel() {
    fires("AXI_AW_VALID_HELD", 2, &[aw(0x100, 0, 0), idle()]);
    fires("AXI_AW_STABLE", 2, &[aw(0x100, 0, 0), aw(0x100, 1, 0)]);
    fires("AXI_AR_VALID_HELD", 2, &[ar(0x100, 0, 0), idle()]);
    fires("AXI_AR_STABLE", 2, &[ar(0x100, 0, 0), ar(0x104, 0, 0)]);
    let w_stall = cyc(|i| {
        i.axi_wvalid = 1;
        i.axi_wlast = 1;
        i.axi_wdata = 5
    });
    fires("AXI_W_VALID_HELD", 2, &[w_stall, idle()]);
    fires(
        "AXI_W_STABLE",
        2,
        &[
            w_stall,
            cyc(|i| {
                i.axi_wvalid = 1;
                i.axi_wlast = 1;
                i.axi_wdata = 6
            }),
        ],
    );
    // B after a one-beat write; R after a one-beat read.
    let b = cyc(|i| i.axi_bvalid = 1);
    let wr = [aw(0, 0, 1), wbeat(1)];
    fires("AXI_B_VALID_HELD", 4, &[wr[0], wr[1], b, idle()]);
    fires(
        "AXI_B_STABLE",
        4,
        &[
            wr[0],
            wr[1],
            b,
            cyc(|i| {
                i.axi_bvalid = 1;
                i.axi_bresp = 2
            }),
        ],
    );
    let r = cyc(|i| {
        i.axi_rvalid = 1;
        i.axi_rlast = 1;
        i.axi_rdata = 9
    });
    fires("AXI_R_VALID_HELD", 3, &[ar(0, 0, 1), r, idle()]);
    fires(
        "AXI_R_STABLE",
        3,
        &[
            ar(0, 0, 1),
            r,
            cyc(|i| {
                i.axi_rvalid = 1;
                i.axi_rlast = 1;
                i.axi_rdata = 10
            }),
        ],
    );
}

#[test]
#[cfg_attr(
    not(sb2sb_assert),
    ignore = "needs an assertion build: make assert-test"
)]
fn axi_4k_wlast_rlast_and_responses() {
    // 2 beats of 4 bytes from 0xFFC end at 0x1004: crosses the 4 KiB boundary.
    fires("AXI_AW_4K", 1, &[aw(0xFFC, 1, 1)]);
    fires("AXI_AR_4K", 1, &[ar(0x1FFC, 1, 1)]);
    quiet(&[aw(0xFF8, 1, 1), ar(0x1FF8, 1, 1)]);
    // An unaligned start counts from its aligned address (the first beat is
    // partial): one 8-byte beat at 0xFFC ends at 0x1000 (legal), two cross.
    let aw8 = |len| {
        cyc(|i| {
            i.axi_awvalid = 1;
            i.axi_awready = 1;
            i.axi_awaddr = 0xFFC;
            i.axi_awlen = len;
            i.axi_awsize = 3;
            i.axi_awburst = 1
        })
    };
    quiet(&[aw8(0), idle()]);
    fires("AXI_AW_4K", 1, &[aw8(1)]);
    // AWLEN 1 (two beats) but WLAST on the first beat: reported once both are
    // paired (two edges after the W beat of cycle 2).
    fires("AXI_WLAST", 4, &[aw(0x0, 1, 1), wbeat(1), idle(), idle()]);
    quiet(&[aw(0x0, 1, 1), wbeat(0), wbeat(1), idle(), idle()]);
    // W ahead of its AW is legal and still checked.
    quiet(&[wbeat(0), wbeat(1), aw(0x0, 1, 1), idle(), idle()]);
    fires("AXI_WLAST", 4, &[wbeat(1), aw(0x0, 1, 1), idle(), idle()]);
    // RLAST on beat 0 of a two-beat read.
    let rbeat = |last| {
        cyc(|i| {
            i.axi_rvalid = 1;
            i.axi_rready = 1;
            i.axi_rlast = last
        })
    };
    fires("AXI_RLAST", 2, &[ar(0, 1, 1), rbeat(1)]);
    quiet(&[ar(0, 1, 1), rbeat(0), rbeat(1)]);
    fires("AXI_B_NO_REQ", 1, &[cyc(|i| i.axi_bvalid = 1)]);
    // AW accepted but its data not yet: still no response allowed.
    fires("AXI_B_NO_REQ", 2, &[aw(0, 0, 1), cyc(|i| i.axi_bvalid = 1)]);
    fires("AXI_R_NO_REQ", 1, &[cyc(|i| i.axi_rvalid = 1)]);
    // The harness checker tracks 4 bursts: a fifth outstanding read trips it.
    let a = ar(0, 0, 1);
    fires("AXI_OUTSTANDING", 5, &[a, a, a, a, idle()]);
    quiet(&[a, a, a, idle()]);
}

// ---- the two-semaphore ordering at an in-lane (sb2sb_sem_order_chk) -------

/// The in-lane port: AW at core offset `off` and its one W beat (WLAST)
/// accepted in the same cycle.
fn so_write(off: u64) -> HarnessIn {
    cyc(|i| {
        i.so_lin_awaddr = off;
        i.so_lin_awvalid = 1;
        i.so_lin_awready = 1;
        i.so_lin_wvalid = 1;
        i.so_lin_wready = 1;
        i.so_lin_wlast = 1
    })
}

/// The in-lane's B (response `resp`) taken; `sram`: memory 1 answers its B
/// in the same cycle.
fn so_b(resp: u64, sram: bool) -> HarnessIn {
    cyc(|i| {
        i.so_lin_bvalid = 1;
        i.so_lin_bready = 1;
        i.so_lin_bresp = resp;
        i.so_mem_bvalid = u64::from(sram) << 1;
        i.so_mem_bready = u64::from(sram) << 1
    })
}

#[test]
#[cfg_attr(
    not(sb2sb_assert),
    ignore = "needs an assertion build: make assert-test"
)]
fn an_increment_ahead_of_its_lanes_sbuf_b_fires_at_the_in_lane() {
    // SBUF partition 3 at 0x100000 (data), the SEM_INCR window's first word
    // (an increment); offsets are the core-relative ones of system::map.
    let data = 3 * 0x20_0000 + 0x10_0000;
    let sem = sb2sb_model::system::map::CORE_EVT_INCR_BASE;
    // the increment's beat while the data burst's B is still owed
    fires(
        "SEM_AFTER_DATA_B",
        3,
        &[idle(), so_write(data), so_write(sem)],
    );
    // the data burst's B with the SRAM's B first: quiet, and the increment's
    // own B after it
    quiet(&[
        idle(),
        so_write(data),
        so_b(0, true),
        so_write(sem),
        so_b(0, false),
    ]);
    // an OKAY B of the data burst with no SRAM B in that cycle
    fires(
        "IN_B_AFTER_SRAM_B",
        3,
        &[idle(), so_write(data), so_b(0, false)],
    );
    // an error B (the lane's own SLVERR) needs no SRAM B; an earlier
    // increment's B pending does not hold a later increment back
    quiet(&[
        idle(),
        so_write(data),
        so_b(2, false),
        so_write(sem),
        so_write(sem),
    ]);
}

// ---- the UDMA S2M's completion ordering (udma_wr_order_chk) ---------------

/// One cycle of the S2M side: `f` sets its lines; S2M's write-busy view is
/// high unless `f` lowers it.
fn wo(f: impl Fn(&mut HarnessIn)) -> HarnessIn {
    cyc(|i| {
        i.wo_wr_busy = 1;
        f(i)
    })
}

/// A data burst's AW taken (the sender issuing it).
fn wo_aw() -> HarnessIn {
    wo(|i| {
        i.wo_sending = 1;
        i.wo_awvalid = 1;
        i.wo_awready = 1
    })
}

/// A B taken, with `f`'s other lines.
fn wo_b(f: impl Fn(&mut HarnessIn)) -> HarnessIn {
    wo(|i| {
        i.wo_bvalid = 1;
        i.wo_bready = 1;
        f(i)
    })
}

#[test]
#[cfg_attr(
    not(sb2sb_assert),
    ignore = "needs an assertion build: make assert-test"
)]
fn s2m_completion_waits_for_its_data_bs_and_one_descriptor_is_owed_at_a_time() {
    let end = wo(|i| i.wo_end = 1);
    let adv = wo(|i| i.wo_head_adv = 1);
    // a burst issued, the descriptor's data ended, the head advanced before its B
    fires("WR_DONE_AFTER_DATA_B", 4, &[idle(), wo_aw(), end, adv]);
    // a head advance with no descriptor ended
    fires("WR_DONE_AFTER_DATA_B", 2, &[idle(), adv]);
    // the advance in the cycle of the last B, then nothing owed: quiet
    quiet(&[idle(), wo_aw(), end, wo_b(|i| i.wo_head_adv = 1), idle()]);
    // the next descriptor issues a burst while the ended one is owed its B:
    // the owed one still completes at its own B
    quiet(&[
        idle(),
        wo_aw(),
        end,
        wo_aw(),
        wo_b(|i| i.wo_head_adv = 1),
        wo_b(|_| ()),
        idle(),
    ]);
    // a second descriptor's data ends while the first is owed
    fires("WR_ONE_OWED", 3, &[idle(), end, end]);
    // ... unless the first completes or fails in that cycle
    quiet(&[
        idle(),
        end,
        wo(|i| {
            i.wo_end = 1;
            i.wo_head_adv = 1
        }),
    ]);
    quiet(&[
        idle(),
        end,
        wo(|i| {
            i.wo_end = 1;
            i.wo_fail = 1
        }),
    ]);
}

#[test]
#[cfg_attr(
    not(sb2sb_assert),
    ignore = "needs an assertion build: make assert-test"
)]
fn s2m_write_busy_covers_every_outstanding_b_and_the_completion_write_waits() {
    // write-busy low while a burst is issued, or while its B is owed (the
    // semaphore descriptor's DMB would not wait for it)
    fires(
        "WR_BUSY_COVERS_B",
        2,
        &[
            idle(),
            wo(|i| {
                i.wo_sending = 1;
                i.wo_awvalid = 1;
                i.wo_awready = 1;
                i.wo_wr_busy = 0
            }),
        ],
    );
    fires(
        "WR_BUSY_COVERS_B",
        3,
        &[idle(), wo_aw(), wo(|i| i.wo_wr_busy = 0)],
    );
    // write-busy low once the B has returned: quiet
    quiet(&[idle(), wo_aw(), wo_b(|_| ()), wo(|i| i.wo_wr_busy = 0)]);
    // a completion AW (no data burst being sent) while a data B is owed
    let comp_aw = wo(|i| i.wo_awvalid = 1);
    fires("WR_COMP_AFTER_DATA_B", 3, &[idle(), wo_aw(), comp_aw]);
    quiet(&[idle(), wo_aw(), wo_b(|_| ()), comp_aw]);
    // more bursts waiting for B than MaxWrOutstanding (8)
    fires("WR_B_OUTSTANDING", 2, &[idle(), wo(|i| i.wo_bcnt = 9)]);
    quiet(&[idle(), wo(|i| i.wo_bcnt = 8)]);
}

// ---- the pair's interconnect (sb2sb_xbar_chk, NumEngines 1) ---------------

/// Write port `k` of the xbar: AW (AWLEN `len`) and one W beat (WLAST
/// `last`) accepted in the same cycle.
fn xb_write(k: usize, len: u64, last: bool) -> HarnessIn {
    cyc(|i| {
        i.xb_wm_awvalid = 1 << k;
        i.xb_wm_awready = 1 << k;
        i.xb_wm_awlen = len << (8 * k);
        i.xb_wm_wvalid = 1 << k;
        i.xb_wm_wready = 1 << k;
        i.xb_wm_wlast = u64::from(last) << k;
        i.xb_wm_wstrb = 0xFF << (8 * k)
    })
}

/// B of write port `k` offered and not taken, with the response codes
/// `resp` of both write ports (2 bits each).
fn xb_b_stalled(k: usize, resp: u64) -> HarnessIn {
    cyc(|i| {
        i.xb_wm_bvalid = 1 << k;
        i.xb_wm_bresp = resp
    })
}

/// The in-lane port: AW and one W beat (WLAST) accepted in the same cycle.
fn xb_lin_write() -> HarnessIn {
    cyc(|i| {
        i.xb_lin_awvalid = 1;
        i.xb_lin_awready = 1;
        i.xb_lin_wvalid = 1;
        i.xb_lin_wready = 1;
        i.xb_lin_wlast = 1;
        i.xb_lin_wstrb = 0xFF
    })
}

/// The in-lane's B offered and not taken, with response `resp`.
fn xb_lin_b_stalled(resp: u64) -> HarnessIn {
    cyc(|i| {
        i.xb_lin_bvalid = 1;
        i.xb_lin_bresp = resp
    })
}

fn fires_in(name: &str, at: usize, scope: &str, cycles: &[HarnessIn]) {
    let f = first_failure_in(cycles);
    assert!(
        matches!(&f, Some((c, n, s)) if *c == at && n == name && s.contains(scope)),
        "expected {name} at cycle {at} in a scope containing {scope}, got {f:?}"
    );
}

#[test]
#[cfg_attr(
    not(sb2sb_assert),
    ignore = "needs an assertion build: make assert-test"
)]
fn xbar_checkers_watch_each_port_with_its_own_response() {
    // The in-lane (the incoming link lane) answers with its own lin_bresp: a
    // change of it under a stalled B fires there; a change of a write
    // lane's response does not concern it.
    fires_in(
        "AXI_B_STABLE",
        3,
        "u_xbar.gen_lin",
        &[xb_lin_write(), xb_lin_b_stalled(0), xb_lin_b_stalled(2)],
    );
    quiet(&[
        xb_lin_write(),
        xb_lin_b_stalled(0),
        cyc(|i| {
            i.xb_lin_bvalid = 1;
            i.xb_wm_bresp = 2
        }),
        cyc(|i| {
            i.xb_lin_bvalid = 1;
            i.xb_lin_bready = 1
        }),
    ]);
    // Each write lane answers with its own 2 bits of wm_bresp: the engine's
    // port (0) fires on a change of bits [1:0] under its stalled B, not on
    // a change of the Q7 port's bits [3:2].
    fires_in(
        "AXI_B_STABLE",
        3,
        "u_xbar.gen_wm",
        &[xb_write(0, 0, true), xb_b_stalled(0, 0), xb_b_stalled(0, 2)],
    );
    quiet(&[
        xb_write(0, 0, true),
        xb_b_stalled(0, 0),
        xb_b_stalled(0, 2 << 2),
        cyc(|i| {
            i.xb_wm_bvalid = 1;
            i.xb_wm_bready = 1
        }),
    ]);
    // Per-port AWLEN lanes: the Q7 port (1) with AWLEN 1 and WLAST on beat 0.
    fires_in(
        "AXI_WLAST",
        3,
        "u_xbar.gen_wm",
        &[xb_write(1, 1, true), idle(), idle()],
    );
    quiet(&[xb_write(1, 0, true), idle(), idle()]);
    // A response without a request on the engine's read port.
    fires_in(
        "AXI_R_NO_REQ",
        1,
        "u_xbar.gen_rm",
        &[cyc(|i| i.xb_rm_rvalid = 1)],
    );
    // The link master withdraws an AW that was not accepted.
    fires_in(
        "AXI_AW_VALID_HELD",
        2,
        "u_xbar.gen_link",
        &[cyc(|i| i.xb_link_awvalid = 1), idle()],
    );
    // B from the link for a burst whose data has not been sent.
    fires_in(
        "AXI_B_NO_REQ",
        2,
        "u_xbar.gen_link",
        &[
            cyc(|i| {
                i.xb_link_awvalid = 1;
                i.xb_link_awready = 1
            }),
            cyc(|i| i.xb_link_bvalid = 1),
        ],
    );
}

// ---- AXI4-Stream ----------------------------------------------------------

fn beat(keep: u64, last: u64, id: u64, ready: u64) -> HarnessIn {
    cyc(|i| {
        i.axis_tvalid = 1;
        i.axis_tready = ready;
        i.axis_tkeep = keep;
        i.axis_tlast = last;
        i.axis_tid = id;
        i.axis_tdata = 0x1234
    })
}

#[test]
#[cfg_attr(
    not(sb2sb_assert),
    ignore = "needs an assertion build: make assert-test"
)]
fn axis_rules_fire() {
    fires("AXIS_VALID_HELD", 2, &[beat(0xf, 0, 1, 0), idle()]);
    fires("AXIS_STABLE", 2, &[beat(0xf, 0, 1, 0), beat(0xf, 1, 1, 0)]);
    fires("AXIS_TKEEP_PACKED", 1, &[beat(0x5, 1, 1, 1)]);
    fires("AXIS_TKEEP_PACKED", 1, &[beat(0x0, 1, 1, 1)]);
    // An error close (TLAST + TUSER) may carry no byte.
    let mut close = beat(0x0, 1, 1, 1);
    close.axis_tuser = 1;
    quiet(&[close]);
    quiet(&[beat(0xf, 0, 1, 1), beat(0x3, 1, 1, 1), beat(0x1, 1, 2, 1)]);
    fires(
        "AXIS_TID_PACKET",
        2,
        &[beat(0xf, 0, 1, 1), beat(0xf, 1, 2, 1)],
    );
}

// ---- Block invariants -----------------------------------------------------

/// EVT_SEM harness: 4 semaphores, 2 increment ports, 1 wait port.
fn es(sem: [u32; 4], inc: &[(usize, u8, u32)]) -> HarnessIn {
    cyc(|i| {
        i.es_sem = [
            u64::from(sem[0]) | u64::from(sem[1]) << 32,
            u64::from(sem[2]) | u64::from(sem[3]) << 32,
        ];
        for &(p, idx, v) in inc {
            i.es_inc_valid |= 1 << p;
            i.es_inc_idx |= u64::from(idx) << (8 * p);
            i.es_inc_value |= u64::from(v) << (32 * p);
        }
    })
}

#[test]
#[cfg_attr(
    not(sb2sb_assert),
    ignore = "needs an assertion build: make assert-test"
)]
fn evt_sem_every_accepted_increment_is_counted() {
    // Two same-cycle increments of semaphore 0 (10 + 5 + 7 = 22).
    let two = es([10, 0, 0, 0], &[(0, 0, 5), (1, 0, 7)]);
    quiet(&[two, es([22, 0, 0, 0], &[])]);
    fires("EVT_SEM_INC_COUNTED", 2, &[two, es([17, 0, 0, 0], &[])]);
    // Saturation at the signed maximum is counted as saturation.
    let big = es([0x7fff_ff00, 0, 0, 0], &[(0, 0, 0x1000)]);
    quiet(&[big, es([0x7fff_ffff, 0, 0, 0], &[])]);
    fires(
        "EVT_SEM_INC_COUNTED",
        2,
        &[big, es([0x8000_0f00, 0, 0, 0], &[])],
    );
    // A same-cycle AXI write to the semaphore takes it out of the check.
    let mut w = es([10, 0, 0, 0], &[(0, 0, 5)]);
    w.es_wr_v = 1;
    w.es_wr_idx = 0;
    quiet(&[w, es([3, 0, 0, 0], &[])]);
}

fn ring(head_off: u32, tail_off: u32, head_id0: u64, adv: bool) -> HarnessIn {
    cyc(|i| {
        i.ur_head_off = [u64::from(head_off), 0];
        i.ur_tail_off = [u64::from(tail_off), 0];
        i.ur_head_id = (0x55 & !0x3) | head_id0;
        i.ur_head_adv = u64::from(adv);
    })
}

#[test]
#[cfg_attr(
    not(sb2sb_assert),
    ignore = "needs an assertion build: make assert-test"
)]
fn udma_head_never_passes_tail_and_ring_ids_advance_1_2_3_0() {
    // Side 0 queue 0 advances its head while the ring is empty.
    fires("UDMA_HEAD_NOT_PAST_TAIL", 1, &[ring(5, 5, 1, true)]);
    quiet(&[ring(5, 6, 1, true), ring(6, 6, 1, false)]);
    // 1 -> 2 -> 3 -> 0 -> 1, then back to the initial id with the pointer at 0.
    quiet(&[
        ring(0, 1, 1, false),
        ring(0, 1, 2, false),
        ring(0, 1, 3, false),
        ring(0, 1, 0, false),
        ring(0, 1, 1, false),
        ring(7, 9, 2, false),
        ring(0, 1, 1, false),
    ]);
    fires(
        "UDMA_RING_ID_SEQ",
        3,
        &[
            ring(0, 1, 1, false),
            ring(0, 1, 2, false),
            ring(3, 4, 0, false),
        ],
    );
    fires(
        "UDMA_RING_ID_SEQ",
        2,
        &[ring(4, 5, 1, false), ring(4, 5, 3, false)],
    );
}

/// Every registered block's RTL top has a bind file, except the decoder
/// (no bus port); a new block (e.g. `leg`) fails here until it gets one.
#[test]
#[cfg_attr(
    not(sb2sb_assert),
    ignore = "needs an assertion build: make assert-test"
)]
fn every_bus_block_is_bound() {
    for b in sb2sb_model::blocks::BLOCKS {
        let bind = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("rtl/assert")
            .join(format!("{}_bind.sv", b.top));
        assert!(
            bind.exists() || b.top == "cayman_addr_decode",
            "block {} (top {}) has no rtl/assert/{}_bind.sv",
            b.name,
            b.top,
            b.top
        );
    }
}

/// EVT_SEM's environment with one protocol violation of its AXI-Lite master:
/// from cycle `from` on, the first AW that was offered and not accepted is
/// withdrawn. Golden model and RTL see the same inputs (no mismatch), so
/// only the bound checker can see it.
#[derive(Clone)]
struct DropAw {
    inner: sb2sb_model::evt_sem::EvtSemStim,
    from: u64,
    last_aw: bool,
    dropped: Option<u64>,
}

impl sb2sb_model::ports::Stimulus for DropAw {
    type In = sb2sb_model::evt_sem::EvtSemIn;
    type Out = sb2sb_model::evt_sem::EvtSemOut;
    const TWIN: bool = <sb2sb_model::evt_sem::EvtSemStim as sb2sb_model::ports::Stimulus>::TWIN;
    fn new(seed: u64, cycles: u64) -> Self {
        Self {
            inner: sb2sb_model::ports::Stimulus::new(seed, cycles),
            from: 2000,
            last_aw: false,
            dropped: None,
        }
    }
    fn next(&mut self, cycle: u64, prev: Option<&Self::Out>) -> Self::In {
        let mut i = self.inner.next(cycle, prev);
        let stalled = self.last_aw && prev.is_some_and(|o| o.s_axil_awready == 0);
        if cycle >= self.from && self.dropped.is_none() && stalled && i.s_axil_awvalid == 1 {
            i.s_axil_awvalid = 0;
            self.dropped = Some(cycle);
        }
        self.last_aw = i.s_axil_awvalid == 1;
        i
    }
    fn coverage(&self) -> Vec<(String, u64)> {
        self.inner.coverage()
    }
}

#[test]
#[cfg_attr(
    not(sb2sb_assert),
    ignore = "needs an assertion build: make assert-test"
)]
fn a_failed_assertion_stops_the_lockstep_with_a_mismatch_style_report() {
    use sb2sb::lockstep::{self, MismatchKind, Options};
    use sb2sb_model::ports::Stimulus;
    let _g = common::lock();
    for threads in [1usize, 2] {
        let stim = DropAw::new(3, 50_000);
        let mut probe = stim.clone();
        let opts = Options {
            seed: 3,
            cycles: 50_000,
            threads,
            ..Options::default()
        };
        let r = lockstep::run(
            sb2sb_model::evt_sem::EvtSem::new(),
            stim,
            &sb2sb_model::evt_sem::BLOCK,
            &opts,
        )
        .unwrap();
        let m = r.first_mismatch.expect("the dropped AWVALID is caught");
        // The cycle the environment dropped AWVALID, found by replaying it
        // against the golden model alone.
        let mut g = sb2sb_model::evt_sem::EvtSem::new();
        let mut prev = None;
        let mut c = 0;
        while probe.dropped.is_none() {
            let i = probe.next(c, prev.as_ref());
            prev = Some(sb2sb_model::ports::CycleModel::step(&mut g, &i));
            c += 1;
        }
        assert_eq!(m.kind, MismatchKind::Assertion);
        assert_eq!(m.assertion.as_deref(), Some("AXIL_AW_VALID_HELD"));
        assert_eq!(m.cycle, probe.dropped.unwrap());
        assert!(
            m.detail.contains("TOP.evt_sem.u_s_axil_chk"),
            "{}",
            m.detail
        );
        assert_eq!(r.cycles_run, m.cycle + 1);
        let text = m.render();
        assert!(
            text.contains("interface assertion failed at cycle"),
            "{text}"
        );
        assert!(text.contains("assertion AXIL_AW_VALID_HELD"), "{text}");
        assert!(
            text.contains("sb2sb cosim --block evt_sem --seed 3"),
            "{text}"
        );
        assert_eq!(m.history.len(), 32);
    }
}
