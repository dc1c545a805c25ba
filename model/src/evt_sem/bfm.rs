//! AXI4-Lite master bus-functional model driving the `s_axil_*` ports.
//!
//! It reacts to the previous cycle's outputs (a handshake happened in cycle
//! `c-1` when the driven valid and the sampled ready were both high), keeps
//! every valid high with stable payload until its handshake, raises AW and W
//! independently after random delays (so AW-before-W, W-before-AW and both
//! together all occur), and applies random B/R backpressure. Fixed-size
//! queues: no allocation per cycle.

use super::io::{EvtSemIn, EvtSemOut};
use super::regs::{ADDR_MASK, EVT_SEM_FULL_STRB};
use crate::stim::StimRng;

/// Per-cycle random decisions: a pool of bits refilled from a SplitMix64
/// stream seeded from the run's [`StimRng`] (ChaCha8), so the many small
/// decisions of every cycle cost about a nanosecond per 64 bits; both are
/// fully specified, so a seed replays the same run anywhere.
#[derive(Debug, Clone)]
pub struct Dice {
    /// The underlying ChaCha stream (for rare, wide or ranged draws).
    pub rng: StimRng,
    mix: u64,
    pool: u64,
    left: u32,
}

impl Dice {
    /// Dice over `rng`.
    pub fn new(mut rng: StimRng) -> Self {
        let mix = rng.u64();
        Self {
            rng,
            mix,
            pool: 0,
            left: 0,
        }
    }
    /// 64 fresh random bits (SplitMix64).
    #[inline]
    pub fn u64(&mut self) -> u64 {
        self.mix = self.mix.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.mix;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// `k` (1..=32) fresh random bits.
    #[inline]
    pub fn bits(&mut self, k: u32) -> u64 {
        if self.left < k {
            self.pool = self.u64();
            self.left = 64;
        }
        let v = self.pool & ((1u64 << k) - 1);
        self.pool >>= k;
        self.left -= k;
        v
    }
    /// True with probability `num/16`.
    #[inline]
    pub fn chance16(&mut self, num: u32) -> bool {
        self.bits(4) < u64::from(num)
    }
    /// `cond && self.chance16(num)`, without a branch on `cond`: the four
    /// bits are consumed only when `cond` holds, so the draws are those of
    /// the short-circuit form.
    #[inline]
    pub fn chance16_if(&mut self, cond: bool, num: u32) -> bool {
        if cond & (self.left < 4) {
            self.pool = self.u64();
            self.left = 64;
        }
        let v = self.pool & 0xF;
        let k = 4 * u32::from(cond);
        self.pool >>= k;
        self.left -= k;
        cond & (v < u64::from(num))
    }
}

/// Queue depth of writes and reads in flight.
pub const DEPTH: usize = 4;

/// One AXI4-Lite write.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WrTxn {
    /// Byte offset.
    pub addr: u32,
    /// Write data.
    pub data: u32,
    /// Write strobe.
    pub strb: u32,
    /// Caller's tag (e.g. directed-sequence step).
    pub tag: u32,
    /// Cycle of the AW handshake.
    pub aw_at: u64,
    /// Cycle of the W handshake.
    pub w_at: u64,
}

impl WrTxn {
    /// A full-strobe write.
    pub fn full(addr: u32, data: u32) -> Self {
        Self {
            addr,
            data,
            strb: EVT_SEM_FULL_STRB,
            ..Self::default()
        }
    }
}

/// One AXI4-Lite read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RdTxn {
    /// Byte offset.
    pub addr: u32,
}

/// A finished transaction reported by [`AxiLiteMaster::observe`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Done {
    /// Write with its B response.
    Write(WrTxn, u32),
    /// Read with its R data and response.
    Read(RdTxn, u32, u32),
}

/// Timing knobs: chance (out of 16) per cycle to raise a valid / ready.
#[derive(Debug, Clone, Copy)]
pub struct Timing {
    pub aw: u32,
    pub w: u32,
    pub b: u32,
    pub ar: u32,
    pub r: u32,
}

impl Timing {
    /// Random timing profile (from always-ready to heavy backpressure).
    pub fn random(rng: &mut StimRng) -> Self {
        let mut k = || *rng.pick(&[2u32, 6, 12, 16]);
        Self {
            aw: k(),
            w: k(),
            b: k(),
            ar: k(),
            r: k(),
        }
    }
}

/// The AXI4-Lite master.
#[derive(Debug, Clone)]
pub struct AxiLiteMaster {
    wq: [WrTxn; DEPTH],
    w_len: usize,
    aw_next: usize,
    w_next: usize,
    awvalid: bool,
    wvalid: bool,
    bready: bool,
    rq: [RdTxn; DEPTH],
    r_len: usize,
    ar_next: usize,
    arvalid: bool,
    rready: bool,
    /// Current timing profile.
    pub timing: Timing,
}

impl AxiLiteMaster {
    /// An idle master.
    pub fn new(timing: Timing) -> Self {
        Self {
            wq: [WrTxn::default(); DEPTH],
            w_len: 0,
            aw_next: 0,
            w_next: 0,
            awvalid: false,
            wvalid: false,
            bready: false,
            rq: [RdTxn::default(); DEPTH],
            r_len: 0,
            ar_next: 0,
            arvalid: false,
            rready: false,
            timing,
        }
    }

    /// Drop everything in flight (the slave is being reset).
    pub fn reset(&mut self) {
        *self = Self::new(self.timing);
    }

