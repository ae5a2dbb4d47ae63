//! Constant evaluation, folders and canonicalizations of the `nvvm` dialect.
//!
//! [`eval`] computes the constant result of an op from constant operands without touching
//! the IR: the folders below use it, and so does the sparse conditional constant
//! propagation in `lowering`. Integer semantics are LLVM's (wrapping, two's complement);
//! division by zero, signed `MIN / -1` and over-wide shifts are poison and never folded.

use crate::arith::{eval_cmpi, eval_int_binary, int_info, int_value, signed, unsigned};
use cuprite_ir::{
    ods::operand_range,
    rewrite::{constant_value, PatternSet},
    AttrId, AttrKind, Context, FloatKind, FoldOutcome, FoldResult, LocId, OpId, Traits, TypeId, TypeKind, ValueId,
};

/// The `arith` name with the same integer semantics as nvvm binary op `name`.
fn arith_name(name: &str) -> Option<&'static str> {
    Some(match name {
        "nvvm.add" => "arith.addi",
        "nvvm.sub" => "arith.subi",
        "nvvm.mul" => "arith.muli",
        "nvvm.sdiv" => "arith.divsi",
        "nvvm.udiv" => "arith.divui",
        "nvvm.srem" => "arith.remsi",
        "nvvm.urem" => "arith.remui",
        "nvvm.shl" => "arith.shli",
        "nvvm.lshr" => "arith.shrui",
        "nvvm.ashr" => "arith.shrsi",
        "nvvm.and" => "arith.andi",
        "nvvm.or" => "arith.ori",
        "nvvm.xor" => "arith.xori",
        _ => return None,
    })
}

fn static_name(ctx: &Context, op: OpId) -> &'static str {
    ctx.op_info(op).map_or("", |i| i.name)
}

fn width_of(ctx: &Context, t: TypeId) -> Option<u32> {
    int_info(ctx, t).map(|i| i.0)
}

/// The constant result of `op` given constant operands `consts` (one entry per operand,
/// `None` where unknown), or `None` if it is not a constant.
pub fn eval(ctx: &mut Context, op: OpId, consts: &[Option<AttrId>]) -> Option<AttrId> {
    let name = static_name(ctx, op);
    if ctx.num_results(op) != 1 {
        return None;
    }
    let ty = ctx.value_type(ctx.result(op, 0));
    let c = |i: usize| consts.get(i).copied().flatten().and_then(|a| int_value(ctx, a));
    if name == "nvvm.constant" {
        return ctx.get_attr(op, "value");
    }
    if let Some(an) = arith_name(name) {
        let w = width_of(ctx, ty)?;
        let r = eval_int_binary(an, c(0)?, c(1)?, w)?;
        return Some(ctx.int_attr(r, ty));
    }
    match name {
        "nvvm.icmp" => {
            let pred = ctx.get_attr(op, "predicate").and_then(|a| int_value(ctx, a))?;
            let w = width_of(ctx, ctx.value_type(ctx.operand(op, 0)))?;
            let r = eval_cmpi(pred, c(0)?, c(1)?, w)?;
            let i1 = ctx.i1();
            Some(ctx.int_attr(r as i128, i1))
        }
        "nvvm.select" => match c(0)? {
            0 => consts.get(2).copied().flatten(),
            _ => consts.get(1).copied().flatten(),
        },
        "nvvm.trunc" | "nvvm.sext" | "nvvm.zext" => {
            let from = width_of(ctx, ctx.value_type(ctx.operand(op, 0)))?;
            width_of(ctx, ty)?;
            let v = c(0)?;
            let r = if name == "nvvm.zext" { unsigned(v, from) as i128 } else { signed(v, from) };
            Some(ctx.int_attr(r, ty))
        }
        "nvvm.sitofp" | "nvvm.uitofp" => {
            let from = width_of(ctx, ctx.value_type(ctx.operand(op, 0)))?;
            let v = if name == "nvvm.sitofp" { signed(c(0)?, from) } else { unsigned(c(0)?, from) as i128 };
            // Exact in f64 (and so rounded once to f32): larger values could double-round.
            if v.unsigned_abs() > (1u128 << 53) {
                return None;
            }
            let bits = match ctx.type_kind(ty) {
                TypeKind::Float(FloatKind::F32) => (v as f32).to_bits() as u64,
                TypeKind::Float(FloatKind::F64) => (v as f64).to_bits(),
                TypeKind::Float(FloatKind::F16) => cuprite_ir::print::f64_to_float_bits(v as f64, FloatKind::F16),
                _ => return None,
            };
            Some(ctx.attr(AttrKind::Float { bits, ty }))
        }
        // IEEE's correctly rounded result, as LLVM's constant folder gives it (so before any
        // contraction: `2.0f * 3.0f + x` adds 6). Not: the approximate divisions, a NaN
        // (its payload is the hardware's), and subnormal operands or results (a function
        // may flush them to zero).
        "nvvm.fadd" | "nvvm.fsub" | "nvvm.fmul" | "nvvm.fdiv" => {
            let flags = super::float_flags(ctx, op);
            if name == "nvvm.fdiv" && (flags.approx || flags.full) {
                return None;
            }
            let (a, b) = (consts.first().copied().flatten()?, consts.get(1).copied().flatten()?);
            let (AttrKind::Float { bits: x, .. }, AttrKind::Float { bits: y, .. }) = (ctx.attr_kind(a).clone(), ctx.attr_kind(b).clone())
            else {
                return None;
            };
            let bits = match ctx.type_kind(ty) {
                TypeKind::Float(FloatKind::F32) => {
                    let (x, y) = (f32::from_bits(x as u32), f32::from_bits(y as u32));
                    let r = match name {
                        "nvvm.fadd" => x + y,
                        "nvvm.fsub" => x - y,
                        "nvvm.fmul" => x * y,
                        _ => x / y,
                    };
                    ([x, y, r].iter().all(|v| !v.is_nan() && !v.is_subnormal())).then_some(r.to_bits() as u64)?
                }
                TypeKind::Float(FloatKind::F64) => {
                    let (x, y) = (f64::from_bits(x), f64::from_bits(y));
                    let r = match name {
                        "nvvm.fadd" => x + y,
                        "nvvm.fsub" => x - y,
                        "nvvm.fmul" => x * y,
                        _ => x / y,
                    };
                    ([x, y, r].iter().all(|v| !v.is_nan() && !v.is_subnormal())).then_some(r.to_bits())?
                }
                _ => return None,
            };
            Some(ctx.attr(AttrKind::Float { bits, ty }))
        }
        // The sign bit flipped (exact at every width, NaNs included).
        "nvvm.fneg" => {
            let a = consts.first().copied().flatten()?;
            let AttrKind::Float { bits, ty: ft } = ctx.attr_kind(a).clone() else { return None };
            let TypeKind::Float(k) = ctx.type_kind(ft).clone() else { return None };
            (ft == ty).then_some(())?;
            Some(ctx.attr(AttrKind::Float { bits: bits ^ (1u64 << (k.width() - 1)), ty }))
        }
        // The same bits, between an integer and a float of one width.
        "nvvm.bitcast" => {
            let a = consts.first().copied().flatten()?;
            match (ctx.attr_kind(a).clone(), ctx.type_kind(ty).clone()) {
                (AttrKind::Integer { .. }, TypeKind::Float(k)) if matches!(k, FloatKind::F32 | FloatKind::F64) => {
                    let w = k.width();
                    (width_of(ctx, ctx.value_type(ctx.operand(op, 0)))? == w).then_some(())?;
                    let bits = unsigned(int_value(ctx, a)?, w) as u64;
                    Some(ctx.attr(AttrKind::Float { bits, ty }))
                }
                (AttrKind::Float { bits, ty: ft }, TypeKind::Integer { width, .. }) => {
                    let TypeKind::Float(k @ (FloatKind::F32 | FloatKind::F64)) = ctx.type_kind(ft) else { return None };
                    (k.width() == width).then_some(())?;
                    Some(ctx.int_attr(signed(bits as i128, width), ty))
                }
                _ => None,
            }
        }
        _ => None,
    }
}

