//! Golden model of `rtl/sb2sb_system.sv`: [`SYS_CORES`] golden [`Core`]s
//! joined by the golden SoC fabric ([`Fabric`], twin of
//! `rtl/sb2sb_fabric.sv`), every core with its own Q7 AXI4-Lite port and
//! debug port; the lockstep block `system` ([`BLOCK`]) and its parameters.
//!
//! Placement (`CoresPerDie`): core `c` is core `c % cores_per_die` of die
//! `(c / cores_per_die) % 2` of package `c / cores_per_die / 2`
//! ([`Topology::loc`]), carrying its package's CAYMAN_ID
//! ([`Topology::default_chip_id`]); the registered block is one package of
//! two dies × two cores ([`SysParams::BLOCK`]), [`SysParams::two_packages`]
//! the same four cores on two packages.

use crate::ports::{BlockDesc, CycleModel, PortBundle};
use crate::system::cycle::link_latency_at;
use crate::system::link::LinkClass;
use crate::system::topology::{CoreId, Topology};

use super::core::{Core, CoreOut, LinkPorts, Straps};
use super::fabric::Fabric;
use super::link::{LinkFarIn, LinkNearIn, LinkOut};
use super::top::{CoreInPins, CoreOutPins};
use super::CoreParams;

/// Cores of the registered system top (`NumCores`).
pub const SYS_CORES: usize = 4;
/// UDMA engines per core of the registered system top (`NumEngines`; the
/// Verilator build-time budget, docs/system-rtl.md).
pub const SYS_ENGINES: usize = 2;

/// SBUF bytes per partition of [`SysParams::COLL`]: room for every buffer of
/// an `nccom` collective on 4 ranks up to 64 KiB per rank (512 bytes per
/// partition per buffer, at most six buffers with the mesh scratch slots) and
/// the receive slots of a reducing step (docs/system-rtl.md).
pub const COLL_SBUF_PART_BYTES: u32 = 16 * 1024;

/// Parameters of a system top: its cores and their placement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SysParams {
    /// Every core's parameters.
    pub core: CoreParams,
    /// Cores per die (`CoresPerDie`); two dies per package.
    pub cores_per_die: u8,
}

impl SysParams {
    /// The registered block `system`: the leg's core at [`SYS_ENGINES`]
    /// engines, two dies × two cores of one package.
    pub const BLOCK: Self = Self {
        core: CoreParams {
            engines: SYS_ENGINES,
            ..CoreParams::LEG
        },
        cores_per_die: 2,
    };

    /// The RTL-only system top that runs collectives ([`BLOCK_COLL`]): the
    /// registered block's cores with an SBUF window of
    /// [`COLL_SBUF_PART_BYTES`] per partition from offset 0 (the layout
    /// `collective::nccom` gives its buffers), one package.
    pub const COLL: Self = Self {
        core: Self::BLOCK.core.with_sbuf(COLL_SBUF_PART_BYTES),
        cores_per_die: 2,
    };

    /// The same cores on two packages (one core per die).
    pub const fn two_packages(self) -> Self {
        Self {
            cores_per_die: (SYS_CORES / 4) as u8,
            ..self
        }
    }

    /// The system topology of the placement (default CAYMAN_IDs, no
    /// explicit routing ids).
    pub fn topology(&self) -> Topology {
        let packages = (SYS_CORES / 2 / usize::from(self.cores_per_die)) as u8;
        Topology {
            cores_per_die: self.cores_per_die,
            sbuf_bytes_per_partition: self.core.sbuf_part_bytes,
            ..Topology::trn2(packages)
        }
    }
}

crate::port_bundle! {
    /// Inputs of `sb2sb_system` (4 cores; per-core fields packed by core).
    pub struct SysIn {
        rst_ni: u64 = 1,
        mem_stall_i: u64 = 4,
        link_stall_i: u64 = 4,
        s_axil_awaddr: [u64; 2] = 128,
        s_axil_awvalid: u64 = 4,
        s_axil_wdata: [u64; 2] = 128,
        s_axil_wstrb: u64 = 16,
        s_axil_wvalid: u64 = 4,
        s_axil_bready: u64 = 4,
        s_axil_araddr: [u64; 2] = 128,
        s_axil_arvalid: u64 = 4,
        s_axil_rready: u64 = 4,
        dbg_sem_idx_i: u64 = 32,
        dbg_mem_sel_i: u64 = 4,
        dbg_mem_we_i: u64 = 4,
        dbg_mem_addr_i: [u64; 2] = 80,
        dbg_mem_wdata_i: [u64; 4] = 256,
    }
}

