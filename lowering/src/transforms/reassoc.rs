//! `reassociate`: exposes loop invariants to `licm`, as LLVM's InstCombine (demanded bits)
//! and Reassociate do before LICM in NVRTC's pipeline.
//!
//! 1. **Known low bits.** `and(x, 2^m - 1)` reads only the low `m` bits of `x` and of the
//!    operands of the `add`/`sub`/`mul`/`and`/`or`/`xor` that makes it; an operand whose low
//!    bits are known (a constant, or an induction variable that starts and steps by
//!    multiples of `2^m`, plus a constant) becomes that constant
//!    ([`cuprite_dialects::nvvm::fold::known_low_bits_of_and`], also a `canonicalize`
//!    pattern). Unrolled by 8, `h += (a ^ k) & 7` reads `(a ^ j) & 7` in copy `j`: invariant.
//! 2. **Invariant addends first.** A tree of integer `add`s in a loop (the inner ones used
//!    once, in the same block, of one type) whose leaves include two or more loop
//!    invariants (defined outside the loop, or by ops `licm` hoists from invariants) is rebuilt as the sum of the loop-varying leaves plus the sum of the
//!    invariant ones, which `licm` then hoists: `((h + c0) + c1) + c2` becomes
//!    `h + ((c0 + c1) + c2)`, one add a trip. Integer addition wraps, so any order gives the
//!    same bits; the rebuilt adds drop `nsw` (a partial sum may overflow where the source's
//!    did not).
//!
//! Not touched: trees whose invariant leaves are all constants (`canonicalize` folds those
//! and keeps `nsw`), float additions (reassociating them changes results), trees with fewer
//! than two invariant leaves or no varying one (`licm` hoists a whole invariant tree), adds
//! whose intermediate values are used elsewhere.

use super::loops::{find_loops, Loop};
use cuprite_dialects::nvvm as nv;
use cuprite_ir::{
    rewrite::{NoListener, Rewriter},
    BlockId, Context, InsertPoint, OpId, ValueId,
};
use rustc_hash::FxHashSet;

/// What the pass did in one function.
#[derive(Default, Debug)]
pub struct Stats {
    /// `and`s simplified by known low bits.
    pub known_bits: u64,
    /// Add trees rebuilt with their invariant leaves summed apart.
    pub trees: u64,
    /// Invariant leaves so grouped.
    pub invariant_leaves: u64,
}

/// Runs both steps on `nvvm.func` `f`.
pub fn reassociate(ctx: &mut Context, f: OpId) -> Stats {
    let mut stats = Stats::default();
    let Some(&r) = ctx.regions(f).first() else { return stats };
    // Unrolled copies are still a chain of blocks: merged, an add tree is in one block.
    cuprite_ir::rewrite::region_simplify::simplify_regions(ctx, f);
    // 1. Known low bits, to a fixed point (a rewrite can expose another `and`'s operand).
    loop {
        let ands: Vec<OpId> = ctx
            .region_blocks(r)
            .iter()
            .flat_map(|&b| ctx.block_ops(b).collect::<Vec<_>>())
            .filter(|&o| ctx.is_op(o, nv::AndOp::NAME))
            .collect();
        let mut changed = 0;
        for op in ands {
            if !ctx.op_is_live(op) {
                continue;
            }
            let mut l = NoListener;
            let mut rw = Rewriter::new(ctx, &mut l);
            if nv::fold::known_low_bits_of_and(op, &mut rw) {
                changed += 1;
            }
        }
        stats.known_bits += changed;
        if changed == 0 || stats.known_bits > 10_000 {
            break;
        }
    }
    // 2. Invariant addends first, each block for the innermost loop holding it.
    let loops = find_loops(ctx, f);
    for b in ctx.region_blocks(r).to_vec() {
        let Some(l) = loops.iter().filter(|l| l.contains(b)).min_by_key(|l| l.blocks.len()) else { continue };
        let roots: Vec<OpId> = ctx.block_ops(b).filter(|&o| is_int_add(ctx, o) && !is_inner(ctx, o)).collect();
        for root in roots {
            if let Some(n) = rebuild(ctx, l, root) {
                stats.trees += 1;
                stats.invariant_leaves += n;
            }
        }
    }
    stats
}

