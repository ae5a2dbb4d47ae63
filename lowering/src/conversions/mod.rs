//! Conversions written as sets of named rewrite patterns, run by the core's one-shot
//! conversion driver ([`cuprite_ir::rewrite::conversion`]) with a legality target: the
//! progressive-lowering design of `docs/architecture.md`. Each pattern has a name (what
//! `cuprite opt --list-patterns` lists and `--disable-patterns=a,b` leaves out), a root op
//! and a benefit (the driver tries the higher benefit first).
//!
//! | pass | patterns | what |
//! |---|---|---|
//! | `convert-arith-to-nvvm` | [`arith_to_nvvm`] | `arith` to `nvvm`, in any function; options `div=precise\|full\|approx fmad=B` |
//! | `convert-math-to-nvvm` | [`math_to_nvvm`] | `math` to nvvm intrinsics, in any function; option `approx-sqrt=B` |
//! | `convert-cuda-intrinsics-to-nvvm` | [`cuda_intrinsics_to_nvvm`] | the CUDA built-ins with an instruction (`__popc`, `__sinf`, `__fadd_rz`, `hsqrt`, ...) to nvvm, in any function |
//! | `convert-cuda-pointers-to-nvvm` | [`cuda_pointers_to_nvvm`] | pointer arithmetic, comparisons and casts to nvvm (a type converter: `!cuda.ptr` to `!llvm.ptr<N>`), in any function |
//! | `convert-scf-to-cf` | [`scf_to_cf`] | `scf.if`/`scf.while` to `cf` branches between blocks, in any function |
//! | `convert-cuda-gpu-to-nvvm` | [`cuda_gpu_to_nvvm`] | `cuda.special`/`barrier`/`fence`/`shfl`/`vote` to their nvvm ops, in any function |
//! | `convert-cuda-to-nvvm` | [`cuda_to_nvvm`] | globals, variables, loads and stores (a struct by value as its scalars), inline asm, textures, `__trap` to nvvm |
//! | `convert-func-to-nvvm` | [`func_to_nvvm`] | `func.func`/`call`/`return` with the ABI's signature conversion, `cf` branches, `ub.unreachable` to nvvm; option `ftz=B` |
//! | `lower-cuda-control-flow` | [`cuda_cf`] | `cuda.if`/`cuda.loop`/`cuda.switch` with their breaks and continues to `cf` branches (walk driver, children first) |
//! | `convert-nvvm-to-ptx` | [`mod@crate::nvvm_to_ptx`] (`rules.rs`) | instruction selection: one pattern per nvvm op, fusions (`mad`, `fma`, `mul.wide`, `[reg+imm]`) at benefit 2 (its own selection driver) |
//!
//! A pass built here reports, with `--pass-statistics`, how often each pattern was tried
//! and applied; an op no enabled pattern converts is an error at its location, with a note
//! naming the pass and the patterns that were disabled.
//!
//! How to add a pattern: `docs/lowering-patterns.md`.

pub mod arith_to_nvvm;
pub mod cuda_cf;
pub mod cuda_gpu_to_nvvm;
pub mod cuda_intrinsics_to_nvvm;
pub mod cuda_pointers_to_nvvm;
pub mod cuda_to_nvvm;
pub mod func_to_nvvm;
pub mod math_to_nvvm;
pub mod scf_to_cf;

use cuprite_ir::{
    pass::{PassFailure, PassState},
    rewrite::conversion::{apply_conversion, ConversionMode, ConversionPattern, ConversionRewriter, ConversionTarget, TypeConverter},
    AttrId, BlockId, Context, Diagnostic, InsertPoint, OpId, RegionId, ValueId,
};

/// How a rule rewrites its root: given the rule, the pass's options, the op and its
/// (type-converted) operands. Returns `false`, changing nothing, when the op is not its case.
pub(crate) type Lower<O> = fn(&Rule<O>, &O, OpId, &[ValueId], &mut ConversionRewriter<'_, '_>) -> bool;

/// How a rule that sees its operands as groups rewrites its root: each operand as the
/// values of its converted types (several for a struct by value under the 1:N conversion
/// of [`nvvm_types`]).
pub(crate) type LowerGroups<O> = fn(&Rule<O>, &O, OpId, &[Vec<ValueId>], &mut ConversionRewriter<'_, '_>) -> bool;