crate::port_bundle! {
    /// Outputs of `sb2sb_system` (4 cores, [`SYS_ENGINES`] engines each).
    pub struct SysOut {
        s_axil_awready: u64 = 4,
        s_axil_wready: u64 = 4,
        s_axil_bresp: u64 = 8,
        s_axil_bvalid: u64 = 4,
        s_axil_arready: u64 = 4,
        s_axil_rdata: [u64; 2] = 128,
        s_axil_rresp: u64 = 8,
        s_axil_rvalid: u64 = 4,
        dbg_sem_o: [u64; 2] = 128,
        dbg_mem_rdata_o: [u64; 4] = 256,
        dbg_xbar_o: [u64; 2] = 128,
        dbg_xin_o: u64 = 64,
        dbg_q7_o: u64 = 32,
        irq_o: u64 = (4 * SYS_ENGINES) as u32,
        err_irq_o: u64 = (4 * SYS_ENGINES) as u32,
        sem_err_o: u64 = 20,
        route_err_o: u64 = 4,
        dbg_fabric_o: u64 = 32,
    }
}

/// Field `k` of width `w` bits of a packed per-core port.
pub fn field(words: &[u64], k: usize, w: usize) -> u64 {
    let lo = k * w;
    let (i, b) = (lo / 64, lo % 64);
    let mut v = words[i] >> b;
    if b + w > 64 && i + 1 < words.len() {
        v |= words[i + 1] << (64 - b);
    }
    if w == 64 {
        v
    } else {
        v & ((1u64 << w) - 1)
    }
}

/// Sets field `k` of width `w` bits of a packed per-core port to `v`.
pub fn set_field(words: &mut [u64], k: usize, w: usize, v: u64) {
    let lo = k * w;
    let (i, b) = (lo / 64, lo % 64);
    let m = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
    let v = v & m;
    words[i] = words[i] & !(m << b) | v << b;
    if b + w > 64 {
        let hi = 64 - b;
        words[i + 1] = words[i + 1] & !(m >> hi) | v >> hi;
    }
}

/// The golden system top.
#[derive(Debug, Clone)]
pub struct SysTop {
    pub p: SysParams,
    pub cores: Vec<Core>,
    pub fabric: Fabric,
    topo: Topology,
    /// Sticky route errors per sending core (`route_err_o`).
    route_err: u64,
    /// The destination of every core's outgoing lanes this cycle.
    routes: Vec<Vec<Option<u16>>>,
    addrs: Vec<Option<u64>>,
    lo: Vec<LinkOut>,
    li: Vec<LinkOut>,
    near: Vec<LinkNearIn>,
    far: Vec<LinkFarIn>,
    outs: Vec<CoreOut>,
}

impl SysTop {
    /// A system top with parameters `p`, in reset state: every link of
    /// every directed core pair created (a link in reset is idle).
    pub fn new(p: SysParams) -> Self {
        let topo = p.topology();
        let mut fabric = Fabric::default();
        let mut cores = Vec::with_capacity(SYS_CORES);
        for c in 0..SYS_CORES as u16 {
            let mut k = Core::new(&p.core);
            let loc = topo.loc(CoreId(c)).expect("core of the topology");
            k.set_straps(Straps {
                die: u64::from(loc.die),
                chip: u64::from(topo.chip_ids[usize::from(loc.package)]),
                core_idx: u64::from(loc.core),
            });
            cores.push(k);
            for d in (0..SYS_CORES as u16).filter(|&d| d != c) {
                let class = topo
                    .link_class(CoreId(c), CoreId(d))
                    .expect("cores of the topology");
                let lat = link_latency_at(class, p.core.link_latency);
                fabric.join(c, d, p.core.engines, || lat);
            }
        }
        let n = p.core.engines;
        Self {
            p,
            cores,
            fabric,
            topo,
            route_err: 0,
            routes: vec![vec![None; n]; SYS_CORES],
            addrs: Vec::with_capacity(n),
            lo: Vec::with_capacity(n),
            li: Vec::with_capacity(n),
            near: vec![LinkNearIn::default(); n],
            far: vec![LinkFarIn::default(); n],
            outs: vec![CoreOut::default(); SYS_CORES],
        }
    }

    /// The system's topology (placement of the cores).
    pub fn topology(&self) -> &Topology {
        &self.topo
    }
}

/// Test-only faults of the golden system top (off in every normal run), to
/// prove the lockstep catches bugs of the composition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SysFault {
    /// Every fabric link at the on-die latency (the link class ignored).
    OnDieLatencyEverywhere,
}

impl SysTop {
    /// Inject a test-only fault.
    pub fn inject(&mut self, f: SysFault) {
        match f {
            SysFault::OnDieLatencyEverywhere => {
                let lat = link_latency_at(LinkClass::OnDie, self.p.core.link_latency);
                for l in self.fabric.links.values_mut().flatten() {
                    l.latency = lat;
                }
            }
        }
    }
}

