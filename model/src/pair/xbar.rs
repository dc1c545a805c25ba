//! Golden model of `rtl/sb2sb_xbar.sv`: the AXI4 interconnect of one core,
//! routing every burst with a [`Decoder`](crate::decoder::Decoder) instance
//! (one for the write path, one for the read path) on the SoC address.
//!
//! The routing table is in `docs/pair.md` and the RTL header. The out-path's
//! B responses return through an in-order response queue ([`BQ_DEPTH`]
//! entries): bursts to the link are posted and complete their entry when the
//! peer's B comes back. The outputs
//! towards the masters depend on the registered state and on the memories'
//! and the link's (Moore) outputs only, so [`Xbar::master_outputs`] can be
//! evaluated before the UDMA engines step; [`Xbar::target_outputs`] and
//! [`Xbar::update`] follow once the engines' outputs are known.

// The FSM arms mirror the RTL's `unique case` states one by one.
#![allow(clippy::collapsible_match, clippy::collapsible_if)]

use crate::addr::{ROUTE_OTHER_CHIP, ROUTE_OTHER_DIE, ROUTE_SAME_DIE};
use crate::decoder::{DecoderIn, DecoderOut};
use crate::system::map;

use super::link::{LinkNearIn, LinkOut};
use super::sram::{SramIn, SramOut};

/// Target: SBUF.
pub const TGT_SBUF: u8 = 0;
/// Target: descriptor RAM.
pub const TGT_DESC: u8 = 1;
/// Target: EVT_SEM SEM_INCR lanes (increment ports).
pub const TGT_SEM: u8 = 2;
/// Target: out over the link.
pub const TGT_LINK: u8 = 3;
/// Target: error response.
pub const TGT_ERR: u8 = 4;

/// Write-path FSM states (out-path and in-path): `wst_e` of
/// `rtl/sb2sb_xbar.sv`, same names and encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[repr(u8)]
enum WState {
    #[default]
    Idle = 0,
    Addr = 1,
    Dec = 2,
    Route = 3,
    TgtAw = 4,
    Data = 5,
    Resp = 6,
    Back = 7,
}

/// Read-path FSM states: `rst_e` of `rtl/sb2sb_xbar.sv`, same names and
/// encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[repr(u8)]
enum RState {
    #[default]
    Idle = 0,
    Addr = 1,
    Dec = 2,
    Route = 3,
    TgtAr = 4,
    Data = 5,
    Err = 6,
}

/// Entries of the out-path's response queue (`BqDepth` of `rtl/sb2sb_xbar.sv`).
pub const BQ_DEPTH: usize = 8;

// The core address map (`system::map`, the one definition; `sb2sb_pkg` for the RTL).
/// EVT_SEM SEM_INCR window (core-relative).
const EVT_INCR_LO: u32 = map::CORE_EVT_INCR_BASE as u32;
const EVT_INCR_HI: u32 = (map::CORE_EVT_INCR_BASE + map::CORE_EVT_INCR_BYTES) as u32;
const EVT_LO: u32 = map::CORE_EVT_SEM_BASE as u32;
/// Descriptor RAM base (core-relative).
pub const DESC_LO: u32 = map::CORE_DESC_BASE as u32;

/// Test-only fault of the router.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum XbarFault {
    /// The write-path decoder compares the DIE bit with the wrong die (the
    /// inverted `self_die_i`).
    WrongDieBit,
}

/// Static configuration (the RTL parameters and straps).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct XbarCfg {
    pub engines: usize,
    pub part_bytes: u32,
    pub win_base: u32,
    pub desc_bytes: u32,
    pub self_die: u64,
    pub self_chip: u64,
    pub core_idx: u64,
}

/// One write master's outputs (inputs of the xbar).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WmIn {
    pub awaddr: u64,
    pub awlen: u64,
    pub awvalid: bool,
    pub wdata: u64,
    pub wstrb: u64,
    pub wlast: bool,
    pub wvalid: bool,
    pub bready: bool,
}

/// One read master's outputs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RmIn {
    pub araddr: u64,
    pub arlen: u64,
    pub arvalid: bool,
    pub rready: bool,
}

