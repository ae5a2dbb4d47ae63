//! The pass manager: textual pipelines, nesting, parallel execution equal to sequential,
//! analysis caching and invalidation, instrumentation.

use cuprite_ir::{
    dominance::DominanceInfo,
    parse::parse_module,
    pass::{parse_pipeline, run_pipeline, AnalysisManager, Pass, PassOptions, PassRegistry, PassState, Preserved},
    print::{print_op, PrintOptions},
    Context, OpId,
};
use cuprite_tests::{context, run_cli};
use std::sync::atomic::{AtomicU64, Ordering};

fn many_functions(n: usize) -> String {
    let mut s = String::new();
    for i in 0..n {
        s.push_str(&format!(
            "\"func.func\"() <{{function_type = (i32) -> i32, sym_name = \"f{i}\"}}> ({{\n^bb0(%x: i32):\n  %c = \"arith.constant\"() <{{value = {i} : i32}}> : () -> i32\n  %z = \"arith.constant\"() <{{value = 0 : i32}}> : () -> i32\n  %a = \"arith.addi\"(%x, %c) <{{overflowFlags = #arith.overflow<none>}}> : (i32, i32) -> i32\n  %b = \"arith.addi\"(%x, %c) <{{overflowFlags = #arith.overflow<none>}}> : (i32, i32) -> i32\n  %d = \"arith.muli\"(%a, %b) <{{overflowFlags = #arith.overflow<none>}}> : (i32, i32) -> i32\n  %e = \"arith.addi\"(%d, %z) <{{overflowFlags = #arith.overflow<none>}}> : (i32, i32) -> i32\n  \"func.return\"(%e) : (i32) -> ()\n}}) : () -> ()\n"
        ));
    }
    s
}

#[test]
fn pipeline_text_round_trips() {
    let reg = cuprite_dialects::passes();
    for text in ["builtin.module(func.func(canonicalize,cse),symbol-dce)", "builtin.module(any(cse),inline)"] {
        let pm = parse_pipeline(text, "builtin.module", &reg).unwrap();
        assert_eq!(pm.to_text(), text);
    }
    // Without an anchor the passes run on the root.
    let pm = parse_pipeline("canonicalize, cse", "builtin.module", &reg).unwrap();
    assert_eq!(pm.to_text(), "builtin.module(canonicalize,cse)");
    for (bad, msg) in [
        ("builtin.module(func.func(cse)", "expected ')'"),
        ("builtin.module(frobnicate)", "does not refer to a registered pass"),
        ("cse{bogus=1}", "has no option 'bogus'"),
        ("cse)", "unexpected ')'"),
    ] {
        let e = parse_pipeline(bad, "builtin.module", &reg).err().unwrap_or_else(|| panic!("{bad} accepted"));
        assert!(e.message.contains(msg), "{bad}: {}", e.message);
    }
}

#[test]
fn parallel_execution_matches_sequential() {
    let text = many_functions(64);
    let reg = cuprite_dialects::passes();
    let mut outputs = Vec::new();
    for threading in [false, true] {
        let mut ctx = context(false);
        let m = parse_module(&mut ctx, &text, "many.mlir").unwrap();
        let pm = parse_pipeline("builtin.module(func.func(canonicalize,cse))", "builtin.module", &reg).unwrap();
        let opts = PassOptions { threading, verify_each: true, print_after_all: true, ..Default::default() };
        let out = run_pipeline(&mut ctx, m, &pm, &opts, None).unwrap_or_else(|_| panic!("pipeline failed"));
        outputs.push((print_op(&ctx, m, PrintOptions { generic: true, locations: true, ..Default::default() }), out.dumps));
    }
    assert_eq!(outputs[0].0, outputs[1].0, "same IR");
    assert_eq!(outputs[0].1, outputs[1].1, "same dumps, same order");
    assert!(!outputs[0].0.contains("arith.constant\"() <{value = 0 : i32}>"));
}

static COMPUTED: AtomicU64 = AtomicU64::new(0);

/// Asks for dominance twice; reports whether it was cached on entry.
struct UsesDominance {
    name: &'static str,
    preserve: bool,
    change: bool,
}
impl Pass for UsesDominance {
    fn name(&self) -> &str {
        self.name
    }
    fn run(&self, ctx: &mut Context, op: OpId, st: &mut PassState<'_>) -> Result<(), cuprite_ir::pass::PassFailure> {
        let before = st.analyses.computed;
        st.analyses.get::<DominanceInfo>(ctx, op);
        st.analyses.get::<DominanceInfo>(ctx, op);
        COMPUTED.fetch_add(st.analyses.computed - before, Ordering::SeqCst);
        if self.change {
            let a = ctx.unit_attr();
            ctx.set_attr(op, "demo.touched", a);
        }
        st.preserved = if self.preserve { Preserved::Some(vec![std::any::TypeId::of::<DominanceInfo>()]) } else { Preserved::None };
        Ok(())
    }
}

