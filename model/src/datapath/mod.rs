//! SIMD datapath: byte-copy kernels (this module and [`mod@copy`]) and the fused
//! receive-reduce kernels in [`reduce`].
//!
//! Both families share one CPU-feature probe, [`Features`]: it is detected once
//! at run time (AVX2, AVX-512F on x86-64) and cached, and every kernel has a
//! portable fallback that is used when the feature is absent (or on other
//! architectures). A caller that does not care which kernel runs uses
//! [`fn@copy`] (`memcpy`, or a SIMD kernel in the size classes where one wins
//! by a margin or the copy exceeds the cache: [`plan`]);
//! tests and benchmarks pick one explicitly with [`copy_with`].
//!
//! Every kernel is tested equal to [`copy_scalar`] (a plain byte loop) on all
//! sizes and alignments (`tests` below, proptest).

pub mod buf;
pub mod copy;
pub mod plan;
pub mod reduce;

use std::sync::OnceLock;

pub use buf::ZeroedBuf;
pub use copy::{copy_scalar, CopyKernel};

/// CPU features the datapath kernels can use, detected at run time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Features {
    /// AVX2 (256-bit integer vectors).
    pub avx2: bool,
    /// AVX-512 Foundation (512-bit vectors).
    pub avx512f: bool,
    /// AVX-512 BW (byte/word ops; used by reduce kernels on 16-bit types).
    pub avx512bw: bool,
    /// AVX-512 VL (AVX-512 masks on 256-bit vectors; the fp16 reduce kernel).
    pub avx512vl: bool,
}

impl Features {
    /// Probe the running CPU (no caching; see [`Features::get`]).
    pub fn detect() -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            Self {
                avx2: std::arch::is_x86_feature_detected!("avx2"),
                avx512f: std::arch::is_x86_feature_detected!("avx512f"),
                avx512bw: std::arch::is_x86_feature_detected!("avx512bw"),
                avx512vl: std::arch::is_x86_feature_detected!("avx512vl"),
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            Self::default()
        }
    }

    /// No SIMD features: forces the portable kernels.
    pub const fn portable() -> Self {
        Self {
            avx2: false,
            avx512f: false,
            avx512bw: false,
            avx512vl: false,
        }
    }

    /// The features of this CPU, probed once and cached for the process.
    pub fn get() -> Self {
        static CACHE: OnceLock<Features> = OnceLock::new();
        *CACHE.get_or_init(Features::detect)
    }

    /// The fastest copy kernel these features allow.
    pub fn best_copy(&self) -> CopyKernel {
        if self.avx512f {
            CopyKernel::Avx512
        } else if self.avx2 {
            CopyKernel::Avx2
        } else {
            CopyKernel::Portable
        }
    }

    /// Whether `kernel` can run on a CPU with these features.
    pub fn supports(&self, kernel: CopyKernel) -> bool {
        match kernel {
            CopyKernel::Scalar | CopyKernel::Portable => true,
            CopyKernel::Avx2 => self.avx2,
            CopyKernel::Avx512 => self.avx512f,
        }
    }
}

/// Error of the datapath dispatchers.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DatapathError {
    /// `dst` and `src` differ in length.
    #[error("copy length mismatch: dst is {dst} bytes, src is {src} bytes (rule: equal lengths)")]
    LengthMismatch { dst: usize, src: usize },
    /// The kernel needs a CPU feature this machine lacks.
    #[error("copy kernel {kernel:?} needs a CPU feature this machine lacks")]
    Unsupported { kernel: CopyKernel },
}

/// Copy `src` into `dst` (equal lengths): the C library's `memcpy`
/// (`copy_from_slice`) below [`plan::PLANNED_MIN_BYTES`], with no lookup;
/// from there the kernel of the size class (bit length of the length),
/// decided on the first copy of that class in this process ([`plan`]):
/// `memcpy` unless a SIMD kernel is [`plan::MEMCPY_MARGIN_PERCENT`] %
/// faster, the widest SIMD kernel where every copy of the class exceeds the
/// last-level cache. The SIMD kernels write with non-temporal stores from
/// [`copy::STREAM_THRESHOLD`] bytes.
#[inline]
pub fn copy(dst: &mut [u8], src: &[u8]) -> Result<(), DatapathError> {
    if dst.len() != src.len() {
        return Err(DatapathError::LengthMismatch {
            dst: dst.len(),
            src: src.len(),
        });
    }
    if dst.len() < plan::PLANNED_MIN_BYTES {
        dst.copy_from_slice(src);
    } else {
        plan::copy_planned(dst, src);
    }
    Ok(())
}

