//! Cycle executor: the same Q7 programs and descriptor rings, advanced one
//! clock at a time on the golden core composition of `pair::core` — per
//! system core one [`crate::pair::core::Glue`] at the system's
//! [`CoreParams`] (`NumEngines` 16 by default: CME-COPY loops, the
//! interconnect with its `cayman_addr_decode` decoders (one per write lane,
//! in-lane and read lane), the `axi4_sram` FSMs of the SBUF banks (one per
//! engine) and the descriptor RAM, the Q7 port) wired to that core's
//! own golden engines ([`super::SystemCore::engines`]), EVT_SEM ([`super::SystemCore::evt`])
//! and memories ([`super::SystemCore::sbuf`], [`super::SystemCore::desc`], through the
//! [`super::mem::SbufWords`] / [`super::mem::DescWords`] word-array adapters,
//! so fast mode and cycle mode read and write the same bytes).
//!
//! The SoC fabric between the cores: a core's interconnect sends every
//! write that is not for itself to its "out of core" port; the fabric routes
//! the burst's address with [`super::map::route_address`] (a bad route is a
//! typed error) to the destination core and carries it through one golden
//! [`crate::pair::link::Link`] per directed (source, destination) core pair
//! (latency per link class, [`link_latency`]) into the destination core's
//! link in-port (its interconnect's in-lanes), where it is decoded again and
//! lands in that core's SBUF, descriptor RAM or EVT_SEM increment ports 2/3.
//! A core's interconnect has one link lane per engine (write lane `e` uses
//! lane `e`, `pair::xbar::lk_of`), so each directed core pair has one link per
//! lane, and lane `l` of a core's near side joins the link of lane `l`
//! towards the destination of that lane's burst (`Xbar::out_link_addrs`).
//! When several links hold bursts for one core's in-lane, the fabric grants
//! them in turn (lowest source core first after the last grant), a grant
//! lasting until every burst whose AW the in-lane took over it had its B
//! handshake (an in-lane takes its next AW while a burst streams).
//!
//! A core is clocked while it has work: from the cycle one of its queues has
//! an M2S/S2M pair posted, or a link into or out of it holds a burst, until
//! its engines, glue and links are idle with every M2S queue empty, and while
//! a Q7 program has an AXI4-Lite transaction on its Q7 port: the queued Q7
//! programs run cycle by cycle on the cores' Q7 ports ([`super::q7_exec`]):
//! first the ring set-up programs `rdma_desc_gen` queued (queue and
//! completion-ring CSR writes, descriptor and semaphore-constant stores into
//! descriptor RAM through the port's store path), then the start programs.
//! Nothing of a leg is written around the ports (docs/system.md "Cycle mode").

use std::collections::{BTreeMap, BTreeSet};

use crate::pair::core::{CoreIn, CoreOut, LinkPorts, Parts};
use crate::pair::link::{Link, LinkFarIn, LinkNearIn};
use crate::pair::CoreParams;
use crate::regs::axil::{AxilIn, AxilOut};
use crate::udma::m2s::M2sState;
use crate::udma::s2m::S2mState;

use super::link::LinkClass;
use super::mem::{DescWords, SbufWords};
use super::mirror::{first_difference, Mirror};
use super::topology::{DMA_ENGINES, DMA_QUEUES};
use super::{CoreId, SystemError, SystemState};
use crate::clock;
use crate::trace::{QueueMark, Recorder, Track};

/// A live core with no engine AXI handshake and no handshake of its in-lanes
/// with an incoming link for this many cycles (`GlueStats::busy_cycles`),
/// while no Q7 program progresses either, is reported as stalled.
const STALL_CYCLES: u64 = 4096;
/// After an engine error, the core keeps being clocked until its glue and
/// links are empty and no engine handshake has happened for this many
/// cycles (the bytes already accepted land, as in hardware); then the run
/// reports the error.
const QUIET_CYCLES: u64 = 64;

/// Latency in cycles of the fabric link of a class between the system's
/// default cores ([`CoreParams::SYSTEM`], [`link_latency_at`]).
pub const fn link_latency(c: LinkClass) -> u16 {
    link_latency_at(c, CoreParams::SYSTEM.link_latency)
}

