//! Golden model of `rtl/sb2sb_xbar.sv`: the AXI4 interconnect of one core,
//! routing every burst with a [`Decoder`] instance
//! (one per write lane, per in-lane and per read lane) on the SoC address.
//! The SBUF is banked by partition: memory `b < engines` is SBUF bank `b`
//! (partitions `b * 128 / engines ..`), memory `engines` the descriptor RAM.
//!
//! Lanes: one write lane per write master (engine `e`: lane `e`, the Q7
//! memory port: lane `engines`) with its own in-order response queue
//! ([`BQ_DEPTH`] entries; a link burst is posted and completes its entry
//! when the peer's B comes back), one in-lane per incoming link lane, one
//! read lane per engine read master. Every target has a round-robin arbiter
//! (`rr_pick`): each memory's write port (write lanes and in-lanes), each
//! memory's read port (read lanes), the SEM_INCR window of the write lanes
//! and of the in-lanes, and each outgoing link lane (write lane `e` uses
//! link lane `e mod lanes`, the Q7 lane link lane 0; [`lk_of`]).
//!
//! The routing table is in `docs/pair.md` and the RTL header. The outputs
//! towards the masters depend on the registered state and on the memories'
//! and the links' (Moore) outputs only, so [`Xbar::master_outputs`] can be
//! evaluated before the UDMA engines step; [`Xbar::target_outputs`] and
//! [`Xbar::update`] follow once the engines' outputs are known.

// The FSM arms mirror the RTL's `unique case` states one by one, and the
// per-lane / per-target loops index several parallel arrays as the RTL's
// `for` loops do.
#![allow(
    clippy::collapsible_match,
    clippy::collapsible_if,
    clippy::needless_range_loop
)]

use crate::addr::{ROUTE_OTHER_CHIP, ROUTE_OTHER_DIE, ROUTE_SAME_DIE};
use crate::decoder::{Decoder, DecoderIn, DecoderOut};
use crate::system::map;
use crate::system::topology::SBUF_PARTITIONS;

use super::link::{LinkNearIn, LinkOut};
use super::sram::{SramIn, SramOut, WORD_BYTES};
use crate::udma::beat::Beat;

/// log2 of the bytes of a beat (the shift from a byte offset to a word).
const BB_LOG: u32 = WORD_BYTES.trailing_zeros();
/// Offset-in-beat mask of a byte address.
const BEAT_MASK: u32 = WORD_BYTES - 1;
/// 32-bit lanes of a beat: the EVT_SEM increment ports per side (`IncL`).
pub const INC_L: usize = WORD_BYTES as usize / 4;
/// Increment ports of the interconnect: write lanes `0..INC_L`, in-lanes
/// `INC_L..2 INC_L`.
pub const INC_PORTS: usize = 2 * INC_L;

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

/// Data stage of the write lanes (every state) and of the in-lanes (`Idle`,
/// `TgtAw`, `Data`): `wst_e` of `rtl/sb2sb_xbar.sv`, same names and encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[repr(u8)]
enum WState {
    #[default]
    Idle = 0,
    TgtAw = 4,
    Data = 5,
    Resp = 6,
}

/// Address stage of the write lanes and of the in-lanes: `iast_e` of
/// `rtl/sb2sb_xbar.sv`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[repr(u8)]
enum IaState {
    #[default]
    Idle = 0,
    Addr = 1,
    Route = 2,
}

/// Read lanes' address stage: `rst_e` of `rtl/sb2sb_xbar.sv`, same names and
/// encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[repr(u8)]
enum RState {
    #[default]
    Idle = 0,
    Addr = 1,
    Route = 3,
}

/// Entries of each read lane's burst queue (`RqDepth` of `rtl/sb2sb_xbar.sv`).
const RQ_DEPTH: usize = 2;

/// Entries of each write lane's response queue (`BqDepth` of `rtl/sb2sb_xbar.sv`).
pub const BQ_DEPTH: usize = 8;

/// Entries of each link lane's owner FIFO: link bursts awaiting their B
/// (`LkDepth` of `rtl/sb2sb_xbar.sv`).
pub const LK_DEPTH: usize = 8;

/// Most engines of a core (`sb2sb_core`'s `NumEngines` limit): read lanes,
/// SBUF banks, link lanes and in-lanes.
pub const MAX_ENGINES: usize = 16;

/// Most memories of a core: [`MAX_ENGINES`] SBUF banks and the descriptor RAM.
pub const MAX_MEM: usize = MAX_ENGINES + 1;

/// Most write lanes of a core: the engines and the Q7 memory port.
pub const MAX_WL: usize = MAX_ENGINES + 1;

/// One write lane's registers (`wl_*_q[j]`, `bq_*_q[j]` of `rtl/sb2sb_xbar.sv`):
/// the address stage (`a`, `aaddr`, `alen`; `rt` is the RTL's `wl_route[j]`,
/// a function of the decoder's registers, which hold, kept here from the AW
/// edge) and the data stage (`st`, target, memory, address, length, word,
/// response).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct WLane {
    a: IaState,
    aaddr: u64,
    alen: u64,
    st: WState,
    rt: Route,
    tgt: u8,
    mem: usize,
    addr: u64,
    len: u64,
    word: u32,
    resp: u64,
    /// Response queue: completed and response of each entry, pointers, count.
    bq_done: [bool; BQ_DEPTH],
    bq_resp: [u64; BQ_DEPTH],
    bq_wp: usize,
    bq_rp: usize,
    bq_cnt: usize,
}

impl WLane {
    const RESET: Self = Self {
        a: IaState::Idle,
        aaddr: 0,
        alen: 0,
        st: WState::Idle,
        rt: Route::NONE,
        tgt: TGT_ERR,
        mem: 0,
        addr: 0,
        len: 0,
        word: 0,
        resp: 0,
        bq_done: [false; BQ_DEPTH],
        bq_resp: [0; BQ_DEPTH],
        bq_wp: 0,
        bq_rp: 0,
        bq_cnt: 0,
    };

    /// The head entry is completed (`bq_head`).
    #[inline(always)]
    fn bq_head(&self) -> bool {
        self.bq_cnt != 0 && self.bq_done[self.bq_rp]
    }

    /// The idle data stage takes the address stage's burst (`wl_take`:
    /// ROUTE).
    #[inline(always)]
    fn take(&self) -> bool {
        self.st == WState::Idle && self.a == IaState::Route
    }

    /// The lane asks for its target (`wl_req`): in TGT_AW, or in ROUTE with
    /// a route to a target.
    #[inline(always)]
    fn req(&self) -> bool {
        self.st == WState::TgtAw || (self.take() && self.rt.tgt != TGT_ERR)
    }

    /// The target, memory and word it asks for (`wl_etgt`, `wl_emem`,
    /// `wl_eword`): the route in ROUTE, the registered ones otherwise.
    #[inline(always)]
    fn eff(&self) -> (u8, usize, u32) {
        if self.take() {
            (self.rt.tgt, self.rt.mem, self.rt.word)
        } else {
            (self.tgt, self.mem, self.word)
        }
    }

    /// The burst's address and length (`wl_eaddr`, `wl_elen`): the address
    /// stage's in ROUTE, the data stage's otherwise.
    #[inline(always)]
    fn eff_addr(&self) -> (u64, u64) {
        if self.take() {
            (self.aaddr, self.alen)
        } else {
            (self.addr, self.len)
        }
    }

