//! Attributes: numbers, strings, arrays, dictionaries, symbol references, dense arrays,
//! builtin attributes with bodies, dialect attributes and aliases; memoized by text.

use super::{
    int_fits,
    lexer::{self, Tok, Token},
    PResult, Parser,
};
use crate::{
    attrs::{AttrId, AttrKind, NamedAttr},
    print::f64_to_float_bits,
    types::{FloatKind, Signedness, TypeKind},
};

impl<'a> Parser<'a, '_> {
    // ----- attributes ------------------------------------------------------------------

    /// Parses an attribute.
    pub fn parse_attr(&mut self) -> PResult<AttrId> {
        // Dictionaries, arrays and dialect attributes are cached by their text.
        let end = match self.tok.kind {
            Tok::LBrace | Tok::LSquare => self.lex.scan_balanced(self.tok.lo as usize),
            Tok::HashId => self.token_with_body_end(self.tok),
            _ => None,
        };
        self.cached(end, |p| &mut p.attr_cache, Self::parse_attr_inner)
    }

    pub(super) fn parse_attr_inner(&mut self) -> PResult<AttrId> {
        let t = self.tok;
        match t.kind {
            Tok::Minus | Tok::Int | Tok::Float => self.parse_number_attr(),
            Tok::Str => {
                self.bump();
                let s = lexer::unescape(&self.src[t.lo as usize + 1..t.hi as usize - 1])
                    .map_err(|_| self.error_at(t.lo, t.hi, "invalid escape sequence in string"))?;
                Ok(self.ctx.attr(AttrKind::String(s)))
            }
            Tok::LSquare => {
                self.bump();
                let mut items = Vec::new();
                if !self.eat(Tok::RSquare) {
                    loop {
                        items.push(self.parse_attr()?);
                        if self.eat(Tok::RSquare) {
                            break;
                        }
                        self.expect(Tok::Comma)?;
                    }
                }
                Ok(self.ctx.attr(AttrKind::Array(items)))
            }
            Tok::LBrace => {
                self.bump();
                let mut entries: Vec<NamedAttr> = Vec::new();
                if !self.eat(Tok::RBrace) {
                    loop {
                        let k = self.bump();
                        let key = match k.kind {
                            Tok::BareId => self.text(k).to_string(),
                            Tok::Str => lexer::unescape(&self.src[k.lo as usize + 1..k.hi as usize - 1])
                                .map_err(|_| self.error_at(k.lo, k.hi, "invalid escape"))?,
                            _ => {
                                return Err(self.error_at(k.lo, k.hi, "expected attribute name"));
                            }
                        };
                        let sym = self.ctx.sym(&key);
                        if entries.iter().any(|e| e.0 == sym) {
                            return Err(self.error_at(k.lo, k.hi, format!("duplicate key '{key}' in dictionary attribute")));
                        }
                        let value = if self.eat(Tok::Equal) { self.parse_attr()? } else { self.ctx.unit_attr() };
                        entries.push((sym, value));
                        if self.eat(Tok::RBrace) {
                            break;
                        }
                        self.expect(Tok::Comma)?;
                    }
                }
                Ok(self.ctx.attr(AttrKind::Dict(entries)))
            }
            Tok::AtId => {
                let mut names = vec![self.parse_symbol_name()?];
                while self.at(Tok::Colon) && self.src.as_bytes().get(self.tok.hi as usize) == Some(&b':') {
                    self.bump();
                    self.expect(Tok::Colon)?;
                    names.push(self.parse_symbol_name()?);
                }
                let root = self.ctx.sym(&names[0]);
                let nested = names[1..].iter().map(|n| self.ctx.sym(n)).collect();
                Ok(self.ctx.attr(AttrKind::SymbolRef { root, nested }))
            }
            Tok::HashId => {
                self.bump();
                let text = &self.text(t)[1..];
                let adjacent_lt = self.src.as_bytes().get(t.hi as usize) == Some(&b'<');
                if text.is_empty() {
                    return Err(self.error_at(t.lo, t.hi, "expected a dialect attribute or alias after '#'"));
                }
                let (dialect, rest) = match text.find('.') {
                    Some(i) => (&text[..i], &text[i..]),
                    None if adjacent_lt => (text, ""),
                    None => {
                        if !self.attr_aliases.contains_key(text) {
                            self.resolve_alias(self.text(t), t.lo, t.hi)?;
                        }
                        return self
                            .attr_aliases
                            .get(text)
                            .copied()
                            .ok_or_else(|| self.error_at(t.lo, t.hi, format!("'{text}' is a location alias, not an attribute")));
                    }
                };
                let mut body = rest.to_string();
                if adjacent_lt {
                    body.push_str(self.balanced_body(t.hi)?);
                }
                let dialect = self.ctx.sym(dialect);
                Ok(self.ctx.attr(AttrKind::Opaque { dialect, body }))
            }
            Tok::BareId => {
                let s = self.text(t);
                match s {
                    "true" | "false" => {
                        self.bump();
                        let i1 = self.ctx.i1();
                        Ok(self.ctx.attr(AttrKind::Integer { value: (s == "true") as i128, ty: i1 }))
                    }
                    "unit" => {
                        self.bump();
                        Ok(self.ctx.unit_attr())
                    }
                    "array" => self.parse_dense_array(),
                    "dense" | "dense_resource" | "affine_map" | "affine_set" | "strided" | "sparse" | "distinct" | "opaque" => {
                        self.bump();
                        let body = self.balanced_body(t.hi)?.to_string();
                        let ty = if matches!(s, "dense" | "dense_resource" | "sparse" | "opaque") && self.eat(Tok::Colon) {
                            Some(self.parse_type()?)
                        } else {
                            None
                        };
                        let keyword = self.ctx.sym(s);
                        Ok(self.ctx.attr(AttrKind::BuiltinOpaque { keyword, body, ty }))
                    }
                    "loc" => Err(self.error_here("location attributes are only supported in trailing 'loc(...)' position")),
                    _ => {
                        let ty = self.parse_type()?;
                        Ok(self.ctx.type_attr(ty))
                    }
                }
            }
            Tok::LParen | Tok::BangId => {
                let ty = self.parse_type()?;
                Ok(self.ctx.type_attr(ty))
            }
            _ => Err(self.expected("attribute value")),
        }
    }

    pub(super) fn parse_dense_array(&mut self) -> PResult<AttrId> {
        let kw = self.bump();
        self.expect(Tok::Less)?;
        let elo = self.tok.lo;
        let elem = self.parse_type()?;
        let fk = match self.ctx.type_kind(elem) {
            TypeKind::Float(k) => Some(*k),
            TypeKind::Integer { width: 1 | 8 | 16 | 32 | 64, .. } => None,
            _ => return Err(self.error_at(elo, self.tok.lo, "dense array element type must be i1, i8, i16, i32, i64 or a float")),
        };
        let mut values = Vec::new();
        if self.eat(Tok::Colon) {
            loop {
                let neg = self.eat(Tok::Minus);
                let t = self.bump();
                let text = self.text(t);
                let v: i64 = match (t.kind, fk) {
                    (Tok::BareId, None) if text == "true" || text == "false" => (text == "true") as i64,
                    (Tok::Int, None) => {
                        let v = self.int_literal(t)?;
                        let v = if neg { -v } else { v };
                        let width = self.ctx.int_width(elem).unwrap_or(64);
                        if !int_fits(v, width) {
                            return Err(self.error_at(t.lo, t.hi, format!("integer constant out of range for i{width}")));
                        }
                        crate::context::normalize_int(v, width, Signedness::Signless) as i64
                    }
                    (Tok::Int | Tok::Float, Some(k)) => {
                        let v: f64 = if t.kind == Tok::Int && text.starts_with("0x") {
                            crate::print::float_bits_to_f64(self.int_literal(t)? as u64, k)
                        } else {
                            text.parse().map_err(|_| self.error_at(t.lo, t.hi, "invalid float"))?
                        };
                        f64_to_float_bits(if neg { -v } else { v }, k) as i64
                    }
                    _ => return Err(self.error_at(t.lo, t.hi, "expected a dense array element")),
                };
                values.push(v);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        self.expect(Tok::Greater).map_err(|d| d.with_note("in 'array<...>' attribute", Some(self.span(kw.lo, kw.hi))))?;
        Ok(self.ctx.attr(AttrKind::DenseArray { elem, values }))
    }

    pub(super) fn int_literal(&self, t: Token) -> PResult<i128> {
        let text = self.text(t);
        let r = match text.strip_prefix("0x") {
            Some(h) => u128::from_str_radix(h, 16).ok().and_then(|v| i128::try_from(v).ok()),
            None => text.parse::<i128>().ok(),
        };
        r.ok_or_else(|| self.error_at(t.lo, t.hi, "integer constant out of range"))
    }

    pub(super) fn parse_number_attr(&mut self) -> PResult<AttrId> {
        let lo = self.tok.lo;
        let neg = self.eat(Tok::Minus);
        let t = self.bump();
        if !matches!(t.kind, Tok::Int | Tok::Float) {
            return Err(self.error_at(t.lo, t.hi, "expected a number after '-'"));
        }
        let ty = if self.eat(Tok::Colon) {
            self.parse_type()?
        } else if t.kind == Tok::Int {
            self.ctx.i64()
        } else {
            self.ctx.float_type(FloatKind::F64)
        };
        let hi = self.tok.lo;
        match self.ctx.type_kind(ty).clone() {
            TypeKind::Float(k) => {
                let text = self.text(t);
                let bits = if t.kind == Tok::Int && text.starts_with("0x") {
                    if neg {
                        return Err(self.error_at(lo, hi, "hexadecimal float literal should not have a leading minus"));
                    }
                    let v = self.int_literal(t)? as u128;
                    if k.width() < 128 && v >> k.width() != 0 {
                        return Err(self.error_at(t.lo, t.hi, format!("hexadecimal float constant out of range for {}", k.keyword())));
                    }
                    v as u64
                } else {
                    let v: f64 = text.parse().map_err(|_| self.error_at(t.lo, t.hi, "invalid float literal"))?;
                    f64_to_float_bits(if neg { -v } else { v }, k)
                };
                Ok(self.ctx.attr(AttrKind::Float { bits, ty }))
            }
            TypeKind::Integer { width, signedness } => {
                if t.kind == Tok::Float {
                    return Err(self.error_at(t.lo, t.hi, "floating point value not valid for an integer type"));
                }
                let v = self.int_literal(t)?;
                let v = if neg { -v } else { v };
                let ok = match signedness {
                    Signedness::Unsigned => !neg && (width >= 128 || v >> width == 0),
                    Signedness::Signed => width >= 128 || (v >= -(1i128 << (width - 1)) && v < (1i128 << (width - 1))),
                    Signedness::Signless => int_fits(v, width),
                };
                if !ok {
                    return Err(self.error_at(
                        lo,
                        hi,
                        format!("integer constant out of range for attribute of type {}", crate::print::type_to_string(self.ctx, ty)),
                    ));
                }
                Ok(self.ctx.int_attr(v, ty))
            }
            TypeKind::Index => {
                if t.kind == Tok::Float {
                    return Err(self.error_at(t.lo, t.hi, "floating point value not valid for index"));
                }
                let v = self.int_literal(t)?;
                let v = if neg { -v } else { v };
                if !int_fits(v, 64) {
                    return Err(self.error_at(lo, hi, "integer constant out of range for index"));
                }
                Ok(self.ctx.int_attr(v, ty))
            }
            _ => Err(self.error_at(lo, hi, "number attributes need an integer, index or float type")),
        }
    }
}
