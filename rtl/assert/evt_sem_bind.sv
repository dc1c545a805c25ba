// Interface assertions bound into every evt_sem instance (assertion builds).
bind evt_sem axil_slave_chk #(
  .AddrWidth(AddrW),
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

bind evt_sem evt_sem_inc_chk #(
  .NumSem (NumSem),
  .NumInc (NumInc),
  .NumWait(NumWait),
  .GrpW   (SemGrpW)
) u_inc_chk (
  .clk_i       (clk_i),
  .rst_ni      (rst_ni),
  .sem_i       (sem_q),
  .inc_valid_i (inc_valid_i),
  .inc_idx_i   (inc_idx_i),
  .inc_value_i (inc_value_i),
  .wr_v_i      (wr_set_v | wr_add_v),
  .wr_idx_i    (wr_idx),
  .dec_v_i     (dec_v),
  .dec_idx_i   (wait_idx_i)
);
