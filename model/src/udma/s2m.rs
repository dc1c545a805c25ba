//! S2M (RX) FSM: stream in, descriptor fetch, AXI write bursts,
//! completion descriptors (mirrors `rtl/udma_s2m.sv`).
//!
//! States (docs/udma.md §FSMs): IDLE → DAR → DR → DCHK → DATA → DRAIN →
//! CMP → [CAW → CB] → ADV, with BERR after a data write error and DROP
//! draining a packet that has no usable descriptor (counted in Q_DROP_BYTES).
//!
//! Packing: a hold register (`hdata`, `hcnt` bytes at lane 0) keeps the bytes
//! of a stream beat that did not fit the current write; each memory write takes
//! the hold bytes first, then the new beat's, so every buffer is filled densely
//! from its start whatever the beat and descriptor sizes. A buffer pointer may
//! have any byte alignment: a write covers the bytes from `dst` to the end of
//! its beat at most (`wstrb`), so no byte outside the buffer changes.
//!
//! Write bursts: formed write beats collect in a write-data ring (`wbuf`,
//! [`WR_BUF_BEATS`] beats); the burst being collected (`wn` beats) is closed
//! and queued as one INCR burst (AWLEN = `wn` − 1) when it holds `max_wr`
//! beats (`MaxWrBurst`, default 16; 1 = single-beat writes), the
//! descriptor is full, the packet ended, the next beat starts a new 4 KiB page,
//! or M2S waits on a DMB of this queue while the stream has no beat. A sender
//! issues the queued bursts (AW and W) while the next one is collected, and
//! up to `max_wr_out` bursts wait for their B responses (`bcnt`).
//!
//! Overlap: with the completion ring off, a descriptor whose bursts are all
//! issued leaves DRAIN with its Bs outstanding (`pend`, `pb` Bs owed) and
//! S2M collects the next descriptor of the queue (its prefetched one, at
//! head + 1) at once; the owed descriptor completes (head advance, DONE,
//! interrupt) at its last B, and a B error among them fails it (its head).
//! With the completion ring on, a descriptor completes only when every B
//! returned (DRAIN), so its completion write follows every B of its data.
//! A later descriptor's writes (e.g. a semaphore increment) wait for the
//! earlier data's Bs through M2S's DMB, which sees every outstanding B
//! ([`S2m::wr_busy`]).

use super::beat::{desc_beats, keep_at, Lanes};
use super::desc::decode_len;
use super::fetch::{DescFetch, FetchIn, FetchParams};
use super::m2s::{ArReq, RdPort, MAX_BURST};
use super::pf::{DescPf, PfIn};

/// Write bursts the S2M side keeps waiting for their B responses
/// (`MaxWrOutstanding` of `udma_engine`; docs/decisions.md).
pub const MAX_WR_OUTSTANDING: u32 = 8;
/// Closed bursts queued for the sender (the one being sent included): four,
/// so the collector keeps collecting while two closed bursts wait and the
/// next burst's AW can go ahead of the current one's W beats (docs/udma.md).
pub const WR_QUEUE: u32 = 4;
/// Beats of the write-data ring: the queued bursts and the one collected
/// fit (the collector waits while the queue is full).
pub const WR_BUF_BEATS: u32 = WR_QUEUE * MAX_BURST;
/// The S2M descriptor fetch (`u_fetch` of `udma_s2m.sv`): no FIRST check
/// (the packet's first descriptor is the one IDLE fetches first), the error
/// flag is the descriptor read's only.
pub const S2M_FETCH: FetchParams = FetchParams {
    first_check: false,
    data_err: false,
    err_axi: UDMA_S2M_ERR_PREF_AXI_RESPONSE,
    err_ring_id: UDMA_S2M_ERR_PREF_RING_ID,
    err_first: 0,
};
use super::regfile::{SideEv, SideRegs, SideStat};
use super::regs::*;

/// This cycle's handshakes, as the RTL's next-state process sees them.
#[derive(Debug, Clone, Copy)]
struct Handshakes {
    /// The last beat of the S2M side's read (a DR beat; the prefetch's
    /// beats are [`DescPf`]'s).
    last_beat: bool,
    aw: bool,
    w: bool,
    b: bool,
    /// The B response is an error.
    b_err: bool,
    /// A stream beat is accepted.
    t: bool,
}

