// AXI4 SRAM slave: INCR bursts of DataBits-wide beats (one word per beat),
// word-addressed by the interconnect (the xbar has already checked the
// window and turned the SoC address into a word index). Out-of-range beats
// answer SLVERR and are not stored. Read and write channels are
// independent; each streams back to back:
//   write: AW (with the first W beat, or before it) -> WLAST; the burst's B
//          joins a two-entry response queue, and the next AW and its first
//          W beat are taken in the cycle after WLAST while the B waits, so
//          bursts stream back to back (16 cycles per 16-beat burst). W is
//          taken in WrIdle only with its AW (the interconnect never offers
//          W before AW); no W beat is taken while two B responses wait;
//   read:  the next AR is taken while a burst streams (one held AR); the last
//          R beat's handshake loads the held burst's first word, so its beats
//          follow without a gap (16 cycles per 16-beat burst).
//
// Every output is a function of the registered state and stall_i only (a
// Moore slave), so the golden composition can evaluate it before the masters
// (model/src/pair/sram.rs is its twin).
//
// A debug port reads (registered, one cycle; a debug write reads back the
// written word) and writes one 64-bit lane per cycle: its address counts
// 64-bit lanes (lane dbg_addr_i % Lanes of word dbg_addr_i / Lanes); a debug
// write in the same cycle as an AXI write to the same lane wins.

