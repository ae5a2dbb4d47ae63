//! The parser: preprocessed tokens to the syntax tree ([`crate::ast`]), by recursive
//! descent with error recovery (an error skips to the next `;` or `}` and parsing goes on).
//!
//! C++ needs to know which names are types to parse `a * b;` or `f(x)(y)`: the parser keeps
//! a stack of scopes with the type and template names declared so far (typedefs, classes,
//! template parameters, `using` aliases) plus CUDA's builtin type names (`float4`, `dim3`,
//! `half`, ...).
//!
//! Host code is read, not compiled, and never stops the compiler (nvcc parses it with the
//! host's headers, which cuprite does not have):
//! - The body of a function that is not `__device__` or `__global__` is parsed (sema reads
//!   it for the kernels it launches or names), but its errors are demoted to
//!   [`Severity::Host`](crate::diag::Severity::Host) diagnostics (shown by `-Whost-code`),
//!   and it ends where its braces balance whatever the parser made of it.
//! - A namespace-scope declaration that names no CUDA space (`__device__`, `__global__`,
//!   `__shared__`, `__constant__`, `__managed__`) and fails to parse is dropped with its
//!   errors demoted the same way (`Parser::parse_decl_tolerant`): device code that uses it
//!   then gets an error of its own.
//!
//! Nesting is limited to [`MAX_NESTING`] levels (parentheses, blocks, declarators), with a
//! diagnostic, so that no input overflows the stack.

mod decl;
mod expr;
mod stmt;
pub mod tokens;

use crate::ast::*;
use crate::diag::Diagnostic;
use crate::intern::{Atom, Interner};
use crate::lexer::{Punct, TokenKind};
use crate::pp::Token;
use crate::source::Span;
use rustc_hash::FxHashSet;
use tokens::{Prelude, Tokens};

/// Nesting limit of expressions, statements and declarators.
pub const MAX_NESTING: usize = 256;

/// CUDA's and the C library's type names that device code uses without declaring them.
const BUILTIN_TYPE_NAMES: &[&str] = &[
    "size_t",
    "ptrdiff_t",
    "dim3",
    "half",
    "half2",
    "__half",
    "__half2",
    "__nv_bfloat16",
    "__nv_bfloat162",
    "nv_bfloat16",
    "cudaError_t",
    "cudaStream_t",
    "int8_t",
    "int16_t",
    "int32_t",
    "int64_t",
    "uint8_t",
    "uint16_t",
    "uint32_t",
    "uint64_t",
    "intptr_t",
    "uintptr_t",
];
const VECTOR_BASES: &[&str] =
    &["char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "longlong", "ulonglong", "float", "double"];

/// Tokens the parser can look ahead without pulling more from the preprocessor (the
/// longest lookahead, deciding whether a `for` is range-based, scans 4096).
pub const LOOKAHEAD: usize = 4224;
/// Tokens kept behind the current one when the window is compacted (for the previous
/// token's span and the macro lookback of parse errors).
pub const KEEP_BEHIND: usize = 8;

/// The token window's first capacity for a source of `bytes` bytes.
fn window_capacity(bytes: usize) -> usize {
    (19 * LOOKAHEAD + KEEP_BEHIND).min(bytes / 2 + 64)
}

/// Parses a translation unit, pulling tokens from `src` as it goes: the preprocessed token
/// stream is never stored whole, only a window from the last top-level declaration to at
/// least [`LOOKAHEAD`] tokens ahead of the parser.
/// `prelude` must have been interned before the preprocessor started, and `bytes` is the
/// size of the input (to size the tree's arenas).
/// The nodes go to `ast` (which other threads may read meanwhile); each top-level
/// construct's declarations are appended to [`Ast::top`].
/// Returns the parser's diagnostics; the token source comes back (for
/// [`crate::pp::Preprocessor::finish`], or the interner mirror).
pub fn parse<'i>(src: Tokens<'i>, prelude: Prelude, bytes: usize, ast: &'i Ast) -> (Vec<Diagnostic>, Tokens<'i>) {
    let mut p = Parser::new(src, prelude, bytes, ast.writer());
    p.run(&mut None);
    (p.diags, p.src)
}

