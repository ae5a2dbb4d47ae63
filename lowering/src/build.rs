//! Small builders the conversions share: op states from name/operands/properties, integer
//! attributes, a detached module, NVPTX's address-space numbers, and the error type of the
//! translators that remain (instruction selection, the PTX reader).

use cuprite_dialects::cuda::types::AddrSpace;
use cuprite_ir::{AttrId, BlockId, Context, LocId, OpId, OperationState, TypeId, ValueId};

/// A problem lowering an op: where, and what.
#[derive(Clone, Debug)]
pub struct LowerError {
    pub loc: LocId,
    pub message: String,
}

pub use cuprite_dialects::nvvm::FTZ;

/// A new `builtin.module` (not inserted anywhere) and its block.
pub fn make_module(ctx: &mut Context, loc: LocId) -> (OpId, BlockId) {
    let r = ctx.create_region();
    let b = ctx.create_block(&[]);
    ctx.append_block(r, b);
    let mut st = OperationState::new(ctx, "builtin.module", loc);
    st.regions.push(r);
    (ctx.create_op(st), b)
}

/// NVPTX's number of a cuda address space (`!llvm.ptr<N>`).
pub(crate) fn space_num(s: AddrSpace) -> u32 {
    match s {
        AddrSpace::Generic => 0,
        AddrSpace::Global => 1,
        AddrSpace::Shared => 3,
        AddrSpace::Constant => 4,
        AddrSpace::Local => 5,
    }
}

pub(crate) fn i32_attr(ctx: &mut Context, v: i64) -> AttrId {
    let t = ctx.i32();
    ctx.int_attr(v as i128, t)
}

pub(crate) fn i64_attr(ctx: &mut Context, v: i64) -> AttrId {
    let t = ctx.i64();
    ctx.int_attr(v as i128, t)
}

/// The state of an op `name` at `loc` with these operands, result types, properties and
/// successors.
pub(crate) fn state(
    ctx: &mut Context,
    name: &str,
    loc: LocId,
    operands: &[ValueId],
    results: &[TypeId],
    props: &[(&str, AttrId)],
    successors: &[BlockId],
) -> OperationState {
    let mut st = OperationState::new(ctx, name, loc);
    st.operands = operands.to_vec();
    st.result_types = results.to_vec();
    for (k, v) in props {
        let k = ctx.sym(k);
        st.props.push((k, *v));
    }
    st.successors = successors.to_vec();
    st
}
