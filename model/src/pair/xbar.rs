//! Golden model of `rtl/sb2sb_xbar.sv`: the AXI4 interconnect of one core,
//! routing every burst with a [`Decoder`](crate::decoder::Decoder) instance
//! (one for the out-path, one for the in-path, one per engine read lane) on
//! the SoC address. The SBUF is banked by partition: memory `b <
//! engines` is SBUF bank `b` (partitions `b * 128 / engines ..`), memory
//! `engines` the descriptor RAM; each engine's read master has its own lane
//! and each memory a round-robin read arbiter over the lanes.
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
use crate::system::topology::SBUF_PARTITIONS;

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
    Route = 3,
    TgtAr = 4,
    Data = 5,
    Err = 6,
}

/// Entries of the out-path's response queue (`BqDepth` of `rtl/sb2sb_xbar.sv`).
pub const BQ_DEPTH: usize = 8;

/// Most engines of a core (`sb2sb_core`'s `NumEngines` limit): read lanes
/// and SBUF banks.
pub const MAX_ENGINES: usize = 16;

/// Most memories of a core: [`MAX_ENGINES`] SBUF banks and the descriptor RAM.
pub const MAX_MEM: usize = MAX_ENGINES + 1;

/// One read lane's registers (`r_*_q[e]` of `rtl/sb2sb_xbar.sv`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct RLane {
    st: RState,
    tgt: u8,
    mem: usize,
    addr: u64,
    len: u64,
    cnt: u64,
    word: u32,
    resp: u64,
}

impl RLane {
    const RESET: Self = Self {
        st: RState::Idle,
        tgt: TGT_ERR,
        mem: 0,
        addr: 0,
        len: 0,
        cnt: 0,
        word: 0,
        resp: 0,
    };
}

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

/// Static configuration (the RTL parameters and straps). `engines` divides
/// the 128 SBUF partitions (one SBUF bank per engine).
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
    /// R payload of each read lane (index = engine).
    pub rm_rdata: [u64; MAX_ENGINES],
    pub rm_rresp: [u64; MAX_ENGINES],
    /// RLAST of each read lane (bit e = engine e).
    pub rm_rlast: u32,
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

