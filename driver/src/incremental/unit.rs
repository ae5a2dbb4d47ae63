//! The compile work behind the database's queries, free of salsa: a translation unit to
//! its [`ModuleParts`] (the module stage), and one function's [`FuncUnit`] to its PTX (the
//! function stage).
//!
//! The split is where `cuprite compile`'s pipeline stops being module-wide: everything up
//! to and including `nvvm-inline` (the frontend, linking the math library, the conversions
//! to `nvvm`, inlining, which decides on the whole module) is the module stage; the
//! `nvvm.func(...)` pipeline, `nvvm-max-registers` and instruction selection run on one
//! function in its own context. Each function crosses the boundary as text: its `nvvm`
//! form printed without locations, which is both its key (two equal texts compile to the
//! same PTX, wherever the function sits in the file) and what the function stage parses.
//! The PTX assembled from the pieces is byte for byte `cuprite compile`'s (tested).

use super::reuse::{self, ModuleMemos};
use crate::compile::Args;
use cuprite_frontend::{diag::Severity, pp::FileSource, preamble::Preambles, SourceMap};
use cuprite_ir::{Context, Location, OpId, TypeKind};
use cuprite_lowering::transforms::inline::InlineHistory;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// A diagnostic with its place resolved to lines and columns (1-based; columns in bytes),
/// and as ariadne renders it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diag {
    pub severity: Severity,
    pub message: String,
    pub place: Option<Place>,
    /// Notes: what they say, and where when they have a place (macro expansions,
    /// template instantiations).
    pub notes: Vec<(String, Option<Place>)>,
    /// The ariadne text `cuprite compile` prints for it.
    pub rendered: String,
}

/// A range in a file: the file's name as diagnostics show it, start and end (line,
/// column), 1-based.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Place {
    pub file: String,
    pub start: (u32, u32),
    pub end: (u32, u32),
}

/// What kind of function an [`Item`] is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ItemKind {
    Kernel,
    Device,
}

/// A function the module stage emitted (a kernel, a device function, a template
/// instance), for the editor: outline, definitions, lenses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// The PTX symbol (mangled).
    pub symbol: String,
    /// The name as written at the definition.
    pub name: String,
    pub kind: ItemKind,
    /// The name at the definition.
    pub place: Place,
    /// The last line of the main file any of its operations comes from (its extent for
    /// "the function under the cursor").
    pub last_line: u32,
}

/// A local variable's declaration, for go to definition: its name, where it is declared,
/// and the function it belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarDecl {
    pub name: String,
    pub line: u32,
    pub col: u32,
    pub function: String,
}

/// The type of what an operation at a place computes, for hover.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeAt {
    pub line: u32,
    pub col: u32,
    /// Its C spelling (shared by every place of the type).
    pub ty: Arc<str>,
}

/// One function after the module stage, in its own terms. Two are equal when their
/// symbols, places, keys and callees are: the key stands for the text.
#[derive(Clone, Debug)]
pub struct FuncUnit {
    pub symbol: String,
    /// Its place among the module's functions (PTX labels and the local depot are
    /// numbered by it).
    pub index: usize,
    /// Its `nvvm` form, printed without locations, after the `readonly` globals it names.
    pub nvvm: Arc<str>,
    /// The structural fingerprint of that text ([`cuprite_ir::fingerprint`]: the
    /// function's, combined with the tables' texts).
    pub key: u128,
    /// The signatures of the functions it names (for the calls it makes), sorted by name.
    pub callees: Vec<(String, Vec<TypeKind>, Vec<TypeKind>)>,
}

impl PartialEq for FuncUnit {
    fn eq(&self, o: &Self) -> bool {
        self.key == o.key && self.index == o.index && self.symbol == o.symbol && self.callees == o.callees
    }
}

impl Eq for FuncUnit {}

impl std::hash::Hash for FuncUnit {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.symbol.hash(h);
        self.index.hash(h);
        self.key.hash(h);
        self.callees.hash(h);
    }
}

/// The nvvm texts of functions by key, kept across compiles of a database: a function whose
/// key is known is not printed again (its text is the same). Cleared when it holds
/// [`KeyTexts::LIMIT`] texts.
#[derive(Default)]
pub struct KeyTexts(Mutex<rustc_hash::FxHashMap<u128, Arc<str>>>);

impl KeyTexts {
    /// How many texts it keeps at most.
    pub const LIMIT: usize = 8192;

    fn get_or_print(&self, key: u128, print: impl FnOnce() -> String) -> Arc<str> {
        if let Some(t) = self.0.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return t.clone();
        }
        let t: Arc<str> = print().into();
        let mut m = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if m.len() >= Self::LIMIT {
            m.clear();
        }
        m.insert(key, t.clone());
        t
    }
}

