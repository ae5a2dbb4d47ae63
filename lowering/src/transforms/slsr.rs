//! `slsr`: straight-line strength reduction of addresses, LLVM's SLSR as the NVPTX
//! pipeline runs it (and cicc's "base + i * stride" reassociation), for the accesses of one
//! block that differ by a multiple of one runtime stride.
//!
//! A thread writing several rows of an output (`out[0 * n + t]`, `out[1 * n + t]`, ...)
//! computes each address as `base + S * sext(C * n + t)`: a `mad`, a `mul.wide` and an add
//! each. Two such addresses off the same `base`, element size `S` and `t`, with `C` and
//! `C + 1`, differ by `S * sext(n)`. With `nsw` on the `add` and the `mul` (C's signed
//! arithmetic), `sext(C * n + t)` is `C * sext(n) + sext(t)` exactly, so the second address
//! is the first plus that stride: one 64-bit add, the stride computed once.
//!
//! Steps, per block in order:
//! 1. Read each `ptradd(base, S * sext(x))` (`S` a constant) as candidates
//!    `(base, S, t) -> (n, C)`: `x` is `C * n + t` (`add nsw` of a `mul nsw` by a
//!    constant), `n + t` or `t + n` (`C = 1`, both readings), or `x` itself (`C = 0`, any
//!    `n`).
//! 2. When an earlier candidate with the same `(base, S, t)` has `C - 1` (and the same `n`,
//!    or no `n` at `C = 0`), the address becomes that one plus `S * sext(n)` (built once per
//!    `n` and `S` in the block). The old computation is left to `dce`.
//! 3. The new address is a candidate in turn: a run of rows becomes a chain of adds.
//!
//! Constant offsets through `zext` (LLVM's separate-const-offset-from-gep, which NVPTX
//! runs before SLSR): unsigned indices `out[4 * t + 1]` make `base + S * zext(x + c)`, which
//! is `base + S * zext(x) + S * c` only where `x + c` cannot wrap. Where the facts of `x`
//! (ranges from thread indices, guards, counters: `eqsat::scope`) prove it, an address off
//! the same `(base, S, x)` as an earlier one `base + S * zext(x + c0)` becomes that address
//! plus the constant `S * (c - c0)`, which instruction selection folds into `[reg+imm]`:
//! one address for the row of accesses instead of an add, a `mul.wide` and an add each.
//!
//! 64-bit offsets (`size_t` indices: `p[k * sp]` with `sp` a `size_t`): an address
//! `base + K * n` (the offset a chain of multiplications and left shifts of a 64-bit `n`
//! by constants) after an earlier `base + K0 * n` of the block, the largest `K0 < K`,
//! becomes that address plus `(K - K0) * n` when that value exists already (an earlier
//! offset of the block, or `n` itself for a difference of 1). 64-bit address arithmetic
//! wraps as the machine's does, so no flag is needed: `p[sp], p[2 * sp], ...` become a chain
//! of adds of one `4 * sp`, as NVRTC's PTX has it. The same through the sign extension of
//! an `int` multiple with `nsw` (`p[k * stride]`, `sext(k * stride) * 4`): the offsets
//! that LICM hoisted out of a loop, one 64-bit register each, become one stride and a
//! chain of adds in the loop.

use cuprite_dialects::nvvm as nv;
use cuprite_ir::{rewrite::NoListener, rewrite::Rewriter, BlockId, Context, OpId, TypeId, ValueId};
use rustc_hash::FxHashMap;

/// One reading of an address's index: `C * n + t` (`n` `None` when `C` is 0).
#[derive(Clone, Copy)]
struct Reading {
    n: Option<ValueId>,
    c: i128,
    t: ValueId,
}

fn konst(ctx: &Context, v: ValueId) -> Option<i128> {
    ctx.defining_op(v).and_then(|d| nv::int_constant(ctx, d))
}

/// `a * b` with one side a constant: (the other side, the constant).
fn times_const(ctx: &Context, d: OpId) -> Option<(ValueId, i128)> {
    let (a, b) = (ctx.operand(d, 0), ctx.operand(d, 1));
    match (konst(ctx, a), konst(ctx, b)) {
        (_, Some(c)) => Some((a, c)),
        (Some(c), None) => Some((b, c)),
        _ => None,
    }
}

