//! `convert-cuda-gpu-to-nvvm`: the `cuda` dialect's thread-index, barrier, fence, shuffle
//! and vote ops to their `nvvm` ops, as named patterns, inside the `cuda` functions (their
//! operands are scalars, so nothing else has to change around them). The glue arithmetic a
//! pattern needs is `arith` (lowered by `convert-arith-to-nvvm`, which runs after this
//! pass), pointers are moved through `cuda.cast` to `i64` and back: each pattern produces
//! IR of the next level only for the op it owns, the progressive way.
//!
//! - `cuda.special` -> `nvvm.sreg` (the register of the same name; `clock64` 64-bit, the
//!   others 32), resized to the C type;
//! - `cuda.barrier` -> `nvvm.barrier` (`count` is PTX's `popc`; the predicate of
//!   `count`/`and`/`or` made an `i1`, the `__syncwarp` mask an `i32`);
//! - `cuda.fence` -> `nvvm.fence` at the scope (`block` -> `cta`, `device` -> `gpu`,
//!   `system` -> `sys`);
//! - `cuda.shfl` -> `nvvm.shfl` with PTX's packed `c` operand `((32 - width) << 8) | 31`
//!   (no `| 31` for `up`); values narrower than 32 bits go through an `i32`, 64-bit ones as
//!   two 32-bit shuffles;
//! - `cuda.vote` -> `nvvm.vote` (`ballot` an `i32`, the others an `i1` zero-extended);
//! - `cuda.redux` -> `nvvm.redux`, `cuda.match` -> `nvvm.match` (the same kinds and modes);
//! - `cuda.atomic` -> `nvvm.atomicrmw` (PTX has no atomic subtraction: an addition of the
//!   negated value; on floats only addition and exchange), `cuda.atomic_cas` ->
//!   `nvvm.cmpxchg`. Their address becomes an `!llvm.ptr` in its space through a
//!   `builtin.unrealized_conversion_cast` (a materialization, as MLIR's type conversions
//!   make), which folds away when `convert-cuda-to-nvvm` or `convert-func-to-nvvm` lowers the pointer.

use super::{bind, infos, rule, run_patterns, PatternInfo, Rule};
use crate::build::{i32_attr, state};
use cuprite_dialects::cuda::{BarrierKind, FenceScope, ShflMode, SpecialReg, VoteMode};
use cuprite_dialects::nvvm::{BarrierKind as NvvmBarrier, Scope, ShflMode as NvvmShfl, SpecialReg as NvvmReg, VoteMode as NvvmVote};
use cuprite_ir::{
    pass::{Pass, PassFailure, PassState},
    rewrite::conversion::{ConversionPattern, ConversionRewriter, ConversionTarget, TypeConverter},
    AttrId, Context, OpId, TypeId, TypeKind, ValueId,
};

/// The pass name.
pub const NAME: &str = "convert-cuda-gpu-to-nvvm";

/// The pattern set.
static RULES: &[Rule<()>] = &[
    rule("cuda-special-to-nvvm", "cuda.special", "nvvm.sreg", "a thread-index or clock register, resized to the C type", special),
    rule("cuda-barrier-to-nvvm", "cuda.barrier", "nvvm.barrier", "__syncthreads and its count/and/or forms, __syncwarp", barrier),
    rule(
        "cuda-fence-to-nvvm",
        "cuda.fence",
        "nvvm.fence",
        "__threadfence_block/__threadfence/__threadfence_system at cta/gpu/sys scope",
        fence,
    ),
    rule(
        "cuda-shfl-to-nvvm",
        "cuda.shfl",
        "nvvm.shfl",
        "__shfl*_sync with PTX's packed width operand; 64-bit values as two shuffles",
        shfl,
    ),
    rule(
        "cuda-atomic-to-nvvm",
        "cuda.atomic",
        "nvvm.atomicrmw",
        "atomicAdd/Sub/Exch/Min/Max/Inc/Dec/And/Or/Xor (subtraction as the addition of the negation)",
        atomic,
    ),
    rule("cuda-atomic-cas-to-nvvm", "cuda.atomic_cas", "nvvm.cmpxchg", "atomicCAS", atomic_cas),
    rule("cuda-vote-to-nvvm", "cuda.vote", "nvvm.vote", "__all/__any/__uni/__ballot_sync", vote),
    rule("cuda-redux-to-nvvm", "cuda.redux", "nvvm.redux", "__reduce_{add,min,max,and,or,xor}_sync", redux),
    rule("cuda-match-to-nvvm", "cuda.match", "nvvm.match", "__match_any_sync, __match_all_sync", match_lanes),
];