/// One class's fabric-link latency as a fraction of the io_d2d latency.
#[derive(Debug, Clone, Copy)]
pub struct LinkLatencyRule {
    pub class: LinkClass,
    /// Name of the class constant in `sb2sb_pkg` (`LINK_CLASS_<name>`).
    pub sv_name: &'static str,
    pub mul: u16,
    pub div: u16,
}

/// The latency of a fabric link by class (project-defined), in units of the
/// io_d2d link's latency `d2d`: `d2d` to the other die of the package, a
/// quarter of it on one die, four times it between packages. The one
/// definition: [`link_latency_at`] evaluates it and `make gen` renders it as
/// `sb2sb_pkg::link_latency_at` ([`sv_link_latency`]), which
/// `rtl/sb2sb_fabric.sv` calls.
pub const LINK_LATENCY_RULE: [LinkLatencyRule; 3] = [
    LinkLatencyRule {
        class: LinkClass::OnDie,
        sv_name: "ON_DIE",
        mul: 1,
        div: 4,
    },
    LinkLatencyRule {
        class: LinkClass::D2d,
        sv_name: "D2D",
        mul: 1,
        div: 1,
    },
    LinkLatencyRule {
        class: LinkClass::C2c,
        sv_name: "C2C",
        mul: 4,
        div: 1,
    },
];

/// Latency in cycles of the fabric link of a class between cores whose
/// io_d2d link has latency `d2d` (`CoreParams::link_latency`), by
/// [`LINK_LATENCY_RULE`].
pub const fn link_latency_at(c: LinkClass, d2d: u16) -> u16 {
    let mut i = 0;
    while i < LINK_LATENCY_RULE.len() {
        let r = LINK_LATENCY_RULE[i];
        if r.class as u8 == c as u8 {
            return d2d * r.mul / r.div;
        }
        i += 1;
    }
    panic!("link class without a latency rule")
}

/// [`LINK_LATENCY_RULE`] as SystemVerilog for `sb2sb_pkg`: a class constant
/// per rule (its index in the table) and `link_latency_at(cls, d2d)`.
pub fn sv_link_latency() -> String {
    let w = 2;
    let mut s = String::from(
        "\n  // ---- SoC fabric: link latency by class (system::cycle::LINK_LATENCY_RULE) ----\n",
    );
    for (i, r) in LINK_LATENCY_RULE.iter().enumerate() {
        s.push_str(&format!(
            "  localparam logic [{}:0] LINK_CLASS_{} = {w}'h{i:X};\n",
            w - 1,
            r.sv_name
        ));
    }
    s.push_str(
        "  // Latency in cycles of a fabric link of class `cls` when the io_d2d link's is `d2d`.\n",
    );
    let head = "  function automatic int unsigned link_latency_at(";
    s.push_str(&format!(
        "{head}input logic [{}:0] cls,\n{:w2$}input int unsigned d2d);\n    int unsigned r;\n    unique case (cls)\n",
        w - 1,
        "",
        w2 = head.len()
    ));
    for r in LINK_LATENCY_RULE {
        s.push_str(&format!(
            "      LINK_CLASS_{}: r = d2d * {} / {};\n",
            r.sv_name, r.mul, r.div
        ));
    }
    s.push_str("      default: r = 0;\n    endcase\n    return r;\n  endfunction\n");
    s
}

/// The SoC fabric of cycle mode: the golden twin of `rtl/sb2sb_fabric.sv`
/// ([`crate::pair::fabric::Fabric`], the one definition of its rules).
pub use crate::pair::fabric::Fabric;