/// The readings of index `x` (step 1).
fn readings(ctx: &Context, x: ValueId) -> Vec<Reading> {
    let mut out = vec![Reading { n: None, c: 0, t: x }];
    let Some(d) = ctx.defining_op(x) else { return out };
    if nv::AddOp::cast(ctx, d).is_none_or(|a| !a.nsw(ctx)) {
        return out;
    }
    let (a, b) = (ctx.operand(d, 0), ctx.operand(d, 1));
    for (u, t) in [(a, b), (b, a)] {
        let scaled = ctx.defining_op(u).filter(|&m| nv::MulOp::cast(ctx, m).is_some_and(|o| o.nsw(ctx))).and_then(|m| times_const(ctx, m));
        match scaled {
            Some((n, c)) => out.push(Reading { n: Some(n), c, t }),
            None if konst(ctx, u).is_none() => out.push(Reading { n: Some(u), c: 1, t }),
            None => {}
        }
    }
    out
}

/// `ptradd(base, S * sext(x))`: (base, S, x, the 64-bit offset type).
fn address(ctx: &Context, p: OpId) -> Option<(ValueId, i128, ValueId, TypeId)> {
    let off = ctx.operand(p, 1);
    let m = ctx.defining_op(off).filter(|&m| nv::MulOp::cast(ctx, m).is_some())?;
    let (s, scale) = times_const(ctx, m)?;
    let e = ctx.defining_op(s).filter(|&e| nv::SextOp::cast(ctx, e).is_some())?;
    Some((ctx.operand(p, 0), scale, ctx.operand(e, 0), ctx.value_type(off)))
}

/// Runs the pass on `func`; the number of addresses rewritten.
pub fn slsr(ctx: &mut Context, func: OpId) -> u64 {
    let blocks: Vec<BlockId> = ctx.regions(func).iter().flat_map(|&r| ctx.region_blocks(r).to_vec()).collect();
    let maxntid = crate::eqsat::scope::max_threads(ctx, func);
    blocks.into_iter().map(|b| slsr_block(ctx, b) + const_offsets_block(ctx, b, maxntid) + wide_block(ctx, b)).sum()
}

/// A 64-bit offset `off` as `K * n`, through multiplications and left shifts by constants
/// (`n` = `off`, `K` = 1 when there are none), and through one sign extension of a narrower
/// value whose multiplications by constants carry `nsw` (C's signed arithmetic: then
/// `sext(x * c)` is `sext(x) * c`). The leaf comes back with whether it is the narrow value
/// under that extension.
fn scaled(ctx: &Context, off: ValueId) -> ((ValueId, bool), i128) {
    let (mut v, mut k, mut narrow) = (off, 1i128, false);
    for _ in 0..8 {
        let Some(d) = ctx.defining_op(v) else { break };
        if !narrow && nv::SextOp::cast(ctx, d).is_some() {
            let x = ctx.operand(d, 0);
            let nsw_mul = ctx.defining_op(x).and_then(|m| nv::MulOp::cast(ctx, m)).is_some_and(|m| m.nsw(ctx));
            let leaf = konst(ctx, x).is_none();
            // Through the extension only to a leaf or an `nsw` multiplication.
            if leaf && (nsw_mul || ctx.defining_op(x).and_then(|m| nv::MulOp::cast(ctx, m)).is_none()) {
                (v, narrow) = (x, true);
                continue;
            }
            break;
        }
        let step = if let Some(m) = nv::MulOp::cast(ctx, d) {
            if narrow && !m.nsw(ctx) {
                None
            } else {
                times_const(ctx, d)
            }
        } else if nv::ShlOp::cast(ctx, d).is_some() && !narrow {
            konst(ctx, ctx.operand(d, 1)).filter(|c| (0..63).contains(c)).map(|c| (ctx.operand(d, 0), 1i128 << c))
        } else {
            None
        };
        match step.and_then(|(x, c)| Some((x, k.checked_mul(c)?))) {
            Some((x, nk)) if konst(ctx, x).is_none() => (v, k) = (x, nk),
            _ => break,
        }
    }
    ((v, narrow), k)
}

