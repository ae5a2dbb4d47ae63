//! The TableGen parser. Like llvm-tblgen it evaluates while it parses: a `class` becomes a
//! record with template arguments and late-bound references, a `def` is instantiated from
//! its superclasses, patched by the enclosing `let`s and its own body, then resolved to a
//! flat record.
//!
//! Supported: `include`, `class` (template arguments with defaults), `def`, `defvar`,
//! `let ... in { }` / `let ... in def`, field definitions and `let` overrides in bodies,
//! values (int, bit, `true`/`false`, string with adjacent concatenation, code `[{ }]`,
//! `?`, list, dag with `$names`, def references, `Class<args>` anonymous defs, `.field`,
//! `#` paste, and the bang operators in [`eval_bang`]). `multiclass`/`defm`/`foreach` are
//! reported as unsupported. Every error is a [`Diagnostic`] with a span.

use crate::diag::{Diagnostic, Span};
use crate::lexer::{lex, Tok, Token};
use crate::record::{Field, Record, RecordKeeper, TemplateArg, Ty, Value};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// Nesting limit of `include`s (an include cycle hits it and gets a diagnostic).
const MAX_INCLUDE_DEPTH: usize = 32;
/// Limit of nested field references while resolving a def (a cycle `a = b; b = a;` hits it).
const MAX_RESOLVE_DEPTH: usize = 64;
/// Nesting limit of values (lists, dags, bang operands) so that hostile input cannot
/// overflow the parser's stack.
const MAX_VALUE_DEPTH: usize = 128;

type PResult<T> = Result<T, Diagnostic>;

/// Reads `path` and everything it includes. `include_dirs` are searched after the
/// including file's directory.
pub fn read_file(path: &Path, include_dirs: &[PathBuf]) -> Result<RecordKeeper, Box<ReadError>> {
    let mut rk = RecordKeeper::default();
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            let f = rk.sources.add(path.to_path_buf(), String::new());
            let diagnostic = Diagnostic::new(Span::new(f, 0, 0), format!("cannot read '{}': {e}", path.display()));
            return Err(Box::new(ReadError { diagnostic, sources: rk.sources }));
        }
    };
    read_source(path, text, include_dirs, rk)
}

/// Reads a `.td` text (named `path` in diagnostics).
pub fn read_str(path: &Path, text: &str, include_dirs: &[PathBuf]) -> Result<RecordKeeper, Box<ReadError>> {
    read_source(path, text.to_string(), include_dirs, RecordKeeper::default())
}

fn read_source(path: &Path, text: String, include_dirs: &[PathBuf], rk: RecordKeeper) -> Result<RecordKeeper, Box<ReadError>> {
    let mut p = Parser {
        rk,
        include_dirs: include_dirs.to_vec(),
        defines: HashSet::new(),
        include_stack: Vec::new(),
        let_stack: Vec::new(),
        anon_count: 0,
        anon_cache: HashMap::new(),
        toks: Vec::new(),
        pos: 0,
        depth: 0,
    };
    match p.parse_file(path.to_path_buf(), text, None) {
        Ok(()) => Ok(p.rk),
        Err(diagnostic) => Err(Box::new(ReadError { diagnostic, sources: p.rk.sources })),
    }
}

/// Why a `.td` file could not be read: the diagnostic and the files it points into.
#[derive(Debug)]
pub struct ReadError {
    pub diagnostic: Diagnostic,
    pub sources: crate::diag::Sources,
}

impl ReadError {
    /// The diagnostic rendered with ariadne.
    pub fn render(&self) -> String {
        self.diagnostic.render(&self.sources)
    }
}

/// Where identifiers are looked up while a record body is parsed.
struct Scope {
    /// `defvar`s of the body.
    locals: HashMap<String, Value>,
    /// Template arguments (classes only).
    targs: Vec<String>,
}

struct Parser {
    rk: RecordKeeper,
    include_dirs: Vec<PathBuf>,
    defines: HashSet<String>,
    include_stack: Vec<PathBuf>,
    /// Enclosing `let ... in` bindings.
    let_stack: Vec<Vec<(String, Value, Span)>>,
    anon_count: usize,
    /// `Class<args>` values already made into anonymous defs.
    anon_cache: HashMap<String, String>,
    toks: Vec<Token>,
    pos: usize,
    depth: usize,
}

impl Parser {
    // ----- tokens ------------------------------------------------------------------------

