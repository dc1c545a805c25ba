//! Golden cycle model of `rtl/udma_engine.sv`: the UDMA top with its port
//! bundles, the shared AXI4 read port arbiter and the interrupt outputs.
//!
//! Port names follow the AXI conventions (`s_axil_*` CSR slave, `m_axi_*`
//! memory master, `m_axis_*` M2S stream out, `s_axis_*` S2M stream in);
//! `tuser` (1 bit) flags a packet closed early by an M2S error.

use super::m2s::{M2s, RdPort};
use super::regfile::{CsrIn, RegFile, SideStat};
use super::s2m::{S2m, StreamIn, WrIn};
use crate::ports::{BlockDesc, CycleModel, PortBundle};

crate::port_bundle! {
    /// Inputs of `udma_engine`.
    pub struct UdmaIn {
        rst_ni: u64 = 1,
        s_axil_awaddr: u64 = 18,
        s_axil_awvalid: u64 = 1,
        s_axil_wdata: u64 = 32,
        s_axil_wstrb: u64 = 4,
        s_axil_wvalid: u64 = 1,
        s_axil_bready: u64 = 1,
        s_axil_araddr: u64 = 18,
        s_axil_arvalid: u64 = 1,
        s_axil_rready: u64 = 1,
        m_axi_arready: u64 = 1,
        m_axi_rdata: u64 = 64,
        m_axi_rresp: u64 = 2,
        m_axi_rlast: u64 = 1,
        m_axi_rvalid: u64 = 1,
        m_axi_awready: u64 = 1,
        m_axi_wready: u64 = 1,
        m_axi_bresp: u64 = 2,
        m_axi_bvalid: u64 = 1,
        m_axis_tready: u64 = 1,
        s_axis_tdata: u64 = 64,
        s_axis_tkeep: u64 = 8,
        s_axis_tlast: u64 = 1,
        s_axis_tid: u64 = 4,
        s_axis_tuser: u64 = 1,
        s_axis_tvalid: u64 = 1,
    }
}

crate::port_bundle! {
    /// Outputs of `udma_engine`.
    pub struct UdmaOut {
        s_axil_awready: u64 = 1,
        s_axil_wready: u64 = 1,
        s_axil_bresp: u64 = 2,
        s_axil_bvalid: u64 = 1,
        s_axil_arready: u64 = 1,
        s_axil_rdata: u64 = 32,
        s_axil_rresp: u64 = 2,
        s_axil_rvalid: u64 = 1,
        m_axi_araddr: u64 = 64,
        m_axi_arlen: u64 = 8,
        m_axi_arsize: u64 = 3,
        m_axi_arburst: u64 = 2,
        m_axi_arvalid: u64 = 1,
        m_axi_rready: u64 = 1,
        m_axi_awaddr: u64 = 64,
        m_axi_awlen: u64 = 8,
        m_axi_awsize: u64 = 3,
        m_axi_awburst: u64 = 2,
        m_axi_awvalid: u64 = 1,
        m_axi_wdata: u64 = 64,
        m_axi_wstrb: u64 = 8,
        m_axi_wlast: u64 = 1,
        m_axi_wvalid: u64 = 1,
        m_axi_bready: u64 = 1,
        m_axis_tdata: u64 = 64,
        m_axis_tkeep: u64 = 8,
        m_axis_tlast: u64 = 1,
        m_axis_tid: u64 = 4,
        m_axis_tuser: u64 = 1,
        m_axis_tvalid: u64 = 1,
        s_axis_tready: u64 = 1,
        irq_o: u64 = 1,
        err_irq_o: u64 = 1,
        dbg_o: u64 = 32,
    }
}

/// Lockstep registration of the UDMA block.
pub const BLOCK: BlockDesc = BlockDesc {
    name: "udma",
    top: "udma_engine",
    rtl_files: &[
        "sb2sb_pkg.sv",
        "udma_regs.sv",
        "udma_m2s.sv",
        "udma_s2m.sv",
        "udma_engine.sv",
    ],
    params: &[],
    inputs: UdmaIn::SIGNALS,
    outputs: UdmaOut::SIGNALS,
};

/// Read-port owner: none.
pub const RD_NONE: u8 = 0;
/// Read-port owner: M2S.
pub const RD_M2S: u8 = 1;
/// Read-port owner: S2M.
pub const RD_S2M: u8 = 2;

