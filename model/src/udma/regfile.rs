//! UDMA register file behind the shared AXI4-Lite register adapter (mirrors
//! `rtl/udma_regs.sv`).
//!
//! The adapter ([`AxilAdapter`], docs/axil.md) holds AW and W, commits a write
//! in the cycle after both are held and answers a read from the state of its
//! AR handshake cycle; a write and a read may both be served in one cycle.
//! Register updates in one cycle are applied in this order (the RTL's
//! `always_comb` order): FSM events first, then the CSR write; a queue reset
//! (RST_Q) wins over FSM events, sticky/W1C bits use "set wins over clear".

use super::desc::RingPos;
use super::regs::*;
use crate::regs::axil::{AxilAdapter, AxilAnswer, AxilIn, AxilOut};
use crate::regs::{access_table, Access, Sides};

/// Number of queues per side.
pub const NQ: usize = UDMA_NUM_QUEUES as usize;

// `SideRegs::en_q` and the FSM views hold one bit per queue in a `u16`.
const _: () = assert!(NQ == u16::BITS as usize);

/// Address bits of the CSR port.
const CSR_ADDR_MASK: u32 = (1 << UDMA_CSR_ADDR_WIDTH) - 1;

/// Registers of one queue (one side).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct QueueRegs {
    pub desc_pref_cfg: u32,
    /// EN_PREF / EN_SCHEDULING(EN_STREAM) bits only.
    pub cfg: u32,
    pub rbp_lo: u32,
    pub rbp_hi: u32,
    pub rl: u32,
    pub head: RingPos,
    pub tail: RingPos,
    pub crbp_lo: u32,
    pub crbp_hi: u32,
    pub crhp: RingPos,
    pub comp_cfg: u32,
    pub stopped: bool,
    pub err: u32,
    pub bytes: u32,
    pub drop: u32,
    pub done: u32,
}

const CFG_MASK: u32 = Q_CFG.mask();
const BASE_LO_MASK: u32 = Q_BASE_LOW.mask();
/// Width of the used/free arithmetic in the RTL (`UsedW` = pointer offset width + 2).
const USED_MASK: u32 = (1 << (Q_PTR_OFFSET.width + 2)) - 1;
const COMP_CFG_MASK: u32 = Q_COMP_CFG.mask();

impl QueueRegs {
    /// Descriptor ring base address.
    pub fn ring_base(&self) -> u64 {
        (self.rbp_hi as u64) << 32 | (self.rbp_lo & BASE_LO_MASK) as u64
    }
    /// Completion ring base address.
    pub fn comp_base(&self) -> u64 {
        (self.crbp_hi as u64) << 32 | (self.crbp_lo & BASE_LO_MASK) as u64
    }
    /// Address of the descriptor at the head.
    pub fn head_desc_addr(&self) -> u64 {
        self.ring_base()
            .wrapping_add((self.head.offset as u64) * UDMA_DESC_BYTES as u64)
    }
    /// Address of the descriptor after the head (head + 1, wrapping at `rl`:
    /// the RTL's `ptr_step`), which the FSMs prefetch.
    pub fn next_desc_addr(&self) -> u64 {
        self.ring_base()
            .wrapping_add((self.head.step(self.rl).offset as u64) * UDMA_DESC_BYTES as u64)
    }
    /// The queue holds a descriptor after the head (head ≠ tail and
    /// head + 1 ≠ tail).
    pub fn has_next(&self) -> bool {
        self.nonempty() && self.head.step(self.rl).offset != self.tail.offset
    }
    /// Address of the next completion slot.
    pub fn comp_addr(&self) -> u64 {
        self.comp_base()
            .wrapping_add((self.crhp.offset as u64) * UDMA_DESC_BYTES as u64)
    }
    /// Both enable bits set.
    pub fn enabled(&self) -> bool {
        self.cfg == CFG_MASK
    }
    /// Completion ring writes enabled.
    pub fn comp_en(&self) -> bool {
        self.comp_cfg & COMP_CFG_MASK != 0
    }
    /// Descriptors between head and tail (head ≠ tail).
    pub fn nonempty(&self) -> bool {
        self.head.offset != self.tail.offset
    }
    /// Descriptors posted and not yet completed (26-bit arithmetic, as the RTL).
    pub fn used(&self) -> u32 {
        if self.tail.offset >= self.head.offset {
            self.tail.offset - self.head.offset
        } else {
            self.tail
                .offset
                .wrapping_add(self.rl)
                .wrapping_sub(self.head.offset)
                & USED_MASK
        }
    }
    /// Free slots (the driver keeps one slot free).
    pub fn free(&self) -> u32 {
        let used = self.used();
        if self.rl > used {
            self.rl - 1 - used
        } else {
            0
        }
    }
}