/// The cycle executor: its own state here, its code `impl CycleExec`
/// taking the system's shared state ([`SystemState`]) as an argument.
#[derive(Debug, Default)]
pub struct CycleExec {
    /// Cycles run in cycle mode.
    pub cycles: u64,
    /// The SoC fabric (links between the cores' compositions).
    pub fabric: Fabric,
    /// Cycle budget per `run`.
    pub max_cycles: u64,
    /// Every AXI4-Lite transaction the Q7 programs made on a core's Q7 port
    /// (recorded when `trace_on`).
    pub q7_log: Vec<super::q7_exec::Q7Txn>,
    /// A semaphore watched after every clock ([`SemWatch`]; a leg's
    /// data-phase end, as the pair environment's debug port watches it).
    pub sem_watch: Option<SemWatch>,
    /// Clock every core every cycle, as a fixed system top's RTL does (its
    /// idle Q7 ports alternate their write / read offer every cycle);
    /// otherwise only the cores with work.
    pub clock_all: bool,
}

/// A semaphore cycle mode watches after every clock: the first cycle
/// ([`CycleExec::cycles`] after the clock edge) at which semaphore `sem` of
/// `core` holds at least `target`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SemWatch {
    pub core: CoreId,
    pub sem: u8,
    pub target: i32,
    /// The cycle it was first seen at the target.
    pub reached: Option<u64>,
}

/// Cycle-mode state of a clocked core.
#[derive(Debug, Clone)]
struct LiveCore {
    /// Sticky `err_status` of each engine side when the core went live: a
    /// new bit is an error of this run.
    err0: Vec<[u32; 2]>,
    /// The first error a golden engine flagged in this run (reported once quiet).
    failed: Option<SystemError>,
    /// Cycle of the last engine AXI handshake.
    last_activity: u64,
    /// Engines that had a queue active while the core was live.
    engines: u16,
}

impl CycleExec {
    fn go_live(&self, st: &SystemState, c: u16) -> LiveCore {
        let k = &st.cores[usize::from(c)];
        LiveCore {
            err0: k
                .engines
                .iter()
                .map(|u| [u.regs.side[0].err_status, u.regs.side[1].err_status])
                .collect(),
            failed: None,
            last_activity: self.cycles,
            engines: 0,
        }
    }

    /// Whether core `c`'s engines and glue are idle with every M2S queue empty.
    fn core_drained(&self, st: &SystemState, c: u16) -> bool {
        let k = &st.cores[usize::from(c)];
        k.hw.idle()
            && k.engines.iter().all(|u| {
                u.m2s.state == M2sState::Idle
                    && u.s2m.state == S2mState::Idle
                    && !u.m2s.pkt_open
                    && !u.s2m.in_pkt
                    && u.regs.side[0]
                        .q
                        .iter()
                        .all(|r| r.head.offset == r.tail.offset)
            })
    }

    /// The destination core of the burst core `c` sends towards the fabric
    /// on each of its link lanes, from the lanes' addresses `addrs`
    /// ([`crate::pair::xbar::Xbar::out_link_addrs`], [`Fabric::route_lane`]).
    fn out_dests(
        &self,
        st: &SystemState,
        c: u16,
        addrs: &[Option<u64>],
    ) -> Result<Vec<Option<u16>>, SystemError> {
        addrs
            .iter()
            .map(|&a| Fabric::route_lane(&st.topo, c, a))
            .collect()
    }

    /// One clock of every live core and of every link in use; `axil` drives
    /// the cores' Q7 ports (default: idle), `q7_out` receives their outputs.
    pub(super) fn clock_fabric(
        &mut self,
        st: &mut SystemState,
        live: &BTreeSet<u16>,
        fabric: &mut Fabric,
        axil: &BTreeMap<u16, AxilIn>,
        q7_out: &mut BTreeMap<u16, AxilOut>,
    ) -> Result<(), SystemError> {
        // Outgoing link lanes the live cores use this cycle (from registered state).
        let mut out: Vec<(u16, Vec<Option<u16>>)> = Vec::with_capacity(live.len());
        let mut addrs = Vec::new();
        for &c in live {
            let lanes = st.cores[usize::from(c)].hw.xbar.link_lanes();
            st.cores[usize::from(c)].hw.xbar.out_link_addrs(&mut addrs);
            let ds = self.out_dests(st, c, &addrs)?;
            for &d in ds.iter().flatten() {
                let class = st.topo.link_class(CoreId(c), CoreId(d))?;
                let lat = link_latency_at(class, st.core_params().link_latency);
                fabric.join(c, d, lanes, || lat);
            }
            out.push((c, ds));
        }
        fabric.link_outputs(false, |_| false);
        fabric.grant(false, |d| live.contains(&d));
        for (c, ds) in out {
            self.clock_core(st, c, &ds, fabric, axil, q7_out)?;
        }
        fabric.edges(false);
        Ok(())
    }

