#!/usr/bin/env python3
"""Executed warp instructions: cuprite's PTX against NVRTC's, launch by launch, on the simulator.

usage: python3 bench/exec_count.py --cuda-root DIR [--cuprite PATH] [--arch sm_90]
                                   [--rewrite-drivers] [--output PATH] [FILE.cu ...]
                                   [-- CUPRITE_FLAGS ...]

  --cuda-root DIR  the CUDA 13 root that scripts/install-cuda-ref.sh prints (NVRTC)
  --cuprite PATH   the cuprite binary (default target/release/cuprite; build it first)
  --arch sm_NN     the target of both compilers (default sm_90)
  --rewrite-drivers
                   measure cuprite three times, with the `eqsat` pass off, greedy and by
                   equality saturation (`--rewrite-driver=off|greedy|eqsat`), each against
                   NVRTC (default output bench/results/eqsat_drivers.md)
  --output PATH    where the table goes (default bench/results/exec_count.md; '-': none)
  -- FLAGS         extra flags for cuprite's compile (`-- -O0`, `-- -fno-unroll-loops`);
                   everything after `--` is a flag
  FILE.cu ...      only these corpus files (default: every corpus file with a launch spec,
                   tests/ptx, tests/programs, examples/cuda)

Static instruction counts hide loops: a loop body that NVRTC unrolls is longer but runs
fewer instructions. This counts what runs: every launch of a file's `<file>.toml` spec runs
with cuprite's PTX and with NVRTC's PTX of the same source (`cuprite run --ptx`), the same
grid, arguments and inputs, and the simulator's count of issued warp instructions (all
lanes of a warp count once) is compared. The report is one row per launch and the
geometric mean of the ratios cuprite / NVRTC (below 1.0: cuprite runs fewer).

A file NVRTC cannot compile (host headers NVRTC lacks) or a launch that fails shows '-'
and is left out of the geometric mean; the report lists why.
"""

import math
import os
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
BENCH = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(BENCH)
STATS = re.compile(r"^(\d+) warp instructions")
KERNEL = re.compile(r"^kernel (\S+) at the ptx level")


