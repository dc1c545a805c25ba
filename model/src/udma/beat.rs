//! Data beats of the width-generic UDMA data path (`DataWidth` 32..=256 bits).
//!
//! A beat is kept as little-endian 64-bit words (`lane k` = byte `k` = bits
//! `8k..8k+8` of the 256-bit value, word `k / 8`); only the low `bb` (bytes
//! per beat) lanes are meaningful and every lane above the valid bytes of a
//! register is zero, exactly as in the RTL (which masks every byte it shifts
//! in). Lane moves are word shifts and masks (no per-byte loops or
//! variable-length copies). [`WideData`] converts between a port field
//! ([`Beat4`] at 32 bits, `u64` at 64, `[u64; N]` above) and a beat.

use crate::ports::{PortValue, Signal};

/// Largest supported beat in bytes (`DataWidth` 256).
pub const MAX_BB: usize = 32;

/// 64-bit words of a beat.
pub const WORDS: usize = MAX_BB / 8;

/// One data beat, lane 0 in the low byte of word 0.
pub type Beat = [u64; WORDS];

/// Two beats side by side (packing of carry/hold and a new beat).
pub type Beat2 = [u64; 2 * WORDS];

/// All-zero beat.
pub const ZERO: Beat = [0; WORDS];

/// Bytes of a 16-byte descriptor.
pub const DESC_BYTES: usize = 16;

/// A port field carrying a data beat.
pub trait WideData: PortValue {
    /// The field as a beat (lanes above the field are zero).
    fn to_beat(&self) -> Beat;
    /// The low lanes of `b` as a field value.
    fn from_beat(b: &Beat) -> Self;
}

impl WideData for u64 {
    #[inline]
    fn to_beat(&self) -> Beat {
        [*self, 0, 0, 0]
    }
    #[inline]
    fn from_beat(b: &Beat) -> Self {
        b[0]
    }
}

impl<const N: usize> WideData for [u64; N]
where
    [u64; N]: Default,
{
    #[inline]
    fn to_beat(&self) -> Beat {
        let mut b = ZERO;
        for (d, s) in b.iter_mut().zip(self) {
            *d = *s;
        }
        b
    }
    #[inline]
    fn from_beat(b: &Beat) -> Self {
        let mut a = [0u64; N];
        for (d, s) in a.iter_mut().zip(b) {
            *d = *s;
        }
        a
    }
}

/// Keep the low `n` bytes of a word array, zero the rest.
#[inline]
fn mask<const N: usize>(mut a: [u64; N], n: usize) -> [u64; N] {
    for (k, w) in a.iter_mut().enumerate() {
        let lo = 8 * k;
        if n <= lo {
            *w = 0;
        } else if n < lo + 8 {
            *w &= (1u64 << (8 * (n - lo))) - 1;
        }
    }
    a
}

/// Lanes moved down by `by` bytes (lane `by` becomes lane 0).
#[inline]
fn shr<const N: usize>(a: &[u64; N], by: usize) -> [u64; N] {
    let (ws, bs) = (by / 8, 8 * (by % 8));
    let mut o = [0u64; N];
    for (k, w) in o.iter_mut().enumerate() {
        let lo = a.get(k + ws).copied().unwrap_or(0);
        let hi = a.get(k + ws + 1).copied().unwrap_or(0);
        *w = if bs == 0 {
            lo
        } else {
            (lo >> bs) | (hi << (64 - bs))
        };
    }
    o
}

/// Lanes moved up by `by` bytes (lane 0 becomes lane `by`).
#[inline]
fn shl<const N: usize>(a: &[u64; N], by: usize) -> [u64; N] {
    let (ws, bs) = (by / 8, 8 * (by % 8));
    let mut o = [0u64; N];
    for (k, w) in o.iter_mut().enumerate().skip(ws) {
        let lo = a[k - ws];
        let below = if k > ws { a[k - ws - 1] } else { 0 };
        *w = if bs == 0 {
            lo
        } else {
            (lo << bs) | (below >> (64 - bs))
        };
    }
    o
}

/// Lane `j` of a beat.
#[inline]
pub fn lane(b: &Beat, j: usize) -> u8 {
    (b[j / 8] >> (8 * (j % 8))) as u8
}

