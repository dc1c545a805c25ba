//! Target architectures and their register files (seed 002 §2–3).

use serde::{Deserialize, Serialize};

/// Engine register PC_LO (seed 002 §3, NEURON_ISA_TPB_ENGINE_REGISTERS).
pub const REG_PC_LO: u8 = 128;
/// Engine register PC_HI.
pub const REG_PC_HI: u8 = 129;
/// Engine register DGE_TABLE_LO: writable on every arch (seed 002 §7.2).
pub const REG_DGE_TABLE_LO: u8 = 130;
/// Engine register DGE_TABLE_HI: writable on every arch (seed 002 §7.2).
pub const REG_DGE_TABLE_HI: u8 = 131;

/// A NeuronCore generation. The instruction layouts are identical on all
/// four (seed 000 §9, seed 002 §2); only NUM_REGISTERS differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Arch {
    /// SUNDA, NeuronCore-v2.
    Sunda,
    /// CAYMAN, NeuronCore-v3 (the default: the seeds' reference arch).
    #[default]
    Cayman,
    /// MARIANA, NeuronCore-v4.
    Mariana,
    /// MAVERICK, NeuronCore-v5.
    Maverick,
}

impl Arch {
    /// All architectures, oldest first.
    pub const ALL: [Arch; 4] = [Arch::Sunda, Arch::Cayman, Arch::Mariana, Arch::Maverick];

    /// Code name (`"cayman"`).
    pub const fn name(self) -> &'static str {
        match self {
            Arch::Sunda => "sunda",
            Arch::Cayman => "cayman",
            Arch::Mariana => "mariana",
            Arch::Maverick => "maverick",
        }
    }

    /// NeuronCore version (`"v3"`).
    pub const fn version(self) -> &'static str {
        match self {
            Arch::Sunda => "v2",
            Arch::Cayman => "v3",
            Arch::Mariana => "v4",
            Arch::Maverick => "v5",
        }
    }

    /// NEURON_ISA_TPB_NUM_REGISTERS: 64 on v2–v4, 192 on v5 (seed 002 §2).
    pub const fn num_registers(self) -> u16 {
        match self {
            Arch::Sunda | Arch::Cayman | Arch::Mariana => 64,
            Arch::Maverick => 192,
        }
    }

    /// `is_valid_register_write` (seed 002 §7.2): `regnum < NUM_REGISTERS`,
    /// or DGE_TABLE_LO (130) / DGE_TABLE_HI (131).
    pub const fn is_valid_register_write(self, regnum: u8) -> bool {
        (regnum as u16) < self.num_registers()
            || regnum == REG_DGE_TABLE_LO
            || regnum == REG_DGE_TABLE_HI
    }
}

impl core::fmt::Display for Arch {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{} ({})", self.name(), self.version())
    }
}

/// The text given is not an architecture name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown arch {0:?} (expected sunda|v2, cayman|v3, mariana|v4, maverick|v5)")]
pub struct UnknownArch(pub String);

impl core::str::FromStr for Arch {
    type Err = UnknownArch;
    /// Accepts the code name or the version, case-insensitive, with an
    /// optional `nc-` prefix on the version: `cayman`, `v3`, `NC-v3`.
    fn from_str(s: &str) -> Result<Self, UnknownArch> {
        let t = s.trim().to_ascii_lowercase();
        let t = t.strip_prefix("nc-").unwrap_or(&t);
        Arch::ALL
            .into_iter()
            .find(|a| a.name() == t || a.version() == t)
            .ok_or_else(|| UnknownArch(s.to_string()))
    }
}
