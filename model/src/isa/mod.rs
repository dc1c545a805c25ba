//! The 64-byte little-endian instruction words (seeds 000, 002; seed 001 §1).
//!
//! - [`SendRecv`] 0xCB, [`CurProcessingRankId`] 0xDB, [`GidLoad`] 0xDC: pseudo-ops
//!   (opcode bits `[7:5]` = 0b110, [`is_pseudo_op`]), lowered by the host.
//! - [`RdmaDescGen`] / [`RdmaDescStart`]: extended ops 8 / 9 under the
//!   project-defined opcode [`OPCODE_EXTENDED`], sub-op at byte 12.
//!
//! [`decode`] never panics: a malformed word gives an [`IsaError`] naming the
//! field, its byte offset and the rule broken. `decode(w.encode()) == w` for
//! every valid [`Word`], and `decode(b)?.encode() == b` byte for byte.
//! Field positions live in one place: the [`FieldDesc`] constants of each module.

pub mod arch;
pub mod cur_rank;
pub mod enc_op;
pub mod error;
pub mod field;
pub mod gid_load;
pub mod header;
pub mod rdma;
pub mod sendrecv;

use serde::{Deserialize, Serialize};

pub use arch::{Arch, UnknownArch};
pub use cur_rank::{CurProcessingRankId, OPCODE_CUR_PROCESSING_RANK_ID};
pub use enc_op::EncOpType;
pub use error::IsaError;
pub use field::{FieldDesc, RawWord, WORD_BYTES};
pub use gid_load::{GidDst, GidLoad, GidTarget, OPCODE_GID_LOAD};
pub use header::{Events, Header, UpdateMode, WaitMode};
pub use rdma::{
    RdmaDescGen, RdmaDescStart, Role, EXT_OP_RDMA_DESC_GEN, EXT_OP_RDMA_DESC_START, OPCODE_EXTENDED,
};
pub use sendrecv::{SendRecv, OPCODE_SENDRECV};

/// Mask of the pseudo-op class bits, opcode `[7:5]`.
pub const PSEUDO_OP_MASK: u8 = 0xE0;
/// Value of opcode `[7:5]` for pseudo-ops: 0b110 (seed 000 §1, seed 002 intro).
pub const PSEUDO_OP_CLASS: u8 = 0xC0;

/// "All pseudo instructions have upper three bits of the opcode equal to 0b110"
/// (aws_neuron_isa_tpb_common.h, quoted in seed 000 §1).
pub const fn is_pseudo_op(opcode: u8) -> bool {
    opcode & PSEUDO_OP_MASK == PSEUDO_OP_CLASS
}

/// The members of the ISA's `is_control_instruction` set the seeds name:
/// 0xDB (instr_assert.h:1181) and 0xDC (instr_assert.h:1182), seed 002 §4 —
/// the set the host lowers both pseudo-ops into ("lowered to TLD control
/// instruction"). The seeds do not list the set's other members, so this model
/// answers `false` for every other opcode (project reading, docs/decisions.md).
pub const CONTROL_INSTRUCTION_OPCODES: [u8; 2] = [0xDB, 0xDC];

/// `is_control_instruction(opcode)` over the members the seeds name
/// ([`CONTROL_INSTRUCTION_OPCODES`]).
pub const fn is_control_instruction(opcode: u8) -> bool {
    opcode == CONTROL_INSTRUCTION_OPCODES[0] || opcode == CONTROL_INSTRUCTION_OPCODES[1]
}

/// The classification sets of seed 002 §1/§4 an opcode falls in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct OpcodeClass {
    /// `is_pseudo_op`: opcode `[7:5]` = 0b110 (compiler-emitted, lowered by NRT).
    pub pseudo_op: bool,
    /// `is_control_instruction` (the seed-named members).
    pub control_instruction: bool,
}

/// The classification sets `opcode` belongs to.
pub const fn classify_opcode(opcode: u8) -> OpcodeClass {
    OpcodeClass {
        pseudo_op: is_pseudo_op(opcode),
        control_instruction: is_control_instruction(opcode),
    }
}