/// A beat from up to [`MAX_BB`] little-endian bytes (lane k = `bytes[k]`).
#[inline]
pub fn from_bytes(bytes: &[u8]) -> Beat {
    let mut full = [0u8; MAX_BB];
    let n = bytes.len().min(MAX_BB);
    full[..n].copy_from_slice(&bytes[..n]);
    let mut b = ZERO;
    for (k, w) in b.iter_mut().enumerate() {
        let mut x = [0u8; 8];
        x.copy_from_slice(&full[8 * k..8 * k + 8]);
        *w = u64::from_le_bytes(x);
    }
    b
}

/// The [`MAX_BB`] lanes of a beat as bytes.
#[inline]
pub fn to_bytes(b: &Beat) -> [u8; MAX_BB] {
    let mut o = [0u8; MAX_BB];
    for (k, w) in b.iter().enumerate() {
        o[8 * k..8 * k + 8].copy_from_slice(&w.to_le_bytes());
    }
    o
}

/// Strobe / tkeep of `n` bytes starting at lane `at`.
#[inline]
pub fn keep_at(n: u32, at: u32) -> u64 {
    let m = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
    m << at
}

/// Bytes `[from, from + n)` of `b` moved to lane 0 (other lanes zero).
#[inline]
pub fn take(b: &Beat, from: usize, n: usize) -> Beat {
    if from + n <= 16 {
        // Lanes 0..16 only (every 32/64-bit beat): one 128-bit shift.
        return from_u128(if from >= 16 {
            0
        } else {
            lo128(b) >> (8 * from) & low_bytes(n)
        });
    }
    mask(shr(b, from), n)
}

/// Lanes 0..16 of a word array as a `u128`.
#[inline(always)]
fn lo128<const N: usize>(a: &[u64; N]) -> u128 {
    u128::from(a[0]) | u128::from(a[1]) << 64
}

/// A beat holding `x` at lanes 0..16.
#[inline(always)]
fn from_u128(x: u128) -> Beat {
    [x as u64, (x >> 64) as u64, 0, 0]
}

/// `LOW_BYTES[n]`: mask of the low `n` bytes of a `u128`.
static LOW_BYTES: [u128; 17] = {
    let mut t = [0u128; 17];
    let mut n = 1;
    while n <= 16 {
        t[n] = u128::MAX >> (128 - 8 * n);
        n += 1;
    }
    t
};

/// Mask of the low `n` bytes of a `u128` (`n <= 16`).
#[inline(always)]
fn low_bytes(n: usize) -> u128 {
    LOW_BYTES[n]
}

/// `a[..na]` followed by `b[..nb]` (other lanes zero).
#[inline]
pub fn concat(a: &Beat, na: usize, b: &Beat, nb: usize) -> Beat2 {
    if na + nb <= 16 {
        // Both parts and the result fit lanes 0..16 (every 32/64-bit beat).
        let lo = lo128(a) & low_bytes(na);
        let hi = if na >= 16 {
            0
        } else {
            (lo128(b) & low_bytes(nb)) << (8 * na)
        };
        let x = lo | hi;
        let mut o = [0u64; 2 * WORDS];
        o[0] = x as u64;
        o[1] = (x >> 64) as u64;
        return o;
    }
    let (a, b) = (mask(*a, na), mask(*b, nb));
    let wide = |x: Beat| {
        let mut o = [0u64; 2 * WORDS];
        o[..WORDS].copy_from_slice(&x);
        o
    };
    let hi = shl(&wide(b), na);
    let mut o = wide(a);
    for (d, s) in o.iter_mut().zip(hi) {
        *d |= s;
    }
    o
}

/// Lanes `[from, from + n)` of a double beat, moved to lane 0.
#[inline]
pub fn slice2(c: &Beat2, from: usize, n: usize) -> Beat {
    if from + n <= 16 {
        return from_u128(if from >= 16 {
            0
        } else {
            lo128(c) >> (8 * from) & low_bytes(n)
        });
    }
    let s = mask(shr(c, from), n);
    let mut o = ZERO;
    o.copy_from_slice(&s[..WORDS]);
    o
}

/// Lanes `[0, n)` of a double beat placed at lane `at` of a beat (other lanes
/// zero; `at + n <= MAX_BB`).
#[inline]
pub fn place(c: &Beat2, n: usize, at: usize) -> Beat {
    if n + at <= 16 {
        return from_u128(if at >= 16 {
            0
        } else {
            (lo128(c) & low_bytes(n)) << (8 * at)
        });
    }
    shl(&slice2(c, 0, n), at)
}