fn value(v: ValueId) -> FoldOutcome {
    FoldOutcome::Replace(smallvec::smallvec![FoldResult::Value(v)])
}

fn attr(a: AttrId) -> FoldOutcome {
    FoldOutcome::Replace(smallvec::smallvec![FoldResult::Attr(a)])
}

pub(super) fn fold_int_binary(ctx: &mut Context, op: OpId, consts: &[Option<AttrId>]) -> FoldOutcome {
    if let Some(a) = eval(ctx, op, consts) {
        return attr(a);
    }
    let name = static_name(ctx, op);
    let (x, y) = (ctx.operand(op, 0), ctx.operand(op, 1));
    let ty = ctx.value_type(ctx.result(op, 0));
    let Some(width) = width_of(ctx, ty) else { return FoldOutcome::None };
    let (ca, cb) = (consts[0].and_then(|a| int_value(ctx, a)), consts[1].and_then(|a| int_value(ctx, a)));
    // Constants go to the right of commutative ops.
    if ca.is_some() && cb.is_none() && ctx.has_trait(op, Traits::COMMUTATIVE) {
        ctx.set_operands(op, &[y, x]);
        return FoldOutcome::InPlace;
    }
    let ones = signed(-1, width);
    match (name, cb.map(|v| signed(v, width))) {
        ("nvvm.add" | "nvvm.sub" | "nvvm.or" | "nvvm.xor" | "nvvm.shl" | "nvvm.ashr" | "nvvm.lshr", Some(0)) => return value(x),
        ("nvvm.mul" | "nvvm.sdiv" | "nvvm.udiv", Some(1)) => return value(x),
        ("nvvm.mul" | "nvvm.and", Some(0)) => return attr(ctx.int_attr(0, ty)),
        ("nvvm.srem" | "nvvm.urem", Some(1)) => return attr(ctx.int_attr(0, ty)),
        ("nvvm.and", Some(v)) if v == ones => return value(x),
        ("nvvm.or", Some(v)) if v == ones => return attr(ctx.int_attr(ones, ty)),
        _ => {}
    }
    // The distance between two addresses in one object: `ptrtoint(p + c1) - ptrtoint(p + c2)`
    // is `c1 - c2` (through casts between address spaces, which keep distances: a
    // window's addresses are its offsets plus the window's base).
    if name == "nvvm.sub" {
        if let (Some((rx, ox)), Some((ry, oy))) = (address_parts(ctx, x), address_parts(ctx, y)) {
            if rx == ry {
                return attr(ctx.int_attr(signed(ox.wrapping_sub(oy), width), ty));
            }
        }
    }
    if x == y {
        match name {
            "nvvm.sub" | "nvvm.xor" => return attr(ctx.int_attr(0, ty)),
            "nvvm.and" | "nvvm.or" => return value(x),
            _ => {}
        }
    }
    FoldOutcome::None
}

/// For `ptrtoint(q)`: the pointer `q` is derived from, through constant `ptradd`s and
/// `addrspacecast`s, and the byte offset they add up to.
fn address_parts(ctx: &Context, v: ValueId) -> Option<(ValueId, i128)> {
    let d = ctx.defining_op(v).filter(|&d| static_name(ctx, d) == "nvvm.ptrtoint")?;
    let mut p = ctx.operand(d, 0);
    let mut off: i128 = 0;
    for _ in 0..64 {
        let Some(o) = ctx.defining_op(p) else { break };
        match static_name(ctx, o) {
            "nvvm.addrspacecast" => p = ctx.operand(o, 0),
            "nvvm.ptradd" => {
                let c = constant_value(ctx, ctx.operand(o, 1)).and_then(|a| int_value(ctx, a))?;
                off = off.checked_add(c)?;
                p = ctx.operand(o, 0);
            }
            _ => break,
        }
    }
    Some((p, off))
}

