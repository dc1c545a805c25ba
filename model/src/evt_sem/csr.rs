//! Generated CSR tests of EVT_SEM (model/src/regs/csr.rs) as a lockstep stimulus.

use super::io::{EvtSemIn, EvtSemOut};
use super::regs::DESC;
use crate::ports::Stimulus;
use crate::regs::axil::AxilOut;
use crate::regs::csr::{instances, plan, CsrSeq};

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

fn axil_out(o: &EvtSemOut) -> AxilOut {
    AxilOut {
        awready: o.s_axil_awready == 1,
        wready: o.s_axil_wready == 1,
        bvalid: o.s_axil_bvalid == 1,
        bresp: o.s_axil_bresp as u32,
        arready: o.s_axil_arready == 1,
        rvalid: o.s_axil_rvalid == 1,
        rdata: o.s_axil_rdata as u32,
        rresp: o.s_axil_rresp as u32,
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
        let prev = prev_out.map(axil_out);
        let reset = self.seq.in_reset();
        let a = self.seq.next(prev.as_ref());
        EvtSemIn {
            rst_ni: u64::from(!reset),
            s_axil_awaddr: u64::from(a.awaddr),
            s_axil_awvalid: u64::from(a.awvalid),
            s_axil_wdata: u64::from(a.wdata),
            s_axil_wstrb: u64::from(a.wstrb),
            s_axil_wvalid: u64::from(a.wvalid),
            s_axil_bready: u64::from(a.bready),
            s_axil_araddr: u64::from(a.araddr),
            s_axil_arvalid: u64::from(a.arvalid),
            s_axil_rready: u64::from(a.rready),
            ..EvtSemIn::default()
        }
    }

    fn coverage(&self) -> Vec<(String, u64)> {
        self.seq.coverage()
    }

    fn compare_final(&self, other: &Self) -> Result<(), String> {
        for (twin, s) in [("golden", &self.seq), ("RTL", &other.seq)] {
            if let Some(f) = &s.first_fail {
                return Err(format!(
                    "evt_sem CSR test on the {twin} side: {} failures, first: {f}",
                    s.fails
                ));
            }
        }
        Ok(())
    }
}
