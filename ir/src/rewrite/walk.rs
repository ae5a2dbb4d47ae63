//! The walk driver: one post-order pass over the IR, applying the first matching pattern
//! to each op once. Cheaper than the greedy driver; for rewrites that need no fixpoint.

use super::{NoListener, PatternIndex, PatternSet, PatternStat, Rewriter};
use crate::context::{Context, OpId};

/// Rewrites allowed per op present at the start, plus a fixed 10,000: a walk visits each
/// op once, so more rewrites than that means patterns keep creating work for each other.
pub const WALK_REWRITES_PER_OP: u64 = 4;

/// What a walk did.
#[derive(Clone, Debug)]
pub struct WalkResult {
    pub rewrites: u64,
    /// Set when the walk stopped on its rewrite budget.
    pub hit_budget: Option<u64>,
    pub stats: Vec<PatternStat>,
}

/// Visits every op nested in `root` once (children first) and applies the first pattern
/// that matches it.
pub fn apply_patterns_walk(ctx: &mut Context, root: OpId, patterns: &PatternSet, max_rewrites: Option<u64>) -> WalkResult {
    let ops = crate::walk::collect_postorder(ctx, root);
    let budget = max_rewrites.unwrap_or(ops.len() as u64 * WALK_REWRITES_PER_OP + 10_000);
    let mut index = PatternIndex::new(patterns);
    let mut res = WalkResult { rewrites: 0, hit_budget: None, stats: Vec::new() };
    let mut listener = NoListener;
    for op in ops {
        // An op erased by an earlier rewrite is skipped (its slot may hold a newer op, which
        // is then visited instead: harmless, it is a live op of the IR).
        if !ctx.op_is_live(op) || ctx.op_block(op).is_none() {
            continue;
        }
        if res.rewrites >= budget {
            res.hit_budget = Some(budget);
            break;
        }
        let mut rw = Rewriter::new(ctx, &mut listener);
        if index.apply(op, &mut rw).is_some() {
            res.rewrites += 1;
        }
    }
    res.stats = index.into_stats();
    res
}
