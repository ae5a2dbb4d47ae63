//! The `math` dialect, declared in `ops.td`. This module holds its folders: constant
//! operands are evaluated with Rust's `f64` functions and rounded once to the result type
//! (so f32 results may differ from a correctly rounded one in the last place for the
//! transcendental functions; + - * / sqrt fma are exact), integer ops wrap.

use cuprite_ir::{
    context::normalize_int,
    print::{f64_to_float_bits, float_bits_to_f64},
    AttrId, AttrKind, Context, FloatKind, FoldOutcome, FoldResult, OpId, Signedness, TypeKind,
};

/// Generated from `ops.td`.
#[allow(clippy::all, dead_code)]
pub mod ops {
    include!(concat!(env!("OUT_DIR"), "/math.rs"));
}
pub use ops::register;

/// Folded values become `arith.constant`s, as in MLIR.
fn materialize_constant(ctx: &mut Context, attr: AttrId, ty: cuprite_ir::TypeId, loc: cuprite_ir::LocId) -> Option<OpId> {
    crate::arith::materialize_constant(ctx, attr, ty, loc)
}

fn attr(a: AttrId) -> FoldOutcome {
    FoldOutcome::Replace(smallvec::smallvec![FoldResult::Attr(a)])
}

fn float_of(ctx: &Context, a: Option<AttrId>) -> Option<(f64, FloatKind)> {
    match ctx.attr_kind(a?) {
        AttrKind::Float { bits, ty } => match ctx.type_kind(*ty) {
            TypeKind::Float(k) => Some((float_bits_to_f64(*bits, *k), *k)),
            _ => None,
        },
        _ => None,
    }
}

fn float_attr(ctx: &mut Context, op: OpId, v: f64, k: FloatKind) -> FoldOutcome {
    let ty = ctx.value_type(ctx.result(op, 0));
    let bits = f64_to_float_bits(v, k);
    attr(ctx.attr(AttrKind::Float { bits, ty }))
}

fn name(ctx: &Context, op: OpId) -> &'static str {
    ctx.op_info(op).map_or("", |i| i.name)
}

fn fold_float_unary(ctx: &mut Context, op: OpId, consts: &[Option<AttrId>]) -> FoldOutcome {
    let Some((x, k)) = float_of(ctx, consts[0]) else { return FoldOutcome::None };
    let r = match name(ctx, op) {
        "math.sqrt" => x.sqrt(),
        "math.rsqrt" => 1.0 / x.sqrt(),
        "math.cbrt" => x.cbrt(),
        "math.exp" => x.exp(),
        "math.exp2" => x.exp2(),
        "math.expm1" => x.exp_m1(),
        "math.log" => x.ln(),
        "math.log2" => x.log2(),
        "math.log10" => x.log10(),
        "math.log1p" => x.ln_1p(),
        "math.sin" => x.sin(),
        "math.cos" => x.cos(),
        "math.tan" => x.tan(),
        "math.tanh" => x.tanh(),
        "math.atan" => x.atan(),
        "math.absf" => x.abs(),
        "math.ceil" => x.ceil(),
        "math.floor" => x.floor(),
        "math.round" => x.round(),
        "math.roundeven" => x.round_ties_even(),
        "math.trunc" => x.trunc(),
        // erf has no exact-enough f64 implementation here: left unfolded.
        _ => return FoldOutcome::None,
    };
    float_attr(ctx, op, r, k)
}

fn fold_float_binary(ctx: &mut Context, op: OpId, consts: &[Option<AttrId>]) -> FoldOutcome {
    let (Some((a, k)), Some((b, _))) = (float_of(ctx, consts[0]), float_of(ctx, consts[1])) else { return FoldOutcome::None };
    let r = match name(ctx, op) {
        "math.atan2" => a.atan2(b),
        "math.powf" => a.powf(b),
        "math.copysign" => a.copysign(b),
        _ => return FoldOutcome::None,
    };
    float_attr(ctx, op, r, k)
}

