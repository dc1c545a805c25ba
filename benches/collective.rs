//! Collective datapath benchmarks (docs/collectives.md §Benchmarks).
//!
//! - `recv_reduce_bf16`: fused receive-reduce vs copy-then-add in two passes.
//! - `all_gather_8x16MiB`: 8-rank ring all-gather, 16 MiB output per rank, on
//!   the fast path (`model`: every hardware thread; `model_1thread`: serial)
//!   vs `copy_from_slice` of the same bytes; `system_fast`: the same as real
//!   rdma legs on the system model in fast mode (byte moves on every
//!   hardware thread, each leg's moves in flight on helper threads while
//!   the next legs' control runs), `system_fast_1thread`: its moves on one
//!   thread, after the control.
//!
//! Run: `cargo bench --bench collective`.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use sb2sb_model::collective::nccom::{fill_values, prepare, Config, Machine};
use sb2sb_model::collective::{self, CollectiveOp};
use sb2sb_model::datapath::reduce::{recv_reduce, Dtype, ReduceOp};
use sb2sb_model::datapath::{copy, Features};
use sb2sb_model::isa::Arch;
use sb2sb_model::stim::StimRng;

fn recv_reduce_bf16(c: &mut Criterion) {
    let mut g = c.benchmark_group("recv_reduce_bf16");
    g.measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_secs(1))
        .sample_size(20);
    eprintln!("datapath features: {:?}", Features::get());
    for size in [256 << 10, 16 << 20] {
        let mut rng = StimRng::new(1);
        let mut incoming = vec![0u8; size];
        fill_values(&mut rng, Dtype::Bf16, &mut incoming);
        let mut acc = vec![0u8; size];
        fill_values(&mut rng, Dtype::Bf16, &mut acc);
        let mut staging = vec![0u8; size];
        g.throughput(Throughput::Bytes(size as u64));
        g.bench_with_input(BenchmarkId::new("fused", size), &size, |b, _| {
            b.iter(|| recv_reduce(&mut acc, &incoming, Dtype::Bf16, ReduceOp::Sum).unwrap())
        });
        g.bench_with_input(BenchmarkId::new("copy_then_add", size), &size, |b, _| {
            b.iter(|| {
                copy(&mut staging, &incoming).unwrap();
                recv_reduce(&mut acc, &staging, Dtype::Bf16, ReduceOp::Sum).unwrap()
            })
        });
    }
    g.finish();
}

fn all_gather_8x16(c: &mut Criterion) {
    const RANKS: usize = 8;
    const SIZE: u64 = 16 << 20;
    let cfg = Config {
        op: CollectiveOp::AllGather,
        ranks: RANKS,
        min_bytes: SIZE,
        max_bytes: SIZE,
        factor: 2,
        dtype: Dtype::Bf16,
        reduce: ReduceOp::Sum,
        check: false,
        channel: 0,
        arch: Arch::Cayman,
        seed: 1,
        machine: Machine::Flat,
        algorithm: collective::algo::Choice::Fixed(collective::Algorithm::Ring),
    };
    collective::parallel::set_threads(1);
    let mut p1 = prepare(&cfg, SIZE).expect("layout");
    collective::parallel::set_threads(0);
    let mut p = prepare(&cfg, SIZE).expect("layout");
    eprintln!(
        "all_gather_8x16MiB/model on {} threads",
        collective::parallel::threads()
    );
    let sys_cfg = Config {
        machine: Machine::SystemFast,
        ..cfg
    };
    let mut ps = prepare(&sys_cfg, SIZE).expect("layout (system model)");
    // Bytes moved: (n − 1) steps × n legs × one block of SIZE / n.
    let moved = (RANKS as u64 - 1) * SIZE;
    let mut g = c.benchmark_group("all_gather_8x16MiB");
    g.measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_secs(1))
        .sample_size(10);
    g.throughput(Throughput::Bytes(moved));
    g.bench_function("model", |b| {
        b.iter(|| collective::run(p.target.as_mut(), cfg.op, &p.members, 0, None).unwrap())
    });
    g.bench_function("model_1thread", |b| {
        b.iter(|| collective::run(p1.target.as_mut(), cfg.op, &p1.members, 0, None).unwrap())
    });
    // The same all-gather as real rdma legs on the system model in fast mode.
    g.bench_function("system_fast", |b| {
        b.iter(|| collective::run(ps.target.as_mut(), sys_cfg.op, &ps.members, 0, None).unwrap())
    });
    // The same with the system model's byte moves on one thread.
    collective::parallel::set_threads(1);
    g.bench_function("system_fast_1thread", |b| {
        b.iter(|| collective::run(ps.target.as_mut(), sys_cfg.op, &ps.members, 0, None).unwrap())
    });
    collective::parallel::set_threads(0);
    let src = vec![1u8; moved as usize];
    let mut dst = vec![0u8; moved as usize];
    g.bench_function("memcpy", |b| b.iter(|| dst.copy_from_slice(&src)));
    g.finish();
    if std::env::var_os("SB2SB_BENCH_NO_RATIOS").is_some() {
        return;
    }
    // Interleaved best-of-rounds (as in benches/datapath.rs): every candidate
    // once per round, in turn, so a burst of load on the shared machine hits
    // them alike; wall time (the 2-thread candidates need wall time).
    let rounds = 9;
    let names = [
        "model (flat, every thread)",
        "model_1thread",
        "system_fast (every thread)",
        "system_fast_1thread",
        "memcpy (1 thread)",
    ];
    let mut best = [f64::INFINITY; 5];
    for _ in 0..rounds {
        for (k, b) in best.iter_mut().enumerate() {
            let t0 = std::time::Instant::now();
            match k {
                0 => collective::run(p.target.as_mut(), cfg.op, &p.members, 0, None).unwrap(),
                1 => collective::run(p1.target.as_mut(), cfg.op, &p1.members, 0, None).unwrap(),
                2 => collective::run(ps.target.as_mut(), sys_cfg.op, &ps.members, 0, None).unwrap(),
                3 => {
                    collective::parallel::set_threads(1);
                    let r = collective::run(ps.target.as_mut(), sys_cfg.op, &ps.members, 0, None)
                        .unwrap();
                    collective::parallel::set_threads(0);
                    r
                }
                _ => {
                    dst.copy_from_slice(std::hint::black_box(&src));
                    Default::default()
                }
            };
            *b = b.min(t0.elapsed().as_secs_f64());
        }
    }
    println!(
        "\n## all-gather ratios (8 ranks x 16 MiB, interleaved best of {rounds} rounds, wall; ratio = time / memcpy time, target <= 0.7 on 2 threads)\n"
    );
    for (n, t) in names.iter().zip(best) {
        println!("{n} | {:.2} ms | {:.2}x", t * 1e3, t / best[4]);
    }
}

criterion_group!(benches, recv_reduce_bf16, all_gather_8x16);
criterion_main!(benches);