/// [`parse`] up to the `Eof` of a preprocessor that stops after the implicit headers
/// ([`crate::pp::Preprocessor::new_preamble`]): the parser's state there, and the token
/// source.
pub fn parse_preamble<'i>(src: Tokens<'i>, prelude: Prelude, bytes: usize, ast: &'i Ast) -> (ParserState, Tokens<'i>) {
    let mut p = Parser::new(src, prelude, bytes, ast.writer());
    p.run(&mut None);
    // The window keeps what a resumed parser can still look back at, not every token read:
    // each compile copies it.
    let behind = (p.pos - p.base).saturating_sub(KEEP_BEHIND);
    if p.depth == 0 && behind > 0 {
        p.toks.drain(..behind);
        p.base += behind;
    }
    p.toks.shrink_to_fit();
    let (state, (src, _, _)) = p.suspend();
    (state, src)
}

/// [`parse`] going on from [`parse_preamble`]'s state (in a tree grown on its tree),
/// reading the resumed preprocessor `src`. After each top-level construct `on_top` (if
/// any) is called with the token source (whose preprocessor has read every file the
/// construct came from); parsing stops early if it returns `false` (no one wants the rest).
pub fn parse_resumed<'i>(
    src: Tokens<'i>,
    state: ParserState,
    bytes: usize,
    ast: &'i Ast,
    mut on_top: Option<&mut dyn FnMut(&Tokens<'i>) -> bool>,
    known: Option<&'i mut dyn FnMut(u128, u128) -> bool>,
) -> (Vec<Diagnostic>, Tokens<'i>) {
    let mut p = Parser::from_state(src, ast.writer(), known, state);
    // Room for the window over the main file (`bytes` long) at once, as `Parser::new`
    // makes it, rather than growing it copy by copy.
    p.toks.reserve(window_capacity(bytes));
    // The preamble's `Eof` was the last token read: the main file's tokens come next.
    if p.toks.last().is_some_and(|t| t.kind == TokenKind::Eof) && p.pos - p.base + 1 == p.toks.len() {
        p.toks.pop();
    }
    p.done = false;
    p.refill();
    p.run(&mut on_top);
    (p.diags, p.src)
}

