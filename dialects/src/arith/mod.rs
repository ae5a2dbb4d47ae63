//! The `arith` dialect: integer and float arithmetic, comparisons, select, casts and
//! constants, declared in `ops.td`. This module holds the hand-written parts: constant
//! folding (wrapping and signedness as LLVM/MLIR define them, no folding of division by zero
//! or of signed `MIN / -1`, IEEE semantics and NaN for floats), algebraic folds (x+0, x*1,
//! x*0, x-x, x&x, ...), canonicalization patterns, the cast verifier, and the custom forms of
//! `arith.constant` and `arith.select`.

use cuprite_ir::{
    context::normalize_int,
    parse::{lexer::Tok, OpParser},
    print::{f64_to_float_bits, float_bits_to_f64, OpPrinter},
    rewrite::{constant_value, PatternSet, Rewriter},
    AttrId, AttrKind, Context, Diagnostic, FloatKind, FoldOutcome, FoldResult, LocId, OpId, OperationState, Signedness, Traits, TypeId,
    TypeKind,
};

/// Generated from `ops.td`.
#[allow(clippy::all, dead_code)]
pub mod ops {
    include!(concat!(env!("OUT_DIR"), "/arith.rs"));
}
pub use ops::{register, CmpFPredicate, CmpIPredicate, ConstantOp, SelectOp};

/// Integer ops that carry `overflowFlags` (their builders set `#arith.overflow<none>`).
const WITH_OVERFLOW_FLAGS: &[&str] = &["arith.addi", "arith.subi", "arith.muli", "arith.shli"];

// ----- helpers ---------------------------------------------------------------------------

pub(crate) fn int_info(ctx: &Context, t: TypeId) -> Option<(u32, Signedness)> {
    match ctx.type_kind(t) {
        TypeKind::Integer { width, signedness } => Some((*width, *signedness)),
        TypeKind::Index => Some((64, Signedness::Signless)),
        _ => None,
    }
}

fn float_kind(ctx: &Context, t: TypeId) -> Option<FloatKind> {
    match ctx.type_kind(t) {
        TypeKind::Float(k) => Some(*k),
        _ => None,
    }
}

/// The integer value of a constant attribute.
pub fn int_value(ctx: &Context, a: AttrId) -> Option<i128> {
    match ctx.attr_kind(a) {
        AttrKind::Integer { value, .. } => Some(*value),
        _ => None,
    }
}

fn float_value(ctx: &Context, a: AttrId) -> Option<(f64, FloatKind)> {
    match ctx.attr_kind(a) {
        AttrKind::Float { bits, ty } => {
            let k = float_kind(ctx, *ty)?;
            Some((float_bits_to_f64(*bits, k), k))
        }
        _ => None,
    }
}

pub(crate) fn unsigned(v: i128, width: u32) -> u128 {
    if width >= 128 {
        v as u128
    } else {
        (v as u128) & ((1u128 << width) - 1)
    }
}

pub(crate) fn signed(v: i128, width: u32) -> i128 {
    normalize_int(v, width, Signedness::Signless)
}

/// A `name = #arith.overflow<none>` style property.
fn opaque(ctx: &mut Context, body: &str) -> AttrId {
    let d = ctx.sym("arith");
    ctx.attr(AttrKind::Opaque { dialect: d, body: body.to_string() })
}

/// Builds `arith.constant` with `value` at the rewriter's insertion point.
pub fn build_constant(rw: &mut Rewriter<'_>, value: AttrId, ty: TypeId, loc: LocId) -> OpId {
    let k = rw.ctx.sym("value");
    let mut st = OperationState::new(rw.ctx, "arith.constant", loc);
    st.props.push((k, value));
    st.result_types.push(ty);
    rw.create(st)
}

/// Builds an integer binary op (with `overflowFlags = none` where MLIR has it).
pub fn build_int_binary(rw: &mut Rewriter<'_>, name: &str, lhs: cuprite_ir::ValueId, rhs: cuprite_ir::ValueId, loc: LocId) -> OpId {
    let ty = rw.ctx.value_type(lhs);
    let mut props = Vec::new();
    if WITH_OVERFLOW_FLAGS.contains(&name) {
        let k = rw.ctx.sym("overflowFlags");
        props.push((k, opaque(rw.ctx, ".overflow<none>")));
    }
    rw.create_simple(name, &[lhs, rhs], &[ty], props, loc)
}

