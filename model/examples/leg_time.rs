//! CPU time per cycle of the leg
//! lockstep environment ([`LegEnv`]) and the golden pair ([`Pair`]) without
//! the Verilated RTL, like `env_golden_time` does for the other blocks. The
//! environment is driven by the golden pair (as in the lockstep); the pair is
//! then timed alone over the recorded inputs. Figures are for comparing two
//! builds of the model on the same machine, not for docs.
//!
//! `cargo run --release -p sb2sb-model --example leg_time [cycles] [rounds] [seed]`

use sb2sb_model::cputime::thread_cpu_s;
use sb2sb_model::pair::{LegEnv, Pair, PairIn};
use sb2sb_model::ports::{CycleModel, PortBundle, Stimulus};
use std::hint::black_box;

/// A command-line number, or `default` when absent.
fn arg<T: std::str::FromStr>(a: Option<String>, default: T, what: &str) -> T {
    match a {
        None => default,
        Some(s) => s.parse().unwrap_or_else(|_| {
            eprintln!("leg_time: {what} must be a number, got {s:?}");
            std::process::exit(2)
        }),
    }
}

fn main() {
    let mut a = std::env::args().skip(1);
    let cycles: u64 = arg(a.next(), 100_000, "cycles");
    let rounds: usize = arg(a.next(), 5, "rounds");
    let seed: u64 = arg(a.next(), 1, "seed");
    let mut best_env = f64::INFINITY;
    let mut best_g = f64::INFINITY;
    let mut ins: Vec<PairIn> = Vec::with_capacity(cycles as usize);
    for r in 0..rounds {
        let mut g = Pair::default();
        let mut s = LegEnv::new(seed, cycles);
        let mut w = vec![0u64; <PairIn as PortBundle>::WORDS];
        let mut ow = vec![0u64; <<Pair as CycleModel>::Out as PortBundle>::WORDS];
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
            }
            prev = Some(o);
        }
        best_env = best_env.min(thread_cpu_s() - t);
        let mut g = Pair::default();
        let t = thread_cpu_s();
        for i in &ins {
            black_box(g.step(i));
        }
        best_g = best_g.min(thread_cpu_s() - t);
    }
    let ns = |x: f64| x * 1e9 / cycles as f64;
    let (e, g) = (ns(best_env), ns(best_g));
    println!(
        "leg        env+golden+pack {e:7.1} ns/cycle   golden alone {g:7.1} ns/cycle   env+pack ≈ {:7.1}",
        e - g
    );
}
