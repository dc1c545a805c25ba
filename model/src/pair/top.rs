//! Golden model of `rtl/sb2sb_pair.sv`: two [`Core`]s joined by one
//! [`Link`] per link lane and direction (`NumLk` = the engine count), with
//! the placement straps of `place_i`.

use crate::ports::CycleModel;

use super::core::{Core, CoreIn, CoreOut, LinkPorts, Straps};
use super::link::{Link, LinkFarIn, LinkNearIn, LinkOut};
use super::xbar::MAX_ENGINES;
use super::CoreParams;
use crate::regs::axil::{AxilIn, AxilOut};

crate::port_bundle! {
    /// Inputs of `sb2sb_pair` (NumEngines 4).
    pub struct PairIn {
        rst_ni: u64 = 1,
        place_i: u64 = 2,
        ab_stall_i: u64 = 1,
        ba_stall_i: u64 = 1,
        a_mem_stall_i: u64 = 1,
        b_mem_stall_i: u64 = 1,
        s_axil_a_awaddr: u64 = 32,
        s_axil_a_awvalid: u64 = 1,
        s_axil_a_wdata: u64 = 32,
        s_axil_a_wstrb: u64 = 4,
        s_axil_a_wvalid: u64 = 1,
        s_axil_a_bready: u64 = 1,
        s_axil_a_araddr: u64 = 32,
        s_axil_a_arvalid: u64 = 1,
        s_axil_a_rready: u64 = 1,
        s_axil_b_awaddr: u64 = 32,
        s_axil_b_awvalid: u64 = 1,
        s_axil_b_wdata: u64 = 32,
        s_axil_b_wstrb: u64 = 4,
        s_axil_b_wvalid: u64 = 1,
        s_axil_b_bready: u64 = 1,
        s_axil_b_araddr: u64 = 32,
        s_axil_b_arvalid: u64 = 1,
        s_axil_b_rready: u64 = 1,
        dbg_a_sem_idx_i: u64 = 8,
        dbg_a_mem_sel_i: u64 = 1,
        dbg_a_mem_we_i: u64 = 1,
        dbg_a_mem_addr_i: u64 = 20,
        dbg_a_mem_wdata_i: u64 = 64,
        dbg_b_sem_idx_i: u64 = 8,
        dbg_b_mem_sel_i: u64 = 1,
        dbg_b_mem_we_i: u64 = 1,
        dbg_b_mem_addr_i: u64 = 20,
        dbg_b_mem_wdata_i: u64 = 64,
    }
}

crate::port_bundle! {
    /// Outputs of `sb2sb_pair`. The interrupt ports (`[NumEngines-1:0]` in
    /// the RTL) are listed at the widest core's [`MAX_ENGINES`] bits, so one
    /// list serves every block of this top (`leg` at 4 engines, `leg16` at
    /// 16, the seed-size pairs): a narrower top's port reads zero-extended
    /// (the C++ shim copies every port of up to 64 bits into a 64-bit word),
    /// and the golden side is packed to the same width.
    pub struct PairOut {
        s_axil_a_awready: u64 = 1,
        s_axil_a_wready: u64 = 1,
        s_axil_a_bresp: u64 = 2,
        s_axil_a_bvalid: u64 = 1,
        s_axil_a_arready: u64 = 1,
        s_axil_a_rdata: u64 = 32,
        s_axil_a_rresp: u64 = 2,
        s_axil_a_rvalid: u64 = 1,
        s_axil_b_awready: u64 = 1,
        s_axil_b_wready: u64 = 1,
        s_axil_b_bresp: u64 = 2,
        s_axil_b_bvalid: u64 = 1,
        s_axil_b_arready: u64 = 1,
        s_axil_b_rdata: u64 = 32,
        s_axil_b_rresp: u64 = 2,
        s_axil_b_rvalid: u64 = 1,
        dbg_a_sem_o: u64 = 32,
        dbg_a_mem_rdata_o: u64 = 64,
        dbg_a_xbar_o: u64 = 32,
        dbg_a_xin_o: u64 = 16,
        dbg_a_q7_o: u64 = 8,
        a_irq_o: u64 = MAX_ENGINES as u32,
        a_err_irq_o: u64 = MAX_ENGINES as u32,
        a_sem_err_o: u64 = 5,
        dbg_b_sem_o: u64 = 32,
        dbg_b_mem_rdata_o: u64 = 64,
        dbg_b_xbar_o: u64 = 32,
        dbg_b_xin_o: u64 = 16,
        dbg_b_q7_o: u64 = 8,
        b_irq_o: u64 = MAX_ENGINES as u32,
        b_err_irq_o: u64 = MAX_ENGINES as u32,
        b_sem_err_o: u64 = 5,
        dbg_ab_link_o: u64 = 32,
        dbg_ba_link_o: u64 = 32,
    }
}

