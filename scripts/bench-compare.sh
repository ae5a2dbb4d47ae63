#!/usr/bin/env bash
# Code quality and compile time of cuprite vs NVRTC 13.0 vs clang-22 on the kernel corpus
# (tests/ptx/*.cu, examples/cuda/*.cu): prints a markdown report and writes it to
# bench/results/compare.md. bench/compare.py installs NVRTC/ptxas/nvdisasm and clang-22
# itself (scripts/install-cuda-ref.sh, scripts/install-clang22.sh) and builds cuprite.
# Extra arguments go to the script, e.g. `scripts/bench-compare.sh --runs 9`.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 bench/compare.py "$@"
