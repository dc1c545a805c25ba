//! HEADER (bytes 0..3) and EVENTS (bytes 4..11), the common prefix of every
//! TPB instruction word (seed 000 §2, seed 002 §3).

use serde::{Deserialize, Serialize};

use super::error::IsaError;
use super::field::{code_enum, FieldDesc, RawWord};

/// `header.opcode` (1 byte, packed enum).
pub const OPCODE: FieldDesc = FieldDesc::new("opcode", 0, 1);
/// `header.inst_word_len`.
pub const INST_WORD_LEN: FieldDesc = FieldDesc::new("inst_word_len", 1, 1);
/// `header.debug_cmd`.
pub const DEBUG_CMD: FieldDesc = FieldDesc::new("debug_cmd", 2, 1);
/// `header.debug_hint`.
pub const DEBUG_HINT: FieldDesc = FieldDesc::new("debug_hint", 3, 1);
/// `events.wait_mode` (1 byte, packed enum).
pub const WAIT_MODE: FieldDesc = FieldDesc::new("wait_mode", 4, 1);
/// `events.wait_idx`: which of the 256 semaphores to wait on.
pub const WAIT_IDX: FieldDesc = FieldDesc::new("wait_idx", 5, 1);
/// `events.update_mode` (1 byte, packed enum).
pub const UPDATE_MODE: FieldDesc = FieldDesc::new("update_mode", 6, 1);
/// `events.update_idx`: which semaphore to update.
pub const UPDATE_IDX: FieldDesc = FieldDesc::new("update_idx", 7, 1);
/// `events.semaphore_value`: the wait/update immediate.
pub const SEMAPHORE_VALUE: FieldDesc = FieldDesc::new("semaphore_value", 8, 4);

/// Size of HEADER in bytes.
pub const HEADER_BYTES: usize = 4;
/// Size of EVENTS in bytes.
pub const EVENTS_BYTES: usize = 8;
/// Offset of EVENTS.
pub const EVENTS_OFFSET: usize = 4;

/// The nine prefix fields, in layout order.
pub const PREFIX: [FieldDesc; 9] = [
    OPCODE,
    INST_WORD_LEN,
    DEBUG_CMD,
    DEBUG_HINT,
    WAIT_MODE,
    WAIT_IDX,
    UPDATE_MODE,
    UPDATE_IDX,
    SEMAPHORE_VALUE,
];

/// inst_word_len written by this project's builders (project-defined: the word
/// length in bytes). Decoding accepts any value and round-trips it.
pub const INST_WORD_LEN_DEFAULT: u8 = 64;

/// Build a `&'static [FieldDesc]` layout: the HEADER/EVENTS prefix, then the fields given.
macro_rules! layout_with_prefix {
    ( $( $f:expr ),* $(,)? ) => {
        &[
            $crate::isa::header::OPCODE,
            $crate::isa::header::INST_WORD_LEN,
            $crate::isa::header::DEBUG_CMD,
            $crate::isa::header::DEBUG_HINT,
            $crate::isa::header::WAIT_MODE,
            $crate::isa::header::WAIT_IDX,
            $crate::isa::header::UPDATE_MODE,
            $crate::isa::header::UPDATE_IDX,
            $crate::isa::header::SEMAPHORE_VALUE,
            $( $f ),*
        ]
    };
}
pub(crate) use layout_with_prefix;

/// NEURON_ISA_TPB_HEADER (4 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// Opcode byte.
    pub opcode: u8,
    /// Instruction word length.
    pub inst_word_len: u8,
    /// Debug command.
    pub debug_cmd: u8,
    /// Debug hint.
    pub debug_hint: u8,
}

impl Header {
    /// A header with this opcode, `inst_word_len` = [`INST_WORD_LEN_DEFAULT`], no debug.
    pub const fn new(opcode: u8) -> Self {
        Self {
            opcode,
            inst_word_len: INST_WORD_LEN_DEFAULT,
            debug_cmd: 0,
            debug_hint: 0,
        }
    }

    /// Read the header bytes (never fails: every byte value is accepted).
    pub fn decode(w: &RawWord) -> Self {
        Self {
            opcode: OPCODE.read(w) as u8,
            inst_word_len: INST_WORD_LEN.read(w) as u8,
            debug_cmd: DEBUG_CMD.read(w) as u8,
            debug_hint: DEBUG_HINT.read(w) as u8,
        }
    }

