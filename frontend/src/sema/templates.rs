//! Templates: declaring function and class templates (with their explicit and partial
//! specializations), binding their arguments, instantiating them, and deducing function
//! template arguments from call argument types.

use super::ty::{IntKind, Ty, TyKind};
use super::*;
use crate::ast::TypeKind;

impl Sema<'_> {
    pub(crate) fn declare_template(&mut self, _d: DeclId, params: &[TemplateParam], inner: DeclId) {
        let span = self.ast.decl(inner).span;
        if params.is_empty() {
            self.declare_specialization(inner);
            return;
        }
        let name = match &self.ast.decl(inner).kind {
            DeclKind::Function { name, .. } => {
                if name.template_args.is_some() {
                    self.unsupported(span, "partial specialization of a function template");
                    return;
                }
                if name.parts.len() > 1 {
                    let name = name.clone();
                    self.declare_out_of_line_member(&name, params, inner);
                    return;
                }
                name.parts[0]
            }
            DeclKind::Record { targs: Some(_), name: Some(n), .. } => {
                let n = *n;
                let base = Name { global: false, parts: smallvec::smallvec![n], template_args: None, scope_args: Vec::new(), span };
                match self.lookup_name(&base).into_iter().find_map(|e| match e {
                    Entity::Template(t) => Some(t),
                    _ => None,
                }) {
                    Some(t) if matches!(self.ast.decl(self.templates[t.0 as usize].decl).kind, DeclKind::Record { .. }) => {
                        self.templates[t.0 as usize].partials.push((params.to_vec(), inner));
                    }
                    _ => {
                        let n = self.name_str(n).to_string();
                        self.error(span, format!("partial specialization of '{n}', which is not a class template declared before it"));
                    }
                }
                return;
            }
            DeclKind::Record { name: Some(n), .. } => *n,
            DeclKind::Var { .. } => {
                self.unsupported(span, "variable templates");
                return;
            }
            _ => {
                self.unsupported(span, "this kind of template");
                return;
            }
        };
        // The definition of a function template declared before (and perhaps already
        // instantiated by a call between the two) completes that template.
        if let Some(old) = self.declared_template(name, params, inner) {
            self.define_template(old, params, inner);
            return;
        }
        let id = TplId(self.templates.len() as u32);
        self.templates.push(TemplateInfo {
            params: params.to_vec(),
            decl: inner,
            ns: self.cur_ns,
            record: None,
            instances: FxHashMap::default(),
            name,
            specializations: Vec::new(),
            partials: Vec::new(),
            out_of_line: Vec::new(),
        });
        // Function templates overload each other (`T f(int)` and `void f(T *, int)`); a
        // redeclaration (same template and function parameter counts) replaces the earlier.
        let arity = |s: &Self, d: DeclId| match &s.ast.decl(d).kind {
            DeclKind::Function { params, .. } => Some(params.len()),
            _ => None,
        };
        if let Some(n) = arity(self, inner) {
            let entry = self.namespaces[self.cur_ns.0 as usize].names.get(&name).cloned().unwrap_or_default();
            let overloads = entry.iter().all(|e| match e {
                Entity::Func(_) => true,
                Entity::Template(t) => arity(self, self.templates[t.0 as usize].decl).is_some(),
                _ => false,
            });
            if overloads && !entry.is_empty() {
                let same = |e: &Entity| match e {
                    Entity::Template(t) => {
                        let other = &self.templates[t.0 as usize];
                        other.params.len() == params.len() && arity(self, other.decl) == Some(n)
                    }
                    _ => false,
                };
                let mut kept: Vec<Entity> = entry.iter().filter(|e| !same(e)).cloned().collect();
                kept.push(Entity::Template(id));
                self.namespaces[self.cur_ns.0 as usize].names.insert(name, kept);
                return;
            }
        }
        self.bind_ns(self.cur_ns, name, Entity::Template(id));
    }

    /// The function template in scope that definition `inner` defines: declared without a
    /// body under the same name, with as many template and function parameters.
    fn declared_template(&mut self, name: Atom, params: &[TemplateParam], inner: DeclId) -> Option<TplId> {
        let shape = |s: &Self, d: DeclId| match &s.ast.decl(d).kind {
            DeclKind::Function { params, body, .. } => Some((params.len(), body.is_some())),
            _ => None,
        };
        let (n, true) = shape(self, inner)? else { return None };
        let entry = self.namespaces[self.cur_ns.0 as usize].names.get(&name).cloned().unwrap_or_default();
        entry.into_iter().find_map(|e| match e {
            Entity::Template(t) => {
                let info = &self.templates[t.0 as usize];
                (info.params.len() == params.len() && shape(self, info.decl) == Some((n, false))).then_some(t)
            }
            _ => None,
        })
    }

    /// Makes `inner` the definition of function template `tpl`: the instances made from
    /// its declaration (calls name them) take the body, as instantiated from the definition.
    fn define_template(&mut self, tpl: TplId, params: &[TemplateParam], inner: DeclId) {
        self.templates[tpl.0 as usize].params = params.to_vec();
        self.templates[tpl.0 as usize].decl = inner;
        let instances: Vec<(Vec<TArg>, FuncId)> = self.templates[tpl.0 as usize]
            .instances
            .iter()
            .filter_map(|(a, e)| match e {
                Entity::Func(f) => Some((a.clone(), *f)),
                _ => None,
            })
            .collect();
        for (args, f) in instances {
            if self.funcs[f.0 as usize].body.is_some() {
                continue;
            }
            self.templates[tpl.0 as usize].instances.remove(&args);
            let span = self.funcs[f.0 as usize].inst_site.unwrap_or(self.funcs[f.0 as usize].span);
            let made = self.instantiate_function(tpl, args.clone(), span);
            self.templates[tpl.0 as usize].instances.insert(args, Entity::Func(f));
            let Some(d) = made else { continue };
            let def = self.funcs[d.0 as usize].clone();
            let old = &mut self.funcs[f.0 as usize];
            old.decl = def.decl;
            old.body = def.body;
            old.param_names = def.param_names;
            old.defaults = def.defaults;
            old.env = def.env;
            old.span = def.span;
            old.launch_bounds = def.launch_bounds;
            old.inline = def.inline;
        }
    }

    /// `template <> struct X<int> {...}` or `template <> T f<A>(...) {...}`: registers the
    /// declaration with the primary template, whose instance for exactly these arguments
    /// (defaults filled in) it then is. Function arguments not written are deduced from the
    /// declared parameter types, as for an explicit instantiation.
    fn declare_specialization(&mut self, inner: DeclId) {
        let span = self.ast.decl(inner).span;
        let (base, written, ptys) = match &self.ast.decl(inner).kind {
            DeclKind::Function { name, params, .. } => {
                let (name, params) = (name.clone(), params.clone());
                if name.parts.len() > 1 && name.template_args.is_none() {
                    // `template <> void X<int>::f() {...}`: a member of a specialization.
                    self.unsupported(span, "explicit specialization of a member of a class template");
                    return;
                }
                let ptys: Vec<Ty> = params.iter().map(|p| self.resolve_type(p.ty)).collect();
                (Name { template_args: None, ..name.clone() }, name.template_args, Some(ptys))
            }
            DeclKind::Record { name: Some(n), targs: Some(a), .. } => (
                Name { global: false, parts: smallvec::smallvec![*n], template_args: None, scope_args: Vec::new(), span },
                Some(a.clone()),
                None,
            ),
            _ => {
                self.unsupported(span, "this explicit specialization ('template <>')");
                return;
            }
        };
        let tpl = self.lookup_name(&base).into_iter().find_map(|e| match e {
            Entity::Template(t) => Some(t),
            _ => None,
        });
        let Some(tpl) = tpl else {
            let n = self.name_text(&base);
            self.error(span, format!("explicit specialization of '{n}', which is not a template declared before it"));
            return;
        };
        let args = match (written, ptys) {
            (Some(a), _) => match self.template_args(&a) {
                Some(a) => a,
                None => return,
            },
            (None, Some(ptys)) => match self.deduce(tpl, &ptys, &[], span) {
                Some(a) => a,
                None => {
                    let n = self.name_text(&base);
                    self.error(span, format!("cannot deduce the template arguments of this specialization of '{n}'"));
                    return;
                }
            },
            (None, None) => return,
        };
        let Some((_, args)) = self.bind_template(tpl, args, span) else { return };
        let info = &self.templates[tpl.0 as usize];
        let is_record = matches!(self.ast.decl(info.decl).kind, DeclKind::Record { .. });
        if is_record != matches!(self.ast.decl(inner).kind, DeclKind::Record { .. }) {
            let n = self.name_text(&base);
            self.error(span, format!("this specialization of '{n}' is not of the template's kind (class or function)"));
            return;
        }
        if info.instances.contains_key(&args) {
            let n = self.name_text(&base);
            self.error(span, format!("explicit specialization of '{n}' after its instantiation for the same arguments"));
            return;
        }
        let specs = &mut self.templates[tpl.0 as usize].specializations;
        specs.retain(|(a, _)| *a != args);
        specs.push((args, inner));
    }

    /// The partial specialization of class template `tpl` that `args` match, with its
    /// parameters' bindings; `Ok(None)` when none does (the primary template); `Err` when
    /// more than one does and none is more specialized by [`Sema::pattern_score`].
    fn partial_for(&mut self, tpl: TplId, args: &[TArg], span: Span) -> Result<Option<(DeclId, Env)>, ()> {
        let partials = self.templates[tpl.0 as usize].partials.clone();
        if partials.is_empty() {
            return Ok(None);
        }
        let ns = self.templates[tpl.0 as usize].ns;
        let mut found = Vec::new();
        for (params, d) in partials {
            if let Some(env) = self.match_partial(&params, d, args, ns) {
                found.push((d, env));
            }
        }
        let param_names = |env: &Env| env.iter().map(|(n, _)| *n).collect::<Vec<Atom>>();
        if found.len() > 1 {
            // The most specialized: the pattern with the most structure (pointers,
            // qualifiers, concrete types and values, a parameter used twice).
            let scores: Vec<u32> = found.iter().map(|(d, env)| self.pattern_score(*d, &param_names(env))).collect();
            let best = *scores.iter().max().expect("matches");
            if scores.iter().filter(|&&x| x == best).count() == 1 {
                let i = scores.iter().position(|&x| x == best).expect("best");
                return Ok(Some(found.swap_remove(i)));
            }
            let n = self.name_str(self.templates[tpl.0 as usize].name).to_string();
            let mut diag =
                Diagnostic::error(span, format!("more than one partial specialization of '{n}' matches '{n}{}'", self.show_targs(args)));
            for (d, _) in &found {
                diag = diag.note(Some(self.ast.decl(*d).span), "matches");
            }
            diag = diag.note(None, "cuprite orders partial specializations by how much of their pattern is fixed, and these tie");
            self.error_with(diag);
            return Err(());
        }
        Ok(found.pop())
    }

    /// How much of partial specialization `d`'s pattern is fixed, approximating C++'s partial
    /// ordering: `X<const T *>` (3) over `X<T *>` (2) over `X<T>`; `S<T, T>` over `S<T, U>`.
    fn pattern_score(&self, d: DeclId, params: &[Atom]) -> u32 {
        let DeclKind::Record { targs: Some(pattern), .. } = &self.ast.decl(d).kind else { return 0 };
        let mut seen: Vec<Atom> = Vec::new();
        let mut score = 0;
        let mut work: Vec<crate::ast::TypeId> = Vec::new();
        for p in pattern {
            match p {
                TemplateArg::Type(t) => work.push(*t),
                TemplateArg::Expr(e) => match &self.ast.expr(*e).kind {
                    ExprKind::Name(n) if self.ast.name(*n).parts.len() == 1 && params.contains(&self.ast.name(*n).parts[0]) => {
                        let a = self.ast.name(*n).parts[0];
                        score += if seen.contains(&a) { 1 } else { 0 };
                        seen.push(a);
                    }
                    _ => score += 2,
                },
            }
        }
        while let Some(t) = work.pop() {
            let at = self.ast.ty(t);
            score += at.quals.is_const as u32 + at.quals.is_volatile as u32;
            match &at.kind {
                TypeKind::Pointer(p) | TypeKind::Reference { to: p, .. } | TypeKind::Array { elem: p, .. } => {
                    score += 1;
                    work.push(*p);
                }
                TypeKind::Named(n) if n.parts.len() == 1 && n.template_args.is_none() && params.contains(&n.parts[0]) => {
                    // A parameter: its second use fixes it.
                    let a = n.parts[0];
                    if seen.contains(&a) {
                        score += 1;
                    }
                    seen.push(a);
                }
                TypeKind::Named(n) if n.template_args.is_some() => {
                    score += 1;
                    for a in n.template_args.iter().flatten() {
                        if let TemplateArg::Type(t) = a {
                            work.push(*t);
                        }
                    }
                }
                _ => score += 2,
            }
        }
        score
    }

    /// Whether the pattern of partial specialization `d` (parameters `params`) matches
    /// `args`: its parameters deduced from them, then the pattern, substituted, equal to them.
    fn match_partial(&mut self, params: &[TemplateParam], d: DeclId, args: &[TArg], ns: NsId) -> Option<Env> {
        let DeclKind::Record { targs: Some(pattern), .. } = &self.ast.decl(d).kind else { return None };
        let pattern = pattern.clone();
        if pattern.len() != args.len() {
            return None;
        }
        let names: Vec<Option<Atom>> = params
            .iter()
            .map(|p| match p {
                TemplateParam::Type { name, .. } | TemplateParam::Value { name, .. } => *name,
            })
            .collect();
        let saved_ns = std::mem::replace(&mut self.cur_ns, ns);
        let mut bound: FxHashMap<Atom, TArg> = FxHashMap::default();
        let mut ok = true;
        for (p, a) in pattern.iter().zip(args) {
            let lone = |s: &Self, p: &TemplateArg| -> Option<Atom> {
                let n = match p {
                    TemplateArg::Type(t) => match &s.ast.ty(*t).kind {
                        TypeKind::Named(n) => n,
                        _ => return None,
                    },
                    TemplateArg::Expr(e) => match &s.ast.expr(*e).kind {
                        ExprKind::Name(n) => s.ast.name(*n),
                        _ => return None,
                    },
                };
                (n.parts.len() == 1 && !n.global && n.template_args.is_none() && names.contains(&Some(n.parts[0]))).then_some(n.parts[0])
            };
            match (lone(self, p), p, a) {
                (Some(n), _, TArg::Value(..)) => match bound.get(&n) {
                    Some(b) => ok &= b == a,
                    None => {
                        bound.insert(n, a.clone());
                    }
                },
                (_, TemplateArg::Type(pt), TArg::Type(at)) => ok &= self.deduce_one(*pt, *at, &names, &mut bound, &[], false),
                _ => {}
            }
            if !ok {
                break;
            }
        }
        self.cur_ns = saved_ns;
        if !ok {
            return None;
        }
        // Every parameter deduced, with the kind it is declared with.
        let mut env: Env = Vec::new();
        for (p, n) in params.iter().zip(&names) {
            let n = (*n)?;
            let e = match (p, bound.get(&n)?) {
                (TemplateParam::Type { .. }, TArg::Type(t)) => Entity::Type(*t),
                (TemplateParam::Value { .. }, TArg::Value(v, t)) => Entity::Const(Konst::Int(*v), *t),
                _ => return None,
            };
            env.push((n, e));
        }
        // The pattern with the bindings must give the arguments exactly.
        let got = self.in_env(ns, &env, |s| {
            let mark = s.diags.len();
            let got = s.template_args(&pattern);
            s.diags.truncate(mark);
            got
        });
        let same = got.is_some_and(|g| {
            g.len() == args.len()
                && g.iter().zip(args).all(|(x, y)| match (x, y) {
                    (TArg::Value(a, _), TArg::Value(b, _)) => a == b,
                    _ => x == y,
                })
        });
        same.then_some(env)
    }

    /// The explicit specialization of `tpl` for `args` (complete, defaults filled in).
    /// The specialization an instance of class template `tpl` for `args` comes from, if
    /// not the primary template: an explicit one (no bindings) or the partial one that
    /// matches best (with its bindings); `Err` after an error.
    fn specialized_source(&mut self, tpl: TplId, args: &[TArg], span: Span) -> Result<Option<(DeclId, Env)>, ()> {
        match self.specialization(tpl, args) {
            Some(d) => Ok(Some((d, Vec::new()))),
            None => self.partial_for(tpl, args, span),
        }
    }

    fn specialization(&self, tpl: TplId, args: &[TArg]) -> Option<DeclId> {
        self.templates[tpl.0 as usize].specializations.iter().find(|(a, _)| a == args).map(|(_, d)| *d)
    }

    /// The bindings of `tpl`'s parameters to `args`, with defaults filled in; `None` after
    /// an error.
    fn bind_template(&mut self, tpl: TplId, mut args: Vec<TArg>, span: Span) -> Option<(Env, Vec<TArg>)> {
        let info = self.templates[tpl.0 as usize].clone();
        // A parameter pack (the last parameter) takes the arguments left, as one argument.
        if let Some(j) = info.params.iter().position(TemplateParam::is_pack) {
            if j + 1 != info.params.len() {
                self.unsupported(span, "a template parameter pack that is not the last template parameter");
                return None;
            }
            if !(args.len() == info.params.len() && matches!(args[j], TArg::Pack(_))) {
                let rest = if args.len() > j { args.split_off(j) } else { Vec::new() };
                args.push(TArg::Pack(rest));
            }
        }
        if args.len() > info.params.len() {
            let n = self.name_str(info.name);
            self.error(span, format!("too many template arguments for '{n}'"));
            return None;
        }
        let mut env: Vec<(Atom, Entity)> = Vec::new();
        for (i, p) in info.params.iter().enumerate() {
            if i >= args.len() {
                // A default, evaluated with the earlier bindings.
                self.push_scope();
                for (n, e) in &env {
                    self.bind_local(*n, e.clone());
                }
                let saved_ns = self.cur_ns;
                self.cur_ns = info.ns;
                let a = match p {
                    TemplateParam::Type { default: Some(t), .. } => Some(TArg::Type(self.resolve_type(*t))),
                    TemplateParam::Value { default: Some(e), ty, .. } => {
                        let t = self.resolve_type(*ty);
                        match self.const_eval(*e) {
                            Some(Konst::Int(v)) => Some(TArg::Value(v, t)),
                            _ => None,
                        }
                    }
                    _ => None,
                };
                self.cur_ns = saved_ns;
                self.pop_scope();
                match a {
                    Some(a) => args.push(a),
                    None => {
                        let n = self.name_str(info.name);
                        self.error(span, format!("too few template arguments for '{n}'"));
                        return None;
                    }
                }
            }
            let a = args[i].clone();
            let is_type = matches!(p, TemplateParam::Type { .. });
            let kind_ok = |a: &TArg| matches!((is_type, a), (true, TArg::Type(_)) | (false, TArg::Value(..)));
            let ok = match &a {
                TArg::Pack(v) => p.is_pack() && v.iter().all(kind_ok),
                a => !p.is_pack() && kind_ok(a),
            };
            if !ok {
                let n = self.name_str(info.name);
                self.error(span, format!("template argument {} of '{n}' is of the wrong kind (type or value)", i + 1));
                return None;
            }
            // Value arguments take the parameter's type.
            let typed = |s: &mut Self, a: TArg| match (p, a) {
                (TemplateParam::Value { ty, .. }, TArg::Value(v, _)) => {
                    let t = s.resolve_type(*ty);
                    TArg::Value(v, t)
                }
                (_, a) => a,
            };
            let a = match a {
                TArg::Pack(v) => TArg::Pack(v.into_iter().map(|x| typed(self, x)).collect()),
                a => typed(self, a),
            };
            args[i] = a.clone();
            if let Some(n) = p.name() {
                env.push((n, a.entity()));
            }
        }
        Some((env, args))
    }

    /// The instance of class template `tpl` for `args`.
    pub(crate) fn instantiate_record(&mut self, tpl: TplId, args: Vec<TArg>, span: Span) -> Option<Ty> {
        let (env, args) = self.bind_template(tpl, args, span)?;
        if let Some(Entity::Type(t)) = self.templates[tpl.0 as usize].instances.get(&args) {
            return Some(*t);
        }
        let info = self.templates[tpl.0 as usize].clone();
        if !matches!(self.ast.decl(info.decl).kind, DeclKind::Record { .. }) {
            let n = self.name_str(info.name);
            self.error(span, format!("'{n}' is not a class template"));
            return None;
        }
        let display = format!("{}{}", self.name_str(info.name), self.show_targs(&args));
        // Which declaration the instance comes from: an explicit or partial specialization,
        // or the primary template.
        let (from, env) = match self.specialized_source(tpl, &args, span) {
            Ok(Some(source)) => source,
            Ok(None) => (info.decl, env),
            Err(()) => return None,
        };
        self.inst_stack.push((format!("class template '{display}'"), span));
        let saved_ns = self.cur_ns;
        let saved_scopes = std::mem::take(&mut self.scopes);
        self.cur_ns = info.ns;
        // Bind first so that members can name the instance (a self-referencing pointer).
        let r = RecId(self.types.records.len() as u32);
        let t = self.rec_ty(r);
        self.templates[tpl.0 as usize].instances.insert(args.clone(), Entity::Type(t));
        let got = self.declare_record(from, Some((display, args.clone(), tpl.0)), env);
        if let Some(r) = got {
            self.types.records[r.0 as usize].inst_of = Some((tpl.0, args.clone()));
            if from == info.decl {
                for (params, d) in &info.out_of_line {
                    self.define_instance_member(params, *d, r, &args);
                }
            }
        }
        self.scopes = saved_scopes;
        self.cur_ns = saved_ns;
        self.inst_stack.pop();
        debug_assert_eq!(got, Some(r));
        Some(t)
    }

    /// `template <class T> R X<T>::f(...) {...}`: a member function of class template `X`
    /// defined outside it. Instances of `X` made before get it now, later ones when made.
    fn declare_out_of_line_member(&mut self, name: &Name, params: &[TemplateParam], inner: DeclId) {
        let k = name.parts.len() - 2;
        let scope = Name {
            parts: name.parts[..=k].into(),
            template_args: None,
            scope_args: name.scope_args.iter().filter(|(i, _)| *i < k).cloned().collect(),
            ..name.clone()
        };
        let tpl = self.lookup_name(&scope).into_iter().find_map(|e| match e {
            Entity::Template(t) if matches!(self.ast.decl(self.templates[t.0 as usize].decl).kind, DeclKind::Record { .. }) => Some(t),
            _ => None,
        });
        let Some(tpl) = tpl else {
            self.unsupported(name.span, "an out-of-line definition of a member template, or of a namespace member template");
            return;
        };
        // The class's arguments must be the definition's own parameters in order: a member
        // of the primary template (one of a partial specialization's is not taken yet).
        let written = name.scope_args.iter().find(|(i, _)| *i == k).map(|(_, a)| a.clone()).unwrap_or_default();
        let names: Vec<Option<Atom>> = params
            .iter()
            .map(|p| match p {
                TemplateParam::Type { name, .. } | TemplateParam::Value { name, .. } => *name,
            })
            .collect();
        let primary = written.len() == names.len()
            && written.iter().zip(&names).all(|(a, n)| {
                let atom = match a {
                    TemplateArg::Type(t) => match &self.ast.ty(*t).kind {
                        TypeKind::Named(n) if n.parts.len() == 1 && n.template_args.is_none() => Some(n.parts[0]),
                        _ => None,
                    },
                    TemplateArg::Expr(e) => match &self.ast.expr(*e).kind {
                        ExprKind::Name(n) => {
                            let n = self.ast.name(*n);
                            (n.parts.len() == 1 && n.template_args.is_none()).then(|| n.parts[0])
                        }
                        _ => None,
                    },
                };
                atom.is_some() && atom == *n
            });
        if self.templates[tpl.0 as usize].params.len() != params.len() {
            let n = self.name_str(self.templates[tpl.0 as usize].name).to_string();
            self.error(name.span, format!("the template parameters of this definition do not match those of class template '{n}'"));
            return;
        }
        if !primary {
            self.unsupported(name.span, "an out-of-line member definition of a partial specialization");
            return;
        }
        self.templates[tpl.0 as usize].out_of_line.push((params.to_vec(), inner));
        let made: Vec<(Vec<TArg>, Ty)> = self.templates[tpl.0 as usize]
            .instances
            .iter()
            .filter_map(|(a, e)| match e {
                Entity::Type(t) => Some((a.clone(), *t)),
                _ => None,
            })
            .collect();
        for (args, t) in made {
            // Only instances of the primary template (not of a specialization).
            let Some(r) = self.types.record(t) else { continue };
            if !matches!(self.specialized_source(tpl, &args, name.span), Ok(None)) {
                continue;
            }
            self.define_instance_member(params, inner, r, &args);
        }
    }

    /// Declares (or completes) a member function of instance `r` of a class template from
    /// its out-of-line definition `d`, whose `params` stand for the instance's `args`.
    fn define_instance_member(&mut self, params: &[TemplateParam], d: DeclId, r: RecId, args: &[TArg]) {
        let env: Env = params
            .iter()
            .zip(args)
            .filter_map(|(p, a)| {
                let n = match p {
                    TemplateParam::Type { name, .. } | TemplateParam::Value { name, .. } => (*name)?,
                };
                Some((n, a.entity()))
            })
            .collect();
        let saved_ns = self.cur_ns;
        let saved_scopes = std::mem::take(&mut self.scopes);
        self.cur_ns = self.rec_ns[r.0 as usize];
        // Members of an instance carry its arguments (for their symbols), so the definition
        // merges with the declaration by them.
        self.declare_function(d, Some(r), env, Some(args.to_vec()), true, true);
        self.scopes = saved_scopes;
        self.cur_ns = saved_ns;
    }

    /// The instance of function template `tpl` for `args` (all given or deduced).
    pub(crate) fn instantiate_function(&mut self, tpl: TplId, args: Vec<TArg>, span: Span) -> Option<FuncId> {
        let (env, args) = self.bind_template(tpl, args, span)?;
        if let Some(Entity::Func(f)) = self.templates[tpl.0 as usize].instances.get(&args) {
            return Some(*f);
        }
        // A template that instantiates itself without end (`f<i>` calling `f<i - 1>`, whose
        // end case is a specialization not taken) stops here, as compilers' depth limits.
        if self.templates[tpl.0 as usize].instances.len() >= MAX_INSTANCES {
            let n = self.name_str(self.templates[tpl.0 as usize].name).to_string();
            self.error(
                span,
                format!("more than {MAX_INSTANCES} instances of function template '{n}': is its instantiation recursive without end?"),
            );
            return None;
        }
        let info = self.templates[tpl.0 as usize].clone();
        let saved_ns = self.cur_ns;
        let saved_scopes = std::mem::take(&mut self.scopes);
        // The instance's declaration is read outside any pack expansion of the caller.
        let saved_pack = self.pack_index.take();
        self.cur_ns = info.ns;
        let record = self.namespaces[info.ns.0 as usize].record.filter(|_| !self.is_static_fn(info.decl));
        let f = match self.specialization(tpl, &args) {
            Some(d) => self.declare_function(d, record, Vec::new(), Some(args.clone()), false, true),
            None => self.declare_function(info.decl, record, env, Some(args.clone()), false, true),
        };
        self.scopes = saved_scopes;
        self.cur_ns = saved_ns;
        self.pack_index = saved_pack;
        let f = f?;
        self.funcs[f.0 as usize].inst_site = Some(span);
        self.templates[tpl.0 as usize].instances.insert(args, Entity::Func(f));
        Some(f)
    }

    pub(crate) fn explicit_instantiation(&mut self, inner: DeclId) {
        let span = self.ast.decl(inner).span;
        match &self.ast.decl(inner).kind {
            DeclKind::Function { name, params, .. } => {
                let (name, params) = (name.clone(), params.clone());
                let base = Name { template_args: None, ..name.clone() };
                let Some(Entity::Template(tpl)) = self.lookup_name(&base).into_iter().next() else {
                    let n = self.name_text(&name);
                    self.error(span, format!("explicit instantiation of '{n}', which is not a template"));
                    return;
                };
                let args = match &name.template_args {
                    Some(a) => {
                        let a = a.clone();
                        match self.template_args(&a) {
                            Some(a) => a,
                            None => return,
                        }
                    }
                    None => {
                        // Deduce from the declared parameter types.
                        let ptys: Vec<Ty> = params.iter().map(|p| self.resolve_type(p.ty)).collect();
                        match self.deduce(tpl, &ptys, &[], span) {
                            Some(a) => a,
                            None => return,
                        }
                    }
                };
                if let Some(f) = self.instantiate_function(tpl, args, span) {
                    self.require_func(f);
                }
            }
            DeclKind::Record { .. } => {
                self.unsupported(span, "explicit instantiation of a class template");
            }
            _ => self.unsupported(span, "this explicit instantiation"),
        }
    }

    /// Deduces `tpl`'s arguments from call argument types (`explicit`: the ones given).
    pub(crate) fn deduce(&mut self, tpl: TplId, arg_tys: &[Ty], explicit: &[TArg], _span: Span) -> Option<Vec<TArg>> {
        let info = self.templates[tpl.0 as usize].clone();
        let DeclKind::Function { params, .. } = &self.ast.decl(info.decl).kind else { return None };
        let params = params.clone();
        let names: Vec<Option<Atom>> = info
            .params
            .iter()
            .map(|p| match p {
                TemplateParam::Type { name, .. } | TemplateParam::Value { name, .. } => *name,
            })
            .collect();
        let mut bound: FxHashMap<Atom, TArg> = FxHashMap::default();
        // The template parameter pack (the last parameter) takes the explicit arguments left.
        let pack_at = info.params.iter().position(TemplateParam::is_pack);
        for (i, a) in explicit.iter().enumerate() {
            match (pack_at, names.get(i)) {
                (Some(j), _) if i >= j => {
                    let Some(Some(n)) = names.get(j) else { continue };
                    match bound.entry(*n).or_insert_with(|| TArg::Pack(Vec::new())) {
                        TArg::Pack(v) => v.push(a.clone()),
                        _ => return None,
                    }
                }
                (_, Some(Some(n))) => {
                    bound.insert(*n, a.clone());
                }
                _ => {}
            }
        }
        let fixed: Vec<Atom> = bound.keys().copied().collect();
        // Names in the parameter types are the template's.
        let saved_ns = std::mem::replace(&mut self.cur_ns, info.ns);
        let mut ok = true;
        for (i, p) in params.iter().enumerate() {
            if p.pack {
                // A function parameter pack takes the arguments left: each deduces the packs
                // its pattern names, one element each.
                let packs: Vec<Atom> = names
                    .iter()
                    .zip(&info.params)
                    .filter_map(|(n, tp)| n.filter(|n| tp.is_pack() && !fixed.contains(n) && self.type_mentions(p.ty, *n)))
                    .collect();
                if packs.is_empty() {
                    break;
                }
                let mut lists: Vec<Vec<TArg>> = vec![Vec::new(); packs.len()];
                for &a in arg_tys.iter().skip(i) {
                    for n in &packs {
                        bound.remove(n);
                    }
                    if !self.deduce_one(p.ty, a, &names, &mut bound, &fixed, true) {
                        ok = false;
                        break;
                    }
                    for (n, l) in packs.iter().zip(&mut lists) {
                        if let Some(x) = bound.remove(n) {
                            l.push(x);
                        }
                    }
                }
                for (n, l) in packs.into_iter().zip(lists) {
                    bound.insert(n, TArg::Pack(l));
                }
                break;
            }
            let Some(&a) = arg_tys.get(i) else { break };
            if !self.deduce_one(p.ty, a, &names, &mut bound, &fixed, true) {
                ok = false;
                break;
            }
        }
        self.cur_ns = saved_ns;
        if !ok {
            return None;
        }
        let mut out = Vec::new();
        for (i, n) in names.iter().enumerate() {
            match n.and_then(|n| bound.get(&n)) {
                Some(a) => out.push(a.clone()),
                // A pack deduced from nothing is empty.
                None if info.params[i].is_pack() => out.push(TArg::Pack(Vec::new())),
                None => {
                    // Undeduced: a default must provide it (bind_template checks).
                    let has_default = matches!(
                        info.params[i],
                        TemplateParam::Type { default: Some(_), .. } | TemplateParam::Value { default: Some(_), .. }
                    );
                    if !has_default {
                        return None;
                    }
                    break;
                }
            }
        }
        Some(out)
    }

    /// Whether type `t` (as written) names `name`.
    fn type_mentions(&self, t: crate::ast::TypeId, name: Atom) -> bool {
        match &self.ast.ty(t).kind {
            TypeKind::Named(n) => {
                (n.parts.len() == 1 && n.parts[0] == name)
                    || n.template_args.iter().flatten().any(|a| matches!(a, TemplateArg::Type(t) if self.type_mentions(*t, name)))
            }
            TypeKind::Pointer(t) | TypeKind::Reference { to: t, .. } | TypeKind::Array { elem: t, .. } | TypeKind::Expand(t) => {
                self.type_mentions(*t, name)
            }
            _ => false,
        }
    }

    /// Deduces from one parameter type; `fixed`: parameters given explicitly (not deduced).
    fn deduce_one(
        &mut self,
        pt: crate::ast::TypeId,
        a: Ty,
        names: &[Option<Atom>],
        bound: &mut FxHashMap<Atom, TArg>,
        fixed: &[Atom],
        top: bool,
    ) -> bool {
        let at = self.ast.ty(pt).clone();
        let mut quals = 0;
        if at.quals.is_const {
            quals |= Ty::CONST;
        }
        if at.quals.is_volatile {
            quals |= Ty::VOLATILE;
        }
        match &at.kind {
            TypeKind::Named(n) if n.parts.len() == 1 && !n.global && names.contains(&Some(n.parts[0])) => {
                // By value: arrays decay and top-level qualifiers go.
                let mut a = a;
                if top {
                    a = match self.types.kind(a.unqual()).clone() {
                        TyKind::Array(e, _) => self.types.ptr(e),
                        TyKind::Ref(t) => t.unqual(),
                        _ => a.unqual(),
                    };
                } else {
                    a = Ty::with_quals(a.unqual(), a.quals() & !quals);
                }
                match bound.get(&n.parts[0]) {
                    Some(TArg::Type(t)) => *t == a || fixed.contains(&n.parts[0]),
                    Some(_) => false,
                    None => {
                        bound.insert(n.parts[0], TArg::Type(a));
                        true
                    }
                }
            }
            // `X<A, N>` against an instance of class template `X`.
            TypeKind::Named(n) if n.template_args.is_some() => {
                let base = Name { template_args: None, ..n.clone() };
                let Some(Entity::Template(tpl)) = self.lookup_name(&base).into_iter().next() else { return true };
                let a = match self.types.kind(a.unqual()).clone() {
                    TyKind::Ref(t) => t.unqual(),
                    _ => a.unqual(),
                };
                let Some(r) = self.types.record(a) else { return true };
                let Some((t, args)) = self.types.rec(r).inst_of.clone() else { return true };
                if t != tpl.0 {
                    return false;
                }
                let pargs = n.template_args.clone().unwrap_or_default();
                for (p, arg) in pargs.iter().zip(args) {
                    // A lone name may have been parsed as a type: a value parameter then.
                    let p = match p {
                        TemplateArg::Type(pt) => match &self.ast.ty(*pt).kind {
                            TypeKind::Named(x)
                                if matches!(arg, TArg::Value(..)) && x.parts.len() == 1 && names.contains(&Some(x.parts[0])) =>
                            {
                                if let Some(TArg::Value(b, _)) = bound.get(&x.parts[0]) {
                                    if !matches!(arg, TArg::Value(c, _) if c == *b) {
                                        return false;
                                    }
                                } else {
                                    bound.insert(x.parts[0], arg.clone());
                                }
                                continue;
                            }
                            _ => p,
                        },
                        _ => p,
                    };
                    let ok = match (p, arg) {
                        (TemplateArg::Type(pt), TArg::Type(at)) => self.deduce_one(*pt, at, names, bound, fixed, false),
                        (TemplateArg::Expr(e), arg) => match &self.ast.expr(*e).kind {
                            ExprKind::Name(x)
                                if self.ast.name(*x).parts.len() == 1 && names.contains(&Some(self.ast.name(*x).parts[0])) =>
                            {
                                let x = self.ast.name(*x);
                                let v = arg;
                                match bound.get(&x.parts[0]) {
                                    Some(TArg::Value(b, _)) => matches!(v, TArg::Value(c, _) if c == *b),
                                    Some(b) => *b == v,
                                    None => {
                                        bound.insert(x.parts[0], v);
                                        true
                                    }
                                }
                            }
                            _ => true,
                        },
                        _ => true,
                    };
                    if !ok {
                        return false;
                    }
                }
                true
            }
            TypeKind::Pointer(p) => {
                let a = match self.types.kind(a.unqual()).clone() {
                    TyKind::Array(e, _) => self.types.ptr(e),
                    _ => a,
                };
                match self.types.kind(a.unqual()).clone() {
                    TyKind::Ptr(q) => self.deduce_one(*p, q, names, bound, fixed, false),
                    _ => true,
                }
            }
            TypeKind::Reference { to, .. } => {
                let a = match self.types.kind(a.unqual()).clone() {
                    TyKind::Ref(t) => t,
                    _ => a,
                };
                self.deduce_one(*to, a, names, bound, fixed, false)
            }
            TypeKind::Array { elem, size } => {
                if let TyKind::Array(e, n) = self.types.kind(a.unqual()).clone() {
                    if let (Some(s), Some(n)) = (size, n) {
                        if let ExprKind::Name(nm) = &self.ast.expr(*s).kind {
                            let nm = self.ast.name(*nm);
                            if nm.parts.len() == 1 && names.contains(&Some(nm.parts[0])) {
                                let t = self.types.int(IntKind::Int);
                                bound.entry(nm.parts[0]).or_insert(TArg::Value(n as i128, t));
                            }
                        }
                    }
                    return self.deduce_one(*elem, e, names, bound, fixed, false);
                }
                true
            }
            _ => true,
        }
    }
}

/// Most instances of one function template (a recursive instantiation without an end case
/// stops here with a diagnostic).
const MAX_INSTANCES: usize = 1024;
