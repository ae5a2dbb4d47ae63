//! Equality saturation over one block: the block's arithmetic into an egg e-graph, the
//! rules run to saturation or a budget, the cheapest terms extracted back into the IR.
//!
//! 1. Every op of the block in the language ([`op_of`]) becomes an e-node; its operands
//!    from outside (block arguments, loads, values of other blocks) become leaves, whose
//!    facts come from the IR ([`ir_facts`]: a value of a dominating block is seen through
//!    its defining ops, a special register with CUDA's limits).
//! 2. The roots are the values used by anything outside the block's arithmetic.
//! 3. egg's runner applies the rules ([`RuleSearch`], [`RuleApply`]) under the budgets and
//!    the backoff scheduler; the analysis keeps each class's [`Facts`] and folds classes
//!    that are constants.
//! 4. For each root whose best term ([`SassCost`]) is cheaper than the original, the term is
//!    built before the root (reusing the block's original values where the term has them and
//!    they come earlier), the root's uses move to it, and the original ops that are now
//!    dead are erased. A term that would use a value defined later in the block is left.

use super::cost::SassCost;
use super::facts::{transfer, Facts};
use super::lang::{build, int_width, op_of, sext_bits, Op, Term};
use super::rules::{instantiate, IntTypes, MatchEnv, Pat, Rule, Sink, Width};
use super::scope::{ir_facts, Scope};
use cuprite_ir::{rewrite::NoListener, rewrite::Rewriter, BlockId, Context, OpId, TypeId, ValueId};
use egg::{DidMerge, EGraph, Id, RecExpr, SearchMatches, Subst, Symbol, Var};
use rustc_hash::{FxHashMap, FxHashSet};
use smallvec::SmallVec;
use std::sync::Arc;

/// What a rewrite must save by the cost model (in SASS instructions) to be made: ties and
/// near-ties (a `mul.wide` against a 32-bit multiply and a `zext`) are below what the
/// model can tell apart, and rewriting them would only churn the code.
pub const MIN_GAIN: f64 = 0.5;

/// Ops of dominating blocks a block's e-graph holds (nearest first): enough for the
/// address and index arithmetic a kernel computes once at its start and its blocks reuse,
/// few enough that seeding stays a small part of a block's run.
pub const SEED_OPS: usize = 32;

/// The e-graph of one block.
pub type Graph = EGraph<Term, Analysis>;

/// The e-graph's analysis: [`Facts`] per class; leaves' facts and the types it may make.
#[derive(Default)]
pub struct Analysis {
    pub leaves: Vec<Facts>,
    pub types: IntTypes,
    widths: FxHashMap<TypeId, u32>,
    /// Whether unions carry their rule for egg's explanations.
    pub explain: bool,
    /// Per class of a value the IR has: how many ops outside the e-graph read it
    /// (`u32::MAX` for leaves, whose readers elsewhere are not counted).
    pub external: FxHashMap<Id, u32>,
}

impl Analysis {
    /// The width of type `t` (0 when not an integer).
    pub fn width(&self, t: TypeId) -> u32 {
        self.widths.get(&t).copied().unwrap_or(0)
    }
}

impl egg::Analysis<Term> for Analysis {
    type Data = Facts;

    fn make(egraph: &mut Graph, enode: &Term, _id: Id) -> Facts {
        let w = egraph.analysis.width(enode.ty);
        match enode.op {
            Op::Leaf(i) => egraph.analysis.leaves[i as usize],
            op => {
                let args: SmallVec<[Facts; 3]> = enode.args.iter().map(|&a| egraph[a].data).collect();
                transfer(op, enode.ty, w, &args)
            }
        }
    }

    fn merge(&mut self, a: &mut Facts, b: Facts) -> DidMerge {
        let changed = a.meet(&b);
        DidMerge(changed, *a != b)
    }

    fn modify(egraph: &mut Graph, id: Id) {
        // A class known to be a constant holds the constant's node, which costs nothing.
        let d = egraph[id].data;
        let Some(c) = d.konst() else { return };
        if d.width == 0 || egraph[id].nodes.iter().any(|n| matches!(n.op, Op::Const(_))) {
            return;
        }
        let k = egraph.add(Term { op: Op::Const(sext_bits(c, d.width)), ty: d.ty, args: Default::default() });
        if egraph.analysis.explain {
            egraph.union_trusted(id, k, "fold-constant");
        } else {
            egraph.union(id, k);
        }
    }
}

/// Whether a node of type `ty` meets a pattern width, given the bindings so far.
fn width_ok(eg: &Graph, w: Width, ty: TypeId, binds: &[Option<Id>]) -> bool {
    match w {
        Width::Any | Width::Root => true,
        Width::Bits(b) => eg.analysis.width(ty) == b,
        Width::Of(v) => binds[v].is_none_or(|c| eg[c].data.ty == ty),
    }
}

