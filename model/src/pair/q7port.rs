//! Golden model of `rtl/sb2sb_q7_port.sv`: the Q7 AXI4-Lite port of a core,
//! demultiplexed onto the UDMA and EVT_SEM CSR ports and a single-beat
//! memory store master into the interconnect, and the broadcast doorbell
//! (seed 001 §4.4): per queue and side a MASK register and a TAIL_INC
//! trigger that writes its value into the RTP_INC doorbell of that queue of
//! every engine of the mask, lowest engine first (response: the first
//! non-OKAY one). Outputs depend on the registered state only.

use crate::system::map;
use crate::udma::regs::UDMA_CSR_ADDR_WIDTH;
// The Q7's AXI4-Lite bundle is the one of the register blocks: `AxilIn` the
// Q7 master's outputs (pair inputs), `AxilOut` the port's outputs towards the
// Q7 and the CSR targets' outputs.
use crate::regs::axil::{AxilIn, AxilOut};
use crate::udma::regs::{
    UDMA_M2S_BASE, UDMA_NUM_QUEUES, UDMA_Q_ARRAY_BASE, UDMA_Q_RTP_INC, UDMA_Q_STRIDE, UDMA_S2M_BASE,
};

/// Q7 port FSM states: `qst_e` of `rtl/sb2sb_q7_port.sv`, same names and
/// encoding (the debug port carries the number).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[repr(u8)]
enum Q7State {
    #[default]
    Idle = 0,
    WaitW = 1,
    WaitAw = 2,
    WFwd = 3,
    WResp = 4,
    Back = 5,
    RFwd = 6,
    RResp = 7,
    RBack = 8,
    BcFwd = 9,
    BcResp = 10,
}

/// Drive of the CSR targets (shared address/data, per-target valids).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CsrDrive {
    pub awaddr: u64,
    pub araddr: u64,
    pub wdata: u64,
    pub wstrb: u64,
    /// Target index whose valid/ready lines are driven (`None`: none).
    pub tgt: Option<usize>,
    pub awvalid: bool,
    pub wvalid: bool,
    pub bready: bool,
    pub arvalid: bool,
    pub rready: bool,
}

/// Drive of the memory store master: a 32-bit narrow write on the core's
/// data bus (the word on every 32-bit lane, strobed on its address's lane).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MemDrive {
    pub awaddr: u64,
    pub awvalid: bool,
    pub wdata: crate::udma::beat::Beat,
    pub wstrb: u64,
    pub wvalid: bool,
    pub bready: bool,
}

/// Responses of the interconnect to the memory store master.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MemResp {
    pub awready: bool,
    pub wready: bool,
    pub bresp: u64,
    pub bvalid: bool,
}

/// The CSR targets' outputs this cycle (the UDMA engines `0..engines`,
/// then the EVT_SEM). [`Q7Port::update`] reads only the target its outputs
/// drive ([`CsrDrive::tgt`]), so a view may hold just that one.
pub trait CsrTargets {
    /// Target `k`'s AXI4-Lite slave outputs.
    fn target(&self, k: usize) -> AxilOut;
}

impl CsrTargets for [AxilOut] {
    #[inline(always)]
    fn target(&self, k: usize) -> AxilOut {
        self[k]
    }
}

/// The port registers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Q7Port {
    pub engines: usize,
    pub self_die: u64,
    pub core_idx: u64,
    state: Q7State,
    pref: bool,
    addr: u32,
    data: u32,
    strb: u32,
    awp: bool,
    wp: bool,
    resp: u32,
    /// Target of `addr` ([`Self::decode_tgt`]), decoded once when `addr` is
    /// captured (model-only: the RTL's combinational decode of `addr_q`).
    tgt_q: u8,
    /// Broadcast masks per (queue, side).
    bmask: [[u16; 2]; UDMA_NUM_QUEUES as usize],
    /// Engines of the trigger in flight still to ring.
    bpend: u16,
}

/// Decoded broadcast register of an address inside the block.
struct BcReg {
    queue: usize,
    side: usize,
    trigger: bool,
    aligned: bool,
}

impl Q7Port {
    pub fn new(engines: usize, self_die: u64, core_idx: u64) -> Self {
        Self {
            engines,
            self_die,
            core_idx,
            state: Q7State::Idle,
            pref: false,
            addr: 0,
            data: 0,
            strb: 0,
            awp: false,
            wp: false,
            resp: 0,
            tgt_q: Self::decode_tgt(engines, 0) as u8,
            bmask: [[0; 2]; UDMA_NUM_QUEUES as usize],
            bpend: 0,
        }
    }

    /// The broadcast MASK register of (`queue`, `side`) (0 M2S / 1 S2M).
    pub fn bcast_mask(&self, queue: u8, side: u8) -> u16 {
        self.bmask[usize::from(queue)][usize::from(side)]
    }

