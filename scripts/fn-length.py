#!/usr/bin/env python3
"""Report the Rust functions and SystemVerilog processes longer than a limit.

Rust: from the line of `fn name` to its closing brace (braces counted with
comments, strings and char literals removed). SystemVerilog: `always*`
blocks from the keyword to the `end` that closes their first `begin`,
`function`/`task` to their `endfunction`/`endtask`. Lines are counted
inclusively. Tracked files only (`git ls-files`).

A report, not a gate: it always exits 0 (`make lint` prints it).
Usage: scripts/fn-length.py [LIMIT]   (default 100)
"""
import re
import subprocess
import sys

LIMIT = int(sys.argv[1]) if len(sys.argv) > 1 else 100

FN_RE = re.compile(
    r'^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?'
    r'(?:extern\s+"[^"]*"\s+)?fn\s+([A-Za-z_][A-Za-z0-9_]*)'
)
CHAR_RE = re.compile(r"'(\\.|\\x[0-9a-fA-F]{2}|\\u\{[0-9a-fA-F]+\}|[^\\'])'")
RAW_RE = re.compile(r'r(#*)"')


def strip_rust(line, state):
    """`line` without comments and string/char literals; `state` carries
    [block-comment depth, inside a string] across lines."""
    out = []
    i, n = 0, len(line)
    while i < n:
        if state[0] > 0:
            if line.startswith("*/", i):
                state[0] -= 1
                i += 2
            elif line.startswith("/*", i):
                state[0] += 1
                i += 2
            else:
                i += 1
            continue
        if state[1]:
            if line[i] == "\\":
                i += 2
                continue
            if line[i] == '"':
                state[1] = False
            i += 1
            continue
        c = line[i]
        if line.startswith("//", i):
            break
        if line.startswith("/*", i):
            state[0] += 1
            i += 2
            continue
        m = RAW_RE.match(line, i)
        if m and (i == 0 or not (line[i - 1].isalnum() or line[i - 1] == "_")):
            close = '"' + m.group(1)
            j = line.find(close, m.end())
            i = n if j < 0 else j + len(close)
            continue
        if c == '"':
            state[1] = True
            i += 1
            continue
        if c == "'":
            m = CHAR_RE.match(line, i)
            if m:
                i = m.end()
                continue
        out.append(c)
        i += 1
    return "".join(out)


def rust_fns(text):
    state = [0, False]
    clean = [strip_rust(l, state) for l in text.split("\n")]
    for k, l in enumerate(clean):
        m = FN_RE.match(l)
        if not m:
            continue
        depth, opened, end = 0, False, None
        for j in range(k, len(clean)):
            s = clean[j]
            if not opened and ";" in s and "{" not in s:
                break  # a declaration without a body
            for ch in s:
                if ch == "{":
                    depth += 1
                    opened = True
                elif ch == "}":
                    depth -= 1
                if opened and depth == 0:
                    end = j
                    break
            if end is not None:
                break
        if end is not None:
            yield "fn " + m.group(1), k + 1, end - k + 1


PROC_RE = re.compile(r"\b(always_comb|always_ff|always_latch|always|function|task)\b")


def sv_clean(text):
    out, in_block = [], False
    for l in text.split("\n"):
        if in_block:
            j = l.find("*/")
            if j < 0:
                out.append("")
                continue
            l, in_block = l[j + 2:], False
        l = re.sub(r"/\*.*?\*/", "", l)
        if "/*" in l:
            l, in_block = l[: l.find("/*")], True
        out.append(re.sub(r'"[^"]*"', '""', l.split("//")[0]))
    return out


def sv_procs(text):
    clean = sv_clean(text)
    for k, l in enumerate(clean):
        m = PROC_RE.search(l)
        if not m:
            continue
        kind = m.group(1)
        if kind in ("function", "task"):
            nm = re.search(r"\b(\w+)\s*[;(]", l[m.end():])
            for j in range(k, len(clean)):
                if re.search(r"\bend" + kind + r"\b", clean[j]):
                    yield f"{kind} {nm.group(1) if nm else '?'}", k + 1, j - k + 1
                    break
            continue
        depth, opened, end = 0, False, None
        for j in range(k, len(clean)):
            s = clean[j] if j > k else l[m.start():]
            for t in re.finditer(r"\b(begin|end)\b", s):
                depth += 1 if t.group(1) == "begin" else -1
                opened |= t.group(1) == "begin"
                if opened and depth == 0:
                    end = j
                    break
            if end is not None or (not opened and ";" in s):
                end = j if end is None else end
                break
        label = ""
        for b in range(k, min(end + 1, k + 3)):
            lb = re.search(r"\bbegin\s*:\s*(\w+)", clean[b])
            if lb:
                label = " " + lb.group(1)
                break
        yield kind + label, k + 1, end - k + 1


def main():
    files = subprocess.run(
        ["git", "ls-files", "*.rs", "*.sv", "*.svh"], capture_output=True, text=True, check=True
    ).stdout.split()
    long = []
    for f in files:
        try:
            text = open(f, encoding="utf-8", errors="replace").read()
        except OSError:
            continue
        items = rust_fns(text) if f.endswith(".rs") else sv_procs(text)
        long += [(n, f, ln, name) for name, ln, n in items if n > LIMIT]
    long.sort(key=lambda x: (-x[0], x[1], x[2]))
    rs = sum(1 for x in long if x[1].endswith(".rs"))
    print(f"fn-length: {rs} Rust functions and {len(long) - rs} SystemVerilog processes over {LIMIT} lines")
    for n, f, ln, name in long:
        print(f"  {n:4d}  {f}:{ln}  {name}")


if __name__ == "__main__":
    main()
