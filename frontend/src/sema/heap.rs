//! The device heap: `malloc`/`free` in device code, and `new`/`delete` on top of them.
//!
//! - **`malloc(n)` / `free(p)`** are the device runtime's (`cudaLimitMallocHeapSize` sets
//!   the heap's size): external functions, called as NVRTC calls them
//!   (`.extern .func (.param .b64 func_retval0) malloc(.param .b64 malloc_param_0)`); the
//!   simulator implements them.
//! - **`new T(args)`** is `malloc(sizeof(T))` and then `T`'s construction at that address
//!   (a constructor, an aggregate's braced list, a scalar's value, or nothing for `new T`
//!   of a class without constructors, whose vptr slots are still set); as in nvcc's code,
//!   a null result is not checked. `new T[n]` allocates `n * sizeof(T)` for element types
//!   that need no construction. **Placement new** `new (p) T(args)` constructs at `p`.
//! - **`delete p`** runs `p`'s destructor where its class declares one (virtually, through
//!   the dispatcher of a virtual destructor: see `virtuals`) and frees `p`; `delete[] p`
//!   frees an array of such elements. Base and member destructors are not chained (the
//!   frontend does not run destructors at scope exit either).

use super::expr::{Cast, Place, Value};
use super::ty::{IntKind, TyKind};
use super::*;

