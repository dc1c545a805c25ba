// EVT_SEM: 256 events and 256 signed 32-bit semaphores behind a 0x2000-byte AXI4-Lite
// window, 16 hardware increment ports (one per DMA engine) and 4 wait ports.
//
// Golden model: model/src/evt_sem/mod.rs (same ports, same cycle behaviour).
// Theory of operation and register map: docs/evt_sem.md. Offsets and codes come from
// sb2sb_pkg (generated from model/src/evt_sem/regs.rs).
//
// Per cycle (reads see the state before the edge, updates land at the edge):
// - AXI: the shared register adapter (axil_reg_adapter, docs/axil.md): AW and W are each
//   held in one register; a write commits in the cycle after both are held (and no B is
//   pending); B follows one cycle later. A read is answered from the state at its AR
//   handshake; R is registered. Only wstrb = 4'hF is accepted.
// - Wait ports are served in port order; a port sees the decrements and clears of the
//   lower-numbered ports satisfied in the same cycle.
// - Semaphore next value = saturate(base + sum of deltas): base is the AXI SET value if one
//   commits, else the current value; deltas are every increment port, AXI INCR/DECR and every
//   satisfied GE-then-decrement wait. Saturation raises ERR_STATUS.OVERFLOW.
// - Event next value: cleared by satisfied SET_THEN_CLEAR waits, then overridden by an AXI
//   EVENT write of the same cycle.
// - err_pulse_o is registered: it shows the errors of the previous cycle, in the cycle their
//   sticky ERR_STATUS bits first read 1.
//
// Coding style (docs/decisions.md, "Synthesizable RTL: next state in always_comb"): all
// next-state logic is always_comb (defaults first); the always_ff processes hold registers
// only. Each semaphore computes its own next value and is written only when an update
// names it (no array write or read at an update slot's index).

module evt_sem
  import sb2sb_pkg::*;