/// Registers of one side (M2S or S2M).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SideRegs {
    pub state: u32,
    pub err_mask: u32,
    pub err_status: u32,
    pub int_status: u32,
    pub no_desc_tout: u32,
    pub cfg_len: u32,
    pub q: [QueueRegs; NQ],
    /// Queues with both enables set (Q_CFG EN_PREF and EN_SCHEDULING), one bit
    /// per queue: the RTL's `en_pref_q & en_sched_q`, written with `cfg` by the
    /// CSR write only, so the FSMs look only at the queues that can be picked.
    pub en_q: u16,
}

impl SideRegs {
    /// Engine in normal operation.
    #[inline]
    pub fn normal(&self) -> bool {
        self.state == UDMA_STATE_NORMAL
    }
    /// Queue `q` can hand out a descriptor.
    #[inline]
    pub fn avail(&self, q: usize) -> bool {
        let r = &self.q[q];
        self.normal() && self.en_q >> q & 1 != 0 && !r.stopped && r.nonempty()
    }
    /// The queues that can hand out a descriptor, one bit per queue (`avail_o`
    /// of the RTL). Only the enabled queues are looked at; their stop bit and
    /// occupancy are read from the queue registers (which the system model's
    /// fast mode also writes), not cached.
    #[inline]
    pub fn avail_mask(&self) -> u16 {
        if !self.normal() {
            return 0;
        }
        let mut m = self.en_q;
        let mut a = 0u16;
        while m != 0 {
            let q = m.trailing_zeros() as usize;
            let r = &self.q[q];
            if !r.stopped && r.nonempty() {
                a |= 1 << q;
            }
            m &= m - 1;
        }
        a
    }
}

/// What a side's FSM does to the register file this cycle.
///
/// `repr(C)`: the four flags sit side by side, so [`SideEv::is_none`] tests
/// them as one 32-bit word.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[repr(C)]
pub struct SideEv {
    /// Queue the event applies to.
    pub q: usize,
    /// Error: stop the queue and set this cause bit.
    pub err: Option<u32>,
    pub bytes_add: u32,
    pub drop_add: u32,
    pub head_adv: bool,
    pub crhp_adv: bool,
    pub done_inc: bool,
    pub int_set: bool,
}

impl SideEv {
    /// No event: the FSM changes no register this cycle (`q` alone is not an event).
    #[inline]
    pub fn is_none(&self) -> bool {
        // The four flags as one word, `|` not `||`: one test of all the
        // fields, no branch per field.
        let flags = u32::from_ne_bytes([
            self.head_adv as u8,
            self.crhp_adv as u8,
            self.done_inc as u8,
            self.int_set as u8,
        ]);
        self.err.is_none() && flags | self.bytes_add | self.drop_add == 0
    }
}

/// FSM status a side shows in the register file (status bit 29, DBG_STATE).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SideStat {
    pub state: u8,
    pub q: usize,
    pub pkt: bool,
}

impl SideStat {
    /// DBG_STATE register value.
    pub fn dbg(&self) -> u32 {
        DBG_STATE_STATE.val(self.state as u32)
            | DBG_STATE_QUEUE.val(self.q as u32)
            | DBG_STATE_PKT.val(self.pkt as u32)
    }
}

/// Outputs of the CSR slave (the shared adapter's).
pub type CsrOut = AxilOut;

