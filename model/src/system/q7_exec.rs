//! Cycle mode's Q7 executor: the Q7 programs queued by `rdma_desc_start` and
//! `wait_sem` (`Q7Op`) played cycle by cycle as AXI4-Lite transactions on
//! the Q7 port ([`crate::pair::q7port::Q7Port`], twin of
//! `rtl/sb2sb_q7_port.sv`) of the core each access targets, as firmware would
//! issue them and as the `leg` environment (`pair::stim`) does:
//!
//! - every MMIO write of a program is routed with [`map::route_address`]: the
//!   destination core's Q7 port carries it, at the core-local 32-bit address
//!   (the RX Q7's S2M doorbells and its right_push of the TX go-semaphore
//!   enter the TX core's port, as in `pair::stim`);
//! - a write waits for AWREADY/WREADY and its B, a read for ARREADY and its
//!   R (BREADY/RREADY always high); a non-OKAY response ends the run with
//!   [`SystemError::Q7Resp`] naming the port's core, the address and the
//!   response;
//! - before a doorbell or a broadcast write is offered, the host-side checks
//!   of fast mode (`SystemState::doorbell_check`, `SystemState::bcast_check`) run
//!   (typed errors before a register is touched); after its B, the same
//!   bookkeeping as fast mode (queue marked active, DB_OVERFLOW check, trace
//!   events stamped with the cycle of the B);
//! - a semaphore wait (left_pop, `wait_sem`) is an EVT_SEM `SEM_READ` poll
//!   (one read, then [`POLL_GAP`] cycles before the next while the value is
//!   below the target) followed by a `SEM_DECR` write of the target, as
//!   firmware would do it through the port (the port has no wait port);
//! - the completion-ring poll stays a direct load of the ring words from the
//!   TX core's descriptor RAM (the RTL Q7 port answers memory reads with
//!   SLVERR; docs/decisions.md "Cycle-mode completion poll"), retried every
//!   [`POLL_GAP`] cycles.
//!
//! - the ring set-up programs `rdma_desc_gen` queued (`SystemState::setups`:
//!   queue and completion-ring CSR writes, descriptor and semaphore-constant
//!   stores, each a routed 32-bit write — the stores take the port's memory
//!   store master into the core's descriptor RAM) run first: no start or
//!   wait program offers an access until every set-up program of the run
//!   has finished (docs/decisions.md "Ring set-up program").
//!
//! Each queued `Q7Op` and each set-up program is one sequential program
//! (as fast mode runs each op on its own); one master per port, the ports'
//! programs taken in turn.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use crate::regs::axil::{AxilIn, AxilOut};
use crate::udma::regs::AXI_RESP_OKAY;

use super::bcast::BcastWrite;
use super::firmware::{port_wait, Q7Step};
use super::map::{self, Target};
use super::q7_master::AxilMaster;
use super::topology::DMA_ENGINES;
#[cfg(test)]
use super::System;
use super::{doorbell_of, CoreId, CycleExec, Q7Op, SystemError, SystemState};

/// Cycles between two polls of a Q7 program whose poll found its target not
/// yet reached (project-defined, docs/decisions.md "Cycle-mode Q7 polls").
pub const POLL_GAP: u64 = 16;

/// One AXI4-Lite transaction a Q7 program made on a core's Q7 port
/// ([`super::CycleExec::q7_log`], recorded when `trace_on`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Q7Txn {
    /// Cycle ([`super::CycleExec::cycles`]) after the clock edge of the B / R handshake.
    pub cycle: u64,
    /// Cycle at which AWVALID/WVALID or ARVALID was first raised.
    pub issued: u64,
    /// The core whose Q7 port carried it.
    pub port: u16,
    /// The core whose Q7 program issued it.
    pub by: u16,
    /// Core-local address on the port.
    pub addr: u32,
    pub write: bool,
    /// Write data, or the read data.
    pub data: u32,
    /// BRESP / RRESP.
    pub resp: u32,
    /// The program that made it: `setup` (an `rdma_desc_gen` ring set-up),
    /// `rx_arm`, `tx_launch`, `wait`.
    pub prog: &'static str,
}