    fn peek(&self) -> &Tok {
        &self.toks[self.pos].tok
    }
    fn span(&self) -> Span {
        self.toks[self.pos].span
    }
    fn bump(&mut self) -> Token {
        let t = self.toks[self.pos].clone();
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        t
    }
    fn at_punct(&self, c: char) -> bool {
        *self.peek() == Tok::Punct(c)
    }
    fn eat_punct(&mut self, c: char) -> bool {
        if self.at_punct(c) {
            self.bump();
            true
        } else {
            false
        }
    }
    fn at_kw(&self, k: &str) -> bool {
        matches!(self.peek(), Tok::Ident(s) if s == k)
    }
    fn eat_kw(&mut self, k: &str) -> bool {
        if self.at_kw(k) {
            self.bump();
            true
        } else {
            false
        }
    }
    fn err<T>(&self, msg: impl Into<String>) -> PResult<T> {
        Err(Diagnostic::new(self.span(), msg))
    }
    fn describe(&self) -> String {
        match self.peek() {
            Tok::Ident(s) => format!("'{s}'"),
            Tok::VarName(s) => format!("'${s}'"),
            Tok::Int(i) => format!("integer {i}"),
            Tok::Str(_) => "a string".into(),
            Tok::Code(_) => "a code block".into(),
            Tok::Bang(b) => format!("'!{b}'"),
            Tok::Punct(c) => format!("'{c}'"),
            Tok::Eof => "end of file".into(),
        }
    }
    fn expect_punct(&mut self, c: char, what: &str) -> PResult<()> {
        if self.eat_punct(c) {
            Ok(())
        } else {
            self.err(format!("expected '{c}' {what}, found {}", self.describe()))
        }
    }
    fn expect_ident(&mut self, what: &str) -> PResult<(String, Span)> {
        match self.peek().clone() {
            Tok::Ident(s) if !is_keyword(&s) => {
                let sp = self.bump().span;
                Ok((s, sp))
            }
            _ => self.err(format!("expected {what}, found {}", self.describe())),
        }
    }

    // ----- files -------------------------------------------------------------------------

    fn parse_file(&mut self, path: PathBuf, text: String, include_span: Option<Span>) -> PResult<()> {
        if self.include_stack.len() >= MAX_INCLUDE_DEPTH {
            let sp = include_span.unwrap_or_default();
            return Err(Diagnostic::new(sp, format!("includes nested more than {MAX_INCLUDE_DEPTH} deep (an include cycle?)")));
        }
        let file = self.rk.sources.add(path.clone(), text);
        let toks = lex(file, self.rk.sources.text(file), &mut self.defines)?;
        let saved = (std::mem::replace(&mut self.toks, toks), std::mem::replace(&mut self.pos, 0));
        self.include_stack.push(path);
        let r = self.parse_top_items(false);
        self.include_stack.pop();
        (self.toks, self.pos) = saved;
        r
    }

    fn resolve_include(&self, name: &str) -> Option<PathBuf> {
        let here = self.include_stack.last().and_then(|p| p.parent()).map(Path::to_path_buf).unwrap_or_default();
        std::iter::once(here).chain(self.include_dirs.iter().cloned()).map(|d| d.join(name)).find(|p| p.is_file())
    }

    /// Top-level items until end of file, or until `}` when `in_block` (a `let ... in { }`).
    fn parse_top_items(&mut self, in_block: bool) -> PResult<()> {
        loop {
            match self.peek().clone() {
                Tok::Eof if !in_block => return Ok(()),
                Tok::Eof => return self.err("expected '}' to close the 'let ... in {' block"),
                Tok::Punct('}') if in_block => {
                    self.bump();
                    return Ok(());
                }
                Tok::Ident(k) => match k.as_str() {
                    "include" => {
                        let kw = self.bump().span;
                        let Tok::Str(name) = self.peek().clone() else { return self.err("expected a file name string after 'include'") };
                        let sp = self.bump().span;
                        let sp = Span { lo: kw.lo, ..sp };
                        let Some(path) = self.resolve_include(&name) else {
                            return Err(Diagnostic::new(sp, format!("could not find include file '{name}'")));
                        };
                        let text = std::fs::read_to_string(&path)
                            .map_err(|e| Diagnostic::new(sp, format!("cannot read '{}': {e}", path.display())))?;
                        self.parse_file(path, text, Some(sp))?;
                    }
                    "class" => self.parse_record(true)?,
                    "def" => self.parse_record(false)?,
                    "defvar" => {
                        self.bump();
                        let (name, sp) = self.expect_ident("a variable name")?;
                        self.expect_punct('=', "after the defvar name")?;
                        let v = self.parse_value(&mut None, None)?;
                        self.expect_punct(';', "after the defvar")?;
                        let v = self.resolve_global(v, sp)?;
                        if self.rk.globals.insert(name.clone(), v).is_some() {
                            return Err(Diagnostic::new(sp, format!("defvar '{name}' is already defined")));
                        }
                    }
                    "let" => self.parse_top_let()?,
                    "multiclass" | "defm" | "foreach" | "defset" | "deftype" | "assert" | "dump" | "if" => {
                        return self.err(format!("'{k}' is not supported by cuprite's TableGen reader"));
                    }
                    _ => return self.err(format!("expected 'class', 'def', 'defvar', 'let' or 'include', found {}", self.describe())),
                },
                _ => return self.err(format!("expected 'class', 'def', 'defvar', 'let' or 'include', found {}", self.describe())),
            }
        }
    }

