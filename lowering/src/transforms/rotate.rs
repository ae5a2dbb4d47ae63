//! `loop-rotate`: loops tested at the top become loops tested at the bottom (LLVM's
//! `loop-rotate`, which NVRTC's pipeline runs before its loop passes).
//!
//! C's `while (c) body` and `for` reach the `nvvm` level with the test in the header: each
//! trip runs the test, a branch into the body, the body, and an unconditional branch back.
//! Rotated, the header's test runs once in front of the loop as a guard, and the latch
//! repeats it at the bottom, branching back while it holds: one branch a trip instead of
//! two (`@%p bra $L__BB0_3;` closing the loop, as in NVRTC's PTX). With a constant start
//! the guard folds away (`for (k = 0; k < 200; ...)`).
//!
//! Which loops: a natural loop whose header ends in a `cond_br` with one successor in the
//! loop (the body's entry, reached from the header only) and one outside, the header's test
//! the only way out, a single latch ending in an `nvvm.br` that is not `#pragma unroll 1`'s
//! (printed on that branch as `.pragma "nounroll"`; other hints go, the pass running after
//! `loop-unroll`), and a header of at most [`MAX_HEADER_OPS`] ops that cannot trap ([`super::licm::hoistable`]; they are
//! copied into the latch).
//!
//! The rewrite, with `H` the header, `B` the body's entry, `L` the latch and `E` the exit:
//! `H`'s ops are copied to the end of `L` (its arguments replaced by what `L` passed back)
//! and `L` ends in the copied test, to `B` or out. `B` becomes the header: every value `H`
//! defines that the loop uses becomes an argument of `B` (the guard passes the value, the
//! latch its copy). When code after the loop uses values `H` defines, both exits go to a
//! new block that takes them as arguments, and that code uses those.

use super::loops::Loop;
use cuprite_dialects::nvvm as nv;
use cuprite_ir::{clone::CloneMap, BlockId, Context, InsertPoint, OpId, ValueId};

/// Ops (besides its test) a header may hold to be copied into the latch.
pub const MAX_HEADER_OPS: usize = 8;

/// Rotates the loops of `nvvm.func` `f` ([the module](self)); returns how many.
pub fn rotate_loops(ctx: &mut Context, f: OpId) -> u64 {
    let mut n = 0;
    super::loops::each_loop_once(ctx, f, |ctx, l, _| {
        let rotated = rotate(ctx, l);
        n += u64::from(rotated);
        rotated
    });
    n
}

/// Whether the uses of `v` include one in a block for which `pred` holds.
fn used_where(ctx: &Context, v: ValueId, pred: impl Fn(BlockId) -> bool) -> bool {
    ctx.uses(v).any(|(owner, _)| ctx.op_block(owner).is_some_and(&pred))
}

