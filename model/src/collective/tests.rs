//! Ring collectives on the fast path against the independent reference.

use proptest::prelude::*;

use super::*;
use crate::collective::algo;
use crate::collective::nccom::fill_values;
use crate::isa::Arch;
use crate::lower::target::FlatTarget;
use crate::stim::StimRng;

#[allow(clippy::too_many_arguments)] // one test helper covering every shape knob
/// Run `op` on `n` ranks with buffers of `size` bytes laid out over
/// `parts` partitions at `offset`, and compare every expected byte.
fn check(
    op: CollectiveOp,
    n: usize,
    size: u64,
    parts: u32,
    offset: u64,
    channel: u16,
    red: Option<(Dtype, ReduceOp)>,
    seed: u64,
) {
    let mut t = FlatTarget::new(Arch::Cayman, n, 4096);
    let mut rng = StimRng::new(seed);
    let mut members = Vec::new();
    let mut inputs = Vec::new();
    for r in 0..n {
        // Vary the placement per rank so legs cut across different tilings.
        let p = parts - (r as u32 % 2) * (parts / 2).min(parts - 1);
        let p = if size.is_multiple_of(p as u64) {
            p
        } else {
            parts
        };
        let input = Layout {
            core: r,
            partition: r as u32 % 3,
            partitions: p,
            offset: offset + r as u64 * 8,
            size,
        };
        let output = op.needs_output().then_some(Layout {
            partition: 0,
            partitions: parts,
            offset: 2048,
            core: r,
            size,
        });
        let mut d = vec![0u8; size as usize];
        fill_values(&mut rng, red.map_or(Dtype::Int32, |x| x.0), &mut d);
        write_tensor(&mut t, &input, 0, &d).unwrap();
        members.push(Member {
            input,
            output,
            scratch: None,
        });
        inputs.push(d);
    }
    run(&mut t, op, &members, channel, red).unwrap();
    let ring = Ring::new(n, channel);
    for e in reference::expected(op, &inputs, &ring, red) {
        let m = &members[e.pos];
        let buf = if op.needs_output() {
            m.output.unwrap()
        } else {
            m.input
        };
        let got = read_tensor(&t, &buf, e.offset, e.bytes.len() as u64).unwrap();
        assert_eq!(
            got, e.bytes,
            "{op} n={n} size={size} channel={channel} {red:?} pos {}",
            e.pos
        );
    }
}

#[test]
fn all_reduce_is_bit_exact_in_ring_order_for_every_dtype_and_op() {
    for dtype in Dtype::ALL {
        for rop in ReduceOp::ALL {
            for n in [2, 3, 5, 8] {
                for ch in [0, 1] {
                    let size = (n * dtype.size() * 16) as u64;
                    check(
                        CollectiveOp::AllReduce,
                        n,
                        size,
                        16,
                        0,
                        ch,
                        Some((dtype, rop)),
                        n as u64,
                    );
                }
            }
        }
    }
}

#[test]
fn reduce_scatter_leaves_each_rank_its_reduced_block() {
    for dtype in Dtype::ALL {
        for n in [2, 4, 7] {
            let size = (n * dtype.size() * 12) as u64;
            check(
                CollectiveOp::ReduceScatter,
                n,
                size,
                4,
                16,
                0,
                Some((dtype, ReduceOp::Sum)),
                3,
            );
        }
    }
}

#[test]
fn all_gather_and_permute_and_sendrecv_move_bytes_exactly() {
    for n in [2, 3, 6] {
        check(
            CollectiveOp::AllGather,
            n,
            (n * 40) as u64,
            8,
            0,
            0,
            None,
            1,
        );
        check(
            CollectiveOp::AllGather,
            n,
            (n * 40) as u64,
            8,
            0,
            1,
            None,
            1,
        );
        check(CollectiveOp::Permute, n, 96, 8, 0, 0, None, 2);
        check(CollectiveOp::Permute, n, 96, 8, 0, 1, None, 2);
    }
    check(CollectiveOp::SendRecv, 4, 96, 8, 0, 0, None, 3);
}

#[test]
fn channel_1_is_the_reverse_ring() {
    let r = Ring::new(4, 1);
    assert_eq!(
        (0..4).map(|j| r.pos(j)).collect::<Vec<_>>(),
        vec![0, 3, 2, 1]
    );
    assert_eq!(r.index_of(3), 1);
}

