//! `convert-cuda-to-nvvm`: the `cuda` dialect's memory ops to `nvvm`, as named patterns on
//! the conversion driver with the nvvm level's type converter ([`super::nvvm_types`]:
//! pointers opaque in their address space, a struct or array by value as its scalars).
//!
//! - `cuda.global` -> `nvvm.global` of the type's size and alignment, a constant
//!   initializer as its bytes;
//! - `cuda.var` -> `nvvm.alloca` in the function's entry block (after the allocas already
//!   there, so they keep the source's order; mem2reg promotes the scalar ones at `-O1`); a
//!   `__shared__` one -> a module-level `nvvm.global` in space 3 named
//!   `<function>$<variable>` and its `nvvm.addressof` (`extern __shared__` arrays all name
//!   the one dynamic allocation, `__cuprite_dynamic_smem`);
//! - `cuda.addressof` -> `nvvm.addressof`;
//! - `cuda.load`/`cuda.store` of a scalar -> `nvvm.load`/`nvvm.store` at its natural
//!   alignment, `volatile` and the cache operator kept (a cache operator on a generic
//!   address casts it to global: the `ld.global.nc` family takes global addresses); of a
//!   struct or array, one load or store per scalar at its offset (the loaded value is the
//!   group of scalars; users still in `cuda` see it through a materialization cast);
//! - `cuda.asm` -> `nvvm.inline_asm` (`side_effects` kept), `cuda.tex` -> `nvvm.tex`;
//! - `cuda.intrinsic "__trap"` -> `nvvm.unreachable`, ending its block (what follows moves
//!   to a block of its own, never reached). Only a trap in a function's own blocks: inside a
//!   structured construct it waits for `lower-cuda-control-flow`.
//!
//! Partial conversion: what this pass does not lower (function signatures, calls, returns
//! and branches are `convert-func-to-nvvm`'s) stays, and the materialization casts join
//! the converted values to the ops still in `cuda`.

use super::{
    bind, emit, enclosing_function, infos, nvvm_types, rule, rule_groups, run_patterns, scalar_type, too_many_scalars, PatternInfo, Rule,
};
use crate::build::{i32_attr, i64_attr, state};
use cuprite_dialects::cuda::{
    layout,
    types::{decode, AddrSpace, Decoded},
    AddressOfOp, AsmOp, GlobalOp, IntrinsicOp, TexOp, VarOp,
};
use cuprite_ir::{
    pass::{Pass, PassFailure, PassState},
    rewrite::conversion::{ConversionPattern, ConversionRewriter, ConversionTarget},
    AttrId, AttrKind, Context, OpId, TypeId, TypeKind, ValueId,
};

/// The pass name.
pub const NAME: &str = "convert-cuda-to-nvvm";

/// The name every `extern __shared__` array refers to.
pub const DYNAMIC_SMEM: &str = "__cuprite_dynamic_smem";

/// The pattern set.
static RULES: &[Rule<()>] = &[
    rule("cuda-global-to-nvvm", "cuda.global", "nvvm.global", "a global variable: its size, alignment and initializer bytes", global),
    rule("cuda-var-to-alloca", "cuda.var", "nvvm.alloca", "a local variable: an alloca in the entry block", var_local),
    rule(
        "cuda-shared-var-to-global",
        "cuda.var",
        "nvvm.global",
        "a __shared__ variable: a module-level global in space 3 and its address",
        var_shared,
    ),
    rule("cuda-addressof-to-nvvm", "cuda.addressof", "nvvm.addressof", "the address of a global", addressof),
    rule("cuda-load-to-nvvm", "cuda.load", "nvvm.load", "a scalar load at its natural alignment (volatile, cache operator)", load),
    rule(
        "cuda-load-aggregate-to-nvvm",
        "cuda.load",
        "nvvm.load",
        "a struct or array loaded by value: one load per scalar, the value its scalars",
        load_aggregate,
    ),
    rule("cuda-store-to-nvvm", "cuda.store", "nvvm.store", "a scalar store at its natural alignment (volatile, cache operator)", store),
    rule_groups(
        "cuda-store-aggregate-to-nvvm",
        "cuda.store",
        "nvvm.store",
        "a struct or array stored by value: one store per scalar",
        store_aggregate,
    ),
    rule("cuda-asm-to-nvvm", "cuda.asm", "nvvm.inline_asm", "inline asm, its side effects kept", asm),
    rule("cuda-tex-to-nvvm", "cuda.tex", "nvvm.tex", "a texture fetch, f32/s32/u32 by the result type", tex),
    rule("cuda-trap-to-nvvm", "cuda.intrinsic", "nvvm.unreachable", "__trap(): ends its block", trap),
];

