//! The verifier: structural rules every op must follow, plus each op's own verifier.
//!
//! Structural rules:
//! 1. Every operand is a live value whose definition is visible (defined in the same
//!    region or an enclosing one, never across an isolated-from-above op) and dominates the
//!    use: earlier in the same block, or in a dominating block. Graph regions (ops with the
//!    `GRAPH_REGION` trait, and unregistered ops) skip the dominance part.
//! 2. Blocks of SSA-CFG regions of registered ops end with a terminator; a terminator is
//!    the last op of its block; single-block regions have at most one block; the entry
//!    block has no predecessors.
//! 3. Successors are blocks of the same region; the operands an op forwards to a
//!    successor (branch interface) match that block's arguments in number and type.
//! 4. Trait rules (same operand and result types, ...), then the op's verifier.
//!
//! The walk is iterative; errors point at the op's location.

use crate::{
    context::{Context, OpId, ValueDef, ValueId},
    diag::{Diagnostic, SourceMap, Span},
    dominance::DominanceInfo,
    location::{LocId, Location},
    registry::Traits,
};

/// At most this many errors are collected (the rest would mostly be consequences).
pub const MAX_ERRORS: usize = 50;

/// The span of a location, if it carries bytes or `sources` can turn its line:col into bytes.
pub fn loc_span(ctx: &Context, loc: LocId, sources: Option<&SourceMap>) -> Option<Span> {
    let mut l = loc;
    for _ in 0..64 {
        match ctx.location(l) {
            Location::File { file, start, end, bytes } => {
                let name = ctx.str(file).to_string();
                if let Some((lo, mut hi)) = bytes {
                    // A one-byte span (an offset location) widens to the token there.
                    if hi == lo + 1 {
                        if let Some(text) = sources.and_then(|s| s.text(&name)) {
                            let mut lex = crate::parse::lexer::Lexer { src: text, pos: lo as usize };
                            let t = lex.next_token();
                            if t.lo == lo {
                                hi = t.hi;
                            }
                        }
                    }
                    return Some(Span { file: name, lo, hi });
                }
                let s = sources?;
                let lo = s.offset(&name, start.line, start.col)?;
                let hi = end.and_then(|e| s.offset(&name, e.line, e.col)).unwrap_or(lo + 1);
                return Some(Span { file: name, lo, hi: hi.max(lo) });
            }
            Location::Name { child: Some(c), .. } => l = c,
            Location::Fused { locs, .. } if !locs.is_empty() => l = locs[0],
            Location::CallSite { callee, .. } => l = callee,
            _ => return None,
        }
    }
    None
}

/// An error about `op`, formatted as MLIR does (`'arith.addi' op ...`).
pub fn op_error(ctx: &Context, op: OpId, msg: &str, sources: Option<&SourceMap>) -> Diagnostic {
    Diagnostic::error(format!("'{}' op {msg}", ctx.op_name_str(op)), loc_span(ctx, ctx.op_loc(op), sources))
}

/// Isolated-from-above subtrees are verified on worker threads when the context holds at
/// least this many ops (below, threads cost more than they save).
pub const PARALLEL_VERIFY_MIN_OPS: usize = 20_000;

