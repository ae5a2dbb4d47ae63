//! The pass manager: passes anchored on op names, nested pipelines written in MLIR's
//! textual syntax, parallel execution over isolated-from-above ops, IR printing and
//! verification between passes, timing, and an analysis cache.
//!
//! Running a pipeline on an op:
//! 1. Each pass of the pipeline runs on the op, in order.
//! 2. A nested pipeline (`func.func(cse)`) runs on every op *directly* nested in the op's
//!    regions whose name matches its anchor (`any` matches all).
//! 3. When those ops are isolated from above and threading is on, each is moved into its
//!    own [`Context`] ([`crate::clone::transplant`]), the pipelines run on worker threads,
//!    and the results are moved back in the original order, so output is deterministic.
//! 4. Around each pass: `print-ir-before`, timing, `verify-each`, `print-ir-after` (or
//!    only when the IR changed: `print-ir-after-change`, comparing a structural hash), and
//!    analysis invalidation of everything the pass did not declare preserved.

pub mod pipeline;

use crate::{
    context::{Context, InsertPoint, OpId},
    diag::{Diagnostic, SourceMap},
    print::{print_op, PrintOptions},
    registry::Traits,
};
use rustc_hash::FxHashMap;
use std::{
    any::{Any, TypeId as RustTypeId},
    time::{Duration, Instant},
};

pub use pipeline::{parse_pipeline, PassRegistry};

/// An analysis: a fact about an op computed on demand and cached until a pass changes it.
pub trait Analysis: Any + Send {
    fn compute(ctx: &Context, op: OpId) -> Self
    where
        Self: Sized;
}

impl Analysis for crate::dominance::DominanceInfo {
    fn compute(ctx: &Context, op: OpId) -> Self {
        crate::dominance::DominanceInfo::new(ctx, op)
    }
}

/// Which analyses a pass kept valid.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Preserved {
    /// Nothing (the default: a pass that changes IR invalidates everything).
    #[default]
    None,
    /// Everything (the pass changed nothing, or nothing analyses look at).
    All,
    /// These analysis types.
    Some(Vec<RustTypeId>),
}

/// Caches analyses per (analysis type, op).
#[derive(Default)]
pub struct AnalysisManager {
    cache: FxHashMap<(RustTypeId, OpId), Box<dyn Any + Send>>,
    /// Number of analyses computed (for tests and statistics).
    pub computed: u64,
    /// Number of cache hits.
    pub hits: u64,
}

impl AnalysisManager {
    /// The analysis `A` of `op`, computed if not cached.
    pub fn get<A: Analysis>(&mut self, ctx: &Context, op: OpId) -> &A {
        let key = (RustTypeId::of::<A>(), op);
        if self.cache.contains_key(&key) {
            self.hits += 1;
        } else {
            self.computed += 1;
            self.cache.insert(key, Box::new(A::compute(ctx, op)));
        }
        self.cache[&key].downcast_ref::<A>().expect("analysis type")
    }
    /// Whether `A` of `op` is cached.
    pub fn is_cached<A: Analysis>(&self, op: OpId) -> bool {
        self.cache.contains_key(&(RustTypeId::of::<A>(), op))
    }
    /// Drops every cached analysis not in `preserved`.
    pub fn invalidate(&mut self, preserved: &Preserved) {
        match preserved {
            Preserved::All => {}
            Preserved::None => self.cache.clear(),
            Preserved::Some(keep) => self.cache.retain(|(t, _), _| keep.contains(t)),
        }
    }
}

/// What a pass can reach while it runs.
pub struct PassState<'a> {
    pub analyses: &'a mut AnalysisManager,
    pub sources: Option<&'a SourceMap>,
    /// Errors, warnings and remarks the pass reports.
    pub diagnostics: Vec<Diagnostic>,
    /// Named counters (`--pass-statistics`), summed over the ops the pass runs on.
    pub statistics: Vec<(String, u64)>,
    /// Analyses still valid after the pass (set by the pass; default: none).
    pub preserved: Preserved,
    /// Patterns the user disabled by name ([`PassOptions::disabled_patterns`]): a
    /// pattern-based pass leaves them out of its set.
    pub disabled_patterns: &'a [String],
}

/// A pass failed; its diagnostics say why.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PassFailure;

