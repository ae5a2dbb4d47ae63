//! Frontend tests: each file in `frontend/pp/` (preprocessor), `frontend/parse/` (parser)
//! and `frontend/sema/` (semantic analysis and the cuda dialect) starts with
//! `// RUN: <cuprite compile arguments>`; `cuprite compile <args> <file>` runs and its
//! output, diagnostics and exit code are snapshotted. The cuda dialect modules sema emits
//! must also round-trip through the IR parser and verifier.

use cuprite_tests::run_cli;

fn run_file(path: &std::path::Path, dir: &str) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let run = text.lines().next().and_then(|l| l.strip_prefix("// RUN: ")).expect("first line must be `// RUN: <args>`");
    let rel = format!("frontend/{dir}/{}", path.file_name().unwrap().to_string_lossy());
    let mut args = vec!["compile"];
    args.extend(run.split_whitespace());
    args.push(&rel);
    let (code, out, err) = run_cli(&args, "");
    format!("// RUN: {run}\n// exit: {code}\n{out}// stderr:\n{err}\n")
}

#[test]
fn parser_corpus() {
    insta::glob!("../frontend", "parse/*.cu", |path| {
        insta::assert_snapshot!(run_file(path, "parse"));
    });
}

#[test]
fn sema_corpus() {
    insta::glob!("../frontend", "sema/*.cu", |path| {
        let snap = run_file(path, "sema");
        if snap.contains("// exit: 0\nmodule") {
            let ir = snap.split_once("// exit: 0\n").unwrap().1.split_once("// stderr:").unwrap().0;
            if let Err(e) = cuprite_tests::check_roundtrip(ir, "sema.mlir", false) {
                panic!("{}: the emitted IR does not round-trip: {e}", path.display());
            }
        }
        insta::assert_snapshot!(snap);
    });
}

#[test]
fn preprocessor_corpus() {
    insta::glob!("../frontend", "pp/*.cu", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        // (after a UTF-8 byte order mark, which a file may start with)
        let run = text
            .trim_start_matches('\u{feff}')
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("// RUN: "))
            .expect("first line must be `// RUN: <args>`");
        let rel = format!("frontend/pp/{}", path.file_name().unwrap().to_string_lossy());
        let mut args = vec!["compile"];
        args.extend(run.split_whitespace());
        args.push(&rel);
        let (code, out, err) = run_cli(&args, "");
        insta::assert_snapshot!(format!("// RUN: {run}\n// exit: {code}\n{out}// stderr:\n{err}\n"));
    });
}

#[test]
fn fuzz_regressions_do_not_panic() {
    // Inputs the `frontend` fuzz target once failed on.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions/frontend");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let path = e.unwrap().path();
        let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
        let config = cuprite_frontend::pp::PpConfig { max_expanded_tokens: 200_000, ..Default::default() };
        let mut pre = cuprite_frontend::parse_source("fuzz.cu", None, &text, config);
        let mut diags = std::mem::take(&mut pre.diags);
        let ast = &pre.ast;
        // Sema runs on a thread with the driver's stack size.
        let (interner, sm) = (&pre.interner, &pre.sm);
        let sema_diags = std::thread::scope(|s| {
            std::thread::Builder::new()
                .stack_size(256 << 20)
                .spawn_scoped(s, || cuprite_frontend::sema::lower(ast, interner, sm, Default::default()).2)
                .unwrap()
                .join()
                .unwrap()
        });
        diags.extend(sema_diags);
        for d in &diags {
            assert!(!d.render(&pre.sm).is_empty());
        }
        n += 1;
    }
    assert!(n >= 1);
}