/// AXI4-Stream slave inputs.
#[derive(Debug, Clone, Copy, Default)]
pub struct StreamIn<D> {
    pub tvalid: bool,
    pub tdata: D,
    pub tkeep: u64,
    pub tlast: bool,
    pub tid: u32,
    pub tuser: bool,
}

/// Write-port inputs.
#[derive(Debug, Clone, Copy, Default)]
pub struct WrIn {
    pub awready: bool,
    pub wready: bool,
    pub bvalid: bool,
    pub bresp: u32,
}

/// Write-port outputs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WrOut<D> {
    pub awvalid: bool,
    pub awaddr: u64,
    pub awlen: u32,
    pub wvalid: bool,
    pub wdata: D,
    pub wstrb: u64,
    pub wlast: bool,
    pub bready: bool,
}

/// Outputs of the S2M FSM for one cycle.
#[derive(Debug, Clone, Copy, Default)]
pub struct S2mOut<D: Lanes> {
    pub want: bool,
    pub ar: ArReq,
    pub wr: WrOut<D>,
    pub tready: bool,
    pub ev: SideEv,
    /// DATA only: the write formed this cycle (the RTL's packing wires),
    /// computed once for the outputs and the edge.
    take: Option<Take<D>>,
}

/// S2M FSM states: `s2m_state_e` of `rtl/udma_s2m.sv`, same names and
/// encoding (the debug port carries the number).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[repr(u8)]
pub enum S2mState {
    #[default]
    Idle = 0,
    Dar = 1,
    Dr = 2,
    Dchk = 3,
    Data = 4,
    Drain = 5,
    Berr = 6,
    Cmp = 7,
    Caw = 8,
    Cb = 9,
    Adv = 10,
    Drop = 11,
}

/// S2M state, beats of type `D` (the data width's, see [`Lanes`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct S2m<D: Lanes> {
    /// Data write burst limit in beats (`MaxWrBurst`, 1..=MAX_BURST).
    pub max_wr: u32,
    /// Data bursts waiting for B at most (`MaxWrOutstanding`).
    pub max_wr_out: u32,
    /// FSM state.
    pub state: S2mState,
    pub q: usize,
    pub in_pkt: bool,
    pub first: bool,
    /// The descriptor being executed and its read error (`u_fetch`).
    pub fetch: DescFetch,
    pub cap: u32,
    pub used: u32,
    /// Byte address of the next write.
    pub dst: u64,
    /// Beat-aligned address of the burst being collected.
    pub wa: u64,
    /// Write-data ring: formed beats land at `wp`, the sender reads at `rp`.
    pub wbuf: [D; WR_BUF_BEATS as usize],
    pub wstb: [u64; WR_BUF_BEATS as usize],
    pub wp: u32,
    pub rp: u32,
    /// Beats of the burst being collected (0..=MAX_BURST).
    pub wn: u32,
    /// Burst queue (address, AWLEN), oldest at `bq_rp`; `bq_cnt` queued.
    pub bq: [(u64, u32); WR_QUEUE as usize],
    pub bq_rp: u32,
    pub bq_cnt: u32,
    /// Next W beat of the burst being sent.
    pub wi: u32,
    /// Data bursts whose AW is done and whose B has not returned.
    pub bcnt: u32,
    pub blast: bool,
    pub buser: bool,
    pub aw_done: bool,
    pub w_done: bool,
    /// The second queued burst's AW is done (sent ahead of the head's W beats).
    pub aw2_done: bool,
    pub w_idx: u32,
    pub tout: u32,
    /// Hold register: packet bytes taken from the stream, not yet written (lane 0 up).
    pub hdata: D,
    /// Bytes in `hdata` (0..bb).
    pub hcnt: u32,
    /// The packet's `tlast` beat has been taken (its bytes may still be held).
    pub hlast: bool,
    /// `tuser` of the `tlast` beat.
    pub huser: bool,
    /// Descriptor prefetch: head + 1 of the queue in DATA / DRAIN
    /// (docs/udma.md).
    pub pf: DescPf,
    /// A descriptor of queue `q` left DRAIN with its Bs outstanding and has
    /// not completed (the head is still its slot).
    pub pend: bool,
    /// Data Bs owed by the descriptors before the one being executed (the
    /// oldest `pb` of the `bcnt`; ≥ 1 while `pend`).
    pub pb: u32,
    /// INT_EN of the owed descriptor.
    pub pint: bool,
    /// The owed descriptor failed (a B error): the one being executed is
    /// not written (BERR from DCHK).
    pub perr: bool,
}

