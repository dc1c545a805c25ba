//! The one Q7-side AXI4-Lite master of the system model: one 32-bit
//! transaction at a time, every valid raised at once and held until its
//! handshake, BREADY/RREADY always high.
//!
//! Cycle mode's Q7 executor drives the Q7 ports with it ([`super::q7_exec`]);
//! the golden core's direct register accesses (fast mode's MMIO writes into
//! a UDMA register file, [`super::Core::udma_write`], or the EVT_SEM window,
//! [`super::Core::evt_write`]) run the same master against that block's
//! slave with [`AxilMaster::run`].

use crate::regs::axil::{AxilIn, AxilOut};

/// Full write strobe of a 32-bit access.
const FULL_STRB: u32 = 0xF;

/// One AXI4-Lite transaction in flight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AxilMaster {
    /// Address.
    pub addr: u32,
    /// Write data (0 for a read).
    pub data: u32,
    /// Write (true) or read.
    pub write: bool,
    aw: bool,
    w: bool,
    ar: bool,
}

impl AxilMaster {
    /// A write of `data` at `addr`.
    pub const fn write(addr: u32, data: u32) -> Self {
        Self {
            addr,
            data,
            write: true,
            aw: true,
            w: true,
            ar: false,
        }
    }

    /// A read of `addr`.
    pub const fn read(addr: u32) -> Self {
        Self {
            addr,
            data: 0,
            write: false,
            aw: false,
            w: false,
            ar: true,
        }
    }

    /// This cycle's drive of the slave's inputs.
    pub const fn drive(&self) -> AxilIn {
        AxilIn {
            awaddr: self.addr,
            awvalid: self.write && self.aw,
            wdata: self.data,
            wstrb: FULL_STRB,
            wvalid: self.write && self.w,
            bready: true,
            araddr: self.addr,
            arvalid: !self.write && self.ar,
            rready: true,
        }
    }

    /// The slave's outputs `o` of the cycle [`Self::drive`] was applied in:
    /// takes this cycle's handshakes; `Some((resp, data))` when the B (write:
    /// the written data) or the R (read: the read data) was taken.
    pub fn observe(&mut self, o: &AxilOut) -> Option<(u32, u32)> {
        let done = if self.write {
            (!self.aw && !self.w && o.bvalid).then_some((o.bresp, self.data))
        } else {
            (!self.ar && o.rvalid).then_some((o.rresp, o.rdata))
        };
        self.aw &= !o.awready;
        self.w &= !o.wready;
        self.ar &= !o.arready;
        done
    }

    /// Run the transaction to its response against a slave clocked by
    /// `cycle(drive) -> outputs of that cycle`, for at most `max_cycles`
    /// cycles; `None` when it did not complete.
    pub fn run(
        mut self,
        max_cycles: u32,
        mut cycle: impl FnMut(&AxilIn) -> AxilOut,
    ) -> Option<(u32, u32)> {
        for _ in 0..max_cycles {
            let o = cycle(&self.drive());
            if let Some(r) = self.observe(&o) {
                return Some(r);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::regs::axil::{AxilAdapter, AxilAnswer};

    /// A register adapter (golden of `rtl/axil_reg_adapter.sv`) over one
    /// 32-bit register that answers SLVERR above 0x10.
    fn slave(a: &mut AxilAdapter, reg: &mut u32, i: &AxilIn) -> AxilOut {
        let o = a.out();
        let req = a.requests(i, 0xFF);
        let mut ans = AxilAnswer::default();
        if let Some(w) = req.write {
            ans.write_err = w.addr > 0x10;
            if !ans.write_err {
                *reg = w.data;
            }
        }
        if let Some(r) = req.read {
            ans.read_err = r > 0x10;
            ans.read_data = *reg;
        }
        a.update(i, &req, &ans, 0xFF);
        o
    }

    #[test]
    fn a_write_then_a_read_through_the_register_adapter() {
        let (mut a, mut reg) = (AxilAdapter::default(), 0u32);
        let mut n = 0;
        let w = AxilMaster::write(0x4, 0xDEAD_BEEF).run(16, |i| {
            n += 1;
            slave(&mut a, &mut reg, i)
        });
        assert_eq!(w, Some((0, 0xDEAD_BEEF)));
        assert_eq!(reg, 0xDEAD_BEEF);
        // docs/axil.md: AW and W taken in cycle 0, commit at the edge after
        // both are held (cycle 1), B seen in cycle 2.
        assert_eq!(n, 3);
        let r = AxilMaster::read(0x4).run(16, |i| slave(&mut a, &mut reg, i));
        assert_eq!(r, Some((0, 0xDEAD_BEEF)));
        let e = AxilMaster::write(0x20, 1).run(16, |i| slave(&mut a, &mut reg, i));
        assert_eq!(e, Some((crate::udma::regs::AXI_RESP_SLVERR, 1)));
        assert_eq!(reg, 0xDEAD_BEEF);
    }

    #[test]
    fn a_silent_slave_times_out() {
        let r = AxilMaster::read(0).run(8, |_| AxilOut::default());
        assert_eq!(r, None);
    }
}
