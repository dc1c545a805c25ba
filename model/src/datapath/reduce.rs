//! Fused receive-reduce kernels: `acc[i] = op(incoming[i], acc[i])` in one
//! pass over both buffers, for fp32, bf16, fp16 and int32 with sum, max and
//! min.
//!
//! A reducing ring step (seed 000 §6 NOTE: a ring step's RECV leg may be a
//! `recv_reduce_*` fold-on-receive) folds the bytes arriving from the
//! previous rank into the local block. Doing the fold while the bytes stream
//! in — instead of landing them in a staging buffer and adding in a second
//! pass — saves one write and one read of the whole block.
//!
//! # Arithmetic (project-defined, see `docs/collectives.md`)
//! - `incoming` is the running partial result that arrives from the ring,
//!   `acc` holds this rank's own contribution and receives the result:
//!   `acc[i] = op(incoming[i], acc[i])`.
//! - fp32: IEEE-754 binary32, round to nearest even.
//! - bf16 / fp16 sum: widen both operands to fp32 (exact), add in fp32, round
//!   the sum once to the 16-bit format, nearest even (bf16 NaN: keep the
//!   upper payload and set the quiet bit, as the `half` crate does).
//! - max / min (floats): `max(a, b) = if a > b { a } else { b }`,
//!   `min(a, b) = if a < b { a } else { b }`, compared as numbers and selecting
//!   the operand's bits unchanged — the semantics of x86 `maxps`/`minps`, so
//!   the SIMD and scalar paths agree bit for bit, NaN and ±0 included.
//! - int32: wrapping two's-complement sum, signed max / min.
//!
//! The SIMD path (x86-64 AVX2 + F16C, chosen at run time) and the scalar path
//! give identical bytes; `tests` check it on random bit patterns.

use thiserror::Error;

/// Element type of a reduced buffer (the SDMA dtype of the leg).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Dtype {
    /// IEEE-754 binary32.
    Fp32,
    /// bfloat16 (upper half of binary32).
    Bf16,
    /// IEEE-754 binary16.
    Fp16,
    /// Two's-complement 32-bit integer.
    Int32,
}

impl Dtype {
    /// All element types, in table order.
    pub const ALL: [Dtype; 4] = [Dtype::Fp32, Dtype::Bf16, Dtype::Fp16, Dtype::Int32];

    /// Bytes per element.
    pub const fn size(self) -> usize {
        match self {
            Dtype::Fp32 | Dtype::Int32 => 4,
            Dtype::Bf16 | Dtype::Fp16 => 2,
        }
    }

    /// The name used in JSON programs and on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Dtype::Fp32 => "fp32",
            Dtype::Bf16 => "bf16",
            Dtype::Fp16 => "fp16",
            Dtype::Int32 => "int32",
        }
    }

    /// Parse a name; accepts the nccom-test spellings too (`float32`, `f32`, …).
    pub fn parse(s: &str) -> Option<Dtype> {
        match s.to_ascii_lowercase().as_str() {
            "fp32" | "f32" | "float32" | "float" => Some(Dtype::Fp32),
            "bf16" | "bfloat16" => Some(Dtype::Bf16),
            "fp16" | "f16" | "float16" | "half" => Some(Dtype::Fp16),
            "int32" | "i32" | "int" => Some(Dtype::Int32),
            _ => None,
        }
    }
}

impl core::fmt::Display for Dtype {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// Reduction operator of a reducing receive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReduceOp {
    /// Sum (wrapping for int32).
    Sum,
    /// Maximum.
    Max,
    /// Minimum.
    Min,
}

impl ReduceOp {
    /// All operators.
    pub const ALL: [ReduceOp; 3] = [ReduceOp::Sum, ReduceOp::Max, ReduceOp::Min];

    /// The name used in JSON programs and on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            ReduceOp::Sum => "sum",
            ReduceOp::Max => "max",
            ReduceOp::Min => "min",
        }
    }

    /// Parse a name (`sum`/`add`, `max`, `min`).
    pub fn parse(s: &str) -> Option<ReduceOp> {
        match s.to_ascii_lowercase().as_str() {
            "sum" | "add" => Some(ReduceOp::Sum),
            "max" => Some(ReduceOp::Max),
            "min" => Some(ReduceOp::Min),
            _ => None,
        }
    }
}

impl core::fmt::Display for ReduceOp {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// A receive-reduce that cannot run.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ReduceError {
    /// The two buffers differ in length.
    #[error("receive-reduce: accumulator is {acc} bytes but the incoming buffer is {incoming} bytes (they must be equal)")]
    LengthMismatch {
        /// Bytes in the accumulator.
        acc: usize,
        /// Bytes arriving.
        incoming: usize,
    },
    /// The length is not a whole number of elements.
    #[error("receive-reduce: {len} bytes is not a multiple of the {dtype} element size {size}")]
    PartialElement {
        /// Bytes in each buffer.
        len: usize,
        /// Element type.
        dtype: Dtype,
        /// Its size.
        size: usize,
    },
}

