#!/usr/bin/env python3
"""Compare cuprite's PTX with NVIDIA's NVRTC 13.0 and clang 22 (LLVM's NVPTX backend) on
the project's kernel corpus: code quality per kernel and compile time per file.

    python3 bench/compare.py            # regenerates bench/results/compare.md

For every file in tests/ptx/*.cu and examples/cuda/*.cu, each compiler produces PTX for
sm_90 at -O3:

    cuprite  target/release/cuprite compile FILE --arch=sm_90 -O3 -o OUT.ptx
    NVRTC    bench/nvrtc_compile.py (ctypes on libnvrtc.so.13; NVRTC's default is -O3)
    clang    clang-22 -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 -nocudainc -nocudalib
               --cuda-feature=+ptx90 -include bench/clang_cuda_prelude.h -O3 -S FILE -o OUT.ptx

Every PTX file is assembled by ptxas 13.0 (-v -arch=sm_90) and the cubin disassembled by
nvdisasm (see bench/ptx_stats.py for what is counted). Kernels are matched across compilers
by their mangled .entry names. Then each compiler compiles each file --runs times (default 5)
more, interleaved, for the compile-time table.

Prints one Markdown report (per-kernel table, compile times, geometric-mean ratios, what
could not be compared and why, how it was measured) and writes it to --output.

It installs what it needs itself (idempotent, into ~/.cache): scripts/install-cuda-ref.sh
(NVRTC, CUDA headers, ptxas, nvdisasm from NVIDIA's PyPI wheels) and
scripts/install-clang22.sh (Debian's clang-22, unpacked privately), and it builds cuprite
with `cargo build --release -q -p cuprite` unless given --no-build.

Options:
  --runs N        timed runs per compiler and file (default 5; median reported)
  --no-build      use the existing cuprite binary instead of running cargo build
  --cuprite PATH  the cuprite binary (default $CARGO_TARGET_DIR or target, /release/cuprite;
                  implies --no-build)
  --output PATH   where the report goes (default bench/results/compare.md; '-' for none)
  --keep DIR      keep every compiler's PTX in DIR (DIR/<compiler>/<file>.ptx)
  --no-time       skip the compile-time measurements
  FILE.cu ...     compare only these files

A compiler that fails to install, or to compile a file, shows '-' in its cells; the
report says why. The exit status is 0 whenever a report was written.
"""

import math
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # keep bench/ free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ptx_stats  # noqa: E402  (bench/ptx_stats.py)

BENCH = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(BENCH)
ARCH = "sm_90"
PRELUDE = os.path.join(BENCH, "clang_cuda_prelude.h")
NVRTC_DRIVER = os.path.join(BENCH, "nvrtc_compile.py")
COMPILERS = ("cuprite", "nvrtc", "clang")
LABEL = {"cuprite": "cuprite", "nvrtc": "NVRTC", "clang": "clang"}


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def first_lines(text, n=3):
    """A compiler's error output shortened for the report: its first n lines that mention
    an error (all three compilers say "error"), else its first n non-empty lines."""
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    errors = [l for l in lines if "error" in l.lower()]
    pick = errors or lines
    return " / ".join(pick[:n]) + (" / ..." if len(pick) > n else "")


def corpus(files):
    if files:
        return [os.path.relpath(os.path.abspath(f), REPO) for f in files]
    found = []
    for d in ("tests/ptx", "examples/cuda"):
        found += sorted(os.path.join(d, f) for f in os.listdir(os.path.join(REPO, d)) if f.endswith(".cu"))
    return found


# ------------------------------------------------------------------------------ set-up

def run_script(name):
    """Runs scripts/NAME (an installer printing a path as its last line); returns
    (path, None) or (None, why it failed)."""
    r = subprocess.run(["bash", os.path.join(REPO, "scripts", name)], capture_output=True, text=True)
    if r.returncode != 0 or not r.stdout.strip():
        return None, "scripts/%s failed: %s" % (name, first_lines(r.stderr, 4))
    return r.stdout.strip().splitlines()[-1], None