#[test]
fn reducing_op_without_reduction_and_indivisible_sizes_are_errors() {
    let mut t = FlatTarget::new(Arch::Cayman, 2, 1024);
    let l = |core| Layout {
        core,
        partition: 0,
        partitions: 1,
        offset: 0,
        size: 10,
    };
    let m = [Member::in_place(l(0)), Member::in_place(l(1))];
    let e = run(&mut t, CollectiveOp::AllReduce, &m, 0, None).unwrap_err();
    assert!(
        e.to_string().contains("needs a dtype and a reduction"),
        "{e}"
    );
    let e = run(
        &mut t,
        CollectiveOp::AllReduce,
        &m,
        0,
        Some((Dtype::Fp32, ReduceOp::Sum)),
    )
    .unwrap_err();
    assert!(
        e.to_string().contains("does not split into 2 blocks"),
        "{e}"
    );
    let e = run(&mut t, CollectiveOp::Permute, &m, 0, None).unwrap_err();
    assert!(e.to_string().contains("needs an output buffer"), "{e}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn random_shapes_match_the_reference(n in 2usize..7, elems in 1u64..20, di in 0usize..4, oi in 0usize..3, ch in 0u16..2, seed in any::<u64>()) {
        let dtype = Dtype::ALL[di];
        let size = n as u64 * elems * dtype.size() as u64;
        check(CollectiveOp::AllReduce, n, size, 1, 0, ch, Some((dtype, ReduceOp::ALL[oi])), seed);
    }
}

/// Every byte of every core of a flat target.
fn images(t: &FlatTarget, cores: usize) -> Vec<Vec<u8>> {
    (0..cores)
        .map(|c| {
            (0..128u32)
                .flat_map(|p| t.read(c, p, 0, t.partition_bytes()).unwrap())
                .collect()
        })
        .collect()
}

/// Run `op` on a fresh `n`-core target with `threads` threads; every core image.
fn run_on_threads(
    op: CollectiveOp,
    n: usize,
    size: u64,
    pb: u64,
    red: Option<(Dtype, ReduceOp)>,
    threads: usize,
) -> Vec<Vec<u8>> {
    let mut t = FlatTarget::new(Arch::Cayman, n, pb);
    t.set_threads(threads);
    assert_eq!(t.threads(), threads);
    let mut rng = StimRng::new(7 + n as u64);
    let mut members = Vec::new();
    for r in 0..n {
        let input = Layout {
            core: r,
            partition: r as u32 % 3,
            partitions: 8,
            offset: 64,
            size,
        };
        let output = op.needs_output().then_some(Layout {
            partition: 16,
            partitions: 8,
            offset: 0,
            core: r,
            size,
        });
        let mut d = vec![0u8; size as usize];
        fill_values(&mut rng, red.map_or(Dtype::Int32, |x| x.0), &mut d);
        write_tensor(&mut t, &input, 0, &d).unwrap();
        members.push(Member {
            input,
            output,
            scratch: None,
        });
    }
    run(&mut t, op, &members, (n % 2) as u16, red).unwrap();
    images(&t, n)
}

/// The reductions a bit-identity test runs `op` with (none for a pure move):
/// every dtype, with sum, max and min among them.
fn reduce_cases(op: CollectiveOp) -> &'static [Option<(Dtype, ReduceOp)>] {
    if op.reduces() {
        &[
            Some((Dtype::Fp32, ReduceOp::Sum)),
            Some((Dtype::Bf16, ReduceOp::Sum)),
            Some((Dtype::Fp16, ReduceOp::Max)),
            Some((Dtype::Int32, ReduceOp::Min)),
        ]
    } else {
        &[None]
    }
}

/// Every (op, ranks, reduction, bytes) case of the bit-identity tests.
fn each_case(mut f: impl FnMut(CollectiveOp, usize, Option<(Dtype, ReduceOp)>, u64)) {
    for op in CollectiveOp::ALL {
        for n in [2usize, 5, 8] {
            if op == CollectiveOp::SendRecv && n % 2 == 1 {
                continue;
            }
            for &red in reduce_cases(op) {
                f(op, n, red, (n * 4 * 8 * 40) as u64);
            }
        }
    }
}

#[test]
fn parallel_collectives_are_bit_identical_to_serial() {
    each_case(|op, n, red, size| {
        let serial = run_on_threads(op, n, size, 4096, red, 1);
        for threads in [2, 3] {
            let par = run_on_threads(op, n, size, 4096, red, threads);
            assert!(
                serial == par,
                "{op} n={n} {red:?}: {threads} threads differ from serial"
            );
        }
    });
}

