//! [`Target`] on the Verilated system top (block `system_coll`,
//! `SysParams::COLL`): what `sb2sb nccom --mode rtl` runs collectives on.
//! The same target code runs on the golden system top ([`SysTop`], the
//! Verilated top's lockstep twin, no Verilated build needed):
//! [`SysTarget`] is generic over the [`SysMachine`] it clocks,
//! [`RtlSystemTarget`] and [`GoldenSystemTarget`] are its two machines.
//!
//! - Regions are read and written through the testbench backdoor of every
//!   core's SBUF ([`CoreMems`]), between two clock cycles.
//! - A batch's rdma legs become legs of the system environment
//!   ([`SysEnv::for_batches`]): the system's firmware, lowered to Q7 port
//!   operations and played by the one Q7-side AXI4-Lite master on every
//!   core's port, RX arming first, TX launching, both sides waiting for
//!   their semaphores and decrementing them. Legs of one TX core run in
//!   successive rounds (a core's queue-0 rings serve one leg at a time), a
//!   leg longer than a ring holds is cut into pieces of partitions; every
//!   round runs to completion before the next starts.
//! - A reducing leg lands in a receive slot of the RX core (the upper half
//!   of every partition, [`RtlSystemTarget::partition_bytes`] is the lower
//!   half) and is folded into its destination on the host with the
//!   datapath's `recv_reduce`, the kernel the system model's cycle mode
//!   runs on receive (the RTL has no reduce engine).
//! - A leg inside one core is [`local_leg`], as on the system model.
//! - Modeled time of a batch: the cycles of its rounds at the core clock
//!   (`clock::cycles_to_ps`) plus the firmware step cost
//!   (`system::timing::step_ns`) the system model adds; its one-core legs
//!   as on the system model.
//! - Engine registers are host-side ([`RegFile`], as on every target: the
//!   cores have no engine register file); semaphores are read through the
//!   debug port after every batch; a host semaphore update (an
//!   instruction's EVENTS) is a SEM_INCR or SEM_DECR write of the difference
//!   by the core's Q7 on its port.

use sb2sb_model::datapath::reduce::recv_reduce;
use sb2sb_model::isa::{Arch, Events};
use sb2sb_model::lower::system_target::{
    leg_engines, leg_partitions, local_leg, pieces, round_sems, rounds, sem_after, slot_base, Piece,
};
use sb2sb_model::lower::target::{
    check_batch, check_core, legs_per_core, Leg, LegReport, RegFile, Region,
};
use sb2sb_model::lower::{Target, TargetError};
use sb2sb_model::pair::sys_stim::{SysEnv, SysLeg};
use sb2sb_model::pair::system::{field, SysIn, SysOut, SysParams, SysTop, BLOCK_COLL, SYS_CORES};
use sb2sb_model::ports::{CycleModel, Stimulus};
use sb2sb_model::system::{map, timing};

use crate::core_mems::CoreMems;
use crate::rtl::{RtlDut, XInit};

/// Cycles one round of legs may take before the run is declared stuck
/// (a leg of 128 partitions × 8 KiB takes about 40,000).
const ROUND_LIMIT: u64 = 20_000_000;

/// Instance path of core `c`'s memories in the backdoor's names.
fn core_prefix(c: usize) -> String {
    format!("TOP.sb2sb_system.gen_core[{c}].u_core.gen_mem[")
}

fn err(e: impl std::fmt::Display) -> TargetError {
    TargetError::System(format!("rtl: {e}"))
}

/// A system top a [`SysTarget`] clocks, with a backdoor to every core's
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

/// A 4-core system top as a lowering target, on machine `M`.
pub struct SysTarget<M: SysMachine> {
    arch: Arch,
    p: SysParams,
    m: M,
    env: SysEnv,
    out: Option<SysOut>,
    cycle: u64,
    regs: RegFile,
    sems: Vec<[i32; 256]>,
    /// Rounds of legs run so far.
    pub rounds: u64,
    /// Clock cycles of those rounds.
    pub round_cycles: u64,
}