def setup(opts):
    """Finds or installs each tool. Returns (tools, problems): tools maps cuprite/clang to
    a binary and "cuda" to the CUDA root (None where unavailable); problems maps a
    compiler to why it cannot run at all."""
    tools, problems = {}, {}
    target = os.path.join(REPO, os.environ.get("CARGO_TARGET_DIR", "target"))
    cuprite = opts["cuprite"] or os.path.join(target, "release", "cuprite")
    if not opts["no_build"]:
        log("building cuprite (cargo build --release -q -p cuprite)...")
        r = subprocess.run(["cargo", "build", "--release", "-q", "-p", "cuprite"], cwd=REPO,
                           capture_output=True, text=True)
        if r.returncode != 0:
            problems["cuprite"] = "cargo build failed: " + first_lines(r.stderr, 4)
    if "cuprite" not in problems and not os.access(cuprite, os.X_OK):
        problems["cuprite"] = "no cuprite binary at " + cuprite
    tools["cuprite"] = None if "cuprite" in problems else cuprite

    log("checking/installing the CUDA 13.0 tools (scripts/install-cuda-ref.sh)...")
    tools["cuda"], why = run_script("install-cuda-ref.sh")
    if why:
        # Without ptxas nothing can be measured, and NVRTC is among these tools.
        log("error: " + why)
        problems["nvrtc"] = why
    log("checking/installing clang-22 (scripts/install-clang22.sh)...")
    tools["clang"], why = run_script("install-clang22.sh")
    if why:
        problems["clang"] = why
    return tools, problems


def compile_command(compiler, tools, src, out):
    if compiler == "cuprite":
        return [tools["cuprite"], "compile", src, "--arch=" + ARCH, "-O3", "-o", out]
    if compiler == "nvrtc":
        # -I -S: isolated mode without the site module, so Python's own start-up (a few ms)
        # is as small as it gets; the driver needs nothing but the standard library.
        return [sys.executable, "-I", "-S", NVRTC_DRIVER, src, "--cuda-root", tools["cuda"],
                "--arch", ARCH, "-o", out]
    return [tools["clang"], "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=" + ARCH,
            "-nocudainc", "-nocudalib", "--cuda-feature=+ptx90", "-include", PRELUDE,
            "-O3", "-S", src, "-o", out]


def versions(tools):
    """One line per tool, for the report's method section."""
    def cmd_line(argv, pick):
        try:
            r = subprocess.run(argv, capture_output=True, text=True, timeout=60)
            lines = [l for l in r.stdout.splitlines() if l.strip()]
            return lines[pick] if lines else "?"
        except (OSError, subprocess.TimeoutExpired):
            return "?"

    def nvidia_version(name):  # "Cuda compilation tools, release 13.0, V13.0.88" -> 13.0.88
        line = cmd_line([ptx_stats.tool(tools["cuda"], name), "--version"], -2)
        m = re.search(r"V(\d+(?:\.\d+)*)", line)
        return "%s %s" % (name, m.group(1) if m else "?")

    out = {}
    if tools.get("cuprite"):
        git = subprocess.run(["git", "-C", REPO, "describe", "--always", "--dirty"],
                             capture_output=True, text=True).stdout.strip() or "?"
        built = time.strftime("%Y-%m-%d %H:%M", time.localtime(os.path.getmtime(tools["cuprite"])))
        out["cuprite"] = "%s (tree %s; binary built %s)" % (cmd_line([tools["cuprite"], "--version"], 0), git, built)
    if tools.get("cuda"):
        try:
            import nvrtc_compile  # bench/nvrtc_compile.py; loads libnvrtc into this process
            out["nvrtc"] = "NVRTC %s (libnvrtc.so.13 from nvidia-cuda-nvrtc 13.0.88)" % \
                nvrtc_compile.Nvrtc(tools["cuda"]).version()
        except Exception as e:  # noqa: BLE001 - reported, not fatal
            out["nvrtc"] = "NVRTC (version query failed: %s)" % e
        out["ptxas"] = nvidia_version("ptxas")
        out["nvdisasm"] = nvidia_version("nvdisasm")
    if tools.get("clang"):
        out["clang"] = cmd_line([tools["clang"], "--version"], 0)
    return out


