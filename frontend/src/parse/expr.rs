//! Expressions: precedence climbing over C++'s binary operators, then unary, cast and
//! postfix forms. Template argument lists (`f<T>(x)`) are recognized by the names the
//! parser knows to be templates.

use super::{Kw, Parser};
use crate::ast::*;
use crate::intern::Atom;
use crate::lexer::{Punct, TokenKind};
use crate::source::Span;

/// Binary operator precedence (higher binds tighter); assignment and `?:` are below 1.
fn binary_prec(p: Punct) -> Option<(u8, BinaryOp)> {
    use Punct::*;
    Some(match p {
        PipePipe => (1, BinaryOp::Or),
        AmpAmp => (2, BinaryOp::And),
        Pipe => (3, BinaryOp::BitOr),
        Caret => (4, BinaryOp::BitXor),
        Amp => (5, BinaryOp::BitAnd),
        EqEq => (6, BinaryOp::Eq),
        Ne => (6, BinaryOp::Ne),
        Lt => (7, BinaryOp::Lt),
        Gt => (7, BinaryOp::Gt),
        Le => (7, BinaryOp::Le),
        Ge => (7, BinaryOp::Ge),
        Shl => (8, BinaryOp::Shl),
        Shr => (8, BinaryOp::Shr),
        Plus => (9, BinaryOp::Add),
        Minus => (9, BinaryOp::Sub),
        Star => (10, BinaryOp::Mul),
        Slash => (10, BinaryOp::Div),
        Percent => (10, BinaryOp::Rem),
        _ => return None,
    })
}

fn assign_op(p: Punct) -> Option<Option<BinaryOp>> {
    use Punct::*;
    Some(match p {
        Eq => None,
        PlusEq => Some(BinaryOp::Add),
        MinusEq => Some(BinaryOp::Sub),
        StarEq => Some(BinaryOp::Mul),
        SlashEq => Some(BinaryOp::Div),
        PercentEq => Some(BinaryOp::Rem),
        AmpEq => Some(BinaryOp::BitAnd),
        PipeEq => Some(BinaryOp::BitOr),
        CaretEq => Some(BinaryOp::BitXor),
        ShlEq => Some(BinaryOp::Shl),
        ShrEq => Some(BinaryOp::Shr),
        _ => return None,
    })
}

