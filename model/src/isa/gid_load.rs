//! GID_LOAD, opcode 0xDC: "load the current rank's GID into a register"
//! (seed 002 §7), with the seed's static validator (§7.2).
//!
//! The 8-byte `dst` union at byte 16 is either the register form
//! (`reserved[7]` + `regnum` at byte 23) or a NEURON_ISA_TPB_PSEUDO_ADDR8
//! address discriminated by the marker in its high byte (byte 23). The seed
//! gives the addr_reg marker 0x80 and the `reg_hi == 0` rule; the rest of the
//! PSEUDO_ADDR8 layout, the var-id marker and the dst_target codes are
//! project-defined (docs/decisions.md).

use serde::{Deserialize, Serialize};

use super::arch::Arch;
use super::error::IsaError;
use super::field::{code_enum, FieldDesc, RawWord, WORD_BYTES};
use super::header::{layout_with_prefix, set_prefix_field, Events, Header, PREFIX_SETTABLE};

/// NEURON_ISA_TPB_OPCODE_PSEUDO_GID_LOAD.
pub const OPCODE_GID_LOAD: u8 = 0xDC;

/// PSEUDO_ADDR8 marker of the addr_reg form (seed 002 §8 item 6: ADDR_REG_BIT = 0x80).
pub const ADDR_MARKER_REG: u8 = 0x80;
/// PSEUDO_ADDR8 marker of the var-id form (project-defined: the seed names VAR_ID_BIT, not its value).
pub const ADDR_MARKER_VAR: u8 = 0x40;

/// `dst_target` u8 (PSEUDO_GID_TARGET_TYPE).
pub const DST_TARGET: FieldDesc = FieldDesc::new("dst_target", 12, 1);
/// `reserved0` (bytes 13..15).
pub const RESERVED0: FieldDesc = FieldDesc::reserved("reserved0", 13, 3);
/// `dst`: the 8-byte union.
pub const DST: FieldDesc = FieldDesc::new("dst", 16, 8);
/// `reserved1` (bytes 24..63).
pub const RESERVED1: FieldDesc = FieldDesc::reserved("reserved1", 24, 40);

/// Register form: `dst.reg_padded.reserved[7]` (must be zero).
pub const DST_REG_RESERVED: FieldDesc = FieldDesc::reserved("dst.reg_padded.reserved", 16, 7);
/// Register form: `dst.reg_padded.regnum` (byte 16 + 7 = 23).
pub const DST_REGNUM: FieldDesc = FieldDesc::new("dst.reg_padded.regnum", 23, 1);

/// Address form: the marker byte (high byte of PSEUDO_ADDR8).
pub const DST_ADDR_MARKER: FieldDesc = FieldDesc::new("dst.addr.marker", 23, 1);
/// addr_reg form: low byte of the address register number (project-defined position).
pub const DST_ADDR_REG_LO: FieldDesc = FieldDesc::new("dst.addr.reg_lo", 16, 1);
/// addr_reg form: high byte of the address register number; must be 0 (seed 002 §7.2).
pub const DST_ADDR_REG_HI: FieldDesc = FieldDesc::new("dst.addr.reg_hi", 17, 1);
/// addr_reg form: byte offset added to the register's address (project-defined).
pub const DST_ADDR_REG_OFFSET: FieldDesc = FieldDesc::new("dst.addr.offset", 18, 4);
/// var-id form: the variable id (project-defined).
pub const DST_ADDR_VAR_ID: FieldDesc = FieldDesc::new("dst.addr.var_id", 16, 4);
/// var-id form: byte offset into the variable (project-defined).
pub const DST_ADDR_VAR_OFFSET: FieldDesc = FieldDesc::new("dst.addr.offset", 20, 2);
/// Address forms: byte 22 (project-defined reserved).
pub const DST_ADDR_RESERVED: FieldDesc = FieldDesc::reserved("dst.addr.reserved", 22, 1);

code_enum! {
    /// PSEUDO_GID_TARGET_TYPE: where the GID goes (codes project-defined).
    pub enum GidTarget: u8 {
        /// A scalar engine register (`dst.reg_padded`).
        Register = 0 => "REGISTER",
        /// A PSEUDO_ADDR8 address (`dst.addr`).
        Address = 1 => "ADDRESS",
    }
}

