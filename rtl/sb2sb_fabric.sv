// The SoC fabric between the NeuronCores of sb2sb_system (docs/system-rtl.md).
//
// Placement: core c sits on die-global c / CoresPerDie, package (c /
// CoresPerDie) / 2, die (c / CoresPerDie) % 2, index c % CoresPerDie in its
// die, and carries its package's CAYMAN_ID (the package number,
// system::Topology::default_chip_id); the straps are outputs (core_*_o) so
// the system top wires the same values into the cores.
//
// Route: each outgoing link lane l of core s names the destination of its
// burst (sb2sb_core lk_dest_o, address bits [63:32]). The fabric decodes it
// like system::map::route_address: the package is the issuing one for an
// un-routed address and in the neighbor view (NEIGHBOR_ROUTE and EXIT_DIE),
// the one whose CAYMAN_ID is [53:48] in the chip-id view; the die is DIE
// [47], the core LOCAL [45:32]. A destination that names no core of the
// system, the issuing core itself, or breaks a reserved-field rule is a route
// error: the lane joins no link (its burst waits) and route_err_o[s] sets.
//
// Links: per directed core pair (s, d) and lane l one io_d2d_link with the
// latency of the pair's class, sb2sb_pkg::link_latency_at (generated from
// system::cycle::LINK_LATENCY_RULE): LinkLatency to the other die of the
// package, LinkLatency / 4 on the die, 4 x LinkLatency to another package.
// The near side of link (s, d, l) is core s's lane l while the lane's route
// is d; otherwise its inputs are idle.
//
// Grant: per (destination d, lane l) the links (s, d, l) offering an AW are
// granted in turn (the next source after the last granted, round robin), in
// the cycle one offers it; the grant holds until every burst whose AW the
// in-lane took over it had its B (AW handshakes counted). The granted link
// drives core d's in-lane l; the other links towards it see no READY.
//
// Golden twin: model/src/pair/fabric.rs.