/// Makes an `arith.constant` of `ty` holding `attr` (the folding drivers' hook; `math` uses it
/// too).
pub fn materialize_constant(ctx: &mut Context, attr: AttrId, ty: TypeId, loc: LocId) -> Option<OpId> {
    materialize_constant_op(ctx, "arith.constant", attr, ty, loc)
}

/// Makes a constant op `op_name` (`arith.constant`, `nvvm.constant`: ops whose `value`
/// property is the constant) of `ty` holding `attr`, converting an integer attribute to
/// `ty`; `None` for a value that does not fit the type.
pub fn materialize_constant_op(ctx: &mut Context, op_name: &str, attr: AttrId, ty: TypeId, loc: LocId) -> Option<OpId> {
    let value = match (ctx.attr_kind(attr).clone(), ctx.type_kind(ty).clone()) {
        (AttrKind::Integer { ty: at, .. }, _) if at == ty => attr,
        (AttrKind::Integer { value, .. }, TypeKind::Integer { .. } | TypeKind::Index) => ctx.int_attr(value, ty),
        (AttrKind::Float { ty: at, .. }, _) if at == ty => attr,
        _ => return None,
    };
    let props = ctx.dict1(ctx.value_sym(), value);
    let name = ctx.sym(op_name);
    let empty = ctx.empty_dict();
    Some(ctx.create_op_parts(name, loc, &[], &[ty], props, empty, &[], &[]))
}

// ----- verifiers -------------------------------------------------------------------------

/// MLIR's names for constants (`getAsmResultNames`): `%true`/`%false` for `i1`,
/// `%c<value>_<type>` for other integers, `%c<value>` for `index`, `%cst` for the rest.
fn constant_result_name(ctx: &Context, op: OpId) -> Vec<String> {
    let (Some(a), Some(&r)) = (ctx.get_attr(op, "value"), ctx.results(op).first()) else { return Vec::new() };
    let ty = ctx.value_type(r);
    vec![match (ctx.attr_kind(a), ctx.type_kind(ty)) {
        (AttrKind::Integer { value, .. }, TypeKind::Integer { width: 1, .. }) => (if *value != 0 { "true" } else { "false" }).to_string(),
        (AttrKind::Integer { value, .. }, TypeKind::Integer { width, signedness: cuprite_ir::Signedness::Signless }) => {
            // The common case without `format!` (the printer names every constant).
            let mut name = String::with_capacity(16);
            name.push('c');
            push_int(&mut name, *value);
            name.push_str("_i");
            push_int(&mut name, i128::from(*width));
            name
        }
        (AttrKind::Integer { value, .. }, TypeKind::Integer { .. }) => {
            let mut name = format!("c{value}_");
            cuprite_ir::print::write_type(ctx, ty, &mut name);
            name
        }
        (AttrKind::Integer { value, .. }, _) => format!("c{value}"),
        _ => "cst".to_string(),
    }]
}

/// Appends the decimal digits of `v`.
fn push_int(out: &mut String, v: i128) {
    if v < 0 {
        out.push('-');
    }
    let mut m = v.unsigned_abs();
    let mut buf = [0u8; 40];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (m % 10) as u8;
        m /= 10;
        if m == 0 {
            break;
        }
    }
    out.extend(buf[i..].iter().map(|&b| b as char));
}

/// `%sum, %overflow` (`arith.addui_extended`), `%low, %high` (`arith.mului_extended`,
/// `arith.mulsi_extended`), as MLIR names them.
fn sum_overflow_names(_: &Context, _: OpId) -> Vec<String> {
    vec!["sum".into(), "overflow".into()]
}

fn low_high_names(_: &Context, _: OpId) -> Vec<String> {
    vec!["low".into(), "high".into()]
}

