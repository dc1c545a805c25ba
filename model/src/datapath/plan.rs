//! Per-size-class kernel choice, calibrated once per process.
//!
//! A size class is the bit length of the byte count (`n` in
//! `[2^(c-1), 2^c)` is class `c`; 0 bytes is class 0). The first call of a
//! dispatcher in a class times every kernel this CPU supports and remembers
//! the fastest for the rest of the process (one relaxed atomic load per call
//! afterwards). Every kernel gives the same bytes (tested against the scalar
//! reference), so the choice changes speed only, never results.
//!
//! - [`super::copy`]: timed on the caller's own buffers (a copy is
//!   idempotent, so repeating it is harmless), [`cal_rounds`] rounds of every
//!   kernel, interleaved, best time per kernel; small copies repeat inside one
//!   timing so each timing covers at least `MIN_TIMED_BYTES`. Below the
//!   streaming threshold every candidate is also timed on a private pair
//!   with the destination 16 bytes past the source modulo 4 KiB, each timing
//!   after one untimed copy, and the sum of its two times is its score
//!   ([`choose_over_pairs`], [`cached_copy_candidates`]).
//! - [`super::copy_streamed`] (a piece of a copy much larger than the
//!   cache): one choice for the process, timed on private buffers of
//!   `STREAM_CAL_BYTES` with non-temporal stores (repeating a small piece
//!   would measure the cache, not the stream).
//! - [`super::reduce::recv_reduce`]: per (dtype, class), timed on private
//!   buffers (a fold is not idempotent) of the size of the class's first
//!   call clamped to `[REDUCE_CAL_MIN, REDUCE_CAL_MAX]` bytes.
//!
//! [`choose`] is the selection rule, separated from the clock so a test can
//! check it with made-up timings.

use std::sync::atomic::{AtomicU8, Ordering};
use std::time::{Duration, Instant};

use super::copy::{run_stream, CopyKernel};
use super::reduce::{self, Dtype, ReduceOp};
use super::Features;

/// Number of size classes (bit lengths 0..=64).
pub const CLASSES: usize = 65;
/// Fewest timing rounds per kernel (best of): calibrations whose one timing
/// already covers [`CAL_BYTES_PER_KERNEL`] / 5 bytes or more. (3 until
/// session 17, when the 28 MiB classes' choice still flipped between runs
/// on the shared host: docs/performance.md § 1.)
const ROUNDS_MIN: usize = 5;
/// Most timing rounds per kernel.
const ROUNDS_MAX: usize = 15;
/// A calibration times each kernel over about this many bytes in all (rounds
/// × bytes per timing), so a short timing gets more rounds: a 1 MiB class
/// timed over 3 rounds of one 25 µs fold each chose AVX-512 for int32 where
/// AVX2 was 6 % faster (docs/performance.md §1, session 7).
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
/// A timing repeats a small copy until it covers at least this many bytes.
const MIN_TIMED_BYTES: usize = 256 << 10;
/// Bytes of each private buffer of the streamed-copy calibration (source and
/// destination together are the L3 size of the development machine, 32 MiB).
pub const STREAM_CAL_BYTES: usize = 16 << 20;
/// Smallest and largest private buffer of a reduce calibration.
pub const REDUCE_CAL_MIN: usize = 256;
/// Largest private buffer of a reduce calibration. A first call up to it is
/// timed at its own size; a larger one at this size, which with the
/// accumulator is twice the L3 size of the development machine, so the fold
/// is timed memory bound as the class runs. (A 1 MiB cap, cache resident,
/// picked AVX-512 for 28 MiB fp32/int32 folds where AVX2 was 13–21 %
/// faster: docs/performance.md §1.)
pub const REDUCE_CAL_MAX: usize = 32 << 20;

const UNSET: u8 = 0;

static COPY_PLAN: [AtomicU8; CLASSES] = [const { AtomicU8::new(UNSET) }; CLASSES];
static STREAM_PLAN: AtomicU8 = AtomicU8::new(UNSET);
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