/// Route of one burst (`route_t`): target, memory index (SBUF bank or the
/// descriptor RAM), word inside the memory, response.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Route {
    tgt: u8,
    mem: usize,
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
    w_mem: usize,
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
    i_mem: usize,
    i_addr: u64,
    i_len: u64,
    i_word: u32,
    i_resp: u64,
    inc2_v: [bool; 2],
    inc2_i: [u8; 2],
    inc2_val: [u32; 2],
    /// Write-port owner of each memory.
    own: [u8; MAX_MEM],
    /// Read lanes (index = engine).
    lanes: [RLane; MAX_ENGINES],
    /// Per memory: the lane owning its read port (AR to RLAST), and the
    /// round-robin pointer of its read arbiter.
    ro: [Option<usize>; MAX_MEM],
    r_rr: [usize; MAX_MEM],
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
            w_mem: 0,
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
            i_mem: 0,
            i_addr: 0,
            i_len: 0,
            i_word: 0,
            i_resp: 0,
            inc2_v: [false; 2],
            inc2_i: [0; 2],
            inc2_val: [0; 2],
            own: [OWN_NONE; MAX_MEM],
            lanes: [RLane::RESET; MAX_ENGINES],
            ro: [None; MAX_MEM],
            r_rr: [0; MAX_MEM],
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

    /// Memories of this core: the SBUF banks and the descriptor RAM.
    #[inline(always)]
    pub fn mem_count(&self) -> usize {
        self.cfg.engines + 1
    }

    /// All paths idle (the in-path and every read lane waiting for an
    /// address), every memory unclaimed and every out-path B returned.
    pub fn idle(&self) -> bool {
        self.w_st == WState::Idle
            && matches!(self.i_st, WState::Idle | WState::Addr)
            && self.lanes[..self.cfg.engines]
                .iter()
                .all(|l| matches!(l.st, RState::Idle | RState::Addr))
            && self.own.iter().all(|&o| o == OWN_NONE)
            && self.ro.iter().all(Option::is_none)
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

    /// Decoders of this core: out-path 0, in-path 1, read lane `e` at `2 + e`.
    #[inline(always)]
    pub fn dec_count(&self) -> usize {
        self.cfg.engines + 2
    }

    /// The write master whose outputs [`Self::target_outputs`] and
    /// [`Self::update`] read this cycle (besides the link master, the read
    /// masters and the request masks): the registered grant (0 in reset).
    #[inline(always)]
    pub fn write_grant(&self, rst: bool) -> usize {
        if rst {
            0
        } else {
            self.w_g
        }
    }

    /// `valid_i` and `addr_i` of decoder `k` this cycle: its path in ADDR
    /// takes the master's address in the handshake cycle (valid = the
    /// master's AWVALID / ARVALID); otherwise not valid, the held address.
    #[inline(always)]
    fn dec_drive(&self, k: usize, rst: bool, ms: &impl Masters) -> (bool, u64) {
        if rst {
            return (false, 0);
        }
        match k {
            0 if self.w_st == WState::Addr => {
                let m = ms.wm(self.w_g);
                (m.awvalid, m.awaddr)
            }
            0 => (false, self.w_addr),
            1 if self.i_st == WState::Addr => {
                let m = ms.wm(self.link_master());
                (m.awvalid, m.awaddr)
            }
            1 => (false, self.i_addr),
            _ => {
                let l = &self.lanes[k - 2];
                if l.st == RState::Addr {
                    let m = ms.rm(k - 2);
                    (m.arvalid, m.araddr)
                } else {
                    (false, l.addr)
                }
            }
        }
    }

    /// `valid_i` of decoder `k` this cycle (see [`Self::dec_input`]).
    #[inline(always)]
    pub fn dec_valid(&self, k: usize, rst: bool, ms: &impl Masters) -> bool {
        self.dec_drive(k, rst, ms).0
    }

    /// Inputs of decoder `k` (out-path 0, in-path 1, read lane `k - 2`) this
    /// cycle: in its path's ADDR state the master's address (the decoder
    /// takes it in the AW / AR handshake cycle), else the held address.
    #[inline]
    pub fn dec_input(&self, k: usize, rst: bool, ms: &impl Masters) -> DecoderIn {
        let die = match (k, self.fault) {
            (0, Some(XbarFault::WrongDieBit)) => self.cfg.self_die ^ 1,
            _ => self.cfg.self_die,
        };
        let (valid, addr) = self.dec_drive(k, rst, ms);
        DecoderIn {
            rst_ni: u64::from(!rst),
            valid_i: u64::from(valid),
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
            mem: 0,
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
                    let part = (off >> 21) & 0x7F;
                    let per_bank = u32::from(SBUF_PARTITIONS) / c.engines as u32;
                    r.tgt = TGT_SBUF;
                    r.mem = (part / per_bank) as usize;
                    r.word = (part % per_bank)
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
                    r.mem = c.engines;
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

    fn w_tgt_wready(&self, mem: &[SramOut], link: &LinkOut) -> bool {
        match self.w_tgt {
            TGT_SBUF | TGT_DESC => mem[self.w_mem].wready && self.own[self.w_mem] == OWN_OUT,
            TGT_LINK => link.wready,
            _ => true,
        }
    }

    fn i_tgt_wready(&self, mem: &[SramOut]) -> bool {
        match self.i_tgt {
            TGT_SBUF | TGT_DESC => mem[self.i_mem].wready && self.own[self.i_mem] == OWN_IN,
            _ => true,
        }
    }

    fn is_mem(t: u8) -> bool {
        t == TGT_SBUF || t == TGT_DESC
    }

    /// Memory `k`'s write lines this cycle belong to the out-path / the
    /// in-path (`out_has`, `in_has`): its owner, or the claimant in TGT_AW
    /// of an unowned memory (the in-path first), so a claim and its AW
    /// handshake share one cycle. `own`: the owners (reset values in reset).
    #[inline(always)]
    fn has(own: u8, out_w: bool, in_w: bool) -> (bool, bool) {
        (
            own == OWN_OUT || (own == OWN_NONE && out_w && !in_w),
            own == OWN_IN || (own == OWN_NONE && in_w),
        )
    }

    /// The out-path / in-path waits in TGT_AW for memory `k` (`out_w`, `in_w`).
    #[inline(always)]
    fn claims(&self, k: usize) -> (bool, bool) {
        (
            self.w_st == WState::TgtAw && Self::is_mem(self.w_tgt) && self.w_mem == k,
            self.i_st == WState::TgtAw && Self::is_mem(self.i_tgt) && self.i_mem == k,
        )
    }

    /// Each memory's read pick this cycle (`r_pick`, `r_pick_ok`): the first
    /// lane waiting for it in RTgtAr in round-robin order from its pointer;
    /// `lanes` are the pre-edge lanes (the reset lanes in reset).
    #[inline(always)]
    fn read_picks(&self, lanes: &[RLane], rr: &[usize; MAX_MEM]) -> [Option<usize>; MAX_MEM] {
        let mut req = [0u32; MAX_MEM];
        for (e, l) in lanes.iter().enumerate() {
            if l.st == RState::TgtAr {
                req[l.mem] |= 1 << e;
            }
        }
        let mut pick = [None; MAX_MEM];
        for k in 0..self.mem_count() {
            if req[k] != 0 {
                pick[k] = rr_pick(req[k], rr[k]);
            }
        }
        pick
    }

    /// Outputs towards the masters and the EVT_SEM.
    #[inline]
    pub fn master_outputs(&self, rst: bool, mem: &[SramOut], link: &LinkOut) -> XbarMOut {
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
            // the memory's B goes straight to the link
            WState::Resp => {
                let m = &mem[self.i_mem];
                if m.bvalid {
                    o.wm_bvalid |= lm;
                }
                o.lin_bresp = m.bresp;
            }
            _ => {}
        }
        o.dbg_in = u64::from(self.own[self.cfg.engines]) << 8
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
        for (e, l) in self.lanes[..self.cfg.engines].iter().enumerate() {
            let bit = 1u32 << e;
            o.rm_rresp[e] = l.resp;
            match l.st {
                RState::Addr => o.rm_arready |= bit,
                RState::Data => {
                    let m = &mem[l.mem];
                    if m.rvalid {
                        o.rm_rvalid |= bit;
                    }
                    o.rm_rdata[e] = m.rdata;
                    o.rm_rresp[e] = m.rresp;
                    if m.rlast {
                        o.rm_rlast |= bit;
                    }
                }
                RState::Err => {
                    o.rm_rvalid |= bit;
                    if l.cnt == l.len {
                        o.rm_rlast |= bit;
                    }
                }
                _ => {}
            }
        }
        let l0 = &self.lanes[0];
        o.dbg = u64::from(self.w_cnt) << 24
            | u64::from(self.inc_v[0]) << 22
            | u64::from(self.inc_v[1]) << 23
            | u64::from(l0.tgt) << 19
            | (l0.mem as u64 & 0x1F) << 14
            | (l0.st as u64) << 11
            | u64::from(self.w_tgt) << 8
            | (self.w_g as u64 & 0x1F) << 3
            | (self.w_st as u64);
        o
    }

    /// Inputs of the memories (`mem_in[..mem_count()]`) and of the link's
    /// near side.
    #[inline]
    pub fn target_outputs(
        &self,
        rst: bool,
        ms: &impl Masters,
        mem_in: &mut [SramIn],
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

    /// The memories' AXI lines (their debug lines are left as they are):
    /// every memory's write lines as driven by no path (the out-path's
    /// data, no write valid), its read lines from its read arbiter (the
    /// picked lane's word and length, AR valid while its read port is free,
    /// R ready from its owning lane), then the write lines of the memory the
    /// out-path owns and of the one the in-path owns (an owner is one path,
    /// so at most one path drives a memory's write lines).
    #[inline(always)]
    fn mem_lines(&self, rst: bool, ms: &impl Masters, mem_in: &mut [SramIn]) {
        let reset_lanes = [RLane::RESET; MAX_ENGINES];
        let n = self.cfg.engines;
        let (lanes, ro, rr) = if rst {
            (&reset_lanes[..n], &[None; MAX_MEM], &[0; MAX_MEM])
        } else {
            (&self.lanes[..n], &self.ro, &self.r_rr)
        };
        let (w_st, w_g, w_tgt, w_mem, w_word, i_st, i_tgt, i_mem, i_word) = if rst {
            (WState::Idle, 0, TGT_ERR, 0, 0, WState::Idle, TGT_ERR, 0, 0)
        } else {
            (
                self.w_st,
                self.w_g,
                self.w_tgt,
                self.w_mem,
                self.w_word,
                self.i_st,
                self.i_tgt,
                self.i_mem,
                self.i_word,
            )
        };
        let own = if rst { [OWN_NONE; MAX_MEM] } else { self.own };
        let picks = self.read_picks(lanes, rr);
        let m = ms.wm(w_g);
        for (k, s) in mem_in[..self.mem_count()].iter_mut().enumerate() {
            let pl = &lanes[picks[k].unwrap_or(0)];
            *s = SramIn {
                awaddr: w_word,
                awvalid: false,
                wdata: m.wdata,
                wstrb: m.wstrb,
                wlast: m.wlast,
                wvalid: false,
                bready: false,
                araddr: pl.word,
                arlen: pl.len as u32,
                arvalid: ro[k].is_none() && picks[k].is_some(),
                rready: ro[k].is_some_and(|e| ms.rm(e).rready),
                dbg_we: s.dbg_we,
                dbg_addr: s.dbg_addr,
                dbg_wdata: s.dbg_wdata,
            };
        }
        let w_mine = Self::is_mem(w_tgt);
        let i_mine = Self::is_mem(i_tgt);
        let out_w = |k: usize| w_st == WState::TgtAw && w_mine && w_mem == k;
        let in_w = |k: usize| i_st == WState::TgtAw && i_mine && i_mem == k;
        if w_mine && Self::has(own[w_mem], out_w(w_mem), in_w(w_mem)).0 {
            let s = &mut mem_in[w_mem];
            s.awvalid = w_st == WState::TgtAw;
            s.wvalid = w_st == WState::Data && m.wvalid;
            s.bready = w_st == WState::Resp;
        }
        if i_mine && Self::has(own[i_mem], out_w(i_mem), in_w(i_mem)).1 {
            let lm = ms.wm(self.link_master());
            let s = &mut mem_in[i_mem];
            s.awaddr = i_word;
            s.wdata = lm.wdata;
            s.wstrb = lm.wstrb;
            s.wlast = lm.wlast;
            s.awvalid = i_st == WState::TgtAw;
            s.wvalid = i_st == WState::Data && lm.wvalid;
            s.bready = i_st == WState::Resp && lm.bready;
        }
    }

    /// The memory owners' next values (`own_d`, from the pre-edge state).
    #[inline(always)]
    fn next_owners(&self, mem: &[SramOut], link_bready: bool, own_d: &mut [u8; MAX_MEM]) {
        for (k, od) in own_d[..self.mem_count()].iter_mut().enumerate() {
            let (out_w, in_w) = self.claims(k);
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
                    if self.i_st == WState::Resp && mem[k].bvalid && link_bready {
                        *od = OWN_NONE;
                    }
                }
                _ => *od = OWN_NONE,
            }
        }
    }

    /// The in-path FSM's clock edge (its one master, the link, `lw`).
    #[inline(always)]
    fn in_path_update(&mut self, lw: &WmIn, mem: &[SramOut], dec: &DecoderOut) {
        let mut inc2_v = [false; 2];
        match self.i_st {
            // one master: out of reset the in-path waits in ADDR
            WState::Idle => self.i_st = WState::Addr,
            WState::Addr => {
                if lw.awvalid {
                    self.i_st = WState::Route;
                    self.i_addr = lw.awaddr;
                    self.i_len = lw.awlen;
                }
            }
            WState::Route => {
                let r = self.route_of(dec, self.i_len, true, true);
                self.i_tgt = r.tgt;
                self.i_mem = r.mem;
                self.i_word = r.word;
                self.i_resp = r.resp;
                self.i_st = if r.tgt == TGT_SEM || r.tgt == TGT_ERR {
                    WState::Data
                } else {
                    WState::TgtAw
                };
            }
            WState::TgtAw => {
                let k = self.i_mem;
                let (out_w, in_w) = self.claims(k);
                if Self::has(self.own[k], out_w, in_w).1 && mem[k].awready {
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
                if mem[self.i_mem].bvalid && lw.bready {
                    self.i_st = WState::Addr;
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

    /// The read lanes' and read arbiters' clock edge (`picks` from the
    /// pre-edge state).
    #[inline(always)]
    fn read_lanes_update(
        &mut self,
        ms: &impl Masters,
        mem: &[SramOut],
        dec: &[DecoderOut],
        picks: &[Option<usize>; MAX_MEM],
    ) {
        let n = self.cfg.engines;
        // arbiters: AR handshake (port free, a pick, the memory ready) or the
        // owning lane's RLAST handshake
        let mut ar_hs = [false; MAX_MEM];
        for k in 0..self.mem_count() {
            match (self.ro[k], picks[k]) {
                (None, Some(p)) => {
                    if mem[k].arready {
                        ar_hs[k] = true;
                        self.ro[k] = Some(p);
                        self.r_rr[k] = if p == n - 1 { 0 } else { p + 1 };
                    }
                }
                (Some(e), _) => {
                    if mem[k].rvalid && ms.rm(e).rready && mem[k].rlast {
                        self.ro[k] = None;
                    }
                }
                _ => {}
            }
        }
        for e in 0..n {
            let l = &mut self.lanes[e];
            match l.st {
                // one master: out of reset the lane waits in ADDR
                RState::Idle => l.st = RState::Addr,
                RState::Addr => {
                    let m = ms.rm(e);
                    if m.arvalid {
                        l.st = RState::Route;
                        l.addr = m.araddr;
                        l.len = m.arlen;
                    }
                }
                RState::Route => {
                    let len = l.len;
                    let r = self.route_of(&dec[2 + e], len, false, false);
                    let l = &mut self.lanes[e];
                    l.tgt = r.tgt;
                    l.mem = r.mem;
                    l.word = r.word;
                    l.resp = r.resp;
                    l.cnt = 0;
                    l.st = if Self::is_mem(r.tgt) {
                        RState::TgtAr
                    } else {
                        RState::Err
                    };
                }
                RState::TgtAr => {
                    if ar_hs[l.mem] && picks[l.mem] == Some(e) {
                        l.st = RState::Data;
                    }
                }
                RState::Data => {
                    let m = &mem[l.mem];
                    if m.rvalid && ms.rm(e).rready && m.rlast {
                        l.st = RState::Addr;
                    }
                }
                _ => {
                    if ms.rm(e).rready {
                        let last = l.cnt == l.len;
                        l.cnt = (l.cnt + 1) & 0xFF;
                        if last {
                            l.st = RState::Addr;
                        }
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
        mem: &[SramOut],
        link: &LinkOut,
        dec: &DecoderOut,
        w_has: bool,
    ) -> Option<(usize, bool, u64)> {
        let n_wm = self.wm_count();
        let lmi = self.link_master();
        let g = self.w_g;
        let next_rr = if g == n_wm - 1 { 0 } else { g + 1 };
        let all_wm = if n_wm >= 32 {
            u32::MAX
        } else {
            (1u32 << n_wm) - 1
        };
        // the next master at the end of this burst (`w_next`): the pick from
        // the master after this one, while the queue keeps a free entry
        // after this burst's
        let next = if self.bq_cnt + 1 < BQ_DEPTH {
            rr_pick(ms.aw_req() & all_wm & !(1 << lmi), next_rr)
        } else {
            None
        };
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
                    self.w_st = WState::Route;
                    self.w_addr = m.awaddr;
                    self.w_len = m.awlen;
                }
            }
            WState::Route => {
                let r = self.route_of(dec, self.w_len, g == lmi, true);
                self.w_tgt = r.tgt;
                self.w_mem = r.mem;
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
                    TGT_SBUF | TGT_DESC => w_has && mem[self.w_mem].awready,
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
                            self.burst_end(next, next_rr);
                        }
                    }
                }
            }
            WState::Resp => {
                let k = self.w_mem;
                if mem[k].bvalid {
                    push = Some((g, true, mem[k].bresp));
                    self.burst_end(next, next_rr);
                }
            }
            _ => self.w_st = WState::Idle,
        }
        self.inc_v = inc_v;
        push
    }

    /// The end of an out-path burst: straight to ADDR with the `next` master
    /// (no IDLE cycle), or to IDLE; the round-robin pointer after this master.
    #[inline(always)]
    fn burst_end(&mut self, next: Option<usize>, next_rr: usize) {
        if let Some(m) = next {
            self.w_st = WState::Addr;
            self.w_g = m;
        } else {
            self.w_st = WState::Idle;
        }
        self.w_rr = next_rr;
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
        mem: &[SramOut],
        link: &LinkOut,
        dec: &[DecoderOut],
    ) {
        if rst {
            self.reset();
            return;
        }
        let lmi = self.link_master();
        // ---- memory owners (from the pre-edge state): an unowned memory
        // stays unowned unless a path is in TGT_AW, so with none owned and
        // neither path there the owners hold.
        let mut own_d = self.own;
        if self.w_st == WState::TgtAw
            || self.i_st == WState::TgtAw
            || self.own.iter().any(|&o| o != OWN_NONE)
        {
            self.next_owners(mem, ms.wm(lmi).bready, &mut own_d);
        }
        // the out-path's hold on its memory's write lines (`out_has`), from
        // the pre-edge state of both paths
        let (out_w, in_w) = self.claims(self.w_mem);
        let w_has = Self::has(self.own[self.w_mem], out_w, in_w).0;
        self.in_path_update(ms.wm(lmi), mem, &dec[1]);
        // ---- out-path and its response queue (both from the pre-edge state)
        let lk_aw_hs =
            self.w_st == WState::TgtAw && self.w_tgt == TGT_LINK && self.lk_ok() && link.awready;
        let bq_pop = self.bq_head() && ms.b_req() >> self.bq_m[self.bq_rp] & 1 != 0;
        let push = self.out_path_update(ms, mem, link, &dec[0], w_has);
        self.bq_update(link, lk_aw_hs, bq_pop, push);
        let picks = self.read_picks(&self.lanes[..self.cfg.engines], &self.r_rr);
        self.read_lanes_update(ms, mem, dec, &picks);
        self.own = own_d;
    }
}