fn verify_constant(ctx: &Context, op: OpId) -> Result<(), String> {
    let Some(v) = ctx.get_attr(op, "value") else { return Err("requires attribute 'value'".into()) };
    if ctx.num_results(op) != 1 || ctx.num_operands(op) != 0 {
        return Err("expects no operands and one result".into());
    }
    let rt = ctx.value_type(ctx.result(op, 0));
    let at = match ctx.attr_kind(v) {
        AttrKind::Integer { ty, .. } | AttrKind::Float { ty, .. } => *ty,
        _ => return Err("value must be an integer or float attribute".into()),
    };
    if at != rt {
        return Err("value type must match the result type".into());
    }
    Ok(())
}

fn verify_cast(ctx: &Context, op: OpId) -> Result<(), String> {
    let (from, to) = (ctx.value_type(ctx.operand(op, 0)), ctx.value_type(ctx.result(op, 0)));
    let (fi, ti, ff, tf) = (int_info(ctx, from), int_info(ctx, to), float_kind(ctx, from), float_kind(ctx, to));
    let is_index = |t| matches!(ctx.type_kind(t), TypeKind::Index);
    let ok = match ctx.op_name_str(op) {
        "arith.extsi" | "arith.extui" => matches!((fi, ti), (Some((a, _)), Some((b, _))) if a < b) && !is_index(from) && !is_index(to),
        "arith.trunci" => matches!((fi, ti), (Some((a, _)), Some((b, _))) if a > b) && !is_index(from) && !is_index(to),
        "arith.sitofp" | "arith.uitofp" => fi.is_some() && tf.is_some(),
        "arith.fptosi" | "arith.fptoui" => ff.is_some() && ti.is_some(),
        "arith.extf" => matches!((ff, tf), (Some(a), Some(b)) if a.width() < b.width()),
        "arith.truncf" => matches!((ff, tf), (Some(a), Some(b)) if a.width() > b.width()),
        "arith.index_cast" | "arith.index_castui" => fi.is_some() && ti.is_some() && (is_index(from) != is_index(to)),
        "arith.bitcast" => {
            let w = |t| int_info(ctx, t).map(|i| i.0).or(float_kind(ctx, t).map(|k| k.width()));
            w(from).is_some() && w(from) == w(to) && !is_index(from) && !is_index(to)
        }
        _ => true,
    };
    if ok {
        Ok(())
    } else {
        Err(format!("cannot cast {} to {}", cuprite_ir::print::type_to_string(ctx, from), cuprite_ir::print::type_to_string(ctx, to)))
    }
}

// ----- folders ---------------------------------------------------------------------------

fn value(v: cuprite_ir::ValueId) -> FoldOutcome {
    FoldOutcome::Replace(smallvec::smallvec![FoldResult::Value(v)])
}

fn attr(a: AttrId) -> FoldOutcome {
    FoldOutcome::Replace(smallvec::smallvec![FoldResult::Attr(a)])
}

/// Evaluates integer binary op `name` on `a`, `b` at `width` bits; `None` where the result
/// is undefined (division by zero, signed overflow of division, over-wide shifts: poison).
pub fn eval_int_binary(name: &str, a: i128, b: i128, width: u32) -> Option<i128> {
    let (ua, ub) = (unsigned(a, width), unsigned(b, width));
    let (sa, sb) = (signed(a, width), signed(b, width));
    let min = if width >= 128 { i128::MIN } else { -(1i128 << (width - 1)) };
    let r: i128 = match name {
        "arith.addi" => ua.wrapping_add(ub) as i128,
        "arith.subi" => ua.wrapping_sub(ub) as i128,
        "arith.muli" => ua.wrapping_mul(ub) as i128,
        "arith.andi" => (ua & ub) as i128,
        "arith.ori" => (ua | ub) as i128,
        "arith.xori" => (ua ^ ub) as i128,
        "arith.divui" => (ua.checked_div(ub)?) as i128,
        "arith.remui" => (ua.checked_rem(ub)?) as i128,
        "arith.divsi" => {
            if sb == 0 || (sa == min && sb == -1) {
                return None;
            }
            sa / sb
        }
        "arith.remsi" => {
            if sb == 0 || (sa == min && sb == -1) {
                return None;
            }
            sa % sb
        }
        "arith.shli" | "arith.shrui" | "arith.shrsi" => {
            if ub >= width as u128 {
                return None;
            }
            let s = ub as u32;
            match name {
                "arith.shli" => (ua << s) as i128,
                "arith.shrui" => (ua >> s) as i128,
                _ => sa >> s,
            }
        }
        "arith.maxsi" => sa.max(sb),
        "arith.minsi" => sa.min(sb),
        "arith.maxui" => ua.max(ub) as i128,
        "arith.minui" => ua.min(ub) as i128,
        _ => return None,
    };
    Some(normalize_int(r, width, Signedness::Signless))
}