/// Placement strap value: other die of the same package (neighbor fold).
pub const PLACE_OTHER_DIE: u64 = 0;
/// Placement strap value: other package (chip-id fold).
pub const PLACE_OTHER_PKG: u64 = 1;
/// Placement strap value: other core of the same die.
pub const PLACE_SAME_DIE: u64 = 2;
/// CAYMAN_ID of core B in the other-package placement (seed 001 §8's routing id 0x12).
pub const PKG_B_CHIP: u64 = 0x12;

/// Straps of (core A, core B) for a `place_i` value (table in `rtl/sb2sb_pair.sv`).
pub const fn straps(place: u64) -> (Straps, Straps) {
    let a = Straps {
        die: 0,
        chip: 0,
        core_idx: 0,
    };
    let b = match place & 3 {
        PLACE_OTHER_PKG => Straps {
            die: 1,
            chip: PKG_B_CHIP,
            core_idx: 0,
        },
        PLACE_SAME_DIE => Straps {
            die: 0,
            chip: 0,
            core_idx: 1,
        },
        _ => Straps {
            die: 1,
            chip: 0,
            core_idx: 0,
        },
    };
    (a, b)
}

/// The golden pair.
#[derive(Debug, Clone)]
pub struct Pair {
    pub a: Core,
    pub b: Core,
    /// A -> B, one link per lane.
    pub ab: Vec<Link>,
    /// B -> A, one link per lane.
    pub ba: Vec<Link>,
    /// The cores' results of this cycle, kept between cycles so they are
    /// written in place (every slot is rewritten every cycle; no state).
    wires: PairWires,
}

/// The wires between the cores and the links of one [`Pair`] cycle: each
/// core's outputs, the links' outputs, the near-side inputs of its outgoing
/// lanes and the far-side inputs of its incoming lanes.
#[derive(Debug, Clone, Default)]
struct PairWires {
    oa: CoreOut,
    ob: CoreOut,
    lab: Vec<LinkOut>,
    lba: Vec<LinkOut>,
    near_ab: Vec<LinkNearIn>,
    far_ba: Vec<LinkFarIn>,
    near_ba: Vec<LinkNearIn>,
    far_ab: Vec<LinkFarIn>,
}

impl Pair {
    /// A pair with parameters `p`, in reset state.
    pub fn new(p: &CoreParams) -> Self {
        Self {
            a: Core::new(p),
            b: Core::new(p),
            ab: (0..p.engines).map(|_| Link::new(p.link_latency)).collect(),
            ba: (0..p.engines).map(|_| Link::new(p.link_latency)).collect(),
            wires: PairWires {
                lab: vec![LinkOut::default(); p.engines],
                lba: vec![LinkOut::default(); p.engines],
                near_ab: vec![LinkNearIn::default(); p.engines],
                far_ba: vec![LinkFarIn::default(); p.engines],
                near_ba: vec![LinkNearIn::default(); p.engines],
                far_ab: vec![LinkFarIn::default(); p.engines],
                ..PairWires::default()
            },
        }
    }
}

/// Test-only faults of the golden pair (off in every normal run), to prove
/// the lockstep catches bugs of the composition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LegFault {
    /// The A -> B link drops the routed remote-semaphore write (and fakes its OKAY).
    DropRemoteSem,
    /// Core A's router compares the DIE bit with the wrong die.
    WrongDieBit,
}

/// CLI names of the faults (`sb2sb cosim --block leg --leg-fault NAME`).
pub const LEG_FAULTS: &[(&str, LegFault)] = &[
    ("drop-remote-sem", LegFault::DropRemoteSem),
    ("wrong-die-bit", LegFault::WrongDieBit),
];

impl Pair {
    /// Inject a test-only fault.
    pub fn inject(&mut self, f: LegFault) {
        match f {
            LegFault::DropRemoteSem => {
                for l in &mut self.ab {
                    l.fault = Some(super::LinkFault::DropSemWrite);
                }
            }
            LegFault::WrongDieBit => self.a.glue.xbar.fault = Some(super::XbarFault::WrongDieBit),
        }
    }
}

impl Default for Pair {
    fn default() -> Self {
        Self::new(&CoreParams::default())
    }
}

impl CycleModel for Pair {
    type In = PairIn;
    type Out = PairOut;

