//! Facts of IR values at a place in a function: what [`transfer`] computes over the
//! defining ops, seeded by [`leaf_facts`] (constants and CUDA's guarantees), refined by
//! what the control flow proves.
//!
//! * **Guards.** A block entered only through one edge of a conditional branch (its only
//!   predecessor edge) knows the branch's condition held (true edge) or failed (false
//!   edge), and so does every block it dominates: `if (i < n) { ... }` bounds `i` by `n`
//!   inside. [`Scope::at`] collects these for a block, walking up through single
//!   predecessors and, when given the dominator tree, through immediate dominators.
//!   Conditions are `icmp`s, and `and`s of them on a true edge and `or`s on a false one.
//! * **Edges into loops.** A block argument's incoming value is bounded by the condition
//!   of the edge that passes it: the back edge of `for (i = 0; i < n; i++)` passes
//!   `i + 1` only when `i + 1 < n`.
//! * **Monotone induction variables.** An incoming value `x + c` (`add nsw`, `c > 0`) of
//!   argument `x` is at least `x`, so `x` is never below its other incoming values: the
//!   loop above has `i` in `[0, n - 1]`, non-negative (signed division by constants, sign
//!   extensions and comparisons of it then take their unsigned forms).

use super::facts::{transfer, Facts};
use super::lang::{int_width, Op};
use crate::transforms::loops::{inverse, swapped};
use cuprite_dialects::nvvm::{self as nv, ICmpPredicate, SpecialReg};
use cuprite_ir::{dominance::DominanceInfo, BlockId, Context, OpId, ValueId};
use rustc_hash::FxHashMap;

/// The launch bound of a kernel: `.maxntid`'s product, if the function declares one.
pub fn max_threads(ctx: &Context, func: cuprite_ir::OpId) -> Option<i128> {
    let a = nv::FuncOp::cast(ctx, func)?.maxntid_attr(ctx)?;
    match ctx.attr_kind(a) {
        cuprite_ir::AttrKind::DenseArray { values, .. } => Some(values.iter().map(|&d| d.max(1) as i128).product()),
        _ => None,
    }
}

/// The facts of value `v` seen as a leaf: constants, what CUDA guarantees of special
/// registers (with `maxntid`, the kernel's `__launch_bounds__`, when given), and nothing
/// for the rest.
pub fn leaf_facts(ctx: &Context, v: ValueId, maxntid: Option<i128>) -> Facts {
    let ty = ctx.value_type(v);
    let Some(w) = int_width(ctx, ty) else { return Facts::full(ty, 0) };
    let Some(d) = ctx.defining_op(v) else { return Facts::full(ty, w) };
    if let Some(c) = nv::int_constant(ctx, d) {
        return Facts::constant(ty, w, c);
    }
    let Some(reg) = nv::SRegOp::cast(ctx, d).and_then(|s| s.reg(ctx)) else { return Facts::full(ty, w) };
    let block = maxntid.unwrap_or(1024).min(1024);
    use SpecialReg::*;
    // CUDA's limits (Programming Guide, compute capability 7.5 to 9.0): 1024 threads per
    // block, at most 64 in z; grids up to 2^31 - 1 in x and 65535 in y and z.
    let (lo, hi) = match reg {
        TidX | TidY => (0, block - 1),
        TidZ => (0, block.min(64) - 1),
        NtidX | NtidY => (1, block),
        NtidZ => (1, block.min(64)),
        CtaidX => (0, (1 << 31) - 2),
        CtaidY | CtaidZ => (0, 65534),
        NctaidX => (1, (1 << 31) - 1),
        NctaidY | NctaidZ => (1, 65535),
        Warpsize => (32, 32),
        Laneid => (0, 31),
        Clock | Clock64 => return Facts::full(ty, w),
    };
    Facts::urange(ty, w, lo, hi)
}

/// How deep [`ir_facts`] follows operands: facts of a value come from the ops that define
/// it up to this many levels up (the greedy driver's view of what the e-graph holds whole).
pub const IR_FACTS_DEPTH: u32 = 8;

/// How many blocks up [`Scope::at`] looks for guards.
pub const GUARD_DEPTH: u32 = 16;