    fn parse_top_let(&mut self) -> PResult<()> {
        self.bump();
        let mut binds = Vec::new();
        loop {
            let (name, sp) = self.expect_ident("a field name after 'let'")?;
            if self.at_punct('{') {
                return self.err("bit-range lets are not supported");
            }
            self.expect_punct('=', "after the let field name")?;
            let v = self.parse_value(&mut None, None)?;
            let v = self.resolve_global(v, sp)?;
            binds.push((name, v, sp));
            if !self.eat_punct(',') {
                break;
            }
        }
        if !self.eat_kw("in") {
            return self.err(format!("expected 'in' after the let bindings, found {}", self.describe()));
        }
        self.let_stack.push(binds);
        let r = if self.eat_punct('{') {
            self.parse_top_items(true)
        } else if self.at_kw("def") || self.at_kw("class") {
            let c = self.at_kw("class");
            self.parse_record(c)
        } else if self.at_kw("let") {
            self.parse_top_let()
        } else {
            self.err(format!("expected '{{', 'def', 'class' or 'let' after 'in', found {}", self.describe()))
        };
        self.let_stack.pop();
        r
    }

    // ----- records -----------------------------------------------------------------------

    fn parse_record(&mut self, is_class: bool) -> PResult<()> {
        let kw = self.bump().span;
        let (name, name_span) = self.expect_ident(if is_class { "a class name" } else { "a def name" })?;
        if self.rk.classes.contains_key(&name) || self.rk.def_index.contains_key(&name) {
            return Err(Diagnostic::new(name_span, format!("'{name}' is already defined")));
        }
        let mut rec = Record {
            name: name.clone(),
            span: Span { lo: kw.lo, ..name_span },
            is_class,
            anonymous: false,
            template_args: Vec::new(),
            superclasses: Vec::new(),
            fields: Vec::new(),
        };
        let mut scope = Scope { locals: HashMap::new(), targs: Vec::new() };
        if is_class && self.eat_punct('<') {
            loop {
                let ty = self.parse_type()?;
                let (an, asp) = self.expect_ident("a template argument name")?;
                if scope.targs.contains(&an) {
                    return Err(Diagnostic::new(asp, format!("template argument '{an}' is already defined")));
                }
                let default = if self.eat_punct('=') {
                    let mut s = Some(&mut scope);
                    Some(self.parse_value(&mut s, None)?)
                } else {
                    None
                };
                scope.targs.push(an.clone());
                rec.template_args.push(TemplateArg { name: an, ty, default, span: asp });
                if !self.eat_punct(',') {
                    break;
                }
            }
            self.expect_punct('>', "to close the template argument list")?;
        }
        // Superclasses.
        if self.eat_punct(':') {
            loop {
                let (cname, csp) = self.expect_ident("a superclass name")?;
                let args = if self.eat_punct('<') { self.parse_value_list('>', &mut Some(&mut scope), &mut rec)? } else { Vec::new() };
                self.add_superclass(&mut rec, &cname, csp, args)?;
                if !self.eat_punct(',') {
                    break;
                }
            }
        }
        // Enclosing lets.
        let lets: Vec<_> = self.let_stack.iter().flatten().cloned().collect();
        for (f, v, sp) in lets {
            let Some(field) = rec.field_mut(&f) else {
                return Err(Diagnostic::new(sp, format!("let of '{f}': record '{name}' has no such field")));
            };
            field.value = v;
            field.span = sp;
        }
        // Body.
        if self.eat_punct('{') {
            while !self.eat_punct('}') {
                self.parse_body_item(&mut rec, &mut scope)?;
            }
        } else {
            self.expect_punct(';', "or '{' after the record header")?;
        }
        if is_class {
            self.rk.classes.insert(name, rec);
        } else {
            let rec = self.finalize(rec)?;
            self.push_def(rec);
        }
        Ok(())
    }

    fn push_def(&mut self, rec: Record) {
        self.rk.def_index.insert(rec.name.clone(), self.rk.defs.len());
        self.rk.defs.push(rec);
    }