impl Default for SysTop {
    fn default() -> Self {
        Self::new(SysParams::BLOCK)
    }
}

// Core `c`'s pins: field `c` of each packed per-core port, of the width
// of one core's signal in `sb2sb_system`'s port list.
super::top::core_pins! {
    SysIn {
        axil {
            awaddr: (s_axil_awaddr, 32),
            awvalid: (s_axil_awvalid, 1),
            wdata: (s_axil_wdata, 32),
            wstrb: (s_axil_wstrb, 4),
            wvalid: (s_axil_wvalid, 1),
            bready: (s_axil_bready, 1),
            araddr: (s_axil_araddr, 32),
            arvalid: (s_axil_arvalid, 1),
            rready: (s_axil_rready, 1),
        }
        mem_stall: (mem_stall_i, 1),
        dbg_sem_idx: (dbg_sem_idx_i, 8),
        dbg_mem_sel: (dbg_mem_sel_i, 1),
        dbg_mem_we: (dbg_mem_we_i, 1),
        dbg_mem_addr: (dbg_mem_addr_i, 20),
        dbg_mem_wdata: (dbg_mem_wdata_i, 64),
    }
    SysOut {
        axil {
            awready: (s_axil_awready, 1),
            wready: (s_axil_wready, 1),
            bresp: (s_axil_bresp, 2),
            bvalid: (s_axil_bvalid, 1),
            arready: (s_axil_arready, 1),
            rdata: (s_axil_rdata, 32),
            rresp: (s_axil_rresp, 2),
            rvalid: (s_axil_rvalid, 1),
        }
        dbg_sem: (dbg_sem_o, 32),
        dbg_mem_rdata: (dbg_mem_rdata_o, 64),
        dbg_xbar: (dbg_xbar_o, 32),
        dbg_xin: (dbg_xin_o, 16),
        dbg_q7: (dbg_q7_o, 8),
        irq: (irq_o, SYS_ENGINES),
        err_irq: (err_irq_o, SYS_ENGINES),
        sem_err: (sem_err_o, 5),
    }
}

impl CycleModel for SysTop {
    type In = SysIn;
    type Out = SysOut;

    fn step(&mut self, i: &SysIn) -> SysOut {
        let rst = i.rst_ni & 1 == 0;
        // 1. routes of the outgoing lanes (registered state)
        let mut err = 0u64;
        for c in 0..SYS_CORES {
            if rst {
                // the interconnect in reset offers no lane
                self.routes[c].fill(None);
                continue;
            }
            self.cores[c].glue.xbar.out_link_addrs(&mut self.addrs);
            for (l, &a) in self.addrs.iter().enumerate() {
                self.routes[c][l] = match Fabric::route_lane(&self.topo, c as u16, a) {
                    Ok(r) => r,
                    Err(_) => {
                        err |= 1 << c;
                        None
                    }
                };
            }
        }
        // 2. the links' Moore outputs, 3. the grants
        let stall = i.link_stall_i;
        self.fabric.link_outputs(rst, |s| (stall >> s) & 1 == 1);
        // debug: the registered grant of lane 0 per destination (before this
        // cycle's new grants; cleared by the asynchronous reset)
        let mut dbg_fabric_o = 0u64;
        for c in (0..SYS_CORES as u16).filter(|_| !rst) {
            let g = self.fabric.grant_of(c, 0);
            let d = u64::from(g.is_some())
                | u64::from(g.unwrap_or(0) & 7) << 1
                | u64::from(self.fabric.open_of(c, 0) & 0xF) << 4;
            set_field(
                std::slice::from_mut(&mut dbg_fabric_o),
                usize::from(c),
                8,
                d,
            );
        }
        self.fabric.grant(rst, |_| true);
        // 4. every core's clock with its links
        for c in 0..SYS_CORES {
            let routes = &self.routes[c];
            self.fabric
                .core_links(c as u16, routes, &mut self.lo, &mut self.li);
            let ci = i.core_in(c, rst);
            self.cores[c].step_into(
                &ci,
                LinkPorts {
                    out: &self.lo,
                    inc: &self.li,
                    near: &mut self.near,
                    far: &mut self.far,
                },
                &mut self.outs[c],
            );
            self.fabric.collect(c as u16, routes, &self.near, &self.far);
        }
        // the outputs (registered fabric state before the edge)
        let mut o = SysOut {
            route_err_o: self.route_err,
            dbg_fabric_o,
            ..SysOut::default()
        };
        for (c, co) in self.outs.iter().enumerate() {
            o.set_core_out(c, co);
        }
        // 5. clock edges of the fabric
        self.fabric.edges(rst);
        self.route_err = if rst { 0 } else { self.route_err | err };
        o
    }
}

