//! The `cuda` dialect: the frontend's output (beside `arith`, which holds its scalar
//! arithmetic), CUDA C++ device code with pointers in address spaces, variables in memory
//! and C's structured control flow (see `ops.td` for the ops and `docs/architecture.md` for
//! the split with the standard dialects). This module holds the dialect's types ([`types`]),
//! their data layout ([`layout`]) and the hand-written custom form of `cuda.func`
//! (`func.func`'s, after a `kernel`/`device` keyword).

use cuprite_ir::{parse::OpParser, print::OpPrinter, AttrKind, Context, Diagnostic, OpId, OperationState};

pub mod layout;
pub mod types;

/// Generated from `ops.td`.
#[allow(clippy::all, dead_code)]
pub mod ops {
    include!(concat!(env!("OUT_DIR"), "/cuda.rs"));
}
pub use ops::*;

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
    crate::func::parse_kind_function(p, st, &["kernel", "device"], &["launch_bounds"])
}

/// Whether `a` is a scalar constant attribute (what `cuda.global` initializers hold).
pub fn is_scalar_attr(ctx: &Context, a: cuprite_ir::AttrId) -> bool {
    matches!(ctx.attr_kind(a), AttrKind::Integer { .. } | AttrKind::Float { .. })
}

pub(crate) use types::{type_from_params, type_to_params};
