//! The broadcast doorbell in front of a core's DMA engines (seed 001 §4.4,
//! HIGH for the log `Trigger DMA; sdma_bcast_base = 0x%08x, trigger addr =
//! 0x%08x, mask = 0x%08x n_desc=%d`): one tail-increment write to the
//! broadcast doorbell advances the tails of every queue group the mask
//! selects, launching a multi-engine move with one trigger. The NCFW hands the
//! Q7 the addresses as `dma_apb_bcast { m2s_tail_ptr, s2m_tail_ptr, mask }`
//! ([`DmaApbBcast`]).
//!
//! Register block (project-defined, docs/decisions.md; the seed gives the
//! struct and the log, no offsets): at core offset [`map::CORE_BCAST_BASE`], per queue
//! `q` a 16-byte group at `q × 0x10`:
//!
//! | offset | register | access |
//! | --- | --- | --- |
//! | `+0x0` | M2S_MASK: engines `[15:0]` whose M2S queue `q` the trigger advances | RW |
//! | `+0x4` | M2S_TAIL_INC: advance those M2S tails by wdata `[23:0]` | WO |
//! | `+0x8` | S2M_MASK | RW |
//! | `+0xC` | S2M_TAIL_INC | WO |
//!
//! A trigger is all-or-nothing: every selected engine's queue is checked
//! (ring configured, free space, PUBLIC-FACTS §1) before any tail moves; the
//! first refusal is a typed error naming the engine. Both doorbell paths (the
//! per-engine `*DRTP_inc` and this one) end in `SystemState::ring_doorbell`, the
//! one doorbell decode of the system model, so fast and cycle mode see the
//! same tails.

use crate::udma::regs::{
    q_addr, Q_RTP_INC_INC, UDMA_ERR_DB_OVERFLOW, UDMA_NUM_QUEUES, UDMA_Q_RTP_INC,
};

use super::firmware::{self, Q7Step};
use super::map;
use super::topology::{CoreId, DMA_ENGINES};
use super::{SystemError, SystemState, TraceEvent};

pub use crate::pair::regs::{BCAST_MASK, BCAST_Q_STRIDE, BCAST_SIDE_STRIDE, BCAST_TAIL_INC};

/// Offset inside the block of (queue, side, register).
pub const fn bcast_reg(queue: u8, side: u8, reg: u32) -> u32 {
    queue as u32 * BCAST_Q_STRIDE + side as u32 * BCAST_SIDE_STRIDE + reg
}

/// How `rdma_desc_start` rings the doorbells of its engines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Doorbells {
    /// One broadcast trigger per group of engines with the same descriptor
    /// count (one trigger for a balanced leg such as seed 001 §8).
    #[default]
    Broadcast,
    /// One `*DRTP_inc` write per engine.
    PerEngine,
}

/// The NCFW ring-channel doorbell addresses (seed 001 §4.4, CARRIED struct):
/// routed SoC addresses of the M2S and S2M broadcast triggers of one queue,
/// and the engine mask.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct DmaApbBcast {
    /// The TX M2S tail-inc broadcast doorbell (SoC address).
    pub m2s_tail_ptr: u64,
    /// The RX S2M tail-inc broadcast doorbell (SoC address).
    pub s2m_tail_ptr: u64,
    /// The broadcast queue-group mask (one bit per engine).
    pub mask: u32,
}

/// One broadcast trigger as the firmware logs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Trigger {
    /// Issuing core.
    pub from: u16,
    /// `sdma_bcast_base`: SoC address of the block (low 32 bits logged).
    pub sdma_bcast_base: u64,
    /// `trigger addr`.
    pub trigger_addr: u64,
    /// `mask`.
    pub mask: u32,
    /// `n_desc`.
    pub n_desc: u32,
}

/// A checked write into the broadcast block ([`SystemState::bcast_check`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BcastWrite {
    /// MASK of (queue, side).
    Mask { queue: u8, side: u8, mask: u16 },
    /// TAIL_INC of (queue, side): `n` descriptors on every engine of `mask`.
    Trigger {
        queue: u8,
        side: u8,
        n: u32,
        mask: u16,
    },
}

impl Trigger {
    /// The firmware's log line (seed 001 §4.4, DRAM 0x47f4).
    pub fn log(&self) -> String {
        format!(
            "Trigger DMA; sdma_bcast_base = 0x{:08x}, trigger addr = 0x{:08x}, mask = 0x{:08x} n_desc={}",
            self.sdma_bcast_base as u32, self.trigger_addr as u32, self.mask, self.n_desc
        )
    }
}

