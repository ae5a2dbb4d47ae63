//! `convert-cuda-pointers-to-nvvm`: pointer arithmetic, comparisons and conversions, from
//! `cuda` to `nvvm`, as named patterns with a type converter (`!cuda.ptr<T, space>` to
//! `!llvm.ptr<N>`, NVPTX's address-space numbers).
//!
//! `cuda.ptr_add` scales its index by the pointee's size (from the dialect's data layout),
//! `cuda.ptr_diff` divides the address difference by it, `cuda.member_addr` adds the
//! field's offset, `cuda.ptr_cmp` compares addresses unsigned, and `cuda.cast` becomes
//! `addrspacecast`, `ptrtoint` or `inttoptr` (integers resized as C converts them). Where a
//! converted pointer meets an op this pass leaves (`cuda.load`, a function argument), a
//! materialization cast joins the two types; it folds away once the pass that lowers the
//! other side (`convert-cuda-to-nvvm`, `convert-func-to-nvvm`) has run.

use super::{bind, emit, infos, int_const, rule, run_patterns, PatternInfo, Rule};
use crate::build::{i32_attr, space_num};
use crate::nvvm_to_ptx::width;
use cuprite_dialects::cuda::{
    layout,
    types::{decode, Decoded},
    CastKind, CastOp, CmpKind, MemberAddrOp, PtrCmpOp,
};
use cuprite_dialects::nvvm::ICmpPredicate;
use cuprite_ir::{
    pass::{Pass, PassFailure, PassState},
    rewrite::conversion::{ConversionPattern, ConversionRewriter, ConversionTarget, TypeConverter},
    Context, OpId, TypeId, TypeKind, ValueId,
};

/// The pass name.
pub const NAME: &str = "convert-cuda-pointers-to-nvvm";