/// What holds at one place of a function: the kernel's launch bound and the facts its
/// guards prove.
#[derive(Clone, Debug, Default)]
pub struct Scope {
    /// The kernel's `.maxntid` product ([`max_threads`]).
    pub maxntid: Option<i128>,
    guards: FxHashMap<ValueId, Facts>,
    /// Facts [`ir_facts`] worked out here, by value and mode (edge conditions used; guards
    /// applied), with the depth each was reached at: a later query meeting the value at
    /// that depth or deeper reuses them (the leaves of one block's graph share most of
    /// their operands' definitions).
    memo: std::cell::RefCell<FxHashMap<(ValueId, u8), (Facts, u32)>>,
}

impl Scope {
    /// The whole function: no guards.
    pub fn function(maxntid: Option<i128>) -> Scope {
        Scope { maxntid, guards: FxHashMap::default(), memo: Default::default() }
    }

    /// Block `block`: the conditions of the single edges into it and into the blocks above
    /// it, up to [`GUARD_DEPTH`] blocks; with `dom`, through immediate dominators where a
    /// block has several predecessors (without, the walk stops there).
    pub fn at(ctx: &Context, block: BlockId, maxntid: Option<i128>, mut dom: Option<&mut DominanceInfo>) -> Scope {
        let plain = Scope::function(maxntid);
        let mut scope = Scope::function(maxntid);
        let mut cur = block;
        for _ in 0..GUARD_DEPTH {
            let preds: Vec<(OpId, u32)> = ctx.predecessors(cur).collect();
            let next = match preds.as_slice() {
                [(t, i)] => {
                    for (v, f) in edge_facts(ctx, *t, *i as usize, &plain) {
                        scope
                            .guards
                            .entry(v)
                            .and_modify(|g| {
                                g.meet(&f);
                            })
                            .or_insert(f);
                    }
                    ctx.op_block(*t)
                }
                _ => dom.as_deref_mut().and_then(|d| d.idom(ctx, cur)),
            };
            match next {
                Some(n) if n != block => cur = n,
                _ => break,
            }
        }
        scope
    }

    /// The guard facts of `v` here, if any.
    pub fn guard(&self, v: ValueId) -> Option<&Facts> {
        self.guards.get(&v)
    }
}

/// The facts that hold on edge `i` of terminator `t` (a `cond_br` whose two successors
/// differ) for the values its condition compares.
fn edge_facts(ctx: &Context, t: OpId, i: usize, scope: &Scope) -> Vec<(ValueId, Facts)> {
    let mut out = Vec::new();
    if !ctx.is_op(t, nv::CondBrOp::NAME) || ctx.successor(t, 0) == ctx.successor(t, 1) || i > 1 {
        return out;
    }
    let mut work = vec![(ctx.operand(t, 0), i == 0)];
    while let Some((c, truth)) = work.pop() {
        let Some(d) = ctx.defining_op(c) else { continue };
        if let Some(pred) = nv::ICmpOp::cast(ctx, d).and_then(|o| o.predicate(ctx)) {
            let pred = if truth { pred } else { inverse(pred) };
            let (a, b) = (ctx.operand(d, 0), ctx.operand(d, 1));
            let (fa, fb) = (plain_facts(ctx, a, scope), plain_facts(ctx, b, scope));
            if let Some(f) = bound_by(pred, &fb) {
                out.push((a, f));
            }
            if let Some(f) = bound_by(swapped(pred), &fa) {
                out.push((b, f));
            }
            continue;
        }
        // Both sides of an `and` hold when it is true, neither side of an `or` when it is
        // false; C's `a && b` is `select(a, b, false)` and `a || b` `select(a, true, b)`.
        if int_width(ctx, ctx.value_type(c)) != Some(1) {
            continue;
        }
        let k = |i: usize| ctx.defining_op(ctx.operand(d, i)).and_then(|o| nv::int_constant(ctx, o));
        let sides = match super::lang::op_of(ctx, d) {
            Some(Op::And) if truth => vec![0, 1],
            Some(Op::Or) if !truth => vec![0, 1],
            Some(Op::Select) if truth && k(2) == Some(0) => vec![0, 1],
            Some(Op::Select) if !truth && k(1).is_some_and(|v| v != 0) => vec![0, 2],
            _ => vec![],
        };
        for i in sides {
            work.push((ctx.operand(d, i), truth));
        }
    }
    out
}

/// The facts of `v` without guards or edge conditions (what a branch's comparison knows of
/// its operands wherever it is), memoized in `scope`.
fn plain_facts(ctx: &Context, v: ValueId, scope: &Scope) -> Facts {
    ir_facts_in(ctx, v, scope, false, false)
}