#[test]
fn parallel_streamed_all_gather_is_bit_identical_to_serial() {
    // 2 × 4 MiB per step: above the streaming threshold, so copies stream.
    let size = 8u64 << 20;
    let pb = 2u64 << 20;
    let serial = run_on_threads(CollectiveOp::AllGather, 2, size, pb, None, 1);
    let par = run_on_threads(CollectiveOp::AllGather, 2, size, pb, None, 2);
    assert!(serial == par, "streamed all-gather differs on 2 threads");
}

/// Run `op` on the system model in fast mode (`n` of 8 cores) with
/// `threads` move threads (`min_parallel`: smallest batch on threads);
/// every core's SBUF image and the modeled time.
fn run_system_on_threads(
    op: CollectiveOp,
    n: usize,
    size: u64,
    pb: u64,
    red: Option<(Dtype, ReduceOp)>,
    threads: usize,
    min_parallel: Option<u64>,
) -> (Vec<Vec<u8>>, u64) {
    use crate::lower::system_target::SystemTarget;
    use crate::system::{CoreId, Mode};
    let mut t = SystemTarget::new(Arch::Cayman, 1, 4, pb, Mode::Fast).unwrap();
    t.sys.set_threads(threads);
    t.sys.fast.movers.min_parallel = min_parallel;
    assert_eq!(t.sys.threads(), threads);
    let mut rng = StimRng::new(11 + n as u64);
    let mut members = Vec::new();
    // One rdma leg copies partition p to partition p: input and output on
    // the same partitions, at different offsets.
    let per_part = size / 8;
    for r in 0..n {
        let input = Layout {
            core: r,
            partition: 0,
            partitions: 8,
            offset: 64,
            size,
        };
        let output = op.needs_output().then_some(Layout {
            offset: 128 + per_part,
            ..input
        });
        let mut d = vec![0u8; size as usize];
        fill_values(&mut rng, red.map_or(Dtype::Int32, |x| x.0), &mut d);
        write_tensor(&mut t, &input, 0, &d).unwrap();
        members.push(Member {
            input,
            output,
            scratch: None,
        });
    }
    let rep = run(&mut t, op, &members, (n % 2) as u16, red).unwrap();
    let imgs = (0..8u16)
        .map(|c| t.sys.st.sbuf(CoreId(c)).unwrap().image())
        .collect();
    (imgs, rep.modeled_ns)
}

#[test]
fn fast_mode_threads_are_bit_identical_to_serial() {
    // The system model's fast mode (nccom's default path): every op, the
    // four dtypes, on 1, 2 and 3 move threads with every batch on threads.
    each_case(|op, n, red, size| {
        let serial = run_system_on_threads(op, n, size, 4096, red, 1, Some(0));
        // The run moved real bytes (random data, not an all-zero image).
        assert!(serial.0.iter().any(|i| i.iter().any(|&b| b != 0)));
        for threads in [2, 3] {
            let par = run_system_on_threads(op, n, size, 4096, red, threads, Some(0));
            assert!(
                serial.0 == par.0,
                "{op} n={n} {red:?}: {threads} threads differ from serial"
            );
            assert_eq!(serial.1, par.1, "modeled time does not depend on threads");
        }
    });
}

#[test]
fn fast_mode_streamed_all_gather_on_threads_is_bit_identical_to_serial() {
    // 8 ranks x 8 MiB: each step moves 8 legs x 1 MiB, above the streaming
    // threshold and the default parallel threshold.
    let (size, pb) = (8u64 << 20, (1u64 << 20) + 4096);
    let serial = run_system_on_threads(CollectiveOp::AllGather, 8, size, pb, None, 1, None);
    let par = run_system_on_threads(CollectiveOp::AllGather, 8, size, pb, None, 2, None);
    assert!(
        serial.0 == par.0,
        "streamed all-gather differs on 2 threads"
    );
    assert_eq!(serial.1, par.1);
}

