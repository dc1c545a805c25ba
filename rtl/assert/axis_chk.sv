// AXI4-Stream port rules, for a block's master (m_axis_*) and slave
// (s_axis_*) port alike: the rules bind the transmitter of the stream, which
// is the block on a master port (DutIsTx = 1: asserted in a proof) and the
// environment on a slave port (DutIsTx = 0: assumed; sb2sb_assert.svh).
//
//   VALID_HELD    TVALID stays high until TREADY
//   STABLE        TDATA/TKEEP/TLAST/TID/TUSER stable while TVALID && !TREADY
//   X_*           no X/Z on TVALID/TREADY, nor on the payload while TVALID
//                 (vacuous in Verilator's two-state model; live in 4-state tools)
//   TKEEP_PACKED  every beat keeps a contiguous run of bytes from byte 0, at
//                 least one, except the TLAST+TUSER beat that closes a packet
//                 cut by an error, which may keep none (the project's packed
//                 framing, docs/udma.md)
//   TID_PACKET    TID does not change inside a packet
`include "sb2sb_assert.svh"

module axis_chk #(
  parameter int unsigned DataWidth = 64,
  parameter int unsigned IdWidth   = 4,
  parameter bit          DutIsTx   = 1'b1
) (
  input logic                   clk_i,
  input logic                   rst_ni,
  input logic [DataWidth-1:0]   tdata_i,
  input logic [DataWidth/8-1:0] tkeep_i,
  input logic                   tlast_i,
  input logic [IdWidth-1:0]     tid_i,
  input logic                   tuser_i,
  input logic                   tvalid_i,
  input logic                   tready_i
);
  `SB2SB_ASSERT_IMPORT

  /* verilator lint_off UNUSEDPARAM */
  localparam bit TxEnv = !DutIsTx;  // used in formal builds only
  /* verilator lint_on UNUSEDPARAM */
  localparam int unsigned PlW = DataWidth + DataWidth / 8 + IdWidth + 2;

  logic [PlW-1:0]     pl, pl_q;
  logic               stall_q, in_pkt_q;
  logic [IdWidth-1:0] pkt_id_q;
  logic [DataWidth/8-1:0] keep_p1;
  assign pl      = {tdata_i, tkeep_i, tlast_i, tid_i, tuser_i};
  assign keep_p1 = tkeep_i + 1'b1;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pl_q     <= '0;
      stall_q  <= 1'b0;
      in_pkt_q <= 1'b0;
      pkt_id_q <= '0;
    end else begin
      pl_q    <= pl;
      stall_q <= tvalid_i && !tready_i;
      if (tvalid_i && tready_i) begin
        in_pkt_q <= !tlast_i;
        pkt_id_q <= tid_i;
      end
    end
  end

  `SB2SB_RULE(TxEnv, AXIS_VALID_HELD, !stall_q || tvalid_i)
  `SB2SB_RULE(TxEnv, AXIS_STABLE, !stall_q || pl == pl_q)
  `SB2SB_X_ASSERT(AXIS_X_HANDSHAKE, !$isunknown({tvalid_i, tready_i}))
  `SB2SB_X_ASSERT(AXIS_X_PAYLOAD, !(tvalid_i && $isunknown(pl)))
  `SB2SB_RULE(TxEnv, AXIS_TKEEP_PACKED, !tvalid_i || ((keep_p1 & tkeep_i) == '0 &&
      (tkeep_i != '0 || (tlast_i && tuser_i))))
  `SB2SB_RULE(TxEnv, AXIS_TID_PACKET, !(tvalid_i && in_pkt_q) || tid_i == pkt_id_q)
  // Non-vacuity (formal): a packet ends.
  `SB2SB_COVER(AXIS_C_LAST, tvalid_i && tready_i && tlast_i)
endmodule : axis_chk
