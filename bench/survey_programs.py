#!/usr/bin/env python3
"""Whole-file survey: real public CUDA programs, host code and all, compiled as a user hands
them to `nvcc -ptx`, by nvcc and by cuprite.

    python3 bench/survey_programs.py --src DIR [--split dev|test|all] [--jobs N] [--out FILE]

The programs are not in this repository (they are other people's code): `SOURCES` below
names each public repository with the commit surveyed, and `--src DIR` is a directory that
holds them checked out as `DIR/<owner>+<name>/` (the script clones the ones missing with
`git`, when the machine can reach GitHub). Every `.cu` file a source's globs select is one
case (large repositories are sampled, deterministically, `SOURCES[..]["sample"]` files).

For each file:

- `nvcc -ptx -arch=sm_90 -w -I<the file's directory> -I<the source's include dirs>` (nvcc 13.0
  from `scripts/install-cuda-ref.sh`, with the host g++). Files nvcc rejects (a missing
  library header, relocatable device code, ...) are not counted: the denominator is what
  nvcc compiles. nvcc's results are cached under `~/.cache/cuprite-survey/` by the file's
  content and flags, since they never change.
- `cuprite compile --arch=sm_90` with the same `-I`, then `ptxas -arch=sm_90` on its PTX.

It prints (and writes to `--out`) a table per source: files nvcc compiles, files cuprite
compiles to PTX that ptxas accepts, files whose `.entry` set equals nvcc's, and the kernels
each emits (cuprite's counted only where they are among nvcc's); then every file cuprite
fails on or emits different kernels for, with cuprite's first error, and the errors grouped
by message.

The split: a file is in `test` when the SHA-1 of its path (within the source) ends in a
hex digit below 4 (a quarter of the files), else in `dev`. Work on failures with `--split
dev`; `--split test` is the held-out measure, reported as it is.
"""

import argparse
import collections
import concurrent.futures as cf
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Public repositories surveyed: owner/name, the commit, which .cu files, extra include
# directories (relative to the repository root), and how many files to sample (None: all).
SOURCES = [
    {"repo": "NVIDIA/cuda-samples", "commit": "c94ff366aed18c797b8a85dfaac7817b0228b420",
     "globs": ["Samples/**/*.cu"], "include": ["Common"], "sample": None},
    {"repo": "yuhc/gpu-rodinia", "commit": "9c10d3ea16ddba2ba057cc3951a9efc4c2cc18a4",
     "globs": ["cuda/**/*.cu"], "include": [], "sample": None},
    {"repo": "olcf/cuda-training-series", "commit": "9cd77d539d85ee3457e09a083ba299b787b7a16e",
     "globs": ["**/*.cu"], "include": [], "sample": None},
    {"repo": "PacktPublishing/Learn-CUDA-Programming", "commit": "10bd9b59bfcc680d608ea1417da5089f73d91b11",
     "globs": ["**/*.cu"], "include": [], "sample": None},
    {"repo": "karpathy/llm.c", "commit": "f1e2ace651495b74ae22d45d1723443fd00ecd3a",
     "globs": ["dev/cuda/*.cu", "train_gpt2_fp32.cu"], "include": ["dev/cuda", "."], "sample": None},
    {"repo": "zjin-lcf/HeCBench", "commit": "f27000a5188f8ac79bd43fc95a1b3f890c18823d",
     "globs": ["src/*-cuda/*.cu"], "include": [], "sample": 240},
]


def sha1(s):
    return hashlib.sha1(s.encode() if isinstance(s, str) else s).hexdigest()


def split_of(rel):
    return "test" if int(sha1(rel)[-1], 16) < 4 else "dev"


def cuda_root():
    env = os.environ.get("CUPRITE_CUDA_ROOT")
    if env and (Path(env) / "bin/nvcc").is_file():
        return Path(env)
    out = subprocess.run(["bash", str(ROOT / "scripts/install-cuda-ref.sh")], capture_output=True, text=True, check=True)
    return Path(out.stdout.strip().splitlines()[-1])


