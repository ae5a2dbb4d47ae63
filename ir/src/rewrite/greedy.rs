//! The greedy pattern driver (MLIR's `applyPatternsGreedily`).
//!
//! Algorithm:
//! 1. Fill the worklist with every op nested in the root (popped in textual order).
//! 2. Pop an op. If it is trivially dead, erase it and queue the ops defining its operands.
//! 3. Otherwise fold it: constant operands are read from constant-like producers; a fold
//!    to attributes materializes constants through the op's dialect hook, a fold to values
//!    replaces the op, an in-place fold requeues it.
//! 4. Otherwise try its patterns, highest benefit first; the first that applies wins.
//! 5. Every change is seen by the driver's listener: created and modified ops, users of
//!    replaced results and producers of erased ops' operands go back on the worklist.
//! 6. When the worklist is empty and anything changed, start again from step 1, up to
//!    [`MAX_ITERATIONS`] sweeps; stop early on the rewrite budget. Both stops are reported.

use super::{constant_value, is_trivially_dead, Listener, PatternIndex, PatternSet, PatternStat, Rewriter};
use crate::{
    context::{Context, OpId, ValueId},
    registry::{FoldOutcome, FoldResult},
};

/// Sweeps over the whole IR before giving up. MLIR uses 10: canonicalization normally
/// converges in two or three sweeps; needing more means two patterns undo each other.
pub const MAX_ITERATIONS: u32 = 10;
/// Rewrites (folds, pattern applications, dead-op erasures) allowed per op present at the
/// start, plus [`REWRITE_BUDGET_BASE`]. Each rewrite normally shrinks or simplifies the
/// IR, so a few per op is plenty; far more means a cycle that sweeps alone cannot catch
/// (one sweep that never empties its worklist).
pub const REWRITES_PER_OP: u64 = 32;
/// Fixed part of the rewrite budget (small inputs).
pub const REWRITE_BUDGET_BASE: u64 = 10_000;

/// Settings of one greedy run.
#[derive(Clone, Debug)]
pub struct GreedyConfig {
    pub max_iterations: u32,
    /// `None`: [`REWRITES_PER_OP`] per initial op plus [`REWRITE_BUDGET_BASE`].
    pub max_rewrites: Option<u64>,
    pub fold: bool,
    pub remove_dead: bool,
}

impl Default for GreedyConfig {
    fn default() -> Self {
        Self { max_iterations: MAX_ITERATIONS, max_rewrites: None, fold: true, remove_dead: true }
    }
}

/// Why a driver stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StopReason {
    Converged,
    IterationBudget(u32),
    RewriteBudget(u64),
}

/// What a greedy run did.
#[derive(Clone, Debug)]
pub struct GreedyResult {
    pub stop: StopReason,
    pub changed: bool,
    pub iterations: u32,
    pub rewrites: u64,
    pub folds: u64,
    pub erased_dead: u64,
    pub stats: Vec<PatternStat>,
}

impl GreedyResult {
    /// Whether the run reached a fixpoint.
    pub fn converged(&self) -> bool {
        self.stop == StopReason::Converged
    }
}

struct Worklist {
    list: Vec<OpId>,
    queued: Vec<bool>,
}

impl Worklist {
    fn push(&mut self, op: OpId) {
        let i = op.index();
        if i >= self.queued.len() {
            self.queued.resize(i + 1, false);
        }
        if !self.queued[i] {
            self.queued[i] = true;
            self.list.push(op);
        }
    }
    fn pop(&mut self) -> Option<OpId> {
        let op = self.list.pop()?;
        self.queued[op.index()] = false;
        Some(op)
    }
    fn remove_mark(&mut self, op: OpId) {
        if let Some(q) = self.queued.get_mut(op.index()) {
            *q = false;
        }
    }
}

impl Listener for Worklist {
    fn op_inserted(&mut self, _ctx: &Context, op: OpId) {
        self.push(op);
    }
    fn op_erased(&mut self, ctx: &Context, op: OpId) {
        for v in ctx.operands(op) {
            if let Some(d) = ctx.defining_op(v) {
                self.push(d);
            }
        }
        for o in crate::walk::collect_preorder(ctx, op) {
            self.remove_mark(o);
        }
    }
    fn op_replaced(&mut self, ctx: &Context, op: OpId, _with: &[ValueId]) {
        for &r in ctx.results(op) {
            for (u, _) in ctx.uses(r) {
                self.push(u);
            }
        }
    }
    fn op_modified(&mut self, _ctx: &Context, op: OpId) {
        self.push(op);
    }
}