    /// Write the broadcast MASK register of (`queue`, `side`): what an
    /// OKAY MASK write through the port leaves (fast mode applies the write
    /// here, where the port keeps it).
    pub fn set_bcast_mask(&mut self, queue: u8, side: u8, mask: u16) {
        self.bmask[usize::from(queue)][usize::from(side)] = mask;
    }

    /// No transaction in flight.
    pub fn idle(&self) -> bool {
        self.state == Q7State::Idle
    }

    fn t_bc(&self) -> usize {
        self.engines + 3
    }

    fn bc_reg(&self) -> BcReg {
        let off = self.addr.wrapping_sub(map::CORE_BCAST_BASE as u32) & 0xFF;
        BcReg {
            queue: (off >> 4 & 0xF) as usize,
            side: (off >> 3 & 1) as usize,
            trigger: off >> 2 & 1 == 1,
            aligned: off & 3 == 0,
        }
    }

    /// The engine the trigger in flight rings next (lowest pending).
    fn bc_engine(&self) -> usize {
        if self.bpend == 0 {
            0
        } else {
            self.bpend.trailing_zeros() as usize
        }
    }

    /// The RTP_INC doorbell (18-bit engine CSR offset) of the broadcast register's queue.
    fn bc_addr(&self) -> u64 {
        let r = self.bc_reg();
        let base = if r.side == 1 {
            UDMA_S2M_BASE
        } else {
            UDMA_M2S_BASE
        };
        u64::from(
            (base + UDMA_Q_ARRAY_BASE + r.queue as u32 * UDMA_Q_STRIDE + UDMA_Q_RTP_INC) & 0x3FFFF,
        )
    }

    fn reset(&mut self) {
        *self = Self::new(self.engines, self.self_die, self.core_idx);
    }

    fn t_mem(&self) -> usize {
        self.engines + 1
    }

    fn t_err(&self) -> usize {
        self.engines + 2
    }

    /// Target of the captured address (0..engines: UDMA, engines: EVT_SEM,
    /// engines+1: memory, engines+2: error, engines+3: broadcast block):
    /// the decode of `addr` held in `tgt_q`.
    #[inline(always)]
    fn tgt(&self) -> usize {
        usize::from(self.tgt_q)
    }

    /// Capture `a` into the address register (and its decoded target).
    #[inline(always)]
    fn set_addr(&mut self, a: u32) {
        self.addr = a;
        self.tgt_q = Self::decode_tgt(self.engines, a) as u8;
    }

    /// The target decode of address `a` for a core of `engines` engines
    /// (the RTL's `tgt` of `addr_q`).
    pub(super) fn decode_tgt(engines: usize, a: u32) -> usize {
        let a64 = u64::from(a);
        let udma_end = map::CORE_UDMA_BASE + ((engines as u64) << UDMA_CSR_ADDR_WIDTH);
        if (map::CORE_EVT_SEM_BASE..map::CORE_EVT_SEM_BASE + map::CORE_EVT_SEM_BYTES).contains(&a64)
        {
            engines
        } else if (map::CORE_UDMA_BASE..udma_end).contains(&a64) {
            ((a64 - map::CORE_UDMA_BASE) >> UDMA_CSR_ADDR_WIDTH) as usize
        } else if (map::CORE_BCAST_BASE..map::CORE_BCAST_BASE + map::CORE_BCAST_BYTES)
            .contains(&a64)
        {
            engines + 3
        } else if a64 < map::CORE_SBUF_WINDOW_BYTES
            || (map::CORE_DESC_BASE..map::CORE_DESC_BASE + map::CORE_DESC_BYTES).contains(&a64)
        {
            engines + 1
        } else {
            engines + 2
        }
    }

    /// Test-only: the held target equals the decode of the held address.
    #[cfg(test)]
    pub(super) fn tgt_is_decoded(&self) -> bool {
        self.tgt() == Self::decode_tgt(self.engines, self.addr)
    }

    /// A write into the broadcast block (state W_FWD): MASK stores, TAIL_INC
    /// starts ringing the engines of the mask; anything else answers SLVERR.
    fn bc_write(&mut self) {
        let r = self.bc_reg();
        self.resp = 2;
        self.state = Q7State::Back;
        if r.aligned && !r.trigger {
            if u64::from(self.data) >> self.engines == 0 {
                self.bmask[r.queue][r.side] = self.data as u16;
                self.resp = 0;
            }
        } else if r.aligned && self.bmask[r.queue][r.side] != 0 {
            self.bpend = self.bmask[r.queue][r.side];
            self.awp = true;
            self.wp = true;
            self.resp = 0;
            self.state = Q7State::BcFwd;
        }
    }

