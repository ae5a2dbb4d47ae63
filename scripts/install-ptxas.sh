#!/usr/bin/env bash
# Installs NVIDIA's ptxas 13.0 from PyPI (the wheel nvidia-cuda-nvcc==13.0.88; no GPU and
# no CUDA install needed) into $CUPRITE_PTXAS_DIR (default ~/.cache/cuprite-ptxas) and
# prints the path of the ptxas binary. Idempotent. The PTX tests (tests/tests/ptx.rs)
# assemble every PTX they produce with it.
set -euo pipefail
DIR="${CUPRITE_PTXAS_DIR:-$HOME/.cache/cuprite-ptxas}"
PTXAS="$DIR/site/nvidia/cu13/bin/ptxas"
if [ -x "$PTXAS" ] && "$PTXAS" --version >/dev/null 2>&1; then
  echo "$PTXAS"; exit 0
fi
mkdir -p "$DIR/dl"
python3 -m pip download -q --no-deps -d "$DIR/dl" nvidia-cuda-nvcc==13.0.88 >&2
rm -rf "$DIR/site"
python3 -m pip install -q --no-deps --target "$DIR/site" "$DIR"/dl/nvidia_cuda_nvcc-13.0.88-*.whl >&2
chmod +x "$DIR"/site/nvidia/cu13/bin/* 2>/dev/null || true
"$PTXAS" --version >&2
echo "$PTXAS"