/// A pass.
pub trait Pass: Send + Sync {
    /// The pipeline name (`canonicalize`).
    fn name(&self) -> &str;
    /// The op name the pass must run on, or `None` for any op.
    fn anchor(&self) -> Option<&str> {
        None
    }
    /// The pass's options in pipeline syntax (`max-iterations=3 region-simplify=false`),
    /// empty when it has none: [`OpPassManager::to_text`] writes them in braces, so a
    /// printed pipeline parses back to the same passes.
    fn options(&self) -> String {
        String::new()
    }
    /// Runs on `op`. An `Err` stops the pipeline; put the reason in `state.diagnostics`.
    fn run(&self, ctx: &mut Context, op: OpId, state: &mut PassState<'_>) -> Result<(), PassFailure>;
}

/// One element of a pipeline.
pub enum PipelineItem {
    Pass(Box<dyn Pass>),
    Nested(OpPassManager),
}

/// A pipeline anchored on an op name (`any` matches every op).
pub struct OpPassManager {
    pub anchor: String,
    pub items: Vec<PipelineItem>,
}

impl OpPassManager {
    /// An empty pipeline on `anchor`.
    pub fn new(anchor: &str) -> Self {
        Self { anchor: anchor.to_string(), items: Vec::new() }
    }
    /// Appends a pass.
    pub fn add(&mut self, p: Box<dyn Pass>) {
        self.items.push(PipelineItem::Pass(p));
    }
    /// Appends a nested pipeline and returns it.
    pub fn nest(&mut self, anchor: &str) -> &mut OpPassManager {
        self.items.push(PipelineItem::Nested(OpPassManager::new(anchor)));
        match self.items.last_mut() {
            Some(PipelineItem::Nested(pm)) => pm,
            _ => unreachable!(),
        }
    }
    /// The pipeline in MLIR's textual syntax.
    pub fn to_text(&self) -> String {
        let mut s = format!("{}(", self.anchor);
        for (i, it) in self.items.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            match it {
                PipelineItem::Pass(p) => {
                    s.push_str(p.name());
                    let o = p.options();
                    if !o.is_empty() {
                        s.push('{');
                        s.push_str(&o);
                        s.push('}');
                    }
                }
                PipelineItem::Nested(pm) => s.push_str(&pm.to_text()),
            }
        }
        s.push(')');
        s
    }
    fn matches(&self, ctx: &Context, op: OpId) -> bool {
        self.anchor == "any" || ctx.op_name_str(op) == self.anchor
    }
}

/// Instrumentation and execution settings.
#[derive(Clone, Debug, Default)]
pub struct PassOptions {
    pub print_before: Vec<String>,
    pub print_after: Vec<String>,
    pub print_before_all: bool,
    pub print_after_all: bool,
    pub print_after_change: bool,
    pub verify_each: bool,
    pub timing: bool,
    /// Run nested pipelines on isolated ops in parallel.
    pub threading: bool,
    pub print: PrintOptions,
    /// Pattern names every pattern-based pass leaves out (`--disable-patterns=a,b`).
    pub disabled_patterns: Vec<String>,
}

/// Per-pass wall time, in first-run order.
#[derive(Clone, Debug, Default)]
pub struct Timing {
    pub entries: Vec<(String, Duration)>,
}

impl Timing {
    /// Adds `d` to the entry named `name`.
    pub fn add(&mut self, name: &str, d: Duration) {
        match self.entries.iter_mut().find(|e| e.0 == name) {
            Some(e) => e.1 += d,
            None => self.entries.push((name.to_string(), d)),
        }
    }
    /// Merges another timing.
    pub fn merge(&mut self, other: &Timing) {
        for (n, d) in &other.entries {
            self.add(n, *d);
        }
    }
    /// A report in the style of `-mlir-timing`.
    pub fn report(&self, total: Duration) -> String {
        let mut s = String::new();
        s.push_str("===-------------------------------------------------------------------------===\n");
        s.push_str("                         ... Execution time report ...\n");
        s.push_str("===-------------------------------------------------------------------------===\n");
        s.push_str(&format!("  Total Execution Time: {:.4} seconds\n\n", total.as_secs_f64()));
        s.push_str("  ----Wall Time----  ----Name----\n");
        let t = total.as_secs_f64().max(1e-12);
        for (n, d) in &self.entries {
            s.push_str(&format!("    {:.4} ({:5.1}%)  {n}\n", d.as_secs_f64(), 100.0 * d.as_secs_f64() / t));
        }
        s.push_str(&format!("    {:.4} (100.0%)  Total\n", total.as_secs_f64()));
        s
    }
}

/// What running a pipeline produced besides the IR.
#[derive(Default)]
pub struct PipelineOutput {
    pub diagnostics: Vec<Diagnostic>,
    /// Per pass: named counters, summed over every op the pass ran on, in first-run order.
    pub statistics: Vec<(String, Vec<(String, u64)>)>,
    /// IR dumps requested by the print options, in order.
    pub dumps: String,
    pub timing: Timing,
}

struct Runner<'a> {
    opts: &'a PassOptions,
    sources: Option<&'a SourceMap>,
    out: PipelineOutput,
}