    /// One clock of core `c` with its outgoing lanes joined to the links of
    /// `ds` (the destination of each lane) and its in-lanes to the granted
    /// links; the lanes' link inputs are recorded in the fabric.
    fn clock_core(
        &mut self,
        st: &mut SystemState,
        c: u16,
        ds: &[Option<u16>],
        fabric: &mut Fabric,
        axil: &BTreeMap<u16, AxilIn>,
        q7_out: &mut BTreeMap<u16, AxilOut>,
    ) -> Result<(), SystemError> {
        let lanes = ds.len();
        let ci = CoreIn {
            axil: axil.get(&c).copied().unwrap_or_default(),
            ..CoreIn::default()
        };
        let (mut lo, mut li) = (Vec::with_capacity(lanes), Vec::with_capacity(lanes));
        fabric.core_links(c, ds, &mut lo, &mut li);
        let mut near = vec![LinkNearIn::default(); lanes];
        let mut far = vec![LinkFarIn::default(); lanes];
        let reduce = st.rx_reduce.get(&c).map_or(&[][..], |v| &v[..]);
        let mut err = None;
        let k = &mut st.cores[usize::from(c)];
        let mut co = CoreOut::default();
        k.hw.step_into(
            Parts {
                engines: &mut k.engines,
                evt: &mut k.evt,
                sbuf: &mut SbufWords {
                    sbuf: &mut k.sbuf,
                    win_base: st.core.sbuf_win_base,
                    win_bytes: st.core.sbuf_part_bytes,
                    reduce,
                    err: &mut err,
                },
                desc: &mut DescWords(&mut k.desc),
            },
            &ci,
            LinkPorts {
                out: &lo,
                inc: &li,
                near: &mut near,
                far: &mut far,
            },
            &mut co,
        );
        if let Some(e) = err {
            return Err(SystemError::Reduce(e));
        }
        if axil.contains_key(&c) {
            q7_out.insert(c, co.axil);
        }
        fabric.collect(c, ds, &near, &far);
        Ok(())
    }

    /// Cycle mode: per cycle the Q7 programs' accesses on the Q7 ports
    /// ([`super::q7_exec`]) and one golden clock of every live core.
    pub(crate) fn run(
        &mut self,
        st: &mut SystemState,
        mirror: Option<&mut dyn Mirror>,
    ) -> Result<(), SystemError> {
        let start = self.cycles;
        let mut fabric = std::mem::take(&mut self.fabric);
        let r = self.run_on(st, &mut fabric, start, mirror);
        self.fabric = fabric;
        r
    }

