//! Rewriting: the [`Rewriter`] (every IR mutation a pattern makes goes through it, and it
//! tells a [`Listener`]), rewrite patterns with benefits, and the three drivers that apply
//! the same patterns: [`greedy`] (worklist with folding and dead-op removal), [`walk`] (one
//! pass) and [`conversion`] (one-shot dialect conversion).

pub mod conversion;
pub mod greedy;
pub mod region_simplify;
pub mod walk;

use crate::{
    context::{BlockId, Context, InsertPoint, OpId, OperationState, RegionId, ValueId},
    symbol::Symbol,
};
use rustc_hash::FxHashMap;

/// Told about every change a [`Rewriter`] makes.
pub trait Listener {
    /// `op` was created and inserted.
    fn op_inserted(&mut self, _ctx: &Context, _op: OpId) {}
    /// `op` (and everything nested in it) is about to be erased.
    fn op_erased(&mut self, _ctx: &Context, _op: OpId) {}
    /// The results of `op` are about to be replaced by `with`.
    fn op_replaced(&mut self, _ctx: &Context, _op: OpId, _with: &[ValueId]) {}
    /// `op` was changed in place (operands, attributes, successors).
    fn op_modified(&mut self, _ctx: &Context, _op: OpId) {}
}

/// A listener that ignores everything.
pub struct NoListener;
impl Listener for NoListener {}

/// Mutates the IR on behalf of patterns and drivers, reporting each change.
pub struct Rewriter<'a> {
    /// The IR. Reading and interning are fine directly; structural changes should go
    /// through the rewriter's methods so the listener sees them.
    pub ctx: &'a mut Context,
    ip: Option<InsertPoint>,
    listener: &'a mut dyn Listener,
}

impl<'a> Rewriter<'a> {
    /// A rewriter reporting to `listener`.
    pub fn new(ctx: &'a mut Context, listener: &'a mut dyn Listener) -> Self {
        Self { ctx, ip: None, listener }
    }

    /// Sets the insertion point to just before `op`.
    pub fn set_insertion_point_before(&mut self, op: OpId) {
        let block = self.ctx.op_block(op).expect("insertion point op must be in a block");
        self.ip = Some(InsertPoint { block, before: Some(op) });
    }
    /// Sets the insertion point to just after `op`.
    pub fn set_insertion_point_after(&mut self, op: OpId) {
        let block = self.ctx.op_block(op).expect("insertion point op must be in a block");
        self.ip = Some(InsertPoint { block, before: self.ctx.next_op(op) });
    }
    /// Sets the insertion point to the end of `block`.
    pub fn set_insertion_point_to_end(&mut self, block: BlockId) {
        self.ip = Some(InsertPoint::end(block));
    }
    /// Sets the insertion point to the start of `block`.
    pub fn set_insertion_point_to_start(&mut self, block: BlockId) {
        self.ip = Some(InsertPoint { block, before: self.ctx.first_op(block) });
    }
    /// The current insertion point.
    pub fn insertion_point(&self) -> Option<InsertPoint> {
        self.ip
    }

    /// Creates an op at the insertion point.
    pub fn create(&mut self, st: OperationState) -> OpId {
        let op = self.ctx.create_op(st);
        let ip = self.ip.expect("Rewriter::create without an insertion point");
        self.ctx.insert_op(op, ip);
        self.listener.op_inserted(self.ctx, op);
        op
    }

    /// Creates a one-result op `name(operands) -> ty` with properties, at the insertion point.
    pub fn create_simple(
        &mut self,
        name: &str,
        operands: &[ValueId],
        result_types: &[crate::types::TypeId],
        props: Vec<crate::attrs::NamedAttr>,
        loc: crate::location::LocId,
    ) -> OpId {
        let mut st = OperationState::new(self.ctx, name, loc);
        st.operands = operands.to_vec();
        st.result_types = result_types.to_vec();
        st.props = props;
        self.create(st)
    }