    /// Read the header and require `expected` as opcode.
    pub fn decode_expect(w: &RawWord, kind: &'static str, expected: u8) -> Result<Self, IsaError> {
        let h = Self::decode(w);
        h.expect_opcode(kind, expected)?;
        Ok(h)
    }

    /// Require `expected` as opcode.
    pub fn expect_opcode(&self, kind: &'static str, expected: u8) -> Result<(), IsaError> {
        if self.opcode == expected {
            Ok(())
        } else {
            Err(IsaError::WrongOpcode {
                kind,
                expected,
                found: self.opcode,
            })
        }
    }

    /// Write the header bytes.
    pub fn encode_into(&self, w: &mut RawWord) {
        OPCODE.write(w, self.opcode.into());
        INST_WORD_LEN.write(w, self.inst_word_len.into());
        DEBUG_CMD.write(w, self.debug_cmd.into());
        DEBUG_HINT.write(w, self.debug_hint.into());
    }
}

code_enum! {
    /// NEURON_ISA_TPB_WAIT_MODE (seed 002 §3): the predicate waited on before issue.
    /// Codes 0..7 are seed values; the `_REG` variants 0x81..0x85 follow the
    /// `_IMM` order EQ, LT, LE, GT, GE (project-defined ordering, see docs/decisions.md).
    pub enum WaitMode: u8 {
        /// No wait.
        None = 0x00 => "NONE",
        /// Wait until semaphore == immediate.
        SemEqImm = 0x01 => "SEM_EQ_IMM",
        /// Wait until semaphore < immediate.
        SemLtImm = 0x02 => "SEM_LT_IMM",
        /// Wait until semaphore <= immediate.
        SemLeImm = 0x03 => "SEM_LE_IMM",
        /// Wait until semaphore > immediate.
        SemGtImm = 0x04 => "SEM_GT_IMM",
        /// Wait until semaphore >= immediate.
        SemGeImm = 0x05 => "SEM_GE_IMM",
        /// Wait until the event is set.
        EvtSet = 0x06 => "EVT_SET",
        /// Wait until the event is set, then clear it.
        EvtSetThenClear = 0x07 => "EVT_SET_THEN_CLEAR",
        /// Wait until semaphore == register.
        SemEqReg = 0x81 => "SEM_EQ_REG",
        /// Wait until semaphore < register.
        SemLtReg = 0x82 => "SEM_LT_REG",
        /// Wait until semaphore <= register.
        SemLeReg = 0x83 => "SEM_LE_REG",
        /// Wait until semaphore > register.
        SemGtReg = 0x84 => "SEM_GT_REG",
        /// Wait until semaphore >= register.
        SemGeReg = 0x85 => "SEM_GE_REG",
    }
}

code_enum! {
    /// NEURON_ISA_TPB_UPDATE_MODE: how the completion semaphore is updated.
    /// The seed names the operations (SEM_INC/DEC/ADD/SUB/WR on read- or
    /// complete-timing) but not the codes; the codes are project-defined:
    /// low nibble = operation (1 INC, 2 DEC, 3 ADD, 4 SUB, 5 WR), bit 4 = timing
    /// (0 on read, 1 on complete).
    pub enum UpdateMode: u8 {
        /// No update.
        None = 0x00 => "NONE",
        /// Increment by one when the instruction's operands are read.
        SemIncOnRead = 0x01 => "SEM_INC_ON_READ",
        /// Decrement by one on read.
        SemDecOnRead = 0x02 => "SEM_DEC_ON_READ",
        /// Add semaphore_value on read.
        SemAddOnRead = 0x03 => "SEM_ADD_ON_READ",
        /// Subtract semaphore_value on read.
        SemSubOnRead = 0x04 => "SEM_SUB_ON_READ",
        /// Write semaphore_value on read.
        SemWrOnRead = 0x05 => "SEM_WR_ON_READ",
        /// Increment by one when the instruction completes.
        SemIncOnComplete = 0x11 => "SEM_INC_ON_COMPLETE",
        /// Decrement by one on completion.
        SemDecOnComplete = 0x12 => "SEM_DEC_ON_COMPLETE",
        /// Add semaphore_value on completion.
        SemAddOnComplete = 0x13 => "SEM_ADD_ON_COMPLETE",
        /// Subtract semaphore_value on completion.
        SemSubOnComplete = 0x14 => "SEM_SUB_ON_COMPLETE",
        /// Write semaphore_value on completion.
        SemWrOnComplete = 0x15 => "SEM_WR_ON_COMPLETE",
    }
}