/// What the host does once a write of a program has its OKAY B.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum WrKind {
    /// A per-engine `*DRTP_inc` doorbell.
    Doorbell {
        engine: u8,
        queue: u8,
        side: u8,
        n: u32,
    },
    /// A write into the broadcast block (checked when offered).
    Bcast { offset: u32 },
    /// A write into the EVT_SEM window (traced).
    Evt { offset: u32 },
    /// Any other register or memory store.
    Plain,
}

/// One step of a program.
#[derive(Debug, Clone, PartialEq)]
enum PortStep {
    Write {
        port: u16,
        addr: u32,
        data: u32,
        kind: WrKind,
    },
    /// Read until the value (as i32) is at least `min`.
    Poll { port: u16, addr: u32, min: i32 },
    /// Completion-ring poll (direct load, [`SystemState::poll_completions`]).
    Comp { queue: u8, engines: Vec<(u8, u64)> },
}

/// Where a program came from.
#[derive(Debug, Clone, PartialEq)]
enum Src {
    /// A start or wait program ([`SystemState::pending`]).
    Op(Q7Op),
    /// The set-up program of an `rdma_desc_gen` (its id in [`SystemState::setups`]).
    Setup(u64),
}

impl Src {
    /// The program's name in [`Q7Txn::prog`].
    fn name(&self) -> &'static str {
        match self {
            Src::Setup(_) => "setup",
            Src::Op(Q7Op::RxArm { .. }) => "rx_arm",
            Src::Op(Q7Op::TxLaunch { .. }) => "tx_launch",
            Src::Op(Q7Op::Wait { .. }) => "wait",
            Src::Op(Q7Op::PollComp { .. }) => "poll_comp",
            Src::Op(Q7Op::Host { what, .. }) => what,
        }
    }
}

#[derive(Debug, Clone)]
struct Prog {
    src: Src,
    by: CoreId,
    steps: VecDeque<PortStep>,
    /// No access before this cycle (poll gap).
    wait_until: u64,
    /// Cycle at which the last poll that found its target unmet was issued.
    failed_at: Option<u64>,
    /// Timeline: the cycle of its first access, of the end of its left_pop
    /// (the SEM_DECR's B), and its transactions.
    first: Option<u64>,
    popped: Option<u64>,
    txns: u32,
}

/// The transaction in flight on one port.
#[derive(Debug, Clone, Copy)]
struct Master {
    prog: usize,
    /// The Q7-side AXI4-Lite master carrying it.
    axil: AxilMaster,
    issued: u64,
    /// A broadcast write's check result.
    bcast: Option<BcastWrite>,
}

/// The executor of one cycle-mode run.
#[derive(Debug, Clone, Default)]
pub(crate) struct Q7Exec {
    progs: Vec<Option<Prog>>,
    masters: BTreeMap<u16, Master>,
    /// Ports found mid-transaction when the run started (an earlier run
    /// ended in an error): clocked with BREADY/RREADY high until idle.
    flush: BTreeSet<u16>,
    /// Last cycle in which anything could change a semaphore or a ring.
    pub last_change: u64,
    /// Set-up programs of this run not yet finished: while any is, no start
    /// or wait program issues an access.
    setups_left: usize,
}

/// Drive of a port without a transaction of a program.
const IDLE_DRIVE: AxilIn = AxilIn {
    awaddr: 0,
    awvalid: false,
    wdata: 0,
    wstrb: 0,
    wvalid: false,
    bready: true,
    araddr: 0,
    arvalid: false,
    rready: true,
};

impl Q7Exec {
    /// Ports whose core must be clocked this cycle.
    pub fn ports(&self) -> impl Iterator<Item = u16> + '_ {
        self.masters.keys().chain(self.flush.iter()).copied()
    }

    /// Whether a transaction is in flight on core `c`'s port.
    pub fn port_busy(&self, c: u16) -> bool {
        self.masters.contains_key(&c)
    }

    /// This cycle's AXI4-Lite drive of every port in [`Self::ports`].
    pub fn drives(&self) -> BTreeMap<u16, AxilIn> {
        let mut d: BTreeMap<u16, AxilIn> = self.flush.iter().map(|&c| (c, IDLE_DRIVE)).collect();
        for (&c, m) in &self.masters {
            d.insert(c, m.axil.drive());
        }
        d
    }

    /// Nothing can progress: no transaction in flight and every program
    /// waits on a poll that found its target unmet after the last change.
    pub fn stuck(&self) -> bool {
        self.masters.is_empty()
            && self.flush.is_empty()
            && self
                .progs
                .iter()
                .flatten()
                .all(|p| p.failed_at.is_some_and(|c| c > self.last_change))
    }
}

