//! Raising C's structured control flow to the standard `scf` dialect.
//!
//! Sema emits every `if` as `cuda.if` and every loop as `cuda.loop` (their regions may end
//! with `cuda.break`, `cuda.continue` or `cuda.return`, or hold them deeper down). Where a
//! construct has no way out but its end, it is exactly an `scf` op, and it becomes one
//! before sema hands its module on:
//!
//! - `cuda.if` -> `scf.if` (results and all), its `cuda.yield`s -> `scf.yield`;
//! - `cuda.loop` (`while`, `for`) -> `scf.while` with no loop-carried values (variables
//!   live in memory): the condition region is `before`, ending in `scf.condition`; the body
//!   followed by the step is `after`, ending in `scf.yield`;
//! - `cuda.loop` with `do_while` -> `scf.while` whose `before` is the body followed by the
//!   condition, and whose `after` is empty.
//!
//! A construct stays in `cuda` when something inside it leaves it other than through its
//! end: a `cuda.return` at any depth, or a `cuda.break`/`cuda.continue` that targets it or
//! an enclosing construct (`levels` counts the loops and switches it crosses; a `continue`
//! without `levels` goes to the innermost loop, crossing switches).
//!
//! Algorithm:
//! 1. For each `cuda.return`, `cuda.break` and `cuda.continue`, walk up its ancestors and
//!    mark each `cuda.if`/`cuda.loop` it leaves as *blocked* (up to the construct it
//!    targets; a return blocks every ancestor).
//! 2. Rewrite each construct that is not blocked and whose regions are single blocks ending
//!    as expected, moving its regions into the new op (the ops inside keep their ids, so
//!    the order of rewriting does not matter). No recursion: the walks are loops.

use cuprite_ir::{Context, InsertPoint, OpId, OperationState};
use rustc_hash::FxHashSet;

/// Raises what can be raised in every function of `module` (see the module docs); returns
/// how many ops became `scf`.
pub fn raise_to_scf(ctx: &mut Context, module: OpId) -> usize {
    let ops = cuprite_ir::walk::collect_preorder(ctx, module);
    let mut blocked: FxHashSet<OpId> = FxHashSet::default();
    let mut candidates = Vec::new();
    for &op in &ops {
        match ctx.op_name_str(op) {
            "cuda.if" | "cuda.loop" => candidates.push(op),
            "cuda.return" => mark_exit(ctx, op, Exit::Return, &mut blocked),
            "cuda.break" => {
                let l = levels(ctx, op);
                mark_exit(ctx, op, Exit::Break(l.unwrap_or(1)), &mut blocked)
            }
            "cuda.continue" => {
                let e = match levels(ctx, op) {
                    Some(l) => Exit::Break(l),
                    None => Exit::ContinueInnermost,
                };
                mark_exit(ctx, op, e, &mut blocked)
            }
            _ => {}
        }
    }
    let mut raised = 0;
    for op in candidates {
        if blocked.contains(&op) {
            continue;
        }
        let done = if ctx.is_op(op, "cuda.if") { raise_if(ctx, op) } else { raise_loop(ctx, op) };
        raised += usize::from(done);
    }
    raised
}

/// How an op leaves the constructs around it.
#[derive(Copy, Clone)]
enum Exit {
    /// Out of the function: every construct around it.
    Return,
    /// To the end (or next iteration) of the `n`-th enclosing loop or switch, counting
    /// from 1: it leaves every construct up to and including that one.
    Break(i64),
    /// `continue` without `levels`: to the innermost enclosing loop.
    ContinueInnermost,
}

fn levels(ctx: &Context, op: OpId) -> Option<i64> {
    use cuprite_dialects::cuda::{BreakOp, ContinueOp};
    let l = if ctx.is_op(op, BreakOp::NAME) { BreakOp(op).levels(ctx) } else { ContinueOp(op).levels(ctx) };
    l.map(|l| l as i64)
}

/// Marks the `cuda.if`/`cuda.loop` ancestors of `op` that `exit` leaves.
fn mark_exit(ctx: &Context, op: OpId, exit: Exit, blocked: &mut FxHashSet<OpId>) {
    let mut crossed = 0i64;
    let mut cur = ctx.parent_op(op);
    while let Some(a) = cur {
        let name = ctx.op_name_str(a);
        if name == "func.func" {
            break;
        }
        let is_loop = name == "cuda.loop";
        let is_target = is_loop || name == "cuda.switch";
        if matches!(name, "cuda.if" | "cuda.loop") {
            blocked.insert(a);
        }
        match exit {
            Exit::Return => {}
            Exit::Break(n) => {
                if is_target {
                    crossed += 1;
                    if crossed >= n {
                        break;
                    }
                }
            }
            Exit::ContinueInnermost => {
                if is_loop {
                    break;
                }
            }
        }
        cur = ctx.parent_op(a);
    }
}

/// The single block of region `i` of `op` and its terminator, if it has that shape and the
/// terminator is `term`.
fn single_block(ctx: &Context, op: OpId, i: usize, term: &str) -> Option<cuprite_ir::BlockId> {
    let r = ctx.region(op, i);
    let blocks = ctx.region_blocks(r);
    if blocks.len() != 1 {
        return None;
    }
    let b = blocks[0];
    let t = ctx.terminator(b)?;
    ctx.is_op(t, term).then_some(b)
}

