//! Agreement with upstream MLIR (mlir-opt-22): what cuprite prints, mlir-opt parses and
//! verifies; and for files mlir-opt generated, mlir-opt reads cuprite's re-print of the file
//! as the same IR (its own print of both is identical text).

use cuprite_tests::{check_roundtrip, context, ir_dir, mlir_opt, parse_verified, run_tool};

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
        let ours = cuprite_ir::print::print_op(&ctx, m, cuprite_ir::print::PrintOptions { generic: true, locations: false });
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