/// The masters' outputs (the interconnect's master-side inputs) this cycle:
/// write masters `0..engines + 2` (the engines, the link in, the Q7 store),
/// read masters `0..engines`. Besides the request masks the interconnect
/// reads a master only where its registered grant points ([`Xbar::grants`])
/// and the link master, so a view may hold just those.
pub trait Masters {
    /// AWVALID of every write master (bit k = master k).
    fn aw_req(&self) -> u32;
    /// ARVALID of every read master (bit k = master k).
    fn ar_req(&self) -> u32;
    /// BREADY of every write master (bit k = master k).
    fn b_req(&self) -> u32;
    /// Write master `k`'s outputs.
    fn wm(&self, k: usize) -> &WmIn;
    /// Read master `k`'s outputs.
    fn rm(&self, k: usize) -> &RmIn;
}

/// Outputs towards the masters and the EVT_SEM (bit k of a mask = master k).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct XbarMOut {
    pub wm_awready: u32,
    pub wm_wready: u32,
    pub wm_bvalid: u32,
    pub wm_bresp: u64,
    pub rm_arready: u32,
    pub rm_rvalid: u32,
    pub rm_rdata: u64,
    pub rm_rresp: u64,
    pub rm_rlast: bool,
    /// B response of the link master (in-path).
    pub lin_bresp: u64,
    /// Increment ports 0, 1 (out-path) and 2, 3 (in-path).
    pub inc_valid: [bool; 4],
    pub inc_idx: [u8; 4],
    pub inc_value: [u32; 4],
    pub dbg: u64,
    pub dbg_in: u64,
}

/// Memory owner: none.
const OWN_NONE: u8 = 0;
/// Memory owner: the out-path.
const OWN_OUT: u8 = 1;
/// Memory owner: the in-path.
const OWN_IN: u8 = 2;

/// Route of one burst (`route_t`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Route {
    tgt: u8,
    word: u32,
    resp: u64,
}

/// The interconnect registers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Xbar {
    pub cfg: XbarCfg,
    pub fault: Option<XbarFault>,
    w_st: WState,
    w_g: usize,
    w_rr: usize,
    w_tgt: u8,
    w_addr: u64,
    w_len: u64,
    w_word: u32,
    w_resp: u64,
    w_cnt: u8,
    inc_v: [bool; 2],
    inc_i: [u8; 2],
    inc_val: [u32; 2],
    i_st: WState,
    i_tgt: u8,
    i_addr: u64,
    i_len: u64,
    i_word: u32,
    i_resp: u64,
    inc2_v: [bool; 2],
    inc2_i: [u8; 2],
    inc2_val: [u32; 2],
    own: [u8; 2],
    r_st: RState,
    r_g: usize,
    r_rr: usize,
    r_tgt: u8,
    r_addr: u64,
    r_len: u64,
    r_cnt: u64,
    r_word: u32,
    r_resp: u64,
    /// Out-path response queue: master, completed, response of each entry.
    bq_m: [usize; BQ_DEPTH],
    bq_done: [bool; BQ_DEPTH],
    bq_resp: [u64; BQ_DEPTH],
    bq_wp: usize,
    bq_rp: usize,
    bq_cnt: usize,
    /// Link bursts whose B has not come back, and their destination
    /// (address bits [63:32]).
    lk_pend: u8,
    lk_hi: u32,
}

/// Round-robin pick: the first master of request mask `req` (bit k =
/// master k) in the order `rr, rr + 1, ..., wrapping` (`rr` below the master
/// count); the RTL's `w_pick` / `r_pick` loops as two mask scans.
#[inline(always)]
pub(super) fn rr_pick(req: u32, rr: usize) -> Option<usize> {
    let from_rr = req & (u32::MAX << rr);
    let m = if from_rr != 0 { from_rr } else { req };
    (m != 0).then(|| m.trailing_zeros() as usize)
}

impl Xbar {
    pub fn new(cfg: XbarCfg) -> Self {
        Self {
            cfg,
            fault: None,
            w_st: WState::Idle,
            w_g: 0,
            w_rr: 0,
            w_tgt: TGT_ERR,
            w_addr: 0,
            w_len: 0,
            w_word: 0,
            w_resp: 0,
            w_cnt: 0,
            inc_v: [false; 2],
            inc_i: [0; 2],
            inc_val: [0; 2],
            i_st: WState::Idle,
            i_tgt: TGT_ERR,
            i_addr: 0,
            i_len: 0,
            i_word: 0,
            i_resp: 0,
            inc2_v: [false; 2],
            inc2_i: [0; 2],
            inc2_val: [0; 2],
            own: [OWN_NONE; 2],
            r_st: RState::Idle,
            r_g: 0,
            r_rr: 0,
            r_tgt: TGT_ERR,
            r_addr: 0,
            r_len: 0,
            r_cnt: 0,
            r_word: 0,
            r_resp: 0,
            bq_m: [0; BQ_DEPTH],
            bq_done: [false; BQ_DEPTH],
            bq_resp: [0; BQ_DEPTH],
            bq_wp: 0,
            bq_rp: 0,
            bq_cnt: 0,
            lk_pend: 0,
            lk_hi: 0,
        }
    }

