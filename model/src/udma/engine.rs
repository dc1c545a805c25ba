//! Golden cycle model of `rtl/udma_engine.sv`: the UDMA top with its port
//! bundles, the shared AXI4 read port arbiter and the interrupt outputs.
//!
//! Port names follow the AXI conventions (`s_axil_*` CSR slave, `m_axi_*`
//! memory master, `m_axis_*` M2S stream out, `s_axis_*` S2M stream in);
//! `tuser` (1 bit) flags a packet closed early by an M2S error.

use core::marker::PhantomData;

use super::beat::{Beat, WideData};
use super::m2s::{M2s, RdPort};
use super::regfile::{CsrIn, RegFile, SideStat};
use super::s2m::{S2m, StreamIn, WrIn};
use crate::ports::{BlockDesc, CycleModel, PortBundle};

/// Declares the port bundles, the lockstep registration and the
/// [`UdmaWidth`] marker of one AXI data width (`DataWidth` of `udma_engine`).
/// Field names and widths equal the SV ports (data `$dw` bits, strobes and
/// `tkeep` `$dw / 8` bits).
macro_rules! udma_width {
    (
        $(#[$m:meta])*
        $marker:ident, $in:ident, $out:ident, $block:ident, $name:literal,
        $dw:literal, $bb:literal, $dty:ty, $wrb:literal, $params:expr
    ) => {
        crate::port_bundle! {
            /// Inputs of `udma_engine` at this data width.
            pub struct $in {
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
                m_axi_rdata: $dty = $dw,
                m_axi_rresp: u64 = 2,
                m_axi_rlast: u64 = 1,
                m_axi_rvalid: u64 = 1,
                m_axi_awready: u64 = 1,
                m_axi_wready: u64 = 1,
                m_axi_bresp: u64 = 2,
                m_axi_bvalid: u64 = 1,
                m_axis_tready: u64 = 1,
                s_axis_tdata: $dty = $dw,
                s_axis_tkeep: u64 = $bb,
                s_axis_tlast: u64 = 1,
                s_axis_tid: u64 = 4,
                s_axis_tuser: u64 = 1,
                s_axis_tvalid: u64 = 1,
            }
        }

        crate::port_bundle! {
            /// Outputs of `udma_engine` at this data width.
            pub struct $out {
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
                m_axi_wdata: $dty = $dw,
                m_axi_wstrb: u64 = $bb,
                m_axi_wlast: u64 = 1,
                m_axi_wvalid: u64 = 1,
                m_axi_bready: u64 = 1,
                m_axis_tdata: $dty = $dw,
                m_axis_tkeep: u64 = $bb,
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

        /// Lockstep registration of `udma_engine` at this data width.
        pub const $block: BlockDesc = BlockDesc {
            name: $name,
            top: "udma_engine",
            rtl_files: RTL_FILES,
            params: $params,
            inputs: <$in as PortBundle>::SIGNALS,
            outputs: <$out as PortBundle>::SIGNALS,
        };

        $(#[$m])*
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
        pub struct $marker;

        impl UdmaWidth for $marker {
            type In = $in;
            type Out = $out;
            const BEAT_BYTES: u32 = $bb;
            const MAX_WR_BURST: u32 = $wrb;
            const BLOCK: &'static BlockDesc = &$block;

            fn pins_in(i: &$in) -> PinsIn {
                PinsIn {
                    rst_ni: i.rst_ni,
                    s_axil_awaddr: i.s_axil_awaddr,
                    s_axil_awvalid: i.s_axil_awvalid,
                    s_axil_wdata: i.s_axil_wdata,
                    s_axil_wstrb: i.s_axil_wstrb,
                    s_axil_wvalid: i.s_axil_wvalid,
                    s_axil_bready: i.s_axil_bready,
                    s_axil_araddr: i.s_axil_araddr,
                    s_axil_arvalid: i.s_axil_arvalid,
                    s_axil_rready: i.s_axil_rready,
                    m_axi_arready: i.m_axi_arready,
                    m_axi_rdata: i.m_axi_rdata.to_beat(),
                    m_axi_rresp: i.m_axi_rresp,
                    m_axi_rlast: i.m_axi_rlast,
                    m_axi_rvalid: i.m_axi_rvalid,
                    m_axi_awready: i.m_axi_awready,
                    m_axi_wready: i.m_axi_wready,
                    m_axi_bresp: i.m_axi_bresp,
                    m_axi_bvalid: i.m_axi_bvalid,
                    m_axis_tready: i.m_axis_tready,
                    s_axis_tdata: i.s_axis_tdata.to_beat(),
                    s_axis_tkeep: i.s_axis_tkeep,
                    s_axis_tlast: i.s_axis_tlast,
                    s_axis_tid: i.s_axis_tid,
                    s_axis_tuser: i.s_axis_tuser,
                    s_axis_tvalid: i.s_axis_tvalid,
                }
            }

            fn to_in(p: &PinsIn) -> $in {
                $in {
                    rst_ni: p.rst_ni,
                    s_axil_awaddr: p.s_axil_awaddr,
                    s_axil_awvalid: p.s_axil_awvalid,
                    s_axil_wdata: p.s_axil_wdata,
                    s_axil_wstrb: p.s_axil_wstrb,
                    s_axil_wvalid: p.s_axil_wvalid,
                    s_axil_bready: p.s_axil_bready,
                    s_axil_araddr: p.s_axil_araddr,
                    s_axil_arvalid: p.s_axil_arvalid,
                    s_axil_rready: p.s_axil_rready,
                    m_axi_arready: p.m_axi_arready,
                    m_axi_rdata: WideData::from_beat(&p.m_axi_rdata),
                    m_axi_rresp: p.m_axi_rresp,
                    m_axi_rlast: p.m_axi_rlast,
                    m_axi_rvalid: p.m_axi_rvalid,
                    m_axi_awready: p.m_axi_awready,
                    m_axi_wready: p.m_axi_wready,
                    m_axi_bresp: p.m_axi_bresp,
                    m_axi_bvalid: p.m_axi_bvalid,
                    m_axis_tready: p.m_axis_tready,
                    s_axis_tdata: WideData::from_beat(&p.s_axis_tdata),
                    s_axis_tkeep: p.s_axis_tkeep,
                    s_axis_tlast: p.s_axis_tlast,
                    s_axis_tid: p.s_axis_tid,
                    s_axis_tuser: p.s_axis_tuser,
                    s_axis_tvalid: p.s_axis_tvalid,
                }
            }

            fn pins_out(o: &$out) -> PinsOut {
                PinsOut {
                    s_axil_awready: o.s_axil_awready,
                    s_axil_wready: o.s_axil_wready,
                    s_axil_bresp: o.s_axil_bresp,
                    s_axil_bvalid: o.s_axil_bvalid,
                    s_axil_arready: o.s_axil_arready,
                    s_axil_rdata: o.s_axil_rdata,
                    s_axil_rresp: o.s_axil_rresp,
                    s_axil_rvalid: o.s_axil_rvalid,
                    m_axi_araddr: o.m_axi_araddr,
                    m_axi_arlen: o.m_axi_arlen,
                    m_axi_arsize: o.m_axi_arsize,
                    m_axi_arburst: o.m_axi_arburst,
                    m_axi_arvalid: o.m_axi_arvalid,
                    m_axi_rready: o.m_axi_rready,
                    m_axi_awaddr: o.m_axi_awaddr,
                    m_axi_awlen: o.m_axi_awlen,
                    m_axi_awsize: o.m_axi_awsize,
                    m_axi_awburst: o.m_axi_awburst,
                    m_axi_awvalid: o.m_axi_awvalid,
                    m_axi_wdata: o.m_axi_wdata.to_beat(),
                    m_axi_wstrb: o.m_axi_wstrb,
                    m_axi_wlast: o.m_axi_wlast,
                    m_axi_wvalid: o.m_axi_wvalid,
                    m_axi_bready: o.m_axi_bready,
                    m_axis_tdata: o.m_axis_tdata.to_beat(),
                    m_axis_tkeep: o.m_axis_tkeep,
                    m_axis_tlast: o.m_axis_tlast,
                    m_axis_tid: o.m_axis_tid,
                    m_axis_tuser: o.m_axis_tuser,
                    m_axis_tvalid: o.m_axis_tvalid,
                    s_axis_tready: o.s_axis_tready,
                    irq_o: o.irq_o,
                    err_irq_o: o.err_irq_o,
                    dbg_o: o.dbg_o,
                }
            }

            fn to_out(p: &PinsOut) -> $out {
                $out {
                    s_axil_awready: p.s_axil_awready,
                    s_axil_wready: p.s_axil_wready,
                    s_axil_bresp: p.s_axil_bresp,
                    s_axil_bvalid: p.s_axil_bvalid,
                    s_axil_arready: p.s_axil_arready,
                    s_axil_rdata: p.s_axil_rdata,
                    s_axil_rresp: p.s_axil_rresp,
                    s_axil_rvalid: p.s_axil_rvalid,
                    m_axi_araddr: p.m_axi_araddr,
                    m_axi_arlen: p.m_axi_arlen,
                    m_axi_arsize: p.m_axi_arsize,
                    m_axi_arburst: p.m_axi_arburst,
                    m_axi_arvalid: p.m_axi_arvalid,
                    m_axi_rready: p.m_axi_rready,
                    m_axi_awaddr: p.m_axi_awaddr,
                    m_axi_awlen: p.m_axi_awlen,
                    m_axi_awsize: p.m_axi_awsize,
                    m_axi_awburst: p.m_axi_awburst,
                    m_axi_awvalid: p.m_axi_awvalid,
                    m_axi_wdata: WideData::from_beat(&p.m_axi_wdata),
                    m_axi_wstrb: p.m_axi_wstrb,
                    m_axi_wlast: p.m_axi_wlast,
                    m_axi_wvalid: p.m_axi_wvalid,
                    m_axi_bready: p.m_axi_bready,
                    m_axis_tdata: WideData::from_beat(&p.m_axis_tdata),
                    m_axis_tkeep: p.m_axis_tkeep,
                    m_axis_tlast: p.m_axis_tlast,
                    m_axis_tid: p.m_axis_tid,
                    m_axis_tuser: p.m_axis_tuser,
                    m_axis_tvalid: p.m_axis_tvalid,
                    s_axis_tready: p.s_axis_tready,
                    irq_o: p.irq_o,
                    err_irq_o: p.err_irq_o,
                    dbg_o: p.dbg_o,
                }
            }
        }
    };
}

/// RTL files of `udma_engine`, in compile order.
const RTL_FILES: &[&str] = &[
    "sb2sb_pkg.sv",
    "axil_reg_adapter.sv",
    "udma_regs.sv",
    "udma_m2s.sv",
    "udma_s2m.sv",
    "udma_engine.sv",
];

/// Width-neutral inputs of `udma_engine` (data fields as beats): what the
/// golden core and the testbench work on, whatever the port width.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PinsIn {
    pub rst_ni: u64,
    pub s_axil_awaddr: u64,
    pub s_axil_awvalid: u64,
    pub s_axil_wdata: u64,
    pub s_axil_wstrb: u64,
    pub s_axil_wvalid: u64,
    pub s_axil_bready: u64,
    pub s_axil_araddr: u64,
    pub s_axil_arvalid: u64,
    pub s_axil_rready: u64,
    pub m_axi_arready: u64,
    pub m_axi_rdata: Beat,
    pub m_axi_rresp: u64,
    pub m_axi_rlast: u64,
    pub m_axi_rvalid: u64,
    pub m_axi_awready: u64,
    pub m_axi_wready: u64,
    pub m_axi_bresp: u64,
    pub m_axi_bvalid: u64,
    pub m_axis_tready: u64,
    pub s_axis_tdata: Beat,
    pub s_axis_tkeep: u64,
    pub s_axis_tlast: u64,
    pub s_axis_tid: u64,
    pub s_axis_tuser: u64,
    pub s_axis_tvalid: u64,
}

/// Width-neutral outputs of `udma_engine` (data fields as beats).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PinsOut {
    pub s_axil_awready: u64,
    pub s_axil_wready: u64,
    pub s_axil_bresp: u64,
    pub s_axil_bvalid: u64,
    pub s_axil_arready: u64,
    pub s_axil_rdata: u64,
    pub s_axil_rresp: u64,
    pub s_axil_rvalid: u64,
    pub m_axi_araddr: u64,
    pub m_axi_arlen: u64,
    pub m_axi_arsize: u64,
    pub m_axi_arburst: u64,
    pub m_axi_arvalid: u64,
    pub m_axi_rready: u64,
    pub m_axi_awaddr: u64,
    pub m_axi_awlen: u64,
    pub m_axi_awsize: u64,
    pub m_axi_awburst: u64,
    pub m_axi_awvalid: u64,
    pub m_axi_wdata: Beat,
    pub m_axi_wstrb: u64,
    pub m_axi_wlast: u64,
    pub m_axi_wvalid: u64,
    pub m_axi_bready: u64,
    pub m_axis_tdata: Beat,
    pub m_axis_tkeep: u64,
    pub m_axis_tlast: u64,
    pub m_axis_tid: u64,
    pub m_axis_tuser: u64,
    pub m_axis_tvalid: u64,
    pub s_axis_tready: u64,
    pub irq_o: u64,
    pub err_irq_o: u64,
    pub dbg_o: u64,
}

/// One AXI data width of the engine: its port bundles, registration and the
/// conversions between the bundles and the width-neutral pins.
pub trait UdmaWidth:
    Copy + Default + core::fmt::Debug + PartialEq + Eq + Send + Sync + 'static
{
    /// Input bundle (SV ports at this width).
    type In: PortBundle;
    /// Output bundle.
    type Out: PortBundle;
    /// Bytes per data beat (`DataWidth / 8`).
    const BEAT_BYTES: u32;
    /// S2M write burst limit of the registered block (`MaxWrBurst`).
    const MAX_WR_BURST: u32;
    /// Lockstep registration.
    const BLOCK: &'static BlockDesc;
    /// Bundle → pins.
    fn pins_in(i: &Self::In) -> PinsIn;
    /// Pins → bundle.
    fn to_in(p: &PinsIn) -> Self::In;
    /// Bundle → pins.
    fn pins_out(o: &Self::Out) -> PinsOut;
    /// Pins → bundle.
    fn to_out(p: &PinsOut) -> Self::Out;
}

udma_width!(
    /// `DataWidth` 64 (the default; block `udma`).
    W64, UdmaIn, UdmaOut, BLOCK, "udma", 64, 8, u64, 16, &[("MaxWrBurst", 16)]
);
udma_width!(
    /// `DataWidth` 32 (block `udma_w32`).
    W32, UdmaW32In, UdmaW32Out, BLOCK_W32, "udma_w32", 32, 4, u64, 16,
    &[("DataWidth", 32), ("MaxWrBurst", 16)]
);
udma_width!(
    /// `DataWidth` 128 (block `udma_w128`).
    W128, UdmaW128In, UdmaW128Out, BLOCK_W128, "udma_w128", 128, 16, [u64; 2], 16,
    &[("DataWidth", 128), ("MaxWrBurst", 16)]
);
udma_width!(
    /// `DataWidth` 256 (golden model only; the RTL elaborates and lints at 256
    /// but is not a registered lockstep block, to bound the build time).
    W256, UdmaW256In, UdmaW256Out, BLOCK_W256, "udma_w256", 256, 32, [u64; 4], 16,
    &[("DataWidth", 256), ("MaxWrBurst", 16)]
);

/// Read-port owner: none.
pub const RD_NONE: u8 = 0;
/// Read-port owner: M2S.
pub const RD_M2S: u8 = 1;
/// Read-port owner: S2M.
pub const RD_S2M: u8 = 2;

/// AXI burst type INCR.
const BURST_INCR: u64 = 1;

/// The golden UDMA engine at data width `W`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UdmaEngine<W: UdmaWidth> {
    pub regs: RegFile,
    pub m2s: M2s,
    pub s2m: S2m,
    pub rd_owner: u8,
    /// AR handshake done, R beats flowing.
    pub rd_phase: bool,
    pub rd_cnt: u32,
    pub rd_len: u32,
    /// S2M data write burst limit (`MaxWrBurst` of the RTL).
    pub max_wr_burst: u32,
    pub width: PhantomData<W>,
}

/// The golden UDMA engine at the default data width (64 bits).
pub type Udma = UdmaEngine<W64>;

impl<W: UdmaWidth> Default for UdmaEngine<W> {
    fn default() -> Self {
        Self {
            regs: RegFile::default(),
            m2s: M2s::new(W::BEAT_BYTES),
            s2m: S2m::new(W::BEAT_BYTES, W::MAX_WR_BURST),
            rd_owner: RD_NONE,
            rd_phase: false,
            rd_cnt: 0,
            rd_len: 0,
            max_wr_burst: W::MAX_WR_BURST,
            width: PhantomData,
        }
    }
}

impl<W: UdmaWidth> UdmaEngine<W> {
    /// Engine in reset state, configured as the registered block `W::BLOCK`
    /// (S2M write bursts of up to `W::MAX_WR_BURST` = 16 beats).
    pub fn new() -> Self {
        Self::default()
    }

    /// Engine with S2M write bursts of up to `n` beats (`MaxWrBurst`).
    pub fn with_max_wr_burst(n: u32) -> Self {
        let mut e = Self {
            max_wr_burst: n,
            ..Self::default()
        };
        e.reset();
        e
    }

    fn reset(&mut self) {
        let n = self.max_wr_burst;
        *self = Self {
            max_wr_burst: n,
            s2m: S2m::new(W::BEAT_BYTES, n),
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
        // [8:0] M2S {pkt, q, state}, [17:9] S2M, [19:18] read owner, [21:20] CSR {R, B} pending
        let pack = |d: u32| ((d & 0xf) | ((d >> 8) & 0xf) << 4 | ((d >> 16) & 1) << 8) as u64;
        pack(m)
            | pack(s) << 9
            | (self.rd_owner as u64) << 18
            | (self.regs.axi.pending() as u64) << 20
    }

    /// One cycle on width-neutral pins (see [`CycleModel::step`]).
    #[inline]
    pub fn step_pins(&mut self, i: &PinsIn) -> PinsOut {
        self.step_pins_with(i, |_, _| {})
    }

    /// [`Self::step_pins`] with `after_m2s` applied to the M2S FSM and its
    /// outputs between the M2S update and the register-file update (the seam
    /// the test-only faults of [`super::fault`] use; production passes a no-op).
    #[inline(always)]
    pub fn step_pins_with<F: FnMut(&mut M2s, &mut super::m2s::M2sOut)>(
        &mut self,
        i: &PinsIn,
        mut after_m2s: F,
    ) -> PinsOut {
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
            tkeep: i.s_axis_tkeep,
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
        let csr = self.regs.csr_out();
        let mut mo = self.m2s.outputs(&self.regs.side[0], &m_rd);
        let mut so = self.s2m.outputs(&self.regs.side[1], &s_rd, &sin);
        let ar = match self.rd_owner {
            RD_M2S => mo.ar,
            RD_S2M => so.ar,
            _ => Default::default(),
        };
        let size = W::BEAT_BYTES.trailing_zeros() as u64;
        let o = PinsOut {
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
            m_axi_arsize: if ar.valid { size } else { 0 },
            m_axi_arburst: if ar.valid { BURST_INCR } else { 0 },
            m_axi_arvalid: ar.valid as u64,
            m_axi_rready: self.rd_phase as u64,
            m_axi_awaddr: so.wr.awaddr,
            m_axi_awlen: so.wr.awlen as u64,
            m_axi_awsize: if so.wr.awvalid { size } else { 0 },
            m_axi_awburst: if so.wr.awvalid { BURST_INCR } else { 0 },
            m_axi_awvalid: so.wr.awvalid as u64,
            m_axi_wdata: so.wr.wdata,
            m_axi_wstrb: so.wr.wstrb,
            m_axi_wlast: so.wr.wlast as u64,
            m_axi_wvalid: so.wr.wvalid as u64,
            m_axi_bready: so.wr.bready as u64,
            m_axis_tdata: mo.axis.tdata,
            m_axis_tkeep: mo.axis.tkeep,
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
        let wr_busy = self.s2m.wr_busy();
        let dmb_req = self.m2s.state == super::m2s::M_DMB && self.m2s.q == self.s2m.q;
        self.m2s
            .update(&self.regs.side[0], &m_rd, tready, wr_busy, &mut mo);
        after_m2s(&mut self.m2s, &mut mo);
        self.s2m
            .update(&self.regs.side[1], &s_rd, &sin, &wi, dmb_req, &mut so);
        self.regs.update(&csr_in, &[mo.ev, so.ev], &stats);
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

fn b(x: u64) -> bool {
    x & 1 != 0
}

impl<W: UdmaWidth> CycleModel for UdmaEngine<W> {
    type In = W::In;
    type Out = W::Out;

    fn step(&mut self, i: &W::In) -> W::Out {
        W::to_out(&self.step_pins(&W::pins_in(i)))
    }
}
