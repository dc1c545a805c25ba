//! Golden model of `rtl/sb2sb_pair.sv`: two [`Core`]s joined by one
//! [`Link`] per link lane and direction (`NumLk` = the engine count), with
//! the placement straps of `place_i`.

use crate::ports::CycleModel;

use super::core::{Core, CoreIn, CoreOut, LinkPorts, Straps};
use super::link::{Link, LinkFarIn, LinkNearIn, LinkOut};
use super::CoreParams;
use crate::regs::axil::AxilIn;

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
    /// Outputs of `sb2sb_pair` (NumEngines 4).
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
        a_irq_o: u64 = 4,
        a_err_irq_o: u64 = 4,
        a_sem_err_o: u64 = 5,
        dbg_b_sem_o: u64 = 32,
        dbg_b_mem_rdata_o: u64 = 64,
        dbg_b_xbar_o: u64 = 32,
        dbg_b_xin_o: u64 = 16,
        dbg_b_q7_o: u64 = 8,
        b_irq_o: u64 = 4,
        b_err_irq_o: u64 = 4,
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
        let (ia, ib) = core_inputs(rst, i);
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
        let (oa, ob) = (&w.oa, &w.ob);
        PairOut {
            s_axil_a_awready: u64::from(oa.axil.awready),
            s_axil_a_wready: u64::from(oa.axil.wready),
            s_axil_a_bresp: u64::from(oa.axil.bresp),
            s_axil_a_bvalid: u64::from(oa.axil.bvalid),
            s_axil_a_arready: u64::from(oa.axil.arready),
            s_axil_a_rdata: u64::from(oa.axil.rdata),
            s_axil_a_rresp: u64::from(oa.axil.rresp),
            s_axil_a_rvalid: u64::from(oa.axil.rvalid),
            dbg_a_sem_o: oa.dbg_sem,
            dbg_a_mem_rdata_o: oa.dbg_mem_rdata,
            dbg_a_xbar_o: oa.dbg_xbar,
            dbg_a_xin_o: oa.dbg_xin,
            dbg_a_q7_o: oa.dbg_q7,
            a_irq_o: oa.irq,
            a_err_irq_o: oa.err_irq,
            a_sem_err_o: oa.sem_err,
            s_axil_b_awready: u64::from(ob.axil.awready),
            s_axil_b_wready: u64::from(ob.axil.wready),
            s_axil_b_bresp: u64::from(ob.axil.bresp),
            s_axil_b_bvalid: u64::from(ob.axil.bvalid),
            s_axil_b_arready: u64::from(ob.axil.arready),
            s_axil_b_rdata: u64::from(ob.axil.rdata),
            s_axil_b_rresp: u64::from(ob.axil.rresp),
            s_axil_b_rvalid: u64::from(ob.axil.rvalid),
            dbg_b_sem_o: ob.dbg_sem,
            dbg_b_mem_rdata_o: ob.dbg_mem_rdata,
            dbg_b_xbar_o: ob.dbg_xbar,
            dbg_b_xin_o: ob.dbg_xin,
            dbg_b_q7_o: ob.dbg_q7,
            b_irq_o: ob.irq,
            b_err_irq_o: ob.err_irq,
            b_sem_err_o: ob.sem_err,
            dbg_ab_link_o: w.lab[0].dbg,
            dbg_ba_link_o: w.lba[0].dbg,
        }
    }
}

/// The cores' inputs from the pair's pins.
fn core_inputs(rst: bool, i: &PairIn) -> (CoreIn, CoreIn) {
    let ia = CoreIn {
        rst,
        mem_stall: i.a_mem_stall_i & 1 == 1,
        axil: AxilIn {
            awaddr: i.s_axil_a_awaddr as u32,
            awvalid: i.s_axil_a_awvalid & 1 == 1,
            wdata: i.s_axil_a_wdata as u32,
            wstrb: i.s_axil_a_wstrb as u32,
            wvalid: i.s_axil_a_wvalid & 1 == 1,
            bready: i.s_axil_a_bready & 1 == 1,
            araddr: i.s_axil_a_araddr as u32,
            arvalid: i.s_axil_a_arvalid & 1 == 1,
            rready: i.s_axil_a_rready & 1 == 1,
        },
        dbg_sem_idx: i.dbg_a_sem_idx_i,
        dbg_mem_sel: i.dbg_a_mem_sel_i & 1 == 1,
        dbg_mem_we: i.dbg_a_mem_we_i & 1 == 1,
        dbg_mem_addr: i.dbg_a_mem_addr_i,
        dbg_mem_wdata: i.dbg_a_mem_wdata_i,
    };
    let ib = CoreIn {
        rst,
        mem_stall: i.b_mem_stall_i & 1 == 1,
        axil: AxilIn {
            awaddr: i.s_axil_b_awaddr as u32,
            awvalid: i.s_axil_b_awvalid & 1 == 1,
            wdata: i.s_axil_b_wdata as u32,
            wstrb: i.s_axil_b_wstrb as u32,
            wvalid: i.s_axil_b_wvalid & 1 == 1,
            bready: i.s_axil_b_bready & 1 == 1,
            araddr: i.s_axil_b_araddr as u32,
            arvalid: i.s_axil_b_arvalid & 1 == 1,
            rready: i.s_axil_b_rready & 1 == 1,
        },
        dbg_sem_idx: i.dbg_b_sem_idx_i,
        dbg_mem_sel: i.dbg_b_mem_sel_i & 1 == 1,
        dbg_mem_we: i.dbg_b_mem_we_i & 1 == 1,
        dbg_mem_addr: i.dbg_b_mem_addr_i,
        dbg_mem_wdata: i.dbg_b_mem_wdata_i,
    };
    (ia, ib)
}