/// AXI burst type INCR.
const BURST_INCR: u64 = 1;
/// AXI size of a 64-bit beat.
const SIZE_8B: u64 = 3;

/// Test-only faults, to prove the lockstep catches bugs. Off by default.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UdmaFault {
    /// M2S accepts descriptors whatever their ring id (skips the PREF_RING_ID check).
    SkipRingIdCheck,
    /// The tail pointer's ring id does not advance when a doorbell wraps the ring.
    TailWrapNoRingId,
}

/// The golden UDMA engine.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Udma {
    pub regs: RegFile,
    pub m2s: M2s,
    pub s2m: S2m,
    pub rd_owner: u8,
    /// AR handshake done, R beats flowing.
    pub rd_phase: bool,
    pub rd_cnt: u32,
    pub rd_len: u32,
    /// Test-only fault (None in every normal run).
    pub fault: Option<UdmaFault>,
}

impl Udma {
    /// Engine in reset state.
    pub fn new() -> Self {
        Self::default()
    }

    fn reset(&mut self) {
        let fault = self.fault;
        *self = Self {
            fault,
            ..Self::default()
        };
    }

    /// FSM status of both sides (M2S, S2M).
    pub fn stats(&self) -> [SideStat; 2] {
        [self.m2s.stat(), self.s2m.stat()]
    }

    fn dbg(&self) -> u64 {
        let m = self.m2s.stat().dbg() & 0x1_0fff;
        let s = self.s2m.stat().dbg() & 0x1_0fff;
        // [8:0] M2S {pkt, q, st}, [17:9] S2M, [19:18] read owner, [21:20] CSR state
        let pack = |d: u32| ((d & 0xf) | ((d >> 8) & 0xf) << 4 | ((d >> 16) & 1) << 8) as u64;
        pack(m) | pack(s) << 9 | (self.rd_owner as u64) << 18 | (self.regs.c_st as u64) << 20
    }
}

fn b(x: u64) -> bool {
    x & 1 != 0
}

impl CycleModel for Udma {
    type In = UdmaIn;
    type Out = UdmaOut;

