//! `loop-reduce`: loop strength reduction of addresses, after NVIDIA's LSR in cicc
//! (`../shared/seeds/nvidia-loop-strength-reduction.txt`), with its knobs' names.
//!
//! `a[r * w + c]` in a loop over `r` costs a multiply-add, a widening multiply and an add
//! every trip (`mad.lo.s32`, `mul.wide.s32`, `add.s64`); NVRTC's PTX instead keeps a
//! pointer that advances by `w * 4` each trip, and the unrolled copies address
//! `[%rd+4*w]`-style offsets from it. This pass does that:
//!
//! 1. **Induction variables.** A header argument `iv` the single latch passes back as
//!    `iv + S` (constant `S`; `nsw` when `iv` is 32-bit, so that its sign extension steps by
//!    `S` too) and one edge from outside (the preheader's, [`super::licm`]) passes `iv0`.
//! 2. **Addresses.** Each `ptradd(base, off)` in the loop with an invariant `base` whose
//!    offset is affine in `iv` (`Affine`: `coef * iv + rest`, `coef` and `rest` sums of
//!    products of constants and values defined outside the loop). Across a sign extension
//!    of a 32-bit expression only ops with `nsw` are followed (C's signed arithmetic, whose
//!    overflow is undefined): then `sext(a * b + c)` is `sext(a) * sext(b) + sext(c)`.
//!    Zero extensions are not followed (we carry no `nuw`), nor anything else.
//! 3. **Rewrite.** The addresses with the same `base`, `iv` and `coef` share one pointer:
//!    a new header argument `p`, `base + coef * iv0 + rest_0` on entry, `p + coef * S` from
//!    the latch; each address becomes `p + (rest_k - rest_0)`, a constant where the
//!    difference is one (then `[reg+imm]` addressing). What computed the old offsets dies.
//!
//! Knobs (pass options, with cicc's names):
//! - `lsr-check-rp` (default true) and `lsr-rp-limit` (default [`DEFAULT_RP_LIMIT`]): a
//!   loop whose estimated register pressure with the new pointers (32-bit registers live
//!   through the header: its arguments, the invariants the loop reads, two per new
//!   pointer) exceeds the limit is left alone;
//! - `do-lsr-64-bit` (default true, as cicc on sm_70 and up): also 64-bit induction
//!   variables (`size_t` loops);
//! - `disable-lsr-for-sharedmem32-ptr` (default false): leave shared-memory addresses;
//! - `lsr-loop-level` (default 0: every loop; 1: innermost loops only).
//!
//! cicc's formula solver, its reuse chains and its sign-extension credit are not
//! reproduced: one pointer per (base, stride) group is the whole formula space here.

use super::loops::Loop;
use cuprite_dialects::nvvm as nv;
use cuprite_ir::{BlockId, Context, InsertPoint, OpId, RegionId, TypeId, TypeKind, ValueId};
use rustc_hash::{FxHashMap, FxHashSet};

/// Register pressure (32-bit registers live through a loop's header) above which the pass
/// leaves a loop alone: 64 registers is where sm_80's occupancy drops below 50% of its
/// warps (65536 registers / (64 * 32 threads) = 32 of 64 warps).
pub const DEFAULT_RP_LIMIT: u64 = 64;

/// The pass's options (cicc's knob names in the pass syntax).
#[derive(Copy, Clone, Debug)]
pub struct Options {
    pub check_rp: bool,
    pub rp_limit: u64,
    pub lsr_64_bit: bool,
    pub no_shared: bool,
    /// 0: every loop; 1: innermost loops only.
    pub loop_level: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options { check_rp: true, rp_limit: DEFAULT_RP_LIMIT, lsr_64_bit: true, no_shared: false, loop_level: 0 }
    }
}

/// What the pass did in one function.
#[derive(Default, Debug)]
pub struct Stats {
    /// Pointers made (one per group of addresses).
    pub pointers: u64,
    /// Addresses rewritten onto them.
    pub addresses: u64,
    /// Loops left alone for their register pressure.
    pub rp_skipped: u64,
}

/// A product of a constant and values defined outside the loop (sign-extended to 64 bits
/// where they are narrower), the values by their [`Interner`] numbers.
type Monomial = (i128, Vec<u32>);

/// Numbers for the values polynomials hold, in the order the analysis first meets them:
/// the same for the same function whichever context holds it (value ids are not), so that
/// polynomials sort, and the PTX comes out, the same with `-j1` and per function.
#[derive(Default)]
struct Interner {
    ids: FxHashMap<ValueId, u32>,
    vals: Vec<ValueId>,
}