#[test]
fn exponential_macros_stop_at_the_budget() {
    // Each level doubles the expansion: 2^40 tokens without the budget.
    let mut text = String::new();
    for i in 0..40 {
        text.push_str(&format!("#define M{i} M{} M{}\n", i + 1, i + 1));
    }
    text.push_str("M0\n");
    let config = cuprite_frontend::pp::PpConfig { max_expanded_tokens: 100_000, implicit_cuda_runtime: false, ..Default::default() };
    let pre = cuprite_frontend::preprocess("blowup.cu", None, &text, config);
    assert!(pre.diags.iter().any(|d| d.message.contains("more than 100000 tokens")), "{:?}", pre.diags);
    assert!(pre.tokens.len() < 300_000);
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    // Runs on a test thread (2 MiB of stack): the parser's nesting limit must hold there.
    for (open, close) in [("(", ")"), ("{", "}"), ("-", "")] {
        let src = format!("__device__ int f() {{ return {}1{}; }}\n", open.repeat(5000), close.repeat(5000));
        let pre = cuprite_frontend::parse_source("deep.cu", None, &src, Default::default());
        let diags = pre.diags;
        assert!(diags.iter().any(|d| d.message.contains("nesting deeper than")), "{open}: {:?}", diags.first());
    }
}

#[test]
fn deeply_nested_macro_arguments_are_an_error_not_a_stack_overflow() {
    // `F(F(F(...)))`: each argument is expanded before its invocation, nesting as deep as the
    // source does. With one thread the preprocessor runs inside the parser, on the driver's
    // main thread (8 MiB of stack): the same here. With two it has a thread of its own.
    use cuprite_frontend::Threads;
    let n = 20_000;
    let src = format!("#define F(x) x\n__device__ int g = {}1{};\n", "F(".repeat(n), ")".repeat(n));
    for threads in [Threads::One, Threads::Two] {
        let src = src.clone();
        let diags = std::thread::Builder::new()
            .stack_size(8 << 20)
            .spawn(move || cuprite_frontend::parse_source_on("deep_args.cu", None, &src, Default::default(), threads).diags)
            .unwrap()
            .join()
            .unwrap();
        assert!(diags.iter().any(|d| d.message.contains("macro arguments nest more than")), "{threads:?}: {:?}", diags.first());
    }
}

/// Every corpus file, all of them concatenated, and the benchmark's generated file (many
/// preprocessor chunks, many top-level declarations), with the configuration to compile
/// them with.
fn corpus_texts() -> (cuprite_frontend::pp::PpConfig<'static>, Vec<(String, String)>) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cuprite_frontend::pp::PpConfig { include_dirs: vec![root.join("frontend/pp")], ..Default::default() };
    let mut out = Vec::new();
    let mut all = String::new();
    for dir in ["frontend/pp", "frontend/parse", "frontend/sema", "ptx"] {
        let mut files: Vec<_> = std::fs::read_dir(root.join(dir)).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        for f in files.iter().filter(|f| f.extension().is_some_and(|e| e == "cu")) {
            let text = std::fs::read_to_string(f).unwrap();
            all += &text;
            all.push('\n');
            out.push((f.display().to_string(), text));
        }
    }
    out.push(("all.cu".to_string(), all));
    let generated = cuprite_bench::generate_cu(4000);
    let tokens = cuprite_frontend::preprocess("generated.cu", None, &generated, config.clone()).tokens.len();
    assert!(tokens > 10 * cuprite_frontend::parse::tokens::CHUNK, "{tokens} tokens are not many chunks");
    out.push(("generated.cu".to_string(), generated));
    (config, out)
}

/// The tree, the parse diagnostics, the cuda IR and sema's diagnostics, as text.
fn frontend_view(p: &cuprite_frontend::Parsed, lowered: &cuprite_frontend::Lowered) -> String {
    let mut s = cuprite_frontend::dump::dump(&p.ast, &p.interner, &p.sm);
    for d in &p.diags {
        s += &d.render(&p.sm);
    }
    let (ctx, module, diags) = lowered;
    s += &cuprite_ir::print::print_op(ctx, *module, Default::default());
    for d in diags {
        s += &d.render(&p.sm);
    }
    s
}

