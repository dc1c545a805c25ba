//! One NeuronCore of the system model: SBUF, descriptor RAM, the EVT_SEM
//! golden model (the single source of semaphore state in both execution
//! modes), the program_window remapper and the golden UDMA engines ([`crate::pair::Engine`]), built at the
//! system's [`CoreParams`] (16 engines by default).
//!
//! The engines' register files ([`crate::udma::regfile::RegFile`]) are the
//! one copy of the UDMA register state of the system model: every CSR access
//! ([`SystemCore::udma_write`], [`SystemCore::udma_read`]) is one AXI4-Lite transaction
//! through the golden register file's own adapter, so the system model and
//! the golden engine (and, by the lockstep, the RTL) cannot disagree about
//! what a CSR write does. [`QueueState`] is a read-only view of one queue's
//! registers; [`QueueMut`] is fast mode's stand-in for the FSM events that
//! move head, completion head and counters (fast mode does not clock the
//! golden FSMs; cycle mode does, [`super::cycle`]).

use crate::addr::WindowRemapper;
use crate::evt_sem::regs::{EVT_SEM_FULL_STRB, EVT_SEM_RESP_OKAY, EVT_SEM_WAIT_SEM_GE_DEC};
use crate::evt_sem::{EvtSem, EvtSemIn};
use crate::pair::Engine;
use crate::ports::CycleModel;
use crate::udma::desc::RingPos;
use crate::udma::regfile::{QueueRegs, SideEv};
use crate::udma::regs::*;

use super::mem::{Sbuf, SparseMem};
use super::q7_master::AxilMaster;
use super::topology::{CoreId, CoreLoc, DMA_ENGINES, DMA_QUEUES};
use super::SystemError;
use crate::pair::core::{Glue, Straps};
use crate::pair::CoreParams;

/// AXI4-Lite handshakes give up after this many cycles (a model bug, never a hang).
const AXI_MAX_CYCLES: u32 = 64;

/// Read-only view of the registers of one UDMA queue (one direction),
/// PUBLIC-FACTS §1, taken from the golden register file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub struct QueueState {
    /// `cfg` (EN_PREF bit 16, EN_SCHEDULING/EN_STREAM bit 17).
    pub cfg: u32,
    /// Ring base (`*DRBP_LOW/HIGH`, low bits masked as the register holds them), a routed SoC address.
    pub rbp: u64,
    /// Ring length in descriptors (`*DRL`).
    pub rl: u32,
    /// Head pointer (`*DRHP`): next descriptor the engine fetches.
    #[serde(serialize_with = "ser_pos")]
    pub head: RingPos,
    /// Tail pointer (`*DRTP`): advanced by the doorbell.
    #[serde(serialize_with = "ser_pos")]
    pub tail: RingPos,
    /// S2M `comp_cfg` (bit 0 EN_COMP_RING_UPDATE).
    pub comp_cfg: u32,
    /// Completion ring base (`*CRBP_LOW/HIGH`), a routed SoC address.
    pub crbp: u64,
    /// Completion ring head (`*CRHP`): next completion slot and its ring id.
    #[serde(serialize_with = "ser_pos")]
    pub crhp: RingPos,
    /// Descriptors completed (`Q_DESC_DONE`).
    pub desc_done: u32,
    /// Bytes moved (`Q_BYTES`, a 32-bit counter).
    pub bytes: u64,
    /// The queue is stopped by an error (`Q_STATUS.STOPPED`).
    #[serde(skip)]
    pub stopped: bool,
    /// Sticky error causes of the queue (`Q_ERR`).
    #[serde(skip)]
    pub err: u32,
}

fn ser_pos<S: serde::Serializer>(p: &RingPos, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u32(pack_pos(*p))
}

/// Pack a ring position as the pointer registers hold it: offset `[23:0]`, ring id `[31:30]`.
pub const fn pack_pos(p: RingPos) -> u32 {
    p.reg()
}

impl QueueState {
    /// The view of one golden queue register set.
    pub fn of(r: &QueueRegs) -> Self {
        Self {
            cfg: r.cfg,
            rbp: r.ring_base(),
            rl: r.rl,
            head: r.head,
            tail: r.tail,
            comp_cfg: r.comp_cfg,
            crbp: r.comp_base(),
            crhp: r.crhp,
            desc_done: r.done,
            bytes: u64::from(r.bytes),
            stopped: r.stopped,
            err: r.err,
        }
    }

