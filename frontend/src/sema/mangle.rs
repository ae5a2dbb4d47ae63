//! Symbol names as nvcc gives them: the Itanium C++ ABI's mangling (`_Z6kernelPfi`,
//! `_ZN2ns1fEPKfS1_`, `_Z5scaleIfEvPT_S0_i`) for kernels, device functions and
//! namespace-scope variables in namespaces; `extern "C"` names as written.
//!
//! Covered: builtin types, pointers, references, cv-qualifiers, records and enums (nested
//! in namespaces and classes, class template instances), function template instances
//! (their template arguments, their return type, and their parameters written in terms of
//! the template parameters `T_`, `T0_`, ...), const member functions, constructors, and
//! substitutions (`S_`, `S0_`, ...) for repeated components. A class template instance's
//! name is one component, mangled on its own (exact for the usual cases).

use super::ty::{FloatTy, IntKind, Ty, TyKind};
use super::*;
use crate::ast::TypeKind;

pub(crate) fn source_name(s: &str) -> String {
    format!("{}{s}", s.len())
}

fn int_code(k: IntKind) -> &'static str {
    match k {
        IntKind::Bool => "b",
        IntKind::Char => "c",
        IntKind::SChar => "a",
        IntKind::UChar => "h",
        IntKind::Short => "s",
        IntKind::UShort => "t",
        IntKind::Int => "i",
        IntKind::UInt => "j",
        IntKind::Long => "l",
        IntKind::ULong => "m",
        IntKind::LongLong => "x",
        IntKind::ULongLong => "y",
    }
}

/// Marks a [`Mangler`] that writes substitution keys (never a real key: not mangled text).
const CANONICAL: &str = "\0canonical";

/// `I<args>E`, each argument mangled on its own.
pub(crate) fn template_args(s: &Sema, args: &[TArg]) -> String {
    let mut out = String::from("I");
    for a in args {
        let mut m = Mangler { s, subs: Vec::new(), out: String::new(), tparams: &[] };
        m.targ(a);
        out.push_str(&m.out);
    }
    out.push('E');
    out
}

/// The components naming scope `ns` (namespaces, classes), outermost first.
fn scope_components(s: &Sema, ns: NsId) -> Vec<String> {
    let n = &s.namespaces[ns.0 as usize];
    if let Some(r) = n.record {
        return s.types.rec(r).mangled.split('\u{1}').map(str::to_string).collect();
    }
    let Some(parent) = n.parent else { return Vec::new() };
    let mut v = scope_components(s, parent);
    v.push(match n.name {
        Some(a) => source_name(s.names.str(a)),
        None => "12_GLOBAL__N_1".into(),
    });
    v
}

/// A record's or enum's components joined by `\u{1}` (the form [`super::ty::RecordInfo`]
/// keeps).
pub(crate) fn nested(s: &Sema, ns: NsId, comp: &str) -> String {
    let mut v = scope_components(s, ns);
    v.push(comp.to_string());
    v.join("\u{1}")
}

/// A namespace-scope variable's symbol.
pub(crate) fn global_symbol(s: &Sema, ns: NsId, name: &str) -> String {
    let comps = scope_components(s, ns);
    if comps.is_empty() {
        return name.to_string();
    }
    format!("_ZN{}{}E", comps.concat(), source_name(name))
}

struct Mangler<'s, 'a> {
    s: &'s Sema<'a>,
    subs: Vec<String>,
    out: String,
    /// The template parameters of the function being mangled (for `T_`).
    tparams: &'s [Option<Atom>],
}

impl Mangler<'_, '_> {
    /// `I<args>E` of a function template's instance, in the function's substitutions
    /// (`_Z5applyIL2Op0EfEvPT0_PKS1_S4_i`: the enum `Op` is `S0_`).
    fn template_args(&mut self, args: &[TArg]) {
        self.out.push('I');
        for a in args {
            self.targ(a);
        }
        self.out.push('E');
    }

