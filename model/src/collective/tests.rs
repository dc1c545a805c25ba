//! Ring collectives on the fast path against the independent reference.

use proptest::prelude::*;

use super::*;
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
        members.push(Member { input, output });
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
    let m = [
        Member {
            input: l(0),
            output: None,
        },
        Member {
            input: l(1),
            output: None,
        },
    ];
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
        members.push(Member { input, output });
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
    t.sys.movers.min_parallel = min_parallel;
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
        members.push(Member { input, output });
    }
    let rep = run(&mut t, op, &members, (n % 2) as u16, red).unwrap();
    let imgs = (0..8u16)
        .map(|c| t.sys.sbuf(CoreId(c)).unwrap().image())
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