    /// AWREADY: the address stage waits for an address and the response
    /// queue has room for it and for the data stage's burst.
    #[inline(always)]
    fn awready(&self) -> bool {
        self.a == IaState::Addr && self.bq_cnt + usize::from(self.st != WState::Idle) < BQ_DEPTH
    }
}

/// One in-lane's registers (`il_*_q[i]`): the address stage (`a`, `len`;
/// `rt` is the RTL's `il_route[i]`, kept from the AW edge), the data stage
/// (`st`, target, memory, word, response) and the B owed over the link
/// (`bp`: SRAM's B of memory `bpm`, or answered by the lane, `bps`, with
/// `bpr`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ILane {
    a: IaState,
    rt: Route,
    st: WState,
    tgt: u8,
    mem: usize,
    len: u64,
    word: u32,
    resp: u64,
    bp: bool,
    bps: bool,
    bpm: usize,
    bpr: u64,
}

impl ILane {
    const RESET: Self = Self {
        a: IaState::Idle,
        rt: Route::NONE,
        st: WState::Idle,
        tgt: TGT_ERR,
        mem: 0,
        len: 0,
        word: 0,
        resp: 0,
        bp: false,
        bps: false,
        bpm: 0,
        bpr: 0,
    };
}

/// One read lane's registers (`r_*_q[e]`, `rq_*_q[e]` of
/// `rtl/sb2sb_xbar.sv`): the address stage (`st`, `len`; `rt` the RTL's
/// `r_route[e]`, kept from the AR edge), the burst queue (error, memory,
/// length, response per entry) and the beat count of an answered head.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct RLane {
    st: RState,
    rt: Route,
    len: u64,
    cnt: u64,
    q_err: [bool; RQ_DEPTH],
    q_mem: [usize; RQ_DEPTH],
    q_len: [u64; RQ_DEPTH],
    q_resp: [u64; RQ_DEPTH],
    wp: usize,
    rp: usize,
    qn: usize,
}

impl RLane {
    const RESET: Self = Self {
        st: RState::Idle,
        rt: Route::NONE,
        len: 0,
        cnt: 0,
        q_err: [false; RQ_DEPTH],
        q_mem: [0; RQ_DEPTH],
        q_len: [0; RQ_DEPTH],
        q_resp: [0; RQ_DEPTH],
        wp: 0,
        rp: 0,
        qn: 0,
    };

    /// The head entry is answered by the lane (`r_herr`; the entry at the
    /// read pointer, valid or not).
    #[inline(always)]
    fn herr(&self) -> bool {
        self.q_err[self.rp]
    }

    /// The head entry's memory (`r_hmem`).
    #[inline(always)]
    fn hmem(&self) -> usize {
        self.q_mem[self.rp]
    }
}

/// One outgoing link lane's registers: owner (AW to WLAST), round-robin
/// pointer, owner FIFO of the link bursts awaiting B, their count and
/// destination (address bits [63:32]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct LkLane {
    own: Option<usize>,
    rr: usize,
    lf: [usize; LK_DEPTH],
    lf_wp: usize,
    lf_rp: usize,
    pend: usize,
    hi: u32,
}

impl LkLane {
    const RESET: Self = Self {
        own: None,
        rr: 0,
        lf: [0; LK_DEPTH],
        lf_wp: 0,
        lf_rp: 0,
        pend: 0,
        hi: 0,
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
    /// The write lanes' decoders compare the DIE bit with the wrong die (the
    /// inverted `self_die_i`).
    WrongDieBit,
}

/// Static configuration (the RTL parameters and straps). `engines` divides
/// the 128 SBUF partitions (one SBUF bank per engine); the core has
/// `engines` link lanes per direction.
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
    pub wdata: Beat,
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
/// write masters `0..=engines` (the engines, the Q7 store), the link-in
/// masters `0..engines` (the incoming link lanes' far sides), read masters
/// `0..engines`.
pub trait Masters {
    /// Write master `j`'s outputs.
    fn wm(&self, j: usize) -> &WmIn;
    /// Link-in master `i`'s outputs.
    fn lin(&self, i: usize) -> &WmIn;
    /// Read master `e`'s outputs.
    fn rm(&self, e: usize) -> &RmIn;
}

/// Outputs towards the masters and the EVT_SEM (bit k of a mask = master k).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct XbarMOut {
    /// Write masters (bit j = write lane j).
    pub wm_awready: u32,
    pub wm_wready: u32,
    pub wm_bvalid: u32,
    pub wm_bresp: [u64; MAX_WL],
    /// Link-in masters (bit i = in-lane i).
    pub lin_awready: u32,
    pub lin_wready: u32,
    pub lin_bvalid: u32,
    pub lin_bresp: [u64; MAX_ENGINES],
    pub rm_arready: u32,
    pub rm_rvalid: u32,
    /// R payload of each read lane (index = engine).
    pub rm_rdata: [Beat; MAX_ENGINES],
    pub rm_rresp: [u64; MAX_ENGINES],
    /// RLAST of each read lane (bit e = engine e).
    pub rm_rlast: u32,
    /// Increment ports `0..INC_L` (write lanes) and `INC_L..INC_PORTS`
    /// (in-lanes).
    pub inc_valid: [bool; INC_PORTS],
    pub inc_idx: [u8; INC_PORTS],
    pub inc_value: [u32; INC_PORTS],
    pub dbg: u64,
    pub dbg_in: u64,
}

/// Route of one burst (`route_t`): target, memory index (SBUF bank or the
/// descriptor RAM), word inside the memory, response.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Route {
    tgt: u8,
    mem: usize,
    word: u32,
    resp: u64,
}

impl Route {
    /// No route yet (a lane out of reset).
    const NONE: Self = Self {
        tgt: TGT_ERR,
        mem: 0,
        word: 0,
        resp: 3,
    };
}

/// The interconnect registers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Xbar {
    pub cfg: XbarCfg,
    pub fault: Option<XbarFault>,
    /// Write lanes (engines, then the Q7 store).
    wl: [WLane; MAX_WL],
    /// Write bursts routed by the write lanes, mod 256.
    w_cnt: u8,
    /// In-lanes (index = incoming link lane).
    il: [ILane; MAX_ENGINES],
    /// Per memory: the write port's W owner (pick to WLAST; a write lane
    /// `j`, or in-lane `i` as `nwl + i`; the register keeps the last owner),
    /// its B owners (WLAST to the SRAM's B, in WLAST order: `bo_n` of them,
    /// head at 0; the SRAM's two-entry response queue) and the round-robin
    /// pointer of its write arbiter.
    wo_v: [bool; MAX_MEM],
    wo: [usize; MAX_MEM],
    bo_n: [usize; MAX_MEM],
    bo: [[usize; 2]; MAX_MEM],
    mw_rr: [usize; MAX_MEM],
    /// SEM_INCR window owners and pointers: write lanes, in-lanes.
    ls: Option<usize>,
    ls_rr: usize,
    is: Option<usize>,
    is_rr: usize,
    inc_v: [bool; INC_L],
    inc_i: [u8; INC_L],
    inc_val: [u32; INC_L],
    inc2_v: [bool; INC_L],
    inc2_i: [u8; INC_L],
    inc2_val: [u32; INC_L],
    /// Outgoing link lanes.
    lk: [LkLane; MAX_ENGINES],
    /// Read lanes (index = engine).
    lanes: [RLane; MAX_ENGINES],
    /// Per memory: the lanes whose read bursts it holds (`ro` streaming,
    /// `rn` next; the registers keep the last value), and the round-robin
    /// pointer of its read arbiter.
    ro_v: [bool; MAX_MEM],
    ro: [usize; MAX_MEM],
    rn_v: [bool; MAX_MEM],
    rn: [usize; MAX_MEM],
    r_rr: [usize; MAX_MEM],
}

