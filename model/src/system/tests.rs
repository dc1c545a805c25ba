//! Scenario tests of the system model (both execution modes).

use super::*;
use crate::isa::Role;
use rstest::{fixture, rstest};

/// A system of the default topology (one package, 2 dies × 4 cores).
#[fixture]
fn sys() -> System {
    System::new(Topology::default()).unwrap()
}

fn fill(sys: &mut System, c: CoreId, off: u64, bytes: u32, parts: u8, seed: u8) {
    for p in 0..parts {
        let v: Vec<u8> = (0..bytes)
            .map(|i| (i as u8).wrapping_mul(7).wrapping_add(p).wrapping_add(seed))
            .collect();
        sys.write_sbuf(c, p, off, &v).unwrap();
    }
}

fn verify(sys: &System, src: CoreId, so: u64, dst: CoreId, d_o: u64, bytes: u32, parts: u8) {
    for p in 0..parts {
        let a = sys.st.read_sbuf(src, p, so, bytes as usize).unwrap();
        let b = sys.st.read_sbuf(dst, p, d_o, bytes as usize).unwrap();
        assert_eq!(a, b, "partition {p}");
    }
}

/// Seed 001 §8 topology with partitions large enough for offset 0x100000.
fn seed_topo() -> Topology {
    Topology {
        sbuf_bytes_per_partition: 2 << 20,
        ..Topology::trn2(1)
    }
}

/// Seed 001 §8: 128 partitions × 16 KiB from 0x100000 to the peer's 0x100000,
/// engines 0x000F, local_sem 12, remote_sem 20, cross-die neighbor route.
#[test]
fn seed001_s8_worked_example_leg_moves_bytes_and_raises_both_semaphores_by_4() {
    let mut sys = System::new(seed_topo()).unwrap();
    let (a, b) = (CoreId(1), CoreId(7));
    fill(&mut sys, a, 0x10_0000, 0x4000, 128, 3);
    let leg = SystemLeg {
        engine_mask: 0x000F,
        ..SystemLeg::new(a, 0x10_0000, b, 0x10_0000, 0x4000, 128)
    };
    let rep = sys.send_recv(&leg, Mode::Fast).unwrap();
    assert_eq!(rep.dst_soc, 0x58800000100000);
    assert_eq!(rep.fold, FoldMode::Neighbor);
    assert_eq!(rep.link, LinkClass::D2d);
    assert_eq!(rep.per_engine, vec![(0, 34), (1, 34), (2, 34), (3, 34)]);
    verify(&sys, a, 0x10_0000, b, 0x10_0000, 0x4000, 128);
    assert_eq!(sys.st.sem(a, 12).unwrap(), 4);
    assert_eq!(sys.st.sem(b, 20).unwrap(), 4);
    assert_eq!(
        sys.st.sem(a, DEFAULT_GO_SEM).unwrap(),
        0,
        "left_pop consumed the right_push"
    );
    assert!(rep.modeled_ps > 0);
    // Next step: wait >= 4 and decrement.
    sys.wait_sem(b, 20, 4, Mode::Fast).unwrap();
    assert_eq!(sys.st.sem(b, 20).unwrap(), 0);
}

#[test]
fn same_die_and_cross_chip_legs_verify() {
    let topo = Topology {
        chip_ids: vec![0, 0x12],
        ..Topology::trn2(2)
    };
    let mut sys = System::new(topo).unwrap();
    let (a, same, far) = (CoreId(0), CoreId(2), CoreId(13));
    fill(&mut sys, a, 0, 4096, 16, 1);
    let r1 = sys
        .send_recv(&SystemLeg::new(a, 0, same, 512, 4096, 16), Mode::Fast)
        .unwrap();
    assert_eq!(r1.fold, FoldMode::Local);
    verify(&sys, a, 0, same, 512, 4096, 16);
    let r2 = sys
        .send_recv(&SystemLeg::new(a, 0, far, 0, 4096, 16), Mode::Fast)
        .unwrap();
    assert_eq!(r2.fold, FoldMode::ChipId);
    assert_eq!(r2.link, LinkClass::C2c);
    assert_eq!(r2.dst_soc >> 48 & 0x3F, 0x12);
    verify(&sys, a, 0, far, 0, 4096, 16);
    assert!(r2.modeled_ps > r1.modeled_ps, "c2c slower than on-die");
    assert_eq!(sys.st.sem(a, 12).unwrap(), 8);
}

/// A digest of everything the equivalence test compares.
fn state(sys: &System) -> (Vec<Vec<u8>>, Vec<Vec<i32>>, Vec<QueueState>) {
    let n = sys.st.topology().num_cores() as u16;
    let images = (0..n)
        .map(|c| sys.st.sbuf(CoreId(c)).unwrap().image())
        .collect();
    let sems = (0..n)
        .map(|c| {
            (0..=255u8)
                .map(|s| sys.st.sem(CoreId(c), s).unwrap())
                .collect()
        })
        .collect();
    let mut qs = Vec::new();
    for c in 0..n {
        for e in 0..16 {
            for q in 0..16 {
                for side in 0..2 {
                    qs.push(sys.st.queue(CoreId(c), e, q, side).unwrap());
                }
            }
        }
    }
    (images, sems, qs)
}

#[test]
fn cycle_and_fast_modes_give_identical_sbuf_semaphores_and_queue_pointers() {
    let topo = Topology {
        sbuf_bytes_per_partition: 96 * 1024,
        chip_ids: vec![0, 5],
        ..Topology::trn2(2)
    };
    let legs = [
        SystemLeg {
            engine_mask: 0x000F,
            ..SystemLeg::new(CoreId(1), 0x100, CoreId(7), 0x40, 3000, 9)
        },
        SystemLeg {
            engine_mask: 0x0101,
            queue: 3,
            ..SystemLeg::new(CoreId(2), 0, CoreId(3), 70_000, 20_000, 5)
        },
        SystemLeg {
            engine_mask: 0x8000,
            ..SystemLeg::new(CoreId(0), 0, CoreId(12), 8, 70_000, 2)
        },
        // Same queue again: the rings continue (ring ids advance).
        SystemLeg {
            engine_mask: 0x000F,
            ..SystemLeg::new(CoreId(7), 0x40, CoreId(1), 0x8000, 3000, 9)
        },
    ];
    let mut out = Vec::new();
    for mode in [Mode::Fast, Mode::Cycle] {
        let mut sys = System::new(topo.clone()).unwrap();
        for c in [0u16, 1, 2] {
            fill(&mut sys, CoreId(c), 0, 96 * 1024, 16, c as u8);
        }
        for l in &legs {
            sys.send_recv(l, mode).unwrap();
        }
        assert!(mode == Mode::Fast || sys.cycle.cycles > 0);
        out.push(state(&sys));
    }
    let (f, c) = (&out[0], &out[1]);
    assert!(f.0 == c.0, "SBUF images differ");
    assert_eq!(f.1, c.1, "semaphores differ");
    assert_eq!(f.2, c.2, "queue pointers differ");
    assert_eq!(f.1[1][12], 4, "local_sem of core 1");
    assert_eq!(f.1[1][20], 4, "remote_sem of core 1 (last leg)");
}

#[rstest]
fn tx_without_rx_is_a_deadlock_naming_core_semaphore_and_target(mut sys: System) {
    let leg = SystemLeg::new(CoreId(0), 0, CoreId(4), 0, 256, 4);
    let (wtx, _) = sys.st.leg_gen_words(&leg).unwrap();
    let g = sys
        .st
        .rdma_desc_gen(leg.src, prid(leg.src, Role::Tx), &wtx)
        .unwrap();
    sys.st
        .rdma_desc_start(
            leg.src,
            prid(leg.src, Role::Tx),
            &System::leg_start_word(&leg, &g),
        )
        .unwrap();
    for mode in [Mode::Fast, Mode::Cycle] {
        let e = sys.run(mode).unwrap_err();
        assert!(
            matches!(
                e,
                SystemError::Deadlock {
                    core: 0,
                    sem: DEFAULT_GO_SEM,
                    target: 1,
                    value: 0,
                    ..
                }
            ),
            "{e}"
        );
        assert!(
            e.to_string()
                .contains("core 0 waits for semaphore 255 >= 1"),
            "{e}"
        );
    }
}

#[rstest]
fn wait_on_a_semaphore_nobody_increments_is_a_deadlock(mut sys: System) {
    for mode in [Mode::Fast, Mode::Cycle] {
        let e = sys.wait_sem(CoreId(3), 20, 4, mode).unwrap_err();
        assert!(
            matches!(
                e,
                SystemError::Deadlock {
                    core: 3,
                    sem: 20,
                    target: 4,
                    ..
                }
            ),
            "{e}"
        );
        sys.st.clear_pending();
    }
}

#[rstest]
fn seed001_s4_2_role_mismatch_with_prid_parity_is_an_error(mut sys: System) {
    let leg = SystemLeg::new(CoreId(0), 0, CoreId(4), 0, 256, 4);
    let (wtx, _) = sys.st.leg_gen_words(&leg).unwrap();
    let g = sys
        .st
        .rdma_desc_gen(leg.src, prid(leg.src, Role::Tx), &wtx)
        .unwrap();
    let w = System::leg_start_word(&leg, &g);
    let e = sys
        .st
        .rdma_desc_start(leg.src, prid(leg.src, Role::Rx), &w)
        .unwrap_err();
    assert!(
        matches!(
            e,
            SystemError::RoleMismatch {
                core: 0,
                prid: 0,
                parity: Role::Rx,
                word: Role::Tx
            }
        ),
        "{e}"
    );
}

#[rstest]
fn seed001_s5_3_descriptor_stream_count_mismatch_is_an_error(mut sys: System) {
    let leg = SystemLeg::new(CoreId(0), 0, CoreId(4), 0, 256, 4);
    let (wtx, _) = sys.st.leg_gen_words(&leg).unwrap();
    let g = sys
        .st
        .rdma_desc_gen(leg.src, prid(leg.src, Role::Tx), &wtx)
        .unwrap();
    let mut w = System::leg_start_word(&leg, &g);
    w.num_descriptors += 1;
    let e = sys
        .st
        .rdma_desc_start(leg.src, prid(leg.src, Role::Tx), &w)
        .unwrap_err();
    assert_eq!(
        e,
        SystemError::DescriptorStream {
            core: 0,
            wrote: g.total,
            expected: g.total + 1
        }
    );
    assert_eq!(
        e.to_string(),
        format!(
            "core 0: DescriptorStream wrote {} descriptors, expected {}",
            g.total,
            g.total + 1
        )
    );
}

#[test]
fn reduce_op_folds_into_the_destination_in_both_modes() {
    let add: ReduceFn = Arc::new(|d: &mut [u8], s: &[u8]| {
        for (a, b) in d.iter_mut().zip(s) {
            *a = a.wrapping_add(*b);
        }
        Ok(())
    });
    for mode in [Mode::Fast, Mode::Cycle] {
        let mut sys = System::new(Topology::default()).unwrap();
        sys.write_sbuf(CoreId(0), 0, 0, &[5u8; 1000]).unwrap();
        sys.write_sbuf(CoreId(6), 0, 0, &[1u8; 1000]).unwrap();
        let leg = SystemLeg {
            op: LegOp::Reduce(add.clone()),
            ..SystemLeg::new(CoreId(0), 0, CoreId(6), 0, 1000, 1)
        };
        sys.send_recv(&leg, mode).unwrap();
        assert_eq!(
            sys.st.read_sbuf(CoreId(6), 0, 0, 1000).unwrap(),
            vec![6u8; 1000]
        );
        assert_eq!(
            sys.st.sem(CoreId(6), 20).unwrap(),
            1,
            "semaphore write is not reduced"
        );
    }
}

#[test]
fn a_64_die_system_allocates_only_touched_memory() {
    let sys_topo = Topology::trn2(32);
    let mut sys = System::new(sys_topo).unwrap();
    assert_eq!(sys.st.allocated_bytes(), 0);
    let last = CoreId(sys.st.topology().num_cores() as u16 - 1);
    sys.write_sbuf(CoreId(0), 0, 0, &[1; 64]).unwrap();
    sys.send_recv(&SystemLeg::new(CoreId(0), 0, last, 0, 64, 1), Mode::Fast)
        .unwrap();
    assert_eq!(sys.st.read_sbuf(last, 0, 0, 64).unwrap(), vec![1; 64]);
    assert!(
        sys.st.allocated_bytes() < 2 << 20,
        "{}",
        sys.st.allocated_bytes()
    );
}