    /// Inserts a detached op at the insertion point.
    pub fn insert(&mut self, op: OpId) {
        let ip = self.ip.expect("Rewriter::insert without an insertion point");
        self.ctx.insert_op(op, ip);
        self.listener.op_inserted(self.ctx, op);
    }

    /// Erases `op` (its results must be unused).
    pub fn erase_op(&mut self, op: OpId) {
        self.listener.op_erased(self.ctx, op);
        self.ctx.erase_op(op);
    }

    /// Replaces the uses of `op`'s results with `values`, then erases `op`.
    pub fn replace_op(&mut self, op: OpId, values: &[ValueId]) {
        assert_eq!(self.ctx.num_results(op), values.len(), "replace_op: result count mismatch on '{}'", self.ctx.op_name_str(op));
        self.listener.op_replaced(self.ctx, op, values);
        let results = self.ctx.results(op).to_vec();
        for (r, &v) in results.into_iter().zip(values) {
            self.replace_all_uses_with(r, v);
        }
        self.erase_op(op);
    }

    /// Creates `st` before `op` and replaces `op` with its results.
    pub fn replace_op_with_new(&mut self, op: OpId, st: OperationState) -> OpId {
        self.set_insertion_point_before(op);
        let new = self.create(st);
        let vals = self.ctx.results(new).to_vec();
        self.replace_op(op, &vals);
        new
    }

    /// Replaces every use of `from` with `to`, reporting each user as modified.
    pub fn replace_all_uses_with(&mut self, from: ValueId, to: ValueId) {
        // Listeners hear about the users first (they only record which ops changed).
        for (u, _) in self.ctx.uses(from) {
            self.listener.op_modified(self.ctx, u);
        }
        self.ctx.replace_all_uses_with(from, to);
    }

    /// Changes `op` in place through `f`, reporting it as modified.
    pub fn modify_op_in_place<R>(&mut self, op: OpId, f: impl FnOnce(&mut Context) -> R) -> R {
        let r = f(self.ctx);
        self.listener.op_modified(self.ctx, op);
        r
    }

    /// Moves `op` before `before`.
    pub fn move_op_before(&mut self, op: OpId, before: OpId) {
        let block = self.ctx.op_block(before).expect("move target must be in a block");
        self.ctx.move_op(op, InsertPoint { block, before: Some(before) });
        self.listener.op_modified(self.ctx, op);
    }

    /// Moves `op` after `after`.
    pub fn move_op_after(&mut self, op: OpId, after: OpId) {
        let block = self.ctx.op_block(after).expect("move target must be in a block");
        let before = self.ctx.next_op(after);
        if before == Some(op) {
            return;
        }
        self.ctx.move_op(op, InsertPoint { block, before });
        self.listener.op_modified(self.ctx, op);
    }

    /// Moves the blocks of `src` into `dest` at position `index`.
    pub fn inline_region_before(&mut self, src: RegionId, dest: RegionId, index: usize) {
        self.ctx.inline_region_before(src, dest, index);
        if let Some(p) = self.ctx.region_parent(dest) {
            self.listener.op_modified(self.ctx, p);
        }
    }

    /// Splits `block` before `at`; returns the new block holding `at` and what follows.
    pub fn split_block(&mut self, block: BlockId, at: OpId) -> BlockId {
        self.ctx.split_block(block, at)
    }

    /// Moves the ops of `src` before `before` (or to the end of its block), mapping `src`'s
    /// arguments to `args`; erases `src`.
    pub fn inline_block_before(&mut self, src: BlockId, ip: InsertPoint, args: &[ValueId]) {
        let ops: Vec<OpId> = self.ctx.block_ops(src).collect();
        let arg_users: Vec<OpId> =
            self.ctx.block_args(src).iter().flat_map(|&a| self.ctx.uses(a).map(|(o, _)| o).collect::<Vec<_>>()).collect();
        self.ctx.merge_block_into(src, ip, args);
        for o in arg_users.into_iter().chain(ops) {
            self.listener.op_modified(self.ctx, o);
        }
    }
}

