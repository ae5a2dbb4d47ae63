//! `cuprite compile`: CUDA C++ (`.cu`) through the frontend.
//!
//! It preprocesses (`-E`: macros, includes with cuprite's built-in headers and the implicit
//! `cuda_runtime.h`, conditionals, `#pragma unroll`), parses (`--emit=ast`: the syntax
//! tree, host function bodies skipped) and runs semantic analysis, emitting the `cuda`
//! dialect (`--emit=cuda`), lowers it to `nvvm` (`--emit=nvvm`) and `ptx` (`--emit=ptx-ir`)
//! and prints PTX (`--emit=ptx`, the default) with the `lowering` crate.
//!
//! The frontend runs on a thread with a large stack: sema recurses over expressions and
//! statements as deep as the parser's nesting limit allows.
//!
//! Exit codes: 0 success, 1 errors in the input (or warnings under `-Werror`), 2 usage or
//! I/O errors.

use cuprite_frontend::{diag::Severity, pp::PpConfig};
use std::io::Write;
use std::path::PathBuf;

/// The usage text, with the floating-point flags of [`crate::float_flags`].
fn usage() -> String {
    USAGE.replace("{float flags}\n", crate::float_flags::USAGE)
}

const USAGE: &str = "\
Usage: cuprite compile [options] <file.cu>