/// `ptradd(p, 0)` is `p`.
pub(super) fn fold_ptradd(ctx: &mut Context, op: OpId, consts: &[Option<AttrId>]) -> FoldOutcome {
    match consts.get(1).copied().flatten().and_then(|a| int_value(ctx, a)) {
        Some(0) => value(ctx.operand(op, 0)),
        _ => FoldOutcome::None,
    }
}

pub(super) fn fold_icmp(ctx: &mut Context, op: OpId, consts: &[Option<AttrId>]) -> FoldOutcome {
    if let Some(a) = eval(ctx, op, consts) {
        return attr(a);
    }
    let (x, y) = (ctx.operand(op, 0), ctx.operand(op, 1));
    let pred = ctx.get_attr(op, "predicate").and_then(|a| int_value(ctx, a));
    // A constant goes to the right (PTX's `setp` takes an immediate there), the predicate
    // mirrored: `0 < x` is `x > 0`.
    if let (Some(_), None, Some(p)) = (consts[0], consts[1], pred) {
        use super::ICmpPredicate::*;
        let mirrored = match super::ICmpPredicate::from_i64(p as i64) {
            Some(Slt) => Sgt,
            Some(Sle) => Sge,
            Some(Sgt) => Slt,
            Some(Sge) => Sle,
            Some(Ult) => Ugt,
            Some(Ule) => Uge,
            Some(Ugt) => Ult,
            Some(Uge) => Ule,
            Some(q @ (Eq | Ne)) => q,
            None => return FoldOutcome::None,
        } as i128;
        let Some(AttrKind::Integer { ty, .. }) = ctx.get_attr(op, "predicate").map(|a| ctx.attr_kind(a).clone()) else {
            return FoldOutcome::None;
        };
        let pa = ctx.int_attr(mirrored, ty);
        ctx.set_prop(op, "predicate", pa);
        ctx.set_operands(op, &[y, x]);
        return FoldOutcome::InPlace;
    }
    if x == y && width_of(ctx, ctx.value_type(x)).is_some() {
        if let Some(p) = pred {
            let i1 = ctx.i1();
            return attr(ctx.int_attr(matches!(p, 0 | 3 | 5 | 7 | 9) as i128, i1));
        }
    }
    FoldOutcome::None
}

pub(super) fn fold_select(ctx: &mut Context, op: OpId, consts: &[Option<AttrId>]) -> FoldOutcome {
    let (t, f) = (ctx.operand(op, 1), ctx.operand(op, 2));
    if t == f {
        return value(t);
    }
    match consts[0].and_then(|c| int_value(ctx, c)) {
        Some(0) => value(f),
        Some(_) => value(t),
        None => FoldOutcome::None,
    }
}

/// `fneg` of a constant, and `fneg(fneg x)`, which is `x`.
/// Constant operands only (see [`eval`]).
pub(super) fn fold_float_binary(ctx: &mut Context, op: OpId, consts: &[Option<AttrId>]) -> FoldOutcome {
    match eval(ctx, op, consts) {
        Some(a) => attr(a),
        None => FoldOutcome::None,
    }
}

pub(super) fn fold_fneg(ctx: &mut Context, op: OpId, consts: &[Option<AttrId>]) -> FoldOutcome {
    if let Some(a) = eval(ctx, op, consts) {
        return attr(a);
    }
    let x = ctx.operand(op, 0);
    match ctx.defining_op(x) {
        Some(d) if static_name(ctx, d) == "nvvm.fneg" => value(ctx.operand(d, 0)),
        _ => FoldOutcome::None,
    }
}

pub(super) fn fold_cast(ctx: &mut Context, op: OpId, consts: &[Option<AttrId>]) -> FoldOutcome {
    if let Some(a) = eval(ctx, op, consts) {
        return attr(a);
    }
    // A cast to the same type, and trunc(ext x) back to x's type, are x.
    let x = ctx.operand(op, 0);
    let ty = ctx.value_type(ctx.result(op, 0));
    if ctx.value_type(x) == ty {
        return value(x);
    }
    // A round trip between address spaces, or through another type of the same bits, is
    // the original value.
    if let name @ ("nvvm.addrspacecast" | "nvvm.bitcast") = static_name(ctx, op) {
        if let Some(d) = ctx.defining_op(x) {
            if static_name(ctx, d) == name && ctx.value_type(ctx.operand(d, 0)) == ty {
                return value(ctx.operand(d, 0));
            }
        }
    }
    if static_name(ctx, op) == "nvvm.trunc" {
        if let Some(d) = ctx.defining_op(x) {
            if matches!(static_name(ctx, d), "nvvm.sext" | "nvvm.zext") && ctx.value_type(ctx.operand(d, 0)) == ty {
                return value(ctx.operand(d, 0));
            }
        }
    }
    FoldOutcome::None
}

