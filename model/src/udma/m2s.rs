//! M2S (TX) FSM: descriptor fetch, burst read, AXI4-Stream out (mirrors `rtl/udma_m2s.sv`).
//!
//! States (docs/udma.md §FSMs): IDLE → DAR → DR → DCHK → TX → \[FLUSH\] → DONE,
//! with CLOSE ending an open packet after an error. In TX the descriptor's data
//! is read with several bursts outstanding into a read-data ring of
//! [`RD_BUF_BEATS`] beats and streamed out of it at the same time: a burst's
//! AR is issued only when the ring has room reserved for all its beats (so a
//! stalled stream never holds the read port), and a burst is streamed only
//! once its last beat arrived without an error (store-and-forward per burst).
//!
//! Packing: the bytes of a packet are packed across descriptor boundaries by a
//! carry register (`carry_data`, `carry_bytes` bytes at lane 0), so every stream beat of a
//! packet but the `tlast` one is full (`bb` bytes). A buffer pointer may have
//! any byte alignment: the first beat of a descriptor is read from the aligned
//! address and its `src_offset` bytes below `buf_ptr` are skipped.
//!
//! Descriptor bits (docs/udma.md §4): FIRST must start a packet and only start
//! one (else DESC_FIRST); DMB waits in state DMB until S2M has no write of this
//! queue in flight; a middle descriptor without CONCAT starts on a new stream
//! beat (SPLIT sends the carried bytes as a short, non-`tlast` beat first).

use super::beat::{desc_beats, keep_at, Lanes};
use super::desc::decode_len;
use super::fetch::{DescFetch, FetchIn, FetchParams};
use super::pf::{DescPf, PfIn};
use super::regfile::{SideEv, SideRegs, SideStat, NQ};
use super::regs::*;

/// Maximum beats per data read burst.
pub const MAX_BURST: u32 = 16;
/// Read bursts the engine keeps outstanding on its AXI read port
/// (`MaxRdOutstanding` of `udma_engine`; docs/decisions.md).
pub const MAX_RD_OUTSTANDING: u32 = 4;
/// Beats of the M2S read-data ring: room for `MAX_RD_OUTSTANDING` full bursts.
pub const RD_BUF_BEATS: u32 = MAX_RD_OUTSTANDING * MAX_BURST;
/// Bytes per data beat at the default `DataWidth` (64 bits).
pub const BEAT_BYTES: u32 = 8;
/// The M2S descriptor fetch (`u_fetch` of `udma_m2s.sv`): DCHK checks FIRST,
/// and the error flag is also the data burst's in TX.
pub const M2S_FETCH: FetchParams = FetchParams {
    first_check: true,
    data_err: true,
    err_axi: UDMA_M2S_ERR_PREF_AXI_RESPONSE,
    err_ring_id: UDMA_M2S_ERR_PREF_RING_ID,
    err_first: UDMA_M2S_ERR_DESC_FIRST,
};

/// Shared read-port view given to both sides each cycle (which side the R beat
/// belongs to is a separate argument, `owner`: the side of the oldest
/// outstanding burst).
#[derive(Debug, Clone, Copy, Default)]
pub struct RdPort<D> {
    pub arready: bool,
    /// R beat valid in the data phase (`m_axi_rvalid` while the burst's AR is done).
    pub rvalid: bool,
    pub rdata: D,
    pub rresp: u32,
    /// Beat index within the oldest outstanding burst.
    pub cnt: u32,
    /// ARLEN of the oldest outstanding burst.
    pub len: u32,
}

/// AR channel request of a side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ArReq {
    pub valid: bool,
    pub addr: u64,
    pub len: u32,
}

/// AXI4-Stream master beat.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StreamOut<D> {
    pub tvalid: bool,
    pub tdata: D,
    pub tkeep: u64,
    pub tlast: bool,
    pub tid: u32,
    pub tuser: bool,
}

/// Outputs of the M2S FSM for one cycle.
#[derive(Debug, Clone, Copy, Default)]
pub struct M2sOut<D: Lanes> {
    /// Wants the read port (arbiter request).
    pub want: bool,
    pub ar: ArReq,
    pub axis: StreamOut<D>,
    pub ev: SideEv,
    /// TX only: the packing of this cycle's beat (the RTL's `comb`/`tot`
    /// wires), computed once for the outputs and the edge.
    pack: Option<Pack<D>>,
}

