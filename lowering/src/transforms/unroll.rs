//! `loop-unroll`: unrolling of counted loops ([`super::loops::shape`]), as NVRTC does:
//! fully for `#pragma unroll` and small loops with a constant trip count, by a factor for
//! the others.
//!
//! Which loops (the `#pragma unroll` hint is on the loop's back edge, [`cuprite_dialects::hints`]):
//! - `#pragma unroll 1` (`nounroll`): never;
//! - `#pragma unroll` (no count), or `#pragma unroll N` with `N` at least the trip count:
//!   fully, when the trip count is at most [`PRAGMA_MAX_TRIPS`] and the unrolled body at
//!   most [`PRAGMA_MAX_SIZE`] ops (a bound against a pragma on a huge loop);
//! - no pragma: fully when the trip count is at most `max-trips` ([`DEFAULT_MAX_TRIPS`])
//!   and the unrolled body at most `threshold` ops ([`DEFAULT_THRESHOLD`]): the size at
//!   which LLVM's NVPTX backend, which NVRTC's pipeline follows, stops unrolling fully
//!   (its `-unroll-threshold` of 300 instructions, before simplification);
//! - by a factor (`runtime_unroll`: a new loop in front of the loop runs `N` trips a
//!   round while at least `N` remain, the loop itself the rest, or nothing when `N`
//!   divides a constant trip count): `#pragma unroll N` below
//!   the trip count or with a trip count known only at run time, and (no pragma) an
//!   innermost loop not unrolled fully whose body times `runtime-factor`
//!   ([`DEFAULT_RUNTIME_FACTOR`]) stays under the threshold; by [`WIDE_FACTOR`] (8) instead
//!   when 8 divides a constant trip count and eight copies of its instructions (constants
//!   not counted) stay under a quarter of the threshold (LLVM's partial unrolling on NVPTX
//!   picks such counts).
//!
//! Full unrolling: with `T` trips, the loop's blocks are copied `T - 1` times after it, and its header
//! once more; the back edge of copy `k` goes to the header of copy `k + 1`. Every header
//! but the last branches straight into its body (the test holds `T` times), the last
//! straight to the exit; what the code after the loop used from the header comes from the
//! last copy. Inner loops come first (their copies go along when an outer loop unrolls).
//! `sccp` and `canonicalize` afterwards fold the constant induction variable and merge
//! the chain of blocks.
//!
//! A range-`for` over an array counts with a pointer (`p != end`, `p += sizeof(T)`): its
//! trip count is the distance from the start to the end (constant offsets from one object,
//! through `ptradd` and address-space casts) over the step; such loops are unrolled fully
//! or not at all (the factor's remainder test is integer arithmetic). So are loops with
//! early exits (`break`, `goto`, `return` inside), when nothing after them reads the loop's
//! values except through the exits' block arguments: each copy keeps its exits.

use super::loops::{counted, find_loops, shape, Counted, Loop, Shape};
use cuprite_dialects::nvvm as nv;
use cuprite_dialects::nvvm::ICmpPredicate;
use cuprite_ir::{clone::CloneMap, BlockId, Context, InsertPoint, OpId, RegionId, ValueId};
use rustc_hash::{FxHashMap, FxHashSet};

/// Without a pragma: at most this many ops once unrolled (LLVM's default full-unroll
/// threshold, 300, which NVPTX keeps).
pub const DEFAULT_THRESHOLD: u64 = 300;
/// Without a pragma: at most this many trips.
pub const DEFAULT_MAX_TRIPS: u64 = 32;
/// Without a pragma, an innermost loop whose trip count is not a constant (or too big to
/// unroll fully) is unrolled by this factor when the unrolled body stays under the
/// threshold: what NVRTC does (LLVM's runtime unrolling, count 4 on NVPTX).
pub const DEFAULT_RUNTIME_FACTOR: u64 = 4;
/// Without a pragma, a loop with a constant trip count this divides and a body of at most
/// a quarter of `threshold` / this ops (LLVM's partial threshold on NVPTX) is unrolled by
/// this factor instead of `runtime-factor`.
pub const WIDE_FACTOR: u64 = 8;
/// With `#pragma unroll`: at most this many trips ...
pub const PRAGMA_MAX_TRIPS: u64 = 1024;
/// ... and this many ops once unrolled.
pub const PRAGMA_MAX_SIZE: u64 = 16384;
/// Unrolls per function at most (copies of unrolled outer loops bring their inner loops
/// again): a bound on the work for a pathological nest.
pub const MAX_UNROLLS: u64 = 1024;

