//! UDMA descriptors (16 bytes each) and the ring-id (generation tag) rules.
//!
//! Formats from PUBLIC-FACTS §1 (aws-neuron-driver `udma/udma.h`; Alpine HAL
//! `al_hal_udma.h`); each descriptor is four little-endian 32-bit words.
//!
//! | kind | word 0 | word 1 | words 2–3 |
//! | --- | --- | --- | --- |
//! | M2S (TX) | `len_ctrl`: LEN `[15:0]` (0 = 65536), RING_ID `[25:24]`, FIRST 26, LAST 27, INT_EN 28, DMB 30, CONCAT 31 | `meta_ctrl` (opaque) | `buf_ptr` |
//! | S2M (RX) | `len_ctrl`: LEN `[15:0]` (0 = 65536), RING_ID `[25:24]`, INT_EN 28 | `buf2_ptr_lo` | `buf1_ptr` |
//! | completion | ERROR 31, BUF1_USED 30, LAST 27, FIRST 26, RING_ID `[25:24]` | bytes written `[16:0]` (project-defined) | word 2: ring offset of the S2M descriptor `[23:0]` (project-defined); word 3: 0 |
//!
//! Ring id: 2 bits, initial 1, +1 mod 4 each time the ring wraps (public).

use super::regs::*;
use thiserror::Error;

/// Mask of a one-bit field.
const fn bit(b: u32) -> u32 {
    1 << b
}
const LEN_MASK: u32 = (1 << UDMA_DESC_LEN_WIDTH) - 1;
const RING_ID_MASK: u32 = 3 << UDMA_DESC_RING_ID_SHIFT;
const CDESC_LEN_MASK: u32 = (1 << UDMA_CDESC_LEN_WIDTH) - 1;

/// Bits of M2S `len_ctrl` that carry a defined field.
pub const M2S_LEN_CTRL_DEFINED: u32 = LEN_MASK
    | RING_ID_MASK
    | bit(UDMA_DESC_FIRST_BIT)
    | bit(UDMA_DESC_LAST_BIT)
    | bit(UDMA_DESC_INT_EN_BIT)
    | bit(UDMA_DESC_DMB_BIT)
    | bit(UDMA_DESC_CONCAT_BIT);
/// Bits of S2M `len_ctrl` that carry a defined field.
pub const S2M_LEN_CTRL_DEFINED: u32 = LEN_MASK | RING_ID_MASK | bit(UDMA_DESC_INT_EN_BIT);
/// Bits of completion word 0 that carry a defined field.
pub const CDESC_W0_DEFINED: u32 = RING_ID_MASK
    | bit(UDMA_DESC_FIRST_BIT)
    | bit(UDMA_DESC_LAST_BIT)
    | bit(UDMA_CDESC_BUF1_USED_BIT)
    | bit(UDMA_CDESC_ERROR_BIT);

/// A descriptor that cannot be encoded or decoded.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DescError {
    /// A length outside 1..=65536.
    #[error("{kind} descriptor: LEN {len} outside 1..=65536 (len_ctrl byte 0, bits [15:0]; 0 encodes 65536)")]
    Len { kind: &'static str, len: u32 },
    /// A ring id wider than 2 bits.
    #[error("{kind} descriptor: RING_ID {ring_id} does not fit bits [25:24] of word 0")]
    RingId { kind: &'static str, ring_id: u8 },
    /// Reserved bits set in a word.
    #[error(
        "{kind} descriptor: reserved bits {bits:#010x} set in {field} (byte offset {byte_offset})"
    )]
    Reserved {
        kind: &'static str,
        field: &'static str,
        byte_offset: usize,
        bits: u32,
    },
    /// A completion byte count outside 0..=65536.
    #[error("completion descriptor: byte count {len} exceeds 65536 (word 1, byte offset 4, bits [16:0])")]
    CompLen { len: u32 },
}

fn word(b: &[u8; 16], k: usize) -> u32 {
    u32::from_le_bytes([b[4 * k], b[4 * k + 1], b[4 * k + 2], b[4 * k + 3]])
}
fn put_word(b: &mut [u8; 16], k: usize, v: u32) {
    b[4 * k..4 * k + 4].copy_from_slice(&v.to_le_bytes());
}
fn dword(b: &[u8; 16], k: usize) -> u64 {
    word(b, k) as u64 | (word(b, k + 1) as u64) << 32
}
fn flag(w: u32, b: u32) -> bool {
    w & bit(b) != 0
}
fn set(b: u32, on: bool) -> u32 {
    if on {
        bit(b)
    } else {
        0
    }
}