/// The module stage's result.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ModuleParts {
    /// The frontend's and the conversions' diagnostics (host-code ones under -Whost-code
    /// only, as `cuprite compile` shows them).
    pub diagnostics: Vec<Diag>,
    /// Errors stop the compile before PTX.
    pub has_errors: bool,
    pub items: Vec<Item>,
    pub types: Vec<TypeAt>,
    /// The local variables (and parameters) of the main file's functions.
    pub vars: Vec<VarDecl>,
    /// The PTX of the module's variables.
    pub globals_ptx: String,
    /// The functions in module order, after inlining.
    pub funcs: Vec<FuncUnit>,
    /// The function stage's pipeline (`builtin.module(...)` on a module of one function).
    pub function_pipeline: String,
    /// The whole PTX, for a module that cannot be split into functions (ops other than
    /// functions and variables at module level); `None` normally.
    pub whole_ptx: Option<String>,
    /// The main file and every file the preprocessor read, for `cuprite watch`.
    pub files: Vec<String>,
}

/// A function's PTX and what the editor shows of it.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct FuncPtx {
    /// `(prototype for a .func, text)`.
    pub prototype: Option<String>,
    pub text: String,
    /// The instructions of its PTX body.
    pub instructions: u32,
    /// Virtual registers the PTX declares (ptxas allocates the machine registers).
    pub registers: u32,
    /// Bytes of its local depot (stack).
    pub local_bytes: u32,
    /// Errors and remarks of the function stage, without places (the caller puts them at
    /// the function: its place may have moved since).
    pub diagnostics: Vec<(Severity, String)>,
}

/// The module stage: preprocesses, parses and checks `text` (the file `name` at `path`),
/// reading included files through `files`, and lowers it to `nvvm` with inlining.
pub(crate) fn lower_module(
    name: &str,
    path: Option<&Path>,
    text: &str,
    args: &Args,
    files: Option<&dyn FileSource>,
    (texts, preambles, memos, flags): (&KeyTexts, &Preambles, &ModuleMemos, &[String]),
) -> ModuleParts {
    let mut config = args.config.clone();
    config.files = files;
    let opts = cuprite_frontend::sema::SemaOptions { arch: config.sm };
    // On large files the parser (with the preprocessor) on a thread of its own and sema on
    // this one, as `cuprite compile` does: below `PIPELINE_MIN_BYTES` the thread costs more
    // than the overlap saves (with the preamble kept, a 29 KB file's frontend takes 2.7 ms
    // on one thread, 3.3 ms on two). (The files the preprocessor reads are recorded
    // thread-safely and registered with salsa by the caller, on the query's thread.)
    let overlap = cuprite_frontend::worth_a_thread(text.len());
    let stage = Stage::new(args);
    // The module stage reuses what the last compile of the unit left where it can
    // ([`reuse`]): then only edited kernels go through it. The memo is held out of the
    // database while this compile runs, and put back (or replaced) when it ends.
    let mut held = reuse::Held::new(memos, reuse::memo_key(name, flags, &stage.module_stage));
    // The frontend reads again only the kernel bodies the memo's compile does not know
    // ([`cuprite_frontend::sema::bodies`]); where their results cannot be taken from the
    // memo, it runs again reading every body.
    let mut known = held.memo().and_then(|m| m.bodies()).filter(|_| stage.plan.is_some());
    loop {
        let preamble = preambles.get(&config, &opts);
        let (mut parsed, (mut ctx, module, sema_diags), bodies) = if stage.plan.is_some() {
            // With bodies to reuse, parser and sema on one thread: sema is then a small
            // part of the frontend, and the parser can skip what sema knows.
            let overlap = overlap && known.is_none();
            preamble.lower_reusing(name, path, text, config.clone(), overlap, known.take())
        } else {
            let (p, l) = preamble.lower_unverified(name, path, text, config.clone(), overlap);
            (p, l, Default::default())
        };
        let reused = bodies.reused().count();
        held.log_frontend(reuse::FrontendRun { reused, unparsed: bodies.unparsed, read: bodies.list.len() - reused });
        if bodies.unknown {
            // A body the parser skipped had to be read after all: again, reading all.
            continue;
        }
        if let Some(out) = lower_parsed(&mut parsed, &mut ctx, module, sema_diags, bodies, args, texts, &stage, &mut held) {
            return out;
        }
    }
}

/// Ops in a module from which its outline is made on a second thread while its IR is
/// checked (below, the thread costs more than it saves).
const PARALLEL_OUTLINE_OPS: usize = 4000;