/// The pass's options.
#[derive(Copy, Clone, Debug)]
pub struct Options {
    /// Ops once unrolled, without a pragma.
    pub threshold: u64,
    /// Trips, without a pragma.
    pub max_trips: u64,
    /// The factor of runtime unrolling without a pragma (`< 2`: none).
    pub runtime_factor: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options { threshold: DEFAULT_THRESHOLD, max_trips: DEFAULT_MAX_TRIPS, runtime_factor: DEFAULT_RUNTIME_FACTOR }
    }
}

/// What the pass did in one function.
#[derive(Default, Debug)]
pub struct Stats {
    pub unrolled: u64,
    /// Unrolled by a factor, with the loop itself doing the remaining trips.
    pub partial: u64,
    pub by_pragma: u64,
    pub copies: u64,
    /// Counted loops left rolled (too big, too many trips, `nounroll`).
    pub kept: u64,
}

/// Ops in the loop's blocks.
fn size(ctx: &Context, l: &Loop) -> u64 {
    l.blocks.iter().map(|&b| ctx.block_ops(b).count() as u64).sum()
}

/// The loop's instructions as LLVM counts them for its partial threshold: its ops but the
/// constants (operands in LLVM, immediates in PTX).
fn instructions(ctx: &Context, l: &Loop) -> u64 {
    l.blocks.iter().map(|&b| ctx.block_ops(b).filter(|&o| !ctx.is_op(o, nv::ConstantOp::NAME)).count() as u64).sum()
}