impl Interner {
    fn id(&mut self, v: ValueId) -> u32 {
        *self.ids.entry(v).or_insert_with(|| {
            self.vals.push(v);
            self.vals.len() as u32 - 1
        })
    }
}

/// A sum of [`Monomial`]s, kept sorted by factors with no zero coefficient.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
struct Poly(Vec<Monomial>);

impl Poly {
    fn constant(c: i128) -> Poly {
        Poly(if c == 0 { Vec::new() } else { vec![(c, Vec::new())] })
    }
    fn value(v: u32) -> Poly {
        Poly(vec![(1, vec![v])])
    }
    fn is_zero(&self) -> bool {
        self.0.is_empty()
    }
    fn norm(mut terms: Vec<Monomial>) -> Poly {
        for t in &mut terms {
            t.1.sort();
        }
        terms.sort_by(|a, b| a.1.cmp(&b.1));
        let mut out: Vec<Monomial> = Vec::new();
        for (c, f) in terms {
            match out.last_mut() {
                Some(last) if last.1 == f => last.0 = last.0.wrapping_add(c),
                _ => out.push((c, f)),
            }
        }
        out.retain(|t| t.0 != 0);
        Poly(out)
    }
    fn add(&self, o: &Poly) -> Poly {
        Poly::norm(self.0.iter().chain(&o.0).cloned().collect())
    }
    fn scale(&self, k: i128) -> Poly {
        Poly::norm(self.0.iter().map(|(c, f)| (c.wrapping_mul(k), f.clone())).collect())
    }
    fn mul(&self, o: &Poly) -> Option<Poly> {
        let mut v = Vec::new();
        for (a, fa) in &self.0 {
            for (b, fb) in &o.0 {
                let mut f = fa.clone();
                f.extend(fb);
                if f.len() > 3 {
                    return None;
                }
                v.push((a.wrapping_mul(*b), f));
            }
        }
        Some(Poly::norm(v))
    }
}

/// The constant `p` is, if that is all it is.
fn constant_of(p: &Poly) -> Option<i128> {
    match p.0.as_slice() {
        [] => Some(0),
        [(c, f)] if f.is_empty() => Some(*c),
        _ => None,
    }
}

/// `coef * iv + rest`.
#[derive(Clone, Debug)]
struct Affine {
    coef: Poly,
    rest: Poly,
}

/// A basic induction variable: header argument `arg`, its entry value and step.
#[derive(Clone, Copy, Debug)]
struct Iv {
    arg: ValueId,
    index: usize,
    init: ValueId,
    step: i128,
    width: u32,
}

fn int_width(ctx: &Context, t: TypeId) -> Option<u32> {
    match ctx.type_kind(t) {
        TypeKind::Integer { width, .. } => Some(*width),
        _ => None,
    }
}

fn has_nsw(ctx: &Context, op: OpId) -> bool {
    nv::AddOp::cast(ctx, op).is_some_and(|o| o.nsw(ctx))
        || nv::SubOp::cast(ctx, op).is_some_and(|o| o.nsw(ctx))
        || nv::MulOp::cast(ctx, op).is_some_and(|o| o.nsw(ctx))
        || nv::ShlOp::cast(ctx, op).is_some_and(|o| o.nsw(ctx))
}

struct Analysis<'a> {
    ctx: &'a Context,
    l: &'a Loop,
    iv: Iv,
    names: &'a mut Interner,
    memo: FxHashMap<(ValueId, bool), Option<Affine>>,
}