    fn parse_body_item(&mut self, rec: &mut Record, scope: &mut Scope) -> PResult<()> {
        if self.eat_kw("let") {
            let (f, sp) = self.expect_ident("a field name after 'let'")?;
            if self.at_punct('{') {
                return self.err("bit-range lets are not supported");
            }
            self.expect_punct('=', "after the let field name")?;
            let v = self.parse_value(&mut Some(scope), Some(rec))?;
            self.expect_punct(';', "after the let")?;
            let Some(field) = rec.field_mut(&f) else {
                return Err(Diagnostic::new(sp, format!("let of '{f}': record '{}' has no such field", rec.name)));
            };
            field.value = v;
            field.span = sp;
            return Ok(());
        }
        if self.eat_kw("defvar") {
            let (n, sp) = self.expect_ident("a variable name")?;
            self.expect_punct('=', "after the defvar name")?;
            let v = self.parse_value(&mut Some(scope), Some(rec))?;
            self.expect_punct(';', "after the defvar")?;
            if scope.locals.insert(n.clone(), v).is_some() {
                return Err(Diagnostic::new(sp, format!("defvar '{n}' is already defined in this record")));
            }
            return Ok(());
        }
        if self.at_kw("assert") || self.at_kw("dump") {
            return self.err("'assert' and 'dump' are not supported by cuprite's TableGen reader");
        }
        self.eat_kw("field");
        let ty = self.parse_type()?;
        let (f, sp) = self.expect_ident("a field name")?;
        let value = if self.eat_punct('=') { self.parse_value(&mut Some(scope), Some(rec))? } else { Value::Unset };
        self.expect_punct(';', "after the field definition")?;
        if let Some(old) = rec.field(&f) {
            if old.ty != ty {
                return Err(Diagnostic::new(sp, format!("field '{f}' is already defined with type '{}'", old.ty))
                    .with_note(old.span, "defined here"));
            }
            let field = rec.field_mut(&f).expect("checked");
            field.value = value;
            field.span = sp;
        } else {
            rec.fields.push(Field { name: f, ty, value, span: sp });
        }
        Ok(())
    }

    /// Copies class `cname`'s fields into `rec`, binding its template arguments to `args`.
    fn add_superclass(&mut self, rec: &mut Record, cname: &str, csp: Span, args: Vec<Value>) -> PResult<()> {
        let Some(class) = self.rk.classes.get(cname) else {
            let what = if self.rk.def_index.contains_key(cname) { "is a def, not a class" } else { "is not a defined class" };
            return Err(Diagnostic::new(csp, format!("'{cname}' {what}")));
        };
        if args.len() > class.template_args.len() {
            return Err(Diagnostic::new(
                csp,
                format!("class '{cname}' takes {} template arguments, {} given", class.template_args.len(), args.len()),
            )
            .with_note(class.span, "class defined here"));
        }
        let mut bind: HashMap<String, Value> = HashMap::new();
        for (i, ta) in class.template_args.iter().enumerate() {
            let v = match args.get(i) {
                Some(v) => v.clone(),
                None => match &ta.default {
                    Some(d) => subst(d, &bind),
                    None => {
                        return Err(Diagnostic::new(csp, format!("missing value for template argument '{}' of class '{cname}'", ta.name))
                            .with_note(ta.span, "declared here"))
                    }
                },
            };
            if v.is_concrete() {
                check_type(&self.rk, &ta.ty, &v).map_err(|m| {
                    Diagnostic::new(csp, format!("template argument '{}' of '{cname}': {m}", ta.name)).with_note(ta.span, "declared here")
                })?;
            }
            bind.insert(ta.name.clone(), v);
        }
        let class = self.rk.classes.get(cname).expect("checked");
        for s in class.superclasses.iter().chain(std::iter::once(&class.name)) {
            if !rec.superclasses.contains(s) {
                rec.superclasses.push(s.clone());
            }
        }
        for f in &class.fields {
            let value = subst(&f.value, &bind);
            match rec.field_mut(&f.name) {
                Some(old) => {
                    old.value = value;
                    old.span = f.span;
                }
                None => rec.fields.push(Field { name: f.name.clone(), ty: f.ty.clone(), value, span: f.span }),
            }
        }
        Ok(())
    }

    /// Resolves a def's fields to concrete values and type-checks them.
    fn finalize(&mut self, mut rec: Record) -> PResult<Record> {
        for i in 0..rec.fields.len() {
            let v = rec.fields[i].value.clone();
            let sp = rec.fields[i].span;
            let r = self.resolve(&v, &rec, sp, 0)?;
            if let Err(m) = check_type(&self.rk, &rec.fields[i].ty, &r) {
                return Err(Diagnostic::new(sp, format!("field '{}' of '{}': {m}", rec.fields[i].name, rec.name))
                    .with_note(rec.span, "in this def"));
            }
            rec.fields[i].value = r;
        }
        Ok(rec)
    }

    fn resolve_global(&mut self, v: Value, sp: Span) -> PResult<Value> {
        let empty = Record {
            name: String::new(),
            span: sp,
            is_class: false,
            anonymous: true,
            template_args: Vec::new(),
            superclasses: Vec::new(),
            fields: Vec::new(),
        };
        self.resolve(&v, &empty, sp, 0)
    }

