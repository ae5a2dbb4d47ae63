//! `mem2reg`: promotes local variables (`nvvm.alloca`) that are only loaded and stored as
//! a whole to SSA values, with block arguments where control flow merges.
//!
//! An alloca is promotable when every use is a non-volatile `nvvm.load` from it or a
//! non-volatile `nvvm.store` to it (not of it), all of one type whose size is the
//! alloca's (after the scalar replacement below), or of integer and float types of that one
//! width (a union or a cast pointer reinterpreting the bits: the value is bitcast where the
//! access's type is not the variable's). Arrays indexed by a variable and address-taken
//! variables stay in local memory.
//!
//! First, scalar replacement ([`split_aggregates`]) splits an alloca accessed only at
//! constant offsets, one scalar type per offset without overlap (a struct local used field
//! by field, a struct passed by value), into one alloca per scalar, which are then promoted.
//!
//! Algorithm (Cytron et al., with block arguments for phis):
//! 1. Erase unreachable blocks; compute immediate dominators and dominance frontiers
//!    (Cooper, Harvey and Kennedy's runner walk).
//! 2. Each promotable alloca gets a block argument in the iterated dominance frontier of
//!    the blocks that store to it.
//! 3. Blocks are visited in reverse post-order (a block's immediate dominator comes
//!    first): the value live into a block is its own argument if it has one, else the
//!    value live out of its immediate dominator (the entry starts from zero: reading an
//!    uninitialized variable is undefined in C). Loads become that value, stores update it
//!    and go.
//! 4. Each branch passes the values live out of its block to the new arguments of its
//!    successors; then the allocas go and [`super::cfg::simplify_block_args`] drops the
//!    arguments that turned out dead or trivial (the pruning step).
//!
//! No recursion: blocks are visited in a precomputed order.

use super::cfg::{rebuild_branch, simplify_block_args};
use cuprite_dialects::cuda::layout::scalar_size;
use cuprite_dialects::nvvm::AllocaOp;
use cuprite_ir::{
    dominance::{rpo, DominanceInfo},
    rewrite::region_simplify::erase_unreachable_blocks,
    AttrKind, BlockId, Context, FloatKind, InsertPoint, OpId, TypeId, TypeKind, ValueId,
};
use rustc_hash::FxHashMap;

/// What mem2reg did to one function.
#[derive(Default, Debug)]
pub struct Mem2RegStats {
    /// Aggregate allocas split into scalar ones ([`split_aggregates`]).
    pub split: u64,
    pub promoted: u64,
    pub block_args: u64,
}

/// The type an alloca is promoted as, if it is promotable.
fn promotable_type(ctx: &Context, alloca: OpId) -> Option<TypeId> {
    let size = AllocaOp::cast(ctx, alloca)?.size(ctx)? as u64;
    let a = ctx.result(alloca, 0);
    let mut ty = None;
    for (user, k) in ctx.uses(a) {
        if cuprite_dialects::nvvm::is_volatile(ctx, user) {
            return None;
        }
        let t = match (ctx.op_name_str(user), k) {
            ("nvvm.load", 0) => ctx.value_type(ctx.result(user, 0)),
            ("nvvm.store", 1) => ctx.value_type(ctx.operand(user, 0)),
            _ => return None,
        };
        if !punnable(ctx, *ty.get_or_insert(t), t) {
            return None;
        }
    }
    let t = ty?;
    (scalar_size(ctx, t) == Some(size)).then_some(t)
}

/// Whether a variable accessed as `a` can also be accessed as `b` once promoted: the same
/// type, or integers and floats of one width (a union or a cast pointer reinterpreting the
/// bits: the promoted value is `nvvm.bitcast` where the types differ).
fn punnable(ctx: &Context, a: TypeId, b: TypeId) -> bool {
    let bits = |t| match ctx.type_kind(t) {
        TypeKind::Integer { width, .. } => Some(*width),
        TypeKind::Float(k) => Some(k.width()),
        _ => None,
    };
    a == b || matches!((bits(a), bits(b)), (Some(x), Some(y)) if x == y && x % 8 == 0)
}