impl<'i> Parser<'i> {
    /// Parses top-level constructs up to `Eof`, appending them to the tree's top level.
    fn run(&mut self, on_top: &mut Option<&mut dyn FnMut(&Tokens<'i>) -> bool>) {
        let p = self;
        let mut top = Vec::new();
        while !p.at_eof() {
            p.compact();
            let before = p.pos;
            p.body_start = None;
            p.skipped = None;
            p.construct_start = before;
            p.parse_decl_tolerant(&mut top);
            if p.pos == before {
                // No progress: skip a token so that parsing always ends.
                let t = p.bump();
                p.error(t.span, format!("expected a declaration, found {}", p.describe(&t)));
            }
            if !top.is_empty() {
                // Keys only for a caller that keeps track of kernel bodies (the one that
                // gives `known`): hashing every construct is a cost a batch compile
                // does not need.
                let key = if p.known.is_some() { p.top_key(before) } else { crate::ast::TopKey::default() };
                let shared = top.len() > 1;
                for d in top.drain(..) {
                    p.ast.add_top(d, crate::ast::TopKey { shared, ..key });
                }
                if let Some(f) = on_top.as_mut() {
                    if !f(&p.src) {
                        break;
                    }
                }
            }
        }
    }
}

suspendable! {
pub(crate) struct Parser<'i> {
    refs {
        /// Where the tokens come from (and the interner and expansion records they refer to).
        pub(crate) src: Tokens<'i>,
        pub(crate) ast: AstWriter<'i>,
        /// Whether a kernel body, by its construct's tokens' key before the body and the
        /// body's ([`crate::ast::TopKey`]), is one sema knows the result of (then it is not
        /// parsed, see [`crate::sema::bodies`]). Without it, constructs get no keys.
        pub(crate) known: Option<&'i mut dyn FnMut(u128, u128) -> bool>,
    }
    /// The window of tokens: `toks[0]` is token number `base` of the stream. Closing a
    /// template argument list splits `>>` in place.
    toks: Vec<Token>,
    base: usize,
    /// The current token's number in the stream (absolute, so that saved positions survive
    /// [`Parser::compact`]).
    pos: usize,
    /// The preprocessor has given its `Eof` (the last token of the window).
    done: bool,
    diags: Vec<Diagnostic>,
    /// Type names per scope (innermost last).
    type_scopes: ScopedNames,
    /// Template names per scope.
    template_scopes: ScopedNames,
    /// Parameters named as a type in scope (`flag_type *dir` beside an `enum dir`): within
    /// the function the name is the parameter's.
    shadow_scopes: ScopedNames,
    /// Every template name declared so far, in any scope: member templates are named after
    /// `.` and `->` outside their class (`x.f<2>(y)`).
    any_template: FxHashSet<Atom>,
    /// The next declarator follows a complete type (a parameter's `T x`): an identifier is
    /// its name even where it also names a type.
    pub(crate) name_follows_type: bool,
    depth: usize,
    /// Where the first function body of the top-level construct being parsed begins (its
    /// `{`'s stream position), for the construct's [`crate::ast::TopKey`].
    pub(crate) body_start: Option<usize>,
    /// Where the top-level construct being parsed begins (its first token's position).
    construct_start: usize,
    /// The key of the construct whose body was skipped, from its start to the end of the
    /// body, when computed to skip it (its start, end, and the key's two halves).
    skipped: Option<(usize, usize, u128, u128)>,
    /// Inside a namespace's or an `extern "C"` block's braces (their declarations are
    /// not top-level constructs of their own).
    pub(crate) in_block: u32,
    pending_unroll: Option<Unroll>,
    /// The type of the conversion function whose name was just parsed (`operator float`).
    conversion_type: Option<TypeId>,
    kw: Keywords,
    /// How many CUDA space attributes (`__device__`, `__global__`, `__shared__`,
    /// `__constant__`, `__managed__`) have been read: a declaration during which it did not
    /// grow is host code ([`Parser::parse_decl_tolerant`]).
    device_marks: u32,
}
/// The parser's state at the end of the implicit headers ([`parse_preamble`]).
pub struct ParserState;
}

/// Names declared per scope (innermost last; the outermost is never popped), with the
/// number of open scopes declaring each atom, so that "declared in any enclosing scope" --
/// asked for nearly every identifier -- is an array load, not a lookup per scope.
#[derive(Clone)]
struct ScopedNames {
    scopes: Vec<FxHashSet<Atom>>,
    /// By atom number; local atoms (names the parser made) by their index in the local tier.
    count: Vec<u32>,
    count_local: Vec<u32>,
}

impl ScopedNames {
    fn with(outer: FxHashSet<Atom>) -> Self {
        let mut s = ScopedNames { scopes: vec![FxHashSet::default()], count: Vec::new(), count_local: Vec::new() };
        for a in outer {
            s.insert(a);
        }
        s
    }
    fn push(&mut self) {
        self.scopes.push(FxHashSet::default());
    }
    fn pop(&mut self) {
        if self.scopes.len() > 1 {
            for a in self.scopes.pop().expect("scope") {
                let (count, i) = self.slot(a);
                count[i] -= 1;
            }
        }
    }
    fn slot(&mut self, a: Atom) -> (&mut Vec<u32>, usize) {
        let i = (a.0 & !Atom::LOCAL) as usize;
        (if a.is_local() { &mut self.count_local } else { &mut self.count }, i)
    }
    fn insert(&mut self, a: Atom) {
        if self.scopes.last_mut().expect("scope").insert(a) {
            let (count, i) = self.slot(a);
            if count.len() <= i {
                count.resize(i + 1, 0);
            }
            count[i] += 1;
        }
    }
    #[inline]
    fn contains(&self, a: Atom) -> bool {
        let count = if a.is_local() { &self.count_local } else { &self.count };
        count.get((a.0 & !Atom::LOCAL) as usize).is_some_and(|&n| n > 0)
    }
}