fn fold_fma(ctx: &mut Context, op: OpId, consts: &[Option<AttrId>]) -> FoldOutcome {
    let (Some((a, k)), Some((b, _)), Some((c, _))) = (float_of(ctx, consts[0]), float_of(ctx, consts[1]), float_of(ctx, consts[2])) else {
        return FoldOutcome::None;
    };
    // Only f64 is rounded once; a narrower fma evaluated in f64 could round twice.
    if k != FloatKind::F64 {
        return FoldOutcome::None;
    }
    float_attr(ctx, op, a.mul_add(b, c), k)
}

/// `clampf(x, lo, hi)` of constants: `min(max(x, lo), hi)`; not folded if any is NaN.
fn fold_clampf(ctx: &mut Context, op: OpId, consts: &[Option<AttrId>]) -> FoldOutcome {
    let (Some((x, k)), Some((lo, _)), Some((hi, _))) = (float_of(ctx, consts[0]), float_of(ctx, consts[1]), float_of(ctx, consts[2]))
    else {
        return FoldOutcome::None;
    };
    if x.is_nan() || lo.is_nan() || hi.is_nan() {
        return FoldOutcome::None;
    }
    float_attr(ctx, op, x.max(lo).min(hi), k)
}

fn int_of(ctx: &Context, a: Option<AttrId>) -> Option<i128> {
    match ctx.attr_kind(a?) {
        AttrKind::Integer { value, .. } => Some(*value),
        _ => None,
    }
}

fn width_of(ctx: &Context, op: OpId) -> u32 {
    ctx.int_width(ctx.value_type(ctx.result(op, 0))).unwrap_or(64)
}

fn fold_integer_unary(ctx: &mut Context, op: OpId, consts: &[Option<AttrId>]) -> FoldOutcome {
    let Some(v) = int_of(ctx, consts[0]) else { return FoldOutcome::None };
    let w = width_of(ctx, op);
    let u = if w >= 128 { v as u128 } else { (v as u128) & ((1u128 << w) - 1) };
    let r: i128 = match name(ctx, op) {
        "math.absi" => normalize_int(v, w, Signedness::Signless).wrapping_abs(),
        "math.ctlz" => (u.leading_zeros() - (128 - w)) as i128,
        "math.cttz" => {
            if u == 0 {
                w as i128
            } else {
                u.trailing_zeros() as i128
            }
        }
        "math.ctpop" => u.count_ones() as i128,
        _ => return FoldOutcome::None,
    };
    let ty = ctx.value_type(ctx.result(op, 0));
    let r = normalize_int(r, w, Signedness::Signless);
    attr(ctx.int_attr(r, ty))
}

fn fold_ipowi(ctx: &mut Context, op: OpId, consts: &[Option<AttrId>]) -> FoldOutcome {
    let (Some(b), Some(e)) = (int_of(ctx, consts[0]), int_of(ctx, consts[1])) else { return FoldOutcome::None };
    let w = width_of(ctx, op);
    let e = normalize_int(e, w, Signedness::Signless);
    // Negative exponents: 1 for base 1, +-1 for base -1, undefined (not folded) otherwise.
    let b = normalize_int(b, w, Signedness::Signless);
    let r = if e < 0 {
        match b {
            1 => 1,
            -1 => {
                if e % 2 == 0 {
                    1
                } else {
                    -1
                }
            }
            _ => return FoldOutcome::None,
        }
    } else {
        let (mut acc, mut base, mut e) = (1i128, b, e as u128);
        while e > 0 {
            if e & 1 == 1 {
                acc = normalize_int(acc.wrapping_mul(base), w, Signedness::Signless);
            }
            base = normalize_int(base.wrapping_mul(base), w, Signedness::Signless);
            e >>= 1;
        }
        acc
    };
    let ty = ctx.value_type(ctx.result(op, 0));
    attr(ctx.int_attr(r, ty))
}

fn fold_classification(ctx: &mut Context, op: OpId, consts: &[Option<AttrId>]) -> FoldOutcome {
    let Some((x, _)) = float_of(ctx, consts[0]) else { return FoldOutcome::None };
    let r = match name(ctx, op) {
        "math.isnan" => x.is_nan(),
        "math.isinf" => x.is_infinite(),
        "math.isfinite" => x.is_finite(),
        _ => return FoldOutcome::None,
    };
    let i1 = ctx.i1();
    attr(ctx.int_attr(r as i128, i1))
}
