//! Descriptor prefetch buffer of one side: the golden twin of
//! `rtl/udma_desc_pf.sv` (same state, [`PfIn`] = its input ports, [`DescPf::step`]
//! = its next-state process), instantiated by both sides (`udma_m2s.sv`,
//! `udma_s2m.sv`; [`super::m2s::M2s::pf`], [`super::s2m::S2m::pf`]).
//!
//! While a side moves the data of the descriptor at the head of queue `q`
//! (M2S in TX once every data burst is requested, S2M in DATA or DRAIN), it
//! reads the descriptor at head + 1 of the same queue into this one-entry
//! buffer, if the queue holds one (head + 1 ≠ tail). When the side next leaves
//! IDLE to fetch a descriptor of queue `q`, the buffered one is that queue's
//! head (the head advanced by exactly one since) and goes straight to DCHK
//! with its read error flag ([`DescPf::hit`]): the ring-id check, the FIRST
//! check and the error handling are those of a descriptor read in DAR/DR
//! (docs/udma.md §2, §5).
//!
//! IDLE waits while a prefetch read is granted or outstanding (the R beats of
//! a side arrive in order, so a DAR/DR never overtakes it). In a settled IDLE
//! cycle the buffer is dropped unless `keep` (its queue is still available
//! and IDLE made no decision; every error stops its queue, so a buffer never
//! survives an error, nor a RST_Q, which empties the queue); M2S always
//! decides in its first settled IDLE cycle (`keep` = false), S2M may wait
//! there for the first beat of the next packet.

use super::beat::{desc_beats, Lanes};
use super::m2s::{ArReq, RdPort};
use super::regs::AXI_RESP_OKAY;

/// One prefetched descriptor (`pf_*_q` of the RTL).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DescPf {
    /// The read's AR is done and its last beat has not arrived.
    pub out: bool,
    /// The descriptor is complete (`desc`, `err`) and unused.
    pub vld: bool,
    /// Queue of the descriptor.
    pub q: usize,
    /// Its address (head + 1 of `q` when requested), latched with the request.
    pub addr: u64,
    /// The 16 bytes, assembled as in DR.
    pub desc: u128,
    /// An R beat of the read had an error response.
    pub err: bool,
}

impl DescPf {
    /// A prefetch may be requested: none outstanding and none buffered.
    #[inline(always)]
    pub fn free(&self) -> bool {
        !self.out && !self.vld
    }

    /// The prefetch AR (driven while the side holds the read-port grant
    /// outside its own DAR and data requests).
    #[inline(always)]
    pub fn ar(&self, bb: u32) -> ArReq {
        ArReq {
            valid: true,
            addr: self.addr,
            len: desc_beats(bb as usize) - 1,
        }
    }

    /// The buffered descriptor and its error flag when it is queue `q`'s
    /// (the side's `pf_hit`: IDLE fetches a descriptor of `q`).
    #[inline(always)]
    pub fn hit(&self, q: usize) -> Option<(u128, bool)> {
        (self.vld && self.q == q).then_some((self.desc, self.err))
    }

    /// Clock edge (`p_next` of `udma_desc_pf.sv`): the request latches the
    /// queue and address, the AR handshake starts the read, its beats
    /// assemble the descriptor (the last one makes it valid), a settled IDLE
    /// keeps it only with `keep`.
    #[inline(always)]
    pub fn step<D: Lanes>(&mut self, i: &PfIn<'_, D>, bb: u32) {
        if i.want {
            self.q = i.q;
            self.addr = i.addr;
        }
        if i.ar_hs {
            self.out = true;
            self.err = false;
        }
        if i.beat {
            self.desc = D::desc_shift_in(self.desc, &i.rd.rdata, bb as usize, self.addr);
            self.err |= i.rd.rresp != AXI_RESP_OKAY;
            if i.rd.cnt == i.rd.len {
                self.out = false;
                self.vld = true;
            }
        }
        if i.settle {
            self.settle(i.keep);
        }
    }

    /// Settled IDLE: the buffer stays only with `keep` (the part of
    /// [`Self::step`] a quiet IDLE cycle runs, its other inputs being 0).
    #[inline(always)]
    pub fn settle(&mut self, keep: bool) {
        self.vld = self.vld && keep;
    }
}

/// Inputs of one clock edge: the input ports of `udma_desc_pf`.
#[derive(Debug, Clone, Copy)]
pub struct PfIn<'a, D> {
    /// The side requests head + 1 of queue `q` at `addr` (`want_i`, `q_i`, `addr_i`).
    pub want: bool,
    pub q: usize,
    pub addr: u64,
    /// The prefetch AR handshakes (`ar_hs_i`).
    pub ar_hs: bool,
    /// This R beat is the prefetch's (`beat_i`); `rd` carries its data,
    /// response and whether it is the read's last beat (`rdata_i`, `rresp_i`,
    /// `last_i`).
    pub beat: bool,
    pub rd: &'a RdPort<D>,
    /// Settled IDLE (`settle_i`): the buffer stays only with `keep` (`keep_i`).
    pub settle: bool,
    pub keep: bool,
}
