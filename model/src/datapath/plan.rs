//! Per-size-class kernel choice, calibrated once per process.
//!
//! A size class is the bit length of the byte count (`n` in
//! `[2^(c-1), 2^c)` is class `c`; 0 bytes is class 0). Every kernel gives
//! the same bytes (tested against the scalar reference), so a choice changes
//! speed only, never results.
//!
//! - [`fn@super::copy`]: the C library's `memcpy` (`copy_from_slice`) is the
//!   default. Below [`PLANNED_MIN_BYTES`] it is called straight away, with
//!   no lookup. From there a class's first call decides once for the
//!   process (one relaxed atomic load per call afterwards):
//!   - a class whose every copy is at least the last-level cache
//!     ([`llc_bytes`], from sysfs) and [`super::copy::STREAM_THRESHOLD`]
//!     takes the widest SIMD kernel, which writes with non-temporal stores,
//!     untimed ([`structural_copy_kernel`]): the copy cannot stay in the
//!     cache, and non-temporal stores skip the read-for-ownership of every
//!     destination line and leave the cache to the source;
//!   - any other class times `memcpy` and every SIMD kernel on the caller's
//!     own buffers (a copy is idempotent, so repeating it is harmless),
//!     [`cal_rounds`] rounds, interleaved, best time per kernel, small copies
//!     repeated inside one timing so each covers at least
//!     `COPY_MIN_TIMED_BYTES`, each after one untimed copy with the same
//!     kernel; a SIMD kernel replaces `memcpy` only when it is at
//!     least [`MEMCPY_MARGIN_PERCENT`] % faster ([`choose_over_default`]).
//! - [`super::copy_streamed`] (a piece of a copy much larger than the
//!   cache): the widest SIMD kernel, non-temporal stores, untimed, for the
//!   reason of the structural classes.
//! - [`super::reduce::recv_reduce`]: per (dtype, class), timed on private
//!   buffers (a fold is not idempotent) of the size of the class's first
//!   call clamped to `[REDUCE_CAL_MIN, REDUCE_CAL_MAX]` bytes.
//!
//! [`choose`] and [`choose_over_default`] are the selection rules, separated
//! from the clock so a test can check them with made-up timings.

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use super::copy::{run_stream, CopyKernel};
use super::reduce::{self, Dtype, ReduceOp};
use super::Features;

/// Number of size classes (bit lengths 0..=64).
pub const CLASSES: usize = 65;
/// Fewest timing rounds per kernel (best of): calibrations whose one timing
/// already covers [`CAL_BYTES_PER_KERNEL`] / 5 bytes or more (with 3, the
/// 28 MiB classes' choice flipped between runs on a shared host).
const ROUNDS_MIN: usize = 5;
/// Most timing rounds per kernel.
const ROUNDS_MAX: usize = 15;
/// A calibration times each kernel over about this many bytes in all (rounds
/// × bytes per timing), so a short timing gets more rounds: a 1 MiB class
/// timed over 3 rounds of one 25 µs fold each chose AVX-512 for int32 where
/// AVX2 was 6 % faster.
const CAL_BYTES_PER_KERNEL: usize = 32 << 20;

/// Rounds of a calibration whose one timing covers `bytes` bytes.
pub const fn cal_rounds(bytes: usize) -> usize {
    let r = CAL_BYTES_PER_KERNEL / if bytes == 0 { 1 } else { bytes };
    if r < ROUNDS_MIN {
        ROUNDS_MIN
    } else if r > ROUNDS_MAX {
        ROUNDS_MAX
    } else {
        r
    }
}
/// A reduce calibration's timing repeats a small fold until it covers at
/// least this many bytes.
const MIN_TIMED_BYTES: usize = 256 << 10;
/// A copy calibration's timing repeats a small copy until it covers at
/// least this many bytes, as the rows of `cargo bench --bench datapath` do.
/// (256 KiB until the margin rule: a 1 MiB class timed one copy at a time,
/// each right after the other kernel's copy of the same buffers, chose AVX2
/// 5 % ahead of `memcpy` where the bench, four copies a timing, found it
/// 4 % behind; Zen 2.)
const COPY_MIN_TIMED_BYTES: usize = 4 << 20;
/// Smallest and largest private buffer of a reduce calibration.
pub const REDUCE_CAL_MIN: usize = 256;
/// Largest private buffer of a reduce calibration. A first call up to it is
/// timed at its own size; a larger one at this size, which with the
/// accumulator is twice the L3 size of the development machine, so the fold
/// is timed memory bound as the class runs. (A 1 MiB cap, cache resident,
/// picked AVX-512 for 28 MiB fp32/int32 folds where AVX2 was 13–21 %
/// faster: docs/performance.md §1.)
pub const REDUCE_CAL_MAX: usize = 32 << 20;

