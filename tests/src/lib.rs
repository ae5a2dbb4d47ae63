//! Helpers shared by the corpus tests in `tests/tests/`.

use cuprite_ir::{
    diag::render,
    parse::parse_module,
    print::{print_op, PrintOptions},
    verify::verify,
    Context, OpId, SourceMap,
};
use std::path::{Path, PathBuf};

/// Runs `launch` on the nvvm-level module `m` on the simulator, threads in order; its
/// outputs, with what the kernel printed as one more (`printf`), for comparisons before
/// and after a pass (`what` names the run in a failure).
pub fn run_nvvm(ctx: &Context, m: OpId, launch: &cuprite_sim::spec::LaunchSpec, what: &str) -> Vec<cuprite_sim::spec::Output> {
    let r = cuprite_sim::run_spec(ctx, m, cuprite_sim::Level::Nvvm, launch, cuprite_sim::Schedule::InOrder, 1 << 28)
        .unwrap_or_else(|e| panic!("{what}: {}: {e}", launch.kernel));
    let mut outs = r.outputs;
    let ty = cuprite_sim::spec::ArgTy::parse("u8").expect("u8");
    outs.push(cuprite_sim::spec::Output { name: "printf".into(), ty, data: r.stats.output.into_bytes() });
    outs
}

/// Runs `pass` on every `nvvm.func` of the printed module `text`, verifying after it; the
/// module printed, parsed back and verified (in a fresh context), and the pass's
/// statistics.
pub fn apply_function_pass(text: &str, pass: Box<dyn cuprite_ir::pass::Pass>, what: &str) -> (Context, OpId, Vec<(String, u64)>) {
    let mut ctx = context(false);
    let m = parse_verified(&mut ctx, text, what).unwrap();
    let mut pm = cuprite_ir::pass::OpPassManager::new("builtin.module");
    pm.nest("nvvm.func").add(pass);
    let popts = cuprite_ir::pass::PassOptions { verify_each: true, ..Default::default() };
    let out = cuprite_ir::pass::run_pipeline(&mut ctx, m, &pm, &popts, None).unwrap_or_else(|o| panic!("{what}: {:?}", o.diagnostics));
    let stats: Vec<(String, u64)> = out.statistics.iter().flat_map(|s| s.1.iter().cloned()).collect();
    let printed = print_op(&ctx, m, PrintOptions::default());
    let mut fresh = context(false);
    let m2 = parse_verified(&mut fresh, &printed, what).unwrap_or_else(|e| panic!("{what}: does not parse back: {e}"));
    (fresh, m2, stats)
}

/// The nvvm level of corpus file `file` after the -O3 pipeline for sm_90 with `opt`, its
/// text first passed through `edit` (to leave a pass out), printed; with the launches of
/// its spec.
pub fn nvvm_after_pipeline(
    file: &Path,
    opt: cuprite_lowering::transforms::OptFlags,
    edit: impl Fn(String) -> String,
) -> (String, Vec<cuprite_sim::spec::LaunchSpec>) {
    let name = file.display().to_string();
    let spec = file.with_extension("toml");
    let launches =
        if spec.is_file() { cuprite_sim::spec::parse_toml(&std::fs::read_to_string(&spec).unwrap()).unwrap() } else { Vec::new() };
    let text = std::fs::read_to_string(file).unwrap();
    let opts = cuprite_frontend::sema::SemaOptions { arch: 90 };
    let (_, (mut ctx, module, diags)) =
        cuprite::compile::big_stack(|| cuprite_frontend::parse_and_lower(&name, Some(file), &text, Default::default(), opts));
    assert!(diags.iter().all(|d| d.severity != cuprite_frontend::diag::Severity::Error), "{name} does not compile");
    let lowering = cuprite_lowering::FloatOptions::default();
    let pipeline = edit(cuprite::pipeline::compile_pipeline(&cuprite::pipeline::PipelineConfig {
        sm: 90,
        fast_math: false,
        lowering: &lowering,
        level: 3,
        opt,
        max_registers: None,
        select: false,
    }));
    let pm = cuprite_ir::pass::parse_pipeline(&pipeline, "builtin.module", &cuprite::pipeline::registry()).unwrap();
    let popts = cuprite_ir::pass::PassOptions::default();
    cuprite::compile::big_stack(|| cuprite_ir::pass::run_pipeline(&mut ctx, module, &pm, &popts, None))
        .unwrap_or_else(|o| panic!("{name}: {:?}", o.diagnostics));
    (print_op(&ctx, module, PrintOptions::default()), launches)
}

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
pub const PRINT_MODES: [PrintOptions; 5] = [
    PrintOptions { generic: false, locations: false, irdl_compatible: false },
    PrintOptions { generic: true, locations: false, irdl_compatible: false },
    PrintOptions { generic: false, locations: true, irdl_compatible: false },
    PrintOptions { generic: true, locations: true, irdl_compatible: false },
    PrintOptions { generic: true, locations: false, irdl_compatible: true },
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

/// The corpus `.cu` files (`tests/ptx`, `examples/cuda`, `tests/programs`), sorted; with
/// `with_specs`, only those with a launch spec (`.toml`) next to them.
pub fn corpus_files(with_specs: bool) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut out = Vec::new();
    for dir in ["tests/ptx", "examples/cuda", "tests/programs"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "cu") && (!with_specs || p.with_extension("toml").is_file()) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
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
    upstream_tool("mlir-opt-22")
}

