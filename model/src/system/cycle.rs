//! Cycle executor: the same Q7 programs and descriptor rings, advanced one
//! clock at a time with the golden cycle models — the core's own golden
//! [`crate::udma::engine::Udma`] engines ([`super::Core::engines`]) and
//! [`crate::evt_sem::EvtSem`] for every semaphore access.
//!
//! The golden engines live for the whole run: their register files are the
//! cores' CSR state, so a doorbell rung by a Q7 lands in the very register
//! the engine's FSM reads (no copy in, no copy back), and the descriptor and
//! byte counters are the golden `Q_DESC_DONE` / `Q_BYTES`. An engine is
//! clocked while it has work (from the cycle one of its queues has an M2S/S2M
//! pair posted until its FSMs, bus and loop-back are idle with every M2S
//! queue empty). Per cycle the system drives the engine's ports: the AXI4
//! memory master is served from the SoC fabric (every address routed and
//! decoded, so the S2M writes land in the remote SBUF or EVT_SEM INCR window),
//! the M2S stream is looped back into the S2M stream through a 2-entry FIFO
//! (one memory-to-memory channel, the seed's CME-COPY). Every pending Q7
//! program gets one attempt per cycle (a left_pop or wait is one EVT_SEM
//! wait-port cycle; a CSR access is one AXI4-Lite transaction on the golden
//! register file between two engine clocks, docs/system.md).

use std::collections::{BTreeMap, VecDeque};

use crate::ports::CycleModel;
use crate::udma::engine::{Udma, UdmaIn};
use crate::udma::m2s::M_IDLE;
use crate::udma::regs::AXI_RESP_OKAY;
use crate::udma::s2m::S_IDLE;

use super::link::Ps;
use super::map::Target;
use super::topology::DMA_QUEUES;
use super::{CoreId, LegOp, System, SystemError};

/// Modeled clock period (1 GHz, project-defined).
pub const CYCLE_PS: Ps = 1000;
/// Bytes per AXI / stream beat of the golden UDMA.
const BEAT: u64 = 8;
/// A live engine with no bus or stream activity for this many cycles, while
/// no Q7 program progresses either, is reported as stalled.
const STALL_CYCLES: u64 = 4096;
/// After an engine error, the engine keeps being clocked until its bus and
/// loop-back are empty and no beat has moved for this many cycles (the bytes
/// already accepted land, as in hardware); then the run reports the error.
const QUIET_CYCLES: u64 = 64;

/// One stream beat in the loop-back FIFO.
#[derive(Debug, Clone, Copy)]
struct Beat {
    tdata: u64,
    tkeep: u64,
    tlast: u64,
    tid: u64,
    tuser: u64,
}

/// The bus state the system keeps for a golden UDMA engine it is clocking
/// (the engine itself is the core's, [`super::Core::engines`]).
#[derive(Debug, Clone)]
pub struct LiveEngine {
    /// Read burst accepted: (address, last beat index, beats done).
    rd: Option<(u64, u32, u32)>,
    /// Write burst accepted: (address, beats done); W beats are taken only
    /// while one is open, B follows the beat with WLAST.
    aw: Option<(u64, u32)>,
    b_pending: bool,
    fifo: VecDeque<Beat>,
    last_activity: u64,
    /// Sticky `err_status` of each side when the engine went live: a new bit is an error of this run.
    err0: [u32; 2],
    /// The first error the golden engine flagged in this run (reported once it is quiet).
    failed: Option<SystemError>,
}

impl System {
    /// Start clocking golden engine `e` of `core`.
    fn go_live(&self, core: CoreId, e: u8) -> Result<LiveEngine, SystemError> {
        let u = &self.core(core)?.engines[usize::from(e)];
        Ok(LiveEngine {
            rd: None,
            aw: None,
            b_pending: false,
            fifo: VecDeque::new(),
            last_activity: self.cycles,
            err0: [u.regs.side[0].err_status, u.regs.side[1].err_status],
            failed: None,
        })
    }

    /// Read `out.len()` bytes at a routed address issued by `core`.
    fn bus_read(&self, core: CoreId, e: u8, addr: u64, out: &mut [u8]) -> Result<(), SystemError> {
        let (c, t) = self.resolve(core, addr)?;
        match t {
            Target::Sbuf { partition, offset } => {
                self.core(c)?.sbuf.read(partition, offset.into(), out)
            }
            Target::Desc { offset } => {
                self.core(c)?.desc.read(offset, out);
                Ok(())
            }
            _ => Err(SystemError::Dma {
                core: core.0,
                engine: e,
                queue: 0,
                rule: format!("AXI read of {addr:#x}: not SBUF or descriptor RAM"),
            }),
        }
    }