    /// One template argument (a pack: `J<args>E`).
    fn targ(&mut self, a: &TArg) {
        match a {
            TArg::Type(t) => self.ty(*t),
            TArg::Value(v, t) => self.value_arg(*v, *t),
            TArg::Pack(v) => {
                self.out.push('J');
                for a in v {
                    self.targ(a);
                }
                self.out.push('E');
            }
        }
    }

    /// A non-type template argument: `Li3E`, `Lin1E`, an enumerator `L2Op1E`.
    fn value_arg(&mut self, v: i128, t: Ty) {
        self.out.push('L');
        if matches!(self.s.types.kind(t.unqual()), TyKind::Enum(_)) {
            self.ty(t.unqual());
        } else {
            self.out.push_str(self.s.types.int_kind(t).map_or("i", int_code));
        }
        if v < 0 {
            self.out.push_str(&format!("n{}E", -v));
        } else {
            self.out.push_str(&format!("{v}E"));
        }
    }
    /// Emits `key` as a substitution if seen, else runs `emit` and records `key`.
    fn sub(&mut self, key: &str) -> bool {
        if self.is_canonical() {
            return false;
        }
        if let Some(i) = self.subs.iter().position(|k| k == key) {
            self.out.push_str(&if i == 0 { "S_".to_string() } else { format!("S{}_", to_base36(i - 1)) });
            return true;
        }
        false
    }

    /// A sequence of name components, with substitutions for the longest known prefix.
    fn components(&mut self, comps: &[String], nested: bool) {
        let keys: Vec<String> = (1..=comps.len()).map(|i| comps[..i].concat()).collect();
        let known = keys.iter().rposition(|k| self.subs.contains(k));
        if known == Some(comps.len() - 1) {
            // The whole name was seen: its substitution alone.
            let i = self.subs.iter().position(|x| *x == keys[comps.len() - 1]).expect("known");
            self.out.push_str(&if i == 0 { "S_".to_string() } else { format!("S{}_", to_base36(i - 1)) });
            return;
        }
        if nested && comps.len() > 1 || known.is_some_and(|k| k + 1 < comps.len()) {
            // N ... E
            let mut body = String::new();
            let start = match known {
                Some(k) => {
                    let i = self.subs.iter().position(|x| *x == keys[k]).expect("known");
                    body.push_str(&if i == 0 { "S_".to_string() } else { format!("S{}_", to_base36(i - 1)) });
                    k + 1
                }
                None => 0,
            };
            for (i, c) in comps.iter().enumerate().skip(start) {
                body.push_str(&self.template_name_sub(&keys[i], c));
                // A template instance's component is the template name then its arguments:
                // both prefixes are candidates.
                if let Some(pos) = c.find('I').filter(|&p| p > 0 && c.ends_with('E')) {
                    let name_key = format!("{}{}", keys[i].strip_suffix(c.as_str()).unwrap_or(""), &c[..pos]);
                    if !self.subs.contains(&name_key) {
                        self.subs.push(name_key);
                    }
                }
                self.subs.push(keys[i].clone());
            }
            self.out.push('N');
            self.out.push_str(&body);
            self.out.push('E');
        } else if let Some(k) = known {
            let i = self.subs.iter().position(|x| *x == keys[k]).expect("known");
            self.out.push_str(&if i == 0 { "S_".to_string() } else { format!("S{}_", to_base36(i - 1)) });
        } else {
            let c = &comps[0];
            let text = self.template_name_sub(&keys[0], c);
            self.out.push_str(&text);
            if let Some(pos) = c.find('I').filter(|&p| p > 0 && c.ends_with('E')) {
                self.subs.push(c[..pos].to_string());
            }
            self.subs.push(keys[0].clone());
        }
    }

    /// Component `c` (whose key is `key`) as written: a class template instance whose
    /// template was seen is the template's substitution then its arguments (`S0_IiE`).
    fn template_name_sub(&self, key: &str, c: &str) -> String {
        if let Some(pos) = c.find('I').filter(|&p| p > 0 && c.ends_with('E')) {
            let name_key = format!("{}{}", key.strip_suffix(c).unwrap_or(""), &c[..pos]);
            if !self.is_canonical() {
                if let Some(i) = self.subs.iter().position(|k| *k == name_key) {
                    let sub = if i == 0 { "S_".to_string() } else { format!("S{}_", to_base36(i - 1)) };
                    return format!("{sub}{}", &c[pos..]);
                }
            }
        }
        c.to_string()
    }

