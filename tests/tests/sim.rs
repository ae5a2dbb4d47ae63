//! Differential testing on the simulator: every kernel of the corpus (`tests/ptx/*.cu`,
//! `examples/cuda/*.cu`) runs with the launch in the `.toml` file next to it at every
//! level, and the output buffers must agree:
//!
//! - `cuda` (the frontend's output) is the reference;
//! - `nvvm` as the conversions make it and after the `-O3` pipeline must be bit-identical
//!   (no pass may change a result);
//! - `ptx` (the selected instructions), the same PTX printed and read back by the PTX
//!   reader, and NVRTC 13.0's PTX for the same source must be identical too, except where
//!   the spec states a float tolerance with its reason (fma contraction);
//! - no run may read never-written shared or local memory;
//! - every registered op of the `cuda`, `nvvm` and `ptx` dialects occurs in the IR this test
//!   runs (cuprite's levels, NVRTC's PTX read back), so each has a lowering and simulator
//!   semantics that the corpus exercises, or is listed with the reason it does not.
//!
//! When clang-22 is installed (`scripts/install-clang22.sh`; not required), its PTX for
//! the corpus is read and compared the same way.
//!
//! NVRTC comes from `scripts/install-cuda-ref.sh` (PyPI wheels, no GPU): CI sets
//! `CUPRITE_CUDA_ROOT` to it and `CUPRITE_REQUIRE_NVRTC=1`, so that a missing NVRTC fails
//! instead of skipping that comparison.

