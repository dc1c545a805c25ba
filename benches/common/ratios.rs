//! Interleaved lockstep ratios shared by `benches/lockstep.rs` and
//! `benches/udma.rs`: the Verilated RTL alone, the golden model alone and
//! the lockstep on one and two threads over the same cycles, run in turn,
//! round after round; each keeps its best round, so one burst of load on the
//! shared machine hits every candidate alike.
//!
//! The cost of a candidate is CPU time, not wall time: on the shared
//! 2-core machine (load average 12-17 while other sessions compile) a
//! process gets a fraction of a core and wall times measure the scheduler.
//! One thread: the thread's CPU time. Two threads: the critical path, the
//! larger of the two threads' CPU times (what the wall time is when each
//! thread has a core of its own); the handoff's own cost is inside both.
//! Criterion's own means (wall time) are printed above the table.
//!
//! The two cores of the development VM are not always independent: at
//! times a thread runs 1.3-1.6x slower while the other core is busy (a shell
//! busy loop on the other core slowed the Verilated evt_sem from 39 to 52 ms
//! per 100 000 cycles at one moment and not at all an hour later;
//! docs/performance.md § 4 "Two threads on this VM"). So the table also times the RTL alone while
//! the other core runs the block's golden side ([`cpu_beside_golden`]), the
//! baseline a two-thread lockstep meets on such a machine, and prints the
//! interference (that time over the idle one) beside the ratios.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use sb2sb_model::ports::{CycleModel, PortBundle, Stimulus};

/// CPU seconds of the calling thread spent in `f` (wall seconds where the
/// OS gives no per-thread CPU time).
pub fn cpu_of(f: impl FnOnce()) -> f64 {
    let t0 = Instant::now();
    let c0 = sb2sb::cputime::thread_cpu_ns();
    f();
    sb2sb::cputime::thread_cpu_s_since(c0).unwrap_or_else(|| t0.elapsed().as_secs_f64())
}

/// Cycles of a recorded run replayed per timing in [`cpu_replay`].
pub const REPLAY_CHUNK: usize = 8192;

/// CPU seconds of the calling thread spent in `step` over every recorded
/// input `ins`, replayed [`REPLAY_CHUNK`] cycles at a time, each chunk
/// copied (untimed) into a buffer just before it is timed, as the lockstep's
/// environment writes each cycle's inputs just before the model reads them.
///
/// Why: a recorded run is 8 MB (decoder, 80 B a cycle) to 23 MB (udma_w128,
/// 224 B) of inputs, and between one candidate's rounds the others evict it,
/// so a straight replay also timed reading the record from DRAM: on an
/// Intel Xeon the golden decoder read 12.8 ns a cycle with the
/// record evicted before each round against 9.7 ns without, the golden UDMA
/// 49 against 38 ns (docs/performance.md § 4). Both the RTL-alone and the
/// golden-alone candidates are timed so; the lockstep candidates need no
/// record. A chunk of 8192 cycles is at most 1.9 MB (udma_w128), inside one
/// core's L2, and the 2 × 13 timer calls cost ≈ 5 µs a run.
pub fn cpu_replay<I: Clone>(ins: &[I], mut step: impl FnMut(&I)) -> f64 {
    let mut buf: Vec<I> = Vec::with_capacity(REPLAY_CHUNK.min(ins.len()));
    let mut t = 0.0;
    for ch in ins.chunks(REPLAY_CHUNK) {
        buf.clear();
        buf.extend_from_slice(ch);
        t += cpu_of(|| {
            for i in &buf {
                step(i);
            }
        });
    }
    t
}