impl Sema<'_> {
    /// `malloc(size)` (`alloc`) or `free(ptr)`: a call of the external function.
    pub(crate) fn heap_call(&mut self, alloc: bool, arg: Option<ValueId>, span: Span) -> Value {
        let size_t = self.types.int(IntKind::ULong);
        let void = self.types.void();
        let vp = self.types.ptr(void);
        let (params, ret) = if alloc { ([size_t], vp) } else { ([vp], void) };
        if !self.in_device_code() {
            // The host's heap: host bodies are analysed and discarded, and must not
            // declare device functions meanwhile.
            if alloc {
                let ir = self.types.ir_mem(&mut self.ctx, vp);
                let nul = self.op1("cuda.null", &[], ir, &[], span);
                return Value::val(nul, vp);
            }
            return Value { place: Place::Void, ty: void };
        }
        let callee = self.extern_func(if alloc { "malloc" } else { "free" }, &params, ret, span);
        let rt: Vec<TypeId> = self.types.ir(&mut self.ctx, ret).into_iter().collect();
        let op = self.op("func.call", &arg.into_iter().collect::<Vec<_>>(), &rt, &[("callee", callee)], 0, span);
        if alloc {
            Value::val(self.ctx.result(op, 0), vp)
        } else {
            Value { place: Place::Void, ty: void }
        }
    }

    /// Whether device heap calls are allowed here (in host code, `new` is the host's).
    fn in_device_code(&self) -> bool {
        self.fs.as_ref().is_some_and(|f| f.exec != Exec::Host)
    }

    pub(crate) fn new_expr(
        &mut self,
        placement: Option<ExprId>,
        ty: crate::ast::TypeId,
        count: Option<ExprId>,
        args: Option<&[ExprId]>,
        braces: bool,
        span: Span,
    ) -> Option<Value> {
        let t = self.resolve_type(ty);
        if self.types.is_error(t) {
            return None;
        }
        if self.types.is_void(t) || matches!(self.types.kind(t), TyKind::Ref(_) | TyKind::Func { .. }) {
            self.error(span, format!("cannot allocate an object of type '{}' with new", self.types.show(t)));
            return None;
        }
        let size = self.types.size(t);
        if size == 0 {
            self.error(span, format!("'new' of incomplete type '{}'", self.types.show(t)));
            return None;
        }
        let pt = self.types.ptr(t);
        let ir_pt = self.types.ir(&mut self.ctx, pt)?;
        let rec = self.types.record(t.unqual());
        if count.is_some() && (args.is_some_and(|a| !a.is_empty()) || rec.is_some_and(|r| self.needs_construction(r) || self.has_vptrs(t)))
        {
            self.unsupported(span, "'new T[n]' of a type that needs construction");
            return None;
        }
        let addr = match placement {
            Some(p) => {
                let (v, vt) = self.rvalue(p)?;
                if !matches!(self.types.kind(vt), TyKind::Ptr(_)) {
                    let pspan = self.ast.expr(p).span;
                    self.error(pspan, format!("placement new needs an address, not a '{}'", self.types.show(vt)));
                    return None;
                }
                self.cast_op(Cast::PtrCast, v, ir_pt, span)
            }
            None => {
                if !self.in_device_code() {
                    // Host code's heap: nothing device code sees (host bodies are discarded).
                    let nul = self.op1("cuda.null", &[], ir_pt, &[], span);
                    return Some(Value::val(nul, pt));
                }
                let size_t = self.types.int(IntKind::ULong);
                let mut bytes = self.constant_int(size as i128, size_t, span);
                if let Some(n) = count {
                    let nspan = self.ast.expr(n).span;
                    let (v, vt) = self.rvalue(n)?;
                    if !self.types.is_integral(vt) {
                        self.error(nspan, format!("the element count of 'new' must be an integer, not '{}'", self.types.show(vt)));
                        return None;
                    }
                    let n = self.convert(v, vt, size_t, nspan, false)?;
                    bytes = self.binop(super::expr::Bin::Mul, n, bytes, size_t, span)?;
                }
                let p = self.heap_call(true, Some(bytes), span);
                let Place::Val(p) = p.place else { return None };
                self.cast_op(Cast::PtrCast, p, ir_pt, span)
            }
        };
        if count.is_none() {
            self.construct_at(addr, t, args, braces, span);
        }
        Some(Value::val(addr, pt))
    }

    /// Constructs a new `t` at generic address `addr` from `new`'s initializer.
    fn construct_at(&mut self, addr: ValueId, t: Ty, args: Option<&[ExprId]>, braces: bool, span: Span) {
        let g = AddrSpace::Generic;
        match (self.types.record(t.unqual()), args) {
            (Some(r), Some(a)) if self.has_ctor(r) || !braces => {
                self.run_constructor_at(r, addr, g, a, span);
            }
            (Some(r), Some(a)) => {
                let list: Vec<(Option<Atom>, ExprId)> = a.iter().map(|&x| (None, x)).collect();
                if self.types.rec(r).dynamic && !list.is_empty() {
                    let n = self.types.rec(r).name.clone();
                    self.error(
                        span,
                        format!("'{n}' has virtual functions, so it is not an aggregate: it needs a constructor taking these arguments"),
                    );
                    return;
                }
                let rt = self.rec_ty(r);
                self.init_record(addr, g, rt, &list, span);
                self.fix_vptrs(addr, g, rt, span);
            }
            (Some(r), None) => {
                if self.has_ctor(r) {
                    self.run_constructor_at(r, addr, g, &[], span);
                } else {
                    self.construct_parts(addr, g, r, &[], span);
                    let rt = self.rec_ty(r);
                    self.fix_vptrs(addr, g, rt, span);
                }
            }
            (None, Some([])) => {
                if let Some(Value { place: Place::Val(z), .. }) = self.konst_value(Konst::Int(0), t.unqual(), span) {
                    self.store(z, addr, t.unqual(), span);
                }
            }
            (None, Some([e])) => {
                let e = *e;
                let espan = self.ast.expr(e).span;
                if let Some(v) = self.expr(e) {
                    if let Some(x) = self.convert_value(v, e, t.unqual(), espan) {
                        self.store(x, addr, t.unqual(), span);
                    }
                }
            }
            (None, Some(_)) => self.error(span, format!("too many initializers for '{}'", self.types.show(t))),
            (None, None) => {}
        }
    }

    pub(crate) fn delete_expr(&mut self, array: bool, e: ExprId, span: Span) -> Option<Value> {
        let void = Value { place: Place::Void, ty: self.types.void() };
        let espan = self.ast.expr(e).span;
        let (p, pt) = self.rvalue(e)?;
        let TyKind::Ptr(t) = self.types.kind(pt).clone() else {
            self.error(espan, format!("cannot delete a '{}': it is not a pointer", self.types.show(pt)));
            return None;
        };
        if !self.in_device_code() {
            return Some(void);
        }
        if let Some(r) = self.types.record(t.unqual()) {
            if array && (self.needs_construction(r) || self.has_vptrs(t)) {
                self.unsupported(span, "'delete[]' of elements that need destruction");
                return None;
            }
            if !array {
                if let Some(d) = self.destructor(r) {
                    let this = self.cast_op(Cast::PtrCast, p, self.ctx.value_type(p), span);
                    let this = self.this_for(this, r, d, span)?;
                    if self.funcs[d.0 as usize].is_virtual {
                        // The deleting dispatcher frees the complete object.
                        self.virtual_delete(d, this, span)?;
                        return Some(void);
                    }
                    self.emit_call(d, Some(this), Vec::new(), &[], span)?;
                }
            }
        }
        let void_t = self.types.void();
        let vp = self.types.ptr(void_t);
        let vir = self.types.ir(&mut self.ctx, vp)?;
        let q = self.cast_op(Cast::PtrCast, p, vir, span);
        self.heap_call(false, Some(q), span);
        Some(void)
    }

    /// The destructor class `r` declares or inherits (the nearest).
    fn destructor(&self, r: RecId) -> Option<FuncId> {
        let ns = self.rec_ns[r.0 as usize];
        let own = self.namespaces[ns.0 as usize].names.iter().find_map(|(n, es)| {
            if !self.name_str(*n).starts_with('~') {
                return None;
            }
            es.iter().find_map(|e| match e {
                Entity::Func(f) if self.funcs[f.0 as usize].record == Some(r) => Some(*f),
                _ => None,
            })
        });
        own.or_else(|| self.types.rec(r).bases.iter().find_map(|b| self.destructor(b.rec)))
    }
}