/// Round-robin pick, the one arbiter rule of the interconnect (`rr_pick` of
/// the RTL): the first requester of mask `req` (bit q = requester q) at or
/// after the pointer `rr`, else the first one from 0.
#[inline(always)]
pub(super) fn rr_pick(req: u64, rr: usize) -> Option<usize> {
    let from_rr = if rr >= 64 { 0 } else { req & (u64::MAX << rr) };
    let m = if from_rr != 0 { from_rr } else { req };
    (m != 0).then(|| m.trailing_zeros() as usize)
}

/// The pointer after a grant of requester `q` among `n` (`rr_after`).
#[inline(always)]
fn rr_after(q: usize, n: usize) -> usize {
    if q + 1 >= n {
        0
    } else {
        q + 1
    }
}

/// Link lane of write lane `j` of a core with `n` engines (`lk_of`): engine
/// `e` uses lane `e` (one link lane per engine), the Q7 lane lane 0.
#[inline(always)]
pub fn lk_of(j: usize, n: usize) -> usize {
    if j < n {
        j
    } else {
        0
    }
}

/// Arbitration of one cycle, from the registered state: per memory the
/// write-port claimant (owner, or the pick of an unowned port), the SEM
/// picks, per link lane the claimant and whether it may raise AW.
#[derive(Debug, Clone, Copy)]
struct Arb {
    mw_pick: [Option<usize>; MAX_MEM],
    mc: [Option<usize>; MAX_MEM],
    ls_pick: Option<usize>,
    is_pick: Option<usize>,
    lk_pick: [Option<usize>; MAX_ENGINES],
    lc: [Option<usize>; MAX_ENGINES],
    lk_ok: [bool; MAX_ENGINES],
}

fn is_mem(t: u8) -> bool {
    t == TGT_SBUF || t == TGT_DESC
}