    /// Write the strobed bytes of one 8-byte beat at a routed address.
    fn bus_write(
        &mut self,
        core: CoreId,
        e: u8,
        q: u8,
        addr: u64,
        data: u64,
        strb: u64,
    ) -> Result<(), SystemError> {
        let bytes = data.to_le_bytes();
        // Contiguous strobed runs.
        let mut i = 0usize;
        while i < 8 {
            if strb >> i & 1 == 0 {
                i += 1;
                continue;
            }
            let s = i;
            while i < 8 && strb >> i & 1 == 1 {
                i += 1;
            }
            self.write_run(core, e, q, addr + s as u64, &bytes[s..i])?;
        }
        Ok(())
    }

    fn write_run(
        &mut self,
        core: CoreId,
        e: u8,
        q: u8,
        addr: u64,
        run: &[u8],
    ) -> Result<(), SystemError> {
        let (c, t) = self.resolve(core, addr)?;
        let dma = |rule: String| SystemError::Dma {
            core: core.0,
            engine: e,
            queue: q,
            rule,
        };
        match t {
            Target::Sbuf { partition, offset } => {
                let op = self
                    .rx_ops
                    .get(&(core.0, e, q))
                    .cloned()
                    .unwrap_or_default();
                let d =
                    self.core_mut(c)?
                        .sbuf
                        .slice_mut(partition, offset.into(), run.len() as u64)?;
                match op {
                    LegOp::Copy => d.copy_from_slice(run),
                    LegOp::Reduce(f) => f(d, run).map_err(SystemError::Reduce)?,
                }
            }
            Target::Desc { offset } => self.core_mut(c)?.desc.write(offset, run),
            Target::EvtSem { offset } => {
                if !run.len().is_multiple_of(4) || !offset.is_multiple_of(4) {
                    return Err(dma(format!("EVT_SEM write at {offset:#x} of {} bytes (must cover whole 4-byte registers)", run.len())));
                }
                self.evt_sem_write(c, e, offset, run)?;
            }
            _ => {
                return Err(dma(format!(
                    "AXI write of {addr:#x}: CSR/register space is not a DMA target"
                )))
            }
        }
        Ok(())
    }

