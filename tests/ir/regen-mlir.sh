#!/usr/bin/env bash
# Regenerates tests/ir/mlir-generated/ from tests/ir/mlir-src/ with upstream mlir-opt-22:
# the generic form it prints, with and without locations. Run after editing mlir-src/.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
command -v mlir-opt-22 >/dev/null || bash "$here/../../scripts/install-mlir.sh" >/dev/null
cd "$here/mlir-src"
for f in *.mlir; do
  n=${f%.mlir}
  mlir-opt-22 --mlir-print-op-generic "$f" > "../mlir-generated/$n.generic.mlir"
  mlir-opt-22 --mlir-print-op-generic --mlir-print-debuginfo "$f" > "../mlir-generated/$n.debuginfo.mlir"
done
