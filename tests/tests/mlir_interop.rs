//! Agreement with upstream MLIR (mlir-opt-22): what cuprite prints, mlir-opt parses and
//! verifies; and for files mlir-opt generated, mlir-opt reads cuprite's re-print of the file
//! as the same IR (its own print of both is identical text).
//!
//! The cuda level of every corpus file goes through mlir-opt two ways:
//! - with the `cuda` dialect loaded from our IRDL (`dialects/irdl/cuda.irdl.mlir`, printed
//!   `--irdl-compatible`): mlir-opt parses it (types and ops checked against the IRDL) and
//!   prints it back, and cuprite reads that print as the same IR. MLIR 22's IRDL cannot make an
//!   op a terminator, give a variadic group operands of different types, or declare a variadic
//!   number of regions, so its verifier rejects `cuda.if`/`cuda.loop` regions (ending in
//!   `cuda.yield`) and `cuda.switch`: this parse runs without verification. After
//!   `lower-cuda-control-flow` (all terminators upstream's), mlir-opt verifies the IR against
//!   the IRDL and runs canonicalize and cse, and the result lowers with our pipeline to PTX
//!   that gives every launch cuprite's results;
//! - with `cuda` ops unregistered (`--allow-unregistered-dialect`, whose ops MLIR treats
//!   conservatively): upstream verifies the standard dialects' ops and runs `canonicalize`
//!   and `cse`; cuprite reads the result, lowers it with the compiler's pipeline to PTX, and
//!   the PTX runs every launch of the file on the simulator with cuprite's own results.

use cuprite_tests::{check_roundtrip, context, ir_dir, mlir_opt, parse_verified, run_cli, run_tool};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every corpus `.cu` file with a launch spec.
fn corpus_with_specs() -> Vec<PathBuf> {
    cuprite_tests::corpus_files(true)
}

/// The pipeline's steps before the first (`link-math-library`, `convert-scf-to-cf`,
/// `lower-cuda-control-flow`) and the rest, as two module pipelines.
fn split_pipeline(pipeline: &str, first: usize) -> (String, String) {
    let inner = pipeline.trim().strip_prefix("builtin.module(").and_then(|s| s.strip_suffix(')')).expect("a module pipeline");
    let steps = cuprite_lowering::passes::split_top_level(inner);
    assert!(steps[first - 1].starts_with("lower-cuda-control-flow"), "{steps:?}");
    (format!("builtin.module({})", steps[..first].join(",")), format!("builtin.module({})", steps[first..].join(",")))
}