/// The facts of a value `x` for which `x PRED y` holds, `y` having facts `other`.
fn bound_by(pred: ICmpPredicate, other: &Facts) -> Option<Facts> {
    use ICmpPredicate::*;
    let (ty, w) = (other.ty, other.width);
    if w == 0 {
        return None;
    }
    let (smin, smax, umax) = (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1, (1i128 << w) - 1);
    let f = match pred {
        Eq => *other,
        Ult if other.u.1 > 0 => Facts::urange(ty, w, 0, other.u.1 - 1),
        Ule => Facts::urange(ty, w, 0, other.u.1),
        Ugt if other.u.0 < umax => Facts::urange(ty, w, other.u.0 + 1, umax),
        Uge => Facts::urange(ty, w, other.u.0, umax),
        Slt if other.s.1 > smin => Facts::srange(ty, w, smin, other.s.1 - 1),
        Sle => Facts::srange(ty, w, smin, other.s.1),
        Sgt if other.s.0 < smax => Facts::srange(ty, w, other.s.0 + 1, smax),
        Sge => Facts::srange(ty, w, other.s.0, smax),
        _ => return None,
    };
    Some(f)
}

/// The values passed to block argument `v` by its block's predecessors, with the edge
/// each comes by, when every predecessor is a branch that passes one.
fn incoming(ctx: &Context, v: ValueId) -> Option<Vec<(ValueId, OpId, usize)>> {
    let b = ctx.value_block(v)?;
    if ctx.defining_op(v).is_some() {
        return None;
    }
    let k = ctx.block_args(b).iter().position(|&a| a == v)?;
    let mut out = Vec::new();
    for (t, i) in ctx.predecessors(b) {
        out.push((*ctx.successor_args(t, i as usize).get(k)?, t, i as usize));
    }
    (!out.is_empty()).then_some(out)
}

/// When `p` is `x + c1 + c2 ...` (an increment of `x` by constants; an unrolled loop adds
/// several): the total, and whether every add is `nsw` of a constant greater than zero
/// (an increment that cannot wrap).
fn step_of(ctx: &Context, p: ValueId, x: ValueId) -> Option<(i128, bool)> {
    let konst = |v: ValueId| ctx.defining_op(v).and_then(|c| nv::int_constant(ctx, c));
    let (mut cur, mut total, mut up) = (p, 0i128, true);
    for _ in 0..IR_FACTS_DEPTH {
        let d = ctx.defining_op(cur)?;
        let Some(Op::Add { nsw }) = super::lang::op_of(ctx, d) else { return None };
        let (a, b) = (ctx.operand(d, 0), ctx.operand(d, 1));
        let (next, c) = match (konst(a), konst(b)) {
            (_, Some(c)) => (a, c),
            (Some(c), None) => (b, c),
            (None, None) => return None,
        };
        total = total.wrapping_add(c);
        up &= nsw && c > 0;
        cur = next;
        if cur == x {
            return Some((total, up));
        }
    }
    None
}

/// The facts of `v` from the IR at `scope`: the transfer function over its defining ops,
/// and for a block argument the hull of what its predecessors pass (each bounded by its
/// edge's condition; increments of the argument itself add only an upper bound), up to
/// [`IR_FACTS_DEPTH`] levels (an explicit stack, no recursion), then [`leaf_facts`]; each
/// value's facts meet its guard's.
pub fn ir_facts(ctx: &Context, v: ValueId, scope: &Scope) -> Facts {
    ir_facts_in(ctx, v, scope, true, true)
}