/// The path of upstream `llvm-tblgen-22`, if installed (same rules as [`mlir_opt`]).
pub fn llvm_tblgen() -> Option<PathBuf> {
    upstream_tool("llvm-tblgen-22")
}

fn upstream_tool(name: &str) -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|p| std::env::split_paths(&p).map(|d| d.join(name)).find(|c| c.is_file()));
    if found.is_none() && std::env::var("CUPRITE_REQUIRE_MLIR").is_ok_and(|v| v == "1") {
        panic!("CUPRITE_REQUIRE_MLIR=1 but {name} is not on PATH (run scripts/install-mlir.sh)");
    }
    if found.is_none() {
        eprintln!("note: {name} not found; comparisons with upstream LLVM/MLIR skipped (scripts/install-mlir.sh installs it)");
    }
    found
}

/// Runs an upstream tool on `input` (written to a temporary file passed last); its stdout,
/// or its stderr as the error.
pub fn run_tool(tool: &std::path::Path, args: &[&str], input: &str) -> Result<String, String> {
    static N: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("cuprite-tool-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let f = dir.join("in.mlir");
    std::fs::write(&f, input).map_err(|e| e.to_string())?;
    let out = std::process::Command::new(tool).args(args).arg(&f).output().map_err(|e| e.to_string());
    let _ = std::fs::remove_dir_all(&dir);
    let out = out?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// ptxas (`CUPRITE_PTXAS`, or where `scripts/install-ptxas.sh` puts it). With
/// `CUPRITE_REQUIRE_PTXAS=1` (set by `.ci/run`) a missing ptxas is an error rather than a
/// skipped check.
pub fn ptxas() -> Option<std::path::PathBuf> {
    let p = std::env::var_os("CUPRITE_PTXAS").map(std::path::PathBuf::from).unwrap_or_else(|| {
        let home = std::env::var_os("HOME").map(std::path::PathBuf::from).unwrap_or_default();
        home.join(".cache/cuprite-ptxas/site/nvidia/cu13/bin/ptxas")
    });
    if p.is_file() {
        return Some(p);
    }
    assert!(std::env::var_os("CUPRITE_REQUIRE_PTXAS").is_none(), "ptxas not found at {}: run scripts/install-ptxas.sh", p.display());
    eprintln!("ptxas not found: skipping the assembly check (run scripts/install-ptxas.sh)");
    None
}

/// Asserts that ptxas assembles `ptx` for `sm_<sm>` without a word of warning.
pub fn assemble(ptxas: &std::path::Path, ptx: &str, sm: u32, what: &str) {
    let dir = std::env::temp_dir().join(format!("cuprite-ptx-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{what}.sm_{sm}.ptx"));
    std::fs::write(&path, ptx).unwrap();
    let out = std::process::Command::new(ptxas).arg(format!("-arch=sm_{sm}")).arg(&path).arg("-o").arg("/dev/null").output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && err.trim().is_empty(), "ptxas -arch=sm_{sm} rejects the PTX of {what}:\n{err}\n--- PTX ---\n{ptx}");
}
