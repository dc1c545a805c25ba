//! Generated CSR tests of the UDMA engine (model/src/regs/csr.rs) as a lockstep
//! stimulus, at every data width.

use super::engine::{PinsIn, UdmaWidth};
use super::regs::*;
use crate::ports::Stimulus;
use crate::regs::csr::{compare_sides, instances, plan, CsrSeq, Inst};
use crate::regs::Sides;

/// The UDMA CSR test environment: both sides, queues 0 and 15.
#[derive(Debug, Clone)]
pub struct UdmaCsr<W: UdmaWidth> {
    pub seq: CsrSeq,
    _w: core::marker::PhantomData<W>,
}

/// The generated plan's instances.
pub fn insts() -> Vec<Inst> {
    let sides = [UDMA_M2S_BASE, UDMA_S2M_BASE];
    let reps = |g: usize| -> Vec<u32> {
        if g == 0 {
            sides.to_vec()
        } else {
            let mut v = Vec::new();
            for s in sides {
                for q in [0, UDMA_NUM_QUEUES - 1] {
                    v.push(s + q * UDMA_Q_STRIDE);
                }
            }
            v
        }
    };
    let on = |base: u32, r: &crate::regs::Reg| match r.sides {
        Sides::Both => true,
        Sides::M2s => base & UDMA_S2M_BASE == 0,
        Sides::S2m => base & UDMA_S2M_BASE != 0,
    };
    instances(&DESC, &reps, &on, &[0])
}

impl<W: UdmaWidth> Stimulus for UdmaCsr<W> {
    type In = W::In;
    type Out = W::Out;

    fn new(_seed: u64, _cycles: u64) -> Self {
        Self {
            seq: CsrSeq::new(plan(&insts()), 2).with_insts(&insts()),
            _w: core::marker::PhantomData,
        }
    }

    fn next(&mut self, _cycle: u64, prev_out: Option<&W::Out>) -> W::In {
        let prev = prev_out.map(|o| crate::axil_out_of!(W::pins_out(o)));
        let reset = self.seq.in_reset();
        let a = self.seq.next(prev.as_ref());
        W::to_in(&crate::axil_in_to!(PinsIn, reset, a))
    }

    fn coverage(&self) -> Vec<(String, u64)> {
        self.seq.coverage()
    }

    fn compare_final(&self, other: &Self) -> Result<(), String> {
        compare_sides("udma", &self.seq, &other.seq)
    }
}
