//! The C/C++ lexer: a file's text to tokens with byte spans, as translation phase 3 sees
//! them (preprocessing tokens: identifiers and keywords alike are `Ident`, numbers are
//! pp-numbers). Comments and whitespace go, `\`-newline splices are whitespace, and each
//! token records whether it starts a line (for directives) and follows a space (for
//! stringification and printing).

/// Punctuators, C++17's plus `#`/`##`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Punct {
    LBrace,
    RBrace,
    LBracket,
    RBracket,
    LParen,
    RParen,
    Semi,
    Colon,
    ColonColon,
    Comma,
    Dot,
    Ellipsis,
    Arrow,
    ArrowStar,
    DotStar,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    Caret,
    Amp,
    Pipe,
    Tilde,
    Bang,
    Eq,
    Lt,
    Gt,
    PlusEq,
    MinusEq,
    StarEq,
    SlashEq,
    PercentEq,
    CaretEq,
    AmpEq,
    PipeEq,
    Shl,
    Shr,
    ShlEq,
    ShrEq,
    EqEq,
    Ne,
    Le,
    Ge,
    AmpAmp,
    PipePipe,
    PlusPlus,
    MinusMinus,
    Question,
    Hash,
    HashHash,
}

/// The preprocessor keeps a table indexed by `Punct as usize`.
const _: () = assert!((Punct::HashHash as usize) < 64);

impl Punct {
    /// The spelling.
    pub fn text(self) -> &'static str {
        use Punct::*;
        match self {
            LBrace => "{",
            RBrace => "}",
            LBracket => "[",
            RBracket => "]",
            LParen => "(",
            RParen => ")",
            Semi => ";",
            Colon => ":",
            ColonColon => "::",
            Comma => ",",
            Dot => ".",
            Ellipsis => "...",
            Arrow => "->",
            ArrowStar => "->*",
            DotStar => ".*",
            Plus => "+",
            Minus => "-",
            Star => "*",
            Slash => "/",
            Percent => "%",
            Caret => "^",
            Amp => "&",
            Pipe => "|",
            Tilde => "~",
            Bang => "!",
            Eq => "=",
            Lt => "<",
            Gt => ">",
            PlusEq => "+=",
            MinusEq => "-=",
            StarEq => "*=",
            SlashEq => "/=",
            PercentEq => "%=",
            CaretEq => "^=",
            AmpEq => "&=",
            PipeEq => "|=",
            Shl => "<<",
            Shr => ">>",
            ShlEq => "<<=",
            ShrEq => ">>=",
            EqEq => "==",
            Ne => "!=",
            Le => "<=",
            Ge => ">=",
            AmpAmp => "&&",
            PipePipe => "||",
            PlusPlus => "++",
            MinusMinus => "--",
            Question => "?",
            Hash => "#",
            HashHash => "##",
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TokenKind {
    Ident,
    /// A pp-number (`42`, `0x1p-3f`, `1'000`, `1.5e+3`).
    Number,
    /// A character literal, prefix included (`'a'`, `L'x'`).
    Char,
    /// A string literal, prefix included (`"a"`, `u8"x"`, `R"(raw)"`).
    Str,
    Punct(Punct),
    /// `#pragma unroll [N]`, kept for the parser as a loop hint; made by the preprocessor,
    /// whose token spells the count (N, or `0` for "fully") so that tokens stay small.
    PragmaUnroll,
    /// A character that starts no token (`@`, `$` outside identifiers, a stray `\`).
    Unknown,
    Eof,
}

/// The token is the first on its line.
pub const AT_BOL: u8 = 1;
/// Whitespace or a comment precedes the token.
pub const SPACE_BEFORE: u8 = 2;

/// A token of one file: kind, byte range, flags.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RawToken {
    pub kind: TokenKind,
    pub lo: u32,
    pub hi: u32,
    pub flags: u8,
}

/// A lexing problem (the token is still produced so that lexing goes on).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LexError {
    pub lo: u32,
    pub hi: u32,
    pub message: &'static str,
}

/// Lexes a whole file. The last token is `Eof`.
pub fn lex(text: &str, errors: &mut Vec<LexError>) -> Vec<RawToken> {
    let mut out = Vec::with_capacity(text.len() / 5 + 1);
    let mut lexer = Lexer::default();
    loop {
        let t = lexer.next(text, errors);
        out.push(t);
        if t.kind == TokenKind::Eof {
            return out;
        }
    }
}

/// An incremental lexer over one file's text (the preprocessor lexes each file as it reads
/// it, so a file's tokens are never stored whole). After `Eof` it keeps returning `Eof`.
#[derive(Clone, Debug)]
pub struct Lexer {
    i: usize,
    flags: u8,
}

impl Default for Lexer {
    fn default() -> Self {
        Lexer { i: 0, flags: AT_BOL }
    }
}

