// AXI4-Lite slave port rules (bind to a block's s_axil_* port; the formal
// harnesses of rtl/formal/ instantiate it on the port under proof).
//
// AMBA AXI4-Lite rules on all five channels, each owned by the side that
// drives it (sb2sb_assert.svh: with DutIsSlave = 1 the master's rules are the
// environment, assumed in a proof; with 0 the roles are swapped, for a master):
//   master: AW/W/AR_VALID_HELD  a VALID that was not accepted stays high
//           AW/W/AR_STABLE      the payload does not change while VALID && !READY
//   slave:  B/R_VALID_HELD, B/R_STABLE  the same for the responses
//           B_NO_REQ      BVALID only with a write address and data accepted earlier
//           R_NO_REQ      RVALID only with a read address accepted earlier
//           RESP          BRESP/RRESP are OKAY or SLVERR (the project's CSR slaves
//                         answer nothing else, docs/axil.md)
//           AW/W/AR_WAIT  a request is accepted within MaxWait cycles, unless the
//                         slave waits for the other write channel or a response
//                         is shown (the master may hold it)
//           B/R_DELAY     a response is shown within MaxDelay cycles of a
//                         complete request (no limit while the master stalls a
//                         response: the counter runs only while none is shown)
//   checker: OUTSTANDING  the accepted-and-unanswered counters (OutW bits) do not
//                         saturate
//   X_*      no X/Z on VALID/READY, nor on a payload while VALID (simulation
//            only; vacuous in Verilator's two-state model, live in 4-state tools)
// MaxWait / MaxDelay of 0 switch the bounded-wait rules off.
`include "sb2sb_assert.svh"

module axil_slave_chk #(
  parameter int unsigned AddrWidth = 32,
  parameter int unsigned DataWidth = 32,
  parameter bit          DutIsSlave = 1'b1,
  parameter int unsigned OutW      = 8,
  parameter int unsigned MaxWait   = 8,
  parameter int unsigned MaxDelay  = 8
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

  localparam int unsigned CntW = OutW;
  localparam int unsigned TW   = 8;
  localparam logic [1:0] RespOkay   = 2'b00;
  localparam logic [1:0] RespSlverr = 2'b10;
  // Rules of the master are the environment when the slave is under check
  // (formal builds only).
  /* verilator lint_off UNUSEDPARAM */
  localparam bit MEnv = DutIsSlave;
  localparam bit SEnv = !DutIsSlave;
  /* verilator lint_on UNUSEDPARAM */

  logic                   aw_stall_q, w_stall_q, b_stall_q, ar_stall_q, r_stall_q;
  logic [AddrWidth-1:0]   awaddr_q, araddr_q;
  logic [DataWidth-1:0]   wdata_q, rdata_q;
  logic [DataWidth/8-1:0] wstrb_q;
  logic [1:0]             bresp_q, rresp_q;
  // Requests accepted and not yet answered.
  logic [CntW-1:0]        aw_out_q, w_out_q, ar_out_q;
  // Bounded waits: cycles a request has waited for READY, and cycles a complete
  // request has waited for its response.
  logic [TW-1:0]          aw_wait_q, w_wait_q, ar_wait_q, b_delay_q, r_delay_q;
  logic                   aw_waits, w_waits, ar_waits, b_waits, r_waits;
  assign aw_waits = awvalid_i && !awready_i && !bvalid_i &&
                    !(aw_out_q >= w_out_q && !wvalid_i);
  assign w_waits  = wvalid_i && !wready_i && !bvalid_i &&
                    !(w_out_q >= aw_out_q && !awvalid_i);
  assign ar_waits = arvalid_i && !arready_i && !rvalid_i;
  assign b_waits  = aw_out_q != '0 && w_out_q != '0 && !bvalid_i;
  assign r_waits  = ar_out_q != '0 && !rvalid_i;

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
      aw_wait_q  <= '0;
      w_wait_q   <= '0;
      ar_wait_q  <= '0;
      b_delay_q  <= '0;
      r_delay_q  <= '0;
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
      aw_wait_q  <= aw_waits ? aw_wait_q + TW'(aw_wait_q != '1) : '0;
      w_wait_q   <= w_waits ? w_wait_q + TW'(w_wait_q != '1) : '0;
      ar_wait_q  <= ar_waits ? ar_wait_q + TW'(ar_wait_q != '1) : '0;
      b_delay_q  <= b_waits ? b_delay_q + TW'(b_delay_q != '1) : '0;
      r_delay_q  <= r_waits ? r_delay_q + TW'(r_delay_q != '1) : '0;
    end
  end

  // Master rules.
  `SB2SB_RULE(MEnv, AXIL_AW_VALID_HELD, !aw_stall_q || awvalid_i)
  `SB2SB_RULE(MEnv, AXIL_W_VALID_HELD, !w_stall_q || wvalid_i)
  `SB2SB_RULE(MEnv, AXIL_AR_VALID_HELD, !ar_stall_q || arvalid_i)
  `SB2SB_RULE(MEnv, AXIL_AW_STABLE, !aw_stall_q || awaddr_i == awaddr_q)
  `SB2SB_RULE(MEnv, AXIL_W_STABLE, !w_stall_q || (wdata_i == wdata_q && wstrb_i == wstrb_q))
  `SB2SB_RULE(MEnv, AXIL_AR_STABLE, !ar_stall_q || araddr_i == araddr_q)
  // Slave rules.
  `SB2SB_RULE(SEnv, AXIL_B_VALID_HELD, !b_stall_q || bvalid_i)
  `SB2SB_RULE(SEnv, AXIL_R_VALID_HELD, !r_stall_q || rvalid_i)
  `SB2SB_RULE(SEnv, AXIL_B_STABLE, !b_stall_q || bresp_i == bresp_q)
  `SB2SB_RULE(SEnv, AXIL_R_STABLE, !r_stall_q || (rdata_i == rdata_q && rresp_i == rresp_q))
  `SB2SB_RULE(SEnv, AXIL_B_NO_REQ, !bvalid_i || (aw_out_q != '0 && w_out_q != '0))
  `SB2SB_RULE(SEnv, AXIL_R_NO_REQ, !rvalid_i || ar_out_q != '0)
  `SB2SB_RULE(SEnv, AXIL_RESP, !(bvalid_i && bresp_i != RespOkay && bresp_i != RespSlverr) &&
      !(rvalid_i && rresp_i != RespOkay && rresp_i != RespSlverr))
  `SB2SB_RULE(SEnv, AXIL_AW_WAIT, MaxWait == 0 || 32'(aw_wait_q) < MaxWait)
  `SB2SB_RULE(SEnv, AXIL_W_WAIT, MaxWait == 0 || 32'(w_wait_q) < MaxWait)
  `SB2SB_RULE(SEnv, AXIL_AR_WAIT, MaxWait == 0 || 32'(ar_wait_q) < MaxWait)
  `SB2SB_RULE(SEnv, AXIL_B_DELAY, MaxDelay == 0 || 32'(b_delay_q) < MaxDelay)
  `SB2SB_RULE(SEnv, AXIL_R_DELAY, MaxDelay == 0 || 32'(r_delay_q) < MaxDelay)
  // Checker limit.
  `SB2SB_ASSERT(AXIL_OUTSTANDING, aw_out_q != '1 && w_out_q != '1 && ar_out_q != '1)
  // Four-state rules (simulation only).
  `SB2SB_X_ASSERT(AXIL_X_HANDSHAKE, !$isunknown({awvalid_i, awready_i, wvalid_i, wready_i,
      bvalid_i, bready_i, arvalid_i, arready_i, rvalid_i, rready_i}))
  `SB2SB_X_ASSERT(AXIL_X_PAYLOAD, !(awvalid_i && $isunknown(awaddr_i)) &&
      !(wvalid_i && $isunknown({wdata_i, wstrb_i})) && !(bvalid_i && $isunknown(bresp_i)) &&
      !(arvalid_i && $isunknown(araddr_i)) && !(rvalid_i && $isunknown({rdata_i, rresp_i})))
  // Non-vacuity (formal): a write, a read, and back-to-back writes and reads.
  `SB2SB_COVER(AXIL_C_WRITE, bvalid_i && bready_i)
  `SB2SB_COVER(AXIL_C_READ, rvalid_i && rready_i)
`ifdef FORMAL
  // Response handshakes of the two previous cycles.
  logic [1:0] b_hs_q, r_hs_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      b_hs_q <= '0;
      r_hs_q <= '0;
    end else begin
      b_hs_q <= {b_hs_q[0], bvalid_i && bready_i};
      r_hs_q <= {r_hs_q[0], rvalid_i && rready_i};
    end
  end
  `SB2SB_COVER(AXIL_C_B2B_WRITE, bvalid_i && bready_i && |b_hs_q)
  `SB2SB_COVER(AXIL_C_B2B_READ, rvalid_i && rready_i && |r_hs_q)
  `SB2SB_COVER(AXIL_C_TWO_WRITES_IN_FLIGHT, aw_out_q == CntW'(2))
`endif
endmodule : axil_slave_chk