/// `nvvm.cond_br` on a constant condition, or to the same block with the same arguments,
/// becomes `nvvm.br`.
pub(super) fn canonicalize_cond_br(set: &mut PatternSet) {
    set.add_fn("nvvm.cond_br-to-br", super::CondBrOp::NAME, 1, |op, rw| {
        let ctx = &*rw.ctx;
        let args =
            |i: usize| -> Vec<ValueId> { operand_range(&super::ops::COND_BR_SPEC, ctx, op, i + 1).map(|k| ctx.operand(op, k)).collect() };
        let cond = constant_value(ctx, ctx.operand(op, 0)).and_then(|a| int_value(ctx, a));
        let which = match cond {
            Some(c) => usize::from(c == 0),
            None if ctx.successor(op, 0) == ctx.successor(op, 1) && args(0) == args(1) => 0,
            None => return false,
        };
        let (a, dest, loc) = (args(which), ctx.successor(op, which), ctx.op_loc(op));
        let st = super::BrOp::build(rw.ctx, loc, &a, None, dest);
        rw.set_insertion_point_before(op);
        rw.create(st);
        rw.erase_op(op);
        true
    });
    // C's `if (!(x <= c))` arrives as a branch on `xor(cmp, true)`: branch on the comparison
    // with the destinations swapped (PTX's `@!p bra` costs nothing; the `xor` costs a
    // predicate instruction and a register).
    set.add_fn("nvvm.cond_br-of-not", super::CondBrOp::NAME, 1, |op, rw| {
        let ctx = &*rw.ctx;
        let Some(c) = negated_operand(ctx, ctx.operand(op, 0)) else { return false };
        let args =
            |i: usize| -> Vec<ValueId> { operand_range(&super::ops::COND_BR_SPEC, ctx, op, i + 1).map(|k| ctx.operand(op, k)).collect() };
        let (t, f, dt, df, loc) = (args(0), args(1), ctx.successor(op, 0), ctx.successor(op, 1), ctx.op_loc(op));
        let st = super::CondBrOp::build(rw.ctx, loc, c, &f, &t, df, dt);
        rw.set_insertion_point_before(op);
        rw.create(st);
        rw.erase_op(op);
        true
    });
}

/// `x` where `v` is `xor(x, true)` on `i1`.
fn negated_operand(ctx: &Context, v: ValueId) -> Option<ValueId> {
    let d = ctx.defining_op(v).filter(|&d| ctx.is_op(d, super::XorOp::NAME))?;
    if width_of(ctx, ctx.value_type(v)) != Some(1) {
        return None;
    }
    let one = |v: ValueId| constant_value(ctx, v).and_then(|a| int_value(ctx, a)).is_some_and(|k| k & 1 == 1);
    let (a, b) = (ctx.operand(d, 0), ctx.operand(d, 1));
    if one(b) {
        Some(a)
    } else if one(a) {
        Some(b)
    } else {
        None
    }
}

/// The float predicate that holds exactly when `p` does not (NaN included: the negation of
/// an ordered comparison is the unordered one).
pub fn inverse_fcmp(p: super::FCmpPredicate) -> super::FCmpPredicate {
    use super::FCmpPredicate::*;
    match p {
        Oeq => Une,
        Une => Oeq,
        One => Ueq,
        Ueq => One,
        Olt => Uge,
        Uge => Olt,
        Ole => Ugt,
        Ugt => Ole,
        Ogt => Ule,
        Ule => Ogt,
        Oge => Ult,
        Ult => Oge,
        Ord => Uno,
        Uno => Ord,
    }
}

/// The integer predicate that holds exactly when `p` does not.
pub fn inverse_icmp(p: super::ICmpPredicate) -> super::ICmpPredicate {
    use super::ICmpPredicate::*;
    match p {
        Eq => Ne,
        Ne => Eq,
        Slt => Sge,
        Sle => Sgt,
        Sgt => Sle,
        Sge => Slt,
        Ult => Uge,
        Ule => Ugt,
        Ugt => Ule,
        Uge => Ult,
    }
}

/// `xor(cmp(p, a, b), true)`, the comparison used only there, is `cmp(not p, a, b)` (LLVM's
/// InstCombine does the same): one `setp` where there were a `setp` and a `not`.
pub(super) fn canonicalize_xor(set: &mut PatternSet) {
    set.add_fn("nvvm.not-of-compare", super::XorOp::NAME, 1, |op, rw| {
        let ctx = &*rw.ctx;
        let res = ctx.result(op, 0);
        let Some(c) = negated_operand(ctx, res) else { return false };
        let Some(cmp) = ctx.defining_op(c) else { return false };
        if !ctx.has_one_use(c) {
            return false;
        }
        let inv = if let Some(p) = super::ICmpOp::cast(ctx, cmp).and_then(|i| i.predicate(ctx)) {
            inverse_icmp(p) as i64
        } else if let Some(p) = super::FCmpOp::cast(ctx, cmp).and_then(|f| f.predicate(ctx)) {
            inverse_fcmp(p) as i64
        } else {
            return false;
        };
        let i32t = rw.ctx.int_type(32);
        let a = rw.ctx.int_attr(inv as i128, i32t);
        rw.modify_op_in_place(cmp, |ctx| ctx.set_prop(cmp, "predicate", a));
        rw.replace_op(op, &[c]);
        true
    });
}

