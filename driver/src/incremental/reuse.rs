//! Reusing the module stage: an edit inside kernels converts and inlines those kernels
//! only, not the whole module.
//!
//! The module stage ([`super::unit`]) is module-wide for three reasons, and each has its
//! answer here:
//! - **the math library** is linked for the intrinsics the whole module calls, in the
//!   order of their first use: an edited kernel must call the same intrinsics in the same
//!   order as before;
//! - **`__shared__` variables** become module-level globals (`<function>$<variable>`,
//!   sized by their types) in conversion order: an edited kernel must declare the same
//!   ones;
//! - **inlining** decides on call counts over the whole module (a large callee is inlined
//!   when it is called once), round after round: the inliner records, for each round, the
//!   calls every function makes ([`InlineHistory`]), and a replay
//!   ([`cuprite_lowering::transforms::inline::replay_inline`]) counts the calls of the
//!   functions it leaves out as recorded and checks, every round, that the functions it
//!   inlines into make the calls they made before. When they do, no decision anywhere
//!   changed.
//!
//! The first two make a kernel's *interface* (its intrinsics and `__shared__` variables,
//! in order); the third is about its calls.
//!
//! When the rest of the module is unchanged, and every function whose `cuda` form changed
//! (structural fingerprints, [`cuprite_ir::fingerprint`]) is a kernel that nothing names
//! and whose interface is the same, those kernels go through the module stage in a module
//! of their own. It holds clones of them, of every function they call (transitively) and
//! of all the module's variables. Their results replace the old ones at the old places
//! (the set of functions left after inlining is the same, so the places are too).
//!
//! In every other case the whole module goes through the module stage as before: another
//! change, a replay that diverges, or any diagnostic of the module stage. A comment or
//! whitespace edit, which changes no function, reuses every function's result.
//!
//! The memo of a unit (`ModuleMemo`) is what its last whole module stage left: the
//! `cuda` functions' fingerprints and interfaces, the inliner's history, and the
//! functions' results. Like the preambles, it lives beside salsa, not in it: it changes
//! no result, only how fast the same result is made (the incremental tests compare the
//! database's PTX with `cuprite compile`'s after every edit).

use super::unit::{FuncUnit, Outline};
use cuprite_frontend::sema::bodies::{Bodies, BodyMemo};
use cuprite_ir::{Context, OpId};
use cuprite_lowering::transforms::inline::{InlineHistory, InlineOptions};
use rustc_hash::{FxHashMap, FxHashSet};
use std::hash::{Hash, Hasher};
use std::sync::Arc;
use std::sync::Mutex;

/// The memos of the units compiled last, by `memo_key`, and a log of how each module
/// stage ran.
#[derive(Default)]
pub struct ModuleMemos(Mutex<Vec<(u64, ModuleMemo)>>, Mutex<Vec<ModuleStage>>, Mutex<Vec<FrontendRun>>);

/// How the frontend ran for a compile: how many kernel bodies it took as known (stubs),
/// and how many it read.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FrontendRun {
    pub reused: usize,
    /// Of those, the bodies the parser skipped too.
    pub unparsed: usize,
    /// Pure kernel bodies read (whose results the next compile may reuse).
    pub read: usize,
}

/// How a module stage ran.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ModuleStage {
    /// No function changed since the memo: every result reused.
    Unchanged,
    /// Only edited kernels (and what they call) went through it.
    Kernels,
    /// The whole module went through it.
    Whole,
}

impl ModuleMemos {
    /// How many units' memos it keeps (the oldest go first).
    pub const LIMIT: usize = 8;

    /// Takes the memo of `key` out (a compile puts back the one it leaves).
    pub(crate) fn take(&self, key: u64) -> Option<ModuleMemo> {
        let mut v = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let i = v.iter().position(|(k, _)| *k == key)?;
        Some(v.remove(i).1)
    }

    /// How the module stages since the last call ran, in order.
    pub fn take_log(&self) -> Vec<ModuleStage> {
        std::mem::take(&mut *self.1.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// How the frontend ran since the last call, in order (a compile whose stubs could
    /// not be used runs it twice).
    pub fn take_frontend_log(&self) -> Vec<FrontendRun> {
        std::mem::take(&mut *self.2.lock().unwrap_or_else(|e| e.into_inner()))
    }

    pub(crate) fn log_frontend(&self, run: FrontendRun) {
        let mut v = self.2.lock().unwrap_or_else(|e| e.into_inner());
        if v.len() < 4096 {
            v.push(run);
        }
    }

    pub(crate) fn log(&self, stage: ModuleStage) {
        let mut v = self.1.lock().unwrap_or_else(|e| e.into_inner());
        if v.len() < 4096 {
            v.push(stage);
        }
    }

    pub(crate) fn put(&self, key: u64, memo: ModuleMemo) {
        let mut v = self.0.lock().unwrap_or_else(|e| e.into_inner());
        v.retain(|(k, _)| *k != key);
        if v.len() >= Self::LIMIT {
            v.remove(0);
        }
        v.push((key, memo));
    }
}

/// A unit's memo, taken out of [`ModuleMemos`] while the unit compiles, and put back when
/// the compile ends (on every way out, cancellation included).
pub(crate) struct Held<'a> {
    memos: &'a ModuleMemos,
    key: u64,
    memo: Option<ModuleMemo>,
}

impl<'a> Held<'a> {
    pub(crate) fn new(memos: &'a ModuleMemos, key: u64) -> Self {
        Held { memos, key, memo: memos.take(key) }
    }

