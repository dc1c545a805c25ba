// Interface assertions of the leg (assertion builds): the pair top has no bus of
// its own beyond the two Q7 ports, so the checkers are those of its blocks. The
// bind statements of each block are module-wide, so including them here binds
// the checkers into every udma_engine, udma_regs and evt_sem instance of both
// cores (NumEngines engines per core).
`include "evt_sem_bind.sv"
`include "udma_engine_bind.sv"

// The interconnect of each core: every AXI4 port of sb2sb_xbar (write-lane,
// in-lane and read slave ports, the link-lane masters); see sb2sb_xbar_chk.sv.
bind sb2sb_xbar sb2sb_xbar_chk #(
  .NumEngines(NumEngines),
  .NumLk     (NumLk),
  .DataBits  (DataBits)
) u_xbar_chk (
  .clk_i          (clk_i),
  .rst_ni         (rst_ni),
  .wm_awaddr_i    (wm_awaddr_i),
  .wm_awlen_i     (wm_awlen_i),
  .wm_awvalid_i   (wm_awvalid_i),
  .wm_awready_i   (wm_awready_o),
  .wm_wdata_i     (wm_wdata_i),
  .wm_wstrb_i     (wm_wstrb_i),
  .wm_wlast_i     (wm_wlast_i),
  .wm_wvalid_i    (wm_wvalid_i),
  .wm_wready_i    (wm_wready_o),
  .wm_bresp_i     (wm_bresp_o),
  .wm_bvalid_i    (wm_bvalid_o),
  .wm_bready_i    (wm_bready_i),
  .lin_awaddr_i   (lin_awaddr_i),
  .lin_awlen_i    (lin_awlen_i),
  .lin_awvalid_i  (lin_awvalid_i),
  .lin_awready_i  (lin_awready_o),
  .lin_wdata_i    (lin_wdata_i),
  .lin_wstrb_i    (lin_wstrb_i),
  .lin_wlast_i    (lin_wlast_i),
  .lin_wvalid_i   (lin_wvalid_i),
  .lin_wready_i   (lin_wready_o),
  .lin_bresp_i    (lin_bresp_o),
  .lin_bvalid_i   (lin_bvalid_o),
  .lin_bready_i   (lin_bready_i),
  .rm_araddr_i    (rm_araddr_i),
  .rm_arlen_i     (rm_arlen_i),
  .rm_arvalid_i   (rm_arvalid_i),
  .rm_arready_i   (rm_arready_o),
  .rm_rdata_i     (rm_rdata_o),
  .rm_rresp_i     (rm_rresp_o),
  .rm_rlast_i     (rm_rlast_o),
  .rm_rvalid_i    (rm_rvalid_o),
  .rm_rready_i    (rm_rready_i),
  .link_awaddr_i  (link_awaddr_o),
  .link_awlen_i   (link_awlen_o),
  .link_awvalid_i (link_awvalid_o),
  .link_awready_i (link_awready_i),
  .link_wdata_i   (link_wdata_o),
  .link_wstrb_i   (link_wstrb_o),
  .link_wlast_i   (link_wlast_o),
  .link_wvalid_i  (link_wvalid_o),
  .link_wready_i  (link_wready_i),
  .link_bresp_i   (link_bresp_i),
  .link_bvalid_i  (link_bvalid_i),
  .link_bready_i  (link_bready_o)
);

// Each direction of the die-to-die link: its near side (AXI4 write slave,
// from the sending core's xbar) and its far side (AXI4 write master, into the
// receiving core's in-lane). Write-only: the read channels are tied idle.
bind io_d2d_link axi4_master_chk #(
  .AddrWidth  (64),
  .DataWidth  (DataBits),
  .DutIsMaster(1'b0)
) u_s_axi_chk (
  .clk_i     (clk_i),
  .rst_ni    (rst_ni),
  .awaddr_i  (s_axi_awaddr),
  .awlen_i   (s_axi_awlen),
  .awsize_i  (3'($clog2(DataBits / 8))),
  .awburst_i (2'b01),
  .awvalid_i (s_axi_awvalid),
  .awready_i (s_axi_awready),
  .wdata_i   (s_axi_wdata),
  .wstrb_i   (s_axi_wstrb),
  .wlast_i   (s_axi_wlast),
  .wvalid_i  (s_axi_wvalid),
  .wready_i  (s_axi_wready),
  .bresp_i   (s_axi_bresp),
  .bvalid_i  (s_axi_bvalid),
  .bready_i  (s_axi_bready),
  .araddr_i  (64'd0),
  .arlen_i   (8'd0),
  .arsize_i  (3'($clog2(DataBits / 8))),
  .arburst_i (2'b01),
  .arvalid_i (1'b0),
  .arready_i (1'b0),
  .rdata_i   ('0),
  .rresp_i   (2'd0),
  .rlast_i   (1'b0),
  .rvalid_i  (1'b0),
  .rready_i  (1'b0)
);

bind io_d2d_link axi4_master_chk #(
  .AddrWidth(64),
  .DataWidth(DataBits)
) u_m_axi_chk (
  .clk_i     (clk_i),
  .rst_ni    (rst_ni),
  .awaddr_i  (m_axi_awaddr),
  .awlen_i   (m_axi_awlen),
  .awsize_i  (3'($clog2(DataBits / 8))),
  .awburst_i (2'b01),
  .awvalid_i (m_axi_awvalid),
  .awready_i (m_axi_awready),
  .wdata_i   (m_axi_wdata),
  .wstrb_i   (m_axi_wstrb),
  .wlast_i   (m_axi_wlast),
  .wvalid_i  (m_axi_wvalid),
  .wready_i  (m_axi_wready),
  .bresp_i   (m_axi_bresp),
  .bvalid_i  (m_axi_bvalid),
  .bready_i  (m_axi_bready),
  .araddr_i  (64'd0),
  .arlen_i   (8'd0),
  .arsize_i  (3'($clog2(DataBits / 8))),
  .arburst_i (2'b01),
  .arvalid_i (1'b0),
  .arready_i (1'b0),
  .rdata_i   ('0),
  .rresp_i   (2'd0),
  .rlast_i   (1'b0),
  .rvalid_i  (1'b0),
  .rready_i  (1'b0)
);

// The two-semaphore ordering at each core's in-lanes (seed 001 §5): an
// increment arriving over a link lane only after that lane's earlier SBUF
// data had its SRAM B; see sb2sb_sem_order_chk.sv.
bind sb2sb_xbar sb2sb_sem_order_chk #(
  .NumLk    (NumLk),
  .NumMem   (NumMem),
  .EvtLo    (EvtLo),
  .EvtIncrLo(EvtIncrLo),
  .EvtIncrHi(EvtIncrHi)
) u_sem_order_chk (
  .clk_i        (clk_i),
  .rst_ni       (rst_ni),
  .lin_awaddr_i (lin_awaddr_i),
  .lin_awvalid_i(lin_awvalid_i),
  .lin_awready_i(lin_awready_o),
  .lin_wlast_i  (lin_wlast_i),
  .lin_wvalid_i (lin_wvalid_i),
  .lin_wready_i (lin_wready_o),
  .lin_bresp_i  (lin_bresp_o),
  .lin_bvalid_i (lin_bvalid_o),
  .lin_bready_i (lin_bready_i),
  .mem_bvalid_i (mem_bvalid_i),
  .mem_bready_i (mem_bready_o)
);