# ------------------------------------------------------------------------------ measuring

def compile_all(files, tools, problems, outdir):
    """Compiles every file once with every available compiler. Returns
    results[file][compiler] = {"ptx": path} or {"error": text}."""
    results = {}
    for src in files:
        results[src] = {}
        for c in COMPILERS:
            if c in problems or (c == "nvrtc" and not tools.get("cuda")):
                results[src][c] = {"error": "not available (%s)" % problems.get(c, "no CUDA tools")}
                continue
            out = os.path.join(outdir, c, os.path.splitext(src.replace("/", "__"))[0] + ".ptx")
            os.makedirs(os.path.dirname(out), exist_ok=True)
            try:
                r = subprocess.run(compile_command(c, tools, src, out), cwd=REPO,
                                   capture_output=True, text=True, timeout=300)
                ok = r.returncode == 0 and os.path.exists(out)
                err = first_lines(r.stderr or r.stdout) or "exit status %d" % r.returncode
            except (OSError, subprocess.TimeoutExpired) as e:
                ok, err = False, str(e) or type(e).__name__
            results[src][c] = {"ptx": out} if ok else {"error": err}
            log("  %-8s %-26s %s" % (c, src, "ok" if ok else "FAILED"))
    return results


def measure_code(results, tools):
    """Adds "stats" ({entry: {...}}) and maybe "stats_error" to each successful result."""
    for src, per in results.items():
        for c, res in per.items():
            if "ptx" not in res:
                continue
            if not tools.get("cuda"):
                res["stats"], res["stats_error"] = {}, "no ptxas/nvdisasm"
                continue
            res["stats"], res["stats_error"] = ptx_stats.kernel_stats(res["ptx"], tools["cuda"], ARCH)


def measure_time(results, tools, runs, outdir):
    """Median wall time of `runs` fresh compiler processes per file and compiler, after one
    untimed warm-up run each. Runs are interleaved (round-robin over the compilers) so
    that drifting machine load affects all compilers alike. For NVRTC also the time inside
    the driver process, from loading libnvrtc to having written the PTX."""
    for src, per in results.items():
        ok = [c for c in COMPILERS if "ptx" in per[c]]
        walls = {c: [] for c in ok}
        inproc = []
        tfile = os.path.join(outdir, "nvrtc-time.txt")
        for rep in range(runs + 1):
            for c in ok:
                out = os.path.join(outdir, "timing-%s.ptx" % c)
                argv = compile_command(c, tools, src, out)
                if c == "nvrtc":
                    argv += ["--time-file", tfile]
                t0 = time.perf_counter()
                try:
                    status = subprocess.run(argv, cwd=REPO, stdout=subprocess.DEVNULL,
                                            stderr=subprocess.DEVNULL).returncode
                except OSError as e:
                    status = str(e)
                wall = time.perf_counter() - t0
                if status != 0:
                    per[c]["time_error"] = "a timed run failed (%s)" % (
                        "exit status %d" % status if isinstance(status, int) else status)
                    continue
                if rep == 0:
                    continue  # warm-up: page cache, dynamic loader caches
                walls[c].append(wall)
                if c == "nvrtc":
                    with open(tfile) as f:
                        inproc.append(float(f.read()))
        for c in ok:
            if walls[c]:
                per[c]["time"] = statistics.median(walls[c])
        if inproc:
            per["nvrtc"]["time_inproc"] = statistics.median(inproc)
        log("  timed %s" % src)


# ------------------------------------------------------------------------------ report

