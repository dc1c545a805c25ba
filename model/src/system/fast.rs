//! Fast executor: Q7 programs and whole descriptor pairs, bytes moved with the
//! SIMD datapath; modeled time from the link model (fixed-point rates).
//! Also the pieces both executors share: descriptor fetch with the ring-id
//! check, address resolution, and the byte mover.

use std::collections::HashMap;

use crate::datapath;
use crate::evt_sem::regs::{EVT_SEM_SEM_DECR_BASE, EVT_SEM_SEM_INCR_BASE};
use crate::udma::desc::{M2sDesc, S2mDesc};

use super::link::{self, Ps};
use super::map::{self, Target};
use super::{CoreId, LegOp, Q7Op, System, SystemError, TraceEvent};

/// Fast-mode timing state.
#[derive(Debug, Clone, Default)]
pub struct Timing {
    /// Q7 clock (ps): advanced by Q7 programs and waits.
    pub now: Ps,
    /// When each semaphore last received an increment: (core, sem).
    pub sem_ready: HashMap<(u16, u8), Ps>,
    /// When each queue's doorbell landed: (core, engine, queue, side).
    pub queue_ready: HashMap<(u16, u8, u8, u8), Ps>,
    /// When each engine is free: (core, engine).
    pub engine_free: HashMap<(u16, u8), Ps>,
    /// Engines sharing a link in the current leg of (core, queue).
    pub share: HashMap<(u16, u8), u32>,
    /// Latest write landing time seen in this run.
    pub horizon: Ps,
    /// Q7 clock of each core in the current run (starts at `now`).
    pub q7: HashMap<u16, Ps>,
}

impl Timing {
    /// The Q7 clock of `core` in the current run.
    pub fn q7(&mut self, core: CoreId) -> &mut Ps {
        let now = self.now;
        self.q7.entry(core.0).or_insert(now)
    }
}

/// A descriptor pair ready to move: resolved source and destination.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Pair {
    pub m2s: M2sDesc,
    pub src: (CoreId, Target),
    pub dst: (CoreId, Target),
}

/// `target` advanced by `n` bytes (SBUF offset or descriptor RAM offset).
fn advance(t: Target, n: u32) -> Target {
    match t {
        Target::Sbuf { partition, offset } => Target::Sbuf {
            partition,
            offset: offset + n,
        },
        Target::Desc { offset } => Target::Desc { offset: offset + n },
        other => other,
    }
}

/// Apply a leg's operation; `stream`: the copy is one piece of a transfer
/// larger than the cache (non-temporal stores, `datapath::copy_streamed`).
fn apply(op: &LegOp, dst: &mut [u8], src: &[u8], stream: bool) -> Result<(), SystemError> {
    match op {
        LegOp::Copy if stream => {
            datapath::copy_streamed(dst, src).map_err(|e| SystemError::Reduce(e.to_string()))
        }
        LegOp::Copy => datapath::copy(dst, src).map_err(|e| SystemError::Reduce(e.to_string())),
        LegOp::Reduce(f) => f(dst, src).map_err(SystemError::Reduce),
    }
}

impl System {
    /// Resolve a descriptor address issued by an engine of `from`.
    pub(crate) fn resolve(&self, from: CoreId, soc: u64) -> Result<(CoreId, Target), SystemError> {
        let (c, off) = map::route_address(&self.topo, from, soc)?;
        Ok((
            c,
            map::decode_core_offset(off, self.topo.sbuf_bytes_per_partition)?,
        ))
    }

    fn fetch(&self, core: CoreId, e: u8, q: u8, side: u8) -> Result<[u8; 16], SystemError> {
        let qs = self.core(core)?.queue(e, q, side);
        let a = qs.rbp + u64::from(qs.head.offset) * 16;
        let (c, t) = self.resolve(core, a)?;
        let Target::Desc { offset } = t else {
            return Err(SystemError::Dma {
                core: core.0,
                engine: e,
                queue: q,
                rule: format!("ring base {a:#x} is not descriptor RAM"),
            });
        };
        let mut b = [0u8; 16];
        self.core(c)?.desc.read(offset, &mut b);
        Ok(b)
    }

