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
/// pulls tokens from the preprocessor, so the token stream is never stored whole. On a
/// main file of [`PIPELINE_MIN_BYTES`] or more (and a machine with two cores), the
/// preprocessor runs on a thread of its own ([`parse::tokens`]). The diagnostics are the
/// preprocessor's, then the parser's.
pub fn parse_source(name: &str, path: Option<&std::path::Path>, text: &str, config: pp::PpConfig) -> Parsed {
    let two = text.len() >= PIPELINE_MIN_BYTES && std::thread::available_parallelism().is_ok_and(|n| n.get() > 1);
    parse_source_on(name, path, text, config, if two { Threads::Two } else { Threads::One })
}

/// Main files from this size on are preprocessed on a thread of their own (below it, the
/// thread costs more than it saves).
pub const PIPELINE_MIN_BYTES: usize = 64 << 10;

/// How many threads [`parse_source_on`] uses.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Threads {
    /// The parser runs the preprocessor as it needs tokens.
    One,
    /// The preprocessor runs on a thread of its own (the result is the same).
    Two,
}

/// [`parse_source`] on the given number of threads.
pub fn parse_source_on(name: &str, path: Option<&std::path::Path>, text: &str, config: pp::PpConfig, threads: Threads) -> Parsed {
    let mut sm = SourceMap::default();
    let mut interner = intern::Interner::default();
    let main = sm.add(name, path, text, source::FileKind::User);
    let prelude = parse::tokens::Prelude::new(&mut interner);
    let (ast, parse_diags, (mut diags, expansions)) = match threads {
        Threads::One => parse_direct(&mut sm, &mut interner, main, config, prelude, text.len()),
        Threads::Two => match parse_piped(&mut sm, &mut interner, main, config.clone(), prelude, text.len()) {
            Ok(r) => r,
            // No thread to be had: the same on this one.
            Err(prelude) => parse_direct(&mut sm, &mut interner, main, config, *prelude, text.len()),
        },
    };
    diags.extend(parse_diags);
    Parsed { sm, interner, ast, diags, expansions }
}

/// Stack of the preprocessor's thread: as much as the driver's main thread has, where the
/// preprocessor runs otherwise (macro arguments are expanded recursively, up to a limit).
const PP_STACK: usize = 16 << 20;

type ParseOutput = (ast::Ast, Vec<Diagnostic>, (Vec<Diagnostic>, Vec<pp::Expansion>));

/// Preprocesses as the parser asks for tokens, on this thread.
fn parse_direct(
    sm: &mut SourceMap,
    interner: &mut intern::Interner,
    main: FileId,
    config: pp::PpConfig,
    prelude: parse::tokens::Prelude,
    bytes: usize,
) -> ParseOutput {
    let pp = pp::Preprocessor::new(sm, interner, main, config);
    let (ast, parse_diags, src) = parse::parse(parse::tokens::Tokens::Direct(pp), prelude, bytes);
    let parse::tokens::Tokens::Direct(pp) = src else { unreachable!("the source stays direct") };
    (ast, parse_diags, pp.finish())
}

/// Preprocesses on a thread of its own while this one parses; gives the prelude back if the
/// thread cannot be started.
fn parse_piped(
    sm: &mut SourceMap,
    interner: &mut intern::Interner,
    main: FileId,
    config: pp::PpConfig,
    prelude: parse::tokens::Prelude,
    bytes: usize,
) -> Result<ParseOutput, Box<parse::tokens::Prelude>> {
    let mirror = interner.clone();
    let sent = mirror.len();
    let (tx, rx) = std::sync::mpsc::sync_channel(parse::tokens::CHANNEL_CHUNKS);
    let out = std::thread::scope(|s| {
        let (sm, interner) = (&mut *sm, &mut *interner);
        let feeder = std::thread::Builder::new()
            .name("cuprite-pp".into())
            .stack_size(PP_STACK)
            .spawn_scoped(s, move || parse::tokens::feed(pp::Preprocessor::new(sm, interner, main, config), tx, sent));
        let Ok(feeder) = feeder else { return Err(Box::new(prelude)) };
        let src = parse::tokens::Tokens::Piped(parse::tokens::Piped::new(rx, mirror));
        let (ast, parse_diags, src) = parse::parse(src, prelude, bytes);
        let parse::tokens::Tokens::Piped(p) = src else { unreachable!("the source stays piped") };
        let mirror = p.into_interner();
        let pp_out = feeder.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
        Ok((ast, parse_diags, mirror, pp_out))
    })?;
    let (ast, parse_diags, mirror, pp_out) = out;
    interner.adopt_locals(&mirror);
    Ok((ast, parse_diags, pp_out))
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
