// Formal harness: EVT_SEM at a reduced size (NumSem semaphores, NumInc
// increment ports, NumWait wait ports; the block's parameters, whose defaults
// are the architecture's 256 x 16 x 4).
//
// Environment (assumed): the AXI4-Lite master's rules (axil_slave_chk); every
// other input (increment and wait ports, modes, values) is free.
// Two proofs, selected by a define:
// FV_EVT_SEM_AXIL (k-induction): the AXI4-Lite slave rules of the port and the
//   response of every access as the register description says (axil_resp_fv;
//   offset bits [1:0] are ignored, docs/decisions.md "Bad accesses").
// FV_EVT_SEM_INC (k-induction, the AXI4-Lite master unconstrained):
//   EVT_SEM_INC_COUNTED (evt_sem_inc_chk, the simulation checker): every
//   accepted hardware increment is counted, same-cycle increments of one
//   semaphore summed, saturated to the signed 32-bit range.
`include "sb2sb_assert.svh"

module evt_sem_fv
  import sb2sb_pkg::*;
#(
  parameter int unsigned NumSem  = 4,
  parameter int unsigned NumInc  = 2,
  parameter int unsigned NumWait = 1,
  // One semaphore group.
  parameter int unsigned SemGrpW = 4,
  localparam int unsigned IdxW   = $clog2(NumSem),
  localparam int unsigned AddrW  = int'(EVT_SEM_ADDR_W)
) (
  input logic                           clk_i,
  input logic                           rst_ni,
  input logic [AddrW-1:0]               s_axil_awaddr,
  input logic [2:0]                     s_axil_awprot,
  input logic                           s_axil_awvalid,
  input logic [31:0]                    s_axil_wdata,
  input logic [3:0]                     s_axil_wstrb,
  input logic                           s_axil_wvalid,
  input logic                           s_axil_bready,
  input logic [AddrW-1:0]               s_axil_araddr,
  input logic [2:0]                     s_axil_arprot,
  input logic                           s_axil_arvalid,
  input logic                           s_axil_rready,
  input logic [NumInc-1:0]              inc_valid_i,
  input logic [NumInc-1:0][IdxW-1:0]    inc_idx_i,
  input logic [NumInc-1:0][31:0]        inc_value_i,
  input logic [NumWait-1:0]             wait_valid_i,
  input logic [NumWait-1:0][7:0]        wait_mode_i,
  input logic [NumWait-1:0][IdxW-1:0]   wait_idx_i,
  input logic [NumWait-1:0][31:0]       wait_value_i,
  input logic [IdxW-1:0]                dbg_idx_i
);
  logic                       s_axil_awready, s_axil_wready, s_axil_bvalid, s_axil_arready;
  logic                       s_axil_rvalid;
  logic [1:0]                 s_axil_bresp, s_axil_rresp;
  logic [31:0]                s_axil_rdata;
  logic [NumWait-1:0]         wait_done;
  logic [EVT_SEM_NUM_ERR-1:0] err_pulse, err_status;
  logic [NumSem-1:0]          evt;
  logic [31:0]                dbg_sem;

  fv_reset u_rst (.clk_i, .rst_ni);

  evt_sem #(.NumSem(NumSem), .NumInc(NumInc), .NumWait(NumWait), .SemGrpW(SemGrpW)) u_dut (
    .clk_i, .rst_ni,
    .s_axil_awaddr, .s_axil_awprot, .s_axil_awvalid, .s_axil_awready,
    .s_axil_wdata, .s_axil_wstrb, .s_axil_wvalid, .s_axil_wready,
    .s_axil_bresp, .s_axil_bvalid, .s_axil_bready,
    .s_axil_araddr, .s_axil_arprot, .s_axil_arvalid, .s_axil_arready,
    .s_axil_rdata, .s_axil_rresp, .s_axil_rvalid, .s_axil_rready,
    .inc_valid_i, .inc_idx_i, .inc_value_i,
    .wait_valid_i, .wait_mode_i, .wait_idx_i, .wait_value_i, .wait_done_o (wait_done),
    .err_pulse_o (err_pulse), .err_status_o (err_status), .evt_o (evt),
    .dbg_idx_i, .dbg_sem_o (dbg_sem)
  );

`ifdef FV_EVT_SEM_AXIL
  axil_slave_chk #(.AddrWidth(AddrW), .DataWidth(32)) u_chk (
    .clk_i, .rst_ni,
    .awaddr_i (s_axil_awaddr), .awvalid_i (s_axil_awvalid), .awready_i (s_axil_awready),
    .wdata_i (s_axil_wdata), .wstrb_i (s_axil_wstrb), .wvalid_i (s_axil_wvalid),
    .wready_i (s_axil_wready), .bresp_i (s_axil_bresp), .bvalid_i (s_axil_bvalid),
    .bready_i (s_axil_bready), .araddr_i (s_axil_araddr), .arvalid_i (s_axil_arvalid),
    .arready_i (s_axil_arready), .rdata_i (s_axil_rdata), .rresp_i (s_axil_rresp),
    .rvalid_i (s_axil_rvalid), .rready_i (s_axil_rready)
  );

  axil_reg_adapter_inv u_inv (
    .clk_i, .rst_ni,
    .aw_v_i (u_dut.u_axil.aw_v_q), .w_v_i (u_dut.u_axil.w_v_q),
    .b_v_i (u_dut.u_axil.b_v_q), .r_v_i (u_dut.u_axil.r_v_q),
    .aw_out_i (u_chk.aw_out_q), .w_out_i (u_chk.w_out_q), .ar_out_i (u_chk.ar_out_q),
    .aw_wait_i (u_chk.aw_wait_q), .w_wait_i (u_chk.w_wait_q), .ar_wait_i (u_chk.ar_wait_q),
    .b_delay_i (u_chk.b_delay_q), .r_delay_i (u_chk.r_delay_q)
  );

  // Access kind from the register description; offset bits [1:0] ignored.
  function automatic reg_access_e desc_access(logic [AddrW-1:0] a);
    return evt_sem_access(32'({a[AddrW-1:2], 2'b00}));
  endfunction
  function automatic logic wr_bad(logic [AddrW-1:0] a);
    reg_access_e k;
    k = desc_access(a);
    return k == RegAccBad || k == RegAccRo;
  endfunction

  axil_resp_fv u_resp (
    .clk_i, .rst_ni,
    .awvalid_i (s_axil_awvalid), .awready_i (s_axil_awready), .aw_bad_i (wr_bad(s_axil_awaddr)),
    .wvalid_i (s_axil_wvalid), .wready_i (s_axil_wready),
    .w_bad_i (s_axil_wstrb != EVT_SEM_FULL_STRB),
    .bvalid_i (s_axil_bvalid), .bready_i (s_axil_bready), .bresp_i (s_axil_bresp),
    .arvalid_i (s_axil_arvalid), .arready_i (s_axil_arready),
    .ar_bad_i (desc_access(s_axil_araddr) == RegAccBad),
    .rvalid_i (s_axil_rvalid), .rready_i (s_axil_rready), .rresp_i (s_axil_rresp),
    .held_aw_v_i (u_dut.u_axil.aw_v_q), .held_aw_bad_i (wr_bad(u_dut.u_axil.aw_addr_q)),
    .held_w_v_i (u_dut.u_axil.w_v_q),
    .held_w_bad_i (u_dut.u_axil.w_strb_q != EVT_SEM_FULL_STRB),
    .b_v_i (u_dut.u_axil.b_v_q), .b_resp_i (u_dut.u_axil.b_resp_q),
    .r_v_i (u_dut.u_axil.r_v_q), .r_resp_i (u_dut.u_axil.r_resp_q)
  );
