//! UDMA throughput: golden model and Verilated RTL stepped over the same
//! recorded inputs (driver-style and random traffic), and a full lockstep run
//! (on one thread and on two),
//! at the default data width (block `udma`), at 128 bits (block `udma_w128`,
//! 16-beat S2M write bursts) and at 32 bits (block `udma_w32`).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use sb2sb::lockstep;
use sb2sb::rtl::{RtlDut, XInit};
use sb2sb_model::ports::{CycleModel, Stimulus};
use sb2sb_model::udma::{UdmaEngine, UdmaEnv, UdmaWidth, W128, W32, W64};

const N: u64 = 100_000;

#[path = "common/ratios.rs"]
mod ratios;

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

fn bench_width<W: UdmaWidth>(c: &mut Criterion, group: &str) -> String {
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
            let mut o = W::Out::default();
            for i in &ins {
                d.step_to(i, &mut o);
                black_box(&mut o);
            }
        })
    });
    for threads in [1usize, 2] {
        g.bench_function(format!("lockstep_{threads}_thread"), |b| {
            b.iter(|| {
                black_box(lockstep_seed1::<W>(threads));
            })
        });
    }
    g.finish();
    ratio_row::<W>(group.trim_end_matches("_step"), &ins)
}

/// One passing lockstep run of seed 1 over `N` cycles on `threads` threads.
fn lockstep_seed1<W: UdmaWidth>(threads: usize) -> lockstep::Report {
    let o = ratios::seed1_options(N, threads);
    let r = lockstep::run(
        UdmaEngine::<W>::new(),
        UdmaEnv::<W>::new(1, N),
        W::BLOCK,
        &o,
    )
    .unwrap();
    assert!(r.passed());
    r
}

/// Interleaved RTL alone / golden alone / lockstep 1 and 2 threads (see
/// `benches/common/ratios.rs`; `SB2SB_BENCH_NO_RATIOS` set: skipped).
fn ratio_row<W: UdmaWidth>(name: &str, ins: &[W::In]) -> String {
    if std::env::var_os("SB2SB_BENCH_NO_RATIOS").is_some() {
        return String::new();
    }
    let lock = |threads: usize| ratios::lockstep_cost(&lockstep_seed1::<W>(threads));
    let mut cands: Vec<Box<dyn FnMut() -> f64 + '_>> = vec![
        Box::new(|| {
            let mut d: RtlDut<W::In, W::Out> = RtlDut::new(W::BLOCK, 1, XInit::Zero).unwrap();
            ratios::cpu_replay(ins, |i| {
                black_box(d.step(i));
            })
        }),
        Box::new(|| {
            let mut d = UdmaEngine::<W>::new();
            let mut o = W::Out::default();
            ratios::cpu_replay(ins, |i| {
                d.step_to(i, &mut o);
                black_box(&mut o);
            })
        }),
        Box::new(|| lock(1)),
        Box::new(|| lock(2)),
        Box::new(|| {
            ratios::cpu_beside_golden::<UdmaEngine<W>, UdmaEnv<W>>(
                || {
                    let mut d: RtlDut<W::In, W::Out> =
                        RtlDut::new(W::BLOCK, 1, XInit::Zero).unwrap();
                    ratios::cpu_replay(ins, |i| {
                        black_box(d.step(i));
                    })
                },
                &UdmaEngine::<W>::new,
                N,
            )
        }),
    ];
    let rounds = 21;
    let t = ratios::interleaved(rounds, &mut cands);
    ratios::row(name, N, rounds, &t)
}

fn bench(c: &mut Criterion) {
    let mut rows = bench_width::<W64>(c, "udma_step");
    rows += &bench_width::<W128>(c, "udma_w128_step");
    rows += &bench_width::<W32>(c, "udma_w32_step");
    ratios::print(&rows);
}

criterion_group!(benches, bench);
criterion_main!(benches);