/// The keywords and attribute names the parser tests, by atom: a table indexed by the
/// atom's number (atoms interned after the parser started are never keywords), so that the
/// test the parser makes several times per token is an array load, not a hash lookup.
#[derive(Clone)]
pub(crate) struct Keywords {
    table: Vec<Option<Kw>>,
}

/// Keywords (and the attribute-like words the CUDA headers expand to).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Kw {
    Void,
    Bool,
    Char,
    Short,
    Int,
    Long,
    Float,
    /// `_Float16` (cuda_fp16.h's `__half`).
    Float16,
    Double,
    Signed,
    Unsigned,
    Int128,
    Auto,
    Const,
    Volatile,
    Restrict,
    Static,
    Extern,
    Inline,
    Constexpr,
    Typedef,
    Register,
    Virtual,
    Explicit,
    Friend,
    Mutable,
    Thread,
    Struct,
    Class,
    Union,
    Enum,
    Typename,
    Template,
    Namespace,
    Using,
    Public,
    Private,
    Protected,
    Operator,
    If,
    Else,
    For,
    While,
    Do,
    Switch,
    Case,
    Default,
    Break,
    Continue,
    Return,
    Goto,
    Asm,
    Sizeof,
    Alignof,
    StaticCast,
    ReinterpretCast,
    ConstCast,
    DynamicCast,
    True,
    False,
    Nullptr,
    This,
    Decltype,
    Typeof,
    StaticAssert,
    Attribute,
    Declspec,
    New,
    Delete,
    Throw,
    Try,
    Noexcept,
    Alignas,
}

impl Keywords {
    fn new(i: &mut Interner) -> Self {
        use Kw::*;
        let list: &[(&str, Kw)] = &[
            ("void", Void),
            ("bool", Bool),
            ("char", Char),
            ("short", Short),
            ("int", Int),
            ("long", Long),
            ("float", Float),
            ("double", Double),
            ("_Float16", Float16),
            ("signed", Signed),
            ("__signed", Signed),
            ("__signed__", Signed),
            ("unsigned", Unsigned),
            ("__int128", Int128),
            ("auto", Auto),
            ("const", Const),
            ("__const", Const),
            ("volatile", Volatile),
            ("__volatile__", Volatile),
            ("__restrict", Restrict),
            ("__restrict__", Restrict),
            ("restrict", Restrict),
            ("static", Static),
            ("extern", Extern),
            ("inline", Inline),
            ("__inline", Inline),
            ("__inline__", Inline),
            ("constexpr", Constexpr),
            ("typedef", Typedef),
            ("register", Register),
            ("virtual", Virtual),
            ("explicit", Explicit),
            ("friend", Friend),
            ("mutable", Mutable),
            ("thread_local", Thread),
            ("__thread", Thread),
            ("struct", Struct),
            ("class", Class),
            ("union", Union),
            ("enum", Enum),
            ("typename", Typename),
            ("template", Template),
            ("namespace", Namespace),
            ("using", Using),
            ("public", Public),
            ("private", Private),
            ("protected", Protected),
            ("operator", Operator),
            ("if", If),
            ("else", Else),
            ("for", For),
            ("while", While),
            ("do", Do),
            ("switch", Switch),
            ("case", Case),
            ("default", Default),
            ("break", Break),
            ("continue", Continue),
            ("return", Return),
            ("goto", Goto),
            ("asm", Asm),
            ("__asm", Asm),
            ("__asm__", Asm),
            ("sizeof", Sizeof),
            ("alignof", Alignof),
            ("__alignof__", Alignof),
            ("static_cast", StaticCast),
            ("reinterpret_cast", ReinterpretCast),
            ("const_cast", ConstCast),
            ("dynamic_cast", DynamicCast),
            ("true", True),
            ("false", False),
            ("nullptr", Nullptr),
            ("NULL", Nullptr),
            ("this", This),
            ("decltype", Decltype),
            ("__decltype", Decltype),
            ("__typeof__", Typeof),
            ("__typeof", Typeof),
            ("static_assert", StaticAssert),
            ("__attribute__", Attribute),
            ("__attribute", Attribute),
            ("__declspec", Declspec),
            ("new", New),
            ("delete", Delete),
            ("throw", Throw),
            ("try", Try),
            ("noexcept", Noexcept),
            ("alignas", Alignas),
        ];
        let atoms: Vec<(Atom, Kw)> = list.iter().map(|&(s, k)| (i.intern(s), k)).collect();
        let mut table = vec![None; atoms.iter().map(|(a, _)| a.0 as usize + 1).max().unwrap_or(0)];
        for (a, k) in atoms {
            table[a.0 as usize] = Some(k);
        }
        Keywords { table }
    }

