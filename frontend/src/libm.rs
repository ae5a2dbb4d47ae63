//! The device math library: CUDA's math functions written in CUDA C++ (`frontend/libm/`),
//! compiled by cuprite's own frontend and linked into a kernel's `cuda` module on demand.
//!
//! # Design
//!
//! * **Source.** Each file of `frontend/libm/` is a translation unit of `extern "C"
//!   __device__` functions named `__cuprite_<name>`: `__cuprite_expf` implements `expf`.
//!   They use only IEEE-exact operations (add, mul, fma, div.rn, sqrt.rn, conversions,
//!   integer and bit operations), never the approximate PTX instructions, so that the
//!   simulator (and every other bit-exact replica) reproduces the GPU's results exactly and
//!   the accuracy tables measure the code that runs. The fast-math intrinsics (`__expf`,
//!   `__sinf`, ...) are the exception: they are approximate by definition.
//! * **Declarations.** The built-in headers declare the math functions without bodies;
//!   sema turns a call of one into `cuda.intrinsic "<name>"` (after overload resolution:
//!   `exp(float)` is `expf`).
//! * **Compile once per target.** The library's translation units are compiled (preprocess,
//!   parse, sema) the first time a module needs one of their functions, for that target
//!   (`__CUDA_ARCH__`), and kept in a process-wide cache: a long-lived process (the
//!   editor server, the test harness) compiles the library once per `sm`, and a kernel
//!   that calls no library function never compiles it.
//! * **Link.** [`link`] walks the user's module: every `cuda.intrinsic` whose name the
//!   library defines becomes a `func.call` of `__cuprite_<name>`, and that function is
//!   copied ([`cuprite_ir::clone::transplant`]) from the cached library context into the
//!   module, with every function and global it refers to, transitively (a library
//!   function may itself call `expm1f`: the copied body is linked in turn). Only what is
//!   used reaches the module; at `-O1` and up the inliner inlines the calls and drops the
//!   functions, at `-O0` they stay `.func`s.
//! * **Fast math.** With `--use_fast_math`, as nvcc does, the standard single-precision
//!   functions with a fast intrinsic become that intrinsic before linking (`expf` ->
//!   `__expf`, `sinf` -> `__sinf`, `powf` -> `__powf`, ...).
//! * **Flags.** Linking happens at the `cuda` level, before lowering, so the
//!   code-generation flags act on library code as on user code, and the `cuda`-level
//!   simulator runs the same library code as the PTX. The exception is fma contraction:
//!   linked functions carry `cuprite.no_contract`, so their compensated arithmetic (which
//!   needs each product rounded as written; the fused products are explicit `fmaf`/`fma`)
//!   gives the same bits with or without `-fmad`.
//!
//! Intrinsics the lowering implements directly (`sqrtf`, `fabsf`, `floorf`, `fmaf`, the
//! integer helpers, the rounding intrinsics, ...) are not in the library and stay
//! `cuda.intrinsic` ops.

use crate::diag::{Diagnostic, Severity};
use cuprite_ir::{attrs::AttrKind, Context, InsertPoint, OpId, OperationState};
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::{Arc, Mutex, OnceLock};

/// The library's translation units: (file name, text).
pub const SOURCES: &[(&str, &str)] = &[
    ("<cuprite>/libm/explog_f32.cu", include_str!("../libm/explog_f32.cu")),
    ("<cuprite>/libm/trig_f32.cu", include_str!("../libm/trig_f32.cu")),
    ("<cuprite>/libm/special_f32.cu", include_str!("../libm/special_f32.cu")),
    ("<cuprite>/libm/explog_f64.cu", include_str!("../libm/explog_f64.cu")),
    ("<cuprite>/libm/trig_f64.cu", include_str!("../libm/trig_f64.cu")),
    ("<cuprite>/libm/special_f64.cu", include_str!("../libm/special_f64.cu")),
    ("<cuprite>/libm/fast.cu", include_str!("../libm/fast.cu")),
];

/// The prefix of library function names: `__cuprite_expf` implements `expf`.
pub const PREFIX: &str = "__cuprite_";

/// Standard functions that `--use_fast_math` replaces by their fast intrinsic (the list of
/// the CUDA C++ Programming Guide, "Intrinsic Functions").
pub const FAST_MATH: &[(&str, &str)] = &[
    ("expf", "__expf"),
    ("exp10f", "__exp10f"),
    ("logf", "__logf"),
    ("log2f", "__log2f"),
    ("log10f", "__log10f"),
    ("sinf", "__sinf"),
    ("cosf", "__cosf"),
    ("tanf", "__tanf"),
    ("sincosf", "__sincosf"),
    ("powf", "__powf"),
    ("exp2f", "__exp2f"),
];