impl CycleExec {
    /// The step of an MMIO write by the Q7 of `from` to routed address `soc`.
    fn q7_write_step(
        &self,
        st: &SystemState,
        from: CoreId,
        soc: u64,
        data: u32,
    ) -> Result<PortStep, SystemError> {
        let (to, off) = map::route_address(&st.topo, from, soc)?;
        // An offset nothing of the core serves goes to the port, which
        // answers SLVERR (fast mode's `mmio_write` gives the same error).
        let decoded = match map::decode_core_offset(off, st.topo.sbuf_bytes_per_partition) {
            Err(SystemError::Unmapped { .. }) => None,
            t => Some(t?),
        };
        let kind = match decoded {
            Some(Target::Udma { engine, offset }) => match doorbell_of(offset) {
                Some((side, queue)) => WrKind::Doorbell {
                    engine,
                    queue,
                    side,
                    n: data,
                },
                None => WrKind::Plain,
            },
            Some(Target::Bcast { offset }) => WrKind::Bcast { offset },
            Some(Target::EvtSem { offset }) => WrKind::Evt { offset },
            _ => WrKind::Plain,
        };
        Ok(PortStep::Write {
            port: to.0,
            addr: off as u32,
            data,
            kind,
        })
    }

    /// Wait ≥ `target` then take it: a `SEM_READ` poll and a `SEM_DECR` write on core `c`'s own port.
    fn q7_wait_steps(c: CoreId, sem: u8, target: i32) -> [PortStep; 2] {
        let w = port_wait(sem, target);
        [
            PortStep::Poll {
                port: c.0,
                addr: w.read as u32,
                min: w.min,
            },
            PortStep::Write {
                port: c.0,
                addr: w.decr as u32,
                data: w.data,
                kind: WrKind::Evt {
                    offset: (w.decr - map::CORE_EVT_SEM_BASE) as u32,
                },
            },
        ]
    }

    /// The port transactions of one step of a Q7 program by the Q7 of `by`
    /// (a Q7-local step is applied here, when the program is built).
    fn port_steps(
        &mut self,
        st: &mut SystemState,
        by: CoreId,
        step: &Q7Step,
        out: &mut VecDeque<PortStep>,
    ) -> Result<(), SystemError> {
        match step {
            Q7Step::ReadyFlag { .. } => {
                st.core_mut(by)?.q7_local(step);
            }
            Q7Step::WaitDec { sem, target } => out.extend(Self::q7_wait_steps(by, *sem, *target)),
            Q7Step::PollComp { queue, engines } => out.push_back(PortStep::Comp {
                queue: *queue,
                engines: engines.clone(),
            }),
            Q7Step::Csr { .. }
            | Q7Step::Store { .. }
            | Q7Step::Doorbell { .. }
            | Q7Step::Push { .. } => {
                for (soc, data) in step.words() {
                    out.push_back(self.q7_write_step(st, by, soc, data)?);
                }
            }
        }
        Ok(())
    }

    /// The port transactions of one queued op: its program from the one
    /// generator ([`SystemState::q7_program`], the program fast mode applies).
    fn q7_steps(
        &mut self,
        st: &mut SystemState,
        op: &Q7Op,
    ) -> Result<(CoreId, VecDeque<PortStep>), SystemError> {
        let (by, prog) = st.q7_program(op)?;
        let mut s = VecDeque::new();
        for step in &prog {
            self.port_steps(st, by, step, &mut s)?;
        }
        Ok((by, s))
    }