impl<D: Lanes> Default for S2m<D> {
    fn default() -> Self {
        Self {
            max_wr: 0,
            max_wr_out: 0,
            state: S2mState::default(),
            q: 0,
            in_pkt: false,
            first: false,
            fetch: DescFetch::default(),
            cap: 0,
            used: 0,
            dst: 0,
            wa: 0,
            wbuf: [D::ZERO; WR_BUF_BEATS as usize],
            wstb: [0; WR_BUF_BEATS as usize],
            wp: 0,
            rp: 0,
            wn: 0,
            bq: [(0, 0); WR_QUEUE as usize],
            bq_rp: 0,
            bq_cnt: 0,
            wi: 0,
            bcnt: 0,
            blast: false,
            buser: false,
            aw_done: false,
            w_done: false,
            aw2_done: false,
            w_idx: 0,
            tout: 0,
            hdata: D::ZERO,
            hcnt: 0,
            hlast: false,
            huser: false,
            pf: DescPf::default(),
            pend: false,
            pb: 0,
            pint: false,
            perr: false,
        }
    }
}

/// Bytes the next memory write of state DATA takes.
#[derive(Debug, Clone, Copy, Default)]
struct Take<D: Lanes> {
    /// A stream beat is needed (the hold alone cannot form the write).
    need_beat: bool,
    /// Hold plus beat bytes (beat counted only when `need_beat`).
    tot: u32,
    /// Hold then beat bytes, two beats wide.
    comb: D::Double,
    /// Bytes written now (0 = none).
    k: u32,
}

impl<D: Lanes> S2m<D> {
    /// S2M writing bursts of up to `max_wr` beats with up to `max_wr_out`
    /// of them waiting for B, in reset state.
    pub fn new(max_wr: u32, max_wr_out: u32) -> Self {
        Self {
            max_wr: max_wr.clamp(1, MAX_BURST),
            max_wr_out: max_wr_out.max(1),
            ..Self::default()
        }
    }

    /// Descriptor word 0 (`len_ctrl`).
    pub fn w0(&self) -> u32 {
        self.fetch.w0()
    }

    /// Descriptor `buf1_ptr`.
    pub fn bufp(&self) -> u64 {
        self.fetch.bufp()
    }

    /// A data or completion write of queue `q` is collected or in flight (M2S DMB waits on it).
    pub fn wr_busy(&self) -> (bool, usize) {
        let busy = matches!(self.state, S2mState::Caw | S2mState::Cb)
            || self.wn != 0
            || self.bq_cnt != 0
            || self.bcnt != 0;
        (busy, self.q)
    }

    /// Status shown in the register file.
    pub fn stat(&self) -> SideStat {
        SideStat {
            state: self.state as u8,
            q: self.q,
            pkt: self.in_pkt,
        }
    }

    /// Completion descriptor (16 bytes, little endian).
    fn comp_desc(&self, regs: &SideRegs) -> u128 {
        let r = &regs.q[self.q];
        let w0 = ((self.blast && self.buser) as u32) << UDMA_CDESC_ERROR_BIT
            | ((self.used != 0) as u32) << UDMA_CDESC_BUF1_USED_BIT
            | (self.blast as u32) << UDMA_DESC_LAST_BIT
            | (self.first as u32) << UDMA_DESC_FIRST_BIT
            | (r.crhp.ring_id as u32) << UDMA_DESC_RING_ID_SHIFT;
        w0 as u128 | (self.used as u128) << 32 | (r.head.offset as u128) << 64
    }

    /// Queue examined in IDLE: the open packet's queue, else the stream's tid.
    fn idle_q(&self, s: &StreamIn<D>) -> usize {
        if self.in_pkt {
            self.q
        } else {
            (s.tid & (UDMA_NUM_QUEUES - 1)) as usize
        }
    }