/// Which implementation runs a kernel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kernel {
    /// Portable scalar loop.
    Scalar,
    /// x86-64 AVX2 (+ F16C for fp16).
    Avx2,
    /// x86-64 AVX-512 F + BW + VL (+ F16C).
    Avx512,
}

impl Kernel {
    /// Every kernel, in increasing width.
    pub const ALL: [Kernel; 3] = [Kernel::Scalar, Kernel::Avx2, Kernel::Avx512];

    /// The widest kernel this CPU supports.
    pub fn best() -> Kernel {
        *Self::supported().last().unwrap_or(&Kernel::Scalar)
    }

    /// Whether this CPU can run the kernel.
    pub fn is_supported(self) -> bool {
        match self {
            Kernel::Scalar => true,
            Kernel::Avx2 => avx2_available(),
            Kernel::Avx512 => avx512_available(),
        }
    }

    /// The kernels this CPU can run, in increasing width.
    pub fn supported() -> Vec<Kernel> {
        Self::ALL.into_iter().filter(|k| k.is_supported()).collect()
    }
}

/// True when the AVX2 + F16C kernels can run on this CPU (AVX2 from the
/// shared probe [`super::Features`]; F16C, which only these kernels need, probed here).
fn avx2_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        super::Features::get().avx2 && std::arch::is_x86_feature_detected!("f16c")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// True when the AVX-512 kernels (F, BW, VL, plus F16C) can run.
fn avx512_available() -> bool {
    let f = super::Features::get();
    avx2_available() && f.avx512f && f.avx512bw && f.avx512vl
}

/// Fold `incoming` into `acc` (`acc[i] = op(incoming[i], acc[i])`) with the
/// fastest kernel of this CPU for the size class of the buffers, calibrated
/// once per process ([`super::plan::reduce_kernel`]).
pub fn recv_reduce(
    acc: &mut [u8],
    incoming: &[u8],
    dtype: Dtype,
    op: ReduceOp,
) -> Result<(), ReduceError> {
    check(acc, incoming, dtype)?;
    let k = super::plan::reduce_kernel(acc.len(), dtype);
    // The plan stores only kernels this CPU supports (`Kernel::supported`),
    // so the per-call feature probes of `run` are skipped here: at 4 KiB a
    // fold is ≈ 50 ns and those probes were a measurable part of it
    // (docs/performance.md §1).
    run_supported(k, acc, incoming, dtype, op);
    Ok(())
}