    /// Outputs: towards the Q7, the CSR targets, the memory master, debug.
    #[inline]
    pub fn outputs(&self, rst: bool) -> (AxilOut, CsrDrive, MemDrive, u64) {
        if rst {
            return self.reset_outputs();
        }
        self.state_outputs()
    }

    /// [`Self::outputs`] in reset: those of the reset state.
    #[cold]
    #[inline(never)]
    fn reset_outputs(&self) -> (AxilOut, CsrDrive, MemDrive, u64) {
        Self::new(self.engines, self.self_die, self.core_idx).state_outputs()
    }

    /// [`Self::outputs`] out of reset (read from the registers in place).
    #[inline(always)]
    fn state_outputs(&self) -> (AxilOut, CsrDrive, MemDrive, u64) {
        let s = self;
        let idle = s.state == Q7State::Idle;
        let o = AxilOut {
            awready: (idle && !s.pref) || s.state == Q7State::WaitAw,
            wready: (idle && !s.pref) || s.state == Q7State::WaitW,
            arready: idle && s.pref,
            bvalid: s.state == Q7State::Back,
            bresp: s.resp,
            rvalid: s.state == Q7State::RBack,
            rdata: s.data,
            rresp: s.resp,
        };
        let tgt = s.tgt();
        let fwd = s.state == Q7State::WFwd;
        let mut c = CsrDrive {
            awaddr: if tgt == s.t_bc() {
                s.bc_addr()
            } else {
                u64::from(s.addr & 0x3FFFF)
            },
            araddr: u64::from(s.addr & 0x3FFFF),
            wdata: u64::from(s.data),
            wstrb: u64::from(s.strb),
            ..Default::default()
        };
        let mut m = MemDrive {
            awaddr: s.self_die << 47 | s.core_idx << 32 | u64::from(s.addr),
            wdata: [u64::from(s.data) << 32 | u64::from(s.data); crate::udma::beat::WORDS],
            wstrb: u64::from(s.strb) << (4 * ((s.addr % super::sram::WORD_BYTES) >> 2)),
            ..Default::default()
        };
        if tgt <= self.engines {
            c.tgt = Some(tgt);
            c.awvalid = fwd && s.awp;
            c.wvalid = fwd && s.wp;
            c.bready = s.state == Q7State::WResp;
            c.arvalid = s.state == Q7State::RFwd;
            c.rready = s.state == Q7State::RResp;
        } else if tgt == s.t_mem() {
            m.awvalid = fwd && s.awp;
            m.wvalid = fwd && s.wp;
            m.bready = s.state == Q7State::WResp;
        } else if tgt == s.t_bc() {
            c.tgt = Some(s.bc_engine());
            c.awvalid = s.state == Q7State::BcFwd && s.awp;
            c.wvalid = s.state == Q7State::BcFwd && s.wp;
            c.bready = s.state == Q7State::BcResp;
        }
        let dbg = ((tgt as u64) << 4 | s.state as u64) & 0xFF;
        (o, c, m, dbg)
    }

    /// Clock edge. `t` holds the CSR targets' outputs (UDMA engines, then
    /// EVT_SEM). One stage per phase of an access, as the RTL's next-state
    /// processes: `Self::accept` (`p_request`), `Self::write`
    /// (`p_write`), `Self::broadcast` (`p_bcast`), `Self::read` (`p_read`).
    #[inline]
    pub fn update(&mut self, rst: bool, i: &AxilIn, t: &(impl CsrTargets + ?Sized), mem: &MemResp) {
        if rst {
            self.reset();
            return;
        }
        match self.state {
            Q7State::Idle | Q7State::WaitW | Q7State::WaitAw => self.accept(i),
            Q7State::WFwd | Q7State::WResp | Q7State::Back => self.write(i, t, mem),
            Q7State::BcFwd | Q7State::BcResp => self.broadcast(t),
            _ => self.read(i, t),
        }
    }

    /// Request (`p_request`): IDLE offers the write and the read channels on
    /// alternate cycles and captures AW and W (or AR); WAIT_W / WAIT_AW wait
    /// for the other half of the write.
    #[inline]
    fn accept(&mut self, i: &AxilIn) {
        match self.state {
            Q7State::Idle => {
                let pref = self.pref;
                self.pref = !pref;
                if !pref && (i.awvalid || i.wvalid) {
                    if i.awvalid {
                        self.set_addr(i.awaddr);
                    }
                    if i.wvalid {
                        self.data = i.wdata;
                        self.strb = i.wstrb & 0xF;
                    }
                    self.awp = true;
                    self.wp = true;
                    self.state = if !i.wvalid {
                        Q7State::WaitW
                    } else if !i.awvalid {
                        Q7State::WaitAw
                    } else {
                        Q7State::WFwd
                    };
                } else if pref && i.arvalid {
                    self.set_addr(i.araddr);
                    self.state = Q7State::RFwd;
                }
            }
            Q7State::WaitW => {
                if i.wvalid {
                    self.data = i.wdata;
                    self.strb = i.wstrb & 0xF;
                    self.state = Q7State::WFwd;
                }
            }
            _ => {
                if i.awvalid {
                    self.set_addr(i.awaddr);
                    self.state = Q7State::WFwd;
                }
            }
        }
    }