/// The Verilated system top (block `system_coll`) as a lowering target.
pub type RtlSystemTarget = SysTarget<RtlSys>;

/// The golden system top at `SysParams::COLL` as a lowering target: the
/// Verilated target's lockstep twin, with the same environment and rounds.
pub type GoldenSystemTarget = SysTarget<SysTop>;

impl RtlSystemTarget {
    /// The Verilated system top, reset, every SBUF and descriptor RAM
    /// cleared, every core's set-up program run.
    pub fn new(arch: Arch) -> Result<Self, TargetError> {
        let p = SysParams::COLL;
        Self::on(arch, p, RtlSys::new(p)?)
    }
}

impl GoldenSystemTarget {
    /// The golden system top at `SysParams::COLL`, reset, every core's
    /// set-up program run.
    pub fn golden(arch: Arch) -> Result<Self, TargetError> {
        let p = SysParams::COLL;
        Self::on(arch, p, SysTop::new(p))
    }
}

impl<M: SysMachine> SysTarget<M> {
    /// The target on machine `m` (parameters `p`): every SBUF and
    /// descriptor RAM cleared, reset, every core's set-up program run.
    pub fn on(arch: Arch, p: SysParams, m: M) -> Result<Self, TargetError> {
        let mut t = Self {
            arch,
            p,
            m,
            env: SysEnv::for_batches(p),
            out: None,
            cycle: 0,
            regs: RegFile::new(arch, SYS_CORES),
            sems: vec![[0; 256]; SYS_CORES],
            rounds: 0,
            round_cycles: 0,
        };
        for c in 0..SYS_CORES {
            t.m.clear(c)?;
        }
        t.run_until_idle()?;
        t.read_sems();
        Ok(t)
    }

    /// Clock the system with the environment until every queued batch has
    /// completed; the cycles it took.
    fn run_until_idle(&mut self) -> Result<u64, TargetError> {
        let start = self.cycle;
        loop {
            let i = self.env.next(self.cycle, self.out.as_ref());
            self.out = Some(self.m.step(&i));
            self.cycle += 1;
            if self.env.idle() {
                break;
            }
            if self.cycle - start > ROUND_LIMIT {
                return Err(err(format!(
                    "a round of legs did not complete in {ROUND_LIMIT} cycles"
                )));
            }
        }
        if let Some(m) = self.env.failure() {
            return Err(err(m));
        }
        if let Some(o) = &self.out {
            if o.route_err_o != 0 || o.err_irq_o != 0 || o.sem_err_o != 0 {
                return Err(err(format!(
                    "error flags: route_err {:#x}, err_irq {:#x}, sem_err {:#x}",
                    o.route_err_o, o.err_irq_o, o.sem_err_o
                )));
            }
        }
        Ok(self.cycle - start)
    }

    /// Every core's semaphores through the debug port (one index per cycle,
    /// the system idle).
    fn read_sems(&mut self) {
        for s in 0..=255u8 {
            let mut i = SysIn {
                rst_ni: 1,
                ..SysIn::default()
            };
            for c in 0..SYS_CORES {
                i.dbg_sem_idx_i |= u64::from(s) << (8 * c);
            }
            let o = self.m.step(&i);
            self.cycle += 1;
            for c in 0..SYS_CORES {
                self.sems[c][usize::from(s)] = field(&o.dbg_sem_o, c, 32) as u32 as i32;
            }
            self.out = Some(o);
        }
    }

    fn check_core(&self, core: usize) -> Result<(), TargetError> {
        check_core(core, SYS_CORES)
    }

    /// A region must lie in the visible lower half of the partitions.
    fn check_region(&self, r: &Region) -> Result<(), TargetError> {
        r.check(SYS_CORES, self.partition_bytes())
    }

