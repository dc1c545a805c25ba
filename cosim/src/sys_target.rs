//! The system tops `sb2sb nccom --mode rtl` and `run program --mode rtl`
//! run on: the Verilated system top (block `system_coll`,
//! `SysParams::COLL`, [`RtlSys`]) or its golden twin ([`SysTop`], no
//! Verilated build needed), clocked beside the system model's cycle mode
//! at the same parameters ([`SystemTarget::mirrored`],
//! `sb2sb_model::system::mirror`).
//!
//! The target is the system model's: its rounds, the system firmware's Q7
//! programs on cycle mode's one Q7 executor, its modeled time. Every cycle
//! the executor's Q7 port drives go to the machine's ports too and the
//! machine's Q7 port outputs must equal the golden cores' ([`SysMirror`]
//! is the [`Mirror`] of a [`SysMachine`]); SBUF bytes are read and written
//! through the testbench backdoor of every core's SBUF ([`CoreMems`]),
//! semaphores through the debug port, and both are compared with the golden
//! cores' (`lower::system_mirror`). A reducing leg lands in a receive slot
//! (the upper half of every partition) and is folded into its destination
//! on the host with the datapath's `recv_reduce` (the RTL has no reduce
//! engine).

use sb2sb_model::isa::Arch;
use sb2sb_model::lower::system_target::SystemTarget;
use sb2sb_model::lower::TargetError;
use sb2sb_model::pair::sys_stim::RESET_CYCLES;
use sb2sb_model::pair::system::{field, SysIn, SysOut, SysParams, SysTop, BLOCK_COLL, SYS_CORES};
use sb2sb_model::pair::top::{CoreInPins, CoreOutPins};
use sb2sb_model::ports::CycleModel;
use sb2sb_model::regs::axil::{AxilIn, AxilOut};
use sb2sb_model::system::mirror::Mirror;

use crate::core_mems::CoreMems;
use crate::rtl::{RtlDut, XInit};

/// Instance path of core `c`'s memories in the backdoor's names.
fn core_prefix(c: usize) -> String {
    format!("TOP.sb2sb_system.gen_core[{c}].u_core.gen_mem[")
}

fn err(e: impl std::fmt::Display) -> TargetError {
    TargetError::System(format!("rtl: {e}"))
}

/// A system top a [`SysMirror`] clocks, with a backdoor to every core's
/// SBUF (64-bit words, partition-major, the debug port's map) and
/// descriptor RAM.
pub trait SysMachine {
    /// One clock cycle.
    fn step(&mut self, i: &SysIn) -> SysOut;
    /// SBUF words `first..first + out.len()` of core `c`.
    fn read_words(&self, c: usize, first: usize, out: &mut [u64]) -> Result<(), TargetError>;
    /// Store `data` at SBUF words `first..` of core `c`.
    fn write_words(&mut self, c: usize, first: usize, data: &[u64]) -> Result<(), TargetError>;
    /// Clear core `c`'s whole SBUF window and descriptor RAM.
    fn clear(&mut self, c: usize) -> Result<(), TargetError>;
}

/// The Verilated system top (block `system_coll`) and its memories
/// through the testbench backdoor ([`CoreMems`]).
pub struct RtlSys {
    dut: RtlDut<SysIn, SysOut>,
    mems: Vec<CoreMems>,
    p: SysParams,
}

impl RtlSys {
    /// The Verilated block `system_coll`, or the error naming its build command.
    pub fn new(p: SysParams) -> Result<Self, TargetError> {
        let dut = RtlDut::new(&BLOCK_COLL, 1, XInit::Zero).map_err(|e| {
            err(format!(
                "{e:#} (the block is verilated on request: SB2SB_BLOCKS=all,{} cargo build --release)",
                BLOCK_COLL.name
            ))
        })?;
        let bd = dut.backdoor_mems().map_err(err)?;
        let mems = (0..SYS_CORES)
            .map(|c| CoreMems::find(&bd, BLOCK_COLL.name, &core_prefix(c), &p.core))
            .collect::<Result<Vec<_>, _>>()
            .map_err(err)?;
        Ok(Self { dut, mems, p })
    }
}

impl SysMachine for RtlSys {
    fn step(&mut self, i: &SysIn) -> SysOut {
        self.dut.step(i)
    }

    fn read_words(&self, c: usize, first: usize, out: &mut [u64]) -> Result<(), TargetError> {
        self.mems[c].read_words(&self.dut, first, out).map_err(err)
    }

    fn write_words(&mut self, c: usize, first: usize, data: &[u64]) -> Result<(), TargetError> {
        self.mems[c]
            .write_words(&mut self.dut, first, data)
            .map_err(err)
    }

    fn clear(&mut self, c: usize) -> Result<(), TargetError> {
        self.mems[c]
            .clear_desc(&mut self.dut, (self.p.core.desc_bytes / 8) as usize)
            .map_err(err)?;
        let zero = vec![0u64; self.mems[c].sbuf_words()];
        self.mems[c]
            .write_words(&mut self.dut, 0, &zero)
            .map_err(err)
    }
}

/// A backdoor access of core `c`'s SBUF from word `first` past its `len` words.
fn past_sbuf(c: usize, first: usize, len: usize) -> TargetError {
    err(format!("SBUF words {first}.. of core {c} past its {len}"))
}

/// The golden system top: its cores' arrays (`mem[0]` the SBUF, `mem[1]`
/// the descriptor RAM, as 64-bit lanes) are the backdoor.
impl SysMachine for SysTop {
    fn step(&mut self, i: &SysIn) -> SysOut {
        CycleModel::step(self, i)
    }