/// The patterns.
pub fn patterns() -> Vec<Box<dyn ConversionPattern>> {
    bind(RULES, ())
}

/// What `--list-patterns` prints for this pass.
pub fn pattern_infos() -> Vec<PatternInfo> {
    infos(NAME, RULES)
}

/// The legality target: the patterns' roots are illegal; nvvm and arith are legal (arith is
/// the next pass's), the rest is left alone.
pub fn target() -> ConversionTarget {
    let mut t = ConversionTarget::new().legal_dialect("nvvm").legal_dialect("arith");
    for r in RULES {
        t = t.illegal_op(r.root);
    }
    t
}

/// Builds ops at the rewriter's insertion point (before the op being converted).
struct B<'r, 'a, 'b> {
    rw: &'r mut ConversionRewriter<'a, 'b>,
    loc: cuprite_ir::LocId,
}

impl B<'_, '_, '_> {
    fn op(&mut self, name: &str, operands: &[ValueId], results: &[TypeId], props: &[(&str, AttrId)]) -> OpId {
        let st = state(self.rw.ctx(), name, self.loc, operands, results, props, &[]);
        self.rw.rw.create(st)
    }
    fn op1(&mut self, name: &str, operands: &[ValueId], result: TypeId, props: &[(&str, AttrId)]) -> ValueId {
        let o = self.op(name, operands, &[result], props);
        self.rw.ctx().result(o, 0)
    }
    fn int(&mut self, v: i64, t: TypeId) -> ValueId {
        let a = self.rw.ctx().int_attr(v as i128, t);
        self.op1("arith.constant", &[], t, &[("value", a)])
    }
    fn width(&mut self, t: TypeId) -> u32 {
        crate::nvvm_to_ptx::width(self.rw.ctx(), t)
    }
    /// Integer `v` resized (zero-extended or truncated) to `to`.
    fn resize(&mut self, v: ValueId, to: TypeId) -> ValueId {
        let from = self.rw.ctx().value_type(v);
        let (a, b) = (self.width(from), self.width(to));
        match a.cmp(&b) {
            std::cmp::Ordering::Equal => v,
            std::cmp::Ordering::Less => self.op1("arith.extui", &[v], to, &[]),
            std::cmp::Ordering::Greater => self.op1("arith.trunci", &[v], to, &[]),
        }
    }
}

fn builder<'r, 'a, 'b>(rw: &'r mut ConversionRewriter<'a, 'b>, op: OpId) -> B<'r, 'a, 'b> {
    let loc = rw.ctx().op_loc(op);
    B { rw, loc }
}

fn result_type(ctx: &mut Context, op: OpId) -> Option<TypeId> {
    ctx.results(op).first().map(|&r| ctx.value_type(r))
}

fn special(_: &Rule<()>, _: &(), op: OpId, _: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let Some(reg) = cuprite_dialects::cuda::SpecialOp(op).reg(rw.ctx()) else { return false };
    let Some(nreg) = NvvmReg::from_keyword(reg.keyword()) else { return false };
    let Some(rt) = result_type(rw.ctx(), op) else { return false };
    let w = if reg == SpecialReg::Clock64 { 64 } else { 32 };
    let t = rw.ctx().int_type(w);
    let a = i32_attr(rw.ctx(), nreg as i64);
    let mut b = builder(rw, op);
    let v = b.op1("nvvm.sreg", &[], t, &[("reg", a)]);
    let v = b.resize(v, rt);
    rw.replace_op(op, &[v]);
    true
}