/// The module stage's pipeline and how it is run.
struct Stage {
    /// The pipeline `cuprite compile` runs, cut after `nvvm-inline`.
    module_stage: String,
    function_pipeline: String,
    plan: Option<reuse::Plan>,
    popts: cuprite_ir::pass::PassOptions,
}

impl Stage {
    fn new(args: &Args) -> Stage {
        let lowering = args.float.lowering();
        let config = crate::pipeline::PipelineConfig {
            sm: args.config.sm,
            fast_math: args.float.fast_math,
            lowering: &lowering,
            level: args.level,
            opt: args.opt,
            max_registers: args.maxrregcount,
            select: false,
        };
        let full = crate::pipeline::compile_pipeline(&config);
        let (module_stage, function_pipeline) = crate::pipeline::split_after_inline(&full);
        let mut popts = args.pass_opts.clone();
        popts.threading = false;
        let plan = reuse::Plan::new(&module_stage, &popts);
        Stage { module_stage, function_pipeline, plan, popts }
    }
}

/// The module stage after the frontend: diagnostics, the editor's view, the conversions
/// and inlining, and the functions' keys. `None` when the frontend left stubs
/// (`bodies`) whose results the memo cannot give: the caller runs the frontend again,
/// reading every body.
#[allow(clippy::too_many_arguments)]
fn lower_parsed(
    parsed: &mut cuprite_frontend::Parsed,
    ctx: &mut Context,
    module: OpId,
    sema_diags: Vec<cuprite_frontend::Diagnostic>,
    bodies: cuprite_frontend::sema::bodies::Bodies,
    args: &Args,
    texts: &KeyTexts,
    stage: &Stage,
    held: &mut reuse::Held<'_>,
) -> Option<ModuleParts> {
    let mut diags = std::mem::take(&mut parsed.diags);
    diags.extend(sema_diags);
    let (module_stage, plan, popts) = (&stage.module_stage, &stage.plan, &stage.popts);
    let function_pipeline = stage.function_pipeline.clone();
    let reg = crate::pipeline::registry();
    let stubs: Vec<String> = bodies.reused().map(str::to_string).collect();
    let stub_set: rustc_hash::FxHashSet<&str> = stubs.iter().map(String::as_str).collect();
    // The frontend's IR is verified where it differs from what the memo's compile verified.
    // With a second core, the editor's outline of a large module (`describe`) is made
    // meanwhile: it only reads the IR, as these do.
    let outline_aside = !diags.iter().any(|d| d.severity == Severity::Error)
        && ctx.num_ops() >= PARALLEL_OUTLINE_OPS
        && std::thread::available_parallelism().is_ok_and(|n| n.get() > 1);
    let (shape, outline) = {
        let ctx: &Context = ctx;
        let (sm, memo, diags, reusable, stub_set) = (&parsed.sm, held.memo(), &mut diags, plan.is_some(), &stub_set);
        let mut check = move || -> Result<Option<reuse::Shape>, ()> {
            let shape = match reusable {
                true => Some(reuse::shape(ctx, module, stub_set, memo).ok_or(())?),
                false => None,
            };
            let roots = match (&shape, memo) {
                (Some(shape), Some(memo)) => match reuse::changed_functions(shape, memo) {
                    Some(roots) => roots,
                    None if !stub_set.is_empty() => return Err(()),
                    None => vec![module],
                },
                _ => vec![module],
            };
            cuprite_frontend::sema::verify_emitted(ctx, roots, diags);
            Ok(shape)
        };
        if outline_aside {
            std::thread::scope(|s| {
                let aside = s.spawn(move || describe(ctx, module, sm));
                let shape = check();
                (shape, aside.join().ok())
            })
        } else {
            (check(), None)
        }
    };
    let shape = shape.ok()?;
    let sm = &parsed.sm;
    let mut out = ModuleParts {
        files: sm.files.iter().filter(|f| f.kind == cuprite_frontend::source::FileKind::User).map(|f| f.name.clone()).collect(),
        function_pipeline,
        ..Default::default()
    };
    push_diags(&mut out, diags, args, sm);
    if out.has_errors {
        return Some(out);
    }
    // The outline: described where the module has bodies, the memo's (moved) for stubs.
    let mut outlines: rustc_hash::FxHashMap<OpId, Outline> = outline.unwrap_or_else(|| describe(ctx, module, sm)).into_iter().collect();
    let body = ctx.entry_block(ctx.region(module, 0))?;
    let ops: Vec<OpId> = ctx.block_ops(body).collect();
    if !stub_set.is_empty() {
        let memo = held.memo()?;
        for &op in &ops {
            let Some(symbol) = ctx.symbol_name(op).filter(|s| stub_set.contains(s)) else { continue };
            let moved = memo.outline(symbol).zip(function_line(ctx, op, sm)).map(|(o, line)| o.moved_to(line))?;
            outlines.insert(op, moved);
        }
    }
    let ordered: Vec<Outline> = ops.iter().filter_map(|op| outlines.remove(op)).collect();
    fill_outline(&mut out, ordered.iter());
    let outlines: rustc_hash::FxHashMap<String, Outline> = ordered.into_iter().map(|o| (o.symbol().to_string(), o)).collect();
    if let (Some(plan), Some(shape), Some(memo)) = (plan, &shape, held.memo()) {
        if let Some(r) = reuse::reuse(ctx, module, shape, memo, plan, popts) {
            let (funcs, globals) = memo.parts();
            let mut funcs = funcs.to_vec();
            let stage = if matches!(r, reuse::Reuse::Unchanged) { reuse::ModuleStage::Unchanged } else { reuse::ModuleStage::Kernels };
            let ok = match r {
                reuse::Reuse::Unchanged => true,
                reuse::Reuse::Part { part, redo } => match cuprite_lowering::module_signatures(ctx, part) {
                    Some(sigs) => {
                        let new = func_units(ctx, part, &sigs, texts, |_, s| redo.iter().find(|(r, _)| r == s).map(|&(_, i)| i));
                        for u in new {
                            if let Some(f) = funcs.iter_mut().find(|f| f.symbol == u.symbol) {
                                *f = u;
                            }
                        }
                        true
                    }
                    None => false,
                },
            };
            if ok {
                out.funcs = funcs.clone();
                out.globals_ptx = globals.to_string();
                held.reused(shape.clone(), funcs, bodies, outlines);
                held.log(stage);
                return Some(out);
            }
        }
    }
    if !stub_set.is_empty() {
        return None;
    }
    // The whole module stage: the memo it leaves replaces the old one.
    held.forget();
    held.log(reuse::ModuleStage::Whole);
    let mut history = plan.as_ref().and_then(|p| p.inline.as_ref()).map(|_| InlineHistory::default());
    let result = match &plan {
        Some(plan) => match cuprite_ir::pass::run_pipeline(ctx, module, &plan.pre_inline, popts, None) {
            Ok(mut r) => match (&plan.inline, history.as_mut()) {
                (Some(opts), Some(h)) => {
                    // `nvvm-inline`, recorded: what its pass does, with the history kept.
                    let s = cuprite_lowering::transforms::inline::inline_module_recorded(ctx, module, opts, h);
                    if s.budget_hit {
                        r.diagnostics.push(cuprite_ir::Diagnostic::remark(cuprite_lowering::transforms::inline::budget_message(), None));
                    }
                    match reuse::verify_after_inline(ctx, module, popts) {
                        Ok(()) => Ok(r),
                        Err(errs) => {
                            r.diagnostics.extend(errs);
                            Err(r)
                        }
                    }
                }
                _ => Ok(r),
            },
            Err(r) => Err(r),
        },
        None => {
            let pm = cuprite_ir::pass::parse_pipeline(module_stage, "builtin.module", &reg).expect("the built-in pipelines parse");
            cuprite_ir::pass::run_pipeline(ctx, module, &pm, popts, None)
        }
    };
    let failed = result.is_err();
    let res = result.unwrap_or_else(|e| e);
    let stage_diagnostics = !res.diagnostics.is_empty();
    let mut errs = Vec::new();
    for d in &res.diagnostics {
        let severity = match d.severity {
            cuprite_ir::Severity::Error => Severity::Error,
            cuprite_ir::Severity::Warning => Severity::Warning,
            _ => Severity::Note,
        };
        let span = d.span.as_ref().map(|s| cuprite_frontend::Span::new(cuprite_frontend::FileId(0), s.lo as usize, s.lo as usize + 1));
        let notes = d.notes.iter().map(|(m, _)| cuprite_frontend::diag::Note { span: None, message: m.clone() }).collect();
        errs.push(cuprite_frontend::Diagnostic { severity, message: d.message.clone(), span, notes });
    }
    if failed && !errs.iter().any(|d| d.severity == Severity::Error) {
        errs.push(cuprite_frontend::Diagnostic {
            severity: Severity::Error,
            message: "the lowering pipeline failed".into(),
            span: None,
            notes: Vec::new(),
        });
    }
    push_diags(&mut out, errs, args, sm);
    if out.has_errors {
        return Some(out);
    }
    let Some(sigs) = cuprite_lowering::module_signatures(ctx, module) else {
        // Not splittable: the rest of the pipeline on the whole module.
        let rest = format!("{},convert-nvvm-to-ptx)", &out.function_pipeline[..out.function_pipeline.len() - 1]);
        let pm = cuprite_ir::pass::parse_pipeline(&rest.replace("(,", "("), "builtin.module", &reg).expect("the built-in pipelines parse");
        match cuprite_ir::pass::run_pipeline(ctx, module, &pm, popts, None) {
            Ok(_) => out.whole_ptx = Some(cuprite_lowering::print_ptx(ctx, module, &cuprite_lowering::PtxOptions { sm: args.config.sm })),
            Err(r) => {
                let ds = r
                    .diagnostics
                    .iter()
                    .map(|d| cuprite_frontend::Diagnostic {
                        severity: Severity::Error,
                        message: d.message.clone(),
                        span: None,
                        notes: Vec::new(),
                    })
                    .collect();
                push_diags(&mut out, ds, args, sm);
            }
        }
        return Some(out);
    };
    out.globals_ptx = cuprite_lowering::globals_text(ctx, module);
    out.funcs = func_units(ctx, module, &sigs, texts, |i, _| Some(i));
    if let (Some(shape), false) = (shape, stage_diagnostics) {
        let mut memo = reuse::ModuleMemo::new(shape, history, out.funcs.clone(), out.globals_ptx.clone());
        memo.set_front(bodies, outlines);
        held.set(memo);
    }
    Some(out)
}