/// Encode a byte length 1..=65536 into the 16-bit LEN field (65536 → 0).
pub fn encode_len(kind: &'static str, len: u32) -> Result<u32, DescError> {
    if len == 0 || len > UDMA_DESC_MAX_LEN {
        return Err(DescError::Len { kind, len });
    }
    Ok(len & LEN_MASK)
}

/// Decode the 16-bit LEN field into a byte length (0 → 65536).
pub const fn decode_len(field: u32) -> u32 {
    let l = field & LEN_MASK;
    if l == 0 {
        UDMA_DESC_MAX_LEN
    } else {
        l
    }
}

/// Ring id field of a `len_ctrl` / completion word 0.
pub const fn ring_id_of(w0: u32) -> u8 {
    ((w0 >> UDMA_DESC_RING_ID_SHIFT) & 3) as u8
}

fn check_ring_id(kind: &'static str, ring_id: u8) -> Result<u32, DescError> {
    if ring_id > 3 {
        return Err(DescError::RingId { kind, ring_id });
    }
    Ok((ring_id as u32) << UDMA_DESC_RING_ID_SHIFT)
}

fn check_reserved(
    kind: &'static str,
    field: &'static str,
    byte_offset: usize,
    w: u32,
    defined: u32,
) -> Result<(), DescError> {
    let bits = w & !defined;
    if bits != 0 {
        return Err(DescError::Reserved {
            kind,
            field,
            byte_offset,
            bits,
        });
    }
    Ok(())
}

/// M2S (TX) descriptor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct M2sDesc {
    /// Bytes to read at `buf_ptr`, 1..=65536.
    pub len: u32,
    /// Ring id (generation tag) the submitter stamped, 0..=3.
    pub ring_id: u8,
    /// First descriptor of a packet.
    pub first: bool,
    /// Last descriptor of a packet (the stream's `tlast`).
    pub last: bool,
    /// Raise the interrupt when this descriptor completes.
    pub int_en: bool,
    /// Data memory barrier (accepted; no effect in this model).
    pub dmb: bool,
    /// Concatenate (accepted; no effect in this model).
    pub concat: bool,
    /// Opaque metadata word.
    pub meta_ctrl: u32,
    /// Source buffer address.
    pub buf_ptr: u64,
}

impl M2sDesc {
    const KIND: &'static str = "M2S";

    /// A descriptor that is a whole packet (FIRST and LAST, no interrupt,
    /// barrier, concatenation or metadata): what `rdma_desc_gen` writes.
    pub fn whole_packet(len: u32, ring_id: u8, buf_ptr: u64) -> Self {
        Self {
            len,
            ring_id,
            first: true,
            last: true,
            int_en: false,
            dmb: false,
            concat: false,
            meta_ctrl: 0,
            buf_ptr,
        }
    }

    /// Encode to the 16 ring bytes.
    pub fn encode(&self) -> Result<[u8; 16], DescError> {
        let w0 = encode_len(Self::KIND, self.len)?
            | check_ring_id(Self::KIND, self.ring_id)?
            | set(UDMA_DESC_FIRST_BIT, self.first)
            | set(UDMA_DESC_LAST_BIT, self.last)
            | set(UDMA_DESC_INT_EN_BIT, self.int_en)
            | set(UDMA_DESC_DMB_BIT, self.dmb)
            | set(UDMA_DESC_CONCAT_BIT, self.concat);
        let mut b = [0u8; 16];
        put_word(&mut b, 0, w0);
        put_word(&mut b, 1, self.meta_ctrl);
        b[8..16].copy_from_slice(&self.buf_ptr.to_le_bytes());
        Ok(b)
    }

    /// Decode 16 ring bytes; reserved `len_ctrl` bits are an error.
    pub fn decode(b: &[u8; 16]) -> Result<Self, DescError> {
        let w0 = word(b, 0);
        check_reserved(Self::KIND, "len_ctrl", 0, w0, M2S_LEN_CTRL_DEFINED)?;
        Ok(Self {
            len: decode_len(w0),
            ring_id: ring_id_of(w0),
            first: flag(w0, UDMA_DESC_FIRST_BIT),
            last: flag(w0, UDMA_DESC_LAST_BIT),
            int_en: flag(w0, UDMA_DESC_INT_EN_BIT),
            dmb: flag(w0, UDMA_DESC_DMB_BIT),
            concat: flag(w0, UDMA_DESC_CONCAT_BIT),
            meta_ctrl: word(b, 1),
            buf_ptr: dword(b, 2),
        })
    }
}

