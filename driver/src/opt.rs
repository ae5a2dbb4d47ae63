//! `cuprite opt`: reads IR (a `.ir`/`.mlir` file or stdin), verifies it, runs a pass
//! pipeline, verifies again and prints the result.
//!
//! Steps: (1) parse (ariadne diagnostic with the exact span on error); (2) verify; (3) run
//! `--pass-pipeline` or the pass flags in command-line order, with the instrumentation
//! flags; (4) print to `-o FILE` (written to a temporary file and renamed, so a failed run
//! never leaves a half-written output) or stdout. Exit codes: 0 ok, 1 invalid IR or a
//! failed pass, 2 bad usage or I/O error.

use cuprite_ir::{
    diag::render,
    parse::parse_module,
    pass::{parse_pipeline, run_pipeline, OpPassManager, PassOptions, Timing},
    print::{write_op, PrintOptions},
    verify::verify,
    Context, Diagnostic, Severity, SourceMap,
};
use std::{io::Write, time::Instant};

const HELP: &str = "\
Usage: cuprite opt [options] [input]

Reads IR from `input` (a .ir/.mlir file; `-` or nothing for stdin), verifies it, runs the
requested passes and prints the result.

Input/output:
  -o <file>                     Write the output to <file> (default and `-o -`: stdout)
  --allow-unregistered          Accept ops of unregistered dialects (generic form)
  --generic, --mlir-print-op-generic
                                Print every op in generic form
  --irdl-compatible             Print for upstream mlir-opt with our dialects loaded from
                                IRDL (`mlir-opt --irdl-file=dialects/irdl/cuda.irdl.mlir`):
                                generic form, inherent attributes in the attribute
                                dictionary, dialect types in parameter syntax
                                (`!cuda.ptr<f32, \"global\">`); the input may use it too
  --print-debuginfo, --mlir-print-debuginfo
                                Print locations (`loc(...)`)
  --no-verify                   Do not verify the input and the output
  --emit=<ir|ptx>               Print the IR (default), or the PTX text of a module at the
                                ptx level (after --convert-nvvm-to-ptx)
  -arch=sm_<N>                  The target PTX text names (default sm_90, as compile)

Input from upstream MLIR (the `mlir` feature):
  --import-upstream             The input is upstream MLIR (`gpu`, `llvm`, `nvvm`, `arith`,
                                `scf`, `cf`, `math`, `memref`, as mlir-opt's GPU pipeline
                                writes it or before it): MLIR lowers it to the llvm dialect,
                                and it becomes cuprite's nvvm level, which the passes and
                                --emit=ptx take from there, e.g.
                                --pass-pipeline=\"$(cuprite compile --print-pipeline)\"

Passes:
  --mlir-pass-pipeline=<pipeline>
                                Run an upstream MLIR pipeline first (as `mlir-opt
                                --pass-pipeline` reads it, e.g.
                                'builtin.module(canonicalize,cse)'): the module moves into
                                MLIR in process (our dialects loaded from their IRDL),
                                MLIR verifies it, runs the passes, and the result comes
                                back. Needs the `mlir` feature. MLIR's IRDL cannot declare
                                terminators, so `cuda.if`/`cuda.loop` and the nvvm level do
                                not verify there: run convert-scf-to-cf and
                                lower-cuda-control-flow first
  --pass-pipeline=<pipeline>    A textual pipeline, e.g.
                                'builtin.module(func.func(canonicalize,cse))'
  --<pass>                      Add a pass on the root op, in order (e.g. --canonicalize --cse)
  --list-passes                 List the registered passes, the conversions among them
                                (`cuprite compile --print-pipeline` prints the pipeline
                                from CUDA to PTX: run it here on `--emit=cuda` output)
  --list-patterns               List the patterns of the pattern-based conversions: pass,
                                name, root op, benefit and what each does
  --disable-patterns=<a>[,<b>...]
                                Leave these patterns out of every pattern-based pass (an
                                op no enabled pattern converts is then an error at the op)

