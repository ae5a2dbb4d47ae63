//! `convert-arith-to-nvvm`: the standard `arith` dialect to `nvvm`, as named patterns.
//!
//! Types are signless on both sides, so every pattern replaces one `arith` op by one nvvm
//! op (or an intrinsic) on the same operands, the signedness moving from the op's name to
//! the nvvm op's (`divsi` -> `sdiv`, `extui` -> `zext`, `cmpi ult` -> `icmp ult`, `minsi` ->
//! the `smin` intrinsic). The ops may sit in a `func.func` (the pass runs before
//! `convert-func-to-nvvm` in `cuprite compile`'s pipeline, and the simulator runs such
//! mixed functions) or in an `nvvm.func`.
//!
//! The float code-generation flags are this pass's options, as nvcc's:
//! - `fmad=false` (`-fmad=false`): no `contract` on `fadd`/`fsub`/`fmul`, so instruction
//!   selection never fuses them into an `fma`. Functions marked
//!   [`cuprite_dialects::hints::NO_CONTRACT`] (the device math library's) never get it.
//! - `div=precise|full|approx` (`-prec-div`, `--use_fast_math`): f32 `divf` as
//!   `div.rn`, `div.full` or `div.approx`.
//!
//! Each pattern's name is `arith-<op>-to-nvvm`; they are listed (with benefit and
//! root) by `cuprite opt --list-patterns`.

use super::{bind, infos, replace_with, rule, run_patterns, PatternInfo, Rule};
use crate::build::i32_attr;
use crate::passes::parse_bool;
use crate::DivMode;
use cuprite_dialects::arith::{CmpFPredicate, CmpIPredicate};
use cuprite_dialects::nvvm::{FCmpPredicate, ICmpPredicate};
use cuprite_ir::{
    pass::{Pass, PassFailure, PassState},
    rewrite::conversion::{ConversionPattern, ConversionRewriter, ConversionTarget, TypeConverter},
    AttrKind, Context, OpId, ValueId,
};

/// The pass name.
pub const NAME: &str = "convert-arith-to-nvvm";

/// The float code-generation flags that decide how `arith` float ops lower.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ArithToNvvmOptions {
    /// Single-precision division.
    pub div: DivMode,
    /// Never mark a multiply or add contractible (`-fmad=false`).
    pub no_fma_contraction: bool,
}

/// A one-to-one rule: `root` becomes `target` on the same operands and result type.
const fn same(name: &'static str, root: &'static str, target: &'static str, summary: &'static str) -> Rule<ArithToNvvmOptions> {
    Rule { name, root, target, benefit: 1, summary, lower: one_to_one, groups: None }
}

/// This pass's rules and options, for the patterns' signatures.
type R = Rule<ArithToNvvmOptions>;
type O = ArithToNvvmOptions;

