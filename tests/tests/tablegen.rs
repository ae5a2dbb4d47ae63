//! The tablegen crate on real and broken input:
//! - every malformed `.td` in `tablegen/invalid/` gets a spanned ariadne diagnostic, not a
//!   panic (snapshotted);
//! - every dialect's `ops.td` reads, under `llvm-tblgen-22 --print-records`, as the same
//!   defs with the same field values as cuprite's reader prints (so our files are real
//!   TableGen, and our reader means by them what LLVM's does);
//! - the generated docs (`docs/dialects/`) and IRDL modules (`dialects/irdl/`) are current;
//! - mlir-opt-22 verifies the IRDL modules and, loading one, enforces its constraints.

use cuprite_tablegen::Backend;
use cuprite_tests::{llvm_tblgen, mlir_opt, run_tool};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn include_dirs() -> Vec<PathBuf> {
    vec![root().join("tablegen/include")]
}

fn dialect_tds() -> Vec<(String, PathBuf)> {
    let mut v: Vec<_> = std::fs::read_dir(root().join("dialects/src"))
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            let td = p.join("ops.td");
            td.is_file().then(|| (p.file_name().unwrap().to_string_lossy().to_string(), td))
        })
        .collect();
    v.sort();
    assert!(v.len() >= 6, "expected the dialects' ops.td files");
    v
}

#[test]
fn malformed_td_files_get_spanned_diagnostics() {
    insta::glob!("../tablegen", "invalid/*.td", |path| {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let dirs = include_dirs();
        let rendered = match cuprite_tablegen::generate(path, &dirs, Backend::Rust, &name) {
            Ok(_) => panic!("{name}: expected an error"),
            Err(msg) => msg,
        };
        // A span: ariadne's `╭─[ file:line:col ]` header points into a .td file.
        assert!(rendered.contains(".td:"), "{name}: no span in\n{rendered}");
        let root = root().canonicalize().unwrap().display().to_string();
        insta::assert_snapshot!(rendered.replace(&root, "<root>").replace("tests/../", ""));
    });
}

#[test]
fn dialect_td_files_match_llvm_tblgen() {
    let Some(tool) = llvm_tblgen() else { return };
    for (name, td) in dialect_tds() {
        let rk = cuprite_tablegen::read_file(&td, &include_dirs()).unwrap_or_else(|e| panic!("{name}: {}", e.render()));
        let ours = cuprite_tablegen::record::print_defs(&rk);
        let inc = format!("-I{}", root().join("tablegen/include").display());
        let out = std::process::Command::new(&tool).arg(&inc).arg("--print-records").arg(&td).output().unwrap();
        assert!(out.status.success(), "llvm-tblgen-22 rejects {name}: {}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8_lossy(&out.stdout);
        let defs = text.split("------------- Defs -----------------\n").nth(1).expect("a Defs section");
        if ours != defs {
            let (a, b): (Vec<_>, Vec<_>) = (ours.lines().collect(), defs.lines().collect());
            let i = a.iter().zip(&b).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()));
            panic!("{name}: records differ from llvm-tblgen-22's at line {}:\n  ours:   {:?}\n  theirs: {:?}", i + 1, a.get(i), b.get(i));
        }
    }
}

#[test]
fn generated_docs_and_irdl_are_current() {
    for (name, td) in dialect_tds() {
        let source = format!("dialects/src/{name}/ops.td");
        for (backend, path) in
            [(Backend::Docs, format!("docs/dialects/{name}.md")), (Backend::Irdl, format!("dialects/irdl/{name}.irdl.mlir"))]
        {
            let generated = cuprite_tablegen::generate(&td, &include_dirs(), backend, &source).unwrap();
            let checked_in = std::fs::read_to_string(root().join(&path)).unwrap_or_default();
            assert!(generated == checked_in, "{path} is stale: run scripts/gen-dialects.sh");
        }
    }
}

#[test]
fn mlir_opt_loads_the_irdl_modules() {
    let Some(tool) = mlir_opt() else { return };
    for (name, _) in dialect_tds() {
        let text = std::fs::read_to_string(root().join(format!("dialects/irdl/{name}.irdl.mlir"))).unwrap();
        run_tool(&tool, &[], &text).unwrap_or_else(|e| panic!("mlir-opt-22 rejects the IRDL of {name}: {e}"));
    }
    // Loaded under another name (upstream's arith is already registered), the IRDL dialect
    // accepts well-typed ops and rejects an operand its constraint excludes.
    let irdl = std::fs::read_to_string(root().join("dialects/irdl/arith.irdl.mlir"))
        .unwrap()
        .replace("irdl.dialect @arith", "irdl.dialect @cuprite_arith");
    let dir = std::env::temp_dir().join(format!("cuprite-irdl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let irdl_path = dir.join("arith.irdl.mlir");
    std::fs::write(&irdl_path, irdl).unwrap();
    let flag = format!("--irdl-file={}", irdl_path.display());
    let good = "func.func @f(%a: i32, %b: i32, %x: f32) -> i1 {\n  %0 = \"cuprite_arith.addi\"(%a, %b) : (i32, i32) -> i32\n  %1 = \"cuprite_arith.cmpi\"(%0, %b) {predicate = 2 : i64} : (i32, i32) -> i1\n  %2 = \"cuprite_arith.addf\"(%x, %x) : (f32, f32) -> f32\n  return %1 : i1\n}\n";
    run_tool(&tool, &[&flag], good).unwrap_or_else(|e| panic!("the loaded IRDL dialect rejects valid ops: {e}"));
    let bad = good.replace("\"cuprite_arith.addi\"(%a, %b) : (i32, i32)", "\"cuprite_arith.addi\"(%a, %x) : (i32, f32)");
    let err = run_tool(&tool, &[&flag], &bad).expect_err("an f32 operand of addi must be rejected");
    assert!(err.contains("does not satisfy the constraint"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fuzz_regressions_get_diagnostics() {
    // Inputs the `parse_td` fuzz target once failed on: they must read (or fail with a
    // diagnostic that renders) and go through the backends without a panic
    // (`nel_indent_in_description.td`: a description line indented with U+0085).
    let dir = root().join("fuzz/regressions/parse_td");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let path = e.unwrap().path();
        let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
        match cuprite_tablegen::read_str(&path, &text, &include_dirs()) {
            // As the fuzz target: records printed, and all three backends on a model.
            Ok(rk) => {
                let _ = cuprite_tablegen::record::print_defs(&rk);
                match cuprite_tablegen::ods::build(&rk) {
                    Ok(model) => {
                        let _ = cuprite_tablegen::rust_gen::generate(&model, "fuzz.td");
                        let _ = cuprite_tablegen::docs::generate(&model, "fuzz.td");
                        let _ = cuprite_tablegen::irdl::generate(&model, "fuzz.td");
                    }
                    Err(d) => assert!(!d.render(&rk.sources).is_empty()),
                }
            }
            Err(e) => assert!(!e.render().is_empty()),
        }
        n += 1;
    }
    assert!(n >= 1);
}
