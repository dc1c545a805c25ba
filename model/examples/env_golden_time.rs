//! CPU time per cycle of each
//! block's lockstep environment and golden model alone, without the
//! Verilated RTL (so it builds with the model crate only). The environment
//! is driven by the golden model (as in the lockstep); the golden model is
//! then timed alone over the recorded inputs. Figures are for comparing two
//! builds of the model on the same machine, not for docs.
//!
//! `cargo run --release -p sb2sb-model --example env_golden_time [cycles] [rounds] [block]`

use sb2sb_model::cputime::thread_cpu_s;
use sb2sb_model::decoder::{Decoder, DecoderStim};
use sb2sb_model::evt_sem::{EvtSem, EvtSemStim};
use sb2sb_model::ports::{CycleModel, PortBundle, Stimulus};
use sb2sb_model::udma::{UdmaEngine, UdmaEnv, W128, W32, W64};
use std::hint::black_box;

/// (environment + golden + pack ns/cycle, golden alone ns/cycle, environment
/// alone ns/cycle), best of rounds. The environment alone is replayed over
/// the golden outputs recorded in the first round (the same stream: the
/// environment sees the same outputs it saw when driving the golden model).
fn time<G: CycleModel<In = S::In, Out = S::Out>, S: Stimulus>(
    mk: impl Fn() -> G,
    cycles: u64,
    rounds: usize,
) -> (f64, f64, f64) {
    let mut best_env = f64::INFINITY;
    let mut best_g = f64::INFINITY;
    let mut best_e = f64::INFINITY;
    let mut ins = Vec::with_capacity(cycles as usize);
    let mut outs: Vec<S::Out> = Vec::with_capacity(cycles as usize);
    for r in 0..rounds {
        let mut g = mk();
        let mut s = S::new(1, cycles);
        let mut w = vec![0u64; <S::In as PortBundle>::WORDS];
        let mut ow = vec![0u64; <S::Out as PortBundle>::WORDS];
        let mut prev = None;
        let t = thread_cpu_s();
        for c in 0..cycles {
            let i = s.next(c, prev.as_ref());
            i.pack(&mut w);
            let o = g.step(&i);
            o.pack(&mut ow);
            black_box(&w);
            black_box(&ow);
            if r == 0 {
                ins.push(i);
                outs.push(o.clone());
            }
            prev = Some(o);
        }
        best_env = best_env.min(thread_cpu_s() - t);
        let mut g = mk();
        let t = thread_cpu_s();
        for i in &ins {
            black_box(g.step(i));
        }
        best_g = best_g.min(thread_cpu_s() - t);
        let mut s = S::new(1, cycles);
        let t = thread_cpu_s();
        for c in 0..cycles {
            let prev = c.checked_sub(1).map(|p| &outs[p as usize]);
            black_box(s.next(c, prev));
        }
        best_e = best_e.min(thread_cpu_s() - t);
    }
    let ns = |x: f64| x * 1e9 / cycles as f64;
    (ns(best_env), ns(best_g), ns(best_e))
}

/// One block's timing: (environment + golden + pack, golden alone,
/// environment alone) in ns per cycle.
type Timer<'a> = Box<dyn Fn() -> (f64, f64, f64) + 'a>;

fn main() {
    let mut a = std::env::args().skip(1);
    let cycles: u64 = a
        .next()
        .map(|x| x.parse().expect("cycles"))
        .unwrap_or(100_000);
    let rounds: usize = a.next().map(|x| x.parse().expect("rounds")).unwrap_or(5);
    let only = a.next();
    let rows: Vec<(&str, Timer)> = vec![
        (
            "decoder",
            Box::new(|| time::<_, DecoderStim>(Decoder::new, cycles, rounds)),
        ),
        (
            "evt_sem",
            Box::new(|| time::<_, EvtSemStim>(EvtSem::new, cycles, rounds)),
        ),
        (
            "udma_w32",
            Box::new(|| time::<_, UdmaEnv<W32>>(UdmaEngine::<W32>::new, cycles, rounds)),
        ),
        (
            "udma",
            Box::new(|| time::<_, UdmaEnv<W64>>(UdmaEngine::<W64>::new, cycles, rounds)),
        ),
        (
            "udma_w128",
            Box::new(|| time::<_, UdmaEnv<W128>>(UdmaEngine::<W128>::new, cycles, rounds)),
        ),
    ];
    for (b, f) in rows {
        if only.as_deref().is_some_and(|o| o != b) {
            continue;
        }
        let (e, g, ea) = f();
        println!("{b:10} env+golden+pack {e:7.1} ns/cycle   golden alone {g:7.1} ns/cycle   env+pack ≈ {:7.1}   env alone {ea:7.1}", e - g);
    }
}
