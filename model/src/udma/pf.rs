//! Descriptor prefetch buffer of one side (mirrors the `pf_*` registers and
//! the `p_pf` process of `rtl/udma_m2s.sv` and `rtl/udma_s2m.sv`).
//!
//! While a side moves the data of the descriptor at the head of queue `q`
//! (M2S in TX once every data burst is requested, S2M in DATA or DRAIN), it
//! reads the descriptor at head + 1 of the same queue into this one-entry
//! buffer, if the queue holds one (head + 1 ≠ tail). When the side next leaves
//! IDLE to fetch a descriptor of queue `q`, the buffered one is that queue's
//! head (the head advanced by exactly one since) and goes straight to DCHK
//! with its read error flag: the ring-id check, the FIRST check and the error
//! handling are those of a descriptor read in DAR/DR (docs/udma.md §2, §5).
//!
//! IDLE waits while a prefetch read is granted or outstanding (the R beats of
//! a side arrive in order, so a DAR/DR never overtakes it). In IDLE the buffer
//! is dropped unless its queue is still available and IDLE made no decision
//! (every error stops its queue, so a buffer never survives an error, nor a
//! RST_Q, which empties the queue); M2S always decides in its first settled
//! IDLE cycle, S2M may wait there for the first beat of the next packet.

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

    /// Clock edge of the buffer outside IDLE's decision: `want` (the side
    /// requests head + 1 of queue `q` at `addr` this cycle), `ar_hs` (its
    /// prefetch AR handshakes), `beat` (this R beat is the prefetch's).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub fn update<D: Lanes>(
        &mut self,
        (want, q, addr): (bool, usize, u64),
        ar_hs: bool,
        beat: bool,
        rd: &RdPort<D>,
        bb: u32,
    ) {
        if want {
            self.q = q;
            self.addr = addr;
        }
        if ar_hs {
            self.out = true;
            self.err = false;
        }
        if beat {
            self.desc = D::desc_shift_in(self.desc, &rd.rdata, bb as usize, self.addr);
            self.err |= rd.rresp != AXI_RESP_OKAY;
            if rd.cnt == rd.len {
                self.out = false;
                self.vld = true;
            }
        }
    }

    /// IDLE, settled (no prefetch granted or outstanding): `fetch` = the
    /// queue IDLE fetches a descriptor of now, if any; `keep` = the buffer may
    /// stay (IDLE made no decision and its queue is available). Returns the
    /// buffered descriptor and its error flag when it is `fetch`'s head.
    #[inline(always)]
    pub fn settle(&mut self, fetch: Option<usize>, keep: bool) -> Option<(u128, bool)> {
        let hit = match fetch {
            Some(q) if self.vld && self.q == q => Some((self.desc, self.err)),
            _ => None,
        };
        self.vld = self.vld && keep && fetch.is_none();
        hit
    }
}
