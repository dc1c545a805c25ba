//! Golden cycle model of `rtl/udma_engine.sv`: the UDMA top with its port
//! bundles, the shared AXI4 read port arbiter and the interrupt outputs.
//!
//! Port names follow the AXI conventions (`s_axil_*` CSR slave, `m_axi_*`
//! memory master, `m_axis_*` M2S stream out, `s_axis_*` S2M stream in);
//! `tuser` (1 bit) flags a packet closed early by an M2S error.

use core::marker::PhantomData;

use super::beat::{Beat, Beat4, Lanes, WideData};
use super::m2s::{ArReq, M2s, M2sOut, M2sState, RdPort, MAX_RD_OUTSTANDING};
use super::regfile::{CsrIn, CsrOut, RegFile, SideEv, SideStat};
use super::regs::{UDMA_CSR_ADDR_WIDTH, UDMA_NUM_QUEUES};
use super::s2m::{S2m, S2mOut, S2mState, StreamIn, WrIn, MAX_WR_OUTSTANDING};
use crate::ports::{BlockDesc, CycleModel, PortBundle};

/// The `udma_engine` port list, written once (SV port order; `rtl/udma_engine.sv`
/// is checked against it by `tests::sv_port_list_matches_the_port_table`).
/// Each port is `name: kind`, the kind one of
/// - `(W)`: a `W`-bit scalar (a `u64` field in the bundles and the pins),
/// - `data`: a `DataWidth`-bit data port (the width's data type in the bundles,
///   a [`Beat`] in the pins),
/// - `strb`: a `DataWidth / 8`-bit strobe or keep (`u64`).
///
/// Expands to `$cb! { { $args } in { .. } out { .. } }`; the bundles of every
/// width ([`udma_width!`]), [`PinsIn`]/[`PinsOutOf`], the input view
/// [`InPins`] and the converters are generated from it.
macro_rules! udma_ports {
    ($cb:ident { $($args:tt)* }) => {
        $cb! {
            { $($args)* }
            in {
                rst_ni: (1),
                s_axil_awaddr: (UDMA_CSR_ADDR_WIDTH),
                s_axil_awvalid: (1),
                s_axil_wdata: (AXIL_DATA_W),
                s_axil_wstrb: (AXIL_DATA_W / 8),
                s_axil_wvalid: (1),
                s_axil_bready: (1),
                s_axil_araddr: (UDMA_CSR_ADDR_WIDTH),
                s_axil_arvalid: (1),
                s_axil_rready: (1),
                m_axi_arready: (1),
                m_axi_rdata: data,
                m_axi_rresp: (AXI_RESP_W),
                m_axi_rlast: (1),
                m_axi_rvalid: (1),
                m_axi_awready: (1),
                m_axi_wready: (1),
                m_axi_bresp: (AXI_RESP_W),
                m_axi_bvalid: (1),
                m_axis_tready: (1),
                s_axis_tdata: data,
                s_axis_tkeep: strb,
                s_axis_tlast: (1),
                s_axis_tid: (QUEUE_IDX_W),
                s_axis_tuser: (1),
                s_axis_tvalid: (1),
            }
            out {
                s_axil_awready: (1),
                s_axil_wready: (1),
                s_axil_bresp: (AXI_RESP_W),
                s_axil_bvalid: (1),
                s_axil_arready: (1),
                s_axil_rdata: (AXIL_DATA_W),
                s_axil_rresp: (AXI_RESP_W),
                s_axil_rvalid: (1),
                m_axi_araddr: (AXI_ADDR_W),
                m_axi_arlen: (AXI_LEN_W),
                m_axi_arsize: (AXI_SIZE_W),
                m_axi_arburst: (AXI_BURST_W),
                m_axi_arvalid: (1),
                m_axi_rready: (1),
                m_axi_awaddr: (AXI_ADDR_W),
                m_axi_awlen: (AXI_LEN_W),
                m_axi_awsize: (AXI_SIZE_W),
                m_axi_awburst: (AXI_BURST_W),
                m_axi_awvalid: (1),
                m_axi_wdata: data,
                m_axi_wstrb: strb,
                m_axi_wlast: (1),
                m_axi_wvalid: (1),
                m_axi_bready: (1),
                m_axis_tdata: data,
                m_axis_tkeep: strb,
                m_axis_tlast: (1),
                m_axis_tid: (QUEUE_IDX_W),
                m_axis_tuser: (1),
                m_axis_tvalid: (1),
                s_axis_tready: (1),
                irq_o: (1),
                err_irq_o: (1),
                dbg_o: (DBG_W),
            }
        }
    };
}