    /// Resolves `v` inside def `rec` (late-bound field references see `rec`'s final fields).
    fn resolve(&mut self, v: &Value, rec: &Record, sp: Span, depth: usize) -> PResult<Value> {
        if depth > MAX_RESOLVE_DEPTH {
            return Err(Diagnostic::new(sp, format!("field references of '{}' nest too deep (a cycle?)", rec.name)));
        }
        Ok(match v {
            Value::Unset | Value::Int(_) | Value::Str(_) | Value::Code(_) | Value::Def(_) => v.clone(),
            Value::List(l) => Value::List(l.iter().map(|x| self.resolve(x, rec, sp, depth)).collect::<PResult<_>>()?),
            Value::Dag { op, args } => Value::Dag {
                op: Box::new(self.resolve(op, rec, sp, depth)?),
                args: args.iter().map(|(a, n)| Ok((self.resolve(a, rec, sp, depth)?, n.clone()))).collect::<PResult<_>>()?,
            },
            Value::Var(n) => return Err(Diagnostic::new(sp, format!("template argument '{n}' is not bound here"))),
            Value::Field(n) => match rec.field(n) {
                Some(f) => {
                    let fv = f.value.clone();
                    self.resolve(&fv, rec, sp, depth + 1)?
                }
                None => return Err(Diagnostic::new(sp, format!("'{}' has no field '{n}'", rec.name))),
            },
            Value::Access(base, f) => {
                let b = self.resolve(base, rec, sp, depth + 1)?;
                let Value::Def(d) = &b else { return Err(Diagnostic::new(sp, format!("cannot access field '{f}' of {b}: not a record"))) };
                match self.rk.def(d).and_then(|r| r.value(f)) {
                    Some(x) => x.clone(),
                    None => return Err(Diagnostic::new(sp, format!("record '{d}' has no field '{f}'"))),
                }
            }
            Value::Paste(a, b) => {
                let a = self.resolve(a, rec, sp, depth + 1)?;
                let b = self.resolve(b, rec, sp, depth + 1)?;
                Value::Str(paste_str(&a, sp)? + &paste_str(&b, sp)?)
            }
            Value::Bang(op, args) => {
                // `!if` resolves only the branch it takes.
                if op == "if" && args.len() == 3 {
                    let c = self.resolve(&args[0], rec, sp, depth + 1)?;
                    let Value::Int(c) = c else {
                        return Err(Diagnostic::new(sp, format!("!if condition must be an int or bit, found {c}")));
                    };
                    return self.resolve(&args[if c != 0 { 1 } else { 2 }], rec, sp, depth + 1);
                }
                let a: Vec<Value> = args.iter().map(|x| self.resolve(x, rec, sp, depth + 1)).collect::<PResult<_>>()?;
                eval_bang(op, &a).map_err(|m| Diagnostic::new(sp, m))?
            }
            Value::Anon(c, args) => {
                let a: Vec<Value> = args.iter().map(|x| self.resolve(x, rec, sp, depth + 1)).collect::<PResult<_>>()?;
                Value::Def(self.instantiate_anon(c, a, sp)?)
            }
        })
    }

    /// Makes (or reuses) the anonymous def for `class<args>`.
    fn instantiate_anon(&mut self, class: &str, args: Vec<Value>, sp: Span) -> PResult<String> {
        let key = format!("{}", Value::Anon(class.to_string(), args.clone()));
        if let Some(n) = self.anon_cache.get(&key) {
            return Ok(n.clone());
        }
        let name = format!("anonymous_{}", self.anon_count);
        self.anon_count += 1;
        let mut rec = Record {
            name: name.clone(),
            span: sp,
            is_class: false,
            anonymous: true,
            template_args: Vec::new(),
            superclasses: Vec::new(),
            fields: Vec::new(),
        };
        self.add_superclass(&mut rec, class, sp, args)?;
        let rec = self.finalize(rec)?;
        self.push_def(rec);
        self.anon_cache.insert(key, name.clone());
        Ok(name)
    }

    // ----- types and values ----------------------------------------------------------------

