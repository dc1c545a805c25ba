//! Host lowering of the pseudo-ops (seeds 000 §3–8, 002 §4–8): what the
//! runtime does with SENDRECV (0xCB), PseudoCurProcessingRankID (0xDB) and
//! GID_LOAD (0xDC) before any NeuronCore sees them.
//!
//! - [`program`]: the JSON program format (`docs/programs.md`).
//! - [`sendrecv`]: `is_send` → ENC_SEND / ENC_RECV, the seed's guards, pairing
//!   into one directed leg per side (never reducing, seed 000 §7).
//! - [`rank_id`]: 0xDB peer-rank resolution, the stream_id ↔ group_id map.
//! - [`exec`]: load, issue, pair, run collectives, check results.
//! - [`layout`]: tensors in SBUF and range-to-leg pairing.
//! - [`target`]: the machine interface and the fast-path [`target::FlatTarget`].
//! - [`mod@system_target`]: the same interface on the system model (fast and cycle modes).
//! - [`error`]: typed errors quoting the seed's assert strings.

pub mod error;
pub mod exec;
pub mod layout;
pub mod program;
pub mod rank_id;
pub mod sendrecv;
pub mod system_mirror;
pub mod system_target;
pub mod target;

pub use error::{Guard, ProgramError};
pub use exec::{fast_target, load, run, system_target, Check, Loaded, RunReport};
pub use program::Program;
pub use system_target::SystemTarget;
pub use target::{FlatTarget, Leg, LegReport, Region, Target, TargetError};

#[cfg(test)]
mod tests;
