//! Generated CSR tests of EVT_SEM (model/src/regs/csr.rs) as a lockstep stimulus.

use super::io::{EvtSemIn, EvtSemOut};
use super::regs::DESC;
use crate::ports::Stimulus;
use crate::regs::csr::{compare_sides, instances, plan, CsrSeq};

/// The EVT_SEM CSR test environment: elements 0, 1 and 255 of every register array.
#[derive(Debug, Clone)]
pub struct EvtSemCsr {
    pub seq: CsrSeq,
}

impl EvtSemCsr {
    /// The generated plan's instances.
    pub fn insts() -> Vec<crate::regs::csr::Inst> {
        instances(&DESC, &|_| vec![0], &|_, _| true, &[0, 1, 255])
    }
}

impl Stimulus for EvtSemCsr {
    type In = EvtSemIn;
    type Out = EvtSemOut;

    fn new(_seed: u64, _cycles: u64) -> Self {
        Self {
            seq: CsrSeq::new(plan(&Self::insts()), 2).with_insts(&Self::insts()),
        }
    }

    fn next(&mut self, _cycle: u64, prev_out: Option<&EvtSemOut>) -> EvtSemIn {
        let prev = prev_out.map(|o| crate::axil_out_of!(o));
        let reset = self.seq.in_reset();
        let a = self.seq.next(prev.as_ref());
        crate::axil_in_to!(EvtSemIn, reset, a)
    }

    fn coverage(&self) -> Vec<(String, u64)> {
        self.seq.coverage()
    }

    fn compare_final(&self, other: &Self) -> Result<(), String> {
        compare_sides("evt_sem", &self.seq, &other.seq)
    }
}
