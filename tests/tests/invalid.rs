//! Invalid IR: every case of every file in `ir/invalid/` (cases split at `// -----`) must be
//! rejected by the parser or the verifier, and the rendered diagnostics are snapshotted.

use cuprite_tests::{context, parse_verified, split_cases};

#[test]
fn invalid_corpus() {
    insta::glob!("../ir", "invalid/*.mlir", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let mut report = String::new();
        for (i, case) in split_cases(&text).iter().enumerate() {
            let allow = !case.contains("// no-unregistered");
            let mut ctx = context(allow);
            match parse_verified(&mut ctx, case, &name) {
                Ok(_) => panic!("{name}: case {i} was accepted:\n{case}"),
                Err(diag) => {
                    report.push_str(&format!("=== case {i}\n{diag}"));
                }
            }
        }
        insta::assert_snapshot!(report);
    });
}
