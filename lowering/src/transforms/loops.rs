//! Loop analysis on an `nvvm.func`'s CFG, shared by the loop passes: natural loops (a back
//! edge is an edge to a block that dominates its source; the loop is the header and every
//! block that reaches a latch without passing the header), nesting by containment, and
//! the constant trip count of a counted loop.
//!
//! A *counted* loop ([`counted`]) is the shape C's `for (i = a; i < b; i += s)` takes after
//! `lower-cuda-control-flow` and mem2reg: the header holds the induction variable as a block
//! argument and ends in `cond_br` on an `icmp` of it against a constant, one successor in
//! the loop and one (the only exit) outside; a single latch branches back with the
//! induction variable updated by a constant ([`Update`]: `iv + s`, `iv - s`, and the
//! `iv * s`, `iv / s`, `iv << s`, `iv >> s` of tree reductions such as
//! `for (int o = 16; o > 0; o /= 2)`); every edge from outside passes the same constant
//! start. Its trip count is found by running the comparison and the update at the
//! argument's width (wrapping as the machine does), up to [`MAX_TRIP_COUNT`] iterations.

use cuprite_dialects::nvvm as nv;
use cuprite_dialects::nvvm::{self, ICmpPredicate};
use cuprite_ir::{dominance::DominanceInfo, BlockId, Context, OpId, RegionId, ValueId};
use rustc_hash::FxHashSet;

/// Trip counts are found by stepping the induction variable; beyond this many iterations a
/// loop counts as unknown (no loop pass fully unrolls anything that long).
pub const MAX_TRIP_COUNT: u64 = 1 << 16;

/// A natural loop.
#[derive(Clone, Debug)]
pub struct Loop {
    pub header: BlockId,
    /// The sources of the back edges.
    pub latches: Vec<BlockId>,
    /// Every block of the loop (header first, then region order).
    pub blocks: Vec<BlockId>,
}

impl Loop {
    /// Whether block `b` is in the loop.
    pub fn contains(&self, b: BlockId) -> bool {
        self.blocks.contains(&b)
    }
}

/// The natural loops of function `f` (one `nvvm.func`), innermost first (by size).
pub fn find_loops(ctx: &Context, f: OpId) -> Vec<Loop> {
    let Some(&r) = ctx.regions(f).first() else { return Vec::new() };
    // Block dominance only (no op numbering: with `-j1` the context holds every function).
    let mut dom = DominanceInfo::default();
    let order = cuprite_ir::dominance::rpo(ctx, r);
    let mut loops: Vec<Loop> = Vec::new();
    for &b in &order {
        let Some(t) = ctx.terminator(b) else { continue };
        for s in ctx.successors(t).collect::<Vec<_>>() {
            if dom.block_dominates(ctx, s, b) {
                match loops.iter_mut().find(|l| l.header == s) {
                    Some(l) => {
                        if !l.latches.contains(&b) {
                            l.latches.push(b)
                        }
                    }
                    None => loops.push(Loop { header: s, latches: vec![b], blocks: Vec::new() }),
                }
            }
        }
    }
    for l in &mut loops {
        let mut set: FxHashSet<BlockId> = FxHashSet::default();
        set.insert(l.header);
        let mut work: Vec<BlockId> = l.latches.clone();
        while let Some(b) = work.pop() {
            if !set.insert(b) {
                continue;
            }
            for (t, _) in ctx.predecessors(b) {
                if let Some(p) = ctx.op_block(t) {
                    if !set.contains(&p) {
                        work.push(p);
                    }
                }
            }
        }
        l.blocks =
            std::iter::once(l.header).chain(ctx.region_blocks(r).iter().copied().filter(|b| *b != l.header && set.contains(b))).collect();
    }
    loops.sort_by_key(|l| l.blocks.len());
    loops
}

/// Visits each natural loop of `nvvm.func` `f` once, innermost first, in rounds of one
/// loop analysis each: `visit(ctx, loop, all loops of the round)` returns whether it
/// changed the CFG (blocks or branches); then the loops sharing blocks with that loop (the
/// enclosing ones) wait for the next round's fresh analysis. What `licm`, `loop-reduce`
/// and `loop-rotate` run on.
pub fn each_loop_once(ctx: &mut Context, f: OpId, mut visit: impl FnMut(&mut Context, &Loop, &[Loop]) -> bool) {
    let mut done: FxHashSet<BlockId> = FxHashSet::default();
    loop {
        let loops = find_loops(ctx, f);
        let mut touched: FxHashSet<BlockId> = FxHashSet::default();
        let mut more = false;
        for l in &loops {
            if done.contains(&l.header) {
                continue;
            }
            if l.blocks.iter().any(|b| touched.contains(b)) {
                more = true;
                continue;
            }
            done.insert(l.header);
            if visit(ctx, l, &loops) {
                touched.extend(l.blocks.iter().copied());
            }
        }
        if !more {
            return;
        }
    }
}

