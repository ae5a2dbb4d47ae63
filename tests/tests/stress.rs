//! Stress: 10,000 nested regions and a 1,000,000-op block go through parse, verify, print,
//! canonicalize, cse, dce and drop without overflowing the stack (the tests run on the
//! default 2 MiB test thread) and without quadratic behaviour (a quadratic step on a
//! million ops would not finish).

use cuprite_ir::{
    parse::parse_module,
    print::{print_op, PrintOptions},
    rewrite::{
        greedy::{apply_patterns_greedily, GreedyConfig},
        PatternSet,
    },
    transforms::{cse::run_cse, dce::run_dce},
    verify::verify,
    walk::max_depth,
};
use cuprite_tests::context;
use std::fmt::Write;

const DEPTH: usize = 10_000;
const LONG: usize = 1_000_000;

/// `DEPTH` nested generic `builtin.module` ops (isolated, so every level opens a new name
/// scope) with a constant and an add at every level.
fn deep_text() -> String {
    let mut s = String::new();
    for i in 0..DEPTH {
        writeln!(s, "\"builtin.module\"() ({{").unwrap();
        writeln!(s, "%c{i} = \"arith.constant\"() <{{value = {i} : i32}}> : () -> i32").unwrap();
        writeln!(s, "%d{i} = \"arith.addi\"(%c{i}, %c{i}) <{{overflowFlags = #arith.overflow<none>}}> : (i32, i32) -> i32").unwrap();
        writeln!(s, "\"demo.keep\"(%d{i}) : (i32) -> ()").unwrap();
    }
    for _ in 0..DEPTH {
        s.push_str("}) : () -> ()\n");
    }
    s
}

#[test]
fn deep_nesting_does_not_overflow_the_stack() {
    let text = deep_text();
    let mut ctx = context(true);
    let m = parse_module(&mut ctx, &text, "deep.mlir").unwrap();
    assert_eq!(max_depth(&ctx, m), DEPTH);
    verify(&ctx, m, None).unwrap();
    let printed = print_op(&ctx, m, PrintOptions { generic: true, locations: false, ..Default::default() });
    let mut ctx2 = context(true);
    let m2 = parse_module(&mut ctx2, &printed, "deep2.mlir").unwrap();
    assert_eq!(print_op(&ctx2, m2, PrintOptions { generic: true, locations: false, ..Default::default() }), printed);
    // The custom form of builtin.module recurses per level and is depth-limited: it must
    // print, and reparsing reports the limit instead of overflowing.
    let custom = print_op(&ctx, m, PrintOptions::default());
    let mut ctx3 = context(true);
    let err = parse_module(&mut ctx3, &custom, "deep3.mlir").unwrap_err();
    assert!(err.message.contains("nested more than"), "{}", err.message);

    let set = PatternSet::canonicalization(ctx.registry());
    let r = apply_patterns_greedily(&mut ctx, m, &set, &GreedyConfig::default());
    assert!(r.converged() && r.folds >= DEPTH as u64);
    run_cse(&mut ctx, m);
    run_dce(&mut ctx, m);
    verify(&ctx, m, None).unwrap();
    let mut other = context(true);
    let t = cuprite_ir::clone::transplant(&ctx, m, &mut other);
    ctx.erase_op(m);
    drop(ctx);
    drop(other.clone());
    assert_eq!(max_depth(&other, t), DEPTH);
}

/// One function whose body is a single block of `LONG` ops: a chain of adds with
/// duplicated constants, so canonicalize and cse have work on every op.
fn long_text() -> String {
    let mut s = String::with_capacity(LONG * 100);
    s.push_str("\"func.func\"() <{function_type = (i32) -> i32, sym_name = \"long\"}> ({\n^bb0(%arg0: i32):\n");
    let mut last = "%arg0".to_string();
    let mut n = 0;
    let mut i = 0;
    while n + 3 < LONG {
        writeln!(s, "  %k{i} = \"arith.constant\"() <{{value = {} : i32}}> : () -> i32", i % 7).unwrap();
        writeln!(s, "  %a{i} = \"arith.addi\"({last}, %k{i}) <{{overflowFlags = #arith.overflow<none>}}> : (i32, i32) -> i32").unwrap();
        last = format!("%a{i}");
        n += 2;
        i += 1;
    }
    writeln!(s, "  \"func.return\"({last}) : (i32) -> ()\n}}) : () -> ()").unwrap();
    s
}

