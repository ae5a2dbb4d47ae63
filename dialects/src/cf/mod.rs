//! The `cf` dialect: unstructured control flow, `cf.br`, `cf.cond_br` and `cf.assert`.
//! Declared in `ops.td`; this module holds the hand-written canonicalizations.

use cuprite_ir::{ods::operand_range, rewrite::PatternSet};

/// Generated from `ops.td`.
#[allow(clippy::all, dead_code)]
pub mod ops {
    include!(concat!(env!("OUT_DIR"), "/cf.rs"));
}
pub use ops::{register, AssertOp, BranchOp, CondBranchOp};

/// `cf.cond_br` on a constant condition becomes `cf.br`.
fn canonicalize_cond_br(set: &mut PatternSet) {
    set.add_fn("cf.cond_br-constant-condition", CondBranchOp::NAME, 1, |op, rw| {
        let ctx = &*rw.ctx;
        let br = CondBranchOp(op);
        let Some(cond) = cuprite_ir::rewrite::constant_value(ctx, br.condition(ctx)).and_then(|a| crate::arith::int_value(ctx, a)) else {
            return false;
        };
        let which = if cond != 0 { 0 } else { 1 };
        let args: Vec<_> = operand_range(&ops::COND_BR_SPEC, ctx, op, which + 1).map(|i| ctx.operand(op, i)).collect();
        let dest = ctx.successor(op, which);
        let loc = ctx.op_loc(op);
        let st = BranchOp::build(rw.ctx, loc, &args, dest);
        rw.set_insertion_point_before(op);
        rw.create(st);
        rw.erase_op(op);
        true
    });
}

/// `cf.assert` of a constant true condition is erased.
fn canonicalize_assert(set: &mut PatternSet) {
    set.add_fn("cf.assert-true", AssertOp::NAME, 1, |op, rw| {
        let ctx = &*rw.ctx;
        let holds = cuprite_ir::rewrite::constant_value(ctx, AssertOp(op).arg(ctx)).and_then(|a| crate::arith::int_value(ctx, a));
        if holds.is_some_and(|v| v != 0) {
            rw.erase_op(op);
            return true;
        }
        false
    });
}
