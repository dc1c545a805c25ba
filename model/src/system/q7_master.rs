//! The one Q7-side AXI4-Lite master: one 32-bit transaction at a time,
//! every valid held until its handshake. By default every valid rises at
//! once, the strobe is full and BREADY/RREADY stay high; a lockstep
//! environment may offer AW and W some cycles apart
//! ([`AxilMaster::offer_apart`]), send a partial strobe
//! ([`AxilMaster::with_strb`]), hold BREADY/RREADY low
//! ([`AxilMaster::set_ready`], or each on its own with
//! [`AxilMaster::set_readies`]) and drive a channel's payload only with its
//! valid ([`AxilMaster::drive_quiet`], [`AxilMaster::idle`]).
//!
//! Cycle mode's Q7 executor drives the Q7 ports with it ([`super::q7_exec`]);
//! the golden core's direct register accesses (fast mode's MMIO writes into
//! a UDMA register file, [`super::SystemCore::udma_write`], or the EVT_SEM window,
//! [`super::SystemCore::evt_write`]) run the same master against that block's
//! slave with [`AxilMaster::run`]; the pair's lockstep environment
//! (`pair::stim`) drives both Q7 ports of the pair with one master each,
//! and the UDMA block environment (`udma::stim`) its CSR port.

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
    /// Write strobe.
    pub strb: u32,
    aw: bool,
    w: bool,
    ar: bool,
    /// Cycles before AWVALID / WVALID first rise.
    aw_wait: u32,
    w_wait: u32,
    /// BREADY / RREADY driven this cycle.
    bready: bool,
    rready: bool,
}

impl AxilMaster {
    /// A write of `data` at `addr`.
    pub const fn write(addr: u32, data: u32) -> Self {
        Self {
            addr,
            data,
            write: true,
            strb: FULL_STRB,
            aw: true,
            w: true,
            ar: false,
            aw_wait: 0,
            w_wait: 0,
            bready: true,
            rready: true,
        }
    }

    /// A read of `addr`.
    pub const fn read(addr: u32) -> Self {
        Self {
            addr,
            data: 0,
            write: false,
            strb: FULL_STRB,
            aw: false,
            w: false,
            ar: true,
            aw_wait: 0,
            w_wait: 0,
            bready: true,
            rready: true,
        }
    }

    /// The same write with byte strobes `strb`.
    pub const fn with_strb(self, strb: u32) -> Self {
        Self { strb, ..self }
    }

    /// The same write with AWVALID raised `aw_wait` and WVALID `w_wait`
    /// cycles after the first drive (AW and W offered apart, in either order).
    pub const fn offer_apart(self, aw_wait: u32, w_wait: u32) -> Self {
        Self {
            aw_wait,
            w_wait,
            ..self
        }
    }

    /// BREADY / RREADY of the next drive (held until changed).
    pub fn set_ready(&mut self, ready: bool) {
        self.set_readies(ready, ready);
    }

    /// BREADY and RREADY of the next drive, each on its own (held until
    /// changed); the transaction's own response channel takes its ready.
    pub fn set_readies(&mut self, bready: bool, rready: bool) {
        self.bready = bready;
        self.rready = rready;
    }

    /// The ready of this transaction's response channel.
    const fn ready(&self) -> bool {
        if self.write {
            self.bready
        } else {
            self.rready
        }
    }

    /// Whether the slave offers this transaction's response in outputs `o`
    /// of a cycle whose drive held BREADY/RREADY low (the response waits).
    pub const fn held(&self, o: &AxilOut) -> bool {
        !self.ready()
            && if self.write {
                !self.aw && !self.w && o.bvalid
            } else {
                !self.ar && o.rvalid
            }
    }

    /// This cycle's drive of the slave's inputs.
    pub const fn drive(&self) -> AxilIn {
        AxilIn {
            awaddr: self.addr,
            awvalid: self.write && self.aw && self.aw_wait == 0,
            wdata: self.data,
            wstrb: self.strb,
            wvalid: self.write && self.w && self.w_wait == 0,
            bready: self.bready,
            araddr: self.addr,
            arvalid: !self.write && self.ar,
            rready: self.rready,
        }
    }

    /// [`Self::drive`] with each channel's payload zero while its valid is
    /// low (address, data and strobe appear only with their valid).
    pub const fn drive_quiet(&self) -> AxilIn {
        let d = self.drive();
        AxilIn {
            awaddr: if d.awvalid { d.awaddr } else { 0 },
            wdata: if d.wvalid { d.wdata } else { 0 },
            wstrb: if d.wvalid { d.wstrb } else { 0 },
            araddr: if d.arvalid { d.araddr } else { 0 },
            ..d
        }
    }

    /// The drive of a port with no transaction: every valid and payload
    /// low, BREADY / RREADY as given.
    pub const fn idle(bready: bool, rready: bool) -> AxilIn {
        AxilIn {
            awaddr: 0,
            awvalid: false,
            wdata: 0,
            wstrb: 0,
            wvalid: false,
            bready,
            araddr: 0,
            arvalid: false,
            rready,
        }
    }

    /// The slave's outputs `o` of the cycle [`Self::drive`] was applied in:
    /// takes this cycle's handshakes; `Some((resp, data))` when the B (write:
    /// the written data) or the R (read: the read data) was taken.
    pub fn observe(&mut self, o: &AxilOut) -> Option<(u32, u32)> {
        let d = self.drive();
        let done = if self.write {
            (!self.aw && !self.w && o.bvalid && d.bready).then_some((o.bresp, self.data))
        } else {
            (!self.ar && o.rvalid && d.rready).then_some((o.rresp, o.rdata))
        };
        self.aw &= !(d.awvalid && o.awready);
        self.w &= !(d.wvalid && o.wready);
        self.ar &= !(d.arvalid && o.arready);
        self.aw_wait = self.aw_wait.saturating_sub(1);
        self.w_wait = self.w_wait.saturating_sub(1);
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
    fn aw_and_w_apart_a_partial_strobe_and_a_held_b() {
        let (mut a, mut reg) = (AxilAdapter::default(), 0u32);
        let mut m = AxilMaster::write(0x4, 0x1234_5678)
            .with_strb(0x3)
            .offer_apart(2, 0);
        let (mut n, mut held, mut aw_seen) = (0u32, 0u32, Vec::new());
        let r = loop {
            m.set_ready(n >= 6);
            let d = m.drive();
            assert_eq!(d.wstrb, 0x3);
            aw_seen.push(d.awvalid);
            let o = slave(&mut a, &mut reg, &d);
            held += u32::from(m.held(&o));
            n += 1;
            if let Some(r) = m.observe(&o) {
                break r;
            }
            assert!(n < 32, "no B");
        };
        assert_eq!(r, (0, 0x1234_5678));
        // docs/axil.md: W taken in cycle 0 (independent of AW), AW raised
        // and taken in cycle 2, commit in 3, B valid from 4, held low in 4
        // and 5, taken in 6.
        assert_eq!(&aw_seen[..3], &[false, false, true]);
        assert_eq!((n, held), (7, 2));
    }

    #[test]
    fn a_silent_slave_times_out() {
        let r = AxilMaster::read(0).run(8, |_| AxilOut::default());
        assert_eq!(r, None);
    }
}