#[rstest]
fn bad_legs_are_typed_errors(mut sys: System) {
    // Offset beyond the 224 KiB partition.
    let e = sys
        .send_recv(
            &SystemLeg::new(CoreId(0), 0x10_0000, CoreId(4), 0, 16, 1),
            Mode::Fast,
        )
        .unwrap_err();
    assert!(
        matches!(
            e,
            SystemError::Leg {
                field: "src_addr",
                ..
            }
        ),
        "{e}"
    );
    let e = sys
        .send_recv(
            &SystemLeg::new(CoreId(0), 0, CoreId(0), 0, 16, 1),
            Mode::Fast,
        )
        .unwrap_err();
    assert_eq!(e, SystemError::SelfPeer { core: 0 });
    let e = sys
        .send_recv(
            &SystemLeg::new(CoreId(0), 0, CoreId(99), 0, 16, 1),
            Mode::Fast,
        )
        .unwrap_err();
    assert!(matches!(e, SystemError::NoSuchCore { core: 99, .. }), "{e}");
    let mut w = sys
        .st
        .leg_gen_words(&SystemLeg::new(CoreId(0), 0, CoreId(4), 0, 16, 1))
        .unwrap()
        .0;
    w.remote_routing_id = 3;
    let e = sys.st.rdma_desc_gen(CoreId(0), 1, &w).unwrap_err();
    assert!(
        matches!(
            e,
            SystemError::RoutingId {
                expected: 0,
                found: 3,
                ..
            }
        ),
        "{e}"
    );
}

/// A leg whose first M2S descriptor has its ring id flipped after the
/// set-up programs ran (byte 3 holds bits [31:24]); returns the error of the run.
fn run_with_a_corrupted_ring_id(sys: &mut System, mode: Mode) -> SystemError {
    let leg = SystemLeg::new(CoreId(0), 0, CoreId(4), 0, 256, 1);
    let (wtx, wrx) = sys.st.leg_gen_words(&leg).unwrap();
    let gtx = sys.st.rdma_desc_gen(CoreId(0), 1, &wtx).unwrap();
    let grx = sys.st.rdma_desc_gen(CoreId(4), 8, &wrx).unwrap();
    // The gens' set-up programs run first (their ring stores), then the fault.
    sys.run(mode).unwrap();
    // Ring (0, 0, M2S) is the first slot of descriptor RAM (docs/system.md).
    let off = 3;
    let mut b = [0u8; 1];
    sys.st.core(CoreId(0)).unwrap().desc.read(off, &mut b);
    sys.st
        .core_mut(CoreId(0))
        .unwrap()
        .desc
        .write(off, &[b[0] ^ 0x03]);
    sys.st
        .rdma_desc_start(CoreId(4), 8, &System::leg_start_word(&leg, &grx))
        .unwrap();
    sys.st
        .rdma_desc_start(CoreId(0), 1, &System::leg_start_word(&leg, &gtx))
        .unwrap();
    sys.run(mode).unwrap_err()
}

#[rstest]
fn corrupted_ring_id_is_reported_as_pref_ring_id(mut sys: System) {
    let e = run_with_a_corrupted_ring_id(&mut sys, Mode::Fast);
    assert!(
        matches!(
            e,
            SystemError::RingId {
                core: 0,
                engine: 0,
                side: 0,
                expected: 1,
                found: 2,
                ..
            }
        ),
        "{e}"
    );
}

/// A Q7 write to a core offset nothing serves (0x1001_0000: between the
/// EVT_SEM window and the UDMA engines; the engine registers of the
/// instruction stream are the lowering's, `lower::target::RegFile`, not
/// behind an address) is the same typed error in both modes: the Q7 port's
/// SLVERR naming the port's core, the issuing core and the address. The
/// same set-up program runs in each mode; nothing is written.
#[rstest]
fn a_q7_write_to_an_unmapped_core_offset_is_the_same_slverr_in_fast_and_cycle_mode() {
    let mut errs = Vec::new();
    for mode in [Mode::Fast, Mode::Cycle] {
        let mut sys = System::new(Topology::default()).unwrap();
        let to = CoreId(5);
        let loc = sys.st.topology().loc(to).unwrap();
        let soc = sys
            .st
            .topology()
            .fold(CoreId(1), to, map::core_local(loc.core, 0x1001_0000))
            .unwrap();
        sys.st.setup_seq += 1;
        let id = sys.st.setup_seq;
        sys.st.setups.push_back(legs::Q7Setup {
            id,
            core: CoreId(1),
            role: Role::Tx,
            accesses: vec![Q7Step::Csr { soc, data: 7 }],
            regs: Vec::new(),
        });
        errs.push(sys.run(mode).unwrap_err());
        // a host write to the same place is the same error
        assert_eq!(
            sys.st.mmio_write(CoreId(1), soc, 7).unwrap_err(),
            errs[0],
            "{mode:?}"
        );
    }
    assert_eq!(
        errs[0],
        SystemError::Q7Resp {
            core: 5,
            by: 1,
            addr: 0x1001_0000,
            access: "write",
            resp: 2
        }
    );
    assert_eq!(errs[1], errs[0]);
}

#[rstest]
fn host_set_sem_writes_the_golden_evt_sem(mut sys: System) {
    sys.st.set_sem(CoreId(2), 9, -5).unwrap();
    assert_eq!(sys.st.sem(CoreId(2), 9).unwrap(), -5);
}

#[test]
fn odd_lengths_odd_semaphores_and_unaligned_offsets_agree_in_both_modes() {
    let mut out = Vec::new();
    for mode in [Mode::Fast, Mode::Cycle] {
        let mut sys = System::new(Topology::default()).unwrap();
        fill(&mut sys, CoreId(2), 0, 4096, 3, 9);
        // Odd semaphores take the 8-byte pair write.
        let leg = SystemLeg {
            local_sem: 13,
            remote_sem: 7,
            ..SystemLeg::new(CoreId(2), 8, CoreId(5), 16, 1001, 3)
        };
        sys.send_recv(&leg, mode).unwrap();
        verify(&sys, CoreId(2), 8, CoreId(5), 16, 1001, 3);
        assert_eq!(sys.st.sem(CoreId(2), 13).unwrap(), 3);
        assert_eq!(sys.st.sem(CoreId(2), 12).unwrap(), 0);
        assert_eq!(sys.st.sem(CoreId(5), 7).unwrap(), 3);
        assert_eq!(sys.st.sem(CoreId(5), 6).unwrap(), 0);
        // Byte offsets of any alignment: the UDMA reads the aligned beats and
        // writes with byte strobes (docs/udma.md, unaligned buffer pointers).
        let odd = SystemLeg::new(CoreId(2), 3, CoreId(5), 2029, 1001, 3);
        sys.send_recv(&odd, mode).unwrap();
        verify(&sys, CoreId(2), 3, CoreId(5), 2029, 1001, 3);
        // The bytes around the destination are untouched (filled 0 at reset).
        for p in 0..3u8 {
            let below = sys.st.read_sbuf(CoreId(5), p, 2028, 1).unwrap();
            let after = sys.st.read_sbuf(CoreId(5), p, 2029 + 1001, 1).unwrap();
            assert_eq!((below[0], after[0]), (0, 0), "partition {p}");
        }
        out.push(state(&sys));
    }
    assert!(out[0] == out[1]);
}

#[rstest]
fn corrupted_ring_id_stops_the_golden_engine_in_cycle_mode(mut sys: System) {
    let e = run_with_a_corrupted_ring_id(&mut sys, Mode::Cycle);
    assert!(
        matches!(&e, SystemError::Dma { core: 0, engine: 0, queue: 0, rule } if rule.contains("M2S")),
        "{e}"
    );
}

#[test]
fn a_ring_step_of_concurrent_legs_overlaps_in_modeled_time() {
    // Every core of one package sends to the next one at once (a ring step).
    let n = 8u16;
    let legs: Vec<SystemLeg> = (0..n)
        .map(|c| SystemLeg::new(CoreId(c), 0, CoreId((c + 1) % n), 4096, 4096, 16))
        .collect();
    let mut one = System::new(Topology::default()).unwrap();
    let single = one.send_recv(&legs[0], Mode::Fast).unwrap().modeled_ps;
    for mode in [Mode::Fast, Mode::Cycle] {
        let mut sys = System::new(Topology::default()).unwrap();
        for c in 0..n {
            fill(&mut sys, CoreId(c), 0, 4096, 16, c as u8);
        }
        let t0 = sys.st.now_ps();
        for l in &legs {
            sys.st.issue_leg(l).unwrap();
        }
        sys.run(mode).unwrap();
        for c in 0..n {
            verify(&sys, CoreId(c), 0, CoreId((c + 1) % n), 4096, 4096, 16);
            assert_eq!(sys.st.sem(CoreId(c), 12).unwrap(), 4);
            assert_eq!(sys.st.sem(CoreId(c), 20).unwrap(), 4);
        }
        if mode == Mode::Fast {
            let t = sys.st.now_ps() - t0;
            assert!(
                t < 2 * single,
                "8 concurrent legs took {t} ps, one leg {single} ps"
            );
        }
    }
}

/// The seed 001 §8 gen word exactly as printed: {local_sem=12, remote_sem=20,
/// remote_core_id=7, remote_routing_id=0x12, dma_engine_mask=0x000F,
/// src_addr=0x100000, dst_addr=0x100000, free_dim_bytes=0x4000}.
fn seed_s8_word() -> RdmaDescGen {
    RdmaDescGen {
        local_sem: 12,
        remote_sem: 20,
        remote_core_id: 7,
        remote_routing_id: 0x12,
        dma_engine_mask: 0x000F,
        src_addr: 0x10_0000,
        dst_addr: 0x10_0000,
        free_dim_bytes: 0x4000,
        partition_count: 128,
        ..RdmaDescGen::default()
    }
}

/// Run the printed §8 TX word on core 3 (its d2d peer is core 7) with the
/// matching RX word on core 7, through rdma_desc_gen / rdma_desc_start.
fn run_seed_s8_word(mode: Mode) -> (System, GenReport) {
    let topo = Topology {
        sbuf_bytes_per_partition: 2 << 20,
        ..Topology::seed_001_s8()
    };
    let mut sys = System::new(topo).unwrap();
    let (tx, rx) = (CoreId(3), CoreId(7));
    assert_eq!(sys.st.topology().d2d_peer(tx).unwrap(), rx, "5 ^ 2 pairing");
    fill(&mut sys, tx, 0x10_0000, 0x4000, 128, 9);
    let wtx = seed_s8_word();
    let wrx = RdmaDescGen {
        remote_core_id: 3,
        remote_routing_id: sys.st.topology().routing_id_of(tx).unwrap(),
        ..wtx
    };
    let gtx = sys.st.rdma_desc_gen(tx, prid(tx, Role::Tx), &wtx).unwrap();
    let grx = sys.st.rdma_desc_gen(rx, prid(rx, Role::Rx), &wrx).unwrap();
    let leg = SystemLeg {
        engine_mask: 0x000F,
        ..SystemLeg::new(tx, 0x10_0000, rx, 0x10_0000, 0x4000, 128)
    };
    sys.st
        .rdma_desc_start(rx, prid(rx, Role::Rx), &System::leg_start_word(&leg, &grx))
        .unwrap();
    sys.st
        .rdma_desc_start(tx, prid(tx, Role::Tx), &System::leg_start_word(&leg, &gtx))
        .unwrap();
    sys.run(mode).unwrap();
    (sys, gtx)
}

#[test]
fn seed001_s8_word_as_printed_with_routing_id_0x12_runs_in_both_modes() {
    for mode in [Mode::Fast, Mode::Cycle] {
        let (sys, g) = run_seed_s8_word(mode);
        // "after remote_routing_id=$18, dst_addr=0x58800000100000"
        assert_eq!(g.routing_id, 18);
        // seed 001 §5: the remote semaphore descriptor carries the routing id.
        assert_eq!(g.sema_log.len(), 8, "two per engine");
        assert_eq!(
            g.sema_log[1],
            "P7: Q7: rdma_desc_gen [TX] Pushing remote semaphore descriptor, remote_tpb=7, routing_id=18, sem=20"
        );
        assert_eq!(
            g.sema_log[0],
            "P7: Q7: rdma_desc_gen [TX] Pushing local  semaphore descriptor, tpb_idx=3, sem=12"
        );
        assert_eq!(g.dst_soc, 0x58800000100000);
        assert_eq!(g.per_engine, vec![(0, 34), (1, 34), (2, 34), (3, 34)]);
        verify(
            &sys,
            CoreId(3),
            0x10_0000,
            CoreId(7),
            0x10_0000,
            0x4000,
            128,
        );
        assert_eq!(sys.st.sem(CoreId(3), 12).unwrap(), 4, "{mode:?}");
        assert_eq!(sys.st.sem(CoreId(7), 20).unwrap(), 4, "{mode:?}");
    }
}

