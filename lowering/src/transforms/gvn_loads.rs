//! `load-cse`: redundant load elimination and store-to-load forwarding in any memory, with
//! alias analysis by address space and allocation (the part of LLVM's GVN and EarlyCSE
//! that removes loads; `load-forward` does locals across unrolled chains).
//!
//! Along each block, and from a block into a successor that has no other predecessor
//! (blocks in reverse post-order, so the chain's state is known), the pass keeps the
//! values known to be in memory: what a non-volatile load read and what a store wrote, by
//! address. A later load of the same address and type takes that value instead of
//! reading. A store forgets the entries it may overwrite (`may_alias`):
//! - addresses in two different specific spaces never alias (global, shared, local;
//!   the constant space is never written), the generic space may alias any;
//! - two addresses off different allocations never alias (two `nvvm.alloca`s, two
//!   globals, or one of each);
//! - two constant offsets off one base alias only when their bytes overlap.
//!
//! An atomic, a call, a barrier, a fence, inline asm or a volatile access forgets
//! everything (other threads' writes become visible there).

use cuprite_dialects::nvvm as nv;
use cuprite_ir::{BlockId, Context, OpId, TypeId, TypeKind, ValueId};
use rustc_hash::FxHashMap;

/// A value known to be in memory.
#[derive(Clone, Copy)]
struct Known {
    addr: ValueId,
    ty: TypeId,
    value: ValueId,
}

/// The object an address points into and its constant byte offset there (`None`: not
/// constant), following `ptradd` and address-space casts.
pub(crate) fn root(ctx: &Context, mut p: ValueId) -> (ValueId, Option<i128>) {
    let mut off = Some(0i128);
    for _ in 0..32 {
        let Some(d) = ctx.defining_op(p) else { break };
        match ctx.op_name_str(d) {
            nv::PtrAddOp::NAME => {
                let c = ctx.defining_op(ctx.operand(d, 1)).and_then(|c| nv::int_constant(ctx, c));
                off = match (off, c) {
                    (Some(a), Some(b)) => Some(a + b),
                    _ => None,
                };
                p = ctx.operand(d, 0);
            }
            nv::AddrspacecastOp::NAME => p = ctx.operand(d, 0),
            _ => break,
        }
    }
    (p, off)
}

/// The address space of pointer value `p`.
fn space(ctx: &Context, p: ValueId) -> u32 {
    match ctx.type_kind(ctx.value_type(p)) {
        TypeKind::Pointer { addr_space } => *addr_space,
        _ => 0,
    }
}

/// Bytes a scalar of type `t` takes (`None`: unknown).
fn size(ctx: &Context, t: TypeId) -> Option<i128> {
    match ctx.type_kind(t) {
        TypeKind::Integer { width, .. } => Some(i128::from(width.div_ceil(8))),
        TypeKind::Float(k) => Some(i128::from(k.width() / 8)),
        TypeKind::Pointer { .. } => Some(8),
        _ => None,
    }
}

/// Whether `op` is a distinct allocation: an `nvvm.alloca` or a global's address.
fn allocation(ctx: &Context, v: ValueId) -> Option<(bool, Option<cuprite_ir::AttrId>)> {
    let d = ctx.defining_op(v)?;
    if ctx.is_op(d, nv::AllocaOp::NAME) {
        return Some((true, None));
    }
    nv::AddressOfOp::cast(ctx, d).map(|a| (false, a.name_attr(ctx)))
}

/// Whether a store of `bt` at `b` may change the `at` bytes at `a`.
fn may_alias(ctx: &Context, a: ValueId, at: TypeId, b: ValueId, bt: TypeId) -> bool {
    let (sa, sb) = (space(ctx, a), space(ctx, b));
    if sa != 0 && sb != 0 && sa != sb {
        return false;
    }
    let ((ra, oa), (rb, ob)) = (root(ctx, a), root(ctx, b));
    if ra == rb {
        if let (Some(oa), Some(ob), Some(na), Some(nb)) = (oa, ob, size(ctx, at), size(ctx, bt)) {
            return oa < ob + nb && ob < oa + na;
        }
        return true;
    }
    match (allocation(ctx, ra), allocation(ctx, rb)) {
        // Two allocas, or an alloca and a global: distinct objects.
        (Some((true, _)), Some(_)) | (Some(_), Some((true, _))) => false,
        // Two globals: distinct unless the same symbol.
        (Some((false, na)), Some((false, nb))) => na == nb,
        _ => true,
    }
}

/// Whether `op` makes every known value stale.
fn clobbers_all(ctx: &Context, op: OpId) -> bool {
    matches!(
        ctx.op_name_str(op),
        nv::AtomicRmwOp::NAME | nv::CmpXchgOp::NAME | nv::CallOp::NAME | nv::BarrierOp::NAME | nv::FenceOp::NAME | nv::InlineAsmOp::NAME
    ) || nv::is_volatile(ctx, op)
}

/// Runs the pass on `nvvm.func` `f`; returns how many loads went.
pub fn load_cse(ctx: &mut Context, f: OpId) -> u64 {
    let Some(&r) = ctx.regions(f).first() else { return 0 };
    let order = cuprite_ir::dominance::rpo(ctx, r);
    let mut at_exit: FxHashMap<BlockId, Vec<Known>> = FxHashMap::default();
    let mut removed = 0;
    for b in order {
        let mut preds = ctx.predecessors(b).filter_map(|(t, _)| ctx.op_block(t));
        let mut known: Vec<Known> = match (preds.next(), preds.next()) {
            (Some(p), None) if p != b => at_exit.get(&p).cloned().unwrap_or_default(),
            _ => Vec::new(),
        };
        for op in ctx.block_ops(b).collect::<Vec<_>>() {
            if clobbers_all(ctx, op) {
                known.clear();
                continue;
            }
            if ctx.is_op(op, nv::LoadOp::NAME) {
                let (addr, ty) = (ctx.operand(op, 0), ctx.value_type(ctx.result(op, 0)));
                if let Some(k) = known.iter().find(|k| k.addr == addr && k.ty == ty) {
                    let v = k.value;
                    ctx.replace_all_uses_with(ctx.result(op, 0), v);
                    ctx.erase_op(op);
                    removed += 1;
                } else {
                    known.push(Known { addr, ty, value: ctx.result(op, 0) });
                }
            } else if ctx.is_op(op, nv::StoreOp::NAME) {
                let (value, addr) = (ctx.operand(op, 0), ctx.operand(op, 1));
                let ty = ctx.value_type(value);
                known.retain(|k| !may_alias(ctx, k.addr, k.ty, addr, ty));
                known.push(Known { addr, ty, value });
            }
        }
        at_exit.insert(b, known);
    }
    removed
}
