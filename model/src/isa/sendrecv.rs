//! SENDRECV, opcode 0xCB: NEURON_ISA_TPB_PSEUDO_SENDRECV_STRUCT (seed 000 §2).

use serde::{Deserialize, Serialize};

use super::arch::Arch;
use super::enc_op::EncOpType;
use super::error::IsaError;
use super::field::{FieldDesc, RawWord, WORD_BYTES};
use super::header::{layout_with_prefix, set_prefix_field, Events, Header, PREFIX_SETTABLE};

/// NEURON_ISA_TPB_OPCODE_PSEUDO_SEND_RECV.
pub const OPCODE_SENDRECV: u8 = 0xCB;

/// `tensor_id` u32: the local buffer for both legs.
pub const TENSOR_ID: FieldDesc = FieldDesc::new("tensor_id", 12, 4);
/// `peer_id` u64: the remote rank.
pub const PEER_ID: FieldDesc = FieldDesc::new("peer_id", 16, 8);
/// `is_send` u8: 1 = SEND (TX leg), 0 = RECV (RX leg).
pub const IS_SEND: FieldDesc = FieldDesc::new("is_send", 24, 1);
/// `reserved0[23]`.
pub const RESERVED0: FieldDesc = FieldDesc::reserved("reserved0", 25, 23);
/// `offset_bytes` u64: byte offset into the local tensor.
pub const OFFSET_BYTES: FieldDesc = FieldDesc::new("offset_bytes", 48, 8);
/// `size_bytes` u64: bytes moved.
pub const SIZE_BYTES: FieldDesc = FieldDesc::new("size_bytes", 56, 8);

/// The SENDRECV word: one directed P2P copy of `size_bytes` from/to
/// `tensor_id + offset_bytes` to/from rank `peer_id`. No reduce, no dtype.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SendRecv {
    /// HEADER (opcode 0xCB).
    pub header: Header,
    /// EVENTS: the inline completion semaphore.
    pub events: Events,
    /// Local buffer (tensor) id.
    pub tensor_id: u32,
    /// Remote rank.
    pub peer_id: u64,
    /// Non-zero ⇒ SEND (ENC_SEND, TX); zero ⇒ RECV (ENC_RECV, RX).
    pub is_send: u8,
    /// Byte offset into the local tensor.
    pub offset_bytes: u64,
    /// Bytes to move.
    pub size_bytes: u64,
}

impl Default for SendRecv {
    fn default() -> Self {
        Self {
            header: Header::new(OPCODE_SENDRECV),
            events: Events::default(),
            tensor_id: 0,
            peer_id: 0,
            is_send: 0,
            offset_bytes: 0,
            size_bytes: 0,
        }
    }
}

impl SendRecv {
    /// Kind name used in messages.
    pub const KIND_NAME: &'static str = "SENDRECV";

    /// Every field, in layout order (tiles bytes 0..64).
    pub const LAYOUT: &'static [FieldDesc] = layout_with_prefix![
        TENSOR_ID,
        PEER_ID,
        IS_SEND,
        RESERVED0,
        OFFSET_BYTES,
        SIZE_BYTES
    ];

    /// Names settable by [`crate::isa::Word::set_field`] (besides the prefix).
    pub const SETTABLE: &'static [&'static str] = &[
        "tensor_id",
        "peer_id",
        "is_send",
        "offset_bytes",
        "size_bytes",
    ];

    /// The host op-kind this word lowers to (seed 000 §3).
    pub const fn enc_op_type(&self) -> EncOpType {
        EncOpType::from_is_send(self.is_send)
    }

    /// True for the SEND (TX) leg.
    pub const fn is_send(&self) -> bool {
        self.is_send != 0
    }

    /// Decode and check a word (opcode, events codes, reserved bytes).
    pub fn decode(w: &RawWord) -> Result<Self, IsaError> {
        let header = Header::decode_expect(w, Self::KIND_NAME, OPCODE_SENDRECV)?;
        let events = Events::decode(w)?;
        RESERVED0.check_zero(w)?;
        Ok(Self {
            header,
            events,
            tensor_id: TENSOR_ID.read(w) as u32,
            peer_id: PEER_ID.read(w),
            is_send: IS_SEND.read(w) as u8,
            offset_bytes: OFFSET_BYTES.read(w),
            size_bytes: SIZE_BYTES.read(w),
        })
    }

    /// Encode to the 64-byte word (reserved bytes zero).
    pub fn encode(&self) -> RawWord {
        let mut w = [0u8; WORD_BYTES];
        self.header.encode_into(&mut w);
        self.events.encode_into(&mut w);
        TENSOR_ID.write(&mut w, self.tensor_id.into());
        PEER_ID.write(&mut w, self.peer_id);
        IS_SEND.write(&mut w, self.is_send.into());
        OFFSET_BYTES.write(&mut w, self.offset_bytes);
        SIZE_BYTES.write(&mut w, self.size_bytes);
        w
    }

    /// The seed ships no SENDRECV field validator; only the opcode is checked.
    pub fn validate(&self, _arch: Arch) -> Result<(), IsaError> {
        self.header.expect_opcode(Self::KIND_NAME, OPCODE_SENDRECV)
    }

    pub(crate) fn set_field(&mut self, name: &str, text: &str) -> Result<(), IsaError> {
        if set_prefix_field(&mut self.header, &mut self.events, name, text)? {
            return Ok(());
        }
        match name {
            "tensor_id" => self.tensor_id = TENSOR_ID.parse_value(text)? as u32,
            "peer_id" => self.peer_id = PEER_ID.parse_value(text)?,
            "is_send" => self.is_send = IS_SEND.parse_value(text)? as u8,
            "offset_bytes" => self.offset_bytes = OFFSET_BYTES.parse_value(text)?,
            "size_bytes" => self.size_bytes = SIZE_BYTES.parse_value(text)?,
            _ => {
                return Err(super::unknown_field(
                    name,
                    Self::KIND_NAME,
                    &[PREFIX_SETTABLE, Self::SETTABLE],
                ))
            }
        }
        Ok(())
    }

    pub(crate) fn describe(&self, name: &str) -> Option<String> {
        match name {
            "is_send" => Some(format!(
                "{} leg, {}",
                if self.is_send() {
                    "SEND (TX)"
                } else {
                    "RECV (RX)"
                },
                self.enc_op_type()
            )),
            _ => None,
        }
    }
}