/// The patterns.
pub fn patterns() -> Vec<Box<dyn ConversionPattern>> {
    bind(RULES, ())
}

/// What `--list-patterns` prints for this pass.
pub fn pattern_infos() -> Vec<PatternInfo> {
    infos(NAME, RULES)
}

/// The legality target: the memory ops are illegal, and `__trap` in a function's own blocks.
pub fn target() -> ConversionTarget {
    let t = ["cuda.global", "cuda.var", "cuda.addressof", "cuda.load", "cuda.store", "cuda.asm", "cuda.tex"]
        .into_iter()
        .fold(ConversionTarget::new().legal_dialect("nvvm"), |t, r| t.illegal_op(r));
    t.dynamic_op("cuda.intrinsic", |ctx, op| !is_trap(ctx, op) || !in_function_blocks(ctx, op))
}

/// Whether `op` is `cuda.intrinsic "__trap"`.
fn is_trap(ctx: &Context, op: OpId) -> bool {
    IntrinsicOp(op).name(ctx) == Some("__trap")
}

/// Whether `op` is in one of its function's own blocks (not inside a construct).
fn in_function_blocks(ctx: &Context, op: OpId) -> bool {
    ctx.parent_op(op).is_some_and(|p| ctx.is_op(p, "func.func") || ctx.is_op(p, "nvvm.func"))
}

/// The bytes of a scalar constant, little-endian, `size` long.
fn scalar_bytes(ctx: &Context, a: AttrId, size: u64) -> Option<Vec<i64>> {
    let bits: u128 = match ctx.attr_kind(a) {
        AttrKind::Integer { value, .. } => *value as u128,
        AttrKind::Float { bits, .. } => *bits as u128,
        _ => return None,
    };
    Some((0..size).map(|i| ((bits >> (8 * i)) & 0xff) as i8 as i64).collect())
}

/// Writes constant initializer `a` of a `ty` at byte `at` of `out`: a scalar, or an array
/// of them (nested for arrays of arrays; missing trailing elements stay zero).
fn init_bytes(ctx: &mut Context, a: AttrId, ty: TypeId, out: &mut [i64], at: usize) -> Option<()> {
    if let AttrKind::Array(items) = ctx.attr_kind(a).clone() {
        let Some(Decoded::Array { n, elem }) = decode(ctx, ty) else {
            return None;
        };
        let et = layout::parse_ty(ctx, &elem)?;
        let (stride, _) = layout::size_align(ctx, et)?;
        if items.len() as u64 > n {
            return None;
        }
        for (i, it) in items.into_iter().enumerate() {
            init_bytes(ctx, it, et, out, at + i * stride as usize)?;
        }
        return Some(());
    }
    let (size, _) = layout::size_align(ctx, ty)?;
    let b = scalar_bytes(ctx, a, size)?;
    out.get_mut(at..at + b.len())?.copy_from_slice(&b);
    Some(())
}