/// Bundle field type of a port kind (`$dty`: the width's data type).
macro_rules! udma_port_ty {
    (data, $dty:ty) => {
        $dty
    };
    ($kind:tt, $dty:ty) => {
        u64
    };
}

/// Port width in bits of a port kind at `DataWidth` `$dw`.
macro_rules! udma_port_width {
    (data, $dw:expr) => {
        $dw
    };
    (strb, $dw:expr) => {
        $dw / 8
    };
    (($w:expr), $dw:expr) => {
        $w
    };
}

/// Pins field type of a port kind.
macro_rules! udma_pin_ty {
    (data) => {
        Beat
    };
    ($kind:tt) => {
        u64
    };
}

/// Field value of a port kind widened to the width-neutral pins (data beats
/// of any [`Lanes`] type to a [`Beat`]).
macro_rules! udma_widen {
    (data, $v:expr) => {
        $v.to_beat()
    };
    ($kind:tt, $v:expr) => {
        $v
    };
}

/// Bundle field value → pins field value.
macro_rules! udma_to_pin {
    (data, $v:expr) => {
        $v.to_beat()
    };
    ($kind:tt, $v:expr) => {
        $v
    };
}

/// Pins field value → bundle field value.
macro_rules! udma_from_pin {
    (data, $v:expr) => {
        WideData::from_beat(&$v)
    };
    ($kind:tt, $v:expr) => {
        $v
    };
}

/// AXI4-Lite data width of the CSR slave.
pub const AXIL_DATA_W: u32 = 32;
/// AXI4 address width of the memory master.
pub const AXI_ADDR_W: u32 = 64;
/// AXI4 `AxLEN` width.
pub const AXI_LEN_W: u32 = 8;
/// AXI4 `AxSIZE` width.
pub const AXI_SIZE_W: u32 = 3;
/// AXI4 `AxBURST` width.
pub const AXI_BURST_W: u32 = 2;
/// AXI `BRESP`/`RRESP` width.
pub const AXI_RESP_W: u32 = 2;
/// Stream `tid` width: a queue index (`$clog2(NumQ)` in the RTL).
pub const QUEUE_IDX_W: u32 = UDMA_NUM_QUEUES.ilog2();
/// Width of `dbg_o`.
pub const DBG_W: u32 = 32;