    /// Fetch the next M2S/S2M pair of (core, engine, queue), checking ring ids
    /// (PREF_RING_ID, PUBLIC-FACTS §1) and the 1:1 pairing rule.
    pub(crate) fn fetch_pair(&self, core: CoreId, e: u8, q: u8) -> Result<Pair, SystemError> {
        let c = self.core(core)?;
        let (hm, hs) = (c.queue(e, q, 0).head, c.queue(e, q, 1).head);
        let m2s = M2sDesc::decode(&self.fetch(core, e, q, 0)?).map_err(SystemError::Desc)?;
        let s2m = S2mDesc::decode(&self.fetch(core, e, q, 1)?).map_err(SystemError::Desc)?;
        for (side, want, got, slot) in [
            (0u8, hm.ring_id, m2s.ring_id, hm.offset),
            (1, hs.ring_id, s2m.ring_id, hs.offset),
        ] {
            if want != got {
                return Err(SystemError::RingId {
                    core: core.0,
                    engine: e,
                    queue: q,
                    side,
                    slot,
                    expected: want,
                    found: got,
                });
            }
        }
        if m2s.len != s2m.len {
            return Err(SystemError::Dma {
                core: core.0,
                engine: e,
                queue: q,
                rule: format!(
                    "M2S length {} differs from S2M length {} (one packet per descriptor pair)",
                    m2s.len, s2m.len
                ),
            });
        }
        Ok(Pair {
            m2s,
            src: self.resolve(core, m2s.buf_ptr)?,
            dst: self.resolve(core, s2m.buf1_ptr)?,
        })
    }

