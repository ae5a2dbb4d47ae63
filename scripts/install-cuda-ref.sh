#!/usr/bin/env bash
# Install NVIDIA's CUDA 13.0 compiler tools from their PyPI wheels (no GPU and no CUDA
# installation needed) for the comparison harness bench/compare.py:
#   NVRTC 13.0 (libnvrtc.so.13 + builtins), the CUDA headers NVRTC compiles against
#   (nvidia-cuda-runtime, nvidia-cuda-crt, and nvidia-cuda-cccl for <nv/target>, which
#   cooperative_groups.h includes), ptxas 13.0 (nvidia-cuda-nvcc, with libnvvm from
#   nvidia-nvvm) and nvdisasm/cuobjdump 13.2 (there are no 13.0 wheels of those two).
# Prints the wheels' CUDA root (the directory holding bin/ptxas, bin/nvdisasm, include/,
# lib/libnvrtc.so.13). Idempotent: an existing complete install is only re-checked.
#
# Where: $CUPRITE_CUDA_REF_DIR (default ~/.cache/cuprite-cuda-ref). A complete install of
# the same wheels already made under ~/.cache/cuda-ref is reused instead of downloading
# ~600 MB again (set CUPRITE_CUDA_REF_NO_REUSE=1 to always use our own directory).
set -euo pipefail

DIR="${CUPRITE_CUDA_REF_DIR:-$HOME/.cache/cuprite-cuda-ref}"
WHEELS=(nvidia-cuda-nvcc==13.0.88 nvidia-cuda-nvrtc==13.0.88 nvidia-cuda-runtime==13.0.88
        nvidia-nvvm==13.0.88 nvidia-cuda-crt==13.0.88
        nvidia-cuda-cuobjdump==13.2.51 nvidia-cuda-nvdisasm==13.2.51)
CCCL=nvidia-cuda-cccl==13.0.85

# complete CUDA_ROOT: the tools run, NVRTC and the headers it needs are there, and ptxas
# is the 13.0 one (the version the tables are about).
complete() {
  local cu="$1"
  [[ -x "$cu/bin/ptxas" && -x "$cu/bin/nvdisasm" && -f "$cu/lib/libnvrtc.so.13" \
     && -f "$cu/include/cuda_runtime.h" && -f "$cu/include/crt/host_defines.h" ]] || return 1
  # Captured, not piped into `grep -q`: ptxas writes its version line by line, and under
  # pipefail an early-exiting grep can make it die of SIGPIPE and the check fail at random.
  local version
  version="$("$cu/bin/ptxas" --version 2>/dev/null)" || return 1
  [[ $version == *V13.0.88* ]] || return 1
  "$cu/bin/nvdisasm" --version >/dev/null 2>&1
}

# missing CUDA_ROOT: says which part of an install `complete` finds missing or broken.
missing() {
  local cu="$1" f
  for f in bin/ptxas bin/nvdisasm lib/libnvrtc.so.13 include/cuda_runtime.h \
           include/crt/host_defines.h include/nv/target; do
    [[ -e "$cu/$f" ]] || echo "  missing: $cu/$f" >&2
  done
  "$cu/bin/ptxas" --version >&2 || echo "  $cu/bin/ptxas --version failed" >&2
  "$cu/bin/nvdisasm" --version >/dev/null 2>&1 || echo "  $cu/bin/nvdisasm --version failed" >&2
}

export PIP_ROOT_USER_ACTION=ignore   # pip as root: no venv warning

# with_cccl CUDA_ROOT: CCCL's headers are there, added to an install made before they were
# part of it (a 3 MB wheel, unpacked beside and copied in: `pip install --target` would skip
# the existing nvidia/cu13/). Fails where that install cannot be written.
with_cccl() {
  local cu="$1"
  [[ -f "$cu/include/nv/target" ]] && return 0
  [[ -w "$cu/include" ]] || return 1
  local tmp; tmp="$(mktemp -d)"
  python3 -m pip download -q --no-deps --only-binary=:all: -d "$tmp/dl" "$CCCL" >&2 \
    && python3 -m pip install -q --no-deps --target "$tmp/site" "$tmp"/dl/*.whl >&2 \
    && cp -r "$tmp/site/nvidia/cu13/include/." "$cu/include/"
  local rc=$?
  rm -rf "$tmp"
  [[ $rc -eq 0 && -f "$cu/include/nv/target" ]]
}

CU="$DIR/site/nvidia/cu13"
if complete "$CU" && with_cccl "$CU"; then echo "$CU"; exit 0; fi
SHARED="$HOME/.cache/cuda-ref/site/nvidia/cu13"
if [[ -z "${CUPRITE_CUDA_REF_NO_REUSE:-}" ]] && complete "$SHARED" && [[ -f "$SHARED/include/nv/target" ]]; then
  echo "reusing the CUDA 13.0 wheels installed in $SHARED" >&2
  echo "$SHARED"; exit 0
fi

mkdir -p "$DIR/dl"
echo "Downloading ${WHEELS[*]} (~600 MB)..." >&2
WHEELS+=("$CCCL")
python3 -m pip download -q --no-deps --only-binary=:all: -d "$DIR/dl" "${WHEELS[@]}" >&2
rm -rf "$DIR/site"
# A single install call: `pip install --target` silently skips a package directory that
# already exists (all these wheels share nvidia/cu13/), so one call must unpack them all.
shopt -s nullglob
wheels=()
for w in "${WHEELS[@]}"; do
  name="${w%%==*}"; version="${w##*==}"
  f=("$DIR"/dl/"${name//-/_}"-"$version"-*.whl)
  (( ${#f[@]} > 0 )) || { echo "wheel for $w not downloaded" >&2; exit 1; }
  wheels+=("${f[0]}")
done
python3 -m pip install -q --no-deps --target "$DIR/site" "${wheels[@]}" >&2
chmod +x "$CU"/bin/* "$CU"/nvvm/bin/* 2>/dev/null || true
complete "$CU" && [[ -f "$CU/include/nv/target" ]] || {
  echo "CUDA tools installed in $CU but incomplete or not runnable:" >&2
  missing "$CU"
  rm -rf "$DIR/dl"   # a damaged download is not reused by the next run
  exit 1
}
rm -rf "$DIR/dl"   # the unpacked tree is all we need
"$CU/bin/ptxas" --version | tail -1 >&2
echo "$CU"
