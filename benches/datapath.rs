//! Datapath benchmarks (criterion), all in one run so the ratios compare
//! like with like:
//! - `copy/<size>/<kernel>`: each copy kernel vs `copy_from_slice` (memcpy);
//! - `reduce/<dtype>/<size>/<kernel>`: each fused receive-reduce kernel (sum)
//!   vs the calibrated `dispatch`;
//! - `leg/28MiB`: a full 128 × 224 KiB SBUF→SBUF leg in fast mode (16
//!   engines, cross-die) vs `memcpy/28MiB` of the same bytes;
//! - `leg/fast_28MiB_1thread`: the same leg with the byte moves on one
//!   thread; `leg/stream_28MiB`: one flat streamed copy of 28 MiB;
//! - prints (first, before other allocations) the resident memory of an 8-core 2-die system with 28 MiB
//!   SBUFs against the SBUF bytes;
//! - prints, last, the ratio tables of docs/performance.md from an
//!   interleaved measurement (`ratios`): every candidate of a row is timed in
//!   turn, round after round, and keeps its best round, so a burst of load
//!   from other processes on the shared machine hits every candidate alike
//!   and the ratios compare like with like.
//!
//! Run: `cargo bench --bench datapath` (short measurement times).

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use sb2sb_model::datapath::copy::STREAM_THRESHOLD;
use sb2sb_model::datapath::reduce::{self, recv_reduce, recv_reduce_with, Dtype, ReduceOp};
use sb2sb_model::datapath::{copy_with, plan, CopyKernel, Features};
use sb2sb_model::system::{CoreId, Mode, System, SystemLeg, Topology};

fn bench_copy(c: &mut Criterion) {
    let f = Features::get();
    eprintln!(
        "datapath features: {f:?}, best copy kernel {:?}",
        f.best_copy()
    );
    let mut g = c.benchmark_group("copy");
    g.warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(800))
        .sample_size(20);
    for size in [4usize << 10, 64 << 10, 1 << 20, 28 << 20] {
        let src: Vec<u8> = (0..size).map(|i| i as u8).collect();
        let mut dst = vec![0u8; size];
        g.throughput(Throughput::Bytes(size as u64));
        g.bench_with_input(BenchmarkId::new("memcpy", size), &size, |b, _| {
            b.iter(|| dst.copy_from_slice(black_box(&src)))
        });
        for k in [CopyKernel::Avx2, CopyKernel::Avx512] {
            if f.supports(k) {
                g.bench_with_input(BenchmarkId::new(format!("{k:?}"), size), &size, |b, _| {
                    b.iter(|| copy_with(k, &mut dst, black_box(&src)).unwrap())
                });
            }
        }
        g.bench_with_input(BenchmarkId::new("dispatch", size), &size, |b, _| {
            b.iter(|| sb2sb_model::datapath::copy(&mut dst, black_box(&src)).unwrap())
        });
    }
    g.finish();
}

/// One element of value 1 (ordinary values, 1.0 and 0.0 when added to
/// zeros: no denormals, constant-time lanes).
fn one_of(dtype: Dtype) -> Vec<u8> {
    match dtype {
        Dtype::Fp32 => 1.0f32.to_le_bytes().to_vec(),
        Dtype::Bf16 => vec![0x80, 0x3F],
        Dtype::Fp16 => vec![0x00, 0x3C],
        Dtype::Int32 => vec![1, 0, 0, 0],
    }
}

/// The increment of a reduce row: −0.0 (fp) or 0 (int32), so `acc + inc`
/// keeps every accumulator value, WRITTEN byte by byte so every page is
/// backed memory. (`vec![0u8; n]` maps untouched zero pages: above the cache
/// size the fold then read one shared zero page, measuring the cache for the
/// increment while the calibration times backed pages; a bf16 28 MiB row
/// read 1.42 so.)
fn inc_of(dtype: Dtype, size: usize) -> Vec<u8> {
    let zero: &[u8] = match dtype {
        Dtype::Fp32 => &[0x00, 0x00, 0x00, 0x80],
        Dtype::Bf16 | Dtype::Fp16 => &[0x00, 0x80],
        Dtype::Int32 => &[0, 0, 0, 0],
    };
    zero.iter().copied().cycle().take(size).collect()
}

