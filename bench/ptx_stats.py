#!/usr/bin/env python3
"""Per-kernel code statistics of a PTX file: PTX instructions (counted here), registers and
spills (ptxas -v) and SASS instructions (nvdisasm on the cubin ptxas wrote).

usage: python3 bench/ptx_stats.py FILE.ptx --cuda-root DIR [--arch sm_90]

DIR is the CUDA root that scripts/install-cuda-ref.sh prints (DIR/bin/ptxas, DIR/bin/nvdisasm).
bench/compare.py imports this module; run directly, it prints one row per function.

What is counted:
  PTX   statements in a function's body that are instructions: everything terminated by ';'
        except directives (.reg, .local, .shared, .param, .loc, .pragma, ...), with labels
        and scope braces removed. A multi-line `call` counts once. Callee bodies are not
        included; `calls` lists the functions an entry calls.
  regs, spill bytes (stores + loads), stack frame: from `ptxas -v -arch=ARCH` (ptxas at its
        default -O3), per entry.
  SASS  instructions nvdisasm prints for the kernel's .text.<entry> section, without the
        alignment padding after the end (trailing NOPs and the `BRA` to itself that
        follows the last EXIT). ptxas places the functions a kernel calls inside the
        kernel's section, so SASS counts include callees.
"""

import os
import re
import subprocess
import sys
import tempfile

# -------------------------------------------------------------------------------- PTX

# A function header: optional linkage, .entry or .func, for a .func an optional return
# parameter list in parentheses, then the name.
_HEADER = re.compile(r"(?:\.(?:visible|extern|weak)\s+)*\.(entry|func)\s*(?:\([^)]*\)\s*)?([\w$]+)")
_LABEL = re.compile(r"^(?:[\w$.]+:\s*)+")
_CALLEE = re.compile(r"^(?:@!?%\w+\s+)?call(?:\.uni)?\s+(?:\([^)]*\)\s*,\s*)?([\w$]+)")


def _strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def ptx_functions(text):
    """{name: {"kind": "entry"|"func", "instrs": int, "calls": [callee, ...]}} for every
    function with a body (declarations without one are skipped)."""
    text = _strip_comments(text)
    funcs = {}
    pos = 0
    while True:
        m = _HEADER.search(text, pos)
        if m is None:
            return funcs
        kind, name = m.group(1), m.group(2)
        # The body is the first '{' after the parameter list; a ';' first means this is
        # only a declaration (e.g. `.extern .func f(...);`).
        i = m.end()
        depth = 0
        while i < len(text):
            c = text[i]
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
            elif depth == 0 and c in "{;":
                break
            i += 1
        if i >= len(text) or text[i] == ";":
            pos = i + 1
            continue
        # Find the matching '}' (vector operands like {%r1, %r2} and nested scopes are
        # balanced, so plain brace counting works).
        start, depth = i + 1, 1
        i = start
        while i < len(text) and depth:
            if text[i] == "{":
                depth += 1
            elif text[i] == "}":
                depth -= 1
            i += 1
        body = text[start:i - 1]
        pos = i
        instrs, calls = 0, []
        for stmt in body.split(";"):
            stmt = stmt.strip()
            # Scope braces and labels may precede the statement proper.
            while True:
                s = _LABEL.sub("", stmt.lstrip("{}").strip())
                if s == stmt:
                    break
                stmt = s
            if not stmt or stmt.startswith("."):
                continue
            instrs += 1
            c = _CALLEE.match(stmt)
            if c:
                calls.append(c.group(1))
        funcs[name] = {"kind": kind, "instrs": instrs, "calls": calls}


# -------------------------------------------------------------------------------- ptxas -v

def parse_ptxas_verbose(log):
    """{function: {"regs", "spill_stores", "spill_loads", "stack"}} from ptxas -v output.
    Entries get all four; non-inlined .funcs only the frame line."""
    info = {}
    current = None
    for line in log.splitlines():
        m = re.search(r"Compiling entry function '([^']+)'|Function properties for ([\w$]+)", line)
        if m:
            current = info.setdefault(m.group(1) or m.group(2), {})
            continue
        if current is None:
            continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m:
            current["stack"], current["spill_stores"], current["spill_loads"] = map(int, m.groups())
        m = re.search(r"Used (\d+) registers", line)
        if m:
            current["regs"] = int(m.group(1))
    return info