/// Unrolls the counted loops of `nvvm.func` `f` that the rules of [the module](self) pick.
pub fn unroll_function(ctx: &mut Context, f: OpId, opts: &Options) -> Stats {
    let mut stats = Stats::default();
    let Some(&r) = ctx.regions(f).first() else { return stats };
    let mut refused: FxHashSet<BlockId> = FxHashSet::default();
    // Rounds of one loop analysis each: a round unrolls every loop it can whose blocks no
    // unrolling of the same round touched (an enclosing loop waits for the next round),
    // so there are about as many rounds as the nest is deep.
    while stats.unrolled + stats.partial < MAX_UNROLLS {
        let loops = find_loops(ctx, f);
        let order: FxHashMap<BlockId, usize> = cuprite_ir::dominance::rpo(ctx, r).into_iter().enumerate().map(|(i, b)| (b, i)).collect();
        let mut touched: FxHashSet<BlockId> = FxHashSet::default();
        let mut changed = false;
        for l in &loops {
            if refused.contains(&l.header) || stats.unrolled + stats.partial >= MAX_UNROLLS {
                continue;
            }
            if l.blocks.iter().any(|b| touched.contains(b)) {
                continue;
            }
            let Some(sh) = shape(ctx, l) else { continue };
            let back = ctx.terminator(sh.latch).expect("a counted loop's latch branches");
            let hint = cuprite_dialects::nvvm::BrOp(back).unroll(ctx).map(|n| n as i64);
            let sz = size(ctx, l);
            let trips = counted(ctx, r, l);
            if let Some(c) = &trips {
                let unrolled = sz.saturating_mul(c.trips);
                let full = match hint {
                    Some(1) => false,
                    Some(n) if n == 0 || n as u64 >= c.trips => c.trips <= PRAGMA_MAX_TRIPS && unrolled <= PRAGMA_MAX_SIZE,
                    Some(_) => false,
                    None => c.trips <= opts.max_trips && unrolled <= opts.threshold,
                };
                if full {
                    touched.extend(l.blocks.iter().copied());
                    full_unroll(ctx, r, l, c, &order);
                    stats.unrolled += 1;
                    stats.by_pragma += u64::from(hint.is_some());
                    stats.copies += c.trips;
                    changed = true;
                    continue;
                }
            }
            // By a factor, the rest of the trips in the loop itself: `#pragma unroll N`, or
            // (no pragma) an innermost loop whose body is small, by `runtime-factor`.
            let inner = loops.iter().any(|o| o.header != l.header && l.contains(o.header));
            let factor = match hint {
                Some(n) if n >= 2 => Some(n as u64).filter(|&f| sz.saturating_mul(f) <= PRAGMA_MAX_SIZE),
                Some(_) => None,
                None if inner || opts.runtime_factor < 2 => None,
                // A constant trip count that 8 divides, and a body small enough for LLVM's
                // partial-unrolling threshold (NVPTX's: a quarter of the full one): by 8,
                // as NVRTC does, so the counter's low three bits are the copy's number.
                None => trips
                    .as_ref()
                    .map(|_| WIDE_FACTOR)
                    .filter(|&f| f > opts.runtime_factor && instructions(ctx, l).saturating_mul(f) <= opts.threshold / 4)
                    .filter(|&f| trips.as_ref().is_some_and(|c| c.trips % f == 0))
                    .or(Some(opts.runtime_factor).filter(|&f| sz.saturating_mul(f) <= opts.threshold)),
            };
            // Not worth it for a loop that runs fewer trips than two rounds.
            let factor = factor.filter(|&f| trips.as_ref().is_none_or(|c| c.trips >= 2 * f));
            match factor {
                Some(f) if runtime_unroll(ctx, r, l, &sh, f, trips.as_ref().is_some_and(|c| c.trips % f == 0), &order) => {
                    touched.extend(l.blocks.iter().copied());
                    stats.partial += 1;
                    stats.by_pragma += u64::from(hint.is_some());
                    stats.copies += f;
                    refused.insert(l.header);
                    changed = true;
                }
                _ => {
                    refused.insert(l.header);
                    stats.kept += 1;
                }
            }
        }
        if !changed {
            break;
        }
    }
    stats
}

/// New empty blocks with the argument types of `like`, inserted into region `r` at `*at`
/// onwards (which advances past them).
fn blocks_like(ctx: &mut Context, r: RegionId, at: &mut usize, like: &[BlockId]) -> Vec<BlockId> {
    let mut v = Vec::with_capacity(like.len());
    for &b in like {
        let tys: Vec<_> = ctx.block_args(b).iter().map(|&a| ctx.value_type(a)).collect();
        let nb = ctx.create_block(&tys);
        ctx.insert_block(r, *at, nb);
        *at += 1;
        v.push(nb);
    }
    v
}

/// The clone map of a copy: each of `blocks` to its copy in `copy` (in order), and their
/// arguments likewise.
fn copy_map(ctx: &Context, blocks: &[BlockId], copy: &[BlockId]) -> CloneMap {
    let mut map = CloneMap::default();
    for (&src, &b) in blocks.iter().zip(copy) {
        for (&a, &na) in ctx.block_args(src).iter().zip(ctx.block_args(b)) {
            map.values.insert(a, na);
        }
        map.blocks.insert(src, b);
    }
    map
}

/// The blocks of `l` in reverse post-order (definitions before their uses), by the
/// round's numbering `order`.
fn rpo_blocks(l: &Loop, order: &FxHashMap<BlockId, usize>) -> Vec<BlockId> {
    let mut v: Vec<BlockId> = l.blocks.iter().copied().filter(|b| order.contains_key(b)).collect();
    v.sort_by_key(|b| order[b]);
    v
}

