//! Lambda expressions: a closure class per lambda, as C++ defines it.
//!
//! `[captures](params) -> ret { body }` in a function is, in sema:
//!
//! - a **closure class** (one per lambda expression and per function instance that
//!   contains it, so that every evaluation of one lambda has one type), with a field per
//!   captured variable: the variable's type for a copy, a generic pointer to it for a
//!   reference;
//! - its **call operator**, the parser's `operator()` member function (`const` unless
//!   `mutable`; `__host__ __device__`, so it is compiled where it is called), whose
//!   return type is deduced from its `return`s when none is written. In its body, each
//!   captured name is bound to the field (a copy: the field itself, `const` unless
//!   `mutable`) or to what the field points to (a reference); the enclosing function's
//!   template parameters and its `constexpr` locals are in scope as they are outside;
//! - the **value** of the expression: a closure object in a local temporary, its fields
//!   initialized from the captured variables (or a capture's initializer, `[n = e]`).
//!
//! A default capture (`[=]`, `[&]`) takes the enclosing function's local variables that
//! the body names (every name expression the parser made while reading the body that
//! finds one; a name the body itself declares again is taken too, unused). Shared
//! memory and globals are not captured: they are not automatic variables. Calling a
//! closure (`f(x)`, or in a template `F f; f(x)`) is calling its `operator()`.
//! A generic lambda (`[](auto x) {...}`) has a call operator template, one template
//! type parameter per `auto` parameter (the parser writes it so).
//!
//! In a member function, `[this]` (and a default capture, `[=]` or `[&]`) captures the
//! object's address in a field of its own (`[*this]`: a copy of the object); in the call operator's body, `this`, the
//! object's members named alone and its member functions called alone are the enclosing
//! object's, as in the member function.

use super::expr::{Place, Value};
use super::*;
use crate::ast::{Lambda, LambdaCapture};

/// Where a capture's value comes from: its initializer (`[n = e]`), or the variable
/// (its address, type and space).
type Source = Result<ExprId, (ValueId, Ty, AddrSpace)>;

/// The enclosing object captured by a closure class: its field, the object's record, and
/// whether the field holds a copy (`[*this]`) or the address (`[this]`, defaults).
#[derive(Clone, Copy, Debug)]
pub struct ThisCapture {
    pub field: usize,
    pub outer: RecId,
    pub copy: bool,
}

/// A captured variable, as the call operator's body sees it.
#[derive(Clone, Debug)]
pub struct Capture {
    pub name: Atom,
    /// The closure's field holding it.
    pub field: usize,
    /// Its type (a reference capture's field points to one).
    pub ty: Ty,
    pub by_ref: bool,
}

