// The AXI4 interconnect of one NeuronCore (docs/pair.md). Three paths, each
// moving the data of one burst at a time and routing it with its own
// cayman_addr_decode instance on the 57-bit SoC address (seed 001 §2):
//   out-path: writes of the UDMA engines and the Q7 memory port (round-robin).
//             Its B responses return through an in-order response queue
//             (BqDepth entries, one per burst, in the order the bursts
//             finished their data): a burst to the link is posted — the path
//             takes the next burst as soon as the WLAST beat went into the
//             link, and the burst's entry is completed when the peer's B
//             comes back (after the write committed there); SBUF, descriptor
//             RAM, SEM_INCR and error bursts complete their entry at their
//             own B. The head entry, once completed, is the B of its master,
//             so every master sees its B responses in issue order. Link
//             bursts outstanding at once share one destination (address bits
//             [63:32]): a link burst to another destination waits in TGT_AW
//             until every earlier link B returned.
//   in-path:  writes arriving from the link (the peer's bursts), local targets
//             only — separate from the out-path so that two cores writing to
//             each other at once cannot deadlock on their links
//   read path: reads of the UDMA engines (round-robin)
// The SBUF and the descriptor RAM are claimed by one write path at a time
// (the in-path first when both claim in the same cycle).
//
//   routed to this core (SAME_DIE and LOCAL core index = core_idx_i):
//     0x0000_0000 + p * 0x20_0000 + off  SBUF partition p (window SbufWinBase..+SbufPartBytes)
//     0x1000_1800 .. 0x1000_1BFF          EVT_SEM SEM_INCR: each 32-bit lane is an increment
//                                         on an EVT_SEM hardware increment port (seed 001 §5)
//     0x1200_0000 .. +DescBytes           descriptor RAM
//     anything else in the core           SLVERR
//   other core of this die, other die, other chip: out over the link (write only)
//   neighbor device, host, or a non-local address arriving from the link: DECERR
//
// The neighbor view of the decoder is used when ID_VALID, NEIGHBOR_ROUTE and
// EXIT_DIE are all set, the chip-id view otherwise (model/src/system/map.rs).
// Outputs towards the UDMA engines and the EVT_SEM depend on registered state
// and on the memories' / link's outputs only (golden twin: model/src/pair/xbar.rs).