def checkout(src, s):
    d = src / s["repo"].replace("/", "+")
    if not d.is_dir():
        url = f"https://github.com/{s['repo']}"
        subprocess.run(["git", "clone", "-q", url, str(d)], check=True)
        subprocess.run(["git", "-C", str(d), "checkout", "-q", s["commit"]], check=True)
    return d


def cases(src, s):
    d = checkout(src, s)
    files = sorted({p for g in s["globs"] for p in d.glob(g) if p.is_file()})
    if s["sample"] is not None and len(files) > s["sample"]:
        files = sorted(files, key=lambda p: sha1(str(p.relative_to(d))))[: s["sample"]]
        files.sort()
    return d, files


ENTRY = re.compile(r"^\s*(?:\.visible\s+|\.weak\s+)?\.entry\s+([\w$.]+)", re.M)


def entries(ptx):
    return sorted(set(ENTRY.findall(ptx)))


def run(cmd, cwd, timeout=300):
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, errors="replace")
        return p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        return -1, f"timed out after {timeout} s"


def first_error(text):
    for line in text.splitlines():
        if re.match(r"\s*(error|Error)\b", line) or re.search(r"\berror:", line) or "panicked" in line:
            return line.strip()[:200]
    lines = [l for l in text.splitlines() if l.strip()]
    return (lines[0] if lines else "(no output)")[:200]


def error_class(msg):
    """The message with names and numbers taken out, to group failures."""
    m = re.sub(r"^.*?error(\[\w+\])?:\s*", "", msg)
    m = re.sub(r"'[^']*'|`[^`]*`|\"[^\"]*\"", "'_'", m)
    return re.sub(r"\d+", "N", m)[:120]


