// Two NeuronCores joined by io_d2d links, NumLk lanes per direction (docs/pair.md,
// ARCHITECTURE §10): the SB2SB leg in RTL. The placement straps place_i
// (held stable while out of reset, like a die-id pin) give the cores their
// identity, so the fold bits of seed 001 §2 decide the route in hardware:
//
//   place_i  core A                core B                 fold of A -> B
//   0        chip 0, die 0, core 0 chip 0,    die 1, core 0 neighbor (other die, same package)
//   1        chip 0, die 0, core 0 chip 0x12, die 1, core 0 chip id (other package)
//   2        chip 0, die 0, core 0 chip 0,    die 0, core 1 none (same die, other core)
//   3        as 0
//
// Golden twin: model/src/pair/top.rs.

module sb2sb_pair #(
  parameter int unsigned NumEngines    = 4,
  parameter int unsigned SbufPartBytes = 256,
  parameter int unsigned SbufWinBase   = 32'h10_0000,
  parameter int unsigned DescBytes     = 16384,
  parameter int unsigned LinkLatency   = 8,
  // io_d2d link lanes per direction (one io_d2d_link each)
  parameter int unsigned NumLk         = NumEngines,
  // data width of the engines, interconnects, memories and link lanes
  parameter int unsigned DataBits      = int'(sb2sb_pkg::ENGINE_DATA_BITS)
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [1:0]  place_i,
  // link backpressure A->B and B->A, memory backpressure per core
  input  logic        ab_stall_i,
  input  logic        ba_stall_i,
  input  logic        a_mem_stall_i,
  input  logic        b_mem_stall_i,
  // Q7 AXI4-Lite ports of core A and core B
  input  logic [31:0] s_axil_a_awaddr,
  input  logic        s_axil_a_awvalid,
  input  logic [31:0] s_axil_a_wdata,
  input  logic [3:0]  s_axil_a_wstrb,
  input  logic        s_axil_a_wvalid,
  input  logic        s_axil_a_bready,
  input  logic [31:0] s_axil_a_araddr,
  input  logic        s_axil_a_arvalid,
  input  logic        s_axil_a_rready,
  output logic        s_axil_a_awready,
  output logic        s_axil_a_wready,
  output logic [1:0]  s_axil_a_bresp,
  output logic        s_axil_a_bvalid,
  output logic        s_axil_a_arready,
  output logic [31:0] s_axil_a_rdata,
  output logic [1:0]  s_axil_a_rresp,
  output logic        s_axil_a_rvalid,
  input  logic [31:0] s_axil_b_awaddr,
  input  logic        s_axil_b_awvalid,
  input  logic [31:0] s_axil_b_wdata,
  input  logic [3:0]  s_axil_b_wstrb,
  input  logic        s_axil_b_wvalid,
  input  logic        s_axil_b_bready,
  input  logic [31:0] s_axil_b_araddr,
  input  logic        s_axil_b_arvalid,
  input  logic        s_axil_b_rready,
  output logic        s_axil_b_awready,
  output logic        s_axil_b_wready,
  output logic [1:0]  s_axil_b_bresp,
  output logic        s_axil_b_bvalid,
  output logic        s_axil_b_arready,
  output logic [31:0] s_axil_b_rdata,
  output logic [1:0]  s_axil_b_rresp,
  output logic        s_axil_b_rvalid,
  // debug
  input  logic [7:0]  dbg_a_sem_idx_i,
  output logic [31:0] dbg_a_sem_o,
  input  logic        dbg_a_mem_sel_i,
  input  logic        dbg_a_mem_we_i,
  input  logic [19:0] dbg_a_mem_addr_i,
  input  logic [63:0] dbg_a_mem_wdata_i,
  output logic [63:0] dbg_a_mem_rdata_o,
  output logic [31:0] dbg_a_xbar_o,
  output logic [15:0] dbg_a_xin_o,
  output logic [7:0]  dbg_a_q7_o,
  output logic [NumEngines-1:0] a_irq_o,
  output logic [NumEngines-1:0] a_err_irq_o,
  output logic [4:0]  a_sem_err_o,
  input  logic [7:0]  dbg_b_sem_idx_i,
  output logic [31:0] dbg_b_sem_o,
  input  logic        dbg_b_mem_sel_i,
  input  logic        dbg_b_mem_we_i,
  input  logic [19:0] dbg_b_mem_addr_i,
  input  logic [63:0] dbg_b_mem_wdata_i,
  output logic [63:0] dbg_b_mem_rdata_o,
  output logic [31:0] dbg_b_xbar_o,
  output logic [15:0] dbg_b_xin_o,
  output logic [7:0]  dbg_b_q7_o,
  output logic [NumEngines-1:0] b_irq_o,
  output logic [NumEngines-1:0] b_err_irq_o,
  output logic [4:0]  b_sem_err_o,
  // debug of link lane 0 of each direction
  output logic [31:0] dbg_ab_link_o,
  output logic [31:0] dbg_ba_link_o
);

  logic       b_die;
  logic [5:0] b_chip;
  logic [2:0] b_idx;

  always_comb begin
    b_die  = 1'b1;
    b_chip = 6'h0;
    b_idx  = 3'd0;
    unique case (place_i)
      2'd1: begin
        b_chip = 6'h12;
      end
      2'd2: begin
        b_die = 1'b0;
        b_idx = 3'd1;
      end
      default: ;
    endcase
  end

  // per direction: near side (out of the sending core), far side (into the receiving core)
  logic [NumLk-1:0][63:0] a_out_awaddr, a_in_awaddr, b_out_awaddr, b_in_awaddr;
  logic [NumLk-1:0][DataBits-1:0]   a_out_wdata, a_in_wdata, b_out_wdata, b_in_wdata;
  logic [NumLk-1:0][7:0]  a_out_awlen, a_in_awlen, b_out_awlen, b_in_awlen;
  logic [NumLk-1:0][DataBits/8-1:0] a_out_wstrb, a_in_wstrb, b_out_wstrb, b_in_wstrb;
  logic [NumLk-1:0][1:0]  a_out_bresp, a_in_bresp, b_out_bresp, b_in_bresp;
  logic [NumLk-1:0]       a_out_awvalid, a_out_awready, a_out_wlast, a_out_wvalid, a_out_wready;
  logic [NumLk-1:0]       a_out_bvalid, a_out_bready;
  logic [NumLk-1:0]       a_in_awvalid, a_in_awready, a_in_wlast, a_in_wvalid, a_in_wready;
  logic [NumLk-1:0]       a_in_bvalid, a_in_bready;
  logic [NumLk-1:0]       b_out_awvalid, b_out_awready, b_out_wlast, b_out_wvalid, b_out_wready;
  logic [NumLk-1:0]       b_out_bvalid, b_out_bready;
  logic [NumLk-1:0]       b_in_awvalid, b_in_awready, b_in_wlast, b_in_wvalid, b_in_wready;
  logic [NumLk-1:0]       b_in_bvalid, b_in_bready;
  logic [NumLk-1:0][31:0] ab_dbg, ba_dbg;
  // each lane's destination: the pair wires every lane to the one peer
  logic [NumLk-1:0][31:0] a_lk_dest, b_lk_dest;
  logic [NumLk-1:0]       a_lk_dest_v, b_lk_dest_v;
  logic unused_lk_dest;
  assign unused_lk_dest = ^{a_lk_dest, b_lk_dest, a_lk_dest_v, b_lk_dest_v};

  sb2sb_core #(
    .NumEngines   (NumEngines),
    .SbufPartBytes(SbufPartBytes),
    .SbufWinBase  (SbufWinBase),
    .DescBytes    (DescBytes),
    .NumLk        (NumLk),
    .DataBits     (DataBits)
  ) u_core_a (
    .clk_i,
    .rst_ni,
    .self_die_i     (1'b0),
    .self_chip_i    (6'h0),
    .core_idx_i     (3'd0),
    .mem_stall_i    (a_mem_stall_i),
    .s_axil_awaddr  (s_axil_a_awaddr),
    .s_axil_awvalid (s_axil_a_awvalid),
    .s_axil_wdata   (s_axil_a_wdata),
    .s_axil_wstrb   (s_axil_a_wstrb),
    .s_axil_wvalid  (s_axil_a_wvalid),
    .s_axil_bready  (s_axil_a_bready),
    .s_axil_araddr  (s_axil_a_araddr),
    .s_axil_arvalid (s_axil_a_arvalid),
    .s_axil_rready  (s_axil_a_rready),
    .s_axil_awready (s_axil_a_awready),
    .s_axil_wready  (s_axil_a_wready),
    .s_axil_bresp   (s_axil_a_bresp),
    .s_axil_bvalid  (s_axil_a_bvalid),
    .s_axil_arready (s_axil_a_arready),
    .s_axil_rdata   (s_axil_a_rdata),
    .s_axil_rresp   (s_axil_a_rresp),
    .s_axil_rvalid  (s_axil_a_rvalid),
    .m_axi_awaddr   (a_out_awaddr),
    .m_axi_awlen    (a_out_awlen),
    .m_axi_awvalid  (a_out_awvalid),
    .m_axi_awready  (a_out_awready),
    .m_axi_wdata    (a_out_wdata),
    .m_axi_wstrb    (a_out_wstrb),
    .m_axi_wlast    (a_out_wlast),
    .m_axi_wvalid   (a_out_wvalid),
    .m_axi_wready   (a_out_wready),
    .m_axi_bresp    (a_out_bresp),
    .m_axi_bvalid   (a_out_bvalid),
    .m_axi_bready   (a_out_bready),
    .s_axi_awaddr   (a_in_awaddr),
    .s_axi_awlen    (a_in_awlen),
    .s_axi_awvalid  (a_in_awvalid),
    .s_axi_awready  (a_in_awready),
    .s_axi_wdata    (a_in_wdata),
    .s_axi_wstrb    (a_in_wstrb),
    .s_axi_wlast    (a_in_wlast),
    .s_axi_wvalid   (a_in_wvalid),
    .s_axi_wready   (a_in_wready),
    .s_axi_bresp    (a_in_bresp),
    .s_axi_bvalid   (a_in_bvalid),
    .s_axi_bready   (a_in_bready),
    .dbg_sem_idx_i  (dbg_a_sem_idx_i),
    .dbg_sem_o      (dbg_a_sem_o),
    .dbg_mem_sel_i  (dbg_a_mem_sel_i),
    .dbg_mem_we_i   (dbg_a_mem_we_i),
    .dbg_mem_addr_i (dbg_a_mem_addr_i),
    .dbg_mem_wdata_i(dbg_a_mem_wdata_i),
    .dbg_mem_rdata_o(dbg_a_mem_rdata_o),
    .dbg_xbar_o     (dbg_a_xbar_o),
    .dbg_xin_o      (dbg_a_xin_o),
    .dbg_q7_o       (dbg_a_q7_o),
    .irq_o              (a_irq_o),
    .err_irq_o          (a_err_irq_o),
    .sem_err_o          (a_sem_err_o),
    .lk_dest_o          (a_lk_dest),
    .lk_dest_valid_o    (a_lk_dest_v)
  );

  sb2sb_core #(
    .NumEngines   (NumEngines),
    .SbufPartBytes(SbufPartBytes),
    .SbufWinBase  (SbufWinBase),
    .DescBytes    (DescBytes),
    .NumLk        (NumLk),
    .DataBits     (DataBits)
  ) u_core_b (
    .clk_i,
    .rst_ni,
    .self_die_i     (b_die),
    .self_chip_i    (b_chip),
    .core_idx_i     (b_idx),
    .mem_stall_i    (b_mem_stall_i),
    .s_axil_awaddr  (s_axil_b_awaddr),
    .s_axil_awvalid (s_axil_b_awvalid),
    .s_axil_wdata   (s_axil_b_wdata),
    .s_axil_wstrb   (s_axil_b_wstrb),
    .s_axil_wvalid  (s_axil_b_wvalid),
    .s_axil_bready  (s_axil_b_bready),
    .s_axil_araddr  (s_axil_b_araddr),
    .s_axil_arvalid (s_axil_b_arvalid),
    .s_axil_rready  (s_axil_b_rready),
    .s_axil_awready (s_axil_b_awready),
    .s_axil_wready  (s_axil_b_wready),
    .s_axil_bresp   (s_axil_b_bresp),
    .s_axil_bvalid  (s_axil_b_bvalid),
    .s_axil_arready (s_axil_b_arready),
    .s_axil_rdata   (s_axil_b_rdata),
    .s_axil_rresp   (s_axil_b_rresp),
    .s_axil_rvalid  (s_axil_b_rvalid),
    .m_axi_awaddr   (b_out_awaddr),
    .m_axi_awlen    (b_out_awlen),
    .m_axi_awvalid  (b_out_awvalid),
    .m_axi_awready  (b_out_awready),
    .m_axi_wdata    (b_out_wdata),
    .m_axi_wstrb    (b_out_wstrb),
    .m_axi_wlast    (b_out_wlast),
    .m_axi_wvalid   (b_out_wvalid),
    .m_axi_wready   (b_out_wready),
    .m_axi_bresp    (b_out_bresp),
    .m_axi_bvalid   (b_out_bvalid),
    .m_axi_bready   (b_out_bready),
    .s_axi_awaddr   (b_in_awaddr),
    .s_axi_awlen    (b_in_awlen),
    .s_axi_awvalid  (b_in_awvalid),
    .s_axi_awready  (b_in_awready),
    .s_axi_wdata    (b_in_wdata),
    .s_axi_wstrb    (b_in_wstrb),
    .s_axi_wlast    (b_in_wlast),
    .s_axi_wvalid   (b_in_wvalid),
    .s_axi_wready   (b_in_wready),
    .s_axi_bresp    (b_in_bresp),
    .s_axi_bvalid   (b_in_bvalid),
    .s_axi_bready   (b_in_bready),
    .dbg_sem_idx_i  (dbg_b_sem_idx_i),
    .dbg_sem_o      (dbg_b_sem_o),
    .dbg_mem_sel_i  (dbg_b_mem_sel_i),
    .dbg_mem_we_i   (dbg_b_mem_we_i),
    .dbg_mem_addr_i (dbg_b_mem_addr_i),
    .dbg_mem_wdata_i(dbg_b_mem_wdata_i),
    .dbg_mem_rdata_o(dbg_b_mem_rdata_o),
    .dbg_xbar_o     (dbg_b_xbar_o),
    .dbg_xin_o      (dbg_b_xin_o),
    .dbg_q7_o       (dbg_b_q7_o),
    .irq_o              (b_irq_o),
    .err_irq_o          (b_err_irq_o),
    .sem_err_o          (b_sem_err_o),
    .lk_dest_o          (b_lk_dest),
    .lk_dest_valid_o    (b_lk_dest_v)
  );

  // NumLk io_d2d link lanes per direction, each flow-controlled on its own
  // (its FIFOs are the credits); lane l of core A's link ports to lane l of core B's.
  for (genvar l = 0; l < NumLk; l++) begin : gen_lane
    io_d2d_link #(.Latency(LinkLatency), .DataBits(DataBits)) u_link_ab (
      .clk_i,
      .rst_ni,
      .stall_i      (ab_stall_i),
      .s_axi_awaddr (a_out_awaddr[l]),
      .s_axi_awlen  (a_out_awlen[l]),
      .s_axi_awvalid(a_out_awvalid[l]),
      .s_axi_awready(a_out_awready[l]),
      .s_axi_wdata  (a_out_wdata[l]),
      .s_axi_wstrb  (a_out_wstrb[l]),
      .s_axi_wlast  (a_out_wlast[l]),
      .s_axi_wvalid (a_out_wvalid[l]),
      .s_axi_wready (a_out_wready[l]),
      .s_axi_bresp  (a_out_bresp[l]),
      .s_axi_bvalid (a_out_bvalid[l]),
      .s_axi_bready (a_out_bready[l]),
      .m_axi_awaddr (b_in_awaddr[l]),
      .m_axi_awlen  (b_in_awlen[l]),
      .m_axi_awvalid(b_in_awvalid[l]),
      .m_axi_awready(b_in_awready[l]),
      .m_axi_wdata  (b_in_wdata[l]),
      .m_axi_wstrb  (b_in_wstrb[l]),
      .m_axi_wlast  (b_in_wlast[l]),
      .m_axi_wvalid (b_in_wvalid[l]),
      .m_axi_wready (b_in_wready[l]),
      .m_axi_bresp  (b_in_bresp[l]),
      .m_axi_bvalid (b_in_bvalid[l]),
      .m_axi_bready (b_in_bready[l]),
      .dbg_o        (ab_dbg[l])
    );

    io_d2d_link #(.Latency(LinkLatency), .DataBits(DataBits)) u_link_ba (
      .clk_i,
      .rst_ni,
      .stall_i      (ba_stall_i),
      .s_axi_awaddr (b_out_awaddr[l]),
      .s_axi_awlen  (b_out_awlen[l]),
      .s_axi_awvalid(b_out_awvalid[l]),
      .s_axi_awready(b_out_awready[l]),
      .s_axi_wdata  (b_out_wdata[l]),
      .s_axi_wstrb  (b_out_wstrb[l]),
      .s_axi_wlast  (b_out_wlast[l]),
      .s_axi_wvalid (b_out_wvalid[l]),
      .s_axi_wready (b_out_wready[l]),
      .s_axi_bresp  (b_out_bresp[l]),
      .s_axi_bvalid (b_out_bvalid[l]),
      .s_axi_bready (b_out_bready[l]),
      .m_axi_awaddr (a_in_awaddr[l]),
      .m_axi_awlen  (a_in_awlen[l]),
      .m_axi_awvalid(a_in_awvalid[l]),
      .m_axi_awready(a_in_awready[l]),
      .m_axi_wdata  (a_in_wdata[l]),
      .m_axi_wstrb  (a_in_wstrb[l]),
      .m_axi_wlast  (a_in_wlast[l]),
      .m_axi_wvalid (a_in_wvalid[l]),
      .m_axi_wready (a_in_wready[l]),
      .m_axi_bresp  (a_in_bresp[l]),
      .m_axi_bvalid (a_in_bvalid[l]),
      .m_axi_bready (a_in_bready[l]),
      .dbg_o        (ba_dbg[l])
    );
  end

  assign dbg_ab_link_o = ab_dbg[0];
  assign dbg_ba_link_o = ba_dbg[0];
  logic unused_lane_dbg;
  assign unused_lane_dbg = ^{ab_dbg, ba_dbg};

endmodule : sb2sb_pair
