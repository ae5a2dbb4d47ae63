//! The selection patterns of `convert-nvvm-to-ptx`: one per `nvvm` op (its instruction or
//! instructions, `isel-<op>`, benefit 1; `nvvm.frem` has none, PTX having no float
//! remainder: the device math library's `fmodf` is code), and fusion patterns of higher benefit that select
//! an op together with operands they absorb:
//!
//! | pattern | root | absorbs | selects |
//! |---|---|---|---|
//! | `isel-mad` (2) | `nvvm.add` | a single-use `mul` in the same block (and its widening extensions) | `mad.lo`, `mad.wide` |
//! | `isel-fma-fadd`, `isel-fma-fsub` (2) | `nvvm.fadd`/`fsub` with `contract` | an `fmul` with `contract` whose uses all contract (NVRTC's rule, below) | `fma.rn` |
//! | `isel-mul-wide` (2) | 64-bit `nvvm.mul` | single-use `sext`/`zext` from 32 bits (or a constant that fits) | `mul.wide.s32`/`.u32` |
//! | `isel-ptradd-into-address` (2) | `nvvm.ptradd` by a constant | itself, when loads and stores are its only users | their `[reg+imm]` address |
//!
//! The driver ([`super::Sel::match_fusions`], [`super::Sel::select`]) matches the fusion
//! patterns bottom-up over each block before selection, as a DAG selector matches from the
//! root down, then selects top-down: an absorbed op emits nothing, a fusion's root emits
//! the fused instructions, any other op its first enabled selection pattern. Disabling a
//! fusion (`--disable-patterns=isel-mad`) leaves its ops to the single-op patterns;
//! disabling a single-op pattern leaves its ops without a selection, an error at each.
//! `isel-ptradd-into-address` also decides whether loads and stores fold a constant
//! offset into `[reg+imm]` at all.
//!
//! Float contraction follows NVRTC's choices (LLVM's NVPTX back end under `cicc`), so that
//! a `-fmad=true` kernel computes the same bits with either compiler, and so that no
//! contraction costs an extra instruction:
//! - `p + c` (either order; the first operand tried first) becomes `fma` when the product
//!   `p` is in the same block and every use of it (four at most) is such an add: a product
//!   with another use stays a `mul` (its operands would stay live), and one that only adds
//!   fuses into each (`t = a * b; x = t + c; y = t + d` is two `fma`s);
//! - a product of a negation is the negation of a product (`(-a) * b` is `-(a * b)`);
//! - `p - C` (`C` a constant) is `p + (-C)` (NVVM's instruction combiner writes it so);
//! - `x - K * a` (`K` a constant used only there in its block) is `x + (-K) * a`;
//! - any other subtraction stays `mul` and `sub`: `fma` with a negated register operand
//!   would need a `neg` first, no fewer instructions, and NVRTC does not contract it.
//!
//! The selector's target is not in SSA form (PTX registers are written by the
//! instructions that name them), so it runs on its own driver rather than the core's
//! conversion driver: the register of each nvvm value plays the type converter's part,
//! and [`super::Sel`] the rewriter's.

use super::{abi_ty, atom_scope, is_float, join, mem_suffix, reg_ty, space_of, state, suffix, width, Sel, ValueId};
use crate::conversions::PatternInfo;
use cuprite_dialects::nvvm;
use cuprite_ir::{Context, InsertPoint, OpId, TypeId};

/// The pass the patterns belong to.
pub const PASS: &str = "convert-nvvm-to-ptx";
/// The fusion that folds constant `ptradd`s into `[reg+imm]` addresses.
pub(super) const ADDRESS_FOLD: &str = "isel-ptradd-into-address";

/// Ops no pattern selects, with the reason the error gives.
pub(super) const UNSELECTABLE: &[(&str, &str)] =
    &[("nvvm.frem", "the float remainder (fmod) is not supported yet (it needs the device math library)")];

/// What a pattern sees of the op it selects.
pub(super) struct OpArgs<'a> {
    pub name: &'a str,
    pub ops: Vec<ValueId>,
    /// The first result, if any, and its type (`i32` for none).
    pub res: Option<ValueId>,
    pub t: TypeId,
    /// The function's result types (for `nvvm.return`).
    pub results: &'a [TypeId],
}

/// What a fusion pattern matched: the ops it absorbs, and what its emission needs.
#[derive(Clone, Debug, Default)]
pub(super) struct Fusion {
    /// The pattern (an index into [`RULES`]), set by the driver.
    pub rule: usize,
    pub absorbed: Vec<OpId>,
    /// The multiply a `mad`/`fma` absorbs and which operand of the root it is.
    pub mul: Option<(OpId, usize)>,
    /// A widening multiply's 32-bit operands and signedness.
    pub wide: Option<(ValueId, ValueId, bool)>,
    /// Ops this fusion reads through (their operands, not their result) and that other
    /// fusions may read through too: the product of an `fma`. The driver absorbs one only
    /// when fusions took every use of its result, and selects it otherwise.
    pub shared: Vec<OpId>,
    /// How an `fma` negates a constant (see [`FmaNeg`]).
    pub fneg: FmaNeg,
    /// The `fneg` a subtraction absorbs and which operand of the root holds it (itself or
    /// through the product in `mul`).
    pub neg_at: Option<(OpId, usize)>,
}

/// The negations an `fma` of a subtraction folds into a constant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum FmaNeg {
    #[default]
    None,
    /// `p - C`: the addend is the constant, negated.
    Addend,
    /// `x - K * a`: operand `j` of the product is the constant, negated.
    Product(usize),
    /// `p - K * a`: the addend is product `m` (absorbed; operand `j` is the constant),
    /// selected as its own `mul` by `-K`.
    AddendProduct(OpId, usize),
    /// `x - (-a) * b`: `fma(a, b, x)`, operand `j` of the product being the `fneg` of `a`.
    StripNeg(usize),
}

