//! Helpers shared by the corpus tests in `tests/tests/`.

use cuprite_ir::{
    diag::render,
    parse::parse_module,
    print::{print_op, PrintOptions},
    verify::verify,
    Context, OpId, SourceMap,
};
use std::path::{Path, PathBuf};

/// The `tests/ir` directory.
pub fn ir_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("ir")
}

/// A context over all of cuprite's dialects.
pub fn context(allow_unregistered: bool) -> Context {
    let mut ctx = Context::new(cuprite_dialects::registry());
    ctx.allow_unregistered = allow_unregistered;
    ctx
}

/// Parses and verifies `text`; on failure returns the rendered diagnostics.
pub fn parse_verified(ctx: &mut Context, text: &str, name: &str) -> Result<OpId, String> {
    let mut sources = SourceMap::new();
    sources.add(name, text);
    let m = parse_module(ctx, text, name).map_err(|d| render(&[d], &sources))?;
    verify(ctx, m, Some(&sources)).map_err(|e| render(&e, &sources))?;
    Ok(m)
}

/// All four print modes.
pub const PRINT_MODES: [PrintOptions; 4] = [
    PrintOptions { generic: false, locations: false },
    PrintOptions { generic: true, locations: false },
    PrintOptions { generic: false, locations: true },
    PrintOptions { generic: true, locations: true },
];

/// Checks print -> parse -> print is the identity in every print mode; returns the custom
/// form without locations.
pub fn check_roundtrip(text: &str, name: &str, allow_unregistered: bool) -> Result<String, String> {
    let mut ctx = context(allow_unregistered);
    let m = parse_verified(&mut ctx, text, name)?;
    for mode in PRINT_MODES {
        let once = print_op(&ctx, m, mode);
        let mut ctx2 = context(allow_unregistered);
        let m2 = parse_verified(&mut ctx2, &once, "printed.mlir")
            .map_err(|e| format!("reparse failed in mode {mode:?}:\n{e}\n--- printed ---\n{once}"))?;
        let twice = print_op(&ctx2, m2, mode);
        if once != twice {
            return Err(format!("round trip is not the identity in mode {mode:?}\n--- first ---\n{once}\n--- second ---\n{twice}"));
        }
    }
    Ok(print_op(&ctx, m, PrintOptions::default()))
}

/// Runs the `cuprite` command line in-process; returns (exit code, stdout, stderr).
pub fn run_cli(args: &[&str], stdin: &str) -> (i32, String, String) {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let mut out = Vec::new();
    let mut err = Vec::new();
    let code = cuprite::run(&args, &mut stdin.as_bytes(), &mut out, &mut err);
    (code, String::from_utf8_lossy(&out).into_owned(), String::from_utf8_lossy(&err).into_owned())
}

/// Splits a file into cases at `// -----` lines (MLIR's `-split-input-file`).
pub fn split_cases(text: &str) -> Vec<String> {
    text.split("\n// -----\n").map(|s| s.to_string()).collect()
}

/// The path of upstream `mlir-opt-22`, if installed. With `CUPRITE_REQUIRE_MLIR=1` (set by
/// `.ci/run`) a missing tool is an error rather than a skipped comparison.
pub fn mlir_opt() -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|p| std::env::split_paths(&p).map(|d| d.join("mlir-opt-22")).find(|c| c.is_file()));
    if found.is_none() && std::env::var("CUPRITE_REQUIRE_MLIR").is_ok_and(|v| v == "1") {
        panic!("CUPRITE_REQUIRE_MLIR=1 but mlir-opt-22 is not on PATH (run scripts/install-mlir.sh)");
    }
    if found.is_none() {
        eprintln!("note: mlir-opt-22 not found; comparisons with upstream MLIR skipped (scripts/install-mlir.sh installs it)");
    }
    found
}