/// The shape of a counted loop ([the module docs](self)), the bound and start not
/// necessarily constants.
#[derive(Clone, Debug)]
pub struct Shape {
    /// The single latch, which branches back to the header.
    pub latch: BlockId,
    /// The header's `cond_br` and which of its successors stays in the loop (0 or 1).
    pub test: OpId,
    pub stay: usize,
    /// The header argument that is the induction variable.
    pub iv: usize,
    /// The comparison, with the induction variable on the left (the predicate swapped when
    /// the source had it on the right), and whether the loop goes on while it holds.
    pub pred: ICmpPredicate,
    pub bound: ValueId,
    pub stay_if_true: bool,
    /// How the latch updates the induction variable each trip.
    pub update: Update,
    /// Its bit width.
    pub width: u32,
    /// The induction variable is a pointer stepped by a constant byte offset (`ptradd`),
    /// compared for (in)equality with an end pointer: a range-`for` over an array. Only
    /// full unrolling handles these (its trip count is the distance over the step).
    pub pointer: bool,
    /// Blocks other than the header branch out of the loop (early exits); only full
    /// unrolling handles these (each copy keeps its exits).
    pub side_exits: bool,
    /// The blocks only an early exit enters, which full unrolling copies with each copy.
    pub tails: Vec<BlockId>,
}

/// Whether an op outside loop `l` and its `tails` reads a value defined inside them (other
/// than through the block arguments of an exit edge, whose operands belong to the branch
/// inside).
fn escapes(ctx: &Context, l: &Loop, tails: &[BlockId]) -> bool {
    let inside = |b: BlockId| l.contains(b) || tails.contains(&b);
    l.blocks.iter().chain(tails).any(|&b| {
        let mut defined: Vec<ValueId> = ctx.block_args(b).to_vec();
        for o in ctx.block_ops(b) {
            defined.extend(ctx.results(o).iter().copied());
        }
        defined.iter().any(|&v| ctx.uses(v).any(|(user, _)| ctx.op_block(user).is_none_or(|ub| !inside(ub))))
    })
}

/// The latch's update of a counted loop's induction variable, by a constant.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Update {
    /// `iv + s` (`iv - s` is `Add(-s)`).
    Add(i128),
    Mul(i128),
    SDiv(i128),
    UDiv(i128),
    Shl(i128),
    LShr(i128),
    AShr(i128),
}

impl Shape {
    /// The constant the latch adds each trip, for a loop that steps by addition (what
    /// unrolling by a factor needs).
    pub fn step(&self) -> Option<i128> {
        match self.update {
            Update::Add(s) => Some(s),
            _ => None,
        }
    }
}

impl Update {
    /// `v` updated, at `width` bits (`None` where the op is poison: division by zero,
    /// a shift by the width or more).
    fn apply(self, v: u128, width: u32) -> Option<u128> {
        let mask: u128 = if width == 128 { u128::MAX } else { (1u128 << width) - 1 };
        let sx = |x: u128| -> i128 {
            let x = x & mask;
            if width < 128 && x >> (width - 1) & 1 == 1 {
                (x | !mask) as i128
            } else {
                x as i128
            }
        };
        let c = |s: i128| (s as u128) & mask;
        let shift = |s: i128| (0..i128::from(width)).contains(&s).then_some(s as u32);
        let r = match self {
            Update::Add(s) => v.wrapping_add(c(s)),
            Update::Mul(s) => v.wrapping_mul(c(s)),
            Update::UDiv(s) => v.checked_div(c(s))?,
            Update::SDiv(s) => {
                let d = sx(c(s));
                // MIN / -1 overflows: poison.
                if d == 0 || (d == -1 && sx(v) == sx(1u128 << (width - 1))) {
                    return None;
                }
                (sx(v) / d) as u128
            }
            Update::Shl(s) => v << shift(s)?,
            Update::LShr(s) => v >> shift(s)?,
            Update::AShr(s) => (sx(v) >> shift(s)?) as u128,
        };
        Some(r & mask)
    }
}

