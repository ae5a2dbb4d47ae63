//! Tokens of MLIR's textual IR, each with its byte span.

/// Token kinds.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Tok {
    Eof,
    /// A character that starts no token, or an unterminated string.
    Error,
    BareId,
    PercentId,
    CaretId,
    AtId,
    HashId,
    BangId,
    Int,
    Float,
    Str,
    LParen,
    RParen,
    LBrace,
    RBrace,
    LSquare,
    RSquare,
    Less,
    Greater,
    Comma,
    Colon,
    Equal,
    Arrow,
    Question,
    Star,
    Plus,
    Minus,
    FileMetaBegin,
    FileMetaEnd,
}

impl Tok {
    /// How the token is described in "expected ..." messages.
    pub fn describe(self) -> &'static str {
        match self {
            Tok::Eof => "end of file",
            Tok::Error => "invalid character",
            Tok::BareId => "identifier",
            Tok::PercentId => "SSA value",
            Tok::CaretId => "block label",
            Tok::AtId => "symbol",
            Tok::HashId => "attribute alias",
            Tok::BangId => "type alias",
            Tok::Int => "integer",
            Tok::Float => "float",
            Tok::Str => "string",
            Tok::LParen => "'('",
            Tok::RParen => "')'",
            Tok::LBrace => "'{'",
            Tok::RBrace => "'}'",
            Tok::LSquare => "'['",
            Tok::RSquare => "']'",
            Tok::Less => "'<'",
            Tok::Greater => "'>'",
            Tok::Comma => "','",
            Tok::Colon => "':'",
            Tok::Equal => "'='",
            Tok::Arrow => "'->'",
            Tok::Question => "'?'",
            Tok::Star => "'*'",
            Tok::Plus => "'+'",
            Tok::Minus => "'-'",
            Tok::FileMetaBegin => "'{-#'",
            Tok::FileMetaEnd => "'#-}'",
        }
    }
}

/// A token: kind and byte range.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Token {
    pub kind: Tok,
    pub lo: u32,
    pub hi: u32,
}

/// The lexer: a cursor over the source bytes.
#[derive(Clone)]
pub struct Lexer<'a> {
    pub src: &'a str,
    pub pos: usize,
}

const BARE: u8 = 1;
const SUFFIX: u8 = 2;
const SPACE: u8 = 4;

/// Character classes by byte (a table beats chains of comparisons in the hot loops).
static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        if b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b == b'.' {
            t[c] = BARE | SUFFIX;
        }
        if b == b'-' {
            t[c] = SUFFIX;
        }
        if b == b' ' || b == b'\t' || b == b'\n' || b == b'\r' || b == 0x0b || b == 0x0c {
            t[c] = SPACE;
        }
        c += 1;
    }
    t
};

#[inline]
fn is_suffix_char(c: u8) -> bool {
    CLASS[c as usize] & SUFFIX != 0
}

#[inline]
fn is_bare_char(c: u8) -> bool {
    CLASS[c as usize] & BARE != 0
}

impl<'a> Lexer<'a> {
    /// A lexer at the start of `src`.
    pub fn new(src: &'a str) -> Self {
        Self { src, pos: 0 }
    }

