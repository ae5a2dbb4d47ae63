//! `select-form`: branches that only choose a value become `nvvm.select`s (LLVM's
//! SimplifyCFG folding of two-entry phis and speculation of small blocks; what makes
//! NVRTC's `max_int` a chain of `max.s32`).
//!
//! C's `v = a > b ? a : b` and `if (c) v = x; else v = y;` reach the `nvvm` level as a
//! `cond_br` whose two edges meet again at a block taking the chosen value as an argument.
//! On a GPU such a branch is worse than on a CPU: when the condition diverges inside a warp,
//! both sides run one after the other anyway, plus the branch and reconvergence. The pass,
//! per `cond_br` in block `B`:
//!
//! 1. **Speculation.** An arm `X` of the branch that only `B` reaches, holds at most
//!    [`ARM_LIMIT`] cheap, side-effect-free ops besides constants ([`speculatable`], and
//!    division by a constant other than 0 and -1: integer and float
//!    arithmetic without division, comparisons, casts, address arithmetic, `min`/`max`/`abs`)
//!    and ends in `br J(...)` has its ops moved into `B`, and `B` branches to `J` directly.
//!    This happens only when it makes both edges reach the same block: the other arm goes
//!    to `J` directly (a triangle, `if` without `else`) or is such an arm too (a diamond).
//! 2. **Selection.** A `cond_br c, J(a...), J(b...)` (both edges to one block, what step 1
//!    and `sccp`'s forwarding of empty blocks leave) becomes `br J(select(c, a, b)...)`, one
//!    select per argument that differs, at most [`SELECT_LIMIT`].
//!
//! The `nvvm.select` canonicalization then turns `select(a > b, a, b)` into `smax(a, b)`
//! (and `min`, unsigned, either arm order; not floats, where `max` differs on NaN).

use cuprite_dialects::nvvm as nv;
use cuprite_ir::{BlockId, Context, InsertPoint, OpId, ValueId};

/// Ops an arm may hold to be speculated (besides its branch and constants): LLVM's
/// `two-entry-phi-node-folding-threshold` (4 cost units), counting every other op as one.
pub const ARM_LIMIT: usize = 4;
/// Selects one branch may become at most: each is an instruction that runs on every
/// path, where the branch ran only one side's.
pub const SELECT_LIMIT: usize = 4;

/// What the pass did in one function.
#[derive(Default, Debug)]
pub struct Stats {
    /// Arms whose ops moved into the block before them.
    pub speculated: u64,
    /// Branches that became selects.
    pub branches: u64,
    /// Selects made.
    pub selects: u64,
}

/// Whether `op` may run on a path where the source did not run it: no effects, no trap,
/// no poison a select would not discard, and about as cheap as the select it saves.
pub fn speculatable(ctx: &Context, op: OpId) -> bool {
    match ctx.op_name_str(op) {
        nv::ConstantOp::NAME
        | nv::AddOp::NAME
        | nv::SubOp::NAME
        | nv::MulOp::NAME
        | nv::ShlOp::NAME
        | nv::LshrOp::NAME
        | nv::AshrOp::NAME
        | nv::AndOp::NAME
        | nv::OrOp::NAME
        | nv::XorOp::NAME
        | nv::ICmpOp::NAME
        | nv::FCmpOp::NAME
        | nv::SelectOp::NAME
        | nv::TruncOp::NAME
        | nv::ZextOp::NAME
        | nv::SextOp::NAME
        | nv::BitcastOp::NAME
        | nv::FaddOp::NAME
        | nv::FsubOp::NAME
        | nv::FmulOp::NAME
        | nv::FNegOp::NAME
        | nv::PtrAddOp::NAME => true,
        nv::IntrOp::NAME => {
            matches!(nv::IntrOp(op).name(ctx).unwrap_or_default(), "min" | "max" | "smin" | "smax" | "umin" | "umax" | "abs")
        }
        _ => false,
    }
}

/// If `x` (a successor of `b`'s `cond_br`) is an arm step 1 can speculate: the block it
/// branches to, and the values it passes there with `x`'s own arguments replaced by what
/// `b` passes for them (`args`).
fn arm(ctx: &Context, b: BlockId, x: BlockId, args: &[ValueId]) -> Option<(BlockId, Vec<ValueId>)> {
    if x == b || ctx.predecessors(x).count() != 1 {
        return None;
    }
    let term = ctx.terminator(x).filter(|&t| ctx.is_op(t, nv::BrOp::NAME))?;
    let dest = ctx.successor(term, 0);
    if dest == x || dest == b {
        return None;
    }
    let ops: Vec<OpId> = ctx.block_ops(x).filter(|&o| o != term).collect();
    // Constants cost nothing (immediates, or one register for all their uses).
    let cost = ops.iter().filter(|&&o| !ctx.is_op(o, nv::ConstantOp::NAME)).count();
    if cost > ARM_LIMIT || !ops.iter().all(|&o| speculatable(ctx, o) || super::licm::divides_by_constant(ctx, o)) {
        return None;
    }
    let xargs = ctx.block_args(x);
    let passed = ctx
        .successor_args(term, 0)
        .into_iter()
        .map(|v| match xargs.iter().position(|&a| a == v) {
            Some(i) => args[i],
            None => v,
        })
        .collect();
    Some((dest, passed))
}