fn global(_: &Rule<()>, _: &(), op: OpId, _: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let ctx = rw.ctx();
    let g = GlobalOp(op);
    let name = g.sym_name(ctx).unwrap_or_default().to_string();
    let space = g.space(ctx).map_or(1, |s| s as i64);
    let Some(ty) = g.r#type(ctx) else { return rw.notify_match_failure(format!("global '{name}' has no type")) };
    let Some((size, align)) = layout::size_align(ctx, ty) else {
        return rw.notify_match_failure(format!("global '{name}' has an incomplete type"));
    };
    let mut props = vec![
        ("space", i32_attr(ctx, space)),
        ("sym_name", ctx.str_attr(&name)),
        ("size", i64_attr(ctx, size as i64)),
        ("align", i32_attr(ctx, align as i64)),
    ];
    if let Some(init) = g.init_attr(ctx) {
        let mut bytes = vec![0i64; size as usize];
        if init_bytes(ctx, init, ty, &mut bytes, 0).is_none() {
            return rw.notify_match_failure(format!("the initializer of '{name}' is not supported yet"));
        }
        let elem = ctx.int_type(8);
        let a = ctx.attr(AttrKind::DenseArray { elem, values: bytes });
        props.push(("init", a));
    }
    if g.managed(ctx) {
        props.push(("managed", ctx.unit_attr()));
    }
    if g.readonly(ctx) && g.init_attr(ctx).is_some() {
        props.push(("readonly", ctx.unit_attr()));
    }
    let loc = ctx.op_loc(op);
    let st = state(ctx, "nvvm.global", loc, &[], &[], &props, &[]);
    rw.rw.set_insertion_point_before(op);
    rw.rw.create(st);
    rw.erase_op(op);
    true
}

/// The layout and nvvm pointer type of `cuda.var` `op`: (space, size, align, pointer type).
fn var_layout(rw: &mut ConversionRewriter<'_, '_>, op: OpId) -> Option<(AddrSpace, u64, u64, TypeId)> {
    let ctx = rw.ctx();
    let res = ctx.value_type(ctx.result(op, 0));
    let Some(Decoded::Ptr { space, .. }) = decode(ctx, res) else { return None };
    let pointee = layout::pointee(ctx, res)?;
    let var = VarOp(op);
    let dynamic = var.dynamic(ctx);
    let (size, natural) = layout::size_align(ctx, pointee).or(dynamic.then_some((0, 16)))?;
    let align = var.align(ctx).map_or(natural, |a| (a as u64).max(natural));
    let t = rw.convert_type(res);
    Some((space, size, align, t))
}

fn var_local(_: &Rule<()>, _: &(), op: OpId, _: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let Some((space, size, align, t)) = var_layout(rw, op) else { return rw.notify_match_failure("a variable of an incomplete type") };
    if !matches!(space, AddrSpace::Local | AddrSpace::Generic) {
        return false;
    }
    let ctx = rw.ctx();
    let Some(f) = enclosing_function(ctx, op) else { return false };
    let Some(entry) = ctx.regions(f).first().and_then(|&r| ctx.entry_block(r)) else { return false };
    let vname = VarOp(op).name(ctx).unwrap_or_default().to_string();
    let props = [("size", i64_attr(ctx, size as i64)), ("align", i32_attr(ctx, align as i64)), ("name", ctx.str_attr(&vname))];
    let loc = ctx.op_loc(op);
    let st = state(ctx, "nvvm.alloca", loc, &[], &[t], &props, &[]);
    // After the allocas already at the top of the entry block: the source's order.
    let mut at = ctx.first_op(entry);
    while let Some(o) = at.filter(|&o| ctx.is_op(o, "nvvm.alloca")) {
        at = ctx.next_op(o);
    }
    match at {
        Some(o) => rw.rw.set_insertion_point_before(o),
        None => rw.rw.set_insertion_point_to_end(entry),
    }
    let a = rw.rw.create(st);
    let v = rw.ctx().result(a, 0);
    rw.replace_op(op, &[v]);
    true
}

/// Whether a symbol named `name` is at the top level of module body `module`: never when
/// no string attribute of that text exists (the common case, found without a walk).
fn symbol_exists(ctx: &Context, module: cuprite_ir::BlockId, name: &str) -> bool {
    ctx.lookup_str_attr(name).is_some() && ctx.block_ops(module).any(|o| ctx.symbol_name(o) == Some(name))
}

