//! AXI4-Lite master bus-functional model driving the `s_axil_*` ports: the
//! one AXI4-Lite master (`system::q7_master`, its multi-outstanding
//! [`AxilQueue`]) with this environment's random timing.
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
use crate::system::q7_master::{AxilMaster, AxilQueue, Finished};

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

/// The AXI4-Lite master: the one master ([`AxilQueue`] of
/// [`crate::system::q7_master::AxilMaster`] transactions, up to [`DEPTH`]
/// writes and reads in flight) with this environment's timing: each valid
/// released at a random cycle, random B/R backpressure, noise payload on a
/// channel whose valid is low.
#[derive(Debug, Clone)]
pub struct AxiLiteMaster {
    q: AxilQueue<WrTxn, RdTxn, DEPTH>,
    /// Current timing profile.
    pub timing: Timing,
}

impl AxiLiteMaster {
    /// An idle master.
    pub fn new(timing: Timing) -> Self {
        Self {
            q: AxilQueue::default(),
            timing,
        }
    }

    /// Drop everything in flight (the slave is being reset).
    pub fn reset(&mut self) {
        *self = Self::new(self.timing);
    }

    /// Room for another write.
    pub fn can_write(&self) -> bool {
        self.q.can_write()
    }
    /// Room for another read.
    pub fn can_read(&self) -> bool {
        self.q.can_read()
    }
    /// Nothing in flight.
    pub fn idle(&self) -> bool {
        self.q.idle()
    }
    /// Queue a write; `false` when full.
    pub fn push_write(&mut self, t: WrTxn) -> bool {
        self.q
            .push_write(AxilMaster::write(t.addr, t.data).with_strb(t.strb), t)
    }
    /// Queue a read; `false` when full.
    pub fn push_read(&mut self, t: RdTxn) -> bool {
        self.q.push_read(AxilMaster::read(t.addr), t)
    }
    /// The oldest write still waiting for its B response.
    pub fn oldest_write(&self) -> Option<&WrTxn> {
        self.q.oldest_write()
    }
    /// B is stalled by this master (bvalid high, bready low) in the last cycle.
    pub fn b_stalled(&self, o: &EvtSemOut) -> bool {
        (o.s_axil_bvalid & 1 == 1) & !self.q.readies().0
    }
    /// R is stalled by this master in the last cycle.
    pub fn r_stalled(&self, o: &EvtSemOut) -> bool {
        (o.s_axil_rvalid & 1 == 1) & !self.q.readies().1
    }

    /// Account for the handshakes of cycle `cycle - 1` (outputs `o`); calls
    /// `done` for every finished transaction; a write's record carries the
    /// cycles of its AW and W handshakes.
    #[inline(always)]
    pub fn observe(&mut self, cycle: u64, o: &EvtSemOut, mut done: impl FnMut(Done)) {
        let prev = cycle.saturating_sub(1);
        self.q.observe(
            &crate::axil_out_of!(o),
            |w| w.aw_at = prev,
            |w| w.w_at = prev,
            |f| {
                done(match f {
                    Finished::Write(w, resp) => Done::Write(w, resp),
                    Finished::Read(r, data, resp) => Done::Read(r, data, resp),
                })
            },
        );
    }

    /// Drive this cycle's AXI inputs.
    #[inline(always)]
    pub fn drive(&mut self, d: &mut Dice, i: &mut EvtSemIn) {
        let t = self.timing;
        // Each valid rises with its chance when a transaction waits for it
        // with the valid still low (the draw only then).
        if d.chance16_if(self.q.aw_waiting(), t.aw) {
            self.q.release_aw();
        }
        if d.chance16_if(self.q.w_waiting(), t.w) {
            self.q.release_w();
        }
        if d.chance16_if(self.q.ar_waiting(), t.ar) {
            self.q.release_ar();
        }
        let (bready, rready) = (d.chance16(t.b), d.chance16(t.r));
        self.q.set_readies(bready, rready);
        let a = self.q.drive();

        i.s_axil_awvalid = u64::from(a.awvalid);
        i.s_axil_wvalid = u64::from(a.wvalid);
        i.s_axil_arvalid = u64::from(a.arvalid);
        i.s_axil_bready = u64::from(a.bready);
        i.s_axil_rready = u64::from(a.rready);
        // Payload: the pending transaction while valid, otherwise noise
        // (a slave must ignore payload without valid).
        const PROT_MASK: u64 = 0x7;
        let noise = d.rng.u64();
        i.s_axil_awprot = noise & PROT_MASK;
        i.s_axil_arprot = (noise >> 3) & PROT_MASK;
        i.s_axil_awaddr = if a.awvalid {
            u64::from(a.awaddr)
        } else {
            (noise >> 6) & u64::from(ADDR_MASK)
        };
        (i.s_axil_wdata, i.s_axil_wstrb) = if a.wvalid {
            (u64::from(a.wdata), u64::from(a.wstrb))
        } else {
            (noise >> 32, (noise >> 19) & 0xF)
        };
        i.s_axil_araddr = if a.arvalid {
            u64::from(a.araddr)
        } else {
            (noise >> 23) & u64::from(ADDR_MASK)
        };
    }
}
