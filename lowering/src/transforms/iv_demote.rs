//! `iv-demote`: NVIDIA's induction-variable demotion (cicc's `remat-iv`, described in
//! `../shared/seeds/iv-demotion.txt`): a 64-bit induction variable that provably stays in
//! the signed 32-bit range becomes a 32-bit one, so its increment and exit test are one
//! instruction each and it holds one register instead of two.
//!
//! Which loops: a loop tested at the bottom (after `loop-rotate`) whose single latch ends
//! in a `cond_br` back to the header; a 64-bit header argument `iv` that the latch passes
//! back as `next = iv + s` (or `iv - s`) with a constant `s`, and the latch's test compares
//! `iv` or `next` with a bound defined outside the loop, going on while `< bound` (`<=`;
//! signed or unsigned) for `s > 0`, `> bound` (`>=`) for `s < 0`.
//!
//! The range proof is the seed's: every value `v` the induction variable takes must pass
//! `(v + 0x80000000) <= 0xFFFFFFFF`, i.e. fit the signed 32-bit range. The values are the
//! starts (the arguments from outside, with the ranges of `eqsat`'s facts: a sign-extended
//! `int`, a thread index), every value that passed the test, and the last increment that
//! failed it (it is computed too): for `next < bound` and `s > 0`, `next <= max(bound) - 1 + s`.
//! Unsigned tests need the values non-negative as well. Nothing is speculated: a loop whose
//! range does not fit (a `size_t` loop to an unknown `n`, one that really runs past 2^31)
//! keeps its 64-bit variable.
//!
//! The uses of `iv` and `next` (other than the increment, the back edge and the test) are
//! classified as the seed's levels gate them, and the loop is demoted when `remat-iv` is at
//! least the highest class: arithmetic in the defining block (1), the exit comparison (2),
//! addresses and other blocks of the loop, and uses after the loop (3), the value passed to
//! another block's argument (4). Level 0 turns the pass off; level 5 (cicc's aggressive mode,
//! which relaxes safety margins on the range proof) is level 4 here: the proof above is exact
//! and has no margin to relax.
//!
//! The rewrite makes the values the seed names (each op carries its name as the
//! `cuprite.name` attribute, visible in `--emit=nvvm`): `demoteIV`, the truncation of each
//! start (and of the bound); the header's new `i32` argument is `newBaseIV`, which
//! `newInc = add nsw newBaseIV, s` feeds back; `newICmp`, the 32-bit exit test (when the
//! bound does not fit, `iv_base_clone_`, the narrow value sign-extended for a 64-bit test);
//! `substIV`, the narrow value sign-extended, replaces the old one in every other use. The
//! old argument and increment then only feed each other, and go. `eqsat`, later in the pipeline, narrows
//! the arithmetic of the uses through `substIV` where their ranges allow.

use super::cfg::rebuild_branch;
use super::loops::{each_loop_once, inverse, swapped, Loop};
use crate::eqsat::facts::Facts;
use crate::eqsat::scope::{ir_facts, max_threads, Scope};
use cuprite_dialects::nvvm::{self as nv, ICmpPredicate};
use cuprite_ir::{Context, InsertPoint, OpId, ValueId};

/// The pass's options: `remat-iv` (0: off; 4, the default, full demotion).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub level: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options { level: 4 }
    }
}

/// What one run did.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// 64-bit induction variables of the loops' shape.
    pub candidates: u64,
    pub demoted: u64,
    /// Left 64-bit: the range proof failed.
    pub out_of_range: u64,
    /// Left 64-bit: a use needs a higher `remat-iv` level.
    pub level_too_low: u64,
}

/// The seed's range test: `(v + 0x80000000) <= 0xFFFFFFFF`.
fn fits_i32(v: i128) -> bool {
    (0..=0xFFFF_FFFF).contains(&(v + 0x8000_0000))
}

fn constant(ctx: &Context, v: ValueId) -> Option<i128> {
    nv::int_constant(ctx, ctx.defining_op(v)?)
}

/// Creates the op `st` before `before` and returns its result.
fn emit(ctx: &mut Context, st: cuprite_ir::OperationState, before: OpId, label: &str) -> ValueId {
    let op = ctx.create_op(st);
    let block = ctx.op_block(before).expect("a placed op");
    ctx.insert_op(op, InsertPoint { block, before: Some(before) });
    cuprite_dialects::hints::set_value_name(ctx, op, label);
    ctx.result(op, 0)
}

/// Demotes the induction variables of the loops of `nvvm.func` `f`.
pub fn demote(ctx: &mut Context, f: OpId, opts: &Options) -> Stats {
    let mut stats = Stats::default();
    if opts.level == 0 {
        return stats;
    }
    let bound = max_threads(ctx, f);
    each_loop_once(ctx, f, |ctx, l, _| demote_loop(ctx, l, opts, bound, &mut stats));
    stats
}