/// Runs the pass on `nvvm.func` `f`: rounds over its blocks until one changes nothing (an
/// inner `?:` becomes a select in one round; merging straight-line blocks then makes its
/// block an arm the enclosing `?:` can speculate in the next; every change removes a
/// `cond_br`, so this ends).
pub fn select_form(ctx: &mut Context, f: OpId) -> Stats {
    let mut stats = Stats::default();
    let Some(&r) = ctx.regions(f).first() else { return stats };
    loop {
        let before = stats.branches;
        round(ctx, r, &mut stats);
        if stats.branches == before {
            return stats;
        }
        cuprite_ir::rewrite::region_simplify::simplify_regions(ctx, f);
    }
}

/// One round of [`select_form`] over the blocks of region `r`.
fn round(ctx: &mut Context, r: cuprite_ir::RegionId, stats: &mut Stats) {
    for b in ctx.region_blocks(r).to_vec() {
        if !ctx.block_is_live(b) {
            continue;
        }
        let Some(t) = ctx.terminator(b).filter(|&t| ctx.is_op(t, nv::CondBrOp::NAME)) else { continue };
        let succ = [ctx.successor(t, 0), ctx.successor(t, 1)];
        let args = [ctx.successor_args(t, 0), ctx.successor_args(t, 1)];
        // Where each edge would end after speculation: (block, args, arm speculated).
        let mut ends: Vec<(BlockId, Vec<ValueId>, Option<BlockId>)> = Vec::new();
        for i in 0..2 {
            ends.push((succ[i], args[i].clone(), None));
        }
        if succ[0] != succ[1] {
            let arms = [arm(ctx, b, succ[0], &args[0]), arm(ctx, b, succ[1], &args[1])];
            let pick = match (&arms[0], &arms[1]) {
                (Some((d0, _)), Some((d1, _))) if d0 == d1 => [true, true],
                (Some((d0, _)), _) if *d0 == succ[1] => [true, false],
                (_, Some((d1, _))) if *d1 == succ[0] => [false, true],
                _ => continue,
            };
            for i in 0..2 {
                if let (true, Some((d, a))) = (pick[i], &arms[i]) {
                    ends[i] = (*d, a.clone(), Some(succ[i]));
                }
            }
        }
        let differ = ends[0].1.iter().zip(&ends[1].1).filter(|(x, y)| x != y).count();
        if differ > SELECT_LIMIT {
            continue;
        }
        // Speculate: the arms' ops move before the branch, their arguments become what `b`
        // passed.
        for (i, (_, _, x)) in ends.iter().enumerate() {
            let Some(x) = *x else { continue };
            for (&a, &v) in ctx.block_args(x).to_vec().iter().zip(&args[i]) {
                ctx.replace_all_uses_with(a, v);
            }
            let term = ctx.terminator(x).expect("an arm ends in its branch");
            for o in ctx.block_ops(x).filter(|&o| o != term).collect::<Vec<_>>() {
                // `nsw` stays (as on ops `licm` hoists): its one reader, `loop-reduce`,
                // rewrites an address to the same value wherever the source computed it
                // without overflow, and a speculated arm's value only matters where the
                // source ran it.
                ctx.move_op(o, InsertPoint { block: b, before: Some(t) });
            }
            stats.speculated += 1;
        }
        // Select: one branch to the join.
        let c = ctx.operand(t, 0);
        let loc = ctx.op_loc(t);
        let mut chosen = Vec::with_capacity(ends[0].1.len());
        for (&x, &y) in ends[0].1.iter().zip(&ends[1].1) {
            if x == y {
                chosen.push(x);
                continue;
            }
            let st = nv::SelectOp::build(ctx, loc, ctx.value_type(x), c, x, y);
            let s = ctx.create_op(st);
            ctx.insert_op(s, InsertPoint { block: b, before: Some(t) });
            chosen.push(ctx.result(s, 0));
            stats.selects += 1;
        }
        let st = nv::BrOp::build(ctx, loc, &chosen, None, ends[0].0);
        let br = ctx.create_op(st);
        ctx.insert_op(br, InsertPoint { block: b, before: Some(t) });
        ctx.drop_operands(t);
        ctx.clear_successors(t);
        ctx.erase_op(t);
        for (_, _, x) in &ends {
            if let Some(x) = *x {
                let term = ctx.terminator(x).expect("an arm ends in its branch");
                ctx.drop_operands(term);
                ctx.clear_successors(term);
                ctx.erase_op(term);
                ctx.erase_block(x);
            }
        }
        stats.branches += 1;
    }
}