    /// Move `n` bytes of a pair starting `skip` bytes into it, as engine `e`
    /// of `core`; `stream`: part of a transfer larger than the cache.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn move_bytes(
        &mut self,
        core: CoreId,
        e: u8,
        q: u8,
        p: &Pair,
        skip: u32,
        n: u32,
        stream: bool,
    ) -> Result<(), SystemError> {
        let (sc, st) = (p.src.0, advance(p.src.1, skip));
        let (dc, dt) = (p.dst.0, advance(p.dst.1, skip));
        let op = if self.rx_ops.is_empty() {
            LegOp::Copy
        } else {
            self.rx_ops
                .get(&(core.0, e, q))
                .cloned()
                .unwrap_or_default()
        };
        let dma_err = |rule: &str| SystemError::Dma {
            core: core.0,
            engine: e,
            queue: q,
            rule: rule.to_string(),
        };
        let len = n as usize;
        match (st, dt) {
            (
                Target::Sbuf {
                    partition: sp,
                    offset: so,
                },
                Target::Sbuf {
                    partition: dp,
                    offset: doff,
                },
            ) => {
                let (so, doff) = (so as usize, doff as usize);
                self.core(sc)?.sbuf.check(sp, so as u64, n.into())?;
                self.core(dc)?.sbuf.check(dp, doff as u64, n.into())?;
                let mut dpart = self.core_mut(dc)?.sbuf.take(dp);
                let r = if sc == dc && sp == dp {
                    match &op {
                        LegOp::Copy => {
                            dpart.copy_within(so..so + len, doff);
                            Ok(())
                        }
                        LegOp::Reduce(_) => {
                            let tmp = dpart[so..so + len].to_vec();
                            apply(&op, &mut dpart[doff..doff + len], &tmp, false)
                        }
                    }
                } else {
                    match self.core(sc)?.sbuf.slice(sp, so as u64, n.into())? {
                        Some(s) => apply(&op, &mut dpart[doff..doff + len], s, stream),
                        None => apply(&op, &mut dpart[doff..doff + len], &vec![0u8; len], false),
                    }
                };
                self.core_mut(dc)?.sbuf.put_back(dp, dpart);
                r
            }
            (_, Target::EvtSem { offset }) => {
                if !n.is_multiple_of(4) || !offset.is_multiple_of(4) {
                    return Err(dma_err(
                        "a write into the EVT_SEM window must cover whole 4-byte registers",
                    ));
                }
                let mut b = vec![0u8; len];
                self.read_target(sc, st, &mut b)
                    .map_err(|_| dma_err("semaphore source not readable"))?;
                self.evt_sem_write(dc, e, offset, &b)
            }
            (_, dt) => {
                let mut tmp = vec![0u8; len];
                self.read_target(sc, st, &mut tmp)?;
                match dt {
                    Target::Sbuf { partition, offset } => {
                        let s = self.core_mut(dc)?.sbuf.slice_mut(
                            partition,
                            offset.into(),
                            n.into(),
                        )?;
                        apply(&op, s, &tmp, false)
                    }
                    Target::Desc { offset } => {
                        self.core_mut(dc)?.desc.write(offset, &tmp);
                        Ok(())
                    }
                    _ => Err(dma_err(
                        "DMA writes into CSR or register space are not modeled",
                    )),
                }
            }
        }
    }

    /// A DMA write of whole 4-byte registers into the EVT_SEM window of `c`:
    /// SEM_INCR through the hardware increment port of engine `e` (one port
    /// per DMA engine), anything else through the AXI4-Lite slave.
    pub(crate) fn evt_sem_write(
        &mut self,
        c: CoreId,
        e: u8,
        offset: u32,
        bytes: &[u8],
    ) -> Result<(), SystemError> {
        for (k, w) in bytes.chunks_exact(4).enumerate() {
            let off = offset + 4 * k as u32;
            let v = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
            let core = self.core_mut(c)?;
            if (EVT_SEM_SEM_INCR_BASE..EVT_SEM_SEM_DECR_BASE).contains(&off) {
                core.sem_inc(&[(
                    usize::from(e),
                    ((off - EVT_SEM_SEM_INCR_BASE) / 4) as u8,
                    v as i32,
                )]);
            } else {
                core.evt_write(off, v)?;
            }
            self.trace_sem(c, off);
        }
        Ok(())
    }

    fn read_target(&self, c: CoreId, t: Target, out: &mut [u8]) -> Result<(), SystemError> {
        match t {
            Target::Sbuf { partition, offset } => {
                self.core(c)?.sbuf.read(partition, offset.into(), out)
            }
            Target::Desc { offset } => {
                self.core(c)?.desc.read(offset, out);
                Ok(())
            }
            _ => Err(SystemError::Unmapped { offset: 0 }),
        }
    }

    /// Complete a pair: advance both heads, count, trace.
    pub(crate) fn complete_pair(
        &mut self,
        core: CoreId,
        e: u8,
        q: u8,
        bytes: u32,
        t: Ps,
    ) -> Result<(), SystemError> {
        let c = self.core_mut(core)?;
        let s2m_offset = c.queue(e, q, 1).head.offset;
        for side in [0u8, 1] {
            let qs = c.queue_mut(e, q, side);
            qs.head = qs.head.advance(1, qs.rl);
            qs.desc_done = qs.desc_done.wrapping_add(1);
            qs.bytes += u64::from(bytes);
        }
        self.write_completion(core, e, q, bytes, s2m_offset)?;
        if self.trace_on {
            let c = self.core(core)?;
            let (m, s) = (
                super::core::pack_pos(c.queue(e, q, 0).head),
                super::core::pack_pos(c.queue(e, q, 1).head),
            );
            self.trace.push(TraceEvent::Desc {
                t,
                core: core.0,
                engine: e,
                queue: q,
                m2s_head: m,
                s2m_head: s,
                bytes,
            });
        }
        Ok(())
    }

    /// Whether (core, engine, queue) has a pair ready.
    pub(crate) fn pair_ready(&self, core: u16, e: u8, q: u8) -> bool {
        let c = &self.cores[usize::from(core)];
        c.queue(e, q, 0).pending() > 0 && c.queue(e, q, 1).pending() > 0
    }

    /// Try one Q7 program; `Ok(true)` when it ran (it is then removed).
    pub(crate) fn try_q7(&mut self, op: &Q7Op, fast: bool) -> Result<bool, SystemError> {
        let p = self.topo.links;
        match op {
            Q7Op::RxArm {
                core,
                tx,
                queue,
                engines,
                go_sem,
            } => {
                let txl = self.topo.loc(*tx)?;
                self.core_mut(*core)?.ready_to_receive_remote = 0;
                let lat = link::ns(p.link(self.topo.link_class(*core, *tx)?).latency_ns);
                for (e, t) in self.q7_doorbells(*core, *tx, *queue, 1, engines, lat)? {
                    self.timing.queue_ready.insert((tx.0, e, *queue, 1), t);
                }
                // right_push: signal the TX go-semaphore (a routed INCR write).
                let a = self.topo.fold(
                    *core,
                    *tx,
                    map::core_local(txl.core, map::sem_incr_offset(*go_sem)),
                )?;
                *self.timing.q7(*core) += link::ns(p.mmio_ns);
                self.mmio_write(*core, a, 1)?;
                let t = *self.timing.q7(*core) + lat;
                self.timing.sem_ready.insert((tx.0, *go_sem), t);
                Ok(true)
            }
            Q7Op::TxLaunch {
                core,
                queue,
                engines,
                go_sem,
            } => {
                // left_pop: wait go ≥ 1 and take it.
                if !self.core_mut(*core)?.sem_wait_ge_dec(*go_sem, 1) {
                    return Ok(false);
                }
                self.trace_sem(*core, 0x1000 + u32::from(*go_sem) * 4);
                if fast {
                    let r = self
                        .timing
                        .sem_ready
                        .get(&(core.0, *go_sem))
                        .copied()
                        .unwrap_or(0);
                    let c = self.timing.q7(*core);
                    *c = (*c).max(r);
                }
                self.timing
                    .share
                    .insert((core.0, *queue), engines.len() as u32);
                for (e, t) in self.q7_doorbells(*core, *core, *queue, 0, engines, 0)? {
                    self.timing.queue_ready.insert((core.0, e, *queue, 0), t);
                }
                Ok(true)
            }
            Q7Op::PollComp {
                core,
                queue,
                engines,
            } => self.poll_completions(*core, *queue, engines),
            Q7Op::Wait { core, sem, target } => {
                if !self.core_mut(*core)?.sem_wait_ge_dec(*sem, *target) {
                    return Ok(false);
                }
                self.trace_sem(*core, 0x1000 + u32::from(*sem) * 4);
                if fast {
                    let r = self
                        .timing
                        .sem_ready
                        .get(&(core.0, *sem))
                        .copied()
                        .unwrap_or(0);
                    let c = self.timing.q7(*core);
                    *c = (*c).max(r);
                }
                Ok(true)
            }
        }
    }

    /// Run every ready Q7 program once; `Ok(true)` if any ran.
    pub(crate) fn q7_pass(&mut self, fast: bool) -> Result<bool, SystemError> {
        let mut progressed = false;
        let mut i = 0;
        while i < self.pending.len() {
            let op = self.pending[i].clone();
            if self.try_q7(&op, fast)? {
                self.pending.remove(i);
                progressed = true;
            } else {
                i += 1;
            }
        }
        Ok(progressed)
    }

    /// Execute every ready descriptor pair in full; `Ok(true)` if any moved.
    fn pump_fast(&mut self) -> Result<bool, SystemError> {
        let mut progressed = false;
        let p = self.topo.links;
        let keys: Vec<_> = self.active.iter().copied().collect();
        // Pairs ready in this pass: with the length of the pair at hand, an
        // estimate of the bytes about to move. When it exceeds the streaming
        // threshold the copies stream (non-temporal stores): the
        // destinations of a 28 MiB leg would otherwise evict the sources
        // still to be read (docs/performance.md).
        let ready: u64 = keys
            .iter()
            .map(|&(c, e, q)| {
                let k = &self.cores[usize::from(c)];
                u64::from(k.queue(e, q, 0).pending().min(k.queue(e, q, 1).pending()))
            })
            .sum();
        for (core, e, q) in keys {
            let cid = CoreId(core);
            while self.pair_ready(core, e, q) {
                let pair = self.fetch_pair(cid, e, q)?;
                let stream =
                    ready * u64::from(pair.m2s.len) >= datapath::copy::STREAM_THRESHOLD as u64;
                self.move_bytes(cid, e, q, &pair, 0, pair.m2s.len, stream)?;
                // Timing: the engine streams at its share of the link.
                let class = self.topo.link_class(cid, pair.dst.0)?;
                let share = self
                    .timing
                    .share
                    .get(&(core, q))
                    .copied()
                    .unwrap_or(1)
                    .max(1);
                let rate = (link::aggregate_rate(&p, class, share) / link::Rate::from_num(share))
                    .max(link::Rate::DELTA);
                let ready = [0u8, 1]
                    .iter()
                    .map(|s| {
                        self.timing
                            .queue_ready
                            .get(&(core, e, q, *s))
                            .copied()
                            .unwrap_or(0)
                    })
                    .max()
                    .unwrap_or(0);
                let free = self
                    .timing
                    .engine_free
                    .get(&(core, e))
                    .copied()
                    .unwrap_or(0);
                let start = free.max(ready);
                let end = start
                    + link::ns(p.desc_overhead_ns)
                    + link::transfer_ps(pair.m2s.len.into(), rate);
                self.timing.engine_free.insert((core, e), end);
                let land = end + link::ns(p.link(class).latency_ns);
                self.timing.horizon = self.timing.horizon.max(land);
                if let Target::EvtSem { offset } = pair.dst.1 {
                    let sem = ((offset >> 2) & 0xFF) as u8;
                    let r = self
                        .timing
                        .sem_ready
                        .entry((pair.dst.0 .0, sem))
                        .or_insert(0);
                    *r = (*r).max(land);
                }
                self.complete_pair(cid, e, q, pair.m2s.len, land)?;
                progressed = true;
            }
        }
        let cores = &self.cores;
        self.active.retain(|&(c, e, q)| {
            let k = &cores[usize::from(c)];
            k.queue(e, q, 0).pending() > 0 && k.queue(e, q, 1).pending() > 0
        });
        Ok(progressed)
    }

    /// Fast mode: alternate Q7 programs and descriptor execution until idle.
    pub(crate) fn run_fast(&mut self) -> Result<(), SystemError> {
        self.timing.horizon = self.timing.now;
        self.timing.q7.clear();
        loop {
            let a = self.q7_pass(true)?;
            let b = self.pump_fast()?;
            if self.pending.is_empty() {
                let q7 = self.timing.q7.values().copied().max().unwrap_or(0);
                self.timing.now = self.timing.now.max(self.timing.horizon).max(q7);
                return self.check_idle();
            }
            if !a && !b {
                return Err(self.diagnose());
            }
        }
    }
}
