//! `convert-func-to-nvvm`: functions, calls, returns and the branches between a function's
//! blocks, from the standard `func`, `cf` and `ub` dialects to `nvvm`, as named patterns on
//! the conversion driver with the nvvm level's type converter ([`super::nvvm_types`]). It
//! is the ABI part of the lowering:
//!
//! - `func.func` -> `nvvm.func` (`kernel` with `cuda.kernel`; `__launch_bounds__` as
//!   `maxntid`/`minnctapersm`; the inlining hints; `ftz` with the pass option). The
//!   signature is converted: a struct or array parameter is passed as its scalars, and a
//!   struct or array result is stored through a pointer to a caller's local temporary,
//!   passed first ("sret"; mem2reg's scalar replacement promotes the temporary once the
//!   call is inlined). A kernel's struct parameter is its scalars too, and the kernel
//!   carries where each lives in the host's bytes
//!   ([`cuprite_dialects::nvvm::kernel_abi`]). The body moves into the new function with its
//!   block arguments converted; a new entry block holds the allocas (those
//!   `convert-cuda-to-nvvm` put at the top of the old one, and the call temporaries) and
//!   branches to the old entry. A block that ends without a terminator (a void function
//!   falling off its end) gets a return, or `unreachable` where nothing may reach.
//!   A function without a body (`vprintf`) becomes a private declaration.
//! - `func.call` -> `nvvm.call` (aggregate arguments as their scalars; an aggregate result
//!   through a temporary, loaded back scalar by scalar);
//! - `func.return` -> `nvvm.return` (an aggregate result stored through the sret pointer);
//! - `cf.br`/`cf.cond_br` -> `nvvm.br`/`nvvm.cond_br` (block arguments flattened as values
//!   are; the `unroll` hint kept);
//! - `ub.unreachable` -> `nvvm.unreachable`.
//!
//! It runs after `convert-cuda-to-nvvm` in `cuprite compile`'s pipeline; on its own it
//! converts what it can (partial conversion) and leaves the rest as it was.

use super::{bind, enclosing_function, infos, nvvm_types, rule, rule_groups, run_patterns, too_many_scalars, PatternInfo, Rule};
use crate::build::{i32_attr, i64_attr, state};
use cuprite_dialects::cuda::{layout, types::AddrSpace};
use cuprite_ir::{
    pass::{Pass, PassFailure, PassState},
    rewrite::conversion::{ConversionPattern, ConversionRewriter, ConversionTarget},
    AttrKind, BlockId, Context, InsertPoint, OpId, TypeId, TypeKind, ValueId,
};

/// The pass name.
pub const NAME: &str = "convert-func-to-nvvm";

/// The pass's options.
#[derive(Copy, Clone, Debug, Default)]
pub struct Options {
    /// `-ftz=true`: every function flushes f32 subnormals (`nvvm.func` carries `cuprite.ftz`).
    pub ftz: bool,
}

/// The pattern set.
static RULES: &[Rule<Options>] = &[
    rule(
        "func-to-nvvm-func",
        "func.func",
        "nvvm.func",
        "a function: the signature converted (aggregates as scalars, an aggregate result through sret), allocas in a new entry block",
        func,
    ),
    rule_groups(
        "func-call-to-nvvm",
        "func.call",
        "nvvm.call",
        "a call: aggregates as their scalars, an aggregate result through a temporary",
        call,
    ),
    rule_groups("func-return-to-nvvm", "func.return", "nvvm.return", "a return: an aggregate result stored through the sret pointer", ret),
    rule_groups("cf-br-to-nvvm", "cf.br", "nvvm.br", "a branch, its arguments flattened (the unroll hint kept)", br),
    rule_groups("cf-cond-br-to-nvvm", "cf.cond_br", "nvvm.cond_br", "a conditional branch, its arguments flattened", cond_br),
    rule("ub-unreachable-to-nvvm", "ub.unreachable", "nvvm.unreachable", "unreachable code", unreachable),
];

/// The patterns with `opts` bound.
pub fn patterns(opts: Options) -> Vec<Box<dyn ConversionPattern>> {
    bind(RULES, opts)
}