/// Descriptor register after one read beat (`rtl`: `desc_in`): a beat narrower
/// than the descriptor shifts in from the top; a wide beat holds the whole
/// descriptor at lane `addr mod bb`.
#[inline]
pub fn desc_shift_in(desc: u128, beat: &Beat, bb: usize, addr: u64) -> u128 {
    if bb >= DESC_BYTES {
        let off = (addr as usize) & (bb - 1);
        let s = shr(beat, off);
        u128::from(s[0]) | (u128::from(s[1]) << 64)
    } else {
        let w = mask(*beat, bb);
        let w = u128::from(w[0]) | (u128::from(w[1]) << 64);
        (desc >> (8 * bb)) | (w << (8 * (DESC_BYTES - bb)))
    }
}

/// Beat `idx` of a 16-byte write of `d` at `addr` and its strobe: a narrow
/// port sends the bytes in order over full beats; a wide one sends one beat
/// with the 16 bytes at lane `addr mod bb`.
#[inline]
pub fn desc_beat(d: u128, idx: usize, bb: usize, addr: u64) -> (Beat, u64) {
    let words: Beat = [d as u64, (d >> 64) as u64, 0, 0];
    if bb >= DESC_BYTES {
        let off = (addr as usize) & (bb - 1);
        (shl(&words, off), keep_at(DESC_BYTES as u32, off as u32))
    } else {
        (take(&words, idx * bb, bb), keep_at(bb as u32, 0))
    }
}

/// Beats of a 16-byte descriptor read or write on a `bb`-byte port.
#[inline]
pub fn desc_beats(bb: usize) -> u32 {
    (DESC_BYTES / bb).max(1) as u32
}

/// A data beat sized by the data width: the engine's registers, buffers and
/// wires hold beats of this type ([`Beat4`] at 32 bits, `u64` at 64,
/// `[u64; 2]` at 128, `[u64; 4]` at 256: the width's port field type), so a
/// narrow engine moves one word per beat, not [`WORDS`]; the 32-bit form
/// shifts and masks a `u32` (double beat `u64`), the 64- and 128-bit forms
/// `u128`s. Each lane move equals the [`Beat`] form
/// of the same name applied to [`WideData::to_beat`] (test
/// `sized_lane_moves_equal_the_beat_forms_at_every_width`) wherever the
/// result fits the type: for every offset and length of the engine's
/// registers (at most `bb` bytes per beat, `2 bb - 1` per double beat).
pub trait Lanes: WideData + Copy + Default + Eq + core::fmt::Debug + Send + Sync + 'static {
    /// Two beats side by side (packing of carry/hold and a new beat).
    type Double: Copy + Default + Eq + core::fmt::Debug + Send + Sync + 'static;
    /// All-zero beat.
    const ZERO: Self;
    /// [`take`]: bytes `[from, from + n)` moved to lane 0.
    fn take(&self, from: usize, n: usize) -> Self;
    /// [`fn@concat`]: `self[..na]` followed by `b[..nb]`.
    fn concat(&self, na: usize, b: &Self, nb: usize) -> Self::Double;
    /// [`slice2`]: lanes `[from, from + n)` of a double beat, moved to lane 0.
    fn slice2(c: &Self::Double, from: usize, n: usize) -> Self;
    /// [`place`]: lanes `[0, n)` of a double beat placed at lane `at`.
    fn place(c: &Self::Double, n: usize, at: usize) -> Self;
    /// [`desc_shift_in`]: descriptor register after one read beat.
    fn desc_shift_in(desc: u128, beat: &Self, bb: usize, addr: u64) -> u128;
    /// [`desc_beat`]: beat `idx` of a 16-byte descriptor write and its strobe.
    fn desc_beat(d: u128, idx: usize, bb: usize, addr: u64) -> (Self, u64);
}

/// A 4-byte data beat (`DataWidth` 32) held in a 64-bit word, the high four
/// bytes zero: its lane moves shift and mask a `u32`, its double beat is one
/// `u64` (two 4-byte beats fill it), so the narrowest engine never shifts a
/// `u128` on its data path as the 8-byte beat's double does. The field stays
/// 64 bits wide: a `u32` field cost more time than it saved (a 4-byte store
/// read back by a wider load stalls store-to-load forwarding; measured,
/// docs/udma.md).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[repr(transparent)]
pub struct Beat4(pub u64);

impl Beat4 {
    /// The four lanes as a `u32`.
    #[inline(always)]
    fn lanes(self) -> u32 {
        self.0 as u32
    }
}