/// `f`'s own timing (CPU seconds of the calling thread, [`cpu_of`] or
/// [`cpu_replay`]) taken while another thread runs
/// the golden side of a lockstep of the same block, over and over: the
/// environment `S` (seed 1, `cycles`) driven by the golden model `golden()`,
/// inputs and outputs packed, as the lockstep's golden thread does.
pub fn cpu_beside_golden<G, S>(
    f: impl FnOnce() -> f64,
    golden: &(dyn Fn() -> G + Sync),
    cycles: u64,
) -> f64
where
    G: CycleModel<In = S::In, Out = S::Out>,
    S: Stimulus,
{
    let stop = AtomicBool::new(false);
    let started = AtomicBool::new(false);
    std::thread::scope(|sc| {
        sc.spawn(|| {
            let mut iw = vec![0u64; <S::In as PortBundle>::WORDS];
            let mut ow = vec![0u64; <S::Out as PortBundle>::WORDS];
            'runs: loop {
                let mut g = golden();
                let mut env = S::new(1, cycles);
                let mut prev: Option<S::Out> = None;
                for c in 0..cycles {
                    if c % 256 == 0 {
                        started.store(true, Ordering::Release);
                        if stop.load(Ordering::Relaxed) {
                            break 'runs;
                        }
                    }
                    let i = env.next(c, prev.as_ref());
                    let o = prev.get_or_insert_with(Default::default);
                    g.step_to(&i, o);
                    i.pack(&mut iw);
                    o.pack(&mut ow);
                    std::hint::black_box((&iw, &ow));
                }
            }
        });
        while !started.load(Ordering::Acquire) {
            std::hint::spin_loop();
        }
        let t = f();
        stop.store(true, Ordering::Relaxed);
        t
    })
}

/// Lockstep options of every bench run: seed 1, `cycles`, `threads`.
pub fn seed1_options(cycles: u64, threads: usize) -> sb2sb::lockstep::Options {
    sb2sb::lockstep::Options {
        seed: 1,
        cycles,
        threads,
        ..sb2sb::lockstep::Options::default()
    }
}

/// The cost of a lockstep run from its report (see the module docs).
pub fn lockstep_cost(r: &sb2sb::lockstep::Report) -> f64 {
    match (r.cpu_main_s, r.cpu_rtl_s) {
        (Some(m), Some(t)) => m.max(t),
        (Some(m), None) => m,
        _ => r.seconds,
    }
}

/// Best cost (seconds) of each candidate over `rounds` interleaved rounds.
pub fn interleaved(rounds: usize, cands: &mut [Box<dyn FnMut() -> f64 + '_>]) -> Vec<f64> {
    let mut best = vec![f64::INFINITY; cands.len()];
    for _ in 0..rounds {
        for (k, c) in cands.iter_mut().enumerate() {
            best[k] = best[k].min(c());
        }
    }
    best
}

/// Header of the ratio table.
pub const HEADER: &str = "\n## lockstep ratios (interleaved best-of-rounds, one run; cost = CPU time, 2 threads: the busier thread; speed = RTL-alone cost / cost)\n\n\
block | cycles | rounds | RTL alone | golden | lockstep 1 thread | lockstep 2 threads | golden speed | lockstep 1 speed | lockstep 2 speed | RTL alone, other core busy | interference | lockstep 2 speed vs busy RTL\n\
---|---|---|---|---|---|---|---|---|---|---|---|---\n";

/// One row from the times of [RTL alone, golden, lockstep 1 thread,
/// lockstep 2 threads, RTL alone beside the golden side].
pub fn row(block: &str, cycles: u64, rounds: usize, t: &[f64]) -> String {
    let ms = |x: f64| format!("{:.2} ms", x * 1e3);
    format!(
        "{block} | {cycles} | {rounds} | {} | {} | {} | {} | {:.2}× | {:.2}× | {:.2}× | {} | {:.2} | {:.2}×\n",
        ms(t[0]),
        ms(t[1]),
        ms(t[2]),
        ms(t[3]),
        t[0] / t[1],
        t[0] / t[2],
        t[0] / t[3],
        ms(t[4]),
        t[4] / t[0],
        t[4] / t[3]
    )
}

/// Print the rows gathered by a bench binary (at its end, after criterion's output).
pub fn print(rows: &str) {
    if !rows.is_empty() {
        println!("{HEADER}{rows}");
    }
}
