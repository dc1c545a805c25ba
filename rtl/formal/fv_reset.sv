// Reset of a formal harness: rst_ni is low in the first cycle of every trace
// and high afterwards (FV_RESET, assumed). Induction may start in any state of
// init_q, so a reset in the middle of a trace is also covered.
`include "sb2sb_assert.svh"

module fv_reset (
  input logic clk_i,
  input logic rst_ni
);
  logic init_q = 1'b1;
  always_ff @(posedge clk_i) begin
    init_q <= 1'b0;
  end
  always_comb begin
    FV_RESET: assume (rst_ni == !init_q);
  end
endmodule : fv_reset