    fn reset(&mut self) {
        let (c, f) = (self.cfg, self.fault);
        *self = Self::new(c);
        self.fault = f;
    }

    /// All three paths idle (the in-path waiting for an AW), both memories
    /// unclaimed and every out-path B returned.
    pub fn idle(&self) -> bool {
        self.w_st == WState::Idle
            && matches!(self.i_st, WState::Idle | WState::Addr)
            && self.r_st == RState::Idle
            && self.own == [OWN_NONE; 2]
            && self.bq_cnt == 0
            && self.lk_pend == 0
    }

    /// The destination the core's link near side serves this cycle
    /// (registered state only, so a fabric can pick the link before the core
    /// steps): while link B responses are outstanding, their destination
    /// (address bits [63:32], offset 0; a burst to another destination waits
    /// for them), else the out-path burst's address in TGT_AW or DATA.
    pub fn out_link_addr(&self) -> Option<u64> {
        if self.lk_pend != 0 {
            return Some(u64::from(self.lk_hi) << 32);
        }
        (self.w_tgt == TGT_LINK && matches!(self.w_st, WState::TgtAw | WState::Data))
            .then_some(self.w_addr)
    }

    /// A link burst may raise AWVALID: no link B outstanding, or the
    /// outstanding ones share its destination (`lk_ok`).
    #[inline(always)]
    fn lk_ok(&self) -> bool {
        self.lk_pend == 0 || (self.w_addr >> 32) as u32 == self.lk_hi
    }

    /// The response queue's head is completed (`bq_head`).
    #[inline(always)]
    fn bq_head(&self) -> bool {
        self.bq_cnt != 0 && self.bq_done[self.bq_rp]
    }

    fn wm_count(&self) -> usize {
        self.cfg.engines + 2
    }

    /// Index of the link-in write master.
    pub fn link_master(&self) -> usize {
        self.cfg.engines
    }

    /// Inputs of the three decoders (out-path 0, read path 1, in-path 2) this cycle.
    #[inline]
    pub fn dec_inputs(&self, rst: bool) -> [DecoderIn; 3] {
        [0, 1, 2].map(|k| self.dec_input(k, rst))
    }

    /// The write and read master whose outputs [`Self::target_outputs`] and
    /// [`Self::update`] read this cycle (besides the link master and the
    /// request masks): the registered grants (0 in reset).
    #[inline(always)]
    pub fn grants(&self, rst: bool) -> (usize, usize) {
        if rst {
            (0, 0)
        } else {
            (self.w_g, self.r_g)
        }
    }

    /// `valid_i` of decoder `k` this cycle: its path is in state DEC.
    #[inline(always)]
    pub fn dec_valid(&self, k: usize, rst: bool) -> bool {
        !rst && match k {
            0 => self.w_st == WState::Dec,
            1 => self.r_st == RState::Dec,
            _ => self.i_st == WState::Dec,
        }
    }

    /// Inputs of decoder `k` (out-path 0, read path 1, in-path 2) this cycle.
    #[inline]
    pub fn dec_input(&self, k: usize, rst: bool) -> DecoderIn {
        let die = match (k, self.fault) {
            (0, Some(XbarFault::WrongDieBit)) => self.cfg.self_die ^ 1,
            _ => self.cfg.self_die,
        };
        let addr = match (rst, k) {
            (true, _) => 0,
            (false, 0) => self.w_addr,
            (false, 1) => self.r_addr,
            (false, _) => self.i_addr,
        };
        DecoderIn {
            rst_ni: u64::from(!rst),
            valid_i: u64::from(self.dec_valid(k, rst)),
            op_i: 0,
            addr_i: addr,
            self_die_i: die,
            self_chip_id_i: self.cfg.self_chip,
            ..Default::default()
        }
    }

