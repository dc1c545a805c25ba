// AXI4-Lite register adapter: the one AXI4-Lite slave of the register blocks (evt_sem,
// udma_regs). The block sees one write request and one read request per cycle and
// answers each combinationally with its error flag (and read data); the block keeps all
// side effects (doorbells, W1C, events, semaphore arithmetic).
//
// Golden model: model/src/regs/axil.rs (AxilAdapter). Handshake (docs/axil.md):
// - AW and W are each held in one register (awready = no address held, wready = no data
//   held); they may arrive in either order or together.
// - A write commits (wr_req_o, from the held address and data) in the cycle after both
//   are held and no B is pending; B is registered and shown from the next cycle.
// - A read is answered from the state of the AR handshake cycle (rd_req_o with the
//   incoming address); R is registered; arready = no R pending.
// - Reads and writes are independent: both may be requested in one cycle.

module axil_reg_adapter
  import sb2sb_pkg::*;
#(
  parameter int unsigned AddrW = 13
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // AXI4-Lite slave
  input  logic [AddrW-1:0] s_axil_awaddr,
  input  logic             s_axil_awvalid,
  output logic             s_axil_awready,
  input  logic [31:0]      s_axil_wdata,
  input  logic [3:0]       s_axil_wstrb,
  input  logic             s_axil_wvalid,
  output logic             s_axil_wready,
  output logic [1:0]       s_axil_bresp,
  output logic             s_axil_bvalid,
  input  logic             s_axil_bready,
  input  logic [AddrW-1:0] s_axil_araddr,
  input  logic             s_axil_arvalid,
  output logic             s_axil_arready,
  output logic [31:0]      s_axil_rdata,
  output logic [1:0]       s_axil_rresp,
  output logic             s_axil_rvalid,
  input  logic             s_axil_rready,
  // register side: write request (committed at this clock edge) and its error
  output logic             wr_req_o,
  output logic [AddrW-1:0] wr_addr_o,
  output logic [31:0]      wr_data_o,
  output logic [3:0]       wr_strb_o,
  input  logic             wr_err_i,
  // register side: read request (state before this edge) and its answer
  output logic             rd_req_o,
  output logic [AddrW-1:0] rd_addr_o,
  input  logic [31:0]      rd_data_i,
  input  logic             rd_err_i,
  // responses pending: [0] B, [1] R (debug)
  output logic [1:0]       pending_o
);

  localparam logic [1:0] RespOkay   = AXI_RESP_OKAY[1:0];
  localparam logic [1:0] RespSlverr = AXI_RESP_SLVERR[1:0];

  logic             aw_v_q, aw_v_d;
  logic [AddrW-1:0] aw_addr_q, aw_addr_d;
  logic             w_v_q, w_v_d;
  logic [31:0]      w_data_q, w_data_d;
  logic [3:0]       w_strb_q, w_strb_d;
  logic             b_v_q, b_v_d;
  logic [1:0]       b_resp_q, b_resp_d;
  logic             r_v_q, r_v_d;
  logic [31:0]      r_data_q, r_data_d;
  logic [1:0]       r_resp_q, r_resp_d;

  logic aw_hs, w_hs, ar_hs, b_hs, r_hs, do_write;
  assign aw_hs    = s_axil_awvalid & ~aw_v_q;
  assign w_hs     = s_axil_wvalid & ~w_v_q;
  assign ar_hs    = s_axil_arvalid & ~r_v_q;
  assign b_hs     = b_v_q & s_axil_bready;
  assign r_hs     = r_v_q & s_axil_rready;
  assign do_write = aw_v_q & w_v_q & ~b_v_q;

  assign s_axil_awready = ~aw_v_q;
  assign s_axil_wready  = ~w_v_q;
  assign s_axil_bvalid  = b_v_q;
  assign s_axil_bresp   = b_resp_q;
  assign s_axil_arready = ~r_v_q;
  assign s_axil_rvalid  = r_v_q;
  assign s_axil_rdata   = r_data_q;
  assign s_axil_rresp   = r_resp_q;

  assign wr_req_o  = do_write;
  assign wr_addr_o = aw_addr_q;
  assign wr_data_o = w_data_q;
  assign wr_strb_o = w_strb_q;
  assign rd_req_o  = ar_hs;
  assign rd_addr_o = s_axil_araddr;
  assign pending_o = {r_v_q, b_v_q};

  always_comb begin
    aw_v_d    = aw_v_q;
    aw_addr_d = aw_addr_q;
    w_v_d     = w_v_q;
    w_data_d  = w_data_q;
    w_strb_d  = w_strb_q;
    b_v_d     = b_v_q;
    b_resp_d  = b_resp_q;
    r_v_d     = r_v_q;
    r_data_d  = r_data_q;
    r_resp_d  = r_resp_q;
    if (aw_hs) begin
      aw_v_d    = 1'b1;
      aw_addr_d = s_axil_awaddr;
    end
    if (w_hs) begin
      w_v_d    = 1'b1;
      w_data_d = s_axil_wdata;
      w_strb_d = s_axil_wstrb;
    end
    if (do_write) begin
      aw_v_d   = 1'b0;
      w_v_d    = 1'b0;
      b_v_d    = 1'b1;
      b_resp_d = wr_err_i ? RespSlverr : RespOkay;
    end
    if (b_hs) begin
      b_v_d = 1'b0;
    end
    if (ar_hs) begin
      r_v_d    = 1'b1;
      r_data_d = rd_data_i;
      r_resp_d = rd_err_i ? RespSlverr : RespOkay;
    end
    if (r_hs) begin
      r_v_d = 1'b0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      aw_v_q    <= 1'b0;
      aw_addr_q <= '0;
      w_v_q     <= 1'b0;
      w_data_q  <= '0;
      w_strb_q  <= '0;
      b_v_q     <= 1'b0;
      b_resp_q  <= '0;
      r_v_q     <= 1'b0;
      r_data_q  <= '0;
      r_resp_q  <= '0;
    end else begin
      aw_v_q    <= aw_v_d;
      aw_addr_q <= aw_addr_d;
      w_v_q     <= w_v_d;
      w_data_q  <= w_data_d;
      w_strb_q  <= w_strb_d;
      b_v_q     <= b_v_d;
      b_resp_q  <= b_resp_d;
      r_v_q     <= r_v_d;
      r_data_q  <= r_data_d;
      r_resp_q  <= r_resp_d;
    end
  end

endmodule : axil_reg_adapter