impl Parser<'_> {
    /// `expression`: assignments separated by commas.
    pub(crate) fn parse_expr(&mut self) -> ExprId {
        let mut e = self.parse_assign();
        while self.at(Punct::Comma) && self.peek_at(1).kind != TokenKind::Punct(Punct::Ellipsis) {
            self.bump();
            let r = self.parse_assign();
            let span = self.ast.expr(e).span.to(self.ast.expr(r).span);
            e = self.ast.add_expr(ExprKind::Binary(BinaryOp::Comma, e, r), span);
        }
        e
    }

    /// `assignment-expression` (also `?:`).
    pub(crate) fn parse_assign(&mut self) -> ExprId {
        self.parse_assign_ext(false)
    }

    /// `no_gt`: inside a template argument list, where `>` ends the list.
    pub(crate) fn parse_assign_ext(&mut self, no_gt: bool) -> ExprId {
        if !self.enter() {
            self.leave();
            self.recover_to_semi();
            return self.ast.add_expr(ExprKind::Error, self.prev_span());
        }
        let lhs = self.parse_binary(0, no_gt);
        let r = if let TokenKind::Punct(p) = self.peek().kind {
            if let Some(op) = assign_op(p) {
                self.bump();
                let rhs = self.parse_assign_ext(no_gt);
                let span = self.ast.expr(lhs).span.to(self.ast.expr(rhs).span);
                self.ast.add_expr(ExprKind::Assign { op, lhs, rhs }, span)
            } else if p == Punct::Question {
                self.bump();
                let a = self.parse_expr();
                self.expect(Punct::Colon, "in the conditional expression");
                let b = self.parse_assign_ext(no_gt);
                let span = self.ast.expr(lhs).span.to(self.ast.expr(b).span);
                self.ast.add_expr(ExprKind::Cond(lhs, a, b), span)
            } else {
                lhs
            }
        } else {
            lhs
        };
        self.leave();
        r
    }

    fn parse_binary(&mut self, min: u8, no_gt: bool) -> ExprId {
        let mut lhs = self.parse_unary();
        loop {
            let TokenKind::Punct(p) = self.peek().kind else { return lhs };
            if no_gt && matches!(p, Punct::Gt | Punct::Shr | Punct::Ge | Punct::ShrEq) {
                return lhs;
            }
            // `>>>` closes a launch configuration (`a >> > b` is never an expression).
            if p == Punct::Shr && self.peek_at(1).kind == TokenKind::Punct(Punct::Gt) {
                return lhs;
            }
            let Some((prec, op)) = binary_prec(p) else { return lhs };
            if prec <= min {
                return lhs;
            }
            // `op ...` in a fold expression: the parenthesized expression's parser takes it.
            if self.peek_at(1).kind == TokenKind::Punct(Punct::Ellipsis) {
                return lhs;
            }
            self.bump();
            let rhs = self.parse_binary(prec, no_gt);
            let span = self.ast.expr(lhs).span.to(self.ast.expr(rhs).span);
            lhs = self.ast.add_expr(ExprKind::Binary(op, lhs, rhs), span);
        }
    }

    pub(crate) fn parse_unary(&mut self) -> ExprId {
        if !self.enter() {
            self.leave();
            return self.ast.add_expr(ExprKind::Error, self.prev_span());
        }
        let r = self.parse_unary_inner();
        self.leave();
        r
    }

    fn parse_unary_inner(&mut self) -> ExprId {
        let t = self.peek();
        let unary = match t.kind {
            TokenKind::Punct(Punct::Plus) => Some(UnaryOp::Plus),
            TokenKind::Punct(Punct::Minus) => Some(UnaryOp::Minus),
            TokenKind::Punct(Punct::Bang) => Some(UnaryOp::Not),
            TokenKind::Punct(Punct::Tilde) => Some(UnaryOp::BitNot),
            TokenKind::Punct(Punct::Star) => Some(UnaryOp::Deref),
            TokenKind::Punct(Punct::Amp) => Some(UnaryOp::AddrOf),
            TokenKind::Punct(Punct::PlusPlus) => Some(UnaryOp::PreInc),
            TokenKind::Punct(Punct::MinusMinus) => Some(UnaryOp::PreDec),
            _ => None,
        };
        if let Some(op) = unary {
            self.bump();
            let e = self.parse_unary();
            let span = t.span.to(self.ast.expr(e).span);
            return self.ast.add_expr(ExprKind::Unary(op, e), span);
        }
        match self.kw_of(t) {
            Some(Kw::Sizeof) => {
                self.bump();
                // `sizeof(type)` or `sizeof expr`
                if self.at(Punct::LParen) && self.starts_type(1) {
                    self.bump();
                    let ty = self.parse_type_id();
                    self.expect(Punct::RParen, "after the type in sizeof");
                    return self.ast.add_expr(ExprKind::SizeofType(ty), t.span.to(self.prev_span()));
                }
                if self.at(Punct::Ellipsis) {
                    self.bump();
                    self.expect(Punct::LParen, "after sizeof...");
                    let n = self.peek();
                    if !self.is_plain_ident(n) {
                        let msg = format!("expected the name of a parameter pack, found {}", self.describe(&n));
                        self.error(n.span, msg);
                        while !self.at_eof() && !self.at(Punct::RParen) && !self.at(Punct::Semi) {
                            self.bump();
                        }
                        self.eat(Punct::RParen);
                        return self.ast.add_expr(ExprKind::Error, t.span.to(self.prev_span()));
                    }
                    self.bump();
                    self.expect(Punct::RParen, "after the parameter pack's name");
                    return self.ast.add_expr(ExprKind::SizeofPack(n.text), t.span.to(self.prev_span()));
                }
                let e = self.parse_unary();
                return self.ast.add_expr(ExprKind::SizeofExpr(e), t.span.to(self.ast.expr(e).span));
            }
            Some(Kw::Alignof) => {
                self.bump();
                self.expect(Punct::LParen, "after alignof");
                let ty = self.parse_type_id();
                self.expect(Punct::RParen, "after the type in alignof");
                return self.ast.add_expr(ExprKind::Alignof(ty), t.span.to(self.prev_span()));
            }
            Some(Kw::New) => {
                self.bump();
                let placement = if self.eat(Punct::LParen) {
                    let args = self.parse_args(Punct::RParen);
                    if args.len() != 1 {
                        self.error(t.span.to(self.prev_span()), "placement new takes one address");
                    }
                    args.first().copied()
                } else {
                    None
                };
                if !self.starts_type(0) {
                    let n = self.peek();
                    let msg = format!("expected the type to allocate after 'new', found {}", self.describe(&n));
                    self.error(n.span, msg);
                    return self.ast.add_expr(ExprKind::Error, t.span.to(self.prev_span()));
                }
                let mut ty = self.parse_type_specifier_only();
                while self.at(Punct::Star) {
                    let s = self.bump().span;
                    ty = self.ast.add_type(TypeKind::Pointer(ty), Quals::default(), s);
                }
                let count = if self.eat(Punct::LBracket) {
                    let n = self.parse_expr();
                    self.expect(Punct::RBracket, "after the element count of 'new'");
                    Some(n)
                } else {
                    None
                };
                let (args, braces) = if self.eat(Punct::LParen) {
                    (Some(self.parse_args(Punct::RParen)), false)
                } else if self.eat(Punct::LBrace) {
                    (Some(self.parse_args(Punct::RBrace)), true)
                } else {
                    (None, false)
                };
                let kind = ExprKind::New { placement, ty, count, args, braces };
                return self.ast.add_expr(kind, t.span.to(self.prev_span()));
            }
            Some(Kw::Delete) => {
                self.bump();
                let array = self.at(Punct::LBracket) && self.peek_at(1).kind == TokenKind::Punct(Punct::RBracket);
                if array {
                    self.bump();
                    self.bump();
                }
                let expr = self.parse_unary();
                return self.ast.add_expr(ExprKind::Delete { array, expr }, t.span.to(self.prev_span()));
            }
            Some(Kw::Throw) => {
                self.bump();
                let what = "exceptions ('throw')";
                // Skip the operand.
                let _ = self.parse_unary();
                return self.ast.add_expr(ExprKind::Unsupported(what), t.span.to(self.prev_span()));
            }
            _ => {}
        }
        // C-style cast `(T)e`, or a parenthesized expression. `(T(x) << 8)` starts with a
        // functional cast, not a type: a one-token type followed by `(` and something that
        // cannot start an abstract declarator or a parameter list is an expression.
        let functional = self.peek_at(2).kind == TokenKind::Punct(Punct::LParen)
            && !matches!(
                self.peek_at(3).kind,
                TokenKind::Punct(Punct::Star | Punct::Amp | Punct::AmpAmp | Punct::RParen | Punct::Ellipsis)
            )
            && !self.starts_type(3);
        if t.kind == TokenKind::Punct(Punct::LParen) && self.starts_type(1) && !functional {
            self.bump();
            let ty = self.parse_type_id();
            self.expect(Punct::RParen, "after the type in the cast");
            if self.at(Punct::LBrace) {
                // A compound literal `(T){...}`.
                let init = self.parse_init_list();
                return self.ast.add_expr(ExprKind::Construct { ty, args: vec![init], braces: true }, t.span.to(self.prev_span()));
            }
            let e = self.parse_unary();
            return self.ast.add_expr(ExprKind::Cast { kind: CastKind::CStyle, ty, expr: e }, t.span.to(self.ast.expr(e).span));
        }
        let e = self.parse_primary();
        self.parse_postfix(e)
    }

    fn parse_postfix(&mut self, mut e: ExprId) -> ExprId {
        loop {
            let t = self.peek();
            let start = self.ast.expr(e).span;
            match t.kind {
                TokenKind::Punct(Punct::LParen) => {
                    self.bump();
                    let args = self.parse_args(Punct::RParen);
                    e = self.ast.add_expr(ExprKind::Call { callee: e, args }, start.to(self.prev_span()));
                }
                // `k<<<grid, block>>>(args)` (`a << < b` is never an expression).
                TokenKind::Punct(Punct::Shl) if self.peek_at(1).kind == TokenKind::Punct(Punct::Lt) => {
                    self.bump();
                    self.bump();
                    let mut config = Vec::new();
                    loop {
                        config.push(self.parse_assign());
                        if !self.eat(Punct::Comma) {
                            break;
                        }
                    }
                    if !(self.at(Punct::Shr) && self.peek_at(1).kind == TokenKind::Punct(Punct::Gt)) {
                        let t = self.peek();
                        let msg = format!("expected '>>>' to close the launch configuration, found {}", self.describe(&t));
                        self.error(t.span, msg);
                        return self.ast.add_expr(ExprKind::Error, start.to(self.prev_span()));
                    }
                    self.bump();
                    self.bump();
                    let args = if self.expect(Punct::LParen, "after the launch configuration") {
                        self.parse_args(Punct::RParen)
                    } else {
                        Vec::new()
                    };
                    e = self.ast.add_expr(ExprKind::Launch { callee: e, config, args }, start.to(self.prev_span()));
                }
                TokenKind::Punct(Punct::LBracket) => {
                    self.bump();
                    let i = self.parse_expr();
                    self.expect(Punct::RBracket, "to close the subscript");
                    e = self.ast.add_expr(ExprKind::Index(e, i), start.to(self.prev_span()));
                }
                TokenKind::Punct(Punct::Dot | Punct::Arrow) => {
                    self.bump();
                    let templ = self.eat_kw(Kw::Template);
                    let name = match self.parse_name_after_member(templ) {
                        Some(n) => n,
                        None => return self.ast.add_expr(ExprKind::Error, start.to(self.prev_span())),
                    };
                    let name = self.ast.add_name(name);
                    e = self.ast.add_expr(
                        ExprKind::Member { base: e, arrow: t.kind == TokenKind::Punct(Punct::Arrow), name },
                        start.to(self.prev_span()),
                    );
                }
                TokenKind::Punct(Punct::PlusPlus) => {
                    self.bump();
                    e = self.ast.add_expr(ExprKind::Unary(UnaryOp::PostInc, e), start.to(t.span));
                }
                TokenKind::Punct(Punct::MinusMinus) => {
                    self.bump();
                    e = self.ast.add_expr(ExprKind::Unary(UnaryOp::PostDec, e), start.to(t.span));
                }
                _ => return e,
            }
        }
    }

    /// Arguments up to `close` (already past the opener).
    pub(crate) fn parse_args(&mut self, close: Punct) -> Vec<ExprId> {
        let mut args = Vec::new();
        if self.eat(close) {
            return args;
        }
        loop {
            let first = self.ast.exprs.len() as u32;
            let a = if self.at(Punct::LBrace) { self.parse_init_list() } else { self.parse_assign() };
            let a = self.maybe_expansion(a, first);
            args.push(a);
            if self.eat(close) {
                return args;
            }
            if !self.expect(Punct::Comma, "or a closing bracket in the argument list") {
                // Recover: skip to the closer.
                while !self.at_eof() && !self.at(close) && !self.at(Punct::Semi) && !self.at(Punct::RBrace) {
                    self.bump();
                }
                self.eat(close);
                return args;
            }
        }
    }

    /// `{a, b, .x = c}` (at the `{`).
    pub(crate) fn parse_init_list(&mut self) -> ExprId {
        let open = self.bump();
        let mut items = Vec::new();
        if !self.enter() {
            self.leave();
            self.skip_to_brace_close();
            return self.ast.add_expr(ExprKind::Error, open.span);
        }
        while !self.at(Punct::RBrace) && !self.at_eof() {
            let mut field = None;
            if self.at(Punct::Dot) && self.is_plain_ident(self.peek_at(1)) && self.peek_at(2).kind == TokenKind::Punct(Punct::Eq) {
                self.bump();
                field = Some(self.bump().text);
                self.bump();
            }
            let first = self.ast.exprs.len() as u32;
            let e = if self.at(Punct::LBrace) { self.parse_init_list() } else { self.parse_assign() };
            let e = self.maybe_expansion(e, first);
            items.push((field, e));
            if !self.eat(Punct::Comma) {
                break;
            }
        }
        self.leave();
        self.expect(Punct::RBrace, "to close the initializer list");
        self.ast.add_expr(ExprKind::InitList(items), open.span.to(self.prev_span()))
    }

    /// `e...` when a `...` follows `e` (whose expressions have ids from `first`).
    fn maybe_expansion(&mut self, e: ExprId, first: u32) -> ExprId {
        if !self.at(Punct::Ellipsis) {
            return e;
        }
        let dots = self.bump();
        let exprs = (first, self.ast.exprs.len() as u32);
        self.ast.add_expr(ExprKind::Expand { pattern: e, exprs }, self.ast.expr(e).span.to(dots.span))
    }

    /// A fold expression after its `(` (at the `...` of a left fold, or at the operator
    /// after `lhs`, whose expressions have ids from `first`); through the `)`.
    fn parse_fold(&mut self, open: Span, lhs: Option<(ExprId, u32)>) -> ExprId {
        let lhs = lhs.map(|(e, first)| (e, (first, self.ast.exprs.len() as u32)));
        let op = |s: &mut Self| match s.peek().kind {
            TokenKind::Punct(Punct::Comma) => Some(BinaryOp::Comma),
            TokenKind::Punct(p) => binary_prec(p).map(|(_, op)| op),
            _ => None,
        };
        // `lhs op ...` or `... op rhs`; then (after `lhs op ...`) `op rhs`.
        let mut fold_op = None;
        if lhs.is_some() {
            fold_op = op(self);
            self.bump();
        }
        self.expect(Punct::Ellipsis, "in the fold expression");
        let mut rhs = None;
        let second = op(self);
        if second.is_some() && !self.at(Punct::RParen) {
            self.bump();
            if fold_op.is_some() && fold_op != second {
                self.error(self.prev_span(), "the operators of a binary fold expression must be the same");
            }
            fold_op = fold_op.or(second);
            let first = self.ast.exprs.len() as u32;
            let e = self.parse_unary();
            rhs = Some((e, (first, self.ast.exprs.len() as u32)));
        }
        self.expect(Punct::RParen, "to close the fold expression");
        let span = open.to(self.prev_span());
        let Some(op) = fold_op else {
            self.error(span, "expected an operator in the fold expression");
            return self.ast.add_expr(ExprKind::Error, span);
        };
        if lhs.is_none() && rhs.is_none() {
            self.error(span, "a fold expression needs an operand");
            return self.ast.add_expr(ExprKind::Error, span);
        }
        self.ast.add_expr(ExprKind::Fold { op, lhs, rhs }, span)
    }

    fn skip_to_brace_close(&mut self) {
        let mut depth = 1usize;
        while !self.at_eof() {
            match self.bump().kind {
                TokenKind::Punct(Punct::LBrace) => depth += 1,
                TokenKind::Punct(Punct::RBrace) => {
                    depth -= 1;
                    if depth == 0 {
                        return;
                    }
                }
                _ => {}
            }
        }
    }

    fn parse_primary(&mut self) -> ExprId {
        let t = self.peek();
        match t.kind {
            TokenKind::Number => {
                self.bump();
                let text = self.ident_text(t);
                let is_float = !text.starts_with("0x") && !text.starts_with("0X") && text.contains(['.', 'e', 'E'])
                    || (text.starts_with("0x") || text.starts_with("0X")) && text.contains(['p', 'P'])
                    || (!text.starts_with("0x") && !text.starts_with("0X") && text.ends_with(['f', 'F']));
                let kind = if is_float { ExprKind::Float(t.text) } else { ExprKind::Int(t.text) };
                self.ast.add_expr(kind, t.span)
            }
            TokenKind::Char => {
                self.bump();
                self.ast.add_expr(ExprKind::Char(t.text), t.span)
            }
            TokenKind::Str => {
                let mut parts = Vec::new();
                let mut span = t.span;
                while self.peek().kind == TokenKind::Str {
                    let s = self.bump();
                    parts.push(s.text);
                    span = span.to(s.span);
                }
                self.ast.add_expr(ExprKind::Str(parts), span)
            }
            TokenKind::Punct(Punct::LParen) if self.peek_at(1).kind == TokenKind::Punct(Punct::LBrace) => {
                // A GNU statement expression `({ ... })`.
                self.bump();
                let body = self.parse_compound();
                self.expect(Punct::RParen, "to close the statement expression");
                self.ast.add_expr(ExprKind::StmtExpr(body), t.span.to(self.prev_span()))
            }
            TokenKind::Punct(Punct::LParen) => {
                self.bump();
                if self.at(Punct::Ellipsis) {
                    return self.parse_fold(t.span, None);
                }
                let first = self.ast.exprs.len() as u32;
                let e = self.parse_expr();
                let at_op = match self.peek().kind {
                    TokenKind::Punct(Punct::Comma) => true,
                    TokenKind::Punct(p) => binary_prec(p).is_some(),
                    _ => false,
                };
                if at_op && self.peek_at(1).kind == TokenKind::Punct(Punct::Ellipsis) {
                    return self.parse_fold(t.span, Some((e, first)));
                }
                self.expect(Punct::RParen, "to close the parenthesized expression");
                let kind = self.ast.expr(e).kind.clone();
                self.ast.add_expr(kind, t.span.to(self.prev_span()))
            }
            TokenKind::Punct(Punct::LBrace) => self.parse_init_list(),
            TokenKind::Punct(Punct::LBracket) => self.parse_lambda(),
            TokenKind::Punct(Punct::ColonColon) | TokenKind::Ident => self.parse_name_expr(),
            _ => {
                let msg = format!("expected an expression, found {}", self.describe(&t));
                self.error(t.span, msg);
                // Do not consume closers: the caller recovers at them.
                if !matches!(
                    t.kind,
                    TokenKind::Punct(Punct::RParen | Punct::RBrace | Punct::RBracket | Punct::Semi | Punct::Comma) | TokenKind::Eof
                ) {
                    self.bump();
                }
                self.ast.add_expr(ExprKind::Error, t.span)
            }
        }
    }

    /// Names, keywords that are values, casts, and functional casts / constructions.
    fn parse_name_expr(&mut self) -> ExprId {
        let t = self.peek();
        match self.kw_of(t) {
            Some(Kw::True) => {
                self.bump();
                return self.ast.add_expr(ExprKind::Bool(true), t.span);
            }
            Some(Kw::False) => {
                self.bump();
                return self.ast.add_expr(ExprKind::Bool(false), t.span);
            }
            Some(Kw::Nullptr) => {
                self.bump();
                return self.ast.add_expr(ExprKind::Nullptr, t.span);
            }
            Some(Kw::This) => {
                self.bump();
                return self.ast.add_expr(ExprKind::This, t.span);
            }
            Some(k @ (Kw::StaticCast | Kw::ReinterpretCast | Kw::ConstCast | Kw::DynamicCast)) => {
                self.bump();
                let kind = match k {
                    Kw::StaticCast => CastKind::Static,
                    Kw::ReinterpretCast => CastKind::Reinterpret,
                    Kw::ConstCast => CastKind::Const,
                    _ => CastKind::Dynamic,
                };
                self.expect(Punct::Lt, "after the cast keyword");
                let ty = self.parse_type_id();
                if !self.eat_template_close() {
                    let sp = self.peek().span;
                    self.error(sp, "expected '>' after the cast's type");
                }
                self.expect(Punct::LParen, "before the cast's operand");
                let e = self.parse_expr();
                self.expect(Punct::RParen, "after the cast's operand");
                return self.ast.add_expr(ExprKind::Cast { kind, ty, expr: e }, t.span.to(self.prev_span()));
            }
            _ => {}
        }
        // A type followed by `(` or `{`: a functional cast or a construction.
        if self.starts_type(0) && !self.at_kw(Kw::Operator) {
            let start = self.pos;
            let ty = self.parse_type_specifier_only();
            if self.at(Punct::LParen) || self.at(Punct::LBrace) {
                let braces = self.at(Punct::LBrace);
                let args = if braces {
                    let il = self.parse_init_list();
                    match &self.ast.expr(il).kind {
                        ExprKind::InitList(items) => items.iter().map(|(_, e)| *e).collect(),
                        _ => vec![il],
                    }
                } else {
                    self.bump();
                    self.parse_args(Punct::RParen)
                };
                let span = self.tok_at(start).span.to(self.prev_span());
                if args.len() == 1 && !braces {
                    return self.ast.add_expr(ExprKind::Cast { kind: CastKind::Functional, ty, expr: args[0] }, span);
                }
                return self.ast.add_expr(ExprKind::Construct { ty, args, braces }, span);
            }
            // Not a construction: re-parse as a name (e.g. a static member `T::x`).
            self.pos = start;
        }
        match self.parse_name(true) {
            Some(n) => {
                let span = n.span;
                let n = self.ast.add_name(n);
                self.ast.add_expr(ExprKind::Name(n), span)
            }
            None => {
                let t = self.bump();
                let msg = format!("expected an expression, found {}", self.describe(&t));
                self.error(t.span, msg);
                self.ast.add_expr(ExprKind::Error, t.span)
            }
        }
    }

    /// The name after `.`/`->` (an identifier, maybe a template-id, or `~T` / `operator`).
    /// The member name after `.` or `->`; `templ`: after `.template`. A member template's
    /// arguments (`x.f<2>(y)`) are read where the name is a template's and `<...>(` follows.
    fn parse_name_after_member(&mut self, templ: bool) -> Option<Name> {
        if self.at(Punct::Tilde) {
            let t = self.bump();
            let n = self.bump();
            let text = format!("~{}", self.ident_text(n));
            let a = self.src.interner_mut().intern_local(&text);
            return Some(Name {
                global: false,
                parts: smallvec::smallvec![a],
                template_args: None,
                scope_args: Vec::new(),
                span: t.span.to(n.span),
            });
        }
        let t = self.peek();
        if t.kind == TokenKind::Ident && self.peek_at(1).kind == TokenKind::Punct(Punct::Lt) && self.kw_of(t).is_none() {
            let call = self.template_args_end(1).is_some_and(|e| self.peek_at(e).kind == TokenKind::Punct(Punct::LParen));
            if templ || (call && self.is_any_template_name(t.text)) {
                self.bump();
                let args = self.parse_template_args();
                return Some(Name {
                    global: false,
                    parts: smallvec::smallvec![t.text],
                    template_args: Some(args),
                    scope_args: Vec::new(),
                    span: t.span.to(self.prev_span()),
                });
            }
        }
        self.parse_name(false)
    }

    /// Template arguments after a template name (at `<`).
    pub(crate) fn parse_template_args(&mut self) -> Vec<TemplateArg> {
        self.bump(); // <
        let mut args = Vec::new();
        if self.eat_template_close() {
            return args;
        }
        loop {
            if self.starts_type(0) {
                let ty = self.parse_type_id();
                let ty = if self.at(Punct::Ellipsis) {
                    let dots = self.bump();
                    let span = self.ast.ty(ty).span.to(dots.span);
                    self.ast.add_type(TypeKind::Expand(ty), Quals::default(), span)
                } else {
                    ty
                };
                args.push(TemplateArg::Type(ty));
            } else {
                let first = self.ast.exprs.len() as u32;
                let e = self.parse_assign_ext(true);
                let e = self.maybe_expansion(e, first);
                args.push(TemplateArg::Expr(e));
            }
            if self.eat_template_close() {
                return args;
            }
            if !self.expect(Punct::Comma, "or '>' in the template argument list") {
                // Skip to the closing `>` or a statement end.
                while !self.at_eof() && !self.at(Punct::Semi) && !self.eat_template_close() {
                    self.bump();
                }
                return args;
            }
        }
    }
}