/// A rewrite pattern: matches an op (of one name, or any) and rewrites it.
pub trait RewritePattern: Send + Sync {
    /// A name for statistics and debugging (`arith.addi-zero`).
    fn name(&self) -> &str;
    /// The op name this pattern matches, or `None` for any op.
    fn root(&self) -> Option<&str>;
    /// Patterns with a higher benefit are tried first.
    fn benefit(&self) -> u16 {
        1
    }
    /// Rewrites `op` and returns `true`, or returns `false` having changed nothing.
    fn match_and_rewrite(&self, op: OpId, rw: &mut Rewriter<'_>) -> bool;
}

/// A pattern from a plain function.
pub struct FnPattern {
    pub name: &'static str,
    pub root: Option<&'static str>,
    pub benefit: u16,
    pub f: fn(OpId, &mut Rewriter<'_>) -> bool,
}

impl RewritePattern for FnPattern {
    fn name(&self) -> &str {
        self.name
    }
    fn root(&self) -> Option<&str> {
        self.root
    }
    fn benefit(&self) -> u16 {
        self.benefit
    }
    fn match_and_rewrite(&self, op: OpId, rw: &mut Rewriter<'_>) -> bool {
        (self.f)(op, rw)
    }
}

/// A set of patterns.
#[derive(Default)]
pub struct PatternSet {
    patterns: Vec<Box<dyn RewritePattern>>,
}

impl PatternSet {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }
    /// Adds a pattern.
    pub fn add(&mut self, p: impl RewritePattern + 'static) {
        self.patterns.push(Box::new(p));
    }
    /// Adds a pattern from a function.
    pub fn add_fn(&mut self, name: &'static str, root: &'static str, benefit: u16, f: fn(OpId, &mut Rewriter<'_>) -> bool) {
        self.add(FnPattern { name, root: Some(root), benefit, f });
    }
    /// The patterns.
    pub fn patterns(&self) -> &[Box<dyn RewritePattern>] {
        &self.patterns
    }
    /// Number of patterns.
    pub fn len(&self) -> usize {
        self.patterns.len()
    }
    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }
    /// Every canonicalization pattern of every registered op.
    pub fn canonicalization(registry: &crate::registry::Registry) -> Self {
        let mut set = Self::new();
        for info in registry.ops() {
            if let Some(f) = info.canonicalize {
                f(&mut set);
            }
        }
        set
    }
}

/// How often one pattern was tried and applied by a driver.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PatternStat {
    pub name: String,
    pub tried: u64,
    pub applied: u64,
}

/// Patterns indexed by root op name, in benefit order, with per-pattern statistics.
pub(crate) struct PatternIndex<'p> {
    set: &'p PatternSet,
    by_name: FxHashMap<Symbol, Vec<usize>>,
    any: Vec<usize>,
    pub stats: Vec<PatternStat>,
}

impl<'p> PatternIndex<'p> {
    pub fn new(set: &'p PatternSet) -> Self {
        let mut any: Vec<usize> = (0..set.patterns.len()).filter(|&i| set.patterns[i].root().is_none()).collect();
        any.sort_by_key(|&i| std::cmp::Reverse(set.patterns[i].benefit()));
        let stats = set.patterns.iter().map(|p| PatternStat { name: p.name().to_string(), ..Default::default() }).collect();
        Self { set, by_name: FxHashMap::default(), any, stats }
    }

    /// Pattern indices applicable to ops named `name`, best first.
    pub fn for_op(&mut self, ctx: &Context, name: Symbol) -> &[usize] {
        let set = self.set;
        let any = &self.any;
        self.by_name.entry(name).or_insert_with(|| {
            let s = ctx.str(name);
            let mut v: Vec<usize> =
                (0..set.patterns.len()).filter(|&i| set.patterns[i].root() == Some(s)).chain(any.iter().copied()).collect();
            v.sort_by_key(|&i| std::cmp::Reverse(set.patterns[i].benefit()));
            v
        })
    }