#[test]
fn seed001_s2_3_chip_id_fold_writes_the_peer_routing_id_into_cayman_id() {
    // Two packages; the host map gives the peer core (package 1) routing id
    // 0x12 and another core of package 1 routing id 0x21: the fold writes the
    // routing id into [53:48] and the fabric routes both to package 1.
    let mut topo = Topology::trn2(2);
    let mut r = vec![0u32; 16];
    for x in r.iter_mut().skip(8) {
        *x = 0x12;
    }
    r[14] = 0x21;
    topo.routing_ids = r;
    topo.validate().unwrap();
    let mut sys = System::new(topo).unwrap();
    for (peer, rid) in [(CoreId(15), 0x12u64), (CoreId(14), 0x21)] {
        fill(&mut sys, CoreId(3), 0, 256, 4, 1);
        let leg = SystemLeg::new(CoreId(3), 0, peer, 0x40, 256, 4);
        let (wtx, _) = sys.st.leg_gen_words(&leg).unwrap();
        assert_eq!(u64::from(wtx.remote_routing_id), rid);
        let rep = sys.send_recv(&leg, Mode::Fast).unwrap();
        assert_eq!(rep.fold, FoldMode::ChipId);
        assert_eq!(rep.dst_soc >> 48 & 0x3F, rid, "CAYMAN_ID <- routing_id");
        assert_eq!(rep.dst_soc >> 54 & 1, 1, "CAYMAN_ID_VALID");
        if peer == CoreId(15) {
            assert_eq!(rep.dst_soc, 0x0052_8000_0000_0040);
        }
        verify(&sys, CoreId(3), 0, peer, 0x40, 256, 4);
        // The remote semaphore descriptor (last S2M BD of engine 0, written by
        // the RX Q7 into the TX core's descriptor RAM) carries the same
        // routing id in its routed address.
        let qs = sys.st.queue(CoreId(3), 0, 0, 1).unwrap();
        let slot = (qs.head.offset + qs.rl - 1) % qs.rl;
        let mut b = [0u8; 16];
        sys.st.core(CoreId(3)).unwrap().desc.read(
            (RingLayout::SYSTEM.ring_offset(0, 0, 1) - map::CORE_DESC_BASE) as u32 + slot * 16,
            &mut b,
        );
        let bd = crate::udma::desc::S2mDesc::decode(&b).unwrap();
        assert_eq!(
            bd.buf1_ptr >> 48 & 0x3F,
            rid,
            "remote sema BD routed by routing_id"
        );
        assert_eq!(
            bd.buf1_ptr & 0xFFFF_FFFF,
            map::sem_incr_offset(20) & 0xFFFF_FFFF,
            "remote_sem INCR"
        );
    }
    // A word whose routing id disagrees with the host's map is refused.
    let leg = SystemLeg::new(CoreId(3), 0, CoreId(15), 0, 256, 4);
    let (mut wtx, _) = sys.st.leg_gen_words(&leg).unwrap();
    wtx.remote_routing_id = 0x13;
    let e = sys
        .st
        .rdma_desc_gen(CoreId(3), prid(CoreId(3), Role::Tx), &wtx)
        .unwrap_err();
    assert!(
        matches!(
            e,
            SystemError::RoutingId {
                expected: 0x12,
                found: 0x13,
                ..
            }
        ),
        "{e}"
    );
    // A routing id may name only one package.
    let mut bad = Topology::trn2(2);
    bad.routing_ids = vec![0x12; 16];
    assert!(matches!(
        bad.validate(),
        Err(SystemError::Topology {
            field: "routing_ids",
            value: 0x12,
            ..
        })
    ));
}

/// Seed 001 §4.4: one write to the broadcast doorbell advances the tails of
/// every engine the mask selects. The same legs launched by broadcast triggers
/// and by per-engine doorbells move the same bytes and leave the same state,
/// in both modes.
#[test]
fn seed001_s4_4_broadcast_doorbell_moves_the_same_bytes_as_per_engine_doorbells() {
    let legs = [
        // Balanced (seed 001 §8 shape): one trigger per side.
        SystemLeg {
            engine_mask: 0x000F,
            ..SystemLeg::new(CoreId(3), 0x100, CoreId(7), 0x40, 3000, 8)
        },
        // Unbalanced: 10 partitions over 3 engines → counts 4+2, 3+2, 3+2.
        SystemLeg {
            engine_mask: 0b1010_0001,
            queue: 2,
            ..SystemLeg::new(CoreId(0), 0, CoreId(2), 0x80, 700, 10)
        },
    ];
    let mut out = Vec::new();
    for mode in [Mode::Fast, Mode::Cycle] {
        for db in [Doorbells::Broadcast, Doorbells::PerEngine] {
            let mut sys = System::new(Topology::default()).unwrap();
            sys.st.doorbells = db;
            sys.st.log_triggers = true;
            fill(&mut sys, CoreId(3), 0x100, 3000, 8, 5);
            fill(&mut sys, CoreId(0), 0, 700, 10, 6);
            for l in &legs {
                sys.send_recv(l, mode).unwrap();
            }
            verify(&sys, CoreId(3), 0x100, CoreId(7), 0x40, 3000, 8);
            verify(&sys, CoreId(0), 0, CoreId(2), 0x80, 700, 10);
            assert_eq!(sys.st.sem(CoreId(3), 12).unwrap(), 4, "{mode:?} {db:?}");
            assert_eq!(sys.st.sem(CoreId(2), 20).unwrap(), 3, "{mode:?} {db:?}");
            match db {
                Doorbells::Broadcast => {
                    // Leg 1: one S2M trigger (RX) then one M2S trigger (TX), mask 0xF, 2+2 descriptors.
                    let t = &sys.st.triggers;
                    assert_eq!(t.len(), 2 + 4, "{mode:?}: 1+1 for leg 1, 2+2 for leg 2");
                    assert_eq!((t[0].from, t[0].mask, t[0].n_desc), (7, 0xF, 4));
                    assert_eq!((t[1].from, t[1].mask, t[1].n_desc), (3, 0xF, 4));
                    assert_eq!(t[0].trigger_addr & 0xFFF, 0xC, "S2M_TAIL_INC of queue 0");
                    assert_eq!(t[1].trigger_addr & 0xFFF, 0x4, "M2S_TAIL_INC of queue 0");
                    // Leg 2: engine 0 has 6 descriptors, engines 5 and 7 have 5.
                    assert_eq!((t[2].mask, t[2].n_desc), (0x01, 6));
                    assert_eq!((t[3].mask, t[3].n_desc), (0xA0, 5));
                    assert_eq!(t[4].trigger_addr & 0xFF, 0x24, "queue 2 M2S trigger");
                    assert_eq!(
                        t[1].log(),
                        format!(
                            "Trigger DMA; sdma_bcast_base = 0x{:08x}, trigger addr = 0x{:08x}, mask = 0x0000000f n_desc=4",
                            t[1].sdma_bcast_base as u32,
                            t[1].sdma_bcast_base as u32 + 4
                        )
                    );
                }
                Doorbells::PerEngine => assert!(sys.st.triggers.is_empty()),
            }
            out.push(state(&sys));
        }
    }
    assert!(out.windows(2).all(|w| w[0] == w[1]), "all four runs agree");
}

#[rstest]
fn broadcast_trigger_is_all_or_nothing_and_checks_its_registers(mut sys: System) {
    // Rings on engines 0 and 1 of core 0, queue 0, M2S; engine 1 almost full.
    let q = crate::udma::regs::UDMA_Q_ARRAY_BASE;
    let local = |e, r| map::core_local(0, map::udma_offset(e, q + r));
    for e in [0u8, 1] {
        sys.st
            .mmio_write(CoreId(0), local(e, crate::udma::regs::UDMA_Q_RL), 8)
            .unwrap();
    }
    sys.st
        .mmio_write(CoreId(0), local(1, crate::udma::regs::UDMA_Q_RTP_INC), 6)
        .unwrap();
    let b = sys.st.dma_apb_bcast(CoreId(0), CoreId(0), 0, 0b11).unwrap();
    sys.st
        .mmio_write(CoreId(0), b.m2s_tail_ptr - 4, b.mask)
        .unwrap();
    // 2 > free space of engine 1 (8 − 1 − 6 = 1): refused, engine 0 untouched.
    let e = sys.st.mmio_write(CoreId(0), b.m2s_tail_ptr, 2).unwrap_err();
    assert!(
        matches!(
            e,
            SystemError::Csr {
                core: 0,
                engine: 1,
                ..
            }
        ),
        "{e}"
    );
    assert_eq!(sys.st.queue(CoreId(0), 0, 0, 0).unwrap().tail.offset, 0);
    sys.st.mmio_write(CoreId(0), b.m2s_tail_ptr, 1).unwrap();
    assert_eq!(sys.st.queue(CoreId(0), 0, 0, 0).unwrap().tail.offset, 1);
    assert_eq!(sys.st.queue(CoreId(0), 1, 0, 0).unwrap().tail.offset, 7);
    // The S2M trigger has its own (empty) mask; a mask beyond 16 engines is refused.
    assert!(sys.st.mmio_write(CoreId(0), b.s2m_tail_ptr, 1).is_err());
    assert!(sys
        .st
        .mmio_write(CoreId(0), b.s2m_tail_ptr - 4, 1 << 16)
        .is_err());
}

/// Seed 001 §5.3 / PUBLIC-FACTS §1: completion descriptors carry the 2-bit
/// generation tag; the TX Q7 polls them and takes a slot as done only when the
/// tag equals the expected generation (+1 mod 4 per wrap). A 16-slot ring
/// wraps 4.5 times; fast and cycle mode write the same completion bytes.
#[test]
fn seed001_s5_3_generation_tag_poll_over_a_wrapping_completion_ring() {
    let mut rings = Vec::new();
    for mode in [Mode::Fast, Mode::Cycle] {
        let mut sys = System::new(Topology::default()).unwrap();
        sys.st.ring_len = 16;
        let leg = SystemLeg {
            engine_mask: 0x0004,
            ..SystemLeg::new(CoreId(0), 0, CoreId(4), 0x100, 64, 4)
        };
        for k in 0..12u8 {
            fill(&mut sys, CoreId(0), 0, 64, 4, k);
            sys.send_recv(&leg, mode).unwrap();
            verify(&sys, CoreId(0), 0, CoreId(4), 0x100, 64, 4);
        }
        // 12 legs × (4 data + 2 semaphore) = 72 completions = 4 laps + 8.
        let p = sys.st.core(CoreId(0)).unwrap().comp_poll[2][0];
        assert_eq!((p.seen, p.want), (72, 72), "{mode:?}");
        assert_eq!(p.pos.offset, 8);
        assert_eq!(p.pos.ring_id, (1 + 4) & 3, "initial 1, +1 mod 4 per wrap");
        let qs = sys.st.queue(CoreId(0), 2, 0, 1).unwrap();
        assert_eq!(qs.crhp, p.pos, "{mode:?}: the engine's completion head");
        // Slots 0..8 hold lap 5's tag (1), slots 8..16 lap 4's (0); each
        // completion names its S2M slot and length.
        let mut ring = Vec::new();
        for slot in 0..16u32 {
            let mut b = [0u8; 16];
            sys.st.core(CoreId(0)).unwrap().desc.read(
                (RingLayout::SYSTEM.comp_ring_offset(2, 0) - map::CORE_DESC_BASE) as u32
                    + slot * 16,
                &mut b,
            );
            let d = crate::udma::desc::CompDesc::decode(&b).unwrap();
            assert_eq!(
                d.ring_id,
                if slot < 8 { 1 } else { 0 },
                "{mode:?} slot {slot}"
            );
            assert_eq!(d.desc_offset, slot);
            assert!(d.first && d.last && d.buf1_used && !d.error);
            assert!(d.len == 64 || d.len == 4 || d.len == 8, "{}", d.len);
            ring.push(b);
        }
        rings.push(ring);
        // A poll for one more completion that never comes: slot 8 still holds
        // generation 0 while 1 is expected — stale, never taken as done.
        let want = p.want + 1;
        sys.st.pending.push_back(Q7Op::PollComp {
            core: CoreId(0),
            queue: 0,
            engines: vec![(2, want)],
        });
        let e = sys.run(mode).unwrap_err();
        assert_eq!(
            e,
            SystemError::CompletionPending {
                core: 0,
                engine: 2,
                queue: 0,
                slot: 8,
                expected: 1,
                found: 0,
                seen: 72,
                want: 73
            },
            "{mode:?}"
        );
        // The slot gets the expected generation: now the poll takes it.
        let mut b = rings.last().unwrap()[8];
        b[3] = (b[3] & !3) | 1;
        let off = (RingLayout::SYSTEM.comp_ring_offset(2, 0) - map::CORE_DESC_BASE) as u32 + 8 * 16;
        sys.st.core_mut(CoreId(0)).unwrap().desc.write(off, &b);
        sys.run(mode).unwrap();
        assert_eq!(sys.st.core(CoreId(0)).unwrap().comp_poll[2][0].seen, 73);
    }
    assert_eq!(
        rings[0], rings[1],
        "fast mode writes the golden UDMA's completion bytes"
    );
}

