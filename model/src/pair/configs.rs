//! The named configurations of the one core (`rtl/sb2sb_core.sv`, golden
//! [`super::core::Glue`]): where each is used and its [`CoreParams`], and
//! the table of docs/core.md generated from them (`make gen`).

use thiserror::Error;

use super::system::{SysParams, SYS_CORES};
use super::{leg16_params, seed16_params, seed_params, CoreParams};

/// One named configuration of the core.
#[derive(Debug, Clone, Copy)]
pub struct Config {
    /// The name in code (a constant or a function of `pair`).
    pub name: &'static str,
    /// The `--config` name ([`SystemConfig::parse`]).
    pub short: &'static str,
    /// Where it runs.
    pub used_by: &'static str,
    /// Its parameters.
    pub params: CoreParams,
}

/// Every named configuration, the lockstep blocks first.
pub fn configs() -> [Config; 7] {
    [
        Config {
            name: "CoreParams::LEG",
            short: "leg",
            used_by: "lockstep block `leg` (`sb2sb_pair`, two cores)",
            params: CoreParams::LEG,
        },
        Config {
            name: "leg16_params()",
            short: "leg16",
            used_by: "lockstep block `leg16` (`sb2sb_pair`, two cores, opt-in build)",
            params: leg16_params(),
        },
        Config {
            name: "SysParams::BLOCK.core",
            short: "block",
            used_by: "lockstep blocks `system` and `system_2pkg` (`sb2sb_system`, four cores)",
            params: SysParams::BLOCK.core,
        },
        Config {
            name: "seed_params()",
            short: "seed",
            used_by: "`run sendrecv --mode rtl` (block `leg_seed`)",
            params: seed_params(),
        },
        Config {
            name: "seed16_params()",
            short: "seed16",
            used_by:
                "`run sendrecv --mode rtl --engine-mask 0xFFFF` (block `leg_seed16`, opt-in build)",
            params: seed16_params(),
        },
        Config {
            name: "SysParams::COLL.core",
            short: "coll",
            used_by:
                "`nccom --mode rtl`, `run program --mode rtl` (block `system_coll`, opt-in build)",
            params: SysParams::COLL.core,
        },
        Config {
            name: "CoreParams::SYSTEM",
            short: "system",
            used_by: "system model, cycle mode (every core; the SBUF window sized to the topology)",
            params: CoreParams::SYSTEM,
        },
    ]
}

/// The configuration a system run uses (`--config NAME` of `sb2sb nccom`
/// and `sb2sb run program`): which cores, engines, placement and memory
/// sizes the system model's fast and cycle modes build, and which
/// Verilated top `--mode rtl` runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SystemConfig {
    /// The system model's own core ([`CoreParams::SYSTEM`]: 16 engines,
    /// 4 cores per die, as many packages as the ranks need, the SBUF
    /// partition sized to the buffers). Fast and cycle mode only.
    #[default]
    System,
    /// [`SysParams::COLL`] (`SysParams::COLL.core` above): the four cores of
    /// the block `system_coll`, 2 per die on one package, with its engines,
    /// SBUF window and descriptor RAM. What `--mode rtl` runs; fast and
    /// cycle mode run the same cores as its golden twin.
    Coll,
}

/// A `--config` a mode cannot run.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ConfigError {
    /// No configuration of that name.
    #[error("--config {0:?}: unknown configuration (system, coll; docs/core.md)")]
    Unknown(String),
    /// A named core configuration of a lockstep top the system runs do not use.
    #[error("--config {name}: the core of {used_by}; system runs take system or coll")]
    NotASystem {
        /// The name given.
        name: String,
        /// Where that core runs (the table above).
        used_by: &'static str,
    },
    /// A configuration the chosen mode has no machine for.
    #[error("--config {config} with --mode {mode}: {why}")]
    Mode {
        /// The configuration.
        config: &'static str,
        /// The mode.
        mode: &'static str,
        /// What the mode runs instead.
        why: &'static str,
    },
}

impl SystemConfig {
    /// Every configuration, by its `--config` name.
    pub const ALL: [Self; 2] = [Self::System, Self::Coll];