    #[inline]
    fn get(&self, a: Atom) -> Option<Kw> {
        self.table.get(a.0 as usize).copied().flatten()
    }
}

impl<'i> Parser<'i> {
    fn new(src: Tokens<'i>, prelude: Prelude, bytes: usize, ast: AstWriter<'i>) -> Self {
        let Prelude { kw, types } = prelude;
        let mut p = Parser {
            ast,
            src,
            known: None,
            toks: Vec::with_capacity(window_capacity(bytes)),
            base: 0,
            pos: 0,
            done: false,
            diags: Vec::new(),
            type_scopes: ScopedNames::with(types),
            template_scopes: ScopedNames::with(FxHashSet::default()),
            shadow_scopes: ScopedNames::with(FxHashSet::default()),
            name_follows_type: false,
            any_template: FxHashSet::default(),
            depth: 0,
            body_start: None,
            construct_start: 0,
            skipped: None,
            in_block: 0,
            device_marks: 0,
            pending_unroll: None,
            conversion_type: None,
            kw,
        };
        p.refill();
        p
    }

    // ----- tokens ----------------------------------------------------------------------

    /// Pulls tokens until twice [`LOOKAHEAD`] are buffered past the current one (or the
    /// stream has ended).
    #[cold]
    fn refill(&mut self) {
        let want = (self.pos - self.base) + 2 * LOOKAHEAD;
        while !self.done && self.toks.len() <= want {
            self.done = self.src.pull(&mut self.toks);
        }
    }

    /// Drops the tokens parsed so far from the window, but for [`KEEP_BEHIND`]. Only done at
    /// nesting depth 0 (between declarations outside any function): the parser goes back
    /// to a saved position only inside an expression or declarator, under [`Parser::enter`].
    pub(crate) fn compact(&mut self) {
        let rel = self.pos - self.base;
        // Rarely enough that moving the lookahead down costs little per token parsed.
        if self.depth == 0 && rel > KEEP_BEHIND + 16 * LOOKAHEAD {
            let n = rel - KEEP_BEHIND;
            self.toks.drain(..n);
            self.base += n;
        }
    }

    /// The key of the tokens from stream position `from` to the current one (a top-level
    /// construct's: no compaction happened meanwhile, so they are all in the window).
    fn top_key(&self, from: usize) -> crate::ast::TopKey {
        if from < self.base {
            // A construct so large (a namespace of over 60,000 tokens) that its first
            // tokens left the window: a key no other construct has.
            static UNIQUE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
            let n = UNIQUE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            return crate::ast::TopKey { head: u128::MAX - u128::from(n), body: 0, shared: false };
        }
        let to = self.pos.min(self.base + self.toks.len());
        if let Some((f, t, head, body)) = self.skipped {
            if (f, t) == (from, to) {
                return crate::ast::TopKey { head, body, shared: false };
            }
        }
        let split = self.body_start.filter(|&b| b >= from && b < to).unwrap_or(to);
        let (head, body) = self.key_of(from, split, to);
        crate::ast::TopKey { head, body, shared: false }
    }