/// Replaces address `p` (a `ptradd`) by `from + stride`, built before it; the new address.
fn replace_address(ctx: &mut Context, p: OpId, from: ValueId, stride: ValueId) -> ValueId {
    let (loc, old) = (ctx.op_loc(p), ctx.result(p, 0));
    let ty = ctx.value_type(old);
    let mut listener = NoListener;
    let mut rw = Rewriter::new(ctx, &mut listener);
    rw.set_insertion_point_before(p);
    let st = nv::PtrAddOp::build(rw.ctx, loc, ty, from, stride);
    let new = rw.create(st);
    let new = rw.ctx.result(new, 0);
    ctx.replace_all_uses_with(old, new);
    new
}

/// The 64-bit step (module docs) on one block; the number of addresses rewritten.
fn wide_block(ctx: &mut Context, block: BlockId) -> u64 {
    let ptradds: Vec<OpId> = ctx.block_ops(block).filter(|&o| nv::PtrAddOp::cast(ctx, o).is_some()).collect();
    // (base, n) -> the addresses so far, `base + K * n` (the base itself at K = 0); `n` a
    // value and whether it is sign-extended.
    type Leaf = (ValueId, bool);
    let mut cands: FxHashMap<(ValueId, Leaf), Vec<(i128, ValueId)>> = FxHashMap::default();
    // (n, K) -> a value `K * n` that dominates the rest of the block.
    let mut strides: FxHashMap<(Leaf, i128), ValueId> = FxHashMap::default();
    let mut rewritten = 0;
    for p in ptradds {
        let (base, off) = (ctx.operand(p, 0), ctx.operand(p, 1));
        let off_ty = ctx.value_type(off);
        if !matches!(ctx.type_kind(off_ty), cuprite_ir::TypeKind::Integer { width: 64, .. }) {
            continue;
        }
        let (n, k) = scaled(ctx, off);
        if konst(ctx, n.0).is_some() || k <= 0 {
            continue;
        }
        strides.entry((n, k)).or_insert(off);
        let list = cands.entry((base, n)).or_insert_with(|| vec![(0, base)]);
        let prev = list.iter().filter(|(c, _)| *c < k).max_by_key(|(c, _)| *c).copied();
        let mut addr = ctx.result(p, 0);
        if let Some((c0, from)) = prev.filter(|_| off != n.0) {
            let stride = if k - c0 == 1 && !n.1 { Some(n.0) } else { strides.get(&(n, k - c0)).copied() };
            if let Some(stride) = stride.filter(|_| from != base) {
                addr = replace_address(ctx, p, from, stride);
                rewritten += 1;
            }
        }
        cands.entry((base, n)).or_default().push((k, addr));
    }
    rewritten
}

/// `ptradd(base, S * zext(x))`: (base, S, x).
fn zext_address(ctx: &Context, p: OpId) -> Option<(ValueId, i128, ValueId)> {
    let off = ctx.operand(p, 1);
    let m = ctx.defining_op(off).filter(|&m| nv::MulOp::cast(ctx, m).is_some())?;
    let (s, scale) = times_const(ctx, m)?;
    let e = ctx.defining_op(s).filter(|&e| nv::ZextOp::cast(ctx, e).is_some())?;
    Some((ctx.operand(p, 0), scale, ctx.operand(e, 0)))
}

/// `x` as `t + c` (`c` a constant, `(x, 0)` otherwise).
fn split_constant(ctx: &Context, x: ValueId) -> (ValueId, i128) {
    let Some(d) = ctx.defining_op(x).filter(|&d| nv::AddOp::cast(ctx, d).is_some()) else { return (x, 0) };
    match times_const(ctx, d) {
        Some((t, c)) if konst(ctx, t).is_none() => (t, c),
        _ => (x, 0),
    }
}

