//! Declarations: entering namespaces, records (with their layout), enums, typedefs,
//! functions and globals into scopes; types as written to [`Ty`]. Templates are in
//! `templates`.

use super::ty::{Field, FloatTy, IntKind, RecId, RecordInfo, Ty, TyKind};
use super::*;
use crate::ast::{Builtin, TypeKind};

/// How deep declarators may nest pointers, references, arrays and function types.
const MAX_TYPE_DEPTH: u32 = 32;

/// How diagnostics show an unnamed class or enum with no typedef name.
pub(crate) const UNNAMED: &str = "(unnamed)";

/// The most elements an initialized device array may have (its initializer is one attribute
/// per element). Constant memory is 64 KB in all; `__device__` arrays this large are
/// zero-initialized by declaring them without an initializer.
const MAX_INIT_ELEMS: u64 = 1 << 20;

impl Sema<'_> {
    /// [`Sema::declare`] at namespace scope, tolerating host code: the errors of a
    /// declaration that is host code ([`Sema::is_host_decl`]) are demoted to host-code
    /// diagnostics (nvcc reads host code with the host's headers, which cuprite does not
    /// have); device code that uses what it failed to declare gets errors of its own.
    pub(crate) fn declare_tolerant(&mut self, d: DeclId) {
        let mark = self.diags.len();
        self.declare(d);
        if self.is_host_decl(d) {
            self.demote_to_host(mark);
        }
    }

    /// Whether declaration `d` is host code only: a function that is neither `__device__`
    /// nor `__global__`, a variable in no CUDA space, a class none of whose members is
    /// (such a function or a template of one), a typedef, alias or enum; a template of one
    /// of these. Static assertions, namespaces and explicit instantiations are not (their
    /// members and instances are device code or judged one by one).
    pub(crate) fn is_host_decl(&self, d: DeclId) -> bool {
        let mut work = vec![d];
        while let Some(d) = work.pop() {
            match &self.ast.decl(d).kind {
                DeclKind::Function { specs, .. } => {
                    if specs.device || specs.global {
                        return false;
                    }
                }
                DeclKind::Var { specs, .. } => {
                    if specs.device || specs.shared || specs.constant || specs.managed {
                        return false;
                    }
                }
                DeclKind::Record { members, .. } => work.extend(members.iter().flatten().copied()),
                DeclKind::Template { decl, .. } => work.push(*decl),
                DeclKind::Typedef { .. }
                | DeclKind::Enum { .. }
                | DeclKind::UsingDirective(_)
                | DeclKind::UsingDecl(_)
                | DeclKind::NamespaceAlias { .. }
                | DeclKind::Skipped(_)
                | DeclKind::Error => {}
                DeclKind::Namespace { .. }
                | DeclKind::LinkageSpec(_)
                | DeclKind::StaticAssert { .. }
                | DeclKind::ExplicitInstantiation(_) => return false,
            }
        }
        true
    }

    /// Enters a namespace-scope (or class-scope, with `cur_ns` the record's scope)
    /// declaration.
    pub(crate) fn declare(&mut self, d: DeclId) {
        let decl = self.ast.decl(d);
        let span = decl.span;
        match &decl.kind {
            DeclKind::Function { .. } => {
                self.declare_function(d, None, Vec::new(), None, true, false);
            }
            DeclKind::Var { .. } => self.declare_global(d),
            DeclKind::Typedef { name, ty } => {
                let t = self.resolve_type(*ty);
                // `typedef struct {...} P;`: the class is named `P` for linkage (and display).
                if let TypeKind::Defined(_) = self.ast.ty(*ty).kind {
                    self.name_unnamed(t, *name);
                }
                self.bind_ns(self.cur_ns, *name, Entity::Type(t));
            }
            DeclKind::Record { .. } => {
                self.declare_record(d, None, Vec::new());
            }
            DeclKind::Enum { .. } => self.declare_enum(d),
            DeclKind::Namespace { name, decls } => {
                let ns = match name.and_then(|n| {
                    self.namespaces[self.cur_ns.0 as usize].names.get(&n).and_then(|v| {
                        v.iter().find_map(|e| match e {
                            Entity::Namespace(x) => Some(*x),
                            _ => None,
                        })
                    })
                }) {
                    Some(ns) => ns,
                    None => {
                        let id = NsId(self.namespaces.len() as u32);
                        self.namespaces.push(Namespace { name: *name, parent: Some(self.cur_ns), ..Default::default() });
                        match name {
                            Some(n) => self.bind_ns(self.cur_ns, *n, Entity::Namespace(id)),
                            // An anonymous namespace's names are visible in the enclosing one.
                            None => self.namespaces[self.cur_ns.0 as usize].usings.push(id),
                        }
                        id
                    }
                };
                let saved = self.cur_ns;
                self.cur_ns = ns;
                for &c in decls.clone().iter() {
                    let outer = self.begin_decl();
                    self.declare_tolerant(c);
                    self.end_decl(outer);
                }
                self.cur_ns = saved;
            }
            DeclKind::Template { params, decl: inner } => self.declare_template(d, params, *inner),
            DeclKind::ExplicitInstantiation(inner) => self.explicit_instantiation(*inner),
            DeclKind::UsingDirective(name) => match self.lookup_name(name).into_iter().next() {
                Some(Entity::Namespace(n)) => self.namespaces[self.cur_ns.0 as usize].usings.push(n),
                _ => {
                    let t = self.name_text(name);
                    self.error(name.span, format!("'{t}' is not a namespace"));
                }
            },
            DeclKind::NamespaceAlias { name: alias, target } => match self.lookup_name(target).into_iter().next() {
                Some(Entity::Namespace(n)) => self.bind_ns(self.cur_ns, *alias, Entity::Namespace(n)),
                _ => {
                    let t = self.name_text(target);
                    self.error(target.span, format!("'{t}' is not a namespace"));
                }
            },
            DeclKind::UsingDecl(name) => {
                let found = self.lookup_name(name);
                if found.is_empty() {
                    let t = self.name_text(name);
                    self.error(name.span, format!("no member named '{t}'"));
                }
                let last = *name.parts.last().expect("a name has a part");
                for e in found {
                    self.bind_ns(self.cur_ns, last, e);
                }
            }
            DeclKind::StaticAssert { cond, message } => match self.const_eval(*cond) {
                Some(Konst::Int(0)) => {
                    let m = message.map(|m| self.name_str(m).to_string()).unwrap_or_default();
                    let m = m.trim_matches('"').to_string();
                    self.error(
                        span,
                        if m.is_empty() { "static assertion failed".to_string() } else { format!("static assertion failed: {m}") },
                    );
                }
                Some(_) => {}
                None => self.error(self.ast.expr(*cond).span, "static_assert condition is not a constant expression"),
            },
            DeclKind::LinkageSpec(decls) => {
                for &c in decls.clone().iter() {
                    let outer = self.begin_decl();
                    self.declare_tolerant(c);
                    // Mark the functions it declared as extern "C" (before they are emitted).
                    if let DeclKind::Function { .. } = self.ast.decl(c).kind {
                        if let Some(i) = (0..self.funcs.len()).rev().find(|&i| self.funcs[i].decl == c) {
                            self.funcs[i].extern_c = true;
                        }
                    }
                    self.end_decl(outer);
                }
            }
            DeclKind::Skipped(_) | DeclKind::Error => {}
        }
    }

    // ----- types -------------------------------------------------------------------------

    /// The type written at `t`.
    pub(crate) fn resolve_type(&mut self, t: crate::ast::TypeId) -> Ty {
        // Types nest as deep as the parser allows; symbols and IR types are built
        // recursively, so sema sets its own, smaller limit.
        if self.type_depth >= MAX_TYPE_DEPTH {
            self.error(self.ast.ty(t).span, format!("type is nested more than {MAX_TYPE_DEPTH} levels deep"));
            return self.types.error();
        }
        self.type_depth += 1;
        let r = self.resolve_type_inner(t);
        self.type_depth -= 1;
        r
    }

    fn resolve_type_inner(&mut self, t: crate::ast::TypeId) -> Ty {
        let at = self.ast.ty(t);
        let span = at.span;
        let q = at.quals;
        let base = match &at.kind {
            TypeKind::Expand(_) => {
                self.error(span, "a pack expansion '...' of a type is only allowed in a template argument list");
                self.types.error()
            }
            TypeKind::Builtin(b) => match b {
                Builtin::Void => self.types.void(),
                Builtin::Bool => self.types.bool(),
                Builtin::Char => self.types.int(IntKind::Char),
                Builtin::SChar => self.types.int(IntKind::SChar),
                Builtin::UChar => self.types.int(IntKind::UChar),
                Builtin::Short => self.types.int(IntKind::Short),
                Builtin::UShort => self.types.int(IntKind::UShort),
                Builtin::Int => self.types.int(IntKind::Int),
                Builtin::UInt => self.types.int(IntKind::UInt),
                Builtin::Long => self.types.int(IntKind::Long),
                Builtin::ULong => self.types.int(IntKind::ULong),
                Builtin::LongLong => self.types.int(IntKind::LongLong),
                Builtin::ULongLong => self.types.int(IntKind::ULongLong),
                Builtin::Float => self.types.float(FloatTy::Float),
                Builtin::Half => self.types.float(FloatTy::Half),
                Builtin::Double => self.types.float(FloatTy::Double),
                Builtin::LongDouble => {
                    self.error(span, "'long double' is not supported in device code");
                    self.types.error()
                }
                Builtin::Int128 | Builtin::UInt128 => {
                    self.unsupported(span, "'__int128'");
                    self.types.error()
                }
            },
            // `struct S *p` with no `S` declared declares it (incomplete), as in C.
            TypeKind::Elaborated { keyword, name }
                if name.parts.len() == 1
                    && !name.global
                    && name.template_args.is_none()
                    && matches!(self.name_str(*keyword), "struct" | "class" | "union")
                    && self.lookup_name(&name.clone()).is_empty() =>
            {
                let is_union = self.name_str(*keyword) == "union";
                let r = self.new_record(None, Some(name.parts[0]), is_union, &None);
                self.rec_ty(r)
            }
            TypeKind::Named(name) | TypeKind::Elaborated { name, .. } => {
                let name = name.clone();
                self.resolve_named_type(&name)
            }
            TypeKind::Pointer(p) => {
                let p = self.resolve_type(*p);
                if self.types.is_error(p) {
                    p
                } else {
                    self.types.ptr(p)
                }
            }
            TypeKind::Reference { to, .. } => {
                let to = self.resolve_type(*to);
                if self.types.is_error(to) {
                    to
                } else {
                    self.types.intern(TyKind::Ref(to))
                }
            }
            TypeKind::Array { elem, size } => {
                let e = self.resolve_type(*elem);
                let n = match size {
                    None => None,
                    Some(s) => match self.const_eval(*s) {
                        Some(Konst::Int(v)) if v > 0 => Some(v as u64),
                        Some(Konst::Int(_)) => {
                            self.error(self.ast.expr(*s).span, "array size must be positive");
                            Some(1)
                        }
                        _ => {
                            self.error(self.ast.expr(*s).span, "array size is not an integer constant expression");
                            Some(1)
                        }
                    },
                };
                if self.types.is_error(e) {
                    e
                } else {
                    self.types.intern(TyKind::Array(e, n))
                }
            }
            TypeKind::Function { ret, params, variadic } => {
                let (ret, params, variadic) = (*ret, params.clone(), *variadic);
                let ret = self.resolve_type(ret);
                let params = params.iter().map(|&p| self.resolve_type(p)).collect();
                self.types.intern(TyKind::Func { ret, params, variadic })
            }
            TypeKind::Decltype(e) => self.type_of_expr(*e, true, span),
            TypeKind::Typeof(e) => self.type_of_expr(*e, false, span),
            TypeKind::Defined(d) => match self.unnamed_types.get(&(*d, self.cur_ns)) {
                Some(&t) => t,
                None => {
                    self.unsupported(span, "an unnamed class or enum used here");
                    self.types.error()
                }
            },
            TypeKind::Auto => {
                self.error(span, "'auto' is only allowed for a variable with an initializer");
                self.types.error()
            }
        };
        let mut quals = 0;
        if q.is_const {
            quals |= Ty::CONST;
        }
        if q.is_volatile {
            quals |= Ty::VOLATILE;
        }
        base.with_quals(quals)
    }

    pub(crate) fn resolve_named_type(&mut self, name: &Name) -> Ty {
        let t = self.resolve_named_type_unchecked(name);
        if let Some(r) = self.types.record(t) {
            if let Some(at) = self.types.rec(r).broken {
                if !self.in_host_code() {
                    let n = self.types.rec(r).name.clone();
                    self.error_with(
                        Diagnostic::error(name.span, format!("'{n}' cannot be used in device code: its declaration has errors"))
                            .note(Some(at), "this part of it is not compiled"),
                    );
                    return self.types.error();
                }
            }
        }
        t
    }

    fn resolve_named_type_unchecked(&mut self, name: &Name) -> Ty {
        let found = self.lookup_name(name);
        match found.first() {
            Some(Entity::Type(t)) => {
                if let (Some(args), Some(tpl)) = (&name.template_args, self.template_of(&found)) {
                    // The injected class name `X` in `X<A>` inside a template's instance.
                    let args = args.clone();
                    let Some(args) = self.template_args(&args) else { return self.types.error() };
                    return self.instantiate_record(tpl, args, name.span).unwrap_or_else(|| self.types.error());
                }
                if name.template_args.is_some() {
                    let n = self.name_text(name);
                    self.error(name.span, format!("'{n}' is not a template"));
                }
                *t
            }
            Some(Entity::Template(tpl)) => {
                let tpl = *tpl;
                let Some(args) = &name.template_args else {
                    let n = self.name_text(name);
                    self.error(name.span, format!("use of class template '{n}' requires template arguments"));
                    return self.types.error();
                };
                let args = args.clone();
                let Some(args) = self.template_args(&args) else { return self.types.error() };
                match self.instantiate_record(tpl, args, name.span) {
                    Some(t) => t,
                    None => self.types.error(),
                }
            }
            Some(_) => {
                let n = self.name_text(name);
                self.error(name.span, format!("'{n}' does not name a type"));
                self.types.error()
            }
            None => {
                let n = self.name_text(name);
                self.error(name.span, format!("unknown type name '{n}'"));
                self.types.error()
            }
        }
    }

    /// Template arguments as written.
    pub(crate) fn template_args(&mut self, args: &[TemplateArg]) -> Option<Vec<TArg>> {
        let mut out = Vec::new();
        let saved = self.pack_index;
        for inst in self.expand_template_args(args) {
            self.pack_index = inst.index;
            let a = self.template_arg(&inst.arg);
            self.pack_index = saved;
            out.push(a?);
        }
        Some(out)
    }

    fn template_arg(&mut self, a: &TemplateArg) -> Option<TArg> {
        match a {
            TemplateArg::Type(t) => Some(TArg::Type(self.resolve_type(*t))),
            TemplateArg::Expr(e) => {
                // A name the parser could not classify may be a type.
                if let ExprKind::Name(n) = &self.ast.expr(*e).kind {
                    let ast = self.ast;
                    if let Some(Entity::Type(t)) = self.lookup_name(ast.name(*n)).first() {
                        return Some(TArg::Type(*t));
                    }
                }
                match self.const_eval(*e) {
                    Some(Konst::Int(v)) => {
                        let t = self.types.int(IntKind::Int);
                        Some(TArg::Value(v, t))
                    }
                    _ => {
                        self.error(self.ast.expr(*e).span, "template argument is not an integer constant expression");
                        None
                    }
                }
            }
        }
    }

    // ----- records and enums -------------------------------------------------------------

    /// The Itanium ABI's name of the next unnamed class or enum in the current scope:
    /// `Ut_`, `Ut0_`, `Ut1_`, ...
    fn unnamed_type_name(&mut self) -> String {
        let n = self.unnamed_count.entry(self.cur_ns).or_insert(0);
        let s = if *n == 0 { "Ut_".to_string() } else { format!("Ut{}_", *n - 1) };
        *n += 1;
        s
    }

    /// Gives unnamed class or enum `t` its typedef name `name` (the first one), for display
    /// and linkage: its mangled name, and those of the types declared in it, use `name`
    /// instead of the `Ut` number, which goes back to the scope if it was the last given.
    fn name_unnamed(&mut self, t: Ty, name: Atom) {
        let display = self.name_str(name).to_string();
        let mangled = super::mangle::nested(self, self.cur_ns, &super::mangle::source_name(&display));
        let names = if let Some(r) = self.types.record(t.unqual()) {
            let info = &mut self.types.records[r.0 as usize];
            (&mut info.name, &mut info.mangled)
        } else if let TyKind::Enum(e) = *self.types.kind(t.unqual()) {
            let info = &mut self.types.enums[e.0 as usize];
            (&mut info.name, &mut info.mangled)
        } else {
            return;
        };
        if names.0 != UNNAMED {
            return;
        }
        *names.0 = display;
        let old = std::mem::replace(names.1, mangled.clone());
        if self.last_unnamed == Some((self.cur_ns, t)) {
            if let Some(n) = self.unnamed_count.get_mut(&self.cur_ns) {
                *n = n.saturating_sub(1);
            }
        }
        // Types declared inside it took the old name as a prefix.
        let (old_prefix, new_prefix) = (format!("{old}\u{1}"), format!("{mangled}\u{1}"));
        for m in self.types.records.iter_mut().map(|r| &mut r.mangled).chain(self.types.enums.iter_mut().map(|e| &mut e.mangled)) {
            if let Some(rest) = m.strip_prefix(&old_prefix) {
                *m = format!("{new_prefix}{rest}");
            }
        }
    }

    /// A new record named `name` (`None`: unnamed, defined by declaration `d`) in the
    /// current scope, incomplete until its members are declared.
    fn new_record(&mut self, d: Option<DeclId>, name: Option<Atom>, is_union: bool, inst: &Option<(String, Vec<TArg>, u32)>) -> RecId {
        let name = &name;
        let base_name = name.map(|n| self.name_str(n).to_string()).unwrap_or_else(|| UNNAMED.into());
        let (display, mangled) = match &inst {
            Some((disp, args, _)) => {
                (disp.clone(), format!("{}{}", super::mangle::source_name(&base_name), super::mangle::template_args(self, args)))
            }
            None if name.is_none() => (base_name.clone(), self.unnamed_type_name()),
            None => (base_name.clone(), super::mangle::source_name(&base_name)),
        };
        let mangled = super::mangle::nested(self, self.cur_ns, &mangled);
        let r = RecId(self.types.records.len() as u32);
        self.types.records.push(RecordInfo {
            name: display,
            mangled,
            is_union,
            fields: Vec::new(),
            size: 0,
            align: 1,
            complete: false,
            explicit_align: None,
            // Set now, so that its members can name the template through the injected name.
            inst_of: inst.as_ref().map(|(_, a, t)| (*t, a.clone())),
            bases: Vec::new(),
            broken: None,
            dynamic: false,
            has_vptrs: false,
            virtuals: Vec::new(),
        });
        let ns = NsId(self.namespaces.len() as u32);
        self.namespaces.push(Namespace { name: *name, parent: Some(self.cur_ns), record: Some(r), ..Default::default() });
        self.rec_ns.push(ns);
        let t = self.rec_ty(r);
        if let (Some(n), None) = (name, &inst) {
            self.bind_ns(self.cur_ns, *n, Entity::Type(t));
        }
        if let (None, Some(d)) = (name, d) {
            // Found through `TypeKind::Defined` (the instance's, in a template).
            self.unnamed_types.insert((d, self.cur_ns), t);
            self.last_unnamed = Some((self.cur_ns, t));
        }
        // The injected class name.
        if let Some(n) = name {
            self.namespaces[ns.0 as usize].names.insert(*n, vec![Entity::Type(t)]);
        }
        r
    }

    /// Lays out record `r` with `fields` (name, type, whether a base subobject), C's way:
    /// each at the next multiple of its alignment (all at 0 in a union), the size rounded
    /// up to the alignment (at least `explicit`, `__align__(N)`); the record is complete.
    pub(crate) fn lay_out(&mut self, r: RecId, fields: Vec<(Atom, Ty, bool)>, is_union: bool, explicit: Option<u64>) {
        let (mut size, mut align) = (0u64, explicit.unwrap_or(1));
        let mut out = Vec::new();
        for (name, t, is_base) in fields {
            let a = self.types.align(t);
            let off = if is_union { 0 } else { size.div_ceil(a) * a };
            out.push(Field { name, ty: t, offset: off, is_base });
            size = if is_union { size.max(self.types.size(t)) } else { off + self.types.size(t) };
            align = align.max(a);
        }
        let size = size.max(1).div_ceil(align) * align;
        let info = &mut self.types.records[r.0 as usize];
        info.fields = out;
        info.size = size;
        info.align = align;
        info.complete = true;
        info.explicit_align = explicit;
    }

    /// A lambda's closure class (see `lambda`): unnamed, in the current namespace, its
    /// symbol name a lambda's (`UlvE<n>_`, unique in the file).
    pub(crate) fn new_closure_record(&mut self, span: Span) -> RecId {
        let r = self.new_record(None, None, false, &None);
        let n = self.closures.len();
        let line = self.files.get(span.file.0 as usize).map_or(0, |f| f.line_col(span.lo).0);
        let info = &mut self.types.records[r.0 as usize];
        info.name = format!("(lambda at line {line})");
        info.mangled = format!("UlvE{n}_");
        r
    }

    /// Declares (or completes) a record; `inst`: the instance name and template bindings of
    /// a class template instance.
    pub(crate) fn declare_record(&mut self, d: DeclId, inst: Option<(String, Vec<TArg>, u32)>, env: Vec<(Atom, Entity)>) -> Option<RecId> {
        let DeclKind::Record { keyword, name, bases, members, attrs, virtual_base, .. } = &self.ast.decl(d).kind else { return None };
        let virtual_base = *virtual_base;
        let span = self.ast.decl(d).span;
        let is_union = self.name_str(*keyword) == "union";
        // An existing (forward-declared) record of that name in this scope.
        let existing = match (name, &inst) {
            (Some(n), None) => self.namespaces[self.cur_ns.0 as usize].names.get(n).and_then(|v| {
                v.iter().find_map(|e| match e {
                    Entity::Type(t) => self.types.record(*t),
                    _ => None,
                })
            }),
            _ => None,
        };
        let r = match existing {
            Some(r) => {
                if self.types.rec(r).complete && members.is_some() {
                    let n = self.types.rec(r).name.clone();
                    self.error(span, format!("redefinition of '{n}'"));
                    return Some(r);
                }
                r
            }
            None => self.new_record(Some(d), *name, is_union, &inst),
        };
        let Some(members) = members.clone() else { return Some(r) };
        let bases = bases.clone();
        let mark = self.diags.len();
        let ns = self.rec_ns[r.0 as usize];
        for (n, e) in &env {
            self.namespaces[ns.0 as usize].names.insert(*n, vec![e.clone()]);
        }
        let saved = self.cur_ns;
        self.cur_ns = ns;
        // Base classes: subobjects first, in order; an empty one takes no space. Their
        // members are found through the class (its namespace uses theirs).
        let mut fields = Vec::new();
        let mut base_infos = Vec::new();
        if let Some(vs) = virtual_base {
            self.unsupported(vs, "a virtual base class");
        }
        for b in bases {
            let bspan = self.ast.ty(b).span;
            let written = match &self.ast.ty(b).kind {
                TypeKind::Named(n) | TypeKind::Elaborated { name: n, .. } => n.parts.last().copied(),
                _ => None,
            };
            let t = self.resolve_type(b);
            if self.types.is_error(t) {
                continue;
            }
            let Some(br) = self.types.record(t.unqual()) else {
                self.error(bspan, format!("base '{}' is not a class", self.types.show(t)));
                continue;
            };
            if !self.types.rec(br).complete {
                self.error(bspan, format!("base class '{}' is incomplete", self.types.show(t)));
                continue;
            }
            if is_union || self.types.rec(br).is_union {
                self.error(bspan, "a union cannot have or be a base class");
                continue;
            }
            let Some(name) = written else {
                self.unsupported(bspan, "a base class not named by a name");
                continue;
            };
            let empty = self.types.rec(br).fields.is_empty();
            let field = (!empty).then(|| {
                fields.push((name, t.unqual(), true));
                fields.len() - 1
            });
            base_infos.push(super::ty::BaseInfo { rec: br, name, field });
            let bns = self.rec_ns[br.0 as usize];
            self.namespaces[ns.0 as usize].usings.push(bns);
        }
        let mut methods = Vec::new();
        for &m in &members {
            match &self.ast.decl(m).kind {
                DeclKind::Var { specs, name, ty, .. } if !specs.is_static => {
                    let t = self.resolve_type(*ty);
                    if self.types.size(t) == 0 || matches!(self.types.kind(t), TyKind::Void) {
                        self.error(name.span, format!("field '{}' has incomplete type '{}'", self.name_text(name), self.types.show(t)));
                        continue;
                    }
                    if matches!(self.types.kind(t), TyKind::Ref(_)) {
                        self.unsupported(name.span, "a reference member");
                        continue;
                    }
                    fields.push((name.parts[0], t, false));
                }
                DeclKind::Function { .. } => methods.push(m),
                DeclKind::Template { .. } => self.declare(m),
                _ => self.declare(m),
            }
        }
        // Layout.
        let mut explicit = None;
        for a in attrs {
            if a.is(self.names, "aligned") {
                match a.args.first().and_then(|&e| self.const_eval(e)) {
                    Some(Konst::Int(v)) if v > 0 && (v & (v - 1)) == 0 => explicit = Some(v as u64),
                    _ => self.error(a.span, "__align__ takes a power of two"),
                }
            }
        }
        let dynamic = self.place_vptr(&methods, &mut fields, &mut base_infos, is_union, span);
        self.lay_out(r, fields, is_union, explicit);
        self.types.records[r.0 as usize].bases = base_infos;
        self.types.records[r.0 as usize].dynamic = dynamic;
        self.types.records[r.0 as usize].has_vptrs = dynamic || {
            let fs: Vec<Ty> = self.types.rec(r).fields.iter().map(|f| f.ty).collect();
            fs.into_iter().any(|t| self.has_vptrs(t))
        };
        if let Some(d) = self.diags[mark..].iter().find(|d| d.severity == crate::Severity::Error) {
            self.types.records[r.0 as usize].broken = Some(d.span.unwrap_or(span));
        }
        // Member functions, after the layout (their bodies may use any member).
        // A static one takes no object: it is declared in the class's scope without `this`.
        for m in methods {
            let rec = if self.is_static_fn(m) { None } else { Some(r) };
            let f = self.declare_function(m, rec, env.clone(), inst.as_ref().map(|i| i.1.clone()), true, true);
            if let (Some(f), true) = (f, dynamic) {
                self.note_virtual(r, m, f);
            }
        }
        if dynamic {
            self.vt.records.push(r);
        }
        self.cur_ns = saved;
        Some(r)
    }

    pub(crate) fn is_static_fn(&self, d: DeclId) -> bool {
        matches!(&self.ast.decl(d).kind, DeclKind::Function { specs, .. } if specs.is_static)
    }

    fn declare_enum(&mut self, d: DeclId) {
        let DeclKind::Enum { name, scoped, underlying, enumerators } = &self.ast.decl(d).kind else { return };
        let under = match underlying {
            Some(u) => self.resolve_type(*u),
            None => self.types.int(IntKind::Int),
        };
        let display = name.map(|n| self.name_str(n).to_string()).unwrap_or_else(|| UNNAMED.into());
        let comp = if name.is_some() { super::mangle::source_name(&display) } else { self.unnamed_type_name() };
        let mangled = super::mangle::nested(self, self.cur_ns, &comp);
        let id = super::ty::EnumId(self.types.enums.len() as u32);
        self.types.enums.push(super::ty::EnumInfo { name: display, mangled, underlying: under });
        let et = self.types.intern(TyKind::Enum(id));
        if name.is_none() {
            self.unnamed_types.insert((d, self.cur_ns), et);
            self.last_unnamed = Some((self.cur_ns, et));
        }
        // Enumerators are found through the enum's name, as `E::A` (an unscoped enum's in
        // the enclosing scope too).
        let enum_ns = name.map(|_| {
            let ns = NsId(self.namespaces.len() as u32);
            self.namespaces.push(Namespace { name: *name, parent: Some(self.cur_ns), ..Default::default() });
            ns
        });
        let scoped = *scoped;
        let target = if scoped { enum_ns.expect("a scoped enum is named") } else { self.cur_ns };
        if let (Some(n), Some(ens)) = (name, enum_ns) {
            self.bind_ns(self.cur_ns, *n, Entity::Type(et));
            // `E::A` looks `A` up in the namespace registered under the enum's name.
            self.scoped_enum_ns(*n, ens);
        }
        let mut next = 0i128;
        for (n, e, _) in enumerators.clone() {
            if let Some(e) = e {
                match self.const_eval(e) {
                    Some(Konst::Int(v)) => next = v,
                    _ => self.error(self.ast.expr(e).span, "enumerator value is not an integer constant expression"),
                }
            }
            self.bind_ns(target, n, Entity::Const(Konst::Int(next), et));
            if let (false, Some(ens)) = (scoped, enum_ns) {
                self.bind_ns(ens, n, Entity::Const(Konst::Int(next), et));
            }
            next += 1;
        }
    }

    /// Makes `E::A` resolve for a scoped enum: the enum's name maps to its type and, for
    /// qualified lookup, to a namespace holding the enumerators.
    fn scoped_enum_ns(&mut self, name: Atom, ns: NsId) {
        let entry = self.namespaces[self.cur_ns.0 as usize].names.entry(name).or_default();
        entry.push(Entity::Namespace(ns));
    }

    // ----- functions ---------------------------------------------------------------------

    /// Declares a function (or merges a definition into its earlier declaration); `bind`:
    /// enter it into the current scope's overload set (template instances are not).
    pub(crate) fn declare_function(
        &mut self,
        d: DeclId,
        record: Option<RecId>,
        env: Vec<(Atom, Entity)>,
        tpl_args: Option<Vec<TArg>>,
        bind: bool,
        member: bool,
    ) -> Option<FuncId> {
        let DeclKind::Function { specs, name, ret, params, variadic, is_const, body, attrs, .. } = &self.ast.decl(d).kind else {
            return None;
        };
        let span = name.span;
        let (specs, name, ret, params, variadic, is_const, body, attrs) =
            (*specs, name.clone(), *ret, params.clone(), *variadic, *is_const, *body, attrs.clone());
        // Out-of-line member definitions (`void S::f() {...}`) and qualified names.
        if name.parts.len() > 1 && !member {
            return self.define_out_of_line(d, &name);
        }
        self.push_scope();
        for (n, e) in &env {
            self.bind_local(*n, e.clone());
        }
        let last = *name.parts.last()?;
        let is_ctor = record.is_some_and(|r| self.types.rec(r).name.split('<').next() == Some(self.name_str(last)));
        // `auto f(...) { return e; }`: the type of its first `return`, found once declared.
        let auto_ret = !is_ctor && matches!(self.ast.ty(ret).kind, TypeKind::Auto) && body.is_some();
        let ret_t = if is_ctor {
            self.types.void()
        } else if auto_ret {
            self.types.error()
        } else {
            self.resolve_type(ret)
        };
        let mut ptys = Vec::new();
        // A function parameter pack: one parameter per element of the packs its pattern
        // names (`params` then has its pattern's name and default once per parameter).
        let mut param_pack = None;
        let mut names_defaults = Vec::new();
        for p in &params {
            let mut tys = Vec::new();
            if p.pack {
                let mut len = None;
                self.pack_len_in_type(p.ty, &mut len);
                let Some(len) = len else {
                    self.error(p.span, "this parameter pack's type names no template parameter pack");
                    self.pop_scope();
                    return None;
                };
                param_pack = Some((p.name, ptys.len(), len));
                tys = self.for_each_instance(len, |s| Some(s.resolve_type(p.ty)))?;
            } else {
                tys.push(self.resolve_type(p.ty));
            }
            for t in tys {
                // Parameters of array and function type are pointers.
                let t = match self.types.kind(t).clone() {
                    TyKind::Array(e, _) => self.types.ptr(e),
                    TyKind::Func { .. } => self.types.ptr(t),
                    _ => t.unqual(),
                };
                ptys.push(t);
                names_defaults.push(if p.pack { (None, None) } else { (p.name, p.default) });
            }
        }
        // `f(void)`.
        if ptys.len() == 1 && self.types.is_void(ptys[0]) && params[0].name.is_none() && !params[0].pack {
            ptys.clear();
            names_defaults.clear();
        }
        self.pop_scope();
        let builtin_header = self.is_builtin_file(span);
        let exec = if specs.global {
            Exec::Kernel
        } else if specs.device && specs.host {
            Exec::HostDevice
        } else if specs.device {
            Exec::Device
        } else if specs.host {
            Exec::Host
        } else if specs.is_constexpr || specs.is_defaulted || builtin_header {
            Exec::HostDevice
        } else {
            // Including member functions not declared __device__, as in nvcc.
            Exec::Host
        };
        let mut launch_bounds = Vec::new();
        let mut intrinsic = None;
        let mut inline = None;
        for a in &attrs {
            if a.is(self.names, "noinline") {
                inline = Some(false);
            } else if a.is(self.names, "always_inline") {
                inline = Some(true);
            } else if a.is(self.names, "launch_bounds") {
                launch_bounds = a.args.clone();
            } else if a.is(self.names, "intrinsic") {
                if let Some(ExprKind::Str(parts)) = a.args.first().map(|&e| &self.ast.expr(e).kind) {
                    intrinsic = Some(parts.iter().map(|p| self.name_str(*p).trim_matches('"')).collect::<String>());
                }
            }
        }
        let ns = self.cur_ns;
        // A redeclaration with the same parameter types merges.
        if bind {
            let prior = self.namespaces[ns.0 as usize].names.get(&last).cloned().unwrap_or_default();
            for e in prior {
                if let Entity::Func(f) = e {
                    let fi = &self.funcs[f.0 as usize];
                    // A static member function defined out of line (without `static`).
                    let same_record = fi.record == record || (member && fi.record.is_none() && self.is_static_fn(fi.decl));
                    if fi.params == ptys && same_record && fi.tpl_args == tpl_args && fi.is_const_method == is_const {
                        let fi = &mut self.funcs[f.0 as usize];
                        if body.is_some() {
                            if fi.body.is_some() {
                                let disp = fi.display.clone();
                                self.error(span, format!("redefinition of '{disp}'"));
                                return Some(f);
                            }
                            fi.body = body;
                            fi.decl = d;
                            // An out-of-line definition in a class template names the
                            // template's parameters its own way.
                            if !env.is_empty() {
                                fi.env = env.clone();
                            }
                            fi.span = span;
                            fi.param_names = names_defaults.iter().map(|p| p.0).collect();
                            fi.param_pack = param_pack;
                            if !launch_bounds.is_empty() {
                                fi.launch_bounds = launch_bounds;
                            }
                        }
                        if inline.is_some() {
                            fi.inline = inline;
                        }
                        if specs.extern_c {
                            fi.extern_c = true;
                        }
                        if body.is_some() {
                            self.defined.push(f);
                        }
                        return Some(f);
                    }
                }
            }
        }
        let mut display = self.name_str(last).to_string();
        if let Some(r) = record {
            display = format!("{}::{display}", self.types.rec(r).name);
        }
        let id = FuncId(self.funcs.len() as u32);
        self.funcs.push(FuncInfo {
            name: last,
            display,
            decl: d,
            ret: ret_t,
            params: ptys,
            param_names: names_defaults.iter().map(|p| p.0).collect(),
            defaults: names_defaults.iter().map(|p| p.1).collect(),
            variadic,
            exec,
            body,
            builtin_header,
            extern_c: specs.extern_c,
            record,
            is_const_method: is_const,
            is_ctor,
            env,
            tpl_args,
            ns,
            span,
            symbol: None,
            symbol_ref: None,
            launch_bounds,
            inline,
            intrinsic,
            is_virtual: false,
            dispatch_of: None,
            inst_site: None,
            param_pack,
            emitted: false,
        });
        if bind {
            self.bind_ns(ns, last, Entity::Func(id));
        }
        if auto_ret && exec != Exec::Host {
            self.deduce_return_type(id);
        }
        if body.is_some() {
            self.defined.push(id);
        }
        Some(id)
    }

    /// `void S::f() {...}` / `void ns::f() {...}`: the body of a function declared in a
    /// class or namespace.
    fn define_out_of_line(&mut self, d: DeclId, name: &Name) -> Option<FuncId> {
        let span = self.ast.decl(d).span;
        let scope_name = Name { parts: name.parts[..name.parts.len() - 1].into(), template_args: None, ..name.clone() };
        let ns = match self.lookup_name(&scope_name).into_iter().next() {
            Some(Entity::Namespace(n)) => n,
            Some(Entity::Type(t)) if self.types.record(t).is_some() => self.rec_ns[self.types.record(t).expect("record").0 as usize],
            _ => {
                let n = self.name_text(&scope_name);
                self.error(span, format!("'{n}' is not a class or namespace"));
                return None;
            }
        };
        let record = self.namespaces[ns.0 as usize].record;
        let saved = self.cur_ns;
        self.cur_ns = ns;
        let f = self.declare_function(d, record, Vec::new(), None, true, true);
        self.cur_ns = saved;
        f
    }

    // ----- globals -----------------------------------------------------------------------

    fn declare_global(&mut self, d: DeclId) {
        let DeclKind::Var { specs, name, ty, init, attrs } = &self.ast.decl(d).kind else { return };
        let (specs, name, ty, init, _attrs) = (*specs, name.clone(), *ty, *init, attrs.clone());
        let span = name.span;
        let last = name.parts[name.parts.len() - 1];
        // A host variable's initializer (a table of kernels) names kernels nvcc emits.
        if let Some(e) = init.filter(|_| !(specs.device || specs.shared || specs.constant || specs.managed)) {
            self.require_kernels_named_in(e);
        }
        if matches!(self.ast.ty(ty).kind, TypeKind::Auto) {
            // `constexpr auto x = 3;`: the type of the constant.
            if let Some(k) = init.and_then(|e| self.const_eval(e)) {
                let t = match k {
                    Konst::Int(_) => self.types.int(IntKind::Int),
                    Konst::Float(_) => self.types.float(FloatTy::Double),
                };
                self.bind_ns(self.cur_ns, last, Entity::Const(k, t));
            } else {
                self.unsupported(span, "'auto' at namespace scope without a constant initializer");
            }
            return;
        }
        // `__constant__ float c[] = {...}`: sized by its initializer.
        let t = self.resolve_type(ty);
        let t = self.sized_by_init(t, init, span);
        let space = if specs.shared {
            Some(AddrSpace::Shared)
        } else if specs.constant {
            Some(AddrSpace::Constant)
        } else if specs.device || specs.managed {
            Some(AddrSpace::Global)
        } else {
            None
        };
        let konst = if t.is_const() || specs.is_constexpr { init.and_then(|e| self.const_eval(e)) } else { None };
        let sym = super::mangle::global_symbol(self, self.cur_ns, self.name_str(last));
        if specs.shared && specs.is_extern {
            // Dynamic shared memory declared once for the whole file.
            if !matches!(self.types.kind(t.unqual()), TyKind::Array(_, None)) {
                self.error(span, "an 'extern __shared__' variable must be an array of unknown size");
            }
            let name = self.name_str(last).to_string();
            self.bind_ns(self.cur_ns, last, Entity::DynShared { name, ty: t });
            return;
        }
        if let Some(sp) = space {
            if specs.shared && init.is_some() {
                self.error(span, "initialization is not supported for __shared__ variables");
            }
            if !specs.is_extern && self.emitted_globals.insert(sym.clone()) {
                // `__managed__`: unified memory, device global memory the host reaches too.
                self.emit_global(&sym, t, sp, init, specs.managed, span);
            }
        }
        self.bind_ns(self.cur_ns, last, Entity::Global { sym, ty: t, space, konst, span });
        // The thread-index builtins of cuda_runtime.h.
        if self.is_builtin_file(span) {
            let b = match self.name_str(last) {
                "threadIdx" => Some(BuiltinVar::ThreadIdx),
                "blockIdx" => Some(BuiltinVar::BlockIdx),
                "blockDim" => Some(BuiltinVar::BlockDim),
                "gridDim" => Some(BuiltinVar::GridDim),
                "warpSize" => Some(BuiltinVar::WarpSize),
                _ => None,
            };
            if let Some(b) = b {
                self.bind_ns(self.cur_ns, last, Entity::Builtin(b));
            }
        }
    }

    /// Whether `t` is a const (not volatile) arithmetic type or an array of them (at any
    /// depth; the const may sit on the array or its elements). Not pointers: their
    /// initializers hold addresses, not bytes.
    fn readonly_type(&self, t: Ty, outer_const: bool) -> bool {
        let c = outer_const || t.is_const();
        if t.is_volatile() {
            return false;
        }
        match self.types.kind(t.unqual()) {
            TyKind::Array(e, _) => self.readonly_type(*e, c),
            _ => c && self.types.is_arith(t.unqual()),
        }
    }

    /// A `cuda.global` with its constant initializer.
    pub(crate) fn emit_global(&mut self, sym: &str, t: Ty, space: AddrSpace, init: Option<ExprId>, managed: bool, span: Span) {
        let ir_t = self.types.ir_mem(&mut self.ctx, t);
        let space_a = self.enum_attr(match space {
            AddrSpace::Generic => 0,
            AddrSpace::Global => 1,
            AddrSpace::Shared => 3,
            AddrSpace::Constant => 4,
            AddrSpace::Local => 5,
        });
        let name_a = self.ctx.str_attr(sym);
        let ty_a = self.ctx.type_attr(ir_t);
        let mut props = vec![("space", space_a), ("sym_name", name_a), ("type", ty_a)];
        if let Some(e) = init {
            if let Some(a) = self.const_init_attr(e, t) {
                props.push(("init", a));
            }
        }
        if managed {
            props.push(("managed", self.ctx.unit_attr()));
        }
        // Const scalars and arrays of them, initialized: nothing may write them (a class
        // could have `mutable` members, so only these).
        if init.is_some() && props.iter().any(|(k, _)| *k == "init") && self.readonly_type(t, false) {
            props.push(("readonly", self.ctx.unit_attr()));
        }
        let saved = self.fs.take();
        self.op("cuda.global", &[], &[], &props, 0, span);
        self.fs = saved;
    }

    /// A constant initializer as an attribute: a scalar, or an array of them.
    /// The initializer holds every element (the zeros after the given ones included), so an
    /// initialized array has at most [`MAX_INIT_ELEMS`] elements.
    fn const_init_attr(&mut self, e: ExprId, t: Ty) -> Option<AttrId> {
        let span = self.ast.expr(e).span;
        match (self.types.kind(t).clone(), &self.ast.expr(e).kind) {
            (TyKind::Array(elem, n), ExprKind::InitList(items)) => {
                let items = items.clone();
                if let Some(n) = n {
                    if items.len() as u64 > n {
                        self.error(span, format!("excess elements in array initializer ({} for {n})", items.len()));
                    }
                }
                let mut out = Vec::new();
                for (_, it) in items {
                    out.push(self.const_init_attr(it, elem)?);
                }
                // Missing elements are zero (each is an element of the initializer).
                let n = n.unwrap_or(out.len() as u64);
                if n > MAX_INIT_ELEMS {
                    self.unsupported(span, &format!("an initialized array of {n} elements (more than {MAX_INIT_ELEMS})"));
                    return None;
                }
                while (out.len() as u64) < n && self.types.is_scalar(elem) {
                    let z = self.scalar_attr(Konst::Int(0), elem)?;
                    out.push(z);
                }
                Some(self.ctx.attr(cuprite_ir::AttrKind::Array(out)))
            }
            // `__constant__ char msg[] = "..."`: the bytes, the terminating NUL, zeros after.
            (TyKind::Array(elem, n), ExprKind::Str(parts)) if self.types.size(elem) == 1 && self.types.is_integral(elem) => {
                let parts = parts.clone();
                let mut bytes = self.string_init_bytes(&parts, span)?;
                bytes.push(0);
                let n = n.unwrap_or(bytes.len() as u64);
                if n > MAX_INIT_ELEMS {
                    self.unsupported(span, &format!("an initialized array of {n} elements (more than {MAX_INIT_ELEMS})"));
                    return None;
                }
                if bytes.len() as u64 > n + 1 {
                    self.error(span, format!("initializer-string for an array of {n} chars is too long ({} chars)", bytes.len() - 1));
                }
                bytes.resize(n as usize, 0);
                let mut out = Vec::with_capacity(bytes.len());
                for b in bytes {
                    let signed = self.types.int_kind(elem.unqual()).is_some_and(|k| k.signed());
                    let v = if signed { b as i8 as i128 } else { b as i128 };
                    out.push(self.scalar_attr(Konst::Int(v), elem)?);
                }
                Some(self.ctx.attr(cuprite_ir::AttrKind::Array(out)))
            }
            (_, ExprKind::InitList(items)) if items.len() == 1 && self.types.is_scalar(t) => {
                let it = items[0].1;
                self.const_init_attr(it, t)
            }
            _ if self.types.is_scalar(t) => match self.const_eval(e) {
                Some(k) => self.scalar_attr(k, t),
                None => {
                    self.error(span, "the initializer of a device variable must be a constant expression");
                    None
                }
            },
            _ => {
                self.unsupported(span, "this initializer of a device variable");
                None
            }
        }
    }

    pub(crate) fn scalar_attr(&mut self, k: Konst, t: Ty) -> Option<AttrId> {
        let ir_t = self.types.ir(&mut self.ctx, t)?;
        Some(match (k, self.types.float_ty(t)) {
            (k, Some(f)) => {
                let v = match k {
                    Konst::Int(i) => i as f64,
                    Konst::Float(f) => f,
                };
                let kind = match f {
                    FloatTy::Half => cuprite_ir::FloatKind::F16,
                    FloatTy::Float => cuprite_ir::FloatKind::F32,
                    FloatTy::Double => cuprite_ir::FloatKind::F64,
                };
                let bits = cuprite_ir::print::f64_to_float_bits(v, kind);
                self.ctx.attr(cuprite_ir::AttrKind::Float { bits, ty: ir_t })
            }
            (Konst::Int(i), None) => self.ctx.int_attr(i, ir_t),
            (Konst::Float(f), None) => self.ctx.int_attr(f as i128, ir_t),
        })
    }
}