/// The [`FuncUnit`]s of the `nvvm.func`s of `module` that `place` gives a place (from
/// their position among the module's functions and their symbol), in module order.
fn func_units(
    ctx: &Context,
    module: OpId,
    sigs: &cuprite_lowering::KindSigs,
    texts: &KeyTexts,
    place: impl Fn(usize, &str) -> Option<usize>,
) -> Vec<FuncUnit> {
    let mut out = Vec::new();
    let body = ctx.entry_block(ctx.region(module, 0)).expect("module body");
    let funcs: Vec<OpId> = ctx.block_ops(body).filter(|&o| cuprite_dialects::nvvm::FuncOp::cast(ctx, o).is_some()).collect();
    // The readonly globals (`fold-constant-loads` reads their initializers) go with each
    // function that names them: part of its text and key, so an edit of the table
    // recompiles its users.
    let readonly: std::collections::BTreeMap<String, String> = ctx
        .block_ops(body)
        .filter_map(|o| cuprite_dialects::nvvm::GlobalOp::cast(ctx, o).filter(|g| g.readonly(ctx)))
        .map(|g| {
            let text = cuprite_ir::print::print_op(ctx, g.op(), cuprite_ir::print::PrintOptions::default());
            (g.sym_name(ctx).unwrap_or_default().to_string(), text)
        })
        .collect();
    // Each function's key is its structural fingerprint (with the tables it names); only a
    // function whose key is new is printed.
    let mut fingerprints = cuprite_ir::fingerprint::Fingerprinter::default();
    for (position, f) in funcs.into_iter().enumerate() {
        let symbol = cuprite_dialects::nvvm::FuncOp(f).sym_name(ctx).unwrap_or_default().to_string();
        let Some(index) = place(position, &symbol) else { continue };
        let fp = fingerprints.op(ctx, f);
        let named: std::collections::HashSet<&str> = fp.symbols.iter().map(String::as_str).chain([symbol.as_str()]).collect();
        let tables: Vec<&String> = readonly.iter().filter(|(n, _)| named.contains(n.as_str())).map(|(_, t)| t).collect();
        let key = {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            fp.hash.hash(&mut h);
            tables.hash(&mut h);
            fp.hash ^ u128::from(h.finish())
        };
        let nvvm = texts.get_or_print(key, || {
            let mut with = String::new();
            for t in &tables {
                with.push_str(t);
                with.push('\n');
            }
            with.push_str(&cuprite_ir::print::print_op(ctx, f, cuprite_ir::print::PrintOptions::default()));
            with
        });
        let mut callees: Vec<(String, Vec<TypeKind>, Vec<TypeKind>)> =
            sigs.iter().filter(|(n, _)| named.contains(n.as_str())).map(|(n, (i, r))| (n.clone(), i.clone(), r.clone())).collect();
        callees.sort_by(|a, b| a.0.cmp(&b.0));
        out.push(FuncUnit { symbol, index, nvvm, key, callees });
    }
    out
}

