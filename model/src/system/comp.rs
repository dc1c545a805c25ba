//! Completion rings and the generation-tag poll (seed 001 §5.3: "each 16-B
//! SDMA completion BD carries a 2-bit generation tag, busy-polled until it
//! matches the expected generation before a ring slot is reused";
//! PUBLIC-FACTS §1: the completion reader treats a completion as new when its
//! ring id equals the expected one and increments the expected id on each wrap).
//!
//! Model (project-defined where the seed is MED, docs/system.md): every TX
//! engine queue used by a leg has an S2M completion ring in the TX core's
//! descriptor RAM ([`super::firmware::RingLayout::comp_ring_offset`]), configured once by the TX Q7 in
//! `rdma_desc_gen`'s set-up program (CRBP, COMP_CFG.EN_COMP_RING_UPDATE). The S2M side writes
//! one 16-byte completion descriptor per S2M descriptor (the golden UDMA in
//! cycle mode, `SystemState::write_completion` with the same bytes in fast mode),
//! stamped with the completion head's ring id. `rdma_desc_start` on TX queues a
//! poll (`Q7Op::PollComp`) after its launch: the Q7 reads the slot at
//! its expected position and takes it as done only when its tag equals the
//! expected generation, then moves on (+1 mod 4 per wrap); a slot with any
//! other tag is stale and the poll keeps waiting. The run is complete only when
//! every poll has seen all its completions.

use crate::udma::desc::{CompDesc, RingPos};
use crate::udma::regs::UDMA_COMP_CFG_EN_COMP_RING_UPDATE_BIT;

use super::firmware;
use super::legs::Plan;
use super::map::{self, Target};
use super::topology::CoreId;
use super::{SystemError, SystemState};

/// The TX Q7's completion-poll state of one engine queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub struct CompPoll {
    /// Next slot to poll and the generation expected there.
    #[serde(skip)]
    pub pos: RingPos,
    /// Completions taken as done so far.
    pub seen: u64,
    /// Completions the Q7 has asked for (sum of the descriptors it launched).
    pub want: u64,
}

impl SystemState {
    /// Plan the configuration of the S2M completion ring of (core `tx`,
    /// engine, queue) if it is not yet this model's ring, against the
    /// planned registers (CSR writes by the TX Q7: CRBP_LOW, CRBP_HIGH,
    /// COMP_CFG), and the restart of the Q7's poll at the completion head
    /// (committed with the plan).
    pub(crate) fn plan_completion_ring(
        &self,
        tx: CoreId,
        e: u8,
        q: u8,
        plan: &mut Plan,
    ) -> Result<(), SystemError> {
        let l = self.topo.loc(tx)?;
        let base = self.topo.fold(
            tx,
            tx,
            map::core_local(l.core, self.layout().comp_ring_offset(e, q)),
        )?;
        let qs = self.planned_queue(tx, e, q, 1, &plan.regs)?;
        if qs.comp_cfg != 0 && qs.crbp == base {
            return Ok(());
        }
        if qs.pending() != 0 {
            return Err(SystemError::RingBusy {
                core: tx.0,
                engine: e,
                queue: q,
                side: 1,
            });
        }
        let csr = |r: u32| {
            self.topo.fold(
                tx,
                tx,
                map::core_local(l.core, map::udma_q_offset(e, 1, q, r)),
            )
        };
        plan.queue_regs((tx, e, q, 1), firmware::comp_ring_config(csr, base)?);
        plan.comp_resets.push((e, q));
        Ok(())
    }

    /// Fast mode: the completion descriptor the S2M side writes after
    /// finishing the descriptor at ring offset `s2m_offset` with `len` bytes
    /// (the bytes the golden UDMA writes: FIRST, LAST, BUF1_USED, the
    /// completion head's ring id; word 1 = bytes, word 2 = the S2M offset).
    pub(crate) fn write_completion(
        &mut self,
        core: CoreId,
        e: u8,
        q: u8,
        len: u32,
        s2m_offset: u32,
    ) -> Result<(), SystemError> {
        let qs = self.core(core)?.queue(e, q, 1);
        if qs.comp_cfg & 1 << UDMA_COMP_CFG_EN_COMP_RING_UPDATE_BIT == 0 {
            return Ok(());
        }
        let d = CompDesc {
            error: false,
            buf1_used: len != 0,
            last: true,
            first: true,
            ring_id: qs.crhp.ring_id,
            len,
            desc_offset: s2m_offset,
        }
        .encode()
        .map_err(SystemError::Desc)?;
        let a = qs.crbp + u64::from(qs.crhp.offset) * 16;
        let (c, offset) = self.desc_ram_at(core, e, q, a, "completion ring base")?;
        self.core_mut(c)?.desc.write(offset, &d);
        let mut qm = self.core_mut(core)?.queue_mut(e, q, 1);
        qm.crhp = qm.crhp.advance(1, qm.rl);
        Ok(())
    }

    /// The generation tag stored in the completion slot at `pos` of (core, e, q).
    pub fn completion_tag(
        &self,
        core: CoreId,
        e: u8,
        q: u8,
        pos: RingPos,
    ) -> Result<u8, SystemError> {
        let qs = self.core(core)?.queue(e, q, 1);
        let (c, t) = self.resolve(core, qs.crbp + u64::from(pos.offset) * 16)?;
        let Target::Desc { offset } = t else {
            return Err(SystemError::Unmapped { offset: qs.crbp });
        };
        let mut b = [0u8; 16];
        self.core(c)?.desc.read(offset, &mut b);
        Ok((u32::from_le_bytes([b[0], b[1], b[2], b[3]]) >> 24 & 3) as u8)
    }

    /// One busy-poll pass of the TX Q7 of `core` over `engines` (engine,
    /// completions wanted in total): take every slot whose tag matches the
    /// expected generation, stop at the first stale one. `Ok(true)` when every
    /// engine has seen all it wants.
    pub(crate) fn poll_completions(
        &mut self,
        core: CoreId,
        q: u8,
        engines: &[(u8, u64)],
    ) -> Result<bool, SystemError> {
        let mut done = true;
        for &(e, target) in engines {
            let rl = self.core(core)?.queue(e, q, 1).rl;
            let mut p = self.core(core)?.comp_poll[usize::from(e)][usize::from(q)];
            while p.seen < target {
                if self.completion_tag(core, e, q, p.pos)? != p.pos.ring_id {
                    break; // stale: the slot still holds an older generation
                }
                p.pos = p.pos.advance(1, rl);
                p.seen += 1;
            }
            done &= p.seen >= target;
            self.core_mut(core)?.comp_poll[usize::from(e)][usize::from(q)] = p;
        }
        Ok(done)
    }
}
