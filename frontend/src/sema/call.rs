//! Calls: overload resolution (user functions, member functions, function templates with
//! deduction, the built-in headers' overload sets), the CUDA calling rules (what device
//! code may call), argument passing (conversions, references), constructors, aggregate
//! initialization and overloaded operators.

use super::expr::{Place, Value};
use super::ty::{IntKind, RecId, Ty, TyKind};
use super::*;

/// How good an implicit conversion is (lower is better), as C++ ranks them.
type Rank = u8;
const EXACT: Rank = 0;
const PROMOTION: Rank = 1;
const CONVERSION: Rank = 2;
/// A user-defined conversion: a converting constructor (`std::string` from `const char *`).
const USER: Rank = 3;

impl Sema<'_> {
    /// The rank of converting argument `v` (expression `e`) to parameter type `to`.
    fn conv_rank(&mut self, v: &Value, e: Option<ExprId>, to: Ty) -> Option<Rank> {
        self.conv_rank_ext(v, e, to, true)
    }

    /// [`Sema::conv_rank`]; `user`: whether a user-defined conversion may take part (not
    /// inside one).
    fn conv_rank_ext(&mut self, v: &Value, e: Option<ExprId>, to: Ty, user: bool) -> Option<Rank> {
        let to_u = to.unqual();
        if let TyKind::Ref(t) = self.types.kind(to_u).clone() {
            let lvalue = matches!(v.place, Place::Addr(..));
            if v.ty.unqual() == t.unqual() && (lvalue || t.is_const()) {
                if lvalue && v.ty.is_const() && !t.is_const() {
                    return None;
                }
                return Some(EXACT);
            }
            // A derived object binds to a reference to its base.
            if lvalue && self.derives(v.ty, t) && (t.is_const() || !v.ty.is_const()) {
                return Some(CONVERSION);
            }
            if t.is_const() {
                return self.conv_rank_ext(v, e, t.unqual(), user);
            }
            return None;
        }
        let from = match self.types.kind(v.ty.unqual()).clone() {
            TyKind::Array(el, _) => self.types.ptr(el),
            _ => v.ty.unqual(),
        };
        if from == to_u || self.types.is_error(from) {
            return Some(EXACT);
        }
        let null_const = e.is_some_and(|e| self.types.is_integral(from) && self.const_eval(e) == Some(Konst::Int(0)));
        match (self.types.kind(from).clone(), self.types.kind(to_u).clone()) {
            (_, TyKind::Ptr(_)) if null_const || matches!(self.types.kind(from), TyKind::Nullptr) => Some(CONVERSION),
            (TyKind::Ptr(a), TyKind::Ptr(b)) => {
                // An array's qualifiers are its elements' (`double (*)[8]` converts to
                // `const double (*)[8]`).
                let (a, b) = (self.element_quals(a), self.element_quals(b));
                if a.unqual() == b.unqual() && (b.quals() & a.quals()) == a.quals() {
                    Some(EXACT)
                } else if (self.types.is_void(b.unqual()) || self.derives(a, b)) && (b.quals() & a.quals()) == a.quals() {
                    Some(CONVERSION)
                } else {
                    None
                }
            }
            (TyKind::Ptr(_) | TyKind::Nullptr, TyKind::Int(IntKind::Bool)) => Some(CONVERSION),
            (TyKind::Record(a), TyKind::Record(b)) if a == b => Some(EXACT),
            (TyKind::Record(_), TyKind::Record(_)) if self.derives(from, to_u) => Some(CONVERSION),
            (_, TyKind::Record(b)) if user && self.converting_ctor(b, v, e).is_some() => Some(USER),
            (TyKind::Record(a), _) if user && self.conversion_to(a, to_u, false).is_some() => Some(USER),
            _ if self.types.is_arith(from) && self.types.is_arith(to_u) => {
                if matches!(self.types.kind(to_u), TyKind::Enum(_)) {
                    return None;
                }
                let promoted = self.promoted(from);
                let float_promo = self.types.float_ty(from) == Some(super::ty::FloatTy::Float)
                    && self.types.float_ty(to_u) == Some(super::ty::FloatTy::Double);
                if (promoted == to_u && promoted != from) || float_promo {
                    Some(PROMOTION)
                } else {
                    Some(CONVERSION)
                }
            }
            _ => None,
        }
    }

    /// `t` with the qualifiers of an array's (innermost) elements moved onto the array.
    pub(crate) fn element_quals(&mut self, t: Ty) -> Ty {
        match self.types.kind(t.unqual()).clone() {
            TyKind::Array(e, n) => {
                let inner = self.element_quals(e);
                self.types.intern(TyKind::Array(inner.unqual(), n)).with_quals(t.quals() | inner.quals())
            }
            _ => t,
        }
    }

    /// Whether class type `from` derives from class type `to` (directly or not).
    pub(crate) fn derives(&self, from: Ty, to: Ty) -> bool {
        match (self.types.record(from.unqual()), self.types.record(to.unqual())) {
            (Some(a), Some(b)) => a != b && self.base_path(a, b).is_some(),
            _ => false,
        }
    }

    /// The constructor of class `r` that converts `v` implicitly (one argument, not
    /// `explicit`, reached by a standard conversion), if exactly one does best.
    pub(crate) fn converting_ctor(&mut self, r: RecId, v: &Value, e: Option<ExprId>) -> Option<FuncId> {
        let ctors = self.ctors(r);
        let mut best: Option<(FuncId, Rank)> = None;
        let mut tie = false;
        for f in ctors {
            let fi = &self.funcs[f.0 as usize];
            let explicit = matches!(&self.ast.decl(fi.decl).kind, DeclKind::Function { specs, .. } if specs.is_explicit);
            let takes_one = !fi.params.is_empty() && fi.defaults[1..].iter().all(|d| d.is_some());
            if explicit || !takes_one {
                continue;
            }
            let p = fi.params[0];
            // A copy constructor does not convert.
            if self.types.record(p.unqual()) == Some(r)
                || matches!(self.types.kind(p.unqual()), TyKind::Ref(t) if self.types.record(t.unqual()) == Some(r))
            {
                continue;
            }
            let Some(rank) = self.conv_rank_ext(v, e, p, false) else { continue };
            match best {
                Some((_, b)) if b < rank => {}
                Some((_, b)) if b == rank => tie = true,
                _ => {
                    best = Some((f, rank));
                    tie = false;
                }
            }
        }
        if tie {
            return None;
        }
        best.map(|(f, _)| f)
    }

    /// Ranks of `f` for the arguments, or `None` if it is not viable.
    fn viable(&mut self, f: FuncId, vals: &[Value], args: &[ExprId]) -> Option<Vec<Rank>> {
        let fi = &self.funcs[f.0 as usize];
        if vals.len() > fi.params.len() && !fi.variadic {
            return None;
        }
        if vals.len() < fi.params.len() && fi.defaults[vals.len()..].iter().any(|d| d.is_none()) {
            return None;
        }
        let params = fi.params.clone();
        let mut ranks = Vec::with_capacity(vals.len());
        for (i, v) in vals.iter().enumerate() {
            match params.get(i) {
                Some(&p) => ranks.push(self.conv_rank(v, args.get(i).copied(), p)?),
                None => ranks.push(CONVERSION),
            }
        }
        Some(ranks)
    }

    /// Picks the best of `cands` for the arguments (reporting no match or ambiguity).
    pub(crate) fn resolve(
        &mut self,
        cands: &[Entity],
        explicit: Option<&[TArg]>,
        vals: &[Value],
        args: &[ExprId],
        what: &str,
        span: Span,
    ) -> Option<FuncId> {
        let mut viable: Vec<(FuncId, Vec<Rank>, bool)> = Vec::new();
        for c in cands {
            match c {
                Entity::Func(f) if explicit.is_none() => {
                    if let Some(r) = self.viable(*f, vals, args) {
                        viable.push((*f, r, false));
                    }
                }
                Entity::Template(t) => {
                    let tys: Vec<Ty> = vals.iter().map(|v| v.ty).collect();
                    let Some(targs) = self.deduce(*t, &tys, explicit.unwrap_or(&[]), span) else { continue };
                    let Some(f) = self.instantiate_function(*t, targs, span) else { continue };
                    if let Some(r) = self.viable(f, vals, args) {
                        viable.push((f, r, true));
                    }
                }
                _ => {}
            }
        }
        if viable.is_empty() {
            let argt: Vec<String> = vals.iter().map(|v| self.types.show(v.ty)).collect();
            let mut d = Diagnostic::error(span, format!("no matching function for call to '{what}({})'", argt.join(", ")));
            for c in cands.iter().take(8) {
                if let Entity::Func(f) = c {
                    let fi = &self.funcs[f.0 as usize];
                    let ps: Vec<String> = fi.params.iter().map(|&p| self.types.show(p)).collect();
                    if !self.is_builtin_file(fi.span) {
                        d = d.note(Some(fi.span), format!("candidate: '{}({})'", fi.display, ps.join(", ")));
                    } else {
                        d = d.note(None, format!("candidate: '{}({})'", fi.display, ps.join(", ")));
                    }
                }
            }
            self.error_with(d);
            return None;
        }
        // Equal conversions: a non-template beats a template, and a template without a
        // function parameter pack beats one with (partial ordering's usual outcome).
        let has_pack = |s: &Self, f: FuncId| s.funcs[f.0 as usize].param_pack.is_some();
        let better = |a: &(FuncId, Vec<Rank>, bool), b: &(FuncId, Vec<Rank>, bool)| {
            let not_worse = a.1.iter().zip(&b.1).all(|(x, y)| x <= y);
            let some_better = a.1.iter().zip(&b.1).any(|(x, y)| x < y);
            let pack_order = b.2 && !has_pack(self, a.0) && has_pack(self, b.0);
            not_worse && (some_better || (!a.2 && b.2) || (a.2 && pack_order))
        };
        let best: Vec<usize> = (0..viable.len()).filter(|&i| (0..viable.len()).all(|j| i == j || better(&viable[i], &viable[j]))).collect();
        match best.first() {
            Some(&i) => Some(viable[i].0),
            None => {
                let mut d = Diagnostic::error(span, format!("call to '{what}' is ambiguous"));
                for (f, _, _) in viable.iter().take(8) {
                    let fi = &self.funcs[f.0 as usize];
                    let ps: Vec<String> = fi.params.iter().map(|&p| self.types.show(p)).collect();
                    d = d.note(None, format!("candidate: '{}({})'", fi.display, ps.join(", ")));
                }
                self.error_with(d);
                None
            }
        }
    }

    pub(crate) fn call(&mut self, callee: ExprId, args: &[ExprId], span: Span) -> Option<Value> {
        let cspan = self.ast.expr(callee).span;
        match &self.ast.expr(callee).kind {
            ExprKind::Name(n) => {
                let ast = self.ast;
                let n = ast.name(*n);
                let what = self.name_text(n);
                // A member function called on `this`.
                if n.parts.len() == 1 && !n.global && !self.scopes.iter().any(|s| s.contains_key(&n.parts[0])) {
                    if let Some((this, r)) = self.fs.as_ref().and_then(|f| f.this) {
                        // Its own members and its bases'.
                        let ns = self.rec_ns[r.0 as usize];
                        let methods = self.lookup_in_ns(ns, n.parts[0], 0);
                        let member = |s: &Self, e: &Entity| match e {
                            Entity::Func(f) => s.funcs[f.0 as usize].record.is_some_and(|m| s.base_path(r, m).is_some()),
                            Entity::Template(t) => {
                                matches!(s.namespaces[s.templates[t.0 as usize].ns.0 as usize].record, Some(m) if s.base_path(r, m).is_some())
                            }
                            _ => false,
                        };
                        if methods.iter().any(|e| member(self, e)) {
                            let const_this = self.fs.as_ref().is_some_and(|fs| self.funcs[fs.func.0 as usize].is_const_method);
                            let methods = self.by_object_constness(methods, const_this);
                            let explicit = match &n.template_args {
                                Some(a) => Some(self.template_args(&a.clone())?),
                                None => None,
                            };
                            let (vals, args) = self.arg_values(args)?;
                            let args = &args[..];
                            let f = self.resolve(&methods, explicit.as_deref(), &vals, args, &what, span)?;
                            let this = self.this_for(this, r, f, span)?;
                            if self.funcs[f.0 as usize].is_virtual {
                                return self.virtual_call(f, this, vals, args, span);
                            }
                            return self.emit_call(f, Some(this), vals, args, span);
                        }
                    }
                }
                let found = self.lookup_name(n);
                if let Some(Entity::Type(t)) = found.first() {
                    let t = *t;
                    return self.construct(t, args, span);
                }
                if found.is_empty() {
                    // math.h's INFINITY, HUGE_VAL(F) and NAN.
                    let builtin = match what.as_str() {
                        "__builtin_inff" | "__builtin_huge_valf" => Some((f64::INFINITY, ty::FloatTy::Float)),
                        "__builtin_inf" | "__builtin_huge_val" => Some((f64::INFINITY, ty::FloatTy::Double)),
                        "__builtin_nanf" => Some((f64::NAN, ty::FloatTy::Float)),
                        "__builtin_nan" => Some((f64::NAN, ty::FloatTy::Double)),
                        _ => None,
                    };
                    if let Some((v, ft)) = builtin {
                        let t = self.types.float(ft);
                        let c = self.constant_float(v, t, span);
                        return Some(Value::val(c, t));
                    }
                    self.undeclared(cspan, n);
                    return None;
                }
                if !found.iter().all(|e| matches!(e, Entity::Func(_) | Entity::Template(_))) {
                    // A function object: its `operator()`.
                    let v = self.expr(callee)?;
                    if self.types.is_error(v.ty) {
                        return None;
                    }
                    if let (Some(r), Place::Addr(a, s)) = (self.types.record(v.ty.unqual()), v.place) {
                        let this = self.generic_ptr(a, s, v.ty.unqual(), span);
                        if let Some(v) = self.try_member_operator(r, "operator()", this, args, span) {
                            return Some(v);
                        }
                        return None;
                    }
                    self.unsupported(span, "calling a variable (function pointers)");
                    return None;
                }
                let explicit = match &n.template_args {
                    Some(a) => Some(self.template_args(&a.clone())?),
                    None => None,
                };
                let (vals, args) = self.arg_values(args)?;
                let args = &args[..];
                let f = self.resolve(&found, explicit.as_deref(), &vals, args, &what, span)?;
                // `Base::f(x)` in a member function: a member function called on `this`.
                let this = match (self.funcs[f.0 as usize].record, self.fs.as_ref().and_then(|f| f.this)) {
                    (None, _) => None,
                    (Some(_), Some((this, r))) => Some(self.this_for(this, r, f, span)?),
                    (Some(_), None) => {
                        let d = self.funcs[f.0 as usize].display.clone();
                        self.error(span, format!("call to non-static member function '{d}' without an object"));
                        return None;
                    }
                };
                self.emit_call(f, this, vals, args, span)
            }
            ExprKind::Member { base, arrow, name } => {
                let ast = self.ast;
                let (base, arrow, name) = (*base, *arrow, ast.name(*name));
                let (_, obj) = self.object(base, arrow, span)?;
                let (addr, space, rt) = obj?;
                let r = self.types.record(rt.unqual())?;
                let ns = self.rec_ns[r.0 as usize];
                let methods = self.lookup_in_ns(ns, name.parts[0], 0);
                let methods = self.by_object_constness(methods, rt.is_const());
                let what = format!("{}::{}", self.types.rec(r).name, self.name_str(name.parts[0]));
                if methods.is_empty() {
                    self.error(
                        name.span,
                        format!("no member function named '{}' in '{}'", self.name_str(name.parts[0]), self.types.rec(r).name),
                    );
                    return None;
                }
                let explicit = match &name.template_args {
                    Some(a) => Some(self.template_args(&a.clone())?),
                    None => None,
                };
                let (vals, args) = self.arg_values(args)?;
                let args = &args[..];
                let f = self.resolve(&methods, explicit.as_deref(), &vals, args, &what, span)?;
                if rt.is_const() && !self.funcs[f.0 as usize].is_const_method {
                    self.error(span, format!("'{what}' is not a const member function but is called on a const object"));
                }
                let this = self.generic_ptr(addr, space, rt.unqual(), span);
                let this = self.this_for(this, r, f, span)?;
                if self.funcs[f.0 as usize].is_virtual && name.parts.len() == 1 && !self.exact_object(base, arrow) {
                    return self.virtual_call(f, this, vals, args, span);
                }
                self.emit_call(f, Some(this), vals, args, span)
            }
            // A function object made by an expression (`[&] { ... }()`, `Functor{}(x)`).
            ExprKind::Lambda(_) | ExprKind::Construct { .. } | ExprKind::Call { .. } => {
                let v = self.expr(callee)?;
                let r = self.types.record(v.ty.unqual());
                let (Some(r), Place::Addr(a, s)) = (r, v.place) else {
                    self.unsupported(span, "a call through a function pointer");
                    return None;
                };
                let this = self.generic_ptr(a, s, v.ty.unqual(), span);
                self.try_member_operator(r, "operator()", this, args, span)
            }
            _ => {
                self.unsupported(span, "a call through a function pointer");
                None
            }
        }
    }

    /// Member functions callable on an object, by its constness (the implicit object
    /// parameter's part of overload resolution): a const object takes the const ones; a
    /// non-const object prefers a non-const function to a const one with the same
    /// parameters (`T &top()` over `T top() const`).
    fn by_object_constness(&self, methods: Vec<Entity>, const_object: bool) -> Vec<Entity> {
        let method = |e: &Entity| match e {
            Entity::Func(f) => Some(&self.funcs[f.0 as usize]),
            _ => None,
        };
        let keep = |e: &Entity| match method(e) {
            Some(fi) if fi.record.is_some() => {
                if const_object {
                    return fi.is_const_method;
                }
                !(fi.is_const_method
                    && methods.iter().filter_map(method).any(|g| !g.is_const_method && g.record.is_some() && g.params == fi.params))
            }
            _ => true,
        };
        let kept: Vec<Entity> = methods.iter().filter(|e| keep(e)).cloned().collect();
        // Nothing callable: resolution reports the candidates as they are.
        if kept.is_empty() {
            methods
        } else {
            kept
        }
    }

    /// `callee<<<config>>>(args)`: in host code, the kernel is resolved as a call is
    /// (overloads, template arguments deduced from the launch's arguments) and required, so
    /// that its instance is emitted; the configuration is checked as expressions. In device
    /// code it is dynamic parallelism, which needs separate compilation.
    pub(crate) fn launch(&mut self, callee: ExprId, config: &[ExprId], args: &[ExprId], span: Span) -> Option<Value> {
        if !self.in_host_code() {
            self.dynamic_parallelism(span);
            return None;
        }
        if !(2..=4).contains(&config.len()) {
            self.error(
                span,
                format!("a launch configuration has 2 to 4 arguments (grid, block, shared bytes, stream), not {}", config.len()),
            );
        }
        for &c in config {
            let _ = self.expr(c);
        }
        let saved = std::mem::replace(&mut self.launching, true);
        let v = self.call(callee, args, span);
        self.launching = saved;
        v
    }

    /// A kernel launched from device code.
    fn dynamic_parallelism(&mut self, span: Span) {
        self.error(
            span,
            "launching a kernel from device code (dynamic parallelism) needs relocatable device code (nvcc -rdc=true), which cuprite does not support",
        );
    }

    /// In host code, a kernel or kernel template named as a value (`&k<float>`,
    /// `(void *)k<int, 4>`, `cudaFuncSetAttribute(k<T>, ...)`, a table of kernels): the
    /// kernels it names are required (templates instantiated with the arguments written),
    /// as nvcc emits them.
    pub(crate) fn require_named_kernels(&mut self, found: &[Entity], n: &Name, span: Span) {
        let explicit = match &n.template_args {
            Some(a) => match self.template_args(&a.clone()) {
                Some(a) => Some(a),
                None => return,
            },
            None => None,
        };
        for e in found {
            let f = match (e, &explicit) {
                (Entity::Func(f), None) => *f,
                (Entity::Template(t), Some(args)) => {
                    let tpl = &self.templates[t.0 as usize];
                    let DeclKind::Function { specs, .. } = &self.ast.decl(tpl.decl).kind else { continue };
                    if !specs.global {
                        continue;
                    }
                    match self.instantiate_function(*t, args.clone(), span) {
                        Some(f) => f,
                        None => continue,
                    }
                }
                _ => continue,
            };
            if self.funcs[f.0 as usize].exec == Exec::Kernel {
                self.require_func(f);
            }
        }
    }

    /// Requires the kernels that the names in expression `e` denote (see
    /// [`Sema::require_named_kernels`]), by its syntax alone: for host code that sema
    /// does not analyse (a host variable's initializer) or could not.
    pub(crate) fn require_kernels_named_in(&mut self, e: ExprId) {
        let mut work = vec![e];
        while let Some(e) = work.pop() {
            let ast = self.ast;
            let ex = ast.expr(e);
            if let ExprKind::Name(n) = &ex.kind {
                let n = ast.name(*n);
                let found = self.lookup_name(n);
                if found.iter().any(|f| matches!(f, Entity::Func(_) | Entity::Template(_))) {
                    self.require_named_kernels(&found, n, ex.span);
                }
            }
            work.extend(ex.kind.children());
        }
    }

    /// Emits the call of resolved function `f`.
    pub(crate) fn emit_call(&mut self, f: FuncId, this: Option<ValueId>, vals: Vec<Value>, args: &[ExprId], span: Span) -> Option<Value> {
        // What the call needs of the callee (not a clone of its whole record: calls are many).
        let info = &self.funcs[f.0 as usize];
        let (exec, ret, nparams, builtin_header, has_body, decl_span) =
            (info.exec, info.ret, info.params.len(), info.builtin_header, info.body.is_some(), info.span);
        // CUDA's calling rules.
        if let Some(fs) = &self.fs {
            let ce = fs.exec;
            match exec {
                // Host code calls host code, and launches kernels.
                Exec::Host | Exec::HostDevice if ce == Exec::Host => {}
                Exec::Kernel if ce == Exec::Host && self.launching => {}
                Exec::Kernel if ce == Exec::Host => {
                    self.error(span, "a call of a __global__ function must be a launch: 'kernel<<<grid, block>>>(...)'");
                    return None;
                }
                Exec::Device if ce == Exec::Host => {
                    let info = &self.funcs[f.0 as usize];
                    let msg = format!("calling a __device__ function '{}' from a __host__ function is not allowed", info.display);
                    self.error(span, msg);
                    return None;
                }
                Exec::Host => {
                    let caller = self.funcs[fs.func.0 as usize].display.clone();
                    let info = &self.funcs[f.0 as usize];
                    let what = if ce == Exec::Kernel { "__global__" } else { "__device__" };
                    let mut d = Diagnostic::error(
                        span,
                        format!("calling a __host__ function '{}' from a {what} function '{caller}' is not allowed", info.display),
                    );
                    if !self.is_builtin_file(decl_span) {
                        d = d.note(Some(decl_span), "declared here without __device__");
                    }
                    self.error_with(d);
                    return None;
                }
                Exec::Kernel => {
                    self.dynamic_parallelism(span);
                    return None;
                }
                _ => {}
            }
        }
        // Arguments.
        let mut operands = Vec::new();
        if let Some(t) = this {
            operands.push(t);
        }
        let mut argv = Vec::new();
        for i in 0..nparams {
            let pty = self.funcs[f.0 as usize].params[i];
            let (v, e) = match (vals.get(i), args.get(i)) {
                (Some(v), Some(&e)) => (*v, e),
                _ => {
                    let Some(&Some(d)) = self.funcs[f.0 as usize].defaults.get(i) else { return None };
                    let v = self.expr(d)?;
                    (v, d)
                }
            };
            let espan = self.ast.expr(e).span;
            let v = match self.ast.expr(e).kind {
                ExprKind::InitList(_) => {
                    let target = match self.types.kind(pty).clone() {
                        TyKind::Ref(t) => t,
                        _ => pty,
                    };
                    self.braced_temp(target, e)
                }
                _ => v,
            };
            let x = match self.types.kind(pty).clone() {
                TyKind::Ref(t) => match v.place {
                    Place::Addr(a, s) if v.ty.unqual() == t.unqual() => self.generic_ptr(a, s, v.ty, espan),
                    Place::Addr(a, s) if self.derives(v.ty, t) => {
                        let p = self.generic_ptr(a, s, v.ty.unqual(), espan);
                        self.upcast_ptr(p, v.ty, t, espan)?
                    }
                    _ => {
                        // A const reference to a temporary.
                        let x = self.convert_value(v, e, t.unqual(), espan)?;
                        let tmp = self.new_var("", t.unqual(), AddrSpace::Local, espan);
                        self.store(x, tmp, t.unqual(), espan);
                        self.generic_ptr(tmp, AddrSpace::Local, t.unqual(), espan)
                    }
                },
                _ => self.convert_value(v, e, pty, espan)?,
            };
            argv.push(x);
        }
        // Variadic arguments: default argument promotions.
        for (i, v) in vals.iter().enumerate().skip(nparams) {
            let e = args[i];
            let espan = self.ast.expr(e).span;
            let (x, t) = self.rval(*v, espan)?;
            let p = if self.types.float_ty(t).is_some() {
                self.types.float(super::ty::FloatTy::Double)
            } else if self.types.is_integral(t) {
                self.promoted(t)
            } else {
                t
            };
            argv.push(self.convert(x, t, p, espan, false)?);
        }
        operands.extend_from_slice(&argv);
        if builtin_header && !has_body {
            return self.builtin_call(f, &argv, span);
        }
        if !has_body && self.funcs[f.0 as usize].dispatch_of.is_none() {
            // Defined further down, or never: known when the translation unit ends.
            let display = &self.funcs[f.0 as usize].display;
            let mut d =
                Diagnostic::error(span, format!("'{display}' is declared but never defined: device code cannot call an external function"))
                    .note(Some(decl_span), "declared here");
            self.add_context_notes(&mut d);
            let caller = self.fs.as_ref().map(|s| s.func);
            self.undefined_calls.push((f, caller, d));
        }
        let callee = self.require_func(f);
        let results: Vec<TypeId> = self.types.ir(&mut self.ctx, ret).into_iter().collect();
        let op = self.op("func.call", &operands, &results, &[("callee", callee)], 0, span);
        match self.types.kind(ret).clone() {
            TyKind::Void => Some(Value { place: Place::Void, ty: ret }),
            TyKind::Ref(t) => Some(Value { place: Place::Addr(self.ctx.result(op, 0), AddrSpace::Generic), ty: t }),
            _ => Some(Value::val(self.ctx.result(op, 0), ret.unqual())),
        }
    }

    // ----- constructors and aggregates ---------------------------------------------------

    /// A braced list `{...}` as a temporary object of type `t`: a returned value or a
    /// function's argument.
    pub(crate) fn braced_temp(&mut self, t: Ty, e: ExprId) -> Value {
        let span = self.ast.expr(e).span;
        let t = t.unqual();
        let tmp = self.new_var("", t, AddrSpace::Local, span);
        self.init_memory(tmp, AddrSpace::Local, t, e);
        Value { place: Place::Addr(tmp, AddrSpace::Local), ty: t }
    }

    /// Initializes the record at `addr` (a local variable) from `args`; false after an error.
    pub(crate) fn run_constructor(&mut self, r: RecId, addr: ValueId, args: &[ExprId], span: Span) -> bool {
        self.run_constructor_at(r, addr, AddrSpace::Local, args, span)
    }

    /// [`Sema::run_constructor`] on an object in `space`.
    pub(crate) fn run_constructor_at(&mut self, r: RecId, addr: ValueId, space: AddrSpace, args: &[ExprId], span: Span) -> bool {
        let rt = self.rec_ty(r);
        let ctors: Vec<Entity> = self.ctors(r).into_iter().map(Entity::Func).collect();
        if ctors.is_empty() {
            // A copy, or an aggregate initialized member by member.
            if args.len() == 1 && self.type_of_unevaluated(args[0]).is_some_and(|t| t.unqual() == rt) {
                let Some((x, _)) = self.rvalue(args[0]) else { return false };
                self.store(x, addr, rt, span);
                self.fix_vptrs(addr, space, rt, span);
                return true;
            }
            if self.types.rec(r).dynamic && !args.is_empty() {
                let n = self.types.rec(r).name.clone();
                self.error(
                    span,
                    format!("'{n}' has virtual functions, so it is not an aggregate: it needs a constructor taking these arguments"),
                );
                return false;
            }
            let list: Vec<(Option<Atom>, ExprId)> = args.iter().map(|&a| (None, a)).collect();
            self.init_record(addr, space, rt, &list, span);
            if args.is_empty() {
                self.construct_parts(addr, space, r, &[], span);
            }
            self.fix_vptrs(addr, space, rt, span);
            return true;
        }
        // The implicit copy constructor, where none is declared (declared `= default` is
        // not); the implicit default constructor where declared `= default`.
        if args.len() == 1 && self.type_of_unevaluated(args[0]).is_some_and(|t| t.unqual() == rt) && !self.has_copy_ctor(r) {
            let Some((x, _)) = self.rvalue(args[0]) else { return false };
            self.store(x, addr, rt, span);
            self.fix_vptrs(addr, space, rt, span);
            return true;
        }
        if args.is_empty() && self.has_defaulted_default_ctor(r) {
            self.construct_parts(addr, space, r, &[], span);
            self.fix_vptrs(addr, space, rt, span);
            return true;
        }
        let what = self.types.rec(r).name.clone();
        let Some((vals, args)) = self.arg_values(args) else { return false };
        let args = &args[..];
        let Some(f) = self.resolve(&ctors, None, &vals, args, &what, span) else { return false };
        let this = self.generic_ptr(addr, space, rt, span);
        self.emit_call(f, Some(this), vals, args, span).is_some()
    }

    /// A constructor's member initializers (`: a(x), b(y)`).
    pub(crate) fn emit_ctor_inits(&mut self, f: FuncId) {
        let info = self.funcs[f.0 as usize].clone();
        let DeclKind::Function { inits, .. } = &self.ast.decl(info.decl).kind else { return };
        let Some((this, r)) = self.fs.as_ref().and_then(|f| f.this) else { return };
        let rt = self.rec_ty(r);
        // Base classes first, then the vptr slots (see `virtuals`), then the members.
        let is_base = |s: &Self, name: Atom| s.types.rec(r).bases.iter().any(|b| b.name == name);
        let (mut inits, members): (Vec<_>, Vec<_>) = inits.iter().cloned().partition(|(n, _)| is_base(self, *n));
        let bases_end = inits.len();
        inits.extend(members);
        let n = inits.len();
        let listed: Vec<Atom> = inits.iter().map(|x| x.0).collect();
        let (bases_listed, members_listed) = listed.split_at(bases_end);
        let all_members: Vec<Atom> = self.types.rec(r).bases.iter().map(|b| b.name).collect();
        for (i, (name, args)) in inits.into_iter().enumerate() {
            if i == bases_end {
                // Bases not listed are default-constructed, as members not listed are.
                let mut skip = members_listed.to_vec();
                skip.extend(bases_listed);
                self.construct_parts_of(this, AddrSpace::Generic, r, &skip, true, info.span);
                self.fix_vptrs(this, AddrSpace::Generic, rt, info.span);
                let mut skip = all_members.clone();
                skip.extend(members_listed);
                self.construct_parts_of(this, AddrSpace::Generic, r, &skip, false, info.span);
            }
            // A base class: its constructor on its subobject (an empty one's: at `this`).
            if let Some(b) = self.types.rec(r).bases.iter().find(|b| b.name == name).cloned() {
                let bt = self.rec_ty(b.rec);
                let Some(a) = self.upcast_ptr(this, rt, bt, info.span) else { continue };
                if self.has_ctor(b.rec) {
                    self.run_constructor_at(b.rec, a, AddrSpace::Generic, &args, info.span);
                } else if !args.is_empty() {
                    let list: Vec<(Option<Atom>, ExprId)> = args.iter().map(|&a| (None, a)).collect();
                    self.init_record(a, AddrSpace::Generic, bt, &list, info.span);
                }
                continue;
            }
            let Some(path) = self.field_path(r, name) else {
                let n = self.name_str(name);
                self.error(info.span, format!("'{n}' is not a member of '{}'", self.types.rec(r).name));
                continue;
            };
            let (a, fty) = self.field_addr(this, AddrSpace::Generic, rt, &path, info.span);
            if let Some(fr) = self.types.record(fty) {
                self.run_constructor_at(fr, a, AddrSpace::Generic, &args, info.span);
                continue;
            }
            match args.as_slice() {
                [] => {
                    if let Some(v) = self.konst_value(Konst::Int(0), fty, info.span) {
                        if let Place::Val(x) = v.place {
                            self.store(x, a, fty, info.span);
                        }
                    }
                }
                [e] => {
                    let espan = self.ast.expr(*e).span;
                    if let Some(v) = self.expr(*e) {
                        if let Some(x) = self.convert_value(v, *e, fty, espan) {
                            self.store(x, a, fty, info.span);
                        }
                    }
                }
                _ => self.error(info.span, "too many initializers for a member"),
            }
        }
        if bases_end == n {
            let skip: Vec<Atom> = listed.clone();
            self.construct_parts_of(this, AddrSpace::Generic, r, &skip, true, info.span);
            self.fix_vptrs(this, AddrSpace::Generic, rt, info.span);
            self.construct_parts_of(this, AddrSpace::Generic, r, &skip, false, info.span);
        }
    }

    /// Default-initializes what of record `r` at `addr` runs code (bases, then members, of
    /// class type with a constructor somewhere in them), except the names in `skip` (those
    /// a constructor's initializer list names).
    pub(crate) fn construct_parts(&mut self, addr: ValueId, space: AddrSpace, r: RecId, skip: &[Atom], span: Span) {
        self.construct_parts_of(addr, space, r, skip, true, span);
        self.construct_parts_of(addr, space, r, skip, false, span);
    }

    /// [`Sema::construct_parts`] for the bases only (`bases`) or the members only.
    fn construct_parts_of(&mut self, addr: ValueId, space: AddrSpace, r: RecId, skip: &[Atom], bases: bool, span: Span) {
        let info = self.types.rec(r).clone();
        if info.is_union {
            return;
        }
        let rt = self.rec_ty(r);
        for (i, f) in info.fields.iter().enumerate() {
            let base = info.bases.iter().find(|b| b.field == Some(i));
            if base.is_some() != bases || skip.contains(&base.map_or(f.name, |b| b.name)) {
                continue;
            }
            let Some(fr) = self.types.record(f.ty.unqual()) else { continue };
            if !self.needs_construction(fr) {
                continue;
            }
            let (a, _) = self.field_addr(addr, space, rt, &[i], span);
            if self.has_ctor(fr) {
                self.run_constructor_at(fr, a, space, &[], span);
            } else {
                self.construct_parts(a, space, fr, &[], span);
            }
        }
    }

    /// Whether default-initializing an `r` runs code: a constructor of it, or of a base or
    /// member.
    pub(crate) fn needs_construction(&self, r: RecId) -> bool {
        let info = self.types.rec(r);
        if info.dynamic || (self.has_ctor(r) && !self.has_defaulted_default_ctor(r)) {
            return true;
        }
        !info.is_union && info.fields.iter().any(|f| self.types.record(f.ty.unqual()).is_some_and(|fr| self.needs_construction(fr)))
    }

    /// Stores `init` (an expression or a braced list) into memory of type `t` at `addr`.
    pub(crate) fn init_memory(&mut self, addr: ValueId, space: AddrSpace, t: Ty, init: ExprId) {
        let span = self.ast.expr(init).span;
        match (&self.ast.expr(init).kind, self.types.kind(t.unqual()).clone()) {
            // `char s[] = "abc"`: the bytes and the terminating NUL, the rest zero.
            (ExprKind::Str(parts), TyKind::Array(elem, n)) if self.types.size(elem) == 1 && self.types.is_integral(elem) => {
                let Some(bytes) = self.string_init_bytes(&parts.clone(), span) else { return };
                let n = n.unwrap_or(bytes.len() as u64 + 1);
                if bytes.len() as u64 > n {
                    self.error(span, format!("initializer-string for an array of {n} chars is too long ({} chars)", bytes.len()));
                    return;
                }
                let first = self.elem_addr(addr, space, t, elem, span);
                for (i, &b) in bytes.iter().enumerate() {
                    let a = self.elem_at(first, i as u64, span);
                    let c = self.constant_int(b as i8 as i128, elem.unqual(), span);
                    self.store(c, a, elem.unqual(), span);
                }
                self.zero_fill(first, space, elem, bytes.len() as u64, n, span);
            }
            (ExprKind::InitList(items), TyKind::Array(elem, n)) => {
                let items = items.clone();
                let n = n.unwrap_or(items.len() as u64);
                let first = self.elem_addr(addr, space, t, elem, span);
                // Each element takes an item, or (an aggregate given no braces of its own)
                // as many as it has scalars: brace elision.
                let (mut pos, mut i) = (0, 0);
                while pos < items.len() && i < n {
                    let a = self.elem_at(first, i, span);
                    self.init_member_from(a, space, elem, &items, &mut pos, None, span);
                    i += 1;
                }
                if pos < items.len() {
                    self.error(span, format!("excess elements in array initializer ({} for {n})", items.len()));
                }
                if i < n {
                    self.zero_fill(first, space, elem, i, n, span);
                }
            }
            (ExprKind::InitList(items), TyKind::Record(r)) => {
                let items = items.clone();
                // A class with constructors takes the list as constructor arguments.
                if self.has_ctor(r) && space == AddrSpace::Local {
                    let args: Vec<ExprId> = items.iter().map(|x| x.1).collect();
                    self.run_constructor(r, addr, &args, span);
                } else if self.types.rec(r).dynamic && !items.is_empty() {
                    let n = self.types.rec(r).name.clone();
                    self.error(
                        span,
                        format!("'{n}' has virtual functions, so it is not an aggregate: it needs a constructor taking these arguments"),
                    );
                } else {
                    self.init_record(addr, space, t, &items, span);
                }
            }
            (ExprKind::InitList(items), _) => match items.as_slice() {
                [] => {
                    if let Some(Value { place: Place::Val(z), .. }) = self.konst_value(Konst::Int(0), t, span) {
                        self.store(z, addr, t, span);
                    }
                }
                [(_, e)] => {
                    let e = *e;
                    let espan = self.ast.expr(e).span;
                    if let Some(v) = self.expr(e) {
                        if let Some(x) = self.convert_value(v, e, t, espan) {
                            self.store(x, addr, t, span);
                        }
                    }
                }
                _ => self.error(span, format!("too many initializers for '{}'", self.types.show(t))),
            },
            _ => {
                if let Some(v) = self.expr(init) {
                    if let Some(x) = self.convert_value(v, init, t, span) {
                        self.store(x, addr, t, span);
                    }
                }
            }
        }
    }

    /// Whether `t` is an aggregate that brace elision fills from the enclosing list: an array
    /// of known size, or a class without constructors.
    fn elidable(&self, t: Ty) -> bool {
        match self.types.kind(t.unqual()) {
            TyKind::Array(_, Some(_)) => true,
            TyKind::Record(r) => !self.has_ctor(*r),
            _ => false,
        }
    }

    /// Whether record `r` declares a constructor.
    pub(crate) fn has_ctor(&self, r: RecId) -> bool {
        !self.ctors(r).is_empty()
    }

    /// The conversion functions (`operator float()`) class `r` declares.
    pub(crate) fn conversion_fns(&self, r: RecId) -> Vec<FuncId> {
        let ns = self.rec_ns[r.0 as usize];
        self.namespaces[ns.0 as usize]
            .names
            .iter()
            .filter(|(a, _)| self.name_str(**a).starts_with("operator "))
            .flat_map(|(_, v)| v.iter())
            .filter_map(|e| match e {
                Entity::Func(f) => Some(*f),
                _ => None,
            })
            .collect()
    }

    /// The conversion function of class `r` whose result reaches `to` best by a standard
    /// conversion, if exactly one does; `explicit`: `explicit` ones count too (a cast).
    pub(crate) fn conversion_to(&mut self, r: RecId, to: Ty, explicit: bool) -> Option<FuncId> {
        let mut best: Option<(FuncId, Rank)> = None;
        let mut tie = false;
        for f in self.conversion_fns(r) {
            let fi = &self.funcs[f.0 as usize];
            let is_explicit = matches!(&self.ast.decl(fi.decl).kind, DeclKind::Function { specs, .. } if specs.is_explicit);
            if is_explicit && !explicit {
                continue;
            }
            let ret = match self.types.kind(fi.ret.unqual()) {
                TyKind::Ref(t) => *t,
                _ => fi.ret,
            };
            let probe = Value { place: Place::Void, ty: ret };
            let Some(rank) = self.conv_rank_ext(&probe, None, to, false) else { continue };
            match best {
                Some((_, b)) if b < rank => {}
                Some((_, b)) if b == rank => tie = true,
                _ => {
                    best = Some((f, rank));
                    tie = false;
                }
            }
        }
        if tie {
            return None;
        }
        best.map(|(f, _)| f)
    }

    /// Calls conversion function `f` of class `r` on object `v`.
    pub(crate) fn call_conversion(&mut self, f: FuncId, r: RecId, v: Value, span: Span) -> Option<Value> {
        let this = match v.place {
            Place::Addr(x, s) => self.generic_ptr(x, s, v.ty.unqual(), span),
            _ => {
                let (x, t) = self.rval(v, span)?;
                let tmp = self.new_var("", t, AddrSpace::Local, span);
                self.store(x, tmp, t, span);
                self.generic_ptr(tmp, AddrSpace::Local, t, span)
            }
        };
        let this = self.this_for(this, r, f, span)?;
        self.emit_call(f, Some(this), Vec::new(), &[], span)
    }

    /// Whether class `r` declares a copy assignment operator (`operator=` taking `T`,
    /// `T &` or `const T &`); without one, assigning a `T` copies it member by member even
    /// where other `operator=` overloads are declared.
    pub(crate) fn has_copy_assign(&self, r: RecId) -> bool {
        let Some(atom) = self.atom("operator=") else { return false };
        let ns = self.rec_ns[r.0 as usize];
        self.namespaces[ns.0 as usize].names.get(&atom).is_some_and(|v| {
            v.iter().any(|e| match e {
                Entity::Func(f) if self.is_defaulted(*f) => false,
                Entity::Func(f) => self.funcs[f.0 as usize].params.first().is_some_and(|&p| {
                    let p = match self.types.kind(p.unqual()) {
                        TyKind::Ref(t) => *t,
                        _ => p,
                    };
                    self.types.record(p.unqual()) == Some(r)
                }),
                _ => true,
            })
        })
    }

    /// The constructors class `r` declares, but for those declared `= default` (which are
    /// the implicit ones).
    pub(crate) fn ctors(&self, r: RecId) -> Vec<FuncId> {
        let ns = self.rec_ns[r.0 as usize];
        self.namespaces[ns.0 as usize]
            .names
            .values()
            .flatten()
            .filter_map(|e| match e {
                Entity::Func(f)
                    if self.funcs[f.0 as usize].is_ctor && self.funcs[f.0 as usize].record == Some(r) && !self.is_defaulted(*f) =>
                {
                    Some(*f)
                }
                _ => None,
            })
            .collect()
    }

    /// Whether class `r` declares a copy constructor (not `= default`).
    fn has_copy_ctor(&self, r: RecId) -> bool {
        self.ctors(r).into_iter().any(|f| {
            let fi = &self.funcs[f.0 as usize];
            fi.params.first().is_some_and(|&p| {
                let p = match self.types.kind(p.unqual()) {
                    TyKind::Ref(t) => *t,
                    _ => p,
                };
                self.types.record(p.unqual()) == Some(r)
            }) && fi.defaults.iter().skip(1).all(|d| d.is_some())
        })
    }

    /// Whether class `r` declares its default constructor `= default`.
    fn has_defaulted_default_ctor(&self, r: RecId) -> bool {
        let ns = self.rec_ns[r.0 as usize];
        self.namespaces[ns.0 as usize].names.values().flatten().any(|e| {
            matches!(e, Entity::Func(f) if self.funcs[f.0 as usize].is_ctor
                && self.funcs[f.0 as usize].record == Some(r)
                && self.funcs[f.0 as usize].params.is_empty()
                && self.is_defaulted(*f))
        })
    }

    /// Whether function `f` is declared `= default`.
    pub(crate) fn is_defaulted(&self, f: FuncId) -> bool {
        matches!(&self.ast.decl(self.funcs[f.0 as usize].decl).kind, DeclKind::Function { specs, .. } if specs.is_defaulted)
    }

    /// The bytes a string literal initializer stores (without the terminating NUL).
    pub(crate) fn string_init_bytes(&mut self, parts: &[Atom], span: Span) -> Option<Vec<u8>> {
        let mut out = Vec::new();
        for &a in parts {
            match super::extern_calls::string_bytes(self.name_str(a)) {
                Ok(b) => out.extend(b),
                Err(e) => {
                    self.unsupported(span, &e);
                    return None;
                }
            }
        }
        Some(out)
    }

    /// The address of element `i` of the array whose first element is at `first`.
    fn elem_at(&mut self, first: ValueId, i: u64, span: Span) -> ValueId {
        let long = self.types.int(IntKind::Long);
        let idx = self.constant_int(i as i128, long, span);
        let bt = self.ctx.value_type(first);
        self.op1("cuda.ptr_add", &[first, idx], bt, &[], span)
    }

    /// Initializes the member of type `mt` at `a` from `items[*pos]` on, advancing `pos`:
    /// a braced item (or a string, or an object of the member's class) initializes it
    /// whole; otherwise an aggregate member takes its scalars one item each from the list
    /// (brace elision: `struct { int a[2]; int b; } x = {1, 2, 3};`). `first`: the value of
    /// `items[*pos]`, if already evaluated.
    #[allow(clippy::too_many_arguments)]
    fn init_member_from(
        &mut self,
        a: ValueId,
        space: AddrSpace,
        mt: Ty,
        items: &[(Option<Atom>, ExprId)],
        pos: &mut usize,
        first: Option<Value>,
        span: Span,
    ) {
        let (desig, e) = items[*pos];
        let braced = matches!(self.ast.expr(e).kind, ExprKind::InitList(_) | ExprKind::Str(_));
        if first.is_none() && (braced || !self.elidable(mt)) {
            self.init_memory(a, space, mt, e);
            *pos += 1;
            return;
        }
        let espan = self.ast.expr(e).span;
        if desig.is_some() {
            self.unsupported(espan, "a designator inside an initializer without braces for its aggregate");
            *pos += 1;
            return;
        }
        let v = match first {
            Some(v) => v,
            None => match self.expr(e) {
                Some(v) => v,
                None => {
                    *pos += 1;
                    return;
                }
            },
        };
        // (An aggregate with no scalars takes no item: it is not elided into.)
        if !self.elidable(mt) || v.ty.unqual() == mt.unqual() || self.scalar_leaves(mt).unwrap_or(0) == 0 {
            if let Some(x) = self.convert_value(v, e, mt.unqual(), espan) {
                self.store(x, a, mt.unqual(), espan);
            }
            *pos += 1;
            return;
        }
        // Brace elision: the member's own scalars, in order, from this item on.
        match self.types.kind(mt.unqual()).clone() {
            TyKind::Array(elem, Some(n)) => {
                let base = self.elem_addr(a, space, mt, elem, span);
                let mut first = Some(v);
                for i in 0..n {
                    if *pos >= items.len() {
                        self.zero_fill(base, space, elem, i, n, span);
                        break;
                    }
                    let ea = self.elem_at(base, i, span);
                    self.init_member_from(ea, space, elem, items, pos, first.take(), span);
                }
            }
            TyKind::Record(r) => {
                let fields = self.types.rec(r).fields.clone();
                let take = if self.types.rec(r).is_union { 1 } else { fields.len() };
                let mut first = Some(v);
                for (i, f) in fields.iter().enumerate().take(take) {
                    let fa = self.member_addr(a, space, mt, i, span);
                    if *pos >= items.len() {
                        self.zero_object(fa, space, f.ty, span);
                        continue;
                    }
                    self.init_member_from(fa, space, f.ty, items, pos, first.take(), span);
                }
            }
            _ => {}
        }
    }

    /// How many elements an array of `elem` initialized by `items` gets (`T a[] = {...}`),
    /// counting brace elision: an element that is an aggregate of scalars given without braces
    /// takes as many items as it has scalars.
    pub(crate) fn elided_count(&self, elem: Ty, items: &[(Option<Atom>, ExprId)]) -> u64 {
        let Some(leaves) = self.scalar_leaves(elem).filter(|&l| l > 1) else { return items.len() as u64 };
        // An item without braces starts an elided element if it is a scalar: a literal, an
        // operator on scalars, a variable of scalar type. An object of the element's class
        // would be a whole element; for other forms the count is the items' (no elision).
        let scalar = |e: ExprId| match &self.ast.expr(e).kind {
            ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Char(_) | ExprKind::Bool(_) => Some(true),
            ExprKind::Unary(..) | ExprKind::Binary(..) => Some(true),
            ExprKind::Name(n) => {
                let n = self.ast.name(*n);
                if n.parts.len() != 1 || n.global || n.template_args.is_some() {
                    return None;
                }
                match self.lookup(n.parts[0]).first() {
                    Some(Entity::Var { ty, .. } | Entity::Global { ty, .. } | Entity::Const(_, ty)) => Some(self.types.is_scalar(*ty)),
                    _ => None,
                }
            }
            _ => None,
        };
        let (mut pos, mut n) = (0, 0u64);
        while pos < items.len() {
            let e = items[pos].1;
            if matches!(self.ast.expr(e).kind, ExprKind::InitList(_)) {
                pos += 1;
            } else {
                match scalar(e) {
                    Some(true) => pos += leaves as usize,
                    Some(false) => pos += 1,
                    None => return items.len() as u64,
                }
            }
            n += 1;
        }
        n
    }

    /// How many scalars an aggregate without constructors holds (its unions' first members),
    /// if it is one.
    fn scalar_leaves(&self, t: Ty) -> Option<u64> {
        if !self.elidable(t) {
            return self.types.is_scalar(t).then_some(1);
        }
        match self.types.kind(t.unqual()).clone() {
            TyKind::Array(e, Some(n)) => Some(n * self.scalar_leaves(e)?),
            TyKind::Record(r) => {
                let info = self.types.rec(r);
                let fields: Vec<Ty> = info.fields.iter().map(|f| f.ty).take(if info.is_union { 1 } else { usize::MAX }).collect();
                fields.into_iter().map(|f| self.scalar_leaves(f)).sum()
            }
            _ => None,
        }
    }

    pub(crate) fn init_record(&mut self, addr: ValueId, space: AddrSpace, t: Ty, items: &[(Option<Atom>, ExprId)], span: Span) {
        let Some(r) = self.types.record(t.unqual()) else { return };
        let fields = self.types.rec(r).fields.clone();
        let mut next = 0usize;
        let mut done = vec![false; fields.len()];
        let mut pos = 0;
        while let Some((desig, e)) = items.get(pos) {
            let i = match desig {
                Some(n) => match self.field_path(r, *n) {
                    Some(path) if path.len() == 1 => path[0],
                    // A member of an anonymous struct or union: the anonymous member is
                    // zeroed (once), then that member of it initialized.
                    Some(path) => {
                        let i = path[0];
                        if !done[i] {
                            let a = self.member_addr(addr, space, t, i, span);
                            self.zero_object(a, space, fields[i].ty, span);
                            done[i] = true;
                        }
                        let (a, mt) = self.field_addr(addr, space, t.unqual(), &path, span);
                        self.init_memory(a, space, mt, *e);
                        pos += 1;
                        next = i + 1;
                        if self.types.rec(r).is_union {
                            return;
                        }
                        continue;
                    }
                    None => {
                        let n = self.name_str(*n);
                        self.error(self.ast.expr(*e).span, format!("no member named '{n}' in '{}'", self.types.rec(r).name));
                        pos += 1;
                        continue;
                    }
                },
                None => next,
            };
            if i >= fields.len() {
                self.error(self.ast.expr(*e).span, format!("excess elements in initializer of '{}'", self.types.rec(r).name));
                break;
            }
            let a = self.member_addr(addr, space, t, i, span);
            if desig.is_some() {
                self.init_memory(a, space, fields[i].ty, *e);
                pos += 1;
            } else {
                self.init_member_from(a, space, fields[i].ty, items, &mut pos, None, span);
            }
            done[i] = true;
            next = i + 1;
            if self.types.rec(r).is_union {
                return;
            }
        }
        // Members without an initializer are value-initialized.
        if !items.is_empty() {
            for (i, f) in fields.iter().enumerate() {
                if !done[i] {
                    let a = self.member_addr(addr, space, t, i, span);
                    self.zero_object(a, space, f.ty, span);
                }
            }
        }
    }

    fn zero_object(&mut self, addr: ValueId, space: AddrSpace, t: Ty, span: Span) {
        match self.types.kind(t.unqual()).clone() {
            TyKind::Array(e, Some(n)) => {
                let first = self.elem_addr(addr, space, t, e, span);
                self.zero_fill(first, space, e, 0, n, span);
            }
            TyKind::Record(r) => {
                let fields = self.types.rec(r).fields.clone();
                for (i, f) in fields.iter().enumerate() {
                    let a = self.member_addr(addr, space, t, i, span);
                    self.zero_object(a, space, f.ty, span);
                }
            }
            _ => {
                if let Some(Value { place: Place::Val(z), .. }) = self.konst_value(Konst::Int(0), t, span) {
                    self.store(z, addr, t, span);
                }
            }
        }
    }

    /// Zeroes elements `from..to` of the array whose first element is at `first` (a loop
    /// beyond a few elements).
    fn zero_fill(&mut self, first: ValueId, space: AddrSpace, elem: Ty, from: u64, to: u64, span: Span) {
        let long = self.types.int(IntKind::Long);
        let bt = self.ctx.value_type(first);
        if to - from <= 8 {
            for i in from..to {
                let a = self.elem_at(first, i, span);
                self.zero_object(a, space, elem, span);
            }
            return;
        }
        let iv = self.new_var("", long, AddrSpace::Local, span);
        let start = self.constant_int(from as i128, long, span);
        self.store(start, iv, long, span);
        let lp = self.op("cuda.loop", &[], &[], &[], 3, span);
        let (cb, bb, sb) = (self.region_block(lp, 0), self.region_block(lp, 1), self.region_block(lp, 2));
        self.in_block(cb, |s| {
            let i = s.load(iv, long, span);
            let end = s.constant_int(to as i128, long, span);
            let c = s.compare(BinaryOp::Lt, i, end, long, span);
            s.terminate("cuda.condition", &[c], span);
        });
        self.in_block(bb, |s| {
            let i = s.load(iv, long, span);
            let a = s.op1("cuda.ptr_add", &[first, i], bt, &[], span);
            s.zero_object(a, space, elem, span);
            s.terminate("cuda.yield", &[], span);
        });
        self.in_block(sb, |s| {
            let i = s.load(iv, long, span);
            let one = s.constant_int(1, long, span);
            if let Some(n) = s.binop(super::expr::Bin::Add, i, one, long, span) {
                s.store(n, iv, long, span);
            }
            s.terminate("cuda.yield", &[], span);
        });
    }

    // ----- overloaded operators ----------------------------------------------------------

    /// Whether record `r` declares member `name`.
    pub(crate) fn has_member(&self, r: RecId, name: &str) -> bool {
        let Some(atom) = self.atom(name) else { return false };
        let ns = self.rec_ns[r.0 as usize];
        self.namespaces[ns.0 as usize].names.get(&atom).is_some_and(|v| !v.is_empty())
    }

    /// `obj.operatorX(args)` (`addr`: the object as a generic pointer).
    pub(crate) fn try_member_operator(&mut self, r: RecId, op: &str, addr: ValueId, args: &[ExprId], span: Span) -> Option<Value> {
        let atom = self.atom(op)?;
        let ns = self.rec_ns[r.0 as usize];
        let methods = self.namespaces[ns.0 as usize].names.get(&atom).cloned()?;
        let (vals, args) = self.arg_values(args)?;
        let args = &args[..];
        let what = format!("{}::{op}", self.types.rec(r).name);
        let f = self.resolve(&methods, None, &vals, args, &what, span)?;
        self.emit_call(f, Some(addr), vals, args, span)
    }

    /// [`Sema::try_member_operator`] with the arguments already evaluated.
    pub(crate) fn member_operator_values(
        &mut self,
        r: RecId,
        op: &str,
        addr: ValueId,
        vals: Vec<Value>,
        args: &[ExprId],
        span: Span,
    ) -> Option<Value> {
        let atom = self.atom(op)?;
        let ns = self.rec_ns[r.0 as usize];
        let methods = self.namespaces[ns.0 as usize].names.get(&atom).cloned()?;
        let what = format!("{}::{op}", self.types.rec(r).name);
        let f = self.resolve(&methods, None, &vals, args, &what, span)?;
        self.emit_call(f, Some(addr), vals, args, span)
    }

    pub(crate) fn overloaded_binary(&mut self, op: BinaryOp, va: Value, a: ExprId, vb: Value, b: ExprId, span: Span) -> Option<Value> {
        self.overloaded_operator(binary_op_symbol(op), va, a, Some((vb, b)), span)
    }

    /// Whether `operator<sym>` is declared for an operand of record type `r`: as its member
    /// (or a base's) or as a function in scope.
    pub(crate) fn has_operator(&mut self, r: RecId, sym: &str) -> bool {
        let Some(atom) = self.atom(&format!("operator{sym}")) else { return false };
        let ns = self.rec_ns[r.0 as usize];
        !self.lookup_in_ns(ns, atom, 0).is_empty() || !self.lookup(atom).is_empty()
    }

    /// `va op vb` (or the unary `op va`) with a user-declared `operator<sym>`: a member of
    /// `va`'s class, else a function found by name.
    pub(crate) fn overloaded_operator(
        &mut self,
        sym: &str,
        va: Value,
        a: ExprId,
        rhs: Option<(Value, ExprId)>,
        span: Span,
    ) -> Option<Value> {
        let name = format!("operator{sym}");
        let what = name.clone();
        let mut cands = Vec::new();
        let (margs, mexprs): (Vec<Value>, Vec<ExprId>) = rhs.into_iter().unzip();
        // Members of the left operand's class.
        let mut member = None;
        let rec = self.types.record(va.ty.unqual());
        if let Some(r) = rec {
            if let Some(atom) = self.atom(&name) {
                let ns = self.rec_ns[r.0 as usize];
                member = Some(self.lookup_in_ns(ns, atom, 0)).filter(|m| !m.is_empty());
            }
        }
        if let (Some(m), Some(r)) = (member, rec) {
            let f = self.resolve(&m, None, &margs, &mexprs, &what, span);
            if let Some(f) = f {
                let this = match va.place {
                    Place::Addr(x, s) => self.generic_ptr(x, s, va.ty.unqual(), span),
                    _ => {
                        let (x, t) = self.rval(va, span)?;
                        let tmp = self.new_var("", t, AddrSpace::Local, span);
                        self.store(x, tmp, t, span);
                        self.generic_ptr(tmp, AddrSpace::Local, t, span)
                    }
                };
                let this = self.this_for(this, r, f, span)?;
                return self.emit_call(f, Some(this), margs, &mexprs, span);
            }
            return None;
        }
        if let Some(atom) = self.atom(&name) {
            cands = self.lookup(atom);
        }
        if cands.is_empty() {
            let msg = match margs.first() {
                Some(vb) => {
                    format!("invalid operands to binary expression ('{}' and '{}')", self.types.show(va.ty), self.types.show(vb.ty))
                }
                None => format!("invalid argument type '{}' to unary expression", self.types.show(va.ty)),
            };
            self.error(span, msg);
            return None;
        }
        let (args, exprs): (Vec<Value>, Vec<ExprId>) = std::iter::once((va, a)).chain(margs.into_iter().zip(mexprs)).unzip();
        let f = self.resolve(&cands, None, &args, &exprs, &what, span)?;
        self.emit_call(f, None, args, &exprs, span)
    }
}

/// The symbol of a binary operator (`+` for [`BinaryOp::Add`]).
pub(crate) fn binary_op_symbol(op: BinaryOp) -> &'static str {
    match op {
        BinaryOp::Add => "+",
        BinaryOp::Sub => "-",
        BinaryOp::Mul => "*",
        BinaryOp::Div => "/",
        BinaryOp::Rem => "%",
        BinaryOp::Lt => "<",
        BinaryOp::Gt => ">",
        BinaryOp::Le => "<=",
        BinaryOp::Ge => ">=",
        BinaryOp::Eq => "==",
        BinaryOp::Ne => "!=",
        BinaryOp::BitAnd => "&",
        BinaryOp::BitOr => "|",
        BinaryOp::BitXor => "^",
        BinaryOp::Shl => "<<",
        BinaryOp::Shr => ">>",
        BinaryOp::And => "&&",
        BinaryOp::Or => "||",
        BinaryOp::Comma => ",",
    }
}
