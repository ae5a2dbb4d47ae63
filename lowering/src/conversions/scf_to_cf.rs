//! `convert-scf-to-cf`: structured control flow (`scf.if`, `scf.while`) to branches
//! between blocks (`cf.br`, `cf.cond_br`), as MLIR's SCFToControlFlow does, in whatever
//! function holds them (a `func.func` in `cuprite compile`'s pipeline, whose regions then
//! become CFGs).
//!
//! `scf.if` in block B: B is split after the op into a continuation C whose arguments are
//! the results; the then and else regions' blocks move before C; B ends with
//! `cf.cond_br %c, then, else` and each `scf.yield` of those regions becomes `cf.br C(...)`.
//!
//! `scf.while` in block B: same split; the `before` and `after` blocks move before C; B
//! ends with `cf.br before(inits)`; `scf.condition(%c) args` becomes
//! `cf.cond_br %c, after(args), C(args)` and `after`'s `scf.yield` the back edge
//! `cf.br before(...)`, which carries the loop's `unroll` hint.
//!
//! The terminators belong to their op's pattern (MLIR's way): `scf.yield` and
//! `scf.condition` are legal while their parent is still an `scf` op, so a disabled
//! pattern reports its op only.

use super::{bind, branch, cond_br, continuation, infos, inline_before, rule, run_patterns, PatternInfo, Rule};
use cuprite_ir::{
    pass::{Pass, PassFailure, PassState},
    rewrite::conversion::{ConversionPattern, ConversionRewriter, ConversionTarget, TypeConverter},
    BlockId, Context, InsertPoint, OpId, ValueId,
};

/// The pass name.
pub const NAME: &str = "convert-scf-to-cf";

/// The pattern set.
static RULES: &[Rule<()>] = &[
    rule(
        "scf-if-to-cf",
        "scf.if",
        "cf.cond_br",
        "then/else blocks inlined, a conditional branch into them, yields branch to the continuation",
        lower_if,
    ),
    rule(
        "scf-while-to-cf",
        "scf.while",
        "cf.cond_br",
        "before/after blocks inlined, the condition a conditional branch, the back edge a branch",
        lower_while,
    ),
];

/// The patterns.
pub fn patterns() -> Vec<Box<dyn ConversionPattern>> {
    bind(RULES, ())
}

/// What `--list-patterns` prints for this pass.
pub fn pattern_infos() -> Vec<PatternInfo> {
    infos(NAME, RULES)
}

/// Whether terminator `op` still belongs to an `scf` op (its pattern rewrites it).
fn inside_scf(ctx: &Context, op: OpId) -> bool {
    ctx.parent_op(op).is_some_and(|p| ctx.op_name_str(p).starts_with("scf."))
}

/// The legality target: no `scf` op remains; `cf` is legal.
pub fn target() -> ConversionTarget {
    ConversionTarget::new()
        .illegal_dialect("scf")
        .legal_dialect("cf")
        .dynamic_op("scf.yield", inside_scf)
        .dynamic_op("scf.condition", inside_scf)
}

/// Replaces the terminator of each of `blocks` that is a `term` of the op being lowered by
/// what `make` builds before it.
fn rewrite_terminators(
    rw: &mut ConversionRewriter<'_, '_>,
    blocks: &[BlockId],
    term: &str,
    mut make: impl FnMut(&mut ConversionRewriter<'_, '_>, OpId),
) {
    for &b in blocks {
        let Some(t) = rw.ctx().terminator(b) else { continue };
        if rw.ctx().is_op(t, term) {
            make(rw, t);
            rw.erase_op(t);
        }
    }
}

fn lower_if(_: &Rule<()>, _: &(), op: OpId, operands: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let Some((cont, cargs)) = continuation(&mut rw.rw, op) else { return false };
    let (tr, er) = (rw.ctx().region(op, 0), rw.ctx().region(op, 1));
    let then_blocks = inline_before(&mut rw.rw, tr, cont);
    let else_blocks = inline_before(&mut rw.rw, er, cont);
    for blocks in [&then_blocks, &else_blocks] {
        rewrite_terminators(rw, blocks, "scf.yield", |rw, t| {
            let vals = rw.ctx().operand_vec(t);
            let at = InsertPoint { block: rw.ctx().op_block(t).expect("in a block"), before: Some(t) };
            branch(&mut rw.rw, at, "cf.br", &vals, &[cont], &[]);
        });
    }
    let then_b = then_blocks.first().copied().unwrap_or(cont);
    let else_b = else_blocks.first().copied().unwrap_or(cont);
    let block = rw.ctx().op_block(op).expect("in a block");
    cond_br(&mut rw.rw, InsertPoint::end(block), operands[0], then_b, else_b);
    rw.replace_op(op, &cargs);
    true
}

fn lower_while(_: &Rule<()>, _: &(), op: OpId, operands: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let (br, ar) = (rw.ctx().region(op, 0), rw.ctx().region(op, 1));
    if rw.ctx().region_blocks(br).is_empty() || rw.ctx().region_blocks(ar).is_empty() {
        return false;
    }
    let unroll = cuprite_dialects::hints::unroll(rw.ctx(), op);
    let Some((cont, cargs)) = continuation(&mut rw.rw, op) else { return false };
    let before = inline_before(&mut rw.rw, br, cont);
    let after = inline_before(&mut rw.rw, ar, cont);
    let (before_entry, after_entry) = (before[0], after[0]);
    rewrite_terminators(rw, &before, "scf.condition", |rw, t| {
        let ops = rw.ctx().operand_vec(t);
        let (c, args) = ops.split_first().expect("a condition");
        let n = args.len() as i64;
        let mut operands = vec![*c];
        operands.extend_from_slice(args);
        operands.extend_from_slice(args);
        let at = InsertPoint { block: rw.ctx().op_block(t).expect("in a block"), before: Some(t) };
        let elem = rw.ctx().int_type(32);
        let segs = rw.ctx().attr(cuprite_ir::AttrKind::DenseArray { elem, values: vec![1, n, n] });
        branch(&mut rw.rw, at, "cf.cond_br", &operands, &[after_entry, cont], &[("operandSegmentSizes", segs)]);
    });
    rewrite_terminators(rw, &after, "scf.yield", |rw, t| {
        let vals = rw.ctx().operand_vec(t);
        let at = InsertPoint { block: rw.ctx().op_block(t).expect("in a block"), before: Some(t) };
        let back = branch(&mut rw.rw, at, "cf.br", &vals, &[before_entry], &[]);
        if let Some(n) = unroll {
            cuprite_dialects::hints::set_unroll(rw.ctx(), back, n);
        }
    });
    let block = rw.ctx().op_block(op).expect("in a block");
    branch(&mut rw.rw, InsertPoint::end(block), "cf.br", operands, &[before_entry], &[]);
    rw.replace_op(op, &cargs);
    true
}

/// `convert-scf-to-cf`.
pub struct ConvertScfToCf;

impl ConvertScfToCf {
    pub const NAME: &'static str = NAME;
}

impl Pass for ConvertScfToCf {
    fn name(&self) -> &str {
        NAME
    }
    fn run(&self, ctx: &mut Context, op: OpId, state: &mut PassState<'_>) -> Result<(), PassFailure> {
        run_patterns(ctx, op, state, NAME, &target(), &TypeConverter::new(), patterns())
    }
}
