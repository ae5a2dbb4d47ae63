//! The `cf` dialect: unstructured control flow, `cf.br` and `cf.cond_br`, with the branch
//! interface (which operands go to which successor) the verifier and passes use.

use cuprite_ir::{rewrite::PatternSet, AttrKind, Context, DialectInfo, OpId, OpInfo, Registry, Traits};
use std::ops::Range;

/// Registers the dialect.
pub fn register(reg: &mut Registry) {
    reg.register(
        DialectInfo { name: "cf", materialize_constant: None },
        vec![
            OpInfo {
                summary: "Unconditional branch; the operands become the successor's arguments",
                traits: Traits::TERMINATOR | Traits::PURE,
                verify: Some(|ctx, op| if ctx.num_successors(op) == 1 { Ok(()) } else { Err("expects one successor".into()) }),
                successor_operands: Some(|ctx, op, _| 0..ctx.num_operands(op)),
                ..OpInfo::new("cf.br")
            },
            OpInfo {
                summary: "Conditional branch on an i1",
                traits: Traits::TERMINATOR | Traits::PURE,
                verify: Some(verify_cond_br),
                successor_operands: Some(cond_br_operands),
                canonicalize: Some(cond_br_patterns),
                ..OpInfo::new("cf.cond_br")
            },
        ],
    );
}

/// `operandSegmentSizes = array<i32: 1, T, F>`: (condition, true operands, false operands).
fn segments(ctx: &Context, op: OpId) -> Option<(usize, usize, usize)> {
    match ctx.attr_kind(ctx.get_attr(op, "operandSegmentSizes")?) {
        AttrKind::DenseArray { values, .. } if values.len() == 3 && values.iter().all(|&v| v >= 0) => {
            Some((values[0] as usize, values[1] as usize, values[2] as usize))
        }
        _ => None,
    }
}

fn cond_br_operands(ctx: &Context, op: OpId, succ: usize) -> Range<usize> {
    let (c, t, f) = segments(ctx, op).unwrap_or((1, 0, 0));
    if succ == 0 {
        c..c + t
    } else {
        c + t..c + t + f
    }
}

fn verify_cond_br(ctx: &Context, op: OpId) -> Result<(), String> {
    if ctx.num_successors(op) != 2 {
        return Err("expects two successors".into());
    }
    let (c, t, f) = segments(ctx, op).ok_or("requires 'operandSegmentSizes' = array<i32: 1, N, M>")?;
    if c != 1 || c + t + f != ctx.num_operands(op) {
        return Err(format!("operandSegmentSizes ({c}, {t}, {f}) do not match the {} operands", ctx.num_operands(op)));
    }
    if ctx.int_width(ctx.value_type(ctx.operand(op, 0))) != Some(1) {
        return Err("condition must be i1".into());
    }
    Ok(())
}

/// `cf.cond_br` on a constant condition becomes `cf.br`.
fn cond_br_patterns(set: &mut PatternSet) {
    set.add_fn("cf.cond_br-constant-condition", "cf.cond_br", 1, |op, rw| {
        let ctx = &*rw.ctx;
        let Some(cond) = cuprite_ir::rewrite::constant_value(ctx, ctx.operand(op, 0)).and_then(|a| crate::arith::int_value(ctx, a)) else {
            return false;
        };
        let which = if cond != 0 { 0 } else { 1 };
        let range = cond_br_operands(ctx, op, which);
        let dest = ctx.successor(op, which);
        let args: Vec<_> = range.map(|i| ctx.operand(op, i)).collect();
        let loc = ctx.op_loc(op);
        let mut st = cuprite_ir::OperationState::new(rw.ctx, "cf.br", loc);
        st.operands = args;
        st.successors.push(dest);
        rw.set_insertion_point_before(op);
        rw.create(st);
        rw.erase_op(op);
        true
    });
}