/// Inputs of the CSR slave (the shared adapter's).
pub type CsrIn = AxilIn;

/// One cycle's CSR transaction as the register file sees it (the RTL's `wr`,
/// `wr_bad`, `rd_bad`, `rval`, `db_over`, ... wires).
#[derive(Debug, Clone, Copy)]
struct CsrCycle {
    /// The adapter's requests (for its registered responses).
    req: crate::regs::axil::AxilReq,
    /// The write that commits this cycle (None when none or rejected).
    write: Option<crate::regs::axil::WriteReq>,
    wr_bad: bool,
    rd_bad: bool,
    rd_val: u32,
    write_side: usize,
    /// Queue of the write (None: engine register).
    write_queue: Option<usize>,
    /// Offset of the write inside its bundle or side.
    write_offset: u32,
    read_side: usize,
    /// New tail of a doorbell that fits.
    doorbell_tail: Option<RingPos>,
    /// A doorbell past the free space.
    doorbell_overflow: bool,
}

/// Bits of ERR_STATUS and INT_STATUS of one side.
#[derive(Debug, Clone, Copy, Default)]
struct StatusBits {
    err: u32,
    int: u32,
}

/// The register file of the whole engine plus the CSR slave state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RegFile {
    pub side: [SideRegs; 2],
    /// The AXI4-Lite register adapter (`u_axil`).
    pub axi: AxilAdapter,
}

/// Decoded address: side index, queue (None = engine register), offset.
fn decode(addr: u32) -> (usize, Option<usize>, u32) {
    let side = ((addr >> UDMA_SIDE_BIT) & 1) as usize;
    let off = addr & (UDMA_S2M_BASE - 1);
    if off >= UDMA_Q_ARRAY_BASE {
        let qi = (off - UDMA_Q_ARRAY_BASE) / UDMA_Q_STRIDE;
        (side, Some(qi as usize), off & (UDMA_Q_STRIDE - 1))
    } else {
        (side, None, off)
    }
}

/// Words of the engine-register space of one side (below the queue array).
const ENG_WORDS: usize = (UDMA_Q_ARRAY_BASE / 4) as usize;
/// Words of one queue bundle.
const QUEUE_WORDS: usize = (UDMA_Q_STRIDE / 4) as usize;
/// Decode tables built at compile time from the register description
/// (`ENG_REGS`, `QUEUE_REGS`); index [side][word]. The RTL's decode is
/// generated from the same description (`udma_eng_access`/`udma_queue_access`
/// in `rtl/sb2sb_pkg.sv`).
static ENG_ACCESS: [[Option<Access>; ENG_WORDS]; 2] = [
    access_table(ENG_REGS, Sides::M2s),
    access_table(ENG_REGS, Sides::S2m),
];
static QUEUE_ACCESS: [[Option<Access>; QUEUE_WORDS]; 2] = [
    access_table(QUEUE_REGS, Sides::M2s),
    access_table(QUEUE_REGS, Sides::S2m),
];

/// Access kind of CSR address `addr`, `None` when nothing is mapped there
/// (misaligned, the gen unit, a bundle past the last queue, a hole).
fn access(addr: u32) -> Option<Access> {
    if addr & 3 != 0 || addr >= UDMA_GEN_BASE {
        return None;
    }
    let (side, q, off) = decode(addr);
    let w = (off / 4) as usize;
    match q {
        Some(qi) if qi < NQ => QUEUE_ACCESS[side][w],
        Some(_) => None,
        None => ENG_ACCESS[side][w],
    }
}

impl RegFile {
    /// Reset values.
    pub fn new() -> Self {
        Self::default()
    }

    /// Q_STATUS register value.
    fn q_status(&self, s: usize, qi: usize, stat: &SideStat) -> u32 {
        let r = &self.side[s].q[qi];
        let full = r.rl >= 1 && r.used() == r.rl - 1;
        let pref = Q_CFG_EN_PREF.is_set(r.cfg) && !r.stopped;
        let busy = stat.state != 0 && stat.q == qi;
        Q_STATUS_Q_USED.val(r.used())
            | Q_STATUS_STOPPED.val(r.stopped as u32)
            | Q_STATUS_PREFETCH.val(pref as u32)
            | Q_STATUS_SCHED.val(busy as u32)
            | Q_STATUS_Q_FULL.val(full as u32)
    }