    /// Write formed in state DATA from the hold and (when needed) the stream beat.
    #[inline(always)]
    fn take(&self, s: &StreamIn<D>, bb: u32) -> Take<D> {
        let room = bb - (self.dst as u32 & (bb - 1));
        let want = self.cap.min(room);
        let need_beat = self.hcnt < want && !self.hlast;
        let (n, dm) = if need_beat {
            let n = s.tkeep.count_ones();
            (n, s.tdata.take(0, n as usize))
        } else {
            (0, D::ZERO)
        };
        let tot = self.hcnt + n;
        let last = if need_beat { s.tlast } else { self.hlast };
        // A short beat that is not the packet's end is absorbed, not written.
        let k = if tot < want && !last {
            0
        } else {
            tot.min(want)
        };
        Take {
            need_beat,
            tot,
            comb: self.hdata.concat(self.hcnt as usize, &dm, n as usize),
            k,
        }
    }

    /// Leave for DROP: held bytes are dropped (counted); a packet whose `tlast`
    /// was already taken ends here instead.
    fn enter_drop(&mut self, o: &mut S2mOut<D>) {
        o.ev.drop_add = self.hcnt;
        self.hdata = D::ZERO;
        self.hcnt = 0;
        self.wn = 0;
        self.wp = self.rp;
        self.perr = false;
        if self.hlast {
            self.hlast = false;
            self.in_pkt = false;
            self.state = S2mState::Idle;
        } else {
            self.state = S2mState::Drop;
        }
    }

    /// Outputs for this cycle (`owner`: the read port is granted to S2M).
    #[inline(always)]
    pub fn outputs(&self, regs: &SideRegs, owner: bool, s: &StreamIn<D>, bb: u32) -> S2mOut<D> {
        let mut o = S2mOut::default();
        o.ev.q = self.q;
        match self.state {
            // An owed descriptor's events are queue q's.
            S2mState::Idle if !self.pend => o.ev.q = self.idle_q(s),
            S2mState::Dar => {
                o.want = true;
                if owner {
                    o.ar = ArReq {
                        valid: true,
                        addr: regs.q[self.q].head_desc_addr(),
                        len: desc_beats(bb as usize) - 1,
                    };
                }
            }
            // The collector waits while the burst queue is full.
            S2mState::Data if self.bq_cnt < WR_QUEUE => {
                let t = self.take(s, bb);
                o.tready = s.tvalid && t.need_beat;
                o.take = Some(t);
            }
            S2mState::Caw => {
                let ca = regs.q[self.q].comp_addr();
                let nb = desc_beats(bb as usize);
                let (b, strb) =
                    D::desc_beat(self.comp_desc(regs), self.w_idx as usize, bb as usize, ca);
                o.wr = WrOut {
                    awvalid: !self.aw_done,
                    awaddr: if self.aw_done { 0 } else { ca },
                    awlen: if self.aw_done { 0 } else { nb - 1 },
                    wvalid: !self.w_done,
                    wdata: if self.w_done { D::ZERO } else { b },
                    wstrb: if self.w_done { 0 } else { strb },
                    wlast: !self.w_done && self.w_idx == nb - 1,
                    bready: false,
                };
            }
            S2mState::Cb => o.wr.bready = true,
            S2mState::Drop => o.tready = true,
            _ => {}
        }
        // Descriptor prefetch: requested in DATA / DRAIN; a grant outside DAR
        // is the prefetch's.
        if matches!(self.state, S2mState::Data | S2mState::Drain) {
            o.want = self.pf_want(regs);
        }
        if owner && self.state != S2mState::Dar {
            o.ar = self.pf.ar(bb);
        }
        if self.bq_cnt != 0 {
            // The sender: AW and W of the oldest queued burst, and the next
            // queued burst's AW once the head's is done (AW ahead of W).
            let (addr, len) = self.bq[(self.bq_rp & (WR_QUEUE - 1)) as usize];
            let aw_2nd = self.aw_2nd();
            let (aaddr, alen) = if aw_2nd {
                self.bq[((self.bq_rp + 1) & (WR_QUEUE - 1)) as usize]
            } else {
                (addr, len)
            };
            let aw = (!self.aw_done || aw_2nd) && self.bcnt < self.max_wr_out;
            let slot = (self.rp & (WR_BUF_BEATS - 1)) as usize;
            o.wr = WrOut {
                awvalid: aw,
                awaddr: if aw { aaddr } else { 0 },
                awlen: if aw { alen } else { 0 },
                wvalid: !self.w_done,
                wdata: if self.w_done {
                    D::ZERO
                } else {
                    self.wbuf[slot]
                },
                wstrb: if self.w_done { 0 } else { self.wstb[slot] },
                wlast: !self.w_done && self.wi == len,
                bready: false,
            };
        }
        o.wr.bready |= self.bcnt != 0;
        o
    }

