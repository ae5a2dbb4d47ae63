//! `load-forward`: store-to-load forwarding for local variables that stay in memory (an
//! array indexed by a variable, a struct with a member array), block by block.
//!
//! An `nvvm.alloca` whose address never escapes (every use of it, or of a `ptradd` of it,
//! is the address of a load or a store, or another `ptradd`) is a distinct allocation: no
//! other pointer reaches it. Within a block, the pass keeps what is known of such memory:
//! after a store to a constant offset of it, a load of the same type from that offset is
//! the stored value (also in the blocks that only it leads to, so along a chain of blocks);
//! a store at an offset only known at run time forgets the whole
//! variable, one at a constant offset forgets what it overlaps; volatile accesses are left
//! alone, and a call or inline `asm` cannot reach the variable (its address does not
//! escape). Stores to other memory never alias it.
//!
//! A private variable that nothing loads from any more (every load was forwarded) loses
//! its stores and goes.
//!
//! What it enables: after `loop-unroll`, a small ring buffer or a local array written and
//! read at indices that only became constants once `sccp` folded the forwarded values,
//! which the next `mem2reg` then promotes to registers.

use cuprite_dialects::cuda::layout::scalar_size;
use cuprite_dialects::nvvm as nv;
use cuprite_ir::{BlockId, Context, OpId, TypeId, ValueId};
use rustc_hash::{FxHashMap, FxHashSet};

/// Whether the address of `alloca` never escapes: its uses (through `ptradd`s) are only
/// load and store addresses.
fn is_private(ctx: &Context, alloca: OpId) -> bool {
    let mut work = vec![ctx.result(alloca, 0)];
    while let Some(v) = work.pop() {
        for (user, k) in ctx.uses(v) {
            match (ctx.op_name_str(user), k) {
                (nv::LoadOp::NAME, 0) | (nv::StoreOp::NAME, 1) => {}
                (nv::PtrAddOp::NAME, 0) => work.push(ctx.result(user, 0)),
                _ => return false,
            }
        }
    }
    true
}

/// How deep an index expression is folded (`int_value`): a ring buffer's index after
/// `k` unrolled pushes is `2k` ops deep.
pub const MAX_FOLD_DEPTH: u32 = 256;

/// The bit width of integer type `t`.
fn width(ctx: &Context, t: TypeId) -> Option<u32> {
    match ctx.type_kind(t) {
        cuprite_ir::TypeKind::Integer { width, .. } if *width <= 64 => Some(*width),
        _ => None,
    }
}

/// The value of integer `v` (its low `width` bits) when constants make it: `nvvm.constant`
/// and the integer ops over them, folded here (a forwarded value is often such an
/// expression: `(head + 1) % 4`), at most `depth` ops deep; `memo` keeps what was found
/// (values are SSA: a chain of `k` pushes is folded once, not `2^k` times).
fn int_value(ctx: &Context, v: ValueId, depth: u32, memo: &mut FxHashMap<ValueId, Option<u128>>) -> Option<u128> {
    if let Some(&r) = memo.get(&v) {
        return r;
    }
    let r = int_value_uncached(ctx, v, depth, memo);
    memo.insert(v, r);
    r
}