/// The pattern set. Benefits: 1 for the general rule of each op, 2 for a special case
/// that must win over it (constant-folded comparisons).
static RULES: &[Rule<ArithToNvvmOptions>] = &[
    rule("arith-constant-to-nvvm", "arith.constant", "nvvm.constant", "an integer or float constant", constant),
    rule("arith-addi-to-nvvm", "arith.addi", "nvvm.add", "integer addition, `nsw` kept (`nuw` dropped)", with_nsw),
    rule("arith-subi-to-nvvm", "arith.subi", "nvvm.sub", "integer subtraction, `nsw` kept", with_nsw),
    rule("arith-muli-to-nvvm", "arith.muli", "nvvm.mul", "integer multiplication, `nsw` kept", with_nsw),
    same("arith-divsi-to-nvvm", "arith.divsi", "nvvm.sdiv", "signed division, truncating"),
    same("arith-divui-to-nvvm", "arith.divui", "nvvm.udiv", "unsigned division"),
    same("arith-remsi-to-nvvm", "arith.remsi", "nvvm.srem", "signed remainder (sign of the dividend)"),
    same("arith-remui-to-nvvm", "arith.remui", "nvvm.urem", "unsigned remainder"),
    same("arith-andi-to-nvvm", "arith.andi", "nvvm.and", "bitwise and"),
    same("arith-ori-to-nvvm", "arith.ori", "nvvm.or", "bitwise or"),
    same("arith-xori-to-nvvm", "arith.xori", "nvvm.xor", "bitwise xor"),
    rule("arith-shli-to-nvvm", "arith.shli", "nvvm.shl", "shift left, `nsw` kept", with_nsw),
    same("arith-shrsi-to-nvvm", "arith.shrsi", "nvvm.ashr", "arithmetic shift right"),
    same("arith-shrui-to-nvvm", "arith.shrui", "nvvm.lshr", "logical shift right"),
    rule("arith-addf-to-nvvm", "arith.addf", "nvvm.fadd", "float addition, contractible into an fma unless fmad=false", float_arith),
    rule("arith-subf-to-nvvm", "arith.subf", "nvvm.fsub", "float subtraction, contractible unless fmad=false", float_arith),
    rule("arith-mulf-to-nvvm", "arith.mulf", "nvvm.fmul", "float multiplication, contractible unless fmad=false", float_arith),
    rule("arith-divf-to-nvvm", "arith.divf", "nvvm.fdiv", "float division; f32 after div=precise|full|approx", float_arith),
    same("arith-remf-to-nvvm", "arith.remf", "nvvm.frem", "float remainder"),
    same("arith-negf-to-nvvm", "arith.negf", "nvvm.fneg", "float negation"),
    rule("arith-cmpi-to-nvvm", "arith.cmpi", "nvvm.icmp", "integer comparison, the predicate kept", cmpi),
    Rule {
        name: "arith-cmpf-constant-to-nvvm",
        root: "arith.cmpf",
        target: "nvvm.constant",
        benefit: 2,
        summary: "a float comparison with the 'false' or 'true' predicate, as its constant",
        lower: cmpf_constant,
        groups: None,
    },
    rule("arith-cmpf-to-nvvm", "arith.cmpf", "nvvm.fcmp", "float comparison (ordered or unordered), the predicate kept", cmpf),
    same("arith-select-to-nvvm", "arith.select", "nvvm.select", "select on an i1"),
    same("arith-extsi-to-nvvm", "arith.extsi", "nvvm.sext", "sign extension"),
    same("arith-extui-to-nvvm", "arith.extui", "nvvm.zext", "zero extension"),
    same("arith-trunci-to-nvvm", "arith.trunci", "nvvm.trunc", "integer truncation"),
    same("arith-sitofp-to-nvvm", "arith.sitofp", "nvvm.sitofp", "signed integer to float"),
    same("arith-uitofp-to-nvvm", "arith.uitofp", "nvvm.uitofp", "unsigned integer to float"),
    same("arith-fptosi-to-nvvm", "arith.fptosi", "nvvm.fptosi", "float to signed integer, toward zero"),
    same("arith-fptoui-to-nvvm", "arith.fptoui", "nvvm.fptoui", "float to unsigned integer, toward zero"),
    same("arith-extf-to-nvvm", "arith.extf", "nvvm.fpext", "float widening"),
    same("arith-truncf-to-nvvm", "arith.truncf", "nvvm.fptrunc", "float narrowing, to nearest"),
    same("arith-bitcast-to-nvvm", "arith.bitcast", "nvvm.bitcast", "reinterpretation of the bits"),
    rule(
        "arith-maxnumf-to-nvvm",
        "arith.maxnumf",
        "max",
        "float maximum, the non-NaN operand if one is NaN: the max intrinsic (PTX max.f32)",
        min_max,
    ),
    rule(
        "arith-minnumf-to-nvvm",
        "arith.minnumf",
        "min",
        "float minimum, the non-NaN operand if one is NaN: the min intrinsic (PTX min.f32)",
        min_max,
    ),
    rule("arith-minsi-to-nvvm", "arith.minsi", "smin", "signed minimum, the smin intrinsic", min_max),
    rule("arith-minui-to-nvvm", "arith.minui", "umin", "unsigned minimum, the umin intrinsic", min_max),
    rule("arith-maxsi-to-nvvm", "arith.maxsi", "smax", "signed maximum, the smax intrinsic", min_max),
    rule("arith-maxui-to-nvvm", "arith.maxui", "umax", "unsigned maximum, the umax intrinsic", min_max),
];

/// The patterns with `opts` bound.
pub fn patterns(opts: ArithToNvvmOptions) -> Vec<Box<dyn ConversionPattern>> {
    bind(RULES, opts)
}

/// What `--list-patterns` prints for this pass.
pub fn pattern_infos() -> Vec<PatternInfo> {
    infos(NAME, RULES)
}