type Cont<'a> = dyn FnMut(&mut Vec<Option<Id>>) -> bool + 'a;

/// Matches pattern node `p` of `pats` against class `class`, calling `k` with each set of
/// bindings; returns `false` once `k` asks to stop.
fn match_class(eg: &Graph, pats: &[Pat], p: usize, class: Id, binds: &mut Vec<Option<Id>>, k: &mut Cont<'_>) -> bool {
    let class = eg.find(class);
    match &pats[p] {
        Pat::Var(v) => match binds[*v] {
            Some(b) if eg.find(b) == class => k(binds),
            Some(_) => true,
            None => {
                binds[*v] = Some(class);
                let go = k(binds);
                binds[*v] = None;
                go
            }
        },
        Pat::Lit(c, w) => {
            let d = eg[class].data;
            if d.width > 0 && width_ok(eg, *w, d.ty, binds) && d.konst() == Some(sext_bits(*c, d.width)) {
                k(binds)
            } else {
                true
            }
        }
        Pat::Node { op, width, args } => {
            for node in eg[class].nodes.iter() {
                if op.matches(node.op) && width_ok(eg, *width, node.ty, binds) && !match_args(eg, pats, args, &node.args, binds, k) {
                    return false;
                }
            }
            true
        }
        Pat::Meta { .. } => true,
        Pat::Bind { var, pat } => match binds[*var] {
            Some(b) if eg.find(b) != class => true,
            Some(_) => match_class(eg, pats, *pat, class, binds, k),
            None => {
                binds[*var] = Some(class);
                let go = match_class(eg, pats, *pat, class, binds, k);
                binds[*var] = None;
                go
            }
        },
    }
}

fn match_args(eg: &Graph, pats: &[Pat], pargs: &[usize], nargs: &[Id], binds: &mut Vec<Option<Id>>, k: &mut Cont<'_>) -> bool {
    match pargs.split_first() {
        None => k(binds),
        Some((&p0, rest)) => match_class(eg, pats, p0, nargs[0], binds, &mut |b| match_args(eg, pats, rest, &nargs[1..], b, k)),
    }
}

/// Use counts in the e-graph: a class's readers are its parent classes (each an op of the
/// block, whichever of its equal forms is chosen) and the ops outside the graph that read
/// the value ([`Analysis::external`]).
struct GraphEnv<'a> {
    eg: &'a Graph,
    binds: &'a [Option<Id>],
}

impl MatchEnv for GraphEnv<'_> {
    fn uses(&self, i: usize) -> u32 {
        let Some(c) = self.binds.get(i).copied().flatten().map(|c| self.eg.find(c)) else { return u32::MAX };
        let outside = self.eg.analysis.external.iter().filter(|(&k, _)| self.eg.find(k) == c).fold(0u32, |n, (_, &m)| n.saturating_add(m));
        let mut parents: Vec<Id> = self.eg[c].parents().map(|p| self.eg.find(p)).collect();
        parents.sort_unstable();
        parents.dedup();
        outside.saturating_add(parents.len() as u32)
    }
    fn is_product(&self, i: usize) -> bool {
        self.binds.get(i).copied().flatten().is_some_and(|c| self.eg[c].nodes.iter().any(|n| n.op == Op::Fmul { contract: true }))
    }
}

/// A rule's left side and conditions as an egg searcher.
pub struct RuleSearch {
    pub rule: Arc<Rule>,
    pub vars: Vec<Var>,
}

impl egg::Searcher<Term, Analysis> for RuleSearch {
    fn search_eclass_with_limit(&self, eg: &Graph, eclass: Id, limit: usize) -> Option<SearchMatches<'_, Term>> {
        let rule = &self.rule;
        let mut binds = vec![None; rule.vars.len()];
        let mut substs: Vec<Subst> = Vec::new();
        let root = eg[eclass].data;
        match_class(eg, &rule.lhs, rule.lhs.len() - 1, eclass, &mut binds, &mut |b| {
            let holds = rule.conds.is_empty() || {
                let facts: SmallVec<[Facts; 6]> = b.iter().map(|c| c.map_or(root, |c| eg[c].data)).collect();
                rule.check(&facts, &root, &GraphEnv { eg, binds: b })
            };
            if holds {
                let mut s = Subst::with_capacity(b.len());
                for (v, c) in self.vars.iter().zip(b.iter()) {
                    if let Some(c) = c {
                        s.insert(*v, *c);
                    }
                }
                substs.push(s);
            }
            substs.len() < limit
        });
        (!substs.is_empty()).then_some(SearchMatches { eclass, substs, ast: None })
    }

    fn search_with_limit(&self, eg: &Graph, limit: usize) -> Vec<SearchMatches<'_, Term>> {
        // Only the classes holding the left side's root operator.
        // (egg's class sets hash with a fixed hasher: the order is the same every run.)
        let Some(Pat::Node { op, .. }) = self.rule.lhs.last() else { return Vec::new() };
        let Some(classes) = eg.classes_for_op(&op.kind()) else { return Vec::new() };
        let mut out = Vec::new();
        let mut left = limit;
        for c in classes {
            if left == 0 {
                break;
            }
            if let Some(m) = self.search_eclass_with_limit(eg, c, left) {
                left = left.saturating_sub(m.substs.len());
                out.push(m);
            }
        }
        out
    }

    fn vars(&self) -> Vec<Var> {
        self.vars.clone()
    }
}

