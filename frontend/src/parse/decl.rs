//! Declarations: specifiers (storage, CUDA spaces through `__attribute__`, cv, type),
//! declarators (pointers, references, arrays, functions, parenthesized), function
//! definitions (host bodies read tolerantly), records, enums, namespaces, templates, `using`.

use super::{Kw, Parser};
use crate::ast::*;
use crate::diag::Severity;
use crate::intern::Atom;
use crate::lexer::{Punct, TokenKind};
use crate::source::Span;

/// What the declaration specifiers said.
#[derive(Clone, Debug, Default)]
pub(crate) struct DeclSpecs {
    pub specs: Specifiers,
    pub attrs: Vec<Attribute>,
    pub quals: Quals,
    /// The type, if one was written.
    pub ty: Option<TypeId>,
    /// A record or enum defined in the specifiers (`struct S {...} s;`).
    pub defined: Option<DeclId>,
    pub span: Span,
}

/// A parsed declarator.
pub(crate) struct Declarator {
    pub name: Option<Name>,
    pub ty: TypeId,
    /// For a function declarator applied to the name: its parameters.
    pub func: Option<FuncParts>,
    pub span: Span,
}

#[derive(Clone)]
pub(crate) struct FuncParts {
    pub params: Vec<Param>,
    pub variadic: bool,
    pub is_const: bool,
}

#[derive(Default)]
struct BuiltinCounts {
    void: bool,
    bool_: bool,
    char_: bool,
    short: bool,
    int: bool,
    long: u8,
    float: bool,
    half: bool,
    double: bool,
    signed: bool,
    unsigned: bool,
    int128: bool,
    auto: bool,
    any: bool,
}