    /// One cycle of forwarding a write's AW and W to a target: each pending
    /// half drops once its READY is seen; true when neither is pending after
    /// this cycle (the RTL's `done` of W_FWD and BC_FWD).
    #[inline]
    fn forward(&mut self, awready: bool, wready: bool) -> bool {
        let done = (!self.awp || awready) && (!self.wp || wready);
        if awready {
            self.awp = false;
        }
        if wready {
            self.wp = false;
        }
        done
    }

    /// Write (`p_write`): W_FWD forwards AW and W to the target (SLVERR for
    /// no target; the broadcast block's writes), W_RESP waits for its B,
    /// BACK hands the response to the Q7.
    #[inline]
    fn write(&mut self, i: &AxilIn, t: &(impl CsrTargets + ?Sized), mem: &MemResp) {
        let tgt = self.tgt();
        match self.state {
            Q7State::WFwd => {
                if tgt == self.t_err() {
                    self.resp = 2;
                    self.state = Q7State::Back;
                } else if tgt == self.t_bc() {
                    self.bc_write();
                } else {
                    let (awr, wr) = if tgt == self.t_mem() {
                        (mem.awready, mem.wready)
                    } else {
                        (t.target(tgt).awready, t.target(tgt).wready)
                    };
                    if self.forward(awr, wr) {
                        self.state = Q7State::WResp;
                    }
                }
            }
            Q7State::WResp => {
                let (v, r) = if tgt == self.t_mem() {
                    (mem.bvalid, mem.bresp as u32)
                } else {
                    (t.target(tgt).bvalid, t.target(tgt).bresp)
                };
                if v {
                    self.resp = r;
                    self.state = Q7State::Back;
                }
            }
            _ => {
                if i.bready {
                    self.state = Q7State::Idle;
                }
            }
        }
    }

    /// Broadcast (`p_bcast`): the TAIL_INC write goes to every engine of the
    /// mask, lowest first (BC_FWD forwards AW and W, BC_RESP takes its B);
    /// the response is the first non-OKAY one.
    #[inline]
    fn broadcast(&mut self, t: &(impl CsrTargets + ?Sized)) {
        let e = self.bc_engine();
        if self.state == Q7State::BcFwd {
            let (awr, wr) = (t.target(e).awready, t.target(e).wready);
            if self.forward(awr, wr) {
                self.state = Q7State::BcResp;
            }
        } else if t.target(e).bvalid {
            if self.resp == 0 {
                self.resp = t.target(e).bresp;
            }
            self.bpend &= !(1 << e);
            if self.bpend == 0 {
                self.state = Q7State::Back;
            } else {
                self.awp = true;
                self.wp = true;
                self.state = Q7State::BcFwd;
            }
        }
    }

    /// Read (`p_read`): R_FWD forwards AR to the target (the broadcast block
    /// answers a MASK read itself; memory and no target answer SLVERR),
    /// R_RESP takes its R, R_BACK hands it to the Q7.
    #[inline]
    fn read(&mut self, i: &AxilIn, t: &(impl CsrTargets + ?Sized)) {
        let tgt = self.tgt();
        match self.state {
            Q7State::RFwd => {
                if tgt == self.t_bc() {
                    // MASK reads back; TAIL_INC is write-only
                    let r = self.bc_reg();
                    let ok = r.aligned && !r.trigger;
                    self.resp = if ok { 0 } else { 2 };
                    self.data = if ok {
                        u32::from(self.bmask[r.queue][r.side])
                    } else {
                        0
                    };
                    self.state = Q7State::RBack;
                } else if tgt >= self.t_mem() {
                    self.resp = 2;
                    self.data = 0;
                    self.state = Q7State::RBack;
                } else if t.target(tgt).arready {
                    self.state = Q7State::RResp;
                }
            }
            Q7State::RResp => {
                if t.target(tgt).rvalid {
                    self.resp = t.target(tgt).rresp;
                    self.data = t.target(tgt).rdata;
                    self.state = Q7State::RBack;
                }
            }
            _ => {
                if i.rready {
                    self.state = Q7State::Idle;
                }
            }
        }
    }
}
