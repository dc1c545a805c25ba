//! Field descriptors and little-endian byte access shared by every word.
//!
//! Every instruction-word field is described once by a [`FieldDesc`]
//! (seed name, byte offset, size in bytes). The encoders, the decoders, the
//! layout tables printed by the CLI and the offset tests all use these
//! descriptors, so no offset is typed twice in model code.

use super::error::IsaError;

/// Size of every TPB instruction word in bytes (seed 000 §2, seed 002 §1).
pub const WORD_BYTES: usize = 64;

/// One raw 64-byte instruction word; byte 0 is the opcode.
pub type RawWord = [u8; WORD_BYTES];

/// One named field of an instruction word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct FieldDesc {
    /// Seed field name (dotted for union members, e.g. `dst.reg_padded.regnum`).
    pub name: &'static str,
    /// Byte offset from the start of the word.
    pub offset: usize,
    /// Size in bytes.
    pub size: usize,
    /// Reserved bytes: must be zero in a valid word.
    pub reserved: bool,
}

impl FieldDesc {
    /// A payload field.
    pub const fn new(name: &'static str, offset: usize, size: usize) -> Self {
        Self {
            name,
            offset,
            size,
            reserved: false,
        }
    }

    /// A reserved (must-be-zero) byte range.
    pub const fn reserved(name: &'static str, offset: usize, size: usize) -> Self {
        Self {
            name,
            offset,
            size,
            reserved: true,
        }
    }

    /// Byte range of the field inside the word.
    pub fn range(&self) -> core::ops::Range<usize> {
        self.offset..self.offset + self.size
    }

    /// Width in bits.
    pub const fn bits(&self) -> u32 {
        (self.size * 8) as u32
    }

    /// Little-endian value of the field (fields of at most 8 bytes).
    pub fn read(&self, w: &RawWord) -> u64 {
        debug_assert!(self.size <= 8);
        w[self.range()]
            .iter()
            .rev()
            .fold(0u64, |acc, b| (acc << 8) | u64::from(*b))
    }

    /// Write the low `size` bytes of `v`, little-endian (fields of at most 8 bytes).
    pub fn write(&self, w: &mut RawWord, v: u64) {
        debug_assert!(self.size <= 8);
        for (i, b) in w[self.range()].iter_mut().enumerate() {
            *b = (v >> (8 * i)) as u8;
        }
    }

    /// Check that every byte of a reserved range is zero; the error names the
    /// first non-zero byte's offset.
    pub fn check_zero(&self, w: &RawWord) -> Result<(), IsaError> {
        match w[self.range()].iter().position(|b| *b != 0) {
            None => Ok(()),
            Some(i) => Err(IsaError::ReservedNotZero {
                field: self.name,
                offset: self.offset + i,
                value: w[self.offset + i],
            }),
        }
    }

    /// Parse a user-supplied number (decimal, `0x` hex, `0b` binary, `_`
    /// separators allowed) and check that it fits in this field.
    pub fn parse_value(&self, text: &str) -> Result<u64, IsaError> {
        let v = parse_u64(text).ok_or_else(|| IsaError::BadValue {
            field: self.name,
            text: text.to_string(),
        })?;
        if self.size < 8 && v >> self.bits() != 0 {
            return Err(IsaError::ValueTooWide {
                field: self.name,
                offset: self.offset,
                bits: self.bits(),
                value: v,
            });
        }
        Ok(v)
    }
}

/// Parse a number: decimal, `0x…` hex or `0b…` binary, `_` separators allowed.
pub fn parse_u64(text: &str) -> Option<u64> {
    let t: String = text.trim().chars().filter(|c| *c != '_').collect();
    let lower = t.to_ascii_lowercase();
    if let Some(h) = lower.strip_prefix("0x") {
        u64::from_str_radix(h, 16).ok()
    } else if let Some(b) = lower.strip_prefix("0b") {
        u64::from_str_radix(b, 2).ok()
    } else {
        lower.parse().ok()
    }
}

/// Declare a one-byte code enum: `from_code`, `code`, `name`, `ALL`, `FromStr`
/// (name, case-insensitive, or number) and serde as the name string.
macro_rules! code_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident : $repr:ty {
            $( $(#[doc = $vdoc:literal])* $var:ident = $code:literal => $sname:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
        #[repr($repr)]
        pub enum $name {
            $( $(#[doc = $vdoc])* #[serde(rename = $sname)] $var = $code, )+
        }

        impl $name {
            /// Every variant, in code order.
            pub const ALL: &'static [$name] = &[ $( $name::$var ),+ ];

            /// The variant with this code, if any.
            pub const fn from_code(code: $repr) -> Option<Self> {
                match code {
                    $( $code => Some($name::$var), )+
                    _ => None,
                }
            }

            /// The numeric code.
            pub const fn code(self) -> $repr {
                self as $repr
            }

            /// The name used in tables, JSON and on the command line.
            pub const fn name(self) -> &'static str {
                match self {
                    $( $name::$var => $sname, )+
                }
            }
        }

        impl core::fmt::Display for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl core::str::FromStr for $name {
            type Err = ();
            fn from_str(s: &str) -> Result<Self, ()> {
                let t = s.trim();
                for v in Self::ALL {
                    if v.name().eq_ignore_ascii_case(t) {
                        return Ok(*v);
                    }
                }
                let n = $crate::isa::field::parse_u64(t).ok_or(())?;
                <$repr>::try_from(n).ok().and_then(Self::from_code).ok_or(())
            }
        }
    };
}
pub(crate) use code_enum;