# -------------------------------------------------------------------------------- SASS

_SASS_SECTION = re.compile(r"^//-+ \.text\.([\w$]+)")
_SASS_INSTR = re.compile(r"^\s*/\*[0-9a-f]+\*/\s+(.*?)\s*;?\s*$")
_SASS_LABEL = re.compile(r"^\s*([.\w$]+):\s*$")


def sass_counts(disassembly):
    """{kernel: SASS instruction count} from `nvdisasm -c` output (see the module doc)."""
    sections = {}
    current = None
    for line in disassembly.splitlines():
        m = _SASS_SECTION.match(line)
        if m:
            current = sections.setdefault(m.group(1), [])
            continue
        if current is None:
            continue
        m = _SASS_INSTR.match(line)
        if m:
            current.append(("instr", m.group(1)))
            continue
        m = _SASS_LABEL.match(line)
        if m:
            current.append(("label", m.group(1)))
    counts = {}
    for name, items in sections.items():
        while items and (items[-1][0] == "label" or items[-1][1].startswith("NOP")):
            items.pop()
        # The trap after the last EXIT: `.L_x_N:  BRA `(.L_x_N)`.
        if len(items) >= 2 and items[-2][0] == "label" and \
                re.fullmatch(r"BRA\s+`\(%s\)" % re.escape(items[-2][1]), items[-1][1]):
            items.pop()
        counts[name] = sum(1 for kind, _ in items if kind == "instr")
    return counts


# -------------------------------------------------------------------------------- driver

def tool(cuda_root, name):
    return os.path.join(cuda_root, "bin", name)


def kernel_stats(ptx_path, cuda_root, arch="sm_90", workdir=None):
    """Assembles PTX_PATH and returns (stats, error). stats: {entry: {"ptx", "calls",
    "regs", "spill", "stack", "sass"}} (a value is None where a tool gave nothing);
    error: None, or why ptxas/nvdisasm failed (stats then has what could be measured)."""
    with open(ptx_path) as f:
        funcs = ptx_functions(f.read())
    stats = {name: {"ptx": fn["instrs"], "calls": fn["calls"], "regs": None, "spill": None,
                    "stack": None, "sass": None}
             for name, fn in funcs.items() if fn["kind"] == "entry"}
    with tempfile.TemporaryDirectory(dir=workdir) as tmp:
        cubin = os.path.join(tmp, "out.cubin")
        r = subprocess.run([tool(cuda_root, "ptxas"), "-v", "-arch=" + arch, ptx_path, "-o", cubin],
                           capture_output=True, text=True)
        if r.returncode != 0:
            return stats, "ptxas failed: " + (r.stderr or r.stdout).strip()
        for name, d in parse_ptxas_verbose(r.stdout + r.stderr).items():
            if name in stats and "regs" in d:
                stats[name].update(regs=d["regs"], stack=d.get("stack"),
                                   spill=d.get("spill_stores", 0) + d.get("spill_loads", 0))
        r = subprocess.run([tool(cuda_root, "nvdisasm"), "-c", cubin], capture_output=True, text=True)
        if r.returncode != 0:
            return stats, "nvdisasm failed: " + r.stderr.strip()
        for name, n in sass_counts(r.stdout).items():
            if name in stats:
                stats[name]["sass"] = n
    return stats, None


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    ptx, arch, cuda_root = None, "sm_90", None
    args = iter(argv)
    for a in args:
        if a == "--arch":
            arch = next(args)
        elif a == "--cuda-root":
            cuda_root = next(args)
        else:
            ptx = a
    if ptx is None or cuda_root is None:
        print("error: need a PTX file and --cuda-root", file=sys.stderr)
        return 2
    stats, error = kernel_stats(ptx, cuda_root, arch)
    cols = ["regs", "spill", "stack", "ptx", "sass"]
    width = max([len("kernel")] + [len(n) for n in stats])
    print("kernel".ljust(width), *(c.rjust(6) for c in cols), " calls")
    for name, d in stats.items():
        cells = ["-" if d[c] is None else str(d[c]) for c in cols]
        print(name.ljust(width), *(c.rjust(6) for c in cells), " " + ",".join(d["calls"]))
    if error:
        print(error, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
