//! Golden model of `rtl/io_d2d_link.sv`: one direction of the io_d2d link,
//! an AXI4 write bridge with a fixed latency and backpressure (seed 001 §3,
//! §3.4). Outputs depend on the registered state and `stall_i` only.

use crate::system::map;
use crate::udma::beat::Beat;

/// Default link latency in cycles (`Latency` of the RTL; project-defined).
pub const LINK_LATENCY: u16 = 8;
/// Bursts in flight (`AwDepth`).
pub const AW_DEPTH: usize = 4;
/// Data beats buffered (`WDepth`).
pub const W_DEPTH: usize = 32;

/// Test-only faults of the link (off in every normal run).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkFault {
    /// Drop every burst addressed to the peer's EVT_SEM window (the routed
    /// remote-semaphore write), answering OKAY on the near side as if it had
    /// been delivered.
    DropSemWrite,
}

/// Near-side inputs (from the sending core's interconnect).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LinkNearIn {
    pub awaddr: u64,
    pub awlen: u64,
    pub awvalid: bool,
    pub wdata: Beat,
    pub wstrb: u64,
    pub wlast: bool,
    pub wvalid: bool,
    pub bready: bool,
}

/// Far-side inputs (from the receiving core's interconnect).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LinkFarIn {
    pub awready: bool,
    pub wready: bool,
    pub bresp: u64,
    pub bvalid: bool,
}