/// Rotates loop `l` if it has the shape of [the module](self); returns whether it did.
fn rotate(ctx: &mut Context, l: &Loop) -> bool {
    let h = l.header;
    let [latch] = l.latches.as_slice() else { return false };
    let latch = *latch;
    if latch == h {
        return false;
    }
    let Some(back) = ctx.terminator(latch).filter(|&t| ctx.is_op(t, nv::BrOp::NAME)) else { return false };
    if nv::BrOp(back).unroll(ctx) == Some(1) {
        return false;
    }
    let Some(test) = ctx.terminator(h).filter(|&t| ctx.is_op(t, nv::CondBrOp::NAME)) else { return false };
    let stay = match (l.contains(ctx.successor(test, 0)), l.contains(ctx.successor(test, 1))) {
        (true, false) => 0,
        (false, true) => 1,
        _ => return false,
    };
    let body = ctx.successor(test, stay);
    if body == h || ctx.predecessors(body).count() != 1 {
        return false;
    }
    for &b in &l.blocks[1..] {
        let Some(t) = ctx.terminator(b) else { return false };
        if ctx.successors(t).any(|s| !l.contains(s)) {
            return false;
        }
    }
    let ops: Vec<OpId> = ctx.block_ops(h).filter(|&o| o != test).collect();
    if ops.len() > MAX_HEADER_OPS || !ops.iter().all(|&o| super::licm::hoistable(ctx, o)) {
        return false;
    }
    let Some(r) = ctx.block_region(h) else { return false };
    // What the header defines, and where it is used.
    let mut defined: Vec<ValueId> = ctx.block_args(h).to_vec();
    for &o in &ops {
        defined.extend(ctx.results(o).iter().copied());
    }
    let in_loop = |b: BlockId| b != h && l.contains(b);
    let outside = |b: BlockId| !l.contains(b);
    let for_loop: Vec<ValueId> = defined.iter().copied().filter(|&v| used_where(ctx, v, in_loop)).collect();
    let for_after: Vec<ValueId> = defined.iter().copied().filter(|&v| used_where(ctx, v, outside)).collect();

    // The body's entry becomes the header: arguments for what the loop uses of `H`.
    let mut body_args = Vec::with_capacity(for_loop.len());
    for &v in &for_loop {
        let ty = ctx.value_type(v);
        body_args.push(ctx.add_block_arg(body, ty));
    }
    for (&v, &a) in for_loop.iter().zip(&body_args) {
        ctx.replace_uses_with_if(v, a, |ctx, owner, _| ctx.op_block(owner).is_some_and(in_loop));
    }
    // The header's ops copied into the latch, its arguments what the latch passes back (the
    // body's new arguments where it passed what `H` defines).
    let mut map = CloneMap::default();
    for (&a, &v) in ctx.block_args(h).to_vec().iter().zip(&ctx.successor_args(back, 0)) {
        map.values.insert(a, v);
    }
    for &o in &ops {
        let c = cuprite_ir::clone::clone_op(ctx, o, &mut map);
        ctx.insert_op(c, InsertPoint { block: latch, before: Some(back) });
    }
    let m = |map: &CloneMap, v: ValueId| *map.values.get(&v).unwrap_or(&v);

    // The exit: a new block when code after the loop uses what `H` defines.
    let exit = ctx.successor(test, 1 - stay);
    let exit_args = ctx.successor_args(test, 1 - stay);
    let (out, guard_out, latch_out) = if for_after.is_empty() {
        (exit, exit_args.clone(), exit_args.iter().map(|&v| m(&map, v)).collect::<Vec<_>>())
    } else {
        let tys: Vec<_> = for_after.iter().chain(&exit_args).map(|&v| ctx.value_type(v)).collect();
        let x = ctx.create_block(&tys);
        let at = l.blocks.iter().filter_map(|&b| ctx.block_index(b)).max().map_or(0, |i| i + 1);
        ctx.insert_block(r, at, x);
        let xargs = ctx.block_args(x).to_vec();
        let loc = ctx.op_loc(test);
        let st = nv::BrOp::build(ctx, loc, &xargs[for_after.len()..], None, exit);
        let br = ctx.create_op(st);
        ctx.insert_op(br, InsertPoint::end(x));
        for (&v, &a) in for_after.iter().zip(&xargs) {
            ctx.replace_uses_with_if(v, a, |ctx, owner, _| ctx.op_block(owner).is_some_and(|b| b != x && outside(b)));
        }
        let guard: Vec<ValueId> = for_after.iter().chain(&exit_args).copied().collect();
        let from_latch: Vec<ValueId> = guard.iter().map(|&v| m(&map, v)).collect();
        (x, guard, from_latch)
    };
    let stay_args = ctx.successor_args(test, stay);
    let guard_in: Vec<ValueId> = stay_args.iter().chain(&for_loop).copied().collect();
    let latch_in: Vec<ValueId> = guard_in.iter().map(|&v| m(&map, v)).collect();
    let cond = ctx.operand(test, 0);
    let loc = ctx.op_loc(test);
    let branch = |ctx: &mut Context, c: ValueId, into: &[ValueId], leave: &[ValueId]| {
        if stay == 0 {
            nv::CondBrOp::build(ctx, loc, c, into, leave, body, out)
        } else {
            nv::CondBrOp::build(ctx, loc, c, leave, into, out, body)
        }
    };
    // The latch: the copied test.
    let st = branch(ctx, m(&map, cond), &latch_in, &latch_out);
    let nb = ctx.create_op(st);
    ctx.insert_op(nb, InsertPoint { block: latch, before: Some(back) });
    ctx.drop_operands(back);
    ctx.clear_successors(back);
    ctx.erase_op(back);
    // The header, now the guard.
    let st = branch(ctx, cond, &guard_in, &guard_out);
    let ng = ctx.create_op(st);
    ctx.insert_op(ng, InsertPoint { block: h, before: Some(test) });
    ctx.drop_operands(test);
    ctx.clear_successors(test);
    ctx.erase_op(test);
    true
}