fn var_shared(_: &Rule<()>, _: &(), op: OpId, _: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let Some((space, size, align, t)) = var_layout(rw, op) else { return rw.notify_match_failure("a variable of an incomplete type") };
    if space != AddrSpace::Shared {
        return false;
    }
    let ctx = rw.ctx();
    let Some(f) = enclosing_function(ctx, op) else { return false };
    let Some(module) = ctx.op_block(f) else { return false };
    let dynamic = VarOp(op).dynamic(ctx);
    let gname = if dynamic {
        DYNAMIC_SMEM.to_string()
    } else {
        let fname = ctx.symbol_name(f).unwrap_or_default().to_string();
        let vname = VarOp(op).name(ctx).unwrap_or_default().to_string();
        let base = format!("{fname}${vname}");
        let mut name = base.clone();
        let mut k = 1;
        while symbol_exists(ctx, module, &name) {
            k += 1;
            name = format!("{base}${k}");
        }
        name
    };
    let loc = ctx.op_loc(op);
    if !symbol_exists(ctx, module, &gname) {
        let mut props = vec![
            ("space", i32_attr(ctx, 3)),
            ("sym_name", ctx.str_attr(&gname)),
            ("size", i64_attr(ctx, size as i64)),
            ("align", i32_attr(ctx, if dynamic { 16 } else { align as i64 })),
        ];
        if dynamic {
            props.push(("extern", ctx.unit_attr()));
        }
        let st = state(ctx, "nvvm.global", loc, &[], &[], &props, &[]);
        // At the top of the module, ahead of the functions that use it.
        match ctx.first_op(module) {
            Some(first) => rw.rw.set_insertion_point_before(first),
            None => rw.rw.set_insertion_point_to_end(module),
        }
        rw.rw.create(st);
    }
    let n = rw.ctx().symbol_ref(&gname);
    let v = emit(rw, op, "nvvm.addressof", &[], t, &[("name", n)]);
    rw.replace_op(op, &[v]);
    true
}

fn addressof(_: &Rule<()>, _: &(), op: OpId, _: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let Some(n) = AddressOfOp(op).name_attr(rw.ctx()) else { return false };
    let t = {
        let ctx = rw.ctx();
        ctx.value_type(ctx.result(op, 0))
    };
    let t = rw.convert_type(t);
    let v = emit(rw, op, "nvvm.addressof", &[], t, &[("name", n)]);
    rw.replace_op(op, &[v]);
    true
}