const SYSTEM_RTL_FILES: [&str; 18] =
    super::core_rtl_files_and(["sb2sb_fabric.sv", "sb2sb_system.sv"]);

/// RTL files of `sb2sb_system`, in compile order.
pub const RTL_FILES: &[&str] = &SYSTEM_RTL_FILES;

/// Lockstep registration of the system top (`sb2sb cosim --block system`).
pub const BLOCK: BlockDesc = BlockDesc {
    name: "system",
    top: "sb2sb_system",
    rtl_files: RTL_FILES,
    params: &[
        ("NumEngines", SysParams::BLOCK.core.engines as i64),
        ("CoresPerDie", SysParams::BLOCK.cores_per_die as i64),
    ],
    inputs: <SysIn as PortBundle>::SIGNALS,
    outputs: <SysOut as PortBundle>::SIGNALS,
};

/// The system top on the two-package placement ([`SysParams::two_packages`]:
/// one core per die, the chip-id fold, other-package links): an opt-in
/// lockstep block (`SB2SB_BLOCKS=all,system_2pkg`,
/// `crate::blocks::LOCKSTEP_OPT_IN`), run with `sb2sb cosim --block
/// system_2pkg`; the same RTL and golden twin as [`BLOCK`] at another
/// `CoresPerDie`.
pub const BLOCK_2PKG: BlockDesc = BlockDesc {
    name: "system_2pkg",
    top: "sb2sb_system",
    rtl_files: RTL_FILES,
    params: &[
        (
            "NumEngines",
            SysParams::BLOCK.two_packages().core.engines as i64,
        ),
        (
            "CoresPerDie",
            SysParams::BLOCK.two_packages().cores_per_die as i64,
        ),
    ],
    inputs: <SysIn as PortBundle>::SIGNALS,
    outputs: <SysOut as PortBundle>::SIGNALS,
};

/// The system top at [`SysParams::COLL`] (`sb2sb nccom --mode rtl`): an
/// RTL-only build with the testbench backdoor (`crate::blocks::RTL_OPT_IN`,
/// built when `SB2SB_BLOCKS` names it); the same RTL and golden twin as
/// [`BLOCK`] at other parameter values.
pub const BLOCK_COLL: BlockDesc = BlockDesc {
    name: "system_coll",
    top: "sb2sb_system",
    rtl_files: RTL_FILES,
    params: &[
        ("NumEngines", SysParams::COLL.core.engines as i64),
        ("CoresPerDie", SysParams::COLL.cores_per_die as i64),
        ("SbufPartBytes", SysParams::COLL.core.sbuf_part_bytes as i64),
        ("SbufWinBase", SysParams::COLL.core.sbuf_win_base as i64),
        ("DescBytes", SysParams::COLL.core.desc_bytes as i64),
    ],
    inputs: <SysIn as PortBundle>::SIGNALS,
    outputs: <SysOut as PortBundle>::SIGNALS,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::system::map;

    #[test]
    fn packed_fields_round_trip_across_word_boundaries() {
        let mut w = [0u64; 2];
        set_field(&mut w, 1, 48, 0xABCD_1234_5678);
        set_field(&mut w, 0, 48, 0xFFFF_FFFF_FFFF);
        assert_eq!(field(&w, 1, 48), 0xABCD_1234_5678);
        assert_eq!(field(&w, 0, 48), 0xFFFF_FFFF_FFFF);
        assert_eq!(w[1], 0xABCD_1234_5678 >> 16);
    }

    /// The fabric's lane route names, for every ordered core pair of both
    /// placements, the core the system's fold addressed (the fold and the
    /// decode are independent code paths), and refuses a burst for itself.
    #[test]
    fn every_folded_destination_routes_to_its_core() {
        for p in [SysParams::BLOCK, SysParams::BLOCK.two_packages()] {
            let t = p.topology();
            for s in 0..SYS_CORES as u16 {
                for d in 0..SYS_CORES as u16 {
                    let loc = t.loc(CoreId(d)).unwrap();
                    let off = map::sem_incr_offset(3);
                    let a = t
                        .fold(CoreId(s), CoreId(d), map::core_local(loc.core, off))
                        .unwrap();
                    let r = Fabric::route_lane(&t, s, Some(a));
                    if s == d {
                        assert!(r.is_err());
                    } else {
                        assert_eq!(r.unwrap(), Some(d), "{s} -> {d}: {a:#x}");
                    }
                }
            }
        }
    }
}
