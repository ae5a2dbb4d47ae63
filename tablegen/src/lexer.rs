//! TableGen tokens: identifiers, `$names`, integers, strings, `[{ code }]`, punctuation,
//! `!bang` operators, and the preprocessor lines (`#ifndef`/`#ifdef`/`#define`/`#else`/
//! `#endif`), which the lexer evaluates itself so the parser never sees them.

use crate::diag::{Diagnostic, FileId, Span};
use std::collections::HashSet;

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Ident(String),
    /// `$name` in a dag.
    VarName(String),
    Int(i64),
    Str(String),
    Code(String),
    /// `!name` (the name without `!`).
    Bang(String),
    Punct(char),
    Eof,
}

#[derive(Clone, Debug)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
}

/// Splits `text` into tokens. `defines` holds the preprocessor macros (shared across
/// included files, as in llvm-tblgen).
pub fn lex(file: FileId, text: &str, defines: &mut HashSet<String>) -> Result<Vec<Token>, Diagnostic> {
    let b = text.as_bytes();
    let mut i = 0usize;
    let mut out = Vec::new();
    // Preprocessor state: for each open #if, (active-before, this-branch-active, seen-else).
    let mut conds: Vec<(bool, bool, bool, Span)> = Vec::new();
    let active = |conds: &Vec<(bool, bool, bool, Span)>| conds.last().is_none_or(|c| c.0 && c.1);
    let span = |lo: usize, hi: usize| Span::new(file, lo, hi);
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'*') {
            let lo = i;
            let mut depth = 0;
            loop {
                if i + 1 >= b.len() {
                    return Err(Diagnostic::new(span(lo, lo + 2), "unterminated comment"));
                }
                if b[i] == b'/' && b[i + 1] == b'*' {
                    depth += 1;
                    i += 2;
                } else if b[i] == b'*' && b[i + 1] == b'/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            continue;
        }
        let was_line_start = line_start;
        line_start = false;
        // Preprocessor directives: `#` first on its line followed by a directive name.
        if c == b'#' && was_line_start {
            let lo = i;
            let mut j = i + 1;
            while j < b.len() && b[j].is_ascii_alphabetic() {
                j += 1;
            }
            let word = &text[i + 1..j];
            if matches!(word, "ifdef" | "ifndef" | "define" | "else" | "endif") {
                let mut k = j;
                while k < b.len() && (b[k] == b' ' || b[k] == b'\t') {
                    k += 1;
                }
                let ns = k;
                while k < b.len() && (b[k].is_ascii_alphanumeric() || b[k] == b'_') {
                    k += 1;
                }
                let name = &text[ns..k];
                let sp = span(lo, k);
                match word {
                    "ifdef" | "ifndef" | "define" if name.is_empty() => {
                        return Err(Diagnostic::new(sp, format!("#{word} needs a macro name")))
                    }
                    "ifdef" | "ifndef" => {
                        let def = defines.contains(name);
                        let outer = active(&conds);
                        conds.push((outer, if word == "ifdef" { def } else { !def }, false, sp));
                    }
                    "define" => {
                        if active(&conds) {
                            defines.insert(name.to_string());
                        }
                    }
                    "else" => match conds.last_mut() {
                        Some(c) if !c.2 => {
                            c.1 = !c.1;
                            c.2 = true;
                        }
                        Some(_) => return Err(Diagnostic::new(sp, "#else after #else")),
                        None => return Err(Diagnostic::new(sp, "#else without #ifdef or #ifndef")),
                    },
                    _ => {
                        if conds.pop().is_none() {
                            return Err(Diagnostic::new(sp, "#endif without #ifdef or #ifndef"));
                        }
                    }
                }
                i = k;
                while i < b.len() && b[i] != b'\n' {
                    if !b[i].is_ascii_whitespace() {
                        if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
                            while i < b.len() && b[i] != b'\n' {
                                i += 1;
                            }
                            break;
                        }
                        return Err(Diagnostic::new(span(i, i + 1), "unexpected text after a preprocessor directive"));
                    }
                    i += 1;
                }
                continue;
            }
        }
        if !active(&conds) {
            // Skip the rest of an inactive line (strings and code blocks included).
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        let lo = i;
        if c.is_ascii_alphabetic() || c == b'_' || (c.is_ascii_digit() && ident_with_leading_digits(b, i)) {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(Token { tok: Tok::Ident(text[lo..i].to_string()), span: span(lo, i) });
            continue;
        }
        if c == b'$' {
            i += 1;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            if i == lo + 1 {
                return Err(Diagnostic::new(span(lo, lo + 1), "expected a name after '$'"));
            }
            out.push(Token { tok: Tok::VarName(text[lo + 1..i].to_string()), span: span(lo, i) });
            continue;
        }
        if c == b'!' {
            i += 1;
            while i < b.len() && b[i].is_ascii_alphanumeric() {
                i += 1;
            }
            if i == lo + 1 {
                return Err(Diagnostic::new(span(lo, lo + 1), "expected an operator name after '!'"));
            }
            out.push(Token { tok: Tok::Bang(text[lo + 1..i].to_string()), span: span(lo, i) });
            continue;
        }
        if c.is_ascii_digit() || ((c == b'-' || c == b'+') && b.get(i + 1).is_some_and(|d| d.is_ascii_digit())) {
            let neg = c == b'-';
            if c == b'-' || c == b'+' {
                i += 1;
            }
            let (radix, start) = if b[i] == b'0' && matches!(b.get(i + 1), Some(b'x') | Some(b'X')) {
                (16, i + 2)
            } else if b[i] == b'0' && matches!(b.get(i + 1), Some(b'b')) {
                (2, i + 2)
            } else {
                (10, i)
            };
            i = start;
            while i < b.len() && b[i].is_ascii_alphanumeric() {
                i += 1;
            }
            let digits = &text[start..i];
            let v = u64::from_str_radix(digits, radix)
                .map_err(|_| Diagnostic::new(span(lo, i), format!("invalid integer literal '{}'", &text[lo..i])))?;
            let v = if neg { (v as i64).wrapping_neg() } else { v as i64 };
            out.push(Token { tok: Tok::Int(v), span: span(lo, i) });
            continue;
        }
        if c == b'"' {
            i += 1;
            let mut s = String::new();
            loop {
                match b.get(i) {
                    None | Some(b'\n') => return Err(Diagnostic::new(span(lo, i), "unterminated string literal")),
                    Some(b'"') => {
                        i += 1;
                        break;
                    }
                    Some(b'\\') => {
                        let e = b.get(i + 1).copied();
                        s.push(match e {
                            Some(b'n') => '\n',
                            Some(b't') => '\t',
                            Some(b'\\') => '\\',
                            Some(b'"') => '"',
                            Some(b'\'') => '\'',
                            _ => return Err(Diagnostic::new(span(i, i + 2), "invalid escape in string literal")),
                        });
                        i += 2;
                    }
                    Some(_) => {
                        let ch = text[i..].chars().next().unwrap_or('?');
                        s.push(ch);
                        i += ch.len_utf8();
                    }
                }
            }
            out.push(Token { tok: Tok::Str(s), span: span(lo, i) });
            continue;
        }
        if c == b'[' && b.get(i + 1) == Some(&b'{') {
            let Some(end) = text[i + 2..].find("}]") else {
                return Err(Diagnostic::new(span(lo, lo + 2), "unterminated code block '[{'"));
            };
            let body = &text[i + 2..i + 2 + end];
            i = i + 2 + end + 2;
            out.push(Token { tok: Tok::Code(body.to_string()), span: span(lo, i) });
            continue;
        }
        if b"<>{}[]()=,;:.#?-+".contains(&c) {
            i += 1;
            out.push(Token { tok: Tok::Punct(c as char), span: span(lo, i) });
            continue;
        }
        let ch = text[i..].chars().next().unwrap_or('?');
        return Err(Diagnostic::new(span(lo, lo + ch.len_utf8()), format!("unexpected character '{}'", ch.escape_default())));
    }
    if let Some(c) = conds.last() {
        return Err(Diagnostic::new(c.3, "this #ifdef/#ifndef has no matching #endif"));
    }
    out.push(Token { tok: Tok::Eof, span: span(b.len(), b.len()) });
    Ok(out)
}

/// TableGen lets identifiers start with digits (`1st`): a digit run followed by a letter or `_`
/// that is not a `0x`/`0b` prefix.
fn ident_with_leading_digits(b: &[u8], mut i: usize) -> bool {
    if b[i] == b'0' && matches!(b.get(i + 1), Some(b'x') | Some(b'X') | Some(b'b')) {
        return false;
    }
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    i < b.len() && (b[i].is_ascii_alphabetic() || b[i] == b'_')
}