Instrumentation:
  --print-ir-before=<pass>[,<pass>...]  --print-ir-after=<pass>[,<pass>...]
  --print-ir-before-all  --print-ir-after-all  --print-ir-after-change
                                Print the IR around passes (to stderr)
  --verify-each                 Verify after every pass (default)
  --no-verify-each              Do not
  --pass-statistics             Report each pass's counters (rewrites, folds, per-pattern
                                tries and applications, ...) (to stderr)
  --timing, --mlir-timing       Report the time of parsing, each pass, verifying and
                                printing (to stderr)
  --threading                   Run nested pipelines on isolated ops (functions) in
                                parallel, each moved into its own context and back. Off
                                by default: for today's passes the copies cost more than
                                the second thread saves (the verifier is parallel anyway)
  --no-threading, --mlir-disable-threading
                                Run nested pipelines on one thread (the default)
";

struct Args {
    input: Option<String>,
    output: Option<String>,
    allow_unregistered: bool,
    print: PrintOptions,
    verify: bool,
    pipeline: Option<String>,
    /// `--mlir-pass-pipeline`: upstream passes, run before ours.
    mlir_pipeline: Option<String>,
    /// `--import-upstream`: the input is upstream MLIR.
    import_upstream: bool,
    passes: Vec<String>,
    pass_opts: PassOptions,
    statistics: bool,
    /// `--emit=ptx`: print the PTX text of a `ptx`-level module instead of the IR.
    emit_ptx: bool,
    /// `-arch=sm_N`: the target the PTX text names (`.target`).
    sm: u32,
}

fn parse_args(args: &[String], passes: &cuprite_ir::pass::PassRegistry) -> Result<Option<Args>, String> {
    let mut a = Args {
        input: None,
        output: None,
        allow_unregistered: false,
        print: PrintOptions::default(),
        verify: true,
        pipeline: None,
        mlir_pipeline: None,
        import_upstream: false,
        statistics: false,
        emit_ptx: false,
        sm: 90,
        passes: Vec::new(),
        pass_opts: PassOptions { verify_each: true, threading: false, ..Default::default() },
    };
    let known: Vec<&str> = passes.list().iter().map(|p| p.0).collect();
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        let (flag, value) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") || f == "-arch" => (f, Some(v.to_string())),
            _ => (arg, None),
        };
        let mut take_value = |name: &str| -> Result<String, String> {
            if let Some(v) = value.clone() {
                return Ok(v);
            }
            i += 1;
            args.get(i).cloned().ok_or_else(|| format!("option '{name}' needs a value"))
        };
        match flag {
            "-h" | "--help" => return Ok(None),
            // `-o -` is stdout, as for cc.
            "-o" => a.output = Some(take_value("-o")?).filter(|o| o != "-"),
            "--allow-unregistered" | "--allow-unregistered-dialect" => a.allow_unregistered = true,
            "--generic" | "--mlir-print-op-generic" => a.print.generic = true,
            "--irdl-compatible" => a.print.irdl_compatible = true,
            "--print-debuginfo" | "--mlir-print-debuginfo" => a.print.locations = true,
            "--no-verify" => a.verify = false,
            "--pass-pipeline" => a.pipeline = Some(take_value("--pass-pipeline")?),
            "--mlir-pass-pipeline" => a.mlir_pipeline = Some(take_value("--mlir-pass-pipeline")?),
            "--import-upstream" => a.import_upstream = true,
            "--print-ir-before" => a.pass_opts.print_before.extend(take_value(flag)?.split(',').map(str::to_string)),
            "--print-ir-after" => a.pass_opts.print_after.extend(take_value(flag)?.split(',').map(str::to_string)),
            "--print-ir-before-all" => a.pass_opts.print_before_all = true,
            "--print-ir-after-all" => a.pass_opts.print_after_all = true,
            "--print-ir-after-change" => a.pass_opts.print_after_change = true,
            "--verify-each" => a.pass_opts.verify_each = value.as_deref() != Some("false"),
            "--no-verify-each" => a.pass_opts.verify_each = false,
            "--timing" | "--mlir-timing" => a.pass_opts.timing = true,
            "--pass-statistics" | "--mlir-pass-statistics" => a.statistics = true,
            "--threading" => a.pass_opts.threading = true,
            "--disable-patterns" => a.pass_opts.disabled_patterns.extend(crate::pipeline::parse_disabled_patterns(&take_value(flag)?)?),
            "--emit" => match take_value("--emit")?.as_str() {
                "ir" => a.emit_ptx = false,
                "ptx" => a.emit_ptx = true,
                other => return Err(format!("unknown output kind '{other}' in --emit (ir or ptx)")),
            },
            "-arch" | "--arch" => {
                let v = take_value(flag)?;
                a.sm = v
                    .strip_prefix("sm_")
                    .and_then(|n| n.parse::<u32>().ok())
                    .filter(|n| (30..=200).contains(n))
                    .ok_or_else(|| format!("invalid target '{v}' (expected sm_<N>, e.g. sm_90)"))?;
            }
            "--no-threading" | "--mlir-disable-threading" => a.pass_opts.threading = false,
            f if f.starts_with("--") && known.contains(&&f[2..]) => {
                let mut p = f[2..].to_string();
                if let Some(v) = value {
                    p = format!("{p}{{{v}}}");
                }
                a.passes.push(p);
            }
            "-" => a.input = Some("-".into()),
            f if f.starts_with('-') => return Err(format!("unknown option '{f}' (see `cuprite opt --help`; passes: --list-passes)")),
            f => {
                if a.input.is_some() {
                    return Err(format!("more than one input file ('{f}')"));
                }
                a.input = Some(f.to_string());
            }
        }
        i += 1;
    }
    if a.pipeline.is_some() && !a.passes.is_empty() {
        return Err("use either --pass-pipeline or pass flags, not both".into());
    }
    a.pass_opts.print = a.print;
    Ok(Some(a))
}