impl PortValue for Beat4 {
    const WORDS: usize = 1;
    #[inline(always)]
    fn put(&self, sig: &Signal, w: &mut [u64]) {
        w[0] = self.0 & sig.word_mask(0);
    }
    #[inline(always)]
    fn get(w: &[u64]) -> Self {
        // A 32-bit port: the packed word has no bits above lane 3.
        Beat4(w[0])
    }
}

impl WideData for Beat4 {
    #[inline]
    fn to_beat(&self) -> Beat {
        [self.0, 0, 0, 0]
    }
    #[inline]
    fn from_beat(b: &Beat) -> Self {
        Beat4(b[0] & u64::from(u32::MAX))
    }
}

/// `LOW32[n]`: mask of the low `n` bytes of a `u32` (`n <= 4`).
static LOW32: [u32; 5] = [0, 0xff, 0xffff, 0x00ff_ffff, u32::MAX];

/// Mask of the low `n` bytes of a `u32` (all of it from 4 bytes up).
#[inline(always)]
fn low32(n: usize) -> u32 {
    LOW32[if n > 4 { 4 } else { n }]
}

/// 4-byte beats (`DataWidth` 32): every lane move is a shift and a mask of one
/// `u32`, the double beat one `u64`.
impl Lanes for Beat4 {
    type Double = u64;
    const ZERO: Self = Beat4(0);
    #[inline(always)]
    fn take(&self, from: usize, n: usize) -> Self {
        Beat4(if from >= 4 {
            0
        } else {
            u64::from((self.lanes() >> (8 * from)) & low32(n))
        })
    }
    #[inline(always)]
    fn concat(&self, na: usize, b: &Self, nb: usize) -> u64 {
        let lo = u64::from(self.lanes() & low32(na));
        let hi = if na >= 8 {
            0
        } else {
            u64::from(b.lanes() & low32(nb)) << (8 * na)
        };
        lo | hi
    }
    #[inline(always)]
    fn slice2(c: &u64, from: usize, n: usize) -> Self {
        Beat4(if from >= 8 {
            0
        } else {
            u64::from((*c >> (8 * from)) as u32 & low32(n))
        })
    }
    #[inline(always)]
    fn place(c: &u64, n: usize, at: usize) -> Self {
        Beat4(if at >= 4 {
            0
        } else {
            u64::from((*c as u32 & low32(n)) << (8 * at))
        })
    }
    #[inline(always)]
    fn desc_shift_in(desc: u128, beat: &Self, bb: usize, _addr: u64) -> u128 {
        // A 4-byte beat is narrower than the descriptor: shift in from the top.
        let w = u128::from(beat.lanes() & low32(bb));
        (desc >> (8 * bb)) | (w << (8 * (DESC_BYTES - bb)))
    }
    #[inline(always)]
    fn desc_beat(d: u128, idx: usize, bb: usize, _addr: u64) -> (Self, u64) {
        let from = idx * bb;
        let b = if from >= 16 {
            0
        } else {
            (d >> (8 * from)) as u32 & low32(bb)
        };
        (Beat4(u64::from(b)), keep_at(bb as u32, 0))
    }
}

/// `LOW64[n]`: mask of the low `n` bytes of a `u64` (`n <= 8`).
static LOW64: [u64; 9] = {
    let mut t = [0u64; 9];
    let mut n = 1;
    while n <= 8 {
        t[n] = u64::MAX >> (64 - 8 * n);
        n += 1;
    }
    t
};

/// Mask of the low `n` bytes of a `u64` (all of it from 8 bytes up).
#[inline(always)]
fn low64(n: usize) -> u64 {
    LOW64[if n > 8 { 8 } else { n }]
}

