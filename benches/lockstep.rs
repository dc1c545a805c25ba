//! Lockstep throughput per block (decoder, evt_sem, leg, system): the golden
//! model alone and the Verilated RTL alone on the same recorded inputs, and
//! the full lockstep (environment, both sides, compare, history) on one
//! thread and on two (golden side and RTL side on their own threads). Read
//! the figures as ratios against the Verilated RTL measured in the same run.
//!
//! `cargo bench --bench lockstep` (or `make bench`).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use sb2sb::lockstep;
use sb2sb::rtl::{RtlDut, XInit};
use sb2sb_model::ports::{BlockDesc, CycleModel, Stimulus};
use sb2sb_model::{decoder, evt_sem};

const N: u64 = 100_000;

#[path = "common/ratios.rs"]
mod ratios;

/// Rows of the interleaved ratio table, printed at the end.
static ROWS: std::sync::Mutex<String> = std::sync::Mutex::new(String::new());

/// Interleaved timing of RTL alone, golden alone, lockstep on 1 and 2 threads
/// (`SB2SB_BENCH_NO_RATIOS` set: skipped).
fn ratio_row<G, S>(
    name: &str,
    desc: &'static BlockDesc,
    golden: &(dyn Fn() -> G + Sync),
    ins: &[S::In],
    rounds: usize,
) where
    G: CycleModel<In = S::In, Out = S::Out> + Clone,
    S: Stimulus,
{
    if std::env::var_os("SB2SB_BENCH_NO_RATIOS").is_some() {
        return;
    }
    let mut rtl: RtlDut<S::In, S::Out> = RtlDut::new(desc, 1, XInit::Zero).unwrap();
    let mut rtl_b: RtlDut<S::In, S::Out> = RtlDut::new(desc, 1, XInit::Zero).unwrap();
    let lock = |threads: usize| {
        let o = ratios::seed1_options(N, threads);
        let r = lockstep::run(golden(), S::new(1, N), desc, &o).unwrap();
        assert!(r.passed());
        ratios::lockstep_cost(&r)
    };
    let mut cands: Vec<Box<dyn FnMut() -> f64 + '_>> = vec![
        Box::new(|| {
            ratios::cpu_replay(ins, |i| {
                black_box(rtl.step(i));
            })
        }),
        Box::new(|| {
            let mut d = golden();
            let mut o = S::Out::default();
            ratios::cpu_replay(ins, |i| {
                d.step_to(i, &mut o);
                black_box(&mut o);
            })
        }),
        Box::new(|| lock(1)),
        Box::new(|| lock(2)),
        Box::new(|| {
            ratios::cpu_beside_golden::<G, S>(
                || {
                    ratios::cpu_replay(ins, |i| {
                        black_box(rtl_b.step(i));
                    })
                },
                golden,
                N,
            )
        }),
    ];
    let t = ratios::interleaved(rounds, &mut cands);
    ROWS.lock()
        .unwrap()
        .push_str(&ratios::row(name, N, rounds, &t));
}

/// Inputs of an `n`-cycle run, driven by the golden model's outputs.
fn record<G: CycleModel<In = S::In, Out = S::Out>, S: Stimulus>(mut g: G, mut s: S) -> Vec<S::In> {
    let mut prev = None;
    (0..N)
        .map(|c| {
            let i = s.next(c, prev.as_ref());
            prev = Some(g.step(&i));
            i
        })
        .collect()
}