/// `nvvm.select` of the two operands of the integer comparison that chooses becomes the
/// `min`/`max` intrinsic: `select(a > b, a, b)` is `smax(a, b)`, `select(a < b, b, a)` too,
/// and likewise for `>=`, `<=` and unsigned comparisons (on 32- and 64-bit integers, what
/// PTX's `min`/`max` take). Not floats: C's `a > b ? a : b` returns `b` for a NaN `a`,
/// `max.f32` the other operand.
///
/// On `i1`, `select(c, x, false)` (C's `c && x` once branches became selects) is
/// `and(c, x)` and `select(c, true, x)` (`c || x`) is `or(c, x)`: one predicate
/// instruction where a select of predicates takes four.
pub(super) fn canonicalize_select(set: &mut PatternSet) {
    set.add_fn("nvvm.select-i1-to-and-or", super::SelectOp::NAME, 1, |op, rw| {
        let ctx = &*rw.ctx;
        let (c, t, f) = (ctx.operand(op, 0), ctx.operand(op, 1), ctx.operand(op, 2));
        let ty = ctx.value_type(t);
        if width_of(ctx, ty) != Some(1) {
            return false;
        }
        let k = |v: ValueId| constant_value(ctx, v).and_then(|a| int_value(ctx, a)).map(|v| v & 1);
        let loc = ctx.op_loc(op);
        let st = match (k(t), k(f)) {
            (_, Some(0)) => super::AndOp::build(rw.ctx, loc, ty, c, t),
            (Some(1), _) => super::OrOp::build(rw.ctx, loc, ty, c, f),
            _ => return false,
        };
        rw.set_insertion_point_before(op);
        rw.replace_op_with_new(op, st);
        true
    });
    set.add_fn("nvvm.select-to-min-max", super::SelectOp::NAME, 1, |op, rw| {
        let ctx = &*rw.ctx;
        let (c, t, f) = (ctx.operand(op, 0), ctx.operand(op, 1), ctx.operand(op, 2));
        let ty = ctx.value_type(t);
        if !matches!(width_of(ctx, ty), Some(32 | 64)) {
            return false;
        }
        let Some(cmp) = ctx.defining_op(c).filter(|&d| ctx.is_op(d, super::ICmpOp::NAME)) else { return false };
        let Some(pred) = super::ICmpOp(cmp).predicate(ctx) else { return false };
        let (x, y) = (ctx.operand(cmp, 0), ctx.operand(cmp, 1));
        // Whether the select picks the larger one (the comparison's left side when it
        // holds for a greater left side).
        use super::ICmpPredicate::*;
        let (greater_left, signed) = match pred {
            Sgt | Sge => (true, true),
            Slt | Sle => (false, true),
            Ugt | Uge => (true, false),
            Ult | Ule => (false, false),
            Eq | Ne => return false,
        };
        let max = match (t, f) {
            (a, b) if a == x && b == y => greater_left,
            (a, b) if a == y && b == x => !greater_left,
            _ => return false,
        };
        let name = match (max, signed) {
            (true, true) => "smax",
            (false, true) => "smin",
            (true, false) => "umax",
            (false, false) => "umin",
        };
        let (loc, n) = (ctx.op_loc(op), rw.ctx.str_attr(name));
        let st = super::IntrOp::build(rw.ctx, loc, ty, &[x, y], n);
        rw.set_insertion_point_before(op);
        rw.replace_op_with_new(op, st);
        true
    });
}

/// `add(add(x, c1), c2)` with an inner add used only there is `add(x, c1 + c2)` (the
/// chain of `+ 1`s an unrolled loop's counter leaves); `nsw` stays when both had it and the
/// constants have the same sign (then the sum cannot wrap where the steps did not).
pub(super) fn canonicalize_add(set: &mut PatternSet) {
    set.add_fn("nvvm.add-reassociate-constants", super::AddOp::NAME, 1, |op, rw| {
        let ctx = &*rw.ctx;
        let k = |v: ValueId| constant_value(ctx, v).and_then(|a| int_value(ctx, a));
        let Some(c2) = k(ctx.operand(op, 1)) else { return false };
        let Some(inner) = ctx.defining_op(ctx.operand(op, 0)).filter(|&d| ctx.is_op(d, super::AddOp::NAME)) else { return false };
        if !ctx.has_one_use(ctx.operand(op, 0)) {
            return false;
        }
        let Some(c1) = k(ctx.operand(inner, 1)) else { return false };
        let ty = ctx.value_type(ctx.result(op, 0));
        let Some(w) = width_of(ctx, ty) else { return false };
        let Some(c) = eval_int_binary("arith.addi", c1, c2, w) else { return false };
        let nsw = super::AddOp(op).nsw(ctx) && super::AddOp(inner).nsw(ctx) && (signed(c1, w) >= 0) == (signed(c2, w) >= 0);
        let (x, loc) = (ctx.operand(inner, 0), ctx.op_loc(op));
        rw.set_insertion_point_before(op);
        let cv = rw.ctx.int_attr(c, ty);
        let kst = super::ConstantOp::build(rw.ctx, loc, ty, cv);
        let kop = rw.create(kst);
        let kv = rw.ctx.result(kop, 0);
        let unit = nsw.then(|| rw.ctx.unit_attr());
        let st = super::AddOp::build(rw.ctx, loc, ty, x, kv, unit);
        rw.replace_op_with_new(op, st);
        true
    });
}

/// Constant offsets move outward through chains of `nvvm.ptradd` (LLVM's NVPTX pipeline
/// separates constant offsets from address arithmetic the same way), so that the constant
/// one ends up in a `[reg+imm]` address and the variable part is shared:
/// `ptradd(ptradd(p, c), x)` is `ptradd(ptradd(p, x), c)`, and `ptradd(ptradd(p, c1), c2)`
/// is `ptradd(p, c1 + c2)` (offsets of one width, the inner address used only there).
/// A stack slot nothing uses any more (its accesses folded away) is erased, so that the
/// function needs no local depot for it.
pub(super) fn canonicalize_alloca(set: &mut PatternSet) {
    set.add_fn("nvvm.alloca-unused", super::AllocaOp::NAME, 1, |op, rw| {
        if rw.ctx.has_uses(rw.ctx.result(op, 0)) {
            return false;
        }
        rw.erase_op(op);
        true
    });
}