def demangle(names):
    """{mangled: readable} using c++filt -p (function name without parameters) when
    binutils is installed; the mangled name otherwise."""
    names = list(names)
    if shutil.which("c++filt") and names:
        r = subprocess.run(["c++filt", "-p"], input="\n".join(names), capture_output=True, text=True)
        out = r.stdout.splitlines()
        if r.returncode == 0 and len(out) == len(names):
            return dict(zip(names, out))
    return {n: n for n in names}


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.machine()


def geomean(ratios):
    return math.exp(sum(math.log(r) for r in ratios) / len(ratios)) if ratios else None


def fmt_ratio(g, n):
    return "–" if g is None else "%.3f (n=%d)" % (g, n)


def render(files, results, tools, problems, vers, runs, timed):
    lines = []
    w = lines.append
    # Kernels in source order: cuprite's PTX first, then any only another compiler has.
    kernels = []  # (file, mangled)
    for src in files:
        seen = []
        for c in COMPILERS:
            for k in results[src][c].get("stats", {}):
                if k not in seen:
                    seen.append(k)
        kernels += [(src, k) for k in seen]
    readable = demangle(k for _, k in kernels)

    def stat(src, c, k, key):
        d = results[src][c].get("stats", {}).get(k)
        return None if d is None else d.get(key)

    w("# cuprite vs NVRTC 13.0 vs clang 22: PTX for %s at -O3" % ARCH)
    w("")
    w("Generated by `python3 bench/compare.py` on %s (%s, %d CPUs)."
      % (time.strftime("%Y-%m-%d %H:%M %Z"), cpu_model(), os.cpu_count() or 0))
    w("Cells are **cuprite / NVRTC / clang**; `-` where that compiler produced no number "
      "(see *Not compared*).")
    w("")
    w("## Code per kernel")
    w("")
    w("| file | kernel | registers | spill bytes | PTX instrs | SASS instrs |")
    w("|---|---|---:|---:|---:|---:|")
    for src, k in kernels:
        cells = []
        for key in ("regs", "spill", "ptx", "sass"):
            vals = [stat(src, c, k, key) for c in COMPILERS]
            cells.append(" / ".join("-" if v is None else str(v) for v in vals))
        w("| %s | `%s` | %s |" % (src, readable[k], " | ".join(cells)))
    w("")

    # ---- notes on calls (PTX counts exclude callee bodies; SASS includes them)
    calls = []
    for src, k in kernels:
        who = ["%s → %s" % (LABEL[c], ", ".join(sorted(set(stat(src, c, k, "calls")))))
               for c in COMPILERS if stat(src, c, k, "calls")]
        if who:
            calls.append("`%s` (%s)" % (readable[k], "; ".join(who)))
    if calls:
        w("Kernels that call a non-inlined function: %s. Their PTX count covers the kernel's "
          "own body only; their SASS count includes the callee, which ptxas places in the "
          "kernel's section." % "; ".join(calls))
        w("")

    # ---- what is missing and why
    w("## Not compared")
    w("")
    gaps = []
    for c, why in problems.items():
        gaps.append("- **%s** unavailable: %s" % (LABEL[c], why))
    for src in files:
        for c in COMPILERS:
            res = results[src][c]
            if c in problems:
                continue
            if "error" in res:
                gaps.append("- **%s** failed on `%s`: %s. Its kernels show `-` for %s and are left "
                            "out of the geometric means with %s."
                            % (LABEL[c], src, res["error"].rstrip("."), LABEL[c], LABEL[c]))
            elif res.get("stats_error"):
                gaps.append("- %s's PTX for `%s` could not be measured: %s" % (LABEL[c], src, res["stats_error"]))
            if res.get("time_error"):
                gaps.append("- %s on `%s`: %s; its time is `-`." % (LABEL[c], src, res["time_error"]))
    for src, k in kernels:
        missing = [LABEL[c] for c in COMPILERS
                   if "stats" in results[src][c] and k not in results[src][c]["stats"]]
        if missing:
            gaps.append("- `%s` (%s) is missing from the PTX of %s." % (k, src, ", ".join(missing)))
    w("\n".join(gaps) if gaps else "Nothing: every compiler compiled every file, and every kernel is in all three.")
    w("")

    # ---- compile times
    if timed:
        w("## Compile time per file (median of %d, ms)" % runs)
        w("")
        w("| file | cuprite | NVRTC process | NVRTC in-process | clang |")
        w("|---|---:|---:|---:|---:|")

        def ms(seconds):
            return "-" if seconds is None else "%.1f" % (seconds * 1e3)
        for src in files:
            per = results[src]
            w("| %s | %s | %s | %s | %s |" % (src, ms(per["cuprite"].get("time")), ms(per["nvrtc"].get("time")),
                                             ms(per["nvrtc"].get("time_inproc")), ms(per["clang"].get("time"))))
        w("")

    # ---- geometric means
    w("## Geometric-mean ratios")
    w("")
    w("Over the kernels (files, for compile time) both compilers have a number for; "
      "below 1 means cuprite is smaller/faster.")
    w("")
    w("| metric | cuprite / NVRTC | cuprite / clang |")
    w("|---|---:|---:|")
    for key, name in (("regs", "registers"), ("ptx", "PTX instructions"), ("sass", "SASS instructions")):
        cells = []
        for other in ("nvrtc", "clang"):
            rs = [stat(s, "cuprite", k, key) / stat(s, other, k, key) for s, k in kernels
                  if stat(s, "cuprite", k, key) and stat(s, other, k, key)]
            cells.append(fmt_ratio(geomean(rs), len(rs)))
        w("| %s | %s | %s |" % (name, cells[0], cells[1]))
    # Spills are mostly zero, where a ratio means nothing: compare totals instead.
    cells = []
    for other in ("nvrtc", "clang"):
        pairs = [(stat(s, "cuprite", k, "spill"), stat(s, other, k, "spill")) for s, k in kernels
                 if stat(s, "cuprite", k, "spill") is not None and stat(s, other, k, "spill") is not None]
        cells.append("%d vs %d bytes (total, n=%d)" % (sum(a for a, _ in pairs), sum(b for _, b in pairs), len(pairs))
                     if pairs else "–")
    w("| spill bytes | %s | %s |" % (cells[0], cells[1]))
    if timed:
        def time_ratio(num, key="time"):
            rs = [results[s][num][key] / results[s]["cuprite"]["time"] for s in files
                  if results[s][num].get(key) and results[s]["cuprite"].get("time")]
            return fmt_ratio(geomean(rs), len(rs))
        w("")
        w("| compile time (per file) | NVRTC / cuprite | clang / cuprite |")
        w("|---|---:|---:|")
        w("| whole process | %s | %s |" % (time_ratio("nvrtc"), time_ratio("clang")))
        w("| NVRTC in-process vs cuprite process | %s | |" % time_ratio("nvrtc", "time_inproc"))
    w("")

    # ---- method
    w("## How it was measured")
    w("")
    w("- Compilers: " + "; ".join(vers.get(c, LABEL[c] + " (unavailable)") for c in COMPILERS) + ".")
    w("- cuprite: `cuprite compile FILE --arch=%s -O3 -o OUT.ptx`." % ARCH)
    w("- NVRTC: `bench/nvrtc_compile.py` (ctypes on libnvrtc.so.13) with "
      "`--gpu-architecture=compute_90 -I<CUDA 13.0 include>`; NVRTC's default optimization is "
      "the full -O3 NVVM pipeline. It compiles device code only and has no C++ standard "
      "library headers.")
    w("- clang: `clang-22 -x cuda --cuda-device-only --cuda-gpu-arch=%s -nocudainc -nocudalib "
      "--cuda-feature=+ptx90 -include bench/clang_cuda_prelude.h -O3 -S`; the prelude defines "
      "the CUDA built-ins the corpus uses, with CUDA's semantics (relaxed atomics, CUDA's "
      "shuffle operands, warpSize = 32; clang 22 drops the device scope of an atomic on "
      "NVPTX, so its atomicCAS is `atom.relaxed.sys.cas`)." % ARCH)
    w("- Registers and spill bytes (stores + loads): `ptxas -v -arch=%s` (%s) on each PTX "
      "file. SASS instructions: `nvdisasm -c` (%s) on the cubin, per kernel section, without "
      "the trailing self-branch and NOP padding. PTX instructions: the `;`-terminated "
      "statements of the .entry body that are not directives (`.reg`, `.param`, `.loc`, ...), "
      "labels or braces." % (ARCH, vers.get("ptxas", "ptxas ?"), vers.get("nvdisasm", "nvdisasm ?")))
    if timed:
        w("- Compile time: wall time of a fresh process per compile (fork/exec to exit, "
          "writing the PTX to a file), median of %d runs after one untimed warm-up run; the "
          "compilers' runs are interleaved. cuprite: the binary. clang: the clang driver "
          "(through a one-line `sh` wrapper that sets the library path), including its cc1 "
          "subprocess. **NVRTC process**: `python3 -I -S bench/nvrtc_compile.py`, i.e. "
          "Python's start-up plus loading libnvrtc plus the compile. **NVRTC in-process**: "
          "measured inside that process, from loading libnvrtc (and its builtins library) to "
          "having written the PTX, i.e. without Python's start-up. The compile-time ratio "
          "NVRTC/cuprite in the first row uses the process time; the second row the "
          "in-process time, which flatters NVRTC as it leaves out the process start-up "
          "cuprite's number includes." % runs)
        try:
            load = open("/proc/loadavg").read().split()[:3]
            w("- Load average when the report was written: %s." % " ".join(load))
        except OSError:
            pass
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------ main

