// AXI4-Lite slave port checker (bind to a block's s_axil_* port).
//
// AMBA AXI4-Lite rules checked on all five channels:
//   *_VALID_HELD  a VALID that was not accepted stays high the next cycle
//   *_STABLE      the payload does not change while VALID && !READY
//   X_*           no X/Z on VALID/READY, nor on a payload while VALID
//                 (vacuous in Verilator's two-state model; live in 4-state tools)
//   B_NO_REQ      BVALID only with a write address and data accepted earlier
//   R_NO_REQ      RVALID only with a read address accepted earlier
`include "sb2sb_assert.svh"

module axil_slave_chk #(
  parameter int unsigned AddrWidth = 32,
  parameter int unsigned DataWidth = 32
) (
  input logic                   clk_i,
  input logic                   rst_ni,
  input logic [AddrWidth-1:0]   awaddr_i,
  input logic                   awvalid_i,
  input logic                   awready_i,
  input logic [DataWidth-1:0]   wdata_i,
  input logic [DataWidth/8-1:0] wstrb_i,
  input logic                   wvalid_i,
  input logic                   wready_i,
  input logic [1:0]             bresp_i,
  input logic                   bvalid_i,
  input logic                   bready_i,
  input logic [AddrWidth-1:0]   araddr_i,
  input logic                   arvalid_i,
  input logic                   arready_i,
  input logic [DataWidth-1:0]   rdata_i,
  input logic [1:0]             rresp_i,
  input logic                   rvalid_i,
  input logic                   rready_i
);
  `SB2SB_ASSERT_IMPORT

  localparam int unsigned CntW = 8;

  logic                   aw_stall_q, w_stall_q, b_stall_q, ar_stall_q, r_stall_q;
  logic [AddrWidth-1:0]   awaddr_q, araddr_q;
  logic [DataWidth-1:0]   wdata_q, rdata_q;
  logic [DataWidth/8-1:0] wstrb_q;
  logic [1:0]             bresp_q, rresp_q;
  // Requests accepted and not yet answered.
  logic [CntW-1:0]        aw_out_q, w_out_q, ar_out_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      aw_stall_q <= 1'b0;
      w_stall_q  <= 1'b0;
      b_stall_q  <= 1'b0;
      ar_stall_q <= 1'b0;
      r_stall_q  <= 1'b0;
      awaddr_q   <= '0;
      araddr_q   <= '0;
      wdata_q    <= '0;
      rdata_q    <= '0;
      wstrb_q    <= '0;
      bresp_q    <= '0;
      rresp_q    <= '0;
      aw_out_q   <= '0;
      w_out_q    <= '0;
      ar_out_q   <= '0;
    end else begin
      aw_stall_q <= awvalid_i && !awready_i;
      w_stall_q  <= wvalid_i && !wready_i;
      b_stall_q  <= bvalid_i && !bready_i;
      ar_stall_q <= arvalid_i && !arready_i;
      r_stall_q  <= rvalid_i && !rready_i;
      awaddr_q   <= awaddr_i;
      araddr_q   <= araddr_i;
      wdata_q    <= wdata_i;
      rdata_q    <= rdata_i;
      wstrb_q    <= wstrb_i;
      bresp_q    <= bresp_i;
      rresp_q    <= rresp_i;
      aw_out_q   <= aw_out_q + CntW'(awvalid_i && awready_i) - CntW'(bvalid_i && bready_i);
      w_out_q    <= w_out_q + CntW'(wvalid_i && wready_i) - CntW'(bvalid_i && bready_i);
      ar_out_q   <= ar_out_q + CntW'(arvalid_i && arready_i) - CntW'(rvalid_i && rready_i);
    end
  end

  `SB2SB_ASSERT(AXIL_AW_VALID_HELD, !aw_stall_q || awvalid_i)
  `SB2SB_ASSERT(AXIL_W_VALID_HELD, !w_stall_q || wvalid_i)
  `SB2SB_ASSERT(AXIL_B_VALID_HELD, !b_stall_q || bvalid_i)
  `SB2SB_ASSERT(AXIL_AR_VALID_HELD, !ar_stall_q || arvalid_i)
  `SB2SB_ASSERT(AXIL_R_VALID_HELD, !r_stall_q || rvalid_i)
  `SB2SB_ASSERT(AXIL_AW_STABLE, !aw_stall_q || awaddr_i == awaddr_q)
  `SB2SB_ASSERT(AXIL_W_STABLE, !w_stall_q || (wdata_i == wdata_q && wstrb_i == wstrb_q))
  `SB2SB_ASSERT(AXIL_B_STABLE, !b_stall_q || bresp_i == bresp_q)
  `SB2SB_ASSERT(AXIL_AR_STABLE, !ar_stall_q || araddr_i == araddr_q)
  `SB2SB_ASSERT(AXIL_R_STABLE, !r_stall_q || (rdata_i == rdata_q && rresp_i == rresp_q))
  `SB2SB_ASSERT(AXIL_X_HANDSHAKE, !$isunknown({awvalid_i, awready_i, wvalid_i, wready_i,
      bvalid_i, bready_i, arvalid_i, arready_i, rvalid_i, rready_i}))
  `SB2SB_ASSERT(AXIL_X_PAYLOAD, !(awvalid_i && $isunknown(awaddr_i)) &&
      !(wvalid_i && $isunknown({wdata_i, wstrb_i})) && !(bvalid_i && $isunknown(bresp_i)) &&
      !(arvalid_i && $isunknown(araddr_i)) && !(rvalid_i && $isunknown({rdata_i, rresp_i})))
  `SB2SB_ASSERT(AXIL_B_NO_REQ, !bvalid_i || (aw_out_q != '0 && w_out_q != '0))
  `SB2SB_ASSERT(AXIL_R_NO_REQ, !rvalid_i || ar_out_q != '0)
endmodule : axil_slave_chk
