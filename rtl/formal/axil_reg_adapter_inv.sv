// Helper invariants of axil_reg_adapter for k-induction: they tie the
// outstanding-transaction counters and wait counters of axil_slave_chk to the
// adapter's own state (one AW and one W held, one B and one R pending), so
// induction does not start from counter values no reset trace reaches.
// Instantiated by every harness whose AXI4-Lite port is the adapter, with
// hierarchical references to the adapter (u_axil) and its checker.
`include "sb2sb_assert.svh"

module axil_reg_adapter_inv #(
  parameter int unsigned OutW = 8,
  parameter int unsigned TW   = 8
) (
  input logic            clk_i,
  input logic            rst_ni,
  // adapter state
  input logic            aw_v_i,
  input logic            w_v_i,
  input logic            b_v_i,
  input logic            r_v_i,
  // checker counters
  input logic [OutW-1:0] aw_out_i,
  input logic [OutW-1:0] w_out_i,
  input logic [OutW-1:0] ar_out_i,
  input logic [TW-1:0]   aw_wait_i,
  input logic [TW-1:0]   w_wait_i,
  input logic [TW-1:0]   ar_wait_i,
  input logic [TW-1:0]   b_delay_i,
  input logic [TW-1:0]   r_delay_i
);
  // A write is outstanding from its AW (W) handshake until its B handshake: it
  // is held in the adapter or answered by the pending B.
  `SB2SB_ASSERT(FV_AXIL_AW_OUT, aw_out_i == OutW'(aw_v_i) + OutW'(b_v_i))
  `SB2SB_ASSERT(FV_AXIL_W_OUT, w_out_i == OutW'(w_v_i) + OutW'(b_v_i))
  `SB2SB_ASSERT(FV_AXIL_AR_OUT, ar_out_i == OutW'(r_v_i))
  // READY is low only while the channel holds a request: no request ever waits
  // a cycle on AR, and at most two on AW/W (held until the commit, then B is shown).
  `SB2SB_ASSERT(FV_AXIL_WAITS, ar_wait_i == '0 && aw_wait_i <= TW'(2) && w_wait_i <= TW'(2))
  // A complete write commits in the next cycle and shows B one cycle later.
  `SB2SB_ASSERT(FV_AXIL_DELAYS, r_delay_i == '0 && (b_delay_i == '0 || (b_delay_i == TW'(1) && b_v_i)))
endmodule : axil_reg_adapter_inv