/// Replaces loop `l` (counted as `c`) by `c.trips` copies of its body.
fn full_unroll(ctx: &mut Context, r: RegionId, l: &Loop, c: &Counted, order: &FxHashMap<BlockId, usize>) {
    let h = l.header;
    let exit = 1 - c.shape.stay;
    if c.trips == 0 {
        super::cfg::branch_to(ctx, c.shape.test, exit);
        return;
    }
    // The loop's blocks, then the blocks only its early exits enter (each copy its own).
    let mut blocks = rpo_blocks(l, order);
    blocks.extend(c.shape.tails.iter().copied());
    let mut at = l.blocks.iter().chain(&c.shape.tails).filter_map(|&b| ctx.block_index(b)).max().unwrap_or(0) + 1;
    // copies[k]: copy k's block for each of `blocks` (copy 0: the loop itself; the last
    // copy is the header alone).
    let t = c.trips as usize;
    let mut copies: Vec<Vec<BlockId>> = vec![blocks.clone()];
    for k in 1..=t {
        let which: Vec<BlockId> = if k < t { blocks.clone() } else { vec![h] };
        copies.push(blocks_like(ctx, r, &mut at, &which));
    }
    let mut last_map = CloneMap::default();
    for k in 1..=t {
        let mut map = copy_map(ctx, &blocks, &copies[k]);
        if k < t {
            map.blocks.insert(h, copies[k + 1][0]);
        }
        for (i, &nb) in copies[k].iter().enumerate() {
            let src = blocks[i];
            for o in ctx.block_ops(src).collect::<Vec<_>>() {
                if k == t && o == c.shape.test {
                    continue;
                }
                let n = cuprite_ir::clone::clone_op(ctx, o, &mut map);
                ctx.insert_op(n, InsertPoint::end(nb));
            }
        }
        if k == t {
            // The last header: straight to the exit.
            let args: Vec<ValueId> = ctx.successor_args(c.shape.test, exit).iter().map(|v| *map.values.get(v).unwrap_or(v)).collect();
            let dest = ctx.successor(c.shape.test, exit);
            let loc = ctx.op_loc(c.shape.test);
            let st = cuprite_dialects::nvvm::BrOp::build(ctx, loc, &args, None, dest);
            let br = ctx.create_op(st);
            ctx.insert_op(br, InsertPoint::end(copies[k][0]));
            last_map = map;
        } else {
            // Copy k's header: straight into its body.
            let test = ctx.terminator(copies[k][0]).expect("the header copy ends in its test");
            super::cfg::branch_to(ctx, test, c.shape.stay);
        }
    }
    // The loop itself is copy 0: its test holds, its back edge goes to copy 1.
    let back = ctx.terminator(c.shape.latch).expect("the latch branches");
    ctx.set_successor(back, 0, copies[1][0]);
    super::cfg::branch_to(ctx, c.shape.test, c.shape.stay);
    // What code after the loop read from the header, it reads from the last copy.
    let in_loop: FxHashSet<BlockId> = copies.iter().flatten().copied().collect();
    let mut defined: Vec<ValueId> = ctx.block_args(h).to_vec();
    for o in ctx.block_ops(h).collect::<Vec<_>>() {
        defined.extend(ctx.results(o).iter().copied());
    }
    for v in defined {
        let Some(&nv) = last_map.values.get(&v) else { continue };
        ctx.replace_uses_with_if(v, nv, |ctx, owner, _| ctx.op_block(owner).is_some_and(|b| !in_loop.contains(&b)));
    }
}

/// The predicate under which the loop goes on (`sh.pred`, negated when the loop stays on
/// the false edge).
fn continuation(sh: &Shape) -> ICmpPredicate {
    if sh.stay_if_true {
        sh.pred
    } else {
        super::loops::inverse(sh.pred)
    }
}