fn is_int_add(ctx: &Context, op: OpId) -> bool {
    ctx.is_op(op, nv::AddOp::NAME) && ctx.num_results(op) == 1
}

/// Whether `op` is an inner node of a tree: its one use is an `add` of its block and type.
fn is_inner(ctx: &Context, op: OpId) -> bool {
    let v = ctx.result(op, 0);
    if !ctx.has_one_use(v) {
        return false;
    }
    let Some((user, _)) = ctx.uses(v).next() else { return false };
    is_int_add(ctx, user) && ctx.op_block(user) == ctx.op_block(op) && ctx.value_type(ctx.result(user, 0)) == ctx.value_type(v)
}

/// The leaves of the add tree rooted at `op`, and its inner ops (root included).
fn leaves(ctx: &Context, op: OpId, out: &mut Vec<ValueId>, inner: &mut Vec<OpId>) {
    inner.push(op);
    for i in 0..2 {
        let x = ctx.operand(op, i);
        match ctx.defining_op(x) {
            Some(d) if is_int_add(ctx, d) && is_inner(ctx, d) && out.len() + inner.len() < 64 => leaves(ctx, d, out, inner),
            _ => out.push(x),
        }
    }
}

/// Whether `v` is the same on every trip of the loop of `in_loop`: defined outside it, or
/// by an op `licm` may hoist whose operands are (`depth` levels at most).
fn invariant(ctx: &Context, in_loop: &FxHashSet<BlockId>, v: ValueId, depth: u32) -> bool {
    if ctx.value_block(v).is_some_and(|b| !in_loop.contains(&b)) {
        return true;
    }
    let Some(d) = ctx.defining_op(v) else { return false };
    depth > 0 && super::licm::hoistable(ctx, d) && ctx.operand_vec(d).iter().all(|&x| invariant(ctx, in_loop, x, depth - 1))
}

/// Rebuilds the tree at `root` with its invariant leaves summed apart; the number of them.
fn rebuild(ctx: &mut Context, l: &Loop, root: OpId) -> Option<u64> {
    let mut all = Vec::new();
    let mut inner = Vec::new();
    leaves(ctx, root, &mut all, &mut inner);
    let in_loop: FxHashSet<BlockId> = l.blocks.iter().copied().collect();
    let (inv, var): (Vec<ValueId>, Vec<ValueId>) = all.iter().partition(|v| invariant(ctx, &in_loop, **v, 8));
    // Constants alone are canonicalize's (`add-reassociate-constants` keeps `nsw`, which
    // `iv-demote` and `loop-reduce` read on counters).
    let constant = |v: &ValueId| ctx.defining_op(*v).is_some_and(|d| ctx.is_op(d, nv::ConstantOp::NAME));
    if inv.len() < 2 || var.is_empty() || inv.iter().all(constant) {
        return None;
    }
    let ty = ctx.value_type(ctx.result(root, 0));
    let loc = ctx.op_loc(root);
    let ip = InsertPoint { block: ctx.op_block(root)?, before: Some(root) };
    let add = |ctx: &mut Context, a: ValueId, b: ValueId| -> ValueId {
        let st = nv::AddOp::build(ctx, loc, ty, a, b, None);
        let o = ctx.create_op(st);
        ctx.insert_op(o, ip);
        ctx.result(o, 0)
    };
    let s = inv[1..].iter().fold(inv[0], |acc, &x| add(ctx, acc, x));
    let v = var[1..].iter().fold(var[0], |acc, &x| add(ctx, acc, x));
    let total = add(ctx, v, s);
    ctx.replace_all_uses_with(ctx.result(root, 0), total);
    // The old tree, uses first.
    for op in inner {
        ctx.erase_op(op);
    }
    Some(inv.len() as u64)
}