/// Copy one piece of a transfer much larger than the cache (for example one
/// descriptor of a 28 MiB leg): non-temporal stores whatever the piece's
/// size, so the destination does not evict the source still to be read, with
/// the widest SIMD kernel of this CPU ([`plan::stream_kernel`]; `memcpy`
/// where there is none).
pub fn copy_streamed(dst: &mut [u8], src: &[u8]) -> Result<(), DatapathError> {
    if dst.len() != src.len() {
        return Err(DatapathError::LengthMismatch {
            dst: dst.len(),
            src: src.len(),
        });
    }
    copy::run_stream(plan::stream_kernel(), dst, src, true);
    Ok(())
}

/// [`copy_streamed`] without the closing store fence: for a caller that
/// streams many pieces in a row and calls [`store_fence`] once after the
/// last one, before any other thread (or the caller) reads the bytes.
pub fn copy_streamed_unfenced(dst: &mut [u8], src: &[u8]) -> Result<(), DatapathError> {
    if dst.len() != src.len() {
        return Err(DatapathError::LengthMismatch {
            dst: dst.len(),
            src: src.len(),
        });
    }
    copy::run_fenced(plan::stream_kernel(), dst, src, true, false);
    Ok(())
}

/// Order every earlier non-temporal store of this thread before its later
/// stores (SFENCE on x86-64; nothing elsewhere, where no kernel streams).
pub fn store_fence() {
    #[cfg(target_arch = "x86_64")]
    copy::sfence();
}

/// Equal lengths and a kernel this CPU runs: the preconditions of the
/// explicit-kernel copies.
fn check_explicit(kernel: CopyKernel, dst: &[u8], src: &[u8]) -> Result<(), DatapathError> {
    if dst.len() != src.len() {
        return Err(DatapathError::LengthMismatch {
            dst: dst.len(),
            src: src.len(),
        });
    }
    if !Features::get().supports(kernel) {
        return Err(DatapathError::Unsupported { kernel });
    }
    Ok(())
}

/// Copy `src` into `dst` (equal lengths) with an explicit kernel.
pub fn copy_with(kernel: CopyKernel, dst: &mut [u8], src: &[u8]) -> Result<(), DatapathError> {
    check_explicit(kernel, dst, src)?;
    copy::run(kernel, dst, src);
    Ok(())
}