    /// One clock of a live engine. `Ok(true)` if any bus or stream beat moved.
    fn clock_engine(
        &mut self,
        core: CoreId,
        e: u8,
        le: &mut LiveEngine,
    ) -> Result<bool, SystemError> {
        let mut i = UdmaIn {
            rst_ni: 1,
            m_axi_awready: u64::from(le.aw.is_none() && !le.b_pending),
            m_axi_wready: u64::from(le.aw.is_some()),
            ..UdmaIn::default()
        };
        i.m_axi_arready = u64::from(le.rd.is_none());
        if let Some((addr, _, cnt)) = le.rd {
            let mut b = [0u8; 8];
            self.bus_read(core, e, addr + u64::from(cnt) * BEAT, &mut b)?;
            i.m_axi_rvalid = 1;
            i.m_axi_rdata = u64::from_le_bytes(b);
            i.m_axi_rresp = u64::from(AXI_RESP_OKAY);
            i.m_axi_rlast = u64::from(Some(cnt) == le.rd.map(|r| r.1));
        }
        if le.b_pending {
            i.m_axi_bvalid = 1;
            i.m_axi_bresp = u64::from(AXI_RESP_OKAY);
        }
        i.m_axis_tready = u64::from(le.fifo.len() < 2);
        if let Some(b) = le.fifo.front() {
            i.s_axis_tvalid = 1;
            i.s_axis_tdata = b.tdata;
            i.s_axis_tkeep = b.tkeep;
            i.s_axis_tlast = b.tlast;
            i.s_axis_tid = b.tid;
            i.s_axis_tuser = b.tuser;
        }
        let u = &mut self.core_mut(core)?.engines[usize::from(e)];
        let q_s2m = u.s2m.q as u8;
        let o = u.step(&i);
        let mut act = false;
        // Read channel.
        if let Some((addr, last, cnt)) = le.rd {
            if o.m_axi_rready == 1 {
                act = true;
                le.rd = if cnt == last {
                    None
                } else {
                    Some((addr, last, cnt + 1))
                };
            }
        } else if o.m_axi_arvalid == 1 {
            act = true;
            le.rd = Some((o.m_axi_araddr, o.m_axi_arlen as u32, 0));
        }
        // Write channel: one INCR burst at a time (AW, its W beats, then B).
        if le.b_pending && o.m_axi_bready == 1 {
            le.b_pending = false;
            act = true;
        }
        if i.m_axi_awready == 1 && o.m_axi_awvalid == 1 {
            le.aw = Some((o.m_axi_awaddr, 0));
            act = true;
        } else if let Some((a, n)) = le.aw {
            if i.m_axi_wready == 1 && o.m_axi_wvalid == 1 {
                let addr = a + u64::from(n) * BEAT;
                self.bus_write(core, e, q_s2m, addr, o.m_axi_wdata, o.m_axi_wstrb)?;
                if o.m_axi_wlast == 1 {
                    le.aw = None;
                    le.b_pending = true;
                } else {
                    le.aw = Some((a, n + 1));
                }
                act = true;
            }
        }
        // Stream loop-back.
        if i.s_axis_tvalid == 1 && o.s_axis_tready == 1 {
            le.fifo.pop_front();
            act = true;
        }
        if i.m_axis_tready == 1 && o.m_axis_tvalid == 1 {
            le.fifo.push_back(Beat {
                tdata: o.m_axis_tdata,
                tkeep: o.m_axis_tkeep,
                tlast: o.m_axis_tlast,
                tid: o.m_axis_tid,
                tuser: o.m_axis_tuser,
            });
            act = true;
        }
        // Errors the golden engine flags during this run end the run with a
        // typed error once the engine is quiet (the queue stays stopped, the
        // bytes already accepted land).
        let u = &self.core(core)?.engines[usize::from(e)];
        for (side, sr) in u.regs.side.iter().enumerate() {
            if le.failed.is_none() && sr.err_status & !le.err0[side] != 0 {
                let q = sr.q.iter().position(|r| r.stopped).unwrap_or(0);
                le.failed = Some(SystemError::Dma {
                    core: core.0,
                    engine: e,
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
        if act {
            le.last_activity = self.cycles;
        }
        Ok(act)
    }

    /// Whether a live engine has finished every M2S queue and is idle.
    fn engine_drained(u: &Udma, le: &LiveEngine) -> bool {
        let m = &u.regs.side[0];
        u.m2s.state == M_IDLE
            && u.s2m.state == S_IDLE
            && !u.m2s.pkt_open
            && !u.s2m.in_pkt
            && le.fifo.is_empty()
            && le.rd.is_none()
            && le.aw.is_none()
            && !le.b_pending
            && m.q.iter().all(|r| r.head.offset == r.tail.offset)
    }

    /// Cycle mode: one Q7 attempt and one golden clock per live engine per cycle.
    pub(crate) fn run_cycle(&mut self) -> Result<(), SystemError> {
        let start = self.cycles;
        let mut live: BTreeMap<(u16, u8), LiveEngine> = BTreeMap::new();
        loop {
            let a = self.q7_pass(false)?;
            // Load engines whose queues got a pair ready.
            let ready: Vec<(u16, u8)> = self
                .active
                .iter()
                .filter(|&&(c, e, q)| !live.contains_key(&(c, e)) && self.pair_ready(c, e, q))
                .map(|&(c, e, _)| (c, e))
                .collect();
            for (c, e) in ready {
                if let std::collections::btree_map::Entry::Vacant(v) = live.entry((c, e)) {
                    v.insert(self.go_live(CoreId(c), e)?);
                }
            }
            let mut b = false;
            for (k, mut le) in std::mem::take(&mut live) {
                b |= self.clock_engine(CoreId(k.0), k.1, &mut le)?;
                let quiet = le.fifo.is_empty()
                    && le.rd.is_none()
                    && le.aw.is_none()
                    && !le.b_pending
                    && self.cycles - le.last_activity > QUIET_CYCLES;
                if let Some(err) = le.failed.take_if(|_| quiet) {
                    return Err(err);
                }
                let u = &self.core(CoreId(k.0))?.engines[usize::from(k.1)];
                if Self::engine_drained(u, &le) {
                    if self.trace_on {
                        self.trace_heads(CoreId(k.0), k.1);
                    }
                } else {
                    live.insert(k, le);
                }
            }
            self.cycles += 1;
            self.timing.now = self.timing.now.max(self.cycles * CYCLE_PS);
            let cores = &self.cores;
            self.active.retain(|&(c, e, q)| {
                live.contains_key(&(c, e)) || {
                    let k = &cores[usize::from(c)];
                    k.queue(e, q, 0).pending() > 0 && k.queue(e, q, 1).pending() > 0
                }
            });
            if self.pending.is_empty() && live.is_empty() {
                return self.check_idle();
            }
            if !a && live.is_empty() {
                return Err(self.diagnose());
            }
            if !a && !b {
                if let Some((&(c, e), _)) = live
                    .iter()
                    .find(|(_, le)| self.cycles - le.last_activity > STALL_CYCLES)
                {
                    let r = &self.cores[usize::from(c)].engines[usize::from(e)].regs;
                    let q = r.side[0]
                        .q
                        .iter()
                        .position(|r| r.head.offset != r.tail.offset)
                        .unwrap_or(0);
                    let (m, s) = (r.side[0].q[q].used(), r.side[1].q[q].used());
                    return Err(SystemError::Stalled {
                        core: c,
                        engine: e,
                        queue: q as u8,
                        m2s: m,
                        s2m: s,
                    });
                }
            }
            if self.cycles - start > self.max_cycles {
                return Err(SystemError::Timeout {
                    cycles: self.cycles - start,
                });
            }
        }
    }

    fn trace_heads(&mut self, core: CoreId, e: u8) {
        let t = self.cycles * CYCLE_PS;
        let c = &self.cores[usize::from(core.0)];
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
        self.trace.extend(evs);
    }
}
