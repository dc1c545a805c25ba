// Formal harness: the CAYMAN address decoder's fold/decode identities for both
// views (docs/address.md), on chains of two decoder instances:
//   fold then decode  u_fold folds free arguments (fold_chip_id or
//                     fold_neighbor), u_dec decodes its address: every field
//                     comes back, the fold's constant bits read as set, the
//                     reserved fields as clear, and the route is the view's.
//   decode then fold  u_dec2 decodes a free address that is canonical for one
//                     view (every bit outside that view's fields at its fold
//                     value), u_fold2 folds the decoded fields with that
//                     view's fold: the address comes back.
// The arguments travel two cycles (the latency of two decoders) in shadow
// registers beside the chains.
`include "sb2sb_assert.svh"

module cayman_addr_decode_fv
  import sb2sb_pkg::*;
(
  input logic                        clk_i,
  input logic                        rst_ni,
  input logic                        valid_i,
  input logic                        nbr_i,       // 1: neighbor view, 0: chip-id view
  input logic [ADDR_LOCAL_W-1:0]     local_i,
  input logic                        die_i,
  input logic [ADDR_CAYMAN_ID_W-1:0] chip_id_i,
  input logic                        exit_seng_i,
  input logic [63:0]                 addr_i,
  input logic                        self_die_i,
  input logic [ADDR_CAYMAN_ID_W-1:0] self_chip_id_i
);
  localparam int unsigned LW = ADDR_LOCAL_W;
  localparam int unsigned CW = ADDR_CAYMAN_ID_W;

  fv_reset u_rst (.clk_i, .rst_ni);

  // The core's own position is a strap: constant over a trace.
  logic                self_die_q;
  logic [CW-1:0]       self_chip_q;
  logic                straps_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      straps_q    <= 1'b0;
      self_die_q  <= 1'b0;
      self_chip_q <= '0;
    end else begin
      straps_q    <= 1'b1;
      self_die_q  <= self_die_i;
      self_chip_q <= self_chip_id_i;
    end
  end
  `SB2SB_RULE(1'b1, FV_DEC_STRAPS, !straps_q || (self_die_i == self_die_q &&
      self_chip_id_i == self_chip_q))

  // ---- fold then decode ----------------------------------------------------
  logic [ADDR_OP_W-1:0] fold_op;
  assign fold_op = nbr_i ? ADDR_OP_FOLD_NEIGHBOR : ADDR_OP_FOLD_CHIP;

  logic                 f_valid, d_valid;
  logic [ADDR_OP_W-1:0] f_op, d_op;
  logic [63:0]          f_addr, d_addr;
  logic [LW-1:0]        f_local, d_local;
  logic                 f_die, d_die, f_idv, d_idv, f_es, d_es, f_ed, d_ed, f_nr, d_nr;
  logic                 f_peb, d_peb, f_rn, d_rn, f_rm, d_rm, f_rh, d_rh;
  logic [CW-1:0]        f_cid, d_cid;
  logic [ROUTE_W-1:0]   f_rc, d_rc, f_rnb, d_rnb;

  cayman_addr_decode u_fold (
    .clk_i, .rst_ni,
    .valid_i, .op_i (fold_op), .addr_i,
    .local_i, .die_i, .chip_id_i, .exit_seng_i,
    .self_die_i, .self_chip_id_i,
    .valid_o (f_valid), .op_o (f_op), .addr_o (f_addr), .local_o (f_local),
    .die_o (f_die), .cayman_id_o (f_cid), .id_valid_o (f_idv), .exit_seng_o (f_es),
    .exit_die_o (f_ed), .neighbor_route_o (f_nr), .peb_o (f_peb), .rsvd_nbr_o (f_rn),
    .rsvd_mid_o (f_rm), .rsvd_hi_o (f_rh), .route_chip_o (f_rc), .route_nbr_o (f_rnb)
  );

  cayman_addr_decode u_dec (
    .clk_i, .rst_ni,
    .valid_i (f_valid), .op_i (ADDR_OP_DECODE), .addr_i (f_addr),
    .local_i ('0), .die_i (1'b0), .chip_id_i ('0), .exit_seng_i (1'b0),
    .self_die_i, .self_chip_id_i,
    .valid_o (d_valid), .op_o (d_op), .addr_o (d_addr), .local_o (d_local),
    .die_o (d_die), .cayman_id_o (d_cid), .id_valid_o (d_idv), .exit_seng_o (d_es),
    .exit_die_o (d_ed), .neighbor_route_o (d_nr), .peb_o (d_peb), .rsvd_nbr_o (d_rn),
    .rsvd_mid_o (d_rm), .rsvd_hi_o (d_rh), .route_chip_o (d_rc), .route_nbr_o (d_rnb)
  );

  // Arguments, two stages.
  typedef struct packed {
    logic          nbr;
    logic [LW-1:0] loc;
    logic          die;
    logic [CW-1:0] chip;
    logic          es;
  } args_t;
  args_t a_d, a1_q, a2_q;
  assign a_d = '{nbr: nbr_i, loc: local_i, die: die_i, chip: chip_id_i, es: exit_seng_i};
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a1_q <= '0;
      a2_q <= '0;
    end else begin
      if (valid_i) begin
        a1_q <= a_d;
      end
      if (f_valid) begin
        a2_q <= a1_q;
      end
    end
  end

  // The route of a local (un-routed) part under this core's position.
  logic [ROUTE_W-1:0] local_route;
  assign local_route = a2_q.loc[ADDR_HOST_BIT - ADDR_LOCAL_LSB] ? ROUTE_HOST :
                       (a2_q.die == self_die_i) ? ROUTE_SAME_DIE : ROUTE_OTHER_DIE;

  // The folded address, one cycle later (decode passes the address through).
  logic [63:0] f_addr_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_addr_q <= '0;
    end else if (f_valid) begin
      f_addr_q <= f_addr;
    end
  end

  `SB2SB_ASSERT(FV_DEC_FOLD_CHIP_FIELDS, !(d_valid && !a2_q.nbr) ||
      (d_local == a2_q.loc && d_die == a2_q.die && d_cid == a2_q.chip && d_idv &&
       !d_rm && !d_rh))
  `SB2SB_ASSERT(FV_DEC_FOLD_CHIP_ROUTE, !(d_valid && !a2_q.nbr) ||
      d_rc == ((a2_q.chip != self_chip_id_i) ? ROUTE_OTHER_CHIP : local_route))
  `SB2SB_ASSERT(FV_DEC_FOLD_NBR_FIELDS, !(d_valid && a2_q.nbr) ||
      (d_local == a2_q.loc && d_die == a2_q.die && d_es == a2_q.es && d_ed && d_nr && d_idv &&
       !d_peb && !d_rn && !d_rm && !d_rh))
  `SB2SB_ASSERT(FV_DEC_FOLD_NBR_ROUTE, !(d_valid && a2_q.nbr) || d_rnb == ROUTE_OTHER_DIE)
  `SB2SB_ASSERT(FV_DEC_PASS_THROUGH, !d_valid || d_addr == f_addr_q)


  // ---- decode then fold ----------------------------------------------------
  // Canonical addresses: those a fold of the view produces.
  logic chip_canon, nbr_canon;
  always_comb begin
    logic [63:0] c, n;
    c = '0;
    c[ADDR_LOCAL_LSB +: LW]      = addr_i[ADDR_LOCAL_LSB +: LW];
    c[ADDR_DIE_BIT]              = addr_i[ADDR_DIE_BIT];
    c[ADDR_CAYMAN_ID_LSB +: CW]  = addr_i[ADDR_CAYMAN_ID_LSB +: CW];
    c[ADDR_ID_VALID_BIT]         = 1'b1;
    n = '0;
    n[ADDR_LOCAL_LSB +: LW]      = addr_i[ADDR_LOCAL_LSB +: LW];
    n[ADDR_DIE_BIT]              = addr_i[ADDR_DIE_BIT];
    n[ADDR_EXIT_SENG_BIT]        = addr_i[ADDR_EXIT_SENG_BIT];
    n[ADDR_EXIT_DIE_BIT]         = 1'b1;
    n[ADDR_NEIGHBOR_ROUTE_BIT]   = 1'b1;
    n[ADDR_ID_VALID_BIT]         = 1'b1;
    chip_canon = addr_i == c;
    nbr_canon  = addr_i == n;
  end
  // The view of each decoded address travels with it.
  logic v2_nbr_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      v2_nbr_q <= 1'b0;
    end else if (valid_i) begin
      v2_nbr_q <= nbr_i;
    end
  end
  `SB2SB_RULE(1'b1, FV_DEC_CANON_INPUT, !valid_i || (nbr_i ? nbr_canon : chip_canon))

  logic                 c_valid, g_valid;
  logic [ADDR_OP_W-1:0] c_op, g_op;
  logic [63:0]          c_addr, g_addr;
  logic [LW-1:0]        c_local, g_local;
  logic                 c_die, g_die, c_idv, g_idv, c_es, g_es, c_ed, g_ed, c_nr, g_nr;
  logic                 c_peb, g_peb, c_rn, g_rn, c_rm, g_rm, c_rh, g_rh;
  logic [CW-1:0]        c_cid, g_cid;
  logic [ROUTE_W-1:0]   c_rc, g_rc, c_rnb, g_rnb;

  cayman_addr_decode u_dec2 (
    .clk_i, .rst_ni,
    .valid_i, .op_i (ADDR_OP_DECODE), .addr_i,
    .local_i ('0), .die_i (1'b0), .chip_id_i ('0), .exit_seng_i (1'b0),
    .self_die_i, .self_chip_id_i,
    .valid_o (c_valid), .op_o (c_op), .addr_o (c_addr), .local_o (c_local),
    .die_o (c_die), .cayman_id_o (c_cid), .id_valid_o (c_idv), .exit_seng_o (c_es),
    .exit_die_o (c_ed), .neighbor_route_o (c_nr), .peb_o (c_peb), .rsvd_nbr_o (c_rn),
    .rsvd_mid_o (c_rm), .rsvd_hi_o (c_rh), .route_chip_o (c_rc), .route_nbr_o (c_rnb)
  );

  cayman_addr_decode u_fold2 (
    .clk_i, .rst_ni,
    .valid_i (c_valid), .op_i (v2_nbr_q ? ADDR_OP_FOLD_NEIGHBOR : ADDR_OP_FOLD_CHIP),
    .addr_i ('0),
    .local_i (c_local), .die_i (c_die), .chip_id_i (c_cid), .exit_seng_i (c_es),
    .self_die_i, .self_chip_id_i,
    .valid_o (g_valid), .op_o (g_op), .addr_o (g_addr), .local_o (g_local),
    .die_o (g_die), .cayman_id_o (g_cid), .id_valid_o (g_idv), .exit_seng_o (g_es),
    .exit_die_o (g_ed), .neighbor_route_o (g_nr), .peb_o (g_peb), .rsvd_nbr_o (g_rn),
    .rsvd_mid_o (g_rm), .rsvd_hi_o (g_rh), .route_chip_o (g_rc), .route_nbr_o (g_rnb)
  );

  logic [63:0] in1_q, in2_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      in1_q <= '0;
      in2_q <= '0;
    end else begin
      if (valid_i) begin
        in1_q <= addr_i;
      end
      if (c_valid) begin
        in2_q <= in1_q;
      end
    end
  end
  `SB2SB_ASSERT(FV_DEC_DECODE_FOLD, !g_valid || g_addr == in2_q)

  `SB2SB_COVER(FV_DEC_C_FOLD_CHIP, d_valid && !a2_q.nbr && d_cid != self_chip_id_i)
  `SB2SB_COVER(FV_DEC_C_FOLD_NBR, d_valid && a2_q.nbr && d_es)
  `SB2SB_COVER(FV_DEC_C_DECODE_FOLD_NBR, g_valid && g_nr)

  logic unused;
  assign unused = ^{f_op, f_local, f_die, f_cid, f_idv, f_es, f_ed, f_nr, f_peb, f_rn, f_rm,
                    f_rh, f_rc, f_rnb, d_op, c_op, c_addr, c_idv, c_ed, c_nr, c_peb, c_rn,
                    c_rm, c_rh, c_rc, c_rnb, g_op, g_local, g_die, g_cid, g_idv, g_es, g_ed,
                    g_nr, g_peb, g_rn, g_rm, g_rh, g_rc, g_rnb};
endmodule : cayman_addr_decode_fv
