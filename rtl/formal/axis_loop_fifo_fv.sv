// Formal harness: the AXI4-Stream rules (axis_chk) on both ports of the
// engine-loop FIFO. On the slave port the transmitter is the environment
// (DutIsTx = 0: its rules assumed); on the master port the FIFO transmits
// (DutIsTx = 1: the same rules asserted). AXIS_TKEEP_PACKED and
// AXIS_TID_PACKET of the output follow from the input's; VALID_HELD and
// STABLE are the FIFO's own.
`include "sb2sb_assert.svh"

module axis_loop_fifo_fv (
  input logic        clk_i,
  input logic        rst_ni,
  input logic [63:0] s_axis_tdata,
  input logic [7:0]  s_axis_tkeep,
  input logic        s_axis_tlast,
  input logic [3:0]  s_axis_tid,
  input logic        s_axis_tuser,
  input logic        s_axis_tvalid,
  input logic        m_axis_tready
);
  logic        s_axis_tready, m_axis_tlast, m_axis_tuser, m_axis_tvalid;
  logic [63:0] m_axis_tdata;
  logic [7:0]  m_axis_tkeep;
  logic [3:0]  m_axis_tid;

  fv_reset u_rst (.clk_i, .rst_ni);

  // The FIFO is width-generic; the proof runs it at 64-bit beats.
  axis_loop_fifo #(.DataBits(64)) u_dut (
    .clk_i, .rst_ni,
    .s_axis_tdata, .s_axis_tkeep, .s_axis_tlast, .s_axis_tid, .s_axis_tuser,
    .s_axis_tvalid, .s_axis_tready,
    .m_axis_tdata, .m_axis_tkeep, .m_axis_tlast, .m_axis_tid, .m_axis_tuser,
    .m_axis_tvalid, .m_axis_tready
  );

  axis_chk #(.DataWidth(64), .IdWidth(4), .DutIsTx(1'b0)) u_s_chk (
    .clk_i, .rst_ni,
    .tdata_i (s_axis_tdata), .tkeep_i (s_axis_tkeep), .tlast_i (s_axis_tlast),
    .tid_i (s_axis_tid), .tuser_i (s_axis_tuser), .tvalid_i (s_axis_tvalid),
    .tready_i (s_axis_tready)
  );

  axis_chk #(.DataWidth(64), .IdWidth(4), .DutIsTx(1'b1)) u_m_chk (
    .clk_i, .rst_ni,
    .tdata_i (m_axis_tdata), .tkeep_i (m_axis_tkeep), .tlast_i (m_axis_tlast),
    .tid_i (m_axis_tid), .tuser_i (m_axis_tuser), .tvalid_i (m_axis_tvalid),
    .tready_i (m_axis_tready)
  );

  // Helper invariants: every beat held is a packed beat; the beats held are
  // the input packet's continuation from the output's point of view (same id
  // while inside a packet, the input's open packet last).
  logic [1:0] rd, nxt;
  assign rd  = {1'b0, u_dut.rd_q};
  assign nxt = {1'b0, !u_dut.rd_q};
  function automatic logic packed_ok(logic [7:0] k, logic last, logic user);
    return ((k + 8'd1) & k) == '0 && (k != '0 || (last && user));
  endfunction
  logic b0_ok, b1_ok;
  assign b0_ok = packed_ok(u_dut.buf_q[rd[0]].keep, u_dut.buf_q[rd[0]].last,
                           u_dut.buf_q[rd[0]].user);
  assign b1_ok = packed_ok(u_dut.buf_q[nxt[0]].keep, u_dut.buf_q[nxt[0]].last,
                           u_dut.buf_q[nxt[0]].user);
  `SB2SB_ASSERT(FV_FIFO_COUNT, u_dut.cnt_q <= 2'd2)
  `SB2SB_ASSERT(FV_FIFO_PACKED, (u_dut.cnt_q < 2'd1 || b0_ok) && (u_dut.cnt_q < 2'd2 || b1_ok))
  // Packet state: the output checker's open packet continues through the
  // beats held into the input checker's.
  logic id_ok;
  always_comb begin
    logic       open;
    logic [3:0] id;
    open  = u_m_chk.in_pkt_q;
    id    = u_m_chk.pkt_id_q;
    id_ok = 1'b1;
    if (u_dut.cnt_q >= 2'd1) begin
      if (open && u_dut.buf_q[rd[0]].id != id) id_ok = 1'b0;
      open = !u_dut.buf_q[rd[0]].last;
      id   = u_dut.buf_q[rd[0]].id;
    end
    if (u_dut.cnt_q == 2'd2) begin
      if (open && u_dut.buf_q[nxt[0]].id != id) id_ok = 1'b0;
      open = !u_dut.buf_q[nxt[0]].last;
      id   = u_dut.buf_q[nxt[0]].id;
    end
    if (open != u_s_chk.in_pkt_q || (open && id != u_s_chk.pkt_id_q)) id_ok = 1'b0;
  end
  `SB2SB_ASSERT(FV_FIFO_PACKET, id_ok)

  logic unused;
  assign unused = ^{rd[1], nxt[1]};
endmodule : axis_loop_fifo_fv
