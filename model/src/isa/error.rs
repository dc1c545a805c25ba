//! Typed decode/validate/build errors. Each names the field, its byte offset
//! and the rule it breaks.

use super::arch::Arch;

/// An instruction word (or a field value given to a builder) breaks a rule.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IsaError {
    /// Byte 0 holds no opcode this project decodes.
    #[error("field `opcode` at byte 0: 0x{found:02x} is not a decodable opcode (0xcb SENDRECV, 0xdb CUR_PROCESSING_RANK_ID, 0xdc GID_LOAD, 0x{extended:02x} extended RDMA)")]
    UnknownOpcode {
        /// The opcode byte found.
        found: u8,
        /// The project-defined extended-instruction opcode.
        extended: u8,
    },
    /// Byte 0 holds a different opcode than the struct being decoded.
    #[error("field `opcode` at byte 0: {kind} needs opcode 0x{expected:02x}, found 0x{found:02x}")]
    WrongOpcode {
        /// The word kind being decoded.
        kind: &'static str,
        /// Its opcode.
        expected: u8,
        /// The opcode byte found.
        found: u8,
    },
    /// A reserved byte is not zero.
    #[error("field `{field}` at byte {offset}: reserved byte must be zero, found 0x{value:02x}")]
    ReservedNotZero {
        /// Reserved field name.
        field: &'static str,
        /// Offset of the first non-zero byte.
        offset: usize,
        /// Its value.
        value: u8,
    },
    /// An enumerated field holds an unknown code.
    #[error("field `{field}` at byte {offset}: 0x{value:02x} is not a known {enum_name} code")]
    UnknownCode {
        /// Field name.
        field: &'static str,
        /// Byte offset.
        offset: usize,
        /// The enumeration.
        enum_name: &'static str,
        /// The code found.
        value: u64,
    },
    /// A destination register is not writable on the target arch (seed 002 §7.2).
    #[error("field `{field}` at byte {offset}: register {regnum} is not writable on {arch} (needs regnum < NUM_REGISTERS = {num_registers}, or 130 DGE_TABLE_LO / 131 DGE_TABLE_HI)")]
    RegisterNotWritable {
        /// Field name.
        field: &'static str,
        /// Byte offset.
        offset: usize,
        /// The register number.
        regnum: u8,
        /// Target architecture.
        arch: Arch,
        /// NUM_REGISTERS of that arch.
        num_registers: u16,
    },
    /// A field value breaks a range or consistency rule.
    #[error("field `{field}` at byte {offset}: value {value:#x} breaks the rule: {rule}")]
    RuleBroken {
        /// Field name.
        field: &'static str,
        /// Byte offset.
        offset: usize,
        /// The value found.
        value: u64,
        /// The rule, in words.
        rule: &'static str,
    },
    /// A builder was given a field name this word kind does not have.
    #[error("field `{field}`: {kind} has no settable field of that name (settable: {settable})")]
    UnknownField {
        /// The name given.
        field: String,
        /// The word kind.
        kind: &'static str,
        /// The settable names.
        settable: String,
    },
    /// A builder was given a value that is not a number (or enum name).
    #[error("field `{field}`: cannot parse {text:?} as a value for this field")]
    BadValue {
        /// Field name.
        field: &'static str,
        /// The text given.
        text: String,
    },
    /// A builder was given a value wider than the field.
    #[error("field `{field}` at byte {offset}: value {value:#x} does not fit in {bits} bits")]
    ValueTooWide {
        /// Field name.
        field: &'static str,
        /// Byte offset.
        offset: usize,
        /// Field width in bits.
        bits: u32,
        /// The value given.
        value: u64,
    },
}

impl IsaError {
    /// Name of the field the error is about.
    pub fn field(&self) -> &str {
        match self {
            IsaError::UnknownOpcode { .. } | IsaError::WrongOpcode { .. } => "opcode",
            IsaError::ReservedNotZero { field, .. }
            | IsaError::UnknownCode { field, .. }
            | IsaError::RegisterNotWritable { field, .. }
            | IsaError::RuleBroken { field, .. }
            | IsaError::BadValue { field, .. }
            | IsaError::ValueTooWide { field, .. } => field,
            IsaError::UnknownField { field, .. } => field,
        }
    }

    /// Byte offset the error is about, when it concerns a place in a word.
    pub fn offset(&self) -> Option<usize> {
        match self {
            IsaError::UnknownOpcode { .. } | IsaError::WrongOpcode { .. } => Some(0),
            IsaError::ReservedNotZero { offset, .. }
            | IsaError::UnknownCode { offset, .. }
            | IsaError::RegisterNotWritable { offset, .. }
            | IsaError::RuleBroken { offset, .. }
            | IsaError::ValueTooWide { offset, .. } => Some(*offset),
            IsaError::UnknownField { .. } | IsaError::BadValue { .. } => None,
        }
    }
}