/// The `dst` union, decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "form")]
pub enum GidDst {
    /// `dst.reg_padded`: write the GID into engine register `regnum`.
    #[serde(rename = "reg_padded")]
    Register {
        /// Target scalar register.
        regnum: u8,
    },
    /// `dst.addr`, marker 0x80: the address held in register `reg_lo`, plus `offset`.
    #[serde(rename = "addr_reg")]
    AddrReg {
        /// Register holding the base address (reg_hi is always 0).
        reg_lo: u8,
        /// Byte offset.
        offset: u32,
    },
    /// `dst.addr`, var-id marker: variable `var_id`, plus `offset`.
    #[serde(rename = "addr_var")]
    AddrVar {
        /// Variable id.
        var_id: u32,
        /// Byte offset.
        offset: u16,
    },
}

impl GidDst {
    /// The dst_target that goes with this form.
    pub const fn target(&self) -> GidTarget {
        match self {
            GidDst::Register { .. } => GidTarget::Register,
            GidDst::AddrReg { .. } | GidDst::AddrVar { .. } => GidTarget::Address,
        }
    }
}

/// The GID_LOAD word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct GidLoad {
    /// HEADER (opcode 0xDC).
    pub header: Header,
    /// EVENTS.
    pub events: Events,
    /// Register or address destination.
    pub dst_target: GidTarget,
    /// The destination.
    pub dst: GidDst,
}

impl Default for GidLoad {
    fn default() -> Self {
        Self {
            header: Header::new(OPCODE_GID_LOAD),
            events: Events::default(),
            dst_target: GidTarget::Register,
            dst: GidDst::Register { regnum: 0 },
        }
    }
}

impl GidLoad {
    /// Kind name used in messages.
    pub const KIND_NAME: &'static str = "GID_LOAD";

