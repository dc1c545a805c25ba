// UDMA descriptor prefetch buffer of one side (instantiated by udma_m2s and udma_s2m):
// one 16-byte descriptor of queue q_o read ahead (docs/udma.md "Descriptor prefetch").
//
// While its side moves the data of the descriptor at the head of a queue, the side
// requests (want_i) the descriptor at head + 1 of that queue; the request latches the
// queue and the address. The side drives the prefetch AR (address addr_o) while it holds
// the read-port grant outside its own descriptor and data requests; the AR handshake
// (ar_hs_i) starts the read, and the side's R beats that belong to the prefetch (beat_i)
// assemble the descriptor as a descriptor read does (narrow beats shift in from the top,
// a wide beat holds it at lane addr mod BeatBytes) with the OR of their RRESP errors. The
// read's last beat (last_i) makes the buffer valid. In a settled IDLE cycle (settle_i:
// no prefetch granted or outstanding) the buffer stays only with keep_i (the side made
// no decision and the queue is still available); the side takes a valid buffer of the
// queue it fetches straight to its descriptor check.
//
// Golden model: model/src/udma/pf.rs (DescPf::step).

module udma_desc_pf
  import sb2sb_pkg::*;
#(
  parameter int unsigned NumQ      = 16,
  parameter int unsigned DataWidth = 64,
  localparam int unsigned QueueIdxW = $clog2(NumQ),
  localparam int unsigned BeatBytes = DataWidth / 8,
  localparam int unsigned LaneBits  = $clog2(BeatBytes)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // request: head + 1 of queue q_i at addr_i
  input  logic                 want_i,
  input  logic [QueueIdxW-1:0] q_i,
  input  logic [63:0]          addr_i,
  // the prefetch AR handshakes
  input  logic                 ar_hs_i,
  // an R beat of the prefetch read, its data and response; it is the read's last beat
  input  logic                 beat_i,
  input  logic [DataWidth-1:0] rdata_i,
  input  logic [1:0]           rresp_i,
  input  logic                 last_i,
  // settled IDLE: the buffer stays only with keep_i
  input  logic                 settle_i,
  input  logic                 keep_i,
  // read outstanding; descriptor buffered (valid); its queue, address, bytes, RRESP error
  output logic                 out_o,
  output logic                 vld_o,
  output logic [QueueIdxW-1:0] q_o,
  output logic [63:0]          addr_o,
  output logic [127:0]         desc_o,
  output logic                 err_o
);

  logic                 out_q, out_d, vld_q, vld_d;
  logic [QueueIdxW-1:0] q_q, q_d;
  logic [63:0]          addr_q, addr_d;
  logic [127:0]         desc_q, desc_d;
  logic                 err_q, err_d;
  logic [127:0]         desc_in;

  // descriptor assembly (as a descriptor read of the side)
  if (DataWidth >= 128) begin : gen_desc_wide
    assign desc_in = 128'(rdata_i >> {addr_q[LaneBits-1:0], 3'b000});
  end else begin : gen_desc_narrow
    assign desc_in = {rdata_i, desc_q[127:DataWidth]};
  end

  always_comb begin : p_next
    out_d  = out_q;
    vld_d  = vld_q;
    q_d    = q_q;
    addr_d = addr_q;
    desc_d = desc_q;
    err_d  = err_q;
    if (want_i) begin
      q_d    = q_i;
      addr_d = addr_i;
    end
    if (ar_hs_i) begin
      out_d = 1'b1;
      err_d = 1'b0;
    end
    if (beat_i) begin
      desc_d = desc_in;
      err_d  = err_q | (rresp_i != AXI_RESP_OKAY[1:0]);
      if (last_i) begin
        out_d = 1'b0;
        vld_d = 1'b1;
      end
    end
    if (settle_i) begin
      vld_d = vld_q && keep_i;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_regs
    if (!rst_ni) begin
      out_q  <= 1'b0;
      vld_q  <= 1'b0;
      q_q    <= '0;
      addr_q <= '0;
      desc_q <= '0;
      err_q  <= 1'b0;
    end else begin
      out_q  <= out_d;
      vld_q  <= vld_d;
      q_q    <= q_d;
      addr_q <= addr_d;
      desc_q <= desc_d;
      err_q  <= err_d;
    end
  end

  assign out_o  = out_q;
  assign vld_o  = vld_q;
  assign q_o    = q_q;
  assign addr_o = addr_q;
  assign desc_o = desc_q;
  assign err_o  = err_q;

endmodule : udma_desc_pf