def one(job):
    cu, repo_dir, incs, nvcc, ptxas, cuprite, cache = job
    rel = str(cu.relative_to(repo_dir))
    flags = [f"-I{cu.parent}"] + [f"-I{repo_dir / i}" for i in incs]
    text = cu.read_bytes()
    key = sha1(text + b"\0" + " ".join(["-ptx", "-arch=sm_90", "-w"] + [f.replace(str(repo_dir), "") for f in flags]).encode())
    cfile = cache / f"{key}.json"
    with tempfile.TemporaryDirectory() as tmp:
        if cfile.is_file():
            nv = json.loads(cfile.read_text())
        else:
            out = Path(tmp) / "nvcc.ptx"
            rc, log = run([str(nvcc), "-ptx", "-arch=sm_90", "-w", *flags, str(cu), "-o", str(out)], cu.parent)
            nv = {"ok": rc == 0 and out.is_file(), "entries": entries(out.read_text()) if rc == 0 and out.is_file() else [],
                  "error": "" if rc == 0 else first_error(log)}
            cfile.write_text(json.dumps(nv))
        res = {"file": rel, "split": split_of(rel), "nvcc": nv}
        if not nv["ok"]:
            return res
        out = Path(tmp) / "cuprite.ptx"
        rc, log = run([str(cuprite), "compile", "--arch=sm_90", *flags, str(cu), "-o", str(out)], cu.parent, timeout=120)
        if rc != 0 or not out.is_file():
            res["cuprite"] = {"ok": False, "entries": [], "error": first_error(log)}
            return res
        prc, plog = run([str(ptxas), "-arch=sm_90", "-o", "/dev/null", str(out)], cu.parent)
        if prc != 0:
            res["cuprite"] = {"ok": False, "entries": [], "error": "ptxas: " + first_error(plog)}
            return res
        res["cuprite"] = {"ok": True, "entries": entries(out.read_text()), "error": ""}
        return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--src", required=True, type=Path, help="directory holding the sources as owner+name/")
    ap.add_argument("--split", choices=["dev", "test", "all"], default="all")
    ap.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 2)))
    ap.add_argument("--only", help="only sources whose owner/name contains this")
    ap.add_argument("--out", type=Path, help="also write the report here (markdown)")
    ap.add_argument("--json", type=Path, help="write every file's result here")
    ap.add_argument("--no-build", action="store_true", help="use target/release/cuprite as it is")
    a = ap.parse_args()

    root = cuda_root()
    nvcc, ptxas = root / "bin/nvcc", root / "bin/ptxas"
    if not a.no_build:
        subprocess.run(["cargo", "build", "--release", "-q", "-p", "cuprite"], cwd=ROOT, check=True)
    cuprite = ROOT / "target/release/cuprite"
    cache = Path.home() / ".cache/cuprite-survey"
    cache.mkdir(parents=True, exist_ok=True)
    env_path = f"{root / 'bin'}:{os.environ.get('PATH', '')}"
    os.environ["PATH"] = env_path

    jobs, by_repo = [], collections.defaultdict(list)
    for s in SOURCES:
        if a.only and a.only not in s["repo"]:
            continue
        d, files = cases(a.src, s)
        for cu in files:
            rel = str(cu.relative_to(d))
            if a.split != "all" and split_of(rel) != a.split:
                continue
            jobs.append((cu, d, s["include"], nvcc, ptxas, cuprite, cache))
    results = []
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        for job, r in zip(jobs, ex.map(one, jobs)):
            r["repo"] = job[1].name.replace("+", "/")
            results.append(r)
            by_repo[r["repo"]].append(r)

    lines = [f"# Whole-file survey ({a.split} split)", "",
             "| source | .cu files | nvcc -ptx compiles | cuprite compiles | same kernels | kernels nvcc | kernels cuprite |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    tot = collections.Counter()
    for repo, rs in by_repo.items():
        c = collections.Counter()
        for r in rs:
            c["files"] += 1
            if not r["nvcc"]["ok"]:
                continue
            c["nv"] += 1
            nk = set(r["nvcc"]["entries"])
            c["nk"] += len(nk)
            cu = r.get("cuprite", {})
            if cu.get("ok"):
                c["cu"] += 1
                ck = set(cu["entries"])
                c["ck"] += len(ck & nk)
                c["same"] += ck == nk
        tot.update(c)
        lines.append(f"| {repo} | {c['files']} | {c['nv']} | {c['cu']} | {c['same']} | {c['nk']} | {c['ck']} |")
    pct = lambda x, y: f"{100 * x / y:.0f}%" if y else "-"
    lines.append(f"| **all** | {tot['files']} | {tot['nv']} | {tot['cu']} ({pct(tot['cu'], tot['nv'])}) | "
                 f"{tot['same']} ({pct(tot['same'], tot['nv'])}) | {tot['nk']} | {tot['ck']} ({pct(tot['ck'], tot['nk'])}) |")
    lines += ["", "## Files cuprite fails on, or emits other kernels for", ""]
    classes = collections.Counter()
    for r in results:
        if not r["nvcc"]["ok"]:
            continue
        cu = r["cuprite"]
        if not cu["ok"]:
            lines.append(f"- `{r['repo']}/{r['file']}`: {cu['error']}")
            classes[error_class(cu["error"])] += 1
        elif set(cu["entries"]) != set(r["nvcc"]["entries"]):
            miss = sorted(set(r["nvcc"]["entries"]) - set(cu["entries"]))
            extra = sorted(set(cu["entries"]) - set(r["nvcc"]["entries"]))
            lines.append(f"- `{r['repo']}/{r['file']}`: kernels missing {miss[:4]}{'...' if len(miss) > 4 else ''}"
                         f", extra {extra[:4]}")
            classes["(different kernel set)"] += 1
    lines += ["", "## Failures by message", "", "| files | message |", "|---:|---|"]
    lines += [f"| {n} | {m} |" for m, n in classes.most_common()]
    report = "\n".join(lines) + "\n"
    print(report)
    if a.out:
        a.out.write_text(report)
    if a.json:
        a.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    sys.exit(main())