#[allow(clippy::too_many_arguments)] // one test helper covering every shape knob
/// Run `op` with `algo` on the flat target (`n` ranks, buffers of `size`
/// bytes over `parts` partitions, scratch after the buffer), compare every
/// expected byte with the reference in `algo`'s order.
fn check_algo(
    op: CollectiveOp,
    algo: Algorithm,
    n: usize,
    size: u64,
    parts: u32,
    channel: u16,
    red: Option<(Dtype, ReduceOp)>,
    seed: u64,
) {
    let row = size / parts as u64;
    let slots = algo::scratch_slots(op, algo, n) as u64;
    let mut t = FlatTarget::new(Arch::Cayman, n, (row * (1 + slots)).max(64));
    let mut rng = StimRng::new(seed);
    let mut members = Vec::new();
    let mut inputs = Vec::new();
    for r in 0..n {
        let input = Layout {
            core: r,
            partition: 0,
            partitions: parts,
            offset: 0,
            size,
        };
        let scratch = (slots > 0).then_some(Layout {
            offset: row,
            ..input
        });
        let mut d = vec![0u8; size as usize];
        fill_values(&mut rng, red.map_or(Dtype::Int32, |x| x.0), &mut d);
        write_tensor(&mut t, &input, 0, &d).unwrap();
        members.push(Member {
            input,
            output: None,
            scratch,
        });
        inputs.push(d);
    }
    run_algo(&mut t, op, &members, channel, red, algo).unwrap();
    let ring = Ring::new(n, channel);
    for e in reference::expected_algo(op, &inputs, &ring, red, algo) {
        let got = read_tensor(&t, &members[e.pos].input, e.offset, e.bytes.len() as u64).unwrap();
        assert_eq!(
            got, e.bytes,
            "{op} {algo} n={n} size={size} channel={channel} {red:?} pos {}",
            e.pos
        );
    }
}

#[test]
fn mesh_and_rdh_are_bit_exact_in_their_order_for_every_dtype_and_op() {
    for algo in [Algorithm::Mesh, Algorithm::Rdh] {
        for dtype in Dtype::ALL {
            for rop in ReduceOp::ALL {
                for n in [2usize, 3, 4, 5, 8] {
                    if algo == Algorithm::Rdh && !n.is_power_of_two() {
                        continue;
                    }
                    for ch in [0, 1] {
                        for op in [CollectiveOp::AllReduce, CollectiveOp::ReduceScatter] {
                            let size = (n * dtype.size() * 16) as u64;
                            check_algo(op, algo, n, size, 16, ch, Some((dtype, rop)), n as u64);
                        }
                    }
                }
            }
        }
        for n in [2usize, 4, 6, 8, 16] {
            if algo == Algorithm::Rdh && !n.is_power_of_two() {
                continue;
            }
            check_algo(
                CollectiveOp::AllGather,
                algo,
                n,
                (n * 48) as u64,
                8,
                n as u16 % 2,
                None,
                5,
            );
        }
    }
}

#[test]
fn the_orders_differ_so_the_reference_follows_the_algorithm() {
    // fp32 sums over 8 ranks: ring, mesh and rdh give different bits for
    // some element, so a reference in the wrong order would fail above.
    let n = 8;
    let mut rng = StimRng::new(3);
    let inputs: Vec<Vec<u8>> = (0..n)
        .map(|_| {
            let mut d = vec![0u8; n * 4 * 64];
            fill_values(&mut rng, Dtype::Fp32, &mut d);
            d
        })
        .collect();
    let ring = Ring::new(n, 0);
    let red = Some((Dtype::Fp32, ReduceOp::Sum));
    let e: Vec<_> = Algorithm::ALL
        .iter()
        .map(|&a| {
            reference::expected_algo(CollectiveOp::AllReduce, &inputs, &ring, red, a)[0]
                .bytes
                .clone()
        })
        .collect();
    assert_ne!(e[0], e[1]);
    assert_ne!(e[0], e[2]);
    assert_ne!(e[1], e[2]);
}

#[test]
fn rdh_on_a_non_power_of_two_and_mesh_permute_are_typed_errors() {
    let mut t = FlatTarget::new(Arch::Cayman, 3, 1024);
    let m: Vec<Member> = (0..3)
        .map(|c| {
            Member::in_place(Layout {
                core: c,
                partition: 0,
                partitions: 1,
                offset: 0,
                size: 12,
            })
        })
        .collect();
    let e = run_algo(&mut t, CollectiveOp::AllGather, &m, 0, None, Algorithm::Rdh).unwrap_err();
    assert_eq!(
        e,
        CollectiveError::NotPowerOfTwo {
            op: CollectiveOp::AllGather,
            n: 3
        }
    );
    let e = run_algo(&mut t, CollectiveOp::Permute, &m, 0, None, Algorithm::Mesh).unwrap_err();
    assert!(matches!(e, CollectiveError::NotBlocked { .. }), "{e}");
    let red = Some((Dtype::Int32, ReduceOp::Sum));
    let e = run_algo(&mut t, CollectiveOp::AllReduce, &m, 0, red, Algorithm::Mesh).unwrap_err();
    assert!(e.to_string().contains("needs 2 scratch slots"), "{e}");
}

