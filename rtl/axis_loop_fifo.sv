// Two-entry AXI4-Stream FIFO: the CME-COPY loop of one UDMA engine (its M2S
// stream into its own S2M stream). s_axis_tready and m_axis_* depend on the
// registered state only, which breaks the engine's output-to-input path
// (golden twin: model/src/pair/fifo.rs). Full throughput: one beat per cycle.

module axis_loop_fifo #(
  parameter int unsigned DataBits = int'(sb2sb_pkg::ENGINE_DATA_BITS)
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [DataBits-1:0]   s_axis_tdata,
  input  logic [DataBits/8-1:0] s_axis_tkeep,
  input  logic        s_axis_tlast,
  input  logic [3:0]  s_axis_tid,
  input  logic        s_axis_tuser,
  input  logic        s_axis_tvalid,
  output logic        s_axis_tready,
  output logic [DataBits-1:0]   m_axis_tdata,
  output logic [DataBits/8-1:0] m_axis_tkeep,
  output logic        m_axis_tlast,
  output logic [3:0]  m_axis_tid,
  output logic        m_axis_tuser,
  output logic        m_axis_tvalid,
  input  logic        m_axis_tready
);

  typedef struct packed {
    logic [DataBits-1:0]   data;
    logic [DataBits/8-1:0] keep;
    logic        last;
    logic [3:0]  id;
    logic        user;
  } beat_t;

  beat_t [1:0] buf_q;
  logic  [1:0] cnt_q;
  logic        rd_q;
  logic        push, pop, wr_slot;
  beat_t       in_beat;

  assign in_beat       = '{data: s_axis_tdata, keep: s_axis_tkeep, last: s_axis_tlast,
                           id: s_axis_tid, user: s_axis_tuser};
  assign s_axis_tready = cnt_q != 2'd2;
  assign m_axis_tvalid = cnt_q != 2'd0;
  assign m_axis_tdata  = buf_q[rd_q].data;
  assign m_axis_tkeep  = buf_q[rd_q].keep;
  assign m_axis_tlast  = buf_q[rd_q].last;
  assign m_axis_tid    = buf_q[rd_q].id;
  assign m_axis_tuser  = buf_q[rd_q].user;
  assign push          = s_axis_tvalid && s_axis_tready;
  assign pop           = m_axis_tvalid && m_axis_tready;
  // write slot = read slot + count (mod 2)
  assign wr_slot       = rd_q ^ cnt_q[0];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      buf_q <= '0;
      cnt_q <= 2'd0;
      rd_q  <= 1'b0;
    end else begin
      if (push) begin
        buf_q[wr_slot] <= in_beat;
      end
      if (pop) begin
        rd_q <= ~rd_q;
      end
      cnt_q <= cnt_q + {1'b0, push} - {1'b0, pop};
    end
  end

endmodule : axis_loop_fifo
