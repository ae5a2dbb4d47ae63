//! Statements, with `#pragma unroll` attached to the loop that follows it.

use super::{Kw, Parser};
use crate::ast::*;
use crate::intern::Atom;
use crate::lexer::{Punct, TokenKind};
use crate::source::Span;

impl Parser<'_> {
    /// `{ ... }` at the `{`.
    pub(crate) fn parse_compound(&mut self) -> StmtId {
        let open = self.peek().span;
        if !self.expect(Punct::LBrace, "to open the block") {
            self.recover_to_semi();
            return self.ast.add_stmt(StmtKind::Error, open);
        }
        self.push_scope();
        let mut stmts = Vec::new();
        while !self.at(Punct::RBrace) && !self.at_eof() {
            let before = self.pos;
            stmts.push(self.parse_stmt());
            if self.pos == before {
                self.bump();
            }
        }
        self.pop_scope();
        let reported = self.diags.len();
        if !self.expect(Punct::RBrace, "to close the block") && self.diags.len() > reported {
            if let Some(d) = self.diags.last_mut() {
                d.notes.push(crate::diag::Note { span: Some(open), message: "to match this '{'".into() });
            }
        }
        self.ast.add_stmt(StmtKind::Compound(stmts), open.to(self.prev_span()))
    }

    pub(crate) fn parse_stmt(&mut self) -> StmtId {
        if !self.enter() {
            self.leave();
            let sp = self.peek().span;
            self.recover_to_semi();
            return self.ast.add_stmt(StmtKind::Error, sp);
        }
        let s = self.parse_stmt_inner();
        self.leave();
        s
    }

    fn take_unroll(&mut self) -> Option<Unroll> {
        self.pending_unroll.take()
    }

    fn parse_stmt_inner(&mut self) -> StmtId {
        let t = self.peek();
        if t.kind == TokenKind::PragmaUnroll {
            self.bump();
            let n = self.src.interner().str(t.text).parse().unwrap_or(0);
            self.pending_unroll = Some(Unroll(n));
            let is_loop =
                matches!(self.kw_of(self.peek()), Some(Kw::For | Kw::While | Kw::Do)) || self.peek().kind == TokenKind::PragmaUnroll;
            if !is_loop {
                self.pending_unroll = None;
                self.diags.push(crate::diag::Diagnostic::warning(t.span, "'#pragma unroll' is not followed by a loop; ignored"));
            }
            return self.parse_stmt();
        }
        match t.kind {
            TokenKind::Punct(Punct::LBrace) => return self.parse_compound(),
            TokenKind::Punct(Punct::Semi) => {
                self.bump();
                return self.ast.add_stmt(StmtKind::Null, t.span);
            }
            _ => {}
        }
        match self.kw_of(t) {
            Some(Kw::If) => {
                self.bump();
                self.eat_kw(Kw::Constexpr);
                self.push_scope();
                let (init, cond) = self.parse_paren_cond_with_init();
                let then = self.parse_stmt();
                let els = if self.eat_kw(Kw::Else) { Some(self.parse_stmt()) } else { None };
                self.pop_scope();
                let span = t.span.to(self.prev_span());
                return self.ast.add_stmt(StmtKind::If { cond, then, els, init }, span);
            }
            Some(Kw::For) => {
                let unroll = self.take_unroll();
                self.bump();
                self.push_scope();
                self.expect(Punct::LParen, "after 'for'");
                if self.is_range_for() {
                    let r = self.parse_range_for(t.span, unroll);
                    self.pop_scope();
                    return r;
                }
                let init = if self.eat(Punct::Semi) {
                    None
                } else if self.starts_decl() {
                    let mut decls = Vec::new();
                    let start = self.peek().span;
                    self.parse_decl_into(&mut decls, None, false);
                    Some(self.ast.add_stmt(StmtKind::Decl(decls), start.to(self.prev_span())))
                } else {
                    let e = self.parse_expr();
                    let sp = self.ast.expr(e).span;
                    self.expect(Punct::Semi, "after the for-loop initializer");
                    Some(self.ast.add_stmt(StmtKind::Expr(e), sp))
                };
                let cond = if self.at(Punct::Semi) { None } else { Some(self.parse_expr()) };
                self.expect(Punct::Semi, "after the for-loop condition");
                let step = if self.at(Punct::RParen) { None } else { Some(self.parse_expr()) };
                self.expect(Punct::RParen, "to close the for-loop header");
                let body = self.parse_stmt();
                self.pop_scope();
                let span = t.span.to(self.prev_span());
                return self.ast.add_stmt(StmtKind::For { init, cond, step, body, unroll }, span);
            }
            Some(Kw::While) => {
                let unroll = self.take_unroll();
                self.bump();
                self.push_scope();
                let (_, cond) = self.parse_paren_cond_with_init();
                let body = self.parse_stmt();
                self.pop_scope();
                let span = t.span.to(self.prev_span());
                return self.ast.add_stmt(StmtKind::While { cond, body, unroll }, span);
            }
            Some(Kw::Do) => {
                let unroll = self.take_unroll();
                self.bump();
                let body = self.parse_stmt();
                if !self.eat_kw(Kw::While) {
                    let n = self.peek();
                    let msg = format!("expected 'while' after the do-loop body, found {}", self.describe(&n));
                    self.error(n.span, msg);
                }
                self.expect(Punct::LParen, "after 'while'");
                let cond = self.parse_expr();
                self.expect(Punct::RParen, "after the do-while condition");
                self.expect(Punct::Semi, "after the do-while statement");
                let span = t.span.to(self.prev_span());
                return self.ast.add_stmt(StmtKind::DoWhile { body, cond, unroll }, span);
            }
            Some(Kw::Switch) => {
                self.bump();
                self.push_scope();
                let (_, cond) = self.parse_paren_cond_with_init();
                let body = self.parse_stmt();
                self.pop_scope();
                let span = t.span.to(self.prev_span());
                return self.ast.add_stmt(StmtKind::Switch { cond, body }, span);
            }
            Some(Kw::Case) => {
                self.bump();
                let v = self.parse_assign();
                self.expect(Punct::Colon, "after the case value");
                let s = if self.at(Punct::RBrace) { self.ast.add_stmt(StmtKind::Null, self.prev_span()) } else { self.parse_stmt() };
                let span = t.span.to(self.prev_span());
                return self.ast.add_stmt(StmtKind::Case(v, s), span);
            }
            Some(Kw::Default) => {
                self.bump();
                self.expect(Punct::Colon, "after 'default'");
                let s = if self.at(Punct::RBrace) { self.ast.add_stmt(StmtKind::Null, self.prev_span()) } else { self.parse_stmt() };
                let span = t.span.to(self.prev_span());
                return self.ast.add_stmt(StmtKind::Default(s), span);
            }
            Some(Kw::Break) => {
                self.bump();
                self.expect(Punct::Semi, "after 'break'");
                return self.ast.add_stmt(StmtKind::Break, t.span);
            }
            Some(Kw::Continue) => {
                self.bump();
                self.expect(Punct::Semi, "after 'continue'");
                return self.ast.add_stmt(StmtKind::Continue, t.span);
            }
            Some(Kw::Return) => {
                self.bump();
                let v = if self.at(Punct::Semi) {
                    None
                } else if self.at(Punct::LBrace) {
                    Some(self.parse_init_list())
                } else {
                    Some(self.parse_expr())
                };
                if !self.expect(Punct::Semi, "after the return statement") {
                    self.recover_to_semi();
                }
                let span = t.span.to(self.prev_span());
                return self.ast.add_stmt(StmtKind::Return(v), span);
            }
            Some(Kw::Goto) => {
                self.bump();
                let l = self.peek();
                if !self.is_plain_ident(l) {
                    let msg = format!("expected a label name after 'goto', found {}", self.describe(&l));
                    self.error(l.span, msg);
                    self.recover_to_semi();
                    self.eat(Punct::Semi);
                    return self.ast.add_stmt(StmtKind::Error, t.span.to(self.prev_span()));
                }
                self.bump();
                self.expect(Punct::Semi, "after the goto label");
                return self.ast.add_stmt(StmtKind::Goto(l.text), t.span.to(self.prev_span()));
            }
            Some(Kw::Asm) => return self.parse_asm(),
            Some(Kw::Try) => {
                self.bump();
                if self.at(Punct::LBrace) {
                    self.skip_braces();
                }
                return self.ast.add_stmt(StmtKind::Error, t.span);
            }
            _ => {}
        }
        // A label `name:`.
        if self.is_plain_ident(t) && self.peek_at(1).kind == TokenKind::Punct(Punct::Colon) {
            self.bump();
            self.bump();
            let s = if self.at(Punct::RBrace) { self.ast.add_stmt(StmtKind::Null, self.prev_span()) } else { self.parse_stmt() };
            return self.ast.add_stmt(StmtKind::Label(t.text, s), t.span.to(self.prev_span()));
        }
        if self.starts_decl() && !self.looks_like_expression_after_type() {
            let mut decls = Vec::new();
            self.parse_decl_into(&mut decls, None, false);
            let span = t.span.to(self.prev_span());
            return self.ast.add_stmt(StmtKind::Decl(decls), span);
        }
        let e = self.parse_expr();
        if !self.expect(Punct::Semi, "after the expression") {
            self.recover_to_semi();
        }
        let span = t.span.to(self.prev_span());
        self.ast.add_stmt(StmtKind::Expr(e), span)
    }

    /// After `for (`: a `:` at depth 0 before any `;` makes it a range-based for.
    /// The rest of `for (decl : range) body` after the `(`, as the loop C++ defines it
    /// (\[stmt.ranged\]), built of ordinary nodes with names no program can declare:
    ///
    /// ```text
    /// auto &&<range> = range;
    /// auto <it> = <range>, <end> = <range> + sizeof <range> / sizeof *<range>;  // an array
    /// auto <it> = <range>.begin(), <end> = <range>.end();                      // a class
    /// for (; <it> != <end>; ++<it>) { decl = *<it>; body }
    /// ```
    ///
    /// Sema picks the array or the class form by `<range>`'s type.
    fn parse_range_for(&mut self, for_span: Span, unroll: Option<Unroll>) -> StmtId {
        let start = self.peek().span;
        let ds = self.parse_decl_specs(None);
        if ds.ty.is_none() && ds.quals == Quals::default() {
            let t = self.peek();
            let msg = format!("expected the type of the range-based for loop's variable, found {}", self.describe(&t));
            self.error(t.span, msg);
        }
        let base = self.base_type(&ds);
        let d = self.parse_declarator(base, false);
        let var_span = start.to(self.prev_span());
        self.expect(Punct::Colon, "after the range-based for loop's variable");
        let range = self.parse_expr();
        self.expect(Punct::RParen, "to close the for-loop header");
        let sp = self.ast.expr(range).span;
        let [r, it, end] = ["<range>", "<begin>", "<end>"].map(|n| self.src.interner_mut().intern_local(n));
        for a in [r, it, end] {
            self.declare_non_type(a);
        }
        if let Some(n) = d.name.as_ref().filter(|n| n.parts.len() == 1) {
            self.declare_non_type(n.parts[0]);
        }
        let name = |a: Atom| Name { global: false, parts: smallvec::smallvec![a], template_args: None, scope_args: Vec::new(), span: sp };
        let use_of = |p: &mut Self, a: Atom| {
            let n = name(a);
            let n = p.ast.add_name(n);
            p.ast.add_expr(ExprKind::Name(n), sp)
        };
        let auto = |p: &mut Self| p.ast.add_type(TypeKind::Auto, Quals::default(), sp);
        let var = |p: &mut Self, a: Atom, ty: TypeId, init: ExprId| {
            let n = name(a);
            p.ast.add_decl(DeclKind::Var { specs: Specifiers::default(), name: n, ty, init: Some(init), attrs: Vec::new() }, sp)
        };
        // auto &&<range> = range;
        let to = auto(self);
        let rref = self.ast.add_type(TypeKind::Reference { to, rvalue: true }, Quals::default(), sp);
        let range_decl = var(self, r, rref, range);
        let range_stmt = self.ast.add_stmt(StmtKind::Decl(vec![range_decl]), sp);
        let range_name = use_of(self, r);
        // The array form.
        let (b, whole, first) = (use_of(self, r), use_of(self, r), use_of(self, r));
        let first = self.ast.add_expr(ExprKind::Unary(UnaryOp::Deref, first), sp);
        let whole = self.ast.add_expr(ExprKind::SizeofExpr(whole), sp);
        let one = self.ast.add_expr(ExprKind::SizeofExpr(first), sp);
        let n = self.ast.add_expr(ExprKind::Binary(BinaryOp::Div, whole, one), sp);
        let e = use_of(self, r);
        let e = self.ast.add_expr(ExprKind::Binary(BinaryOp::Add, e, n), sp);
        let (t1, t2) = (auto(self), auto(self));
        let array_iters = vec![var(self, it, t1, b), var(self, end, t2, e)];
        let array_iters = self.ast.add_stmt(StmtKind::Decl(array_iters), sp);
        // The class form.
        let call = |p: &mut Self, member: &str| {
            let base = use_of(p, r);
            // A class with such a member spelled it in a token read before this one; with
            // none, the name stays unresolved (sema reports the range's type instead).
            let m = match p.src.interner().get(member) {
                Some(m) => m,
                None => p.src.interner_mut().intern_local(&format!("<{member}>")),
            };
            let m = name(m);
            let m = p.ast.add_name(m);
            let callee = p.ast.add_expr(ExprKind::Member { base, arrow: false, name: m }, sp);
            p.ast.add_expr(ExprKind::Call { callee, args: Vec::new() }, sp)
        };
        let (b, e) = (call(self, "begin"), call(self, "end"));
        let (t1, t2) = (auto(self), auto(self));
        let class_iters = vec![var(self, it, t1, b), var(self, end, t2, e)];
        let class_iters = self.ast.add_stmt(StmtKind::Decl(class_iters), sp);
        // <it> != <end>, ++<it>, decl = *<it>.
        let (i, e) = (use_of(self, it), use_of(self, end));
        let cond = self.ast.add_expr(ExprKind::Binary(BinaryOp::Ne, i, e), sp);
        let i = use_of(self, it);
        let step = self.ast.add_expr(ExprKind::Unary(UnaryOp::PreInc, i), sp);
        let i = use_of(self, it);
        let elem = self.ast.add_expr(ExprKind::Unary(UnaryOp::Deref, i), sp);
        let var_name = d.name.clone().unwrap_or_else(|| name(r));
        let var_decl = self
            .ast
            .add_decl(DeclKind::Var { specs: ds.specs, name: var_name, ty: d.ty, init: Some(elem), attrs: ds.attrs.clone() }, var_span);
        let var_stmt = self.ast.add_stmt(StmtKind::Decl(vec![var_decl]), var_span);
        let body = self.parse_stmt();
        let body_span = self.ast.stmt(body).span;
        let body = self.ast.add_stmt(StmtKind::Compound(vec![var_stmt, body]), body_span);
        let span = for_span.to(self.prev_span());
        self.ast.add_stmt(
            StmtKind::RangeFor { range: range_stmt, range_name, iters: [array_iters, class_iters], cond, step, body, unroll },
            span,
        )
    }

    fn is_range_for(&self) -> bool {
        let mut depth = 0usize;
        for k in 0..4096 {
            match self.peek_at(k).kind {
                TokenKind::Punct(Punct::LParen | Punct::LBracket | Punct::LBrace) => depth += 1,
                TokenKind::Punct(Punct::RParen | Punct::RBracket | Punct::RBrace) => {
                    if depth == 0 {
                        return false;
                    }
                    depth -= 1;
                }
                TokenKind::Punct(Punct::Semi) | TokenKind::Eof => return false,
                TokenKind::Punct(Punct::Colon) if depth == 0 => return true,
                _ => {}
            }
        }
        false
    }

    /// A statement starting with a type that is an expression: a functional cast or a
    /// construction used as a value (`float2(a, b).x;`, `T::f();`).
    fn looks_like_expression_after_type(&self) -> bool {
        let t = self.peek();
        if self.kw_of(t).is_some() {
            return false;
        }
        // `Name ( ... ) .` / `Name :: member (`: expression forms.
        let n = self.peek_at(1);
        n.kind == TokenKind::Punct(Punct::LParen)
            && !self.is_plain_ident(self.peek_at(2))
            && self.peek_at(2).kind != TokenKind::Punct(Punct::Star)
            && self.peek_at(2).kind != TokenKind::Punct(Punct::Amp)
    }

    /// `( [init;] cond )` of if/while/switch; `cond` may be a declaration, evaluated.
    fn parse_paren_cond_with_init(&mut self) -> (Option<StmtId>, ExprId) {
        self.expect(Punct::LParen, "before the condition");
        let mut init = None;
        let cond;
        if self.starts_decl() {
            // `if (int x = f())` or `if (init; cond)`.
            let mut decls = Vec::new();
            let start = self.peek().span;
            let ds = self.parse_decl_specs(None);
            let base = self.base_type(&ds);
            let d = self.parse_declarator(base, false);
            let value = if self.eat(Punct::Eq) { Some(self.parse_assign()) } else { None };
            if let Some(name) = d.name.clone() {
                decls.push(self.ast.add_decl(
                    DeclKind::Var { specs: ds.specs, name: name.clone(), ty: d.ty, init: value, attrs: Vec::new() },
                    start.to(self.prev_span()),
                ));
                let s = self.ast.add_stmt(StmtKind::Decl(decls), start.to(self.prev_span()));
                if self.eat(Punct::Semi) {
                    init = Some(s);
                    cond = self.parse_expr();
                } else {
                    init = Some(s);
                    let name = self.ast.add_name(name);
                    cond = self.ast.add_expr(ExprKind::Name(name), start.to(self.prev_span()));
                }
            } else {
                cond = self.ast.add_expr(ExprKind::Error, start);
            }
        } else {
            cond = self.parse_expr();
        }
        if !self.expect(Punct::RParen, "after the condition") {
            while !self.at_eof() && !self.at(Punct::RParen) && !self.at(Punct::LBrace) && !self.at(Punct::Semi) {
                self.bump();
            }
            self.eat(Punct::RParen);
        }
        (init, cond)
    }

    /// `"constraint"(expr), ...` of an asm statement.
    fn parse_asm_operands(&mut self) -> Vec<AsmOperand> {
        let mut v = Vec::new();
        while self.peek().kind == TokenKind::Str {
            let c = self.bump().text;
            self.expect(Punct::LParen, "around the asm operand");
            let e = self.parse_expr();
            self.expect(Punct::RParen, "after the asm operand");
            v.push(AsmOperand { constraint: c, expr: e });
            if !self.eat(Punct::Comma) {
                break;
            }
        }
        v
    }

    /// `asm [volatile] ( "tmpl" [: outputs [: inputs [: clobbers]]] );`
    fn parse_asm(&mut self) -> StmtId {
        let kw = self.bump();
        let mut volatile = false;
        while matches!(self.kw_of(self.peek()), Some(Kw::Volatile | Kw::Inline | Kw::Goto)) {
            volatile |= self.kw_of(self.peek()) == Some(Kw::Volatile);
            self.bump();
        }
        if !self.expect(Punct::LParen, "after 'asm'") {
            self.recover_to_semi();
            return self.ast.add_stmt(StmtKind::Error, kw.span);
        }
        let mut template = Vec::new();
        while self.peek().kind == TokenKind::Str {
            template.push(self.bump().text);
        }
        if template.is_empty() {
            let t = self.peek();
            let msg = format!("expected the asm template string, found {}", self.describe(&t));
            self.error(t.span, msg);
        }
        let mut outputs = Vec::new();
        let mut inputs = Vec::new();
        let mut clobbers = Vec::new();
        // The sections' colons; `::` (one token) is two of them, as in
        // `asm volatile("membar.gl;" ::: "memory")`.
        let mut pending = 0u8;
        let mut colon = |p: &mut Self| {
            if pending > 0 {
                pending -= 1;
                true
            } else if p.eat(Punct::Colon) {
                true
            } else if p.eat(Punct::ColonColon) {
                pending = 1;
                true
            } else {
                false
            }
        };
        if colon(self) {
            outputs = self.parse_asm_operands();
            if colon(self) {
                inputs = self.parse_asm_operands();
                if colon(self) {
                    while self.peek().kind == TokenKind::Str {
                        clobbers.push(self.bump().text);
                        if !self.eat(Punct::Comma) {
                            break;
                        }
                    }
                }
            }
        }
        self.expect(Punct::RParen, "to close the asm statement");
        self.expect(Punct::Semi, "after the asm statement");
        self.ast.add_stmt(StmtKind::Asm(Box::new(AsmStmt { volatile, template, outputs, inputs, clobbers })), kw.span.to(self.prev_span()))
    }
}