/// Applies `patterns` (plus folding and dead-op removal) to everything nested in `root`
/// until nothing changes or a budget is hit.
pub fn apply_patterns_greedily(ctx: &mut Context, root: OpId, patterns: &PatternSet, config: &GreedyConfig) -> GreedyResult {
    let mut index = PatternIndex::new(patterns);
    let initial = crate::walk::collect_preorder(ctx, root).len() as u64;
    let budget = config.max_rewrites.unwrap_or(initial * REWRITES_PER_OP + REWRITE_BUDGET_BASE);
    let mut res = GreedyResult {
        stop: StopReason::Converged,
        changed: false,
        iterations: 0,
        rewrites: 0,
        folds: 0,
        erased_dead: 0,
        stats: Vec::new(),
    };
    let mut wl = Worklist { list: Vec::new(), queued: Vec::new() };
    let mut consts: Vec<Option<crate::attrs::AttrId>> = Vec::new();
    'sweeps: loop {
        if res.iterations >= config.max_iterations {
            res.stop = StopReason::IterationBudget(config.max_iterations);
            break;
        }
        res.iterations += 1;
        let mut changed = false;
        let mut all = crate::walk::collect_preorder(ctx, root);
        all.remove(0);
        for &op in all.iter().rev() {
            wl.push(op);
        }
        while let Some(op) = wl.pop() {
            if !ctx.op_is_live(op) || ctx.op_block(op).is_none() || !ctx.is_ancestor(root, op) {
                continue;
            }
            if res.rewrites >= budget {
                res.stop = StopReason::RewriteBudget(budget);
                break 'sweeps;
            }
            if config.remove_dead && is_trivially_dead(ctx, op) {
                let mut rw = Rewriter::new(ctx, &mut wl);
                rw.erase_op(op);
                res.erased_dead += 1;
                res.rewrites += 1;
                changed = true;
                continue;
            }
            if config.fold && try_fold(ctx, op, &mut wl, &mut consts) {
                res.folds += 1;
                res.rewrites += 1;
                changed = true;
                continue;
            }
            let mut rw = Rewriter::new(ctx, &mut wl);
            if index.apply(op, &mut rw).is_some() {
                res.rewrites += 1;
                changed = true;
            }
        }
        res.changed |= changed;
        if !changed {
            break;
        }
    }
    res.stats = index.into_stats();
    res
}

/// Folds `op` if its folder says so. Returns whether the IR changed.
fn try_fold(ctx: &mut Context, op: OpId, wl: &mut Worklist, consts: &mut Vec<Option<crate::attrs::AttrId>>) -> bool {
    let Some(info) = ctx.op_info(op) else { return false };
    let Some(fold) = info.fold else { return false };
    // A constant-like op folds to its own value: nothing to do.
    if info.traits.contains(crate::registry::Traits::CONSTANT_LIKE) {
        return false;
    }
    consts.clear();
    consts.extend(ctx.operands(op).map(|v| constant_value(ctx, v)));
    match fold(ctx, op, consts) {
        FoldOutcome::None => false,
        FoldOutcome::InPlace => {
            wl.push(op);
            for &r in ctx.results(op) {
                for (u, _) in ctx.uses(r) {
                    wl.push(u);
                }
            }
            true
        }
        FoldOutcome::Replace(results) => {
            if results.len() != ctx.num_results(op) {
                return false;
            }
            let mut values = Vec::with_capacity(results.len());
            let mut created = Vec::new();
            for (i, r) in results.iter().enumerate() {
                match *r {
                    FoldResult::Value(v) => values.push(v),
                    FoldResult::Attr(a) => {
                        let ty = ctx.value_type(ctx.result(op, i));
                        let loc = ctx.op_loc(op);
                        match materialize_constant(ctx, op, a, ty, loc) {
                            Some(c) => {
                                created.push(c);
                                values.push(ctx.result(c, 0));
                            }
                            None => {
                                for c in created {
                                    ctx.erase_op(c);
                                }
                                return false;
                            }
                        }
                    }
                }
            }
            let mut rw = Rewriter::new(ctx, wl);
            for c in created {
                rw.listener.op_inserted(rw.ctx, c);
            }
            rw.replace_op(op, &values);
            true
        }
    }
}

/// Builds a constant with the dialect hook of `op`'s dialect, inserted before `op`.
pub fn materialize_constant(
    ctx: &mut Context,
    op: OpId,
    attr: crate::attrs::AttrId,
    ty: crate::types::TypeId,
    loc: crate::location::LocId,
) -> Option<OpId> {
    let name = ctx.op_name_str(op);
    let dialect = name.split('.').next().unwrap_or("");
    let hook = ctx.registry().dialect(dialect).and_then(|d| d.materialize_constant)?;
    let c = hook(ctx, attr, ty, loc)?;
    let block = ctx.op_block(op)?;
    ctx.insert_op(c, crate::context::InsertPoint { block, before: Some(op) });
    Some(c)
}
