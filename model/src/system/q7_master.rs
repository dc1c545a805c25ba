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

/// A valid's wait that lasts until the caller releases it ([`AxilMaster::held_back`]).
const HELD: u32 = u32::MAX;

/// One cycle off a valid's wait ([`HELD`] stays held).
const fn count_down(wait: u32) -> u32 {
    if wait == HELD {
        HELD
    } else {
        wait.saturating_sub(1)
    }
}

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
    /// Cycles before AWVALID / WVALID / ARVALID first rise ([`HELD`]:
    /// until released).
    aw_wait: u32,
    w_wait: u32,
    ar_wait: u32,
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
            ar_wait: 0,
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
            ar_wait: 0,
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

    /// The same transaction with every valid held low until the caller
    /// releases it ([`Self::release_aw`], [`Self::release_w`],
    /// [`Self::release_ar`]): a master that raises its valids after delays
    /// of its own choosing (random, in a block environment).
    #[inline(always)]
    pub const fn held_back(self) -> Self {
        Self {
            aw_wait: HELD,
            w_wait: HELD,
            ar_wait: HELD,
            ..self
        }
    }

    /// Raise AWVALID from this cycle's drive on (held until its handshake).
    pub fn release_aw(&mut self) {
        self.aw_wait = 0;
    }

    /// Raise WVALID from this cycle's drive on.
    pub fn release_w(&mut self) {
        self.w_wait = 0;
    }

    /// Raise ARVALID from this cycle's drive on.
    pub fn release_ar(&mut self) {
        self.ar_wait = 0;
    }

    /// Whether the AW handshake is still to come.
    pub const fn aw_pending(&self) -> bool {
        self.write && self.aw
    }

    /// Whether the W handshake is still to come.
    pub const fn w_pending(&self) -> bool {
        self.write && self.w
    }

    /// Whether the AR handshake is still to come.
    pub const fn ar_pending(&self) -> bool {
        !self.write && self.ar
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
    #[inline(always)]
    pub const fn drive(&self) -> AxilIn {
        AxilIn {
            awaddr: self.addr,
            awvalid: self.write && self.aw && self.aw_wait == 0,
            wdata: self.data,
            wstrb: self.strb,
            wvalid: self.write && self.w && self.w_wait == 0,
            bready: self.bready,
            araddr: self.addr,
            arvalid: !self.write && self.ar && self.ar_wait == 0,
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
    #[inline(always)]
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
        self.aw_wait = count_down(self.aw_wait);
        self.w_wait = count_down(self.w_wait);
        self.ar_wait = count_down(self.ar_wait);
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

/// A finished transaction of an [`AxilQueue`]: the caller's record, the
/// response and (a read) the read data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finished<W, R> {
    /// A write and its B response.
    Write(W, u32),
    /// A read, its R data and response.
    Read(R, u32, u32),
}

/// Several [`AxilMaster`] transactions in flight at once, up to `N` writes
/// (each with the caller's record `W`) and `N` reads (record `R`): AW, W
/// and AR are each offered by the oldest transaction whose handshake on
/// that channel is still to come (in order, so a later write's AW may pass
/// an earlier write's B), and B / R retire the oldest write / read. Every
/// transaction is [`AxilMaster::held_back`]: the caller releases each
/// channel's valid ([`Self::release_aw`], …), so the delays are its own (a
/// block environment draws them from its rng); BREADY / RREADY are the
/// caller's too ([`Self::set_readies`]), and so is the payload of a channel
/// whose valid is low ([`Self::drive`] gives the offering transaction's).
#[derive(Debug, Clone)]
pub struct AxilQueue<W, R, const N: usize> {
    wq: [(AxilMaster, W); N],
    w_len: usize,
    rq: [(AxilMaster, R); N],
    r_len: usize,
    /// The transactions that offer AW, W and AR: the first whose handshake
    /// on that channel is still to come (handshakes happen in order, so the
    /// index is the count of those done among the queued ones).
    aw_next: usize,
    w_next: usize,
    ar_next: usize,
    bready: bool,
    rready: bool,
}

impl<W: Copy + Default, R: Copy + Default, const N: usize> Default for AxilQueue<W, R, N> {
    fn default() -> Self {
        let idle = AxilMaster::read(0);
        Self {
            wq: [(idle, W::default()); N],
            w_len: 0,
            rq: [(idle, R::default()); N],
            r_len: 0,
            aw_next: 0,
            w_next: 0,
            ar_next: 0,
            bready: false,
            rready: false,
        }
    }
}

impl<W: Copy + Default, R: Copy + Default, const N: usize> AxilQueue<W, R, N> {
    /// Room for another write.
    #[inline(always)]
    pub fn can_write(&self) -> bool {
        self.w_len < N
    }

    /// Room for another read.
    #[inline(always)]
    pub fn can_read(&self) -> bool {
        self.r_len < N
    }

    /// Nothing in flight.
    #[inline(always)]
    pub fn idle(&self) -> bool {
        self.w_len == 0 && self.r_len == 0
    }

    /// Queue the write `m` (held back) with record `rec`; `false` when full.
    pub fn push_write(&mut self, m: AxilMaster, rec: W) -> bool {
        if !self.can_write() {
            return false;
        }
        self.wq[self.w_len] = (m.held_back(), rec);
        self.w_len += 1;
        true
    }

    /// Queue the read `m` (held back) with record `rec`; `false` when full.
    pub fn push_read(&mut self, m: AxilMaster, rec: R) -> bool {
        if !self.can_read() {
            return false;
        }
        self.rq[self.r_len] = (m.held_back(), rec);
        self.r_len += 1;
        true
    }

    /// The record of the oldest write still waiting for its B.
    pub fn oldest_write(&self) -> Option<&W> {
        (self.w_len > 0).then(|| &self.wq[0].1)
    }

    /// Whether a write waits with AWVALID still low (its release is due).
    #[inline(always)]
    pub fn aw_waiting(&self) -> bool {
        self.aw_next < self.w_len && self.wq[self.aw_next].0.aw_wait != 0
    }

    /// Whether a write waits with WVALID still low.
    #[inline(always)]
    pub fn w_waiting(&self) -> bool {
        self.w_next < self.w_len && self.wq[self.w_next].0.w_wait != 0
    }

    /// Whether a read waits with ARVALID still low.
    #[inline(always)]
    pub fn ar_waiting(&self) -> bool {
        self.ar_next < self.r_len && self.rq[self.ar_next].0.ar_wait != 0
    }

    /// Raise AWVALID of the write that offers AW.
    #[inline(always)]
    pub fn release_aw(&mut self) {
        if self.aw_next < self.w_len {
            self.wq[self.aw_next].0.release_aw();
        }
    }

    /// Raise WVALID of the write that offers W.
    #[inline(always)]
    pub fn release_w(&mut self) {
        if self.w_next < self.w_len {
            self.wq[self.w_next].0.release_w();
        }
    }

    /// Raise ARVALID of the read that offers AR.
    #[inline(always)]
    pub fn release_ar(&mut self) {
        if self.ar_next < self.r_len {
            self.rq[self.ar_next].0.release_ar();
        }
    }

    /// BREADY and RREADY of the next drive (the oldest transactions are
    /// the ones a response can retire).
    #[inline(always)]
    pub fn set_readies(&mut self, bready: bool, rready: bool) {
        self.bready = bready;
        self.rready = rready;
        self.wq[0].0.set_readies(bready, rready);
        self.rq[0].0.set_readies(bready, rready);
    }

    /// BREADY / RREADY of the last drive.
    #[inline(always)]
    pub fn readies(&self) -> (bool, bool) {
        (self.bready, self.rready)
    }

    /// This cycle's drive: each channel from the transaction that offers it
    /// (its payload even while its valid is low; no such transaction:
    /// payload 0).
    #[inline(always)]
    pub fn drive(&self) -> AxilIn {
        // The offering transaction's channel as its own drive shows it
        // (its handshake is still to come: valid = released).
        let mut d = AxilMaster::idle(self.bready, self.rready);
        if self.aw_next < self.w_len {
            let m = &self.wq[self.aw_next].0;
            (d.awaddr, d.awvalid) = (m.addr, m.aw_wait == 0);
        }
        if self.w_next < self.w_len {
            let m = &self.wq[self.w_next].0;
            (d.wdata, d.wstrb, d.wvalid) = (m.data, m.strb, m.w_wait == 0);
        }
        if self.ar_next < self.r_len {
            let m = &self.rq[self.ar_next].0;
            (d.araddr, d.arvalid) = (m.addr, m.ar_wait == 0);
        }
        d
    }

    /// The slave's outputs `o` of the cycle [`Self::drive`] was applied in:
    /// `on_aw` / `on_w` get the record of the write whose AW / W handshake
    /// happened, `done` each finished transaction (the write first).
    #[inline(always)]
    pub fn observe(
        &mut self,
        o: &AxilOut,
        mut on_aw: impl FnMut(&mut W),
        mut on_w: impl FnMut(&mut W),
        mut done: impl FnMut(Finished<W, R>),
    ) {
        // Only the oldest of each direction may take a response; the
        // others see the channels they offer.
        let later = AxilOut {
            bvalid: false,
            rvalid: false,
            ..*o
        };
        let (aw_k, w_k) = (self.aw_next, self.w_next);
        let mut retired = None;
        for k in 0..self.w_len.min(aw_k.max(w_k) + 1) {
            if k != 0 && k != aw_k && k != w_k {
                continue;
            }
            let (m, rec) = &mut self.wq[k];
            let r = m.observe(if k == 0 { o } else { &later });
            if k == aw_k && !m.aw_pending() {
                self.aw_next += 1;
                on_aw(rec);
            }
            if k == w_k && !m.w_pending() {
                self.w_next += 1;
                on_w(rec);
            }
            if let Some((resp, _)) = r {
                retired = Some(Finished::Write(*rec, resp));
            }
        }
        if let Some(f) = retired {
            done(f);
            self.wq.copy_within(1..self.w_len, 0);
            self.w_len -= 1;
            self.aw_next -= 1;
            self.w_next -= 1;
        }
        let ar_k = self.ar_next;
        let mut retired = None;
        for k in 0..self.r_len.min(ar_k + 1) {
            if k != 0 && k != ar_k {
                continue;
            }
            let (m, rec) = &mut self.rq[k];
            let r = m.observe(if k == 0 { o } else { &later });
            if k == ar_k && !m.ar_pending() {
                self.ar_next += 1;
            }
            if let Some((resp, data)) = r {
                retired = Some(Finished::Read(*rec, data, resp));
            }
        }
        if let Some(f) = retired {
            done(f);
            self.rq.copy_within(1..self.r_len, 0);
            self.r_len -= 1;
            self.ar_next -= 1;
        }
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

    /// Two writes and a read in flight at once through the register
    /// adapter: the second write's AW and W are offered while the first
    /// waits for its B, each response retires the oldest of its direction,
    /// and the records come back in issue order with the adapter's answers
    /// (OKAY, SLVERR above 0x10, the read data of the first write).
    #[test]
    fn a_queue_keeps_writes_and_reads_in_flight_in_order() {
        let (mut a, mut reg) = (AxilAdapter::default(), 0u32);
        let mut q: AxilQueue<u32, u32, 2> = AxilQueue::default();
        assert!(q.push_write(AxilMaster::write(0x4, 0xAB), 1));
        assert!(q.push_write(AxilMaster::write(0x20, 0xCD), 2));
        assert!(!q.push_write(AxilMaster::write(0x8, 0), 3), "two at most");
        assert!(q.push_read(AxilMaster::read(0x4), 4));
        let (mut fin, mut aw_seen) = (Vec::new(), Vec::new());
        for n in 0..32 {
            // Held back until released: nothing is offered in cycle 0.
            if n > 0 {
                q.release_aw();
                q.release_w();
                q.release_ar();
            }
            q.set_readies(n >= 6, true);
            let d = q.drive();
            if n == 0 {
                assert!(!d.awvalid && !d.wvalid && !d.arvalid);
            }
            let o = slave(&mut a, &mut reg, &d);
            q.observe(&o, |r| aw_seen.push((n, *r)), |_| {}, |f| fin.push(f));
            if q.idle() {
                break;
            }
        }
        // The read is offered alongside and answered before the first B
        // (held low until cycle 6), with the register as it was then.
        assert_eq!(
            fin,
            [
                Finished::Read(4, 0, 0),
                Finished::Write(1, 0),
                Finished::Write(2, crate::udma::regs::AXI_RESP_SLVERR),
            ]
        );
        assert_eq!(reg, 0xAB);
        // The second AW is taken before the first write's B (cycle 6).
        assert_eq!(aw_seen.iter().map(|x| x.1).collect::<Vec<_>>(), [1, 2]);
        assert!(aw_seen[1].0 < 6, "{aw_seen:?}");
    }

    #[test]
    fn a_silent_slave_times_out() {
        let r = AxilMaster::read(0).run(8, |_| AxilOut::default());
        assert_eq!(r, None);
    }
}
