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
//! 6. When the worklist is empty, simplify regions ([`super::region_simplify`]: unreachable
//!    blocks, straight-line block merging).
//! 7. When anything changed, start again from step 1, up to
//!    [`MAX_ITERATIONS`] sweeps; stop early on the rewrite budget. Both stops are reported.
//!
//! Constants (as MLIR's `OperationFolder`): each constant-like op is moved to the start of
//! the entry block of its nearest isolated-from-above region and deduplicated there, and
//! folds materialize their constants there too, reusing an existing equal constant. The
//! entry block dominates the whole region, so a constant there can serve every fold.

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
    /// Run [`super::region_simplify`] after each sweep (unreachable blocks, block merging).
    pub region_simplify: bool,
}

impl Default for GreedyConfig {
    fn default() -> Self {
        Self { max_iterations: MAX_ITERATIONS, max_rewrites: None, fold: true, remove_dead: true, region_simplify: true }
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
    /// Sweeps after which region simplification changed something.
    pub region_simplifications: u64,
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
    /// Whether a terminator or region-holding op was created, erased or changed since the
    /// last region simplification (otherwise no block can have become unreachable or
    /// mergeable).
    cfg_changed: bool,
}

/// Whether a change to `op` may change a CFG: it holds regions, or it is the last op of its
/// block (where terminators are). Reads only the dense link table: this runs on every
/// notification.
fn affects_cfg(ctx: &Context, op: OpId) -> bool {
    ctx.op_has_regions(op) || ctx.next_op(op).is_none()
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
    /// Replaces an empty worklist by `ops` (popped from the end).
    fn fill(&mut self, ops: Vec<OpId>) {
        debug_assert!(self.list.is_empty());
        if let Some(max) = ops.iter().map(|o| o.index()).max() {
            if max >= self.queued.len() {
                self.queued.resize(max + 1, false);
            }
        }
        for &o in &ops {
            self.queued[o.index()] = true;
        }
        self.list = ops;
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
    fn op_inserted(&mut self, ctx: &Context, op: OpId) {
        if !self.cfg_changed {
            self.cfg_changed = affects_cfg(ctx, op);
        }
        self.push(op);
    }
    fn op_erased(&mut self, ctx: &Context, op: OpId) {
        if !self.cfg_changed {
            self.cfg_changed = affects_cfg(ctx, op);
        }
        for v in ctx.operands(op) {
            if let Some(d) = ctx.defining_op(v) {
                self.push(d);
            }
        }
        if !ctx.op_has_regions(op) {
            self.remove_mark(op);
        } else {
            for o in crate::walk::collect_preorder(ctx, op) {
                self.remove_mark(o);
            }
        }
    }
    fn op_replaced(&mut self, _ctx: &Context, _op: OpId, _with: &[ValueId]) {
        // The users are queued by the `op_modified` notifications of the RAUW that follows.
    }
    fn op_modified(&mut self, ctx: &Context, op: OpId) {
        if !self.cfg_changed {
            self.cfg_changed = affects_cfg(ctx, op);
        }
        self.push(op);
    }
}

/// Applies `patterns` (plus folding and dead-op removal) to everything nested in `root`
/// until nothing changes or a budget is hit.
///
/// The ops directly nested in `root` that are isolated from above (functions) are first
/// brought to their own fixpoint one at a time: nothing inside one can affect another, and a
/// function's ops stay in cache across its sweeps. Then the rest of `root` (everything but
/// those functions' contents) is swept to a fixpoint. The iteration budget applies per
/// scope; the rewrite budget to the whole run.
pub fn apply_patterns_greedily(ctx: &mut Context, root: OpId, patterns: &PatternSet, config: &GreedyConfig) -> GreedyResult {
    // All ops of the context stand in for the ops under `root` (no extra walk to count).
    let initial = ctx.num_ops() as u64;
    let mut d = Driver {
        config,
        index: PatternIndex::new(patterns),
        budget: config.max_rewrites.unwrap_or(initial * REWRITES_PER_OP + REWRITE_BUDGET_BASE),
        res: GreedyResult {
            stop: StopReason::Converged,
            changed: false,
            iterations: 0,
            rewrites: 0,
            folds: 0,
            erased_dead: 0,
            region_simplifications: 0,
            stats: Vec::new(),
        },
        wl: Worklist { list: Vec::new(), queued: Vec::new(), cfg_changed: true },
        consts: Vec::new(),
        known: ConstantCache::default(),
        done: Vec::new(),
    };
    let mut children = Vec::new();
    for &r in ctx.regions(root) {
        for &b in ctx.region_blocks(r) {
            children.extend(
                ctx.block_ops(b).filter(|&o| ctx.op_has_regions(o) && ctx.has_trait(o, crate::registry::Traits::ISOLATED_FROM_ABOVE)),
            );
        }
    }
    let mut stopped = false;
    for &c in &children {
        // Constants never cross an isolated op: a fresh (small, cache-resident) constant
        // table per function.
        d.known = ConstantCache::default();
        if d.run(ctx, c) {
            stopped = true;
            break;
        }
        d.mark_done(c);
    }
    if !stopped {
        d.known = ConstantCache::default();
        d.run(ctx, root);
    }
    let mut res = d.res;
    res.stats = d.index.into_stats();
    res
}

struct Driver<'p, 'c> {
    config: &'c GreedyConfig,
    index: PatternIndex<'p>,
    budget: u64,
    res: GreedyResult,
    wl: Worklist,
    consts: Vec<Option<crate::attrs::AttrId>>,
    known: ConstantCache,
    /// Isolated ops already brought to a fixpoint (by op index): later scopes do not
    /// sweep their contents again.
    done: Vec<bool>,
}

impl Driver<'_, '_> {
    fn mark_done(&mut self, op: OpId) {
        if self.done.len() <= op.index() {
            self.done.resize(op.index() + 1, false);
        }
        self.done[op.index()] = true;
    }

    fn is_done(&self, op: OpId) -> bool {
        self.done.get(op.index()).copied().unwrap_or(false)
    }

    /// Sweeps everything nested in `scope` (but not inside ops marked done) until nothing
    /// changes. Returns whether a budget stopped the run.
    fn run(&mut self, ctx: &mut Context, scope: OpId) -> bool {
        let config = self.config;
        let mut sweeps = 0;
        // The first sweep is followed by a region simplification whatever happened.
        self.wl.cfg_changed = true;
        'sweeps: loop {
            if sweeps >= config.max_iterations {
                self.res.stop = StopReason::IterationBudget(config.max_iterations);
                return true;
            }
            sweeps += 1;
            self.res.iterations = self.res.iterations.max(sweeps);
            let mut changed = false;
            // The walk becomes the worklist: reversed, so ops pop in textual order.
            let mut all = if self.done.is_empty() {
                crate::walk::collect_preorder(ctx, scope)
            } else {
                crate::walk::collect_preorder_pruned(ctx, scope, |o| o != scope && self.is_done(o))
            };
            all.reverse();
            all.pop();
            self.wl.fill(all);
            while let Some(op) = self.wl.pop() {
                if !ctx.op_is_live(op) || ctx.op_block(op).is_none() || !ctx.is_ancestor(scope, op) {
                    continue;
                }
                if self.res.rewrites >= self.budget {
                    self.res.stop = StopReason::RewriteBudget(self.budget);
                    break 'sweeps;
                }
                if config.remove_dead && is_trivially_dead(ctx, op) {
                    self.known.forget(op);
                    let mut rw = Rewriter::new(ctx, &mut self.wl);
                    rw.erase_op(op);
                    self.res.erased_dead += 1;
                    self.res.rewrites += 1;
                    changed = true;
                    continue;
                }
                if config.fold && ctx.has_trait(op, crate::registry::Traits::CONSTANT_LIKE) {
                    if self.known.hoist_or_merge(ctx, op, &mut self.wl) {
                        self.res.folds += 1;
                        self.res.rewrites += 1;
                        changed = true;
                    }
                    continue;
                }
                if config.fold && try_fold(ctx, op, &mut self.wl, &mut self.consts, &mut self.known) {
                    self.res.folds += 1;
                    self.res.rewrites += 1;
                    changed = true;
                    continue;
                }
                let mut rw = Rewriter::new(ctx, &mut self.wl);
                if self.index.apply(op, &mut rw).is_some() {
                    self.res.rewrites += 1;
                    changed = true;
                }
            }
            if config.region_simplify
                && std::mem::take(&mut self.wl.cfg_changed)
                && super::region_simplify::simplify_regions_pruned(ctx, scope, |o| o != scope && self.is_done(o))
            {
                self.res.region_simplifications += 1;
                changed = true;
            }
            self.res.changed |= changed;
            if !changed {
                return false;
            }
        }
        true
    }
}

/// Folds `op` if its folder says so. Returns whether the IR changed.
fn try_fold(
    ctx: &mut Context,
    op: OpId,
    wl: &mut Worklist,
    consts: &mut Vec<Option<crate::attrs::AttrId>>,
    known: &mut ConstantCache,
) -> bool {
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
            let mut values: smallvec::SmallVec<[ValueId; 2]> = smallvec::SmallVec::new();
            let mut created: smallvec::SmallVec<[OpId; 2]> = smallvec::SmallVec::new();
            for (i, r) in results.iter().enumerate() {
                match *r {
                    FoldResult::Value(v) => values.push(v),
                    FoldResult::Attr(a) => {
                        let ty = ctx.value_type(ctx.result(op, i));
                        let loc = ctx.op_loc(op);
                        match known.get_or_create(ctx, op, a, ty, loc) {
                            Some((c, true)) => {
                                created.push(c);
                                values.push(ctx.result(c, 0));
                            }
                            Some((c, false)) => values.push(ctx.result(c, 0)),
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

/// Constants per insertion block (the entry block of the nearest isolated-from-above
/// region), keyed by (block, constant op name, value, type).
#[derive(Default)]
struct ConstantCache {
    map: rustc_hash::FxHashMap<(crate::context::BlockId, crate::symbol::Symbol, crate::attrs::AttrId, crate::types::TypeId), OpId>,
    /// Constants made for folds, keyed by (block, name of the folded op, folded value,
    /// type), so a repeated fold reuses them without calling the dialect hook.
    made: rustc_hash::FxHashMap<(crate::context::BlockId, crate::symbol::Symbol, crate::attrs::AttrId, crate::types::TypeId), OpId>,
    /// Constants known to sit in the prefix of constants at the top of their insertion
    /// block (the only place a shared constant dominates every use), and the last of them.
    in_prefix: rustc_hash::FxHashSet<OpId>,
    /// The constant hook of each folded op's dialect, by op name.
    hooks: rustc_hash::FxHashMap<crate::symbol::Symbol, Option<crate::registry::MaterializeConstantFn>>,
    prefix_last: rustc_hash::FxHashMap<crate::context::BlockId, OpId>,
}

/// The entry block of the nearest region of `op` owned by an isolated-from-above op (or the
/// outermost region).
fn insertion_block(ctx: &Context, op: OpId) -> Option<crate::context::BlockId> {
    let mut cur = op;
    loop {
        let region = ctx.op_region(cur)?;
        match ctx.region_parent(region) {
            Some(p) if !ctx.has_trait(p, crate::registry::Traits::ISOLATED_FROM_ABOVE) && ctx.op_block(p).is_some() => cur = p,
            _ => return ctx.entry_block(region),
        }
    }
}

impl ConstantCache {
    fn lookup(
        &self,
        ctx: &Context,
        key: (crate::context::BlockId, crate::symbol::Symbol, crate::attrs::AttrId, crate::types::TypeId),
    ) -> Option<OpId> {
        let &c = self.map.get(&key)?;
        // The cached op may have been erased (and its slot reused): check it still matches.
        let ok = ctx.op_is_live(c)
            && ctx.op_block(c) == Some(key.0)
            && ctx.op_name(c) == key.1
            && ctx.num_results(c) == 1
            && ctx.value_type(ctx.result(c, 0)) == key.3
            && ctx.get_attr_sym(c, ctx.value_sym()) == Some(key.2);
        ok.then_some(c)
    }

    /// The op before which a new constant joins the prefix of block `ib`. O(1) while the
    /// recorded last prefix constant is valid; otherwise (it was erased) walks the prefix.
    fn prefix_end(&mut self, ctx: &Context, ib: crate::context::BlockId) -> Option<OpId> {
        if let Some(&l) = self.prefix_last.get(&ib) {
            if ctx.op_is_live(l) && ctx.op_block(l) == Some(ib) && self.in_prefix.contains(&l) {
                return ctx.next_op(l);
            }
        }
        let mut last = None;
        let mut cur = ctx.first_op(ib);
        while let Some(c) = cur {
            if !self.in_prefix.contains(&c) || !ctx.has_trait(c, crate::registry::Traits::CONSTANT_LIKE) {
                break;
            }
            last = Some(c);
            cur = ctx.next_op(c);
        }
        match last {
            Some(l) => {
                self.prefix_last.insert(ib, l);
            }
            None => {
                self.prefix_last.remove(&ib);
            }
        }
        cur
    }

    /// Forgets `op` (about to be erased).
    fn forget(&mut self, op: OpId) {
        self.in_prefix.remove(&op);
    }

    /// Visits constant `op`: merges it into an equal known constant, or hoists it to its
    /// insertion block and records it. Returns whether the IR changed.
    fn hoist_or_merge(&mut self, ctx: &mut Context, op: OpId, wl: &mut Worklist) -> bool {
        // Seen before and still in place (the common case in later sweeps).
        if self.in_prefix.contains(&op) {
            return false;
        }
        let (Some(ib), Some(value)) = (insertion_block(ctx, op), ctx.get_attr_sym(op, ctx.value_sym())) else { return false };
        if ctx.num_results(op) != 1 {
            return false;
        }
        let key = (ib, ctx.op_name(op), value, ctx.value_type(ctx.result(op, 0)));
        match self.lookup(ctx, key) {
            Some(c) if c == op => false,
            Some(c) => {
                let mut rw = Rewriter::new(ctx, wl);
                let v = rw.ctx.result(c, 0);
                rw.replace_op(op, &[v]);
                true
            }
            None => {
                self.map.insert(key, op);
                // Already part of the prefix of known constants at the top of the block?
                let prev = ctx.prev_op(op);
                let in_place = ctx.op_block(op) == Some(ib) && prev.is_none_or(|p| self.in_prefix.contains(&p));
                let before = if in_place { ctx.next_op(op) } else { self.prefix_end(ctx, ib) };
                self.in_prefix.insert(op);
                if in_place {
                    if self.prefix_last.get(&ib).is_none_or(|&l| Some(l) == prev) {
                        self.prefix_last.insert(ib, op);
                    }
                    return false;
                }
                ctx.move_op(op, crate::context::InsertPoint { block: ib, before });
                self.prefix_last.insert(ib, op);
                true
            }
        }
    }

    /// An equal constant in `op`'s insertion block, or a new one created there by the
    /// dialect hook; the flag says whether it was created.
    fn get_or_create(
        &mut self,
        ctx: &mut Context,
        op: OpId,
        attr: crate::attrs::AttrId,
        ty: crate::types::TypeId,
        loc: crate::location::LocId,
    ) -> Option<(OpId, bool)> {
        let ib = insertion_block(ctx, op)?;
        // The folded op's name stands for its dialect in the key (same dialect hook).
        let dsym = ctx.op_name(op);
        let made_key = (ib, dsym, attr, ty);
        if let Some(&c) = self.made.get(&made_key) {
            // Still that constant at the top of `ib`? (Its slot may hold a newer op.)
            if ctx.op_is_live(c)
                && ctx.op_block(c) == Some(ib)
                && self.in_prefix.contains(&c)
                && ctx.num_results(c) == 1
                && ctx.value_type(ctx.result(c, 0)) == ty
                && ctx.get_attr_sym(c, ctx.value_sym()) == Some(attr)
            {
                return Some((c, false));
            }
        }
        let hook = match self.hooks.get(&dsym) {
            Some(&h) => h,
            None => {
                let dialect = ctx.op_name_str(op).split('.').next().unwrap_or("");
                let h = ctx.registry().dialect(dialect).and_then(|d| d.materialize_constant);
                self.hooks.insert(dsym, h);
                h
            }
        }?;
        let c = hook(ctx, attr, ty, loc)?;
        let key = (ib, ctx.op_name(c), ctx.get_attr_sym(c, ctx.value_sym()).unwrap_or(attr), ty);
        if let Some(existing) = self.lookup(ctx, key) {
            ctx.erase_op(c);
            self.made.insert(made_key, existing);
            return Some((existing, false));
        }
        let before = self.prefix_end(ctx, ib);
        ctx.insert_op(c, crate::context::InsertPoint { block: ib, before });
        self.in_prefix.insert(c);
        self.prefix_last.insert(ib, c);
        self.map.insert(key, c);
        self.made.insert(made_key, c);
        Some((c, true))
    }
}