/// What the range proof and the rewrite need of one candidate.
struct Candidate {
    k: usize,
    iv: ValueId,
    next: ValueId,
    upd: OpId,
    step: i128,
    cmp: OpId,
    tests_next: bool,
    pred: ICmpPredicate,
    bound: ValueId,
}

fn demote_loop(ctx: &mut Context, l: &Loop, opts: &Options, maxntid: Option<i128>, stats: &mut Stats) -> bool {
    let [latch] = l.latches.as_slice() else { return false };
    let latch = *latch;
    // The back edge: the latch's branch to the header (conditional when the loop is tested
    // at the bottom).
    let Some(term) = ctx.terminator(latch).filter(|&t| super::cfg::is_branch(ctx, t)) else { return false };
    let back = match (0..ctx.num_successors(term)).find(|&i| ctx.successor(term, i) == l.header) {
        Some(i) => i,
        None => return false,
    };
    // The exit test: the latch's `cond_br` (rotated loops) or the header's (loops tested at
    // the top, such as `#pragma unroll 1` ones, which loop-rotate leaves); `stay` is the
    // successor that stays in the loop.
    let test = [term, ctx.terminator(l.header).unwrap_or(term)]
        .into_iter()
        .filter(|&t| ctx.is_op(t, nv::CondBrOp::NAME))
        .find(|&t| l.contains(ctx.successor(t, 0)) != l.contains(ctx.successor(t, 1)));
    let Some(test) = test else { return false };
    if ctx.is_op(term, nv::CondBrOp::NAME) && test != term {
        return false;
    }
    let stay = if l.contains(ctx.successor(test, 0)) { 0 } else { 1 };
    // The header's test is the only way out.
    for &b in &l.blocks {
        let Some(t) = ctx.terminator(b) else { return false };
        if t != test && ctx.successors(t).any(|s| !l.contains(s)) {
            return false;
        }
    }
    let Some(cmp) = ctx.defining_op(ctx.operand(test, 0)).filter(|&c| ctx.is_op(c, nv::ICmpOp::NAME)) else { return false };
    let Some(cmp_pred) = nv::ICmpOp(cmp).predicate(ctx) else { return false };
    let args = ctx.block_args(l.header).to_vec();
    let back_args = ctx.successor_args(term, back);
    let outside = |ctx: &Context, v: ValueId| constant(ctx, v).is_some() || ctx.value_block(v).is_some_and(|b| !l.contains(b));
    let mut found = None;
    for (k, &iv) in args.iter().enumerate() {
        if ctx.int_width(ctx.value_type(iv)) != Some(64) {
            continue;
        }
        let Some(&next) = back_args.get(k) else { continue };
        let in_loop_update =
            |u: &OpId| ctx.op_block(*u).is_some_and(|b| l.contains(b)) && matches!(ctx.op_name_str(*u), nv::AddOp::NAME | nv::SubOp::NAME);
        let Some(upd) = ctx.defining_op(next).filter(in_loop_update) else { continue };
        let (x, y) = (ctx.operand(upd, 0), ctx.operand(upd, 1));
        let step = match ctx.op_name_str(upd) {
            nv::AddOp::NAME if x == iv => constant(ctx, y),
            nv::AddOp::NAME if y == iv => constant(ctx, x),
            nv::SubOp::NAME if x == iv => constant(ctx, y).map(|c| -c),
            _ => None,
        };
        let Some(step) = step.filter(|&s| s != 0 && fits_i32(s)) else { continue };
        let (a, b) = (ctx.operand(cmp, 0), ctx.operand(cmp, 1));
        let (tested, bound, pred) = if (a == iv || a == next) && outside(ctx, b) {
            (a, b, cmp_pred)
        } else if (b == iv || b == next) && outside(ctx, a) {
            (b, a, swapped(cmp_pred))
        } else {
            continue;
        };
        // Normalized: the loop goes on while `tested pred bound`.
        let pred = if stay == 0 { pred } else { inverse(pred) };
        stats.candidates += 1;
        found = Some(Candidate { k, iv, next, upd, step, cmp, tests_next: tested == next, pred, bound });
        break;
    }
    let Some(c) = found else { return false };
    // The range proof.
    let starts: Vec<(OpId, usize, ValueId)> = ctx
        .predecessors(l.header)
        .filter_map(|(t, i)| {
            let from = ctx.op_block(t)?;
            (!l.contains(from)).then(|| (t, i as usize, ctx.successor_args(t, i as usize).get(c.k).copied()))
        })
        .filter_map(|(t, i, v)| Some((t, i, v?)))
        .collect();
    if starts.is_empty() || starts.iter().any(|&(t, _, _)| !super::cfg::is_branch(ctx, t)) {
        return false;
    }
    let start_facts: Vec<Facts> = starts.iter().map(|&(_, _, v)| ir_facts(ctx, v, &Scope::function(maxntid))).collect();
    let bf = ir_facts(ctx, c.bound, &Scope::function(maxntid));
    let unsigned = matches!(c.pred, ICmpPredicate::Ult | ICmpPredicate::Ule | ICmpPredicate::Ugt | ICmpPredicate::Uge);
    let range = |f: &Facts| if unsigned { f.u } else { f.s };
    let (lo0, hi0) = start_facts.iter().fold((i128::MAX, i128::MIN), |(lo, hi), f| (lo.min(range(f).0), hi.max(range(f).1)));
    let s = c.step;
    let ranges = match c.pred {
        ICmpPredicate::Slt | ICmpPredicate::Sle | ICmpPredicate::Ult | ICmpPredicate::Ule if s > 0 => {
            // The largest tested value that stays.
            let stay_hi = range(&bf).1 - if matches!(c.pred, ICmpPredicate::Slt | ICmpPredicate::Ult) { 1 } else { 0 };
            let iv_hi = if c.tests_next { hi0.max(stay_hi) } else { hi0.max(stay_hi + s) };
            Some(((lo0, iv_hi), (lo0 + s, iv_hi + s)))
        }
        ICmpPredicate::Sgt | ICmpPredicate::Sge | ICmpPredicate::Ugt | ICmpPredicate::Uge if s < 0 => {
            let stay_lo = range(&bf).0 + if matches!(c.pred, ICmpPredicate::Sgt | ICmpPredicate::Ugt) { 1 } else { 0 };
            let iv_lo = if c.tests_next { lo0.min(stay_lo) } else { lo0.min(stay_lo + s) };
            Some(((iv_lo, hi0), (iv_lo + s, hi0 + s)))
        }
        _ => None,
    };
    let Some(((ivlo, ivhi), (nlo, nhi))) = ranges else { return false };
    let in_range = [ivlo, ivhi, nlo, nhi].into_iter().all(fits_i32) && (!unsigned || ivlo.min(nlo) >= 0);
    if !in_range {
        stats.out_of_range += 1;
        return false;
    }
    // The uses, by the level they need.
    let mut need = 2;
    for (v, def_block) in [(c.iv, l.header), (c.next, ctx.op_block(c.upd).unwrap_or(latch))] {
        for (user, _) in ctx.uses(v).collect::<Vec<_>>() {
            if user == c.upd || user == c.cmp || (user == term && v == c.next && ctx.successor_args(term, back).contains(&v)) {
                continue;
            }
            let Some(ub) = ctx.op_block(user) else { continue };
            let class = if super::cfg::is_branch(ctx, user) {
                4
            } else if !l.contains(ub) || ub != def_block || ctx.is_op(user, nv::PtrAddOp::NAME) {
                3
            } else {
                1
            };
            need = need.max(class);
        }
    }
    // The back edge must be the latch's only use of `next` as an argument, and the
    // comparison used by the branch alone (it is replaced).
    let uses_as_arg: usize =
        (0..ctx.num_successors(term)).map(|j| ctx.successor_args(term, j).iter().filter(|&&x| x == c.next).count()).sum();
    if uses_as_arg != 1 || !ctx.has_one_use(ctx.result(c.cmp, 0)) {
        need = need.max(4);
    }
    if need > opts.level.min(4) {
        stats.level_too_low += 1;
        return false;
    }
    rewrite(ctx, l, &c, (test, stay), (term, back), &starts, bf, unsigned);
    stats.demoted += 1;
    true
}

