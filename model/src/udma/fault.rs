//! Test-only faults of the golden UDMA engine, to prove the lockstep catches
//! bugs (tb/cosim_udma.rs). They live in this wrapper, not in the production
//! [`UdmaEngine::step_pins`]: the engine exposes one seam
//! ([`UdmaEngine::step_with`], between the M2S and the register-file
//! updates) and the wrapper patches state around a clean step.

use super::engine::{InPins, UdmaEngine, UdmaWidth};
use super::regs::UDMA_M2S_ERR_PREF_RING_ID;
use crate::ports::CycleModel;

/// A fault of [`FaultyUdma`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UdmaFault {
    /// M2S accepts descriptors whatever their ring id (skips the PREF_RING_ID check).
    SkipRingIdCheck,
    /// The tail pointer's ring id does not advance when a doorbell wraps the ring.
    TailWrapNoRingId,
}

/// The golden engine with one test-only fault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FaultyUdma<W: UdmaWidth> {
    pub engine: UdmaEngine<W>,
    pub fault: UdmaFault,
}

impl<W: UdmaWidth> FaultyUdma<W> {
    /// A reset engine with `fault`.
    pub fn new(fault: UdmaFault) -> Self {
        Self {
            engine: UdmaEngine::new(),
            fault,
        }
    }
}

impl<W: UdmaWidth> CycleModel for FaultyUdma<W> {
    type In = W::In;
    type Out = W::Out;

    fn step(&mut self, i: &W::In) -> W::Out {
        let clocked = InPins::<W::D>::rst_ni(i) & 1 != 0;
        let fault = self.fault;
        // Tails before the edge (the FSM updates do not touch the register file).
        let tails_before = (fault == UdmaFault::TailWrapNoRingId)
            .then(|| self.engine.regs.side.map(|s| s.q.map(|q| q.tail)));
        let o = self.engine.step_with(i, |m2s, mo| {
            if fault == UdmaFault::SkipRingIdCheck && mo.ev.err == Some(UDMA_M2S_ERR_PREF_RING_ID) {
                // Undo the error: behave as if the ring id had matched.
                mo.ev.err = None;
                m2s.start_data(W::BEAT_BYTES);
            }
        });
        if let (true, Some(before)) = (clocked, tails_before) {
            // A doorbell that wrapped the tail keeps the old ring id.
            for (side, old_side) in self.engine.regs.side.iter_mut().zip(before.iter()) {
                for (r, old) in side.q.iter_mut().zip(old_side.iter()) {
                    if r.tail.offset < old.offset {
                        r.tail.ring_id = old.ring_id;
                    }
                }
            }
        }
        o
    }
}
