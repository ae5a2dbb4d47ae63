//! From CUDA to PTX: every kernel file in `ptx/` and `examples/cuda/` compiles, each stage
//! is snapshotted (sm_90): `cuda`, `nvvm` as the conversions make it (`-O0`), `nvvm` after the
//! `-O3` pipeline, `ptx-ir` and PTX; and the PTX for sm_75, sm_80 and sm_90, at `-O0` and
//! `-O3`, is assembled by NVIDIA's ptxas 13.0, which must print no error and no warning. Files in
//! `ptx/unsupported/` must fail with a diagnostic (snapshotted) and write no PTX.
//!
//! ptxas comes from `scripts/install-ptxas.sh` (PyPI, no GPU needed); CI sets
//! `CUPRITE_REQUIRE_PTXAS=1` so that a missing ptxas fails instead of skipping the check.

use cuprite_tests::{assemble, ptxas, run_cli};
use std::path::{Path, PathBuf};

const TARGETS: [u32; 3] = [75, 80, 90];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn compile(file: &Path, args: &[&str]) -> (i32, String, String) {
    let f = file.to_string_lossy().to_string();
    let mut a = vec!["compile", f.as_str()];
    a.extend_from_slice(args);
    run_cli(&a, "")
}

/// The corpus as (snapshot name, path relative to `tests/`, the tests' working directory,
/// so that diagnostics show stable paths).
fn corpus() -> Vec<(String, PathBuf)> {
    let mut files = Vec::new();
    for (dir, rel, prefix) in [("tests/ptx", "ptx", ""), ("examples/cuda", "../examples/cuda", "example_")] {
        for e in std::fs::read_dir(root().join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "cu") {
                let stem = p.file_stem().unwrap().to_string_lossy().to_string();
                files.push((format!("{prefix}{stem}"), Path::new(rel).join(p.file_name().unwrap())));
            }
        }
    }
    files.sort();
    files
}

#[test]
fn corpus_compiles_to_ptx_that_ptxas_accepts() {
    let ptxas = ptxas();
    for (name, file) in corpus() {
        for (stage, args) in [
            ("cuda", &["--emit=cuda"][..]),
            ("nvvm-O0", &["--emit=nvvm", "-O0"]),
            ("nvvm", &["--emit=nvvm"]),
            ("ptx-ir", &["--emit=ptx-ir"]),
        ] {
            let (code, out, err) = compile(&file, args);
            assert_eq!(code, 0, "{}: {args:?} failed:\n{err}", file.display());
            insta::assert_snapshot!(format!("{name}.{stage}"), out);
        }
        for sm in TARGETS {
            for level in ["-O0", "-O3"] {
                let arch = format!("--arch=sm_{sm}");
                let (code, ptx, err) = compile(&file, &[&arch, level]);
                assert_eq!(code, 0, "{}: compiling for sm_{sm} {level} failed:\n{err}", file.display());
                assert!(ptx.contains(&format!(".target sm_{sm}")), "{name}: no .target");
                if sm == 90 && level == "-O3" {
                    insta::assert_snapshot!(format!("{name}.ptx"), ptx);
                }
                if let Some(p) = &ptxas {
                    assemble(p, &ptx, sm, &format!("{name}{level}"));
                }
            }
        }
    }
}

#[test]
fn unsupported_constructs_are_diagnosed_not_miscompiled() {
    insta::glob!("../ptx/unsupported", "*.cu", |path| {
        let out = root().join("target").join(format!("unsupported-{}.ptx", std::process::id()));
        let o = out.to_string_lossy().to_string();
        let rel = Path::new("ptx/unsupported").join(path.file_name().unwrap());
        let (code, stdout, err) = compile(&rel, &["-o", &o]);
        assert_eq!(code, 1, "{}: expected a compile error", path.display());
        assert!(stdout.is_empty() && !out.exists(), "{}: output written despite errors", path.display());
        insta::assert_snapshot!(err);
    });
}

/// Two compilations agree byte for byte, and so do the per-function parallel path (each
/// function in its own context, the default) and the whole-module path (`-j1`).
#[test]
fn output_is_deterministic() {
    for (_, file) in corpus() {
        let a = compile(&file, &[]);
        let b = compile(&file, &[]);
        assert_eq!(a, b, "{}: two compilations differ", file.display());
        let c = compile(&file, &["-j1"]);
        assert_eq!(a, c, "{}: per-function and whole-module compilation differ", file.display());
        let d = compile(&file, &["-j3"]);
        assert_eq!(a, d, "{}: -j3 differs", file.display());
    }
}