    fn route_of(&self, d: &DecoderOut, len: u64, from_link: bool, wr: bool) -> Route {
        let c = &self.cfg;
        let mut r = Route {
            tgt: TGT_ERR,
            word: 0,
            resp: 3,
        };
        let nbr = d.id_valid_o != 0 && d.neighbor_route_o != 0 && d.exit_die_o != 0;
        let route = if nbr { d.route_nbr_o } else { d.route_chip_o } as u8;
        let loc = d.local_o;
        let off = loc as u32;
        let bytes = ((len as u32) + 1) << 3;
        let inpart = (off & 0x1F_FFFF) & !7;
        let rel = inpart.wrapping_sub(c.win_base);
        if route == ROUTE_SAME_DIE && (loc >> 35) & 0x7FF == 0 && (loc >> 32) & 7 == c.core_idx {
            r.resp = 2;
            if off < EVT_LO {
                if inpart >= c.win_base && rel.wrapping_add(bytes) <= c.part_bytes {
                    r.tgt = TGT_SBUF;
                    r.word = ((off >> 21) & 0x7F)
                        .wrapping_mul(c.part_bytes)
                        .wrapping_add(rel)
                        >> 3;
                    r.resp = 0;
                }
            } else if (EVT_INCR_LO..EVT_INCR_HI).contains(&off) && wr {
                if (off & !7) + bytes <= EVT_INCR_HI {
                    r.tgt = TGT_SEM;
                    r.word = (off - EVT_INCR_LO) >> 3;
                    r.resp = 0;
                }
            } else if off >= DESC_LO && off < DESC_LO + c.desc_bytes {
                if (off & !7) + bytes <= DESC_LO + c.desc_bytes {
                    r.tgt = TGT_DESC;
                    r.word = (off - DESC_LO) >> 3;
                    r.resp = 0;
                }
            }
        } else if matches!(route, ROUTE_SAME_DIE | ROUTE_OTHER_DIE | ROUTE_OTHER_CHIP)
            && wr
            && !from_link
        {
            r.tgt = TGT_LINK;
            r.resp = 0;
        }
        r
    }

    fn w_tgt_wready(&self, mem: &[SramOut; 2], link: &LinkOut) -> bool {
        match self.w_tgt {
            TGT_SBUF => mem[0].wready && self.own[0] == OWN_OUT,
            TGT_DESC => mem[1].wready && self.own[1] == OWN_OUT,
            TGT_LINK => link.wready,
            _ => true,
        }
    }

    fn i_tgt_wready(&self, mem: &[SramOut; 2]) -> bool {
        match self.i_tgt {
            TGT_SBUF => mem[0].wready && self.own[0] == OWN_IN,
            TGT_DESC => mem[1].wready && self.own[1] == OWN_IN,
            _ => true,
        }
    }

    fn is_mem(t: u8) -> bool {
        t == TGT_SBUF || t == TGT_DESC
    }

    fn r_mem(&self) -> bool {
        self.r_tgt == TGT_SBUF || self.r_tgt == TGT_DESC
    }

    /// Outputs towards the masters and the EVT_SEM.
    #[inline]
    pub fn master_outputs(&self, rst: bool, mem: &[SramOut; 2], link: &LinkOut) -> XbarMOut {
        if rst {
            return XbarMOut {
                dbg: u64::from(TGT_ERR) << 19 | u64::from(TGT_ERR) << 8,
                dbg_in: u64::from(TGT_ERR) << 3,
                ..Default::default()
            };
        }
        let cat = |a: [u8; 2], b: [u8; 2]| [a[0], a[1], b[0], b[1]];
        let mut o = XbarMOut {
            wm_bresp: self.bq_resp[self.bq_rp],
            lin_bresp: self.i_resp,
            rm_rresp: self.r_resp,
            inc_valid: [self.inc_v[0], self.inc_v[1], self.inc2_v[0], self.inc2_v[1]],
            inc_idx: cat(self.inc_i, self.inc2_i),
            inc_value: [
                self.inc_val[0],
                self.inc_val[1],
                self.inc2_val[0],
                self.inc2_val[1],
            ],
            ..Default::default()
        };
        let lm = 1u32 << self.link_master();
        match self.i_st {
            WState::Addr => o.wm_awready |= lm,
            WState::Data => {
                if self.i_tgt_wready(mem) {
                    o.wm_wready |= lm;
                }
            }
            WState::Back => o.wm_bvalid |= lm,
            _ => {}
        }
        o.dbg_in = u64::from(self.own[1]) << 8
            | u64::from(self.own[0]) << 6
            | u64::from(self.i_tgt) << 3
            | (self.i_st as u64);
        let g = 1u32 << self.w_g;
        match self.w_st {
            WState::Addr => o.wm_awready |= g,
            WState::Data => {
                if self.w_tgt_wready(mem, link) {
                    o.wm_wready |= g;
                }
            }
            _ => {}
        }
        if self.bq_head() {
            o.wm_bvalid |= 1u32 << self.bq_m[self.bq_rp];
        }
        let rg = 1u32 << self.r_g;
        if self.r_st == RState::Addr {
            o.rm_arready = rg;
        }
        if self.r_st == RState::Data && self.r_mem() {
            let m = &mem[usize::from(self.r_tgt & 1)];
            if m.rvalid {
                o.rm_rvalid = rg;
            }
            o.rm_rdata = m.rdata;
            o.rm_rresp = m.rresp;
            o.rm_rlast = m.rlast;
        }
        if self.r_st == RState::Err {
            o.rm_rvalid = rg;
            o.rm_rlast = self.r_cnt == self.r_len;
        }
        o.dbg = u64::from(self.w_cnt) << 24
            | u64::from(self.inc_v[0]) << 22
            | u64::from(self.inc_v[1]) << 23
            | u64::from(self.r_tgt) << 19
            | (self.r_g as u64 & 0x1F) << 14
            | (self.r_st as u64) << 11
            | u64::from(self.w_tgt) << 8
            | (self.w_g as u64 & 0x1F) << 3
            | (self.w_st as u64);
        o
    }