/// One-word beats (`DataWidth` 64): every lane move is a shift and a
/// mask of one `u64` (a `u128` for the double beat).
impl Lanes for u64 {
    type Double = u128;
    const ZERO: Self = 0;
    #[inline(always)]
    fn take(&self, from: usize, n: usize) -> Self {
        if from >= 8 {
            0
        } else {
            (*self >> (8 * from)) & low64(n)
        }
    }
    #[inline(always)]
    fn concat(&self, na: usize, b: &Self, nb: usize) -> u128 {
        let lo = u128::from(*self & low64(na));
        let hi = if na >= 16 {
            0
        } else {
            u128::from(*b & low64(nb)) << (8 * na)
        };
        lo | hi
    }
    #[inline(always)]
    fn slice2(c: &u128, from: usize, n: usize) -> Self {
        if from >= 16 {
            0
        } else {
            (*c >> (8 * from)) as u64 & low64(n)
        }
    }
    #[inline(always)]
    fn place(c: &u128, n: usize, at: usize) -> Self {
        if at >= 8 {
            0
        } else {
            (*c as u64 & low64(n)) << (8 * at)
        }
    }
    #[inline(always)]
    fn desc_shift_in(desc: u128, beat: &Self, bb: usize, _addr: u64) -> u128 {
        // A one-word beat is narrower than the descriptor: shift in from the top.
        let w = u128::from(*beat & low64(bb));
        (desc >> (8 * bb)) | (w << (8 * (DESC_BYTES - bb)))
    }
    #[inline(always)]
    fn desc_beat(d: u128, idx: usize, bb: usize, _addr: u64) -> (Self, u64) {
        let from = idx * bb;
        let b = if from >= 16 {
            0
        } else {
            (d >> (8 * from)) as u64 & low64(bb)
        };
        (b, keep_at(bb as u32, 0))
    }
}

/// Word-array beats (`DataWidth` 256): the lane moves of [`Beat`] on
/// `N` words (double beat `2N` words).
macro_rules! lanes_words {
    ($n:literal, $n2:literal) => {
        impl Lanes for [u64; $n] {
            type Double = [u64; $n2];
            const ZERO: Self = [0; $n];
            #[inline]
            fn take(&self, from: usize, n: usize) -> Self {
                if from + n <= 16 {
                    let x = if from >= 16 {
                        0
                    } else {
                        lo128(self) >> (8 * from) & low_bytes(n)
                    };
                    let mut o = [0u64; $n];
                    o[0] = x as u64;
                    o[1] = (x >> 64) as u64;
                    return o;
                }
                mask(shr(self, from), n)
            }
            #[inline]
            fn concat(&self, na: usize, b: &Self, nb: usize) -> [u64; $n2] {
                let mut o = [0u64; $n2];
                if na + nb <= 16 {
                    let lo = lo128(self) & low_bytes(na);
                    let hi = if na >= 16 {
                        0
                    } else {
                        (lo128(b) & low_bytes(nb)) << (8 * na)
                    };
                    let x = lo | hi;
                    o[0] = x as u64;
                    o[1] = (x >> 64) as u64;
                    return o;
                }
                let mut wb = [0u64; $n2];
                wb[..$n].copy_from_slice(&mask(*b, nb));
                o[..$n].copy_from_slice(&mask(*self, na));
                for (d, s) in o.iter_mut().zip(shl(&wb, na)) {
                    *d |= s;
                }
                o
            }
            #[inline]
            fn slice2(c: &[u64; $n2], from: usize, n: usize) -> Self {
                let mut o = [0u64; $n];
                if from + n <= 16 {
                    let x = if from >= 16 {
                        0
                    } else {
                        lo128(c) >> (8 * from) & low_bytes(n)
                    };
                    o[0] = x as u64;
                    o[1] = (x >> 64) as u64;
                    return o;
                }
                o.copy_from_slice(&mask(shr(c, from), n)[..$n]);
                o
            }
            #[inline]
            fn place(c: &[u64; $n2], n: usize, at: usize) -> Self {
                if n + at <= 16 {
                    let x = if at >= 16 {
                        0
                    } else {
                        (lo128(c) & low_bytes(n)) << (8 * at)
                    };
                    let mut o = [0u64; $n];
                    o[0] = x as u64;
                    o[1] = (x >> 64) as u64;
                    return o;
                }
                shl(&Self::slice2(c, 0, n), at)
            }
            #[inline]
            fn desc_shift_in(desc: u128, beat: &Self, bb: usize, addr: u64) -> u128 {
                if bb >= DESC_BYTES {
                    let off = (addr as usize) & (bb - 1);
                    lo128(&shr(beat, off))
                } else {
                    let w = lo128(&mask(*beat, bb));
                    (desc >> (8 * bb)) | (w << (8 * (DESC_BYTES - bb)))
                }
            }
            #[inline]
            fn desc_beat(d: u128, idx: usize, bb: usize, addr: u64) -> (Self, u64) {
                let mut words = [0u64; $n];
                words[0] = d as u64;
                words[1] = (d >> 64) as u64;
                if bb >= DESC_BYTES {
                    let off = (addr as usize) & (bb - 1);
                    (shl(&words, off), keep_at(DESC_BYTES as u32, off as u32))
                } else {
                    (words.take(idx * bb, bb), keep_at(bb as u32, 0))
                }
            }
        }
    };
}