    /// Value a CSR read of `addr` returns (0 for write-only and bad addresses).
    pub fn read(&self, addr: u32, stat: &[SideStat; 2]) -> u32 {
        self.read_at(addr, access(addr), stat)
    }

    /// [`Self::read`] with the access kind of `addr` already decoded.
    #[inline]
    fn read_at(&self, addr: u32, acc: Option<Access>, stat: &[SideStat; 2]) -> u32 {
        if matches!(acc, None | Some(Access::Wo)) {
            return 0;
        }
        let (s, q, off) = decode(addr);
        let sr = &self.side[s];
        match q {
            Some(qi) => {
                let r = &sr.q[qi];
                match off {
                    UDMA_Q_DESC_PREF_CFG => r.desc_pref_cfg,
                    UDMA_Q_CFG => r.cfg,
                    UDMA_Q_STATUS => self.q_status(s, qi, &stat[s]),
                    UDMA_Q_RBP_LOW => r.rbp_lo,
                    UDMA_Q_RBP_HIGH => r.rbp_hi,
                    UDMA_Q_RL => r.rl,
                    UDMA_Q_RHP | UDMA_Q_RCP => r.head.reg(),
                    UDMA_Q_RTP => r.tail.reg(),
                    UDMA_Q_CRBP_LOW => r.crbp_lo,
                    UDMA_Q_CRBP_HIGH => r.crbp_hi,
                    UDMA_Q_CRHP => r.crhp.reg(),
                    UDMA_S2M_Q_COMP_CFG => r.comp_cfg,
                    UDMA_Q_ERR => r.err,
                    UDMA_Q_BYTES => r.bytes,
                    UDMA_Q_DROP_BYTES => r.drop,
                    UDMA_Q_DESC_DONE => r.done,
                    _ => 0,
                }
            }
            None => match off {
                UDMA_ENG_STATE => sr.state,
                UDMA_ENG_ERR_LOG_MASK => sr.err_mask,
                UDMA_M2S_CFG_LEN => sr.cfg_len,
                UDMA_ENG_ERR_STATUS => sr.err_status,
                UDMA_ENG_INT_STATUS => sr.int_status,
                UDMA_ENG_NO_DESC_TOUT => sr.no_desc_tout,
                UDMA_ENG_DBG_STATE => stat[s].dbg(),
                _ => 0,
            },
        }
    }

    /// CSR slave outputs for this cycle (registered in the adapter).
    pub fn csr_out(&self) -> CsrOut {
        self.axi.out()
    }

    /// Clock edge: apply the FSM events, then the CSR transaction. The stages
    /// mirror the processes of `rtl/udma_regs.sv`: `Self::csr_cycle` (the
    /// adapter's requests, access check, read mux, doorbell check: the
    /// `assign`s above "next state"), then inside the next-state `always_comb`
    /// "1. FSM events" (`Self::fsm_events`, `Self::sticky_sets`) and
    /// "2. CSR write" (`Self::csr_write`), the sticky/W1C merge, and the
    /// adapter's registered responses.
    pub fn update(&mut self, i: &CsrIn, ev: &[SideEv; 2], stat: &[SideStat; 2]) {
        self.update_ev(i, [&ev[0], &ev[1]], stat);
    }

