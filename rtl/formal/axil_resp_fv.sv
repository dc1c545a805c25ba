// Expected AXI4-Lite responses of a register block, from its register
// description: each write is answered SLVERR exactly when its address is not
// writable or its strobe is not full, each read SLVERR exactly when its address
// is not readable; OKAY otherwise (AXIL_B_RESP_DESC / AXIL_R_RESP_DESC).
// The block harness computes the classes combinationally for the payload on
// each channel (aw_bad_i, w_bad_i, ar_bad_i); this module keeps them for the
// requests in flight (in order, at most Depth) and checks the response shown.
//
// For k-induction the harness also passes the adapter's held request and its
// pending responses (held_*, b_*, r_*): FV_AXIL_RESP_TRACK ties the queue
// below to them.
`include "sb2sb_assert.svh"

module axil_resp_fv #(
  parameter int unsigned OutW = 8
) (
  input logic            clk_i,
  input logic            rst_ni,
  // channels
  input logic            awvalid_i,
  input logic            awready_i,
  input logic            aw_bad_i,
  input logic            wvalid_i,
  input logic            wready_i,
  input logic            w_bad_i,
  input logic            bvalid_i,
  input logic            bready_i,
  input logic [1:0]      bresp_i,
  input logic            arvalid_i,
  input logic            arready_i,
  input logic            ar_bad_i,
  input logic            rvalid_i,
  input logic            rready_i,
  input logic [1:0]      rresp_i,
  // adapter state (helper invariants)
  input logic            held_aw_v_i,
  input logic            held_aw_bad_i,
  input logic            held_w_v_i,
  input logic            held_w_bad_i,
  input logic            b_v_i,
  input logic [1:0]      b_resp_i,
  input logic            r_v_i,
  input logic [1:0]      r_resp_i
);
  localparam logic [1:0] RespOkay   = 2'b00;
  localparam logic [1:0] RespSlverr = 2'b10;

  // Two writes at most are in flight in the adapter (one answered by the
  // pending B, one held), one read.
  logic [1:0] aw_bad_q, w_bad_q;  // [0] oldest
  logic [1:0] aw_n_q, w_n_q;      // entries
  logic       ar_bad_q;
  logic       aw_hs, w_hs, b_hs, ar_hs;
  assign aw_hs = awvalid_i && awready_i;
  assign w_hs  = wvalid_i && wready_i;
  assign b_hs  = bvalid_i && bready_i;
  assign ar_hs = arvalid_i && arready_i;

  logic [1:0] aw_bad_d, w_bad_d, aw_n_d, w_n_d;
  always_comb begin
    aw_bad_d = aw_bad_q;
    w_bad_d  = w_bad_q;
    aw_n_d   = aw_n_q;
    w_n_d    = w_n_q;
    if (b_hs) begin
      aw_bad_d = {1'b0, aw_bad_d[1]};
      w_bad_d  = {1'b0, w_bad_d[1]};
      aw_n_d   = aw_n_d - 2'd1;
      w_n_d    = w_n_d - 2'd1;
    end
    if (aw_hs) begin
      aw_bad_d[aw_n_d[0]] = aw_bad_i;
      aw_n_d              = aw_n_d + 2'd1;
    end
    if (w_hs) begin
      w_bad_d[w_n_d[0]] = w_bad_i;
      w_n_d             = w_n_d + 2'd1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      aw_bad_q <= '0;
      w_bad_q  <= '0;
      aw_n_q   <= '0;
      w_n_q    <= '0;
      ar_bad_q <= 1'b0;
    end else begin
      aw_bad_q <= aw_bad_d;
      w_bad_q  <= w_bad_d;
      aw_n_q   <= aw_n_d;
      w_n_q    <= w_n_d;
      if (ar_hs) begin
        ar_bad_q <= ar_bad_i;
      end
    end
  end

  logic [1:0] exp_b;
  assign exp_b = (aw_bad_q[0] || w_bad_q[0]) ? RespSlverr : RespOkay;

  `SB2SB_ASSERT(AXIL_B_RESP_DESC, !bvalid_i || bresp_i == exp_b)
  `SB2SB_ASSERT(AXIL_R_RESP_DESC, !rvalid_i || rresp_i == (ar_bad_q ? RespSlverr : RespOkay))

  // Helper invariants: the queue holds the pending B's request, then the held
  // one; the registered responses are those of the queue's requests.
  `SB2SB_ASSERT(FV_AXIL_RESP_TRACK,
      aw_n_q == 2'(b_v_i) + 2'(held_aw_v_i) && w_n_q == 2'(b_v_i) + 2'(held_w_v_i) &&
      (!held_aw_v_i || aw_bad_q[b_v_i] == held_aw_bad_i) &&
      (!held_w_v_i || w_bad_q[b_v_i] == held_w_bad_i) &&
      (!b_v_i || b_resp_i == exp_b) &&
      (!r_v_i || r_resp_i == (ar_bad_q ? RespSlverr : RespOkay)))

  `SB2SB_COVER(AXIL_C_B_SLVERR, b_hs && bresp_i == RespSlverr)
  `SB2SB_COVER(AXIL_C_R_SLVERR, rvalid_i && rready_i && rresp_i == RespSlverr)
endmodule : axil_resp_fv