    /// Room for another write.
    pub fn can_write(&self) -> bool {
        self.w_len < DEPTH
    }
    /// Room for another read.
    pub fn can_read(&self) -> bool {
        self.r_len < DEPTH
    }
    /// Nothing in flight.
    pub fn idle(&self) -> bool {
        self.w_len == 0 && self.r_len == 0
    }
    /// Queue a write; `false` when full.
    pub fn push_write(&mut self, t: WrTxn) -> bool {
        if !self.can_write() {
            return false;
        }
        self.wq[self.w_len] = t;
        self.w_len += 1;
        true
    }
    /// Queue a read; `false` when full.
    pub fn push_read(&mut self, t: RdTxn) -> bool {
        if !self.can_read() {
            return false;
        }
        self.rq[self.r_len] = t;
        self.r_len += 1;
        true
    }
    /// The oldest write still waiting for its B response.
    pub fn oldest_write(&self) -> Option<&WrTxn> {
        (self.w_len > 0).then(|| &self.wq[0])
    }
    /// B is stalled by this master (bvalid high, bready low) in the last cycle.
    pub fn b_stalled(&self, o: &EvtSemOut) -> bool {
        (o.s_axil_bvalid & 1 == 1) & !self.bready
    }
    /// R is stalled by this master in the last cycle.
    pub fn r_stalled(&self, o: &EvtSemOut) -> bool {
        (o.s_axil_rvalid & 1 == 1) & !self.rready
    }

    /// Account for the handshakes of cycle `cycle - 1` (outputs `o`); calls
    /// `done` for every finished transaction. (Inlined into the
    /// environment's cycle, as [`AxiLiteMaster::drive`].)
    #[inline(always)]
    pub fn observe(&mut self, cycle: u64, o: &EvtSemOut, mut done: impl FnMut(Done)) {
        let prev = cycle.saturating_sub(1);
        // The AW and W handshakes by selects (they are random: a branch
        // each mispredicts); a slot is rewritten unchanged without one.
        let aw_hs = self.awvalid & (o.s_axil_awready & 1 == 1);
        let k = self.aw_next % DEPTH;
        self.wq[k].aw_at = if aw_hs { prev } else { self.wq[k].aw_at };
        self.aw_next += usize::from(aw_hs);
        self.awvalid &= !aw_hs;
        let w_hs = self.wvalid & (o.s_axil_wready & 1 == 1);
        let k = self.w_next % DEPTH;
        self.wq[k].w_at = if w_hs { prev } else { self.wq[k].w_at };
        self.w_next += usize::from(w_hs);
        self.wvalid &= !w_hs;
        if self.bready && o.s_axil_bvalid & 1 == 1 && self.w_len > 0 {
            done(Done::Write(self.wq[0], o.s_axil_bresp as u32));
            self.wq.copy_within(1..self.w_len, 0);
            self.w_len -= 1;
            self.aw_next = self.aw_next.saturating_sub(1);
            self.w_next = self.w_next.saturating_sub(1);
        }
        let ar_hs = self.arvalid & (o.s_axil_arready & 1 == 1);
        self.ar_next += usize::from(ar_hs);
        self.arvalid &= !ar_hs;
        if self.rready && o.s_axil_rvalid & 1 == 1 && self.r_len > 0 {
            done(Done::Read(
                self.rq[0],
                o.s_axil_rdata as u32,
                o.s_axil_rresp as u32,
            ));
            self.rq.copy_within(1..self.r_len, 0);
            self.r_len -= 1;
            self.ar_next = self.ar_next.saturating_sub(1);
        }
    }

    /// Drive this cycle's AXI inputs. (Inlined into the environment's cycle:
    /// called once per cycle, its call prologue and constants cost ~20
    /// instructions a cycle.)
    #[inline(always)]
    pub fn drive(&mut self, d: &mut Dice, i: &mut EvtSemIn) {
        let t = self.timing;
        // Each valid rises with its chance when it is low and a transaction
        // waits for it (the draw only then, as `!valid && waiting && chance`).
        self.awvalid |= d.chance16_if(!self.awvalid & (self.aw_next < self.w_len), t.aw);
        self.wvalid |= d.chance16_if(!self.wvalid & (self.w_next < self.w_len), t.w);
        self.arvalid |= d.chance16_if(!self.arvalid & (self.ar_next < self.r_len), t.ar);
        self.bready = d.chance16(t.b);
        self.rready = d.chance16(t.r);

        i.s_axil_awvalid = u64::from(self.awvalid);
        i.s_axil_wvalid = u64::from(self.wvalid);
        i.s_axil_arvalid = u64::from(self.arvalid);
        i.s_axil_bready = u64::from(self.bready);
        i.s_axil_rready = u64::from(self.rready);
        // Payload: the pending transaction while valid, otherwise noise
        // (a slave must ignore payload without valid).
        const PROT_MASK: u64 = 0x7;
        let noise = d.rng.u64();
        i.s_axil_awprot = noise & PROT_MASK;
        i.s_axil_arprot = (noise >> 3) & PROT_MASK;
        // Selects, not branches (the valids are random); a slot index is
        // taken modulo the depth as it is read even when not driven.
        let aw = &self.wq[self.aw_next % DEPTH];
        i.s_axil_awaddr = if self.awvalid {
            u64::from(aw.addr)
        } else {
            (noise >> 6) & u64::from(ADDR_MASK)
        };
        let w = &self.wq[self.w_next % DEPTH];
        (i.s_axil_wdata, i.s_axil_wstrb) = if self.wvalid {
            (u64::from(w.data), u64::from(w.strb))
        } else {
            (noise >> 32, (noise >> 19) & 0xF)
        };
        let ar = &self.rq[self.ar_next % DEPTH];
        i.s_axil_araddr = if self.arvalid {
            u64::from(ar.addr)
        } else {
            (noise >> 23) & u64::from(ADDR_MASK)
        };
    }
}
