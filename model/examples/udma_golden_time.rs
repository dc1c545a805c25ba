//! Golden UDMA engine speed: CPU time per cycle of the
//! golden engine alone over golden-driven inputs of the lockstep environment
//! (`UdmaEnv`, seed 1), per data width, outputs written in place
//! (`CycleModel::step_to`, as the lockstep steps it), plus an output hash (the same hash
//! on two builds = the same outputs on every cycle). Figures are for
//! comparing two builds on the same machine, not for docs.
//!
//! `cargo run --release -p sb2sb-model --example udma_golden_time [cycles] [rounds] [block]`

use sb2sb_model::cputime::thread_cpu_s;
use sb2sb_model::ports::{CycleModel, PortBundle, Stimulus};
use sb2sb_model::udma::{UdmaEngine, UdmaEnv, UdmaWidth, W128, W32, W64};
use std::hint::black_box;

/// (golden alone ns/cycle, best of rounds; hash of every cycle's outputs).
fn time<W: UdmaWidth>(cycles: u64, rounds: usize) -> (f64, u64) {
    let mut g = UdmaEngine::<W>::new();
    let mut s = UdmaEnv::<W>::new(1, cycles);
    let mut prev = None;
    let mut ins = Vec::with_capacity(cycles as usize);
    for c in 0..cycles {
        let i = s.next(c, prev.as_ref());
        prev = Some(g.step(&i));
        ins.push(i);
    }
    let mut ow = vec![0u64; <W::Out as PortBundle>::WORDS];
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut g = UdmaEngine::<W>::new();
    let mut o = W::Out::default();
    for i in &ins {
        g.step_to(i, &mut o);
        o.pack(&mut ow);
        for x in &ow {
            h = (h ^ x).wrapping_mul(0x100_0000_01b3);
        }
    }
    let mut best = f64::INFINITY;
    for _ in 0..rounds {
        let mut g = UdmaEngine::<W>::new();
        let mut o = W::Out::default();
        let t = thread_cpu_s();
        for i in &ins {
            // As the lockstep's golden side steps it (`step_to`).
            g.step_to(black_box(i), &mut o);
            black_box(&mut o);
        }
        best = best.min(thread_cpu_s() - t);
    }
    (best * 1e9 / cycles as f64, h)
}

fn main() {
    let mut a = std::env::args().skip(1);
    let cycles: u64 = a
        .next()
        .map(|x| x.parse().expect("cycles"))
        .unwrap_or(100_000);
    let rounds: usize = a.next().map(|x| x.parse().expect("rounds")).unwrap_or(5);
    let only = a.next();
    type Row = (&'static str, fn(u64, usize) -> (f64, u64));
    let rows: [Row; 3] = [
        ("udma_w32", time::<W32>),
        ("udma", time::<W64>),
        ("udma_w128", time::<W128>),
    ];
    for (b, f) in rows {
        if only.as_deref().is_some_and(|o| o != b) {
            continue;
        }
        let (g, h) = f(cycles, rounds);
        println!("{b:10} golden alone {g:7.1} ns/cycle   outputs {h:016x}");
    }
}
