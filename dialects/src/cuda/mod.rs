//! The `cuda` dialect: the frontend's output (beside `arith`, which holds its scalar
//! arithmetic), CUDA C++ device code with pointers in address spaces, variables in memory
//! and C's structured control flow (see `ops.td` for the ops and `docs/architecture.md` for
//! the split with the standard dialects). This module holds the dialect's types ([`types`]),
//! their data layout ([`layout`]) and the attributes it puts on `func.func`s
//! ([`KERNEL`], [`LAUNCH_BOUNDS`]), with their verifier.

use cuprite_ir::{AttrKind, Context, OpId};

pub mod layout;
pub mod types;

/// Generated from `ops.td`.
#[allow(clippy::all, dead_code)]
pub mod ops {
    include!(concat!(env!("OUT_DIR"), "/cuda.rs"));
}
pub use ops::*;

/// The unit attribute that makes a `func.func` a kernel (`__global__`).
pub const KERNEL: &str = "cuda.kernel";
/// `__launch_bounds__` on a kernel: `array<i32: maxThreadsPerBlock[, minBlocksPerSM[,
/// maxBlocksPerCluster]]>`.
pub const LAUNCH_BOUNDS: &str = "cuda.launch_bounds";

/// Whether function `f` is a kernel.
pub fn is_kernel(ctx: &Context, f: OpId) -> bool {
    ctx.attrs(f).iter().any(|&(n, _)| ctx.str(n) == KERNEL)
}

/// The launch bounds of kernel `f`, if declared.
pub fn launch_bounds(ctx: &Context, f: OpId) -> Option<Vec<i64>> {
    let a = ctx.attrs(f).iter().find(|&&(n, _)| ctx.str(n) == LAUNCH_BOUNDS)?.1;
    match ctx.attr_kind(a) {
        AttrKind::DenseArray { values, .. } => Some(values.clone()),
        _ => None,
    }
}

/// Checks the dialect's attributes on functions: `cuda.kernel` (a unit attribute on a
/// `func.func` with a body and no results) and `cuda.launch_bounds` (on a kernel, one to
/// three positive `i32`s).
fn verify_attribute(ctx: &Context, op: OpId, name: &str, value: cuprite_ir::AttrId) -> Result<(), String> {
    match name {
        KERNEL => {
            if !ctx.is_op(op, "func.func") {
                return Err(format!("'{KERNEL}' is an attribute of a func.func"));
            }
            if !matches!(ctx.attr_kind(value), AttrKind::Unit) {
                return Err(format!("'{KERNEL}' must be a unit attribute"));
            }
            if crate::func::function_type(ctx, op).is_some_and(|(_, results)| !results.is_empty()) {
                return Err("a kernel must not return a value".into());
            }
            Ok(())
        }
        LAUNCH_BOUNDS => {
            if !is_kernel(ctx, op) {
                return Err(format!("'{LAUNCH_BOUNDS}' is an attribute of a kernel (a func.func with '{KERNEL}')"));
            }
            match ctx.attr_kind(value) {
                AttrKind::DenseArray { elem, values }
                    if ctx.type_kind(*elem)
                        == &cuprite_ir::TypeKind::Integer { width: 32, signedness: cuprite_ir::Signedness::Signless }
                        && (1..=3).contains(&values.len())
                        && values.iter().all(|&v| v > 0) =>
                {
                    Ok(())
                }
                _ => Err(format!("'{LAUNCH_BOUNDS}' must be an array<i32> of one to three positive numbers")),
            }
        }
        _ => Err(format!("unknown cuda attribute '{name}'")),
    }
}

/// Whether `a` is a scalar constant attribute (what `cuda.global` initializers hold).
pub fn is_scalar_attr(ctx: &Context, a: cuprite_ir::AttrId) -> bool {
    matches!(ctx.attr_kind(a), AttrKind::Integer { .. } | AttrKind::Float { .. })
}

pub(crate) use types::{canonical_type, type_to_params};

/// Turns each `cuda.return` that sits in a function's own blocks (its parent op is the
/// `func.func`) into `func.return`; returns how many. The frontend calls it once its
/// constructs are final, `lower-cuda-control-flow` after inlining the constructs' regions.
pub fn returns_to_func_return(ctx: &mut Context, root: OpId) -> usize {
    let rets: Vec<OpId> = cuprite_ir::walk::collect_preorder(ctx, root)
        .into_iter()
        .filter(|&o| ctx.is_op(o, "cuda.return") && ctx.parent_op(o).is_some_and(|p| ctx.is_op(p, "func.func")))
        .collect();
    for &r in &rets {
        let mut st = cuprite_ir::OperationState::new(ctx, "func.return", ctx.op_loc(r));
        st.operands = ctx.operand_vec(r);
        let new = ctx.create_op(st);
        let block = ctx.op_block(r).expect("a return in a block");
        ctx.insert_op(new, cuprite_ir::InsertPoint { block, before: Some(r) });
        ctx.erase_op(r);
    }
    rets.len()
}

/// Whether memory access `op` (a `cuda.load` or `cuda.store`) is volatile.
pub fn is_volatile(ctx: &Context, op: OpId) -> bool {
    LoadOp::cast(ctx, op).is_some_and(|l| l.volatile(ctx)) || StoreOp::cast(ctx, op).is_some_and(|s| s.volatile(ctx))
}

/// The cache operator attribute of memory access `op` (`"nc"`, `"cs"`, ...), if any.
pub fn cache_operator_attr(ctx: &Context, op: OpId) -> Option<cuprite_ir::AttrId> {
    LoadOp::cast(ctx, op).and_then(|l| l.cache_attr(ctx)).or_else(|| StoreOp::cast(ctx, op).and_then(|s| s.cache_attr(ctx)))
}