    fn bytes(&self) -> &'a [u8] {
        self.src.as_bytes()
    }

    fn skip_trivia(&mut self) {
        let b = self.bytes();
        loop {
            while self.pos < b.len() && CLASS[b[self.pos] as usize] & SPACE != 0 {
                self.pos += 1;
            }
            if self.pos + 1 < b.len() && b[self.pos] == b'/' && b[self.pos + 1] == b'/' {
                while self.pos < b.len() && b[self.pos] != b'\n' {
                    self.pos += 1;
                }
                continue;
            }
            break;
        }
    }

    /// The next token.
    pub fn next_token(&mut self) -> Token {
        self.skip_trivia();
        let b = self.bytes();
        let lo = self.pos;
        if lo >= b.len() {
            return Token { kind: Tok::Eof, lo: lo as u32, hi: lo as u32 };
        }
        let c = b[lo];
        self.pos += 1;
        let kind = match c {
            b'(' => Tok::LParen,
            b')' => Tok::RParen,
            b'{' => {
                if self.peek_is(b"-#") {
                    self.pos += 2;
                    Tok::FileMetaBegin
                } else {
                    Tok::LBrace
                }
            }
            b'}' => Tok::RBrace,
            b'[' => Tok::LSquare,
            b']' => Tok::RSquare,
            b'<' => Tok::Less,
            b'>' => Tok::Greater,
            b',' => Tok::Comma,
            b':' => Tok::Colon,
            b'=' => Tok::Equal,
            b'?' => Tok::Question,
            b'*' => Tok::Star,
            b'+' => Tok::Plus,
            b'-' => {
                if self.peek_is(b">") {
                    self.pos += 1;
                    Tok::Arrow
                } else {
                    Tok::Minus
                }
            }
            b'"' => self.lex_string(),
            b'%' => self.lex_prefixed(Tok::PercentId),
            b'^' => self.lex_prefixed(Tok::CaretId),
            b'#' => {
                if self.peek_is(b"-}") {
                    self.pos += 2;
                    Tok::FileMetaEnd
                } else {
                    self.lex_prefixed(Tok::HashId)
                }
            }
            b'!' => self.lex_prefixed(Tok::BangId),
            b'@' => {
                if self.pos < b.len() && b[self.pos] == b'"' {
                    self.pos += 1;
                    match self.lex_string() {
                        Tok::Str => Tok::AtId,
                        other => other,
                    }
                } else {
                    self.lex_prefixed(Tok::AtId)
                }
            }
            c if c.is_ascii_digit() => self.lex_number(lo),
            c if c.is_ascii_alphabetic() || c == b'_' => {
                while self.pos < b.len() && is_bare_char(b[self.pos]) {
                    self.pos += 1;
                }
                Tok::BareId
            }
            _ => {
                // Step over a whole UTF-8 character so spans stay on char boundaries.
                while self.pos < b.len() && !self.src.is_char_boundary(self.pos) {
                    self.pos += 1;
                }
                Tok::Error
            }
        };
        Token { kind, lo: lo as u32, hi: self.pos as u32 }
    }

    fn peek_is(&self, s: &[u8]) -> bool {
        self.bytes()[self.pos..].starts_with(s)
    }

    fn lex_prefixed(&mut self, kind: Tok) -> Tok {
        let b = self.bytes();
        let start = self.pos;
        while self.pos < b.len() && is_suffix_char(b[self.pos]) {
            self.pos += 1;
        }
        if self.pos == start && kind != Tok::BangId && kind != Tok::HashId {
            return Tok::Error;
        }
        kind
    }

    fn lex_string(&mut self) -> Tok {
        let b = self.bytes();
        while self.pos < b.len() {
            // Skip ordinary characters in one go.
            while self.pos < b.len() && !matches!(b[self.pos], b'"' | b'\\' | b'\n') {
                self.pos += 1;
            }
            if self.pos >= b.len() {
                break;
            }
            match b[self.pos] {
                b'"' => {
                    self.pos += 1;
                    return Tok::Str;
                }
                b'\\' => self.pos += 2,
                b'\n' => return Tok::Error,
                _ => self.pos += 1,
            }
        }
        self.pos = self.pos.min(b.len());
        Tok::Error
    }

    fn lex_number(&mut self, lo: usize) -> Tok {
        let b = self.bytes();
        if b[lo] == b'0' && self.pos < b.len() && b[self.pos] == b'x' && self.pos + 1 < b.len() && b[self.pos + 1].is_ascii_hexdigit() {
            self.pos += 1;
            while self.pos < b.len() && b[self.pos].is_ascii_hexdigit() {
                self.pos += 1;
            }
            return Tok::Int;
        }
        while self.pos < b.len() && b[self.pos].is_ascii_digit() {
            self.pos += 1;
        }
        if self.pos < b.len() && b[self.pos] == b'.' {
            self.pos += 1;
            while self.pos < b.len() && b[self.pos].is_ascii_digit() {
                self.pos += 1;
            }
            if self.pos < b.len() && (b[self.pos] == b'e' || b[self.pos] == b'E') {
                let save = self.pos;
                self.pos += 1;
                if self.pos < b.len() && (b[self.pos] == b'+' || b[self.pos] == b'-') {
                    self.pos += 1;
                }
                if self.pos < b.len() && b[self.pos].is_ascii_digit() {
                    while self.pos < b.len() && b[self.pos].is_ascii_digit() {
                        self.pos += 1;
                    }
                } else {
                    self.pos = save;
                }
            }
            return Tok::Float;
        }
        Tok::Int
    }

    /// From `start` (an opening `<`, `[`, `(` or `{`), the offset just past the matching
    /// closer, skipping strings; `->` does not close a `<`. `None` if unbalanced.
    pub fn scan_balanced(&self, start: usize) -> Option<usize> {
        let b = self.bytes();
        let mut stack = BracketStack::default();
        let mut i = start;
        while i < b.len() {
            let c = b[i];
            match c {
                b'<' | b'[' | b'(' | b'{' => stack.push(c),
                b'>' if i > 0 && b[i - 1] == b'-' => {}
                b'>' | b']' | b')' | b'}' => {
                    let open = match c {
                        b'>' => b'<',
                        b']' => b'[',
                        b')' => b'(',
                        _ => b'{',
                    };
                    if stack.pop() != Some(open) {
                        return None;
                    }
                    if stack.is_empty() {
                        return Some(i + 1);
                    }
                }
                b'"' => {
                    i += 1;
                    while i < b.len() && b[i] != b'"' {
                        if b[i] == b'\\' {
                            i += 1;
                        }
                        i += 1;
                    }
                }
                _ => {}
            }
            i += 1;
        }
        None
    }
}

/// Decodes the body of a string token (without quotes): `\"`, `\\`, `\n`, `\t`, `\XX`.
pub fn unescape(body: &str) -> Result<String, usize> {
    let b = body.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' {
            let n = *b.get(i + 1).ok_or(i)?;
            match n {
                b'"' | b'\\' => {
                    out.push(n);
                    i += 2;
                }
                b'n' => {
                    out.push(b'\n');
                    i += 2;
                }
                b't' => {
                    out.push(b'\t');
                    i += 2;
                }
                _ => {
                    let h = body.get(i + 1..i + 3).ok_or(i)?;
                    let v = u8::from_str_radix(h, 16).map_err(|_| i)?;
                    out.push(v);
                    i += 3;
                }
            }
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| 0)
}

/// A bracket stack without allocation for the usual shallow nesting.
#[derive(Default)]
struct BracketStack {
    small: [u8; 32],
    len: usize,
    spill: Vec<u8>,
}

impl BracketStack {
    fn push(&mut self, c: u8) {
        if self.len < self.small.len() {
            self.small[self.len] = c;
        } else {
            self.spill.push(c);
        }
        self.len += 1;
    }
    fn pop(&mut self) -> Option<u8> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        if self.len < self.small.len() {
            Some(self.small[self.len])
        } else {
            self.spill.pop()
        }
    }
    fn is_empty(&self) -> bool {
        self.len == 0
    }
}
