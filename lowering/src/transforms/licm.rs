//! `licm`: loop-invariant code motion. An op in a loop whose operands all come from outside
//! the loop computes the same value every trip; it moves to the loop's preheader (a block
//! that runs once, right before the loop, and only when the loop is entered).
//!
//! What moves:
//! - arithmetic, comparisons, casts and address arithmetic that cannot trap
//!   ([`hoistable`]: [`super::select::speculatable`] plus division by a constant other than
//!   zero and `-1`, float division and the math intrinsics, conversions, reads of the
//!   thread and block indices), from any block of the loop (running them when the source
//!   would not has no effect but their cost, paid once);
//! - loads (`invariant_load`) of an invariant address that run on every trip (their block
//!   dominates the latch, so moving them faults no more than the loop does) and read memory
//!   nothing can change during the loop: a read-only load (`invariant`, the `nc` cache
//!   operator, the constant space), or any non-volatile load when the loop writes no memory
//!   at all (no store, atomic, call, barrier, fence, inline asm). Another thread's write
//!   during such a loop would be a data race.
//!
//! Not moved: volatile loads, loads in a branch of the loop body, loads in a loop that
//! stores (even to another address: without alias information a store through one
//! pointer may change what another reads), divisions by values that may be zero.
//!
//! The preheader: the header's one predecessor outside the loop when that block branches
//! nowhere else, or, when no load moves, when it does (a rotated loop's guard: what cannot
//! trap may run there); otherwise a new block on the edges from outside (rounds of one loop
//! analysis each, as `loop-rotate`'s, since a new block changes the enclosing loops). Inner
//! loops come first, so an invariant of a nest climbs one loop a round.

use super::loops::Loop;
use cuprite_dialects::nvvm as nv;
use cuprite_ir::{dominance::DominanceInfo, BlockId, Context, InsertPoint, OpId, RegionId, ValueId};
use rustc_hash::{FxHashMap, FxHashSet};

/// What the pass did in one function.
#[derive(Default, Debug)]
pub struct Stats {
    pub hoisted: u64,
    pub loads: u64,
    pub preheaders: u64,
}

/// Whether `op` is an integer division or remainder by a constant other than zero and `-1`
/// (no trap, no overflow; canonicalize makes shifts of the powers of two).
pub fn divides_by_constant(ctx: &Context, op: OpId) -> bool {
    matches!(ctx.op_name_str(op), nv::SdivOp::NAME | nv::UdivOp::NAME | nv::SremOp::NAME | nv::UremOp::NAME)
        && ctx.defining_op(ctx.operand(op, 1)).and_then(|d| nv::int_constant(ctx, d)).is_some_and(|d| d != 0 && d != -1)
}

/// Whether `op` is a float division or remainder, an intrinsic (`nvvm.intr`: math
/// instructions, all pure), or a conversion between integers and floats or between float
/// widths: pure, and (but for a few intrinsics) long-latency.
pub fn float_division_intrinsic_or_conversion(ctx: &Context, op: OpId) -> bool {
    matches!(
        ctx.op_name_str(op),
        nv::FdivOp::NAME
            | nv::FremOp::NAME
            | nv::IntrOp::NAME
            | nv::SitofpOp::NAME
            | nv::UitofpOp::NAME
            | nv::FptosiOp::NAME
            | nv::FptouiOp::NAME
            | nv::FpextOp::NAME
            | nv::FptruncOp::NAME
    )
}

/// Whether `op` may run once before the loop instead of where it is: no effects, no trap.
pub fn hoistable(ctx: &Context, op: OpId) -> bool {
    if super::select::speculatable(ctx, op) {
        return true;
    }
    if divides_by_constant(ctx, op) {
        return true;
    }
    if float_division_intrinsic_or_conversion(ctx, op) {
        return true;
    }
    match ctx.op_name_str(op) {
        nv::AddrspacecastOp::NAME | nv::PtrtointOp::NAME | nv::InttoptrOp::NAME | nv::AddressOfOp::NAME => true,
        nv::SRegOp::NAME => !matches!(nv::SRegOp(op).reg(ctx), Some(nv::SpecialReg::Clock | nv::SpecialReg::Clock64) | None),
        _ => false,
    }
}

/// Whether load `op` reads memory no one writes while the kernel runs.
fn read_only(ctx: &Context, op: OpId) -> bool {
    let Some(l) = nv::LoadOp::cast(ctx, op) else { return false };
    l.invariant(ctx)
        || l.cache(ctx) == Some("nc")
        || matches!(ctx.type_kind(ctx.value_type(ctx.operand(op, 0))), cuprite_ir::TypeKind::Pointer { addr_space: 4 })
}

/// Whether `op` writes memory or orders other threads' accesses (what keeps loads in).
fn writes_memory(ctx: &Context, op: OpId) -> bool {
    matches!(
        ctx.op_name_str(op),
        nv::StoreOp::NAME
            | nv::AtomicRmwOp::NAME
            | nv::CmpXchgOp::NAME
            | nv::CallOp::NAME
            | nv::BarrierOp::NAME
            | nv::FenceOp::NAME
            | nv::InlineAsmOp::NAME
    ) || (ctx.is_op(op, nv::LoadOp::NAME) && nv::is_volatile(ctx, op))
}

/// Whether load `op` may move: not volatile, and reading memory the loop does not change.
fn invariant_load(ctx: &Context, op: OpId, loop_writes: bool) -> bool {
    ctx.is_op(op, nv::LoadOp::NAME) && !nv::is_volatile(ctx, op) && (read_only(ctx, op) || !loop_writes)
}

