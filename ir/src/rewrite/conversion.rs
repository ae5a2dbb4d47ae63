//! One-shot dialect conversion: rewrite every illegal op once, in order, with no rollback.
//!
//! Algorithm:
//! 1. Collect the ops nested in the root in preorder (parents before their bodies).
//! 2. For each op that the [`ConversionTarget`] does not accept: adapt its operands, i.e.
//!    for an operand whose type the [`TypeConverter`] changes, use the value it was cast
//!    from if it is an `unrealized_conversion_cast`, else insert a target materialization
//!    cast; under a 1:N conversion an operand becomes several values (the inputs of the N:1
//!    cast that joined them, or a 1:N cast's results), and patterns see the operands as
//!    groups ([`ConversionPattern::match_and_rewrite_groups`]); then try the conversion
//!    patterns for the op, best benefit first.
//! 3. A pattern replaces the op through [`ConversionRewriter::replace_op`]: where a new
//!    value's type differs from the old result's, a source materialization cast keeps the
//!    remaining (not yet converted) users well-typed.
//! 4. Ops a pattern creates that are themselves illegal are converted next, at most
//!    [`MAX_LEGALIZATION_DEPTH`] levels deep.
//! 5. Finally cast pairs that round-trip (`A -> B -> A`, and a 1:N split of an N:1 join)
//!    are folded away and dead casts erased. Remaining illegal ops (or, in full mode, unknown ones) and casts whose
//!    input type is still illegal are reported as errors at their locations.

use super::{Listener, Rewriter};
use crate::{
    context::{Context, OpId, OperationState, RegionId, ValueId},
    diag::Diagnostic,
    types::TypeId,
};
use rustc_hash::FxHashMap;

/// Op name of the materialization casts (MLIR's `builtin.unrealized_conversion_cast`).
pub const CAST_OP: &str = "builtin.unrealized_conversion_cast";
/// How many generations of newly created illegal ops are converted in turn: a pattern that
/// produces the op it converts would otherwise loop forever.
pub const MAX_LEGALIZATION_DEPTH: u32 = 16;
/// Pattern applications per op present at the start, plus 10,000.
pub const CONVERSION_REWRITES_PER_OP: u64 = 16;

/// Whether an op is legal for a conversion.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Legality {
    Legal,
    Illegal,
    Unknown,
}

/// Decides the legality of one op (dynamic legality).
pub type LegalityFn = fn(&Context, OpId) -> bool;

/// Which ops must not remain after a conversion.
#[derive(Default, Clone)]
pub struct ConversionTarget {
    legal_dialects: Vec<String>,
    illegal_dialects: Vec<String>,
    legal_ops: Vec<String>,
    illegal_ops: Vec<String>,
    dynamic: Vec<(String, LegalityFn)>,
}

impl ConversionTarget {
    /// An empty target (everything unknown).
    pub fn new() -> Self {
        Self::default()
    }
    /// Ops of dialect `d` are legal.
    pub fn legal_dialect(mut self, d: &str) -> Self {
        self.legal_dialects.push(d.to_string());
        self
    }
    /// Ops of dialect `d` are illegal.
    pub fn illegal_dialect(mut self, d: &str) -> Self {
        self.illegal_dialects.push(d.to_string());
        self
    }
    /// Op `name` is legal.
    pub fn legal_op(mut self, name: &str) -> Self {
        self.legal_ops.push(name.to_string());
        self
    }
    /// Op `name` is illegal.
    pub fn illegal_op(mut self, name: &str) -> Self {
        self.illegal_ops.push(name.to_string());
        self
    }
    /// Op `name` is legal exactly when `f` says so.
    pub fn dynamic_op(mut self, name: &str, f: fn(&Context, OpId) -> bool) -> Self {
        self.dynamic.push((name.to_string(), f));
        self
    }
    /// The legality of `op`.
    pub fn legality(&self, ctx: &Context, op: OpId) -> Legality {
        let name = ctx.op_name_str(op);
        if let Some((_, f)) = self.dynamic.iter().find(|(n, _)| n == name) {
            return if f(ctx, op) { Legality::Legal } else { Legality::Illegal };
        }
        self.legality_of_name(name)
    }
    /// The legality of ops named `name` when it does not depend on the op (`None`: a dynamic
    /// legality decides per op).
    fn static_legality(&self, name: &str) -> Option<Legality> {
        if self.dynamic.iter().any(|(n, _)| n == name) {
            return None;
        }
        Some(self.legality_of_name(name))
    }
    fn legality_of_name(&self, name: &str) -> Legality {
        if self.illegal_ops.iter().any(|n| n == name) {
            return Legality::Illegal;
        }
        if self.legal_ops.iter().any(|n| n == name) {
            return Legality::Legal;
        }
        let dialect = name.split('.').next().unwrap_or("");
        if self.illegal_dialects.iter().any(|d| d == dialect) {
            return Legality::Illegal;
        }
        if self.legal_dialects.iter().any(|d| d == dialect) || name == CAST_OP {
            return Legality::Legal;
        }
        Legality::Unknown
    }
}

