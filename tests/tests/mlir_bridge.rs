//! The in-process bridge to upstream MLIR (`cuprite-mlir`, feature `mlir`):
//! - every corpus file, at each level (cuda as the frontend writes it, cuda with its
//!   control flow as branches, nvvm, ptx), goes into MLIR op by op and comes back
//!   printing the same text, custom and generic form, locations included;
//! - MLIR's verifier accepts the branch-form cuda level of every file (our ops checked
//!   against their IRDL); upstream `canonicalize,cse` runs on it in process, and the result,
//!   lowered by our pipeline, gives PTX that ptxas assembles and that gives every launch
//!   cuprite's own results on the simulator;
//! - what MLIR cannot take gets MLIR's diagnostic and exit code 1, not a panic.
#![cfg(feature = "mlir")]

use cuprite_ir::print::{print_op, PrintOptions};
use cuprite_tests::{assemble, context, corpus_files, ptxas, run_cli};
use std::path::PathBuf;

/// The pipeline's first `n` steps and the rest, as two module pipelines.
fn split_pipeline(pipeline: &str, n: usize) -> (String, String) {
    let inner = pipeline.trim().strip_prefix("builtin.module(").and_then(|s| s.strip_suffix(')')).expect("a module pipeline");
    let steps = cuprite_lowering::passes::split_top_level(inner);
    assert!(steps[n - 1].starts_with("lower-cuda-control-flow"), "{steps:?}");
    (format!("builtin.module({})", steps[..n].join(",")), format!("builtin.module({})", steps[n..].join(",")))
}

/// The texts of `text` (a module) printed custom, generic, and custom with locations.
fn prints(ctx: &cuprite_ir::Context, m: cuprite_ir::OpId) -> [String; 3] {
    [
        print_op(ctx, m, PrintOptions::default()),
        print_op(ctx, m, PrintOptions { generic: true, ..Default::default() }),
        print_op(ctx, m, PrintOptions { locations: true, ..Default::default() }),
    ]
}

/// Exports `text` to MLIR and imports it back; asserts the same prints. Returns whether
/// MLIR's verifier accepts it.
fn round_trip(bridge: &cuprite_mlir::Bridge, text: &str, what: &str) -> bool {
    let mut ctx = context(false);
    let m = cuprite_ir::parse::parse_module(&mut ctx, text, what).unwrap_or_else(|d| panic!("{what}: {}", d.message));
    let exported = bridge.export(&ctx, m).unwrap_or_else(|e| panic!("{what}: export: {e}"));
    let verified = bridge.verify(&exported).is_ok();
    let mut back = context(false);
    let bm = bridge.import(&exported, &mut back).unwrap_or_else(|e| panic!("{what}: import: {e}"));
    let (want, got) = (prints(&ctx, m), prints(&back, bm));
    for (w, g) in want.iter().zip(&got) {
        if w != g {
            let line = w.lines().zip(g.lines()).position(|(a, b)| a != b).unwrap_or(0);
            panic!(
                "{what}: the IR changed on its way through MLIR, at line {}:\n  before: {}\n  after:  {}",
                line + 1,
                w.lines().nth(line).unwrap_or(""),
                g.lines().nth(line).unwrap_or("")
            );
        }
    }
    verified
}

fn emit(file: &str, level: &str, extra: &[&str]) -> String {
    let mut args = vec!["compile", file, level];
    args.extend_from_slice(extra);
    if level == "--emit=cuda" {
        args.push("--print-locations");
    }
    let (rc, out, err) = run_cli(&args, "");
    assert_eq!(rc, 0, "{file} {level}: {err}");
    out
}