/// Copies shorter than this call `memcpy` directly, before any plan lookup:
/// the lookup and the kernel call would be a noticeable part of a copy of a
/// few dozen nanoseconds, and no class below it is calibrated.
pub const PLANNED_MIN_BYTES: usize = 4 << 10;

/// A SIMD kernel replaces `memcpy` in a calibrated class only when its
/// best-of-rounds time is at least this many percent below `memcpy`'s.
/// Equal to the dispatch tolerance (within 5 % of the best kernel): a
/// kernel less than 5 % ahead leaves `memcpy` within 5 % of the best, and
/// one that is chosen leads `memcpy` by 5 %, more than a calibration's
/// error against a later run (1–3 % on the shared development machines), so
/// the choice never makes a class slower than `memcpy`. Without a margin a
/// kernel a hair ahead in one calibration and 35 % behind in use (an AVX-512
/// EPYC, 64 KiB, one run of three) replaced it.
pub const MEMCPY_MARGIN_PERCENT: u32 = 5;

const UNSET: u8 = 0;

static COPY_PLAN: [AtomicU8; CLASSES] = [const { AtomicU8::new(UNSET) }; CLASSES];
static REDUCE_PLAN: [[AtomicU8; CLASSES]; 4] =
    [const { [const { AtomicU8::new(UNSET) }; CLASSES] }; 4];

/// The size class of `n` bytes: its bit length.
pub const fn size_class(n: usize) -> usize {
    (usize::BITS - n.leading_zeros()) as usize
}

/// The smallest byte count of class `c`.
pub const fn class_floor(c: usize) -> usize {
    if c == 0 {
        0
    } else {
        1 << (c - 1)
    }
}

/// Best-of-rounds time of every candidate: `time(k)` is one timing of
/// candidate `k`; the rounds are interleaved (k0, k1, …, k0, k1, …) so a
/// burst of load from other processes hits every candidate alike.
fn best_times<K: Copy>(
    cands: &[K],
    rounds: usize,
    mut time: impl FnMut(K) -> Duration,
) -> Vec<Duration> {
    let mut best = vec![Duration::MAX; cands.len()];
    for _ in 0..rounds.max(1) {
        for (b, &k) in best.iter_mut().zip(cands) {
            *b = (*b).min(time(k));
        }
    }
    best
}

/// Index of the smallest time; ties go to the earlier one.
fn argmin(t: &[Duration]) -> usize {
    t.iter()
        .enumerate()
        .min_by_key(|(i, t)| (**t, *i))
        .map_or(0, |(i, _)| i)
}

/// The candidate with the smallest best-of-rounds time (`best_times`);
/// ties go to the earlier candidate.
pub fn choose<K: Copy>(cands: &[K], rounds: usize, time: impl FnMut(K) -> Duration) -> K {
    cands[argmin(&best_times(cands, rounds, time))]
}

/// The rule of [`choose`] with `cands[0]` as the default, on paired
/// ratios: each round times every candidate in turn, and a candidate's
/// score is the median over the rounds of its time divided by the
/// default's time in the same round. The candidate with the lowest score
/// wins only when that score is at most `1 − margin_percent / 100`, else
/// the default stays. A burst of load from other processes slows one
/// round, or one timing of it, and moves a median of ratios far less than
/// a best-of-rounds time (on the shared 2-vCPU machine one of the two
/// kernels' best of 8 was off by 5 % in two runs of three).
pub fn choose_over_default<K: Copy>(
    cands: &[K],
    rounds: usize,
    margin_percent: u32,
    mut time: impl FnMut(K) -> Duration,
) -> K {
    let rounds = rounds.max(1);
    let mut ratios = vec![Vec::with_capacity(rounds); cands.len()];
    for _ in 0..rounds {
        let t: Vec<Duration> = cands.iter().map(|&k| time(k)).collect();
        let base = t[0].as_secs_f64().max(f64::MIN_POSITIVE);
        for (r, ti) in ratios.iter_mut().zip(&t) {
            r.push(ti.as_secs_f64() / base);
        }
    }
    let score = |r: &mut Vec<f64>| {
        r.sort_by(f64::total_cmp);
        r[r.len() / 2]
    };
    let scores: Vec<f64> = ratios.iter_mut().map(score).collect();
    let limit = 1.0 - f64::from(margin_percent.min(100)) / 100.0;
    let (i, s) = scores
        .iter()
        .copied()
        .enumerate()
        .skip(1)
        .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)))
        .unwrap_or((0, 1.0));
    if s <= limit + 1e-9 {
        cands[i]
    } else {
        cands[0]
    }
}