    fn parse_type(&mut self) -> PResult<Ty> {
        let (n, sp) = match self.peek().clone() {
            Tok::Ident(n) => (n, self.bump().span),
            _ => return self.err(format!("expected a type, found {}", self.describe())),
        };
        Ok(match n.as_str() {
            "bit" => Ty::Bit,
            "int" => Ty::Int,
            "string" => Ty::Str,
            "code" => Ty::Code,
            "dag" => Ty::Dag,
            "bits" => {
                self.expect_punct('<', "after 'bits'")?;
                let Tok::Int(w) = self.peek().clone() else { return self.err("expected a bit width") };
                self.bump();
                self.expect_punct('>', "after the bit width")?;
                Ty::Bits(w.clamp(0, 64) as u32)
            }
            "list" => {
                self.expect_punct('<', "after 'list'")?;
                let t = self.parse_type()?;
                self.expect_punct('>', "to close 'list<'")?;
                Ty::List(Box::new(t))
            }
            _ if self.rk.classes.contains_key(&n) => Ty::Class(n),
            _ => return Err(Diagnostic::new(sp, format!("'{n}' is not a type or a defined class"))),
        })
    }

    /// Comma-separated values up to `close` (already past the opener).
    fn parse_value_list(&mut self, close: char, scope: &mut Option<&mut Scope>, rec: &mut Record) -> PResult<Vec<Value>> {
        let mut out = Vec::new();
        if self.eat_punct(close) {
            return Ok(out);
        }
        loop {
            out.push(self.parse_value(scope, Some(rec))?);
            if self.eat_punct(close) {
                return Ok(out);
            }
            self.expect_punct(',', &format!("or '{close}' in the list"))?;
        }
    }

    fn parse_value(&mut self, scope: &mut Option<&mut Scope>, rec: Option<&Record>) -> PResult<Value> {
        self.depth += 1;
        if self.depth > MAX_VALUE_DEPTH {
            self.depth -= 1;
            return self.err(format!("values nest more than {MAX_VALUE_DEPTH} deep"));
        }
        let r = self.parse_value_inner(scope, rec);
        self.depth -= 1;
        r
    }

    fn parse_value_inner(&mut self, scope: &mut Option<&mut Scope>, rec: Option<&Record>) -> PResult<Value> {
        let mut v = self.parse_postfix(scope, rec)?;
        while self.eat_punct('#') {
            let rhs = self.parse_postfix(scope, rec)?;
            v = Value::Paste(Box::new(v), Box::new(rhs));
        }
        Ok(v)
    }

    /// A simple value followed by `.field` accesses (which bind tighter than `#`).
    fn parse_postfix(&mut self, scope: &mut Option<&mut Scope>, rec: Option<&Record>) -> PResult<Value> {
        let mut v = self.parse_simple(scope, rec)?;
        while self.eat_punct('.') {
            let (f, _) = self.expect_ident("a field name after '.'")?;
            v = Value::Access(Box::new(v), f);
        }
        Ok(v)
    }

    fn parse_simple(&mut self, scope: &mut Option<&mut Scope>, rec: Option<&Record>) -> PResult<Value> {
        let sp = self.span();
        match self.peek().clone() {
            Tok::Int(i) => {
                self.bump();
                Ok(Value::Int(i))
            }
            Tok::Str(s) => {
                self.bump();
                let mut s = s;
                while let Tok::Str(t) = self.peek().clone() {
                    self.bump();
                    s.push_str(&t);
                }
                Ok(Value::Str(s))
            }
            Tok::Code(c) => {
                self.bump();
                Ok(Value::Code(c))
            }
            Tok::Punct('?') => {
                self.bump();
                Ok(Value::Unset)
            }
            Tok::Punct('[') => {
                self.bump();
                let mut items = Vec::new();
                if !self.eat_punct(']') {
                    loop {
                        items.push(self.parse_value(scope, rec)?);
                        if self.eat_punct(']') {
                            break;
                        }
                        self.expect_punct(',', "or ']' in the list")?;
                    }
                }
                if self.eat_punct('<') {
                    self.parse_type()?;
                    self.expect_punct('>', "to close the list element type")?;
                }
                Ok(Value::List(items))
            }
            Tok::Punct('(') => {
                self.bump();
                let op = self.parse_value(scope, rec)?;
                let mut args = Vec::new();
                if !self.eat_punct(')') {
                    loop {
                        if let Tok::VarName(n) = self.peek().clone() {
                            self.bump();
                            args.push((Value::Unset, Some(n)));
                        } else {
                            let a = self.parse_value(scope, rec)?;
                            let name = if self.eat_punct(':') {
                                match self.peek().clone() {
                                    Tok::VarName(n) => {
                                        self.bump();
                                        Some(n)
                                    }
                                    _ => return self.err(format!("expected a '$name' after ':' in the dag, found {}", self.describe())),
                                }
                            } else {
                                None
                            };
                            args.push((a, name));
                        }
                        if self.eat_punct(')') {
                            break;
                        }
                        self.expect_punct(',', "or ')' in the dag")?;
                    }
                }
                Ok(Value::Dag { op: Box::new(op), args })
            }
            Tok::Bang(op) => {
                self.bump();
                if !KNOWN_BANGS.contains(&op.as_str()) {
                    return Err(Diagnostic::new(sp, format!("unknown or unsupported operator '!{op}'")));
                }
                if self.at_punct('<') {
                    return self.err(format!("'!{op}<type>' is not supported"));
                }
                self.expect_punct('(', &format!("after '!{op}'"))?;
                let mut args = Vec::new();
                if !self.eat_punct(')') {
                    loop {
                        args.push(self.parse_value(scope, rec)?);
                        if self.eat_punct(')') {
                            break;
                        }
                        self.expect_punct(',', &format!("or ')' in '!{op}'"))?;
                    }
                }
                Ok(Value::Bang(op, args))
            }
            Tok::Ident(n) => {
                self.bump();
                match n.as_str() {
                    "true" => return Ok(Value::Int(1)),
                    "false" => return Ok(Value::Int(0)),
                    _ => {}
                }
                if self.at_punct('<') && self.rk.classes.contains_key(&n) {
                    self.bump();
                    let mut args = Vec::new();
                    if !self.eat_punct('>') {
                        loop {
                            args.push(self.parse_value(scope, rec)?);
                            if self.eat_punct('>') {
                                break;
                            }
                            self.expect_punct(',', "or '>' in the template arguments")?;
                        }
                    }
                    let v = Value::Anon(n, args);
                    // Concrete instantiations are made at once (as llvm-tblgen does).
                    return if v.is_concrete_anon() { self.resolve_global(v, sp) } else { Ok(v) };
                }
                if let Some(s) = scope.as_deref() {
                    if let Some(v) = s.locals.get(&n) {
                        return Ok(v.clone());
                    }
                    if s.targs.contains(&n) {
                        return Ok(Value::Var(n));
                    }
                }
                if rec.is_some_and(|r| r.field(&n).is_some()) {
                    return Ok(Value::Field(n));
                }
                if let Some(v) = self.rk.globals.get(&n) {
                    return Ok(v.clone());
                }
                if self.rk.def_index.contains_key(&n) {
                    return Ok(Value::Def(n));
                }
                if self.rk.classes.contains_key(&n) {
                    return Err(Diagnostic::new(sp, format!("'{n}' is a class; write '{n}<...>' to make a value of it")));
                }
                Err(Diagnostic::new(sp, format!("variable not defined: '{n}'")))
            }
            _ => self.err(format!("expected a value, found {}", self.describe())),
        }
    }
}