/// `v` as type `t` (a bitcast before `at` if its type differs: see [`punnable`]).
fn as_type(ctx: &mut Context, v: ValueId, t: TypeId, at: OpId) -> ValueId {
    if ctx.value_type(v) == t {
        return v;
    }
    let loc = ctx.op_loc(at);
    let st = crate::build::state(ctx, "nvvm.bitcast", loc, &[v], &[t], &[], &[]);
    let op = ctx.create_op(st);
    let block = ctx.op_block(at).expect("an op in a block");
    ctx.insert_op(op, InsertPoint { block, before: Some(at) });
    ctx.result(op, 0)
}

/// A zero of type `t` at the start of `entry` (the value of an uninitialized variable).
fn zero(ctx: &mut Context, t: TypeId, entry: BlockId, loc: cuprite_ir::LocId) -> ValueId {
    let ip = InsertPoint { block: entry, before: ctx.first_op(entry) };
    let op = match ctx.type_kind(t).clone() {
        TypeKind::Pointer { .. } => {
            let st = cuprite_dialects::nvvm::NullOp::build(ctx, loc, t);
            ctx.create_op(st)
        }
        TypeKind::Float(k) => {
            let bits = if k == FloatKind::F32 { 0f32.to_bits() as u64 } else { 0 };
            let a = ctx.attr(AttrKind::Float { bits, ty: t });
            cuprite_dialects::nvvm::materialize_constant(ctx, a, t, loc).expect("float constant")
        }
        _ => {
            let a = ctx.int_attr(0, t);
            cuprite_dialects::nvvm::materialize_constant(ctx, a, t, loc).expect("integer constant")
        }
    };
    ctx.insert_op(op, ip);
    ctx.result(op, 0)
}

/// Scalar replacement of aggregates: an alloca used only by non-volatile loads and stores,
/// directly or through chains of `nvvm.ptradd` by constants, whose accesses are one scalar
/// type per offset (or integers and floats of one width) and do not overlap, becomes one
/// alloca per accessed scalar (which
/// [`mem2reg`] then promotes). Struct locals accessed by field, and the temporaries that
/// carry structs by value across calls, so leave local memory. Returns how many allocas
/// were split.
pub fn split_aggregates(ctx: &mut Context, r: cuprite_ir::RegionId) -> u64 {
    let mut allocas = Vec::new();
    for b in ctx.region_blocks(r).to_vec() {
        allocas.extend(ctx.block_ops(b).filter(|&o| ctx.op_name_str(o) == "nvvm.alloca"));
    }
    let mut split = 0;
    for a in allocas {
        let Some(size) = AllocaOp(a).size(ctx) else { continue };
        let Some((accesses, geps)) = aggregate_accesses(ctx, a, size as u64) else { continue };
        let mut slots: std::collections::BTreeMap<u64, TypeId> = std::collections::BTreeMap::new();
        if accesses.iter().any(|&(_, off, t)| !punnable(ctx, *slots.entry(off).or_insert(t), t)) {
            continue;
        }
        let mut end = 0;
        let disjoint = slots.iter().all(|(&off, &t)| {
            let ok = off >= end;
            end = off + scalar_size(ctx, t).unwrap_or(u64::MAX / 2);
            ok
        });
        if !disjoint || (slots.len() == 1 && slots.get(&0).and_then(|&t| scalar_size(ctx, t)) == Some(size as u64)) {
            continue;
        }
        let loc = ctx.op_loc(a);
        let rt = ctx.value_type(ctx.result(a, 0));
        let name = AllocaOp(a).name_attr(ctx);
        let mut new_allocas: FxHashMap<u64, ValueId> = FxHashMap::default();
        for (&off, &t) in &slots {
            let s = scalar_size(ctx, t).expect("scalar");
            let mut props = vec![("size", crate::build::i64_attr(ctx, s as i64)), ("align", crate::build::i32_attr(ctx, s as i64))];
            props.extend(name.map(|n| ("name", n)));
            let st = crate::build::state(ctx, "nvvm.alloca", loc, &[], &[rt], &props, &[]);
            let na = ctx.create_op(st);
            let block = ctx.op_block(a).expect("an alloca in a block");
            ctx.insert_op(na, InsertPoint { block, before: Some(a) });
            new_allocas.insert(off, ctx.result(na, 0));
        }
        for (op, off, _) in accesses {
            let k = if ctx.op_name_str(op) == "nvvm.load" { 0 } else { 1 };
            ctx.set_operand(op, k, new_allocas[&off]);
        }
        for g in geps.into_iter().rev() {
            ctx.erase_op(g);
        }
        ctx.erase_op(a);
        split += 1;
    }
    split
}

