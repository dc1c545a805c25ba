//! Data beats of the width-generic UDMA data path (`DataWidth` 32..=256 bits).
//!
//! A beat is kept as little-endian bytes (`lane k` = byte `k`); only the low
//! `bb` (bytes per beat) lanes are meaningful and every lane above the valid
//! bytes of a register is zero, exactly as in the RTL (which masks every byte
//! it shifts in). [`WideData`] converts between a port field (`u64` up to 64
//! bits, `[u64; N]` above) and a beat.

use crate::ports::PortValue;

/// Largest supported beat in bytes (`DataWidth` 256).
pub const MAX_BB: usize = 32;

/// One data beat, lane 0 first.
pub type Beat = [u8; MAX_BB];

/// Two beats side by side (packing of carry/hold and a new beat).
pub type Beat2 = [u8; 2 * MAX_BB];

/// All-zero beat.
pub const ZERO: Beat = [0; MAX_BB];

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
        let mut b = ZERO;
        b[..8].copy_from_slice(&self.to_le_bytes());
        b
    }
    #[inline]
    fn from_beat(b: &Beat) -> Self {
        let mut w = [0u8; 8];
        w.copy_from_slice(&b[..8]);
        u64::from_le_bytes(w)
    }
}

impl<const N: usize> WideData for [u64; N]
where
    [u64; N]: Default,
{
    #[inline]
    fn to_beat(&self) -> Beat {
        let mut b = ZERO;
        for (k, w) in self.iter().enumerate().take(MAX_BB / 8) {
            b[8 * k..8 * k + 8].copy_from_slice(&w.to_le_bytes());
        }
        b
    }
    #[inline]
    fn from_beat(b: &Beat) -> Self {
        let mut a = [0u64; N];
        for (k, w) in a.iter_mut().enumerate().take(MAX_BB / 8) {
            let mut x = [0u8; 8];
            x.copy_from_slice(&b[8 * k..8 * k + 8]);
            *w = u64::from_le_bytes(x);
        }
        a
    }
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
    let mut o = ZERO;
    o[..n].copy_from_slice(&b[from..from + n]);
    o
}

/// `a[..na]` followed by `b[..nb]` (other lanes zero).
#[inline]
pub fn concat(a: &Beat, na: usize, b: &Beat, nb: usize) -> Beat2 {
    let mut o = [0u8; 2 * MAX_BB];
    o[..na].copy_from_slice(&a[..na]);
    o[na..na + nb].copy_from_slice(&b[..nb]);
    o
}

/// Lanes `[from, from + n)` of a double beat, moved to lane 0.
#[inline]
pub fn slice2(c: &Beat2, from: usize, n: usize) -> Beat {
    let mut o = ZERO;
    o[..n].copy_from_slice(&c[from..from + n]);
    o
}

/// Descriptor register after one read beat (`rtl`: `dsc_in`): a beat narrower
/// than the descriptor shifts in from the top; a wide beat holds the whole
/// descriptor at lane `addr mod bb`.
#[inline]
pub fn desc_shift_in(dsc: u128, beat: &Beat, bb: usize, addr: u64) -> u128 {
    if bb >= DESC_BYTES {
        let off = (addr as usize) & (bb - 1);
        let mut d = [0u8; DESC_BYTES];
        d.copy_from_slice(&beat[off..off + DESC_BYTES]);
        u128::from_le_bytes(d)
    } else {
        let mut w = [0u8; DESC_BYTES];
        w[..bb].copy_from_slice(&beat[..bb]);
        (dsc >> (8 * bb)) | (u128::from_le_bytes(w) << (8 * (DESC_BYTES - bb)))
    }
}

/// Beat `idx` of a 16-byte write of `d` at `addr` and its strobe: a narrow
/// port sends the bytes in order over full beats; a wide one sends one beat
/// with the 16 bytes at lane `addr mod bb`.
#[inline]
pub fn desc_beat(d: u128, idx: usize, bb: usize, addr: u64) -> (Beat, u64) {
    let bytes = d.to_le_bytes();
    let mut o = ZERO;
    if bb >= DESC_BYTES {
        let off = (addr as usize) & (bb - 1);
        o[off..off + DESC_BYTES].copy_from_slice(&bytes);
        (o, keep_at(DESC_BYTES as u32, off as u32))
    } else {
        o[..bb].copy_from_slice(&bytes[idx * bb..idx * bb + bb]);
        (o, keep_at(bb as u32, 0))
    }
}

/// Beats of a 16-byte descriptor read or write on a `bb`-byte port.
#[inline]
pub fn desc_beats(bb: usize) -> u32 {
    (DESC_BYTES / bb).max(1) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

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