/// Runs `pm` on `op`. On failure the diagnostics say why.
pub fn run_pipeline(
    ctx: &mut Context,
    op: OpId,
    pm: &OpPassManager,
    opts: &PassOptions,
    sources: Option<&SourceMap>,
) -> Result<PipelineOutput, PipelineOutput> {
    let mut r = Runner { opts, sources, out: PipelineOutput::default() };
    if !pm.matches(ctx, op) {
        r.out
            .diagnostics
            .push(Diagnostic::error(format!("pipeline anchored on '{}' cannot run on '{}'", pm.anchor, ctx.op_name_str(op)), None));
        return Err(r.out);
    }
    let mut am = AnalysisManager::default();
    match r.run(ctx, op, pm, &mut am) {
        Ok(()) => Ok(r.out),
        Err(()) => Err(r.out),
    }
}

fn merge_statistics(all: &mut Vec<(String, Vec<(String, u64)>)>, pass: &str, stats: &[(String, u64)]) {
    if stats.is_empty() {
        return;
    }
    let i = match all.iter().position(|p| p.0 == pass) {
        Some(i) => i,
        None => {
            all.push((pass.to_string(), Vec::new()));
            all.len() - 1
        }
    };
    for (k, v) in stats {
        match all[i].1.iter_mut().find(|e| &e.0 == k) {
            Some(e) => e.1 += v,
            None => all[i].1.push((k.clone(), *v)),
        }
    }
}

/// Formats statistics like `-mlir-pass-statistics`.
pub fn format_statistics(stats: &[(String, Vec<(String, u64)>)]) -> String {
    let mut s = String::from("===-------------------------------------------------------------------------===\n                         ... Pass statistics report ...\n===-------------------------------------------------------------------------===\n");
    for (pass, counters) in stats {
        s.push_str(&format!("{pass}\n"));
        for (k, v) in counters {
            s.push_str(&format!("  ({v:>8}) {k}\n"));
        }
    }
    s
}

/// A structural hash of `op` (for `print-ir-after-change`).
pub fn fingerprint(ctx: &Context, op: OpId) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    for o in crate::walk::collect_preorder(ctx, op) {
        o.hash(&mut h);
        ctx.op_name(o).hash(&mut h);
        ctx.op_loc(o).hash(&mut h);
        for v in ctx.operands(o) {
            v.hash(&mut h);
        }
        for &r in ctx.results(o) {
            r.hash(&mut h);
            ctx.value_type(r).hash(&mut h);
        }
        ctx.attrs(o).hash(&mut h);
        ctx.props(o).hash(&mut h);
        for s in ctx.successors(o) {
            s.hash(&mut h);
        }
        for &r in ctx.regions(o) {
            for &b in ctx.region_blocks(r) {
                b.hash(&mut h);
                for &a in ctx.block_args(b) {
                    ctx.value_type(a).hash(&mut h);
                }
            }
        }
        ctx.next_op(o).hash(&mut h);
    }
    h.finish()
}