    /// Bytes `off..off + len` of partition `part` of core `c` (any offset
    /// of the SBUF window).
    fn row(&self, c: usize, part: u32, off: u64, len: u64) -> Result<Vec<u8>, TargetError> {
        let a = u64::from(part) * u64::from(self.p.core.sbuf_part_bytes) + off;
        let (w0, w1) = (a / 8, (a + len).div_ceil(8));
        let mut words = vec![0u64; (w1 - w0) as usize];
        self.m.read_words(c, w0 as usize, &mut words)?;
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let s = (a - 8 * w0) as usize;
        Ok(bytes[s..s + len as usize].to_vec())
    }

    /// Store `data` at byte `off` of partition `part` of core `c`.
    fn set_row(&mut self, c: usize, part: u32, off: u64, data: &[u8]) -> Result<(), TargetError> {
        let a = u64::from(part) * u64::from(self.p.core.sbuf_part_bytes) + off;
        let (w0, w1) = (a / 8, (a + data.len() as u64).div_ceil(8));
        let mut words = vec![0u64; (w1 - w0) as usize];
        self.m.read_words(c, w0 as usize, &mut words)?;
        let mut bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let s = (a - 8 * w0) as usize;
        bytes[s..s + data.len()].copy_from_slice(data);
        for (w, b) in words.iter_mut().zip(bytes.chunks_exact(8)) {
            *w = u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
        }
        self.m.write_words(c, w0 as usize, &words)
    }

    /// The rdma legs of a batch cut into pieces a round carries (both
    /// sides inside the visible part of the partitions).
    fn pieces(&self, legs: &[Leg]) -> Result<Vec<Piece>, TargetError> {
        for l in legs {
            if l.src.partitions == 0 || l.src.bytes == 0 || l.src.core == l.dst.core {
                continue;
            }
            self.check_region(&l.src)?;
            self.check_region(&l.dst)?;
        }
        debug_assert_eq!(leg_partitions(&self.p.core), self.env.leg_partitions());
        pieces(legs, self.env.leg_partitions()).map_err(|e| match e {
            TargetError::System(m) => err(m),
            e => e,
        })
    }

    /// The environment's legs of a round: the engines of `leg_engines`,
    /// the semaphores of `round_sems` (the j-th leg into a core completes
    /// on `LEG_REMOTE_SEM − 2j`).
    fn sys_legs(&self, round: &[(Piece, u64)]) -> Result<Vec<SysLeg>, TargetError> {
        let wb = u64::from(self.p.core.sbuf_win_base);
        let mut legs = Vec::with_capacity(round.len());
        for (&(pc, land), (local_sem, remote_sem)) in round.iter().zip(round_sems(round, SYS_CORES))
        {
            let e = leg_engines(pc.parts, self.p.core.engines);
            let off = |o: u64| u32::try_from(wb + o).map_err(err);
            legs.push(SysLeg {
                tx: pc.tx,
                rx: pc.rx,
                mask: ((1u32 << e) - 1) as u16,
                part_start: pc.part as u8,
                part_count: pc.parts as u8,
                bytes: u32::try_from(pc.bytes).map_err(err)?,
                src_off: off(pc.src_off)?,
                dst_off: off(land)?,
                local_sem,
                remote_sem,
                bcast: false,
            });
        }
        Ok(legs)
    }

    /// Fold a reducing piece's receive slot into its destination.
    fn fold(&mut self, pc: &Piece, land: u64) -> Result<(), TargetError> {
        let Some((dtype, op)) = pc.reduce else {
            return Ok(());
        };
        for p in pc.part..pc.part + pc.parts {
            let src = self.row(pc.rx, p, land, pc.bytes)?;
            let mut dst = self.row(pc.rx, p, pc.dst_off, pc.bytes)?;
            recv_reduce(&mut dst, &src, dtype, op)?;
            self.set_row(pc.rx, p, pc.dst_off, &dst)?;
        }
        Ok(())
    }