#[test]
fn analyses_are_cached_until_invalidated() {
    let mut reg = PassRegistry::new();
    reg.register("keep", "", |_| Ok(Box::new(UsesDominance { name: "keep", preserve: true, change: false })));
    reg.register("clobber", "", |_| Ok(Box::new(UsesDominance { name: "clobber", preserve: false, change: true })));
    let mut ctx = context(true);
    let m = parse_module(&mut ctx, &many_functions(1), "a.mlir").unwrap();
    COMPUTED.store(0, Ordering::SeqCst);
    // keep: computes once (second get is a hit) and preserves; keep again: cached;
    // clobber: cached on entry, then invalidates; keep: computes again.
    let pm = parse_pipeline("keep,keep,clobber,keep", "builtin.module", &reg).unwrap();
    run_pipeline(&mut ctx, m, &pm, &PassOptions::default(), None).unwrap_or_else(|_| panic!("failed"));
    assert_eq!(COMPUTED.load(Ordering::SeqCst), 2);
    let mut am = AnalysisManager::default();
    am.get::<DominanceInfo>(&ctx, m);
    am.get::<DominanceInfo>(&ctx, m);
    assert_eq!((am.computed, am.hits), (1, 1));
    am.invalidate(&Preserved::None);
    assert!(!am.is_cached::<DominanceInfo>(m));
}

#[test]
fn cli_flags_and_errors() {
    let text = many_functions(2);
    let (code, out, err) = run_cli(&["opt", "-", "--canonicalize", "--cse", "--timing", "--verify-each"], &text);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("module {"));
    for phase in ["Execution time report", "Parser", "canonicalize", "cse", "Output", "Total"] {
        assert!(err.contains(phase), "timing report lacks {phase}:\n{err}");
    }
    let (code, _, err) = run_cli(&["opt", "-", "--print-ir-before=cse", "--print-ir-after=canonicalize", "--canonicalize", "--cse"], &text);
    assert_eq!(code, 0);
    assert!(err.contains("IR Dump Before cse") && err.contains("IR Dump After canonicalize") && !err.contains("IR Dump After cse"));
    let (code, _, err) = run_cli(&["opt", "-", "--frobnicate"], &text);
    assert_eq!(code, 2);
    assert!(err.contains("unknown option '--frobnicate'"));
    let (code, _, err) = run_cli(&["opt", "/no/such/file.mlir"], "");
    assert_eq!(code, 2);
    assert!(err.contains("cannot read /no/such/file.mlir"));
    let (code, out, _) = run_cli(&["opt", "--list-passes"], "");
    assert_eq!(code, 0);
    for p in ["canonicalize", "cse", "dce", "symbol-dce", "inline"] {
        assert!(out.contains(p));
    }
    // A pass anchored on the wrong op is reported, not run.
    let (code, _, err) = run_cli(&["opt", "-", "--pass-pipeline=builtin.module(func.func(builtin.module(cse)))"], &text);
    assert_eq!(code, 0, "no module nested in a function: the nested pipeline runs on nothing\n{err}");
}

#[test]
fn failed_output_does_not_clobber_existing_file() {
    let dir = std::env::temp_dir().join(format!("cuprite-opt-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("out.mlir");
    std::fs::write(&out, "previous contents\n").unwrap();
    let o = out.to_str().unwrap();
    let (code, _, _) = run_cli(&["opt", "-", "-o", o], "\"func.func\"() <{broken");
    assert_eq!(code, 1);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "previous contents\n");
    let (code, _, err) = run_cli(&["opt", "-", "-o", o], &many_functions(1));
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read_to_string(&out).unwrap().starts_with("module {"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn output_to_a_device_writes_through_it() {
    use std::os::unix::fs::FileTypeExt;
    let (code, _, err) = run_cli(&["opt", "-", "-o", "/dev/null"], &many_functions(1));
    assert_eq!(code, 0, "{err}");
    let ft = std::fs::metadata("/dev/null").unwrap().file_type();
    assert!(ft.is_char_device(), "/dev/null must stay a device");
}