/// The address and the flags (`volatile`, `cache`) of `cuda.load`/`cuda.store` `op` through
/// converted pointer `p`: with a cache operator, a generic address is cast to global (the
/// `ld.global.nc` family takes global addresses only).
fn mem_access(rw: &mut ConversionRewriter<'_, '_>, op: OpId, mut p: ValueId) -> (ValueId, Vec<(&'static str, AttrId)>) {
    let mut flags = Vec::new();
    if cuprite_dialects::cuda::is_volatile(rw.ctx(), op) {
        let u = rw.ctx().unit_attr();
        flags.push(("volatile", u));
    }
    if let Some(c) = cuprite_dialects::cuda::cache_operator_attr(rw.ctx(), op) {
        flags.push(("cache", c));
        let pt = rw.ctx().value_type(p);
        let generic = matches!(rw.ctx().type_kind(pt), TypeKind::Pointer { addr_space: 0 });
        if generic {
            let g = rw.ctx().ty(TypeKind::Pointer { addr_space: crate::build::space_num(AddrSpace::Global) });
            p = emit(rw, op, "nvvm.addrspacecast", &[p], g, &[]);
        }
    }
    (p, flags)
}

fn is_scalar(ctx: &Context, t: TypeId) -> bool {
    matches!(ctx.type_kind(t), TypeKind::Integer { .. } | TypeKind::Float(_) | TypeKind::Pointer { .. })
}

/// `base + off` (bytes) before `op`.
fn offset(rw: &mut ConversionRewriter<'_, '_>, op: OpId, base: ValueId, off: u64) -> ValueId {
    if off == 0 {
        return base;
    }
    let i64t = rw.ctx().i64();
    let o = super::int_const(rw, op, off as i64, i64t);
    let t = rw.ctx().value_type(base);
    emit(rw, op, "nvvm.ptradd", &[base, o], t, &[])
}

/// The natural alignment of scalar cuda type `t` as an attribute.
fn align_of(ctx: &mut Context, t: TypeId) -> AttrId {
    let (_, align) = layout::size_align(ctx, t).unwrap_or((1, 1));
    i32_attr(ctx, align as i64)
}

fn load(_: &Rule<()>, _: &(), op: OpId, operands: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let rt = {
        let ctx = rw.ctx();
        ctx.value_type(ctx.result(op, 0))
    };
    if layout::is_aggregate(rw.ctx(), rt) {
        return false;
    }
    let t = scalar_type(rw.ctx(), rt);
    if !is_scalar(rw.ctx(), t) || layout::size_align(rw.ctx(), t).is_none() {
        return false;
    }
    let (p, flags) = mem_access(rw, op, operands[0]);
    let mut props = vec![("align", align_of(rw.ctx(), t))];
    props.extend(flags);
    let v = emit(rw, op, "nvvm.load", &[p], t, &props);
    rw.replace_op(op, &[v]);
    true
}

/// Loads the scalars of aggregate cuda type `t` from `p`, before `op`.
pub(crate) fn load_leaves(
    rw: &mut ConversionRewriter<'_, '_>,
    op: OpId,
    p: ValueId,
    t: TypeId,
    flags: &[(&'static str, AttrId)],
) -> Option<Vec<ValueId>> {
    let leaves = layout::leaves(rw.ctx(), t)?;
    let mut out = Vec::with_capacity(leaves.len());
    for (off, lt) in leaves {
        let a = offset(rw, op, p, off);
        let nt = scalar_type(rw.ctx(), lt);
        let mut props = vec![("align", align_of(rw.ctx(), lt))];
        props.extend_from_slice(flags);
        out.push(emit(rw, op, "nvvm.load", &[a], nt, &props));
    }
    Some(out)
}

/// Stores `vals`, the scalars of aggregate cuda type `t`, to `p`, before `op`.
pub(crate) fn store_leaves(
    rw: &mut ConversionRewriter<'_, '_>,
    op: OpId,
    vals: &[ValueId],
    p: ValueId,
    t: TypeId,
    flags: &[(&'static str, AttrId)],
) -> Option<()> {
    let leaves = layout::leaves(rw.ctx(), t)?;
    if leaves.len() != vals.len() {
        return None;
    }
    for ((off, lt), &x) in leaves.into_iter().zip(vals) {
        let a = offset(rw, op, p, off);
        let mut props = vec![("align", align_of(rw.ctx(), lt))];
        props.extend_from_slice(flags);
        let loc = rw.ctx().op_loc(op);
        let st = state(rw.ctx(), "nvvm.store", loc, &[x, a], &[], &props, &[]);
        rw.rw.set_insertion_point_before(op);
        rw.rw.create(st);
    }
    Some(())
}

fn load_aggregate(_: &Rule<()>, _: &(), op: OpId, operands: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let rt = {
        let ctx = rw.ctx();
        ctx.value_type(ctx.result(op, 0))
    };
    if !layout::is_aggregate(rw.ctx(), rt) {
        return false;
    }
    if rw.types.convert_many(rw.rw.ctx, rt) == [rt] {
        return too_many_scalars(rw);
    }
    let (p, flags) = mem_access(rw, op, operands[0]);
    let Some(vals) = load_leaves(rw, op, p, rt, &flags) else { return false };
    rw.replace_op_with_groups(op, &[vals]);
    true
}

fn store(_: &Rule<()>, _: &(), op: OpId, operands: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let x = operands[0];
    let t = rw.ctx().value_type(x);
    if !is_scalar(rw.ctx(), t) {
        return false;
    }
    let (p, flags) = mem_access(rw, op, operands[1]);
    let mut props = vec![("align", align_of(rw.ctx(), t))];
    props.extend(flags);
    let loc = rw.ctx().op_loc(op);
    let st = state(rw.ctx(), "nvvm.store", loc, &[x, p], &[], &props, &[]);
    rw.rw.set_insertion_point_before(op);
    rw.rw.create(st);
    rw.erase_op(op);
    true
}

fn store_aggregate(_: &Rule<()>, _: &(), op: OpId, operands: &[Vec<ValueId>], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let t = {
        let ctx = rw.ctx();
        ctx.value_type(ctx.operand(op, 0))
    };
    if !layout::is_aggregate(rw.ctx(), t) || operands.len() != 2 || operands[1].len() != 1 {
        return false;
    }
    if operands[0].len() == 1 && rw.types.convert_many(rw.rw.ctx, t) == [t] {
        return too_many_scalars(rw);
    }
    let (p, flags) = mem_access(rw, op, operands[1][0]);
    if store_leaves(rw, op, &operands[0], p, t, &flags).is_none() {
        return false;
    }
    rw.erase_op(op);
    true
}

fn asm(_: &Rule<()>, _: &(), op: OpId, operands: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let a = AsmOp(op);
    let (Some(t), Some(c)) = (a.template_attr(rw.ctx()), a.constraints_attr(rw.ctx())) else { return false };
    let side_effects = a.side_effects(rw.ctx()).then(|| rw.ctx().unit_attr());
    let rts: Vec<TypeId> = rw.ctx().results(op).to_vec().into_iter().map(|r| rw.ctx().value_type(r)).collect();
    let rts: Vec<TypeId> = rts.into_iter().map(|t| scalar_type(rw.ctx(), t)).collect();
    let loc = rw.ctx().op_loc(op);
    let st = cuprite_dialects::nvvm::InlineAsmOp::build(rw.ctx(), loc, &rts, operands, t, c, side_effects);
    rw.rw.set_insertion_point_before(op);
    let n = rw.rw.create(st);
    let rs = rw.ctx().results(n).to_vec();
    rw.replace_op(op, &rs);
    true
}

fn tex(_: &Rule<()>, _: &(), op: OpId, operands: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let t = TexOp(op);
    let ctx = rw.ctx();
    let src_rts: Vec<TypeId> = ctx.results(op).iter().map(|&r| ctx.value_type(r)).collect();
    let kind = match src_rts.first().map(|&t| ctx.type_kind(t).clone()) {
        Some(TypeKind::Float(_)) => "f32",
        _ if t.signed(ctx) => "s32",
        _ => "u32",
    };
    let Some(geom) = t.geom_attr(ctx) else { return false };
    let mut props = vec![("geom", geom), ("kind", ctx.str_attr(kind))];
    if let Some(l) = t.level_attr(ctx) {
        props.push(("level", l));
    }
    let rts: Vec<TypeId> = src_rts.into_iter().map(|t| scalar_type(rw.ctx(), t)).collect();
    let loc = rw.ctx().op_loc(op);
    let st = state(rw.ctx(), "nvvm.tex", loc, operands, &rts, &props, &[]);
    rw.rw.set_insertion_point_before(op);
    let n = rw.rw.create(st);
    let rs = rw.ctx().results(n).to_vec();
    rw.replace_op(op, &rs);
    true
}

fn trap(_: &Rule<()>, _: &(), op: OpId, _: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let ctx = rw.ctx();
    if !is_trap(ctx, op) || !in_function_blocks(ctx, op) || ctx.num_results(op) != 0 {
        return false;
    }
    let Some(block) = ctx.op_block(op) else { return false };
    // What follows the trap goes to a block of its own, which nothing reaches.
    if let Some(next) = ctx.next_op(op) {
        rw.rw.split_block(block, next);
    }
    let loc = rw.ctx().op_loc(op);
    let st = state(rw.ctx(), "nvvm.unreachable", loc, &[], &[], &[], &[]);
    rw.rw.set_insertion_point_before(op);
    rw.rw.create(st);
    rw.erase_op(op);
    true
}

/// `convert-cuda-to-nvvm`.
pub struct ConvertCudaToNvvm;

impl ConvertCudaToNvvm {
    pub const NAME: &'static str = NAME;
}

impl Pass for ConvertCudaToNvvm {
    fn name(&self) -> &str {
        NAME
    }
    fn run(&self, ctx: &mut Context, op: OpId, state: &mut PassState<'_>) -> Result<(), PassFailure> {
        run_patterns(ctx, op, state, NAME, &target(), &nvvm_types(), patterns())
    }
}