/// Run a kernel known to be supported (one the plan chose) on checked buffers.
#[inline]
fn run_supported(kernel: Kernel, acc: &mut [u8], incoming: &[u8], dtype: Dtype, op: ReduceOp) {
    debug_assert!(kernel.is_supported());
    match kernel {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `kernel` came from `Kernel::supported()` (the plan's
        // candidates), so the CPU has AVX-512 F/BW/VL and F16C; the slices
        // were checked by the caller.
        Kernel::Avx512 => unsafe { avx512::reduce(acc, incoming, dtype, op) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above, AVX2 and F16C.
        Kernel::Avx2 => unsafe { avx2::reduce(acc, incoming, dtype, op) },
        _ => scalar::reduce(acc, incoming, dtype, op),
    }
}

/// [`recv_reduce`] with an explicit kernel (falls back to scalar if the CPU
/// lacks the requested one).
pub fn recv_reduce_with(
    kernel: Kernel,
    acc: &mut [u8],
    incoming: &[u8],
    dtype: Dtype,
    op: ReduceOp,
) -> Result<(), ReduceError> {
    check(acc, incoming, dtype)?;
    run(kernel, acc, incoming, dtype, op);
    Ok(())
}

/// Run `kernel` on checked buffers (equal length, whole elements).
pub(crate) fn run(kernel: Kernel, acc: &mut [u8], incoming: &[u8], dtype: Dtype, op: ReduceOp) {
    debug_assert!(check(acc, incoming, dtype).is_ok());
    let k = if kernel.is_supported() {
        kernel
    } else {
        Kernel::Scalar
    };
    run_supported(k, acc, incoming, dtype, op);
}

fn check(acc: &[u8], incoming: &[u8], dtype: Dtype) -> Result<(), ReduceError> {
    if acc.len() != incoming.len() {
        return Err(ReduceError::LengthMismatch {
            acc: acc.len(),
            incoming: incoming.len(),
        });
    }
    if !acc.len().is_multiple_of(dtype.size()) {
        return Err(ReduceError::PartialElement {
            len: acc.len(),
            dtype,
            size: dtype.size(),
        });
    }
    Ok(())
}

/// One element combined: `op(a, b)` on raw little-endian bit patterns, as
/// documented at the top of this module. Public so that references and
/// tests can name the exact per-element rule.
pub fn combine_bits(dtype: Dtype, op: ReduceOp, a: u32, b: u32) -> u32 {
    scalar::combine(dtype, op, a, b)
}

/// Round an fp32 bit pattern to bf16, nearest even (NaN: upper payload with
/// the quiet bit set).
#[inline]
pub const fn f32_bits_to_bf16(x: u32) -> u16 {
    if x & 0x7FFF_FFFF > 0x7F80_0000 {
        return ((x >> 16) | 0x0040) as u16;
    }
    let lsb = (x >> 16) & 1;
    (x.wrapping_add(0x7FFF + lsb) >> 16) as u16
}

mod scalar {
    use super::{f32_bits_to_bf16, Dtype, ReduceOp};
    use half::f16;

    #[inline]
    fn fmax(a: f32, b: f32) -> f32 {
        if a > b {
            a
        } else {
            b
        }
    }

    #[inline]
    fn fmin(a: f32, b: f32) -> f32 {
        if a < b {
            a
        } else {
            b
        }
    }

    #[inline]
    fn f32op(op: ReduceOp, a: f32, b: f32) -> f32 {
        match op {
            ReduceOp::Sum => a + b,
            ReduceOp::Max => fmax(a, b),
            ReduceOp::Min => fmin(a, b),
        }
    }

    /// Select `a` or `b` (bits unchanged) by comparing their values.
    #[inline]
    fn select(op: ReduceOp, a: u32, b: u32, fa: f32, fb: f32) -> u32 {
        let pick_a = match op {
            ReduceOp::Max => fa > fb,
            ReduceOp::Min => fa < fb,
            ReduceOp::Sum => unreachable!("sum is not a selection"),
        };
        if pick_a {
            a
        } else {
            b
        }
    }

    #[inline]
    pub(super) fn combine(dtype: Dtype, op: ReduceOp, a: u32, b: u32) -> u32 {
        match dtype {
            Dtype::Fp32 => f32op(op, f32::from_bits(a), f32::from_bits(b)).to_bits(),
            Dtype::Int32 => {
                let (x, y) = (a as i32, b as i32);
                (match op {
                    ReduceOp::Sum => x.wrapping_add(y),
                    ReduceOp::Max => x.max(y),
                    ReduceOp::Min => x.min(y),
                }) as u32
            }
            Dtype::Bf16 => {
                let (fa, fb) = (f32::from_bits(a << 16), f32::from_bits(b << 16));
                match op {
                    ReduceOp::Sum => f32_bits_to_bf16((fa + fb).to_bits()) as u32,
                    _ => select(op, a, b, fa, fb),
                }
            }
            Dtype::Fp16 => {
                let (fa, fb) = (
                    f16::from_bits(a as u16).to_f32(),
                    f16::from_bits(b as u16).to_f32(),
                );
                match op {
                    ReduceOp::Sum => f16::from_f32(fa + fb).to_bits() as u32,
                    _ => select(op, a, b, fa, fb),
                }
            }
        }
    }

    pub(super) fn reduce(acc: &mut [u8], incoming: &[u8], dtype: Dtype, op: ReduceOp) {
        match dtype.size() {
            4 => {
                for (d, s) in acc.chunks_exact_mut(4).zip(incoming.chunks_exact(4)) {
                    let b = u32::from_le_bytes([d[0], d[1], d[2], d[3]]);
                    let a = u32::from_le_bytes([s[0], s[1], s[2], s[3]]);
                    d.copy_from_slice(&combine(dtype, op, a, b).to_le_bytes());
                }
            }
            _ => {
                for (d, s) in acc.chunks_exact_mut(2).zip(incoming.chunks_exact(2)) {
                    let b = u16::from_le_bytes([d[0], d[1]]) as u32;
                    let a = u16::from_le_bytes([s[0], s[1]]) as u32;
                    d.copy_from_slice(&(combine(dtype, op, a, b) as u16).to_le_bytes());
                }
            }
        }
    }
}

/// One lane-wise loop (fp32 or int32) of [`simd_reduce`]: `$ty` is the
/// pointer type of the load / store intrinsics.
#[cfg(target_arch = "x86_64")]
macro_rules! lanewise {
    ($d:ident, $s:ident, $i:ident, $head:ident, $body:ident, $step:ident, $step_bytes:expr, $op:ident, $ty:ty,
     $ld:ident, $st:ident, $add:ident, $max:ident, $min:ident) => {{
        if $head > 0 {
            // The head (`$head` bytes, fewer than one vector): one vector
            // folded from the start, stored to a stack buffer, its first
            // `$head` bytes copied back. The loop below starts `$head` bytes
            // in and reads only bytes this did not write.
            let a = $ld($s as *const $ty);
            let b = $ld($d as *const $ty);
            let r = match $op {
                ReduceOp::Sum => $add(a, b),
                ReduceOp::Max => $max(a, b),
                ReduceOp::Min => $min(a, b),
            };
            let mut v = core::mem::MaybeUninit::<[u8; $step_bytes]>::uninit();
            $st(v.as_mut_ptr() as *mut $ty, r);
            core::ptr::copy_nonoverlapping(v.as_ptr() as *const u8, $d, $head);
        }
        let $d = $d.add($head);
        let $s = $s.add($head);
        while $i < $body {
            let a = $ld($s.add($i) as *const $ty);
            let b = $ld($d.add($i) as *const $ty);
            let r = match $op {
                ReduceOp::Sum => $add(a, b),
                ReduceOp::Max => $max(a, b),
                ReduceOp::Min => $min(a, b),
            };
            $st($d.add($i) as *mut $ty, r);
            $i += $step;
        }
    }};
}

/// Smallest fp32 / int32 fold whose accumulator the SIMD kernels align
/// before their vector loop (`simd_reduce!`).
#[cfg(target_arch = "x86_64")]
const HEAD_MIN_BYTES: usize = 32 << 10;

/// The skeleton every SIMD receive-reduce kernel shares, one definition for
/// every vector width: `step16` / `step32` bytes per iteration for 16-bit
/// and 32-bit types; the lane-wise fp32 and int32 loops from the width's
/// load / store / add / max / min intrinsics (`maxps`/`minps` semantics for
/// floats, module docs); the width's own bf16 and fp16 loop bodies, which
/// see `$d`, `$s` (destination / source pointers), `$i` (byte index) and
/// `$op`; then the scalar tail. Expands inside the kernel's `unsafe` body,
/// which checked the CPU features and the lengths.
#[cfg(target_arch = "x86_64")]
macro_rules! simd_reduce {
    (($acc:ident, $inc:ident, $dtype:ident, $op:ident) step16 $s16:expr, step32 $s32:expr;
     fp32 $fty:ty: $fld:ident, $fst:ident; $fadd:ident, $fmax:ident, $fmin:ident;
     int32 $ity:ty: $ild:ident, $ist:ident; $iadd:ident, $imax:ident, $imin:ident;
     |$d:ident, $s:ident, $i:ident| bf16 $bf16:block fp16 $fp16:block) => {{
        let n = $acc.len();
        let step = if $dtype == Dtype::Fp16 { $s16 } else { $s32 };
        // fp32 / int32 from HEAD_MIN_BYTES: a head of fewer than one
        // vector's elements first (`lanewise!`), so the lane-wise loop's accumulator loads
        // and stores start on a vector boundary and never split a cache line
        // (as the copy kernels align their destination). Measured on int32
        // 64 KiB, best of 31 (Intel Xeon, AVX-512): the accumulator 16 or 48 bytes past a 64-byte
        // boundary took AVX2 1.52-1.67 µs and AVX-512 1.31-1.45 µs, aligned
        // both 1.30-1.34 µs; a calibration on one buffer pair then chose the
        // kernel for the pair's offset (docs/performance.md § 1). The head
        // costs ≈ 20 ns (a scalar one ≈ 45 ns), more than it saves on a
        // 4 KiB fold (fp32 AVX-512, accumulator 32 bytes off: 57 -> 76 ns),
        // hence the floor. The bf16 / fp16 bodies are compute bound: they
        // start at 0.
        let head = match $dtype {
            Dtype::Fp32 | Dtype::Int32 if n >= super::HEAD_MIN_BYTES => {
                let mis = ($acc.as_ptr() as usize) % $s32;
                if mis % 4 == 0 {
                    ($s32 - mis) % $s32
                } else {
                    0
                }
            }
            _ => 0,
        };
        // Bytes the vector loop folds after the head.
        let body = (n - head) - (n - head) % step;
        let $d = $acc.as_mut_ptr();
        let $s = $inc.as_ptr();
        let mut $i = 0;
        match $dtype {
            Dtype::Fp32 => lanewise!($d, $s, $i, head, body, step, $s32, $op, $fty, $fld, $fst, $fadd, $fmax, $fmin),
            Dtype::Int32 => lanewise!($d, $s, $i, head, body, step, $s32, $op, $ity, $ild, $ist, $iadd, $imax, $imin),
            Dtype::Bf16 => {
                while $i < body {
                    $bf16
                    $i += step;
                }
            }
            Dtype::Fp16 => {
                while $i < body {
                    $fp16
                    $i += step;
                }
            }
        }
        scalar::reduce(&mut $acc[head + body..], &$inc[head + body..], $dtype, $op);
    }};
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{scalar, Dtype, ReduceOp};
    use std::arch::x86_64::*;

    /// SAFETY: caller checks AVX2 + F16C and equal, element-multiple lengths.
    #[target_feature(enable = "avx2,f16c")]
    pub(super) unsafe fn reduce(acc: &mut [u8], incoming: &[u8], dtype: Dtype, op: ReduceOp) {
        // unpacklo/hi(0, x) put each bf16 in the upper half of a
        // 32-bit lane (exact widening), in-lane; packus_epi32 undoes
        // the same in-lane split, so no cross-lane shuffle is needed.
        let zero = _mm256_setzero_si256();
        simd_reduce! { (acc, incoming, dtype, op) step16 16, step32 32;
            fp32 f32: _mm256_loadu_ps, _mm256_storeu_ps; _mm256_add_ps, _mm256_max_ps, _mm256_min_ps;
            int32 __m256i: _mm256_loadu_si256, _mm256_storeu_si256; _mm256_add_epi32, _mm256_max_epi32, _mm256_min_epi32;
            |d, s, i| bf16 {
                let x = _mm256_loadu_si256(s.add(i) as *const __m256i);
                let y = _mm256_loadu_si256(d.add(i) as *const __m256i);
                let (alo, ahi) = (
                    _mm256_castsi256_ps(_mm256_unpacklo_epi16(zero, x)),
                    _mm256_castsi256_ps(_mm256_unpackhi_epi16(zero, x)),
                );
                let (blo, bhi) = (
                    _mm256_castsi256_ps(_mm256_unpacklo_epi16(zero, y)),
                    _mm256_castsi256_ps(_mm256_unpackhi_epi16(zero, y)),
                );
                let r = match op {
                    ReduceOp::Sum => _mm256_packus_epi32(
                        bf16_round32(_mm256_add_ps(alo, blo)),
                        bf16_round32(_mm256_add_ps(ahi, bhi)),
                    ),
                    ReduceOp::Max | ReduceOp::Min => {
                        let (mlo, mhi) = if op == ReduceOp::Max {
                            (
                                _mm256_cmp_ps::<_CMP_GT_OQ>(alo, blo),
                                _mm256_cmp_ps::<_CMP_GT_OQ>(ahi, bhi),
                            )
                        } else {
                            (
                                _mm256_cmp_ps::<_CMP_LT_OQ>(alo, blo),
                                _mm256_cmp_ps::<_CMP_LT_OQ>(ahi, bhi),
                            )
                        };
                        let m16 = _mm256_packs_epi32(
                            _mm256_castps_si256(mlo),
                            _mm256_castps_si256(mhi),
                        );
                        _mm256_blendv_epi8(y, x, m16)
                    }
                };
                _mm256_storeu_si256(d.add(i) as *mut __m256i, r);
            } fp16 {
                let a16 = _mm_loadu_si128(s.add(i) as *const __m128i);
                let b16 = _mm_loadu_si128(d.add(i) as *const __m128i);
                let (a, b) = (_mm256_cvtph_ps(a16), _mm256_cvtph_ps(b16));
                let r16 = match op {
                    ReduceOp::Sum => {
                        _mm256_cvtps_ph::<_MM_FROUND_TO_NEAREST_INT>(_mm256_add_ps(a, b))
                    }
                    // maxps/minps pick b unless (a > b) / (a < b): build
                    // the same mask and select the original 16-bit words.
                    ReduceOp::Max => select16(_mm256_cmp_ps::<_CMP_GT_OQ>(a, b), a16, b16),
                    ReduceOp::Min => select16(_mm256_cmp_ps::<_CMP_LT_OQ>(a, b), a16, b16),
                };
                _mm_storeu_si128(d.add(i) as *mut __m128i, r16);
            }
        }
    }

    /// 8 fp32 → 8 bf16 in the low half of each 32-bit lane, nearest even;
    /// NaN keeps its upper payload with the quiet bit set.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn bf16_round32(x: __m256) -> __m256i {
        let xi = _mm256_castps_si256(x);
        let abs = _mm256_and_si256(xi, _mm256_set1_epi32(0x7FFF_FFFF));
        let nan = _mm256_cmpgt_epi32(abs, _mm256_set1_epi32(0x7F80_0000));
        let lsb = _mm256_and_si256(_mm256_srli_epi32::<16>(xi), _mm256_set1_epi32(1));
        let bias = _mm256_add_epi32(lsb, _mm256_set1_epi32(0x7FFF));
        let rounded = _mm256_srli_epi32::<16>(_mm256_add_epi32(xi, bias));
        let quiet = _mm256_or_si256(_mm256_srli_epi32::<16>(xi), _mm256_set1_epi32(0x0040));
        _mm256_blendv_epi8(rounded, quiet, nan)
    }

    /// Per lane: the mask (all ones / zero, 32-bit) picks `a16`, else `b16`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn select16(mask: __m256, a16: __m128i, b16: __m128i) -> __m128i {
        let m = _mm256_castps_si256(mask);
        let m16 = _mm_packs_epi32(_mm256_castsi256_si128(m), _mm256_extracti128_si256::<1>(m));
        _mm_blendv_epi8(b16, a16, m16)
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::{scalar, Dtype, ReduceOp};
    use std::arch::x86_64::*;

    /// The AVX2 kernel's algorithm on 512-bit vectors (same lane-local
    /// widening, rounding and selection, so the same bytes).
    /// SAFETY: caller checks AVX-512 F/BW/VL + F16C and equal,
    /// element-multiple lengths.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2,f16c")]
    pub(super) unsafe fn reduce(acc: &mut [u8], incoming: &[u8], dtype: Dtype, op: ReduceOp) {
        let zero = _mm512_setzero_si512();
        let ones = _mm512_set1_epi32(-1);
        simd_reduce! { (acc, incoming, dtype, op) step16 32, step32 64;
            fp32 f32: _mm512_loadu_ps, _mm512_storeu_ps; _mm512_add_ps, _mm512_max_ps, _mm512_min_ps;
            int32 __m512i: _mm512_loadu_si512, _mm512_storeu_si512; _mm512_add_epi32, _mm512_max_epi32, _mm512_min_epi32;
            |d, s, i| bf16 {
                let x = _mm512_loadu_si512(s.add(i) as *const __m512i);
                let y = _mm512_loadu_si512(d.add(i) as *const __m512i);
                let (alo, ahi) = (
                    _mm512_castsi512_ps(_mm512_unpacklo_epi16(zero, x)),
                    _mm512_castsi512_ps(_mm512_unpackhi_epi16(zero, x)),
                );
                let (blo, bhi) = (
                    _mm512_castsi512_ps(_mm512_unpacklo_epi16(zero, y)),
                    _mm512_castsi512_ps(_mm512_unpackhi_epi16(zero, y)),
                );
                let r = match op {
                    ReduceOp::Sum => _mm512_packus_epi32(
                        bf16_round32(_mm512_add_ps(alo, blo)),
                        bf16_round32(_mm512_add_ps(ahi, bhi)),
                    ),
                    ReduceOp::Max | ReduceOp::Min => {
                        let (mlo, mhi) = if op == ReduceOp::Max {
                            (
                                _mm512_cmp_ps_mask::<_CMP_GT_OQ>(alo, blo),
                                _mm512_cmp_ps_mask::<_CMP_GT_OQ>(ahi, bhi),
                            )
                        } else {
                            (
                                _mm512_cmp_ps_mask::<_CMP_LT_OQ>(alo, blo),
                                _mm512_cmp_ps_mask::<_CMP_LT_OQ>(ahi, bhi),
                            )
                        };
                        // Masks back to vectors, packed in-lane like the
                        // data, then to one bit per 16-bit element.
                        let m16 = _mm512_packs_epi32(
                            _mm512_maskz_mov_epi32(mlo, ones),
                            _mm512_maskz_mov_epi32(mhi, ones),
                        );
                        _mm512_mask_blend_epi16(_mm512_movepi16_mask(m16), y, x)
                    }
                };
                _mm512_storeu_si512(d.add(i) as *mut __m512i, r);
            } fp16 {
                let a16 = _mm256_loadu_si256(s.add(i) as *const __m256i);
                let b16 = _mm256_loadu_si256(d.add(i) as *const __m256i);
                let (a, b) = (_mm512_cvtph_ps(a16), _mm512_cvtph_ps(b16));
                let r16 = match op {
                    ReduceOp::Sum => {
                        _mm512_cvtps_ph::<_MM_FROUND_TO_NEAREST_INT>(_mm512_add_ps(a, b))
                    }
                    ReduceOp::Max => _mm256_mask_blend_epi16(
                        _mm512_cmp_ps_mask::<_CMP_GT_OQ>(a, b),
                        b16,
                        a16,
                    ),
                    ReduceOp::Min => _mm256_mask_blend_epi16(
                        _mm512_cmp_ps_mask::<_CMP_LT_OQ>(a, b),
                        b16,
                        a16,
                    ),
                };
                _mm256_storeu_si256(d.add(i) as *mut __m256i, r16);
            }
        }
    }

    /// 16 fp32 → 16 bf16 in the low half of each 32-bit lane, nearest even;
    /// NaN keeps its upper payload with the quiet bit set.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn bf16_round32(x: __m512) -> __m512i {
        let xi = _mm512_castps_si512(x);
        let abs = _mm512_and_si512(xi, _mm512_set1_epi32(0x7FFF_FFFF));
        let nan = _mm512_cmpgt_epi32_mask(abs, _mm512_set1_epi32(0x7F80_0000));
        let lsb = _mm512_and_si512(_mm512_srli_epi32::<16>(xi), _mm512_set1_epi32(1));
        let bias = _mm512_add_epi32(lsb, _mm512_set1_epi32(0x7FFF));
        let rounded = _mm512_srli_epi32::<16>(_mm512_add_epi32(xi, bias));
        let quiet = _mm512_or_si512(_mm512_srli_epi32::<16>(xi), _mm512_set1_epi32(0x0040));
        _mm512_mask_blend_epi32(nan, rounded, quiet)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Every supported kernel and the dispatcher on unaligned windows of
    /// the buffers, each compared with the scalar loop.
    fn check_all(dtype: Dtype, op: ReduceOp, acc: &[u8], inc: &[u8]) -> Result<(), String> {
        let mut want = acc.to_vec();
        recv_reduce_with(Kernel::Scalar, &mut want, inc, dtype, op).unwrap();
        for k in Kernel::supported() {
            let mut got = acc.to_vec();
            recv_reduce_with(k, &mut got, inc, dtype, op).unwrap();
            if got != want {
                return Err(format!("{k:?} {dtype} {op} len {}", acc.len()));
            }
        }
        let mut got = acc.to_vec();
        recv_reduce(&mut got, inc, dtype, op).unwrap();
        if got != want {
            return Err(format!("dispatch {dtype} {op} len {}", acc.len()));
        }
        Ok(())
    }

    proptest! {
        #[test]
        fn simd_equals_scalar_on_random_bits(seed in any::<u64>(), len in 0usize..600, di in 0usize..4, oi in 0usize..3, ao in 0usize..8, io in 0usize..8) {
            let dtype = Dtype::ALL[di];
            let op = ReduceOp::ALL[oi];
            let n = len * dtype.size();
            let mut r = crate::stim::StimRng::new(seed);
            let mut abuf = vec![0u8; n + ao];
            let mut ibuf = vec![0u8; n + io];
            r.fill(&mut abuf);
            r.fill(&mut ibuf);
            let res = check_all(dtype, op, &abuf[ao..], &ibuf[io..]);
            prop_assert!(res.is_ok(), "{:?}", res);
        }
    }

    #[test]
    fn every_kernel_equals_scalar_on_all_small_lengths_alignments_and_special_values() {
        // Specials: ±0, ±inf, quiet/signalling NaN, denormals, max finite.
        let specials32: [u32; 8] = [
            0,
            0x8000_0000,
            0x7F80_0000,
            0xFF80_0000,
            0x7FC0_0001,
            0x7F80_0001,
            1,
            0x7F7F_FFFF,
        ];
        let specials16: [u16; 8] = [0, 0x8000, 0x7C00, 0xFC00, 0x7E01, 0x7C01, 1, 0x7BFF];
        let mut r = crate::stim::StimRng::new(42);
        for dtype in Dtype::ALL {
            for op in ReduceOp::ALL {
                for elems in 0..=70usize {
                    let n = elems * dtype.size();
                    for off in [0usize, 1, 2, 3] {
                        let mut a = vec![0u8; n + off];
                        let mut b = vec![0u8; n + off];
                        r.fill(&mut a);
                        r.fill(&mut b);
                        // Every third element a special value.
                        for e in (0..elems).step_by(3) {
                            let k = (r.u32() % 8) as usize;
                            let at = off + e * dtype.size();
                            if dtype.size() == 4 {
                                a[at..at + 4].copy_from_slice(&specials32[k].to_le_bytes());
                            } else {
                                let v = if dtype == Dtype::Bf16 {
                                    (specials32[k] >> 16) as u16
                                } else {
                                    specials16[k]
                                };
                                a[at..at + 2].copy_from_slice(&v.to_le_bytes());
                            }
                        }
                        check_all(dtype, op, &a[off..], &b[..n]).unwrap();
                    }
                }
            }
        }
    }

    /// Folds from `HEAD_MIN_BYTES`, where the fp32 / int32 SIMD kernels
    /// fold a head to align the accumulator: every accumulator offset 0..64
    /// (the head is 0..60 bytes, or none when the offset is not a whole
    /// element), incoming offsets 0, 4 and 13, lengths just below, at and past
    /// the floor with every tail, random bits, every op, against the scalar loop.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn every_kernel_equals_scalar_where_the_accumulator_is_aligned_first() {
        let mut r = crate::stim::StimRng::new(18);
        let floor = HEAD_MIN_BYTES;
        for dtype in Dtype::ALL {
            for op in ReduceOp::ALL {
                for n in [floor - 4, floor, floor + 4, floor + 60, floor + 64 + 44] {
                    let n = n - n % dtype.size();
                    for ao in 0..64usize {
                        for io in [0usize, 4, 13] {
                            let mut a = vec![0u8; n + ao];
                            let mut b = vec![0u8; n + io];
                            r.fill(&mut a);
                            r.fill(&mut b);
                            check_all(dtype, op, &a[ao..], &b[io..]).unwrap();
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn bf16_sum_matches_half_crate_rounding() {
        let mut r = crate::stim::StimRng::new(1);
        for _ in 0..100_000 {
            let x = f32::from_bits(r.u32());
            assert_eq!(
                f32_bits_to_bf16(x.to_bits()),
                half::bf16::from_f32(x).to_bits(),
                "{x:e}"
            );
        }
    }

    #[test]
    fn fp32_sum_max_min_elementwise() {
        let acc: Vec<u8> = [1.0f32, -2.0, 3.5, 0.0]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        let inc: Vec<u8> = [0.5f32, 4.0, -1.0, -0.0]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        let f = |b: &[u8]| {
            b.chunks(4)
                .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
                .collect::<Vec<_>>()
        };
        let mut a = acc.clone();
        recv_reduce(&mut a, &inc, Dtype::Fp32, ReduceOp::Sum).unwrap();
        assert_eq!(f(&a), vec![1.5, 2.0, 2.5, 0.0]);
        let mut a = acc.clone();
        recv_reduce(&mut a, &inc, Dtype::Fp32, ReduceOp::Max).unwrap();
        assert_eq!(f(&a), vec![1.0, 4.0, 3.5, 0.0]);
        let mut a = acc.clone();
        recv_reduce(&mut a, &inc, Dtype::Fp32, ReduceOp::Min).unwrap();
        assert_eq!(f(&a), vec![0.5, -2.0, -1.0, 0.0]);
    }

    /// An int32 sum wraps modulo 2^32 (i32::MAX + 1 = i32::MIN; docs/decisions.md
    /// "Reduce arithmetic"), rather than saturating or panicking.
    #[test]
    fn int32_sum_wraps() {
        let mut acc = i32::MAX.to_le_bytes().to_vec();
        recv_reduce(&mut acc, &1i32.to_le_bytes(), Dtype::Int32, ReduceOp::Sum).unwrap();
        assert_eq!(i32::from_le_bytes(acc.try_into().unwrap()), i32::MIN);
    }

    #[test]
    fn bf16_and_fp16_sum_round_once_from_fp32() {
        // 1 + 2^-8 is not representable in bf16 (8 significant bits): ties to even → 1.0.
        let one = half::bf16::from_f32(1.0).to_bits().to_le_bytes();
        let tiny = half::bf16::from_f32(1.0 / 256.0).to_bits().to_le_bytes();
        let mut acc = one.to_vec();
        recv_reduce(&mut acc, &tiny, Dtype::Bf16, ReduceOp::Sum).unwrap();
        assert_eq!(acc, one.to_vec());
        let a = half::f16::from_f32(1.0).to_bits().to_le_bytes();
        let b = half::f16::from_f32(0.5).to_bits().to_le_bytes();
        let mut acc = a.to_vec();
        recv_reduce(&mut acc, &b, Dtype::Fp16, ReduceOp::Sum).unwrap();
        assert_eq!(
            u16::from_le_bytes([acc[0], acc[1]]),
            half::f16::from_f32(1.5).to_bits()
        );
    }

    #[test]
    fn length_mismatch_and_partial_element_are_errors() {
        let mut acc = vec![0u8; 8];
        let e = recv_reduce(&mut acc, &[0u8; 4], Dtype::Fp32, ReduceOp::Sum).unwrap_err();
        assert!(e.to_string().contains("must be equal"), "{e}");
        let mut acc = vec![0u8; 6];
        let e = recv_reduce(&mut acc, &[0u8; 6], Dtype::Fp32, ReduceOp::Sum).unwrap_err();
        assert!(e.to_string().contains("not a multiple"), "{e}");
    }

    #[test]
    fn max_min_select_operand_bits_for_nan_and_signed_zero() {
        // maxps semantics: b unless a > b. a = NaN → b; b = NaN → b (the NaN).
        let nan = 0x7FC0_1234u32;
        assert_eq!(
            combine_bits(Dtype::Fp32, ReduceOp::Max, nan, 1.0f32.to_bits()),
            1.0f32.to_bits()
        );
        assert_eq!(
            combine_bits(Dtype::Fp32, ReduceOp::Max, 1.0f32.to_bits(), nan),
            nan
        );
        assert_eq!(
            combine_bits(
                Dtype::Fp32,
                ReduceOp::Min,
                0.0f32.to_bits(),
                (-0.0f32).to_bits()
            ),
            (-0.0f32).to_bits()
        );
    }
}
