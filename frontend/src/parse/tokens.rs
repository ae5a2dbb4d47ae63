//! Where the parser's tokens come from: the preprocessor on the same thread
//! ([`Tokens::Direct`]), or the preprocessor on a thread of its own sending chunks of tokens
//! ([`Tokens::Piped`], fed by [`feed`]).
//!
//! # The pipeline
//!
//! On a large file the preprocessor and the parser each take about half of the time, so
//! `crate::parse_source` runs them on two threads. The preprocessor sends [`Chunk`]s of
//! [`CHUNK`] tokens through a bounded channel; each chunk carries what the parser needs to
//! read its tokens and that the preprocessor made since the last chunk: the new spellings
//! (the parser keeps a mirror of the interner, see [`crate::intern`]) and the new macro
//! expansion records (for "in expansion of macro" notes). The parser never writes anything
//! the preprocessor reads, so nothing is shared but the channel.
//!
//! Both ways give the same syntax tree, diagnostics and atom numbers: the parser's
//! keywords are interned before the preprocessor starts ([`Prelude`]), the preprocessor
//! numbers its spellings in the order it reads them either way, and the names the parser
//! makes go to the interner's local tier.

use super::Keywords;
use crate::diag::Diagnostic;
use crate::intern::{Atom, Interner};
use crate::lexer::{TokenKind, AT_BOL};
use crate::pp::{Expansion, Preprocessor, Token};
use crate::source::Span;
use rustc_hash::FxHashSet;
use std::sync::mpsc::{Receiver, SyncSender};
use std::sync::Arc;

/// Tokens per chunk sent from the preprocessor's thread.
pub const CHUNK: usize = 4096;
/// Chunks the channel holds before the preprocessor waits for the parser.
pub const CHANNEL_CHUNKS: usize = 32;

/// What the parser interns before the preprocessor starts (so that both ways number them
/// alike): keywords, the builtin type names, and the punctuators the parser splits `>>`
/// into.
pub struct Prelude {
    pub(super) kw: Keywords,
    pub(super) types: FxHashSet<Atom>,
}

impl Prelude {
    pub fn new(interner: &mut Interner) -> Prelude {
        let kw = Keywords::new(interner);
        let mut types = FxHashSet::default();
        for n in super::BUILTIN_TYPE_NAMES {
            types.insert(interner.intern(n));
        }
        for b in super::VECTOR_BASES {
            for k in 1..=4 {
                types.insert(interner.intern(&format!("{b}{k}")));
            }
        }
        for p in [">", "=", ">="] {
            interner.intern(p);
        }
        Prelude { kw, types }
    }
}

/// Tokens from the preprocessor's thread, with what the parser needs to read them.
pub struct Chunk {
    toks: Vec<Token>,
    /// Spellings interned since the last chunk.
    strs: Vec<Arc<str>>,
    /// Expansion records made since the last chunk.
    expansions: Vec<Expansion>,
}

/// The parser's token source.
// One per parse, read per token: boxing the preprocessor would only add an indirection.
#[allow(clippy::large_enum_variant)]
pub enum Tokens<'i> {
    /// The preprocessor, run on the parser's thread as tokens are needed.
    Direct(Preprocessor<'i>),
    /// Chunks from the preprocessor's thread.
    Piped(Piped),
}

/// The receiving end of the pipeline, with the mirrors of the interner and the expansions.
pub struct Piped {
    rx: Receiver<Chunk>,
    interner: Interner,
    expansions: Vec<Expansion>,
}

impl Piped {
    /// A source reading `rx`, whose interner is `interner` so far (a clone of the
    /// preprocessor's before it started).
    pub fn new(rx: Receiver<Chunk>, interner: Interner) -> Piped {
        Piped { rx, interner, expansions: Vec::new() }
    }
    /// The interner mirror (with the parser's local names), for
    /// [`Interner::adopt_locals`].
    pub fn into_interner(self) -> Interner {
        self.interner
    }
}

impl<'i> Tokens<'i> {
    /// Appends the next tokens to `out` (at least one); true when the last is `Eof`.
    #[inline]
    pub(super) fn pull(&mut self, out: &mut Vec<Token>) -> bool {
        match self {
            Tokens::Direct(pp) => {
                let t = pp.next_token();
                out.push(t);
                t.kind == TokenKind::Eof
            }
            Tokens::Piped(p) => match p.rx.recv() {
                Ok(c) => {
                    p.interner.extend(&c.strs);
                    p.expansions.extend(c.expansions);
                    out.extend_from_slice(&c.toks);
                    c.toks.last().is_some_and(|t| t.kind == TokenKind::Eof)
                }
                // The preprocessor's thread stopped without an `Eof` (it panicked; joining
                // it reports that).
                Err(_) => {
                    out.push(Token { kind: TokenKind::Eof, text: Atom(0), span: Span::default(), flags: AT_BOL, expansion: 0 });
                    true
                }
            },
        }
    }
    pub(super) fn interner(&self) -> &Interner {
        match self {
            Tokens::Direct(pp) => &*pp.interner,
            Tokens::Piped(p) => &p.interner,
        }
    }
    pub(super) fn interner_mut(&mut self) -> &mut Interner {
        match self {
            Tokens::Direct(pp) => &mut *pp.interner,
            Tokens::Piped(p) => &mut p.interner,
        }
    }
    pub(super) fn expansions(&self) -> &[Expansion] {
        match self {
            Tokens::Direct(pp) => &pp.expansions,
            Tokens::Piped(p) => &p.expansions,
        }
    }
}

/// Runs `pp` to the end on this thread, sending its tokens to `tx` in chunks; `sent` is the
/// number of atoms the receiver's interner has already. Returns what
/// [`Preprocessor::finish`] does. Stops early if the receiver is gone.
pub fn feed(mut pp: Preprocessor<'_>, tx: SyncSender<Chunk>, mut sent: usize) -> (Vec<Diagnostic>, Vec<Expansion>) {
    let mut sent_expansions = 0;
    loop {
        let mut toks = Vec::with_capacity(CHUNK);
        let mut end = false;
        while toks.len() < CHUNK && !end {
            let t = pp.next_token();
            toks.push(t);
            end = t.kind == TokenKind::Eof;
        }
        let strs = pp.interner.since(sent).cloned().collect();
        sent = pp.interner.len();
        let expansions = pp.expansions[sent_expansions..].to_vec();
        sent_expansions = pp.expansions.len();
        if tx.send(Chunk { toks, strs, expansions }).is_err() || end {
            break;
        }
    }
    pp.finish()
}