Options:
  -E                           Preprocess only: print the tokens after macro expansion
  --emit=ast                   Parse and print the syntax tree
  --emit=cuda                  Print the cuda dialect module
  --emit=nvvm                  Lower to the nvvm dialect (CFG, signless types) and print it
  --emit=ptx-ir                Select PTX instructions and print the ptx dialect module
  --emit=ptx                   Print PTX text (the default)
  --emit=llvm                  With --backend=llvm: print the LLVM IR LLVM's optimizer made
  --backend=<cuprite|llvm>     Who generates the PTX: cuprite (the default), or LLVM's NVPTX
                               backend: the nvvm level after the conversions and inlining
                               goes to upstream's llvm and nvvm dialects, MLIR translates it
                               to LLVM IR, LLVM's default<On> pipeline and NVPTX (sm_<N>)
                               print PTX. -O, -arch and --use_fast_math carry over. Needs the
                               `mlir` feature
  -O0 .. -O3                   Optimization level (default -O3): -O0 lowers without
                               optimizing; -O1 and up run the nvvm pipeline (inlining,
                               mem2reg, sccp, unrolling, select formation, loop rotation,
                               LICM, IV demotion, loop strength reduction, equality
                               saturation (eqsat), canonicalize, cse, dce)
  --print-pipeline             Print the nvvm pass pipeline of the -O level and exit
  --print-pipeline=cicc        The same, one pass a line, each with what does its job in
                               NVIDIA's cicc (and LLVM's NVPTX pipeline)
  -j<N>                        Compile functions on N threads, each function in its own
                               IR context (default 0: one thread per core); -j1 compiles
                               the module in one context (same output, byte for byte)
  --print-ir-before=<pass>[,<pass>...], --print-ir-after=<pass>[,<pass>...]
  --print-ir-before-all, --print-ir-after-all, --print-ir-after-change
                               Print the nvvm module around passes (to stderr)
  --pass-statistics            Print each pass's counters, per-pattern tries and
                               applications among them (to stderr)
  --disable-patterns=<a>[,<b>...]
                               Leave these patterns out of the pattern-based conversions
                               (`cuprite opt --list-patterns` lists them)
  -fno-unroll-loops            No loop unrolling (`#pragma unroll` included); at -O1..-O3
                               counted loops with a constant trip count are unrolled
                               fully under `#pragma unroll`, and when small without it
  --rewrite-driver=<d>         How the `eqsat` pass runs its rules on the integer and
                               address arithmetic: `eqsat` (equality saturation with egg,
                               the default at -O1..-O3), `greedy` (the same rules applied
                               wherever they match, on the greedy pattern driver) or `off`
  --remat-iv=<N>               Induction-variable demotion (cicc's remat-iv): 0 off,
                               1-2 IVs used in their block and by the exit test, 3 also
                               by addresses and after the loop, 4 (default) also passed to
                               other blocks; 64-bit IVs proved to stay in 32 bits become
                               32-bit
  --do-remat=<N>               Rematerialization (cicc's do-remat, the `remat` pass): 0
                               off, 1 single ops, 2 short chains, 3 (default) full; cheap
                               values are recomputed at their uses when a kernel's
                               register pressure is just above an occupancy step of the
                               target (--arch)
  --remarks=eqsat              A remark at each value the `eqsat` pass rewrites: the
                               original and the chosen term, their costs and the rules
                               egg's explanation of their equality uses
  -maxrregcount=<N>            At most N registers per thread: `.maxnreg N` on every
                               kernel without its own __launch_bounds__/__maxnreg__
                               (nvcc passes it to ptxas; PTX carries it as .maxnreg)
{float flags}
  --print-locations            With --emit=cuda: print each op's source location
  -fsyntax-only                Preprocess, parse and check; report diagnostics only
  -fparse-only                 Preprocess and parse only (no semantic analysis)
  -I <dir>                     Add an include directory (also -I<dir>)
  -D <name>[=<value>]          Define a macro (also -D<name>...)
  -U <name>                    Undefine a macro (also -U<name>)
  -include <file>              Include a file before the input
  --arch=sm_<N>, -arch=sm_<N>  Target (default sm_90): __CUDA_ARCH__ is N*10, `.target sm_N`
  --no-cuda-runtime            Do not include cuda_runtime.h implicitly
  -Werror                      Treat warnings as errors
  -Whost-code                  Show what cuprite could not read in host code (as warnings):
                               host code is read for the kernels it launches and names, never
                               compiled, and its errors never stop compilation
  -ftime-report                Print the time each phase took to stderr
  --diagnostics-format=<text|json>
                               Diagnostics as ariadne text (default) or one JSON object per line
  -o <file>                    Write the output here instead of stdout (`-o -`: stdout)
";

/// The command line of `cuprite compile`.
pub(crate) struct Args {
    /// Preprocessor settings: include directories, macros, the target (`--arch`).
    pub(crate) config: PpConfig<'static>,
    /// `-E`.
    pub(crate) preprocess_only: bool,
    /// `--emit=ast`.
    pub(crate) emit_ast: bool,
    /// The level printed (`--emit=cuda|nvvm|ptx-ir|ptx`).
    pub(crate) emit: Emit,
    /// The floating-point flags.
    pub(crate) float: crate::float_flags::FloatFlags,
    /// `--print-locations`.
    pub(crate) locations: bool,
    /// `-fparse-only`.
    pub(crate) parse_only: bool,
    /// `-fsyntax-only` (also set by `-fparse-only`).
    pub(crate) syntax_only: bool,
    /// `-Werror`.
    pub(crate) werror: bool,
    /// `-Whost-code`.
    pub(crate) host_code: bool,
    /// `--diagnostics-format=json`.
    pub(crate) json: bool,
    /// `-ftime-report`.
    pub(crate) time_report: bool,
    /// `-O<N>`.
    pub(crate) level: u8,
    /// `-fno-unroll-loops`, `--rewrite-driver`, `--remarks=eqsat`.
    pub(crate) opt: cuprite_lowering::transforms::OptFlags,
    /// `--print-pipeline`.
    pub(crate) print_pipeline: bool,
    /// `--print-pipeline=cicc`: one pass a line, with cicc's counterpart.
    pub(crate) explain_pipeline: bool,
    /// `--pass-statistics`.
    pub(crate) pass_stats: bool,
    /// `-maxrregcount=N`.
    pub(crate) maxrregcount: Option<u32>,
    /// `-j<N>` (0: one per core).
    pub(crate) threads: usize,
    /// Pass manager instrumentation and threading.
    pub(crate) pass_opts: cuprite_ir::pass::PassOptions,
    /// `--backend=llvm`: LLVM's NVPTX backend generates the PTX.
    pub(crate) llvm_backend: bool,
    /// The `.cu` file.
    pub(crate) input: Option<PathBuf>,
    /// `-o` (`None`: stdout).
    pub(crate) output: Option<PathBuf>,
}

/// Parses the command line: `Ok(None)` for `--help`, `Err` with the message on bad usage.
pub(crate) fn parse_args(args: &[String]) -> Result<Option<Args>, String> {
    let mut out = Args {
        config: PpConfig::default(),
        preprocess_only: false,
        emit_ast: false,
        emit: Emit::Ptx,
        float: crate::float_flags::FloatFlags::default(),
        locations: false,
        parse_only: false,
        syntax_only: false,
        werror: false,
        host_code: false,
        json: false,
        time_report: false,
        level: 3,
        opt: Default::default(),
        print_pipeline: false,
        explain_pipeline: false,
        pass_stats: false,
        maxrregcount: None,
        threads: 0,
        pass_opts: cuprite_ir::pass::PassOptions { verify_each: cfg!(debug_assertions), threading: true, ..Default::default() },
        llvm_backend: false,
        input: None,
        output: None,
    };
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        if let Some(r) = out.float.parse(a) {
            r?;
            i += 1;
            continue;
        }
        let mut value = |flag: &str| -> Option<String> {
            if a.len() > flag.len() {
                Some(a[flag.len()..].trim_start_matches('=').to_string())
            } else {
                i += 1;
                args.get(i).cloned()
            }
        };
        match a {
            "-h" | "--help" => {
                return Ok(None);
            }
            "-E" => out.preprocess_only = true,
            "--emit=ast" => out.emit_ast = true,
            "--emit=cuda" => out.emit = Emit::Cuda,
            "--emit=nvvm" => out.emit = Emit::Nvvm,
            "--emit=ptx-ir" => out.emit = Emit::PtxIr,
            "--emit=ptx" => out.emit = Emit::Ptx,
            "--emit=llvm" => out.emit = Emit::Llvm,
            "--backend=llvm" => out.llvm_backend = true,
            "--backend=cuprite" => out.llvm_backend = false,
            _ if a.starts_with("--backend") => return Err(format!("unknown backend in '{a}' (cuprite or llvm)")),
            "--print-locations" => out.locations = true,
            "-O0" | "-O1" | "-O2" | "-O3" => out.level = a.as_bytes()[2] - b'0',
            "--print-pipeline" => out.print_pipeline = true,
            "--print-pipeline=cicc" => {
                out.print_pipeline = true;
                out.explain_pipeline = true;
            }
            _ if a.starts_with("-j") => match value("-j").and_then(|v| v.parse::<usize>().ok()) {
                Some(n) => {
                    out.threads = n;
                    out.pass_opts.threading = n != 1;
                }
                None => return Err("-j needs a number of threads (0: one per core)".into()),
            },
            "--pass-statistics" => out.pass_stats = true,
            _ if a.starts_with("--disable-patterns") => match value("--disable-patterns") {
                Some(v) => out.pass_opts.disabled_patterns.extend(crate::pipeline::parse_disabled_patterns(&v)?),
                None => return Err("--disable-patterns needs pattern names (see `cuprite opt --list-patterns`)".into()),
            },
            "--print-ir-before-all" => out.pass_opts.print_before_all = true,
            "--print-ir-after-all" => out.pass_opts.print_after_all = true,
            "--print-ir-after-change" => out.pass_opts.print_after_change = true,
            _ if a.starts_with("--print-ir-before=") => out.pass_opts.print_before.extend(a[18..].split(',').map(str::to_string)),
            _ if a.starts_with("--print-ir-after=") => out.pass_opts.print_after.extend(a[17..].split(',').map(str::to_string)),
            _ if a.starts_with("-maxrregcount") || a.starts_with("--maxrregcount") => {
                let flag = if a.starts_with("--") { "--maxrregcount" } else { "-maxrregcount" };
                match value(flag).and_then(|v| v.parse::<u32>().ok()) {
                    Some(n) if n > 0 => out.maxrregcount = Some(n),
                    _ => return Err(format!("{flag} needs a positive number of registers")),
                }
            }
            _ if a.starts_with("--emit=") => {
                return Err(format!("unknown output kind in '{a}' (ast, cuda, nvvm, ptx-ir, ptx or llvm)"));
            }
            "-fno-unroll-loops" => out.opt.unroll = false,
            "-funroll-loops" => out.opt.unroll = true,
            _ if a.starts_with("--rewrite-driver=") => {
                out.opt.rewrite_driver = cuprite_lowering::eqsat::Driver::parse(&a[17..])
                    .ok_or_else(|| format!("unknown rewrite driver in '{a}' (eqsat, greedy or off)"))?
            }
            "--remarks=eqsat" => out.opt.eqsat_remarks = true,
            _ if a.starts_with("--remat-iv=") => {
                out.opt.remat_iv = a[11..]
                    .parse::<u32>()
                    .ok()
                    .filter(|l| *l <= 5)
                    .ok_or_else(|| format!("--remat-iv takes a level from 0 (off) to 5, got '{}'", &a[11..]))?
            }
            _ if a.starts_with("--do-remat=") => {
                out.opt.remat = a[11..]
                    .parse::<u32>()
                    .ok()
                    .filter(|l| *l <= 3)
                    .ok_or_else(|| format!("--do-remat takes a level from 0 (off) to 3, got '{}'", &a[11..]))?
            }
            _ if a.starts_with("--remarks=") => return Err(format!("unknown remarks in '{a}' (eqsat)")),
            "-fsyntax-only" => out.syntax_only = true,
            "-fparse-only" => {
                out.syntax_only = true;
                out.parse_only = true;
            }
            "-Werror" => out.werror = true,
            "-Whost-code" => out.host_code = true,
            "-ftime-report" => out.time_report = true,
            "--no-cuda-runtime" => out.config.implicit_cuda_runtime = false,
            "--diagnostics-format=json" => out.json = true,
            "--diagnostics-format=text" => out.json = false,
            _ if a.starts_with("--diagnostics-format") => return Err(format!("unknown diagnostics format in '{a}'")),
            "-o" => match value("-o") {
                // `-o -` is stdout, as for cc.
                Some(v) if v == "-" => out.output = None,
                Some(v) => out.output = Some(PathBuf::from(v)),
                None => return Err("-o needs a file".into()),
            },
            "-include" => match value("-include") {
                Some(v) => out.config.pre_includes.push(PathBuf::from(v)),
                None => return Err("-include needs a file".into()),
            },
            _ if a.starts_with("-I") => match value("-I") {
                Some(v) if !v.is_empty() => out.config.include_dirs.push(PathBuf::from(v)),
                _ => return Err("-I needs a directory".into()),
            },
            _ if a.starts_with("-D") => match value("-D") {
                Some(v) if !v.is_empty() => match v.split_once('=') {
                    Some((n, val)) => out.config.defines.push((n.to_string(), Some(val.to_string()))),
                    None => out.config.defines.push((v, None)),
                },
                _ => return Err("-D needs a macro name".into()),
            },
            _ if a.starts_with("-U") => match value("-U") {
                Some(v) if !v.is_empty() => out.config.defines.push((format!("-{v}"), None)),
                _ => return Err("-U needs a macro name".into()),
            },
            _ if a.starts_with("--arch") || a.starts_with("-arch") => {
                let flag = if a.starts_with("--") { "--arch" } else { "-arch" };
                let v = value(flag).unwrap_or_default();
                match v.strip_prefix("sm_").and_then(|n| n.parse::<u32>().ok()) {
                    Some(n) if (30..=200).contains(&n) => out.config.sm = n,
                    _ => return Err(format!("invalid target '{v}' (expected sm_<N>, e.g. sm_90)")),
                }
            }
            _ if a.starts_with('-') && a != "-" => return Err(format!("unknown option '{a}'")),
            _ => {
                if out.input.is_some() {
                    return Err("more than one input file".into());
                }
                out.input = Some(PathBuf::from(a));
            }
        }
        i += 1;
    }
    // IR is `cuprite opt`'s input (upstream MLIR with --import-upstream): say so rather than
    // read it as C++.
    if let Some(ext) = out.input.as_ref().and_then(|p| p.extension()).and_then(|e| e.to_str()) {
        if matches!(ext, "mlir" | "ir" | "ll") {
            let f = out.input.as_ref().map(|p| p.display().to_string()).unwrap_or_default();
            return Err(format!(
                "'{f}' is IR, not CUDA: `cuprite compile` takes .cu files. Use `cuprite opt {f}` for cuprite's IR, or \
                 `cuprite opt {f} --import-upstream --pass-pipeline=\"$(cuprite compile --print-pipeline)\" --emit=ptx` \
                 for upstream MLIR (gpu/llvm/nvvm)"
            ));
        }
    }
    if out.emit == Emit::Llvm {
        out.llvm_backend = true;
    }
    if out.llvm_backend {
        if matches!(out.emit, Emit::Nvvm | Emit::PtxIr) {
            return Err("--backend=llvm prints PTX (--emit=ptx) or LLVM IR (--emit=llvm); the IR levels are cuprite's own".into());
        }
        if out.maxrregcount.is_some() {
            return Err("-maxrregcount is not passed to LLVM's backend (--backend=llvm)".into());
        }
        if !crate::mlir::AVAILABLE {
            return Err(format!("--backend=llvm: {}", crate::mlir::NOT_BUILT));
        }
    }
    Ok(Some(out))
}

pub fn main(args: &[String], stdout: &mut dyn Write, stderr: &mut dyn Write) -> i32 {
    let usage_err = |stderr: &mut dyn Write, msg: String| {
        let _ = writeln!(stderr, "error: {msg}\n\n{}", usage());
        2
    };
    let args = match parse_args(args) {
        Ok(Some(a)) => a,
        Ok(None) => {
            let _ = write!(stdout, "{}", usage());
            return 0;
        }
        Err(msg) => return usage_err(stderr, msg),
    };
    let Args {
        config,
        preprocess_only,
        emit_ast,
        emit,
        float,
        locations,
        parse_only,
        syntax_only,
        werror,
        host_code,
        json,
        time_report,
        level,
        opt,
        print_pipeline,
        explain_pipeline,
        pass_stats,
        maxrregcount,
        threads,
        pass_opts,
        llvm_backend,
        input,
        output,
    } = args;
    if print_pipeline {
        let lowering = float.lowering();
        let config = crate::pipeline::PipelineConfig {
            sm: config.sm,
            fast_math: float.fast_math,
            lowering: &lowering,
            level,
            opt,
            max_registers: maxrregcount,
            select: emit != Emit::Nvvm,
        };
        let text = crate::pipeline::compile_pipeline(&config);
        if !explain_pipeline {
            let _ = writeln!(stdout, "{text}");
            return 0;
        }
        // One pass a line, in order, nested ones indented under their anchor.
        let mut depth = 0usize;
        let mut name = String::new();
        let mut in_options = false;
        let flush = |name: &mut String, depth: usize, out: &mut dyn Write| {
            if name.is_empty() {
                return;
            }
            let what = cuprite_lowering::transforms::CICC_COUNTERPARTS.iter().find(|(n, _)| n == name).map_or("", |(_, w)| w);
            let _ = writeln!(out, "{:indent$}{:<32} {what}", "", name, indent = 2 * depth.saturating_sub(1));
            name.clear();
        };
        for c in text.chars() {
            match c {
                '{' => in_options = true,
                '}' => in_options = false,
                _ if in_options => {}
                '(' => {
                    if name != "builtin.module" {
                        let _ = writeln!(stdout, "{:indent$}{name}:", "", indent = 2 * depth.saturating_sub(1));
                    }
                    name.clear();
                    depth += 1;
                }
                ')' => {
                    flush(&mut name, depth, &mut *stdout);
                    depth = depth.saturating_sub(1);
                }
                ',' => flush(&mut name, depth, &mut *stdout),
                c => name.push(c),
            }
        }
        return 0;
    }
    let Some(input) = input else { return usage_err(stderr, "no input file".into()) };
    let mut timer = PhaseTimer::new(time_report);
    let text = match std::fs::read(&input) {
        Ok(b) => String::from_utf8(b).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
        Err(e) => {
            let _ = writeln!(stderr, "error: cannot read '{}': {e}", input.display());
            return 2;
        }
    };
    let name = input.display().to_string();
    let sm = config.sm;
    timer.done("read");
    // -E stores the token stream to print it; everything else parses as it preprocesses.
    let mut printed = None;
    let mut lowered = None;
    let mut pre = if preprocess_only {
        let p = cuprite_frontend::preprocess(&name, Some(&input), &text, config);
        timer.done("preprocess");
        printed = Some(cuprite_frontend::pp::print_tokens(&p.tokens, &p.interner, &p.sm, &p.expansions));
        timer.done("print tokens");
        cuprite_frontend::Parsed { sm: p.sm, interner: p.interner, ast: Default::default(), diags: p.diags, expansions: p.expansions }
    } else if emit_ast || parse_only {
        let p = cuprite_frontend::parse_source(&name, Some(&input), &text, config);
        timer.done("preprocess and parse");
        p
    } else {
        // Sema recurses as deep as the parser's nesting limit allows: give it room. On large
        // files it runs while the parser parses (on a thread of its own).
        let opts = cuprite_frontend::sema::SemaOptions { arch: sm };
        let (p, l) = big_stack(|| cuprite_frontend::parse_and_lower(&name, Some(&input), &text, config, opts));
        timer.done("preprocess, parse, sema and cuda emission");
        lowered = Some(l);
        p
    };
    let mut diags = std::mem::take(&mut pre.diags);
    let mut ir = None;
    let out = if let Some(out) = printed {
        out
    } else {
        let tree = &pre.ast;
        if emit_ast {
            let out = cuprite_frontend::dump::dump(tree, &pre.interner, &pre.sm);
            timer.done("print ast");
            out
        } else if parse_only {
            String::new()
        } else {
            let (ctx, module, sema_diags) = lowered.take().expect("parse_and_lower ran");
            diags.extend(sema_diags);
            let ctx = ir.insert(ctx);
            let has_errors = diags.iter().any(|d| d.severity == Severity::Error);
            if syntax_only || has_errors {
                String::new()
            } else if emit == Emit::Cuda {
                let out =
                    cuprite_ir::print::print_op(ctx, module, cuprite_ir::print::PrintOptions { locations, ..Default::default() }) + "\n";
                timer.done("print cuda");
                out
            } else {
                let opts = float.lowering();
                let lo = LowerOptions {
                    emit,
                    sm,
                    locations,
                    level,
                    opt,
                    fast_math: float.fast_math,
                    pass_opts: pass_opts.clone(),
                    pass_stats,
                    maxrregcount,
                    threads,
                    llvm_backend,
                };
                let mut log = String::new();
                let sources = &pre.sm;
                let lowered = big_stack(|| lower(ctx, module, &opts, &lo, &mut timer, &mut log, sources));
                let _ = write!(stderr, "{log}");
                match lowered {
                    Ok(text) => text,
                    Err(errs) => {
                        diags.extend(errs);
                        String::new()
                    }
                }
            }
        }
    };
    // Host code's diagnostics: warnings under -Whost-code, else hidden (counted).
    let hidden = if host_code {
        for d in &mut diags {
            if d.severity == Severity::Host {
                d.severity = Severity::Warning;
                d.message = format!("in host code: {}", d.message);
            }
        }
        0
    } else {
        let n = diags.len();
        diags.retain(|d| d.severity != Severity::Host);
        n - diags.len()
    };
    if hidden > 0 && diags.iter().any(|d| d.severity == Severity::Error) {
        diags.push(cuprite_frontend::Diagnostic {
            severity: Severity::Note,
            message: format!(
                "{hidden} problem{} in host code cuprite does not compile {} hidden; if device code needs a declaration from host code, -Whost-code shows why it was not read",
                if hidden == 1 { "" } else { "s" },
                if hidden == 1 { "was" } else { "were" }
            ),
            span: None,
            notes: Vec::new(),
        });
    }
    let mut errors = 0;
    for d in &diags {
        let d = if werror && d.severity == Severity::Warning {
            cuprite_frontend::Diagnostic { severity: Severity::Error, ..d.clone() }
        } else {
            d.clone()
        };
        if d.severity == Severity::Error {
            errors += 1;
        }
        if json {
            let _ = writeln!(stderr, "{}", d.to_json(&pre.sm));
        } else {
            let _ = write!(stderr, "{}", d.render(&pre.sm));
        }
    }
    // With errors, no output file is written (an existing one stays as it was), and no
    // IR is printed; -E and --emit=ast still show what was read.
    if errors > 0 && (output.is_some() || !(preprocess_only || emit_ast)) {
        timer.done("diagnostics");
        timer.report(stderr);
        return 1;
    }
    let res = match &output {
        Some(p) => std::fs::write(p, &out),
        None => stdout.write_all(out.as_bytes()),
    };
    if let Err(e) = res {
        let _ = writeln!(stderr, "error: cannot write the output: {e}");
        return 2;
    }
    timer.done("diagnostics and output");
    // When the process ends right after (the `cuprite` binary), skip freeing the syntax
    // tree, the IR and (for -E) the tokens: millions of frees buy nothing at exit.
    if crate::EXIT_AFTER_RUN.load(std::sync::atomic::Ordering::Relaxed) {
        std::mem::forget(ir);
        std::mem::forget(pre);
        std::mem::forget(out);
    }
    timer.report(stderr);
    i32::from(errors > 0)
}

/// What `cuprite compile` prints.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Emit {
    Cuda,
    Nvvm,
    PtxIr,
    Ptx,
    /// LLVM IR (`--backend=llvm`).
    Llvm,
}

