//! C's scalar arithmetic as the standard `arith` dialect. Types are signless (`i32` for
//! both `int` and `unsigned`); the C type of the operands, known here and nowhere later,
//! picks the op: `/` on `int` is `arith.divsi`, on `unsigned` `arith.divui`; `>>` is
//! `arith.shrsi` or `arith.shrui`; `<` is `arith.cmpi slt` or `ult` (and `arith.cmpf olt` on
//! floats, `!=` the unordered `une` as C's); a widening conversion is `arith.extsi` after a
//! signed source, `arith.extui` after an unsigned one or `bool`. Signed `+`, `-` and `*` of
//! `int` and wider carry `overflow<nsw>`: C leaves their overflow undefined.
//!
//! What involves a pointer stays in `cuda` (`cuda.ptr_cmp`, `cuda.ptr_add`, `cuda.cast`):
//! the split is described in `docs/architecture.md`.

use super::expr::Bin;
use super::ty::{IntKind, Ty, TyKind};
use super::*;
use cuprite_dialects::arith::{CmpFPredicate, CmpIPredicate};
use cuprite_dialects::cuda::CastKind;

impl Sema<'_> {
    /// Whether `t` is an integer type whose values C treats as signed (`bool` is not).
    fn signed_int(&self, t: Ty) -> bool {
        self.types.int_kind(t.unqual()).is_some_and(|k| k != IntKind::Bool && k.signed())
    }

    fn i64_attr(&mut self, v: i64) -> AttrId {
        let t = self.ctx.i64();
        self.ctx.int_attr(v as i128, t)
    }

    /// `a k b` on operands of C type `t` (after the usual arithmetic conversions; for
    /// shifts, the promoted left operand's type).
    pub(crate) fn binop(&mut self, k: Bin, a: ValueId, b: ValueId, t: Ty, span: Span) -> Option<ValueId> {
        let ir = self.types.ir(&mut self.ctx, t)?;
        if self.types.float_ty(t.unqual()).is_some() {
            let name = match k {
                Bin::Add => "arith.addf",
                Bin::Sub => "arith.subf",
                Bin::Mul => "arith.mulf",
                Bin::Div => "arith.divf",
                Bin::Rem => "arith.remf",
                _ => {
                    self.error(span, "a bitwise operation on a floating-point value");
                    return None;
                }
            };
            return Some(self.op1(name, &[a, b], ir, &[], span));
        }
        let signed = self.signed_int(t);
        let name = match (k, signed) {
            (Bin::Add, _) => "arith.addi",
            (Bin::Sub, _) => "arith.subi",
            (Bin::Mul, _) => "arith.muli",
            (Bin::Div, true) => "arith.divsi",
            (Bin::Div, false) => "arith.divui",
            (Bin::Rem, true) => "arith.remsi",
            (Bin::Rem, false) => "arith.remui",
            (Bin::And, _) => "arith.andi",
            (Bin::Or, _) => "arith.ori",
            (Bin::Xor, _) => "arith.xori",
            (Bin::Shl, _) => "arith.shli",
            (Bin::Shr, true) => "arith.shrsi",
            (Bin::Shr, false) => "arith.shrui",
        };
        let nsw = signed && matches!(k, Bin::Add | Bin::Sub | Bin::Mul) && self.types.int_kind(t.unqual()).is_some_and(|k| k.bits() >= 32);
        let props: Vec<(&'static str, AttrId)> = if nsw { vec![("overflowFlags", self.nsw_attr())] } else { Vec::new() };
        Some(self.op1(name, &[a, b], ir, &props, span))
    }

    /// `#arith.overflow<nsw>`.
    fn nsw_attr(&mut self) -> AttrId {
        match self.nsw {
            Some(a) => a,
            None => {
                let a = cuprite_ir::ods::attr_from_text(&mut self.ctx, "#arith.overflow<nsw>").expect("well-formed flags");
                self.nsw = Some(a);
                a
            }
        }
    }

    /// The comparison `op` of `a` and `b`, both of C type `t` (arithmetic or pointer).
    pub(crate) fn compare(&mut self, op: BinaryOp, a: ValueId, b: ValueId, t: Ty, span: Span) -> ValueId {
        let i1 = self.ctx.i1();
        let t = t.unqual();
        if matches!(self.types.kind(t), TyKind::Ptr(_) | TyKind::Nullptr)
            || cuprite_dialects::cuda::types::is_ptr(&self.ctx, self.ctx.value_type(a))
        {
            use cuprite_dialects::cuda::CmpKind;
            let k = match op {
                BinaryOp::Eq => CmpKind::Eq,
                BinaryOp::Ne => CmpKind::Ne,
                BinaryOp::Lt => CmpKind::Lt,
                BinaryOp::Le => CmpKind::Le,
                BinaryOp::Gt => CmpKind::Gt,
                _ => CmpKind::Ge,
            };
            let ka = self.enum_attr(k as i64);
            return self.op1("cuda.ptr_cmp", &[a, b], i1, &[("kind", ka)], span);
        }
        if self.types.float_ty(t).is_some() {
            let p = match op {
                BinaryOp::Eq => CmpFPredicate::Oeq,
                BinaryOp::Ne => CmpFPredicate::Une,
                BinaryOp::Lt => CmpFPredicate::Olt,
                BinaryOp::Le => CmpFPredicate::Ole,
                BinaryOp::Gt => CmpFPredicate::Ogt,
                _ => CmpFPredicate::Oge,
            };
            let pa = self.i64_attr(p as i64);
            return self.op1("arith.cmpf", &[a, b], i1, &[("predicate", pa)], span);
        }
        let s = self.signed_int(t);
        let p = match (op, s) {
            (BinaryOp::Eq, _) => CmpIPredicate::Eq,
            (BinaryOp::Ne, _) => CmpIPredicate::Ne,
            (BinaryOp::Lt, true) => CmpIPredicate::Slt,
            (BinaryOp::Le, true) => CmpIPredicate::Sle,
            (BinaryOp::Gt, true) => CmpIPredicate::Sgt,
            (BinaryOp::Lt, false) => CmpIPredicate::Ult,
            (BinaryOp::Le, false) => CmpIPredicate::Ule,
            (BinaryOp::Gt, false) => CmpIPredicate::Ugt,
            (_, true) => CmpIPredicate::Sge,
            (_, false) => CmpIPredicate::Uge,
        };
        let pa = self.i64_attr(p as i64);
        self.op1("arith.cmpi", &[a, b], i1, &[("predicate", pa)], span)
    }

    /// `-v` (`arith.negf` on floats, `0 - v` on integers) or `~v` (`v ^ -1`), of C type `t`.
    pub(crate) fn negate_or_not(&mut self, minus: bool, v: ValueId, t: Ty, span: Span) -> Option<ValueId> {
        let ir = self.types.ir(&mut self.ctx, t)?;
        if minus && self.types.float_ty(t.unqual()).is_some() {
            return Some(self.op1("arith.negf", &[v], ir, &[], span));
        }
        if minus {
            let z = self.constant_int(0, t, span);
            self.binop(Bin::Sub, z, v, t, span)
        } else {
            let m = self.constant_int(-1, t, span);
            self.binop(Bin::Xor, v, m, t, span)
        }
    }

    /// A conversion between arithmetic types `from` and `to` (`bool` included; their IR
    /// types differ).
    pub(crate) fn numeric_cast(&mut self, v: ValueId, from: Ty, to: Ty, to_ir: TypeId, span: Span) -> ValueId {
        let (from, to) = (from.unqual(), to.unqual());
        let from_ir = self.ctx.value_type(v);
        let (fi, ti) = (self.types.int_kind(from), self.types.int_kind(to));
        let (ff, tf) = (self.types.float_ty(from).is_some(), self.types.float_ty(to).is_some());
        if ti == Some(IntKind::Bool) {
            // x != 0 (a NaN is true).
            return if ff {
                let z = self.constant_float(0.0, from, span);
                self.compare(BinaryOp::Ne, v, z, from, span)
            } else {
                let z = self.constant_int(0, from, span);
                self.compare(BinaryOp::Ne, v, z, from, span)
            };
        }
        let signed = self.signed_int(from);
        let name = match (fi.is_some(), ff, ti.is_some(), tf) {
            (true, _, true, _) => {
                let (a, b) = (self.ctx.int_width(from_ir).unwrap_or(0), self.ctx.int_width(to_ir).unwrap_or(0));
                match a.cmp(&b) {
                    std::cmp::Ordering::Equal => return v,
                    std::cmp::Ordering::Greater => "arith.trunci",
                    std::cmp::Ordering::Less if signed => "arith.extsi",
                    std::cmp::Ordering::Less => "arith.extui",
                }
            }
            (true, _, _, true) if signed => "arith.sitofp",
            (true, _, _, true) => "arith.uitofp",
            (_, true, true, _) if self.signed_int(to) => "arith.fptosi",
            (_, true, true, _) => "arith.fptoui",
            _ => {
                let (a, b) = (float_width(&self.ctx, from_ir), float_width(&self.ctx, to_ir));
                match a.cmp(&b) {
                    std::cmp::Ordering::Less => "arith.extf",
                    std::cmp::Ordering::Greater => "arith.truncf",
                    // bf16 and f16 (no C type reaches here today): through f32.
                    std::cmp::Ordering::Equal if from_ir == to_ir => return v,
                    std::cmp::Ordering::Equal => {
                        let f32t = self.ctx.float_type(cuprite_ir::FloatKind::F32);
                        let w = self.op1("arith.extf", &[v], f32t, &[], span);
                        return self.op1("arith.truncf", &[w], to_ir, &[], span);
                    }
                }
            }
        };
        self.op1(name, &[v], to_ir, &[], span)
    }

    /// A pointer's truth value: `p != null`.
    pub(crate) fn pointer_to_bool(&mut self, p: ValueId, span: Span) -> ValueId {
        let pt = self.ctx.value_type(p);
        let null = self.op1("cuda.null", &[], pt, &[], span);
        let ka = self.enum_attr(cuprite_dialects::cuda::CmpKind::Ne as i64);
        let i1 = self.ctx.i1();
        self.op1("cuda.ptr_cmp", &[p, null], i1, &[("kind", ka)], span)
    }

    /// `cuda.cast` of kind `kind` (a conversion involving a pointer).
    pub(crate) fn cast_op(&mut self, kind: CastKind, v: ValueId, to: TypeId, span: Span) -> ValueId {
        let k = self.enum_attr(kind as i64);
        self.op1("cuda.cast", &[v], to, &[("kind", k)], span)
    }

    /// An integer of C type `t` as a pointer offset: `cuda.ptr_add` sign-extends its offset,
    /// so an unsigned one narrower than 64 bits is zero-extended first.
    pub(crate) fn offset_operand(&mut self, i: ValueId, t: Ty, span: Span) -> ValueId {
        let w = self.ctx.int_width(self.ctx.value_type(i)).unwrap_or(64);
        if w >= 64 || self.signed_int(t) {
            return i;
        }
        let i64t = self.ctx.i64();
        self.op1("arith.extui", &[i], i64t, &[], span)
    }

    /// Integer `v` of C type `t` as the 64-bit integer that `int_to_ptr` takes.
    pub(crate) fn int_to_pointer(&mut self, v: ValueId, t: Ty, to_ir: TypeId, span: Span) -> ValueId {
        let w = self.ctx.int_width(self.ctx.value_type(v)).unwrap_or(64);
        let i64t = self.ctx.i64();
        let v = if w < 64 {
            let name = if self.signed_int(t) { "arith.extsi" } else { "arith.extui" };
            self.op1(name, &[v], i64t, &[], span)
        } else {
            v
        };
        self.cast_op(CastKind::IntToPtr, v, to_ir, span)
    }

    /// Pointer `p` as an integer of IR type `to_ir` (`ptr_to_int`, then truncated).
    pub(crate) fn pointer_to_int(&mut self, p: ValueId, to_ir: TypeId, span: Span) -> ValueId {
        let i64t = self.ctx.i64();
        let v = self.cast_op(CastKind::PtrToInt, p, i64t, span);
        if self.ctx.int_width(to_ir).unwrap_or(64) < 64 {
            self.op1("arith.trunci", &[v], to_ir, &[], span)
        } else {
            v
        }
    }

    /// Integer `min`/`max` (the `min`, `umin`, `llmax`, ... built-ins) as `arith.minsi` and
    /// friends, signed or not after the C type `t` of the operands.
    pub(crate) fn int_min_max(&mut self, max: bool, a: ValueId, b: ValueId, t: Ty, span: Span) -> Option<ValueId> {
        let ir = self.types.ir(&mut self.ctx, t)?;
        let name = match (max, self.signed_int(t)) {
            (false, true) => "arith.minsi",
            (false, false) => "arith.minui",
            (true, true) => "arith.maxsi",
            (true, false) => "arith.maxui",
        };
        Some(self.op1(name, &[a, b], ir, &[], span))
    }
}

/// The width of float type `t` (0 if it is not one).
fn float_width(ctx: &cuprite_ir::Context, t: TypeId) -> u32 {
    match ctx.type_kind(t) {
        cuprite_ir::TypeKind::Float(k) => k.width(),
        _ => 0,
    }
}