    fn ty(&mut self, t: Ty) {
        let s = self.s;
        let quals = t.quals();
        // A qualified array is an array of qualified elements (`const T[4]` is `A4_K1T`).
        if let (true, TyKind::Array(e, n)) = (quals != 0, s.types.kind(t.unqual()).clone()) {
            let e = e.with_quals(quals);
            let key = format!("A{}_{}", n.unwrap_or(0), key_of(s, e));
            if self.sub(&key) {
                return;
            }
            self.out.push_str(&format!("A{}_", n.unwrap_or(0)));
            self.ty(e);
            self.subs.push(key);
            return;
        }
        if quals != 0 {
            let key = format!("{}{}", qual_prefix(quals), key_of(s, t.unqual()));
            if self.sub(&key) {
                return;
            }
            self.out.push_str(qual_prefix(quals));
            self.ty_unqual(t.unqual());
            self.subs.push(key);
            return;
        }
        self.ty_unqual(t);
    }

    fn ty_unqual(&mut self, t: Ty) {
        let s = self.s;
        match s.types.kind(t).clone() {
            TyKind::Error | TyKind::Void => self.out.push('v'),
            TyKind::Int(k) => self.out.push_str(int_code(k)),
            // cuda_fp16.h's `__half` is a class in NVIDIA's headers: mangled as one (with
            // a substitution), kernels taking halves get nvcc's names.
            TyKind::Float(FloatTy::Half) => self.components(&["6__half".to_string()], true),
            TyKind::Float(FloatTy::Float) => self.out.push('f'),
            TyKind::Float(FloatTy::Double) => self.out.push('d'),
            TyKind::Nullptr => self.out.push_str("Dn"),
            TyKind::Ptr(p) | TyKind::Ref(p) => {
                let c = if matches!(s.types.kind(t), TyKind::Ptr(_)) { 'P' } else { 'R' };
                let key = format!("{c}{}", key_of(s, p));
                if self.sub(&key) {
                    return;
                }
                self.out.push(c);
                self.ty(p);
                self.subs.push(key);
            }
            TyKind::Array(e, n) => {
                let key = format!("A{}_{}", n.unwrap_or(0), key_of(s, e));
                if self.sub(&key) {
                    return;
                }
                self.out.push_str(&format!("A{}_", n.unwrap_or(0)));
                self.ty(e);
                self.subs.push(key);
            }
            TyKind::Record(r) => {
                let comps: Vec<String> = s.types.rec(r).mangled.split('\u{1}').map(str::to_string).collect();
                self.components(&comps, true);
            }
            TyKind::Enum(e) => {
                let comps: Vec<String> = s.types.enums[e.0 as usize].mangled.split('\u{1}').map(str::to_string).collect();
                self.components(&comps, true);
            }
            TyKind::Func { ret, params, .. } => {
                let key = format!("F{}{}E", key_of(s, ret), params.iter().map(|&p| key_of(s, p)).collect::<String>());
                if self.sub(&key) {
                    return;
                }
                self.out.push('F');
                self.ty(ret);
                self.params(&params);
                self.out.push('E');
                self.subs.push(key);
            }
        }
    }

    fn params(&mut self, params: &[Ty]) {
        if params.is_empty() {
            self.out.push('v');
        }
        for &p in params {
            self.ty(p);
        }
    }

