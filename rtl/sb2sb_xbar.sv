// The AXI4 interconnect of one NeuronCore (docs/pair.md). The SBUF is banked
// by partition: NumBanks = NumEngines banks, bank b holding partitions
// b * PartsPerBank .. (b + 1) * PartsPerBank - 1 (PartsPerBank = 128 /
// NumBanks), each an axi4_sram with its own read and write port; the
// descriptor RAM is memory NumBanks. Every burst is routed with a
// cayman_addr_decode instance on the 57-bit SoC address (seed 001 §2).
//   write lanes: one per write master (engine e: lane e, the Q7 memory port:
//             lane NumEngines), each with its own decoder and an in-order
//             response queue (BqDepth entries, one per burst in issue order).
//             A burst to the link is posted: the lane takes its next burst
//             once the WLAST beat went into the link, and the entry completes
//             when the peer's B comes back (after the write committed there);
//             SBUF and descriptor-RAM bursts complete their entry at the
//             SRAM's B, SEM_INCR and error bursts at their WLAST. The head
//             entry, once completed, is the lane's B, so every master sees its
//             B responses in issue order.
//   in-lanes: one per incoming link lane (the peer's bursts), local targets
//             only, the SRAM's B passed straight back to its own link lane.
//   read lanes: one per engine read master, each with its own decoder.
// Per target a round-robin arbiter (rr_pick) over the lanes waiting for it:
// each memory's write port (write lanes and in-lanes; the winner owns it from
// the AW handshake to the SRAM's B), each memory's read port (read lanes, AR
// to RLAST), the SEM_INCR window of the write lanes (increment ports 0/1) and
// of the in-lanes (ports 2/3) (one owner each, grant to WLAST), and each link
// lane (write lane e uses link lane e mod NumLk, the Q7 lane link lane 0;
// the winner owns it from AW to WLAST). Link bursts outstanding on one link
// lane share one destination (address bits [63:32]): a link burst to another
// destination waits in TGT_AW until that lane's earlier link B returned.
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
  // link lanes per direction (io_d2d_link instances), in-lanes
  parameter int unsigned NumLk         = NumEngines,
  // data width of the engines, memories and link lanes (one word per beat)
  parameter int unsigned DataBits      = int'(sb2sb_pkg::ENGINE_DATA_BITS),
  localparam int unsigned BB  = DataBits / 8,
  // 32-bit lanes of a beat: the EVT_SEM increment ports per side
  localparam int unsigned IncL = DataBits / 32,
  // write lanes: the engines, then the Q7 memory port
  localparam int unsigned NumWl = NumEngines + 1,
  // write-port requesters of a memory: write lanes, then in-lanes
  localparam int unsigned NumRq = NumWl + NumLk,
  // response queue entries per write lane (bursts whose B the master has not taken)
  localparam int unsigned BqDepth = 8,
  localparam int unsigned BqPw    = $clog2(BqDepth),
  // link bursts awaiting B per link lane (owner FIFO entries)
  localparam int unsigned LkDepth = 8,
  localparam int unsigned LkPw    = $clog2(LkDepth),
  localparam int unsigned RGW   = (NumEngines > 1) ? $clog2(NumEngines) : 1,
  localparam int unsigned QW    = $clog2(NumRq),
  localparam int unsigned JW    = $clog2(NumWl),
  localparam int unsigned LW    = (NumLk > 1) ? $clog2(NumLk) : 1,
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
  // write masters: engines 0..NumEngines-1, Q7 memory port NumEngines
  input  logic [NumWl-1:0][63:0]      wm_awaddr_i,
  input  logic [NumWl-1:0][7:0]       wm_awlen_i,
  input  logic [NumWl-1:0]            wm_awvalid_i,
  output logic [NumWl-1:0]            wm_awready_o,
  input  logic [NumWl-1:0][DataBits-1:0] wm_wdata_i,
  input  logic [NumWl-1:0][BB-1:0]    wm_wstrb_i,
  input  logic [NumWl-1:0]            wm_wlast_i,
  input  logic [NumWl-1:0]            wm_wvalid_i,
  output logic [NumWl-1:0]            wm_wready_o,
  output logic [NumWl-1:0][1:0]       wm_bresp_o,
  output logic [NumWl-1:0]            wm_bvalid_o,
  input  logic [NumWl-1:0]            wm_bready_i,
  // link-in masters (far sides of the incoming link lanes)
  input  logic [NumLk-1:0][63:0]      lin_awaddr_i,
  input  logic [NumLk-1:0][7:0]       lin_awlen_i,
  input  logic [NumLk-1:0]            lin_awvalid_i,
  output logic [NumLk-1:0]            lin_awready_o,
  input  logic [NumLk-1:0][DataBits-1:0] lin_wdata_i,
  input  logic [NumLk-1:0][BB-1:0]    lin_wstrb_i,
  input  logic [NumLk-1:0]            lin_wlast_i,
  input  logic [NumLk-1:0]            lin_wvalid_i,
  output logic [NumLk-1:0]            lin_wready_o,
  output logic [NumLk-1:0][1:0]       lin_bresp_o,
  output logic [NumLk-1:0]            lin_bvalid_o,
  input  logic [NumLk-1:0]            lin_bready_i,
  // read masters: engines
  input  logic [NumEngines-1:0][63:0] rm_araddr_i,
  input  logic [NumEngines-1:0][7:0]  rm_arlen_i,
  input  logic [NumEngines-1:0]       rm_arvalid_i,
  output logic [NumEngines-1:0]       rm_arready_o,
  output logic [NumEngines-1:0][DataBits-1:0] rm_rdata_o,
  output logic [NumEngines-1:0][1:0]  rm_rresp_o,
  output logic [NumEngines-1:0]       rm_rlast_o,
  output logic [NumEngines-1:0]       rm_rvalid_o,
  input  logic [NumEngines-1:0]       rm_rready_i,
  // memory targets (0..NumBanks-1 = SBUF banks, NumBanks = descriptor RAM;
  // word addresses inside the memory, one DataBits word per beat)
  output logic [NumMem-1:0][31:0]     mem_awaddr_o,
  output logic [NumMem-1:0]           mem_awvalid_o,
  input  logic [NumMem-1:0]           mem_awready_i,
  output logic [NumMem-1:0][DataBits-1:0] mem_wdata_o,
  output logic [NumMem-1:0][BB-1:0]   mem_wstrb_o,
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
  input  logic [NumMem-1:0][DataBits-1:0] mem_rdata_i,
  input  logic [NumMem-1:0][1:0]      mem_rresp_i,
  input  logic [NumMem-1:0]           mem_rlast_i,
  input  logic [NumMem-1:0]           mem_rvalid_i,
  output logic [NumMem-1:0]           mem_rready_o,
  // link lanes (out of the core, full SoC address)
  output logic [NumLk-1:0][63:0]      link_awaddr_o,
  output logic [NumLk-1:0][7:0]       link_awlen_o,
  output logic [NumLk-1:0]            link_awvalid_o,
  input  logic [NumLk-1:0]            link_awready_i,
  output logic [NumLk-1:0][DataBits-1:0] link_wdata_o,
  output logic [NumLk-1:0][BB-1:0]    link_wstrb_o,
  output logic [NumLk-1:0]            link_wlast_o,
  output logic [NumLk-1:0]            link_wvalid_o,
  input  logic [NumLk-1:0]            link_wready_i,
  input  logic [NumLk-1:0][1:0]       link_bresp_i,
  input  logic [NumLk-1:0]            link_bvalid_i,
  output logic [NumLk-1:0]            link_bready_o,
  // EVT_SEM increment ports: 0..IncL-1 = the 32-bit lanes of a SEM_INCR beat
  // of the write lanes' window owner, IncL..2*IncL-1 = of the in-lanes' owner
  output logic [2*IncL-1:0]           inc_valid_o,
  output logic [2*IncL-1:0][7:0]      inc_idx_o,
  output logic [2*IncL-1:0][31:0]     inc_value_o,
  // debug: [2:0] write lane 0 state, [7:3] SBUF bank 0 write owner, [10:8]
  // write lane 0 target, [13:11] read lane 0 state, [18:14] read lane 0
  // memory, [21:19] read lane 0 target, [23:22] inc valid of ports 0/1, [31:24] write
  // bursts routed by the write lanes mod 256
  output logic [31:0]                 dbg_o,
  // debug: [2:0] in-lane 0 state, [5:3] in-lane 0 target, [7:6] SBUF bank 0
  // owner, [9:8] descriptor RAM owner (0 none, 1 a write lane, 2 an in-lane)
  output logic [15:0]                 dbg_in_o,
  // destination of each link lane (address bits [63:32], for the SoC fabric's
  // route): while link bursts await B their shared destination, otherwise the
  // address of the lane's current write-lane candidate; valid when either exists
  output logic [NumLk-1:0][31:0]      link_dest_o,
  output logic [NumLk-1:0]            link_dest_valid_o
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
  // bytes of a beat: log2 and the in-beat offset mask
  localparam int unsigned   BbLog    = $clog2(BB);
  localparam logic [31:0]   BeatMask = 32'(BB - 1);

  if (SbufPartBytes % BB != 0 || SbufWinBase % BB != 0 ||
      SbufWinBase + SbufPartBytes > 32'h20_0000) begin : gen_sbuf_check
    $error("sb2sb_xbar: SBUF window must be beat aligned and inside a 2 MiB partition");
  end
  if (DataBits != 64 && DataBits != 128 && DataBits != 256) begin : gen_width_check
    $error("sb2sb_xbar: DataBits must be 64, 128 or 256");
  end
  if (128 % NumBanks != 0) begin : gen_bank_check
    $error("sb2sb_xbar: NumEngines (the SBUF bank count) must divide the 128 partitions");
  end
  if (NumLk < 1 || NumLk > NumEngines || NumRq > 64) begin : gen_lane_check
    $error("sb2sb_xbar: NumLk must be 1..NumEngines");
  end

  typedef enum logic [2:0] {
    TgtSbuf = 3'd0,
    TgtDesc = 3'd1,
    TgtSem  = 3'd2,
    TgtLink = 3'd3,
    TgtErr  = 3'd4
  } tgt_e;

  // data stage of the write lanes (every state) and of the in-lanes (WIdle,
  // WTgtAw, WData)
  typedef enum logic [2:0] {
    WIdle  = 3'd0,
    WTgtAw = 3'd4,
    WData  = 3'd5,
    WResp  = 3'd6
  } wst_e;

  // address stage of the write lanes and of the in-lanes
  typedef enum logic [1:0] {
    IaIdle  = 2'd0,
    IaAddr  = 2'd1,
    IaRoute = 2'd2
  } iast_e;

  // read lanes' address stage
  typedef enum logic [2:0] {
    RIdle  = 3'd0,
    RAddr  = 3'd1,
    RRoute = 3'd3
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
    bytes  = ({24'd0, len} + 32'd1) << BbLog;
    inpart = {11'd0, off[20:0]} & ~BeatMask;
    rel    = inpart - WinBase;
    part   = {25'd0, off[27:21]};
    if (route == sb2sb_pkg::ROUTE_SAME_DIE && loc[45:35] == '0 && loc[34:32] == core_idx) begin
      r.resp = 2'd2;
      if (off < EvtLo) begin
        if (inpart >= WinBase && rel + bytes <= PartBytes) begin
          r.tgt  = TgtSbuf;
          r.mem  = MW'(part / PartsPerBank);
          r.word = ((part % PartsPerBank) * PartBytes + rel) >> BbLog;
          r.resp = 2'd0;
        end
      end else if (off >= EvtIncrLo && off < EvtIncrHi && wr) begin
        if ((off & ~BeatMask) + bytes <= EvtIncrHi) begin
          r.tgt  = TgtSem;
          r.word = (off - EvtIncrLo) >> BbLog;
          r.resp = 2'd0;
        end
      end else if (off >= DescLo && off < DescHi) begin
        if ((off & ~BeatMask) + bytes <= DescHi) begin
          r.tgt  = TgtDesc;
          r.mem  = DescM;
          r.word = (off - DescLo) >> BbLog;
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

  // Round-robin pick, the one arbiter rule of the interconnect: the first
  // requester of req (bit q = requester q) at or after the pointer rr, else
  // the first one from 0. Returns {found, index}.
  function automatic logic [6:0] rr_pick(input logic [63:0] req, input logic [5:0] rr);
    logic [63:0] m;
    logic [6:0]  r;
    m = req & ({64{1'b1}} << rr);
    if (m == '0) m = req;
    r = '0;
    for (int i = 63; i >= 0; i--) begin
      if (m[i]) r = {1'b1, 6'(i)};
    end
    return r;
  endfunction

  // The pointer after a grant of requester q among n: q + 1, wrapping to 0.
  function automatic logic [5:0] rr_after(input logic [5:0] q, input int unsigned n);
    return (32'(q) + 1 >= n) ? 6'd0 : q + 6'd1;
  endfunction

  // Link lane of write lane j: engine e uses link lane e mod NumLk, the Q7 lane link lane 0.
  function automatic int unsigned lk_of(input int unsigned j);
    return (j < NumEngines) ? j % NumLk : 0;
  endfunction

  // ---------------------------------------------------------------- decoders
  // decoder j: write lane j, NumWl + i: in-lane i, NumWl + NumLk + e: read lane e
  localparam int unsigned InD  = NumWl;
  localparam int unsigned RdD  = NumWl + NumLk;
  localparam int unsigned NumDec = NumWl + NumLk + NumEngines;
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

  // ------------------------------------------------------------- state
  // write lanes: address stage (the next burst's AW and route, taken while
  // the data stage streams) and data stage
  iast_e                         wl_a_q [NumWl];
  iast_e                         wl_a_d [NumWl];
  logic [NumWl-1:0][63:0]        wl_aaddr_q, wl_aaddr_d;
  logic [NumWl-1:0][7:0]         wl_alen_q, wl_alen_d;
  wst_e                          wl_st_q [NumWl];
  wst_e                          wl_st_d [NumWl];
  tgt_e                          wl_tgt_q [NumWl];
  tgt_e                          wl_tgt_d [NumWl];
  logic [NumWl-1:0][MW-1:0]      wl_mem_q, wl_mem_d;
  logic [NumWl-1:0][63:0]        wl_addr_q, wl_addr_d;
  logic [NumWl-1:0][7:0]         wl_len_q, wl_len_d;
  logic [NumWl-1:0][31:0]        wl_word_q, wl_word_d;
  logic [NumWl-1:0][1:0]         wl_resp_q, wl_resp_d;
  route_t                        wl_route [NumWl];
  // the target a lane asks for: the decoder's route when the idle data
  // stage takes the address stage's burst (wl_take: ROUTE, the route is known
  // and handed over in one cycle), the registered one in WTgtAw; the burst's
  // address and length likewise
  tgt_e                          wl_etgt [NumWl];
  logic [NumWl-1:0][MW-1:0]      wl_emem;
  logic [NumWl-1:0][31:0]        wl_eword;
  logic [NumWl-1:0][63:0]        wl_eaddr;
  logic [NumWl-1:0][7:0]         wl_elen;
  logic [NumWl-1:0]              wl_req, wl_take, wl_aw_go, wl_wrdy, wl_hs, wl_w_go, wl_b_hs;
  logic [7:0]                    w_cnt_q, w_cnt_d;
  // write lanes' response queues (in issue order)
  logic [NumWl-1:0][BqDepth-1:0]      bq_done_q, bq_done_d;
  logic [NumWl-1:0][BqDepth-1:0][1:0] bq_resp_q, bq_resp_d;
  logic [NumWl-1:0][BqPw-1:0]         bq_wp_q, bq_wp_d, bq_rp_q, bq_rp_d;
  logic [NumWl-1:0][BqPw:0]           bq_cnt_q, bq_cnt_d;
  logic [NumWl-1:0]                   bq_push, bq_push_done, bq_pop, bq_head, wl_lk_b;
  logic [NumWl-1:0][1:0]              bq_push_resp, wl_lk_bresp;
  // in-lanes: address stage (the burst's AW and route), data stage (its
  // target, W beats) and the B response waiting to go back over the link
  iast_e                         il_a_q [NumLk];
  iast_e                         il_a_d [NumLk];
  wst_e                          il_st_q [NumLk];
  wst_e                          il_st_d [NumLk];
  tgt_e                          il_tgt_q [NumLk];
  tgt_e                          il_tgt_d [NumLk];
  logic [NumLk-1:0][MW-1:0]      il_mem_q, il_mem_d;
  logic [NumLk-1:0][7:0]         il_len_q, il_len_d;
  logic [NumLk-1:0][31:0]        il_word_q, il_word_d;
  logic [NumLk-1:0][1:0]         il_resp_q, il_resp_d;
  logic [NumLk-1:0]              il_bp_q, il_bp_d, il_bps_q, il_bps_d;
  logic [NumLk-1:0][MW-1:0]      il_bpm_q, il_bpm_d;
  logic [NumLk-1:0][1:0]         il_bpr_q, il_bpr_d;
  route_t                        il_route [NumLk];
  logic [NumLk-1:0]              il_aw_go, il_wrdy, il_w_go, il_hs, il_take, il_b_hs, il_bp_ok;
  // memory write ports: W owner (claimed at the arbiter's pick, released at
  // its WLAST beat), B owners (from that WLAST to the SRAM's B handshake, in
  // WLAST order: the SRAM's two-entry response queue, head at [0]), pointer,
  // this cycle's pick and claimant
  logic [NumMem-1:0]             wo_v_q, wo_v_d, mem_b_hs, wo_end;
  logic [NumMem-1:0][1:0]        bo_n_q, bo_n_d;
  logic [NumMem-1:0][1:0][QW-1:0] bo_q, bo_d;
  logic [NumMem-1:0][QW-1:0]     wo_q, wo_d, mw_rr_q, mw_rr_d, mw_pick, mc;
  logic [NumMem-1:0]             mw_pick_ok, mc_ok;
  logic [NumMem-1:0][NumRq-1:0]  mw_req;
  // SEM_INCR window: write lanes' owner (ports 0/1) and in-lanes' owner (ports 2/3)
  logic                          ls_v_q, ls_v_d, is_v_q, is_v_d;
  logic [JW-1:0]                 ls_q, ls_d, ls_rr_q, ls_rr_d, ls_pick;
  logic [LW-1:0]                 is_q, is_d, is_rr_q, is_rr_d, is_pick;
  logic                          ls_pick_ok, is_pick_ok;
  logic [IncL-1:0]               inc_v_q, inc_v_d, inc2_v_q, inc2_v_d;
  logic [IncL-1:0][7:0]          inc_i_q, inc_i_d, inc2_i_q, inc2_i_d;
  logic [IncL-1:0][31:0]         inc_val_q, inc_val_d, inc2_val_q, inc2_val_d;
  // link lanes: owner (AW to WLAST), pointer, pick, claimant, link bursts
  // awaiting B (their write lanes in a FIFO) and their destination
  logic [NumLk-1:0]              lo_v_q, lo_v_d, lk_pick_ok, lc_ok, lk_ok, lk_aw_hs;
  logic [NumLk-1:0][JW-1:0]      lo_q, lo_d, lk_rr_q, lk_rr_d, lk_pick, lc;
  logic [NumLk-1:0][LkDepth-1:0][JW-1:0] lf_q, lf_d;
  logic [NumLk-1:0][LkPw-1:0]    lf_wp_q, lf_wp_d, lf_rp_q, lf_rp_d;
  logic [NumLk-1:0][LkPw:0]      lk_pend_q, lk_pend_d;
  logic [NumLk-1:0][31:0]        lk_hi_q, lk_hi_d;

  // -------------------------------------------------------------- write lanes
  // Address stage: IaIdle (after reset) -> IaAddr (AWREADY while the response
  // queue has room for it and the data stage's burst; the decoder takes the
  // address in the handshake cycle) -> IaRoute (the decoder's route, held
  // until the data stage takes it) -> IaAddr, so the next burst's AW is taken
  // and routed while a burst's beats stream. Data stage: WIdle, taking the
  // held route (ROUTE: it asks for the target in the same cycle) -> WTgtAw
  // (until the target's arbiter grants the lane and the target takes the AW;
  // error bursts skip it) -> WData (until WLAST) -> WResp (SBUF and
  // descriptor RAM: until the SRAM's B) -> WIdle.
  for (genvar j = 0; j < NumWl; j++) begin : gen_wroute
    assign wl_route[j] = route_of(dec_route_chip[j], dec_route_nbr[j], dec_id_valid[j],
                                  dec_nbr_route[j], dec_exit_die[j], dec_local[j][45:0],
                                  wl_alen_q[j], 1'b0, 1'b1, core_idx_i);
  end

  // The target each write lane asks for (wl_req): in ROUTE the decoder's
  // route, in WTgtAw the registered one.
  always_comb begin
    for (int unsigned j = 0; j < NumWl; j++) begin
      wl_take[j] = wl_st_q[j] == WIdle && wl_a_q[j] == IaRoute;
      if (wl_take[j]) begin
        wl_etgt[j]  = wl_route[j].tgt;
        wl_emem[j]  = wl_route[j].mem;
        wl_eword[j] = wl_route[j].word;
        wl_eaddr[j] = wl_aaddr_q[j];
        wl_elen[j]  = wl_alen_q[j];
      end else begin
        wl_etgt[j]  = wl_tgt_q[j];
        wl_emem[j]  = wl_mem_q[j];
        wl_eword[j] = wl_word_q[j];
        wl_eaddr[j] = wl_addr_q[j];
        wl_elen[j]  = wl_len_q[j];
      end
      wl_req[j] = wl_st_q[j] == WTgtAw || (wl_take[j] && wl_route[j].tgt != TgtErr);
    end
  end

  // Target side of each write lane: its AW taken (wl_aw_go), its W ready in
  // WData (wl_wrdy), a beat taken (wl_hs). The first beat of a link or
  // memory burst may go with its AW (the link lane takes W and AW
  // independently; the SRAM takes W in its idle state only with the AW):
  // wl_w_go.
  always_comb begin
    for (int unsigned j = 0; j < NumWl; j++) begin
      int unsigned l;
      l = lk_of(j);
      unique case (wl_etgt[j])
        TgtSbuf, TgtDesc: begin
          wl_aw_go[j] = mc_ok[wl_emem[j]] && mc[wl_emem[j]] == QW'(j) &&
                        mem_awready_i[wl_emem[j]];
        end
        TgtSem: wl_aw_go[j] = !ls_v_q && ls_pick_ok && ls_pick == JW'(j);
        TgtLink: wl_aw_go[j] = lk_aw_hs[l] && lc[l] == JW'(j);
        default: wl_aw_go[j] = 1'b0;
      endcase
      unique case (wl_tgt_q[j])
        TgtSbuf, TgtDesc: wl_wrdy[j] = mem_wready_i[wl_mem_q[j]];
        TgtLink:          wl_wrdy[j] = link_wready_i[l];
        default:          wl_wrdy[j] = 1'b1;
      endcase
      wl_aw_go[j] = wl_aw_go[j] && wl_req[j];
      wl_w_go[j]  = (wl_st_q[j] == WData && wl_wrdy[j]) ||
                    (wl_aw_go[j] && wl_etgt[j] == TgtLink && link_wready_i[l]) ||
                    (wl_aw_go[j] && (wl_etgt[j] == TgtSbuf || wl_etgt[j] == TgtDesc) &&
                     mem_wready_i[wl_emem[j]]);
      wl_hs[j]    = wl_w_go[j] && wm_wvalid_i[j];
      // this lane's SRAM B: the head of its memory's B owners
      wl_b_hs[j]  = wl_st_q[j] == WResp && mem_b_hs[wl_mem_q[j]] &&
                    bo_q[wl_mem_q[j]][0] == QW'(j);
    end
  end

  always_comb begin
    w_cnt_d = w_cnt_q;
    for (int unsigned j = 0; j < NumWl; j++) begin
      wl_a_d[j]       = wl_a_q[j];
      wl_aaddr_d[j]   = wl_aaddr_q[j];
      wl_alen_d[j]    = wl_alen_q[j];
      wl_st_d[j]      = wl_st_q[j];
      wl_tgt_d[j]     = wl_tgt_q[j];
      wl_mem_d[j]     = wl_mem_q[j];
      wl_addr_d[j]    = wl_addr_q[j];
      wl_len_d[j]     = wl_len_q[j];
      wl_word_d[j]    = wl_word_q[j];
      wl_resp_d[j]    = wl_resp_q[j];
      bq_push[j]      = 1'b0;
      bq_push_done[j] = 1'b1;
      bq_push_resp[j] = wl_resp_q[j];
      dec_valid[j]    = 1'b0;
      dec_addr[j]     = '0;
      // address stage
      unique case (wl_a_q[j])
        // one master: out of reset the lane waits in IaAddr
        IaIdle: wl_a_d[j] = IaAddr;
        IaAddr: begin
          dec_valid[j] = wm_awvalid_i[j] && wm_awready_o[j];
          dec_addr[j]  = wm_awaddr_i[j];
          if (dec_valid[j]) begin
            wl_a_d[j]     = IaRoute;
            wl_aaddr_d[j] = wm_awaddr_i[j];
            wl_alen_d[j]  = wm_awlen_i[j];
          end
        end
        IaRoute: if (wl_take[j]) wl_a_d[j] = IaAddr;
        default: wl_a_d[j] = IaIdle;
      endcase
      // data stage
      unique case (wl_st_q[j])
        WIdle, WTgtAw: begin
          if (wl_take[j]) begin
            wl_tgt_d[j]  = wl_route[j].tgt;
            wl_mem_d[j]  = wl_route[j].mem;
            wl_word_d[j] = wl_route[j].word;
            wl_resp_d[j] = wl_route[j].resp;
            wl_addr_d[j] = wl_aaddr_q[j];
            wl_len_d[j]  = wl_alen_q[j];
            w_cnt_d      = w_cnt_d + 8'd1;
            wl_st_d[j]   = (wl_route[j].tgt == TgtErr) ? WData : WTgtAw;
          end
          if (wl_aw_go[j]) begin
            wl_st_d[j] = WData;
            // a one-beat burst whose beat went with its AW: a memory burst
            // waits for its B, a link burst is posted
            if (wl_hs[j] && wm_wlast_i[j]) begin
              if (wl_etgt[j] == TgtSbuf || wl_etgt[j] == TgtDesc) begin
                wl_st_d[j] = WResp;
              end else begin
                bq_push[j]      = 1'b1;
                bq_push_done[j] = 1'b0;
                bq_push_resp[j] = 2'd0;
                wl_st_d[j]      = WIdle;
              end
            end
          end
        end
        WData: begin
          if (wl_hs[j]) begin
            if (wl_tgt_q[j] == TgtSem) wl_word_d[j] = wl_word_q[j] + 32'd1;
            if (wm_wlast_i[j]) begin
              if (wl_tgt_q[j] == TgtSbuf || wl_tgt_q[j] == TgtDesc) begin
                wl_st_d[j] = WResp;
              end else begin
                // SEM_INCR and error: answered now; link: posted, the entry
                // waits for the peer's B
                bq_push[j]      = 1'b1;
                bq_push_done[j] = wl_tgt_q[j] != TgtLink;
                wl_st_d[j]      = WIdle;
              end
            end
          end
        end
        WResp: begin
          if (wl_b_hs[j]) begin
            bq_push[j]      = 1'b1;
            bq_push_resp[j] = mem_bresp_i[wl_mem_q[j]];
            wl_st_d[j]      = WIdle;
          end
        end
        default: wl_st_d[j] = WIdle;
      endcase
    end
  end

  // ---- write lanes' response queues: a link B completes the lane's oldest
  // entry still waiting (a lane's link B responses return in its burst order
  // on its one link lane, and only link entries wait), the completed head is
  // the lane's B, the lane's push is appended.
  always_comb begin
    for (int unsigned j = 0; j < NumWl; j++) begin
      logic found;
      bq_head[j]   = bq_cnt_q[j] != '0 && bq_done_q[j][bq_rp_q[j]];
      bq_pop[j]    = bq_head[j] && wm_bready_i[j];
      bq_done_d[j] = bq_done_q[j];
      bq_resp_d[j] = bq_resp_q[j];
      bq_wp_d[j]   = bq_wp_q[j];
      bq_rp_d[j]   = bq_rp_q[j];
      found        = 1'b0;
      for (int unsigned k = 0; k < BqDepth; k++) begin
        logic [BqPw-1:0] idx;
        idx = bq_rp_q[j] + BqPw'(k);
        if (wl_lk_b[j] && !found && (BqPw + 1)'(k) < bq_cnt_q[j] && !bq_done_q[j][idx]) begin
          found              = 1'b1;
          bq_done_d[j][idx]  = 1'b1;
          bq_resp_d[j][idx]  = wl_lk_bresp[j];
        end
      end
      if (bq_pop[j]) bq_rp_d[j] = bq_rp_q[j] + 1'b1;
      if (bq_push[j]) begin
        bq_done_d[j][bq_wp_q[j]] = bq_push_done[j];
        bq_resp_d[j][bq_wp_q[j]] = bq_push_resp[j];
        bq_wp_d[j]               = bq_wp_q[j] + 1'b1;
      end
      bq_cnt_d[j] = bq_cnt_q[j] + (BqPw + 1)'(bq_push[j]) - (BqPw + 1)'(bq_pop[j]);
    end
  end

  always_comb begin
    for (int unsigned j = 0; j < NumWl; j++) begin
      // room in the response queue for this burst and the data stage's
      wm_awready_o[j] = wl_a_q[j] == IaAddr &&
                        bq_cnt_q[j] + (BqPw + 1)'(wl_st_q[j] != WIdle) < (BqPw + 1)'(BqDepth);
      wm_wready_o[j]  = wl_w_go[j];
      wm_bvalid_o[j]  = bq_head[j];
      wm_bresp_o[j]   = bq_resp_q[j][bq_rp_q[j]];
    end
  end

  // ------------------------------------------------ write arbiters per target
  // Requesters of memory k's write port: write lanes (q = j) and in-lanes
  // (q = NumWl + i) waiting in WTgtAw for it. The claimant is the owner, or
  // the pick of an unowned port (it drives the port's lines from the pick
  // cycle, so the claim and the AW handshake share one cycle).
  always_comb begin
    logic [6:0] p;
    mw_req = '0;
    for (int unsigned j = 0; j < NumWl; j++) begin
      if (wl_req[j] && (wl_etgt[j] == TgtSbuf || wl_etgt[j] == TgtDesc)) begin
        mw_req[wl_emem[j]][j] = 1'b1;
      end
    end
    for (int unsigned i = 0; i < NumLk; i++) begin
      if (il_st_q[i] == WTgtAw && (il_tgt_q[i] == TgtSbuf || il_tgt_q[i] == TgtDesc)) begin
        mw_req[il_mem_q[i]][NumWl+i] = 1'b1;
      end
    end
    for (int unsigned k = 0; k < NumMem; k++) begin
      p             = rr_pick(64'(mw_req[k]), 6'(mw_rr_q[k]));
      mw_pick_ok[k] = p[6];
      mw_pick[k]    = QW'(p[5:0]);
      mc_ok[k]      = wo_v_q[k] || mw_pick_ok[k];
      mc[k]         = wo_v_q[k] ? wo_q[k] : mw_pick[k];
    end
  end

  // Memory write lines follow the claimant (AW and W beats: the write lane's
  // or the in-lane's, the first beat also with the AW); BREADY follows the
  // head B owner: a write lane takes its B at once, an in-lane passes it
  // straight to its link lane (one handshake on both). The SRAM takes the
  // next claimant's AW and first beat while the B waits.
  always_comb begin
    for (int unsigned k = 0; k < NumMem; k++) begin
      int unsigned q, b;
      q = int'(mc[k]);
      b = int'(bo_q[k][0]);
      mem_awaddr_o[k]  = '0;
      mem_awvalid_o[k] = 1'b0;
      mem_wdata_o[k]   = '0;
      mem_wstrb_o[k]   = '0;
      mem_wlast_o[k]   = 1'b0;
      mem_wvalid_o[k]  = 1'b0;
      mem_bready_o[k]  = 1'b0;
      if (mc_ok[k] && q < NumWl) begin
        mem_awaddr_o[k]  = wl_eword[q];
        mem_wdata_o[k]   = wm_wdata_i[q];
        mem_wstrb_o[k]   = wm_wstrb_i[q];
        mem_wlast_o[k]   = wm_wlast_i[q];
        mem_awvalid_o[k] = wl_req[q];
        mem_wvalid_o[k]  = (wl_st_q[q] == WData || wl_aw_go[q]) && wm_wvalid_i[q];
      end else if (mc_ok[k] && q < NumRq) begin
        mem_awaddr_o[k]  = il_word_q[q-NumWl];
        mem_wdata_o[k]   = lin_wdata_i[q-NumWl];
        mem_wstrb_o[k]   = lin_wstrb_i[q-NumWl];
        mem_wlast_o[k]   = lin_wlast_i[q-NumWl];
        mem_awvalid_o[k] = il_st_q[q-NumWl] == WTgtAw && il_bp_ok[q-NumWl];
        mem_wvalid_o[k]  = (il_st_q[q-NumWl] == WData || il_aw_go[q-NumWl]) &&
                           lin_wvalid_i[q-NumWl];
      end
      if (bo_n_q[k] != '0 && b < NumWl) begin
        mem_bready_o[k] = wl_st_q[b] == WResp;
      end else if (bo_n_q[k] != '0 && b < NumRq) begin
        mem_bready_o[k] = lin_bready_i[b-NumWl];
      end
      mem_b_hs[k] = mem_bvalid_i[k] && mem_bready_o[k];
      // the claimant's WLAST beat (a one-beat burst's goes with its AW)
      wo_end[k]   = mc_ok[k] && mem_wvalid_o[k] && mem_wready_i[k] && mem_wlast_o[k];
    end
  end

  always_comb begin
    wo_v_d  = wo_v_q;
    wo_d    = wo_q;
    bo_n_d  = bo_n_q;
    bo_d    = bo_q;
    mw_rr_d = mw_rr_q;
    for (int unsigned k = 0; k < NumMem; k++) begin
      if (!wo_v_q[k] && mw_pick_ok[k]) begin
        wo_v_d[k]  = 1'b1;
        wo_d[k]    = mw_pick[k];
        mw_rr_d[k] = QW'(rr_after(6'(mw_pick[k]), NumRq));
      end
      // the B owners: the SRAM's B pops the head, a WLAST appends its lane
      if (mem_b_hs[k]) begin
        bo_n_d[k]    = bo_n_d[k] - 2'd1;
        bo_d[k][0]   = bo_q[k][1];
      end
      if (wo_end[k]) begin
        wo_v_d[k]             = 1'b0;
        bo_d[k][bo_n_d[k][0]] = mc[k];
        bo_n_d[k]             = bo_n_d[k] + 2'd1;
      end
    end
  end

  // SEM_INCR window: one owner among the write lanes (ports 0..IncL-1) and
  // one among the in-lanes (ports IncL..2*IncL-1), from the pick to the WLAST
  // beat; each of a beat's IncL 32-bit lanes with strobes is an increment on
  // its port.
  always_comb begin
    logic [63:0] lreq, ireq;
    logic [6:0]  p;
    lreq = '0;
    ireq = '0;
    for (int unsigned j = 0; j < NumWl; j++) begin
      lreq[j] = wl_req[j] && wl_etgt[j] == TgtSem;
    end
    for (int unsigned i = 0; i < NumLk; i++) begin
      ireq[i] = il_st_q[i] == WTgtAw && il_tgt_q[i] == TgtSem;
    end
    p          = rr_pick(lreq, 6'(ls_rr_q));
    ls_pick_ok = p[6];
    ls_pick    = JW'(p[5:0]);
    p          = rr_pick(ireq, 6'(is_rr_q));
    is_pick_ok = p[6];
    is_pick    = LW'(p[5:0]);
  end

  always_comb begin
    ls_v_d  = ls_v_q;
    ls_d    = ls_q;
    ls_rr_d = ls_rr_q;
    is_v_d  = is_v_q;
    is_d    = is_q;
    is_rr_d = is_rr_q;
    if (!ls_v_q && ls_pick_ok) begin
      ls_v_d  = 1'b1;
      ls_d    = ls_pick;
      ls_rr_d = JW'(rr_after(6'(ls_pick), NumWl));
    end else if (ls_v_q && wl_hs[ls_q] && wm_wlast_i[ls_q]) begin
      ls_v_d = 1'b0;
    end
    if (!is_v_q && is_pick_ok) begin
      is_v_d  = 1'b1;
      is_d    = is_pick;
      is_rr_d = LW'(rr_after(6'(is_pick), NumLk));
    end else if (is_v_q && il_hs[is_q] && lin_wlast_i[is_q]) begin
      is_v_d = 1'b0;
    end
  end

  always_comb begin
    inc_v_d    = '0;
    inc_i_d    = inc_i_q;
    inc_val_d  = inc_val_q;
    inc2_v_d   = '0;
    inc2_i_d   = inc2_i_q;
    inc2_val_d = inc2_val_q;
    for (int unsigned j = 0; j < NumWl; j++) begin
      if (wl_st_q[j] == WData && wl_hs[j] && wl_tgt_q[j] == TgtSem) begin
        for (int unsigned l = 0; l < IncL; l++) begin
          inc_v_d[l]   = |wm_wstrb_i[j][4*l +: 4];
          inc_i_d[l]   = 8'(wl_word_q[j] * IncL + l);
          inc_val_d[l] = wm_wdata_i[j][32*l +: 32];
        end
      end
    end
    for (int unsigned i = 0; i < NumLk; i++) begin
      if (il_hs[i] && il_tgt_q[i] == TgtSem) begin
        for (int unsigned l = 0; l < IncL; l++) begin
          inc2_v_d[l]   = |lin_wstrb_i[i][4*l +: 4];
          inc2_i_d[l]   = 8'(il_word_q[i] * IncL + l);
          inc2_val_d[l] = lin_wdata_i[i][32*l +: 32];
        end
      end
    end
  end

  assign inc_valid_o = {inc2_v_q, inc_v_q};
  assign inc_idx_o   = {inc2_i_q, inc_i_q};
  assign inc_value_o = {inc2_val_q, inc_val_q};

  // --------------------------------------------------------------- link lanes
  // Requesters of link lane L: the write lanes using it (lk_of) waiting in
  // WTgtAw for the link. The claimant (owner, or the pick of an unowned lane)
  // drives the lane's AW while it may (lk_ok: a free owner-FIFO entry, and no
  // link B outstanding or the outstanding ones share its destination) and
  // then its W beats; ownership ends with the WLAST handshake. Every link B
  // completes the entry of the write lane at the owner FIFO's head.
  always_comb begin
    logic [63:0] req;
    logic [6:0]  p;
    for (int unsigned l = 0; l < NumLk; l++) begin
      req = '0;
      for (int unsigned j = 0; j < NumWl; j++) begin
        req[j] = lk_of(j) == l && wl_req[j] && wl_etgt[j] == TgtLink;
      end
      p             = rr_pick(req, 6'(lk_rr_q[l]));
      lk_pick_ok[l] = p[6];
      lk_pick[l]    = JW'(p[5:0]);
      lc_ok[l]      = lo_v_q[l] || lk_pick_ok[l];
      lc[l]         = lo_v_q[l] ? lo_q[l] : lk_pick[l];
      lk_ok[l]      = lk_pend_q[l] != (LkPw + 1)'(LkDepth) &&
                      (lk_pend_q[l] == '0 || wl_eaddr[lc[l]][63:32] == lk_hi_q[l]);
      link_awaddr_o[l]  = '0;
      link_awlen_o[l]   = '0;
      link_awvalid_o[l] = 1'b0;
      link_wdata_o[l]   = '0;
      link_wstrb_o[l]   = '0;
      link_wlast_o[l]   = 1'b0;
      if (lc_ok[l]) begin
        link_awaddr_o[l]  = wl_eaddr[lc[l]];
        link_awlen_o[l]   = wl_elen[lc[l]];
        link_awvalid_o[l] = wl_req[lc[l]] && lk_ok[l];
        link_wdata_o[l]   = wm_wdata_i[lc[l]];
        link_wstrb_o[l]   = wm_wstrb_i[lc[l]];
        link_wlast_o[l]   = wm_wlast_i[lc[l]];
      end
      // every link B completes a queue entry that is waiting for it
      link_bready_o[l]  = 1'b1;
    end
  end

  // the handshakes in their own process: the claimant and its AW above do not
  // depend on the link's READY (a fabric may route the lane by link_dest_o)
  always_comb begin
    for (int unsigned l = 0; l < NumLk; l++) begin
      lk_aw_hs[l]      = link_awvalid_o[l] && link_awready_i[l];
      link_wvalid_o[l] = 1'b0;
      // W beats in WData, the first one also with its AW
      if (lc_ok[l]) begin
        link_wvalid_o[l] = (wl_st_q[lc[l]] == WData || lk_aw_hs[l]) && wm_wvalid_i[lc[l]];
      end
    end
  end

  always_comb begin
    wl_lk_b     = '0;
    wl_lk_bresp = '0;
    for (int unsigned l = 0; l < NumLk; l++) begin
      lo_v_d[l]    = lo_v_q[l];
      lo_d[l]      = lo_q[l];
      lk_rr_d[l]   = lk_rr_q[l];
      lf_d[l]      = lf_q[l];
      lf_wp_d[l]   = lf_wp_q[l];
      lf_rp_d[l]   = lf_rp_q[l];
      lk_hi_d[l]   = lk_hi_q[l];
      if (!lo_v_q[l] && lk_pick_ok[l]) begin
        lo_v_d[l]  = 1'b1;
        lo_d[l]    = lk_pick[l];
        lk_rr_d[l] = JW'(rr_after(6'(lk_pick[l]), NumWl));
      end
      if (lc_ok[l] && wl_hs[lc[l]] && wm_wlast_i[lc[l]]) lo_v_d[l] = 1'b0;
      if (lk_aw_hs[l]) begin
        lf_d[l][lf_wp_q[l]] = lc[l];
        lf_wp_d[l]          = lf_wp_q[l] + 1'b1;
        lk_hi_d[l]          = wl_eaddr[lc[l]][63:32];
      end
      if (link_bvalid_i[l]) begin
        wl_lk_b[lf_q[l][lf_rp_q[l]]]     = 1'b1;
        wl_lk_bresp[lf_q[l][lf_rp_q[l]]] = link_bresp_i[l];
        lf_rp_d[l]                       = lf_rp_q[l] + 1'b1;
      end
      lk_pend_d[l] = lk_pend_q[l] + (LkPw + 1)'(lk_aw_hs[l]) - (LkPw + 1)'(link_bvalid_i[l]);
    end
  end

  // destination of each link lane (golden twin: Xbar::out_link_addrs)
  always_comb begin
    for (int unsigned l = 0; l < NumLk; l++) begin
      link_dest_valid_o[l] = lk_pend_q[l] != '0 || lc_ok[l];
      link_dest_o[l]       = lk_pend_q[l] != '0 ? lk_hi_q[l] :
                             lc_ok[l] ? wl_eaddr[lc[l]][63:32] : 32'h0;
    end
  end

  // ----------------------------------------------------------------- in-lanes
  // One per incoming link lane, local targets only. Address stage: IaIdle
  // (after reset) -> IaAddr (AWREADY high; the decoder takes the address) ->
  // IaRoute (the decoder's route, held until the data stage takes it) ->
  // IaAddr. Data stage: WIdle -> WTgtAw (SBUF, descriptor RAM, SEM_INCR:
  // until the target's arbiter grants the lane and the target takes the AW;
  // an error burst until its B may be owed) -> WData (until WLAST) -> the
  // next route's WTgtAw, or WIdle. The WLAST beat leaves the burst's B
  // waiting (il_bp): the SRAM's B straight to the link lane, SEM_INCR and
  // error bursts answer themselves; a lane hands over its next AW only once
  // that B went (or goes in the same cycle), so its B responses keep their
  // order and the SRAM takes the next AW while the B waits.
  for (genvar i = 0; i < NumLk; i++) begin : gen_iroute
    assign il_route[i] = route_of(dec_route_chip[InD+i], dec_route_nbr[InD+i],
                                  dec_id_valid[InD+i], dec_nbr_route[InD+i],
                                  dec_exit_die[InD+i], dec_local[InD+i][45:0], il_len_q[i],
                                  1'b1, 1'b1, core_idx_i);
  end

  always_comb begin
    for (int unsigned i = 0; i < NumLk; i++) begin
      // the SRAM's B is this lane's when the lane is its memory's head B owner
      lin_bvalid_o[i] = il_bp_q[i] && (il_bps_q[i] || (mem_bvalid_i[il_bpm_q[i]] &&
                        bo_q[il_bpm_q[i]][0] == QW'(NumWl + i)));
      lin_bresp_o[i]  = il_bps_q[i] ? il_bpr_q[i] : mem_bresp_i[il_bpm_q[i]];
      il_b_hs[i]      = lin_bvalid_o[i] && lin_bready_i[i];
      il_bp_ok[i]     = !il_bp_q[i] || il_b_hs[i];
      unique case (il_tgt_q[i])
        TgtSbuf, TgtDesc: begin
          il_aw_go[i] = mc_ok[il_mem_q[i]] && mc[il_mem_q[i]] == QW'(NumWl + i) &&
                        mem_awready_i[il_mem_q[i]];
          il_wrdy[i]  = mem_wready_i[il_mem_q[i]];
        end
        TgtSem: begin
          il_aw_go[i] = !is_v_q && is_pick_ok && is_pick == LW'(i);
          il_wrdy[i]  = 1'b1;
        end
        default: begin
          il_aw_go[i] = 1'b1;
          il_wrdy[i]  = 1'b1;
        end
      endcase
      il_aw_go[i]      = il_aw_go[i] && il_bp_ok[i] && il_st_q[i] == WTgtAw;
      // W ready in WData, and a memory burst's first beat with its AW
      il_w_go[i]       = (il_st_q[i] == WData && il_wrdy[i]) ||
                         (il_aw_go[i] && (il_tgt_q[i] == TgtSbuf || il_tgt_q[i] == TgtDesc) &&
                          il_wrdy[i]);
      il_hs[i]         = il_w_go[i] && lin_wvalid_i[i];
      // the data stage takes the held route when free or at its WLAST beat
      il_take[i]       = il_a_q[i] == IaRoute &&
                         (il_st_q[i] == WIdle || (il_hs[i] && lin_wlast_i[i]));
      lin_awready_o[i] = il_a_q[i] == IaAddr;
      lin_wready_o[i]  = il_w_go[i];
    end
  end

  always_comb begin
    for (int unsigned i = 0; i < NumLk; i++) begin
      il_a_d[i]    = il_a_q[i];
      il_st_d[i]   = il_st_q[i];
      il_tgt_d[i]  = il_tgt_q[i];
      il_mem_d[i]  = il_mem_q[i];
      il_len_d[i]  = il_len_q[i];
      il_word_d[i] = il_word_q[i];
      il_resp_d[i] = il_resp_q[i];
      il_bp_d[i]   = il_bp_q[i];
      il_bps_d[i]  = il_bps_q[i];
      il_bpm_d[i]  = il_bpm_q[i];
      il_bpr_d[i]  = il_bpr_q[i];
      dec_valid[InD+i] = 1'b0;
      dec_addr[InD+i]  = '0;
      // address stage
      unique case (il_a_q[i])
        // one master: out of reset the lane waits in IaAddr (AWREADY high)
        IaIdle: il_a_d[i] = IaAddr;
        IaAddr: begin
          dec_valid[InD+i] = lin_awvalid_i[i];
          dec_addr[InD+i]  = lin_awaddr_i[i];
          if (lin_awvalid_i[i]) begin
            il_a_d[i]   = IaRoute;
            il_len_d[i] = lin_awlen_i[i];
          end
        end
        IaRoute: if (il_take[i]) il_a_d[i] = IaAddr;
        default: il_a_d[i] = IaIdle;
      endcase
      // data stage
      unique case (il_st_q[i])
        WTgtAw: begin
          if (il_aw_go[i]) begin
            // a one-beat burst whose beat went with its AW ends here
            il_st_d[i] = (il_hs[i] && lin_wlast_i[i]) ? WIdle : WData;
          end
        end
        WData: begin
          if (il_hs[i]) begin
            if (il_tgt_q[i] == TgtSem) il_word_d[i] = il_word_q[i] + 32'd1;
            if (lin_wlast_i[i]) il_st_d[i] = WIdle;
          end
        end
        default: il_st_d[i] = WIdle;
      endcase
      if (il_take[i]) begin
        il_tgt_d[i]  = il_route[i].tgt;
        il_mem_d[i]  = il_route[i].mem;
        il_word_d[i] = il_route[i].word;
        il_resp_d[i] = il_route[i].resp;
        il_st_d[i]   = WTgtAw;
      end
      // the B owed over the link: set by the WLAST beat, cleared by its handshake
      if (il_b_hs[i]) il_bp_d[i] = 1'b0;
      if (il_hs[i] && lin_wlast_i[i]) begin
        il_bp_d[i]  = 1'b1;
        il_bps_d[i] = il_tgt_q[i] != TgtSbuf && il_tgt_q[i] != TgtDesc;
        il_bpm_d[i] = il_mem_q[i];
        il_bpr_d[i] = il_resp_q[i];
      end
    end
  end

  logic [1:0] own0, ownd;
  assign own0     = !wo_v_q[0] ? 2'd0 : (32'(wo_q[0]) < NumWl) ? 2'd1 : 2'd2;
  assign ownd     = !wo_v_q[NumBanks] ? 2'd0 : (32'(wo_q[NumBanks]) < NumWl) ? 2'd1 : 2'd2;
  assign dbg_in_o = {3'd0, il_bp_q[0], il_a_q[0], ownd, own0, il_tgt_q[0], il_st_q[0]};

  // -------------------------------------------------------------- read lanes
  // One lane per engine read master. Address stage: RIdle (after reset) ->
  // RAddr (ARREADY high; the decoder takes the address in the handshake
  // cycle) -> RRoute (the decoder's route: a memory burst until the memory's
  // arbiter grants the lane and the memory takes the AR, a burst outside
  // every memory at once; both only while the lane's burst queue has room)
  // -> RAddr. The burst queue (RqDepth entries, issue order) holds the
  // bursts handed over: the head's R beats go to the engine, from its memory
  // (once that memory streams this lane's burst) or answered by the lane
  // (DECERR/SLVERR). Each memory holds up to two read bursts (the one
  // streaming and the next), owners ro and rn in acceptance order.
  localparam int unsigned RqDepth = 2;
  rst_e                         r_st_q [NumEngines];
  rst_e                         r_st_d [NumEngines];
  logic [NumEngines-1:0][7:0]   r_len_q, r_len_d, r_cnt_q, r_cnt_d;
  route_t                       r_route [NumEngines];
  // burst queue: error (the lane answers), memory, length, response
  logic [NumEngines-1:0][RqDepth-1:0]         rq_err_q, rq_err_d;
  logic [NumEngines-1:0][RqDepth-1:0][MW-1:0] rq_mem_q, rq_mem_d;
  logic [NumEngines-1:0][RqDepth-1:0][7:0]    rq_len_q, rq_len_d;
  logic [NumEngines-1:0][RqDepth-1:0][1:0]    rq_resp_q, rq_resp_d;
  logic [NumEngines-1:0]                      rq_wp_q, rq_wp_d, rq_rp_q, rq_rp_d;
  logic [NumEngines-1:0][1:0]                 rq_cnt_q, rq_cnt_d;
  logic [NumEngines-1:0]        r_room, r_hv, r_herr, r_own, r_pop, r_push, r_ar_go;
  logic [NumEngines-1:0][MW-1:0] r_hmem;
  // per memory: the lanes whose bursts it holds (ro streaming, rn next), the
  // round-robin pointer, this cycle's pick among the lanes asking for it
  logic [NumMem-1:0]            ro_v_q, ro_v_d, rn_v_q, rn_v_d;
  logic [NumMem-1:0][RGW-1:0]   ro_q, ro_d, rn_q, rn_d, r_rr_q, r_rr_d, r_pick;
  logic [NumMem-1:0]            r_pick_ok, m_ar_hs, m_rl_hs;

  for (genvar e = 0; e < NumEngines; e++) begin : gen_rroute
    assign r_route[e] = route_of(dec_route_chip[RdD+e], dec_route_nbr[RdD+e],
                                 dec_id_valid[RdD+e], dec_nbr_route[RdD+e],
                                 dec_exit_die[RdD+e], dec_local[RdD+e][45:0], r_len_q[e],
                                 1'b0, 1'b0, core_idx_i);
  end

  // The head of each lane's queue.
  always_comb begin
    for (int unsigned e = 0; e < NumEngines; e++) begin
      r_room[e] = rq_cnt_q[e] != 2'(RqDepth);
      r_hv[e]   = rq_cnt_q[e] != '0;
      r_herr[e] = rq_err_q[e][rq_rp_q[e]];
      r_hmem[e] = rq_mem_q[e][rq_rp_q[e]];
      // the head's memory streams this lane's burst
      r_own[e]  = r_hv[e] && !r_herr[e] && ro_v_q[r_hmem[e]] && ro_q[r_hmem[e]] == RGW'(e);
    end
  end

  // Round-robin pick per memory over the lanes in RRoute asking for it (rr_pick).
  always_comb begin
    logic [63:0] req;
    logic [6:0]  p;
    for (int unsigned k = 0; k < NumMem; k++) begin
      req = '0;
      for (int unsigned e = 0; e < NumEngines; e++) begin
        req[e] = r_st_q[e] == RRoute && r_room[e] &&
                 (r_route[e].tgt == TgtSbuf || r_route[e].tgt == TgtDesc) &&
                 r_route[e].mem == MW'(k);
      end
      p            = rr_pick(req, 6'(r_rr_q[k]));
      r_pick_ok[k] = p[6];
      r_pick[k]    = RGW'(p[5:0]);
    end
  end

  always_comb begin
    rm_arready_o  = '0;
    rm_rvalid_o   = '0;
    rm_rdata_o    = '0;
    rm_rlast_o    = '0;
    rm_rresp_o    = '0;
    mem_arvalid_o = '0;
    mem_rready_o  = '0;
    for (int unsigned e = 0; e < NumEngines; e++) begin
      if (r_st_q[e] == RAddr) rm_arready_o[e] = 1'b1;
      if (r_hv[e] && r_herr[e]) begin
        rm_rvalid_o[e] = 1'b1;
        rm_rlast_o[e]  = r_cnt_q[e] == rq_len_q[e][rq_rp_q[e]];
        rm_rresp_o[e]  = rq_resp_q[e][rq_rp_q[e]];
      end else if (r_hv[e]) begin
        rm_rvalid_o[e] = r_own[e] && mem_rvalid_i[r_hmem[e]];
        rm_rdata_o[e]  = mem_rdata_i[r_hmem[e]];
        rm_rresp_o[e]  = mem_rresp_i[r_hmem[e]];
        rm_rlast_o[e]  = mem_rlast_i[r_hmem[e]];
      end
    end
    for (int unsigned k = 0; k < NumMem; k++) begin
      mem_araddr_o[k]  = r_route[r_pick[k]].word;
      mem_arlen_o[k]   = r_len_q[r_pick[k]];
      mem_arvalid_o[k] = !(ro_v_q[k] && rn_v_q[k]) && r_pick_ok[k];
      mem_rready_o[k]  = ro_v_q[k] && r_own[ro_q[k]] && r_hmem[ro_q[k]] == MW'(k) &&
                         rm_rready_i[ro_q[k]];
      m_ar_hs[k]       = mem_arvalid_o[k] && mem_arready_i[k];
      m_rl_hs[k]       = mem_rvalid_i[k] && mem_rready_o[k] && mem_rlast_i[k];
    end
  end

  // The memories' owner pairs: the AR handshake appends the pick, the last
  // beat's handshake moves the next owner up.
  always_comb begin
    ro_v_d = ro_v_q;
    ro_d   = ro_q;
    rn_v_d = rn_v_q;
    rn_d   = rn_q;
    r_rr_d = r_rr_q;
    for (int unsigned k = 0; k < NumMem; k++) begin
      if (m_rl_hs[k]) begin
        ro_v_d[k] = rn_v_q[k];
        ro_d[k]   = rn_q[k];
        rn_v_d[k] = 1'b0;
      end
      if (m_ar_hs[k]) begin
        r_rr_d[k] = RGW'(rr_after(6'(r_pick[k]), NumEngines));
        if (!ro_v_d[k]) begin
          ro_v_d[k] = 1'b1;
          ro_d[k]   = r_pick[k];
        end else begin
          rn_v_d[k] = 1'b1;
          rn_d[k]   = r_pick[k];
        end
      end
    end
  end

  always_comb begin
    for (int unsigned e = 0; e < NumEngines; e++) begin
      r_st_d[e]    = r_st_q[e];
      r_len_d[e]   = r_len_q[e];
      r_cnt_d[e]   = r_cnt_q[e];
      rq_err_d[e]  = rq_err_q[e];
      rq_mem_d[e]  = rq_mem_q[e];
      rq_len_d[e]  = rq_len_q[e];
      rq_resp_d[e] = rq_resp_q[e];
      rq_wp_d[e]   = rq_wp_q[e];
      rq_rp_d[e]   = rq_rp_q[e];
      r_push[e]    = 1'b0;
      dec_valid[RdD+e] = 1'b0;
      dec_addr[RdD+e]  = '0;
      r_ar_go[e] = m_ar_hs[r_route[e].mem] && r_pick[r_route[e].mem] == RGW'(e) &&
                   r_pick_ok[r_route[e].mem] && r_st_q[e] == RRoute;
      unique case (r_st_q[e])
        // one master: out of reset the lane waits in RAddr (ARREADY high)
        RIdle: r_st_d[e] = RAddr;
        RAddr: begin
          dec_valid[RdD+e] = rm_arvalid_i[e];
          dec_addr[RdD+e]  = rm_araddr_i[e];
          if (rm_arvalid_i[e]) begin
            r_st_d[e]  = RRoute;
            r_len_d[e] = rm_arlen_i[e];
          end
        end
        RRoute: begin
          if (r_route[e].tgt == TgtSbuf || r_route[e].tgt == TgtDesc) begin
            r_push[e] = r_ar_go[e];
          end else begin
            r_push[e] = r_room[e];
          end
          if (r_push[e]) r_st_d[e] = RAddr;
        end
        default: r_st_d[e] = RIdle;
      endcase
      // the head's beats: from its memory, or answered here
      r_pop[e] = 1'b0;
      if (r_hv[e] && r_herr[e] && rm_rready_i[e]) begin
        r_cnt_d[e] = r_cnt_q[e] + 8'd1;
        if (r_cnt_q[e] == rq_len_q[e][rq_rp_q[e]]) begin
          r_pop[e]   = 1'b1;
          r_cnt_d[e] = '0;
        end
      end else if (r_own[e] && mem_rvalid_i[r_hmem[e]] && rm_rready_i[e] &&
                   mem_rlast_i[r_hmem[e]]) begin
        r_pop[e] = 1'b1;
      end
      if (r_pop[e]) rq_rp_d[e] = rq_rp_q[e] + 1'b1;
      if (r_push[e]) begin
        rq_err_d[e][rq_wp_q[e]]  = !(r_route[e].tgt == TgtSbuf || r_route[e].tgt == TgtDesc);
        rq_mem_d[e][rq_wp_q[e]]  = r_route[e].mem;
        rq_len_d[e][rq_wp_q[e]]  = r_len_q[e];
        rq_resp_d[e][rq_wp_q[e]] = r_route[e].resp;
        rq_wp_d[e]               = rq_wp_q[e] + 1'b1;
      end
      rq_cnt_d[e] = rq_cnt_q[e] + 2'(r_push[e]) - 2'(r_pop[e]);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned e = 0; e < NumEngines; e++) begin
        r_st_q[e] <= RIdle;
      end
      r_len_q   <= '0;
      r_cnt_q   <= '0;
      rq_err_q  <= '0;
      rq_mem_q  <= '0;
      rq_len_q  <= '0;
      rq_resp_q <= '0;
      rq_wp_q   <= '0;
      rq_rp_q   <= '0;
      rq_cnt_q  <= '0;
      ro_v_q    <= '0;
      ro_q      <= '0;
      rn_v_q    <= '0;
      rn_q      <= '0;
      r_rr_q    <= '0;
    end else begin
      for (int unsigned e = 0; e < NumEngines; e++) begin
        r_st_q[e] <= r_st_d[e];
      end
      r_len_q   <= r_len_d;
      r_cnt_q   <= r_cnt_d;
      rq_err_q  <= rq_err_d;
      rq_mem_q  <= rq_mem_d;
      rq_len_q  <= rq_len_d;
      rq_resp_q <= rq_resp_d;
      rq_wp_q   <= rq_wp_d;
      rq_rp_q   <= rq_rp_d;
      rq_cnt_q  <= rq_cnt_d;
      ro_v_q    <= ro_v_d;
      ro_q      <= ro_d;
      rn_v_q    <= rn_v_d;
      rn_q      <= rn_d;
      r_rr_q    <= r_rr_d;
    end
  end

  assign dbg_o = {w_cnt_q, inc_v_q[1:0], r_herr[0], rq_cnt_q[0], 5'(r_hmem[0]), r_st_q[0],
                  wl_tgt_q[0], 5'(wo_q[0]), wl_st_q[0]};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned j = 0; j < NumWl; j++) begin
        wl_a_q[j]   <= IaIdle;
        wl_st_q[j]  <= WIdle;
        wl_tgt_q[j] <= TgtErr;
      end
      wl_aaddr_q <= '0;
      wl_alen_q  <= '0;
      for (int unsigned i = 0; i < NumLk; i++) begin
        il_a_q[i]   <= IaIdle;
        il_st_q[i]  <= WIdle;
        il_tgt_q[i] <= TgtErr;
      end
      wl_mem_q  <= '0;
      wl_addr_q <= '0;
      wl_len_q  <= '0;
      wl_word_q <= '0;
      wl_resp_q <= '0;
      w_cnt_q   <= '0;
      bq_done_q <= '0;
      bq_resp_q <= '0;
      bq_wp_q   <= '0;
      bq_rp_q   <= '0;
      bq_cnt_q  <= '0;
      il_mem_q  <= '0;
      il_len_q  <= '0;
      il_word_q <= '0;
      il_resp_q <= '0;
      il_bp_q   <= '0;
      il_bps_q  <= '0;
      il_bpm_q  <= '0;
      il_bpr_q  <= '0;
    end else begin
      for (int unsigned j = 0; j < NumWl; j++) begin
        wl_a_q[j]   <= wl_a_d[j];
        wl_st_q[j]  <= wl_st_d[j];
        wl_tgt_q[j] <= wl_tgt_d[j];
      end
      wl_aaddr_q <= wl_aaddr_d;
      wl_alen_q  <= wl_alen_d;
      for (int unsigned i = 0; i < NumLk; i++) begin
        il_a_q[i]   <= il_a_d[i];
        il_st_q[i]  <= il_st_d[i];
        il_tgt_q[i] <= il_tgt_d[i];
      end
      wl_mem_q  <= wl_mem_d;
      wl_addr_q <= wl_addr_d;
      wl_len_q  <= wl_len_d;
      wl_word_q <= wl_word_d;
      wl_resp_q <= wl_resp_d;
      w_cnt_q   <= w_cnt_d;
      bq_done_q <= bq_done_d;
      bq_resp_q <= bq_resp_d;
      bq_wp_q   <= bq_wp_d;
      bq_rp_q   <= bq_rp_d;
      bq_cnt_q  <= bq_cnt_d;
      il_mem_q  <= il_mem_d;
      il_len_q  <= il_len_d;
      il_word_q <= il_word_d;
      il_resp_q <= il_resp_d;
      il_bp_q   <= il_bp_d;
      il_bps_q  <= il_bps_d;
      il_bpm_q  <= il_bpm_d;
      il_bpr_q  <= il_bpr_d;
    end
  end

  // arbiters, increment ports, link lanes
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wo_v_q     <= '0;
      wo_q       <= '0;
      bo_n_q     <= '0;
      bo_q       <= '0;
      mw_rr_q    <= '0;
      ls_v_q     <= 1'b0;
      ls_q       <= '0;
      ls_rr_q    <= '0;
      is_v_q     <= 1'b0;
      is_q       <= '0;
      is_rr_q    <= '0;
      inc_v_q    <= '0;
      inc_i_q    <= '0;
      inc_val_q  <= '0;
      inc2_v_q   <= '0;
      inc2_i_q   <= '0;
      inc2_val_q <= '0;
      lo_v_q     <= '0;
      lo_q       <= '0;
      lk_rr_q    <= '0;
      lf_q       <= '0;
      lf_wp_q    <= '0;
      lf_rp_q    <= '0;
      lk_pend_q  <= '0;
      lk_hi_q    <= '0;
    end else begin
      wo_v_q     <= wo_v_d;
      wo_q       <= wo_d;
      bo_n_q     <= bo_n_d;
      bo_q       <= bo_d;
      mw_rr_q    <= mw_rr_d;
      ls_v_q     <= ls_v_d;
      ls_q       <= ls_d;
      ls_rr_q    <= ls_rr_d;
      is_v_q     <= is_v_d;
      is_q       <= is_d;
      is_rr_q    <= is_rr_d;
      inc_v_q    <= inc_v_d;
      inc_i_q    <= inc_i_d;
      inc_val_q  <= inc_val_d;
      inc2_v_q   <= inc2_v_d;
      inc2_i_q   <= inc2_i_d;
      inc2_val_q <= inc2_val_d;
      lo_v_q     <= lo_v_d;
      lo_q       <= lo_d;
      lk_rr_q    <= lk_rr_d;
      lf_q       <= lf_d;
      lf_wp_q    <= lf_wp_d;
      lf_rp_q    <= lf_rp_d;
      lk_pend_q  <= lk_pend_d;
      lk_hi_q    <= lk_hi_d;
    end
  end

endmodule : sb2sb_xbar