fn bench_reduce(c: &mut Criterion) {
    let mut g = c.benchmark_group("reduce");
    g.warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_millis(500))
        .sample_size(15);
    for dtype in Dtype::ALL {
        for size in [4usize << 10, 64 << 10, 1 << 20, 28 << 20] {
            let one = one_of(dtype);
            let mut acc: Vec<u8> = one.iter().copied().cycle().take(size).collect();
            let inc = inc_of(dtype, size);
            g.throughput(Throughput::Bytes(size as u64));
            for k in reduce::Kernel::supported() {
                if k == reduce::Kernel::Scalar {
                    continue;
                }
                g.bench_with_input(
                    BenchmarkId::new(format!("{dtype}/{k:?}"), size),
                    &size,
                    |b, _| {
                        b.iter(|| {
                            recv_reduce_with(k, &mut acc, black_box(&inc), dtype, ReduceOp::Sum)
                                .unwrap()
                        })
                    },
                );
            }
            g.bench_with_input(
                BenchmarkId::new(format!("{dtype}/dispatch"), size),
                &size,
                |b, _| {
                    b.iter(|| recv_reduce(&mut acc, black_box(&inc), dtype, ReduceOp::Sum).unwrap())
                },
            );
        }
    }
    g.finish();
    eprintln!("{}", plan::report());
}

fn vm_rss_kib() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let l = s.lines().find(|l| l.starts_with("VmRSS:"))?;
    l.split_whitespace().nth(1)?.parse().ok()
}

fn bench_leg(c: &mut Criterion) {
    let topo = Topology::trn2(1);
    let bpp = topo.sbuf_bytes_per_partition;
    let total = topo.sbuf_bytes();
    let before = vm_rss_kib();
    let mut sys = System::new(topo).expect("topology");
    // Touch every SBUF byte of all 8 cores (28 MiB each).
    let row: Vec<u8> = (0..bpp).map(|i| (i % 251) as u8).collect();
    for core in 0..8u16 {
        for p in 0..128u8 {
            sys.write_sbuf(CoreId(core), p, 0, &row).expect("fill");
        }
    }
    let leg = SystemLeg {
        engine_mask: 0xFFFF,
        ..SystemLeg::new(CoreId(0), 0, CoreId(4), 0, bpp, 128)
    };
    sys.send_recv(&leg, Mode::Fast).expect("leg");
    if let (Some(b), Some(a)) = (before, vm_rss_kib()) {
        let sbuf = 8 * total;
        eprintln!(
            "peak memory: 8-core 2-die system, 28 MiB SBUFs: +{} MiB resident for {} MiB of SBUF (ratio {:.3}); model allocations {} MiB",
            (a - b) / 1024,
            sbuf >> 20,
            ((a - b) * 1024) as f64 / sbuf as f64,
            sys.st.allocated_bytes() >> 20
        );
    }
    let mut g = c.benchmark_group("leg");
    g.warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(10);
    g.throughput(Throughput::Bytes(total));
    g.bench_function("fast_28MiB", |b| {
        b.iter(|| sys.send_recv(black_box(&leg), Mode::Fast).expect("leg"))
    });
    sys.set_threads(1);
    g.bench_function("fast_28MiB_1thread", |b| {
        b.iter(|| sys.send_recv(black_box(&leg), Mode::Fast).expect("leg"))
    });
    sys.set_threads(0);
    let src = vec![1u8; total as usize];
    let mut dst = vec![0u8; total as usize];
    g.bench_function("memcpy_28MiB", |b| {
        b.iter(|| dst.copy_from_slice(black_box(&src)))
    });
    g.bench_function("stream_28MiB", |b| {
        b.iter(|| sb2sb_model::datapath::copy_streamed(&mut dst, black_box(&src)).unwrap())
    });
    g.finish();
}

