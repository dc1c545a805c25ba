// The Q7 side of a NeuronCore: one AXI4-Lite slave (the testbench plays the
// Q7 firmware through it) demultiplexed onto the UDMA engines' and the
// EVT_SEM's CSR ports, plus a single-beat AXI4 write master into the core's
// interconnect for memory stores (descriptor rings, constants): a 32-bit
// narrow write on the DataBits-wide bus, its word copied onto every 32-bit
// lane and strobed on the lane of its address. One access at
// a time; write and read are offered on alternate idle cycles.
//
// Core address map (sb2sb_pkg CORE_*, generated from model/src/system/map.rs):
//   CORE_EVT_SEM_BASE .. +CORE_EVT_SEM_BYTES   EVT_SEM window (target NumEngines)
//   CORE_UDMA_BASE + e << UDMA_CSR_ADDR_WIDTH  UDMA engine e CSRs
//   CORE_BCAST_BASE .. +CORE_BCAST_BYTES
//                                       broadcast doorbell (seed 001 §4.4): per
//                                       queue q and side a MASK register (RW,
//                                       one bit per engine) and a TAIL_INC
//                                       trigger (WO) that writes wdata into the
//                                       RTP_INC doorbell of queue q of every
//                                       engine of the mask, lowest engine first;
//                                       the response is the first non-OKAY one
//   0 .. CORE_SBUF_WINDOW_BYTES - 1,
//   CORE_DESC_BASE .. +CORE_DESC_BYTES  memory: a store through the interconnect
//                                       (reads answer SLVERR)
//   anything else                       SLVERR
//
// Every output depends on registered state only (golden twin:
// model/src/pair/q7port.rs).

module sb2sb_q7_port
  import sb2sb_pkg::*;