type TypeConversionFn = Box<dyn Fn(&mut Context, TypeId) -> Option<TypeId> + Send + Sync>;
type TypeConversionManyFn = Box<dyn Fn(&mut Context, TypeId) -> Option<Vec<TypeId>> + Send + Sync>;

enum TypeRule {
    One(TypeConversionFn),
    Many(TypeConversionManyFn),
}

/// Maps types of the source dialects to types of the target: 1:1 ([`TypeConverter::add`])
/// or 1:N ([`TypeConverter::add_many`]: a struct by value as its fields). Conversions are
/// tried last-added first; a type no conversion handles is left as is (it is legal).
#[derive(Default)]
pub struct TypeConverter {
    conversions: Vec<TypeRule>,
}

impl TypeConverter {
    /// A converter that changes nothing.
    pub fn new() -> Self {
        Self::default()
    }
    /// Adds a 1:1 conversion (`None`: not handled by this one).
    pub fn add(&mut self, f: impl Fn(&mut Context, TypeId) -> Option<TypeId> + Send + Sync + 'static) {
        self.conversions.push(TypeRule::One(Box::new(f)));
    }
    /// Adds a 1:N conversion (`None`: not handled by this one): a value of the type becomes
    /// as many values as the conversion gives types, in order.
    pub fn add_many(&mut self, f: impl Fn(&mut Context, TypeId) -> Option<Vec<TypeId>> + Send + Sync + 'static) {
        self.conversions.push(TypeRule::Many(Box::new(f)));
    }
    /// The converted types of `t` (one for a 1:1 conversion or a legal type).
    pub fn convert_many(&self, ctx: &mut Context, t: TypeId) -> Vec<TypeId> {
        for rule in self.conversions.iter().rev() {
            match rule {
                TypeRule::One(f) => {
                    if let Some(r) = f(ctx, t) {
                        return vec![r];
                    }
                }
                TypeRule::Many(f) => {
                    if let Some(r) = f(ctx, t) {
                        return r;
                    }
                }
            }
        }
        vec![t]
    }
    /// The converted type of `t` under a 1:1 conversion (`t` itself when a 1:N conversion
    /// handles it: see [`TypeConverter::convert_many`]).
    pub fn convert(&self, ctx: &mut Context, t: TypeId) -> TypeId {
        match self.convert_many(ctx, t).as_slice() {
            [one] => *one,
            _ => t,
        }
    }
    /// Whether `t` is already legal (converts to itself).
    pub fn is_legal(&self, ctx: &mut Context, t: TypeId) -> bool {
        self.convert_many(ctx, t) == [t]
    }
}