/// The loads and stores of alloca `a` (op, byte offset, type) and the `ptradd`s leading to
/// them, if every use is one of those, in bounds; `None` otherwise.
#[allow(clippy::type_complexity)]
fn aggregate_accesses(ctx: &Context, a: OpId, size: u64) -> Option<(Vec<(OpId, u64, TypeId)>, Vec<OpId>)> {
    let (mut accesses, mut geps) = (Vec::new(), Vec::new());
    let mut work = vec![(ctx.result(a, 0), 0u64)];
    while let Some((v, off)) = work.pop() {
        for (user, k) in ctx.uses(v) {
            if cuprite_dialects::nvvm::is_volatile(ctx, user) {
                return None;
            }
            let t = match (ctx.op_name_str(user), k) {
                ("nvvm.load", 0) => ctx.value_type(ctx.result(user, 0)),
                ("nvvm.store", 1) => ctx.value_type(ctx.operand(user, 0)),
                ("nvvm.ptradd", 0) => {
                    let o = u64::try_from(super::ptradd_const_offset(ctx, user)?).ok()?.checked_add(off)?;
                    geps.push(user);
                    work.push((ctx.result(user, 0), o));
                    continue;
                }
                _ => return None,
            };
            if off + scalar_size(ctx, t)? > size {
                return None;
            }
            accesses.push((user, off, t));
        }
    }
    (!accesses.is_empty()).then_some((accesses, geps))
}

