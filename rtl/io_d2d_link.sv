// io_d2d link, one direction: an AXI4 write bridge with a fixed latency and
// backpressure (seed 001 §3: the die-to-die data fabric). The data bursts AND
// the routed remote-semaphore increments cross it as ordinary AXI writes
// (seed 001 §3.4: no interrupt carries a doorbell or a semaphore); B
// responses come back through it with the same latency.
//
// AW, W and B each sit in a FIFO whose entries carry their arrival time; an
// entry leaves once it is Latency cycles old and stall_i is low (stall_i is
// the environment's link backpressure: no new VALID is raised while it is
// high, the near side keeps accepting until a FIFO fills). A VALID already
// raised stays high until READY (AMBA: VALID is never withdrawn), whatever
// stall_i does: the *_held_q flags remember a VALID that waited. On the far side
// the routing fields [63:48] are stripped (the iATU OUTBOUND remap of seed
// 001 §3.2): the peer decodes DIE [47] and LOCAL [46:0] un-routed.
//
// Every output depends on the registered state and stall_i only (golden
// twin: model/src/pair/link.rs).

module io_d2d_link #(
  parameter int unsigned Latency  = 8,
  parameter int unsigned DataBits = int'(sb2sb_pkg::ENGINE_DATA_BITS),
  parameter int unsigned AwDepth = 4,
  parameter int unsigned WDepth  = 32,
  localparam int unsigned AwPw = $clog2(AwDepth),
  localparam int unsigned WPw  = $clog2(WDepth)
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        stall_i,
  // near side (slave, from the sending core's interconnect)
  input  logic [63:0] s_axi_awaddr,
  input  logic [7:0]  s_axi_awlen,
  input  logic        s_axi_awvalid,
  output logic        s_axi_awready,
  input  logic [DataBits-1:0]   s_axi_wdata,
  input  logic [DataBits/8-1:0] s_axi_wstrb,
  input  logic        s_axi_wlast,
  input  logic        s_axi_wvalid,
  output logic        s_axi_wready,
  output logic [1:0]  s_axi_bresp,
  output logic        s_axi_bvalid,
  input  logic        s_axi_bready,
  // far side (master, into the receiving core's interconnect)
  output logic [63:0] m_axi_awaddr,
  output logic [7:0]  m_axi_awlen,
  output logic        m_axi_awvalid,
  input  logic        m_axi_awready,
  output logic [DataBits-1:0]   m_axi_wdata,
  output logic [DataBits/8-1:0] m_axi_wstrb,
  output logic        m_axi_wlast,
  output logic        m_axi_wvalid,
  input  logic        m_axi_wready,
  input  logic [1:0]  m_axi_bresp,
  input  logic        m_axi_bvalid,
  output logic        m_axi_bready,
  // debug: [7:0] AW count, [15:8] W count, [23:16] B count, [31:24] bursts sent mod 256
  output logic [31:0] dbg_o
);

  if (Latency < 1 || Latency > 30000) begin : gen_lat_check
    $error("io_d2d_link: Latency must be 1..30000");
  end

  localparam logic [15:0] Lat = 16'(Latency);

  logic [15:0] now_q;

  // AW FIFO (also used for B: at most AwDepth bursts are in flight)
  logic [AwDepth-1:0][47:0] aw_addr_q;
  logic [AwDepth-1:0][7:0]  aw_len_q;
  logic [AwDepth-1:0][15:0] aw_ts_q;
  logic [AwPw-1:0]          aw_wp_q, aw_rp_q;
  logic [AwPw:0]            aw_cnt_q;
  // W FIFO
  logic [WDepth-1:0][DataBits-1:0]   w_data_q;
  logic [WDepth-1:0][DataBits/8-1:0] w_strb_q;
  logic [WDepth-1:0]        w_last_q;
  logic [WDepth-1:0][15:0]  w_ts_q;
  logic [WPw-1:0]           w_wp_q, w_rp_q;
  logic [WPw:0]             w_cnt_q;
  // B FIFO
  logic [AwDepth-1:0][1:0]  b_resp_q;
  logic [AwDepth-1:0][15:0] b_ts_q;
  logic [AwPw-1:0]          b_wp_q, b_rp_q;
  logic [AwPw:0]            b_cnt_q;
  // bursts accepted on the near side and not yet answered there
  logic [AwPw:0]            open_q;
  logic [7:0]               sent_q;
  // a VALID that was high without READY at the last edge (must stay high)
  logic                     aw_held_q, w_held_q, b_held_q;

  logic aw_in, w_in, b_in, aw_out, w_out, b_out;
  logic [15:0] aw_age, w_age, b_age;

  assign aw_age = now_q - aw_ts_q[aw_rp_q];
  assign w_age  = now_q - w_ts_q[w_rp_q];
  assign b_age  = now_q - b_ts_q[b_rp_q];

  assign s_axi_awready = open_q != (AwPw + 1)'(AwDepth);
  assign s_axi_wready  = w_cnt_q != (WPw + 1)'(WDepth);
  assign s_axi_bvalid  = b_held_q || ((b_cnt_q != '0) && (b_age >= Lat) && !stall_i);
  assign s_axi_bresp   = b_resp_q[b_rp_q];

  assign m_axi_awvalid = aw_held_q || ((aw_cnt_q != '0) && (aw_age >= Lat) && !stall_i);
  assign m_axi_awaddr  = {16'h0, aw_addr_q[aw_rp_q]};
  assign m_axi_awlen   = aw_len_q[aw_rp_q];
  assign m_axi_wvalid  = w_held_q || ((w_cnt_q != '0) && (w_age >= Lat) && !stall_i);
  assign m_axi_wdata   = w_data_q[w_rp_q];
  assign m_axi_wstrb   = w_strb_q[w_rp_q];
  assign m_axi_wlast   = w_last_q[w_rp_q];
  assign m_axi_bready  = b_cnt_q != (AwPw + 1)'(AwDepth);

  assign aw_in  = s_axi_awvalid && s_axi_awready;
  assign w_in   = s_axi_wvalid && s_axi_wready;
  assign b_out  = s_axi_bvalid && s_axi_bready;
  assign aw_out = m_axi_awvalid && m_axi_awready;
  assign w_out  = m_axi_wvalid && m_axi_wready;
  assign b_in   = m_axi_bvalid && m_axi_bready;

  // [63:48] are the routing fields the far side strips
  logic unused_route;
  assign unused_route = ^s_axi_awaddr[63:48];

  assign dbg_o = {sent_q, 8'(b_cnt_q), 8'(w_cnt_q), 8'(aw_cnt_q)};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      now_q     <= '0;
      aw_addr_q <= '0;
      aw_len_q  <= '0;
      aw_ts_q   <= '0;
      aw_wp_q   <= '0;
      aw_rp_q   <= '0;
      aw_cnt_q  <= '0;
      w_data_q  <= '0;
      w_strb_q  <= '0;
      w_last_q  <= '0;
      w_ts_q    <= '0;
      w_wp_q    <= '0;
      w_rp_q    <= '0;
      w_cnt_q   <= '0;
      b_resp_q  <= '0;
      b_ts_q    <= '0;
      b_wp_q    <= '0;
      b_rp_q    <= '0;
      b_cnt_q   <= '0;
      open_q    <= '0;
      sent_q    <= '0;
      aw_held_q <= 1'b0;
      w_held_q  <= 1'b0;
      b_held_q  <= 1'b0;
    end else begin
      now_q     <= now_q + 16'd1;
      aw_held_q <= m_axi_awvalid && !m_axi_awready;
      w_held_q  <= m_axi_wvalid && !m_axi_wready;
      b_held_q  <= s_axi_bvalid && !s_axi_bready;
      if (aw_in) begin
        aw_addr_q[aw_wp_q] <= s_axi_awaddr[47:0];
        aw_len_q[aw_wp_q]  <= s_axi_awlen;
        aw_ts_q[aw_wp_q]   <= now_q;
        aw_wp_q            <= aw_wp_q + 1'b1;
      end
      if (aw_out) begin
        aw_rp_q <= aw_rp_q + 1'b1;
        sent_q  <= sent_q + 8'd1;
      end
      aw_cnt_q <= aw_cnt_q + (AwPw + 1)'(aw_in) - (AwPw + 1)'(aw_out);
      open_q   <= open_q + (AwPw + 1)'(aw_in) - (AwPw + 1)'(b_out);
      if (w_in) begin
        w_data_q[w_wp_q] <= s_axi_wdata;
        w_strb_q[w_wp_q] <= s_axi_wstrb;
        w_last_q[w_wp_q] <= s_axi_wlast;
        w_ts_q[w_wp_q]   <= now_q;
        w_wp_q           <= w_wp_q + 1'b1;
      end
      if (w_out) begin
        w_rp_q <= w_rp_q + 1'b1;
      end
      w_cnt_q <= w_cnt_q + (WPw + 1)'(w_in) - (WPw + 1)'(w_out);
      if (b_in) begin
        b_resp_q[b_wp_q] <= m_axi_bresp;
        b_ts_q[b_wp_q]   <= now_q;
        b_wp_q           <= b_wp_q + 1'b1;
      end
      if (b_out) begin
        b_rp_q <= b_rp_q + 1'b1;
      end
      b_cnt_q <= b_cnt_q + (AwPw + 1)'(b_in) - (AwPw + 1)'(b_out);
    end
  end

endmodule : io_d2d_link