    pub(crate) fn log(&self, stage: ModuleStage) {
        self.memos.log(stage);
    }

    pub(crate) fn log_frontend(&self, run: FrontendRun) {
        self.memos.log_frontend(run);
    }

    pub(crate) fn memo(&self) -> Option<&ModuleMemo> {
        self.memo.as_ref()
    }

    /// Drops the memo (the whole module stage runs, and may leave a new one).
    pub(crate) fn forget(&mut self) {
        self.memo = None;
    }

    pub(crate) fn set(&mut self, memo: ModuleMemo) {
        self.memo = Some(memo);
    }

    /// The memo after [`reuse`] gave `funcs` for a module of shape `shape`, whose
    /// frontend gave `bodies` and outlines `outlines`.
    pub(crate) fn reused(&mut self, shape: Shape, funcs: Vec<FuncUnit>, bodies: Bodies, outlines: FxHashMap<String, Outline>) {
        if let Some(m) = &mut self.memo {
            m.shape = shape;
            m.funcs = funcs;
            m.set_front(bodies, outlines);
        }
    }
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        if let Some(m) = self.memo.take() {
            self.memos.put(self.key, m);
        }
    }
}

/// A memo's key: the unit (its main file's name and its flags) and the module stage's
/// pipeline.
pub(crate) fn memo_key(name: &str, flags: &[String], module_stage: &str) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (name, flags, module_stage).hash(&mut h);
    h.finish()
}

/// One `cuda` function of a module, as the memo compares it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct CudaFn {
    symbol: String,
    /// Its structural fingerprint (locations left out).
    fp: u128,
    kernel: bool,
    /// Its intrinsics' names and its `__shared__` variables, in order.
    interface: u64,
    /// The symbols it names.
    refs: Vec<String>,
    /// The op (in the context the shape was taken in).
    op: OpId,
    /// The op is a stub: the frontend took the kernel's body as known
    /// ([`cuprite_frontend::sema::bodies`]), and the rest of this from the memo.
    stub: bool,
}

/// The `cuda` module as the memo compares it: its functions, and the fingerprints of
/// everything else at its top level (variables, in order, each with the number of
/// functions before it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Shape {
    funcs: Vec<CudaFn>,
    rest: Vec<(usize, u128)>,
}

/// What a unit's last whole module stage left for the next compile.
pub(crate) struct ModuleMemo {
    shape: Shape,
    /// The inliner's decisions (`None`: the pipeline does not inline).
    history: Option<InlineHistory>,
    /// The functions after the module stage, in module order.
    funcs: Vec<FuncUnit>,
    globals_ptx: String,
    /// The frontend's pure kernel bodies, for the next compile to reuse.
    bodies: Option<Arc<BodyMemo>>,
    /// The functions' outlines, by symbol.
    outlines: FxHashMap<String, Outline>,
}

impl ModuleMemo {
    pub(crate) fn new(shape: Shape, history: Option<InlineHistory>, funcs: Vec<FuncUnit>, globals_ptx: String) -> Self {
        ModuleMemo { shape, history, funcs, globals_ptx, bodies: None, outlines: FxHashMap::default() }
    }

    /// What the frontend may reuse of the memo's compile.
    pub(crate) fn bodies(&self) -> Option<Arc<BodyMemo>> {
        self.bodies.clone()
    }

    /// The outline of function `symbol` in the memo's compile.
    pub(crate) fn outline(&self, symbol: &str) -> Option<&Outline> {
        self.outlines.get(symbol)
    }

    /// Sets what the next compile may reuse of the frontend's and the editor's view.
    pub(crate) fn set_front(&mut self, bodies: Bodies, outlines: FxHashMap<String, Outline>) {
        self.bodies = Some(Arc::new(BodyMemo::new(bodies)));
        self.outlines = outlines;
    }
}

/// How the module stage's pipeline is run so that it can be reused: its passes up to
/// inlining, then the inliner with its options, called directly (it records or replays).
pub(crate) struct Plan {
    pub pre_inline: std::rc::Rc<cuprite_ir::pass::OpPassManager>,
    pub inline: Option<InlineOptions>,
}