#[test]
fn every_corpus_file_goes_through_mlir_and_back_unchanged_at_every_level() {
    let bridge = cuprite_mlir::Bridge::new().expect("the bridge starts");
    let files: Vec<PathBuf> = corpus_files(false);
    let (mut cfg_verified, mut raw_verified) = (0, 0);
    for file in &files {
        let f = file.to_string_lossy();
        let cuda = emit(&f, "--emit=cuda", &[]);
        raw_verified += usize::from(round_trip(&bridge, &cuda, &format!("{f} (cuda)")));
        let (rc, pipeline, err) = run_cli(&["compile", &f, "--print-pipeline"], "");
        assert_eq!(rc, 0, "{f}: {err}");
        let (front, _) = split_pipeline(&pipeline, 3);
        let (rc, cfg, err) = run_cli(&["opt", "-", &format!("--pass-pipeline={front}"), "--print-debuginfo"], &cuda);
        assert_eq!(rc, 0, "{f}: {err}");
        assert!(round_trip(&bridge, &cfg, &format!("{f} (cuda, branches)")), "{f}: MLIR does not verify the branch-form cuda level");
        cfg_verified += 1;
        for level in ["--emit=nvvm", "--emit=ptx-ir"] {
            round_trip(&bridge, &emit(&f, level, &[]), &format!("{f} ({level})"));
        }
        round_trip(&bridge, &emit(&f, "--emit=nvvm", &["-O0"]), &format!("{f} (nvvm, -O0)"));
    }
    eprintln!(
        "{} files; MLIR verifies {cfg_verified} at the branch-form cuda level, {raw_verified} as the frontend writes them",
        files.len()
    );
    assert!(files.len() >= 30, "{}", files.len());
}