    fn step(&mut self, i: &UdmaIn) -> UdmaOut {
        if i.rst_ni & 1 == 0 {
            self.reset();
        }
        let csr_in = CsrIn {
            awaddr: i.s_axil_awaddr as u32,
            awvalid: b(i.s_axil_awvalid),
            wdata: i.s_axil_wdata as u32,
            wstrb: i.s_axil_wstrb as u32,
            wvalid: b(i.s_axil_wvalid),
            bready: b(i.s_axil_bready),
            araddr: i.s_axil_araddr as u32,
            arvalid: b(i.s_axil_arvalid),
            rready: b(i.s_axil_rready),
        };
        let rvalid = b(i.m_axi_rvalid) && self.rd_phase;
        let port = |mine: bool| RdPort {
            owner: mine,
            arready: b(i.m_axi_arready),
            rvalid,
            rdata: i.m_axi_rdata,
            rresp: i.m_axi_rresp as u32,
            cnt: self.rd_cnt,
            len: self.rd_len,
        };
        let m_rd = port(self.rd_owner == RD_M2S);
        let s_rd = port(self.rd_owner == RD_S2M);
        let sin = StreamIn {
            tvalid: b(i.s_axis_tvalid),
            tdata: i.s_axis_tdata,
            tkeep: i.s_axis_tkeep as u32,
            tlast: b(i.s_axis_tlast),
            tid: i.s_axis_tid as u32,
            tuser: b(i.s_axis_tuser),
        };
        let wi = WrIn {
            awready: b(i.m_axi_awready),
            wready: b(i.m_axi_wready),
            bvalid: b(i.m_axi_bvalid),
            bresp: i.m_axi_bresp as u32,
        };

        // Combinational outputs from the pre-edge state.
        let csr = self.regs.csr_out(&csr_in);
        let mut mo = self.m2s.outputs(&self.regs.side[0], &m_rd);
        let mut so = self.s2m.outputs(&self.regs.side[1], &s_rd, &sin);
        let ar = match self.rd_owner {
            RD_M2S => mo.ar,
            RD_S2M => so.ar,
            _ => Default::default(),
        };
        let o = UdmaOut {
            s_axil_awready: csr.awready as u64,
            s_axil_wready: csr.wready as u64,
            s_axil_bresp: csr.bresp as u64,
            s_axil_bvalid: csr.bvalid as u64,
            s_axil_arready: csr.arready as u64,
            s_axil_rdata: csr.rdata as u64,
            s_axil_rresp: csr.rresp as u64,
            s_axil_rvalid: csr.rvalid as u64,
            m_axi_araddr: ar.addr,
            m_axi_arlen: ar.len as u64,
            m_axi_arsize: if ar.valid { SIZE_8B } else { 0 },
            m_axi_arburst: if ar.valid { BURST_INCR } else { 0 },
            m_axi_arvalid: ar.valid as u64,
            m_axi_rready: self.rd_phase as u64,
            m_axi_awaddr: so.wr.awaddr,
            m_axi_awlen: so.wr.awlen as u64,
            m_axi_awsize: if so.wr.awvalid { SIZE_8B } else { 0 },
            m_axi_awburst: if so.wr.awvalid { BURST_INCR } else { 0 },
            m_axi_awvalid: so.wr.awvalid as u64,
            m_axi_wdata: so.wr.wdata,
            m_axi_wstrb: so.wr.wstrb as u64,
            m_axi_wlast: so.wr.wlast as u64,
            m_axi_wvalid: so.wr.wvalid as u64,
            m_axi_bready: so.wr.bready as u64,
            m_axis_tdata: mo.axis.tdata,
            m_axis_tkeep: mo.axis.tkeep as u64,
            m_axis_tlast: mo.axis.tlast as u64,
            m_axis_tid: mo.axis.tid as u64,
            m_axis_tuser: mo.axis.tuser as u64,
            m_axis_tvalid: mo.axis.tvalid as u64,
            s_axis_tready: so.tready as u64,
            irq_o: self.regs.irq() as u64,
            err_irq_o: self.regs.err_irq() as u64,
            dbg_o: self.dbg(),
        };
        if i.rst_ni & 1 == 0 {
            return o;
        }

        // Clock edge.
        let stats = self.stats();
        let tready = b(i.m_axis_tready);
        self.m2s.update(&self.regs.side[0], &m_rd, tready, &mut mo);
        if self.fault == Some(UdmaFault::SkipRingIdCheck) {
            if let Some(e) = mo.ev.err {
                if e == crate::udma::regs::UDMA_M2S_ERR_PREF_RING_ID {
                    // Undo the error: behave as if the ring id had matched.
                    mo.ev.err = None;
                    self.m2s.st = super::m2s::M_RAR;
                    self.m2s.rem = super::desc::decode_len(self.m2s.w0);
                    self.m2s.addr = self.m2s.bufp & !7;
                }
            }
        }
        self.s2m
            .update(&self.regs.side[1], &s_rd, &sin, &wi, &mut so);
        let tail_before = match self.fault {
            Some(UdmaFault::TailWrapNoRingId) => Some(self.regs.side.map(|s| s.q.map(|q| q.tail))),
            _ => None,
        };
        self.regs.update(&csr_in, &csr, &[mo.ev, so.ev], &stats);
        if let Some(before) = tail_before {
            for (side, old_side) in self.regs.side.iter_mut().zip(before.iter()) {
                for (r, old) in side.q.iter_mut().zip(old_side.iter()) {
                    if r.tail.offset < old.offset {
                        r.tail.ring_id = old.ring_id;
                    }
                }
            }
        }
        // Read-port arbiter (S2M first).
        match self.rd_owner {
            RD_NONE => {
                if so.want {
                    self.rd_owner = RD_S2M;
                } else if mo.want {
                    self.rd_owner = RD_M2S;
                }
                self.rd_phase = false;
            }
            _ if !self.rd_phase => {
                if ar.valid && b(i.m_axi_arready) {
                    self.rd_phase = true;
                    self.rd_cnt = 0;
                    self.rd_len = ar.len;
                }
            }
            _ => {
                if rvalid {
                    if self.rd_cnt == self.rd_len {
                        self.rd_owner = RD_NONE;
                        self.rd_phase = false;
                    } else {
                        self.rd_cnt += 1;
                    }
                }
            }
        }
        o
    }
}
