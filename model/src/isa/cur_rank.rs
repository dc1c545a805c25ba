//! PseudoCurProcessingRankID, opcode 0xDB (seed 002 §1–6).
//!
//! The seed ships NO static validator for this word (seed 002 §1 QUIRK):
//! decoding checks only the opcode, the EVENTS codes and the reserved bytes.
//! Field values (dst_reg in range, iteration_id < ranks, …) are the runtime's
//! business; [`crate::isa::Arch::is_valid_register_write`] is there for it.

use serde::{Deserialize, Serialize};

use super::arch::Arch;
use super::error::IsaError;
use super::field::{FieldDesc, RawWord, WORD_BYTES};
use super::header::{layout_with_prefix, set_prefix_field, Events, Header, PREFIX_SETTABLE};

/// NEURON_ISA_TPB_OPCODE_PSEUDO_CUR_PROCESSING_RANK_ID.
pub const OPCODE_CUR_PROCESSING_RANK_ID: u8 = 0xDB;

/// `group_id` u16: replica group index.
pub const GROUP_ID: FieldDesc = FieldDesc::new("group_id", 12, 2);
/// `channel_id` u16: ring index (0/1 with two rings).
pub const CHANNEL_ID: FieldDesc = FieldDesc::new("channel_id", 14, 2);
/// `iteration_id` u16: the step.
pub const ITERATION_ID: FieldDesc = FieldDesc::new("iteration_id", 16, 2);
/// `dst_reg` u8 (NEURON_ISA_TPB_REG_NUM): the register that receives the peer rank.
pub const DST_REG: FieldDesc = FieldDesc::new("dst_reg", 18, 1);
/// `reserved0`.
pub const RESERVED0: FieldDesc = FieldDesc::reserved("reserved0", 19, 1);
/// `stream_id` u16: the CC stream.
pub const STREAM_ID: FieldDesc = FieldDesc::new("stream_id", 20, 2);
/// `reserved1[42]`.
pub const RESERVED1: FieldDesc = FieldDesc::reserved("reserved1", 22, 42);

/// The 0xDB word: at runtime, `engine_reg[dst_reg] = peer rank of (group_id,
/// channel_id, iteration_id)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CurProcessingRankId {
    /// HEADER (opcode 0xDB).
    pub header: Header,
    /// EVENTS.
    pub events: Events,
    /// Replica group index.
    pub group_id: u16,
    /// Ring index.
    pub channel_id: u16,
    /// Iteration (step) index.
    pub iteration_id: u16,
    /// Destination engine register number (a slot, never the rank value).
    pub dst_reg: u8,
    /// CC stream selector.
    pub stream_id: u16,
}

impl Default for CurProcessingRankId {
    fn default() -> Self {
        Self {
            header: Header::new(OPCODE_CUR_PROCESSING_RANK_ID),
            events: Events::default(),
            group_id: 0,
            channel_id: 0,
            iteration_id: 0,
            dst_reg: 0,
            stream_id: 0,
        }
    }
}

impl CurProcessingRankId {
    /// Kind name used in messages.
    pub const KIND_NAME: &'static str = "CUR_PROCESSING_RANK_ID";

    /// Every field, in layout order (tiles bytes 0..64).
    pub const LAYOUT: &'static [FieldDesc] = layout_with_prefix![
        GROUP_ID,
        CHANNEL_ID,
        ITERATION_ID,
        DST_REG,
        RESERVED0,
        STREAM_ID,
        RESERVED1
    ];

    /// Names settable by [`crate::isa::Word::set_field`] (besides the prefix).
    pub const SETTABLE: &'static [&'static str] = &[
        "group_id",
        "channel_id",
        "iteration_id",
        "dst_reg",
        "stream_id",
    ];

    /// Decode and check a word (opcode, events codes, reserved bytes only).
    pub fn decode(w: &RawWord) -> Result<Self, IsaError> {
        let header = Header::decode_expect(w, Self::KIND_NAME, OPCODE_CUR_PROCESSING_RANK_ID)?;
        let events = Events::decode(w)?;
        RESERVED0.check_zero(w)?;
        RESERVED1.check_zero(w)?;
        Ok(Self {
            header,
            events,
            group_id: GROUP_ID.read(w) as u16,
            channel_id: CHANNEL_ID.read(w) as u16,
            iteration_id: ITERATION_ID.read(w) as u16,
            dst_reg: DST_REG.read(w) as u8,
            stream_id: STREAM_ID.read(w) as u16,
        })
    }

    /// Encode to the 64-byte word (reserved bytes zero).
    pub fn encode(&self) -> RawWord {
        let mut w = [0u8; WORD_BYTES];
        self.header.encode_into(&mut w);
        self.events.encode_into(&mut w);
        GROUP_ID.write(&mut w, self.group_id.into());
        CHANNEL_ID.write(&mut w, self.channel_id.into());
        ITERATION_ID.write(&mut w, self.iteration_id.into());
        DST_REG.write(&mut w, self.dst_reg.into());
        STREAM_ID.write(&mut w, self.stream_id.into());
        w
    }

    /// No static validator exists for 0xDB (seed 002 §1): only the opcode is
    /// checked; `dst_reg` is deliberately not range-checked here.
    pub fn validate(&self, _arch: Arch) -> Result<(), IsaError> {
        self.header
            .expect_opcode(Self::KIND_NAME, OPCODE_CUR_PROCESSING_RANK_ID)
    }

    pub(crate) fn set_field(&mut self, name: &str, text: &str) -> Result<(), IsaError> {
        if set_prefix_field(&mut self.header, &mut self.events, name, text)? {
            return Ok(());
        }
        match name {
            "group_id" => self.group_id = GROUP_ID.parse_value(text)? as u16,
            "channel_id" => self.channel_id = CHANNEL_ID.parse_value(text)? as u16,
            "iteration_id" => self.iteration_id = ITERATION_ID.parse_value(text)? as u16,
            "dst_reg" => self.dst_reg = DST_REG.parse_value(text)? as u8,
            "stream_id" => self.stream_id = STREAM_ID.parse_value(text)? as u16,
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
}
