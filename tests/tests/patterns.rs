//! The pattern-based conversions: every pattern is listed, each can be disabled, and an op
//! left without an enabled pattern is a diagnostic at its source location that names the
//! op, the pass and the disabled pattern (never a panic or a silent drop).

use cuprite_tests::run_cli;

/// The pass test of pass `pass`: an IR file with at least one op of every root of its
/// patterns (`tests/ir/passes/convert_arith_to_nvvm.mlir` for `convert-arith-to-nvvm`).
fn every_op(pass: &str) -> (String, String) {
    let path = format!("../tests/ir/passes/{}.mlir", pass.replace('-', "_"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    (path, text)
}

/// Whether `line` of an IR file holds an op named `root` (written with its dialect prefix).
fn holds(line: &str, root: &str) -> bool {
    let t = line.trim();
    t == root || t.starts_with(&format!("{root} ")) || line.contains(&format!("= {root} "))
}

/// The pattern-based passes.
fn passes() -> Vec<&'static str> {
    let mut v: Vec<&str> = cuprite_lowering::conversions::all_patterns().iter().map(|p| p.pass).collect();
    v.dedup();
    v
}

/// The ops that cannot be converted without pattern `name`: with the function's signature
/// not converted, a return of a struct has no sret pointer to store through.
fn also_fails(name: &str) -> &'static [&'static str] {
    match name {
        "func-to-nvvm-func" => &["func.return"],
        _ => &[],
    }
}

#[test]
fn every_pattern_is_listed_with_its_root_and_benefit() {
    let (code, out, err) = run_cli(&["opt", "--list-patterns"], "");
    assert_eq!(code, 0, "{err}");
    let patterns = cuprite_lowering::conversions::all_patterns();
    assert!(patterns.len() >= 35, "{} patterns", patterns.len());
    for p in &patterns {
        let line =
            out.lines().find(|l| l.split_whitespace().next() == Some(p.name)).unwrap_or_else(|| panic!("{} not listed:\n{out}", p.name));
        assert!(line.contains(p.root) && line.contains(&format!("benefit {}", p.benefit)), "{line}");
    }
    let mut names: Vec<&str> = patterns.iter().map(|p| p.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), patterns.len(), "pattern names are unique");
}

#[test]
fn with_every_pattern_each_conversion_leaves_none_of_its_roots() {
    for pass in passes() {
        let (path, text) = every_op(pass);
        let (code, out, err) = run_cli(&["opt", "-", &format!("--{pass}"), "--generic"], &text);
        assert_eq!(code, 0, "{pass}: {err}");
        for p in cuprite_lowering::conversions::all_patterns().into_iter().filter(|p| p.pass == pass) {
            // Every pattern's root occurs in the input (so the next test disables each for
            // real), and none is left.
            assert!(text.lines().any(|l| holds(l, p.root)), "{} has no {} in {path}", p.name, p.root);
            assert!(!out.contains(&format!("\"{}\"", p.root)), "{pass} left a {}:\n{out}", p.root);
        }
    }
}