fn copy_code(k: CopyKernel) -> u8 {
    1 + CopyKernel::ALL.iter().position(|&x| x == k).unwrap_or(1) as u8
}

fn copy_from_code(c: u8) -> Option<CopyKernel> {
    CopyKernel::ALL.get(usize::from(c).checked_sub(1)?).copied()
}

/// The plan code of `memcpy` (`Portable`), tested first on every call.
const MEMCPY_CODE: u8 = 2;

/// The copy kernels a calibrated class chooses among on this CPU, `memcpy`
/// (`Portable`, the default) first; the scalar byte loop is the test
/// reference, never a candidate.
pub fn copy_candidates() -> Vec<CopyKernel> {
    let f = Features::get();
    [CopyKernel::Portable, CopyKernel::Avx2, CopyKernel::Avx512]
        .into_iter()
        .filter(|&k| f.supports(k))
        .collect()
}

/// The size of a cache from its sysfs `size` file: `"16384K"`, `"32M"`,
/// `"1G"` or a plain byte count.
pub fn parse_cache_size(s: &str) -> Option<usize> {
    let s = s.trim();
    let (digits, unit) = match s.as_bytes().last()? {
        b'K' | b'k' => (&s[..s.len() - 1], 1usize << 10),
        b'M' | b'm' => (&s[..s.len() - 1], 1 << 20),
        b'G' | b'g' => (&s[..s.len() - 1], 1 << 30),
        _ => (s, 1),
    };
    digits.parse::<usize>().ok()?.checked_mul(unit)
}

/// The size of the highest-level cache listed under a sysfs CPU cache
/// directory (`index*/level`, `index*/size`), if any is readable.
pub fn read_llc_bytes(cache_dir: &std::path::Path) -> Option<usize> {
    let mut best: Option<(u32, usize)> = None;
    for e in std::fs::read_dir(cache_dir).ok()?.flatten() {
        if !e.file_name().to_string_lossy().starts_with("index") {
            continue;
        }
        let read = |f: &str| std::fs::read_to_string(e.path().join(f)).ok();
        let (Some(level), Some(size)) = (read("level"), read("size")) else {
            continue;
        };
        let (Ok(level), Some(size)) = (level.trim().parse::<u32>(), parse_cache_size(&size)) else {
            continue;
        };
        if best.is_none_or(|(l, _)| level > l) {
            best = Some((level, size));
        }
    }
    best.map(|(_, s)| s)
}

/// The last-level cache of this machine as the kernel reports it
/// (`/sys/devices/system/cpu/cpu0/cache`, read once per process; `None`
/// off Linux or where it is not readable: then no class is structural).
/// The size is what one CPU sees: on an AMD EPYC the L3 of its core
/// complex (16 MiB on Zen 2), not the package's sum that `CPUID` and
/// `getconf LEVEL3_CACHE_SIZE` may give.
pub fn llc_bytes() -> Option<usize> {
    static LLC: OnceLock<Option<usize>> = OnceLock::new();
    *LLC.get_or_init(|| read_llc_bytes(std::path::Path::new("/sys/devices/system/cpu/cpu0/cache")))
}

/// The kernel of class `c` chosen without timing, if the class is
/// structural: its every copy is at least the last-level cache `llc` and
/// [`super::copy::STREAM_THRESHOLD`] bytes (so the SIMD kernels stream) and
/// the CPU `f` has a SIMD kernel: the widest one.
pub fn structural_copy_kernel(c: usize, llc: Option<usize>, f: Features) -> Option<CopyKernel> {
    let floor = class_floor(c);
    let k = f.best_copy();
    (llc.is_some_and(|l| floor >= l)
        && floor >= super::copy::STREAM_THRESHOLD
        && k != CopyKernel::Portable)
        .then_some(k)
}