/// `--use_fast_math` output uses the approximate instructions (snapshotted) and no library
/// code; it assembles.
#[test]
fn fast_math_uses_the_approximate_instructions() {
    let file = Path::new("ptx/libm/fast_math.cu");
    let (code, ptx, err) = compile(file, &["--use_fast_math"]);
    assert_eq!(code, 0, "{err}");
    for insn in
        ["ex2.approx.ftz", "lg2.approx.ftz", "sin.approx.ftz", "cos.approx.ftz", "div.approx.ftz.f32", "sqrt.approx.ftz", "add.ftz.f32"]
    {
        assert!(ptx.contains(insn), "no {insn} in:\n{ptx}");
    }
    assert!(!ptx.contains("div.rn.f32") && !ptx.contains(".func"), "library code in fast-math output:\n{ptx}");
    insta::assert_snapshot!("libm_fast_math.ptx", ptx);
    if let Some(p) = ptxas() {
        for sm in TARGETS {
            let (code, ptx, err) = compile(file, &["--use_fast_math", &format!("--arch=sm_{sm}")]);
            assert_eq!(code, 0, "{err}");
            assemble(&p, &ptx, sm, "libm_fast_math");
        }
    }
}

/// The floating-point flags select nvcc's instructions (checked against NVRTC 13.0's
/// output for the same flags), the PTX assembles, and with `-ftz=true` the simulator
/// flushes at the nvvm and ptx levels alike.
#[test]
fn float_flags_select_nvccs_instructions() {
    let file = Path::new("ptx/libm/float_flags.cu");
    let cases: [(&[&str], &[&str], &[&str]); 6] = [
        (&[], &["div.rn.f32", "sqrt.rn.f32", "min.f32", "cvt.f64.f32", "setp.lt.f32"], &[".ftz", "approx", "div.full"]),
        (
            &["-ftz=true"],
            &[
                "div.rn.ftz.f32",
                "sqrt.rn.ftz.f32",
                "min.ftz.f32",
                "abs.ftz.f32",
                "fma.rn.ftz.f32",
                "add.ftz.f32",
                "cvt.ftz.f64.f32",
                "setp.lt.ftz.f32",
            ],
            &["approx", "mul.ftz.f64", "rn.ftz.f64"],
        ),
        (&["-prec-div=false"], &["div.full.f32", "sqrt.rn.f32"], &[".ftz", "div.rn.f32"]),
        (&["-prec-sqrt=false"], &["div.rn.f32", "sqrt.approx.f32"], &[".ftz", "sqrt.rn.f32"]),
        (&["--use_fast_math"], &["div.approx.ftz.f32", "sqrt.approx.ftz.f32", "min.ftz.f32"], &["div.rn.f32", "div.full"]),
        (&["--use_fast_math", "-ftz=false", "-prec-div=true"], &["div.rn.f32", "sqrt.approx.f32"], &[".ftz"]),
    ];
    let p = ptxas();
    for (flags, want, not) in cases {
        let (code, ptx, err) = compile(file, flags);
        assert_eq!(code, 0, "{flags:?}: {err}");
        for w in want {
            assert!(ptx.contains(w), "{flags:?}: no {w} in:\n{ptx}");
        }
        for n in not {
            assert!(!ptx.contains(n), "{flags:?}: {n} in:\n{ptx}");
        }
        if let Some(p) = &p {
            for sm in TARGETS {
                let mut a = flags.to_vec();
                let arch = format!("--arch=sm_{sm}");
                a.push(&arch);
                let (code, ptx, err) = compile(file, &a);
                assert_eq!(code, 0, "{err}");
                assemble(p, &ptx, sm, "float_flags");
            }
        }
    }
    let run = |level: &str, ftz: &str| {
        let f = file.to_string_lossy().to_string();
        let args = [
            "run",
            &f,
            "--kernel",
            "arith",
            "--block",
            "4",
            "--level",
            level,
            ftz,
            "--arg",
            "a:f32[4]=[1e-39, -1e-39, 3.0, 1e-45]",
            "--arg",
            "b:f32[4]=[2.0, 1e-39, 1e-40, 4.0]",
            "--arg",
            "q:f32[4]=zeros",
            "--arg",
            "s:f32[4]=zeros",
            "--arg",
            "m:f32[4]=zeros",
            "--arg",
            "w:f64[4]=zeros",
            "--arg",
            "n:i32=4",
        ];
        let (code, out, err) = run_cli(&args, "");
        assert_eq!(code, 0, "{level} {ftz}: {err}");
        out.lines().filter(|l| !l.starts_with("kernel")).map(str::to_string).collect::<Vec<_>>()
    };
    let (nvvm, ptx) = (run("nvvm", "-ftz=true"), run("ptx", "-ftz=true"));
    assert_eq!(nvvm, ptx, "-ftz=true: the nvvm and ptx levels differ");
    // 1e-39 / 2 flushes to 0 (input and result subnormal); without -ftz it is 5e-40.
    let q = |lines: &[String]| lines.iter().find(|l| l.starts_with("q:")).cloned().unwrap_or_default();
    assert!(q(&ptx).ends_with("  0.0 NaN inf 0.0"), "{ptx:?}");
    let ieee = run("ptx", "-ftz=false");
    assert!(q(&ieee).ends_with("  5e-40 -1.0 inf 0.0"), "{ieee:?}");
    assert_eq!(ieee, run("cuda", "-ftz=false"));
}

