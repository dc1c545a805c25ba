// EVT_SEM block invariant (bind into evt_sem): every accepted hardware
// increment is counted. For each increment port p valid in a cycle, if no
// AXI write and no wait-decrement touches the same semaphore in that cycle,
// the semaphore after the edge equals its value before plus the sum of every
// same-cycle increment to it, saturated to the signed 32-bit range.
//   EVT_SEM_INC_COUNTED
`include "sb2sb_assert.svh"

module evt_sem_inc_chk #(
  parameter int unsigned NumSem  = 256,
  parameter int unsigned NumInc  = 16,
  parameter int unsigned NumWait = 4,
  // The block's semaphore groups: semaphore i is sem_i[i / GrpW][i % GrpW].
  parameter int unsigned GrpW    = 32
) (
  input logic                           clk_i,
  input logic                           rst_ni,
  input logic [31:0]                    sem_i [NumSem / GrpW][GrpW],
  input logic [NumInc-1:0]              inc_valid_i,
  input logic [NumInc-1:0][7:0]         inc_idx_i,
  input logic [NumInc-1:0][31:0]        inc_value_i,
  // Other writers of the semaphore array in this cycle.
  input logic                           wr_v_i,
  input logic [7:0]                     wr_idx_i,
  input logic [NumWait-1:0]             dec_v_i,
  input logic [NumWait-1:0][7:0]        dec_idx_i
);
  `SB2SB_ASSERT_IMPORT

  localparam int unsigned IW = $clog2(NumSem);
  localparam int unsigned GL = $clog2(GrpW);
  localparam int unsigned GW = IW > GL ? IW - GL : 1;  // width of a group index

  // The group of semaphore i (shifted one bit wider: GL may equal IW).
  function automatic logic [GW-1:0] grp_of(logic [IW-1:0] i);
    logic [IW:0] w;
    w = {1'b0, i};
    return GW'(w >> GL);
  endfunction

  // Expected value of each port's semaphore after this edge.
  logic [NumInc-1:0]        exp_v_d, exp_v_q;
  logic [NumInc-1:0][IW-1:0] exp_idx_q;
  logic [NumInc-1:0][31:0]  exp_val_d, exp_val_q;

  always_comb begin
    for (int unsigned p = 0; p < NumInc; p++) begin
      logic signed [63:0] acc;
      logic               other;
      other = wr_v_i && wr_idx_i == inc_idx_i[p];
      for (int unsigned w = 0; w < NumWait; w++) begin
        other = other || (dec_v_i[w] && dec_idx_i[w] == inc_idx_i[p]);
      end
      acc = 64'(signed'(sem_i[grp_of(inc_idx_i[p][IW-1:0])][inc_idx_i[p][GL-1:0]]));
      for (int unsigned q = 0; q < NumInc; q++) begin
        if (inc_valid_i[q] && inc_idx_i[q] == inc_idx_i[p]) begin
          acc = acc + 64'(signed'(inc_value_i[q]));
        end
      end
      exp_v_d[p] = inc_valid_i[p] && !other;
      if (acc > 64'sh7fff_ffff) begin
        exp_val_d[p] = 32'h7fff_ffff;
      end else if (acc < -64'sh8000_0000) begin
        exp_val_d[p] = 32'h8000_0000;
      end else begin
        exp_val_d[p] = acc[31:0];
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      exp_v_q   <= '0;
      exp_idx_q <= '0;
      exp_val_q <= '0;
    end else begin
      exp_v_q   <= exp_v_d;
      exp_val_q <= exp_val_d;
      for (int unsigned p = 0; p < NumInc; p++) begin
        exp_idx_q[p] <= inc_idx_i[p][IW-1:0];
      end
    end
  end

  logic counted;
  always_comb begin
    counted = 1'b1;
    for (int unsigned p = 0; p < NumInc; p++) begin
      if (exp_v_q[p] && sem_i[grp_of(exp_idx_q[p])][exp_idx_q[p][GL-1:0]] != exp_val_q[p]) begin
        counted = 1'b0;
      end
    end
  end

  `SB2SB_ASSERT(EVT_SEM_INC_COUNTED, counted)
endmodule : evt_sem_inc_chk
