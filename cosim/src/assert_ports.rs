// Ports of the assertion checker harness `tb/assert/assert_harness.sv`:
// every checker of `rtl/assert/` instantiated with its inputs on top-level
// ports, so the firing tests (`tb/assert_fire.rs`) can drive hand-made
// protocol violations straight into each rule. Verilated only in assertion
// builds (`SB2SB_ASSERT=1`); this file is also `include!`d by `build.rs`.

use sb2sb_model::ports::{BlockDesc, PortBundle};

sb2sb_model::port_bundle! {
    /// Harness inputs: one group per checker (`axil_`, `axi_`, `axis_`, `es_`, `ur_`, `xb_`, `so_`, `wo_`).
    pub struct HarnessIn {
        rst_ni: u64 = 1,
        axil_awaddr: u64 = 16,
        axil_awvalid: u64 = 1,
        axil_awready: u64 = 1,
        axil_wdata: u64 = 32,
        axil_wstrb: u64 = 4,
        axil_wvalid: u64 = 1,
        axil_wready: u64 = 1,
        axil_bresp: u64 = 2,
        axil_bvalid: u64 = 1,
        axil_bready: u64 = 1,
        axil_araddr: u64 = 16,
        axil_arvalid: u64 = 1,
        axil_arready: u64 = 1,
        axil_rdata: u64 = 32,
        axil_rresp: u64 = 2,
        axil_rvalid: u64 = 1,
        axil_rready: u64 = 1,
        axi_awaddr: u64 = 64,
        axi_awlen: u64 = 8,
        axi_awsize: u64 = 3,
        axi_awburst: u64 = 2,
        axi_awvalid: u64 = 1,
        axi_awready: u64 = 1,
        axi_wdata: u64 = 32,
        axi_wstrb: u64 = 4,
        axi_wlast: u64 = 1,
        axi_wvalid: u64 = 1,
        axi_wready: u64 = 1,
        axi_bresp: u64 = 2,
        axi_bvalid: u64 = 1,
        axi_bready: u64 = 1,
        axi_araddr: u64 = 64,
        axi_arlen: u64 = 8,
        axi_arsize: u64 = 3,
        axi_arburst: u64 = 2,
        axi_arvalid: u64 = 1,
        axi_arready: u64 = 1,
        axi_rdata: u64 = 32,
        axi_rresp: u64 = 2,
        axi_rlast: u64 = 1,
        axi_rvalid: u64 = 1,
        axi_rready: u64 = 1,
        axis_tdata: u64 = 32,
        axis_tkeep: u64 = 4,
        axis_tlast: u64 = 1,
        axis_tid: u64 = 4,
        axis_tuser: u64 = 1,
        axis_tvalid: u64 = 1,
        axis_tready: u64 = 1,
        /// 4 semaphores × 32 bits.
        es_sem: [u64; 2] = 128,
        es_inc_valid: u64 = 2,
        /// 2 ports × 8-bit index.
        es_inc_idx: u64 = 16,
        /// 2 ports × 32-bit value.
        es_inc_value: u64 = 64,
        es_wr_v: u64 = 1,
        es_wr_idx: u64 = 8,
        es_dec_v: u64 = 1,
        es_dec_idx: u64 = 8,
        /// [side][queue] × 24 bits, 2 sides × 2 queues.
        ur_head_off: [u64; 2] = 96,
        ur_head_id: u64 = 8,
        ur_tail_off: [u64; 2] = 96,
        ur_tail_id: u64 = 8,
        ur_head_adv: u64 = 2,
        ur_adv_q: u64 = 2,
        /// sb2sb_xbar_chk with NumEngines 1, NumLk 1: write-lane ports
        /// wm[0..1] (engine, Q7), the in-lane port lin, read port rm[0], the
        /// link-lane master; [k] = lane k.
        xb_wm_awaddr: [u64; 2] = 128,
        xb_wm_awlen: u64 = 16,
        xb_wm_awvalid: u64 = 2,
        xb_wm_awready: u64 = 2,
        xb_wm_wdata: [u64; 2] = 128,
        xb_wm_wstrb: u64 = 16,
        xb_wm_wlast: u64 = 2,
        xb_wm_wvalid: u64 = 2,
        xb_wm_wready: u64 = 2,
        /// 2 ports × 2-bit B response.
        xb_wm_bresp: u64 = 4,
        xb_wm_bvalid: u64 = 2,
        xb_wm_bready: u64 = 2,
        xb_lin_awaddr: u64 = 64,
        xb_lin_awlen: u64 = 8,
        xb_lin_awvalid: u64 = 1,
        xb_lin_awready: u64 = 1,
        xb_lin_wdata: u64 = 64,
        xb_lin_wstrb: u64 = 8,
        xb_lin_wlast: u64 = 1,
        xb_lin_wvalid: u64 = 1,
        xb_lin_wready: u64 = 1,
        xb_lin_bresp: u64 = 2,
        xb_lin_bvalid: u64 = 1,
        xb_lin_bready: u64 = 1,
        xb_rm_araddr: u64 = 64,
        xb_rm_arlen: u64 = 8,
        xb_rm_arvalid: u64 = 1,
        xb_rm_arready: u64 = 1,
        xb_rm_rdata: u64 = 64,
        xb_rm_rresp: u64 = 2,
        xb_rm_rlast: u64 = 1,
        xb_rm_rvalid: u64 = 1,
        xb_rm_rready: u64 = 1,
        xb_link_awaddr: u64 = 64,
        xb_link_awlen: u64 = 8,
        xb_link_awvalid: u64 = 1,
        xb_link_awready: u64 = 1,
        xb_link_wdata: u64 = 64,
        xb_link_wstrb: u64 = 8,
        xb_link_wlast: u64 = 1,
        xb_link_wvalid: u64 = 1,
        xb_link_wready: u64 = 1,
        xb_link_bresp: u64 = 2,
        xb_link_bvalid: u64 = 1,
        xb_link_bready: u64 = 1,
        /// sb2sb_sem_order_chk with NumLk 1, NumMem 2: one in-lane port
        /// (its own lines, apart from xb_lin_*) and two memories' B lines.
        so_lin_awaddr: u64 = 64,
        so_lin_awvalid: u64 = 1,
        so_lin_awready: u64 = 1,
        so_lin_wlast: u64 = 1,
        so_lin_wvalid: u64 = 1,
        so_lin_wready: u64 = 1,
        so_lin_bresp: u64 = 2,
        so_lin_bvalid: u64 = 1,
        so_lin_bready: u64 = 1,
        so_mem_bvalid: u64 = 2,
        so_mem_bready: u64 = 2,
        /// udma_wr_order_chk (MaxWrOutstanding 8): the S2M side's write
        /// handshakes and its descriptor events.
        wo_awvalid: u64 = 1,
        wo_awready: u64 = 1,
        wo_bvalid: u64 = 1,
        wo_bready: u64 = 1,
        wo_sending: u64 = 1,
        wo_bcnt: u64 = 4,
        wo_wn: u64 = 5,
        wo_head_adv: u64 = 1,
        wo_end: u64 = 1,
        wo_fail: u64 = 1,
        wo_wr_busy: u64 = 1,
    }
}

sb2sb_model::port_bundle! {
    /// Harness outputs.
    pub struct HarnessOut {
        alive_o: u64 = 1,
    }
}

/// The harness as a Verilated block (not in `sb2sb_model::blocks::BLOCKS`:
/// it has no golden model and is not a lockstep block).
pub const HARNESS: BlockDesc = BlockDesc {
    name: "assert_harness",
    top: "assert_harness",
    rtl_files: &["sb2sb_pkg.sv", "../tb/assert/assert_harness.sv"],
    params: &[],
    inputs: <HarnessIn as PortBundle>::SIGNALS,
    outputs: <HarnessOut as PortBundle>::SIGNALS,
};