/// One timing of `reps` copies with kernel `k`, after one untimed copy with
/// the same kernel: each kernel is timed in the cache state its own copies
/// leave, as a class that runs it is, not in the one the other candidate's
/// copy left.
fn time_copy(k: CopyKernel, dst: &mut [u8], src: &[u8], reps: usize, stream: bool) -> Duration {
    run_stream(k, dst, src, stream);
    let t = Instant::now();
    for _ in 0..reps {
        run_stream(k, dst, std::hint::black_box(src), stream);
    }
    t.elapsed()
}

/// [`fn@super::copy`] from [`PLANNED_MIN_BYTES`] bytes (equal lengths
/// checked): the class's kernel, `memcpy` tested first; the class is
/// calibrated on these buffers on its first call (`dst` ends up equal to
/// `src`).
#[inline]
pub(crate) fn copy_planned(dst: &mut [u8], src: &[u8]) {
    let c = size_class(dst.len());
    let code = COPY_PLAN[c].load(Ordering::Relaxed);
    if code == MEMCPY_CODE {
        dst.copy_from_slice(src);
    } else {
        copy_planned_simd(code, c, dst, src);
    }
}

/// The SIMD kernel of class `c` (plan code `code`), calibrating first if
/// the class is not yet.
#[inline(never)]
fn copy_planned_simd(code: u8, c: usize, dst: &mut [u8], src: &[u8]) {
    let k = match copy_from_code(code) {
        Some(k) => k,
        None => calibrate_copy(c, dst, src),
    };
    let stream = dst.len() >= super::copy::STREAM_THRESHOLD;
    // SAFETY: the plan stores only kernels this CPU supports
    // (`copy_candidates`, `structural_copy_kernel`).
    unsafe { super::copy::run_supported(k, dst, src, stream, true) }
}

/// The kernel [`fn@super::copy`] uses for `dst.len()` bytes, deciding the
/// class on these buffers the first time (a timed class leaves `dst` equal
/// to `src`); `memcpy` below [`PLANNED_MIN_BYTES`].
pub fn copy_kernel(dst: &mut [u8], src: &[u8]) -> CopyKernel {
    if dst.len() < PLANNED_MIN_BYTES {
        return CopyKernel::Portable;
    }
    let c = size_class(dst.len());
    match copy_from_code(COPY_PLAN[c].load(Ordering::Relaxed)) {
        Some(k) => k,
        None => calibrate_copy(c, dst, src),
    }
}

/// Decide class `c` on its first copy `dst`/`src` and store the choice:
/// structural ([`structural_copy_kernel`]) or timed, `memcpy` unless a SIMD
/// kernel is [`MEMCPY_MARGIN_PERCENT`] % faster.
#[cold]
#[inline(never)]
fn calibrate_copy(c: usize, dst: &mut [u8], src: &[u8]) -> CopyKernel {
    let k = match structural_copy_kernel(c, llc_bytes(), Features::get()) {
        Some(k) => k,
        None => {
            let n = dst.len();
            let stream = n >= super::copy::STREAM_THRESHOLD;
            let reps = (COPY_MIN_TIMED_BYTES / n.max(1)).clamp(1, 1024);
            let rounds = cal_rounds(n * reps);
            // Warm-up: fault in the destination pages, bring the buffers
            // into the cache as far as they fit.
            run_stream(CopyKernel::Portable, dst, src, false);
            choose_over_default(&copy_candidates(), rounds, MEMCPY_MARGIN_PERCENT, |k| {
                time_copy(k, dst, src, reps, stream)
            })
        }
    };
    // The first decision of the class wins: two threads that calibrated the
    // same class at once both use the stored choice from then on.
    match COPY_PLAN[c].compare_exchange(UNSET, copy_code(k), Ordering::Relaxed, Ordering::Relaxed) {
        Ok(_) => k,
        Err(stored) => copy_from_code(stored).unwrap_or(k),
    }
}

/// The kernel [`super::copy_streamed`] uses: the widest SIMD kernel this
/// CPU has (`memcpy` where there is none), untimed.
#[inline]
pub fn stream_kernel() -> CopyKernel {
    Features::get().best_copy()
}
const fn dtype_index(d: Dtype) -> usize {
    // Table order of `Dtype::ALL` (tested below).
    match d {
        Dtype::Fp32 => 0,
        Dtype::Bf16 => 1,
        Dtype::Fp16 => 2,
        Dtype::Int32 => 3,
    }
}

fn reduce_code(k: reduce::Kernel) -> u8 {
    1 + reduce::Kernel::ALL
        .iter()
        .position(|&x| x == k)
        .unwrap_or(0) as u8
}

