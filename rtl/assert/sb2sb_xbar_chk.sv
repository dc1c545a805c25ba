// AXI4 checkers of one core's interconnect (bind to sb2sb_xbar): the rules of
// axi4_master_chk on every AXI4 port of the xbar —
//   wm[k]   write slave ports of the write lanes (engines 0..NumEngines-1,
//           the Q7 memory port NumEngines), each with its own B response
//   lin[l]  write slave ports of the in-lanes (the incoming link lanes)
//   rm[k]   read slave ports of the engines (one read lane each)
//   link[l] the write masters towards the outgoing io_d2d link lanes
// Each port carries DataBits-wide beats as INCR bursts (AxSIZE log2(DataBits /
// 8), AxBURST INCR tied
// here); a write-only port ties its read channel idle and vice versa. The
// SRAM ports (mem_*) carry no AWLEN and are not AXI4 ports: not checked.
// Instance names (gen_wm[k].u_chk, gen_lin[k].u_chk, gen_rm[k].u_chk,
// gen_link[k].u_link_chk) appear in a
// failure report's scope.

module sb2sb_xbar_chk #(
  parameter int unsigned NumEngines = 4,
  parameter int unsigned NumLk      = NumEngines,
  // the xbar's DataBits (the bind passes it; 64 is the firing harness's width)
  parameter int unsigned DataBits   = 64,
  localparam int unsigned NumWm = NumEngines + 1,
  localparam int unsigned BB    = DataBits / 8
) (
  input logic                        clk_i,
  input logic                        rst_ni,
  input logic [NumWm-1:0][63:0]      wm_awaddr_i,
  input logic [NumWm-1:0][7:0]       wm_awlen_i,
  input logic [NumWm-1:0]            wm_awvalid_i,
  input logic [NumWm-1:0]            wm_awready_i,
  input logic [NumWm-1:0][DataBits-1:0] wm_wdata_i,
  input logic [NumWm-1:0][BB-1:0]       wm_wstrb_i,
  input logic [NumWm-1:0]            wm_wlast_i,
  input logic [NumWm-1:0]            wm_wvalid_i,
  input logic [NumWm-1:0]            wm_wready_i,
  input logic [NumWm-1:0][1:0]       wm_bresp_i,
  input logic [NumWm-1:0]            wm_bvalid_i,
  input logic [NumWm-1:0]            wm_bready_i,
  input logic [NumLk-1:0][63:0]      lin_awaddr_i,
  input logic [NumLk-1:0][7:0]       lin_awlen_i,
  input logic [NumLk-1:0]            lin_awvalid_i,
  input logic [NumLk-1:0]            lin_awready_i,
  input logic [NumLk-1:0][DataBits-1:0] lin_wdata_i,
  input logic [NumLk-1:0][BB-1:0]       lin_wstrb_i,
  input logic [NumLk-1:0]            lin_wlast_i,
  input logic [NumLk-1:0]            lin_wvalid_i,
  input logic [NumLk-1:0]            lin_wready_i,
  input logic [NumLk-1:0][1:0]       lin_bresp_i,
  input logic [NumLk-1:0]            lin_bvalid_i,
  input logic [NumLk-1:0]            lin_bready_i,
  input logic [NumEngines-1:0][63:0] rm_araddr_i,
  input logic [NumEngines-1:0][7:0]  rm_arlen_i,
  input logic [NumEngines-1:0]       rm_arvalid_i,
  input logic [NumEngines-1:0]       rm_arready_i,
  input logic [NumEngines-1:0][DataBits-1:0] rm_rdata_i,
  input logic [NumEngines-1:0][1:0]  rm_rresp_i,
  input logic [NumEngines-1:0]       rm_rlast_i,
  input logic [NumEngines-1:0]       rm_rvalid_i,
  input logic [NumEngines-1:0]       rm_rready_i,
  input logic [NumLk-1:0][63:0]      link_awaddr_i,
  input logic [NumLk-1:0][7:0]       link_awlen_i,
  input logic [NumLk-1:0]            link_awvalid_i,
  input logic [NumLk-1:0]            link_awready_i,
  input logic [NumLk-1:0][DataBits-1:0] link_wdata_i,
  input logic [NumLk-1:0][BB-1:0]       link_wstrb_i,
  input logic [NumLk-1:0]            link_wlast_i,
  input logic [NumLk-1:0]            link_wvalid_i,
  input logic [NumLk-1:0]            link_wready_i,
  input logic [NumLk-1:0][1:0]       link_bresp_i,
  input logic [NumLk-1:0]            link_bvalid_i,
  input logic [NumLk-1:0]            link_bready_i
);
  localparam logic [2:0] SizeBeat     = 3'($clog2(BB));
  localparam logic [1:0] BurstIncr = 2'b01;

  for (genvar k = 0; k < NumWm; k++) begin : gen_wm
    axi4_master_chk #(.AddrWidth(64), .DataWidth(DataBits), .DutIsMaster(1'b0)) u_chk (
      .clk_i     (clk_i),
      .rst_ni    (rst_ni),
      .awaddr_i  (wm_awaddr_i[k]),
      .awlen_i   (wm_awlen_i[k]),
      .awsize_i  (SizeBeat),
      .awburst_i (BurstIncr),
      .awvalid_i (wm_awvalid_i[k]),
      .awready_i (wm_awready_i[k]),
      .wdata_i   (wm_wdata_i[k]),
      .wstrb_i   (wm_wstrb_i[k]),
      .wlast_i   (wm_wlast_i[k]),
      .wvalid_i  (wm_wvalid_i[k]),
      .wready_i  (wm_wready_i[k]),
      .bresp_i   (wm_bresp_i[k]),
      .bvalid_i  (wm_bvalid_i[k]),
      .bready_i  (wm_bready_i[k]),
      .araddr_i  (64'd0),
      .arlen_i   (8'd0),
      .arsize_i  (SizeBeat),
      .arburst_i (BurstIncr),
      .arvalid_i (1'b0),
      .arready_i (1'b0),
      .rdata_i   ('0),
      .rresp_i   (2'd0),
      .rlast_i   (1'b0),
      .rvalid_i  (1'b0),
      .rready_i  (1'b0)
    );
  end

  for (genvar k = 0; k < NumLk; k++) begin : gen_lin
    axi4_master_chk #(.AddrWidth(64), .DataWidth(DataBits), .DutIsMaster(1'b0)) u_chk (
      .clk_i     (clk_i),
      .rst_ni    (rst_ni),
      .awaddr_i  (lin_awaddr_i[k]),
      .awlen_i   (lin_awlen_i[k]),
      .awsize_i  (SizeBeat),
      .awburst_i (BurstIncr),
      .awvalid_i (lin_awvalid_i[k]),
      .awready_i (lin_awready_i[k]),
      .wdata_i   (lin_wdata_i[k]),
      .wstrb_i   (lin_wstrb_i[k]),
      .wlast_i   (lin_wlast_i[k]),
      .wvalid_i  (lin_wvalid_i[k]),
      .wready_i  (lin_wready_i[k]),
      .bresp_i   (lin_bresp_i[k]),
      .bvalid_i  (lin_bvalid_i[k]),
      .bready_i  (lin_bready_i[k]),
      .araddr_i  (64'd0),
      .arlen_i   (8'd0),
      .arsize_i  (SizeBeat),
      .arburst_i (BurstIncr),
      .arvalid_i (1'b0),
      .arready_i (1'b0),
      .rdata_i   ('0),
      .rresp_i   (2'd0),
      .rlast_i   (1'b0),
      .rvalid_i  (1'b0),
      .rready_i  (1'b0)
    );
  end

  for (genvar k = 0; k < NumEngines; k++) begin : gen_rm
    axi4_master_chk #(.AddrWidth(64), .DataWidth(DataBits), .DutIsMaster(1'b0)) u_chk (
      .clk_i     (clk_i),
      .rst_ni    (rst_ni),
      .awaddr_i  (64'd0),
      .awlen_i   (8'd0),
      .awsize_i  (SizeBeat),
      .awburst_i (BurstIncr),
      .awvalid_i (1'b0),
      .awready_i (1'b0),
      .wdata_i   ('0),
      .wstrb_i   ('0),
      .wlast_i   (1'b0),
      .wvalid_i  (1'b0),
      .wready_i  (1'b0),
      .bresp_i   (2'd0),
      .bvalid_i  (1'b0),
      .bready_i  (1'b0),
      .araddr_i  (rm_araddr_i[k]),
      .arlen_i   (rm_arlen_i[k]),
      .arsize_i  (SizeBeat),
      .arburst_i (BurstIncr),
      .arvalid_i (rm_arvalid_i[k]),
      .arready_i (rm_arready_i[k]),
      .rdata_i   (rm_rdata_i[k]),
      .rresp_i   (rm_rresp_i[k]),
      .rlast_i   (rm_rlast_i[k]),
      .rvalid_i  (rm_rvalid_i[k]),
      .rready_i  (rm_rready_i[k])
    );
  end

  for (genvar k = 0; k < NumLk; k++) begin : gen_link
    axi4_master_chk #(.AddrWidth(64), .DataWidth(DataBits)) u_link_chk (
      .clk_i     (clk_i),
      .rst_ni    (rst_ni),
      .awaddr_i  (link_awaddr_i[k]),
      .awlen_i   (link_awlen_i[k]),
      .awsize_i  (SizeBeat),
      .awburst_i (BurstIncr),
      .awvalid_i (link_awvalid_i[k]),
      .awready_i (link_awready_i[k]),
      .wdata_i   (link_wdata_i[k]),
      .wstrb_i   (link_wstrb_i[k]),
      .wlast_i   (link_wlast_i[k]),
      .wvalid_i  (link_wvalid_i[k]),
      .wready_i  (link_wready_i[k]),
      .bresp_i   (link_bresp_i[k]),
      .bvalid_i  (link_bvalid_i[k]),
      .bready_i  (link_bready_i[k]),
      .araddr_i  (64'd0),
      .arlen_i   (8'd0),
      .arsize_i  (SizeBeat),
      .arburst_i (BurstIncr),
      .arvalid_i (1'b0),
      .arready_i (1'b0),
      .rdata_i   ('0),
      .rresp_i   (2'd0),
      .rlast_i   (1'b0),
      .rvalid_i  (1'b0),
      .rready_i  (1'b0)
    );
  end
endmodule : sb2sb_xbar_chk