fn int_value_uncached(ctx: &Context, v: ValueId, depth: u32, memo: &mut FxHashMap<ValueId, Option<u128>>) -> Option<u128> {
    let w = width(ctx, ctx.value_type(v))?;
    let mask = if w == 64 { u64::MAX as u128 } else { (1u128 << w) - 1 };
    let d = ctx.defining_op(v)?;
    if let Some(c) = cuprite_dialects::nvvm::int_constant(ctx, d) {
        return Some(c as u128 & mask);
    }
    if depth == 0 || ctx.num_results(d) != 1 {
        return None;
    }
    let mut arg = |i: usize| int_value(ctx, ctx.operand(d, i), depth - 1, memo);
    let signed = |x: u128, w: u32| -> i128 {
        let m = if w == 64 { u64::MAX as u128 } else { (1u128 << w) - 1 };
        let x = x & m;
        if x >> (w - 1) & 1 == 1 {
            (x | !m) as i128
        } else {
            x as i128
        }
    };
    let r = match ctx.op_name_str(d) {
        nv::ZextOp::NAME | nv::TruncOp::NAME => arg(0)?,
        nv::SextOp::NAME => signed(arg(0)?, width(ctx, ctx.value_type(ctx.operand(d, 0)))?) as u128,
        nv::AddOp::NAME => arg(0)?.wrapping_add(arg(1)?),
        nv::SubOp::NAME => arg(0)?.wrapping_sub(arg(1)?),
        nv::MulOp::NAME => arg(0)?.wrapping_mul(arg(1)?),
        nv::AndOp::NAME => arg(0)? & arg(1)?,
        nv::OrOp::NAME => arg(0)? | arg(1)?,
        nv::XorOp::NAME => arg(0)? ^ arg(1)?,
        nv::ShlOp::NAME => {
            let s = arg(1)?;
            if s >= u128::from(w) {
                return None;
            }
            arg(0)? << s
        }
        nv::UremOp::NAME | nv::UdivOp::NAME => {
            let (a, b) = (arg(0)?, arg(1)?);
            if b == 0 {
                return None;
            }
            if ctx.is_op(d, nv::UremOp::NAME) {
                a % b
            } else {
                a / b
            }
        }
        nv::SremOp::NAME | nv::SdivOp::NAME => {
            let (a, b) = (signed(arg(0)?, w), signed(arg(1)?, w));
            if b == 0 || (b == -1 && a == i128::MIN) {
                return None;
            }
            (if ctx.is_op(d, nv::SremOp::NAME) { a % b } else { a / b }) as u128
        }
        _ => return None,
    };
    Some(r & mask)
}

/// The byte offset a `ptradd` adds, as a signed number, when constants make it.
fn ptradd_offset(ctx: &Context, op: OpId, memo: &mut FxHashMap<ValueId, Option<u128>>) -> Option<i128> {
    let v = ctx.operand(op, 1);
    let w = width(ctx, ctx.value_type(v))?;
    let x = int_value(ctx, v, MAX_FOLD_DEPTH, memo)?;
    let m = if w == 64 { u64::MAX as u128 } else { (1u128 << w) - 1 };
    Some(if x >> (w - 1) & 1 == 1 { (x | !m) as i128 } else { x as i128 })
}

/// `(alloca, byte offset)` of address `p` when it is a private alloca plus constant
/// `ptradd`s; `(alloca, None)` when the offset is only known at run time.
fn place(
    ctx: &Context,
    private: &FxHashSet<OpId>,
    mut p: ValueId,
    memo: &mut FxHashMap<ValueId, Option<u128>>,
) -> Option<(OpId, Option<i128>)> {
    let mut off: Option<i128> = Some(0);
    loop {
        let d = ctx.defining_op(p)?;
        if private.contains(&d) {
            return Some((d, off));
        }
        if !ctx.is_op(d, nv::PtrAddOp::NAME) {
            return None;
        }
        off = match (off, ptradd_offset(ctx, d, memo)) {
            (Some(a), Some(b)) => Some(a + b),
            _ => None,
        };
        p = ctx.operand(d, 0);
    }
}

/// The size in bytes of a scalar value type.
fn size_of(ctx: &Context, t: TypeId) -> i128 {
    scalar_size(ctx, t).map_or(8, |s| s as i128)
}