/// The registered name of `op` (a `'static` string: no allocation).
fn static_name(ctx: &Context, op: OpId) -> &'static str {
    ctx.op_info(op).map_or("", |i| i.name)
}

fn fold_int_binary(ctx: &mut Context, op: OpId, consts: &[Option<AttrId>]) -> FoldOutcome {
    let name = static_name(ctx, op);
    let (x, y) = (ctx.operand(op, 0), ctx.operand(op, 1));
    let ty = ctx.value_type(ctx.result(op, 0));
    let Some((width, _)) = int_info(ctx, ty) else { return FoldOutcome::None };
    let (ca, cb) = (consts[0].and_then(|a| int_value(ctx, a)), consts[1].and_then(|a| int_value(ctx, a)));
    if let (Some(a), Some(b)) = (ca, cb) {
        return match eval_int_binary(name, a, b, width) {
            Some(r) => attr(ctx.int_attr(r, ty)),
            None => FoldOutcome::None,
        };
    }
    // Constants go to the right of commutative ops.
    if ca.is_some() && cb.is_none() && ctx.has_trait(op, Traits::COMMUTATIVE) {
        ctx.set_operands(op, &[y, x]);
        return FoldOutcome::InPlace;
    }
    let all_ones = normalize_int(-1, width, Signedness::Signless);
    let zero = || 0i128;
    match (name, cb) {
        ("arith.addi" | "arith.subi" | "arith.ori" | "arith.xori" | "arith.shli" | "arith.shrsi" | "arith.shrui", Some(0)) => {
            return value(x)
        }
        ("arith.muli" | "arith.divsi" | "arith.divui", Some(1)) => return value(x),
        ("arith.muli" | "arith.andi", Some(0)) => return attr(ctx.int_attr(zero(), ty)),
        ("arith.remsi" | "arith.remui", Some(1)) => return attr(ctx.int_attr(zero(), ty)),
        ("arith.andi", Some(v)) if v == all_ones => return value(x),
        ("arith.ori", Some(v)) if v == all_ones => return attr(ctx.int_attr(all_ones, ty)),
        _ => {}
    }
    if x == y {
        match name {
            "arith.subi" | "arith.xori" => return attr(ctx.int_attr(0, ty)),
            "arith.andi" | "arith.ori" | "arith.maxsi" | "arith.minsi" | "arith.maxui" | "arith.minui" => return value(x),
            _ => {}
        }
    }
    FoldOutcome::None
}

fn fold_float_binary(ctx: &mut Context, op: OpId, consts: &[Option<AttrId>]) -> FoldOutcome {
    let name = static_name(ctx, op);
    let ty = ctx.value_type(ctx.result(op, 0));
    let (a, b) = (consts[0].and_then(|c| float_value(ctx, c)), consts[1].and_then(|c| float_value(ctx, c)));
    if let (Some((a, k)), Some((b, _))) = (a, b) {
        // f32/f16 results computed in f64 and rounded once are correctly rounded for
        // + - * / (f64 has more than 2p+2 bits of precision).
        let r = match name {
            "arith.addf" => a + b,
            "arith.subf" => a - b,
            "arith.mulf" => a * b,
            "arith.divf" => a / b,
            "arith.remf" => a % b,
            "arith.maximumf" => maximum_minimum(a, b, true),
            "arith.minimumf" => maximum_minimum(a, b, false),
            _ => return FoldOutcome::None,
        };
        let bits = f64_to_float_bits(r, k);
        return attr(ctx.attr(AttrKind::Float { bits, ty }));
    }
    let x = ctx.operand(op, 0);
    match (name, b) {
        // x + -0.0 == x for every x (including +0.0 and NaN payloads).
        ("arith.addf", Some((v, _))) if v == 0.0 && v.is_sign_negative() => value(x),
        ("arith.subf", Some((v, _))) if v == 0.0 && v.is_sign_positive() => value(x),
        ("arith.mulf" | "arith.divf", Some((1.0, _))) => value(x),
        _ => FoldOutcome::None,
    }
}

