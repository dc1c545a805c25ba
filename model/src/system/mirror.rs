//! A machine clocked beside cycle mode: the Verilated system top (or its
//! golden twin) driven on its Q7 ports by cycle mode's one Q7 executor
//! ([`super::q7_exec`]), cycle for cycle.
//!
//! Cycle mode runs the system firmware's programs on its golden cores; with
//! a [`Mirror`] attached ([`super::System::run_mirrored`]) every cycle's Q7
//! port drives go to the mirror's ports too, the mirror is clocked once, and
//! the Q7 port outputs of every core that carried a transaction must be
//! equal on both — the handshake cycles, the write responses and every
//! semaphore poll's read data. The first difference ends the run with
//! [`super::SystemError::Mirror`] naming the cycle, the core and both
//! outputs. A leg's completion reaches the Q7 only through those polls, so
//! a machine that moved its data in other cycles than the golden cores
//! parts there; its bytes and semaphores are compared by the caller
//! (`lower::system_target`) once a batch has run.

use crate::regs::axil::{AxilIn, AxilOut};

/// A system top clocked beside cycle mode, with a backdoor to its SBUFs and
/// semaphores (used between runs, while the machine is idle).
pub trait Mirror {
    /// One clock: core `c`'s Q7 port driven by `drives[c]`; returns every
    /// core's Q7 port outputs in `outs` (one per core), or the machine's
    /// own error (an error flag raised).
    fn clock(&mut self, drives: &[AxilIn], outs: &mut Vec<AxilOut>) -> Result<(), String>;
    /// Bytes `off..off + len` of partition `part` of core `c`'s SBUF.
    fn read_sbuf(&self, c: usize, part: u32, off: u64, len: u64) -> Result<Vec<u8>, String>;
    /// Store `data` at byte `off` of partition `part` of core `c`'s SBUF.
    fn write_sbuf(&mut self, c: usize, part: u32, off: u64, data: &[u8]) -> Result<(), String>;
    /// Every core's 256 semaphores (an even number of idle cycles of the
    /// machine, so its Q7 ports keep their write / read phase).
    fn sems(&mut self) -> Result<Vec<[i32; 256]>, String>;
}

/// Q7 port outputs as an AXI4-Lite master sees them: a response's payload
/// only with its valid (a payload without its valid is not a behaviour).
pub const fn seen(o: AxilOut) -> AxilOut {
    AxilOut {
        bresp: if o.bvalid { o.bresp } else { 0 },
        rdata: if o.rvalid { o.rdata } else { 0 },
        rresp: if o.rvalid { o.rresp } else { 0 },
        ..o
    }
}

/// The first core whose Q7 port outputs, as seen ([`seen`]), differ
/// between the golden cores (`golden`: the ports cycle mode clocked with a
/// transaction) and the mirror (`mirror`, one per core), as
/// `(core, golden, mirror)`.
pub fn first_difference<'a>(
    golden: impl IntoIterator<Item = (&'a u16, &'a AxilOut)>,
    mirror: &[AxilOut],
) -> Option<(u16, AxilOut, AxilOut)> {
    golden.into_iter().find_map(|(&c, g)| {
        let (g, m) = (
            seen(*g),
            seen(mirror.get(usize::from(c)).copied().unwrap_or_default()),
        );
        (m != g).then_some((c, g, m))
    })
}