/// A conversion pattern: rewrites an illegal op given its operands adapted to the
/// converted types.
pub trait ConversionPattern: Send + Sync {
    fn name(&self) -> &str;
    fn root(&self) -> Option<&str>;
    fn benefit(&self) -> u16 {
        1
    }
    /// Rewrites `op` (through `rw`, ending with [`ConversionRewriter::replace_op`] or
    /// [`ConversionRewriter::erase_op`]) and returns `true`, or changes nothing.
    fn match_and_rewrite(&self, op: OpId, operands: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool;
    /// The same with each operand as the values its converted types give (one each under
    /// 1:1 conversions; a 1:N conversion's several). The default leaves ops with an operand
    /// of several values to the patterns that override it, and passes the others to
    /// [`ConversionPattern::match_and_rewrite`].
    fn match_and_rewrite_groups(&self, op: OpId, operands: &[Vec<ValueId>], rw: &mut ConversionRewriter<'_, '_>) -> bool {
        if operands.iter().any(|g| g.len() != 1) {
            return false;
        }
        let flat: Vec<ValueId> = operands.iter().map(|g| g[0]).collect();
        self.match_and_rewrite(op, &flat, rw)
    }
}

/// A conversion pattern from a plain function.
pub struct FnConversionPattern {
    pub name: &'static str,
    pub root: Option<&'static str>,
    pub benefit: u16,
    pub f: fn(OpId, &[ValueId], &mut ConversionRewriter<'_, '_>) -> bool,
}

impl ConversionPattern for FnConversionPattern {
    fn name(&self) -> &str {
        self.name
    }
    fn root(&self) -> Option<&str> {
        self.root
    }
    fn benefit(&self) -> u16 {
        self.benefit
    }
    fn match_and_rewrite(&self, op: OpId, operands: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
        (self.f)(op, operands, rw)
    }
}

#[derive(Default)]
struct Created {
    ops: Vec<OpId>,
}

impl Listener for Created {
    fn op_inserted(&mut self, _ctx: &Context, op: OpId) {
        self.ops.push(op);
    }
}

/// The rewriter handed to conversion patterns.
pub struct ConversionRewriter<'a, 'b> {
    pub rw: Rewriter<'a>,
    pub types: &'b TypeConverter,
    /// Why the last pattern that declined the op did ([`ConversionRewriter::notify_match_failure`]).
    reason: Option<String>,
    memo: &'b mut TypeMemo,
}

/// The converted types of the types seen so far in one conversion run: a type converts the
/// same way every time in one context, and asking the converter's rules (newest first)
/// for every operand of every op was a fifth of a conversion's time.
#[derive(Default)]
pub struct TypeMemo(FxHashMap<TypeId, smallvec::SmallVec<[TypeId; 2]>>);

impl TypeMemo {
    /// [`TypeConverter::convert_many`], remembered.
    fn convert_many(&mut self, types: &TypeConverter, ctx: &mut Context, t: TypeId) -> &[TypeId] {
        self.0.entry(t).or_insert_with(|| types.convert_many(ctx, t).into())
    }
    /// [`TypeConverter::convert`], remembered.
    fn convert(&mut self, types: &TypeConverter, ctx: &mut Context, t: TypeId) -> TypeId {
        match self.convert_many(types, ctx, t) {
            [one] => *one,
            _ => t,
        }
    }
}

impl ConversionRewriter<'_, '_> {
    /// Says why a pattern declines the op (MLIR's `notifyMatchFailure`) and returns `false`
    /// for the pattern to return: if no pattern converts the op, the reason is part of the
    /// "failed to legalize" error at it.
    pub fn notify_match_failure(&mut self, reason: impl Into<String>) -> bool {
        self.reason = Some(reason.into());
        false
    }
    /// The context.
    pub fn ctx(&mut self) -> &mut Context {
        self.rw.ctx
    }
    /// The converted type of `t`.
    pub fn convert_type(&mut self, t: TypeId) -> TypeId {
        self.memo.convert(self.types, self.rw.ctx, t)
    }
    /// Replaces `op` by `values`, inserting source materializations where a value's type
    /// differs from the result it replaces.
    pub fn replace_op(&mut self, op: OpId, values: &[ValueId]) {
        let mut adapted = Vec::with_capacity(values.len());
        self.rw.set_insertion_point_before(op);
        for (i, &v) in values.iter().enumerate() {
            let old_ty = self.rw.ctx.value_type(self.rw.ctx.result(op, i));
            if self.rw.ctx.value_type(v) != old_ty && self.rw.ctx.has_uses(self.rw.ctx.result(op, i)) {
                adapted.push(cast(&mut self.rw, v, old_ty));
            } else {
                adapted.push(v);
            }
        }
        self.rw.replace_op(op, &adapted);
    }
    /// Replaces each result of `op` by a group of values (a 1:N conversion's): a group of
    /// one as [`ConversionRewriter::replace_op`]; the uses of a result replaced by several
    /// values that remain get a source materialization joining them.
    pub fn replace_op_with_groups(&mut self, op: OpId, groups: &[Vec<ValueId>]) {
        let mut singles = Vec::with_capacity(groups.len());
        self.rw.set_insertion_point_before(op);
        for (i, g) in groups.iter().enumerate() {
            let r = self.rw.ctx.result(op, i);
            let old_ty = self.rw.ctx.value_type(r);
            if !self.rw.ctx.has_uses(r) {
                // Nothing reads it: any value stands in (the op goes).
                singles.push(g.first().copied().unwrap_or(r));
                continue;
            }
            singles.push(match g.as_slice() {
                [v] if self.rw.ctx.value_type(*v) == old_ty => *v,
                [v] => cast(&mut self.rw, *v, old_ty),
                _ => {
                    let c = cast_op_n(&mut self.rw, g, &[old_ty]);
                    self.rw.ctx.result(c, 0)
                }
            });
        }
        self.rw.replace_op(op, &singles);
    }
    /// Erases `op` (its results must be unused).
    pub fn erase_op(&mut self, op: OpId) {
        self.rw.erase_op(op);
    }
    /// Converts the argument types of every block of `region` in place; uses that still
    /// expect the old type get a source materialization.
    pub fn convert_region_types(&mut self, region: RegionId) {
        let blocks = self.rw.ctx.region_blocks(region).to_vec();
        for b in blocks {
            self.convert_block_types(b);
        }
    }
    /// Converts the argument types of block `b` in place (as
    /// [`ConversionRewriter::convert_region_types`] does for each block of a region): what a
    /// branch pattern does for its destination when the function's conversion has not.
    pub fn convert_block_types(&mut self, b: crate::context::BlockId) {
        {
            let args = self.rw.ctx.block_args(b).to_vec();
            // Under a 1:N conversion a block's arguments are rebuilt: each as its
            // converted types' values, the old ones joined by a source materialization.
            let many: Vec<Vec<TypeId>> =
                args.iter().map(|&a| self.memo.convert_many(self.types, self.rw.ctx, self.rw.ctx.value_type(a)).to_vec()).collect();
            if many.iter().any(|m| m.len() != 1) {
                self.expand_block_args(b, &many);
                return;
            }
            for a in args {
                let old = self.rw.ctx.value_type(a);
                let new = self.memo.convert(self.types, self.rw.ctx, old);
                if new == old {
                    continue;
                }
                self.rw.ctx.set_value_type(a, new);
                if !self.rw.ctx.has_uses(a) {
                    continue;
                }
                self.rw.set_insertion_point_to_start(b);
                let c = cast_op(&mut self.rw, a, old);
                let cv = self.rw.ctx.result(c, 0);
                self.rw.ctx.replace_uses_with_if(a, cv, |_, owner, _| owner != c);
            }
        }
    }
}

/// A materialization cast of `vs` to values of types `to` (N:1 joins a 1:N conversion's
/// values back into the source type; 1:N splits a source value).
fn cast_op_n(rw: &mut Rewriter<'_>, vs: &[ValueId], to: &[TypeId]) -> OpId {
    let loc = rw.ctx.unknown_loc();
    let mut st = OperationState::new(rw.ctx, CAST_OP, loc);
    st.operands.extend_from_slice(vs);
    st.result_types.extend_from_slice(to);
    rw.create(st)
}

/// `v` as values of types `to` (a 1:N conversion's): the inputs of the N:1 cast that made
/// `v`, if that is where it came from, else a 1:N cast.
fn split(rw: &mut Rewriter<'_>, v: ValueId, to: &[TypeId]) -> Vec<ValueId> {
    if let Some(d) = rw.ctx.defining_op(v) {
        if rw.ctx.is_op(d, CAST_OP) && rw.ctx.num_results(d) == 1 {
            let ins = rw.ctx.operand_vec(d);
            if ins.len() == to.len() && ins.iter().zip(to).all(|(&i, &t)| rw.ctx.value_type(i) == t) {
                return ins;
            }
        }
    }
    let c = cast_op_n(rw, &[v], to);
    rw.ctx.results(c).to_vec()
}

impl ConversionRewriter<'_, '_> {
    /// Replaces the arguments of block `b` by the values of their converted types `many`
    /// (in order); uses of an old argument read the new ones through a materialization.
    fn expand_block_args(&mut self, b: crate::context::BlockId, many: &[Vec<TypeId>]) {
        let old: Vec<ValueId> = self.rw.ctx.block_args(b).to_vec();
        let mut groups = Vec::with_capacity(old.len());
        for tys in many {
            groups.push(tys.iter().map(|&t| self.rw.ctx.add_block_arg(b, t)).collect::<Vec<_>>());
        }
        for (&a, g) in old.iter().zip(&groups) {
            if !self.rw.ctx.has_uses(a) {
                continue;
            }
            let t = self.rw.ctx.value_type(a);
            self.rw.set_insertion_point_to_start(b);
            let v = match g.as_slice() {
                [v] if self.rw.ctx.value_type(*v) == t => *v,
                _ => {
                    let c = cast_op_n(&mut self.rw, g, &[t]);
                    self.rw.ctx.result(c, 0)
                }
            };
            self.rw.ctx.replace_all_uses_with(a, v);
        }
        for _ in 0..old.len() {
            self.rw.ctx.erase_block_arg(b, 0);
        }
    }
}

fn cast_op(rw: &mut Rewriter<'_>, v: ValueId, to: TypeId) -> OpId {
    let loc = rw.ctx.unknown_loc();
    let mut st = OperationState::new(rw.ctx, CAST_OP, loc);
    st.operands.push(v);
    st.result_types.push(to);
    rw.create(st)
}

/// `v` cast to `to` at the insertion point, reusing the input of a cast that came from `to`.
fn cast(rw: &mut Rewriter<'_>, v: ValueId, to: TypeId) -> ValueId {
    if let Some(d) = rw.ctx.defining_op(v) {
        if rw.ctx.is_op(d, CAST_OP) && rw.ctx.num_operands(d) == 1 {
            let src = rw.ctx.operand(d, 0);
            if rw.ctx.value_type(src) == to {
                return src;
            }
        }
    }
    let c = cast_op(rw, v, to);
    rw.ctx.result(c, 0)
}

/// Partial conversion leaves unknown ops alone; full conversion requires every op legal.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum ConversionMode {
    Partial,
    Full,
}