/// NEURON_ISA_TPB_EVENTS (8 bytes): the inline wait/update semaphore pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Events {
    /// Predicate waited on before issue.
    pub wait_mode: WaitMode,
    /// Semaphore (0..255) waited on.
    pub wait_idx: u8,
    /// How the completion semaphore is updated.
    pub update_mode: UpdateMode,
    /// Semaphore (0..255) updated.
    pub update_idx: u8,
    /// Wait/update immediate.
    pub semaphore_value: u32,
}

impl Default for Events {
    fn default() -> Self {
        Self {
            wait_mode: WaitMode::None,
            wait_idx: 0,
            update_mode: UpdateMode::None,
            update_idx: 0,
            semaphore_value: 0,
        }
    }
}

impl Events {
    /// Read the EVENTS bytes; unknown wait/update codes are errors.
    pub fn decode(w: &RawWord) -> Result<Self, IsaError> {
        let wm = WAIT_MODE.read(w) as u8;
        let wait_mode = WaitMode::from_code(wm).ok_or(IsaError::UnknownCode {
            field: WAIT_MODE.name,
            offset: WAIT_MODE.offset,
            enum_name: "WAIT_MODE",
            value: wm.into(),
        })?;
        let um = UPDATE_MODE.read(w) as u8;
        let update_mode = UpdateMode::from_code(um).ok_or(IsaError::UnknownCode {
            field: UPDATE_MODE.name,
            offset: UPDATE_MODE.offset,
            enum_name: "UPDATE_MODE",
            value: um.into(),
        })?;
        Ok(Self {
            wait_mode,
            wait_idx: WAIT_IDX.read(w) as u8,
            update_mode,
            update_idx: UPDATE_IDX.read(w) as u8,
            semaphore_value: SEMAPHORE_VALUE.read(w) as u32,
        })
    }

    /// Write the EVENTS bytes.
    pub fn encode_into(&self, w: &mut RawWord) {
        WAIT_MODE.write(w, self.wait_mode.code().into());
        WAIT_IDX.write(w, self.wait_idx.into());
        UPDATE_MODE.write(w, self.update_mode.code().into());
        UPDATE_IDX.write(w, self.update_idx.into());
        SEMAPHORE_VALUE.write(w, self.semaphore_value.into());
    }
}

/// Set a HEADER/EVENTS field by name from text (used by the builders).
/// Returns `Ok(false)` when `name` is not a prefix field. The opcode is fixed
/// by the word kind and cannot be set.
pub(crate) fn set_prefix_field(
    h: &mut Header,
    e: &mut Events,
    name: &str,
    text: &str,
) -> Result<bool, IsaError> {
    match name {
        "inst_word_len" => h.inst_word_len = INST_WORD_LEN.parse_value(text)? as u8,
        "debug_cmd" => h.debug_cmd = DEBUG_CMD.parse_value(text)? as u8,
        "debug_hint" => h.debug_hint = DEBUG_HINT.parse_value(text)? as u8,
        "wait_mode" => {
            e.wait_mode = text.parse().map_err(|_| IsaError::BadValue {
                field: WAIT_MODE.name,
                text: text.into(),
            })?
        }
        "wait_idx" => e.wait_idx = WAIT_IDX.parse_value(text)? as u8,
        "update_mode" => {
            e.update_mode = text.parse().map_err(|_| IsaError::BadValue {
                field: UPDATE_MODE.name,
                text: text.into(),
            })?
        }
        "update_idx" => e.update_idx = UPDATE_IDX.parse_value(text)? as u8,
        "semaphore_value" => e.semaphore_value = SEMAPHORE_VALUE.parse_value(text)? as u32,
        _ => return Ok(false),
    }
    Ok(true)
}

/// Names settable through [`set_prefix_field`].
pub(crate) const PREFIX_SETTABLE: &[&str] = &[
    "inst_word_len",
    "debug_cmd",
    "debug_hint",
    "wait_mode",
    "wait_idx",
    "update_mode",
    "update_idx",
    "semaphore_value",
];
