// The two-semaphore ordering at the receiving core (seed 001 §5), bound to
// sb2sb_xbar by rtl/assert/sb2sb_pair_bind.sv: the routed remote-semaphore
// increment travels behind the engine's data on the same link lane, and the
// receiving core may raise it only after that data is committed in its SBUF.
// Watched per in-lane (one per incoming link lane) at the xbar's ports, with
// the bursts classified by their core-relative offset (the SBUF region below
// the EVT_SEM block is data, the SEM_INCR window is an increment):
//   SEM_AFTER_DATA_B    a W beat of an increment burst is taken only when
//                       every earlier data burst of the same in-lane has had
//                       its B on the link lane
//   IN_B_AFTER_SRAM_B   an OKAY B of a data burst goes back over the link
//                       only in a cycle in which an SRAM answers a B (the
//                       in-lane passes the SRAM's B on; error bursts answer
//                       themselves with SLVERR/DECERR)
//   IN_BURSTS           at most Depth bursts of an in-lane between AW and B
//                       (the checker's limit)
`include "sb2sb_assert.svh"

module sb2sb_sem_order_chk #(
  parameter int unsigned NumLk     = 4,
  parameter int unsigned NumMem    = 5,
  parameter int unsigned Depth     = 8,
  // core-relative windows (the xbar's, from sb2sb_pkg): the EVT_SEM block
  // (data lies below it) and the SEM_INCR window [EvtIncrLo, EvtIncrHi)
  parameter logic [31:0] EvtLo     = sb2sb_pkg::CORE_EVT_SEM_BASE,
  parameter logic [31:0] EvtIncrLo = sb2sb_pkg::CORE_EVT_INCR_BASE,
  parameter logic [31:0] EvtIncrHi = sb2sb_pkg::CORE_EVT_INCR_BASE +
                                     sb2sb_pkg::CORE_EVT_INCR_BYTES
) (
  input logic                   clk_i,
  input logic                   rst_ni,
  input logic [NumLk-1:0][63:0] lin_awaddr_i,
  input logic [NumLk-1:0]       lin_awvalid_i,
  input logic [NumLk-1:0]       lin_awready_i,
  input logic [NumLk-1:0]       lin_wlast_i,
  input logic [NumLk-1:0]       lin_wvalid_i,
  input logic [NumLk-1:0]       lin_wready_i,
  input logic [NumLk-1:0][1:0]  lin_bresp_i,
  input logic [NumLk-1:0]       lin_bvalid_i,
  input logic [NumLk-1:0]       lin_bready_i,
  input logic [NumMem-1:0]      mem_bvalid_i,
  input logic [NumMem-1:0]      mem_bready_i
);
  `SB2SB_ASSERT_IMPORT

  localparam int unsigned PW = $clog2(Depth);

  logic sram_b;
  assign sram_b = |(mem_bvalid_i & mem_bready_i);

  for (genvar i = 0; i < NumLk; i++) begin : gen_lane
    // per burst in AW order: data / increment; counts of AW, WLAST and B
    // handshakes (burst indices); the index of the last data burst whose
    // WLAST was taken
    logic [Depth-1:0] data_q, sem_q;
    logic [7:0]       aw_n_q, wl_n_q, b_n_q, ld_q;
    logic             ld_v_q;
    logic             aw_hs, w_hs, b_hs, w_sem, b_data, ld_open;
    logic [31:0]      off;

    assign off     = lin_awaddr_i[i][31:0];
    assign aw_hs   = lin_awvalid_i[i] && lin_awready_i[i];
    assign w_hs    = lin_wvalid_i[i] && lin_wready_i[i];
    assign b_hs    = lin_bvalid_i[i] && lin_bready_i[i];
    // the burst whose beats flow now is burst wl_n_q (W in AW order); it may
    // be the one whose AW is taken in this cycle
    assign w_sem   = (aw_n_q == wl_n_q) ? (aw_hs && off >= EvtIncrLo && off < EvtIncrHi)
                                        : sem_q[wl_n_q[PW-1:0]];
    assign b_data  = data_q[b_n_q[PW-1:0]];
    // the last data burst has not had its B: b_n_q <= ld_q < wl_n_q
    assign ld_open = ld_v_q && (8'(ld_q - b_n_q) < 8'(wl_n_q - b_n_q));

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        data_q <= '0;
        sem_q  <= '0;
        aw_n_q <= '0;
        wl_n_q <= '0;
        b_n_q  <= '0;
        ld_q   <= '0;
        ld_v_q <= 1'b0;
      end else begin
        if (aw_hs) begin
          data_q[aw_n_q[PW-1:0]] <= off < EvtLo;
          sem_q[aw_n_q[PW-1:0]]  <= off >= EvtIncrLo && off < EvtIncrHi;
          aw_n_q                 <= aw_n_q + 8'd1;
        end
        if (w_hs && lin_wlast_i[i]) begin
          wl_n_q <= wl_n_q + 8'd1;
          if (!w_sem && ((aw_n_q == wl_n_q) ? (aw_hs && off < EvtLo)
                                             : data_q[wl_n_q[PW-1:0]])) begin
            ld_q   <= wl_n_q;
            ld_v_q <= 1'b1;
          end
        end
        if (b_hs) b_n_q <= b_n_q + 8'd1;
      end
    end

    `SB2SB_ASSERT(SEM_AFTER_DATA_B, !(w_hs && w_sem) || !ld_open)
    `SB2SB_ASSERT(IN_B_AFTER_SRAM_B, !(b_hs && b_data && lin_bresp_i[i] == 2'd0) || sram_b)
    `SB2SB_ASSERT(IN_BURSTS, 32'(8'(aw_n_q - b_n_q)) <= Depth)
  end
endmodule : sb2sb_sem_order_chk
