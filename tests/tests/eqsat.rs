//! The `eqsat` pass (lowering/src/eqsat): equality saturation with egg and the greedy
//! driver on the same rules.
//!
//! - on every corpus launch, the nvvm level before the pass and after it (each driver)
//!   gives the same results on the simulator, and the engine rewrites something;
//! - a planted wrong rule (`x / 2 -> x >> 1` for signed `x`) is caught by that comparison;
//! - an adversarial function (a long sum whose permutations commutativity and
//!   associativity explore) stops at the node budget, within its memory, and says so;
//! - `--remarks=eqsat` explains a rewrite at its source line.

use cuprite_lowering::eqsat::{self, rules::Kind, rules::Rule, Driver, EqsatPass, Options};
use cuprite_sim::spec::{compare, LaunchSpec, Output};
use std::path::Path;
use std::sync::Arc;

/// The nvvm level of `file` after the -O3 pipeline without the `eqsat` pass, printed.
fn nvvm_before_eqsat(file: &Path) -> (String, Vec<LaunchSpec>) {
    let opt = cuprite_lowering::transforms::OptFlags { rewrite_driver: Driver::Off, ..Default::default() };
    // Up to the pass: what follows it (canonicalize's strength reduction among others)
    // would do part of its work first.
    cuprite_tests::nvvm_after_pipeline(file, opt, |pipeline| {
        let at = pipeline.find(",eqsat{driver=off}").expect("the pipeline runs eqsat");
        let end = at + pipeline[at..].find(')').expect("nested pipeline");
        format!("{}{}", &pipeline[..at], &pipeline[end..])
    })
}

fn run(ctx: &cuprite_ir::Context, m: cuprite_ir::OpId, l: &LaunchSpec, what: &str) -> Vec<Output> {
    cuprite_tests::run_nvvm(ctx, m, l, what)
}

/// Runs `pass` on the printed nvvm module `text`; the module after it (printed, parsed
/// back and verified) and the pass's statistics.
fn apply(text: &str, pass: EqsatPass, what: &str) -> (cuprite_ir::Context, cuprite_ir::OpId, Vec<(String, u64)>) {
    cuprite_tests::apply_function_pass(text, Box::new(pass), what)
}

fn stat(stats: &[(String, u64)], name: &str) -> u64 {
    stats.iter().filter(|s| s.0 == name).map(|s| s.1).sum()
}

#[test]
fn every_corpus_launch_agrees_before_and_after_each_driver() {
    let (mut runs, mut rewritten, mut greedy_applied, mut fused) = (0, 0, 0, 0);
    for file in cuprite_tests::corpus_files(true) {
        let (text, launches) = nvvm_before_eqsat(&file);
        let name = file.display().to_string();
        let mut ctx = cuprite_tests::context(false);
        let m = cuprite_tests::parse_verified(&mut ctx, &text, &name).unwrap();
        let reference: Vec<Vec<Output>> = launches.iter().map(|l| run(&ctx, m, l, &name)).collect();
        // The two drivers, and equality saturation with float contraction (`floats=true`,
        // within the launch's stated tolerance, as the ptx level is checked).
        for (driver, floats) in [(Driver::Greedy, false), (Driver::Eqsat, false), (Driver::Eqsat, true)] {
            let what = format!("{name} after eqsat{{driver={} floats={floats}}}", driver.name());
            let (c, m2, stats) = apply(&text, EqsatPass::new(Options { driver, floats, ..Default::default() }), &what);
            rewritten += stat(&stats, "values rewritten");
            greedy_applied += stat(&stats, "rules applied");
            fused += stat(&stats, "rule fma-fadd") + stat(&stats, "rule fma-fadd-rhs");
            for (l, want) in launches.iter().zip(&reference) {
                let got = run(&c, m2, l, &what);
                let tol = if floats { l.tolerance_ulp } else { 0 };
                if let Err(e) = compare(want, &got, tol) {
                    panic!("{what}: kernel {} differs from before the pass:\n{e}", l.kernel);
                }
                runs += 1;
            }
        }
    }
    eprintln!("{runs} launches agree; eqsat rewrote {rewritten} values, the greedy driver applied {greedy_applied} rules, {fused} fmas");
    assert!(runs >= 3 * 140, "{runs}");
    assert!(fused >= 20, "{fused}");
    assert!(rewritten >= 20 && greedy_applied >= 20, "{rewritten} {greedy_applied}");
}

/// A kernel whose signed division by two sees negative values.
const HALVES: &str = "tests/ptx/strength.cu";

