#!/usr/bin/env python3
"""Compile one CUDA C++ file to PTX with NVIDIA's NVRTC (libnvrtc.so.13, through ctypes).

usage: python3 bench/nvrtc_compile.py FILE.cu --cuda-root DIR [--arch sm_90] [-o OUT.ptx]
                                      [--time-file T] [NVRTC option ...]

  --cuda-root DIR  the CUDA 13 root that scripts/install-cuda-ref.sh prints: libnvrtc is
                   DIR/lib/libnvrtc.so.13 and DIR/include (and DIR/include/cccl,
                   where nvcc finds libcu++) are put on the include path (NVRTC has no
                   implicit system include directories)
  --arch sm_NN     virtual architecture compute_NN (default sm_90)
  -o OUT           where the PTX goes (default: stdout)
  --time-file T    write to T the seconds this process spent from loading libnvrtc to
                   having written the PTX, i.e. everything but the start-up of the Python
                   interpreter and its imports (ctypes, os, sys, time)
  any other argument starting with '-' is passed to nvrtcCompileProgram unchanged.

NVRTC optimizes fully by default (its NVVM runs at -opt=3 and it has no -O option), so no
flag is needed for an -O3 build. No -default-device: like nvcc, functions without an
execution-space annotation are host functions. NVRTC compiles device code only and has no
C++ standard library headers, so a file that #includes e.g. <cstdio> for its host code
fails here; bench/compare.py reports that rather than editing the source.

Exit status: 0 on success; 1 when NVRTC rejects the file (its log goes to stderr); 2 on
usage errors.
"""

import ctypes
import os
import sys
import time


class Nvrtc:
    """The few NVRTC entry points a PTX compile needs, typed for ctypes."""

    def __init__(self, cuda_root):
        libdir = os.path.join(cuda_root, "lib")
        # libnvrtc dlopen()s its builtins library (libnvrtc-builtins.so.13.0) by soname on
        # the first compile; loading it globally from the same directory first satisfies
        # that without LD_LIBRARY_PATH.
        for name in sorted(os.listdir(libdir)):
            if name.startswith("libnvrtc-builtins.so."):
                ctypes.CDLL(os.path.join(libdir, name), mode=ctypes.RTLD_GLOBAL)
        lib = ctypes.CDLL(os.path.join(libdir, "libnvrtc.so.13"))
        prog_p = ctypes.POINTER(ctypes.c_void_p)
        size_p = ctypes.POINTER(ctypes.c_size_t)
        strs = ctypes.POINTER(ctypes.c_char_p)
        sig = {
            "nvrtcGetErrorString": (ctypes.c_char_p, [ctypes.c_int]),
            "nvrtcVersion": (ctypes.c_int, [ctypes.POINTER(ctypes.c_int)] * 2),
            # (prog*, source, name, numHeaders, headers, includeNames)
            "nvrtcCreateProgram": (ctypes.c_int, [prog_p, ctypes.c_char_p, ctypes.c_char_p,
                                                  ctypes.c_int, strs, strs]),
            "nvrtcCompileProgram": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int, strs]),
            "nvrtcGetProgramLogSize": (ctypes.c_int, [ctypes.c_void_p, size_p]),
            "nvrtcGetProgramLog": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p]),
            "nvrtcGetPTXSize": (ctypes.c_int, [ctypes.c_void_p, size_p]),
            "nvrtcGetPTX": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p]),
            "nvrtcDestroyProgram": (ctypes.c_int, [prog_p]),
        }
        for name, (restype, argtypes) in sig.items():
            fn = getattr(lib, name)
            fn.restype, fn.argtypes = restype, argtypes
        self.lib = lib

    def _check(self, status, what):
        if status != 0:
            raise RuntimeError("%s: %s" % (what, self.lib.nvrtcGetErrorString(status).decode()))

    def version(self):
        major, minor = ctypes.c_int(), ctypes.c_int()
        self._check(self.lib.nvrtcVersion(ctypes.byref(major), ctypes.byref(minor)), "nvrtcVersion")
        return "%d.%d" % (major.value, minor.value)

    def _read(self, prog, get_size, get, what):
        size = ctypes.c_size_t()
        self._check(get_size(prog, ctypes.byref(size)), what + "Size")
        buf = ctypes.create_string_buffer(size.value)
        self._check(get(prog, buf), what)
        return buf.raw[: size.value].rstrip(b"\0")  # both sizes count the terminating NUL

    def compile_ptx(self, source, name, options):
        """Returns (ptx bytes or None on a compile error, the compile log as text)."""
        prog = ctypes.c_void_p()
        self._check(self.lib.nvrtcCreateProgram(ctypes.byref(prog), source, name.encode(),
                                                0, None, None), "nvrtcCreateProgram")
        try:
            argv = (ctypes.c_char_p * len(options))(*(o.encode() for o in options))
            status = self.lib.nvrtcCompileProgram(prog, len(options), argv)
            log = self._read(prog, self.lib.nvrtcGetProgramLogSize, self.lib.nvrtcGetProgramLog,
                             "nvrtcGetProgramLog").decode(errors="replace")
            if status != 0:
                return None, "%s\n%s" % (self.lib.nvrtcGetErrorString(status).decode(), log)
            return self._read(prog, self.lib.nvrtcGetPTXSize, self.lib.nvrtcGetPTX, "nvrtcGetPTX"), log
        finally:
            self.lib.nvrtcDestroyProgram(ctypes.byref(prog))


def main(argv):
    start = time.perf_counter()
    src = out = time_file = cuda_root = None
    arch = "sm_90"
    extra = []
    args = iter(argv)
    for a in args:
        if a in ("-h", "--help"):
            print(__doc__)
            return 0
        if a in ("--cuda-root", "--arch", "-o", "--time-file"):
            value = next(args, None)
            if value is None:
                print("error: %s needs a value" % a, file=sys.stderr)
                return 2
            if a == "--cuda-root":
                cuda_root = value
            elif a == "--arch":
                arch = value
            elif a == "-o":
                out = value
            else:
                time_file = value
        elif a.startswith("-"):
            extra.append(a)
        elif src is None:
            src = a
        else:
            print("error: more than one input file", file=sys.stderr)
            return 2
    if src is None or cuda_root is None:
        print("error: need an input file and --cuda-root (see --help)", file=sys.stderr)
        return 2
    if not arch.startswith("sm_"):
        print("error: --arch takes sm_NN", file=sys.stderr)
        return 2

    options = ["--gpu-architecture=compute_" + arch[3:],
               "-I" + os.path.join(cuda_root, "include")]
    # CCCL (libcu++, which cooperative_groups.h includes): where nvcc finds it too.
    cccl = os.path.join(cuda_root, "include", "cccl")
    if os.path.isdir(cccl):
        options.append("-I" + cccl)
    options += extra
    nvrtc = Nvrtc(cuda_root)
    with open(src, "rb") as f:
        source = f.read()
    ptx, log = nvrtc.compile_ptx(source, os.path.basename(src), options)
    if ptx is None:
        print("NVRTC %s failed on %s (options: %s)\n%s"
              % (nvrtc.version(), src, " ".join(options), log.rstrip()), file=sys.stderr)
        return 1
    ptx += b"\n"
    if out is None:
        sys.stdout.buffer.write(ptx)
        sys.stdout.flush()
    else:
        with open(out, "wb") as f:
            f.write(ptx)
    if time_file is not None:
        with open(time_file, "w") as f:
            f.write("%.6f\n" % (time.perf_counter() - start))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
