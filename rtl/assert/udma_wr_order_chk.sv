// Completion ordering of the UDMA S2M side (seed 001 §5: a descriptor completes after the
// Bs of its data; the write that raises a semaphore follows every B of the data before
// it). Bound into udma_s2m by rtl/assert/udma_engine_bind.sv. The checker counts the data
// bursts issued (AW handshakes of the sender) and their Bs itself (a B while the checker
// counts a data burst outstanding; a completion B comes when none is), and records at the
// end of a descriptor's data (it leaves DRAIN for its completion, owed Bs or not) how many
// bursts were issued.
//   WR_COMP_AFTER_DATA_B  a completion-descriptor AW (an AW while the sender has no data
//                         burst) only when no data beat is collected, queued or waiting
//                         for its B
//   WR_DONE_AFTER_DATA_B  a descriptor completes (head advance) only when every burst
//                         issued up to the end of its data has its B (this cycle's
//                         counted), whatever the next descriptor has issued since
//   WR_ONE_OWED           at most one descriptor ended and not completed: the end of a
//                         descriptor's data waits for the completion of the one before
//   WR_BUSY_COVERS_B      S2M's write-busy view (M2S's DMB waits on it; the semaphore
//                         descriptor carries DMB) is set while a data burst is collected,
//                         queued or waiting for its B, so a semaphore increment after a
//                         DMB follows every data B of the queue
//   WR_B_OUTSTANDING      at most MaxWrOutstanding data bursts wait for B
`include "sb2sb_assert.svh"

module udma_wr_order_chk #(
  parameter int unsigned MaxWrOutstanding = 8,
  parameter int unsigned BcntW            = 4,
  parameter int unsigned WnW              = 5
) (
  input logic             clk_i,
  input logic             rst_ni,
  input logic             awvalid_i,
  input logic             awready_i,
  input logic             bvalid_i,
  input logic             bready_i,
  input logic             sending_i,
  input logic [BcntW-1:0] bcnt_i,
  input logic [WnW-1:0]   wn_i,
  input logic             head_adv_i,
  // the descriptor's data ends: it leaves DRAIN for its completion (CMP, or ADV owed)
  input logic             end_i,
  // the ended descriptor fails (a data or completion B error): it never completes
  input logic             fail_i,
  input logic             wr_busy_i
);
  `SB2SB_ASSERT_IMPORT

  // issued and answered data bursts (mod 2^16), the issued count at the end of the
  // descriptor that has not completed
  logic [15:0] iss_q, ret_q, mark_q;
  logic        owed_q;
  logic        data_aw, data_b, open_b, data_out;
  logic [15:0] ret_now;

  assign data_aw  = sending_i && awvalid_i && awready_i;
  assign open_b   = iss_q != ret_q;
  assign data_b   = open_b && bvalid_i && bready_i;
  assign ret_now  = ret_q + 16'(data_b);
  assign data_out = sending_i || open_b || (wn_i != '0);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      iss_q  <= '0;
      ret_q  <= '0;
      mark_q <= '0;
      owed_q <= 1'b0;
    end else begin
      iss_q <= iss_q + 16'(data_aw);
      ret_q <= ret_now;
      if (end_i) begin
        mark_q <= iss_q + 16'(data_aw);
      end
      owed_q <= end_i || (owed_q && !head_adv_i && !fail_i);
    end
  end

  `SB2SB_ASSERT(WR_COMP_AFTER_DATA_B, !(awvalid_i && !sending_i) || !data_out)
  // ret_now ≥ mark_q modulo 2^16 (the two differ by fewer than 2^15)
  `SB2SB_ASSERT(WR_DONE_AFTER_DATA_B, !head_adv_i || (owed_q && (ret_now - mark_q) < 16'h8000))
  `SB2SB_ASSERT(WR_ONE_OWED, !end_i || !owed_q || head_adv_i || fail_i)
  `SB2SB_ASSERT(WR_BUSY_COVERS_B, wr_busy_i || !data_out)
  `SB2SB_ASSERT(WR_B_OUTSTANDING, 32'(bcnt_i) <= MaxWrOutstanding)
endmodule : udma_wr_order_chk
