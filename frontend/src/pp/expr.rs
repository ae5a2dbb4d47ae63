//! `#if` expressions: after `defined` and macro expansion, an integer constant expression
//! over the tokens of the line, evaluated in `intmax_t`/`uintmax_t` as C++ specifies
//! (identifiers left over are 0, `true` is 1).

use crate::lexer::{Punct, TokenKind};

/// A value of an `#if` expression: 64-bit, signed or unsigned.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PpValue {
    pub v: i64,
    pub unsigned: bool,
}

impl PpValue {
    fn new(v: i64, unsigned: bool) -> Self {
        PpValue { v, unsigned }
    }
    pub fn truthy(self) -> bool {
        self.v != 0
    }
}

/// One token of the expression, classified.
#[derive(Clone, Debug)]
pub enum ExprTok {
    Num(PpValue),
    Punct(Punct),
    /// An identifier that is not a macro: 0 (or 1 for `true`).
    Ident(bool),
    /// Anything else (a string, an unknown character).
    Other,
}

/// Parses a pp-number as an integer literal (with `u`/`l`/`ll` suffixes).
pub fn parse_int(text: &str) -> Result<PpValue, String> {
    let t = text.replace('\'', "");
    let lower = t.to_ascii_lowercase();
    let digits_end = lower.trim_end_matches(['u', 'l', 'z']).len();
    let (body, suffix) = lower.split_at(digits_end);
    if !suffix.chars().all(|c| matches!(c, 'u' | 'l' | 'z')) || suffix.matches('u').count() > 1 {
        return Err(format!("invalid integer suffix in '{text}'"));
    }
    let (radix, digits) = if let Some(h) = body.strip_prefix("0x") {
        (16, h)
    } else if let Some(b) = body.strip_prefix("0b") {
        (2, b)
    } else if body.len() > 1 && body.starts_with('0') {
        (8, &body[1..])
    } else {
        (10, body)
    };
    if digits.is_empty() || digits.contains('.') || (radix != 16 && digits.contains(['e', 'p'])) {
        return Err(format!("'{text}' is not an integer (floating-point values are not allowed in #if)"));
    }
    let v = u64::from_str_radix(digits, radix).map_err(|_| format!("integer literal '{text}' is too large or malformed"))?;
    let unsigned = suffix.contains('u') || v > i64::MAX as u64;
    Ok(PpValue::new(v as i64, unsigned))
}

/// The value of a character literal (`'a'`, `'\n'`, `'\x41'`, `'\0'`).
pub fn char_value(text: &str) -> Result<PpValue, String> {
    let body = text.trim_start_matches(['L', 'u', 'U', '8']);
    let inner = body.strip_prefix('\'').and_then(|b| b.strip_suffix('\'')).ok_or("malformed character literal")?;
    let v = match inner.as_bytes() {
        [c] => *c as i64,
        [b'\\', rest @ ..] => match rest {
            [b'n'] => 10,
            [b't'] => 9,
            [b'r'] => 13,
            [b'0'] => 0,
            [b'\\'] => 92,
            [b'\''] => 39,
            [b'"'] => 34,
            [b'a'] => 7,
            [b'b'] => 8,
            [b'f'] => 12,
            [b'v'] => 11,
            [b'?'] => 63,
            [b'x', hex @ ..] => i64::from_str_radix(std::str::from_utf8(hex).unwrap_or("x"), 16).map_err(|_| "bad \\x escape")?,
            oct if oct.iter().all(|d| (b'0'..=b'7').contains(d)) => {
                i64::from_str_radix(std::str::from_utf8(oct).unwrap_or("x"), 8).map_err(|_| "bad octal escape")?
            }
            _ => return Err("unknown escape in character literal".into()),
        },
        _ => {
            // A multi-character or UTF-8 literal: the first character's code point.
            inner.chars().next().map_or(0, |c| c as i64)
        }
    };
    Ok(PpValue::new(v, false))
}

/// Nesting limit of parentheses and unary operators in an `#if` expression.
const MAX_DEPTH: usize = 256;

struct P<'a> {
    toks: &'a [ExprTok],
    pos: usize,
    depth: usize,
}

/// Evaluates an `#if` expression. Errors carry the index of the offending token.
pub fn eval(toks: &[ExprTok]) -> Result<PpValue, (usize, String)> {
    if toks.is_empty() {
        return Err((0, "#if with no expression".into()));
    }
    let mut p = P { toks, pos: 0, depth: 0 };
    let v = p.cond(true)?;
    if p.pos < toks.len() {
        return Err((p.pos, "unexpected token in #if expression".into()));
    }
    Ok(v)
}

fn prec(p: Punct) -> Option<u8> {
    use Punct::*;
    Some(match p {
        PipePipe => 1,
        AmpAmp => 2,
        Pipe => 3,
        Caret => 4,
        Amp => 5,
        EqEq | Ne => 6,
        Lt | Gt | Le | Ge => 7,
        Shl | Shr => 8,
        Plus | Minus => 9,
        Star | Slash | Percent => 10,
        _ => return None,
    })
}