/// A rule's right side as an egg applier.
pub struct RuleApply {
    pub rule: Arc<Rule>,
    pub vars: Vec<Var>,
}

struct GraphSink<'a> {
    eg: &'a mut Graph,
    subst: &'a Subst,
    vars: &'a [Var],
}

impl Sink for GraphSink<'_> {
    type Val = Id;
    fn var(&mut self, i: usize) -> Id {
        self.subst[self.vars[i]]
    }
    fn node(&mut self, op: Op, ty: TypeId, args: &[Id]) -> Id {
        self.eg.add(Term { op, ty, args: args.iter().copied().collect() })
    }
}

impl egg::Applier<Term, Analysis> for RuleApply {
    fn apply_one(&self, eg: &mut Graph, eclass: Id, subst: &Subst, _ast: Option<&egg::PatternAst<Term>>, rule_name: Symbol) -> Vec<Id> {
        let facts: Vec<Facts> = self.vars.iter().map(|v| subst.get(*v).map_or(eg[eclass].data, |&c| eg[c].data)).collect();
        let root = eg[eclass].data;
        let types = eg.analysis.types.clone();
        let mut sink = GraphSink { eg, subst, vars: &self.vars };
        let Some(new) = instantiate(&self.rule, &mut sink, &facts, &root, &types) else { return vec![] };
        // A rule that would change the type is a bug in the rule, never a rewrite.
        if eg[new].data.ty != root.ty {
            return vec![];
        }
        let changed = if eg.analysis.explain { eg.union_trusted(eclass, new, rule_name) } else { eg.union(eclass, new) };
        if changed {
            vec![new]
        } else {
            vec![]
        }
    }
}

/// The egg rewrite of each rule.
pub fn rewrites(rules: &[Arc<Rule>]) -> RuleSet {
    let explore = rules.iter().filter(|r| r.kind == super::rules::Kind::Explore).map(|r| Symbol::from(r.name.as_str())).collect();
    let mut kinds = Vec::new();
    let rewrites = rules
        .iter()
        .filter_map(|r| {
            let vars: Vec<Var> = r.vars.iter().filter_map(|v| v.parse().ok()).collect();
            (vars.len() == r.vars.len()).then_some(())?;
            let Some(Pat::Node { op, .. }) = r.lhs.last() else { return None };
            let rw =
                egg::Rewrite::new(r.name.clone(), RuleSearch { rule: r.clone(), vars: vars.clone() }, RuleApply { rule: r.clone(), vars })
                    .ok()?;
            let makes = r.rhs.iter().filter_map(|p| if let Pat::Node { op, .. } = p { Some(op.kind()) } else { None }).collect();
            kinds.push((op.kind(), makes));
            Some(rw)
        })
        .collect();
    RuleSet { rewrites, explore, kinds }
}

impl RuleSet {
    /// The rewrites that can apply to a graph whose nodes have the operator kinds
    /// `present`: those rooted at a kind present, or at one that such a rewrite makes
    /// (to a fixpoint). A block's graph holds a few kinds; egg's runner pays for every
    /// rule it is given in every iteration, matches or not.
    pub fn for_kinds(&self, present: &FxHashSet<Op>) -> Vec<&egg::Rewrite<Term, Analysis>> {
        let mut have = present.clone();
        let mut take = vec![false; self.rewrites.len()];
        loop {
            let mut grew = false;
            for (i, (root, makes)) in self.kinds.iter().enumerate() {
                if !take[i] && have.contains(root) {
                    take[i] = true;
                    for k in makes {
                        grew |= have.insert(*k);
                    }
                }
            }
            if !grew {
                break;
            }
        }
        self.rewrites.iter().zip(take).filter(|(_, t)| *t).map(|(r, _)| r).collect()
    }
}