/// The system model (fast and cycle mode) gives the reference's bits for
/// every algorithm, op, dtype and reduction, on 4 ranks over two dies.
#[test]
fn every_algorithm_op_dtype_matches_on_the_system_model_fast_and_cycle() {
    use crate::collective::nccom::{run_size, Config, Machine};
    use algo::Choice;
    for machine in [Machine::SystemFast, Machine::SystemCycle] {
        for algo in Algorithm::ALL {
            for op in [
                CollectiveOp::AllGather,
                CollectiveOp::ReduceScatter,
                CollectiveOp::AllReduce,
            ] {
                for dtype in Dtype::ALL {
                    let rops: &[ReduceOp] = if op.reduces() {
                        &ReduceOp::ALL
                    } else {
                        &[ReduceOp::Sum]
                    };
                    for &reduce in rops {
                        let cfg = Config {
                            op,
                            ranks: 4,
                            min_bytes: 1024,
                            max_bytes: 1024,
                            factor: 2,
                            dtype,
                            reduce,
                            check: true,
                            channel: 0,
                            arch: Arch::Cayman,
                            seed: 9,
                            machine,
                            algorithm: Choice::Fixed(algo),
                        };
                        cfg.validate().unwrap();
                        for s in cfg.sizes() {
                            let row = run_size(&cfg, s).unwrap();
                            assert_eq!(row.verified, Some(true));
                            assert_eq!(row.algorithm, algo);
                            assert!(row.time_us > 0.0);
                        }
                    }
                }
            }
        }
    }
}

/// Seed 000 §6: a mesh step fans the primitive out to several peers, each
/// peer's completion on its own semaphore: on the system model every core
/// of an 8-rank mesh all-gather sends to 7 peers and receives from 7, each
/// (core, peer) on a distinct semaphore; a ring step uses one pair.
#[test]
fn mesh_fan_out_completes_each_peer_on_its_own_semaphore_seed000_s6() {
    use crate::lower::system_target::{SystemTarget, LEG_LOCAL_SEM, LEG_REMOTE_SEM};
    use crate::system::Mode;
    let n = 8;
    let mut t = SystemTarget::new(Arch::Cayman, 1, 4, 4096, Mode::Fast).unwrap();
    let members: Vec<Member> = (0..n)
        .map(|c| {
            Member::in_place(Layout {
                core: c,
                partition: 0,
                partitions: 8,
                offset: 0,
                size: 8 * 64,
            })
        })
        .collect();
    run_algo(
        &mut t,
        CollectiveOp::AllGather,
        &members,
        0,
        None,
        Algorithm::Mesh,
    )
    .unwrap();
    assert_eq!(t.last_sems.len(), n * (n - 1));
    for c in 0..n {
        let mut rx: Vec<u8> = t
            .last_sems
            .iter()
            .filter(|x| x.2 == c)
            .map(|x| x.3)
            .collect();
        let mut tx: Vec<u8> = t
            .last_sems
            .iter()
            .filter(|x| x.0 == c)
            .map(|x| x.1)
            .collect();
        rx.sort_unstable();
        tx.sort_unstable();
        assert_eq!(
            rx,
            (0..7)
                .map(|j| LEG_REMOTE_SEM - 2 * (6 - j))
                .collect::<Vec<u8>>()
        );
        assert_eq!(
            tx,
            (0..7)
                .map(|j| LEG_LOCAL_SEM - 2 * (6 - j))
                .collect::<Vec<u8>>()
        );
        // Every completion was waited for and taken back.
        for s in rx {
            assert_eq!(t.sem(c, s).unwrap(), 0);
        }
    }
    run_algo(
        &mut t,
        CollectiveOp::AllGather,
        &members,
        0,
        None,
        Algorithm::Ring,
    )
    .unwrap();
    assert!(t
        .last_sems
        .iter()
        .all(|x| x.1 == LEG_LOCAL_SEM && x.3 == LEG_REMOTE_SEM));
}