/// M2S FSM states: `m2s_state_e` of `rtl/udma_m2s.sv`, same names and
/// encoding (the debug port carries the number).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[repr(u8)]
pub enum M2sState {
    #[default]
    Idle = 0,
    Dar = 1,
    Dr = 2,
    Dchk = 3,
    Tx = 6,
    Done = 7,
    Close = 8,
    Flush = 9,
    Dmb = 10,
    Split = 11,
}

/// M2S state, beats of type `D` (the data width's, see [`Lanes`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct M2s<D: Lanes> {
    /// FSM state.
    pub state: M2sState,
    pub q: usize,
    /// Round robin: the queue granted last (the search starts at the next one).
    pub rr_last: usize,
    pub pkt_open: bool,
    /// The descriptor being executed and its read error; in TX the error of
    /// the data burst being received (`u_fetch`).
    pub fetch: DescFetch,
    /// Descriptor bytes not yet streamed (or carried).
    pub rem: u32,
    /// Bytes of the next ring beat below `buf_ptr` (first beat of a descriptor).
    pub src_offset: u32,
    /// Beat-aligned address of the next data AR.
    pub iss_addr: u64,
    /// Beats of the descriptor not yet requested.
    pub iss_need: u32,
    /// Read-data ring: R beats land at `rb_wp`, TX streams from `rb_rp`.
    pub buf: [D; RD_BUF_BEATS as usize],
    pub rb_wp: u32,
    pub rb_rp: u32,
    /// Ring beats reserved: requested (AR done) and not yet streamed.
    pub rb_res: u32,
    /// Ring beats of complete, error-free bursts not yet streamed.
    pub rb_avail: u32,
    /// Data bursts requested and not yet fully received.
    pub m_out: u32,
    /// A data burst of this descriptor ended with an error response: no more
    /// ARs; the bursts before it are streamed, the rest is discarded.
    pub derr: bool,
    /// Packing carry: bytes of the packet not yet streamed, from lane 0.
    pub carry_data: D,
    /// Bytes held in `carry_data` (0..bb).
    pub carry_bytes: u32,
    /// Descriptor prefetch: head + 1 of the queue in TX (docs/udma.md).
    pub pf: DescPf,
}

impl<D: Lanes> Default for M2s<D> {
    fn default() -> Self {
        Self {
            state: M2sState::Idle,
            q: 0,
            rr_last: 0,
            pkt_open: false,
            fetch: DescFetch::default(),
            rem: 0,
            src_offset: 0,
            iss_addr: 0,
            iss_need: 0,
            buf: [D::ZERO; RD_BUF_BEATS as usize],
            rb_wp: 0,
            rb_rp: 0,
            rb_res: 0,
            rb_avail: 0,
            m_out: 0,
            derr: false,
            carry_data: D::ZERO,
            carry_bytes: 0,
            pf: DescPf::default(),
        }
    }
}

/// Result of merging the carry with the buffer beat being streamed.
#[derive(Debug, Clone, Copy, Default)]
struct Pack<D: Lanes> {
    /// Bytes of the buffer beat that belong to the descriptor (1..=bb).
    n: u32,
    /// Carry plus those bytes (1..2·bb).
    tot: u32,
    /// The beat is the final one of a LAST descriptor.
    lastp: bool,
    /// Carry bytes then beat bytes, two beats wide.
    comb: D::Double,
}

/// Beats of the next data burst from the aligned `addr` with `need` beats
/// still to request: bounded by the 4 KiB boundary and MAX_BURST.
pub fn burst_beats(addr: u64, need: u32, bb: u32) -> u32 {
    let to4k = (4096 - (addr & 0xfff) as u32) / bb;
    need.min(to4k).min(MAX_BURST)
}

impl<D: Lanes> M2s<D> {
    /// M2S in reset state (the data width is the `bb` argument of its
    /// stages, see [`M2s::outputs`]).
    pub fn new() -> Self {
        Self::default()
    }

    /// Status shown in the register file.
    pub fn stat(&self) -> SideStat {
        SideStat {
            state: self.state as u8,
            q: self.q,
            pkt: self.pkt_open,
        }
    }