/// What `--list-patterns` prints for this pass.
pub fn pattern_infos() -> Vec<PatternInfo> {
    infos(NAME, RULES)
}

/// The legality target: the roots of the patterns are illegal, nvvm is legal.
pub fn target() -> ConversionTarget {
    RULES.iter().fold(ConversionTarget::new().legal_dialect("nvvm"), |t, r| t.illegal_op(r.root))
}

/// The local pointer type.
fn local_ptr(ctx: &mut Context) -> TypeId {
    ctx.ty(TypeKind::Pointer { addr_space: crate::build::space_num(AddrSpace::Local) })
}

/// Whether cuda type `t` is a struct or array by value that the type converter splits.
fn splits(rw: &mut ConversionRewriter<'_, '_>, t: TypeId) -> bool {
    layout::is_aggregate(rw.ctx(), t) && rw.types.convert_many(rw.rw.ctx, t) != [t]
}

/// A local temporary of `size` and `align` bytes for `op`'s function, where allocas go: at
/// the end of an `nvvm.func`'s entry block (this pass's, which branches to the body), else
/// after the allocas at the top of the entry block.
pub(crate) fn entry_alloca(rw: &mut ConversionRewriter<'_, '_>, op: OpId, size: u64, align: u64) -> Option<ValueId> {
    let ctx = rw.ctx();
    let f = enclosing_function(ctx, op)?;
    let entry = ctx.regions(f).first().and_then(|&r| ctx.entry_block(r))?;
    let at = if ctx.is_op(f, "nvvm.func") && ctx.terminator(entry).is_some_and(|t| ctx.is_op(t, "nvvm.br")) {
        ctx.terminator(entry)
    } else {
        let mut at = ctx.first_op(entry);
        while let Some(o) = at.filter(|&o| ctx.is_op(o, "nvvm.alloca")) {
            at = ctx.next_op(o);
        }
        at
    };
    let pt = local_ptr(ctx);
    let props = [("size", i64_attr(ctx, size as i64)), ("align", i32_attr(ctx, align as i64)), ("name", ctx.str_attr(""))];
    let loc = ctx.op_loc(op);
    let st = state(ctx, "nvvm.alloca", loc, &[], &[pt], &props, &[]);
    match at {
        Some(o) => rw.rw.set_insertion_point_before(o),
        None => rw.rw.set_insertion_point_to_end(entry),
    }
    let a = rw.rw.create(st);
    Some(rw.ctx().result(a, 0))
}

