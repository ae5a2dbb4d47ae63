//! The greedy driver: each `simplify` rule as a pattern of the core's greedy driver
//! (`cuprite_ir::rewrite::greedy`), matched on the IR and applied whenever it matches.
//!
//! The left side is matched by following operands to their defining ops (any block: every
//! value a pattern binds is an operand, direct or not, of the root, so it dominates the
//! root, where the right side is built). Conditions read [`ir_facts`], the same transfer
//! functions the e-graph's analysis runs, over the ops that define each value.

use super::facts::Facts;
use super::lang::{build, op_of, sext_bits, Op};
use super::rules::{instantiate, IntTypes, Kind, MatchEnv, Pat, Rule, Sink, Width};
use super::scope::{ir_facts, max_threads, Scope};
use cuprite_dialects::nvvm as nv;
use cuprite_ir::{
    rewrite::{RewritePattern, Rewriter},
    Context, LocId, OpId, TypeId, ValueId,
};
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// The nvvm op name a rule's root operator matches.
fn root_name(op: Op) -> Option<&'static str> {
    Some(match op {
        Op::Add { .. } => nv::AddOp::NAME,
        Op::Sub { .. } => nv::SubOp::NAME,
        Op::Mul { .. } => nv::MulOp::NAME,
        Op::Shl { .. } => nv::ShlOp::NAME,
        Op::Lshr => nv::LshrOp::NAME,
        Op::Ashr => nv::AshrOp::NAME,
        Op::And => nv::AndOp::NAME,
        Op::Or => nv::OrOp::NAME,
        Op::Xor => nv::XorOp::NAME,
        Op::Sdiv => nv::SdivOp::NAME,
        Op::Udiv => nv::UdivOp::NAME,
        Op::Srem => nv::SremOp::NAME,
        Op::Urem => nv::UremOp::NAME,
        Op::MulHi | Op::UMulHi | Op::Smin | Op::Smax | Op::Umin | Op::Umax => nv::IntrOp::NAME,
        Op::Sext => nv::SextOp::NAME,
        Op::Zext => nv::ZextOp::NAME,
        Op::Trunc => nv::TruncOp::NAME,
        Op::ICmp(_) => nv::ICmpOp::NAME,
        Op::Select => nv::SelectOp::NAME,
        Op::PtrAdd => nv::PtrAddOp::NAME,
        Op::Fadd { .. } => nv::FaddOp::NAME,
        Op::Fsub { .. } => nv::FsubOp::NAME,
        Op::Fmul { .. } => nv::FmulOp::NAME,
        Op::Fneg => nv::FNegOp::NAME,
        Op::Fma => nv::IntrOp::NAME,
        Op::Const(_) | Op::Leaf(_) => return None,
    })
}

/// The constant value of `v`, if an `nvvm.constant` defines it.
fn constant(ctx: &Context, v: ValueId) -> Option<i128> {
    let w = super::lang::int_width(ctx, ctx.value_type(v))?;
    Some(sext_bits(nv::int_constant(ctx, ctx.defining_op(v)?)?, w))
}

fn width_ok(ctx: &Context, w: Width, v: ValueId, binds: &[Option<ValueId>]) -> bool {
    let ty = ctx.value_type(v);
    match w {
        Width::Any | Width::Root => true,
        Width::Bits(b) => super::lang::int_width(ctx, ty) == Some(b),
        Width::Of(i) => binds[i].is_none_or(|b| ctx.value_type(b) == ty),
    }
}

/// Matches pattern node `p` against value `v`, binding variables (no backtracking is
/// needed: a value has one definition).
fn match_value(ctx: &Context, pats: &[Pat], p: usize, v: ValueId, binds: &mut Vec<Option<ValueId>>) -> bool {
    match &pats[p] {
        Pat::Var(i) => match binds[*i] {
            Some(b) => {
                b == v || (constant(ctx, b).is_some() && constant(ctx, b) == constant(ctx, v) && ctx.value_type(b) == ctx.value_type(v))
            }
            None => {
                binds[*i] = Some(v);
                true
            }
        },
        Pat::Lit(c, w) => {
            let Some(width) = super::lang::int_width(ctx, ctx.value_type(v)) else { return false };
            width_ok(ctx, *w, v, binds) && constant(ctx, v) == Some(sext_bits(*c, width))
        }
        Pat::Node { op, width, args } => {
            let Some(d) = ctx.defining_op(v) else { return false };
            let Some(o) = op_of(ctx, d) else { return false };
            if !op.matches(o) || !width_ok(ctx, *width, v, binds) {
                return false;
            }
            let operands = ctx.operand_vec(d);
            args.iter().zip(operands).all(|(&a, x)| match_value(ctx, pats, a, x, binds))
        }
        Pat::Meta { .. } => false,
        Pat::Bind { var, pat } => {
            if binds[*var].is_some_and(|b| b != v) {
                return false;
            }
            binds[*var] = Some(v);
            match_value(ctx, pats, *pat, v, binds)
        }
    }
}

/// Use counts in the IR, as instruction selection counts them: a value defined in another
/// block than the match's root is not fusable there (its count is unknown).
struct IrEnv<'a> {
    ctx: &'a Context,
    binds: &'a [Option<ValueId>],
    block: cuprite_ir::BlockId,
}

