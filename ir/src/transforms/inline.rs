//! `inline`: replaces calls by the body of their callee, through the call interface
//! (`OpInfo::callee`) and the callable interface (`OpInfo::callable_region`).
//!
//! Algorithm:
//! 1. Index symbol-defining ops by `sym_name` under the root.
//! 2. For each call whose callee has a single-block body ending in a return-like op, and
//!    which is not the function containing the call (no recursion), clone the body's ops
//!    before the call, mapping the block arguments to the call operands, replace the call's
//!    results with the cloned return's operands, and erase the call and cloned return.
//! 3. Repeat for calls created by inlining, at most `max-rounds` times
//!    ([`MAX_INLINE_ROUNDS`]).
//!
//! Multi-block callees are left alone (inlining them needs a dialect hook to turn the
//! return into a branch; none is registered yet).

use crate::{
    attrs::AttrKind,
    clone::{clone_op, CloneMap},
    context::{Context, InsertPoint, OpId},
    pass::{Pass, PassState},
    registry::Traits,
    symbol::Symbol,
};
use rustc_hash::FxHashMap;

/// Rounds of inlining: each round inlines the calls present at its start, so chains of
/// calls N deep need N rounds; the bound stops recursive cycles through several functions.
pub const MAX_INLINE_ROUNDS: u32 = 4;

/// The inline pass.
pub struct Inline {
    pub max_rounds: u32,
}

/// Builds the pass from `max-rounds=N`.
pub fn create(opts: &[(String, String)]) -> Result<Box<dyn Pass>, String> {
    let mut max_rounds = MAX_INLINE_ROUNDS;
    for (k, v) in opts {
        match k.as_str() {
            "max-rounds" => max_rounds = super::uint_option("inline", k, v)? as u32,
            _ => return Err(format!("pass 'inline' has no option '{k}' (options: max-rounds)")),
        }
    }
    Ok(Box::new(Inline { max_rounds }))
}

/// Inlines calls under `root`; returns (calls inlined, whether the round budget was hit).
pub fn run_inline(ctx: &mut Context, root: OpId, max_rounds: u32) -> (u64, bool) {
    let mut total = 0;
    for _ in 0..max_rounds {
        let ops = crate::walk::collect_preorder(ctx, root);
        let mut symbols: FxHashMap<Symbol, OpId> = FxHashMap::default();
        for &o in &ops {
            if ctx.has_trait(o, Traits::SYMBOL) {
                if let Some(AttrKind::String(s)) = ctx.get_attr(o, "sym_name").map(|a| ctx.attr_kind(a)) {
                    if let Some(sym) = ctx.lookup_sym(s) {
                        symbols.insert(sym, o);
                    }
                }
            }
        }
        let mut n = 0;
        for call in ops {
            if !ctx.op_is_live(call) {
                continue;
            }
            let Some(callee_fn) = ctx.op_info(call).and_then(|i| i.callee) else { continue };
            let Some(sym) = callee_fn(ctx, call) else { continue };
            let Some(&callee) = symbols.get(&sym) else { continue };
            if !ctx.op_is_live(callee) || ctx.is_ancestor(callee, call) {
                continue;
            }
            let Some(region) = ctx.op_info(callee).and_then(|i| i.callable_region).and_then(|f| f(ctx, callee)) else { continue };
            let blocks = ctx.region_blocks(region);
            if blocks.len() != 1 {
                continue;
            }
            let body = blocks[0];
            let Some(ret) = ctx.last_op(body) else { continue };
            if !ctx.has_trait(ret, Traits::RETURN_LIKE)
                || ctx.num_operands(ret) != ctx.num_results(call)
                || ctx.block_args(body).len() != ctx.num_operands(call)
            {
                continue;
            }
            let mut map = CloneMap::default();
            for (&a, v) in ctx.block_args(body).to_vec().iter().zip(ctx.operand_vec(call)) {
                map.values.insert(a, v);
            }
            let block = ctx.op_block(call).expect("call in block");
            for o in ctx.block_ops(body).collect::<Vec<_>>() {
                if o == ret {
                    break;
                }
                let c = clone_op(ctx, o, &mut map);
                ctx.insert_op(c, InsertPoint { block, before: Some(call) });
            }
            let rets: Vec<_> = ctx.operands(ret).map(|v| map.values.get(&v).copied().unwrap_or(v)).collect();
            for (i, v) in rets.into_iter().enumerate() {
                let r = ctx.result(call, i);
                ctx.replace_all_uses_with(r, v);
            }
            ctx.erase_op(call);
            n += 1;
        }
        total += n;
        if n == 0 {
            return (total, false);
        }
    }
    (total, true)
}

impl Pass for Inline {
    fn name(&self) -> &str {
        "inline"
    }
    fn run(&self, ctx: &mut Context, op: OpId, state: &mut PassState<'_>) -> Result<(), crate::pass::PassFailure> {
        let (n, hit) = run_inline(ctx, op, self.max_rounds);
        if hit {
            super::budget_remark(state, "inline", format!("stopped after {} rounds (max-rounds); calls may remain", self.max_rounds));
        }
        if n == 0 {
            state.preserved = crate::pass::Preserved::All;
        }
        Ok(())
    }
}
