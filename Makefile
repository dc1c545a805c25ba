# sb2sb — two commands on a fresh machine:  make cosim   and   make test
SHELL := /bin/bash
CARGO ?= cargo
CYCLES ?= 1000000
SEED ?= 1
WAVES ?= waves
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all setup build cosim test lint fmt clippy waves bench gen ci clean

all: test

## setup: install what is missing (Verilator and GTKWave's vcd2fst from Debian's packages)
setup:
	@missing=""; \
	command -v verilator >/dev/null 2>&1 || missing="$$missing verilator"; \
	command -v vcd2fst >/dev/null 2>&1 || missing="$$missing gtkwave"; \
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

## lint: Verilator -Wall on the RTL, rustfmt and clippy
lint: setup gen-check
	@for f in rtl/*.sv; do \
	  [ "$$f" = rtl/sb2sb_pkg.sv ] && continue; \
	  echo "verilator --lint-only -Wall $$f"; \
	  verilator --lint-only -Wall -Irtl rtl/sb2sb_pkg.sv $$f || exit 1; \
	done
	@for w in 32 64 128 256; do \
	  echo "verilator --lint-only -Wall --top-module udma_engine -GDataWidth=$$w (whole UDMA hierarchy)"; \
	  verilator --lint-only -Wall -Irtl --top-module udma_engine -GDataWidth=$$w \
	    rtl/sb2sb_pkg.sv rtl/udma_regs.sv rtl/udma_m2s.sv rtl/udma_s2m.sv rtl/udma_engine.sv || exit 1; \
	done
	@for n in 1 4 16; do \
	  echo "verilator --lint-only -Wall --top-module sb2sb_pair -GNumEngines=$$n (whole pair; both placements are the place_i strap)"; \
	  verilator --lint-only -Wall -Irtl --top-module sb2sb_pair -GNumEngines=$$n \
	    rtl/sb2sb_pkg.sv rtl/sb2sb_pair.sv || exit 1; \
	done
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings

gen-check:
	$(CARGO) test -q -p sb2sb-model svpkg::tests::committed_package_is_current

## gen: regenerate rtl/sb2sb_pkg.sv from the Rust register definitions
gen:
	SB2SB_UPDATE_PKG=1 $(CARGO) test -q -p sb2sb-model svpkg::tests::committed_package_is_current

## waves: a short run with VCDs and the gtkwave command line to open them
waves: setup
	$(CARGO) run --release --bin sb2sb -- cosim --block all --cycles 2000 --seed $(SEED) --vcd $(WAVES)
	@for g in $(WAVES)/*.gtkw; do echo "open with: gtkwave $$g"; done

## bench: criterion benchmarks (ratios against memcpy / the Verilated RTL)
bench: setup
	$(CARGO) bench

fmt:
	$(CARGO) fmt --all

clean:
	$(CARGO) clean
	rm -rf $(WAVES)
