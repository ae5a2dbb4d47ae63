//! Variadic templates: parameter packs and their expansions.
//!
//! - A **template parameter pack** (`typename... Ts`, `int... Ns`) binds to a
//!   [`TArg::Pack`] of the arguments left after the other parameters (given explicitly, or
//!   deduced from the call arguments a function parameter pack receives); its name denotes
//!   an [`Entity::Pack`].
//! - A **function parameter pack** (`Ts... args`, `const Ts &...args`) becomes one
//!   parameter per element of the packs its pattern names (`FuncInfo::param_pack`); in the
//!   body, its name is an [`Entity::Pack`] of those parameters.
//! - An **expansion** `pattern...` (call and constructor arguments, template arguments)
//!   is the pattern once per element: while sema reads the `i`-th instance,
//!   [`Sema::pack_index`] is `Some(i)` and a name bound to a pack denotes its `i`-th
//!   element (see `Sema::lookup`). How many elements: the length of the packs the
//!   pattern's names and types denote (they must agree).
//! - `sizeof...(p)` is a constant; a **fold expression** (`(args + ...)`, `(... && p)`,
//!   `(init op ... op args)`, `(f(args), ...)`) combines the instances with the binary
//!   operator, right to left for a right fold, left to right for a left fold (`&&`, `||`
//!   and `,` run their operands left to right, `&&` and `||` only as far as needed).
//!
//! Not supported: packs in class templates' members and bases (a diagnostic), expansions
//! in braced initializer lists and nested expansions of different packs.

use super::expr::{Place, Value};
use super::ty::IntKind;
use super::*;
use crate::ast::TypeKind;

