// Adapts udma_regs' pointer registers (udma_q_ptr_t: ring id [31:30], offset [23:0];
// sb2sb_pkg) to udma_ring_chk's per-field inputs. Bound into udma_regs by
// rtl/assert/udma_engine_bind.sv. Plain slices (no package import) so the checker harness,
// which does not compile sb2sb_pkg, still builds this file.
module udma_regs_ptr_chk #(
  parameter int unsigned NumQ       = 16,
  localparam int unsigned QueueIdxW = $clog2(NumQ)
) (
  input logic                       clk_i,
  input logic                       rst_ni,
  input logic [31:0]                head_i [2][NumQ],
  input logic [31:0]                tail_i [2][NumQ],
  input logic [1:0]                 head_adv_i,
  input logic [1:0][QueueIdxW-1:0]  adv_q_i
);
  logic [1:0][NumQ-1:0][23:0] head_off, tail_off;
  logic [1:0][NumQ-1:0][1:0]  head_id, tail_id;
  always_comb begin
    for (int unsigned s = 0; s < 2; s++) begin
      for (int unsigned q = 0; q < NumQ; q++) begin
        head_off[s][q] = head_i[s][q][23:0];
        head_id[s][q]  = head_i[s][q][31:30];
        tail_off[s][q] = tail_i[s][q][23:0];
        tail_id[s][q]  = tail_i[s][q][31:30];
      end
    end
  end

  udma_ring_chk #(.NumQ(NumQ)) u_ring_chk (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .head_off_i (head_off),
    .head_id_i  (head_id),
    .tail_off_i (tail_off),
    .tail_id_i  (tail_id),
    .head_adv_i (head_adv_i),
    .adv_q_i    (adv_q_i)
  );
endmodule : udma_regs_ptr_chk