    /// A parameter or return type as written in a function template (`at`, which resolved
    /// to `t` in this instance): template parameters as `T_`, `T0_`, ...; `false` if it
    /// mentions none (then the caller mangles the resolved type).
    fn written(&mut self, at: crate::ast::TypeId, t: Ty) -> bool {
        if !mentions_tparam(self.s, at, self.tparams) {
            return false;
        }
        let s = self.s;
        let a = s.ast.ty(at);
        let mut quals = 0;
        if a.quals.is_const {
            quals |= Ty::CONST;
        }
        if a.quals.is_volatile {
            quals |= Ty::VOLATILE;
        }
        if quals == 0 {
            self.written_unqual(at, t);
            return true;
        }
        // The unqualified type is mangled once, on a copy of the substitutions: its text is
        // both the key and (without a substitution) the output. Mangling it again would
        // double the work per nested pointer.
        let mut inner = Mangler { s, subs: self.subs.clone(), out: String::new(), tparams: self.tparams };
        inner.written_unqual(at, t);
        // Keys are the type's text without substitutions (`KT0_`, never `KS1_`), so that a
        // second `const T *` finds the first.
        let canon = if self.is_canonical() { inner.out.clone() } else { self.canonical(|m| m.written_unqual(at, t)) };
        let key = format!("{}{}", qual_prefix(quals), canon);
        if self.sub(&key) {
            return true;
        }
        self.out.push_str(qual_prefix(quals));
        self.out.push_str(&inner.out);
        self.subs = inner.subs;
        self.subs.push(key);
        true
    }

    /// What `f` writes with no substitutions: a substitution's key. Linear in the type's
    /// depth: in this mode the keys of inner types are their text as written.
    fn canonical(&self, f: impl FnOnce(&mut Mangler)) -> String {
        let mut m = Mangler { s: self.s, subs: vec![CANONICAL.to_string()], out: String::new(), tparams: self.tparams };
        f(&mut m);
        m.out
    }

    /// Whether this mangler writes keys (no substitutions), see [`Mangler::canonical`].
    fn is_canonical(&self) -> bool {
        self.subs.first().is_some_and(|k| k == CANONICAL)
    }

    /// A function parameter's type as written: top-level cv-qualifiers are not part of a
    /// function's type (`const T g` mangles as `T_`).
    fn written_param(&mut self, at: crate::ast::TypeId, t: Ty) -> bool {
        if !mentions_tparam(self.s, at, self.tparams) {
            return false;
        }
        self.written_unqual(at, t.unqual());
        true
    }

    fn written_unqual(&mut self, at: crate::ast::TypeId, t: Ty) {
        let s = self.s;
        let t = t.unqual();
        match &s.ast.ty(at).kind {
            TypeKind::Named(n) if n.parts.len() == 1 && n.template_args.is_none() && self.tparam_index(n.parts[0]).is_some() => {
                let i = self.tparam_index(n.parts[0]).unwrap_or(0);
                self.tparam(i);
            }
            TypeKind::Named(n) if n.template_args.is_some() => match s.types.kind(t).clone() {
                TyKind::Record(r) => self.written_template_id(r, n.template_args.as_deref().unwrap_or(&[])),
                _ => self.ty_unqual(t),
            },
            TypeKind::Pointer(p) | TypeKind::Reference { to: p, .. } => {
                let c = if matches!(s.ast.ty(at).kind, TypeKind::Pointer(_)) { 'P' } else { 'R' };
                let pt = match s.types.kind(t) {
                    TyKind::Ptr(pt) | TyKind::Ref(pt) => *pt,
                    _ => t,
                };
                let mut probe = Mangler { s, subs: self.subs.clone(), out: String::new(), tparams: self.tparams };
                probe.written_or_resolved(*p, pt);
                let canon = if self.is_canonical() { probe.out.clone() } else { self.canonical(|m| m.written_or_resolved(*p, pt)) };
                let key = format!("{c}{canon}");
                if self.sub(&key) {
                    return;
                }
                self.out.push(c);
                self.out.push_str(&probe.out);
                self.subs = probe.subs;
                self.subs.push(key);
            }
            _ => self.ty_unqual(t),
        }
    }

    /// The index of template parameter `name` of the function being mangled.
    fn tparam_index(&self, name: Atom) -> Option<usize> {
        self.tparams.iter().position(|p| *p == Some(name))
    }

    /// Template parameter `i` (`T_`, `T0_`, ...), a substitution candidate.
    fn tparam(&mut self, i: usize) {
        let key = if i == 0 { "T_".to_string() } else { format!("T{}_", to_base36(i - 1)) };
        if self.sub(&key) {
            return;
        }
        self.out.push_str(&key);
        self.subs.push(key);
    }

