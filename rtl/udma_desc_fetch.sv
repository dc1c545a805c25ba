// UDMA descriptor fetch of one side (instantiated by udma_m2s and udma_s2m): the
// descriptor register and its read-error flag, the descriptor read of states DAR and DR,
// and the checks of state DCHK (docs/udma.md "Descriptor fetch").
//
// The handshake of DAR's AR (ar_hs_i; the side drives the AR) clears the error flag. In
// DR (dr_i) the side's R beats (beat_i, never the prefetch's) assemble the descriptor
// (narrow beats shift in from the top, a wide beat holds it at lane addr_lane_i: the
// descriptor address mod BeatBytes) with the OR of their RRESP errors. In IDLE the side takes (take_i) a
// prefetched descriptor of the queue it fetches and its error flag (udma_desc_pf). In
// DCHK (chk_i) the first failing check names the error: an RRESP error (ErrAxi), the ring
// id against the head's (ErrRingId) and, with FirstCheck, FIRST against the open packet
// (ErrFirst: FIRST must start a packet and only start one). With DataErr the flag also
// collects the RRESP errors of the data burst being received in the side's data phase
// (data_i) and is cleared by its last beat (last_i): M2S streams only error-free bursts.
// The registers load only with the side's register enable (en_i), as the side's own.
//
// Golden model: model/src/udma/fetch.rs (DescFetch: step = p_next, check = p_check).

module udma_desc_fetch
  import sb2sb_pkg::*;
#(
  parameter int unsigned DataWidth  = 64,
  // DCHK checks FIRST against the open packet (M2S)
  parameter bit          FirstCheck = 1'b1,
  // the error flag also collects the data bursts' RRESP errors (M2S)
  parameter bit          DataErr    = 1'b1,
  // error bits of the failing checks (the side's ERR_LOG / Q_ERR bits)
  parameter logic [4:0]  ErrAxi     = UDMA_M2S_ERR_PREF_AXI_RESPONSE[4:0],
  parameter logic [4:0]  ErrRingId  = UDMA_M2S_ERR_PREF_RING_ID[4:0],
  parameter logic [4:0]  ErrFirst   = UDMA_M2S_ERR_DESC_FIRST[4:0],
  localparam int unsigned BeatBytes = DataWidth / 8,
  localparam int unsigned LaneBits  = $clog2(BeatBytes)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // the side's register enable (its registers hold in a quiet IDLE)
  input  logic                 en_i,
  // DAR's AR handshakes; the side's state is DR, DCHK; its data phase (DataErr)
  input  logic                 ar_hs_i,
  input  logic                 dr_i,
  input  logic                 chk_i,
  input  logic                 data_i,
  // IDLE takes the prefetched descriptor and its error flag
  input  logic                 take_i,
  input  logic [127:0]         pf_desc_i,
  input  logic                 pf_err_i,
  // the queue's head descriptor: its address mod BeatBytes, its ring id; a packet is open
  input  logic [LaneBits-1:0]  addr_lane_i,
  input  udma_q_ptr_ring_id_t  head_id_i,
  input  logic                 pkt_i,
  // the side's R beat (not the prefetch's), its data, response, the burst's last beat
  input  logic                 beat_i,
  input  logic [DataWidth-1:0] rdata_i,
  input  logic [1:0]           rresp_i,
  input  logic                 last_i,
  // the descriptor, its read error; DCHK's verdict and error bit
  output logic [127:0]         desc_o,
  output logic                 err_o,
  output logic                 chk_err_o,
  output logic [4:0]           chk_err_bit_o
);

  logic [127:0]        desc_q, desc_d;
  logic                err_q, err_d, err_rd;
  logic [127:0]        desc_in;
  logic                beat_err, first_bad;
  udma_desc_len_ctrl_t w0;

  assign w0       = desc_q[31:0];
  assign beat_err = rresp_i != AXI_RESP_OKAY[1:0];

  // descriptor assembly: narrow beats shift in from the top; a wide beat holds the
  // whole descriptor at lane addr_lane_i
  if (DataWidth >= 128) begin : gen_desc_wide
    assign desc_in = 128'(rdata_i >> {addr_lane_i, 3'b000});
  end else begin : gen_desc_narrow
    assign desc_in = {rdata_i, desc_q[127:DataWidth]};
    logic unused_lane;
    assign unused_lane = ^addr_lane_i;
  end


  // Descriptor register and the error flag of its read: the prefetched descriptor
  // (IDLE), the descriptor read (DAR, DR).
  always_comb begin : p_next
    desc_d = desc_q;
    err_rd = err_q;
    if (take_i) begin
      desc_d = pf_desc_i;
      err_rd = pf_err_i;
    end
    if (ar_hs_i) begin
      err_rd = 1'b0;
    end
    if (dr_i && beat_i) begin
      desc_d = desc_in;
      err_rd = err_q | beat_err;
    end
  end

  // The data phase's beats (DataErr): the error of the burst being received.
  if (DataErr) begin : gen_data_err
    assign err_d = (data_i && beat_i) ? ((err_q | beat_err) && !last_i) : err_rd;
  end else begin : gen_desc_err
    assign err_d = err_rd;
    logic unused_data;
    assign unused_data = ^{data_i, last_i};
  end

  // FIRST against the open packet (FirstCheck)
  if (FirstCheck) begin : gen_first
    assign first_bad = w0.first_f == pkt_i;
  end else begin : gen_no_first
    assign first_bad = 1'b0;
    logic unused_first;
    assign unused_first = ^{pkt_i, w0.first_f};
  end

  // DCHK: RRESP error, ring id against the head's, FIRST; the first failing check names
  // the error.
  always_comb begin : p_check
    chk_err_o     = 1'b0;
    chk_err_bit_o = '0;
    if (chk_i) begin
      chk_err_o = 1'b1;
      if (err_q) begin
        chk_err_bit_o = ErrAxi;
      end else if (w0.ring_id != head_id_i) begin
        chk_err_bit_o = ErrRingId;
      end else begin
        chk_err_o     = first_bad;
        chk_err_bit_o = first_bad ? ErrFirst : '0;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_regs
    if (!rst_ni) begin
      desc_q <= '0;
      err_q  <= 1'b0;
    end else if (en_i) begin
      desc_q <= desc_d;
      err_q  <= err_d;
    end
  end

  assign desc_o = desc_q;
  assign err_o  = err_q;

  // the other control bits of len_ctrl are the side's
  logic unused_w0;
  assign unused_w0 = ^{w0.concat, w0.dmb, w0.rsvd29, w0.int_en, w0.last_f, w0.rsvd16, w0.len};

endmodule : udma_desc_fetch
