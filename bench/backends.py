#!/usr/bin/env python3
"""Three code generators on the same kernels: cuprite, LLVM's NVPTX backend (`cuprite compile
--backend=llvm`: cuprite's frontend and nvvm level, then LLVM's optimizer and backend) and
NVRTC. Per launch of the corpus: registers and SASS instructions (ptxas 13.0 -v, nvdisasm)
and warp instructions executed on the simulator (`cuprite run --ptx ... --stats`, the same
launch for the three PTX files).

usage: python3 bench/backends.py --cuda-root DIR [--cuprite PATH] [--arch sm_90]
                                 [--output PATH] [FILE.cu ...]

  --cuda-root DIR  the CUDA 13 root that scripts/install-cuda-ref.sh prints
  --cuprite PATH   a cuprite built with the `mlir` feature (default target/release/cuprite:
                   `cargo build --release -p cuprite --features mlir` first)
  --output PATH    where the table goes (default bench/results/backends.md; '-': none)

Ratios are against NVRTC; geometric means over the launches all three measured.
"""

import math
import os
import subprocess
import sys
import tempfile

BENCH = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(BENCH)
sys.path.insert(0, BENCH)
import exec_count  # noqa: E402  (bench/exec_count.py: the corpus and the launch counts)
import ptx_stats  # noqa: E402


def entry(stats, kernel):
    """The statistics of launch `kernel` (a spec names a kernel by its mangled name or by its
    source name): the entry of that name, or the one mangled entry with that source name."""
    if kernel in stats:
        return stats[kernel]
    prefix = f"_Z{len(kernel)}{kernel}"
    hits = [k for k in stats if k.startswith(prefix)]
    return stats[hits[0]] if len(hits) == 1 else {}


def main(argv):
    cuda_root, cuprite, arch, output, files = None, os.path.join(REPO, "target/release/cuprite"), "sm_90", None, []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--cuda-root", "--cuprite", "--arch", "--output") and i + 1 < len(argv):
            v = argv[i + 1]
            if a == "--cuda-root":
                cuda_root = v
            elif a == "--cuprite":
                cuprite = v
            elif a == "--arch":
                arch = v
            else:
                output = v
            i += 2
            continue
        if a.startswith("-"):
            print(__doc__, file=sys.stderr)
            return 2
        files.append(a)
        i += 1
    if not cuda_root:
        print("--cuda-root is required (scripts/install-cuda-ref.sh prints it)", file=sys.stderr)
        return 2
    output = output or os.path.join(BENCH, "results", "backends.md")
    names = ["cuprite", "LLVM NVPTX", "NVRTC"]
    rows, problems = [], []
    tmp = tempfile.mkdtemp(prefix="backends-")
    for f in exec_count.corpus(files):
        path = os.path.join(REPO, f)
        spec = path[:-3] + ".toml"
        stem = os.path.basename(f)[:-3]
        ptx = {n: os.path.join(tmp, f"{stem}.{k}.ptx") for k, n in enumerate(names)}
        cmds = {
            "cuprite": [cuprite, "compile", path, f"--arch={arch}", "-o", ptx["cuprite"]],
            "LLVM NVPTX": [cuprite, "compile", path, "--backend=llvm", f"--arch={arch}", "-o", ptx["LLVM NVPTX"]],
            "NVRTC": [sys.executable, os.path.join(BENCH, "nvrtc_compile.py"), path, "--cuda-root", cuda_root, "--arch", arch, "-o", ptx["NVRTC"]],
        }
        stats, runs = {}, {}
        for n in names:
            r = subprocess.run(cmds[n], capture_output=True, text=True)
            if r.returncode != 0:
                problems.append(f"{f}: {n}: {(r.stderr.strip().splitlines() or ['failed'])[-1]}")
                continue
            st, err = ptx_stats.kernel_stats(ptx[n], cuda_root, arch)
            if err:
                problems.append(f"{f}: {n}: {err.splitlines()[0]}")
            stats[n] = st
            try:
                runs[n] = exec_count.launches(cuprite, ["--spec", spec, "--ptx", ptx[n]])
            except Exception as e:  # noqa: BLE001 (a report, not a crash)
                problems.append(f"{f}: {n}: {e}")
        if "cuprite" not in runs:
            continue
        for k, (kernel, _) in enumerate(runs["cuprite"]):
            cells = {}
            for n in names:
                run = runs.get(n)
                executed = run[k][1] if run and k < len(run) and run[k][0] == kernel else None
                st = entry(stats.get(n, {}), kernel)
                cells[n] = (st.get("regs"), st.get("sass"), executed)
            rows.append((f, kernel, cells))

    def geomean(xs):
        return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")

    lines = [
        "# Three backends on the corpus: cuprite, LLVM's NVPTX backend, NVRTC",
        "",
        f"`python3 bench/backends.py --cuda-root ...`, {arch}, ptxas 13.0 (registers, SASS) and the simulator (executed warp instructions, same launches).",
        "`LLVM NVPTX` is `cuprite compile --backend=llvm`: cuprite's frontend and nvvm level after the conversions and inlining, then LLVM 22's `default<O3>` and NVPTX backend.",
        "",
        "| file | kernel | regs cuprite | regs LLVM | regs NVRTC | SASS cuprite | SASS LLVM | SASS NVRTC | executed cuprite | executed LLVM | executed NVRTC |",
        "|---|---|" + "---:|" * 9,
    ]
    ratios = {(n, m): [] for n in names[:2] for m in range(3)}
    for f, kernel, cells in rows:
        vals = []
        for m in range(3):
            for n in names:
                v = cells[n][m]
                vals.append(str(v) if v is not None else "-")
        lines.append(f"| {f} | {kernel} | " + " | ".join(vals) + " |")
        for m in range(3):
            if all(cells[n][m] for n in names):
                for n in names[:2]:
                    ratios[(n, m)].append(cells[n][m] / cells["NVRTC"][m])
    lines += ["", "Geometric means of the ratios to NVRTC (launches all three measured):", "",
              "| measure | cuprite | LLVM NVPTX | launches |", "|---|---:|---:|---:|"]
    for m, what in enumerate(["registers", "SASS instructions", "executed warp instructions"]):
        a, b = ratios[("cuprite", m)], ratios[("LLVM NVPTX", m)]
        lines.append(f"| {what} | {geomean(a):.3f} | {geomean(b):.3f} | {len(a)} |")
    return exec_count.write_table(lines, problems, output)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