module axi4_sram #(
  parameter int unsigned Words    = 1024,
  parameter int unsigned DataBits = int'(sb2sb_pkg::ENGINE_DATA_BITS),
  localparam int unsigned AW    = $clog2(Words),
  localparam int unsigned BB    = DataBits / 8,
  // 64-bit debug lanes per word
  localparam int unsigned Lanes = DataBits / 64,
  localparam int unsigned LW    = (Lanes > 1) ? $clog2(Lanes) : 1,
  localparam int unsigned DAW   = AW + $clog2(Lanes)
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  // backpressure from the environment: no handshake while high
  input  logic          stall_i,
  // write channels (word address)
  input  logic [31:0]   s_axi_awaddr,
  input  logic          s_axi_awvalid,
  output logic          s_axi_awready,
  input  logic [DataBits-1:0] s_axi_wdata,
  input  logic [BB-1:0] s_axi_wstrb,
  input  logic          s_axi_wlast,
  input  logic          s_axi_wvalid,
  output logic          s_axi_wready,
  output logic [1:0]    s_axi_bresp,
  output logic          s_axi_bvalid,
  input  logic          s_axi_bready,
  // read channels (word address)
  input  logic [31:0]   s_axi_araddr,
  input  logic [7:0]    s_axi_arlen,
  input  logic          s_axi_arvalid,
  output logic          s_axi_arready,
  output logic [DataBits-1:0] s_axi_rdata,
  output logic [1:0]    s_axi_rresp,
  output logic          s_axi_rlast,
  output logic          s_axi_rvalid,
  input  logic          s_axi_rready,
  // debug port
  input  logic          dbg_we_i,
  input  logic [DAW-1:0] dbg_addr_i,
  input  logic [63:0]   dbg_wdata_i,
  output logic [63:0]   dbg_rdata_o
);

  if (DataBits != 64 && DataBits != 128 && DataBits != 256) begin : gen_width_check
    $error("axi4_sram: DataBits must be 64, 128 or 256");
  end

  typedef enum logic {WrIdle, WrData} wr_st_e;
  typedef enum logic [1:0] {RdIdle, RdLoad, RdData} rd_st_e;

  logic [DataBits-1:0] mem_q [Words];

  wr_st_e      wr_st_q, wr_st_d;
  logic [31:0] wr_addr_q, wr_addr_d;
  logic        wr_err_q, wr_err_d;
  // response queue: B responses owed (0..2), their errors (head at [0])
  logic [1:0]  b_cnt_q, b_cnt_d;
  logic [1:0]  b_err_q, b_err_d;
  rd_st_e      rd_st_q, rd_st_d;
  logic [31:0] rd_addr_q, rd_addr_d;
  logic [7:0]  rd_left_q, rd_left_d;
  logic [DataBits-1:0] rd_data_q, rd_data_d;
  logic        rd_err_q, rd_err_d;
  // RdLoad/RdData: the next burst's AR is held
  logic        rd_nxt_q, rd_nxt_d;
  logic [31:0] rd_nxt_addr_q, rd_nxt_addr_d;
  logic [7:0]  rd_nxt_len_q, rd_nxt_len_d;
  logic [63:0] dbg_q;
  // the debug port's word and 64-bit lane
  logic [AW-1:0] dbg_word;
  logic [LW-1:0] dbg_lane;

  logic        wr_ok, rd_ok, w_hs, aw_hs, b_hs, ar_hs, nx_ok, b_room;
  logic [31:0] nx_addr;
  // the word a W beat writes: the AW's in WrIdle (the beat goes with its AW)
  logic [31:0] wr_at;
  // a W beat taken with an address (in WrIdle only together with its AW)
  logic        w_take;
  assign wr_at = (wr_st_q == WrIdle) ? s_axi_awaddr : wr_addr_q;
  assign wr_ok = wr_at < 32'(Words);
  assign rd_ok = rd_addr_q < 32'(Words);

  assign b_room        = b_cnt_q != 2'd2;
  assign s_axi_awready = (wr_st_q == WrIdle) && b_room && !stall_i;
  assign s_axi_wready  = b_room && !stall_i;
  assign s_axi_bvalid  = (b_cnt_q != '0) && !stall_i;
  assign s_axi_bresp   = b_err_q[0] ? 2'd2 : 2'd0;
  assign s_axi_arready = !rd_nxt_q && !stall_i;
  assign s_axi_rvalid  = (rd_st_q == RdData) && !stall_i;
  assign s_axi_rdata   = rd_data_q;
  assign s_axi_rresp   = rd_err_q ? 2'd2 : 2'd0;
  assign s_axi_rlast   = (rd_st_q == RdData) && (rd_left_q == 8'd0);
  assign dbg_rdata_o   = dbg_q;
  if (Lanes > 1) begin : gen_dbg_lanes
    assign dbg_word = dbg_addr_i[DAW-1:DAW-AW];
    assign dbg_lane = dbg_addr_i[LW-1:0];
  end else begin : gen_dbg_one
    assign dbg_word = dbg_addr_i;
    assign dbg_lane = '0;
  end
  assign w_hs          = s_axi_wready && s_axi_wvalid;
  assign aw_hs         = s_axi_awready && s_axi_awvalid;
  assign b_hs          = s_axi_bvalid && s_axi_bready;
  assign ar_hs         = s_axi_arready && s_axi_arvalid;
  assign w_take        = w_hs && (wr_st_q == WrData || aw_hs);
  // first word of the burst that follows the last R beat: the held AR, else
  // the AR taken in the same cycle
  assign nx_addr       = rd_nxt_q ? rd_nxt_addr_q : s_axi_araddr;
  assign nx_ok         = nx_addr < 32'(Words);

  always_comb begin
    logic done, err;
    wr_st_d   = wr_st_q;
    wr_addr_d = wr_addr_q;
    wr_err_d  = wr_err_q;
    b_cnt_d   = b_cnt_q;
    b_err_d   = b_err_q;
    done      = 1'b0;
    err       = (wr_st_q == WrData) && wr_err_q;
    if (aw_hs) begin
      wr_st_d   = WrData;
      wr_addr_d = s_axi_awaddr;
      wr_err_d  = 1'b0;
    end
    if (w_take) begin
      wr_addr_d = wr_at + 32'd1;
      wr_err_d  = err || !wr_ok;
      if (s_axi_wlast) begin
        wr_st_d = WrIdle;
        done    = 1'b1;
      end
    end
    // the response queue: the B handshake pops the head, WLAST appends
    if (b_hs) begin
      b_cnt_d = b_cnt_d - 2'd1;
      b_err_d = {1'b0, b_err_q[1]};
    end
    if (done) begin
      b_err_d[b_cnt_d[0]] = err || !wr_ok;
      b_cnt_d             = b_cnt_d + 2'd1;
    end
  end

  always_comb begin
    rd_st_d   = rd_st_q;
    rd_addr_d = rd_addr_q;
    rd_left_d = rd_left_q;
    rd_data_d = rd_data_q;
    rd_err_d  = rd_err_q;
    rd_nxt_d      = rd_nxt_q;
    rd_nxt_addr_d = rd_nxt_addr_q;
    rd_nxt_len_d  = rd_nxt_len_q;
    // an AR taken while a burst is open is held
    if (ar_hs && rd_st_q != RdIdle) begin
      rd_nxt_d      = 1'b1;
      rd_nxt_addr_d = s_axi_araddr;
      rd_nxt_len_d  = s_axi_arlen;
    end
    unique case (rd_st_q)
      RdIdle: begin
        if (ar_hs) begin
          rd_st_d   = RdLoad;
          rd_addr_d = s_axi_araddr;
          rd_left_d = s_axi_arlen;
        end
      end
      RdLoad: begin
        // Registered read of the addressed word.
        rd_st_d   = RdData;
        rd_data_d = rd_ok ? mem_q[rd_addr_q[AW-1:0]] : '0;
        rd_err_d  = !rd_ok;
        rd_addr_d = rd_addr_q + 32'd1;
      end
      RdData: begin
        if (s_axi_rvalid && s_axi_rready) begin
          if (rd_left_q == 8'd0) begin
            if (rd_nxt_q || ar_hs) begin
              // the next burst's first word, registered like RdLoad's
              rd_nxt_d  = 1'b0;
              rd_left_d = rd_nxt_q ? rd_nxt_len_q : s_axi_arlen;
              rd_data_d = nx_ok ? mem_q[nx_addr[AW-1:0]] : '0;
              rd_err_d  = !nx_ok;
              rd_addr_d = nx_addr + 32'd1;
            end else begin
              rd_st_d = RdIdle;
            end
          end else begin
            rd_left_d = rd_left_q - 8'd1;
            rd_data_d = rd_ok ? mem_q[rd_addr_q[AW-1:0]] : '0;
            rd_err_d  = !rd_ok;
            rd_addr_d = rd_addr_q + 32'd1;
          end
        end
      end
      default: rd_st_d = RdIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wr_st_q   <= WrIdle;
      wr_addr_q <= '0;
      wr_err_q  <= 1'b0;
      b_cnt_q   <= '0;
      b_err_q   <= '0;
      rd_st_q   <= RdIdle;
      rd_addr_q <= '0;
      rd_left_q <= '0;
      rd_data_q <= '0;
      rd_err_q  <= 1'b0;
      rd_nxt_q      <= 1'b0;
      rd_nxt_addr_q <= '0;
      rd_nxt_len_q  <= '0;
      dbg_q     <= '0;
    end else begin
      wr_st_q   <= wr_st_d;
      wr_addr_q <= wr_addr_d;
      wr_err_q  <= wr_err_d;
      b_cnt_q   <= b_cnt_d;
      b_err_q   <= b_err_d;
      rd_st_q   <= rd_st_d;
      rd_addr_q <= rd_addr_d;
      rd_left_q <= rd_left_d;
      rd_data_q <= rd_data_d;
      rd_err_q  <= rd_err_d;
      rd_nxt_q      <= rd_nxt_d;
      rd_nxt_addr_q <= rd_nxt_addr_d;
      rd_nxt_len_q  <= rd_nxt_len_d;
      // a debug write reads back the written word (write-through)
      dbg_q     <= dbg_we_i ? dbg_wdata_i : mem_q[dbg_word][64*dbg_lane +: 64];
    end
  end

  // Memory array (no reset: the environment preloads it through the debug port).
  always_ff @(posedge clk_i) begin
    if (w_take && wr_ok) begin
      for (int unsigned b = 0; b < BB; b++) begin
        if (s_axi_wstrb[b]) begin
          mem_q[wr_at[AW-1:0]][8*b +: 8] <= s_axi_wdata[8*b +: 8];
        end
      end
    end
    if (dbg_we_i) begin
      mem_q[dbg_word][64*dbg_lane +: 64] <= dbg_wdata_i;
    end
  end

endmodule : axi4_sram
