//! `cse`: common subexpression elimination over the dominator tree.
//!
//! Algorithm:
//! 1. Visit blocks in dominator-tree preorder (each region's entry first), keeping a scoped
//!    table of the side-effect-free, region-free ops seen on the path from the root.
//! 2. An op equal to one in the table (same name, operands (the first two in either order
//!    for commutative ops), result types, attributes and properties, and same enclosing
//!    isolated-from-above op) has its results replaced by the earlier op's and is erased.
//! 3. An op with regions suspends its block: its regions are visited with the table as it
//!    is at that point (values before the op dominate the regions), then the block resumes.
//! 4. Leaving a block's dominator subtree undoes its table entries.
//!
//! The walk uses an explicit stack: nesting depth does not grow the Rust stack.

use crate::{
    attrs::AttrId,
    context::{BlockId, Context, OpId, RegionId, ValueId},
    dominance::dom_children,
    pass::{Pass, PassState},
    registry::Traits,
    rewrite::is_memory_effect_free,
    symbol::Symbol,
    types::TypeId,
};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

/// The cse pass.
pub struct Cse;

#[derive(PartialEq, Eq, Hash, Clone)]
struct Key {
    scope: OpId,
    name: Symbol,
    operands: SmallVec<[ValueId; 4]>,
    results: SmallVec<[TypeId; 2]>,
    /// Interned dictionaries: equal lists are equal ids.
    attrs: AttrId,
    props: AttrId,
}

enum Task {
    /// Start a block: remember the table size, then walk it, then its dominator children.
    Enter(BlockId, OpId),
    /// Enter the dominator-tree children of a block.
    DomChildren(BlockId, OpId),
    /// Continue a block at this op.
    Resume(BlockId, Option<OpId>, OpId),
    /// Undo table entries back to this length.
    Exit(usize),
}

/// Runs CSE on everything nested in `root`; returns the number of ops erased.
pub fn run_cse(ctx: &mut Context, root: OpId) -> u64 {
    let mut table: FxHashMap<Key, OpId> = FxHashMap::default();
    let mut undo: Vec<Key> = Vec::new();
    let mut erased = 0u64;
    let mut stack: Vec<Task> = Vec::new();
    let mut trees: FxHashMap<RegionId, FxHashMap<BlockId, Vec<BlockId>>> = FxHashMap::default();
    let root_scope = root;
    push_regions(ctx, root, root_scope, &mut stack);
    while let Some(t) = stack.pop() {
        match t {
            Task::Exit(n) => {
                while undo.len() > n {
                    let k = undo.pop().expect("undo");
                    table.remove(&k);
                }
            }
            Task::Enter(b, scope) => {
                stack.push(Task::Exit(undo.len()));
                stack.push(Task::DomChildren(b, scope));
                stack.push(Task::Resume(b, ctx.first_op(b), scope));
            }
            Task::DomChildren(b, scope) => {
                let Some(r) = ctx.block_region(b) else { continue };
                if ctx.region_blocks(r).len() < 2 {
                    continue;
                }
                let tree = trees.entry(r).or_insert_with(|| dom_children(ctx, r));
                if let Some(cs) = tree.get(&b) {
                    for &c in cs.iter().rev() {
                        stack.push(Task::Enter(c, scope));
                    }
                }
            }
            Task::Resume(b, mut cur, scope) => {
                while let Some(op) = cur {
                    cur = ctx.next_op(op);
                    if !ctx.regions(op).is_empty() {
                        stack.push(Task::Resume(b, cur, scope));
                        let inner = if ctx.has_trait(op, Traits::ISOLATED_FROM_ABOVE) { op } else { scope };
                        push_regions(ctx, op, inner, &mut stack);
                        break;
                    }
                    if ctx.has_trait(op, Traits::TERMINATOR) || !is_memory_effect_free(ctx, op) || ctx.num_results(op) == 0 {
                        continue;
                    }
                    let (props, attrs) = ctx.attr_dicts(op);
                    let key = Key {
                        scope,
                        name: ctx.op_name(op),
                        operands: {
                            let mut o: SmallVec<[ValueId; 4]> = ctx.operands(op).collect();
                            // Commutative ops are equal whatever the order of their first two
                            // operands (as MLIR's OperationEquivalence).
                            if o.len() >= 2 && ctx.has_trait(op, Traits::COMMUTATIVE) && o[1] < o[0] {
                                o.swap(0, 1);
                            }
                            o
                        },
                        results: ctx.results(op).iter().map(|&r| ctx.value_type(r)).collect(),
                        attrs,
                        props,
                    };
                    match table.get(&key) {
                        Some(&existing) => {
                            for i in 0..ctx.num_results(op) {
                                let (from, to) = (ctx.result(op, i), ctx.result(existing, i));
                                ctx.replace_all_uses_with(from, to);
                            }
                            ctx.erase_op(op);
                            erased += 1;
                        }
                        None => {
                            // Keys are moved into the table; the undo log needs its own copy.
                            undo.push(key.clone());
                            table.insert(key, op);
                        }
                    }
                }
            }
        }
    }
    erased
}

fn push_regions(ctx: &Context, op: OpId, scope: OpId, stack: &mut Vec<Task>) {
    for &r in ctx.regions(op).iter().rev() {
        if let Some(entry) = ctx.entry_block(r) {
            stack.push(Task::Enter(entry, scope));
        }
    }
}

impl Pass for Cse {
    fn name(&self) -> &str {
        "cse"
    }
    fn run(&self, ctx: &mut Context, op: OpId, state: &mut PassState<'_>) -> Result<(), crate::pass::PassFailure> {
        let n = run_cse(ctx, op);
        st_stat(state, "ops erased", n);
        if n == 0 {
            state.preserved = crate::pass::Preserved::All;
        }
        Ok(())
    }
}

fn st_stat(state: &mut PassState<'_>, k: &str, v: u64) {
    state.statistics.push((k.to_string(), v));
}
