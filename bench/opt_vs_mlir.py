#!/usr/bin/env python3
"""Compare `cuprite opt` with `mlir-opt` on a large generated module.

Builds nothing: it takes the binaries' paths (defaults: target/release/cuprite,
mlir-opt-22 on PATH, target/release/gen-module), generates a module of --ops ops (default
200,000) into a temporary directory and, for each job

    parse+verify+print   (no pass)
    canonicalize         (--canonicalize)
    cse                  (--cse)

runs each tool --runs times (default 5), every run in a fresh process, the tools'
runs interleaved, and takes the median wall time and the median peak RSS (the child's ru_maxrss, from /usr/bin/time -f %M
where it exists, else from os.wait4). Both
tools print the generic form (cuprite --generic, mlir-opt --mlir-print-op-generic) to
/dev/null, so the output work is the same. cuprite is also run with --no-threading.

Prints a markdown table and whether the targets hold: cuprite at least 5x faster and at
most 0.5x the peak memory of mlir-opt on every job.

Usage: python3 bench/opt_vs_mlir.py [--cuprite PATH] [--mlir-opt PATH] [--gen PATH]
                                    [--ops N] [--funcs F] [--seed S] [--runs R] [--keep]
                                    [--no-time]
Exit status: 0 when the targets hold, 1 when they do not.
Stdlib only.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

TMP = None
USE_TIME = False
SPEED_TARGET = 5.0  # cuprite at least this many times faster
MEM_TARGET = 0.5  # cuprite peak RSS at most this fraction of mlir-opt's

JOBS = [
    # (name, cuprite flags, mlir-opt flags)
    ("parse+verify+print", [], []),
    ("canonicalize", ["--canonicalize"], ["--canonicalize"]),
    ("cse", ["--cse"], ["--cse"]),
]


TIME = "/usr/bin/time"  # GNU time: reports the child's ru_maxrss with -f %M


def measure(cmd, stdout_path=os.devnull):
    """Runs cmd once in a fresh process; returns (seconds, peak RSS in bytes).

    The peak RSS comes from GNU time's `%M` where /usr/bin/time exists, else from os.wait4's
    rusage. (Linux carries a process's RSS high-water mark across execve, so a child forked
    from this Python process would start at Python's own RSS, ~10-15 MiB; time(1) is small.)
    """
    rss_file = None
    if USE_TIME:
        fd, rss_file = tempfile.mkstemp(prefix="rss-", dir=TMP)
        os.close(fd)
        cmd = [TIME, "-f", "%M", "-o", rss_file, *cmd]
    with open(stdout_path, "wb") as out:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.PIPE)
        # Drain stderr in case the tool complains a lot, then reap with wait4 for rusage.
        err = p.stderr.read()
        p.stderr.close()
        _, status, ru = os.wait4(p.pid, 0)
        dt = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit(f"error: {' '.join(cmd)} exited with {p.returncode}:\n{err.decode(errors='replace')[-2000:]}")
    if rss_file:
        with open(rss_file) as f:
            kib = int(f.read().split()[-1])
        os.unlink(rss_file)
        return dt, kib * 1024
    return dt, ru.ru_maxrss * 1024  # Linux: ru_maxrss is in KiB


def bench(cmds, runs):
    """Runs every command of `cmds` `runs` times, interleaved (so background load hits them
    alike); returns, per command, (median seconds, median peak RSS bytes)."""
    samples = [([], []) for _ in cmds]
    for _ in range(runs):
        for cmd, (times, rss) in zip(cmds, samples):
            t, m = measure(cmd)
            times.append(t)
            rss.append(m)
    return [(statistics.median(t), statistics.median(m)) for t, m in samples]


def count_ops(path):
    """Ops in a generic-form file: one per line that holds an op name in quotes."""
    n = 0
    with open(path, "rb") as f:
        for line in f:
            s = line.lstrip()
            if s.startswith(b'"') or (s.startswith(b"%") and b' = "' in s):
                n += 1
    return n


def fmt_t(s):
    return f"{s * 1000:.0f} ms" if s >= 0.1 else f"{s * 1000:.1f} ms"


def mib(b):
    return f"{b / 2**20:.1f}"


def table(hdr, rows):
    print("| " + " | ".join(hdr) + " |")
    print("|" + "|".join("---" if i == 0 else "---:" for i in range(len(hdr))) + "|")
    for r in rows:
        print("| " + " | ".join(r) + " |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cuprite", default="target/release/cuprite")
    ap.add_argument("--mlir-opt", default="mlir-opt-22")
    ap.add_argument("--gen", default="target/release/gen-module")
    ap.add_argument("--ops", type=int, default=200_000)
    ap.add_argument("--funcs", type=int, default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory")
    ap.add_argument("--no-time", action="store_true",
                    help="take peak RSS from os.wait4 even where /usr/bin/time exists")
    a = ap.parse_args()

    tools = {}
    for name, path in (("cuprite", a.cuprite), ("mlir-opt", a.mlir_opt), ("gen-module", a.gen)):
        found = shutil.which(path) if os.sep not in path else (path if os.access(path, os.X_OK) else None)
        if not found:
            sys.exit(f"error: {name} not found at '{path}' (build: cargo build --release -p cuprite -p cuprite-bench;"
                     " mlir-opt: bash scripts/install-mlir.sh)")
        tools[name] = os.path.abspath(found) if os.sep in found else found

    global TMP, USE_TIME
    USE_TIME = os.access(TIME, os.X_OK) and not a.no_time
    tmp = TMP = tempfile.mkdtemp(prefix="cuprite-bench-")
    try:
        # Benchmark copies of the binaries: a concurrent `cargo build` must not swap them
        # in the middle of the runs.
        for name in ("cuprite", "gen-module"):
            dst = os.path.join(tmp, os.path.basename(tools[name]))
            shutil.copy2(tools[name], dst)
            tools[name] = dst
        inp = os.path.join(tmp, "input.mlir")
        gen = [tools["gen-module"], "--ops", str(a.ops), "--seed", str(a.seed)]
        if a.funcs:
            gen += ["--funcs", str(a.funcs)]
        with open(inp, "wb") as f:
            subprocess.run(gen, stdout=f, stderr=subprocess.DEVNULL, check=True)
        size = os.path.getsize(inp)
        mlir_ver = subprocess.run([tools["mlir-opt"], "--version"], capture_output=True, text=True).stdout
        mlir_ver = next((l.strip() for l in mlir_ver.splitlines() if "version" in l.lower()), "?")
        print(f"input: {count_ops(inp)} ops, {size / 2**20:.1f} MiB (gen-module --ops {a.ops} --seed {a.seed}); "
              f"{a.runs} runs each, median; {os.cpu_count()} CPUs (load average {os.getloadavg()[0]:.2f}); "
              f"mlir-opt: {mlir_ver}; peak RSS from "
              f"{'/usr/bin/time %M' if USE_TIME else 'os.wait4 (includes the ~10-15 MiB of the forking Python process)'}\n")

        empty = os.path.join(tmp, "empty.mlir")
        with open(empty, "w") as f:
            f.write('"builtin.module"() ({\n^bb0:\n}) : () -> ()\n')

        def cup_cmd(flags, path=inp, threading=True):
            return [tools["cuprite"], "opt", path, "--generic", *flags] + ([] if threading else ["--no-threading"])

        def mlir_cmd(flags, path=inp):
            return [tools["mlir-opt"], "--mlir-print-op-generic", *flags, path]

        # Fixed cost: an empty module (process start, dynamic loading, registration).
        (et, em), (met, mem_) = bench([cup_cmd([], empty), mlir_cmd([], empty)], a.runs)

        rows, extra_rows, ok = [], [], True
        for name, cflags, mflags in JOBS:
            # One checked run to a file first: both must succeed; report the output sizes.
            co, mo = os.path.join(tmp, "cuprite.out"), os.path.join(tmp, "mlir.out")
            measure(cup_cmd(cflags), co)
            measure(mlir_cmd(mflags), mo)
            out_ops = (count_ops(co), count_ops(mo))
            (ct, cm), (ct1, cm1), (mt, mm) = bench(
                [cup_cmd(cflags), cup_cmd(cflags, threading=False), mlir_cmd(mflags)], a.runs)
            speed, mem = mt / ct, cm / mm
            hold = speed >= SPEED_TARGET and mem <= MEM_TARGET
            ok &= hold
            rows.append((name, fmt_t(ct), fmt_t(ct1), fmt_t(mt), f"{speed:.1f}x", mib(cm), mib(cm1), mib(mm),
                         f"{mem:.2f}x", f"{out_ops[0]} / {out_ops[1]}", "yes" if hold else "NO"))
            ce, me = max(cm - em, 1), max(mm - mem_, 1)
            extra_rows.append((name, mib(ce), mib(me), f"{ce / me:.2f}x"))

        hdr = ("job", "cuprite time", "cuprite --no-threading", "mlir-opt time", "speed ratio (mlir/cuprite)",
               "cuprite peak MiB", "cuprite --no-threading MiB", "mlir-opt peak MiB", "memory ratio (cuprite/mlir)",
               "output ops (cuprite / mlir)", "target")
        table(hdr, rows)
        print(f"\nempty module (fixed cost): cuprite {fmt_t(et)}, {mib(em)} MiB; "
              f"mlir-opt {fmt_t(met)}, {mib(mem_)} MiB\n")
        table(("job", "cuprite MiB above empty-module RSS", "mlir-opt MiB above empty-module RSS",
               "ratio (cuprite/mlir)"), extra_rows)
        verdict = "HOLD" if ok else "DO NOT HOLD"
        print(f"\ntargets (cuprite >= {SPEED_TARGET:g}x faster and <= {MEM_TARGET:g}x peak memory on every job, "
              f"threaded runs): {verdict}")
        return 0 if ok else 1
    finally:
        if a.keep:
            print(f"(kept {tmp})", file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