impl Analysis<'_> {
    fn invariant(&self, v: ValueId) -> bool {
        self.ctx.value_block(v).is_some_and(|b| !self.l.contains(b))
    }

    /// `v` as an affine function of the induction variable; `narrow`: under a sign
    /// extension (every op must have `nsw`).
    fn affine(&mut self, v: ValueId, narrow: bool, depth: u32) -> Option<Affine> {
        if let Some(a) = self.memo.get(&(v, narrow)) {
            return a.clone();
        }
        let r = self.compute(v, narrow, depth);
        self.memo.insert((v, narrow), r.clone());
        r
    }

    fn compute(&mut self, v: ValueId, narrow: bool, depth: u32) -> Option<Affine> {
        let ctx = self.ctx;
        if depth > 12 {
            return None;
        }
        let zero = Poly::default();
        if v == self.iv.arg {
            return Some(Affine { coef: Poly::constant(1), rest: zero });
        }
        let def = ctx.defining_op(v);
        if let Some(c) = def.and_then(|d| nv::int_constant(ctx, d)) {
            let w = int_width(ctx, ctx.value_type(v))?;
            let c = if w < 128 && w > 0 { (c << (128 - w)) >> (128 - w) } else { c };
            return Some(Affine { coef: zero, rest: Poly::constant(c) });
        }
        if self.invariant(v) {
            return Some(Affine { coef: zero, rest: Poly::value(self.names.id(v)) });
        }
        let d = def?;
        let arg = |i: usize| ctx.operand(d, i);
        match ctx.op_name_str(d) {
            nv::AddOp::NAME | nv::SubOp::NAME | nv::MulOp::NAME | nv::ShlOp::NAME if narrow && !has_nsw(ctx, d) => None,
            nv::AddOp::NAME => {
                let (a, b) = (self.affine(arg(0), narrow, depth + 1)?, self.affine(arg(1), narrow, depth + 1)?);
                Some(Affine { coef: a.coef.add(&b.coef), rest: a.rest.add(&b.rest) })
            }
            nv::SubOp::NAME => {
                let (a, b) = (self.affine(arg(0), narrow, depth + 1)?, self.affine(arg(1), narrow, depth + 1)?);
                Some(Affine { coef: a.coef.add(&b.coef.scale(-1)), rest: a.rest.add(&b.rest.scale(-1)) })
            }
            nv::MulOp::NAME => {
                let (a, b) = (self.affine(arg(0), narrow, depth + 1)?, self.affine(arg(1), narrow, depth + 1)?);
                let (var, k) = match (a.coef.is_zero(), b.coef.is_zero()) {
                    (true, true) => return Some(Affine { coef: Poly::default(), rest: a.rest.mul(&b.rest)? }),
                    (true, false) => (b, a.rest),
                    (false, true) => (a, b.rest),
                    (false, false) => return None,
                };
                Some(Affine { coef: var.coef.mul(&k)?, rest: var.rest.mul(&k)? })
            }
            nv::ShlOp::NAME => {
                let k = ctx.defining_op(arg(1)).and_then(|c| nv::int_constant(ctx, c))?;
                if !(0..62).contains(&k) {
                    return None;
                }
                let a = self.affine(arg(0), narrow, depth + 1)?;
                Some(Affine { coef: a.coef.scale(1 << k), rest: a.rest.scale(1 << k) })
            }
            // A 32-bit expression sign-extended: followed through `nsw` ops only.
            nv::SextOp::NAME if !narrow => self.affine(arg(0), true, depth + 1),
            _ => None,
        }
    }
}

/// The basic induction variables of `l` (a single latch, one edge from outside).
fn induction_variables(ctx: &Context, l: &Loop, opts: &Options) -> Vec<Iv> {
    let [latch] = l.latches.as_slice() else { return Vec::new() };
    let Some(back) = ctx.terminator(*latch) else { return Vec::new() };
    let h = l.header;
    let Some(s) = (0..ctx.num_successors(back)).find(|&i| ctx.successor(back, i) == h) else { return Vec::new() };
    let outside: Vec<(OpId, usize)> =
        ctx.predecessors(h).filter(|&(t, _)| ctx.op_block(t).is_some_and(|b| !l.contains(b))).map(|(t, i)| (t, i as usize)).collect();
    let [(entry, ei)] = outside.as_slice() else { return Vec::new() };
    let (next, init) = (ctx.successor_args(back, s), ctx.successor_args(*entry, *ei));
    let mut out = Vec::new();
    for (index, &arg) in ctx.block_args(h).iter().enumerate() {
        let Some(width) = int_width(ctx, ctx.value_type(arg)) else { continue };
        if !(width == 32 || (width == 64 && opts.lsr_64_bit)) {
            continue;
        }
        let Some(&n) = next.get(index) else { continue };
        // What comes back is `arg + S` (through the chain of an unrolled body's `+ 1`s),
        // for a 32-bit variable with `nsw` all along, so that its sign extension steps by
        // `S` too.
        let probe = Iv { arg, index, init: init[index], step: 0, width };
        let mut names = Interner::default();
        let mut an = Analysis { ctx, l, iv: probe, names: &mut names, memo: FxHashMap::default() };
        let Some(a) = an.affine(n, width == 32, 0) else { continue };
        let (Some(1), Some(step)) = (constant_of(&a.coef), constant_of(&a.rest)) else { continue };
        if step == 0 {
            continue;
        }
        out.push(Iv { arg, index, init: init[index], step, width });
    }
    out
}

/// 32-bit registers a value of type `t` takes.
fn regs(ctx: &Context, t: TypeId) -> u64 {
    match ctx.type_kind(t) {
        TypeKind::Integer { width, .. } => u64::from(*width).div_ceil(32).max(1),
        TypeKind::Float(k) => u64::from(k.width()).div_ceil(32).max(1),
        TypeKind::Pointer { .. } => 2,
        _ => 1,
    }
}

