//! The `ptx` dialect: PTX instructions on virtual registers, after instruction selection
//! (see `ops.td`). Everything is declared in `ops.td`; the PTX text is written by the
//! printer in the `lowering` crate, the only producer of PTX.

/// Generated from `ops.td`.
#[allow(clippy::all, dead_code)]
pub mod ops {
    include!(concat!(env!("OUT_DIR"), "/ptx.rs"));
}
pub use ops::*;

pub mod verify;
pub(crate) use verify::verify_inst;

use cuprite_ir::{parse::OpParser, print::OpPrinter, Diagnostic, OpId, OperationState};

fn print_imm(p: &mut OpPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    crate::arith::print_constant(p, op)
}

fn parse_imm(p: &mut OpParser<'_, '_>, st: &mut OperationState) -> Result<(), Diagnostic> {
    crate::arith::parse_constant(p, st)
}

/// The integer value of `ptx.imm` `op`, if it is an integer immediate.
pub fn int_immediate(ctx: &cuprite_ir::Context, op: OpId) -> Option<i128> {
    match ctx.attr_kind(ImmOp::cast(ctx, op)?.value_attr(ctx)?) {
        cuprite_ir::AttrKind::Integer { value, .. } => Some(*value),
        _ => None,
    }
}

/// The modifiers of PTX instruction `op` (`"global.nc.f32"` of `ld.global.nc.f32`): every
/// instruction op declares `mods` (`Ptx_Inst` in `ops.td`).
pub fn inst_mods(ctx: &cuprite_ir::Context, op: OpId) -> Option<&str> {
    match ctx.attr_kind(ctx.get_attr(op, "mods")?) {
        cuprite_ir::AttrKind::String(s) => Some(s),
        _ => None,
    }
}

/// `(vec_at, vec_len)` of instruction `op`: one element of a vector operand.
pub fn inst_vector_element(ctx: &cuprite_ir::Context, op: OpId) -> Option<(i64, i64)> {
    let int = |name| match ctx.attr_kind(ctx.get_attr(op, name)?) {
        cuprite_ir::AttrKind::Integer { value, .. } => i64::try_from(*value).ok(),
        _ => None,
    };
    Some((int("vec_at")?, int("vec_len")?))
}

/// The constant byte offset of instruction `op`'s address operand (`[%rd1+8]`).
pub fn inst_offset(ctx: &cuprite_ir::Context, op: OpId) -> Option<i64> {
    match ctx.attr_kind(ctx.get_attr(op, "offset")?) {
        cuprite_ir::AttrKind::Integer { value, .. } => i64::try_from(*value).ok(),
        _ => None,
    }
}

/// A load's used bytes (`used_bytes`: NVIDIA's `.pragma "used_bytes_mask N"` before it).
pub fn inst_used_bytes(ctx: &cuprite_ir::Context, op: OpId) -> Option<u32> {
    match ctx.attr_kind(ctx.get_attr(op, "used_bytes")?) {
        cuprite_ir::AttrKind::Integer { value, .. } => u32::try_from(*value).ok(),
        _ => None,
    }
}

/// The strings of array attribute `a` (a function's `params` or `rets`).
pub fn string_list(ctx: &cuprite_ir::Context, a: Option<cuprite_ir::AttrId>) -> Vec<String> {
    match a.map(|a| ctx.attr_kind(a)) {
        Some(cuprite_ir::AttrKind::Array(l)) => l
            .iter()
            .map(|a| match ctx.attr_kind(*a) {
                cuprite_ir::AttrKind::String(s) => s.clone(),
                _ => String::new(),
            })
            .collect(),
        _ => Vec::new(),
    }
}