/// One pattern of a conversion, before it is bound to the pass's options `O`.
pub(crate) struct Rule<O: 'static> {
    pub name: &'static str,
    pub root: &'static str,
    /// What it produces: an op name, or an intrinsic's (the `lower` function says which).
    pub target: &'static str,
    pub benefit: u16,
    pub summary: &'static str,
    pub lower: Lower<O>,
    /// Set: the rule takes its operands as groups (`lower` is then not called).
    pub groups: Option<LowerGroups<O>>,
}

/// A rule of benefit 1 (the usual case).
pub(crate) const fn rule<O>(
    name: &'static str,
    root: &'static str,
    target: &'static str,
    summary: &'static str,
    lower: Lower<O>,
) -> Rule<O> {
    Rule { name, root, target, benefit: 1, summary, lower, groups: None }
}

/// A rule of benefit 1 whose rewrite sees its operands as groups ([`LowerGroups`]).
pub(crate) const fn rule_groups<O>(
    name: &'static str,
    root: &'static str,
    target: &'static str,
    summary: &'static str,
    lower: LowerGroups<O>,
) -> Rule<O> {
    Rule { name, root, target, benefit: 1, summary, lower: never, groups: Some(lower) }
}

fn never<O>(_: &Rule<O>, _: &O, _: OpId, _: &[ValueId], _: &mut ConversionRewriter<'_, '_>) -> bool {
    false
}

/// A rule bound to the pass's options: what the conversion driver runs.
struct Bound<O: 'static> {
    rule: &'static Rule<O>,
    opts: O,
}

impl<O: Send + Sync + 'static> ConversionPattern for Bound<O> {
    fn name(&self) -> &str {
        self.rule.name
    }
    fn root(&self) -> Option<&str> {
        Some(self.rule.root)
    }
    fn benefit(&self) -> u16 {
        self.rule.benefit
    }
    fn match_and_rewrite(&self, op: OpId, operands: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
        (self.rule.lower)(self.rule, &self.opts, op, operands, rw)
    }
    fn match_and_rewrite_groups(&self, op: OpId, operands: &[Vec<ValueId>], rw: &mut ConversionRewriter<'_, '_>) -> bool {
        match self.rule.groups {
            Some(g) => g(self.rule, &self.opts, op, operands, rw),
            None if operands.iter().all(|g| g.len() == 1) => {
                let flat: Vec<ValueId> = operands.iter().map(|g| g[0]).collect();
                (self.rule.lower)(self.rule, &self.opts, op, &flat, rw)
            }
            None => false,
        }
    }
}

/// The patterns of `rules` with `opts` bound.
pub(crate) fn bind<O: Copy + Send + Sync + 'static>(rules: &'static [Rule<O>], opts: O) -> Vec<Box<dyn ConversionPattern>> {
    rules.iter().map(|rule| Box::new(Bound { rule, opts }) as Box<dyn ConversionPattern>).collect()
}

/// What `--list-patterns` says about `rules`, the set of pass `pass`.
pub(crate) fn infos<O>(pass: &'static str, rules: &'static [Rule<O>]) -> Vec<PatternInfo> {
    rules
        .iter()
        .map(|r| PatternInfo { pass, name: r.name, root: r.root, benefit: r.benefit, summary: r.summary, optional: false })
        .collect()
}

/// Replaces `op` by a new `name` op on `operands` with `op`'s result type and `props`.
pub(crate) fn replace_with(
    rw: &mut ConversionRewriter<'_, '_>,
    op: OpId,
    name: &str,
    operands: &[ValueId],
    props: &[(&str, AttrId)],
) -> bool {
    let ctx = rw.ctx();
    let Some(&res) = ctx.results(op).first() else { return false };
    let t = ctx.value_type(res);
    let loc = ctx.op_loc(op);
    let st = crate::build::state(ctx, name, loc, operands, &[t], props, &[]);
    let new = rw.rw.create(st);
    let v = rw.ctx().result(new, 0);
    rw.replace_op(op, &[v]);
    true
}

/// A new op `name` (of the target dialect) before `op`, with one result of type `t`: what
/// the patterns that expand one op into several build with.
pub(crate) fn emit(
    rw: &mut ConversionRewriter<'_, '_>,
    op: OpId,
    name: &str,
    operands: &[ValueId],
    t: cuprite_ir::TypeId,
    props: &[(&str, AttrId)],
) -> ValueId {
    let loc = rw.ctx().op_loc(op);
    let st = crate::build::state(rw.ctx(), name, loc, operands, &[t], props, &[]);
    rw.rw.set_insertion_point_before(op);
    let new = rw.rw.create(st);
    rw.ctx().result(new, 0)
}

