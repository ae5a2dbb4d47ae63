//! Iterative walks over nested IR (no recursion: nesting depth never grows the stack).

use crate::context::{Context, OpId};

/// `root` and every op nested in it, parents before children, in textual order.
///
/// Walks forward through each block (a stack of "next op to visit" cursors), touching each
/// op once.
pub fn collect_preorder(ctx: &Context, root: OpId) -> Vec<OpId> {
    collect_preorder_pruned(ctx, root, |_| false)
}

/// Like [`collect_preorder`], but the ops for which `prune` holds are listed without their
/// contents.
pub fn collect_preorder_pruned(ctx: &Context, root: OpId, prune: impl Fn(OpId) -> bool) -> Vec<OpId> {
    let mut out = vec![root];
    let mut stack: Vec<OpId> = Vec::new();
    push_first_ops(ctx, root, &mut stack);
    while let Some(op) = stack.pop() {
        out.push(op);
        if let Some(n) = ctx.next_op(op) {
            stack.push(n);
        }
        if !prune(op) {
            push_first_ops(ctx, op, &mut stack);
        }
    }
    out
}

/// Pushes the first op of every block of `op`'s regions, last block first (the cursors of a
/// forward preorder walk).
pub(crate) fn push_first_ops(ctx: &Context, op: OpId, stack: &mut Vec<OpId>) {
    if !ctx.op_has_regions(op) {
        return;
    }
    for &r in ctx.regions(op).iter().rev() {
        for &b in ctx.region_blocks(r).iter().rev() {
            if let Some(f) = ctx.first_op(b) {
                stack.push(f);
            }
        }
    }
}

/// Every op nested in `root` (not `root` itself), children before parents, each block's
/// ops in order. This is the order MLIR's default `walk` visits.
pub fn collect_postorder(ctx: &Context, root: OpId) -> Vec<OpId> {
    let mut out = Vec::new();
    // (op, children pushed?)
    let mut stack: Vec<(OpId, bool)> = Vec::new();
    push_children_rev(ctx, root, &mut stack);
    while let Some((op, expanded)) = stack.pop() {
        if expanded || ctx.regions(op).is_empty() {
            out.push(op);
        } else {
            stack.push((op, true));
            push_children_rev(ctx, op, &mut stack);
        }
    }
    out
}

fn push_children_rev(ctx: &Context, op: OpId, stack: &mut Vec<(OpId, bool)>) {
    for &r in ctx.regions(op).iter().rev() {
        for &b in ctx.region_blocks(r).iter().rev() {
            let mut cur = ctx.last_op(b);
            while let Some(o) = cur {
                stack.push((o, false));
                cur = ctx.prev_op(o);
            }
        }
    }
}

/// Nesting depth of the deepest op under `root` (root is depth 0).
pub fn max_depth(ctx: &Context, root: OpId) -> usize {
    let mut best = 0;
    let mut stack = vec![(root, 0usize)];
    while let Some((op, d)) = stack.pop() {
        best = best.max(d);
        for &r in ctx.regions(op) {
            for &b in ctx.region_blocks(r) {
                for o in ctx.block_ops(b) {
                    stack.push((o, d + 1));
                }
            }
        }
    }
    best
}