#[allow(clippy::too_many_arguments)]
fn rewrite(
    ctx: &mut Context,
    l: &Loop,
    c: &Candidate,
    (test, stay): (OpId, usize),
    (term, back): (OpId, usize),
    starts: &[(OpId, usize, ValueId)],
    bf: Facts,
    unsigned: bool,
) {
    let i32t = ctx.int_type(32);
    let loc = ctx.op_loc(c.upd);
    // demoteIV: each start truncated, passed to the new header argument newBaseIV.
    let base = ctx.add_block_arg(l.header, i32t);
    for &(t, i, v) in starts {
        let st = nv::TruncOp::build(ctx, loc, i32t, v);
        let d = emit(ctx, st, t, "demoteIV");
        let mut args: Vec<Vec<ValueId>> = (0..ctx.num_successors(t)).map(|j| ctx.successor_args(t, j)).collect();
        args[i].push(d);
        rebuild_branch(ctx, t, &args);
    }
    // newInc: the narrow increment, beside the old one; it cannot wrap (the proof).
    let s32 = {
        let a = ctx.int_attr(c.step, i32t);
        let st = nv::ConstantOp::build(ctx, loc, i32t, a);
        let op = ctx.create_op(st);
        let block = ctx.op_block(c.upd).expect("placed");
        ctx.insert_op(op, InsertPoint { block, before: Some(c.upd) });
        ctx.result(op, 0)
    };
    let nsw = Some(ctx.unit_attr());
    let st = nv::AddOp::build(ctx, loc, i32t, base, s32, nsw);
    let inc = emit(ctx, st, c.upd, "newInc");
    // substIV: the narrow values sign-extended, for every other use.
    let i64t = ctx.value_type(c.iv);
    let first = ctx.block_ops(l.header).next().expect("a header has a terminator");
    let st = nv::SextOp::build(ctx, loc, i64t, base);
    let wide_iv = emit(ctx, st, first, "substIV");
    let st = nv::SextOp::build(ctx, loc, i64t, inc);
    let after_inc = ctx.op_block(c.upd).map(|_| c.upd).expect("placed");
    let wide_next = emit(ctx, st, after_inc, "substIV");
    // newICmp: the exit test on the narrow value, against the bound truncated when it fits
    // (iv_base_clone_: the narrow value widened again when it does not).
    let tested = if c.tests_next { inc } else { base };
    let cmp_loc = ctx.op_loc(c.cmp);
    let bound_fits = if unsigned { bf.u.1 <= 0x7FFF_FFFF } else { fits_i32(bf.s.0) && fits_i32(bf.s.1) };
    let pred_attr = crate::build::i32_attr(ctx, c.pred as i64);
    let i1 = ctx.i1();
    let (lhs, rhs) = if bound_fits {
        let st = nv::TruncOp::build(ctx, cmp_loc, i32t, c.bound);
        (tested, emit(ctx, st, c.cmp, "demoteIV"))
    } else {
        let st = nv::SextOp::build(ctx, cmp_loc, i64t, tested);
        (emit(ctx, st, c.cmp, "iv_base_clone_"), c.bound)
    };
    let st = nv::ICmpOp::build(ctx, cmp_loc, i1, lhs, rhs, pred_attr);
    let new_cmp = emit(ctx, st, c.cmp, "newICmp");
    // The test goes on while the normalized predicate holds: on its staying side.
    let cond = if stay == 0 {
        new_cmp
    } else {
        let p = crate::build::i32_attr(ctx, inverse(c.pred) as i64);
        let st = nv::ICmpOp::build(ctx, cmp_loc, i1, lhs, rhs, p);
        emit(ctx, st, c.cmp, "newICmp")
    };
    ctx.set_operand(test, 0, cond);
    // The latch passes newInc back; the old argument and increment keep only each other.
    let mut args: Vec<Vec<ValueId>> = (0..ctx.num_successors(term)).map(|j| ctx.successor_args(term, j)).collect();
    args[back].push(inc);
    let term = rebuild_branch(ctx, term, &args);
    for (old, new) in [(c.iv, wide_iv), (c.next, wide_next)] {
        let uses: Vec<(OpId, u32)> = ctx.uses(old).collect();
        for (user, i) in uses {
            let keep = user == c.upd || user == c.cmp || (user == term && old == c.next);
            if !keep {
                ctx.set_operand(user, i as usize, new);
            }
        }
    }
    // The latch's other edges (a loop exit passing the incremented value on) get the
    // widened value too: only the back edge keeps the old one, which goes below.
    let mut args: Vec<Vec<ValueId>> = (0..ctx.num_successors(term)).map(|j| ctx.successor_args(term, j)).collect();
    let mut exit_uses = false;
    for (j, a) in args.iter_mut().enumerate() {
        if j != back {
            for x in a.iter_mut().filter(|x| **x == c.next) {
                *x = wide_next;
                exit_uses = true;
            }
        }
    }
    let term = if exit_uses { rebuild_branch(ctx, term, &args) } else { term };
    if !ctx.has_uses(ctx.result(c.cmp, 0)) {
        ctx.erase_op(c.cmp);
    }
    // The old argument and its increment now only feed each other: both go.
    let iv_only_updates = ctx.uses(c.iv).all(|(u, _)| u == c.upd);
    let next_only_back =
        ctx.uses(c.next).all(|(u, _)| u == term) && ctx.successor_args(term, back).iter().filter(|&&x| x == c.next).count() == 1;
    if iv_only_updates && next_only_back && ctx.block_args(l.header).get(c.k) == Some(&c.iv) {
        let preds: Vec<(OpId, usize)> = ctx.predecessors(l.header).map(|(t, i)| (t, i as usize)).collect();
        for (t, i) in preds {
            let mut args: Vec<Vec<ValueId>> = (0..ctx.num_successors(t)).map(|j| ctx.successor_args(t, j)).collect();
            args[i].remove(c.k);
            rebuild_branch(ctx, t, &args);
        }
        ctx.erase_op(c.upd);
        ctx.erase_block_arg(l.header, c.k);
    }
}
