#!/usr/bin/env python3
"""GPU cross-check: runs cuprite's PTX and NVRTC's PTX for the same kernel on a real NVIDIA
GPU with the launch spec next to the kernel, compares both with cuprite's simulator, and
times both kernels (median of many runs, CUDA events).

    python3 bench/gpu_check.py                      # the whole corpus (tests/ptx, examples/cuda)
    python3 bench/gpu_check.py tests/ptx/vector.cu  # some files
    options: --runs N (timed launches per kernel, default 50), --arch sm_90,
             --cuprite PATH (default target/release/cuprite, built if missing)

Needs: an NVIDIA GPU and driver, CuPy (`pip install cupy-cuda13x`), and the CUDA 13.0
wheels for NVRTC (scripts/install-cuda-ref.sh installs them). Without a GPU it says so and
exits 2.

For each [[launch]] of FILE.toml:
  1. `cuprite run FILE --spec ... --save-inputs IN --out SIM` gives the initial buffers and
     the simulator's outputs (ptx level, in-order schedule);
  2. cuprite's PTX (`cuprite compile -O3`) and NVRTC's PTX (bench/nvrtc_compile.py) are
     loaded with cuModuleLoadData (CuPy RawModule), the inputs uploaded, the kernel
     launched once and its buffers compared with the simulator's: integers bit for bit,
     floats within the spec's tolerance_ulp (0 unless stated). Kernels whose float atomics
     make the result order-dependent (atomicAdd on floats) are compared with a relative
     tolerance of 1e-5 and marked "order".
  3. The kernel is launched --runs more times between CUDA events; the median is reported.

Prints a Markdown table: kernel, cuprite vs simulator, NVRTC vs simulator, cuprite time,
NVRTC time, ratio.
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import tomllib

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DTYPES = {"i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64", "u8": "uint8",
          "u16": "uint16", "u32": "uint32", "u64": "uint64", "f32": "float32", "f64": "float64",
          "bool": "uint8"}
ARG = re.compile(r"^\s*(\w+)\s*:\s*(\w+)(?:\[(\d+)\])?\s*=\s*(.*)$")


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def entries(ptx):
    return re.findall(r"\.entry\s+([\w$]+)\s*\(", ptx)


def base_name(mangled):
    m = re.match(r"_Z(\d+)", mangled)
    if not m:
        return mangled
    n = int(m.group(1))
    start = m.end()
    return mangled[start:start + n]


def find_entry(ptx, kernel):
    for e in entries(ptx):
        if e == kernel or base_name(e) == kernel:
            return e
    return None


def ulp_diff(np, a, b):
    """Elementwise ulp distance of two float arrays of the same dtype (NaN == NaN)."""
    bits = {4: np.int32, 8: np.int64}[a.dtype.itemsize]
    ia, ib = a.view(bits).astype(np.int64), b.view(bits).astype(np.int64)
    top = np.int64(1) << (8 * a.dtype.itemsize - 1)
    ka = np.where(ia < 0, -(ia & (top - 1)), ia)
    kb = np.where(ib < 0, -(ib & (top - 1)), ib)
    d = np.abs(ka - kb)
    both_nan = np.isnan(a) & np.isnan(b)
    return np.where(both_nan, 0, d)


def compare(np, got, want, tol_ulp, order_dependent):
    if got.dtype.kind == "f":
        if order_dependent:
            ok = np.allclose(got, want, rtol=1e-5, atol=1e-6, equal_nan=True)
            return ok, "order" if ok else "DIFF"
        d = ulp_diff(np, got, want)
        worst = int(d.max()) if d.size else 0
        return worst <= tol_ulp, ("exact" if worst == 0 else f"{worst} ulp") if worst <= tol_ulp else f"DIFF ({worst} ulp)"
    same = np.array_equal(got, want)
    return same, "exact" if same else "DIFF"


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*")
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--cuprite", default=os.path.join(REPO, "target", "release", "cuprite"))
    opts = ap.parse_args(argv)
    try:
        import cupy as cp
        import numpy as np
        if cp.cuda.runtime.getDeviceCount() < 1:
            raise RuntimeError("no device")
    except Exception as e:  # no CuPy, no driver or no GPU
        log(f"no CUDA GPU available ({e}): nothing to check")
        return 2
    if not os.access(opts.cuprite, os.X_OK):
        subprocess.run(["cargo", "build", "--release", "-q", "-p", "cuprite"], cwd=REPO, check=True)
    cuda_root = subprocess.run(["bash", os.path.join(REPO, "scripts", "install-cuda-ref.sh")],
                               capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1]
    files = opts.files or sorted(
        os.path.join(d, f) for d in (os.path.join(REPO, "tests", "ptx"), os.path.join(REPO, "examples", "cuda"))
        for f in os.listdir(d) if f.endswith(".cu"))
    rows = []
    failures = 0
    with tempfile.TemporaryDirectory(prefix="cuprite-gpu-") as tmp:
        for cu in files:
            spec_path = cu[:-3] + ".toml"
            if not os.path.exists(spec_path):
                continue
            stem = os.path.basename(cu)[:-3]
            ours = os.path.join(tmp, stem + ".cuprite.ptx")
            theirs = os.path.join(tmp, stem + ".nvrtc.ptx")
            subprocess.run([opts.cuprite, "compile", cu, "-O3", "--arch=" + opts.arch, "-o", ours], check=True)
            r = subprocess.run([sys.executable, os.path.join(REPO, "bench", "nvrtc_compile.py"), cu,
                                "--cuda-root", cuda_root, "--arch", opts.arch, "-o", theirs], capture_output=True, text=True)
            ptx = {"cuprite": open(ours).read(), "nvrtc": open(theirs).read() if r.returncode == 0 else None}
            mods = {"cuprite": cp.RawModule(path=ours), "nvrtc": cp.RawModule(path=theirs) if ptx["nvrtc"] else None}
            src = open(cu).read()
            with open(spec_path, "rb") as f:
                launches = tomllib.load(f)["launch"]
            for li, l in enumerate(launches):
                kernel = l["kernel"]
                ind, outd = os.path.join(tmp, f"{stem}.{li}.in"), os.path.join(tmp, f"{stem}.{li}.sim")
                subprocess.run([opts.cuprite, "run", cu, "--spec", spec_path, "--kernel", kernel, "--save-inputs", ind,
                                "--out", outd], check=True, capture_output=True)
                args = [ARG.match(a).groups() for a in l.get("args", [])]
                order_dependent = "atomicAdd" in src and any(t.startswith("f") for _, t, n, _ in args if n)
                tol = int(l.get("tolerance_ulp", 0))
                grid = l["grid"] if isinstance(l["grid"], list) else [l["grid"]]
                block = l["block"] if isinstance(l["block"], list) else [l["block"]]
                grid, block = tuple((grid + [1, 1])[:3]), tuple((block + [1, 1])[:3])
                result = {"kernel": f"{stem}.cu {kernel}"}
                for who in ("cuprite", "nvrtc"):
                    if mods[who] is None:
                        result[who] = ("n/a", None)
                        continue
                    name = find_entry(ptx[who], kernel)
                    fn = mods[who].get_function(name)
                    bufs, kargs = {}, []
                    for (n, t, length, init) in args:
                        dt = np.dtype(DTYPES[t])
                        if length:
                            host = np.fromfile(os.path.join(ind, n + ".bin"), dtype=dt)
                            bufs[n] = cp.asarray(host)
                            kargs.append(bufs[n])
                        else:
                            kargs.append(dt.type(float(init) if dt.kind == "f" else int(init, 0)))
                    for g in l.get("globals", []):
                        gn, gt, glen, ginit = ARG.match(g).groups()
                        vals = np.array([float(x) for x in ginit.strip("[]").split(",")], dtype=DTYPES[gt])
                        ptr = mods[who].get_global(gn)
                        ptr.copy_from_host(vals.ctypes.data, vals.nbytes)
                    fn(grid, block, tuple(kargs), shared_mem=int(l.get("shared", 0)))
                    cp.cuda.Device().synchronize()
                    verdicts = []
                    ok_all = True
                    for (n, t, length, _) in args:
                        if not length:
                            continue
                        want = np.fromfile(os.path.join(outd, n + ".bin"), dtype=DTYPES[t])
                        ok, v = compare(np, cp.asnumpy(bufs[n]), want, tol, order_dependent)
                        ok_all &= ok
                        if v != "exact":
                            verdicts.append(f"{n}: {v}")
                    failures += 0 if ok_all else 1
                    times = []
                    start, stop = cp.cuda.Event(), cp.cuda.Event()
                    for _ in range(opts.runs):
                        start.record()
                        fn(grid, block, tuple(kargs), shared_mem=int(l.get("shared", 0)))
                        stop.record()
                        stop.synchronize()
                        times.append(cp.cuda.get_elapsed_time(start, stop) * 1e3)
                    result[who] = ("agrees" + (f" ({', '.join(verdicts)})" if verdicts else "") if ok_all
                                   else "DIFFERS: " + ", ".join(verdicts), statistics.median(times))
                rows.append(result)
    dev = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
    print(f"GPU: {dev}; median of {opts.runs} launches (CUDA events), microseconds\n")
    print("| kernel | cuprite vs simulator | NVRTC vs simulator | cuprite µs | NVRTC µs | cuprite/NVRTC |")
    print("|---|---|---|---:|---:|---:|")
    for r in rows:
        c, n = r["cuprite"], r["nvrtc"]
        ratio = f"{c[1] / n[1]:.2f}" if c[1] and n[1] else "–"
        fmt = lambda t: f"{t:.1f}" if t else "–"
        print(f"| {r['kernel']} | {c[0]} | {n[0]} | {fmt(c[1])} | {fmt(n[1])} | {ratio} |")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