#(
  // Sizes. The defaults are the architecture (sb2sb_pkg); smaller values give the
  // same block at a size a formal tool can handle. NumSem is a power of two from 2 to
  // 256: one semaphore and one event per index; a register index wider than
  // $clog2(NumSem) aliases (only its low bits are used).
  parameter int unsigned NumSem  = int'(EVT_SEM_NUM_SEM),
  parameter int unsigned NumInc  = int'(EVT_SEM_NUM_INC),
  parameter int unsigned NumWait = int'(EVT_SEM_NUM_WAIT),
  // Semaphores per register group (a power of two dividing NumSem): the semaphores are
  // held in groups, each group one register written when one of its semaphores is
  // (simulation speed; in hardware every semaphore keeps its own enable).
  parameter int unsigned SemGrpW = NumSem < 32 ? NumSem : 32,  // from 2 to NumSem
  // Derived: width of a semaphore/event index.
  localparam int unsigned IdxW   = $clog2(NumSem)
) (
  input  logic                                  clk_i,
  input  logic                                  rst_ni,
  // AXI4-Lite slave (offset inside the window)
  input  logic [EVT_SEM_ADDR_W-1:0]             s_axil_awaddr,
  input  logic [2:0]                            s_axil_awprot,
  input  logic                                  s_axil_awvalid,
  output logic                                  s_axil_awready,
  input  logic [31:0]                           s_axil_wdata,
  input  logic [3:0]                            s_axil_wstrb,
  input  logic                                  s_axil_wvalid,
  output logic                                  s_axil_wready,
  output logic [1:0]                            s_axil_bresp,
  output logic                                  s_axil_bvalid,
  input  logic                                  s_axil_bready,
  input  logic [EVT_SEM_ADDR_W-1:0]             s_axil_araddr,
  input  logic [2:0]                            s_axil_arprot,
  input  logic                                  s_axil_arvalid,
  output logic                                  s_axil_arready,
  output logic [31:0]                           s_axil_rdata,
  output logic [1:0]                            s_axil_rresp,
  output logic                                  s_axil_rvalid,
  input  logic                                  s_axil_rready,
  // Increment ports, one per DMA engine: every valid port counts, every cycle
  input  logic [NumInc-1:0]                     inc_valid_i,
  input  logic [NumInc-1:0][IdxW-1:0]           inc_idx_i,
  input  logic [NumInc-1:0][31:0]               inc_value_i,
  // Wait ports (combinational done; side effect at the edge)
  input  logic [NumWait-1:0]                    wait_valid_i,
  input  logic [NumWait-1:0][7:0]               wait_mode_i,
  input  logic [NumWait-1:0][IdxW-1:0]          wait_idx_i,
  input  logic [NumWait-1:0][31:0]              wait_value_i,
  output logic [NumWait-1:0]                    wait_done_o,
  // Status and debug
  output logic [EVT_SEM_NUM_ERR-1:0]            err_pulse_o,
  output logic [EVT_SEM_NUM_ERR-1:0]            err_status_o,
  output logic [NumSem-1:0]                     evt_o,
  input  logic [IdxW-1:0]                       dbg_idx_i,
  output logic [31:0]                           dbg_sem_o
);

  localparam int unsigned AddrW    = int'(EVT_SEM_ADDR_W);
  localparam int unsigned NumErr   = int'(EVT_SEM_NUM_ERR);
  localparam int unsigned NumSlots = 1 + NumInc + NumWait;
  localparam int unsigned WaitW    = NumWait > 1 ? $clog2(NumWait) : 1;
  // Exact sum of a base and up to NumSlots signed 32-bit terms: each is in [-2^31, 2^31),
  // so the sum of NumSlots + 1 of them needs 32 + clog2(NumSlots + 1) signed bits.
  localparam int unsigned SumW     = 32 + $clog2(NumSlots + 1);
  localparam int unsigned WinLsb   = int'(EVT_SEM_WIN_LSB);
  localparam int unsigned IdxLsb   = int'(EVT_SEM_IDX_LSB);
  localparam int unsigned FeInfoW  = $bits(evt_sem_first_err_info_t);

  localparam logic signed [SumW-1:0] SemMax = SumW'(32'sh7fff_ffff);
  localparam logic signed [SumW-1:0] SemMin = -SumW'(41'sh0_8000_0000);
  localparam int unsigned GrpW    = SemGrpW;
  localparam int unsigned NumGrp  = NumSem / GrpW;
  localparam int unsigned GrpLsb  = $clog2(GrpW);
  localparam int unsigned GrpIdxW = NumGrp > 1 ? $clog2(NumGrp) : 1;

  typedef enum logic [3:0] {
    RegEvent,
    RegErrStatus,
    RegFirstErr,
    RegFirstErrData,
    RegSemRead,
    RegSemSet,
    RegSemIncr,
    RegSemDecr,
    RegUnmapped
  } reg_e;

  localparam int unsigned WordW = AddrW - IdxLsb;

  // Decode a word offset (byte offset [AddrW-1:2]) into the register it addresses.
  function automatic reg_e decode_reg(logic [WordW-1:0] word);
    reg_e r;
    unique case (word[WinLsb - IdxLsb +: 3])
      EVT_SEM_WIN_EVENT:    r = RegEvent;
      EVT_SEM_WIN_SEM_READ: r = RegSemRead;
      EVT_SEM_WIN_SEM_SET:  r = RegSemSet;
      EVT_SEM_WIN_SEM_INCR: r = RegSemIncr;
      EVT_SEM_WIN_SEM_DECR: r = RegSemDecr;
      default: begin
        if (word == EVT_SEM_ERR_STATUS[AddrW-1:IdxLsb]) begin
          r = RegErrStatus;
        end else if (word == EVT_SEM_FIRST_ERR[AddrW-1:IdxLsb]) begin
          r = RegFirstErr;
        end else if (word == EVT_SEM_FIRST_ERR_DATA[AddrW-1:IdxLsb]) begin
          r = RegFirstErrData;
        end else begin
          r = RegUnmapped;
        end
      end
    endcase
    return r;
  endfunction

  function automatic logic signed [SumW-1:0] sext(logic [31:0] v);
    return {{(SumW - 32){v[31]}}, v};
  endfunction

  // The group of semaphore i (shifted one bit wider: GrpLsb may equal IdxW).
  function automatic logic [GrpIdxW-1:0] grp_of(logic [IdxW-1:0] i);
    logic [IdxW:0] w;
    w = {1'b0, i};
    return GrpIdxW'(w >> GrpLsb);
  endfunction

  // ---------------------------------------------------------------------------------------
  // State
  // ---------------------------------------------------------------------------------------
  // 256 semaphores with asynchronous reset to 0, semaphore i at sem_q[i / GrpW][i % GrpW]:
  // NumGrp group registers of GrpW entries, a group written when one of its semaphores is
  // (the others keep their value: synthesis gives each semaphore its own enable).
  // Unpacked, so that the simulator copies only the groups written at an edge and reads a
  // semaphore without shifting a wide vector (docs/decisions.md, "EVT_SEM next state per
  // semaphore").
  // coverage_off: the packed vector was wider than the toggle-coverage width limit and had
  // no toggle points; this keeps it so.
  /* verilator coverage_off */
  logic [31:0]             sem_q [NumGrp][GrpW];
  /* verilator coverage_on */
  logic [NumSem-1:0]       evt_q;
  logic [NumErr-1:0]       err_q;
  logic [NumErr-1:0]       err_pulse_q;
  evt_sem_first_err_t      first_err_q;
  logic [31:0]             first_data_q;


  // AXI protection bits carry no meaning here.
  logic unused_prot;
  assign unused_prot = ^{s_axil_awprot, s_axil_arprot};

  // ---------------------------------------------------------------------------------------
  // AXI4-Lite channels
  // ---------------------------------------------------------------------------------------

  // AXI4-Lite slave: the shared adapter; this block answers its requests.
  logic             do_write, ar_hs, rd_err_v;
  logic [AddrW-1:0] aw_addr_q, rd_addr;
  logic [31:0]      w_data_q;
  logic [3:0]       w_strb_q;
  logic [1:0]       unused_pending;
  logic             wr_err_v;
  logic [31:0]      rd_data;

  axil_reg_adapter #(.AddrW(AddrW)) u_axil (
    .clk_i,
    .rst_ni,
    .s_axil_awaddr,
    .s_axil_awvalid,
    .s_axil_awready,
    .s_axil_wdata,
    .s_axil_wstrb,
    .s_axil_wvalid,
    .s_axil_wready,
    .s_axil_bresp,
    .s_axil_bvalid,
    .s_axil_bready,
    .s_axil_araddr,
    .s_axil_arvalid,
    .s_axil_arready,
    .s_axil_rdata,
    .s_axil_rresp,
    .s_axil_rvalid,
    .s_axil_rready,
    .wr_req_o  (do_write),
    .wr_addr_o (aw_addr_q),
    .wr_data_o (w_data_q),
    .wr_strb_o (w_strb_q),
    .wr_err_i  (wr_err_v),
    .rd_req_o  (ar_hs),
    .rd_addr_o (rd_addr),
    .rd_data_i (rd_data),
    .rd_err_i  (rd_err_v),
    .pending_o (unused_pending)
  );

  // Write classification: its effect, or the error it raises (no effect).
  reg_e              wr_reg;
  logic [IdxW-1:0]   wr_idx;
  evt_sem_first_err_kind_t wr_err_kind;
  evt_sem_first_err_t w_first_err;  // write data in the FIRST_ERR layout
  logic              wr_evt_v, wr_set_v, wr_add_v, wr_rearm;
  logic [SumW-1:0]   wr_add_val;
  logic [NumErr-1:0] wr_w1c;

  reg_access_e       wr_acc;  // access kind, decode generated from the description
  assign wr_reg      = decode_reg(aw_addr_q[AddrW-1:IdxLsb]);
  assign wr_acc      = evt_sem_access(32'({aw_addr_q[AddrW-1:IdxLsb], {IdxLsb{1'b0}}}));
  assign w_first_err = w_data_q;
  // Only VALID of a FIRST_ERR write has an effect.
  logic unused_first_err_wdata;
  assign unused_first_err_wdata = ^{w_first_err.kind, w_first_err.write, w_first_err.rsvd16,
                                    w_first_err.info};
  assign wr_idx = aw_addr_q[IdxLsb +: IdxW];

  always_comb begin
    wr_err_v    = 1'b0;
    wr_err_kind = '0;
    wr_evt_v    = 1'b0;
    wr_set_v    = 1'b0;
    wr_add_v    = 1'b0;
    wr_add_val  = '0;
    wr_rearm    = 1'b0;
    wr_w1c      = '0;
    if (do_write) begin
      if (wr_acc == RegAccBad) begin
        wr_err_v    = 1'b1;
        wr_err_kind = EVT_SEM_ERR_UNMAPPED;
      end else if (wr_acc == RegAccRo) begin
        wr_err_v    = 1'b1;
        wr_err_kind = EVT_SEM_ERR_WR_RO;
      end else if (w_strb_q != EVT_SEM_FULL_STRB) begin
        wr_err_v    = 1'b1;
        wr_err_kind = EVT_SEM_ERR_PARTIAL_STRB;
      end else begin
        unique case (wr_reg)
          RegEvent:     wr_evt_v = 1'b1;
          RegErrStatus: wr_w1c = w_data_q[NumErr-1:0];
          RegFirstErr:  wr_rearm = w_first_err.valid;
          RegSemSet:    wr_set_v = 1'b1;
          RegSemIncr: begin
            wr_add_v   = 1'b1;
            wr_add_val = sext(w_data_q);
          end
          RegSemDecr: begin
            wr_add_v   = 1'b1;
            wr_add_val = -sext(w_data_q);
          end
          default: ;
        endcase
      end
    end
  end

  // Read: answered from the state before the edge.
  reg_e       rd_reg;
  logic [IdxW-1:0] rd_idx;

  assign rd_reg = decode_reg(rd_addr[AddrW-1:IdxLsb]);
  assign rd_idx = rd_addr[IdxLsb +: IdxW];

  always_comb begin
    rd_data  = '0;
    rd_err_v = 1'b0;
    unique case (rd_reg)
      RegEvent:        rd_data = {31'b0, evt_q[rd_idx]};
      RegErrStatus:    rd_data = {{(32 - NumErr){1'b0}}, err_q};
      RegFirstErr:     rd_data = first_err_q;
      RegFirstErrData: rd_data = first_data_q;
      RegSemRead, RegSemSet, RegSemIncr, RegSemDecr: begin
        rd_data = sem_q[grp_of(rd_idx)][rd_idx[GrpLsb-1:0]];
      end
      default: rd_err_v = ar_hs;
    endcase
  end

  // ---------------------------------------------------------------------------------------
  // Wait ports, served in port order
  // ---------------------------------------------------------------------------------------
  logic [NumWait-1:0] dec_v, clr_v, bad_v;

  always_comb begin
    logic signed [SumW-1:0] eff;
    logic signed [SumW-1:0] imm;
    logic                   ev;
    wait_done_o = '0;
    dec_v       = '0;
    clr_v       = '0;
    bad_v       = '0;
    for (int unsigned p = 0; p < NumWait; p++) begin
      eff = sext(sem_q[grp_of(wait_idx_i[p])][wait_idx_i[p][GrpLsb-1:0]]);
      ev  = evt_q[wait_idx_i[p]];
      imm = sext(wait_value_i[p]);
      for (int unsigned q = 0; q < p; q++) begin
        if (dec_v[q] && wait_idx_i[q] == wait_idx_i[p]) begin
          eff = eff - sext(wait_value_i[q]);
        end
        if (clr_v[q] && wait_idx_i[q] == wait_idx_i[p]) begin
          ev = 1'b0;
        end
      end
      if (wait_valid_i[p]) begin
        unique case (wait_mode_i[p])
          EVT_SEM_WAIT_NONE:   wait_done_o[p] = 1'b1;
          EVT_SEM_WAIT_SEM_EQ: wait_done_o[p] = (eff == imm);
          EVT_SEM_WAIT_SEM_LT: wait_done_o[p] = (eff < imm);
          EVT_SEM_WAIT_SEM_LE: wait_done_o[p] = (eff <= imm);
          EVT_SEM_WAIT_SEM_GT: wait_done_o[p] = (eff > imm);
          EVT_SEM_WAIT_SEM_GE: wait_done_o[p] = (eff >= imm);
          EVT_SEM_WAIT_EVT_SET: wait_done_o[p] = ev;
          EVT_SEM_WAIT_EVT_SET_CLR: begin
            wait_done_o[p] = ev;
            clr_v[p]       = ev;
          end
          EVT_SEM_WAIT_SEM_GE_DEC: begin
            wait_done_o[p] = (eff >= imm);
            dec_v[p]       = (eff >= imm);
          end
          default: bad_v[p] = 1'b1;
        endcase
      end
    end
  end

  // ---------------------------------------------------------------------------------------
  // Next state: semaphores, events, errors
  // ---------------------------------------------------------------------------------------
  // Semaphores: base + exact sum of this cycle's deltas, then saturate, computed per
  // semaphore. Update sources ("slots") in priority order: AXI, increment ports, wait ports.
  //  1. Per slot: whether it leads its semaphore (the first valid slot naming it) and, for a
  //     leader, the sum of the deltas of every valid slot naming that semaphore (slot_sum;
  //     0 for any other slot). No lower slot names a leader's semaphore, so a leader sums
  //     itself and the higher slots; the slots it sums are not leaders.
  //  2. Per semaphore: written when a slot names it (sem_we); its delta is the slot_sum of
  //     the slots naming it (an OR: only its leader's is non-zero), its base the AXI SET
  //     value when a SET to it commits, else its own value; next = saturate(base + delta).
  //  3. The overflow reported is the first leader (in slot order) whose semaphore
  //     saturated: the first valid slot naming it.
  // No semaphore is read or written at a slot's index: each semaphore has its own adder
  // and a write enable (docs/decisions.md, "EVT_SEM next state per semaphore").
  logic [NumSlots-1:0]    slot_v;
  logic [IdxW-1:0]        slot_idx [NumSlots];
  logic signed [SumW-1:0] slot_val [NumSlots];
  logic [NumSlots-1:0]    slot_lead;
  logic signed [SumW-1:0] slot_sum [NumSlots];
  logic [NumSem-1:0]      sem_we;
  logic [NumSem-1:0]      sem_sat, sem_sat_hi;
  logic                   ovf_v;
  logic [IdxW-1:0]        ovf_idx;
  logic [31:0]            ovf_val;

  always_comb begin
    slot_v      = '0;
    slot_v[0]   = wr_set_v | wr_add_v;
    slot_idx[0] = wr_idx;
    slot_val[0] = wr_add_val;
    for (int unsigned p = 0; p < NumInc; p++) begin
      slot_v[1 + p]   = inc_valid_i[p];
      slot_idx[1 + p] = inc_idx_i[p];
      slot_val[1 + p] = sext(inc_value_i[p]);
    end
    for (int unsigned p = 0; p < NumWait; p++) begin
      slot_v[1 + NumInc + p]   = dec_v[p];
      slot_idx[1 + NumInc + p] = wait_idx_i[p];
      slot_val[1 + NumInc + p] = -sext(wait_value_i[p]);
    end
  end

  // Stage 1: per slot, whether it leads its semaphore and a leader's sum (evaluated only
  // for a leader: simulation speed).
  always_comb begin
    logic [NumSlots-1:0] named;  // named by a lower leader
    named     = '0;
    slot_lead = '0;
    sem_we    = '0;
    for (int unsigned k = 0; k < NumSlots; k++) begin
      slot_sum[k] = '0;
      if (slot_v[k] && !named[k]) begin
        slot_lead[k]        = 1'b1;
        sem_we[slot_idx[k]] = 1'b1;
        slot_sum[k]         = slot_val[k];
        for (int unsigned j = k + 1; j < NumSlots; j++) begin
          if (slot_v[j] && slot_idx[j] == slot_idx[k]) begin
            slot_sum[k] = slot_sum[k] + slot_val[j];
            named[j]    = 1'b1;
          end
        end
      end
    end
  end

  // Stage 2: per semaphore, its next value, and the group registers. One process per group
  // of GrpW semaphores, evaluated only when one of its semaphores is written (simulation
  // speed); a semaphore not written keeps its value.
  for (genvar g = 0; g < NumGrp; g++) begin : gen_grp
    /* verilator coverage_off */
    /* verilator tracing_off */
    logic [31:0]           grp_d [GrpW];
    /* verilator tracing_on */
    /* verilator coverage_on */
    logic [GrpW-1:0]       grp_we, grp_sat, grp_sat_hi;

    assign grp_we = sem_we[g * GrpW +: GrpW];

    always_comb begin
      logic signed [SumW-1:0] delta;
      logic signed [SumW-1:0] acc;
      delta      = '0;
      acc        = '0;
      grp_sat    = '0;
      grp_sat_hi = '0;
      grp_d      = sem_q[g];
      if (|grp_we) begin
        for (int unsigned b = 0; b < GrpW; b++) begin
          if (grp_we[b]) begin
            delta = '0;
            for (int unsigned k = 0; k < NumSlots; k++) begin
              if (slot_idx[k] == IdxW'(g * GrpW + b)) begin
                delta = delta | slot_sum[k];
              end
            end
            acc = ((wr_set_v && wr_idx == IdxW'(g * GrpW + b)) ? sext(w_data_q)
                                                               : sext(sem_q[g][b]))
                  + delta;
            if (acc > SemMax) begin
              grp_d[b]      = 32'h7fff_ffff;
              grp_sat[b]    = 1'b1;
              grp_sat_hi[b] = 1'b1;
            end else if (acc < SemMin) begin
              grp_d[b]   = 32'h8000_0000;
              grp_sat[b] = 1'b1;
            end else begin
              grp_d[b] = acc[31:0];
            end
          end
        end
      end
    end

    assign sem_sat[g * GrpW +: GrpW]    = grp_sat;
    assign sem_sat_hi[g * GrpW +: GrpW] = grp_sat_hi;

    // The group's register, written when a slot names one of its semaphores (each
    // semaphore keeps its value unless written: synthesis gives each its own enable).
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        sem_q[g] <= '{default: '0};
      end else if (|grp_we) begin
        sem_q[g] <= grp_d;
      end
    end
  end

  // Stage 3: the overflow reported.
  always_comb begin
    ovf_v   = 1'b0;
    ovf_idx = '0;
    ovf_val = '0;
    for (int unsigned k = 0; k < NumSlots; k++) begin
      if (slot_lead[k] && sem_sat[slot_idx[k]] && !ovf_v) begin
        ovf_v   = 1'b1;
        ovf_idx = slot_idx[k];
        ovf_val = sem_sat_hi[slot_idx[k]] ? 32'h7fff_ffff : 32'h8000_0000;
      end
    end
  end

  // Events: SET_THEN_CLEAR waiters clear, then an AXI EVENT write overrides.
  logic [NumSem-1:0] evt_d;

  always_comb begin
    evt_d = evt_q;
    for (int unsigned p = 0; p < NumWait; p++) begin
      if (clr_v[p]) begin
        evt_d[wait_idx_i[p]] = 1'b0;
      end
    end
    if (wr_evt_v) begin
      evt_d[wr_idx] = w_data_q[0];
    end
  end

  // Errors: the pulse of this cycle (AXI write, AXI read, overflow, bad wait mode), sticky
  // ERR_STATUS (W1C), FIRST_ERR/FIRST_ERR_DATA captured with that priority when not valid.
  logic [NumErr-1:0]  err_pulse_d, err_d;
  evt_sem_first_err_t first_err_d;
  logic [31:0]        first_data_d;
  logic [WaitW-1:0]   bad_port;

  always_comb begin
    bad_port = '0;
    for (int p = NumWait - 1; p >= 0; p--) begin
      if (bad_v[p]) begin
        bad_port = WaitW'(p);
      end
    end
    err_pulse_d = '0;
    if (wr_err_v) begin
      err_pulse_d[wr_err_kind] = 1'b1;
    end
    if (rd_err_v) begin
      err_pulse_d[EVT_SEM_ERR_UNMAPPED] = 1'b1;
    end
    if (ovf_v) begin
      err_pulse_d[EVT_SEM_ERR_OVERFLOW] = 1'b1;
    end
    if (|bad_v) begin
      err_pulse_d[EVT_SEM_ERR_BAD_WAIT_MODE] = 1'b1;
    end
    err_d = (err_q & ~wr_w1c) | err_pulse_d;

    first_err_d  = first_err_q;
    first_data_d = first_data_q;
    if (wr_rearm) begin
      first_err_d  = '0;
      first_data_d = '0;
    end
    if (!first_err_d.valid && |err_pulse_d) begin
      first_err_d       = '0;
      first_err_d.valid = 1'b1;
      if (wr_err_v) begin
        first_err_d.kind  = wr_err_kind;
        first_err_d.write = 1'b1;
        first_err_d.info  = FeInfoW'(aw_addr_q);
        first_data_d      = w_data_q;
      end else if (rd_err_v) begin
        first_err_d.kind = EVT_SEM_ERR_UNMAPPED;
        first_err_d.info = FeInfoW'(rd_addr);
        first_data_d     = '0;
      end else if (ovf_v) begin
        first_err_d.kind = EVT_SEM_ERR_OVERFLOW;
        first_err_d.info = FeInfoW'(ovf_idx);
        first_data_d     = ovf_val;
      end else begin
        first_err_d.kind = EVT_SEM_ERR_BAD_WAIT_MODE;
        first_err_d.info = FeInfoW'(bad_port);
        first_data_d     = 32'(wait_mode_i[bad_port]);
      end
    end
  end

  // ---------------------------------------------------------------------------------------
  // Registers (the semaphores: stage 2 above)
  // ---------------------------------------------------------------------------------------
  // A cycle without any update source, error, W1C/re-arm write or pending error pulse
  // changes none of these registers: `busy` enables them (the Verilated model then skips
  // the process in the other cycles).
  logic busy;
  assign busy = wr_set_v || wr_add_v || (|inc_valid_i) || (|dec_v) || (|clr_v) || wr_evt_v ||
                wr_err_v || rd_err_v || (|bad_v) || (|wr_w1c) || wr_rearm || (|err_pulse_q);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      evt_q        <= '0;
      err_q        <= '0;
      err_pulse_q  <= '0;
      first_err_q  <= '0;
      first_data_q <= '0;
    end else if (busy) begin
      evt_q        <= evt_d;
      err_q        <= err_d;
      err_pulse_q  <= err_pulse_d;
      first_err_q  <= first_err_d;
      first_data_q <= first_data_d;
    end
  end

  // ---------------------------------------------------------------------------------------
  // Outputs
  // ---------------------------------------------------------------------------------------
  assign err_pulse_o  = err_pulse_q;
  assign err_status_o = err_q;
  assign evt_o        = evt_q;
  assign dbg_sem_o    = sem_q[grp_of(dbg_idx_i)][dbg_idx_i[GrpLsb-1:0]];

endmodule : evt_sem