    /// Descriptor word 0 (`len_ctrl`).
    pub fn w0(&self) -> u32 {
        self.fetch.w0()
    }

    /// Descriptor `buf_ptr`.
    pub fn bufp(&self) -> u64 {
        self.fetch.bufp()
    }

    fn last(&self) -> bool {
        self.w0() & (1 << UDMA_DESC_LAST_BIT) != 0
    }

    /// Carry merged with the ring beat `rb_rp` (state TX).
    #[inline(always)]
    fn pack(&self, bb: u32) -> Pack<D> {
        let room = bb - self.src_offset;
        let fin = self.rem <= room;
        let n = if fin { self.rem } else { room };
        let dm = self.buf[(self.rb_rp & (RD_BUF_BEATS - 1)) as usize]
            .take(self.src_offset as usize, n as usize);
        Pack {
            n,
            tot: self.carry_bytes + n,
            lastp: fin && self.last(),
            comb: self
                .carry_data
                .concat(self.carry_bytes as usize, &dm, n as usize),
        }
    }

    /// State after the checks (and the DMB wait): SPLIT when a middle
    /// descriptor without CONCAT finds carried bytes, else TX.
    fn go_state(&self) -> M2sState {
        let concat = self.w0() & (1 << UDMA_DESC_CONCAT_BIT) != 0;
        if self.pkt_open && !concat && self.carry_bytes != 0 {
            M2sState::Split
        } else {
            M2sState::Tx
        }
    }

    /// Enter DCHK's success path: the descriptor's data (after DMB / SPLIT).
    pub fn start_data(&mut self, bb: u32) {
        let bufp = self.bufp();
        let lb_mask = (bb - 1) as u64;
        self.rem = decode_len(self.w0());
        self.iss_addr = bufp & !lb_mask;
        self.src_offset = (bufp & lb_mask) as u32;
        self.iss_need = (self.rem + self.src_offset).div_ceil(bb);
        self.state = if self.w0() & (1 << UDMA_DESC_DMB_BIT) != 0 {
            M2sState::Dmb
        } else {
            self.go_state()
        };
    }

    /// IDLE with no open packet: the next available queue round robin from
    /// `rr_last + 1` (the `avail_o` vector rotated so that queue `rr_last + 1`
    /// is bit 0), which becomes the current queue.
    #[inline(always)]
    fn pick(&mut self, regs: &SideRegs) -> Option<usize> {
        let avail = regs.avail_mask();
        if avail == 0 {
            return None;
        }
        let start = (self.rr_last + 1) % NQ;
        let k = avail.rotate_right(start as u32).trailing_zeros() as usize;
        let q = (start + k) % NQ;
        self.q = q;
        self.rr_last = q;
        Some(q)
    }

    /// IDLE (`p_idle` of the RTL). Waits while a prefetch read is granted
    /// (`ar_pending`) or outstanding. Else: an open packet waits on its
    /// queue (stopped: CLOSE), no open packet picks a queue (engine
    /// NORMAL); the queue's descriptor comes from the prefetch buffer when
    /// it holds the queue's head (→ DCHK, the returned descriptor and error
    /// flag taken by [`DescFetch`]), else it is read (→ DAR). The
    /// buffer is emptied at the edge either way (the settled IDLE input of
    /// [`DescPf::step`]).
    #[inline(always)]
    fn idle(&mut self, regs: &SideRegs, ar_pending: bool) -> Option<(u128, bool)> {
        if self.pf.out || ar_pending {
            return None;
        }
        let fetch = if self.pkt_open {
            if regs.q[self.q].stopped {
                self.state = M2sState::Close;
                None
            } else {
                regs.avail(self.q).then_some(self.q)
            }
        } else {
            self.pick(regs)
        };
        let hit = fetch.and_then(|q| self.pf.hit(q));
        if fetch.is_some() {
            self.state = if hit.is_some() {
                M2sState::Dchk
            } else {
                M2sState::Dar
            };
        }
        hit
    }

    /// A quiet cycle's IDLE (no open packet, no read granted or
    /// outstanding): the queue pick, and the prefetch buffer emptied.
    #[inline(always)]
    pub fn idle_quiet(&mut self, regs: &SideRegs) {
        if let Some((desc, err)) = self.idle(regs, false) {
            self.fetch.take(desc, err);
        }
        self.pf.settle(false);
    }

