//! Region simplification, run by the greedy driver between sweeps (as MLIR's canonicalizer
//! does): CFG clean-ups that no op pattern can express because they change blocks.
//!
//! Per region of a registered, non-graph op with two or more blocks:
//! 1. Erase blocks unreachable from the entry (their uses are dropped first, so blocks that
//!    refer to each other go together).
//! 2. Merge a block into its predecessor when that predecessor ends in a pure terminator
//!    whose only successor it is, and it has no other predecessor: the block's arguments
//!    become the operands the terminator forwards (branch interface), the terminator goes,
//!    and the block's ops move to the end of the predecessor.

use crate::{
    context::{Context, InsertPoint, OpId},
    dominance::rpo,
    registry::Traits,
};

/// Simplifies every region under `root`; returns whether anything changed.
pub fn simplify_regions(ctx: &mut Context, root: OpId) -> bool {
    simplify_regions_pruned(ctx, root, |_| false)
}

/// [`simplify_regions`], not looking inside the ops for which `prune` holds.
pub fn simplify_regions_pruned(ctx: &mut Context, root: OpId, prune: impl Fn(OpId) -> bool) -> bool {
    let mut changed = false;
    for op in crate::walk::collect_preorder_pruned(ctx, root, prune) {
        if !ctx.op_is_live(op) || !ctx.op_has_regions(op) || !ctx.is_registered(op) || ctx.has_trait(op, Traits::GRAPH_REGION) {
            continue;
        }
        for r in ctx.regions(op).to_vec() {
            if ctx.region_blocks(r).len() < 2 {
                continue;
            }
            changed |= erase_unreachable_blocks(ctx, r) > 0;
            changed |= merge_straight_line_blocks(ctx, r);
        }
    }
    changed
}

/// Erases the blocks of `r` unreachable from its entry; returns how many. Their ops' uses
/// are dropped first, so blocks that refer to each other can go in any order.
pub fn erase_unreachable_blocks(ctx: &mut Context, r: crate::context::RegionId) -> u64 {
    if ctx.region_blocks(r).len() < 2 {
        return 0;
    }
    let reachable = rpo(ctx, r);
    if reachable.len() == ctx.region_blocks(r).len() {
        return 0;
    }
    let mut live = vec![false; ctx.block_capacity()];
    for b in &reachable {
        live[b.index()] = true;
    }
    let dead: Vec<_> = ctx.region_blocks(r).iter().copied().filter(|b| !live[b.index()]).collect();
    for &b in &dead {
        for o in ctx.block_ops(b).collect::<Vec<_>>() {
            for n in crate::walk::collect_preorder(ctx, o) {
                ctx.drop_operands(n);
                ctx.clear_successors(n);
            }
        }
    }
    let n = dead.len() as u64;
    for b in dead {
        ctx.erase_block(b);
    }
    n
}

fn merge_straight_line_blocks(ctx: &mut Context, r: crate::context::RegionId) -> bool {
    let mut changed = false;
    let mut i = 1;
    while i < ctx.region_blocks(r).len() {
        let b = ctx.region_blocks(r)[i];
        let mut preds = ctx.predecessors(b);
        let (Some((term, succ)), None) = (preds.next(), preds.next()) else {
            i += 1;
            continue;
        };
        let mergeable = ctx.num_successors(term) == 1
            && succ == 0
            && ctx.has_trait(term, Traits::PURE)
            && ctx.op_block(term).is_some_and(|pb| pb != b)
            && match ctx.op_info(term).and_then(|info| info.successor_operands) {
                Some(f) => f(ctx, term, 0).len() == ctx.block_args(b).len(),
                None => ctx.block_args(b).is_empty() && ctx.num_operands(term) == 0,
            };
        if !mergeable {
            i += 1;
            continue;
        }
        let args: Vec<_> = match ctx.op_info(term).and_then(|info| info.successor_operands) {
            Some(f) => f(ctx, term, 0).map(|k| ctx.operand(term, k)).collect(),
            None => Vec::new(),
        };
        let pb = ctx.op_block(term).expect("terminator in a block");
        ctx.drop_operands(term);
        ctx.clear_successors(term);
        ctx.erase_op(term);
        ctx.merge_block_into(b, InsertPoint::end(pb), &args);
        changed = true;
        // Stay at index `i`: the next block moved into it.
    }
    changed
}