    fn read_words(&self, c: usize, first: usize, out: &mut [u64]) -> Result<(), TargetError> {
        let m = &self.cores[c].mem[0];
        let src = m
            .get(first..first + out.len())
            .ok_or_else(|| past_sbuf(c, first, m.len()))?;
        out.copy_from_slice(src);
        Ok(())
    }

    fn write_words(&mut self, c: usize, first: usize, data: &[u64]) -> Result<(), TargetError> {
        let m = &mut self.cores[c].mem[0];
        let n = m.len();
        m.get_mut(first..first + data.len())
            .ok_or_else(|| past_sbuf(c, first, n))?
            .copy_from_slice(data);
        Ok(())
    }

    fn clear(&mut self, c: usize) -> Result<(), TargetError> {
        for m in &mut self.cores[c].mem {
            m.fill(0);
        }
        Ok(())
    }
}

/// A [`SysMachine`] as the [`Mirror`] of the system model's cycle mode:
/// reset once, then clocked with the Q7 port drives of cycle mode's executor.
pub struct SysMirror<M: SysMachine> {
    m: M,
    p: SysParams,
}

impl<M: SysMachine> SysMirror<M> {
    /// Machine `m` at parameters `p`: every SBUF and descriptor RAM
    /// cleared, reset for [`RESET_CYCLES`] cycles.
    pub fn new(p: SysParams, mut m: M) -> Result<Self, TargetError> {
        for c in 0..SYS_CORES {
            m.clear(c)?;
        }
        for _ in 0..RESET_CYCLES {
            m.step(&SysIn::default());
        }
        Ok(Self { m, p })
    }

    /// A cycle of the machine with `i` (reset released); its error flags
    /// must stay low.
    fn step(&mut self, mut i: SysIn) -> Result<SysOut, String> {
        i.rst_ni = 1;
        let o = self.m.step(&i);
        if o.route_err_o != 0 || o.err_irq_o != 0 || o.sem_err_o != 0 {
            return Err(format!(
                "raised error flags: route_err {:#x}, err_irq {:#x}, sem_err {:#x}",
                o.route_err_o, o.err_irq_o, o.sem_err_o
            ));
        }
        Ok(o)
    }

    /// Byte `off` of partition `part` as a backdoor word index and the
    /// byte's place in it.
    fn word_of(&self, part: u32, off: u64) -> (u64, usize) {
        let a = u64::from(part) * u64::from(self.p.core.sbuf_part_bytes) + off;
        (a / 8, (a % 8) as usize)
    }
}

impl<M: SysMachine> Mirror for SysMirror<M> {
    fn clock(&mut self, drives: &[AxilIn], outs: &mut Vec<AxilOut>) -> Result<(), String> {
        let mut i = SysIn::default();
        for (c, d) in drives.iter().enumerate() {
            i.set_axil(c, d);
        }
        let o = self.step(i)?;
        outs.clear();
        outs.extend((0..SYS_CORES).map(|c| o.axil(c)));
        Ok(())
    }

    fn read_sbuf(&self, c: usize, part: u32, off: u64, len: u64) -> Result<Vec<u8>, String> {
        let (w0, s) = self.word_of(part, off);
        let w1 = (w0 * 8 + s as u64 + len).div_ceil(8);
        let mut words = vec![0u64; (w1 - w0) as usize];
        self.m
            .read_words(c, w0 as usize, &mut words)
            .map_err(|e| e.to_string())?;
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        Ok(bytes[s..s + len as usize].to_vec())
    }

    fn write_sbuf(&mut self, c: usize, part: u32, off: u64, data: &[u8]) -> Result<(), String> {
        let (w0, s) = self.word_of(part, off);
        let mut bytes = self.read_sbuf(
            c,
            part,
            off - s as u64,
            (s + data.len()).next_multiple_of(8) as u64,
        )?;
        bytes[s..s + data.len()].copy_from_slice(data);
        let words: Vec<u64> = bytes
            .chunks_exact(8)
            .map(|b| u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]))
            .collect();
        self.m
            .write_words(c, w0 as usize, &words)
            .map_err(|e| e.to_string())
    }

    /// Through the debug port, one index per cycle, the machine idle.
    fn sems(&mut self) -> Result<Vec<[i32; 256]>, String> {
        let mut sems = vec![[0i32; 256]; SYS_CORES];
        for s in 0..=255u8 {
            let mut i = SysIn::default();
            for c in 0..SYS_CORES {
                i.dbg_sem_idx_i |= u64::from(s) << (8 * c);
            }
            let o = self.step(i)?;
            for (c, v) in sems.iter_mut().enumerate() {
                v[usize::from(s)] = field(&o.dbg_sem_o, c, 32) as u32 as i32;
            }
        }
        Ok(sems)
    }
}

/// The Verilated system top (block `system_coll`) beside the system
/// model's cycle mode at `SysParams::COLL`: the `--mode rtl` target.
pub fn rtl_target(arch: Arch) -> Result<SystemTarget, TargetError> {
    target_on(arch, RtlSys::new(SysParams::COLL)?)
}

/// The golden system top at `SysParams::COLL` beside the system model's
/// cycle mode: the Verilated target with its lockstep twin as the machine.
pub fn golden_target(arch: Arch) -> Result<SystemTarget, TargetError> {
    target_on(arch, SysTop::new(SysParams::COLL))
}

/// Machine `m` (a system top at `SysParams::COLL`) beside the system
/// model's cycle mode.
pub fn target_on<M: SysMachine + 'static>(arch: Arch, m: M) -> Result<SystemTarget, TargetError> {
    let p = SysParams::COLL;
    SystemTarget::mirrored(arch, p, Box::new(SysMirror::new(p, m)?))
}