/// The legality target: no `arith` op remains; nvvm's are legal; the rest is left alone.
pub fn target() -> ConversionTarget {
    ConversionTarget::new().illegal_dialect("arith").legal_dialect("nvvm")
}

fn one_to_one(rule: &R, _: &O, op: OpId, operands: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    replace_with(rw, op, rule.target, operands, &[])
}

/// One to one, the `nsw` of the op's `#arith.overflow` flags kept as the target's unit
/// attribute (C's signed arithmetic, which loop strength reduction relies on).
fn with_nsw(rule: &R, _: &O, op: OpId, operands: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let ctx = rw.ctx();
    use cuprite_dialects::arith::ops as ar;
    let flags = ar::AddIOp::cast(ctx, op)
        .and_then(|o| o.overflow_flags_attr(ctx))
        .or_else(|| ar::SubIOp::cast(ctx, op).and_then(|o| o.overflow_flags_attr(ctx)))
        .or_else(|| ar::MulIOp::cast(ctx, op).and_then(|o| o.overflow_flags_attr(ctx)))
        .or_else(|| ar::ShLIOp::cast(ctx, op).and_then(|o| o.overflow_flags_attr(ctx)));
    let nsw = flags.and_then(|a| cuprite_ir::ods::flags_of(ctx, a, "arith", "overflow")).is_some_and(|f| f.iter().any(|x| x == "nsw"));
    if nsw {
        let unit = rw.ctx().unit_attr();
        replace_with(rw, op, rule.target, operands, &[("nsw", unit)])
    } else {
        replace_with(rw, op, rule.target, operands, &[])
    }
}

fn constant(rule: &R, _: &O, op: OpId, operands: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let ctx = rw.ctx();
    let Some(a) = cuprite_dialects::arith::ConstantOp(op).value_attr(ctx) else { return false };
    if !matches!(ctx.attr_kind(a), AttrKind::Integer { .. } | AttrKind::Float { .. }) {
        return false;
    }
    replace_with(rw, op, rule.target, operands, &[("value", a)])
}

/// Whether the function holding `op` asks for no contraction
/// ([`cuprite_dialects::hints::NO_CONTRACT`]).
fn in_no_contract_function(ctx: &Context, op: OpId) -> bool {
    let mut cur = ctx.parent_op(op);
    while let Some(p) = cur {
        if ctx.traits(p).contains(cuprite_ir::Traits::SYMBOL) {
            return cuprite_dialects::hints::no_contract(ctx, p);
        }
        cur = ctx.parent_op(p);
    }
    false
}

fn float_arith(rule: &R, opts: &O, op: OpId, operands: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let ctx = rw.ctx();
    let mut props = Vec::new();
    if rule.target == "nvvm.fdiv" {
        let f32 = ctx.results(op).first().is_some_and(|&r| is_f32(ctx, r));
        match opts.div {
            DivMode::Full if f32 => props.push(("full", ctx.unit_attr())),
            DivMode::Approx if f32 => props.push(("approx", ctx.unit_attr())),
            _ => {}
        }
    } else if !opts.no_fma_contraction && !in_no_contract_function(ctx, op) {
        props.push(("contract", ctx.unit_attr()));
    }
    replace_with(rw, op, rule.target, operands, &props)
}

fn is_f32(ctx: &Context, v: ValueId) -> bool {
    matches!(ctx.type_kind(ctx.value_type(v)), cuprite_ir::TypeKind::Float(cuprite_ir::FloatKind::F32))
}

fn cmpi(rule: &R, _: &O, op: OpId, operands: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let Some(p) = cuprite_dialects::arith::ops::CmpIOp(op).predicate(rw.ctx()) else { return false };
    let p = i32_attr(rw.ctx(), icmp_predicate(p) as i64);
    replace_with(rw, op, rule.target, operands, &[("predicate", p)])
}

fn cmpf(rule: &R, _: &O, op: OpId, operands: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let Some(p) = cuprite_dialects::arith::ops::CmpFOp(op).predicate(rw.ctx()).and_then(fcmp_predicate) else { return false };
    let p = i32_attr(rw.ctx(), p as i64);
    replace_with(rw, op, rule.target, operands, &[("predicate", p)])
}