#[test]
fn disabling_each_pattern_in_turn_is_an_error_at_its_ops() {
    for p in cuprite_lowering::conversions::all_patterns() {
        let (_, text) = every_op(p.pass);
        let flag = format!("--disable-patterns={}", p.name);
        if p.optional {
            // An optimization (a selection fusion): its ops are still converted, by the
            // patterns of lower benefit, into other code.
            let (code, with, err) = run_cli(&["opt", "-", &format!("--{}", p.pass), "--pass-statistics"], &text);
            assert_eq!(code, 0, "{err}");
            assert!(err.contains(&format!("pattern {} applied", p.name)), "{}: no statistics in:\n{err}", p.name);
            // `(      5) pattern isel-mad applied`
            let applied: u64 = err
                .lines()
                .find(|l| l.ends_with(&format!("pattern {} applied", p.name)))
                .and_then(|l| l.split(['(', ')']).nth(1)?.trim().parse().ok())
                .unwrap_or(0);
            assert!(applied > 0, "{} never applies to the {} test input", p.name, p.pass);
            let (code, without, err) = run_cli(&["opt", "-", &format!("--{}", p.pass), &flag], &text);
            assert_eq!(code, 0, "{}: disabling an optional pattern fails:\n{err}", p.name);
            assert_ne!(with, without, "{}: disabling it changes nothing", p.name);
            continue;
        }
        let (code, out, err) = run_cli(&["opt", "-", &format!("--{}", p.pass), &flag], &text);
        assert_eq!(code, 1, "{}: exit {code}\n{out}{err}", p.name);
        assert!(out.is_empty(), "{}: no IR is printed after a failed pass:\n{out}", p.name);
        assert!(!err.contains("panicked"), "{err}");
        let msg = format!("failed to legalize operation '{}'", p.root);
        assert!(err.contains(&msg), "{}: expected '{msg}' in:\n{err}", p.name);
        assert!(err.contains(&format!("in pass '{}', with pattern(s) {} disabled", p.pass, p.name)), "{}:\n{err}", p.name);
        // At the lines of ops with that root in the input (or of the ops that depend on it).
        let dependent = also_fails(p.name);
        let lines: Vec<&str> = text.lines().collect();
        let at: Vec<usize> = err.split("<stdin>:").skip(1).filter_map(|r| r.split(':').next()?.parse().ok()).collect();
        assert!(!at.is_empty(), "{}: no location in:\n{err}", p.name);
        for l in at {
            let ok = holds(lines[l - 1], p.root) || dependent.iter().any(|d| holds(lines[l - 1], d));
            assert!(ok, "{}: line {l} is not a {}:\n{err}", p.name, p.root);
        }
        // Only that pattern's ops fail: any other op converted.
        let others = err
            .lines()
            .filter(|l| l.contains("failed to legalize operation") && !l.contains(&msg))
            .filter(|l| !dependent.iter().any(|d| l.contains(&format!("'{d}'"))))
            .count();
        assert_eq!(others, 0, "{}:\n{err}", p.name);
    }
}

#[test]
fn compile_reports_a_disabled_pattern_at_the_cuda_source() {
    let (code, out, err) = run_cli(&["compile", "../tests/ptx/reduce.cu", "--disable-patterns=arith-addf-to-nvvm", "-o", "-"], "");
    assert_ne!(code, 0);
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("failed to legalize operation 'arith.addf'"), "{err}");
    assert!(err.contains("reduce.cu:"), "the error points into the CUDA source:\n{err}");
    assert!(err.contains("in pass 'convert-arith-to-nvvm', with pattern(s) arith-addf-to-nvvm disabled"), "{err}");
    // A selection pattern, in the per-function threaded selector and in the pass.
    for threads in ["-j0", "-j1"] {
        let (code, out, err) = run_cli(&["compile", "../tests/ptx/reduce.cu", "--disable-patterns=isel-shfl", threads, "-o", "-"], "");
        assert_ne!(code, 0, "{threads}");
        assert!(out.is_empty(), "{out}");
        assert!(err.contains("failed to legalize operation 'nvvm.shfl'") && err.contains("reduce.cu:"), "{threads}: {err}");
        assert!(err.contains("in pass 'convert-nvvm-to-ptx', with pattern(s) isel-shfl disabled"), "{threads}: {err}");
    }
    // A fusion disabled: the same program, other instructions.
    let (code, with, err) = run_cli(&["compile", "../tests/ptx/matmul.cu", "-o", "-"], "");
    assert_eq!(code, 0, "{err}");
    let (code, without, err) = run_cli(&["compile", "../tests/ptx/matmul.cu", "--disable-patterns=isel-fma-fadd", "-o", "-"], "");
    assert_eq!(code, 0, "{err}");
    assert!(with.contains("fma.rn.f32") && !without.contains("fma.rn.f32"), "{without}");
    let (code, _, err) = run_cli(&["compile", "../tests/ptx/reduce.cu", "--disable-patterns=no-such-pattern"], "");
    assert_eq!(code, 2);
    assert!(err.contains("unknown pattern 'no-such-pattern'"), "{err}");
}
