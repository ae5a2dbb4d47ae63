//! The standard `arith` dialect's semantics, as MLIR defines them on signless integers
//! (the op says signed or unsigned) and IEEE floats rounding to nearest. Used by every level
//! whose functions hold `arith` ops (the `cuda` level's scalar arithmetic today).
//!
//! Written from arith's definition, not from any lowering: division and remainder truncate
//! toward zero, `shrsi` is arithmetic, `fptosi`/`fptoui` round toward zero, `cmpf` with an
//! `o` predicate is false on NaN and with a `u` one true.

use super::ty_of;
use crate::code::{BinOp, Builder, Cvt, FMode, Inst, Reg, Rnd, Ty, UnOp};
use cuprite_dialects::arith::{
    self as ar,
    ops::{CmpFOp, CmpIOp},
};
use cuprite_ir::{AttrKind, Context, OpId, TypeId};

fn scalar(ctx: &Context, t: TypeId) -> Result<Ty, String> {
    ty_of(ctx, t).ok_or_else(|| format!("an arith value of type {}", cuprite_ir::print::type_to_string(ctx, t)))
}

/// A conversion from `from` to `to` (signedness of each side as given).
pub(crate) fn convert(b: &mut Builder, from: (Ty, bool), to: (Ty, bool), dst: Reg, src: Reg) {
    if from.0 == to.0 && !from.0.is_float() {
        b.emit(Inst::Mov { dst, src });
        return;
    }
    let rnd = if from.0.is_float() && !to.0.is_float() { Rnd::Rz } else { Rnd::Rn };
    let cvt = Cvt { from: from.0, from_signed: from.1, to: to.0, to_signed: to.1, rnd, ftz: false, sat: false };
    b.emit(Inst::Cvt { cvt, dst, src });
}

/// Translates `arith` op `op` (operands in registers `o`, its result to `dst`).
pub(crate) fn translate(ctx: &Context, b: &mut Builder, op: OpId, o: &[Reg], dst: Reg) -> Result<(), String> {
    let name = ctx.op_name_str(op);
    let short = name.strip_prefix("arith.").ok_or_else(|| format!("'{name}' is not an arith op"))?;
    let res_t = ctx.results(op).first().map(|&r| ctx.value_type(r)).ok_or_else(|| format!("'{name}' without a result"))?;
    let rt = scalar(ctx, res_t)?;
    let src_t = ctx.operands(op).next().map(|v| ctx.value_type(v));
    let need = |n: usize| if o.len() < n { Err(format!("'{name}' needs {n} operands")) } else { Ok(()) };
    let bin = |b: &mut Builder, op: BinOp| b.emit(Inst::Bin { op, ty: rt, dst, a: o[0], b: o[1] });
    let rn = FMode::RN;
    match short {
        "constant" => {
            let bits = match ar::ConstantOp(op).value_attr(ctx).map(|a| ctx.attr_kind(a)) {
                Some(AttrKind::Integer { value, .. }) => *value as u64 & rt.mask(),
                Some(AttrKind::Float { bits, .. }) => *bits,
                _ => return Err("arith.constant without a scalar value".into()),
            };
            b.emit(Inst::Const { dst, bits });
        }
        "addi" | "subi" | "muli" | "divsi" | "divui" | "remsi" | "remui" | "andi" | "ori" | "xori" | "shli" | "shrsi" | "shrui"
        | "minsi" | "minui" | "maxsi" | "maxui" | "addf" | "subf" | "mulf" | "divf" | "remf" | "maxnumf" | "minnumf" => {
            need(2)?;
            let bop = match short {
                "addi" => BinOp::Add,
                "subi" => BinOp::Sub,
                "muli" => BinOp::Mul,
                "divsi" => BinOp::SDiv,
                "divui" => BinOp::UDiv,
                "remsi" => BinOp::SRem,
                "remui" => BinOp::URem,
                "andi" => BinOp::And,
                "ori" => BinOp::Or,
                "xori" => BinOp::Xor,
                "shli" => BinOp::Shl,
                "shrsi" => BinOp::AShr,
                "shrui" => BinOp::LShr,
                "minsi" => BinOp::SMin,
                "minui" => BinOp::UMin,
                "maxsi" => BinOp::SMax,
                "maxui" => BinOp::UMax,
                "addf" => BinOp::FAdd(rn),
                "subf" => BinOp::FSub(rn),
                "mulf" => BinOp::FMul(rn),
                "divf" => BinOp::FDiv(rn),
                // IEEE maxNum/minNum: a NaN operand gives the other one.
                "maxnumf" => BinOp::FMax(false),
                "minnumf" => BinOp::FMin(false),
                _ => BinOp::FRem,
            };
            bin(b, bop);
        }
        "negf" => {
            need(1)?;
            b.emit(Inst::Un { op: UnOp::FNeg(false), ty: rt, dst, a: o[0] });
        }
        "cmpi" | "cmpf" => {
            need(2)?;
            let t = scalar(ctx, src_t.expect("two operands"))?;
            let cmp = if short == "cmpi" {
                let p = CmpIOp(op).predicate(ctx).ok_or("a cmpi without a known predicate")?;
                super::int_cmp(p.keyword()).ok_or("an unknown cmpi predicate")?
            } else {
                use cuprite_dialects::arith::CmpFPredicate as P;
                match CmpFOp(op).predicate(ctx).ok_or("a cmpf without a known predicate")? {
                    p @ (P::False | P::True) => {
                        b.emit(Inst::Const { dst, bits: u64::from(p == P::True) });
                        return Ok(());
                    }
                    p => super::float_cmp(p.keyword()).ok_or("an unknown cmpf predicate")?,
                }
            };
            b.emit(Inst::Cmp { cmp, ty: t, ftz: false, dst, a: o[0], b: o[1] });
        }
        "select" => {
            need(3)?;
            b.emit(Inst::Select { dst, cond: o[0], a: o[1], b: o[2] });
        }
        "extsi" | "extui" | "trunci" | "sitofp" | "uitofp" | "fptosi" | "fptoui" | "extf" | "truncf" | "bitcast" => {
            need(1)?;
            let from = scalar(ctx, src_t.expect("one operand"))?;
            match short {
                "extsi" | "sitofp" => convert(b, (from, true), (rt, true), dst, o[0]),
                "fptosi" => convert(b, (from, true), (rt, true), dst, o[0]),
                "bitcast" if from.bits() == rt.bits() => b.emit(Inst::Mov { dst, src: o[0] }),
                "bitcast" => return Err("arith.bitcast between types of different sizes".into()),
                _ => convert(b, (from, false), (rt, false), dst, o[0]),
            }
        }
        other => return Err(format!("arith.{other} is not simulated")),
    }
    Ok(())
}
