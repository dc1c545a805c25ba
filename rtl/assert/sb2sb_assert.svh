// Interface rule macros: one source for the simulation checkers and the formal
// properties (OpenTitan style: one rule per line, a name that appears in the
// failure). Included by the checkers in rtl/assert/ and the harnesses in
// rtl/formal/.
//
// `SB2SB_ASSERT(NAME, COND)      a rule of the design under check.
// `SB2SB_RULE(ENV, NAME, COND)   a rule of one side of an interface; ENV is an
//                                elaboration-time expression: 1 when that side
//                                is the environment of the check (e.g. the
//                                master's rules when a slave is proved), 0 when
//                                it is the design under check.
// `SB2SB_INVARIANT(NAME, COND)   a state invariant of the design (formal: an
//                                assertion on the current cycle's values).
// `SB2SB_COVER(NAME, COND)       a reachability goal (formal only).
// `SB2SB_X_ASSERT(NAME, COND)    an X/Z rule (simulation only: formal models
//                                are two-state).
// Every rule is checked at each rising edge of clk_i while rst_ni is high,
// i.e. on the values the lockstep samples in that cycle.
//
// Simulation (Verilator --assert, SB2SB_ASSERT=1): every rule, ENV or not, is
// an immediate assertion (the environment of the lockstep must keep the
// protocol too). A failure calls the DPI function sb2sb_assert_fail (C++ in
// the generated shim), which records it in the model being stepped; the
// lockstep then stops with a report like a mismatch (cycle, rule, block,
// replay command).
//
// Formal (FORMAL defined; SymbiYosys with read_slang, rtl/formal/): a rule of
// the environment is `assume`, every other rule `assert`, labelled NAME so that
// a counterexample report names the rule ("failed assertion <scope>.NAME"). Reset is synchronous to the check here (no async-reset
// pattern, which the formal front-end rejects for a process without state).
`ifndef SB2SB_ASSERT_SVH
`define SB2SB_ASSERT_SVH

`ifdef FORMAL

`define SB2SB_ASSERT_IMPORT

`define SB2SB_ASSERT(__name, __cond) \
  always_ff @(posedge clk_i) begin \
    if (rst_ni) begin \
      __name: assert (__cond); \
    end \
  end

// A state invariant checked on the current cycle's values (not sampled at the
// clock edge): in a k-induction step it constrains the same cycle it is
// assumed in, so a 1-inductive invariant closes at depth 1.
`define SB2SB_INVARIANT(__name, __cond) \
  always_comb begin \
    if (rst_ni) begin \
      __name: assert (__cond); \
    end \
  end

`define SB2SB_RULE(__env, __name, __cond) \
  always_ff @(posedge clk_i) begin \
    if (rst_ni) begin \
      if (__env) begin \
        assume (__cond); \
      end else begin \
        __name: assert (__cond); \
      end \
    end \
  end

`define SB2SB_COVER(__name, __cond) \
  always_ff @(posedge clk_i) begin \
    if (rst_ni) begin \
      __name: cover (__cond); \
    end \
  end

`define SB2SB_X_ASSERT(__name, __cond)

`else  // simulation

`define SB2SB_ASSERT_IMPORT \
  import "DPI-C" function void sb2sb_assert_fail(input string scope, input string name);

`define SB2SB_ASSERT(__name, __cond) \
  always_ff @(posedge clk_i or negedge rst_ni) begin : __name \
    if (rst_ni) begin \
      assert (__cond) else sb2sb_assert_fail($sformatf("%m"), `"__name`"); \
    end \
  end

`define SB2SB_RULE(__env, __name, __cond) `SB2SB_ASSERT(__name, __cond)

`define SB2SB_INVARIANT(__name, __cond) `SB2SB_ASSERT(__name, __cond)

`define SB2SB_COVER(__name, __cond)

`define SB2SB_X_ASSERT(__name, __cond) `SB2SB_ASSERT(__name, __cond)

`endif  // FORMAL

`endif  // SB2SB_ASSERT_SVH