    /// Inputs of the two memories and of the link's near side.
    #[inline]
    pub fn target_outputs(
        &self,
        rst: bool,
        ms: &impl Masters,
        mem_in: &mut [SramIn; 2],
        link_in: &mut LinkNearIn,
    ) {
        self.mem_lines(rst, ms, mem_in);
        let (w_st, w_g, w_tgt, w_addr, w_len, lk_ok) = if rst {
            (WState::Idle, 0, TGT_ERR, 0, 0, true)
        } else {
            (
                self.w_st,
                self.w_g,
                self.w_tgt,
                self.w_addr,
                self.w_len,
                self.lk_ok(),
            )
        };
        let m = ms.wm(w_g);
        let l = w_tgt == TGT_LINK;
        *link_in = LinkNearIn {
            awaddr: w_addr,
            awlen: w_len,
            awvalid: l && w_st == WState::TgtAw && lk_ok,
            wdata: m.wdata,
            wstrb: m.wstrb,
            wlast: m.wlast,
            wvalid: l && w_st == WState::Data && m.wvalid,
            // every link B completes a queue entry that is waiting for it
            bready: true,
        };
    }

    /// The registers [`Self::mem_lines`] reads (their reset values in reset):
    /// out-path state, grant, target, word; read-path state, grant, target,
    /// word, length; owners; in-path state, target, word.
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    fn lines_state(
        &self,
        rst: bool,
    ) -> (
        (WState, usize, u8, u32),
        (RState, usize, u8, u32, u64),
        [u8; 2],
        (WState, u8, u32),
    ) {
        if rst {
            (
                (WState::Idle, 0, TGT_ERR, 0),
                (RState::Idle, 0, TGT_ERR, 0, 0),
                [OWN_NONE; 2],
                (WState::Idle, TGT_ERR, 0),
            )
        } else {
            (
                (self.w_st, self.w_g, self.w_tgt, self.w_word),
                (self.r_st, self.r_g, self.r_tgt, self.r_word, self.r_len),
                self.own,
                (self.i_st, self.i_tgt, self.i_word),
            )
        }
    }

