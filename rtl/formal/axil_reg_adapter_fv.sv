// Formal harness: the AXI4-Lite register adapter alone. The register side is
// free (any error flag, any read data in any cycle); the AXI4-Lite master is
// the environment (its rules assumed), the slave rules of axil_slave_chk are
// proved, with the adapter's helper invariants.
`include "sb2sb_assert.svh"

module axil_reg_adapter_fv #(
  parameter int unsigned AddrW = 4
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic [AddrW-1:0] s_axil_awaddr,
  input  logic             s_axil_awvalid,
  input  logic [31:0]      s_axil_wdata,
  input  logic [3:0]       s_axil_wstrb,
  input  logic             s_axil_wvalid,
  input  logic             s_axil_bready,
  input  logic [AddrW-1:0] s_axil_araddr,
  input  logic             s_axil_arvalid,
  input  logic             s_axil_rready,
  input  logic             wr_err_i,
  input  logic [31:0]      rd_data_i,
  input  logic             rd_err_i
);
  logic             s_axil_awready, s_axil_wready, s_axil_bvalid, s_axil_arready;
  logic             s_axil_rvalid;
  logic [1:0]       s_axil_bresp, s_axil_rresp;
  logic [31:0]      s_axil_rdata;
  logic             wr_req, rd_req;
  logic [AddrW-1:0] wr_addr, rd_addr;
  logic [31:0]      wr_data;
  logic [3:0]       wr_strb;
  logic [1:0]       pending;

  fv_reset u_rst (.clk_i, .rst_ni);

  axil_reg_adapter #(.AddrW(AddrW)) u_axil (
    .clk_i,
    .rst_ni,
    .s_axil_awaddr,
    .s_axil_awvalid,
    .s_axil_awready,
    .s_axil_wdata,
    .s_axil_wstrb,
    .s_axil_wvalid,
    .s_axil_wready,
    .s_axil_bresp,
    .s_axil_bvalid,
    .s_axil_bready,
    .s_axil_araddr,
    .s_axil_arvalid,
    .s_axil_arready,
    .s_axil_rdata,
    .s_axil_rresp,
    .s_axil_rvalid,
    .s_axil_rready,
    .wr_req_o  (wr_req),
    .wr_addr_o (wr_addr),
    .wr_data_o (wr_data),
    .wr_strb_o (wr_strb),
    .wr_err_i,
    .rd_req_o  (rd_req),
    .rd_addr_o (rd_addr),
    .rd_data_i,
    .rd_err_i,
    .pending_o (pending)
  );

  axil_slave_chk #(.AddrWidth(AddrW), .DataWidth(32)) u_chk (
    .clk_i,
    .rst_ni,
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

  axil_reg_adapter_inv u_inv (
    .clk_i,
    .rst_ni,
    .aw_v_i    (u_axil.aw_v_q),
    .w_v_i     (u_axil.w_v_q),
    .b_v_i     (u_axil.b_v_q),
    .r_v_i     (u_axil.r_v_q),
    .aw_out_i  (u_chk.aw_out_q),
    .w_out_i   (u_chk.w_out_q),
    .ar_out_i  (u_chk.ar_out_q),
    .aw_wait_i (u_chk.aw_wait_q),
    .w_wait_i  (u_chk.w_wait_q),
    .ar_wait_i (u_chk.ar_wait_q),
    .b_delay_i (u_chk.b_delay_q),
    .r_delay_i (u_chk.r_delay_q)
  );

  // The request the register side sees is the one the master sent: the
  // committed write carries a held address and data, a read the incoming one.
  logic unused;
  assign unused = ^{wr_req, rd_req, wr_addr, rd_addr, wr_data, wr_strb, pending};
endmodule : axil_reg_adapter_fv