impl Xbar {
    pub fn new(cfg: XbarCfg) -> Self {
        Self {
            cfg,
            fault: None,
            wl: [WLane::RESET; MAX_WL],
            w_cnt: 0,
            il: [ILane::RESET; MAX_ENGINES],
            wo_v: [false; MAX_MEM],
            wo: [0; MAX_MEM],
            bo_n: [0; MAX_MEM],
            bo: [[0; 2]; MAX_MEM],
            mw_rr: [0; MAX_MEM],
            ls: None,
            ls_rr: 0,
            is: None,
            is_rr: 0,
            inc_v: [false; INC_L],
            inc_i: [0; INC_L],
            inc_val: [0; INC_L],
            inc2_v: [false; INC_L],
            inc2_i: [0; INC_L],
            inc2_val: [0; INC_L],
            lk: [LkLane::RESET; MAX_ENGINES],
            lanes: [RLane::RESET; MAX_ENGINES],
            ro_v: [false; MAX_MEM],
            ro: [0; MAX_MEM],
            rn_v: [false; MAX_MEM],
            rn: [0; MAX_MEM],
            r_rr: [0; MAX_MEM],
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

    /// Write lanes of this core: the engines and the Q7 store.
    #[inline(always)]
    pub fn wl_count(&self) -> usize {
        self.cfg.engines + 1
    }

    /// Link lanes per direction (and in-lanes) of this core: one per engine.
    #[inline(always)]
    pub fn link_lanes(&self) -> usize {
        self.cfg.engines
    }

    /// Every lane waiting for an address, every port unowned and every B
    /// returned.
    pub fn idle(&self) -> bool {
        let (n, nwl) = (self.cfg.engines, self.wl_count());
        self.wl[..nwl].iter().all(|l| {
            matches!(l.a, IaState::Idle | IaState::Addr) && l.st == WState::Idle && l.bq_cnt == 0
        }) && self.il[..n]
            .iter()
            .all(|l| matches!(l.a, IaState::Idle | IaState::Addr) && l.st == WState::Idle && !l.bp)
            && self.lanes[..n]
                .iter()
                .all(|l| matches!(l.st, RState::Idle | RState::Addr) && l.qn == 0)
            && self.wo_v.iter().all(|&v| !v)
            && self.bo_n.iter().all(|&v| v == 0)
            && self.ro_v.iter().all(|&v| !v)
            && self.rn_v.iter().all(|&v| !v)
            && self.ls.is_none()
            && self.is.is_none()
            && self.lk[..n].iter().all(|l| l.own.is_none() && l.pend == 0)
    }

    /// The destination each link lane's near side serves this cycle, in
    /// `out[l]` for lane `l` (registered state only, so a fabric can pick
    /// the link before the core steps): while link B responses are
    /// outstanding on a lane, their destination (address bits `[63:32]`,
    /// offset 0; a burst to another destination waits for them), else the
    /// address of its claimant's burst. One arbitration serves every lane.
    pub fn out_link_addrs(&self, out: &mut Vec<Option<u64>>) {
        out.clear();
        let lanes = self.link_lanes();
        let a = self.arb();
        out.extend(self.lk[..lanes].iter().zip(&a.lc).map(|(k, lc)| {
            if k.pend != 0 {
                Some(u64::from(k.hi) << 32)
            } else {
                lc.map(|j| self.wl[j].eff_addr().0)
            }
        }));
    }

    /// Decoders of this core: write lane `j` at `j`, in-lane `i` at
    /// `engines + 1 + i`, read lane `e` at `2 * engines + 1 + e`.
    #[inline(always)]
    pub fn dec_count(&self) -> usize {
        3 * self.cfg.engines + 1
    }

    /// `valid_i` and `addr_i` of decoder `k` this cycle: its lane in ADDR
    /// takes the master's address in the handshake cycle; otherwise not
    /// valid, address 0.
    #[inline(always)]
    fn dec_drive(&self, k: usize, rst: bool, ms: &impl Masters) -> (bool, u64) {
        let (n, nwl) = (self.cfg.engines, self.wl_count());
        if rst {
            return (false, 0);
        }
        if k < nwl {
            let l = &self.wl[k];
            let m = ms.wm(k);
            if m.awvalid && l.awready() {
                return (true, m.awaddr);
            }
        } else if k < nwl + n {
            let m = ms.lin(k - nwl);
            if self.il[k - nwl].a == IaState::Addr && m.awvalid {
                return (true, m.awaddr);
            }
        } else {
            let e = k - nwl - n;
            let m = ms.rm(e);
            if self.lanes[e].st == RState::Addr && m.arvalid {
                return (true, m.araddr);
            }
        }
        (false, 0)
    }

    /// `valid_i` of decoder `k` this cycle (see [`Self::dec_input`]).
    #[inline(always)]
    pub fn dec_valid(&self, k: usize, rst: bool, ms: &impl Masters) -> bool {
        self.dec_drive(k, rst, ms).0
    }

    /// Inputs of decoder `k` ([`Self::dec_count`]) this cycle: in its lane's
    /// ADDR state the master's address (the decoder takes it in the AW / AR
    /// handshake cycle).
    #[inline]
    pub fn dec_input(&self, k: usize, rst: bool, ms: &impl Masters) -> DecoderIn {
        let die = match self.fault {
            Some(XbarFault::WrongDieBit) if k < self.wl_count() => self.cfg.self_die ^ 1,
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
        let bytes = ((len as u32) + 1) << BB_LOG;
        let inpart = (off & 0x1F_FFFF) & !BEAT_MASK;
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
                        >> BB_LOG;
                    r.resp = 0;
                }
            } else if (EVT_INCR_LO..EVT_INCR_HI).contains(&off) && wr {
                if (off & !BEAT_MASK) + bytes <= EVT_INCR_HI {
                    r.tgt = TGT_SEM;
                    r.word = (off - EVT_INCR_LO) >> BB_LOG;
                    r.resp = 0;
                }
            } else if off >= DESC_LO && off < DESC_LO + c.desc_bytes {
                if (off & !BEAT_MASK) + bytes <= DESC_LO + c.desc_bytes {
                    r.tgt = TGT_DESC;
                    r.mem = c.engines;
                    r.word = (off - DESC_LO) >> BB_LOG;
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

    /// This cycle's arbitration (`mw_pick`, `mc`, `ls_pick`, `is_pick`,
    /// `lk_pick`, `lc`, `lk_ok` of the RTL), from the registered state.
    #[inline(always)]
    fn arb(&self) -> Arb {
        let (n, nwl) = (self.cfg.engines, self.wl_count());
        let mut mreq = [0u64; MAX_MEM];
        let (mut lreq, mut ireq) = (0u64, 0u64);
        let mut kreq = [0u64; MAX_ENGINES];
        for (j, l) in self.wl[..nwl].iter().enumerate() {
            if !l.req() {
                continue;
            }
            let (tgt, mem, _) = l.eff();
            match tgt {
                TGT_SBUF | TGT_DESC => mreq[mem] |= 1 << j,
                TGT_SEM => lreq |= 1 << j,
                TGT_LINK => kreq[lk_of(j, n)] |= 1 << j,
                _ => {}
            }
        }
        for (i, l) in self.il[..n].iter().enumerate() {
            if l.st == WState::TgtAw {
                if is_mem(l.tgt) {
                    mreq[l.mem] |= 1 << (nwl + i);
                } else if l.tgt == TGT_SEM {
                    ireq |= 1 << i;
                }
            }
        }
        let mut a = Arb {
            mw_pick: [None; MAX_MEM],
            mc: [None; MAX_MEM],
            ls_pick: rr_pick(lreq, self.ls_rr),
            is_pick: rr_pick(ireq, self.is_rr),
            lk_pick: [None; MAX_ENGINES],
            lc: [None; MAX_ENGINES],
            lk_ok: [false; MAX_ENGINES],
        };
        for k in 0..self.mem_count() {
            a.mw_pick[k] = rr_pick(mreq[k], self.mw_rr[k]);
            a.mc[k] = if self.wo_v[k] {
                Some(self.wo[k])
            } else {
                a.mw_pick[k]
            };
        }
        for (l, k) in self.lk[..n].iter().enumerate() {
            a.lk_pick[l] = rr_pick(kreq[l], k.rr);
            a.lc[l] = k.own.or(a.lk_pick[l]);
            a.lk_ok[l] = a.lc[l].is_some_and(|j| {
                k.pend != LK_DEPTH
                    && (k.pend == 0 || (self.wl[j].eff_addr().0 >> 32) as u32 == k.hi)
            });
        }
        a
    }

    /// Write lane `j`'s target takes its W beat (`wl_wrdy`).
    #[inline(always)]
    fn wl_wrdy(&self, j: usize, mem: &[SramOut], links: &[LinkOut]) -> bool {
        let l = &self.wl[j];
        match l.tgt {
            TGT_SBUF | TGT_DESC => mem[l.mem].wready,
            TGT_LINK => links[lk_of(j, self.cfg.engines)].wready,
            _ => true,
        }
    }

    /// In-lane `i`'s target takes its W beat (`il_wrdy`).
    #[inline(always)]
    fn il_wrdy(&self, i: usize, mem: &[SramOut]) -> bool {
        let l = &self.il[i];
        !is_mem(l.tgt) || mem[l.mem].wready
    }

    /// Outputs towards the masters and the EVT_SEM.
    #[inline]
    pub fn master_outputs(
        &self,
        rst: bool,
        mem: &[SramOut],
        links: &[LinkOut],
        lins: &[WmIn],
    ) -> XbarMOut {
        if rst {
            return Self::new(self.cfg).master_outputs(false, mem, links, lins);
        }
        let (n, nwl) = (self.cfg.engines, self.wl_count());
        let mut o = XbarMOut::default();
        o.inc_valid[..INC_L].copy_from_slice(&self.inc_v);
        o.inc_valid[INC_L..].copy_from_slice(&self.inc2_v);
        o.inc_idx[..INC_L].copy_from_slice(&self.inc_i);
        o.inc_idx[INC_L..].copy_from_slice(&self.inc2_i);
        o.inc_value[..INC_L].copy_from_slice(&self.inc_val);
        o.inc_value[INC_L..].copy_from_slice(&self.inc2_val);
        // W ready of the write lanes and in-lanes: in DATA from the target,
        // and with a link or memory burst's AW (the arbitration is needed
        // only while a lane asks for a target)
        let mut g = Sig::default();
        let asks = self.wl[..nwl].iter().any(WLane::req)
            || self.il[..n].iter().any(|l| l.st == WState::TgtAw);
        if asks {
            let a = self.arb();
            self.wl_go(&a, mem, links, &mut g);
            for (i, lw) in lins[..n].iter().enumerate() {
                self.il_go(&a, i, lw, mem, &mut g);
            }
        } else {
            for j in 0..nwl {
                g.wl_w_go[j] = self.wl[j].st == WState::Data && self.wl_wrdy(j, mem, links);
            }
            for i in 0..n {
                g.il_w_go[i] = self.il[i].st == WState::Data && self.il_wrdy(i, mem);
            }
        }
        for (j, l) in self.wl[..nwl].iter().enumerate() {
            let bit = 1u32 << j;
            if l.awready() {
                o.wm_awready |= bit;
            }
            if g.wl_w_go[j] {
                o.wm_wready |= bit;
            }
            if l.bq_head() {
                o.wm_bvalid |= bit;
            }
            o.wm_bresp[j] = l.bq_resp[l.bq_rp];
        }
        for (i, l) in self.il[..n].iter().enumerate() {
            let bit = 1u32 << i;
            if l.a == IaState::Addr {
                o.lin_awready |= bit;
            }
            if g.il_w_go[i] {
                o.lin_wready |= bit;
            }
            // the B owed: the SRAM's straight to the link lane, or the lane's own
            let (bv, br) = self.il_b(i, mem);
            if bv {
                o.lin_bvalid |= bit;
            }
            o.lin_bresp[i] = br;
        }
        self.read_outputs(mem, &mut o);
        let own = |k: usize| match (self.wo_v[k], self.wo[k] < nwl) {
            (false, _) => 0u64,
            (true, true) => 1,
            (true, false) => 2,
        };
        let (w0, i0, l0) = (&self.wl[0], &self.il[0], &self.lanes[0]);
        o.dbg_in = u64::from(i0.bp) << 12
            | (i0.a as u64) << 10
            | own(n) << 8
            | own(0) << 6
            | u64::from(i0.tgt) << 3
            | (i0.st as u64);
        o.dbg = u64::from(self.w_cnt) << 24
            | u64::from(self.inc_v[0]) << 22
            | u64::from(self.inc_v[1]) << 23
            | u64::from(l0.herr()) << 21
            | (l0.qn as u64) << 19
            | (l0.hmem() as u64 & 0x1F) << 14
            | (l0.st as u64) << 11
            | u64::from(w0.tgt) << 8
            | (self.wo[0] as u64 & 0x1F) << 3
            | (w0.st as u64);
        o
    }

    /// The read lanes' outputs towards the engines: ARREADY in ADDR, the
    /// head entry's beats (its memory's once that memory streams this lane's
    /// burst, or answered here).
    #[inline(always)]
    fn read_outputs(&self, mem: &[SramOut], o: &mut XbarMOut) {
        for (e, l) in self.lanes[..self.cfg.engines].iter().enumerate() {
            let bit = 1u32 << e;
            if l.st == RState::Addr {
                o.rm_arready |= bit;
            }
            if l.qn == 0 {
                continue;
            }
            if l.herr() {
                o.rm_rvalid |= bit;
                if l.cnt == l.q_len[l.rp] {
                    o.rm_rlast |= bit;
                }
                o.rm_rresp[e] = l.q_resp[l.rp];
            } else {
                let m = &mem[l.hmem()];
                if self.r_own(e) && m.rvalid {
                    o.rm_rvalid |= bit;
                }
                o.rm_rdata[e] = m.rdata;
                o.rm_rresp[e] = m.rresp;
                if m.rlast {
                    o.rm_rlast |= bit;
                }
            }
        }
    }

    /// Read lane `e`'s head entry is a memory burst that its memory streams
    /// now (`r_own`).
    #[inline(always)]
    fn r_own(&self, e: usize) -> bool {
        let l = &self.lanes[e];
        let k = l.hmem();
        l.qn != 0 && !l.herr() && self.ro_v[k] && self.ro[k] == e
    }

    /// Each memory's read pick this cycle (`r_pick`, `r_pick_ok`): the first
    /// lane in ROUTE asking for it (queue room, a memory route) in
    /// round-robin order from its pointer.
    #[inline(always)]
    fn read_picks(&self) -> [Option<usize>; MAX_MEM] {
        let mut req = [0u64; MAX_MEM];
        for (e, l) in self.lanes[..self.cfg.engines].iter().enumerate() {
            if l.st == RState::Route && l.qn != RQ_DEPTH && is_mem(l.rt.tgt) {
                req[l.rt.mem] |= 1 << e;
            }
        }
        let mut pick = [None; MAX_MEM];
        for k in 0..self.mem_count() {
            pick[k] = rr_pick(req[k], self.r_rr[k]);
        }
        pick
    }

    /// Memory `k`'s ARVALID: a pick and room for its burst (`mem_arvalid_o`).
    #[inline(always)]
    fn mem_arvalid(&self, k: usize, picks: &[Option<usize>; MAX_MEM]) -> bool {
        !(self.ro_v[k] && self.rn_v[k]) && picks[k].is_some()
    }

    /// Memory `k`'s RREADY: the lane streaming from it takes the beat
    /// (`mem_rready_o`).
    #[inline(always)]
    fn mem_rready(&self, k: usize, ms: &impl Masters) -> bool {
        let e = self.ro[k];
        self.ro_v[k] && self.r_own(e) && self.lanes[e].hmem() == k && ms.rm(e).rready
    }

    /// Inputs of the memories (`mem_in[..mem_count()]`, their debug lines
    /// left as they are) and of the outgoing link lanes' near sides, from
    /// the registered state, the masters and the targets' (Moore) outputs.
    #[inline]
    pub fn target_outputs(
        &self,
        rst: bool,
        ms: &impl Masters,
        mem: &[SramOut],
        links: &[LinkOut],
        mem_in: &mut [SramIn],
        link_in: &mut [LinkNearIn],
    ) {
        if rst {
            return Self::new(self.cfg).target_outputs(false, ms, mem, links, mem_in, link_in);
        }
        let a = self.arb();
        let g = self.signals(&a, ms, mem, links);
        let picks = self.read_picks();
        for (k, s) in mem_in[..self.mem_count()].iter_mut().enumerate() {
            let pl = &self.lanes[picks[k].unwrap_or(0)];
            *s = SramIn {
                araddr: pl.rt.word,
                arlen: pl.len as u32,
                arvalid: self.mem_arvalid(k, &picks),
                rready: self.mem_rready(k, ms),
                dbg_we: s.dbg_we,
                dbg_addr: s.dbg_addr,
                dbg_wdata: s.dbg_wdata,
                ..SramIn::default()
            };
            self.mem_write_lines(k, a.mc[k], ms, &g, s);
        }
        for (l, li) in link_in[..self.link_lanes()].iter_mut().enumerate() {
            *li = LinkNearIn {
                // every link B completes a queue entry that is waiting for it
                bready: true,
                ..LinkNearIn::default()
            };
            if let Some(j) = a.lc[l] {
                let (w, m) = (&self.wl[j], ms.wm(j));
                (li.awaddr, li.awlen) = w.eff_addr();
                li.awvalid = w.req() && a.lk_ok[l];
                li.wdata = m.wdata;
                li.wstrb = m.wstrb;
                li.wlast = m.wlast;
                // W beats in DATA, the first one also with its AW
                li.wvalid = (w.st == WState::Data || g.lk_aw_hs[l]) && m.wvalid;
            }
        }
    }

    /// Memory `k`'s write lines from its claimant `q` (a write lane, or an
    /// in-lane as `nwl + i`; none: AW and W stay low) and BREADY from its B
    /// owner.
    #[inline(always)]
    fn mem_write_lines(
        &self,
        k: usize,
        q: Option<usize>,
        ms: &impl Masters,
        g: &Sig,
        s: &mut SramIn,
    ) {
        let nwl = self.wl_count();
        if let Some(q) = q {
            // W beats in DATA, the first one also with the AW
            let (awvalid, w_on, word, m) = if q < nwl {
                let w = &self.wl[q];
                (
                    w.req(),
                    w.st == WState::Data || g.wl_aw_go[q],
                    w.eff().2,
                    ms.wm(q),
                )
            } else {
                let i = q - nwl;
                let l = &self.il[i];
                (
                    l.st == WState::TgtAw && g.il_bp_ok[i],
                    l.st == WState::Data || g.il_aw_go[i],
                    l.word,
                    ms.lin(i),
                )
            };
            s.awaddr = word;
            s.wdata = m.wdata;
            s.wstrb = m.wstrb;
            s.wlast = m.wlast;
            s.awvalid = awvalid;
            s.wvalid = w_on && m.wvalid;
        }
        s.bready = self.mem_bready(k, ms);
    }

    /// Memory `k`'s BREADY: its head B owner takes the B (a write lane in
    /// RESP at once, an in-lane when its link lane takes it).
    #[inline(always)]
    fn mem_bready(&self, k: usize, ms: &impl Masters) -> bool {
        let (nwl, b) = (self.wl_count(), self.bo[k][0]);
        self.bo_n[k] != 0
            && if b < nwl {
                self.wl[b].st == WState::Resp
            } else {
                ms.lin(b - nwl).bready
            }
    }

    /// In-lane `i`'s B towards its link lane (`lin_bvalid_o`, `lin_bresp_o`):
    /// its own, or the SRAM's while the lane is that memory's head B owner.
    #[inline(always)]
    fn il_b(&self, i: usize, mem: &[SramOut]) -> (bool, u64) {
        let l = &self.il[i];
        let m = &mem[l.bpm];
        let head = self.bo[l.bpm][0] == self.wl_count() + i;
        (
            l.bp && (l.bps || (m.bvalid && head)),
            if l.bps { l.bpr } else { m.bresp },
        )
    }

    /// Clock edge, in the RTL's stages: every handshake of this cycle from
    /// the pre-edge state (`Sig`), then the arbiters' owners, the
    /// increment ports, the link lanes, the write lanes with their response
    /// queues, the in-lanes and the read lanes. `decs`: the decoders after
    /// their edge (a lane taking an address keeps its route, the function of
    /// the decoder's registers the RTL computes in ROUTE).
    #[inline]
    pub fn update(
        &mut self,
        rst: bool,
        ms: &impl Masters,
        mem: &[SramOut],
        links: &[LinkOut],
        decs: &[Decoder],
    ) {
        if rst {
            self.reset();
            return;
        }
        let a = self.arb();
        let g = self.signals(&a, ms, mem, links);
        let picks = self.read_picks();
        self.owners_update(&a, &g);
        self.inc_update(&g, ms);
        let lk_b = self.link_lanes_update(&a, &g, ms, links);
        let (n, nwl) = (self.cfg.engines, self.wl_count());
        for j in 0..nwl {
            let (w, m) = (&self.wl[j], ms.wm(j));
            let rt =
                (m.awvalid && w.awready()).then(|| self.route_at(decs, j, m.awlen, false, true));
            self.wl_update(j, &g, m, mem, rt, lk_b[j]);
        }
        for i in 0..n {
            let m = ms.lin(i);
            let rt = (self.il[i].a == IaState::Addr && m.awvalid)
                .then(|| self.route_at(decs, nwl + i, m.awlen, true, true));
            self.il_update(i, &g, m, rt);
        }
        self.read_lanes_update(ms, mem, decs, &picks);
    }

    /// The route a lane keeps at its address edge (computed only when it
    /// takes an address): decoder `k` after the edge, burst length `len`.
    #[inline(always)]
    fn route_at(&self, decs: &[Decoder], k: usize, len: u64, from_link: bool, wr: bool) -> Route {
        self.route_of(&Decoder::outputs(&decs[k].q), len, from_link, wr)
    }

    /// The write lanes' hand-overs and W readiness this cycle, from the
    /// registered state and the targets' outputs: `lk_aw_hs`, `wl_aw_go`,
    /// `wl_w_go` (W ready: in DATA, or a link burst's first beat with its
    /// AW).
    #[inline(always)]
    fn wl_go(&self, a: &Arb, mem: &[SramOut], links: &[LinkOut], g: &mut Sig) {
        let (n, nwl) = (self.cfg.engines, self.wl_count());
        for l in 0..n {
            g.lk_aw_hs[l] =
                a.lc[l].is_some_and(|j| self.wl[j].req() && a.lk_ok[l] && links[l].awready);
        }
        for (j, w) in self.wl[..nwl].iter().enumerate() {
            let lk = lk_of(j, n);
            let (tgt, m, _) = w.eff();
            g.wl_aw_go[j] = w.req()
                && match tgt {
                    TGT_SBUF | TGT_DESC => a.mc[m] == Some(j) && mem[m].awready,
                    TGT_SEM => self.ls.is_none() && a.ls_pick == Some(j),
                    TGT_LINK => g.lk_aw_hs[lk] && a.lc[lk] == Some(j),
                    _ => false,
                };
            g.wl_w_go[j] = (w.st == WState::Data && self.wl_wrdy(j, mem, links))
                || (g.wl_aw_go[j]
                    && match tgt {
                        TGT_LINK => links[lk].wready,
                        TGT_SBUF | TGT_DESC => mem[m].wready,
                        _ => false,
                    });
        }
    }

    /// In-lane `i`'s hand-over and W readiness this cycle (`il_b_hs`,
    /// `il_bp_ok`, `il_aw_go`, `il_w_go`: W ready in DATA, or a memory
    /// burst's first beat with its AW); `lw`: its link lane's far side.
    #[inline(always)]
    fn il_go(&self, a: &Arb, i: usize, lw: &WmIn, mem: &[SramOut], g: &mut Sig) {
        let nwl = self.wl_count();
        let l = &self.il[i];
        g.il_b_hs[i] = self.il_b(i, mem).0 && lw.bready;
        g.il_bp_ok[i] = !l.bp || g.il_b_hs[i];
        g.il_aw_go[i] = l.st == WState::TgtAw
            && g.il_bp_ok[i]
            && match l.tgt {
                TGT_SBUF | TGT_DESC => a.mc[l.mem] == Some(nwl + i) && mem[l.mem].awready,
                TGT_SEM => self.is.is_none() && a.is_pick == Some(i),
                _ => true,
            };
        let wrdy = self.il_wrdy(i, mem);
        g.il_w_go[i] = (l.st == WState::Data && wrdy) || (g.il_aw_go[i] && is_mem(l.tgt) && wrdy);
    }

    /// The handshakes of this cycle (`wl_aw_go`, `wl_hs`, `il_aw_go`,
    /// `il_hs`, `il_take`, `il_b_hs`, `lk_aw_hs`, each memory's B handshake
    /// and W owner's WLAST).
    #[inline(always)]
    fn signals(&self, a: &Arb, ms: &impl Masters, mem: &[SramOut], links: &[LinkOut]) -> Sig {
        let (n, nwl) = (self.cfg.engines, self.wl_count());
        let mut g = Sig::default();
        self.wl_go(a, mem, links, &mut g);
        for j in 0..nwl {
            g.wl_hs[j] = g.wl_w_go[j] && ms.wm(j).wvalid;
            g.wl_wlast[j] = ms.wm(j).wlast;
        }
        for (i, l) in self.il[..n].iter().enumerate() {
            let lw = ms.lin(i);
            g.il_wlast[i] = lw.wlast;
            self.il_go(a, i, lw, mem, &mut g);
            g.il_hs[i] = g.il_w_go[i] && lw.wvalid;
            g.il_take[i] =
                l.a == IaState::Route && (l.st == WState::Idle || (g.il_hs[i] && lw.wlast));
        }
        for k in 0..self.mem_count() {
            g.mem_b_hs[k] = mem[k].bvalid && self.mem_bready(k, ms);
            // the claimant's WLAST beat (a one-beat burst's goes with its AW)
            g.wo_end[k] = mem[k].wready
                && match a.mc[k] {
                    None => false,
                    Some(q) if q < nwl => {
                        (self.wl[q].st == WState::Data || g.wl_aw_go[q])
                            && ms.wm(q).wvalid
                            && ms.wm(q).wlast
                    }
                    Some(q) => {
                        let lw = ms.lin(q - nwl);
                        (self.il[q - nwl].st == WState::Data || g.il_aw_go[q - nwl])
                            && lw.wvalid
                            && lw.wlast
                    }
                };
        }
        for j in 0..nwl {
            let w = &self.wl[j];
            g.wl_b_hs[j] = w.st == WState::Resp && g.mem_b_hs[w.mem] && self.bo[w.mem][0] == j;
        }
        g
    }

    /// The owners of the memories' write ports and of the SEM_INCR window:
    /// an unowned port is claimed by its pick (pointer after it) and its W
    /// owner released at the WLAST beat, which appends it to the B owners
    /// (popped at the SRAM's B handshake); the window is released at its
    /// owner's WLAST beat.
    #[inline(always)]
    fn owners_update(&mut self, a: &Arb, g: &Sig) {
        let nrq = self.wl_count() + self.cfg.engines;
        for k in 0..self.mem_count() {
            if !self.wo_v[k] {
                if let Some(p) = a.mw_pick[k] {
                    self.wo_v[k] = true;
                    self.wo[k] = p;
                    self.mw_rr[k] = rr_after(p, nrq);
                }
            }
            if g.mem_b_hs[k] {
                self.bo_n[k] -= 1;
                self.bo[k][0] = self.bo[k][1];
            }
            if g.wo_end[k] {
                self.wo_v[k] = false;
                self.bo[k][self.bo_n[k] & 1] = a.mc[k].unwrap_or(0);
                self.bo_n[k] += 1;
            }
        }
        match (self.ls, a.ls_pick) {
            (None, Some(p)) => {
                self.ls = Some(p);
                self.ls_rr = rr_after(p, self.wl_count());
            }
            (Some(j), _) if g.wl_hs[j] && g.wl_wlast[j] => self.ls = None,
            _ => {}
        }
        match (self.is, a.is_pick) {
            (None, Some(p)) => {
                self.is = Some(p);
                self.is_rr = rr_after(p, self.cfg.engines);
            }
            (Some(i), _) if g.il_hs[i] && g.il_wlast[i] => self.is = None,
            _ => {}
        }
    }

    /// The increment ports: each of a SEM_INCR beat's [`INC_L`] 32-bit lanes
    /// with strobes (write lanes: ports `0..INC_L`, in-lanes: `INC_L..`).
    #[inline(always)]
    fn inc_update(&mut self, g: &Sig, ms: &impl Masters) {
        let (n, nwl) = (self.cfg.engines, self.wl_count());
        self.inc_v = [false; INC_L];
        self.inc2_v = [false; INC_L];
        for j in (0..nwl)
            .filter(|&j| self.wl[j].st == WState::Data && g.wl_hs[j] && self.wl[j].tgt == TGT_SEM)
        {
            let (m, w) = (ms.wm(j), self.wl[j].word);
            for l in 0..INC_L {
                self.inc_v[l] = (m.wstrb >> (4 * l)) & 0xF != 0;
                self.inc_i[l] = (w.wrapping_mul(INC_L as u32) + l as u32) as u8;
                self.inc_val[l] = (m.wdata[l / 2] >> (32 * (l % 2))) as u32;
            }
        }
        for i in (0..n).filter(|&i| g.il_hs[i] && self.il[i].tgt == TGT_SEM) {
            let (m, w) = (ms.lin(i), self.il[i].word);
            for l in 0..INC_L {
                self.inc2_v[l] = (m.wstrb >> (4 * l)) & 0xF != 0;
                self.inc2_i[l] = (w.wrapping_mul(INC_L as u32) + l as u32) as u8;
                self.inc2_val[l] = (m.wdata[l / 2] >> (32 * (l % 2))) as u32;
            }
        }
    }

    /// The link lanes: owner claimed at the pick, released at the owner's
    /// WLAST beat; the AW handshake appends the owner to the owner FIFO and
    /// sets the destination; a link B pops it. Returns the link B of each
    /// write lane this edge (`wl_lk_b`, `wl_lk_bresp`).
    #[inline(always)]
    fn link_lanes_update(
        &mut self,
        a: &Arb,
        g: &Sig,
        ms: &impl Masters,
        links: &[LinkOut],
    ) -> [Option<u64>; MAX_WL] {
        let nwl = self.wl_count();
        let mut lk_b = [None; MAX_WL];
        for l in 0..self.link_lanes() {
            let lc = a.lc[l];
            let end = lc.is_some_and(|j| g.wl_hs[j] && ms.wm(j).wlast);
            let hi = lc.map_or(0, |j| (self.wl[j].eff_addr().0 >> 32) as u32);
            let k = &mut self.lk[l];
            if k.own.is_none() {
                if let Some(p) = a.lk_pick[l] {
                    k.own = Some(p);
                    k.rr = rr_after(p, nwl);
                }
            }
            if end {
                k.own = None;
            }
            if g.lk_aw_hs[l] {
                k.lf[k.lf_wp] = lc.unwrap_or(0);
                k.lf_wp = (k.lf_wp + 1) % LK_DEPTH;
                k.hi = hi;
            }
            let b = links[l].bvalid;
            if b {
                lk_b[k.lf[k.lf_rp]] = Some(links[l].bresp);
                k.lf_rp = (k.lf_rp + 1) % LK_DEPTH;
            }
            k.pend = k.pend + usize::from(g.lk_aw_hs[l]) - usize::from(b);
        }
        lk_b
    }

    /// Write lane `j`'s FSM and response queue (`rt`: the route it keeps if
    /// it takes an address now; `lk_b`: the link B for this lane this edge).
    #[inline(always)]
    fn wl_update(
        &mut self,
        j: usize,
        g: &Sig,
        m: &WmIn,
        mem: &[SramOut],
        rt: Option<Route>,
        lk_b: Option<u64>,
    ) {
        let pop = self.wl[j].bq_head() && m.bready;
        let mut push = None;
        let mut routed = false;
        let l = &mut self.wl[j];
        let take = l.take();
        let (etgt, _, _) = l.eff();
        // address stage
        match l.a {
            // one master: out of reset the lane waits in ADDR
            IaState::Idle => l.a = IaState::Addr,
            IaState::Addr => {
                if let Some(r) = rt {
                    l.a = IaState::Route;
                    l.aaddr = m.awaddr;
                    l.alen = m.awlen;
                    l.rt = r;
                }
            }
            IaState::Route => {
                if take {
                    l.a = IaState::Addr;
                }
            }
        }
        // data stage
        match l.st {
            WState::Idle | WState::TgtAw => {
                if take {
                    let r = l.rt;
                    l.tgt = r.tgt;
                    l.mem = r.mem;
                    l.word = r.word;
                    l.resp = r.resp;
                    l.addr = l.aaddr;
                    l.len = l.alen;
                    routed = true;
                    l.st = if r.tgt == TGT_ERR {
                        WState::Data
                    } else {
                        WState::TgtAw
                    };
                }
                if g.wl_aw_go[j] {
                    l.st = WState::Data;
                    // a one-beat burst whose beat went with its AW: a memory
                    // burst waits for its B, a link burst is posted
                    if g.wl_hs[j] && m.wlast {
                        if is_mem(etgt) {
                            l.st = WState::Resp;
                        } else {
                            push = Some((false, 0));
                            l.st = WState::Idle;
                        }
                    }
                }
            }
            WState::Data => {
                if g.wl_hs[j] {
                    if l.tgt == TGT_SEM {
                        l.word = l.word.wrapping_add(1);
                    }
                    if m.wlast {
                        if is_mem(l.tgt) {
                            l.st = WState::Resp;
                        } else {
                            // SEM_INCR and error: answered now; link: posted,
                            // the entry waits for the peer's B
                            push = Some((l.tgt != TGT_LINK, l.resp));
                            l.st = WState::Idle;
                        }
                    }
                }
            }
            WState::Resp => {
                if g.wl_b_hs[j] {
                    push = Some((true, mem[l.mem].bresp));
                    l.st = WState::Idle;
                }
            }
        }
        Self::bq_update(l, lk_b, pop, push);
        if routed {
            self.w_cnt = self.w_cnt.wrapping_add(1);
        }
    }

    /// A write lane's response queue: a link B completes the oldest entry
    /// still waiting (a lane's link B responses return in its burst order on
    /// its one link lane, and only link entries wait), the completed head is
    /// popped on BREADY, the push (completed, response) is appended.
    #[inline(always)]
    fn bq_update(l: &mut WLane, lk_b: Option<u64>, pop: bool, push: Option<(bool, u64)>) {
        if let Some(resp) = lk_b {
            if let Some(idx) = (0..l.bq_cnt)
                .map(|k| (l.bq_rp + k) % BQ_DEPTH)
                .find(|&i| !l.bq_done[i])
            {
                l.bq_done[idx] = true;
                l.bq_resp[idx] = resp;
            }
        }
        if pop {
            l.bq_rp = (l.bq_rp + 1) % BQ_DEPTH;
        }
        if let Some((done, resp)) = push {
            let w = l.bq_wp;
            l.bq_done[w] = done;
            l.bq_resp[w] = resp;
            l.bq_wp = (w + 1) % BQ_DEPTH;
        }
        l.bq_cnt = l.bq_cnt + usize::from(push.is_some()) - usize::from(pop);
    }

    /// In-lane `i`'s stages (its one master, the link lane's far side, `lw`;
    /// `rt`: the route it keeps if it takes an address now).
    #[inline(always)]
    fn il_update(&mut self, i: usize, g: &Sig, lw: &WmIn, rt: Option<Route>) {
        let l = &mut self.il[i];
        // the B owed over the link: cleared by its handshake, set by a WLAST beat
        if g.il_b_hs[i] {
            l.bp = false;
        }
        if g.il_hs[i] && lw.wlast {
            l.bp = true;
            l.bps = !is_mem(l.tgt);
            l.bpm = l.mem;
            l.bpr = l.resp;
        }
        // address stage
        match l.a {
            // one master: out of reset the lane waits in ADDR
            IaState::Idle => l.a = IaState::Addr,
            IaState::Addr => {
                if lw.awvalid {
                    l.a = IaState::Route;
                    l.len = lw.awlen;
                    l.rt = rt.expect("the route of a lane taking an address");
                }
            }
            IaState::Route => {
                if g.il_take[i] {
                    l.a = IaState::Addr;
                }
            }
        }
        // data stage
        match l.st {
            WState::TgtAw => {
                if g.il_aw_go[i] {
                    // a one-beat burst whose beat went with its AW ends here
                    l.st = if g.il_hs[i] && lw.wlast {
                        WState::Idle
                    } else {
                        WState::Data
                    };
                }
            }
            WState::Data => {
                if g.il_hs[i] {
                    if l.tgt == TGT_SEM {
                        l.word = l.word.wrapping_add(1);
                    }
                    if lw.wlast {
                        l.st = WState::Idle;
                    }
                }
            }
            _ => l.st = WState::Idle,
        }
        if g.il_take[i] {
            let r = l.rt;
            l.tgt = r.tgt;
            l.mem = r.mem;
            l.word = r.word;
            l.resp = r.resp;
            l.st = WState::TgtAw;
        }
    }

    /// The read lanes' and the memories' read owners' clock edge (`picks`
    /// from the pre-edge state; `decs`: the decoders after their edge).
    #[inline(always)]
    fn read_lanes_update(
        &mut self,
        ms: &impl Masters,
        mem: &[SramOut],
        decs: &[Decoder],
        picks: &[Option<usize>; MAX_MEM],
    ) {
        let (n, nwl) = (self.cfg.engines, self.wl_count());
        // per memory: the AR handshake and the last beat's handshake
        let mut ar_hs = [false; MAX_MEM];
        let mut rl_hs = [false; MAX_MEM];
        for k in 0..self.mem_count() {
            ar_hs[k] = self.mem_arvalid(k, picks) && mem[k].arready;
            rl_hs[k] = mem[k].rvalid && mem[k].rlast && self.mem_rready(k, ms);
        }
        // per lane: the head's beat popping it, a push (from the pre-edge state)
        let mut pop = [false; MAX_ENGINES];
        let mut own = [false; MAX_ENGINES];
        for e in 0..n {
            own[e] = self.r_own(e);
        }
        for e in 0..n {
            let rready = ms.rm(e).rready;
            let l = &mut self.lanes[e];
            if l.qn != 0 && l.herr() {
                if rready {
                    if l.cnt == l.q_len[l.rp] {
                        pop[e] = true;
                        l.cnt = 0;
                    } else {
                        l.cnt = (l.cnt + 1) & 0xFF;
                    }
                }
            } else if own[e] {
                let m = &mem[l.hmem()];
                pop[e] = m.rvalid && rready && m.rlast;
            }
        }
        for k in 0..self.mem_count() {
            if rl_hs[k] {
                self.ro_v[k] = self.rn_v[k];
                self.ro[k] = self.rn[k];
                self.rn_v[k] = false;
            }
            if ar_hs[k] {
                let p = picks[k].unwrap_or(0);
                self.r_rr[k] = rr_after(p, n);
                if !self.ro_v[k] {
                    self.ro_v[k] = true;
                    self.ro[k] = p;
                } else {
                    self.rn_v[k] = true;
                    self.rn[k] = p;
                }
            }
        }
        for e in 0..n {
            let m = ms.rm(e);
            let rt = if self.lanes[e].st == RState::Addr && m.arvalid {
                self.route_at(decs, nwl + n + e, m.arlen, false, false)
            } else {
                self.lanes[e].rt
            };
            let l = &mut self.lanes[e];
            let mut push = false;
            match l.st {
                // one master: out of reset the lane waits in ADDR
                RState::Idle => l.st = RState::Addr,
                RState::Addr => {
                    if m.arvalid {
                        l.st = RState::Route;
                        l.len = m.arlen;
                        l.rt = rt;
                    }
                }
                RState::Route => {
                    push = if is_mem(l.rt.tgt) {
                        ar_hs[l.rt.mem] && picks[l.rt.mem] == Some(e)
                    } else {
                        l.qn != RQ_DEPTH
                    };
                    if push {
                        l.st = RState::Addr;
                    }
                }
            }
            if pop[e] {
                l.rp = (l.rp + 1) % RQ_DEPTH;
            }
            if push {
                let w = l.wp;
                l.q_err[w] = !is_mem(l.rt.tgt);
                l.q_mem[w] = l.rt.mem;
                l.q_len[w] = l.len;
                l.q_resp[w] = l.rt.resp;
                l.wp = (w + 1) % RQ_DEPTH;
            }
            l.qn = l.qn + usize::from(push) - usize::from(pop[e]);
        }
    }
}

/// The handshakes of one cycle, from the pre-edge state (see [`Xbar::update`]).
#[derive(Debug, Clone, Copy, Default)]
struct Sig {
    wl_aw_go: [bool; MAX_WL],
    wl_w_go: [bool; MAX_WL],
    wl_hs: [bool; MAX_WL],
    wl_wlast: [bool; MAX_WL],
    il_aw_go: [bool; MAX_ENGINES],
    il_w_go: [bool; MAX_ENGINES],
    il_hs: [bool; MAX_ENGINES],
    il_wlast: [bool; MAX_ENGINES],
    il_take: [bool; MAX_ENGINES],
    il_b_hs: [bool; MAX_ENGINES],
    il_bp_ok: [bool; MAX_ENGINES],
    lk_aw_hs: [bool; MAX_ENGINES],
    mem_b_hs: [bool; MAX_MEM],
    wo_end: [bool; MAX_MEM],
    wl_b_hs: [bool; MAX_WL],
}