impl Sema<'_> {
    /// The value of lambda expression `e`.
    pub(crate) fn lambda(&mut self, e: ExprId, l: &Lambda, span: Span) -> Option<Value> {
        let Some(func) = self.fs.as_ref().map(|f| f.func) else {
            self.unsupported(span, "a lambda expression outside a function body");
            return None;
        };
        // The enclosing object, captured by `[this]` or by a default capture.
        let outer = self.fs.as_ref().and_then(|f| f.this);
        let this_cap = match (l.this_capture, outer) {
            (Some((sp, _)), None) => {
                self.error(sp, "'this' cannot be captured outside a member function");
                return None;
            }
            (Some((_, how)), Some(o)) => Some((o, how == LambdaCapture::Copy)),
            (None, Some(o)) if l.default.is_some() => Some((o, false)),
            _ => None,
        };
        // What is captured, and from where: (name, how, initializer or the variable).
        let mut taken: Vec<(Atom, bool, Source)> = Vec::new();
        let mut consts: Vec<(Atom, Entity)> = Vec::new();
        for &(name, how, init, sp) in &l.captures {
            let by_ref = how == LambdaCapture::Ref;
            match (init, self.local_entity(name)) {
                (Some(i), _) => taken.push((name, by_ref, Ok(i))),
                (None, Some(Entity::Var { addr, ty, space, .. })) if matches!(space, AddrSpace::Local | AddrSpace::Generic) => {
                    taken.push((name, by_ref, Err((addr, ty, space))))
                }
                (None, Some(c @ Entity::Const(..))) => consts.push((name, c)),
                _ => {
                    let n = self.name_str(name);
                    self.error(sp, format!("'{n}' cannot be captured: it is not a local variable of the enclosing function"));
                }
            }
        }
        let (from, to) = l.body_exprs;
        for id in from..to {
            let ExprKind::Name(n) = &self.ast.expr(ExprId(id)).kind else { continue };
            let n = self.ast.name(*n);
            if n.global || n.parts.len() != 1 {
                continue;
            }
            let a = n.parts[0];
            if taken.iter().any(|t| t.0 == a) || consts.iter().any(|c| c.0 == a) {
                continue;
            }
            match self.local_entity(a) {
                Some(Entity::Var { addr, ty, space, .. }) if matches!(space, AddrSpace::Local | AddrSpace::Generic) => {
                    let Some(how) = l.default else {
                        let sp = self.ast.expr(ExprId(id)).span;
                        let name = self.name_str(a);
                        self.error(
                            sp,
                            format!("'{name}' is not captured: the lambda's capture list names neither it nor a default ('=' or '&')"),
                        );
                        return None;
                    };
                    taken.push((a, how == LambdaCapture::Ref, Err((addr, ty, space))));
                }
                Some(c @ Entity::Const(..)) => consts.push((a, c)),
                _ => {}
            }
        }
        // The closure class, once per lambda and function instance.
        let (r, captures) = match self.closures.get(&(e, func)) {
            Some(&r) => (r, self.closure_captures[&r].clone()),
            None => {
                let mut captures = Vec::new();
                let mut fields = Vec::new();
                for (i, (name, by_ref, from)) in taken.iter().enumerate() {
                    let ty = match from {
                        Err((_, ty, _)) => *ty,
                        Ok(init) => {
                            let t = self.type_of_unevaluated(*init)?;
                            match self.types.kind(t.unqual()).clone() {
                                TyKind::Array(el, _) => self.types.ptr(el),
                                TyKind::Ref(to) => to.unqual(),
                                _ => t.unqual(),
                            }
                        }
                    };
                    let field_ty = if *by_ref { self.types.ptr(ty) } else { ty };
                    fields.push((*name, field_ty, false));
                    captures.push(Capture { name: *name, field: i, ty, by_ref: *by_ref });
                }
                let mut this_field = None;
                if let Some(((_, outer_rec), copy)) = this_cap {
                    let name = self.atom("this")?;
                    let ot = self.rec_ty(outer_rec);
                    let ft = if copy { ot } else { self.types.ptr(ot) };
                    this_field = Some(ThisCapture { field: fields.len(), outer: outer_rec, copy });
                    fields.push((name, ft, false));
                }
                let r = self.closure_class(l, fields, &captures, this_field, consts, span)?;
                self.closures.insert((e, func), r);
                (r, captures)
            }
        };
        // The closure object.
        let t = self.rec_ty(r);
        let tmp = self.new_var("", t, AddrSpace::Local, span);
        for (c, (_, _, from)) in captures.iter().zip(&taken) {
            let at = self.member_addr(tmp, AddrSpace::Local, t, c.field, span);
            match from {
                Err((addr, ty, space)) if c.by_ref => {
                    let p = self.generic_ptr(*addr, *space, *ty, span);
                    let pt = self.types.ptr(c.ty);
                    self.store(p, at, pt, span);
                }
                Err((addr, ty, _)) => {
                    let v = self.load(*addr, *ty, span);
                    self.store(v, at, c.ty.unqual(), span);
                }
                Ok(init) => {
                    let espan = self.ast.expr(*init).span;
                    let v = self.expr(*init)?;
                    let x = self.convert_value(v, *init, c.ty.unqual(), espan)?;
                    self.store(x, at, c.ty.unqual(), span);
                }
            }
        }
        if let (Some(((this, outer_rec), _)), Some(&c)) = (this_cap, self.closure_this.get(&r)) {
            let at = self.member_addr(tmp, AddrSpace::Local, t, c.field, span);
            let ot = self.rec_ty(outer_rec);
            if c.copy {
                let v = self.load(this, ot, span);
                self.store(v, at, ot, span);
            } else {
                let pt = self.types.ptr(ot);
                self.store(this, at, pt, span);
            }
        }
        Some(Value { place: Place::Addr(tmp, AddrSpace::Local), ty: t })
    }

    /// The class of a lambda: `fields` laid out, and its call operator declared in it.
    fn closure_class(
        &mut self,
        l: &Lambda,
        fields: Vec<(Atom, Ty, bool)>,
        captures: &[Capture],
        this_field: Option<ThisCapture>,
        consts: Vec<(Atom, Entity)>,
        span: Span,
    ) -> Option<RecId> {
        let r = self.new_closure_record(span);
        self.lay_out(r, fields, false, None);
        if let Some(t) = this_field {
            self.closure_this.insert(r, t);
        }
        let func = self.fs.as_ref()?.func;
        let mut env = self.funcs[func.0 as usize].env.clone();
        env.extend(consts);
        self.closure_captures.insert(r, captures.to_vec());
        let saved = std::mem::replace(&mut self.cur_ns, self.rec_ns[r.0 as usize]);
        let ok = match &self.ast.decl(l.op).kind {
            // A generic lambda's: a member function template.
            // Its instances see the enclosing function's template parameters and constants
            // through the class's scope.
            DeclKind::Template { .. } => {
                let ns = self.rec_ns[r.0 as usize];
                for (n, e) in env {
                    self.namespaces[ns.0 as usize].names.entry(n).or_insert_with(|| vec![e]);
                }
                self.declare(l.op);
                true
            }
            _ => self.declare_function(l.op, Some(r), env, None, true, true).is_some(),
        };
        self.cur_ns = saved;
        ok.then_some(r)
    }

    /// The local variable or constant `name` names where sema stands (none if a global,
    /// a function, a type... or nothing).
    fn local_entity(&self, name: Atom) -> Option<Entity> {
        self.scopes.iter().rev().find_map(|s| s.get(&name)).cloned()
    }

    /// Binds the captured names of lambda call operator `f` (its object at `this`, of
    /// closure class `r`).
    pub(crate) fn bind_captures(&mut self, f: FuncId, this: ValueId, r: RecId, span: Span) {
        let mutable = !self.funcs[f.0 as usize].is_const_method;
        let captures = self.closure_captures[&r].clone();
        let t = self.rec_ty(r);
        for c in captures {
            let at = self.member_addr(this, AddrSpace::Generic, t, c.field, span);
            let entity = if c.by_ref {
                let pt = self.types.ptr(c.ty);
                let p = self.load(at, pt, span);
                Entity::Var { addr: p, ty: c.ty, space: AddrSpace::Generic, konst: None }
            } else {
                let ty = if mutable { c.ty } else { c.ty.with_quals(c.ty.quals() | Ty::CONST) };
                Entity::Var { addr: at, ty, space: AddrSpace::Generic, konst: None }
            };
            self.bind_local(c.name, entity);
        }
        // `[this]`, `[*this]`: the body's `this` and implicit members are the enclosing
        // object's (or the copy's).
        if let Some(&c) = self.closure_this.get(&r) {
            let at = self.member_addr(this, AddrSpace::Generic, t, c.field, span);
            let p = if c.copy {
                at
            } else {
                let ot = self.rec_ty(c.outer);
                let pt = self.types.ptr(ot);
                self.load(at, pt, span)
            };
            if let Some(fs) = self.fs.as_mut() {
                fs.this = Some((p, c.outer));
            }
        }
    }
}
