// Formal reference of one UDMA ring's step: the tail a doorbell (Q_RTP_INC)
// leaves and whether it overflows, the head a completed descriptor leaves,
// and the lap-order lemma on them.
//
// Computed from the ring's head, tail and length as docs/udma.md describes the
// doorbell (used = tail - head modulo the length, free = length - 1 - used; an
// INC above the free space moves nothing, otherwise the tail moves by INC
// modulo the length and its ring id + 1 on the wrap) and the head advance (one
// slot, offset 0 and ring id + 1 past the last slot). udma_regs_fv checks the
// register file's tail against tail_o (FV_UDMA_DB_FREE).
//
// FV_UDMA_STEP_ORDER (Check = 2: asserted; 1: assumed; 0: neither): a ring
// whose offsets are inside it and in lap order (the tail on the head's lap at
// or after it, or one lap ahead and before it) is still so after the step,
// when a head advance only comes with a non-empty ring. It is a fact of
// modular arithmetic on the inputs alone (no state), proved for every input
// value at the full pointer width by task `step` of
// rtl/formal/udma_ring_step.sby; the ring proofs of udma_regs_fv assume it
// (task `order24`) so that their induction step does not redo the arithmetic.
`include "sb2sb_assert.svh"

module udma_ring_step_fv
  import sb2sb_pkg::*;
#(
  parameter int unsigned Check = 0
) (
  input  logic                      rst_ni,
  input  udma_q_ptr_t               head_i,
  input  udma_q_ptr_t               tail_i,
  input  udma_q_rl_len_t            rl_i,
  input  logic                      db_i,    // a doorbell of INC inc_i this cycle
  input  logic [$bits(udma_q_ptr_offset_t)-1:0] inc_i,
  input  logic                      adv_i,   // the head advances one slot this cycle
  output udma_q_ptr_t               tail_o,  // the tail after the doorbell
  output logic                      over_o   // the doorbell exceeds the free space
);
  localparam int unsigned PtrW  = $bits(udma_q_ptr_offset_t);
  localparam int unsigned UsedW = PtrW + 2;

  function automatic logic order(udma_q_ptr_t h, udma_q_ptr_t t);
    return (t.ring_id == h.ring_id && t.offset >= h.offset) ||
           (t.ring_id == h.ring_id + 2'd1 && t.offset < h.offset);
  endfunction

  function automatic logic in_ring(udma_q_ptr_t h, udma_q_ptr_t t, udma_q_rl_len_t l);
    return l == '0 ? (h.offset == '0 && t.offset == '0) : (h.offset < l && t.offset < l);
  endfunction

  logic [UsedW-1:0] used, free, nxt;
  udma_q_ptr_t      wrap_tail, head_n, tail_n;
  logic [PtrW:0]    h1;
  always_comb begin
    used = (tail_i.offset >= head_i.offset) ?
           UsedW'(tail_i.offset) - UsedW'(head_i.offset) :
           UsedW'(tail_i.offset) + UsedW'(rl_i) - UsedW'(head_i.offset);
    free = (UsedW'(rl_i) > used) ? UsedW'(rl_i) - UsedW'(1) - used : '0;
    nxt  = UsedW'(tail_i.offset) + UsedW'(inc_i);
    wrap_tail = tail_i;
    if (nxt >= UsedW'(rl_i) && inc_i != '0) begin
      wrap_tail.offset  = PtrW'(nxt - UsedW'(rl_i));
      wrap_tail.ring_id = tail_i.ring_id + 2'd1;
    end else begin
      wrap_tail.offset = PtrW'(nxt);
    end
  end
  assign over_o = db_i && UsedW'(inc_i) > free;
  assign tail_o = over_o ? tail_i : wrap_tail;

  // The step: the doorbell's tail, the head one slot on.
  always_comb begin
    tail_n = (db_i && !over_o) ? wrap_tail : tail_i;
    head_n = head_i;
    h1     = (PtrW + 1)'(head_i.offset) + (PtrW + 1)'(1);
    if (adv_i) begin
      if (h1 >= (PtrW + 1)'(rl_i)) begin
        head_n.offset  = '0;
        head_n.ring_id = head_i.ring_id + 2'd1;
      end else begin
        head_n.offset = h1[PtrW-1:0];
      end
    end
  end

  logic lemma;
  assign lemma = !(in_ring(head_i, tail_i, rl_i) && order(head_i, tail_i) &&
                   (!adv_i || head_i.offset != tail_i.offset)) ||
                 (in_ring(head_n, tail_n, rl_i) && order(head_n, tail_n));

`ifdef FORMAL
  if (Check == 1) begin : g_assume
    always_comb begin
      if (rst_ni) begin
        assume (lemma);
      end
    end
  end else if (Check == 2) begin : g_assert
    always_comb begin
      if (rst_ni) begin
        FV_UDMA_STEP_ORDER: assert (lemma);
      end
    end
  end
`endif
endmodule : udma_ring_step_fv