/// Runs `f` on a thread with a large stack (sema and the lowering recurse over nesting), or
/// on this one if no thread can be started.
pub fn big_stack<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    let f = std::sync::Mutex::new(Some(f));
    let take = || f.lock().unwrap_or_else(|e| e.into_inner()).take().expect("run once");
    std::thread::scope(|s| match std::thread::Builder::new().stack_size(256 << 20).spawn_scoped(s, || take()()) {
        Ok(h) => h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)),
        Err(_) => take()(),
    })
}

/// What [`lower`] does after the conversions to nvvm.
struct LowerOptions {
    emit: Emit,
    sm: u32,
    locations: bool,
    level: u8,
    opt: cuprite_lowering::transforms::OptFlags,
    /// `--use_fast_math`.
    fast_math: bool,
    pass_opts: cuprite_ir::pass::PassOptions,
    pass_stats: bool,
    maxrregcount: Option<u32>,
    /// Threads for the per-function passes and NvvmToPtx (0: one per core; 1: the whole
    /// module in one context, sequentially).
    threads: usize,
    /// `--backend=llvm`.
    llvm_backend: bool,
}

/// Runs the lowering pipeline ([`crate::pipeline::compile_pipeline`]) on sema's `cuda`
/// module and prints the level `lo.emit` asks for. Pass dumps, statistics and remarks go to
/// `log`; errors come back as diagnostics at their source locations.
fn lower(
    ctx: &mut cuprite_ir::Context,
    module: cuprite_ir::OpId,
    opts: &cuprite_lowering::FloatOptions,
    lo: &LowerOptions,
    timer: &mut PhaseTimer,
    log: &mut String,
    sources: &cuprite_frontend::source::SourceMap,
) -> Result<String, Vec<cuprite_frontend::Diagnostic>> {
    let (emit, sm, locations) = (lo.emit, lo.sm, lo.locations);
    // `--emit=ptx` selects and prints per function on several threads (same text).
    let threaded_ptx = emit == Emit::Ptx && lo.threads != 1;
    let select = emit == Emit::PtxIr || (emit == Emit::Ptx && !threaded_ptx);
    let config = crate::pipeline::PipelineConfig {
        sm,
        fast_math: lo.fast_math,
        lowering: opts,
        level: lo.level,
        opt: lo.opt,
        max_registers: lo.maxrregcount,
        select,
    };
    let text = crate::pipeline::compile_pipeline(&config);
    // LLVM's backend takes the nvvm level after the conversions and inlining, and optimizes
    // it itself.
    let text = if lo.llvm_backend { crate::pipeline::split_after_inline(&text).0 } else { text };
    let pm = cuprite_ir::pass::parse_pipeline(&text, "builtin.module", &crate::pipeline::registry()).expect("the built-in pipelines parse");
    let mut popts = lo.pass_opts.clone();
    popts.print.locations = locations;
    popts.timing = timer.on;
    let result = cuprite_ir::pass::run_pipeline(ctx, module, &pm, &popts, None);
    let failed = result.is_err();
    let out = result.unwrap_or_else(|e| e);
    use std::fmt::Write as _;
    log.push_str(&out.dumps);
    let mut errors = Vec::new();
    for d in &out.diagnostics {
        if d.severity == cuprite_ir::Severity::Error {
            let mut e = error_at(d.span.as_ref().map(|s| s.lo), d.message.clone());
            // Notes keep what they say (the pass, disabled patterns); their spans are
            // IR-level and left out.
            e.notes = d.notes.iter().map(|(m, _)| cuprite_frontend::diag::Note { span: None, message: m.clone() }).collect();
            errors.push(e);
        } else {
            // Warnings and remarks at `file:line:col` where the file is one of the sources.
            let place = d.span.as_ref().and_then(|sp| {
                let f = sources.files.iter().find(|f| f.name == sp.file)?;
                let (l, c) = f.line_col(sp.lo);
                Some(format!("{}:{l}:{c}", f.name))
            });
            match place {
                Some(p) => {
                    let kind = if d.severity == cuprite_ir::Severity::Warning { "warning" } else { "remark" };
                    let _ = writeln!(log, "{p}: {kind}: {}", d.message);
                }
                None => {
                    let _ = writeln!(log, "{d}");
                }
            }
        }
    }
    if lo.pass_stats {
        log.push_str(&cuprite_ir::pass::format_statistics(&out.statistics));
    }
    if failed {
        if errors.is_empty() {
            errors.push(error_at(None, "the lowering pipeline failed (see above)".into()));
        }
        return Err(errors);
    }
    timer.passes(&out.timing, "pass manager (other: contexts and threads)");
    if lo.llvm_backend {
        let llvm = crate::mlir::LlvmBackend { sm, opt_level: lo.level, fast_math: lo.fast_math, emit_llvm: emit == Emit::Llvm };
        let out = crate::mlir::llvm_backend(ctx, module, &llvm).map_err(|e| vec![error_at(None, e)])?;
        timer.done("LLVM: optimizer and NVPTX backend");
        return Ok(out);
    }
    let print = |ctx: &cuprite_ir::Context, m| {
        cuprite_ir::print::print_op(ctx, m, cuprite_ir::print::PrintOptions { locations, ..Default::default() }) + "\n"
    };
    let popts = cuprite_lowering::PtxOptions { sm };
    // An inlined op's location is a call site: its own place is the callee's.
    let lower_err = |ctx: &cuprite_ir::Context, errs: Vec<cuprite_lowering::LowerError>| -> Vec<cuprite_frontend::Diagnostic> {
        errs.into_iter().map(|e| error_at(cuprite_ir::verify::loc_span(ctx, e.loc, None).map(|s| s.lo), e.message)).collect()
    };
    let out = match emit {
        Emit::Nvvm | Emit::PtxIr => print(ctx, module),
        _ if threaded_ptx => {
            let threads = if lo.threads == 0 { std::thread::available_parallelism().map_or(1, |n| n.get()) } else { lo.threads };
            let disabled = &lo.pass_opts.disabled_patterns;
            cuprite_lowering::nvvm_to_ptx_text(ctx, module, &popts, threads, disabled).map_err(|errs| {
                // The selector runs outside the pass manager here: the note its pass adds.
                let pass = cuprite_lowering::passes::ConvertNvvmToPtx::NAME;
                let off: Vec<&str> = cuprite_lowering::nvvm_to_ptx::pattern_infos()
                    .iter()
                    .map(|p| p.name)
                    .filter(|n| disabled.iter().any(|d| d == n))
                    .collect();
                let note = if off.is_empty() {
                    format!("in pass '{pass}'")
                } else {
                    format!("in pass '{pass}', with pattern(s) {} disabled", off.join(", "))
                };
                let mut ds = lower_err(ctx, errs);
                for d in &mut ds {
                    d.notes.push(cuprite_frontend::diag::Note { span: None, message: note.clone() });
                }
                ds
            })?
        }
        _ => cuprite_lowering::print_ptx(ctx, module, &popts),
    };
    timer.done("print");
    Ok(out)
}

