// A multi-core NeuronCore system (docs/system-rtl.md): NumCores sb2sb_core
// instances joined by the SoC fabric sb2sb_fabric (io_d2d links per directed
// core pair and lane, latency by link class, per in-lane round-robin grant),
// each core with its own Q7 AXI4-Lite port and debug port. Placement by
// parameter: CoresPerDie cores per die, two dies per package, so the default
// 4 cores x CoresPerDie 2 is one package of two dies, CoresPerDie 1 two
// packages (sb2sb_fabric gives every core its straps).
//
// Per-core ports are packed arrays indexed by core.
//
// Golden twin: model/src/pair/system.rs.

module sb2sb_system #(
  parameter int unsigned NumCores      = 4,
  parameter int unsigned CoresPerDie   = 2,
  parameter int unsigned NumEngines    = 2,
  parameter int unsigned SbufPartBytes = 256,
  parameter int unsigned SbufWinBase   = 32'h10_0000,
  parameter int unsigned DescBytes     = 16384,
  parameter int unsigned LinkLatency   = 8,
  parameter int unsigned DataBits      = int'(sb2sb_pkg::ENGINE_DATA_BITS),
  // io_d2d link lanes per direction and core pair
  parameter int unsigned NumLk         = NumEngines
) (
  input  logic                                clk_i,
  input  logic                                rst_ni,
  // memory backpressure per core, link backpressure per sending core
  input  logic [NumCores-1:0]                 mem_stall_i,
  input  logic [NumCores-1:0]                 link_stall_i,
  // Q7 AXI4-Lite ports
  input  logic [NumCores-1:0][31:0]           s_axil_awaddr,
  input  logic [NumCores-1:0]                 s_axil_awvalid,
  input  logic [NumCores-1:0][31:0]           s_axil_wdata,
  input  logic [NumCores-1:0][3:0]            s_axil_wstrb,
  input  logic [NumCores-1:0]                 s_axil_wvalid,
  input  logic [NumCores-1:0]                 s_axil_bready,
  input  logic [NumCores-1:0][31:0]           s_axil_araddr,
  input  logic [NumCores-1:0]                 s_axil_arvalid,
  input  logic [NumCores-1:0]                 s_axil_rready,
  output logic [NumCores-1:0]                 s_axil_awready,
  output logic [NumCores-1:0]                 s_axil_wready,
  output logic [NumCores-1:0][1:0]            s_axil_bresp,
  output logic [NumCores-1:0]                 s_axil_bvalid,
  output logic [NumCores-1:0]                 s_axil_arready,
  output logic [NumCores-1:0][31:0]           s_axil_rdata,
  output logic [NumCores-1:0][1:0]            s_axil_rresp,
  output logic [NumCores-1:0]                 s_axil_rvalid,
  // debug ports
  input  logic [NumCores-1:0][7:0]            dbg_sem_idx_i,
  output logic [NumCores-1:0][31:0]           dbg_sem_o,
  input  logic [NumCores-1:0]                 dbg_mem_sel_i,
  input  logic [NumCores-1:0]                 dbg_mem_we_i,
  input  logic [NumCores-1:0][19:0]           dbg_mem_addr_i,
  input  logic [NumCores-1:0][63:0]           dbg_mem_wdata_i,
  output logic [NumCores-1:0][63:0]           dbg_mem_rdata_o,
  output logic [NumCores-1:0][31:0]           dbg_xbar_o,
  output logic [NumCores-1:0][15:0]           dbg_xin_o,
  output logic [NumCores-1:0][7:0]            dbg_q7_o,
  output logic [NumCores-1:0][NumEngines-1:0] irq_o,
  output logic [NumCores-1:0][NumEngines-1:0] err_irq_o,
  output logic [NumCores-1:0][4:0]            sem_err_o,
  // fabric: route errors per sending core, grant state per receiving core
  output logic [NumCores-1:0]                 route_err_o,
  output logic [NumCores-1:0][7:0]            dbg_fabric_o
);

  localparam int unsigned StrbBits = DataBits / 8;

  logic [NumCores-1:0]                          die;
  logic [NumCores-1:0][5:0]                     chip;
  logic [NumCores-1:0][2:0]                     idx;
  logic [NumCores-1:0][NumLk-1:0][31:0]         dest;
  logic [NumCores-1:0][NumLk-1:0]               dest_v;
  logic [NumCores-1:0][NumLk-1:0][63:0]         o_awaddr, i_awaddr;
  logic [NumCores-1:0][NumLk-1:0][7:0]          o_awlen, i_awlen;
  logic [NumCores-1:0][NumLk-1:0][DataBits-1:0] o_wdata, i_wdata;
  logic [NumCores-1:0][NumLk-1:0][StrbBits-1:0] o_wstrb, i_wstrb;
  logic [NumCores-1:0][NumLk-1:0][1:0]          o_bresp, i_bresp;
  logic [NumCores-1:0][NumLk-1:0]               o_awvalid, o_awready, o_wlast, o_wvalid, o_wready;
  logic [NumCores-1:0][NumLk-1:0]               o_bvalid, o_bready;
  logic [NumCores-1:0][NumLk-1:0]               i_awvalid, i_awready, i_wlast, i_wvalid, i_wready;
  logic [NumCores-1:0][NumLk-1:0]               i_bvalid, i_bready;

  for (genvar c = 0; c < NumCores; c++) begin : gen_core
    sb2sb_core #(
      .NumEngines   (NumEngines),
      .SbufPartBytes(SbufPartBytes),
      .SbufWinBase  (SbufWinBase),
      .DescBytes    (DescBytes),
      .NumLk        (NumLk),
      .DataBits     (DataBits)
    ) u_core (
      .clk_i,
      .rst_ni,
      .self_die_i     (die[c]),
      .self_chip_i    (chip[c]),
      .core_idx_i     (idx[c]),
      .mem_stall_i    (mem_stall_i[c]),
      .s_axil_awaddr   (s_axil_awaddr[c]),
      .s_axil_awvalid  (s_axil_awvalid[c]),
      .s_axil_wdata    (s_axil_wdata[c]),
      .s_axil_wstrb    (s_axil_wstrb[c]),
      .s_axil_wvalid   (s_axil_wvalid[c]),
      .s_axil_bready   (s_axil_bready[c]),
      .s_axil_araddr   (s_axil_araddr[c]),
      .s_axil_arvalid  (s_axil_arvalid[c]),
      .s_axil_rready   (s_axil_rready[c]),
      .s_axil_awready  (s_axil_awready[c]),
      .s_axil_wready   (s_axil_wready[c]),
      .s_axil_bresp    (s_axil_bresp[c]),
      .s_axil_bvalid   (s_axil_bvalid[c]),
      .s_axil_arready  (s_axil_arready[c]),
      .s_axil_rdata    (s_axil_rdata[c]),
      .s_axil_rresp    (s_axil_rresp[c]),
      .s_axil_rvalid   (s_axil_rvalid[c]),
      .m_axi_awaddr   (o_awaddr[c]),
      .m_axi_awlen    (o_awlen[c]),
      .m_axi_awvalid  (o_awvalid[c]),
      .m_axi_awready  (o_awready[c]),
      .m_axi_wdata    (o_wdata[c]),
      .m_axi_wstrb    (o_wstrb[c]),
      .m_axi_wlast    (o_wlast[c]),
      .m_axi_wvalid   (o_wvalid[c]),
      .m_axi_wready   (o_wready[c]),
      .m_axi_bresp    (o_bresp[c]),
      .m_axi_bvalid   (o_bvalid[c]),
      .m_axi_bready   (o_bready[c]),
      .s_axi_awaddr   (i_awaddr[c]),
      .s_axi_awlen    (i_awlen[c]),
      .s_axi_awvalid  (i_awvalid[c]),
      .s_axi_awready  (i_awready[c]),
      .s_axi_wdata    (i_wdata[c]),
      .s_axi_wstrb    (i_wstrb[c]),
      .s_axi_wlast    (i_wlast[c]),
      .s_axi_wvalid   (i_wvalid[c]),
      .s_axi_wready   (i_wready[c]),
      .s_axi_bresp    (i_bresp[c]),
      .s_axi_bvalid   (i_bvalid[c]),
      .s_axi_bready   (i_bready[c]),
      .dbg_sem_idx_i  (dbg_sem_idx_i[c]),
      .dbg_sem_o      (dbg_sem_o[c]),
      .dbg_mem_sel_i  (dbg_mem_sel_i[c]),
      .dbg_mem_we_i   (dbg_mem_we_i[c]),
      .dbg_mem_addr_i (dbg_mem_addr_i[c]),
      .dbg_mem_wdata_i(dbg_mem_wdata_i[c]),
      .dbg_mem_rdata_o(dbg_mem_rdata_o[c]),
      .dbg_xbar_o     (dbg_xbar_o[c]),
      .dbg_xin_o      (dbg_xin_o[c]),
      .dbg_q7_o       (dbg_q7_o[c]),
      .irq_o          (irq_o[c]),
      .err_irq_o      (err_irq_o[c]),
      .sem_err_o      (sem_err_o[c]),
      .lk_dest_o      (dest[c]),
      .lk_dest_valid_o(dest_v[c])
    );
  end

  sb2sb_fabric #(
    .NumCores   (NumCores),
    .CoresPerDie(CoresPerDie),
    .NumLk      (NumLk),
    .DataBits   (DataBits),
    .LinkLatency(LinkLatency)
  ) u_fabric (
    .clk_i,
    .rst_ni,
    .stall_i     (link_stall_i),
    .core_die_o  (die),
    .core_chip_o (chip),
    .core_idx_o  (idx),
    .dest_i      (dest),
    .dest_valid_i(dest_v),
    .o_awaddr_i   (o_awaddr),
    .o_awlen_i    (o_awlen),
    .o_awvalid_i  (o_awvalid),
    .o_awready_o  (o_awready),
    .o_wdata_i    (o_wdata),
    .o_wstrb_i    (o_wstrb),
    .o_wlast_i    (o_wlast),
    .o_wvalid_i   (o_wvalid),
    .o_wready_o   (o_wready),
    .o_bresp_o    (o_bresp),
    .o_bvalid_o   (o_bvalid),
    .o_bready_i   (o_bready),
    .i_awaddr_o   (i_awaddr),
    .i_awlen_o    (i_awlen),
    .i_awvalid_o  (i_awvalid),
    .i_awready_i  (i_awready),
    .i_wdata_o    (i_wdata),
    .i_wstrb_o    (i_wstrb),
    .i_wlast_o    (i_wlast),
    .i_wvalid_o   (i_wvalid),
    .i_wready_i   (i_wready),
    .i_bresp_i    (i_bresp),
    .i_bvalid_i   (i_bvalid),
    .i_bready_o   (i_bready),
    .route_err_o (route_err_o),
    .dbg_o       (dbg_fabric_o)
  );

endmodule : sb2sb_system
