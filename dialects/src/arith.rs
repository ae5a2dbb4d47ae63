//! The `arith` dialect: integer and float arithmetic, comparisons, select, casts and
//! constants, with constant folding (wrapping and signedness as LLVM/MLIR define them),
//! algebraic folds (x+0, x*1, x*0, x-x, x&x, ...) and a few canonicalization patterns.

use cuprite_ir::{
    context::normalize_int,
    print::{f64_to_float_bits, float_bits_to_f64},
    rewrite::{constant_value, PatternSet, Rewriter},
    AttrId, AttrKind, Context, DialectInfo, FloatKind, FoldOutcome, FoldResult, LocId, OpId, OpInfo, OperationState, Registry, Signedness,
    Traits, TypeId, TypeKind,
};

/// Integer binary ops: (name, commutative, has overflowFlags).
const INT_BINARY: &[(&str, bool, bool)] = &[
    ("arith.addi", true, true),
    ("arith.subi", false, true),
    ("arith.muli", true, true),
    ("arith.divsi", false, false),
    ("arith.divui", false, false),
    ("arith.remsi", false, false),
    ("arith.remui", false, false),
    ("arith.andi", true, false),
    ("arith.ori", true, false),
    ("arith.xori", true, false),
    ("arith.shli", false, true),
    ("arith.shrsi", false, false),
    ("arith.shrui", false, false),
    ("arith.maxsi", true, false),
    ("arith.maxui", true, false),
    ("arith.minsi", true, false),
    ("arith.minui", true, false),
];

/// Float binary ops (all carry `fastmath`).
const FLOAT_BINARY: &[(&str, bool)] = &[
    ("arith.addf", true),
    ("arith.subf", false),
    ("arith.mulf", true),
    ("arith.divf", false),
    ("arith.remf", false),
    ("arith.maximumf", true),
    ("arith.minimumf", true),
];

/// Casts: (name, kind).
const CASTS: &[&str] = &[
    "arith.extsi",
    "arith.extui",
    "arith.trunci",
    "arith.sitofp",
    "arith.uitofp",
    "arith.fptosi",
    "arith.fptoui",
    "arith.extf",
    "arith.truncf",
    "arith.index_cast",
    "arith.index_castui",
    "arith.bitcast",
];

/// Registers the dialect.
pub fn register(reg: &mut Registry) {
    let mut ops = vec![
        OpInfo {
            summary: "An integer, index or float constant",
            traits: Traits::PURE | Traits::CONSTANT_LIKE,
            verify: Some(verify_constant),
            fold: Some(|ctx, op, _| {
                ctx.get_attr(op, "value").map_or(FoldOutcome::None, |a| FoldOutcome::Replace(smallvec::smallvec![FoldResult::Attr(a)]))
            }),
            ..OpInfo::new("arith.constant")
        },
        OpInfo {
            summary: "Integer comparison",
            traits: Traits::PURE | Traits::ELEMENTWISE,
            verify: Some(verify_cmpi),
            fold: Some(fold_cmpi),
            ..OpInfo::new("arith.cmpi")
        },
        OpInfo {
            summary: "Float comparison",
            traits: Traits::PURE | Traits::ELEMENTWISE,
            verify: Some(verify_cmpf),
            ..OpInfo::new("arith.cmpf")
        },
        OpInfo {
            summary: "Chooses one of two values by an i1 condition",
            traits: Traits::PURE | Traits::ELEMENTWISE,
            verify: Some(verify_select),
            fold: Some(fold_select),
            canonicalize: Some(select_patterns),
            ..OpInfo::new("arith.select")
        },
        OpInfo {
            summary: "Float negation",
            traits: Traits::PURE | Traits::SAME_OPERANDS_AND_RESULT_TYPE | Traits::ELEMENTWISE,
            verify: Some(verify_float_operands),
            fold: Some(fold_negf),
            ..OpInfo::new("arith.negf")
        },
    ];
    for &(name, comm, _) in INT_BINARY {
        let mut t = Traits::PURE | Traits::SAME_OPERANDS_AND_RESULT_TYPE | Traits::ELEMENTWISE;
        if comm {
            t = t | Traits::COMMUTATIVE;
        }
        let canon: Option<fn(&mut PatternSet)> = match name {
            "arith.addi" => Some(addi_patterns),
            "arith.muli" => Some(muli_patterns),
            _ => None,
        };
        ops.push(OpInfo {
            summary: "Integer binary arithmetic",
            traits: t,
            verify: Some(verify_int_binary),
            fold: Some(fold_int_binary),
            canonicalize: canon,
            ..OpInfo::new(name)
        });
    }
    for &(name, comm) in FLOAT_BINARY {
        let mut t = Traits::PURE | Traits::SAME_OPERANDS_AND_RESULT_TYPE | Traits::ELEMENTWISE;
        if comm {
            t = t | Traits::COMMUTATIVE;
        }
        ops.push(OpInfo {
            summary: "Float binary arithmetic",
            traits: t,
            verify: Some(verify_float_operands),
            fold: Some(fold_float_binary),
            ..OpInfo::new(name)
        });
    }
    for &name in CASTS {
        ops.push(OpInfo {
            summary: "Conversion between numeric types",
            traits: Traits::PURE | Traits::ELEMENTWISE,
            verify: Some(verify_cast),
            fold: Some(fold_cast),
            ..OpInfo::new(name)
        });
    }
    reg.register(DialectInfo { name: "arith", materialize_constant: Some(materialize_constant) }, ops);
}

