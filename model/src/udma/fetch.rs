//! Descriptor fetch of one side: the golden twin of `rtl/udma_desc_fetch.sv`
//! (same state, [`FetchIn`] = its input ports, [`FetchParams`] = its
//! parameters, [`DescFetch::step`] = its next-state process `p_next` with
//! the data-phase error of `gen_data_err`, [`DescFetch::check`] = its
//! `p_check`), instantiated by both sides (`udma_m2s.sv`, `udma_s2m.sv`;
//! `m2s::M2s::fetch`, `s2m::S2m::fetch`). The module's
//! register enable `en_i` (the side's) has no twin: in a cycle without it no
//! input of `step` is active.
//!
//! The descriptor register and its read-error flag: the handshake of DAR's
//! AR (driven by the side) clears the flag; in DR the side's R beats assemble the
//! descriptor (narrow beats shift in from the top, a wide beat holds it at
//! lane `addr mod bb`) with the OR of their RRESP errors; in IDLE the side
//! takes a prefetched descriptor and its flag ([`super::pf::DescPf::hit`]).
//! DCHK checks it: the first failing check names the error (RRESP error,
//! the ring id against the head's, and on M2S FIRST against the open
//! packet). On M2S the flag also collects the RRESP errors of the data burst
//! TX receives and is cleared by its last beat (docs/udma.md §2, §5).

use super::beat::Lanes;
use super::desc::ring_id_of;
use super::m2s::RdPort;
use super::regs::{AXI_RESP_OKAY, UDMA_DESC_FIRST_BIT};

/// The parameters of `udma_desc_fetch`: what differs between the sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FetchParams {
    /// DCHK checks FIRST against the open packet (`FirstCheck`).
    pub first_check: bool,
    /// The error flag also collects the data bursts' RRESP errors (`DataErr`).
    pub data_err: bool,
    /// Error bits of the failing checks (`ErrAxi`, `ErrRingId`, `ErrFirst`).
    pub err_axi: u32,
    pub err_ring_id: u32,
    pub err_first: u32,
}

/// The descriptor being executed and its read error (`desc_q`, `err_q` of
/// the RTL).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DescFetch {
    /// The 16 bytes, little endian.
    pub desc: u128,
    /// An R beat of its read had an error response (on M2S in TX: a beat of
    /// the data burst being received).
    pub err: bool,
}

impl DescFetch {
    /// Descriptor word 0 (`len_ctrl`).
    #[inline(always)]
    pub fn w0(&self) -> u32 {
        self.desc as u32
    }

    /// Descriptor word 2-3 (`buf_ptr`).
    #[inline(always)]
    pub fn bufp(&self) -> u64 {
        (self.desc >> 64) as u64
    }

    /// Clock edge (`p_next` and `gen_data_err` of `udma_desc_fetch.sv`): the
    /// prefetched descriptor taken, the AR handshake of DAR, a DR beat, a
    /// data-phase beat (with `data_err`).
    #[inline(always)]
    pub fn step<D: Lanes>(&mut self, i: &FetchIn<'_, D>, p: &FetchParams, bb: u32) {
        let beat_err = i.rd.rresp != AXI_RESP_OKAY;
        let err_q = self.err;
        if let Some((desc, err)) = i.take {
            self.take(desc, err);
        }
        if i.ar_hs {
            self.err = false;
        }
        if i.dr && i.beat {
            self.desc = D::desc_shift_in(self.desc, &i.rd.rdata, bb as usize, i.addr);
            self.err = err_q || beat_err;
        }
        if p.data_err && i.data && i.beat {
            self.err = (err_q || beat_err) && i.rd.cnt != i.rd.len;
        }
    }

    /// IDLE takes a prefetched descriptor and its error flag (`take_i`: the
    /// part of [`Self::step`] a quiet IDLE cycle runs, its other inputs
    /// being 0).
    #[inline(always)]
    pub fn take(&mut self, desc: u128, err: bool) {
        self.desc = desc;
        self.err = err;
    }

    /// DCHK's verdict (`p_check`): the error bit of the first failing check
    /// (`pkt_open`: a packet is open; `head_ring_id`: the ring id of the
    /// queue's head), `None` when the descriptor passes.
    #[inline(always)]
    pub fn check(&self, head_ring_id: u8, pkt_open: bool, p: &FetchParams) -> Option<u32> {
        let first = self.w0() & (1 << UDMA_DESC_FIRST_BIT) != 0;
        if self.err {
            Some(p.err_axi)
        } else if ring_id_of(self.w0()) != head_ring_id {
            Some(p.err_ring_id)
        } else if p.first_check && first == pkt_open {
            Some(p.err_first)
        } else {
            None
        }
    }
}

/// Inputs of one clock edge: the input ports of `udma_desc_fetch` that its
/// next state reads.
#[derive(Debug, Clone, Copy)]
pub struct FetchIn<'a, D> {
    /// IDLE takes the prefetched descriptor and its flag (`take_i`,
    /// `pf_desc_i`, `pf_err_i`).
    pub take: Option<(u128, bool)>,
    /// DAR's AR handshakes (`ar_hs_i`).
    pub ar_hs: bool,
    /// The side is in DR (`dr_i`) / its data phase (`data_i`).
    pub dr: bool,
    pub data: bool,
    /// An R beat of the side (not the prefetch's: `beat_i`); `rd` carries its
    /// data, response and whether it is the burst's last (`rdata_i`,
    /// `rresp_i`, `last_i`).
    pub beat: bool,
    pub rd: &'a RdPort<D>,
    /// The head descriptor's address (`addr_lane_i` is its lane; read only
    /// for a DR beat).
    pub addr: u64,
}
