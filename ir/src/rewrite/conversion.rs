//! One-shot dialect conversion: rewrite every illegal op once, in order, with no rollback.
//!
//! Algorithm:
//! 1. Collect the ops nested in the root in preorder (parents before their bodies).
//! 2. For each op that the [`ConversionTarget`] does not accept: adapt its operands, i.e.
//!    for an operand whose type the [`TypeConverter`] changes, use the value it was cast
//!    from if it is an `unrealized_conversion_cast`, else insert a target materialization
//!    cast; then try the conversion patterns for the op, best benefit first.
//! 3. A pattern replaces the op through [`ConversionRewriter::replace_op`]: where a new
//!    value's type differs from the old result's, a source materialization cast keeps the
//!    remaining (not yet converted) users well-typed.
//! 4. Ops a pattern creates that are themselves illegal are converted next, at most
//!    [`MAX_LEGALIZATION_DEPTH`] levels deep.
//! 5. Finally cast pairs that round-trip (`A -> B -> A`) are folded away and dead casts
//!    erased. Remaining illegal ops (or, in full mode, unknown ones) and casts whose
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

/// Maps types of the source dialects to types of the target (1:1). Conversions are tried
/// last-added first; a type no conversion handles is left as is (it is legal).
#[derive(Default)]
pub struct TypeConverter {
    conversions: Vec<TypeConversionFn>,
}

impl TypeConverter {
    /// A converter that changes nothing.
    pub fn new() -> Self {
        Self::default()
    }
    /// Adds a conversion (`None`: not handled by this one).
    pub fn add(&mut self, f: impl Fn(&mut Context, TypeId) -> Option<TypeId> + Send + Sync + 'static) {
        self.conversions.push(Box::new(f));
    }
    /// The converted type of `t`.
    pub fn convert(&self, ctx: &mut Context, t: TypeId) -> TypeId {
        for f in self.conversions.iter().rev() {
            if let Some(r) = f(ctx, t) {
                return r;
            }
        }
        t
    }
    /// Whether `t` is already legal (converts to itself).
    pub fn is_legal(&self, ctx: &mut Context, t: TypeId) -> bool {
        self.convert(ctx, t) == t
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
}

impl ConversionRewriter<'_, '_> {
    /// The context.
    pub fn ctx(&mut self) -> &mut Context {
        self.rw.ctx
    }
    /// The converted type of `t`.
    pub fn convert_type(&mut self, t: TypeId) -> TypeId {
        self.types.convert(self.rw.ctx, t)
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
    /// Erases `op` (its results must be unused).
    pub fn erase_op(&mut self, op: OpId) {
        self.rw.erase_op(op);
    }
    /// Converts the argument types of every block of `region` in place; uses that still
    /// expect the old type get a source materialization.
    pub fn convert_region_types(&mut self, region: RegionId) {
        let blocks = self.rw.ctx.region_blocks(region).to_vec();
        for b in blocks {
            let args = self.rw.ctx.block_args(b).to_vec();
            for a in args {
                let old = self.rw.ctx.value_type(a);
                let new = self.types.convert(self.rw.ctx, old);
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
    while let Some((op, depth)) = work.pop() {
        if !ctx.op_is_live(op) || ctx.op_block(op).is_none() {
            continue;
        }
        let legality = target.legality(ctx, op);
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
            // Adapt operands.
            let mut operands = Vec::new();
            rw.set_insertion_point_before(op);
            for v in rw.ctx.operand_vec(op) {
                let t = rw.ctx.value_type(v);
                let nt = types.convert(rw.ctx, t);
                operands.push(if nt == t { v } else { cast(&mut rw, v, nt) });
            }
            let mut crw = ConversionRewriter { rw, types };
            for i in cands {
                res.stats[i].tried += 1;
                if patterns[i].match_and_rewrite(op, &operands, &mut crw) {
                    res.stats[i].applied += 1;
                    applied = true;
                    break;
                }
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
            res.errors.push(Diagnostic::error(format!("failed to legalize operation '{}'", ctx.op_name_str(op)), span));
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