pub(super) fn canonicalize_ptradd(set: &mut PatternSet) {
    set.add_fn("nvvm.ptradd-split-constant", super::PtrAddOp::NAME, 1, |op, rw| {
        // `ptradd(p, add(y, c))`, the add used only there: `ptradd(ptradd(p, y), c)`.
        let ctx = &*rw.ctx;
        let off = ctx.operand(op, 1);
        let Some(add) = ctx.defining_op(off).filter(|&d| ctx.is_op(d, super::AddOp::NAME)) else { return false };
        if !ctx.has_one_use(off) || constant_value(ctx, ctx.operand(add, 1)).is_none() || constant_value(ctx, off).is_some() {
            return false;
        }
        let (p, y, c) = (ctx.operand(op, 0), ctx.operand(add, 0), ctx.operand(add, 1));
        if constant_value(ctx, y).is_some() {
            return false;
        }
        let (pty, loc) = (ctx.value_type(p), ctx.op_loc(op));
        rw.set_insertion_point_before(op);
        let st = super::PtrAddOp::build(rw.ctx, loc, pty, p, y);
        let o = rw.create(st);
        let py = rw.ctx.result(o, 0);
        let st = super::PtrAddOp::build(rw.ctx, loc, pty, py, c);
        rw.replace_op_with_new(op, st);
        true
    });
    set.add_fn("nvvm.ptradd-constant-outward", super::PtrAddOp::NAME, 1, |op, rw| {
        let ctx = &*rw.ctx;
        let k = |v: ValueId| constant_value(ctx, v).and_then(|a| int_value(ctx, a));
        let (inner_v, x) = (ctx.operand(op, 0), ctx.operand(op, 1));
        let Some(inner) = ctx.defining_op(inner_v).filter(|&d| ctx.is_op(d, super::PtrAddOp::NAME)) else { return false };
        if !ctx.has_one_use(inner_v) {
            return false;
        }
        let (p, c) = (ctx.operand(inner, 0), ctx.operand(inner, 1));
        let (Some(c1), xt) = (k(c), ctx.value_type(x)) else { return false };
        if ctx.value_type(c) != xt {
            return false;
        }
        let (pty, loc) = (ctx.value_type(inner_v), ctx.op_loc(op));
        let c2 = k(x);
        let w = width_of(ctx, xt);
        rw.set_insertion_point_before(op);
        let st = match c2 {
            Some(c2) => {
                let Some(w) = w else { return false };
                let Some(sum) = eval_int_binary("arith.addi", c1, c2, w) else { return false };
                let a = rw.ctx.int_attr(sum, xt);
                let kst = super::ConstantOp::build(rw.ctx, loc, xt, a);
                let kop = rw.create(kst);
                let kv = rw.ctx.result(kop, 0);
                super::PtrAddOp::build(rw.ctx, loc, pty, p, kv)
            }
            None => {
                let st = super::PtrAddOp::build(rw.ctx, loc, pty, p, x);
                let o = rw.create(st);
                let px = rw.ctx.result(o, 0);
                super::PtrAddOp::build(rw.ctx, loc, pty, px, c)
            }
        };
        rw.replace_op_with_new(op, st);
        true
    });
}

/// `sext(add nsw (x, c))`, the add used only there, is `add(sext x, c)`: with no signed
/// wrap the extension distributes (LLVM's InstCombine does the same), which lets the
/// constant reach a `[reg+imm]` address (`tile[l + k]`).
pub(super) fn canonicalize_sext(set: &mut PatternSet) {
    set.add_fn("nvvm.sext-of-nsw-add", super::SextOp::NAME, 1, |op, rw| {
        let ctx = &*rw.ctx;
        let x = ctx.operand(op, 0);
        let Some(add) = ctx.defining_op(x).filter(|&d| ctx.is_op(d, super::AddOp::NAME)) else { return false };
        if !super::AddOp(add).nsw(ctx) || !ctx.has_one_use(x) {
            return false;
        }
        let Some(c) = constant_value(ctx, ctx.operand(add, 1)).and_then(|a| int_value(ctx, a)) else { return false };
        let (Some(from), ty) = (width_of(ctx, ctx.value_type(x)), ctx.value_type(ctx.result(op, 0))) else { return false };
        let (y, loc) = (ctx.operand(add, 0), ctx.op_loc(op));
        rw.set_insertion_point_before(op);
        let st = super::SextOp::build(rw.ctx, loc, ty, y);
        let o = rw.create(st);
        let ey = rw.ctx.result(o, 0);
        let a = rw.ctx.int_attr(signed(c, from), ty);
        let kst = super::ConstantOp::build(rw.ctx, loc, ty, a);
        let k = rw.create(kst);
        let kv = rw.ctx.result(k, 0);
        let st = super::AddOp::build(rw.ctx, loc, ty, ey, kv, None);
        rw.replace_op_with_new(op, st);
        true
    });
}

/// On 64-bit values (addresses, where wrapping is the pointer arithmetic's own),
/// `mul(add(x, c1), c2)` is `add(mul(x, c2), c1 * c2)` and `shl(add(x, c1), c2)` is
/// `add(shl(x, c2), c1 << c2)`, the inner add used only there: the constant moves out
/// toward the address (`4 * (l + k)` is `4 * l + 4 * k`).
fn distribute_over_add_constant(op: OpId, rw: &mut cuprite_ir::rewrite::Rewriter<'_>) -> bool {
    let ctx = &*rw.ctx;
    let ty = ctx.value_type(ctx.result(op, 0));
    if width_of(ctx, ty) != Some(64) {
        return false;
    }
    let k = |v: ValueId| constant_value(ctx, v).and_then(|a| int_value(ctx, a));
    let inner_v = ctx.operand(op, 0);
    let Some(c2) = k(ctx.operand(op, 1)) else { return false };
    let Some(add) = ctx.defining_op(inner_v).filter(|&d| ctx.is_op(d, super::AddOp::NAME)) else { return false };
    if !ctx.has_one_use(inner_v) {
        return false;
    }
    let Some(c1) = k(ctx.operand(add, 1)) else { return false };
    let shl = ctx.is_op(op, super::ShlOp::NAME);
    let name = if shl { "arith.shli" } else { "arith.muli" };
    let Some(c) = eval_int_binary(name, c1, c2, 64) else { return false };
    let (x, loc, c2v) = (ctx.operand(add, 0), ctx.op_loc(op), ctx.operand(op, 1));
    rw.set_insertion_point_before(op);
    let st = if shl { super::ShlOp::build(rw.ctx, loc, ty, x, c2v, None) } else { super::MulOp::build(rw.ctx, loc, ty, x, c2v, None) };
    let o = rw.create(st);
    let m = rw.ctx.result(o, 0);
    let a = rw.ctx.int_attr(c, ty);
    let kst = super::ConstantOp::build(rw.ctx, loc, ty, a);
    let kop = rw.create(kst);
    let kv = rw.ctx.result(kop, 0);
    let st = super::AddOp::build(rw.ctx, loc, ty, m, kv, None);
    rw.replace_op_with_new(op, st);
    true
}