/// Promotes the promotable allocas of function `func`.
pub fn mem2reg(ctx: &mut Context, func: OpId) -> Mem2RegStats {
    let mut stats = Mem2RegStats::default();
    let Some(&r) = ctx.regions(func).first() else { return stats };
    let Some(entry) = ctx.entry_block(r) else { return stats };
    stats.split = split_aggregates(ctx, r);
    let mut allocas: Vec<(OpId, TypeId)> = Vec::new();
    for b in ctx.region_blocks(r).to_vec() {
        for o in ctx.block_ops(b) {
            if ctx.op_name_str(o) == "nvvm.alloca" {
                if let Some(t) = promotable_type(ctx, o) {
                    allocas.push((o, t));
                }
            }
        }
    }
    // Arguments of the entry block are the function's parameters: a CFG branching back to
    // the entry is left alone.
    if allocas.is_empty() || ctx.has_predecessors(entry) {
        return stats;
    }
    erase_unreachable_blocks(ctx, r);
    let order = rpo(ctx, r);
    let index: FxHashMap<BlockId, usize> = order.iter().enumerate().map(|(i, &b)| (b, i)).collect();
    let mut dom = DominanceInfo::new(ctx, func);
    let idom: Vec<Option<usize>> = order.iter().map(|&b| dom.idom(ctx, b).map(|d| index[&d])).collect();
    let preds: Vec<Vec<usize>> =
        order.iter().map(|&b| ctx.predecessors(b).filter_map(|(t, _)| ctx.op_block(t)).map(|p| index[&p]).collect()).collect();
    // Dominance frontiers.
    let mut df: Vec<Vec<usize>> = vec![Vec::new(); order.len()];
    for b in 0..order.len() {
        if preds[b].len() < 2 {
            continue;
        }
        for &p in &preds[b] {
            let mut runner = Some(p);
            while let Some(x) = runner {
                if Some(x) == idom[b] {
                    break;
                }
                if !df[x].contains(&b) {
                    df[x].push(b);
                }
                runner = idom[x];
            }
        }
    }
    let slot: FxHashMap<ValueId, usize> = allocas.iter().enumerate().map(|(k, &(a, _))| (ctx.result(a, 0), k)).collect();
    // Arguments: phi[b] lists (alloca, argument) in alloca order.
    let mut phi: Vec<Vec<(usize, ValueId)>> = vec![Vec::new(); order.len()];
    for (k, &(a, t)) in allocas.iter().enumerate() {
        let av = ctx.result(a, 0);
        let mut has = vec![false; order.len()];
        let mut work: Vec<usize> = ctx
            .uses(av)
            .filter(|(u, _)| ctx.op_name_str(*u) == "nvvm.store")
            .filter_map(|(u, _)| ctx.op_block(u))
            .filter_map(|b| index.get(&b).copied())
            .collect();
        let mut queued = vec![false; order.len()];
        for &w in &work {
            queued[w] = true;
        }
        while let Some(x) = work.pop() {
            for &y in &df[x] {
                if !has[y] {
                    has[y] = true;
                    let arg = ctx.add_block_arg(order[y], t);
                    phi[y].push((k, arg));
                    if !queued[y] {
                        queued[y] = true;
                        work.push(y);
                    }
                }
            }
        }
    }
    // Renaming.
    let loc = ctx.op_loc(func);
    let zeros: Vec<ValueId> = allocas.iter().map(|&(_, t)| t).collect::<Vec<_>>().into_iter().map(|t| zero(ctx, t, entry, loc)).collect();
    let mut out: Vec<Vec<ValueId>> = Vec::with_capacity(order.len());
    for (i, &b) in order.iter().enumerate() {
        let mut cur = match idom[i] {
            Some(d) => out[d].clone(),
            None => zeros.clone(),
        };
        for &(k, arg) in &phi[i] {
            cur[k] = arg;
        }
        let ops: Vec<OpId> = ctx.block_ops(b).collect();
        for o in ops {
            match ctx.op_name_str(o) {
                "nvvm.load" => {
                    if let Some(&k) = slot.get(&ctx.operand(o, 0)) {
                        let r = ctx.result(o, 0);
                        let v = as_type(ctx, cur[k], ctx.value_type(r), o);
                        ctx.replace_all_uses_with(r, v);
                        ctx.erase_op(o);
                    }
                }
                "nvvm.store" => {
                    if let Some(&k) = slot.get(&ctx.operand(o, 1)) {
                        cur[k] = as_type(ctx, ctx.operand(o, 0), allocas[k].1, o);
                        ctx.erase_op(o);
                    }
                }
                _ => {}
            }
        }
        out.push(cur);
    }
    // Branches pass the live-out values to the new arguments.
    for (i, &b) in order.iter().enumerate() {
        let Some(t) = ctx.last_op(b) else { continue };
        let n = ctx.num_successors(t);
        if n == 0 || (0..n).all(|s| phi[index[&ctx.successor(t, s)]].is_empty()) {
            continue;
        }
        let args: Vec<Vec<ValueId>> = (0..n)
            .map(|s| {
                let mut a = ctx.successor_args(t, s);
                a.extend(phi[index[&ctx.successor(t, s)]].iter().map(|&(k, _)| out[i][k]));
                a
            })
            .collect();
        rebuild_branch(ctx, t, &args);
    }
    for &(a, _) in &allocas {
        ctx.erase_op(a);
    }
    stats.promoted = allocas.len() as u64;
    let added: u64 = phi.iter().map(|p| p.len() as u64).sum();
    let removed = simplify_block_args(ctx, r);
    stats.block_args = added.saturating_sub(removed);
    // Zeros nobody read.
    for z in zeros {
        if !ctx.has_uses(z) {
            if let Some(d) = ctx.defining_op(z) {
                ctx.erase_op(d);
            }
        }
    }
    stats
}