impl Lexer {
    /// The next token of `text` (always the same text for one lexer); problems go to
    /// `errors`, and the token is still produced.
    pub fn next(&mut self, text: &str, errors: &mut Vec<LexError>) -> RawToken {
        let b = text.as_bytes();
        let mut i = self.i;
        let mut flags = self.flags;
        // A UTF-8 byte order mark at the start of a file is not text (the first line's `#`
        // still starts a directive).
        if i == 0 && text.starts_with('\u{feff}') {
            i = 3;
        }
        while i < b.len() {
            let c = b[i];
            match c {
                b'\n' => {
                    flags = AT_BOL | SPACE_BEFORE;
                    i += 1;
                    continue;
                }
                b' ' | b'\t' | b'\r' | 0x0b | 0x0c => {
                    flags |= SPACE_BEFORE;
                    i += 1;
                    continue;
                }
                b'\\' if matches!(b.get(i + 1), Some(b'\n')) => {
                    i += 2;
                    flags |= SPACE_BEFORE;
                    continue;
                }
                b'\\' if b.get(i + 1) == Some(&b'\r') && b.get(i + 2) == Some(&b'\n') => {
                    i += 3;
                    flags |= SPACE_BEFORE;
                    continue;
                }
                b'/' if b.get(i + 1) == Some(&b'/') => {
                    // A line comment; a `\`-newline continues it.
                    while i < b.len() && b[i] != b'\n' {
                        if b[i] == b'\\' && b.get(i + 1) == Some(&b'\n') {
                            i += 1;
                        }
                        i += 1;
                    }
                    flags |= SPACE_BEFORE;
                    continue;
                }
                b'/' if b.get(i + 1) == Some(&b'*') => {
                    let lo = i;
                    match text[i + 2..].find("*/") {
                        Some(e) => i = i + 2 + e + 2,
                        None => {
                            errors.push(LexError { lo: lo as u32, hi: lo as u32 + 2, message: "unterminated /* comment" });
                            i = b.len();
                        }
                    }
                    flags |= SPACE_BEFORE;
                    continue;
                }
                _ => {}
            }
            let lo = i;
            let kind = if c.is_ascii_alphabetic() || c == b'_' || c >= 0x80 || c == b'$' {
                // String and character prefixes: u8 u U L R and combinations with R.
                let mut j = i;
                while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_' || b[j] >= 0x80 || b[j] == b'$') {
                    j += 1;
                }
                let word = &text[i..j];
                let quote = b.get(j).copied();
                if matches!(word, "u8" | "u" | "U" | "L" | "R" | "u8R" | "uR" | "UR" | "LR") && matches!(quote, Some(b'"') | Some(b'\'')) {
                    if word.ends_with('R') && quote == Some(b'"') {
                        i = raw_string(text, j, lo, errors);
                        TokenKind::Str
                    } else if quote == Some(b'"') {
                        i = quoted(b, j, b'"', lo, errors);
                        TokenKind::Str
                    } else {
                        i = quoted(b, j, b'\'', lo, errors);
                        TokenKind::Char
                    }
                } else {
                    // Non-ASCII bytes are taken as identifier characters; keep whole chars.
                    while j < b.len() && !text.is_char_boundary(j) {
                        j += 1;
                    }
                    i = j;
                    // C++'s alternative tokens (`and`, `not_eq`, ...) are operators.
                    match alternative_token(&text[lo..j]) {
                        Some(p) => TokenKind::Punct(p),
                        None => TokenKind::Ident,
                    }
                }
            } else if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit)) {
                let mut j = i + 1;
                while j < b.len() {
                    let d = b[j];
                    if matches!(d, b'e' | b'E' | b'p' | b'P') && matches!(b.get(j + 1), Some(b'+') | Some(b'-')) {
                        j += 2;
                    } else if d.is_ascii_alphanumeric() || d == b'.' || d == b'_' {
                        j += 1;
                    } else if d == b'\'' && b.get(j + 1).is_some_and(|x| x.is_ascii_alphanumeric()) {
                        j += 2;
                    } else {
                        break;
                    }
                }
                i = j;
                TokenKind::Number
            } else if c == b'"' {
                i = quoted(b, i, b'"', lo, errors);
                TokenKind::Str
            } else if c == b'\'' {
                i = quoted(b, i, b'\'', lo, errors);
                TokenKind::Char
            } else if let Some((p, n)) = punct(b, i) {
                i += n;
                TokenKind::Punct(p)
            } else {
                let ch = text[i..].chars().next().map_or(1, char::len_utf8);
                i += ch;
                TokenKind::Unknown
            };
            self.i = i;
            self.flags = 0;
            return RawToken { kind, lo: lo as u32, hi: i as u32, flags };
        }
        self.i = i;
        self.flags = flags;
        RawToken { kind: TokenKind::Eof, lo: b.len() as u32, hi: b.len() as u32, flags: flags | AT_BOL }
    }
}

/// Scans a `"..."` or `'...'` literal starting at the quote `at`; returns the end.
fn quoted(b: &[u8], at: usize, q: u8, lo: usize, errors: &mut Vec<LexError>) -> usize {
    let mut j = at + 1;
    while j < b.len() {
        match b[j] {
            x if x == q => return j + 1,
            b'\\' if j + 1 < b.len() => j += 2,
            b'\n' => break,
            _ => j += 1,
        }
    }
    errors.push(LexError {
        lo: lo as u32,
        hi: j as u32,
        message: if q == b'"' { "unterminated string literal" } else { "unterminated character literal" },
    });
    j
}