impl Value {
    fn is_concrete_anon(&self) -> bool {
        match self {
            Value::Anon(_, args) => args.iter().all(|a| a.is_concrete() || a.is_concrete_anon()),
            _ => false,
        }
    }
}

fn is_keyword(s: &str) -> bool {
    matches!(
        s,
        "class" | "def" | "defm" | "defvar" | "let" | "in" | "include" | "multiclass" | "foreach" | "field" | "true" | "false" | "if"
    )
}

/// Replaces template-argument references by their bound values.
fn subst(v: &Value, bind: &HashMap<String, Value>) -> Value {
    match v {
        Value::Var(n) => bind.get(n).cloned().unwrap_or_else(|| v.clone()),
        Value::List(l) => Value::List(l.iter().map(|x| subst(x, bind)).collect()),
        Value::Dag { op, args } => {
            Value::Dag { op: Box::new(subst(op, bind)), args: args.iter().map(|(a, n)| (subst(a, bind), n.clone())).collect() }
        }
        Value::Access(b, f) => Value::Access(Box::new(subst(b, bind)), f.clone()),
        Value::Bang(op, args) => Value::Bang(op.clone(), args.iter().map(|x| subst(x, bind)).collect()),
        Value::Paste(a, b) => Value::Paste(Box::new(subst(a, bind)), Box::new(subst(b, bind))),
        Value::Anon(c, args) => Value::Anon(c.clone(), args.iter().map(|x| subst(x, bind)).collect()),
        _ => v.clone(),
    }
}

fn paste_str(v: &Value, sp: Span) -> PResult<String> {
    match v {
        Value::Str(s) | Value::Code(s) | Value::Def(s) => Ok(s.clone()),
        Value::Int(i) => Ok(i.to_string()),
        _ => Err(Diagnostic::new(sp, format!("cannot paste {v} with '#'"))),
    }
}

/// The bang operators the reader evaluates.
pub const KNOWN_BANGS: &[&str] = &[
    "strconcat",
    "listconcat",
    "con",
    "if",
    "eq",
    "ne",
    "not",
    "and",
    "or",
    "empty",
    "size",
    "interleave",
    "add",
    "sub",
    "isa",
    "tolower",
];

