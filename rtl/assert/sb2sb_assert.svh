// Interface assertion macros (OpenTitan style: one rule per line, a name that
// appears in the failure). Included by the checkers in rtl/assert/.
//
// `SB2SB_ASSERT(NAME, COND)` checks COND at every rising edge of clk_i while
// rst_ni is high, i.e. on the values the lockstep samples in that cycle. A
// failure calls the DPI function sb2sb_assert_fail (C++ in the generated shim),
// which records it in the model being stepped; the lockstep then stops with a
// report like a mismatch (cycle, assertion, block, replay command).
// The checks exist only when Verilator runs with --assert (SB2SB_ASSERT=1).
`ifndef SB2SB_ASSERT_SVH
`define SB2SB_ASSERT_SVH

`define SB2SB_ASSERT_IMPORT \
  import "DPI-C" function void sb2sb_assert_fail(input string scope, input string name);

`define SB2SB_ASSERT(__name, __cond) \
  always_ff @(posedge clk_i or negedge rst_ni) begin : __name \
    if (rst_ni) begin \
      assert (__cond) else sb2sb_assert_fail($sformatf("%m"), `"__name`"); \
    end \
  end

`endif  // SB2SB_ASSERT_SVH