impl SystemState {
    /// The `dma_apb_bcast` of queue `queue` of the engines of `engines_core`,
    /// as core `from` addresses them (routed through the fold).
    pub fn dma_apb_bcast(
        &self,
        from: CoreId,
        engines_core: CoreId,
        queue: u8,
        mask: u16,
    ) -> Result<DmaApbBcast, SystemError> {
        let l = self.topo.loc(engines_core)?;
        let at = |side| {
            let off = map::CORE_BCAST_BASE + u64::from(bcast_reg(queue, side, BCAST_TAIL_INC));
            self.topo
                .fold(from, engines_core, map::core_local(l.core, off))
        };
        Ok(DmaApbBcast {
            m2s_tail_ptr: at(0)?,
            s2m_tail_ptr: at(1)?,
            mask: mask.into(),
        })
    }

    /// The one doorbell decode of the system model: advance the tail of
    /// (core `to`, engine, queue, side) by `n`, mark the queue active and trace
    /// it. Both the per-engine `*DRTP_inc` CSR and the broadcast trigger end
    /// here.
    pub(crate) fn ring_doorbell(
        &mut self,
        by: CoreId,
        to: CoreId,
        engine: u8,
        queue: u8,
        side: u8,
        n: u32,
    ) -> Result<(), SystemError> {
        let off = self.doorbell_check(to, engine, queue, side, n)?;
        self.core_mut(to)?.udma_write(engine, off, n)?;
        self.doorbell_landed(by, to, engine, queue, side)
    }

    /// The submitter's check before it rings (the register would take the
    /// doorbell, set the sticky DB_OVERFLOW bit and stop the queue, as the
    /// golden/RTL do): a typed error instead, no register touched. Returns
    /// the doorbell's CSR offset in the engine.
    pub(crate) fn doorbell_check(
        &self,
        to: CoreId,
        engine: u8,
        queue: u8,
        side: u8,
        n: u32,
    ) -> Result<u32, SystemError> {
        let off = rtp_inc_offset(queue, side);
        if engine >= self.engines() {
            return Err(SystemError::Csr {
                core: to.0,
                engine,
                offset: off,
                rule: "doorbell of an engine the core does not have (CoreParams::engines)",
            });
        }
        let qs = self.core(to)?.queue(engine, queue, side);
        let inc = Q_RTP_INC_INC.get(n);
        if qs.rl == 0 || inc > qs.free() {
            return Err(SystemError::Csr {
                core: to.0,
                engine,
                offset: off,
                rule: if qs.rl == 0 {
                    "doorbell on a queue with no ring (RL = 0)"
                } else {
                    "doorbell past free space (DB overflow)"
                },
            });
        }
        Ok(off)
    }

    /// After the register took a doorbell: the sticky DB_OVERFLOW check, the
    /// queue marked active, the trace event.
    pub(crate) fn doorbell_landed(
        &mut self,
        by: CoreId,
        to: CoreId,
        engine: u8,
        queue: u8,
        side: u8,
    ) -> Result<(), SystemError> {
        let s = &self.core(to)?.engines[usize::from(engine)].regs.side[usize::from(side)];
        if s.err_status >> UDMA_ERR_DB_OVERFLOW & 1 == 1 && s.q[usize::from(queue)].stopped {
            return Err(SystemError::Csr {
                core: to.0,
                engine,
                offset: rtp_inc_offset(queue, side),
                rule: "doorbell past free space: the golden register file set DB_OVERFLOW and stopped the queue",
            });
        }
        self.active.insert((to.0, engine, queue));
        if self.trace_on {
            let tail = super::core::pack_pos(self.core(to)?.queue(engine, queue, side).tail);
            self.trace.push(TraceEvent::Doorbell {
                t: self.now,
                by: by.0,
                core: to.0,
                engine,
                queue,
                side,
                tail,
            });
        }
        Ok(())
    }

    /// A 32-bit write into the broadcast block of core `to` (block offset `offset`).
    pub(crate) fn bcast_write(
        &mut self,
        from: CoreId,
        to: CoreId,
        offset: u32,
        data: u32,
    ) -> Result<(), SystemError> {
        match self.bcast_check(to, offset, data)? {
            BcastWrite::Mask { queue, side, mask } => {
                self.core_mut(to)?.hw.q7.set_bcast_mask(queue, side, mask);
                Ok(())
            }
            BcastWrite::Trigger {
                queue,
                side,
                n,
                mask,
            } => {
                for e in (0..DMA_ENGINES).filter(|e| mask >> e & 1 == 1) {
                    self.ring_doorbell(from, to, e, queue, side, n)?;
                }
                self.bcast_logged(from, to, offset, mask, n)
            }
        }
    }