/// The five word kinds this project encodes and decodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Kind {
    /// SENDRECV 0xCB.
    #[serde(rename = "sendrecv")]
    SendRecv,
    /// CUR_PROCESSING_RANK_ID 0xDB.
    #[serde(rename = "cur-rank")]
    CurRank,
    /// GID_LOAD 0xDC.
    #[serde(rename = "gid-load")]
    GidLoad,
    /// RDMA_DESC_GEN (extended op 8).
    #[serde(rename = "rdma-gen")]
    RdmaGen,
    /// RDMA_DESC_START (extended op 9).
    #[serde(rename = "rdma-start")]
    RdmaStart,
}

impl Kind {
    /// All kinds.
    pub const ALL: [Kind; 5] = [
        Kind::SendRecv,
        Kind::CurRank,
        Kind::GidLoad,
        Kind::RdmaGen,
        Kind::RdmaStart,
    ];

    /// Command-line name (`sendrecv`, `cur-rank`, `gid-load`, `rdma-gen`, `rdma-start`).
    pub const fn cli_name(self) -> &'static str {
        match self {
            Kind::SendRecv => "sendrecv",
            Kind::CurRank => "cur-rank",
            Kind::GidLoad => "gid-load",
            Kind::RdmaGen => "rdma-gen",
            Kind::RdmaStart => "rdma-start",
        }
    }

    /// The seed's name (`SENDRECV`, ...).
    pub const fn seed_name(self) -> &'static str {
        match self {
            Kind::SendRecv => SendRecv::KIND_NAME,
            Kind::CurRank => CurProcessingRankId::KIND_NAME,
            Kind::GidLoad => GidLoad::KIND_NAME,
            Kind::RdmaGen => RdmaDescGen::KIND_NAME,
            Kind::RdmaStart => RdmaDescStart::KIND_NAME,
        }
    }

    /// Opcode byte.
    pub const fn opcode(self) -> u8 {
        match self {
            Kind::SendRecv => OPCODE_SENDRECV,
            Kind::CurRank => OPCODE_CUR_PROCESSING_RANK_ID,
            Kind::GidLoad => OPCODE_GID_LOAD,
            Kind::RdmaGen | Kind::RdmaStart => OPCODE_EXTENDED,
        }
    }
}

impl core::fmt::Display for Kind {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.cli_name())
    }
}

/// The text given is not a word kind.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown instruction kind {0:?} (expected sendrecv, cur-rank, gid-load, rdma-gen or rdma-start)")]
pub struct UnknownKind(pub String);

impl core::str::FromStr for Kind {
    type Err = UnknownKind;
    /// Accepts the command-line name, `_` for `-`, or the seed name, any case.
    fn from_str(s: &str) -> Result<Self, UnknownKind> {
        let t = s.trim().to_ascii_lowercase().replace('_', "-");
        Kind::ALL
            .into_iter()
            .find(|k| {
                k.cli_name() == t || k.seed_name().to_ascii_lowercase().replace('_', "-") == t
            })
            .ok_or_else(|| UnknownKind(s.to_string()))
    }
}

/// One decoded instruction word. Serialises with a `kind` tag and the seed field names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind")]
pub enum Word {
    /// SENDRECV 0xCB.
    #[serde(rename = "sendrecv")]
    SendRecv(SendRecv),
    /// CUR_PROCESSING_RANK_ID 0xDB.
    #[serde(rename = "cur-rank")]
    CurProcessingRankId(CurProcessingRankId),
    /// GID_LOAD 0xDC.
    #[serde(rename = "gid-load")]
    GidLoad(GidLoad),
    /// RDMA_DESC_GEN (extended op 8).
    #[serde(rename = "rdma-gen")]
    RdmaDescGen(RdmaDescGen),
    /// RDMA_DESC_START (extended op 9).
    #[serde(rename = "rdma-start")]
    RdmaDescStart(RdmaDescStart),
}