    /// Run the rdma legs of a batch; the cycles of its rounds.
    fn run_rdma(&mut self, legs: &[Leg]) -> Result<u64, TargetError> {
        let pieces = self.pieces(legs)?;
        let mut cycles = 0;
        let (lo, hi) = (
            self.partition_bytes(),
            u64::from(self.p.core.sbuf_part_bytes),
        );
        for round in rounds(&pieces, lo, hi, SYS_CORES) {
            let sl = self.sys_legs(&round)?;
            self.env.push_batch(sl).map_err(err)?;
            cycles += self.run_until_idle()?;
            self.rounds += 1;
            for (pc, land) in &round {
                self.fold(pc, *land)?;
            }
        }
        self.round_cycles += cycles;
        Ok(cycles)
    }
}

impl<M: SysMachine> Target for SysTarget<M> {
    fn arch(&self) -> Arch {
        self.arch
    }

    fn cores(&self) -> usize {
        SYS_CORES
    }

    /// The lower half of each partition; the upper half holds the receive
    /// slots of reducing legs.
    fn partition_bytes(&self) -> u64 {
        slot_base(&self.p.core)
    }

    fn write(
        &mut self,
        core: usize,
        partition: u32,
        offset: u64,
        data: &[u8],
    ) -> Result<(), TargetError> {
        self.check_region(&Region {
            core,
            partition,
            partitions: 1,
            offset,
            bytes: data.len() as u64,
        })?;
        self.set_row(core, partition, offset, data)
    }

    fn read(
        &self,
        core: usize,
        partition: u32,
        offset: u64,
        len: u64,
    ) -> Result<Vec<u8>, TargetError> {
        self.check_region(&Region {
            core,
            partition,
            partitions: 1,
            offset,
            bytes: len,
        })?;
        self.row(core, partition, offset, len)
    }

    fn reg_write(&mut self, core: usize, reg: u8, value: u64) -> Result<(), TargetError> {
        self.regs.write(core, reg, value)
    }

    fn reg_read(&self, core: usize, reg: u8) -> Result<u64, TargetError> {
        self.regs.read(core, reg)
    }

    fn sem(&self, core: usize, idx: u8) -> Result<i32, TargetError> {
        self.check_core(core)?;
        Ok(self.sems[core][usize::from(idx)])
    }

    fn sem_update(&mut self, core: usize, ev: &Events) -> Result<(), TargetError> {
        let cur = self.sem(core, ev.update_idx)?;
        let new = sem_after(cur, ev);
        let d = i64::from(new) - i64::from(cur);
        if d == 0 {
            return Ok(());
        }
        let (off, v) = if d > 0 {
            (map::sem_incr_offset(ev.update_idx), d)
        } else {
            (map::sem_decr_offset(ev.update_idx), -d)
        };
        let v = u32::try_from(v).map_err(err)?;
        self.env.push_writes(core, vec![(off, v)]).map_err(err)?;
        self.run_until_idle()?;
        self.read_sems();
        Ok(())
    }

    fn run_legs(&mut self, legs: &[Leg]) -> Result<LegReport, TargetError> {
        check_batch(legs)?;
        let fw = timing::step_ns(legs_per_core(legs));
        let cycles = self.run_rdma(legs)?;
        self.read_sems();
        let mut rep = LegReport {
            legs: 0,
            bytes: 0,
            modeled_ns: sb2sb_model::clock::cycles_to_ps(cycles).div_ceil(1000) + fw,
        };
        // counted as the system model counts them: every non-empty rdma
        // leg, every one-core leg
        for l in legs {
            if l.src.core == l.dst.core {
                let t = local_leg(self, l)?;
                rep.legs += 1;
                rep.bytes += l.src.total();
                rep.modeled_ns = rep.modeled_ns.max(t + fw);
            } else if l.src.partitions > 0 && l.src.bytes > 0 {
                rep.legs += 1;
                rep.bytes += l.src.total();
            }
        }
        Ok(rep)
    }
}
