// UDMA M2S (TX) FSM: descriptor fetch, data bursts read into a read-data ring with
// several bursts outstanding, AXI4-Stream out of the ring at the same time (state MTx).
// An AR is issued only when the ring has room reserved for all its beats, so a
// stalled stream never holds the read port; a burst is streamed once its last beat
// arrived without an error (store-and-forward per burst).
// The bytes of a packet are packed across descriptor boundaries through a carry
// register (carry_data_q, carry_bytes_q bytes from lane 0): every beat but the tlast one is full.
// Buffer pointers may have any byte alignment: the first beat of a descriptor is
// read from the aligned address and its bytes below buf_ptr are skipped (src_offset_q).
// Descriptor bits: FIRST must start a packet and only start one (else DESC_FIRST
// error); DMB waits until S2M has no write of this queue in flight before the data
// is read; a middle descriptor without CONCAT starts on a new stream beat (SPLIT
// sends the carried bytes as a short beat first).
// Descriptor fetch (u_fetch, module udma_desc_fetch, shared with S2M): the descriptor
// register, the read of DAR/DR and the checks of DCHK (RRESP error, ring id, FIRST); its
// error flag also collects the RRESP errors of the data burst TX receives.
// Descriptor prefetch (u_pf, module udma_desc_pf): once every data burst of the
// descriptor is requested, TX reads the queue's head + 1 descriptor into the buffer;
// IDLE takes it straight to DCHK when it fetches that queue next (docs/udma.md
// "Descriptor prefetch").
// Next state: one process per concern (p_idle, p_stream, p_ring, p_ctl, and u_fetch's),
// each named after the golden model's stage it mirrors.
//
// Golden model: model/src/udma/m2s.rs. States and transitions: docs/udma.md.

module udma_m2s
  import sb2sb_pkg::*;