/// egg's backoff scheduler, with the rules that only explore (commutativity, associativity,
/// distribution: they match nearly every node and make new terms from old ones without
/// end) held to [`EXPLORE_MATCHES`] matches an iteration before their ban.
fn scheduler(rules: &RuleSet) -> egg::BackoffScheduler {
    let mut s = egg::BackoffScheduler::default();
    for &name in &rules.explore {
        s = s.rule_match_limit(name, EXPLORE_MATCHES);
    }
    s
}

/// Matches an exploring rule may make in an iteration before egg's scheduler bans it for a
/// while (the default limit, 1,000, is for rules that simplify). Commutativity and
/// associativity match every sum; eight applications an iteration find the
/// rearrangements a block's rewrites use (a constant moved out, an invariant sum grouped)
/// without making every permutation.
pub const EXPLORE_MATCHES: usize = 8;

/// The rules as egg rewrites, and the names of those that only explore.
pub struct RuleSet {
    pub rewrites: Vec<egg::Rewrite<Term, Analysis>>,
    pub explore: Vec<Symbol>,
    /// Per rewrite: the operator kind of its left side's root and those its right side
    /// makes.
    kinds: Vec<(Op, Vec<Op>)>,
}

/// Budgets of one block's run.
#[derive(Clone, Debug)]
pub struct Budget {
    pub iterations: usize,
    pub nodes: usize,
    pub time: std::time::Duration,
    /// Whether float arithmetic joins the graph (for the fma rules; see
    /// [`super::Options::floats`]).
    pub floats: bool,
}

/// What one block's run did.
#[derive(Clone, Debug, Default)]
pub struct BlockReport {
    /// Roots replaced by cheaper terms.
    pub rewritten: u64,
    pub iterations: u64,
    pub nodes: u64,
    /// Applications per rule (unions that changed the e-graph).
    pub applied: Vec<(String, u64)>,
    /// The budget that stopped the run, if one did.
    pub stopped: Option<String>,
    /// One line per rewritten root: `(op, original => chosen, rules)` when explaining.
    pub remarks: Vec<(cuprite_ir::LocId, String)>,
}

/// A printed term (`(add:i32 v0 4)`).
fn show(expr: &RecExpr<Term>, widths: &dyn Fn(TypeId) -> u32) -> String {
    let nodes = expr.as_ref();
    let mut text: Vec<String> = Vec::with_capacity(nodes.len());
    for n in nodes {
        let s = match n.op {
            Op::Const(_) | Op::Leaf(_) => n.op.name(),
            op => {
                let w = widths(n.ty);
                let head = if w > 0 { format!("{}:{}", op.name(), w) } else { op.name() };
                let args: Vec<&str> = n.args.iter().map(|&a| text[usize::from(a)].as_str()).collect();
                format!("({head} {})", args.join(" "))
            }
        };
        text.push(s);
    }
    text.pop().unwrap_or_default()
}

/// `x + c1 + c2 ...` as `x + (c1 + c2 ...)` beside the chain, while the graph is built (the
/// rule `add-add-const` at once rather than one link an iteration): an unrolled loop's
/// copies count `i + 1 + 1 + 1`, and the rules about `i + 3` (a known remainder, the
/// `[reg+imm]` offset) then match in the first iteration. `node` (of class `id`) was just
/// added; the chain below it already has its sum (nodes are added operands first).
fn sum_constants(eg: &mut Graph, node: &Term, id: Id, explain: bool) {
    let Op::Add { .. } = node.op else { return };
    let w = eg.analysis.width(node.ty);
    let Some(c2) = eg[node.args[1]].data.konst().filter(|_| w > 0) else { return };
    let inner = eg[node.args[0]].nodes.iter().find_map(|n| match n.op {
        Op::Add { .. } if n.ty == node.ty => eg[n.args[1]].data.konst().map(|c1| (n.args[0], c1)),
        _ => None,
    });
    let Some((x, c1)) = inner else { return };
    let k = eg.add(Term { op: Op::Const(sext_bits(c1.wrapping_add(c2), w)), ty: node.ty, args: Default::default() });
    let sum = eg.add(Term { op: Op::Add { nsw: false }, ty: node.ty, args: smallvec::smallvec![x, k] });
    if explain {
        eg.union_trusted(id, sum, "add-add-const");
    } else {
        eg.union(id, sum);
    }
}