/// An `nvvm.constant` integer `v` of type `t` before `op`.
pub(crate) fn int_const(rw: &mut ConversionRewriter<'_, '_>, op: OpId, v: i64, t: cuprite_ir::TypeId) -> ValueId {
    let a = rw.ctx().int_attr(v as i128, t);
    emit(rw, op, "nvvm.constant", &[], t, &[("value", a)])
}

/// What `--list-patterns` says about one pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternInfo {
    /// The pass whose set holds it.
    pub pass: &'static str,
    pub name: &'static str,
    /// The op it rewrites.
    pub root: &'static str,
    pub benefit: u16,
    pub summary: &'static str,
    /// An optimization: with it disabled, a pattern of lower benefit still converts its
    /// root (the selection fusions).
    pub optional: bool,
}

/// Every pattern of every pattern-based conversion, pass by pass.
pub fn all_patterns() -> Vec<PatternInfo> {
    let mut v = arith_to_nvvm::pattern_infos();
    v.extend(math_to_nvvm::pattern_infos());
    v.extend(cuda_intrinsics_to_nvvm::pattern_infos());
    v.extend(cuda_pointers_to_nvvm::pattern_infos());
    v.extend(scf_to_cf::pattern_infos());
    v.extend(cuda_cf::pattern_infos());
    v.extend(cuda_gpu_to_nvvm::pattern_infos());
    v.extend(cuda_to_nvvm::pattern_infos());
    v.extend(func_to_nvvm::pattern_infos());
    v.extend(crate::nvvm_to_ptx::pattern_infos());
    v
}

/// The conversion pass that lowers op `name` to nvvm, from the pattern tables (the exits of
/// C's constructs are `lower-cuda-control-flow`'s too).
pub fn lowered_by(name: &str) -> Option<&'static str> {
    if matches!(name, "cuda.yield" | "cuda.condition" | "cuda.break" | "cuda.continue" | "cuda.return") {
        return Some(cuda_cf::NAME);
    }
    all_patterns().into_iter().find(|p| p.root == name && p.pass != crate::passes::ConvertNvvmToPtx::NAME).map(|p| p.pass)
}

/// Why op `op`, not of the nvvm level, is still there after the conversions: the pass that
/// lowers it, or that nothing does.
pub fn left_over_message(ctx: &Context, op: OpId) -> String {
    let name = ctx.op_name_str(op);
    if name == cuprite_ir::rewrite::conversion::CAST_OP {
        let ty = |v| cuprite_ir::print::type_to_string(ctx, ctx.value_type(v));
        let from: Vec<String> = ctx.operands(op).map(ty).collect();
        let to: Vec<String> = ctx.results(op).iter().map(|&r| ty(r)).collect();
        return format!(
            "a value of type {} is still used as {}: a conversion did not lower its producer or a user",
            from.join(", "),
            to.join(", ")
        );
    }
    if let Some(iname) = cuprite_dialects::cuda::IntrinsicOp(op).name(ctx).filter(|_| name == "cuda.intrinsic") {
        return if cuda_intrinsics_to_nvvm::handles(iname) {
            format!("'{iname}' is lowered by '{}', which did not run or could not convert it", cuda_intrinsics_to_nvvm::NAME)
        } else if iname == "__trap" {
            format!("'{iname}' is lowered by '{}' (in a function's own blocks, after '{}')", cuda_to_nvvm::NAME, cuda_cf::NAME)
        } else {
            format!("'{iname}' is not supported yet (it needs the device math library: 'link-math-library' first)")
        };
    }
    match lowered_by(name) {
        Some(pass) => format!("'{name}' is lowered by '{pass}', which did not run or could not convert it"),
        None => format!("'{name}' has no lowering to nvvm"),
    }
}

