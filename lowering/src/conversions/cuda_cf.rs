//! `lower-cuda-control-flow`: C's control flow that `scf` cannot state (`cuda.if`,
//! `cuda.loop` and `cuda.switch`, whose regions may be left through `cuda.break`,
//! `cuda.continue` or `cuda.return`) to blocks and `cf` branches inside the function, as
//! named patterns. Afterwards a `func.func` is a CFG whose only terminators are `cf`
//! branches, `func.return` (the `cuda.return`s the constructs held become `func.return`)
//! and `ub.unreachable`.
//!
//! The patterns run children first (the core's walk driver, post-order), so when a
//! construct is lowered everything inside it is already blocks, and every `cuda.break` or
//! `cuda.continue` in its regions' blocks is one it can resolve:
//!
//! - `cuda.if`: as `scf.if` (see [`super::scf_to_cf`]): `cuda.yield` -> `cf.br` to the
//!   continuation, whose arguments are the results.
//! - `cuda.loop`: the cond, body and step blocks move before the continuation (the exit);
//!   `cuda.condition` -> `cf.cond_br body, exit`, the body's `cuda.yield` -> `cf.br step`,
//!   the step's -> `cf.br cond` (the back edge, with the `unroll` hint); entered at cond, or
//!   at the body with `do_while`.
//! - `cuda.switch`: a chain of `arith.cmpi eq` tests into the case regions, the default's
//!   (or the exit) last; a case's `cuda.yield` falls through to the next case.
//!
//! A `cuda.break` (to the loop or switch) or `cuda.continue` (loops only; one without
//! `levels` crosses switches) that targets the construct becomes a branch to its exit or
//! step; one with `levels = N > 1` targets a construct further out and keeps going with
//! `levels = N - 1`. The layout is the one the translator gave the structured ops, so the
//! PTX does not change.

use super::{branch, cond_br, continuation, inline_before, PatternInfo};
use crate::build::{i32_attr, state};
use cuprite_dialects::cuda::{BreakOp, ContinueOp, LoopOp, SwitchOp};
use cuprite_ir::{
    pass::{Pass, PassFailure, PassState},
    rewrite::{walk::apply_patterns_walk, PatternSet, Rewriter},
    AttrId, AttrKind, BlockId, Context, Diagnostic, InsertPoint, OpId, RegionId,
};

/// The pass name.
pub const NAME: &str = "lower-cuda-control-flow";

/// (name, root, summary, rewrite).
type Entry = (&'static str, &'static str, &'static str, fn(OpId, &mut Rewriter<'_>) -> bool);

static RULES: &[Entry] = &[
    ("cuda-if-to-cf", "cuda.if", "then/else blocks inlined, a conditional branch into them, yields branch to the continuation", lower_if),
    (
        "cuda-loop-to-cf",
        "cuda.loop",
        "cond/body/step blocks inlined; condition, yields, and the breaks and continues that target the loop as branches",
        lower_loop,
    ),
    (
        "cuda-switch-to-cf",
        "cuda.switch",
        "a chain of equality tests into the case blocks, which fall through; breaks that target it branch to the exit",
        lower_switch,
    ),
];

/// What `--list-patterns` prints for this pass.
pub fn pattern_infos() -> Vec<PatternInfo> {
    RULES.iter().map(|&(name, root, summary, _)| PatternInfo { pass: NAME, name, root, benefit: 1, summary, optional: false }).collect()
}

/// The patterns, less the disabled ones.
pub fn patterns(disabled: &[String]) -> PatternSet {
    let mut set = PatternSet::new();
    for &(name, root, _, f) in RULES {
        if !disabled.iter().any(|d| d == name) {
            set.add_fn(name, root, 1, f);
        }
    }
    set
}

/// The ops that must be gone afterwards.
const LOWERED: &[&str] = &["cuda.if", "cuda.loop", "cuda.switch", "cuda.break", "cuda.continue", "cuda.yield", "cuda.condition"];