    /// The executor of a run over the queued programs.
    pub(crate) fn q7_exec(&mut self, st: &mut SystemState) -> Result<Q7Exec, SystemError> {
        let ops: Vec<Q7Op> = st.pending.iter().cloned().collect();
        let mut x = Q7Exec {
            last_change: self.cycles,
            ..Q7Exec::default()
        };
        // The set-up programs first: each access word by word, routed to
        // the Q7 port of the core it addresses.
        let setups: Vec<(u64, CoreId, Vec<Q7Step>)> = st
            .setups
            .iter()
            .map(|s| (s.id, s.core, s.accesses.clone()))
            .collect();
        for (id, by, prog) in setups {
            let mut steps = VecDeque::new();
            for step in &prog {
                self.port_steps(st, by, step, &mut steps)?;
            }
            x.progs.push(Some(Prog {
                src: Src::Setup(id),
                by,
                steps,
                wait_until: 0,
                failed_at: None,
                first: None,
                popped: None,
                txns: 0,
            }));
            x.setups_left += 1;
        }
        for op in ops {
            let (by, steps) = self.q7_steps(st, &op)?;
            x.progs.push(Some(Prog {
                src: Src::Op(op),
                by,
                steps,
                wait_until: 0,
                failed_at: None,
                first: None,
                popped: None,
                txns: 0,
            }));
        }
        x.flush = (0..st.cores.len() as u16)
            .filter(|&c| !st.cores[usize::from(c)].hw.q7.idle())
            .collect();
        Ok(x)
    }

    /// A program ran to its end: its op leaves the queue.
    fn q7_finish(&mut self, st: &mut SystemState, x: &mut Q7Exec, pi: usize) {
        if st.rec.is_some() {
            if let Some(p) = x.progs[pi].as_ref() {
                self.trace_prog(st, p);
            }
        }
        match x.progs[pi].take().map(|p| p.src) {
            Some(Src::Op(op)) => {
                if let Some(i) = st.pending.iter().position(|o| *o == op) {
                    st.pending.remove(i);
                }
            }
            Some(Src::Setup(id)) => {
                if let Some(i) = st.setups.iter().position(|s| s.id == id) {
                    st.setups.remove(i);
                }
                x.setups_left -= 1;
            }
            None => {}
        }
    }

    /// Before the clock: run the programs' local steps and offer the next
    /// access of each ready program on its idle target port. `Ok(true)` when
    /// a step completed.
    pub(crate) fn q7_issue(
        &mut self,
        st: &mut SystemState,
        x: &mut Q7Exec,
    ) -> Result<bool, SystemError> {
        let now = self.cycles;
        let n = x.progs.len();
        let mut progressed = false;
        x.flush.retain(|&c| !st.cores[usize::from(c)].hw.q7.idle());
        for k in 0..n {
            let pi = (now as usize + k) % n;
            while let Some(p) = x.progs[pi].as_ref() {
                if p.wait_until > now || x.masters.values().any(|m| m.prog == pi) {
                    break;
                }
                if x.setups_left > 0 && !matches!(p.src, Src::Setup(_)) {
                    break; // the ring set-up of the run comes first
                }
                let by = p.by;
                let Some(step) = p.steps.front().cloned() else {
                    self.q7_finish(st, x, pi);
                    progressed = true;
                    break;
                };
                if let PortStep::Write { port, .. } | PortStep::Poll { port, .. } = step {
                    if x.masters.contains_key(&port)
                        || x.flush.contains(&port)
                        || !st.cores[usize::from(port)].hw.q7.idle()
                    {
                        break; // the port is busy: offered next cycle
                    }
                }
                if let Some(p) = x.progs[pi].as_mut() {
                    p.first.get_or_insert(now);
                }
                match step {
                    PortStep::Comp { queue, engines } => {
                        if st.poll_completions(by, queue, &engines)? {
                            let p = x.progs[pi].as_mut().expect("prog");
                            p.steps.pop_front();
                            progressed = true;
                        } else {
                            let p = x.progs[pi].as_mut().expect("prog");
                            p.wait_until = now + POLL_GAP;
                            p.failed_at = Some(now);
                            break;
                        }
                    }
                    PortStep::Write {
                        port,
                        addr,
                        data,
                        kind,
                    } => {
                        let to = CoreId(port);
                        let bcast = match kind {
                            WrKind::Doorbell {
                                engine,
                                queue,
                                side,
                                n,
                            } => {
                                st.doorbell_check(to, engine, queue, side, n)?;
                                None
                            }
                            WrKind::Bcast { offset } => Some(st.bcast_check(to, offset, data)?),
                            _ => None,
                        };
                        x.masters.insert(
                            port,
                            Master {
                                prog: pi,
                                axil: AxilMaster::write(addr, data),
                                issued: now,
                                bcast,
                            },
                        );
                        break;
                    }
                    PortStep::Poll { port, addr, .. } => {
                        x.masters.insert(
                            port,
                            Master {
                                prog: pi,
                                axil: AxilMaster::read(addr),
                                issued: now,
                                bcast: None,
                            },
                        );
                        break;
                    }
                }
            }
        }
        Ok(progressed)
    }