fn block<G, S>(c: &mut Criterion, desc: &'static BlockDesc, golden: impl Fn() -> G + Copy + Sync)
where
    G: CycleModel<In = S::In, Out = S::Out> + Clone,
    S: Stimulus,
{
    let ins = record(golden(), S::new(1, N));
    let mut g = c.benchmark_group(format!("{}_step", desc.name));
    g.throughput(Throughput::Elements(N));
    g.sample_size(10);
    g.bench_function("verilated_rtl", |b| {
        let mut d: RtlDut<S::In, S::Out> = RtlDut::new(desc, 1, XInit::Zero).unwrap();
        b.iter(|| {
            for i in &ins {
                black_box(d.step(i));
            }
        })
    });
    g.bench_function("golden_model", |b| {
        let mut d = golden();
        let mut o = S::Out::default();
        b.iter(|| {
            for i in &ins {
                d.step_to(i, &mut o);
                black_box(&mut o);
            }
        })
    });
    for threads in [1usize, 2] {
        g.bench_function(format!("lockstep_{threads}_thread"), |b| {
            b.iter(|| {
                let o = ratios::seed1_options(N, threads);
                let r = lockstep::run(golden(), S::new(1, N), desc, &o).unwrap();
                assert!(r.passed());
            })
        });
    }
    g.finish();
    ratio_row::<G, S>(desc.name, desc, &golden, &ins, 21);
}

fn bench(c: &mut Criterion) {
    block::<_, decoder::DecoderStim>(c, &decoder::BLOCK, decoder::Decoder::new);
    block::<_, evt_sem::EvtSemStim>(c, &evt_sem::BLOCK, evt_sem::EvtSem::new);
    leg(c);
    // Block `system`: four cores and the fabric (docs/system-rtl.md), the
    // Verilated system alone against its golden twin and the lockstep.
    block::<_, sb2sb_model::pair::sys_stim::SysEnv>(
        c,
        &sb2sb_model::pair::system::BLOCK,
        sb2sb_model::pair::system::SysTop::default,
    );
    nccom_rtl(c);
    ratios::print(&ROWS.lock().unwrap());
}

/// `sb2sb nccom all_gather -r 4 --check` at 64 KiB per rank (12 legs in 3
/// ring steps, checked against the reference), the whole size as the
/// command runs it: cycle mode at `--config coll` alone (the baseline),
/// with the golden system top clocked beside it, and with the Verilated
/// block `system_coll` beside it (`--mode rtl`; skipped, saying so, in a
/// build without the block).
fn nccom_rtl(c: &mut Criterion) {
    use sb2sb::sys_target::{golden_target, rtl_target};
    use sb2sb_model::collective::algo::{Algorithm, Choice};
    use sb2sb_model::collective::nccom::{run_size_on, Config, Machine};
    use sb2sb_model::collective::CollectiveOp;
    use sb2sb_model::datapath::reduce::{Dtype, ReduceOp};
    use sb2sb_model::isa::Arch;
    use sb2sb_model::lower::system_target::SystemTarget;
    use sb2sb_model::lower::Target;
    use sb2sb_model::pair::system::SysParams;
    use sb2sb_model::system::Mode;
    let size = 64 << 10;
    let cfg = |machine| Config {
        op: CollectiveOp::AllGather,
        ranks: 4,
        min_bytes: size,
        max_bytes: size,
        factor: 2,
        dtype: Dtype::Fp32,
        reduce: ReduceOp::Sum,
        check: true,
        channel: 0,
        arch: Arch::Cayman,
        seed: 1,
        machine,
        algorithm: Choice::Fixed(Algorithm::Ring),
    };
    let run = |machine, t: Box<dyn Target>| {
        let row = run_size_on(&cfg(machine), size, t).unwrap();
        assert!(row.verified == Some(true));
        black_box(row);
    };
    let mut g = c.benchmark_group("nccom_all_gather_4x64KiB");
    g.sample_size(10);
    g.bench_function("cycle_mode_coll", |b| {
        b.iter(|| {
            let t = SystemTarget::with_params(Arch::Cayman, SysParams::COLL, Mode::Cycle).unwrap();
            run(Machine::SystemCycle, Box::new(t));
        })
    });
    g.bench_function("cycle_mode_beside_golden_system_top", |b| {
        b.iter(|| run(Machine::Rtl, Box::new(golden_target(Arch::Cayman).unwrap())))
    });
    // The probe's Verilated top is dropped before the runs build theirs
    // (one Verilated model of the block alive at a time).
    match rtl_target(Arch::Cayman).map(drop) {
        Ok(()) => {
            g.bench_function("rtl_mode_beside_verilated_system_top", |b| {
                b.iter(|| run(Machine::Rtl, Box::new(rtl_target(Arch::Cayman).unwrap())))
            });
        }
        Err(e) => eprintln!("nccom_all_gather_4x64KiB/rtl_mode skipped: {e}"),
    }
    g.finish();
}

/// Block `leg` (the SB2SB pair at NumEngines 4): the Verilated pair alone
/// and the golden pair alone on the same recorded inputs (all scenarios of
/// seed 1, then random legs), the full lockstep on one and two threads, and
/// the host time of the seed 001 §8 leg on the Verilated pair (what
/// `sb2sb run sendrecv --mode rtl` runs before its fast-mode comparison).
fn leg(c: &mut Criterion) {
    use sb2sb_model::pair::{stim::Scenario, LegEnv, Pair, PairIn, PairOut, BLOCK};
    let desc = &BLOCK;
    let ins = record(Pair::default(), LegEnv::new(1, N));
    let mut g = c.benchmark_group("leg_step");
    g.throughput(Throughput::Elements(N));
    g.sample_size(10);
    g.bench_function("verilated_rtl", |b| {
        let mut d: RtlDut<PairIn, PairOut> = RtlDut::new(desc, 1, XInit::Zero).unwrap();
        b.iter(|| {
            for i in &ins {
                black_box(d.step(i));
            }
        })
    });
    g.bench_function("golden_model", |b| {
        let mut d = Pair::default();
        let mut o = PairOut::default();
        b.iter(|| {
            for i in &ins {
                d.step_to(i, &mut o);
                black_box(&mut o);
            }
        })
    });
    for threads in [1usize, 2] {
        g.bench_function(format!("lockstep_{threads}_thread"), |b| {
            b.iter(|| {
                let o = ratios::seed1_options(N, threads);
                let r = lockstep::run(Pair::default(), LegEnv::new(1, N), desc, &o).unwrap();
                assert!(r.passed());
            })
        });
    }
    g.finish();
    ratio_row::<Pair, LegEnv>("leg", desc, &Pair::default, &ins, 7);
    let mut g = c.benchmark_group("leg_seed8_rtl");
    g.sample_size(10);
    g.bench_function("verilated_pair_host_time", |b| {
        b.iter(|| {
            let cycles = 60_000;
            let mut env = LegEnv::with_scenario(1, cycles, Some(Scenario::Seed8)).directed_only();
            let mut d: RtlDut<PairIn, PairOut> = RtlDut::new(desc, 1, XInit::Zero).unwrap();
            let mut prev = None;
            for k in 0..cycles {
                let i = env.next(k, prev.as_ref());
                prev = Some(d.step(&i));
                if env.legs_complete() {
                    break;
                }
            }
            assert!(env.legs_complete());
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