module sb2sb_fabric #(
  parameter int unsigned NumCores    = 4,
  parameter int unsigned CoresPerDie = 2,
  parameter int unsigned NumLk       = 2,
  parameter int unsigned DataBits    = int'(sb2sb_pkg::ENGINE_DATA_BITS),
  // io_d2d latency to the other die of the package (CoreParams::link_latency)
  parameter int unsigned LinkLatency = 8,
  localparam int unsigned StrbBits = DataBits / 8,
  localparam int unsigned CW       = (NumCores > 1) ? $clog2(NumCores) : 1
) (
  input  logic                                       clk_i,
  input  logic                                       rst_ni,
  // link backpressure of every link out of core s
  input  logic [NumCores-1:0]                        stall_i,
  // placement straps of the cores
  output logic [NumCores-1:0]                        core_die_o,
  output logic [NumCores-1:0][5:0]                   core_chip_o,
  output logic [NumCores-1:0][2:0]                   core_idx_o,
  // outgoing link lanes of the cores (near sides)
  input  logic [NumCores-1:0][NumLk-1:0][31:0]       dest_i,
  input  logic [NumCores-1:0][NumLk-1:0]             dest_valid_i,
  input  logic [NumCores-1:0][NumLk-1:0][63:0]       o_awaddr_i,
  input  logic [NumCores-1:0][NumLk-1:0][7:0]        o_awlen_i,
  input  logic [NumCores-1:0][NumLk-1:0]             o_awvalid_i,
  output logic [NumCores-1:0][NumLk-1:0]             o_awready_o,
  input  logic [NumCores-1:0][NumLk-1:0][DataBits-1:0] o_wdata_i,
  input  logic [NumCores-1:0][NumLk-1:0][StrbBits-1:0] o_wstrb_i,
  input  logic [NumCores-1:0][NumLk-1:0]             o_wlast_i,
  input  logic [NumCores-1:0][NumLk-1:0]             o_wvalid_i,
  output logic [NumCores-1:0][NumLk-1:0]             o_wready_o,
  output logic [NumCores-1:0][NumLk-1:0][1:0]        o_bresp_o,
  output logic [NumCores-1:0][NumLk-1:0]             o_bvalid_o,
  input  logic [NumCores-1:0][NumLk-1:0]             o_bready_i,
  // incoming link lanes of the cores (far sides)
  output logic [NumCores-1:0][NumLk-1:0][63:0]       i_awaddr_o,
  output logic [NumCores-1:0][NumLk-1:0][7:0]        i_awlen_o,
  output logic [NumCores-1:0][NumLk-1:0]             i_awvalid_o,
  input  logic [NumCores-1:0][NumLk-1:0]             i_awready_i,
  output logic [NumCores-1:0][NumLk-1:0][DataBits-1:0] i_wdata_o,
  output logic [NumCores-1:0][NumLk-1:0][StrbBits-1:0] i_wstrb_o,
  output logic [NumCores-1:0][NumLk-1:0]             i_wlast_o,
  output logic [NumCores-1:0][NumLk-1:0]             i_wvalid_o,
  input  logic [NumCores-1:0][NumLk-1:0]             i_wready_i,
  input  logic [NumCores-1:0][NumLk-1:0][1:0]        i_bresp_i,
  input  logic [NumCores-1:0][NumLk-1:0]             i_bvalid_i,
  output logic [NumCores-1:0][NumLk-1:0]             i_bready_o,
  // a lane of core s named a destination the fabric cannot route (sticky)
  output logic [NumCores-1:0]                        route_err_o,
  // debug per destination core, lane 0: [0] grant held, [3:1] granted
  // source, [7:4] bursts open over the grant
  output logic [NumCores-1:0][7:0]                   dbg_o
);

  if (NumCores < 2 || NumCores > 8 || CoresPerDie < 1 || NumCores % CoresPerDie != 0 ||
      (NumCores / CoresPerDie) % 2 != 0 || CoresPerDie > 8 || NumCores / CoresPerDie > 4) begin : gen_cfg_check
    $error("sb2sb_fabric: 2..8 cores, whole packages of two dies of 1..8 cores each");
  end

  // ---- placement (system::Topology::loc, default_chip_id)
  function automatic int unsigned pkg_of(int unsigned c);
    return (c / CoresPerDie) / 2;
  endfunction

  function automatic int unsigned die_of(int unsigned c);
    return (c / CoresPerDie) % 2;
  endfunction

  // class of the link from core s to core d (system::Topology::link_class)
  function automatic logic [1:0] class_of(int unsigned s, int unsigned d);
    logic [1:0] r;
    if (pkg_of(s) != pkg_of(d)) begin
      r = sb2sb_pkg::LINK_CLASS_C2C;
    end else if (die_of(s) != die_of(d)) begin
      r = sb2sb_pkg::LINK_CLASS_D2D;
    end else begin
      r = sb2sb_pkg::LINK_CLASS_ON_DIE;
    end
    return r;
  endfunction

  // latency of the link from core s to core d: the generated rule
  // (sb2sb_pkg::link_latency_at, from system::cycle::LINK_LATENCY_RULE)
  function automatic int unsigned lat_of(int unsigned s, int unsigned d);
    return sb2sb_pkg::link_latency_at(class_of(s, d), LinkLatency);
  endfunction

  for (genvar c = 0; c < NumCores; c++) begin : gen_strap
    assign core_die_o[c]  = 1'(die_of(c));
    assign core_chip_o[c] = 6'(pkg_of(c));
    assign core_idx_o[c]  = 3'(c % CoresPerDie);
  end

  // ---- route of every outgoing lane (system::map::route_address)
  logic [NumCores-1:0][NumLk-1:0]         rt_ok;
  logic [NumCores-1:0][NumLk-1:0][CW-1:0] rt;
  logic [NumCores-1:0]                    rt_bad;

  always_comb begin
    logic [31:0] hi;
    logic        id_valid, nbr, exit_die, bad, hit;
    logic [5:0]  chip;
    rt_ok  = '0;
    rt     = '0;
    rt_bad = '0;
    for (int unsigned s = 0; s < NumCores; s++) begin
      for (int unsigned l = 0; l < NumLk; l++) begin
        hi       = dest_i[s][l];
        id_valid = hi[sb2sb_pkg::ADDR_ID_VALID_BIT - 32];
        nbr      = hi[sb2sb_pkg::ADDR_NEIGHBOR_ROUTE_BIT - 32];
        exit_die = hi[sb2sb_pkg::ADDR_EXIT_DIE_BIT - 32];
        // reserved [63:55], host memory (LOCAL bit 46)
        bad      = hi[31:23] != '0 || hi[sb2sb_pkg::ADDR_HOST_BIT - 32];
        chip     = core_chip_o[s];
        if (!id_valid) begin
          // un-routed: no neighbor-device aperture, [53:48] zero
          bad = bad || nbr || hi[21:16] != '0;
        end else if (nbr && exit_die) begin
          // neighbor view: [49:48] and PEB zero, DIE names the other die
          bad = bad || hi[17:16] != '0 || hi[21] || hi[15] == core_die_o[s];
        end else begin
          chip = hi[21:16];
        end
        hit = 1'b0;
        for (int unsigned d = 0; d < NumCores; d++) begin
          if (core_chip_o[d] == chip && core_die_o[d] == hi[15] &&
              hi[13:0] == 14'(core_idx_o[d])) begin
            hit          = 1'b1;
            rt[s][l]     = CW'(d);
          end
        end
        rt_ok[s][l] = dest_valid_i[s][l] && hit && !bad && rt[s][l] != CW'(s);
        if (dest_valid_i[s][l] && !rt_ok[s][l]) rt_bad[s] = 1'b1;
      end
    end
  end

  logic [NumCores-1:0] route_err_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      route_err_q <= '0;
    end else begin
      route_err_q <= route_err_q | rt_bad;
    end
  end
  assign route_err_o = route_err_q;

  // ---- links: [source][destination][lane]; the diagonal has no link
  logic [NumCores-1:0][NumCores-1:0][NumLk-1:0]                n_awvalid, n_wlast, n_wvalid;
  logic [NumCores-1:0][NumCores-1:0][NumLk-1:0]                n_bready;
  logic [NumCores-1:0][NumCores-1:0][NumLk-1:0]                k_awready, k_wready, k_bvalid;
  logic [NumCores-1:0][NumCores-1:0][NumLk-1:0][1:0]           k_bresp;
  logic [NumCores-1:0][NumCores-1:0][NumLk-1:0][63:0]          f_awaddr;
  logic [NumCores-1:0][NumCores-1:0][NumLk-1:0][7:0]           f_awlen;
  logic [NumCores-1:0][NumCores-1:0][NumLk-1:0][DataBits-1:0]  f_wdata;
  logic [NumCores-1:0][NumCores-1:0][NumLk-1:0][StrbBits-1:0]  f_wstrb;
  logic [NumCores-1:0][NumCores-1:0][NumLk-1:0]                f_awvalid, f_wlast, f_wvalid;
  logic [NumCores-1:0][NumCores-1:0][NumLk-1:0]                f_bready;
  logic [NumCores-1:0][NumCores-1:0][NumLk-1:0]                g_awready, g_wready, g_bvalid;
  logic [NumCores-1:0][NumCores-1:0][NumLk-1:0][1:0]           g_bresp;

  // near sides: lane l of core s joins the link towards its route
  always_comb begin
    n_awvalid   = '0;
    n_wlast     = '0;
    n_wvalid    = '0;
    n_bready    = '0;
    o_awready_o = '0;
    o_wready_o  = '0;
    o_bresp_o   = '0;
    o_bvalid_o  = '0;
    for (int unsigned s = 0; s < NumCores; s++) begin
      for (int unsigned l = 0; l < NumLk; l++) begin
        if (rt_ok[s][l]) begin
          n_awvalid[s][rt[s][l]][l] = o_awvalid_i[s][l];
          n_wlast[s][rt[s][l]][l]   = o_wlast_i[s][l];
          n_wvalid[s][rt[s][l]][l]  = o_wvalid_i[s][l];
          n_bready[s][rt[s][l]][l]  = o_bready_i[s][l];
          o_awready_o[s][l]         = k_awready[s][rt[s][l]][l];
          o_wready_o[s][l]          = k_wready[s][rt[s][l]][l];
          o_bresp_o[s][l]           = k_bresp[s][rt[s][l]][l];
          o_bvalid_o[s][l]          = k_bvalid[s][rt[s][l]][l];
        end
      end
    end
  end

  for (genvar s = 0; s < NumCores; s++) begin : gen_src
    for (genvar d = 0; d < NumCores; d++) begin : gen_dst
      for (genvar l = 0; l < NumLk; l++) begin : gen_lane
        if (s == d) begin : gen_none
          assign k_awready[s][d][l] = 1'b0;
          assign k_wready[s][d][l]  = 1'b0;
          assign k_bresp[s][d][l]   = '0;
          assign k_bvalid[s][d][l]  = 1'b0;
          assign f_awaddr[s][d][l]  = '0;
          assign f_awlen[s][d][l]   = '0;
          assign f_awvalid[s][d][l] = 1'b0;
          assign f_wdata[s][d][l]   = '0;
          assign f_wstrb[s][d][l]   = '0;
          assign f_wlast[s][d][l]   = 1'b0;
          assign f_wvalid[s][d][l]  = 1'b0;
          assign f_bready[s][d][l]  = 1'b0;
        end else begin : gen_link
          logic [63:0]         n_awaddr;
          logic [7:0]          n_awlen;
          logic [DataBits-1:0] n_wdata;
          logic [StrbBits-1:0] n_wstrb;
          logic [31:0]         ldbg;
          logic                unused_ldbg;
          // the lane's address and data reach the link only while routed to it
          assign n_awaddr = n_awvalid[s][d][l] ? o_awaddr_i[s][l] : '0;
          assign n_awlen  = n_awvalid[s][d][l] ? o_awlen_i[s][l] : '0;
          assign n_wdata  = n_wvalid[s][d][l] ? o_wdata_i[s][l] : '0;
          assign n_wstrb  = n_wvalid[s][d][l] ? o_wstrb_i[s][l] : '0;

          io_d2d_link #(.Latency(lat_of(s, d)), .DataBits(DataBits)) u_link (
            .clk_i,
            .rst_ni,
            .stall_i      (stall_i[s]),
            .s_axi_awaddr (n_awaddr),
            .s_axi_awlen  (n_awlen),
            .s_axi_awvalid(n_awvalid[s][d][l]),
            .s_axi_awready(k_awready[s][d][l]),
            .s_axi_wdata  (n_wdata),
            .s_axi_wstrb  (n_wstrb),
            .s_axi_wlast  (n_wlast[s][d][l]),
            .s_axi_wvalid (n_wvalid[s][d][l]),
            .s_axi_wready (k_wready[s][d][l]),
            .s_axi_bresp  (k_bresp[s][d][l]),
            .s_axi_bvalid (k_bvalid[s][d][l]),
            .s_axi_bready (n_bready[s][d][l]),
            .m_axi_awaddr (f_awaddr[s][d][l]),
            .m_axi_awlen  (f_awlen[s][d][l]),
            .m_axi_awvalid(f_awvalid[s][d][l]),
            .m_axi_awready(g_awready[s][d][l]),
            .m_axi_wdata  (f_wdata[s][d][l]),
            .m_axi_wstrb  (f_wstrb[s][d][l]),
            .m_axi_wlast  (f_wlast[s][d][l]),
            .m_axi_wvalid (f_wvalid[s][d][l]),
            .m_axi_wready (g_wready[s][d][l]),
            .m_axi_bresp  (g_bresp[s][d][l]),
            .m_axi_bvalid (g_bvalid[s][d][l]),
            .m_axi_bready (f_bready[s][d][l]),
            .dbg_o        (ldbg)
          );
          assign unused_ldbg = ^ldbg;
        end
      end
    end
  end

  // ---- grants per (destination, lane)
  logic [NumCores-1:0][NumLk-1:0]         gv_q, gv_d, lv_q, lv_d, gnow_v;
  logic [NumCores-1:0][NumLk-1:0][CW-1:0] g_q, g_d, last_q, last_d, gnow;
  logic [NumCores-1:0][NumLk-1:0][7:0]    open_q, open_d;

  // the grant of this cycle: the held one, else the next source after the
  // last granted whose link offers an AW
  always_comb begin
    int unsigned s;
    s      = 0;
    gnow_v = '0;
    gnow   = '0;
    for (int unsigned d = 0; d < NumCores; d++) begin
      for (int unsigned l = 0; l < NumLk; l++) begin
        if (gv_q[d][l]) begin
          gnow_v[d][l] = 1'b1;
          gnow[d][l]   = g_q[d][l];
        end else begin
          for (int unsigned k = NumCores; k >= 1; k--) begin
            s = lv_q[d][l] ? (int'(last_q[d][l]) + k) % NumCores : k - 1;
            if (f_awvalid[s][d][l]) begin
              gnow_v[d][l] = 1'b1;
              gnow[d][l]   = CW'(s);
            end
          end
        end
      end
    end
  end

  // far sides: the granted link drives the in-lane; the others see no READY
  always_comb begin
    i_awaddr_o  = '0;
    i_awlen_o   = '0;
    i_awvalid_o = '0;
    i_wdata_o   = '0;
    i_wstrb_o   = '0;
    i_wlast_o   = '0;
    i_wvalid_o  = '0;
    i_bready_o  = '0;
    g_awready   = '0;
    g_wready    = '0;
    g_bresp     = '0;
    g_bvalid    = '0;
    for (int unsigned d = 0; d < NumCores; d++) begin
      for (int unsigned l = 0; l < NumLk; l++) begin
        if (gnow_v[d][l]) begin
          i_awaddr_o[d][l]            = f_awaddr[gnow[d][l]][d][l];
          i_awlen_o[d][l]             = f_awlen[gnow[d][l]][d][l];
          i_awvalid_o[d][l]           = f_awvalid[gnow[d][l]][d][l];
          i_wdata_o[d][l]             = f_wdata[gnow[d][l]][d][l];
          i_wstrb_o[d][l]             = f_wstrb[gnow[d][l]][d][l];
          i_wlast_o[d][l]             = f_wlast[gnow[d][l]][d][l];
          i_wvalid_o[d][l]            = f_wvalid[gnow[d][l]][d][l];
          i_bready_o[d][l]            = f_bready[gnow[d][l]][d][l];
          g_awready[gnow[d][l]][d][l] = i_awready_i[d][l];
          g_wready[gnow[d][l]][d][l]  = i_wready_i[d][l];
          g_bresp[gnow[d][l]][d][l]   = i_bresp_i[d][l];
          g_bvalid[gnow[d][l]][d][l]  = i_bvalid_i[d][l];
        end
      end
    end
  end

  // a grant counts the AW handshakes over it and ends with the last one's B
  always_comb begin
    logic aw, b;
    logic [7:0] n;
    gv_d   = gv_q;
    g_d    = g_q;
    lv_d   = lv_q;
    last_d = last_q;
    open_d = open_q;
    for (int unsigned d = 0; d < NumCores; d++) begin
      for (int unsigned l = 0; l < NumLk; l++) begin
        aw = gnow_v[d][l] && i_awvalid_o[d][l] && i_awready_i[d][l];
        b  = gnow_v[d][l] && i_bvalid_i[d][l] && i_bready_o[d][l];
        n  = open_q[d][l] + 8'(aw) - 8'(b);
        if (!gv_q[d][l] && gnow_v[d][l]) begin
          gv_d[d][l]   = 1'b1;
          g_d[d][l]    = gnow[d][l];
          lv_d[d][l]   = 1'b1;
          last_d[d][l] = gnow[d][l];
        end
        if (gnow_v[d][l]) open_d[d][l] = n;
        if (b && n == '0) gv_d[d][l] = 1'b0;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      gv_q   <= '0;
      g_q    <= '0;
      lv_q   <= '0;
      last_q <= '0;
      open_q <= '0;
    end else begin
      gv_q   <= gv_d;
      g_q    <= g_d;
      lv_q   <= lv_d;
      last_q <= last_d;
      open_q <= open_d;
    end
  end

  for (genvar d = 0; d < NumCores; d++) begin : gen_dbg
    assign dbg_o[d] = {open_q[d][0][3:0], gv_q[d][0] ? 3'(g_q[d][0]) : 3'd0, gv_q[d][0]};
  end

endmodule : sb2sb_fabric