/// Seed 001 §2.4 / §2.5 on the leg: the gen classifies the peer base (the §8
/// peer: is_die_0 = 0, engine_idx = 7 → neighbor fold), the RX Q7 programs its
/// windows (then update_window re-points them on the next leg), and the
/// pre-sync ready flag is raised by the gen and consumed by the RX arm.
#[test]
fn seed001_s2_4_and_s2_5_classifier_windows_and_ready_flag_on_the_leg() {
    let mut sys = System::new(Topology::seed_001_s8()).unwrap();
    let leg = SystemLeg::new(CoreId(3), 0, CoreId(7), 0x40, 256, 8);
    let (wtx, wrx) = sys.st.leg_gen_words(&leg).unwrap();
    let gtx = sys
        .st
        .rdma_desc_gen(CoreId(3), prid(CoreId(3), Role::Tx), &wtx)
        .unwrap();
    assert_eq!(
        (gtx.class.is_die_0, gtx.class.engine_idx, gtx.class.is_tpb),
        (false, 7, true)
    );
    assert_eq!(gtx.fold, FoldMode::Neighbor);
    let grx = sys
        .st
        .rdma_desc_gen(CoreId(7), prid(CoreId(7), Role::Rx), &wrx)
        .unwrap();
    assert_eq!(
        (grx.class.is_die_0, grx.class.engine_idx),
        (true, 3),
        "RX classifies its TX peer"
    );
    assert_eq!(sys.st.core(CoreId(7)).unwrap().ready_to_receive_remote(), 1);
    let ps = grx.pre_sync.unwrap();
    assert_eq!(ps.sb2sb_ready_to_receive_remote, 1);
    assert_eq!(
        (ps.remote_pool_xt_addr, ps.remote_q7_xt_addr),
        (0, 3 << 28),
        "4 engines, 4 windows"
    );
    assert_eq!(grx.window_log.len(), 4);
    let sbuf_soc = sys
        .st
        .topology()
        .fold(CoreId(3), CoreId(7), 3 << 32)
        .unwrap();
    assert_eq!(
        grx.window_log[1],
        format!("R: program_window: num=1, vld=1, xt_addr=0x10000000, soc_addr=0x{sbuf_soc:x}, u_mask=0xf0000000, l_mask=0xfffffff")
    );
    for (core, role, gen) in [(CoreId(7), Role::Rx, &grx), (CoreId(3), Role::Tx, &gtx)] {
        sys.st
            .rdma_desc_start(core, prid(core, role), &System::leg_start_word(&leg, gen))
            .unwrap();
    }
    sys.run(Mode::Fast).unwrap();
    assert_eq!(
        sys.st.core(CoreId(7)).unwrap().ready_to_receive_remote(),
        0,
        "consumed by the RX arm"
    );
    // The next leg into core 7 re-points the valid windows.
    let (_, wrx) = sys.st.leg_gen_words(&leg).unwrap();
    let (wtx, _) = sys.st.leg_gen_words(&leg).unwrap();
    sys.st
        .rdma_desc_gen(CoreId(3), prid(CoreId(3), Role::Tx), &wtx)
        .unwrap();
    let g2 = sys
        .st
        .rdma_desc_gen(CoreId(7), prid(CoreId(7), Role::Rx), &wrx)
        .unwrap();
    assert!(
        g2.window_log
            .iter()
            .all(|l| l.starts_with("R: update_window:  num=")),
        "{:?}",
        g2.window_log
    );
    sys.st.clear_pending();
}

/// Seed 001 §4.3 (QUIRK "RX arms first, TX fires second"), asserted on the
/// ordered transaction trace of one leg, in both modes and with both doorbell
/// styles: every S2M doorbell (rung by the RX Q7), then right_push (go_sem
/// 0 → 1 on the TX core), then left_pop (go_sem 1 → 0), then the M2S
/// doorbells (rung by the TX Q7), then the first descriptor moves.
#[test]
fn seed001_s4_3_rx_arms_s2m_then_right_push_then_left_pop_then_m2s_on_the_ordered_trace() {
    for mode in [Mode::Fast, Mode::Cycle] {
        for db in [Doorbells::Broadcast, Doorbells::PerEngine] {
            let mut sys = System::new(Topology::default()).unwrap();
            sys.st.doorbells = db;
            sys.st.trace_on = true;
            let leg = SystemLeg::new(CoreId(3), 0, CoreId(7), 0, 512, 8);
            sys.send_recv(&leg, mode).unwrap();
            let tr = &sys.st.trace;
            let idx = |f: &dyn Fn(&TraceEvent) -> bool| -> Vec<usize> {
                tr.iter()
                    .enumerate()
                    .filter(|(_, e)| f(e))
                    .map(|(i, _)| i)
                    .collect()
            };
            let s2m = idx(&|e| {
                matches!(
                    e,
                    TraceEvent::Doorbell {
                        by: 7,
                        core: 3,
                        side: 1,
                        ..
                    }
                )
            });
            let m2s = idx(&|e| {
                matches!(
                    e,
                    TraceEvent::Doorbell {
                        by: 3,
                        core: 3,
                        side: 0,
                        ..
                    }
                )
            });
            let push = idx(&|e| {
                matches!(
                    e,
                    TraceEvent::Sem {
                        core: 3,
                        sem: DEFAULT_GO_SEM,
                        value: 1,
                        ..
                    }
                )
            });
            let pop = idx(&|e| {
                matches!(
                    e,
                    TraceEvent::Sem {
                        core: 3,
                        sem: DEFAULT_GO_SEM,
                        value: 0,
                        ..
                    }
                )
            });
            let desc = idx(&|e| matches!(e, TraceEvent::Desc { .. }));
            assert_eq!(
                (s2m.len(), m2s.len()),
                (4, 4),
                "{mode:?} {db:?}: one per engine"
            );
            assert_eq!((push.len(), pop.len()), (1, 1));
            assert!(
                s2m[3] < push[0] && push[0] < pop[0] && pop[0] < m2s[0] && m2s[3] < desc[0],
                "{mode:?} {db:?}: s2m {s2m:?} push {push:?} pop {pop:?} m2s {m2s:?} desc {}",
                desc[0]
            );
            // No other doorbell was rung.
            assert_eq!(idx(&|e| matches!(e, TraceEvent::Doorbell { .. })).len(), 8);
        }
    }
}

/// Issue 14.4 at the host API: a doorbell past the free space (or on a queue
/// with no ring) rung through the Q7's MMIO path is a typed error and leaves
/// the golden registers untouched (no sticky bit, queue not stopped); at the
/// register level the same write sets DB_OVERFLOW and stops the queue
/// (`system::core::tests::doorbell_advances_tail_and_refuses_overflow`).
#[test]
fn host_doorbell_past_free_space_is_a_typed_error_and_touches_no_register() {
    use crate::udma::regs::{UDMA_ERR_DB_OVERFLOW, UDMA_Q_RL, UDMA_Q_RTP_INC};
    let mut sys = System::new(Topology::default()).unwrap();
    let q = crate::udma::regs::UDMA_Q_ARRAY_BASE;
    let local = |r| map::core_local(0, map::udma_offset(2, q + r));
    sys.st.mmio_write(CoreId(0), local(UDMA_Q_RL), 8).unwrap();
    sys.st
        .mmio_write(CoreId(0), local(UDMA_Q_RTP_INC), 7)
        .unwrap();
    let e = sys
        .st
        .mmio_write(CoreId(0), local(UDMA_Q_RTP_INC), 1)
        .unwrap_err();
    assert!(
        matches!(e, SystemError::Csr { core: 0, engine: 2, rule, .. } if rule.contains("DB overflow")),
        "{e}"
    );
    let qs = sys.st.queue(CoreId(0), 2, 0, 0).unwrap();
    assert_eq!((qs.tail.offset, qs.stopped, qs.err), (7, false, 0));
    let regs = &sys.st.core(CoreId(0)).unwrap().engines[2].regs;
    assert_eq!(regs.side[0].err_status >> UDMA_ERR_DB_OVERFLOW & 1, 0);
    // S2M: no ring yet.
    let s2m = map::core_local(
        0,
        map::udma_offset(2, crate::udma::regs::UDMA_S2M_BASE + q + UDMA_Q_RTP_INC),
    );
    let e = sys.st.mmio_write(CoreId(0), s2m, 1).unwrap_err();
    assert!(
        matches!(e, SystemError::Csr { rule, .. } if rule.contains("RL = 0")),
        "{e}"
    );
    assert!(!sys.st.queue(CoreId(0), 2, 0, 1).unwrap().stopped);
}

/// Issue 11.3: cycle mode runs the cores' own golden engines, so its
/// descriptor and byte counters are the golden `Q_DESC_DONE` / `Q_BYTES`.
/// A leg over an unbalanced, non-contiguous engine mask (13 partitions of
/// 70 000 bytes — two descriptors each — over engines 1, 2, 7, 10, 14: 3, 3,
/// 3, 2, 2 partitions) moves the same bytes in both modes, and every engine's
/// counters equal the count worked out here from the ring layout: per
/// partition 65 536 + 4 464 bytes, then the LOCAL and REMOTE semaphore
/// descriptors of 4 bytes each (even semaphores).
#[test]
fn cycle_mode_counts_are_the_golden_counters_and_equal_fast_mode_on_an_unbalanced_mask() {
    use crate::udma::regs::{q_addr, Side, UDMA_Q_BYTES, UDMA_Q_DESC_DONE};
    let topo = Topology {
        sbuf_bytes_per_partition: 96 * 1024,
        ..Topology::trn2(1)
    };
    let mask = 1 << 1 | 1 << 2 | 1 << 7 | 1 << 10 | 1 << 14;
    let leg = SystemLeg {
        engine_mask: mask,
        queue: 5,
        ..SystemLeg::new(CoreId(1), 0x10, CoreId(6), 0x20, 70_000, 13)
    };
    let want = [(1u8, 3u32), (2, 3), (7, 3), (10, 2), (14, 2)];
    let mut out = Vec::new();
    for mode in [Mode::Fast, Mode::Cycle] {
        let mut sys = System::new(topo.clone()).unwrap();
        fill(&mut sys, CoreId(1), 0x10, 70_000, 13, 3);
        sys.send_recv(&leg, mode).unwrap();
        verify(&sys, CoreId(1), 0x10, CoreId(6), 0x20, 70_000, 13);
        assert_eq!(
            sys.st.sem(CoreId(1), 12).unwrap(),
            5,
            "{mode:?}: one LOCAL per engine"
        );
        assert_eq!(
            sys.st.sem(CoreId(6), 20).unwrap(),
            5,
            "{mode:?}: one REMOTE per engine"
        );
        for (e, parts) in want {
            let descs = parts * 2 + 2;
            let bytes = parts * 70_000 + 2 * 4;
            for (s, side) in [(0u8, Side::M2s), (1, Side::S2m)] {
                let qs = sys.st.queue(CoreId(1), e, 5, s).unwrap();
                assert_eq!(
                    (qs.desc_done, qs.bytes),
                    (descs, bytes.into()),
                    "{mode:?} e{e} {side:?}"
                );
                assert_eq!((qs.head, qs.pending(), qs.stopped), (qs.tail, 0, false));
                // The same numbers read through the golden CSR port.
                let c = sys.st.core_mut(CoreId(1)).unwrap();
                assert_eq!(
                    c.udma_read(e, q_addr(side, 5, UDMA_Q_DESC_DONE)).unwrap(),
                    descs
                );
                assert_eq!(
                    c.udma_read(e, q_addr(side, 5, UDMA_Q_BYTES)).unwrap(),
                    bytes
                );
            }
        }
        // Engines outside the mask moved nothing.
        let idle = sys.st.queue(CoreId(1), 0, 5, 0).unwrap();
        assert_eq!((idle.desc_done, idle.bytes, idle.rl), (0, 0, 0));
        assert!(mode == Mode::Fast || sys.cycle.cycles > 0);
        out.push(state(&sys));
    }
    assert!(out[0].0 == out[1].0, "SBUF images differ");
    assert_eq!(out[0].1, out[1].1, "semaphores differ");
    assert_eq!(out[0].2, out[1].2, "queue registers differ");
}

