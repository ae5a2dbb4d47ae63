//! The standard `arith` ops inside `cuda` functions, to their `nvvm` counterparts. Types
//! are signless on both sides, so each op maps to one nvvm op (or an intrinsic) with its
//! signedness taken from the op's name: `divsi` -> `sdiv`, `shrui` -> `lshr`, `extsi` ->
//! `sext`, `cmpi ult` -> `icmp ult`, `minsi` -> the `smin` intrinsic. The float code-generation
//! options apply here: `contract` on `addf`/`subf`/`mulf` unless `-fmad=false`, the
//! division mode on f32 `divf`.

use super::{i32_attr, DivMode, FnLowering};
use cuprite_dialects::arith::{CmpFPredicate, CmpIPredicate};
use cuprite_dialects::nvvm::{FCmpPredicate, ICmpPredicate};
use cuprite_ir::{AttrKind, OpId, ValueId};

/// nvvm's integer predicate for arith's (the same ten, in the same order of meaning).
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

/// nvvm's float predicate for arith's; `None` for the constant ones (`false`, `true`).
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

/// The nvvm op of an `arith` op that maps one to one, operands and result alike.
fn same_shape(name: &str) -> Option<&'static str> {
    Some(match name {
        "arith.addi" => "nvvm.add",
        "arith.subi" => "nvvm.sub",
        "arith.muli" => "nvvm.mul",
        "arith.divsi" => "nvvm.sdiv",
        "arith.divui" => "nvvm.udiv",
        "arith.remsi" => "nvvm.srem",
        "arith.remui" => "nvvm.urem",
        "arith.andi" => "nvvm.and",
        "arith.ori" => "nvvm.or",
        "arith.xori" => "nvvm.xor",
        "arith.shli" => "nvvm.shl",
        "arith.shrsi" => "nvvm.ashr",
        "arith.shrui" => "nvvm.lshr",
        "arith.remf" => "nvvm.frem",
        "arith.negf" => "nvvm.fneg",
        "arith.select" => "nvvm.select",
        "arith.extsi" => "nvvm.sext",
        "arith.extui" => "nvvm.zext",
        "arith.trunci" => "nvvm.trunc",
        "arith.sitofp" => "nvvm.sitofp",
        "arith.uitofp" => "nvvm.uitofp",
        "arith.fptosi" => "nvvm.fptosi",
        "arith.fptoui" => "nvvm.fptoui",
        "arith.extf" => "nvvm.fpext",
        "arith.truncf" => "nvvm.fptrunc",
        "arith.bitcast" => "nvvm.bitcast",
        _ => return None,
    })
}

impl FnLowering<'_, '_> {
    /// Lowers `arith` op `op`; `None` when it is not one this lowering knows (the caller
    /// reports it).
    pub(super) fn lower_arith(&mut self, op: OpId) -> Option<ValueId> {
        let name = self.ctx.op_name_str(op).to_string();
        let operands: Vec<ValueId> = self.ctx.operand_vec(op).into_iter().map(|o| self.v(o)).collect();
        let res = *self.ctx.results(op).first()?;
        let src_t = self.ctx.value_type(res);
        let t = self.ty(src_t);
        if let Some(n) = same_shape(&name) {
            if n == "nvvm.bitcast" && self.ctx.value_type(operands[0]) == t {
                return Some(operands[0]);
            }
            return Some(self.emit1(n, &operands, t, &[]));
        }
        match name.as_str() {
            "arith.constant" => {
                let a = self.ctx.get_attr(op, "value")?;
                let a = match self.ctx.attr_kind(a).clone() {
                    AttrKind::Integer { value, .. } => self.ctx.int_attr(value, t),
                    AttrKind::Float { bits, .. } => self.ctx.attr(AttrKind::Float { bits, ty: t }),
                    _ => a,
                };
                Some(self.emit1("nvvm.constant", &[], t, &[("value", a)]))
            }
            "arith.addf" | "arith.subf" | "arith.mulf" | "arith.divf" => {
                let n = match name.as_str() {
                    "arith.addf" => "nvvm.fadd",
                    "arith.subf" => "nvvm.fsub",
                    "arith.mulf" => "nvvm.fmul",
                    _ => "nvvm.fdiv",
                };
                let mut props = vec![];
                if n != "nvvm.fdiv" && !self.opts.no_fma_contraction {
                    props.push(("contract", self.ctx.unit_attr()));
                }
                if n == "nvvm.fdiv" && self.width(t) == 32 {
                    match self.opts.div {
                        DivMode::Precise => {}
                        DivMode::Full => props.push(("full", self.ctx.unit_attr())),
                        DivMode::Approx => props.push(("approx", self.ctx.unit_attr())),
                    }
                }
                Some(self.emit1(n, &operands, t, &props))
            }
            "arith.cmpi" => {
                let p = cuprite_dialects::arith::ops::CmpIOp(op).predicate(self.ctx)?;
                let p = i32_attr(self.ctx, icmp_predicate(p) as i64);
                Some(self.emit1("nvvm.icmp", &operands, t, &[("predicate", p)]))
            }
            "arith.cmpf" => {
                let p = cuprite_dialects::arith::ops::CmpFOp(op).predicate(self.ctx)?;
                match fcmp_predicate(p) {
                    Some(p) => {
                        let p = i32_attr(self.ctx, p as i64);
                        Some(self.emit1("nvvm.fcmp", &operands, t, &[("predicate", p)]))
                    }
                    None => Some(self.const_int(i64::from(p == CmpFPredicate::True), t)),
                }
            }
            "arith.minsi" | "arith.minui" | "arith.maxsi" | "arith.maxui" => {
                let n = match name.as_str() {
                    "arith.minsi" => "smin",
                    "arith.minui" => "umin",
                    "arith.maxsi" => "smax",
                    _ => "umax",
                };
                Some(self.intr(n, &operands, t))
            }
            _ => None,
        }
    }
}