/// The candidate with the smallest best-of-rounds time; ties go to the
/// earlier candidate. `time(k)` is one timing of candidate `k`; the rounds
/// are interleaved (k0, k1, …, k0, k1, …) so a burst of load from other
/// processes hits every candidate alike.
pub fn choose<K: Copy>(cands: &[K], rounds: usize, mut time: impl FnMut(K) -> Duration) -> K {
    choose_summed::<K, 1>(cands, rounds, |k, _| time(k))
}

fn copy_code(k: CopyKernel) -> u8 {
    1 + CopyKernel::ALL.iter().position(|&x| x == k).unwrap_or(1) as u8
}

fn copy_from_code(c: u8) -> Option<CopyKernel> {
    CopyKernel::ALL.get(usize::from(c).checked_sub(1)?).copied()
}

/// The copy kernels a dispatcher chooses among on this CPU (the scalar byte
/// loop is the test reference, never a candidate).
pub fn copy_candidates() -> Vec<CopyKernel> {
    let f = Features::get();
    [CopyKernel::Portable, CopyKernel::Avx2, CopyKernel::Avx512]
        .into_iter()
        .filter(|&k| f.supports(k))
        .collect()
}

/// The candidates of a class below [`super::copy::STREAM_THRESHOLD`]: every
/// kernel this CPU supports, `Portable` (libc `memcpy`) included. The
/// class's choice serves every buffer pair of the class, but the caller's
/// first pair is one of them: each candidate is also timed on a second pair
/// with the destination [`OFFSET_PAIR_DELTA`] bytes past the source modulo
/// 4 KiB, and scored by the sum of its two timings ([`choose_over_pairs`]).
/// That pair is where `memcpy` fell off a cliff on
/// the AMD development machine (4 KiB: 1.43 µs against 45-51 ns for AVX2,
/// the `dst = src + 16` row of `cargo bench --bench datapath`; session 14
/// left `memcpy` out of these classes for it), while on the Intel machine
/// of session 18 `memcpy` (`rep movsb`) was the fastest kernel at 64 KiB
/// and 1 MiB, 2-7 % ahead of AVX-512, at both offsets.
pub fn cached_copy_candidates() -> Vec<CopyKernel> {
    copy_candidates()
}

/// The second pair of a cached-class calibration puts the destination this
/// many bytes past the source modulo 4 KiB.
pub const OFFSET_PAIR_DELTA: usize = 16;

/// The candidate with the smallest sum of its two pairs' best-of-rounds
/// times: `time(k, pair)` is one timing of candidate `k` on pair 0 (the
/// caller's buffers) or pair 1 (the offset pair), rounds interleaved as in
/// [`choose`]; ties go to the earlier candidate. A cliff on either pair
/// (memcpy's 30× on the AMD machine) rules a candidate out; a few percent
/// on one pair does not outweigh a clear lead on the other (the slower of
/// the two, tried first, let AVX2 take the 4 KiB class in one run of ten
/// on the Intel machine, where all three kernels are within 7 % on the
/// offset pair and AVX-512 leads by 25 % on the first: dispatch 1.31× the
/// best kernel).
pub fn choose_over_pairs<K: Copy>(
    cands: &[K],
    rounds: usize,
    time: impl FnMut(K, usize) -> Duration,
) -> K {
    choose_summed::<K, 2>(cands, rounds, time)
}

/// The rule of [`choose`] and [`choose_over_pairs`] over `P` buffer pairs:
/// every candidate timed on every pair each round (`time(k, pair)`), its
/// best time per pair kept, the candidate with the smallest sum of those
/// wins; ties go to the earlier candidate.
fn choose_summed<K: Copy, const P: usize>(
    cands: &[K],
    rounds: usize,
    mut time: impl FnMut(K, usize) -> Duration,
) -> K {
    let mut best = vec![[Duration::MAX; P]; cands.len()];
    for _ in 0..rounds.max(1) {
        for (b, &k) in best.iter_mut().zip(cands) {
            for (pair, slot) in b.iter_mut().enumerate() {
                *slot = (*slot).min(time(k, pair));
            }
        }
    }
    let i = best
        .iter()
        .map(|b| b.iter().fold(Duration::ZERO, |a, &t| a.saturating_add(t)))
        .enumerate()
        .min_by_key(|(i, t)| (*t, *i))
        .map(|(i, _)| i)
        .unwrap_or(0);
    cands[i]
}

