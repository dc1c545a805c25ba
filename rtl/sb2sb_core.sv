// One NeuronCore of the SB2SB leg (docs/pair.md, ARCHITECTURE §10): NumEngines
// UDMA engines, each with its M2S stream looped into its own S2M stream (the
// CME-COPY memory-to-memory channel of seed 001 §8), one EVT_SEM, the SBUF
// and the descriptor RAM as AXI4 slaves, the interconnect that routes every
// burst by cayman_addr_decode, and the Q7 AXI4-Lite port. The SBUF is NumEngines
// banks of 128 / NumEngines partitions each (one axi4_sram per bank); the
// debug port addresses the SBUF as one array of 128 partitions in 64-bit
// lanes. Engines, interconnect, memories and link lanes are DataBits wide
// (one memory word per beat); the Q7 port's stores are narrow writes on that
// bus (byte strobes).
//
// Golden twin: model/src/pair/core.rs (same instances, same wiring).

module sb2sb_core
  import sb2sb_pkg::*;
#(
  parameter int unsigned NumEngines    = 4,
  parameter int unsigned SbufPartBytes = 256,
  parameter int unsigned SbufWinBase   = 32'h10_0000,
  parameter int unsigned DescBytes     = 16384,
  // io_d2d link lanes per direction (sb2sb_xbar: write lane e uses lane e mod NumLk)
  parameter int unsigned NumLk         = NumEngines,
  // data width of the engines, interconnect, memories and link lanes
  parameter int unsigned DataBits      = int'(ENGINE_DATA_BITS),
  localparam int unsigned BB        = DataBits / 8,
  // 64-bit lanes of a word (the debug port's unit)
  localparam int unsigned Lanes     = DataBits / 64,
  // EVT_SEM increment ports per side (32-bit lanes of a beat)
  localparam int unsigned IncL      = DataBits / 32,
  // write masters: the engines, then the Q7 memory port
  localparam int unsigned NumWm     = NumEngines + 1,
  localparam int unsigned SbufWords = 128 * SbufPartBytes / BB,
  localparam int unsigned DescWords = DescBytes / BB,
  // 64-bit lanes of the SBUF (the debug port's SBUF address space)
  localparam int unsigned SbufLanes = SbufWords * Lanes,
  // SBUF banks (sb2sb_xbar: bank = partition / (128 / NumBanks)), then the descriptor RAM
  localparam int unsigned NumBanks  = NumEngines,
  localparam int unsigned NumMem    = NumBanks + 1,
  localparam int unsigned BankWords = SbufWords / NumBanks
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // placement straps
  input  logic                  self_die_i,
  input  logic [5:0]            self_chip_i,
  input  logic [2:0]            core_idx_i,
  // memory backpressure (both memories)
  input  logic                  mem_stall_i,
  // Q7 AXI4-Lite slave
  input  logic [31:0]           s_axil_awaddr,
  input  logic                  s_axil_awvalid,
  output logic                  s_axil_awready,
  input  logic [31:0]           s_axil_wdata,
  input  logic [3:0]            s_axil_wstrb,
  input  logic                  s_axil_wvalid,
  output logic                  s_axil_wready,
  output logic [1:0]            s_axil_bresp,
  output logic                  s_axil_bvalid,
  input  logic                  s_axil_bready,
  input  logic [31:0]           s_axil_araddr,
  input  logic                  s_axil_arvalid,
  output logic                  s_axil_arready,
  output logic [31:0]           s_axil_rdata,
  output logic [1:0]            s_axil_rresp,
  output logic                  s_axil_rvalid,
  input  logic                  s_axil_rready,
  // towards the link lanes (AXI4 write masters)
  output logic [NumLk-1:0][63:0] m_axi_awaddr,
  output logic [NumLk-1:0][7:0]  m_axi_awlen,
  output logic [NumLk-1:0]       m_axi_awvalid,
  input  logic [NumLk-1:0]       m_axi_awready,
  output logic [NumLk-1:0][DataBits-1:0] m_axi_wdata,
  output logic [NumLk-1:0][BB-1:0]       m_axi_wstrb,
  output logic [NumLk-1:0]       m_axi_wlast,
  output logic [NumLk-1:0]       m_axi_wvalid,
  input  logic [NumLk-1:0]       m_axi_wready,
  input  logic [NumLk-1:0][1:0]  m_axi_bresp,
  input  logic [NumLk-1:0]       m_axi_bvalid,
  output logic [NumLk-1:0]       m_axi_bready,
  // from the link lanes (AXI4 write slaves)
  input  logic [NumLk-1:0][63:0] s_axi_awaddr,
  input  logic [NumLk-1:0][7:0]  s_axi_awlen,
  input  logic [NumLk-1:0]       s_axi_awvalid,
  output logic [NumLk-1:0]       s_axi_awready,
  input  logic [NumLk-1:0][DataBits-1:0] s_axi_wdata,
  input  logic [NumLk-1:0][BB-1:0]       s_axi_wstrb,
  input  logic [NumLk-1:0]       s_axi_wlast,
  input  logic [NumLk-1:0]       s_axi_wvalid,
  output logic [NumLk-1:0]       s_axi_wready,
  output logic [NumLk-1:0][1:0]  s_axi_bresp,
  output logic [NumLk-1:0]       s_axi_bvalid,
  input  logic [NumLk-1:0]       s_axi_bready,
  // debug
  input  logic [7:0]            dbg_sem_idx_i,
  output logic [31:0]           dbg_sem_o,
  input  logic                  dbg_mem_sel_i,
  input  logic                  dbg_mem_we_i,
  input  logic [19:0]           dbg_mem_addr_i,
  input  logic [63:0]           dbg_mem_wdata_i,
  output logic [63:0]           dbg_mem_rdata_o,
  output logic [31:0]           dbg_xbar_o,
  output logic [15:0]           dbg_xin_o,
  output logic [7:0]            dbg_q7_o,
  output logic [NumEngines-1:0] irq_o,
  output logic [NumEngines-1:0] err_irq_o,
  output logic [EVT_SEM_NUM_ERR-1:0] sem_err_o,
  // destination (SoC address bits [63:32]) of each outgoing link lane's
  // burst, for a SoC fabric that routes the lane (sb2sb_xbar link_dest_o)
  output logic [NumLk-1:0][31:0] lk_dest_o,
  output logic [NumLk-1:0]       lk_dest_valid_o
);

  localparam int unsigned NumT = NumEngines + 1;

  if (NumEngines < 1 || NumEngines > 16) begin : gen_eng_check
    $error("sb2sb_core: NumEngines must be 1..16");
  end
  // the debug port addresses 2^20 64-bit lanes of either memory
  if (SbufLanes > (1 << 20) || DescWords * Lanes > (1 << 20)) begin : gen_mem_check
    $error("sb2sb_core: SBUF and descriptor RAM must hold at most 2^20 64-bit lanes each");
  end
  if (2 * IncL > int'(EVT_SEM_NUM_INC)) begin : gen_inc_check
    $error("sb2sb_core: the EVT_SEM needs DataBits / 16 increment ports");
  end

  // ---- interconnect masters
  logic [NumWm-1:0][63:0]      wm_awaddr;
  logic [NumWm-1:0][DataBits-1:0] wm_wdata;
  logic [NumWm-1:0][7:0]       wm_awlen;
  logic [NumWm-1:0][BB-1:0]    wm_wstrb;
  logic [NumWm-1:0]            wm_awvalid, wm_awready, wm_wlast, wm_wvalid, wm_wready;
  logic [NumWm-1:0]            wm_bvalid, wm_bready;
  logic [NumWm-1:0][1:0]       wm_bresp;
  logic [NumEngines-1:0][63:0] rm_araddr;
  logic [NumEngines-1:0][7:0]  rm_arlen;
  logic [NumEngines-1:0]       rm_arvalid, rm_arready, rm_rvalid, rm_rready;
  logic [NumEngines-1:0][DataBits-1:0] rm_rdata;
  logic [NumEngines-1:0][1:0]  rm_rresp;
  logic [NumEngines-1:0]       rm_rlast;
  // ---- memory targets
  logic [NumMem-1:0][31:0] mem_awaddr, mem_araddr;
  logic [NumMem-1:0]       mem_awvalid, mem_awready, mem_wvalid, mem_wready, mem_bvalid;
  logic [NumMem-1:0]       mem_bready, mem_arvalid, mem_arready, mem_rlast, mem_rvalid;
  logic [NumMem-1:0]       mem_rready;
  logic [NumMem-1:0][1:0]  mem_bresp, mem_rresp;
  logic [NumMem-1:0][DataBits-1:0] mem_rdata, mem_wdata;
  logic [NumMem-1:0][63:0] mem_dbg_rdata;
  logic [NumMem-1:0][BB-1:0] mem_wstrb;
  logic [NumMem-1:0][7:0]  mem_arlen;
  logic [NumMem-1:0]       mem_wlast;
  // ---- CSR targets
  logic [UDMA_CSR_ADDR_WIDTH-1:0]           t_awaddr, t_araddr;
  logic [31:0]           t_wdata;
  logic [3:0]            t_wstrb;
  logic [NumT-1:0]       t_awvalid, t_awready, t_wvalid, t_wready, t_bvalid, t_bready;
  logic [NumT-1:0]       t_arvalid, t_arready, t_rvalid, t_rready;
  logic [NumT-1:0][1:0]  t_bresp, t_rresp;
  logic [NumT-1:0][31:0] t_rdata;
  // ---- EVT_SEM increments
  logic [2*IncL-1:0]       inc_valid;
  logic [2*IncL-1:0][7:0]  inc_idx;
  logic [2*IncL-1:0][31:0] inc_value;
  logic [EVT_SEM_NUM_INC-1:0]       sem_inc_valid;
  logic [EVT_SEM_NUM_INC-1:0][7:0]  sem_inc_idx;
  logic [EVT_SEM_NUM_INC-1:0][31:0] sem_inc_value;

  always_comb begin
    sem_inc_valid = '0;
    sem_inc_idx   = '0;
    sem_inc_value = '0;
    for (int unsigned l = 0; l < 2 * IncL; l++) begin
      sem_inc_valid[l] = inc_valid[l];
      sem_inc_idx[l]   = inc_idx[l];
      sem_inc_value[l] = inc_value[l];
    end
  end

  // ---- UDMA engines with their CME-COPY loops
  for (genvar e = 0; e < NumEngines; e++) begin : gen_eng
    logic [DataBits-1:0] m_tdata, s_tdata;
    logic [BB-1:0]       m_tkeep, s_tkeep;
    logic [3:0]  m_tid, s_tid;
    logic        m_tlast, m_tuser, m_tvalid, m_tready, s_tlast, s_tuser, s_tvalid, s_tready;
    logic [2:0]  arsize, awsize;
    logic [1:0]  arburst, awburst;
    logic [31:0] dbg;
    logic        unused_eng;

    udma_engine #(.DataWidth(DataBits), .MaxWrBurst(16)) u_udma (
      .clk_i,
      .rst_ni,
      .s_axil_awaddr (t_awaddr),
      .s_axil_awvalid(t_awvalid[e]),
      .s_axil_awready(t_awready[e]),
      .s_axil_wdata  (t_wdata),
      .s_axil_wstrb  (t_wstrb),
      .s_axil_wvalid (t_wvalid[e]),
      .s_axil_wready (t_wready[e]),
      .s_axil_bresp  (t_bresp[e]),
      .s_axil_bvalid (t_bvalid[e]),
      .s_axil_bready (t_bready[e]),
      .s_axil_araddr (t_araddr),
      .s_axil_arvalid(t_arvalid[e]),
      .s_axil_arready(t_arready[e]),
      .s_axil_rdata  (t_rdata[e]),
      .s_axil_rresp  (t_rresp[e]),
      .s_axil_rvalid (t_rvalid[e]),
      .s_axil_rready (t_rready[e]),
      .m_axi_araddr  (rm_araddr[e]),
      .m_axi_arlen   (rm_arlen[e]),
      .m_axi_arsize  (arsize),
      .m_axi_arburst (arburst),
      .m_axi_arvalid (rm_arvalid[e]),
      .m_axi_arready (rm_arready[e]),
      .m_axi_rdata   (rm_rdata[e]),
      .m_axi_rresp   (rm_rresp[e]),
      .m_axi_rlast   (rm_rlast[e]),
      .m_axi_rvalid  (rm_rvalid[e]),
      .m_axi_rready  (rm_rready[e]),
      .m_axi_awaddr  (wm_awaddr[e]),
      .m_axi_awlen   (wm_awlen[e]),
      .m_axi_awsize  (awsize),
      .m_axi_awburst (awburst),
      .m_axi_awvalid (wm_awvalid[e]),
      .m_axi_awready (wm_awready[e]),
      .m_axi_wdata   (wm_wdata[e]),
      .m_axi_wstrb   (wm_wstrb[e]),
      .m_axi_wlast   (wm_wlast[e]),
      .m_axi_wvalid  (wm_wvalid[e]),
      .m_axi_wready  (wm_wready[e]),
      .m_axi_bresp   (wm_bresp[e]),
      .m_axi_bvalid  (wm_bvalid[e]),
      .m_axi_bready  (wm_bready[e]),
      .m_axis_tdata  (m_tdata),
      .m_axis_tkeep  (m_tkeep),
      .m_axis_tlast  (m_tlast),
      .m_axis_tid    (m_tid),
      .m_axis_tuser  (m_tuser),
      .m_axis_tvalid (m_tvalid),
      .m_axis_tready (m_tready),
      .s_axis_tdata  (s_tdata),
      .s_axis_tkeep  (s_tkeep),
      .s_axis_tlast  (s_tlast),
      .s_axis_tid    (s_tid),
      .s_axis_tuser  (s_tuser),
      .s_axis_tvalid (s_tvalid),
      .s_axis_tready (s_tready),
      .irq_o         (irq_o[e]),
      .err_irq_o     (err_irq_o[e]),
      .dbg_o         (dbg)
    );

    axis_loop_fifo #(.DataBits(DataBits)) u_loop (
      .clk_i,
      .rst_ni,
      .s_axis_tdata (m_tdata),
      .s_axis_tkeep (m_tkeep),
      .s_axis_tlast (m_tlast),
      .s_axis_tid   (m_tid),
      .s_axis_tuser (m_tuser),
      .s_axis_tvalid(m_tvalid),
      .s_axis_tready(m_tready),
      .m_axis_tdata (s_tdata),
      .m_axis_tkeep (s_tkeep),
      .m_axis_tlast (s_tlast),
      .m_axis_tid   (s_tid),
      .m_axis_tuser (s_tuser),
      .m_axis_tvalid(s_tvalid),
      .m_axis_tready(s_tready)
    );

    // INCR bursts of full-width beats by construction; the debug word is
    // compared in the block-level lockstep of udma_engine.
    assign unused_eng = ^{arsize, awsize, arburst, awburst, dbg};
  end

  // ---- Q7 memory-store master (single-beat bursts)
  assign wm_awlen[NumEngines] = 8'd0;
  assign wm_wlast[NumEngines] = 1'b1;

  sb2sb_q7_port #(.NumEngines(NumEngines), .DataBits(DataBits)) u_q7 (
    .clk_i,
    .rst_ni,
    .self_die_i,
    .core_idx_i,
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
    .t_awaddr_o   (t_awaddr),
    .t_awvalid_o  (t_awvalid),
    .t_awready_i  (t_awready),
    .t_wdata_o    (t_wdata),
    .t_wstrb_o    (t_wstrb),
    .t_wvalid_o   (t_wvalid),
    .t_wready_i   (t_wready),
    .t_bresp_i    (t_bresp),
    .t_bvalid_i   (t_bvalid),
    .t_bready_o   (t_bready),
    .t_araddr_o   (t_araddr),
    .t_arvalid_o  (t_arvalid),
    .t_arready_i  (t_arready),
    .t_rdata_i    (t_rdata),
    .t_rresp_i    (t_rresp),
    .t_rvalid_i   (t_rvalid),
    .t_rready_o   (t_rready),
    .m_axi_awaddr (wm_awaddr[NumEngines]),
    .m_axi_awvalid(wm_awvalid[NumEngines]),
    .m_axi_awready(wm_awready[NumEngines]),
    .m_axi_wdata  (wm_wdata[NumEngines]),
    .m_axi_wstrb  (wm_wstrb[NumEngines]),
    .m_axi_wvalid (wm_wvalid[NumEngines]),
    .m_axi_wready (wm_wready[NumEngines]),
    .m_axi_bresp  (wm_bresp[NumEngines]),
    .m_axi_bvalid (wm_bvalid[NumEngines]),
    .m_axi_bready (wm_bready[NumEngines]),
    .dbg_o        (dbg_q7_o)
  );

  // ---- EVT_SEM
  logic [EVT_SEM_NUM_WAIT-1:0] wait_done;
  logic [EVT_SEM_NUM_ERR-1:0]  err_pulse;
  logic [EVT_SEM_NUM_EVT-1:0]  evt;
  logic                        unused_sem;

  evt_sem u_evt_sem (
    .clk_i,
    .rst_ni,
    .s_axil_awaddr (t_awaddr[EVT_SEM_ADDR_W-1:0]),
    .s_axil_awprot (3'd0),
    .s_axil_awvalid(t_awvalid[NumEngines]),
    .s_axil_awready(t_awready[NumEngines]),
    .s_axil_wdata  (t_wdata),
    .s_axil_wstrb  (t_wstrb),
    .s_axil_wvalid (t_wvalid[NumEngines]),
    .s_axil_wready (t_wready[NumEngines]),
    .s_axil_bresp  (t_bresp[NumEngines]),
    .s_axil_bvalid (t_bvalid[NumEngines]),
    .s_axil_bready (t_bready[NumEngines]),
    .s_axil_araddr (t_araddr[EVT_SEM_ADDR_W-1:0]),
    .s_axil_arprot (3'd0),
    .s_axil_arvalid(t_arvalid[NumEngines]),
    .s_axil_arready(t_arready[NumEngines]),
    .s_axil_rdata  (t_rdata[NumEngines]),
    .s_axil_rresp  (t_rresp[NumEngines]),
    .s_axil_rvalid (t_rvalid[NumEngines]),
    .s_axil_rready (t_rready[NumEngines]),
    .inc_valid_i   (sem_inc_valid),
    .inc_idx_i     (sem_inc_idx),
    .inc_value_i   (sem_inc_value),
    .wait_valid_i  ('0),
    .wait_mode_i   ('0),
    .wait_idx_i    ('0),
    .wait_value_i  ('0),
    .wait_done_o   (wait_done),
    .err_pulse_o   (err_pulse),
    .err_status_o  (sem_err_o),
    .evt_o         (evt),
    .dbg_idx_i     (dbg_sem_idx_i),
    .dbg_sem_o
  );
  // The wait ports serve the TPB sequencer, not this leg; events are CSR-visible.
  localparam int unsigned SemAw = int'(EVT_SEM_ADDR_W);
  assign unused_sem = ^{wait_done, err_pulse, evt, t_awaddr[17:SemAw], t_araddr[17:SemAw]};

  // ---- interconnect
  sb2sb_xbar #(
    .NumEngines   (NumEngines),
    .SbufPartBytes(SbufPartBytes),
    .SbufWinBase  (SbufWinBase),
    .DescBytes    (DescBytes),
    .NumLk        (NumLk),
    .DataBits     (DataBits)
  ) u_xbar (
    .clk_i,
    .rst_ni,
    .self_die_i,
    .self_chip_i,
    .core_idx_i,
    .wm_awaddr_i   (wm_awaddr),
    .wm_awlen_i    (wm_awlen),
    .wm_awvalid_i  (wm_awvalid),
    .wm_awready_o  (wm_awready),
    .wm_wdata_i    (wm_wdata),
    .wm_wstrb_i    (wm_wstrb),
    .wm_wlast_i    (wm_wlast),
    .wm_wvalid_i   (wm_wvalid),
    .wm_wready_o   (wm_wready),
    .wm_bresp_o    (wm_bresp),
    .wm_bvalid_o   (wm_bvalid),
    .wm_bready_i   (wm_bready),
    .lin_awaddr_i  (s_axi_awaddr),
    .lin_awlen_i   (s_axi_awlen),
    .lin_awvalid_i (s_axi_awvalid),
    .lin_awready_o (s_axi_awready),
    .lin_wdata_i   (s_axi_wdata),
    .lin_wstrb_i   (s_axi_wstrb),
    .lin_wlast_i   (s_axi_wlast),
    .lin_wvalid_i  (s_axi_wvalid),
    .lin_wready_o  (s_axi_wready),
    .lin_bresp_o   (s_axi_bresp),
    .lin_bvalid_o  (s_axi_bvalid),
    .lin_bready_i  (s_axi_bready),
    .rm_araddr_i   (rm_araddr),
    .rm_arlen_i    (rm_arlen),
    .rm_arvalid_i  (rm_arvalid),
    .rm_arready_o  (rm_arready),
    .rm_rdata_o    (rm_rdata),
    .rm_rresp_o    (rm_rresp),
    .rm_rlast_o    (rm_rlast),
    .rm_rvalid_o   (rm_rvalid),
    .rm_rready_i   (rm_rready),
    .mem_awaddr_o  (mem_awaddr),
    .mem_awvalid_o (mem_awvalid),
    .mem_awready_i (mem_awready),
    .mem_wdata_o   (mem_wdata),
    .mem_wstrb_o   (mem_wstrb),
    .mem_wlast_o   (mem_wlast),
    .mem_wvalid_o  (mem_wvalid),
    .mem_wready_i  (mem_wready),
    .mem_bresp_i   (mem_bresp),
    .mem_bvalid_i  (mem_bvalid),
    .mem_bready_o  (mem_bready),
    .mem_araddr_o  (mem_araddr),
    .mem_arlen_o   (mem_arlen),
    .mem_arvalid_o (mem_arvalid),
    .mem_arready_i (mem_arready),
    .mem_rdata_i   (mem_rdata),
    .mem_rresp_i   (mem_rresp),
    .mem_rlast_i   (mem_rlast),
    .mem_rvalid_i  (mem_rvalid),
    .mem_rready_o  (mem_rready),
    .link_awaddr_o (m_axi_awaddr),
    .link_awlen_o  (m_axi_awlen),
    .link_awvalid_o(m_axi_awvalid),
    .link_awready_i(m_axi_awready),
    .link_wdata_o  (m_axi_wdata),
    .link_wstrb_o  (m_axi_wstrb),
    .link_wlast_o  (m_axi_wlast),
    .link_wvalid_o (m_axi_wvalid),
    .link_wready_i (m_axi_wready),
    .link_bresp_i  (m_axi_bresp),
    .link_bvalid_i (m_axi_bvalid),
    .link_bready_o (m_axi_bready),
    .inc_valid_o   (inc_valid),
    .inc_idx_o     (inc_idx),
    .inc_value_o   (inc_value),
    .dbg_o         (dbg_xbar_o),
    .dbg_in_o      (dbg_xin_o),
    .link_dest_o      (lk_dest_o),
    .link_dest_valid_o(lk_dest_valid_o)
  );

  // ---- memories: SBUF banks 0..NumBanks-1, descriptor RAM NumBanks. The
  // debug port's SBUF lane address w (SBUF as one array of 64-bit lanes,
  // 2^SAW of them) is lane w % BankLanes of bank w / BankLanes (none past
  // the last bank).
  localparam int unsigned SAW       = $clog2(SbufLanes);
  localparam int unsigned BankLanes = BankWords * Lanes;
  logic [31:0]       dbg_sword, dbg_bank, dbg_bword;
  logic [NumMem-1:0] dbg_we;
  assign dbg_sword = 32'(dbg_mem_addr_i[SAW-1:0]);
  assign dbg_bank  = dbg_sword / BankLanes;
  assign dbg_bword = dbg_sword % BankLanes;
  always_comb begin
    dbg_we = '0;
    if (dbg_mem_sel_i) begin
      dbg_we[NumBanks] = dbg_mem_we_i;
    end else if (dbg_bank < NumBanks) begin
      dbg_we[dbg_bank] = dbg_mem_we_i;
    end
  end

  for (genvar k = 0; k < NumMem; k++) begin : gen_mem
    localparam int unsigned Words = (k < NumBanks) ? BankWords : DescWords;
    // the debug port's lane address: word address and lane
    localparam int unsigned AW = $clog2(Words) + $clog2(Lanes);
    axi4_sram #(.Words(Words), .DataBits(DataBits)) u_mem (
      .clk_i,
      .rst_ni,
      .stall_i      (mem_stall_i),
      .s_axi_awaddr (mem_awaddr[k]),
      .s_axi_awvalid(mem_awvalid[k]),
      .s_axi_awready(mem_awready[k]),
      .s_axi_wdata  (mem_wdata[k]),
      .s_axi_wstrb  (mem_wstrb[k]),
      .s_axi_wlast  (mem_wlast[k]),
      .s_axi_wvalid (mem_wvalid[k]),
      .s_axi_wready (mem_wready[k]),
      .s_axi_bresp  (mem_bresp[k]),
      .s_axi_bvalid (mem_bvalid[k]),
      .s_axi_bready (mem_bready[k]),
      .s_axi_araddr (mem_araddr[k]),
      .s_axi_arlen  (mem_arlen[k]),
      .s_axi_arvalid(mem_arvalid[k]),
      .s_axi_arready(mem_arready[k]),
      .s_axi_rdata  (mem_rdata[k]),
      .s_axi_rresp  (mem_rresp[k]),
      .s_axi_rlast  (mem_rlast[k]),
      .s_axi_rvalid (mem_rvalid[k]),
      .s_axi_rready (mem_rready[k]),
      .dbg_we_i     (dbg_we[k]),
      .dbg_addr_i   ((k < NumBanks) ? dbg_bword[AW-1:0] : dbg_mem_addr_i[AW-1:0]),
      .dbg_wdata_i  (dbg_mem_wdata_i),
      .dbg_rdata_o  (mem_dbg_rdata[k])
    );
  end
  // The read data of the memory selected in the previous cycle (the one
  // whose registered debug read was issued then); 0 past the last bank.
  localparam int unsigned MW = $clog2(NumMem);
  logic          dbg_sel_q, dbg_bank_ok_q;
  logic [MW-1:0] dbg_bank_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      dbg_sel_q     <= 1'b0;
      dbg_bank_q    <= '0;
      dbg_bank_ok_q <= 1'b0;
    end else begin
      dbg_sel_q     <= dbg_mem_sel_i;
      dbg_bank_q    <= MW'(dbg_bank);
      dbg_bank_ok_q <= dbg_bank < NumBanks;
    end
  end
  always_comb begin
    dbg_mem_rdata_o = '0;
    if (dbg_sel_q) begin
      dbg_mem_rdata_o = mem_dbg_rdata[NumBanks];
    end else if (dbg_bank_ok_q) begin
      dbg_mem_rdata_o = mem_dbg_rdata[dbg_bank_q];
    end
  end
  // the debug address is 20 bits whatever the memory sizes
  logic unused_dbg_addr;
  assign unused_dbg_addr = ^{dbg_mem_addr_i, dbg_sword, dbg_bword, dbg_bank};

endmodule : sb2sb_core
