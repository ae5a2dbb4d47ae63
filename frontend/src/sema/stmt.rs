//! Statements: block scopes, local declarations (`cuda.var` per thread, or per block for
//! `__shared__`), structured control flow (`cuda.if`, `cuda.loop`, `cuda.switch`) whose
//! regions end with `cuda.yield`, `cuda.break`, `cuda.continue` or `cuda.return`, and
//! inline `asm`. When sema finishes, the `if`s and loops nothing leaves early become `scf`
//! ([`crate::structured`]).

use super::expr::{Place, Value};
use super::ty::{Ty, TyKind};
use super::*;

impl Sema<'_> {
    /// A GNU statement expression `({ ... })`: the block's statements run in a scope of
    /// their own; the value is the last one's, when it is an expression statement (void
    /// otherwise). Its objects live on in the function's frame, so a result that names one
    /// stays valid.
    pub(crate) fn stmt_expr(&mut self, body: StmtId, span: Span) -> Option<Value> {
        let StmtKind::Compound(items) = self.ast.stmt(body).kind.clone() else { return None };
        if self.fs.is_none() {
            self.unsupported(span, "a statement expression outside a function body");
            return None;
        }
        self.push_scope();
        let mut value = Some(Value { place: Place::Void, ty: self.types.void() });
        for (i, &c) in items.iter().enumerate() {
            if self.terminated() {
                break;
            }
            match self.ast.stmt(c).kind {
                StmtKind::Expr(e) if i + 1 == items.len() => value = self.expr(e),
                _ => self.stmt(c),
            }
        }
        self.pop_scope();
        value
    }

    pub(crate) fn stmt(&mut self, s: StmtId) {
        if self.terminated() {
            return;
        }
        let st = self.ast.stmt(s);
        let span = st.span;
        match &st.kind {
            StmtKind::Compound(items) => {
                let items = items.clone();
                self.push_scope();
                self.block_items(&items);
                self.pop_scope();
            }
            StmtKind::Decl(decls) => {
                for d in decls.clone() {
                    self.local_decl(d);
                }
            }
            StmtKind::Expr(e) => {
                self.expr(*e);
            }
            StmtKind::If { cond, then, els, init } => {
                let (cond, then, els, init) = (*cond, *then, *els, *init);
                self.push_scope();
                if let Some(i) = init {
                    self.stmt(i);
                }
                if let Some(c) = self.condition(cond) {
                    let ifop = self.op("cuda.if", &[c], &[], &[], 2, span);
                    let (tb, eb) = (self.region_block(ifop, 0), self.region_block(ifop, 1));
                    let (_, t1) = self.in_block(tb, |s| s.region_body(then));
                    let (_, t2) = self.in_block(eb, |s| match els {
                        Some(e) => s.region_body(e),
                        None => s.terminate("cuda.yield", &[], span),
                    });
                    if t1 && t2 && self.diverged(ifop) {
                        self.terminate("ub.unreachable", &[], span);
                    }
                }
                self.pop_scope();
            }
            StmtKind::For { init, cond, step, body, unroll } => {
                let (init, cond, step, body, unroll) = (*init, *cond, *step, *body, *unroll);
                self.push_scope();
                if let Some(i) = init {
                    self.stmt(i);
                }
                self.emit_loop(cond, body, step, unroll, false, span);
                self.pop_scope();
            }
            StmtKind::RangeFor { range, range_name, iters, cond, step, body, unroll } => {
                let (range, range_name, iters, cond, step, body, unroll) = (*range, *range_name, *iters, *cond, *step, *body, *unroll);
                self.push_scope();
                self.stmt(range);
                if let Some(form) = self.range_form(range_name) {
                    self.stmt(iters[form]);
                    self.emit_loop(Some(cond), body, Some(step), unroll, false, span);
                }
                self.pop_scope();
            }
            StmtKind::While { cond, body, unroll } => self.emit_loop(Some(*cond), *body, None, *unroll, false, span),
            StmtKind::DoWhile { body, cond, unroll } => self.emit_loop(Some(*cond), *body, None, *unroll, true, span),
            StmtKind::Switch { cond, body } => self.switch(*cond, *body, span),
            StmtKind::Case(..) | StmtKind::Default(_) => {
                self.error(span, "'case' and 'default' labels are supported only directly in a switch's braces");
            }
            StmtKind::Break => self.break_stmt(span),
            StmtKind::Continue => self.continue_stmt(span),
            StmtKind::Return(e) => self.ret(*e, span),
            StmtKind::Goto(l) => self.goto(*l, span),
            StmtKind::Label(_, inner) => self.stmt(*inner),
            StmtKind::Asm(asm) => {
                let AsmStmt { volatile, template, outputs, inputs, clobbers } = &**asm;
                let volatile = *volatile;
                self.asm(volatile, template, outputs, inputs, clobbers, span)
            }
            StmtKind::Null | StmtKind::Error => {}
            // Only a stub stands for it: reading it means the earlier result could not
            // be used after all, and the caller compiles again reading every body.
            StmtKind::Known => self.body_unknown(),
        }
    }

    /// A statement as a region's body: ends the block with `cuda.yield` unless it already
    /// ended.
    fn region_body(&mut self, s: StmtId) {
        self.push_scope();
        self.stmt(s);
        self.pop_scope();
        if !self.terminated() {
            let end = Span { lo: self.ast.stmt(s).span.hi.saturating_sub(1), ..self.ast.stmt(s).span };
            self.terminate("cuda.yield", &[], end);
        }
    }

    /// Whether no region of `op` falls through (each ends with return/break/continue or
    /// `ub.unreachable`).
    fn diverged(&self, op: OpId) -> bool {
        self.ctx.regions(op).iter().all(|&r| {
            self.ctx.region_blocks(r).iter().all(|&b| match self.ctx.terminator(b) {
                Some(t) => {
                    let n = self.ctx.str(self.ctx.op_name(t));
                    n != "cuda.yield"
                }
                None => false,
            })
        })
    }

    fn emit_loop(&mut self, cond: Option<ExprId>, body: StmtId, step: Option<ExprId>, unroll: Option<Unroll>, do_while: bool, span: Span) {
        let mut props = Vec::new();
        if do_while {
            props.push(("do_while", self.ctx.unit_attr()));
        }
        if let Some(Unroll(n)) = unroll {
            let i32t = self.ctx.i32();
            props.push(("unroll", self.ctx.int_attr(n as i128, i32t)));
        }
        let lp = self.op("cuda.loop", &[], &[], &props, 3, span);
        let (cb, bb, sb) = (self.region_block(lp, 0), self.region_block(lp, 1), self.region_block(lp, 2));
        self.in_block(cb, |s| {
            let c = match cond {
                Some(c) => s.condition(c),
                None => None,
            };
            let c = match c {
                Some(c) => c,
                None => {
                    let b = s.types.bool();
                    s.constant_int(1, b, span)
                }
            };
            s.terminate("cuda.condition", &[c], span);
        });
        let fs = self.fs.as_mut().expect("in a function");
        fs.loops += 1;
        fs.constructs.push(super::goto::Construct::Loop);
        self.in_block(bb, |s| s.region_body(body));
        let fs = self.fs.as_mut().expect("in a function");
        fs.loops -= 1;
        fs.constructs.pop();
        self.in_block(sb, |s| {
            if let Some(e) = step {
                s.expr(e);
            }
            s.terminate("cuda.yield", &[], span);
        });
    }

    fn switch(&mut self, cond: ExprId, body: StmtId, span: Span) {
        let cspan = self.ast.expr(cond).span;
        let Some((v, t)) = self.rvalue(cond) else { return };
        if !self.types.is_integral(t) {
            self.error(cspan, format!("statement requires expression of integer type ('{}' invalid)", self.types.show(t)));
            return;
        }
        let pt = self.promoted(t);
        let Some(v) = self.convert(v, t, pt, cspan, false) else { return };
        let StmtKind::Compound(items) = &self.ast.stmt(body).kind else {
            self.unsupported(span, "a switch whose body is not a braced block");
            return;
        };
        // Split the body at its labels: each label opens a region.
        let mut sections: Vec<(Option<ExprId>, Span, Vec<StmtId>)> = Vec::new();
        for &it in items.clone().iter() {
            let mut cur = it;
            loop {
                match &self.ast.stmt(cur).kind {
                    StmtKind::Case(e, inner) => {
                        sections.push((Some(*e), self.ast.stmt(cur).span, Vec::new()));
                        cur = *inner;
                    }
                    StmtKind::Default(inner) => {
                        sections.push((None, self.ast.stmt(cur).span, Vec::new()));
                        cur = *inner;
                    }
                    _ => break,
                }
            }
            match sections.last_mut() {
                Some(s) => s.2.push(cur),
                None => {
                    if !matches!(self.ast.stmt(cur).kind, StmtKind::Null) {
                        self.warning(self.ast.stmt(cur).span, "statement before the first 'case' label is never executed");
                    }
                }
            }
        }
        let mut cases = Vec::new();
        let mut default = None;
        let mut seen: Vec<i128> = Vec::new();
        let ir_t = match self.types.ir(&mut self.ctx, pt) {
            Some(t) => t,
            None => return,
        };
        for (i, (label, lspan, _)) in sections.iter().enumerate() {
            match label {
                Some(e) => match self.const_eval(*e) {
                    Some(Konst::Int(x)) => {
                        if seen.contains(&x) {
                            self.error(*lspan, format!("duplicate case value '{x}'"));
                        }
                        seen.push(x);
                        cases.push(self.ctx.int_attr(x, ir_t));
                    }
                    _ => {
                        self.error(self.ast.expr(*e).span, "case value is not an integer constant expression");
                        cases.push(self.ctx.int_attr(0, ir_t));
                    }
                },
                None => {
                    if default.is_some() {
                        self.error(*lspan, "multiple default labels in one switch");
                    }
                    default = Some(i);
                    cases.push(self.ctx.int_attr(0, ir_t));
                }
            }
        }
        let cases_a = self.ctx.attr(cuprite_ir::AttrKind::Array(cases));
        let mut props = vec![("cases", cases_a)];
        if let Some(d) = default {
            let i32t = self.ctx.i32();
            props.push(("default_index", self.ctx.int_attr(d as i128, i32t)));
        }
        let sw = self.op("cuda.switch", &[v], &[], &props, sections.len(), span);
        let fs = self.fs.as_mut().expect("in a function");
        fs.switches += 1;
        fs.constructs.push(super::goto::Construct::Switch);
        self.push_scope();
        for (i, (_, lspan, stmts)) in sections.iter().enumerate() {
            let b = self.region_block(sw, i);
            self.in_block(b, |s| {
                for &st in stmts {
                    if s.terminated() {
                        break;
                    }
                    s.stmt(st);
                }
                if !s.terminated() {
                    s.terminate("cuda.yield", &[], *lspan);
                }
            });
        }
        self.pop_scope();
        let fs = self.fs.as_mut().expect("in a function");
        fs.switches -= 1;
        fs.constructs.pop();
        // A switch with a default whose sections all return never falls through.
        let all_leave = default.is_some()
            && (0..sections.len()).all(|i| {
                let b = self.region_block(sw, i);
                self.ctx
                    .terminator(b)
                    .is_some_and(|t| matches!(self.ctx.str(self.ctx.op_name(t)), "cuda.return" | "cuda.continue" | "ub.unreachable"))
            });
        if all_leave {
            self.terminate("ub.unreachable", &[], span);
        }
    }

    fn ret(&mut self, e: Option<ExprId>, span: Span) {
        let (ret, exec, name) = {
            let fs = self.fs.as_ref().expect("in a function");
            (fs.ret, fs.exec, self.funcs[fs.func.0 as usize].display.clone())
        };
        match (e, self.types.is_void(ret)) {
            (None, true) => self.terminate("cuda.return", &[], span),
            (None, false) => {
                self.error(span, format!("non-void function '{name}' should return a value"));
                self.terminate_with_placeholder(ret, span);
            }
            (Some(x), true) => {
                let v = self.expr(x);
                let is_void = v.is_some_and(|v| matches!(v.place, Place::Void));
                if !is_void && v.is_some() {
                    let what = if exec == Exec::Kernel { "a __global__ function" } else { "a void function" };
                    self.error(self.ast.expr(x).span, format!("{what} cannot return a value ('{name}')"));
                }
                self.terminate("cuda.return", &[], span);
            }
            (Some(x), false) => {
                let xspan = self.ast.expr(x).span;
                // `return {a, b};`: a temporary of the return type, initialized by the list.
                let braced = matches!(self.ast.expr(x).kind, ExprKind::InitList(_)) && !matches!(self.types.kind(ret), TyKind::Ref(_));
                let v = if braced { Some(self.braced_temp(ret, x)) } else { self.expr(x) };
                if let (Some((df, got @ None)), Some(v)) = (&mut self.deducing, v) {
                    if *df == self.fs.as_ref().expect("in a function").func {
                        // `auto`: decayed, without qualifiers.
                        *got = Some(match self.types.kind(v.ty.unqual()).clone() {
                            TyKind::Array(e, _) => self.types.ptr(e),
                            _ => v.ty.unqual(),
                        });
                    }
                }
                let out = match (v, self.types.kind(ret).clone()) {
                    (Some(v), TyKind::Ref(t)) => match v.place {
                        Place::Addr(a, s) if v.ty.unqual() == t.unqual() => Some(self.generic_ptr(a, s, v.ty, xspan)),
                        _ => {
                            self.error(xspan, "a reference must be returned from an lvalue of the same type");
                            None
                        }
                    },
                    (Some(v), _) => self.convert_value(v, x, ret, xspan),
                    (None, _) => None,
                };
                match out {
                    Some(o) => self.terminate("cuda.return", &[o], span),
                    None => self.terminate_with_placeholder(ret, span),
                }
            }
        }
    }

    /// After an error: return an indeterminate value so that the IR stays well-formed.
    fn terminate_with_placeholder(&mut self, ret: Ty, span: Span) {
        let t = match self.types.kind(ret).clone() {
            TyKind::Ref(_) => {
                let v = self.types.void();
                self.types.ptr(v)
            }
            _ => ret,
        };
        let tmp = self.new_var("", t, AddrSpace::Local, span);
        let v = self.load(tmp, t, span);
        self.terminate("cuda.return", &[v], span);
    }

    // ----- declarations in functions -----------------------------------------------------

    fn local_decl(&mut self, d: DeclId) {
        let span = self.ast.decl(d).span;
        match &self.ast.decl(d).kind {
            DeclKind::Var { specs, name, ty, init, .. } => {
                let (specs, name, ty, init) = (*specs, name.clone(), *ty, *init);
                let _ = span;
                self.local_var(specs, &name, ty, init, name.span);
                // Host code: the kernels an initializer names are required even when sema
                // cannot type the declaration (`auto *p = &k<float>;`).
                if let Some(e) = init.filter(|_| self.in_host_code()) {
                    self.require_kernels_named_in(e);
                }
            }
            DeclKind::Typedef { name, ty } => {
                let (name, ty) = (*name, *ty);
                let t = self.resolve_type(ty);
                self.bind_local(name, Entity::Type(t));
            }
            DeclKind::StaticAssert { .. }
            | DeclKind::Record { .. }
            | DeclKind::Enum { .. }
            | DeclKind::UsingDirective(_)
            | DeclKind::UsingDecl(_) => {
                // Local types are entered into the enclosing namespace (their names do not
                // clash in practice; a local struct's name is mangled as a namespace one).
                self.declare(d)
            }
            DeclKind::Function { body: None, .. } => {}
            DeclKind::NamespaceAlias { name, target } => {
                let (name, target) = (*name, target.clone());
                match self.lookup_name(&target).into_iter().next() {
                    Some(Entity::Namespace(n)) => self.bind_local(name, Entity::Namespace(n)),
                    _ => {
                        let t = self.name_text(&target);
                        self.error(target.span, format!("'{t}' is not a namespace"));
                    }
                }
            }
            _ => self.unsupported(span, "this declaration inside a function"),
        }
    }

    fn local_var(&mut self, specs: Specifiers, name: &Name, ty: crate::ast::TypeId, init: Option<ExprId>, span: Span) {
        let n = name.parts[0];
        let nstr = self.name_str(n).to_string();
        if specs.is_static && !specs.shared {
            // `static const int n = 4;`: a constant of a scalar type is the same value in
            // every call and thread, so it is an ordinary constant local.
            let konst_scalar = (self.ast.ty(ty).quals.is_const || specs.is_constexpr)
                && !self.mentions_auto(ty)
                && init.is_some_and(|e| !matches!(self.ast.expr(e).kind, ExprKind::InitList(_)) && self.const_eval(e).is_some())
                && {
                    let t = self.resolve_type(ty);
                    self.types.is_scalar(t)
                };
            if !konst_scalar {
                self.static_local(n, &nstr, ty, init, span);
                return;
            }
        }
        if specs.constant {
            self.error(span, "__constant__ variables must be declared at namespace scope");
            return;
        }
        if specs.device && !specs.shared {
            self.error(span, "__device__ variables must be declared at namespace scope");
            return;
        }
        // `auto x = e;`
        if matches!(self.ast.ty(ty).kind, crate::ast::TypeKind::Auto) {
            let Some(e) = init else {
                self.error(span, format!("declaration of variable '{nstr}' with deduced type 'auto' requires an initializer"));
                return;
            };
            let espan = self.ast.expr(e).span;
            let Some((x, t)) = self.expr(e).and_then(|v| self.rval(v, espan)) else {
                // Bind the name anyway so that its uses do not cascade.
                let err = self.types.error();
                self.bind_local(n, Entity::Const(Konst::Int(0), err));
                return;
            };
            let q = self.ast.ty(ty).quals;
            let t = t.unqual().with_quals(if q.is_const { Ty::CONST } else { 0 });
            let addr = self.new_var(&nstr, t, AddrSpace::Local, span);
            self.store(x, addr, t, span);
            let konst = if t.is_const() { self.const_eval(e) } else { None };
            self.bind_local(n, Entity::Var { addr, ty: t, space: AddrSpace::Local, konst });
            return;
        }
        // `auto *p = e;`, `const auto &r = e;`: the type deduced from the initializer's.
        let mut t = match init.filter(|_| self.mentions_auto(ty)) {
            Some(e) => {
                let mark = self.diags.len();
                let it = self.type_of_unevaluated(e);
                self.diags.truncate(mark);
                match it.and_then(|it| self.deduce_auto(ty, it, true)) {
                    Some(t) => t,
                    None if it.is_none() => {
                        // The initializer is wrong: its own errors say why.
                        let _ = self.expr(e);
                        self.types.error()
                    }
                    None => {
                        let shown = it.map(|it| self.types.show(it)).unwrap_or_default();
                        self.error(span, format!("cannot deduce the type of '{nstr}' from its initializer of type '{shown}'"));
                        self.types.error()
                    }
                }
            }
            None => self.resolve_type(ty),
        };
        if self.types.is_error(t) {
            // Bind the name anyway so that its uses do not cascade.
            self.bind_local(n, Entity::Const(Konst::Int(0), t));
            return;
        }
        t = self.sized_by_init(t, init, span);
        if specs.shared {
            if init.is_some() {
                self.error(span, "initialization is not supported for __shared__ variables");
            }
            let dynamic = specs.is_extern;
            if dynamic && !matches!(self.types.kind(t.unqual()), TyKind::Array(_, None)) {
                self.error(span, "an 'extern __shared__' variable must be an array of unknown size");
            }
            if !dynamic && matches!(self.types.kind(t.unqual()), TyKind::Array(_, None)) {
                self.error(span, "a __shared__ array needs a size (or 'extern' for dynamic shared memory)");
            }
            let pt = self.types.ir_ptr(&mut self.ctx, t, AddrSpace::Shared);
            let na = self.name_attr(&nstr);
            let mut props = vec![("name", na)];
            if dynamic {
                props.push(("dynamic", self.ctx.unit_attr()));
            }
            let addr = self.op1("cuda.var", &[], pt, &props, span);
            self.bind_local(n, Entity::Var { addr, ty: t, space: AddrSpace::Shared, konst: None });
            return;
        }
        if let TyKind::Ref(to) = self.types.kind(t).clone() {
            let rvalue_ref = matches!(self.ast.ty(ty).kind, crate::ast::TypeKind::Reference { rvalue: true, .. });
            let Some(e) = init else {
                self.error(span, format!("declaration of reference variable '{nstr}' requires an initializer"));
                return;
            };
            let espan = self.ast.expr(e).span;
            let Some(v) = self.expr(e) else { return };
            match v.place {
                Place::Addr(a, s) if v.ty.unqual() == to.unqual() => {
                    if v.ty.is_const() && !to.is_const() {
                        self.error(
                            espan,
                            format!("binding a reference of type '{}' to a const value drops the qualifier", self.types.show(t)),
                        );
                    }
                    self.bind_local(n, Entity::Var { addr: a, ty: to, space: s, konst: None });
                }
                // A reference to a base class of the object: its base subobject.
                Place::Addr(a, s) if self.derives(v.ty, to) && (to.is_const() || !v.ty.is_const()) => {
                    let p = self.generic_ptr(a, s, v.ty.unqual(), espan);
                    let Some(b) = self.upcast_ptr(p, v.ty, to, espan) else { return };
                    self.bind_local(n, Entity::Var { addr: b, ty: to, space: AddrSpace::Generic, konst: None });
                }
                // `const T &r = temporary;`, `T &&r = temporary;`: the temporary lives as
                // long as the reference.
                _ if to.is_const() || rvalue_ref => {
                    let Some(x) = self.convert_value(v, e, to.unqual(), espan) else { return };
                    let tmp = self.new_var(&nstr, to, AddrSpace::Local, span);
                    self.store(x, tmp, to, span);
                    self.bind_local(n, Entity::Var { addr: tmp, ty: to, space: AddrSpace::Local, konst: None });
                }
                _ => self.error(espan, format!("non-const lvalue reference to type '{}' cannot bind to a temporary", self.types.show(to))),
            }
            return;
        }
        if matches!(self.types.kind(t.unqual()), TyKind::Array(_, None)) {
            self.error(span, format!("definition of variable '{nstr}' with array type needs an explicit size or an initializer"));
            return;
        }
        if self.types.is_void(t) {
            self.error(span, format!("variable '{nstr}' has incomplete type 'void'"));
            return;
        }
        let addr = self.new_var(&nstr, t, AddrSpace::Local, span);
        let mut konst = None;
        match init {
            Some(e) => {
                // The variable is in scope in its own initializer (`T *p = (decltype(p))q;`).
                self.bind_local(n, Entity::Var { addr, ty: t, space: AddrSpace::Local, konst: None });
                self.init_memory(addr, AddrSpace::Local, t, e);
                if t.is_const() || specs.is_constexpr {
                    konst = self.const_eval(e);
                }
            }
            None => {
                if let Some(r) = self.types.record(t.unqual()) {
                    if self.has_ctor(r) {
                        self.run_constructor(r, addr, &[], span);
                    } else {
                        self.construct_parts(addr, AddrSpace::Local, r, &[], span);
                    }
                }
            }
        }
        // A new object of its own class, whatever it was copied from.
        self.fix_vptrs(addr, AddrSpace::Local, t, span);
        self.bind_local(n, Entity::Var { addr, ty: t, space: AddrSpace::Local, konst });
    }

    // ----- inline asm --------------------------------------------------------------------

    fn asm(&mut self, volatile: bool, template: &[Atom], outputs: &[AsmOperand], inputs: &[AsmOperand], clobbers: &[Atom], span: Span) {
        let text: String = template.iter().map(|&a| unescape(self.name_str(a))).collect();
        let mut constraints = Vec::new();
        let mut out_addrs = Vec::new();
        let mut result_types = Vec::new();
        let mut operands = Vec::new();
        let mut tied = Vec::new();
        for (i, o) in outputs.iter().enumerate() {
            let c = unescape(self.name_str(o.constraint));
            let espan = self.ast.expr(o.expr).span;
            let Some(v) = self.expr(o.expr) else { return };
            let Place::Addr(a, _) = v.place else {
                self.error(espan, "an asm output operand must be an lvalue");
                return;
            };
            let rw = c.starts_with('+');
            let body = c.trim_start_matches(['=', '+', '&']).to_string();
            constraints.push(format!("={body}"));
            let Some(ir) = self.types.ir(&mut self.ctx, v.ty) else { return };
            result_types.push(ir);
            out_addrs.push((a, v.ty));
            if rw {
                let cur = self.load(a, v.ty, espan);
                tied.push((i, cur));
            }
        }
        for inp in inputs {
            let c = unescape(self.name_str(inp.constraint));
            let Some((v, _)) = self.rvalue(inp.expr) else { return };
            constraints.push(c);
            operands.push(v);
        }
        for (i, v) in tied {
            constraints.push(i.to_string());
            operands.push(v);
        }
        for c in clobbers {
            constraints.push(format!("~{{{}}}", unescape(self.name_str(*c))));
        }
        let ta = self.ctx.str_attr(&text);
        let ca = self.ctx.str_attr(&constraints.join(","));
        let mut props = vec![("template", ta), ("constraints", ca)];
        if volatile || outputs.is_empty() {
            props.push(("side_effects", self.ctx.unit_attr()));
        }
        let op = self.op("cuda.asm", &operands, &result_types, &props, 0, span);
        for (i, (a, t)) in out_addrs.into_iter().enumerate() {
            let r = self.ctx.result(op, i);
            self.store(r, a, t, span);
        }
    }

    /// `static T x = init;` in a device function: one object for every call and thread, in
    /// global memory, statically initialized; named as nvcc names it (`_ZZ<function>E1x`).
    fn static_local(&mut self, n: Atom, nstr: &str, ty: crate::ast::TypeId, init: Option<ExprId>, span: Span) {
        let t = self.resolve_type(ty);
        if self.types.is_error(t) {
            self.bind_local(n, Entity::Const(Konst::Int(0), t));
            return;
        }
        let t = self.sized_by_init(t, init, span);
        if matches!(self.types.kind(t.unqual()), TyKind::Array(_, None)) || self.types.is_void(t) {
            self.error(span, format!("static variable '{nstr}' has an incomplete type"));
            return;
        }
        let f = self.fs.as_ref().expect("in a function").func;
        let fsym = self.funcs[f.0 as usize].symbol.clone().unwrap_or_default();
        let encoding = match fsym.strip_prefix("_Z") {
            Some(e) => e.to_string(),
            None => super::mangle::source_name(&fsym),
        };
        let sym = format!("_ZZ{encoding}E{}", super::mangle::source_name(nstr));
        if self.emitted_globals.insert(sym.clone()) {
            let saved = std::mem::replace(&mut self.declaring, true);
            self.emit_global(&sym, t, AddrSpace::Global, init, false, span);
            self.declaring = saved;
        }
        let konst = if t.is_const() { init.and_then(|e| self.const_eval(e)) } else { None };
        self.bind_local(n, Entity::Global { sym, ty: t, space: Some(AddrSpace::Global), konst, span });
    }

    /// Type `t`, an array of unknown size, sized by its initializer: `int a[] = {1, 2, 3}`
    /// (brace elision counted), `char s[] = "abc"`; other types as they are.
    pub(crate) fn sized_by_init(&mut self, t: Ty, init: Option<ExprId>, span: Span) -> Ty {
        let (TyKind::Array(e, None), Some(i)) = (self.types.kind(t.unqual()).clone(), init) else { return t };
        let n = match &self.ast.expr(i).kind {
            ExprKind::InitList(items) => self.elided_count(e, &items.clone()),
            ExprKind::Str(parts) => match self.string_init_bytes(&parts.clone(), span) {
                Some(b) => b.len() as u64 + 1,
                None => return t,
            },
            _ => return t,
        };
        self.types.intern(TyKind::Array(e, Some(n))).with_quals(t.quals())
    }

    /// Which iterators a range-based for over `range` (the range's name) uses: 0 for an
    /// array, 1 for a class with `begin()` and `end()` members; none after an error.
    fn range_form(&mut self, range: ExprId) -> Option<usize> {
        let span = self.ast.expr(range).span;
        let t = self.type_of_unevaluated(range)?;
        let t = match self.types.kind(t.unqual()).clone() {
            TyKind::Ref(to) => to,
            _ => t,
        };
        match self.types.kind(t.unqual()).clone() {
            TyKind::Array(_, Some(_)) => Some(0),
            TyKind::Record(r) if self.has_member(r, "begin") && self.has_member(r, "end") => Some(1),
            _ if self.types.is_error(t) => None,
            _ => {
                let shown = self.types.show(t);
                self.error(span, format!("cannot loop over a range of type '{shown}': a range-based for needs an array of known size or a class with 'begin()' and 'end()' members"));
                None
            }
        }
    }

    /// Whether a declared type is `auto` under pointers and references (`const auto *`).
    fn mentions_auto(&self, t: crate::ast::TypeId) -> bool {
        match &self.ast.ty(t).kind {
            crate::ast::TypeKind::Auto => true,
            crate::ast::TypeKind::Pointer(p) | crate::ast::TypeKind::Reference { to: p, .. } => self.mentions_auto(*p),
            _ => false,
        }
    }

    /// The type declared as `pat` (`auto` under pointers and references) for an
    /// initializer of type `init`; `top`: at the outermost level, where arrays decay and
    /// the initializer's qualifiers go (under a pointer or reference they are kept).
    fn deduce_auto(&mut self, pat: crate::ast::TypeId, init: Ty, top: bool) -> Option<Ty> {
        use crate::ast::TypeKind;
        let at = self.ast.ty(pat).clone();
        let mut q = 0;
        if at.quals.is_const {
            q |= Ty::CONST;
        }
        if at.quals.is_volatile {
            q |= Ty::VOLATILE;
        }
        let by_ref = matches!(at.kind, TypeKind::Reference { .. });
        let decayed = match self.types.kind(init.unqual()).clone() {
            // A reference binds to the array itself (`auto &r = a;` is `int (&)[4]`).
            TyKind::Array(e, _) if top && !by_ref => self.types.ptr(e),
            TyKind::Ref(t) => t,
            _ => init,
        };
        match at.kind {
            TypeKind::Auto if top => Some(decayed.unqual().with_quals(q)),
            TypeKind::Auto => Some(init.with_quals(init.quals() | q)),
            TypeKind::Pointer(p) => match self.types.kind(decayed.unqual()).clone() {
                TyKind::Ptr(e) => {
                    let inner = self.deduce_auto(p, e, false)?;
                    Some(self.types.ptr(inner).with_quals(q))
                }
                _ => None,
            },
            TypeKind::Reference { to, .. } if top => {
                let inner = self.deduce_auto(to, decayed, false)?;
                Some(self.types.intern(TyKind::Ref(inner)))
            }
            _ => None,
        }
    }
}

/// A C string literal's contents (quotes removed, escapes decoded).
pub(crate) fn unescape(lit: &str) -> String {
    let inner = lit.strip_prefix('"').and_then(|s| s.strip_suffix('"')).unwrap_or(lit);
    let mut out = String::new();
    let mut it = inner.chars().peekable();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('0') => out.push('\0'),
            Some('\\') => out.push('\\'),
            Some('"') => out.push('"'),
            Some('\'') => out.push('\''),
            Some(o) => {
                out.push('\\');
                out.push(o);
            }
            None => out.push('\\'),
        }
    }
    out
}