    /// The `--config` name.
    pub const fn name(self) -> &'static str {
        match self {
            Self::System => "system",
            Self::Coll => "coll",
        }
    }

    /// Parse a `--config` name; the other short names of [`configs`]
    /// (`leg`, `leg16`, `block`, `seed`, `seed16`: lockstep tops' cores) are
    /// refused with where they run.
    pub fn parse(name: &str) -> Result<Self, ConfigError> {
        let n = name.trim();
        if let Some(c) = Self::ALL.into_iter().find(|c| c.name() == n) {
            return Ok(c);
        }
        match configs().into_iter().find(|c| c.short == n) {
            Some(c) => Err(ConfigError::NotASystem {
                name: n.to_string(),
                used_by: c.used_by,
            }),
            None => Err(ConfigError::Unknown(n.to_string())),
        }
    }

    /// The fixed system top of the configuration (`None`: the system model
    /// sized to the run, [`SystemConfig::System`]).
    pub const fn params(self) -> Option<SysParams> {
        match self {
            Self::System => None,
            Self::Coll => Some(SysParams::COLL),
        }
    }

    /// Cores of the configuration's system (`None`: as many as the ranks need).
    pub const fn cores(self) -> Option<usize> {
        match self {
            Self::System => None,
            Self::Coll => Some(SYS_CORES),
        }
    }

    /// The configuration a mode runs when none is named: `--mode rtl` the
    /// Verilated top's ([`SystemConfig::Coll`]), every other mode the
    /// system's.
    pub const fn default_for(rtl: bool) -> Self {
        if rtl {
            Self::Coll
        } else {
            Self::System
        }
    }

    /// Whether a mode can run the configuration: `--mode rtl` runs only
    /// [`SystemConfig::Coll`] (the block `system_coll`), `--mode flat` (no
    /// cores) only [`SystemConfig::System`].
    pub fn check_mode(self, mode: &'static str) -> Result<(), ConfigError> {
        match (self, mode) {
            (Self::System, "rtl") => Err(ConfigError::Mode {
                config: self.name(),
                mode,
                why: "the Verilated system top is built at config coll only (block system_coll)",
            }),
            (Self::Coll, "flat") => Err(ConfigError::Mode {
                config: self.name(),
                mode,
                why: "the flat path has no cores to configure; use --mode fast or cycle",
            }),
            _ => Ok(()),
        }
    }
}

/// A byte count as KiB or MiB when it is a whole number of them.
fn size(b: u32) -> String {
    match b {
        b if b >= 1 << 20 && b.is_multiple_of(1 << 20) => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b.is_multiple_of(1 << 10) => format!("{} KiB", b >> 10),
        b => format!("{b} B"),
    }
}

/// The Markdown table of docs/core.md, between its `regs:core_configs` markers.
pub fn render_configs_md() -> String {
    let mut s = String::from(
        "<!-- regs:core_configs:begin (generated by pair::configs::render_configs_md from the named CoreParams; do not edit) -->\n\
         | configuration | used by | `NumEngines` | `DataBits` | `SbufPartBytes` | `SbufWinBase` | `DescBytes` | `LinkLatency` (other die) |\n\
         | --- | --- | --- | --- | --- | --- | --- | --- |\n",
    );
    for c in configs() {
        let p = c.params;
        s.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | {:#x} | {} | {} |\n",
            c.name,
            c.used_by,
            p.engines,
            p.data_bits,
            size(p.sbuf_part_bytes),
            p.sbuf_win_base,
            size(p.desc_bytes),
            p.link_latency
        ));
    }
    s.push_str("<!-- regs:core_configs:end -->\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every named configuration is one the golden core and the RTL build
    /// (`CoreParams::check`), and the sizes print as a reader expects
    /// (hand-computed).
    #[test]
    fn every_named_configuration_passes_the_core_check() {
        for c in configs() {
            assert_eq!(c.params.check(), Ok(()), "{}", c.name);
        }
        // The short names are distinct and the two system ones parse.
        let shorts: std::collections::BTreeSet<_> = configs().iter().map(|c| c.short).collect();
        assert_eq!(shorts.len(), configs().len());
        for c in SystemConfig::ALL {
            assert!(shorts.contains(c.name()), "{}", c.name());
        }
        assert_eq!(size(224 * 1024), "224 KiB");
        assert_eq!(size(64 << 20), "64 MiB");
        assert_eq!(size(256), "256 B");
        assert_eq!(size(1536), "1536 B");
    }

    /// `--config` names: the two system configurations parse, a lockstep
    /// top's core is refused naming where it runs, an unknown name and a
    /// mode without a machine for the configuration are typed errors.
    #[test]
    fn config_names_parse_and_modes_refuse_what_they_cannot_run() {
        assert_eq!(SystemConfig::parse("coll"), Ok(SystemConfig::Coll));
        assert_eq!(SystemConfig::parse(" system"), Ok(SystemConfig::System));
        assert_eq!(SystemConfig::Coll.params(), Some(SysParams::COLL));
        assert_eq!(SystemConfig::Coll.cores(), Some(4));
        assert_eq!(SystemConfig::System.params(), None);
        match SystemConfig::parse("leg16") {
            Err(ConfigError::NotASystem { name, used_by }) => {
                assert_eq!(name, "leg16");
                assert!(used_by.contains("`leg16`"), "{used_by}");
            }
            r => panic!("{r:?}"),
        }
        assert_eq!(
            SystemConfig::parse("big"),
            Err(ConfigError::Unknown("big".into()))
        );
        assert!(SystemConfig::System.check_mode("rtl").is_err());
        assert!(SystemConfig::Coll.check_mode("flat").is_err());
        assert_eq!(SystemConfig::Coll.check_mode("cycle"), Ok(()));
        assert_eq!(SystemConfig::default_for(true), SystemConfig::Coll);
        assert_eq!(SystemConfig::default_for(false), SystemConfig::System);
    }
}