/// The `@symbol`s printed IR names (what the keys' symbols must cover: a test checks it).
pub fn symbols_named(text: &str) -> std::collections::HashSet<&str> {
    cuprite_ir::fingerprint::symbol_refs(text).into_iter().collect()
}

/// Adds the frontend's diagnostics `diags` to `out` as `cuprite compile` shows them:
/// host-code ones only under `-Whost-code` (as warnings), warnings as errors under
/// `-Werror`.
fn push_diags(out: &mut ModuleParts, diags: Vec<cuprite_frontend::Diagnostic>, args: &Args, sm: &SourceMap) {
    for mut d in diags {
        if d.severity == Severity::Host {
            if !args.host_code {
                continue;
            }
            d.severity = Severity::Warning;
            d.message = format!("in host code: {}", d.message);
        }
        if args.werror && d.severity == Severity::Warning {
            d.severity = Severity::Error;
        }
        out.has_errors |= d.severity == Severity::Error;
        let place = |s: &cuprite_frontend::Span| -> Option<Place> {
            let f = sm.files.get(s.file.0 as usize)?;
            let (l0, c0) = f.line_col(s.lo);
            let (l1, c1) = f.line_col(s.hi.max(s.lo));
            Some(Place { file: f.name.clone(), start: (l0, c0), end: (l1, c1) })
        };
        out.diagnostics.push(Diag {
            severity: d.severity,
            message: d.message.clone(),
            place: d.span.as_ref().and_then(place),
            notes: d.notes.iter().map(|n| (n.message.clone(), n.span.as_ref().and_then(place))).collect(),
            rendered: d.render(sm),
        });
    }
}