/// Issue 11.5 scenario in the system model's cycle mode: a ring-id error
/// mid-leg. The third M2S descriptor of a 4-partition, one-engine leg carries
/// a wrong ring id: the golden engine stops the queue (Q_STATUS.STOPPED,
/// Q_ERR.PREF_RING_ID), the two partitions already accepted land whole, the
/// other two are untouched, and neither semaphore is raised. Fast mode
/// reports the same error as a typed RingId and leaves the same SBUF image.
#[test]
fn ring_id_error_mid_leg_in_cycle_mode_stops_the_queue_keeps_accepted_bytes_raises_no_semaphore() {
    use crate::udma::regs::{q_addr, Side, Q_STATUS_STOPPED, UDMA_Q_ERR, UDMA_Q_STATUS};
    let mut images = Vec::new();
    for mode in [Mode::Fast, Mode::Cycle] {
        let mut sys = System::new(Topology::default()).unwrap();
        fill(&mut sys, CoreId(0), 0, 256, 4, 1);
        let leg = SystemLeg {
            engine_mask: 0x0001,
            ..SystemLeg::new(CoreId(0), 0, CoreId(4), 0x40, 256, 4)
        };
        let (wtx, wrx) = sys.st.leg_gen_words(&leg).unwrap();
        let gtx = sys.st.rdma_desc_gen(CoreId(0), 1, &wtx).unwrap();
        let grx = sys.st.rdma_desc_gen(CoreId(4), 8, &wrx).unwrap();
        assert_eq!(
            gtx.per_engine,
            vec![(0, 6)],
            "4 data + 2 semaphore descriptors"
        );
        // The gens' set-up programs run first (their ring stores), then the fault.
        sys.run(mode).unwrap();
        // Ring id of M2S slot 2 (byte 3 of the descriptor holds bits [31:24]).
        let off =
            (RingLayout::SYSTEM.ring_offset(0, 0, 0) - map::CORE_DESC_BASE) as u32 + 2 * 16 + 3;
        let mut b = [0u8; 1];
        sys.st.core(CoreId(0)).unwrap().desc.read(off, &mut b);
        sys.st
            .core_mut(CoreId(0))
            .unwrap()
            .desc
            .write(off, &[b[0] ^ 0x03]);
        sys.st
            .rdma_desc_start(CoreId(4), 8, &System::leg_start_word(&leg, &grx))
            .unwrap();
        sys.st
            .rdma_desc_start(CoreId(0), 1, &System::leg_start_word(&leg, &gtx))
            .unwrap();
        let e = sys.run(mode).unwrap_err();
        match mode {
            Mode::Fast => assert!(
                matches!(
                    e,
                    SystemError::RingId {
                        core: 0,
                        engine: 0,
                        side: 0,
                        slot: 2,
                        ..
                    }
                ),
                "{e}"
            ),
            _ => {
                assert!(
                    matches!(&e, SystemError::Dma { core: 0, engine: 0, queue: 0, rule } if rule.contains("M2S")),
                    "{e}"
                );
                let m = sys.st.queue(CoreId(0), 0, 0, 0).unwrap();
                assert!(m.stopped, "the golden engine stopped the queue");
                assert_eq!((m.head.offset, m.tail.offset, m.desc_done), (2, 6, 2));
                assert_eq!(m.bytes, 2 * 256, "two descriptors accepted");
                let c = sys.st.core_mut(CoreId(0)).unwrap();
                let st = c.udma_read(0, q_addr(Side::M2s, 0, UDMA_Q_STATUS)).unwrap();
                assert!(Q_STATUS_STOPPED.is_set(st), "{st:#x}");
                let qerr = c.udma_read(0, q_addr(Side::M2s, 0, UDMA_Q_ERR)).unwrap();
                assert_eq!(qerr, 1 << Side::M2s.err_pref_ring_id());
                let s = sys.st.queue(CoreId(0), 0, 0, 1).unwrap();
                assert_eq!((s.desc_done, s.bytes), (2, 2 * 256), "S2M wrote both");
            }
        }
        verify(&sys, CoreId(0), 0, CoreId(4), 0x40, 256, 2);
        for p in 2..4u8 {
            let d = sys.st.read_sbuf(CoreId(4), p, 0x40, 256).unwrap();
            assert!(
                d.iter().all(|&x| x == 0),
                "{mode:?}: partition {p} untouched"
            );
        }
        assert_eq!(
            sys.st.sem(CoreId(0), 12).unwrap(),
            0,
            "{mode:?}: LOCAL not raised"
        );
        assert_eq!(
            sys.st.sem(CoreId(4), 20).unwrap(),
            0,
            "{mode:?}: REMOTE not raised"
        );
        sys.st.clear_pending();
        images.push(sys.st.sbuf(CoreId(4)).unwrap().image());
    }
    assert!(images[0] == images[1], "same SBUF image after the error");
}

/// Issue 11 part 3: the system model's cycle mode runs on the `pair::core`
/// composition. A cross-die leg (core 1 → core 5, two engines): the remote
/// semaphore increments arrive through core 5's interconnect in-port (its
/// EVT_SEM increment ports 2/3) over the fabric link 1 → 5, the local ones
/// through core 1's own write-lane increment ports 0/1; every burst core 5 receives is
/// one fabric grant into its in-port. Fast mode (same bytes, same
/// semaphores) never clocks the composition. A descriptor routed to a core
/// the topology does not have is a typed route error of the fabric.
#[test]
fn cycle_mode_remote_semaphore_increments_arrive_through_the_destination_xbar_in_port() {
    let leg = SystemLeg {
        engine_mask: 0b0110,
        ..SystemLeg::new(CoreId(1), 0x100, CoreId(5), 0x200, 300, 6)
    };
    let mut out = Vec::new();
    for mode in [Mode::Fast, Mode::Cycle] {
        let mut sys = System::new(Topology::default()).unwrap();
        fill(&mut sys, CoreId(1), 0x100, 300, 6, 3);
        sys.send_recv(&leg, mode).unwrap();
        verify(&sys, CoreId(1), 0x100, CoreId(5), 0x200, 300, 6);
        assert_eq!(
            sys.st.sem(CoreId(5), 20).unwrap(),
            2,
            "remote_sem: one per engine"
        );
        assert_eq!(
            sys.st.sem(CoreId(1), 12).unwrap(),
            2,
            "local_sem: one per engine"
        );
        let (tx, rx) = (
            sys.st.core(CoreId(1)).unwrap().hw.stats,
            sys.st.core(CoreId(5)).unwrap().hw.stats,
        );
        match mode {
            Mode::Fast => {
                assert_eq!((tx, rx), Default::default(), "fast mode clocks no glue");
                assert!(sys.cycle.fabric.links.is_empty());
            }
            Mode::Cycle => {
                assert_eq!(rx.in_incs, 2, "REMOTE increments on core 5's in-lane ports");
                assert_eq!(rx.out_incs, 0);
                assert_eq!(
                    tx.out_incs, 2,
                    "LOCAL increments on core 1's write-lane ports"
                );
                assert_eq!(tx.in_incs, 0, "nothing arrives at the sender");
                assert_eq!(tx.in_bursts, 0);
                // Every data byte and both semaphore writes entered core 5
                // through its in-port: 6 partitions × 300 B in bursts of at
                // most 16 beats of 32 B, plus one burst per semaphore descriptor.
                let burst = 16 * u64::from(crate::clock::ENGINE_BEAT_BYTES);
                assert!(rx.in_bursts >= 6 * 300u64.div_ceil(burst) + 2, "{rx:?}");
                assert_eq!(sys.cycle.fabric.delivered[&5], rx.in_bursts);
                assert_eq!(
                    sys.cycle.fabric.links.len(),
                    1,
                    "one link: core 1 -> core 5"
                );
                assert!(sys.cycle.fabric.links.contains_key(&(1, 5)));
                assert!(sys.cycle.fabric.idle());
            }
        }
        out.push(sys.st.sbuf(CoreId(5)).unwrap().image());
    }
    assert!(out[0] == out[1], "fast and cycle mode land the same bytes");

    // A bad route: the first S2M descriptor of engine 1 points at core 6 of
    // a die with 4 cores (LOCAL [34:32] = 6).
    let mut sys = System::new(Topology::default()).unwrap();
    fill(&mut sys, CoreId(1), 0x100, 300, 6, 3);
    let (wtx, wrx) = sys.st.leg_gen_words(&leg).unwrap();
    let gtx = sys.st.rdma_desc_gen(CoreId(1), 3, &wtx).unwrap();
    let grx = sys.st.rdma_desc_gen(CoreId(5), 10, &wrx).unwrap();
    // The gens' set-up programs run first (their ring stores), then the fault.
    sys.run(Mode::Cycle).unwrap();
    let off = (RingLayout::SYSTEM.ring_offset(1, 0, 1) - map::CORE_DESC_BASE) as u32;
    let mut b = [0u8; 16];
    sys.st.core(CoreId(1)).unwrap().desc.read(off, &mut b);
    let mut d = crate::udma::desc::S2mDesc::decode(&b).unwrap();
    let bad = (d.buf1_ptr & !(7 << 32)) | 6 << 32;
    d.buf1_ptr = bad;
    sys.st
        .core_mut(CoreId(1))
        .unwrap()
        .desc
        .write(off, &d.encode().unwrap());
    sys.st
        .rdma_desc_start(CoreId(5), 10, &System::leg_start_word(&leg, &grx))
        .unwrap();
    sys.st
        .rdma_desc_start(CoreId(1), 3, &System::leg_start_word(&leg, &gtx))
        .unwrap();
    let e = sys.run(Mode::Cycle).unwrap_err();
    assert!(
        matches!(e, SystemError::Route { from: 1, addr, rule } if addr == bad && rule.contains("cores_per_die")),
        "{e}"
    );
}

// ---- cycle mode: the Q7 programs on the cores' Q7 ports (system/q7_exec.rs)

/// Core-local Q7-port address of UDMA engine `e`'s `*DRTP_inc` of queue `q`, `side`.
fn rtp_inc_addr(e: u8, q: u8, side: crate::udma::regs::Side) -> u32 {
    use crate::udma::regs::{q_addr, UDMA_Q_RTP_INC};
    (map::CORE_UDMA_BASE + u64::from(e) * map::CORE_UDMA_STRIDE) as u32
        + q_addr(side, q.into(), UDMA_Q_RTP_INC)
}

fn evt_addr(base: u32, sem: u8) -> u32 {
    map::CORE_EVT_SEM_BASE as u32 + base + u32::from(sem) * 4
}

/// Seed 001 §4.3 on the Q7 ports: the RX Q7's S2M doorbells and its right_push
/// enter the TX core's port, before the TX Q7's left_pop (SEM_READ polls, then
/// SEM_DECR) on the same port, and the M2S doorbells follow only after the
/// left_pop saw go >= 1. Fast mode makes no port transaction.
#[test]
fn cycle_mode_q7_accesses_run_on_the_target_cores_q7_port_rx_first_then_left_pop_then_m2s() {
    use crate::evt_sem::regs::{
        EVT_SEM_SEM_DECR_BASE, EVT_SEM_SEM_INCR_BASE, EVT_SEM_SEM_READ_BASE,
    };
    use crate::udma::regs::Side;
    let (tx, rx) = (CoreId(3), CoreId(7));
    for mode in [Mode::Fast, Mode::Cycle] {
        let mut sys = System::new(Topology::default()).unwrap();
        sys.st.doorbells = Doorbells::PerEngine;
        sys.st.trace_on = true;
        fill(&mut sys, tx, 0, 512, 8, 4);
        let leg = SystemLeg::new(tx, 0, rx, 0, 512, 8);
        sys.send_recv(&leg, mode).unwrap();
        verify(&sys, tx, 0, rx, 0, 512, 8);
        // The start programs' transactions (the gens' set-up ones come first).
        let log: Vec<_> = sys
            .cycle
            .q7_log
            .iter()
            .filter(|t| t.prog != "setup")
            .cloned()
            .collect();
        if mode == Mode::Fast {
            assert!(log.is_empty(), "fast mode runs no Q7 port transaction");
            continue;
        }
        assert!(log.iter().all(|t| t.resp == 0));
        // Everything of this leg's start programs crosses the TX core's port.
        assert!(log.iter().all(|t| t.port == tx.0), "{log:?}");
        let rx_w: Vec<_> = log.iter().filter(|t| t.by == rx.0).collect();
        let mut want: Vec<(u32, u32)> =
            (0..4).map(|e| (rtp_inc_addr(e, 0, Side::S2m), 4)).collect();
        want.push((evt_addr(EVT_SEM_SEM_INCR_BASE, DEFAULT_GO_SEM), 1));
        assert_eq!(
            rx_w.iter().map(|t| (t.addr, t.data)).collect::<Vec<_>>(),
            want,
            "RX: 4 S2M doorbells of 4 descriptors (2 partitions of 512 B + 2 semaphore BDs per engine), then right_push"
        );
        assert!(rx_w.iter().all(|t| t.write));
        let tx_t: Vec<_> = log.iter().filter(|t| t.by == tx.0).collect();
        let go_read = evt_addr(EVT_SEM_SEM_READ_BASE, DEFAULT_GO_SEM);
        let reads = tx_t.iter().take_while(|t| !t.write).count();
        assert!(reads >= 1);
        assert!(tx_t[..reads].iter().all(|t| t.addr == go_read));
        assert!(
            tx_t[..reads - 1].iter().all(|t| t.data == 0),
            "polls before the push read 0"
        );
        assert_eq!(
            tx_t[reads - 1].data,
            1,
            "the poll that ends left_pop saw go = 1"
        );
        let rest: Vec<(u32, u32)> = tx_t[reads..].iter().map(|t| (t.addr, t.data)).collect();
        let mut want: Vec<(u32, u32)> = vec![(evt_addr(EVT_SEM_SEM_DECR_BASE, DEFAULT_GO_SEM), 1)];
        want.extend((0..4).map(|e| (rtp_inc_addr(e, 0, Side::M2s), 4)));
        assert_eq!(rest, want, "left_pop's SEM_DECR, then the M2S doorbells");
        let push = rx_w.last().unwrap();
        let first_m2s = tx_t[reads + 1];
        assert!(
            rx_w[3].cycle <= push.issued,
            "the S2M doorbells complete before the push is offered"
        );
        assert!(
            push.cycle <= tx_t[reads - 1].cycle,
            "the successful poll ends after the push"
        );
        assert!(
            first_m2s.issued >= tx_t[reads].cycle && tx_t[reads].issued >= tx_t[reads - 1].cycle,
            "M2S doorbell offered only after left_pop"
        );
        // The port carries one transaction at a time.
        let mut by_issue = log.clone();
        by_issue.sort_by_key(|t| t.issued);
        assert!(by_issue.windows(2).all(|w| w[0].cycle <= w[1].issued));
        assert_eq!(sys.st.sem(tx, DEFAULT_GO_SEM).unwrap(), 0);
        assert_eq!(
            (sys.st.sem(tx, 12).unwrap(), sys.st.sem(rx, 20).unwrap()),
            (4, 4)
        );
    }
}