    /// The hashes of the tokens from `from` to `split` and from `split` to `to` (0 if
    /// none), all in the window: their kinds, spellings, and places relative to the first
    /// where they are spelled between the first and the last.
    fn key_of(&self, from: usize, split: usize, to: usize) -> (u128, u128) {
        use crate::lexer::TokenKind;
        let first = self.toks.get(from - self.base).map(|t| t.span);
        let last = to.checked_sub(1).filter(|&l| l >= from).and_then(|l| self.toks.get(l - self.base)).map(|t| t.span);
        let interner = self.src.interner();
        let hash = |range: std::ops::Range<usize>| -> u128 {
            use std::hash::Hasher;
            let mut h = cuprite_ir::fingerprint::H2::new();
            for t in &self.toks[range.start - self.base..range.end - self.base] {
                let kind: u8 = match t.kind {
                    TokenKind::Ident => 0,
                    TokenKind::Number => 1,
                    TokenKind::Char => 2,
                    TokenKind::Str => 3,
                    TokenKind::Punct(_) => 4,
                    TokenKind::PragmaUnroll => 5,
                    TokenKind::Unknown => 6,
                    TokenKind::Eof => 7,
                };
                // Two words per token and its spelling's (the hash is of many small
                // tokens: fewer writes are most of its cost).
                let place = match (first, last) {
                    // Spelled in the construct: where, from its start.
                    (Some(f), Some(l)) if f.file == t.span.file && t.span.lo >= f.lo && t.span.hi <= l.hi => {
                        u64::from(t.span.lo - f.lo) | u64::from(t.span.hi - f.lo) << 32
                    }
                    // Made by a macro defined elsewhere, or by the preprocessor: what it
                    // spells is what counts.
                    _ => u64::MAX,
                };
                let text = interner.str(t.text).as_bytes();
                h.write_u64(u64::from(kind) | (text.len() as u64) << 8);
                h.write_u64(place);
                for c in text.chunks(8) {
                    let mut w = [0u8; 8];
                    w[..c.len()].copy_from_slice(c);
                    h.write_u64(u64::from_le_bytes(w));
                }
            }
            h.finish128()
        };
        (hash(from..split), if split < to { hash(split..to) } else { 0 })
    }

    /// Where the bracket `open` that is `k` tokens ahead closes (`close`, nested ones
    /// counted): how far ahead, if before `limit` tokens and the end.
    pub(crate) fn matching(&self, mut k: usize, open: Punct, close: Punct, limit: usize) -> Option<usize> {
        let mut depth = 0usize;
        while k < limit {
            match self.peek_at(k).kind {
                TokenKind::Punct(p) if p == open => depth += 1,
                TokenKind::Punct(p) if p == close => {
                    // (A close before any open: no bracket was open.)
                    depth = depth.checked_sub(1)?;
                    if depth == 0 {
                        return Some(k);
                    }
                }
                TokenKind::Eof => return None,
                _ => {}
            }
            k += 1;
        }
        None
    }

    /// At a top-level function's body (its `{`): if sema knows what the body gives (see
    /// `known`), skips it and gives a [`crate::ast::StmtKind::Known`] statement for it.
    pub(crate) fn skip_known_body(&mut self) -> Option<StmtId> {
        if self.known.is_none() || self.in_block > 0 || self.construct_start < self.base || !self.at(Punct::LBrace) {
            return None;
        }
        // The matching `}` within the lookahead.
        let k = self.matching(0, Punct::LBrace, Punct::RBrace, LOOKAHEAD + 1)?;
        let end = self.pos + k + 1;
        if end > self.base + self.toks.len() {
            return None;
        }
        let (head, body) = self.key_of(self.construct_start, self.pos, end);
        let known = self.known.as_mut()?;
        if !known(head, body) {
            return None;
        }
        let lo = self.peek().span;
        let mut hi = lo;
        for _ in 0..=k {
            hi = self.bump().span;
        }
        // The construct's key, if it ends here (a function definition does).
        self.skipped = Some((self.construct_start, end, head, body));
        Some(self.ast.add_stmt(crate::ast::StmtKind::Known, lo.to(hi)))
    }