pub(super) fn canonicalize_mul(set: &mut PatternSet) {
    set.add_fn("nvvm.mul-distribute-over-add-constant", super::MulOp::NAME, 1, distribute_over_add_constant);
}

pub(super) fn canonicalize_shl(set: &mut PatternSet) {
    set.add_fn("nvvm.shl-distribute-over-add-constant", super::ShlOp::NAME, 1, distribute_over_add_constant);
}

/// Makes an `nvvm.constant` of `ty` holding `attr` (the folding drivers' hook).
pub fn materialize_constant(ctx: &mut Context, attr: AttrId, ty: TypeId, loc: LocId) -> Option<OpId> {
    crate::arith::materialize_constant_op(ctx, "nvvm.constant", attr, ty, loc)
}

/// The low `m` bits (`1 <= m <= 63`) of the integer `v` when they are known: through
/// constants, `add`, `sub`, `mul`, `and`, `or`, `xor`, `shl` by a constant, the integer
/// casts, and a block argument (a loop's induction variable) whose every incoming value
/// has them, on the assumption that the argument itself has them where it feeds its own
/// update (induction). After a loop is unrolled by 8, its counter `k` steps by 8 from 0,
/// so `k + 3` ends in `011`.
pub fn known_low_bits(ctx: &Context, v: ValueId, m: u32) -> Option<u64> {
    known_low(ctx, v, m, 8, None)
}

/// `assume`: the block argument being proved and the bits assumed for it (`None`: it is
/// unknown, while looking for the incoming value that does not depend on it).
fn known_low(ctx: &Context, v: ValueId, m: u32, depth: u32, assume: Option<(ValueId, Option<u64>)>) -> Option<u64> {
    let mask = (1u64 << m) - 1;
    if let Some((a, bits)) = assume {
        if a == v {
            return bits;
        }
    }
    if let Some(c) = constant_value(ctx, v).and_then(|a| int_value(ctx, a)) {
        return Some(c as u64 & mask);
    }
    if depth == 0 {
        return None;
    }
    let k = |x: ValueId| known_low(ctx, x, m, depth - 1, assume);
    match ctx.value_def(v) {
        cuprite_ir::ValueDef::Result { op, .. } => {
            // A chain of constant steps (an unrolled counter's `+ 1`s) is linear: it does
            // not use up the depth.
            if matches!(static_name(ctx, op), "nvvm.add" | "nvvm.sub") {
                if let Some(c) = constant_value(ctx, ctx.operand(op, 1)).and_then(|a| int_value(ctx, a)) {
                    let x = known_low(ctx, ctx.operand(op, 0), m, depth, assume)?;
                    let c = c as u64;
                    let r = if static_name(ctx, op) == "nvvm.add" { x.wrapping_add(c) } else { x.wrapping_sub(c) };
                    return Some(r & mask);
                }
            }
            let bin = |f: fn(u64, u64) -> u64| -> Option<u64> { Some(f(k(ctx.operand(op, 0))?, k(ctx.operand(op, 1))?) & mask) };
            let narrowest = |x: ValueId| width_of(ctx, ctx.value_type(x)).is_some_and(|w| m <= w);
            match static_name(ctx, op) {
                "nvvm.add" => bin(u64::wrapping_add),
                "nvvm.sub" => bin(u64::wrapping_sub),
                "nvvm.mul" => bin(u64::wrapping_mul),
                "nvvm.and" => bin(|a, b| a & b),
                "nvvm.or" => bin(|a, b| a | b),
                "nvvm.xor" => bin(|a, b| a ^ b),
                "nvvm.shl" => {
                    let s = constant_value(ctx, ctx.operand(op, 1)).and_then(|a| int_value(ctx, a))?;
                    if !(0..64).contains(&s) {
                        return None;
                    }
                    if s as u32 >= m {
                        return Some(0);
                    }
                    Some((k(ctx.operand(op, 0))? << s) & mask)
                }
                "nvvm.trunc" if narrowest(v) => k(ctx.operand(op, 0)),
                "nvvm.sext" | "nvvm.zext" if narrowest(ctx.operand(op, 0)) => k(ctx.operand(op, 0)),
                _ => None,
            }
        }
        cuprite_ir::ValueDef::BlockArg { block, index } => {
            let incoming: Vec<ValueId> = ctx
                .predecessors(block)
                .map(|(t, i)| ctx.successor_args(t, i as usize).get(index as usize).copied())
                .collect::<Option<Vec<_>>>()?;
            // One predecessor (a rotated loop's guard): the value it passes.
            if let [x] = incoming.as_slice() {
                return k(*x);
            }
            if assume.is_some() {
                return None; // one induction variable at a time
            }
            let start = incoming.iter().find_map(|&x| known_low(ctx, x, m, depth - 1, Some((v, None))))?;
            incoming.iter().all(|&x| known_low(ctx, x, m, depth - 1, Some((v, Some(start)))) == Some(start)).then_some(start)
        }
        cuprite_ir::ValueDef::Placeholder => None,
    }
}

