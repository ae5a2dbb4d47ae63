//! `convert-cuda-intrinsics-to-nvvm`: the CUDA built-in functions that have a PTX
//! instruction of their accuracy, from `cuda.intrinsic` to `nvvm`, as named patterns.
//!
//! One table (`INTRINSICS`) says how each built-in lowers: to one nvvm intrinsic
//! (`__popc` -> `popc`, `__sinf` -> `sin.approx`, `hsqrt` -> `sqrt.rn`), to a short sequence
//! (`__expf`, `__logf`, `__ffs`, `abs`), to `nvvm.activemask`, or to a bit cast
//! (`__int_as_float`); the rounded arithmetic and conversions (`__fadd_rz`,
//! `__float2int_rd`) come from [`cuprite_dialects::nvvm::rounding`]. Every other
//! `cuda.intrinsic` is legal here: the math library's functions (`expf`, after
//! `link-math-library` a call), and `__trap`, which ends its block (`convert-cuda-to-nvvm`).

use super::{bind, emit, infos, int_const, run_patterns, PatternInfo, Rule};
use cuprite_dialects::nvvm::{rounding::Rounded, ICmpPredicate};
use cuprite_ir::{
    pass::{Pass, PassFailure, PassState},
    rewrite::conversion::{ConversionPattern, ConversionRewriter, ConversionTarget, TypeConverter},
    AttrKind, Context, OpId, TypeId, ValueId,
};

/// The pass name.
pub const NAME: &str = "convert-cuda-intrinsics-to-nvvm";

/// How a built-in lowers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lowering {
    /// The nvvm intrinsic of this name on the same operands.
    Intr(&'static str),
    /// `ex2.approx(x * log2(e))`.
    FastExp,
    /// `lg2.approx(x) * ln(2)`.
    FastLog,
    /// `x == 0 ? 0 : clz(brev(x)) + 1`.
    Ffs,
    /// `x < 0 ? 0 - x : x`.
    Abs,
    /// `prmt(x, y, s & 0x7777)`.
    BytePerm,
    /// `nvvm.activemask`.
    ActiveMask,
    /// `nvvm.bitcast` (same bits, another type).
    Bitcast,
}

/// Which pattern lowers a built-in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Family {
    Half,
    Bf16,
    FastMath,
    Bits,
    Warp,
    Reinterpret,
}