impl Plan {
    /// The plan for the module stage `module_stage` (a `builtin.module(...)` pipeline),
    /// or `None` where it cannot be reused: IR printed between passes, or an inliner with
    /// options this does not know.
    pub(crate) fn new(module_stage: &str, popts: &cuprite_ir::pass::PassOptions) -> Option<Plan> {
        if popts.print_before_all
            || popts.print_after_all
            || popts.print_after_change
            || !popts.print_before.is_empty()
            || !popts.print_after.is_empty()
        {
            return None;
        }
        let inner = module_stage.strip_prefix("builtin.module(")?.strip_suffix(')')?;
        let (pre, inline) = match inner.rsplit_once(',').map_or(("", inner), |(a, b)| (a, b)) {
            (pre, "nvvm-inline") => (pre, Some(InlineOptions::default())),
            (pre, last) if last.starts_with("nvvm-inline") => {
                let n = last.strip_prefix("nvvm-inline{threshold=")?.strip_suffix('}')?.parse().ok()?;
                (pre, Some(InlineOptions { threshold: n }))
            }
            _ if inner.contains("nvvm-inline") => return None,
            _ => (inner, None),
        };
        let pre_inline = super::unit::parsed_pipeline(&format!("builtin.module({pre})")).ok()?;
        Some(Plan { pre_inline, inline })
    }
}

/// The shape of the `cuda` module `module`, whose functions named in `stubs` are stubs
/// (their shape is the memo's: `None` if it has none of one).
pub(crate) fn shape(ctx: &Context, module: OpId, stubs: &FxHashSet<&str>, memo: Option<&ModuleMemo>) -> Option<Shape> {
    let mut fps = cuprite_ir::fingerprint::Fingerprinter::default();
    let mut funcs = Vec::new();
    let mut rest = Vec::new();
    let Some(body) = ctx.entry_block(ctx.region(module, 0)) else { return Some(Shape { funcs, rest }) };
    for op in ctx.block_ops(body) {
        if cuprite_dialects::func::FuncOp::cast(ctx, op).is_none() {
            rest.push((funcs.len(), fps.op(ctx, op).hash));
            continue;
        }
        let symbol = ctx.symbol_name(op).unwrap_or_default();
        if stubs.contains(symbol) {
            let old = memo?.shape.funcs.iter().find(|f| f.symbol == symbol)?;
            funcs.push(CudaFn { op, stub: true, ..old.clone() });
            continue;
        }
        let fp = fps.op(ctx, op);
        let mut iface = std::collections::hash_map::DefaultHasher::new();
        for o in cuprite_ir::walk::collect_preorder(ctx, op) {
            if let Some(i) = cuprite_dialects::cuda::IntrinsicOp::cast(ctx, o) {
                0u8.hash(&mut iface);
                i.name(ctx).hash(&mut iface);
                continue;
            }
            if cuprite_dialects::cuda::VarOp::cast(ctx, o).is_some() {
                use cuprite_dialects::cuda::types::{decode, AddrSpace, Decoded};
                let space = ctx.results(o).first().and_then(|&r| decode(ctx, ctx.value_type(r)));
                if matches!(space, Some(Decoded::Ptr { space: AddrSpace::Shared, .. })) {
                    1u8.hash(&mut iface);
                    fps.op(ctx, o).hash.hash(&mut iface);
                }
            }
        }
        funcs.push(CudaFn {
            symbol: symbol.to_string(),
            fp: fp.hash,
            kernel: cuprite_dialects::cuda::is_kernel(ctx, op),
            interface: iface.finish(),
            refs: fp.symbols,
            op,
            stub: false,
        });
    }
    Some(Shape { funcs, rest })
}

/// What [`reuse`] found.
pub(crate) enum Reuse {
    /// No function changed: the memo's functions and variables as they are.
    Unchanged,
    /// The edited kernels went through the module stage in `part`, a module of their own:
    /// each `(symbol, place)` is to be taken from it, the rest from the memo.
    Part { part: OpId, redo: Vec<(String, usize)> },
}