    /// The host-side checks of a write into the broadcast block of core `to`
    /// (typed errors before a register is touched; a trigger is all or
    /// nothing: every selected queue is checked before any tail moves).
    pub(crate) fn bcast_check(
        &self,
        to: CoreId,
        offset: u32,
        data: u32,
    ) -> Result<BcastWrite, SystemError> {
        let err = |rule| SystemError::Csr {
            core: to.0,
            engine: u8::MAX,
            offset,
            rule,
        };
        let q = (offset / BCAST_Q_STRIDE) as u8;
        let rel = offset % BCAST_Q_STRIDE;
        if u32::from(q) >= UDMA_NUM_QUEUES || !offset.is_multiple_of(4) {
            return Err(err("broadcast doorbell: not a register"));
        }
        let side = (rel / BCAST_SIDE_STRIDE) as u8;
        if rel % BCAST_SIDE_STRIDE == BCAST_MASK {
            if data >> self.engines() != 0 {
                return Err(err(
                    "broadcast mask: one bit per engine of the core (CoreParams::engines)",
                ));
            }
            return Ok(BcastWrite::Mask {
                queue: q,
                side,
                mask: data as u16,
            });
        }
        let n = Q_RTP_INC_INC.get(data);
        let mask = self.core(to)?.hw.q7.bcast_mask(q, side);
        if mask == 0 {
            return Err(err("broadcast trigger with an empty mask"));
        }
        for e in (0..DMA_ENGINES).filter(|e| mask >> e & 1 == 1) {
            let qs = self.core(to)?.queue(e, q, side);
            if qs.rl == 0 || n > qs.free() {
                return Err(SystemError::Csr {
                    core: to.0,
                    engine: e,
                    offset,
                    rule: if qs.rl == 0 {
                        "broadcast trigger: a selected queue has no ring (RL = 0)"
                    } else {
                        "broadcast trigger: past the free space of a selected queue (DB overflow)"
                    },
                });
            }
        }
        Ok(BcastWrite::Trigger {
            queue: q,
            side,
            n,
            mask,
        })
    }

    /// The firmware's trigger log entry of a broadcast trigger.
    pub(crate) fn bcast_logged(
        &mut self,
        from: CoreId,
        to: CoreId,
        offset: u32,
        mask: u16,
        n: u32,
    ) -> Result<(), SystemError> {
        if self.trace_on || self.log_triggers {
            let l = self.topo.loc(to)?;
            let base = self
                .topo
                .fold(from, to, map::core_local(l.core, map::CORE_BCAST_BASE))?;
            self.triggers.push(Trigger {
                from: from.0,
                sdma_bcast_base: base,
                trigger_addr: base + u64::from(offset),
                mask: mask.into(),
                n_desc: n,
            });
        }
        Ok(())
    }

    /// The doorbell steps of one Q7 program ([`firmware::doorbells`]):
    /// `engines` (engine, descriptors) of core `engines_core`, queue
    /// `queue`, `side` (0 M2S / 1 S2M), rung by the Q7 of `from` per
    /// [`SystemState::doorbells`], at the routed addresses `from` uses.
    pub(crate) fn doorbell_steps(
        &self,
        from: CoreId,
        engines_core: CoreId,
        queue: u8,
        side: u8,
        engines: &[(u8, u32)],
    ) -> Result<Vec<Q7Step>, SystemError> {
        let at = DoorbellAt {
            sys: self,
            from,
            engines_core,
            queue,
            side,
        };
        firmware::doorbells(self.doorbells, (queue, side), engines, &at)
    }
}

/// The doorbell addresses of one queue as a Q7 of the system sees them.
struct DoorbellAt<'a> {
    sys: &'a SystemState,
    from: CoreId,
    engines_core: CoreId,
    queue: u8,
    side: u8,
}

impl firmware::DoorbellAddrs for DoorbellAt<'_> {
    type Error = SystemError;
    fn per_engine(&self, e: u8) -> Result<u64, SystemError> {
        let l = self.sys.topo.loc(self.engines_core)?;
        let off = map::udma_q_offset(e, self.side, self.queue, UDMA_Q_RTP_INC);
        self.sys
            .topo
            .fold(self.from, self.engines_core, map::core_local(l.core, off))
    }
    fn bcast(&self) -> Result<(u64, u64), SystemError> {
        let b = self
            .sys
            .dma_apb_bcast(self.from, self.engines_core, self.queue, 0)?;
        let trig = if self.side == 0 {
            b.m2s_tail_ptr
        } else {
            b.s2m_tail_ptr
        };
        Ok((trig - u64::from(BCAST_TAIL_INC - BCAST_MASK), trig))
    }
}

/// Engine CSR offset of the `*DRTP_inc` doorbell of `queue`, `side` (0 M2S / 1 S2M).
const fn rtp_inc_offset(queue: u8, side: u8) -> u32 {
    q_addr(map::side_of(side), queue as u32, UDMA_Q_RTP_INC)
}