/// The loop's register pressure estimate: its header's arguments and the values from
/// outside it reads (constants excluded).
fn pressure(ctx: &Context, l: &Loop) -> u64 {
    let mut n: u64 = ctx.block_args(l.header).iter().map(|&a| regs(ctx, ctx.value_type(a))).sum();
    let mut seen: FxHashSet<ValueId> = FxHashSet::default();
    for &b in &l.blocks {
        for o in ctx.block_ops(b) {
            for v in ctx.operand_vec(o) {
                let outside = ctx.value_block(v).is_some_and(|vb| !l.contains(vb));
                let constant = ctx.defining_op(v).is_some_and(|d| ctx.is_op(d, nv::ConstantOp::NAME));
                if outside && !constant && seen.insert(v) {
                    n += regs(ctx, ctx.value_type(v));
                }
            }
        }
    }
    n
}

/// Runs the pass on `nvvm.func` `f`.
pub fn loop_reduce(ctx: &mut Context, f: OpId, opts: &Options) -> Stats {
    let mut stats = Stats::default();
    let Some(&r) = ctx.regions(f).first() else { return stats };
    super::loops::each_loop_once(ctx, f, |ctx, l, loops| {
        let inner = !loops.iter().any(|o| o.header != l.header && l.contains(o.header));
        if opts.loop_level == 1 && !inner {
            return false;
        }
        reduce(ctx, r, l, opts, &mut stats)
    });
    stats
}

/// A group of addresses sharing one pointer: (base, induction variable index, coef).
type Key = (ValueId, usize, Poly);

/// Strength-reduces the addresses of loop `l`; returns whether it changed the IR.
fn reduce(ctx: &mut Context, r: RegionId, l: &Loop, opts: &Options, stats: &mut Stats) -> bool {
    let ivs = induction_variables(ctx, l, opts);
    if ivs.is_empty() {
        return false;
    }
    // The groups, in program order.
    let mut names = Interner::default();
    let mut groups: Vec<(Key, Vec<(OpId, Poly)>)> = Vec::new();
    for &b in &l.blocks {
        for op in ctx.block_ops(b).collect::<Vec<_>>() {
            if !ctx.is_op(op, nv::PtrAddOp::NAME) {
                continue;
            }
            let (base, off) = (ctx.operand(op, 0), ctx.operand(op, 1));
            if ctx.value_block(base).is_none_or(|vb| l.contains(vb)) {
                continue;
            }
            if opts.no_shared && matches!(ctx.type_kind(ctx.value_type(base)), TypeKind::Pointer { addr_space: 3 }) {
                continue;
            }
            if int_width(ctx, ctx.value_type(off)) != Some(64) {
                continue;
            }
            for iv in &ivs {
                let mut an = Analysis { ctx, l, iv: *iv, names: &mut names, memo: FxHashMap::default() };
                let Some(a) = an.affine(off, false, 0) else { continue };
                if a.coef.is_zero() {
                    continue;
                }
                let key = (base, iv.index, a.coef);
                match groups.iter_mut().find(|g| g.0 == key) {
                    Some(g) => g.1.push((op, a.rest)),
                    None => groups.push((key, vec![(op, a.rest)])),
                }
                break;
            }
        }
    }
    if groups.is_empty() {
        return false;
    }
    if opts.check_rp && pressure(ctx, l) + 2 * groups.len() as u64 > opts.rp_limit {
        stats.rp_skipped += 1;
        return false;
    }
    let (pre, _) = super::licm::preheader(ctx, r, l, false);
    let pre_term = ctx.terminator(pre).expect("a preheader ends in its branch");
    let [latch] = l.latches.as_slice() else { return false };
    let latch = *latch;
    let h = l.header;
    // The induction variables again: the preheader may be new (its edge passes the
    // header's entry values).
    let ivs = induction_variables(ctx, l, opts);
    let i64t = ctx.i64();
    let loc = ctx.op_loc(pre_term);
    let emit = |ctx: &mut Context, st: cuprite_ir::OperationState, at: InsertPoint| {
        let o = ctx.create_op(st);
        ctx.insert_op(o, at);
        ctx.result(o, 0)
    };
    // Before the preheader's branch (rebuilt as the pointers are passed on: read it anew).
    let at_pre = |ctx: &Context| InsertPoint { block: pre, before: ctx.terminator(pre) };
    for ((base, index, coef), members) in groups {
        let Some(iv) = ivs.iter().find(|v| v.index == index).copied() else { continue };
        let pty = ctx.value_type(base);
        // In the preheader: coef * iv0 + rest_0, and the step coef * S.
        let iv0 = if iv.width == 32 {
            let st = nv::SextOp::build(ctx, loc, i64t, iv.init);
            emit(ctx, st, at_pre(ctx))
        } else {
            iv.init
        };
        let start_off = coef.mul(&Poly::value(names.id(iv0))).expect("one factor more").add(&members[0].1);
        let off0 = materialize(ctx, &start_off, &names, at_pre(ctx), loc);
        let st = nv::PtrAddOp::build(ctx, loc, pty, base, off0);
        let p0 = emit(ctx, st, at_pre(ctx));
        let step = materialize(ctx, &coef.scale(iv.step), &names, at_pre(ctx), loc);
        // The pointer: a header argument, advanced at the end of the latch.
        let p = ctx.add_block_arg(h, pty);
        let back = ctx.terminator(latch).expect("a latch ends in its branch");
        let st = nv::PtrAddOp::build(ctx, loc, pty, p, step);
        let pn = emit(ctx, st, InsertPoint { block: latch, before: Some(back) });
        append_arg(ctx, back, h, pn);
        let entry =
            ctx.predecessors(h).map(|(t, _)| t).find(|&t| ctx.op_block(t) == Some(pre)).expect("the preheader branches to the header");
        append_arg(ctx, entry, h, p0);
        // Each address from the pointer.
        let rest0 = members[0].1.clone();
        for (op, rest) in members {
            let d = rest.add(&rest0.scale(-1));
            let dv = materialize(ctx, &d, &names, at_pre(ctx), loc);
            let st = nv::PtrAddOp::build(ctx, ctx.op_loc(op), pty, p, dv);
            let n = emit(ctx, st, InsertPoint { block: ctx.op_block(op).expect("in a block"), before: Some(op) });
            ctx.replace_all_uses_with(ctx.result(op, 0), n);
            ctx.erase_op(op);
            stats.addresses += 1;
        }
        stats.pointers += 1;
    }
    true
}

