//! M2S (TX) FSM: descriptor fetch, burst read, AXI4-Stream out (mirrors `rtl/udma_m2s.sv`).
//!
//! States (docs/udma.md §FSMs): IDLE → DAR → DR → DCHK → (RAR → RD → TX)* →
//! [FLUSH] → DONE, with CLOSE ending an open packet after an error. One burst is
//! read into a 16-beat buffer, then streamed out; the read port is released
//! before the stream is driven, so the S2M side can always fetch its descriptors.
//!
//! Packing: the bytes of a packet are packed across descriptor boundaries by a
//! carry register (`cdata`, `cb` bytes at lane 0), so every stream beat of a
//! packet but the `tlast` one is full (8 bytes).

use super::desc::{decode_len, ring_id_of};
use super::regfile::{SideEv, SideRegs, SideStat, NQ};
use super::regs::*;

pub const M_IDLE: u8 = 0;
pub const M_DAR: u8 = 1;
pub const M_DR: u8 = 2;
pub const M_DCHK: u8 = 3;
pub const M_RAR: u8 = 4;
pub const M_RD: u8 = 5;
pub const M_TX: u8 = 6;
pub const M_DONE: u8 = 7;
pub const M_CLOSE: u8 = 8;
pub const M_FLUSH: u8 = 9;

/// Maximum beats per data read burst (the size of the beat buffer).
pub const MAX_BURST: u32 = 16;
/// Bytes per data beat (DataWidth 64).
pub const BEAT_BYTES: u32 = 8;

/// Shared read-port view given to a side each cycle.
#[derive(Debug, Clone, Copy, Default)]
pub struct RdPort {
    /// The read port is granted to this side.
    pub owner: bool,
    pub arready: bool,
    pub rvalid: bool,
    pub rdata: u64,
    pub rresp: u32,
    /// Beat index of the current burst.
    pub cnt: u32,
    /// ARLEN of the current burst.
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
pub struct StreamOut {
    pub tvalid: bool,
    pub tdata: u64,
    pub tkeep: u32,
    pub tlast: bool,
    pub tid: u32,
    pub tuser: bool,
}

/// Outputs of the M2S FSM for one cycle.
#[derive(Debug, Clone, Copy, Default)]
pub struct M2sOut {
    /// Wants the read port (arbiter request).
    pub want: bool,
    pub ar: ArReq,
    pub axis: StreamOut,
    pub ev: SideEv,
}

/// M2S state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct M2s {
    pub st: u8,
    pub q: usize,
    pub rr: usize,
    pub pkt_open: bool,
    pub w0: u32,
    pub bufp: u64,
    pub rd_err: bool,
    pub rem: u32,
    pub addr: u64,
    pub tx_idx: u32,
    /// ARLEN of the data burst being streamed.
    pub blen: u32,
    pub buf: [u64; MAX_BURST as usize],
    /// Packing carry: bytes of the packet not yet streamed, from lane 0.
    pub cdata: u64,
    /// Bytes held in `cdata` (0..=7).
    pub cb: u32,
}

/// Result of merging the carry with the buffer beat being streamed.
#[derive(Debug, Clone, Copy)]
struct Pack {
    /// Bytes of the buffer beat that belong to the descriptor (1..=8).
    n: u32,
    /// Carry plus those bytes (0..=15).
    tot: u32,
    /// The beat is the final one of a LAST descriptor.
    lastp: bool,
    /// Carry bytes then beat bytes, 16 bytes wide.
    comb: u128,
}

/// Bit mask of the low `n` (0..=8) bytes of a beat.
pub fn byte_mask(n: u32) -> u64 {
    if n >= BEAT_BYTES {
        u64::MAX
    } else {
        (1u64 << (8 * n)) - 1
    }
}

/// Beats of the next data burst: bounded by the bytes left, the 4 KiB boundary and MAX_BURST.
pub fn burst_beats(addr: u64, rem: u32) -> u32 {
    let need = rem.div_ceil(BEAT_BYTES);
    let to4k = (4096 - (addr & 0xfff) as u32) / BEAT_BYTES;
    need.min(to4k).min(MAX_BURST)
}

/// tkeep of a beat carrying `n` (1..=8) bytes from lane 0.
pub fn keep_of(n: u32) -> u32 {
    if n >= BEAT_BYTES {
        0xff
    } else {
        (1 << n) - 1
    }
}

impl M2s {
    /// Status shown in the register file.
    pub fn stat(&self) -> SideStat {
        SideStat {
            st: self.st,
            q: self.q,
            pkt: self.pkt_open,
        }
    }

    fn last(&self) -> bool {
        self.w0 & (1 << UDMA_DESC_LAST_BIT) != 0
    }

    /// Carry merged with the buffer beat `tx_idx` (state TX).
    fn pack(&self) -> Pack {
        let n = self.rem.min(BEAT_BYTES);
        let dm = self.buf[self.tx_idx as usize] & byte_mask(n);
        Pack {
            n,
            tot: self.cb + n,
            lastp: self.rem <= BEAT_BYTES && self.last(),
            comb: self.cdata as u128 | (dm as u128) << (8 * self.cb),
        }
    }

