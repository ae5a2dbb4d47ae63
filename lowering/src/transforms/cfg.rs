//! CFG helpers for `nvvm` functions: reading and rewriting the arguments a branch passes
//! to its successors, and block-argument clean-up (the SSA form's counterpart of removing
//! trivial phis), used by mem2reg, sccp and inlining.

use cuprite_dialects::nvvm::{BrOp, CondBrOp};
use cuprite_ir::{BlockId, Context, InsertPoint, OpId, RegionId, ValueId};
use rustc_hash::{FxHashMap, FxHashSet};

/// Whether `term` is a branch whose successor arguments [`rebuild_branch`] can rewrite.
pub fn is_branch(ctx: &Context, term: OpId) -> bool {
    matches!(ctx.op_name_str(term), "nvvm.br" | "nvvm.cond_br")
}

/// Replaces branch `term` by the same branch passing `args[i]` to successor `i`; returns
/// the new op.
pub fn rebuild_branch(ctx: &mut Context, term: OpId, args: &[Vec<ValueId>]) -> OpId {
    let loc = ctx.op_loc(term);
    let st = if ctx.op_name_str(term) == "nvvm.br" {
        // The `#pragma unroll` hint of a back edge stays with it.
        let unroll = BrOp(term).unroll_attr(ctx);
        BrOp::build(ctx, loc, &args[0], unroll, ctx.successor(term, 0))
    } else {
        let (c, t, f) = (ctx.operand(term, 0), ctx.successor(term, 0), ctx.successor(term, 1));
        CondBrOp::build(ctx, loc, c, &args[0], &args[1], t, f)
    };
    replace_terminator(ctx, term, st)
}

/// Replaces branch `term` by an unconditional branch to its successor `i` with the same
/// arguments; returns the new op.
pub fn branch_to(ctx: &mut Context, term: OpId, i: usize) -> OpId {
    let (args, dest, loc) = (ctx.successor_args(term, i), ctx.successor(term, i), ctx.op_loc(term));
    let st = BrOp::build(ctx, loc, &args, None, dest);
    replace_terminator(ctx, term, st)
}

/// Inserts the op `st` describes before `term`, then erases `term`.
fn replace_terminator(ctx: &mut Context, term: OpId, st: cuprite_ir::OperationState) -> OpId {
    let block = ctx.op_block(term).expect("terminator in a block");
    let new = ctx.create_op(st);
    ctx.insert_op(new, InsertPoint { block, before: Some(term) });
    ctx.drop_operands(term);
    ctx.clear_successors(term);
    ctx.erase_op(term);
    new
}