/// [`copy_streamed`] with an explicit kernel (non-temporal stores whatever
/// the size, closing fence included): what the stream calibration times, for
/// benches that compare the kernels on the leg's own layout.
pub fn copy_streamed_with(
    kernel: CopyKernel,
    dst: &mut [u8],
    src: &[u8],
) -> Result<(), DatapathError> {
    check_explicit(kernel, dst, src)?;
    copy::run_stream(kernel, dst, src, true);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn kernels() -> Vec<CopyKernel> {
        let f = Features::get();
        CopyKernel::ALL
            .iter()
            .copied()
            .filter(|k| f.supports(*k))
            .collect()
    }

    /// Check one kernel against the byte loop for one (size, alignments) case,
    /// including that bytes around the destination window are untouched.
    fn check(kernel: CopyKernel, len: usize, src_off: usize, dst_off: usize, seed: u8) {
        let src_buf: Vec<u8> = (0..len + src_off)
            .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed))
            .collect();
        let guard = 0xA5u8;
        let mut want = vec![guard; len + dst_off + 64];
        let mut got = want.clone();
        copy_scalar(&mut want[dst_off..dst_off + len], &src_buf[src_off..]);
        copy_with(
            kernel,
            &mut got[dst_off..dst_off + len],
            &src_buf[src_off..],
        )
        .unwrap();
        assert_eq!(
            got, want,
            "kernel {kernel:?} len {len} src_off {src_off} dst_off {dst_off}"
        );
        // The same case through the streamed variant of the kernel.
        let mut got = vec![guard; len + dst_off + 64];
        copy::run_stream(
            kernel,
            &mut got[dst_off..dst_off + len],
            &src_buf[src_off..],
            true,
        );
        assert_eq!(got, want, "streamed {kernel:?} len {len} src_off {src_off}");
        // And through both dispatchers.
        let mut got = vec![guard; len + dst_off + 64];
        copy(&mut got[dst_off..dst_off + len], &src_buf[src_off..]).unwrap();
        assert_eq!(got, want, "dispatch len {len} src_off {src_off}");
        let mut got = vec![guard; len + dst_off + 64];
        copy_streamed(&mut got[dst_off..dst_off + len], &src_buf[src_off..]).unwrap();
        assert_eq!(got, want, "copy_streamed len {len} src_off {src_off}");
        let mut got = vec![guard; len + dst_off + 64];
        copy_streamed_unfenced(&mut got[dst_off..dst_off + len], &src_buf[src_off..]).unwrap();
        store_fence();
        assert_eq!(
            got, want,
            "copy_streamed_unfenced len {len} src_off {src_off}"
        );
    }

    #[test]
    fn every_kernel_equals_scalar_on_all_small_sizes_and_alignments() {
        for k in kernels() {
            for len in 0..=300 {
                for off in [0, 1, 3, 7, 31, 33, 63] {
                    check(k, len, off, (off * 5) % 64, len as u8);
                }
            }
        }
    }

    #[test]
    fn every_kernel_equals_scalar_above_the_streaming_threshold() {
        for k in kernels() {
            check(k, copy::STREAM_THRESHOLD + 4096 + 37, 5, 11, 9);
            check(k, copy::STREAM_THRESHOLD * 2, 0, 0, 3);
        }
    }

    /// A copy at least the size of the last-level cache and the streaming
    /// threshold goes through a structural class (the widest SIMD kernel,
    /// untimed) and still equals the byte loop. Where the cache size is
    /// unknown or above 32 MiB the case is left out (too slow for a test).
    #[test]
    fn a_structural_class_copies_equal_to_scalar() {
        let Some(llc) = plan::llc_bytes().filter(|&l| l <= 32 << 20) else {
            return;
        };
        // The class's smallest copy is at least the cache.
        let len = llc.max(copy::STREAM_THRESHOLD).next_power_of_two() + 4096 + 37;
        let src: Vec<u8> = (0..len + 5).map(|i| (i as u8).wrapping_mul(13)).collect();
        let mut want = vec![0xA5u8; len + 11 + 64];
        let mut got = want.clone();
        copy_scalar(&mut want[11..11 + len], &src[5..]);
        copy(&mut got[11..11 + len], &src[5..]).unwrap();
        assert!(got == want, "structural copy of {len} bytes");
        if let Some(k) =
            plan::structural_copy_kernel(plan::size_class(len), Some(llc), Features::get())
        {
            assert_eq!(plan::copy_choice(len), Some(k), "class of {len} bytes");
        }
    }

    /// Both copy kernels refuse buffers of different lengths with the typed error
    /// naming both lengths, instead of copying a prefix.
    #[test]
    fn copy_rejects_length_mismatch() {
        let mut d = [0u8; 4];
        assert_eq!(
            copy(&mut d, &[1, 2, 3]),
            Err(DatapathError::LengthMismatch { dst: 4, src: 3 })
        );
        assert_eq!(
            copy_streamed(&mut d, &[1, 2, 3]),
            Err(DatapathError::LengthMismatch { dst: 4, src: 3 })
        );
    }

    #[test]
    fn detect_agrees_with_cached_and_best_kernel_is_supported() {
        let f = Features::detect();
        assert_eq!(f, Features::get());
        assert!(f.supports(f.best_copy()));
        assert_eq!(Features::portable().best_copy(), CopyKernel::Portable);
    }

    proptest! {
        #[test]
        fn kernels_equal_scalar_on_random_sizes_and_alignments(
            len in 0usize..20_000, src_off in 0usize..128, dst_off in 0usize..128, seed: u8
        ) {
            for k in kernels() {
                check(k, len, src_off, dst_off, seed);
            }
        }
    }
}