/// Runs conversion `patterns` to `target` on `root` outside a pass manager; the ops of
/// `prefix` (the converted dialect) left over are the errors, named after pass `pass`.
pub(crate) fn convert_outside_pass(
    ctx: &mut Context,
    root: OpId,
    pass: &str,
    prefix: &str,
    target: &ConversionTarget,
    patterns: &[Box<dyn ConversionPattern>],
) -> Result<(), Vec<crate::LowerError>> {
    let r = apply_conversion(ctx, root, target, &TypeConverter::new(), patterns, ConversionMode::Partial, None);
    if r.errors.is_empty() {
        return Ok(());
    }
    let left: Vec<OpId> =
        cuprite_ir::walk::collect_preorder(ctx, root).into_iter().filter(|&o| ctx.op_name_str(o).starts_with(prefix)).collect();
    Err(left
        .into_iter()
        .map(|o| crate::LowerError {
            loc: ctx.op_loc(o),
            message: format!("failed to legalize operation '{}' in pass '{pass}'", ctx.op_name_str(o)),
        })
        .collect())
}

/// Runs the conversion `patterns` (less the ones `state` disables) on `root` as pass
/// `pass`: partial conversion to `target`, statistics per pattern, failures as errors at
/// their ops with a note naming the pass.
pub(crate) fn run_patterns(
    ctx: &mut Context,
    root: OpId,
    state: &mut PassState<'_>,
    pass: &str,
    target: &ConversionTarget,
    types: &TypeConverter,
    patterns: Vec<Box<dyn ConversionPattern>>,
) -> Result<(), PassFailure> {
    let disabled: Vec<&str> =
        patterns.iter().map(|p| p.name()).filter(|n| state.disabled_patterns.iter().any(|d| d == n)).collect::<Vec<_>>();
    let note = if disabled.is_empty() {
        format!("in pass '{pass}'")
    } else {
        format!("in pass '{pass}', with pattern(s) {} disabled", disabled.join(", "))
    };
    let enabled: Vec<Box<dyn ConversionPattern>> =
        patterns.into_iter().filter(|p| !state.disabled_patterns.iter().any(|d| d == p.name())).collect();
    let r = apply_conversion(ctx, root, target, types, &enabled, ConversionMode::Partial, state.sources);
    state.statistics.push(("ops converted".into(), r.rewrites));
    for s in &r.stats {
        state.statistics.push((format!("pattern {} tried", s.name), s.tried));
        state.statistics.push((format!("pattern {} applied", s.name), s.applied));
    }
    if let Some(b) = r.hit_budget {
        state.diagnostics.push(Diagnostic::remark(format!("{pass}: stopped after {b} rewrites (the conversion's rewrite budget)"), None));
    }
    if r.errors.is_empty() {
        return Ok(());
    }
    for e in r.errors {
        state.diagnostics.push(e.with_note(note.clone(), None));
    }
    Err(PassFailure)
}

// ----- block surgery shared by the control-flow patterns ----------------------------------

/// Splits the block of `op` after it; the new block (the continuation) gets one argument
/// per result of `op`, returned with it. An op that ends a block without a terminator gets
/// a new, empty continuation after its block.
pub(crate) fn continuation(rw: &mut cuprite_ir::rewrite::Rewriter<'_>, op: OpId) -> Option<(BlockId, Vec<ValueId>)> {
    let block = rw.ctx.op_block(op)?;
    let types: Vec<_> = rw.ctx.results(op).iter().map(|&r| rw.ctx.value_type(r)).collect();
    let cont = match rw.ctx.next_op(op) {
        Some(next) => rw.split_block(block, next),
        None => {
            let region = rw.ctx.block_region(block)?;
            let index = rw.ctx.block_index(block)? + 1;
            let nb = rw.ctx.create_block(&[]);
            rw.ctx.insert_block(region, index, nb);
            nb
        }
    };
    let args = types.into_iter().map(|t| rw.ctx.add_block_arg(cont, t)).collect();
    Some((cont, args))
}

/// Moves the blocks of region `src` ahead of `before` (in its region); returns them.
pub(crate) fn inline_before(rw: &mut cuprite_ir::rewrite::Rewriter<'_>, src: RegionId, before: BlockId) -> Vec<BlockId> {
    let blocks = rw.ctx.region_blocks(src).to_vec();
    let dest = rw.ctx.block_region(before).expect("a block in a region");
    let index = rw.ctx.block_index(before).unwrap_or(0);
    rw.inline_region_before(src, dest, index);
    blocks
}