#(
  parameter int unsigned NumQ       = 16,
  parameter int unsigned MaxBurst   = 16,
  parameter int unsigned DataWidth  = 64,
  // read bursts outstanding on the engine's read port; the ring holds that many bursts
  parameter int unsigned MaxRdOutstanding = 4,
  localparam int unsigned QueueIdxW = $clog2(NumQ),
  localparam int unsigned RdBufBeats = MaxRdOutstanding * MaxBurst,
  localparam int unsigned RbIdxW    = $clog2(RdBufBeats),
  localparam int unsigned OutW      = $clog2(MaxRdOutstanding + 1),
  localparam int unsigned BeatBytes = DataWidth / 8,
  localparam int unsigned LaneBits  = $clog2(BeatBytes),
  // beats of a 16-byte descriptor read
  localparam int unsigned DescBeats = (DataWidth >= 128) ? 1 : 128 / DataWidth,
  // bytes left of a descriptor: 0..UDMA_DESC_MAX_LEN
  localparam int unsigned LenW = $bits(udma_cdesc_w1_len_t)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // register-file view
  input  logic [NumQ-1:0]      avail_i,
  input  logic [NumQ-1:0]      stopped_i,
  input  logic                 normal_i,
  input  logic [63:0]          desc_addr_i,
  input  udma_q_ptr_ring_id_t  head_id_i,
  input  logic [63:0]          next_addr_i,
  input  logic                 has_next_i,
  // S2M write in flight (for DMB) and its queue
  input  logic                 wr_busy_i,
  input  logic [QueueIdxW-1:0] wr_q_i,
  output logic                 dmb_wait_o,
  // shared read port: AR grant, and the R beat belongs to M2S (oldest burst)
  input  logic                 rd_owner_i,
  input  logic                 r_own_i,
  input  logic                 arready_i,
  input  logic                 rvalid_i,
  input  logic [DataWidth-1:0] rdata_i,
  input  logic [1:0]           rresp_i,
  input  logic [7:0]           rd_cnt_i,
  input  logic [7:0]           rd_len_i,
  output logic                 want_o,
  output logic                 arvalid_o,
  output logic [63:0]          araddr_o,
  output logic [7:0]           arlen_o,
  // AXI4-Stream master
  output logic [DataWidth-1:0] m_axis_tdata,
  output logic [BeatBytes-1:0] m_axis_tkeep,
  output logic                 m_axis_tlast,
  output logic [QueueIdxW-1:0] m_axis_tid,
  output logic                 m_axis_tuser,
  output logic                 m_axis_tvalid,
  input  logic                 m_axis_tready,
  // register-file events and status
  output logic [QueueIdxW-1:0] ev_q_o,
  output logic                 ev_head_adv_o,
  output logic                 ev_done_inc_o,
  output logic                 ev_int_set_o,
  output logic                 ev_err_o,
  output logic [4:0]           ev_err_bit_o,
  output logic [5:0]           ev_bytes_o,
  output logic [3:0]           state_o,
  output logic                 pkt_o
);

  typedef enum logic [3:0] {
    MIdle  = 4'd0,
    MDar   = 4'd1,
    MDr    = 4'd2,
    MDchk  = 4'd3,
    MTx    = 4'd6,
    MDone  = 4'd7,
    MClose = 4'd8,
    MFlush = 4'd9,
    MDmb   = 4'd10,
    MSplit = 4'd11
  } m2s_state_e;

  m2s_state_e                         state_q, state_d;
  logic [QueueIdxW-1:0]               q_q, q_d;
  // round-robin: the queue granted last; the search starts at the next one
  logic [QueueIdxW-1:0]               rr_last_q, rr_last_d;
  logic                               pkt_q, pkt_d;
  // the descriptor and its read error (udma_desc_fetch; in TX the error of the data
  // burst being received)
  logic [127:0]                       desc;
  logic                               rderr;
  logic [LenW-1:0]                    rem_q, rem_d;
  logic [LaneBits-1:0]                src_offset_q, src_offset_d;
  // next data AR: beat-aligned address, beats of the descriptor not yet requested
  logic [63:0]                        iss_addr_q, iss_addr_d;
  logic [17:0]                        iss_need_q, iss_need_d;
  // read-data ring: beats land at rb_wp, TX streams from rb_rp; rb_res beats are
  // reserved (requested, not streamed), rb_avail streamable (complete error-free bursts)
  logic [RbIdxW-1:0]                  rb_wp_q, rb_wp_d, rb_rp_q, rb_rp_d;
  logic [RbIdxW:0]                    rb_res_q, rb_res_d, rb_avail_q, rb_avail_d;
  // data bursts requested and not yet fully received; a burst failed (no more ARs)
  logic [OutW-1:0]                    m_out_q, m_out_d;
  logic                               derr_q, derr_d;
  // descriptor prefetch buffer (udma_desc_pf): read outstanding, buffered, queue, address,
  // descriptor, RRESP error
  logic                               pf_out, pf_vld;
  logic [QueueIdxW-1:0]               pf_qn;
  logic [63:0]                        pf_addr;
  logic [127:0]                       pf_desc;
  logic                               pf_err;
  // Read-data ring: unpacked and written one beat at a time by p_buf (a packed vector is
  // copied whole into a _d and back at every evaluation of the Verilated model;
  // docs/decisions.md). coverage_off: as a packed vector it was wider than the toggle
  // coverage width limit and had no toggle points; this keeps it so.
  /* verilator coverage_off */
  logic [DataWidth-1:0]               buf_q [RdBufBeats];
  /* verilator coverage_on */
  logic                               buf_we;
  logic [DataWidth-1:0]               carry_data_q, carry_data_d;
  logic [LaneBits-1:0]                carry_bytes_q, carry_bytes_d;

  logic                   beat, last_beat, err_beat, fin;
  udma_desc_len_ctrl_t    w0;
  logic [63:0]            bufp;
  logic [17:0]            need;
  logic [12:0]            to4k;
  logic [17:0]            beats;
  logic                   have, iss_want;
  logic [LaneBits:0]      room, nbytes;
  logic [DataWidth-1:0]   dmask, dm, sh;
  logic [2*DataWidth-1:0] comb;
  logic [LaneBits+1:0]    tot;
  logic [BeatBytes-1:0]   tot_keep, carry_keep;
  logic                   lastp, emit, split, dmb_hold;
  m2s_state_e             go_state;
  logic                   pf_beat, pf_want, pf_ar, pf_wait;
  // next-state stages: IDLE's decision, DCHK's verdict, TX's stream pop and error exit
  logic                   idle_fetch, idle_close, pf_hit;
  logic                   chk_err;
  logic [4:0]             chk_err_bit;
  logic                   pop, tx_fail, ar_data_hs;

  // an M2S R beat is the prefetch's once no data burst is outstanding (the prefetch AR
  // follows every data AR of the descriptor)
  assign pf_beat   = r_own_i && rvalid_i && pf_out && (m_out_q == '0);
  assign beat      = r_own_i && rvalid_i && !pf_beat;
  assign have      = rb_avail_q != '0;
  assign last_beat = beat && (rd_cnt_i == rd_len_i);
  assign err_beat  = beat && (rresp_i != AXI_RESP_OKAY[1:0]);
  assign w0        = desc[31:0];
  assign bufp      = desc[127:64];
  // a middle descriptor without CONCAT first sends the carried bytes (short beat)
  assign split     = pkt_q && !w0.concat && (carry_bytes_q != '0);
  assign go_state  = split ? MSplit : MTx;
  assign dmb_hold  = wr_busy_i && (wr_q_i == q_q);

  // prefetch request: TX with every data burst requested, none failed, a next descriptor
  // in the queue and the buffer free; a read-port grant outside DAR and TX's data
  // requests is the prefetch's; IDLE waits while it is granted or outstanding
  assign pf_want = (state_q == MTx) && (iss_need_q == '0) && !derr_q && !pf_out &&
                   !pf_vld && has_next_i;
  assign pf_ar   = rd_owner_i && (state_q != MDar) && !((state_q == MTx) && (iss_need_q != '0));
  assign pf_wait = pf_out || rd_owner_i;

  // packing: carry bytes, then the descriptor's bytes of ring beat rb_rp_q. Evaluated
  // only in MTx, the one state that uses it (the Verilated model skips the shifts and
  // byte masks in the other cycles: simulation speed).
  always_comb begin
    room     = '0;
    fin      = 1'b0;
    nbytes   = '0;
    lastp    = 1'b0;
    dmask    = '0;
    sh       = '0;
    dm       = '0;
    comb     = '0;
    tot      = '0;
    emit     = 1'b0;
    tot_keep = '0;
    if (state_q == MTx && have) begin
      room   = (LaneBits+1)'(BeatBytes) - {1'b0, src_offset_q};
      fin    = rem_q <= LenW'(room);
      nbytes = fin ? rem_q[LaneBits:0] : room;
      lastp  = fin && w0.last_f;
      for (int b = 0; b < BeatBytes; b++) begin
        dmask[8*b+:8] = ((LaneBits+1)'(b) < nbytes) ? 8'hff : 8'h00;
      end
      sh   = buf_q[rb_rp_q] >> {src_offset_q, 3'b000};
      dm   = sh & dmask;
      comb = {{DataWidth{1'b0}}, carry_data_q} |
             ({{DataWidth{1'b0}}, dm} << {carry_bytes_q, 3'b000});
      tot  = (LaneBits+2)'(carry_bytes_q) + (LaneBits+2)'(nbytes);
      emit = (tot >= (LaneBits+2)'(BeatBytes)) || lastp;
      for (int b = 0; b < BeatBytes; b++) begin
        tot_keep[b] = (LaneBits+2)'(b) < tot;
      end
    end
  end

  // the carried bytes' lanes (MFlush, MClose, MSplit)
  always_comb begin
    for (int b = 0; b < BeatBytes; b++) begin
      carry_keep[b] = LaneBits'(b) < carry_bytes_q;
    end
  end

  // beats of the descriptor from its aligned buffer address (DCHK)
  assign need = ({1'b0, ((w0.len == '0) ? LenW'(UDMA_DESC_MAX_LEN) : LenW'(w0.len))} +
                 18'(bufp[LaneBits-1:0]) + 18'(BeatBytes - 1)) >> LaneBits;

  // next data burst: beats not yet requested, 4 KiB boundary, MaxBurst; requested
  // while no burst failed and the ring has room for all its beats
  always_comb begin
    to4k  = (13'd4096 - {1'b0, iss_addr_q[11:0]}) >> LaneBits;
    beats = iss_need_q;
    if (18'(to4k) < beats) begin
      beats = 18'(to4k);
    end
    if (beats > 18'(MaxBurst)) begin
      beats = 18'(MaxBurst);
    end
    iss_want = (iss_need_q != '0) && !derr_q &&
               (19'(rb_res_q) + 19'(beats) <= 19'(RdBufBeats));
  end

  // outputs
  always_comb begin
    want_o        = 1'b0;
    arvalid_o     = 1'b0;
    araddr_o      = '0;
    arlen_o       = '0;
    m_axis_tvalid = 1'b0;
    m_axis_tdata  = '0;
    m_axis_tkeep  = '0;
    m_axis_tlast  = 1'b0;
    m_axis_tid    = '0;
    m_axis_tuser  = 1'b0;
    unique case (state_q)
      MDar: begin
        want_o = 1'b1;
        if (rd_owner_i) begin
          arvalid_o = 1'b1;
          araddr_o  = desc_addr_i;
          arlen_o   = 8'(DescBeats - 1);
        end
      end
      MTx: begin
        // once granted, the AR is held until its handshake
        want_o = iss_want || pf_want;
        if (rd_owner_i && iss_need_q != '0) begin
          arvalid_o = 1'b1;
          araddr_o  = iss_addr_q;
          arlen_o   = 8'(beats - 18'd1);
        end
        if (have && emit) begin
          m_axis_tvalid = 1'b1;
          m_axis_tdata  = comb[DataWidth-1:0];
          m_axis_tkeep  = tot_keep;
          m_axis_tlast  = lastp && (tot <= (LaneBits+2)'(BeatBytes));
          m_axis_tid    = q_q;
        end
      end
      MFlush, MClose, MSplit: begin
        m_axis_tvalid = 1'b1;
        m_axis_tdata  = carry_data_q;
        m_axis_tkeep  = carry_keep;
        m_axis_tlast  = (state_q != MSplit);
        m_axis_tuser  = (state_q == MClose);
        m_axis_tid    = q_q;
      end
      default: ;
    endcase
    if (pf_ar) begin
      arvalid_o = 1'b1;
      araddr_o  = pf_addr;
      arlen_o   = 8'(DescBeats - 1);
    end
  end

  // ---- next state, one process per concern (golden: M2s::update and its stages) ----
  // A data AR handshakes (not the prefetch's); TX ends on a failed burst: nothing
  // streamable, no read outstanding or granted.
  assign ar_data_hs = arvalid_o && arready_i && !pf_ar;
  assign tx_fail    = (state_q == MTx) && !have && derr_q && (m_out_q == '0) && !arvalid_o;

  // IDLE (golden: idle, pick): an open packet waits on its queue (stopped: close it);
  // without one, round robin from rr_last + 1 over the available queues (engine NORMAL).
  // Nothing is decided while a prefetch read is granted or outstanding.
  always_comb begin : p_idle
    logic                 found;
    logic [QueueIdxW-1:0] cand;
    q_d        = q_q;
    rr_last_d  = rr_last_q;
    idle_fetch = 1'b0;
    idle_close = 1'b0;
    found      = 1'b0;
    cand       = '0;
    if (state_q == MIdle && !pf_wait) begin
      if (pkt_q) begin
        if (stopped_i[q_q]) begin
          idle_close = 1'b1;
        end else if (avail_i[q_q]) begin
          idle_fetch = 1'b1;
        end
      end else if (normal_i && |avail_i) begin  // (the scan only when a queue is ready)
        for (int k = 1; k <= NumQ; k++) begin
          cand = QueueIdxW'(rr_last_q + QueueIdxW'(k));
          if (!found && avail_i[cand]) begin
            found      = 1'b1;
            q_d        = cand;
            rr_last_d  = cand;
            idle_fetch = 1'b1;
          end
        end
      end
    end
  end
  // the queue's head is the buffered descriptor: straight to DCHK, else read it
  assign pf_hit = idle_fetch && pf_vld && (pf_qn == q_d);

  // Stream (golden: start_data, stream): DCHK sets the descriptor's byte count and first
  // offset; TX streams ring beat rb_rp (carry + descriptor bytes, §1 Packing) out or into
  // the carry; SPLIT, FLUSH and CLOSE send the carry. A failed TX empties the ring.
  always_comb begin : p_stream
    rem_d         = rem_q;
    src_offset_d  = src_offset_q;
    rb_rp_d       = rb_rp_q;
    carry_data_d  = carry_data_q;
    carry_bytes_d = carry_bytes_q;
    pop           = 1'b0;
    ev_bytes_o    = '0;
    unique case (state_q)
      MDchk: begin
        if (!chk_err) begin
          rem_d        = (w0.len == '0) ? LenW'(UDMA_DESC_MAX_LEN) : LenW'(w0.len);
          src_offset_d = bufp[LaneBits-1:0];
        end
      end
      MTx: begin
        if (have && (m_axis_tready || !emit)) begin
          pop          = 1'b1;
          ev_bytes_o   = 6'(nbytes);
          rem_d        = rem_q - LenW'(nbytes);
          src_offset_d = '0;
          rb_rp_d      = rb_rp_q + RbIdxW'(1);
          if (tot >= (LaneBits+2)'(BeatBytes)) begin
            carry_data_d  = comb[2*DataWidth-1:DataWidth];
            carry_bytes_d = LaneBits'(tot - (LaneBits+2)'(BeatBytes));
          end else if (lastp) begin
            carry_data_d  = '0;
            carry_bytes_d = '0;
          end else begin
            carry_data_d  = comb[DataWidth-1:0];
            carry_bytes_d = LaneBits'(tot);
          end
        end else if (tx_fail) begin
          rb_rp_d = rb_wp_q;
        end
      end
      MSplit, MFlush, MClose: begin
        if (m_axis_tready) begin
          carry_data_d  = '0;
          carry_bytes_d = '0;
        end
      end
      default: ;
    endcase
  end

  // Read-data ring (golden: start_data, issue, receive): DCHK sets the data bursts to
  // request; in TX the AR handshake of a data burst reserves its beats, an R beat lands in
  // the ring and a burst's last beat makes it streamable (or, with an error in any of its
  // beats, stops the descriptor's data). A failed TX clears the reservation.
  always_comb begin : p_ring
    logic [RbIdxW:0] done_beats;
    iss_addr_d = iss_addr_q;
    iss_need_d = iss_need_q;
    rb_wp_d    = rb_wp_q;
    rb_res_d   = rb_res_q;
    rb_avail_d = rb_avail_q;
    m_out_d    = m_out_q;
    derr_d     = derr_q;
    buf_we     = 1'b0;
    done_beats = '0;
    unique case (state_q)
      MDchk: begin
        if (!chk_err) begin
          iss_addr_d = {bufp[63:LaneBits], {LaneBits{1'b0}}};
          iss_need_d = need;
        end
      end
      MTx: begin
        if (tx_fail) begin
          derr_d   = 1'b0;
          rb_res_d = '0;
        end else begin
          if (ar_data_hs) begin
            iss_addr_d = iss_addr_q + (64'(beats) << LaneBits);
            iss_need_d = iss_need_q - beats;
          end
          if (beat) begin
            buf_we  = 1'b1;
            rb_wp_d = rb_wp_q + RbIdxW'(1);
            if (last_beat) begin
              if (rderr | err_beat) begin
                derr_d = 1'b1;
              end else if (!derr_q) begin
                done_beats = (RbIdxW+1)'(rd_len_i) + (RbIdxW+1)'(1);
              end
            end
          end
          rb_avail_d = rb_avail_q - (RbIdxW+1)'(pop) + done_beats;
          rb_res_d   = rb_res_q - (RbIdxW+1)'(pop) +
                       (ar_data_hs ? (RbIdxW+1)'(beats) : '0);
          m_out_d    = m_out_q + OutW'(ar_data_hs) - OutW'(last_beat);
        end
      end
      default: ;
    endcase
  end

  // FSM state, open packet and register-file events (golden: update): the stages'
  // verdicts decide the next state.
  always_comb begin : p_ctl
    state_d       = state_q;
    pkt_d         = pkt_q;
    ev_head_adv_o = 1'b0;
    ev_done_inc_o = 1'b0;
    ev_int_set_o  = 1'b0;
    ev_err_o      = 1'b0;
    ev_err_bit_o  = '0;
    unique case (state_q)
      MIdle: begin
        if (idle_close) begin
          state_d = MClose;
        end else if (pf_hit) begin
          state_d = MDchk;
        end else if (idle_fetch) begin
          state_d = MDar;
        end
      end
      MDar: begin
        if (arvalid_o && arready_i) begin
          state_d = MDr;
        end
      end
      MDr: begin
        if (last_beat) begin
          state_d = MDchk;
        end
      end
      MDchk: begin
        if (chk_err) begin
          ev_err_o     = 1'b1;
          ev_err_bit_o = chk_err_bit;
          state_d      = pkt_q ? MClose : MIdle;
        end else begin
          state_d = w0.dmb ? MDmb : go_state;
        end
      end
      MDmb: begin
        if (!dmb_hold) begin
          state_d = go_state;
        end
      end
      MSplit: begin
        if (m_axis_tready) begin
          state_d = MTx;
        end
      end
      MTx: begin
        if (pop) begin
          pkt_d = !m_axis_tlast;
          if (lastp && (tot > (LaneBits+2)'(BeatBytes))) begin
            state_d = MFlush;
          end else if (rem_d == '0) begin
            state_d = MDone;
          end
        end
        if (tx_fail) begin
          // every burst before the failed one streamed, nothing outstanding
          ev_err_o     = 1'b1;
          ev_err_bit_o = UDMA_M2S_ERR_DATA_AXI_RESPONSE[4:0];
          state_d      = pkt_q ? MClose : MIdle;
        end
      end
      MFlush: begin
        if (m_axis_tready) begin
          pkt_d   = 1'b0;
          state_d = MDone;
        end
      end
      MDone: begin
        ev_head_adv_o = 1'b1;
        ev_done_inc_o = 1'b1;
        ev_int_set_o  = w0.int_en;
        state_d       = MIdle;
      end
      default: begin  // MClose
        if (m_axis_tready) begin
          pkt_d   = 1'b0;
          state_d = MIdle;
        end
      end
    endcase
  end

  // Descriptor fetch (golden: DescFetch, stages idle, fetch, check, ring): the descriptor
  // register loaded by IDLE's prefetch hit or the read of DAR/DR, checked in DCHK; in TX
  // (not failing) the error flag is the data burst's.
  udma_desc_fetch #(
    .DataWidth  (DataWidth),
    .FirstCheck (1'b1),
    .DataErr    (1'b1),
    .ErrAxi     (UDMA_M2S_ERR_PREF_AXI_RESPONSE[4:0]),
    .ErrRingId  (UDMA_M2S_ERR_PREF_RING_ID[4:0]),
    .ErrFirst   (UDMA_M2S_ERR_DESC_FIRST[4:0])
  ) u_fetch (
    .clk_i,
    .rst_ni,
    .en_i          (state_q != MIdle || state_d != MIdle),
    .ar_hs_i       ((state_q == MDar) && arvalid_o && arready_i),
    .dr_i          (state_q == MDr),
    .chk_i         (state_q == MDchk),
    .data_i        ((state_q == MTx) && !tx_fail),
    .take_i        (pf_hit),
    .pf_desc_i     (pf_desc),
    .pf_err_i      (pf_err),
    .addr_lane_i   (desc_addr_i[LaneBits-1:0]),
    .head_id_i,
    .pkt_i         (pkt_q),
    .beat_i        (beat),
    .rdata_i,
    .rresp_i,
    .last_i        (rd_cnt_i == rd_len_i),
    .desc_o        (desc),
    .err_o         (rderr),
    .chk_err_o     (chk_err),
    .chk_err_bit_o (chk_err_bit)
  );

  // Descriptor prefetch buffer: requested in TX, used or emptied by settled IDLE.
  udma_desc_pf #(
    .NumQ      (NumQ),
    .DataWidth (DataWidth)
  ) u_pf (
    .clk_i,
    .rst_ni,
    .want_i   (pf_want),
    .q_i      (q_q),
    .addr_i   (next_addr_i),
    .ar_hs_i  (pf_ar && arready_i),
    .beat_i   (pf_beat),
    .rdata_i,
    .rresp_i,
    .last_i   (rd_cnt_i == rd_len_i),
    .settle_i ((state_q == MIdle) && !pf_wait),
    .keep_i   (1'b0),
    .out_o    (pf_out),
    .vld_o    (pf_vld),
    .q_o      (pf_qn),
    .addr_o   (pf_addr),
    .desc_o   (pf_desc),
    .err_o    (pf_err)
  );

  assign ev_q_o     = q_q;
  assign dmb_wait_o = (state_q == MDmb);
  assign state_o    = state_q;
  assign pkt_o      = pkt_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q       <= MIdle;
      q_q           <= '0;
      rr_last_q     <= '0;
      pkt_q         <= 1'b0;
      rem_q         <= '0;
      src_offset_q  <= '0;
      iss_addr_q    <= '0;
      iss_need_q    <= '0;
      rb_wp_q       <= '0;
      rb_rp_q       <= '0;
      rb_res_q      <= '0;
      rb_avail_q    <= '0;
      m_out_q       <= '0;
      derr_q        <= 1'b0;
      carry_data_q  <= '0;
      carry_bytes_q <= '0;
    end else if (state_q != MIdle || state_d != MIdle) begin
      // MIdle to MIdle changes no register (only a pick leaves MIdle): skipped then
      // (simulation speed).
      state_q       <= state_d;
      q_q           <= q_d;
      rr_last_q     <= rr_last_d;
      pkt_q         <= pkt_d;
      rem_q         <= rem_d;
      src_offset_q  <= src_offset_d;
      iss_addr_q    <= iss_addr_d;
      iss_need_q    <= iss_need_d;
      rb_wp_q       <= rb_wp_d;
      rb_rp_q       <= rb_rp_d;
      rb_res_q      <= rb_res_d;
      rb_avail_q    <= rb_avail_d;
      m_out_q       <= m_out_d;
      derr_q        <= derr_d;
      carry_data_q  <= carry_data_d;
      carry_bytes_q <= carry_bytes_d;
    end
  end

  // The read-data ring: an R beat of M2S lands at rb_wp.
  always_ff @(posedge clk_i or negedge rst_ni) begin : p_buf
    if (!rst_ni) begin
      buf_q <= '{default: '0};
    end else if (buf_we) begin
      buf_q[rb_wp_q] <= rdata_i;
    end
  end

  // meta_ctrl (descriptor word 1) is opaque to the queue logic; ring id and FIRST are
  // checked in u_fetch
  logic unused_desc;
  assign unused_desc = ^{desc[63:32], w0.ring_id, w0.first_f, w0.rsvd29, w0.rsvd16};

endmodule : udma_m2s