#[inline]
fn reduce_from_code(c: u8) -> Option<reduce::Kernel> {
    match c {
        1 => Some(reduce::Kernel::ALL[0]),
        2 => Some(reduce::Kernel::ALL[1]),
        3 => Some(reduce::Kernel::ALL[2]),
        _ => None,
    }
}

/// The reduce kernels a calibration chooses among: the SIMD kernels this
/// CPU supports, the scalar one only when it supports none (the scalar fold
/// is 5–10× slower at every class size, and timing it took most of a
/// calibration).
pub fn reduce_candidates() -> Vec<reduce::Kernel> {
    let all = reduce::Kernel::supported();
    let simd: Vec<reduce::Kernel> = all
        .iter()
        .copied()
        .filter(|&k| k != reduce::Kernel::Scalar)
        .collect();
    if simd.is_empty() {
        all
    } else {
        simd
    }
}

/// The bytes a reduce calibration uses for a first call of `len` bytes of
/// `dtype`: that size, clamped to [`REDUCE_CAL_MIN`]..[`REDUCE_CAL_MAX`],
/// whole elements. (Not the class floor: a 28 MiB class timed at 16 MiB,
/// source + accumulator = the L3, picked AVX-512 where the memory-bound
/// 28 MiB fold runs AVX2 12 % faster.)
pub fn reduce_cal_bytes(len: usize, dtype: Dtype) -> usize {
    let n = len.clamp(REDUCE_CAL_MIN, REDUCE_CAL_MAX);
    n - n % dtype.size()
}

/// The kernel [`super::reduce::recv_reduce`] uses for `len` bytes of
/// `dtype` (calibrated per class with a sum, on private buffers of ordinary
/// values — no denormals, whose timing differs on some CPUs).
#[inline]
pub fn reduce_kernel(len: usize, dtype: Dtype) -> reduce::Kernel {
    let c = size_class(len);
    let slot = &REDUCE_PLAN[dtype_index(dtype)][c];
    match reduce_from_code(slot.load(Ordering::Relaxed)) {
        Some(k) => k,
        None => calibrate_reduce(slot, len, dtype),
    }
}

/// Time every supported kernel on a fold of about `len` bytes (the first
/// call of the class) and store the fastest for the class.
#[cold]
#[inline(never)]
fn calibrate_reduce(slot: &AtomicU8, len: usize, dtype: Dtype) -> reduce::Kernel {
    let cands = reduce_candidates();
    let k = if cands.len() == 1 {
        cands[0]
    } else {
        let n = reduce_cal_bytes(len, dtype);
        let one: &[u8] = match dtype {
            Dtype::Fp32 => &[0x00, 0x00, 0x80, 0x3F],
            Dtype::Bf16 => &[0x80, 0x3F],
            Dtype::Fp16 => &[0x00, 0x3C],
            Dtype::Int32 => &[1, 0, 0, 0],
        };
        let mut acc: Vec<u8> = one.iter().copied().cycle().take(n).collect();
        // The increment is −0.0 (fp) or 0 (int32), written byte by byte: values
        // stay put, and every page of it is backed memory (an untouched
        // zeroed allocation maps one shared zero page and times the cache).
        let zero: &[u8] = match dtype {
            Dtype::Fp32 => &[0x00, 0x00, 0x00, 0x80],
            Dtype::Bf16 | Dtype::Fp16 => &[0x00, 0x80],
            Dtype::Int32 => &[0, 0, 0, 0],
        };
        let inc: Vec<u8> = zero.iter().copied().cycle().take(n).collect();
        let reps = (MIN_TIMED_BYTES / n.max(1)).clamp(1, 4096);
        let rounds = cal_rounds(n * reps);
        choose(&cands, rounds, |k| {
            let t = Instant::now();
            for _ in 0..reps {
                reduce::run(
                    k,
                    &mut acc,
                    std::hint::black_box(&inc),
                    dtype,
                    ReduceOp::Sum,
                );
            }
            t.elapsed()
        })
    };
    // The first decision of the class wins (as for copies).
    match slot.compare_exchange(UNSET, reduce_code(k), Ordering::Relaxed, Ordering::Relaxed) {
        Ok(_) => k,
        Err(stored) => reduce_from_code(stored).unwrap_or(k),
    }
}

/// The copy kernel [`fn@super::copy`] has chosen for `len` bytes, if that
/// class is calibrated already (no calibration here).
pub fn copy_choice(len: usize) -> Option<CopyKernel> {
    copy_from_code(COPY_PLAN[size_class(len)].load(Ordering::Relaxed))
}