/// Appends `v` to the arguments branch `t` passes to `dest`.
fn append_arg(ctx: &mut Context, t: OpId, dest: BlockId, v: ValueId) {
    let n = ctx.num_successors(t);
    let args: Vec<Vec<ValueId>> = (0..n)
        .map(|k| {
            let mut a = ctx.successor_args(t, k);
            if ctx.successor(t, k) == dest {
                a.push(v);
            }
            a
        })
        .collect();
    super::cfg::rebuild_branch(ctx, t, &args);
}

/// `p` as an i64 value, its ops at `at` (narrower factors sign-extended).
fn materialize(ctx: &mut Context, p: &Poly, names: &Interner, at: InsertPoint, loc: cuprite_ir::LocId) -> ValueId {
    let i64t = ctx.i64();
    let emit = |ctx: &mut Context, st: cuprite_ir::OperationState| {
        let o = ctx.create_op(st);
        ctx.insert_op(o, at);
        ctx.result(o, 0)
    };
    let konst = |ctx: &mut Context, c: i128| {
        let a = ctx.int_attr(c as i64 as i128, i64t);
        let st = nv::ConstantOp::build(ctx, loc, i64t, a);
        let o = ctx.create_op(st);
        ctx.insert_op(o, at);
        ctx.result(o, 0)
    };
    let mut sum: Option<ValueId> = None;
    for (c, factors) in &p.0 {
        let mut prod: Option<ValueId> = None;
        for &f in factors {
            let f = names.vals[f as usize];
            let f = if int_width(ctx, ctx.value_type(f)) == Some(64) {
                f
            } else {
                let st = nv::SextOp::build(ctx, loc, i64t, f);
                emit(ctx, st)
            };
            prod = Some(match prod {
                None => f,
                Some(x) => {
                    let st = nv::MulOp::build(ctx, loc, i64t, x, f, None);
                    emit(ctx, st)
                }
            });
        }
        let term = match prod {
            None => konst(ctx, *c),
            Some(x) if *c == 1 => x,
            Some(x) => {
                let k = konst(ctx, *c);
                let st = nv::MulOp::build(ctx, loc, i64t, x, k, None);
                emit(ctx, st)
            }
        };
        sum = Some(match sum {
            None => term,
            Some(s) => {
                let st = nv::AddOp::build(ctx, loc, i64t, s, term, None);
                emit(ctx, st)
            }
        });
    }
    match sum {
        Some(s) => s,
        None => konst(ctx, 0),
    }
}