/// For a constant `bound`: the bound `b` for which `cont(iv, b)` holds exactly when
/// `cont(iv, bound)` holds `reach` further on (`bound - reach` counting up, `bound + reach`
/// down), when that does not wrap at `width` bits under the comparison's signedness; not
/// for `!=`.
fn near_bound(ctx: &Context, bound: ValueId, cont: ICmpPredicate, up: bool, reach: i128, width: u32) -> Option<i128> {
    use ICmpPredicate::*;
    let b = nv::int_constant(ctx, ctx.defining_op(bound)?)?;
    let (lo, hi) = match cont {
        Slt | Sle | Sgt | Sge => (-(1i128 << (width - 1)), (1i128 << (width - 1)) - 1),
        Ult | Ule | Ugt | Uge => (0, (1i128 << width) - 1),
        _ => return None,
    };
    // The constant as the comparison reads it.
    let b = match cont {
        Ult | Ule | Ugt | Uge => b & hi,
        _ => {
            let m = b & ((1i128 << width) - 1);
            if m > hi {
                m - (1i128 << width)
            } else {
                m
            }
        }
    };
    let n = if up { b - reach } else { b + reach };
    (lo..=hi).contains(&n).then_some(n)
}

/// Unrolls loop `l` (of shape `sh`) by `f`: a new loop in front of it runs `f` trips per
/// round while at least `f` remain, and the loop itself runs what is left. The new loop's
/// header checks, without overflow, that the bound is more than `f - 1` steps away:
/// `(bound - iv) >u (f - 1) * step` once `iv < bound` holds (`>=u` for `<=`; mirrored for
/// a loop counting down; `!=` with a step of one). Returns `false`, changing nothing, for
/// a comparison or step it cannot check that way.
/// Unrolls `l` by `f` in front of itself (module docs). With `exact` (a constant trip count
/// that `f` divides), the new loop leaves straight to the exit: the loop itself, which
/// would run no trip, is left unreachable.
fn runtime_unroll(ctx: &mut Context, r: RegionId, l: &Loop, sh: &Shape, f: u64, exact: bool, order: &FxHashMap<BlockId, usize>) -> bool {
    if sh.pointer || sh.side_exits {
        return false;
    }
    use ICmpPredicate::*;
    let cont = continuation(sh);
    let Some(step) = sh.step() else { return false };
    let (up, inclusive) = match (cont, step) {
        (Slt | Ult, s) if s > 0 => (true, false),
        (Sle | Ule, s) if s > 0 => (true, true),
        (Sgt | Ugt, s) if s < 0 => (false, false),
        (Sge | Uge, s) if s < 0 => (false, true),
        (Ne, 1) => (true, false),
        (Ne, -1) => (false, false),
        _ => return false,
    };
    let reach = (f as i128 - 1) * step.abs();
    if sh.width < 2 || reach >= 1i128 << (sh.width - 1) {
        return false;
    }
    let h = l.header;
    let blocks = rpo_blocks(l, order);
    let outside_preds: Vec<(OpId, usize)> =
        ctx.predecessors(h).filter(|&(t, _)| ctx.op_block(t).is_some_and(|b| !l.contains(b))).map(|(t, i)| (t, i as usize)).collect();
    let Some(mut at) = ctx.block_index(h) else { return false };
    // copies[k]: copy k of `blocks` (its header first); copy 0's header is the new loop's.
    let mut copies: Vec<Vec<BlockId>> = Vec::new();
    for _ in 0..f {
        copies.push(blocks_like(ctx, r, &mut at, &blocks));
    }
    let n = f as usize;
    // The header's values and their copies in the new loop's header (for `exact`).
    let mut header_values: Vec<(ValueId, ValueId)> = Vec::new();
    for k in 0..n {
        let mut map = copy_map(ctx, &blocks, &copies[k]);
        // The back edge of copy k goes to the next copy's header; the last one's to the
        // new loop's header.
        map.blocks.insert(h, copies[(k + 1) % n][0]);
        for (i, &nb) in copies[k].iter().enumerate() {
            for o in ctx.block_ops(blocks[i]).collect::<Vec<_>>() {
                let c = cuprite_ir::clone::clone_op(ctx, o, &mut map);
                ctx.insert_op(c, InsertPoint::end(nb));
            }
        }
        let hk = copies[k][0];
        let test = ctx.terminator(hk).expect("the header copy ends in its test");
        // A header clone maps the header to the next copy: its own successors are right
        // (they are body blocks or the exit); only the test changes.
        if k > 0 {
            super::cfg::branch_to(ctx, test, sh.stay);
            continue;
        }
        let defined: Vec<ValueId> =
            ctx.block_args(h).iter().copied().chain(ctx.block_ops(h).flat_map(|o| ctx.results(o).to_vec())).collect();
        header_values = defined.into_iter().filter_map(|v| map.values.get(&v).map(|&c| (v, c))).collect();
        // The new loop's header: on while `f` more trips hold, else to the loop itself.
        let iv = ctx.block_args(hk)[sh.iv];
        // A constant bound may be defined in the header: its copy's.
        let bound = *map.values.get(&sh.bound).unwrap_or(&sh.bound);
        let loc = ctx.op_loc(test);
        let ty = ctx.value_type(iv);
        let i1 = ctx.i1();
        let emit = |ctx: &mut Context, name: &str, ops: &[ValueId], t: cuprite_ir::TypeId, props: &[(&str, cuprite_ir::AttrId)]| {
            let st = crate::build::state(ctx, name, loc, ops, &[t], props, &[]);
            let op = ctx.create_op(st);
            ctx.insert_op(op, InsertPoint { block: hk, before: Some(test) });
            ctx.result(op, 0)
        };
        let pa = crate::build::i32_attr(ctx, cont as i64);
        let go = match near_bound(ctx, bound, cont, up, reach, sh.width) {
            // A constant bound: one comparison with the bound moved `reach` nearer.
            Some(b) => {
                let ba = ctx.int_attr(b, ty);
                let bv = emit(ctx, nv::ConstantOp::NAME, &[], ty, &[("value", ba)]);
                emit(ctx, nv::ICmpOp::NAME, &[iv, bv], i1, &[("predicate", pa)])
            }
            None => {
                let ok1 = emit(ctx, nv::ICmpOp::NAME, &[iv, bound], i1, &[("predicate", pa)]);
                let d =
                    if up { emit(ctx, nv::SubOp::NAME, &[bound, iv], ty, &[]) } else { emit(ctx, nv::SubOp::NAME, &[iv, bound], ty, &[]) };
                let ra = ctx.int_attr(reach, ty);
                let rv = emit(ctx, nv::ConstantOp::NAME, &[], ty, &[("value", ra)]);
                let far = crate::build::i32_attr(ctx, if inclusive { Uge } else { Ugt } as i64);
                let ok2 = emit(ctx, nv::ICmpOp::NAME, &[d, rv], i1, &[("predicate", far)]);
                emit(ctx, nv::AndOp::NAME, &[ok1, ok2], i1, &[])
            }
        };
        let stay_args = ctx.successor_args(test, sh.stay).to_vec();
        let stay_dest = ctx.successor(test, sh.stay);
        // Else: the loop itself for the remaining trips, or (`exact`: none remain) the
        // exit, with what the header's test passes it (this copy's values).
        let (else_dest, else_args) = if exact {
            (ctx.successor(test, 1 - sh.stay), ctx.successor_args(test, 1 - sh.stay).to_vec())
        } else {
            (h, ctx.block_args(hk).to_vec())
        };
        let st = cuprite_dialects::nvvm::CondBrOp::build(ctx, loc, go, &stay_args, &else_args, stay_dest, else_dest);
        let br = ctx.create_op(st);
        ctx.insert_op(br, InsertPoint { block: hk, before: Some(test) });
        ctx.drop_operands(test);
        ctx.clear_successors(test);
        ctx.erase_op(test);
    }
    // Entering the loop now enters the new loop first.
    for (t, i) in outside_preds {
        ctx.set_successor(t, i, copies[0][0]);
    }
    // With `exact`, the code after the loop is reached from the new loop's header: what it
    // read of the header (which dominated it) it reads of the copy.
    if exact {
        for (v, c) in header_values {
            ctx.replace_uses_with_if(v, c, |ctx, user, _| ctx.op_block(user).is_some_and(|b| !l.contains(b)));
        }
    }
    true
}
