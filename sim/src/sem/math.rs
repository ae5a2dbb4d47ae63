//! The standard `math` dialect's semantics, for the ops the frontend emits: IEEE-exact
//! operations on floats, correctly rounded to nearest even (`sqrt`, `fma` rounded once),
//! `absf` and `copysign` on the sign bit, and rounding to an integral value (`trunc` toward
//! zero, `floor` down, `ceil` up, `roundeven` to nearest even). Written from the ops'
//! definitions, not from any lowering.

use super::ty_of;
use crate::code::{BinOp, Builder, FMode, Inst, Reg, Rnd, UnOp};
use cuprite_ir::{Context, OpId};

/// Translates `math` op `op` (operands in registers `o`, its result to `dst`).
pub(crate) fn translate(ctx: &Context, b: &mut Builder, op: OpId, o: &[Reg], dst: Reg) -> Result<(), String> {
    let name = ctx.op_name_str(op);
    let short = name.strip_prefix("math.").ok_or_else(|| format!("'{name}' is not a math op"))?;
    let res_t = ctx.results(op).first().map(|&r| ctx.value_type(r)).ok_or_else(|| format!("'{name}' without a result"))?;
    let ty = ty_of(ctx, res_t).ok_or_else(|| format!("'{name}' on a type the simulator does not know"))?;
    let arity = match short {
        "fma" => 3,
        "copysign" => 2,
        _ => 1,
    };
    if o.len() < arity {
        return Err(format!("'{name}' needs {arity} operands"));
    }
    let un = |b: &mut Builder, op: UnOp| b.emit(Inst::Un { op, ty, dst, a: o[0] });
    match short {
        "sqrt" => un(b, UnOp::Sqrt(FMode::RN)),
        "absf" => un(b, UnOp::FAbs(false)),
        "trunc" => un(b, UnOp::RoundInt(Rnd::Rz, false)),
        "floor" => un(b, UnOp::RoundInt(Rnd::Rm, false)),
        "ceil" => un(b, UnOp::RoundInt(Rnd::Rp, false)),
        "roundeven" => un(b, UnOp::RoundInt(Rnd::Rn, false)),
        "copysign" => b.emit(Inst::Bin { op: BinOp::Copysign, ty, dst, a: o[0], b: o[1] }),
        "fma" => b.emit(Inst::Fma { ty, mode: FMode::RN, dst, a: o[0], b: o[1], c: o[2] }),
        other => return Err(format!("math.{other} is not simulated")),
    }
    Ok(())
}
