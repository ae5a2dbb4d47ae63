//! Expressions: analysis and emission at once. An expression becomes a [`Value`]: an SSA
//! value, or an address in an address space (an lvalue), with its C++ type. Conversions
//! (integer promotions, the usual arithmetic conversions, assignment conversions, array
//! decay, explicit casts) are emitted by [`Sema::convert`]: `arith` casts between
//! arithmetic types (see [`super::arith`]), `cuda.cast` where a pointer is involved. Constant
//! expressions are evaluated by [`Sema::const_eval`] without emitting anything.

use super::ty::{FloatTy, IntKind, Ty, TyKind};
use super::*;

#[derive(Copy, Clone, Debug)]
pub(crate) enum Place {
    Val(ValueId),
    /// An lvalue: the address and the space it is known to be in.
    Addr(ValueId, AddrSpace),
    Void,
    Builtin(BuiltinVar),
    /// A function name or overload set (only valid as a callee).
    Func,
}

/// The object of a member access: its address, address space and type.
pub(crate) type Object = (ValueId, AddrSpace, Ty);

#[derive(Copy, Clone, Debug)]
pub(crate) struct Value {
    pub place: Place,
    pub ty: Ty,
}

impl Value {
    pub fn val(v: ValueId, ty: Ty) -> Self {
        Value { place: Place::Val(v), ty }
    }
}

pub(crate) use cuprite_dialects::cuda::CastKind as Cast;

/// C's binary arithmetic operators (the `arith` op is chosen with the operand type).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Bin {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    And,
    Or,
    Xor,
    Shl,
    Shr,
}

