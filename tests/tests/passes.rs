//! Pass tests: each file in `ir/passes/` starts with `// RUN: <cuprite opt arguments>`
//! (split at spaces, except inside single quotes, as a shell does); the command runs on the
//! file and its stdout, stderr and exit code are snapshotted. Only a file whose name says it
//! (`bad`, `disabled`: an error is what it tests) may fail.

use cuprite_tests::run_cli;

#[test]
fn pass_corpus() {
    insta::glob!("../ir", "passes/*.mlir", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        let run = text.lines().next().and_then(|l| l.strip_prefix("// RUN: ")).expect("first line must be `// RUN: <args>`");
        let words = shell_words(run);
        let mut args = vec!["opt", "-"];
        args.extend(words.iter().map(String::as_str));
        let (code, out, err) = run_cli(&args, &text);
        let name = path.file_name().unwrap().to_string_lossy();
        assert!(code == 0 || name.contains("bad") || name.contains("disabled"), "{name}: `cuprite opt {run}` fails:\n{err}");
        insta::assert_snapshot!(format!("// RUN: {run}\n// exit: {code}\n{out}// stderr:\n{err}\n"));
    });
}

/// `s` split at spaces, except inside single quotes (which are removed).
fn shell_words(s: &str) -> Vec<String> {
    let (mut words, mut cur, mut quoted, mut any) = (Vec::new(), String::new(), false, false);
    for c in s.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    words.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            c => {
                cur.push(c);
                any = true;
            }
        }
    }
    if any {
        words.push(cur);
    }
    words
}
