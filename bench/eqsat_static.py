#!/usr/bin/env python3
"""Static code of the `eqsat` pass's drivers: every corpus kernel compiled by cuprite with
`--rewrite-driver=off`, `greedy` and `eqsat` (and `--remat-iv=0` for the first), assembled by
ptxas 13.0 and disassembled (bench/ptx_stats.py): registers and SASS instructions per
kernel, and the geometric-mean ratios against `off`. The simulator's executed-instruction
counts (bench/exec_count.py --rewrite-drivers) count PTX instructions, in which a `div.u32`
is one and its `mul.hi` replacement three; SASS counts show what ptxas makes of them
(`div.u32` is 18 SASS instructions, bench/results/sass_costs.md).

    python3 bench/eqsat_static.py --cuda-root DIR [--output PATH]
"""
import argparse, math, os, subprocess, sys, tempfile

BENCH = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(BENCH)
sys.path.insert(0, BENCH)
import ptx_stats  # noqa: E402

CONFIGS = [("off", ["--rewrite-driver=off", "--remat-iv=0"]), ("greedy", ["--rewrite-driver=greedy"]), ("eqsat", [])]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cuda-root", required=True)
    ap.add_argument("--cuprite", default=os.path.join(REPO, "target/release/cuprite"))
    ap.add_argument("--output", default=os.path.join(BENCH, "results", "eqsat_static.md"))
    a = ap.parse_args()
    files = []
    for d in ("tests/ptx", "examples/cuda"):
        files += [os.path.join(d, f) for f in sorted(os.listdir(os.path.join(REPO, d))) if f.endswith(".cu")]
    rows, ratios = [], {n: {"sass": [], "regs": []} for n, _ in CONFIGS[1:]}
    with tempfile.TemporaryDirectory() as tmp:
        for f in files:
            stats = {}
            for name, flags in CONFIGS:
                out = os.path.join(tmp, f"{name}.ptx")
                r = subprocess.run([a.cuprite, "compile", os.path.join(REPO, f), "--arch=sm_90", "-o", out, *flags], capture_output=True, text=True)
                if r.returncode != 0:
                    break
                s, err = ptx_stats.kernel_stats(out, a.cuda_root, "sm_90", workdir=tmp)
                if err:
                    break
                stats[name] = s
            if len(stats) != len(CONFIGS):
                continue
            for k in sorted(stats["off"]):
                base = stats["off"][k]
                cells = [f, k, str(base["regs"]), str(base["sass"])]
                for name, _ in CONFIGS[1:]:
                    o = stats[name].get(k)
                    if not o or not base["sass"] or not base["regs"] or not o["sass"] or not o["regs"]:
                        cells += ["-", "-"]
                        continue
                    ratios[name]["sass"].append(o["sass"] / base["sass"])
                    ratios[name]["regs"].append(o["regs"] / base["regs"])
                    cells += [str(o["regs"]), str(o["sass"])]
                rows.append(cells)
    geo = lambda xs: math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")
    lines = [
        "# Static code of the eqsat drivers (ptxas 13.0, sm_90)",
        "",
        "`python3 bench/eqsat_static.py --cuda-root ...`: registers and SASS instructions per kernel with the `eqsat` pass off (and `--remat-iv=0`), greedy, and by equality saturation.",
        "",
        "| file | kernel | regs off | SASS off | regs greedy | SASS greedy | regs eqsat | SASS eqsat |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    lines.append("")
    for name, _ in CONFIGS[1:]:
        lines.append(f"{name} against off over {len(ratios[name]['sass'])} kernels: SASS instructions **{geo(ratios[name]['sass']):.3f}**, registers **{geo(ratios[name]['regs']):.3f}** (geometric means)")
    text = "\n".join(lines) + "\n"
    print(text)
    if a.output != "-":
        with open(a.output, "w") as fh:
            fh.write(text)


if __name__ == "__main__":
    main()