fn cmpf_constant(rule: &R, _: &O, op: OpId, _: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let value = match cuprite_dialects::arith::ops::CmpFOp(op).predicate(rw.ctx()) {
        Some(CmpFPredicate::False) => 0,
        Some(CmpFPredicate::True) => 1,
        _ => return false,
    };
    let i1 = rw.ctx().i1();
    let a = rw.ctx().int_attr(value, i1);
    replace_with(rw, op, rule.target, &[], &[("value", a)])
}

fn min_max(rule: &R, _: &O, op: OpId, operands: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
    let n = rw.ctx().str_attr(rule.target);
    replace_with(rw, op, "nvvm.intr", operands, &[("name", n)])
}

/// nvvm's integer predicate for arith's (the same ten).
fn icmp_predicate(p: CmpIPredicate) -> ICmpPredicate {
    match p {
        CmpIPredicate::Eq => ICmpPredicate::Eq,
        CmpIPredicate::Ne => ICmpPredicate::Ne,
        CmpIPredicate::Slt => ICmpPredicate::Slt,
        CmpIPredicate::Sle => ICmpPredicate::Sle,
        CmpIPredicate::Sgt => ICmpPredicate::Sgt,
        CmpIPredicate::Sge => ICmpPredicate::Sge,
        CmpIPredicate::Ult => ICmpPredicate::Ult,
        CmpIPredicate::Ule => ICmpPredicate::Ule,
        CmpIPredicate::Ugt => ICmpPredicate::Ugt,
        CmpIPredicate::Uge => ICmpPredicate::Uge,
    }
}

/// nvvm's float predicate for arith's; `None` for the constant ones (`false`, `true`),
/// which [`cmpf_constant`] handles.
fn fcmp_predicate(p: CmpFPredicate) -> Option<FCmpPredicate> {
    Some(match p {
        CmpFPredicate::Oeq => FCmpPredicate::Oeq,
        CmpFPredicate::Ogt => FCmpPredicate::Ogt,
        CmpFPredicate::Oge => FCmpPredicate::Oge,
        CmpFPredicate::Olt => FCmpPredicate::Olt,
        CmpFPredicate::Ole => FCmpPredicate::Ole,
        CmpFPredicate::One => FCmpPredicate::One,
        CmpFPredicate::Ord => FCmpPredicate::Ord,
        CmpFPredicate::Ueq => FCmpPredicate::Ueq,
        CmpFPredicate::Ugt => FCmpPredicate::Ugt,
        CmpFPredicate::Uge => FCmpPredicate::Uge,
        CmpFPredicate::Ult => FCmpPredicate::Ult,
        CmpFPredicate::Ule => FCmpPredicate::Ule,
        CmpFPredicate::Une => FCmpPredicate::Une,
        CmpFPredicate::Uno => FCmpPredicate::Uno,
        CmpFPredicate::False | CmpFPredicate::True => return None,
    })
}

/// Runs the conversion on everything nested in `root`, outside a pass manager (for callers
/// that lower level by level, keeping each level's module).
pub fn convert_arith_to_nvvm(ctx: &mut Context, root: OpId, opts: ArithToNvvmOptions) -> Result<(), Vec<crate::LowerError>> {
    super::convert_outside_pass(ctx, root, NAME, "arith.", &target(), &patterns(opts))
}

/// `convert-arith-to-nvvm{div=... fmad=...}`.
pub struct ConvertArithToNvvm(pub ArithToNvvmOptions);

impl ConvertArithToNvvm {
    pub const NAME: &'static str = NAME;
    /// The pass from its pipeline options.
    pub fn from_options(o: &[(String, String)]) -> Result<Self, String> {
        let mut opts = ArithToNvvmOptions::default();
        for (k, v) in o {
            match k.as_str() {
                "div" => opts.div = crate::passes::parse_div(NAME, v)?,
                "fmad" => opts.no_fma_contraction = !parse_bool(NAME, k, v)?,
                _ => return Err(format!("pass '{NAME}' has no option '{k}' (options: div, fmad)")),
            }
        }
        Ok(ConvertArithToNvvm(opts))
    }
}

impl Pass for ConvertArithToNvvm {
    fn name(&self) -> &str {
        NAME
    }
    fn options(&self) -> String {
        format!("div={} fmad={}", crate::passes::div_text(self.0.div), !self.0.no_fma_contraction)
    }
    fn run(&self, ctx: &mut Context, op: OpId, state: &mut PassState<'_>) -> Result<(), PassFailure> {
        run_patterns(ctx, op, state, NAME, &target(), &TypeConverter::new(), patterns(self.0))
    }
}