    /// The two memories' AXI lines (their debug lines are left as they
    /// are): every memory as driven by no path (the out-path's data, no
    /// write valid) with its read lines, then the memory the out-path owns
    /// and the one the in-path owns (an owner is one path, so at most one
    /// path drives a memory's write lines).
    #[inline(always)]
    fn mem_lines(&self, rst: bool, ms: &impl Masters, mem_in: &mut [SramIn; 2]) {
        let (
            (w_st, w_g, w_tgt, w_word),
            (r_st, r_g, r_tgt, r_word, r_len),
            own,
            (i_st, i_tgt, i_word),
        ) = self.lines_state(rst);
        let m = ms.wm(w_g);
        for (k, s) in mem_in.iter_mut().enumerate() {
            let rmine = r_tgt == k as u8;
            *s = SramIn {
                awaddr: w_word,
                awvalid: false,
                wdata: m.wdata,
                wstrb: m.wstrb,
                wlast: m.wlast,
                wvalid: false,
                bready: false,
                araddr: r_word,
                arlen: r_len as u32,
                arvalid: rmine && r_st == RState::TgtAr,
                rready: rmine && r_st == RState::Data && ms.rm(r_g).rready,
                dbg_we: s.dbg_we,
                dbg_addr: s.dbg_addr,
                dbg_wdata: s.dbg_wdata,
            };
        }
        if Self::is_mem(w_tgt) && own[usize::from(w_tgt & 1)] == OWN_OUT {
            let s = &mut mem_in[usize::from(w_tgt & 1)];
            s.awvalid = w_st == WState::TgtAw;
            s.wvalid = w_st == WState::Data && m.wvalid;
            s.bready = w_st == WState::Resp;
        }
        if Self::is_mem(i_tgt) && own[usize::from(i_tgt & 1)] == OWN_IN {
            let lm = ms.wm(self.link_master());
            let s = &mut mem_in[usize::from(i_tgt & 1)];
            s.awaddr = i_word;
            s.wdata = lm.wdata;
            s.wstrb = lm.wstrb;
            s.wlast = lm.wlast;
            s.awvalid = i_st == WState::TgtAw;
            s.wvalid = i_st == WState::Data && lm.wvalid;
            s.bready = i_st == WState::Resp;
        }
    }

    /// The memory owners' next values (`own_d`, from the pre-edge state).
    #[inline(always)]
    fn next_owners(&self, mem: &[SramOut; 2], own_d: &mut [u8; 2]) {
        for (k, od) in own_d.iter_mut().enumerate() {
            let out_w = self.w_st == WState::TgtAw
                && Self::is_mem(self.w_tgt)
                && usize::from(self.w_tgt & 1) == k;
            let in_w = self.i_st == WState::TgtAw
                && Self::is_mem(self.i_tgt)
                && usize::from(self.i_tgt & 1) == k;
            match self.own[k] {
                OWN_NONE => {
                    *od = if in_w {
                        OWN_IN
                    } else if out_w {
                        OWN_OUT
                    } else {
                        OWN_NONE
                    }
                }
                OWN_OUT => {
                    if self.w_st == WState::Resp && mem[k].bvalid {
                        *od = OWN_NONE;
                    }
                }
                OWN_IN => {
                    if self.i_st == WState::Resp && mem[k].bvalid {
                        *od = OWN_NONE;
                    }
                }
                _ => *od = OWN_NONE,
            }
        }
    }

    /// The in-path FSM's clock edge (its one master, the link, `lw`).
    #[inline(always)]
    fn in_path_update(&mut self, lw: &WmIn, mem: &[SramOut; 2], dec: &DecoderOut) {
        let mut inc2_v = [false; 2];
        match self.i_st {
            // one master: out of reset the in-path waits in ADDR
            WState::Idle => self.i_st = WState::Addr,
            WState::Addr => {
                if lw.awvalid {
                    self.i_st = WState::Dec;
                    self.i_addr = lw.awaddr;
                    self.i_len = lw.awlen;
                }
            }
            WState::Dec => self.i_st = WState::Route,
            WState::Route => {
                let r = self.route_of(dec, self.i_len, true, true);
                self.i_tgt = r.tgt;
                self.i_word = r.word;
                self.i_resp = r.resp;
                self.i_st = if r.tgt == TGT_SEM || r.tgt == TGT_ERR {
                    WState::Data
                } else {
                    WState::TgtAw
                };
            }
            WState::TgtAw => {
                let k = usize::from(self.i_tgt & 1);
                if self.own[k] == OWN_IN && mem[k].awready {
                    self.i_st = WState::Data;
                }
            }
            WState::Data => {
                if self.i_tgt_wready(mem) && lw.wvalid {
                    if self.i_tgt == TGT_SEM {
                        for (l, v) in inc2_v.iter_mut().enumerate() {
                            *v = (lw.wstrb >> (4 * l)) & 0xF != 0;
                            self.inc2_i[l] = (self.i_word.wrapping_mul(2) + l as u32) as u8;
                            self.inc2_val[l] = (lw.wdata >> (32 * l)) as u32;
                        }
                        self.i_word = self.i_word.wrapping_add(1);
                    }
                    if lw.wlast {
                        self.i_st = if self.i_tgt == TGT_SEM || self.i_tgt == TGT_ERR {
                            WState::Back
                        } else {
                            WState::Resp
                        };
                    }
                }
            }
            WState::Resp => {
                let k = usize::from(self.i_tgt & 1);
                if mem[k].bvalid {
                    self.i_st = WState::Back;
                    self.i_resp = mem[k].bresp;
                }
            }
            _ => {
                if lw.bready {
                    self.i_st = WState::Addr;
                }
            }
        }
        self.inc2_v = inc2_v;
    }

