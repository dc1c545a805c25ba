// UDMA M2S (TX) FSM: descriptor fetch, burst read into a beat buffer, AXI4-Stream out.
// The bytes of a packet are packed across descriptor boundaries through a carry
// register (cdata_q, cb_q bytes from lane 0): every beat but the tlast one is full.
// Buffer pointers may have any byte alignment: the first beat of a descriptor is
// read from the aligned address and its bytes below buf_ptr are skipped (soff_q).
// Descriptor bits: FIRST must start a packet and only start one (else DESC_FIRST
// error); DMB waits until S2M has no write of this queue in flight before the data
// is read; a middle descriptor without CONCAT starts on a new stream beat (SPLIT
// sends the carried bytes as a short beat first).
//
// Golden model: model/src/udma/m2s.rs. States and transitions: docs/udma.md.

module udma_m2s
  import sb2sb_pkg::*;
#(
  parameter int unsigned NumQ = 16,
  parameter int unsigned MaxBurst = 16,
  parameter int unsigned DataWidth = 64,
  localparam int unsigned QW = $clog2(NumQ),
  localparam int unsigned BW = $clog2(MaxBurst),
  localparam int unsigned BB = DataWidth / 8,
  localparam int unsigned LB = $clog2(BB),
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
  // S2M write in flight (for DMB) and its queue
  input  logic                 wr_busy_i,
  input  logic [QW-1:0]        wr_q_i,
  output logic                 dmb_wait_o,
  // shared read port
  input  logic                 rd_owner_i,
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
  output logic [BB-1:0]        m_axis_tkeep,
  output logic                 m_axis_tlast,
  output logic [QW-1:0]        m_axis_tid,
  output logic                 m_axis_tuser,
  output logic                 m_axis_tvalid,
  input  logic                 m_axis_tready,
  // register-file events and status
  output logic [QW-1:0]        ev_q_o,
  output logic                 ev_head_adv_o,
  output logic                 ev_done_inc_o,
  output logic                 ev_int_set_o,
  output logic                 ev_err_o,
  output logic [4:0]           ev_err_bit_o,
  output logic [5:0]           ev_bytes_o,
  output logic [3:0]           st_o,
  output logic                 pkt_o
);

  typedef enum logic [3:0] {
    MIdle  = 4'd0,
    MDar   = 4'd1,
    MDr    = 4'd2,
    MDchk  = 4'd3,
    MRar   = 4'd4,
    MRd    = 4'd5,
    MTx    = 4'd6,
    MDone  = 4'd7,
    MClose = 4'd8,
    MFlush = 4'd9,
    MDmb   = 4'd10,
    MSplit = 4'd11
  } m_st_e;

  m_st_e                            st_q, st_d;
  logic [QW-1:0]                    q_q, q_d;
  logic [QW-1:0]                    rr_q, rr_d;
  logic                             pkt_q, pkt_d;
  logic [127:0]                     dsc_q, dsc_d;
  logic                             rderr_q, rderr_d;
  logic [LenW-1:0]                  rem_q, rem_d;
  logic [63:0]                      addr_q, addr_d;
  logic [LB-1:0]                    soff_q, soff_d;
  logic [BW-1:0]                    tx_q, tx_d;
  logic [7:0]                       blen_q, blen_d;
  logic [MaxBurst-1:0][DataWidth-1:0] buf_q, buf_d;
  logic [DataWidth-1:0]             cdata_q, cdata_d;
  logic [LB-1:0]                    cb_q, cb_d;

  logic                   beat, last_beat, err_beat, fin;
  udma_desc_len_ctrl_t    w0;
  logic [63:0]            bufp;
  logic [127:0]           dsc_in;
  logic [17:0]            need;
  logic [12:0]            to4k;
  logic [17:0]            beats;
  logic [LB:0]            room, nbytes;
  logic [DataWidth-1:0]   dmask, dm, sh;
  logic [2*DataWidth-1:0] comb;
  logic [LB+1:0]          tot;
  logic [BB-1:0]          tot_keep, cb_keep;
  logic                   lastp, emit, split, dmb_hold;
  m_st_e                  go_st;

  assign beat      = rd_owner_i && rvalid_i;
  assign last_beat = beat && (rd_cnt_i == rd_len_i);
  assign err_beat  = beat && (rresp_i != AXI_RESP_OKAY[1:0]);
  assign w0        = dsc_q[31:0];
  assign bufp      = dsc_q[127:64];
  // a middle descriptor without CONCAT first sends the carried bytes (short beat)
  assign split     = pkt_q && !w0.concat && (cb_q != '0);
  assign go_st     = split ? MSplit : MRar;
  assign dmb_hold  = wr_busy_i && (wr_q_i == q_q);

  // descriptor assembly: narrow beats shift in from the top; a wide beat holds
  // the whole descriptor at lane desc_addr mod BB
  if (DataWidth >= 128) begin : gen_dsc_wide
    assign dsc_in = 128'(rdata_i >> {desc_addr_i[LB-1:0], 3'b000});
  end else begin : gen_dsc_narrow
    assign dsc_in = {rdata_i, dsc_q[127:DataWidth]};
  end

  // packing: carry bytes, then the descriptor's bytes of buffer beat tx_q
  always_comb begin
    room   = (LB+1)'(BB) - {1'b0, soff_q};
    fin    = rem_q <= LenW'(room);
    nbytes = fin ? rem_q[LB:0] : room;
    lastp  = fin && w0.last_f;
    for (int b = 0; b < BB; b++) begin
      dmask[8*b+:8] = ((LB+1)'(b) < nbytes) ? 8'hff : 8'h00;
    end
    sh   = buf_q[tx_q] >> {soff_q, 3'b000};
    dm   = sh & dmask;
    comb = {{DataWidth{1'b0}}, cdata_q} | ({{DataWidth{1'b0}}, dm} << {cb_q, 3'b000});
    tot  = (LB+2)'(cb_q) + (LB+2)'(nbytes);
    emit = (tot >= (LB+2)'(BB)) || lastp;
    for (int b = 0; b < BB; b++) begin
      tot_keep[b] = (LB+2)'(b) < tot;
      cb_keep[b]  = LB'(b) < cb_q;
    end
  end

  // next data burst: bytes left (from the aligned address), 4 KiB boundary, MaxBurst
  always_comb begin
    need  = ({1'b0, rem_q} + 18'(soff_q) + 18'(BB - 1)) >> LB;
    to4k  = (13'd4096 - {1'b0, addr_q[11:0]}) >> LB;
    beats = need;
    if (18'(to4k) < beats) begin
      beats = 18'(to4k);
    end
    if (beats > 18'(MaxBurst)) begin
      beats = 18'(MaxBurst);
    end
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
    unique case (st_q)
      MDar: begin
        want_o = 1'b1;
        if (rd_owner_i) begin
          arvalid_o = 1'b1;
          araddr_o  = desc_addr_i;
          arlen_o   = 8'(DescBeats - 1);
        end
      end
      MRar: begin
        want_o = 1'b1;
        if (rd_owner_i) begin
          arvalid_o = 1'b1;
          araddr_o  = addr_q;
          arlen_o   = 8'(beats - 18'd1);
        end
      end
      MTx: begin
        if (emit) begin
          m_axis_tvalid = 1'b1;
          m_axis_tdata  = comb[DataWidth-1:0];
          m_axis_tkeep  = tot_keep;
          m_axis_tlast  = lastp && (tot <= (LB+2)'(BB));
          m_axis_tid    = q_q;
        end
      end
      MFlush, MClose, MSplit: begin
        m_axis_tvalid = 1'b1;
        m_axis_tdata  = cdata_q;
        m_axis_tkeep  = cb_keep;
        m_axis_tlast  = (st_q != MSplit);
        m_axis_tuser  = (st_q == MClose);
        m_axis_tid    = q_q;
      end
      default: ;
    endcase
  end

  // next state
  always_comb begin
    logic          found;
    logic [QW-1:0] cand;
    st_d          = st_q;
    q_d           = q_q;
    rr_d          = rr_q;
    pkt_d         = pkt_q;
    dsc_d         = dsc_q;
    rderr_d       = rderr_q;
    rem_d         = rem_q;
    addr_d        = addr_q;
    soff_d        = soff_q;
    tx_d          = tx_q;
    blen_d        = blen_q;
    buf_d         = buf_q;
    cdata_d       = cdata_q;
    cb_d          = cb_q;
    ev_head_adv_o = 1'b0;
    ev_done_inc_o = 1'b0;
    ev_int_set_o  = 1'b0;
    ev_err_o      = 1'b0;
    ev_err_bit_o  = '0;
    ev_bytes_o    = '0;
    found         = 1'b0;
    cand          = '0;
    unique case (st_q)
      MIdle: begin
        if (pkt_q) begin
          if (stopped_i[q_q]) begin
            st_d = MClose;
          end else if (avail_i[q_q]) begin
            st_d = MDar;
          end
        end else if (normal_i) begin
          for (int k = 1; k <= NumQ; k++) begin
            cand = QW'(rr_q + QW'(k));
            if (!found && avail_i[cand]) begin
              found = 1'b1;
              q_d   = cand;
              rr_d  = cand;
              st_d  = MDar;
            end
          end
        end
      end
      MDar: begin
        if (arvalid_o && arready_i) begin
          rderr_d = 1'b0;
          st_d    = MDr;
        end
      end
      MDr: begin
        if (beat) begin
          dsc_d   = dsc_in;
          rderr_d = rderr_q | err_beat;
          if (last_beat) begin
            st_d = MDchk;
          end
        end
      end
      MDchk: begin
        if (rderr_q) begin
          ev_err_o     = 1'b1;
          ev_err_bit_o = UDMA_M2S_ERR_PREF_AXI_RESPONSE[4:0];
          st_d         = pkt_q ? MClose : MIdle;
        end else if (w0.ring_id != head_id_i) begin
          ev_err_o     = 1'b1;
          ev_err_bit_o = UDMA_M2S_ERR_PREF_RING_ID[4:0];
          st_d         = pkt_q ? MClose : MIdle;
        end else if (w0.first_f == pkt_q) begin
          ev_err_o     = 1'b1;
          ev_err_bit_o = UDMA_M2S_ERR_DESC_FIRST[4:0];
          st_d         = pkt_q ? MClose : MIdle;
        end else begin
          rem_d  = (w0.len == '0) ? LenW'(UDMA_DESC_MAX_LEN) : LenW'(w0.len);
          addr_d = {bufp[63:LB], {LB{1'b0}}};
          soff_d = bufp[LB-1:0];
          st_d   = w0.dmb ? MDmb : go_st;
        end
      end
      MDmb: begin
        if (!dmb_hold) begin
          st_d = go_st;
        end
      end
      MSplit: begin
        if (m_axis_tready) begin
          cdata_d = '0;
          cb_d    = '0;
          st_d    = MRar;
        end
      end
      MRar: begin
        if (arvalid_o && arready_i) begin
          rderr_d = 1'b0;
          blen_d  = arlen_o;
          st_d    = MRd;
        end
      end
      MRd: begin
        if (beat) begin
          buf_d[rd_cnt_i[BW-1:0]] = rdata_i;
          rderr_d = rderr_q | err_beat;
          if (last_beat) begin
            if (rderr_q | err_beat) begin
              ev_err_o     = 1'b1;
              ev_err_bit_o = UDMA_M2S_ERR_DATA_AXI_RESPONSE[4:0];
              st_d         = pkt_q ? MClose : MIdle;
            end else begin
              tx_d = '0;
              st_d = MTx;
            end
          end
        end
      end
      MTx: begin
        if (m_axis_tready || !emit) begin
          ev_bytes_o = 6'(nbytes);
          rem_d      = rem_q - LenW'(nbytes);
          pkt_d      = !m_axis_tlast;
          addr_d     = addr_q + 64'(BB);
          soff_d     = '0;
          if (tot >= (LB+2)'(BB)) begin
            cdata_d = comb[2*DataWidth-1:DataWidth];
            cb_d    = LB'(tot - (LB+2)'(BB));
          end else if (lastp) begin
            cdata_d = '0;
            cb_d    = '0;
          end else begin
            cdata_d = comb[DataWidth-1:0];
            cb_d    = LB'(tot);
          end
          if ({{(8 - BW){1'b0}}, tx_q} == blen_q) begin
            if (lastp && (tot > (LB+2)'(BB))) begin
              st_d = MFlush;
            end else begin
              st_d = (rem_d == '0) ? MDone : MRar;
            end
          end
          tx_d = tx_q + BW'(1);
        end
      end
      MFlush: begin
        if (m_axis_tready) begin
          pkt_d   = 1'b0;
          cdata_d = '0;
          cb_d    = '0;
          st_d    = MDone;
        end
      end
      MDone: begin
        ev_head_adv_o = 1'b1;
        ev_done_inc_o = 1'b1;
        ev_int_set_o  = w0.int_en;
        st_d          = MIdle;
      end
      default: begin  // MClose
        if (m_axis_tready) begin
          pkt_d   = 1'b0;
          cdata_d = '0;
          cb_d    = '0;
          st_d    = MIdle;
        end
      end
    endcase
  end

  assign ev_q_o     = q_q;
  assign dmb_wait_o = (st_q == MDmb);
  assign st_o   = st_q;
  assign pkt_o  = pkt_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q    <= MIdle;
      q_q     <= '0;
      rr_q    <= '0;
      pkt_q   <= 1'b0;
      dsc_q   <= '0;
      rderr_q <= 1'b0;
      rem_q   <= '0;
      addr_q  <= '0;
      soff_q  <= '0;
      tx_q    <= '0;
      blen_q  <= '0;
      buf_q   <= '0;
      cdata_q <= '0;
      cb_q    <= '0;
    end else begin
      st_q    <= st_d;
      q_q     <= q_d;
      rr_q    <= rr_d;
      pkt_q   <= pkt_d;
      dsc_q   <= dsc_d;
      rderr_q <= rderr_d;
      rem_q   <= rem_d;
      addr_q  <= addr_d;
      soff_q  <= soff_d;
      tx_q    <= tx_d;
      blen_q  <= blen_d;
      buf_q   <= buf_d;
      cdata_q <= cdata_d;
      cb_q    <= cb_d;
    end
  end

  // meta_ctrl (descriptor word 1) is opaque to the queue logic
  logic unused_dsc;
  assign unused_dsc = ^{dsc_q[63:32], w0.rsvd29, w0.rsvd16};

endmodule : udma_m2s