#[test]
fn a_planted_wrong_rule_is_caught_by_the_simulator() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(HALVES);
    let (text, launches) = nvvm_before_eqsat(&file);
    let launch = launches.iter().find(|l| l.kernel == "_Z5lanesPii").expect("the lanes launch");
    let mut ctx = cuprite_tests::context(false);
    let m = cuprite_tests::parse_verified(&mut ctx, &text, HALVES).unwrap();
    let want = run(&ctx, m, launch, HALVES);
    // `stride / 4` with stride = -37 is -9; an arithmetic shift gives -10.
    let wrong = Rule::parse("planted-sdiv-pow2-to-ashr: (sdiv ?x ?c) => (ashr ?x {log2 ?c}) if (pow2 ?c)", Kind::Simplify).unwrap();
    for driver in [Driver::Greedy, Driver::Eqsat] {
        let mut rules: Vec<Arc<Rule>> = vec![Arc::new(wrong.clone())];
        rules.extend(eqsat::rule_table().iter().cloned());
        let what = format!("{HALVES} with a planted rule ({})", driver.name());
        let (c, m2, stats) = apply(&text, EqsatPass::with_rules(Options { driver, ..Default::default() }, rules), &what);
        assert!(stat(&stats, "rule planted-sdiv-pow2-to-ashr") > 0, "{what}: the planted rule never fired: {stats:?}");
        let got = run(&c, m2, launch, &what);
        assert!(compare(&want, &got, 0).is_err(), "{what}: the simulator did not notice the wrong rule");
        // The table's own rules alone agree.
        let (c, m2, _) = apply(&text, EqsatPass::new(Options { driver, ..Default::default() }), HALVES);
        compare(&want, &run(&c, m2, launch, HALVES), 0).unwrap();
    }
}

#[test]
fn an_adversarial_function_stops_at_the_node_budget() {
    // Sum of 64 distinct loads times small constants, then the sum again shifted: the
    // permutations of the sum (commutativity and associativity) are far more than any
    // budget allows.
    let mut body = String::new();
    let n = 64;
    for i in 0..n {
        body.push_str(&format!("    %l{i} = load %p{} {{align = 4 : i32}} : !llvm.ptr<1> -> i32\n", i % 4));
        body.push_str(&format!("    %m{i} = mul %l{i}, %c{} : i32\n", i % 5));
    }
    body.push_str("    %s0 = add %m0, %m1 : i32\n");
    for i in 2..n {
        body.push_str(&format!("    %s{} = add %s{}, %m{i} : i32\n", i - 1, i - 2));
    }
    let last = n - 2;
    let text = format!(
        "module {{\n  nvvm.func kernel @k(%p0: !llvm.ptr<1>, %p1: !llvm.ptr<1>, %p2: !llvm.ptr<1>, %p3: !llvm.ptr<1>) {{\n    %c0 = constant 3 : i32\n    %c1 = constant 5 : i32\n    %c2 = constant 8 : i32\n    %c3 = constant 12 : i32\n    %c4 = constant 7 : i32\n{body}    store %s{last}, %p0 {{align = 4 : i32}} : i32, !llvm.ptr<1>\n    return\n  }}\n}}\n"
    );
    let started = std::time::Instant::now();
    let nodes = 5_000;
    let (_, _, stats) =
        apply(&text, EqsatPass::new(Options { nodes, iterations: 1_000, all_blocks: true, ..Default::default() }), "adversarial");
    let elapsed = started.elapsed();
    assert_eq!(stat(&stats, "runs stopped by a budget"), 1, "{stats:?}");
    // egg checks the limit between iterations: one iteration may overshoot it, by at most
    // what one round of the rules adds to a graph of the limit's size.
    let largest = stat(&stats, "largest e-graph (nodes)");
    assert!(largest <= 20 * nodes as u64, "{largest} nodes");
    // A hang guard, not a speed target (benchmarks measure speed).
    assert!(elapsed.as_secs() < 60, "{elapsed:?}");
}

#[test]
fn remarks_explain_a_rewrite_at_its_source_line() {
    let dir = std::env::temp_dir().join(format!("cuprite-eqsat-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("k.cu");
    std::fs::write(&f, "__global__ void k(unsigned *out, unsigned n) {\n    unsigned i = threadIdx.x;\n    out[i] = n / 10;\n}\n").unwrap();
    let f = f.to_string_lossy().to_string();
    let (rc, _, err) = cuprite_tests::run_cli(&["compile", &f, "--remarks=eqsat", "-o", "-"], "");
    assert_eq!(rc, 0, "{err}");
    assert!(
        err.contains("k.cu:3:14: remark: eqsat: (udiv:32 v")
            && err.contains(" 10) => (lshr:32 (umulhi:32 v")
            && err.contains(" -858993459) 3)"),
        "{err}"
    );
    assert!(err.contains("rules: udiv-const-to-mulhi"), "{err}");
    let (rc, ptx, err) = cuprite_tests::run_cli(&["compile", &f, "--rewrite-driver=off", "-o", "-"], "");
    assert_eq!(rc, 0, "{err}");
    assert!(ptx.contains("div.u32"), "{ptx}");
    let (rc, _, err) = cuprite_tests::run_cli(&["compile", &f, "--rewrite-driver=sideways"], "");
    assert_eq!(rc, 2, "{err}");
    assert!(err.contains("unknown rewrite driver"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