impl Parser<'_> {
    /// `[captures] (params) specifiers -> ret { body }` at the `[`: a closure type's
    /// call operator, declared as a `__host__ __device__` member function named
    /// `operator()` (`const` unless `mutable`), and what it captures. The expressions of
    /// the body are the ones made while parsing it (a range of ids), where sema finds the
    /// names an implicit capture (`[=]`, `[&]`) takes.
    fn parse_lambda(&mut self) -> ExprId {
        let open = self.bump();
        let mut default = None;
        let mut captures = Vec::new();
        let mut this_capture = None;
        loop {
            let t = self.peek();
            match t.kind {
                TokenKind::Punct(Punct::RBracket) | TokenKind::Eof => break,
                TokenKind::Punct(Punct::Eq) if captures.is_empty() && default.is_none() => {
                    self.bump();
                    default = Some(LambdaCapture::Copy);
                }
                TokenKind::Punct(Punct::Amp) if captures.is_empty() && default.is_none() && self.peek_at(1).kind != TokenKind::Ident => {
                    self.bump();
                    default = Some(LambdaCapture::Ref);
                }
                _ if self.kw_of(t) == Some(Kw::This) => {
                    self.bump();
                    this_capture = Some((t.span, LambdaCapture::Ref));
                }
                TokenKind::Punct(Punct::Star) if self.kw_of(self.peek_at(1)) == Some(Kw::This) => {
                    self.bump();
                    self.bump();
                    this_capture = Some((t.span.to(self.prev_span()), LambdaCapture::Copy));
                }
                _ => {
                    let by_ref = self.eat(Punct::Amp);
                    let n = self.peek();
                    if n.kind != TokenKind::Ident {
                        let msg = format!("expected a captured variable's name, found {}", self.describe(&n));
                        self.error(n.span, msg);
                        break;
                    }
                    self.bump();
                    let init = if self.eat(Punct::Eq) { Some(self.parse_assign()) } else { None };
                    let how = if by_ref { LambdaCapture::Ref } else { LambdaCapture::Copy };
                    captures.push((n.text, how, init, n.span));
                }
            }
            if !self.eat(Punct::Comma) {
                break;
            }
        }
        self.expect(Punct::RBracket, "to close the lambda's capture list");
        // `__device__` / `__host__` (extended lambdas) and `mutable`, around the parameters.
        let mut is_mutable = false;
        let mut skip_specs = |p: &mut Self| loop {
            let t = p.peek();
            match p.kw_of(t) {
                Some(Kw::Mutable) => {
                    p.bump();
                    is_mutable = true;
                }
                Some(Kw::Constexpr | Kw::Inline | Kw::Noexcept) => {
                    p.bump();
                }
                // `__device__`, `__host__`, `__forceinline__` (GNU attributes).
                Some(Kw::Attribute) => {
                    p.bump();
                    p.skip_parens();
                }
                _ => break,
            }
        };
        skip_specs(self);
        let parts = if self.eat(Punct::LParen) { Some(self.parse_params()) } else { None };
        skip_specs(self);
        let ret = if self.eat(Punct::Arrow) {
            let ds = self.parse_decl_specs(None);
            let base = self.base_type(&ds);
            self.parse_declarator(base, true).ty
        } else {
            self.ast.add_type(TypeKind::Auto, Quals::default(), open.span)
        };
        let (params, variadic) = parts.map(|p| (p.params, p.variadic)).unwrap_or_default();
        self.push_scope();
        for p in &params {
            if let Some(n) = p.name {
                self.declare_non_type(n);
            }
        }
        let first = self.ast.exprs.len() as u32;
        let body = if self.at(Punct::LBrace) {
            self.parse_compound()
        } else {
            let t = self.peek();
            let msg = format!("expected the lambda's body, found {}", self.describe(&t));
            self.error(t.span, msg);
            self.ast.add_stmt(StmtKind::Error, t.span)
        };
        let body_exprs = (first, self.ast.exprs.len() as u32);
        self.pop_scope();
        let span = open.span.to(self.prev_span());
        let call = self.src.interner_mut().intern_local("operator()");
        let name = Name { global: false, parts: smallvec::smallvec![call], template_args: None, scope_args: Vec::new(), span };
        let specs = Specifiers { device: true, host: true, ..Specifiers::default() };
        // A generic lambda: each `auto` parameter a template type parameter.
        let mut tparams = Vec::new();
        let params: Vec<Param> = params
            .into_iter()
            .map(|p| {
                if !self.has_auto(p.ty) {
                    return p;
                }
                let a = self.src.interner_mut().intern_local(&format!("<auto {}>", tparams.len() + 1));
                tparams.push(TemplateParam::Type { name: Some(a), default: None, span: p.span, pack: false });
                Param { ty: self.replace_auto(p.ty, a), ..p }
            })
            .collect();
        let op = self.ast.add_decl(
            DeclKind::Function {
                specs,
                name,
                ret,
                params,
                variadic,
                is_const: !is_mutable,
                body: Some(body),
                host_body: false,
                attrs: Vec::new(),
                inits: Vec::new(),
            },
            span,
        );
        let op = if tparams.is_empty() { op } else { self.ast.add_decl(DeclKind::Template { params: tparams, decl: op }, span) };
        let lambda = Lambda { default, captures, this_capture, op, body_exprs };
        self.ast.add_expr(ExprKind::Lambda(Box::new(lambda)), span)
    }
}

impl Parser<'_> {
    /// Whether type `t` is `auto` under pointers and references.
    fn has_auto(&self, t: TypeId) -> bool {
        match &self.ast.ty(t).kind {
            TypeKind::Auto => true,
            TypeKind::Pointer(p) | TypeKind::Reference { to: p, .. } => self.has_auto(*p),
            _ => false,
        }
    }

    /// Type `t` with its `auto` (under pointers and references) replaced by the type
    /// named `a`.
    fn replace_auto(&mut self, t: TypeId, a: Atom) -> TypeId {
        let ty = self.ast.ty(t).clone();
        let kind = match ty.kind {
            TypeKind::Auto => TypeKind::Named(Name {
                global: false,
                parts: smallvec::smallvec![a],
                template_args: None,
                scope_args: Vec::new(),
                span: ty.span,
            }),
            TypeKind::Pointer(p) => TypeKind::Pointer(self.replace_auto(p, a)),
            TypeKind::Reference { to, rvalue } => TypeKind::Reference { to: self.replace_auto(to, a), rvalue },
            k => k,
        };
        self.ast.add_type(kind, ty.quals, ty.span)
    }
}