    /// Top-level layout (the `dst` union as one 8-byte field).
    pub const LAYOUT: &'static [FieldDesc] =
        layout_with_prefix![DST_TARGET, RESERVED0, DST, RESERVED1];
    /// Full layout of the register form.
    pub const LAYOUT_REGISTER: &'static [FieldDesc] = layout_with_prefix![
        DST_TARGET,
        RESERVED0,
        DST_REG_RESERVED,
        DST_REGNUM,
        RESERVED1
    ];
    /// Full layout of the addr_reg form.
    pub const LAYOUT_ADDR_REG: &'static [FieldDesc] = layout_with_prefix![
        DST_TARGET,
        RESERVED0,
        DST_ADDR_REG_LO,
        DST_ADDR_REG_HI,
        DST_ADDR_REG_OFFSET,
        DST_ADDR_RESERVED,
        DST_ADDR_MARKER,
        RESERVED1
    ];
    /// Full layout of the var-id form.
    pub const LAYOUT_ADDR_VAR: &'static [FieldDesc] = layout_with_prefix![
        DST_TARGET,
        RESERVED0,
        DST_ADDR_VAR_ID,
        DST_ADDR_VAR_OFFSET,
        DST_ADDR_RESERVED,
        DST_ADDR_MARKER,
        RESERVED1
    ];

    /// Names settable by [`crate::isa::Word::set_field`] (besides the prefix).
    /// Setting a form's field switches `dst` (and `dst_target`) to that form.
    pub const SETTABLE: &'static [&'static str] = &[
        "dst_target",
        "regnum",
        "dst.reg_padded.regnum",
        "marker",
        "reg_lo",
        "offset",
        "var_id",
    ];

    /// A GID_LOAD into engine register `regnum`.
    pub fn to_register(regnum: u8) -> Self {
        Self {
            dst: GidDst::Register { regnum },
            ..Self::default()
        }
    }

    /// The full layout of this word's `dst` form.
    pub const fn form_layout(&self) -> &'static [FieldDesc] {
        match self.dst {
            GidDst::Register { .. } => Self::LAYOUT_REGISTER,
            GidDst::AddrReg { .. } => Self::LAYOUT_ADDR_REG,
            GidDst::AddrVar { .. } => Self::LAYOUT_ADDR_VAR,
        }
    }

    /// Decode a word and run the seed's validator for `arch`.
    pub fn decode(w: &RawWord, arch: Arch) -> Result<Self, IsaError> {
        let header = Header::decode_expect(w, Self::KIND_NAME, OPCODE_GID_LOAD)?;
        let events = Events::decode(w)?;
        let t = DST_TARGET.read(w) as u8;
        let dst_target = GidTarget::from_code(t).ok_or(IsaError::UnknownCode {
            field: DST_TARGET.name,
            offset: DST_TARGET.offset,
            enum_name: "PSEUDO_GID_TARGET_TYPE",
            value: t.into(),
        })?;
        RESERVED0.check_zero(w)?;
        RESERVED1.check_zero(w)?;
        let dst = match dst_target {
            GidTarget::Register => {
                DST_REG_RESERVED.check_zero(w)?;
                GidDst::Register {
                    regnum: DST_REGNUM.read(w) as u8,
                }
            }
            GidTarget::Address => {
                let marker = DST_ADDR_MARKER.read(w) as u8;
                match marker {
                    ADDR_MARKER_REG => {
                        let reg_hi = DST_ADDR_REG_HI.read(w);
                        if reg_hi != 0 {
                            return Err(IsaError::RuleBroken {
                                field: DST_ADDR_REG_HI.name,
                                offset: DST_ADDR_REG_HI.offset,
                                value: reg_hi,
                                rule: "the addr_reg form (marker 0x80) needs reg_hi == 0",
                            });
                        }
                        DST_ADDR_RESERVED.check_zero(w)?;
                        GidDst::AddrReg {
                            reg_lo: DST_ADDR_REG_LO.read(w) as u8,
                            offset: DST_ADDR_REG_OFFSET.read(w) as u32,
                        }
                    }
                    ADDR_MARKER_VAR => {
                        DST_ADDR_RESERVED.check_zero(w)?;
                        GidDst::AddrVar {
                            var_id: DST_ADDR_VAR_ID.read(w) as u32,
                            offset: DST_ADDR_VAR_OFFSET.read(w) as u16,
                        }
                    }
                    m => {
                        return Err(IsaError::UnknownCode {
                            field: DST_ADDR_MARKER.name,
                            offset: DST_ADDR_MARKER.offset,
                            enum_name: "PSEUDO_ADDR8 marker (0x80 addr_reg, 0x40 var-id)",
                            value: m.into(),
                        })
                    }
                }
            }
        };
        let g = Self {
            header,
            events,
            dst_target,
            dst,
        };
        g.validate(arch)?;
        Ok(g)
    }

    /// Encode to the 64-byte word (reserved bytes zero). `dst_target` is
    /// written as stored; the `dst` bytes follow the `dst` form.
    pub fn encode(&self) -> RawWord {
        let mut w = [0u8; WORD_BYTES];
        self.header.encode_into(&mut w);
        self.events.encode_into(&mut w);
        DST_TARGET.write(&mut w, self.dst_target.code().into());
        match self.dst {
            GidDst::Register { regnum } => DST_REGNUM.write(&mut w, regnum.into()),
            GidDst::AddrReg { reg_lo, offset } => {
                DST_ADDR_REG_LO.write(&mut w, reg_lo.into());
                DST_ADDR_REG_OFFSET.write(&mut w, offset.into());
                DST_ADDR_MARKER.write(&mut w, ADDR_MARKER_REG.into());
            }
            GidDst::AddrVar { var_id, offset } => {
                DST_ADDR_VAR_ID.write(&mut w, var_id.into());
                DST_ADDR_VAR_OFFSET.write(&mut w, offset.into());
                DST_ADDR_MARKER.write(&mut w, ADDR_MARKER_VAR.into());
            }
        }
        w
    }

    /// `is_valid_pseudo_gid_load` / `is_valid_gid_load_dst` (seed 002 §7.2):
    /// the register form needs a writable register on `arch`
    /// (`regnum < NUM_REGISTERS` or 130/131); `dst_target` must match the `dst` form.
    /// (Reserved bytes, the marker and reg_hi are checked by [`Self::decode`].)
    pub fn validate(&self, arch: Arch) -> Result<(), IsaError> {
        self.header
            .expect_opcode(Self::KIND_NAME, OPCODE_GID_LOAD)?;
        if self.dst_target != self.dst.target() {
            return Err(IsaError::RuleBroken {
                field: DST_TARGET.name,
                offset: DST_TARGET.offset,
                value: self.dst_target.code().into(),
                rule: "dst_target must name the form of dst (REGISTER=0 for reg_padded, ADDRESS=1 for addr)",
            });
        }
        if let GidDst::Register { regnum } = self.dst {
            if !arch.is_valid_register_write(regnum) {
                return Err(IsaError::RegisterNotWritable {
                    field: DST_REGNUM.name,
                    offset: DST_REGNUM.offset,
                    regnum,
                    arch,
                    num_registers: arch.num_registers(),
                });
            }
        }
        Ok(())
    }

    pub(crate) fn set_field(&mut self, name: &str, text: &str) -> Result<(), IsaError> {
        if set_prefix_field(&mut self.header, &mut self.events, name, text)? {
            return Ok(());
        }
        match name {
            "dst_target" => {
                let t: GidTarget = text.parse().map_err(|_| IsaError::BadValue {
                    field: DST_TARGET.name,
                    text: text.into(),
                })?;
                self.dst_target = t;
                if self.dst.target() != t {
                    self.dst = match t {
                        GidTarget::Register => GidDst::Register { regnum: 0 },
                        GidTarget::Address => GidDst::AddrReg {
                            reg_lo: 0,
                            offset: 0,
                        },
                    };
                }
            }
            "regnum" | "dst.reg_padded.regnum" => {
                self.dst = GidDst::Register {
                    regnum: DST_REGNUM.parse_value(text)? as u8,
                };
                self.dst_target = GidTarget::Register;
            }
            "marker" | "dst.addr.marker" => {
                let m = DST_ADDR_MARKER.parse_value(text)? as u8;
                let offset = match self.dst {
                    GidDst::AddrReg { offset, .. } => offset,
                    GidDst::AddrVar { offset, .. } => offset.into(),
                    GidDst::Register { .. } => 0,
                };
                self.dst = match m {
                    ADDR_MARKER_REG => GidDst::AddrReg { reg_lo: 0, offset },
                    ADDR_MARKER_VAR => GidDst::AddrVar {
                        var_id: 0,
                        offset: u16::try_from(offset).map_err(|_| IsaError::ValueTooWide {
                            field: DST_ADDR_VAR_OFFSET.name,
                            offset: DST_ADDR_VAR_OFFSET.offset,
                            bits: DST_ADDR_VAR_OFFSET.bits(),
                            value: offset.into(),
                        })?,
                    },
                    _ => {
                        return Err(IsaError::BadValue {
                            field: DST_ADDR_MARKER.name,
                            text: text.into(),
                        })
                    }
                };
                self.dst_target = GidTarget::Address;
            }
            "reg_lo" | "dst.addr.reg_lo" => {
                let reg_lo = DST_ADDR_REG_LO.parse_value(text)? as u8;
                let offset = if let GidDst::AddrReg { offset, .. } = self.dst {
                    offset
                } else {
                    0
                };
                self.dst = GidDst::AddrReg { reg_lo, offset };
                self.dst_target = GidTarget::Address;
            }
            "var_id" | "dst.addr.var_id" => {
                let var_id = DST_ADDR_VAR_ID.parse_value(text)? as u32;
                let offset = if let GidDst::AddrVar { offset, .. } = self.dst {
                    offset
                } else {
                    0
                };
                self.dst = GidDst::AddrVar { var_id, offset };
                self.dst_target = GidTarget::Address;
            }
            "offset" | "dst.addr.offset" => match &mut self.dst {
                GidDst::AddrVar { offset, .. } => {
                    *offset = DST_ADDR_VAR_OFFSET.parse_value(text)? as u16
                }
                GidDst::AddrReg { offset, .. } => {
                    *offset = DST_ADDR_REG_OFFSET.parse_value(text)? as u32
                }
                GidDst::Register { .. } => {
                    let offset = DST_ADDR_REG_OFFSET.parse_value(text)? as u32;
                    self.dst = GidDst::AddrReg { reg_lo: 0, offset };
                    self.dst_target = GidTarget::Address;
                }
            },
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
            "dst_target" => Some(self.dst_target.name().to_string()),
            "dst.addr.marker" => Some(match self.dst {
                GidDst::AddrVar { .. } => "var-id form".to_string(),
                _ => "addr_reg form".to_string(),
            }),
            "dst.reg_padded.regnum" => Some("GID is written to this engine register".to_string()),
            _ => None,
        }
    }
}