/// A branch op `name` at `at` on `operands` to `successors`, with `props`; located at the
/// op it goes before (or the op owning the block).
pub(crate) fn branch(
    rw: &mut cuprite_ir::rewrite::Rewriter<'_>,
    at: InsertPoint,
    name: &str,
    operands: &[ValueId],
    successors: &[BlockId],
    props: &[(&str, AttrId)],
) -> OpId {
    let loc = match at.before {
        Some(o) => rw.ctx.op_loc(o),
        None => rw.ctx.op_loc(rw.ctx.block_parent_op(at.block).expect("a block of an op")),
    };
    let st = crate::build::state(rw.ctx, name, loc, operands, &[], props, successors);
    match at.before {
        Some(o) => rw.set_insertion_point_before(o),
        None => rw.set_insertion_point_to_end(at.block),
    }
    rw.create(st)
}

/// `cf.cond_br %c, t, f` (no forwarded values) at `at`.
pub(crate) fn cond_br(rw: &mut cuprite_ir::rewrite::Rewriter<'_>, at: InsertPoint, c: ValueId, t: BlockId, f: BlockId) -> OpId {
    let elem = rw.ctx.int_type(32);
    let segs = rw.ctx.attr(cuprite_ir::AttrKind::DenseArray { elem, values: vec![1, 0, 0] });
    branch(rw, at, "cf.cond_br", &[c], &[t, f], &[("operandSegmentSizes", segs)])
}

// ----- the types of the nvvm level ----------------------------------------------------

/// The type conversion from the `cuda` level to the `nvvm` level that the memory and
/// function conversions share: `!cuda.ptr<T, space>` becomes `!llvm.ptr<N>` (NVPTX's
/// address-space number), integers become signless, and a struct or array by value
/// becomes its scalars (a 1:N conversion, [`cuprite_dialects::cuda::layout::leaves`]
/// order, each scalar converted in turn). An aggregate of more than
/// [`cuprite_dialects::cuda::layout::MAX_LEAVES`] scalars is left as it is, so the ops
/// that move it by value fail to legalize at their location.
pub fn nvvm_types() -> TypeConverter {
    use cuprite_dialects::cuda::{layout, types};
    let mut t = TypeConverter::new();
    t.add(|ctx, ty| match ctx.type_kind(ty) {
        cuprite_ir::TypeKind::Integer { width, signedness } if *signedness != cuprite_ir::Signedness::Signless => {
            let width = *width;
            Some(ctx.ty(cuprite_ir::TypeKind::Integer { width, signedness: cuprite_ir::Signedness::Signless }))
        }
        _ => None,
    });
    t.add(|ctx, ty| match types::decode(ctx, ty)? {
        types::Decoded::Ptr { space, .. } => Some(ctx.ty(cuprite_ir::TypeKind::Pointer { addr_space: crate::build::space_num(space) })),
        _ => None,
    });
    t.add_many(|ctx, ty| {
        if !layout::is_aggregate(ctx, ty) {
            return None;
        }
        let leaves = layout::leaves(ctx, ty)?;
        Some(leaves.into_iter().map(|(_, lt)| scalar_type(ctx, lt)).collect())
    });
    t
}

/// Declines a conversion of a struct or array by value that [`nvvm_types`] leaves whole
/// (too many scalars), saying so.
pub(crate) fn too_many_scalars(rw: &mut ConversionRewriter<'_, '_>) -> bool {
    rw.notify_match_failure(format!(
        "a struct or array of more than {} scalars by value is not supported yet",
        cuprite_dialects::cuda::layout::MAX_LEAVES
    ))
}

/// The nvvm type of a scalar cuda type (a pointer's `!llvm.ptr<N>`, an integer signless).
pub(crate) fn scalar_type(ctx: &mut Context, t: cuprite_ir::TypeId) -> cuprite_ir::TypeId {
    use cuprite_dialects::cuda::types;
    match ctx.type_kind(t).clone() {
        cuprite_ir::TypeKind::Integer { width, .. } => {
            ctx.ty(cuprite_ir::TypeKind::Integer { width, signedness: cuprite_ir::Signedness::Signless })
        }
        _ => match types::decode(ctx, t) {
            Some(types::Decoded::Ptr { space, .. }) => ctx.ty(cuprite_ir::TypeKind::Pointer { addr_space: crate::build::space_num(space) }),
            _ => t,
        },
    }
}

/// The function op (`func.func`, `nvvm.func`) that `op` is nested in, directly in the module.
pub(crate) fn enclosing_function(ctx: &Context, op: OpId) -> Option<OpId> {
    let mut cur = op;
    loop {
        let parent = ctx.parent_op(cur)?;
        if ctx.is_op(parent, "func.func") || ctx.is_op(parent, "nvvm.func") {
            return Some(parent);
        }
        cur = parent;
    }
}