#(
  parameter int unsigned NumEngines = 4,
  parameter int unsigned DataBits   = int'(ENGINE_DATA_BITS),
  localparam int unsigned NumT = NumEngines + 1,
  // 32-bit lanes of the memory master's data bus
  localparam int unsigned NumL32 = DataBits / 32,
  localparam int unsigned BB     = DataBits / 8,
  localparam int unsigned TW   = $clog2(NumT + 3),
  localparam int unsigned TIW  = $clog2(NumT)
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  self_die_i,
  input  logic [2:0]            core_idx_i,
  // AXI4-Lite slave (the Q7)
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
  // CSR targets: UDMA engines 0..NumEngines-1, EVT_SEM (NumEngines)
  output logic [UDMA_CSR_ADDR_WIDTH-1:0]           t_awaddr_o,
  output logic [NumT-1:0]       t_awvalid_o,
  input  logic [NumT-1:0]       t_awready_i,
  output logic [31:0]           t_wdata_o,
  output logic [3:0]            t_wstrb_o,
  output logic [NumT-1:0]       t_wvalid_o,
  input  logic [NumT-1:0]       t_wready_i,
  input  logic [NumT-1:0][1:0]  t_bresp_i,
  input  logic [NumT-1:0]       t_bvalid_i,
  output logic [NumT-1:0]       t_bready_o,
  output logic [UDMA_CSR_ADDR_WIDTH-1:0]           t_araddr_o,
  output logic [NumT-1:0]       t_arvalid_o,
  input  logic [NumT-1:0]       t_arready_i,
  input  logic [NumT-1:0][31:0] t_rdata_i,
  input  logic [NumT-1:0][1:0]  t_rresp_i,
  input  logic [NumT-1:0]       t_rvalid_i,
  output logic [NumT-1:0]       t_rready_o,
  // memory store master (single beat, into the interconnect)
  output logic [63:0]           m_axi_awaddr,
  output logic                  m_axi_awvalid,
  input  logic                  m_axi_awready,
  output logic [DataBits-1:0]   m_axi_wdata,
  output logic [BB-1:0]         m_axi_wstrb,
  output logic                  m_axi_wvalid,
  input  logic                  m_axi_wready,
  input  logic [1:0]            m_axi_bresp,
  input  logic                  m_axi_bvalid,
  output logic                  m_axi_bready,
  // debug: [3:0] state, [4+TW-1:4] target
  output logic [7:0]            dbg_o
);

  typedef enum logic [3:0] {
    QIdle   = 4'd0,
    QWaitW  = 4'd1,
    QWaitAw = 4'd2,
    QWFwd   = 4'd3,
    QWResp  = 4'd4,
    QBack   = 4'd5,
    QRFwd   = 4'd6,
    QRResp  = 4'd7,
    QRBack  = 4'd8,
    QBcFwd  = 4'd9,
    QBcResp = 4'd10
  } qst_e;

  localparam logic [TW-1:0] TMem = TW'(NumT);
  localparam logic [TW-1:0] TErr = TW'(NumT + 1);
  localparam logic [TW-1:0] TBc  = TW'(NumT + 2);
  localparam int unsigned NQ = UDMA_NUM_QUEUES;

  qst_e        st_q, st_d;
  logic        pref_q, pref_d;
  logic [31:0] addr_q, addr_d, data_q, data_d;
  logic [3:0]  strb_q, strb_d;
  logic        awp_q, awp_d, wp_q, wp_d;
  logic [1:0]  resp_q, resp_d;
  logic [TW-1:0] tgt;
  logic [TIW-1:0] tix;
  // broadcast doorbell: masks per (queue, side), engines still to ring
  logic [NQ-1:0][1:0][NumEngines-1:0] bmask_q, bmask_d;
  logic [NumEngines-1:0] bpend_q, bpend_d;
  logic [7:0]            boff;
  logic [3:0]            bq;
  logic                  bside, btrig, bok;
  logic [31:0]           breg;
  logic [TIW-1:0]        be;
  logic [UDMA_CSR_ADDR_WIDTH-1:0] bc_addr;

  assign tix = tgt[TIW-1:0];

  // Broadcast block decode and the engine rung next (lowest pending bit).
  assign boff    = 8'(addr_q - CORE_BCAST_BASE);
  assign bq      = 4'(32'(boff) / BCAST_Q_STRIDE);
  assign bside   = (32'(boff) & BCAST_SIDE_STRIDE) != '0;
  assign breg    = 32'(boff) % BCAST_SIDE_STRIDE;
  assign btrig   = breg == BCAST_TAIL_INC;
  assign bok     = breg == BCAST_MASK || breg == BCAST_TAIL_INC;
  assign bc_addr = UDMA_CSR_ADDR_WIDTH'(udma_q_addr(bside, bq, UDMA_Q_RTP_INC));
  always_comb begin
    be = '0;
    for (int unsigned k = NumEngines; k > 0; k--) begin
      if (bpend_q[k-1]) be = TIW'(k - 1);
    end
  end

  // Target of the captured address.
  always_comb begin
    tgt = TErr;
    if (addr_q >= CORE_EVT_SEM_BASE && addr_q < CORE_EVT_SEM_BASE + CORE_EVT_SEM_BYTES) begin
      tgt = TW'(NumEngines);
    end else if (addr_q >= CORE_UDMA_BASE &&
                 addr_q < CORE_UDMA_BASE + (32'(NumEngines) << UDMA_CSR_ADDR_WIDTH)) begin
      tgt = TW'((addr_q - CORE_UDMA_BASE) >> UDMA_CSR_ADDR_WIDTH);
    end else if (addr_q >= CORE_BCAST_BASE && addr_q < CORE_BCAST_BASE + CORE_BCAST_BYTES) begin
      tgt = TBc;
    end else if (addr_q < CORE_SBUF_WINDOW_BYTES ||
                 (addr_q >= CORE_DESC_BASE && addr_q < CORE_DESC_BASE + CORE_DESC_BYTES)) begin
      tgt = TMem;
    end
  end

  assign s_axil_awready = (st_q == QIdle && !pref_q) || st_q == QWaitAw;
  assign s_axil_wready  = (st_q == QIdle && !pref_q) || st_q == QWaitW;
  assign s_axil_arready = st_q == QIdle && pref_q;
  assign s_axil_bvalid  = st_q == QBack;
  assign s_axil_bresp   = resp_q;
  assign s_axil_rvalid  = st_q == QRBack;
  assign s_axil_rdata   = data_q;
  assign s_axil_rresp   = resp_q;

  assign t_awaddr_o   = tgt == TBc ? bc_addr : addr_q[UDMA_CSR_ADDR_WIDTH-1:0];
  assign t_araddr_o   = addr_q[UDMA_CSR_ADDR_WIDTH-1:0];
  assign t_wdata_o    = data_q;
  assign t_wstrb_o    = strb_q;
  assign m_axi_awaddr = {16'h0, self_die_i, 12'h0, core_idx_i, addr_q};
  assign m_axi_wdata  = {NumL32{data_q}};
  assign m_axi_wstrb  = BB'(strb_q) << (4 * addr_q[$clog2(BB)-1:2]);
  assign dbg_o        = 8'({tgt, st_q});

  always_comb begin
    t_awvalid_o   = '0;
    t_wvalid_o    = '0;
    t_bready_o    = '0;
    t_arvalid_o   = '0;
    t_rready_o    = '0;
    m_axi_awvalid = 1'b0;
    m_axi_wvalid  = 1'b0;
    m_axi_bready  = 1'b0;
    if (tgt < TW'(NumT)) begin
      t_awvalid_o[tix] = st_q == QWFwd && awp_q;
      t_wvalid_o[tix]  = st_q == QWFwd && wp_q;
      t_bready_o[tix]  = st_q == QWResp;
      t_arvalid_o[tix] = st_q == QRFwd;
      t_rready_o[tix]  = st_q == QRResp;
    end else if (tgt == TMem) begin
      m_axi_awvalid = st_q == QWFwd && awp_q;
      m_axi_wvalid  = st_q == QWFwd && wp_q;
      m_axi_bready  = st_q == QWResp;
    end else if (tgt == TBc) begin
      t_awvalid_o[be] = st_q == QBcFwd && awp_q;
      t_wvalid_o[be]  = st_q == QBcFwd && wp_q;
      t_bready_o[be]  = st_q == QBcResp;
    end
  end

  // Next state, one process per phase of an access (golden: Q7Port::update and its
  // stages): each computes the whole next state for its states from the current one;
  // p_next takes the one of the current state's phase.
  typedef struct packed {
    qst_e                               st;
    logic                               pref;
    logic [31:0]                        addr;
    logic [31:0]                        data;
    logic [3:0]                         strb;
    logic                               awp;
    logic                               wp;
    logic [1:0]                         resp;
    logic [NQ-1:0][1:0][NumEngines-1:0] bmask;
    logic [NumEngines-1:0]              bpend;
  } q7_regs_t;

  q7_regs_t cur, nx_req, nx_wr, nx_bc, nx_rd;

  assign cur = '{st: st_q, pref: pref_q, addr: addr_q, data: data_q, strb: strb_q,
                 awp: awp_q, wp: wp_q, resp: resp_q, bmask: bmask_q, bpend: bpend_q};

  // Request (golden: accept): QIdle offers the write and the read channels on alternate
  // cycles and captures AW and W (or AR); QWaitW / QWaitAw wait for the other half.
  always_comb begin : p_request
    nx_req = cur;
    unique case (st_q)
      QIdle: begin
        nx_req.pref = ~pref_q;
        if (!pref_q && (s_axil_awvalid || s_axil_wvalid)) begin
          if (s_axil_awvalid) nx_req.addr = s_axil_awaddr;
          if (s_axil_wvalid) begin
            nx_req.data = s_axil_wdata;
            nx_req.strb = s_axil_wstrb;
          end
          nx_req.awp = 1'b1;
          nx_req.wp  = 1'b1;
          nx_req.st  = !s_axil_wvalid ? QWaitW : !s_axil_awvalid ? QWaitAw : QWFwd;
        end else if (pref_q && s_axil_arvalid) begin
          nx_req.addr = s_axil_araddr;
          nx_req.st   = QRFwd;
        end
      end
      QWaitW: begin
        if (s_axil_wvalid) begin
          nx_req.data = s_axil_wdata;
          nx_req.strb = s_axil_wstrb;
          nx_req.st   = QWFwd;
        end
      end
      QWaitAw: begin
        if (s_axil_awvalid) begin
          nx_req.addr = s_axil_awaddr;
          nx_req.st   = QWFwd;
        end
      end
      default: ;
    endcase
  end

  // Write (golden: write): QWFwd forwards AW and W to the target (SLVERR for no target;
  // the broadcast block's MASK write, or its TAIL_INC that starts the broadcast),
  // QWResp waits for its B, QBack hands the response to the Q7.
  always_comb begin : p_write
    nx_wr = cur;
    unique case (st_q)
      QWFwd: begin
        if (tgt == TErr) begin
          nx_wr.resp = 2'd2;
          nx_wr.st   = QBack;
        end else if (tgt == TBc) begin
          nx_wr.resp = 2'd2;
          nx_wr.st   = QBack;
          if (bok && !btrig) begin
            // MASK: only bits of engines that exist
            if (NumEngines >= 32 || (data_q >> NumEngines) == 32'd0) begin
              nx_wr.bmask[bq][bside] = NumEngines'(data_q);
              nx_wr.resp = 2'd0;
            end
          end else if (bok && bmask_q[bq][bside] != '0) begin
            // TAIL_INC: ring every engine of the mask
            nx_wr.bpend = bmask_q[bq][bside];
            nx_wr.awp   = 1'b1;
            nx_wr.wp    = 1'b1;
            nx_wr.resp  = 2'd0;
            nx_wr.st    = QBcFwd;
          end
        end else if (tgt == TMem) begin
          if (m_axi_awready) nx_wr.awp = 1'b0;
          if (m_axi_wready) nx_wr.wp = 1'b0;
          if ((!awp_q || m_axi_awready) && (!wp_q || m_axi_wready)) nx_wr.st = QWResp;
        end else begin
          if (t_awready_i[tix]) nx_wr.awp = 1'b0;
          if (t_wready_i[tix]) nx_wr.wp = 1'b0;
          if ((!awp_q || t_awready_i[tix]) && (!wp_q || t_wready_i[tix])) nx_wr.st = QWResp;
        end
      end
      QWResp: begin
        if (tgt == TMem) begin
          if (m_axi_bvalid) begin
            nx_wr.resp = m_axi_bresp;
            nx_wr.st   = QBack;
          end
        end else if (t_bvalid_i[tix]) begin
          nx_wr.resp = t_bresp_i[tix];
          nx_wr.st   = QBack;
        end
      end
      QBack: begin
        if (s_axil_bready) nx_wr.st = QIdle;
      end
      default: ;
    endcase
  end

  // Broadcast (golden: broadcast): the TAIL_INC write goes to every engine of the mask,
  // lowest first (QBcFwd forwards AW and W, QBcResp takes its B); the response is the
  // first non-OKAY one.
  always_comb begin : p_bcast
    nx_bc = cur;
    unique case (st_q)
      QBcFwd: begin
        if (t_awready_i[be]) nx_bc.awp = 1'b0;
        if (t_wready_i[be]) nx_bc.wp = 1'b0;
        if ((!awp_q || t_awready_i[be]) && (!wp_q || t_wready_i[be])) nx_bc.st = QBcResp;
      end
      QBcResp: begin
        if (t_bvalid_i[be]) begin
          if (resp_q == 2'd0) nx_bc.resp = t_bresp_i[be];
          nx_bc.bpend = bpend_q & ~(NumEngines'(1) << be);
          if ((bpend_q & ~(NumEngines'(1) << be)) == '0) begin
            nx_bc.st = QBack;
          end else begin
            nx_bc.awp = 1'b1;
            nx_bc.wp  = 1'b1;
            nx_bc.st  = QBcFwd;
          end
        end
      end
      default: ;
    endcase
  end

  // Read (golden: read): QRFwd forwards AR to the target (the broadcast block answers a
  // MASK read itself; memory and no target answer SLVERR), QRResp takes its R, QRBack
  // hands it to the Q7.
  always_comb begin : p_read
    nx_rd = cur;
    unique case (st_q)
      QRFwd: begin
        if (tgt == TBc) begin
          // MASK reads back; TAIL_INC is write-only
          nx_rd.resp = bok && !btrig ? 2'd0 : 2'd2;
          nx_rd.data = bok && !btrig ? 32'(bmask_q[bq][bside]) : 32'd0;
          nx_rd.st   = QRBack;
        end else if (tgt >= TMem) begin
          nx_rd.resp = 2'd2;
          nx_rd.data = '0;
          nx_rd.st   = QRBack;
        end else if (t_arready_i[tix]) begin
          nx_rd.st = QRResp;
        end
      end
      QRResp: begin
        if (t_rvalid_i[tix]) begin
          nx_rd.resp = t_rresp_i[tix];
          nx_rd.data = t_rdata_i[tix];
          nx_rd.st   = QRBack;
        end
      end
      QRBack: begin
        if (s_axil_rready) nx_rd.st = QIdle;
      end
      default: ;
    endcase
  end

  always_comb begin : p_next
    q7_regs_t nx;
    unique case (st_q)
      QIdle, QWaitW, QWaitAw: nx = nx_req;
      QWFwd, QWResp, QBack:   nx = nx_wr;
      QBcFwd, QBcResp:        nx = nx_bc;
      QRFwd, QRResp, QRBack:  nx = nx_rd;
      default: begin
        nx    = cur;
        nx.st = QIdle;
      end
    endcase
    st_d    = nx.st;
    pref_d  = nx.pref;
    addr_d  = nx.addr;
    data_d  = nx.data;
    strb_d  = nx.strb;
    awp_d   = nx.awp;
    wp_d    = nx.wp;
    resp_d  = nx.resp;
    bmask_d = nx.bmask;
    bpend_d = nx.bpend;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q   <= QIdle;
      pref_q <= 1'b0;
      addr_q <= '0;
      data_q <= '0;
      strb_q <= '0;
      awp_q  <= 1'b0;
      wp_q   <= 1'b0;
      resp_q <= '0;
      bmask_q <= '0;
      bpend_q <= '0;
    end else begin
      st_q   <= st_d;
      pref_q <= pref_d;
      addr_q <= addr_d;
      data_q <= data_d;
      strb_q <= strb_d;
      awp_q  <= awp_d;
      wp_q   <= wp_d;
      resp_q <= resp_d;
      bmask_q <= bmask_d;
      bpend_q <= bpend_d;
    end
  end

endmodule : sb2sb_q7_port