#[test]
fn million_op_block_is_linear() {
    let text = long_text();
    let mut ctx = context(false);
    let m = parse_module(&mut ctx, &text, "long.mlir").unwrap();
    assert!(ctx.num_ops() >= LONG - 3);
    verify(&ctx, m, None).unwrap();
    let printed = print_op(&ctx, m, PrintOptions { generic: true, locations: false, ..Default::default() });
    assert!(printed.len() > 50 * LONG);
    let copy = {
        let mut c = ctx.clone();
        run_cse(&mut c, m);
        c
    };
    assert!(copy.num_ops() < LONG / 2 + 100, "cse merges the repeated constants");
    let set = PatternSet::canonicalization(ctx.registry());
    let r = apply_patterns_greedily(&mut ctx, m, &set, &GreedyConfig::default());
    assert!(r.converged());
    verify(&ctx, m, None).unwrap();
    // x + 0 + 1 + ... folds into a single add of the sum of the constants.
    assert!(ctx.num_ops() < 10, "{} ops left", ctx.num_ops());
}

/// Verification in parallel (functions taken from a shared counter by every thread) reports
/// the errors of a module as one thread would: every function's, in textual order, after
/// those outside functions.
#[test]
fn parallel_verification_reports_errors_in_textual_order() {
    let funcs = 400;
    let mut s = String::new();
    // An op outside any function, with an error (an operand type that does not match).
    writeln!(s, "%o = \"arith.constant\"() <{{value = 1 : i32}}> : () -> i32").unwrap();
    writeln!(s, "%p = \"arith.addi\"(%o, %o) <{{overflowFlags = #arith.overflow<none>}}> : (i32, i32) -> i64").unwrap();
    for f in 0..funcs {
        writeln!(s, "func.func @f{f}(%a: i32) -> i32 {{").unwrap();
        for i in 0..60 {
            writeln!(s, "  %v{i} = arith.addi %a, %a : i32").unwrap();
        }
        if f % 97 == 3 {
            writeln!(s, "  %bad = \"arith.addi\"(%a, %a) <{{overflowFlags = #arith.overflow<none>}}> : (i32, i32) -> i64").unwrap();
        }
        writeln!(s, "  func.return %a : i32\n}}").unwrap();
    }
    let mut ctx = context(true);
    let m = parse_module(&mut ctx, &s, "par.mlir").unwrap();
    assert!(ctx.num_ops() >= cuprite_ir::verify::PARALLEL_VERIFY_MIN_OPS, "big enough to verify in parallel");
    let errors = verify(&ctx, m, None).unwrap_err();
    let lines: Vec<usize> = errors.iter().map(|e| s[..e.span.as_ref().expect("a located error").lo as usize].lines().count()).collect();
    let bad: Vec<usize> = (0..funcs).filter(|f| f % 97 == 3).collect();
    assert_eq!(errors.len(), 1 + bad.len(), "{errors:?}");
    let mut sorted = lines.clone();
    sorted.sort_unstable();
    assert_eq!(lines, sorted, "errors in textual order");
    assert!(lines[0] < 3 && lines[1..].iter().all(|&l| l > 3), "{lines:?}");

    // With an error in every function, verification stops at MAX_ERRORS: the first ones, in
    // order, the same on every run.
    let all_bad = s.replace(
        "  func.return %a : i32",
        "  %worse = \"arith.addi\"(%a, %a) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i64\n  func.return %a : i32",
    );
    let mut ctx = context(true);
    let m = parse_module(&mut ctx, &all_bad, "par2.mlir").unwrap();
    let runs: Vec<Vec<u32>> =
        (0..4).map(|_| verify(&ctx, m, None).unwrap_err().iter().map(|e| e.span.as_ref().expect("a located error").lo).collect()).collect();
    assert_eq!(runs[0].len(), cuprite_ir::verify::MAX_ERRORS);
    assert!(runs[0].windows(2).all(|w| w[0] < w[1]), "in order");
    assert!(runs.iter().all(|r| *r == runs[0]), "the same on every run");
}
