//! The AXI4-Lite register adapter shared by the register blocks — golden model
//! of `rtl/axil_reg_adapter.sv` (handshake: docs/axil.md).
//!
//! Per cycle the block asks [`AxilAdapter::requests`] for this cycle's write
//! request (committed at the edge, from the held AW and W) and read request
//! (answered from the state before the edge), computes its answers
//! ([`AxilAnswer`]) and its own side effects, then calls
//! [`AxilAdapter::update`]. The adapter's outputs are registered:
//! [`AxilAdapter::out`] depends on its state only.

use crate::udma::regs::{AXI_RESP_OKAY, AXI_RESP_SLVERR};

/// AXI4-Lite slave inputs the adapter samples.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AxilIn {
    pub awaddr: u32,
    pub awvalid: bool,
    pub wdata: u32,
    pub wstrb: u32,
    pub wvalid: bool,
    pub bready: bool,
    pub araddr: u32,
    pub arvalid: bool,
    pub rready: bool,
}

/// AXI4-Lite slave outputs (registered).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AxilOut {
    pub awready: bool,
    pub wready: bool,
    pub bvalid: bool,
    pub bresp: u32,
    pub arready: bool,
    pub rvalid: bool,
    pub rdata: u32,
    pub rresp: u32,
}

/// A write the block commits at this edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WriteReq {
    pub addr: u32,
    pub data: u32,
    pub strb: u32,
}

/// This cycle's requests to the block.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AxilReq {
    /// `wr_req_o`: a write commits at this edge.
    pub write: Option<WriteReq>,
    /// `rd_req_o`: a read of this address is answered from the state before the edge.
    pub read: Option<u32>,
}

/// The block's answers to this cycle's requests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AxilAnswer {
    /// `wr_err_i`: the write answers SLVERR.
    pub write_err: bool,
    /// `rd_data_i`.
    pub read_data: u32,
    /// `rd_err_i`: the read answers SLVERR.
    pub read_err: bool,
}

/// Adapter state: one held address, one held write datum, one pending B, one pending R.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AxilAdapter {
    aw_v: bool,
    aw_addr: u32,
    w_v: bool,
    w_data: u32,
    w_strb: u32,
    b_v: bool,
    b_resp: u32,
    r_v: bool,
    r_data: u32,
    r_resp: u32,
}

impl AxilAdapter {
    /// Registered outputs.
    #[inline(always)]
    pub fn out(&self) -> AxilOut {
        AxilOut {
            awready: !self.aw_v,
            wready: !self.w_v,
            bvalid: self.b_v,
            bresp: self.b_resp,
            arready: !self.r_v,
            rvalid: self.r_v,
            rdata: self.r_data,
            rresp: self.r_resp,
        }
    }

    /// `pending_o`: bit 0 B pending, bit 1 R pending.
    pub fn pending(&self) -> u32 {
        u32::from(self.b_v) | u32::from(self.r_v) << 1
    }

    /// This cycle's requests (`addr_mask` keeps the address bits the block decodes).
    #[inline(always)]
    pub fn requests(&self, i: &AxilIn, addr_mask: u32) -> AxilReq {
        let write = (self.aw_v && self.w_v && !self.b_v).then_some(WriteReq {
            addr: self.aw_addr,
            data: self.w_data,
            strb: self.w_strb,
        });
        let read = (i.arvalid && !self.r_v).then_some(i.araddr & addr_mask);
        AxilReq { write, read }
    }

    /// Clock edge: capture AW/W, retire B/R, register the answers of this cycle's requests.
    #[inline(always)]
    pub fn update(&mut self, i: &AxilIn, req: &AxilReq, ans: &AxilAnswer, addr_mask: u32) {
        let resp = |err: bool| if err { AXI_RESP_SLVERR } else { AXI_RESP_OKAY };
        let b_hs = self.b_v && i.bready;
        let r_hs = self.r_v && i.rready;
        if i.awvalid && !self.aw_v {
            self.aw_v = true;
            self.aw_addr = i.awaddr & addr_mask;
        }
        if i.wvalid && !self.w_v {
            self.w_v = true;
            self.w_data = i.wdata;
            self.w_strb = i.wstrb & 0xF;
        }
        if req.write.is_some() {
            self.aw_v = false;
            self.w_v = false;
            self.b_v = true;
            self.b_resp = resp(ans.write_err);
        }
        if b_hs {
            self.b_v = false;
        }
        if req.read.is_some() {
            self.r_v = true;
            self.r_data = ans.read_data;
            self.r_resp = resp(ans.read_err);
        }
        if r_hs {
            self.r_v = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(a: &mut AxilAdapter, i: AxilIn, ans: AxilAnswer) -> (AxilOut, AxilReq) {
        let o = a.out();
        let r = a.requests(&i, u32::MAX);
        a.update(&i, &r, &ans, u32::MAX);
        (o, r)
    }

    #[test]
    fn aw_and_w_in_either_order_commit_the_cycle_after_both_are_held_and_b_follows() {
        for w_first in [false, true] {
            let mut a = AxilAdapter::default();
            let aw = AxilIn {
                awaddr: 0x40,
                awvalid: true,
                ..Default::default()
            };
            let w = AxilIn {
                wdata: 7,
                wstrb: 0xF,
                wvalid: true,
                ..Default::default()
            };
            let (first, second) = if w_first { (w, aw) } else { (aw, w) };
            let (_, r) = step(&mut a, first, AxilAnswer::default());
            assert_eq!(r.write, None);
            let (o, r) = step(&mut a, second, AxilAnswer::default());
            assert!(r.write.is_none() && (o.awready != o.wready));
            let (o, r) = step(
                &mut a,
                AxilIn::default(),
                AxilAnswer {
                    write_err: true,
                    ..Default::default()
                },
            );
            assert!(!o.awready && !o.wready && !o.bvalid);
            assert_eq!(
                r.write,
                Some(WriteReq {
                    addr: 0x40,
                    data: 7,
                    strb: 0xF
                })
            );
            let (o, _) = step(
                &mut a,
                AxilIn {
                    bready: true,
                    ..Default::default()
                },
                AxilAnswer::default(),
            );
            assert!(o.bvalid && o.bresp == AXI_RESP_SLVERR && o.awready && o.wready);
            assert!(!a.out().bvalid);
        }
    }

    #[test]
    fn a_read_is_answered_at_its_handshake_and_held_until_rready() {
        let mut a = AxilAdapter::default();
        let ar = AxilIn {
            araddr: 0x1004,
            arvalid: true,
            ..Default::default()
        };
        let (o, r) = step(
            &mut a,
            ar,
            AxilAnswer {
                read_data: 0x55,
                ..Default::default()
            },
        );
        assert!(o.arready);
        assert_eq!(r.read, Some(0x1004));
        // R pending: no new read is accepted, R waits for rready.
        let (o, r) = step(
            &mut a,
            ar,
            AxilAnswer {
                read_data: 0x66,
                ..Default::default()
            },
        );
        assert!(!o.arready && o.rvalid && o.rdata == 0x55 && r.read.is_none());
        let (o, _) = step(
            &mut a,
            AxilIn {
                rready: true,
                ..Default::default()
            },
            AxilAnswer::default(),
        );
        assert!(o.rvalid && o.rdata == 0x55 && o.rresp == AXI_RESP_OKAY);
        assert!(a.out().arready && !a.out().rvalid);
    }
}