#[test]
fn mlir_opt_reads_the_cuda_level_of_every_corpus_file_with_our_irdl() {
    let Some(tool) = mlir_opt() else { return };
    let irdl = root().join("dialects/irdl/cuda.irdl.mlir");
    let irdl_flag = format!("--irdl-file={}", irdl.display());
    let dir = std::env::temp_dir().join(format!("cuprite-irdl-corpus-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut verified = 0;
    let files = corpus_with_specs();
    for file in &files {
        let f = file.to_string_lossy();
        let spec = file.with_extension("toml");
        let spec = spec.to_string_lossy();
        let (rc, cuda, err) = run_cli(&["compile", &f, "--emit=cuda"], "");
        assert_eq!(rc, 0, "{f}: {err}");
        // The cuda level as the frontend writes it: parsed (types checked against the
        // IRDL's `irdl.type`s, ops against its op list) and printed back unchanged.
        let (rc, portable, err) = run_cli(&["opt", "-", "--irdl-compatible"], &cuda);
        assert_eq!(rc, 0, "{f}: {err}");
        let back = run_tool(&tool, &[&irdl_flag, "--mlir-very-unsafe-disable-verifier-on-parsing", "--mlir-print-op-generic"], &portable)
            .unwrap_or_else(|e| panic!("{f}: mlir-opt-22 with the cuda IRDL rejects the cuda level:\n{e}"));
        let (rc, ours, err) = run_cli(&["opt", "-"], &back);
        assert_eq!(rc, 0, "{f}: cuprite does not read mlir-opt's print back:\n{err}");
        let (_, want, _) = run_cli(&["opt", "-"], &cuda);
        assert_eq!(ours, want, "{f}: the IR changed on its way through mlir-opt");
        // Once its constructs are CFGs (every terminator is then upstream's: func.return,
        // cf branches, ub.unreachable), MLIR verifies it against the IRDL and runs
        // canonicalize and cse; the result lowers through the rest of our pipeline to PTX
        // that gives every launch the results cuprite's own PTX gives.
        let (rc, pipeline, err) = run_cli(&["compile", &f, "--print-pipeline"], "");
        assert_eq!(rc, 0, "{f}: {err}");
        let (front, rest) = split_pipeline(&pipeline, 3);
        let (rc, cfg, err) = run_cli(&["opt", "-", &format!("--pass-pipeline={front}"), "--irdl-compatible"], &cuda);
        assert_eq!(rc, 0, "{f}: {err}");
        let canon = run_tool(&tool, &[&irdl_flag, "--canonicalize", "--cse", "--mlir-print-op-generic"], &cfg)
            .unwrap_or_else(|e| panic!("{f}: mlir-opt-22 with the cuda IRDL does not verify the cuda level after {front}:\n{e}"));
        let ptx = dir.join("irdl.ptx");
        let (rc, _, err) = run_cli(&["opt", "-", &format!("--pass-pipeline={rest}"), "--emit=ptx", "-o", &ptx.to_string_lossy()], &canon);
        assert_eq!(rc, 0, "{f}: cuprite does not lower upstream's canonicalized IR:\n{err}");
        let (rc, got, err) = run_cli(&["run", "--ptx", &ptx.to_string_lossy(), "--spec", &spec], "");
        assert_eq!(rc, 0, "{f}: {err}");
        let (rc, want, err) = run_cli(&["run", &f, "--spec", &spec], "");
        assert_eq!(rc, 0, "{f}: {err}");
        assert_eq!(got, want, "{f}: a launch's results changed through mlir-opt with the cuda IRDL");
        verified += 1;
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("{verified} corpus files verified by MLIR with the cuda IRDL");
    assert!(verified == files.len() && verified >= 20, "{verified} of {} verified", files.len());
}

#[test]
fn upstream_canonicalize_and_cse_on_the_cuda_level_keep_every_launch_result() {
    let Some(tool) = mlir_opt() else { return };
    let dir = std::env::temp_dir().join(format!("cuprite-upstream-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut launches = 0;
    for file in corpus_with_specs() {
        let f = file.to_string_lossy();
        let spec = file.with_extension("toml");
        let spec = spec.to_string_lossy();
        let (rc, pipeline, err) = run_cli(&["compile", &f, "--print-pipeline"], "");
        assert_eq!(rc, 0, "{f}: {err}");
        let (rc, cuda, err) = run_cli(&["compile", &f, "--emit=cuda"], "");
        assert_eq!(rc, 0, "{f}: {err}");
        let (rc, generic, err) = run_cli(&["opt", "-", "--generic"], &cuda);
        assert_eq!(rc, 0, "{f}: {err}");
        let canon = run_tool(&tool, &["--allow-unregistered-dialect", "--canonicalize", "--cse", "--mlir-print-op-generic"], &generic)
            .unwrap_or_else(|e| panic!("{f}: mlir-opt-22 --canonicalize --cse fails on the cuda level:\n{e}"));
        let ptx = dir.join("upstream.ptx");
        let (rc, _, err) =
            run_cli(&["opt", "-", &format!("--pass-pipeline={}", pipeline.trim()), "--emit=ptx", "-o", &ptx.to_string_lossy()], &canon);
        assert_eq!(rc, 0, "{f}: cuprite does not lower upstream's canonicalized cuda level:\n{err}");
        let (rc, got, err) = run_cli(&["run", "--ptx", &ptx.to_string_lossy(), "--spec", &spec], "");
        assert_eq!(rc, 0, "{f}: {err}");
        let (rc, want, err) = run_cli(&["run", &f, "--spec", &spec], "");
        assert_eq!(rc, 0, "{f}: {err}");
        assert_eq!(got, want, "{f}: upstream canonicalize+cse changed a launch's results");
        launches += want.matches("kernel").count().max(1);
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(launches >= 30, "{launches}");
}

#[test]
fn mlir_opt_accepts_cuprite_output() {
    let Some(tool) = mlir_opt() else { return };
    let mut checked = 0;
    for sub in ["mlir-generated", "roundtrip", "passes"] {
        for e in std::fs::read_dir(ir_dir().join(sub)).unwrap() {
            let path = e.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            let printed = check_roundtrip(&text, &name, true).unwrap_or_else(|e| panic!("{name}: {e}"));
            let mut ctx = context(true);
            let m = parse_verified(&mut ctx, &text, &name).unwrap();
            for mode in cuprite_tests::PRINT_MODES {
                // Upstream MLIR has no cuda dialect and an nvvm dialect of another shape:
                // it reads our ops in generic form only.
                if !mode.generic && (text.contains("cuda.") || text.contains("nvvm.")) {
                    continue;
                }
                let s = cuprite_ir::print::print_op(&ctx, m, mode);
                if let Err(e) = run_tool(&tool, &["--allow-unregistered-dialect"], &s) {
                    panic!("mlir-opt-22 rejects cuprite's print of {name} ({mode:?}):\n{e}\n{s}");
                }
            }
            let _ = printed;
            checked += 1;
        }
    }
    assert!(checked >= 10);
}

#[test]
fn mlir_opt_sees_the_same_ir() {
    let Some(tool) = mlir_opt() else { return };
    for e in std::fs::read_dir(ir_dir().join("mlir-generated")).unwrap() {
        let path = e.unwrap().path();
        let original = std::fs::read_to_string(&path).unwrap();
        let mut ctx = context(false);
        let m = parse_verified(&mut ctx, &original, "x.mlir").unwrap();
        let ours = cuprite_ir::print::print_op(&ctx, m, cuprite_ir::print::PrintOptions { generic: true, ..Default::default() });
        let a = run_tool(&tool, &["--mlir-print-op-generic"], &original).unwrap();
        let b = run_tool(&tool, &["--mlir-print-op-generic"], &ours).unwrap();
        assert_eq!(a, b, "{}: mlir-opt reads cuprite's print differently", path.display());
    }
}

#[test]
fn canonicalize_and_cse_agree_with_mlir_opt_on_constants() {
    // Folding must agree with upstream: canonicalize + cse every generated file with both
    // tools, read both results with cuprite, and compare the constants each function ends
    // with (as cuprite prints them, so that float spelling does not matter) and the number
    // of ops left.
    let Some(tool) = mlir_opt() else { return };
    for e in std::fs::read_dir(ir_dir().join("mlir-generated")).unwrap() {
        let path = e.unwrap().path();
        let original = std::fs::read_to_string(&path).unwrap();
        let theirs = run_tool(&tool, &["--canonicalize", "--cse", "--mlir-print-op-generic"], &original).unwrap();
        let (code, ours, err) = cuprite_tests::run_cli(&["opt", "-", "--canonicalize", "--cse", "--generic"], &original);
        assert_eq!(code, 0, "{err}");
        let summary = |text: &str| {
            let mut ctx = context(false);
            let m = parse_verified(&mut ctx, text, "x.mlir").unwrap();
            let ops = cuprite_ir::walk::collect_preorder(&ctx, m);
            let mut consts: Vec<String> = ops
                .iter()
                .filter(|&&o| ctx.is_op(o, "arith.constant"))
                .map(|&o| cuprite_ir::print::attr_to_string(&ctx, ctx.get_attr(o, "value").unwrap()))
                .collect();
            consts.sort();
            (consts, ops.len())
        };
        assert_eq!(summary(&ours), summary(&theirs), "{}\nours:\n{ours}\ntheirs:\n{theirs}", path.display());
    }
}