fn func(_: &Rule<Options>, opts: &Options, op: OpId, _: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let is_kernel = cuprite_dialects::cuda::is_kernel(rw.ctx(), op);
    let kind = if is_kernel { cuprite_dialects::nvvm::FuncKind::Kernel } else { cuprite_dialects::nvvm::FuncKind::Device } as i64;
    let Some((inputs, results)) = cuprite_dialects::func::function_type(rw.ctx(), op) else { return false };
    // A kernel's struct parameter: its size, alignment and the offsets of its scalars in
    // the host's bytes.
    let mut byval: Vec<Option<(u64, u64, Vec<u64>)>> = Vec::new();
    if is_kernel {
        for &t in &inputs {
            let entry = if splits(rw, t) {
                let ctx = rw.ctx();
                let (size, align) = layout::size_align(ctx, t).unwrap_or((1, 1));
                let offs = layout::leaves(ctx, t).unwrap_or_default().into_iter().map(|(o, _)| o).collect();
                Some((size, align, offs))
            } else {
                None
            };
            byval.push(entry);
        }
    }
    let sret = match results.as_slice() {
        [] => false,
        [t] if splits(rw, *t) => true,
        [t] if layout::is_aggregate(rw.ctx(), *t) => return too_many_scalars(rw),
        [_] => false,
        _ => return rw.notify_match_failure("a function with several results"),
    };
    if inputs.iter().any(|&t| layout::is_aggregate(rw.ctx(), t) && !splits(rw, t)) {
        return too_many_scalars(rw);
    }
    let mut new_in: Vec<TypeId> = if sret { vec![local_ptr(rw.ctx())] } else { Vec::new() };
    for &t in &inputs {
        new_in.extend(rw.types.convert_many(rw.rw.ctx, t));
    }
    let new_res: Vec<TypeId> = if sret { Vec::new() } else { results.iter().map(|&t| rw.convert_type(t)).collect() };
    let ctx = rw.ctx();
    let name = ctx.symbol_name(op).unwrap_or_default().to_string();
    let fty = ctx.function_type(new_in.clone(), new_res.clone());
    let mut props = vec![("kind", i32_attr(ctx, kind)), ("sym_name", ctx.str_attr(&name)), ("function_type", ctx.type_attr(fty))];
    let body = ctx.region(op, 0);
    let has_body = ctx.entry_block(body).is_some();
    if !has_body {
        // An external function (`vprintf`): a declaration.
        props.push(("sym_visibility", ctx.str_attr("private")));
    }
    if let Some(values) = cuprite_dialects::cuda::launch_bounds(ctx, op) {
        if let Some(&n) = values.first() {
            let elem = ctx.int_type(32);
            props.push(("maxntid", ctx.attr(AttrKind::DenseArray { elem, values: vec![n] })));
        }
        if let Some(&m) = values.get(1) {
            props.push(("minnctapersm", i32_attr(ctx, m)));
        }
    }
    let loc = ctx.op_loc(op);
    let mut st = state(ctx, "nvvm.func", loc, &[], &[], &props, &[]);
    let region = ctx.create_region();
    st.regions.push(region);
    rw.rw.set_insertion_point_before(op);
    let nf = rw.rw.create(st);
    if has_body {
        move_body(rw, body, region, &new_in, &new_res, sret);
    }
    let ctx = rw.ctx();
    if byval.iter().any(Option::is_some) {
        let a = cuprite_dialects::nvvm::kernel_abi::byval_attr(ctx, &byval);
        ctx.set_attr(nf, cuprite_dialects::nvvm::kernel_abi::BYVAL, a);
    }
    // Inlining hints (`__noinline__`, `__forceinline__`) as LLVM spells them, and no
    // contraction for a `convert-arith-to-nvvm` that runs after this pass.
    cuprite_dialects::hints::copy_function_hints(ctx, op, nf);
    if opts.ftz {
        let unit = ctx.unit_attr();
        ctx.set_attr(nf, crate::FTZ, unit);
    }
    rw.erase_op(op);
    true
}

/// Moves the blocks of `body` into `region` behind a new entry block with the converted
/// parameters `new_in`, which holds the allocas and branches to the old entry (whose
/// arguments are converted, the sret pointer first when `sret`).
fn move_body(
    rw: &mut ConversionRewriter<'_, '_>,
    body: cuprite_ir::RegionId,
    region: cuprite_ir::RegionId,
    new_in: &[TypeId],
    new_res: &[TypeId],
    sret: bool,
) {
    let entry = rw.ctx().create_block(new_in);
    rw.ctx().append_block(region, entry);
    rw.rw.inline_region_before(body, region, 1);
    let ctx = rw.ctx();
    let old_entry = ctx.region_blocks(region)[1];
    // The allocas at the top of the old entry move to the new one.
    while let Some(a) = ctx.first_op(old_entry).filter(|&o| ctx.is_op(o, "nvvm.alloca")) {
        ctx.move_op(a, InsertPoint::end(entry));
    }
    rw.convert_region_types(region);
    let ctx = rw.ctx();
    let blocks: Vec<BlockId> = ctx.region_blocks(region).to_vec();
    if sret {
        let pt = local_ptr(ctx);
        ctx.insert_block_arg(old_entry, 0, pt);
    }
    let args = ctx.block_args(entry).to_vec();
    let loc = ctx.op_loc(ctx.block_parent_op(entry).expect("in the new function"));
    let st = state(ctx, "nvvm.br", loc, &args, &[], &[], &[old_entry]);
    rw.rw.set_insertion_point_to_end(entry);
    rw.rw.create(st);
    // Blocks that end without a terminator: the last returns (a void function falls off its
    // end), the others cannot be left.
    let last = *blocks.last().expect("the old entry at least");
    for &b in &blocks[1..] {
        let ctx = rw.ctx();
        if ctx.terminator(b).is_some() {
            continue;
        }
        let name = if b == last && new_res.is_empty() { "nvvm.return" } else { "nvvm.unreachable" };
        let st = state(ctx, name, loc, &[], &[], &[], &[]);
        rw.rw.set_insertion_point_to_end(b);
        rw.rw.create(st);
    }
}