/// What the editor's view says of one function: its item, and the types and variables
/// at places in it.
#[derive(Clone, Debug)]
pub(crate) struct Outline {
    item: Item,
    types: Vec<TypeAt>,
    vars: Vec<VarDecl>,
}

impl Outline {
    /// The same function's outline with its first line at `line` (it moved as a whole).
    pub(crate) fn moved_to(&self, line: u32) -> Outline {
        let delta = i64::from(line) - i64::from(self.item.place.start.0);
        let at = |l: u32| (i64::from(l) + delta).max(1) as u32;
        let mut o = self.clone();
        o.item.place.start.0 = at(o.item.place.start.0);
        o.item.place.end.0 = at(o.item.place.end.0);
        o.item.last_line = at(o.item.last_line);
        for t in &mut o.types {
            t.line = at(t.line);
        }
        for v in &mut o.vars {
            v.line = at(v.line);
        }
        o
    }

    pub(crate) fn symbol(&self) -> &str {
        &self.item.symbol
    }
}

/// Where `op`'s location is in the main file (`main`), if it is there.
fn main_file_loc(ctx: &Context, op: OpId, main: &str) -> Option<(u32, u32)> {
    let mut l = ctx.op_loc(op);
    for _ in 0..16 {
        match ctx.location(l) {
            Location::File { file, start, .. } => return (ctx.str(file) == main).then_some((start.line, start.col)),
            Location::Name { child: Some(c), .. } => l = c,
            Location::Fused { locs, .. } if !locs.is_empty() => l = locs[0],
            Location::CallSite { callee, .. } => l = callee,
            _ => return None,
        }
    }
    None
}

/// The line in the main file where function `op` begins.
pub(crate) fn function_line(ctx: &Context, op: OpId, sm: &SourceMap) -> Option<u32> {
    main_file_loc(ctx, op, &sm.files.first()?.name).map(|(l, _)| l)
}

/// The outlines of the functions with bodies of the `cuda` module, in module order.
fn describe(ctx: &Context, module: OpId, sm: &SourceMap) -> Vec<(OpId, Outline)> {
    let mut out = Vec::new();
    let Some(main) = sm.files.first() else { return out };
    let Some(body) = ctx.entry_block(ctx.region(module, 0)) else { return out };
    let file_loc = |op: OpId| main_file_loc(ctx, op, &main.name);
    // Each type's C spelling once (as a variable's, and as a value's).
    let mut spellings: rustc_hash::FxHashMap<(cuprite_ir::TypeId, bool), Arc<str>> = Default::default();
    for f in ctx.block_ops(body).collect::<Vec<_>>() {
        if cuprite_dialects::func::FuncOp::cast(ctx, f).is_none()
            || ctx.regions(f).is_empty()
            || ctx.entry_block(ctx.region(f, 0)).is_none()
        {
            continue;
        }
        let symbol = ctx.symbol_name(f).unwrap_or_default().to_string();
        let kind = if cuprite_dialects::cuda::is_kernel(ctx, f) { ItemKind::Kernel } else { ItemKind::Device };
        let Some((line, col)) = file_loc(f) else { continue };
        let mut last_line = line;
        let (mut types, mut vars) = (Vec::new(), Vec::new());
        for op in cuprite_ir::walk::collect_preorder(ctx, f) {
            if let Some((l, c)) = file_loc(op) {
                last_line = last_line.max(l);
                // (Not what a macro defined above made: a hover there is about the macro.)
                if op != f && l >= line {
                    if let Some(&r) = ctx.results(op).first() {
                        // A variable's op gives its address: the variable has the pointee type.
                        let var = cuprite_dialects::cuda::VarOp::cast(ctx, op);
                        let ty = spellings
                            .entry((ctx.value_type(r), var.is_some()))
                            .or_insert_with(|| {
                                let ir = cuprite_ir::print::type_to_string(ctx, ctx.value_type(r));
                                if var.is_some() {
                                    c_spelling(pointee(&ir).unwrap_or(&ir)).into()
                                } else {
                                    c_spelling(&ir).into()
                                }
                            })
                            .clone();
                        if let Some(var) = var {
                            if let Some(name) = var.name(ctx) {
                                vars.push(VarDecl { name: name.to_string(), line: l, col: c, function: symbol.clone() });
                            }
                        }
                        types.push(TypeAt { line: l, col: c, ty });
                    }
                }
            }
        }
        let name = identifier_at(main, line, col).unwrap_or_else(|| symbol.clone());
        let end = (line, col + name.len() as u32);
        let item = Item { symbol, name, kind, place: Place { file: main.name.clone(), start: (line, col), end }, last_line };
        // In order per function (the module's are then too, mostly: the outline of a
        // function taken from the memo is not sorted again).
        types.sort_by_key(|t: &TypeAt| (t.line, t.col));
        out.push((f, Outline { item, types, vars }));
    }
    out
}