    /// Clock edge. `owner`: the read-port grant; `dmb_req`: M2S waits on a
    /// DMB of this queue (pre-edge).
    ///
    /// Every state's stage is `inline(always)`, the rare ones too: one stage
    /// left out of line takes `&mut S2mOut` and `&Handshakes`, which makes
    /// the compiler keep both in memory on every cycle (measured: 30 more
    /// instructions a cycle with IDLE, DAR..DCHK and the completion out of
    /// line).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub fn update(
        &mut self,
        regs: &SideRegs,
        rd: &RdPort<D>,
        owner: bool,
        s: &StreamIn<D>,
        wi: &WrIn,
        dmb_req: bool,
        o: &mut S2mOut<D>,
        bb: u32,
    ) {
        // Outside DR an S2M R beat is the prefetch's (IDLE waits for it).
        let pf_beat = owner && rd.rvalid && self.pf.out;
        let beat = owner && rd.rvalid && !pf_beat;
        let pf_hs = o.ar.valid && rd.arready && self.state != S2mState::Dar;
        let pf_want = self.pf_want(regs);
        let pf_addr = if pf_want {
            regs.q[self.q].next_desc_addr()
        } else {
            0
        };
        let pf_settle = self.state == S2mState::Idle && !self.pf.out && !o.ar.valid;
        let dr = self.state == S2mState::Dr;
        let mut fetch_in = FetchIn {
            take: None,
            ar_hs: self.state == S2mState::Dar && o.ar.valid && rd.arready,
            dr,
            data: false,
            beat,
            rd,
            addr: if dr {
                regs.q[self.q].head_desc_addr()
            } else {
                0
            },
        };
        let q_pre = self.q;
        let hs = Handshakes {
            last_beat: beat && rd.cnt == rd.len,
            aw: o.wr.awvalid && wi.awready,
            w: o.wr.wvalid && wi.wready,
            b: o.wr.bready && wi.bvalid,
            b_err: wi.bresp != AXI_RESP_OKAY,
            t: o.tready && s.tvalid,
        };
        // Pre-edge: the sender has a burst; a data B error now leads to BERR.
        let sending = self.bq_cnt != 0;
        let data_b = self.bcnt != 0 && hs.b;
        let (pend, pb) = (self.pend, self.pb);
        let berr_ok = matches!(self.state, S2mState::Data | S2mState::Drain);
        let mut decide = false;
        match self.state {
            S2mState::Idle => (decide, fetch_in.take) = self.idle(regs, s, o),
            S2mState::Dar | S2mState::Dr | S2mState::Dchk => {
                self.descriptor_fetch(regs, rd, &hs, o)
            }
            S2mState::Data => {
                if self.bq_cnt < WR_QUEUE {
                    self.collect_data(s, dmb_req, &hs, o, bb);
                }
            }
            S2mState::Drain => self.drain(regs, data_b, &hs),
            S2mState::Berr => {
                if self.bq_cnt == 0 && self.bcnt == 0 {
                    o.ev.err = Some(UDMA_S2M_ERR_DATA_AXI_RESPONSE);
                    self.enter_drop(o);
                }
            }
            S2mState::Cmp | S2mState::Caw | S2mState::Cb | S2mState::Adv => {
                self.completion(regs, &hs, o, bb)
            }
            _ => self.drop_rest(s, &hs, o),
        }
        let pf_in = PfIn {
            want: pf_want,
            q: q_pre,
            addr: pf_addr,
            ar_hs: pf_hs,
            beat: pf_beat,
            rd,
            settle: pf_settle,
            keep: !decide && regs.avail(self.pf.q),
        };
        self.pf.step(&pf_in, bb);
        self.fetch.step(&fetch_in, &S2M_FETCH, bb);
        self.send(sending, berr_ok, &hs, o);
        self.owed(pend, pb, data_b, &hs, o);
    }

    /// DRAIN: every burst issued and no B owed by an earlier descriptor:
    /// with every B returned, the completion (CMP); else, with the
    /// completion ring off, the descriptor is owed its Bs and leaves (ADV
    /// without events; it completes at its last B, [`Self::owed`]).
    #[inline(always)]
    fn drain(&mut self, regs: &SideRegs, data_b: bool, hs: &Handshakes) {
        if self.bq_cnt != 0 || self.pb != 0 {
            return;
        }
        if self.bcnt == 0 {
            self.state = S2mState::Cmp;
        } else if !regs.q[self.q].comp_en() {
            let owed = self.bcnt - data_b as u32;
            self.pb = owed;
            self.pend = owed != 0 && !(data_b && hs.b_err);
            self.pint = self.w0() & (1 << UDMA_DESC_INT_EN_BIT) != 0;
            self.state = S2mState::Adv;
        }
    }

    /// The Bs owed by the earlier descriptors (`pend`, `pb`: pre-edge): the
    /// owed descriptor completes at its last B (head advance, DONE,
    /// interrupt), or fails at a B error (DATA_AXI_RESPONSE at its head,
    /// the error of a DCHK in the same cycle lost; the descriptor being
    /// executed goes to BERR).
    #[inline(always)]
    fn owed(&mut self, pend: bool, pb: u32, data_b: bool, hs: &Handshakes, o: &mut S2mOut<D>) {
        if !(data_b && pb != 0) {
            return;
        }
        self.pb = pb - 1;
        if !pend {
            return;
        }
        if hs.b_err {
            o.ev.err = Some(UDMA_S2M_ERR_DATA_AXI_RESPONSE);
            self.pend = false;
            self.perr = true;
        } else if pb == 1 {
            o.ev.head_adv = true;
            o.ev.done_inc = true;
            o.ev.int_set = self.pint;
            self.pend = false;
        }
    }

    /// DATA / DRAIN request the prefetch of the queue's head + 1: the queue
    /// holds a next descriptor and the buffer is free.
    #[inline(always)]
    fn pf_want(&self, regs: &SideRegs) -> bool {
        matches!(self.state, S2mState::Data | S2mState::Drain)
            && !self.pend
            && self.pf.free()
            && regs.q[self.q].has_next()
    }

    /// A quiet cycle's IDLE (no open packet, no stream beat, no read): only
    /// the prefetch buffer can change (dropped unless its queue is available).
    #[inline(always)]
    pub fn idle_quiet(&mut self, regs: &SideRegs) {
        let keep = regs.avail(self.pf.q);
        self.pf.settle(keep);
    }

    /// The AW offered is the second queued burst's: the head's is done
    /// (`aw_2nd` of the RTL).
    #[inline(always)]
    fn aw_2nd(&self) -> bool {
        self.aw_done && self.bq_cnt >= 2 && !self.aw2_done
    }

    /// The sender and the B counter (every state but CAW, whose write is the
    /// completion's): AW and W of the oldest queued burst, popped when both
    /// are done, and the next burst's AW once the head's is done; a data B
    /// error while collecting or draining leads to BERR.
    #[inline(always)]
    fn send(&mut self, sending: bool, berr_ok: bool, hs: &Handshakes, o: &S2mOut<D>) {
        let mut bcnt = self.bcnt;
        if sending {
            let aw = self.aw_done || hs.aw;
            // an AW handshake with the head's AW done is the second burst's
            let aw2 = self.aw2_done || (self.aw_done && hs.aw);
            let mut w = self.w_done;
            if hs.w {
                self.rp = (self.rp + 1) & (WR_BUF_BEATS - 1);
                if o.wr.wlast {
                    w = true;
                } else {
                    self.wi += 1;
                }
            }
            bcnt += hs.aw as u32;
            if aw && w {
                // the second burst becomes the head, its AW perhaps done
                self.bq_rp = (self.bq_rp + 1) & (WR_QUEUE - 1);
                self.bq_cnt -= 1;
                self.aw_done = aw2;
                self.aw2_done = false;
                self.w_done = false;
                self.wi = 0;
            } else {
                self.aw_done = aw;
                self.aw2_done = aw2;
                self.w_done = w;
            }
        }
        if self.bcnt != 0 && hs.b {
            bcnt -= 1;
            if hs.b_err && berr_ok {
                self.state = S2mState::Berr;
            }
        }
        self.bcnt = bcnt;
    }

    /// IDLE (`p_idle` of the RTL): pick the queue of the next packet; start
    /// a descriptor fetch (the buffered descriptor when it is the queue's
    /// head), drop into a stopped queue, or count the no-descriptor timeout.
    /// Returns whether IDLE decided (fetch or drop: the prefetch buffer is
    /// then emptied at the edge) and the buffered descriptor and its error
    /// flag when DCHK takes it (taken by [`DescFetch`]).
    #[inline(always)]
    fn idle(
        &mut self,
        regs: &SideRegs,
        s: &StreamIn<D>,
        o: &mut S2mOut<D>,
    ) -> (bool, Option<(u128, bool)>) {
        self.perr = false;
        // Wait while a prefetch read is granted or outstanding.
        if self.pf.out || o.ar.valid {
            return (false, None);
        }
        let q = self.idle_q(s);
        // An owed descriptor: only the queue's next one (buffered) goes on.
        if self.pend && !(q == self.q && self.pf.vld && self.pf.q == q) {
            return (false, None);
        }
        let mut fetch = None;
        let mut decide = false;
        if self.in_pkt || s.tvalid {
            let r = &regs.q[q];
            if r.stopped {
                decide = true;
                self.q = q;
                self.in_pkt = true;
                self.tout = 0;
                self.enter_drop(o);
            } else if regs.avail(q) {
                decide = true;
                fetch = Some(q);
                self.q = q;
                self.first = !self.in_pkt;
                self.in_pkt = true;
                self.tout = 0;
                self.state = S2mState::Dar;
            } else if s.tvalid || self.hcnt != 0 {
                let lim = regs.no_desc_tout;
                if lim != 0 && self.tout.wrapping_add(1) >= lim {
                    o.ev.err = Some(UDMA_S2M_ERR_NO_DESC);
                    self.q = q;
                    self.in_pkt = true;
                    self.tout = 0;
                    self.enter_drop(o);
                } else {
                    self.tout = self.tout.wrapping_add(1);
                }
            }
        }
        let hit = fetch.and_then(|q| self.pf.hit(q));
        if hit.is_some() {
            self.state = S2mState::Dchk;
        }
        (decide, hit)
    }

    /// DAR, DR, DCHK: the descriptor read (its AR and beats are
    /// [`DescFetch`]'s) ends with DAR's AR handshake and DR's last beat;
    /// DCHK ([`DescFetch::check`]: RRESP error → PREF_AXI_RESPONSE, ring id
    /// ≠ the head's → PREF_RING_ID) drops the packet or starts the
    /// descriptor's data.
    #[inline(always)]
    fn descriptor_fetch(
        &mut self,
        regs: &SideRegs,
        rd: &RdPort<D>,
        hs: &Handshakes,
        o: &mut S2mOut<D>,
    ) {
        match self.state {
            S2mState::Dar => {
                if o.ar.valid && rd.arready {
                    self.state = S2mState::Dr;
                }
            }
            S2mState::Dr => {
                if hs.last_beat {
                    self.state = S2mState::Dchk;
                }
            }
            _ => {
                // With a descriptor owed, this one is at head + 1.
                let r = &regs.q[self.q];
                let id = if self.pend {
                    r.head.step(r.rl).ring_id
                } else {
                    r.head.ring_id
                };
                let err = self.fetch.check(id, self.in_pkt, &S2M_FETCH);
                if let Some(b) = err {
                    o.ev.err = Some(b);
                    self.enter_drop(o);
                } else {
                    self.cap = decode_len(self.w0());
                    self.used = 0;
                    self.dst = self.bufp();
                    self.blast = false;
                    self.buser = false;
                    self.state = if self.perr {
                        S2mState::Berr
                    } else {
                        S2mState::Data
                    };
                }
            }
        }
    }

    /// DATA: collect stream bytes into the write buffer until a burst ends.
    #[inline(always)]
    fn collect_data(
        &mut self,
        s: &StreamIn<D>,
        dmb_req: bool,
        hs: &Handshakes,
        o: &mut S2mOut<D>,
        bb: u32,
    ) {
        let t = o.take.unwrap_or_else(|| self.take(s, bb));
        let mut wend = false;
        if !t.need_beat || hs.t {
            if hs.t {
                self.hlast = s.tlast;
                self.huser = s.tuser;
            }
            self.hcnt = t.tot - t.k;
            self.hdata = D::slice2(&t.comb, t.k as usize, self.hcnt as usize);
            self.blast = self.hlast && self.hcnt == 0;
            self.buser = self.huser;
            if t.k != 0 {
                let doff = self.dst as u32 & (bb - 1);
                let slot = (self.wp & (WR_BUF_BEATS - 1)) as usize;
                self.wbuf[slot] = D::place(&t.comb, t.k as usize, doff as usize);
                self.wstb[slot] = keep_at(t.k, doff);
                self.wp = (self.wp + 1) & (WR_BUF_BEATS - 1);
                if self.wn == 0 {
                    self.wa = self.dst & !((bb - 1) as u64);
                }
                self.wn += 1;
                self.dst = self.dst.wrapping_add(t.k as u64);
                self.cap -= t.k;
                self.used += t.k;
                o.ev.bytes_add = t.k;
                wend =
                    self.wn == self.max_wr || self.cap == 0 || self.blast || self.dst & 0xfff == 0;
            } else if self.blast {
                wend = self.wn != 0;
                self.state = S2mState::Drain;
            }
        } else if self.wn != 0 && dmb_req {
            // No hs.beat and M2S waits on a DMB: issue what is collected.
            wend = true;
        }
        if wend {
            // Close the burst: queued for the sender.
            let k = (self.bq_rp + self.bq_cnt) & (WR_QUEUE - 1);
            self.bq[k as usize] = (self.wa, self.wn - 1);
            self.bq_cnt += 1;
            self.wn = 0;
            if self.blast || self.cap == 0 {
                self.state = S2mState::Drain;
            }
        }
    }

    /// CMP, CAW, CB, ADV: write the completion descriptor (when enabled), then
    /// advance the head (and completion head) and count the descriptor.
    #[inline(always)]
    fn completion(&mut self, regs: &SideRegs, hs: &Handshakes, o: &mut S2mOut<D>, bb: u32) {
        match self.state {
            S2mState::Cmp => {
                if regs.q[self.q].comp_en() {
                    self.aw_done = false;
                    self.w_done = false;
                    self.w_idx = 0;
                    self.state = S2mState::Caw;
                } else {
                    self.state = S2mState::Adv;
                }
            }
            S2mState::Caw => {
                let a = self.aw_done || hs.aw;
                let mut w = self.w_done;
                if hs.w {
                    if self.w_idx == desc_beats(bb as usize) - 1 {
                        w = true;
                    } else {
                        self.w_idx += 1;
                    }
                }
                // Both done: the flags are the sender's again (cleared).
                self.aw_done = a && !w;
                self.w_done = w && !a;
                if a && w {
                    self.state = S2mState::Cb;
                }
            }
            S2mState::Cb => {
                if hs.b {
                    if hs.b_err {
                        o.ev.err = Some(UDMA_S2M_ERR_COMP_AXI_RESPONSE);
                        self.enter_drop(o);
                    } else {
                        self.state = S2mState::Adv;
                    }
                }
            }
            _ => {
                // An owed descriptor's events come at its last B.
                if !self.pend {
                    o.ev.head_adv = true;
                    o.ev.crhp_adv = regs.q[self.q].comp_en();
                    o.ev.done_inc = true;
                    o.ev.int_set = self.w0() & (1 << UDMA_DESC_INT_EN_BIT) != 0;
                }
                self.first = false;
                if self.blast {
                    self.in_pkt = false;
                    self.hlast = false;
                }
                self.state = S2mState::Idle;
            }
        }
    }

    /// DROP: discard the rest of the packet (counted in Q_DROP_BYTES).
    fn drop_rest(&mut self, s: &StreamIn<D>, hs: &Handshakes, o: &mut S2mOut<D>) {
        if hs.t {
            o.ev.drop_add = s.tkeep.count_ones();
            if s.tlast {
                self.in_pkt = false;
                self.state = S2mState::Idle;
            }
        }
    }
}
