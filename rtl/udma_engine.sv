// UDMA engine top: register file (AXI4-Lite), M2S and S2M FSMs, shared AXI4 read
// port (AR arbiter S2M first; up to MaxRdOutstanding bursts outstanding, in order,
// tracked with their side so each R beat goes to the side that asked), AXI4 write
// port (S2M only, up to MaxWrOutstanding bursts waiting for B).
//
// Golden model: model/src/udma/engine.rs (same ports, same cycle behaviour).

module udma_engine
  import sb2sb_pkg::*;
#(
  parameter int unsigned NumQ = UDMA_NUM_QUEUES,
  parameter int unsigned DataWidth = 64,
  parameter int unsigned MaxBurst = 16,
  // S2M data write burst length limit in beats: 1 = single-beat writes, up to
  // MaxBurst (default 16, as every registered block and the system model use)
  parameter int unsigned MaxWrBurst = 16,
  // read bursts outstanding (M2S data and descriptor reads, S2M descriptor reads); a
  // power of two, 2 or more; the M2S read-data ring holds MaxRdOutstanding bursts
  parameter int unsigned MaxRdOutstanding = 4,
  // S2M data write bursts waiting for their B response
  parameter int unsigned MaxWrOutstanding = 8,
  localparam int unsigned QueueIdxW = $clog2(NumQ),
  localparam int unsigned OtIdxW = $clog2(MaxRdOutstanding)
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // AXI4-Lite CSR slave
  input  logic [UDMA_CSR_ADDR_WIDTH-1:0] s_axil_awaddr,
  input  logic                   s_axil_awvalid,
  output logic                   s_axil_awready,
  input  logic [31:0]            s_axil_wdata,
  input  logic [3:0]             s_axil_wstrb,
  input  logic                   s_axil_wvalid,
  output logic                   s_axil_wready,
  output logic [1:0]             s_axil_bresp,
  output logic                   s_axil_bvalid,
  input  logic                   s_axil_bready,
  input  logic [UDMA_CSR_ADDR_WIDTH-1:0] s_axil_araddr,
  input  logic                   s_axil_arvalid,
  output logic                   s_axil_arready,
  output logic [31:0]            s_axil_rdata,
  output logic [1:0]             s_axil_rresp,
  output logic                   s_axil_rvalid,
  input  logic                   s_axil_rready,
  // AXI4 master, read
  output logic [63:0]            m_axi_araddr,
  output logic [7:0]             m_axi_arlen,
  output logic [2:0]             m_axi_arsize,
  output logic [1:0]             m_axi_arburst,
  output logic                   m_axi_arvalid,
  input  logic                   m_axi_arready,
  input  logic [DataWidth-1:0]   m_axi_rdata,
  input  logic [1:0]             m_axi_rresp,
  input  logic                   m_axi_rlast,
  input  logic                   m_axi_rvalid,
  output logic                   m_axi_rready,
  // AXI4 master, write
  output logic [63:0]            m_axi_awaddr,
  output logic [7:0]             m_axi_awlen,
  output logic [2:0]             m_axi_awsize,
  output logic [1:0]             m_axi_awburst,
  output logic                   m_axi_awvalid,
  input  logic                   m_axi_awready,
  output logic [DataWidth-1:0]   m_axi_wdata,
  output logic [DataWidth/8-1:0] m_axi_wstrb,
  output logic                   m_axi_wlast,
  output logic                   m_axi_wvalid,
  input  logic                   m_axi_wready,
  input  logic [1:0]             m_axi_bresp,
  input  logic                   m_axi_bvalid,
  output logic                   m_axi_bready,
  // AXI4-Stream master (M2S out)
  output logic [DataWidth-1:0]   m_axis_tdata,
  output logic [DataWidth/8-1:0] m_axis_tkeep,
  output logic                   m_axis_tlast,
  output logic [QueueIdxW-1:0]   m_axis_tid,
  output logic                   m_axis_tuser,
  output logic                   m_axis_tvalid,
  input  logic                   m_axis_tready,
  // AXI4-Stream slave (S2M in)
  input  logic [DataWidth-1:0]   s_axis_tdata,
  input  logic [DataWidth/8-1:0] s_axis_tkeep,
  input  logic                   s_axis_tlast,
  input  logic [QueueIdxW-1:0]   s_axis_tid,
  input  logic                   s_axis_tuser,
  input  logic                   s_axis_tvalid,
  output logic                   s_axis_tready,
  // interrupts and debug
  output logic                   irq_o,
  output logic                   err_irq_o,
  output logic [31:0]            dbg_o
);

  // AXI data width: 32, 64 (default), 128 or 256 bits (docs/udma.md).
  if (DataWidth != 32 && DataWidth != 64 && DataWidth != 128 && DataWidth != 256)
  begin : gen_width_check
    $error("udma_engine: DataWidth must be 32, 64, 128 or 256");
  end

  if (MaxWrBurst < 1 || MaxWrBurst > MaxBurst) begin : gen_wr_burst_check
    $error("udma_engine: MaxWrBurst must be 1..MaxBurst");
  end

  if (MaxRdOutstanding < 2 || (MaxRdOutstanding & (MaxRdOutstanding - 1)) != 0)
  begin : gen_rd_out_check
    $error("udma_engine: MaxRdOutstanding must be a power of two, 2 or more");
  end

  if (MaxWrOutstanding < 1) begin : gen_wr_out_check
    $error("udma_engine: MaxWrOutstanding must be 1 or more");
  end

  // AXI size of a full beat: log2(bytes per beat)
  localparam logic [2:0] AxSize = 3'($clog2(DataWidth / 8));

  localparam logic [1:0] RdNone = 2'd0;
  localparam logic [1:0] RdM2s  = 2'd1;
  localparam logic [1:0] RdS2m  = 2'd2;

  // AR grant (the granted side drives AR until its handshake)
  logic [1:0]       rd_owner_q, rd_owner_d;
  // outstanding read bursts, oldest at ot_rp_q: S2M's, ARLEN
  logic             ot_s2m_q [MaxRdOutstanding];
  logic [7:0]       ot_len_q [MaxRdOutstanding];
  logic [OtIdxW-1:0] ot_rp_q, ot_rp_d;
  logic [OtIdxW:0]  ot_cnt_q, ot_cnt_d;
  logic             ot_we;
  // beat index within the oldest burst
  logic [7:0]       rd_cnt_q, rd_cnt_d;
  logic [7:0]       head_len;
  logic             head_s2m, r_busy, rvalid, ar_hs;

  // register-file wiring (index 0 = M2S, 1 = S2M)
  logic [1:0][QueueIdxW-1:0] ev_q;
  logic [1:0]                ev_head_adv, ev_crhp_adv, ev_done_inc, ev_int_set, ev_err;
  logic [1:0][4:0]           ev_err_bit;
  logic [1:0][5:0]           ev_bytes, ev_drop;
  logic [1:0][3:0]           stat_state;
  logic [1:0][QueueIdxW-1:0] stat_q;
  logic [1:0]                stat_pkt;
  logic [1:0][NumQ-1:0]      avail, stopped;
  logic [1:0]                normal;
  logic [1:0][63:0]          desc_addr, comp_addr, next_addr;
  logic [1:0]                has_next;
  udma_q_ptr_ring_id_t [1:0] head_id, crhp_id;
  udma_q_ptr_ring_id_t       s2m_next_id;
  udma_q_ptr_offset_t [1:0]  head_off;
  logic [1:0]                comp_en;
  logic [1:0][31:0]          tout;
  logic [1:0]                csr_pending;

  logic             m_want, m_arvalid, s_want, s_arvalid, s_wr_busy, m_dmb_wait;
  logic [63:0]      m_araddr, s_araddr;
  logic [7:0]       m_arlen, s_arlen;

  assign head_s2m     = ot_s2m_q[ot_rp_q];
  assign head_len     = ot_len_q[ot_rp_q];
  assign r_busy       = ot_cnt_q != '0;
  assign rvalid       = m_axi_rvalid && r_busy;
  assign m_axi_rready = r_busy;
  assign ar_hs        = m_axi_arvalid && m_axi_arready;

  udma_regs #(.NumQ(NumQ)) u_regs (
    .clk_i,
    .rst_ni,
    .s_axil_awaddr,
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
    .s_axil_arvalid,
    .s_axil_arready,
    .s_axil_rdata,
    .s_axil_rresp,
    .s_axil_rvalid,
    .s_axil_rready,
    .ev_q_i        (ev_q),
    .ev_head_adv_i (ev_head_adv),
    .ev_crhp_adv_i (ev_crhp_adv),
    .ev_done_inc_i (ev_done_inc),
    .ev_int_set_i  (ev_int_set),
    .ev_err_i      (ev_err),
    .ev_err_bit_i  (ev_err_bit),
    .ev_bytes_i    (ev_bytes),
    .ev_drop_i     (ev_drop),
    .stat_state_i  (stat_state),
    .stat_q_i      (stat_q),
    .stat_pkt_i    (stat_pkt),
    .avail_o       (avail),
    .stopped_o     (stopped),
    .normal_o      (normal),
    .desc_addr_o   (desc_addr),
    .next_addr_o   (next_addr),
    .has_next_o    (has_next),
    .s2m_next_id_o (s2m_next_id),
    .comp_addr_o   (comp_addr),
    .head_id_o     (head_id),
    .head_off_o    (head_off),
    .crhp_id_o     (crhp_id),
    .comp_en_o     (comp_en),
    .tout_o        (tout),
    .irq_o,
    .err_irq_o,
    .csr_pending_o (csr_pending)
  );

  udma_m2s #(
    .NumQ(NumQ),
    .MaxBurst(MaxBurst),
    .DataWidth(DataWidth),
    .MaxRdOutstanding(MaxRdOutstanding)
  ) u_m2s (
    .clk_i,
    .rst_ni,
    .avail_i       (avail[0]),
    .stopped_i     (stopped[0]),
    .normal_i      (normal[0]),
    .desc_addr_i   (desc_addr[0]),
    .next_addr_i   (next_addr[0]),
    .has_next_i    (has_next[0]),
    .head_id_i     (head_id[0]),
    .wr_busy_i     (s_wr_busy),
    .wr_q_i        (stat_q[1]),
    .dmb_wait_o    (m_dmb_wait),
    .rd_owner_i    (rd_owner_q == RdM2s),
    .r_own_i       (r_busy && !head_s2m),
    .arready_i     (m_axi_arready),
    .rvalid_i      (rvalid),
    .rdata_i       (m_axi_rdata),
    .rresp_i       (m_axi_rresp),
    .rd_cnt_i      (rd_cnt_q),
    .rd_len_i      (head_len),
    .want_o        (m_want),
    .arvalid_o     (m_arvalid),
    .araddr_o      (m_araddr),
    .arlen_o       (m_arlen),
    .m_axis_tdata,
    .m_axis_tkeep,
    .m_axis_tlast,
    .m_axis_tid,
    .m_axis_tuser,
    .m_axis_tvalid,
    .m_axis_tready,
    .ev_q_o        (ev_q[0]),
    .ev_head_adv_o (ev_head_adv[0]),
    .ev_done_inc_o (ev_done_inc[0]),
    .ev_int_set_o  (ev_int_set[0]),
    .ev_err_o      (ev_err[0]),
    .ev_err_bit_o  (ev_err_bit[0]),
    .ev_bytes_o    (ev_bytes[0]),
    .state_o       (stat_state[0]),
    .pkt_o         (stat_pkt[0])
  );
  assign ev_crhp_adv[0] = 1'b0;
  assign ev_drop[0]     = '0;
  assign stat_q[0]      = ev_q[0];

  udma_s2m #(
    .NumQ(NumQ),
    .DataWidth(DataWidth),
    .MaxBurst(MaxBurst),
    .MaxWrBurst(MaxWrBurst),
    .MaxWrOutstanding(MaxWrOutstanding)
  ) u_s2m (
    .clk_i,
    .rst_ni,
    .avail_i       (avail[1]),
    .stopped_i     (stopped[1]),
    .desc_addr_i   (desc_addr[1]),
    .next_addr_i   (next_addr[1]),
    .has_next_i    (has_next[1]),
    .next_id_i     (s2m_next_id),
    .comp_addr_i   (comp_addr[1]),
    .head_id_i     (head_id[1]),
    .head_off_i    (head_off[1]),
    .crhp_id_i     (crhp_id[1]),
    .comp_en_i     (comp_en[1]),
    .tout_i        (tout[1]),
    .dmb_req_i     (m_dmb_wait && (stat_q[0] == stat_q[1])),
    .rd_owner_i    (rd_owner_q == RdS2m),
    .r_own_i       (r_busy && head_s2m),
    .arready_i     (m_axi_arready),
    .rvalid_i      (rvalid),
    .rdata_i       (m_axi_rdata),
    .rresp_i       (m_axi_rresp),
    .rd_cnt_i      (rd_cnt_q),
    .rd_len_i      (head_len),
    .want_o        (s_want),
    .arvalid_o     (s_arvalid),
    .araddr_o      (s_araddr),
    .arlen_o       (s_arlen),
    .m_axi_awvalid,
    .m_axi_awaddr,
    .m_axi_awlen,
    .m_axi_awready,
    .m_axi_wvalid,
    .m_axi_wdata,
    .m_axi_wstrb,
    .m_axi_wlast,
    .m_axi_wready,
    .m_axi_bvalid,
    .m_axi_bresp,
    .m_axi_bready,
    .s_axis_tdata,
    .s_axis_tkeep,
    .s_axis_tlast,
    .s_axis_tid,
    .s_axis_tuser,
    .s_axis_tvalid,
    .s_axis_tready,
    .ev_q_o        (ev_q[1]),
    .ev_head_adv_o (ev_head_adv[1]),
    .ev_crhp_adv_o (ev_crhp_adv[1]),
    .ev_done_inc_o (ev_done_inc[1]),
    .ev_int_set_o  (ev_int_set[1]),
    .ev_err_o      (ev_err[1]),
    .ev_err_bit_o  (ev_err_bit[1]),
    .ev_bytes_o    (ev_bytes[1]),
    .ev_drop_o     (ev_drop[1]),
    .state_o       (stat_state[1]),
    .wr_busy_o     (s_wr_busy),
    .stat_q_o      (stat_q[1]),
    .pkt_o         (stat_pkt[1])
  );

  // AR channel mux
  always_comb begin
    m_axi_arvalid = 1'b0;
    m_axi_araddr  = '0;
    m_axi_arlen   = '0;
    unique case (rd_owner_q)
      RdM2s: begin
        m_axi_arvalid = m_arvalid;
        m_axi_araddr  = m_araddr;
        m_axi_arlen   = m_arlen;
      end
      RdS2m: begin
        m_axi_arvalid = s_arvalid;
        m_axi_araddr  = s_araddr;
        m_axi_arlen   = s_arlen;
      end
      default: ;
    endcase
  end
  assign m_axi_arsize  = m_axi_arvalid ? AxSize : 3'd0;
  assign m_axi_arburst = m_axi_arvalid ? 2'd1 : 2'd0;
  assign m_axi_awsize  = m_axi_awvalid ? AxSize : 3'd0;
  assign m_axi_awburst = m_axi_awvalid ? 2'd1 : 2'd0;

  // AR arbiter: a grant (S2M first) only while a tracker slot is free; the AR
  // handshake frees the grant and records the burst. R beats count against the
  // oldest burst's ARLEN; its last beat retires it (RLAST is implied by the count).
  always_comb begin
    rd_owner_d = rd_owner_q;
    ot_rp_d    = ot_rp_q;
    ot_cnt_d   = ot_cnt_q;
    rd_cnt_d   = rd_cnt_q;
    ot_we      = 1'b0;
    if (ar_hs) begin
      ot_we      = 1'b1;
      rd_owner_d = RdNone;
      ot_cnt_d   = ot_cnt_q + (OtIdxW+1)'(1);
    end else if (rd_owner_q == RdNone && ot_cnt_q < (OtIdxW+1)'(MaxRdOutstanding)) begin
      if (s_want) begin
        rd_owner_d = RdS2m;
      end else if (m_want) begin
        rd_owner_d = RdM2s;
      end
    end
    if (rvalid) begin
      if (rd_cnt_q == head_len) begin
        rd_cnt_d = '0;
        ot_rp_d  = ot_rp_q + OtIdxW'(1);
        ot_cnt_d = ot_cnt_d - (OtIdxW+1)'(1);
      end else begin
        rd_cnt_d = rd_cnt_q + 8'd1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_owner_q <= RdNone;
      ot_rp_q    <= '0;
      ot_cnt_q   <= '0;
      rd_cnt_q   <= '0;
    end else begin
      rd_owner_q <= rd_owner_d;
      ot_rp_q    <= ot_rp_d;
      ot_cnt_q   <= ot_cnt_d;
      rd_cnt_q   <= rd_cnt_d;
    end
  end

  // the tracker's entries: the handshaken AR's side and ARLEN at the next free slot
  always_ff @(posedge clk_i or negedge rst_ni) begin : p_ot
    if (!rst_ni) begin
      ot_s2m_q <= '{default: '0};
      ot_len_q <= '{default: '0};
    end else if (ot_we) begin
      ot_s2m_q[ot_rp_q + OtIdxW'(ot_cnt_q)] <= (rd_owner_q == RdS2m);
      ot_len_q[ot_rp_q + OtIdxW'(ot_cnt_q)] <= m_axi_arlen;
    end
  end

  // debug: [8:0] M2S {pkt, q, state}, [17:9] S2M, [19:18] read owner, [21:20] CSR {R, B} pending
  assign dbg_o = {10'b0, csr_pending, rd_owner_q, stat_pkt[1], stat_q[1], stat_state[1],
                  stat_pkt[0], stat_q[0], stat_state[0]};

  // Side-specific views the other side does not use; RLAST is implied by the beat count.
  logic unused_sig;
  assign unused_sig = ^{m_axi_rlast, normal[1], comp_addr[0], crhp_id[0], head_off[0],
                        comp_en[0], tout[0]};

endmodule : udma_engine