/// TX started (and run) before RX arms: its left_pop polls the go semaphore
/// on its port and nothing else happens — no M2S doorbell, no byte in the RX
/// SBUF, the run ends in the typed deadlock. Once RX starts, the second run
/// moves the bytes, and the M2S doorbells come after the right_push.
#[test]
fn cycle_mode_tx_before_rx_rings_nothing_and_lands_no_byte_until_rx_arms() {
    use crate::udma::regs::Side;
    let (tx, rx) = (CoreId(0), CoreId(4));
    let mut sys = System::new(Topology::default()).unwrap();
    sys.st.doorbells = Doorbells::PerEngine;
    sys.st.trace_on = true;
    fill(&mut sys, tx, 0, 256, 4, 9);
    let leg = SystemLeg::new(tx, 0, rx, 0, 256, 4);
    let (wtx, wrx) = sys.st.leg_gen_words(&leg).unwrap();
    let gtx = sys.st.rdma_desc_gen(tx, prid(tx, Role::Tx), &wtx).unwrap();
    let grx = sys.st.rdma_desc_gen(rx, prid(rx, Role::Rx), &wrx).unwrap();
    sys.st
        .rdma_desc_start(tx, prid(tx, Role::Tx), &System::leg_start_word(&leg, &gtx))
        .unwrap();
    let before = sys.st.sbuf(rx).unwrap().image();
    let e = sys.run(Mode::Cycle).unwrap_err();
    assert!(
        matches!(
            e,
            SystemError::Deadlock {
                core: 0,
                sem: DEFAULT_GO_SEM,
                target: 1,
                value: 0,
                ..
            }
        ),
        "{e}"
    );
    assert_eq!(
        sys.st.sbuf(rx).unwrap().image(),
        before,
        "no byte landed early"
    );
    for eng in 0..4 {
        assert_eq!(
            sys.st.queue(tx, eng, 0, 0).unwrap().tail.offset,
            0,
            "no M2S doorbell"
        );
    }
    let start: Vec<_> = sys
        .cycle
        .q7_log
        .iter()
        .filter(|t| t.prog != "setup")
        .collect();
    assert!(!start.is_empty() && start.iter().all(|t| !t.write && t.data == 0));
    let polls = sys.cycle.q7_log.len();
    sys.st
        .rdma_desc_start(rx, prid(rx, Role::Rx), &System::leg_start_word(&leg, &grx))
        .unwrap();
    sys.run(Mode::Cycle).unwrap();
    verify(&sys, tx, 0, rx, 0, 256, 4);
    let log = &sys.cycle.q7_log[polls..];
    let push = log
        .iter()
        .position(|t| {
            t.by == rx.0
                && t.addr == evt_addr(crate::evt_sem::regs::EVT_SEM_SEM_INCR_BASE, DEFAULT_GO_SEM)
        })
        .unwrap();
    let m2s0 = log
        .iter()
        .position(|t| t.addr == rtp_inc_addr(0, 0, Side::M2s))
        .unwrap();
    assert!(push < m2s0 && log[push].cycle <= log[m2s0].issued);
    assert_eq!(
        (sys.st.sem(tx, 12).unwrap(), sys.st.sem(rx, 20).unwrap()),
        (4, 4)
    );
}

/// A doorbell on a queue with no ring in a cycle-mode Q7 program: left_pop
/// runs through the port (go consumed), then the host-side check refuses the
/// doorbell before it is offered — typed error, no register touched, no
/// transaction to that address on the port.
#[test]
fn cycle_mode_bad_doorbell_is_the_typed_error_before_any_port_write() {
    use crate::udma::regs::Side;
    let mut sys = System::new(Topology::default()).unwrap();
    sys.st.trace_on = true;
    sys.st.doorbells = Doorbells::PerEngine;
    let c = CoreId(2);
    let go = sys
        .st
        .topology()
        .fold(
            c,
            c,
            map::core_local(2, map::sem_incr_offset(DEFAULT_GO_SEM)),
        )
        .unwrap();
    sys.st.mmio_write(c, go, 1).unwrap();
    sys.st.pending.push_back(Q7Op::TxLaunch {
        core: c,
        queue: 9,
        engines: vec![(5, 3)],
        go_sem: DEFAULT_GO_SEM,
    });
    let e = sys.run(Mode::Cycle).unwrap_err();
    assert!(
        matches!(e, SystemError::Csr { core: 2, engine: 5, rule, .. } if rule.contains("RL = 0")),
        "{e}"
    );
    assert_eq!(sys.st.queue(c, 5, 9, 0).unwrap().tail.offset, 0);
    assert_eq!(
        sys.st.sem(c, DEFAULT_GO_SEM).unwrap(),
        0,
        "left_pop ran on the port"
    );
    assert_eq!(
        sys.cycle.q7_log.iter().filter(|t| t.write).count(),
        1,
        "only the SEM_DECR"
    );
    assert!(sys
        .cycle
        .q7_log
        .iter()
        .all(|t| t.addr != rtp_inc_addr(5, 9, Side::M2s)));
}

/// A Q7 access the port refuses (nothing of the core is mapped at
/// 0x1001_0000: SLVERR) is the typed error naming core, address and response.
#[rstest]
fn cycle_mode_q7_port_slverr_is_a_typed_error_naming_core_address_and_response(mut sys: System) {
    let e = sys.q7_raw_write(CoreId(1), 5, 0x1001_0000, 7).unwrap_err();
    assert!(
        matches!(
            e,
            SystemError::Q7Resp {
                core: 5,
                by: 1,
                addr: 0x1001_0000,
                access: "write",
                resp: 2
            }
        ),
        "{e}"
    );
    // An EVT_SEM write through the same path is OKAY and lands.
    let n = sys
        .q7_raw_write(CoreId(5), 5, map::sem_incr_offset(3) as u32, 2)
        .unwrap();
    assert_eq!(sys.st.sem(CoreId(5), 3).unwrap(), 2);
    assert!(
        n >= 4,
        "IDLE, W_FWD, W_RESP, BACK: at least 4 cycles, took {n}"
    );
}

/// The modeled cycles of a cycle-mode leg include the Q7 transactions: the
/// first M2S doorbell lands no earlier than the serial transactions before it
/// on the TX core's port allow (E S2M doorbells, the push, >= 1 poll, the
/// SEM_DECR, itself; each at least 4 cycles through the RTL Q7 port FSM:
/// IDLE, W_FWD/R_FWD, W_RESP/R_RESP, BACK/R_BACK), and the leg no earlier
/// than that plus one 64-bit beat per cycle of all bytes into the RX core.
#[test]
fn cycle_mode_modeled_cycles_include_the_q7_port_transactions() {
    let (tx, rx) = (CoreId(1), CoreId(5));
    let mut sys = System::new(Topology::default()).unwrap();
    sys.st.doorbells = Doorbells::PerEngine;
    sys.st.trace_on = true;
    let (bytes, parts, e) = (1024u32, 8u8, 4u64);
    fill(&mut sys, tx, 0, bytes, parts, 2);
    let c0 = sys.cycle.cycles;
    let rep = sys
        .send_recv(&SystemLeg::new(tx, 0, rx, 0, bytes, parts), Mode::Cycle)
        .unwrap();
    let first_m2s = sys
        .st
        .trace
        .iter()
        .find_map(|t| match t {
            TraceEvent::Doorbell { side: 0, t, .. } => Some(*t),
            _ => None,
        })
        .unwrap();
    let q7_min = 4 * (e + 4);
    assert!(
        first_m2s >= crate::clock::cycles_to_ps(c0 + q7_min),
        "first M2S doorbell at {first_m2s} ps, bound {} cycles",
        q7_min
    );
    let data_min = u64::from(bytes) * u64::from(parts) / 8;
    assert!(
        rep.cycles >= q7_min + data_min,
        "{} cycles < {} + {}",
        rep.cycles,
        q7_min,
        data_min
    );
}

// ---- issue 11: rdma_desc_gen's ring set-up through the Q7 ports (no back door)

/// The seed 001 §8 leg geometry (cores 3 → 7 of `Topology::seed_001_s8`,
/// engines 0x000F, 128 partitions from SBUF offset 0x100000 to the peer's
/// 0x100000, local_sem 12, remote_sem 20) with 256 bytes per partition
/// instead of 16 KiB: the same descriptors (one per partition, ≤ 64 KiB) and
/// so the same set-up program, at a 64th of the data cycles (as the RTL
/// mode's leg, docs/system.md).
fn s8_setup_leg() -> (Topology, SystemLeg) {
    let topo = Topology {
        sbuf_bytes_per_partition: 2 << 20,
        ..Topology::seed_001_s8()
    };
    let leg = SystemLeg {
        engine_mask: 0x000F,
        ..SystemLeg::new(CoreId(3), 0x10_0000, CoreId(7), 0x10_0000, 256, 128)
    };
    (topo, leg)
}

/// Set-up transactions of the §8 leg counted from the seed's numbers alone:
/// per engine the TX Q7 writes its M2S queue (RL, RBP_LOW, RBP_HIGH, CFG) and
/// its completion ring (CRBP_LOW, CRBP_HIGH, COMP_CFG), the RX Q7 the S2M
/// queue (the same four); each side stores (128 / 4 partitions × 1 chunk + 2
/// semaphore BDs) descriptors of 16 bytes = 4 words; the TX Q7 stores the
/// 16-byte semaphore constants (4 words).
fn s8_setup_count() -> u64 {
    let engines = 0x000Fu16.count_ones() as u64;
    let descs = 128 / engines * 256u64.div_ceil(65536) + 2;
    engines * (4 + 3) + engines * 4 + 2 * engines * descs * 4 + 4
}

/// The core-local (address, data) sequence the TX and RX set-up programs of
/// the fresh §8 leg must show on the TX core's Q7 port, built from the
/// address map: TX — the semaphore constants {1, 0}, {0, 1}, then per
/// engine its M2S queue and completion-ring registers and its ring words
/// (slot 0 on); RX — per engine the S2M queue registers and its ring words.
fn s8_setup_addresses() -> (Vec<u32>, Vec<u32>) {
    use crate::udma::regs::{
        q_addr, Side, UDMA_Q_CFG, UDMA_Q_CRBP_HIGH, UDMA_Q_CRBP_LOW, UDMA_Q_RBP_HIGH,
        UDMA_Q_RBP_LOW, UDMA_Q_RL, UDMA_S2M_Q_COMP_CFG,
    };
    let udma = |e: u8, side, r| (map::udma_offset(e, q_addr(side, 0, r))) as u32;
    let ring = |e: u8, side: u8| {
        (0..34 * 4).map(move |k| RingLayout::SYSTEM.ring_offset(e, 0, side) as u32 + 4 * k)
    };
    let k = (map::CORE_DESC_BASE + map::SEMA_ONE_OFFSET) as u32;
    let mut tx: Vec<u32> = (0..4).map(|w| k + 4 * w).collect();
    let mut rx = Vec::new();
    for e in 0..4u8 {
        for r in [UDMA_Q_RL, UDMA_Q_RBP_LOW, UDMA_Q_RBP_HIGH, UDMA_Q_CFG] {
            tx.push(udma(e, Side::M2s, r));
        }
        for r in [UDMA_Q_CRBP_LOW, UDMA_Q_CRBP_HIGH, UDMA_S2M_Q_COMP_CFG] {
            tx.push(udma(e, Side::S2m, r));
        }
        tx.extend(ring(e, 0));
        for r in [UDMA_Q_RL, UDMA_Q_RBP_LOW, UDMA_Q_RBP_HIGH, UDMA_Q_CFG] {
            rx.push(udma(e, Side::S2m, r));
        }
        rx.extend(ring(e, 1));
    }
    (tx, rx)
}