impl Sema<'_> {
    /// The pack `name` denotes where sema stands (not an element of it), if any.
    fn pack_named(&self, name: Atom) -> Option<usize> {
        let len = |e: &Entity| match e {
            Entity::Pack(v) => Some(v.len()),
            _ => None,
        };
        if let Some(e) = self.scopes.iter().rev().find_map(|s| s.get(&name)) {
            return len(e);
        }
        // A class template's pack, in its scope.
        let mut ns = Some(self.cur_ns);
        while let Some(n) = ns {
            if let Some(e) = self.lookup_in_ns(n, name, 0).first() {
                return len(e);
            }
            ns = self.namespaces[n.0 as usize].parent;
        }
        None
    }

    /// The length of the packs named in type `t` (`None`: it names none).
    pub(crate) fn pack_len_in_type(&self, t: crate::ast::TypeId, found: &mut Option<usize>) {
        match &self.ast.ty(t).kind {
            TypeKind::Named(n) | TypeKind::Elaborated { name: n, .. } => {
                if n.parts.len() == 1 && !n.global {
                    if let Some(len) = self.pack_named(n.parts[0]) {
                        found.get_or_insert(len);
                    }
                }
                for a in n.template_args.iter().flatten().chain(n.scope_args.iter().flat_map(|(_, a)| a)) {
                    match a {
                        TemplateArg::Type(t) => self.pack_len_in_type(*t, found),
                        TemplateArg::Expr(e) => self.pack_len_in_exprs((e.0, e.0 + 1), found),
                    }
                }
            }
            TypeKind::Pointer(t) | TypeKind::Reference { to: t, .. } | TypeKind::Array { elem: t, .. } => self.pack_len_in_type(*t, found),
            _ => {}
        }
    }

    /// The length of the packs named in the expressions with ids in `[from, to)`.
    fn pack_len_in_exprs(&self, (from, to): (u32, u32), found: &mut Option<usize>) {
        for id in from..to {
            match &self.ast.expr(ExprId(id)).kind {
                ExprKind::Name(n) => {
                    let n = self.ast.name(*n);
                    if n.parts.len() == 1 && !n.global {
                        if let Some(len) = self.pack_named(n.parts[0]) {
                            found.get_or_insert(len);
                        }
                    }
                    for a in n.template_args.iter().flatten() {
                        if let TemplateArg::Type(t) = a {
                            self.pack_len_in_type(*t, found);
                        }
                    }
                }
                ExprKind::Cast { ty, .. } | ExprKind::Construct { ty, .. } | ExprKind::SizeofType(ty) => self.pack_len_in_type(*ty, found),
                _ => {}
            }
        }
    }

    /// How many instances expansion `e` (expressions `exprs`, and `ty`) has.
    fn expansion_len(&mut self, exprs: (u32, u32), ty: Option<crate::ast::TypeId>, span: Span) -> Option<usize> {
        let mut found = None;
        self.pack_len_in_exprs(exprs, &mut found);
        if let Some(t) = ty {
            self.pack_len_in_type(t, &mut found);
        }
        if found.is_none() {
            self.error(span, "the pattern of this pack expansion names no parameter pack");
        }
        found
    }

    /// Runs `f` once per instance of a pack expansion of `len` elements.
    pub(crate) fn for_each_instance<T>(&mut self, len: usize, mut f: impl FnMut(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        let saved = self.pack_index;
        let mut out = Vec::with_capacity(len);
        for i in 0..len {
            self.pack_index = Some(i);
            let r = f(self);
            self.pack_index = saved;
            out.push(r?);
        }
        Some(out)
    }

    /// Call arguments with their expansions expanded: the values, and for each the
    /// expression it comes from (a pattern, once per instance). A braced list `{...}` has no
    /// value until the callee is chosen (it initializes a temporary of the parameter's type,
    /// [`Sema::braced_temp`]): it stands as an error-typed void, which every parameter
    /// accepts.
    pub(crate) fn arg_values(&mut self, args: &[ExprId]) -> Option<(Vec<Value>, Vec<ExprId>)> {
        let mut vals = Vec::new();
        let mut ids = Vec::new();
        let mut ok = true;
        for &a in args {
            let ex = self.ast.expr(a);
            match &ex.kind {
                ExprKind::InitList(_) => {
                    vals.push(Value { place: Place::Void, ty: self.types.error() });
                    ids.push(a);
                }
                ExprKind::Expand { pattern, exprs } => {
                    let (pattern, exprs, span) = (*pattern, *exprs, ex.span);
                    let Some(len) = self.expansion_len(exprs, None, span) else {
                        ok = false;
                        continue;
                    };
                    match self.for_each_instance(len, |s| s.expr(pattern)) {
                        Some(vs) => {
                            ids.extend(std::iter::repeat_n(pattern, vs.len()));
                            vals.extend(vs);
                        }
                        None => ok = false,
                    }
                }
                _ => match self.expr(a) {
                    Some(v) => {
                        vals.push(v);
                        ids.push(a);
                    }
                    None => ok = false,
                },
            }
        }
        ok.then_some((vals, ids))
    }

    /// Template arguments with their expansions expanded.
    pub(crate) fn expand_template_args(&mut self, args: &[TemplateArg]) -> Vec<TemplateArgInstance> {
        let mut out = Vec::new();
        for a in args {
            match a {
                TemplateArg::Type(t) => match &self.ast.ty(*t).kind {
                    TypeKind::Expand(inner) => {
                        let inner = *inner;
                        let span = self.ast.ty(*t).span;
                        let Some(len) = self.expansion_len((0, 0), Some(inner), span) else { continue };
                        for i in 0..len {
                            out.push(TemplateArgInstance { arg: TemplateArg::Type(inner), index: Some(i) });
                        }
                    }
                    _ => out.push(TemplateArgInstance { arg: a.clone(), index: self.pack_index }),
                },
                TemplateArg::Expr(e) => match &self.ast.expr(*e).kind {
                    ExprKind::Expand { pattern, exprs } => {
                        let (pattern, exprs) = (*pattern, *exprs);
                        let span = self.ast.expr(*e).span;
                        let Some(len) = self.expansion_len(exprs, None, span) else { continue };
                        for i in 0..len {
                            out.push(TemplateArgInstance { arg: TemplateArg::Expr(pattern), index: Some(i) });
                        }
                    }
                    _ => out.push(TemplateArgInstance { arg: a.clone(), index: self.pack_index }),
                },
            }
        }
        out
    }

    /// `sizeof...(name)`.
    pub(crate) fn sizeof_pack(&mut self, name: Atom, span: Span) -> Option<usize> {
        match self.pack_named(name) {
            Some(n) => Some(n),
            None => {
                let n = self.name_str(name);
                self.error(span, format!("'{n}' is not a parameter pack"));
                None
            }
        }
    }

    /// The value of a fold expression.
    pub(crate) fn fold(
        &mut self,
        op: crate::ast::BinaryOp,
        lhs: Option<(ExprId, (u32, u32))>,
        rhs: Option<(ExprId, (u32, u32))>,
        span: Span,
    ) -> Option<Value> {
        let names_pack = |s: &Self, side: Option<(ExprId, (u32, u32))>| {
            side.is_some_and(|(_, r)| {
                let mut f = None;
                s.pack_len_in_exprs(r, &mut f);
                f.is_some()
            })
        };
        // Which side is the pattern: a right fold `(pattern op ... [op init])` or a left
        // fold `([init op] ... op pattern)`.
        let (right, pattern, init) = match (lhs, rhs) {
            (Some(l), r) if names_pack(self, Some(l)) => (true, l, r),
            (l, Some(r)) if names_pack(self, Some(r)) => (false, r, l),
            _ => {
                self.error(span, "the operand of this fold expression names no parameter pack");
                return None;
            }
        };
        let len = self.expansion_len(pattern.1, None, span)?;
        use crate::ast::BinaryOp as B;
        // `&&`, `||` and `,` run their operands left to right, as many as needed.
        if matches!(op, B::And | B::Or | B::Comma) {
            let mut items: Vec<(ExprId, Option<usize>)> = (0..len).map(|i| (pattern.0, Some(i))).collect();
            match (init, right) {
                (Some((e, _)), true) => items.push((e, self.pack_index)),
                (Some((e, _)), false) => items.insert(0, (e, self.pack_index)),
                _ => {}
            }
            let bool_t = self.types.bool();
            if items.is_empty() {
                return Some(match op {
                    B::Comma => Value { place: Place::Void, ty: self.types.void() },
                    _ => Value::val(self.constant_int(i128::from(op == B::And), bool_t, span), bool_t),
                });
            }
            if op != B::Comma {
                let v = self.logical_chain(op, &items, span)?;
                return Some(Value::val(v, bool_t));
            }
            let saved = self.pack_index;
            let mut last = None;
            for (e, i) in items {
                self.pack_index = i;
                last = self.expr(e);
                self.pack_index = saved;
                last.as_ref()?;
            }
            return last;
        }
        let mut vals = self.for_each_instance(len, |s| s.expr(pattern.0).map(|v| (v, pattern.0)))?;
        if let Some((e, _)) = init {
            let v = self.expr(e)?;
            if right {
                vals.push((v, e));
            } else {
                vals.insert(0, (v, e));
            }
        }
        if vals.is_empty() {
            // An empty pack: only `&&`, `||` and `,` have a value without an initial one.
            self.error(span, "a fold expression over an empty pack needs an initial value with this operator");
            return None;
        }
        if right {
            let (mut acc, mut acc_e) = vals.pop()?;
            while let Some((v, e)) = vals.pop() {
                acc = self.binary_values(op, v, e, acc, acc_e, span)?;
                acc_e = e;
            }
            Some(acc)
        } else {
            let mut it = vals.into_iter();
            let (mut acc, mut acc_e) = it.next()?;
            for (v, e) in it {
                acc = self.binary_values(op, acc, acc_e, v, e, span)?;
                acc_e = e;
            }
            Some(acc)
        }
    }

    /// `sizeof...` as a value.
    pub(crate) fn sizeof_pack_value(&mut self, name: Atom, span: Span) -> Option<Value> {
        let n = self.sizeof_pack(name, span)?;
        let t = self.types.int(IntKind::ULong);
        Some(Value::val(self.constant_int(n as i128, t, span), t))
    }
}

/// A template argument after expansion: the argument, read with this pack index.
#[derive(Clone, Debug)]
pub(crate) struct TemplateArgInstance {
    pub arg: TemplateArg,
    pub index: Option<usize>,
}
