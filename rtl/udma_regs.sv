// UDMA register file behind the shared AXI4-Lite register adapter (axil_reg_adapter).
//
// Golden model: model/src/udma/regfile.rs. Offsets, field layouts (udma_*_t structs)
// and widths: sb2sb_pkg, generated from the register description in
// model/src/udma/regs.rs (docs/udma.md §3). Side index 0 = M2S, 1 = S2M.
// Update order per cycle: FSM events, then the CSR write (RST_Q wins), sticky and
// W1C registers as (old & ~clear) | set.

module udma_regs
  import sb2sb_pkg::*;
#(
  parameter int unsigned NumQ = UDMA_NUM_QUEUES,
  localparam int unsigned QueueIdxW = $clog2(NumQ),
  localparam int unsigned AddrW = UDMA_CSR_ADDR_WIDTH
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  // AXI4-Lite CSR slave
  input  logic [AddrW-1:0]          s_axil_awaddr,
  input  logic                      s_axil_awvalid,
  output logic                      s_axil_awready,
  input  logic [31:0]               s_axil_wdata,
  input  logic [3:0]                s_axil_wstrb,
  input  logic                      s_axil_wvalid,
  output logic                      s_axil_wready,
  output logic [1:0]                s_axil_bresp,
  output logic                      s_axil_bvalid,
  input  logic                      s_axil_bready,
  input  logic [AddrW-1:0]          s_axil_araddr,
  input  logic                      s_axil_arvalid,
  output logic                      s_axil_arready,
  output logic [31:0]               s_axil_rdata,
  output logic [1:0]                s_axil_rresp,
  output logic                      s_axil_rvalid,
  input  logic                      s_axil_rready,
  // FSM events, per side
  input  logic [1:0][QueueIdxW-1:0] ev_q_i,
  input  logic [1:0]                ev_head_adv_i,
  input  logic [1:0]                ev_crhp_adv_i,
  input  logic [1:0]                ev_done_inc_i,
  input  logic [1:0]                ev_int_set_i,
  input  logic [1:0]                ev_err_i,
  input  logic [1:0][4:0]           ev_err_bit_i,
  input  logic [1:0][5:0]           ev_bytes_i,
  input  logic [1:0][5:0]           ev_drop_i,
  // FSM status, per side
  input  logic [1:0][3:0]           stat_state_i,
  input  logic [1:0][QueueIdxW-1:0] stat_q_i,
  input  logic [1:0]                stat_pkt_i,
  // Views for the FSMs, per side (queue ev_q_i)
  output logic [1:0][NumQ-1:0]      avail_o,
  output logic [1:0][NumQ-1:0]      stopped_o,
  output logic [1:0]                normal_o,
  output logic [1:0][63:0]          desc_addr_o,
  // the descriptor after the head (head + 1) and whether the queue holds it
  output logic [1:0][63:0]          next_addr_o,
  output logic [1:0]                has_next_o,
  // S2M: the ring id of head + 1 (the descriptor S2M executes while one is owed its Bs)
  output udma_q_ptr_ring_id_t       s2m_next_id_o,
  output logic [1:0][63:0]          comp_addr_o,
  output udma_q_ptr_ring_id_t [1:0] head_id_o,
  output udma_q_ptr_offset_t [1:0]  head_off_o,
  output udma_q_ptr_ring_id_t [1:0] crhp_id_o,
  output logic [1:0]                comp_en_o,
  output logic [1:0][31:0]          tout_o,
  output logic                      irq_o,
  output logic                      err_irq_o,
  output logic [1:0]                csr_pending_o  // adapter: {R pending, B pending}
);



  localparam int unsigned BaseSh = UDMA_Q_RBP_LOW_SHIFT;
  // Offset bits: [SideBit] side, [SideBit-1:QSh] queue bundle (0 = engine registers),
  // [QSh-1:0] offset inside the bundle.
  localparam int unsigned SideBit = UDMA_SIDE_BIT;
  localparam int unsigned QSh     = $clog2(UDMA_Q_STRIDE);
  localparam int unsigned QIdxW   = SideBit - QSh;
  // Ring offsets are PtrW bits; used/free arithmetic needs two more (tail + rl - head).
  localparam int unsigned PtrW    = $bits(udma_q_ptr_offset_t);
  localparam int unsigned UsedW   = PtrW + 2;
  // A descriptor slot is UDMA_DESC_BYTES bytes.
  localparam int unsigned DescSh  = $clog2(UDMA_DESC_BYTES);
  localparam udma_q_ptr_t PtrReset = udma_q_ptr_t'(UDMA_Q_PTR_RESET);


  // ---------------- state ----------------
  // Per-queue registers are unpacked [side][queue] arrays, updated element by element in
  // the flop process p_arrays (no _d copies): a packed [1:0][NumQ-1:0][31:0] vector is
  // copied whole (1024 bits) into its _d and back at every evaluation of the Verilated
  // model (docs/decisions.md, "UDMA register file update at the edge"). As packed
  // vectors they were wider than the toggle-coverage width limit, so they had no toggle
  // points; coverage_off keeps it that way (their values are compared every cycle through the
  // CSR reads and the FSM views).
  /* verilator coverage_off */
  logic [31:0]    pref_cfg_q [2][NumQ];
  logic [31:0]    rbp_lo_q   [2][NumQ];
  logic [31:0]    rbp_hi_q   [2][NumQ];
  udma_q_rl_len_t rl_q       [2][NumQ];
  // Head, tail and completion head in their register layout (offset, ring id).
  udma_q_ptr_t    head_q     [2][NumQ];
  udma_q_ptr_t    tail_q     [2][NumQ];
  logic [31:0]    crbp_lo_q  [2][NumQ];
  logic [31:0]    crbp_hi_q  [2][NumQ];
  udma_q_ptr_t    crhp_q     [2][NumQ];
  logic [31:0]    qerr_q     [2][NumQ];
  logic [31:0]    bytes_q    [2][NumQ];
  logic [31:0]    drop_q     [2][NumQ];
  logic [31:0]    done_q     [2][NumQ];
  /* verilator coverage_on */
  // Q_CFG's two enables and "ring not empty" (head offset != tail offset) as one bit
  // per queue, so the FSM views are whole-vector operations (simulation speed:
  // docs/decisions.md, "Evaluate-when-used logic"). nonempty_q is updated at the edge
  // for the queues whose head or tail moves (p_occupancy).
  logic [1:0][NumQ-1:0]       en_pref_q;
  logic [1:0][NumQ-1:0]       en_sched_q;
  logic [1:0][NumQ-1:0]       nonempty_q;
  logic [1:0][NumQ-1:0]       comp_en_q;
  logic [1:0][NumQ-1:0]       stop_q;
  logic [1:0][1:0]            state_q;
  logic [1:0][31:0]           emask_q;
  logic [1:0][31:0]           estat_q;
  logic [1:0][NumQ-1:0]       istat_q;
  logic [1:0][31:0]           tout_q;
  logic [1:0][31:0]           cfg_len_q;

  // ---------------- helpers ----------------
  function automatic logic [UsedW-1:0] used_of(udma_q_ptr_offset_t head, udma_q_ptr_offset_t tail,
                                                udma_q_rl_len_t rl);
    logic [UsedW-1:0] u;
    if (tail >= head) begin
      u = UsedW'(tail) - UsedW'(head);
    end else begin
      u = UsedW'(tail) + UsedW'(rl) - UsedW'(head);
    end
    return u;
  endfunction

  function automatic logic [UsedW-1:0] free_of(logic [UsedW-1:0] used, udma_q_rl_len_t rl);
    logic [UsedW-1:0] f;
    if (UsedW'(rl) > used) begin
      f = UsedW'(rl) - UsedW'(1) - used;
    end else begin
      f = '0;
    end
    return f;
  endfunction

  // Advance a ring pointer by one slot: offset 0 and ring id + 1 past the last slot.
  function automatic udma_q_ptr_t ptr_step(udma_q_ptr_t p, udma_q_rl_len_t rl);
    udma_q_ptr_t      r;
    logic [PtrW:0]    n;
    r = p;
    n = (PtrW + 1)'(p.offset) + (PtrW + 1)'(1);
    if (n >= (PtrW + 1)'(rl)) begin
      r.offset  = '0;
      r.ring_id = p.ring_id + 1'b1;
    end else begin
      r.offset = n[PtrW-1:0];
    end
    return r;
  endfunction

  // Queue bundle index of an offset inside a side (bundle 0 = engine registers).
  function automatic logic [QIdxW-1:0] bundle_of(logic [QIdxW-1:0] bundle_bits);
    return bundle_bits - QIdxW'(UDMA_Q_ARRAY_BASE >> QSh);
  endfunction

  // Access kind of CSR address `a`: the decode is generated from the register
  // description (sb2sb_pkg udma_eng_access / udma_queue_access); here only the
  // address split (alignment, gen unit, side, bundle) is done.
  function automatic reg_access_e access_of(logic [AddrW-1:0] a);
    logic             m2s;
    logic [QIdxW-1:0] qi;
    logic [QSh-1:0]   qo;
    reg_access_e      acc;
    m2s = ~a[SideBit];
    qi  = bundle_of(a[SideBit-1:QSh]);
    qo  = a[QSh-1:0];
    acc = RegAccBad;
    if (a[1:0] != 2'b00 || 32'(a) >= UDMA_GEN_BASE) begin
      acc = RegAccBad;
    end else if (32'(a[SideBit-1:0]) >= UDMA_Q_ARRAY_BASE) begin
      if (32'(qi) < NumQ) begin
        acc = udma_queue_access(m2s, 32'(qo));
      end
    end else begin
      acc = udma_eng_access(m2s, 32'(a[SideBit-1:0]));
    end
    return acc;
  endfunction

  // ---------------- views ----------------
  // Ring occupancy is computed only for the two queues that need it (the CSR read and the
  // doorbell), not for every queue at every evaluation (simulation speed).
  // head + 1 of the FSM's queue (the descriptor the FSMs prefetch); its ring id is S2M's
  // (DCHK of the descriptor after an owed one), M2S does not use it
  udma_q_ptr_t [1:0] nx_ptr;
  logic              unused_nx_id;
  assign unused_nx_id  = ^nx_ptr[0].ring_id;
  assign s2m_next_id_o = nx_ptr[1].ring_id;

  always_comb begin
    for (int s = 0; s < 2; s++) begin
      nx_ptr[s]      = ptr_step(head_q[s][ev_q_i[s]], rl_q[s][ev_q_i[s]]);
      next_addr_o[s] = {rbp_hi_q[s][ev_q_i[s]], rbp_lo_q[s][ev_q_i[s]]} +
                       (64'(nx_ptr[s].offset) << DescSh);
      has_next_o[s]  = nonempty_q[s][ev_q_i[s]] &&
                       (nx_ptr[s].offset != tail_q[s][ev_q_i[s]].offset);
      normal_o[s]    = state_q[s] == UDMA_STATE_NORMAL[1:0];
      stopped_o[s]   = stop_q[s];
      avail_o[s]     = {NumQ{normal_o[s]}} & en_pref_q[s] & en_sched_q[s] & ~stop_q[s] &
                       nonempty_q[s];
      desc_addr_o[s] = {rbp_hi_q[s][ev_q_i[s]], rbp_lo_q[s][ev_q_i[s]]} +
                       (64'(head_q[s][ev_q_i[s]].offset) << DescSh);
      comp_addr_o[s] = {crbp_hi_q[s][ev_q_i[s]], crbp_lo_q[s][ev_q_i[s]]} +
                       (64'(crhp_q[s][ev_q_i[s]].offset) << DescSh);
      head_id_o[s]   = head_q[s][ev_q_i[s]].ring_id;
      head_off_o[s]  = head_q[s][ev_q_i[s]].offset;
      crhp_id_o[s]   = crhp_q[s][ev_q_i[s]].ring_id;
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


  // ---------------- AXI4-Lite slave: the shared adapter ----------------
  // wr: a write commits at this edge (held address/data); rd: a read is answered from
  // the state before this edge (incoming address).
  logic             wr, rd, wr_bad, rd_err;
  logic [AddrW-1:0] waddr, raddr;
  logic [31:0]      wdata, rval;
  logic [3:0]       wstrb;

  axil_reg_adapter #(.AddrW(AddrW)) u_axil (
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
    .wr_req_o  (wr),
    .wr_addr_o (waddr),
    .wr_data_o (wdata),
    .wr_strb_o (wstrb),
    .wr_err_i  (wr_bad),
    .rd_req_o  (rd),
    .rd_addr_o (raddr),
    .rd_data_i (rval),
    .rd_err_i  (rd_err),
    .pending_o (csr_pending_o)
  );

  // ---------------- CSR read mux ----------------
  reg_access_e      racc, wacc;
  logic                 rside, wside;
  logic [QIdxW-1:0]     rqi_full, wqi_full;
  logic [QueueIdxW-1:0] rqi, wqi;
  logic [QSh-1:0]       roff, woff;
  logic                 rq_reg, wq_reg;

  // The decode, the read mux and the doorbell arithmetic are evaluated only in a cycle
  // with a read (rd) or a write (wr): the adapter samples their results only then, and
  // the Verilated model skips the gated code in the other cycles (simulation speed).
  always_comb begin
    racc = RegAccBad;
    wacc = RegAccBad;
    if (rd) begin
      racc = access_of(raddr);
    end
    if (wr) begin
      wacc = access_of(waddr);
    end
  end
  assign rside    = raddr[SideBit];
  assign wside    = waddr[SideBit];
  assign rqi_full = bundle_of(raddr[SideBit-1:QSh]);
  assign wqi_full = bundle_of(waddr[SideBit-1:QSh]);
  // Bundles >= NumQ answer SLVERR (access_of); only the low QueueIdxW bits index the arrays.
  logic unused_qi;
  assign unused_qi = ^{rqi_full, wqi_full};
  assign rqi      = rqi_full[QueueIdxW-1:0];
  assign wqi      = wqi_full[QueueIdxW-1:0];
  assign roff     = raddr[QSh-1:0];
  assign woff     = waddr[QSh-1:0];
  assign rq_reg   = 32'(raddr[SideBit-1:0]) >= UDMA_Q_ARRAY_BASE;
  assign wq_reg   = 32'(waddr[SideBit-1:0]) >= UDMA_Q_ARRAY_BASE;

  always_comb begin
    logic [UsedW-1:0] u;
    logic             full;
    udma_q_cfg_t      cfg;
    udma_q_status_t   status;
    udma_q_rl_t       rl;
    udma_q_comp_cfg_t comp_cfg;
    udma_eng_state_t  eng_state;
    udma_dbg_state_t  dbg;
    rval      = '0;
    u         = '0;
    full      = 1'b0;
    cfg       = '0;
    status    = '0;
    rl        = '0;
    comp_cfg  = '0;
    eng_state = '0;
    dbg       = '0;
    if (rd && racc != RegAccBad && racc != RegAccWo) begin
      u    = used_of(head_q[rside][rqi].offset, tail_q[rside][rqi].offset, rl_q[rside][rqi]);
      full = (rl_q[rside][rqi] != '0) && (u == UsedW'(rl_q[rside][rqi]) - UsedW'(1));
      cfg.en_pref        = en_pref_q[rside][rqi];
      cfg.en_sched       = en_sched_q[rside][rqi];
      status.q_used      = u[PtrW-1:0];
      status.stopped     = stop_q[rside][rqi];
      status.prefetch    = en_pref_q[rside][rqi] && !stop_q[rside][rqi];
      status.sched       = (stat_state_i[rside] != '0) && (stat_q_i[rside] == rqi);
      status.q_full      = full;
      rl.len             = rl_q[rside][rqi];
      comp_cfg.en_comp_ring_update = comp_en_q[rside][rqi];
      eng_state.state_f  = state_q[rside];
      dbg.state_f        = stat_state_i[rside];
      dbg.queue_f        = $bits(dbg.queue_f)'(stat_q_i[rside]);
      dbg.pkt            = stat_pkt_i[rside];
      if (rq_reg) begin
        unique case (32'(roff))
          UDMA_Q_DESC_PREF_CFG: rval = pref_cfg_q[rside][rqi];
          UDMA_Q_CFG: rval = cfg;
          UDMA_Q_STATUS: rval = status;
          UDMA_Q_RBP_LOW: rval = rbp_lo_q[rside][rqi];
          UDMA_Q_RBP_HIGH: rval = rbp_hi_q[rside][rqi];
          UDMA_Q_RL: rval = rl;
          UDMA_Q_RHP, UDMA_Q_RCP: rval = head_q[rside][rqi];
          UDMA_Q_RTP: rval = tail_q[rside][rqi];
          UDMA_Q_CRBP_LOW: rval = crbp_lo_q[rside][rqi];
          UDMA_Q_CRBP_HIGH: rval = crbp_hi_q[rside][rqi];
          UDMA_Q_CRHP: rval = crhp_q[rside][rqi];
          UDMA_S2M_Q_COMP_CFG: rval = comp_cfg;
          UDMA_Q_ERR: rval = qerr_q[rside][rqi];
          UDMA_Q_BYTES: rval = bytes_q[rside][rqi];
          UDMA_Q_DROP_BYTES: rval = drop_q[rside][rqi];
          UDMA_Q_DESC_DONE: rval = done_q[rside][rqi];
          default: rval = '0;
        endcase
      end else begin
        unique case (32'(roff))
          UDMA_ENG_STATE: rval = eng_state;
          UDMA_ENG_ERR_LOG_MASK: rval = emask_q[rside];
          UDMA_M2S_CFG_LEN: rval = cfg_len_q[rside];
          UDMA_ENG_ERR_STATUS: rval = estat_q[rside];
          UDMA_ENG_INT_STATUS: rval = {{(32 - NumQ){1'b0}}, istat_q[rside]};
          UDMA_ENG_NO_DESC_TOUT: rval = tout_q[rside];
          UDMA_ENG_DBG_STATE: rval = dbg;
          default: rval = '0;
        endcase
      end
    end
  end

  // ---------------- next state ----------------
  logic               rd_bad, db_over, db_write;
  logic [UsedW-1:0]   db_free, db_used, db_new;
  udma_q_rtp_inc_inc_t inc;
  logic [31:0]        d;

  // The write data in each register's layout.
  udma_q_cfg_t        d_cfg;
  udma_q_rl_t         d_rl;
  udma_q_rtp_inc_t    d_rtp_inc;
  udma_q_comp_cfg_t   d_comp_cfg;
  udma_q_sw_ctrl_t    d_sw_ctrl;
  udma_change_state_t d_change;
  assign d          = wdata;
  assign d_cfg      = wdata;
  assign d_rl       = wdata;
  assign d_rtp_inc  = wdata;
  assign d_comp_cfg = wdata;
  assign d_sw_ctrl  = wdata;
  assign d_change   = wdata;
  assign inc        = d_rtp_inc.inc;
  // Each view is read for its own fields only.
  logic unused_views;
  assign unused_views = ^{d_cfg, d_rl, d_rtp_inc, d_comp_cfg, d_sw_ctrl, d_change};

  always_comb begin
    db_used = '0;
    db_free = '0;
    db_new  = '0;
    if (wr) begin
      db_used = used_of(head_q[wside][wqi].offset, tail_q[wside][wqi].offset, rl_q[wside][wqi]);
      db_free = free_of(db_used, rl_q[wside][wqi]);
      db_new  = UsedW'(tail_q[wside][wqi].offset) + UsedW'(inc);
    end
  end

  assign wr_bad   = wr && (wacc == RegAccBad || wacc == RegAccRo || wstrb != 4'hf);
  assign rd_err   = racc == RegAccBad;
  assign rd_bad   = rd && (racc == RegAccBad);
  assign db_write = wr && !wr_bad && wq_reg && (32'(woff) == UDMA_Q_RTP_INC);
  assign db_over  = db_write && (UsedW'(inc) > db_free);

  // A cycle with no CSR access and no FSM event changes no register: the registers are
  // enabled by `busy` (their next state equals their state in the other cycles).
  logic busy;
  assign busy = wr || rd || (|ev_head_adv_i) || (|ev_crhp_adv_i) || (|ev_done_inc_i) ||
                (|ev_int_set_i) || (|ev_err_i) || (|ev_bytes_i) || (|ev_drop_i);

  // Next state. Update order as in the golden model: FSM events, then the CSR write; a
  // later write of the same register in this order wins, and the only read-modify-write
  // of an event's result by the CSR write (the doorbell-overflow bit of Q_ERR on top of
  // an FSM error bit of the same queue) is merged explicitly.

  // 1. FSM events: the new value of the event queue's (ev_q_i) registers, per side.
  udma_q_ptr_t [1:0]  head_ev_d, crhp_ev_d;
  logic [1:0][31:0]   done_ev_d, bytes_ev_d, drop_ev_d, qerr_ev_d;

  always_comb begin
    for (int s = 0; s < 2; s++) begin
      head_ev_d[s]  = ptr_step(head_q[s][ev_q_i[s]], rl_q[s][ev_q_i[s]]);
      crhp_ev_d[s]  = ptr_step(crhp_q[s][ev_q_i[s]], rl_q[s][ev_q_i[s]]);
      done_ev_d[s]  = done_q[s][ev_q_i[s]] + 32'd1;
      bytes_ev_d[s] = bytes_q[s][ev_q_i[s]] + 32'(ev_bytes_i[s]);
      drop_ev_d[s]  = drop_q[s][ev_q_i[s]] + 32'(ev_drop_i[s]);
      qerr_ev_d[s]  = qerr_q[s][ev_q_i[s]] | (32'd1 << ev_err_bit_i[s]);
    end
  end

  // CSR write: write enables of the written queue's (wside, wqi) registers and the
  // engine registers' next state, in the processes below (one per concern).
  logic                 csr_wr;     // a write without error commits
  logic                 we_pref, we_rbp_lo, we_rbp_hi, we_rl, we_crbp_lo, we_crbp_hi;
  logic                 tail_wr;    // the doorbell moves the written queue's tail (tail_n)
  logic                 qerr_wr;    // the doorbell overflows: Q_ERR <= ev_qerr
  logic                 rst_wr;     // RST_Q resets the written queue
  logic [31:0]          base_d;     // RBP_LOW / CRBP_LOW write data
  udma_q_ptr_t          tail_n;
  logic [31:0]          ev_qerr;    // Q_ERR of the written queue after the FSM events
  logic [1:0][NumQ-1:0] en_pref_d, en_sched_d, nonempty_d, comp_en_d, stop_d, istat_d;
  logic [1:0][1:0]      state_d;
  logic [1:0][31:0]     emask_d, tout_d, cfg_len_d, estat_d;

  assign csr_wr = wr && !wr_bad;
  assign base_d = {d[31:BaseSh], {BaseSh{1'b0}}};

  // 2. Status: ERR_STATUS and INT_STATUS are sticky, W1C; FSM events, bad accesses and a
  // doorbell overflow set their bits, a CSR write of 1s clears them (set wins).
  logic [1:0][31:0]     clr_err;
  logic [1:0][NumQ-1:0] clr_int;

  always_comb begin : p_status
    logic [1:0][31:0]     set_err;
    logic [1:0][NumQ-1:0] set_int;
    set_err = '0;
    set_int = '0;
    for (int s = 0; s < 2; s++) begin
      if (ev_err_i[s]) begin
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
    for (int s = 0; s < 2; s++) begin
      estat_d[s] = (estat_q[s] & ~clr_err[s]) | set_err[s];
      istat_d[s] = (istat_q[s] & ~clr_int[s]) | set_int[s];
    end
  end

  // 3. CSR write of a queue register: write enables of the array registers, the per-queue
  // configuration bits, the doorbell (tail += INC, ring id + 1 on wrap) and RST_Q.
  always_comb begin : p_queue_write
    logic [UsedW-1:0] t;
    we_pref    = 1'b0;
    we_rbp_lo  = 1'b0;
    we_rbp_hi  = 1'b0;
    we_rl      = 1'b0;
    we_crbp_lo = 1'b0;
    we_crbp_hi = 1'b0;
    tail_wr    = 1'b0;
    qerr_wr    = 1'b0;
    rst_wr     = 1'b0;
    tail_n     = tail_q[wside][wqi];
    en_pref_d  = en_pref_q;
    en_sched_d = en_sched_q;
    comp_en_d  = comp_en_q;
    t          = db_new;
    if (csr_wr && wq_reg) begin
      unique case (32'(woff))
        UDMA_Q_DESC_PREF_CFG: we_pref = 1'b1;
        UDMA_Q_CFG: begin
          en_pref_d[wside][wqi]  = d_cfg.en_pref;
          en_sched_d[wside][wqi] = d_cfg.en_sched;
        end
        UDMA_Q_RBP_LOW: we_rbp_lo = 1'b1;
        UDMA_Q_RBP_HIGH: we_rbp_hi = 1'b1;
        UDMA_Q_RL: we_rl = 1'b1;
        UDMA_Q_CRBP_LOW: we_crbp_lo = 1'b1;
        UDMA_Q_CRBP_HIGH: we_crbp_hi = 1'b1;
        UDMA_S2M_Q_COMP_CFG: comp_en_d[wside][wqi] = d_comp_cfg.en_comp_ring_update;
        UDMA_Q_RTP_INC: begin
          if (db_over) begin
            qerr_wr = 1'b1;
          end else if (inc != '0) begin
            tail_wr = 1'b1;
            if (t >= UsedW'(rl_q[wside][wqi])) begin
              t = t - UsedW'(rl_q[wside][wqi]);
              tail_n.offset  = t[PtrW-1:0];
              tail_n.ring_id = tail_q[wside][wqi].ring_id + 1'b1;
            end else begin
              tail_n.offset = t[PtrW-1:0];
            end
          end
        end
        default: begin  // q_sw_ctrl
          if (d_sw_ctrl.rst_q) begin
            rst_wr = 1'b1;
          end
        end
      endcase
    end
  end

  // 4. Queue stop and Q_ERR of the written queue: an FSM error stops its queue, a doorbell
  // overflow stops the written queue (its Q_ERR is the FSM events' result with the
  // DB_OVERFLOW bit on top), RST_Q restarts it.
  always_comb begin : p_stop
    stop_d  = stop_q;
    ev_qerr = qerr_q[wside][wqi];
    for (int s = 0; s < 2; s++) begin
      if (ev_err_i[s]) begin
        stop_d[s][ev_q_i[s]] = 1'b1;
        ev_qerr = ev_qerr | ((s == int'(wside) && ev_q_i[s] == wqi) ?
                             (32'd1 << ev_err_bit_i[s]) : 32'd0);
      end
    end
    if (qerr_wr) begin
      stop_d[wside][wqi] = 1'b1;
      ev_qerr[UDMA_ERR_DB_OVERFLOW] = 1'b1;
    end
    if (rst_wr) begin
      stop_d[wside][wqi] = 1'b0;
    end
  end

  // 5. CSR write of an engine register: CHANGE_STATE (ABORT > DIS > NORMAL), the stored
  // registers, and the W1C clears of ERR_STATUS / INT_STATUS.
  always_comb begin : p_engine_write
    state_d   = state_q;
    emask_d   = emask_q;
    tout_d    = tout_q;
    cfg_len_d = cfg_len_q;
    clr_err   = '0;
    clr_int   = '0;
    if (csr_wr && !wq_reg) begin
      unique case (32'(woff))
        UDMA_ENG_CHANGE_STATE: begin
          if (d_change.abort_f) begin
            state_d[wside] = UDMA_STATE_ABORT[1:0];
          end else if (d_change.dis) begin
            state_d[wside] = UDMA_STATE_IDLE[1:0];
          end else if (d_change.normal) begin
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

  // 6. Ring occupancy of the queues whose head or tail moves at this edge: each side's
  // event queue and the CSR-written queue (RST_Q wins over a head advance).
  always_comb begin : p_occupancy
    // Only the offsets of the next head and tail are compared (ring ids unused).
    /* verilator lint_off UNUSEDSIGNAL */
    udma_q_ptr_t h_nx, t_nx;
    /* verilator lint_on UNUSEDSIGNAL */
    nonempty_d = nonempty_q;
    for (int s = 0; s < 2; s++) begin
      h_nx = ev_head_adv_i[s] ? head_ev_d[s] : head_q[s][ev_q_i[s]];
      t_nx = tail_q[s][ev_q_i[s]];
      if (s == int'(wside) && ev_q_i[s] == wqi) begin
        if (tail_wr) begin
          t_nx = tail_n;
        end
        if (rst_wr) begin
          h_nx = PtrReset;
          t_nx = PtrReset;
        end
      end
      nonempty_d[s][ev_q_i[s]] = h_nx.offset != t_nx.offset;
    end
    if (tail_wr || rst_wr) begin
      h_nx = (ev_head_adv_i[wside] && ev_q_i[wside] == wqi) ? head_ev_d[wside] :
                                                               head_q[wside][wqi];
      t_nx = tail_n;
      if (rst_wr) begin
        h_nx = PtrReset;
        t_nx = PtrReset;
      end
      nonempty_d[wside][wqi] = h_nx.offset != t_nx.offset;
    end
  end

  // ---------------- registers ----------------
  // Per-queue arrays: write ports of the FSM events (queue ev_q_i), then of the CSR write
  // (queue wqi of side wside); the later write wins.
  always_ff @(posedge clk_i or negedge rst_ni) begin : p_arrays
    if (!rst_ni) begin
      pref_cfg_q <= '{default: '{default: '0}};
      rbp_lo_q   <= '{default: '{default: '0}};
      rbp_hi_q   <= '{default: '{default: '0}};
      rl_q       <= '{default: '{default: '0}};
      head_q     <= '{default: '{default: PtrReset}};
      tail_q     <= '{default: '{default: PtrReset}};
      crbp_lo_q  <= '{default: '{default: '0}};
      crbp_hi_q  <= '{default: '{default: '0}};
      crhp_q     <= '{default: '{default: PtrReset}};
      qerr_q     <= '{default: '{default: '0}};
      bytes_q    <= '{default: '{default: '0}};
      drop_q     <= '{default: '{default: '0}};
      done_q     <= '{default: '{default: '0}};
    end else if (busy) begin
      for (int s = 0; s < 2; s++) begin
        if (ev_head_adv_i[s]) begin
          head_q[s][ev_q_i[s]] <= head_ev_d[s];
        end
        if (ev_crhp_adv_i[s]) begin
          crhp_q[s][ev_q_i[s]] <= crhp_ev_d[s];
        end
        if (ev_done_inc_i[s]) begin
          done_q[s][ev_q_i[s]] <= done_ev_d[s];
        end
        // (written only when they count: an array write costs the Verilated model a commit)
        if (ev_bytes_i[s] != '0) begin
          bytes_q[s][ev_q_i[s]] <= bytes_ev_d[s];
        end
        if (ev_drop_i[s] != '0) begin
          drop_q[s][ev_q_i[s]] <= drop_ev_d[s];
        end
        if (ev_err_i[s]) begin
          qerr_q[s][ev_q_i[s]] <= qerr_ev_d[s];
        end
      end
      if (we_pref) begin
        pref_cfg_q[wside][wqi] <= d;
      end
      if (we_rbp_lo) begin
        rbp_lo_q[wside][wqi] <= base_d;
      end
      if (we_rbp_hi) begin
        rbp_hi_q[wside][wqi] <= d;
      end
      if (we_rl) begin
        rl_q[wside][wqi] <= d_rl.len;
      end
      if (we_crbp_lo) begin
        crbp_lo_q[wside][wqi] <= base_d;
      end
      if (we_crbp_hi) begin
        crbp_hi_q[wside][wqi] <= d;
      end
      if (qerr_wr) begin
        qerr_q[wside][wqi] <= ev_qerr;
      end
      if (tail_wr) begin
        tail_q[wside][wqi] <= tail_n;
      end
      if (rst_wr) begin
        head_q[wside][wqi]  <= PtrReset;
        tail_q[wside][wqi]  <= PtrReset;
        crhp_q[wside][wqi]  <= PtrReset;
        qerr_q[wside][wqi]  <= '0;
        bytes_q[wside][wqi] <= '0;
        drop_q[wside][wqi]  <= '0;
        done_q[wside][wqi]  <= '0;
      end
    end
  end

  // Per-queue bits and engine registers.
  always_ff @(posedge clk_i or negedge rst_ni) begin : p_regs
    if (!rst_ni) begin
      en_pref_q  <= '0;
      en_sched_q <= '0;
      nonempty_q <= '0;
      comp_en_q  <= '0;
      stop_q     <= '0;
      state_q    <= '0;
      emask_q    <= '0;
      estat_q    <= '0;
      istat_q    <= '0;
      tout_q     <= '0;
      cfg_len_q  <= '0;
    end else if (busy) begin
      en_pref_q  <= en_pref_d;
      en_sched_q <= en_sched_d;
      nonempty_q <= nonempty_d;
      comp_en_q  <= comp_en_d;
      stop_q     <= stop_d;
      state_q    <= state_d;
      emask_q    <= emask_d;
      estat_q    <= estat_d;
      istat_q    <= istat_d;
      tout_q     <= tout_d;
      cfg_len_q  <= cfg_len_d;
    end
  end

endmodule : udma_regs
