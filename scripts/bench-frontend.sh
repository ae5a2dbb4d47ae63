#!/usr/bin/env bash
# Frontend throughput: generates a CUDA file of N lines of device code (default 100,000)
# and times `cuprite compile` through preprocessing (-E, output printed), through parsing
# (-fparse-only), through semantic analysis and cuda dialect emission (-fsyntax-only) and
# with the cuda dialect printed (--emit=cuda), printing a table of median wall time, lines
# per second and peak memory (each phase in its own processes). Usage: scripts/bench-frontend.sh [LINES] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
LINES="${1:-100000}"
RUNS="${2:-5}"
cargo build -q --release -p cuprite -p cuprite-bench
TARGET_DIR="${CARGO_TARGET_DIR:-target}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
"$TARGET_DIR/release/gen-cu" --lines "$LINES" > "$WORK/bench.cu"
N=$(wc -l < "$WORK/bench.cu")
python3 - "$TARGET_DIR/release/cuprite" "$WORK/bench.cu" "$N" "$RUNS" <<'PY'
import subprocess, sys, time, resource, statistics
cuprite, src, n, runs = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
def run(args):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        p = subprocess.run([cuprite, "compile", *args, src, "-o", "/dev/null"], capture_output=True)
        times.append(time.perf_counter() - t)
        if p.returncode != 0:
            sys.exit(f"cuprite compile {' '.join(args)} failed:\n{p.stderr.decode()[:2000]}")
    # Peak memory of one run, measured alone (getrusage's children maximum is cumulative).
    peak = subprocess.run(["python3", "-c", "import resource,subprocess,sys; subprocess.run(sys.argv[1:], capture_output=True); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)",
                           cuprite, "compile", *args, src, "-o", "/dev/null"], capture_output=True, text=True).stdout
    return statistics.median(times), int(peak) / 1024
print(f"frontend throughput on a generated file of {n} lines ({runs} runs, median)\n")
print("| phase | time | lines/s | peak MiB |")
print("|---|---:|---:|---:|")
for name, args in [("preprocess (-E)", ["-E"]), ("preprocess + parse (-fparse-only)", ["-fparse-only"]),
                   ("+ sema and cuda emission (-fsyntax-only)", ["-fsyntax-only"]), ("+ printing the cuda dialect (--emit=cuda)", ["--emit=cuda"])]:
    t, m = run(args)
    print(f"| {name} | {t*1000:.0f} ms | {n/t:,.0f} | {m:.1f} |")
PY