    /// A class template instance (`r`) written with arguments that mention the function's
    /// template parameters (`rec<T>`: `3recIT_E`; in a namespace `N2ns3recIT_EE`). The
    /// template's name and the whole template-id are substitution candidates.
    fn written_template_id(&mut self, r: super::ty::RecId, written: &[crate::ast::TemplateArg]) {
        let s = self.s;
        let comps: Vec<String> = s.types.rec(r).mangled.split('\u{1}').map(str::to_string).collect();
        let resolved: Vec<TArg> = s.types.rec(r).inst_of.as_ref().map(|(_, a)| a.clone()).unwrap_or_default();
        let (scope, last) = comps.split_at(comps.len() - 1);
        let name = last[0].find('I').map_or(last[0].as_str(), |p| &last[0][..p]).to_string();
        let full = if self.is_canonical() {
            None
        } else {
            let k = self.canonical(|m| m.written_template_id(r, written));
            if self.sub(&k) {
                return;
            }
            Some(k)
        };
        let nested = !scope.is_empty();
        if nested {
            self.out.push('N');
            self.prefix(scope);
        }
        let name_key = format!("{}{name}", scope.concat());
        if !self.sub(&name_key) {
            self.out.push_str(&name);
            self.subs.push(name_key);
        }
        self.out.push('I');
        for (i, a) in resolved.iter().enumerate() {
            match (written.get(i), a) {
                (Some(crate::ast::TemplateArg::Type(at)), TArg::Type(t)) => {
                    if !self.written(*at, *t) {
                        self.ty(*t);
                    }
                }
                // A template parameter as a value argument is an expression: `XT0_E`
                // (not a substitution candidate).
                (Some(crate::ast::TemplateArg::Expr(e)), TArg::Value(v, t)) => match self.expr_tparam(*e) {
                    Some(0) => self.out.push_str("XT_E"),
                    Some(i) => self.out.push_str(&format!("XT{}_E", to_base36(i - 1))),
                    None => self.value_arg(*v, *t),
                },
                (_, a) => self.targ(a),
            }
        }
        self.out.push('E');
        if nested {
            self.out.push('E');
        }
        if let Some(k) = full {
            self.subs.push(k);
        }
    }