/// Runs the patterns on everything nested in `root`; the ops left that should be gone
/// are returned (the disabled patterns' constructs, or a break no construct takes).
pub fn lower_cuda_control_flow(ctx: &mut Context, root: OpId, disabled: &[String]) -> (cuprite_ir::rewrite::walk::WalkResult, Vec<OpId>) {
    let set = patterns(disabled);
    let r = apply_patterns_walk(ctx, root, &set, None);
    // The constructs' `cuda.return`s now in a function's own blocks are `func.return`s.
    cuprite_dialects::cuda::returns_to_func_return(ctx, root);
    let left = cuprite_ir::walk::collect_preorder(ctx, root).into_iter().filter(|&o| LOWERED.contains(&ctx.op_name_str(o))).collect();
    (r, left)
}

/// Where a construct's exits go.
struct Targets {
    /// `cuda.break` to this construct (`None`: it is not a break target: an `if`).
    brk: Option<BlockId>,
    /// `cuda.continue` to this construct (loops).
    cont: Option<BlockId>,
    /// Whether this construct is a loop (a `continue` without `levels` stops here).
    is_loop: bool,
}

/// Rewrites the terminators of `blocks` (region `ri` of the construct) after `t`: yields
/// and conditions are the caller's (`cond`: the loop's (body, exit)), breaks and continues
/// that target this construct branch, the others are retargeted one level out.
fn rewrite_exits(rw: &mut Rewriter<'_>, blocks: &[BlockId], yield_to: Option<BlockId>, cond: Option<(BlockId, BlockId)>, t: &Targets) {
    for &b in blocks {
        let Some(term) = rw.ctx.terminator(b) else { continue };
        let at = InsertPoint { block: b, before: Some(term) };
        let name = rw.ctx.op_name_str(term).to_string();
        match name.as_str() {
            "cuda.yield" => {
                let Some(dest) = yield_to else { continue };
                let vals = rw.ctx.operand_vec(term);
                branch(rw, at, "cf.br", &vals, &[dest], &[]);
                rw.erase_op(term);
            }
            "cuda.condition" => {
                let Some((body, exit)) = cond else { continue };
                let c = rw.ctx.operand(term, 0);
                cond_br(rw, at, c, body, exit);
                rw.erase_op(term);
            }
            "cuda.break" | "cuda.continue" => {
                let brk = name == "cuda.break";
                let levels = if brk { BreakOp(term).levels(rw.ctx) } else { ContinueOp(term).levels(rw.ctx) }.map(|l| l as i64);
                // A construct that is not a loop or switch is not counted.
                let counted = t.brk.is_some();
                let dest = match levels {
                    Some(1) | None if brk && counted => t.brk,
                    Some(1) if !brk && counted => t.cont,
                    None if !brk && t.is_loop => t.cont,
                    _ => None,
                };
                match dest {
                    Some(d) => {
                        branch(rw, at, "cf.br", &[], &[d], &[]);
                        rw.erase_op(term);
                    }
                    None => {
                        if let (Some(l), true) = (levels, counted) {
                            if l > 1 {
                                let a = i32_attr(rw.ctx, l - 1);
                                rw.modify_op_in_place(term, |ctx| ctx.set_prop(term, "levels", a));
                            }
                        }
                    }
                }
            }
            _ => {}
        }
    }
}

// ----- the patterns -------------------------------------------------------------------------

fn lower_if(op: OpId, rw: &mut Rewriter<'_>) -> bool {
    let Some((cont, cargs)) = continuation(rw, op) else { return false };
    let (tr, er) = (rw.ctx.region(op, 0), rw.ctx.region(op, 1));
    let then_blocks = inline_before(rw, tr, cont);
    let else_blocks = inline_before(rw, er, cont);
    let t = Targets { brk: None, cont: None, is_loop: false };
    rewrite_exits(rw, &then_blocks, Some(cont), None, &t);
    rewrite_exits(rw, &else_blocks, Some(cont), None, &t);
    let then_b = then_blocks.first().copied().unwrap_or(cont);
    let else_b = else_blocks.first().copied().unwrap_or(cont);
    let c = rw.ctx.operand(op, 0);
    let block = rw.ctx.op_block(op).expect("in a block");
    cond_br(rw, InsertPoint::end(block), c, then_b, else_b);
    rw.replace_op(op, &cargs);
    true
}