/// The reduce kernel [`super::reduce::recv_reduce`] has chosen for `len`
/// bytes of `dtype`, if that class is calibrated already.
pub fn reduce_choice(len: usize, dtype: Dtype) -> Option<reduce::Kernel> {
    reduce_from_code(REDUCE_PLAN[dtype_index(dtype)][size_class(len)].load(Ordering::Relaxed))
}

/// One line per calibrated class: `copy: 4 KiB..8 KiB Avx512, …` (for
/// benchmark and CLI reports). Classes not yet used are left out.
pub fn report() -> String {
    let fmt = |c: usize| {
        let b = class_floor(c);
        if b >= 1 << 20 {
            format!("{}M", b >> 20)
        } else if b >= 1 << 10 {
            format!("{}K", b >> 10)
        } else {
            format!("{b}")
        }
    };
    let mut out = String::from("copy plan:");
    for (c, slot) in COPY_PLAN.iter().enumerate() {
        if let Some(k) = copy_from_code(slot.load(Ordering::Relaxed)) {
            out += &format!(" {}+ {k:?};", fmt(c));
        }
    }
    out += &format!(" streamed {:?};", stream_kernel());
    for d in Dtype::ALL {
        let mut line = String::new();
        for (c, slot) in REDUCE_PLAN[dtype_index(d)].iter().enumerate() {
            if let Some(k) = reduce_from_code(slot.load(Ordering::Relaxed)) {
                line += &format!(" {}+ {k:?};", fmt(c));
            }
        }
        if !line.is_empty() {
            out += &format!("\nreduce {d} plan:{line}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_class_is_the_bit_length() {
        assert_eq!(size_class(0), 0);
        assert_eq!(size_class(1), 1);
        assert_eq!(size_class(4095), 12);
        assert_eq!(size_class(4096), 13);
        assert_eq!(size_class(28 << 20), 25);
        assert_eq!(size_class(usize::MAX), 64);
        for c in 1..CLASSES {
            assert_eq!(size_class(class_floor(c)), c);
        }
    }

    #[test]
    fn choose_takes_the_best_of_rounds_minimum_and_breaks_ties_early() {
        // Candidate 1 has one slow outlier but the smallest best time.
        let times = [[5u64, 5, 5], [9, 2, 9], [3, 3, 3]];
        let mut round = [0usize; 3];
        let k = choose(&[0usize, 1, 2], 3, |k| {
            let t = times[k][round[k]];
            round[k] += 1;
            Duration::from_nanos(t)
        });
        assert_eq!(k, 1);
        assert_eq!(round, [3, 3, 3], "every candidate timed every round");
        let k = choose(&['a', 'b'], 2, |_| Duration::from_nanos(7));
        assert_eq!(k, 'a');
    }

    #[test]
    fn calibrated_choices_are_supported_and_reported() {
        let src: Vec<u8> = (0..5000u32).map(|i| i as u8).collect();
        let mut dst = vec![0u8; 5000];
        // The calibration itself (another test thread may have decided the
        // class already; `copy_kernel` would then not copy at all): it times
        // real copies of src into dst, and returns the class's stored choice.
        let k = calibrate_copy(size_class(5000), &mut dst, &src);
        assert_eq!(dst, src, "calibration leaves dst equal to src");
        assert!(Features::get().supports(k));
        assert!(copy_candidates().contains(&k));
        // The second call returns the stored choice.
        assert_eq!(copy_kernel(&mut dst, &src), k);
        assert_eq!(copy_choice(5000), Some(k));
        assert_eq!(copy_choice(4096), Some(k), "same class");
        let r = reduce_kernel(3000, Dtype::Bf16);
        assert!(reduce::Kernel::supported().contains(&r));
        assert_eq!(reduce_kernel(2049, Dtype::Bf16), r, "same class");
        assert_eq!(reduce_choice(3000, Dtype::Bf16), Some(r));
        let rep = report();
        assert!(rep.contains(&format!("4K+ {k:?}")), "{rep}");
        let bf16 = rep
            .lines()
            .find(|l| l.starts_with("reduce bf16 plan:"))
            .unwrap_or_default();
        assert!(bf16.contains(&format!(" 2K+ {r:?};")), "{rep}");
    }

    #[test]
    fn reduce_calibrations_time_the_scalar_fold_only_without_a_simd_kernel() {
        let c = reduce_candidates();
        let simd = reduce::Kernel::supported()
            .into_iter()
            .any(|k| k != reduce::Kernel::Scalar);
        assert_eq!(c.contains(&reduce::Kernel::Scalar), !simd, "{c:?}");
        assert!(!c.is_empty() && c.iter().all(|k| k.is_supported()), "{c:?}");
    }

    #[test]
    fn calibrated_classes_time_memcpy_first_and_every_supported_simd_kernel() {
        let f = Features::get();
        let c = copy_candidates();
        assert_eq!(c.first(), Some(&CopyKernel::Portable), "{c:?}");
        for k in CopyKernel::ALL {
            let want = k != CopyKernel::Scalar && f.supports(k);
            assert_eq!(c.contains(&k), want, "{k:?} on {f:?}");
        }
    }

    /// The margin rule with made-up timings (candidate 0 = `memcpy`, the
    /// default): a candidate less than 5 % ahead leaves the default, one
    /// 5 % or more ahead replaces it, the fastest of several replaces it,
    /// and a default that is fastest stays.
    #[test]
    fn a_kernel_replaces_the_default_only_by_the_margin() {
        let pick = |t: [u64; 3]| {
            choose_over_default(&[0usize, 1, 2], 3, MEMCPY_MARGIN_PERCENT, |k| {
                Duration::from_nanos(t[k])
            })
        };
        assert_eq!(MEMCPY_MARGIN_PERCENT, 5);
        assert_eq!(pick([1000, 951, 990]), 0, "4.9 % ahead: memcpy stays");
        assert_eq!(pick([1000, 950, 990]), 1, "5 % ahead: replaced");
        assert_eq!(pick([1000, 940, 900]), 2, "the faster of two clear ones");
        assert_eq!(pick([1000, 1200, 1001]), 0, "memcpy fastest");
        assert_eq!(pick([1000, 1000, 1000]), 0, "a tie keeps memcpy");
        // Paired medians: one lucky timing of the kernel (10 % ahead, which
        // a best-of-rounds rule would take) does not make it a winner, and a
        // burst of load that slows both candidates of a round does not count.
        let mut calls = 0;
        let k = choose_over_default(&[0usize, 1], 3, 5, |k| {
            calls += 1;
            Duration::from_nanos(match (k, calls) {
                (1, 2) => 900,
                (_, 3) | (_, 4) => 7000,
                _ => 1000,
            })
        });
        assert_eq!(k, 0);
        let round = calls;
        assert_eq!(round, 6, "every candidate timed every round");
    }

    /// Below `PLANNED_MIN_BYTES` the dispatcher calls `memcpy` and decides
    /// nothing: the class of a 100-byte copy stays undecided.
    #[test]
    fn small_copies_bypass_the_plan() {
        let src: Vec<u8> = (0..100u8).collect();
        let mut dst = vec![0u8; 100];
        crate::datapath::copy(&mut dst, &src).unwrap();
        assert_eq!(dst, src);
        assert_eq!(copy_choice(100), None);
        assert_eq!(
            copy_kernel(&mut dst, &src),
            CopyKernel::Portable,
            "reported as memcpy"
        );
        assert_eq!(copy_choice(100), None);
    }

    /// A class is structural when its smallest copy is at least the
    /// last-level cache and the streaming threshold, and the CPU has a SIMD
    /// kernel; then it takes the widest one.
    #[test]
    fn structural_classes_are_those_above_the_cache_with_a_simd_kernel() {
        let avx2 = Features {
            avx2: true,
            ..Features::portable()
        };
        let avx512 = Features {
            avx512f: true,
            ..avx2
        };
        let c16 = size_class(16 << 20); // [16 MiB, 32 MiB)
        let llc = Some(16usize << 20);
        assert_eq!(
            structural_copy_kernel(c16, llc, avx2),
            Some(CopyKernel::Avx2)
        );
        assert_eq!(
            structural_copy_kernel(c16, llc, avx512),
            Some(CopyKernel::Avx512)
        );
        assert_eq!(
            structural_copy_kernel(c16 - 1, llc, avx2),
            None,
            "8 MiB class"
        );
        assert_eq!(structural_copy_kernel(c16, Some(32 << 20), avx2), None);
        assert_eq!(
            structural_copy_kernel(c16, None, avx2),
            None,
            "unknown cache"
        );
        assert_eq!(
            structural_copy_kernel(c16, llc, Features::portable()),
            None,
            "no SIMD kernel"
        );
        // A small cache does not make a class below the streaming
        // threshold structural.
        let c1 = size_class(1 << 20);
        assert_eq!(structural_copy_kernel(c1, Some(512 << 10), avx2), None);
        assert_eq!(
            structural_copy_kernel(size_class(4 << 20), Some(512 << 10), avx2),
            Some(CopyKernel::Avx2)
        );
    }

    #[test]
    fn cache_sizes_parse_as_sysfs_writes_them() {
        assert_eq!(parse_cache_size("16384K\n"), Some(16 << 20));
        assert_eq!(parse_cache_size("32M"), Some(32 << 20));
        assert_eq!(parse_cache_size("1G"), Some(1 << 30));
        assert_eq!(parse_cache_size("512"), Some(512));
        assert_eq!(parse_cache_size(""), None);
        assert_eq!(parse_cache_size("K"), None);
        assert_eq!(parse_cache_size("12x"), None);
    }

    /// The highest level listed wins, whatever the directory order; entries
    /// that are not `index*` or lack a readable level or size are skipped.
    #[test]
    fn the_last_level_cache_is_the_highest_level_listed() {
        let dir = std::env::temp_dir().join(format!("sb2sb-llc-{}", std::process::id()));
        let put = |idx: &str, level: &str, size: &str| {
            let d = dir.join(idx);
            std::fs::create_dir_all(&d).unwrap();
            std::fs::write(d.join("level"), level).unwrap();
            std::fs::write(d.join("size"), size).unwrap();
        };
        put("index0", "1\n", "32K\n");
        put("index3", "3\n", "16384K\n");
        put("index2", "2\n", "512K\n");
        put("index4", "4\n", "bogus\n");
        put("uevent_dir", "9\n", "1G\n");
        assert_eq!(read_llc_bytes(&dir), Some(16 << 20));
        assert_eq!(read_llc_bytes(&dir.join("missing")), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn calibration_rounds_cover_a_fixed_byte_budget_within_bounds() {
        // 32 MiB per kernel: a 1 MiB timing gets 15 rounds (the cap; it had
        // 3), a 4 MiB one 8, a timing of 8 MiB or more the floor of 5.
        assert_eq!(cal_rounds(1 << 20), 15);
        assert_eq!(cal_rounds(4 << 20), 8);
        assert_eq!(cal_rounds(8 << 20), 5);
        assert_eq!(cal_rounds(16 << 20), 5);
        assert_eq!(cal_rounds(28 << 20), 5);
        assert_eq!(cal_rounds(0), 15);
        for b in [1usize, 4096, 256 << 10, 3 << 20, 1 << 30] {
            assert!((ROUNDS_MIN..=ROUNDS_MAX).contains(&cal_rounds(b)));
        }
    }

    #[test]
    fn plan_indices_follow_the_table_order() {
        for (i, d) in Dtype::ALL.into_iter().enumerate() {
            assert_eq!(dtype_index(d), i, "{d}");
        }
        for (i, k) in reduce::Kernel::ALL.into_iter().enumerate() {
            assert_eq!(reduce_from_code(reduce_code(k)), Some(k));
            assert_eq!(reduce_code(k), i as u8 + 1);
        }
        assert_eq!(reduce_from_code(UNSET), None);
        assert_eq!(reduce_from_code(4), None);
    }

    #[test]
    fn reduce_calibration_sizes_are_whole_elements_within_bounds() {
        for len in [0usize, 1, 255, 4096, 4097, 3 << 20, (28 << 20) + 3, 1 << 30] {
            for d in Dtype::ALL {
                let n = reduce_cal_bytes(len, d);
                assert!((REDUCE_CAL_MIN..=REDUCE_CAL_MAX).contains(&n));
                assert_eq!(n % d.size(), 0);
            }
        }
        // A memory-bound class is timed memory bound, at the size of its
        // first call: a 28 MiB fold on 28 MiB (source + accumulator = 56 MiB,
        // above the 32 MiB L3), not on the 16 MiB class floor nor a
        // cache-resident 1 MiB; a cache-sized fold at its own size.
        assert_eq!(reduce_cal_bytes(28 << 20, Dtype::Fp32), 28 << 20);
        assert_eq!(reduce_cal_bytes((3 << 20) + 2, Dtype::Int32), 3 << 20);
        assert_eq!(reduce_cal_bytes(4096, Dtype::Bf16), 4096);
        assert_eq!(reduce_cal_bytes(1 << 30, Dtype::Bf16), 32 << 20);
        assert_eq!(reduce_cal_bytes(3, Dtype::Fp16), 256);
    }
}