    fn step(&mut self, i: &PairIn) -> PairOut {
        let rst = i.rst_ni & 1 == 0;
        let (sa, sb) = straps(i.place_i);
        self.a.set_straps(sa);
        self.b.set_straps(sb);
        let w = &mut self.wires;
        for (o, l) in w.lab.iter_mut().zip(&self.ab) {
            *o = l.outputs(rst, i.ab_stall_i & 1 == 1);
        }
        for (o, l) in w.lba.iter_mut().zip(&self.ba) {
            *o = l.outputs(rst, i.ba_stall_i & 1 == 1);
        }
        let (ia, ib) = (i.core_in(0, rst), i.core_in(1, rst));
        let w = &mut self.wires;
        let pa = LinkPorts {
            out: &w.lab,
            inc: &w.lba,
            near: &mut w.near_ab,
            far: &mut w.far_ba,
        };
        self.a.step_into(&ia, pa, &mut w.oa);
        let pb = LinkPorts {
            out: &w.lba,
            inc: &w.lab,
            near: &mut w.near_ba,
            far: &mut w.far_ab,
        };
        self.b.step_into(&ib, pb, &mut w.ob);
        for (k, l) in self.ab.iter_mut().enumerate() {
            l.update(rst, &w.near_ab[k], &w.far_ab[k], &w.lab[k]);
        }
        for (k, l) in self.ba.iter_mut().enumerate() {
            l.update(rst, &w.near_ba[k], &w.far_ba[k], &w.lba[k]);
        }
        let mut o = PairOut {
            dbg_ab_link_o: w.lab[0].dbg,
            dbg_ba_link_o: w.lba[0].dbg,
            ..PairOut::default()
        };
        o.set_core_out(0, &w.oa);
        o.set_core_out(1, &w.ob);
        o
    }
}

/// The pins of core `c` in a top's port bundles: what connects the flat
/// fields of [`PairIn`]/[`PairOut`] (`sb2sb_pair`, core A = 0, B = 1) and
/// `SysIn`/`SysOut` (`sb2sb_system`, per-core fields packed by core) to a
/// [`CoreIn`]/[`CoreOut`]. The golden tops read and write a core's pins
/// through these, and so do the environments that drive the Q7 ports.
pub trait CoreInPins {
    /// Core `c`'s inputs (`rst`: the top's reset).
    fn core_in(&self, c: usize, rst: bool) -> CoreIn;
    /// Sets core `c`'s Q7 AXI4-Lite inputs to `d`.
    fn set_axil(&mut self, c: usize, d: &AxilIn);
}

/// The output side of [`CoreInPins`].
pub trait CoreOutPins {
    /// Core `c`'s Q7 AXI4-Lite outputs.
    fn axil(&self, c: usize) -> AxilOut;
    /// Sets core `c`'s pins to its outputs `o`.
    fn set_core_out(&mut self, c: usize, o: &CoreOut);
}

/// A core-side pin value as its `u64` port field (a flag is bit 0).
pub trait Pin: Copy {
    fn from_pin(v: u64) -> Self;
    fn to_pin(self) -> u64;
}

impl Pin for bool {
    #[inline(always)]
    fn from_pin(v: u64) -> Self {
        v & 1 == 1
    }
    #[inline(always)]
    fn to_pin(self) -> u64 {
        u64::from(self)
    }
}

impl Pin for u32 {
    #[inline(always)]
    fn from_pin(v: u64) -> Self {
        v as u32
    }
    #[inline(always)]
    fn to_pin(self) -> u64 {
        u64::from(self)
    }
}

impl Pin for u64 {
    #[inline(always)]
    fn from_pin(v: u64) -> Self {
        v
    }
    #[inline(always)]
    fn to_pin(self) -> u64 {
        self
    }
}

/// The words of a packed port field (`u64` or `[u64; N]`).
pub trait Words {
    fn words(&self) -> &[u64];
    fn words_mut(&mut self) -> &mut [u64];
}

impl Words for u64 {
    #[inline(always)]
    fn words(&self) -> &[u64] {
        std::slice::from_ref(self)
    }
    #[inline(always)]
    fn words_mut(&mut self) -> &mut [u64] {
        std::slice::from_mut(self)
    }
}

impl<const N: usize> Words for [u64; N] {
    #[inline(always)]
    fn words(&self) -> &[u64] {
        self
    }
    #[inline(always)]
    fn words_mut(&mut self) -> &mut [u64] {
        self
    }
}