/// Every built-in this pass lowers (besides the rounded ones).
const INTRINSICS: &[(&str, Family, Lowering)] = {
    use Family::*;
    use Lowering::*;
    &[
        ("hsqrt", Half, Intr("sqrt.rn")),
        ("hrsqrt", Half, Intr("rsqrt.approx")),
        ("__habs", Half, Intr("abs")),
        ("__hmin", Half, Intr("min")),
        ("__hmax", Half, Intr("max")),
        ("__hfma", Half, Intr("fma.rn")),
        ("hrcp", Half, Intr("rcp.rn")),
        ("hexp2", Half, Intr("ex2.approx")),
        ("hlog2", Half, Intr("lg2.approx")),
        ("hsin", Half, Intr("sin.approx")),
        ("hcos", Half, Intr("cos.approx")),
        ("htrunc", Half, Intr("trunc")),
        ("hfloor", Half, Intr("floor")),
        ("hceil", Half, Intr("ceil")),
        ("hrint", Half, Intr("rint")),
        ("rsqrtf", FastMath, Intr("rsqrt.approx")),
        ("__saturatef", FastMath, Intr("saturate")),
        ("__fdividef", FastMath, Intr("div.full")),
        ("__sinf", FastMath, Intr("sin.approx")),
        ("__cosf", FastMath, Intr("cos.approx")),
        ("__exp2f", FastMath, Intr("ex2.approx")),
        ("__log2f", FastMath, Intr("lg2.approx")),
        ("__expf", FastMath, FastExp),
        ("__logf", FastMath, FastLog),
        ("__cuprite_cvt_rn_bf16_f32", Bf16, Intr("cvt.rn.bf16.f32")),
        ("__cuprite_cvt_f32_bf16", Bf16, Intr("cvt.f32.bf16")),
        ("__cuprite_add_rn_bf16", Bf16, Intr("add.rn.bf16")),
        ("__cuprite_sub_rn_bf16", Bf16, Intr("sub.rn.bf16")),
        ("__cuprite_mul_rn_bf16", Bf16, Intr("mul.rn.bf16")),
        ("__cuprite_fma_rn_bf16", Bf16, Intr("fma.rn.bf16")),
        ("__cuprite_cvt_rz_bf16_f32", Bf16, Intr("cvt.rz.bf16.f32")),
        ("__cuprite_cvt_rm_bf16_f32", Bf16, Intr("cvt.rm.bf16.f32")),
        ("__cuprite_cvt_rp_bf16_f32", Bf16, Intr("cvt.rp.bf16.f32")),
        ("__cuprite_cvt_rn_bf16_f64", Bf16, Intr("cvt.rn.bf16.f64")),
        ("__cuprite_cvt_rn_bf16_s32", Bf16, Intr("cvt.rn.bf16.s32")),
        ("__cuprite_cvt_rn_bf16_u32", Bf16, Intr("cvt.rn.bf16.u32")),
        ("__cuprite_cvt_rn_bf16_s64", Bf16, Intr("cvt.rn.bf16.s64")),
        ("__cuprite_cvt_rn_bf16_u64", Bf16, Intr("cvt.rn.bf16.u64")),
        ("__cuprite_cvt_rz_bf16_f64", Bf16, Intr("cvt.rz.bf16.f64")),
        ("__cuprite_cvt_rz_bf16_s32", Bf16, Intr("cvt.rz.bf16.s32")),
        ("__cuprite_cvt_rz_bf16_u32", Bf16, Intr("cvt.rz.bf16.u32")),
        ("__cuprite_cvt_rz_bf16_s64", Bf16, Intr("cvt.rz.bf16.s64")),
        ("__cuprite_cvt_rz_bf16_u64", Bf16, Intr("cvt.rz.bf16.u64")),
        ("__cuprite_cvt_rm_bf16_f64", Bf16, Intr("cvt.rm.bf16.f64")),
        ("__cuprite_cvt_rm_bf16_s32", Bf16, Intr("cvt.rm.bf16.s32")),
        ("__cuprite_cvt_rm_bf16_u32", Bf16, Intr("cvt.rm.bf16.u32")),
        ("__cuprite_cvt_rm_bf16_s64", Bf16, Intr("cvt.rm.bf16.s64")),
        ("__cuprite_cvt_rm_bf16_u64", Bf16, Intr("cvt.rm.bf16.u64")),
        ("__cuprite_cvt_rp_bf16_f64", Bf16, Intr("cvt.rp.bf16.f64")),
        ("__cuprite_cvt_rp_bf16_s32", Bf16, Intr("cvt.rp.bf16.s32")),
        ("__cuprite_cvt_rp_bf16_u32", Bf16, Intr("cvt.rp.bf16.u32")),
        ("__cuprite_cvt_rp_bf16_s64", Bf16, Intr("cvt.rp.bf16.s64")),
        ("__cuprite_cvt_rp_bf16_u64", Bf16, Intr("cvt.rp.bf16.u64")),
        ("__cuprite_max_bf16", Bf16, Intr("max.bf16")),
        ("__cuprite_min_bf16", Bf16, Intr("min.bf16")),
        ("__popc", Bits, Intr("popc")),
        ("__popcll", Bits, Intr("popc")),
        ("__clz", Bits, Intr("clz")),
        ("__clzll", Bits, Intr("clz")),
        ("__brev", Bits, Intr("brev")),
        ("__brevll", Bits, Intr("brev")),
        ("__mul24", Bits, Intr("mul24")),
        ("__umul24", Bits, Intr("umul24")),
        ("__mulhi", Bits, Intr("mulhi")),
        ("__mul64hi", Bits, Intr("mulhi")),
        ("__umulhi", Bits, Intr("umulhi")),
        ("__umul64hi", Bits, Intr("umulhi")),
        ("__byte_perm", Bits, BytePerm),
        ("__dp4a", Bits, Intr("dp4a.s32.s32")),
        ("__cuprite_udp4a", Bits, Intr("dp4a.u32.u32")),
        ("__funnelshift_l", Bits, Intr("shf.l.wrap")),
        ("__funnelshift_r", Bits, Intr("shf.r.wrap")),
        ("__funnelshift_lc", Bits, Intr("shf.l.clamp")),
        ("__funnelshift_rc", Bits, Intr("shf.r.clamp")),
        ("__ffs", Bits, Ffs),
        ("__ffsll", Bits, Ffs),
        ("abs", Bits, Abs),
        ("labs", Bits, Abs),
        ("llabs", Bits, Abs),
        ("__activemask", Warp, ActiveMask),
        ("__int_as_float", Reinterpret, Bitcast),
        ("__float_as_int", Reinterpret, Bitcast),
        ("__uint_as_float", Reinterpret, Bitcast),
        ("__float_as_uint", Reinterpret, Bitcast),
        ("__longlong_as_double", Reinterpret, Bitcast),
        ("__double_as_longlong", Reinterpret, Bitcast),
        ("__half_as_ushort", Reinterpret, Bitcast),
        ("__half_as_short", Reinterpret, Bitcast),
        ("__ushort_as_half", Reinterpret, Bitcast),
        ("__short_as_half", Reinterpret, Bitcast),
    ]
};

