// Completion ordering of the UDMA S2M side (seed 001 §5: the write that raises a
// semaphore follows every B of the data before it). Bound into udma_s2m by
// rtl/assert/udma_engine_bind.sv.
//   WR_COMP_AFTER_DATA_B  a completion-descriptor AW (an AW while the sender has no
//                         data burst) only when no data beat is collected, queued or
//                         waiting for its B
//   WR_DONE_AFTER_DATA_B  a descriptor completes (head advance) only then too, so the
//                         next descriptor's writes (e.g. a semaphore increment) follow
//                         every B of this one's data
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
  input logic             sending_i,
  input logic [BcntW-1:0] bcnt_i,
  input logic [WnW-1:0]   wn_i,
  input logic             head_adv_i
);
  `SB2SB_ASSERT_IMPORT

  logic data_out;
  assign data_out = sending_i || (bcnt_i != '0) || (wn_i != '0);

  `SB2SB_ASSERT(WR_COMP_AFTER_DATA_B, !(awvalid_i && !sending_i) || !data_out)
  `SB2SB_ASSERT(WR_DONE_AFTER_DATA_B, !head_adv_i || !data_out)
  `SB2SB_ASSERT(WR_B_OUTSTANDING, 32'(bcnt_i) <= MaxWrOutstanding)
endmodule : udma_wr_order_chk