/// Issue 11 "no back doors" (ring set-up): in cycle mode every CSR write and
/// descriptor-RAM store of both Q7s' `rdma_desc_gen` is an AXI4-Lite
/// transaction on the TX core's Q7 port — the count from the leg's
/// geometry, each program in its order, one transaction at a time, all done
/// before any start-program access (the S2M doorbells) is offered; nothing
/// is written before the run (fast mode too: gen only queues). The leg's
/// modeled cycles hold at least 4 cycles (IDLE, W_FWD, W_RESP, BACK of the
/// port FSM) per set-up transaction before the first start access, plus one
/// 64-bit beat per cycle of the data. Fast and cycle mode leave the same
/// SBUF images, semaphores, queue registers and ring bytes.
#[test]
fn cycle_mode_ring_setup_runs_on_the_q7_port_in_order_before_the_s2m_doorbells() {
    let (topo, leg) = s8_setup_leg();
    let want_n = s8_setup_count();
    assert_eq!(want_n, 1136);
    let want = s8_setup_addresses();
    assert_eq!((want.0.len() + want.1.len()) as u64, want_n);
    let mut out = Vec::new();
    for mode in [Mode::Fast, Mode::Cycle] {
        let mut sys = System::new(topo.clone()).unwrap();
        sys.st.trace_on = true;
        fill(&mut sys, leg.src, 0x10_0000, 256, 128, 7);
        s8_gen_writes_nothing_then_start(&mut sys, &leg, want_n);
        let c0 = sys.cycle.cycles;
        sys.run(mode).unwrap();
        verify(&sys, leg.src, 0x10_0000, leg.dst, 0x10_0000, 256, 128);
        let sems = (
            sys.st.sem(leg.src, 12).unwrap(),
            sys.st.sem(leg.dst, 20).unwrap(),
        );
        assert_eq!(sems, (4, 4));
        out.push((state(&sys), s8_ring_bytes(&sys, leg.src)));
        if mode == Mode::Fast {
            assert!(
                sys.cycle.q7_log.is_empty(),
                "fast mode makes no port transaction"
            );
        } else {
            check_setup_on_the_tx_port(&sys, &leg, &want, c0);
        }
    }
    assert!(
        out[0].0 == out[1].0,
        "fast and cycle mode: same SBUF, semaphores, queues"
    );
    assert!(out[0].1 == out[1].1, "fast and cycle mode: same ring bytes");
}

/// Both gens of the §8 leg (256 bytes per partition) and both starts:
/// the gens' set-up programs hold `want_n` transactions, and nothing is
/// written before the run (no queue register, no descriptor byte).
fn s8_gen_writes_nothing_then_start(sys: &mut System, leg: &SystemLeg, want_n: u64) {
    let (tx, rx) = (leg.src, leg.dst);
    let (wtx, wrx) = sys.st.leg_gen_words(leg).unwrap();
    let gtx = sys.st.rdma_desc_gen(tx, prid(tx, Role::Tx), &wtx).unwrap();
    let grx = sys.st.rdma_desc_gen(rx, prid(rx, Role::Rx), &wrx).unwrap();
    assert_eq!(gtx.dst_soc, 0x58800000100000);
    assert_eq!(u64::from(gtx.setup_writes + grx.setup_writes), want_n);
    for e in 0..4 {
        let rl = |side| sys.st.queue(tx, e, 0, side).unwrap().rl;
        assert_eq!((rl(0), rl(1)), (0, 0), "M2S / S2M RL of engine {e}");
    }
    assert_eq!(sys.st.core(tx).unwrap().desc.allocated_bytes(), 0);
    sys.st
        .rdma_desc_start(rx, prid(rx, Role::Rx), &System::leg_start_word(leg, &grx))
        .unwrap();
    sys.st
        .rdma_desc_start(tx, prid(tx, Role::Tx), &System::leg_start_word(leg, &gtx))
        .unwrap();
}

/// The 34 descriptors of the M2S and S2M rings of engines 0..4, queue 0, in
/// the TX core's descriptor RAM.
fn s8_ring_bytes(sys: &System, tx: CoreId) -> Vec<Vec<u8>> {
    let mut ring = Vec::new();
    for e in 0..4u8 {
        for side in 0..2u8 {
            let mut b = vec![0u8; 34 * 16];
            let off = (RingLayout::SYSTEM.ring_offset(e, 0, side) - map::CORE_DESC_BASE) as u32;
            sys.st.core(tx).unwrap().desc.read(off, &mut b);
            ring.push(b);
        }
    }
    ring
}

/// The cycle-mode port log of the §8 leg run from cycle `c0`: every set-up
/// transaction an OKAY write on the TX core's port, each Q7's in the order
/// of `want` (TX, RX addresses), one transaction at a time, all done before
/// the first start access (the RX arm's S2M trigger), at least 4 cycles
/// each, and the data at one 64-bit beat per cycle after them.
fn check_setup_on_the_tx_port(sys: &System, leg: &SystemLeg, want: &(Vec<u32>, Vec<u32>), c0: u64) {
    let (tx, rx) = (leg.src, leg.dst);
    let want_n = (want.0.len() + want.1.len()) as u64;
    let log = &sys.cycle.q7_log;
    let setup: Vec<_> = log.iter().filter(|t| t.prog == "setup").collect();
    assert_eq!(
        setup.len() as u64,
        want_n,
        "set-up transactions on the ports"
    );
    assert!(setup
        .iter()
        .all(|t| t.port == tx.0 && t.write && t.resp == 0));
    let seq = |by: CoreId| -> Vec<u32> {
        setup
            .iter()
            .filter(|t| t.by == by.0)
            .map(|t| t.addr)
            .collect()
    };
    assert_eq!(seq(tx), want.0, "the TX Q7's set-up, in order");
    assert_eq!(seq(rx), want.1, "the RX Q7's set-up, in order");
    // Data of a few: the constants {1, 0, 0, 1}, then RL = 4096.
    let tx_data: Vec<u32> = setup
        .iter()
        .filter(|t| t.by == tx.0)
        .map(|t| t.data)
        .collect();
    assert_eq!(tx_data[..5], [1, 0, 0, 1, map::RING_LEN]);
    // One transaction at a time on the port.
    let mut by_issue = log.clone();
    by_issue.sort_by_key(|t| t.issued);
    assert!(by_issue.windows(2).all(|w| w[0].cycle <= w[1].issued));
    // Every set-up transaction is done before any start-program access
    // (the RX Q7's S2M doorbell broadcast comes first) is offered.
    let last_setup = setup.iter().map(|t| t.cycle).max().unwrap();
    let first_start = log
        .iter()
        .filter(|t| t.prog != "setup")
        .map(|t| t.issued)
        .min()
        .unwrap();
    assert!(last_setup <= first_start, "{last_setup} > {first_start}");
    let s2m_trigger =
        (map::CORE_BCAST_BASE + u64::from(bcast::bcast_reg(0, 1, bcast::BCAST_TAIL_INC))) as u32;
    let first_s2m = log.iter().find(|t| t.addr == s2m_trigger).unwrap();
    assert_eq!(first_s2m.prog, "rx_arm");
    // Modeled cycles: at least 4 per set-up transaction before the first
    // start access, and the data at one 64-bit beat per cycle after it.
    assert!(
        first_start - c0 >= 4 * want_n,
        "first start access at +{} cycles, bound {}",
        first_start - c0,
        4 * want_n
    );
    let rep_cycles = sys.cycle.cycles - c0;
    let data_min = 256 * 128 / 8;
    assert!(rep_cycles >= 4 * want_n + data_min, "{rep_cycles}");
}

/// A gen that fails (its last engine's ring is too full) returns the typed
/// error naming engine and rule, and leaves nothing behind: no set-up
/// program queued, so a run makes no port transaction and no register or
/// descriptor byte of the engines before it changes (gen plans against the
/// planned registers and emits only once every check passed). A leg whose
/// RX gen is refused drops the TX gen's program too.
#[rstest]
fn a_refused_gen_queues_no_setup_and_makes_no_port_transaction(mut sys: System) {
    sys.st.trace_on = true;
    let (tx, rx) = (CoreId(0), CoreId(4));
    fill(&mut sys, tx, 0, 64, 28, 1);
    // Engine 3's queue 0 gets an 8-descriptor ring from a first leg.
    sys.st.ring_len = 8;
    let first = SystemLeg {
        engine_mask: 0x0008,
        ..SystemLeg::new(tx, 0, rx, 0, 64, 1)
    };
    sys.send_recv(&first, Mode::Cycle).unwrap();
    assert_eq!(sys.st.queue(tx, 3, 0, 0).unwrap().rl, 8);
    sys.st.ring_len = map::RING_LEN;
    let n0 = sys.cycle.q7_log.len();
    let desc0 = sys.st.core(tx).unwrap().desc.allocated_bytes();
    // 28 partitions over 4 engines: 7 + 2 = 9 descriptors each; engine 3 has 7 free.
    let leg = SystemLeg::new(tx, 0, rx, 0, 64, 28);
    let e = sys.send_recv(&leg, Mode::Cycle).unwrap_err();
    assert_eq!(
        e,
        SystemError::RingFull {
            core: 0,
            engine: 3,
            queue: 0,
            side: 0,
            need: 9,
            free: 7
        }
    );
    assert!(sys.st.setups.is_empty() && sys.st.pending.is_empty());
    sys.run(Mode::Cycle).unwrap();
    assert_eq!(sys.cycle.q7_log.len(), n0, "no port transaction");
    for eng in 0..3 {
        let q = sys.st.queue(tx, eng, 0, 0).unwrap();
        assert_eq!((q.rl, q.rbp), (0, 0), "engine {eng} untouched");
    }
    assert_eq!(sys.st.core(tx).unwrap().desc.allocated_bytes(), desc0);
    // A bad word: typed error naming the rule, nothing queued.
    let (mut w, _) = sys.st.leg_gen_words(&leg).unwrap();
    w.free_dim_bytes = 0;
    let e = sys
        .st
        .rdma_desc_gen(tx, prid(tx, Role::Tx), &w)
        .unwrap_err();
    assert!(
        matches!(
            e,
            SystemError::Leg {
                field: "free_dim_bytes",
                ..
            }
        ),
        "{e}"
    );
    assert!(sys.st.setups.is_empty());
    // The RX gen refused (engine 3's S2M ring holds 3 unpaired descriptors,
    // so 4 free < 6 needed; the M2S side has 7): the TX gen's program is
    // dropped with its record.
    let s2m_db = sys
        .st
        .topology()
        .fold(
            tx,
            tx,
            map::core_local(
                0,
                u64::from(rtp_inc_addr(3, 0, crate::udma::regs::Side::S2m)),
            ),
        )
        .unwrap();
    sys.st.mmio_write(tx, s2m_db, 3).unwrap();
    let one = SystemLeg {
        engine_mask: 0x0008,
        ..SystemLeg::new(tx, 0, rx, 0, 64, 4)
    };
    let e = sys.send_recv(&one, Mode::Cycle).unwrap_err();
    assert_eq!(
        e,
        SystemError::RingFull {
            core: 0,
            engine: 3,
            queue: 0,
            side: 1,
            need: 6,
            free: 4
        }
    );
    assert!(sys.st.setups.is_empty() && sys.st.streams.is_empty());
    assert_eq!(sys.cycle.q7_log.len(), n0, "still no port transaction");
}

/// A SLVERR during the set-up (one CSR write of the TX Q7's program aimed
/// at a hole of engine 2's register space — not a register of the golden
/// register file) ends the cycle-mode run with the typed Q7Resp naming the
/// port's core, the issuing core, the address and the response; no start
/// program has made an access (no doorbell rung, no byte moved).
#[test]
fn cycle_mode_slverr_during_setup_is_q7resp_naming_the_address_and_rings_no_doorbell() {
    use crate::udma::regs::{q_addr, Side, UDMA_NUM_QUEUES, UDMA_Q_RBP_HIGH, UDMA_Q_RTP_INC};
    let (topo, leg) = s8_setup_leg();
    let (tx, rx) = (leg.src, leg.dst);
    let mut sys = System::new(topo).unwrap();
    sys.st.trace_on = true;
    fill(&mut sys, tx, 0x10_0000, 256, 128, 7);
    let (gtx, grx) = sys.st.issue_leg_pair(&leg).unwrap();
    assert_eq!(sys.st.setups.len(), 2);
    // Engine 2's RBP_HIGH write of the TX program → the hole where a 17th
    // queue's doorbell would be.
    let rbp_hi = map::udma_offset(2, q_addr(Side::M2s, 0, UDMA_Q_RBP_HIGH)) as u32;
    let hole = map::udma_offset(2, q_addr(Side::M2s, UDMA_NUM_QUEUES, UDMA_Q_RTP_INC)) as u32;
    let s = &mut sys.st.setups[0];
    assert_eq!(s.core, tx);
    let k = s
        .accesses
        .iter()
        .position(|a| matches!(a, Q7Step::Csr { soc, .. } if *soc as u32 == rbp_hi))
        .unwrap();
    let Q7Step::Csr { soc, data } = s.accesses[k] else {
        unreachable!()
    };
    s.accesses[k] = Q7Step::Csr {
        soc: (soc & !0xFFFF_FFFF) | u64::from(hole),
        data,
    };
    let e = sys.run(Mode::Cycle).unwrap_err();
    assert_eq!(
        e,
        SystemError::Q7Resp {
            core: tx.0,
            by: tx.0,
            addr: hole,
            access: "write",
            resp: 2
        }
    );
    assert!(e.to_string().contains(&format!("{hole:#010x}")), "{e}");
    let last = sys.cycle.q7_log.last().unwrap();
    assert_eq!((last.addr, last.resp, last.prog), (hole, 2, "setup"));
    assert!(
        sys.cycle.q7_log.iter().all(|t| t.prog == "setup"),
        "no start access"
    );
    for eng in 0..4 {
        assert_eq!(
            sys.st.queue(tx, eng, 0, 0).unwrap().tail.offset,
            0,
            "no M2S doorbell"
        );
        assert_eq!(
            sys.st.queue(tx, eng, 0, 1).unwrap().tail.offset,
            0,
            "no S2M doorbell"
        );
    }
    assert_eq!(sys.st.sem(rx, 20).unwrap(), 0);
    let _ = (gtx, grx);
    sys.st.clear_pending();
    assert!(sys.st.setups.is_empty());
}

