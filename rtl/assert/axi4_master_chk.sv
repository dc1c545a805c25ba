// AXI4 master port rules (bind to a block's m_axi_* port).
//
// Each rule is owned by the side that drives it (sb2sb_assert.svh): with
// DutIsMaster = 1 (a master under check) the slave's rules (B, R, RLAST, the
// responses' requests) are the environment, assumed in a proof; with 0 (a
// slave port under check) the master's rules are.
// AMBA AXI4 rules (INCR bursts; the blocks issue no other kind):
//   *_VALID_HELD / *_STABLE  on AW, W, AR (master) and B, R (slave side)
//   X_*          no X/Z on VALID/READY, nor on a payload while VALID
//                (vacuous in Verilator's two-state model; live in 4-state tools)
//   AW_4K/AR_4K  an INCR burst does not cross a 4 KiB boundary
//   WLAST        WLAST exactly on beat AWLEN of the burst: the beat count of
//                each W burst is matched, in order, with the AWLEN of its AW
//                (W may run ahead of AW); reported the cycle after both are seen
//   RLAST        RLAST exactly on beat ARLEN (checks the memory model)
//   B_NO_REQ     BVALID only for a burst whose AW and last W were accepted
//   R_NO_REQ     RVALID only for an accepted, unfinished read burst
//   OUTSTANDING  at most Depth bursts in flight per direction (checker limit)
`include "sb2sb_assert.svh"

module axi4_master_chk #(
  parameter int unsigned AddrWidth = 64,
  parameter int unsigned DataWidth = 64,
  parameter int unsigned Depth     = 64,
  parameter bit          DutIsMaster = 1'b1
) (
  input logic                   clk_i,
  input logic                   rst_ni,
  input logic [AddrWidth-1:0]   awaddr_i,
  input logic [7:0]             awlen_i,
  input logic [2:0]             awsize_i,
  input logic [1:0]             awburst_i,
  input logic                   awvalid_i,
  input logic                   awready_i,
  input logic [DataWidth-1:0]   wdata_i,
  input logic [DataWidth/8-1:0] wstrb_i,
  input logic                   wlast_i,
  input logic                   wvalid_i,
  input logic                   wready_i,
  input logic [1:0]             bresp_i,
  input logic                   bvalid_i,
  input logic                   bready_i,
  input logic [AddrWidth-1:0]   araddr_i,
  input logic [7:0]             arlen_i,
  input logic [2:0]             arsize_i,
  input logic [1:0]             arburst_i,
  input logic                   arvalid_i,
  input logic                   arready_i,
  input logic [DataWidth-1:0]   rdata_i,
  input logic [1:0]             rresp_i,
  input logic                   rlast_i,
  input logic                   rvalid_i,
  input logic                   rready_i
);
  `SB2SB_ASSERT_IMPORT

  localparam int unsigned PW = $clog2(Depth);
  localparam int unsigned CW = PW + 1;
  localparam logic [1:0] BurstIncr = 2'b01;
  // Rules of the slave are the environment when the master is under check
  // (formal builds only).
  /* verilator lint_off UNUSEDPARAM */
  localparam bit MEnv = !DutIsMaster;
  localparam bit SEnv = DutIsMaster;
  /* verilator lint_on UNUSEDPARAM */

  logic aw_hs, w_hs, b_hs, ar_hs, r_hs;
  assign aw_hs = awvalid_i && awready_i;
  assign w_hs  = wvalid_i && wready_i;
  assign b_hs  = bvalid_i && bready_i;
  assign ar_hs = arvalid_i && arready_i;
  assign r_hs  = rvalid_i && rready_i;

  // Previous-cycle stall flags and payloads.
  logic aw_stall_q, w_stall_q, b_stall_q, ar_stall_q, r_stall_q;
  logic [AddrWidth+12:0]  aw_pl_q, ar_pl_q;
  logic [DataWidth+DataWidth/8:0] w_pl_q;
  logic [1:0]             b_pl_q;
  logic [DataWidth+2:0]   r_pl_q;
  logic [AddrWidth+12:0]  aw_pl, ar_pl;
  logic [DataWidth+DataWidth/8:0] w_pl;
  logic [DataWidth+2:0]   r_pl;
  assign aw_pl = {awaddr_i, awlen_i, awsize_i, awburst_i};
  assign ar_pl = {araddr_i, arlen_i, arsize_i, arburst_i};
  assign w_pl  = {wdata_i, wstrb_i, wlast_i};
  assign r_pl  = {rdata_i, rresp_i, rlast_i};

  // Burst lengths of accepted AWs, of finished W bursts (beats - 1) and of
  // accepted ARs (for RLAST), in order.
  logic [Depth-1:0][7:0] awlen_q, wlen_q, arlen_q;
  logic [PW-1:0] aw_rd_q, aw_wr_q, wl_rd_q, wl_wr_q, ar_rd_q, ar_wr_q;
  logic [CW-1:0] aw_cnt_q, wl_cnt_q, ar_cnt_q;
  logic [7:0]    wbeat_q, rbeat_q;
  // Bursts accepted and not yet answered: AW, last W beat, AR.
  logic [CW-1:0] aw_out_q, wl_out_q;
  // The oldest AW and the oldest finished W burst are paired off.
  logic          pair, wlast_bad_q;
  assign pair = (aw_cnt_q != '0) && (wl_cnt_q != '0);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      aw_stall_q <= 1'b0;
      w_stall_q  <= 1'b0;
      b_stall_q  <= 1'b0;
      ar_stall_q <= 1'b0;
      r_stall_q  <= 1'b0;
      aw_pl_q    <= '0;
      ar_pl_q    <= '0;
      w_pl_q     <= '0;
      b_pl_q     <= '0;
      r_pl_q     <= '0;
      awlen_q    <= '0;
      wlen_q     <= '0;
      arlen_q    <= '0;
      wl_rd_q    <= '0;
      wl_wr_q    <= '0;
      wl_cnt_q   <= '0;
      wlast_bad_q <= 1'b0;
      aw_rd_q    <= '0;
      aw_wr_q    <= '0;
      ar_rd_q    <= '0;
      ar_wr_q    <= '0;
      aw_cnt_q   <= '0;
      ar_cnt_q   <= '0;
      wbeat_q    <= '0;
      rbeat_q    <= '0;
      aw_out_q   <= '0;
      wl_out_q   <= '0;
    end else begin
      aw_stall_q <= awvalid_i && !awready_i;
      w_stall_q  <= wvalid_i && !wready_i;
      b_stall_q  <= bvalid_i && !bready_i;
      ar_stall_q <= arvalid_i && !arready_i;
      r_stall_q  <= rvalid_i && !rready_i;
      aw_pl_q    <= aw_pl;
      ar_pl_q    <= ar_pl;
      w_pl_q     <= w_pl;
      b_pl_q     <= bresp_i;
      r_pl_q     <= r_pl;
      if (aw_hs) begin
        awlen_q[aw_wr_q] <= awlen_i;
        aw_wr_q          <= aw_wr_q + 1'b1;
      end
      if (ar_hs) begin
        arlen_q[ar_wr_q] <= arlen_i;
        ar_wr_q          <= ar_wr_q + 1'b1;
      end
      if (w_hs) begin
        wbeat_q <= wlast_i ? 8'd0 : wbeat_q + 8'd1;
      end
      if (r_hs) begin
        rbeat_q <= rlast_i ? 8'd0 : rbeat_q + 8'd1;
      end
      if (w_hs && wlast_i) begin
        wlen_q[wl_wr_q] <= wbeat_q;
        wl_wr_q         <= wl_wr_q + 1'b1;
      end
      wlast_bad_q <= pair && awlen_q[aw_rd_q] != wlen_q[wl_rd_q];
      if (pair) begin
        aw_rd_q <= aw_rd_q + 1'b1;
        wl_rd_q <= wl_rd_q + 1'b1;
      end
      if (r_hs && rlast_i && ar_cnt_q != '0) begin
        ar_rd_q <= ar_rd_q + 1'b1;
      end
      aw_cnt_q <= aw_cnt_q + CW'(aw_hs) - CW'(pair);
      wl_cnt_q <= wl_cnt_q + CW'(w_hs && wlast_i) - CW'(pair);
      ar_cnt_q <= ar_cnt_q + CW'(ar_hs) - CW'(r_hs && rlast_i && ar_cnt_q != '0);
      aw_out_q <= aw_out_q + CW'(aw_hs) - CW'(b_hs);
      wl_out_q <= wl_out_q + CW'(w_hs && wlast_i) - CW'(b_hs);
    end
  end

  // End address (exclusive) of a burst within its 4 KiB page: at most 4096.
  // An unaligned start address is counted from its size-aligned address (the
  // first beat is partial: AMBA AXI A3.4.1), so a single 8-byte beat at 0xFFC
  // ends at 0x1000 and does not cross.
  function automatic logic [13:0] page_end(logic [11:0] a, logic [7:0] len, logic [2:0] size);
    logic [11:0] aligned;
    aligned = a & ~((12'd1 << size) - 12'd1);
    return 14'(aligned) + (14'(len) + 14'd1) * (14'd1 << size);
  endfunction

  `SB2SB_RULE(MEnv, AXI_AW_VALID_HELD, !aw_stall_q || awvalid_i)
  `SB2SB_RULE(MEnv, AXI_W_VALID_HELD, !w_stall_q || wvalid_i)
  `SB2SB_RULE(SEnv, AXI_B_VALID_HELD, !b_stall_q || bvalid_i)
  `SB2SB_RULE(MEnv, AXI_AR_VALID_HELD, !ar_stall_q || arvalid_i)
  `SB2SB_RULE(SEnv, AXI_R_VALID_HELD, !r_stall_q || rvalid_i)
  `SB2SB_RULE(MEnv, AXI_AW_STABLE, !aw_stall_q || aw_pl == aw_pl_q)
  `SB2SB_RULE(MEnv, AXI_W_STABLE, !w_stall_q || w_pl == w_pl_q)
  `SB2SB_RULE(SEnv, AXI_B_STABLE, !b_stall_q || bresp_i == b_pl_q)
  `SB2SB_RULE(MEnv, AXI_AR_STABLE, !ar_stall_q || ar_pl == ar_pl_q)
  `SB2SB_RULE(SEnv, AXI_R_STABLE, !r_stall_q || r_pl == r_pl_q)
  `SB2SB_X_ASSERT(AXI_X_HANDSHAKE, !$isunknown({awvalid_i, awready_i, wvalid_i, wready_i,
      bvalid_i, bready_i, arvalid_i, arready_i, rvalid_i, rready_i}))
  `SB2SB_X_ASSERT(AXI_X_PAYLOAD, !(awvalid_i && $isunknown(aw_pl)) &&
      !(wvalid_i && $isunknown(w_pl)) && !(bvalid_i && $isunknown(bresp_i)) &&
      !(arvalid_i && $isunknown(ar_pl)) && !(rvalid_i && $isunknown(r_pl)))
  `SB2SB_RULE(MEnv, AXI_AW_4K, !awvalid_i || awburst_i != BurstIncr ||
      page_end(awaddr_i[11:0], awlen_i, awsize_i) <= 14'd4096)
  `SB2SB_RULE(MEnv, AXI_AR_4K, !arvalid_i || arburst_i != BurstIncr ||
      page_end(araddr_i[11:0], arlen_i, arsize_i) <= 14'd4096)
  `SB2SB_RULE(MEnv, AXI_WLAST, !wlast_bad_q)
  `SB2SB_RULE(SEnv, AXI_RLAST, !(r_hs && ar_cnt_q != '0) || (rlast_i == (rbeat_q == arlen_q[ar_rd_q])))
  `SB2SB_RULE(SEnv, AXI_B_NO_REQ, !bvalid_i || (aw_out_q != '0 && wl_out_q != '0))
  `SB2SB_RULE(SEnv, AXI_R_NO_REQ, !rvalid_i || ar_cnt_q != '0)
  `SB2SB_ASSERT(AXI_OUTSTANDING, aw_cnt_q < CW'(Depth) && wl_cnt_q < CW'(Depth) &&
      ar_cnt_q < CW'(Depth))
  // Non-vacuity (formal): a burst written and answered, a burst read.
  `SB2SB_COVER(AXI_C_WRITE, bvalid_i && bready_i)
  `SB2SB_COVER(AXI_C_READ_LAST, r_hs && rlast_i)
endmodule : axi4_master_chk