fn fold_negf(ctx: &mut Context, op: OpId, consts: &[Option<AttrId>]) -> FoldOutcome {
    let ty = ctx.value_type(ctx.result(op, 0));
    match consts[0].map(|c| ctx.attr_kind(c).clone()) {
        Some(AttrKind::Float { bits, ty: t }) => {
            let Some(k) = float_kind(ctx, t) else { return FoldOutcome::None };
            attr(ctx.attr(AttrKind::Float { bits: bits ^ (1u64 << (k.width() - 1)), ty }))
        }
        _ => FoldOutcome::None,
    }
}

/// Evaluates integer comparison `pred` (MLIR's numbering: eq ne slt sle sgt sge ult ule ugt uge).
pub fn eval_cmpi(pred: i128, a: i128, b: i128, width: u32) -> Option<bool> {
    let (sa, sb, ua, ub) = (signed(a, width), signed(b, width), unsigned(a, width), unsigned(b, width));
    Some(match pred {
        0 => ua == ub,
        1 => ua != ub,
        2 => sa < sb,
        3 => sa <= sb,
        4 => sa > sb,
        5 => sa >= sb,
        6 => ua < ub,
        7 => ua <= ub,
        8 => ua > ub,
        9 => ua >= ub,
        _ => return None,
    })
}

fn fold_cmpi(ctx: &mut Context, op: OpId, consts: &[Option<AttrId>]) -> FoldOutcome {
    let Some(pred) = ctx.get_attr(op, "predicate").and_then(|a| int_value(ctx, a)) else { return FoldOutcome::None };
    let i1 = ctx.i1();
    let (x, y) = (ctx.operand(op, 0), ctx.operand(op, 1));
    let Some((width, _)) = int_info(ctx, ctx.value_type(x)) else { return FoldOutcome::None };
    let r = if x == y {
        Some(matches!(pred, 0 | 3 | 5 | 7 | 9))
    } else if let (Some(a), Some(b)) = (consts[0].and_then(|c| int_value(ctx, c)), consts[1].and_then(|c| int_value(ctx, c))) {
        eval_cmpi(pred, a, b, width)
    } else {
        None
    };
    match r {
        Some(b) => attr(ctx.int_attr(b as i128, i1)),
        None => FoldOutcome::None,
    }
}

fn fold_select(ctx: &mut Context, op: OpId, consts: &[Option<AttrId>]) -> FoldOutcome {
    let (t, f) = (ctx.operand(op, 1), ctx.operand(op, 2));
    if t == f {
        return value(t);
    }
    match consts[0].and_then(|c| int_value(ctx, c)) {
        Some(1) => value(t),
        Some(0) => value(f),
        _ => FoldOutcome::None,
    }
}

fn fold_cast(ctx: &mut Context, op: OpId, consts: &[Option<AttrId>]) -> FoldOutcome {
    let Some(c) = consts[0] else { return FoldOutcome::None };
    let to = ctx.value_type(ctx.result(op, 0));
    let from = ctx.value_type(ctx.operand(op, 0));
    let name = static_name(ctx, op);
    match (name, ctx.attr_kind(c).clone()) {
        ("arith.extsi" | "arith.trunci" | "arith.index_cast", AttrKind::Integer { value, .. }) => {
            let w = int_info(ctx, from).map_or(64, |i| i.0);
            attr(ctx.int_attr(signed(value, w), to))
        }
        ("arith.extui" | "arith.index_castui", AttrKind::Integer { value, .. }) => {
            let w = int_info(ctx, from).map_or(64, |i| i.0);
            attr(ctx.int_attr(unsigned(value, w) as i128, to))
        }
        ("arith.sitofp" | "arith.uitofp", AttrKind::Integer { value, .. }) => {
            let (Some(k), Some((w, _))) = (float_kind(ctx, to), int_info(ctx, from)) else { return FoldOutcome::None };
            let v = if name == "arith.sitofp" { signed(value, w) } else { unsigned(value, w) as i128 };
            // Integer -> f64 -> narrower float can double-round; only fold when exact in f64.
            if v.unsigned_abs() > (1u128 << 53) && k != FloatKind::F64 {
                return FoldOutcome::None;
            }
            let bits = if k == FloatKind::F32 { (v as f32).to_bits() as u64 } else { f64_to_float_bits(v as f64, k) };
            attr(ctx.attr(AttrKind::Float { bits, ty: to }))
        }
        _ => FoldOutcome::None,
    }
}

