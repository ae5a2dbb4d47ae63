//! The `nvvm` dialect: LLVM-like SSA on a CFG with NVPTX address spaces and NVVM
//! intrinsics (see `ops.td`). This module holds the hand-written parts: the custom forms of
//! `nvvm.func` and `nvvm.constant` (shared with `func.func` and `arith.constant`), the
//! verifiers, and the table of intrinsic names ([`INTRINSICS`], and the rounded operations
//! of [`rounding`]).

use cuprite_ir::{parse::OpParser, print::OpPrinter, Context, Diagnostic, OpId, OperationState};

/// Generated from `ops.td`.
#[allow(clippy::all, dead_code)]
pub mod ops {
    include!(concat!(env!("OUT_DIR"), "/nvvm.rs"));
}
pub use ops::*;

pub mod fold;
pub mod kernel_abi;
pub mod rounding;
mod strength;
pub use fold::materialize_constant;
use fold::{
    canonicalize_add, canonicalize_alloca, canonicalize_and, canonicalize_cond_br, canonicalize_fdiv, canonicalize_mul,
    canonicalize_ptradd, canonicalize_select, canonicalize_sext, canonicalize_shl, canonicalize_xor,
};
use strength::{canonicalize_sdiv, canonicalize_srem, canonicalize_udiv, canonicalize_urem};

/// The `nvvm.func` attribute that makes its f32 operations flush subnormals (`-ftz=true`):
/// the PTX emitter adds `.ftz` and the simulator flushes.
pub const FTZ: &str = "cuprite.ftz";

/// The names `nvvm.intr` accepts, with their operand counts.
pub const INTRINSICS: &[(&str, usize)] = &[
    ("sqrt.rn", 1),
    ("sqrt.approx", 1),
    ("rsqrt.approx", 1),
    ("rcp.rn", 1),
    ("rcp.approx", 1),
    ("div.approx", 2),
    ("div.full", 2),
    ("fma.rn", 3),
    ("abs", 1),
    ("min", 2),
    ("max", 2),
    ("smin", 2),
    ("smax", 2),
    ("umin", 2),
    ("umax", 2),
    ("ex2.approx", 1),
    ("lg2.approx", 1),
    ("sin.approx", 1),
    ("cos.approx", 1),
    ("trunc", 1),
    ("floor", 1),
    ("ceil", 1),
    ("rint", 1),
    ("saturate", 1),
    ("popc", 1),
    ("clz", 1),
    ("brev", 1),
    ("mul24", 2),
    ("umul24", 2),
    ("mulhi", 2),
    ("umulhi", 2),
    ("copysign", 2),
    ("prmt", 3),
    ("shf.l.wrap", 3),
    ("shf.r.wrap", 3),
    ("shf.l.clamp", 3),
    ("shf.r.clamp", 3),
    ("dp4a.s32.s32", 3),
    ("dp4a.u32.u32", 3),
    ("cvt.rn.bf16.f32", 1),
    ("cvt.f32.bf16", 1),
    ("add.rn.bf16", 2),
    ("sub.rn.bf16", 2),
    ("mul.rn.bf16", 2),
    ("fma.rn.bf16", 3),
    ("cvt.rz.bf16.f32", 1),
    ("cvt.rm.bf16.f32", 1),
    ("cvt.rp.bf16.f32", 1),
    ("cvt.rn.bf16.f64", 1),
    ("cvt.rn.bf16.s32", 1),
    ("cvt.rn.bf16.u32", 1),
    ("cvt.rn.bf16.s64", 1),
    ("cvt.rn.bf16.u64", 1),
    ("cvt.rz.bf16.f64", 1),
    ("cvt.rz.bf16.s32", 1),
    ("cvt.rz.bf16.u32", 1),
    ("cvt.rz.bf16.s64", 1),
    ("cvt.rz.bf16.u64", 1),
    ("cvt.rm.bf16.f64", 1),
    ("cvt.rm.bf16.s32", 1),
    ("cvt.rm.bf16.u32", 1),
    ("cvt.rm.bf16.s64", 1),
    ("cvt.rm.bf16.u64", 1),
    ("cvt.rp.bf16.f64", 1),
    ("cvt.rp.bf16.s32", 1),
    ("cvt.rp.bf16.u32", 1),
    ("cvt.rp.bf16.s64", 1),
    ("cvt.rp.bf16.u64", 1),
    ("max.bf16", 2),
    ("min.bf16", 2),
];

/// `nvvm.load` reads through its address; a volatile load also counts as a write, so that
/// nothing removes or merges it.
fn load_effects(ctx: &Context, op: OpId, out: &mut Vec<cuprite_ir::registry::MemoryEffect>) {
    use cuprite_ir::registry::{EffectKind, MemoryEffect};
    out.push(MemoryEffect { kind: EffectKind::Read, on: Some(0) });
    if LoadOp(op).volatile(ctx) {
        out.push(MemoryEffect { kind: EffectKind::Write, on: Some(0) });
    }
}