    /// [`Self::update`] with each side's event by reference (the engine's
    /// FSM outputs, not copied into an array). Inlined into the engine's
    /// cycle.
    #[inline(always)]
    pub fn update_ev(&mut self, i: &CsrIn, ev: [&SideEv; 2], stat: &[SideStat; 2]) {
        let req = self.axi.requests(i, CSR_ADDR_MASK);
        if req.write.is_none() {
            // No CSR write (all but a few cycles): the write decode and
            // doorbell arithmetic are not evaluated (the RTL gates them on
            // `wr`), nothing is cleared, and only the sides with an FSM event
            // touch a register (the RTL skips `p_state` when there is
            // neither: its `busy` term). A read is answered from the state
            // before the edge (its access decoded once); a bad one sets
            // ERR_CSR of its side. Same result as the full path: the
            // lockstep against `udma_regs.sv`, which has no shortcut, checks it.
            let mut ans = AxilAnswer::default();
            if let Some(raddr) = req.read {
                let acc = access(raddr);
                // `&{ *stat }`, `&{ *i }` below: the out-of-line calls get
                // copies, so the engine's per-cycle status and CSR inputs
                // stay in registers instead of being stored every cycle.
                ans.read_data = self.read_at(raddr, acc, &{ *stat });
                ans.read_err = acc.is_none();
            }
            for (s, e) in ev.iter().enumerate() {
                if !e.is_none() {
                    self.fsm_event(s, e);
                    let set = Self::event_sets(e);
                    let sr = &mut self.side[s];
                    sr.err_status |= set.err;
                    sr.int_status |= set.int; // bit q < 16: inside INT_STATUS
                }
            }
            if ans.read_err {
                if let Some(raddr) = req.read {
                    self.side[((raddr >> UDMA_SIDE_BIT) & 1) as usize].err_status |=
                        1 << UDMA_ERR_CSR;
                }
            }
            self.axi.update(i, &req, &ans, CSR_ADDR_MASK);
            return;
        }
        self.update_csr(req, &{ *i }, &[*ev[0], *ev[1]], &{ *stat });
    }

    /// The full edge: CSR transaction, FSM events, CSR write, sticky merge.
    fn update_csr(
        &mut self,
        req: crate::regs::axil::AxilReq,
        i: &CsrIn,
        ev: &[SideEv; 2],
        stat: &[SideStat; 2],
    ) {
        let c = self.csr_cycle(req, stat);
        self.fsm_events(ev);
        let set = self.sticky_sets(ev, &c);
        let clear = self.csr_write(&c);
        for (s, sr) in self.side.iter_mut().enumerate() {
            sr.err_status = (sr.err_status & !clear[s].err) | set[s].err;
            sr.int_status = ((sr.int_status & !clear[s].int) | set[s].int) & INT_STATUS.mask();
        }
        self.axi.update(
            i,
            &c.req,
            &AxilAnswer {
                write_err: c.wr_bad,
                read_data: c.rd_val,
                read_err: c.rd_bad,
            },
            CSR_ADDR_MASK,
        );
    }

    /// This cycle's CSR transaction, computed from the state before the edge.
    fn csr_cycle(&self, req: crate::regs::axil::AxilReq, stat: &[SideStat; 2]) -> CsrCycle {
        let wr = req.write.is_some();
        let rd = req.read.is_some();
        let w = req.write.unwrap_or(crate::regs::axil::WriteReq {
            addr: 0,
            data: 0,
            strb: 0,
        });
        let raddr = req.read.unwrap_or(0);
        let racc = access(raddr);
        let rd_val = if rd {
            self.read_at(raddr, racc, stat)
        } else {
            0
        };
        let wr_bad = wr && (matches!(access(w.addr), None | Some(Access::Ro)) || w.strb != 0xF);
        let rd_bad = rd && racc.is_none();
        // Doorbell check from the pre-edge head/tail.
        let (ws, wq, woff) = decode(w.addr);
        let mut doorbell_tail = None;
        let mut doorbell_overflow = false;
        if wr && !wr_bad {
            if let Some(qi) = wq {
                if woff == UDMA_Q_RTP_INC {
                    let r = &self.side[ws].q[qi];
                    let inc = Q_RTP_INC_INC.get(w.data);
                    if inc > r.free() {
                        doorbell_overflow = true;
                    } else if inc != 0 {
                        doorbell_tail = Some(r.tail.add_one_lap(inc, r.rl));
                    }
                }
            }
        }
        CsrCycle {
            req,
            write: (wr && !wr_bad).then_some(w),
            wr_bad,
            rd_bad,
            rd_val,
            write_side: ws,
            write_queue: wq,
            write_offset: woff,
            read_side: ((raddr >> UDMA_SIDE_BIT) & 1) as usize,
            doorbell_tail,
            doorbell_overflow,
        }
    }