// ----- canonicalization patterns ---------------------------------------------------------

/// `op(op(x, c1), c2) -> op(x, c1 op c2)` for associative `op`.
fn reassociate_constants(op: OpId, rw: &mut Rewriter<'_>) -> bool {
    let ctx = &*rw.ctx;
    let name = ctx.op_name_str(op).to_string();
    let Some(c2) = constant_value(ctx, ctx.operand(op, 1)).and_then(|a| int_value(ctx, a)) else { return false };
    let Some(inner) = ctx.defining_op(ctx.operand(op, 0)) else { return false };
    if ctx.op_name_str(inner) != name || !ctx.has_one_use(ctx.operand(op, 0)) {
        return false;
    }
    let Some(c1) = constant_value(ctx, ctx.operand(inner, 1)).and_then(|a| int_value(ctx, a)) else { return false };
    let x = ctx.operand(inner, 0);
    let ty = ctx.value_type(ctx.result(op, 0));
    let Some((width, _)) = int_info(ctx, ty) else { return false };
    let Some(c) = eval_int_binary(&name, c1, c2, width) else { return false };
    let loc = ctx.op_loc(op);
    rw.set_insertion_point_before(op);
    let cv = rw.ctx.int_attr(c, ty);
    let k = build_constant(rw, cv, ty, loc);
    let kv = rw.ctx.result(k, 0);
    let new = build_int_binary(rw, &name, x, kv, loc);
    let nv = rw.ctx.result(new, 0);
    rw.replace_op(op, &[nv]);
    true
}

fn canonicalize_addi(set: &mut PatternSet) {
    set.add_fn("arith.addi-reassociate-constants", "arith.addi", 1, reassociate_constants);
}

fn canonicalize_muli(set: &mut PatternSet) {
    set.add_fn("arith.muli-reassociate-constants", "arith.muli", 1, reassociate_constants);
}

/// `select(c, true, false) -> c` on i1.
fn canonicalize_select(set: &mut PatternSet) {
    set.add_fn("arith.select-i1-identity", "arith.select", 1, |op, rw| {
        let ctx = &*rw.ctx;
        let t = constant_value(ctx, ctx.operand(op, 1)).and_then(|a| int_value(ctx, a));
        let f = constant_value(ctx, ctx.operand(op, 2)).and_then(|a| int_value(ctx, a));
        if int_info(ctx, ctx.value_type(ctx.result(op, 0))) == Some((1, Signedness::Signless)) && t == Some(1) && f == Some(0) {
            let c = ctx.operand(op, 0);
            rw.replace_op(op, &[c]);
            return true;
        }
        false
    });
}

/// IEEE 754-2019 maximum/minimum (MLIR's `maximumf`/`minimumf`): NaN if either is NaN, and
/// +0 > -0.
fn maximum_minimum(a: f64, b: f64, max: bool) -> f64 {
    if a.is_nan() || b.is_nan() {
        return f64::NAN;
    }
    if a == b {
        // Equal values differ at most in the sign of zero.
        return if a.is_sign_negative() == max { b } else { a };
    }
    if max {
        a.max(b)
    } else {
        a.min(b)
    }
}