/// Puts `outlines` (in module order) into `out`.
fn fill_outline<'o>(out: &mut ModuleParts, outlines: impl Iterator<Item = &'o Outline>) {
    for o in outlines {
        out.items.push(o.item.clone());
        out.types.extend(o.types.iter().cloned());
        out.vars.extend(o.vars.iter().cloned());
    }
    // In order already unless functions are not in the order of their places.
    if !out.types.is_sorted_by_key(|t| (t.line, t.col)) {
        out.types.sort_by_key(|t| (t.line, t.col));
    }
}

/// The identifier starting at (line, col) of `file`.
fn identifier_at(file: &cuprite_frontend::source::SourceFile, line: u32, col: u32) -> Option<String> {
    let at = file.line_start(line)? as usize + col.checked_sub(1)? as usize;
    let rest = file.text.get(at..)?;
    let n = rest.bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_').count();
    (n > 0).then(|| rest[..n].to_string())
}

/// The pointee of a printed `!cuda.ptr<T>` or `!cuda.ptr<T, space>`.
fn pointee(ir: &str) -> Option<&str> {
    let inner = ir.strip_prefix("!cuda.ptr<")?.strip_suffix('>')?;
    // The space, if any, follows the last top-level comma.
    let mut depth = 0;
    let mut cut = inner.len();
    for (i, ch) in inner.char_indices() {
        match ch {
            '<' | '{' | '(' | '[' => depth += 1,
            '>' | '}' | ')' | ']' => depth -= 1,
            ',' if depth == 0 => cut = i,
            _ => {}
        }
    }
    Some(inner[..cut].trim())
}

/// How CUDA C++ spells a printed IR type, where it is one of C's (else the IR's spelling):
/// `i32` is `int`, `!cuda.ptr<f32, shared>` is `float * (shared)`. Integers are signless in
/// the IR: `unsigned` shows as its signed type.
pub fn c_spelling(ir: &str) -> String {
    match ir {
        "i1" => "bool".into(),
        "i8" => "char".into(),
        "i16" => "short".into(),
        "i32" => "int".into(),
        "i64" => "long long".into(),
        "f16" => "__half".into(),
        "bf16" => "__nv_bfloat16".into(),
        "f32" => "float".into(),
        "f64" => "double".into(),
        _ => match pointee(ir) {
            Some(p) => {
                let space = ir["!cuda.ptr<".len()..ir.len() - 1][p.len()..].trim_start_matches(',').trim();
                let base = c_spelling(p);
                if space.is_empty() {
                    format!("{base} *")
                } else {
                    format!("{base} * ({})", space.trim_matches('"'))
                }
            }
            None => ir.to_string(),
        },
    }
}