    /// The read path FSM's clock edge.
    #[inline(always)]
    fn read_path_update(&mut self, ms: &impl Masters, mem: &[SramOut; 2], dec: &DecoderOut) {
        let n_rm = self.cfg.engines;
        let g = self.r_g;
        match self.r_st {
            RState::Idle => {
                let all_rm = if n_rm >= 32 {
                    u32::MAX
                } else {
                    (1u32 << n_rm) - 1
                };
                let req = ms.ar_req() & all_rm;
                if let Some(m) = rr_pick(req, self.r_rr) {
                    self.r_st = RState::Addr;
                    self.r_g = m;
                }
            }
            RState::Addr => {
                let m = ms.rm(g);
                if m.arvalid {
                    self.r_st = RState::Dec;
                    self.r_addr = m.araddr;
                    self.r_len = m.arlen;
                }
            }
            RState::Dec => self.r_st = RState::Route,
            RState::Route => {
                let r = self.route_of(dec, self.r_len, false, false);
                self.r_tgt = r.tgt;
                self.r_word = r.word;
                self.r_resp = r.resp;
                self.r_cnt = 0;
                self.r_st = if r.tgt == TGT_SBUF || r.tgt == TGT_DESC {
                    RState::TgtAr
                } else {
                    RState::Err
                };
            }
            RState::TgtAr => {
                if mem[usize::from(self.r_tgt & 1)].arready {
                    self.r_st = RState::Data;
                }
            }
            RState::Data => {
                let m = &mem[usize::from(self.r_tgt & 1)];
                if m.rvalid && ms.rm(g).rready && m.rlast {
                    self.r_st = RState::Idle;
                    self.r_rr = if g == n_rm - 1 { 0 } else { g + 1 };
                }
            }
            _ => {
                if ms.rm(g).rready {
                    self.r_cnt = (self.r_cnt + 1) & 0xFF;
                    if self.r_cnt == (self.r_len + 1) & 0xFF {
                        self.r_st = RState::Idle;
                        self.r_rr = if g == n_rm - 1 { 0 } else { g + 1 };
                    }
                }
            }
        }
    }

    /// The out-path FSM's clock edge; returns the response-queue push of
    /// this edge (`bq_push`: master, completed, response).
    #[inline(always)]
    fn out_path_update(
        &mut self,
        ms: &impl Masters,
        mem: &[SramOut; 2],
        link: &LinkOut,
        dec: &DecoderOut,
    ) -> Option<(usize, bool, u64)> {
        let n_wm = self.wm_count();
        let lmi = self.link_master();
        let g = self.w_g;
        let next_rr = if g == n_wm - 1 { 0 } else { g + 1 };
        let mut inc_v = [false; 2];
        let mut push = None;
        match self.w_st {
            WState::Idle => {
                let all_wm = if n_wm >= 32 {
                    u32::MAX
                } else {
                    (1u32 << n_wm) - 1
                };
                let req = ms.aw_req() & all_wm & !(1 << lmi);
                // a burst is taken only with a free queue entry for its response
                if self.bq_cnt != BQ_DEPTH {
                    if let Some(m) = rr_pick(req, self.w_rr) {
                        self.w_st = WState::Addr;
                        self.w_g = m;
                    }
                }
            }
            WState::Addr => {
                let m = ms.wm(g);
                if m.awvalid {
                    self.w_st = WState::Dec;
                    self.w_addr = m.awaddr;
                    self.w_len = m.awlen;
                }
            }
            WState::Dec => self.w_st = WState::Route,
            WState::Route => {
                let r = self.route_of(dec, self.w_len, g == lmi, true);
                self.w_tgt = r.tgt;
                self.w_word = r.word;
                self.w_resp = r.resp;
                self.w_cnt = self.w_cnt.wrapping_add(1);
                self.w_st = if r.tgt == TGT_SEM || r.tgt == TGT_ERR {
                    WState::Data
                } else {
                    WState::TgtAw
                };
            }
            WState::TgtAw => {
                let rdy = match self.w_tgt {
                    TGT_SBUF => self.own[0] == OWN_OUT && mem[0].awready,
                    TGT_DESC => self.own[1] == OWN_OUT && mem[1].awready,
                    _ => self.lk_ok() && link.awready,
                };
                if rdy {
                    self.w_st = WState::Data;
                }
            }
            WState::Data => {
                let m = ms.wm(g);
                if self.w_tgt_wready(mem, link) && m.wvalid {
                    if self.w_tgt == TGT_SEM {
                        for (l, v) in inc_v.iter_mut().enumerate() {
                            *v = (m.wstrb >> (4 * l)) & 0xF != 0;
                            self.inc_i[l] = (self.w_word.wrapping_mul(2) + l as u32) as u8;
                            self.inc_val[l] = (m.wdata >> (32 * l)) as u32;
                        }
                        self.w_word = self.w_word.wrapping_add(1);
                    }
                    if m.wlast {
                        if Self::is_mem(self.w_tgt) {
                            self.w_st = WState::Resp;
                        } else {
                            // SEM_INCR and error: answered now; link: posted,
                            // the entry waits for the peer's B
                            push = Some((g, self.w_tgt != TGT_LINK, self.w_resp));
                            self.w_st = WState::Idle;
                            self.w_rr = next_rr;
                        }
                    }
                }
            }
            WState::Resp => {
                let k = usize::from(self.w_tgt & 1);
                if mem[k].bvalid {
                    push = Some((g, true, mem[k].bresp));
                    self.w_st = WState::Idle;
                    self.w_rr = next_rr;
                }
            }
            _ => self.w_st = WState::Idle,
        }
        self.inc_v = inc_v;
        push
    }