impl P<'_> {
    fn peek(&self) -> Option<&ExprTok> {
        self.toks.get(self.pos)
    }
    fn at(&self, p: Punct) -> bool {
        matches!(self.peek(), Some(ExprTok::Punct(q)) if *q == p)
    }

    /// `a ? b : c` (right-associative); `live` is false in branches not taken (no division
    /// by zero errors there).
    fn cond(&mut self, live: bool) -> Result<PpValue, (usize, String)> {
        let c = self.binary(0, live)?;
        if self.at(Punct::Question) {
            self.pos += 1;
            let a = self.cond(live && c.truthy())?;
            if !self.at(Punct::Colon) {
                return Err((self.pos, "expected ':' in conditional expression".into()));
            }
            self.pos += 1;
            let b = self.cond(live && !c.truthy())?;
            let unsigned = a.unsigned || b.unsigned;
            return Ok(PpValue::new(if c.truthy() { a.v } else { b.v }, unsigned));
        }
        Ok(c)
    }

    fn binary(&mut self, min: u8, live: bool) -> Result<PpValue, (usize, String)> {
        let mut lhs = self.unary(live)?;
        loop {
            let Some(ExprTok::Punct(op)) = self.peek().cloned() else { return Ok(lhs) };
            let Some(pr) = prec(op) else { return Ok(lhs) };
            if pr <= min {
                return Ok(lhs);
            }
            let at = self.pos;
            self.pos += 1;
            // Short-circuit: the right side of && / || is evaluated "dead" when it does
            // not matter.
            let rlive = match op {
                Punct::AmpAmp => live && lhs.truthy(),
                Punct::PipePipe => live && !lhs.truthy(),
                _ => live,
            };
            let rhs = self.binary(pr, rlive)?;
            lhs = apply(op, lhs, rhs, live).map_err(|m| (at, m))?;
        }
    }

    fn unary(&mut self, live: bool) -> Result<PpValue, (usize, String)> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err((self.pos, "#if expression nests too deeply".into()));
        }
        let r = self.unary_inner(live);
        self.depth -= 1;
        r
    }

    fn unary_inner(&mut self, live: bool) -> Result<PpValue, (usize, String)> {
        let at = self.pos;
        let Some(t) = self.peek().cloned() else { return Err((at, "expected a value at the end of the #if expression".into())) };
        self.pos += 1;
        match t {
            ExprTok::Num(v) => Ok(v),
            ExprTok::Ident(one) => Ok(PpValue::new(i64::from(one), false)),
            ExprTok::Punct(Punct::LParen) => {
                let v = self.cond(live)?;
                if !self.at(Punct::RParen) {
                    return Err((self.pos, "expected ')' in #if expression".into()));
                }
                self.pos += 1;
                Ok(v)
            }
            ExprTok::Punct(Punct::Plus) => self.unary(live),
            ExprTok::Punct(Punct::Minus) => {
                let v = self.unary(live)?;
                Ok(PpValue::new(v.v.wrapping_neg(), v.unsigned))
            }
            ExprTok::Punct(Punct::Tilde) => {
                let v = self.unary(live)?;
                Ok(PpValue::new(!v.v, v.unsigned))
            }
            ExprTok::Punct(Punct::Bang) => {
                let v = self.unary(live)?;
                Ok(PpValue::new(i64::from(!v.truthy()), false))
            }
            ExprTok::Punct(p) => Err((at, format!("'{}' cannot start a value in #if", p.text()))),
            ExprTok::Other => Err((at, "token is not valid in a #if expression".into())),
        }
    }
}

fn apply(op: Punct, a: PpValue, b: PpValue, live: bool) -> Result<PpValue, String> {
    use Punct::*;
    let u = a.unsigned || b.unsigned;
    let (x, y) = (a.v, b.v);
    let cmp = |r: bool| PpValue::new(i64::from(r), false);
    Ok(match op {
        PipePipe => cmp(a.truthy() || b.truthy()),
        AmpAmp => cmp(a.truthy() && b.truthy()),
        Pipe => PpValue::new(x | y, u),
        Caret => PpValue::new(x ^ y, u),
        Amp => PpValue::new(x & y, u),
        EqEq => cmp(x == y),
        Ne => cmp(x != y),
        Lt => cmp(if u { (x as u64) < (y as u64) } else { x < y }),
        Gt => cmp(if u { (x as u64) > (y as u64) } else { x > y }),
        Le => cmp(if u { (x as u64) <= (y as u64) } else { x <= y }),
        Ge => cmp(if u { (x as u64) >= (y as u64) } else { x >= y }),
        Shl => PpValue::new(if (0..64).contains(&y) { x.wrapping_shl(y as u32) } else { 0 }, a.unsigned),
        Shr => PpValue::new(
            if (0..64).contains(&y) {
                if a.unsigned {
                    ((x as u64) >> y) as i64
                } else {
                    x >> y
                }
            } else {
                0
            },
            a.unsigned,
        ),
        Plus => PpValue::new(x.wrapping_add(y), u),
        Minus => PpValue::new(x.wrapping_sub(y), u),
        Star => PpValue::new(x.wrapping_mul(y), u),
        Slash | Percent => {
            if y == 0 {
                if live {
                    return Err(format!("{} by zero in #if expression", if op == Slash { "division" } else { "remainder" }));
                }
                return Ok(PpValue::new(0, u));
            }
            let r = if u {
                if op == Slash {
                    ((x as u64) / (y as u64)) as i64
                } else {
                    ((x as u64) % (y as u64)) as i64
                }
            } else if op == Slash {
                x.wrapping_div(y)
            } else {
                x.wrapping_rem(y)
            };
            PpValue::new(r, u)
        }
        _ => return Err(format!("'{}' is not a binary operator", op.text())),
    })
}

/// Classifies a token for [`eval`].
pub fn classify(kind: TokenKind, text: &str) -> Result<ExprTok, String> {
    Ok(match kind {
        TokenKind::Number => ExprTok::Num(parse_int(text)?),
        TokenKind::Char => ExprTok::Num(char_value(text)?),
        TokenKind::Ident => ExprTok::Ident(text == "true"),
        TokenKind::Punct(p) => ExprTok::Punct(p),
        _ => ExprTok::Other,
    })
}