/// The sret pointer of the `nvvm.func` holding `op`, if it returns through one: the first
/// argument of the block its entry branches to.
fn sret_pointer(ctx: &Context, op: OpId) -> Option<ValueId> {
    let f = enclosing_function(ctx, op).filter(|&f| ctx.is_op(f, "nvvm.func"))?;
    let entry = ctx.entry_block(ctx.region(f, 0))?;
    let br = ctx.terminator(entry).filter(|&t| ctx.is_op(t, "nvvm.br"))?;
    ctx.block_args(ctx.successor(br, 0)).first().copied()
}

fn call(_: &Rule<Options>, _: &Options, op: OpId, operands: &[Vec<ValueId>], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let src_rts: Vec<TypeId> = {
        let ctx = rw.ctx();
        ctx.results(op).iter().map(|&r| ctx.value_type(r)).collect()
    };
    let sret = match src_rts.as_slice() {
        [t] if splits(rw, *t) => Some(*t),
        [t] if layout::is_aggregate(rw.ctx(), *t) => return too_many_scalars(rw),
        _ => None,
    };
    let Some(callee) = cuprite_dialects::func::CallOp(op).callee_attr(rw.ctx()) else { return false };
    let mut ops: Vec<ValueId> = Vec::new();
    let tmp = match sret {
        Some(t) => {
            let (size, align) = layout::size_align(rw.ctx(), t).unwrap_or((1, 1));
            let Some(p) = entry_alloca(rw, op, size, align) else { return false };
            ops.push(p);
            Some(p)
        }
        None => None,
    };
    for g in operands {
        ops.extend(g);
    }
    let rts: Vec<TypeId> = if sret.is_some() { Vec::new() } else { src_rts.iter().map(|&t| rw.convert_type(t)).collect() };
    let loc = rw.ctx().op_loc(op);
    let st = state(rw.ctx(), "nvvm.call", loc, &ops, &rts, &[("callee", callee)], &[]);
    rw.rw.set_insertion_point_before(op);
    let c = rw.rw.create(st);
    match (sret, tmp) {
        (Some(t), Some(p)) => {
            let Some(vals) = super::cuda_to_nvvm::load_leaves(rw, op, p, t, &[]) else { return false };
            rw.replace_op_with_groups(op, &[vals]);
        }
        _ => {
            let rs = rw.ctx().results(c).to_vec();
            rw.replace_op(op, &rs);
        }
    }
    true
}

fn ret(_: &Rule<Options>, _: &Options, op: OpId, operands: &[Vec<ValueId>], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let loc = rw.ctx().op_loc(op);
    let t = {
        let ctx = rw.ctx();
        ctx.operand_vec(op).first().map(|&v| ctx.value_type(v))
    };
    let vals: Vec<ValueId> = match t {
        Some(t) if splits(rw, t) => {
            let Some(p) = sret_pointer(rw.ctx(), op) else { return false };
            if super::cuda_to_nvvm::store_leaves(rw, op, &operands[0], p, t, &[]).is_none() {
                return false;
            }
            Vec::new()
        }
        _ if operands.iter().any(|g| g.len() != 1) => return false,
        _ => operands.iter().map(|g| g[0]).collect(),
    };
    let st = state(rw.ctx(), "nvvm.return", loc, &vals, &[], &[], &[]);
    rw.rw.set_insertion_point_before(op);
    rw.rw.create(st);
    rw.erase_op(op);
    true
}

