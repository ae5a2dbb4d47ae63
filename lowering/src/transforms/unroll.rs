//! `loop-unroll`: full unrolling of counted loops ([`super::loops::counted`]), as NVRTC
//! does for `#pragma unroll` and for small loops with a constant trip count.
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
//! - `#pragma unroll N` below the trip count (partial unrolling) and loops whose trip count
//!   is not a constant are left as they are (not built yet).
//!
//! How: with `T` trips, the loop's blocks are copied `T - 1` times after it, and its header
//! once more; the back edge of copy `k` goes to the header of copy `k + 1`. Every header
//! but the last branches straight into its body (the test holds `T` times), the last
//! straight to the exit; what the code after the loop used from the header comes from the
//! last copy. Inner loops come first (their copies go along when an outer loop unrolls).
//! `sccp` and `canonicalize` afterwards fold the constant induction variable and merge
//! the chain of blocks.

use super::loops::{counted, find_loops, Counted, Loop};
use cuprite_ir::{clone::CloneMap, BlockId, Context, InsertPoint, OpId, RegionId, ValueId};
use rustc_hash::FxHashSet;

/// Without a pragma: at most this many ops once unrolled (LLVM's default full-unroll
/// threshold, 300, which NVPTX keeps).
pub const DEFAULT_THRESHOLD: u64 = 300;
/// Without a pragma: at most this many trips.
pub const DEFAULT_MAX_TRIPS: u64 = 32;
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
}

impl Default for Options {
    fn default() -> Self {
        Options { threshold: DEFAULT_THRESHOLD, max_trips: DEFAULT_MAX_TRIPS }
    }
}

/// What the pass did in one function.
#[derive(Default, Debug)]
pub struct Stats {
    pub unrolled: u64,
    pub by_pragma: u64,
    pub copies: u64,
    /// Counted loops left rolled (too big, too many trips, `nounroll`).
    pub kept: u64,
}

/// Ops in the loop's blocks.
fn size(ctx: &Context, l: &Loop) -> u64 {
    l.blocks.iter().map(|&b| ctx.block_ops(b).count() as u64).sum()
}

/// Unrolls the counted loops of `nvvm.func` `f` that the rules of [the module](self) pick.
pub fn unroll_function(ctx: &mut Context, f: OpId, opts: &Options) -> Stats {
    let mut stats = Stats::default();
    let Some(&r) = ctx.regions(f).first() else { return stats };
    let mut refused: FxHashSet<BlockId> = FxHashSet::default();
    while stats.unrolled < MAX_UNROLLS {
        let loops = find_loops(ctx, f);
        let mut changed = false;
        for l in &loops {
            if refused.contains(&l.header) {
                continue;
            }
            let Some(c) = counted(ctx, r, l) else { continue };
            let back = ctx.terminator(c.latch).expect("a counted loop's latch branches");
            let hint = cuprite_dialects::nvvm::BrOp(back).unroll(ctx).map(|n| n as i64);
            let unrolled = size(ctx, l).saturating_mul(c.trips);
            let full = match hint {
                Some(1) => false,
                Some(n) if n == 0 || n as u64 >= c.trips => c.trips <= PRAGMA_MAX_TRIPS && unrolled <= PRAGMA_MAX_SIZE,
                Some(_) => false,
                None => c.trips <= opts.max_trips && unrolled <= opts.threshold,
            };
            if !full {
                refused.insert(l.header);
                stats.kept += 1;
                continue;
            }
            full_unroll(ctx, r, l, &c);
            stats.unrolled += 1;
            stats.by_pragma += u64::from(hint.is_some());
            stats.copies += c.trips;
            changed = true;
            break;
        }
        if !changed {
            break;
        }
    }
    stats
}

/// The blocks of `l` in reverse post-order (definitions before their uses).
fn rpo_blocks(ctx: &Context, r: RegionId, l: &Loop) -> Vec<BlockId> {
    cuprite_ir::dominance::rpo(ctx, r).into_iter().filter(|b| l.contains(*b)).collect()
}

/// Replaces loop `l` (counted as `c`) by `c.trips` copies of its body.
fn full_unroll(ctx: &mut Context, r: RegionId, l: &Loop, c: &Counted) {
    let h = l.header;
    let exit = 1 - c.stay;
    if c.trips == 0 {
        super::cfg::branch_to(ctx, c.test, exit);
        return;
    }
    let blocks = rpo_blocks(ctx, r, l);
    let mut at = l.blocks.iter().filter_map(|&b| ctx.block_index(b)).max().unwrap_or(0) + 1;
    // copies[k]: copy k's block for each of `blocks` (copy 0: the loop itself; the last
    // copy is the header alone).
    let t = c.trips as usize;
    let mut copies: Vec<Vec<BlockId>> = vec![blocks.clone()];
    for k in 1..=t {
        let which: Vec<BlockId> = if k < t { blocks.clone() } else { vec![h] };
        let mut v = Vec::with_capacity(which.len());
        for &b in &which {
            let tys: Vec<_> = ctx.block_args(b).iter().map(|&a| ctx.value_type(a)).collect();
            let nb = ctx.create_block(&tys);
            ctx.insert_block(r, at, nb);
            at += 1;
            v.push(nb);
        }
        copies.push(v);
    }
    let mut last_map = CloneMap::default();
    for k in 1..=t {
        let mut map = CloneMap::default();
        for (i, &b) in copies[k].iter().enumerate() {
            let src = blocks[i];
            for (&a, &na) in ctx.block_args(src).to_vec().iter().zip(ctx.block_args(b).to_vec().iter()) {
                map.values.insert(a, na);
            }
            map.blocks.insert(src, b);
        }
        if k < t {
            map.blocks.insert(h, copies[k + 1][0]);
        }
        for (i, &nb) in copies[k].iter().enumerate() {
            let src = blocks[i];
            for o in ctx.block_ops(src).collect::<Vec<_>>() {
                if k == t && o == c.test {
                    continue;
                }
                let n = cuprite_ir::clone::clone_op(ctx, o, &mut map);
                ctx.insert_op(n, InsertPoint::end(nb));
            }
        }
        if k == t {
            // The last header: straight to the exit.
            let args: Vec<ValueId> = ctx.successor_args(c.test, exit).iter().map(|v| *map.values.get(v).unwrap_or(v)).collect();
            let dest = ctx.successor(c.test, exit);
            let loc = ctx.op_loc(c.test);
            let st = cuprite_dialects::nvvm::BrOp::build(ctx, loc, &args, None, dest);
            let br = ctx.create_op(st);
            ctx.insert_op(br, InsertPoint::end(copies[k][0]));
            last_map = map;
        } else {
            // Copy k's header: straight into its body.
            let test = ctx.terminator(copies[k][0]).expect("the header copy ends in its test");
            super::cfg::branch_to(ctx, test, c.stay);
        }
    }
    // The loop itself is copy 0: its test holds, its back edge goes to copy 1.
    let back = ctx.terminator(c.latch).expect("the latch branches");
    ctx.set_successor(back, 0, copies[1][0]);
    super::cfg::branch_to(ctx, c.test, c.stay);
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