/// Decode one 64-byte word for `arch`: dispatch on the opcode (and the
/// extended sub-op), check codes and reserved bytes, and run the validator
/// where one exists (GID_LOAD: seed 002 §7.2; RDMA ops: project-defined rules).
pub fn decode(w: &RawWord, arch: Arch) -> Result<Word, IsaError> {
    match w[header::OPCODE.offset] {
        OPCODE_SENDRECV => SendRecv::decode(w).map(Word::SendRecv),
        OPCODE_CUR_PROCESSING_RANK_ID => {
            CurProcessingRankId::decode(w).map(Word::CurProcessingRankId)
        }
        OPCODE_GID_LOAD => GidLoad::decode(w, arch).map(Word::GidLoad),
        OPCODE_EXTENDED => match rdma::EXT_OP.read(w) as u8 {
            EXT_OP_RDMA_DESC_GEN => RdmaDescGen::decode(w, arch).map(Word::RdmaDescGen),
            EXT_OP_RDMA_DESC_START => RdmaDescStart::decode(w, arch).map(Word::RdmaDescStart),
            op => Err(IsaError::UnknownCode {
                field: rdma::EXT_OP.name,
                offset: rdma::EXT_OP.offset,
                enum_name: "extended sub-op (8 RDMA_DESC_GEN, 9 RDMA_DESC_START)",
                value: op.into(),
            }),
        },
        found => Err(IsaError::UnknownOpcode {
            found,
            extended: OPCODE_EXTENDED,
        }),
    }
}

impl Word {
    /// A default word of this kind (all payload zero except where a valid
    /// word needs otherwise; see each struct's `Default`).
    pub fn new(kind: Kind) -> Word {
        match kind {
            Kind::SendRecv => Word::SendRecv(SendRecv::default()),
            Kind::CurRank => Word::CurProcessingRankId(CurProcessingRankId::default()),
            Kind::GidLoad => Word::GidLoad(GidLoad::default()),
            Kind::RdmaGen => Word::RdmaDescGen(RdmaDescGen::default()),
            Kind::RdmaStart => Word::RdmaDescStart(RdmaDescStart::default()),
        }
    }

    /// Build a word of `kind` from `(name, value)` pairs applied in order
    /// (seed field names; numbers in decimal/0x/0b; enum fields also by name),
    /// then validate it for `arch`.
    pub fn from_fields<'a>(
        kind: Kind,
        fields: impl IntoIterator<Item = (&'a str, &'a str)>,
        arch: Arch,
    ) -> Result<Word, IsaError> {
        let mut w = Word::new(kind);
        for (name, value) in fields {
            w.set_field(name, value)?;
        }
        w.validate(arch)?;
        Ok(w)
    }

    /// Set one field by its seed name from text. The opcode (and the
    /// extended sub-op) are fixed by the kind.
    pub fn set_field(&mut self, name: &str, text: &str) -> Result<(), IsaError> {
        match self {
            Word::SendRecv(x) => x.set_field(name, text),
            Word::CurProcessingRankId(x) => x.set_field(name, text),
            Word::GidLoad(x) => x.set_field(name, text),
            Word::RdmaDescGen(x) => x.set_field(name, text),
            Word::RdmaDescStart(x) => x.set_field(name, text),
        }
    }

    /// The kind of this word.
    pub const fn kind(&self) -> Kind {
        match self {
            Word::SendRecv(_) => Kind::SendRecv,
            Word::CurProcessingRankId(_) => Kind::CurRank,
            Word::GidLoad(_) => Kind::GidLoad,
            Word::RdmaDescGen(_) => Kind::RdmaGen,
            Word::RdmaDescStart(_) => Kind::RdmaStart,
        }
    }

    /// The common HEADER.
    pub const fn header(&self) -> &Header {
        match self {
            Word::SendRecv(x) => &x.header,
            Word::CurProcessingRankId(x) => &x.header,
            Word::GidLoad(x) => &x.header,
            Word::RdmaDescGen(x) => &x.header,
            Word::RdmaDescStart(x) => &x.header,
        }
    }

    /// The common EVENTS.
    pub const fn events(&self) -> &Events {
        match self {
            Word::SendRecv(x) => &x.events,
            Word::CurProcessingRankId(x) => &x.events,
            Word::GidLoad(x) => &x.events,
            Word::RdmaDescGen(x) => &x.events,
            Word::RdmaDescStart(x) => &x.events,
        }
    }

    /// Encode to 64 bytes, little-endian, reserved bytes zero.
    pub fn encode(&self) -> RawWord {
        match self {
            Word::SendRecv(x) => x.encode(),
            Word::CurProcessingRankId(x) => x.encode(),
            Word::GidLoad(x) => x.encode(),
            Word::RdmaDescGen(x) => x.encode(),
            Word::RdmaDescStart(x) => x.encode(),
        }
    }

    /// Run the word's validator for `arch` (see each struct's `validate`).
    pub fn validate(&self, arch: Arch) -> Result<(), IsaError> {
        match self {
            Word::SendRecv(x) => x.validate(arch),
            Word::CurProcessingRankId(x) => x.validate(arch),
            Word::GidLoad(x) => x.validate(arch),
            Word::RdmaDescGen(x) => x.validate(arch),
            Word::RdmaDescStart(x) => x.validate(arch),
        }
    }

    /// The full field layout of this word (for GID_LOAD, of its `dst` form);
    /// the fields tile bytes 0..64.
    pub const fn layout(&self) -> &'static [FieldDesc] {
        match self {
            Word::SendRecv(_) => SendRecv::LAYOUT,
            Word::CurProcessingRankId(_) => CurProcessingRankId::LAYOUT,
            Word::GidLoad(x) => x.form_layout(),
            Word::RdmaDescGen(_) => RdmaDescGen::LAYOUT,
            Word::RdmaDescStart(_) => RdmaDescStart::LAYOUT,
        }
    }

    /// A short meaning for a field value (enum names, derived facts), if any.
    pub fn describe(&self, name: &str) -> Option<String> {
        match name {
            "opcode" => {
                let op = self.header().opcode;
                let class = match classify_opcode(op) {
                    OpcodeClass {
                        pseudo_op: true,
                        control_instruction: true,
                    } => "pseudo-op, control instruction",
                    OpcodeClass {
                        pseudo_op: true, ..
                    } => "pseudo-op",
                    _ => "extended instruction",
                };
                return Some(format!("{} ({class})", self.kind().seed_name()));
            }
            "wait_mode" => return Some(self.events().wait_mode.name().to_string()),
            "update_mode" => return Some(self.events().update_mode.name().to_string()),
            _ => {}
        }
        match self {
            Word::SendRecv(x) => x.describe(name),
            Word::CurProcessingRankId(_) => None,
            Word::GidLoad(x) => x.describe(name),
            Word::RdmaDescGen(x) => x.describe(name),
            Word::RdmaDescStart(x) => x.describe(name),
        }
    }

    /// The host op-kind, for SENDRECV (seed 000 §3).
    pub const fn enc_op_type(&self) -> Option<EncOpType> {
        match self {
            Word::SendRecv(x) => Some(x.enc_op_type()),
            _ => None,
        }
    }
}