use cuprite_sim::spec::{compare, parse_toml, LaunchSpec, Output};
use cuprite_sim::{run_spec, Level, Schedule};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Kernel files with a launch spec.
fn corpus() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in ["tests/ptx", "examples/cuda", "tests/programs"] {
        for e in std::fs::read_dir(root().join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "cu") {
                // Whole programs run where they have a launch spec; the others only compare
                // their kernel sets with nvcc's (tests/programs.rs).
                if dir == "tests/programs" && !p.with_extension("toml").is_file() {
                    continue;
                }
                assert!(p.with_extension("toml").is_file(), "{} has no launch spec (.toml)", p.display());
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// NVIDIA's CUDA root from the wheels (with NVRTC), if installed.
fn cuda_root() -> Option<PathBuf> {
    let cands: Vec<PathBuf> = match std::env::var_os("CUPRITE_CUDA_ROOT") {
        Some(p) => vec![PathBuf::from(p)],
        None => {
            let home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_default();
            vec![home.join(".cache/cuprite-cuda-ref/site/nvidia/cu13"), home.join(".cache/cuda-ref/site/nvidia/cu13")]
        }
    };
    let found = cands.into_iter().find(|c| c.join("lib/libnvrtc.so.13").is_file());
    if found.is_none() {
        assert!(std::env::var_os("CUPRITE_REQUIRE_NVRTC").is_none(), "NVRTC not found: run scripts/install-cuda-ref.sh");
        eprintln!("NVRTC not found: skipping the comparison with NVIDIA's PTX (run scripts/install-cuda-ref.sh)");
    }
    found
}

/// clang-22 (from `scripts/install-clang22.sh`), if installed: its PTX is compared too.
fn clang() -> Option<PathBuf> {
    let p = match std::env::var_os("CUPRITE_CLANG") {
        Some(p) => PathBuf::from(p),
        None => std::env::var_os("HOME").map(PathBuf::from).unwrap_or_default().join(".cache/cuprite-clang22/bin/clang-22"),
    };
    p.is_file().then_some(p)
}

/// clang's PTX for `file` (sm_90, -O3, with the project's CUDA prelude), as bench/compare.py
/// makes it.
fn clang_ptx(clang: &Path, file: &Path) -> Option<String> {
    let out = std::env::temp_dir().join(format!("cuprite-sim-clang-{}-{}.ptx", std::process::id(), file.file_stem()?.to_string_lossy()));
    let r = std::process::Command::new(clang)
        .args([
            "-x",
            "cuda",
            "--cuda-device-only",
            "--cuda-gpu-arch=sm_90",
            "-nocudainc",
            "-nocudalib",
            "--cuda-feature=+ptx90",
            "-include",
        ])
        .arg(root().join("bench/clang_cuda_prelude.h"))
        .args(["-O3", "-S"])
        .arg(file)
        .arg("-o")
        .arg(&out)
        .output()
        .ok()?;
    if !r.status.success() {
        eprintln!("clang cannot compile {}", file.display());
        return None;
    }
    std::fs::read_to_string(&out).ok()
}

/// NVRTC's PTX for `file` (None: NVRTC cannot compile it, e.g. host code with <cstdio>).
/// Corpus files NVRTC cannot compile, with the reason: their comparison with NVIDIA's PTX
/// is skipped; any other failure fails the test when NVRTC is required.
const NVRTC_CANNOT: &[(&str, &str)] = &[("examples/cuda/reduce.cu", "its host code includes <cstdio>, which NVRTC does not ship")];

/// Kernels whose NVRTC PTX the simulator cannot run yet, with the reason: only their
/// comparison with NVIDIA's PTX is skipped (every level of cuprite's still runs).
const NVRTC_UNSIMULATED: &[(&str, &str, &str)] = &[];

/// A whole program's (`tests/programs`) PTX is nvcc -ptx's instead: NVRTC has no host
/// headers.
/// Corpus files whose launches must compute the same bits from NVRTC's PTX as from
/// cuprite's, tolerances notwithstanding: where cuprite contracts `a * b + c` exactly as
/// NVRTC does (the tolerance is against the cuda level, which does not contract).
const NVRTC_BITWISE: &[&str] = &["tests/ptx/contraction.cu"];

fn nvrtc_ptx(cuda: &Path, file: &Path) -> Option<String> {
    let out = std::env::temp_dir().join(format!("cuprite-sim-nvrtc-{}-{}.ptx", std::process::id(), file.file_stem()?.to_string_lossy()));
    let program = file.parent().is_some_and(|d| d.ends_with("tests/programs"));
    let r = if program {
        std::process::Command::new(cuda.join("bin/nvcc")).args(["-ptx", "-arch=sm_90", "-w"]).arg(file).arg("-o").arg(&out).output().ok()?
    } else {
        std::process::Command::new("python3")
            .arg(root().join("bench/nvrtc_compile.py"))
            .arg(file)
            .arg("--cuda-root")
            .arg(cuda)
            .args(["--arch", "sm_90", "-o"])
            .arg(&out)
            .output()
            .ok()?
    };
    if !r.status.success() {
        let why = String::from_utf8_lossy(&r.stderr).into_owned();
        let known = NVRTC_CANNOT.iter().any(|(f, _)| file.ends_with(f));
        assert!(
            known || std::env::var_os("CUPRITE_REQUIRE_NVRTC").is_none(),
            "NVRTC cannot compile {} (the comparison would be skipped):\n{why}",
            file.display()
        );
        eprintln!("NVRTC cannot compile {}: {}", file.display(), why.lines().next().unwrap_or(""));
        return None;
    }
    std::fs::read_to_string(&out).ok()
}

fn run(ctx: &cuprite_ir::Context, m: cuprite_ir::OpId, level: Level, l: &LaunchSpec, what: &str) -> Vec<Output> {
    let r = run_spec(ctx, m, level, l, Schedule::InOrder, 1 << 28).unwrap_or_else(|e| panic!("{what}: {}: {e}", l.kernel));
    assert!(r.stats.warnings.is_empty(), "{what}: {}: {:?}", l.kernel, r.stats.warnings);
    // What the kernel printed is compared as one more (byte) buffer.
    let mut outs = r.outputs;
    let ty = cuprite_sim::spec::ArgTy::parse("u8").expect("u8");
    outs.push(Output { name: "printf".into(), ty, data: r.stats.output.into_bytes() });
    outs
}

/// Registered ops the corpus does not exercise, with the reason.
const NOT_EXERCISED: &[(&str, &str)] = &[
    ("nvvm.frem", "arith.remf's lowering: the frontend calls the math library's fmodf instead, and selection reports it unsupported"),
    ("ptx.tanh", "NVRTC emits tanh.approx only for tanhf under --use_fast_math, which this corpus does not run"),
];

/// Ops the corpus compiles but the simulator does not run, with the reason.
const NOT_SIMULATED: &[(&str, &str)] = &[
    ("cuda.asm", "inline PTX: compiled, and assembled by ptxas, but not interpreted at the IR levels"),
    ("nvvm.inline_asm", "inline PTX (see cuda.asm)"),
    ("ptx.asm", "inline PTX: at the ptx level its kernels run from the printed PTX read back (`<file>.ptx.toml`), as NVRTC's"),
];

/// The names of the ops in module `m`.
fn op_names(ctx: &cuprite_ir::Context, m: cuprite_ir::OpId, into: &mut std::collections::BTreeSet<String>) {
    for o in cuprite_ir::walk::collect_preorder(ctx, m) {
        into.insert(ctx.op_name_str(o).to_string());
    }
}

#[test]
fn corpus_agrees_at_every_level_and_with_nvrtc() {
    let mut covered = std::collections::BTreeSet::new();
    let cuda = cuda_root();
    let clang = clang();
    let mut compared = 0;
    let mut nvrtc_runs = 0;
    // Launches whose outputs are bit-identical with NVRTC's PTX and cuprite's.
    let mut nvrtc_same = 0;
    let mut clang_runs = 0;
    for file in corpus() {
        let text = std::fs::read_to_string(&file).unwrap();
        let name = file.display().to_string();
        let launches = parse_toml(&std::fs::read_to_string(file.with_extension("toml")).unwrap()).unwrap();
        let lv = cuprite::levels::compile_levels(&name, &text, &Default::default()).unwrap_or_else(|e| panic!("{name}:\n{e}"));
        // The printed PTX, read back.
        let mut rctx = cuprite_ir::Context::new(cuprite_dialects::registry());
        let reread = cuprite_lowering::ptx_read::read_ptx(&mut rctx, &lv.ptx_text, &format!("{name}.ptx")).unwrap_or_else(|e| {
            panic!("{name}: cuprite's PTX does not read back:\n{}", cuprite_lowering::ptx_read::render(&name, &lv.ptx_text, &e))
        });
        // NVIDIA's PTX.
        let mut nctx = cuprite_ir::Context::new(cuprite_dialects::registry());
        let nvrtc = cuda.as_ref().and_then(|c| nvrtc_ptx(c, &file)).map(|t| {
            let m = cuprite_lowering::ptx_read::read_ptx(&mut nctx, &t, "nvrtc.ptx")
                .unwrap_or_else(|e| panic!("{name}: NVRTC's PTX:\n{}", cuprite_lowering::ptx_read::render("nvrtc.ptx", &t, &e)));
            (m, t)
        });
        let mut cctx = cuprite_ir::Context::new(cuprite_dialects::registry());
        let clang_mod = clang.as_ref().and_then(|c| clang_ptx(c, &file)).map(|t| {
            cuprite_lowering::ptx_read::read_ptx(&mut cctx, &t, "clang.ptx")
                .unwrap_or_else(|e| panic!("{name}: clang's PTX:\n{}", cuprite_lowering::ptx_read::render("clang.ptx", &t, &e)))
        });
        for m in [lv.cuda, lv.nvvm_o0, lv.nvvm, lv.ptx] {
            op_names(&lv.ctx, m, &mut covered);
        }
        if let Some((m, _)) = &nvrtc {
            op_names(&nctx, *m, &mut covered);
        }
        for l in &launches {
            let reference = run(&lv.ctx, lv.cuda, Level::Cuda, l, "cuda");
            let check = |outs: &[Output], what: &str, tol: u64| {
                if let Err(e) = compare(&reference, outs, tol) {
                    panic!("{name}: kernel {}: {what} differs from the cuda level:\n{e}", l.kernel);
                }
            };
            check(&run(&lv.ctx, lv.nvvm_o0, Level::Nvvm, l, "nvvm -O0"), "nvvm -O0", 0);
            check(&run(&lv.ctx, lv.nvvm, Level::Nvvm, l, "nvvm -O3"), "nvvm -O3", 0);
            let ptx = run(&lv.ctx, lv.ptx, Level::Ptx, l, "ptx");
            check(&ptx, "ptx", l.tolerance_ulp);
            let again = run(&rctx, reread, Level::Ptx, l, "ptx read back");
            assert_eq!(compare(&ptx, &again, 0), Ok(0), "{name}: {}: the PTX read back runs differently", l.kernel);
            let unsimulated = NVRTC_UNSIMULATED.iter().any(|(f, k, _)| file.ends_with(f) && l.kernel == *k);
            if let Some((m, _)) = nvrtc.as_ref().filter(|_| !unsimulated) {
                let theirs = run(&nctx, *m, Level::Ptx, l, "NVRTC's ptx");
                check(&theirs, "NVRTC's PTX", l.tolerance_ulp);
                let same = compare(&ptx, &theirs, 0) == Ok(0);
                if NVRTC_BITWISE.iter().any(|f| file.ends_with(f)) {
                    assert!(
                        same,
                        "{name}: kernel {}: cuprite's PTX computes other bits than NVRTC's (contraction):\n{}",
                        l.kernel,
                        compare(&ptx, &theirs, 0).err().unwrap_or_default()
                    );
                }
                nvrtc_runs += 1;
                nvrtc_same += same as usize;
            }
            if let Some(m) = clang_mod {
                check(&run(&cctx, m, Level::Ptx, l, "clang's ptx"), "clang's PTX", l.tolerance_ulp);
                clang_runs += 1;
            }
            compared += 1;
        }
        // Kernels with inline asm (`<file>.ptx.toml`): at the ptx level only, cuprite's PTX
        // read back against NVRTC's.
        let ptx_only = file.with_extension("ptx.toml");
        if ptx_only.is_file() {
            for l in &parse_toml(&std::fs::read_to_string(&ptx_only).unwrap()).unwrap() {
                let ours = run(&rctx, reread, Level::Ptx, l, "ptx read back");
                if let Some((m, _)) = nvrtc.as_ref() {
                    let theirs = run(&nctx, *m, Level::Ptx, l, "NVRTC's ptx");
                    if let Err(e) = compare(&theirs, &ours, l.tolerance_ulp) {
                        panic!("{name}: kernel {} (inline asm, ptx level): cuprite's PTX differs from NVRTC's:\n{e}", l.kernel);
                    }
                    nvrtc_runs += 1;
                }
                compared += 1;
            }
        }
    }
    // Hand-written PTX of instructions NVIDIA's compilers emit and cuprite does not
    // (`tests/sim/<name>.ptx`), run against the CUDA it means (`<name>.cu`, at the cuda level).
    let mut hand = 0;
    for e in std::fs::read_dir(root().join("tests/sim")).unwrap() {
        let ptx_file = e.unwrap().path();
        if ptx_file.extension().is_none_or(|x| x != "ptx") {
            continue;
        }
        let name = ptx_file.display().to_string();
        let ptx_text = std::fs::read_to_string(&ptx_file).unwrap();
        let cu = ptx_file.with_extension("cu");
        let lv = cuprite::levels::compile_levels(&cu.display().to_string(), &std::fs::read_to_string(&cu).unwrap(), &Default::default())
            .unwrap_or_else(|e| panic!("{}:\n{e}", cu.display()));
        let mut hctx = cuprite_ir::Context::new(cuprite_dialects::registry());
        let m = cuprite_lowering::ptx_read::read_ptx(&mut hctx, &ptx_text, &name)
            .unwrap_or_else(|e| panic!("{name}:\n{}", cuprite_lowering::ptx_read::render(&name, &ptx_text, &e)));
        op_names(&hctx, m, &mut covered);
        for l in parse_toml(&std::fs::read_to_string(ptx_file.with_extension("toml")).unwrap()).unwrap() {
            let want = run(&lv.ctx, lv.cuda, Level::Cuda, &l, "cuda");
            let got = run(&hctx, m, Level::Ptx, &l, "hand-written ptx");
            if let Err(e) = compare(&want, &got, 0) {
                panic!("{name}: kernel {}: the PTX differs from its C:\n{e}", l.kernel);
            }
            hand += 1;
        }
    }
    eprintln!(
        "{compared} launches agree at every level; {nvrtc_runs} also with NVRTC's PTX ({nvrtc_same} bit for bit), {clang_runs} with clang's; {hand} hand-written PTX"
    );
    assert!(compared >= 36 && hand >= 1);
    // Op coverage (NVRTC's PTX brings ops cuprite does not emit; without it those are not
    // checked).
    let registry = cuprite_dialects::registry();
    let mut missing = Vec::new();
    for info in registry.ops() {
        let n = info.name;
        let ours = n.starts_with("cuda.") || n.starts_with("nvvm.") || (n.starts_with("ptx.") && cuda.is_some());
        let listed = NOT_EXERCISED.iter().chain(NOT_SIMULATED).any(|(o, _)| *o == n);
        if ours && !covered.contains(n) && !listed {
            missing.push(n);
        }
    }
    assert!(missing.is_empty(), "registered ops no corpus launch exercises (add a kernel, or list them with the reason): {missing:?}");
    if cuda.is_some() {
        let stale: Vec<&str> = NOT_EXERCISED.iter().map(|(o, _)| *o).filter(|o| covered.contains(*o)).collect();
        assert!(stale.is_empty(), "ops listed as not exercised that the corpus now exercises: {stale:?}");
    }
}

/// Bad PTX never panics the reader, the translation or the machine: mutated PTX of the
/// corpus (lines deleted, duplicated, swapped, characters replaced) either reads with
/// diagnostics or runs to an end or a reported error within an instruction budget.
#[test]
fn mutated_ptx_never_panics() {
    let mut rng = cuprite_sim::machine::Rng(7);
    let mut read_ok = 0;
    for f in ["tests/ptx/vector.cu", "tests/ptx/reduce.cu", "tests/ptx/control.cu", "tests/ptx/structs.cu", "tests/ptx/scan.cu"] {
        let text = std::fs::read_to_string(root().join(f)).unwrap();
        let lv = cuprite::levels::compile_levels(f, &text, &Default::default()).unwrap();
        let lines: Vec<&str> = lv.ptx_text.lines().collect();
        for _ in 0..120 {
            let mut l: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
            for _ in 0..1 + rng.below(3) {
                let n = l.len() as u64;
                let (i, j) = (rng.below(n) as usize, rng.below(n) as usize);
                match rng.below(4) {
                    0 => {
                        l.remove(i);
                    }
                    1 => {
                        let d = l[i].clone();
                        l.insert(j, d);
                    }
                    2 => l.swap(i, j),
                    _ => {
                        let mut b = l[i].clone().into_bytes();
                        if !b.is_empty() {
                            let k = rng.below(b.len() as u64) as usize;
                            b[k] = b"%;,[]{}0x.-@!r"[rng.below(14) as usize];
                        }
                        l[i] = String::from_utf8_lossy(&b).into_owned();
                    }
                }
            }
            let mutated = l.join("\n");
            let mut ctx = cuprite_ir::Context::new(cuprite_dialects::registry());
            let Ok(m) = cuprite_lowering::ptx_read::read_ptx(&mut ctx, &mutated, "m.ptx") else { continue };
            read_ok += 1;
            cuprite_sim::run_every_function_once(&ctx, m, 200_000);
        }
    }
    assert!(read_ok > 0);
}