// ----- helpers ---------------------------------------------------------------------------

fn int_info(ctx: &Context, t: TypeId) -> Option<(u32, Signedness)> {
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

fn unsigned(v: i128, width: u32) -> u128 {
    if width >= 128 {
        v as u128
    } else {
        (v as u128) & ((1u128 << width) - 1)
    }
}

fn signed(v: i128, width: u32) -> i128 {
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
    if INT_BINARY.iter().any(|&(n, _, ovf)| n == name && ovf) {
        let k = rw.ctx.sym("overflowFlags");
        props.push((k, opaque(rw.ctx, ".overflow<none>")));
    }
    rw.create_simple(name, &[lhs, rhs], &[ty], props, loc)
}

fn materialize_constant(ctx: &mut Context, attr: AttrId, ty: TypeId, loc: LocId) -> Option<OpId> {
    let value = match (ctx.attr_kind(attr).clone(), ctx.type_kind(ty).clone()) {
        (AttrKind::Integer { ty: at, .. }, _) if at == ty => attr,
        (AttrKind::Integer { value, .. }, TypeKind::Integer { .. } | TypeKind::Index) => ctx.int_attr(value, ty),
        (AttrKind::Float { ty: at, .. }, _) if at == ty => attr,
        _ => return None,
    };
    let props = ctx.dict1(ctx.value_sym(), value);
    let name = ctx.sym("arith.constant");
    let empty = ctx.empty_dict();
    Some(ctx.create_op_parts(name, loc, &[], &[ty], props, empty, Vec::new(), &[]))
}

// ----- verifiers -------------------------------------------------------------------------

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

fn check_arity(ctx: &Context, op: OpId, operands: usize) -> Result<(), String> {
    if ctx.num_operands(op) != operands || ctx.num_results(op) != 1 {
        return Err(format!("expects {operands} operand(s) and 1 result"));
    }
    Ok(())
}

fn verify_int_binary(ctx: &Context, op: OpId) -> Result<(), String> {
    check_arity(ctx, op, 2)?;
    if int_info(ctx, ctx.value_type(ctx.operand(op, 0))).is_none() {
        return Err("operands must be signless-integer-like".into());
    }
    Ok(())
}

fn verify_float_operands(ctx: &Context, op: OpId) -> Result<(), String> {
    let n = if ctx.is_op(op, "arith.negf") { 1 } else { 2 };
    check_arity(ctx, op, n)?;
    if float_kind(ctx, ctx.value_type(ctx.operand(op, 0))).is_none() {
        return Err("operands must be floating-point".into());
    }
    Ok(())
}

fn predicate(ctx: &Context, op: OpId) -> Option<i128> {
    int_value(ctx, ctx.get_attr(op, "predicate")?)
}

fn verify_cmp(ctx: &Context, op: OpId, max: i128, float: bool) -> Result<(), String> {
    check_arity(ctx, op, 2)?;
    let p = predicate(ctx, op).ok_or("requires an integer attribute 'predicate'")?;
    if !(0..=max).contains(&p) {
        return Err(format!("predicate {p} is out of range (0 to {max})"));
    }
    let (a, b) = (ctx.value_type(ctx.operand(op, 0)), ctx.value_type(ctx.operand(op, 1)));
    if a != b {
        return Err("operands must have the same type".into());
    }
    if float != float_kind(ctx, a).is_some() || (!float && int_info(ctx, a).is_none()) {
        return Err(format!("operands must be {}", if float { "floating-point" } else { "integers or index" }));
    }
    if int_info(ctx, ctx.value_type(ctx.result(op, 0))) != Some((1, Signedness::Signless)) {
        return Err("result must be i1".into());
    }
    Ok(())
}

fn verify_cmpi(ctx: &Context, op: OpId) -> Result<(), String> {
    verify_cmp(ctx, op, 9, false)
}

fn verify_cmpf(ctx: &Context, op: OpId) -> Result<(), String> {
    verify_cmp(ctx, op, 15, true)
}

fn verify_select(ctx: &Context, op: OpId) -> Result<(), String> {
    check_arity(ctx, op, 3)?;
    if int_info(ctx, ctx.value_type(ctx.operand(op, 0))) != Some((1, Signedness::Signless)) {
        return Err("condition must be i1".into());
    }
    let r = ctx.value_type(ctx.result(op, 0));
    if ctx.value_type(ctx.operand(op, 1)) != r || ctx.value_type(ctx.operand(op, 2)) != r {
        return Err("true and false values must have the result type".into());
    }
    Ok(())
}

fn verify_cast(ctx: &Context, op: OpId) -> Result<(), String> {
    check_arity(ctx, op, 1)?;
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
    let Some(pred) = predicate(ctx, op) else { return FoldOutcome::None };
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

fn addi_patterns(set: &mut PatternSet) {
    set.add_fn("arith.addi-reassociate-constants", "arith.addi", 1, reassociate_constants);
}

fn muli_patterns(set: &mut PatternSet) {
    set.add_fn("arith.muli-reassociate-constants", "arith.muli", 1, reassociate_constants);
}

/// `select(c, true, false) -> c` on i1.
fn select_patterns(set: &mut PatternSet) {
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
