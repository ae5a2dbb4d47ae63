//! Types: builtin scalars (through a small table), function types, builtin types with
//! bodies (`vector<...>`), `!llvm.ptr<N>`, dialect types and aliases; memoized by text.

use super::{
    lexer::{Tok, Token},
    PResult, Parser,
};
use crate::types::{FloatKind, Signedness, TypeId, TypeKind, MAX_INT_WIDTH};
use rustc_hash::FxHashMap;

impl<'a> Parser<'a, '_> {
    // ----- types -----------------------------------------------------------------------

    /// Parses a type.
    pub fn parse_type(&mut self) -> PResult<TypeId> {
        // Fast path: `iN`, `f32`, `index`... without hashing.
        if self.tok.kind == Tok::BareId {
            if let Some(t) = self.keyword_type() {
                self.bump();
                return Ok(t);
            }
        }
        let end = self.type_extent();
        self.cached(end, |p| &mut p.type_cache, Self::parse_type_inner)
    }

    /// Parses with `inner` (one nesting level deeper), memoized by source text: when the
    /// value's extent `end` is known, equal text is looked up in the cache `cache` first,
    /// and a fresh result is recorded if `inner` consumed exactly that text.
    pub(super) fn cached<T: Copy>(
        &mut self,
        end: Option<usize>,
        cache: fn(&mut Self) -> &mut FxHashMap<&'a str, T>,
        inner: fn(&mut Self) -> PResult<T>,
    ) -> PResult<T> {
        let lo = self.tok.lo as usize;
        if let Some(end) = end {
            let key = &self.src[lo..end];
            if let Some(&v) = cache(self).get(key) {
                self.reset_to(end);
                return Ok(v);
            }
        }
        self.enter()?;
        let r = inner(self);
        self.leave();
        if let (Ok(v), Some(end)) = (&r, end) {
            if self.prev_hi as usize == end {
                let key = &self.src[lo..end];
                cache(self).insert(key, *v);
            }
        }
        r
    }

    pub(super) fn parse_type_inner(&mut self) -> PResult<TypeId> {
        let t = self.tok;
        match t.kind {
            Tok::BareId => {
                let s = self.text(t);
                if let Some(ty) = self.builtin_type_keyword(s, t)? {
                    return Ok(ty);
                }
                if matches!(s, "vector" | "tensor" | "memref" | "complex" | "tuple") {
                    self.bump();
                    let body = self.balanced_body(t.hi)?;
                    let keyword = self.ctx.sym(s);
                    return Ok(self.ctx.ty(TypeKind::BuiltinOpaque { keyword, body: body.to_string() }));
                }
                Err(self.error_at(t.lo, t.hi, format!("unknown type '{s}'")))
            }
            Tok::LParen => {
                self.bump();
                let inputs = self.parse_type_list_until(Tok::RParen)?;
                self.expect(Tok::Arrow)?;
                let results = if self.at(Tok::LParen) {
                    self.bump();
                    self.parse_type_list_until(Tok::RParen)?
                } else {
                    vec![self.parse_type()?]
                };
                Ok(self.ctx.function_type(inputs, results))
            }
            Tok::BangId => {
                self.bump();
                let text = &self.text(t)[1..];
                let adjacent_lt = self.src.as_bytes().get(t.hi as usize) == Some(&b'<');
                if text == "llvm.ptr" {
                    let mut addr_space = 0;
                    if adjacent_lt {
                        self.expect(Tok::Less)?;
                        let n = self.expect(Tok::Int)?;
                        addr_space = self.text(n).parse().map_err(|_| self.error_at(n.lo, n.hi, "invalid address space"))?;
                        self.expect(Tok::Greater)?;
                    }
                    return Ok(self.ctx.ty(TypeKind::Pointer { addr_space }));
                }
                if text.is_empty() {
                    return Err(self.error_at(t.lo, t.hi, "expected a dialect type or type alias after '!'"));
                }
                let (dialect, rest) = match text.find('.') {
                    Some(i) => (&text[..i], &text[i..]),
                    None if adjacent_lt => (text, ""),
                    None => {
                        let key = self.text(t);
                        if !self.type_aliases.contains_key(text) {
                            self.resolve_alias(key, t.lo, t.hi)?;
                        }
                        return self
                            .type_aliases
                            .get(text)
                            .copied()
                            .ok_or_else(|| self.error_at(t.lo, t.hi, format!("undefined symbol alias id '{text}'")));
                    }
                };
                let mut body = rest.to_string();
                if adjacent_lt {
                    body.push_str(self.balanced_body(t.hi)?);
                }
                if let Some(f) = self.ctx.registry().dialect(dialect).and_then(|d| d.canonical_type) {
                    body = f(&body).map_err(|m| self.error_at(t.lo, self.prev_hi, m))?;
                }
                let dialect = self.ctx.sym(dialect);
                Ok(self.ctx.ty(TypeKind::Opaque { dialect, body }))
            }
            _ => Err(self.expected("type")),
        }
    }

    /// The current token as a builtin scalar type keyword (signless `iN`, `f16`, `bf16`,
    /// `f32`, `f64`, `index`), memoized in a small table.
    pub(super) fn keyword_type(&mut self) -> Option<TypeId> {
        let text = self.text(self.tok).as_bytes();
        let slot = match text {
            [b'i', digits @ ..] if !digits.is_empty() && digits.len() <= 3 && digits.iter().all(u8::is_ascii_digit) => {
                let w: usize = digits.iter().fold(0, |a, &d| a * 10 + (d - b'0') as usize);
                if w == 0 || w > MAX_INT_WIDTH as usize {
                    return None;
                }
                w
            }
            b"f16" => 129,
            b"bf16" => 130,
            b"f32" => 131,
            b"f64" => 132,
            b"index" => 133,
            _ => return None,
        };
        if let Some(t) = self.keyword_types[slot] {
            return Some(t);
        }
        let kind = match slot {
            129 => TypeKind::Float(FloatKind::F16),
            130 => TypeKind::Float(FloatKind::BF16),
            131 => TypeKind::Float(FloatKind::F32),
            132 => TypeKind::Float(FloatKind::F64),
            133 => TypeKind::Index,
            w => TypeKind::Integer { width: w as u32, signedness: Signedness::Signless },
        };
        let t = self.ctx.ty(kind);
        self.keyword_types[slot] = Some(t);
        Some(t)
    }

    pub(super) fn builtin_type_keyword(&mut self, s: &str, t: Token) -> PResult<Option<TypeId>> {
        let ty = match s {
            "index" => TypeKind::Index,
            "none" => TypeKind::None,
            "f16" => TypeKind::Float(FloatKind::F16),
            "bf16" => TypeKind::Float(FloatKind::BF16),
            "f32" => TypeKind::Float(FloatKind::F32),
            "f64" => TypeKind::Float(FloatKind::F64),
            _ => {
                let (signedness, digits) = if let Some(d) = s.strip_prefix("si") {
                    (Signedness::Signed, d)
                } else if let Some(d) = s.strip_prefix("ui") {
                    (Signedness::Unsigned, d)
                } else if let Some(d) = s.strip_prefix('i') {
                    (Signedness::Signless, d)
                } else {
                    return Ok(None);
                };
                if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                    return Ok(None);
                }
                let width: u32 = digits.parse().unwrap_or(u32::MAX);
                if width == 0 || width > MAX_INT_WIDTH {
                    return Err(self.error_at(t.lo, t.hi, format!("integer width {digits} is not supported (1 to {MAX_INT_WIDTH})")));
                }
                TypeKind::Integer { width, signedness }
            }
        };
        self.bump();
        Ok(Some(self.ctx.ty(ty)))
    }

    pub(super) fn parse_type_list_into(&mut self, close: Tok, v: &mut Vec<TypeId>) -> PResult<()> {
        if self.eat(close) {
            return Ok(());
        }
        loop {
            v.push(self.parse_type()?);
            if self.eat(close) {
                return Ok(());
            }
            self.expect(Tok::Comma)?;
        }
    }

    pub(super) fn parse_type_list_until(&mut self, close: Tok) -> PResult<Vec<TypeId>> {
        let mut v = Vec::new();
        if self.eat(close) {
            return Ok(v);
        }
        loop {
            v.push(self.parse_type()?);
            if self.eat(close) {
                return Ok(v);
            }
            self.expect(Tok::Comma)?;
        }
    }

    /// Takes the balanced `<...>`/`[...]` text starting at byte `at` (which must be the
    /// current token) and moves past it.
    pub(super) fn balanced_body(&mut self, at: u32) -> PResult<&'a str> {
        if self.tok.lo != at || !matches!(self.tok.kind, Tok::Less | Tok::LSquare) {
            return Err(self.expected("'<'"));
        }
        let mut end =
            self.lex.scan_balanced(at as usize).ok_or_else(|| self.error_at(at, at + 1, "unbalanced '<' in dialect type or attribute"))?;
        // `distinct[0]<...>`: a bracket group may be followed by an angle group.
        if self.src.as_bytes()[at as usize] == b'[' && self.src.as_bytes().get(end) == Some(&b'<') {
            end = self.lex.scan_balanced(end).ok_or_else(|| self.error_at(at, at + 1, "unbalanced '<'"))?;
        }
        self.reset_to(end);
        Ok(&self.src[at as usize..end])
    }
}
