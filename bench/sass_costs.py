#!/usr/bin/env python3
"""SASS instructions per PTX integer operation at sm_90: the numbers behind the e-graph's
cost model (lowering/src/eqsat/cost.rs).

Each operation gets a kernel that loads its operands from global memory, does the one
operation and stores the result; ptxas 13.0 assembles it and nvdisasm counts the SASS
(`bench/ptx_stats.py`, with the tools `scripts/install-cuda-ref.sh` installs). The cost
is the count less that of the same kernel without the operation (a store of a loaded
value, with the same loads).

    python3 bench/sass_costs.py --cuda-root DIR [--arch sm_90]
"""
import argparse, os, sys, tempfile

# name: (PTX of the operation, 64-bit result, operands loaded: "r" two 32-bit, "d" two 64-bit, "rd" one of each)
OPS = {
    "add.s32": ("add.s32 %r3, %r1, %r2;", False, "r"),
    "mul.lo.s32": ("mul.lo.s32 %r3, %r1, %r2;", False, "r"),
    "shl.b32": ("shl.b32 %r3, %r1, %r2;", False, "r"),
    "mul.hi.u32": ("mul.hi.u32 %r3, %r1, %r2;", False, "r"),
    "min.s32": ("min.s32 %r3, %r1, %r2;", False, "r"),
    "div.u32": ("div.u32 %r3, %r1, %r2;", False, "r"),
    "rem.u32": ("rem.u32 %r3, %r1, %r2;", False, "r"),
    "div.s32": ("div.s32 %r3, %r1, %r2;", False, "r"),
    "rem.s32": ("rem.s32 %r3, %r1, %r2;", False, "r"),
    "add.s64": ("add.s64 %rd3, %rd1, %rd2;", True, "d"),
    "and.b64": ("and.b64 %rd3, %rd1, %rd2;", True, "d"),
    "shl.b64": ("shl.b64 %rd3, %rd1, %r2;", True, "rd"),
    "mul.lo.s64": ("mul.lo.s64 %rd3, %rd1, %rd2;", True, "d"),
    "mul.hi.u64": ("mul.hi.u64 %rd3, %rd1, %rd2;", True, "d"),
    "min.s64": ("min.s64 %rd3, %rd1, %rd2;", True, "d"),
    "div.u64": ("div.u64 %rd3, %rd1, %rd2;", True, "d"),
    "div.s64": ("div.s64 %rd3, %rd1, %rd2;", True, "d"),
    "cvt.s64.s32": ("cvt.s64.s32 %rd3, %r1;", True, "r1"),
    "cvt.u64.u32": ("cvt.u64.u32 %rd3, %r1;", True, "r1"),
    "mul.wide.s32": ("mul.wide.s32 %rd3, %r1, %r2;", True, "r"),
}
BASE = {
    "r": ("mov.b32 %r3, %r1; add.s32 %r3, %r3, %r2;", False),
    "d": ("mov.b64 %rd3, %rd1; st.global.u64 [%rd9+8], %rd2;", True),
    "rd": ("mov.b64 %rd3, %rd1; st.global.u32 [%rd9+8], %r2;", True),
    "r1": ("cvt.u64.u32 %rd3, %r1;", True),
}


def kernel(name, body, wide):
    store = "st.global.u64 [%rd9], %rd3;" if wide else "st.global.u32 [%rd9], %r3;"
    return f""".visible .entry {name}(.param .u64 p, .param .u64 q) {{
 .reg .b32 %r<5>; .reg .b64 %rd<10>;
 ld.param.u64 %rd9, [p]; ld.param.u64 %rd8, [q]; cvta.to.global.u64 %rd9, %rd9; cvta.to.global.u64 %rd8, %rd8;
 ld.global.u32 %r1, [%rd8]; ld.global.u32 %r2, [%rd8+4]; ld.global.u64 %rd1, [%rd8+8]; ld.global.u64 %rd2, [%rd8+16];
 {body}
 {store}
 ret; }}"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--cuda-root", required=True, help="the CUDA root scripts/install-cuda-ref.sh prints")
    args = ap.parse_args()
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import ptx_stats

    kernels = [kernel(f"op{i}", body, wide) for i, (body, wide, _) in enumerate(OPS.values())]
    kernels += [kernel(f"base_{k}", body, wide) for k, (body, wide) in BASE.items()]
    src = ".version 8.0\n.target {}\n.address_size 64\n".format(args.arch) + "\n".join(kernels) + "\n"
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "ops.ptx")
        with open(path, "w") as f:
            f.write(src)
        stats, err = ptx_stats.kernel_stats(path, args.cuda_root, args.arch, workdir=d)
    if err:
        sys.exit(err)
    sass = {k: v["sass"] for k, v in stats.items()}
    # Each base kernel does what its operation's kernel does but the operation: the loads,
    # a store of the same width, and for two-operand kernels one more instruction that uses
    # the second operand (subtracted back).
    print(f"| operation | SASS instructions ({args.arch}) |\n|---|---:|")
    for i, (name, (_, _, base)) in enumerate(OPS.items()):
        b = sass[f"base_{base}"] - 1
        print(f"| `{name}` | {sass[f'op{i}'] - b} |")


if __name__ == "__main__":
    main()