def parse_args(argv):
    opts = {"runs": 5, "no_build": False, "cuprite": None, "keep": None, "no_time": False,
            "output": os.path.join(BENCH, "results", "compare.md"), "files": []}
    args = iter(argv)
    for a in args:
        if a in ("-h", "--help"):
            print(__doc__)
            sys.exit(0)
        elif a in ("--runs", "--cuprite", "--output", "--keep"):
            v = next(args, None)
            if v is None:
                sys.exit("error: %s needs a value" % a)
            if a == "--runs":
                opts["runs"] = int(v)
                if opts["runs"] < 1:
                    sys.exit("error: --runs must be at least 1")
            elif a == "--cuprite":
                opts["cuprite"], opts["no_build"] = os.path.abspath(v), True
            else:
                opts[a[2:]] = os.path.abspath(v) if v != "-" else v
        elif a == "--no-build":
            opts["no_build"] = True
        elif a == "--no-time":
            opts["no_time"] = True
        elif a.startswith("-"):
            sys.exit("error: unknown option %s (see --help)" % a)
        else:
            opts["files"].append(a)
    return opts


def main(argv):
    opts = parse_args(argv)
    files = corpus(opts["files"])
    tools, problems = setup(opts)
    with tempfile.TemporaryDirectory(prefix="cuprite-compare-") as tmp:
        outdir = opts["keep"] or os.path.join(tmp, "ptx")
        log("compiling %d files..." % len(files))
        results = compile_all(files, tools, problems, outdir)
        log("assembling and disassembling...")
        measure_code(results, tools)
        if not opts["no_time"]:
            log("timing (%d runs each)..." % opts["runs"])
            measure_time(results, tools, opts["runs"], tmp)
        report = render(files, results, tools, problems, versions(tools), opts["runs"], not opts["no_time"])
    print(report, end="")
    if opts["output"] != "-":
        os.makedirs(os.path.dirname(opts["output"]), exist_ok=True)
        with open(opts["output"], "w") as f:
            f.write(report)
        log("wrote " + os.path.relpath(opts["output"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