fn lower_loop(op: OpId, rw: &mut Rewriter<'_>) -> bool {
    let regions: Vec<RegionId> = rw.ctx.regions(op).to_vec();
    if regions.len() != 3 || regions.iter().any(|&r| rw.ctx.region_blocks(r).is_empty()) {
        return false;
    }
    let do_while = LoopOp(op).do_while(rw.ctx);
    let unroll = LoopOp(op).unroll(rw.ctx).map(|n| n as i64);
    let Some((exit, _)) = continuation(rw, op) else { return false };
    let cond = inline_before(rw, regions[0], exit);
    let body = inline_before(rw, regions[1], exit);
    let step = inline_before(rw, regions[2], exit);
    let (cond_b, body_b, step_b) = (cond[0], body[0], step[0]);
    let t = Targets { brk: Some(exit), cont: Some(step_b), is_loop: true };
    rewrite_exits(rw, &cond, None, Some((body_b, exit)), &t);
    rewrite_exits(rw, &body, Some(step_b), None, &t);
    // The back edge: the step's yield, with the unroll hint.
    for &b in &step {
        if let Some(term) = rw.ctx.terminator(b) {
            if rw.ctx.is_op(term, "cuda.yield") {
                let back = branch(rw, InsertPoint { block: b, before: Some(term) }, "cf.br", &[], &[cond_b], &[]);
                if let Some(n) = unroll {
                    // A discardable attribute of the branch: `cf.br` has no such property.
                    rw.modify_op_in_place(back, |ctx| cuprite_dialects::hints::set_unroll(ctx, back, n));
                }
                rw.erase_op(term);
            }
        }
    }
    rewrite_exits(rw, &step, None, None, &t);
    let block = rw.ctx.op_block(op).expect("in a block");
    branch(rw, InsertPoint::end(block), "cf.br", &[], &[if do_while { body_b } else { cond_b }], &[]);
    rw.erase_op(op);
    true
}