/// An error of the lowering at byte `offset` of the main file (the frontend's locations
/// are offsets), or without a place.
fn error_at(offset: Option<u32>, message: String) -> cuprite_frontend::Diagnostic {
    let span = offset.map(|o| cuprite_frontend::source::Span::new(cuprite_frontend::source::FileId(0), o as usize, o as usize + 1));
    cuprite_frontend::Diagnostic { severity: Severity::Error, message, span, notes: Vec::new() }
}

/// `-ftime-report`: wall time per phase.
struct PhaseTimer {
    on: bool,
    last: std::time::Instant,
    phases: Vec<(String, std::time::Duration)>,
}

impl PhaseTimer {
    fn new(on: bool) -> Self {
        PhaseTimer { on, last: std::time::Instant::now(), phases: Vec::new() }
    }
    fn done(&mut self, phase: &'static str) {
        if self.on {
            let now = std::time::Instant::now();
            self.phases.push((phase.to_string(), now - self.last));
            self.last = now;
        }
    }
    /// Each pass's time from the pass manager's timing, then what the pipeline spent
    /// outside passes (verifying, moving functions between contexts) as `rest`.
    fn passes(&mut self, timing: &cuprite_ir::pass::Timing, rest: &'static str) {
        if self.on {
            let now = std::time::Instant::now();
            let mut in_passes = std::time::Duration::ZERO;
            for (n, d) in &timing.entries {
                let label = if n.starts_with('(') { format!("pass manager {n}") } else { format!("pass {n}") };
                self.phases.push((label, *d));
                in_passes += *d;
            }
            self.phases.push((rest.to_string(), (now - self.last).saturating_sub(in_passes)));
            self.last = now;
        }
    }
    fn report(&self, stderr: &mut dyn Write) {
        if !self.on {
            return;
        }
        let total: std::time::Duration = self.phases.iter().map(|p| p.1).sum();
        let _ = writeln!(stderr, "time report (wall):");
        for (name, d) in &self.phases {
            let _ = writeln!(stderr, "  {:>9.2} ms  {name}", d.as_secs_f64() * 1e3);
        }
        let _ = writeln!(stderr, "  {:>9.2} ms  total", total.as_secs_f64() * 1e3);
    }
}