    /// Tries the patterns for `op` in order; returns the index of the one that applied.
    pub fn apply(&mut self, op: OpId, rw: &mut Rewriter<'_>) -> Option<usize> {
        let name = rw.ctx.op_name(op);
        let n = self.for_op(rw.ctx, name).len();
        for k in 0..n {
            let i = self.by_name[&name][k];
            self.stats[i].tried += 1;
            if self.set.patterns[i].match_and_rewrite(op, rw) {
                self.stats[i].applied += 1;
                return Some(i);
            }
        }
        None
    }

    pub fn into_stats(self) -> Vec<PatternStat> {
        self.stats.into_iter().filter(|s| s.tried > 0).collect()
    }
}

/// Whether `op` can be erased when its results are unused: no memory effects (the `PURE`
/// trait, or an effects interface reporting none, including nested ops for ops with
/// recursive effects), not a terminator, not a symbol.
pub fn is_trivially_dead(ctx: &Context, op: OpId) -> bool {
    if ctx.results(op).iter().any(|&r| ctx.has_uses(r)) {
        return false;
    }
    would_be_trivially_dead(ctx, op)
}

/// [`is_trivially_dead`] without the use check. As in MLIR, an op that only reads memory
/// (a non-volatile load) is dead when unused too: nothing observes a read.
pub fn would_be_trivially_dead(ctx: &Context, op: OpId) -> bool {
    use crate::registry::Traits;
    let t = ctx.traits(op);
    if t.contains(Traits::TERMINATOR) || t.contains(Traits::SYMBOL) || ctx.op_block(op).is_none() {
        return false;
    }
    if is_memory_effect_free(ctx, op) {
        return true;
    }
    // Only reads (no regions to look into: the ops with an effects interface).
    let Some(f) = ctx.op_info(op).and_then(|i| i.memory_effects) else { return false };
    if ctx.op_has_regions(op) {
        return false;
    }
    let mut effects = Vec::new();
    f(ctx, op, &mut effects);
    effects.iter().all(|e| e.kind == crate::registry::EffectKind::Read)
}

/// Whether `op` (and, for ops with recursive effects, everything nested) has no memory effects.
pub fn is_memory_effect_free(ctx: &Context, op: OpId) -> bool {
    use crate::registry::Traits;
    // Fast path: a pure op without regions (the common case) needs no walk.
    if let Some(info) = ctx.op_info(op) {
        if info.traits.contains(Traits::PURE) && !info.traits.contains(Traits::RECURSIVE_MEMORY_EFFECTS) {
            return true;
        }
    }
    let mut stack = vec![op];
    let mut effects = Vec::new();
    while let Some(o) = stack.pop() {
        let Some(info) = ctx.op_info(o) else { return false };
        if info.traits.contains(Traits::PURE) && !info.traits.contains(Traits::RECURSIVE_MEMORY_EFFECTS) {
            continue;
        }
        if let Some(f) = info.memory_effects {
            effects.clear();
            f(ctx, o, &mut effects);
            if !effects.is_empty() {
                return false;
            }
        } else if !info.traits.contains(Traits::PURE) && !info.traits.contains(Traits::RECURSIVE_MEMORY_EFFECTS) {
            return false;
        }
        if info.traits.contains(Traits::RECURSIVE_MEMORY_EFFECTS) {
            for &r in ctx.regions(o) {
                for &b in ctx.region_blocks(r) {
                    stack.extend(ctx.block_ops(b));
                }
            }
        }
    }
    true
}

/// The constant attribute produced by `v`, if its defining op is constant-like.
pub fn constant_value(ctx: &Context, v: ValueId) -> Option<crate::attrs::AttrId> {
    let op = ctx.defining_op(v)?;
    if ctx.has_trait(op, crate::registry::Traits::CONSTANT_LIKE) {
        ctx.get_attr_sym(op, ctx.value_sym())
    } else {
        None
    }
}