/// The function stage: `unit` through the `-O` pipeline and instruction selection, in a
/// context of its own.
pub(crate) fn compile_function(unit: &FuncUnit, pipeline: &str, args: &Args) -> FuncPtx {
    // A deliberate internal error, for the tests of how `cuprite lsp` and `cuprite watch`
    // survive one: a function whose symbol contains this variable's value panics.
    if let Some(v) = std::env::var_os("CUPRITE_TEST_ICE") {
        if !v.is_empty() && unit.symbol.contains(&*v.to_string_lossy()) {
            panic!("deliberate internal compiler error in '{}' (CUPRITE_TEST_ICE)", unit.symbol);
        }
    }
    let mut out = FuncPtx::default();
    let mut ctx = Context::new(cuprite_dialects::registry());
    let text = format!("module {{\n{}\n}}\n", unit.nvvm);
    let module = match cuprite_ir::parse::parse_module(&mut ctx, &text, &unit.symbol) {
        Ok(m) => m,
        Err(d) => {
            out.diagnostics
                .push((Severity::Error, format!("internal compiler error: the function's nvvm text does not parse: {}", d.message)));
            return out;
        }
    };
    let pm = match parsed_pipeline(pipeline) {
        Ok(pm) => pm,
        Err(e) => {
            out.diagnostics.push((Severity::Error, format!("internal compiler error: bad function pipeline: {e}")));
            return out;
        }
    };
    let mut popts = args.pass_opts.clone();
    popts.threading = false;
    let result = cuprite_ir::pass::run_pipeline(&mut ctx, module, &pm, &popts, None);
    let failed = result.is_err();
    for d in &result.unwrap_or_else(|e| e).diagnostics {
        let sev = if d.severity == cuprite_ir::Severity::Error { Severity::Error } else { Severity::Note };
        out.diagnostics.push((sev, d.message.clone()));
    }
    if failed {
        return out;
    }
    let Some(f) = ctx
        .entry_block(ctx.region(module, 0))
        .and_then(|b| ctx.block_ops(b).find(|&o| cuprite_dialects::nvvm::FuncOp::cast(&ctx, o).is_some()))
    else {
        return out;
    };
    let sigs: cuprite_lowering::KindSigs = unit.callees.iter().map(|(n, i, r)| (n.clone(), (i.clone(), r.clone()))).collect();
    match cuprite_lowering::select_function_text(&mut ctx, f, unit.index, &sigs, &args.pass_opts.disabled_patterns) {
        Ok((prototype, text)) => {
            let (instructions, registers, local_bytes) = ptx_stats(&text);
            out.prototype = prototype;
            out.text = text;
            out.instructions = instructions;
            out.registers = registers;
            out.local_bytes = local_bytes;
        }
        Err(errs) => {
            for e in errs {
                out.diagnostics.push((Severity::Error, e.message));
            }
        }
    }
    out
}

/// The pipeline `text` (the function stage's, or the module stage's passes before
/// inlining), parsed: kept per thread for the last few texts
/// (building its passes, the e-graph's rules among them, costs more than a small
/// function's compile; a pass's `run` takes it by shared reference, so one parse serves
/// every function).
pub(crate) fn parsed_pipeline(text: &str) -> Result<std::rc::Rc<cuprite_ir::pass::OpPassManager>, String> {
    type Kept = Vec<(String, std::rc::Rc<cuprite_ir::pass::OpPassManager>)>;
    thread_local! {
        static KEPT: std::cell::RefCell<Kept> = const { std::cell::RefCell::new(Vec::new()) };
    }
    if let Some(pm) = KEPT.with_borrow(|k| k.iter().find(|(t, _)| t == text).map(|(_, pm)| pm.clone())) {
        return Ok(pm);
    }
    let reg = crate::pipeline::registry();
    let pm = std::rc::Rc::new(cuprite_ir::pass::parse_pipeline(text, "builtin.module", &reg).map_err(|e| format!("{e:?}"))?);
    KEPT.with_borrow_mut(|k| {
        if k.len() >= 4 {
            k.remove(0);
        }
        k.push((text.to_string(), pm.clone()));
    });
    Ok(pm)
}

/// (instructions, virtual registers, local depot bytes) of one function's PTX text.
pub fn ptx_stats(text: &str) -> (u32, u32, u32) {
    let (mut instrs, mut regs, mut local) = (0, 0, 0);
    let mut in_body = false;
    for line in text.lines() {
        let t = line.trim();
        if t == "{" {
            in_body = true;
            continue;
        }
        if !in_body || t.is_empty() || t == "}" || t.starts_with("//") || t.ends_with(':') {
            continue;
        }
        if let Some(r) = t.strip_prefix(".reg ") {
            // `.reg .b32 %r<12>;` declares %r0..%r11 (PTX counts from 1 in practice).
            if let Some(n) = r.split('<').nth(1).and_then(|s| s.split('>').next()).and_then(|s| s.parse::<u32>().ok()) {
                regs += n.saturating_sub(1);
            }
        } else if t.starts_with(".local") {
            if let Some(n) = t.rsplit('[').next().and_then(|s| s.split(']').next()).and_then(|s| s.parse::<u32>().ok()) {
                local += n;
            }
        } else if !t.starts_with('.') && t != "{" && t != "}" && !t.starts_with(')') && !t.starts_with('(') {
            instrs += 1;
        }
    }
    (instrs, regs, local)
}
