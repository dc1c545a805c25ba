// Formal harness: the UDMA register file (udma_regs) at NumQ queues per side.
//
// Environment (assumed): the AXI4-Lite master's rules (axil_slave_chk); the
// FSMs advance a ring head only for an available queue (FV_UDMA_ENV_ADV: the
// contract of udma_m2s/udma_s2m, checked in the lockstep by
// UDMA_HEAD_NOT_PAST_TAIL); software writes a ring length only to a ring at
// its origin, head and tail offsets 0 (FV_UDMA_ENV_RL: after reset or RST_Q,
// as the driver sets a ring up). Every other input (completion-head advances,
// byte/drop counts, errors, interrupts, status) is free.
//
// Proofs, selected by defines (tasks of rtl/formal/udma_regs.sby):
// FV_UDMA_AXIL (k-induction):
//   the AXI4-Lite slave rules of the port (axil_slave_chk) and the response of
//   every access as the register description says (axil_resp_fv);
// FV_UDMA_RINGS (k-induction; the AXI4-Lite master unconstrained, so every
// access sequence is covered):
//   UDMA_HEAD_NOT_PAST_TAIL, UDMA_RING_ID_SEQ (udma_ring_chk, the simulation
//   checker; left out with FV_UDMA_NO_RING_CHK) for every queue of both sides;
//   FV_UDMA_IN_RING    both offsets inside the ring (0 for a ring of length 0)
//   FV_UDMA_NONEMPTY   the "ring not empty" bit behind avail_o is head != tail
// + FV_UDMA_ORDER_CHK:
//   FV_UDMA_ORDER      head never passes tail: the tail is on the head's lap at
//                      or after it, or one lap (ring id + 1) ahead and before it
// + FV_UDMA_DOORBELL:
//   FV_UDMA_DB_FREE    a doorbell (Q_RTP_INC) larger than the free space
//                      (length - 1 - used) leaves the tail and sets
//                      ERR_STATUS.DB_OVERFLOW; otherwise the tail moves by INC
//                      modulo the length, ring id + 1 when it wraps
// + FV_UDMA_WATCH:
//   the ring invariants on one ring, any ring (watch_s_q / watch_q_q below).
// + FV_UDMA_STEP_LEMMA:
//   FV_UDMA_STEP_ORDER of udma_ring_step_fv (one ring's step keeps the lap
//   order; proved for every value by rtl/formal/udma_ring_step.sby) assumed on
//   the written ring and on the watched ring;
// + FV_UDMA_DB_FREE_PROVED (without FV_UDMA_DOORBELL):
//   FV_UDMA_DB_FREE assumed, as task db_free24 proves it.
// FV_UDMA_ORDER and FV_UDMA_DB_FREE are checked by BMC from reset at the full
// pointer width (task doorbell) and proved by k-induction on any one ring:
// tasks order and db_free (make formal runs them with the ring pointers at 6
// bits, docs/signoff.md section 8), and at the full 24 bits db_free24, then
// order24 with the step lemma and FV_UDMA_DB_FREE assumed (the assumption is
// the conclusion of db_free24, which assumes neither FV_UDMA_ORDER nor the
// lemma; the lemma is arithmetic on its inputs alone). Each is 1-inductive
// with FV_UDMA_IN_RING and FV_UDMA_NONEMPTY: a head advances only into a
// non-empty ring, so it stays at or before the tail on the tail's lap; a
// doorbell of INC <= length - 1 - used wraps the tail exactly when it was on
// the head's lap and lands it before the head.
// The ring invariants are state invariants (SB2SB_INVARIANT: checked on the
// current cycle), so each is 1-inductive where it is inductive at all.
// Signals of udma_regs read here: head_q, tail_q, rl_q, nonempty_q, estat_q,
// u_axil.{wr_req_o, wr_addr_o, wr_data_o, wr_strb_o, aw_v_q, aw_addr_q, w_v_q,
// w_strb_q, b_v_q, b_resp_q, r_v_q, r_resp_q}.
`include "sb2sb_assert.svh"

module udma_regs_fv
  import sb2sb_pkg::*;
#(
  parameter int unsigned NumQ = 2,
  localparam int unsigned QueueIdxW = $clog2(NumQ),
  localparam int unsigned AddrW = UDMA_CSR_ADDR_WIDTH
) (
  input logic                      clk_i,
  input logic                      rst_ni,
  input logic [AddrW-1:0]          s_axil_awaddr,
  input logic                      s_axil_awvalid,
  input logic [31:0]               s_axil_wdata,
  input logic [3:0]                s_axil_wstrb,
  input logic                      s_axil_wvalid,
  input logic                      s_axil_bready,
  input logic [AddrW-1:0]          s_axil_araddr,
  input logic                      s_axil_arvalid,
  input logic                      s_axil_rready,
  input logic [1:0][QueueIdxW-1:0] ev_q_i,
  input logic [1:0]                ev_head_adv_i,
  input logic [1:0]                ev_crhp_adv_i,
  input logic [1:0]                ev_done_inc_i,
  input logic [1:0]                ev_int_set_i,
  input logic [1:0]                ev_err_i,
  input logic [1:0][4:0]           ev_err_bit_i,
  input logic [1:0][5:0]           ev_bytes_i,
  input logic [1:0][5:0]           ev_drop_i,
  input logic [1:0][3:0]           stat_state_i,
  input logic [1:0][QueueIdxW-1:0] stat_q_i,
  input logic [1:0]                stat_pkt_i
);
  localparam int unsigned PtrW  = $bits(udma_q_ptr_offset_t);
  localparam int unsigned SideBit = UDMA_SIDE_BIT;
  localparam int unsigned QSh     = $clog2(UDMA_Q_STRIDE);

  logic             s_axil_awready, s_axil_wready, s_axil_bvalid, s_axil_arready;
  logic             s_axil_rvalid;
  logic [1:0]       s_axil_bresp, s_axil_rresp;
  logic [31:0]      s_axil_rdata;
  logic [1:0][NumQ-1:0] avail, stopped;
  logic [1:0]       normal, comp_en;
  logic [1:0][63:0] desc_addr, comp_addr;
  udma_q_ptr_ring_id_t [1:0] head_id, crhp_id;
  udma_q_ptr_offset_t [1:0]  head_off;
  logic [1:0][31:0] tout;
  logic             irq, err_irq;
  logic [1:0]       csr_pending;

  fv_reset u_rst (.clk_i, .rst_ni);

  udma_regs #(.NumQ(NumQ)) u_dut (
    .clk_i, .rst_ni,
    .s_axil_awaddr, .s_axil_awvalid, .s_axil_awready,
    .s_axil_wdata, .s_axil_wstrb, .s_axil_wvalid, .s_axil_wready,
    .s_axil_bresp, .s_axil_bvalid, .s_axil_bready,
    .s_axil_araddr, .s_axil_arvalid, .s_axil_arready,
    .s_axil_rdata, .s_axil_rresp, .s_axil_rvalid, .s_axil_rready,
    .ev_q_i, .ev_head_adv_i, .ev_crhp_adv_i, .ev_done_inc_i, .ev_int_set_i, .ev_err_i,
    .ev_err_bit_i, .ev_bytes_i, .ev_drop_i,
    .stat_state_i, .stat_q_i, .stat_pkt_i,
    .avail_o (avail), .stopped_o (stopped), .normal_o (normal),
    .desc_addr_o (desc_addr), .comp_addr_o (comp_addr),
    .head_id_o (head_id), .head_off_o (head_off), .crhp_id_o (crhp_id),
    .comp_en_o (comp_en), .tout_o (tout), .irq_o (irq), .err_irq_o (err_irq),
    .csr_pending_o (csr_pending)
  );

  // Access kind of a CSR byte offset, from the register description (docs/udma.md
  // §3): side at bit UDMA_SIDE_BIT, engine registers in the first UDMA_Q_STRIDE
  // bytes of a side, queue q's bundle at UDMA_Q_ARRAY_BASE + q * UDMA_Q_STRIDE,
  // nothing at or above UDMA_GEN_BASE; word-aligned offsets only.
  function automatic reg_access_e desc_access(logic [AddrW-1:0] a);
    logic [31:0] side_off, q, qoff;
    side_off = 32'(a[SideBit-1:0]);
    q        = 32'(a[SideBit-1:QSh]) - (UDMA_Q_ARRAY_BASE >> QSh);
    qoff     = 32'(a[QSh-1:0]);
    if (a[1:0] != 2'b00 || 32'(a) >= UDMA_GEN_BASE) begin
      return RegAccBad;
    end else if (side_off < UDMA_Q_ARRAY_BASE) begin
      return udma_eng_access(!a[SideBit], side_off);
    end else if (q < NumQ) begin
      return udma_queue_access(!a[SideBit], qoff);
    end
    return RegAccBad;
  endfunction

  function automatic logic wr_bad(logic [AddrW-1:0] a);
    reg_access_e k;
    k = desc_access(a);
    return k == RegAccBad || k == RegAccRo;
  endfunction

`ifdef FV_UDMA_AXIL
  // ---- AXI4-Lite port ------------------------------------------------------
  axil_slave_chk #(.AddrWidth(AddrW), .DataWidth(32)) u_chk (
    .clk_i, .rst_ni,
    .awaddr_i (s_axil_awaddr), .awvalid_i (s_axil_awvalid), .awready_i (s_axil_awready),
    .wdata_i (s_axil_wdata), .wstrb_i (s_axil_wstrb), .wvalid_i (s_axil_wvalid),
    .wready_i (s_axil_wready), .bresp_i (s_axil_bresp), .bvalid_i (s_axil_bvalid),
    .bready_i (s_axil_bready), .araddr_i (s_axil_araddr), .arvalid_i (s_axil_arvalid),
    .arready_i (s_axil_arready), .rdata_i (s_axil_rdata), .rresp_i (s_axil_rresp),
    .rvalid_i (s_axil_rvalid), .rready_i (s_axil_rready)
  );

  axil_reg_adapter_inv u_inv (
    .clk_i, .rst_ni,
    .aw_v_i (u_dut.u_axil.aw_v_q), .w_v_i (u_dut.u_axil.w_v_q),
    .b_v_i (u_dut.u_axil.b_v_q), .r_v_i (u_dut.u_axil.r_v_q),
    .aw_out_i (u_chk.aw_out_q), .w_out_i (u_chk.w_out_q), .ar_out_i (u_chk.ar_out_q),
    .aw_wait_i (u_chk.aw_wait_q), .w_wait_i (u_chk.w_wait_q), .ar_wait_i (u_chk.ar_wait_q),
    .b_delay_i (u_chk.b_delay_q), .r_delay_i (u_chk.r_delay_q)
  );

  axil_resp_fv u_resp (
    .clk_i, .rst_ni,
    .awvalid_i (s_axil_awvalid), .awready_i (s_axil_awready), .aw_bad_i (wr_bad(s_axil_awaddr)),
    .wvalid_i (s_axil_wvalid), .wready_i (s_axil_wready), .w_bad_i (s_axil_wstrb != 4'hf),
    .bvalid_i (s_axil_bvalid), .bready_i (s_axil_bready), .bresp_i (s_axil_bresp),
    .arvalid_i (s_axil_arvalid), .arready_i (s_axil_arready),
    .ar_bad_i (desc_access(s_axil_araddr) == RegAccBad),
    .rvalid_i (s_axil_rvalid), .rready_i (s_axil_rready), .rresp_i (s_axil_rresp),
    .held_aw_v_i (u_dut.u_axil.aw_v_q), .held_aw_bad_i (wr_bad(u_dut.u_axil.aw_addr_q)),
    .held_w_v_i (u_dut.u_axil.w_v_q), .held_w_bad_i (u_dut.u_axil.w_strb_q != 4'hf),
    .b_v_i (u_dut.u_axil.b_v_q), .b_resp_i (u_dut.u_axil.b_resp_q),
    .r_v_i (u_dut.u_axil.r_v_q), .r_resp_i (u_dut.u_axil.r_resp_q)
  );

`endif  // FV_UDMA_AXIL

`ifdef FV_UDMA_RINGS
  // ---- rings -----------------------------------------------------------------
  udma_q_ptr_t    head [2][NumQ];
  udma_q_ptr_t    tail [2][NumQ];
  udma_q_rl_len_t rl   [2][NumQ];
  logic [31:0]    head_w [2][NumQ];
  logic [31:0]    tail_w [2][NumQ];
  always_comb begin
    for (int s = 0; s < 2; s++) begin
      for (int q = 0; q < NumQ; q++) begin
        head[s][q]   = u_dut.head_q[s][q];
        tail[s][q]   = u_dut.tail_q[s][q];
        rl[s][q]     = u_dut.rl_q[s][q];
        head_w[s][q] = head[s][q];
        tail_w[s][q] = tail[s][q];
      end
    end
  end

`ifndef FV_UDMA_NO_RING_CHK
  // The simulation checker of the ring pointers, on the same registers.
  udma_regs_ptr_chk #(.NumQ(NumQ)) u_ring_chk (
    .clk_i, .rst_ni,
    .head_i (head_w), .tail_i (tail_w),
    .head_adv_i (ev_head_adv_i), .adv_q_i (ev_q_i)
  );
`endif

  // The write the register file commits at this edge (adapter request).
  logic             cw;
  logic [AddrW-1:0] ca;
  logic [31:0]      cd;
  logic             cs, c_full;
  logic [31:0]      c_side_off, c_q, c_qoff;
  assign cw         = u_dut.u_axil.wr_req_o;
  assign ca         = u_dut.u_axil.wr_addr_o;
  assign cd         = u_dut.u_axil.wr_data_o;
  assign c_full     = u_dut.u_axil.wr_strb_o == 4'hf;
  assign cs         = ca[SideBit];
  assign c_side_off = 32'(ca[SideBit-1:0]);
  assign c_q        = 32'(ca[SideBit-1:QSh]) - (UDMA_Q_ARRAY_BASE >> QSh);
  assign c_qoff     = 32'(ca[QSh-1:0]);

  function automatic logic c_hits(logic cw_, logic full, logic [AddrW-1:0] a, logic [31:0] qoff,
                                  logic [31:0] qn, int s, int q, logic [31:0] reg_off);
    return cw_ && full && !wr_bad(a) && int'(a[SideBit]) == s && qn == 32'(q) &&
           qoff == reg_off && 32'(a[SideBit-1:0]) >= UDMA_Q_ARRAY_BASE;
  endfunction

  // Environment.
  logic env_adv, env_rl;
  always_comb begin
    env_adv = 1'b1;
    env_rl  = 1'b1;
    for (int s = 0; s < 2; s++) begin
      if (ev_head_adv_i[s] && !avail[s][ev_q_i[s]]) begin
        env_adv = 1'b0;
      end
      for (int q = 0; q < NumQ; q++) begin
        if (c_hits(cw, c_full, ca, c_qoff, c_q, s, q, UDMA_Q_RL) &&
            (head[s][q].offset != '0 || tail[s][q].offset != '0)) begin
          env_rl = 1'b0;
        end
      end
    end
  end
  `SB2SB_RULE(1'b1, FV_UDMA_ENV_ADV, env_adv)
  `SB2SB_RULE(1'b1, FV_UDMA_ENV_RL, env_rl)

  // The rings the invariants are checked on: every ring, or (FV_UDMA_WATCH) one ring
  // chosen freely at the start of the trace and kept (a flop with no reset and no
  // initial value: any ring, constant). The invariants are per ring, so proving them
  // for an arbitrary ring proves them for every ring, and the induction step carries
  // one ring's arithmetic instead of all of them.
  logic watch_s_q;
  logic [QueueIdxW-1:0] watch_q_q;
  always_ff @(posedge clk_i) begin
    watch_s_q <= watch_s_q;
    watch_q_q <= watch_q_q;
  end
  function automatic logic watched(int s, int q, logic ws, logic [QueueIdxW-1:0] wq);
`ifdef FV_UDMA_WATCH
    return s == int'(ws) && q == int'(wq);
`else
    return 1'b1;
`endif
  endfunction

  // Invariants.
  logic inv_order, inv_in_ring, inv_nonempty;
  always_comb begin
    inv_order    = 1'b1;
    inv_in_ring  = 1'b1;
    inv_nonempty = 1'b1;
    for (int s = 0; s < 2; s++) begin
      for (int q = 0; q < NumQ; q++) begin
        udma_q_ptr_t h, t;
        h = head[s][q];
        t = tail[s][q];
        if (watched(s, q, watch_s_q, watch_q_q)) begin
          if (!((t.ring_id == h.ring_id && t.offset >= h.offset) ||
                (t.ring_id == h.ring_id + 2'd1 && t.offset < h.offset))) begin
            inv_order = 1'b0;
          end
          if (rl[s][q] == '0 ? (h.offset != '0 || t.offset != '0) :
                               (h.offset >= rl[s][q] || t.offset >= rl[s][q])) begin
            inv_in_ring = 1'b0;
          end
          if (u_dut.nonempty_q[s][q] != (h.offset != t.offset)) begin
            inv_nonempty = 1'b0;
          end
        end
      end
    end
  end
`ifdef FV_UDMA_ORDER_CHK
  `SB2SB_INVARIANT(FV_UDMA_ORDER, inv_order)
`endif
  `SB2SB_INVARIANT(FV_UDMA_IN_RING, inv_in_ring)
  `SB2SB_INVARIANT(FV_UDMA_NONEMPTY, inv_nonempty)

  // Doorbells: the expected tail (or overflow) is computed from the state at
  // the commit and checked one cycle later. The written ring is selected once
  // and the arithmetic done once (udma_ring_step_fv), as the register file does
  // it.
  logic                 db_v_d, db_over_d, db_side_d;
  logic [QueueIdxW-1:0] db_q_d;
  udma_q_ptr_t          db_tail_d;
  logic                 c_db, c_adv;
  always_comb begin
    c_db = 1'b0;
    for (int s = 0; s < 2; s++) begin
      for (int q = 0; q < NumQ; q++) begin
        if (c_hits(cw, c_full, ca, c_qoff, c_q, s, q, UDMA_Q_RTP_INC)) begin
          c_db = 1'b1;
        end
      end
    end
  end
  assign c_adv = ev_head_adv_i[cs] && ev_q_i[cs] == c_q[QueueIdxW-1:0];

  // FV_UDMA_STEP_LEMMA: the lap-order lemma of one ring's step (proved for every
  // value by rtl/formal/udma_ring_step.sby) assumed on the written ring and on
  // the watched ring.
`ifdef FV_UDMA_STEP_LEMMA
  localparam int unsigned StepCheck = 1;
`else
  localparam int unsigned StepCheck = 0;
`endif
  udma_ring_step_fv #(.Check(StepCheck)) u_db_step (
    .rst_ni,
    .head_i (head[cs][c_q[QueueIdxW-1:0]]),
    .tail_i (tail[cs][c_q[QueueIdxW-1:0]]),
    .rl_i   (rl[cs][c_q[QueueIdxW-1:0]]),
    .db_i   (c_db),
    .inc_i  (cd[PtrW-1:0]),
    .adv_i  (c_adv),
    .tail_o (db_tail_d),
    .over_o (db_over_d)
  );
`ifdef FV_UDMA_STEP_LEMMA
  udma_q_ptr_t w_tail_unused;
  logic        w_over_unused;
  udma_ring_step_fv #(.Check(StepCheck)) u_watch_step (
    .rst_ni,
    .head_i (head[watch_s_q][watch_q_q]),
    .tail_i (tail[watch_s_q][watch_q_q]),
    .rl_i   (rl[watch_s_q][watch_q_q]),
    .db_i   (1'b0),
    .inc_i  ('0),
    .adv_i  (ev_head_adv_i[watch_s_q] && ev_q_i[watch_s_q] == watch_q_q),
    .tail_o (w_tail_unused),
    .over_o (w_over_unused)
  );
`endif
  assign db_v_d    = c_db;
  assign db_side_d = cs;
  assign db_q_d    = c_q[QueueIdxW-1:0];

  logic        db_v_q, db_over_q, db_side_q;
  logic [QueueIdxW-1:0] db_q_q;
  udma_q_ptr_t db_tail_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      db_v_q    <= 1'b0;
      db_over_q <= 1'b0;
      db_side_q <= 1'b0;
      db_q_q    <= '0;
      db_tail_q <= '0;
    end else begin
      db_v_q    <= db_v_d;
      db_over_q <= db_over_d;
      db_side_q <= db_side_d;
      db_q_q    <= db_q_d;
      db_tail_q <= db_tail_d;
    end
  end
  logic db_free_ok;
  assign db_free_ok = !db_v_q || !watched(int'(db_side_q), int'(db_q_q), watch_s_q, watch_q_q) ||
                      (tail[db_side_q][db_q_q] == db_tail_q &&
                       (!db_over_q || u_dut.estat_q[db_side_q][UDMA_ERR_DB_OVERFLOW]));
`ifdef FV_UDMA_DOORBELL
  `SB2SB_INVARIANT(FV_UDMA_DB_FREE, db_free_ok)
`elsif FV_UDMA_DB_FREE_PROVED
  // FV_UDMA_DB_FREE as proved by task db_free24 (which assumes neither it nor
  // the lap order): assumed here, so that the lap-order step takes the
  // register file's doorbell tail from the reference.
  always_comb begin
    if (rst_ni) begin
      assume (db_free_ok);
    end
  end
`else
  logic unused_db_free;
  assign unused_db_free = db_free_ok;
`endif

  // Non-vacuity: a doorbell moves a tail; a doorbell overflows; a doorbell
  // wraps the tail past the ring's end (tail one lap ahead of the head).
  logic c_wrap;
  always_comb begin
    c_wrap = 1'b0;
    for (int s = 0; s < 2; s++) begin
      for (int q = 0; q < NumQ; q++) begin
        if (tail[s][q].ring_id != head[s][q].ring_id) begin
          c_wrap = 1'b1;
        end
      end
    end
  end
  `SB2SB_COVER(FV_UDMA_C_DOORBELL, db_v_q && !db_over_q && db_tail_q.offset != '0)
  `SB2SB_COVER(FV_UDMA_C_DB_OVERFLOW, db_v_q && db_over_q)
`ifdef FV_UDMA_WRAP_COVER
  // Not reached within 12 cycles from reset (task coverwrap): a wrap needs a
  // ring length, doorbells past the end and head advances, each write a few
  // cycles through the adapter.
  `SB2SB_COVER(FV_UDMA_C_TAIL_WRAP, db_v_q && !db_over_q && c_wrap)
`else
  logic unused_wrap;
  assign unused_wrap = c_wrap;
`endif
`endif  // FV_UDMA_RINGS

  logic unused;
  assign unused = ^{stopped, normal, comp_en, desc_addr, comp_addr, head_id, crhp_id, head_off,
                    tout, irq, err_irq, csr_pending, ev_crhp_adv_i};
endmodule : udma_regs_fv
