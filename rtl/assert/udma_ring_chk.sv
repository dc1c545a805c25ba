// UDMA block invariants (bind into udma_regs), per side (M2S, S2M) and queue:
//   UDMA_HEAD_NOT_PAST_TAIL  the head advances only while the ring holds a
//                            descriptor (head != tail), so it never passes the tail
//   UDMA_RING_ID_SEQ         a head or tail ring id changes only to its
//                            successor 1,2,3,0,1,... or back to the initial id 1
//                            with the pointer at 0 (ring re-initialised)
`include "sb2sb_assert.svh"

module udma_ring_chk #(
  parameter int unsigned NumQ       = 16,
  localparam int unsigned QueueIdxW = $clog2(NumQ)
) (
  input logic                        clk_i,
  input logic                        rst_ni,
  input logic [1:0][NumQ-1:0][23:0]  head_off_i,
  input logic [1:0][NumQ-1:0][1:0]   head_id_i,
  input logic [1:0][NumQ-1:0][23:0]  tail_off_i,
  input logic [1:0][NumQ-1:0][1:0]   tail_id_i,
  input logic [1:0]                  head_adv_i,
  input logic [1:0][QueueIdxW-1:0]   adv_q_i
);
  `SB2SB_ASSERT_IMPORT

  localparam logic [1:0] IdInit = 2'd1;

  logic [1:0][NumQ-1:0][1:0] head_id_q, tail_id_q;
  logic                      started_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      head_id_q <= {(2 * NumQ) {IdInit}};
      tail_id_q <= {(2 * NumQ) {IdInit}};
      started_q <= 1'b0;
    end else begin
      head_id_q <= head_id_i;
      tail_id_q <= tail_id_i;
      started_q <= 1'b1;
    end
  end

  function automatic logic id_step_ok(logic [1:0] prev, logic [1:0] cur, logic [23:0] off);
    return cur == prev || cur == prev + 2'd1 || (cur == IdInit && off == '0);
  endfunction

  logic not_past, id_ok;
  always_comb begin
    not_past = 1'b1;
    id_ok    = 1'b1;
    for (int unsigned s = 0; s < 2; s++) begin
      if (head_adv_i[s] && head_off_i[s][adv_q_i[s]] == tail_off_i[s][adv_q_i[s]]) begin
        not_past = 1'b0;
      end
      for (int unsigned q = 0; q < NumQ; q++) begin
        if (started_q && (!id_step_ok(head_id_q[s][q], head_id_i[s][q], head_off_i[s][q]) ||
                          !id_step_ok(tail_id_q[s][q], tail_id_i[s][q], tail_off_i[s][q]))) begin
          id_ok = 1'b0;
        end
      end
    end
  end

  `SB2SB_ASSERT(UDMA_HEAD_NOT_PAST_TAIL, not_past)
  `SB2SB_ASSERT(UDMA_RING_ID_SEQ, id_ok)
endmodule : udma_ring_chk