#[test]
fn upstream_canonicalize_and_cse_in_process_then_our_pipeline_keep_every_launch() {
    let ptxas = ptxas();
    let dir = std::env::temp_dir().join(format!("cuprite-bridge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut launches = 0;
    let files = corpus_files(true);
    for file in &files {
        let f = file.to_string_lossy();
        let spec = file.with_extension("toml");
        let spec = spec.to_string_lossy();
        let (rc, pipeline, err) = run_cli(&["compile", &f, "--print-pipeline"], "");
        assert_eq!(rc, 0, "{f}: {err}");
        let (front, rest) = split_pipeline(&pipeline, 3);
        let cuda = emit(&f, "--emit=cuda", &[]);
        let (rc, cfg, err) = run_cli(&["opt", "-", &format!("--pass-pipeline={front}")], &cuda);
        assert_eq!(rc, 0, "{f}: {err}");
        let (rc, canon, err) = run_cli(&["opt", "-", "--mlir-pass-pipeline=builtin.module(canonicalize,cse)"], &cfg);
        assert_eq!(rc, 0, "{f}: upstream canonicalize,cse through the bridge:\n{err}");
        assert_ne!(canon, cfg, "{f}: upstream canonicalize,cse changed nothing (did it run?)");
        let ptx = dir.join("bridge.ptx");
        let (rc, _, err) = run_cli(&["opt", "-", &format!("--pass-pipeline={rest}"), "--emit=ptx", "-o", &ptx.to_string_lossy()], &canon);
        assert_eq!(rc, 0, "{f}: cuprite does not lower upstream's canonicalized IR:\n{err}");
        if let Some(p) = &ptxas {
            let text = std::fs::read_to_string(&ptx).unwrap();
            assemble(p, &text, 90, &format!("bridge_{}", file.file_stem().unwrap().to_string_lossy()));
        }
        let (rc, got, err) = run_cli(&["run", "--ptx", &ptx.to_string_lossy(), "--spec", &spec], "");
        assert_eq!(rc, 0, "{f}: {err}");
        let (rc, want, err) = run_cli(&["run", &f, "--spec", &spec], "");
        assert_eq!(rc, 0, "{f}: {err}");
        assert_eq!(got, want, "{f}: upstream canonicalize+cse through the bridge changed a launch's results");
        launches += want.matches("kernel").count().max(1);
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("{} files, {launches} launches agree", files.len());
    assert!(launches >= 30, "{launches}");
}

#[test]
fn what_mlir_cannot_take_is_a_diagnostic() {
    // `cuda.if` regions end in `cuda.yield`, which MLIR's IRDL cannot make a terminator.
    let src = "__global__ void k(int *p, int n) { for (int i = 0; i < n; i++) { if (p[i] < 0) break; p[i] += 1; } }";
    let dir = std::env::temp_dir().join(format!("cuprite-bridge-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cu = dir.join("k.cu");
    std::fs::write(&cu, src).unwrap();
    let cuda = emit(&cu.to_string_lossy(), "--emit=cuda", &[]);
    let (rc, out, err) = run_cli(&["opt", "-", "--mlir-pass-pipeline=builtin.module(cse)"], &cuda);
    assert_eq!(rc, 1, "{out}{err}");
    assert!(err.contains("MLIR's verifier rejects the module") && err.contains("terminator"), "{err}");
    // A pipeline MLIR does not know.
    let (rc, _, err) = run_cli(&["opt", "-", "--mlir-pass-pipeline=builtin.module(no-such-pass)"], "module {}");
    assert_eq!(rc, 1);
    assert!(err.contains("invalid MLIR pass pipeline"), "{err}");
    let (rc, _, err) = run_cli(&["opt", "-", "--mlir-pass-pipeline=builtin.module(canonicalize"], "module {}");
    assert_eq!(rc, 1);
    assert!(err.contains("invalid MLIR pass pipeline"), "{err}");
    // An empty module goes through.
    let (rc, out, err) = run_cli(&["opt", "-", "--mlir-pass-pipeline=builtin.module(canonicalize)"], "module {}");
    assert_eq!((rc, out.trim()), (0, "module {\n}"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--backend=llvm` on every corpus file: PTX that ptxas assembles for sm_75, sm_80 and
/// sm_90, and that runs every launch; without contraction (`-fmad=false`, where the two
/// compilers' choices of which products to fuse cannot differ) every launch gives cuprite's
/// own results bit for bit.
#[test]
fn llvm_backend_ptx_assembles_and_agrees_with_ours_on_every_launch() {
    let ptxas = ptxas();
    let dir = std::env::temp_dir().join(format!("cuprite-llvm-backend-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (mut files, mut launches) = (0, 0);
    for file in corpus_files(false) {
        let f = file.to_string_lossy();
        let stem = file.file_stem().unwrap().to_string_lossy().to_string();
        let ptx = dir.join(format!("{stem}.ptx"));
        let p = ptx.to_string_lossy();
        for sm in [75, 80, 90] {
            let arch = format!("-arch=sm_{sm}");
            let (rc, _, err) = run_cli(&["compile", &f, "--backend=llvm", &arch, "-o", &p], "");
            assert_eq!(rc, 0, "{f} --backend=llvm {arch}: {err}");
            let text = std::fs::read_to_string(&ptx).unwrap();
            assert!(text.contains("Generated by LLVM NVPTX Back-End"), "{f}: not LLVM's PTX");
            if let Some(tool) = &ptxas {
                assemble(tool, &text, sm, &format!("llvm_{stem}"));
            }
        }
        files += 1;
        let spec = file.with_extension("toml");
        if !spec.exists() {
            continue;
        }
        let spec = spec.to_string_lossy();
        // With contraction: it runs (its rounding may differ from ours where the two fuse
        // different products).
        let (rc, _, err) = run_cli(&["run", "--ptx", &p, "--spec", &spec], "");
        assert_eq!(rc, 0, "{f}: LLVM's PTX does not run:\n{err}");
        let (rc, _, err) = run_cli(&["compile", &f, "--backend=llvm", "-fmad=false", "-o", &p], "");
        assert_eq!(rc, 0, "{f}: {err}");
        let (rc, got, err) = run_cli(&["run", "--ptx", &p, "--spec", &spec], "");
        assert_eq!(rc, 0, "{f}: {err}");
        let (rc, want, err) = run_cli(&["run", &f, "-fmad=false", "--spec", &spec], "");
        assert_eq!(rc, 0, "{f}: {err}");
        assert_eq!(got, want, "{f}: LLVM's PTX and cuprite's give different results (-fmad=false)");
        launches += want.matches("kernel").count().max(1);
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("{files} files through LLVM's NVPTX backend; {launches} launches agree with cuprite's");
    assert!(files >= 40 && launches >= 150, "{files} files, {launches} launches");
}

#[test]
fn llvm_backend_flags_carry_over_and_bad_uses_are_errors() {
    let f = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/cuda/reduce.cu");
    let f = f.to_string_lossy();
    // -O0 keeps the local variables in memory; -O3 does not.
    let (rc, o0, err) = run_cli(&["compile", &f, "--backend=llvm", "-O0"], "");
    assert_eq!(rc, 0, "{err}");
    let (rc, o3, err) = run_cli(&["compile", &f, "--backend=llvm", "-O3"], "");
    assert_eq!(rc, 0, "{err}");
    assert!(o0.contains(".local") && !o3.contains(".local"), "-O0 and -O3 give the same PTX");
    // Fast math: flushed f32 arithmetic.
    let (rc, fast, err) = run_cli(&["compile", &f, "--backend=llvm", "--use_fast_math"], "");
    assert_eq!(rc, 0, "{err}");
    assert!(fast.contains(".ftz.f32") && !o3.contains(".ftz.f32"), "{fast}");
    let (rc, sm75, _) = run_cli(&["compile", &f, "--backend=llvm", "-arch=sm_75"], "");
    assert!(rc == 0 && sm75.contains(".target sm_75"));
    // The LLVM IR LLVM's optimizer made.
    let (rc, ir, err) = run_cli(&["compile", &f, "--emit=llvm"], "");
    assert_eq!(rc, 0, "{err}");
    assert!(ir.contains("define ptx_kernel void @_Z9block_sumPKfPfi") && ir.contains("nvptx64-nvidia-cuda"), "{ir}");
    for (args, want) in [
        (vec!["--backend=llvm", "--emit=nvvm"], "--backend=llvm prints PTX"),
        (vec!["--backend=llvm", "-maxrregcount=32"], "-maxrregcount is not passed"),
        (vec!["--backend=gcc"], "unknown backend"),
    ] {
        let mut a = vec!["compile", &*f];
        a.extend(args);
        let (rc, _, err) = run_cli(&a, "");
        assert_eq!(rc, 2, "{a:?}: {err}");
        assert!(err.contains(want), "{a:?}: {err}");
    }
}

/// The kernels written in upstream MLIR (`tests/upstream/*.mlir`: gpu, memref, arith, scf),
/// imported into cuprite's nvvm level (`cuprite opt --import-upstream`) and compiled by
/// cuprite's pipeline: PTX that ptxas assembles for sm_75/80/90, and that gives every launch
/// the results of the kernel's CUDA twin (`*.cu`, compiled by cuprite without contraction, as
/// the MLIR kernels have none). The same kernels lowered to the llvm dialect by mlir-opt-22
/// first import into the same PTX.
#[test]
fn upstream_gpu_kernels_import_and_compile_with_our_backend() {
    let ptxas = ptxas();
    let dir = std::env::temp_dir().join(format!("cuprite-upstream-import-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("upstream");
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "mlir")).collect();
    files.sort();
    assert!(files.len() >= 2, "{files:?}");
    for file in &files {
        let f = file.to_string_lossy();
        let stem = file.file_stem().unwrap().to_string_lossy().to_string();
        let ptx = dir.join(format!("{stem}.ptx"));
        let p = ptx.to_string_lossy();
        let mut texts = Vec::new();
        for sm in [75, 80, 90] {
            let (rc, pipeline, err) = run_cli(&["compile", &format!("-arch=sm_{sm}"), "--print-pipeline"], "");
            assert_eq!(rc, 0, "{err}");
            let pipeline = format!("--pass-pipeline={}", pipeline.trim());
            let arch = format!("-arch=sm_{sm}");
            let (rc, _, err) = run_cli(&["opt", &f, "--import-upstream", &pipeline, "--emit=ptx", &arch, "-o", &p], "");
            assert_eq!(rc, 0, "{f}: {err}");
            let text = std::fs::read_to_string(&ptx).unwrap();
            if let Some(tool) = &ptxas {
                assemble(tool, &text, sm, &format!("upstream_{stem}"));
            }
            texts.push(text);
        }
        // sm_90 last: its PTX is in `ptx` for the runs.
        let spec = file.with_extension("toml");
        let spec = spec.to_string_lossy();
        let twin = file.with_extension("cu");
        let (rc, got, err) = run_cli(&["run", "--ptx", &p, "--spec", &spec], "");
        assert_eq!(rc, 0, "{f}: {err}");
        let (rc, want, err) = run_cli(&["run", &twin.to_string_lossy(), "-fmad=false", "--spec", &spec], "");
        assert_eq!(rc, 0, "{f}: {err}");
        assert_eq!(got, want, "{f}: the imported kernel and its CUDA twin give different results");
        // mlir-opt-22's own lowering to the llvm dialect, then the import.
        if let Some(tool) = cuprite_tests::mlir_opt() {
            let lowered = cuprite_tests::run_tool(
                &tool,
                &["--pass-pipeline=builtin.module(gpu.module(convert-scf-to-cf,convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=1},reconcile-unrealized-casts))"],
                &std::fs::read_to_string(file).unwrap(),
            )
            .unwrap_or_else(|e| panic!("{f}: mlir-opt-22: {e}"));
            assert!(lowered.contains("llvm.func") && !lowered.contains("gpu.func"), "{lowered}");
            let (rc, pipeline, _) = run_cli(&["compile", "--print-pipeline"], "");
            assert_eq!(rc, 0);
            let (rc, out, err) =
                run_cli(&["opt", "-", "--import-upstream", &format!("--pass-pipeline={}", pipeline.trim()), "--emit=ptx"], &lowered);
            assert_eq!(rc, 0, "{f} (lowered by mlir-opt-22): {err}");
            assert_eq!(&out, texts.last().unwrap(), "{f}: mlir-opt-22's llvm-dialect form imports into other PTX");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn what_the_import_cannot_take_is_named() {
    // `math.exp` lowers to a call into libdevice (`__nv_expf`), which cuprite does not link.
    let src = r#"module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %x[%c0] : memref<4xf32>
      %e = math.exp %v : f32
      memref.store %e, %x[%c0] : memref<4xf32>
      gpu.return
    }
  }
}"#;
    let (rc, _, err) = run_cli(&["opt", "-", "--import-upstream"], src);
    assert_eq!(rc, 1, "{err}");
    assert!(err.contains("__nv_expf") && err.contains("libdevice"), "{err}");
    // An llvm-dialect op without a counterpart.
    let src = r#"llvm.func @k(%p: !llvm.ptr, %x: f32) attributes {nvvm.kernel} {
  %e = llvm.intr.exp(%x) : (f32) -> f32
  llvm.store %e, %p : f32, !llvm.ptr
  llvm.return
}"#;
    let (rc, _, err) = run_cli(&["opt", "-", "--import-upstream"], src);
    assert_eq!(rc, 1, "{err}");
    assert!(err.contains("llvm.intr.exp") && err.contains("no nvvm counterpart"), "{err}");
    // Text MLIR does not parse: its diagnostic, with the place.
    let (rc, _, err) = run_cli(&["opt", "-", "--import-upstream"], "module { gpu.module @m { gpu.func @k( } }");
    assert_eq!(rc, 1, "{err}");
    assert!(err.contains("MLIR does not parse the module") && err.contains("1:"), "{err}");
}

/// Upstream passes through the bridge print what mlir-opt-22 prints after the same passes,
/// byte for byte, on every standard-dialect file of `ir/custom/`: the module went into MLIR op
/// by op, the passes ran there, and it came back and printed as mlir-opt prints.
#[test]
fn upstream_passes_through_the_bridge_print_what_mlir_opt_prints() {
    let Some(tool) = cuprite_tests::mlir_opt() else { return };
    let dir = cuprite_tests::ir_dir().join("custom");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    let pipelines = [
        "builtin.module(canonicalize,cse)",
        "builtin.module(func.func(loop-invariant-code-motion))",
        "builtin.module(func.func(scf-for-to-while),canonicalize)",
        "builtin.module(symbol-dce,sccp)",
    ];
    let mut runs = 0;
    for file in &files {
        let f = file.to_string_lossy();
        let text = std::fs::read_to_string(file).unwrap();
        for p in pipelines {
            let theirs = cuprite_tests::run_tool(&tool, &[&format!("--pass-pipeline={p}")], &text)
                .unwrap_or_else(|e| panic!("{f}: mlir-opt-22 {p}: {e}"));
            let (rc, ours, err) = run_cli(&["opt", "-", &format!("--mlir-pass-pipeline={p}")], &text);
            assert_eq!(rc, 0, "{f} {p}: {err}");
            assert_eq!(ours, theirs, "{f}: {p} through the bridge prints other text than mlir-opt-22");
            runs += 1;
        }
    }
    assert!(runs >= 40, "{runs}");
}