/// Verifies `root` and everything nested in it.
///
/// One preorder walk: an op is verified when it is reached, so for a use in the same block
/// as the definition, "the definition was already visited" is "it comes first" (a bitset,
/// no position table). The insides of the ops directly nested in `root` that are isolated
/// from above (functions) are walked in parallel, as MLIR does: nothing in one can refer to
/// another. Every thread, this one included once it has walked the rest, takes the next
/// function from a shared counter, so uneven functions still balance. The errors are the
/// same whatever the schedule: those outside the isolated ops first, then each isolated
/// op's in order (functions are taken in order, and no thread takes another once
/// [`MAX_ERRORS`] are found, so every function before the last one taken was walked).
pub fn verify(ctx: &Context, root: OpId, sources: Option<&SourceMap>) -> Result<(), Vec<Diagnostic>> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut isolated: Vec<OpId> = Vec::new();
    if threads > 1 && ctx.num_ops() >= PARALLEL_VERIFY_MIN_OPS {
        for &r in ctx.regions(root) {
            for &b in ctx.region_blocks(r) {
                isolated.extend(ctx.block_ops(b).filter(|&o| ctx.has_trait(o, Traits::ISOLATED_FROM_ABOVE) && !ctx.regions(o).is_empty()));
            }
        }
    }
    if isolated.len() < 2 {
        isolated.clear();
    }
    let mut skip = vec![0u64; if isolated.is_empty() { 0 } else { ctx.op_capacity().div_ceil(64) }];
    for o in &isolated {
        skip[o.index() / 64] |= 1 << (o.index() % 64);
    }
    use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
    let next = AtomicUsize::new(0);
    let errors_found = AtomicUsize::new(0);
    // Walks the insides of isolated ops until none is left (or enough errors are found):
    // (index, errors) per op with errors.
    let take_work = |v: &mut Verifier| {
        let mut found = Vec::new();
        while errors_found.load(Relaxed) < MAX_ERRORS {
            let i = next.fetch_add(1, Relaxed);
            let Some(&iso) = isolated.get(i) else { break };
            v.walk_inside(iso);
            if !v.errors.is_empty() {
                errors_found.fetch_add(v.errors.len(), Relaxed);
                found.push((i, std::mem::take(&mut v.errors)));
            }
        }
        found
    };
    let (mut errors, mut per_op) = std::thread::scope(|s| {
        let workers: Vec<_> = (1..threads.min(isolated.len()))
            .map(|_| {
                s.spawn(|| {
                    let mut v = Verifier::new(ctx, sources);
                    take_work(&mut v)
                })
            })
            .collect();
        // The root and everything outside the isolated subtrees, on this thread, then
        // isolated ops like the workers.
        let mut main = Verifier::new(ctx, sources);
        main.walk(root, &skip);
        let errors = std::mem::take(&mut main.errors);
        errors_found.fetch_add(errors.len(), Relaxed);
        let mut per_op = take_work(&mut main);
        for w in workers {
            // A worker's panic is a verifier bug: pass it on rather than report its
            // functions as verified.
            per_op.extend(w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
        }
        (errors, per_op)
    });
    per_op.sort_by_key(|(i, _)| *i);
    for (_, e) in per_op {
        errors.extend(e);
    }
    errors.truncate(MAX_ERRORS);
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// Whether `op` is in the bitset `set` (by op index; an empty set has nothing).
fn in_set(set: &[u64], op: OpId) -> bool {
    set.get(op.index() / 64).is_some_and(|w| w & (1 << (op.index() % 64)) != 0)
}

struct Verifier<'a> {
    ctx: &'a Context,
    /// Ops visited so far by this walk (bit per op index).
    visited: Vec<u64>,
    /// Block dominator trees (computed per region on demand).
    dom: DominanceInfo,
    errors: Vec<Diagnostic>,
    sources: Option<&'a SourceMap>,
}

impl<'a> Verifier<'a> {
    fn new(ctx: &'a Context, sources: Option<&'a SourceMap>) -> Self {
        Self { ctx, visited: vec![0; ctx.op_capacity().div_ceil(64)], dom: DominanceInfo::default(), errors: Vec::new(), sources }
    }

    fn mark(&mut self, op: OpId) {
        self.visited[op.index() / 64] |= 1 << (op.index() % 64);
    }

    fn seen(&self, op: OpId) -> bool {
        self.visited[op.index() / 64] & (1 << (op.index() % 64)) != 0
    }

