//! Large zeroed byte buffers for SBUF images, reserved from the OS.
//!
//! On unix a [`ZeroedBuf`] is an anonymous mapping: pages are backed on
//! first touch, so untouched bytes cost no memory and no zeroing. The
//! mapping is aligned to 2 MiB and, on Linux, advised for transparent huge
//! pages (`MADV_HUGEPAGE`; the development machine's THP mode is
//! `madvise`): a 28 MiB SBUF image then spans 14 huge pages instead of
//! 7 168 small ones, and the streamed copies of a 28 MiB leg run about
//! 1.3× faster (docs/performance.md §2). Where the mapping fails, or off
//! unix, the buffer is an ordinary zeroed heap allocation.

use std::ops::{Deref, DerefMut};

/// Alignment of the mapping: the x86-64 huge-page size.
const HUGE: usize = 2 << 20;

/// A zeroed, fixed-length byte buffer (see the module docs).
pub struct ZeroedBuf(Inner);

enum Inner {
    #[cfg(unix)]
    Mapped {
        /// The 2 MiB-aligned start of the `len` usable bytes.
        ptr: *mut u8,
        len: usize,
        /// What `mmap` returned, for `munmap`.
        base: *mut libc::c_void,
        map_len: usize,
    },
    Heap(Box<[u8]>),
}

// SAFETY: a `ZeroedBuf` owns its bytes exclusively, like a `Box<[u8]>`.
unsafe impl Send for ZeroedBuf {}
// SAFETY: as above; shared access is read-only through `&self`.
unsafe impl Sync for ZeroedBuf {}

impl ZeroedBuf {
    /// `len` zero bytes (`len` 0: an empty buffer, nothing mapped).
    pub fn zeroed(len: usize) -> Self {
        #[cfg(unix)]
        if len > 0 {
            if let Some(b) = Self::map(len) {
                return b;
            }
        }
        ZeroedBuf(Inner::Heap(vec![0u8; len].into_boxed_slice()))
    }

    /// Whether the bytes live in a 2 MiB-aligned anonymous mapping (else on
    /// the heap).
    pub fn is_mapped(&self) -> bool {
        match &self.0 {
            #[cfg(unix)]
            Inner::Mapped { .. } => true,
            Inner::Heap(_) => false,
        }
    }

    #[cfg(unix)]
    fn map(len: usize) -> Option<Self> {
        let map_len = len.checked_add(HUGE)?;
        // SAFETY: an anonymous private mapping with no address hint; the
        // result is checked against MAP_FAILED.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                map_len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return None;
        }
        let pad = (HUGE - base as usize % HUGE) % HUGE;
        // SAFETY: `pad < HUGE`, so `[pad, pad + len)` lies in the mapping.
        let ptr = unsafe { (base as *mut u8).add(pad) };
        #[cfg(target_os = "linux")]
        // SAFETY: advice on a range of our own mapping; a refusal (THP
        // disabled) only leaves small pages.
        unsafe {
            libc::madvise(ptr as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
        }
        Some(ZeroedBuf(Inner::Mapped {
            ptr,
            len,
            base,
            map_len,
        }))
    }
}

impl Deref for ZeroedBuf {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match &self.0 {
            #[cfg(unix)]
            // SAFETY: `ptr` is valid for `len` bytes while `self` lives.
            Inner::Mapped { ptr, len, .. } => unsafe { std::slice::from_raw_parts(*ptr, *len) },
            Inner::Heap(b) => b,
        }
    }
}

impl DerefMut for ZeroedBuf {
    fn deref_mut(&mut self) -> &mut [u8] {
        match &mut self.0 {
            #[cfg(unix)]
            // SAFETY: as `deref`, and `&mut self` is exclusive.
            Inner::Mapped { ptr, len, .. } => unsafe { std::slice::from_raw_parts_mut(*ptr, *len) },
            Inner::Heap(b) => b,
        }
    }
}

impl Clone for ZeroedBuf {
    fn clone(&self) -> Self {
        let mut c = ZeroedBuf::zeroed(self.len());
        c.copy_from_slice(self);
        c
    }
}

impl Default for ZeroedBuf {
    fn default() -> Self {
        ZeroedBuf::zeroed(0)
    }
}

impl std::fmt::Debug for ZeroedBuf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ZeroedBuf")
            .field("len", &self.len())
            .field("mapped", &self.is_mapped())
            .finish()
    }
}

impl Drop for ZeroedBuf {
    fn drop(&mut self) {
        #[cfg(unix)]
        if let Inner::Mapped { base, map_len, .. } = self.0 {
            // SAFETY: unmapping the mapping this buffer made, once.
            unsafe {
                libc::munmap(base, map_len);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The buffer reads as zeros, keeps what is written at both ends, is
    /// 2 MiB-aligned when mapped, and a clone is an independent copy.
    #[test]
    fn a_zeroed_buf_is_zero_aligned_writable_and_clones_deeply() {
        let n = (3 << 20) + 17;
        let mut b = ZeroedBuf::zeroed(n);
        assert_eq!(b.len(), n);
        assert!(b.iter().step_by(4093).all(|&x| x == 0));
        if b.is_mapped() {
            assert_eq!(b.as_ptr() as usize % HUGE, 0);
        }
        b[0] = 1;
        b[n - 1] = 2;
        let mut c = b.clone();
        assert_eq!((c[0], c[n - 1], c.len()), (1, 2, n));
        c[0] = 9;
        assert_eq!(b[0], 1);
        assert!(ZeroedBuf::zeroed(0).is_empty());
        assert!(!ZeroedBuf::default().is_mapped());
    }
}
