//! `dce`: erases side-effect-free ops whose results are unused, and blocks that cannot be
//! reached from their region's entry (in regions of registered, non-graph ops).
//!
//! Algorithm: (1) erase unreachable blocks, dropping their uses first; (2) walk all ops in
//! reverse preorder (users before producers) erasing trivially dead ones; (3) repeat until a
//! sweep erases nothing (an erasure can kill producers in earlier blocks).

use crate::{
    context::{Context, OpId},
    pass::{Pass, PassState},
    registry::Traits,
    rewrite::is_trivially_dead,
};

/// The dce pass.
pub struct Dce;

/// Runs DCE on everything nested in `root`; returns the number of ops and blocks erased.
pub fn run_dce(ctx: &mut Context, root: OpId) -> u64 {
    let mut erased = 0;
    // 1. Unreachable blocks (shared with the greedy driver's region simplification).
    for op in crate::walk::collect_preorder(ctx, root) {
        if !ctx.op_is_live(op) || !ctx.is_registered(op) || ctx.has_trait(op, Traits::GRAPH_REGION) {
            continue;
        }
        for r in ctx.regions(op).to_vec() {
            erased += crate::rewrite::region_simplify::erase_unreachable_blocks(ctx, r);
        }
    }
    // 2-3. Dead ops.
    loop {
        let mut n = 0;
        let mut ops = crate::walk::collect_preorder(ctx, root);
        ops.remove(0);
        for op in ops.into_iter().rev() {
            if ctx.op_is_live(op) && is_trivially_dead(ctx, op) {
                ctx.erase_op(op);
                n += 1;
            }
        }
        erased += n;
        if n == 0 {
            return erased;
        }
    }
}

impl Pass for Dce {
    fn name(&self) -> &str {
        "dce"
    }
    fn run(&self, ctx: &mut Context, op: OpId, state: &mut PassState<'_>) -> Result<(), crate::pass::PassFailure> {
        if run_dce(ctx, op) == 0 {
            state.preserved = crate::pass::Preserved::All;
        }
        Ok(())
    }
}