    /// Verifies `root` and its subtree in preorder, without entering the ops in `skip` (a
    /// bitset by op index; they are verified themselves, but not their contents).
    fn walk(&mut self, root: OpId, skip: &[u64]) {
        self.mark(root);
        self.verify_op(root);
        if in_set(skip, root) {
            return;
        }
        self.walk_nested(root, skip);
    }

    /// Verifies everything nested in `root` (not `root` itself).
    fn walk_inside(&mut self, root: OpId) {
        self.mark(root);
        self.walk_nested(root, &[]);
    }

    fn walk_nested(&mut self, root: OpId, skip: &[u64]) {
        let ctx = self.ctx;
        let mut stack: Vec<OpId> = Vec::new();
        crate::walk::push_first_ops(ctx, root, &mut stack);
        while let Some(op) = stack.pop() {
            if self.errors.len() >= MAX_ERRORS {
                return;
            }
            self.mark(op);
            self.verify_op(op);
            if let Some(n) = ctx.next_op(op) {
                stack.push(n);
            }
            if in_set(skip, op) {
                continue;
            }
            crate::walk::push_first_ops(ctx, op, &mut stack);
        }
    }
}

impl Verifier<'_> {
    fn err(&mut self, op: OpId, msg: String) {
        let d = op_error(self.ctx, op, &msg, self.sources);
        self.errors.push(d);
    }

    fn verify_op(&mut self, op: OpId) {
        let ctx = self.ctx;
        let traits = ctx.traits(op);
        for (i, v) in ctx.operands(op).enumerate() {
            if let Err(m) = self.check_operand(op, v) {
                self.err(op, format!("operand #{i} {m}"));
                return;
            }
        }
        // Successors.
        if ctx.num_successors(op) > 0 {
            if ctx.is_registered(op) && !traits.contains(Traits::TERMINATOR) {
                self.err(op, "has successors but is not a terminator".into());
                return;
            }
            let region = ctx.op_region(op);
            for (i, s) in ctx.successors(op).enumerate() {
                if ctx.block_region(s) != region || region.is_none() {
                    self.err(op, format!("successor #{i} is not in the same region as the op"));
                    return;
                }
                if let Some(f) = ctx.op_info(op).and_then(|inf| inf.successor_operands) {
                    let range = f(ctx, op, i);
                    let args = ctx.block_args(s);
                    if range.end > ctx.num_operands(op) || range.len() != args.len() {
                        self.err(
                            op,
                            format!("branch has {} operands for successor #{i}, but target block has {}", range.len(), args.len()),
                        );
                        return;
                    }
                    for (k, (oi, &a)) in range.zip(args).enumerate() {
                        if ctx.value_type(ctx.operand(op, oi)) != ctx.value_type(a) {
                            self.err(op, format!("type mismatch for bb argument #{k} of successor #{i}"));
                            return;
                        }
                    }
                }
            }
        }
        // Terminator placement.
        if traits.contains(Traits::TERMINATOR) && ctx.next_op(op).is_some() {
            self.err(op, "must be the last operation in the parent block".into());
            return;
        }
        // Regions.
        let registered = ctx.is_registered(op);
        let needs_terminator = registered && !traits.contains(Traits::NO_TERMINATOR) && !traits.contains(Traits::GRAPH_REGION);
        for (ri, &r) in ctx.regions(op).iter().enumerate() {
            let blocks = ctx.region_blocks(r);
            if traits.contains(Traits::SINGLE_BLOCK) && blocks.len() > 1 {
                self.err(op, format!("expects region #{ri} to have 0 or 1 blocks"));
                return;
            }
            if let Some(&entry) = blocks.first() {
                if ctx.has_predecessors(entry) {
                    self.err(op, format!("entry block of region #{ri} may not have predecessors"));
                    return;
                }
            }
            if needs_terminator {
                for &b in blocks {
                    match ctx.last_op(b) {
                        None => {
                            self.err(op, format!("region #{ri} has an empty block: expected at least a terminator"));
                            return;
                        }
                        Some(last) if ctx.is_registered(last) && !ctx.has_trait(last, Traits::TERMINATOR) => {
                            let d = op_error(ctx, last, "block must end with a terminator", self.sources).with_note(
                                format!("in region #{ri} of '{}'", ctx.op_name_str(op)),
                                loc_span(ctx, ctx.op_loc(op), self.sources),
                            );
                            self.errors.push(d);
                            return;
                        }
                        _ => {}
                    }
                }
            }
        }
        // Trait rules.
        if traits.contains(Traits::SAME_OPERANDS_AND_RESULT_TYPE) {
            let mut tys = ctx.operands(op).map(|v| ctx.value_type(v)).chain(ctx.results(op).iter().map(|&r| ctx.value_type(r)));
            if let Some(first) = tys.next() {
                if tys.any(|t| t != first) {
                    self.err(op, "requires the same type for all operands and results".into());
                    return;
                }
            }
        }
        if let Some(f) = ctx.op_info(op).and_then(|i| i.verify) {
            if let Err(m) = f(ctx, op) {
                self.err(op, m);
            }
        }
        // Discardable attributes named after a dialect (`cuda.kernel`): that dialect's
        // verifier (MLIR's `Dialect::verifyOperationAttribute`).
        for &(name, value) in ctx.attrs(op) {
            let Some((dialect, _)) = ctx.str(name).split_once('.') else { continue };
            let Some(f) = ctx.registry().dialect(dialect).and_then(|d| d.verify_attribute) else { continue };
            if let Err(m) = f(ctx, op, ctx.str(name), value) {
                self.err(op, m);
                return;
            }
        }
    }

    /// Checks that `v` is visible at and dominates its use in `user`.
    fn check_operand(&mut self, user: OpId, v: ValueId) -> Result<(), String> {
        let ctx = self.ctx;
        if !ctx.value_is_live(v) {
            return Err("uses a value that was erased".into());
        }
        let (def_block, def_op) = match ctx.value_def(v) {
            ValueDef::Placeholder => return Err("uses an undefined value".into()),
            ValueDef::Result { op, .. } => match ctx.op_block(op) {
                Some(b) => (b, Some(op)),
                None => return Err("uses the result of a detached op".into()),
            },
            ValueDef::BlockArg { block, .. } => (block, None),
        };
        let Some(def_region) = ctx.block_region(def_block) else { return Err("uses an argument of a detached block".into()) };
        // Walk up from the user to the op that sits in the defining region.
        let mut anc = user;
        loop {
            let Some(b) = ctx.op_block(anc) else {
                return Err("does not dominate this use (defined in a region that does not enclose it)".into());
            };
            if ctx.block_region(b) == Some(def_region) {
                break;
            }
            let Some(parent) = ctx.block_parent_op(b) else {
                return Err("does not dominate this use (defined in a region that does not enclose it)".into());
            };
            if ctx.has_trait(parent, Traits::ISOLATED_FROM_ABOVE) {
                return Err(format!("uses a value defined outside the isolated-from-above region of '{}'", ctx.op_name_str(parent)));
            }
            anc = parent;
        }
        // Graph regions (and unregistered owners) do not need dominance.
        let owner = ctx.region_parent(def_region);
        if let Some(o) = owner {
            if !ctx.is_registered(o) || ctx.has_trait(o, Traits::GRAPH_REGION) {
                return Ok(());
            }
        }
        let use_block = ctx.op_block(anc).expect("ancestor in block");
        if use_block == def_block {
            return match def_op {
                None => Ok(()),
                Some(d) if d == anc => Err("is used by the op that defines it (or an op nested in it)".into()),
                Some(d) if self.seen(d) => Ok(()),
                Some(_) => Err("does not dominate this use (defined later in the same block)".into()),
            };
        }
        if self.dom.block_dominates(ctx, def_block, use_block) {
            Ok(())
        } else {
            Err("does not dominate this use".into())
        }
    }
}
