//! UDMA throughput: golden model and Verilated RTL stepped over the same
//! recorded inputs (driver-style and random traffic), and a full lockstep run.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use sb2sb::lockstep::{self, Options};
use sb2sb::rtl::{RtlDut, XInit};
use sb2sb_model::ports::{CycleModel, Stimulus};
use sb2sb_model::udma::{Udma, UdmaIn, UdmaOut, UdmaStim, BLOCK};

const N: u64 = 100_000;

/// Inputs of a golden-driven run (valid for the RTL too: both agree).
fn inputs() -> Vec<UdmaIn> {
    let mut s = UdmaStim::new(1, N);
    let mut g = Udma::new();
    let mut prev: Option<UdmaOut> = None;
    (0..N)
        .map(|c| {
            let i = s.next(c, prev.as_ref());
            prev = Some(g.step(&i));
            i
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let ins = inputs();
    let mut g = c.benchmark_group("udma_step");
    g.throughput(Throughput::Elements(N));
    g.sample_size(10);
    g.bench_function("verilated_rtl", |b| {
        b.iter(|| {
            let mut d: RtlDut<UdmaIn, UdmaOut> = RtlDut::new(&BLOCK, 1, XInit::Zero).unwrap();
            for i in &ins {
                black_box(d.step(i));
            }
        })
    });
    g.bench_function("golden_model", |b| {
        b.iter(|| {
            let mut d = Udma::new();
            for i in &ins {
                black_box(d.step(i));
            }
        })
    });
    g.bench_function("lockstep_cycle", |b| {
        b.iter(|| {
            let o = Options {
                seed: 1,
                cycles: N,
                ..Options::default()
            };
            let r = lockstep::run(Udma::new(), UdmaStim::new(1, N), &BLOCK, &o).unwrap();
            assert!(r.passed());
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