/// [`CoreInPins`] and [`CoreOutPins`] of an input and an output bundle from
/// one table: each core-side field and where core `c`'s pin is, either
/// `[a_field, b_field]` (one field per core, `c` = 0 or 1) or
/// `(field, width)` (field `c` of `width` bits of a packed port).
macro_rules! core_pins {
    (@get $s:ident, $c:ident, [$a:ident, $b:ident]) => {
        $crate::pair::top::Pin::from_pin(if $c == 0 { $s.$a } else { $s.$b })
    };
    (@get $s:ident, $c:ident, ($f:ident, $w:expr)) => {
        $crate::pair::top::Pin::from_pin($crate::pair::system::field(
            $crate::pair::top::Words::words(&$s.$f),
            $c,
            $w,
        ))
    };
    (@set $s:ident, $c:ident, [$a:ident, $b:ident], $v:expr) => {
        *(if $c == 0 { &mut $s.$a } else { &mut $s.$b }) = $crate::pair::top::Pin::to_pin($v)
    };
    (@set $s:ident, $c:ident, ($f:ident, $w:expr), $v:expr) => {
        $crate::pair::system::set_field(
            $crate::pair::top::Words::words_mut(&mut $s.$f),
            $c,
            $w,
            $crate::pair::top::Pin::to_pin($v),
        )
    };
    (
        $in:ty {
            axil { $($ai:ident: $ail:tt,)* }
            $($ci:ident: $cil:tt,)*
        }
        $out:ty {
            axil { $($ao:ident: $aol:tt,)* }
            $($co:ident: $col:tt,)*
        }
    ) => {
        impl $crate::pair::top::CoreInPins for $in {
            #[inline(always)]
            fn core_in(&self, c: usize, rst: bool) -> $crate::pair::CoreIn {
                $crate::pair::CoreIn {
                    rst,
                    axil: $crate::regs::axil::AxilIn {
                        $($ai: $crate::pair::top::core_pins!(@get self, c, $ail),)*
                    },
                    $($ci: $crate::pair::top::core_pins!(@get self, c, $cil),)*
                }
            }
            #[inline(always)]
            fn set_axil(&mut self, c: usize, d: &$crate::regs::axil::AxilIn) {
                $($crate::pair::top::core_pins!(@set self, c, $ail, d.$ai);)*
            }
        }
        impl $crate::pair::top::CoreOutPins for $out {
            #[inline(always)]
            fn axil(&self, c: usize) -> $crate::regs::axil::AxilOut {
                $crate::regs::axil::AxilOut {
                    $($ao: $crate::pair::top::core_pins!(@get self, c, $aol),)*
                }
            }
            #[inline(always)]
            fn set_core_out(&mut self, c: usize, o: &$crate::pair::CoreOut) {
                $($crate::pair::top::core_pins!(@set self, c, $aol, o.axil.$ao);)*
                $($crate::pair::top::core_pins!(@set self, c, $col, o.$co);)*
            }
        }
    };
}
pub(super) use core_pins;

// Core A's pins are the `*_a_*` fields, core B's the `*_b_*` fields.
core_pins! {
    PairIn {
        axil {
            awaddr: [s_axil_a_awaddr, s_axil_b_awaddr],
            awvalid: [s_axil_a_awvalid, s_axil_b_awvalid],
            wdata: [s_axil_a_wdata, s_axil_b_wdata],
            wstrb: [s_axil_a_wstrb, s_axil_b_wstrb],
            wvalid: [s_axil_a_wvalid, s_axil_b_wvalid],
            bready: [s_axil_a_bready, s_axil_b_bready],
            araddr: [s_axil_a_araddr, s_axil_b_araddr],
            arvalid: [s_axil_a_arvalid, s_axil_b_arvalid],
            rready: [s_axil_a_rready, s_axil_b_rready],
        }
        mem_stall: [a_mem_stall_i, b_mem_stall_i],
        dbg_sem_idx: [dbg_a_sem_idx_i, dbg_b_sem_idx_i],
        dbg_mem_sel: [dbg_a_mem_sel_i, dbg_b_mem_sel_i],
        dbg_mem_we: [dbg_a_mem_we_i, dbg_b_mem_we_i],
        dbg_mem_addr: [dbg_a_mem_addr_i, dbg_b_mem_addr_i],
        dbg_mem_wdata: [dbg_a_mem_wdata_i, dbg_b_mem_wdata_i],
    }
    PairOut {
        axil {
            awready: [s_axil_a_awready, s_axil_b_awready],
            wready: [s_axil_a_wready, s_axil_b_wready],
            bresp: [s_axil_a_bresp, s_axil_b_bresp],
            bvalid: [s_axil_a_bvalid, s_axil_b_bvalid],
            arready: [s_axil_a_arready, s_axil_b_arready],
            rdata: [s_axil_a_rdata, s_axil_b_rdata],
            rresp: [s_axil_a_rresp, s_axil_b_rresp],
            rvalid: [s_axil_a_rvalid, s_axil_b_rvalid],
        }
        dbg_sem: [dbg_a_sem_o, dbg_b_sem_o],
        dbg_mem_rdata: [dbg_a_mem_rdata_o, dbg_b_mem_rdata_o],
        dbg_xbar: [dbg_a_xbar_o, dbg_b_xbar_o],
        dbg_xin: [dbg_a_xin_o, dbg_b_xin_o],
        dbg_q7: [dbg_a_q7_o, dbg_b_q7_o],
        irq: [a_irq_o, b_irq_o],
        err_irq: [a_err_irq_o, b_err_irq_o],
        sem_err: [a_sem_err_o, b_sem_err_o],
    }
}