    /// The token at stream position `at` (which must still be in the window).
    pub(crate) fn tok_at(&self, at: usize) -> Token {
        debug_assert!(at >= self.base, "token {at} was dropped from the window (base {})", self.base);
        self.toks[(at.max(self.base) - self.base).min(self.toks.len() - 1)]
    }
    pub(crate) fn peek(&self) -> Token {
        self.peek_at(0)
    }
    /// The token `k` ahead; past [`LOOKAHEAD`] it may be clamped to the last buffered one.
    pub(crate) fn peek_at(&self, k: usize) -> Token {
        debug_assert!(k <= LOOKAHEAD, "lookahead of {k} tokens");
        self.tok_at(self.pos + k)
    }
    pub(crate) fn bump(&mut self) -> Token {
        let t = self.peek();
        let rel = self.pos - self.base;
        if rel + 1 < self.toks.len() {
            self.pos += 1;
            if !self.done && self.toks.len() - (rel + 1) <= LOOKAHEAD {
                self.refill();
            }
        }
        t
    }
    pub(crate) fn prev_span(&self) -> Span {
        self.tok_at(self.pos.saturating_sub(1)).span
    }
    pub(crate) fn at_eof(&self) -> bool {
        self.peek().kind == TokenKind::Eof
    }
    pub(crate) fn at(&self, p: Punct) -> bool {
        self.peek().kind == TokenKind::Punct(p)
    }
    pub(crate) fn eat(&mut self, p: Punct) -> bool {
        if self.at(p) {
            self.bump();
            true
        } else {
            false
        }
    }
    pub(crate) fn kw_of(&self, t: Token) -> Option<Kw> {
        if t.kind == TokenKind::Ident {
            self.kw.get(t.text)
        } else {
            None
        }
    }
    pub(crate) fn at_kw(&self, k: Kw) -> bool {
        self.kw_of(self.peek()) == Some(k)
    }
    pub(crate) fn eat_kw(&mut self, k: Kw) -> bool {
        if self.at_kw(k) {
            self.bump();
            true
        } else {
            false
        }
    }
    pub(crate) fn describe(&self, t: &Token) -> String {
        match t.kind {
            TokenKind::Eof => "end of file".into(),
            TokenKind::PragmaUnroll => "'#pragma unroll'".into(),
            _ => format!("'{}'", self.src.interner().str(t.text)),
        }
    }
    pub(crate) fn expect(&mut self, p: Punct, what: &str) -> bool {
        if self.eat(p) {
            return true;
        }
        let t = self.peek();
        let msg = format!("expected '{}' {what}, found {}", p.text(), self.describe(&t));
        self.error(t.span, msg);
        false
    }
    pub(crate) fn error(&mut self, span: Span, msg: impl Into<String>) {
        // An error at a token a macro made points at the invocation in the user's code, with
        // notes for the spelling and each enclosing expansion.
        let rel = self.pos - self.base;
        let lo = rel.saturating_sub(4);
        let hi = (rel + 2).min(self.toks.len());
        let expansion = self.toks[lo..hi].iter().find(|t| t.span == span && t.expansion != 0).map(|t| t.expansion);
        let mut d = Diagnostic::error(span, msg);
        if let Some(mut e) = expansion {
            let mut call = span;
            let mut notes = vec![(Some(span), "the token comes from here".to_string())];
            let mut n = 0;
            while e != 0 && (e as usize) < self.src.expansions().len() && n < 16 {
                let x = &self.src.expansions()[e as usize];
                call = x.call;
                notes.push((Some(x.call), format!("in expansion of macro '{}'", self.src.interner().str(x.name))));
                e = x.parent;
                n += 1;
            }
            // The outermost invocation is the primary location.
            notes.pop();
            d.span = Some(call);
            for (s, m) in notes {
                d = d.note(s, m);
            }
        }
        // One error per position: recovery can retry at the same token.
        if self.diags.last().is_some_and(|x| x.span == d.span && x.severity == crate::diag::Severity::Error) {
            return;
        }
        self.diags.push(d);
    }
    pub(crate) fn ident_text(&self, t: Token) -> &str {
        self.src.interner().str(t.text)
    }
    /// Whether `t` is an identifier that is not a keyword.
    pub(crate) fn is_plain_ident(&self, t: Token) -> bool {
        t.kind == TokenKind::Ident && self.kw_of(t).is_none()
    }

    // ----- nesting ---------------------------------------------------------------------

