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
use sb2sb_model::collective::nccom::{fill_values, prepare, Config, Machine, Prepared};
use sb2sb_model::collective::{self, CollectiveOp};
use sb2sb_model::datapath::reduce::{recv_reduce, Dtype, ReduceOp};
use sb2sb_model::datapath::{copy, Features};
use sb2sb_model::isa::Arch;
use sb2sb_model::lower::target::LegReport;
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

const AG_RANKS: usize = 8;
const AG_SIZE: u64 = 16 << 20;

/// The all-gather's machines: the fast path on every thread (`p`) and on one
/// (`p1`), and the system model in fast mode (`ps`, configured by `sys_cfg`).
struct AllGather {
    cfg: Config,
    sys_cfg: Config,
    p: Prepared,
    p1: Prepared,
    ps: Prepared,
}

impl AllGather {
    fn prepare() -> AllGather {
        let cfg = Config {
            op: CollectiveOp::AllGather,
            ranks: AG_RANKS,
            min_bytes: AG_SIZE,
            max_bytes: AG_SIZE,
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
        let p1 = prepare(&cfg, AG_SIZE).expect("layout");
        collective::parallel::set_threads(0);
        let p = prepare(&cfg, AG_SIZE).expect("layout");
        eprintln!(
            "all_gather_8x16MiB/model on {} threads",
            collective::parallel::threads()
        );
        let sys_cfg = Config {
            machine: Machine::SystemFast,
            ..cfg
        };
        let ps = prepare(&sys_cfg, AG_SIZE).expect("layout (system model)");
        AllGather {
            cfg,
            sys_cfg,
            p,
            p1,
            ps,
        }
    }

    /// The fast path on every thread.
    fn model(&mut self) -> LegReport {
        let p = &mut self.p;
        collective::run(p.target.as_mut(), self.cfg.op, &p.members, 0, None).unwrap()
    }

    /// The fast path on one thread.
    fn model_1thread(&mut self) -> LegReport {
        let p = &mut self.p1;
        collective::run(p.target.as_mut(), self.cfg.op, &p.members, 0, None).unwrap()
    }

    /// The same all-gather as real rdma legs on the system model in fast mode.
    fn system_fast(&mut self) -> LegReport {
        let p = &mut self.ps;
        collective::run(p.target.as_mut(), self.sys_cfg.op, &p.members, 0, None).unwrap()
    }

    /// The same with the system model's byte moves on one thread.
    fn system_fast_1thread(&mut self) -> LegReport {
        collective::parallel::set_threads(1);
        let r = self.system_fast();
        collective::parallel::set_threads(0);
        r
    }
}

fn all_gather_8x16(c: &mut Criterion) {
    let mut ag = AllGather::prepare();
    // Bytes moved: (n − 1) steps × n legs × one block of SIZE / n.
    let moved = (AG_RANKS as u64 - 1) * AG_SIZE;
    let src = vec![1u8; moved as usize];
    let mut dst = vec![0u8; moved as usize];
    let mut g = c.benchmark_group("all_gather_8x16MiB");
    g.measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_secs(1))
        .sample_size(10);
    g.throughput(Throughput::Bytes(moved));
    g.bench_function("model", |b| b.iter(|| ag.model()));
    g.bench_function("model_1thread", |b| b.iter(|| ag.model_1thread()));
    g.bench_function("system_fast", |b| b.iter(|| ag.system_fast()));
    collective::parallel::set_threads(1);
    g.bench_function("system_fast_1thread", |b| b.iter(|| ag.system_fast()));
    collective::parallel::set_threads(0);
    g.bench_function("memcpy", |b| b.iter(|| dst.copy_from_slice(&src)));
    g.finish();
    if std::env::var_os("SB2SB_BENCH_NO_RATIOS").is_some() {
        return;
    }
    all_gather_ratios(&mut ag, &src, &mut dst);
}

/// Interleaved best-of-rounds (as in benches/datapath.rs): every candidate
/// once per round, in turn, so a burst of load on the shared machine hits
/// them alike; wall time (the 2-thread candidates need wall time).
fn all_gather_ratios(ag: &mut AllGather, src: &[u8], dst: &mut [u8]) {
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
                0 => ag.model(),
                1 => ag.model_1thread(),
                2 => ag.system_fast(),
                3 => ag.system_fast_1thread(),
                _ => {
                    dst.copy_from_slice(std::hint::black_box(src));
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