    /// TX requests the prefetch of the queue's head + 1: every data burst of
    /// the descriptor is requested, none failed, the queue holds a next
    /// descriptor and the buffer is free.
    #[inline(always)]
    fn pf_want(&self, regs: &SideRegs) -> bool {
        self.state == M2sState::Tx
            && self.iss_need == 0
            && !self.derr
            && self.pf.free()
            && regs.q[self.q].has_next()
    }

    /// The read-port grant is the prefetch's: outside DAR and outside TX's
    /// data requests.
    #[inline(always)]
    fn pf_ar_state(&self) -> bool {
        !(self.state == M2sState::Dar || self.state == M2sState::Tx && self.iss_need != 0)
    }

    /// Outputs for this cycle (from the state and the inputs; `owner`: the
    /// read port is granted to M2S). `bb`: bytes per data beat (`DataWidth / 8`), the engine's constant `UdmaWidth::BEAT_BYTES`: a parameter, not state, so the compiler folds it into the cycle.
    #[inline(always)]
    pub fn outputs(&self, regs: &SideRegs, owner: bool, bb: u32) -> M2sOut<D> {
        let mut o = M2sOut::default();
        o.ev.q = self.q;
        match self.state {
            M2sState::Dar => {
                o.want = true;
                if owner {
                    o.ar = ArReq {
                        valid: true,
                        addr: regs.q[self.q].head_desc_addr(),
                        len: desc_beats(bb as usize) - 1,
                    };
                }
            }
            M2sState::Tx => {
                // Next data burst: requested while beats are left, no burst
                // failed and the ring has room for all its beats; once
                // granted the AR is held until its handshake.
                let beats = burst_beats(self.iss_addr, self.iss_need, bb);
                o.want = self.iss_need != 0 && !self.derr && self.rb_res + beats <= RD_BUF_BEATS
                    || self.pf_want(regs);
                if owner {
                    o.ar = if self.iss_need != 0 {
                        ArReq {
                            valid: true,
                            addr: self.iss_addr,
                            len: beats - 1,
                        }
                    } else {
                        self.pf.ar(bb)
                    };
                }
                if self.rb_avail == 0 {
                    return o;
                }
                let p = self.pack(bb);
                o.pack = Some(p);
                // A beat goes out when it is full or ends the packet; otherwise
                // the bytes are absorbed into the carry (no stream beat).
                if p.tot >= bb || p.lastp {
                    o.axis = StreamOut {
                        tvalid: true,
                        tdata: D::slice2(&p.comb, 0, bb as usize),
                        tkeep: keep_at(p.tot.min(bb), 0),
                        tlast: p.lastp && p.tot <= bb,
                        tid: self.q as u32,
                        tuser: false,
                    };
                }
            }
            M2sState::Flush | M2sState::Close | M2sState::Split => {
                o.axis = StreamOut {
                    tvalid: true,
                    tdata: self.carry_data,
                    tkeep: keep_at(self.carry_bytes, 0),
                    tlast: self.state != M2sState::Split,
                    tid: self.q as u32,
                    tuser: self.state == M2sState::Close,
                };
                if owner {
                    o.ar = self.pf.ar(bb);
                }
            }
            _ => {
                if owner {
                    o.ar = self.pf.ar(bb);
                }
            }
        }
        o
    }