/// The rule each family is (the rounded built-ins have their own).
const fn family(name: &'static str, summary: &'static str, lower: super::Lower<()>) -> Rule<()> {
    Rule { name, root: "cuda.intrinsic", target: "nvvm", benefit: 1, summary, lower, groups: None }
}

/// The pattern set.
static RULES: &[Rule<()>] = &[
    family(
        "intrinsic-rounded-to-nvvm",
        "__fadd_rz, __fmul_rd, __fsqrt_rn, __float2int_ru, ...: the instruction with that rounding",
        rounded,
    ),
    family("intrinsic-half-to-nvvm", "hsqrt, __hfma, hexp2, hfloor, ...: the f16 instruction", |_, _, op, o, rw| {
        lower(Family::Half, op, o, rw)
    }),
    family(
        "intrinsic-bf16-to-nvvm",
        "cuda_bf16.h's instructions (cvt.rn.bf16.f32, add.rn.bf16, fma.rn.bf16, ...) on bfloat16 bits",
        |_, _, op, o, rw| lower(Family::Bf16, op, o, rw),
    ),
    family(
        "intrinsic-fast-math-to-nvvm",
        "__sinf, __expf, __fdividef, rsqrtf, __saturatef, ...: the approximate instructions",
        |_, _, op, o, rw| lower(Family::FastMath, op, o, rw),
    ),
    family(
        "intrinsic-bits-to-nvvm",
        "__popc, __clz, __brev, __ffs, __mul24, __mulhi, __byte_perm, __funnelshift_l, abs: integer bit and multiply instructions",
        |_, _, op, o, rw| lower(Family::Bits, op, o, rw),
    ),
    family("intrinsic-activemask-to-nvvm", "__activemask: nvvm.activemask", |_, _, op, o, rw| lower(Family::Warp, op, o, rw)),
    family(
        "intrinsic-reinterpret-to-nvvm",
        "__int_as_float, __double_as_longlong, __half_as_ushort, ...: a bit cast",
        |_, _, op, o, rw| lower(Family::Reinterpret, op, o, rw),
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

/// Whether this pass lowers built-in `name`.
pub fn handles(name: &str) -> bool {
    Rounded::from_cuda(name).is_some() || INTRINSICS.iter().any(|(n, _, _)| *n == name)
}

/// The legality target: the built-ins of the table (and the rounded ones) are illegal;
/// nvvm is legal; everything else is left alone.
pub fn target() -> ConversionTarget {
    ConversionTarget::new()
        .legal_dialect("nvvm")
        .dynamic_op("cuda.intrinsic", |ctx, op| !cuprite_dialects::cuda::IntrinsicOp(op).name(ctx).is_some_and(handles))
}

fn intr(rw: &mut ConversionRewriter<'_, '_>, op: OpId, name: &str, operands: &[ValueId], t: TypeId) -> ValueId {
    let n = rw.ctx().str_attr(name);
    emit(rw, op, "nvvm.intr", operands, t, &[("name", n)])
}

fn float_const(rw: &mut ConversionRewriter<'_, '_>, op: OpId, v: f64, t: TypeId) -> ValueId {
    let ctx = rw.ctx();
    let bits = if matches!(ctx.type_kind(t), cuprite_ir::TypeKind::Float(cuprite_ir::FloatKind::F32)) {
        (v as f32).to_bits() as u64
    } else {
        v.to_bits()
    };
    let a = ctx.attr(AttrKind::Float { bits, ty: t });
    emit(rw, op, "nvvm.constant", &[], t, &[("value", a)])
}

fn icmp(rw: &mut ConversionRewriter<'_, '_>, op: OpId, p: ICmpPredicate, a: ValueId, b: ValueId) -> ValueId {
    let pa = crate::build::i32_attr(rw.ctx(), p as i64);
    let i1 = rw.ctx().i1();
    emit(rw, op, "nvvm.icmp", &[a, b], i1, &[("predicate", pa)])
}

/// The built-in's name and result type (`i32` without a result).
fn name_and_type(rw: &mut ConversionRewriter<'_, '_>, op: OpId) -> (String, TypeId) {
    let ctx = rw.ctx();
    let name = cuprite_dialects::cuda::IntrinsicOp(op).name(ctx).unwrap_or_default().to_string();
    let t = match ctx.results(op).first() {
        Some(&r) => ctx.value_type(r),
        None => ctx.i32(),
    };
    (name, t)
}

fn rounded(_: &Rule<()>, _: &(), op: OpId, operands: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let (name, t) = name_and_type(rw, op);
    let Some(r) = Rounded::from_cuda(&name).filter(|r| r.operands() == operands.len()) else { return false };
    let v = intr(rw, op, &r.nvvm_name(), operands, t);
    rw.replace_op(op, &[v]);
    true
}

fn lower(family: Family, op: OpId, ops: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let (name, t) = name_and_type(rw, op);
    let Some(&(_, _, how)) = INTRINSICS.iter().find(|(n, f, _)| *n == name && *f == family) else { return false };
    // A call with the wrong number of arguments is not the built-in's: left as it is, it
    // fails to legalize at its location.
    let arity = match how {
        Lowering::Intr(i) => cuprite_dialects::nvvm::INTRINSICS.iter().find(|(n, _)| *n == i).map_or(ops.len(), |&(_, k)| k),
        Lowering::ActiveMask => 0,
        Lowering::BytePerm => 3,
        _ => 1,
    };
    if ops.len() != arity {
        return false;
    }
    let v = match how {
        Lowering::Intr(i) => intr(rw, op, i, ops, t),
        Lowering::FastExp => {
            let k = float_const(rw, op, std::f64::consts::LOG2_E, t);
            let x = emit(rw, op, "nvvm.fmul", &[ops[0], k], t, &[]);
            intr(rw, op, "ex2.approx", &[x], t)
        }
        Lowering::FastLog => {
            let l = intr(rw, op, "lg2.approx", ops, t);
            let k = float_const(rw, op, std::f64::consts::LN_2, t);
            emit(rw, op, "nvvm.fmul", &[l, k], t, &[])
        }
        Lowering::Ffs => {
            let Some(&x) = ops.first() else { return false };
            let at = rw.ctx().value_type(x);
            let b = intr(rw, op, "brev", ops, at);
            let c = intr(rw, op, "clz", &[b], t);
            let one = int_const(rw, op, 1, t);
            let r = emit(rw, op, "nvvm.add", &[c, one], t, &[]);
            let z = int_const(rw, op, 0, at);
            let is0 = icmp(rw, op, ICmpPredicate::Eq, x, z);
            let z = int_const(rw, op, 0, t);
            emit(rw, op, "nvvm.select", &[is0, z, r], t, &[])
        }
        Lowering::Abs => {
            let Some(&x) = ops.first() else { return false };
            let z = int_const(rw, op, 0, t);
            let n = emit(rw, op, "nvvm.sub", &[z, x], t, &[]);
            let neg = icmp(rw, op, ICmpPredicate::Slt, x, z);
            emit(rw, op, "nvvm.select", &[neg, n, x], t, &[])
        }
        Lowering::BytePerm => {
            // __byte_perm uses three bits of each selector nibble; prmt's fourth would
            // replicate the sign.
            let m = int_const(rw, op, 0x7777, t);
            let s = emit(rw, op, "nvvm.and", &[ops[2], m], t, &[]);
            intr(rw, op, "prmt", &[ops[0], ops[1], s], t)
        }
        Lowering::ActiveMask => emit(rw, op, "nvvm.activemask", &[], t, &[]),
        Lowering::Bitcast => emit(rw, op, "nvvm.bitcast", ops, t, &[]),
    };
    rw.replace_op(op, &[v]);
    true
}

/// Runs the conversion on everything nested in `root`, outside a pass manager.
pub fn convert_cuda_intrinsics_to_nvvm(ctx: &mut Context, root: OpId) -> Result<(), Vec<crate::LowerError>> {
    super::convert_outside_pass(ctx, root, NAME, "cuda.intrinsic", &target(), &patterns())
}

/// `convert-cuda-intrinsics-to-nvvm`.
pub struct ConvertCudaIntrinsicsToNvvm;

impl ConvertCudaIntrinsicsToNvvm {
    pub const NAME: &'static str = NAME;
}

impl Pass for ConvertCudaIntrinsicsToNvvm {
    fn name(&self) -> &str {
        NAME
    }
    fn run(&self, ctx: &mut Context, op: OpId, state: &mut PassState<'_>) -> Result<(), PassFailure> {
        run_patterns(ctx, op, state, NAME, &target(), &TypeConverter::new(), patterns())
    }
}