/// Only what a kernel calls reaches its PTX: at -O0 the library function stays a `.func`
/// (and is the only one), at -O3 it is inlined and no `.func` is left.
#[test]
fn only_the_used_library_functions_reach_the_ptx() {
    let file = Path::new("ptx/libm/one_function.cu");
    let (code, o0, err) = compile(file, &["-O0"]);
    assert_eq!(code, 0, "{err}");
    // expf and the static helpers it calls (its polynomial, scaling by 2^k), nothing else of
    // the library.
    let funcs: std::collections::BTreeSet<&str> = o0.lines().filter(|l| l.starts_with(".visible .func") && l.ends_with('(')).collect();
    assert!(funcs.iter().any(|f| f.contains("__cuprite_expf(")), "{o0}");
    assert!(funcs.iter().all(|f| f.contains("__cuprite_expf(") || f.contains("cl_")), "{o0}");
    assert!(funcs.len() <= 5, "{o0}");
    let (code, o3, err) = compile(file, &[]);
    assert_eq!(code, 0, "{err}");
    assert!(!o3.contains(".func") && o3.contains("fma.rn.f32"), "{o3}");
    if let Some(p) = ptxas() {
        for sm in TARGETS {
            let (code, o0, err) = compile(file, &["-O0", &format!("--arch=sm_{sm}")]);
            assert_eq!(code, 0, "{err}");
            assemble(&p, &o0, sm, "libm_one_function_O0");
        }
    }
}

/// A `volatile` inline `asm` (or one without outputs, which GCC treats as volatile) keeps
/// its flag when lowered: `cuda.asm {side_effects}` becomes `nvvm.inline_asm {volatile}`.
#[test]
fn volatile_asm_keeps_its_flag_when_lowered() {
    let src = r#"__global__ void k(unsigned *out) {
  unsigned lane, clock;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  asm("mov.u32 %0, %%clock;" : "=r"(clock));
  out[threadIdx.x] = lane + clock;
}
"#;
    let path = std::env::temp_dir().join(format!("cuprite-asm-{}.cu", std::process::id()));
    std::fs::write(&path, src).unwrap();
    let (rc, nvvm, err) = compile(&path, &["--emit=nvvm", "-O0"]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(rc, 0, "{err}");
    let asm: Vec<&str> = nvvm.lines().filter(|l| l.contains("inline_asm")).collect();
    assert_eq!(asm.len(), 2, "{nvvm}");
    assert!(asm[0].contains("laneid") && asm[0].contains("volatile"), "{nvvm}");
    assert!(asm[1].contains("clock") && !asm[1].contains("volatile"), "{nvvm}");
}

/// The hand-written PTX the simulator tests run (`tests/sim/*.ptx`) is PTX ptxas accepts,
/// and the isel pass test's CUDA source compiles to PTX it accepts.
#[test]
fn hand_written_ptx_and_test_sources_assemble() {
    let Some(ptxas) = ptxas() else { return };
    let mut n = 0;
    for e in std::fs::read_dir(root().join("tests/sim")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "ptx") {
            assemble(&ptxas, &std::fs::read_to_string(&p).unwrap(), 90, &p.file_stem().unwrap().to_string_lossy());
            n += 1;
        }
    }
    let src = root().join("tests/ir/sources/convert_nvvm_to_ptx.cu");
    let (code, ptx, err) = compile(&src, &["-o", "-"]);
    assert_eq!(code, 0, "{err}");
    assemble(&ptxas, &ptx, 90, "convert_nvvm_to_ptx");
    assert!(n >= 1);
}