/// Runs `cuprite opt`.
pub fn main(args: &[String], stdin: &mut dyn std::io::Read, stdout: &mut dyn Write, stderr: &mut dyn Write) -> i32 {
    let registry = cuprite_dialects::registry();
    let passes = crate::pipeline::registry();
    if args.iter().any(|a| a == "--list-passes") {
        for (n, d) in passes.list() {
            let _ = writeln!(stdout, "  --{n:<22} {d}");
        }
        return 0;
    }
    if args.iter().any(|a| a == "--list-patterns") {
        let mut pass = "";
        for p in cuprite_lowering::conversions::all_patterns() {
            if p.pass != pass {
                pass = p.pass;
                let _ = writeln!(stdout, "{pass}:");
            }
            let _ = writeln!(stdout, "  {:<30} {:<16} benefit {}  {}", p.name, p.root, p.benefit, p.summary);
        }
        return 0;
    }
    let a = match parse_args(args, &passes) {
        Ok(Some(a)) => a,
        Ok(None) => {
            let _ = write!(stdout, "{HELP}");
            return 0;
        }
        Err(m) => {
            let _ = writeln!(stderr, "error: {m}");
            return 2;
        }
    };
    let total = Instant::now();
    let mut timing = Timing::default();
    let (name, text) = match a.input.as_deref() {
        None | Some("-") => {
            let mut s = String::new();
            if let Err(e) = stdin.read_to_string(&mut s) {
                let _ = writeln!(stderr, "error: cannot read stdin: {e}");
                return 2;
            }
            ("<stdin>".to_string(), s)
        }
        Some(path) => match std::fs::read(path) {
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(s) => (path.to_string(), s),
                Err(e) => {
                    let _ = writeln!(stderr, "error: {path} is not UTF-8 (byte {})", e.utf8_error().valid_up_to());
                    return 2;
                }
            },
            Err(e) => {
                let _ = writeln!(stderr, "error: cannot read {path}: {e}");
                return 2;
            }
        },
    };
    let (name, text) = if a.import_upstream {
        match crate::mlir::import_upstream(&text) {
            Ok(t) => (format!("<{name} imported from upstream MLIR>"), t),
            Err(e) => {
                let _ = writeln!(stderr, "error: {e}");
                return if crate::mlir::AVAILABLE { 1 } else { 2 };
            }
        }
    } else {
        (name, text)
    };
    let mut sources = SourceMap::new();
    sources.add(name.clone(), text);
    let text = sources.text(&name).unwrap_or_default();
    let report = |diags: &[Diagnostic], stderr: &mut dyn Write| {
        let _ = write!(stderr, "{}", render(diags, &sources));
    };

    let mut ctx = Context::new(registry);
    ctx.allow_unregistered = a.allow_unregistered;
    let t = Instant::now();
    let module = match parse_module(&mut ctx, text, &name) {
        Ok(m) => m,
        Err(d) => {
            report(&[d], stderr);
            return 1;
        }
    };
    timing.add("Parser", t.elapsed());
    if a.verify {
        let t = Instant::now();
        if let Err(errs) = verify(&ctx, module, Some(&sources)) {
            report(&errs, stderr);
            return 1;
        }
        timing.add("Verifier", t.elapsed());
    }

    let mut module = module;
    if let Some(p) = &a.mlir_pipeline {
        let t = Instant::now();
        match crate::mlir::run_upstream(&ctx, module, p) {
            Ok((c, m)) => {
                ctx = c;
                module = m;
            }
            Err(e) => {
                let _ = writeln!(stderr, "error: {e}");
                return if crate::mlir::AVAILABLE { 1 } else { 2 };
            }
        }
        timing.add("MLIR pipeline", t.elapsed());
    }
    let root_name = ctx.op_name_str(module).to_string();
    let pm = if let Some(p) = &a.pipeline {
        match parse_pipeline(p, &root_name, &passes) {
            Ok(pm) => Some(pm),
            Err(e) => {
                let mut src = SourceMap::new();
                src.add("<pass-pipeline>", p.clone());
                let span = cuprite_ir::Span {
                    file: "<pass-pipeline>".into(),
                    lo: e.offset as u32,
                    hi: (e.offset + 1).min(p.len()).max(e.offset) as u32,
                };
                let _ = write!(stderr, "{}", render(&[Diagnostic::error(e.message, Some(span))], &src));
                return 2;
            }
        }
    } else if !a.passes.is_empty() {
        let mut pm = OpPassManager::new(&root_name);
        for p in &a.passes {
            match parse_pipeline(p, &root_name, &passes) {
                Ok(sub) => pm.items.extend(sub.items),
                Err(e) => {
                    let _ = writeln!(stderr, "error: {}", e.message);
                    return 2;
                }
            }
        }
        Some(pm)
    } else {
        None
    };
    let ran_passes = pm.is_some();
    if let Some(pm) = pm {
        let mut opts = a.pass_opts.clone();
        opts.verify_each = opts.verify_each && a.verify;
        let (ok, out) = match run_pipeline(&mut ctx, module, &pm, &opts, Some(&sources)) {
            Ok(o) => (true, o),
            Err(o) => (false, o),
        };
        let _ = write!(stderr, "{}", out.dumps);
        if a.statistics {
            let _ = write!(stderr, "{}", cuprite_ir::pass::format_statistics(&out.statistics));
        }
        if !out.diagnostics.is_empty() {
            report(&out.diagnostics, stderr);
        }
        timing.merge(&out.timing);
        let failed = !ok || out.diagnostics.iter().any(|d| d.severity == Severity::Error);
        if failed {
            return 1;
        }
    }
    // The output needs verifying only if passes ran without --verify-each (with it, the
    // last pass was verified; without passes, the input was).
    if a.verify && ran_passes && !a.pass_opts.verify_each {
        let t = Instant::now();
        if let Err(errs) = verify(&ctx, module, Some(&sources)) {
            report(&errs, stderr);
            let _ = writeln!(stderr, "error: the output IR does not verify");
            return 1;
        }
        timing.add("Verifier", t.elapsed());
    }
    let t = Instant::now();
    let ptx_text = if a.emit_ptx {
        let body = ctx.entry_block(ctx.region(module, 0));
        let not_ptx = body.and_then(|b| ctx.block_ops(b).find(|&o| !ctx.op_name_str(o).starts_with("ptx.")));
        if ctx.op_name_str(module) != "builtin.module" || body.is_none() || not_ptx.is_some() {
            let what = not_ptx.map_or_else(|| ctx.op_name_str(module).to_string(), |o| ctx.op_name_str(o).to_string());
            let _ = writeln!(
                stderr,
                "error: --emit=ptx needs a module of the ptx level, and it holds '{what}' (run --convert-nvvm-to-ptx first)"
            );
            return 1;
        }
        Some(cuprite_lowering::print_ptx(&ctx, module, &cuprite_lowering::PtxOptions { sm: a.sm }))
    } else {
        None
    };
    let write = |w: &mut dyn Write| -> std::io::Result<()> {
        match &ptx_text {
            Some(t) => w.write_all(t.as_bytes()),
            // As mlir-opt: the op, then an empty line.
            None => write_op(&ctx, module, a.print, w).and_then(|()| w.write_all(b"\n")),
        }
    };
    let code = match &a.output {
        Some(path) => write_output_file(path, &write, stderr),
        None => match write(stdout) {
            Ok(()) => 0,
            Err(e) => {
                let _ = writeln!(stderr, "error: cannot write output: {e}");
                2
            }
        },
    };
    timing.add("Output", t.elapsed());
    if a.pass_opts.timing {
        let _ = write!(stderr, "{}", timing.report(total.elapsed()));
    }
    // When the process ends right after (the `cuprite` binary), skip freeing the IR and the
    // source text: a million frees of arena slots and lists buy nothing at exit.
    if crate::EXIT_AFTER_RUN.load(std::sync::atomic::Ordering::Relaxed) {
        std::mem::forget(ctx);
        std::mem::forget(sources);
    }
    code
}