/// A buffer holding a source and a destination of `n` bytes each, the
/// destination [`OFFSET_PAIR_DELTA`] bytes past the source modulo 4 KiB
/// (source at a 4 KiB boundary): the second pair of a cached-class calibration.
struct OffsetPair {
    buf: Vec<u8>,
    src: usize,
    dst: usize,
    n: usize,
}

impl OffsetPair {
    const PAGE: usize = 4 << 10;

    fn new(src: &[u8]) -> Self {
        let n = src.len();
        let span = n.div_ceil(Self::PAGE) * Self::PAGE;
        let mut buf = vec![0u8; 2 * span + 3 * Self::PAGE];
        let base = (Self::PAGE - buf.as_ptr() as usize % Self::PAGE) % Self::PAGE;
        let dst = base + span + Self::PAGE + OFFSET_PAIR_DELTA;
        buf[base..base + n].copy_from_slice(src);
        Self {
            buf,
            src: base,
            dst,
            n,
        }
    }

    fn split(&mut self) -> (&mut [u8], &[u8]) {
        let (lo, hi) = self.buf.split_at_mut(self.dst);
        (&mut hi[..self.n], &lo[self.src..self.src + self.n])
    }
}

fn time_copy(k: CopyKernel, dst: &mut [u8], src: &[u8], reps: usize, stream: bool) -> Duration {
    let t = Instant::now();
    for _ in 0..reps {
        run_stream(k, dst, std::hint::black_box(src), stream);
    }
    t.elapsed()
}

/// The kernel [`super::copy`] uses for `dst.len()` bytes, calibrating the
/// class on these buffers the first time (`dst` ends up equal to `src`).
/// The lookup is inlined into [`super::copy`]; the calibration is a cold
/// call, as [`reduce_kernel`]'s (a 4 KiB copy is ~45 ns).
#[inline]
pub(crate) fn copy_kernel(dst: &mut [u8], src: &[u8]) -> CopyKernel {
    let c = size_class(dst.len());
    match copy_from_code(COPY_PLAN[c].load(Ordering::Relaxed)) {
        Some(k) => k,
        None => calibrate_copy(c, dst, src),
    }
}

/// Time every candidate kernel on `dst`/`src` (the first copy of class `c`)
/// and store the fastest for the class.
#[cold]
#[inline(never)]
fn calibrate_copy(c: usize, dst: &mut [u8], src: &[u8]) -> CopyKernel {
    let n = dst.len();
    let stream = n >= super::copy::STREAM_THRESHOLD;
    let reps = (MIN_TIMED_BYTES / n.max(1)).clamp(1, 4096);
    let rounds = cal_rounds(n * reps);
    // Warm-up: fault in the destination pages before anything is timed.
    run_stream(CopyKernel::Portable, dst, src, false);
    let k = if stream {
        choose(&copy_candidates(), rounds, |k| {
            time_copy(k, dst, src, reps, stream)
        })
    } else {
        let mut off = OffsetPair::new(src);
        let (od, os) = off.split();
        run_stream(CopyKernel::Portable, od, os, false);
        // One untimed copy before each timing: the two pairs together
        // (4 MiB at the 1 MiB class) overflow the L2, so a timing right after
        // the other pair's timed a copy from L3 or memory, where every kernel
        // ties (session 18: 68-70 µs for each at 1 MiB against 34-39 µs
        // warm, the choice then noise), while a class's copies are timed, and
        // mostly run, warm.
        let warm_time = |k: CopyKernel, d: &mut [u8], s: &[u8]| {
            run_stream(k, d, s, false);
            time_copy(k, d, s, reps, false)
        };
        choose_over_pairs(&cached_copy_candidates(), rounds, |k, pair| {
            if pair == 0 {
                warm_time(k, dst, src)
            } else {
                warm_time(k, od, os)
            }
        })
    };
    COPY_PLAN[c].store(copy_code(k), Ordering::Relaxed);
    k
}