impl MatchEnv for IrEnv<'_> {
    fn uses(&self, i: usize) -> u32 {
        let Some(v) = self.binds.get(i).copied().flatten() else { return u32::MAX };
        match self.ctx.defining_op(v) {
            Some(d) if self.ctx.op_block(d) == Some(self.block) => self.ctx.uses(v).count() as u32,
            _ => u32::MAX,
        }
    }
    fn is_product(&self, i: usize) -> bool {
        let Some(d) = self.binds.get(i).copied().flatten().and_then(|v| self.ctx.defining_op(v)) else { return false };
        op_of(self.ctx, d) == Some(Op::Fmul { contract: true })
    }
}

struct IrSink<'r, 'a> {
    rw: &'r mut Rewriter<'a>,
    binds: &'r [Option<ValueId>],
    memo: FxHashMap<(Op, TypeId, Vec<ValueId>), ValueId>,
    loc: LocId,
}

impl Sink for IrSink<'_, '_> {
    type Val = ValueId;
    fn var(&mut self, i: usize) -> ValueId {
        self.binds[i].unwrap_or_else(|| unreachable!("a right side uses only variables the left side binds"))
    }
    fn node(&mut self, op: Op, ty: TypeId, args: &[ValueId]) -> ValueId {
        let key = (op, ty, args.to_vec());
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let v = build(self.rw, op, ty, args, self.loc);
        self.memo.insert(key, v);
        v
    }
}

/// A sink that builds nothing and tracks types: whether a right side can be built.
struct DrySink<'r> {
    ctx: &'r Context,
    binds: &'r [Option<ValueId>],
}

impl Sink for DrySink<'_> {
    type Val = Option<TypeId>;
    fn var(&mut self, i: usize) -> Option<TypeId> {
        self.binds[i].map(|v| self.ctx.value_type(v))
    }
    fn node(&mut self, _op: Op, ty: TypeId, args: &[Option<TypeId>]) -> Option<TypeId> {
        args.iter().all(Option::is_some).then_some(ty)
    }
}

/// A `simplify` rule as a greedy pattern.
pub struct RulePattern {
    pub rule: Arc<Rule>,
    root: &'static str,
    types: IntTypes,
}

/// The `.maxntid` bound of the function around `op`.
fn launch_bound(ctx: &Context, op: OpId) -> Option<i128> {
    let mut p = ctx.parent_op(op);
    while let Some(f) = p {
        if nv::FuncOp::cast(ctx, f).is_some() {
            return max_threads(ctx, f);
        }
        p = ctx.parent_op(f);
    }
    None
}

impl RewritePattern for RulePattern {
    fn name(&self) -> &str {
        &self.rule.name
    }
    fn root(&self) -> Option<&str> {
        Some(self.root)
    }
    fn match_and_rewrite(&self, op: OpId, rw: &mut Rewriter<'_>) -> bool {
        let ctx = &*rw.ctx;
        if ctx.num_results(op) != 1 || op_of(ctx, op).is_none() {
            return false;
        }
        let rule = &self.rule;
        let root_v = ctx.result(op, 0);
        let mut binds: Vec<Option<ValueId>> = vec![None; rule.vars.len()];
        if !match_value(ctx, &rule.lhs, rule.lhs.len() - 1, root_v, &mut binds) {
            return false;
        }
        let Some(block) = ctx.op_block(op) else { return false };
        let scope = Scope::at(ctx, block, launch_bound(ctx, op), None);
        let root = ir_facts(ctx, root_v, &scope);
        let facts: Vec<Facts> = binds.iter().map(|b| b.map_or(root, |v| ir_facts(ctx, v, &scope))).collect();
        if !rule.check(&facts, &root, &IrEnv { ctx, binds: &binds, block }) {
            return false;
        }
        // A dry run first: a pattern that declines must leave the IR as it was.
        match instantiate(rule, &mut DrySink { ctx, binds: &binds }, &facts, &root, &self.types) {
            Some(Some(t)) if t == root.ty => {}
            _ => return false,
        }
        let loc = ctx.op_loc(op);
        rw.set_insertion_point_before(op);
        let mut sink = IrSink { rw, binds: &binds, memo: FxHashMap::default(), loc };
        let Some(new) = instantiate(rule, &mut sink, &facts, &root, &self.types) else { return false };
        if new == root_v {
            return false;
        }
        rw.replace_op(op, &[new]);
        true
    }
}

/// The greedy patterns of the `simplify` rules among `rules` (those rooted at float ops
/// only with `floats`, as the e-graph holds float terms only then).
pub fn patterns(ctx: &mut Context, rules: &[Arc<Rule>], floats: bool) -> cuprite_ir::rewrite::PatternSet {
    let types = IntTypes::new(ctx);
    let mut set = cuprite_ir::rewrite::PatternSet::new();
    for r in rules.iter().filter(|r| r.kind == Kind::Simplify) {
        let Some(Pat::Node { op, .. }) = r.lhs.last() else { continue };
        if op.is_float() && !floats {
            continue;
        }
        let Some(root) = root_name(*op) else { continue };
        set.add(RulePattern { rule: r.clone(), root, types: types.clone() });
    }
    set
}