fn barrier(_: &Rule<()>, _: &(), op: OpId, operands: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let Some(kind) = cuprite_dialects::cuda::BarrierOp(op).kind(rw.ctx()) else { return false };
    let nkind = match kind {
        BarrierKind::Sync => NvvmBarrier::Sync,
        BarrierKind::Count => NvvmBarrier::Popc,
        BarrierKind::And => NvvmBarrier::And,
        BarrierKind::Or => NvvmBarrier::Or,
        BarrierKind::Warp => NvvmBarrier::Warp,
    };
    let rt = result_type(rw.ctx(), op);
    let k = i32_attr(rw.ctx(), nkind as i64);
    let mut b = builder(rw, op);
    let ops: Vec<ValueId> = match (kind, operands.first()) {
        (BarrierKind::Count | BarrierKind::And | BarrierKind::Or, Some(&p)) => {
            let t = b.rw.ctx().value_type(p);
            if b.width(t) == 1 {
                vec![p]
            } else {
                let z = b.int(0, t);
                let i1 = b.rw.ctx().i1();
                let i64t = b.rw.ctx().i64();
                let ne = b.rw.ctx().int_attr(cuprite_dialects::arith::CmpIPredicate::Ne as i128, i64t);
                vec![b.op1("arith.cmpi", &[p, z], i1, &[("predicate", ne)])]
            }
        }
        (BarrierKind::Warp, Some(&m)) => {
            let i32t = b.rw.ctx().i32();
            vec![b.resize(m, i32t)]
        }
        _ => vec![],
    };
    match rt {
        Some(rt) => {
            let i32t = b.rw.ctx().i32();
            let r = b.op1("nvvm.barrier", &ops, i32t, &[("kind", k)]);
            let r = b.resize(r, rt);
            rw.replace_op(op, &[r]);
        }
        None => {
            b.op("nvvm.barrier", &ops, &[], &[("kind", k)]);
            rw.erase_op(op);
        }
    }
    true
}

fn fence(_: &Rule<()>, _: &(), op: OpId, _: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let scope = atomic_scope(cuprite_dialects::cuda::FenceOp(op).scope(rw.ctx()));
    let s = i32_attr(rw.ctx(), scope as i64);
    let mut b = builder(rw, op);
    b.op("nvvm.fence", &[], &[], &[("scope", s)]);
    rw.erase_op(op);
    true
}

fn shfl(_: &Rule<()>, _: &(), op: OpId, operands: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let Some(mode) = cuprite_dialects::cuda::ShflOp(op).mode(rw.ctx()) else { return false };
    let nmode = match mode {
        ShflMode::Idx => NvvmShfl::Idx,
        ShflMode::Up => NvvmShfl::Up,
        ShflMode::Down => NvvmShfl::Down,
        ShflMode::Bfly => NvvmShfl::Bfly,
    };
    let (mask, v, lane, width) = (operands[0], operands[1], operands[2], operands[3]);
    let m = i32_attr(rw.ctx(), nmode as i64);
    let mut b = builder(rw, op);
    let i32t = b.rw.ctx().i32();
    let i64t = b.rw.ctx().i64();
    // PTX's c operand: ((32 - width) << 8) | 31, without the 31 for `up`.
    let c32 = b.int(32, i32t);
    let seg = b.op1("arith.subi", &[c32, width], i32t, &[]);
    let c8 = b.int(8, i32t);
    let mut clamp = b.op1("arith.shli", &[seg, c8], i32t, &[]);
    if mode != ShflMode::Up {
        let c31 = b.int(31, i32t);
        clamp = b.op1("arith.ori", &[clamp, c31], i32t, &[]);
    }
    let t = b.rw.ctx().value_type(v);
    let is_ptr = cuprite_dialects::cuda::types::is_ptr(b.rw.ctx(), t);
    let is_float = matches!(b.rw.ctx().type_kind(t), TypeKind::Float(_));
    let w = if is_ptr { 64 } else { b.width(t) };
    let shuffle = |b: &mut B<'_, '_, '_>, x: ValueId, t: TypeId| b.op1("nvvm.shfl", &[mask, x, lane, clamp], t, &[("mode", m)]);
    let r = if w == 32 {
        shuffle(&mut b, v, t)
    } else if w < 32 {
        // Through an i32: the bits zero-extended, the result truncated back.
        let it = b.rw.ctx().int_type(w);
        let bits = if is_float { b.op1("arith.bitcast", &[v], it, &[]) } else { v };
        let wide = b.op1("arith.extui", &[bits], i32t, &[]);
        let r = shuffle(&mut b, wide, i32t);
        let r = b.op1("arith.trunci", &[r], it, &[]);
        if is_float {
            b.op1("arith.bitcast", &[r], t, &[])
        } else {
            r
        }
    } else {
        // Two 32-bit shuffles of the halves.
        let bits = if is_ptr {
            let k = i32_attr(b.rw.ctx(), cuprite_dialects::cuda::CastKind::PtrToInt as i64);
            b.op1("cuda.cast", &[v], i64t, &[("kind", k)])
        } else if is_float {
            b.op1("arith.bitcast", &[v], i64t, &[])
        } else {
            v
        };
        let lo = b.op1("arith.trunci", &[bits], i32t, &[]);
        let c32l = b.int(32, i64t);
        let hi = b.op1("arith.shrui", &[bits, c32l], i64t, &[]);
        let hi = b.op1("arith.trunci", &[hi], i32t, &[]);
        let lo = shuffle(&mut b, lo, i32t);
        let hi = shuffle(&mut b, hi, i32t);
        let lo = b.op1("arith.extui", &[lo], i64t, &[]);
        let hi = b.op1("arith.extui", &[hi], i64t, &[]);
        let hi = b.op1("arith.shli", &[hi, c32l], i64t, &[]);
        let r = b.op1("arith.ori", &[lo, hi], i64t, &[]);
        if is_ptr {
            let k = i32_attr(b.rw.ctx(), cuprite_dialects::cuda::CastKind::IntToPtr as i64);
            b.op1("cuda.cast", &[r], t, &[("kind", k)])
        } else if is_float {
            b.op1("arith.bitcast", &[r], t, &[])
        } else {
            r
        }
    };
    rw.replace_op(op, &[r]);
    true
}