/// The kernel [`super::copy_streamed`] uses (calibrated once per process on
/// private buffers of [`STREAM_CAL_BYTES`]).
pub fn stream_kernel() -> CopyKernel {
    if let Some(k) = copy_from_code(STREAM_PLAN.load(Ordering::Relaxed)) {
        return k;
    }
    let src = vec![0x5Au8; STREAM_CAL_BYTES];
    let mut dst = vec![0u8; STREAM_CAL_BYTES];
    run_stream(CopyKernel::Portable, &mut dst, &src, false);
    let k = choose(&copy_candidates(), 2, |k| {
        time_copy(k, &mut dst, &src, 1, true)
    });
    STREAM_PLAN.store(copy_code(k), Ordering::Relaxed);
    k
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
/// whole elements. (Until session 8 the class floor: the 28 MiB class was
/// timed at 16 MiB, source + accumulator = the L3, and picked AVX-512 where
/// the memory-bound 28 MiB fold runs AVX2 12 % faster.)
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
    slot.store(reduce_code(k), Ordering::Relaxed);
    k
}

/// The copy kernel [`super::copy`] has chosen for `len` bytes, if that
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
    if let Some(k) = copy_from_code(STREAM_PLAN.load(Ordering::Relaxed)) {
        out += &format!(" streamed {k:?};");
    }
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
        let k = copy_kernel(&mut dst, &src);
        assert_eq!(dst, src, "calibration leaves dst equal to src");
        assert!(Features::get().supports(k));
        assert!(cached_copy_candidates().contains(&k));
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
    fn cached_classes_time_every_supported_kernel_memcpy_included() {
        let f = Features::get();
        let c = cached_copy_candidates();
        assert!(c.contains(&CopyKernel::Portable), "{c:?}");
        assert!(!c.contains(&CopyKernel::Scalar), "{c:?}");
        for k in CopyKernel::ALL {
            let want = k != CopyKernel::Scalar && f.supports(k);
            assert_eq!(c.contains(&k), want, "{k:?} on {f:?}");
        }
    }

    /// The two-pair rule with made-up timings: a candidate fastest on the
    /// caller's pair but off a cliff on the offset pair (memcpy on the AMD
    /// machine) loses to one a little slower on both; with a small loss on
    /// the offset pair and a clear lead on the first it wins; every candidate
    /// is timed on both pairs every round.
    #[test]
    fn choose_over_pairs_scores_each_candidate_by_the_sum_of_its_pairs() {
        let run = |cliff: u64| {
            let mut calls = [[0usize; 2]; 2];
            let k = choose_over_pairs(&[0usize, 1], 4, |k, pair| {
                calls[k][pair] += 1;
                Duration::from_nanos(match (k, pair) {
                    (0, 0) => 40,
                    (0, _) => cliff,
                    (_, _) => 45,
                })
            });
            (k, calls)
        };
        let (k, calls) = run(1400);
        assert_eq!(
            k, 1,
            "memcpy-like candidate with a cliff on the offset pair"
        );
        assert_eq!(calls, [[4, 4], [4, 4]]);
        assert_eq!(run(42).0, 0, "no cliff: the faster candidate");
        assert_eq!(
            run(48).0,
            0,
            "40 + 48 against 45 + 45: the lead on pair 0 wins"
        );
        assert_eq!(run(51).0, 1, "40 + 51 against 45 + 45");
        // Ties go to the earlier candidate.
        assert_eq!(
            choose_over_pairs(&['a', 'b'], 2, |_, _| Duration::from_nanos(7)),
            'a'
        );
    }

    /// The offset pair: the destination 16 bytes past the source modulo
    /// 4 KiB, source 4 KiB-aligned, the two disjoint, the source holding the
    /// caller's bytes.
    #[test]
    fn the_offset_pair_puts_the_destination_16_bytes_past_the_source_mod_4k() {
        for n in [1usize, 4095, 4096, 65536 + 7] {
            let src: Vec<u8> = (0..n).map(|i| (i * 7) as u8).collect();
            let mut p = OffsetPair::new(&src);
            let (d, s) = p.split();
            assert_eq!(s, &src[..]);
            assert_eq!((d.len(), s.len()), (n, n));
            let (da, sa) = (d.as_ptr() as usize, s.as_ptr() as usize);
            assert_eq!(sa % 4096, 0);
            assert_eq!(da.wrapping_sub(sa) % 4096, OFFSET_PAIR_DELTA);
            assert!(da >= sa + n, "disjoint");
        }
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