    /// The template parameter a template argument expression names, if it is one (`N`).
    fn expr_tparam(&self, e: crate::ast::ExprId) -> Option<usize> {
        match &self.s.ast.expr(e).kind {
            crate::ast::ExprKind::Name(n) => {
                let n = self.s.ast.name(*n);
                if n.parts.len() == 1 && n.template_args.is_none() {
                    self.tparam_index(n.parts[0])
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    /// Scope components (namespaces, classes) inside an `N...E`, with a substitution for
    /// the longest prefix already seen; every longer prefix becomes a candidate.
    fn prefix(&mut self, comps: &[String]) {
        let keys: Vec<String> = (1..=comps.len()).map(|i| comps[..i].concat()).collect();
        let known = keys.iter().rposition(|k| !self.is_canonical() && self.subs.contains(k));
        let start = match known {
            Some(k) => {
                let i = self.subs.iter().position(|x| *x == keys[k]).expect("known");
                self.out.push_str(&if i == 0 { "S_".to_string() } else { format!("S{}_", to_base36(i - 1)) });
                k + 1
            }
            None => 0,
        };
        for i in start..comps.len() {
            self.out.push_str(&comps[i]);
            self.subs.push(keys[i].clone());
        }
    }

    fn written_or_resolved(&mut self, at: crate::ast::TypeId, t: Ty) {
        if !self.written(at, t) {
            // Not dependent: a builtin or a named non-template type (resolved lazily by
            // name: the common cases are builtins).
            match &self.s.ast.ty(at).kind {
                TypeKind::Builtin(b) => {
                    let a = self.s.ast.ty(at);
                    let q = (a.quals.is_const as u32) | ((a.quals.is_volatile as u32) << 1);
                    let code = builtin_code(*b);
                    if q != 0 {
                        let key = format!("{}{code}", qual_prefix(q));
                        if self.sub(&key) {
                            return;
                        }
                        self.out.push_str(&key);
                        self.subs.push(key);
                    } else {
                        self.out.push_str(code);
                    }
                }
                _ => self.out.push('v'),
            }
        }
    }
}

/// The Itanium ABI's operator names (`operator+` is `pl`).
fn operator_name(name: &str) -> Option<&'static str> {
    Some(match name.strip_prefix("operator")? {
        "+" => "pl",
        "-" => "mi",
        "*" => "ml",
        "/" => "dv",
        "%" => "rm",
        "&" => "an",
        "|" => "or",
        "^" => "eo",
        "=" => "aS",
        "+=" => "pL",
        "-=" => "mI",
        "*=" => "mL",
        "/=" => "dV",
        "%=" => "rM",
        "&=" => "aN",
        "|=" => "oR",
        "^=" => "eO",
        "<<" => "ls",
        ">>" => "rs",
        "<<=" => "lS",
        ">>=" => "rS",
        "==" => "eq",
        "!=" => "ne",
        "<" => "lt",
        ">" => "gt",
        "<=" => "le",
        ">=" => "ge",
        "!" => "nt",
        "&&" => "aa",
        "||" => "oo",
        "++" => "pp",
        "--" => "mm",
        "," => "cm",
        "->" => "pt",
        "()" => "cl",
        "[]" => "ix",
        "~" => "co",
        _ => return None,
    })
}

fn builtin_code(b: crate::ast::Builtin) -> &'static str {
    use crate::ast::Builtin as B;
    match b {
        B::Void => "v",
        B::Bool => "b",
        B::Char => "c",
        B::SChar => "a",
        B::UChar => "h",
        B::Short => "s",
        B::UShort => "t",
        B::Int => "i",
        B::UInt => "j",
        B::Long => "l",
        B::ULong => "m",
        B::LongLong => "x",
        B::ULongLong => "y",
        B::Float => "f",
        B::Half => "6__half",
        B::Double => "d",
        B::LongDouble => "e",
        B::Int128 => "n",
        B::UInt128 => "o",
    }
}

fn mentions_tparam(s: &Sema, at: crate::ast::TypeId, tparams: &[Option<Atom>]) -> bool {
    match &s.ast.ty(at).kind {
        TypeKind::Named(n) => {
            (n.parts.len() == 1 && n.template_args.is_none() && tparams.contains(&Some(n.parts[0])))
                || n.template_args.as_ref().is_some_and(|args| {
                    args.iter().any(|a| match a {
                        crate::ast::TemplateArg::Type(t) => mentions_tparam(s, *t, tparams),
                        crate::ast::TemplateArg::Expr(e) => expr_names_tparam(s, *e, tparams),
                    })
                })
        }
        TypeKind::Pointer(p) | TypeKind::Reference { to: p, .. } => mentions_tparam(s, *p, tparams),
        _ => false,
    }
}

fn expr_names_tparam(s: &Sema, e: crate::ast::ExprId, tparams: &[Option<Atom>]) -> bool {
    match &s.ast.expr(e).kind {
        crate::ast::ExprKind::Name(n) => {
            let n = s.ast.name(*n);
            n.parts.len() == 1 && tparams.contains(&Some(n.parts[0]))
        }
        _ => false,
    }
}

fn qual_prefix(q: u32) -> &'static str {
    match q & 3 {
        1 => "K",
        2 => "V",
        3 => "VK",
        _ => "",
    }
}

/// The mangling of `t` without substitutions: the key a substitution candidate is known by.
/// Memoized per translation unit: computing a pointer's key needs its pointee's, so without
/// the memo `T****...` costs twice as much per `*`.
fn key_of(s: &Sema, t: Ty) -> String {
    if let Some(k) = s.mangle_keys.borrow().get(&t) {
        return k.clone();
    }
    let mut m = Mangler { s, subs: Vec::new(), out: String::new(), tparams: &[] };
    m.ty(t);
    s.mangle_keys.borrow_mut().insert(t, m.out.clone());
    m.out
}

fn to_base36(mut n: usize) -> String {
    const DIGITS: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let mut v = Vec::new();
    loop {
        v.push(DIGITS[n % 36]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    v.reverse();
    String::from_utf8(v).expect("ascii")
}

/// The symbol of function `f`.
pub(crate) fn function_symbol(s: &Sema, f: FuncId) -> String {
    let info = &s.funcs[f.0 as usize];
    let name = s.names.str(info.name);
    if info.extern_c && info.record.is_none() {
        return name.to_string();
    }
    // A function template's instance (not a member of a class template's instance).
    let fn_template = s.templates.iter().find(|t| t.decl == info.decl);
    let tparams: Vec<Option<Atom>> = fn_template
        .map(|t| {
            t.params
                .iter()
                .map(|p| match p {
                    TemplateParam::Type { name, .. } | TemplateParam::Value { name, .. } => *name,
                })
                .collect()
        })
        .unwrap_or_default();
    let mut m = Mangler { s, subs: Vec::new(), out: String::from("_Z"), tparams: &tparams };
    let ns = match info.record {
        Some(r) => s.rec_ns[r.0 as usize],
        None => info.ns,
    };
    let mut comps = scope_components(s, ns);
    let own = if info.is_ctor {
        "C1".to_string()
    } else if info.record.is_some() && name.starts_with('~') {
        // The complete object destructor.
        "D1".to_string()
    } else if name.starts_with("operator ") {
        // A conversion function: `cv` and its type.
        let mut cv = Mangler { s, subs: Vec::new(), out: String::from("cv"), tparams: &tparams };
        cv.ty(info.ret);
        cv.out
    } else {
        operator_name(name).map_or_else(|| source_name(name), str::to_string)
    };
    let targs = info.tpl_args.as_ref().filter(|_| fn_template.is_some());
    if comps.is_empty() {
        m.out.push_str(&own);
        if let Some(t) = targs {
            m.subs.push(own.clone());
            m.template_args(t);
        }
    } else {
        let keys: Vec<String> = (1..=comps.len()).map(|i| comps[..i].concat()).collect();
        m.out.push('N');
        if info.is_const_method {
            m.out.push('K');
        }
        for k in &keys {
            m.subs.push(k.clone());
        }
        m.out.push_str(&comps.concat());
        comps.push(own.clone());
        m.out.push_str(&own);
        if let Some(t) = targs {
            m.subs.push(comps.concat());
            m.template_args(t);
        }
        m.out.push('E');
    }
    // Function templates mangle their return type, and their parameters as written.
    let (ret_at, param_ats): (Option<crate::ast::TypeId>, Vec<(crate::ast::TypeId, bool)>) = match &s.ast.decl(info.decl).kind {
        DeclKind::Function { ret, params, .. } => (Some(*ret), params.iter().map(|p| (p.ty, p.pack)).collect()),
        _ => (None, Vec::new()),
    };
    if targs.is_some() {
        match ret_at {
            // A deduced return type is mangled as written: `auto` is `Da`.
            Some(r) if matches!(s.ast.ty(r).kind, TypeKind::Auto) => m.out.push_str("Da"),
            Some(r) if m.written(r, info.ret) => {}
            _ => m.ty(info.ret),
        }
    }
    // A function parameter pack is its pattern once, `Dp<pattern>` (whatever its length).
    let pack_len = info.param_pack.map_or(0, |(_, _, len)| len);
    if info.params.is_empty() && info.param_pack.is_none() {
        m.out.push('v');
    }
    let mut i = 0;
    for &(at, is_pack) in &param_ats {
        if is_pack {
            m.out.push_str("Dp");
            let t = info.params.get(i).copied().unwrap_or_else(|| s.types.error());
            if !m.written_param(at, t) {
                m.ty(t);
            }
            i += pack_len;
            continue;
        }
        let Some(&p) = info.params.get(i) else { break };
        if !(targs.is_some() && m.written_param(at, p)) {
            m.ty(p);
        }
        i += 1;
    }
    for &p in info.params.iter().skip(i) {
        m.ty(p);
    }
    m.out
}