    fn run_on(
        &mut self,
        st: &mut SystemState,
        fabric: &mut Fabric,
        start: u64,
        mut mirror: Option<&mut dyn Mirror>,
    ) -> Result<(), SystemError> {
        let mut live: BTreeMap<u16, LiveCore> = BTreeMap::new();
        let mut m_in = vec![AxilIn::default(); st.cores.len()];
        let mut m_out = Vec::with_capacity(st.cores.len());
        let mut q7 = self.q7_exec(st)?;
        let mut q7_out = BTreeMap::new();
        loop {
            let a_issue = self.q7_issue(st, &mut q7)?;
            self.wake_cores(st, fabric, &mut live);
            // Live cores, and the cores whose Q7 port carries a program's access.
            let cores: BTreeSet<u16> = if self.clock_all {
                (0..st.cores.len() as u16).collect()
            } else {
                live.keys().copied().chain(q7.ports()).collect()
            };
            let busy0: Vec<u64> = cores
                .iter()
                .map(|&c| st.cores[usize::from(c)].hw.stats.busy_cycles)
                .collect();
            let drives = q7.drives();
            q7_out.clear();
            if let Some(mut r) = st.rec.take() {
                self.trace_before(st, &mut r, &cores);
                st.rec = Some(r);
            }
            self.clock_fabric(st, &cores, fabric, &drives, &mut q7_out)?;
            if let Some(m) = mirror.as_deref_mut() {
                self.clock_mirror(m, &drives, &q7_out, &mut m_in, &mut m_out)?;
            }
            let b = self.note_activity(st, &cores, &busy0, &mut live);
            self.cycles += 1;
            st.now = st.now.max(clock::cycles_to_ps(self.cycles));
            if let Some(w) = self.sem_watch.as_mut() {
                let k = &st.cores[usize::from(w.core.0)];
                if w.reached.is_none() && k.evt.sem(w.sem) >= w.target {
                    w.reached = Some(self.cycles);
                }
            }
            if let Some(mut r) = st.rec.take() {
                self.trace_after(st, &mut r, &cores, fabric);
                st.rec = Some(r);
            }
            let a = self.q7_retire(st, &mut q7, &q7_out)? || a_issue;
            if a || b || !live.is_empty() {
                q7.last_change = self.cycles;
            }
            self.retire_cores(st, &cores, fabric, &q7, &mut live)?;
            let k = &st.cores;
            st.active.retain(|&(c, e, q)| {
                live.contains_key(&c) || {
                    let k = &k[usize::from(c)];
                    k.queue(e, q, 0).pending() > 0 && k.queue(e, q, 1).pending() > 0
                }
            });
            if st.pending.is_empty() && st.setups.is_empty() && live.is_empty() {
                // A doorbell of the last program may have posted a pair
                // this cycle: its core goes live before the run can end.
                self.wake_cores(st, fabric, &mut live);
                if live.is_empty() {
                    return st.check_idle();
                }
            }
            if !a && live.is_empty() && q7.stuck() {
                return Err(st.diagnose(self.cycles));
            }
            if !a && !b {
                self.stall_check(st, &live)?;
            }
            if self.cycles - start > self.max_cycles {
                return Err(SystemError::Timeout {
                    cycles: self.cycles - start,
                });
            }
        }
    }

    /// One clock of the mirrored machine with this cycle's Q7 port drives
    /// (idle on every other port); its outputs must equal the golden
    /// cores' on every port that carried a transaction.
    fn clock_mirror(
        &self,
        m: &mut dyn Mirror,
        drives: &BTreeMap<u16, AxilIn>,
        golden: &BTreeMap<u16, AxilOut>,
        m_in: &mut [AxilIn],
        m_out: &mut Vec<AxilOut>,
    ) -> Result<(), SystemError> {
        m_in.fill(AxilIn::default());
        for (&c, d) in drives {
            m_in[usize::from(c)] = *d;
        }
        let cycle = self.cycles;
        m.clock(m_in, m_out)
            .map_err(|what| SystemError::Mirror { cycle, what })?;
        match first_difference(golden, m_out) {
            None => Ok(()),
            Some((c, g, r)) => Err(SystemError::Mirror {
                cycle,
                what: format!(
                    "parted from the golden cores on core {c}'s Q7 port: golden {g:?}, mirror {r:?} (drive {:?})",
                    m_in[usize::from(c)]
                ),
            }),
        }
    }

    /// Cores whose queues got a pair ready, and both ends of busy links, go live.
    fn wake_cores(&self, st: &SystemState, fabric: &Fabric, live: &mut BTreeMap<u16, LiveCore>) {
        let mut wake: Vec<(u16, Option<u8>)> = st
            .active
            .iter()
            .filter(|&&(c, e, q)| st.pair_ready(c, e, q))
            .map(|&(c, e, _)| (c, Some(e)))
            .collect();
        for (&(s, d), ls) in &fabric.links {
            if !ls.iter().all(Link::idle) {
                wake.push((s, None));
                wake.push((d, None));
            }
        }
        for (c, e) in wake {
            let lc = match live.entry(c) {
                std::collections::btree_map::Entry::Occupied(o) => o.into_mut(),
                std::collections::btree_map::Entry::Vacant(v) => v.insert(self.go_live(st, c)),
            };
            if let Some(e) = e {
                lc.engines |= 1 << e;
            }
        }
    }

