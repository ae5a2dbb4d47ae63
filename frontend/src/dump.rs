//! A readable dump of the syntax tree (for tests and `cuprite compile --emit=ast`): one
//! line per declaration and statement, expressions as S-expressions. Recursion is bounded
//! by the parser's nesting limit.

use crate::ast::*;
use crate::intern::Interner;

/// Dumps the top-level declarations, leaving out those of cuprite's built-in headers
/// (their names are spelled in a built-in file).
pub fn dump(ast: &Ast, i: &Interner, sm: &crate::SourceMap) -> String {
    let mut d = Dumper { ast, i, out: String::new() };
    for &decl in &ast.top {
        if decl_in_builtin(ast, decl, sm) {
            continue;
        }
        d.decl(decl, 0);
    }
    d.out
}

struct Dumper<'a> {
    ast: &'a Ast,
    i: &'a Interner,
    out: String,
}

impl Dumper<'_> {
    fn line(&mut self, depth: usize, s: &str) {
        for _ in 0..depth {
            self.out.push_str("  ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }

    fn name(&self, n: &Name) -> String {
        let mut s = String::new();
        if n.global {
            s.push_str("::");
        }
        for (k, p) in n.parts.iter().enumerate() {
            if k > 0 {
                s.push_str("::");
            }
            s.push_str(self.i.str(*p));
        }
        if let Some(args) = &n.template_args {
            s.push('<');
            for (k, a) in args.iter().enumerate() {
                if k > 0 {
                    s.push_str(", ");
                }
                match a {
                    TemplateArg::Type(t) => s.push_str(&self.ty(*t)),
                    TemplateArg::Expr(e) => s.push_str(&self.expr(*e)),
                }
            }
            s.push('>');
        }
        s
    }

    fn ty(&self, t: TypeId) -> String {
        let ty = self.ast.ty(t);
        let mut s = String::new();
        if ty.quals.is_const {
            s.push_str("const ");
        }
        if ty.quals.is_volatile {
            s.push_str("volatile ");
        }
        if ty.quals.is_restrict {
            s.push_str("restrict ");
        }
        match &ty.kind {
            TypeKind::Builtin(b) => s.push_str(&format!("{b:?}")),
            TypeKind::Named(n) => s.push_str(&self.name(n)),
            TypeKind::Elaborated { keyword, name } => s.push_str(&format!("{} {}", self.i.str(*keyword), self.name(name))),
            TypeKind::Pointer(p) => s.push_str(&format!("ptr({})", self.ty(*p))),
            TypeKind::Reference { to, rvalue } => s.push_str(&format!("{}({})", if *rvalue { "rref" } else { "ref" }, self.ty(*to))),
            TypeKind::Array { elem, size } => {
                let n = size.map_or(String::new(), |e| self.expr(e));
                s.push_str(&format!("array({}, {n})", self.ty(*elem)));
            }
            TypeKind::Function { ret, params, variadic } => {
                let ps: Vec<String> = params.iter().map(|p| self.ty(*p)).collect();
                s.push_str(&format!("fn({}{}) -> {}", ps.join(", "), if *variadic { ", ..." } else { "" }, self.ty(*ret)));
            }
            TypeKind::Decltype(e) => s.push_str(&format!("decltype({})", self.expr(*e))),
            TypeKind::Typeof(e) => s.push_str(&format!("__typeof__({})", self.expr(*e))),
            TypeKind::Defined(d) => s.push_str(
                match &self.ast.decl(*d).kind {
                    DeclKind::Enum { .. } => "enum (unnamed)".to_string(),
                    DeclKind::Record { keyword, .. } => format!("{} (unnamed)", self.i.str(*keyword)),
                    _ => "(unnamed)".to_string(),
                }
                .as_str(),
            ),
            TypeKind::Auto => s.push_str("auto"),
            TypeKind::Expand(t) => s.push_str(&format!("{}...", self.ty(*t))),
        }
        s
    }

    fn expr(&self, e: ExprId) -> String {
        let x = self.ast.expr(e);
        match &x.kind {
            ExprKind::Int(a) | ExprKind::Float(a) | ExprKind::Char(a) => self.i.str(*a).to_string(),
            ExprKind::Str(parts) => parts.iter().map(|p| self.i.str(*p)).collect::<Vec<_>>().join(" "),
            ExprKind::Bool(b) => b.to_string(),
            ExprKind::Nullptr => "nullptr".into(),
            ExprKind::This => "this".into(),
            ExprKind::Name(n) => self.name(self.ast.name(*n)),
            ExprKind::Unary(op, a) => format!("({op:?} {})", self.expr(*a)),
            ExprKind::Binary(op, a, b) => format!("({op:?} {} {})", self.expr(*a), self.expr(*b)),
            ExprKind::Assign { op, lhs, rhs } => match op {
                Some(op) => format!("({op:?}= {} {})", self.expr(*lhs), self.expr(*rhs)),
                None => format!("(= {} {})", self.expr(*lhs), self.expr(*rhs)),
            },
            ExprKind::Cond(c, a, b) => format!("(? {} {} {})", self.expr(*c), self.expr(*a), self.expr(*b)),
            ExprKind::Call { callee, args } => {
                let a: Vec<String> = args.iter().map(|a| self.expr(*a)).collect();
                format!("(call {} {})", self.expr(*callee), a.join(" "))
            }
            ExprKind::Launch { callee, config, args } => {
                let c: Vec<String> = config.iter().map(|a| self.expr(*a)).collect();
                let a: Vec<String> = args.iter().map(|a| self.expr(*a)).collect();
                format!("(launch {} <<<{}>>> {})", self.expr(*callee), c.join(" "), a.join(" "))
            }
            ExprKind::Index(a, b) => format!("(index {} {})", self.expr(*a), self.expr(*b)),
            ExprKind::Member { base, arrow, name } => {
                format!("({} {} {})", if *arrow { "->" } else { "." }, self.expr(*base), self.name(self.ast.name(*name)))
            }
            ExprKind::Cast { kind, ty, expr } => format!("(cast-{kind:?} {} {})", self.ty(*ty), self.expr(*expr)),
            ExprKind::Construct { ty, args, braces } => {
                let a: Vec<String> = args.iter().map(|a| self.expr(*a)).collect();
                format!("(construct{} {} {})", if *braces { "{}" } else { "()" }, self.ty(*ty), a.join(" "))
            }
            ExprKind::New { placement, ty, count, args, braces } => {
                let mut s = String::from("(new");
                if let Some(p) = placement {
                    s.push_str(&format!(" (at {})", self.expr(*p)));
                }
                s.push_str(&format!(" {}", self.ty(*ty)));
                if let Some(n) = count {
                    s.push_str(&format!(" [{}]", self.expr(*n)));
                }
                if let Some(a) = args {
                    let a: Vec<String> = a.iter().map(|a| self.expr(*a)).collect();
                    s.push_str(&format!(" {}{}", if *braces { "{}" } else { "()" }, a.join(" ")));
                }
                s.push(')');
                s
            }
            ExprKind::Delete { array, expr } => format!("(delete{} {})", if *array { "[]" } else { "" }, self.expr(*expr)),
            ExprKind::SizeofType(t) => format!("(sizeof-type {})", self.ty(*t)),
            ExprKind::SizeofExpr(e) => format!("(sizeof {})", self.expr(*e)),
            ExprKind::Alignof(t) => format!("(alignof {})", self.ty(*t)),
            ExprKind::InitList(items) => {
                let a: Vec<String> = items
                    .iter()
                    .map(|(f, e)| match f {
                        Some(f) => format!(".{}={}", self.i.str(*f), self.expr(*e)),
                        None => self.expr(*e),
                    })
                    .collect();
                format!("{{{}}}", a.join(", "))
            }
            ExprKind::StmtExpr(_) => "({ statements })".into(),
            ExprKind::Unsupported(what) => format!("(unsupported {what})"),
            ExprKind::Lambda(l) => format!("(lambda captures={} default={:?})", l.captures.len(), l.default),
            ExprKind::Expand { pattern, .. } => format!("{}...", self.expr(*pattern)),
            ExprKind::SizeofPack(n) => format!("sizeof...({})", self.i.str(*n)),
            ExprKind::Fold { op, lhs, rhs } => {
                let side = |s: &Option<(ExprId, (u32, u32))>| s.map(|(e, _)| format!(" {} ", self.expr(e)));
                format!("({}{op:?} ...{})", side(lhs).unwrap_or_default(), side(rhs).map(|r| format!(" {op:?}{r}")).unwrap_or_default())
            }
            ExprKind::Error => "<error>".into(),
        }
    }

    fn specs(s: &Specifiers) -> String {
        let mut v = Vec::new();
        for (on, name) in [
            (s.global, "__global__"),
            (s.device, "__device__"),
            (s.host, "__host__"),
            (s.shared, "__shared__"),
            (s.constant, "__constant__"),
            (s.managed, "__managed__"),
            (s.is_static, "static"),
            (s.is_extern, "extern"),
            (s.is_inline, "inline"),
            (s.is_constexpr, "constexpr"),
            (s.is_register, "register"),
        ] {
            if on {
                v.push(name);
            }
        }
        if v.is_empty() {
            String::new()
        } else {
            format!("[{}] ", v.join(" "))
        }
    }

    fn attrs(&self, attrs: &[Attribute]) -> String {
        if attrs.is_empty() {
            return String::new();
        }
        let v: Vec<String> = attrs
            .iter()
            .map(|a| {
                if a.args.is_empty() {
                    Attribute::bare_name(self.i.str(a.name)).to_string()
                } else {
                    let args: Vec<String> = a.args.iter().map(|e| self.expr(*e)).collect();
                    format!("{}({})", Attribute::bare_name(self.i.str(a.name)), args.join(", "))
                }
            })
            .collect();
        format!(" attrs({})", v.join(", "))
    }

    fn decl(&mut self, d: DeclId, depth: usize) {
        let decl = self.ast.decl(d).clone();
        match &decl.kind {
            DeclKind::Var { specs, name, ty, init, attrs } => {
                let init = init.map_or(String::new(), |e| format!(" = {}", self.expr(e)));
                let s = format!("var {}{}: {}{init}{}", Self::specs(specs), self.name(name), self.ty(*ty), self.attrs(attrs));
                self.line(depth, &s);
            }
            DeclKind::Function { specs, name, ret, params, variadic, is_const, body, host_body, attrs, inits } => {
                let ps: Vec<String> =
                    params.iter().map(|p| format!("{}: {}", p.name.map_or("_", |n| self.i.str(n)), self.ty(p.ty))).collect();
                let tail = if *host_body {
                    " (host code)"
                } else if body.is_none() {
                    " (declaration)"
                } else {
                    ""
                };
                let s = format!(
                    "function {}{}({}{}){} -> {}{}{tail}",
                    Self::specs(specs),
                    self.name(name),
                    ps.join(", "),
                    if *variadic { ", ..." } else { "" },
                    if *is_const { " const" } else { "" },
                    self.ty(*ret),
                    self.attrs(attrs)
                );
                self.line(depth, &s);
                for (m, args) in inits {
                    let a: Vec<String> = args.iter().map(|e| self.expr(*e)).collect();
                    let s = format!("init {}({})", self.i.str(*m), a.join(", "));
                    self.line(depth + 1, &s);
                }
                if let Some(b) = body {
                    self.stmt(*b, depth + 1);
                }
            }
            DeclKind::Typedef { name, ty } => {
                let s = format!("typedef {} = {}", self.i.str(*name), self.ty(*ty));
                self.line(depth, &s);
            }
            DeclKind::Record { keyword, name, bases, members, attrs, .. } => {
                let bs: Vec<String> = bases.iter().map(|b| self.ty(*b)).collect();
                let s = format!(
                    "{} {}{}{}",
                    self.i.str(*keyword),
                    name.map_or("<anonymous>", |n| self.i.str(n)),
                    if bs.is_empty() { String::new() } else { format!(" : {}", bs.join(", ")) },
                    self.attrs(attrs)
                );
                self.line(depth, &s);
                for m in members.iter().flatten() {
                    self.decl(*m, depth + 1);
                }
            }
            DeclKind::Enum { name, scoped, underlying, enumerators } => {
                let es: Vec<String> = enumerators
                    .iter()
                    .map(|(n, v, _)| match v {
                        Some(v) => format!("{}={}", self.i.str(*n), self.expr(*v)),
                        None => self.i.str(*n).to_string(),
                    })
                    .collect();
                let s = format!(
                    "enum{} {}{} {{{}}}",
                    if *scoped { " class" } else { "" },
                    name.map_or("<anonymous>", |n| self.i.str(n)),
                    underlying.map_or(String::new(), |u| format!(" : {}", self.ty(u))),
                    es.join(", ")
                );
                self.line(depth, &s);
            }
            DeclKind::Namespace { name, decls } => {
                let s = format!("namespace {}", name.map_or("<anonymous>", |n| self.i.str(n)));
                self.line(depth, &s);
                for m in decls {
                    self.decl(*m, depth + 1);
                }
            }
            DeclKind::Template { params, decl } => {
                let ps: Vec<String> = params
                    .iter()
                    .map(|p| match p {
                        TemplateParam::Type { name, default, .. } => format!(
                            "typename {}{}",
                            name.map_or("_", |n| self.i.str(n)),
                            default.map_or(String::new(), |t| format!(" = {}", self.ty(t)))
                        ),
                        TemplateParam::Value { name, ty, default, .. } => format!(
                            "{} {}{}",
                            self.ty(*ty),
                            name.map_or("_", |n| self.i.str(n)),
                            default.map_or(String::new(), |e| format!(" = {}", self.expr(e)))
                        ),
                    })
                    .collect();
                let s = format!("template <{}>", ps.join(", "));
                self.line(depth, &s);
                self.decl(*decl, depth + 1);
            }
            DeclKind::ExplicitInstantiation(d) => {
                self.line(depth, "explicit instantiation");
                self.decl(*d, depth + 1);
            }
            DeclKind::UsingDirective(n) => {
                let s = format!("using namespace {}", self.name(n));
                self.line(depth, &s);
            }
            DeclKind::NamespaceAlias { name, target } => {
                let s = format!("namespace {} = {}", self.i.str(*name), self.name(target));
                self.line(depth, &s);
            }
            DeclKind::UsingDecl(n) => {
                let s = format!("using {}", self.name(n));
                self.line(depth, &s);
            }
            DeclKind::StaticAssert { cond, .. } => {
                let s = format!("static_assert {}", self.expr(*cond));
                self.line(depth, &s);
            }
            DeclKind::LinkageSpec(ds) => {
                self.line(depth, "extern \"C\"");
                for m in ds {
                    self.decl(*m, depth + 1);
                }
            }
            DeclKind::Skipped(why) => {
                let s = format!("skipped: {why}");
                self.line(depth, &s);
            }
            DeclKind::Error => self.line(depth, "<error>"),
        }
    }

    fn unroll(u: &Option<Unroll>) -> String {
        match u {
            Some(Unroll(0)) => " [unroll]".into(),
            Some(Unroll(n)) => format!(" [unroll {n}]"),
            None => String::new(),
        }
    }

    fn stmt(&mut self, s: StmtId, depth: usize) {
        let st = self.ast.stmt(s).clone();
        match &st.kind {
            StmtKind::Compound(v) => {
                self.line(depth, "{");
                for x in v {
                    self.stmt(*x, depth + 1);
                }
                self.line(depth, "}");
            }
            StmtKind::Decl(ds) => {
                for d in ds {
                    self.decl(*d, depth);
                }
            }
            StmtKind::Expr(e) => {
                let s = self.expr(*e);
                self.line(depth, &s);
            }
            StmtKind::If { cond, then, els, init } => {
                if let Some(i) = init {
                    self.line(depth, "if-init");
                    self.stmt(*i, depth + 1);
                }
                let s = format!("if {}", self.expr(*cond));
                self.line(depth, &s);
                self.stmt(*then, depth + 1);
                if let Some(e) = els {
                    self.line(depth, "else");
                    self.stmt(*e, depth + 1);
                }
            }
            StmtKind::For { init, cond, step, body, unroll } => {
                let s = format!(
                    "for{} cond={} step={}",
                    Self::unroll(unroll),
                    cond.map_or("-".into(), |c| self.expr(c)),
                    step.map_or("-".into(), |c| self.expr(c))
                );
                self.line(depth, &s);
                if let Some(i) = init {
                    self.stmt(*i, depth + 1);
                }
                self.stmt(*body, depth + 1);
            }
            StmtKind::RangeFor { range, iters, cond, step, body, unroll, .. } => {
                let s = format!("range-for{} cond={} step={}", Self::unroll(unroll), self.expr(*cond), self.expr(*step));
                self.line(depth, &s);
                self.stmt(*range, depth + 1);
                self.line(depth + 1, "array:");
                self.stmt(iters[0], depth + 2);
                self.line(depth + 1, "class:");
                self.stmt(iters[1], depth + 2);
                self.stmt(*body, depth + 1);
            }
            StmtKind::While { cond, body, unroll } => {
                let s = format!("while{} {}", Self::unroll(unroll), self.expr(*cond));
                self.line(depth, &s);
                self.stmt(*body, depth + 1);
            }
            StmtKind::DoWhile { body, cond, unroll } => {
                let s = format!("do{} while {}", Self::unroll(unroll), self.expr(*cond));
                self.line(depth, &s);
                self.stmt(*body, depth + 1);
            }
            StmtKind::Switch { cond, body } => {
                let s = format!("switch {}", self.expr(*cond));
                self.line(depth, &s);
                self.stmt(*body, depth + 1);
            }
            StmtKind::Case(v, b) => {
                let s = format!("case {}:", self.expr(*v));
                self.line(depth, &s);
                self.stmt(*b, depth + 1);
            }
            StmtKind::Default(b) => {
                self.line(depth, "default:");
                self.stmt(*b, depth + 1);
            }
            StmtKind::Break => self.line(depth, "break"),
            StmtKind::Continue => self.line(depth, "continue"),
            StmtKind::Return(v) => {
                let s = format!("return{}", v.map_or(String::new(), |e| format!(" {}", self.expr(e))));
                self.line(depth, &s);
            }
            StmtKind::Goto(l) => {
                let s = format!("goto {}", self.i.str(*l));
                self.line(depth, &s);
            }
            StmtKind::Label(l, b) => {
                let s = format!("{}:", self.i.str(*l));
                self.line(depth, &s);
                self.stmt(*b, depth + 1);
            }
            StmtKind::Asm(asm) => {
                let AsmStmt { volatile, template, outputs, inputs, clobbers } = &**asm;
                let t: Vec<&str> = template.iter().map(|a| self.i.str(*a)).collect();
                let ops = |v: &[AsmOperand]| -> String {
                    v.iter().map(|o| format!("{}({})", self.i.str(o.constraint), self.expr(o.expr))).collect::<Vec<_>>().join(", ")
                };
                let c: Vec<&str> = clobbers.iter().map(|a| self.i.str(*a)).collect();
                let s = format!(
                    "asm{} {} : {} : {} : {}",
                    if *volatile { " volatile" } else { "" },
                    t.join(" "),
                    ops(outputs),
                    ops(inputs),
                    c.join(", ")
                );
                self.line(depth, &s);
            }
            StmtKind::Null => self.line(depth, ";"),
            StmtKind::Error => self.line(depth, "<error>"),
            StmtKind::Known => self.line(depth, "<known body>"),
        }
    }
}

fn decl_in_builtin(ast: &Ast, d: DeclId, sm: &crate::SourceMap) -> bool {
    let span = match &ast.decl(d).kind {
        DeclKind::Var { name, .. } | DeclKind::Function { name, .. } => name.span,
        DeclKind::Template { decl, .. } => return decl_in_builtin(ast, *decl, sm),
        _ => ast.decl(d).span,
    };
    sm.file(span.file).kind == crate::source::FileKind::Builtin
}