fn vote(_: &Rule<()>, _: &(), op: OpId, operands: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let Some(mode) = cuprite_dialects::cuda::VoteOp(op).mode(rw.ctx()) else { return false };
    let nmode = match mode {
        VoteMode::All => NvvmVote::All,
        VoteMode::Any => NvvmVote::Any,
        VoteMode::Uni => NvvmVote::Uni,
        VoteMode::Ballot => NvvmVote::Ballot,
    };
    let Some(rt) = result_type(rw.ctx(), op) else { return false };
    let m = i32_attr(rw.ctx(), nmode as i64);
    let mut b = builder(rw, op);
    let r = if mode == VoteMode::Ballot {
        let i32t = b.rw.ctx().i32();
        let r = b.op1("nvvm.vote", &[operands[0], operands[1]], i32t, &[("mode", m)]);
        b.resize(r, rt)
    } else {
        let i1 = b.rw.ctx().i1();
        let r = b.op1("nvvm.vote", &[operands[0], operands[1]], i1, &[("mode", m)]);
        b.op1("arith.extui", &[r], rt, &[])
    };
    rw.replace_op(op, &[r]);
    true
}

/// The kinds number alike in both dialects.
fn redux(_: &Rule<()>, _: &(), op: OpId, operands: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let Some(k) = cuprite_dialects::cuda::ReduxOp(op).kind(rw.ctx()) else { return false };
    let ka = i32_attr(rw.ctx(), k as i64);
    let i32t = rw.ctx().i32();
    let r = builder(rw, op).op1(cuprite_dialects::nvvm::ReduxOp::NAME, &[operands[0], operands[1]], i32t, &[("kind", ka)]);
    rw.replace_op(op, &[r]);
    true
}

fn match_lanes(_: &Rule<()>, _: &(), op: OpId, operands: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let Some(mode) = cuprite_dialects::cuda::MatchOp(op).mode(rw.ctx()) else { return false };
    let m = i32_attr(rw.ctx(), mode as i64);
    let i32t = rw.ctx().i32();
    let r = builder(rw, op).op1(cuprite_dialects::nvvm::MatchOp::NAME, &[operands[0], operands[1]], i32t, &[("mode", m)]);
    rw.replace_op(op, &[r]);
    true
}