fn lower_switch(op: OpId, rw: &mut Rewriter<'_>) -> bool {
    let regions: Vec<RegionId> = rw.ctx.regions(op).to_vec();
    if regions.iter().any(|&r| rw.ctx.region_blocks(r).is_empty()) {
        return false;
    }
    let v = rw.ctx.operand(op, 0);
    let vt = rw.ctx.value_type(v);
    let cases: Vec<AttrId> = match SwitchOp(op).cases_attr(rw.ctx).map(|a| rw.ctx.attr_kind(a).clone()) {
        Some(AttrKind::Array(l)) => l,
        _ => Vec::new(),
    };
    let default = SwitchOp(op).default_index(rw.ctx).map(|d| d as usize);
    let Some((exit, _)) = continuation(rw, op) else { return false };
    let block = rw.ctx.op_block(op).expect("in a block");
    // The case regions' blocks, in order, then the tests go between the op's block and
    // them (a test per labelled case, each falling to the next test).
    let case_blocks: Vec<Vec<BlockId>> = regions.iter().map(|&r| inline_before(rw, r, exit)).collect();
    let entries: Vec<BlockId> = case_blocks.iter().map(|b| b[0]).collect();
    let region = rw.ctx.block_region(block).expect("in a region");
    let loc = rw.ctx.op_loc(op);
    let mut test_block = block;
    let mut test_index = rw.ctx.block_index(block).unwrap_or(0) + 1;
    for (i, &entry) in entries.iter().enumerate() {
        if Some(i) == default {
            continue;
        }
        let Some(AttrKind::Integer { value, .. }) = cases.get(i).map(|&a| rw.ctx.attr_kind(a).clone()) else { continue };
        let a = rw.ctx.int_attr(value, vt);
        rw.set_insertion_point_to_end(test_block);
        let st = state(rw.ctx, "arith.constant", loc, &[], &[vt], &[("value", a)], &[]);
        let k = rw.create(st);
        let kv = rw.ctx.result(k, 0);
        let i1 = rw.ctx.i1();
        let i64t = rw.ctx.int_type(64);
        let eq = rw.ctx.int_attr(0, i64t);
        let st = state(rw.ctx, "arith.cmpi", loc, &[v, kv], &[i1], &[("predicate", eq)], &[]);
        let c = rw.create(st);
        let cv = rw.ctx.result(c, 0);
        let next = rw.ctx.create_block(&[]);
        rw.ctx.insert_block(region, test_index, next);
        test_index += 1;
        cond_br(rw, InsertPoint::end(test_block), cv, entry, next);
        test_block = next;
    }
    let fallback = default.and_then(|d| entries.get(d).copied()).unwrap_or(exit);
    branch(rw, InsertPoint::end(test_block), "cf.br", &[], &[fallback], &[]);
    let t = Targets { brk: Some(exit), cont: None, is_loop: false };
    for (i, blocks) in case_blocks.iter().enumerate() {
        let next = entries.get(i + 1).copied().unwrap_or(exit);
        rewrite_exits(rw, blocks, Some(next), None, &t);
    }
    rw.erase_op(op);
    true
}

/// `lower-cuda-control-flow`.
pub struct LowerCudaControlFlow;

impl LowerCudaControlFlow {
    pub const NAME: &'static str = NAME;
}

impl Pass for LowerCudaControlFlow {
    fn name(&self) -> &str {
        NAME
    }
    fn run(&self, ctx: &mut Context, op: OpId, state: &mut PassState<'_>) -> Result<(), PassFailure> {
        let disabled: Vec<String> = state.disabled_patterns.iter().filter(|d| RULES.iter().any(|r| r.0 == d.as_str())).cloned().collect();
        let (r, left) = lower_cuda_control_flow(ctx, op, &disabled);
        state.statistics.push(("constructs lowered".into(), r.rewrites));
        for s in &r.stats {
            state.statistics.push((format!("pattern {} tried", s.name), s.tried));
            state.statistics.push((format!("pattern {} applied", s.name), s.applied));
        }
        if let Some(b) = r.hit_budget {
            state.diagnostics.push(Diagnostic::remark(format!("{NAME}: stopped after {b} rewrites (the walk's rewrite budget)"), None));
        }
        if left.is_empty() {
            return Ok(());
        }
        let note = if disabled.is_empty() {
            format!("in pass '{NAME}'")
        } else {
            format!("in pass '{NAME}', with pattern(s) {} disabled", disabled.join(", "))
        };
        for o in left {
            // The constructs themselves; their yields and breaks go with them.
            if !matches!(ctx.op_name_str(o), "cuda.if" | "cuda.loop" | "cuda.switch") && has_structured_parent(ctx, o) {
                continue;
            }
            let span = cuprite_ir::verify::loc_span(ctx, ctx.op_loc(o), state.sources);
            state.diagnostics.push(
                Diagnostic::error(format!("failed to legalize operation '{}'", ctx.op_name_str(o)), span).with_note(note.clone(), None),
            );
        }
        Err(PassFailure)
    }
}

/// Whether `op` sits (at any depth) inside a construct this pass lowers.
fn has_structured_parent(ctx: &Context, op: OpId) -> bool {
    let mut cur = ctx.parent_op(op);
    while let Some(p) = cur {
        if matches!(ctx.op_name_str(p), "cuda.if" | "cuda.loop" | "cuda.switch") {
            return true;
        }
        cur = ctx.parent_op(p);
    }
    false
}