    /// After the clock edge (`self.cycles` already advanced): the handshakes
    /// of this cycle on every port with a transaction, from the ports'
    /// outputs `outs`. `Ok(true)` when a transaction completed a step.
    pub(crate) fn q7_retire(
        &mut self,
        st: &mut SystemState,
        x: &mut Q7Exec,
        outs: &BTreeMap<u16, AxilOut>,
    ) -> Result<bool, SystemError> {
        let mut progressed = false;
        let ports: Vec<u16> = x.masters.keys().copied().collect();
        for port in ports {
            let Some(o) = outs.get(&port) else { continue };
            let m = x.masters.get_mut(&port).expect("master");
            let Some((resp, data)) = m.axil.observe(o) else {
                continue;
            };
            let m = x.masters.remove(&port).expect("master");
            let pi = m.prog;
            let p = x.progs[pi].as_mut().expect("prog");
            p.txns += 1;
            let (addr, write) = (m.axil.addr, m.axil.write);
            let evt = u64::from(addr).wrapping_sub(map::CORE_EVT_SEM_BASE);
            if write
                && evt < map::CORE_EVT_SEM_BYTES
                && matches!(map::sem_reg(evt as u32), Some(map::SemReg::Decr(_)))
            {
                p.popped.get_or_insert(self.cycles);
            }
            let (by, prog) = (p.by, p.src.name());
            if st.trace_on {
                self.q7_log.push(Q7Txn {
                    cycle: self.cycles,
                    issued: m.issued,
                    port,
                    by: by.0,
                    addr,
                    write,
                    data,
                    resp,
                    prog,
                });
            }
            if resp != AXI_RESP_OKAY {
                return Err(SystemError::Q7Resp {
                    core: port,
                    by: by.0,
                    addr,
                    access: if write { "write" } else { "read" },
                    resp,
                });
            }
            let to = CoreId(port);
            let step = x.progs[pi]
                .as_ref()
                .and_then(|p| p.steps.front().cloned())
                .expect("step");
            match step {
                PortStep::Write { kind, .. } => {
                    self.q7_write_landed(st, by, to, kind, m.bcast)?;
                    x.progs[pi].as_mut().expect("prog").steps.pop_front();
                    progressed = true;
                }
                PortStep::Poll { min, .. } => {
                    let p = x.progs[pi].as_mut().expect("prog");
                    if data as i32 >= min {
                        p.steps.pop_front();
                        progressed = true;
                    } else {
                        p.failed_at = Some(m.issued);
                        p.wait_until = self.cycles + POLL_GAP;
                    }
                }
                PortStep::Comp { .. } => {}
            }
            if x.progs[pi].as_ref().is_some_and(|p| p.steps.is_empty()) {
                self.q7_finish(st, x, pi);
            }
        }
        Ok(progressed)
    }
}

impl CycleExec {
    /// After the OKAY B of a program's write on the port of `to`: the same
    /// bookkeeping as fast mode (a doorbell's queue marked active and its
    /// DB_OVERFLOW check, the broadcast trigger's doorbells and log, the
    /// semaphore trace).
    fn q7_write_landed(
        &mut self,
        st: &mut SystemState,
        by: CoreId,
        to: CoreId,
        kind: WrKind,
        bcast: Option<BcastWrite>,
    ) -> Result<(), SystemError> {
        match (kind, bcast) {
            (
                WrKind::Doorbell {
                    engine,
                    queue,
                    side,
                    ..
                },
                _,
            ) => st.doorbell_landed(by, to, engine, queue, side)?,
            (
                WrKind::Bcast { offset },
                Some(BcastWrite::Trigger {
                    queue,
                    side,
                    n,
                    mask,
                }),
            ) => {
                for e in (0..DMA_ENGINES).filter(|e| mask >> e & 1 == 1) {
                    st.doorbell_landed(by, to, e, queue, side)?;
                }
                st.bcast_logged(by, to, offset, mask, n)?;
            }
            (WrKind::Evt { offset }, _) => st.trace_sem(to, offset),
            _ => {}
        }
        Ok(())
    }