    fn regs(&self) -> QueueRegs {
        QueueRegs {
            rl: self.rl,
            head: self.head,
            tail: self.tail,
            ..QueueRegs::default()
        }
    }

    /// Descriptors between head and tail (the golden `used`).
    pub fn pending(&self) -> u32 {
        self.regs().used()
    }

    /// Free slots for the submitter (one slot is kept free, PUBLIC-FACTS §1; the golden `free`).
    pub fn free(&self) -> u32 {
        self.regs().free()
    }
}

/// Fast mode's write access to one queue: a copy of its view that, when
/// dropped, stores the fields the engine FSMs own (head, completion head,
/// descriptor and byte counters, stop/error) back into the golden register
/// file — what the golden FSM events `head_adv`, `crhp_adv`, `done_inc`,
/// `bytes_add` do in cycle mode. CSR-owned fields (cfg, bases, RL, tail)
/// change only through [`SystemCore::udma_write`].
#[derive(Debug)]
pub struct QueueMut<'a> {
    regs: &'a mut QueueRegs,
    view: QueueState,
}

impl core::ops::Deref for QueueMut<'_> {
    type Target = QueueState;
    fn deref(&self) -> &QueueState {
        &self.view
    }
}

impl core::ops::DerefMut for QueueMut<'_> {
    fn deref_mut(&mut self) -> &mut QueueState {
        &mut self.view
    }
}

impl Drop for QueueMut<'_> {
    fn drop(&mut self) {
        let (r, v) = (&mut *self.regs, &self.view);
        debug_assert!(
            v.cfg == r.cfg && v.rl == r.rl && v.tail == r.tail && v.rbp == r.ring_base(),
            "QueueMut changed a CSR-owned field (cfg/rbp/rl/tail): use SystemCore::udma_write"
        );
        r.head = v.head;
        r.crhp = v.crhp;
        r.done = v.desc_done;
        r.bytes = v.bytes as u32;
        r.stopped = v.stopped;
        r.err = v.err;
    }
}

/// One core of the system model: its golden engines, EVT_SEM and memories,
/// the golden composition around them ([`SystemCore::hw`]), and its Q7's own
/// state (windows, pre-sync flag, completion-poll positions). Named apart
/// from `pair::core::Core`, the two-core pair's golden core, which holds
/// its memories as word arrays.
#[derive(Debug, Clone)]
pub struct SystemCore {
    /// Global id.
    pub id: CoreId,
    /// Position.
    pub loc: CoreLoc,
    /// State Buffer.
    pub sbuf: Sbuf,
    /// Descriptor RAM (rings and the semaphore constant).
    pub desc: SparseMem,
    /// EVT_SEM golden model.
    pub evt: EvtSem,
    /// program_window remapper of this core's Q7.
    pub windows: WindowRemapper,
    /// The golden DMA engines (`CoreParams::engines` of the system's core);
    /// `engines[e].regs` is engine e's CSR state.
    pub engines: Vec<Engine>,
    /// EVT_SEM cycles stepped (increments, waits, AXI accesses).
    pub evt_cycles: u64,
    /// `sb2sb_ready_to_receive_remote` of this core's RX Q7 (seed 001 §2.5
    /// pre-sync): a Q7-local variable, written only by
    /// [`SystemCore::q7_local`] (set by `rdma_desc_gen` after
    /// program_window, cleared when `rdma_desc_start` arms the S2M ring).
    ready_to_receive_remote: u32,
    /// This core's TX Q7 completion-poll state per (engine, queue) ([`super::comp`]).
    pub comp_poll: [[super::comp::CompPoll; DMA_QUEUES as usize]; DMA_ENGINES as usize],
    /// The golden core composition around [`SystemCore::engines`], [`SystemCore::evt`],
    /// [`SystemCore::sbuf`] and [`SystemCore::desc`] (`pair::core`, the twin of
    /// `rtl/sb2sb_core.sv` at the system's `CoreParams`): CME-COPY loops, the
    /// interconnect with its three decoders, the SRAM FSMs and the Q7 port.
    /// Cycle mode clocks it ([`super::cycle`]); fast mode never does.
    pub hw: Glue,
}