fn ir_facts_in(ctx: &Context, v: ValueId, scope: &Scope, edges: bool, guarded: bool) -> Facts {
    let maxntid = scope.maxntid;
    // Post-order over (value, crossed, depth): `crossed` once the walk has gone through a
    // block argument to a value passed to it. A guard holds for a value where the guarded
    // block uses it, not for an earlier instance that reached a block argument (a loop's
    // `x = a + 1; if (x < n)` bounds the new `x`, not the `a` it came from): guards apply
    // only on this side of block arguments. `done` memoizes per call, `scope.memo` across
    // calls.
    type Key = (ValueId, bool);
    let mut done: FxHashMap<Key, Facts> = FxHashMap::default();
    let mut stack = vec![(v, !guarded, 0u32, false)];
    let mode = |crossed: bool| (edges as u8) << 1 | crossed as u8;
    let finish = |done: &mut FxHashMap<Key, Facts>, x: ValueId, crossed: bool, depth: u32, mut f: Facts| {
        if !crossed {
            if let Some(g) = scope.guard(x) {
                f.meet(g);
            }
        }
        done.insert((x, crossed), f);
        let mut memo = scope.memo.borrow_mut();
        let key = (x, mode(crossed));
        if memo.get(&key).is_none_or(|m| m.1 > depth) {
            memo.insert(key, (f, depth));
        }
    };
    while let Some((x, crossed, depth, expanded)) = stack.pop() {
        let key = (x, crossed);
        if done.contains_key(&key) && !expanded {
            continue;
        }
        if !expanded {
            if let Some(&(f, _)) = scope.memo.borrow().get(&(x, mode(crossed))).filter(|m| m.1 <= depth) {
                done.insert(key, f);
                continue;
            }
        }
        let ty = ctx.value_type(x);
        let width = int_width(ctx, ty).unwrap_or(0);
        if depth >= IR_FACTS_DEPTH {
            finish(&mut done, x, crossed, depth, leaf_facts(ctx, x, maxntid));
            continue;
        }
        if let Some(ins) = incoming(ctx, x).filter(|_| width > 0) {
            if !expanded {
                // Placeholder while the incoming values are worked out: a cycle back to
                // `x` sees nothing known.
                done.insert(key, Facts::full(ty, width));
                stack.push((x, crossed, depth, true));
                for &(p, _, _) in &ins {
                    if !done.contains_key(&(p, true)) {
                        stack.push((p, true, depth + 1, false));
                    }
                }
                continue;
            }
            // The starts (incoming values that are not steps of `x`) by their hull; steps
            // `x + C` add: when every one counts up without wrapping, only an upper bound
            // (`x` never goes below its starts); and in any case the low zero bits that
            // the starts and every `C` share (a loop unrolled by 4 from 0 counts in fours).
            let mut hull: Option<Facts> = None;
            let (mut top, mut all_up, mut steps_tz) = (None::<i128>, true, None::<u32>);
            for &(p, t, i) in &ins {
                let mut f = done[&(p, true)];
                if edges {
                    for (_, g) in edge_facts(ctx, t, i, scope).iter().filter(|(w, _)| *w == p) {
                        f.meet(g);
                    }
                    if let Some((c, up)) = step_of(ctx, p, x) {
                        let tz = ((c as u128) & super::bits::mask(width)).trailing_zeros().min(width);
                        steps_tz = Some(steps_tz.map_or(tz, |z| z.min(tz)));
                        all_up &= up;
                        top = Some(top.map_or(f.s.1, |h| h.max(f.s.1)));
                        continue;
                    }
                }
                hull = Some(hull.map_or(f, |h| h.join(&f)));
            }
            let f = match (hull, steps_tz) {
                (Some(h), None) => h,
                (Some(h), Some(tz)) => {
                    let mut f = match top {
                        Some(t) if all_up => Facts::srange(ty, width, h.s.0, h.s.1.max(t)),
                        _ => Facts::full(ty, width),
                    };
                    let mut low = Facts::full(ty, width);
                    low.zeros = super::bits::mask(h.zeros.trailing_ones().min(tz));
                    f.meet(&low);
                    f
                }
                (None, _) => Facts::full(ty, width),
            };
            finish(&mut done, x, crossed, depth, f);
            continue;
        }
        let def = ctx.defining_op(x);
        let op = def.and_then(|d| super::lang::op_of(ctx, d).map(|o| (d, o))).filter(|(_, o)| !matches!(o, Op::Const(_)));
        let Some((d, o)) = op else {
            finish(&mut done, x, crossed, depth, leaf_facts(ctx, x, maxntid));
            continue;
        };
        let operands = ctx.operand_vec(d);
        if !expanded {
            stack.push((x, crossed, depth, true));
            for &p in &operands {
                if !done.contains_key(&(p, crossed)) {
                    stack.push((p, crossed, depth + 1, false));
                }
            }
            continue;
        }
        let args: smallvec::SmallVec<[Facts; 3]> = operands.iter().map(|&p| done[&(p, crossed)]).collect();
        finish(&mut done, x, crossed, depth, transfer(o, ty, width, &args));
    }
    done[&(v, !guarded)]
}
