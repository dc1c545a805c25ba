//! Deadlock watchdog. A run ends when no Q7 program can proceed and no DMA
//! engine has a descriptor pair to move: nothing can change any more, so a
//! pending wait is reported as [`SystemError::Deadlock`] (naming the core,
//! semaphore and target) instead of spinning. Queues left with unpaired
//! descriptors are [`SystemError::Stalled`]. Cycle mode also has a cycle
//! budget ([`super::CycleExec::max_cycles`], [`SystemError::Timeout`]).

use super::topology::{DMA_ENGINES, DMA_QUEUES};
use super::{Q7Op, SystemError, SystemState};

impl SystemState {
    /// The error for a run where nothing can progress.
    pub(crate) fn diagnose(&self, cycles: u64) -> SystemError {
        for op in &self.pending {
            match op {
                Q7Op::TxLaunch { core, go_sem, .. } => {
                    return SystemError::Deadlock {
                        core: core.0,
                        sem: *go_sem,
                        target: 1,
                        value: self.cores[usize::from(core.0)].evt.sem(*go_sem),
                        what: "TX left_pop waits for an RX right_push that never comes",
                    };
                }
                Q7Op::Wait { core, sem, target } => {
                    return SystemError::Deadlock {
                        core: core.0,
                        sem: *sem,
                        target: *target,
                        value: self.cores[usize::from(core.0)].evt.sem(*sem),
                        what: "semaphore wait",
                    };
                }
                Q7Op::RxArm { .. } | Q7Op::Host { .. } => {}
                Q7Op::PollComp {
                    core,
                    queue,
                    engines,
                } => {
                    let c = &self.cores[usize::from(core.0)];
                    for &(e, want) in engines {
                        let p = c.comp_poll[usize::from(e)][usize::from(*queue)];
                        if p.seen < want {
                            return SystemError::CompletionPending {
                                core: core.0,
                                engine: e,
                                queue: *queue,
                                slot: p.pos.offset,
                                expected: p.pos.ring_id,
                                found: self
                                    .completion_tag(*core, e, *queue, p.pos)
                                    .unwrap_or(u8::MAX),
                                seen: p.seen,
                                want,
                            };
                        }
                    }
                }
            }
        }
        match self.check_idle() {
            Err(e) => e,
            Ok(()) => SystemError::Timeout { cycles },
        }
    }

    /// After a run: every queue must be drained or hold no unpaired work.
    pub(crate) fn check_idle(&self) -> Result<(), SystemError> {
        for c in &self.cores {
            for (e, u) in (0..DMA_ENGINES).zip(&c.engines) {
                // M2S side first, straight from the register file: this runs
                // after every fast-mode run over every queue of every core
                // (4 % of an all-gather's time when it built two full queue
                // views per queue); the views are made only for the report.
                for (q, m2s) in (0..DMA_QUEUES).zip(&u.regs.side[0].q) {
                    if m2s.used() > 0 {
                        let (m, s) = (c.queue(e, q, 0).pending(), c.queue(e, q, 1).pending());
                        return Err(SystemError::Stalled {
                            core: c.id.0,
                            engine: e,
                            queue: q,
                            m2s: m,
                            s2m: s,
                        });
                    }
                }
            }
        }
        Ok(())
    }
}