    /// The response queue's clock edge: a link B completes the oldest entry
    /// still waiting (link B responses return in burst order, and only link
    /// entries wait), the completed head is popped on its master's BREADY,
    /// the out-path's push is appended; the link bursts awaiting B counted.
    #[inline(always)]
    fn bq_update(
        &mut self,
        link: &LinkOut,
        lk_aw_hs: bool,
        pop: bool,
        push: Option<(usize, bool, u64)>,
    ) {
        let lk_b_hs = link.bvalid;
        if lk_aw_hs {
            self.lk_hi = (self.w_addr >> 32) as u32;
        }
        self.lk_pend = self.lk_pend + u8::from(lk_aw_hs) - u8::from(lk_b_hs);
        if lk_b_hs {
            if let Some(idx) = (0..self.bq_cnt)
                .map(|k| (self.bq_rp + k) % BQ_DEPTH)
                .find(|&i| !self.bq_done[i])
            {
                self.bq_done[idx] = true;
                self.bq_resp[idx] = link.bresp;
            }
        }
        if pop {
            self.bq_rp = (self.bq_rp + 1) % BQ_DEPTH;
        }
        if let Some((m, done, resp)) = push {
            let w = self.bq_wp;
            self.bq_m[w] = m;
            self.bq_done[w] = done;
            self.bq_resp[w] = resp;
            self.bq_wp = (w + 1) % BQ_DEPTH;
        }
        self.bq_cnt = self.bq_cnt + usize::from(push.is_some()) - usize::from(pop);
    }

    /// Clock edge.
    #[inline]
    pub fn update(
        &mut self,
        rst: bool,
        ms: &impl Masters,
        mem: &[SramOut; 2],
        link: &LinkOut,
        dec: &[DecoderOut; 3],
    ) {
        if rst {
            self.reset();
            return;
        }
        let lmi = self.link_master();
        // ---- memory owners (from the pre-edge state): an unowned memory
        // stays unowned unless a path is in TGT_AW, so with neither owned
        // and neither path there the owners hold.
        let mut own_d = self.own;
        if self.own != [OWN_NONE; 2] || self.w_st == WState::TgtAw || self.i_st == WState::TgtAw {
            self.next_owners(mem, &mut own_d);
        }
        self.in_path_update(ms.wm(lmi), mem, &dec[2]);
        // ---- out-path and its response queue (both from the pre-edge state)
        let lk_aw_hs =
            self.w_st == WState::TgtAw && self.w_tgt == TGT_LINK && self.lk_ok() && link.awready;
        let bq_pop = self.bq_head() && ms.b_req() >> self.bq_m[self.bq_rp] & 1 != 0;
        let push = self.out_path_update(ms, mem, link, &dec[0]);
        self.bq_update(link, lk_aw_hs, bq_pop, push);
        self.read_path_update(ms, mem, &dec[1]);
        self.own = own_d;
    }
}