/// S2M (RX) descriptor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct S2mDesc {
    /// Capacity of buffer 1 in bytes, 1..=65536.
    pub len: u32,
    /// Ring id (generation tag), 0..=3.
    pub ring_id: u8,
    /// Raise the interrupt when this descriptor completes.
    pub int_en: bool,
    /// Low word of buffer 2 (header split; unused by this model).
    pub buf2_ptr_lo: u32,
    /// Destination buffer address.
    pub buf1_ptr: u64,
}

impl S2mDesc {
    const KIND: &'static str = "S2M";

    /// Encode to the 16 ring bytes.
    pub fn encode(&self) -> Result<[u8; 16], DescError> {
        let w0 = encode_len(Self::KIND, self.len)?
            | check_ring_id(Self::KIND, self.ring_id)?
            | set(UDMA_DESC_INT_EN_BIT, self.int_en);
        let mut b = [0u8; 16];
        put_word(&mut b, 0, w0);
        put_word(&mut b, 1, self.buf2_ptr_lo);
        b[8..16].copy_from_slice(&self.buf1_ptr.to_le_bytes());
        Ok(b)
    }

    /// Decode 16 ring bytes; reserved `len_ctrl` bits are an error.
    pub fn decode(b: &[u8; 16]) -> Result<Self, DescError> {
        let w0 = word(b, 0);
        check_reserved(Self::KIND, "len_ctrl", 0, w0, S2M_LEN_CTRL_DEFINED)?;
        Ok(Self {
            len: decode_len(w0),
            ring_id: ring_id_of(w0),
            int_en: flag(w0, UDMA_DESC_INT_EN_BIT),
            buf2_ptr_lo: word(b, 1),
            buf1_ptr: dword(b, 2),
        })
    }
}

/// Completion descriptor written by S2M into the completion ring.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CompDesc {
    /// The packet was truncated or carried an error (stream `tuser`).
    pub error: bool,
    /// At least one byte was written into buffer 1.
    pub buf1_used: bool,
    /// This descriptor ended the packet.
    pub last: bool,
    /// This descriptor started the packet.
    pub first: bool,
    /// Completion ring id (generation tag), 0..=3.
    pub ring_id: u8,
    /// Bytes written into buffer 1, 0..=65536 (project-defined word 1).
    pub len: u32,
    /// Ring offset of the S2M descriptor this completes (project-defined word 2).
    pub desc_offset: u32,
}

impl CompDesc {
    const KIND: &'static str = "completion";

    /// Encode to the 16 ring bytes.
    pub fn encode(&self) -> Result<[u8; 16], DescError> {
        if self.len > UDMA_DESC_MAX_LEN {
            return Err(DescError::CompLen { len: self.len });
        }
        let w0 = check_ring_id(Self::KIND, self.ring_id)?
            | set(UDMA_CDESC_ERROR_BIT, self.error)
            | set(UDMA_CDESC_BUF1_USED_BIT, self.buf1_used)
            | set(UDMA_DESC_LAST_BIT, self.last)
            | set(UDMA_DESC_FIRST_BIT, self.first);
        let mut b = [0u8; 16];
        put_word(&mut b, 0, w0);
        put_word(&mut b, 1, self.len);
        put_word(&mut b, 2, self.desc_offset & PTR_OFFSET_MASK);
        Ok(b)
    }

    /// Decode 16 ring bytes; reserved bits are an error.
    pub fn decode(b: &[u8; 16]) -> Result<Self, DescError> {
        let w0 = word(b, 0);
        check_reserved(Self::KIND, "word0", 0, w0, CDESC_W0_DEFINED)?;
        check_reserved(Self::KIND, "word1", 4, word(b, 1), CDESC_LEN_MASK)?;
        check_reserved(Self::KIND, "word2", 8, word(b, 2), PTR_OFFSET_MASK)?;
        check_reserved(Self::KIND, "word3", 12, word(b, 3), 0)?;
        let len = word(b, 1);
        if len > UDMA_DESC_MAX_LEN {
            return Err(DescError::CompLen { len });
        }
        Ok(Self {
            error: flag(w0, UDMA_CDESC_ERROR_BIT),
            buf1_used: flag(w0, UDMA_CDESC_BUF1_USED_BIT),
            last: flag(w0, UDMA_DESC_LAST_BIT),
            first: flag(w0, UDMA_DESC_FIRST_BIT),
            ring_id: ring_id_of(w0),
            len,
            desc_offset: word(b, 2),
        })
    }
}