/// The constant-offset step (module docs) on one block; the number of addresses rewritten.
fn const_offsets_block(ctx: &mut Context, block: BlockId, maxntid: Option<i128>) -> u64 {
    let ptradds: Vec<OpId> = ctx.block_ops(block).filter(|&o| nv::PtrAddOp::cast(ctx, o).is_some()).collect();
    let scope = crate::eqsat::scope::Scope::at(ctx, block, maxntid, None);
    // (base, S, t) -> the first address with its constant.
    let mut first: FxHashMap<(ValueId, i128, ValueId), (i128, ValueId)> = FxHashMap::default();
    let mut rewritten = 0;
    for p in ptradds {
        let Some((base, scale, x)) = zext_address(ctx, p) else { continue };
        let (t, c) = split_constant(ctx, x);
        let width = match ctx.type_kind(ctx.value_type(t)) {
            cuprite_ir::TypeKind::Integer { width, .. } if *width < 64 => *width,
            _ => continue,
        };
        // `t + c` must not wrap: c non-negative, and t's largest value plus c in range.
        if c < 0 {
            continue;
        }
        if c > 0 {
            let f = crate::eqsat::scope::ir_facts(ctx, t, &scope);
            if f.width != width || f.u.1.checked_add(c).is_none_or(|top| top >= (1i128 << width)) {
                continue;
            }
        }
        let key = (base, scale, t);
        let Some(&(c0, from)) = first.get(&key) else {
            first.insert(key, (c, ctx.result(p, 0)));
            continue;
        };
        let Some(delta) = scale.checked_mul(c - c0) else { continue };
        let off_ty = ctx.value_type(ctx.operand(p, 1));
        let loc = ctx.op_loc(p);
        let mut listener = NoListener;
        let mut rw = Rewriter::new(ctx, &mut listener);
        rw.set_insertion_point_before(p);
        let k = rw.ctx.int_attr(delta, off_ty);
        let st = nv::ConstantOp::build(rw.ctx, loc, off_ty, k);
        let k = rw.create(st);
        let k = rw.ctx.result(k, 0);
        let ty = rw.ctx.value_type(from);
        let st = nv::PtrAddOp::build(rw.ctx, loc, ty, from, k);
        let new = rw.create(st);
        let new = rw.ctx.result(new, 0);
        let old = ctx.result(p, 0);
        ctx.replace_all_uses_with(old, new);
        rewritten += 1;
    }
    rewritten
}

fn slsr_block(ctx: &mut Context, block: BlockId) -> u64 {
    let ptradds: Vec<OpId> = ctx.block_ops(block).filter(|&o| nv::PtrAddOp::cast(ctx, o).is_some()).collect();
    // (base, S, t) -> the candidates so far: (n, C, address).
    type Key = (ValueId, i128, ValueId);
    let mut cands: FxHashMap<Key, Vec<(Option<ValueId>, i128, ValueId)>> = FxHashMap::default();
    // (n, S) -> the stride `S * sext(n)` built in this block.
    let mut strides: FxHashMap<(ValueId, i128), ValueId> = FxHashMap::default();
    let mut rewritten = 0;
    for p in ptradds {
        let Some((base, scale, x, off_ty)) = address(ctx, p) else { continue };
        let reads = readings(ctx, x);
        let mut addr = ctx.result(p, 0);
        for r in &reads {
            let prev = cands.get(&(base, scale, r.t)).and_then(|v| {
                v.iter().rev().find(|(n, c, _)| {
                    *c == r.c - 1
                        && match (n, r.n) {
                            (Some(a), Some(b)) => *a == b,
                            (None, Some(_)) => true,
                            _ => false,
                        }
                })
            });
            let (Some(&(_, _, from)), Some(n)) = (prev, r.n) else { continue };
            let loc = ctx.op_loc(p);
            let mut listener = NoListener;
            let mut rw = Rewriter::new(ctx, &mut listener);
            rw.set_insertion_point_before(p);
            let stride = match strides.get(&(n, scale)) {
                Some(&s) => s,
                None => {
                    let st = nv::SextOp::build(rw.ctx, loc, off_ty, n);
                    let wide = rw.create(st);
                    let wide = rw.ctx.result(wide, 0);
                    let k = rw.ctx.int_attr(scale, off_ty);
                    let st = nv::ConstantOp::build(rw.ctx, loc, off_ty, k);
                    let k = rw.create(st);
                    let k = rw.ctx.result(k, 0);
                    let st = nv::MulOp::build(rw.ctx, loc, off_ty, wide, k, None);
                    let s = rw.create(st);
                    let s = rw.ctx.result(s, 0);
                    strides.insert((n, scale), s);
                    s
                }
            };
            addr = replace_address(ctx, p, from, stride);
            rewritten += 1;
            break;
        }
        for r in reads {
            cands.entry((base, scale, r.t)).or_default().push((r.n, r.c, addr));
        }
    }
    rewritten
}
