//! cuprite's frontend: CUDA C++ device code to the `cuda` dialect.
//!
//! Stages, each producing values with byte spans so that every error becomes an ariadne
//! diagnostic (DESIGN.md invariant 2: parsing never fails, it returns diagnostics):
//! 1. [`lexer`]: a file's text to preprocessing tokens.
//! 2. [`pp`]: the preprocessor (macros, includes with cuprite's built-in headers,
//!    conditionals, `#pragma unroll`), to a token stream whose tokens remember the macro
//!    expansions that made them.
//! 3. [`parse`]: recursive descent to the syntax tree ([`ast`]), host bodies skipped.
//! 4. [`sema`]: semantic analysis, emitting the `cuda` dialect as it checks.

pub mod ast;
pub mod diag;
pub mod dump;
pub mod intern;
pub mod lexer;
pub mod libm;
pub mod parse;
pub mod pp;
pub mod sema;
pub mod source;

pub use diag::{Diagnostic, Severity};
pub use source::{FileId, SourceMap, Span};

/// Preprocesses and parses `text` (named `name`) with `config`, in one pass: the parser
/// pulls tokens from the preprocessor, so the token stream is never stored whole. The
/// diagnostics are the preprocessor's, then the parser's.
pub fn parse_source(name: &str, path: Option<&std::path::Path>, text: &str, config: pp::PpConfig) -> Parsed {
    let mut sm = SourceMap::default();
    let mut interner = intern::Interner::default();
    let main = sm.add(name, path, text, source::FileKind::User);
    let pp = pp::Preprocessor::new(&mut sm, &mut interner, main, config);
    let (ast, parse_diags, pp) = parse::parse(pp);
    let (mut diags, expansions) = pp.finish();
    diags.extend(parse_diags);
    Parsed { sm, interner, ast, diags, expansions }
}

/// The result of [`parse_source`].
pub struct Parsed {
    pub sm: SourceMap,
    pub interner: intern::Interner,
    pub ast: ast::Ast,
    pub diags: Vec<Diagnostic>,
    pub expansions: Vec<pp::Expansion>,
}

/// Preprocesses `text` (named `name`) with `config`: the tokens (ending with `Eof`), the
/// diagnostics, and the interner and source map they refer to.
pub fn preprocess(name: &str, path: Option<&std::path::Path>, text: &str, config: pp::PpConfig) -> Preprocessed {
    let mut sm = SourceMap::default();
    let mut interner = intern::Interner::default();
    let main = sm.add(name, path, text, source::FileKind::User);
    let (tokens, diags, expansions) = pp::Preprocessor::new(&mut sm, &mut interner, main, config).run();
    Preprocessed { sm, interner, tokens, diags, expansions }
}

/// The result of [`preprocess`].
pub struct Preprocessed {
    pub sm: SourceMap,
    pub interner: intern::Interner,
    pub tokens: Vec<pp::Token>,
    pub diags: Vec<Diagnostic>,
    pub expansions: Vec<pp::Expansion>,
}