    /// Outputs for this cycle (from the state and the inputs).
    pub fn outputs(&self, regs: &SideRegs, rd: &RdPort) -> M2sOut {
        let mut o = M2sOut::default();
        o.ev.q = self.q;
        match self.st {
            M_DAR => {
                o.want = true;
                if rd.owner {
                    o.ar = ArReq {
                        valid: true,
                        addr: regs.q[self.q].head_desc_addr(),
                        len: 1,
                    };
                }
            }
            M_RAR => {
                o.want = true;
                if rd.owner {
                    o.ar = ArReq {
                        valid: true,
                        addr: self.addr,
                        len: burst_beats(self.addr, self.rem) - 1,
                    };
                }
            }
            M_TX => {
                let p = self.pack();
                // A beat goes out when it is full or ends the packet; otherwise
                // the bytes are absorbed into the carry (no stream beat).
                if p.tot >= BEAT_BYTES || p.lastp {
                    o.axis = StreamOut {
                        tvalid: true,
                        tdata: p.comb as u64,
                        tkeep: keep_of(p.tot),
                        tlast: p.lastp && p.tot <= BEAT_BYTES,
                        tid: self.q as u32,
                        tuser: false,
                    };
                }
            }
            M_FLUSH | M_CLOSE => {
                o.axis = StreamOut {
                    tvalid: true,
                    tdata: self.cdata,
                    tkeep: keep_of(self.cb),
                    tlast: true,
                    tid: self.q as u32,
                    tuser: self.st == M_CLOSE,
                };
            }
            _ => {}
        }
        o
    }

    /// Clock edge. `o` are this cycle's outputs; `tready` the stream input.
    pub fn update(&mut self, regs: &SideRegs, rd: &RdPort, tready: bool, o: &mut M2sOut) {
        let beat = rd.owner && rd.rvalid;
        let last_beat = beat && rd.cnt == rd.len;
        let err_beat = beat && rd.rresp != AXI_RESP_OKAY;
        match self.st {
            M_IDLE => {
                if self.pkt_open {
                    if regs.q[self.q].stopped {
                        self.st = M_CLOSE;
                    } else if regs.avail(self.q) {
                        self.st = M_DAR;
                    }
                } else if regs.normal() {
                    for k in 1..=NQ {
                        let q = (self.rr + k) % NQ;
                        if regs.avail(q) {
                            self.q = q;
                            self.rr = q;
                            self.st = M_DAR;
                            break;
                        }
                    }
                }
            }
            M_DAR => {
                if o.ar.valid && rd.arready {
                    self.rd_err = false;
                    self.st = M_DR;
                }
            }
            M_DR => {
                if beat {
                    if rd.cnt == 0 {
                        self.w0 = rd.rdata as u32;
                    } else if rd.cnt == 1 {
                        self.bufp = rd.rdata;
                    }
                    self.rd_err |= err_beat;
                    if last_beat {
                        self.st = M_DCHK;
                    }
                }
            }
            M_DCHK => {
                let err = if self.rd_err {
                    Some(UDMA_M2S_ERR_PREF_AXI_RESPONSE)
                } else if ring_id_of(self.w0) != regs.q[self.q].head.ring_id {
                    Some(UDMA_M2S_ERR_PREF_RING_ID)
                } else {
                    None
                };
                match err {
                    Some(b) => {
                        o.ev.err = Some(b);
                        self.st = if self.pkt_open { M_CLOSE } else { M_IDLE };
                    }
                    None => {
                        self.rem = decode_len(self.w0);
                        self.addr = self.bufp & !((BEAT_BYTES as u64) - 1);
                        self.st = M_RAR;
                    }
                }
            }
            M_RAR => {
                if o.ar.valid && rd.arready {
                    self.rd_err = false;
                    self.blen = o.ar.len;
                    self.st = M_RD;
                }
            }
            M_RD => {
                if beat {
                    self.buf[(rd.cnt & (MAX_BURST - 1)) as usize] = rd.rdata;
                    let e = self.rd_err | err_beat;
                    self.rd_err = e;
                    if last_beat {
                        if e {
                            o.ev.err = Some(UDMA_M2S_ERR_DATA_AXI_RESPONSE);
                            self.st = if self.pkt_open { M_CLOSE } else { M_IDLE };
                        } else {
                            self.tx_idx = 0;
                            self.st = M_TX;
                        }
                    }
                }
            }
            M_TX => {
                if tready || !o.axis.tvalid {
                    let p = self.pack();
                    o.ev.bytes_add = p.n;
                    self.rem -= p.n;
                    self.pkt_open = !o.axis.tlast;
                    self.addr = self.addr.wrapping_add(BEAT_BYTES as u64);
                    if p.tot >= BEAT_BYTES {
                        self.cdata = (p.comb >> 64) as u64;
                        self.cb = p.tot - BEAT_BYTES;
                    } else if p.lastp {
                        self.cdata = 0;
                        self.cb = 0;
                    } else {
                        self.cdata = p.comb as u64;
                        self.cb = p.tot;
                    }
                    if self.tx_idx == self.blen {
                        self.st = if p.lastp && p.tot > BEAT_BYTES {
                            M_FLUSH
                        } else if self.rem == 0 {
                            M_DONE
                        } else {
                            M_RAR
                        };
                    }
                    self.tx_idx = (self.tx_idx + 1) & (MAX_BURST - 1);
                }
            }
            M_DONE => {
                o.ev.head_adv = true;
                o.ev.done_inc = true;
                o.ev.int_set = self.w0 & (1 << UDMA_DESC_INT_EN_BIT) != 0;
                self.st = M_IDLE;
            }
            M_FLUSH => {
                if tready {
                    self.pkt_open = false;
                    self.cdata = 0;
                    self.cb = 0;
                    self.st = M_DONE;
                }
            }
            _ => {
                if tready {
                    self.pkt_open = false;
                    self.cdata = 0;
                    self.cb = 0;
                    self.st = M_IDLE;
                }
            }
        }
    }
}
