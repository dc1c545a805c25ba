//! Byte-copy kernels: a scalar reference, the portable standard-library copy,
//! and AVX2 / AVX-512 kernels (unaligned vector loads, 4× unrolled; above
//! [`STREAM_THRESHOLD`] bytes the destination is aligned and written with
//! non-temporal stores so a large SBUF image does not evict the source from the
//! cache).

/// One copy implementation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CopyKernel {
    /// Byte-by-byte loop: the reference every kernel is tested against.
    Scalar,
    /// `<[u8]>::copy_from_slice` (the platform `memcpy`): the portable fallback.
    Portable,
    /// 256-bit AVX2 loads/stores.
    Avx2,
    /// 512-bit AVX-512F loads/stores.
    Avx512,
}

impl CopyKernel {
    /// Every kernel, in increasing width.
    pub const ALL: [CopyKernel; 4] = [
        CopyKernel::Scalar,
        CopyKernel::Portable,
        CopyKernel::Avx2,
        CopyKernel::Avx512,
    ];
}

/// Copies of at least this many bytes use non-temporal (streaming) stores.
pub const STREAM_THRESHOLD: usize = 4 << 20;

/// Reference copy: one byte at a time (no vectorisation hints).
pub fn copy_scalar(dst: &mut [u8], src: &[u8]) {
    for (d, s) in dst.iter_mut().zip(src) {
        // SAFETY-free volatile-like reference: a plain loop the tests trust.
        *d = *s;
    }
}

/// Run `kernel`. The caller has checked equal lengths and CPU support
/// (`super::copy_with`); an unsupported kernel falls back to the portable one.
/// The SIMD kernels use non-temporal stores from [`STREAM_THRESHOLD`] bytes.
pub(crate) fn run(kernel: CopyKernel, dst: &mut [u8], src: &[u8]) {
    run_stream(kernel, dst, src, dst.len() >= STREAM_THRESHOLD)
}

/// [`run`] with the store kind chosen by the caller: `stream` = non-temporal
/// stores whatever the length (for a piece of a copy much larger than the
/// cache, e.g. one descriptor of a 28 MiB leg). `Scalar` and `Portable`
/// ignore `stream`.
pub(crate) fn run_stream(kernel: CopyKernel, dst: &mut [u8], src: &[u8], stream: bool) {
    run_fenced(kernel, dst, src, stream, true)
}

/// [`run_stream`] with the closing store fence chosen by the caller:
/// `fence = false` leaves the non-temporal stores of a streamed copy
/// unfenced, for a caller that streams many pieces and fences once at the
/// end ([`super::store_fence`]) before anything reads the bytes.
pub(crate) fn run_fenced(
    kernel: CopyKernel,
    dst: &mut [u8],
    src: &[u8],
    stream: bool,
    fence: bool,
) {
    let f = super::Features::get();
    let kernel = if f.supports(kernel) {
        kernel
    } else {
        CopyKernel::Portable
    };
    // SAFETY: `kernel` is supported (checked above).
    unsafe { run_supported(kernel, dst, src, stream, fence) }
}

