// The AXI4 interconnect of one NeuronCore (docs/pair.md). The SBUF is banked
// by partition: NumBanks = NumEngines banks, bank b holding partitions
// b * PartsPerBank .. (b + 1) * PartsPerBank - 1 (PartsPerBank = 128 /
// NumBanks), each an axi4_sram with its own read and write port; the
// descriptor RAM is memory NumBanks. Every burst is routed with a
// cayman_addr_decode instance on the 57-bit SoC address (seed 001 §2).
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
//   read lanes: one per engine read master, each with its own decoder; per
//             memory a round-robin arbiter over the lanes whose burst targets
//             it. A memory's read port belongs to the granted lane from its AR
//             handshake to the RLAST handshake, so R returns to that lane only.
// Each memory's write port is claimed by one write path at a time (the
// in-path first when both claim the same memory in the same cycle); the
// out-path, the in-path and the read lanes use different memories at once.
//
//   routed to this core (SAME_DIE and LOCAL core index = core_idx_i):
//     0x0000_0000 + p * 0x20_0000 + off  SBUF partition p (window SbufWinBase..+SbufPartBytes),
//                                         bank p / PartsPerBank
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
  localparam int unsigned RGW   = (NumEngines > 1) ? $clog2(NumEngines) : 1,
  // memories: SBUF banks 0..NumBanks-1, descriptor RAM NumBanks
  localparam int unsigned NumBanks = NumEngines,
  localparam int unsigned NumMem   = NumBanks + 1,
  localparam int unsigned MW       = $clog2(NumMem)
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
  output logic [NumEngines-1:0][63:0] rm_rdata_o,
  output logic [NumEngines-1:0][1:0]  rm_rresp_o,
  output logic [NumEngines-1:0]       rm_rlast_o,
  output logic [NumEngines-1:0]       rm_rvalid_o,
  input  logic [NumEngines-1:0]       rm_rready_i,
  // memory targets (0..NumBanks-1 = SBUF banks, NumBanks = descriptor RAM;
  // word addresses inside the memory)
  output logic [NumMem-1:0][31:0]     mem_awaddr_o,
  output logic [NumMem-1:0]           mem_awvalid_o,
  input  logic [NumMem-1:0]           mem_awready_i,
  output logic [NumMem-1:0][63:0]     mem_wdata_o,
  output logic [NumMem-1:0][7:0]      mem_wstrb_o,
  output logic [NumMem-1:0]           mem_wlast_o,
  output logic [NumMem-1:0]           mem_wvalid_o,
  input  logic [NumMem-1:0]           mem_wready_i,
  input  logic [NumMem-1:0][1:0]      mem_bresp_i,
  input  logic [NumMem-1:0]           mem_bvalid_i,
  output logic [NumMem-1:0]           mem_bready_o,
  output logic [NumMem-1:0][31:0]     mem_araddr_o,
  output logic [NumMem-1:0][7:0]      mem_arlen_o,
  output logic [NumMem-1:0]           mem_arvalid_o,
  input  logic [NumMem-1:0]           mem_arready_i,
  input  logic [NumMem-1:0][63:0]     mem_rdata_i,
  input  logic [NumMem-1:0][1:0]      mem_rresp_i,
  input  logic [NumMem-1:0]           mem_rlast_i,
  input  logic [NumMem-1:0]           mem_rvalid_i,
  output logic [NumMem-1:0]           mem_rready_o,
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
  // [13:11] read lane 0 state, [18:14] read lane 0 memory, [21:19] read lane 0
  // target, [23:22] inc valid, [31:24] write bursts routed mod 256
  output logic [31:0]                 dbg_o,
  // debug: [2:0] in-path state, [5:3] in-path target, [7:6] SBUF bank 0 owner,
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
  // SBUF partitions per bank (bank = partition / PartsPerBank)
  localparam int unsigned PartsPerBank = 128 / NumBanks;
  localparam logic [MW-1:0] DescM = MW'(NumBanks);

  if (SbufPartBytes % 8 != 0 || SbufWinBase % 8 != 0 ||
      SbufWinBase + SbufPartBytes > 32'h20_0000) begin : gen_sbuf_check
    $error("sb2sb_xbar: SBUF window must be 8-byte aligned and inside a 2 MiB partition");
  end
  if (128 % NumBanks != 0) begin : gen_bank_check
    $error("sb2sb_xbar: NumEngines (the SBUF bank count) must divide the 128 partitions");
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
    WRoute = 3'd3,
    WTgtAw = 3'd4,
    WData  = 3'd5,
    WResp  = 3'd6,
    WBack  = 3'd7
  } wst_e;

  typedef enum logic [2:0] {
    RIdle  = 3'd0,
    RAddr  = 3'd1,
    RRoute = 3'd3,
    RTgtAr = 3'd4,
    RData  = 3'd5,
    RErr   = 3'd6
  } rst_e;

  typedef struct packed {
    tgt_e          tgt;
    logic [MW-1:0] mem;
    logic [31:0]   word;
    logic [1:0]    resp;
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
    logic [31:0] off, inpart, rel, bytes, part;
    r.tgt  = TgtErr;
    r.mem  = '0;
    r.word = '0;
    r.resp = 2'd3;
    route  = (id_valid && nbr_route && exit_die) ? route_nbr : route_chip;
    off    = loc[31:0];
    bytes  = ({24'd0, len} + 32'd1) << 3;
    inpart = {11'd0, off[20:0]} & ~32'd7;
    rel    = inpart - WinBase;
    part   = {25'd0, off[27:21]};
    if (route == sb2sb_pkg::ROUTE_SAME_DIE && loc[45:35] == '0 && loc[34:32] == core_idx) begin
      r.resp = 2'd2;
      if (off < EvtLo) begin
        if (inpart >= WinBase && rel + bytes <= PartBytes) begin
          r.tgt  = TgtSbuf;
          r.mem  = MW'(part / PartsPerBank);
          r.word = ((part % PartsPerBank) * PartBytes + rel) >> 3;
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
          r.mem  = DescM;
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
  // decoder 0: out-path, 1: in-path, 2 + e: read lane of engine e
  localparam int unsigned NumDec = NumEngines + 2;
  logic [NumDec-1:0]        dec_valid;
  logic [NumDec-1:0][63:0]  dec_addr;
  logic [NumDec-1:0][46:0]  dec_local;
  logic [NumDec-1:0]        dec_id_valid, dec_exit_die, dec_nbr_route;
  logic [NumDec-1:0][2:0]   dec_route_chip, dec_route_nbr;
  logic [NumDec-1:0]        unused_dec;
  logic [NumDec-1:0]        unused_host;

  for (genvar k = 0; k < NumDec; k++) begin : gen_dec
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
    // HOST [46] is classified by the decoder (ROUTE_HOST)
    assign unused_host[k] = dec_local[k][46];
  end

  // ------------------------------------------------------------- write path
  wst_e            w_st_q, w_st_d;
  logic [GW-1:0]   w_g_q, w_g_d, w_rr_q, w_rr_d;
  tgt_e            w_tgt_q, w_tgt_d;
  logic [MW-1:0]   w_mem_q, w_mem_d;
  logic [63:0]     w_addr_q, w_addr_d;
  logic [7:0]      w_len_q, w_len_d;
  logic [31:0]     w_word_q, w_word_d;
  logic [1:0]      w_resp_q, w_resp_d;
  logic [1:0]      inc_v_q, inc_v_d;
  logic [1:0][7:0] inc_i_q, inc_i_d;
  logic [1:0][31:0] inc_val_q, inc_val_d;
  logic [7:0]      w_cnt_q, w_cnt_d;
  logic            w_pick_ok, w_next_ok;
  logic [GW-1:0]   w_pick, w_next, w_rr_next;
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
  logic [MW-1:0]    i_mem_q, i_mem_d;
  logic [63:0]      i_addr_q, i_addr_d;
  logic [7:0]       i_len_q, i_len_d;
  logic [31:0]      i_word_q, i_word_d;
  logic [1:0]       i_resp_q, i_resp_d;
  logic [1:0]       inc2_v_q, inc2_v_d;
  logic [1:0][7:0]  inc2_i_q, inc2_i_d;
  logic [1:0][31:0] inc2_val_q, inc2_val_d;
  route_t           i_route;
  logic             i_tgt_wready, i_hs;
  // memory write-port owners: 0 none, 1 out-path, 2 in-path
  logic [NumMem-1:0][1:0] own_q, own_d;
  localparam logic [1:0] OwnNone = 2'd0;
  localparam logic [1:0] OwnOut  = 2'd1;
  localparam logic [1:0] OwnIn   = 2'd2;
  localparam logic [GW-1:0] LinkM = GW'(NumEngines);
  // per memory: a path in TGT_AW for it, and the path that may drive its
  // write lines this cycle (the owner, or the claimant of an unowned memory:
  // the in-path first), so the claim and the AW handshake share one cycle
  logic [NumMem-1:0] out_w, in_w, out_has, in_has;
  always_comb begin
    for (int unsigned k = 0; k < NumMem; k++) begin
      out_w[k]   = w_st_q == WTgtAw && (w_tgt_q == TgtSbuf || w_tgt_q == TgtDesc) &&
                   w_mem_q == MW'(k);
      in_w[k]    = i_st_q == WTgtAw && (i_tgt_q == TgtSbuf || i_tgt_q == TgtDesc) &&
                   i_mem_q == MW'(k);
      in_has[k]  = own_q[k] == OwnIn || (own_q[k] == OwnNone && in_w[k]);
      out_has[k] = own_q[k] == OwnOut || (own_q[k] == OwnNone && out_w[k] && !in_w[k]);
    end
  end

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

  // At the end of a burst the out-path takes the next master at once (the
  // round-robin pick from the master after the current one) when one
  // requests and the response queue keeps a free entry after this burst's.
  assign w_rr_next = (w_g_q == GW'(NumWm - 1)) ? '0 : w_g_q + 1'b1;
  always_comb begin
    w_next_ok = 1'b0;
    w_next    = '0;
    for (int unsigned k = 0; k < NumWm; k++) begin
      logic [GW-1:0] m;
      int unsigned   mi;
      mi = int'(w_rr_next) + k;
      mi = (mi >= NumWm) ? mi - NumWm : mi;
      m  = GW'(mi);
      if (!w_next_ok && wm_awvalid_i[m] && m != GW'(NumEngines)) begin
        w_next_ok = 1'b1;
        w_next    = m;
      end
    end
    if (bq_cnt_q + (BqPw + 1)'(1) >= (BqPw + 1)'(BqDepth)) w_next_ok = 1'b0;
  end

  assign w_route = route_of(dec_route_chip[0], dec_route_nbr[0], dec_id_valid[0],
                            dec_nbr_route[0], dec_exit_die[0], dec_local[0][45:0], w_len_q,
                            w_g_q == GW'(NumEngines), 1'b1, core_idx_i);

  always_comb begin
    unique case (w_tgt_q)
      TgtSbuf, TgtDesc: w_tgt_wready = mem_wready_i[w_mem_q] && own_q[w_mem_q] == OwnOut;
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
    mem_awaddr_o   = {NumMem{w_word_q}};
    mem_awvalid_o  = '0;
    mem_wdata_o    = {NumMem{wm_wdata_i[w_g_q]}};
    mem_wstrb_o    = {NumMem{wm_wstrb_i[w_g_q]}};
    mem_wlast_o    = {NumMem{wm_wlast_i[w_g_q]}};
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
    for (int unsigned k = 0; k < NumMem; k++) begin
      if (out_has[k] && (w_tgt_q == TgtSbuf || w_tgt_q == TgtDesc) &&
          w_mem_q == MW'(k)) begin
        mem_awvalid_o[k] = w_st_q == WTgtAw;
        mem_wvalid_o[k]  = (w_st_q == WData) && wm_wvalid_i[w_g_q];
        mem_bready_o[k]  = w_st_q == WResp;
      end else if (in_has[k] && (i_tgt_q == TgtSbuf || i_tgt_q == TgtDesc) &&
                   i_mem_q == MW'(k)) begin
        mem_awaddr_o[k]  = i_word_q;
        mem_wdata_o[k]   = wm_wdata_i[LinkM];
        mem_wstrb_o[k]   = wm_wstrb_i[LinkM];
        mem_wlast_o[k]   = wm_wlast_i[LinkM];
        mem_awvalid_o[k] = i_st_q == WTgtAw;
        mem_wvalid_o[k]  = (i_st_q == WData) && wm_wvalid_i[LinkM];
        // the memory's B goes straight to the link: one handshake on both
        mem_bready_o[k]  = (i_st_q == WResp) && wm_bready_i[LinkM];
      end
    end
    if (i_st_q == WAddr) wm_awready_o[LinkM] = 1'b1;
    if (i_st_q == WData) wm_wready_o[LinkM] = i_tgt_wready;
    if (i_st_q == WBack) wm_bvalid_o[LinkM] = 1'b1;
    if (i_st_q == WResp) wm_bvalid_o[LinkM] = mem_bvalid_i[i_mem_q];
  end

  // in WResp the memory's B response, else the in-path's own (SEM_INCR, error)
  assign lin_bresp_o = (i_st_q == WResp) ? mem_bresp_i[i_mem_q] : i_resp_q;

  // ---- in-path
  assign i_route = route_of(dec_route_chip[1], dec_route_nbr[1], dec_id_valid[1],
                            dec_nbr_route[1], dec_exit_die[1], dec_local[1][45:0], i_len_q,
                            1'b1, 1'b1, core_idx_i);

  always_comb begin
    unique case (i_tgt_q)
      TgtSbuf, TgtDesc: i_tgt_wready = mem_wready_i[i_mem_q] && own_q[i_mem_q] == OwnIn;
      default: i_tgt_wready = 1'b1;
    endcase
  end

  assign i_hs = (i_st_q == WData) && i_tgt_wready && wm_wvalid_i[LinkM];

  always_comb begin
    i_st_d     = i_st_q;
    i_tgt_d    = i_tgt_q;
    i_mem_d    = i_mem_q;
    i_addr_d   = i_addr_q;
    i_len_d    = i_len_q;
    i_word_d   = i_word_q;
    i_resp_d   = i_resp_q;
    inc2_v_d   = '0;
    inc2_i_d   = inc2_i_q;
    inc2_val_d = inc2_val_q;
    dec_valid[1] = 1'b0;
    dec_addr[1]  = i_addr_q;
    unique case (i_st_q)
      // one master: out of reset the in-path waits in WAddr (AWREADY high)
      WIdle: i_st_d = WAddr;
      // the decoder takes the address in the AW handshake cycle
      WAddr: begin
        dec_valid[1] = wm_awvalid_i[LinkM];
        dec_addr[1]  = wm_awaddr_i[LinkM];
        if (wm_awvalid_i[LinkM]) begin
          i_st_d   = WRoute;
          i_addr_d = wm_awaddr_i[LinkM];
          i_len_d  = wm_awlen_i[LinkM];
        end
      end
      WRoute: begin
        i_tgt_d  = i_route.tgt;
        i_mem_d  = i_route.mem;
        i_word_d = i_route.word;
        i_resp_d = i_route.resp;
        i_st_d   = (i_route.tgt == TgtSem || i_route.tgt == TgtErr) ? WData : WTgtAw;
      end
      WTgtAw: begin
        if (in_has[i_mem_q] && mem_awready_i[i_mem_q]) i_st_d = WData;
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
        if (mem_bvalid_i[i_mem_q] && wm_bready_i[LinkM]) i_st_d = WAddr;
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
    for (int unsigned k = 0; k < NumMem; k++) begin
      unique case (own_q[k])
        OwnNone: own_d[k] = in_w[k] ? OwnIn : out_w[k] ? OwnOut : OwnNone;
        OwnOut:  if (w_st_q == WResp && mem_bvalid_i[k]) own_d[k] = OwnNone;
        OwnIn:   if (i_st_q == WResp && mem_bvalid_i[k] && wm_bready_i[LinkM]) own_d[k] = OwnNone;
        default: own_d[k] = OwnNone;
      endcase
    end
  end

  assign dbg_in_o = {6'd0, own_q[NumBanks], own_q[0], i_tgt_q, i_st_q};

  always_comb begin
    w_st_d    = w_st_q;
    w_g_d     = w_g_q;
    w_rr_d    = w_rr_q;
    w_tgt_d   = w_tgt_q;
    w_mem_d   = w_mem_q;
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
      // the decoder takes the address in the AW handshake cycle
      WAddr: begin
        dec_valid[0] = wm_awvalid_i[w_g_q];
        dec_addr[0]  = wm_awaddr_i[w_g_q];
        if (wm_awvalid_i[w_g_q]) begin
          w_st_d   = WRoute;
          w_addr_d = wm_awaddr_i[w_g_q];
          w_len_d  = wm_awlen_i[w_g_q];
        end
      end
      WRoute: begin
        w_tgt_d  = w_route.tgt;
        w_mem_d  = w_route.mem;
        w_word_d = w_route.word;
        w_resp_d = w_route.resp;
        w_cnt_d  = w_cnt_q + 8'd1;
        w_st_d   = (w_route.tgt == TgtSem || w_route.tgt == TgtErr) ? WData : WTgtAw;
      end
      WTgtAw: begin
        unique case (w_tgt_q)
          TgtSbuf, TgtDesc: if (out_has[w_mem_q] && mem_awready_i[w_mem_q]) w_st_d = WData;
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
              w_st_d       = w_next_ok ? WAddr : WIdle;
              w_g_d        = w_next_ok ? w_next : w_g_q;
              w_rr_d       = w_rr_next;
            end
          end
        end
      end
      WResp: begin
        if (mem_bvalid_i[w_mem_q]) begin
          bq_push      = 1'b1;
          bq_push_resp = mem_bresp_i[w_mem_q];
          w_st_d       = w_next_ok ? WAddr : WIdle;
          w_g_d        = w_next_ok ? w_next : w_g_q;
          w_rr_d       = w_rr_next;
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

  // -------------------------------------------------------------- read lanes
  // One lane per engine read master: RIdle (after reset) -> RAddr (ARREADY
  // high; the decoder takes the address in the handshake cycle) -> RRoute -> RTgtAr (memory targets: until the memory's
  // arbiter grants the lane and the memory takes the AR) -> RData (until the
  // RLAST handshake) -> RAddr; a read outside every memory answers its
  // beats itself in RErr.
  rst_e                         r_st_q [NumEngines];
  rst_e                         r_st_d [NumEngines];
  tgt_e                         r_tgt_q [NumEngines];
  tgt_e                         r_tgt_d [NumEngines];
  logic [NumEngines-1:0][MW-1:0] r_mem_q, r_mem_d;
  logic [NumEngines-1:0][63:0]  r_addr_q, r_addr_d;
  logic [NumEngines-1:0][7:0]   r_len_q, r_len_d, r_cnt_q, r_cnt_d;
  logic [NumEngines-1:0][31:0]  r_word_q, r_word_d;
  logic [NumEngines-1:0][1:0]   r_resp_q, r_resp_d;
  route_t                       r_route [NumEngines];
  // per memory: the lane owning its read port (AR handshake to RLAST), the
  // round-robin pointer, this cycle's pick among the lanes in RTgtAr
  logic [NumMem-1:0]            ro_v_q, ro_v_d;
  logic [NumMem-1:0][RGW-1:0]   ro_q, ro_d, r_rr_q, r_rr_d, r_pick;
  logic [NumMem-1:0]            r_pick_ok;

  for (genvar e = 0; e < NumEngines; e++) begin : gen_rroute
    assign r_route[e] = route_of(dec_route_chip[2+e], dec_route_nbr[2+e], dec_id_valid[2+e],
                                 dec_nbr_route[2+e], dec_exit_die[2+e], dec_local[2+e][45:0],
                                 r_len_q[e], 1'b0, 1'b0, core_idx_i);
  end

  // Round-robin pick per memory over the lanes waiting in RTgtAr for it, in
  // lane order from the memory's pointer (< NumEngines; a wrap by subtraction).
  always_comb begin
    r_pick_ok = '0;
    r_pick    = '0;
    for (int unsigned k = 0; k < NumMem; k++) begin
      for (int unsigned j = 0; j < NumEngines; j++) begin
        int unsigned li;
        li = int'(r_rr_q[k]) + j;
        li = (li >= NumEngines) ? li - NumEngines : li;
        if (!r_pick_ok[k] && r_st_q[li] == RTgtAr && r_mem_q[li] == MW'(k)) begin
          r_pick_ok[k] = 1'b1;
          r_pick[k]    = RGW'(li);
        end
      end
    end
  end

  always_comb begin
    rm_arready_o  = '0;
    rm_rvalid_o   = '0;
    rm_rdata_o    = '0;
    rm_rlast_o    = '0;
    mem_arvalid_o = '0;
    mem_rready_o  = '0;
    for (int unsigned e = 0; e < NumEngines; e++) begin
      rm_rresp_o[e] = r_resp_q[e];
      if (r_st_q[e] == RAddr) rm_arready_o[e] = 1'b1;
      if (r_st_q[e] == RData) begin
        rm_rvalid_o[e] = mem_rvalid_i[r_mem_q[e]];
        rm_rdata_o[e]  = mem_rdata_i[r_mem_q[e]];
        rm_rresp_o[e]  = mem_rresp_i[r_mem_q[e]];
        rm_rlast_o[e]  = mem_rlast_i[r_mem_q[e]];
      end
      if (r_st_q[e] == RErr) begin
        rm_rvalid_o[e] = 1'b1;
        rm_rlast_o[e]  = r_cnt_q[e] == r_len_q[e];
      end
    end
    for (int unsigned k = 0; k < NumMem; k++) begin
      mem_araddr_o[k]  = r_word_q[r_pick[k]];
      mem_arlen_o[k]   = r_len_q[r_pick[k]];
      mem_arvalid_o[k] = !ro_v_q[k] && r_pick_ok[k];
      mem_rready_o[k]  = ro_v_q[k] && rm_rready_i[ro_q[k]];
    end
  end

  always_comb begin
    ro_v_d = ro_v_q;
    ro_d   = ro_q;
    r_rr_d = r_rr_q;
    for (int unsigned k = 0; k < NumMem; k++) begin
      if (mem_arvalid_o[k] && mem_arready_i[k]) begin
        ro_v_d[k] = 1'b1;
        ro_d[k]   = r_pick[k];
        r_rr_d[k] = (int'(r_pick[k]) == NumEngines - 1) ? '0 : r_pick[k] + 1'b1;
      end else if (ro_v_q[k] && mem_rvalid_i[k] && mem_rready_o[k] && mem_rlast_i[k]) begin
        ro_v_d[k] = 1'b0;
      end
    end
  end

  always_comb begin
    for (int unsigned e = 0; e < NumEngines; e++) begin
      r_st_d[e]   = r_st_q[e];
      r_tgt_d[e]  = r_tgt_q[e];
      r_mem_d[e]  = r_mem_q[e];
      r_addr_d[e] = r_addr_q[e];
      r_len_d[e]  = r_len_q[e];
      r_cnt_d[e]  = r_cnt_q[e];
      r_word_d[e] = r_word_q[e];
      r_resp_d[e] = r_resp_q[e];
      dec_valid[2+e] = 1'b0;
      dec_addr[2+e]  = r_addr_q[e];
      unique case (r_st_q[e])
        // one master: out of reset the lane waits in RAddr (ARREADY high)
        RIdle: r_st_d[e] = RAddr;
        RAddr: begin
          dec_valid[2+e] = rm_arvalid_i[e];
          dec_addr[2+e]  = rm_araddr_i[e];
          if (rm_arvalid_i[e]) begin
            r_st_d[e]   = RRoute;
            r_addr_d[e] = rm_araddr_i[e];
            r_len_d[e]  = rm_arlen_i[e];
          end
        end
        RRoute: begin
          r_tgt_d[e]  = r_route[e].tgt;
          r_mem_d[e]  = r_route[e].mem;
          r_word_d[e] = r_route[e].word;
          r_resp_d[e] = r_route[e].resp;
          r_cnt_d[e]  = '0;
          r_st_d[e]   = (r_route[e].tgt == TgtSbuf || r_route[e].tgt == TgtDesc) ? RTgtAr : RErr;
        end
        RTgtAr: begin
          if (mem_arvalid_o[r_mem_q[e]] && r_pick[r_mem_q[e]] == RGW'(e) &&
              mem_arready_i[r_mem_q[e]]) begin
            r_st_d[e] = RData;
          end
        end
        RData: begin
          if (mem_rvalid_i[r_mem_q[e]] && rm_rready_i[e] && mem_rlast_i[r_mem_q[e]]) begin
            r_st_d[e] = RAddr;
          end
        end
        RErr: begin
          if (rm_rready_i[e]) begin
            r_cnt_d[e] = r_cnt_q[e] + 8'd1;
            if (r_cnt_q[e] == r_len_q[e]) r_st_d[e] = RAddr;
          end
        end
        default: r_st_d[e] = RIdle;
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned e = 0; e < NumEngines; e++) begin
        r_st_q[e]  <= RIdle;
        r_tgt_q[e] <= TgtErr;
      end
      r_mem_q  <= '0;
      r_addr_q <= '0;
      r_len_q  <= '0;
      r_cnt_q  <= '0;
      r_word_q <= '0;
      r_resp_q <= '0;
      ro_v_q   <= '0;
      ro_q     <= '0;
      r_rr_q   <= '0;
    end else begin
      for (int unsigned e = 0; e < NumEngines; e++) begin
        r_st_q[e]  <= r_st_d[e];
        r_tgt_q[e] <= r_tgt_d[e];
      end
      r_mem_q  <= r_mem_d;
      r_addr_q <= r_addr_d;
      r_len_q  <= r_len_d;
      r_cnt_q  <= r_cnt_d;
      r_word_q <= r_word_d;
      r_resp_q <= r_resp_d;
      ro_v_q   <= ro_v_d;
      ro_q     <= ro_d;
      r_rr_q   <= r_rr_d;
    end
  end

  assign dbg_o = {w_cnt_q, inc_v_q, r_tgt_q[0], 5'(r_mem_q[0]), r_st_q[0], w_tgt_q, 5'(w_g_q),
                  w_st_q};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      w_st_q    <= WIdle;
      w_g_q     <= '0;
      w_rr_q    <= '0;
      w_tgt_q   <= TgtErr;
      w_mem_q   <= '0;
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
      i_mem_q   <= '0;
      i_addr_q  <= '0;
      i_len_q   <= '0;
      i_word_q  <= '0;
      i_resp_q  <= '0;
      inc2_v_q  <= '0;
      inc2_i_q  <= '0;
      inc2_val_q <= '0;
      own_q     <= '0;
    end else begin
      w_st_q    <= w_st_d;
      w_g_q     <= w_g_d;
      w_rr_q    <= w_rr_d;
      w_tgt_q   <= w_tgt_d;
      w_mem_q   <= w_mem_d;
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
      i_mem_q   <= i_mem_d;
      i_addr_q  <= i_addr_d;
      i_len_q   <= i_len_d;
      i_word_q  <= i_word_d;
      i_resp_q  <= i_resp_d;
      inc2_v_q  <= inc2_v_d;
      inc2_i_q  <= inc2_i_d;
      inc2_val_q <= inc2_val_d;
      own_q     <= own_d;
    end
  end

endmodule : sb2sb_xbar