    /// Clock edge. `o` are this cycle's outputs; `owner`: the R beat (if any)
    /// belongs to M2S;
    /// `tready` the stream input; `wr_busy` = S2M has a write of queue `wr_q`
    /// in flight (pre-edge); `bb` the bytes per beat (as for [`M2s::outputs`]).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub fn update(
        &mut self,
        regs: &SideRegs,
        rd: &RdPort<D>,
        owner: bool,
        tready: bool,
        (wr_busy, wr_q): (bool, usize),
        o: &mut M2sOut<D>,
        bb: u32,
    ) {
        // An M2S R beat is the prefetch's once no data burst is outstanding
        // (the prefetch AR follows every data AR of the descriptor).
        let pf_beat = owner && rd.rvalid && self.pf.out && self.m_out == 0;
        let beat = owner && rd.rvalid && !pf_beat;
        let last_beat = beat && rd.cnt == rd.len;
        let err_beat = beat && rd.rresp != AXI_RESP_OKAY;
        let pf_hs = o.ar.valid && rd.arready && self.pf_ar_state();
        let pf_want = self.pf_want(regs);
        let pf_addr = if pf_want {
            regs.q[self.q].next_desc_addr()
        } else {
            0
        };
        let pf_in = PfIn {
            want: pf_want,
            q: self.q,
            addr: pf_addr,
            ar_hs: pf_hs,
            beat: pf_beat,
            rd,
            settle: self.state == M2sState::Idle && !self.pf.out && !o.ar.valid,
            keep: false,
        };
        let ar_hs = self.state == M2sState::Dar && o.ar.valid && rd.arready;
        let mut fetch_in = self.fetch_in(regs, rd, ar_hs, beat);
        match self.state {
            M2sState::Idle => fetch_in.take = self.idle(regs, o.ar.valid),
            M2sState::Dar | M2sState::Dr => self.fetch(rd, last_beat, o),
            M2sState::Dchk => self.check(regs, o, bb),
            M2sState::Tx => {
                fetch_in.data = self.transfer(rd, beat, last_beat, err_beat, tready, o, bb)
            }
            M2sState::Done => {
                o.ev.head_adv = true;
                o.ev.done_inc = true;
                o.ev.int_set = self.w0() & (1 << UDMA_DESC_INT_EN_BIT) != 0;
                self.state = M2sState::Idle;
            }
            M2sState::Dmb => {
                if !(wr_busy && wr_q == self.q) {
                    self.state = self.go_state();
                }
            }
            M2sState::Split => {
                if tready {
                    self.carry_data = D::ZERO;
                    self.carry_bytes = 0;
                    self.state = M2sState::Tx;
                }
            }
            M2sState::Flush => {
                if tready {
                    self.pkt_open = false;
                    self.carry_data = D::ZERO;
                    self.carry_bytes = 0;
                    self.state = M2sState::Done;
                }
            }
            _ => {
                if tready {
                    self.pkt_open = false;
                    self.carry_data = D::ZERO;
                    self.carry_bytes = 0;
                    self.state = M2sState::Idle;
                }
            }
        }
        self.pf.step(&pf_in, bb);
        self.fetch.step(&fetch_in, &M2S_FETCH, bb);
    }

    /// The descriptor fetch's inputs of this edge (`u_fetch` of the RTL)
    /// from the state: DAR's AR handshake (`ar_hs`), DR, the side's R beat
    /// (`beat`, not the prefetch's); the stages add IDLE's take and TX's
    /// data phase.
    #[inline(always)]
    fn fetch_in<'a>(
        &self,
        regs: &SideRegs,
        rd: &'a RdPort<D>,
        ar_hs: bool,
        beat: bool,
    ) -> FetchIn<'a, D> {
        let dr = self.state == M2sState::Dr;
        FetchIn {
            take: None,
            ar_hs,
            dr,
            data: false,
            beat,
            rd,
            addr: if dr {
                regs.q[self.q].head_desc_addr()
            } else {
                0
            },
        }
    }

    /// DAR, DR: the descriptor read (its AR and beats are [`DescFetch`]'s);
    /// DAR ends with the AR handshake, DR with the read's last beat.
    #[inline(always)]
    fn fetch(&mut self, rd: &RdPort<D>, last_beat: bool, o: &M2sOut<D>) {
        if self.state == M2sState::Dar {
            if o.ar.valid && rd.arready {
                self.state = M2sState::Dr;
            }
        } else if last_beat {
            self.state = M2sState::Dchk;
        }
    }

    /// DCHK ([`DescFetch::check`]): RRESP error → PREF_AXI_RESPONSE, ring id
    /// ≠ the head's → PREF_RING_ID, FIRST ≠ (no packet open) → DESC_FIRST
    /// (the descriptor is not executed: CLOSE an open packet, else IDLE);
    /// else its data.
    #[inline(always)]
    fn check(&mut self, regs: &SideRegs, o: &mut M2sOut<D>, bb: u32) {
        let err = self
            .fetch
            .check(regs.q[self.q].head.ring_id, self.pkt_open, &M2S_FETCH);
        match err {
            Some(b) => {
                o.ev.err = Some(b);
                self.state = if self.pkt_open {
                    M2sState::Close
                } else {
                    M2sState::Idle
                };
            }
            None => self.start_data(bb),
        }
    }

    /// TX: issue the descriptor's data bursts, receive their beats into the
    /// ring and stream the complete ones (§1 *Packing*), all in one cycle;
    /// or, once a burst failed and nothing is left to stream or outstanding,
    /// the error exit. Returns whether the data phase goes on (not the
    /// exit: [`DescFetch`]'s flag collects the burst's errors).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn transfer(
        &mut self,
        rd: &RdPort<D>,
        beat: bool,
        last_beat: bool,
        err_beat: bool,
        tready: bool,
        o: &mut M2sOut<D>,
        bb: u32,
    ) -> bool {
        if self.rb_avail == 0 && self.derr && self.m_out == 0 && !o.ar.valid {
            // Every burst before the failed one is streamed and nothing is
            // outstanding: the error, the ring emptied.
            o.ev.err = Some(UDMA_M2S_ERR_DATA_AXI_RESPONSE);
            self.derr = false;
            self.rb_rp = self.rb_wp;
            self.rb_res = 0;
            self.state = if self.pkt_open {
                M2sState::Close
            } else {
                M2sState::Idle
            };
            return false;
        }
        let pop = self.stream(tready, o, bb);
        self.ring(rd, beat, last_beat, err_beat, pop, o, bb);
        true
    }

    /// TX's stream (`p_stream` of the RTL): a complete beat in the ring
    /// (carry + descriptor bytes) goes out or into the carry. Returns
    /// whether the ring beat was taken.
    #[inline(always)]
    fn stream(&mut self, tready: bool, o: &mut M2sOut<D>, bb: u32) -> bool {
        if self.rb_avail == 0 || (o.axis.tvalid && !tready) {
            return false;
        }
        let p = o.pack.unwrap_or_else(|| self.pack(bb));
        o.ev.bytes_add = p.n;
        self.rem -= p.n;
        self.pkt_open = !o.axis.tlast;
        self.src_offset = 0;
        self.rb_rp = (self.rb_rp + 1) & (RD_BUF_BEATS - 1);
        if p.tot >= bb {
            self.carry_data = D::slice2(&p.comb, bb as usize, (p.tot - bb) as usize);
            self.carry_bytes = p.tot - bb;
        } else if p.lastp {
            self.carry_data = D::ZERO;
            self.carry_bytes = 0;
        } else {
            self.carry_data = D::slice2(&p.comb, 0, p.tot as usize);
            self.carry_bytes = p.tot;
        }
        if p.lastp && p.tot > bb {
            self.state = M2sState::Flush;
        } else if self.rem == 0 {
            self.state = M2sState::Done;
        }
        true
    }

    /// TX's read-data ring (`p_ring` of the RTL): the AR handshake of a data
    /// burst reserves its beats; an R beat lands in the ring and a burst's
    /// last beat makes it streamable (or, with an error, stops the
    /// descriptor's data); `pop`: the stream took a ring beat.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn ring(
        &mut self,
        rd: &RdPort<D>,
        beat: bool,
        last_beat: bool,
        err_beat: bool,
        pop: bool,
        o: &M2sOut<D>,
        bb: u32,
    ) {
        let ar_hs = o.ar.valid && rd.arready && self.iss_need != 0;
        if ar_hs {
            let beats = o.ar.len + 1;
            self.iss_addr = self.iss_addr.wrapping_add(u64::from(beats * bb));
            self.iss_need -= beats;
        }
        let mut done_beats = 0;
        if beat {
            self.buf[(self.rb_wp & (RD_BUF_BEATS - 1)) as usize] = rd.rdata;
            self.rb_wp = (self.rb_wp + 1) & (RD_BUF_BEATS - 1);
            let e = self.fetch.err | err_beat;
            if last_beat {
                if e {
                    self.derr = true;
                } else if !self.derr {
                    done_beats = rd.len + 1;
                }
            }
        }
        self.rb_avail = self.rb_avail - pop as u32 + done_beats;
        self.rb_res = self.rb_res - pop as u32 + if ar_hs { o.ar.len + 1 } else { 0 };
        self.m_out = self.m_out + ar_hs as u32 - last_beat as u32;
    }
}