    /// A finished Q7 program on the timeline.
    fn trace_prog(&mut self, st: &mut SystemState, p: &Prog) {
        use crate::trace::{Q7Role, Track};
        use serde_json::json;
        let ps = crate::clock::cycles_to_ps;
        let now = self.cycles;
        let t0 = p.first.unwrap_or(now);
        let core = p.by.0;
        let txns = json!({"transactions": p.txns});
        let role = match &p.src {
            Src::Setup(id) => st
                .setups
                .iter()
                .find(|s| s.id == *id)
                .map_or(Q7Role::Tx, |s| super::q7_role(s.role)),
            Src::Op(Q7Op::RxArm { .. }) => Q7Role::Rx,
            Src::Op(Q7Op::TxLaunch { .. } | Q7Op::PollComp { .. } | Q7Op::Host { .. }) => {
                Q7Role::Tx
            }
            Src::Op(Q7Op::Wait { .. }) => Q7Role::Wait,
        };
        let Some(r) = st.rec() else { return };
        let track = Track::Q7 { core, role };
        match &p.src {
            Src::Setup(_) => r.slice(track, "ring set-up", ps(t0), ps(now), txns),
            Src::Op(Q7Op::RxArm { tx, queue, engines, go_sem, .. }) => r.slice(
                track,
                "rx_arm",
                ps(t0),
                ps(now),
                json!({"tx_core": tx.0, "queue": queue, "engines": engines.len(), "go_sem": go_sem, "transactions": p.txns}),
            ),
            Src::Op(Q7Op::TxLaunch { queue, engines, go_sem, .. }) => super::fast::trace_tx_launch(
                r,
                core,
                (ps(t0), ps(p.popped.unwrap_or(now)), ps(now)),
                *queue,
                engines.len(),
                *go_sem,
            ),
            Src::Op(Q7Op::PollComp { queue, engines, .. }) => r.slice(
                track,
                "poll_comp",
                ps(t0),
                ps(now),
                json!({"queue": queue, "completions": engines.iter().map(|e| e.1).sum::<u64>()}),
            ),
            Src::Op(Q7Op::Wait { sem, target, .. }) => {
                super::fast::trace_wait(r, core, *sem, *target, (ps(t0), ps(now)))
            }
            Src::Op(Q7Op::Host { what, .. }) => r.slice(track, *what, ps(t0), ps(now), txns),
        }
    }
}

#[cfg(test)]
impl CycleExec {
    /// Test hook: one write by the Q7 of `by` at core-local `addr` of core
    /// `port`'s Q7 port, through the executor and the clocked port (no
    /// program queue, no DMA). Returns the cycles it took.
    pub(crate) fn q7_raw_write(
        &mut self,
        st: &mut SystemState,
        by: CoreId,
        port: u16,
        addr: u32,
        data: u32,
    ) -> Result<u64, SystemError> {
        let op = Q7Op::Wait {
            core: by,
            sem: 0,
            target: 0,
        };
        let mut x = Q7Exec {
            progs: vec![Some(Prog {
                src: Src::Op(op),
                by,
                steps: VecDeque::from([PortStep::Write {
                    port,
                    addr,
                    data,
                    kind: WrKind::Plain,
                }]),
                wait_until: 0,
                failed_at: None,
                first: None,
                popped: None,
                txns: 0,
            })],
            last_change: self.cycles,
            ..Q7Exec::default()
        };
        let c0 = self.cycles;
        let mut fabric = std::mem::take(&mut self.fabric);
        let mut outs = BTreeMap::new();
        let r = (|| {
            while x.progs[0].is_some() && self.cycles - c0 < 64 {
                self.q7_issue(st, &mut x)?;
                let cores: BTreeSet<u16> = x.ports().collect();
                outs.clear();
                self.clock_fabric(st, &cores, &mut fabric, &x.drives(), &mut outs)?;
                self.cycles += 1;
                self.q7_retire(st, &mut x, &outs)?;
            }
            Ok(self.cycles - c0)
        })();
        self.fabric = fabric;
        r
    }
}

#[cfg(test)]
impl System {
    /// Test hook: [`CycleExec::q7_raw_write`] on this system.
    pub(crate) fn q7_raw_write(
        &mut self,
        by: CoreId,
        port: u16,
        addr: u32,
        data: u32,
    ) -> Result<u64, SystemError> {
        self.cycle.q7_raw_write(&mut self.st, by, port, addr, data)
    }
}
