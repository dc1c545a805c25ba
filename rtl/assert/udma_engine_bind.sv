// Interface assertions bound into every udma_engine instance (and its
// register block) in assertion builds.
bind udma_engine axil_slave_chk #(
  .AddrWidth(18),
  .DataWidth(32)
) u_s_axil_chk (
  .clk_i     (clk_i),
  .rst_ni    (rst_ni),
  .awaddr_i  (s_axil_awaddr),
  .awvalid_i (s_axil_awvalid),
  .awready_i (s_axil_awready),
  .wdata_i   (s_axil_wdata),
  .wstrb_i   (s_axil_wstrb),
  .wvalid_i  (s_axil_wvalid),
  .wready_i  (s_axil_wready),
  .bresp_i   (s_axil_bresp),
  .bvalid_i  (s_axil_bvalid),
  .bready_i  (s_axil_bready),
  .araddr_i  (s_axil_araddr),
  .arvalid_i (s_axil_arvalid),
  .arready_i (s_axil_arready),
  .rdata_i   (s_axil_rdata),
  .rresp_i   (s_axil_rresp),
  .rvalid_i  (s_axil_rvalid),
  .rready_i  (s_axil_rready)
);

bind udma_engine axi4_master_chk #(
  .AddrWidth(64),
  .DataWidth(DataWidth)
) u_m_axi_chk (
  .clk_i     (clk_i),
  .rst_ni    (rst_ni),
  .awaddr_i  (m_axi_awaddr),
  .awlen_i   (m_axi_awlen),
  .awsize_i  (m_axi_awsize),
  .awburst_i (m_axi_awburst),
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
  .araddr_i  (m_axi_araddr),
  .arlen_i   (m_axi_arlen),
  .arsize_i  (m_axi_arsize),
  .arburst_i (m_axi_arburst),
  .arvalid_i (m_axi_arvalid),
  .arready_i (m_axi_arready),
  .rdata_i   (m_axi_rdata),
  .rresp_i   (m_axi_rresp),
  .rlast_i   (m_axi_rlast),
  .rvalid_i  (m_axi_rvalid),
  .rready_i  (m_axi_rready)
);

bind udma_engine axis_chk #(
  .DataWidth(DataWidth),
  .IdWidth  (QueueIdxW)
) u_m_axis_chk (
  .clk_i    (clk_i),
  .rst_ni   (rst_ni),
  .tdata_i  (m_axis_tdata),
  .tkeep_i  (m_axis_tkeep),
  .tlast_i  (m_axis_tlast),
  .tid_i    (m_axis_tid),
  .tuser_i  (m_axis_tuser),
  .tvalid_i (m_axis_tvalid),
  .tready_i (m_axis_tready)
);

bind udma_engine axis_chk #(
  .DataWidth(DataWidth),
  .IdWidth  (QueueIdxW),
  .DutIsTx  (1'b0)
) u_s_axis_chk (
  .clk_i    (clk_i),
  .rst_ni   (rst_ni),
  .tdata_i  (s_axis_tdata),
  .tkeep_i  (s_axis_tkeep),
  .tlast_i  (s_axis_tlast),
  .tid_i    (s_axis_tid),
  .tuser_i  (s_axis_tuser),
  .tvalid_i (s_axis_tvalid),
  .tready_i (s_axis_tready)
);

bind udma_regs udma_regs_ptr_chk #(
  .NumQ(NumQ)
) u_ring_chk (
  .clk_i      (clk_i),
  .rst_ni     (rst_ni),
  .head_i     (head_q),
  .tail_i     (tail_q),
  .head_adv_i (ev_head_adv_i),
  .adv_q_i    (ev_q_i)
);

// Completion ordering (seed 001 §5) inside the S2M side: rtl/assert/udma_wr_order_chk.sv.
bind udma_s2m udma_wr_order_chk #(
  .MaxWrOutstanding(MaxWrOutstanding),
  .BcntW           (BcntW),
  .WnW             (BeatIdxW + 1)
) u_wr_order_chk (
  .clk_i      (clk_i),
  .rst_ni     (rst_ni),
  .awvalid_i  (m_axi_awvalid),
  .awready_i  (m_axi_awready),
  .bvalid_i   (m_axi_bvalid),
  .bready_i   (m_axi_bready),
  .sending_i  (sending),
  .bcnt_i     (bcnt_q),
  .wn_i       (wn_q),
  .head_adv_i (ev_head_adv_o),
  .end_i      ((state_q == SDrain) && ((state_d == SCmp) || (state_d == SAdv))),
  .fail_i     (ev_err_o && ((ev_err_bit_o == UDMA_S2M_ERR_DATA_AXI_RESPONSE[4:0]) ||
                            (ev_err_bit_o == UDMA_S2M_ERR_COMP_AXI_RESPONSE[4:0]))),
  .wr_busy_i  (wr_busy_o)
);