/// Declares the port bundles, the lockstep registration and the
/// [`UdmaWidth`] marker of one AXI data width (`DataWidth` of `udma_engine`),
/// all from the port table [`udma_ports!`].
macro_rules! udma_width {
    (
        $(#[$m:meta])*
        $marker:ident, $in:ident, $out:ident, $block:ident, $name:literal,
        $dw:literal, $dty:ty, $wrb:literal, $params:expr
    ) => {
        udma_ports!(udma_width_from_table {
            $(#[$m])* $marker, $in, $out, $block, $name, $dw, $dty, $wrb, $params
        });
    };
}

/// [`udma_width!`] body, called by [`udma_ports!`] with the port table.
macro_rules! udma_width_from_table {
    (
        {
            $(#[$m:meta])*
            $marker:ident, $in:ident, $out:ident, $block:ident, $name:literal,
            $dw:literal, $dty:ty, $wrb:literal, $params:expr
        }
        in { $($i:ident : $ik:tt),* $(,)? }
        out { $($o:ident : $ok:tt),* $(,)? }
    ) => {
        crate::port_bundle! {
            /// Inputs of `udma_engine` at this data width.
            pub struct $in {
                $( $i: udma_port_ty!($ik, $dty) = udma_port_width!($ik, $dw), )*
            }
        }

        crate::port_bundle! {
            /// Outputs of `udma_engine` at this data width.
            pub struct $out {
                $( $o: udma_port_ty!($ok, $dty) = udma_port_width!($ok, $dw), )*
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

        impl InPins<$dty> for $in {
            $(
                #[inline(always)]
                fn $i(&self) -> udma_port_ty!($ik, $dty) {
                    self.$i
                }
            )*
        }

        impl UdmaWidth for $marker {
            type D = $dty;
            type In = $in;
            type Out = $out;
            const BEAT_BYTES: u32 = $dw / 8;
            const MAX_WR_BURST: u32 = $wrb;
            const BLOCK: &'static BlockDesc = &$block;

            #[inline(always)]
            fn pins_in(i: &$in) -> PinsIn {
                PinsIn { $( $i: udma_to_pin!($ik, i.$i), )* }
            }

            #[inline(always)]
            fn to_in(p: &PinsIn) -> $in {
                $in { $( $i: udma_from_pin!($ik, p.$i), )* }
            }

            #[inline(always)]
            fn pins_out(o: &$out) -> PinsOut {
                PinsOut { $( $o: udma_to_pin!($ok, o.$o), )* }
            }

            #[inline(always)]
            fn to_out(p: &PinsOut) -> $out {
                $out { $( $o: udma_from_pin!($ok, p.$o), )* }
            }

            #[inline(always)]
            fn out(p: PinsOutOf<$dty>) -> $out {
                $out { $( $o: p.$o, )* }
            }
        }
    };
}

/// [`PinsIn`] and [`PinsOut`] from the port table.
macro_rules! udma_pins_from_table {
    (
        {}
        in { $($i:ident : $ik:tt),* $(,)? }
        out { $($o:ident : $ok:tt),* $(,)? }
    ) => {
        /// Width-neutral inputs of `udma_engine` (data fields as beats): what
        /// the testbench works on, whatever the port width.
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
        pub struct PinsIn {
            $( pub $i: udma_pin_ty!($ik), )*
        }

        /// The inputs of `udma_engine` as the golden core reads them: one
        /// method per port, data as the width's beat type `D` ([`Lanes`]).
        /// The bundles of every width implement it (each port read in place,
        /// no copy of the bundle) and so do the width-neutral [`PinsIn`]
        /// (data beats narrowed by [`WideData::from_beat`]).
        pub trait InPins<D> {
            $(
                #[allow(missing_docs)]
                fn $i(&self) -> udma_port_ty!($ik, D);
            )*
        }

        impl<D: Lanes> InPins<D> for PinsIn {
            $(
                #[inline(always)]
                fn $i(&self) -> udma_port_ty!($ik, D) {
                    udma_from_pin!($ik, self.$i)
                }
            )*
        }

        /// Outputs of `udma_engine`, data fields of type `D`: what the golden
        /// core forms each cycle, at the width's beat type ([`Lanes`]);
        /// [`PinsOut`] is the width-neutral form (data as [`Beat`]s).
        pub struct PinsOutOf<D> {
            $( pub $o: udma_port_ty!($ok, D), )*
        }

        // `derive` cannot see through the field-type macro: the derives by hand.
        impl<D: Copy> Clone for PinsOutOf<D> {
            fn clone(&self) -> Self {
                *self
            }
        }
        impl<D: Copy> Copy for PinsOutOf<D> {}
        impl<D: Default> Default for PinsOutOf<D> {
            fn default() -> Self {
                Self { $( $o: Default::default(), )* }
            }
        }
        impl<D: PartialEq> PartialEq for PinsOutOf<D> {
            fn eq(&self, other: &Self) -> bool {
                true $( && self.$o == other.$o )*
            }
        }
        impl<D: Eq> Eq for PinsOutOf<D> {}
        impl<D: core::fmt::Debug> core::fmt::Debug for PinsOutOf<D> {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct("PinsOut")
                    $( .field(stringify!($o), &self.$o) )*
                    .finish()
            }
        }

        impl<D: Lanes> PinsOutOf<D> {
            /// The width-neutral outputs (data beats widened by
            /// [`WideData::to_beat`]).
            #[inline(always)]
            pub fn widen(&self) -> PinsOut {
                PinsOut { $( $o: udma_widen!($ok, self.$o), )* }
            }
        }
    };
}

udma_ports!(udma_pins_from_table {});

/// Width-neutral outputs of `udma_engine` (data fields as beats).
pub type PinsOut = PinsOutOf<Beat>;

/// RTL files of `udma_engine`, in compile order.
const RTL_FILES: &[&str] = &[
    "sb2sb_pkg.sv",
    "axil_reg_adapter.sv",
    "udma_regs.sv",
    "udma_desc_pf.sv",
    "udma_desc_fetch.sv",
    "udma_m2s.sv",
    "udma_s2m.sv",
    "udma_engine.sv",
];

/// One AXI data width of the engine: its port bundles, registration and the
/// conversions between the bundles and the width-neutral pins.
pub trait UdmaWidth:
    Copy + Default + core::fmt::Debug + PartialEq + Eq + Send + Sync + 'static
{
    /// Data beat of this width: the data ports' field type ([`Beat4`] at 32
    /// bits, `u64` at 64, `[u64; N]` above), the beat type of the FSMs'
    /// registers.
    type D: Lanes;
    /// Input bundle (SV ports at this width).
    type In: PortBundle + InPins<Self::D>;
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
    /// Core outputs → bundle (same fields and types: moved, not converted).
    fn out(p: PinsOutOf<Self::D>) -> Self::Out;
}

udma_width!(
    /// `DataWidth` 64 (the default; block `udma`).
    W64, UdmaIn, UdmaOut, BLOCK, "udma", 64, u64, 16, &[("MaxWrBurst", 16), RD_OUT_PARAM, WR_OUT_PARAM]
);
udma_width!(
    /// `DataWidth` 32 (block `udma_w32`).
    W32, UdmaW32In, UdmaW32Out, BLOCK_W32, "udma_w32", 32, Beat4, 16,
    &[("DataWidth", 32), ("MaxWrBurst", 16), RD_OUT_PARAM, WR_OUT_PARAM]
);
udma_width!(
    /// `DataWidth` 128 (block `udma_w128`).
    W128, UdmaW128In, UdmaW128Out, BLOCK_W128, "udma_w128", 128, [u64; 2], 16,
    &[("DataWidth", 128), ("MaxWrBurst", 16), RD_OUT_PARAM, WR_OUT_PARAM]
);
udma_width!(
    /// `DataWidth` 256 (block `udma_w256`): the engine of every core of the
    /// pair and the system top, at the core's parameters.
    W256, UdmaW256In, UdmaW256Out, BLOCK_W256, "udma_w256", 256, [u64; 4], 16,
    &[("DataWidth", 256), ("MaxWrBurst", 16), RD_OUT_PARAM, WR_OUT_PARAM]
);

/// `MaxRdOutstanding` of a registered block: the golden model's constant.
const RD_OUT_PARAM: (&str, i64) = ("MaxRdOutstanding", MAX_RD_OUTSTANDING as i64);
/// `MaxWrOutstanding` of a registered block: the golden model's constant.
const WR_OUT_PARAM: (&str, i64) = ("MaxWrOutstanding", MAX_WR_OUTSTANDING as i64);

/// AR grant: none.
pub const RD_NONE: u8 = 0;
/// AR grant: M2S.
pub const RD_M2S: u8 = 1;
/// AR grant: S2M.
pub const RD_S2M: u8 = 2;

/// AXI burst type INCR.
const BURST_INCR: u64 = 1;

/// The golden UDMA engine at data width `W`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UdmaEngine<W: UdmaWidth> {
    pub regs: RegFile,
    pub m2s: M2s<W::D>,
    pub s2m: S2m<W::D>,
    /// AR grant (`RD_NONE`, `RD_M2S`, `RD_S2M`): the granted side drives AR
    /// until its handshake.
    pub rd_owner: u8,
    /// Outstanding read bursts, oldest first from `ot_rp`: (S2M's, ARLEN).
    pub ot: [(bool, u32); MAX_RD_OUTSTANDING as usize],
    pub ot_rp: u32,
    pub ot_cnt: u32,
    /// Beat index within the oldest outstanding burst.
    pub rd_cnt: u32,
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
            m2s: M2s::new(),
            s2m: S2m::new(W::MAX_WR_BURST, MAX_WR_OUTSTANDING),
            rd_owner: RD_NONE,
            ot: [(false, 0); MAX_RD_OUTSTANDING as usize],
            ot_rp: 0,
            ot_cnt: 0,
            rd_cnt: 0,
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
            s2m: S2m::new(n, MAX_WR_OUTSTANDING),
            ..Self::default()
        };
    }

    /// FSM status of both sides (M2S, S2M).
    pub fn stats(&self) -> [SideStat; 2] {
        [self.m2s.stat(), self.s2m.stat()]
    }

    /// `dbg_o`: [8:0] M2S {pkt, q, state}, [17:9] S2M, [19:18] read owner,
    /// [21:20] CSR {R, B} pending. Read from the FSM registers directly: equal
    /// to packing the sides' DBG_STATE fields ([`SideStat::dbg`]; test
    /// `dbg_o_equals_the_dbg_state_fields_packed`).
    #[inline(always)]
    pub(crate) fn dbg(&self) -> u64 {
        let side = |state: u8, q: usize, pkt: bool| {
            (state & 0xf) as u64 | (q as u64 & 0xf) << 4 | (pkt as u64) << 8
        };
        side(self.m2s.state as u8, self.m2s.q, self.m2s.pkt_open)
            | side(self.s2m.state as u8, self.s2m.q, self.s2m.in_pkt) << 9
            | (self.rd_owner as u64) << 18
            | (self.regs.axi.pending() as u64) << 20
    }

    /// One cycle on width-neutral pins (see [`CycleModel::step`]): the quiet
    /// cycle ([`Self::step_quiet`]) when both FSMs and the read port are idle
    /// and no stream beat arrives, else the full cycle.
    #[inline]
    pub fn step_pins(&mut self, i: &PinsIn) -> PinsOut {
        self.step_into(i, |o| o.widen())
    }

    /// One cycle on any input view `i` ([`InPins`]: a bundle or the pins),
    /// the outputs handed to `put` as soon as they are formed (before the
    /// clock edge): `put` converting them to the port bundle lets the bundle
    /// be built in place, with no second copy.
    #[inline(always)]
    fn step_into<P: InPins<W::D>, R>(
        &mut self,
        i: &P,
        put: impl FnOnce(PinsOutOf<W::D>) -> R,
    ) -> R {
        if self.quiet(i) {
            self.step_quiet_into(i, put)
        } else {
            self.step_with_into(i, |_, _| {}, put)
        }
    }

    /// Nothing but the register file and the M2S queue pick can act this
    /// cycle: out of reset, M2S in IDLE with no open packet, S2M in IDLE with
    /// no open packet, an empty hold, no B owed and no failed owed descriptor,
    /// the read port free, no stream beat.
    /// Then every FSM output is its idle value (no port request, no AXI or
    /// stream valid, no event) and the state flops of the RTL's IDLE → IDLE
    /// are not written (`udma_m2s.sv` / `udma_s2m.sv` skip them too).
    #[inline]
    pub fn quiet<P: InPins<W::D>>(&self, i: &P) -> bool {
        i.rst_ni() & 1 != 0
            && i.s_axis_tvalid() & 1 == 0
            && self.rd_owner == RD_NONE
            && self.ot_cnt == 0
            && self.m2s.state == M2sState::Idle
            && !self.m2s.pkt_open
            && self.s2m.state == S2mState::Idle
            && !self.s2m.in_pkt
            && self.s2m.hcnt == 0
            && self.s2m.bcnt == 0
            && !self.s2m.perr
    }

    /// A quiet cycle ([`Self::quiet`]): the full cycle's result with the idle
    /// FSM stages reduced to what they do in IDLE. Outputs: the CSR slave's,
    /// the interrupts and `dbg_o`, every other port 0. Edge: the M2S IDLE
    /// (round-robin pick over `avail_o`, the prefetch buffer used or
    /// emptied), the S2M prefetch buffer kept only while its queue is
    /// available, the register file with no FSM event
    /// (the CSR access only); the arbiter stays free (no side wants the port).
    /// Equal to [`Self::step_pins_with`] on the same state and inputs (test
    /// `quiet_cycles_equal_the_full_cycle`).
    #[inline]
    pub fn step_quiet(&mut self, i: &PinsIn) -> PinsOut {
        self.step_quiet_into(i, |o| o.widen())
    }

    /// [`Self::step_quiet`], outputs handed to `put` before the edge.
    #[inline(always)]
    fn step_quiet_into<P: InPins<W::D>, R>(
        &mut self,
        i: &P,
        put: impl FnOnce(PinsOutOf<W::D>) -> R,
    ) -> R {
        let csr = self.regs.csr_out();
        let o = put(PinsOutOf {
            s_axil_awready: csr.awready as u64,
            s_axil_wready: csr.wready as u64,
            s_axil_bresp: csr.bresp as u64,
            s_axil_bvalid: csr.bvalid as u64,
            s_axil_arready: csr.arready as u64,
            s_axil_rdata: csr.rdata as u64,
            s_axil_rresp: csr.rresp as u64,
            s_axil_rvalid: csr.rvalid as u64,
            irq_o: self.regs.irq() as u64,
            err_irq_o: self.regs.err_irq() as u64,
            dbg_o: self.dbg(),
            ..PinsOutOf::default()
        });
        // Clock edge.
        let stats = self.stats();
        self.m2s.idle_quiet(&self.regs.side[0]);
        self.s2m.idle_quiet(&self.regs.side[1]);
        const NO_EV: SideEv = SideEv {
            q: 0,
            head_adv: false,
            crhp_adv: false,
            done_inc: false,
            int_set: false,
            err: None,
            bytes_add: 0,
            drop_add: 0,
        };
        self.regs.update_ev(&csr_in(i), [&NO_EV, &NO_EV], &stats);
        o
    }

    /// [`Self::step_pins`] with `after_m2s` applied to the M2S FSM and its
    /// outputs between the M2S update and the register-file update (the seam
    /// the test-only faults of [`super::fault`] use; production passes a no-op).
    /// Always the full cycle (every stage evaluated).
    #[inline(always)]
    pub fn step_pins_with<F: FnMut(&mut M2s<W::D>, &mut M2sOut<W::D>)>(
        &mut self,
        i: &PinsIn,
        after_m2s: F,
    ) -> PinsOut {
        self.step_with_into(i, after_m2s, |o| o.widen())
    }

    /// [`Self::step_pins_with`] on the port bundles.
    #[inline(always)]
    pub fn step_with<F: FnMut(&mut M2s<W::D>, &mut M2sOut<W::D>)>(
        &mut self,
        i: &W::In,
        after_m2s: F,
    ) -> W::Out {
        self.step_with_into(i, after_m2s, W::out)
    }

    /// [`Self::step_pins_with`] on any input view, outputs handed to `put`
    /// before the edge.
    #[inline(always)]
    fn step_with_into<P: InPins<W::D>, F: FnMut(&mut M2s<W::D>, &mut M2sOut<W::D>), R>(
        &mut self,
        i: &P,
        mut after_m2s: F,
        put: impl FnOnce(PinsOutOf<W::D>) -> R,
    ) -> R {
        if i.rst_ni() & 1 == 0 {
            self.reset();
        }
        // AR grant, and the side of the oldest outstanding burst (R beats).
        let m_own = self.rd_owner == RD_M2S;
        let s_own = self.rd_owner == RD_S2M;
        let head = self.ot[(self.ot_rp & (MAX_RD_OUTSTANDING - 1)) as usize];
        let r_busy = self.ot_cnt != 0;
        let m_r = r_busy && !head.0;
        let s_r = r_busy && head.0;
        let sin = StreamIn {
            tvalid: b(i.s_axis_tvalid()),
            tdata: i.s_axis_tdata(),
            tkeep: i.s_axis_tkeep(),
            tlast: b(i.s_axis_tlast()),
            tid: i.s_axis_tid() as u32,
            tuser: b(i.s_axis_tuser()),
        };

        // Combinational outputs from the pre-edge state.
        let csr = self.regs.csr_out();
        // The data width's beat bytes, a constant of this engine's type:
        // an argument of the FSM stages (the RTL's `DataWidth` parameter).
        let bb = W::BEAT_BYTES;
        let mut mo = self.m2s.outputs(&self.regs.side[0], m_own, bb);
        let mut so = self.s2m.outputs(&self.regs.side[1], s_own, &sin, bb);
        let ar = match self.rd_owner {
            RD_M2S => mo.ar,
            RD_S2M => so.ar,
            _ => Default::default(),
        };
        let o = put(self.pins_out(&csr, &ar, &mo, &so, r_busy));
        if i.rst_ni() & 1 == 0 {
            return o;
        }

        // Clock edge.
        // The shared read port (both sides see it; `owner` is the grant).
        // Formed here, where the edge uses it, not with the outputs: read
        // late, its inputs need not be kept across the output stage.
        let rd = RdPort {
            arready: b(i.m_axi_arready()),
            rvalid: b(i.m_axi_rvalid()) && r_busy,
            rdata: i.m_axi_rdata(),
            rresp: i.m_axi_rresp() as u32,
            cnt: self.rd_cnt,
            len: head.1,
        };
        let stats = self.stats();
        let tready = b(i.m_axis_tready());
        let wr_busy = self.s2m.wr_busy();
        let dmb_req = self.m2s.state == M2sState::Dmb && self.m2s.q == self.s2m.q;
        self.m2s
            .update(&self.regs.side[0], &rd, m_r, tready, wr_busy, &mut mo, bb);
        after_m2s(&mut self.m2s, &mut mo);
        let wi = WrIn {
            awready: b(i.m_axi_awready()),
            wready: b(i.m_axi_wready()),
            bvalid: b(i.m_axi_bvalid()),
            bresp: i.m_axi_bresp() as u32,
        };
        self.s2m.update(
            &self.regs.side[1],
            &rd,
            s_r,
            &sin,
            &wi,
            dmb_req,
            &mut so,
            bb,
        );
        self.regs.update_ev(&csr_in(i), [&mo.ev, &so.ev], &stats);
        self.read_port_edge(&ar, &rd, head, (so.want, mo.want));
        o
    }

    /// The cycle's outputs (the RTL's output assigns): the CSR slave, the
    /// granted side's AR, the S2M write port, the M2S stream, `tready`,
    /// the interrupts and `dbg_o`.
    #[inline(always)]
    fn pins_out(
        &self,
        csr: &CsrOut,
        ar: &ArReq,
        mo: &M2sOut<W::D>,
        so: &S2mOut<W::D>,
        r_busy: bool,
    ) -> PinsOutOf<W::D> {
        let size = W::BEAT_BYTES.trailing_zeros() as u64;
        PinsOutOf {
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
            m_axi_rready: r_busy as u64,
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
        }
    }

    /// Clock edge of the read port: the AR arbiter (S2M first, a grant only
    /// while a tracker slot is free; a grant lasts to its AR handshake) and
    /// the in-order tracker of outstanding bursts (side, ARLEN), retired by
    /// the beat count. `head`: the oldest burst, `wants`: (S2M, M2S).
    #[inline(always)]
    fn read_port_edge(
        &mut self,
        ar: &ArReq,
        rd: &RdPort<W::D>,
        head: (bool, u32),
        wants: (bool, bool),
    ) {
        let ar_hs = ar.valid && rd.arready;
        let mut cnt = self.ot_cnt;
        if ar_hs {
            let k = (self.ot_rp + cnt) & (MAX_RD_OUTSTANDING - 1);
            self.ot[k as usize] = (self.rd_owner == RD_S2M, ar.len);
            self.rd_owner = RD_NONE;
            cnt += 1;
        } else if self.rd_owner == RD_NONE && self.ot_cnt < MAX_RD_OUTSTANDING {
            if wants.0 {
                self.rd_owner = RD_S2M;
            } else if wants.1 {
                self.rd_owner = RD_M2S;
            }
        }
        if rd.rvalid {
            if self.rd_cnt == head.1 {
                self.rd_cnt = 0;
                self.ot_rp = (self.ot_rp + 1) & (MAX_RD_OUTSTANDING - 1);
                cnt -= 1;
            } else {
                self.rd_cnt += 1;
            }
        }
        self.ot_cnt = cnt;
    }
}

#[inline(always)]
fn b(x: u64) -> bool {
    x & 1 != 0
}

/// The CSR slave's inputs.
#[inline(always)]
fn csr_in<D, P: InPins<D>>(i: &P) -> CsrIn {
    CsrIn {
        awaddr: i.s_axil_awaddr() as u32,
        awvalid: b(i.s_axil_awvalid()),
        wdata: i.s_axil_wdata() as u32,
        wstrb: i.s_axil_wstrb() as u32,
        wvalid: b(i.s_axil_wvalid()),
        bready: b(i.s_axil_bready()),
        araddr: i.s_axil_araddr() as u32,
        arvalid: b(i.s_axil_arvalid()),
        rready: b(i.s_axil_rready()),
    }
}

impl<W: UdmaWidth> CycleModel for UdmaEngine<W> {
    type In = W::In;
    type Out = W::Out;

    #[inline(always)]
    fn step(&mut self, i: &W::In) -> W::Out {
        self.step_into(i, W::out)
    }

    /// The outputs written to `o` as soon as they are formed, before the
    /// edge: nothing of them is held across the edge or copied after it.
    #[inline(always)]
    fn step_to(&mut self, i: &W::In, o: &mut W::Out) {
        self.step_into(i, |p| *o = W::out(p))
    }
}

#[cfg(test)]
mod port_table_tests {
    use super::*;
    use crate::ports::Signal;

    /// Value of a SystemVerilog width expression (`+ - * /` over integers and
    /// the names in `env`, left to right within a precedence level).
    fn eval(expr: &str, env: &[(&str, i64)]) -> i64 {
        let mut toks: Vec<String> = Vec::new();
        for c in expr.chars().filter(|c| !c.is_whitespace()) {
            let word = c.is_ascii_alphanumeric() || c == '_';
            match toks.last_mut() {
                Some(t) if word && t.chars().all(|d| d.is_ascii_alphanumeric() || d == '_') => {
                    t.push(c)
                }
                _ => toks.push(c.to_string()),
            }
        }
        let atom = |t: &str| -> i64 {
            t.parse().unwrap_or_else(|_| {
                env.iter()
                    .find(|(n, _)| *n == t)
                    .unwrap_or_else(|| panic!("unknown name {t} in {expr}"))
                    .1
            })
        };
        // sums of products
        let (mut sum, mut prod, mut add_sign) = (0i64, atom(&toks[0]), 1i64);
        let mut k = 1;
        while k + 1 < toks.len() {
            let v = atom(&toks[k + 1]);
            match toks[k].as_str() {
                "*" => prod *= v,
                "/" => prod /= v,
                op => {
                    sum += add_sign * prod;
                    add_sign = if op == "-" { -1 } else { 1 };
                    prod = v;
                }
            }
            k += 2;
        }
        sum + add_sign * prod
    }

    /// (direction, name, width) of every port of `rtl/udma_engine.sv` but
    /// `clk_i`, at `DataWidth` `dw`.
    fn sv_ports(dw: i64) -> Vec<(String, String, u32)> {
        let path = format!("{}/../rtl/udma_engine.sv", env!("CARGO_MANIFEST_DIR"));
        let src = std::fs::read_to_string(&path).expect("read rtl/udma_engine.sv");
        let env = [
            ("DataWidth", dw),
            ("UDMA_CSR_ADDR_WIDTH", UDMA_CSR_ADDR_WIDTH as i64),
            ("QueueIdxW", (UDMA_NUM_QUEUES as f64).log2().ceil() as i64),
        ];
        let mut ports = Vec::new();
        let body = src.split(") (").nth(1).expect("port list");
        for line in body.split(");").next().unwrap().lines() {
            let code = line.split("//").next().unwrap().trim();
            let Some((dir, rest)) = code.split_once(' ') else {
                continue;
            };
            if dir != "input" && dir != "output" {
                continue;
            }
            let rest = rest
                .trim()
                .strip_prefix("logic")
                .expect("logic port")
                .trim();
            let (width, name) = match rest.strip_prefix('[') {
                Some(r) => {
                    let (range, name) = r.split_once(']').unwrap();
                    let hi = range.strip_suffix(":0").expect("[hi:0] range");
                    (eval(hi, &env) + 1, name)
                }
                None => (1, rest),
            };
            let name = name.trim().trim_end_matches(',').to_string();
            if name != "clk_i" {
                ports.push((dir.to_string(), name, width as u32));
            }
        }
        ports
    }

    fn table<W: UdmaWidth>() -> Vec<(String, String, u32)> {
        let side = |dir: &str, s: &'static [Signal]| {
            s.iter()
                .map(|g| (dir.to_string(), g.name.to_string(), g.width))
                .collect::<Vec<_>>()
        };
        let mut t = side("input", <W::In as PortBundle>::SIGNALS);
        t.extend(side("output", <W::Out as PortBundle>::SIGNALS));
        t
    }

    #[test]
    fn sv_port_list_matches_the_port_table_at_every_width() {
        fn check<W: UdmaWidth>(dw: i64) {
            let mut sv = sv_ports(dw);
            let mut rs = table::<W>();
            assert_eq!(sv.len(), 60, "SV ports at {dw} (clk_i excluded)");
            sv.sort();
            rs.sort();
            assert_eq!(
                sv, rs,
                "rtl/udma_engine.sv vs udma_ports! at DataWidth {dw}"
            );
        }
        check::<W32>(32);
        check::<W64>(64);
        check::<W128>(128);
        check::<W256>(256);
    }

    #[test]
    fn port_table_widths_are_the_axi_and_package_widths() {
        // Independent spot values (the SV port list and AXI4 / AXI4-Lite).
        let w = |s: &[Signal], n: &str| s.iter().find(|g| g.name == n).unwrap().width;
        let (i, o) = (UdmaW128In::SIGNALS, UdmaW128Out::SIGNALS);
        assert_eq!(w(i, "s_axil_awaddr"), 18);
        assert_eq!(w(i, "s_axis_tid"), 4);
        assert_eq!(w(i, "s_axis_tdata"), 128);
        assert_eq!(w(i, "s_axis_tkeep"), 16);
        assert_eq!(w(o, "m_axi_wstrb"), 16);
        assert_eq!(w(o, "m_axi_araddr"), 64);
        assert_eq!(w(o, "m_axi_awlen"), 8);
        assert_eq!(w(o, "dbg_o"), 32);
        assert_eq!((UdmaIn::WORDS, UdmaOut::WORDS), (26, 34));
        assert_eq!((UdmaW128In::WORDS, UdmaW128Out::WORDS), (28, 36));
    }

    #[test]
    fn converters_round_trip_every_field_at_every_width() {
        fn check<W: UdmaWidth>() {
            // Distinct values per field, masked to the field's width.
            let mut words = vec![0u64; <W::In as PortBundle>::WORDS];
            for (k, w) in words.iter_mut().enumerate() {
                *w = 0x9e37_79b9_7f4a_7c15u64.wrapping_mul(k as u64 + 1);
            }
            let i = <W::In as PortBundle>::unpack(&{
                let mut m = vec![0u64; words.len()];
                <W::In as PortBundle>::unpack(&words).pack(&mut m);
                m
            });
            let p = W::pins_in(&i);
            assert_eq!(W::to_in(&p), i);
            assert_eq!(W::pins_in(&W::to_in(&p)), p);
            let mut owords = vec![0u64; <W::Out as PortBundle>::WORDS];
            for (k, w) in owords.iter_mut().enumerate() {
                *w = 0xd1b5_4a32_d192_ed03u64.wrapping_mul(k as u64 + 3);
            }
            let o = <W::Out as PortBundle>::unpack(&owords);
            let mut m = vec![0u64; owords.len()];
            o.pack(&mut m);
            let o = <W::Out as PortBundle>::unpack(&m);
            let q = W::pins_out(&o);
            assert_eq!(W::to_out(&q), o);
            assert_ne!(q, PinsOut::default());
        }
        check::<W32>();
        check::<W64>();
        check::<W128>();
        check::<W256>();
    }
}