/// The error for a field name a kind does not have.
pub(crate) fn unknown_field(name: &str, kind: &'static str, lists: &[&[&str]]) -> IsaError {
    IsaError::UnknownField {
        field: name.to_string(),
        kind,
        settable: lists.concat().join(", "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Seed 002 §1/§4: 0xDB and 0xDC are pseudo-ops and members of
    /// `is_control_instruction`; 0xCB is a pseudo-op the seeds do not place in
    /// that set; the extended opcode 0xE0 is neither.
    #[test]
    fn seed002_s4_classification_sets_0xdb_0xdc_are_control_instructions() {
        for op in [OPCODE_CUR_PROCESSING_RANK_ID, OPCODE_GID_LOAD] {
            assert_eq!(
                classify_opcode(op),
                OpcodeClass {
                    pseudo_op: true,
                    control_instruction: true
                },
                "{op:#x}"
            );
        }
        assert_eq!(
            (OPCODE_CUR_PROCESSING_RANK_ID, OPCODE_GID_LOAD),
            (0xDB, 0xDC)
        );
        assert!(is_pseudo_op(OPCODE_SENDRECV) && !is_control_instruction(OPCODE_SENDRECV));
        assert!(!is_pseudo_op(OPCODE_EXTENDED) && !is_control_instruction(OPCODE_EXTENDED));
        // Exactly the two seed-named members, over all 256 opcodes.
        let members: Vec<u8> = (0..=255u8).filter(|&o| is_control_instruction(o)).collect();
        assert_eq!(members, vec![0xDB, 0xDC]);
        // The pseudo class is the 0xC0..0xDF window (upper three bits 0b110).
        let pseudo: Vec<u8> = (0..=255u8).filter(|&o| is_pseudo_op(o)).collect();
        assert_eq!(pseudo, (0xC0..=0xDF).collect::<Vec<u8>>());
        let w = Word::CurProcessingRankId(CurProcessingRankId::default());
        assert!(w
            .describe("opcode")
            .unwrap()
            .contains("pseudo-op, control instruction"));
    }
}