    /// Enters one nesting level; false (with a diagnostic) past [`MAX_NESTING`].
    pub(crate) fn enter(&mut self) -> bool {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            let sp = self.peek().span;
            self.error(sp, format!("nesting deeper than {MAX_NESTING} levels is not supported"));
            return false;
        }
        true
    }
    pub(crate) fn leave(&mut self) {
        self.depth -= 1;
    }

    // ----- scopes of type names ---------------------------------------------------------

    pub(crate) fn push_scope(&mut self) {
        self.type_scopes.push();
        self.template_scopes.push();
        self.shadow_scopes.push();
    }
    pub(crate) fn pop_scope(&mut self) {
        self.type_scopes.pop();
        self.template_scopes.pop();
        self.shadow_scopes.pop();
    }
    /// A variable or parameter `a` that hides a type of that name in this scope.
    pub(crate) fn declare_non_type(&mut self, a: Atom) {
        if self.type_scopes.contains(a) {
            self.shadow_scopes.insert(a);
        }
    }
    pub(crate) fn declare_type(&mut self, a: Atom) {
        self.type_scopes.insert(a);
    }
    /// A template name; class templates are type names too, function templates are not.
    pub(crate) fn declare_template(&mut self, a: Atom, is_type: bool) {
        self.template_scopes.insert(a);
        self.any_template.insert(a);
        if is_type {
            self.declare_type(a);
        }
    }
    pub(crate) fn is_type_name(&self, a: Atom) -> bool {
        self.type_scopes.contains(a) && !self.shadow_scopes.contains(a)
    }
    pub(crate) fn is_template_name(&self, a: Atom) -> bool {
        self.template_scopes.contains(a)
    }
    pub(crate) fn is_any_template_name(&self, a: Atom) -> bool {
        self.any_template.contains(&a)
    }

    // ----- recovery --------------------------------------------------------------------

    /// Skips to just after the next `;` at this nesting level, or to a `}` that closes it.
    pub(crate) fn recover_to_semi(&mut self) {
        let mut depth = 0usize;
        while !self.at_eof() {
            match self.peek().kind {
                TokenKind::Punct(Punct::LBrace | Punct::LParen | Punct::LBracket) => depth += 1,
                TokenKind::Punct(Punct::RBrace) if depth == 0 => return,
                TokenKind::Punct(Punct::RBrace | Punct::RParen | Punct::RBracket) => depth = depth.saturating_sub(1),
                TokenKind::Punct(Punct::Semi) if depth == 0 => {
                    self.bump();
                    return;
                }
                _ => {}
            }
            self.bump();
        }
    }

    /// Skips a balanced `{ ... }` starting at the current `{`.
    pub(crate) fn skip_braces(&mut self) {
        let mut depth = 0usize;
        while !self.at_eof() {
            match self.bump().kind {
                TokenKind::Punct(Punct::LBrace) => depth += 1,
                TokenKind::Punct(Punct::RBrace) => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return;
                    }
                }
                _ => {}
            }
        }
    }

    /// Consumes a `>` closing a template argument list, splitting `>>` (and `>=`, `>>=`).
    pub(crate) fn eat_template_close(&mut self) -> bool {
        let t = self.peek();
        let rest = match t.kind {
            TokenKind::Punct(Punct::Gt) => {
                self.bump();
                return true;
            }
            TokenKind::Punct(Punct::Shr) => Punct::Gt,
            TokenKind::Punct(Punct::Ge) => Punct::Eq,
            TokenKind::Punct(Punct::ShrEq) => Punct::Ge,
            _ => return false,
        };
        let text = self.src.interner_mut().intern_local(rest.text());
        let span = Span { lo: t.span.lo + 1, ..t.span };
        let at = self.pos - self.base;
        self.toks[at] = Token { kind: TokenKind::Punct(rest), text, span, flags: 0, ..t };
        true
    }

    /// Skips a balanced `( ... )` (or `[ ]`, `< >` is not balanced here) at the current open.
    pub(crate) fn skip_parens(&mut self) {
        let mut depth = 0usize;
        while !self.at_eof() {
            match self.bump().kind {
                TokenKind::Punct(Punct::LParen | Punct::LBracket) => depth += 1,
                TokenKind::Punct(Punct::RParen | Punct::RBracket) => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return;
                    }
                }
                _ => {}
            }
        }
    }
}
