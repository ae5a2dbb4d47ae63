//! `nvvm-inline`: inlines calls to device functions, multi-block bodies included, and
//! drops the device functions no call is left to (whole-program compilation, as
//! `nvcc -ptx` without `-rdc`: a device function cannot be called from another file).
//!
//! A call is inlined when its callee has a body, is not recursive (directly or through
//! other functions), is not `noinline` (`__noinline__`), and is `alwaysinline`
//! (`__forceinline__`), small ([`InlineOptions::threshold`] ops) or called only once. Inlining a call:
//! 1. split the caller's block before the call; the second half gets one argument per
//!    call result, which replace the results;
//! 2. copy the callee's body between the halves; the first half branches to the copy's
//!    entry passing the call's operands (the entry's arguments are the parameters);
//! 3. each copied `nvvm.return` becomes a branch to the second half with its operands;
//! 4. copied `nvvm.alloca`s move to the caller's entry block, so that a call in a loop
//!    does not grow the stack and mem2reg sees them as ordinary locals.
//!
//! Calls made by inlined bodies are considered in the next round, at most
//! [`MAX_ROUNDS`] rounds (the budget that stops recursion through several functions).

use cuprite_dialects::hints::{inline_hint, InlineHint};
use cuprite_dialects::nvvm::BrOp;
use cuprite_ir::{
    clone::{clone_op, CloneMap},
    BlockId, Context, InsertPoint, OpId,
};
use rustc_hash::FxHashMap;

/// Rounds of inlining: chains of calls N deep need N rounds; the bound stops recursive
/// cycles through several functions.
pub const MAX_ROUNDS: u32 = 8;

/// What the inliner says when the round budget stopped it with calls it could inline.
pub fn budget_message() -> String {
    format!("nvvm-inline: stopped after {MAX_ROUNDS} rounds; calls that could be inlined remain")
}

/// When to inline.
#[derive(Clone, Debug)]
pub struct InlineOptions {
    /// Callees of at most this many ops are inlined at every call.
    pub threshold: usize,
}

impl Default for InlineOptions {
    fn default() -> Self {
        // cicc inlines nearly every device function; calls cost a stack frame and the
        // .param copies of the ABI, so only large functions called from several places
        // stay calls.
        InlineOptions { threshold: 400 }
    }
}

/// What inlining did.
#[derive(Default, Debug)]
pub struct InlineStats {
    pub inlined: u64,
    pub functions_erased: u64,
    /// Whether the round budget stopped it with calls left that could be inlined.
    pub budget_hit: bool,
}

fn callee_name(ctx: &Context, call: OpId) -> Option<String> {
    cuprite_dialects::nvvm::CallOp::cast(ctx, call)?.callee(ctx).map(str::to_string)
}

fn func_name(ctx: &Context, f: OpId) -> Option<String> {
    cuprite_dialects::nvvm::FuncOp::cast(ctx, f)?.sym_name(ctx).map(str::to_string)
}

fn body_entry(ctx: &Context, f: OpId) -> Option<BlockId> {
    ctx.regions(f).first().and_then(|&r| ctx.entry_block(r))
}

/// The calls `f` makes to functions of the module: (call, callee), in preorder.
fn calls_in(ctx: &Context, f: OpId, by_name: &FxHashMap<String, OpId>) -> Vec<(OpId, OpId)> {
    cuprite_ir::walk::collect_preorder(ctx, f)
        .into_iter()
        .filter_map(|c| callee_name(ctx, c).and_then(|n| by_name.get(&n).copied()).map(|callee| (c, callee)))
        .collect()
}

/// What inlining a module decided, as the next compile of the same module with some
/// kernels edited replays it ([`replay_inline`]): for each round started, the calls each
/// function makes as the round starts (its callees' names, sorted), by function name. The
/// last round is the one that found nothing to inline.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InlineHistory {
    pub rounds: Vec<FxHashMap<String, Vec<String>>>,
}

/// A replay's inlining differs from the recorded one: the edit changed decisions outside
/// the replayed functions, and the whole module must be inlined again.
#[derive(Debug, PartialEq, Eq)]
pub struct Diverged;

/// Inlines calls in the `nvvm.func`s of `module`.
///
/// Each round considers every call in the module (in function order, then preorder), with
/// the callees' sizes and call counts as the round starts, and inlines the candidates in
/// that order. A function's calls and size are found once and found again only after
/// something was inlined into it (inlining changes only the caller).
pub fn inline_module(ctx: &mut Context, module: OpId, opts: &InlineOptions) -> InlineStats {
    run(ctx, module, opts, Mode::Plain).expect("a plain run does not diverge")
}