    /// After a clock: the live cores that moved (returns whether any did),
    /// and the first error a golden engine flagged in this run (it ends the
    /// run with a typed error once the core is quiet: the queue stays
    /// stopped, the bytes already accepted land).
    fn note_activity(
        &self,
        st: &SystemState,
        cores: &BTreeSet<u16>,
        busy0: &[u64],
        live: &mut BTreeMap<u16, LiveCore>,
    ) -> bool {
        let mut b = false;
        for (&c, &b0) in cores.iter().zip(busy0) {
            let k = &st.cores[usize::from(c)];
            let Some(lc) = live.get_mut(&c) else { continue };
            if k.hw.stats.busy_cycles != b0 {
                lc.last_activity = self.cycles;
                b = true;
            }
            for (e, u) in k.engines.iter().enumerate() {
                for (side, sr) in u.regs.side.iter().enumerate() {
                    if lc.failed.is_none() && sr.err_status & !lc.err0[e][side] != 0 {
                        let q = sr.q.iter().position(|r| r.stopped).unwrap_or(0);
                        lc.failed = Some(SystemError::Dma {
                            core: c,
                            engine: e as u8,
                            queue: q as u8,
                            rule: format!(
                                "golden UDMA {} err_status {:#x}, queue err {:#x} (see udma::regs UDMA_*_ERR_*; bit 17 M2S / 11 S2M = PREF_RING_ID)",
                                if side == 0 { "M2S" } else { "S2M" },
                                sr.err_status,
                                sr.q[q].err
                            ),
                        });
                    }
                }
            }
        }
        b
    }

    /// Cores that are done leave; a failed one reports once quiet.
    fn retire_cores(
        &mut self,
        st: &mut SystemState,
        cores: &BTreeSet<u16>,
        fabric: &Fabric,
        q7: &super::q7_exec::Q7Exec,
        live: &mut BTreeMap<u16, LiveCore>,
    ) -> Result<(), SystemError> {
        let links_idle = |c: u16, f: &Fabric| {
            !f.granted_to(c)
                && f.links
                    .iter()
                    .all(|(&(s, d), ls)| (s != c && d != c) || ls.iter().all(Link::idle))
        };
        for &c in cores {
            let Some(lc) = live.get(&c) else { continue };
            let quiet =
                st.cores[usize::from(c)].hw.idle() && links_idle(c, fabric) && !q7.port_busy(c);
            if lc.failed.is_some() && quiet && self.cycles - lc.last_activity > QUIET_CYCLES {
                let err = live.remove(&c).and_then(|l| l.failed);
                return Err(err.expect("failed"));
            }
            if lc.failed.is_none() && quiet && self.core_drained(st, c) {
                let lc = live.remove(&c).expect("live");
                if st.trace_on {
                    for e in (0..DMA_ENGINES).filter(|e| lc.engines >> e & 1 == 1) {
                        self.trace_heads(st, CoreId(c), e);
                    }
                }
            }
        }
        Ok(())
    }

    /// A live core with no handshake for [`STALL_CYCLES`] is reported as stalled.
    fn stall_check(
        &self,
        st: &SystemState,
        live: &BTreeMap<u16, LiveCore>,
    ) -> Result<(), SystemError> {
        let Some((&c, _)) = live
            .iter()
            .find(|(_, lc)| self.cycles - lc.last_activity > STALL_CYCLES)
        else {
            return Ok(());
        };
        let k = &st.cores[usize::from(c)];
        let (e, q) = (0..st.engines())
            .flat_map(|e| (0..DMA_QUEUES).map(move |q| (e, q)))
            .find(|&(e, q)| k.queue(e, q, 0).pending() > 0)
            .unwrap_or((0, 0));
        Err(SystemError::Stalled {
            core: c,
            engine: e,
            queue: q,
            m2s: k.queue(e, q, 0).pending(),
            s2m: k.queue(e, q, 1).pending(),
        })
    }

