//! Strength reduction of integer division and remainder by a power of two, as
//! canonicalizations of the `nvvm` ops (what LLVM's InstCombine and cicc do before
//! instruction selection: `div.s32` and `rem.u32` are dozens of SASS instructions, a shift
//! or a mask is one):
//!
//! | op | becomes |
//! |---|---|
//! | `udiv x, 2^k` | `lshr x, k` |
//! | `urem x, 2^k` | `and x, 2^k - 1` |
//! | `sdiv x, 2^k` | `ashr (x + bias), k` with `bias = lshr (ashr x, w-1), w-k` (`lshr x, w-1` when `k = 1`): rounding toward zero for negative `x` |
//! | `srem x, 2^k` | `x - ((x + bias) & -2^k)` |
//!
//! Division by other constants (`mul.hi` with a magic number) waits for the rule engine.

use crate::arith::{int_value, unsigned};
use cuprite_ir::{
    rewrite::{constant_value, Rewriter},
    Context, LocId, OpId, OperationState, TypeId, ValueId,
};

/// `k` when operand 1 of `op` is the constant `2^k` with `1 <= k < width - 1` (for a
/// signed op, `2^(width-1)` is negative), and the width.
fn power_of_two(ctx: &Context, op: OpId) -> Option<(u32, u32)> {
    let w = crate::arith::int_info(ctx, ctx.value_type(ctx.result(op, 0)))?.0;
    if !(2..=64).contains(&w) {
        return None;
    }
    let c = unsigned(constant_value(ctx, ctx.operand(op, 1)).and_then(|a| int_value(ctx, a))?, w);
    (c.is_power_of_two() && c > 1).then(|| (c.trailing_zeros(), w)).filter(|&(k, w)| k < w - 1)
}

/// An integer binary op's builder.
type Build = fn(&mut Context, LocId, TypeId, ValueId, ValueId) -> OperationState;

fn add(ctx: &mut Context, loc: LocId, t: TypeId, a: ValueId, b: ValueId) -> OperationState {
    super::AddOp::build(ctx, loc, t, a, b, None)
}

fn sub(ctx: &mut Context, loc: LocId, t: TypeId, a: ValueId, b: ValueId) -> OperationState {
    super::SubOp::build(ctx, loc, t, a, b, None)
}

/// Creates the op `build` makes of `a` and `b` before the rewriter's insertion point.
fn bin(rw: &mut Rewriter<'_>, build: Build, a: ValueId, b: ValueId, loc: LocId) -> ValueId {
    let ty = rw.ctx.value_type(a);
    let st = build(rw.ctx, loc, ty, a, b);
    let op = rw.create(st);
    rw.ctx.result(op, 0)
}

/// The constant `v` of `x`'s type, before the insertion point.
fn konst(rw: &mut Rewriter<'_>, x: ValueId, v: i128, loc: LocId) -> ValueId {
    let ty = rw.ctx.value_type(x);
    let a = rw.ctx.int_attr(v, ty);
    let st = super::ConstantOp::build(rw.ctx, loc, ty, a);
    let op = rw.create(st);
    rw.ctx.result(op, 0)
}

fn unsigned_div(op: OpId, rw: &mut Rewriter<'_>) -> bool {
    let Some((k, _)) = power_of_two(rw.ctx, op) else { return false };
    let (x, loc) = (rw.ctx.operand(op, 0), rw.ctx.op_loc(op));
    rw.set_insertion_point_before(op);
    let s = konst(rw, x, k as i128, loc);
    let r = bin(rw, super::LshrOp::build, x, s, loc);
    rw.replace_op(op, &[r]);
    true
}

fn unsigned_rem(op: OpId, rw: &mut Rewriter<'_>) -> bool {
    let Some((k, _)) = power_of_two(rw.ctx, op) else { return false };
    let (x, loc) = (rw.ctx.operand(op, 0), rw.ctx.op_loc(op));
    rw.set_insertion_point_before(op);
    let m = konst(rw, x, (1i128 << k) - 1, loc);
    let r = bin(rw, super::AndOp::build, x, m, loc);
    rw.replace_op(op, &[r]);
    true
}

/// `x + bias`: `x` rounded toward zero's multiple of `2^k` away from minus infinity.
fn biased(rw: &mut Rewriter<'_>, x: ValueId, k: u32, w: u32, loc: LocId) -> ValueId {
    let top = konst(rw, x, (w - 1) as i128, loc);
    let bias = if k == 1 {
        bin(rw, super::LshrOp::build, x, top, loc)
    } else {
        let sign = bin(rw, super::AshrOp::build, x, top, loc);
        let s = konst(rw, x, (w - k) as i128, loc);
        bin(rw, super::LshrOp::build, sign, s, loc)
    };
    bin(rw, add, x, bias, loc)
}

fn signed_div(op: OpId, rw: &mut Rewriter<'_>) -> bool {
    let Some((k, w)) = power_of_two(rw.ctx, op) else { return false };
    let (x, loc) = (rw.ctx.operand(op, 0), rw.ctx.op_loc(op));
    rw.set_insertion_point_before(op);
    let t = biased(rw, x, k, w, loc);
    let s = konst(rw, x, k as i128, loc);
    let r = bin(rw, super::AshrOp::build, t, s, loc);
    rw.replace_op(op, &[r]);
    true
}

fn signed_rem(op: OpId, rw: &mut Rewriter<'_>) -> bool {
    let Some((k, w)) = power_of_two(rw.ctx, op) else { return false };
    let (x, loc) = (rw.ctx.operand(op, 0), rw.ctx.op_loc(op));
    rw.set_insertion_point_before(op);
    let t = biased(rw, x, k, w, loc);
    let m = konst(rw, x, -(1i128 << k), loc);
    let q = bin(rw, super::AndOp::build, t, m, loc);
    let r = bin(rw, sub, x, q, loc);
    rw.replace_op(op, &[r]);
    true
}

pub(super) fn canonicalize_udiv(set: &mut cuprite_ir::rewrite::PatternSet) {
    set.add_fn("nvvm.udiv-pow2-to-lshr", super::UdivOp::NAME, 1, unsigned_div);
}
pub(super) fn canonicalize_urem(set: &mut cuprite_ir::rewrite::PatternSet) {
    set.add_fn("nvvm.urem-pow2-to-and", super::UremOp::NAME, 1, unsigned_rem);
}
pub(super) fn canonicalize_sdiv(set: &mut cuprite_ir::rewrite::PatternSet) {
    set.add_fn("nvvm.sdiv-pow2-to-shifts", super::SdivOp::NAME, 1, signed_div);
}
pub(super) fn canonicalize_srem(set: &mut cuprite_ir::rewrite::PatternSet) {
    set.add_fn("nvvm.srem-pow2-to-mask", super::SremOp::NAME, 1, signed_rem);
}