/// Runs equality saturation on the arithmetic of `block`.
pub fn optimize_block(
    ctx: &mut Context,
    block: BlockId,
    dom: &mut cuprite_ir::dominance::DominanceInfo,
    rules: &RuleSet,
    budget: &Budget,
    maxntid: Option<i128>,
    explain: bool,
) -> BlockReport {
    let mut report = BlockReport::default();
    let mut kinds: FxHashMap<OpId, Op> = ctx.block_ops(block).filter_map(|o| op_of(ctx, o).map(|k| (o, k))).collect();
    // Float ops matter to the fma rules alone: a contractible add or subtract of a
    // contractible product of this block, and that product, are terms; the block's other
    // float ops stay leaves (a float-heavy block's graph would otherwise double). Without
    // `floats`, none are.
    let product = |v: ValueId| ctx.defining_op(v).is_some_and(|d| kinds.get(&d) == Some(&Op::Fmul { contract: true }));
    let fused: FxHashSet<OpId> = kinds
        .iter()
        .filter(|_| budget.floats)
        .filter(|(&o, k)| {
            matches!(k, Op::Fadd { contract: true } | Op::Fsub { contract: true }) && ctx.operand_vec(o).into_iter().any(product)
        })
        .flat_map(|(&o, _)| {
            std::iter::once(o).chain(ctx.operand_vec(o).into_iter().filter(|&v| product(v)).filter_map(|v| ctx.defining_op(v)))
        })
        .collect();
    kinds.retain(|o, k| !k.is_float() || fused.contains(o));
    let ops: Vec<OpId> = ctx.block_ops(block).filter(|o| kinds.contains_key(o)).collect();
    if kinds.values().all(|k| matches!(k, Op::Const(_))) {
        return report;
    }
    let term_ops: FxHashSet<OpId> = ops.iter().copied().collect();
    let pos: FxHashMap<OpId, usize> = ctx.block_ops(block).enumerate().map(|(i, o)| (o, i)).collect();
    let mut analysis = Analysis { types: IntTypes::new(ctx), explain, ..Default::default() };
    for w in [1, 8, 16, 32, 64] {
        let t = ctx.int_type(w);
        analysis.widths.insert(t, w);
    }
    let scope = Scope::at(ctx, block, maxntid, Some(dom));
    let mut eg: Graph = EGraph::new(analysis);
    if explain {
        eg = eg.with_explanations_enabled();
    }
    // Build: values to classes; the original term of each op (for reuse and explanations).
    let mut class_of: FxHashMap<ValueId, Id> = FxHashMap::default();
    let mut leaf_values: Vec<ValueId> = Vec::new();
    let mut orig: FxHashMap<OpId, Term> = FxHashMap::default();
    // The class of operand `v`: its own, a constant, or a new leaf.
    let operand_class =
        |eg: &mut Graph, class_of: &mut FxHashMap<ValueId, Id>, leaf_values: &mut Vec<ValueId>, v: ValueId, ctx: &Context| -> Id {
            if let Some(&id) = class_of.get(&v) {
                return id;
            }
            let ty = ctx.value_type(v);
            let w = int_width(ctx, ty).unwrap_or(0);
            eg.analysis.widths.insert(ty, w);
            let c = ctx.defining_op(v).and_then(|d| cuprite_dialects::nvvm::int_constant(ctx, d)).filter(|_| w > 0);
            let node = match c {
                Some(c) => Term { op: Op::Const(sext_bits(c, w)), ty, args: Default::default() },
                None => {
                    let facts = ir_facts(ctx, v, &scope);
                    eg.analysis.leaves.push(facts);
                    leaf_values.push(v);
                    Term { op: Op::Leaf(leaf_values.len() as u32 - 1), ty, args: Default::default() }
                }
            };
            let id = eg.add(node);
            class_of.insert(v, id);
            id
        };
    // The arithmetic of the blocks that dominate this one, nearest first, up to
    // [`SEED_OPS`] ops: each value's term beside its leaf, so that a term this block's
    // rewrites make and a dominating block already computes is that value, for free.
    let mut seeds: Vec<OpId> = Vec::new();
    let mut up = dom.idom(ctx, block);
    while let Some(b) = up {
        let mut here: Vec<OpId> = ctx.block_ops(b).filter(|&o| matches!(op_of(ctx, o), Some(op) if !matches!(op, Op::Const(_)))).collect();
        here.truncate(SEED_OPS.saturating_sub(seeds.len()));
        seeds.extend(here.into_iter().rev());
        if seeds.len() >= SEED_OPS {
            break;
        }
        up = dom.idom(ctx, b);
    }
    for &o in seeds.iter().rev() {
        let Some(op) = op_of(ctx, o) else { continue };
        let args: smallvec::SmallVec<[Id; 3]> =
            ctx.operand_vec(o).into_iter().map(|v| operand_class(&mut eg, &mut class_of, &mut leaf_values, v, ctx)).collect();
        let r = ctx.result(o, 0);
        let ty = ctx.value_type(r);
        eg.analysis.widths.insert(ty, int_width(ctx, ty).unwrap_or(0));
        let node = Term { op, ty, args };
        let term = eg.add(node.clone());
        sum_constants(&mut eg, &node, term, explain);
        let leaf = operand_class(&mut eg, &mut class_of, &mut leaf_values, r, ctx);
        if explain {
            eg.union_trusted(leaf, term, "dominating-value");
        } else {
            eg.union(leaf, term);
        }
    }
    eg.rebuild();
    for &o in &ops {
        let op = kinds[&o];
        let args: smallvec::SmallVec<[Id; 3]> =
            ctx.operand_vec(o).into_iter().map(|v| operand_class(&mut eg, &mut class_of, &mut leaf_values, v, ctx)).collect();
        let r = ctx.result(o, 0);
        let ty = ctx.value_type(r);
        eg.analysis.widths.insert(ty, int_width(ctx, ty).unwrap_or(0));
        let node = Term { op, ty, args };
        orig.insert(o, node.clone());
        let id = eg.add(node.clone());
        class_of.insert(r, id);
        sum_constants(&mut eg, &node, id, explain);
        let outside = ctx.uses(r).filter(|(user, _)| !term_ops.contains(user)).count() as u32;
        eg.analysis.external.insert(id, outside);
    }
    for v in &leaf_values {
        eg.analysis.external.insert(class_of[v], u32::MAX);
    }
    // Roots: values something outside the block's arithmetic uses.
    let roots: Vec<OpId> = ops
        .iter()
        .copied()
        .filter(|o| !matches!(kinds[o], Op::Const(_)))
        .filter(|&o| ctx.uses(ctx.result(o, 0)).any(|(user, _)| !term_ops.contains(&user)))
        .collect();
    if roots.is_empty() {
        return report;
    }
    let present: FxHashSet<Op> = eg.classes().flat_map(|c| c.nodes.iter().map(|n| n.op.kind())).collect();
    let runner = egg::Runner::<Term, Analysis, ()>::default()
        .with_egraph(eg)
        .with_iter_limit(budget.iterations)
        .with_node_limit(budget.nodes)
        .with_time_limit(budget.time)
        .with_scheduler(scheduler(rules))
        .run(rules.for_kinds(&present));
    report.iterations = runner.iterations.len() as u64;
    report.nodes = runner.egraph.total_number_of_nodes() as u64;
    let mut applied: FxHashMap<String, u64> = FxHashMap::default();
    for it in &runner.iterations {
        for (name, n) in &it.applied {
            *applied.entry(name.to_string()).or_default() += *n as u64;
        }
    }
    let mut applied: Vec<(String, u64)> = applied.into_iter().collect();
    applied.sort();
    report.applied = applied;
    report.stopped = match &runner.stop_reason {
        Some(egg::StopReason::Saturated) | None => None,
        Some(egg::StopReason::IterationLimit(n)) => Some(format!("iteration limit ({n})")),
        Some(egg::StopReason::NodeLimit(n)) => Some(format!("e-node limit ({n})")),
        Some(egg::StopReason::TimeLimit(t)) => Some(format!("time limit ({:.0} ms)", t * 1000.0)),
        Some(egg::StopReason::Other(s)) => Some(s.clone()),
    };
    let mut eg = runner.egraph;
    // No rule applied and no value folded to a constant: the graph is the block as it
    // was, and extraction would choose it back.
    let folded = ops.iter().any(|&o| !matches!(orig[&o].op, Op::Const(_)) && eg[class_of[&ctx.result(o, 0)]].data.konst().is_some());
    if report.applied.is_empty() && !folded {
        return report;
    }

    // The original cost of each op's tree within the block.
    let mut orig_cost: FxHashMap<OpId, f64> = FxHashMap::default();
    for &o in &ops {
        let node = &orig[&o];
        let mut c = super::cost::own_cost(&eg, node) - if node.args.is_empty() { 0.0 } else { super::cost::ORIGINAL_BONUS };
        for v in ctx.operand_vec(o) {
            if let Some(d) = ctx.defining_op(v).filter(|d| term_ops.contains(d)) {
                c += orig_cost.get(&d).copied().unwrap_or(0.0);
            }
        }
        orig_cost.insert(o, c);
    }
    // Choose.
    struct Choice {
        root: OpId,
        class: Id,
        /// The chosen node of every class in the term, children before parents.
        order: Vec<(Id, Term)>,
        best: Option<RecExpr<Term>>,
        cost: f64,
    }
    let mut choices: Vec<Choice> = Vec::new();
    {
        let originals: FxHashSet<Term> =
            orig.values().map(|t| Term { op: t.op, ty: t.ty, args: t.args.iter().map(|&a| eg.find(a)).collect() }).collect();
        let ex = egg::Extractor::new(&eg, SassCost { egraph: &eg, originals: &originals });
        for &root in &roots {
            let class = eg.find(class_of[&ctx.result(root, 0)]);
            let cost = ex.find_best_cost(class);
            if cost + MIN_GAIN > orig_cost[&root] {
                continue;
            }
            // Post-order over the chosen nodes; a cycle (impossible with positive costs,
            // checked anyway) leaves the root alone.
            let mut order: Vec<(Id, Term)> = Vec::new();
            let mut state: FxHashMap<Id, bool> = FxHashMap::default(); // false: open, true: done
            let mut stack: Vec<(Id, bool)> = vec![(class, false)];
            let mut cyclic = false;
            while let Some((c, expanded)) = stack.pop() {
                let c = eg.find(c);
                let node = ex.find_best_node(c).clone();
                if expanded {
                    state.insert(c, true);
                    order.push((c, node));
                    continue;
                }
                match state.get(&c) {
                    Some(true) => continue,
                    Some(false) => {
                        cyclic = true;
                        break;
                    }
                    None => {}
                }
                state.insert(c, false);
                stack.push((c, true));
                for &a in node.args.iter() {
                    let a = eg.find(a);
                    if state.get(&a) != Some(&true) {
                        stack.push((a, false));
                    }
                }
            }
            if cyclic {
                continue;
            }
            let best = explain.then(|| ex.find_best(class).1);
            choices.push(Choice { root, class, order, best, cost });
        }
    }
    // Build.
    let mut built: FxHashMap<Id, ValueId> = FxHashMap::default();
    let mut made: Vec<OpId> = Vec::new();
    // Where each built value was put: the original position of the op it went before.
    let mut placed: FxHashMap<ValueId, usize> = FxHashMap::default();
    let orig_at: FxHashMap<Id, Vec<OpId>> = {
        let mut m: FxHashMap<Id, Vec<OpId>> = FxHashMap::default();
        for &o in &ops {
            m.entry(eg.find(class_of[&ctx.result(o, 0)])).or_default().push(o);
        }
        m
    };
    for ch in choices {
        let root_pos = pos[&ch.root];
        // The value of each class in the term, where one exists before the root.
        let existing = |c: Id, node: &Term, ctx: &Context, built: &FxHashMap<Id, ValueId>| -> Option<ValueId> {
            if let Some(&v) = built.get(&c) {
                return Some(v);
            }
            if let Op::Leaf(i) = node.op {
                let v = leaf_values[i as usize];
                let before = ctx
                    .defining_op(v)
                    .filter(|d| ctx.op_block(*d) == Some(block))
                    .is_none_or(|d| pos.get(&d).is_some_and(|&p| p < root_pos));
                return before.then_some(v);
            }
            // An original op computes the chosen node when its operands are the values
            // chosen for the node's children (built before it: children come first), not
            // merely equal ones, which may be the expensive forms the rewrite replaces.
            orig_at
                .get(&c)?
                .iter()
                .copied()
                .find(|&o| {
                    pos[&o] < root_pos
                        && ctx.value_is_live(ctx.result(o, 0))
                        && orig[&o].op == node.op
                        && ctx.operand_vec(o).iter().zip(node.args.iter()).all(|(v, a)| built.get(&eg.find(*a)) == Some(v))
                })
                .map(|o| ctx.result(o, 0))
        };
        if ch.order.iter().any(|(c, n)| matches!(n.op, Op::Leaf(_)) && !built.contains_key(c) && existing(*c, n, ctx, &built).is_none()) {
            continue;
        }
        let loc = ctx.op_loc(ch.root);
        let mut listener = NoListener;
        let mut rw = Rewriter::new(ctx, &mut listener);
        for (c, node) in &ch.order {
            if existing(*c, node, rw.ctx, &built).is_some() && !built.contains_key(c) {
                let v = existing(*c, node, rw.ctx, &built).unwrap_or_else(|| unreachable!());
                built.insert(*c, v);
                continue;
            }
            if built.contains_key(c) {
                continue;
            }
            let args: Vec<ValueId> = node.args.iter().map(|a| built[&eg.find(*a)]).collect();
            // In place: before the first original op of the class whose new operands are
            // all computed before it (the code keeps its order; a chain of rewritten ops
            // is not gathered at its root), else before the root.
            let ctx_now = &*rw.ctx;
            let at_of = |v: ValueId| -> usize {
                placed.get(&v).copied().unwrap_or_else(|| {
                    ctx_now.defining_op(v).filter(|d| ctx_now.op_block(*d) == Some(block)).and_then(|d| pos.get(&d).copied()).unwrap_or(0)
                })
            };
            let anchor = orig_at
                .get(c)
                .into_iter()
                .flatten()
                .copied()
                .filter(|&o| {
                    pos[&o] <= root_pos && ctx_now.value_is_live(ctx_now.result(o, 0)) && args.iter().all(|&a| at_of(a) <= pos[&o])
                })
                .min_by_key(|o| pos[o])
                .unwrap_or(ch.root);
            rw.set_insertion_point_before(anchor);
            let v = build(&mut rw, node.op, node.ty, &args, loc);
            placed.insert(v, pos[&anchor]);
            made.extend(rw.ctx.defining_op(v));
            built.insert(*c, v);
        }
        let new = built[&eg.find(ch.class)];
        let old = ctx.result(ch.root, 0);
        if new != old && ctx.value_type(new) == ctx.value_type(old) {
            ctx.replace_all_uses_with(old, new);
            report.rewritten += 1;
            if let Some(best) = ch.best {
                // The original term, as the e-graph first saw it.
                let mut expr: RecExpr<Term> = RecExpr::default();
                let original = original_expr(ctx, ch.root, &orig, &class_of, &eg, &term_ops, &mut expr);
                let widths = |t: TypeId| eg.analysis.width(t);
                let from = show(&expr, &widths);
                let to = show(&best, &widths);
                let mut rules_used: Vec<String> = Vec::new();
                if original {
                    let mut e = eg.explain_equivalence(&expr, &best);
                    let flat = e.make_flat_explanation().clone();
                    let mut stack: Vec<&egg::FlatTerm<Term>> = flat.iter().collect();
                    while let Some(t) = stack.pop() {
                        for r in [t.forward_rule, t.backward_rule].into_iter().flatten() {
                            let r = r.to_string();
                            if !rules_used.contains(&r) {
                                rules_used.push(r);
                            }
                        }
                        stack.extend(t.children.iter());
                    }
                    rules_used.sort();
                }
                report.remarks.push((
                    loc,
                    format!("eqsat: {from} => {to} (cost {:.1} -> {:.1}); rules: {}", orig_cost[&ch.root], ch.cost, rules_used.join(", ")),
                ));
            }
        }
    }
    // The block's original arithmetic that nothing uses any more, and what was built for a
    // root that kept its original op.
    for &o in made.iter().rev() {
        if ctx.op_block(o) == Some(block) && !ctx.has_uses(ctx.result(o, 0)) {
            ctx.erase_op(o);
        }
    }
    for &o in ops.iter().rev() {
        if ctx.op_block(o) == Some(block) && !ctx.has_uses(ctx.result(o, 0)) {
            ctx.erase_op(o);
        }
    }
    report
}