/// A counted loop with a constant trip count: its shape and how many times the body runs.
#[derive(Clone, Debug)]
pub struct Counted {
    pub shape: Shape,
    pub trips: u64,
}

/// The integer value of `v` if an `nvvm.constant` makes it.
fn constant(ctx: &Context, v: ValueId) -> Option<i128> {
    nvvm::int_constant(ctx, ctx.defining_op(v)?)
}

/// The predicate that holds for `(b, a)` when `pred` holds for `(a, b)`.
pub(crate) fn swapped(pred: ICmpPredicate) -> ICmpPredicate {
    use ICmpPredicate::*;
    match pred {
        Slt => Sgt,
        Sle => Sge,
        Sgt => Slt,
        Sge => Sle,
        Ult => Ugt,
        Ule => Uge,
        Ugt => Ult,
        Uge => Ule,
        p => p,
    }
}

/// The predicate that holds exactly when `pred` does not.
pub(crate) fn inverse(pred: ICmpPredicate) -> ICmpPredicate {
    cuprite_dialects::nvvm::fold::inverse_icmp(pred)
}

/// `l`'s shape as a counted loop, if it has one: the bound is a constant or defined
/// outside the loop, the step a constant.
pub fn shape(ctx: &Context, l: &Loop) -> Option<Shape> {
    let [latch] = l.latches.as_slice() else { return None };
    let back = ctx.terminator(*latch).filter(|&t| ctx.is_op(t, nv::BrOp::NAME))?;
    let test = ctx.terminator(l.header).filter(|&t| ctx.is_op(t, nv::CondBrOp::NAME))?;
    let (s0, s1) = (ctx.successor(test, 0), ctx.successor(test, 1));
    let stay = match (l.contains(s0), l.contains(s1)) {
        (true, false) => 0,
        (false, true) => 1,
        _ => return None,
    };
    // Other ways out (a `break`, a `goto` or a `return` inside: early exits): full
    // unrolling keeps them in each copy, when nothing outside reads a value the loop
    // defines other than through an exit's block arguments.
    // A block that only such an exit enters and that leaves for outside (the `found:`
    // code a `goto` jumps to) is copied with each copy, reading that copy's values.
    let mut side_exits = false;
    let mut tails: Vec<BlockId> = Vec::new();
    for &b in &l.blocks[1..] {
        let t = ctx.terminator(b)?;
        for s in ctx.successors(t).collect::<Vec<_>>() {
            if l.contains(s) {
                continue;
            }
            side_exits = true;
            let single = ctx.predecessors(s).count() == 1;
            let leaves = ctx.terminator(s).is_some_and(|st| ctx.successors(st).all(|x| !l.contains(x) && x != s));
            if single && leaves && !tails.contains(&s) {
                tails.push(s);
            }
        }
    }
    if side_exits && escapes(ctx, l, &tails) {
        return None;
    }
    let cmp = ctx.defining_op(ctx.operand(test, 0)).filter(|&c| ctx.is_op(c, nv::ICmpOp::NAME))?;
    let pred = nvvm::ICmpOp(cmp).predicate(ctx)?;
    let args = ctx.block_args(l.header);
    let (a, b) = (ctx.operand(cmp, 0), ctx.operand(cmp, 1));
    // The bound does not change in the loop: a constant (wherever it is), or a value
    // defined outside.
    let outside = |v: ValueId| constant(ctx, v).is_some() || ctx.value_block(v).is_some_and(|blk| !l.contains(blk));
    let (iv, bound, pred) = match (args.iter().position(|&x| x == a), args.iter().position(|&x| x == b)) {
        (Some(i), None) if outside(b) => (i, b, pred),
        (None, Some(i)) if outside(a) => (i, a, swapped(pred)),
        _ => return None,
    };
    let arg = args[iv];
    let next = *ctx.successor_args(back, 0).get(iv)?;
    let upd = ctx.defining_op(next)?;
    let width = match ctx.type_kind(ctx.value_type(arg)) {
        cuprite_ir::TypeKind::Integer { width, .. } if *width <= 64 => *width,
        // A pointer stepped by a constant, tested for reaching the end.
        cuprite_ir::TypeKind::Pointer { .. } => {
            let s = nv::PtrAddOp::cast(ctx, upd).filter(|_| ctx.operand(upd, 0) == arg).and_then(|_| constant(ctx, ctx.operand(upd, 1)))?;
            if !matches!(pred, ICmpPredicate::Eq | ICmpPredicate::Ne) || s == 0 {
                return None;
            }
            return Some(Shape {
                latch: *latch,
                test,
                stay,
                iv,
                pred,
                bound,
                stay_if_true: stay == 0,
                update: Update::Add(s),
                width: 64,
                pointer: true,
                side_exits,
                tails,
            });
        }
        _ => return None,
    };
    // The update: the latch passes `iv op s` (or `s + iv`, `s * iv`).
    let (x, y) = (ctx.operand(upd, 0), ctx.operand(upd, 1));
    let commutes = matches!(ctx.op_name_str(upd), nv::AddOp::NAME | nv::MulOp::NAME);
    let s = if x == arg {
        constant(ctx, y)?
    } else if y == arg && commutes {
        constant(ctx, x)?
    } else {
        return None;
    };
    let update = match ctx.op_name_str(upd) {
        nv::AddOp::NAME => Update::Add(s),
        nv::SubOp::NAME => Update::Add(-s),
        nv::MulOp::NAME => Update::Mul(s),
        nv::SdivOp::NAME => Update::SDiv(s),
        nv::UdivOp::NAME => Update::UDiv(s),
        nv::ShlOp::NAME => Update::Shl(s),
        nv::LshrOp::NAME => Update::LShr(s),
        nv::AshrOp::NAME => Update::AShr(s),
        _ => return None,
    };
    Some(Shape { latch: *latch, test, stay, iv, pred, bound, stay_if_true: stay == 0, update, width, pointer: false, side_exits, tails })
}