    /// The FSM events, stage 1: pointer steps, counters, queue errors.
    fn fsm_events(&mut self, ev: &[SideEv; 2]) {
        for (s, e) in ev.iter().enumerate() {
            if !e.is_none() {
                self.fsm_event(s, e);
            }
        }
    }

    /// One side's FSM event on its queue.
    #[inline]
    fn fsm_event(&mut self, s: usize, e: &SideEv) {
        let r = &mut self.side[s].q[e.q];
        if e.head_adv {
            r.head = r.head.step(r.rl);
        }
        if e.crhp_adv {
            r.crhp = r.crhp.step(r.rl);
        }
        if e.done_inc {
            r.done = r.done.wrapping_add(1);
        }
        r.bytes = r.bytes.wrapping_add(e.bytes_add);
        r.drop = r.drop.wrapping_add(e.drop_add);
        if let Some(b) = e.err {
            r.stopped = true;
            r.err |= 1 << b;
        }
    }

    /// ERR_STATUS / INT_STATUS bits one side's FSM event sets (its error
    /// cause, the completion of an INT_EN descriptor).
    #[inline]
    fn event_sets(e: &SideEv) -> StatusBits {
        StatusBits {
            err: e.err.map_or(0, |b| 1 << b),
            int: u32::from(e.int_set) << e.q,
        }
    }

    /// Bits set this cycle in ERR_STATUS / INT_STATUS of each side (FSM errors,
    /// completions with INT_EN, bad CSR accesses, doorbell overflow).
    fn sticky_sets(&self, ev: &[SideEv; 2], c: &CsrCycle) -> [StatusBits; 2] {
        let mut set = ev.map(|e| Self::event_sets(&e));
        if c.wr_bad {
            set[c.write_side].err |= 1 << UDMA_ERR_CSR;
        }
        if c.rd_bad {
            set[c.read_side].err |= 1 << UDMA_ERR_CSR;
        }
        if c.doorbell_overflow {
            set[c.write_side].err |= 1 << UDMA_ERR_DB_OVERFLOW;
        }
        set
    }

    /// The CSR write, stage 2 (after the FSM events: a queue reset wins);
    /// returns the W1C clear masks of ERR_STATUS / INT_STATUS per side.
    fn csr_write(&mut self, c: &CsrCycle) -> [StatusBits; 2] {
        let mut clear = [StatusBits::default(); 2];
        let Some(w) = c.write else {
            return clear;
        };
        let d = w.data;
        let ws = c.write_side;
        let sr = &mut self.side[ws];
        match c.write_queue {
            Some(qi) => {
                let r = &mut sr.q[qi];
                match c.write_offset {
                    UDMA_Q_DESC_PREF_CFG => r.desc_pref_cfg = d,
                    UDMA_Q_CFG => {
                        r.cfg = d & CFG_MASK;
                        let bit = 1u16 << qi;
                        sr.en_q = if r.cfg == CFG_MASK {
                            sr.en_q | bit
                        } else {
                            sr.en_q & !bit
                        };
                    }
                    UDMA_Q_RBP_LOW => r.rbp_lo = d & BASE_LO_MASK,
                    UDMA_Q_RBP_HIGH => r.rbp_hi = d,
                    UDMA_Q_RL => r.rl = Q_RL_LEN.get(d),
                    UDMA_Q_CRBP_LOW => r.crbp_lo = d & BASE_LO_MASK,
                    UDMA_Q_CRBP_HIGH => r.crbp_hi = d,
                    UDMA_S2M_Q_COMP_CFG => r.comp_cfg = d & COMP_CFG_MASK,
                    UDMA_Q_RTP_INC => {
                        if c.doorbell_overflow {
                            r.stopped = true;
                            r.err |= 1 << UDMA_ERR_DB_OVERFLOW;
                        } else if let Some(t) = c.doorbell_tail {
                            r.tail = t;
                        }
                    }
                    _ => {
                        // q_sw_ctrl (the only other writable queue register)
                        if Q_SW_CTRL_RST_Q.is_set(d) {
                            r.head = RingPos::default();
                            r.tail = RingPos::default();
                            r.crhp = RingPos::default();
                            r.stopped = false;
                            r.err = 0;
                            r.bytes = 0;
                            r.drop = 0;
                            r.done = 0;
                        }
                    }
                }
            }
            None => match c.write_offset {
                UDMA_ENG_CHANGE_STATE => {
                    if CHANGE_STATE_ABORT.is_set(d) {
                        sr.state = UDMA_STATE_ABORT;
                    } else if CHANGE_STATE_DIS.is_set(d) {
                        sr.state = UDMA_STATE_IDLE;
                    } else if CHANGE_STATE_NORMAL.is_set(d) {
                        sr.state = UDMA_STATE_NORMAL;
                    }
                }
                UDMA_ENG_ERR_LOG_MASK => sr.err_mask = d,
                UDMA_M2S_CFG_LEN => sr.cfg_len = d,
                UDMA_ENG_NO_DESC_TOUT => sr.no_desc_tout = d,
                UDMA_ENG_ERR_STATUS => clear[ws].err = d,
                UDMA_ENG_INT_STATUS => clear[ws].int = d,
                _ => {}
            },
        }
        clear
    }