impl SystemCore {
    /// A core after reset with parameters `p` (its engines, SBUF window,
    /// descriptor RAM; `System::with_core` checks them): no SBUF allocated
    /// (`bytes_per_partition` addressable per partition), both sides of
    /// every engine still in their reset state until the boot firmware's
    /// [`super::firmware::engine_normal`] writes reach them
    /// ([`super::System::with_core`] runs them). `chip` is the composition's
    /// chip strap (docs/system.md "Cycle mode").
    pub fn new(
        id: CoreId,
        loc: CoreLoc,
        bytes_per_partition: u32,
        p: &CoreParams,
        chip: u64,
    ) -> Self {
        let mut hw = Glue::of(p);
        hw.set_straps(Straps {
            die: u64::from(loc.die),
            chip,
            core_idx: u64::from(loc.core),
        });
        Self {
            id,
            loc,
            sbuf: Sbuf::new(bytes_per_partition),
            desc: SparseMem::default(),
            evt: EvtSem::new(),
            windows: WindowRemapper::new(),
            engines: vec![Engine::new(); p.engines],
            evt_cycles: 0,
            ready_to_receive_remote: 0,
            comp_poll: Default::default(),
            hw,
        }
    }

    /// The pre-sync flag `sb2sb_ready_to_receive_remote` of this core's Q7.
    pub fn ready_to_receive_remote(&self) -> u32 {
        self.ready_to_receive_remote
    }

    /// Apply a Q7-local step of a program run by this core's Q7 (one that
    /// makes no access on a port): the one writer of the Q7's own variables.
    /// Returns `false` for a step that is not Q7-local.
    pub(crate) fn q7_local(&mut self, step: &super::firmware::Q7Step) -> bool {
        match step {
            super::firmware::Q7Step::ReadyFlag { value } => {
                self.ready_to_receive_remote = *value;
                true
            }
            _ => false,
        }
    }

    fn evt_step(&mut self, i: &EvtSemIn) -> crate::evt_sem::EvtSemOut {
        self.evt_cycles += 1;
        self.evt.step(i)
    }

    /// Hardware increment ports (one per DMA engine): every `(port, sem, value)`
    /// lands in one EVT_SEM cycle.
    pub fn sem_inc(&mut self, incs: &[(usize, u8, i32)]) {
        let mut i = EvtSemIn::idle();
        for &(p, idx, v) in incs {
            i.set_inc(p, idx, v);
        }
        self.evt_step(&i);
    }

    /// One AXI4-Lite write into the EVT_SEM window (byte offset `off`).
    pub fn evt_write(&mut self, off: u32, data: u32) -> Result<(), SystemError> {
        self.evt_axil(AxilMaster::write(off, data)).map(|_| ())
    }

    /// One AXI4-Lite read of the EVT_SEM window.
    pub fn evt_read(&mut self, off: u32) -> Result<u32, SystemError> {
        self.evt_axil(AxilMaster::read(off))
    }

    /// One transaction of the Q7-side master ([`AxilMaster`]) on the EVT_SEM
    /// golden model's AXI4-Lite port; a non-OKAY response is a typed error.
    fn evt_axil(&mut self, m: AxilMaster) -> Result<u32, SystemError> {
        let off = m.addr;
        let r = m.run(AXI_MAX_CYCLES, |a| {
            let mut i = EvtSemIn::idle();
            i.s_axil_awaddr = u64::from(a.awaddr);
            i.s_axil_awvalid = a.awvalid.into();
            i.s_axil_wdata = u64::from(a.wdata);
            i.s_axil_wstrb = u64::from(a.wstrb & EVT_SEM_FULL_STRB);
            i.s_axil_wvalid = a.wvalid.into();
            i.s_axil_bready = a.bready.into();
            i.s_axil_araddr = u64::from(a.araddr);
            i.s_axil_arvalid = a.arvalid.into();
            i.s_axil_rready = a.rready.into();
            crate::axil_out_of!(self.evt_step(&i))
        });
        match r {
            Some((resp, data)) if resp == EVT_SEM_RESP_OKAY => Ok(data),
            Some((resp, _)) => Err(SystemError::EvtSemResp {
                core: self.id.0,
                offset: off,
                resp: resp as u8,
            }),
            None => Err(SystemError::EvtSemResp {
                core: self.id.0,
                offset: off,
                resp: 0xFF,
            }),
        }
    }

    /// One cycle of wait port 0 in "wait ≥ target then decrement" mode
    /// (add_semaphore_wait_ge_and_dec, seed 001 §5.2). `true` when satisfied
    /// (the decrement lands at the edge).
    pub fn sem_wait_ge_dec(&mut self, sem: u8, target: i32) -> bool {
        let mut i = EvtSemIn::idle();
        i.set_wait(0, EVT_SEM_WAIT_SEM_GE_DEC as u8, sem, target);
        let o = self.evt_step(&i);
        o.wait_done_o & 1 == 1
    }

