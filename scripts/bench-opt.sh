#!/usr/bin/env bash
# Benchmark `cuprite opt` against mlir-opt-22 (parse+verify+print, canonicalize, cse) on a
# generated 200,000-op module and print a markdown table (bench/opt_vs_mlir.py).
# Installs mlir-opt-22 if needed and builds the release binaries first.
# Extra arguments go to the script, e.g. `scripts/bench-opt.sh --runs 9 --ops 500000`.
# Exit status: 0 when the targets hold, 1 when they do not, other on error.
set -euo pipefail
cd "$(dirname "$0")/.."

MLIR_OPT="$(bash scripts/install-mlir.sh | tail -n 1)"
cargo build --release -p cuprite -p cuprite-bench
TARGET_DIR="${CARGO_TARGET_DIR:-target}"
exec python3 bench/opt_vs_mlir.py \
  --cuprite "$TARGET_DIR/release/cuprite" \
  --gen "$TARGET_DIR/release/gen-module" \
  --mlir-opt "$MLIR_OPT" "$@"