/// The original term of `root` as a `RecExpr`, leaves and constants as the e-graph holds
/// them; `false` if an operand has no class (never, for a built graph).
fn original_expr(
    ctx: &Context,
    root: OpId,
    orig: &FxHashMap<OpId, Term>,
    class_of: &FxHashMap<ValueId, Id>,
    eg: &Graph,
    term_ops: &FxHashSet<OpId>,
    expr: &mut RecExpr<Term>,
) -> bool {
    // Post-order over the ops of the tree; operands outside it are their class's
    // leaf or constant node.
    let mut index: FxHashMap<ValueId, Id> = FxHashMap::default();
    let mut stack: Vec<(ValueId, bool)> = vec![(ctx.result(root, 0), false)];
    while let Some((v, expanded)) = stack.pop() {
        if index.contains_key(&v) {
            continue;
        }
        let def = ctx.defining_op(v).filter(|d| term_ops.contains(d) && orig.contains_key(d));
        match def {
            Some(d) if !matches!(orig[&d].op, Op::Const(_)) => {
                if !expanded {
                    stack.push((v, true));
                    for a in ctx.operand_vec(d) {
                        stack.push((a, false));
                    }
                    continue;
                }
                let mut node = orig[&d].clone();
                let operands = ctx.operand_vec(d);
                for (slot, a) in node.args.iter_mut().zip(operands.iter()) {
                    match index.get(a) {
                        Some(&i) => *slot = i,
                        None => return false,
                    }
                }
                index.insert(v, expr.add(node));
            }
            _ => {
                let Some(&c) = class_of.get(&v) else { return false };
                let Some(n) = eg[c].nodes.iter().find(|n| n.args.is_empty()).cloned() else { return false };
                index.insert(v, expr.add(n));
            }
        }
    }
    true
}