/// Writes to `path`. A regular file (or a new one) is written through a temporary file in
/// the same directory, renamed on success, so a failed run leaves the old contents; anything
/// else (`/dev/null`, a pipe, a terminal) is written directly: renaming over it would
/// replace the device with a file.
fn write_output_file(path: &str, write: &dyn Fn(&mut dyn Write) -> std::io::Result<()>, stderr: &mut dyn Write) -> i32 {
    let p = std::path::Path::new(path);
    if std::fs::metadata(p).is_ok_and(|m| !m.file_type().is_file()) {
        let result = std::fs::OpenOptions::new().write(true).open(p).and_then(|f| {
            let mut w = std::io::BufWriter::new(f);
            write(&mut w)?;
            w.flush()
        });
        return match result {
            Ok(()) => 0,
            Err(e) => {
                let _ = writeln!(stderr, "error: cannot write {path}: {e}");
                2
            }
        };
    }
    let dir = p.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
    let tmp = dir.join(format!(".{}.cuprite-tmp-{}", p.file_name().and_then(|n| n.to_str()).unwrap_or("out"), std::process::id()));
    let result = (|| -> std::io::Result<()> {
        let f = std::fs::File::create(&tmp)?;
        let mut w = std::io::BufWriter::new(f);
        write(&mut w)?;
        w.flush()?;
        drop(w);
        std::fs::rename(&tmp, p)
    })();
    match result {
        Ok(()) => 0,
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            let _ = writeln!(stderr, "error: cannot write {path}: {e}");
            2
        }
    }
}