impl Runner<'_> {
    fn wants(list: &[String], all: bool, name: &str) -> bool {
        all || list.iter().any(|n| n == name)
    }

    fn dump(&mut self, when: &str, pass: &str, ctx: &Context, op: OpId) {
        self.out.dumps.push_str(&format!("// -----// IR Dump {when} {pass} ('{}' operation) //----- //\n", ctx.op_name_str(op)));
        self.out.dumps.push_str(&print_op(ctx, op, self.opts.print));
        self.out.dumps.push('\n');
    }

    fn run(&mut self, ctx: &mut Context, op: OpId, pm: &OpPassManager, am: &mut AnalysisManager) -> Result<(), ()> {
        for item in &pm.items {
            match item {
                PipelineItem::Pass(p) => self.run_pass(ctx, op, p.as_ref(), am)?,
                PipelineItem::Nested(nested) => self.run_nested(ctx, op, nested, am)?,
            }
        }
        Ok(())
    }

    fn run_pass(&mut self, ctx: &mut Context, op: OpId, p: &dyn Pass, am: &mut AnalysisManager) -> Result<(), ()> {
        let name = p.name().to_string();
        if let Some(a) = p.anchor() {
            if ctx.op_name_str(op) != a {
                self.out.diagnostics.push(Diagnostic::error(
                    format!("pass '{name}' runs on '{a}' ops, not on '{}'; nest it: {a}({name})", ctx.op_name_str(op)),
                    None,
                ));
                return Err(());
            }
        }
        if Self::wants(&self.opts.print_before, self.opts.print_before_all, &name) {
            self.dump("Before", &name, ctx, op);
        }
        let before = (self.opts.print_after_change).then(|| fingerprint(ctx, op));
        let start = Instant::now();
        let mut st = PassState {
            analyses: am,
            sources: self.sources,
            diagnostics: Vec::new(),
            statistics: Vec::new(),
            preserved: Preserved::None,
            disabled_patterns: &self.opts.disabled_patterns,
        };
        let r = p.run(ctx, op, &mut st);
        let preserved = std::mem::take(&mut st.preserved);
        let stats = std::mem::take(&mut st.statistics);
        merge_statistics(&mut self.out.statistics, &name, &stats);
        self.out.diagnostics.append(&mut st.diagnostics);
        am.invalidate(&preserved);
        self.out.timing.add(&name, start.elapsed());
        if r.is_err() {
            if !self.out.diagnostics.iter().any(|d| d.severity == crate::diag::Severity::Error) {
                self.out.diagnostics.push(Diagnostic::error(format!("pass '{name}' failed"), None));
            }
            return Err(());
        }
        if self.opts.verify_each {
            let vs = Instant::now();
            if let Err(errs) = crate::verify::verify(ctx, op, self.sources) {
                self.out.diagnostics.extend(errs);
                self.out.diagnostics.push(Diagnostic::error(format!("verification failed after pass '{name}'"), None));
                return Err(());
            }
            self.out.timing.add("(verifier)", vs.elapsed());
        }
        let changed = before.is_none_or(|b| b != fingerprint(ctx, op));
        if Self::wants(&self.opts.print_after, self.opts.print_after_all, &name) || (self.opts.print_after_change && changed) {
            self.dump("After", &name, ctx, op);
        }
        Ok(())
    }

    fn run_nested(&mut self, ctx: &mut Context, op: OpId, pm: &OpPassManager, am: &mut AnalysisManager) -> Result<(), ()> {
        let mut targets = Vec::new();
        for &r in ctx.regions(op) {
            for &b in ctx.region_blocks(r) {
                targets.extend(ctx.block_ops(b).filter(|&o| pm.matches(ctx, o)));
            }
        }
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let parallel = self.opts.threading
            && threads > 1
            && targets.len() > 1
            && targets.iter().all(|&t| ctx.has_trait(t, Traits::ISOLATED_FROM_ABOVE));
        if !parallel {
            for t in targets {
                self.run(ctx, t, pm, am)?;
            }
            return Ok(());
        }
        // Parallel: move each target into its own context, run, move back in order.
        am.invalidate(&Preserved::None);
        let chunk = targets.len().div_ceil(threads);
        let jobs: Vec<Vec<(Context, OpId)>> = targets
            .chunks(chunk)
            .map(|c| {
                c.iter()
                    .map(|&t| {
                        let mut sub = Context::new(ctx.registry().clone());
                        sub.allow_unregistered = ctx.allow_unregistered;
                        let root = crate::clone::transplant(ctx, t, &mut sub);
                        (sub, root)
                    })
                    .collect()
            })
            .collect();
        let opts = self.opts;
        let sources = self.sources;
        type JobResult = (Context, OpId, Result<PipelineOutput, PipelineOutput>);
        let results: Vec<Vec<JobResult>> = std::thread::scope(|s| {
            let handles: Vec<_> = jobs
                .into_iter()
                .map(|job| {
                    s.spawn(move || {
                        job.into_iter()
                            .map(|(mut sub, root)| {
                                let mut r = Runner { opts, sources, out: PipelineOutput::default() };
                                let mut am = AnalysisManager::default();
                                let res = r.run(&mut sub, root, pm, &mut am);
                                let out = r.out;
                                (sub, root, if res.is_ok() { Ok(out) } else { Err(out) })
                            })
                            .collect()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("pass worker panicked")).collect()
        });
        let mut failed = false;
        for ((sub, root, res), &orig) in results.into_iter().flatten().zip(&targets) {
            let out = match res {
                Ok(o) => o,
                Err(o) => {
                    failed = true;
                    o
                }
            };
            self.out.diagnostics.extend(out.diagnostics);
            self.out.dumps.push_str(&out.dumps);
            self.out.timing.merge(&out.timing);
            for (pass, stats) in &out.statistics {
                merge_statistics(&mut self.out.statistics, pass, stats);
            }
            let back = crate::clone::transplant(&sub, root, ctx);
            let block = ctx.op_block(orig).expect("target in block");
            ctx.insert_op(back, InsertPoint { block, before: Some(orig) });
            for i in 0..ctx.num_results(orig) {
                let (from, to) = (ctx.result(orig, i), ctx.result(back, i));
                ctx.replace_all_uses_with(from, to);
            }
            ctx.erase_op(orig);
        }
        if failed {
            Err(())
        } else {
            Ok(())
        }
    }
}