`endif  // FV_EVT_SEM_AXIL

`ifdef FV_EVT_SEM_INC
  // The simulation checker, with the block's index width widened to its 8-bit
  // ports (the semaphore array is the block's own).
  logic [NumInc-1:0][7:0]  inc_idx8;
  logic [NumWait-1:0][7:0] dec_idx8;
  for (genvar p = 0; p < NumInc; p++) begin : gen_inc
    assign inc_idx8[p] = 8'(inc_idx_i[p]);
  end
  for (genvar p = 0; p < NumWait; p++) begin : gen_dec
    assign dec_idx8[p] = 8'(wait_idx_i[p]);
  end

  evt_sem_inc_chk #(.NumSem(NumSem), .NumInc(NumInc), .NumWait(NumWait), .GrpW(SemGrpW)) u_inc_chk (
    .clk_i, .rst_ni,
    .sem_i       (u_dut.sem_q),
    .inc_valid_i (inc_valid_i),
    .inc_idx_i   (inc_idx8),
    .inc_value_i (inc_value_i),
    .wr_v_i      (u_dut.wr_set_v | u_dut.wr_add_v),
    .wr_idx_i    (8'(u_dut.wr_idx)),
    .dec_v_i     (u_dut.dec_v),
    .dec_idx_i   (dec_idx8)
  );

  // Non-vacuity: two ports increment one semaphore in one cycle and the sum
  // lands; an increment saturates.
  logic collide;
  always_comb begin
    collide = 1'b0;
    for (int p = 0; p < NumInc; p++) begin
      for (int q = p + 1; q < NumInc; q++) begin
        if (inc_valid_i[p] && inc_valid_i[q] && inc_idx_i[p] == inc_idx_i[q] &&
            inc_value_i[p] != '0 && inc_value_i[q] != '0) begin
          collide = 1'b1;
        end
      end
    end
  end
  logic collide_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      collide_q <= 1'b0;
    end else begin
      collide_q <= collide && u_inc_chk.exp_v_d[0];
    end
  end
  `SB2SB_COVER(FV_EVT_SEM_C_INC_COLLISION, collide_q)
  `SB2SB_COVER(FV_EVT_SEM_C_SATURATE, err_pulse[EVT_SEM_ERR_OVERFLOW])
`endif  // FV_EVT_SEM_INC

  logic unused;
  assign unused = ^{wait_done, err_pulse, err_status, evt, dbg_sem};
endmodule : evt_sem_fv