/// [`run_fenced`] without the feature check, for the dispatcher's plan,
/// which stores only supported kernels. Safety: this CPU supports `kernel`
/// (`super::Features::supports`).
#[inline]
pub(crate) unsafe fn run_supported(
    kernel: CopyKernel,
    dst: &mut [u8],
    src: &[u8],
    stream: bool,
    fence: bool,
) {
    debug_assert_eq!(dst.len(), src.len());
    debug_assert!(super::Features::get().supports(kernel));
    let n = dst.len().min(src.len());
    match kernel {
        CopyKernel::Scalar => copy_scalar(&mut dst[..n], &src[..n]),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: AVX2 is present (the caller's contract); both slices hold
        // `n` bytes.
        CopyKernel::Avx2 => unsafe {
            x86::copy_avx2(dst.as_mut_ptr(), src.as_ptr(), n, stream, fence)
        },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: AVX-512F is present (the caller's contract); both slices
        // hold `n` bytes.
        CopyKernel::Avx512 => unsafe {
            x86::copy_avx512(dst.as_mut_ptr(), src.as_ptr(), n, stream, fence)
        },
        _ => dst[..n].copy_from_slice(&src[..n]),
    }
}

/// SFENCE: order the earlier non-temporal stores of this thread.
#[cfg(target_arch = "x86_64")]
pub(crate) fn sfence() {
    x86::sfence()
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    /// How far ahead of its loads a streamed copy prefetches its source
    /// (`PREFETCHT0`, one per 128-byte pair of lines: the adjacent-line
    /// prefetcher brings the other line). The hardware streamers stop at a
    /// 4 KiB boundary, so with a source in DRAM the loads of each new page
    /// waited for memory. On an Intel Xeon (KVM, 480 MiB L3), 28 MiB
    /// between two 2 MiB-aligned buffers with both evicted first (clflush),
    /// best of 21 interleaved rounds: no prefetch 3.23-3.34 ms, 1 KiB ahead
    /// 2.81-2.90, 2 KiB 2.80-2.89, **4 KiB 2.67-2.75**, 8 KiB 2.82-2.88,
    /// `memcpy` 4.22-4.30; with the source already cached the prefetch
    /// costs up to 3 % (docs/performance.md § 2). A prefetch past the end of
    /// the source is harmless: it never faults, and the address is formed
    /// with `wrapping_add`, never dereferenced.
    const STREAM_PREFETCH: usize = 4096;

    /// Order every earlier non-temporal store before later stores.
    pub(super) fn sfence() {
        // SAFETY: SFENCE is part of SSE, present on every x86-64 CPU.
        unsafe { _mm_sfence() }
    }

    /// AVX2 copy of `n` bytes (`fence`: close a streamed copy with SFENCE). Safety: AVX2 present; `d`/`s` valid for `n`
    /// bytes and not overlapping (guaranteed by `&mut`/`&` slices).
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn copy_avx2(d: *mut u8, s: *const u8, n: usize, stream: bool, fence: bool) {
        const V: usize = 32;
        if n < V {
            core::ptr::copy_nonoverlapping(s, d, n);
            return;
        }
        let mut i = 0usize;
        if n >= 8 * V {
            // Copy an unaligned head so the destination is 32-byte aligned:
            // the main loop's stores then never split a cache line (cached
            // copies too: a 4 KiB copy between buffers 16 bytes off a
            // 32-byte boundary took 61 ns with split stores against 54 ns
            // for memcpy and 43 ns aligned).
            let head = (V - (d as usize % V)) % V;
            let v = _mm256_loadu_si256(s as *const __m256i);
            _mm256_storeu_si256(d as *mut __m256i, v);
            i = head;
        }
        if stream && n >= 8 * V {
            while i + 4 * V <= n {
                // One prefetch per 128-byte pair of lines (see STREAM_PREFETCH).
                _mm_prefetch::<_MM_HINT_T0>(s.wrapping_add(i + STREAM_PREFETCH) as *const i8);
                let a = _mm256_loadu_si256(s.add(i) as *const __m256i);
                let b = _mm256_loadu_si256(s.add(i + V) as *const __m256i);
                let c = _mm256_loadu_si256(s.add(i + 2 * V) as *const __m256i);
                let e = _mm256_loadu_si256(s.add(i + 3 * V) as *const __m256i);
                _mm256_stream_si256(d.add(i) as *mut __m256i, a);
                _mm256_stream_si256(d.add(i + V) as *mut __m256i, b);
                _mm256_stream_si256(d.add(i + 2 * V) as *mut __m256i, c);
                _mm256_stream_si256(d.add(i + 3 * V) as *mut __m256i, e);
                i += 4 * V;
            }
            if fence {
                _mm_sfence();
            }
        } else {
            while i + 4 * V <= n {
                let a = _mm256_loadu_si256(s.add(i) as *const __m256i);
                let b = _mm256_loadu_si256(s.add(i + V) as *const __m256i);
                let c = _mm256_loadu_si256(s.add(i + 2 * V) as *const __m256i);
                let e = _mm256_loadu_si256(s.add(i + 3 * V) as *const __m256i);
                _mm256_storeu_si256(d.add(i) as *mut __m256i, a);
                _mm256_storeu_si256(d.add(i + V) as *mut __m256i, b);
                _mm256_storeu_si256(d.add(i + 2 * V) as *mut __m256i, c);
                _mm256_storeu_si256(d.add(i + 3 * V) as *mut __m256i, e);
                i += 4 * V;
            }
        }
        while i + V <= n {
            let a = _mm256_loadu_si256(s.add(i) as *const __m256i);
            _mm256_storeu_si256(d.add(i) as *mut __m256i, a);
            i += V;
        }
        if i < n {
            // Overlapping last vector (n >= V here).
            let a = _mm256_loadu_si256(s.add(n - V) as *const __m256i);
            _mm256_storeu_si256(d.add(n - V) as *mut __m256i, a);
        }
    }

    /// AVX-512F copy of `n` bytes. Safety as [`copy_avx2`], with AVX-512F.
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn copy_avx512(
        d: *mut u8,
        s: *const u8,
        n: usize,
        stream: bool,
        fence: bool,
    ) {
        const V: usize = 64;
        if n < V {
            if n >= 32 {
                // Two overlapping 32-byte halves.
                let a = _mm256_loadu_si256(s as *const __m256i);
                let b = _mm256_loadu_si256(s.add(n - 32) as *const __m256i);
                _mm256_storeu_si256(d as *mut __m256i, a);
                _mm256_storeu_si256(d.add(n - 32) as *mut __m256i, b);
            } else {
                core::ptr::copy_nonoverlapping(s, d, n);
            }
            return;
        }
        let mut i = 0usize;
        if n >= 8 * V {
            // Destination aligned for the main loop, as in [`copy_avx2`].
            let head = (V - (d as usize % V)) % V;
            let v = _mm512_loadu_si512(s as *const __m512i);
            _mm512_storeu_si512(d as *mut __m512i, v);
            i = head;
        }
        if stream && n >= 8 * V {
            while i + 4 * V <= n {
                // One prefetch per 128-byte pair of lines (see STREAM_PREFETCH).
                _mm_prefetch::<_MM_HINT_T0>(s.wrapping_add(i + STREAM_PREFETCH) as *const i8);
                _mm_prefetch::<_MM_HINT_T0>(
                    s.wrapping_add(i + STREAM_PREFETCH + 2 * 64) as *const i8
                );
                let a = _mm512_loadu_si512(s.add(i) as *const __m512i);
                let b = _mm512_loadu_si512(s.add(i + V) as *const __m512i);
                let c = _mm512_loadu_si512(s.add(i + 2 * V) as *const __m512i);
                let e = _mm512_loadu_si512(s.add(i + 3 * V) as *const __m512i);
                _mm512_stream_si512(d.add(i) as *mut __m512i, a);
                _mm512_stream_si512(d.add(i + V) as *mut __m512i, b);
                _mm512_stream_si512(d.add(i + 2 * V) as *mut __m512i, c);
                _mm512_stream_si512(d.add(i + 3 * V) as *mut __m512i, e);
                i += 4 * V;
            }
            if fence {
                _mm_sfence();
            }
        } else {
            while i + 4 * V <= n {
                let a = _mm512_loadu_si512(s.add(i) as *const __m512i);
                let b = _mm512_loadu_si512(s.add(i + V) as *const __m512i);
                let c = _mm512_loadu_si512(s.add(i + 2 * V) as *const __m512i);
                let e = _mm512_loadu_si512(s.add(i + 3 * V) as *const __m512i);
                _mm512_storeu_si512(d.add(i) as *mut __m512i, a);
                _mm512_storeu_si512(d.add(i + V) as *mut __m512i, b);
                _mm512_storeu_si512(d.add(i + 2 * V) as *mut __m512i, c);
                _mm512_storeu_si512(d.add(i + 3 * V) as *mut __m512i, e);
                i += 4 * V;
            }
        }
        while i + V <= n {
            let a = _mm512_loadu_si512(s.add(i) as *const __m512i);
            _mm512_storeu_si512(d.add(i) as *mut __m512i, a);
            i += V;
        }
        if i < n {
            let a = _mm512_loadu_si512(s.add(n - V) as *const __m512i);
            _mm512_storeu_si512(d.add(n - V) as *mut __m512i, a);
        }
    }
}