/// Best time of each candidate over `rounds` interleaved rounds of `reps`
/// calls each (candidate 0, 1, …, then again).
fn interleaved(rounds: usize, reps: usize, cands: &mut [Box<dyn FnMut() + '_>]) -> Vec<Duration> {
    interleaved_after(rounds, reps, &mut || {}, cands)
}

/// [`interleaved`] with `pre` run, untimed, before every timing, so each
/// candidate starts from the same cache state instead of the one its
/// predecessor left: a 28 MiB streamed copy timed right after `memcpy` of
/// the same buffers ran 10 % faster than the same kernel timed after a
/// streamed copy (AVX2, Zen 2), which favoured whichever candidate came
/// second.
fn interleaved_after(
    rounds: usize,
    reps: usize,
    pre: &mut dyn FnMut(),
    cands: &mut [Box<dyn FnMut() + '_>],
) -> Vec<Duration> {
    let mut best = vec![Duration::MAX; cands.len()];
    for _ in 0..rounds {
        for (b, f) in best.iter_mut().zip(cands.iter_mut()) {
            pre();
            let t = Instant::now();
            for _ in 0..reps {
                f();
            }
            *b = (*b).min(t.elapsed() / reps as u32);
        }
    }
    best
}

fn fmt_t(d: Duration) -> String {
    let ns = d.as_nanos() as f64;
    if ns >= 1e6 {
        format!("{:.3} ms", ns / 1e6)
    } else {
        format!("{:.3} µs", ns / 1e3)
    }
}

fn size_name(n: usize) -> String {
    if n >= 1 << 20 {
        format!("{} MiB", n >> 20)
    } else {
        format!("{} KiB", n >> 10)
    }
}

/// (rounds, reps) for a copy of `n` bytes: each timing covers ≥ 4 MiB, 31
/// rounds at every size (with 9 from 16 MiB, one 28 MiB row timed the same
/// kernel 19 % apart through dispatch and directly).
fn plan_rounds(n: usize) -> (usize, usize) {
    let reps = ((4usize << 20) / n).clamp(1, 4096);
    (31, reps)
}

/// One copy row: memcpy, each SIMD kernel and `dispatch`, interleaved, on
/// one source and ONE destination for every candidate (the kernels write
/// the same bytes, and no candidate gets luckier pages).
fn copy_row(label: &str, kernels: &[CopyKernel], src: &[u8], dst: &mut [u8]) -> String {
    let n = src.len();
    let dst = std::cell::RefCell::new(dst);
    let (rounds, reps) = plan_rounds(n);
    let dst = &dst;
    let mut cands: Vec<Box<dyn FnMut() + '_>> = Vec::new();
    cands.push(Box::new(move || {
        dst.borrow_mut().copy_from_slice(black_box(src))
    }));
    for &k in kernels {
        cands.push(Box::new(move || {
            copy_with(k, &mut dst.borrow_mut(), black_box(src)).unwrap()
        }));
    }
    cands.push(Box::new(move || {
        sb2sb_model::datapath::copy(&mut dst.borrow_mut(), black_box(src)).unwrap()
    }));
    // From the streaming threshold every timing starts after one `memcpy`
    // of the pair (`interleaved_after`); below it the pair stays in the
    // cache whatever ran before.
    let mut pre = move || {
        if n >= STREAM_THRESHOLD {
            dst.borrow_mut().copy_from_slice(src)
        }
    };
    let t = interleaved_after(rounds, reps, &mut pre, &mut cands);
    let disp = t[t.len() - 1];
    let best = t[..t.len() - 1].iter().copied().min().unwrap();
    let chosen = plan::copy_choice(n).map_or("?".into(), |k| format!("{k:?}"));
    let mut out = format!("{label} | ");
    for x in &t {
        out += &format!("{} | ", fmt_t(*x));
    }
    out += &format!(
        "{chosen} | {:.3} | {:.2}x\n",
        disp.as_secs_f64() / best.as_secs_f64(),
        t[0].as_secs_f64() / disp.as_secs_f64()
    );
    out
}

/// The 4 KiB copy row again on a second buffer pair, the destination 16
/// bytes past the source modulo 4 KiB: the plan the 4 KiB class chose on the
/// first pair serves this one too. glibc's `memcpy` (`rep movsb`) fell 30×
/// off a cliff on this pair on some AMD machines and not on others; the row
/// shows whether this one has it (docs/performance.md § 1).
fn offset_row(kernels: &[CopyKernel]) -> String {
    const N: usize = 4 << 10;
    const PAGE: usize = 4 << 10;
    let mut buf = vec![0u8; 4 * PAGE];
    let base = (PAGE - buf.as_ptr() as usize % PAGE) % PAGE;
    let (lo, hi) = buf.split_at_mut(base + PAGE);
    let src: &[u8] = &lo[base..];
    for (i, b) in hi.iter_mut().enumerate() {
        *b = i as u8;
    }
    copy_row(
        "4 KiB, dst = src + 16 (mod 4 KiB)",
        kernels,
        src,
        &mut hi[16..16 + N],
    )
}

/// The interleaved ratio tables (module docs): copy, receive-reduce, the leg.
fn ratios(_c: &mut Criterion) {
    if std::env::var_os("SB2SB_BENCH_NO_RATIOS").is_some() {
        return;
    }
    let f = Features::get();
    let kernels: Vec<CopyKernel> = [CopyKernel::Avx2, CopyKernel::Avx512]
        .into_iter()
        .filter(|&k| f.supports(k))
        .collect();
    let mut out = String::from("\n## ratios (interleaved best-of-rounds, one run)\n\n");
    out += &format!(
        "features {f:?}; last-level cache {}; dispatch: memcpy below {} B, a SIMD kernel where it is {} % faster\n\n",
        plan::llc_bytes().map_or("unknown".into(), |b| format!("{} KiB", b >> 10)),
        plan::PLANNED_MIN_BYTES,
        plan::MEMCPY_MARGIN_PERCENT
    );
    out += "copy | memcpy | ";
    for k in &kernels {
        out += &format!("{k:?} | ");
    }
    out += "dispatch | chosen | dispatch / best kernel | dispatch vs memcpy\n";
    for size in [4usize << 10, 64 << 10, 1 << 20, 28 << 20] {
        let src: Vec<u8> = (0..size).map(|i| i as u8).collect();
        let mut dst = vec![0u8; size];
        out += &copy_row(&size_name(size), &kernels, &src, &mut dst);
    }
    out += &offset_row(&kernels);
    out += &reduce_rows();
    out += &leg_row();
    out += &plan::report();
    eprintln!("{out}");
}

/// The receive-reduce rows: every SIMD kernel and the dispatch, per dtype and size.
fn reduce_rows() -> String {
    let mut out = String::new();
    let rk: Vec<reduce::Kernel> = reduce::Kernel::supported()
        .into_iter()
        .filter(|&k| k != reduce::Kernel::Scalar)
        .collect();
    out += "\nreduce (sum) | ";
    for k in &rk {
        out += &format!("{k:?} | ");
    }
    out += "dispatch | chosen | dispatch / best kernel\n";
    for dtype in Dtype::ALL {
        for size in [4usize << 10, 64 << 10, 1 << 20, 28 << 20] {
            let one = one_of(dtype);
            // Adding (−)zeros keeps the accumulator: one buffer pair for all.
            let inc = inc_of(dtype, size);
            let acc = std::cell::RefCell::new(
                one.iter().copied().cycle().take(size).collect::<Vec<u8>>(),
            );
            let (inc, acc) = (&inc, &acc);
            let (rounds, reps) = plan_rounds(size);
            let mut cands: Vec<Box<dyn FnMut() + '_>> = Vec::new();
            for &k in &rk {
                cands.push(Box::new(move || {
                    recv_reduce_with(
                        k,
                        &mut acc.borrow_mut(),
                        black_box(inc),
                        dtype,
                        ReduceOp::Sum,
                    )
                    .unwrap()
                }));
            }
            cands.push(Box::new(move || {
                recv_reduce(&mut acc.borrow_mut(), black_box(inc), dtype, ReduceOp::Sum).unwrap()
            }));
            let t = interleaved(rounds, reps, &mut cands);
            let disp = t[t.len() - 1];
            let best = t[..t.len() - 1].iter().copied().min().unwrap();
            out += &format!("{dtype} {} | ", size_name(size));
            for x in &t {
                out += &format!("{} | ", fmt_t(*x));
            }
            let chosen = plan::reduce_choice(size, dtype).map_or("?".into(), |k| format!("{k:?}"));
            out += &format!(
                "{chosen} | {:.3}\n",
                disp.as_secs_f64() / best.as_secs_f64()
            );
        }
    }
    out
}

/// The 28 MiB leg row: fast-mode leg on one and all threads against
/// `memcpy`, a flat streamed copy and 128 streamed rows of the same bytes.
fn leg_row() -> String {
    // The 28 MiB leg against one-thread memcpy of the same bytes.
    let topo = Topology::trn2(1);
    let bpp = topo.sbuf_bytes_per_partition;
    let total = topo.sbuf_bytes() as usize;
    let mut sys = System::new(topo).expect("topology");
    let row: Vec<u8> = (0..bpp).map(|i| (i % 251) as u8).collect();
    for p in 0..128u8 {
        sys.write_sbuf(CoreId(0), p, 0, &row).expect("fill");
    }
    let leg = SystemLeg {
        engine_mask: 0xFFFF,
        ..SystemLeg::new(CoreId(0), 0, CoreId(4), 0, bpp, 128)
    };
    sys.send_recv(&leg, Mode::Fast).expect("leg");
    let threads = sys.threads();
    let src = vec![1u8; total];
    let dst = std::cell::RefCell::new(vec![0u8; total]);
    let rows_src: Vec<Box<[u8]>> = (0..128)
        .map(|_| vec![1u8; bpp as usize].into_boxed_slice())
        .collect();
    let rows_dst = std::cell::RefCell::new(
        (0..128)
            .map(|_| vec![0u8; bpp as usize].into_boxed_slice())
            .collect::<Vec<_>>(),
    );
    let (rows_src, rows_dst) = (&rows_src, &rows_dst);
    let (src, sys) = (&src, std::cell::RefCell::new(sys));
    let (sys, leg) = (&sys, &leg);
    let mut cands: Vec<Box<dyn FnMut() + '_>> = vec![
        Box::new(|| dst.borrow_mut().copy_from_slice(black_box(src))),
        Box::new(|| {
            sb2sb_model::datapath::copy_streamed(&mut dst.borrow_mut(), black_box(src)).unwrap()
        }),
        // The leg's byte layout without the model: 128 separate 224 KiB
        // rows streamed one after another, one fence.
        Box::new(move || {
            let mut d = rows_dst.borrow_mut();
            for (d, s) in d.iter_mut().zip(rows_src.iter()) {
                sb2sb_model::datapath::copy_streamed_unfenced(d, black_box(s)).unwrap();
            }
            sb2sb_model::datapath::store_fence();
        }),
        Box::new(move || {
            let mut s = sys.borrow_mut();
            s.set_threads(1);
            s.send_recv(black_box(leg), Mode::Fast).expect("leg");
        }),
        Box::new(move || {
            let mut s = sys.borrow_mut();
            s.set_threads(0);
            s.send_recv(black_box(leg), Mode::Fast).expect("leg");
        }),
    ];
    // Every timing starts with the caches holding none of the candidates'
    // bytes: a read of twice the last-level cache (64 MiB where its size is
    // unknown) before each. Without it the flat stream, timed right after
    // `memcpy` of the same buffers, found part of its source in the cache.
    let evict = vec![1u8; plan::llc_bytes().map_or(64 << 20, |l| 2 * l)];
    let mut pre = || {
        let mut acc = 0u8;
        for i in (0..evict.len()).step_by(64) {
            acc = acc.wrapping_add(evict[i]);
        }
        black_box(acc);
    };
    let t = interleaved_after(21, 1, &mut pre, &mut cands);
    let r = |i: usize| t[0].as_secs_f64() / t[i].as_secs_f64();
    format!(
        "\nleg 28 MiB (16 engines, cross-die), ratio = memcpy time / time | memcpy {} | flat stream {} ({:.2}x) | 128 rows streamed {} ({:.2}x) | leg 1 thread {} ({:.2}x) | leg {threads} threads {} ({:.2}x)\n",
        fmt_t(t[0]),
        fmt_t(t[1]),
        r(1),
        fmt_t(t[2]),
        r(2),
        fmt_t(t[3]),
        r(3),
        fmt_t(t[4]),
        r(4)
    )
}

criterion_group!(benches, bench_leg, bench_copy, bench_reduce, ratios);
criterion_main!(benches);
