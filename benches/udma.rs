//! UDMA throughput: golden model and Verilated RTL stepped over the same
//! recorded inputs (driver-style and random traffic), and a full lockstep run
//! (on one thread and on two),
//! at the default data width (block `udma`) and at 128 bits (block `udma_w128`,
//! 16-beat S2M write bursts).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use sb2sb::lockstep::{self, Options};
use sb2sb::rtl::{RtlDut, XInit};
use sb2sb_model::ports::{CycleModel, Stimulus};
use sb2sb_model::udma::{UdmaEngine, UdmaEnv, UdmaWidth, W128, W64};

const N: u64 = 100_000;

/// Inputs of a golden-driven run (valid for the RTL too: both agree).
fn inputs<W: UdmaWidth>() -> Vec<W::In> {
    let mut s = UdmaEnv::<W>::new(1, N);
    let mut g = UdmaEngine::<W>::new();
    let mut prev: Option<W::Out> = None;
    (0..N)
        .map(|c| {
            let i = s.next(c, prev.as_ref());
            prev = Some(g.step(&i));
            i
        })
        .collect()
}

fn bench_width<W: UdmaWidth>(c: &mut Criterion, group: &str) {
    let ins = inputs::<W>();
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Elements(N));
    g.sample_size(10);
    g.bench_function("verilated_rtl", |b| {
        b.iter(|| {
            let mut d: RtlDut<W::In, W::Out> = RtlDut::new(W::BLOCK, 1, XInit::Zero).unwrap();
            for i in &ins {
                black_box(d.step(i));
            }
        })
    });
    g.bench_function("golden_model", |b| {
        b.iter(|| {
            let mut d = UdmaEngine::<W>::new();
            for i in &ins {
                black_box(d.step(i));
            }
        })
    });
    for threads in [1usize, 2] {
        g.bench_function(format!("lockstep_{threads}_thread"), |b| {
            b.iter(|| {
                let o = Options {
                    seed: 1,
                    cycles: N,
                    threads,
                    ..Options::default()
                };
                let r = lockstep::run(
                    UdmaEngine::<W>::new(),
                    UdmaEnv::<W>::new(1, N),
                    W::BLOCK,
                    &o,
                )
                .unwrap();
                assert!(r.passed());
            })
        });
    }
    g.finish();
}

fn bench(c: &mut Criterion) {
    bench_width::<W64>(c, "udma_step");
    bench_width::<W128>(c, "udma_w128_step");
}

criterion_group!(benches, bench);
criterion_main!(benches);
