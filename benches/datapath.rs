//! Datapath benchmarks (criterion), all in one run so the ratios compare
//! like with like:
//! - `copy/<size>/<kernel>`: each copy kernel vs `copy_from_slice` (memcpy);
//! - `reduce/<dtype>/<size>/<kernel>`: each fused receive-reduce kernel (sum)
//!   vs the calibrated `dispatch`;
//! - `leg/28MiB`: a full 128 × 224 KiB SBUF→SBUF leg in fast mode (16
//!   engines, cross-die) vs `memcpy/28MiB` of the same bytes;
//! - prints (first, before other allocations) the resident memory of an 8-core 2-die system with 28 MiB
//!   SBUFs against the SBUF bytes.
//!
//! Run: `cargo bench --bench datapath` (short measurement times).

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use sb2sb_model::datapath::reduce::{self, recv_reduce, recv_reduce_with, Dtype, ReduceOp};
use sb2sb_model::datapath::{copy_with, plan, CopyKernel, Features};
use sb2sb_model::system::{CoreId, LegSpec, Mode, System, Topology};

fn bench_copy(c: &mut Criterion) {
    let f = Features::get();
    eprintln!(
        "datapath features: {f:?}, best copy kernel {:?}",
        f.best_copy()
    );
    let mut g = c.benchmark_group("copy");
    g.warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(800))
        .sample_size(20);
    for size in [4usize << 10, 64 << 10, 1 << 20, 28 << 20] {
        let src: Vec<u8> = (0..size).map(|i| i as u8).collect();
        let mut dst = vec![0u8; size];
        g.throughput(Throughput::Bytes(size as u64));
        g.bench_with_input(BenchmarkId::new("memcpy", size), &size, |b, _| {
            b.iter(|| dst.copy_from_slice(black_box(&src)))
        });
        for k in [CopyKernel::Avx2, CopyKernel::Avx512] {
            if f.supports(k) {
                g.bench_with_input(BenchmarkId::new(format!("{k:?}"), size), &size, |b, _| {
                    b.iter(|| copy_with(k, &mut dst, black_box(&src)).unwrap())
                });
            }
        }
        g.bench_with_input(BenchmarkId::new("dispatch", size), &size, |b, _| {
            b.iter(|| sb2sb_model::datapath::copy(&mut dst, black_box(&src)).unwrap())
        });
    }
    g.finish();
}

fn bench_reduce(c: &mut Criterion) {
    let mut g = c.benchmark_group("reduce");
    g.warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_millis(500))
        .sample_size(15);
    for dtype in Dtype::ALL {
        for size in [4usize << 10, 64 << 10, 1 << 20, 28 << 20] {
            // Ordinary values (1.0 and 0.0): no denormals, constant-time lanes.
            let one: Vec<u8> = match dtype {
                Dtype::Fp32 => 1.0f32.to_le_bytes().to_vec(),
                Dtype::Bf16 => vec![0x80, 0x3F],
                Dtype::Fp16 => vec![0x00, 0x3C],
                Dtype::Int32 => vec![1, 0, 0, 0],
            };
            let mut acc: Vec<u8> = one.iter().copied().cycle().take(size).collect();
            let inc = vec![0u8; size];
            g.throughput(Throughput::Bytes(size as u64));
            for k in reduce::Kernel::supported() {
                if k == reduce::Kernel::Scalar {
                    continue;
                }
                g.bench_with_input(
                    BenchmarkId::new(format!("{dtype}/{k:?}"), size),
                    &size,
                    |b, _| {
                        b.iter(|| {
                            recv_reduce_with(k, &mut acc, black_box(&inc), dtype, ReduceOp::Sum)
                                .unwrap()
                        })
                    },
                );
            }
            g.bench_with_input(
                BenchmarkId::new(format!("{dtype}/dispatch"), size),
                &size,
                |b, _| {
                    b.iter(|| recv_reduce(&mut acc, black_box(&inc), dtype, ReduceOp::Sum).unwrap())
                },
            );
        }
    }
    g.finish();
    eprintln!("{}", plan::report());
}

fn vm_rss_kib() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let l = s.lines().find(|l| l.starts_with("VmRSS:"))?;
    l.split_whitespace().nth(1)?.parse().ok()
}

fn bench_leg(c: &mut Criterion) {
    let topo = Topology::trn2(1);
    let bpp = topo.sbuf_bytes_per_partition;
    let total = topo.sbuf_bytes();
    let before = vm_rss_kib();
    let mut sys = System::new(topo).expect("topology");
    // Touch every SBUF byte of all 8 cores (28 MiB each).
    let row: Vec<u8> = (0..bpp).map(|i| (i % 251) as u8).collect();
    for core in 0..8u16 {
        for p in 0..128u8 {
            sys.write_sbuf(CoreId(core), p, 0, &row).expect("fill");
        }
    }
    let leg = LegSpec {
        engine_mask: 0xFFFF,
        ..LegSpec::new(CoreId(0), 0, CoreId(4), 0, bpp, 128)
    };
    sys.send_recv(&leg, Mode::Fast).expect("leg");
    if let (Some(b), Some(a)) = (before, vm_rss_kib()) {
        let sbuf = 8 * total;
        eprintln!(
            "peak memory: 8-core 2-die system, 28 MiB SBUFs: +{} MiB resident for {} MiB of SBUF (ratio {:.3}); model allocations {} MiB",
            (a - b) / 1024,
            sbuf >> 20,
            ((a - b) * 1024) as f64 / sbuf as f64,
            sys.allocated_bytes() >> 20
        );
    }
    let mut g = c.benchmark_group("leg");
    g.warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(10);
    g.throughput(Throughput::Bytes(total));
    g.bench_function("fast_28MiB", |b| {
        b.iter(|| sys.send_recv(black_box(&leg), Mode::Fast).expect("leg"))
    });
    let src = vec![1u8; total as usize];
    let mut dst = vec![0u8; total as usize];
    g.bench_function("memcpy_28MiB", |b| {
        b.iter(|| dst.copy_from_slice(black_box(&src)))
    });
    g.finish();
}

criterion_group!(benches, bench_leg, bench_copy, bench_reduce);
criterion_main!(benches);