/// Scans a raw string `R"delim( ... )delim"` whose `"` is at `at`.
fn raw_string(text: &str, at: usize, lo: usize, errors: &mut Vec<LexError>) -> usize {
    let rest = &text[at + 1..];
    let Some(open) = rest.find('(').filter(|&k| k <= 16 && !rest[..k].contains(['"', ' ', '\n', ')', '\\'])) else {
        errors.push(LexError { lo: lo as u32, hi: at as u32 + 1, message: "invalid raw string delimiter" });
        return at + 1;
    };
    let delim = &rest[..open];
    let close = format!("){delim}\"");
    match rest[open..].find(&close) {
        Some(k) => at + 1 + open + k + close.len(),
        None => {
            errors.push(LexError { lo: lo as u32, hi: at as u32 + 1, message: "unterminated raw string literal" });
            text.len()
        }
    }
}

fn punct(b: &[u8], i: usize) -> Option<(Punct, usize)> {
    use Punct::*;
    let at = |k: usize| b.get(i + k).copied().unwrap_or(0);
    let (c0, c1, c2) = (at(0), at(1), at(2));
    Some(match (c0, c1, c2) {
        (b'.', b'.', b'.') => (Ellipsis, 3),
        (b'-', b'>', b'*') => (ArrowStar, 3),
        (b'<', b'<', b'=') => (ShlEq, 3),
        (b'>', b'>', b'=') => (ShrEq, 3),
        (b':', b':', _) => (ColonColon, 2),
        (b'.', b'*', _) => (DotStar, 2),
        (b'-', b'>', _) => (Arrow, 2),
        (b'+', b'=', _) => (PlusEq, 2),
        (b'-', b'=', _) => (MinusEq, 2),
        (b'*', b'=', _) => (StarEq, 2),
        (b'/', b'=', _) => (SlashEq, 2),
        (b'%', b'=', _) => (PercentEq, 2),
        (b'^', b'=', _) => (CaretEq, 2),
        (b'&', b'=', _) => (AmpEq, 2),
        (b'|', b'=', _) => (PipeEq, 2),
        (b'<', b'<', _) => (Shl, 2),
        (b'>', b'>', _) => (Shr, 2),
        (b'=', b'=', _) => (EqEq, 2),
        (b'!', b'=', _) => (Ne, 2),
        (b'<', b'=', _) => (Le, 2),
        (b'>', b'=', _) => (Ge, 2),
        (b'&', b'&', _) => (AmpAmp, 2),
        (b'|', b'|', _) => (PipePipe, 2),
        (b'+', b'+', _) => (PlusPlus, 2),
        (b'-', b'-', _) => (MinusMinus, 2),
        (b'#', b'#', _) => (HashHash, 2),
        (b'{', ..) => (LBrace, 1),
        (b'}', ..) => (RBrace, 1),
        (b'[', ..) => (LBracket, 1),
        (b']', ..) => (RBracket, 1),
        (b'(', ..) => (LParen, 1),
        (b')', ..) => (RParen, 1),
        (b';', ..) => (Semi, 1),
        (b':', ..) => (Colon, 1),
        (b',', ..) => (Comma, 1),
        (b'.', ..) => (Dot, 1),
        (b'+', ..) => (Plus, 1),
        (b'-', ..) => (Minus, 1),
        (b'*', ..) => (Star, 1),
        (b'/', ..) => (Slash, 1),
        (b'%', ..) => (Percent, 1),
        (b'^', ..) => (Caret, 1),
        (b'&', ..) => (Amp, 1),
        (b'|', ..) => (Pipe, 1),
        (b'~', ..) => (Tilde, 1),
        (b'!', ..) => (Bang, 1),
        (b'=', ..) => (Eq, 1),
        (b'<', ..) => (Lt, 1),
        (b'>', ..) => (Gt, 1),
        (b'?', ..) => (Question, 1),
        (b'#', ..) => (Hash, 1),
        _ => return None,
    })
}

/// Lexes one token from `text` (for `##` pastes): `Some(kind)` if the whole text is one
/// token.
pub fn lex_single(text: &str) -> Option<TokenKind> {
    let mut errs = Vec::new();
    let toks = lex(text, &mut errs);
    match toks.as_slice() {
        [t, eof] if eof.kind == TokenKind::Eof && errs.is_empty() && t.lo == 0 && t.hi as usize == text.len() => Some(t.kind),
        _ => None,
    }
}

/// The operator that a C++ alternative token spells (`and` is `&&`).
fn alternative_token(word: &str) -> Option<Punct> {
    use Punct::*;
    Some(match word {
        "and" => AmpAmp,
        "or" => PipePipe,
        "not" => Bang,
        "not_eq" => Ne,
        "bitand" => Amp,
        "bitor" => Pipe,
        "xor" => Caret,
        "compl" => Tilde,
        "and_eq" => AmpEq,
        "or_eq" => PipeEq,
        "xor_eq" => CaretEq,
        _ => return None,
    })
}