/// What [`link`] needs to know.
#[derive(Clone, Debug, Default)]
pub struct LinkOptions {
    /// The target (`90` for sm_90): the library is compiled for it.
    pub sm: u32,
    /// `--use_fast_math`: map the standard functions to their fast intrinsics.
    pub fast_math: bool,
}

/// What [`link`] did.
#[derive(Clone, Debug, Default)]
pub struct LinkReport {
    /// The library functions and globals copied into the module, in the order they were.
    pub linked: Vec<String>,
    /// `cuda.intrinsic` ops turned into calls.
    pub calls: usize,
}

/// The library compiled for one target.
pub struct Library {
    pub ctx: Context,
    /// Every top-level symbol (functions and globals) of every translation unit, by name.
    pub symbols: FxHashMap<String, OpId>,
    /// The modules, one per translation unit.
    pub modules: Vec<OpId>,
}

impl Library {
    /// The function implementing `name` (`expf`), if the library has one.
    pub fn function(&self, name: &str) -> Option<OpId> {
        self.symbols.get(&format!("{PREFIX}{name}")).copied()
    }
}

/// Names `__cuprite_<name>` the library's sources mention (a superset of what it
/// defines), read from the text once: a kernel whose intrinsics are all lowered directly
/// (`sqrtf`, `__float_as_int`, ...) never compiles the library.
fn mentioned(name: &str) -> bool {
    static NAMES: OnceLock<FxHashSet<String>> = OnceLock::new();
    NAMES
        .get_or_init(|| {
            let mut set = FxHashSet::default();
            for (_, text) in SOURCES {
                for (i, _) in text.match_indices(PREFIX) {
                    let rest = &text[i + PREFIX.len()..];
                    let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
                    set.insert(rest[..end].to_string());
                }
            }
            set
        })
        .contains(name)
}

type Cache = Mutex<FxHashMap<u32, Arc<Result<Mutex<Library>, String>>>>;

fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

/// The library compiled for `sm`, from the cache or compiled now. `Err` holds the rendered
/// diagnostics (a bug in the library source: the tests compile it for every target).
pub fn library(sm: u32) -> Arc<Result<Mutex<Library>, String>> {
    let mut c = cache().lock().unwrap_or_else(|e| e.into_inner());
    c.entry(sm).or_insert_with(|| Arc::new(compile_library(sm).map(Mutex::new))).clone()
}