/// `l` as a counted loop, if it is one with a constant trip count: a constant bound, and
/// the same constant start on every edge from outside.
pub fn counted(ctx: &Context, r: RegionId, l: &Loop) -> Option<Counted> {
    let _ = r;
    let sh = shape(ctx, l)?;
    // A pointer's start and end as constant offsets from one object.
    let (bound, object) = if sh.pointer {
        let (o, off) = super::gvn_loads::root(ctx, sh.bound);
        (off?, Some(o))
    } else {
        (constant(ctx, sh.bound)?, None)
    };
    let value = |v: ValueId| -> Option<i128> {
        match object {
            Some(o) => match super::gvn_loads::root(ctx, v) {
                (r, Some(off)) if r == o => Some(off),
                _ => None,
            },
            None => constant(ctx, v),
        }
    };
    let mut start = None;
    for (t, i) in ctx.predecessors(l.header).collect::<Vec<_>>() {
        let from = ctx.op_block(t)?;
        if l.contains(from) {
            continue;
        }
        let v = value(*ctx.successor_args(t, i as usize).get(sh.iv)?)?;
        if start.is_some_and(|s| s != v) {
            return None;
        }
        start = Some(v);
    }
    let trips = trip_count(sh.width, start?, sh.update, bound, sh.pred, sh.stay_if_true)?;
    Some(Counted { shape: sh, trips })
}

/// Runs the loop's test: how often it holds from `start`, updating by `update`, at `width`
/// bits (`None` past [`MAX_TRIP_COUNT`], or when an update would be poison).
fn trip_count(width: u32, start: i128, update: Update, bound: i128, pred: ICmpPredicate, stay_if_true: bool) -> Option<u64> {
    let mask: u128 = if width == 128 { u128::MAX } else { (1u128 << width) - 1 };
    let signed = |v: u128| -> i128 {
        let v = v & mask;
        if width < 128 && v >> (width - 1) & 1 == 1 {
            (v | !mask) as i128
        } else {
            v as i128
        }
    };
    let bound = (bound as u128) & mask;
    let mut v = (start as u128) & mask;
    for n in 0..=MAX_TRIP_COUNT {
        let (x, y) = (v, bound);
        let holds = match pred {
            ICmpPredicate::Eq => x == y,
            ICmpPredicate::Ne => x != y,
            ICmpPredicate::Slt => signed(x) < signed(y),
            ICmpPredicate::Sle => signed(x) <= signed(y),
            ICmpPredicate::Sgt => signed(x) > signed(y),
            ICmpPredicate::Sge => signed(x) >= signed(y),
            ICmpPredicate::Ult => x < y,
            ICmpPredicate::Ule => x <= y,
            ICmpPredicate::Ugt => x > y,
            ICmpPredicate::Uge => x >= y,
        };
        if holds != stay_if_true {
            return Some(n);
        }
        v = update.apply(v, width)?;
    }
    None
}