/// Runs the pass on `nvvm.func` `f`.
pub fn licm(ctx: &mut Context, f: OpId) -> Stats {
    let mut stats = Stats::default();
    let Some(&r) = ctx.regions(f).first() else { return stats };
    super::loops::each_loop_once(ctx, f, |ctx, l, _| {
        let ops = invariant_ops(ctx, r, l);
        if ops.is_empty() {
            return false;
        }
        let loads = ops.iter().any(|&(_, load)| load);
        let (pre, made) = preheader(ctx, r, l, loads);
        stats.preheaders += u64::from(made);
        let term = ctx.terminator(pre).expect("a preheader ends in its branch");
        // Loads of one address (the copies of an unrolled body read a field each trip)
        // become one: nothing between them in the preheader writes memory.
        let mut loaded: FxHashMap<(ValueId, cuprite_ir::TypeId), ValueId> = FxHashMap::default();
        for (op, load) in ops {
            stats.hoisted += 1;
            stats.loads += u64::from(load);
            if load {
                let key = (ctx.operand(op, 0), ctx.value_type(ctx.result(op, 0)));
                if let Some(&v) = loaded.get(&key) {
                    ctx.replace_all_uses_with(ctx.result(op, 0), v);
                    ctx.erase_op(op);
                    continue;
                }
                loaded.insert(key, ctx.result(op, 0));
            }
            // `nsw` stays: `loop-reduce` reads it only on ops in the loop, and an invariant
            // is opaque to it.
            ctx.move_op(op, InsertPoint { block: pre, before: Some(term) });
        }
        made
    });
    stats
}

/// The preheader of `l`, and whether it is new: the header's one predecessor outside the
/// loop when it branches there alone, or (`entered_only` false: for ops that cannot trap)
/// when it also branches elsewhere (the guard of a rotated loop, which dominates it); else a
/// new block on the edges from outside: taking no arguments when there is one such edge
/// (its branch passes nothing, the new block the header's values), else the header's.
pub(super) fn preheader(ctx: &mut Context, r: RegionId, l: &Loop, entered_only: bool) -> (BlockId, bool) {
    let h = l.header;
    let outside: Vec<(OpId, usize)> =
        ctx.predecessors(h).filter(|&(t, _)| ctx.op_block(t).is_some_and(|b| !l.contains(b))).map(|(t, i)| (t, i as usize)).collect();
    let loc = ctx.op_loc(ctx.terminator(h).expect("a loop header ends in a branch"));
    let at = ctx.block_index(h).unwrap_or(0);
    if let [(t, i)] = outside.as_slice() {
        let (t, i) = (*t, *i);
        if ctx.is_op(t, nv::BrOp::NAME) || (!entered_only && super::cfg::is_branch(ctx, t)) {
            return (ctx.op_block(t).expect("a branch in a block"), false);
        }
        let p = ctx.create_block(&[]);
        ctx.insert_block(r, at, p);
        let args = ctx.successor_args(t, i);
        let st = nv::BrOp::build(ctx, loc, &args, None, h);
        let br = ctx.create_op(st);
        ctx.insert_op(br, InsertPoint::end(p));
        let n = ctx.num_successors(t);
        let all: Vec<Vec<ValueId>> = (0..n).map(|k| if k == i { Vec::new() } else { ctx.successor_args(t, k) }).collect();
        let nt = super::cfg::rebuild_branch(ctx, t, &all);
        ctx.set_successor(nt, i, p);
        return (p, true);
    }
    let tys: Vec<_> = ctx.block_args(h).iter().map(|&a| ctx.value_type(a)).collect();
    let p = ctx.create_block(&tys);
    ctx.insert_block(r, at, p);
    let args = ctx.block_args(p).to_vec();
    let st = nv::BrOp::build(ctx, loc, &args, None, h);
    let br = ctx.create_op(st);
    ctx.insert_op(br, InsertPoint::end(p));
    for (t, i) in outside {
        ctx.set_successor(t, i, p);
    }
    (p, true)
}

/// The invariant ops of `l` that may move, in an order where each comes after the ops it
/// uses, and whether each is a load.
fn invariant_ops(ctx: &Context, r: RegionId, l: &Loop) -> Vec<(OpId, bool)> {
    let in_loop: FxHashSet<BlockId> = l.blocks.iter().copied().collect();
    let loop_writes = l.blocks.iter().any(|&b| ctx.block_ops(b).any(|o| writes_memory(ctx, o)));
    // Blocks in reverse post-order, so that an op comes after the ops it uses.
    let order: FxHashMap<BlockId, usize> = cuprite_ir::dominance::rpo(ctx, r).into_iter().enumerate().map(|(i, b)| (b, i)).collect();
    let mut blocks: Vec<BlockId> = l.blocks.iter().copied().filter(|b| order.contains_key(b)).collect();
    blocks.sort_by_key(|b| order[b]);
    let mut dom = DominanceInfo::default();
    let every_trip: FxHashSet<BlockId> =
        blocks.iter().copied().filter(|&b| l.latches.iter().all(|&latch| dom.block_dominates(ctx, b, latch))).collect();
    let mut moved: FxHashSet<ValueId> = FxHashSet::default();
    let mut out = Vec::new();
    for b in blocks {
        for op in ctx.block_ops(b) {
            let invariant = |v: &ValueId| moved.contains(v) || ctx.value_block(*v).is_some_and(|b| !in_loop.contains(&b));
            if ctx.num_results(op) != 1 || !ctx.operand_vec(op).iter().all(invariant) {
                continue;
            }
            let load = every_trip.contains(&b) && invariant_load(ctx, op, loop_writes);
            if !load && !hoistable(ctx, op) {
                continue;
            }
            moved.insert(ctx.result(op, 0));
            out.push((op, load));
        }
    }
    out
}