fn assert_same_view(name: &str, what: &str, a: &str, b: &str) {
    if a != b {
        let line = a.lines().zip(b.lines()).position(|(x, y)| x != y).unwrap_or(0);
        panic!("{name}: {what} differ first at output line {line}");
    }
}

/// The preprocessor on a thread of its own (`Threads::Two`, what large files get) gives
/// exactly what it gives on the parser's thread: the same tree, diagnostics and cuda IR, on
/// every corpus file, on all of them concatenated, and on the benchmark's generated file
/// (many chunks).
#[test]
fn two_threads_give_what_one_gives() {
    use cuprite_frontend::{parse_source_on, Threads};
    let (config, texts) = corpus_texts();
    let view = |p: &cuprite_frontend::Parsed| {
        let lowered = cuprite_frontend::sema::lower(&p.ast, &p.interner, &p.sm, Default::default());
        frontend_view(p, &lowered)
    };
    for (name, text) in &texts {
        let one = parse_source_on(name, None, text, config.clone(), Threads::One);
        let two = parse_source_on(name, None, text, config.clone(), Threads::Two);
        assert_same_view(name, "one and two threads", &view(&one), &view(&two));
    }
}

/// Sema running while the parser parses (`parse_and_lower_overlapped`, what large files
/// get) gives exactly what it gives after the parse: the same tree, diagnostics and cuda IR
/// on the same inputs as above.
#[test]
fn sema_alongside_the_parser_gives_what_it_gives_after_it() {
    let (config, texts) = corpus_texts();
    for (name, text) in &texts {
        let parsed = cuprite_frontend::parse_source(name, None, text, config.clone());
        let lowered = cuprite_frontend::sema::lower(&parsed.ast, &parsed.interner, &parsed.sm, Default::default());
        let (p2, l2) = cuprite_frontend::parse_and_lower_overlapped(name, None, text, config.clone(), Default::default());
        assert_same_view(name, "sema after and alongside the parser", &frontend_view(&parsed, &lowered), &frontend_view(&p2, &l2));
    }
}

/// Attribute names are compared without their underscores, whatever the thread count and
/// wherever the bare name is first spelled: `__aligned__` takes effect when `aligned` only
/// appears as an identifier many chunks later, and `unused` can still be a macro then.
#[test]
fn underscored_attributes_do_not_depend_on_where_their_bare_names_appear() {
    use cuprite_frontend::{parse_source_on, Threads};
    let mut src = String::from(
        "struct __attribute__((__aligned__(16))) S { float a; };\n\
         static_assert(sizeof(S) == 16, \"__aligned__ applies\");\n\
         __device__ __attribute__((__unused__)) int v;\n",
    );
    for i in 0..3000 {
        src += &format!("__device__ int f{i}(int x) {{ return x + {i}; }}\n");
    }
    src += "#define unused(x) ((void)(x))\n__device__ int aligned = 3;\n\
            __global__ void k(int *o) { unused(o); o[0] = sizeof(S) + aligned; }\n";
    let config = cuprite_frontend::pp::PpConfig::default();
    let mut views = Vec::new();
    for threads in [Threads::One, Threads::Two] {
        let p = parse_source_on("attrs.cu", None, &src, config.clone(), threads);
        // The macro's name is a token's spelling: a main-tier atom (a parser-made local atom,
        // bit 31 set, once indexed the macro table: 16 GiB).
        assert!(p.interner.get("unused").is_some_and(|a| !a.is_local()), "{threads:?}");
        let (ctx, module, diags) = cuprite_frontend::sema::lower(&p.ast, &p.interner, &p.sm, Default::default());
        let errors: Vec<_> = p.diags.iter().chain(&diags).filter(|d| d.severity == cuprite_frontend::Severity::Error).collect();
        assert!(errors.is_empty(), "{threads:?}: {:?}", errors.first().map(|d| &d.message));
        views.push(cuprite_ir::print::print_op(&ctx, module, Default::default()));
    }
    assert_eq!(views[0], views[1], "one and two threads agree");
}
