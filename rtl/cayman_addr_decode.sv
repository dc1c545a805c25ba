// CAYMAN SoC address decoder / folder (seed 001 §2; ARCHITECTURE §2).
//
// One operation per cycle, selected by op_i:
//   ADDR_OP_DECODE        : decode addr_i
//   ADDR_OP_FOLD_CHIP     : addr = fold_chip_id(local_i, die_i, chip_id_i)
//   ADDR_OP_FOLD_NEIGHBOR : addr = fold_neighbor(local_i, die_i, exit_seng_i)
//   code 3 (unused)       : treated as decode (project-defined)
// The resulting address is decoded through both views (chip-id and neighbor),
// reserved fields are flagged, and the route is classified under each view
// relative to this core (self_die_i, self_chip_id_i); the rule is in
// docs/address.md.
//
// Latency 1: at the rising edge the output registers load the result of the
// inputs of that cycle when valid_i is high (they hold otherwise); valid_o
// follows valid_i one cycle later. Field outputs are slices of the registered
// address. Golden model: model/src/decoder/mod.rs.

module cayman_addr_decode (
  input  logic                        clk_i,
  input  logic                        rst_ni,
  input  logic                        valid_i,
  input  logic [sb2sb_pkg::ADDR_OP_W-1:0]        op_i,
  input  logic [63:0]                 addr_i,
  input  logic [sb2sb_pkg::ADDR_LOCAL_W-1:0]     local_i,
  input  logic                        die_i,
  input  logic [sb2sb_pkg::ADDR_CAYMAN_ID_W-1:0] chip_id_i,
  input  logic                        exit_seng_i,
  input  logic                        self_die_i,
  input  logic [sb2sb_pkg::ADDR_CAYMAN_ID_W-1:0] self_chip_id_i,
  output logic                        valid_o,
  output logic [sb2sb_pkg::ADDR_OP_W-1:0]        op_o,
  output logic [63:0]                 addr_o,
  output logic [sb2sb_pkg::ADDR_LOCAL_W-1:0]     local_o,
  output logic                        die_o,
  output logic [sb2sb_pkg::ADDR_CAYMAN_ID_W-1:0] cayman_id_o,
  output logic                        id_valid_o,
  output logic                        exit_seng_o,
  output logic                        exit_die_o,
  output logic                        neighbor_route_o,
  output logic                        peb_o,
  output logic                        rsvd_nbr_o,
  output logic                        rsvd_mid_o,
  output logic                        rsvd_hi_o,
  output logic [sb2sb_pkg::ROUTE_W-1:0]          route_chip_o,
  output logic [sb2sb_pkg::ROUTE_W-1:0]          route_nbr_o
);

  // Route of address a under one view (nbr_view = 1: neighbor view).
  function automatic logic [sb2sb_pkg::ROUTE_W-1:0] route_of(
    input logic [63:0]                 a,
    input logic                        nbr_view,
    input logic                        self_die,
    input logic [sb2sb_pkg::ADDR_CAYMAN_ID_W-1:0] self_chip
  );
    logic [sb2sb_pkg::ROUTE_W-1:0] local_route;
    logic [sb2sb_pkg::ROUTE_W-1:0] r;
    if (a[sb2sb_pkg::ADDR_HOST_BIT]) begin
      local_route = sb2sb_pkg::ROUTE_HOST;
    end else if (a[sb2sb_pkg::ADDR_DIE_BIT] == self_die) begin
      local_route = sb2sb_pkg::ROUTE_SAME_DIE;
    end else begin
      local_route = sb2sb_pkg::ROUTE_OTHER_DIE;
    end
    if (!a[sb2sb_pkg::ADDR_ID_VALID_BIT]) begin
      // Un-routed physical address: neighbor-device aperture, host, or die.
      r = a[sb2sb_pkg::ADDR_NEIGHBOR_ROUTE_BIT] ? sb2sb_pkg::ROUTE_NEIGHBOR_DEVICE
                                                : local_route;
    end else if (!nbr_view) begin
      // Chip-id view: another chip, or this chip's own map.
      r = (a[sb2sb_pkg::ADDR_CAYMAN_ID_LSB +: sb2sb_pkg::ADDR_CAYMAN_ID_W] != self_chip)
          ? sb2sb_pkg::ROUTE_OTHER_CHIP : local_route;
    end else if (a[sb2sb_pkg::ADDR_NEIGHBOR_ROUTE_BIT]) begin
      // Neighbor view, routed: across the die boundary or out to a neighbor device.
      r = a[sb2sb_pkg::ADDR_EXIT_DIE_BIT] ? sb2sb_pkg::ROUTE_OTHER_DIE
                                          : sb2sb_pkg::ROUTE_NEIGHBOR_DEVICE;
    end else begin
      r = local_route;
    end
    return r;
  endfunction

  // Address of this cycle's operation (SET chains of seed 001 §2.3).
  logic [63:0] addr_d;
  always_comb begin
    addr_d = addr_i;
    unique case (op_i)
      sb2sb_pkg::ADDR_OP_FOLD_CHIP: begin
        addr_d = '0;
        addr_d[sb2sb_pkg::ADDR_LOCAL_LSB +: sb2sb_pkg::ADDR_LOCAL_W]         = local_i;
        addr_d[sb2sb_pkg::ADDR_DIE_BIT]                           = die_i;
        addr_d[sb2sb_pkg::ADDR_CAYMAN_ID_LSB +: sb2sb_pkg::ADDR_CAYMAN_ID_W] = chip_id_i;
        addr_d[sb2sb_pkg::ADDR_ID_VALID_BIT]                      = 1'b1;
      end
      sb2sb_pkg::ADDR_OP_FOLD_NEIGHBOR: begin
        addr_d = '0;
        addr_d[sb2sb_pkg::ADDR_LOCAL_LSB +: sb2sb_pkg::ADDR_LOCAL_W] = local_i;
        addr_d[sb2sb_pkg::ADDR_DIE_BIT]                   = die_i;
        addr_d[sb2sb_pkg::ADDR_EXIT_SENG_BIT]             = exit_seng_i;
        addr_d[sb2sb_pkg::ADDR_EXIT_DIE_BIT]              = 1'b1;
        addr_d[sb2sb_pkg::ADDR_NEIGHBOR_ROUTE_BIT]        = 1'b1;
        addr_d[sb2sb_pkg::ADDR_ID_VALID_BIT]              = 1'b1;
      end
      sb2sb_pkg::ADDR_OP_DECODE: begin
        addr_d = addr_i;
      end
      default: begin
        // The unused op code decodes addr_i as given (project-defined).
        addr_d = addr_i;
      end
    endcase
  end

  logic [sb2sb_pkg::ROUTE_W-1:0] route_chip_d;
  logic [sb2sb_pkg::ROUTE_W-1:0] route_nbr_d;
  always_comb begin
    route_chip_d = route_of(addr_d, 1'b0, self_die_i, self_chip_id_i);
    route_nbr_d  = route_of(addr_d, 1'b1, self_die_i, self_chip_id_i);
  end

  // Output stage.
  logic                 valid_q;
  logic [sb2sb_pkg::ADDR_OP_W-1:0] op_q;
  logic [63:0]          addr_q;
  logic [sb2sb_pkg::ROUTE_W-1:0]   route_chip_q;
  logic [sb2sb_pkg::ROUTE_W-1:0]   route_nbr_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q      <= 1'b0;
      op_q         <= '0;
      addr_q       <= '0;
      route_chip_q <= '0;
      route_nbr_q  <= '0;
    end else begin
      valid_q <= valid_i;
      if (valid_i) begin
        op_q         <= op_i;
        addr_q       <= addr_d;
        route_chip_q <= route_chip_d;
        route_nbr_q  <= route_nbr_d;
      end
    end
  end

  assign valid_o          = valid_q;
  assign op_o             = op_q;
  assign addr_o           = addr_q;
  assign local_o          = addr_q[sb2sb_pkg::ADDR_LOCAL_LSB +: sb2sb_pkg::ADDR_LOCAL_W];
  assign die_o            = addr_q[sb2sb_pkg::ADDR_DIE_BIT];
  assign cayman_id_o      = addr_q[sb2sb_pkg::ADDR_CAYMAN_ID_LSB +: sb2sb_pkg::ADDR_CAYMAN_ID_W];
  assign id_valid_o       = addr_q[sb2sb_pkg::ADDR_ID_VALID_BIT];
  assign exit_seng_o      = addr_q[sb2sb_pkg::ADDR_EXIT_SENG_BIT];
  assign exit_die_o       = addr_q[sb2sb_pkg::ADDR_EXIT_DIE_BIT];
  assign neighbor_route_o = addr_q[sb2sb_pkg::ADDR_NEIGHBOR_ROUTE_BIT];
  assign peb_o            = addr_q[sb2sb_pkg::ADDR_PEB_BIT];
  assign rsvd_nbr_o       = |addr_q[sb2sb_pkg::ADDR_RSVD_NBR_LSB +: sb2sb_pkg::ADDR_RSVD_NBR_W];
  assign rsvd_mid_o       = |addr_q[sb2sb_pkg::ADDR_RSVD_MID_LSB +: sb2sb_pkg::ADDR_RSVD_MID_W];
  assign rsvd_hi_o        = |addr_q[sb2sb_pkg::ADDR_RSVD_HI_LSB +: sb2sb_pkg::ADDR_RSVD_HI_W];
  assign route_chip_o     = route_chip_q;
  assign route_nbr_o      = route_nbr_q;

endmodule : cayman_addr_decode
