//! Passes on the benchmark generator's modules (20,000 ops, dense with folds, dead code and
//! duplicates): canonicalize and cse leave valid IR (verified after each pass),
//! canonicalize reaches a fixpoint, and cse agrees with mlir-opt-22 on what is left.

use cuprite_tests::{mlir_opt, run_cli};

fn module(ops: usize, seed: u64) -> String {
    let mut out = Vec::new();
    cuprite_bench::generate(&mut out, ops, ops / 1000, seed).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn canonicalize_and_cse_keep_generated_modules_valid() {
    for seed in 1..=3 {
        let text = module(20_000, seed);
        let (code, once, err) = run_cli(&["opt", "-", "--canonicalize", "--cse", "--verify-each", "--generic"], &text);
        assert_eq!(code, 0, "seed {seed}: {err}");
        // Canonicalize reaches a fixpoint: running it on its own output changes nothing.
        let (code, canon, err) = run_cli(&["opt", "-", "--canonicalize", "--generic"], &text);
        assert_eq!(code, 0, "seed {seed}: {err}");
        let (code, again, err) = run_cli(&["opt", "-", "--canonicalize", "--generic"], &canon);
        assert_eq!(code, 0, "seed {seed}: {err}");
        assert!(canon == again, "seed {seed}: canonicalize did not reach a fixpoint");
        assert!(once.len() < text.len() / 2, "seed {seed}: most of the generated work folds away");
    }
}

#[test]
fn cse_agrees_with_mlir_opt_on_generated_modules() {
    let Some(tool) = mlir_opt() else { return };
    let text = module(20_000, 7);
    let dir = std::env::temp_dir().join(format!("cuprite-gen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("in.mlir");
    std::fs::write(&f, &text).unwrap();
    let theirs = std::process::Command::new(tool).args(["--cse", "--mlir-print-op-generic"]).arg(&f).output().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(theirs.status.success());
    let (code, ours, err) = run_cli(&["opt", "-", "--cse", "--generic"], &text);
    assert_eq!(code, 0, "{err}");
    let count = |s: &str| s.lines().filter(|l| l.contains("= \"") || l.trim_start().starts_with('"')).count();
    assert_eq!(count(&ours), count(&String::from_utf8_lossy(&theirs.stdout)), "cse leaves as many ops as mlir-opt's");
}