/// A ring step (four cores of one die, each sending to the next, all legs
/// issued before one run): the gens' set-up programs of all four legs run on
/// the ports first, then the legs; fast and cycle mode agree byte for byte.
#[test]
fn ring_step_with_setup_on_the_ports_agrees_with_fast_mode() {
    let n = 4u16;
    let legs: Vec<SystemLeg> = (0..n)
        .map(|c| SystemLeg::new(CoreId(c), 0, CoreId((c + 1) % n), 1024, 512, 4))
        .collect();
    let mut out = Vec::new();
    for mode in [Mode::Fast, Mode::Cycle] {
        let mut sys = System::new(Topology::default()).unwrap();
        sys.st.trace_on = true;
        for c in 0..n {
            fill(&mut sys, CoreId(c), 0, 512, 4, c as u8);
        }
        for l in &legs {
            sys.st.issue_leg(l).unwrap();
        }
        assert_eq!(sys.st.setups.len(), 2 * n as usize);
        sys.run(mode).unwrap();
        for c in 0..n {
            verify(&sys, CoreId(c), 0, CoreId((c + 1) % n), 1024, 512, 4);
        }
        if mode == Mode::Cycle {
            let log = &sys.cycle.q7_log;
            let last_setup = log
                .iter()
                .filter(|t| t.prog == "setup")
                .map(|t| t.cycle)
                .max();
            let first_start = log
                .iter()
                .filter(|t| t.prog != "setup")
                .map(|t| t.issued)
                .min();
            assert!(last_setup.unwrap() <= first_start.unwrap());
            // Each leg's set-up enters its TX core's port.
            for c in 0..n {
                assert!(log
                    .iter()
                    .any(|t| t.prog == "setup" && t.port == c && t.by == (c + 1) % n));
            }
        }
        out.push(state(&sys));
    }
    assert!(
        out[0] == out[1],
        "fast and cycle mode: same SBUF, semaphores, queues"
    );
}

/// The data phase of seed 001 §8's leg shape (core 3 → core 7, other die,
/// 128 partitions × `bytes` from 0x100000, engines 0x000F, broadcast
/// doorbells) in cycle mode on cores of the lockstep block `leg_seed`
/// (`pair::seed_params()`), measured as `sb2sb run sendrecv --mode rtl`
/// measures it on the Verilated pair: from the cycle the TX Q7 offers its
/// M2S doorbell (the broadcast TAIL_INC) to the cycle the RX core's
/// remote_sem is seen at the engine count, which the pair environment reads
/// through the debug port one cycle after the increment (+1 here).
/// Completion rings off: the pair environment's firmware configures none.
fn seed_core_data_cycles(bytes: u32) -> u64 {
    core_data_cycles(crate::pair::seed_params(), 0xF, bytes)
}

/// [`seed_core_data_cycles`] on the cores of parameters `p` with the engines
/// of `mask`, remote_sem seen at the engine count.
fn core_data_cycles(p: crate::pair::CoreParams, mask: u16, bytes: u32) -> u64 {
    let topo = Topology {
        sbuf_bytes_per_partition: p.sbuf_win_base + p.sbuf_part_bytes,
        ..Topology::seed_001_s8()
    };
    let mut sys = System::with_core(topo, p).unwrap();
    sys.st.completion_rings = false;
    sys.st.trace_on = true;
    let (src, dst) = (CoreId(3), CoreId(7));
    fill(&mut sys, src, 0x10_0000, bytes, 128, 1);
    let mut leg = SystemLeg::new(src, 0x10_0000, dst, 0x10_0000, bytes, 128);
    leg.engine_mask = mask;
    sys.cycle.sem_watch = Some(SemWatch {
        core: dst,
        sem: leg.remote_sem,
        target: mask.count_ones() as i32,
        reached: None,
    });
    sys.send_recv(&leg, Mode::Cycle).unwrap();
    verify(&sys, src, 0x10_0000, dst, 0x10_0000, bytes, 128);
    let tail_inc = map::CORE_BCAST_BASE as u32 + bcast::bcast_reg(0, 0, bcast::BCAST_TAIL_INC);
    let doorbell = sys
        .cycle
        .q7_log
        .iter()
        .find(|t| t.prog == "tx_launch" && t.write && t.addr == tail_inc)
        .expect("the TX launch's TAIL_INC")
        .issued;
    let seen = sys
        .cycle
        .sem_watch
        .and_then(|w| w.reached)
        .expect("remote_sem reached the engine count")
        + 1;
    seen - doorbell
}

/// The data phase of the same leg on the golden pair (the RTL's lockstep
/// twin) under the environment of `sb2sb run sendrecv --mode rtl`
/// (`LegEnv::single_with`: Q7 masters that drive every access at once;
/// `variations`: the lockstep runs' Q7 handshake variations instead), from
/// the TX doorbell to remote_sem seen at 4 ([`crate::pair::stim::LegMarks`]).
/// The SBUFs are not loaded (backdoor, nothing stored): the cycles do not
/// depend on the bytes.
fn pair_data_cycles(bytes: u32, variations: bool) -> u64 {
    pair_core_data_cycles(crate::pair::seed_params(), 0xF, bytes, variations)
}

/// [`pair_data_cycles`] on the golden pair of parameters `p` with the
/// engines of `mask`.
fn pair_core_data_cycles(
    p: crate::pair::CoreParams,
    mask: u16,
    bytes: u32,
    variations: bool,
) -> u64 {
    use crate::pair::stim::LegSpec;
    use crate::ports::{CycleModel, Stimulus};
    let l = LegSpec {
        tx: 0,
        mask,
        part_start: 0,
        part_count: 128,
        bytes,
        src_off: p.sbuf_win_base,
        dst_off: p.sbuf_win_base,
        local_sem: 12,
        remote_sem: 20,
        tx_first: false,
        ring_err: None,
        stall: None,
        bcast: true,
    };
    let place = crate::pair::top::PLACE_OTHER_DIE;
    let mut env = crate::pair::LegEnv::single_with(p, 1, u64::MAX, place, l).with_backdoor();
    if variations {
        env = env.with_q7_variations();
    }
    let mut pair = crate::pair::Pair::new(&p);
    let mut prev = None;
    for c in 0..10_000_000u64 {
        let i = env.next(c, prev.as_ref());
        prev = Some(pair.step(&i));
        let m = env.marks();
        if let (Some(db), Some(seen)) = (m.tx_doorbell, m.sem_reached) {
            return seen - db;
        }
    }
    panic!("the leg did not complete")
}

/// Issue 34 item 4: cycle mode equals the RTL where the RTL runs the shape.
/// The system built at the `leg_seed` block's parameters runs the §8 leg
/// shape through the same Q7 port, golden core and link as the Verilated
/// pair. Oracles: the RTL, copied by hand from `sb2sb run sendrecv --mode
/// rtl --bytes 1K` ("TX doorbell -> last remote_sem increment 1941
/// cycles") and `--mode rtl` (16 KiB: 17326 cycles; 64 KiB: 66478) on the
/// Verilated `leg_seed` block (256-bit data); and at every size the golden
/// pair under the same environment (a composition without the system's
/// fabric and Q7 executor). Under the lockstep's Q7 handshake variations
/// (AW and W apart, BREADY / RREADY low; that environment's random draws
/// also put the constant copy onto the TX core's own copy first) the golden
/// pair gives 66486 at 64 KiB, 66478 with the Q7 masters that drive every access at once, as cycle
/// mode's Q7 executor does (docs/system.md "Cycle mode equals the RTL").
/// Only the other-die placement is a shared shape: the pair's one link has
/// `LinkLatency` in every placement, the system's links scale it by link
/// class.
#[test]
fn cycle_mode_data_phase_at_the_leg_seed_core_equals_the_rtl() {
    assert_eq!(seed_core_data_cycles(1024), 1_941, "1 KiB per partition");
    assert_eq!(
        seed_core_data_cycles(16 * 1024),
        17_326,
        "16 KiB per partition"
    );
    assert_eq!(pair_data_cycles(64 * 1024, true), 66_486, "the RTL's run");
    for bytes in [1024, 16 * 1024, 64 * 1024] {
        assert_eq!(
            seed_core_data_cycles(bytes),
            pair_data_cycles(bytes, false),
            "{bytes} B per partition"
        );
    }
}

/// Issue 34 item 4 at 16 engines: the system at the `leg_seed16` block's
/// parameters (`pair::seed16_params()`, the system's 16 engines on the
/// seed-size SBUF) runs the §8 leg over all 16 engines (`--engine-mask
/// 0xFFFF`) in the RTL's data-phase cycles. Oracles: the RTL, copied by hand
/// from `sb2sb run sendrecv --mode rtl --engine-mask 0xFFFF [--bytes 64K]`
/// on the Verilated `leg_seed16` block ("TX doorbell -> last remote_sem
/// increment" 4601 cycles at 16 KiB per partition, 16889 at 64 KiB, before
/// the S2M overlap; not re-run since); and at every size the golden pair at
/// the same parameters under the `--mode rtl` environment (4482 and 16770
/// with the overlap; the `leg16` lockstep ties the golden engine to the
/// 16-engine RTL).
#[test]
fn cycle_mode_data_phase_at_sixteen_engines_equals_the_rtl() {
    let p = crate::pair::seed16_params();
    assert_eq!(core_data_cycles(p, 0xFFFF, 16 * 1024), 4_482, "16 KiB");
    assert_eq!(core_data_cycles(p, 0xFFFF, 64 * 1024), 16_770, "64 KiB");
    for bytes in [1024, 16 * 1024, 64 * 1024] {
        assert_eq!(
            core_data_cycles(p, 0xFFFF, bytes),
            pair_core_data_cycles(p, 0xFFFF, bytes, false),
            "{bytes} B per partition"
        );
    }
}

/// A system at a lockstep block's core: parameters outside what the golden
/// core and the topology hold, and legs naming an engine the core does not
/// have, are typed errors naming the field.
#[test]
fn with_core_checks_the_parameters_and_the_engines_of_a_leg() {
    let p = crate::pair::seed_params();
    let small = Topology {
        sbuf_bytes_per_partition: 64 * 1024,
        ..Topology::trn2(1)
    };
    let e = System::with_core(small.clone(), p)
        .err()
        .expect("window outside the partition");
    assert!(
        matches!(
            e,
            SystemError::CoreParams {
                field: "sbuf_part_bytes",
                ..
            }
        ),
        "{e}"
    );
    let three = CoreParams { engines: 3, ..p };
    let e = System::with_core(Topology::trn2(1), three.with_sbuf(1024))
        .err()
        .expect("3 engines");
    assert!(
        matches!(
            e,
            SystemError::CoreParams {
                field: "engines",
                ..
            }
        ),
        "{e}"
    );
    let narrow = CoreParams {
        data_bits: 64,
        ..p.with_sbuf(1024)
    };
    let e = System::with_core(Topology::trn2(1), narrow)
        .err()
        .expect("64-bit engines");
    assert!(
        matches!(
            e,
            SystemError::CoreParams {
                field: "data_bits",
                ..
            }
        ),
        "{e}"
    );
    // 4 engines per core: engine 4 does not exist.
    let mut sys = System::with_core(small, p.with_sbuf(4096)).unwrap();
    assert_eq!(sys.st.engines(), 4);
    assert_eq!(sys.st.layout().ring_len, COMPACT_RING_LEN);
    let leg = SystemLeg {
        engine_mask: 0x10,
        ..SystemLeg::new(CoreId(3), 0, CoreId(7), 0, 256, 8)
    };
    let e = sys.send_recv(&leg, Mode::Fast).unwrap_err();
    assert!(
        matches!(
            e,
            SystemError::Leg {
                field: "dma_engine_mask",
                value: 0x10,
                ..
            }
        ),
        "{e}"
    );
    assert!(sys.st.queue(CoreId(3), 4, 0, 0).is_err());
    // The four engines move a leg in both modes.
    for mode in [Mode::Fast, Mode::Cycle] {
        fill(&mut sys, CoreId(3), 0, 256, 8, 5);
        let leg = SystemLeg::new(CoreId(3), 0, CoreId(7), 1024, 256, 8);
        sys.send_recv(&leg, mode).unwrap();
        verify(&sys, CoreId(3), 0, CoreId(7), 1024, 256, 8);
        sys.wait_sem(CoreId(7), leg.remote_sem, 4, mode).unwrap();
        sys.wait_sem(CoreId(3), leg.local_sem, 4, mode).unwrap();
    }
}