/// The pattern set.
static RULES: &[Rule<()>] = &[
    rule("cuda-null-to-nvvm", "cuda.null", "nvvm.null", "the null pointer", null),
    rule(
        "cuda-ptr-add-to-nvvm",
        "cuda.ptr_add",
        "nvvm.ptradd",
        "p + i: the index (sign-extended to 64 bits) times the pointee's size",
        ptr_add,
    ),
    rule(
        "cuda-ptr-diff-to-nvvm",
        "cuda.ptr_diff",
        "nvvm.sub",
        "p - q: the address difference divided by the pointee's size, resized to the result",
        ptr_diff,
    ),
    rule(
        "cuda-member-addr-to-nvvm",
        "cuda.member_addr",
        "nvvm.ptradd",
        "&s->f: the field's offset added (none for the first)",
        member_addr,
    ),
    rule("cuda-ptr-cmp-to-nvvm", "cuda.ptr_cmp", "nvvm.icmp", "pointer comparisons: the addresses compared unsigned", ptr_cmp),
    rule(
        "cuda-cast-to-nvvm",
        "cuda.cast",
        "nvvm.addrspacecast",
        "pointer casts and array decay (addrspacecast across spaces), pointer <-> integer (ptrtoint/inttoptr)",
        cast,
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

/// Whether this pass lowers op `name`.
pub fn lowers(name: &str) -> bool {
    RULES.iter().any(|r| r.root == name)
}

/// `!cuda.ptr<T, space>` as the nvvm pointer of that space.
pub fn type_converter() -> TypeConverter {
    let mut t = TypeConverter::new();
    t.add(|ctx, ty| match decode(ctx, ty)? {
        Decoded::Ptr { space, .. } => Some(ctx.ty(TypeKind::Pointer { addr_space: space_num(space) })),
        _ => None,
    });
    t
}

/// The legality target: the ops the patterns lower are illegal, nvvm is legal.
pub fn target() -> ConversionTarget {
    RULES.iter().fold(ConversionTarget::new().legal_dialect("nvvm"), |t, r| t.illegal_op(r.root))
}

/// Integer `v` of type `from` as type `to`: trunc, sext/zext, or itself.
fn resize(rw: &mut ConversionRewriter<'_, '_>, op: OpId, v: ValueId, from: TypeId, to: TypeId, signed: bool) -> ValueId {
    let (a, b) = (width(rw.ctx(), from), width(rw.ctx(), to));
    if a == b {
        v
    } else if a > b {
        emit(rw, op, "nvvm.trunc", &[v], to, &[])
    } else if signed && a > 1 {
        emit(rw, op, "nvvm.sext", &[v], to, &[])
    } else {
        emit(rw, op, "nvvm.zext", &[v], to, &[])
    }
}

/// The size of the pointee of cuda pointer type `t`.
fn pointee_size(ctx: &mut Context, t: TypeId) -> Option<u64> {
    let p = layout::pointee(ctx, t)?;
    layout::size_align(ctx, p).map(|s| s.0)
}

/// The converted type of `op`'s result.
fn result_type(rw: &mut ConversionRewriter<'_, '_>, op: OpId) -> TypeId {
    let ctx = rw.ctx();
    let t = ctx.value_type(ctx.result(op, 0));
    rw.convert_type(t)
}

fn null(_: &Rule<()>, _: &(), op: OpId, _: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let t = result_type(rw, op);
    let v = emit(rw, op, "nvvm.null", &[], t, &[]);
    rw.replace_op(op, &[v]);
    true
}

fn ptr_add(_: &Rule<()>, _: &(), op: OpId, operands: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let bt = {
        let ctx = rw.ctx();
        ctx.value_type(ctx.operand(op, 0))
    };
    // An incomplete pointee: left for convert-cuda-to-nvvm's diagnostic.
    let Some(size) = pointee_size(rw.ctx(), bt) else { return false };
    let i64t = rw.ctx().i64();
    let it = rw.ctx().value_type(operands[1]);
    let off = resize(rw, op, operands[1], it, i64t, true);
    let off = if size == 1 {
        off
    } else {
        let s = int_const(rw, op, size as i64, i64t);
        emit(rw, op, "nvvm.mul", &[off, s], i64t, &[])
    };
    let t = rw.ctx().value_type(operands[0]);
    let v = emit(rw, op, "nvvm.ptradd", &[operands[0], off], t, &[]);
    rw.replace_op(op, &[v]);
    true
}

fn ptr_diff(_: &Rule<()>, _: &(), op: OpId, operands: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let bt = {
        let ctx = rw.ctx();
        ctx.value_type(ctx.operand(op, 0))
    };
    let size = pointee_size(rw.ctx(), bt).map_or(1, |s| s.max(1));
    let i64t = rw.ctx().i64();
    let a = emit(rw, op, "nvvm.ptrtoint", &[operands[0]], i64t, &[]);
    let b = emit(rw, op, "nvvm.ptrtoint", &[operands[1]], i64t, &[]);
    let d = emit(rw, op, "nvvm.sub", &[a, b], i64t, &[]);
    let d = if size == 1 {
        d
    } else {
        let s = int_const(rw, op, size as i64, i64t);
        emit(rw, op, "nvvm.sdiv", &[d, s], i64t, &[])
    };
    let rt = result_type(rw, op);
    let v = resize(rw, op, d, i64t, rt, true);
    rw.replace_op(op, &[v]);
    true
}

fn member_addr(_: &Rule<()>, _: &(), op: OpId, operands: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let bt = {
        let ctx = rw.ctx();
        ctx.value_type(ctx.operand(op, 0))
    };
    let index = MemberAddrOp(op).index(rw.ctx()).unwrap_or(0) as usize;
    let ctx = rw.ctx();
    // An incomplete struct: left for convert-cuda-to-nvvm's diagnostic.
    let Some((off, _)) = layout::pointee(ctx, bt).and_then(|s| layout::field(ctx, s, index)) else { return false };
    let v = if off == 0 {
        operands[0]
    } else {
        let i64t = rw.ctx().i64();
        let o = int_const(rw, op, off as i64, i64t);
        let t = rw.ctx().value_type(operands[0]);
        emit(rw, op, "nvvm.ptradd", &[operands[0], o], t, &[])
    };
    rw.replace_op(op, &[v]);
    true
}

fn ptr_cmp(_: &Rule<()>, _: &(), op: OpId, operands: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let Some(kind) = PtrCmpOp(op).kind(rw.ctx()) else { return false };
    let p = match kind {
        CmpKind::Eq => ICmpPredicate::Eq,
        CmpKind::Ne => ICmpPredicate::Ne,
        CmpKind::Lt => ICmpPredicate::Ult,
        CmpKind::Le => ICmpPredicate::Ule,
        CmpKind::Gt => ICmpPredicate::Ugt,
        CmpKind::Ge => ICmpPredicate::Uge,
    };
    let pa = i32_attr(rw.ctx(), p as i64);
    let i1 = rw.ctx().i1();
    let v = emit(rw, op, "nvvm.icmp", &[operands[0], operands[1]], i1, &[("predicate", pa)]);
    rw.replace_op(op, &[v]);
    true
}

fn cast(_: &Rule<()>, _: &(), op: OpId, operands: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let Some(kind) = CastOp(op).kind(rw.ctx()) else { return false };
    let x = operands[0];
    let from = rw.ctx().value_type(x);
    let to = result_type(rw, op);
    let i64t = rw.ctx().i64();
    let v = match kind {
        CastKind::PtrCast | CastKind::ArrayDecay if from == to => x,
        CastKind::PtrCast | CastKind::ArrayDecay => emit(rw, op, "nvvm.addrspacecast", &[x], to, &[]),
        CastKind::PtrToInt => {
            let v = emit(rw, op, "nvvm.ptrtoint", &[x], i64t, &[]);
            resize(rw, op, v, i64t, to, false)
        }
        CastKind::IntToPtr => {
            let v = resize(rw, op, x, from, i64t, false);
            emit(rw, op, "nvvm.inttoptr", &[v], to, &[])
        }
    };
    rw.replace_op(op, &[v]);
    true
}

/// `convert-cuda-pointers-to-nvvm`.
pub struct ConvertCudaPointersToNvvm;

impl ConvertCudaPointersToNvvm {
    pub const NAME: &'static str = NAME;
}

impl Pass for ConvertCudaPointersToNvvm {
    fn name(&self) -> &str {
        NAME
    }
    fn run(&self, ctx: &mut Context, op: OpId, state: &mut PassState<'_>) -> Result<(), PassFailure> {
        run_patterns(ctx, op, state, NAME, &target(), &type_converter(), patterns())
    }
}