module sb2sb_xbar #(
  parameter int unsigned NumEngines    = 4,
  parameter int unsigned SbufPartBytes = 256,
  parameter int unsigned SbufWinBase   = 32'h10_0000,
  parameter int unsigned DescBytes     = 16384,
  localparam int unsigned NumWm = NumEngines + 2,
  localparam int unsigned GW    = $clog2(NumWm),
  // out-path response queue: entries (bursts whose B the master has not taken)
  localparam int unsigned BqDepth = 8,
  localparam int unsigned BqPw    = $clog2(BqDepth),
  localparam int unsigned RGW   = (NumEngines > 1) ? $clog2(NumEngines) : 1
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,
  // placement straps
  input  logic                        self_die_i,
  input  logic [5:0]                  self_chip_i,
  input  logic [2:0]                  core_idx_i,
  // write masters: engines 0..NumEngines-1, link (NumEngines, in-path), Q7 (NumEngines+1)
  input  logic [NumWm-1:0][63:0]      wm_awaddr_i,
  input  logic [NumWm-1:0][7:0]       wm_awlen_i,
  input  logic [NumWm-1:0]            wm_awvalid_i,
  output logic [NumWm-1:0]            wm_awready_o,
  input  logic [NumWm-1:0][63:0]      wm_wdata_i,
  input  logic [NumWm-1:0][7:0]       wm_wstrb_i,
  input  logic [NumWm-1:0]            wm_wlast_i,
  input  logic [NumWm-1:0]            wm_wvalid_i,
  output logic [NumWm-1:0]            wm_wready_o,
  output logic [1:0]                  wm_bresp_o,
  // B response of the link master (in-path)
  output logic [1:0]                  lin_bresp_o,
  output logic [NumWm-1:0]            wm_bvalid_o,
  input  logic [NumWm-1:0]            wm_bready_i,
  // read masters: engines
  input  logic [NumEngines-1:0][63:0] rm_araddr_i,
  input  logic [NumEngines-1:0][7:0]  rm_arlen_i,
  input  logic [NumEngines-1:0]       rm_arvalid_i,
  output logic [NumEngines-1:0]       rm_arready_o,
  output logic [63:0]                 rm_rdata_o,
  output logic [1:0]                  rm_rresp_o,
  output logic                        rm_rlast_o,
  output logic [NumEngines-1:0]       rm_rvalid_o,
  input  logic [NumEngines-1:0]       rm_rready_i,
  // memory targets (index 0 = SBUF, 1 = descriptor RAM; word addresses)
  output logic [1:0][31:0]            mem_awaddr_o,
  output logic [1:0]                  mem_awvalid_o,
  input  logic [1:0]                  mem_awready_i,
  output logic [1:0][63:0]            mem_wdata_o,
  output logic [1:0][7:0]             mem_wstrb_o,
  output logic [1:0]                  mem_wlast_o,
  output logic [1:0]                  mem_wvalid_o,
  input  logic [1:0]                  mem_wready_i,
  input  logic [1:0][1:0]             mem_bresp_i,
  input  logic [1:0]                  mem_bvalid_i,
  output logic [1:0]                  mem_bready_o,
  output logic [1:0][31:0]            mem_araddr_o,
  output logic [7:0]                  mem_arlen_o,
  output logic [1:0]                  mem_arvalid_o,
  input  logic [1:0]                  mem_arready_i,
  input  logic [1:0][63:0]            mem_rdata_i,
  input  logic [1:0][1:0]             mem_rresp_i,
  input  logic [1:0]                  mem_rlast_i,
  input  logic [1:0]                  mem_rvalid_i,
  output logic [1:0]                  mem_rready_o,
  // link target (out of the core, full SoC address)
  output logic [63:0]                 link_awaddr_o,
  output logic [7:0]                  link_awlen_o,
  output logic                        link_awvalid_o,
  input  logic                        link_awready_i,
  output logic [63:0]                 link_wdata_o,
  output logic [7:0]                  link_wstrb_o,
  output logic                        link_wlast_o,
  output logic                        link_wvalid_o,
  input  logic                        link_wready_i,
  input  logic [1:0]                  link_bresp_i,
  input  logic                        link_bvalid_i,
  output logic                        link_bready_o,
  // EVT_SEM increment ports: 0 and 1 = lanes 0 and 1 of a SEM_INCR beat of
  // the out-path, 2 and 3 = of the in-path
  output logic [3:0]                  inc_valid_o,
  output logic [3:0][7:0]             inc_idx_o,
  output logic [3:0][31:0]            inc_value_o,
  // debug: [2:0] write state, [7:3] write grant, [10:8] write target,
  // [13:11] read state, [18:14] read grant, [21:19] read target, [23:22] inc valid,
  // [31:24] write bursts routed mod 256
  output logic [31:0]                 dbg_o,
  // debug: [2:0] in-path state, [5:3] in-path target, [7:6] SBUF owner,
  // [9:8] descriptor RAM owner (0 none, 1 out-path, 2 in-path)
  output logic [15:0]                 dbg_in_o
);

  // the core address map (sb2sb_pkg, generated from model/src/system/map.rs)
  localparam logic [31:0] EvtIncrLo = sb2sb_pkg::CORE_EVT_INCR_BASE;
  localparam logic [31:0] EvtIncrHi = sb2sb_pkg::CORE_EVT_INCR_BASE + sb2sb_pkg::CORE_EVT_INCR_BYTES;
  localparam logic [31:0] EvtLo     = sb2sb_pkg::CORE_EVT_SEM_BASE;
  localparam logic [31:0] DescLo    = sb2sb_pkg::CORE_DESC_BASE;
  localparam logic [31:0] DescHi    = DescLo + 32'(DescBytes);
  localparam logic [31:0] PartBytes = 32'(SbufPartBytes);
  localparam logic [31:0] WinBase   = 32'(SbufWinBase);

  if (SbufPartBytes % 8 != 0 || SbufWinBase % 8 != 0 ||
      SbufWinBase + SbufPartBytes > 32'h20_0000) begin : gen_sbuf_check
    $error("sb2sb_xbar: SBUF window must be 8-byte aligned and inside a 2 MiB partition");
  end

  typedef enum logic [2:0] {
    TgtSbuf = 3'd0,
    TgtDesc = 3'd1,
    TgtSem  = 3'd2,
    TgtLink = 3'd3,
    TgtErr  = 3'd4
  } tgt_e;

  typedef enum logic [2:0] {
    WIdle  = 3'd0,
    WAddr  = 3'd1,
    WDec   = 3'd2,
    WRoute = 3'd3,
    WTgtAw = 3'd4,
    WData  = 3'd5,
    WResp  = 3'd6,
    WBack  = 3'd7
  } wst_e;

  typedef enum logic [2:0] {
    RIdle  = 3'd0,
    RAddr  = 3'd1,
    RDec   = 3'd2,
    RRoute = 3'd3,
    RTgtAr = 3'd4,
    RData  = 3'd5,
    RErr   = 3'd6
  } rst_e;

  typedef struct packed {
    tgt_e        tgt;
    logic [31:0] word;
    logic [1:0]  resp;
  } route_t;

  // Route of a decoded address (see the table above).
  function automatic route_t route_of(
    input logic [2:0]  route_chip,
    input logic [2:0]  route_nbr,
    input logic        id_valid,
    input logic        nbr_route,
    input logic        exit_die,
    input logic [45:0] loc,
    input logic [7:0]  len,
    input logic        from_link,
    input logic        wr,
    input logic [2:0]  core_idx
  );
    route_t      r;
    logic [2:0]  route;
    logic [31:0] off, inpart, rel, bytes;
    r.tgt  = TgtErr;
    r.word = '0;
    r.resp = 2'd3;
    route  = (id_valid && nbr_route && exit_die) ? route_nbr : route_chip;
    off    = loc[31:0];
    bytes  = ({24'd0, len} + 32'd1) << 3;
    inpart = {11'd0, off[20:0]} & ~32'd7;
    rel    = inpart - WinBase;
    if (route == sb2sb_pkg::ROUTE_SAME_DIE && loc[45:35] == '0 && loc[34:32] == core_idx) begin
      r.resp = 2'd2;
      if (off < EvtLo) begin
        if (inpart >= WinBase && rel + bytes <= PartBytes) begin
          r.tgt  = TgtSbuf;
          r.word = ({25'd0, off[27:21]} * PartBytes + rel) >> 3;
          r.resp = 2'd0;
        end
      end else if (off >= EvtIncrLo && off < EvtIncrHi && wr) begin
        if ((off & ~32'd7) + bytes <= EvtIncrHi) begin
          r.tgt  = TgtSem;
          r.word = (off - EvtIncrLo) >> 3;
          r.resp = 2'd0;
        end
      end else if (off >= DescLo && off < DescHi) begin
        if ((off & ~32'd7) + bytes <= DescHi) begin
          r.tgt  = TgtDesc;
          r.word = (off - DescLo) >> 3;
          r.resp = 2'd0;
        end
      end
    end else if ((route == sb2sb_pkg::ROUTE_SAME_DIE || route == sb2sb_pkg::ROUTE_OTHER_DIE ||
                  route == sb2sb_pkg::ROUTE_OTHER_CHIP) && wr && !from_link) begin
      r.tgt  = TgtLink;
      r.resp = 2'd0;
    end
    return r;
  endfunction

  // ---------------------------------------------------------------- decoders
  // decoder 0: out-path, 1: read path, 2: in-path
  logic [2:0]        dec_valid;
  logic [2:0][63:0]  dec_addr;
  logic [2:0][46:0]  dec_local;
  logic [2:0]        dec_id_valid, dec_exit_die, dec_nbr_route;
  logic [2:0][2:0]   dec_route_chip, dec_route_nbr;
  logic [2:0]        unused_dec;
  logic              unused_host;
  // HOST [46] is classified by the decoder (ROUTE_HOST)
  assign unused_host = dec_local[0][46] ^ dec_local[1][46] ^ dec_local[2][46];

  for (genvar k = 0; k < 3; k++) begin : gen_dec
    logic        valid_o, die_o, exit_seng_o, peb_o, rsvd_nbr_o, rsvd_mid_o, rsvd_hi_o;
    logic [1:0]  op_o;
    logic [63:0] addr_o;
    logic [5:0]  cayman_id_o;
    cayman_addr_decode u_dec (
      .clk_i,
      .rst_ni,
      .valid_i         (dec_valid[k]),
      .op_i            (sb2sb_pkg::ADDR_OP_DECODE),
      .addr_i          (dec_addr[k]),
      .local_i         ('0),
      .die_i           (1'b0),
      .chip_id_i       ('0),
      .exit_seng_i     (1'b0),
      .self_die_i,
      .self_chip_id_i  (self_chip_i),
      .valid_o,
      .op_o,
      .addr_o,
      .local_o         (dec_local[k]),
      .die_o,
      .cayman_id_o,
      .id_valid_o      (dec_id_valid[k]),
      .exit_seng_o,
      .exit_die_o      (dec_exit_die[k]),
      .neighbor_route_o(dec_nbr_route[k]),
      .peb_o,
      .rsvd_nbr_o,
      .rsvd_mid_o,
      .rsvd_hi_o,
      .route_chip_o    (dec_route_chip[k]),
      .route_nbr_o     (dec_route_nbr[k])
    );
    assign unused_dec[k] = ^{valid_o, die_o, exit_seng_o, peb_o, rsvd_nbr_o, rsvd_mid_o,
                             rsvd_hi_o, op_o, addr_o, cayman_id_o};
  end

  // ------------------------------------------------------------- write path
  wst_e            w_st_q, w_st_d;
  logic [GW-1:0]   w_g_q, w_g_d, w_rr_q, w_rr_d;
  tgt_e            w_tgt_q, w_tgt_d;
  logic [63:0]     w_addr_q, w_addr_d;
  logic [7:0]      w_len_q, w_len_d;
  logic [31:0]     w_word_q, w_word_d;
  logic [1:0]      w_resp_q, w_resp_d;
  logic [1:0]      inc_v_q, inc_v_d;
  logic [1:0][7:0] inc_i_q, inc_i_d;
  logic [1:0][31:0] inc_val_q, inc_val_d;
  logic [7:0]      w_cnt_q, w_cnt_d;
  logic            w_pick_ok;
  logic [GW-1:0]   w_pick;
  route_t          w_route;
  logic            w_hs, w_tgt_wready;
  // out-path response queue (in burst order) and the link bursts awaiting B
  logic [BqDepth-1:0][GW-1:0] bq_m_q, bq_m_d;
  logic [BqDepth-1:0]         bq_done_q, bq_done_d;
  logic [BqDepth-1:0][1:0]    bq_resp_q, bq_resp_d;
  logic [BqPw-1:0]            bq_wp_q, bq_wp_d, bq_rp_q, bq_rp_d;
  logic [BqPw:0]              bq_cnt_q, bq_cnt_d;
  logic                       bq_push, bq_push_done, bq_pop, bq_head;
  logic [1:0]                 bq_push_resp;
  logic [2:0]                 lk_pend_q, lk_pend_d;
  logic [31:0]                lk_hi_q, lk_hi_d;
  logic                       lk_ok, lk_aw_hs, lk_b_hs;
  // in-path
  wst_e             i_st_q, i_st_d;
  tgt_e             i_tgt_q, i_tgt_d;
  logic [63:0]      i_addr_q, i_addr_d;
  logic [7:0]       i_len_q, i_len_d;
  logic [31:0]      i_word_q, i_word_d;
  logic [1:0]       i_resp_q, i_resp_d;
  logic [1:0]       inc2_v_q, inc2_v_d;
  logic [1:0][7:0]  inc2_i_q, inc2_i_d;
  logic [1:0][31:0] inc2_val_q, inc2_val_d;
  route_t           i_route;
  logic             i_tgt_wready, i_hs;
  // memory owners: 0 none, 1 out-path, 2 in-path
  logic [1:0][1:0]  own_q, own_d;
  localparam logic [1:0] OwnNone = 2'd0;
  localparam logic [1:0] OwnOut  = 2'd1;
  localparam logic [1:0] OwnIn   = 2'd2;
  localparam logic [GW-1:0] LinkM = GW'(NumEngines);

  always_comb begin
    w_pick_ok = 1'b0;
    w_pick    = '0;
    // Masters in round-robin order from w_rr_q (< NumWm): a wrap by subtraction, not a
    // modulo (simulation speed).
    for (int unsigned k = 0; k < NumWm; k++) begin
      logic [GW-1:0] m;
      int unsigned   mi;
      mi = int'(w_rr_q) + k;
      mi = (mi >= NumWm) ? mi - NumWm : mi;
      m  = GW'(mi);
      if (!w_pick_ok && wm_awvalid_i[m] && m != GW'(NumEngines)) begin
        w_pick_ok = 1'b1;
        w_pick    = m;
      end
    end
  end

  assign w_route = route_of(dec_route_chip[0], dec_route_nbr[0], dec_id_valid[0],
                            dec_nbr_route[0], dec_exit_die[0], dec_local[0][45:0], w_len_q,
                            w_g_q == GW'(NumEngines), 1'b1, core_idx_i);

  always_comb begin
    unique case (w_tgt_q)
      TgtSbuf: w_tgt_wready = mem_wready_i[0] && own_q[0] == OwnOut;
      TgtDesc: w_tgt_wready = mem_wready_i[1] && own_q[1] == OwnOut;
      TgtLink: w_tgt_wready = link_wready_i;
      default: w_tgt_wready = 1'b1;
    endcase
  end

  assign w_hs = (w_st_q == WData) && w_tgt_wready && wm_wvalid_i[w_g_q];

  always_comb begin
    wm_awready_o = '0;
    wm_wready_o  = '0;
    wm_bvalid_o  = '0;
    wm_bresp_o   = bq_resp_q[bq_rp_q];
    if (w_st_q == WAddr) wm_awready_o[w_g_q] = 1'b1;
    if (w_st_q == WData) wm_wready_o[w_g_q] = w_tgt_wready;
    if (bq_head) wm_bvalid_o[bq_m_q[bq_rp_q]] = 1'b1;
    mem_awaddr_o   = {w_word_q, w_word_q};
    mem_awvalid_o  = '0;
    mem_wdata_o    = {wm_wdata_i[w_g_q], wm_wdata_i[w_g_q]};
    mem_wstrb_o    = {wm_wstrb_i[w_g_q], wm_wstrb_i[w_g_q]};
    mem_wlast_o    = {wm_wlast_i[w_g_q], wm_wlast_i[w_g_q]};
    mem_wvalid_o   = '0;
    mem_bready_o   = '0;
    link_awaddr_o  = w_addr_q;
    link_awlen_o   = w_len_q;
    link_awvalid_o = 1'b0;
    link_wdata_o   = wm_wdata_i[w_g_q];
    link_wstrb_o   = wm_wstrb_i[w_g_q];
    link_wlast_o   = wm_wlast_i[w_g_q];
    link_wvalid_o  = 1'b0;
    // every link B completes a queue entry that is waiting for it
    link_bready_o  = 1'b1;
    unique case (w_tgt_q)
      TgtSbuf, TgtDesc: ;
      TgtLink: begin
        link_awvalid_o = (w_st_q == WTgtAw) && lk_ok;
        link_wvalid_o  = (w_st_q == WData) && wm_wvalid_i[w_g_q];
      end
      default: ;
    endcase
    // memory ports follow their owner
    for (int unsigned k = 0; k < 2; k++) begin
      if (own_q[k] == OwnOut && (w_tgt_q == TgtSbuf || w_tgt_q == TgtDesc) &&
          w_tgt_q[0] == 1'(k)) begin
        mem_awvalid_o[k] = w_st_q == WTgtAw;
        mem_wvalid_o[k]  = (w_st_q == WData) && wm_wvalid_i[w_g_q];
        mem_bready_o[k]  = w_st_q == WResp;
      end else if (own_q[k] == OwnIn && (i_tgt_q == TgtSbuf || i_tgt_q == TgtDesc) &&
                   i_tgt_q[0] == 1'(k)) begin
        mem_awaddr_o[k]  = i_word_q;
        mem_wdata_o[k]   = wm_wdata_i[LinkM];
        mem_wstrb_o[k]   = wm_wstrb_i[LinkM];
        mem_wlast_o[k]   = wm_wlast_i[LinkM];
        mem_awvalid_o[k] = i_st_q == WTgtAw;
        mem_wvalid_o[k]  = (i_st_q == WData) && wm_wvalid_i[LinkM];
        mem_bready_o[k]  = i_st_q == WResp;
      end
    end
    if (i_st_q == WAddr) wm_awready_o[LinkM] = 1'b1;
    if (i_st_q == WData) wm_wready_o[LinkM] = i_tgt_wready;
    if (i_st_q == WBack) wm_bvalid_o[LinkM] = 1'b1;
  end

  assign lin_bresp_o = i_resp_q;

  // ---- in-path
  assign i_route = route_of(dec_route_chip[2], dec_route_nbr[2], dec_id_valid[2],
                            dec_nbr_route[2], dec_exit_die[2], dec_local[2][45:0], i_len_q,
                            1'b1, 1'b1, core_idx_i);

  always_comb begin
    unique case (i_tgt_q)
      TgtSbuf: i_tgt_wready = mem_wready_i[0] && own_q[0] == OwnIn;
      TgtDesc: i_tgt_wready = mem_wready_i[1] && own_q[1] == OwnIn;
      default: i_tgt_wready = 1'b1;
    endcase
  end

  assign i_hs = (i_st_q == WData) && i_tgt_wready && wm_wvalid_i[LinkM];

  always_comb begin
    i_st_d     = i_st_q;
    i_tgt_d    = i_tgt_q;
    i_addr_d   = i_addr_q;
    i_len_d    = i_len_q;
    i_word_d   = i_word_q;
    i_resp_d   = i_resp_q;
    inc2_v_d   = '0;
    inc2_i_d   = inc2_i_q;
    inc2_val_d = inc2_val_q;
    dec_valid[2] = 1'b0;
    dec_addr[2]  = i_addr_q;
    unique case (i_st_q)
      // one master: out of reset the in-path waits in WAddr (AWREADY high)
      WIdle: i_st_d = WAddr;
      WAddr: begin
        if (wm_awvalid_i[LinkM]) begin
          i_st_d   = WDec;
          i_addr_d = wm_awaddr_i[LinkM];
          i_len_d  = wm_awlen_i[LinkM];
        end
      end
      WDec: begin
        dec_valid[2] = 1'b1;
        i_st_d       = WRoute;
      end
      WRoute: begin
        i_tgt_d  = i_route.tgt;
        i_word_d = i_route.word;
        i_resp_d = i_route.resp;
        i_st_d   = (i_route.tgt == TgtSem || i_route.tgt == TgtErr) ? WData : WTgtAw;
      end
      WTgtAw: begin
        if (own_q[i_tgt_q[0]] == OwnIn && mem_awready_i[i_tgt_q[0]]) i_st_d = WData;
      end
      WData: begin
        if (i_hs) begin
          if (i_tgt_q == TgtSem) begin
            for (int unsigned l = 0; l < 2; l++) begin
              inc2_v_d[l]   = |wm_wstrb_i[LinkM][4*l +: 4];
              inc2_i_d[l]   = 8'(i_word_q * 2 + l);
              inc2_val_d[l] = wm_wdata_i[LinkM][32*l +: 32];
            end
            i_word_d = i_word_q + 32'd1;
          end
          if (wm_wlast_i[LinkM]) begin
            i_st_d = (i_tgt_q == TgtSem || i_tgt_q == TgtErr) ? WBack : WResp;
          end
        end
      end
      WResp: begin
        if (mem_bvalid_i[i_tgt_q[0]]) begin
          i_st_d   = WBack;
          i_resp_d = mem_bresp_i[i_tgt_q[0]];
        end
      end
      WBack: begin
        if (wm_bready_i[LinkM]) i_st_d = WAddr;
      end
      default: i_st_d = WIdle;
    endcase
  end

  // ---- memory owners (claimed in the target-AW state, released with the B response)
  always_comb begin
    own_d = own_q;
    for (int unsigned k = 0; k < 2; k++) begin
      logic out_w, in_w;
      out_w = w_st_q == WTgtAw && (w_tgt_q == TgtSbuf || w_tgt_q == TgtDesc) &&
              w_tgt_q[0] == 1'(k);
      in_w  = i_st_q == WTgtAw && (i_tgt_q == TgtSbuf || i_tgt_q == TgtDesc) &&
              i_tgt_q[0] == 1'(k);
      unique case (own_q[k])
        OwnNone: own_d[k] = in_w ? OwnIn : out_w ? OwnOut : OwnNone;
        OwnOut:  if (w_st_q == WResp && mem_bvalid_i[k]) own_d[k] = OwnNone;
        OwnIn:   if (i_st_q == WResp && mem_bvalid_i[k]) own_d[k] = OwnNone;
        default: own_d[k] = OwnNone;
      endcase
    end
  end

  assign dbg_in_o = {6'd0, own_q[1], own_q[0], i_tgt_q, i_st_q};

  always_comb begin
    w_st_d    = w_st_q;
    w_g_d     = w_g_q;
    w_rr_d    = w_rr_q;
    w_tgt_d   = w_tgt_q;
    w_addr_d  = w_addr_q;
    w_len_d   = w_len_q;
    w_word_d  = w_word_q;
    w_resp_d  = w_resp_q;
    w_cnt_d   = w_cnt_q;
    inc_v_d   = '0;
    inc_i_d   = inc_i_q;
    inc_val_d = inc_val_q;
    bq_push      = 1'b0;
    bq_push_done = 1'b1;
    bq_push_resp = w_resp_q;
    dec_valid[0] = 1'b0;
    dec_addr[0]  = w_addr_q;
    unique case (w_st_q)
      WIdle: begin
        // a burst is taken only with a free queue entry for its response
        if (w_pick_ok && bq_cnt_q != (BqPw + 1)'(BqDepth)) begin
          w_st_d = WAddr;
          w_g_d  = w_pick;
        end
      end
      WAddr: begin
        if (wm_awvalid_i[w_g_q]) begin
          w_st_d   = WDec;
          w_addr_d = wm_awaddr_i[w_g_q];
          w_len_d  = wm_awlen_i[w_g_q];
        end
      end
      WDec: begin
        dec_valid[0] = 1'b1;
        w_st_d       = WRoute;
      end
      WRoute: begin
        w_tgt_d  = w_route.tgt;
        w_word_d = w_route.word;
        w_resp_d = w_route.resp;
        w_cnt_d  = w_cnt_q + 8'd1;
        w_st_d   = (w_route.tgt == TgtSem || w_route.tgt == TgtErr) ? WData : WTgtAw;
      end
      WTgtAw: begin
        unique case (w_tgt_q)
          TgtSbuf: if (own_q[0] == OwnOut && mem_awready_i[0]) w_st_d = WData;
          TgtDesc: if (own_q[1] == OwnOut && mem_awready_i[1]) w_st_d = WData;
          default: if (lk_ok && link_awready_i) w_st_d = WData;
        endcase
      end
      WData: begin
        if (w_hs) begin
          if (w_tgt_q == TgtSem) begin
            for (int unsigned l = 0; l < 2; l++) begin
              inc_v_d[l]   = |wm_wstrb_i[w_g_q][4*l +: 4];
              inc_i_d[l]   = 8'(w_word_q * 2 + l);
              inc_val_d[l] = wm_wdata_i[w_g_q][32*l +: 32];
            end
            w_word_d = w_word_q + 32'd1;
          end
          if (wm_wlast_i[w_g_q]) begin
            if (w_tgt_q == TgtSbuf || w_tgt_q == TgtDesc) begin
              w_st_d = WResp;
            end else begin
              // SEM_INCR and error: answered now; link: posted, the entry
              // waits for the peer's B
              bq_push      = 1'b1;
              bq_push_done = w_tgt_q != TgtLink;
              w_st_d       = WIdle;
              w_rr_d       = (w_g_q == GW'(NumWm - 1)) ? '0 : w_g_q + 1'b1;
            end
          end
        end
      end
      WResp: begin
        if (mem_bvalid_i[w_tgt_q[0]]) begin
          bq_push      = 1'b1;
          bq_push_resp = mem_bresp_i[w_tgt_q[0]];
          w_st_d       = WIdle;
          w_rr_d       = (w_g_q == GW'(NumWm - 1)) ? '0 : w_g_q + 1'b1;
        end
      end
      default: w_st_d = WIdle;
    endcase
  end

  // ---- out-path response queue
  assign lk_ok    = lk_pend_q == '0 || w_addr_q[63:32] == lk_hi_q;
  assign lk_aw_hs = link_awvalid_o && link_awready_i;
  assign lk_b_hs  = link_bvalid_i && link_bready_o;
  assign bq_head  = bq_cnt_q != '0 && bq_done_q[bq_rp_q];
  assign bq_pop   = bq_head && wm_bready_i[bq_m_q[bq_rp_q]];

  always_comb begin
    logic found;
    bq_m_d    = bq_m_q;
    bq_done_d = bq_done_q;
    bq_resp_d = bq_resp_q;
    bq_wp_d   = bq_wp_q;
    bq_rp_d   = bq_rp_q;
    lk_pend_d = lk_pend_q + 3'(lk_aw_hs) - 3'(lk_b_hs);
    lk_hi_d   = lk_aw_hs ? w_addr_q[63:32] : lk_hi_q;
    found     = 1'b0;
    // a link B completes the oldest entry still waiting (link B responses
    // return in burst order, and only link entries wait)
    for (int unsigned k = 0; k < BqDepth; k++) begin
      logic [BqPw-1:0] idx;
      idx = bq_rp_q + BqPw'(k);
      if (lk_b_hs && !found && (BqPw + 1)'(k) < bq_cnt_q && !bq_done_q[idx]) begin
        found           = 1'b1;
        bq_done_d[idx]  = 1'b1;
        bq_resp_d[idx]  = link_bresp_i;
      end
    end
    if (bq_pop) bq_rp_d = bq_rp_q + 1'b1;
    if (bq_push) begin
      bq_m_d[bq_wp_q]    = w_g_q;
      bq_done_d[bq_wp_q] = bq_push_done;
      bq_resp_d[bq_wp_q] = bq_push_resp;
      bq_wp_d            = bq_wp_q + 1'b1;
    end
    bq_cnt_d = bq_cnt_q + (BqPw + 1)'(bq_push) - (BqPw + 1)'(bq_pop);
  end

  assign inc_valid_o = {inc2_v_q, inc_v_q};
  assign inc_idx_o   = {inc2_i_q, inc_i_q};
  assign inc_value_o = {inc2_val_q, inc_val_q};

  // -------------------------------------------------------------- read path
  rst_e                    r_st_q, r_st_d;
  logic [RGW-1:0]          r_g_q, r_g_d, r_rr_q, r_rr_d, r_pick;
  tgt_e                    r_tgt_q, r_tgt_d;
  logic [63:0]             r_addr_q, r_addr_d;
  logic [7:0]              r_len_q, r_len_d, r_cnt_q, r_cnt_d;
  logic [31:0]             r_word_q, r_word_d;
  logic [1:0]              r_resp_q, r_resp_d;
  logic                    r_pick_ok, r_mem;
  route_t                  r_route;

  always_comb begin
    r_pick_ok = 1'b0;
    r_pick    = '0;
    for (int unsigned k = 0; k < NumEngines; k++) begin
      logic [RGW-1:0] m;
      int unsigned    mi;
      mi = int'(r_rr_q) + k;
      mi = (mi >= NumEngines) ? mi - NumEngines : mi;
      m  = RGW'(mi);
      if (!r_pick_ok && rm_arvalid_i[m]) begin
        r_pick_ok = 1'b1;
        r_pick    = m;
      end
    end
  end

  assign r_route = route_of(dec_route_chip[1], dec_route_nbr[1], dec_id_valid[1],
                            dec_nbr_route[1], dec_exit_die[1], dec_local[1][45:0], r_len_q,
                            1'b0, 1'b0, core_idx_i);
  assign r_mem = r_tgt_q == TgtSbuf || r_tgt_q == TgtDesc;

  always_comb begin
    rm_arready_o  = '0;
    rm_rvalid_o   = '0;
    rm_rdata_o    = '0;
    rm_rresp_o    = r_resp_q;
    rm_rlast_o    = 1'b0;
    mem_araddr_o  = {r_word_q, r_word_q};
    mem_arlen_o   = r_len_q;
    mem_arvalid_o = '0;
    mem_rready_o  = '0;
    if (r_st_q == RAddr) rm_arready_o[r_g_q] = 1'b1;
    if (r_st_q == RData && r_mem) begin
      rm_rvalid_o[r_g_q]       = mem_rvalid_i[r_tgt_q[0]];
      rm_rdata_o               = mem_rdata_i[r_tgt_q[0]];
      rm_rresp_o               = mem_rresp_i[r_tgt_q[0]];
      rm_rlast_o               = mem_rlast_i[r_tgt_q[0]];
      mem_rready_o[r_tgt_q[0]] = rm_rready_i[r_g_q];
    end
    if (r_st_q == RTgtAr && r_mem) mem_arvalid_o[r_tgt_q[0]] = 1'b1;
    if (r_st_q == RErr) begin
      rm_rvalid_o[r_g_q] = 1'b1;
      rm_rlast_o         = r_cnt_q == r_len_q;
    end
  end

  always_comb begin
    r_st_d   = r_st_q;
    r_g_d    = r_g_q;
    r_rr_d   = r_rr_q;
    r_tgt_d  = r_tgt_q;
    r_addr_d = r_addr_q;
    r_len_d  = r_len_q;
    r_cnt_d  = r_cnt_q;
    r_word_d = r_word_q;
    r_resp_d = r_resp_q;
    dec_valid[1] = 1'b0;
    dec_addr[1]  = r_addr_q;
    unique case (r_st_q)
      RIdle: begin
        if (r_pick_ok) begin
          r_st_d = RAddr;
          r_g_d  = r_pick;
        end
      end
      RAddr: begin
        if (rm_arvalid_i[r_g_q]) begin
          r_st_d   = RDec;
          r_addr_d = rm_araddr_i[r_g_q];
          r_len_d  = rm_arlen_i[r_g_q];
        end
      end
      RDec: begin
        dec_valid[1] = 1'b1;
        r_st_d       = RRoute;
      end
      RRoute: begin
        r_tgt_d  = r_route.tgt;
        r_word_d = r_route.word;
        r_resp_d = r_route.resp;
        r_cnt_d  = '0;
        r_st_d   = (r_route.tgt == TgtSbuf || r_route.tgt == TgtDesc) ? RTgtAr : RErr;
      end
      RTgtAr: begin
        if (mem_arready_i[r_tgt_q[0]]) r_st_d = RData;
      end
      RData: begin
        if (mem_rvalid_i[r_tgt_q[0]] && rm_rready_i[r_g_q] && mem_rlast_i[r_tgt_q[0]]) begin
          r_st_d = RIdle;
          r_rr_d = (int'(r_g_q) == NumEngines - 1) ? '0 : r_g_q + 1'b1;
        end
      end
      RErr: begin
        if (rm_rready_i[r_g_q]) begin
          r_cnt_d = r_cnt_q + 8'd1;
          if (r_cnt_q == r_len_q) begin
            r_st_d = RIdle;
            r_rr_d = (int'(r_g_q) == NumEngines - 1) ? '0 : r_g_q + 1'b1;
          end
        end
      end
      default: r_st_d = RIdle;
    endcase
  end

  assign dbg_o = {w_cnt_q, inc_v_q, r_tgt_q, 5'(r_g_q), r_st_q, w_tgt_q, 5'(w_g_q), w_st_q};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      w_st_q    <= WIdle;
      w_g_q     <= '0;
      w_rr_q    <= '0;
      w_tgt_q   <= TgtErr;
      w_addr_q  <= '0;
      w_len_q   <= '0;
      w_word_q  <= '0;
      w_resp_q  <= '0;
      w_cnt_q   <= '0;
      inc_v_q   <= '0;
      inc_i_q   <= '0;
      inc_val_q <= '0;
      bq_m_q    <= '0;
      bq_done_q <= '0;
      bq_resp_q <= '0;
      bq_wp_q   <= '0;
      bq_rp_q   <= '0;
      bq_cnt_q  <= '0;
      lk_pend_q <= '0;
      lk_hi_q   <= '0;
      i_st_q    <= WIdle;
      i_tgt_q   <= TgtErr;
      i_addr_q  <= '0;
      i_len_q   <= '0;
      i_word_q  <= '0;
      i_resp_q  <= '0;
      inc2_v_q  <= '0;
      inc2_i_q  <= '0;
      inc2_val_q <= '0;
      own_q     <= '0;
      r_st_q    <= RIdle;
      r_g_q     <= '0;
      r_rr_q    <= '0;
      r_tgt_q   <= TgtErr;
      r_addr_q  <= '0;
      r_len_q   <= '0;
      r_cnt_q   <= '0;
      r_word_q  <= '0;
      r_resp_q  <= '0;
    end else begin
      w_st_q    <= w_st_d;
      w_g_q     <= w_g_d;
      w_rr_q    <= w_rr_d;
      w_tgt_q   <= w_tgt_d;
      w_addr_q  <= w_addr_d;
      w_len_q   <= w_len_d;
      w_word_q  <= w_word_d;
      w_resp_q  <= w_resp_d;
      w_cnt_q   <= w_cnt_d;
      inc_v_q   <= inc_v_d;
      inc_i_q   <= inc_i_d;
      inc_val_q <= inc_val_d;
      bq_m_q    <= bq_m_d;
      bq_done_q <= bq_done_d;
      bq_resp_q <= bq_resp_d;
      bq_wp_q   <= bq_wp_d;
      bq_rp_q   <= bq_rp_d;
      bq_cnt_q  <= bq_cnt_d;
      lk_pend_q <= lk_pend_d;
      lk_hi_q   <= lk_hi_d;
      i_st_q    <= i_st_d;
      i_tgt_q   <= i_tgt_d;
      i_addr_q  <= i_addr_d;
      i_len_q   <= i_len_d;
      i_word_q  <= i_word_d;
      i_resp_q  <= i_resp_d;
      inc2_v_q  <= inc2_v_d;
      inc2_i_q  <= inc2_i_d;
      inc2_val_q <= inc2_val_d;
      own_q     <= own_d;
      r_st_q    <= r_st_d;
      r_g_q     <= r_g_d;
      r_rr_q    <= r_rr_d;
      r_tgt_q   <= r_tgt_d;
      r_addr_q  <= r_addr_d;
      r_len_q   <= r_len_d;
      r_cnt_q   <= r_cnt_d;
      r_word_q  <= r_word_d;
      r_resp_q  <= r_resp_d;
    end
  end

endmodule : sb2sb_xbar
