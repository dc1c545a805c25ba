// EVT_SEM at a small number of semaphores behind its architecture-size ports, for the
// synthesis of tops that instantiate evt_sem at its defaults (the pair, `make synth`'s
// `leg` row; scripts/synth.py).
//
// The synthesis flow reads this module as `evt_sem` and the block itself, rtl/evt_sem.sv,
// renamed to `evt_sem_sized`. The ports are evt_sem's, at the parameters the instantiating
// module gives (its defaults: 256 semaphores, sb2sb_pkg); inside, the block runs at
// SmallSem semaphores with the same increment and wait ports. A semaphore index keeps its
// low $clog2(SmallSem) bits (the block's own aliasing of a wider index); events above
// SmallSem read 0. Ports the instantiating module ties to constants are removed by
// synthesis, as in the full-size block.

/* verilator lint_off DECLFILENAME */  // the module takes evt_sem's place, under its name
module evt_sem
  import sb2sb_pkg::*;
#(
  parameter int unsigned NumSem   = int'(EVT_SEM_NUM_SEM),
  parameter int unsigned NumInc   = int'(EVT_SEM_NUM_INC),
  parameter int unsigned NumWait  = int'(EVT_SEM_NUM_WAIT),
  parameter int unsigned SmallSem = 8,
  localparam int unsigned IdxW    = $clog2(NumSem)
) (
  input  logic                                  clk_i,
  input  logic                                  rst_ni,
  input  logic [EVT_SEM_ADDR_W-1:0]             s_axil_awaddr,
  input  logic [2:0]                            s_axil_awprot,
  input  logic                                  s_axil_awvalid,
  output logic                                  s_axil_awready,
  input  logic [31:0]                           s_axil_wdata,
  input  logic [3:0]                            s_axil_wstrb,
  input  logic                                  s_axil_wvalid,
  output logic                                  s_axil_wready,
  output logic [1:0]                            s_axil_bresp,
  output logic                                  s_axil_bvalid,
  input  logic                                  s_axil_bready,
  input  logic [EVT_SEM_ADDR_W-1:0]             s_axil_araddr,
  input  logic [2:0]                            s_axil_arprot,
  input  logic                                  s_axil_arvalid,
  output logic                                  s_axil_arready,
  output logic [31:0]                           s_axil_rdata,
  output logic [1:0]                            s_axil_rresp,
  output logic                                  s_axil_rvalid,
  input  logic                                  s_axil_rready,
  input  logic [NumInc-1:0]                     inc_valid_i,
  input  logic [NumInc-1:0][IdxW-1:0]           inc_idx_i,
  input  logic [NumInc-1:0][31:0]               inc_value_i,
  input  logic [NumWait-1:0]                    wait_valid_i,
  input  logic [NumWait-1:0][7:0]               wait_mode_i,
  input  logic [NumWait-1:0][IdxW-1:0]          wait_idx_i,
  input  logic [NumWait-1:0][31:0]              wait_value_i,
  output logic [NumWait-1:0]                    wait_done_o,
  output logic [EVT_SEM_NUM_ERR-1:0]            err_pulse_o,
  output logic [EVT_SEM_NUM_ERR-1:0]            err_status_o,
  output logic [NumSem-1:0]                     evt_o,
  input  logic [IdxW-1:0]                       dbg_idx_i,
  output logic [31:0]                           dbg_sem_o
);
  localparam int unsigned SmallW = $clog2(SmallSem);

  logic [NumInc-1:0][SmallW-1:0]  inc_idx;
  logic [NumWait-1:0][SmallW-1:0] wait_idx;
  logic [SmallSem-1:0]            evt;
  always_comb begin
    for (int unsigned k = 0; k < NumInc; k++) begin
      inc_idx[k] = inc_idx_i[k][SmallW-1:0];
    end
    for (int unsigned k = 0; k < NumWait; k++) begin
      wait_idx[k] = wait_idx_i[k][SmallW-1:0];
    end
  end
  assign evt_o = NumSem'(evt);
  // The index bits above the small size are not used (the block's own aliasing).
  logic unused_idx;
  assign unused_idx = ^{inc_idx_i, wait_idx_i, dbg_idx_i};

  evt_sem_sized #(
    .NumSem (SmallSem),
    .NumInc (NumInc),
    .NumWait(NumWait)
  ) u_sized (
    .clk_i,
    .rst_ni,
    .s_axil_awaddr,
    .s_axil_awprot,
    .s_axil_awvalid,
    .s_axil_awready,
    .s_axil_wdata,
    .s_axil_wstrb,
    .s_axil_wvalid,
    .s_axil_wready,
    .s_axil_bresp,
    .s_axil_bvalid,
    .s_axil_bready,
    .s_axil_araddr,
    .s_axil_arprot,
    .s_axil_arvalid,
    .s_axil_arready,
    .s_axil_rdata,
    .s_axil_rresp,
    .s_axil_rvalid,
    .s_axil_rready,
    .inc_valid_i,
    .inc_idx_i   (inc_idx),
    .inc_value_i,
    .wait_valid_i,
    .wait_mode_i,
    .wait_idx_i  (wait_idx),
    .wait_value_i,
    .wait_done_o,
    .err_pulse_o,
    .err_status_o,
    .evt_o       (evt),
    .dbg_idx_i   (dbg_idx_i[SmallW-1:0]),
    .dbg_sem_o
  );
endmodule : evt_sem
/* verilator lint_on DECLFILENAME */