lanes_words!(4, 8);

/// The low `n` bytes of a `u128` (all of it from 16 bytes up).
#[inline(always)]
fn low128(x: u128, n: usize) -> u128 {
    x & LOW_BYTES[if n > 16 { 16 } else { n }]
}

/// Two-word beats (`DataWidth` 128): every lane move is a shift and a mask of
/// one `u128` (two for the double beat, `[lanes 0..16, lanes 16..32]`).
impl Lanes for [u64; 2] {
    type Double = [u128; 2];
    const ZERO: Self = [0; 2];
    #[inline(always)]
    fn take(&self, from: usize, n: usize) -> Self {
        let x = if from >= 16 {
            0
        } else {
            low128(lo128(self) >> (8 * from), n)
        };
        [x as u64, (x >> 64) as u64]
    }
    #[inline(always)]
    fn concat(&self, na: usize, b: &Self, nb: usize) -> [u128; 2] {
        let a = low128(lo128(self), na);
        let b = low128(lo128(b), nb);
        let sh = (8 * na) as u32;
        let lo = a | b.checked_shl(sh).unwrap_or(0);
        let hi = if sh == 0 {
            0
        } else {
            b.checked_shr(128 - sh).unwrap_or(0)
        };
        [lo, hi]
    }
    #[inline(always)]
    fn slice2(c: &[u128; 2], from: usize, n: usize) -> Self {
        let x = if from < 16 {
            let sh = (8 * from) as u32;
            (c[0] >> sh) | c[1].checked_shl(128 - sh).unwrap_or(0)
        } else if from < 32 {
            c[1] >> (8 * (from - 16))
        } else {
            0
        };
        let x = low128(x, n);
        [x as u64, (x >> 64) as u64]
    }
    #[inline(always)]
    fn place(c: &[u128; 2], n: usize, at: usize) -> Self {
        let x = if at >= 16 {
            0
        } else {
            low128(c[0], n) << (8 * at)
        };
        [x as u64, (x >> 64) as u64]
    }
    #[inline(always)]
    fn desc_shift_in(desc: u128, beat: &Self, bb: usize, addr: u64) -> u128 {
        if bb >= DESC_BYTES {
            let off = (addr as usize) & (bb - 1);
            lo128(beat).checked_shr((8 * off) as u32).unwrap_or(0)
        } else {
            let w = low128(lo128(beat), bb);
            (desc >> (8 * bb)) | (w << (8 * (DESC_BYTES - bb)))
        }
    }
    #[inline(always)]
    fn desc_beat(d: u128, idx: usize, bb: usize, addr: u64) -> (Self, u64) {
        if bb >= DESC_BYTES {
            let off = (addr as usize) & (bb - 1);
            let x = d.checked_shl((8 * off) as u32).unwrap_or(0);
            (
                [x as u64, (x >> 64) as u64],
                keep_at(DESC_BYTES as u32, off as u32),
            )
        } else {
            (
                [d as u64, (d >> 64) as u64].take(idx * bb, bb),
                keep_at(bb as u32, 0),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A double beat ([`Lanes::Double`]) as a [`Beat2`] and back, to compare
    /// the sized lane moves with the [`Beat`] forms.
    trait Double2: Sized {
        fn wide2(&self) -> Beat2;
        /// A [`Beat2`] cut to the double beat.
        fn narrow2(c: &Beat2) -> Self;
    }

    /// `DataWidth` 32 (two 4-byte beats in one word).
    impl Double2 for u64 {
        fn wide2(&self) -> Beat2 {
            let mut o = [0u64; 2 * WORDS];
            o[0] = *self;
            o
        }
        fn narrow2(c: &Beat2) -> Self {
            c[0]
        }
    }

    /// `DataWidth` 64.
    impl Double2 for u128 {
        fn wide2(&self) -> Beat2 {
            let mut o = [0u64; 2 * WORDS];
            o[0] = *self as u64;
            o[1] = (*self >> 64) as u64;
            o
        }
        fn narrow2(c: &Beat2) -> Self {
            lo128(c)
        }
    }

    /// `DataWidth` 128.
    impl Double2 for [u128; 2] {
        fn wide2(&self) -> Beat2 {
            let mut o = [0u64; 2 * WORDS];
            o[0] = self[0] as u64;
            o[1] = (self[0] >> 64) as u64;
            o[2] = self[1] as u64;
            o[3] = (self[1] >> 64) as u64;
            o
        }
        fn narrow2(c: &Beat2) -> Self {
            [lo128(c), u128::from(c[2]) | u128::from(c[3]) << 64]
        }
    }

    /// Word-array beats (`DataWidth` 256).
    impl<const N2: usize> Double2 for [u64; N2] {
        fn wide2(&self) -> Beat2 {
            let mut o = [0u64; 2 * WORDS];
            o[..N2].copy_from_slice(self);
            o
        }
        fn narrow2(c: &Beat2) -> Self {
            let mut o = [0u64; N2];
            o.copy_from_slice(&c[..N2]);
            o
        }
    }

    /// Byte-array references of the lane moves (the former representation).
    fn bytes_take(b: &[u8; 32], from: usize, n: usize) -> [u8; 32] {
        let mut o = [0u8; 32];
        o[..n].copy_from_slice(&b[from..from + n]);
        o
    }

    #[test]
    fn word_lane_moves_equal_the_byte_reference_at_every_offset_and_length() {
        let mut r = crate::stim::StimRng::new(5);
        for _ in 0..200 {
            let mut ab = [0u8; 32];
            let mut bb_ = [0u8; 32];
            r.fill(&mut ab);
            r.fill(&mut bb_);
            let (a, b) = (from_bytes(&ab), from_bytes(&bb_));
            assert_eq!(to_bytes(&a), ab);
            for (j, byte) in ab.iter().enumerate() {
                assert_eq!(lane(&a, j), *byte);
            }
            for from in 0..=32 {
                for n in 0..=32 - from {
                    assert_eq!(to_bytes(&take(&a, from, n)), bytes_take(&ab, from, n));
                }
            }
            for na in 0..=32 {
                for nb in 0..=32 {
                    let c = concat(&a, na, &b, nb);
                    let mut want = [0u8; 64];
                    want[..na].copy_from_slice(&ab[..na]);
                    want[na..na + nb].copy_from_slice(&bb_[..nb]);
                    let lo: [u64; 4] = [c[0], c[1], c[2], c[3]];
                    let hi: [u64; 4] = [c[4], c[5], c[6], c[7]];
                    assert_eq!(to_bytes(&lo)[..], want[..32], "na {na} nb {nb}");
                    assert_eq!(to_bytes(&hi)[..], want[32..], "na {na} nb {nb}");
                    let from = (na + nb) / 3;
                    let n = (na + nb - from).min(32);
                    let mut w = [0u8; 32];
                    w[..n].copy_from_slice(&want[from..from + n]);
                    assert_eq!(to_bytes(&slice2(&c, from, n)), w);
                    let k = (na + nb).min(16);
                    let at = (32 - k) / 2;
                    let mut w = [0u8; 32];
                    w[at..at + k].copy_from_slice(&want[..k]);
                    assert_eq!(to_bytes(&place(&c, k, at)), w);
                }
            }
        }
    }

    /// `slice2` and `place` at every (offset, length) of a double beat, so
    /// both their 128-bit and their word-array paths are compared with bytes.
    #[test]
    fn slice2_and_place_equal_the_byte_reference_at_every_offset_and_length() {
        let mut r = crate::stim::StimRng::new(6);
        for _ in 0..20 {
            let mut cb = [0u8; 64];
            r.fill(&mut cb);
            let mut c: Beat2 = [0; 2 * WORDS];
            for (k, w) in c.iter_mut().enumerate() {
                let mut x = [0u8; 8];
                x.copy_from_slice(&cb[8 * k..8 * k + 8]);
                *w = u64::from_le_bytes(x);
            }
            for from in 0..=64 {
                for n in 0..=(64 - from).min(32) {
                    let mut w = [0u8; 32];
                    w[..n].copy_from_slice(&cb[from..from + n]);
                    assert_eq!(to_bytes(&slice2(&c, from, n)), w, "from {from} n {n}");
                }
            }
            for n in 0..=32 {
                for at in 0..=32 - n {
                    let mut w = [0u8; 32];
                    w[at..at + n].copy_from_slice(&cb[..n]);
                    assert_eq!(to_bytes(&place(&c, n, at)), w, "n {n} at {at}");
                }
            }
        }
    }

    /// A random beat of type `D` (every lane of the type random).
    fn rand_lanes<D: Lanes>(r: &mut crate::stim::StimRng) -> D {
        D::from_beat(&[r.u64(), r.u64(), r.u64(), r.u64()])
    }

    /// The sized lane moves of `D` (`cap` bytes per beat) equal the [`Beat`]
    /// forms at every offset and length the engine uses (a beat's bytes,
    /// a double beat's `2 cap`), for random data, and the descriptor moves at
    /// every beat size `bbs` of the type.
    fn sized_equals_beat<D: Lanes>(cap: usize, bbs: &[usize], seed: u64)
    where
        D::Double: Double2,
    {
        let mut r = crate::stim::StimRng::new(seed);
        for _ in 0..100 {
            let (a, b) = (rand_lanes::<D>(&mut r), rand_lanes::<D>(&mut r));
            let (wa, wb) = (a.to_beat(), b.to_beat());
            for from in 0..=cap {
                for n in 0..=cap - from {
                    assert_eq!(
                        a.take(from, n).to_beat(),
                        take(&wa, from, n),
                        "take {from} {n}"
                    );
                }
            }
            // The stream's keep count may exceed the beat: all of it.
            for n in cap..=MAX_BB {
                assert_eq!(a.take(0, n).to_beat(), take(&wa, 0, n), "take 0 {n}");
            }
            for na in 0..=cap {
                for nb in 0..=cap {
                    let c = a.concat(na, &b, nb);
                    assert_eq!(c.wide2(), concat(&wa, na, &wb, nb), "concat {na} {nb}");
                }
            }
            let mut cw: Beat2 = [0; 2 * WORDS];
            for w in cw.iter_mut() {
                *w = r.u64();
            }
            let c = D::Double::narrow2(&cw);
            let cw = c.wide2();
            for from in 0..=2 * cap {
                for n in 0..=cap.min(2 * cap - from) {
                    let got = D::slice2(&c, from, n).to_beat();
                    assert_eq!(got, slice2(&cw, from, n), "slice2 {from} {n}");
                }
            }
            for n in 0..=cap {
                for at in 0..=cap - n {
                    assert_eq!(
                        D::place(&c, n, at).to_beat(),
                        place(&cw, n, at),
                        "place {n} {at}"
                    );
                }
            }
            let d = u128::from(r.u64()) | u128::from(r.u64()) << 64;
            for &bb in bbs {
                for _ in 0..4 {
                    let addr = r.u64() & !15 | (r.below(2) * 16);
                    let got = D::desc_shift_in(d, &a, bb, addr);
                    assert_eq!(got, desc_shift_in(d, &wa, bb, addr), "shift in bb {bb}");
                    for k in 0..desc_beats(bb) as usize {
                        let (x, strb) = D::desc_beat(d, k, bb, addr);
                        assert_eq!(
                            (x.to_beat(), strb),
                            desc_beat(d, k, bb, addr),
                            "bb {bb} k {k}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn sized_lane_moves_equal_the_beat_forms_at_every_width() {
        sized_equals_beat::<Beat4>(4, &[4], 10);
        sized_equals_beat::<u64>(8, &[4, 8], 11);
        sized_equals_beat::<[u64; 2]>(16, &[4, 8, 16], 12);
        sized_equals_beat::<[u64; 4]>(32, &[32], 13);
    }

    #[test]
    fn wide_data_round_trips_and_desc_assembles_at_every_width() {
        let w = [1u64, 2, 3, 4];
        assert_eq!(<[u64; 4]>::from_beat(&w.to_beat()), w);
        assert_eq!(
            u64::from_beat(&0x1122_3344_5566_7788u64.to_beat()),
            0x1122_3344_5566_7788
        );
        let d: u128 = 0x0f0e_0d0c_0b0a_0908_0706_0504_0302_0100;
        for bb in [4usize, 8, 16, 32] {
            for addr in [0x100u64, 0x110] {
                let mut acc = 0u128;
                for k in 0..desc_beats(bb) as usize {
                    let (b, strb) = desc_beat(d, k, bb, addr);
                    assert_eq!(strb.count_ones() as usize, bb.min(DESC_BYTES));
                    acc = desc_shift_in(acc, &b, bb, addr);
                }
                assert_eq!(acc, d, "bb {bb} addr {addr:#x}");
            }
        }
    }
}