/// Whether `nvvm.intr` `name` is one of the bfloat16 instructions (`cvt.rn.bf16.f32`,
/// `fma.rn.bf16`, `max.bf16`, ...): PTX's own name, on 16-bit registers, no immediates.
pub fn is_bf16_instruction(name: &str) -> bool {
    name.contains(".bf16") && INTRINSICS.iter().any(|(n, _)| *n == name)
}

fn verify_func(ctx: &Context, op: OpId) -> Result<(), String> {
    crate::func::verify_kind_function(ctx, op, FuncKind::Kernel as i128)
}

fn can_print_func(ctx: &Context, op: OpId) -> bool {
    crate::func::can_print_function_like(ctx, op) && FuncOp(op).kind(ctx).is_some()
}

fn print_func(p: &mut OpPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    crate::func::print_kind_function(p, op, &["kernel", "device"])
}

fn parse_func(p: &mut OpParser<'_, '_>, st: &mut OperationState) -> Result<(), Diagnostic> {
    crate::func::parse_kind_function(p, st, &["kernel", "device"], &["maxntid", "minnctapersm", "maxnreg"])
}

fn print_constant(p: &mut OpPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    crate::arith::print_constant(p, op)
}

fn parse_constant(p: &mut OpParser<'_, '_>, st: &mut OperationState) -> Result<(), Diagnostic> {
    crate::arith::parse_constant(p, st)
}

fn verify_intr(ctx: &Context, op: OpId) -> Result<(), String> {
    let name = IntrOp(op).name(ctx).unwrap_or_default();
    let rounded = rounding::Rounded::from_nvvm(name).map(|r| r.operands());
    match INTRINSICS.iter().find(|(n, _)| *n == name).map(|(_, k)| *k).or(rounded) {
        None => Err(format!("unknown intrinsic '{name}'")),
        Some(n) if n != ctx.num_operands(op) => Err(format!("'{name}' takes {n} operands, not {}", ctx.num_operands(op))),
        _ => Ok(()),
    }
}

/// The flags of an `nvvm` float operation (`fadd`, `fsub`, `fmul`, `fdiv`, `frem`), as
/// MLIR's fast-math interface gives them: `contract` (may fuse into an `fma`), `approx`
/// and `full` (the f32 division's accuracy).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct FloatFlags {
    pub contract: bool,
    pub approx: bool,
    pub full: bool,
}

/// The [`FloatFlags`] of `op` (all clear for an op that is not a float operation).
pub fn float_flags(ctx: &Context, op: OpId) -> FloatFlags {
    macro_rules! flags_of {
        ($($t:ident),*) => {
            $(if let Some(o) = $t::cast(ctx, op) {
                return FloatFlags { contract: o.contract(ctx), approx: o.approx(ctx), full: o.full(ctx) };
            })*
        };
    }
    flags_of!(FaddOp, FsubOp, FmulOp, FdivOp, FremOp);
    FloatFlags::default()
}

/// Whether function `f` flushes f32 subnormals ([`FTZ`]).
pub fn flushes_subnormals(ctx: &Context, f: OpId) -> bool {
    ctx.attrs(f).iter().any(|&(n, _)| ctx.str(n) == FTZ)
}

/// The integer value of `nvvm.constant` `op`, if it is an integer constant.
pub fn int_constant(ctx: &Context, op: OpId) -> Option<i128> {
    match ctx.attr_kind(ConstantOp::cast(ctx, op)?.value_attr(ctx)?) {
        cuprite_ir::AttrKind::Integer { value, .. } => Some(*value),
        _ => None,
    }
}

/// The cache operator of load or store `op` (`nc`, `cs`, ...), if it names one.
pub fn cache_operator(ctx: &Context, op: OpId) -> Option<&str> {
    LoadOp::cast(ctx, op).and_then(|l| l.cache(ctx)).or_else(|| StoreOp::cast(ctx, op).and_then(|s| s.cache(ctx)))
}

/// Whether `op` (a load, a store or inline asm) is volatile.
pub fn is_volatile(ctx: &Context, op: OpId) -> bool {
    LoadOp::cast(ctx, op).is_some_and(|l| l.volatile(ctx))
        || StoreOp::cast(ctx, op).is_some_and(|s| s.volatile(ctx))
        || InlineAsmOp::cast(ctx, op).is_some_and(|a| a.volatile(ctx))
}

/// Whether `f` is an `nvvm.func` kernel.
pub fn is_kernel(ctx: &Context, f: OpId) -> bool {
    FuncOp::cast(ctx, f).is_some_and(|f| f.kind(ctx) == Some(FuncKind::Kernel))
}
