//! The discardable attributes cuprite attaches across dialects (MLIR's dialect attributes),
//! one definition each, read and written only through these functions:
//!
//! | attribute | on | meaning |
//! |---|---|---|
//! | `unroll = N : i32` | `cf.br`, `nvvm.br` back edges; `scf.while` | the loop's `#pragma unroll N` (1: `nounroll`) |
//! | `noinline`, `alwaysinline` | `func.func`, `nvvm.func` | `__noinline__`, `__forceinline__` |
//! | `cuprite.no_contract` | `func.func`, `nvvm.func` | no fma contraction in this function (the math library's compensated arithmetic) |
//! | `cuprite.ftz` ([`crate::nvvm::FTZ`]) | `nvvm.func` | f32 subnormals flush to zero |
//! | `cuprite.name = "..."` | any op | the name a pass gives the value it makes (`iv-demote`: cicc's `demoteIV`, `newICmp`, `substIV`, ...), shown in the printed IR |
//!
//! (`cuda.kernel` and `cuda.launch_bounds` belong to the cuda dialect: [`crate::cuda::KERNEL`].)

use cuprite_ir::{AttrId, AttrKind, Context, OpId};

/// `#pragma unroll N` of a loop, on its back edge or its `scf.while`.
pub const UNROLL: &str = "unroll";
/// `__noinline__`.
pub const NOINLINE: &str = "noinline";
/// `__forceinline__`.
pub const ALWAYSINLINE: &str = "alwaysinline";
/// No fma contraction in the function.
pub const NO_CONTRACT: &str = "cuprite.no_contract";

fn discardable(ctx: &Context, op: OpId, name: &str) -> Option<AttrId> {
    ctx.attrs(op).iter().find(|&&(n, _)| ctx.str(n) == name).map(|&(_, a)| a)
}

/// The `#pragma unroll` count on `op` (a back edge or a loop).
pub fn unroll(ctx: &Context, op: OpId) -> Option<i64> {
    match ctx.attr_kind(discardable(ctx, op, UNROLL)?) {
        AttrKind::Integer { value, .. } => i64::try_from(*value).ok(),
        _ => None,
    }
}

/// Sets the `#pragma unroll` count of `op`.
pub fn set_unroll(ctx: &mut Context, op: OpId, n: i64) {
    let i32t = ctx.i32();
    let a = ctx.int_attr(n as i128, i32t);
    ctx.set_attr(op, UNROLL, a);
}

/// The value-name attribute ([`set_value_name`]).
pub const VALUE_NAME: &str = "cuprite.name";

/// Names the value `op` makes (as cicc names the instructions its passes create).
pub fn set_value_name(ctx: &mut Context, op: OpId, name: &str) {
    let a = ctx.str_attr(name);
    ctx.set_attr(op, VALUE_NAME, a);
}

/// An inlining hint on a function.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum InlineHint {
    Never,
    Always,
}

/// The inlining hint of function `f`.
pub fn inline_hint(ctx: &Context, f: OpId) -> Option<InlineHint> {
    if discardable(ctx, f, NOINLINE).is_some() {
        Some(InlineHint::Never)
    } else if discardable(ctx, f, ALWAYSINLINE).is_some() {
        Some(InlineHint::Always)
    } else {
        None
    }
}

/// Sets the inlining hint of function `f`.
pub fn set_inline_hint(ctx: &mut Context, f: OpId, hint: InlineHint) {
    let u = ctx.unit_attr();
    ctx.set_attr(f, if hint == InlineHint::Never { NOINLINE } else { ALWAYSINLINE }, u);
}

/// Whether function `f` must not contract float operations into fmas.
pub fn no_contract(ctx: &Context, f: OpId) -> bool {
    discardable(ctx, f, NO_CONTRACT).is_some()
}

/// Marks function `f` as not contracting float operations.
pub fn set_no_contract(ctx: &mut Context, f: OpId) {
    let u = ctx.unit_attr();
    ctx.set_attr(f, NO_CONTRACT, u);
}

/// Copies the function hints (inlining, no contraction) of `from` to `to` (a function's
/// lowering).
pub fn copy_function_hints(ctx: &mut Context, from: OpId, to: OpId) {
    if let Some(h) = inline_hint(ctx, from) {
        set_inline_hint(ctx, to, h);
    }
    if no_contract(ctx, from) {
        set_no_contract(ctx, to);
    }
}