/// A number's spelling without digit separators (`'`), in lower case; borrowed when it
/// already is (nearly every literal: this runs for each one).
fn literal_lowercase(text: &str) -> std::borrow::Cow<'_, str> {
    if text.bytes().any(|b| b == b'\'' || b.is_ascii_uppercase()) {
        std::borrow::Cow::Owned(text.chars().filter(|&c| c != '\'').collect::<String>().to_ascii_lowercase())
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

/// Parses an integer literal: value and type (C++ rules for the suffix and base).
pub(crate) fn int_literal(text: &str) -> Option<(i128, IntKind)> {
    let lower = literal_lowercase(text);
    let lower: &str = &lower;
    let digits_end = lower.trim_end_matches(['u', 'l']).len();
    let (num, suffix) = lower.split_at(digits_end);
    let (radix, body) = if let Some(h) = num.strip_prefix("0x") {
        (16, h)
    } else if let Some(b) = num.strip_prefix("0b") {
        (2, b)
    } else if num.len() > 1 && num.starts_with('0') {
        (8, &num[1..])
    } else {
        (10, num)
    };
    let v = u128::from_str_radix(body, radix).ok()?;
    if v > u64::MAX as u128 {
        return None;
    }
    let unsigned = suffix.contains('u');
    let longs = suffix.matches('l').count();
    let fits_signed = |bits: u32| v < (1u128 << (bits - 1));
    let fits_unsigned = |bits: u32| v < (1u128 << bits);
    let decimal = radix == 10;
    let candidates: &[IntKind] = match (unsigned, longs) {
        (false, 0) if decimal => &[IntKind::Int, IntKind::Long, IntKind::LongLong],
        (false, 0) => &[IntKind::Int, IntKind::UInt, IntKind::Long, IntKind::ULong, IntKind::LongLong, IntKind::ULongLong],
        (true, 0) => &[IntKind::UInt, IntKind::ULong, IntKind::ULongLong],
        (false, 1) if decimal => &[IntKind::Long, IntKind::LongLong],
        (false, 1) => &[IntKind::Long, IntKind::ULong, IntKind::LongLong, IntKind::ULongLong],
        (true, 1) => &[IntKind::ULong, IntKind::ULongLong],
        (false, _) if decimal => &[IntKind::LongLong],
        (false, _) => &[IntKind::LongLong, IntKind::ULongLong],
        (true, _) => &[IntKind::ULongLong],
    };
    for &k in candidates {
        let ok = if k.signed() { fits_signed(k.bits()) } else { fits_unsigned(k.bits()) };
        if ok {
            return Some((v as i128, k));
        }
    }
    // Too large for any signed type: unsigned long long, as compilers do (with a warning).
    Some((v as i128, IntKind::ULongLong))
}

/// Parses a float literal: value and whether it is `float` (`f` suffix).
pub(crate) fn float_literal(text: &str) -> Option<(f64, FloatTy)> {
    let lower = literal_lowercase(text);
    let lower: &str = &lower;
    let (body, ty) = if lower.starts_with("0x") {
        // Hex floats end in the exponent; a trailing `f` is then a suffix.
        match lower.strip_suffix('f') {
            Some(b) if b.contains('p') => (b, FloatTy::Float),
            _ => (lower.trim_end_matches('l'), FloatTy::Double),
        }
    } else if let Some(b) = lower.strip_suffix('f') {
        (b, FloatTy::Float)
    } else {
        (lower.trim_end_matches('l'), FloatTy::Double)
    };
    if let Some(h) = body.strip_prefix("0x") {
        let (mant, exp) = h.split_once('p')?;
        let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
        let mut v = 0f64;
        for c in int.chars() {
            v = v * 16.0 + c.to_digit(16)? as f64;
        }
        let mut scale = 1.0 / 16.0;
        for c in frac.chars() {
            v += c.to_digit(16)? as f64 * scale;
            scale /= 16.0;
        }
        let mut e: i32 = exp.parse().ok()?;
        // 2^e in steps that stay normal (2f64.powi(-1074) is 0): only the last product
        // can round, so 0x1p-1074 is the smallest subnormal.
        while e > 1000 && v.is_finite() && v != 0.0 {
            v *= 2f64.powi(1000);
            e -= 1000;
        }
        while e < -1000 && v != 0.0 {
            v *= 2f64.powi(-1000);
            e += 1000;
        }
        return Some((v * 2f64.powi(e), ty));
    }
    let v: f64 = body.parse().ok()?;
    Some((v, ty))
}

/// A character literal's value.
pub(crate) fn char_literal(text: &str) -> Option<i128> {
    let inner = text.strip_prefix('\'')?.strip_suffix('\'')?;
    let mut chars = inner.chars();
    let c = chars.next()?;
    if c != '\\' {
        return Some(c as i128);
    }
    let e = chars.next()?;
    let rest: String = chars.collect();
    Some(match e {
        'n' => 10,
        't' => 9,
        'r' => 13,
        '0'..='7' => i128::from_str_radix(&format!("{e}{rest}"), 8).ok()?,
        'x' => i128::from_str_radix(&rest, 16).ok()?,
        'a' => 7,
        'b' => 8,
        'f' => 12,
        'v' => 11,
        c => c as i128,
    })
}

impl Sema<'_> {
    // ----- constant expressions ----------------------------------------------------------

    /// Evaluates a constant expression (`None` if it is not one; nothing is reported).
    pub(crate) fn const_eval(&mut self, e: ExprId) -> Option<Konst> {
        let ex = self.ast.expr(e);
        Some(match &ex.kind {
            ExprKind::Int(a) => Konst::Int(int_literal(self.name_str(*a))?.0),
            ExprKind::Float(a) => Konst::Float(float_literal(self.name_str(*a))?.0),
            ExprKind::Char(a) => Konst::Int(char_literal(self.name_str(*a))?),
            ExprKind::Bool(b) => Konst::Int(*b as i128),
            ExprKind::Name(n) => {
                let ast = self.ast;
                match self.lookup_name(ast.name(*n)).into_iter().next()? {
                    Entity::Const(k, _) => k,
                    Entity::Var { konst: Some(k), .. } | Entity::Global { konst: Some(k), .. } => k,
                    _ => return None,
                }
            }
            ExprKind::Unary(op, x) => {
                let v = self.const_eval(*x)?;
                match (op, v) {
                    (UnaryOp::Plus, v) => v,
                    (UnaryOp::Minus, Konst::Int(i)) => Konst::Int(i.wrapping_neg()),
                    (UnaryOp::Minus, Konst::Float(f)) => Konst::Float(-f),
                    (UnaryOp::Not, Konst::Int(i)) => Konst::Int((i == 0) as i128),
                    (UnaryOp::Not, Konst::Float(f)) => Konst::Int((f == 0.0) as i128),
                    (UnaryOp::BitNot, Konst::Int(i)) => Konst::Int(!i),
                    _ => return None,
                }
            }
            ExprKind::Binary(op, a, b) => {
                let (op, a, b) = (*op, *a, *b);
                let x = self.const_eval(a)?;
                if op == BinaryOp::And && x == Konst::Int(0) {
                    return Some(Konst::Int(0));
                }
                if op == BinaryOp::Or && matches!(x, Konst::Int(v) if v != 0) {
                    return Some(Konst::Int(1));
                }
                let y = self.const_eval(b)?;
                match (x, y) {
                    (Konst::Int(x), Konst::Int(y)) => Konst::Int(match op {
                        BinaryOp::Add => x.wrapping_add(y),
                        BinaryOp::Sub => x.wrapping_sub(y),
                        BinaryOp::Mul => x.wrapping_mul(y),
                        BinaryOp::Div => x.checked_div(y)?,
                        BinaryOp::Rem => x.checked_rem(y)?,
                        BinaryOp::Shl => x.checked_shl(u32::try_from(y).ok()?)?,
                        BinaryOp::Shr => x.checked_shr(u32::try_from(y).ok()?)?,
                        BinaryOp::Lt => (x < y) as i128,
                        BinaryOp::Gt => (x > y) as i128,
                        BinaryOp::Le => (x <= y) as i128,
                        BinaryOp::Ge => (x >= y) as i128,
                        BinaryOp::Eq => (x == y) as i128,
                        BinaryOp::Ne => (x != y) as i128,
                        BinaryOp::BitAnd => x & y,
                        BinaryOp::BitXor => x ^ y,
                        BinaryOp::BitOr => x | y,
                        BinaryOp::And => (x != 0 && y != 0) as i128,
                        BinaryOp::Or => (x != 0 || y != 0) as i128,
                        BinaryOp::Comma => y,
                    }),
                    (x, y) => {
                        let f = |k: Konst| match k {
                            Konst::Int(i) => i as f64,
                            Konst::Float(f) => f,
                        };
                        let (x, y) = (f(x), f(y));
                        match op {
                            BinaryOp::Add => Konst::Float(x + y),
                            BinaryOp::Sub => Konst::Float(x - y),
                            BinaryOp::Mul => Konst::Float(x * y),
                            BinaryOp::Div => Konst::Float(x / y),
                            BinaryOp::Lt => Konst::Int((x < y) as i128),
                            BinaryOp::Gt => Konst::Int((x > y) as i128),
                            BinaryOp::Le => Konst::Int((x <= y) as i128),
                            BinaryOp::Ge => Konst::Int((x >= y) as i128),
                            BinaryOp::Eq => Konst::Int((x == y) as i128),
                            BinaryOp::Ne => Konst::Int((x != y) as i128),
                            _ => return None,
                        }
                    }
                }
            }
            ExprKind::Cond(c, a, b) => {
                let (c, a, b) = (*c, *a, *b);
                match self.const_eval(c)? {
                    Konst::Int(0) => self.const_eval(b)?,
                    _ => self.const_eval(a)?,
                }
            }
            ExprKind::Cast { ty, expr, .. } => {
                let (ty, expr) = (*ty, *expr);
                let v = self.const_eval(expr)?;
                let t = self.resolve_type(ty);
                self.konst_convert(v, t)?
            }
            ExprKind::Construct { ty, args, .. } if args.len() == 1 => {
                let (ty, a) = (*ty, args[0]);
                let v = self.const_eval(a)?;
                let t = self.resolve_type(ty);
                self.konst_convert(v, t)?
            }
            ExprKind::SizeofType(t) => {
                let t = self.resolve_type(*t);
                Konst::Int(self.types.size(t) as i128)
            }
            ExprKind::SizeofPack(name) => Konst::Int(self.sizeof_pack(*name, ex.span)? as i128),
            ExprKind::Alignof(t) => {
                let t = self.resolve_type(*t);
                Konst::Int(self.types.align(t) as i128)
            }
            ExprKind::SizeofExpr(x) => {
                let t = self.type_of_unevaluated(*x)?;
                Konst::Int(self.types.size(t) as i128)
            }
            _ => return None,
        })
    }

    fn konst_convert(&self, v: Konst, t: Ty) -> Option<Konst> {
        if let Some(k) = self.types.int_kind(t) {
            let i = match v {
                Konst::Int(i) => i,
                Konst::Float(f) => f.trunc() as i128,
            };
            if k == IntKind::Bool {
                return Some(Konst::Int((i != 0) as i128));
            }
            let bits = k.bits();
            let m = i & ((1i128 << bits) - 1);
            let r = if k.signed() && m >= (1i128 << (bits - 1)) { m - (1i128 << bits) } else { m };
            return Some(Konst::Int(r));
        }
        if self.types.float_ty(t).is_some() {
            return Some(Konst::Float(match v {
                Konst::Int(i) => i as f64,
                Konst::Float(f) => f,
            }));
        }
        None
    }

    /// The type of an unevaluated operand (`sizeof expr`): analysed in a scratch block
    /// that is then discarded.
    pub(crate) fn type_of_unevaluated(&mut self, e: ExprId) -> Option<Ty> {
        self.fs.as_ref()?;
        let scratch = self.ctx.create_block(&[]);
        let (v, _) = self.in_block(scratch, |s| s.expr(e));
        self.ctx.erase_block(scratch);
        v.map(|v| v.ty)
    }

    // ----- conversions -------------------------------------------------------------------

    /// Integer promotion of an arithmetic type. `half` (`_Float16`) does not promote: as in
    /// C23 and CUDA's `__half` operators, `half + half` is a `half` addition (and, being
    /// lower in rank than `float`, `half + float` is a `float` one).
    pub(crate) fn promoted(&mut self, t: Ty) -> Ty {
        let t = t.unqual();
        if let Some(k) = self.types.int_kind(t) {
            if k.rank() < IntKind::Int.rank() {
                return self.types.int(IntKind::Int);
            }
            if matches!(self.types.kind(t), TyKind::Enum(_)) {
                return self.types.int(k);
            }
            return t;
        }
        t
    }

    /// The usual arithmetic conversions' common type.
    pub(crate) fn common_type(&mut self, a: Ty, b: Ty) -> Ty {
        let (a, b) = (self.promoted(a), self.promoted(b));
        match (self.types.float_ty(a), self.types.float_ty(b)) {
            (Some(x), Some(y)) => return self.types.float(x.max(y)),
            (Some(_), None) => return a,
            (None, Some(_)) => return b,
            _ => {}
        }
        let (Some(x), Some(y)) = (self.types.int_kind(a), self.types.int_kind(b)) else { return self.types.error() };
        if x == y {
            return a;
        }
        let k = if x.signed() == y.signed() {
            if x.rank() >= y.rank() {
                x
            } else {
                y
            }
        } else {
            let (s, u) = if x.signed() { (x, y) } else { (y, x) };
            if u.rank() >= s.rank() {
                u
            } else if s.bits() > u.bits() {
                s
            } else {
                s.to_unsigned()
            }
        };
        self.types.int(k)
    }

    /// Converts value `v` of type `from` to `to`; `explicit`: a cast (allows pointer and
    /// integer/pointer conversions). Reports what cannot be converted.
    pub(crate) fn convert(&mut self, v: ValueId, from: Ty, to: Ty, span: Span, explicit: bool) -> Option<ValueId> {
        let (f, t) = (from.unqual(), to.unqual());
        if f == t || self.types.is_error(f) || self.types.is_error(t) {
            return Some(v);
        }
        let tk = self.types.kind(t).clone();
        let fk = self.types.kind(f).clone();
        let Some(to_ir) = self.types.ir(&mut self.ctx, t) else {
            // To void: discard.
            return Some(v);
        };
        let fi = self.types.int_kind(f);
        let ti = self.types.int_kind(t);
        let ff = self.types.float_ty(f);
        let tf = self.types.float_ty(t);
        let from_ir = self.ctx.value_type(v);
        if from_ir == to_ir && (fi.is_some() || ff.is_some()) && (ti.is_some() || tf.is_some()) {
            // Same representation (an enum and its underlying type, long and long long).
            return Some(v);
        }
        Some(match (fi, ff, ti, tf) {
            (Some(_), _, Some(_), _) if !matches!(fi, Some(IntKind::Bool)) && !matches!(ti, Some(IntKind::Bool)) => {
                if matches!(tk, TyKind::Enum(_)) && !explicit && !matches!(fk, TyKind::Enum(_)) {
                    self.error(span, format!("cannot convert '{}' to '{}' implicitly", self.types.show(from), self.types.show(to)));
                }
                self.numeric_cast(v, f, t, to_ir, span)
            }
            (Some(_), _, Some(_), _) | (Some(_), _, _, Some(_)) | (_, Some(_), Some(_), _) | (_, Some(_), _, Some(_)) => {
                self.numeric_cast(v, f, t, to_ir, span)
            }
            _ => match (fk, tk) {
                (TyKind::Ptr(_) | TyKind::Nullptr, TyKind::Int(IntKind::Bool)) => self.pointer_to_bool(v, span),
                (TyKind::Nullptr, TyKind::Ptr(_)) => self.cast_op(Cast::PtrCast, v, to_ir, span),
                (TyKind::Ptr(a), TyKind::Ptr(b)) if self.derives(a, b) => {
                    if (b.quals() & a.quals()) != a.quals() && !explicit {
                        self.error(span, format!("cannot convert '{}' to '{}' without a cast", self.types.show(from), self.types.show(to)));
                    }
                    self.upcast_ptr(v, a, b, span)?
                }
                (TyKind::Ptr(a), TyKind::Ptr(b)) => {
                    let (ea, eb) = (self.element_quals(a), self.element_quals(b));
                    let ok = explicit
                        || self.types.is_void(b.unqual())
                        || (ea.unqual() == eb.unqual() && (eb.quals() & ea.quals()) == ea.quals());
                    if !ok {
                        self.error(span, format!("cannot convert '{}' to '{}' without a cast", self.types.show(from), self.types.show(to)));
                    }
                    self.cast_op(Cast::PtrCast, v, to_ir, span)
                }
                (TyKind::Ptr(_), TyKind::Int(_)) if explicit => self.pointer_to_int(v, to_ir, span),
                (TyKind::Int(_), TyKind::Ptr(_)) if explicit => self.int_to_pointer(v, f, to_ir, span),
                (TyKind::Record(a), TyKind::Record(b)) if a == b => v,
                // Slicing: the base subobject's value.
                (TyKind::Record(_), TyKind::Record(_)) if self.derives(f, t) => {
                    let tmp = self.new_var("", f, AddrSpace::Local, span);
                    self.store(v, tmp, f, span);
                    let p = self.generic_ptr(tmp, AddrSpace::Local, f, span);
                    let b = self.upcast_ptr(p, f, t, span)?;
                    self.load(b, t, span)
                }
                _ => {
                    self.error(span, format!("cannot convert '{}' to '{}'", self.types.show(from), self.types.show(to)));
                    return None;
                }
            },
        })
    }

    /// An implicit conversion of expression value `v` to `to` (with the null pointer
    /// constant `0` converting to any pointer).
    pub(crate) fn convert_value(&mut self, v: Value, e: ExprId, to: Ty, span: Span) -> Option<ValueId> {
        // A converting constructor (`Complex z = 1.0f`, a `const char *` for a `std::string`).
        if let Some(r) = self.types.record(to.unqual()) {
            if self.types.record(v.ty.unqual()).is_none_or(|x| x != r && !self.derives(v.ty, to)) {
                if let Some(f) = self.converting_ctor(r, &v, Some(e)) {
                    let rt = to.unqual();
                    let tmp = self.new_var("", rt, AddrSpace::Local, span);
                    let this = self.generic_ptr(tmp, AddrSpace::Local, rt, span);
                    self.emit_call(f, Some(this), vec![v], &[e], span)?;
                    return Some(self.load(tmp, rt, span));
                }
            }
        }
        if matches!(self.types.kind(to.unqual()), TyKind::Ptr(_))
            && self.types.is_integral(v.ty)
            && self.const_eval(e) == Some(Konst::Int(0))
        {
            let t = self.types.ir(&mut self.ctx, to)?;
            return Some(self.op1("cuda.null", &[], t, &[], span));
        }
        // A conversion function (`operator float()` of a class).
        if let Some(r) = self.types.record(v.ty.unqual()) {
            if self.types.record(to.unqual()) != Some(r) && !self.derives(v.ty, to) {
                if let Some(f) = self.conversion_to(r, to, false) {
                    let c = self.call_conversion(f, r, v, span)?;
                    let (x, t) = self.rval(c, span)?;
                    return self.convert(x, t, to, span, false);
                }
            }
        }
        let (r, rt) = self.rval(v, span)?;
        self.convert(r, rt, to, span, false)
    }

    /// The rvalue of `v`: loads lvalues, decays arrays to pointers.
    pub(crate) fn rval(&mut self, v: Value, span: Span) -> Option<(ValueId, Ty)> {
        match v.place {
            Place::Val(x) => Some((x, v.ty)),
            Place::Addr(addr, space) => match self.types.kind(v.ty.unqual()).clone() {
                TyKind::Array(elem, _) => Some((self.decay(addr, space, v.ty, elem, span), self.types.ptr(elem))),
                _ => Some((self.load(addr, v.ty, span), v.ty.unqual())),
            },
            Place::Void => {
                self.error(span, "a void value cannot be used");
                None
            }
            Place::Builtin(BuiltinVar::WarpSize) => {
                let u = self.types.int(IntKind::UInt);
                let ir = self.types.ir(&mut self.ctx, u)?;
                let r = self.enum_attr(12);
                let w = self.op1("cuda.special", &[], ir, &[("reg", r)], span);
                let i = self.types.int(IntKind::Int);
                Some((self.convert(w, u, i, span, false)?, i))
            }
            Place::Builtin(b) => {
                // `threadIdx` as a whole: a uint3/dim3 temporary.
                let t = v.ty;
                let tmp = self.new_var("", t, AddrSpace::Local, span);
                let u = self.types.int(IntKind::UInt);
                for (i, c) in ["x", "y", "z"].iter().enumerate() {
                    let val = self.special(b, c, span)?;
                    let fa = self.member_addr(tmp, AddrSpace::Local, t, i, span);
                    self.store(val, fa, u, span);
                }
                Some((self.load(tmp, t, span), t))
            }
            Place::Func => {
                self.unsupported(span, "a function used as a value (function pointers)");
                None
            }
        }
    }

    /// Array address to a generic pointer to its first element.
    fn decay(&mut self, addr: ValueId, space: AddrSpace, arr: Ty, elem: Ty, span: Span) -> ValueId {
        let first = self.elem_addr(addr, space, arr, elem, span);
        self.generic_ptr(first, space, elem, span)
    }

    /// The address of an array's first element, in the array's space.
    pub(crate) fn elem_addr(&mut self, addr: ValueId, space: AddrSpace, arr: Ty, elem: Ty, span: Span) -> ValueId {
        if matches!(self.types.kind(arr.unqual()), TyKind::Array(_, None)) {
            return addr;
        }
        let pt = self.types.ir_ptr(&mut self.ctx, elem, space);
        self.cast_op(Cast::ArrayDecay, addr, pt, span)
    }

    /// An address in `space` as a generic pointer value.
    pub(crate) fn generic_ptr(&mut self, addr: ValueId, space: AddrSpace, pointee: Ty, span: Span) -> ValueId {
        if space == AddrSpace::Generic {
            return addr;
        }
        let pt = self.types.ir_ptr(&mut self.ctx, pointee, AddrSpace::Generic);
        self.cast_op(Cast::PtrCast, addr, pt, span)
    }

    /// The field named `name` of record `r`: its index, or the indices down through
    /// anonymous struct and union members (`struct { union { float4 v; float a[4]; }; }`:
    /// `a` is `[0, 1]`).
    pub(crate) fn field_path(&self, r: RecId, name: Atom) -> Option<smallvec::SmallVec<[usize; 2]>> {
        let fields = &self.types.rec(r).fields;
        if let Some(i) = fields.iter().position(|f| f.name == name && !f.is_base) {
            return Some(smallvec::smallvec![i]);
        }
        let anon = self.atom("<anonymous>");
        fields.iter().enumerate().filter(|(_, f)| Some(f.name) == anon || f.is_base).find_map(|(i, f)| {
            let inner = self.types.record(f.ty.unqual())?;
            let mut path = self.field_path(inner, name)?;
            path.insert(0, i);
            Some(path)
        })
    }

    /// The fields from record `r` down to its base class `base` (directly or through other
    /// bases; empty bases add none); `None` if `base` is not a base of `r`.
    pub(crate) fn base_path(&self, r: RecId, base: RecId) -> Option<smallvec::SmallVec<[usize; 2]>> {
        if r == base {
            return Some(smallvec::SmallVec::new());
        }
        self.types.rec(r).bases.iter().find_map(|b| {
            let mut rest = self.base_path(b.rec, base)?;
            if let Some(i) = b.field {
                rest.insert(0, i);
            }
            Some(rest)
        })
    }

    /// Pointer `p` to a `from` (a class) as a pointer to its base class `to`: the address
    /// of the base subobject.
    pub(crate) fn upcast_ptr(&mut self, p: ValueId, from: Ty, to: Ty, span: Span) -> Option<ValueId> {
        let (a, b) = (self.types.record(from.unqual())?, self.types.record(to.unqual())?);
        let path = self.base_path(a, b)?;
        let (addr, _) = self.field_addr(p, AddrSpace::Generic, from.unqual(), &path, span);
        let bt = to.unqual();
        if path.is_empty() {
            // An empty base at offset 0: the same address, typed as the base.
            let pt = self.types.ir_ptr(&mut self.ctx, bt, AddrSpace::Generic);
            return Some(self.cast_op(Cast::PtrCast, addr, pt, span));
        }
        Some(addr)
    }

    /// `this` (a pointer to an `r`) for calling member function `f`, which may be a base
    /// class's: the pointer to that base subobject.
    pub(crate) fn this_for(&mut self, this: ValueId, r: RecId, f: crate::sema::FuncId, span: Span) -> Option<ValueId> {
        let Some(mr) = self.funcs[f.0 as usize].record else { return Some(this) };
        if mr == r {
            return Some(this);
        }
        if self.base_path(r, mr).is_none() {
            let (a, b) = (self.types.rec(mr).name.clone(), self.types.rec(r).name.clone());
            self.error(span, format!("'{}' is a member of '{a}', which is not a base of '{b}'", self.funcs[f.0 as usize].display));
            return None;
        }
        let (rt, mt) = (self.rec_ty(r), self.rec_ty(mr));
        self.upcast_ptr(this, rt, mt, span)
    }

    /// The address and type of the field at `path` ([`Sema::field_path`]) of the record of
    /// type `rec_ty` at `base`.
    pub(crate) fn field_addr(&mut self, base: ValueId, space: AddrSpace, rec_ty: Ty, path: &[usize], span: Span) -> (ValueId, Ty) {
        let (mut a, mut t) = (base, rec_ty);
        for &i in path {
            let r = self.types.record(t.unqual()).expect("record");
            // Members of a const/volatile object are const/volatile.
            let fty = self.types.rec(r).fields[i].ty.with_quals(t.quals());
            a = self.member_addr(a, space, t, i, span);
            t = fty;
        }
        (a, t)
    }

    pub(crate) fn member_addr(&mut self, base: ValueId, space: AddrSpace, rec_ty: Ty, index: usize, span: Span) -> ValueId {
        let r = self.types.record(rec_ty.unqual()).expect("record");
        let fty = self.types.rec(r).fields[index].ty;
        let pt = self.types.ir_ptr(&mut self.ctx, fty, space);
        if self.types.rec(r).is_union {
            // Union members all start at the union's address (its IR type is storage).
            return self.cast_op(Cast::PtrCast, base, pt, span);
        }
        let i32t = self.ctx.i32();
        let ia = self.ctx.int_attr(index as i128, i32t);
        self.op1("cuda.member_addr", &[base], pt, &[("index", ia)], span)
    }

    /// The value of expression `e` as an rvalue.
    pub(crate) fn rvalue(&mut self, e: ExprId) -> Option<(ValueId, Ty)> {
        let v = self.expr(e)?;
        let span = self.ast.expr(e).span;
        self.rval(v, span)
    }

    /// `e` converted to `bool` (a condition).
    pub(crate) fn condition(&mut self, e: ExprId) -> Option<ValueId> {
        let span = self.ast.expr(e).span;
        let (v, t) = self.rvalue(e)?;
        if !self.types.is_scalar(t) {
            self.error(span, format!("'{}' is not contextually convertible to 'bool'", self.types.show(t)));
            return None;
        }
        let b = self.types.bool();
        self.convert(v, t, b, span, true)
    }

    // ----- expressions -------------------------------------------------------------------

    /// Analyses and emits expression `e`. In host code, an outermost expression that fails
    /// is searched for the launches, calls and template-ids inside it, each analysed on its
    /// own: host code uses C++ that sema does not take (`a == "x" ? run<double>(o) :
    /// run(o)` with a comparison it cannot type), and the kernels a launch or a call
    /// instantiates must not be lost with it.
    pub(crate) fn expr(&mut self, e: ExprId) -> Option<Value> {
        if !self.in_host_code() {
            return self.expr_inner(e);
        }
        self.host_expr_depth += 1;
        let v = self.expr_inner(e);
        self.host_expr_depth -= 1;
        if v.is_none() && self.host_expr_depth == 0 {
            self.host_expr_depth += 1;
            let mut work = self.ast.expr(e).kind.children();
            while let Some(c) = work.pop() {
                let kind = &self.ast.expr(c).kind;
                let named = matches!(kind, ExprKind::Name(n) if self.ast.name(*n).template_args.is_some());
                let analysed = (named || matches!(kind, ExprKind::Call { .. } | ExprKind::Launch { .. })) && {
                    // A template-id is a leaf: analysed once, whatever comes of it.
                    let ok = self.expr_inner(c).is_some();
                    ok || named
                };
                if analysed {
                    continue;
                }
                work.extend(self.ast.expr(c).kind.children());
            }
            self.host_expr_depth -= 1;
        }
        v
    }

    fn expr_inner(&mut self, e: ExprId) -> Option<Value> {
        let ex = self.ast.expr(e);
        let span = ex.span;
        match &ex.kind {
            ExprKind::Int(a) => {
                let text = self.name_str(*a);
                let Some((v, k)) = int_literal(text) else {
                    self.error(span, format!("invalid integer literal '{text}'"));
                    return None;
                };
                let t = self.types.int(k);
                Some(Value::val(self.constant_int(v, t, span), t))
            }
            ExprKind::Float(a) => {
                let text = self.name_str(*a);
                let Some((v, f)) = float_literal(text) else {
                    self.error(span, format!("invalid floating-point literal '{text}'"));
                    return None;
                };
                let t = self.types.float(f);
                Some(Value::val(self.constant_float(v, t, span), t))
            }
            ExprKind::Char(a) => {
                let text = self.name_str(*a);
                let Some(v) = char_literal(text) else {
                    self.error(span, format!("unsupported character literal {text}"));
                    return None;
                };
                let t = self.types.int(IntKind::Char);
                Some(Value::val(self.constant_int(v, t, span), t))
            }
            ExprKind::Bool(b) => {
                let t = self.types.bool();
                Some(Value::val(self.constant_int(*b as i128, t, span), t))
            }
            ExprKind::Nullptr => {
                let t = self.types.intern(TyKind::Nullptr);
                let it = self.types.ir(&mut self.ctx, t)?;
                Some(Value::val(self.op1("cuda.null", &[], it, &[], span), t))
            }
            // Host code: a `const char *` (its value is never used: host code is dropped).
            ExprKind::Str(_) if self.in_host_code() => {
                let c = self.types.int(IntKind::Char).with_quals(Ty::CONST);
                let t = self.types.ptr(c);
                let it = self.types.ir(&mut self.ctx, t)?;
                Some(Value::val(self.op1("cuda.null", &[], it, &[], span), t))
            }
            ExprKind::Str(parts) => {
                let parts = parts.clone();
                self.string_literal(&parts, span)
            }
            ExprKind::This => match self.fs.as_ref().and_then(|f| f.this) {
                Some((p, r)) => {
                    let rt = self.rec_ty(r);
                    let pt = self.types.ptr(rt);
                    Some(Value::val(p, pt))
                }
                None => {
                    self.error(span, "'this' is only available in member functions");
                    None
                }
            },
            ExprKind::Name(n) => {
                let ast = self.ast;
                self.name_expr(ast.name(*n), span)
            }
            ExprKind::Unary(op, x) => self.unary(*op, *x, span),
            ExprKind::Binary(op, a, b) => self.binary(*op, *a, *b, span),
            ExprKind::Assign { op, lhs, rhs } => self.assign(*op, *lhs, *rhs, span),
            ExprKind::Cond(c, a, b) => self.conditional(*c, *a, *b, span),
            ExprKind::Call { callee, args } => self.call(*callee, args, span),
            ExprKind::Launch { callee, config, args } => self.launch(*callee, config, args, span),
            ExprKind::Index(a, i) => self.index(*a, *i, span),
            ExprKind::Member { base, arrow, name } => {
                let ast = self.ast;
                self.member(*base, *arrow, ast.name(*name), span)
            }
            ExprKind::Cast { kind, ty, expr } => {
                let (kind, ty, x) = (*kind, *ty, *expr);
                let t = self.resolve_type(ty);
                if kind == CastKind::Dynamic {
                    self.unsupported(span, "'dynamic_cast'");
                    return None;
                }
                self.explicit_cast(x, t, span)
            }
            ExprKind::Construct { ty, args, .. } => {
                let (ty, args) = (*ty, args.clone());
                let t = self.resolve_type(ty);
                // A compound literal `(float2){x, y}` (C99, and GNU C++): a temporary
                // initialized by the list.
                if let [x] = args[..] {
                    if matches!(self.ast.expr(x).kind, ExprKind::InitList(_)) && !self.types.is_error(t) {
                        return Some(self.braced_temp(t, x));
                    }
                }
                self.construct(t, &args, span)
            }
            ExprKind::SizeofType(_) | ExprKind::SizeofExpr(_) | ExprKind::Alignof(_) => {
                let Some(Konst::Int(v)) = self.const_eval(e) else {
                    self.error(span, "invalid operand of sizeof");
                    return None;
                };
                let t = self.types.int(IntKind::ULong);
                Some(Value::val(self.constant_int(v, t, span), t))
            }
            ExprKind::InitList(_) => {
                self.error(span, "a braced initializer list is only allowed to initialize a variable");
                None
            }
            ExprKind::Expand { .. } => {
                self.unsupported(span, "a pack expansion here (only in call and constructor arguments and template arguments)");
                None
            }
            ExprKind::SizeofPack(name) => self.sizeof_pack_value(*name, span),
            ExprKind::Fold { op, lhs, rhs } => self.fold(*op, *lhs, *rhs, span),
            ExprKind::StmtExpr(body) => self.stmt_expr(*body, span),
            ExprKind::Lambda(l) => {
                let l = (**l).clone();
                self.lambda(e, &l, span)
            }
            ExprKind::Unsupported(what) => {
                self.unsupported(span, what);
                None
            }
            ExprKind::New { placement, ty, count, args, braces } => {
                let (placement, ty, count, args, braces) = (*placement, *ty, *count, args.clone(), *braces);
                self.new_expr(placement, ty, count, args.as_deref(), braces, span)
            }
            ExprKind::Delete { array, expr } => {
                let (array, expr) = (*array, *expr);
                self.delete_expr(array, expr, span)
            }
            ExprKind::Error => None,
        }
    }

    fn name_expr(&mut self, n: &Name, span: Span) -> Option<Value> {
        // A field of the object, in a member function.
        if n.parts.len() == 1 && !n.global {
            let in_scope = self.scopes.iter().rev().any(|s| s.contains_key(&n.parts[0]));
            if !in_scope {
                if let Some((this, r)) = self.fs.as_ref().and_then(|f| f.this) {
                    if let Some(path) = self.field_path(r, n.parts[0]) {
                        let rt = self.rec_ty(r);
                        let (a, fty) = self.field_addr(this, AddrSpace::Generic, rt, &path, span);
                        return Some(Value { place: Place::Addr(a, AddrSpace::Generic), ty: fty });
                    }
                }
            }
        }
        let found = self.lookup_name(n);
        let Some(first) = found.first().cloned() else {
            self.undeclared(span, n);
            return None;
        };
        match first {
            Entity::Var { addr, ty, space, .. } => Some(Value { place: Place::Addr(addr, space), ty }),
            Entity::Global { sym, ty, space, konst, span: decl_span } => match space {
                Some(space) => {
                    let pt = self.types.ir_ptr(&mut self.ctx, ty, space);
                    let s = self.ctx.symbol_ref(&sym);
                    let a = self.op1("cuda.addressof", &[], pt, &[("name", s)], span);
                    Some(Value { place: Place::Addr(a, space), ty })
                }
                None => match konst {
                    Some(k) => self.konst_value(k, ty, span),
                    // Host code reads host variables (the address is never used: host code
                    // is dropped).
                    None if self.in_host_code() => {
                        let pt = self.types.ptr(ty);
                        let it = self.types.ir(&mut self.ctx, pt)?;
                        let a = self.op1("cuda.null", &[], it, &[], span);
                        Some(Value { place: Place::Addr(a, AddrSpace::Generic), ty })
                    }
                    None => {
                        let t = self.name_text(n);
                        self.error_with(
                            Diagnostic::error(span, format!("host variable '{t}' cannot be used in device code"))
                                .note(Some(decl_span), "declared here without __device__, __constant__ or __shared__"),
                        );
                        None
                    }
                },
            },
            Entity::DynShared { name, ty } => {
                let pt = self.types.ir_ptr(&mut self.ctx, ty, AddrSpace::Shared);
                let na = self.name_attr(&name);
                let dynamic = self.ctx.unit_attr();
                let a = self.op1("cuda.var", &[], pt, &[("name", na), ("dynamic", dynamic)], span);
                Some(Value { place: Place::Addr(a, AddrSpace::Shared), ty })
            }
            Entity::Builtin(b) => {
                let t = self.builtin_var_type(b);
                Some(Value { place: Place::Builtin(b), ty: t })
            }
            Entity::Const(k, t) => self.konst_value(k, t, span),
            Entity::Func(_) | Entity::Template(_) => {
                if self.in_host_code() {
                    self.require_named_kernels(&found, n, span);
                }
                Some(Value { place: Place::Func, ty: self.types.error() })
            }
            Entity::Type(_) => {
                let t = self.name_text(n);
                self.error(span, format!("'{t}' is a type, not a value"));
                None
            }
            Entity::Namespace(_) => {
                let t = self.name_text(n);
                self.error(span, format!("'{t}' is a namespace, not a value"));
                None
            }
            Entity::Pack(_) => {
                let t = self.name_text(n);
                self.error(span, format!("parameter pack '{t}' must be expanded with '...' (in a call's arguments or a fold expression)"));
                None
            }
        }
    }

    fn builtin_var_type(&mut self, b: BuiltinVar) -> Ty {
        if b == BuiltinVar::WarpSize {
            return self.types.int(IntKind::Int);
        }
        let name = if matches!(b, BuiltinVar::ThreadIdx | BuiltinVar::BlockIdx) { "uint3" } else { "dim3" };
        let a = self.atom(name);
        match a.map(|a| self.lookup_in_ns(NsId(0), a, 0)).and_then(|v| v.into_iter().next()) {
            Some(Entity::Type(t)) => t,
            _ => self.types.error(),
        }
    }

    pub(crate) fn konst_value(&mut self, k: Konst, t: Ty, span: Span) -> Option<Value> {
        let v = match k {
            Konst::Int(i) if self.types.float_ty(t).is_some() => self.constant_float(i as f64, t, span),
            Konst::Int(i) => self.constant_int(i, t, span),
            Konst::Float(f) if self.types.float_ty(t).is_some() => self.constant_float(f, t, span),
            Konst::Float(f) => self.constant_int(f as i128, t, span),
        };
        Some(Value::val(v, t.unqual()))
    }

    /// A `cuda.special` read: `threadIdx.x` and friends.
    pub(crate) fn special(&mut self, b: BuiltinVar, member: &str, span: Span) -> Option<ValueId> {
        let base = match b {
            BuiltinVar::ThreadIdx => 0,
            BuiltinVar::BlockDim => 3,
            BuiltinVar::BlockIdx => 6,
            BuiltinVar::GridDim => 9,
            BuiltinVar::WarpSize => 12,
        };
        let off = match member {
            "x" => 0,
            "y" => 1,
            "z" => 2,
            _ => {
                self.error(span, format!("no member named '{member}' (the thread-index builtins have x, y and z)"));
                return None;
            }
        };
        let u = self.types.int(IntKind::UInt);
        let t = self.types.ir(&mut self.ctx, u)?;
        let r = self.enum_attr(base + off);
        Some(self.op1("cuda.special", &[], t, &[("reg", r)], span))
    }

    fn lvalue(&mut self, e: ExprId, what: &str) -> Option<(ValueId, AddrSpace, Ty)> {
        let span = self.ast.expr(e).span;
        let v = self.expr(e)?;
        match v.place {
            Place::Addr(a, s) => Some((a, s, v.ty)),
            _ => {
                self.error(span, format!("{what} requires an lvalue"));
                None
            }
        }
    }

    fn unary(&mut self, op: UnaryOp, x: ExprId, span: Span) -> Option<Value> {
        match op {
            UnaryOp::Plus | UnaryOp::Minus | UnaryOp::BitNot => {
                let vx = self.expr(x)?;
                if self.types.record(vx.ty.unqual()).is_some() {
                    let sym = match op {
                        UnaryOp::Plus => "+",
                        UnaryOp::Minus => "-",
                        _ => "~",
                    };
                    return self.overloaded_operator(sym, vx, x, None, span);
                }
                let (v, t) = self.rval(vx, self.ast.expr(x).span)?;
                if op == UnaryOp::Plus && matches!(self.types.kind(t), TyKind::Ptr(_)) {
                    return Some(Value::val(v, t));
                }
                if !self.types.is_arith(t) || (op == UnaryOp::BitNot && !self.types.is_integral(t)) {
                    self.error(span, format!("invalid argument type '{}' to unary expression", self.types.show(t)));
                    return None;
                }
                let p = self.promoted(t);
                let v = self.convert(v, t, p, span, false)?;
                if op == UnaryOp::Plus {
                    return Some(Value::val(v, p));
                }
                Some(Value::val(self.negate_or_not(op == UnaryOp::Minus, v, p, span)?, p))
            }
            UnaryOp::Not => {
                let c = self.condition(x)?;
                let b = self.types.bool();
                let t = self.constant_int(1, b, span);
                Some(Value::val(self.binop(Bin::Xor, c, t, b, span)?, b))
            }
            UnaryOp::Deref => {
                let (v, t) = self.rvalue(x)?;
                match self.types.kind(t).clone() {
                    TyKind::Ptr(p) if !self.types.is_void(p.unqual()) => Some(Value { place: Place::Addr(v, AddrSpace::Generic), ty: p }),
                    _ => {
                        self.error(span, format!("indirection requires a pointer to an object type, not '{}'", self.types.show(t)));
                        None
                    }
                }
            }
            UnaryOp::AddrOf => {
                let v = self.expr(x)?;
                match v.place {
                    Place::Addr(a, s) => {
                        let p = self.generic_ptr(a, s, v.ty, span);
                        let pt = self.types.ptr(v.ty);
                        Some(Value::val(p, pt))
                    }
                    Place::Builtin(_) => {
                        self.error(span, "cannot take the address of a thread-index builtin");
                        None
                    }
                    _ => {
                        self.error(span, "cannot take the address of an rvalue");
                        None
                    }
                }
            }
            UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec => {
                let (a, s, t) = self.lvalue(x, "increment or decrement")?;
                if t.is_const() {
                    self.error(span, "cannot modify a const-qualified variable");
                }
                let old = self.load(a, t, span);
                let inc = matches!(op, UnaryOp::PreInc | UnaryOp::PostInc);
                let new = self.add_one(old, t.unqual(), inc, span)?;
                self.store(new, a, t, span);
                if matches!(op, UnaryOp::PreInc | UnaryOp::PreDec) {
                    Some(Value { place: Place::Addr(a, s), ty: t })
                } else {
                    Some(Value::val(old, t.unqual()))
                }
            }
        }
    }

    fn add_one(&mut self, v: ValueId, t: Ty, inc: bool, span: Span) -> Option<ValueId> {
        match self.types.kind(t).clone() {
            TyKind::Ptr(_) => {
                let l = self.types.int(IntKind::Long);
                let one = self.constant_int(if inc { 1 } else { -1 }, l, span);
                let ir = self.types.ir(&mut self.ctx, t)?;
                Some(self.op1("cuda.ptr_add", &[v, one], ir, &[], span))
            }
            _ if self.types.float_ty(t).is_some() => {
                let one = self.constant_float(1.0, t, span);
                self.binop(if inc { Bin::Add } else { Bin::Sub }, v, one, t, span)
            }
            _ if self.types.is_integral(t) => {
                let one = self.constant_int(1, t, span);
                self.binop(if inc { Bin::Add } else { Bin::Sub }, v, one, t, span)
            }
            _ => {
                self.error(span, format!("cannot increment a value of type '{}'", self.types.show(t)));
                None
            }
        }
    }

    fn binary(&mut self, op: BinaryOp, a: ExprId, b: ExprId, span: Span) -> Option<Value> {
        match op {
            BinaryOp::And | BinaryOp::Or => return self.logical(op, a, b, span),
            BinaryOp::Comma => {
                self.expr(a)?;
                return self.expr(b);
            }
            _ => {}
        }
        let va = self.expr(a)?;
        let vb = self.expr(b)?;
        self.binary_values(op, va, a, vb, b, span)
    }

    /// A binary operator on analysed operands (also used by compound assignment).
    pub(crate) fn binary_values(&mut self, op: BinaryOp, va: Value, a: ExprId, vb: Value, b: ExprId, span: Span) -> Option<Value> {
        let sa = self.ast.expr(a).span;
        let sb = self.ast.expr(b).span;
        // Operator overloading on records.
        if self.types.record(va.ty.unqual()).is_some() || self.types.record(vb.ty.unqual()).is_some() {
            return self.overloaded_binary(op, va, a, vb, b, span);
        }
        let (x, tx) = self.rval(va, sa)?;
        let (y, ty) = self.rval(vb, sb)?;
        let px = matches!(self.types.kind(tx), TyKind::Ptr(_));
        let py = matches!(self.types.kind(ty), TyKind::Ptr(_));
        let bool_t = self.types.bool();
        match op {
            BinaryOp::Add | BinaryOp::Sub if px || py => {
                if px && py && op == BinaryOp::Sub {
                    let l = self.types.int(IntKind::Long);
                    let ir = self.types.ir(&mut self.ctx, l)?;
                    return Some(Value::val(self.op1("cuda.ptr_diff", &[x, y], ir, &[], span), l));
                }
                let (p, pt, i, it) = if px { (x, tx, y, ty) } else { (y, ty, x, tx) };
                if !self.types.is_integral(it) || (py && op == BinaryOp::Sub) {
                    self.error(
                        span,
                        format!("invalid operands to binary expression ('{}' and '{}')", self.types.show(tx), self.types.show(ty)),
                    );
                    return None;
                }
                let ip = self.promoted(it);
                let mut i = self.convert(i, it, ip, span, false)?;
                // An unsigned offset is zero-extended to 64 bits before it is negated.
                let wide = self.offset_operand(i, ip, span);
                let it = if wide != i { self.types.int(IntKind::Long) } else { ip };
                i = wide;
                if op == BinaryOp::Sub {
                    i = self.negate_or_not(true, i, it, span)?;
                }
                let ir = self.types.ir(&mut self.ctx, pt)?;
                Some(Value::val(self.op1("cuda.ptr_add", &[p, i], ir, &[], span), pt))
            }
            BinaryOp::Lt | BinaryOp::Gt | BinaryOp::Le | BinaryOp::Ge | BinaryOp::Eq | BinaryOp::Ne if px || py => {
                // Pointer comparison (with a null pointer constant or another pointer).
                let (x, y) = if px && py {
                    let y = self.convert(y, ty, tx, span, true)?;
                    (x, y)
                } else if px {
                    let y = self.convert_value(Value::val(y, ty), b, tx, sb)?;
                    (x, y)
                } else {
                    let x = self.convert_value(Value::val(x, tx), a, ty, sa)?;
                    (x, y)
                };
                Some(Value::val(self.compare(op, x, y, tx, span), bool_t))
            }
            _ => {
                if !self.types.is_arith(tx) || !self.types.is_arith(ty) {
                    self.error(
                        span,
                        format!("invalid operands to binary expression ('{}' and '{}')", self.types.show(tx), self.types.show(ty)),
                    );
                    return None;
                }
                let integral_only =
                    matches!(op, BinaryOp::Rem | BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor | BinaryOp::Shl | BinaryOp::Shr);
                if integral_only && (!self.types.is_integral(tx) || !self.types.is_integral(ty)) {
                    self.error(
                        span,
                        format!("invalid operands to binary expression ('{}' and '{}')", self.types.show(tx), self.types.show(ty)),
                    );
                    return None;
                }
                if matches!(op, BinaryOp::Shl | BinaryOp::Shr) {
                    let pt = self.promoted(tx);
                    let x = self.convert(x, tx, pt, span, false)?;
                    let y = self.convert(y, ty, pt, span, false)?;
                    let k = if op == BinaryOp::Shl { Bin::Shl } else { Bin::Shr };
                    return Some(Value::val(self.binop(k, x, y, pt, span)?, pt));
                }
                let ct = self.common_type(tx, ty);
                let x = self.convert(x, tx, ct, span, false)?;
                let y = self.convert(y, ty, ct, span, false)?;
                if matches!(op, BinaryOp::Div | BinaryOp::Rem) && self.types.is_integral(ct) && self.const_eval(b) == Some(Konst::Int(0)) {
                    self.warning(sb, "division by zero is undefined");
                }
                let k = match op {
                    BinaryOp::Add => Bin::Add,
                    BinaryOp::Sub => Bin::Sub,
                    BinaryOp::Mul => Bin::Mul,
                    BinaryOp::Div => Bin::Div,
                    BinaryOp::Rem => Bin::Rem,
                    BinaryOp::BitAnd => Bin::And,
                    BinaryOp::BitOr => Bin::Or,
                    BinaryOp::BitXor => Bin::Xor,
                    _ => return Some(Value::val(self.compare(op, x, y, ct, span), bool_t)),
                };
                Some(Value::val(self.binop(k, x, y, ct, span)?, ct))
            }
        }
    }

    /// `a && b && ...` (or `||`) over `items` (each an expression, read with a pack index):
    /// each runs only when needed, as nested `cuda.if`s with a result (fold expressions).
    pub(crate) fn logical_chain(&mut self, op: BinaryOp, items: &[(ExprId, Option<usize>)], span: Span) -> Option<ValueId> {
        let saved = self.pack_index;
        self.pack_index = items[0].1;
        let c = self.condition(items[0].0);
        self.pack_index = saved;
        let c = c?;
        if items.len() == 1 {
            return Some(c);
        }
        let bool_t = self.types.bool();
        let i1 = self.ctx.i1();
        let ifop = self.op("cuda.if", &[c], &[i1], &[], 2, span);
        let (then_b, else_b) = (self.region_block(ifop, 0), self.region_block(ifop, 1));
        let (rhs_block, short_block, short_val) = if op == BinaryOp::And { (then_b, else_b, 0) } else { (else_b, then_b, 1) };
        self.in_block(rhs_block, |s| {
            let v = match s.logical_chain(op, &items[1..], span) {
                Some(v) => v,
                None => s.constant_int(0, bool_t, span),
            };
            s.terminate("cuda.yield", &[v], span);
        });
        self.in_block(short_block, |s| {
            let v = s.constant_int(short_val, bool_t, span);
            s.terminate("cuda.yield", &[v], span);
        });
        Some(self.ctx.result(ifop, 0))
    }

    /// `a && b`, `a || b`: `b` runs only when needed (a `cuda.if` with a result).
    fn logical(&mut self, op: BinaryOp, a: ExprId, b: ExprId, span: Span) -> Option<Value> {
        let c = self.condition(a)?;
        let bool_t = self.types.bool();
        let i1 = self.ctx.i1();
        let ifop = self.op("cuda.if", &[c], &[i1], &[], 2, span);
        let (then_b, else_b) = (self.region_block(ifop, 0), self.region_block(ifop, 1));
        let (rhs_block, short_block, short_val) = if op == BinaryOp::And { (then_b, else_b, 0) } else { (else_b, then_b, 1) };
        self.in_block(rhs_block, |s| {
            let v = match s.condition(b) {
                Some(v) => v,
                None => s.constant_int(0, bool_t, span),
            };
            s.terminate("cuda.yield", &[v], span);
        });
        self.in_block(short_block, |s| {
            let v = s.constant_int(short_val, bool_t, span);
            s.terminate("cuda.yield", &[v], span);
        });
        Some(Value::val(self.ctx.result(ifop, 0), bool_t))
    }

    fn conditional(&mut self, c: ExprId, a: ExprId, b: ExprId, span: Span) -> Option<Value> {
        let cv = self.condition(c)?;
        // Each arm is analysed once, into a block of its own; the result type is known
        // after both, and the blocks become the `cuda.if`'s regions.
        let blocks = [self.ctx.create_block(&[]), self.ctx.create_block(&[])];
        let mut arms = Vec::with_capacity(2);
        for (&blk, arm) in blocks.iter().zip([a, b]) {
            let (v, _) = self.in_block(blk, |s| s.expr(arm));
            arms.push(v);
        }
        let result_ty = match (arms[0], arms[1]) {
            (Some(va), Some(vb)) => {
                // Arrays decay (`c ? "odd" : "even"` is a `const char *`).
                let decayed = |s: &mut Self, t: Ty| match s.types.kind(t.unqual()).clone() {
                    TyKind::Array(e, _) => s.types.ptr(e),
                    _ => t.unqual(),
                };
                let (ua, ub) = (decayed(self, va.ty), decayed(self, vb.ty));
                // Operands of one type give that type (an enum, a short: no promotion).
                if ua == ub {
                    Some(ua)
                } else if self.types.is_arith(ua) && self.types.is_arith(ub) {
                    Some(self.common_type(ua, ub))
                } else if matches!(self.types.kind(ua), TyKind::Ptr(_)) {
                    Some(ua)
                } else if matches!(self.types.kind(ub), TyKind::Ptr(_)) {
                    Some(ub)
                } else if self.types.is_void(ua) || self.types.is_void(ub) {
                    Some(self.types.void())
                } else {
                    self.error(span, format!("incompatible operand types ('{}' and '{}')", self.types.show(va.ty), self.types.show(vb.ty)));
                    None
                }
            }
            _ => None,
        };
        let Some(result_ty) = result_ty else {
            for blk in blocks {
                self.ctx.erase_block(blk);
            }
            return None;
        };
        let results: Vec<TypeId> = self.types.ir(&mut self.ctx, result_ty).into_iter().collect();
        for ((&blk, arm), v) in blocks.iter().zip([a, b]).zip(arms) {
            let arm_span = self.ast.expr(arm).span;
            self.in_block(blk, |s| {
                let out = match (v, results.is_empty()) {
                    (Some(v), false) => s.convert_value(v, arm, result_ty, arm_span),
                    _ => None,
                };
                match (out, results.first()) {
                    (Some(o), _) => s.terminate("cuda.yield", &[o], arm_span),
                    (None, None) => s.terminate("cuda.yield", &[], arm_span),
                    (None, Some(_)) => {
                        // After an error: an indeterminate value keeps the IR well-formed.
                        let tmp = s.new_var("", result_ty, AddrSpace::Local, arm_span);
                        let o = s.load(tmp, result_ty, arm_span);
                        s.terminate("cuda.yield", &[o], arm_span);
                    }
                }
            });
        }
        let ifop = self.op("cuda.if", &[cv], &results, &[], 2, span);
        for (i, blk) in blocks.into_iter().enumerate() {
            let fresh = self.region_block(ifop, i);
            self.ctx.erase_block(fresh);
            let r = self.ctx.region(ifop, i);
            self.ctx.append_block(r, blk);
        }
        if results.is_empty() {
            return Some(Value { place: Place::Void, ty: result_ty });
        }
        Some(Value::val(self.ctx.result(ifop, 0), result_ty))
    }

    fn assign(&mut self, op: Option<BinaryOp>, lhs: ExprId, rhs: ExprId, span: Span) -> Option<Value> {
        let lv = self.expr(lhs)?;
        let Place::Addr(addr, space) = lv.place else {
            self.error(self.ast.expr(lhs).span, "expression is not assignable");
            return None;
        };
        let t = lv.ty;
        if t.is_const() {
            self.error(self.ast.expr(lhs).span, "cannot assign to a const-qualified variable");
        }
        if matches!(self.types.kind(t.unqual()), TyKind::Array(..)) {
            self.error(self.ast.expr(lhs).span, "array type is not assignable");
            return None;
        }
        let rspan = self.ast.expr(rhs).span;
        let v = match op {
            None => {
                if let ExprKind::InitList(_) = self.ast.expr(rhs).kind {
                    self.init_memory(addr, space, t, rhs);
                    return Some(Value { place: Place::Addr(addr, space), ty: t });
                }
                if let Some(r) = self.types.record(t.unqual()) {
                    if self.has_member(r, "operator=") {
                        // A `T` assigned where only other `operator=`s are declared: the
                        // implicit copy assignment.
                        let rv = self.expr(rhs)?;
                        let same = self.types.record(rv.ty.unqual()) == Some(r) || self.derives(rv.ty, t);
                        if !same || self.has_copy_assign(r) {
                            let this = self.generic_ptr(addr, space, t.unqual(), span);
                            return self.member_operator_values(r, "operator=", this, vec![rv], &[rhs], span);
                        }
                        let v = self.convert_value(rv, rhs, t, rspan)?;
                        self.store_keeping_vptrs(v, addr, space, t, span);
                        return Some(Value { place: Place::Addr(addr, space), ty: t });
                    }
                }
                let rv = self.expr(rhs)?;
                self.convert_value(rv, rhs, t, rspan)?
            }
            Some(op) => {
                // `a += b` on a class: its `operator+=` where one is declared.
                if let Some(r) = self.types.record(t.unqual()) {
                    let sym = format!("{}=", super::call::binary_op_symbol(op));
                    if self.has_operator(r, &sym) {
                        let rv = self.expr(rhs)?;
                        return self.overloaded_operator(&sym, lv, lhs, Some((rv, rhs)), span);
                    }
                }
                let rv = self.expr(rhs)?;
                let cur = Value { place: Place::Addr(addr, space), ty: t };
                let r = self.binary_values(op, cur, lhs, rv, rhs, span)?;
                let (r, rt) = self.rval(r, span)?;
                self.convert(r, rt, t, span, false)?
            }
        };
        self.store_keeping_vptrs(v, addr, space, t, span);
        Some(Value { place: Place::Addr(addr, space), ty: t })
    }

    fn index(&mut self, a: ExprId, i: ExprId, span: Span) -> Option<Value> {
        let va = self.expr(a)?;
        // `i[a]` is `a[i]`.
        let (va, i) = if self.types.is_integral(va.ty) {
            let vb = self.expr(i)?;
            (vb, a)
        } else {
            (va, i)
        };
        if let Some(r) = self.types.record(va.ty.unqual()) {
            if let (Place::Addr(addr, s), true) = (va.place, self.has_member(r, "operator[]")) {
                let this = self.generic_ptr(addr, s, va.ty.unqual(), span);
                return self.try_member_operator(r, "operator[]", this, &[i], span);
            }
        }
        let (idx, it) = self.rvalue(i)?;
        if !self.types.is_integral(it) {
            self.error(self.ast.expr(i).span, format!("array subscript is not an integer ('{}')", self.types.show(it)));
            return None;
        }
        let ip = self.promoted(it);
        let idx = self.convert(idx, it, ip, span, false)?;
        // An array lvalue is indexed in its own address space.
        let (base, space, elem) = match (va.place, self.types.kind(va.ty.unqual()).clone()) {
            (Place::Addr(addr, space), TyKind::Array(elem, _)) => (self.elem_addr(addr, space, va.ty, elem, span), space, elem),
            _ => {
                let (p, pt) = self.rval(va, span)?;
                match self.types.kind(pt).clone() {
                    TyKind::Ptr(elem) if !self.types.is_void(elem.unqual()) => (p, AddrSpace::Generic, elem),
                    // After an error, reported where it was.
                    _ if self.types.is_error(pt) => return None,
                    _ => {
                        self.error(span, format!("subscripted value is not an array or pointer ('{}')", self.types.show(pt)));
                        return None;
                    }
                }
            }
        };
        let idx = self.offset_operand(idx, ip, span);
        let bt = self.ctx.value_type(base);
        let addr = self.op1("cuda.ptr_add", &[base, idx], bt, &[], span);
        Some(Value { place: Place::Addr(addr, space), ty: elem })
    }

    /// The object of a member access: its address, space and record type.
    pub(crate) fn object(&mut self, base: ExprId, arrow: bool, span: Span) -> Option<(Value, Option<Object>)> {
        let v = self.expr(base)?;
        if let Place::Builtin(_) = v.place {
            return Some((v, None));
        }
        if arrow {
            let (p, pt) = self.rval(v, span)?;
            return match self.types.kind(pt).clone() {
                TyKind::Ptr(t) if self.types.record(t.unqual()).is_some() => Some((v, Some((p, AddrSpace::Generic, t)))),
                _ => {
                    self.error(span, format!("member reference type '{}' is not a pointer to a class", self.types.show(pt)));
                    None
                }
            };
        }
        if self.types.is_error(v.ty) {
            return None;
        }
        if self.types.record(v.ty.unqual()).is_none() {
            self.error(span, format!("member reference base type '{}' is not a structure or union", self.types.show(v.ty)));
            return None;
        }
        match v.place {
            Place::Addr(a, s) => Some((v, Some((a, s, v.ty)))),
            Place::Val(x) => {
                // A struct rvalue (a call result): materialize it.
                let tmp = self.new_var("", v.ty, AddrSpace::Local, span);
                self.store(x, tmp, v.ty, span);
                Some((v, Some((tmp, AddrSpace::Local, v.ty))))
            }
            _ => None,
        }
    }

    fn member(&mut self, base: ExprId, arrow: bool, name: &Name, span: Span) -> Option<Value> {
        let (v, obj) = self.object(base, arrow, span)?;
        let member = self.name_str(name.parts[0]);
        if let Place::Builtin(b) = v.place {
            if b == BuiltinVar::WarpSize {
                self.error(span, "'warpSize' has no members");
                return None;
            }
            let u = self.types.int(IntKind::UInt);
            return Some(Value::val(self.special(b, member, span)?, u));
        }
        let (addr, space, rt) = obj?;
        let r = self.types.record(rt.unqual())?;
        match self.field_path(r, name.parts[0]) {
            Some(path) => {
                let (a, fty) = self.field_addr(addr, space, rt, &path, span);
                Some(Value { place: Place::Addr(a, space), ty: fty })
            }
            None => {
                let rn = self.types.rec(r).name.clone();
                self.error(name.span, format!("no member named '{member}' in '{rn}'"));
                None
            }
        }
    }

    fn explicit_cast(&mut self, x: ExprId, t: Ty, span: Span) -> Option<Value> {
        if self.types.is_void(t) {
            self.expr(x)?;
            return Some(Value { place: Place::Void, ty: t });
        }
        if let TyKind::Ref(to) = self.types.kind(t).clone() {
            // `(T&)x`: reinterpret the object.
            let v = self.expr(x)?;
            let Place::Addr(a, s) = v.place else {
                self.error(span, "a cast to a reference type requires an lvalue");
                return None;
            };
            let pt = self.types.ir_ptr(&mut self.ctx, to, s);
            let a = self.cast_op(Cast::PtrCast, a, pt, span);
            return Some(Value { place: Place::Addr(a, s), ty: to });
        }
        if self.types.record(t.unqual()).is_some() {
            return self.construct(t, &[x], span);
        }
        let v = self.expr(x)?;
        if matches!(self.types.kind(t), TyKind::Ptr(_)) && self.types.is_integral(v.ty) && self.const_eval(x) == Some(Konst::Int(0)) {
            let ir = self.types.ir(&mut self.ctx, t)?;
            return Some(Value::val(self.op1("cuda.null", &[], ir, &[], span), t));
        }
        if let Some(r) = self.types.record(v.ty.unqual()) {
            if let Some(f) = self.conversion_to(r, t, true) {
                let c = self.call_conversion(f, r, v, span)?;
                let (x, ct) = self.rval(c, span)?;
                return Some(Value::val(self.convert(x, ct, t, span, true)?, t.unqual()));
            }
        }
        let (r, rt) = self.rval(v, span)?;
        Some(Value::val(self.convert(r, rt, t, span, true)?, t.unqual()))
    }

    /// `decltype(e)` (`decltype`) or `__typeof__(e)`: the type of `e`, which is analysed
    /// but not evaluated (what it emitted is erased). `decltype` of an lvalue that is not a
    /// plain name or member is a reference, as C++ says. Outside a function body only a
    /// name's type is known.
    pub(crate) fn type_of_expr(&mut self, e: ExprId, decltype: bool, span: Span) -> Ty {
        let named = matches!(self.ast.expr(e).kind, ExprKind::Name(_) | ExprKind::Member { .. });
        let Some(block) = self.fs.as_ref().map(|fs| fs.block) else {
            if let ExprKind::Name(n) = self.ast.expr(e).kind {
                let n = self.ast.name(n).clone();
                if let Some(Entity::Global { ty, .. } | Entity::Const(_, ty) | Entity::DynShared { ty, .. }) = self.lookup_name(&n).first()
                {
                    return *ty;
                }
            }
            self.unsupported(span, "'decltype' of this expression outside a function body");
            return self.types.error();
        };
        let mark = self.ctx.last_op(block);
        let v = self.expr(e);
        // Erase what the operand emitted (it is not evaluated).
        if let Some(fs) = self.fs.as_mut() {
            fs.block = block;
        }
        while let Some(op) = self.ctx.last_op(block).filter(|&op| Some(op) != mark) {
            self.ctx.erase_op(op);
        }
        let Some(v) = v else { return self.types.error() };
        match v.place {
            Place::Addr(..) if decltype && !named => self.types.intern(TyKind::Ref(v.ty)),
            _ => v.ty,
        }
    }

    /// `T(args)` / `T{args}`: a conversion, a value-initialized scalar, a constructor call
    /// or an aggregate.
    pub(crate) fn construct(&mut self, t: Ty, args: &[ExprId], span: Span) -> Option<Value> {
        if self.types.is_error(t) {
            return None;
        }
        if let Some(r) = self.types.record(t.unqual()) {
            let tmp = self.new_var("", t, AddrSpace::Local, span);
            if !self.run_constructor(r, tmp, args, span) {
                return None;
            }
            let v = self.load(tmp, t, span);
            return Some(Value::val(v, t.unqual()));
        }
        match args {
            [] => self.konst_value(Konst::Int(0), t, span),
            [x] => self.explicit_cast(*x, t, span),
            _ => {
                self.error(span, format!("too many arguments to initialize '{}'", self.types.show(t)));
                None
            }
        }
    }
}