type SelectFn = fn(&mut Sel<'_, '_>, OpId, &OpArgs<'_>) -> bool;
type MatchFn = fn(&Context, OpId) -> Option<Fusion>;
type EmitFn = fn(&mut Sel<'_, '_>, OpId, &OpArgs<'_>, &Fusion);

/// How a pattern selects.
#[derive(Clone, Copy)]
pub(super) enum How {
    /// The op alone; `false` (nothing emitted) when the op is not its case.
    Select(SelectFn),
    /// The op with the operands `matches` absorbs, emitted by `emit`.
    Fuse { matches: MatchFn, emit: EmitFn },
}

/// One selection pattern.
pub(super) struct IselRule {
    pub name: &'static str,
    pub root: &'static str,
    pub benefit: u16,
    pub summary: &'static str,
    pub how: How,
}

/// The indices of the rules rooted at op `root`, highest benefit first (ties in table
/// order); computed once.
pub(super) fn rules_for(root: &str) -> &'static [usize] {
    static BY_ROOT: std::sync::OnceLock<rustc_hash::FxHashMap<&'static str, Vec<usize>>> = std::sync::OnceLock::new();
    let map = BY_ROOT.get_or_init(|| {
        let mut order: Vec<usize> = (0..RULES.len()).collect();
        order.sort_by_key(|&k| std::cmp::Reverse(RULES[k].benefit));
        let mut m: rustc_hash::FxHashMap<&'static str, Vec<usize>> = rustc_hash::FxHashMap::default();
        for k in order {
            m.entry(RULES[k].root).or_default().push(k);
        }
        m
    });
    map.get(root).map_or(&[], Vec::as_slice)
}

/// What `--list-patterns` says about the selection patterns.
pub fn pattern_infos() -> Vec<PatternInfo> {
    RULES
        .iter()
        .map(|r| PatternInfo {
            pass: PASS,
            name: r.name,
            root: r.root,
            benefit: r.benefit,
            summary: r.summary,
            optional: matches!(r.how, How::Fuse { .. }),
        })
        .collect()
}

/// Every selection pattern.
pub(super) static RULES: &[IselRule] = &[
    IselRule {
        name: "isel-mad",
        root: "nvvm.add",
        benefit: 2,
        summary: "`mad.lo` of a single-use `mul` in the same block, `mad.wide` when that is a widening multiply",
        how: How::Fuse { matches: match_mad, emit: emit_mad },
    },
    IselRule {
        name: "isel-fma-fadd",
        root: "nvvm.fadd",
        benefit: 2,
        summary: "`fma.rn` of an `fmul` in the same block whose uses all contract, both with `contract` (NVRTC's rule)",
        how: How::Fuse { matches: match_fma_fadd, emit: emit_fma },
    },
    IselRule {
        name: "isel-fma-fsub",
        root: "nvvm.fsub",
        benefit: 2,
        summary: "`fma.rn` of `p - C`, `p - K * a` or `x - K * a` with the constant negated (NVRTC's rule); other subtractions stay `sub`",
        how: How::Fuse { matches: match_fma_fsub, emit: emit_fma },
    },
    IselRule {
        name: "isel-fadd-of-negation",
        root: "nvvm.fadd",
        benefit: 2,
        summary: "`x + (-y)` and `x + (-a) * b` (single-use negations in the same block) as `sub.f` (NVVM's canonical form), when no `fma` applies",
        how: How::Fuse { matches: match_fadd_of_negation, emit: emit_fadd_of_negation },
    },
    IselRule {
        name: "isel-mul-wide",
        root: "nvvm.mul",
        benefit: 2,
        summary: "`mul.wide.s32`/`.u32` of a 64-bit multiply of values extended from 32 bits",
        how: How::Fuse { matches: match_mul_wide, emit: emit_mul_wide },
    },
    IselRule {
        name: ADDRESS_FOLD,
        root: "nvvm.ptradd",
        benefit: 2,
        summary: "a constant offset that only loads and stores use: their `[reg+imm]` address, no instruction",
        how: How::Fuse { matches: match_address_offset, emit: |_, _, _, _| {} },
    },
    IselRule {
        name: "isel-constant",
        root: "nvvm.constant",
        benefit: 1,
        summary: "an immediate at its uses (no instruction)",
        how: How::Select(|s, op, a| s.sel_constant(op, a)),
    },
    IselRule {
        name: "isel-null",
        root: "nvvm.null",
        benefit: 1,
        summary: "`mov.b64 %rd, 0`",
        how: How::Select(|s, op, a| s.sel_null(op, a)),
    },
    IselRule {
        name: "isel-add",
        root: "nvvm.add",
        benefit: 1,
        summary: "integer arithmetic, bitwise ops and shifts (`add.s32`, `mul.lo`, `div.s`/`.u`, `shr.s`/`.u`; sub-32-bit operands widened where the upper bits matter; `.pred` logic on i1)",
        how: How::Select(|s, op, a| s.sel_int_binary(op, a)),
    },
    IselRule {
        name: "isel-sub",
        root: "nvvm.sub",
        benefit: 1,
        summary: "integer arithmetic, bitwise ops and shifts (`add.s32`, `mul.lo`, `div.s`/`.u`, `shr.s`/`.u`; sub-32-bit operands widened where the upper bits matter; `.pred` logic on i1)",
        how: How::Select(|s, op, a| s.sel_int_binary(op, a)),
    },
    IselRule {
        name: "isel-mul",
        root: "nvvm.mul",
        benefit: 1,
        summary: "integer arithmetic, bitwise ops and shifts (`add.s32`, `mul.lo`, `div.s`/`.u`, `shr.s`/`.u`; sub-32-bit operands widened where the upper bits matter; `.pred` logic on i1)",
        how: How::Select(|s, op, a| s.sel_int_binary(op, a)),
    },
    IselRule {
        name: "isel-sdiv",
        root: "nvvm.sdiv",
        benefit: 1,
        summary: "integer arithmetic, bitwise ops and shifts (`add.s32`, `mul.lo`, `div.s`/`.u`, `shr.s`/`.u`; sub-32-bit operands widened where the upper bits matter; `.pred` logic on i1)",
        how: How::Select(|s, op, a| s.sel_int_binary(op, a)),
    },
    IselRule {
        name: "isel-udiv",
        root: "nvvm.udiv",
        benefit: 1,
        summary: "integer arithmetic, bitwise ops and shifts (`add.s32`, `mul.lo`, `div.s`/`.u`, `shr.s`/`.u`; sub-32-bit operands widened where the upper bits matter; `.pred` logic on i1)",
        how: How::Select(|s, op, a| s.sel_int_binary(op, a)),
    },
    IselRule {
        name: "isel-srem",
        root: "nvvm.srem",
        benefit: 1,
        summary: "integer arithmetic, bitwise ops and shifts (`add.s32`, `mul.lo`, `div.s`/`.u`, `shr.s`/`.u`; sub-32-bit operands widened where the upper bits matter; `.pred` logic on i1)",
        how: How::Select(|s, op, a| s.sel_int_binary(op, a)),
    },
    IselRule {
        name: "isel-urem",
        root: "nvvm.urem",
        benefit: 1,
        summary: "integer arithmetic, bitwise ops and shifts (`add.s32`, `mul.lo`, `div.s`/`.u`, `shr.s`/`.u`; sub-32-bit operands widened where the upper bits matter; `.pred` logic on i1)",
        how: How::Select(|s, op, a| s.sel_int_binary(op, a)),
    },
    IselRule {
        name: "isel-and",
        root: "nvvm.and",
        benefit: 1,
        summary: "integer arithmetic, bitwise ops and shifts (`add.s32`, `mul.lo`, `div.s`/`.u`, `shr.s`/`.u`; sub-32-bit operands widened where the upper bits matter; `.pred` logic on i1)",
        how: How::Select(|s, op, a| s.sel_int_binary(op, a)),
    },
    IselRule {
        name: "isel-or",
        root: "nvvm.or",
        benefit: 1,
        summary: "integer arithmetic, bitwise ops and shifts (`add.s32`, `mul.lo`, `div.s`/`.u`, `shr.s`/`.u`; sub-32-bit operands widened where the upper bits matter; `.pred` logic on i1)",
        how: How::Select(|s, op, a| s.sel_int_binary(op, a)),
    },
    IselRule {
        name: "isel-xor",
        root: "nvvm.xor",
        benefit: 1,
        summary: "integer arithmetic, bitwise ops and shifts (`add.s32`, `mul.lo`, `div.s`/`.u`, `shr.s`/`.u`; sub-32-bit operands widened where the upper bits matter; `.pred` logic on i1)",
        how: How::Select(|s, op, a| s.sel_int_binary(op, a)),
    },
    IselRule {
        name: "isel-shl",
        root: "nvvm.shl",
        benefit: 1,
        summary: "integer arithmetic, bitwise ops and shifts (`add.s32`, `mul.lo`, `div.s`/`.u`, `shr.s`/`.u`; sub-32-bit operands widened where the upper bits matter; `.pred` logic on i1)",
        how: How::Select(|s, op, a| s.sel_int_binary(op, a)),
    },
    IselRule {
        name: "isel-lshr",
        root: "nvvm.lshr",
        benefit: 1,
        summary: "integer arithmetic, bitwise ops and shifts (`add.s32`, `mul.lo`, `div.s`/`.u`, `shr.s`/`.u`; sub-32-bit operands widened where the upper bits matter; `.pred` logic on i1)",
        how: How::Select(|s, op, a| s.sel_int_binary(op, a)),
    },
    IselRule {
        name: "isel-ashr",
        root: "nvvm.ashr",
        benefit: 1,
        summary: "integer arithmetic, bitwise ops and shifts (`add.s32`, `mul.lo`, `div.s`/`.u`, `shr.s`/`.u`; sub-32-bit operands widened where the upper bits matter; `.pred` logic on i1)",
        how: How::Select(|s, op, a| s.sel_int_binary(op, a)),
    },
    IselRule {
        name: "isel-fadd",
        root: "nvvm.fadd",
        benefit: 1,
        summary: "float arithmetic (`add.rn`, or unrounded when contraction is allowed; `div.rn`/`.full`/`.approx`; f16 division through f32)",
        how: How::Select(|s, op, a| s.sel_float_binary(op, a)),
    },
    IselRule {
        name: "isel-fsub",
        root: "nvvm.fsub",
        benefit: 1,
        summary: "float arithmetic (`add.rn`, or unrounded when contraction is allowed; `div.rn`/`.full`/`.approx`; f16 division through f32)",
        how: How::Select(|s, op, a| s.sel_float_binary(op, a)),
    },
    IselRule {
        name: "isel-fmul",
        root: "nvvm.fmul",
        benefit: 1,
        summary: "float arithmetic (`add.rn`, or unrounded when contraction is allowed; `div.rn`/`.full`/`.approx`; f16 division through f32)",
        how: How::Select(|s, op, a| s.sel_float_binary(op, a)),
    },
    IselRule {
        name: "isel-fdiv",
        root: "nvvm.fdiv",
        benefit: 1,
        summary: "float arithmetic (`add.rn`, or unrounded when contraction is allowed; `div.rn`/`.full`/`.approx`; f16 division through f32)",
        how: How::Select(|s, op, a| s.sel_float_binary(op, a)),
    },
    IselRule {
        name: "isel-fneg",
        root: "nvvm.fneg",
        benefit: 1,
        summary: "`neg.f32`",
        how: How::Select(|s, op, a| s.sel_fneg(op, a)),
    },
    IselRule {
        name: "isel-icmp",
        root: "nvvm.icmp",
        benefit: 1,
        summary: "`setp` with the predicate and signedness (i1 comparisons as predicate logic)",
        how: How::Select(|s, op, a| s.sel_icmp(op, a)),
    },
    IselRule {
        name: "isel-fcmp",
        root: "nvvm.fcmp",
        benefit: 1,
        summary: "`setp` with the ordered/unordered predicate",
        how: How::Select(|s, op, a| s.sel_fcmp(op, a)),
    },
    IselRule {
        name: "isel-select",
        root: "nvvm.select",
        benefit: 1,
        summary: "`selp` (predicate logic for i1)",
        how: How::Select(|s, op, a| s.sel_select(op, a)),
    },
    IselRule {
        name: "isel-trunc",
        root: "nvvm.trunc",
        benefit: 1,
        summary: "`cvt` with the rounding and saturation C wants, `mov` for bit casts, `cvta` between address spaces",
        how: How::Select(|s, op, a| s.sel_cast(op, a)),
    },
    IselRule {
        name: "isel-zext",
        root: "nvvm.zext",
        benefit: 1,
        summary: "`cvt` with the rounding and saturation C wants, `mov` for bit casts, `cvta` between address spaces",
        how: How::Select(|s, op, a| s.sel_cast(op, a)),
    },
    IselRule {
        name: "isel-sext",
        root: "nvvm.sext",
        benefit: 1,
        summary: "`cvt` with the rounding and saturation C wants, `mov` for bit casts, `cvta` between address spaces",
        how: How::Select(|s, op, a| s.sel_cast(op, a)),
    },
    IselRule {
        name: "isel-fptosi",
        root: "nvvm.fptosi",
        benefit: 1,
        summary: "`cvt` with the rounding and saturation C wants, `mov` for bit casts, `cvta` between address spaces",
        how: How::Select(|s, op, a| s.sel_cast(op, a)),
    },
    IselRule {
        name: "isel-fptoui",
        root: "nvvm.fptoui",
        benefit: 1,
        summary: "`cvt` with the rounding and saturation C wants, `mov` for bit casts, `cvta` between address spaces",
        how: How::Select(|s, op, a| s.sel_cast(op, a)),
    },
    IselRule {
        name: "isel-sitofp",
        root: "nvvm.sitofp",
        benefit: 1,
        summary: "`cvt` with the rounding and saturation C wants, `mov` for bit casts, `cvta` between address spaces",
        how: How::Select(|s, op, a| s.sel_cast(op, a)),
    },
    IselRule {
        name: "isel-uitofp",
        root: "nvvm.uitofp",
        benefit: 1,
        summary: "`cvt` with the rounding and saturation C wants, `mov` for bit casts, `cvta` between address spaces",
        how: How::Select(|s, op, a| s.sel_cast(op, a)),
    },
    IselRule {
        name: "isel-fpext",
        root: "nvvm.fpext",
        benefit: 1,
        summary: "`cvt` with the rounding and saturation C wants, `mov` for bit casts, `cvta` between address spaces",
        how: How::Select(|s, op, a| s.sel_cast(op, a)),
    },
    IselRule {
        name: "isel-fptrunc",
        root: "nvvm.fptrunc",
        benefit: 1,
        summary: "`cvt` with the rounding and saturation C wants, `mov` for bit casts, `cvta` between address spaces",
        how: How::Select(|s, op, a| s.sel_cast(op, a)),
    },
    IselRule {
        name: "isel-bitcast",
        root: "nvvm.bitcast",
        benefit: 1,
        summary: "`cvt` with the rounding and saturation C wants, `mov` for bit casts, `cvta` between address spaces",
        how: How::Select(|s, op, a| s.sel_cast(op, a)),
    },
    IselRule {
        name: "isel-ptrtoint",
        root: "nvvm.ptrtoint",
        benefit: 1,
        summary: "`cvt` with the rounding and saturation C wants, `mov` for bit casts, `cvta` between address spaces",
        how: How::Select(|s, op, a| s.sel_cast(op, a)),
    },
    IselRule {
        name: "isel-inttoptr",
        root: "nvvm.inttoptr",
        benefit: 1,
        summary: "`cvt` with the rounding and saturation C wants, `mov` for bit casts, `cvta` between address spaces",
        how: How::Select(|s, op, a| s.sel_cast(op, a)),
    },
    IselRule {
        name: "isel-addrspacecast",
        root: "nvvm.addrspacecast",
        benefit: 1,
        summary: "`cvt` with the rounding and saturation C wants, `mov` for bit casts, `cvta` between address spaces",
        how: How::Select(|s, op, a| s.sel_cast(op, a)),
    },
    IselRule {
        name: "isel-ptradd",
        root: "nvvm.ptradd",
        benefit: 1,
        summary: "`add.s64`",
        how: How::Select(|s, op, a| s.sel_ptradd(op, a)),
    },
    IselRule {
        name: "isel-addressof",
        root: "nvvm.addressof",
        benefit: 1,
        summary: "`mov.u64` of the symbol",
        how: How::Select(|s, op, a| s.sel_addressof(op, a)),
    },
    IselRule {
        name: "isel-alloca",
        root: "nvvm.alloca",
        benefit: 1,
        summary: "an offset in the function's local depot (`__local_depot<N>`)",
        how: How::Select(|s, op, a| s.sel_alloca(op, a)),
    },
    IselRule {
        name: "isel-load",
        root: "nvvm.load",
        benefit: 1,
        summary: "`ld.<space>[.volatile|.nc|.cache].<type>` (i1 as a byte)",
        how: How::Select(|s, op, a| s.sel_load(op, a)),
    },
    IselRule {
        name: "isel-store",
        root: "nvvm.store",
        benefit: 1,
        summary: "`st.<space>[.volatile|.cache].<type>` (i1 as a byte)",
        how: How::Select(|s, op, a| s.sel_store(op, a)),
    },
    IselRule {
        name: "isel-atomicrmw",
        root: "nvvm.atomicrmw",
        benefit: 1,
        summary: "`atom.<scope>.<space>.<op>.<type>`",
        how: How::Select(|s, op, a| s.sel_atomicrmw(op, a)),
    },
    IselRule {
        name: "isel-cmpxchg",
        root: "nvvm.cmpxchg",
        benefit: 1,
        summary: "`atom.<scope>.<space>.cas.b<N>`",
        how: How::Select(|s, op, a| s.sel_cmpxchg(op, a)),
    },
    IselRule {
        name: "isel-sreg",
        root: "nvvm.sreg",
        benefit: 1,
        summary: "`mov.u32` of the special register",
        how: How::Select(|s, op, a| s.sel_sreg(op, a)),
    },
    IselRule {
        name: "isel-barrier",
        root: "nvvm.barrier",
        benefit: 1,
        summary: "`bar.sync`, `bar.red.popc/and/or`, `bar.warp.sync`",
        how: How::Select(|s, op, a| s.sel_barrier(op, a)),
    },
    IselRule {
        name: "isel-fence",
        root: "nvvm.fence",
        benefit: 1,
        summary: "`membar.cta/gl/sys`",
        how: How::Select(|s, op, a| s.sel_fence(op, a)),
    },
    IselRule {
        name: "isel-shfl",
        root: "nvvm.shfl",
        benefit: 1,
        summary: "`shfl.sync.<mode>.b32`",
        how: How::Select(|s, op, a| s.sel_shfl(op, a)),
    },
    IselRule {
        name: "isel-activemask",
        root: "nvvm.activemask",
        benefit: 1,
        summary: "`activemask.b32`",
        how: How::Select(|s, op, a| s.sel_activemask(op, a)),
    },
    IselRule {
        name: "isel-vote",
        root: "nvvm.vote",
        benefit: 1,
        summary: "`vote.sync.<mode>`",
        how: How::Select(|s, op, a| s.sel_vote(op, a)),
    },
    IselRule {
        name: "isel-redux",
        root: "nvvm.redux",
        benefit: 1,
        summary: "`redux.sync.<op>.<type>`",
        how: How::Select(|s, op, a| s.sel_redux(op, a)),
    },
    IselRule {
        name: "isel-match",
        root: "nvvm.match",
        benefit: 1,
        summary: "`match.<mode>.sync.b32` / `.b64`",
        how: How::Select(|s, op, a| s.sel_match(op, a)),
    },
    IselRule {
        name: "isel-intr",
        root: "nvvm.intr",
        benefit: 1,
        summary: "the intrinsic's instruction(s) (`sqrt.rn`, `ex2.approx`, `popc`, `brev`, `mul.hi`, ...)",
        how: How::Select(|s, op, a| s.sel_intr(op, a)),
    },
    IselRule {
        name: "isel-tex",
        root: "nvvm.tex",
        benefit: 1,
        summary: "`tex.<geom>.v4.<kind>.<coords>`",
        how: How::Select(|s, op, a| s.sel_tex(op, a)),
    },
    IselRule {
        name: "isel-inline-asm",
        root: "nvvm.inline_asm",
        benefit: 1,
        summary: "the template as written (`ptx.asm`)",
        how: How::Select(|s, op, a| s.sel_inline_asm(op, a)),
    },
    IselRule {
        name: "isel-call",
        root: "nvvm.call",
        benefit: 1,
        summary: "the PTX call sequence (`.param` arguments, `call.uni`, results)",
        how: How::Select(|s, op, a| s.sel_call(op, a)),
    },
    IselRule {
        name: "isel-return",
        root: "nvvm.return",
        benefit: 1,
        summary: "`st.param` of the results and `ret`",
        how: How::Select(|s, op, a| s.sel_return(op, a)),
    },
    IselRule {
        name: "isel-unreachable",
        root: "nvvm.unreachable",
        benefit: 1,
        summary: "`ptx.unreachable` (`trap` where control could reach it)",
        how: How::Select(|s, op, a| s.sel_unreachable(op, a)),
    },
    IselRule {
        name: "isel-br",
        root: "nvvm.br",
        benefit: 1,
        summary: "register copies for the destination's arguments and `bra`",
        how: How::Select(|s, op, a| s.sel_br(op, a)),
    },
    IselRule {
        name: "isel-cond-br",
        root: "nvvm.cond_br",
        benefit: 1,
        summary: "`@p bra` (an edge block for each side's copies)",
        how: How::Select(|s, op, a| s.sel_cond_br(op, a)),
    },
];

// ----- fusion matchers ---------------------------------------------------------------

/// The op defining `v` if it is a `name` whose only use is in `user`'s block.
fn one_use_here(ctx: &Context, v: ValueId, user: OpId, is: fn(&Context, OpId) -> bool) -> Option<OpId> {
    let d = ctx.defining_op(v)?;
    (is(ctx, d) && ctx.has_one_use(v) && ctx.op_block(d) == ctx.op_block(user)).then_some(d)
}

/// `v` as a 32-bit value when it is a sign- (zero-) extension from i32 (then with the
/// extension op) or a constant that fits.
fn narrow32(ctx: &Context, v: ValueId, signed: bool) -> Option<(ValueId, Option<OpId>)> {
    let d = ctx.defining_op(v)?;
    let is_ext = if signed { nvvm::SextOp::cast(ctx, d).is_some() } else { nvvm::ZextOp::cast(ctx, d).is_some() };
    if is_ext && width(ctx, ctx.value_type(ctx.operand(d, 0))) == 32 {
        return Some((ctx.operand(d, 0), Some(d)));
    }
    if let Some(value) = nvvm::int_constant(ctx, d) {
        let fits = if signed { i32::try_from(value).is_ok() } else { u32::try_from(value).is_ok() };
        return fits.then_some((v, None));
    }
    None
}

/// A 64-bit `mul` of two 32-bit values (signed or unsigned extensions, or constants that
/// fit; not a constant first): its 32-bit operands, signedness, and the extensions only it
/// uses (in its block).
fn wide_mul(ctx: &Context, mul: OpId) -> Option<((ValueId, ValueId, bool), Vec<OpId>)> {
    if width(ctx, ctx.value_type(ctx.result(mul, 0))) != 64 {
        return None;
    }
    let (x, y) = (ctx.operand(mul, 0), ctx.operand(mul, 1));
    for signed in [true, false] {
        let (Some(a), Some(b)) = (narrow32(ctx, x, signed), narrow32(ctx, y, signed)) else { continue };
        if ctx.defining_op(a.0).is_some_and(|d| nvvm::ConstantOp::cast(ctx, d).is_some()) && a.1.is_none() {
            continue;
        }
        let mut exts = Vec::new();
        for (v, ext) in [(x, a.1), (y, b.1)] {
            if let Some(e) = ext {
                if ctx.has_one_use(v) && ctx.op_block(e) == ctx.op_block(mul) && !exts.contains(&e) {
                    exts.push(e);
                }
            }
        }
        return Some(((a.0, b.0, signed), exts));
    }
    None
}

fn match_mul_wide(ctx: &Context, mul: OpId) -> Option<Fusion> {
    let (wide, exts) = wide_mul(ctx, mul)?;
    Some(Fusion { absorbed: exts, wide: Some(wide), ..Fusion::default() })
}

/// An integer `add` (16 bits or wider) of a single-use `mul`: the first such operand.
fn match_mad(ctx: &Context, add: OpId) -> Option<Fusion> {
    if width(ctx, ctx.value_type(ctx.result(add, 0))) < 16 {
        return None;
    }
    (0..2).find_map(|i| {
        let m = one_use_here(ctx, ctx.operand(add, i), add, |c, o| nvvm::MulOp::cast(c, o).is_some())?;
        let mut absorbed = vec![m];
        let wide = wide_mul(ctx, m).map(|(w, exts)| {
            absorbed.extend(exts);
            w
        });
        Some(Fusion { absorbed, mul: Some((m, i)), wide, ..Fusion::default() })
    })
}

/// Float contraction allowed on `op`: `contract` and not `approx`.
fn contracts(ctx: &Context, op: OpId) -> bool {
    let f = nvvm::float_flags(ctx, op);
    f.contract && !f.approx
}

/// Whether `v` is a float constant (`nvvm.constant` of a float).
fn float_const(ctx: &Context, v: ValueId) -> bool {
    ctx.defining_op(v)
        .and_then(|d| nvvm::ConstantOp::cast(ctx, d))
        .and_then(|c| c.value_attr(ctx))
        .is_some_and(|a| matches!(ctx.attr_kind(a), cuprite_ir::AttrKind::Float { .. }))
}

/// An `fma` negates constants of `f32` and `f64` only (`f16` instructions take no
/// immediates).
fn negates_constants(ctx: &Context, op: OpId) -> bool {
    matches!(width(ctx, ctx.value_type(ctx.result(op, 0))), 32 | 64)
}

/// `v` is a contractible product by a constant that is free to negate (LLVM's
/// `getNegatedExpression`): the product's only use is `user`, in its block, and the
/// constant has no other use in that block. The product and the constant's operand index.
fn negatable_product(ctx: &Context, v: ValueId, user: OpId) -> Option<(OpId, usize)> {
    let m = one_use_here(ctx, v, user, |c, o| nvvm::FmulOp::cast(c, o).is_some()).filter(|&m| contracts(ctx, m))?;
    let block = ctx.op_block(user);
    (0..2)
        .find(|&j| {
            let k = ctx.operand(m, j);
            float_const(ctx, k) && ctx.uses(k).filter(|&(u, _)| ctx.op_block(u) == block).count() == 1
        })
        .map(|j| (m, j))
}

/// Whether use `k` of `user` is an add in NVVM's eyes: an `fadd`, or an `fsub` whose
/// subtrahend is a constant or a [`negatable_product`] (both contractible).
fn add_use(ctx: &Context, user: OpId, k: usize) -> bool {
    if !contracts(ctx, user) {
        return false;
    }
    if nvvm::FaddOp::cast(ctx, user).is_some() {
        return true;
    }
    nvvm::FsubOp::cast(ctx, user).is_some()
        && negates_constants(ctx, user)
        && k == 0
        && (float_const(ctx, ctx.operand(user, 1)) || negatable_product(ctx, ctx.operand(user, 1), user).is_some())
}

/// `v` is a contractible `fmul` in `user`'s block whose every use (four at most, all in
/// that block) is an [`add_use`]: it may fuse into `user`.
fn fusable_product(ctx: &Context, v: ValueId, user: OpId) -> Option<OpId> {
    let m = ctx.defining_op(v)?;
    if nvvm::FmulOp::cast(ctx, m).is_none() || !contracts(ctx, m) || ctx.op_block(m) != ctx.op_block(user) {
        return None;
    }
    // `(-a) * b` is `-(a * b)` to NVVM, and an add of it a subtraction.
    if (0..2).any(|j| single_use_fneg(ctx, ctx.operand(m, j)).is_some()) {
        return None;
    }
    let uses: Vec<(OpId, u32)> = ctx.uses(v).collect();
    (uses.len() <= 4 && uses.iter().all(|&(u, k)| ctx.op_block(u) == ctx.op_block(m) && add_use(ctx, u, k as usize))).then_some(m)
}

/// The operand of `v`'s defining `fneg`, when `v` has no other use.
fn single_use_fneg(ctx: &Context, v: ValueId) -> Option<ValueId> {
    let d = ctx.defining_op(v)?;
    (nvvm::FNegOp::cast(ctx, d).is_some() && ctx.has_one_use(v)).then(|| ctx.operand(d, 0))
}

/// `x + (-y)` or `(-y) + x` (a single-use `fneg` in the same block), and `x + (-a) * b`
/// (a single-use product of one): a subtraction, as NVVM canonicalizes them. The operand
/// index of the negation (or of the product) and, for a product, the product.
fn match_fadd_of_negation(ctx: &Context, op: OpId) -> Option<Fusion> {
    (0..2).find_map(|i| {
        let v = ctx.operand(op, i);
        let d = ctx.defining_op(v)?;
        if ctx.op_block(d) != ctx.op_block(op) || !ctx.has_one_use(v) {
            return None;
        }
        if single_use_fneg(ctx, v).is_some() {
            return Some(Fusion { absorbed: vec![d], mul: None, neg_at: Some((d, i)), ..Fusion::default() });
        }
        nvvm::FmulOp::cast(ctx, d)?;
        let n = (0..2).find_map(|j| single_use_fneg(ctx, ctx.operand(d, j)).map(|_| ctx.defining_op(ctx.operand(d, j))))??;
        if ctx.op_block(n) != ctx.op_block(op) {
            return None;
        }
        Some(Fusion { absorbed: vec![d, n], mul: Some((d, i)), neg_at: Some((n, i)), ..Fusion::default() })
    })
}

fn emit_fadd_of_negation(s: &mut Sel<'_, '_>, op: OpId, a: &OpArgs<'_>, f: &Fusion) {
    let Some((n, i)) = f.neg_at else { return };
    s.sub_of_negation(op, n, f.mul.map(|(m, _)| m), i, a.res.expect("result"), a.t);
}

/// `p + c` or `c + p`: the first operand that is a [`fusable_product`].
fn match_fma_fadd(ctx: &Context, op: OpId) -> Option<Fusion> {
    if !contracts(ctx, op) {
        return None;
    }
    (0..2).find_map(|i| {
        let m = fusable_product(ctx, ctx.operand(op, i), op)?;
        Some(Fusion { shared: vec![m], mul: Some((m, i)), ..Fusion::default() })
    })
}

/// `p - C`, `p - K * a` and `x - K * a` (see the module's notes).
fn match_fma_fsub(ctx: &Context, op: OpId) -> Option<Fusion> {
    if !contracts(ctx, op) || !negates_constants(ctx, op) {
        return None;
    }
    let (x, y) = (ctx.operand(op, 0), ctx.operand(op, 1));
    // `x - (-a) * b` is `x + a * b`.
    if let Some(m) = ctx.defining_op(y).filter(|&m| {
        nvvm::FmulOp::cast(ctx, m).is_some()
            && contracts(ctx, m)
            && ctx.has_one_use(y)
            && ctx.op_block(m) == ctx.op_block(op)
            && (0..2).any(|j| single_use_fneg(ctx, ctx.operand(m, j)).is_some())
    }) {
        let j = (0..2).find(|&j| single_use_fneg(ctx, ctx.operand(m, j)).is_some())?;
        let n = ctx.defining_op(ctx.operand(m, j))?;
        return Some(Fusion { absorbed: vec![m, n], mul: Some((m, 1)), fneg: FmaNeg::StripNeg(j), ..Fusion::default() });
    }
    if float_const(ctx, y) {
        let m = fusable_product(ctx, x, op)?;
        return Some(Fusion { shared: vec![m], mul: Some((m, 0)), fneg: FmaNeg::Addend, ..Fusion::default() });
    }
    let (m2, j) = negatable_product(ctx, y, op)?;
    if let Some(m) = fusable_product(ctx, x, op) {
        return Some(Fusion {
            shared: vec![m],
            absorbed: vec![m2],
            mul: Some((m, 0)),
            fneg: FmaNeg::AddendProduct(m2, j),
            ..Fusion::default()
        });
    }
    Some(Fusion { absorbed: vec![m2], mul: Some((m2, 1)), fneg: FmaNeg::Product(j), ..Fusion::default() })
}

fn emit_fma(s: &mut Sel<'_, '_>, op: OpId, a: &OpArgs<'_>, f: &Fusion) {
    let Some((m, i)) = f.mul else { return };
    s.fma(op, m, i, a.res.expect("result"), a.t, f.fneg);
}

/// A `ptradd` by a constant that fits 32 bits, used only as loads' and stores' address.
fn match_address_offset(ctx: &Context, op: OpId) -> Option<Fusion> {
    let fits = crate::transforms::ptradd_const_offset(ctx, op).is_some_and(|v| i32::try_from(v).is_ok());
    let r = ctx.result(op, 0);
    let only_addresses =
        ctx.uses(r).all(|(u, k)| (nvvm::LoadOp::cast(ctx, u).is_some() && k == 0) || (nvvm::StoreOp::cast(ctx, u).is_some() && k == 1));
    (fits && only_addresses).then(|| Fusion { absorbed: vec![op], ..Fusion::default() })
}

fn emit_mad(s: &mut Sel<'_, '_>, _op: OpId, a: &OpArgs<'_>, f: &Fusion) {
    let Some((m, i)) = f.mul else { return };
    s.mad(m, a.ops[1 - i], a.res.expect("result"), a.t, f.wide);
}

fn emit_mul_wide(s: &mut Sel<'_, '_>, _op: OpId, a: &OpArgs<'_>, f: &Fusion) {
    let Some((x, y, signed)) = f.wide else { return };
    let d = s.reg(a.res.expect("result"));
    let (x, y) = (s.use_reg(x), s.src32(y));
    let k = if signed { 's' } else { 'u' };
    s.inst("mul", &format!("wide.{k}32"), &[d, x, y], None);
}

// ----- the single-op patterns --------------------------------------------------------

impl Sel<'_, '_> {
    pub(super) fn sel_constant(&mut self, op: OpId, a: &OpArgs<'_>) -> bool {
        let res = a.res;
        let Some(a) = nvvm::ConstantOp(op).value_attr(self.ctx) else { return false };
        self.consts.insert(res.expect("result"), a);

        true
    }

    pub(super) fn sel_null(&mut self, _op: OpId, a: &OpArgs<'_>) -> bool {
        let (res, t) = (a.res, a.t);
        let d = self.reg(res.expect("result"));
        let z = self.imm_int(0, t);
        self.inst("mov", "b64", &[d, z], None);

        true
    }

    pub(super) fn sel_int_binary(&mut self, _op: OpId, a: &OpArgs<'_>) -> bool {
        let (name, ops, res, t) = (a.name, a.ops.clone(), a.res, a.t);
        self.int_bin(&name[5..], &ops, res.expect("result"), t);
        true
    }

    pub(super) fn sel_float_binary(&mut self, op: OpId, a: &OpArgs<'_>) -> bool {
        let (name, ops, res, t) = (a.name, a.ops.clone(), a.res, a.t);
        let nvvm::FloatFlags { contract, approx, full } = nvvm::float_flags(self.ctx, op);
        let s = suffix(self.ctx, t, 'f');
        let base = &name[6..];
        if base == "div" && s == "f16" {
            // PTX has no f16 division: f32's correctly rounded quotient rounded to
            // f16 is f16's correctly rounded one (24 >= 2 * 11 + 2 bits).
            {
                self.half_via_f32("div", "rn.f32", &ops, res.expect("result"));
                return true;
            }
        }
        let (opn, mods) = match base {
            "div" if approx && s == "f32" => ("div", format!("approx.{s}")),
            "div" if full && s == "f32" => ("div", format!("full.{s}")),
            "div" => ("div", format!("rn.{s}")),
            _ if contract => (base, s.clone()),
            _ => (base, format!("rn.{s}")),
        };
        let d = self.reg(res.expect("result"));
        let a = self.src(ops[0]);
        let b = self.src(ops[1]);
        self.inst(opn, &mods, &[d, a, b], None);

        true
    }

    pub(super) fn sel_fneg(&mut self, _op: OpId, a: &OpArgs<'_>) -> bool {
        let (ops, res, t) = (a.ops.clone(), a.res, a.t);
        let s = suffix(self.ctx, t, 'f');
        let d = self.reg(res.expect("result"));
        let a = self.use_reg(ops[0]);
        self.inst("neg", &s, &[d, a], None);

        true
    }

    pub(super) fn sel_icmp(&mut self, op: OpId, a: &OpArgs<'_>) -> bool {
        let (ops, res) = (a.ops.clone(), a.res);
        self.icmp(op, &ops, res.expect("result"));
        true
    }

    pub(super) fn sel_fcmp(&mut self, op: OpId, a: &OpArgs<'_>) -> bool {
        let (ops, res) = (a.ops.clone(), a.res);
        use cuprite_dialects::nvvm::FCmpPredicate as P;
        let cc = match cuprite_dialects::nvvm::FCmpOp(op).predicate(self.ctx).unwrap_or(P::Oeq) {
            P::Oeq => "eq",
            P::One => "ne",
            P::Olt => "lt",
            P::Ole => "le",
            P::Ogt => "gt",
            P::Oge => "ge",
            P::Ueq => "equ",
            P::Une => "neu",
            P::Ult => "ltu",
            P::Ule => "leu",
            P::Ugt => "gtu",
            P::Uge => "geu",
            P::Ord => "num",
            P::Uno => "nan",
        };
        let at = self.ctx.value_type(ops[0]);
        let s = suffix(self.ctx, at, 'f');
        let d = self.reg(res.expect("result"));
        let a = self.use_reg(ops[0]);
        let b = self.src(ops[1]);
        self.inst("setp", &format!("{cc}.{s}"), &[d, a, b], None);

        true
    }

    pub(super) fn sel_select(&mut self, _op: OpId, a: &OpArgs<'_>) -> bool {
        let (ops, res, t) = (a.ops.clone(), a.res, a.t);
        let d = self.reg(res.expect("result"));
        let p = self.use_reg(ops[0]);
        if width(self.ctx, t) == 1 {
            let a = self.use_reg(ops[1]);
            let b = self.use_reg(ops[2]);
            let i1 = self.ctx.i1();
            let (t1, t2, np) = (self.new_reg(i1), self.new_reg(i1), self.new_reg(i1));
            self.inst("and", "pred", &[t1, p, a], None);
            self.inst("not", "pred", &[np, p], None);
            self.inst("and", "pred", &[t2, np, b], None);
            self.inst("or", "pred", &[d, t1, t2], None);
        } else {
            let a = self.src(ops[1]);
            let b = self.src(ops[2]);
            let rt = reg_ty(self.ctx, t);
            let s = if is_float(self.ctx, t) { suffix(self.ctx, t, 'f') } else { suffix(self.ctx, rt, 'b') };
            self.inst("selp", &s, &[d, a, b, p], None);
        }

        true
    }

    pub(super) fn sel_cast(&mut self, _op: OpId, a: &OpArgs<'_>) -> bool {
        let (name, ops, res) = (a.name, a.ops.clone(), a.res);
        self.cast(&name[5..], ops[0], res.expect("result"));

        true
    }

    pub(super) fn sel_ptradd(&mut self, _op: OpId, a: &OpArgs<'_>) -> bool {
        let (ops, res) = (a.ops.clone(), a.res);
        let d = self.reg(res.expect("result"));
        let a = self.use_reg(ops[0]);
        let b = self.src(ops[1]);
        self.inst("add", "s64", &[d, a, b], None);

        true
    }

    pub(super) fn sel_addressof(&mut self, op: OpId, a: &OpArgs<'_>) -> bool {
        let (res, t) = (a.res, a.t);
        let n = nvvm::AddressOfOp(op).name(self.ctx).unwrap_or_default().to_string();
        let d = self.reg(res.expect("result"));
        let s = self.sym(&n, t);
        self.inst("mov", "u64", &[d, s], None);

        true
    }

    pub(super) fn sel_alloca(&mut self, op: OpId, a: &OpArgs<'_>) -> bool {
        let (res, t) = (a.res, a.t);
        let alloca = nvvm::AllocaOp(op);
        let size = alloca.size(self.ctx).unwrap_or(0) as u64;
        let align = (alloca.align(self.ctx).unwrap_or(1) as u64).max(1);
        let off = self.depot.div_ceil(align) * align;
        self.depot = off + size.max(1);
        self.depot_align = self.depot_align.max(align);
        let d = self.reg(res.expect("result"));
        let dn = format!("__local_depot{}", self.index);
        let s = self.sym(&dn, t);
        self.inst("mov", "u64", &[d, s], None);
        if off > 0 {
            let i64t = self.ctx.i64();
            let o = self.imm_int(off as i64, i64t);
            self.inst("add", "u64", &[d, d, o], None);
        }

        true
    }

    pub(super) fn sel_load(&mut self, op: OpId, a: &OpArgs<'_>) -> bool {
        let (ops, res, t) = (a.ops.clone(), a.res, a.t);
        let d = self.reg(res.expect("result"));
        let pt = self.ctx.value_type(ops[0]);
        let (addr, off) = self.address(ops[0]);
        let vol = if nvvm::is_volatile(self.ctx, op) { ".volatile" } else { "" };
        let space = space_of(self.ctx, pt);
        let cache = self.cache_op(op, vol, space);
        if width(self.ctx, t) == 1 {
            let i16t = self.ctx.int_type(16);
            let tmp = self.new_reg(i16t);
            self.inst("ld", &join(&[vol, space, &cache, ".u8"]), &[tmp, addr], off);
            let z = self.imm_int(0, i16t);
            self.inst("setp", "ne.b16", &[d, tmp, z], None);
        } else {
            let s = mem_suffix(self.ctx, t);
            self.inst("ld", &join(&[vol, space, &cache, &format!(".{s}")]), &[d, addr], off);
        }

        true
    }

    pub(super) fn sel_store(&mut self, op: OpId, a: &OpArgs<'_>) -> bool {
        let ops = a.ops.clone();
        let vt = self.ctx.value_type(ops[0]);
        let pt = self.ctx.value_type(ops[1]);
        let (addr, off) = self.address(ops[1]);
        let vol = if nvvm::is_volatile(self.ctx, op) { ".volatile" } else { "" };
        let space = space_of(self.ctx, pt);
        let cache = self.cache_op(op, vol, space);
        if width(self.ctx, vt) == 1 {
            let p = self.use_reg(ops[0]);
            let i16t = self.ctx.int_type(16);
            let tmp = self.new_reg(i16t);
            let one = self.imm_int(1, i16t);
            let z = self.imm_int(0, i16t);
            self.inst("selp", "u16", &[tmp, one, z, p], None);
            self.inst("st", &join(&[vol, space, &cache, ".u8"]), &[addr, tmp], off);
        } else {
            let v = self.src(ops[0]);
            let s = mem_suffix(self.ctx, vt);
            self.inst("st", &join(&[vol, space, &cache, &format!(".{s}")]), &[addr, v], off);
        }

        true
    }

    pub(super) fn sel_atomicrmw(&mut self, op: OpId, a: &OpArgs<'_>) -> bool {
        let (ops, res, t) = (a.ops.clone(), a.res, a.t);
        use cuprite_dialects::nvvm::RmwKind as R;
        let k = cuprite_dialects::nvvm::AtomicRmwOp(op).kind(self.ctx).unwrap_or(R::Add);
        let pt = self.ctx.value_type(ops[0]);
        let w = width(self.ctx, t);
        let opn = match k {
            R::Add => format!("add.u{w}"),
            // Half additions exist only without flushing subnormals (sm_70 on).
            R::Fadd if w == 16 => "add.noftz.f16".to_string(),
            R::Fadd => format!("add.{}", suffix(self.ctx, t, 'f')),
            R::Exch => format!("exch.b{w}"),
            R::Smin => format!("min.s{w}"),
            R::Smax => format!("max.s{w}"),
            R::Umin => format!("min.u{w}"),
            R::Umax => format!("max.u{w}"),
            R::Inc => format!("inc.u{w}"),
            R::Dec => format!("dec.u{w}"),
            R::And => format!("and.b{w}"),
            R::Or => format!("or.b{w}"),
            R::Xor => format!("xor.b{w}"),
        };
        let d = self.reg(res.expect("result"));
        let (addr, off) = self.address(ops[0]);
        let v = self.src(ops[1]);
        let space = space_of(self.ctx, pt);
        let scope = atom_scope(cuprite_dialects::nvvm::AtomicRmwOp(op).scope(self.ctx));
        self.inst("atom", &join(&[scope, space, &format!(".{opn}")]), &[d, addr, v], off);

        true
    }

    pub(super) fn sel_cmpxchg(&mut self, op: OpId, a: &OpArgs<'_>) -> bool {
        let (ops, res, t) = (a.ops.clone(), a.res, a.t);
        let pt = self.ctx.value_type(ops[0]);
        let w = width(self.ctx, t);
        let d = self.reg(res.expect("result"));
        let (addr, off) = self.address(ops[0]);
        let c = self.src(ops[1]);
        let v = self.src(ops[2]);
        let space = space_of(self.ctx, pt);
        let scope = atom_scope(cuprite_dialects::nvvm::CmpXchgOp(op).scope(self.ctx));
        self.inst("atom", &join(&[scope, space, &format!(".cas.b{w}")]), &[d, addr, c, v], off);

        true
    }

    pub(super) fn sel_sreg(&mut self, op: OpId, a: &OpArgs<'_>) -> bool {
        let (res, t) = (a.res, a.t);
        use cuprite_dialects::nvvm::SpecialReg as S;
        let r = cuprite_dialects::nvvm::SRegOp(op).reg(self.ctx).unwrap_or(S::TidX);
        let name = match r {
            S::TidX => "%tid.x",
            S::TidY => "%tid.y",
            S::TidZ => "%tid.z",
            S::NtidX => "%ntid.x",
            S::NtidY => "%ntid.y",
            S::NtidZ => "%ntid.z",
            S::CtaidX => "%ctaid.x",
            S::CtaidY => "%ctaid.y",
            S::CtaidZ => "%ctaid.z",
            S::NctaidX => "%nctaid.x",
            S::NctaidY => "%nctaid.y",
            S::NctaidZ => "%nctaid.z",
            S::Warpsize => "WARP_SZ",
            S::Laneid => "%laneid",
            S::Clock => "%clock",
            S::Clock64 => "%clock64",
        };
        let d = self.reg(res.expect("result"));
        let s = self.sym(name, t);
        self.inst("mov", if r == S::Clock64 { "u64" } else { "u32" }, &[d, s], None);

        true
    }

    pub(super) fn sel_barrier(&mut self, op: OpId, a: &OpArgs<'_>) -> bool {
        let (ops, res) = (a.ops.clone(), a.res);
        use cuprite_dialects::nvvm::BarrierKind as K;
        let k = cuprite_dialects::nvvm::BarrierOp(op).kind(self.ctx).unwrap_or(K::Sync);
        let i32t = self.ctx.i32();
        let zero = self.imm_int(0, i32t);
        match k {
            K::Sync => {
                self.inst("bar", "sync", &[zero], None);
            }
            K::Popc => {
                let d = self.reg(res.expect("result"));
                let p = self.use_reg(ops[0]);
                self.inst("bar", "red.popc.u32", &[d, zero, p], None);
            }
            K::And | K::Or => {
                let d = self.reg(res.expect("result"));
                let p = self.use_reg(ops[0]);
                let i1 = self.ctx.i1();
                let q = self.new_reg(i1);
                self.inst("bar", if k == K::And { "red.and.pred" } else { "red.or.pred" }, &[q, zero, p], None);
                let one = self.imm_int(1, i32t);
                let z = self.imm_int(0, i32t);
                self.inst("selp", "u32", &[d, one, z, q], None);
            }
            K::Warp => {
                let m = self.src(ops[0]);
                self.inst("bar", "warp.sync", &[m], None);
            }
        }

        true
    }

    pub(super) fn sel_fence(&mut self, op: OpId, _a: &OpArgs<'_>) -> bool {
        use cuprite_dialects::nvvm::Scope;
        let s = match cuprite_dialects::nvvm::FenceOp(op).scope(self.ctx) {
            Some(Scope::Cta) => "cta",
            Some(Scope::Sys) => "sys",
            Some(Scope::Gpu) | None => "gl",
        };
        self.inst("membar", s, &[], None);

        true
    }

    pub(super) fn sel_shfl(&mut self, op: OpId, a: &OpArgs<'_>) -> bool {
        let (ops, res) = (a.ops.clone(), a.res);
        let mode = cuprite_dialects::nvvm::ShflOp(op).mode(self.ctx).unwrap_or(cuprite_dialects::nvvm::ShflMode::Idx).keyword();
        let d = self.reg(res.expect("result"));
        let v = self.use_reg(ops[1]);
        let lane = self.src(ops[2]);
        let c = self.src(ops[3]);
        let m = self.src(ops[0]);
        self.inst("shfl", &format!("sync.{mode}.b32"), &[d, v, lane, c, m], None);

        true
    }

    pub(super) fn sel_activemask(&mut self, _op: OpId, a: &OpArgs<'_>) -> bool {
        let res = a.res;
        let d = self.reg(res.expect("result"));
        self.inst("activemask", "b32", &[d], None);

        true
    }

    pub(super) fn sel_redux(&mut self, op: OpId, a: &OpArgs<'_>) -> bool {
        use cuprite_dialects::nvvm::ReduxKind as K;
        let ops = a.ops.clone();
        let mods = match cuprite_dialects::nvvm::ReduxOp(op).kind(self.ctx).unwrap_or(K::Add) {
            K::Add => "sync.add.u32",
            K::Umin => "sync.min.u32",
            K::Umax => "sync.max.u32",
            K::Smin => "sync.min.s32",
            K::Smax => "sync.max.s32",
            K::And => "sync.and.b32",
            K::Or => "sync.or.b32",
            K::Xor => "sync.xor.b32",
        };
        let d = self.reg(a.res.expect("result"));
        let v = self.use_reg(ops[1]);
        let m = self.src(ops[0]);
        self.inst("redux", mods, &[d, v, m], None);
        true
    }

    pub(super) fn sel_match(&mut self, op: OpId, a: &OpArgs<'_>) -> bool {
        let ops = a.ops.clone();
        let all = cuprite_dialects::nvvm::MatchOp(op).mode(self.ctx) == Some(cuprite_dialects::nvvm::MatchMode::All);
        let bits = match self.ctx.type_kind(self.ctx.value_type(ops[1])) {
            cuprite_ir::TypeKind::Integer { width, .. } => *width,
            cuprite_ir::TypeKind::Float(k) => k.width(),
            _ => 64,
        };
        let mods = format!("{}.sync.b{}", if all { "all" } else { "any" }, if bits > 32 { 64 } else { 32 });
        let d = self.reg(a.res.expect("result"));
        let v = self.use_reg(ops[1]);
        let m = self.src(ops[0]);
        self.inst("match", &mods, &[d, v, m], None);
        true
    }

    pub(super) fn sel_vote(&mut self, op: OpId, a: &OpArgs<'_>) -> bool {
        let (ops, res) = (a.ops.clone(), a.res);
        use cuprite_dialects::nvvm::VoteMode as V;
        let mode = cuprite_dialects::nvvm::VoteOp(op).mode(self.ctx).unwrap_or(V::All);
        let d = self.reg(res.expect("result"));
        let p = self.use_reg(ops[1]);
        let m = self.src(ops[0]);
        let mods = match mode {
            V::All => "sync.all.pred",
            V::Any => "sync.any.pred",
            V::Uni => "sync.uni.pred",
            V::Ballot => "sync.ballot.b32",
        };
        self.inst("vote", mods, &[d, p, m], None);

        true
    }

    pub(super) fn sel_intr(&mut self, op: OpId, a: &OpArgs<'_>) -> bool {
        let (ops, res, t) = (a.ops.clone(), a.res, a.t);
        self.intr(op, &ops, res.expect("result"), t);
        true
    }

    /// `tex.<geom>.v4.<kind>.<coords> {d0..d3}, [t, {c..}]`: 3-D, 2-D layered and cube
    /// coordinates are a 4-vector (the last one repeated, as NVRTC pads it).
    pub(super) fn sel_tex(&mut self, op: OpId, a: &OpArgs<'_>) -> bool {
        let ops = a.ops.clone();
        let tex = nvvm::TexOp(op);
        let geom = tex.geom(self.ctx).unwrap_or_default().to_string();
        let kind = tex.kind(self.ctx).unwrap_or("f32").to_string();
        let level = tex.level(self.ctx);
        let rs: Vec<ValueId> = self.ctx.results(op).to_vec();
        let mut args: Vec<ValueId> = rs.into_iter().map(|r| self.reg(r)).collect();
        let ncoords = ops.len() - 1 - usize::from(level);
        let int_coords = geom == "1d" && ops.get(1).is_some_and(|&c| !is_float(self.ctx, self.ctx.value_type(c)));
        for &o in &ops {
            let r = self.use_reg(o);
            args.push(r);
        }
        if matches!(geom.as_str(), "3d" | "a2d" | "cube") && ncoords == 3 {
            let last = args[4 + ncoords];
            args.insert(5 + ncoords, last);
        }
        let mods = format!("{}{geom}.v4.{kind}.{}", if level { "level." } else { "" }, if int_coords { "s32" } else { "f32" });
        self.inst("tex", &mods, &args, None);

        true
    }

    pub(super) fn sel_inline_asm(&mut self, op: OpId, a: &OpArgs<'_>) -> bool {
        let ops = a.ops.clone();
        let tmpl = nvvm::InlineAsmOp(op).template(self.ctx).unwrap_or_default().to_string();
        let rs: Vec<ValueId> = self.ctx.results(op).to_vec();
        let mut args: Vec<ValueId> = rs.into_iter().map(|r| self.reg(r)).collect();
        for o in ops {
            let r = self.use_reg(o);
            args.push(r);
        }
        let ta = self.ctx.str_attr(&tmpl);
        let st = state(self.ctx, "ptx.asm", self.loc, &args, &[], &[("template", ta)], &[]);
        let a = self.ctx.create_op(st);
        self.ctx.insert_op(a, InsertPoint::end(self.cur));

        true
    }

    pub(super) fn sel_call(&mut self, op: OpId, a: &OpArgs<'_>) -> bool {
        let ops = a.ops.clone();
        self.call(op, &ops);
        true
    }

    pub(super) fn sel_return(&mut self, _op: OpId, a: &OpArgs<'_>) -> bool {
        let ops = a.ops.clone();
        for (i, (&v, &rt)) in ops.iter().zip(a.results).enumerate() {
            let r = self.abi_widen(v, rt);
            let s = self.sym(&format!("func_retval{i}"), rt);
            let ty = abi_ty(self.ctx, rt).trim_start_matches('.');
            self.inst("st", &format!("param.{ty}"), &[s, r], None);
        }
        self.term("ptx.ret", &[], &[]);

        true
    }

    pub(super) fn sel_unreachable(&mut self, _op: OpId, _a: &OpArgs<'_>) -> bool {
        self.term("ptx.unreachable", &[], &[]);

        true
    }

    pub(super) fn sel_br(&mut self, op: OpId, a: &OpArgs<'_>) -> bool {
        let ops = a.ops.clone();
        let dest = self.ctx.successor(op, 0);
        self.copies(dest, &ops);
        let nd = self.blocks[&dest];
        let b = self.term("ptx.bra", &[], &[nd]);
        if nvvm::BrOp(op).unroll(self.ctx) == Some(1) {
            let u = self.ctx.unit_attr();
            self.ctx.set_prop(b, "nounroll", u);
        }

        true
    }

    pub(super) fn sel_cond_br(&mut self, op: OpId, a: &OpArgs<'_>) -> bool {
        let ops = a.ops.clone();
        let (t_dest, f_dest) = (self.ctx.successor(op, 0), self.ctx.successor(op, 1));
        let nt = self.ctx.block_args(t_dest).len();
        let t_ops = ops[1..1 + nt].to_vec();
        let f_ops = ops[1 + nt..].to_vec();
        let p = self.use_reg(ops[0]);
        // Both edges copying the same values into the same registers (a rotated loop's
        // guard entering the loop or skipping it with the same start values): the copies
        // once, before the branch.
        let (tc, fc) = (self.copy_pairs(t_dest, &t_ops), self.copy_pairs(f_dest, &f_ops));
        if !tc.is_empty() && tc == fc && tc.iter().all(|&(d, _)| d != p) {
            self.copies(t_dest, &t_ops);
            let (tb, fb) = (self.blocks[&t_dest], self.blocks[&f_dest]);
            self.term("ptx.cbra", &[p], &[tb, fb]);
            return true;
        }
        let tb = self.edge(t_dest, &t_ops);
        let fb = self.edge(f_dest, &f_ops);
        self.term("ptx.cbra", &[p], &[tb, fb]);

        true
    }
}