/// `!llvm.ptr<N>` for cuda pointer value `p`, through a materialization cast.
fn nvvm_pointer(b: &mut B<'_, '_, '_>, p: ValueId) -> Option<ValueId> {
    let t = b.rw.ctx().value_type(p);
    let space = match cuprite_dialects::cuda::types::decode(b.rw.ctx(), t)? {
        cuprite_dialects::cuda::types::Decoded::Ptr { space, .. } => space,
        _ => return None,
    };
    let pt = b.rw.ctx().ty(TypeKind::Pointer { addr_space: crate::build::space_num(space) });
    Some(b.op1(cuprite_ir::rewrite::conversion::CAST_OP, &[p], pt, &[]))
}

/// The nvvm scope of a fence's or an atomic's (`_block`, none: the device, `_system`).
fn atomic_scope(s: Option<FenceScope>) -> Scope {
    match s {
        Some(FenceScope::Block) => Scope::Cta,
        Some(FenceScope::Device) | None => Scope::Gpu,
        Some(FenceScope::System) => Scope::Sys,
    }
}

fn atomic(_: &Rule<()>, _: &(), op: OpId, operands: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    use cuprite_dialects::cuda::AtomicKind as K;
    use cuprite_dialects::nvvm::RmwKind as R;
    let a = cuprite_dialects::cuda::AtomicOp(op);
    let Some(kind) = a.kind(rw.ctx()) else { return false };
    let scope = atomic_scope(a.scope(rw.ctx()));
    let t = rw.ctx().value_type(operands[1]);
    let float = matches!(rw.ctx().type_kind(t), TypeKind::Float(_));
    let k = match kind {
        K::Add if float => R::Fadd,
        K::Add | K::Sub => R::Add,
        K::Exch => R::Exch,
        K::Min => R::Smin,
        K::Umin => R::Umin,
        K::Max => R::Smax,
        K::Umax => R::Umax,
        K::Inc => R::Inc,
        K::Dec => R::Dec,
        K::And => R::And,
        K::Or => R::Or,
        K::Xor => R::Xor,
    };
    let k = if float && kind == K::Sub { R::Fadd } else { k };
    // PTX's float atomics: addition and exchange only (a diagnostic at the op otherwise).
    if float && !matches!(k, R::Fadd | R::Exch) {
        return false;
    }
    let ka = i32_attr(rw.ctx(), k as i64);
    let sa = i32_attr(rw.ctx(), scope as i64);
    let mut b = builder(rw, op);
    let Some(p) = nvvm_pointer(&mut b, operands[0]) else { return false };
    let mut x = operands[1];
    if kind == K::Sub {
        x = if float {
            b.op1("arith.negf", &[x], t, &[])
        } else {
            let z = b.int(0, t);
            b.op1("arith.subi", &[z, x], t, &[])
        };
    }
    let r = b.op1("nvvm.atomicrmw", &[p, x], t, &[("kind", ka), ("scope", sa)]);
    rw.replace_op(op, &[r]);
    true
}

fn atomic_cas(_: &Rule<()>, _: &(), op: OpId, operands: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let scope = atomic_scope(cuprite_dialects::cuda::AtomicCasOp(op).scope(rw.ctx()));
    let t = rw.ctx().value_type(operands[1]);
    let sa = i32_attr(rw.ctx(), scope as i64);
    let mut b = builder(rw, op);
    let Some(p) = nvvm_pointer(&mut b, operands[0]) else { return false };
    let r = b.op1("nvvm.cmpxchg", &[p, operands[1], operands[2]], t, &[("scope", sa)]);
    rw.replace_op(op, &[r]);
    true
}

/// `convert-cuda-gpu-to-nvvm`.
pub struct ConvertCudaGpuToNvvm;

impl ConvertCudaGpuToNvvm {
    pub const NAME: &'static str = NAME;
}

impl Pass for ConvertCudaGpuToNvvm {
    fn name(&self) -> &str {
        NAME
    }
    fn run(&self, ctx: &mut Context, op: OpId, state: &mut PassState<'_>) -> Result<(), PassFailure> {
        run_patterns(ctx, op, state, NAME, &target(), &TypeConverter::new(), patterns())
    }
}