/// Removes the arguments of non-entry blocks of `r` that are dead (used only to be passed
/// on to other dead arguments) or trivial (every predecessor passes the same value, or the
/// argument itself); returns how many went. Blocks reached by a terminator other than
/// `nvvm.br`/`nvvm.cond_br` keep their arguments.
pub fn simplify_block_args(ctx: &mut Context, r: RegionId) -> u64 {
    let mut removed = 0;
    loop {
        let blocks: Vec<BlockId> = ctx.region_blocks(r).iter().skip(1).copied().collect();
        let editable = |ctx: &Context, b: BlockId| ctx.predecessors(b).all(|(t, _)| is_branch(ctx, t));
        // Trivial arguments: replace by the one incoming value.
        let mut changed = false;
        for &b in &blocks {
            if ctx.block_args(b).is_empty() || !editable(ctx, b) {
                continue;
            }
            let preds: Vec<(OpId, usize)> = ctx.predecessors(b).map(|(t, s)| (t, s as usize)).collect();
            for (j, a) in ctx.block_args(b).to_vec().into_iter().enumerate() {
                let mut only = None;
                let mut trivial = true;
                for &(t, s) in &preds {
                    let v = ctx.successor_args(t, s)[j];
                    if v == a || only == Some(v) {
                        continue;
                    }
                    if only.is_some() {
                        trivial = false;
                        break;
                    }
                    only = Some(v);
                }
                if let (true, Some(v)) = (trivial, only) {
                    if ctx.has_uses(a) {
                        ctx.replace_all_uses_with(a, v);
                        changed = true;
                    }
                }
            }
        }
        // Live arguments: used by anything but a branch into a block argument, or passed
        // to a live argument.
        let mut live: FxHashSet<ValueId> = FxHashSet::default();
        let mut work: Vec<ValueId> = Vec::new();
        let mut arg_pos: FxHashMap<ValueId, (BlockId, usize)> = FxHashMap::default();
        for &b in &blocks {
            if !editable(ctx, b) {
                continue;
            }
            for (j, &a) in ctx.block_args(b).iter().enumerate() {
                arg_pos.insert(a, (b, j));
            }
        }
        for (&a, _) in arg_pos.iter() {
            let real_use = ctx.uses(a).any(|(user, k)| !(is_branch(ctx, user) && forwards_to_arg(ctx, user, k as usize)));
            if real_use {
                live.insert(a);
                work.push(a);
            }
        }
        while let Some(a) = work.pop() {
            let (b, j) = arg_pos[&a];
            let incoming: Vec<ValueId> = ctx.predecessors(b).map(|(t, s)| ctx.successor_args(t, s as usize)[j]).collect();
            for v in incoming {
                if arg_pos.contains_key(&v) && live.insert(v) {
                    work.push(v);
                }
            }
        }
        let dead: FxHashSet<ValueId> = arg_pos.keys().copied().filter(|a| !live.contains(a)).collect();
        if dead.is_empty() {
            if !changed {
                return removed;
            }
            continue;
        }
        // Drop the dead arguments from every branch, then from the blocks.
        for &b in ctx.region_blocks(r).to_vec().iter() {
            let Some(t) = ctx.last_op(b) else { continue };
            if !is_branch(ctx, t) {
                continue;
            }
            let n = ctx.num_successors(t);
            let mut any = false;
            let args: Vec<Vec<ValueId>> = (0..n)
                .map(|s| {
                    let succ = ctx.successor(t, s);
                    let params = ctx.block_args(succ);
                    ctx.successor_args(t, s)
                        .into_iter()
                        .zip(params)
                        .filter(|(_, p)| {
                            let d = dead.contains(p);
                            any |= d;
                            !d
                        })
                        .map(|(v, _)| v)
                        .collect()
                })
                .collect();
            if any {
                rebuild_branch(ctx, t, &args);
            }
        }
        for &b in &blocks {
            for j in (0..ctx.block_args(b).len()).rev() {
                if dead.contains(&ctx.block_args(b)[j]) {
                    ctx.erase_block_arg(b, j);
                    removed += 1;
                }
            }
        }
    }
}

/// Whether operand `k` of branch `t` is one it passes to a successor's argument.
fn forwards_to_arg(ctx: &Context, t: OpId, k: usize) -> bool {
    match ctx.op_info(t).and_then(|info| info.successor_operands) {
        Some(f) => (0..ctx.num_successors(t)).any(|s| f(ctx, t, s).contains(&k)),
        None => false,
    }
}

/// Makes branches into blocks that hold nothing but an `nvvm.br` (and take no arguments)
/// go straight to that branch's destination; returns how many edges moved. The emptied
/// blocks become unreachable, for dce.
pub fn forward_empty_blocks(ctx: &mut Context, r: RegionId) -> u64 {
    let mut moved = 0;
    for b in ctx.region_blocks(r).iter().skip(1).copied().collect::<Vec<_>>() {
        if !ctx.block_is_live(b) || !ctx.block_args(b).is_empty() {
            continue;
        }
        let Some(br) = ctx.first_op(b) else { continue };
        if ctx.op_name_str(br) != "nvvm.br" || ctx.last_op(b) != Some(br) {
            continue;
        }
        let dest = ctx.successor(br, 0);
        if dest == b {
            continue;
        }
        let fwd = ctx.successor_args(br, 0);
        let preds: Vec<(OpId, usize)> = ctx.predecessors(b).map(|(t, s)| (t, s as usize)).collect();
        for (t, s) in preds {
            if !ctx.op_is_live(t) || !is_branch(ctx, t) || ctx.successor(t, s) != b {
                continue;
            }
            let n = ctx.num_successors(t);
            let args: Vec<Vec<ValueId>> = (0..n).map(|k| if k == s { fwd.clone() } else { ctx.successor_args(t, k) }).collect();
            let new = rebuild_branch(ctx, t, &args);
            ctx.set_successor(new, s, dest);
            moved += 1;
        }
    }
    moved
}