/// What a conversion did.
#[derive(Debug, Default)]
pub struct ConversionResult {
    pub rewrites: u64,
    pub errors: Vec<Diagnostic>,
    pub stats: Vec<super::PatternStat>,
    pub hit_budget: Option<u64>,
}

/// Runs a one-shot conversion of everything nested in `root`.
pub fn apply_conversion(
    ctx: &mut Context,
    root: OpId,
    target: &ConversionTarget,
    types: &TypeConverter,
    patterns: &[Box<dyn ConversionPattern>],
    mode: ConversionMode,
    sources: Option<&crate::diag::SourceMap>,
) -> ConversionResult {
    let mut res = ConversionResult {
        stats: patterns.iter().map(|p| super::PatternStat { name: p.name().to_string(), ..Default::default() }).collect(),
        ..Default::default()
    };
    let mut order: Vec<usize> = (0..patterns.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(patterns[i].benefit()));
    let mut by_name: FxHashMap<crate::symbol::Symbol, Vec<usize>> = FxHashMap::default();
    let initial = crate::walk::collect_preorder(ctx, root);
    let budget = initial.len() as u64 * CONVERSION_REWRITES_PER_OP + 10_000;
    let mut work: Vec<(OpId, u32)> = initial.into_iter().skip(1).map(|o| (o, 0)).rev().collect();
    let mut failed: Vec<OpId> = Vec::new();
    let mut reasons: FxHashMap<OpId, String> = FxHashMap::default();
    // Per op name: its legality, unless a dynamic legality decides per op.
    let mut legal_by_name: FxHashMap<crate::symbol::Symbol, Option<Legality>> = FxHashMap::default();
    let mut memo = TypeMemo::default();
    while let Some((op, depth)) = work.pop() {
        if !ctx.op_is_live(op) || ctx.op_block(op).is_none() {
            continue;
        }
        let legality = match *legal_by_name.entry(ctx.op_name(op)).or_insert_with(|| target.static_legality(ctx.op_name_str(op))) {
            Some(l) => l,
            None => target.legality(ctx, op),
        };
        if legality == Legality::Legal || (legality == Legality::Unknown && mode == ConversionMode::Partial) {
            continue;
        }
        if res.rewrites >= budget {
            res.hit_budget = Some(budget);
            break;
        }
        if depth > MAX_LEGALIZATION_DEPTH {
            failed.push(op);
            continue;
        }
        let name = ctx.op_name(op);
        let cands = by_name
            .entry(name)
            .or_insert_with(|| order.iter().copied().filter(|&i| patterns[i].root().is_none_or(|r| r == ctx.str(name))).collect())
            .clone();
        let mut created = Created::default();
        let mut applied = false;
        {
            let mut rw = Rewriter::new(ctx, &mut created);
            // Adapt operands: each as the values of its converted types.
            let mut operands: Vec<Vec<ValueId>> = Vec::new();
            rw.set_insertion_point_before(op);
            for v in rw.ctx.operand_vec(op) {
                let t = rw.ctx.value_type(v);
                operands.push(match memo.convert_many(types, rw.ctx, t) {
                    [nt] if *nt == t => vec![v],
                    &[nt] => vec![cast(&mut rw, v, nt)],
                    nts => {
                        let nts = nts.to_vec();
                        split(&mut rw, v, &nts)
                    }
                });
            }
            let mut crw = ConversionRewriter { rw, types, reason: None, memo: &mut memo };
            for i in cands {
                res.stats[i].tried += 1;
                if patterns[i].match_and_rewrite_groups(op, &operands, &mut crw) {
                    res.stats[i].applied += 1;
                    applied = true;
                    break;
                }
            }
            if let Some(r) = crw.reason.take().filter(|_| !applied) {
                reasons.insert(op, r);
            }
        }
        if applied {
            res.rewrites += 1;
            for &c in created.ops.iter().rev() {
                if ctx.op_is_live(c) {
                    work.push((c, depth + 1));
                }
            }
        } else {
            // Remove the operand casts we made for nothing.
            for c in created.ops {
                if ctx.op_is_live(c) && !ctx.results(c).iter().any(|&r| ctx.has_uses(r)) {
                    ctx.erase_op(c);
                }
            }
            failed.push(op);
        }
    }
    cleanup_casts(ctx, root);
    for op in failed {
        if ctx.op_is_live(op) && ctx.op_block(op).is_some() {
            let span = crate::verify::loc_span(ctx, ctx.op_loc(op), sources);
            let message = match reasons.get(&op) {
                Some(r) => format!("failed to legalize operation '{}': {r}", ctx.op_name_str(op)),
                None => format!("failed to legalize operation '{}'", ctx.op_name_str(op)),
            };
            res.errors.push(Diagnostic::error(message, span));
        }
    }
    if mode == ConversionMode::Full {
        for op in crate::walk::collect_preorder(ctx, root).into_iter().skip(1) {
            if ctx.is_op(op, CAST_OP) {
                let t = ctx.value_type(ctx.operand(op, 0));
                if !types.is_legal(ctx, t) || !types.is_legal(ctx, ctx.value_type(ctx.result(op, 0))) {
                    let span = crate::verify::loc_span(ctx, ctx.op_loc(op), sources);
                    res.errors.push(Diagnostic::error(
                        "failed to legalize unresolved materialization (a value of an illegal type is still used)",
                        span,
                    ));
                }
            }
        }
    }
    res.stats.retain(|s| s.tried > 0);
    res
}