/// `and(x, 2^m - 1)` reads only the low `m` bits of `x`, and of the operands of the
/// `add`, `sub`, `mul`, `and`, `or` or `xor` that makes `x` (carries go up, never down): when
/// those bits of `x` are known the `and` is that constant; when those of an operand are, the
/// operand becomes the constant (LLVM's demanded-bits simplification). `(a ^ (k + 3)) & 7`
/// with `k` a multiple of 8 is `(a ^ 3) & 7`: invariant in `k`'s loop.
pub(super) fn canonicalize_and(set: &mut PatternSet) {
    set.add_fn("nvvm.and-known-low-bits", super::AndOp::NAME, 1, known_low_bits_of_and);
}

/// The rewrite of the `nvvm.and-known-low-bits` pattern, for passes that run it on its own.
pub fn known_low_bits_of_and(op: OpId, rw: &mut cuprite_ir::rewrite::Rewriter<'_>) -> bool {
    let ctx = &*rw.ctx;
    let (x, mv) = (ctx.operand(op, 0), ctx.operand(op, 1));
    let ty = ctx.value_type(x);
    let Some(w) = width_of(ctx, ty) else { return false };
    let Some(mask) = constant_value(ctx, mv).and_then(|a| int_value(ctx, a)).map(|c| c as u64) else { return false };
    let mask = if w < 64 { mask & ((1u64 << w) - 1) } else { mask };
    if mask == 0 || mask & mask.wrapping_add(1) != 0 {
        return false;
    }
    let m = mask.trailing_ones();
    if m >= w.min(64) || constant_value(ctx, x).is_some() {
        return false;
    }
    let loc = ctx.op_loc(op);
    if let Some(bits) = known_low_bits(ctx, x, m) {
        let a = rw.ctx.int_attr(bits as i128, ty);
        rw.set_insertion_point_before(op);
        let Some(c) = materialize_constant(rw.ctx, a, ty, loc) else { return false };
        rw.insert(c);
        let cv = rw.ctx.result(c, 0);
        rw.replace_op(op, &[cv]);
        return true;
    }
    let Some(d) = ctx.defining_op(x) else { return false };
    let name = static_name(ctx, d);
    if !matches!(name, "nvvm.add" | "nvvm.sub" | "nvvm.mul" | "nvvm.and" | "nvvm.or" | "nvvm.xor") {
        return false;
    }
    for j in 0..2 {
        let y = ctx.operand(d, j);
        if constant_value(ctx, y).is_some() {
            continue;
        }
        let Some(bits) = known_low_bits(ctx, y, m) else { continue };
        let other = ctx.operand(d, 1 - j);
        let a = rw.ctx.int_attr(bits as i128, ty);
        rw.set_insertion_point_before(op);
        let Some(c) = materialize_constant(rw.ctx, a, ty, loc) else { return false };
        rw.insert(c);
        let cv = rw.ctx.result(c, 0);
        let ops = if j == 0 { [cv, other] } else { [other, cv] };
        let nx = rw.create_simple(name, &ops, &[ty], Vec::new(), loc);
        let nxv = rw.ctx.result(nx, 0);
        let st = super::AndOp::build(rw.ctx, loc, ty, nxv, mv);
        rw.replace_op_with_new(op, st);
        return true;
    }
    false
}

/// `x / 2^k` (IEEE division, f32 or f64) is `x * 2^-k` when `2^-k` is a normal number: both
/// round the same real number once, so the bits agree (`-ftz` included: both flush the
/// same inputs and results). LLVM does the same; `div.rn` is a long instruction sequence,
/// `mul` one. The multiply keeps the division's `contract`.
pub(super) fn canonicalize_fdiv(set: &mut PatternSet) {
    set.add_fn("nvvm.fdiv-by-power-of-two", super::FdivOp::NAME, 1, |op, rw| {
        let ctx = &*rw.ctx;
        let d = super::FdivOp(op);
        if d.approx(ctx) || d.full(ctx) {
            return false;
        }
        let (x, c) = (ctx.operand(op, 0), ctx.operand(op, 1));
        let ty = ctx.value_type(x);
        let Some(a) = constant_value(ctx, c) else { return false };
        let AttrKind::Float { bits, .. } = *ctx.attr_kind(a) else { return false };
        let recip = match ctx.type_kind(ty) {
            TypeKind::Float(FloatKind::F32) => {
                let v = f32::from_bits(bits as u32);
                let r = 1.0 / v;
                let pow2 = v.is_normal() && bits as u32 & 0x007f_ffff == 0;
                if !pow2 || !r.is_normal() {
                    return false;
                }
                u64::from(r.to_bits())
            }
            TypeKind::Float(FloatKind::F64) => {
                let v = f64::from_bits(bits);
                let r = 1.0 / v;
                let pow2 = v.is_normal() && bits & 0x000f_ffff_ffff_ffff == 0;
                if !pow2 || !r.is_normal() {
                    return false;
                }
                r.to_bits()
            }
            _ => return false,
        };
        let (loc, contract) = (ctx.op_loc(op), d.contract_attr(ctx));
        let ra = rw.ctx.attr(AttrKind::Float { bits: recip, ty });
        rw.set_insertion_point_before(op);
        let Some(k) = materialize_constant(rw.ctx, ra, ty, loc) else { return false };
        rw.insert(k);
        let kv = rw.ctx.result(k, 0);
        let st = super::FmulOp::build(rw.ctx, loc, ty, x, kv, contract, None, None);
        rw.replace_op_with_new(op, st);
        true
    });
}