/// Forwards stores to loads in every block of function `f`; returns the loads replaced.
pub fn load_forward(ctx: &mut Context, f: OpId) -> u64 {
    let Some(&r) = ctx.regions(f).first() else { return 0 };
    let allocas: Vec<OpId> = cuprite_ir::walk::collect_preorder(ctx, f).into_iter().filter(|&o| ctx.is_op(o, nv::AllocaOp::NAME)).collect();
    let private: FxHashSet<OpId> = allocas.into_iter().filter(|&a| is_private(ctx, a)).collect();
    if private.is_empty() {
        return 0;
    }
    // Blocks in reverse post-order; a block with one predecessor starts from what was
    // known at the end of it (extended basic blocks: the chains loop-unroll makes).
    let blocks: Vec<BlockId> = cuprite_ir::dominance::rpo(ctx, r);
    let mut out: FxHashMap<BlockId, Known> = FxHashMap::default();
    let mut memo: FxHashMap<ValueId, Option<u128>> = FxHashMap::default();
    let mut forwarded = 0;
    for b in blocks {
        let preds: Vec<BlockId> = ctx.predecessors(b).filter_map(|(t, _)| ctx.op_block(t)).collect();
        // Per private alloca: offset -> (stored value, its size).
        let mut known: Known = match preds.as_slice() {
            [p] => out.get(p).cloned().unwrap_or_default(),
            _ => Known::default(),
        };
        for op in ctx.block_ops(b).collect::<Vec<_>>() {
            let volatile = cuprite_dialects::nvvm::is_volatile(ctx, op);
            match ctx.op_name_str(op) {
                nv::StoreOp::NAME => {
                    let (v, p) = (ctx.operand(op, 0), ctx.operand(op, 1));
                    let Some((a, off)) = place(ctx, &private, p, &mut memo) else { continue };
                    let mem = known.entry(a).or_default();
                    match off {
                        Some(o) if !volatile => {
                            let n = size_of(ctx, ctx.value_type(v));
                            mem.retain(|&k, &mut (_, m)| k + m <= o || o + n <= k);
                            mem.insert(o, (v, n));
                        }
                        _ => mem.clear(),
                    }
                }
                nv::LoadOp::NAME if !volatile => {
                    let p = ctx.operand(op, 0);
                    let Some((a, Some(o))) = place(ctx, &private, p, &mut memo) else { continue };
                    let res = ctx.result(op, 0);
                    let t = ctx.value_type(res);
                    let hit = known.get(&a).and_then(|m| m.get(&o)).filter(|&&(v, _)| ctx.value_type(v) == t).map(|&(v, _)| v);
                    match hit {
                        Some(v) => {
                            ctx.replace_all_uses_with(res, v);
                            ctx.erase_op(op);
                            forwarded += 1;
                        }
                        // What was loaded is what is there until the next store.
                        None => {
                            let n = size_of(ctx, t);
                            known.entry(a).or_default().insert(o, (res, n));
                        }
                    }
                }
                _ => {}
            }
        }
        out.insert(b, known);
    }
    // A private variable nothing loads from any more: its stores go, and it with them.
    for a in private {
        let mut addrs = vec![ctx.result(a, 0)];
        let mut stores = Vec::new();
        let mut ptradds = Vec::new();
        let mut read = false;
        while let Some(v) = addrs.pop() {
            for (user, _) in ctx.uses(v).collect::<Vec<_>>() {
                match ctx.op_name_str(user) {
                    nv::PtrAddOp::NAME => {
                        ptradds.push(user);
                        addrs.push(ctx.result(user, 0));
                    }
                    nv::StoreOp::NAME if !cuprite_dialects::nvvm::is_volatile(ctx, user) => stores.push(user),
                    _ => read = true,
                }
            }
        }
        if read {
            continue;
        }
        for s in stores {
            ctx.erase_op(s);
        }
        for p in ptradds.into_iter().rev() {
            if !ctx.has_uses(ctx.result(p, 0)) {
                ctx.erase_op(p);
            }
        }
        if !ctx.has_uses(ctx.result(a, 0)) {
            ctx.erase_op(a);
        }
    }
    forwarded
}

/// What is known of the private variables: per alloca, offset -> (value there, its size).
type Known = FxHashMap<OpId, FxHashMap<i128, (ValueId, i128)>>;