/// Next ring id (mod 4: the width of the pointer registers' RING_ID field).
pub const fn next_ring_id(id: u8) -> u8 {
    Q_PTR_RING_ID.wrapping_add(id as u32, 1) as u8
}

/// A position in a descriptor ring: offset and the ring id that belongs to it.
///
/// Used alike by the submitter (the driver's next-to-submit slot), the
/// hardware's head/tail/completion pointers and the completion reader: the ring
/// id starts at [`UDMA_RING_ID_INIT`] and advances by one (mod 4) each time the
/// offset wraps from the last slot to 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RingPos {
    /// Slot index, 0..len.
    pub offset: u32,
    /// Ring id of that slot's current lap.
    pub ring_id: u8,
}

impl Default for RingPos {
    fn default() -> Self {
        Self {
            offset: 0,
            ring_id: UDMA_RING_ID_INIT as u8,
        }
    }
}

impl RingPos {
    /// Advance by `n` slots in a ring of `len` slots (len ≥ 1), counting wraps.
    pub fn advance(self, n: u32, len: u32) -> Self {
        let len = len.max(1) as u64;
        let total = self.offset as u64 + n as u64;
        let wraps = (total / len) as u8;
        Self {
            offset: (total % len) as u32,
            ring_id: Q_PTR_RING_ID.wrapping_add(self.ring_id as u32, wraps as u32) as u8,
        }
    }
    /// The hardware's one-slot step (head and completion head, `ptr_step` in
    /// `udma_regs.sv`): past the last slot (offset + 1 ≥ `rl`) to offset 0 of the next lap.
    pub const fn step(self, rl: u32) -> Self {
        let n = self.offset + 1;
        if n >= rl {
            Self {
                offset: 0,
                ring_id: next_ring_id(self.ring_id),
            }
        } else {
            Self {
                offset: n,
                ring_id: self.ring_id,
            }
        }
    }
    /// The hardware's doorbell step (tail += `inc`, `inc` ≤ free slots < `rl`): at most one wrap.
    pub const fn add_one_lap(self, inc: u32, rl: u32) -> Self {
        let n = self.offset + inc;
        if n >= rl {
            Self {
                offset: Q_PTR_OFFSET.get(n - rl),
                ring_id: next_ring_id(self.ring_id),
            }
        } else {
            Self {
                offset: n,
                ring_id: self.ring_id,
            }
        }
    }
    /// Register encoding (offset `[23:0]`, ring id `[31:30]`).
    pub const fn reg(self) -> u32 {
        ptr_value(self.offset, self.ring_id as u32)
    }
    /// From a register value.
    pub const fn from_reg(v: u32) -> Self {
        let (offset, id) = ptr_fields(v);
        Self {
            offset,
            ring_id: id as u8,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn m2s_len_ctrl_public_bit_positions() {
        let d = M2sDesc {
            len: 65536,
            ring_id: 2,
            first: true,
            last: true,
            int_en: true,
            dmb: true,
            concat: true,
            meta_ctrl: 0xdead_beef,
            buf_ptr: 0x0123_4567_89ab_cdef,
        };
        let b = d.encode().unwrap();
        // LEN 65536 encodes as 0; RING_ID [25:24]=2; FIRST 26, LAST 27, INT_EN 28, DMB 30, CONCAT 31.
        assert_eq!(
            word(&b, 0),
            (2 << 24) | (1 << 26) | (1 << 27) | (1 << 28) | (1 << 30) | (1 << 31)
        );
        assert_eq!(word(&b, 1), 0xdead_beef);
        assert_eq!(&b[8..16], &0x0123_4567_89ab_cdefu64.to_le_bytes());
        assert_eq!(M2sDesc::decode(&b).unwrap(), d);
    }

    #[test]
    fn s2m_and_completion_public_bit_positions() {
        let d = S2mDesc {
            len: 7,
            ring_id: 3,
            int_en: true,
            buf2_ptr_lo: 5,
            buf1_ptr: 0x1000,
        };
        let b = d.encode().unwrap();
        assert_eq!(word(&b, 0), 7 | (3 << 24) | (1 << 28));
        assert_eq!(S2mDesc::decode(&b).unwrap(), d);
        let c = CompDesc {
            error: true,
            buf1_used: true,
            last: true,
            first: true,
            ring_id: 1,
            len: 65536,
            desc_offset: 9,
        };
        let b = c.encode().unwrap();
        assert_eq!(
            word(&b, 0),
            (1 << 31) | (1 << 30) | (1 << 27) | (1 << 26) | (1 << 24)
        );
        assert_eq!(CompDesc::decode(&b).unwrap(), c);
    }

    #[test]
    fn length_zero_and_above_65536_are_rejected_with_the_field_named() {
        let mut d = S2mDesc {
            len: 0,
            ring_id: 1,
            int_en: false,
            buf2_ptr_lo: 0,
            buf1_ptr: 0,
        };
        let e = d.encode().unwrap_err();
        assert!(e.to_string().contains("bits [15:0]"), "{e}");
        d.len = 65537;
        assert!(matches!(d.encode(), Err(DescError::Len { len: 65537, .. })));
        d.len = 1;
        d.ring_id = 4;
        assert!(matches!(
            d.encode(),
            Err(DescError::RingId { ring_id: 4, .. })
        ));
    }

    #[test]
    fn reserved_bits_are_reported_with_byte_offset() {
        let mut b = [0u8; 16];
        put_word(&mut b, 0, 1 << 29);
        let e = M2sDesc::decode(&b).unwrap_err();
        assert_eq!(
            e,
            DescError::Reserved {
                kind: "M2S",
                field: "len_ctrl",
                byte_offset: 0,
                bits: 1 << 29
            }
        );
        assert!(S2mDesc::decode(&b).is_err());
    }

    #[test]
    fn ring_id_initial_1_advances_mod_4_per_wrap() {
        let mut p = RingPos::default();
        assert_eq!(p.ring_id, 1);
        let mut seen = vec![p.ring_id];
        for _ in 0..5 {
            p = p.advance(3, 4); // three steps...
            p = p.advance(1, 4); // ...and one more completes a lap
            seen.push(p.ring_id);
        }
        assert_eq!(seen, vec![1, 2, 3, 0, 1, 2]);
        assert_eq!(
            RingPos {
                offset: 3,
                ring_id: 3
            }
            .advance(1, 4),
            RingPos {
                offset: 0,
                ring_id: 0
            }
        );
        assert_eq!(RingPos::from_reg(p.reg()), p);
    }

    proptest! {
        /// Any 16 bytes: a descriptor decodes exactly when word 0 has no bit
        /// outside its defined fields, and a decoded one encodes back to the
        /// same 16 bytes (the input is the oracle); otherwise the error names
        /// the word.
        #[test]
        fn decoders_accept_exactly_the_defined_bits_and_round_trip(bytes in proptest::array::uniform16(any::<u8>())) {
            let w0 = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
            match M2sDesc::decode(&bytes) {
                Ok(d) => {
                    prop_assert_eq!(w0 & !M2S_LEN_CTRL_DEFINED, 0);
                    prop_assert_eq!(d.encode().unwrap(), bytes);
                }
                Err(e) => {
                    prop_assert_ne!(w0 & !M2S_LEN_CTRL_DEFINED, 0);
                    prop_assert!(e.to_string().contains("len_ctrl"), "{}", e);
                }
            }
            match S2mDesc::decode(&bytes) {
                Ok(d) => {
                    prop_assert_eq!(w0 & !S2M_LEN_CTRL_DEFINED, 0);
                    prop_assert_eq!(d.encode().unwrap(), bytes);
                }
                Err(e) => {
                    prop_assert_ne!(w0 & !S2M_LEN_CTRL_DEFINED, 0);
                    prop_assert!(e.to_string().contains("len_ctrl"), "{}", e);
                }
            }
            if let Ok(d) = CompDesc::decode(&bytes) {
                prop_assert_eq!(d.encode().unwrap(), bytes);
            }
        }

        #[test]
        fn m2s_encode_decode_round_trip(len in 1u32..=65536, rid in 0u8..4, flags in 0u8..32, meta: u32, ptr: u64) {
            let d = M2sDesc { len, ring_id: rid, first: flags & 1 != 0, last: flags & 2 != 0,
                int_en: flags & 4 != 0, dmb: flags & 8 != 0, concat: flags & 16 != 0, meta_ctrl: meta, buf_ptr: ptr };
            prop_assert_eq!(M2sDesc::decode(&d.encode().unwrap()).unwrap(), d);
        }

        #[test]
        fn ring_pos_advance_matches_step_by_step(off in 0u32..50, n in 0u32..200, len in 1u32..50) {
            let start = RingPos { offset: off % len, ring_id: 1 };
            let mut p = start;
            for _ in 0..n { p = p.advance(1, len); }
            prop_assert_eq!(start.advance(n, len), p);
        }
    }
}
