//! `fold-constant-loads`: a load from a `readonly` global (a const-qualified C++ object
//! with its initializer: `static const double coeffs[] = {...}`) at a constant offset is
//! the initializer's value there, as LLVM folds loads from `constant` globals. A polynomial
//! whose coefficients sit in such a table becomes `fma`s with immediates once its loop is
//! unrolled: no loads, no registers for the coefficients.
//!
//! It runs on the module after the function pipeline (unrolling and `sccp` make the
//! offsets constant; inside that pipeline each function may sit in a context of its own,
//! without the module's globals). What it folds: `nvvm.load` (not volatile) of an integer
//! or float scalar whose address is `addressof @g`, through `ptradd`s of constants and
//! address-space casts, inside `@g`'s `size` bytes; the address arithmetic left unused goes
//! too. The global itself stays (the host may name it).

use cuprite_dialects::nvvm as nv;
use cuprite_ir::{AttrKind, Context, FloatKind, InsertPoint, OpId, TypeKind, ValueId};
use rustc_hash::FxHashMap;

/// Folds the loads of `module`'s `readonly` globals; returns how many.
pub fn fold_constant_loads(ctx: &mut Context, module: OpId) -> u64 {
    let mut tables: FxHashMap<String, Vec<u8>> = FxHashMap::default();
    for op in cuprite_ir::walk::collect_preorder(ctx, module) {
        let Some(g) = nv::GlobalOp::cast(ctx, op) else { continue };
        if !g.readonly(ctx) || g.r#extern(ctx) {
            continue;
        }
        let Some(init) = g.init_attr(ctx) else { continue };
        let AttrKind::DenseArray { values, .. } = ctx.attr_kind(init) else { continue };
        let size = g.size(ctx).unwrap_or(0).max(0) as usize;
        let mut bytes: Vec<u8> = values.iter().map(|&v| v as u8).collect();
        bytes.resize(size.max(bytes.len()), 0);
        tables.insert(g.sym_name(ctx).unwrap_or_default().to_string(), bytes);
    }
    if tables.is_empty() {
        return 0;
    }
    let mut folded = 0;
    for op in cuprite_ir::walk::collect_preorder(ctx, module) {
        if !ctx.op_is_live(op) || !ctx.is_op(op, nv::LoadOp::NAME) || nv::LoadOp(op).volatile(ctx) {
            continue;
        }
        let Some((name, off)) = address(ctx, ctx.operand(op, 0)) else { continue };
        let Some(bytes) = tables.get(&name) else { continue };
        let res = ctx.result(op, 0);
        let t = ctx.value_type(res);
        let (width, float) = match ctx.type_kind(t) {
            TypeKind::Integer { width, .. } if matches!(width, 8 | 16 | 32 | 64) => (*width, None),
            TypeKind::Float(k @ (FloatKind::F16 | FloatKind::BF16 | FloatKind::F32 | FloatKind::F64)) => (k.width(), Some(*k)),
            _ => continue,
        };
        let n = (width / 8) as usize;
        let Some(slice) = usize::try_from(off).ok().and_then(|o| bytes.get(o..o.checked_add(n)?)) else { continue };
        let raw = slice.iter().rev().fold(0u64, |acc, &b| (acc << 8) | u64::from(b));
        let attr = match float {
            Some(_) => ctx.attr(AttrKind::Float { bits: raw, ty: t }),
            None => {
                // Sign-extended, as integer attributes are stored.
                let v = if width == 64 { raw as i64 as i128 } else { ((raw << (64 - width)) as i64 >> (64 - width)) as i128 };
                ctx.int_attr(v, t)
            }
        };
        let loc = ctx.op_loc(op);
        let Some(c) = nv::materialize_constant(ctx, attr, t, loc) else { continue };
        ctx.insert_op(c, InsertPoint { block: ctx.op_block(op).expect("a load in a block"), before: Some(op) });
        ctx.replace_all_uses_with(res, ctx.result(c, 0));
        let addr = ctx.operand(op, 0);
        ctx.erase_op(op);
        erase_dead_address(ctx, addr);
        folded += 1;
    }
    folded
}

/// The global and constant byte offset `v` points to: `addressof @g`, through `ptradd`s of
/// constants and address-space casts.
fn address(ctx: &Context, mut v: ValueId) -> Option<(String, i128)> {
    let mut off: i128 = 0;
    for _ in 0..16 {
        let d = ctx.defining_op(v)?;
        match ctx.op_name_str(d) {
            nv::PtrAddOp::NAME => {
                off += nv::int_constant(ctx, ctx.defining_op(ctx.operand(d, 1))?)?;
                v = ctx.operand(d, 0);
            }
            nv::AddrspacecastOp::NAME => v = ctx.operand(d, 0),
            nv::AddressOfOp::NAME => return Some((nv::AddressOfOp(d).name(ctx)?.to_string(), off)),
            _ => return None,
        }
    }
    None
}

/// Erases the address computation of `v` that nothing uses any more.
fn erase_dead_address(ctx: &mut Context, mut v: ValueId) {
    while let Some(d) = ctx.defining_op(v) {
        if ctx.has_uses(v) || !matches!(ctx.op_name_str(d), nv::PtrAddOp::NAME | nv::AddrspacecastOp::NAME | nv::AddressOfOp::NAME) {
            return;
        }
        let next = (ctx.num_operands(d) > 0).then(|| ctx.operand(d, 0));
        ctx.erase_op(d);
        match next {
            Some(n) => v = n,
            None => return,
        }
    }
}