/// [`inline_module`], also recording its decisions in `history` (left empty when the round
/// budget stopped it: such a module is not replayed).
pub fn inline_module_recorded(ctx: &mut Context, module: OpId, opts: &InlineOptions, history: &mut InlineHistory) -> InlineStats {
    let stats = run(ctx, module, opts, Mode::Record(history)).expect("a recording run does not diverge");
    if stats.budget_hit {
        history.rounds.clear();
    }
    stats
}

/// Inlines in `module`, a part of a module whose full inlining `history` recorded: some of
/// its functions (kernels, which nothing calls) edited, with every function they call.
/// The calls of the functions left out count as recorded, so each callee's call count is the
/// whole module's. Every round, each function here must make the calls it made in the
/// recorded run (else [`Diverged`]): then the edit changed no decision elsewhere, and what
/// the functions here become is what inlining the whole module would make of them.
/// Functions nothing calls are not erased (the part is not the module).
pub fn replay_inline(ctx: &mut Context, module: OpId, opts: &InlineOptions, history: &InlineHistory) -> Result<InlineStats, Diverged> {
    if history.rounds.is_empty() {
        return Err(Diverged);
    }
    run(ctx, module, opts, Mode::Replay(history))
}

enum Mode<'a> {
    Plain,
    Record(&'a mut InlineHistory),
    Replay(&'a InlineHistory),
}

fn run(ctx: &mut Context, module: OpId, opts: &InlineOptions, mut mode: Mode<'_>) -> Result<InlineStats, Diverged> {
    let mut stats = InlineStats::default();
    let funcs: Vec<OpId> = cuprite_ir::walk::collect_preorder(ctx, module)
        .into_iter()
        .filter(|&o| cuprite_dialects::nvvm::FuncOp::cast(ctx, o).is_some())
        .collect();
    let names: Vec<String> = funcs.iter().map(|&f| func_name(ctx, f).unwrap_or_default()).collect();
    let by_name: FxHashMap<String, OpId> = funcs.iter().zip(&names).map(|(&f, n)| (n.clone(), f)).collect();
    let mut calls_of: Vec<Vec<(OpId, OpId)>> = funcs.iter().map(|&f| calls_in(ctx, f, &by_name)).collect();
    let index: FxHashMap<OpId, usize> = funcs.iter().enumerate().map(|(i, &f)| (f, i)).collect();
    let recursive = recursive_functions(&funcs, &calls_of);
    let callee_names = |ctx: &Context, calls: &[(OpId, OpId)]| -> Vec<String> {
        let mut v: Vec<String> = calls.iter().map(|&(_, c)| func_name(ctx, c).unwrap_or_default()).collect();
        v.sort_unstable();
        v
    };
    // Sizes (ops, the function included) of callees, until something is inlined into them.
    let mut sizes: FxHashMap<OpId, usize> = FxHashMap::default();
    for round in 0..=MAX_ROUNDS {
        let mut ncalls: FxHashMap<OpId, usize> = FxHashMap::default();
        for &(_, callee) in calls_of.iter().flatten() {
            *ncalls.entry(callee).or_default() += 1;
        }
        let last_recorded = match &mut mode {
            Mode::Plain => false,
            Mode::Record(h) => {
                h.rounds.push(names.iter().zip(&calls_of).map(|(n, cs)| (n.clone(), callee_names(ctx, cs))).collect());
                false
            }
            Mode::Replay(h) => {
                let Some(recorded) = h.rounds.get(round as usize) else { return Err(Diverged) };
                for (n, cs) in names.iter().zip(&calls_of) {
                    if recorded.get(n) != Some(&callee_names(ctx, cs)) {
                        return Err(Diverged);
                    }
                }
                // The calls of the functions not here, to the functions here.
                for (g, callees) in recorded {
                    if !by_name.contains_key(g) {
                        for c in callees {
                            if let Some(&f) = by_name.get(c) {
                                *ncalls.entry(f).or_default() += 1;
                            }
                        }
                    }
                }
                round as usize + 1 == h.rounds.len()
            }
        };
        for &f in ncalls.keys() {
            sizes.entry(f).or_insert_with(|| cuprite_ir::walk::collect_preorder(ctx, f).len());
        }
        let candidates: Vec<(OpId, OpId, OpId)> = funcs
            .iter()
            .zip(&calls_of)
            .flat_map(|(&caller, cs)| cs.iter().map(move |&(call, callee)| (caller, call, callee)))
            .filter(|&(caller, _, callee)| {
                caller != callee
                    && !recursive.contains(&callee)
                    && body_entry(ctx, callee).is_some()
                    && inline_hint(ctx, callee) != Some(InlineHint::Never)
                    && (sizes[&callee] <= opts.threshold || ncalls[&callee] == 1 || inline_hint(ctx, callee) == Some(InlineHint::Always))
            })
            .collect();
        if last_recorded {
            // The recorded run stopped here: nothing left to inline anywhere.
            return if candidates.is_empty() { Ok(stats) } else { Err(Diverged) };
        }
        if candidates.is_empty() {
            if matches!(mode, Mode::Replay(_)) {
                // Calls elsewhere were still inlined in the recorded run: go on with them.
                continue;
            }
            break;
        }
        if round == MAX_ROUNDS {
            stats.budget_hit = true;
            break;
        }
        let mut changed: Vec<OpId> = Vec::new();
        for (caller, call, callee) in candidates {
            if inline_call(ctx, call, callee) {
                stats.inlined += 1;
                if changed.last() != Some(&caller) {
                    changed.push(caller);
                }
            }
        }
        for f in changed {
            calls_of[index[&f]] = calls_in(ctx, f, &by_name);
            sizes.remove(&f);
        }
    }
    if matches!(mode, Mode::Replay(_)) {
        // The recorded run went on past the round budget.
        return Err(Diverged);
    }
    // Device functions nothing calls any more.
    let called: rustc_hash::FxHashSet<OpId> = calls_of.iter().flatten().map(|&(_, callee)| callee).collect();
    for &f in &funcs {
        let device = cuprite_dialects::nvvm::FuncOp(f).kind(ctx) == Some(cuprite_dialects::nvvm::FuncKind::Device);
        if device && !called.contains(&f) {
            for o in cuprite_ir::walk::collect_preorder(ctx, f).into_iter().rev() {
                ctx.drop_operands(o);
                ctx.clear_successors(o);
            }
            ctx.erase_op(f);
            stats.functions_erased += 1;
        }
    }
    Ok(stats)
}

/// The functions that can reach themselves through calls (never inlined), given the calls
/// each makes.
fn recursive_functions(funcs: &[OpId], calls_of: &[Vec<(OpId, OpId)>]) -> rustc_hash::FxHashSet<OpId> {
    let callees: FxHashMap<OpId, Vec<OpId>> =
        funcs.iter().zip(calls_of).map(|(&f, cs)| (f, cs.iter().map(|&(_, callee)| callee).collect())).collect();
    let mut out = rustc_hash::FxHashSet::default();
    for &f in funcs {
        let mut seen = rustc_hash::FxHashSet::default();
        let mut work: Vec<OpId> = callees[&f].clone();
        while let Some(g) = work.pop() {
            if g == f {
                out.insert(f);
                break;
            }
            if seen.insert(g) {
                work.extend(callees.get(&g).into_iter().flatten().copied());
            }
        }
    }
    out
}

/// Inlines one call; false if its shape does not match the callee.
fn inline_call(ctx: &mut Context, call: OpId, callee: OpId) -> bool {
    let (Some(block), Some(centry)) = (ctx.op_block(call), body_entry(ctx, callee)) else { return false };
    if ctx.block_args(centry).len() != ctx.num_operands(call) {
        return false;
    }
    let Some(region) = ctx.block_region(block) else { return false };
    let Some(caller_entry) = ctx.entry_block(region) else { return false };
    let loc = ctx.op_loc(call);
    let cont = ctx.split_block(block, call);
    for i in 0..ctx.num_results(call) {
        let r = ctx.result(call, i);
        let a = ctx.add_block_arg(cont, ctx.value_type(r));
        ctx.replace_all_uses_with(r, a);
    }
    let args = ctx.operand_vec(call);
    ctx.drop_operands(call);
    ctx.erase_op(call);
    let mut map = CloneMap::default();
    let copy = clone_op(ctx, callee, &mut map);
    let cr = ctx.take_region(copy, 0);
    let blocks: Vec<BlockId> = ctx.region_blocks(cr).to_vec();
    let idx = ctx.block_index(cont).unwrap_or(0);
    ctx.inline_region_before(cr, region, idx);
    ctx.erase_detached_region(cr);
    ctx.erase_op(copy);
    let st = BrOp::build(ctx, loc, &args, None, blocks[0]);
    let br = ctx.create_op(st);
    ctx.insert_op(br, InsertPoint::end(block));
    for &b in &blocks {
        for o in ctx.block_ops(b).collect::<Vec<_>>() {
            match ctx.op_name_str(o) {
                "nvvm.return" => {
                    let vals = ctx.operand_vec(o);
                    let l = ctx.op_loc(o);
                    let st = BrOp::build(ctx, l, &vals, None, cont);
                    let nb = ctx.create_op(st);
                    ctx.insert_op(nb, InsertPoint { block: b, before: Some(o) });
                    ctx.drop_operands(o);
                    ctx.erase_op(o);
                }
                "nvvm.alloca" => {
                    ctx.unlink_op(o);
                    ctx.insert_op(o, InsertPoint { block: caller_entry, before: ctx.first_op(caller_entry) });
                }
                _ => {}
            }
        }
    }
    true
}