/// Compiles every translation unit of the library into one context.
pub fn compile_library(sm: u32) -> Result<Library, String> {
    let mut ctx: Option<Context> = None;
    let mut modules = Vec::new();
    let mut symbols = FxHashMap::default();
    let mut errors = String::new();
    for (name, text) in SOURCES {
        let config = crate::pp::PpConfig { sm, ..Default::default() };
        let mut pre = crate::parse_source(name, None, text, config);
        let mut diags = std::mem::take(&mut pre.diags);
        let (uctx, module, sd) = crate::sema::lower(&pre.ast, &pre.interner, &pre.sm, crate::sema::SemaOptions { arch: sm });
        diags.extend(sd);
        for d in diags.iter().filter(|d| d.severity != Severity::Note) {
            errors.push_str(&d.render(&pre.sm));
        }
        // Each unit has its own context; the first is the library's, the others are
        // copied into it (their offset locations become file locations).
        let module = match &mut ctx {
            None => {
                ctx = Some(uctx);
                module
            }
            Some(c) => cuprite_ir::clone::transplant(&uctx, module, c),
        };
        modules.push(module);
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let ctx = ctx.expect("the library has translation units");
    for &m in &modules {
        for op in top_level(&ctx, m) {
            if let Some(n) = sym_name(&ctx, op) {
                symbols.insert(n, op);
            }
        }
    }
    Ok(Library { ctx, symbols, modules })
}

fn top_level(ctx: &Context, module: OpId) -> Vec<OpId> {
    let mut v = Vec::new();
    for &r in ctx.regions(module) {
        for &b in ctx.region_blocks(r) {
            v.extend(ctx.block_ops(b));
        }
    }
    v
}

fn sym_name(ctx: &Context, op: OpId) -> Option<String> {
    match ctx.attr_kind(ctx.get_attr(op, "sym_name")?) {
        AttrKind::String(s) => Some(s.clone()),
        AttrKind::SymbolRef { root, .. } => Some(ctx.str(*root).to_string()),
        _ => None,
    }
}

/// The symbols `op` (and everything nested in it) refers to.
fn referenced_symbols(ctx: &Context, op: OpId, out: &mut Vec<String>) {
    for o in cuprite_ir::walk::collect_preorder(ctx, op) {
        for na in ctx.props(o).iter().chain(ctx.attrs(o)) {
            if let AttrKind::SymbolRef { root, .. } = ctx.attr_kind(na.1) {
                out.push(ctx.str(*root).to_string());
            }
        }
    }
}

/// Links the library functions `module` uses into it (see the module docs). `Err` is an
/// internal error: the library failed to compile for this target.
pub fn link(ctx: &mut Context, module: OpId, opts: &LinkOptions) -> Result<LinkReport, Vec<Diagnostic>> {
    let mut report = LinkReport::default();
    let fast: FxHashMap<&str, &str> = FAST_MATH.iter().copied().collect();
    let mut existing: FxHashSet<String> = top_level(ctx, module).iter().filter_map(|&o| sym_name(ctx, o)).collect();
    let body = ctx.entry_block(ctx.region(module, 0)).expect("a module has a body");
    let mut lib: Option<Arc<Result<Mutex<Library>, String>>> = None;
    // Ops to scan: the module first, then each function linked.
    let mut scan = vec![module];
    while let Some(root) = scan.pop() {
        let intrinsics: Vec<OpId> =
            cuprite_ir::walk::collect_preorder(ctx, root).into_iter().filter(|&o| ctx.op_name_str(o) == "cuda.intrinsic").collect();
        let mut wanted: Vec<String> = Vec::new();
        for op in intrinsics {
            let written = name_of(ctx, op);
            let name = match fast.get(written.as_str()) {
                Some(f) if opts.fast_math => f.to_string(),
                _ => written.clone(),
            };
            if !mentioned(&name) {
                if name != written {
                    // A fast-math rename of a function the lowering implements directly.
                    let n = ctx.str_attr(&name);
                    ctx.set_prop(op, "name", n);
                }
                continue;
            }
            let l = lib.get_or_insert_with(|| library(opts.sm)).clone();
            let l = match &*l {
                Ok(l) => l.lock().unwrap_or_else(|e| e.into_inner()),
                Err(e) => return Err(vec![internal(format!("the device math library does not compile for sm_{}:\n{e}", opts.sm))]),
            };
            if l.function(&name).is_none() {
                continue;
            }
            drop(l);
            let fname = format!("{PREFIX}{name}");
            let callee = ctx.symbol_ref(&fname);
            let mut st = OperationState::new(ctx, "func.call", ctx.op_loc(op));
            st.operands = ctx.operand_vec(op);
            st.result_types = ctx.results(op).iter().map(|&r| ctx.value_type(r)).collect();
            let k = ctx.sym("callee");
            st.props.push((k, callee));
            let call = ctx.create_op(st);
            let block = ctx.op_block(op).expect("an intrinsic in a block");
            ctx.insert_op(call, InsertPoint { block, before: Some(op) });
            for i in 0..ctx.num_results(op) {
                let (old, new) = (ctx.result(op, i), ctx.result(call, i));
                ctx.replace_all_uses_with(old, new);
            }
            ctx.erase_op(op);
            report.calls += 1;
            wanted.push(fname);
        }
        // Copy the wanted symbols and everything they refer to.
        let mut refs = Vec::new();
        referenced_symbols(ctx, root, &mut refs);
        wanted.extend(refs);
        for name in wanted {
            if existing.contains(&name) {
                continue;
            }
            let Some(l) = lib.clone() else { continue };
            let Ok(l) = &*l else { continue };
            let l = l.lock().unwrap_or_else(|e| e.into_inner());
            let Some(&src) = l.symbols.get(&name) else { continue };
            let copy = cuprite_ir::clone::transplant(&l.ctx, src, ctx);
            drop(l);
            if ctx.op_name_str(copy) == "func.func" {
                // Compensated arithmetic: no fma contraction, whatever -fmad says.
                cuprite_dialects::hints::set_no_contract(ctx, copy);
            }
            ctx.insert_op(copy, InsertPoint::end(body));
            existing.insert(name.clone());
            report.linked.push(name);
            scan.push(copy);
        }
    }
    Ok(report)
}

fn name_of(ctx: &Context, op: OpId) -> String {
    match ctx.get_attr(op, "name").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::String(s)) => s.clone(),
        _ => String::new(),
    }
}

fn internal(message: String) -> Diagnostic {
    Diagnostic { severity: Severity::Error, message: format!("internal compiler error: {message}"), span: None, notes: Vec::new() }
}
