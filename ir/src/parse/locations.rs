//! Locations: `loc(...)` with file ranges, names, fused, callsite, unknown and aliases.

use super::{
    lexer::{self, Tok},
    PResult, Parser,
};
use crate::location::{LineCol, LocId, Location};

impl Parser<'_, '_> {
    // ----- locations -------------------------------------------------------------------

    /// Parses `loc(...)`.
    pub fn parse_loc_paren(&mut self) -> PResult<LocId> {
        self.expect_keyword("loc")?;
        self.expect(Tok::LParen)?;
        let l = self.parse_loc_body()?;
        self.expect(Tok::RParen)?;
        Ok(l)
    }

    pub(super) fn parse_loc_body(&mut self) -> PResult<LocId> {
        self.enter()?;
        let r = self.parse_loc_body_inner();
        self.leave();
        r
    }

    pub(super) fn parse_u32(&mut self) -> PResult<u32> {
        let t = self.expect(Tok::Int)?;
        self.text(t).parse().map_err(|_| self.error_at(t.lo, t.hi, "expected a line or column number"))
    }

    pub(super) fn parse_loc_body_inner(&mut self) -> PResult<LocId> {
        let t = self.tok;
        match t.kind {
            Tok::BareId if self.text(t) == "unknown" => {
                self.bump();
                Ok(self.ctx.unknown_loc())
            }
            Tok::BareId if self.text(t) == "fused" => {
                self.bump();
                let metadata = if self.eat(Tok::Less) {
                    let a = self.parse_attr()?;
                    self.expect(Tok::Greater)?;
                    Some(a)
                } else {
                    None
                };
                self.expect(Tok::LSquare)?;
                let mut locs = Vec::new();
                if !self.eat(Tok::RSquare) {
                    loop {
                        locs.push(self.parse_loc_body()?);
                        if self.eat(Tok::RSquare) {
                            break;
                        }
                        self.expect(Tok::Comma)?;
                    }
                }
                Ok(self.ctx.loc(Location::Fused { locs, metadata }))
            }
            Tok::BareId if self.text(t) == "callsite" => {
                self.bump();
                self.expect(Tok::LParen)?;
                let callee = self.parse_loc_body()?;
                self.expect_keyword("at")?;
                let caller = self.parse_loc_body()?;
                self.expect(Tok::RParen)?;
                Ok(self.ctx.loc(Location::CallSite { callee, caller }))
            }
            Tok::Str => {
                self.bump();
                let s = lexer::unescape(&self.src[t.lo as usize + 1..t.hi as usize - 1])
                    .map_err(|_| self.error_at(t.lo, t.hi, "invalid escape"))?;
                let sym = self.ctx.sym(&s);
                if self.eat(Tok::Colon) {
                    let line = self.parse_u32()?;
                    self.expect(Tok::Colon)?;
                    let col = self.parse_u32()?;
                    let mut end = None;
                    if self.eat_keyword("to") {
                        if self.eat(Tok::Colon) {
                            end = Some(LineCol { line, col: self.parse_u32()? });
                        } else {
                            let l2 = self.parse_u32()?;
                            self.expect(Tok::Colon)?;
                            end = Some(LineCol { line: l2, col: self.parse_u32()? });
                        }
                    }
                    return Ok(self.ctx.loc(Location::File { file: sym, start: LineCol { line, col }, end, bytes: None }));
                }
                let child = if self.eat(Tok::LParen) {
                    let c = self.parse_loc_body()?;
                    self.expect(Tok::RParen)?;
                    Some(c)
                } else {
                    None
                };
                Ok(self.ctx.loc(Location::Name { name: sym, child }))
            }
            Tok::HashId => {
                self.bump();
                let name = &self.text(t)[1..];
                if !self.loc_aliases.contains_key(name) {
                    self.resolve_alias(self.text(t), t.lo, t.hi)?;
                }
                self.loc_aliases.get(name).copied().ok_or_else(|| self.error_at(t.lo, t.hi, format!("'{name}' is not a location alias")))
            }
            _ => Err(self.expected("location")),
        }
    }
}