def launches(cuprite, args):
    """(kernel, warp instructions) of each launch `cuprite run args --stats` makes."""
    p = subprocess.run([cuprite, "run", "--stats", *args], capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise RuntimeError((p.stderr or p.stdout).strip().splitlines()[-1:] or ["failed"])
    out, kernel = [], None
    for line in p.stdout.splitlines() + p.stderr.splitlines():
        m = KERNEL.match(line)
        if m:
            kernel = m.group(1)
        m = STATS.match(line)
        if m and kernel:
            out.append((kernel, int(m.group(1))))
            kernel = None
    return out


def corpus(files):
    if files:
        return files
    out = []
    for d in ("tests/ptx", "tests/programs", "examples/cuda"):
        for f in sorted(os.listdir(os.path.join(REPO, d))):
            if f.endswith(".cu") and os.path.exists(os.path.join(REPO, d, f[:-3] + ".toml")):
                out.append(os.path.join(d, f))
    return out


def main(argv):
    cuda_root, cuprite, arch, output = None, os.path.join(REPO, "target/release/cuprite"), "sm_90", None
    flags, files, drivers = [], [], False
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--":
            flags = argv[i + 1 :]
            break
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
        if a == "--rewrite-drivers":
            drivers = True
            i += 1
            continue
        if a.startswith("-"):
            print(__doc__, file=sys.stderr)
            return 2
        files.append(a)
        i += 1
    if not cuda_root:
        print("--cuda-root is required (scripts/install-cuda-ref.sh prints it)", file=sys.stderr)
        return 2
    # The cuprite configurations measured: the flags as given, or with --rewrite-drivers the
    # eqsat pass off, greedy and equality saturation (bench/results/eqsat_drivers.md).
    variants = [("cuprite", flags)]
    if drivers:
        variants = [(d, [*flags, f"--rewrite-driver={d}"]) for d in ("off", "greedy", "eqsat")]
    default_out = "eqsat_drivers.md" if drivers else "exec_count.md"
    output = output or os.path.join(BENCH, "results", default_out)
    rows, problems = [], []
    ratios = {name: [] for name, _ in variants}
    tmp = tempfile.mkdtemp(prefix="exec-count-")
    for f in corpus(files):
        path = os.path.join(REPO, f)
        spec = path[:-3] + ".toml"
        nv_ptx = os.path.join(tmp, os.path.basename(f)[:-3] + ".ptx")
        nv = subprocess.run(
            [sys.executable, os.path.join(BENCH, "nvrtc_compile.py"), path, "--cuda-root", cuda_root, "--arch", arch, "-o", nv_ptx],
            capture_output=True,
            text=True,
        )
        ours = {}
        try:
            for name, fl in variants:
                ours[name] = launches(cuprite, ["--spec", spec, f"--arch={arch}", *fl, path])
        except Exception as e:  # noqa: BLE001 (a report, not a crash)
            problems.append(f"{f}: cuprite: {e}")
            continue
        theirs = None
        if nv.returncode == 0:
            try:
                theirs = launches(cuprite, ["--spec", spec, "--ptx", nv_ptx])
            except Exception as e:  # noqa: BLE001
                problems.append(f"{f}: NVRTC's PTX: {e}")
        else:
            problems.append(f"{f}: NVRTC: {nv.stderr.strip().splitlines()[-1:] if nv.stderr else 'failed'}")
        first = ours[variants[0][0]]
        for k, (kernel, _) in enumerate(first):
            t = theirs[k][1] if theirs and k < len(theirs) and theirs[k][0] == kernel else None
            counts = [ours[name][k][1] if k < len(ours[name]) else None for name, _ in variants]
            rs = [n / t if t and n else None for n in counts]
            for (name, _), r in zip(variants, rs):
                if r:
                    ratios[name].append(r)
            rows.append((f, kernel, counts, t, rs))

    def geomean(xs):
        return math.exp(sum(math.log(r) for r in xs) / len(xs)) if xs else float("nan")

    names = [name for name, _ in variants]
    title = "cuprite (eqsat off, greedy, eqsat) vs NVRTC" if drivers else "cuprite vs NVRTC"
    lines = [
        f"# Executed warp instructions: {title} (simulator, same launches)",
        "",
        f"`python3 bench/exec_count.py --cuda-root ... {'--rewrite-drivers ' if drivers else ''}{' '.join(['--', *flags]) if flags else ''}`, {arch}.",
        "",
        "| file | kernel | " + " | ".join(names) + " | NVRTC | " + " | ".join(f"ratio {n}" if drivers else "ratio" for n in names) + " |",
        "|---|---|" + "---:|" * (2 * len(names) + 1),
    ]
    for f, kernel, counts, t, rs in rows:
        cells = [str(n) if n else "-" for n in counts] + [str(t) if t else "-"] + [f"{r:.2f}" if r else "-" for r in rs]
        lines.append(f"| {f} | {kernel} | " + " | ".join(cells) + " |")
    lines.append("")
    for i, name in enumerate(names):
        label = f" ({name})" if drivers else ""
        lines.append(f"Geometric mean of the ratios{label} over {len(ratios[name])} launches: **{geomean(ratios[name]):.3f}**")
        worst = max(rows, key=lambda x: x[4][i] or 0) if rows else None
        if worst and worst[4][i]:
            lines.append(f"Largest ratio{label}: {worst[4][i]:.2f} ({worst[0]}, {worst[1]})")
    return write_table(lines, problems, output)


def write_table(lines, problems, output):
    """Prints the table `lines` (and what was left out) and writes it to `output` ('-': not)."""
    if problems:
        lines += ["", "Left out:", *[f"- {p}" for p in problems]]
    text = "\n".join(lines) + "\n"
    print(text)
    if output != "-":
        with open(output, "w") as fh:
            fh.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