/// Reuses `memo` for the `cuda` module `module` (of shape `shape`) where it can: `None`
/// where it cannot (the caller runs the whole module stage).
pub(crate) fn reuse(
    ctx: &mut Context,
    module: OpId,
    shape: &Shape,
    memo: &ModuleMemo,
    plan: &Plan,
    popts: &cuprite_ir::pass::PassOptions,
) -> Option<Reuse> {
    let old = &memo.shape;
    if old.rest != shape.rest || old.funcs.len() != shape.funcs.len() {
        return None;
    }
    let mut changed = Vec::new();
    for (i, (a, b)) in old.funcs.iter().zip(&shape.funcs).enumerate() {
        if a.symbol != b.symbol {
            return None;
        }
        if a.fp != b.fp {
            if !(a.kernel && b.kernel && a.interface == b.interface) {
                return None;
            }
            changed.push(i);
        }
    }
    if changed.is_empty() {
        return Some(Reuse::Unchanged);
    }
    if changed.len() * 2 > shape.funcs.len() {
        return None;
    }
    // Nothing may name an edited kernel (its calls and address would be the callers').
    let edited: FxHashSet<&str> = changed.iter().map(|&i| shape.funcs[i].symbol.as_str()).collect();
    if shape.funcs.iter().any(|f| f.refs.iter().any(|r| edited.contains(r.as_str()) && *r != f.symbol)) {
        return None;
    }
    // Their places among the functions left after inlining (the same set as before).
    let redo = changed
        .iter()
        .map(|&i| {
            let symbol = &shape.funcs[i].symbol;
            memo.funcs.iter().find(|f| &f.symbol == symbol).map(|f| (symbol.clone(), f.index))
        })
        .collect::<Option<Vec<_>>>()?;
    // The edited kernels and every function they name, transitively.
    let by_symbol: FxHashMap<&str, usize> = shape.funcs.iter().enumerate().map(|(i, f)| (f.symbol.as_str(), i)).collect();
    let mut member = vec![false; shape.funcs.len()];
    let mut work = changed;
    while let Some(i) = work.pop() {
        if std::mem::replace(&mut member[i], true) {
            continue;
        }
        work.extend(shape.funcs[i].refs.iter().filter_map(|r| by_symbol.get(r.as_str()).copied()));
    }
    // A stub has no body to convert: the whole frontend runs again.
    if shape.funcs.iter().zip(&member).any(|(f, &m)| m && f.stub) {
        return None;
    }
    // Their module: clones of them and of every variable, in the module's order (the
    // module itself stays as it is, for the whole module stage if this one fails).
    let body = ctx.entry_block(ctx.region(module, 0))?;
    let loc = ctx.op_loc(module);
    let (part, part_body) = cuprite_lowering::build::make_module(ctx, loc);
    let mut k = 0;
    for op in ctx.block_ops(body).collect::<Vec<_>>() {
        if cuprite_dialects::func::FuncOp::cast(ctx, op).is_some() {
            k += 1;
            if !member[k - 1] {
                continue;
            }
        }
        let copy = cuprite_ir::clone::clone_op(ctx, op, &mut cuprite_ir::clone::CloneMap::default());
        ctx.insert_op(copy, cuprite_ir::InsertPoint::end(part_body));
    }
    let mut popts = popts.clone();
    popts.threading = false;
    match cuprite_ir::pass::run_pipeline(ctx, part, &plan.pre_inline, &popts, None) {
        Ok(r) if r.diagnostics.is_empty() => {}
        _ => return None,
    }
    if let Some(opts) = &plan.inline {
        cuprite_lowering::transforms::inline::replay_inline(ctx, part, opts, memo.history.as_ref()?).ok()?;
        verify_after_inline(ctx, part, &popts).ok()?;
    }
    Some(Reuse::Part { part, redo })
}

/// What the pass manager does after `nvvm-inline` when it verifies after each pass
/// (`PassOptions::verify_each`, on in debug builds), for the inliner called directly.
pub(crate) fn verify_after_inline(
    ctx: &Context,
    module: OpId,
    popts: &cuprite_ir::pass::PassOptions,
) -> Result<(), Vec<cuprite_ir::Diagnostic>> {
    if !popts.verify_each {
        return Ok(());
    }
    cuprite_ir::verify::verify(ctx, module, None).map_err(|mut errs| {
        errs.push(cuprite_ir::Diagnostic::error("verification failed after pass 'nvvm-inline'".to_string(), None));
        errs
    })
}

impl ModuleMemo {
    /// The memo's functions after the module stage, and the PTX of its variables.
    pub(crate) fn parts(&self) -> (&[FuncUnit], &str) {
        (&self.funcs, &self.globals_ptx)
    }
}

/// The functions of the module of `shape` that differ from those of the module `memo`
/// was made from (whose IR verified), when everything else at the module's top level is
/// the same; `None` when it is not.
pub(crate) fn changed_functions(shape: &Shape, memo: &ModuleMemo) -> Option<Vec<OpId>> {
    let old = &memo.shape;
    if old.rest != shape.rest || old.funcs.len() != shape.funcs.len() {
        return None;
    }
    let mut out = Vec::new();
    for (a, b) in old.funcs.iter().zip(&shape.funcs) {
        if a.symbol != b.symbol {
            return None;
        }
        if a.fp != b.fp {
            out.push(b.op);
        }
    }
    Some(out)
}
