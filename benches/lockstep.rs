//! Lockstep throughput: the golden decoder model against its Verilated RTL,
//! and a full lockstep cycle (both sides, twin stimulus, compare, history).
//! Report as ratios against the Verilated RTL measured in the same run.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use sb2sb::lockstep::{self, Options};
use sb2sb::rtl::{RtlDut, XInit};
use sb2sb_model::decoder::{Decoder, DecoderIn, DecoderOut, DecoderStim, BLOCK};
use sb2sb_model::ports::{CycleModel, Stimulus};

const N: u64 = 100_000;

fn inputs() -> Vec<DecoderIn> {
    let mut s = DecoderStim::new(1, N);
    (0..N).map(|c| s.next(c, None)).collect()
}

fn bench(c: &mut Criterion) {
    let ins = inputs();
    let mut g = c.benchmark_group("decoder_step");
    g.throughput(Throughput::Elements(N));
    g.sample_size(20);
    g.bench_function("verilated_rtl", |b| {
        let mut d: RtlDut<DecoderIn, DecoderOut> = RtlDut::new(&BLOCK, 1, XInit::Zero).unwrap();
        b.iter(|| {
            for i in &ins {
                black_box(d.step(i));
            }
        })
    });
    g.bench_function("golden_model", |b| {
        let mut d = Decoder::new();
        b.iter(|| {
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
            let r = lockstep::run(Decoder::new(), DecoderStim::new(1, N), &BLOCK, &o).unwrap();
            assert!(r.passed());
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