/// Evaluates float comparison `pred` (MLIR's numbering: false oeq ogt oge olt ole one ord
/// ueq ugt uge ult ule une uno true). Ordered predicates are false on NaN, unordered true.
pub fn eval_cmpf(pred: i128, a: f64, b: f64) -> Option<bool> {
    let unordered = a.is_nan() || b.is_nan();
    let ordered = |r: bool| !unordered && r;
    let unord = |r: bool| unordered || r;
    Some(match pred {
        0 => false,
        1 => ordered(a == b),
        2 => ordered(a > b),
        3 => ordered(a >= b),
        4 => ordered(a < b),
        5 => ordered(a <= b),
        6 => ordered(a != b),
        7 => !unordered,
        8 => unord(a == b),
        9 => unord(a > b),
        10 => unord(a >= b),
        11 => unord(a < b),
        12 => unord(a <= b),
        13 => unord(a != b),
        14 => unordered,
        15 => true,
        _ => return None,
    })
}

fn fold_cmpf(ctx: &mut Context, op: OpId, consts: &[Option<AttrId>]) -> FoldOutcome {
    let Some(pred) = ctx.get_attr(op, "predicate").and_then(|a| int_value(ctx, a)) else { return FoldOutcome::None };
    let i1 = ctx.i1();
    // `false` and `true` do not look at the operands.
    let r = match (pred, consts[0].and_then(|c| float_value(ctx, c)), consts[1].and_then(|c| float_value(ctx, c))) {
        (0, ..) => Some(false),
        (15, ..) => Some(true),
        (p, Some((a, _)), Some((b, _))) => eval_cmpf(p, a, b),
        _ => None,
    };
    match r {
        Some(b) => attr(ctx.int_attr(b as i128, i1)),
        None => FoldOutcome::None,
    }
}

fn fold_constant(ctx: &mut Context, op: OpId, _: &[Option<AttrId>]) -> FoldOutcome {
    ctx.get_attr(op, "value").map_or(FoldOutcome::None, attr)
}

// ----- custom forms ----------------------------------------------------------------------

/// `arith.constant {attrs} 42 : i32` (MLIR's `attr-dict $value`).
/// `arith.constant`'s custom form (`attr-dict $value`, the type from the value), for any
/// op with a `value` property (`cuda.constant` too).
pub fn print_constant(p: &mut OpPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    p.attr_dict(op, &["value"], None);
    if let Some(v) = p.ctx().get_attr(op, "value") {
        p.write(" ");
        p.attr(v);
    }
    Ok(())
}

/// Parses what [`print_constant`] prints.
pub fn parse_constant(p: &mut OpParser<'_, '_>, st: &mut OperationState) -> Result<(), Diagnostic> {
    p.parse_optional_attr_dict(&mut st.attrs)?;
    let v = p.parse_attr()?;
    let ty = match p.ctx().attr_kind(v) {
        AttrKind::Integer { ty, .. } | AttrKind::Float { ty, .. } => *ty,
        _ => return Err(p.error_here("expected an integer or float constant with its type")),
    };
    let k = p.ctx().sym("value");
    st.props.push((k, v));
    st.result_types.push(ty);
    Ok(())
}

/// `arith.select %c, %a, %b {attrs} : i32` (MLIR's hand-written form).
fn print_select(p: &mut OpPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    let ctx = p.ctx();
    let vals = ctx.operand_vec(op);
    p.write(" ");
    p.operand_list(&vals);
    p.attr_dict(op, &[], None);
    p.write(" : ");
    p.ty(ctx.value_type(ctx.result(op, 0)));
    Ok(())
}

fn parse_select(p: &mut OpParser<'_, '_>, st: &mut OperationState) -> Result<(), Diagnostic> {
    let c = p.parse_operand()?;
    p.expect(Tok::Comma)?;
    let t = p.parse_operand()?;
    p.expect(Tok::Comma)?;
    let f = p.parse_operand()?;
    p.parse_optional_attr_dict(&mut st.attrs)?;
    p.expect(Tok::Colon)?;
    let mut ty = p.parse_type()?;
    let mut cond_ty = p.ctx().i1();
    if p.eat(Tok::Comma) {
        cond_ty = ty;
        ty = p.parse_type()?;
    }
    st.operands.push(p.resolve_operand(c, cond_ty)?);
    st.operands.push(p.resolve_operand(t, ty)?);
    st.operands.push(p.resolve_operand(f, ty)?);
    st.result_types.push(ty);
    Ok(())
}