/// Replaces terminator `t` by an op `name` on the same operands.
fn retarget_terminator(ctx: &mut Context, t: OpId, name: &str) {
    let loc = ctx.op_loc(t);
    let mut st = OperationState::new(ctx, name, loc);
    st.operands = ctx.operand_vec(t);
    let block = ctx.op_block(t).expect("a terminator in a block");
    let new = ctx.create_op(st);
    ctx.insert_op(new, InsertPoint { block, before: Some(t) });
    ctx.erase_op(t);
}

/// Creates `name` before `op` with `op`'s operands, result types, location and the given
/// number of empty regions; moves `op`'s results to it and erases `op` once its regions
/// are moved (by the caller, through the returned op).
fn replacement(ctx: &mut Context, op: OpId, name: &str, regions: usize) -> OpId {
    let loc = ctx.op_loc(op);
    let mut st = OperationState::new(ctx, name, loc);
    st.operands = ctx.operand_vec(op);
    st.result_types = ctx.results(op).iter().map(|&r| ctx.value_type(r)).collect();
    for _ in 0..regions {
        st.regions.push(ctx.create_region());
    }
    let block = ctx.op_block(op).expect("a structured op in a block");
    let new = ctx.create_op(st);
    ctx.insert_op(new, InsertPoint { block, before: Some(op) });
    let (old_rs, new_rs) = (ctx.results(op).to_vec(), ctx.results(new).to_vec());
    for (o, n) in old_rs.into_iter().zip(new_rs) {
        ctx.replace_all_uses_with(o, n);
    }
    new
}

fn raise_if(ctx: &mut Context, op: OpId) -> bool {
    let (Some(tb), Some(eb)) = (single_block(ctx, op, 0, "cuda.yield"), single_block(ctx, op, 1, "cuda.yield")) else {
        return false;
    };
    for b in [tb, eb] {
        let t = ctx.terminator(b).expect("checked");
        retarget_terminator(ctx, t, "scf.yield");
    }
    let new = replacement(ctx, op, "scf.if", 2);
    for i in 0..2 {
        let (src, dst) = (ctx.region(op, i), ctx.region(new, i));
        ctx.inline_region_before(src, dst, 0);
    }
    ctx.erase_op(op);
    true
}

fn raise_loop(ctx: &mut Context, op: OpId) -> bool {
    let (Some(cb), Some(bb), Some(sb)) =
        (single_block(ctx, op, 0, "cuda.condition"), single_block(ctx, op, 1, "cuda.yield"), single_block(ctx, op, 2, "cuda.yield"))
    else {
        return false;
    };
    if ctx.num_operands(ctx.terminator(cb).expect("checked")) != 1 || !ctx.results(op).is_empty() {
        return false;
    }
    let do_while = cuprite_dialects::cuda::LoopOp(op).do_while(ctx);
    // Region 0 of the new op runs first: the condition (while/for) or the body (do-while).
    // Glue: the body's yield goes, and the step's ops follow the body (for), or the
    // condition's ops follow the body and the step's (do-while: its step is empty).
    let body_yield = ctx.terminator(bb).expect("checked");
    ctx.erase_op(body_yield);
    let step_ops: Vec<OpId> = ctx.block_ops(sb).collect();
    let (step_yield, step_body) = step_ops.split_last().expect("a yield");
    for &o in step_body {
        ctx.move_op(o, InsertPoint::end(bb));
    }
    let new = replacement(ctx, op, "scf.while", 2);
    if let Some(n) = cuprite_dialects::cuda::LoopOp(op).unroll(ctx) {
        cuprite_dialects::hints::set_unroll(ctx, new, n as i64);
    }
    let cond_term = ctx.terminator(cb).expect("checked");
    if do_while {
        // before: body; condition. after: an empty block yielding.
        let cond_ops: Vec<OpId> = ctx.block_ops(cb).collect();
        for o in cond_ops {
            ctx.move_op(o, InsertPoint::end(bb));
        }
        retarget_terminator(ctx, cond_term, "scf.condition");
        let (src, dst) = (ctx.region(op, 1), ctx.region(new, 0));
        ctx.inline_region_before(src, dst, 0);
        let (src, dst) = (ctx.region(op, 2), ctx.region(new, 1));
        ctx.inline_region_before(src, dst, 0);
        retarget_terminator(ctx, *step_yield, "scf.yield");
    } else {
        // before: condition. after: body; step.
        retarget_terminator(ctx, cond_term, "scf.condition");
        ctx.move_op(*step_yield, InsertPoint::end(bb));
        retarget_terminator(ctx, *step_yield, "scf.yield");
        let (src, dst) = (ctx.region(op, 0), ctx.region(new, 0));
        ctx.inline_region_before(src, dst, 0);
        let (src, dst) = (ctx.region(op, 1), ctx.region(new, 1));
        ctx.inline_region_before(src, dst, 0);
    }
    ctx.erase_op(op);
    true
}