/// Whether `vals` fit the arguments of block `b`, converting its argument types first if
/// the function's conversion has not (a block other than the entry).
fn fits(rw: &mut ConversionRewriter<'_, '_>, b: BlockId, vals: &[ValueId]) -> bool {
    let same = |ctx: &Context| {
        let args = ctx.block_args(b);
        args.len() == vals.len() && args.iter().zip(vals).all(|(&a, &v)| ctx.value_type(a) == ctx.value_type(v))
    };
    if same(rw.ctx()) {
        return true;
    }
    let ctx = rw.ctx();
    let entry = ctx.block_region(b).and_then(|r| ctx.entry_block(r));
    if entry == Some(b) {
        return false;
    }
    rw.convert_block_types(b);
    same(rw.ctx())
}

fn br(_: &Rule<Options>, _: &Options, op: OpId, operands: &[Vec<ValueId>], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let dest = rw.ctx().successor(op, 0);
    let vals: Vec<ValueId> = operands.iter().flatten().copied().collect();
    if !fits(rw, dest, &vals) {
        return false;
    }
    let loc = rw.ctx().op_loc(op);
    let st = state(rw.ctx(), "nvvm.br", loc, &vals, &[], &[], &[dest]);
    rw.rw.set_insertion_point_before(op);
    let b = rw.rw.create(st);
    if let Some(n) = cuprite_dialects::hints::unroll(rw.ctx(), op) {
        let u = i32_attr(rw.ctx(), n);
        rw.ctx().set_prop(b, "unroll", u);
    }
    rw.erase_op(op);
    true
}

fn cond_br(_: &Rule<Options>, _: &Options, op: OpId, operands: &[Vec<ValueId>], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let ctx = rw.ctx();
    let (t, f) = (ctx.successor(op, 0), ctx.successor(op, 1));
    let nt = ctx.successor_args(op, 0).len();
    let [c] = operands[0].as_slice() else { return false };
    let tv: Vec<ValueId> = operands[1..1 + nt].iter().flatten().copied().collect();
    let fv: Vec<ValueId> = operands[1 + nt..].iter().flatten().copied().collect();
    if !fits(rw, t, &tv) || !fits(rw, f, &fv) {
        return false;
    }
    let ctx = rw.ctx();
    let elem = ctx.int_type(32);
    let segs = ctx.attr(AttrKind::DenseArray { elem, values: vec![1, tv.len() as i64, fv.len() as i64] });
    let mut ops = vec![*c];
    ops.extend(tv);
    ops.extend(fv);
    let loc = ctx.op_loc(op);
    let st = state(ctx, "nvvm.cond_br", loc, &ops, &[], &[("operandSegmentSizes", segs)], &[t, f]);
    rw.rw.set_insertion_point_before(op);
    rw.rw.create(st);
    rw.erase_op(op);
    true
}

fn unreachable(_: &Rule<Options>, _: &Options, op: OpId, _: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let loc = rw.ctx().op_loc(op);
    let st = state(rw.ctx(), "nvvm.unreachable", loc, &[], &[], &[], &[]);
    rw.rw.set_insertion_point_before(op);
    rw.rw.create(st);
    rw.erase_op(op);
    true
}

/// `convert-func-to-nvvm`.
pub struct ConvertFuncToNvvm(pub Options);

impl ConvertFuncToNvvm {
    pub const NAME: &'static str = NAME;
    /// The pass from its pipeline options (`ftz`).
    pub fn from_options(o: &[(String, String)]) -> Result<Self, String> {
        let mut opts = Options::default();
        for (k, v) in o {
            match k.as_str() {
                "ftz" => opts.ftz = crate::passes::parse_bool(NAME, k, v)?,
                _ => return Err(format!("pass '{NAME}' has no option '{k}' (options: ftz)")),
            }
        }
        Ok(ConvertFuncToNvvm(opts))
    }
    /// The options as pipeline text.
    pub fn options(&self) -> String {
        format!("ftz={}", self.0.ftz)
    }
}

impl Pass for ConvertFuncToNvvm {
    fn name(&self) -> &str {
        NAME
    }
    fn options(&self) -> String {
        ConvertFuncToNvvm::options(self)
    }
    fn run(&self, ctx: &mut Context, op: OpId, state: &mut PassState<'_>) -> Result<(), PassFailure> {
        run_patterns(ctx, op, state, NAME, &target(), &nvvm_types(), patterns(self.0))
    }
}