    /// Level interrupt: any INT_STATUS bit set on either side (the two sides
    /// OR-ed, as the RTL's `irq_o`).
    #[inline]
    pub fn irq(&self) -> bool {
        let [m, s] = &self.side;
        m.int_status | s.int_status != 0
    }
    /// Error interrupt: any unmasked sticky error on either side.
    #[inline]
    pub fn err_irq(&self) -> bool {
        let [m, s] = &self.side;
        (m.err_status & !m.err_mask) | (s.err_status & !s.err_mask) != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The decode of the golden register file (and so of the RTL it is locked to)
    /// agrees with the register description at every word of the engine space.
    #[test]
    fn access_decode_matches_the_register_description_at_every_word() {
        for addr in (0..(1u32 << UDMA_CSR_ADDR_WIDTH)).step_by(4) {
            let side = if addr & UDMA_S2M_BASE != 0 {
                Side::S2m
            } else {
                Side::M2s
            };
            let off = addr & (UDMA_S2M_BASE - 1);
            let want = if addr >= UDMA_GEN_BASE {
                None
            } else if off >= UDMA_Q_ARRAY_BASE {
                let q = (off - UDMA_Q_ARRAY_BASE) / UDMA_Q_STRIDE;
                if q < UDMA_NUM_QUEUES {
                    queue_reg(side, off & (UDMA_Q_STRIDE - 1)).map(|r| r.access)
                } else {
                    None
                }
            } else {
                eng_reg(side, off).map(|r| r.access)
            };
            assert_eq!(access(addr), want, "{addr:#x}");
        }
    }

    /// Reset values of the readable registers equal the description's.
    #[test]
    fn reset_values_match_the_register_description() {
        let rf = RegFile::new();
        let stat = [SideStat::default(); 2];
        for side in [Side::M2s, Side::S2m] {
            for r in ENG_REGS {
                if r.access != Access::Wo && eng_reg(side, r.offset).is_some() {
                    assert_eq!(
                        rf.read(eng_addr(side, r.offset), &stat),
                        r.reset(),
                        "{}",
                        r.name
                    );
                }
            }
            for q in [0, UDMA_NUM_QUEUES - 1] {
                for r in QUEUE_REGS {
                    if r.access != Access::Wo && queue_reg(side, r.offset) == Some(r) {
                        assert_eq!(
                            rf.read(q_addr(side, q, r.offset), &stat),
                            r.reset(),
                            "{}",
                            r.name
                        );
                    }
                }
            }
        }
    }
}
