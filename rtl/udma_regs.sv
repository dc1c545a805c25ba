// UDMA register file and AXI4-Lite CSR slave.
//
// Golden model: model/src/udma/regfile.rs. Offsets and fields: sb2sb_pkg (generated
// from model/src/udma/regs.rs). Side index 0 = M2S, 1 = S2M.
// Update order per cycle: FSM events, then the CSR write (RST_Q wins), sticky and
// W1C registers as (old & ~clear) | set.

module udma_regs
  import sb2sb_pkg::*;
#(
  parameter int unsigned NumQ = 16,
  localparam int unsigned QW = $clog2(NumQ)
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  // AXI4-Lite CSR slave
  input  logic [17:0]               s_axil_awaddr,
  input  logic                      s_axil_awvalid,
  output logic                      s_axil_awready,
  input  logic [31:0]               s_axil_wdata,
  input  logic [3:0]                s_axil_wstrb,
  input  logic                      s_axil_wvalid,
  output logic                      s_axil_wready,
  output logic [1:0]                s_axil_bresp,
  output logic                      s_axil_bvalid,
  input  logic                      s_axil_bready,
  input  logic [17:0]               s_axil_araddr,
  input  logic                      s_axil_arvalid,
  output logic                      s_axil_arready,
  output logic [31:0]               s_axil_rdata,
  output logic [1:0]                s_axil_rresp,
  output logic                      s_axil_rvalid,
  input  logic                      s_axil_rready,
  // FSM events, per side
  input  logic [1:0][QW-1:0]        ev_q_i,
  input  logic [1:0]                ev_head_adv_i,
  input  logic [1:0]                ev_crhp_adv_i,
  input  logic [1:0]                ev_done_inc_i,
  input  logic [1:0]                ev_int_set_i,
  input  logic [1:0]                ev_err_i,
  input  logic [1:0][4:0]           ev_err_bit_i,
  input  logic [1:0][5:0]           ev_bytes_i,
  input  logic [1:0][5:0]           ev_drop_i,
  // FSM status, per side
  input  logic [1:0][3:0]           stat_st_i,
  input  logic [1:0][QW-1:0]        stat_q_i,
  input  logic [1:0]                stat_pkt_i,
  // Views for the FSMs, per side (queue ev_q_i)
  output logic [1:0][NumQ-1:0]      avail_o,
  output logic [1:0][NumQ-1:0]      stopped_o,
  output logic [1:0]                normal_o,
  output logic [1:0][63:0]          desc_addr_o,
  output logic [1:0][63:0]          comp_addr_o,
  output logic [1:0][1:0]           head_id_o,
  output logic [1:0][23:0]          head_off_o,
  output logic [1:0][1:0]           crhp_id_o,
  output logic [1:0]                comp_en_o,
  output logic [1:0][31:0]          tout_o,
  output logic                      irq_o,
  output logic                      err_irq_o,
  output logic [1:0]                csr_st_o
);

  localparam logic [1:0] CIdle = 2'd0;
  localparam logic [1:0] CB    = 2'd1;
  localparam logic [1:0] CR    = 2'd2;

  localparam logic [1:0] RespOkay   = AXI_RESP_OKAY[1:0];
  localparam logic [1:0] RespSlverr = AXI_RESP_SLVERR[1:0];

  localparam int unsigned PrefB  = UDMA_Q_CFG_EN_PREF_BIT;
  localparam int unsigned SchedB = UDMA_Q_CFG_EN_SCHED_BIT;
  localparam int unsigned BaseSh = UDMA_Q_RBP_LOW_SHIFT;

  // Access kinds
  localparam logic [2:0] AccRw  = 3'd0;
  localparam logic [2:0] AccRo  = 3'd1;
  localparam logic [2:0] AccWo  = 3'd2;
  localparam logic [2:0] AccW1c = 3'd3;
  localparam logic [2:0] AccBad = 3'd4;

  // ---------------- state ----------------
  logic [1:0][NumQ-1:0][31:0] pref_cfg_q, pref_cfg_d;
  logic [1:0][NumQ-1:0][1:0]  cfg_q, cfg_d;          // {EN_SCHED, EN_PREF}
  logic [1:0][NumQ-1:0][31:0] rbp_lo_q, rbp_lo_d;
  logic [1:0][NumQ-1:0][31:0] rbp_hi_q, rbp_hi_d;
  logic [1:0][NumQ-1:0][23:0] rl_q, rl_d;
  logic [1:0][NumQ-1:0][23:0] head_off_q, head_off_d;
  logic [1:0][NumQ-1:0][1:0]  head_id_q, head_id_d;
  logic [1:0][NumQ-1:0][23:0] tail_off_q, tail_off_d;
  logic [1:0][NumQ-1:0][1:0]  tail_id_q, tail_id_d;
  logic [1:0][NumQ-1:0][31:0] crbp_lo_q, crbp_lo_d;
  logic [1:0][NumQ-1:0][31:0] crbp_hi_q, crbp_hi_d;
  logic [1:0][NumQ-1:0][23:0] crhp_off_q, crhp_off_d;
  logic [1:0][NumQ-1:0][1:0]  crhp_id_q, crhp_id_d;
  logic [1:0][NumQ-1:0]       comp_en_q, comp_en_d;
  logic [1:0][NumQ-1:0]       stop_q, stop_d;
  logic [1:0][NumQ-1:0][31:0] qerr_q, qerr_d;
  logic [1:0][NumQ-1:0][31:0] bytes_q, bytes_d;
  logic [1:0][NumQ-1:0][31:0] drop_q, drop_d;
  logic [1:0][NumQ-1:0][31:0] done_q, done_d;
  logic [1:0][1:0]            state_q, state_d;
  logic [1:0][31:0]           emask_q, emask_d;
  logic [1:0][31:0]           estat_q, estat_d;
  logic [1:0][NumQ-1:0]       istat_q, istat_d;
  logic [1:0][31:0]           tout_q, tout_d;
  logic [1:0][31:0]           cfg_len_q, cfg_len_d;
  logic [1:0]                 c_st_q, c_st_d;
  logic [1:0]                 c_bresp_q, c_bresp_d;
  logic [31:0]                c_rdata_q, c_rdata_d;
  logic [1:0]                 c_rresp_q, c_rresp_d;

  // ---------------- helpers ----------------
  function automatic logic [25:0] used_of(logic [23:0] head, logic [23:0] tail, logic [23:0] rl);
    logic [25:0] u;
    if (tail >= head) begin
      u = {2'b0, tail} - {2'b0, head};
    end else begin
      u = {2'b0, tail} + {2'b0, rl} - {2'b0, head};
    end
    return u;
  endfunction

  function automatic logic [25:0] free_of(logic [25:0] used, logic [23:0] rl);
    logic [25:0] f;
    if ({2'b0, rl} > used) begin
      f = {2'b0, rl} - 26'd1 - used;
    end else begin
      f = '0;
    end
    return f;
  endfunction

  function automatic logic [2:0] access_of(logic [17:0] a);
    logic        m2s;
    logic [16:0] off;
    logic [4:0]  qi;
    logic [11:0] qo;
    logic [2:0]  acc;
    m2s = ~a[UDMA_SIDE_BIT];
    off = a[16:0];
    qi  = off[16:12] - 5'd1;
    qo  = off[11:0];
    acc = AccBad;
    if (a[1:0] != 2'b00 || {14'b0, a} >= UDMA_GEN_BASE) begin
      acc = AccBad;
    end else if ({15'b0, off} >= UDMA_Q_ARRAY_BASE) begin
      if ({27'b0, qi} < NumQ) begin
        unique case ({20'b0, qo})
          UDMA_Q_DESC_PREF_CFG: acc = m2s ? AccRw : AccBad;
          UDMA_Q_CFG, UDMA_Q_RBP_LOW, UDMA_Q_RBP_HIGH, UDMA_Q_RL,
          UDMA_Q_CRBP_LOW, UDMA_Q_CRBP_HIGH: acc = AccRw;
          UDMA_Q_STATUS, UDMA_Q_RHP, UDMA_Q_RTP, UDMA_Q_RCP, UDMA_Q_CRHP,
          UDMA_Q_ERR, UDMA_Q_BYTES, UDMA_Q_DROP_BYTES, UDMA_Q_DESC_DONE: acc = AccRo;
          UDMA_Q_RTP_INC: acc = AccWo;
          UDMA_S2M_Q_COMP_CFG: acc = m2s ? AccBad : AccRw;
          UDMA_M2S_Q_SW_CTRL: acc = m2s ? AccWo : AccBad;
          UDMA_S2M_Q_SW_CTRL: acc = m2s ? AccBad : AccWo;
          default: acc = AccBad;
        endcase
      end
    end else begin
      unique case ({15'b0, off})
        UDMA_ENG_STATE, UDMA_ENG_DBG_STATE: acc = AccRo;
        UDMA_ENG_CHANGE_STATE: acc = AccWo;
        UDMA_ENG_ERR_LOG_MASK, UDMA_ENG_NO_DESC_TOUT: acc = AccRw;
        UDMA_M2S_CFG_LEN: acc = m2s ? AccRw : AccBad;
        UDMA_ENG_ERR_STATUS, UDMA_ENG_INT_STATUS: acc = AccW1c;
        default: acc = AccBad;
      endcase
    end
    return acc;
  endfunction

  // ---------------- views ----------------
  logic [1:0][NumQ-1:0][25:0] used;
  always_comb begin
    for (int s = 0; s < 2; s++) begin
      for (int q = 0; q < NumQ; q++) begin
        used[s][q]      = used_of(head_off_q[s][q], tail_off_q[s][q], rl_q[s][q]);
        stopped_o[s][q] = stop_q[s][q];
        avail_o[s][q]   = (state_q[s] == UDMA_STATE_NORMAL[1:0]) && (cfg_q[s][q] == 2'b11) &&
                          !stop_q[s][q] && (head_off_q[s][q] != tail_off_q[s][q]);
      end
      normal_o[s]    = state_q[s] == UDMA_STATE_NORMAL[1:0];
      desc_addr_o[s] = {rbp_hi_q[s][ev_q_i[s]], rbp_lo_q[s][ev_q_i[s]]} +
                       {36'b0, head_off_q[s][ev_q_i[s]], 4'b0};
      comp_addr_o[s] = {crbp_hi_q[s][ev_q_i[s]], crbp_lo_q[s][ev_q_i[s]]} +
                       {36'b0, crhp_off_q[s][ev_q_i[s]], 4'b0};
      head_id_o[s]   = head_id_q[s][ev_q_i[s]];
      head_off_o[s]  = head_off_q[s][ev_q_i[s]];
      crhp_id_o[s]   = crhp_id_q[s][ev_q_i[s]];
      comp_en_o[s]   = comp_en_q[s][ev_q_i[s]];
      tout_o[s]      = tout_q[s];
    end
  end

  always_comb begin
    irq_o     = 1'b0;
    err_irq_o = 1'b0;
    for (int s = 0; s < 2; s++) begin
      irq_o     = irq_o | (|istat_q[s]);
      err_irq_o = err_irq_o | (|(estat_q[s] & ~emask_q[s]));
    end
  end
  assign csr_st_o = c_st_q;

  // ---------------- CSR slave outputs ----------------
  logic wr, rd;
  always_comb begin
    s_axil_awready = 1'b0;
    s_axil_wready  = 1'b0;
    s_axil_arready = 1'b0;
    s_axil_bvalid  = 1'b0;
    s_axil_bresp   = 2'b00;
    s_axil_rvalid  = 1'b0;
    s_axil_rdata   = '0;
    s_axil_rresp   = 2'b00;
    unique case (c_st_q)
      CIdle: begin
        if (s_axil_awvalid && s_axil_wvalid) begin
          s_axil_awready = 1'b1;
          s_axil_wready  = 1'b1;
        end else if (s_axil_arvalid) begin
          s_axil_arready = 1'b1;
        end
      end
      CB: begin
        s_axil_bvalid = 1'b1;
        s_axil_bresp  = c_bresp_q;
      end
      default: begin
        s_axil_rvalid = 1'b1;
        s_axil_rdata  = c_rdata_q;
        s_axil_rresp  = c_rresp_q;
      end
    endcase
  end
  assign wr = s_axil_awready;
  assign rd = s_axil_arready;

  // ---------------- CSR read mux ----------------
  logic [2:0]  racc, wacc;
  logic        rside, wside;
  logic [4:0]  rqi5, wqi5;
  logic [QW-1:0] rqi, wqi;
  logic [11:0] roff, woff;
  logic        rq_reg, wq_reg;
  logic [31:0] rval;

  assign racc   = access_of(s_axil_araddr);
  assign wacc   = access_of(s_axil_awaddr);
  assign rside  = s_axil_araddr[UDMA_SIDE_BIT];
  assign wside  = s_axil_awaddr[UDMA_SIDE_BIT];
  assign rqi5   = s_axil_araddr[16:12] - 5'd1;
  assign wqi5   = s_axil_awaddr[16:12] - 5'd1;
  logic unused_qi;
  assign unused_qi = rqi5[4] ^ wqi5[4];
  assign rqi    = rqi5[QW-1:0];
  assign wqi    = wqi5[QW-1:0];
  assign roff   = s_axil_araddr[11:0];
  assign woff   = s_axil_awaddr[11:0];
  assign rq_reg = {15'b0, s_axil_araddr[16:0]} >= UDMA_Q_ARRAY_BASE;
  assign wq_reg = {15'b0, s_axil_awaddr[16:0]} >= UDMA_Q_ARRAY_BASE;

  always_comb begin
    logic [25:0] u;
    logic        full, pref, busy;
    rval = '0;
    u    = used[rside][rqi];
    full = (rl_q[rside][rqi] != 24'd0) && (u == {2'b0, rl_q[rside][rqi]} - 26'd1);
    pref = cfg_q[rside][rqi][0] && !stop_q[rside][rqi];
    busy = (stat_st_i[rside] != 4'd0) && (stat_q_i[rside] == rqi);
    if (racc != AccBad && racc != AccWo) begin
      if (rq_reg) begin
        unique case ({20'b0, roff})
          UDMA_Q_DESC_PREF_CFG: rval = pref_cfg_q[rside][rqi];
          UDMA_Q_CFG: rval = {14'b0, cfg_q[rside][rqi], 16'b0};
          UDMA_Q_STATUS: begin
            rval = {8'b0, u[23:0]};
            rval[UDMA_Q_STATUS_STOPPED_BIT]  = stop_q[rside][rqi];
            rval[UDMA_Q_STATUS_PREFETCH_BIT] = pref;
            rval[UDMA_Q_STATUS_SCHED_BIT]    = busy;
            rval[UDMA_Q_STATUS_Q_FULL_BIT]   = full;
          end
          UDMA_Q_RBP_LOW: rval = rbp_lo_q[rside][rqi];
          UDMA_Q_RBP_HIGH: rval = rbp_hi_q[rside][rqi];
          UDMA_Q_RL: rval = {8'b0, rl_q[rside][rqi]};
          UDMA_Q_RHP, UDMA_Q_RCP: rval = {head_id_q[rside][rqi], 6'b0, head_off_q[rside][rqi]};
          UDMA_Q_RTP: rval = {tail_id_q[rside][rqi], 6'b0, tail_off_q[rside][rqi]};
          UDMA_Q_CRBP_LOW: rval = crbp_lo_q[rside][rqi];
          UDMA_Q_CRBP_HIGH: rval = crbp_hi_q[rside][rqi];
          UDMA_Q_CRHP: rval = {crhp_id_q[rside][rqi], 6'b0, crhp_off_q[rside][rqi]};
          UDMA_S2M_Q_COMP_CFG: rval = {31'b0, comp_en_q[rside][rqi]};
          UDMA_Q_ERR: rval = qerr_q[rside][rqi];
          UDMA_Q_BYTES: rval = bytes_q[rside][rqi];
          UDMA_Q_DROP_BYTES: rval = drop_q[rside][rqi];
          UDMA_Q_DESC_DONE: rval = done_q[rside][rqi];
          default: rval = '0;
        endcase
      end else begin
        unique case ({20'b0, roff})
          UDMA_ENG_STATE: rval = {30'b0, state_q[rside]};
          UDMA_ENG_ERR_LOG_MASK: rval = emask_q[rside];
          UDMA_M2S_CFG_LEN: rval = cfg_len_q[rside];
          UDMA_ENG_ERR_STATUS: rval = estat_q[rside];
          UDMA_ENG_INT_STATUS: rval = {{(32 - NumQ){1'b0}}, istat_q[rside]};
          UDMA_ENG_NO_DESC_TOUT: rval = tout_q[rside];
          UDMA_ENG_DBG_STATE: rval = {15'b0, stat_pkt_i[rside], {(8 - QW){1'b0}}, stat_q_i[rside],
                                      4'b0, stat_st_i[rside]};
          default: rval = '0;
        endcase
      end
    end
  end

  // ---------------- next state ----------------
  logic        wr_bad, rd_bad, db_over, db_write;
  logic [25:0] db_free, db_used, db_new;
  logic [23:0] inc;
  logic [31:0] d;

  assign d   = s_axil_wdata;
  assign inc = s_axil_wdata[23:0];

  always_comb begin
    db_used = used[wside][wqi];
    db_free = free_of(db_used, rl_q[wside][wqi]);
    db_new  = {2'b0, tail_off_q[wside][wqi]} + {2'b0, inc};
  end

  assign wr_bad   = wr && (wacc == AccBad || wacc == AccRo || s_axil_wstrb != 4'hf);
  assign rd_bad   = rd && (racc == AccBad);
  assign db_write = wr && !wr_bad && wq_reg && ({20'b0, woff} == UDMA_Q_RTP_INC);
  assign db_over  = db_write && ({2'b0, inc} > db_free);

  always_comb begin
    logic [1:0][31:0]     set_err;
    logic [1:0][NumQ-1:0] set_int;
    logic [1:0][31:0]     clr_err;
    logic [1:0][NumQ-1:0] clr_int;
    logic [24:0]          n;
    logic [25:0]          t;

    pref_cfg_d = pref_cfg_q;
    cfg_d      = cfg_q;
    rbp_lo_d   = rbp_lo_q;
    rbp_hi_d   = rbp_hi_q;
    rl_d       = rl_q;
    head_off_d = head_off_q;
    head_id_d  = head_id_q;
    tail_off_d = tail_off_q;
    tail_id_d  = tail_id_q;
    crbp_lo_d  = crbp_lo_q;
    crbp_hi_d  = crbp_hi_q;
    crhp_off_d = crhp_off_q;
    crhp_id_d  = crhp_id_q;
    comp_en_d  = comp_en_q;
    stop_d     = stop_q;
    qerr_d     = qerr_q;
    bytes_d    = bytes_q;
    drop_d     = drop_q;
    done_d     = done_q;
    state_d    = state_q;
    emask_d    = emask_q;
    tout_d     = tout_q;
    cfg_len_d  = cfg_len_q;
    c_st_d     = c_st_q;
    c_bresp_d  = c_bresp_q;
    c_rdata_d  = c_rdata_q;
    c_rresp_d  = c_rresp_q;
    set_err    = '0;
    set_int    = '0;
    clr_err    = '0;
    clr_int    = '0;
    n          = '0;
    t          = db_new;

    // 1. FSM events
    for (int s = 0; s < 2; s++) begin
      if (ev_head_adv_i[s]) begin
        n = {1'b0, head_off_q[s][ev_q_i[s]]} + 25'd1;
        if (n >= {1'b0, rl_q[s][ev_q_i[s]]}) begin
          head_off_d[s][ev_q_i[s]] = '0;
          head_id_d[s][ev_q_i[s]]  = head_id_q[s][ev_q_i[s]] + 2'd1;
        end else begin
          head_off_d[s][ev_q_i[s]] = n[23:0];
        end
      end
      if (ev_crhp_adv_i[s]) begin
        n = {1'b0, crhp_off_q[s][ev_q_i[s]]} + 25'd1;
        if (n >= {1'b0, rl_q[s][ev_q_i[s]]}) begin
          crhp_off_d[s][ev_q_i[s]] = '0;
          crhp_id_d[s][ev_q_i[s]]  = crhp_id_q[s][ev_q_i[s]] + 2'd1;
        end else begin
          crhp_off_d[s][ev_q_i[s]] = n[23:0];
        end
      end
      if (ev_done_inc_i[s]) begin
        done_d[s][ev_q_i[s]] = done_q[s][ev_q_i[s]] + 32'd1;
      end
      bytes_d[s][ev_q_i[s]] = bytes_q[s][ev_q_i[s]] + {26'b0, ev_bytes_i[s]};
      drop_d[s][ev_q_i[s]]  = drop_q[s][ev_q_i[s]] + {26'b0, ev_drop_i[s]};
      if (ev_err_i[s]) begin
        stop_d[s][ev_q_i[s]] = 1'b1;
        qerr_d[s][ev_q_i[s]] = qerr_q[s][ev_q_i[s]] | (32'd1 << ev_err_bit_i[s]);
        set_err[s] = set_err[s] | (32'd1 << ev_err_bit_i[s]);
      end
      if (ev_int_set_i[s]) begin
        set_int[s][ev_q_i[s]] = 1'b1;
      end
    end
    if (wr_bad) begin
      set_err[wside][UDMA_ERR_CSR] = 1'b1;
    end
    if (rd_bad) begin
      set_err[rside][UDMA_ERR_CSR] = 1'b1;
    end
    if (db_over) begin
      set_err[wside][UDMA_ERR_DB_OVERFLOW] = 1'b1;
    end

    // 2. CSR write
    if (wr && !wr_bad) begin
      if (wq_reg) begin
        unique case ({20'b0, woff})
          UDMA_Q_DESC_PREF_CFG: pref_cfg_d[wside][wqi] = d;
          UDMA_Q_CFG: cfg_d[wside][wqi] = {d[SchedB], d[PrefB]};
          UDMA_Q_RBP_LOW: rbp_lo_d[wside][wqi] = {d[31:BaseSh], {BaseSh{1'b0}}};
          UDMA_Q_RBP_HIGH: rbp_hi_d[wside][wqi] = d;
          UDMA_Q_RL: rl_d[wside][wqi] = d[23:0];
          UDMA_Q_CRBP_LOW: crbp_lo_d[wside][wqi] = {d[31:BaseSh], {BaseSh{1'b0}}};
          UDMA_Q_CRBP_HIGH: crbp_hi_d[wside][wqi] = d;
          UDMA_S2M_Q_COMP_CFG: comp_en_d[wside][wqi] = d[UDMA_COMP_CFG_EN_COMP_RING_UPDATE_BIT];
          UDMA_Q_RTP_INC: begin
            if (db_over) begin
              stop_d[wside][wqi] = 1'b1;
              qerr_d[wside][wqi][UDMA_ERR_DB_OVERFLOW] = 1'b1;
            end else if (inc != 24'd0) begin
              if (t >= {2'b0, rl_q[wside][wqi]}) begin
                t = t - {2'b0, rl_q[wside][wqi]};
                tail_off_d[wside][wqi] = t[23:0];
                tail_id_d[wside][wqi]  = tail_id_q[wside][wqi] + 2'd1;
              end else begin
                tail_off_d[wside][wqi] = t[23:0];
              end
            end
          end
          default: begin  // q_sw_ctrl
            if (d[UDMA_Q_SW_CTRL_RST_Q_BIT]) begin
              head_off_d[wside][wqi] = '0;
              head_id_d[wside][wqi]  = UDMA_RING_ID_INIT[1:0];
              tail_off_d[wside][wqi] = '0;
              tail_id_d[wside][wqi]  = UDMA_RING_ID_INIT[1:0];
              crhp_off_d[wside][wqi] = '0;
              crhp_id_d[wside][wqi]  = UDMA_RING_ID_INIT[1:0];
              stop_d[wside][wqi]     = 1'b0;
              qerr_d[wside][wqi]     = '0;
              bytes_d[wside][wqi]    = '0;
              drop_d[wside][wqi]     = '0;
              done_d[wside][wqi]     = '0;
            end
          end
        endcase
      end else begin
        unique case ({20'b0, woff})
          UDMA_ENG_CHANGE_STATE: begin
            if (d[UDMA_CHANGE_STATE_ABORT_BIT]) begin
              state_d[wside] = UDMA_STATE_ABORT[1:0];
            end else if (d[UDMA_CHANGE_STATE_DIS_BIT]) begin
              state_d[wside] = UDMA_STATE_IDLE[1:0];
            end else if (d[UDMA_CHANGE_STATE_NORMAL_BIT]) begin
              state_d[wside] = UDMA_STATE_NORMAL[1:0];
            end
          end
          UDMA_ENG_ERR_LOG_MASK: emask_d[wside] = d;
          UDMA_M2S_CFG_LEN: cfg_len_d[wside] = d;
          UDMA_ENG_NO_DESC_TOUT: tout_d[wside] = d;
          UDMA_ENG_ERR_STATUS: clr_err[wside] = d;
          UDMA_ENG_INT_STATUS: clr_int[wside] = d[NumQ-1:0];
          default: ;
        endcase
      end
    end
    for (int s = 0; s < 2; s++) begin
      estat_d[s] = (estat_q[s] & ~clr_err[s]) | set_err[s];
      istat_d[s] = (istat_q[s] & ~clr_int[s]) | set_int[s];
    end

    // 3. CSR slave state
    unique case (c_st_q)
      CIdle: begin
        if (wr) begin
          c_st_d    = CB;
          c_bresp_d = wr_bad ? RespSlverr : RespOkay;
        end else if (rd) begin
          c_st_d    = CR;
          c_rdata_d = rval;
          c_rresp_d = rd_bad ? RespSlverr : RespOkay;
        end
      end
      CB: begin
        if (s_axil_bready) begin
          c_st_d = CIdle;
        end
      end
      default: begin
        if (s_axil_rready) begin
          c_st_d = CIdle;
        end
      end
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pref_cfg_q <= '0;
      cfg_q      <= '0;
      rbp_lo_q   <= '0;
      rbp_hi_q   <= '0;
      rl_q       <= '0;
      head_off_q <= '0;
      head_id_q  <= {(2 * NumQ){UDMA_RING_ID_INIT[1:0]}};
      tail_off_q <= '0;
      tail_id_q  <= {(2 * NumQ){UDMA_RING_ID_INIT[1:0]}};
      crbp_lo_q  <= '0;
      crbp_hi_q  <= '0;
      crhp_off_q <= '0;
      crhp_id_q  <= {(2 * NumQ){UDMA_RING_ID_INIT[1:0]}};
      comp_en_q  <= '0;
      stop_q     <= '0;
      qerr_q     <= '0;
      bytes_q    <= '0;
      drop_q     <= '0;
      done_q     <= '0;
      state_q    <= '0;
      emask_q    <= '0;
      estat_q    <= '0;
      istat_q    <= '0;
      tout_q     <= '0;
      cfg_len_q  <= '0;
      c_st_q     <= CIdle;
      c_bresp_q  <= '0;
      c_rdata_q  <= '0;
      c_rresp_q  <= '0;
    end else begin
      pref_cfg_q <= pref_cfg_d;
      cfg_q      <= cfg_d;
      rbp_lo_q   <= rbp_lo_d;
      rbp_hi_q   <= rbp_hi_d;
      rl_q       <= rl_d;
      head_off_q <= head_off_d;
      head_id_q  <= head_id_d;
      tail_off_q <= tail_off_d;
      tail_id_q  <= tail_id_d;
      crbp_lo_q  <= crbp_lo_d;
      crbp_hi_q  <= crbp_hi_d;
      crhp_off_q <= crhp_off_d;
      crhp_id_q  <= crhp_id_d;
      comp_en_q  <= comp_en_d;
      stop_q     <= stop_d;
      qerr_q     <= qerr_d;
      bytes_q    <= bytes_d;
      drop_q     <= drop_d;
      done_q     <= done_d;
      state_q    <= state_d;
      emask_q    <= emask_d;
      estat_q    <= estat_d;
      istat_q    <= istat_d;
      tout_q     <= tout_d;
      cfg_len_q  <= cfg_len_d;
      c_st_q     <= c_st_d;
      c_bresp_q  <= c_bresp_d;
      c_rdata_q  <= c_rdata_d;
      c_rresp_q  <= c_rresp_d;
    end
  end

endmodule : udma_regs
