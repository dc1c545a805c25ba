//! CPU time per cycle of the
//! EVT_SEM lockstep environment and golden model, split: environment +
//! golden + pack (as in the lockstep), the environment alone (replaying the
//! recorded golden outputs), the golden model alone over the recorded
//! inputs, and the golden model on idle inputs (its cost in a quiet cycle,
//! as in most cycles of the leg). Figures are for comparing two builds on
//! the same machine, not for docs.
//!
//! `cargo run --release -p sb2sb-model --example evt_sem_time [cycles] [rounds]`

use sb2sb_model::cputime::thread_cpu_s;
use sb2sb_model::evt_sem::{EvtSem, EvtSemIn, EvtSemOut, EvtSemStim};
use sb2sb_model::ports::{CycleModel, PortBundle, Stimulus};
use std::hint::black_box;

fn main() {
    let mut a = std::env::args().skip(1);
    let cycles: u64 = a
        .next()
        .map(|x| x.parse().expect("cycles"))
        .unwrap_or(200_000);
    let rounds: usize = a.next().map(|x| x.parse().expect("rounds")).unwrap_or(5);
    // Parts to time besides env+golden (always run: the first round records):
    // bit 1 env alone, bit 2 golden alone, bit 3 golden idle. With one round,
    // the instruction count of parts `P` minus that of parts 0 is part `P`
    // alone (for `valgrind --tool=callgrind`).
    let parts: u32 = a.next().map(|x| x.parse().expect("parts")).unwrap_or(15);
    let mut ins: Vec<EvtSemIn> = Vec::with_capacity(cycles as usize);
    let mut outs: Vec<EvtSemOut> = Vec::with_capacity(cycles as usize);
    let mut best = [f64::INFINITY; 4];
    let idle = EvtSemIn::idle();
    for r in 0..rounds {
        let on = |b: u32| (parts >> b) & 1 == 1;
        // Environment + golden + pack (always: round 0 records).
        let mut g = EvtSem::new();
        let mut s = EvtSemStim::new(1, cycles);
        let mut w = vec![0u64; <EvtSemIn as PortBundle>::WORDS];
        let mut ow = vec![0u64; <EvtSemOut as PortBundle>::WORDS];
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
                outs.push(o);
            }
            prev = Some(o);
        }
        best[0] = best[0].min(thread_cpu_s() - t);
        if on(1) {
            // Environment alone, fed the recorded outputs.
            let mut s = EvtSemStim::new(1, cycles);
            let t = thread_cpu_s();
            for c in 0..cycles {
                let p = if c == 0 {
                    None
                } else {
                    Some(&outs[c as usize - 1])
                };
                black_box(s.next(c, p));
            }
            best[1] = best[1].min(thread_cpu_s() - t);
        }
        if on(2) {
            // Golden alone over the recorded inputs.
            let mut g = EvtSem::new();
            let t = thread_cpu_s();
            for i in &ins {
                black_box(g.step(i));
            }
            best[2] = best[2].min(thread_cpu_s() - t);
        }
        if on(3) {
            // Golden on idle inputs.
            let mut g = EvtSem::new();
            let t = thread_cpu_s();
            for _ in 0..cycles {
                black_box(g.step(black_box(&idle)));
            }
            best[3] = best[3].min(thread_cpu_s() - t);
        }
    }
    let ns = |x: f64| x * 1e9 / cycles as f64;
    println!(
        "evt_sem env+golden+pack {:6.1}  env alone {:6.1}  golden alone {:6.1}  golden idle {:5.1}  ns/cycle",
        ns(best[0]),
        ns(best[1]),
        ns(best[2]),
        ns(best[3])
    );
}