impl Parser<'_> {
    // ----- names ------------------------------------------------------------------------

    /// `::`? ident (`::` ident)* with template arguments where the name is a template.
    /// `allow_template`: whether `<` after a template name starts arguments.
    pub(crate) fn parse_name(&mut self, allow_template: bool) -> Option<Name> {
        let start = self.peek().span;
        let global = self.eat(Punct::ColonColon);
        let mut parts = crate::ast::NameParts::new();
        let mut template_args = None;
        let mut scope_args = Vec::new();
        loop {
            let t = self.peek();
            if t.kind != TokenKind::Ident {
                break;
            }
            if self.kw_of(t) == Some(Kw::Operator) {
                self.bump();
                let op = self.parse_operator_name();
                parts.push(op);
                break;
            }
            if self.kw_of(t).is_some() && !parts.is_empty() && self.kw_of(t) != Some(Kw::Template) {
                break;
            }
            if self.kw_of(t) == Some(Kw::Template) {
                self.bump();
                continue;
            }
            if self.kw_of(t).is_some() {
                break;
            }
            self.bump();
            parts.push(t.text);
            template_args = None;
            if allow_template && self.at(Punct::Lt) && self.is_template_name(t.text) {
                template_args = Some(self.parse_template_args());
            }
            if self.at(Punct::ColonColon) && self.peek_at(1).kind == TokenKind::Ident {
                self.bump();
                if let Some(a) = template_args.take() {
                    scope_args.push((parts.len() - 1, a));
                }
                continue;
            }
            // A qualified destructor name `S::~S` (`S<T>::~S`).
            if self.at(Punct::ColonColon) && self.peek_at(1).kind == TokenKind::Punct(Punct::Tilde) && self.is_plain_ident(self.peek_at(2))
            {
                self.bump();
                self.bump();
                let n = self.bump();
                let text = format!("~{}", self.ident_text(n));
                parts.push(self.src.interner_mut().intern_local(&text));
                template_args = None;
            }
            break;
        }
        if parts.is_empty() {
            return None;
        }
        Some(Name { global, parts, template_args, scope_args, span: start.to(self.prev_span()) })
    }

    /// After `operator`: the operator's name as an atom (`operator+`, `operator()`, ...).
    fn parse_operator_name(&mut self) -> Atom {
        let t = self.bump();
        let text = match t.kind {
            TokenKind::Punct(Punct::LParen) => {
                self.expect(Punct::RParen, "in 'operator()'");
                "operator()".to_string()
            }
            TokenKind::Punct(Punct::LBracket) => {
                self.expect(Punct::RBracket, "in 'operator[]'");
                "operator[]".to_string()
            }
            TokenKind::Punct(p) => format!("operator{}", p.text()),
            _ => {
                // A conversion function `operator float`, `operator unsigned int`,
                // `operator const T &`: named by its type's spelling; the type is kept for
                // the declarator ([`Parser::conversion_type`]).
                self.pos -= 1;
                let mut words = Vec::new();
                let mut k = 0;
                while !matches!(self.peek_at(k).kind, TokenKind::Punct(Punct::LParen) | TokenKind::Eof) && k < 16 {
                    let w = self.peek_at(k);
                    words.push(match w.kind {
                        TokenKind::Punct(p) => p.text().to_string(),
                        _ => self.ident_text(w).to_string(),
                    });
                    k += 1;
                }
                let ty = self.parse_conversion_type();
                self.conversion_type = Some(ty);
                format!("operator {}", words.join(" "))
            }
        };
        self.src.interner_mut().intern_local(&text)
    }

    /// A conversion-type-id: type specifiers and pointer/reference operators (no function
    /// or array suffix: `operator float()`'s parentheses are the function's).
    fn parse_conversion_type(&mut self) -> TypeId {
        let ds = self.parse_decl_specs(None);
        let mut ty = self.base_type(&ds);
        loop {
            let t = self.peek();
            match t.kind {
                TokenKind::Punct(Punct::Star) => {
                    self.bump();
                    let mut q = Quals::default();
                    while let Some(k @ (Kw::Const | Kw::Volatile)) = self.kw_of(self.peek()) {
                        if k == Kw::Const {
                            q.is_const = true;
                        } else {
                            q.is_volatile = true;
                        }
                        self.bump();
                    }
                    ty = self.ast.add_type(TypeKind::Pointer(ty), q, t.span);
                }
                TokenKind::Punct(Punct::Amp | Punct::AmpAmp) => {
                    self.bump();
                    ty = self.ast.add_type(
                        TypeKind::Reference { to: ty, rvalue: t.kind == TokenKind::Punct(Punct::AmpAmp) },
                        Quals::default(),
                        t.span,
                    );
                }
                _ => return ty,
            }
        }
    }

    // ----- type starts ------------------------------------------------------------------

    /// Whether the token `k` ahead starts a type (type keyword, cv, known type name).
    pub(crate) fn starts_type(&self, k: usize) -> bool {
        let t = self.peek_at(k);
        match self.kw_of(t) {
            Some(
                Kw::Void
                | Kw::Bool
                | Kw::Char
                | Kw::Short
                | Kw::Int
                | Kw::Long
                | Kw::Float
                | Kw::Float16
                | Kw::Double
                | Kw::Signed
                | Kw::Unsigned
                | Kw::Int128
                | Kw::Const
                | Kw::Volatile
                | Kw::Struct
                | Kw::Class
                | Kw::Union
                | Kw::Enum
                | Kw::Typename
                | Kw::Decltype
                | Kw::Typeof,
            ) => true,
            Some(_) => false,
            None if t.kind == TokenKind::Ident => {
                // `a::b::T`, `X<A, 2>::T`: the last part decides.
                let mut j = k;
                let mut last = t;
                loop {
                    // Template arguments of a part: skipped to the `::` after them.
                    let mut after = j + 1;
                    if self.peek_at(after).kind == TokenKind::Punct(Punct::Lt) && self.is_template_name(last.text) {
                        match self.template_args_end(after) {
                            Some(e) => after = e,
                            None => break,
                        }
                    }
                    if !(self.peek_at(after).kind == TokenKind::Punct(Punct::ColonColon)
                        && self.peek_at(after + 1).kind == TokenKind::Ident)
                    {
                        break;
                    }
                    if after + 1 >= super::LOOKAHEAD {
                        // A qualified name longer than the lookahead: not taken as a type.
                        return false;
                    }
                    j = after + 1;
                    last = self.peek_at(j);
                }
                self.is_type_name(last.text)
            }
            None => {
                t.kind == TokenKind::Punct(Punct::ColonColon) && self.peek_at(k + 1).kind == TokenKind::Ident && self.starts_type(k + 1)
            }
        }
    }

    /// The lookahead index just past the `>` closing template arguments that open with the
    /// `<` at `k` (`>>` closes two); `None` when they do not close within the lookahead or a
    /// token that cannot be in template arguments (`;`, `{`) comes first.
    pub(crate) fn template_args_end(&self, k: usize) -> Option<usize> {
        let mut angle = 0usize;
        let mut paren = 0usize;
        let mut j = k;
        while j < super::LOOKAHEAD / 2 {
            match self.peek_at(j).kind {
                TokenKind::Punct(Punct::Lt) if paren == 0 => angle += 1,
                TokenKind::Punct(Punct::Gt) if paren == 0 => {
                    angle -= 1;
                    if angle == 0 {
                        return Some(j + 1);
                    }
                }
                TokenKind::Punct(Punct::Shr) if paren == 0 => {
                    if angle <= 2 {
                        return (angle == 2).then_some(j + 1);
                    }
                    angle -= 2;
                }
                TokenKind::Punct(Punct::LParen | Punct::LBracket) => paren += 1,
                TokenKind::Punct(Punct::RParen | Punct::RBracket) => paren = paren.checked_sub(1)?,
                TokenKind::Punct(Punct::Semi | Punct::LBrace | Punct::RBrace) | TokenKind::Eof => return None,
                _ => {}
            }
            j += 1;
        }
        None
    }

    /// Whether a constructor's qualified name follows, then `(`: `S::S(`, `ns::S::S(`,
    /// `S<T>::S(` (the last two parts name the same class).
    fn qualified_ctor_follows(&self) -> bool {
        let mut j = usize::from(self.peek().kind == TokenKind::Punct(Punct::ColonColon));
        let mut parts = Vec::new();
        loop {
            let t = self.peek_at(j);
            if t.kind != TokenKind::Ident || self.kw_of(t).is_some() {
                return false;
            }
            parts.push((t.text, false));
            j += 1;
            if self.peek_at(j).kind == TokenKind::Punct(Punct::Lt) {
                let Some(end) = self.template_args_end(j) else { return false };
                j = end;
                parts.last_mut().expect("pushed").1 = true;
            }
            match self.peek_at(j).kind {
                TokenKind::Punct(Punct::ColonColon) => j += 1,
                TokenKind::Punct(Punct::LParen) => break,
                _ => return false,
            }
            if j >= super::LOOKAHEAD / 2 {
                return false;
            }
        }
        matches!(parts.as_slice(), [.., (class, _), (ctor, false)] if class == ctor)
    }

    /// Whether a declaration starts here (specifiers or a type).
    pub(crate) fn starts_decl(&self) -> bool {
        let t = self.peek();
        matches!(
            self.kw_of(t),
            Some(
                Kw::Static
                    | Kw::Extern
                    | Kw::Inline
                    | Kw::Constexpr
                    | Kw::Typedef
                    | Kw::Register
                    | Kw::Attribute
                    | Kw::Template
                    | Kw::Using
                    | Kw::StaticAssert
                    | Kw::Auto
                    | Kw::Thread
                    | Kw::Alignas
                    | Kw::Namespace
                    | Kw::Declspec
                    | Kw::Restrict
            )
        ) || self.starts_type(0)
    }

    // ----- attributes -------------------------------------------------------------------

    /// `__attribute__((a, b(args)))` at the keyword; CUDA spaces go to `specs`.
    fn parse_gnu_attributes(&mut self, ds: &mut DeclSpecs) {
        self.bump();
        if !self.expect(Punct::LParen, "after __attribute__") || !self.expect(Punct::LParen, "after __attribute__(") {
            self.recover_to_semi();
            return;
        }
        loop {
            if self.at(Punct::RParen) {
                break;
            }
            let t = self.bump();
            if t.kind != TokenKind::Ident {
                let msg = format!("expected an attribute name, found {}", self.describe(&t));
                self.error(t.span, msg);
                break;
            }
            let name = self.ident_text(t).trim_matches('_').to_string();
            let mut args = Vec::new();
            if self.at(Punct::LParen) {
                self.bump();
                args = self.parse_args(Punct::RParen);
            }
            match name.as_str() {
                "device" => (ds.specs.device, self.device_marks) = (true, self.device_marks + 1),
                "global" => (ds.specs.global, self.device_marks) = (true, self.device_marks + 1),
                "host" => ds.specs.host = true,
                "shared" => (ds.specs.shared, self.device_marks) = (true, self.device_marks + 1),
                "constant" => (ds.specs.constant, self.device_marks) = (true, self.device_marks + 1),
                "managed" => (ds.specs.managed, self.device_marks) = (true, self.device_marks + 1),
                // The name as spelled (`__aligned__`): a token's atom, never one the parser makes
                // (the stripped `aligned` could be a later token's spelling).
                _ => ds.attrs.push(Attribute { name: t.text, args, span: t.span.to(self.prev_span()) }),
            }
            if !self.eat(Punct::Comma) {
                break;
            }
        }
        self.expect(Punct::RParen, "to close the attribute list");
        self.expect(Punct::RParen, "to close __attribute__((");
    }

    // ----- specifiers -------------------------------------------------------------------

    /// Declaration specifiers. `ctor_class`: in a class body, the class's name (a
    /// constructor `S(...)` has no type).
    pub(crate) fn parse_decl_specs(&mut self, ctor_class: Option<Atom>) -> DeclSpecs {
        let mut ds = DeclSpecs { span: self.peek().span, ..Default::default() };
        let mut b = BuiltinCounts::default();
        let start = self.peek().span;
        loop {
            let t = self.peek();
            if t.kind == TokenKind::Punct(Punct::LBracket) && self.peek_at(1).kind == TokenKind::Punct(Punct::LBracket) {
                // `[[attr]]`: skipped (none changes device code we support).
                self.skip_parens();
                continue;
            }
            match self.kw_of(t) {
                Some(Kw::Static) => ds.specs.is_static = true,
                Some(Kw::Extern) => {
                    ds.specs.is_extern = true;
                    if self.peek_at(1).kind == TokenKind::Str {
                        ds.specs.extern_c = true;
                        self.bump();
                    }
                }
                Some(Kw::Inline) => ds.specs.is_inline = true,
                Some(Kw::Constexpr) => ds.specs.is_constexpr = true,
                Some(Kw::Typedef) => ds.specs.is_typedef = true,
                Some(Kw::Register) => ds.specs.is_register = true,
                Some(Kw::Virtual) => ds.specs.is_virtual = true,
                Some(Kw::Explicit) => {
                    ds.specs.is_explicit = true;
                    if self.peek_at(1).kind == TokenKind::Punct(Punct::LParen) {
                        self.bump();
                        self.skip_parens();
                        continue;
                    }
                }
                Some(Kw::Friend | Kw::Mutable | Kw::Thread) => {}
                Some(Kw::Const) => ds.quals.is_const = true,
                Some(Kw::Volatile) => ds.quals.is_volatile = true,
                Some(Kw::Restrict) => ds.quals.is_restrict = true,
                Some(Kw::Attribute) => {
                    self.parse_gnu_attributes(&mut ds);
                    continue;
                }
                Some(Kw::Declspec | Kw::Alignas) => {
                    self.bump();
                    self.skip_parens();
                    continue;
                }
                Some(Kw::Void) => b.void = true,
                Some(Kw::Bool) => b.bool_ = true,
                Some(Kw::Char) => b.char_ = true,
                Some(Kw::Short) => b.short = true,
                Some(Kw::Int) => b.int = true,
                Some(Kw::Long) => b.long += 1,
                Some(Kw::Float) => b.float = true,
                Some(Kw::Float16) => b.half = true,
                Some(Kw::Double) => b.double = true,
                Some(Kw::Signed) => b.signed = true,
                Some(Kw::Unsigned) => b.unsigned = true,
                Some(Kw::Int128) => b.int128 = true,
                Some(Kw::Auto) => b.auto = true,
                Some(Kw::Struct | Kw::Class | Kw::Union) if ds.ty.is_none() && !b.any => {
                    let (ty, def) = self.parse_record_spec();
                    ds.ty = Some(ty);
                    ds.defined = def;
                    continue;
                }
                Some(Kw::Enum) if ds.ty.is_none() && !b.any => {
                    let (ty, def) = self.parse_enum_spec();
                    ds.ty = Some(ty);
                    ds.defined = def;
                    continue;
                }
                Some(Kw::Typename) if ds.ty.is_none() && !b.any => {
                    self.bump();
                    if let Some(n) = self.parse_name(true) {
                        let sp = n.span;
                        ds.ty = Some(self.ast.add_type(TypeKind::Named(n), Quals::default(), sp));
                    }
                    continue;
                }
                Some(k @ (Kw::Decltype | Kw::Typeof)) if ds.ty.is_none() && !b.any => {
                    self.bump();
                    self.expect(Punct::LParen, "after decltype");
                    // `__typeof__` also takes a type.
                    let kind = if k == Kw::Typeof && self.starts_type(0) {
                        let t = self.parse_type_id();
                        self.ast.ty(t).kind.clone()
                    } else {
                        let e = self.parse_expr();
                        if k == Kw::Decltype {
                            TypeKind::Decltype(e)
                        } else {
                            TypeKind::Typeof(e)
                        }
                    };
                    self.expect(Punct::RParen, "after decltype's operand");
                    ds.ty = Some(self.ast.add_type(kind, Quals::default(), t.span.to(self.prev_span())));
                    continue;
                }
                Some(_) => break,
                None => {
                    if ds.ty.is_some() || b.any || !(t.kind == TokenKind::Ident || t.kind == TokenKind::Punct(Punct::ColonColon)) {
                        break;
                    }
                    // A constructor `S(`, or one defined out of line (`S::S(`, `S<T>::S(`): no type.
                    if ctor_class == Some(t.text) && self.peek_at(1).kind == TokenKind::Punct(Punct::LParen) {
                        break;
                    }
                    if self.qualified_ctor_follows() {
                        break;
                    }
                    if !self.starts_type(0) {
                        break;
                    }
                    if let Some(n) = self.parse_name(true) {
                        let sp = n.span;
                        ds.ty = Some(self.ast.add_type(TypeKind::Named(n), Quals::default(), sp));
                    }
                    continue;
                }
            }
            if matches!(
                self.kw_of(t),
                Some(
                    Kw::Void
                        | Kw::Bool
                        | Kw::Char
                        | Kw::Short
                        | Kw::Int
                        | Kw::Long
                        | Kw::Float
                        | Kw::Float16
                        | Kw::Double
                        | Kw::Signed
                        | Kw::Unsigned
                        | Kw::Int128
                        | Kw::Auto
                )
            ) {
                b.any = true;
            }
            self.bump();
        }
        if b.any {
            let kind = match self.builtin_from(&b) {
                Ok(k) => k,
                Err(m) => {
                    let sp = start.to(self.prev_span());
                    self.error(sp, m);
                    TypeKind::Builtin(Builtin::Int)
                }
            };
            ds.ty = Some(self.ast.add_type(kind, Quals::default(), start.to(self.prev_span())));
        }
        ds.span = start.to(self.prev_span());
        ds
    }

    fn builtin_from(&self, b: &BuiltinCounts) -> Result<TypeKind, String> {
        use Builtin::*;
        if b.auto {
            return Ok(TypeKind::Auto);
        }
        let k = match () {
            _ if b.void => Void,
            _ if b.bool_ => Bool,
            _ if b.float => Float,
            _ if b.half => Half,
            _ if b.double && b.long > 0 => LongDouble,
            _ if b.double => Double,
            _ if b.int128 => {
                if b.unsigned {
                    UInt128
                } else {
                    Int128
                }
            }
            _ if b.char_ => {
                if b.unsigned {
                    UChar
                } else if b.signed {
                    SChar
                } else {
                    Char
                }
            }
            _ if b.short => {
                if b.unsigned {
                    UShort
                } else {
                    Short
                }
            }
            _ if b.long >= 2 => {
                if b.unsigned {
                    ULongLong
                } else {
                    LongLong
                }
            }
            _ if b.long == 1 => {
                if b.unsigned {
                    ULong
                } else {
                    Long
                }
            }
            _ => {
                if b.unsigned {
                    UInt
                } else {
                    Int
                }
            }
        };
        if b.long > 2 {
            return Err("'long long long' is too long".into());
        }
        if b.signed && b.unsigned {
            return Err("a type cannot be both signed and unsigned".into());
        }
        Ok(TypeKind::Builtin(k))
    }

    /// `struct/class/union [attrs] [name] [: bases] [{ members }]` at the keyword.
    fn parse_record_spec(&mut self) -> (TypeId, Option<DeclId>) {
        let kw = self.bump();
        let mut ds = DeclSpecs::default();
        while self.at_kw(Kw::Attribute) {
            self.parse_gnu_attributes(&mut ds);
        }
        while self.at_kw(Kw::Declspec) || self.at_kw(Kw::Alignas) {
            self.bump();
            self.skip_parens();
        }
        let name = self.parse_name(true);
        if let Some(n) = &name {
            if n.parts.len() == 1 {
                self.declare_type(n.parts[0]);
            }
        }
        // `struct S final`: the class-virt-specifier (an identifier elsewhere).
        if name.is_some()
            && self.peek().kind == TokenKind::Ident
            && self.ident_text(self.peek()) == "final"
            && matches!(self.peek_at(1).kind, TokenKind::Punct(Punct::Colon | Punct::LBrace))
        {
            self.bump();
        }
        let mut bases = Vec::new();
        let mut virtual_base = None;
        if self.at(Punct::Colon) && (self.peek_at(1).kind == TokenKind::Ident) {
            self.bump();
            loop {
                while matches!(self.kw_of(self.peek()), Some(Kw::Public | Kw::Private | Kw::Protected | Kw::Virtual)) {
                    let t = self.bump();
                    if self.kw_of(t) == Some(Kw::Virtual) {
                        virtual_base = Some(t.span);
                    }
                }
                let Some(b) = self.parse_name(true) else { break };
                let sp = b.span;
                bases.push(self.ast.add_type(TypeKind::Named(b), Quals::default(), sp));
                if !self.eat(Punct::Comma) {
                    break;
                }
            }
        }
        let ty_name = name.clone().unwrap_or(Name {
            global: false,
            parts: smallvec::smallvec![self.src.interner_mut().intern_local("<anonymous>")],
            template_args: None,
            scope_args: Vec::new(),
            span: kw.span,
        });
        let ty =
            self.ast.add_type(TypeKind::Elaborated { keyword: kw.text, name: ty_name }, Quals::default(), kw.span.to(self.prev_span()));
        if !self.at(Punct::LBrace) {
            // `struct S;`: a forward declaration declares `S` (incomplete).
            if let Some(n) = name.as_ref().filter(|n| self.at(Punct::Semi) && n.parts.len() == 1 && !n.global && n.template_args.is_none())
            {
                let d = self.ast.add_decl(
                    DeclKind::Record {
                        keyword: kw.text,
                        name: Some(n.parts[0]),
                        targs: None,
                        bases: Vec::new(),
                        virtual_base: None,
                        members: None,
                        attrs: Vec::new(),
                    },
                    kw.span.to(self.prev_span()),
                );
                return (ty, Some(d));
            }
            return (ty, None);
        }
        let class_name = name.as_ref().and_then(|n| n.parts.last().copied());
        let targs = name.as_ref().and_then(|n| n.template_args.clone());
        self.bump();
        self.push_scope();
        let mut members = Vec::new();
        while !self.at(Punct::RBrace) && !self.at_eof() {
            if matches!(self.kw_of(self.peek()), Some(Kw::Public | Kw::Private | Kw::Protected))
                && self.peek_at(1).kind == TokenKind::Punct(Punct::Colon)
            {
                self.bump();
                self.bump();
                continue;
            }
            let before = self.pos;
            self.parse_decl_into(&mut members, class_name, true);
            if self.pos == before {
                let t = self.bump();
                let msg = format!("expected a member declaration, found {}", self.describe(&t));
                self.error(t.span, msg);
            }
        }
        self.pop_scope();
        // Member type names stay visible as `S::T` only; the class name stays declared.
        if let Some(c) = class_name {
            self.declare_type(c);
        }
        self.expect(Punct::RBrace, "to close the class body");
        let span = kw.span.to(self.prev_span());
        let d = self.ast.add_decl(
            DeclKind::Record { keyword: kw.text, name: class_name, targs, bases, virtual_base, members: Some(members), attrs: ds.attrs },
            span,
        );
        // An unnamed class is its definition (no name to look it up by).
        let ty = if name.is_none() { self.ast.add_type(TypeKind::Defined(d), Quals::default(), span) } else { ty };
        (ty, Some(d))
    }

    /// `enum [class] [name] [: type] [{ a = 1, b }]` at the keyword.
    fn parse_enum_spec(&mut self) -> (TypeId, Option<DeclId>) {
        let kw = self.bump();
        let scoped = self.eat_kw(Kw::Class) || self.eat_kw(Kw::Struct);
        let name = if self.is_plain_ident(self.peek()) { Some(self.bump()) } else { None };
        if let Some(n) = name {
            self.declare_type(n.text);
        }
        let underlying = if self.at(Punct::Colon) {
            self.bump();
            Some(self.parse_type_id())
        } else {
            None
        };
        let ty_name = Name {
            global: false,
            parts: smallvec::smallvec![name.map_or_else(|| self.src.interner_mut().intern_local("<anonymous enum>"), |n| n.text)],
            template_args: None,
            scope_args: Vec::new(),
            span: kw.span,
        };
        let ty =
            self.ast.add_type(TypeKind::Elaborated { keyword: kw.text, name: ty_name }, Quals::default(), kw.span.to(self.prev_span()));
        if !self.at(Punct::LBrace) {
            return (ty, None);
        }
        self.bump();
        let mut items = Vec::new();
        while !self.at(Punct::RBrace) && !self.at_eof() {
            let t = self.bump();
            if !self.is_plain_ident(t) {
                let msg = format!("expected an enumerator name, found {}", self.describe(&t));
                self.error(t.span, msg);
                self.recover_to_semi();
                break;
            }
            let value = if self.eat(Punct::Eq) { Some(self.parse_assign()) } else { None };
            items.push((t.text, value, t.span));
            if !self.eat(Punct::Comma) {
                break;
            }
        }
        self.expect(Punct::RBrace, "to close the enum");
        let span = kw.span.to(self.prev_span());
        let d = self.ast.add_decl(DeclKind::Enum { name: name.map(|n| n.text), scoped, underlying, enumerators: items }, span);
        let ty = if name.is_none() { self.ast.add_type(TypeKind::Defined(d), Quals::default(), span) } else { ty };
        (ty, Some(d))
    }

    // ----- declarators ------------------------------------------------------------------

    /// A type-id: specifiers and an abstract declarator (`const float*`, `int[4]`).
    pub(crate) fn parse_type_id(&mut self) -> TypeId {
        let ds = self.parse_decl_specs(None);
        let base = self.base_type(&ds);
        let d = self.parse_declarator(base, true);
        d.ty
    }

    /// Just the type specifiers, no declarator (for `T(args)` expressions).
    pub(crate) fn parse_type_specifier_only(&mut self) -> TypeId {
        let ds = self.parse_decl_specs(None);
        self.base_type(&ds)
    }

    pub(crate) fn base_type(&mut self, ds: &DeclSpecs) -> TypeId {
        match ds.ty {
            Some(t) => {
                if ds.quals != Quals::default() {
                    let mut ty = self.ast.ty(t).clone();
                    ty.quals.is_const |= ds.quals.is_const;
                    ty.quals.is_volatile |= ds.quals.is_volatile;
                    ty.quals.is_restrict |= ds.quals.is_restrict;
                    self.ast.add_type(ty.kind, ty.quals, ty.span)
                } else {
                    t
                }
            }
            None => {
                // `const x` / `unsigned`-less: implicit int (C) — a type error sema reports;
                // keep going with int.
                self.ast.add_type(TypeKind::Builtin(Builtin::Int), ds.quals, ds.span)
            }
        }
    }

    /// A declarator over `base`. `abstract_ok`: the name may be missing.
    pub(crate) fn parse_declarator(&mut self, base: TypeId, abstract_ok: bool) -> Declarator {
        let start = self.peek().span;
        if !self.enter() {
            self.leave();
            return Declarator { name: None, ty: base, func: None, span: start };
        }
        // Pointer and reference operators, with their qualifiers.
        let mut ty = base;
        loop {
            let t = self.peek();
            match t.kind {
                TokenKind::Punct(Punct::Star) => {
                    self.bump();
                    let mut q = Quals::default();
                    loop {
                        match self.kw_of(self.peek()) {
                            Some(Kw::Const) => q.is_const = true,
                            Some(Kw::Volatile) => q.is_volatile = true,
                            Some(Kw::Restrict) => q.is_restrict = true,
                            _ => break,
                        }
                        self.bump();
                    }
                    ty = self.ast.add_type(TypeKind::Pointer(ty), q, t.span);
                }
                TokenKind::Punct(Punct::Amp | Punct::AmpAmp) => {
                    self.bump();
                    while matches!(self.kw_of(self.peek()), Some(Kw::Restrict | Kw::Const | Kw::Volatile)) {
                        self.bump();
                    }
                    ty = self.ast.add_type(
                        TypeKind::Reference { to: ty, rvalue: t.kind == TokenKind::Punct(Punct::AmpAmp) },
                        Quals::default(),
                        t.span,
                    );
                }
                _ if self.at_kw(Kw::Attribute) => {
                    let mut ds = DeclSpecs::default();
                    self.parse_gnu_attributes(&mut ds);
                }
                _ => break,
            }
        }
        // The direct declarator: a name, a parenthesized declarator, or nothing.
        let named = std::mem::take(&mut self.name_follows_type);
        let mut name = None;
        let mut inner_at = None;
        let t = self.peek();
        if t.kind == TokenKind::Punct(Punct::LParen) && self.paren_is_nested_declarator() {
            inner_at = Some(self.pos);
            self.skip_parens();
        } else if (self.is_plain_ident(t) || t.kind == TokenKind::Punct(Punct::ColonColon) || self.at_kw(Kw::Operator))
            // After `*` or `&`, a name is the declarator's even where it names a type too
            // (`flag_type *dir` with an `enum dir` in scope).
            && !(abstract_ok && ty == base && !named && self.starts_type(0) && !self.at_kw(Kw::Operator))
        {
            self.conversion_type = None;
            name = self.parse_name(true);
            // A conversion function returns its conversion type.
            if let Some(ct) = self.conversion_type.take() {
                ty = ct;
            }
        } else if t.kind == TokenKind::Punct(Punct::Tilde) && self.is_plain_ident(self.peek_at(1)) {
            // A destructor `~S`.
            self.bump();
            let n = self.bump();
            let text = format!("~{}", self.ident_text(n));
            let a = self.src.interner_mut().intern_local(&text);
            name = Some(Name {
                global: false,
                parts: smallvec::smallvec![a],
                template_args: None,
                scope_args: Vec::new(),
                span: t.span.to(n.span),
            });
        } else if !abstract_ok {
            let msg = format!("expected a name in the declaration, found {}", self.describe(&t));
            self.error(t.span, msg);
        }
        // Suffixes: arrays and function parameter lists, applied right to left.
        let mut suffixes: Vec<Suffix> = Vec::new();
        loop {
            if self.at(Punct::LBracket) {
                self.bump();
                let size = if self.at(Punct::RBracket) { None } else { Some(self.parse_expr()) };
                self.expect(Punct::RBracket, "to close the array size");
                suffixes.push(Suffix::Array(size));
            } else if self.at(Punct::LParen) {
                // `T x(1, 2)` is a direct initialization, not a function: a parameter list
                // starts with a type, `)` or `...`.
                let n = self.peek_at(1);
                let params_follow = self.starts_type(1)
                    || matches!(n.kind, TokenKind::Punct(Punct::RParen | Punct::Ellipsis))
                    || matches!(self.kw_of(n), Some(Kw::Attribute | Kw::Register | Kw::Restrict | Kw::Auto));
                if name.is_some() && !params_follow {
                    break;
                }
                self.bump();
                let f = self.parse_params();
                suffixes.push(Suffix::Func(f));
                // Trailing qualifiers and specifiers of function declarators.
                loop {
                    match self.kw_of(self.peek()) {
                        Some(Kw::Const) => {
                            self.bump();
                            if let Some(Suffix::Func(f)) = suffixes.last_mut() {
                                f.is_const = true;
                            }
                        }
                        Some(Kw::Volatile) => {
                            self.bump();
                        }
                        Some(Kw::Noexcept) => {
                            self.bump();
                            if self.at(Punct::LParen) {
                                self.skip_parens();
                            }
                        }
                        // A dynamic exception specification (`throw()`, removed in C++17
                        // but common in older host code): no effect on device code.
                        Some(Kw::Throw) if self.peek_at(1).kind == TokenKind::Punct(Punct::LParen) => {
                            self.bump();
                            self.skip_parens();
                        }
                        Some(Kw::Attribute) => {
                            let mut ds = DeclSpecs::default();
                            self.parse_gnu_attributes(&mut ds);
                        }
                        _ => break,
                    }
                }
                if self.at(Punct::Amp) || self.at(Punct::AmpAmp) {
                    self.bump();
                }
                if self.at(Punct::Arrow) {
                    // A trailing return type replaces `auto`.
                    self.bump();
                    let rt = self.parse_type_id();
                    ty = rt;
                }
                // The virt-specifiers `override` and `final` (identifiers elsewhere).
                while self.peek().kind == TokenKind::Ident && matches!(self.ident_text(self.peek()), "override" | "final") {
                    self.bump();
                }
            } else {
                break;
            }
        }
        let mut func = None;
        for s in suffixes.into_iter().rev() {
            match s {
                Suffix::Array(size) => {
                    ty = self.ast.add_type(TypeKind::Array { elem: ty, size }, Quals::default(), start.to(self.prev_span()))
                }
                Suffix::Func(f) => {
                    let params: Vec<TypeId> = f.params.iter().map(|p| p.ty).collect();
                    ty = self.ast.add_type(
                        TypeKind::Function { ret: ty, params, variadic: f.variadic },
                        Quals::default(),
                        start.to(self.prev_span()),
                    );
                    func = Some(f);
                }
            }
        }
        let end = self.pos;
        let mut out = Declarator { name, ty, func, span: start.to(self.prev_span()) };
        if let Some(at) = inner_at {
            // `T (*p)[3]`: the inner declarator applies to the type built so far.
            self.pos = at + 1;
            let inner = self.parse_declarator(ty, abstract_ok);
            self.expect(Punct::RParen, "to close the parenthesized declarator");
            self.pos = end;
            out = Declarator { name: inner.name, ty: inner.ty, func: inner.func.or(out.func), span: out.span };
        }
        self.leave();
        out
    }

    /// At `(` in a declarator: a nested declarator (`(*p)`, `(&r)`, `(name)`) rather than a
    /// parameter list.
    fn paren_is_nested_declarator(&self) -> bool {
        let n = self.peek_at(1);
        match n.kind {
            TokenKind::Punct(Punct::Star | Punct::Amp | Punct::AmpAmp | Punct::Caret) => true,
            TokenKind::Punct(Punct::LParen) => true,
            TokenKind::Ident => self.kw_of(n).is_none() && !self.starts_type(1) && self.peek_at(2).kind != TokenKind::Punct(Punct::Comma),
            _ => false,
        }
    }

    /// A parameter list after `(`.
    pub(crate) fn parse_params(&mut self) -> FuncParts {
        let mut params = Vec::new();
        let mut variadic = false;
        // `(void)`
        if self.at_kw(Kw::Void) && self.peek_at(1).kind == TokenKind::Punct(Punct::RParen) {
            self.bump();
        }
        if self.eat(Punct::RParen) {
            return FuncParts { params, variadic, is_const: false };
        }
        loop {
            if self.eat(Punct::Ellipsis) {
                variadic = true;
                break;
            }
            let start = self.peek().span;
            let ds = self.parse_decl_specs(None);
            if ds.ty.is_none() && ds.quals == Quals::default() {
                let t = self.peek();
                let msg = format!("expected a parameter type, found {}", self.describe(&t));
                self.error(t.span, msg);
                while !self.at_eof() && !self.at(Punct::RParen) && !self.at(Punct::Semi) && !self.at(Punct::LBrace) {
                    self.bump();
                }
                break;
            }
            let base = self.base_type(&ds);
            // `T x` where `x` also names a type: with a type given, a name that ends the
            // parameter is its name.
            let t = self.peek();
            self.name_follows_type = ds.ty.is_some()
                && self.is_plain_ident(t)
                && matches!(self.peek_at(1).kind, TokenKind::Punct(Punct::Comma | Punct::RParen | Punct::Eq | Punct::LBracket));
            let d = self.parse_declarator(base, true);
            self.name_follows_type = false;
            // A function parameter pack `Ts... args` / `const Ts &...args` (the declarator
            // stops at the `...`, before the name).
            let mut name = d.name.as_ref().and_then(|n| n.parts.last().copied());
            let mut pack = false;
            if name.is_none() && self.eat(Punct::Ellipsis) {
                pack = true;
                if self.is_plain_ident(self.peek()) {
                    name = Some(self.bump().text);
                }
            }
            let default = if self.eat(Punct::Eq) { Some(self.parse_assign()) } else { None };
            params.push(Param { name, ty: d.ty, default, span: start.to(self.prev_span()), pack });
            if !self.eat(Punct::Comma) {
                break;
            }
        }
        self.expect(Punct::RParen, "to close the parameter list");
        FuncParts { params, variadic, is_const: false }
    }

    // ----- declarations -----------------------------------------------------------------

    /// Top-level declarations (one construct; several decls for `int a, b;`).
    pub(crate) fn parse_top_decls(&mut self, out: &mut Vec<DeclId>) {
        self.parse_decl_into(out, None, false);
    }

    /// A namespace-scope declaration, tolerated if it is host code: one that reads no CUDA
    /// space attribute and fails to parse is dropped, its errors demoted to host-code
    /// diagnostics (see the module docs). Anything else is [`Parser::parse_top_decls`].
    pub(crate) fn parse_decl_tolerant(&mut self, out: &mut Vec<DeclId>) {
        let (marks, diags, decls, start) = (self.device_marks, self.diags.len(), out.len(), self.pos);
        self.parse_top_decls(out);
        if self.device_marks == marks && self.diags[diags..].iter().any(|d| d.severity == Severity::Error) {
            // Resume where the declaration ends by its brackets, not where recovery stopped
            // (which may be inside it, or past the start of the next one).
            if start >= self.base {
                self.pos = start;
                // Device code that the parser never reached (a kernel inside a namespace
                // whose header it could not read) keeps its errors: dropping it would be
                // a silently missing kernel.
                if self.skip_declaration() {
                    return;
                }
            }
            out.truncate(decls);
            self.demote_to_host(diags);
        }
    }

    /// Skips a declaration by its brackets: to the first `;` outside brackets, or past a
    /// `}` that closes a brace opened outside brackets (and a `;` right after it).
    /// Returns whether the skipped tokens hold a CUDA space attribute
    /// (`__attribute__((global))`, ...).
    fn skip_declaration(&mut self) -> bool {
        let mut depth = 0usize;
        let mut marked = false;
        // The last three tokens: `__attribute__`, `(`, `(`.
        let mut attr = 0u8;
        while !self.at_eof() {
            let t = self.bump();
            if t.kind == TokenKind::Ident {
                let text = self.ident_text(t);
                if attr == 3 && matches!(text.trim_matches('_'), "global" | "device" | "shared" | "constant" | "managed") {
                    marked = true;
                }
                attr = u8::from(text == "__attribute__");
            } else if t.kind == TokenKind::Punct(Punct::LParen) && (attr == 1 || attr == 2) {
                attr += 1;
            } else {
                attr = 0;
            }
            match t.kind {
                TokenKind::Punct(Punct::LBrace | Punct::LParen | Punct::LBracket) => depth += 1,
                TokenKind::Punct(Punct::RParen | Punct::RBracket) => depth = depth.saturating_sub(1),
                TokenKind::Punct(Punct::RBrace) => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        self.eat(Punct::Semi);
                        return marked;
                    }
                }
                TokenKind::Punct(Punct::Semi) if depth == 0 => return marked,
                _ => {}
            }
        }
        marked
    }

    /// Demotes the errors and warnings reported since `from` to host-code diagnostics.
    pub(crate) fn demote_to_host(&mut self, from: usize) {
        for d in &mut self.diags[from..] {
            if d.severity > Severity::Note {
                d.severity = Severity::Host;
            }
        }
    }

    /// A host function's body (at its `{`): parsed for what sema reads in it, its errors
    /// demoted to host-code diagnostics; it ends at the `}` that balances the `{`, whatever
    /// the parser made of the tokens in between (host code uses C++ that the parser does
    /// not take, and its recovery must not eat the declarations after the body).
    fn parse_host_body(&mut self) -> StmtId {
        let (open, diags) = (self.pos, self.diags.len());
        self.skip_braces();
        let end = self.pos;
        self.pos = open;
        self.push_scope();
        let body = self.parse_compound();
        self.pop_scope();
        if self.pos != end {
            let t = self.peek();
            self.error(t.span, "host code the parser could not follow; its reading ends here");
            self.pos = end;
        }
        self.demote_to_host(diags);
        body
    }

    /// Parses one declaration construct into `out`. `class`: the enclosing class name when
    /// parsing members.
    pub(crate) fn parse_decl_into(&mut self, out: &mut Vec<DeclId>, class: Option<Atom>, in_class: bool) {
        let t = self.peek();
        if self.eat(Punct::Semi) {
            return;
        }
        if t.kind == TokenKind::PragmaUnroll {
            self.bump();
            self.diags.push(crate::diag::Diagnostic::warning(t.span, "'#pragma unroll' outside a function is ignored"));
            return;
        }
        match self.kw_of(t) {
            Some(Kw::Namespace) => return self.parse_namespace(out),
            Some(Kw::Template) => return self.parse_template(out, class, in_class),
            Some(Kw::Using) => return self.parse_using(out),
            Some(Kw::StaticAssert) => {
                self.bump();
                self.expect(Punct::LParen, "after static_assert");
                let cond = self.parse_assign();
                let message = if self.eat(Punct::Comma) && self.peek().kind == TokenKind::Str { Some(self.bump().text) } else { None };
                self.expect(Punct::RParen, "to close static_assert");
                self.expect(Punct::Semi, "after static_assert");
                out.push(self.ast.add_decl(DeclKind::StaticAssert { cond, message }, t.span.to(self.prev_span())));
                return;
            }
            Some(Kw::Extern) if self.peek_at(1).kind == TokenKind::Str && self.peek_at(2).kind == TokenKind::Punct(Punct::LBrace) => {
                self.bump();
                self.bump();
                self.bump();
                let mut inner = Vec::new();
                self.in_block += 1;
                while !self.at(Punct::RBrace) && !self.at_eof() {
                    self.compact();
                    let before = self.pos;
                    self.parse_decl_tolerant(&mut inner);
                    if self.pos == before {
                        self.bump();
                    }
                }
                self.in_block -= 1;
                self.expect(Punct::RBrace, "to close the extern block");
                out.push(self.ast.add_decl(DeclKind::LinkageSpec(inner), t.span.to(self.prev_span())));
                return;
            }
            _ => {}
        }
        let ds = self.parse_decl_specs(class);
        let decl_start = ds.span;
        if let Some(d) = ds.defined {
            out.push(d);
        }
        if self.eat(Punct::Semi) {
            // `struct S { ... };`. A member `union { ... };` is an anonymous struct or union:
            // an unnamed member (named `<anonymous>`) whose members are found as the
            // enclosing class's.
            if let Some(d) = ds.defined.filter(|_| in_class) {
                if let DeclKind::Record { name: None, members: Some(_), .. } = &self.ast.decl(d).kind {
                    let span = self.ast.decl(d).span;
                    let name = Name {
                        global: false,
                        parts: smallvec::smallvec![self.src.interner_mut().intern_local("<anonymous>")],
                        template_args: None,
                        scope_args: Vec::new(),
                        span,
                    };
                    let ty = self.base_type(&ds);
                    out.push(self.ast.add_decl(DeclKind::Var { specs: ds.specs, name, ty, init: None, attrs: ds.attrs.clone() }, span));
                }
            }
            return;
        }
        let base = self.base_type(&ds);
        loop {
            let d = self.parse_declarator(base, false);
            let Some(name) = d.name.clone() else {
                self.recover_to_semi();
                return;
            };
            if ds.specs.is_typedef {
                if let Some(&n) = name.parts.last() {
                    self.declare_type(n);
                    out.push(self.ast.add_decl(DeclKind::Typedef { name: n, ty: d.ty }, decl_start.to(self.prev_span())));
                }
            } else if let Some(f) = d.func.clone().filter(|_| matches!(self.ast.ty(d.ty).kind, TypeKind::Function { .. })) {
                let mut ret = match &self.ast.ty(d.ty).kind {
                    TypeKind::Function { ret, .. } => *ret,
                    _ => base,
                };
                // Constructors and destructors have no return type: void.
                let last = name.parts.last().map(|&a| self.src.interner().str(a).to_string()).unwrap_or_default();
                let out_of_line_ctor = name.parts.len() >= 2 && name.parts[name.parts.len() - 2] == name.parts[name.parts.len() - 1];
                if ds.ty.is_none()
                    && (class.is_some_and(|c| self.src.interner().str(c) == last) || out_of_line_ctor || last.starts_with('~'))
                {
                    ret = self.ast.add_type(TypeKind::Builtin(Builtin::Void), Quals::default(), name.span);
                }
                let decl = self.parse_function_rest(&ds, name, ret, f, decl_start);
                out.push(decl);
                if matches!(
                    &self.ast.decl(decl).kind,
                    DeclKind::Function { body: Some(_), .. } | DeclKind::Function { host_body: true, .. }
                ) {
                    return; // a definition ends the construct
                }
            } else {
                let init = if self.eat(Punct::Eq) {
                    Some(if self.at(Punct::LBrace) { self.parse_init_list() } else { self.parse_assign() })
                } else if self.at(Punct::LBrace) {
                    Some(self.parse_init_list())
                } else if self.at(Punct::LParen) {
                    // Direct initialization `T x(a, b)`.
                    let open = self.bump();
                    let args = self.parse_args(Punct::RParen);
                    Some(
                        self.ast
                            .add_expr(ExprKind::InitList(args.into_iter().map(|a| (None, a)).collect()), open.span.to(self.prev_span())),
                    )
                } else if in_class && self.at(Punct::Colon) {
                    // A bit-field width: parsed, sema reports it.
                    self.bump();
                    let _ = self.parse_assign();
                    Some(self.ast.add_expr(ExprKind::Unsupported("bit-fields"), self.prev_span()))
                } else {
                    None
                };
                out.push(self.ast.add_decl(
                    DeclKind::Var { specs: ds.specs, name, ty: d.ty, init, attrs: ds.attrs.clone() },
                    decl_start.to(self.prev_span()),
                ));
            }
            if !self.eat(Punct::Comma) {
                break;
            }
        }
        if !self.eat(Punct::Semi) {
            let t = self.peek();
            let msg = format!("expected ';' after the declaration, found {}", self.describe(&t));
            self.error(t.span, msg);
            self.recover_to_semi();
        }
    }

    /// After a function declarator: `;`, `= default/delete;`, a body, or member inits.
    fn parse_function_rest(&mut self, ds: &DeclSpecs, name: Name, ret: TypeId, f: FuncParts, start: Span) -> DeclId {
        let mut specs = ds.specs;
        let mut attrs = ds.attrs.clone();
        while self.at_kw(Kw::Attribute) {
            let mut more = DeclSpecs::default();
            self.parse_gnu_attributes(&mut more);
            attrs.extend(more.attrs);
        }
        let mut body = None;
        let mut skipped = false;
        let mut inits = Vec::new();
        let device_code = specs.device || specs.global;
        if self.at(Punct::Eq) {
            // `= default`, `= delete`, `= 0` (the caller consumes the `;`)
            self.bump();
            let what = self.bump();
            specs.is_defaulted = self.kw_of(what) == Some(Kw::Default);
            specs.is_pure = what.kind == TokenKind::Number && self.ident_text(what) == "0";
        } else if self.at(Punct::Colon) || self.at(Punct::LBrace) {
            if self.at(Punct::Colon) {
                self.bump();
                loop {
                    // A member, or a base class (`Base<T, 2>(x)`, `ns::Base(x)`: its last name).
                    let m = self.peek();
                    let Some(mname) = (if m.kind == TokenKind::Ident { self.parse_name(true) } else { None }) else {
                        self.bump();
                        let msg = format!("expected a member name in the initializer list, found {}", self.describe(&m));
                        self.error(m.span, msg);
                        break;
                    };
                    let mtext = *mname.parts.last().expect("a name has a part");
                    let args = if self.at(Punct::LParen) {
                        self.bump();
                        self.parse_args(Punct::RParen)
                    } else if self.at(Punct::LBrace) {
                        let il = self.parse_init_list();
                        vec![il]
                    } else {
                        let sp = self.peek().span;
                        self.error(sp, "expected '(' or '{' after the member name");
                        Vec::new()
                    };
                    inits.push((mtext, args));
                    if !self.eat(Punct::Comma) {
                        break;
                    }
                }
            }
            if device_code {
                self.push_scope();
                for p in &f.params {
                    if let Some(n) = p.name {
                        self.declare_non_type(n);
                    }
                }
                let known = if self.body_start.is_none() {
                    self.body_start = Some(self.pos);
                    self.skip_known_body()
                } else {
                    None
                };
                body = Some(known.unwrap_or_else(|| self.parse_compound()));
                self.pop_scope();
            } else if self.at(Punct::LBrace) {
                // Host code: read for the kernels it launches, its errors tolerated.
                body = Some(self.parse_host_body());
                skipped = true;
            } else {
                let sp = self.peek().span;
                self.error(sp, "expected the function body");
            }
        } else if !self.at(Punct::Semi) && !self.at(Punct::Comma) {
            // A declaration ends at `;` (or `,`), which the caller consumes.
            let t = self.peek();
            let msg = format!("expected ';' or a function body, found {}", self.describe(&t));
            self.error(t.span, msg);
            self.recover_to_semi();
        }
        self.ast.add_decl(
            DeclKind::Function {
                specs,
                name,
                ret,
                params: f.params,
                variadic: f.variadic,
                is_const: f.is_const,
                body,
                host_body: skipped,
                attrs,
                inits,
            },
            start.to(self.prev_span()),
        )
    }

    fn parse_namespace(&mut self, out: &mut Vec<DeclId>) {
        let kw = self.bump();
        let name = if self.is_plain_ident(self.peek()) { Some(self.bump().text) } else { None };
        // C++17's nested namespace definition `namespace a::b::c { ... }` (`inline` allowed
        // on the inner names) is `namespace a { namespace b { namespace c { ... } } }`.
        let mut inner = Vec::new();
        while name.is_some() && self.at(Punct::ColonColon) {
            self.bump();
            self.eat_kw(Kw::Inline);
            if !self.is_plain_ident(self.peek()) {
                let t = self.peek();
                let msg = format!("expected a namespace name after '::', found {}", self.describe(&t));
                self.error(t.span, msg);
                self.recover_to_semi();
                return;
            }
            inner.push(self.bump().text);
        }
        // `namespace a = b;`
        if self.eat(Punct::Eq) {
            match (name, self.parse_name(false)) {
                (Some(name), Some(target)) => {
                    self.expect(Punct::Semi, "after the namespace alias");
                    out.push(self.ast.add_decl(DeclKind::NamespaceAlias { name, target }, kw.span.to(self.prev_span())));
                }
                _ => {
                    let t = self.peek();
                    let msg = format!("expected a namespace name, found {}", self.describe(&t));
                    self.error(t.span, msg);
                    self.recover_to_semi();
                }
            }
            return;
        }
        if !self.expect(Punct::LBrace, "to open the namespace") {
            self.recover_to_semi();
            return;
        }
        let mut decls = Vec::new();
        self.in_block += 1;
        while !self.at(Punct::RBrace) && !self.at_eof() {
            self.compact();
            let before = self.pos;
            self.parse_decl_tolerant(&mut decls);
            if self.pos == before {
                let t = self.bump();
                let msg = format!("expected a declaration, found {}", self.describe(&t));
                self.error(t.span, msg);
            }
        }
        self.in_block -= 1;
        self.expect(Punct::RBrace, "to close the namespace");
        let span = kw.span.to(self.prev_span());
        for n in inner.into_iter().rev() {
            decls = vec![self.ast.add_decl(DeclKind::Namespace { name: Some(n), decls }, span)];
        }
        out.push(self.ast.add_decl(DeclKind::Namespace { name, decls }, span));
    }

    fn parse_using(&mut self, out: &mut Vec<DeclId>) {
        let kw = self.bump();
        if self.eat_kw(Kw::Namespace) {
            if let Some(n) = self.parse_name(false) {
                self.expect(Punct::Semi, "after the using directive");
                out.push(self.ast.add_decl(DeclKind::UsingDirective(n), kw.span.to(self.prev_span())));
            } else {
                self.recover_to_semi();
            }
            return;
        }
        // `using T = type;`
        if self.is_plain_ident(self.peek()) && self.peek_at(1).kind == TokenKind::Punct(Punct::Eq) {
            let n = self.bump();
            self.bump();
            let ty = self.parse_type_id();
            self.declare_type(n.text);
            self.expect(Punct::Semi, "after the alias declaration");
            out.push(self.ast.add_decl(DeclKind::Typedef { name: n.text, ty }, kw.span.to(self.prev_span())));
            return;
        }
        self.eat_kw(Kw::Typename);
        if let Some(n) = self.parse_name(false) {
            if let Some(&last) = n.parts.last() {
                if self.is_type_name(last) {
                    self.declare_type(last);
                }
            }
            self.expect(Punct::Semi, "after the using declaration");
            out.push(self.ast.add_decl(DeclKind::UsingDecl(n), kw.span.to(self.prev_span())));
        } else {
            self.recover_to_semi();
        }
    }

    fn parse_template(&mut self, out: &mut Vec<DeclId>, class: Option<Atom>, in_class: bool) {
        let kw = self.bump();
        if !self.at(Punct::Lt) {
            // An explicit instantiation `template struct S<int>;`.
            let mut inner = Vec::new();
            self.parse_decl_into(&mut inner, class, in_class);
            for d in inner {
                out.push(self.ast.add_decl(DeclKind::ExplicitInstantiation(d), kw.span.to(self.prev_span())));
            }
            return;
        }
        self.bump();
        self.push_scope();
        let mut params = Vec::new();
        if !self.eat_template_close() {
            loop {
                let t = self.peek();
                if matches!(self.kw_of(t), Some(Kw::Typename | Kw::Class)) {
                    self.bump();
                    let pack = self.eat(Punct::Ellipsis);
                    let name = if self.is_plain_ident(self.peek()) { Some(self.bump().text) } else { None };
                    if let Some(n) = name {
                        self.declare_type(n);
                    }
                    let default = if self.eat(Punct::Eq) { Some(self.parse_type_id()) } else { None };
                    params.push(TemplateParam::Type { name, default, span: t.span.to(self.prev_span()), pack });
                } else {
                    let ds = self.parse_decl_specs(None);
                    let base = self.base_type(&ds);
                    let pack = self.eat(Punct::Ellipsis);
                    let d = self.parse_declarator(base, true);
                    let default = if self.eat(Punct::Eq) { Some(self.parse_assign_ext(true)) } else { None };
                    params.push(TemplateParam::Value {
                        name: d.name.and_then(|n| n.parts.last().copied()),
                        ty: d.ty,
                        default,
                        span: t.span.to(self.prev_span()),
                        pack,
                    });
                }
                if self.eat_template_close() {
                    break;
                }
                if !self.expect(Punct::Comma, "or '>' in the template parameter list") {
                    self.pop_scope();
                    self.recover_to_semi();
                    return;
                }
            }
        }
        let mut inner = Vec::new();
        // The templated entity's name is a template name from here on (in the outer scope too).
        let name_guess = self.templated_name_guess();
        if let Some((n, is_type)) = name_guess {
            self.declare_template(n, is_type);
        }
        self.parse_decl_into(&mut inner, class, in_class);
        self.pop_scope();
        if let Some((n, is_type)) = name_guess {
            self.declare_template(n, is_type);
        }
        for d in inner {
            out.push(self.ast.add_decl(DeclKind::Template { params: params.clone(), decl: d }, kw.span.to(self.prev_span())));
        }
    }

    /// The name a template declaration declares, by looking ahead: `struct S`, or the
    /// identifier before the first `(` of a function.
    fn templated_name_guess(&self) -> Option<(Atom, bool)> {
        let mut k = 0;
        while k < 256 {
            let t = self.peek_at(k);
            match t.kind {
                TokenKind::Ident if matches!(self.kw_of(t), Some(Kw::Struct | Kw::Class | Kw::Union)) => {
                    let n = self.peek_at(k + 1);
                    return self.is_plain_ident(n).then_some((n.text, true));
                }
                TokenKind::Punct(Punct::LParen) if k > 0 => {
                    let n = self.peek_at(k - 1);
                    if self.kw_of(n).is_some() {
                        // `__attribute__((...))`, `decltype(...)`: skip the parentheses.
                        k = self.matching(k, Punct::LParen, Punct::RParen, 256)? + 1;
                        continue;
                    }
                    return self.is_plain_ident(n).then_some((n.text, false));
                }
                TokenKind::Punct(Punct::Semi | Punct::LBrace | Punct::Eq) | TokenKind::Eof => return None,
                _ => k += 1,
            }
        }
        None
    }
}

enum Suffix {
    Array(Option<ExprId>),
    Func(FuncParts),
}