/// Outputs of both sides.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LinkOut {
    // near side
    pub awready: bool,
    pub wready: bool,
    pub bresp: u64,
    pub bvalid: bool,
    // far side
    pub m_awaddr: u64,
    pub m_awlen: u64,
    pub m_awvalid: bool,
    pub m_wdata: Beat,
    pub m_wstrb: u64,
    pub m_wlast: bool,
    pub m_wvalid: bool,
    pub m_bready: bool,
    pub dbg: u64,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct AwEnt {
    addr: u64,
    len: u64,
    ts: u16,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct WEnt {
    data: Beat,
    strb: u64,
    last: bool,
    ts: u16,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct BEnt {
    resp: u64,
    ts: u16,
}

/// The link registers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    pub latency: u16,
    now: u16,
    aw: [AwEnt; AW_DEPTH],
    aw_wp: usize,
    aw_rp: usize,
    aw_cnt: usize,
    w: [WEnt; W_DEPTH],
    w_wp: usize,
    w_rp: usize,
    w_cnt: usize,
    b: [BEnt; AW_DEPTH],
    b_wp: usize,
    b_rp: usize,
    b_cnt: usize,
    open: usize,
    sent: u8,
    /// A VALID that was high without READY at the last edge stays high
    /// (`aw_held_q`, `w_held_q`, `b_held_q`: AMBA, VALID is never withdrawn).
    aw_held: bool,
    w_held: bool,
    b_held: bool,
    /// Test-only fault.
    pub fault: Option<LinkFault>,
    /// Fault state: the burst being dropped (W beats to swallow).
    dropping: bool,
    /// Bursts dropped by the fault.
    pub dropped: u64,
}

/// LOCAL offset range of the EVT_SEM window inside a core (map of docs/pair.md).
fn is_sem_addr(addr: u64) -> bool {
    let off = addr & 0xFFFF_FFFF;
    (map::CORE_EVT_SEM_BASE..map::CORE_EVT_SEM_BASE + map::CORE_EVT_SEM_BYTES).contains(&off)
}

impl Link {
    /// A link with `latency` cycles (1..=30000).
    pub fn new(latency: u16) -> Self {
        Self {
            latency,
            now: 0,
            aw: Default::default(),
            aw_wp: 0,
            aw_rp: 0,
            aw_cnt: 0,
            w: [WEnt::default(); W_DEPTH],
            w_wp: 0,
            w_rp: 0,
            w_cnt: 0,
            b: Default::default(),
            b_wp: 0,
            b_rp: 0,
            b_cnt: 0,
            open: 0,
            sent: 0,
            aw_held: false,
            w_held: false,
            b_held: false,
            fault: None,
            dropping: false,
            dropped: 0,
        }
    }

    /// Nothing in flight (no burst open, every FIFO empty).
    pub fn idle(&self) -> bool {
        self.open == 0 && self.aw_cnt == 0 && self.w_cnt == 0 && self.b_cnt == 0
    }

    fn reset(&mut self) {
        let (l, f, d) = (self.latency, self.fault, self.dropped);
        *self = Self::new(l);
        self.fault = f;
        self.dropped = d;
    }

    /// Outputs of both sides (reset state while `rst`).
    #[inline(always)]
    pub fn outputs(&self, rst: bool, stall: bool) -> LinkOut {
        if rst {
            return LinkOut {
                awready: true,
                wready: true,
                m_bready: true,
                ..Default::default()
            };
        }
        let lat = self.latency;
        let aw = self.aw[self.aw_rp];
        let w = self.w[self.w_rp];
        let b = self.b[self.b_rp];
        let age = |ts: u16| self.now.wrapping_sub(ts);
        LinkOut {
            awready: self.open != AW_DEPTH,
            wready: self.w_cnt != W_DEPTH,
            bvalid: self.b_held || (self.b_cnt != 0 && age(b.ts) >= lat && !stall),
            bresp: b.resp,
            m_awvalid: self.aw_held || (self.aw_cnt != 0 && age(aw.ts) >= lat && !stall),
            m_awaddr: aw.addr,
            m_awlen: aw.len,
            m_wvalid: self.w_held || (self.w_cnt != 0 && age(w.ts) >= lat && !stall),
            m_wdata: w.data,
            m_wstrb: w.strb,
            m_wlast: w.last,
            m_bready: self.b_cnt != AW_DEPTH,
            dbg: u64::from(self.sent) << 24
                | (self.b_cnt as u64) << 16
                | (self.w_cnt as u64) << 8
                | self.aw_cnt as u64,
        }
    }

    /// Clock edge.
    #[inline(always)]
    pub fn update(&mut self, rst: bool, n: &LinkNearIn, f: &LinkFarIn, o: &LinkOut) {
        if rst {
            self.reset();
            return;
        }
        let aw_in = n.awvalid && o.awready;
        let w_in = n.wvalid && o.wready;
        let b_out = o.bvalid && n.bready;
        let aw_out = o.m_awvalid && f.awready;
        let w_out = o.m_wvalid && f.wready;
        let b_in = f.bvalid && o.m_bready;
        let now = self.now;
        self.now = now.wrapping_add(1);
        self.aw_held = o.m_awvalid && !f.awready;
        self.w_held = o.m_wvalid && !f.wready;
        self.b_held = o.bvalid && !n.bready;
        // No handshake on either side: no FIFO moves, no burst opens or
        // closes, nothing is dropped (every event below is false), so the
        // edge is the time step and the held flags above (the RTL lockstep
        // checks this shortcut).
        if !(aw_in || w_in || b_out || aw_out || w_out || b_in) {
            return;
        }
        // Fault: swallow a semaphore burst, answer it on the near side.
        let drop_aw = aw_in && self.fault == Some(LinkFault::DropSemWrite) && is_sem_addr(n.awaddr);
        if aw_in && !drop_aw {
            self.aw[self.aw_wp] = AwEnt {
                addr: n.awaddr & ((1 << 48) - 1),
                len: n.awlen,
                ts: now,
            };
            self.aw_wp = (self.aw_wp + 1) % AW_DEPTH;
        }
        if aw_out {
            self.aw_rp = (self.aw_rp + 1) % AW_DEPTH;
            self.sent = self.sent.wrapping_add(1);
        }
        self.aw_cnt = self.aw_cnt + usize::from(aw_in && !drop_aw) - usize::from(aw_out);
        self.open = self.open + usize::from(aw_in) - usize::from(b_out);
        let drop_w = w_in && (self.dropping || drop_aw);
        if w_in && !drop_w {
            self.w[self.w_wp] = WEnt {
                data: n.wdata,
                strb: n.wstrb,
                last: n.wlast,
                ts: now,
            };
            self.w_wp = (self.w_wp + 1) % W_DEPTH;
        }
        if drop_aw {
            self.dropping = true;
            self.dropped += 1;
        }
        let mut fake_b = false;
        if drop_w && n.wlast {
            self.dropping = false;
            fake_b = true;
        }
        if w_out {
            self.w_rp = (self.w_rp + 1) % W_DEPTH;
        }
        self.w_cnt = self.w_cnt + usize::from(w_in && !drop_w) - usize::from(w_out);
        // A faked response takes the slot of the far-side one.
        if b_in || fake_b {
            self.b[self.b_wp] = BEnt {
                resp: if fake_b { 0 } else { f.bresp },
                ts: now,
            };
            self.b_wp = (self.b_wp + 1) % AW_DEPTH;
        }
        if b_out {
            self.b_rp = (self.b_rp + 1) % AW_DEPTH;
        }
        self.b_cnt = self.b_cnt + usize::from(b_in || fake_b) - usize::from(b_out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Clock the link once with the given inputs and stall; returns the outputs seen before the edge.
    fn clock(l: &mut Link, n: &LinkNearIn, f: &LinkFarIn, stall: bool) -> LinkOut {
        let o = l.outputs(false, stall);
        l.update(false, n, f, &o);
        o
    }

    #[test]
    fn a_raised_valid_is_never_withdrawn_by_stall_and_no_new_valid_rises_under_stall() {
        let mut l = Link::new(2);
        let idle = LinkNearIn {
            bready: true,
            ..Default::default()
        };
        let burst = LinkNearIn {
            awaddr: 0x0012_1234_0000_0100,
            awvalid: true,
            wdata: [0xdead_beef, 0, 0, 0],
            wstrb: 0xff,
            wlast: true,
            wvalid: true,
            bready: true,
            ..Default::default()
        };
        let far_busy = LinkFarIn::default();
        // one single-beat burst enters
        clock(&mut l, &burst, &far_busy, false);
        // stalled from the start: after the latency has passed nothing is raised
        for _ in 0..4 {
            let o = clock(&mut l, &idle, &far_busy, true);
            assert!(!o.m_awvalid && !o.m_wvalid, "no new VALID while stalled");
        }
        // stall drops, VALID rises; far side not ready
        let o = clock(&mut l, &idle, &far_busy, false);
        assert!(o.m_awvalid && o.m_wvalid);
        // stall rises again while VALID waits for READY: VALID and payload stay
        for _ in 0..3 {
            let o2 = clock(&mut l, &idle, &far_busy, true);
            assert!(o2.m_awvalid && o2.m_wvalid, "VALID held until READY (AMBA)");
            assert_eq!((o2.m_awaddr, o2.m_wdata), (o.m_awaddr, o.m_wdata));
        }
        // the far side takes both; with the stall still on nothing new is offered
        let take = LinkFarIn {
            awready: true,
            wready: true,
            ..Default::default()
        };
        let o3 = clock(&mut l, &idle, &take, true);
        assert!(o3.m_awvalid && o3.m_wvalid);
        let o4 = clock(&mut l, &idle, &take, true);
        assert!(!o4.m_awvalid && !o4.m_wvalid);
        assert_eq!(
            o3.m_awaddr, 0x1234_0000_0100,
            "routing fields [63:48] stripped on the far side"
        );
    }
}
