//! Pass tests: each file in `ir/passes/` starts with `// RUN: <cuprite opt arguments>`; the
//! command runs on the file and its stdout, stderr and exit code are snapshotted.

use cuprite_tests::run_cli;

#[test]
fn pass_corpus() {
    insta::glob!("../ir", "passes/*.mlir", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        let run = text.lines().next().and_then(|l| l.strip_prefix("// RUN: ")).expect("first line must be `// RUN: <args>`");
        let mut args = vec!["opt", "-"];
        args.extend(run.split_whitespace());
        let (code, out, err) = run_cli(&args, &text);
        insta::assert_snapshot!(format!("// RUN: {run}\n// exit: {code}\n{out}// stderr:\n{err}\n"));
    });
}