/// Evaluates `!op(args)` on resolved arguments.
pub fn eval_bang(op: &str, a: &[Value]) -> Result<Value, String> {
    let arity = |n: usize| if a.len() == n { Ok(()) } else { Err(format!("!{op} takes {n} operands, {} given", a.len())) };
    let int = |v: &Value| v.as_int().ok_or_else(|| format!("!{op} expects int or bit operands, found {v}"));
    Ok(match op {
        "strconcat" => {
            let mut s = String::new();
            for v in a {
                s.push_str(v.as_str().ok_or_else(|| format!("!strconcat expects strings, found {v}"))?);
            }
            Value::Str(s)
        }
        "listconcat" => {
            let mut l = Vec::new();
            for v in a {
                l.extend_from_slice(v.as_list().ok_or_else(|| format!("!listconcat expects lists, found {v}"))?);
            }
            Value::List(l)
        }
        "con" => {
            let mut out_op = None;
            let mut args = Vec::new();
            for v in a {
                let Value::Dag { op: o, args: xs } = v else { return Err(format!("!con expects dags, found {v}")) };
                match &out_op {
                    None => out_op = Some(o.clone()),
                    Some(p) if p == o => {}
                    Some(p) => return Err(format!("!con of dags with different operators {p} and {o}")),
                }
                args.extend(xs.iter().cloned());
            }
            Value::Dag { op: out_op.ok_or("!con needs at least one dag")?, args }
        }
        "if" => {
            arity(3)?;
            if int(&a[0])? != 0 {
                a[1].clone()
            } else {
                a[2].clone()
            }
        }
        "eq" | "ne" => {
            arity(2)?;
            let eq = a[0] == a[1] || matches!((&a[0], &a[1]), (Value::Str(x) | Value::Code(x), Value::Str(y) | Value::Code(y)) if x == y);
            Value::Int(i64::from(eq == (op == "eq")))
        }
        "not" => {
            arity(1)?;
            Value::Int(i64::from(int(&a[0])? == 0))
        }
        "and" | "or" => {
            let mut acc = op == "and";
            for v in a {
                let b = int(v)? != 0;
                acc = if op == "and" { acc && b } else { acc || b };
            }
            Value::Int(i64::from(acc))
        }
        "add" | "sub" => {
            arity(2)?;
            let (x, y) = (int(&a[0])?, int(&a[1])?);
            Value::Int(if op == "add" { x.wrapping_add(y) } else { x.wrapping_sub(y) })
        }
        "empty" | "size" => {
            arity(1)?;
            let n = match &a[0] {
                Value::List(l) => l.len(),
                Value::Str(s) | Value::Code(s) => s.len(),
                Value::Dag { args, .. } => args.len(),
                v => return Err(format!("!{op} expects a list, string or dag, found {v}")),
            };
            Value::Int(if op == "empty" { i64::from(n == 0) } else { n as i64 })
        }
        "interleave" => {
            arity(2)?;
            let l = a[0].as_list().ok_or("!interleave expects a list")?;
            let sep = a[1].as_str().ok_or("!interleave expects a string separator")?;
            let parts: Vec<String> = l.iter().map(|v| paste_str(v, Span::default()).map_err(|d| d.message)).collect::<Result<_, _>>()?;
            Value::Str(parts.join(sep))
        }
        "isa" => return Err("!isa<Class>(value) is not supported".into()),
        "tolower" => {
            arity(1)?;
            Value::Str(a[0].as_str().ok_or("!tolower expects a string")?.to_lowercase())
        }
        _ => return Err(format!("unknown operator '!{op}'")),
    })
}

/// Checks a concrete value against a declared type.
pub fn check_type(rk: &RecordKeeper, ty: &Ty, v: &Value) -> Result<(), String> {
    let ok = match (ty, v) {
        (_, Value::Unset) => true,
        (Ty::Bit, Value::Int(i)) => *i == 0 || *i == 1,
        (Ty::Bits(_) | Ty::Int, Value::Int(_)) => true,
        (Ty::Str | Ty::Code, Value::Str(_) | Value::Code(_)) => true,
        (Ty::Dag, Value::Dag { .. }) => true,
        (Ty::List(t), Value::List(l)) => {
            for x in l {
                check_type(rk, t, x)?;
            }
            true
        }
        (Ty::Class(c), Value::Def(d)) => {
            if rk.def_is_a(d, c) {
                true
            } else {
                return Err(format!("'{}' is not a subclass of '{c}'", display_def(rk, d)));
            }
        }
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(format!("value {} does not have type '{ty}'", short(v)))
    }
}

fn display_def(rk: &RecordKeeper, d: &str) -> String {
    match rk.def(d) {
        Some(r) if r.anonymous => format!("{} (an anonymous {})", d, r.superclasses.last().map_or("record", |s| s.as_str())),
        _ => d.to_string(),
    }
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 60 {
        format!("{}...", &s[..s.char_indices().nth(57).map_or(s.len(), |(i, _)| i)])
    } else {
        s
    }
}