    /// Timeline, before a clock: the semaphores of cores not seen yet and
    /// the counters of queues not seen yet.
    fn trace_before(&self, st: &SystemState, r: &mut Recorder, cores: &BTreeSet<u16>) {
        for &c in cores {
            let k = &st.cores[usize::from(c)];
            r.sem_seen
                .entry(c)
                .or_insert_with(|| (0..=255u8).map(|s| k.evt.sem(s)).collect());
        }
        for &(c, e, q) in &st.active {
            let qs = st.cores[usize::from(c)].queue(e, q, 1);
            r.queue_marks.entry((c, e, q)).or_insert(QueueMark {
                done: qs.desc_done,
                bytes: qs.bytes,
                since: None,
            });
        }
    }

    /// Timeline, after a clock: semaphore changes of the clocked cores,
    /// descriptors completed (a queue is busy with a descriptor from when
    /// a pair is posted or the one before completed until its S2M
    /// completion), and link occupancy.
    fn trace_after(
        &self,
        st: &SystemState,
        r: &mut Recorder,
        cores: &BTreeSet<u16>,
        fabric: &Fabric,
    ) {
        let now = clock::cycles_to_ps(self.cycles);
        let prev = clock::cycles_to_ps(self.cycles - 1);
        for &c in cores {
            let k = &st.cores[usize::from(c)];
            for s in 0..=255u8 {
                let v = k.evt.sem(s);
                let old = r.sem_seen.get(&c).map_or(v, |seen| seen[usize::from(s)]);
                if v != old {
                    r.sem(c, s, old, v, now);
                }
            }
        }
        for &(c, e, q) in &st.active {
            let Some(m) = r.queue_marks.get(&(c, e, q)).copied() else {
                continue;
            };
            let qs = st.cores[usize::from(c)].queue(e, q, 1);
            let ready = st.pair_ready(c, e, q);
            let mut m2 = m;
            if qs.desc_done != m.done {
                let n = qs.desc_done.wrapping_sub(m.done);
                let bytes = qs.bytes.wrapping_sub(m.bytes);
                r.slice(
                    Track::Queue {
                        core: c,
                        engine: e,
                        queue: q,
                    },
                    format!("{bytes} B"),
                    m.since.unwrap_or(prev),
                    now,
                    serde_json::json!({"bytes": bytes, "descriptors": n}),
                );
                m2 = QueueMark {
                    done: qs.desc_done,
                    bytes: qs.bytes,
                    since: ready.then_some(now),
                };
            } else if m.since.is_none() && ready {
                m2.since = Some(prev);
            }
            r.queue_marks.insert((c, e, q), m2);
        }
        for (&(s, d), ls) in &fabric.links {
            match (ls.iter().all(Link::idle), r.link_busy.get(&(s, d)).copied()) {
                (false, None) => {
                    r.link_busy.insert((s, d), prev);
                }
                (true, Some(t0)) => {
                    r.link_busy.remove(&(s, d));
                    r.slice(
                        Track::Link { from: s, to: d },
                        "busy",
                        t0,
                        prev,
                        serde_json::json!({}),
                    );
                }
                _ => {}
            }
        }
    }

    fn trace_heads(&mut self, st: &mut SystemState, core: CoreId, e: u8) {
        let t = clock::cycles_to_ps(self.cycles);
        let c = &st.cores[usize::from(core.0)];
        let evs: Vec<_> = (0..DMA_QUEUES)
            .filter(|&q| c.queue(e, q, 0).desc_done > 0)
            .map(|q| super::TraceEvent::Desc {
                t,
                core: core.0,
                engine: e,
                queue: q,
                m2s_head: super::core::pack_pos(c.queue(e, q, 0).head),
                s2m_head: super::core::pack_pos(c.queue(e, q, 1).head),
                bytes: c.queue(e, q, 0).bytes as u32,
            })
            .collect();
        st.trace.extend(evs);
    }
}