/// Folds `cast(cast(x : A) : B) : A` to `x` and erases unused casts.
fn cleanup_casts(ctx: &mut Context, root: OpId) {
    let casts: Vec<OpId> = crate::walk::collect_preorder(ctx, root).into_iter().filter(|&o| ctx.is_op(o, CAST_OP)).collect();
    for &c in &casts {
        // A split (1:N) of a join (N:1) of the same types: the joined values.
        if ctx.op_is_live(c) && ctx.num_operands(c) == 1 && ctx.num_results(c) > 1 {
            if let Some(d) = ctx.defining_op(ctx.operand(c, 0)).filter(|&d| ctx.is_op(d, CAST_OP) && ctx.num_results(d) == 1) {
                let ins = ctx.operand_vec(d);
                let outs = ctx.results(c).to_vec();
                if ins.len() == outs.len() && ins.iter().zip(&outs).all(|(&i, &o)| ctx.value_type(i) == ctx.value_type(o)) {
                    for (o, i) in outs.into_iter().zip(ins) {
                        ctx.replace_all_uses_with(o, i);
                    }
                }
            }
            continue;
        }
        if !ctx.op_is_live(c) || ctx.num_operands(c) != 1 || ctx.num_results(c) != 1 {
            continue;
        }
        let input = ctx.operand(c, 0);
        let out = ctx.result(c, 0);
        if ctx.value_type(input) == ctx.value_type(out) {
            ctx.replace_all_uses_with(out, input);
            continue;
        }
        if let Some(d) = ctx.defining_op(input) {
            if ctx.is_op(d, CAST_OP) && ctx.num_operands(d) == 1 {
                let src = ctx.operand(d, 0);
                if ctx.value_type(src) == ctx.value_type(out) {
                    ctx.replace_all_uses_with(out, src);
                }
            }
        }
    }
    // Erase dead casts, users first.
    for &c in casts.iter().rev() {
        if ctx.op_is_live(c) && !ctx.results(c).iter().any(|&r| ctx.has_uses(r)) {
            ctx.erase_op(c);
        }
    }
}
