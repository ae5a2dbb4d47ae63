//! `convert-math-to-nvvm`: the standard `math` dialect to `nvvm`, as named patterns.
//!
//! The frontend emits `math` for the C functions whose meaning an op states exactly
//! (`sqrtf` -> `math.sqrt`, `fmaf` -> `math.fma`, `floorf` -> `math.floor`, `rintf` ->
//! `math.roundeven`, ...); each has a PTX instruction of that accuracy, reached through an
//! nvvm intrinsic (`sqrt.rn`, `fma.rn`, `floor`, `rint`). The rest of the C math library
//! (`expf`, `sinf`, ...) is not `math` yet: it stays `cuda.intrinsic` and is linked from the
//! device math library (`link-math-library`) or lowered to its approximate instruction.
//!
//! Option `approx-sqrt=B` (nvcc's `-prec-sqrt=false`, implied by `--use_fast_math`): an f32
//! `math.sqrt` becomes `sqrt.approx` instead of the correctly rounded `sqrt.rn`.

use super::{bind, infos, replace_with, rule, run_patterns, PatternInfo, Rule};
use crate::passes::parse_bool;
use cuprite_ir::{
    pass::{Pass, PassFailure, PassState},
    rewrite::conversion::{ConversionPattern, ConversionRewriter, ConversionTarget, TypeConverter},
    Context, FloatKind, OpId, TypeKind, ValueId,
};

/// The pass name.
pub const NAME: &str = "convert-math-to-nvvm";

/// How `math` ops lower.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MathToNvvmOptions {
    /// f32 square roots with `sqrt.approx` (`-prec-sqrt=false`).
    pub approx_sqrt: bool,
}

/// A rule producing nvvm intrinsic `target` on the op's operands.
const fn intrinsic(name: &'static str, root: &'static str, target: &'static str, summary: &'static str) -> Rule<MathToNvvmOptions> {
    Rule { name, root, target, benefit: 1, summary, lower: to_intrinsic, groups: None }
}

/// The pattern set.
static RULES: &[Rule<MathToNvvmOptions>] = &[
    rule("math-sqrt-to-nvvm", "math.sqrt", "sqrt.rn", "square root, correctly rounded (sqrt.rn); f32 with approx-sqrt: sqrt.approx", sqrt),
    intrinsic("math-absf-to-nvvm", "math.absf", "abs", "float absolute value (clears the sign bit)"),
    intrinsic("math-fma-to-nvvm", "math.fma", "fma.rn", "fused multiply-add, rounded once to nearest"),
    intrinsic("math-copysign-to-nvvm", "math.copysign", "copysign", "the magnitude of the first operand, the sign of the second"),
    intrinsic("math-trunc-to-nvvm", "math.trunc", "trunc", "round toward zero to an integral value (cvt.rzi)"),
    intrinsic("math-floor-to-nvvm", "math.floor", "floor", "round down to an integral value (cvt.rmi)"),
    intrinsic("math-ceil-to-nvvm", "math.ceil", "ceil", "round up to an integral value (cvt.rpi)"),
    intrinsic("math-roundeven-to-nvvm", "math.roundeven", "rint", "round to the nearest integral value, ties to even (cvt.rni)"),
];

/// The patterns with `opts` bound.
pub fn patterns(opts: MathToNvvmOptions) -> Vec<Box<dyn ConversionPattern>> {
    bind(RULES, opts)
}

/// What `--list-patterns` prints for this pass.
pub fn pattern_infos() -> Vec<PatternInfo> {
    infos(NAME, RULES)
}

/// The legality target: no `math` op remains; nvvm's are legal; the rest is left alone.
pub fn target() -> ConversionTarget {
    ConversionTarget::new().illegal_dialect("math").legal_dialect("nvvm")
}

fn intr(rw: &mut ConversionRewriter<'_, '_>, op: OpId, name: &str, operands: &[ValueId]) -> bool {
    let n = rw.ctx().str_attr(name);
    replace_with(rw, op, "nvvm.intr", operands, &[("name", n)])
}

fn to_intrinsic(
    rule: &Rule<MathToNvvmOptions>,
    _: &MathToNvvmOptions,
    op: OpId,
    operands: &[ValueId],
    rw: &mut ConversionRewriter<'_, '_>,
) -> bool {
    intr(rw, op, rule.target, operands)
}

fn sqrt(
    rule: &Rule<MathToNvvmOptions>,
    opts: &MathToNvvmOptions,
    op: OpId,
    operands: &[ValueId],
    rw: &mut ConversionRewriter<'_, '_>,
) -> bool {
    let ctx = rw.ctx();
    let f32 = ctx.results(op).first().is_some_and(|&r| matches!(ctx.type_kind(ctx.value_type(r)), TypeKind::Float(FloatKind::F32)));
    let name = if opts.approx_sqrt && f32 { "sqrt.approx" } else { rule.target };
    intr(rw, op, name, operands)
}

/// Runs the conversion on everything nested in `root`, outside a pass manager.
pub fn convert_math_to_nvvm(ctx: &mut Context, root: OpId, opts: MathToNvvmOptions) -> Result<(), Vec<crate::LowerError>> {
    super::convert_outside_pass(ctx, root, NAME, "math.", &target(), &patterns(opts))
}

/// `convert-math-to-nvvm{approx-sqrt=B}`.
pub struct ConvertMathToNvvm(pub MathToNvvmOptions);

impl ConvertMathToNvvm {
    pub const NAME: &'static str = NAME;
    /// The pass from its pipeline options.
    pub fn from_options(o: &[(String, String)]) -> Result<Self, String> {
        let mut opts = MathToNvvmOptions::default();
        for (k, v) in o {
            match k.as_str() {
                "approx-sqrt" => opts.approx_sqrt = parse_bool(NAME, k, v)?,
                _ => return Err(format!("pass '{NAME}' has no option '{k}' (options: approx-sqrt)")),
            }
        }
        Ok(ConvertMathToNvvm(opts))
    }
}

impl Pass for ConvertMathToNvvm {
    fn name(&self) -> &str {
        NAME
    }
    fn options(&self) -> String {
        format!("approx-sqrt={}", self.0.approx_sqrt)
    }
    fn run(&self, ctx: &mut Context, op: OpId, state: &mut PassState<'_>) -> Result<(), PassFailure> {
        run_patterns(ctx, op, state, NAME, &target(), &TypeConverter::new(), patterns(self.0))
    }
}