    /// View of queue `queue` of `engine`, `side` (0 = M2S, 1 = S2M).
    pub fn queue(&self, engine: u8, queue: u8, side: u8) -> QueueState {
        QueueState::of(
            &self.engines[usize::from(engine)].regs.side[usize::from(side)].q[usize::from(queue)],
        )
    }

    /// Fast mode's FSM-event access to a queue ([`QueueMut`]).
    pub fn queue_mut(&mut self, engine: u8, queue: u8, side: u8) -> QueueMut<'_> {
        let regs = &mut self.engines[usize::from(engine)].regs.side[usize::from(side)].q
            [usize::from(queue)];
        let view = QueueState::of(regs);
        QueueMut { regs, view }
    }

    /// One AXI4-Lite transaction on the CSR port of golden engine `engine`'s
    /// register file (its own adapter and access decode; the FSMs raise no
    /// event meanwhile). Returns the read data of a read; SLVERR is a typed error.
    fn udma_axil(
        &mut self,
        engine: u8,
        offset: u32,
        write: Option<u32>,
    ) -> Result<u32, SystemError> {
        let core = self.id.0;
        let err = |rule| SystemError::Csr {
            core,
            engine,
            offset,
            rule,
        };
        let u = self
            .engines
            .get_mut(usize::from(engine))
            .ok_or(err("no such engine (CoreParams::engines per core)"))?;
        let m = match write {
            Some(d) => AxilMaster::write(offset, d),
            None => AxilMaster::read(offset),
        };
        let idle = [SideEv::default(); 2];
        // The register file's outputs are registered: this cycle's outputs,
        // then the edge with this cycle's drive.
        let r = m.run(AXI_MAX_CYCLES, |i| {
            let o = u.regs.csr_out();
            let stat = u.stats();
            u.regs.update(i, &idle, &stat);
            o
        });
        match r {
            Some((AXI_RESP_OKAY, data)) => Ok(if write.is_some() { 0 } else { data }),
            Some(_) if write.is_some() => Err(err("SLVERR: not a writable register of the golden UDMA register file (sticky CSR error set)")),
            Some(_) => Err(err("SLVERR: not a readable register of the golden UDMA register file (sticky CSR error set)")),
            None => Err(err("AXI4-Lite transaction did not complete")),
        }
    }

    /// A 32-bit CSR write to UDMA engine `engine`: one AXI4-Lite write
    /// through the golden register file. A doorbell past the free space is
    /// answered OKAY and, as in the golden/RTL, sets the sticky DB_OVERFLOW
    /// bit and stops the queue (the host API refuses it first, see
    /// `SystemState::ring_doorbell`).
    pub fn udma_write(&mut self, engine: u8, offset: u32, data: u32) -> Result<(), SystemError> {
        self.udma_axil(engine, offset, Some(data)).map(|_| ())
    }

    /// A 32-bit CSR read of UDMA engine `engine` (one AXI4-Lite read through
    /// the golden register file).
    pub fn udma_read(&mut self, engine: u8, offset: u32) -> Result<u32, SystemError> {
        self.udma_axil(engine, offset, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evt_sem::regs::EVT_SEM_SEM_INCR_BASE;
    use crate::udma::engine::Udma;

    /// Core 0 of a system after boot (its engines brought to NORMAL by the
    /// boot firmware), 1 KiB partitions.
    fn core() -> SystemCore {
        let t = super::super::Topology {
            sbuf_bytes_per_partition: 1024,
            ..super::super::Topology::trn2(1)
        };
        super::super::System::new(t)
            .unwrap()
            .st
            .cores
            .swap_remove(0)
    }

    #[test]
    fn evt_sem_axi_incr_and_wait_ge_dec() {
        let mut c = core();
        c.evt_write(EVT_SEM_SEM_INCR_BASE + 12 * 4, 3).unwrap();
        assert_eq!(c.evt.sem(12), 3);
        assert_eq!(c.evt_read(0x1000 + 12 * 4).unwrap(), 3);
        c.sem_inc(&[(0, 12, 1), (1, 12, 1)]);
        assert_eq!(c.evt.sem(12), 5);
        assert!(!c.sem_wait_ge_dec(12, 6));
        assert!(c.sem_wait_ge_dec(12, 5));
        assert_eq!(c.evt.sem(12), 0);
        assert!(c.evt_write(0x1000, 1).is_err(), "SEM_READ is read-only");
    }

    /// A register-level doorbell past the free space is what the golden/RTL
    /// make of it: answered OKAY, tail unchanged, sticky DB_OVERFLOW set, the
    /// queue stopped (Q_STATUS.STOPPED, Q_ERR). An S2M doorbell on a queue
    /// with no ring (RL = 0, free space 0) is the same overflow.
    #[test]
    fn doorbell_advances_tail_and_refuses_overflow() {
        let mut c = core();
        let q = q_addr(Side::M2s, 2, 0);
        c.udma_write(3, q + UDMA_Q_RL, 16).unwrap();
        c.udma_write(3, q + UDMA_Q_RTP_INC, 15).unwrap();
        assert_eq!(
            c.queue(3, 2, 0).tail,
            RingPos {
                offset: 15,
                ring_id: 1
            }
        );
        assert_eq!(c.queue(3, 2, 0).free(), 0);
        let db = 1 << UDMA_ERR_DB_OVERFLOW;
        assert_eq!(c.engines[3].regs.side[0].err_status & db, 0);
        c.udma_write(3, q + UDMA_Q_RTP_INC, 1).unwrap();
        assert_eq!(c.udma_read(3, q + UDMA_Q_RTP).unwrap(), 15 | 1 << 30);
        assert_eq!(c.engines[3].regs.side[0].err_status & db, db, "sticky");
        let st = c.udma_read(3, q + UDMA_Q_STATUS).unwrap();
        assert!(Q_STATUS_STOPPED.is_set(st), "queue stopped: {st:#x}");
        assert_eq!(c.udma_read(3, q + UDMA_Q_ERR).unwrap(), db);
        assert!(c.queue(3, 2, 0).stopped);
        // The other queues and the other side are untouched.
        assert!(!c.queue(3, 1, 0).stopped && !c.queue(3, 2, 1).stopped);
        assert_eq!(c.engines[3].regs.side[1].err_status, 0);
        // S2M ring not set up: free space 0, the doorbell overflows.
        c.udma_write(3, q_addr(Side::S2m, 2, UDMA_Q_RTP_INC), 1)
            .unwrap();
        assert_eq!(c.engines[3].regs.side[1].err_status, db);
        assert!(c.queue(3, 2, 1).stopped);
        assert_eq!(c.queue(3, 2, 1).tail, RingPos::default());
        // Not a register (no 17th queue): SLVERR is a typed error (and the sticky CSR bit).
        let bad = q_addr(Side::M2s, UDMA_NUM_QUEUES, UDMA_Q_RTP_INC);
        let e = c.udma_write(3, bad, 1).unwrap_err();
        assert!(
            matches!(e, SystemError::Csr { engine: 3, offset, .. } if offset == bad),
            "{e}"
        );
        assert_eq!(c.engines[3].regs.side[0].err_status, db | 1 << UDMA_ERR_CSR);
    }

    /// Drive a stand-alone golden engine's CSR port (its `s_axil_*` pins, as
    /// the pair environment does) with one write.
    fn golden_write(u: &mut Udma, addr: u32, data: u32) {
        use crate::udma::engine::UdmaIn;
        let mut i = UdmaIn {
            rst_ni: 1,
            s_axil_awaddr: u64::from(addr),
            s_axil_awvalid: 1,
            s_axil_wdata: u64::from(data),
            s_axil_wstrb: 0xF,
            s_axil_wvalid: 1,
            s_axil_bready: 1,
            ..UdmaIn::default()
        };
        for _ in 0..16 {
            let o = u.step(&i);
            if o.s_axil_awready == 1 {
                i.s_axil_awvalid = 0;
            }
            if o.s_axil_wready == 1 {
                i.s_axil_wvalid = 0;
            }
            if o.s_axil_bvalid == 1 {
                return;
            }
        }
        panic!("golden engine gave no B for {addr:#x}");
    }

    /// Issue 14.4: a CSR write through the system core and through the golden
    /// engine's own CSR port leave identical register state — RBP_LOW and
    /// CRBP_LOW keep only their writable bits, writing RL with descriptors
    /// pending moves no pointer, a doorbell past the free space sets the
    /// sticky bit and stops the queue, COMP_CFG keeps bit 0 only.
    #[test]
    fn csr_writes_through_the_core_equal_the_golden_register_file() {
        let mut c = core();
        let mut g = Udma::new();
        for side in [Side::M2s, Side::S2m] {
            golden_write(
                &mut g,
                eng_addr(side, UDMA_ENG_CHANGE_STATE),
                1 << UDMA_CHANGE_STATE_NORMAL_BIT,
            );
        }
        let q = |side, r| q_addr(side, 5, r);
        let writes = [
            (q(Side::M2s, UDMA_Q_RBP_LOW), 0xFFFF_FFFF),
            (q(Side::M2s, UDMA_Q_RBP_HIGH), 0x0000_0058),
            (q(Side::M2s, UDMA_Q_CFG), 0xFFFF_FFFF),
            (q(Side::M2s, UDMA_Q_RL), 8),
            (q(Side::M2s, UDMA_Q_RTP_INC), 5),
            (q(Side::M2s, UDMA_Q_RL), 6), // descriptors pending: no pointer moves
            (q(Side::M2s, UDMA_Q_RTP_INC), 3), // past the free space (6 − 1 − 5 = 0)
            (q(Side::S2m, UDMA_Q_CRBP_LOW), 0x1234_5677),
            (q(Side::S2m, UDMA_S2M_Q_COMP_CFG), 0xFFFF_FFFF),
            (q(Side::S2m, UDMA_Q_RL), 4),
            (q(Side::S2m, UDMA_Q_RTP_INC), 0x0100_0002), // bits above [23:0] ignored
        ];
        for (a, d) in writes {
            c.udma_write(7, a, d).unwrap();
            golden_write(&mut g, a, d);
            assert_eq!(
                c.engines[7].regs.side, g.regs.side,
                "after {a:#x} <- {d:#x}"
            );
        }
        let m = c.queue(7, 5, 0);
        assert_eq!(m.rbp, 0x58_0000_0000 | u64::from(Q_BASE_LOW.mask()));
        assert_ne!(m.rbp & 0xF, 0xF, "RBP_LOW low bits are not writable");
        assert_eq!((m.rl, m.tail.offset, m.head.offset), (6, 5, 0));
        assert!(m.stopped);
        assert_eq!(
            c.engines[7].regs.side[0].err_status,
            1 << UDMA_ERR_DB_OVERFLOW
        );
        let s = c.queue(7, 5, 1);
        assert_eq!((s.tail.offset, s.comp_cfg, s.stopped), (2, 1, false));
        assert_eq!(s.crbp, u64::from(0x1234_5677 & Q_BASE_LOW.mask()));
    }

    /// Seed 001 §4 / PUBLIC-FACTS §1: 16 M2S and 16 S2M queues, the doorbell of
    /// queue q at 0x1000 + q·0x1000 + 0x38 of each side, a 24-bit value.
    #[test]
    fn seed001_s4_doorbell_of_each_of_16_queues_takes_a_24_bit_value() {
        let mut c = core();
        for side in 0..2u8 {
            let base = if side == 0 { 0 } else { 0x2_0000 };
            for q in 0..16u32 {
                let qreg = base + 0x1000 + q * 0x1000;
                c.udma_write(1, qreg + 0x30, 1 << 23).unwrap(); // RL
                assert_eq!(c.queue(1, q as u8, side).rl, 1 << 23);
                // Bits above [23:0] of the doorbell value are ignored: 0x0100_0005 → +5.
                c.udma_write(1, qreg + 0x38, 0x0100_0005).unwrap();
                assert_eq!(
                    c.queue(1, q as u8, side).tail.offset,
                    5,
                    "side {side} q {q}"
                );
                c.udma_write(1, qreg + 0x38, 0xFF_FFFF & 7).unwrap();
                assert_eq!(c.queue(1, q as u8, side).tail.offset, 12);
                // The other 31 queues are untouched.
                let others: u32 = (0..16u8)
                    .flat_map(|k| [(k, 0u8), (k, 1u8)])
                    .filter(|&(k, s)| (k, s) != (q as u8, side))
                    .map(|(k, s)| c.queue(1, k, s).tail.offset)
                    .sum();
                assert_eq!(others, 12 * (u32::from(side) * 16 + q), "aliasing");
            }
        }
        // There is no 17th queue: 0x1000 + 16·0x1000 + 0x38 is not a queue register.
        assert!(c.udma_write(1, 0x1000 + 16 * 0x1000 + 0x38, 1).is_err());
        assert_eq!(UDMA_NUM_QUEUES, 16);
        assert_eq!(UDMA_Q_RTP_INC, 0x38);
        assert_eq!(UDMA_PTR_OFFSET_WIDTH, 24);
    }
}
