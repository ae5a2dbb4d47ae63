//! cuprite's frontend: CUDA C++ device code to the `cuda` dialect.
//!
//! Stages, each producing values with byte spans so that every error becomes an ariadne
//! diagnostic (DESIGN.md invariant 2: parsing never fails, it returns diagnostics):
//! 1. [`lexer`]: a file's text to preprocessing tokens.
//! 2. [`pp`]: the preprocessor (macros, includes with cuprite's built-in headers,
//!    conditionals, `#pragma unroll`), to a token stream whose tokens remember the macro
//!    expansions that made them.
//! 3. [`parse`]: recursive descent to the syntax tree ([`ast`]); host code is read
//!    tolerantly (its errors are [`Severity::Host`] diagnostics, shown by `-Whost-code`).
//! 4. [`sema`]: semantic analysis, emitting the `cuda` dialect as it checks, one top-level
//!    declaration at a time.
//!
//! [`parse_source`] runs stages 1 to 3 (the preprocessor on a thread of its own on large
//! files); [`parse_and_lower`] runs all four, with sema alongside the parser on large files.

/// Declares a struct that borrows what it works on (the fields under `refs`) together with
/// a struct of its own state (every other field, `Clone`), and the moves between the two:
/// `suspend` keeps the state and lets go of the borrows, `from_state` takes them again.
/// This is how the frontend's stages stop after the implicit headers and go on later, from
/// a copy, with another main file ([`preamble`]).
macro_rules! suspendable {
    (
        $(#[$m:meta])* $vis:vis struct $name:ident<$lt:lifetime> {
            refs { $($(#[$rm:meta])* $rv:vis $r:ident : $rt:ty),* $(,)? }
            $($(#[$fm:meta])* $fv:vis $f:ident : $ft:ty),* $(,)?
        }
        $(#[$sm:meta])* $svis:vis struct $state:ident;
    ) => {
        $(#[$m])* $vis struct $name<$lt> { $($(#[$rm])* $rv $r: $rt,)* $($(#[$fm])* $fv $f: $ft,)* }
        $(#[$sm])*
        #[derive(Clone)]
        $svis struct $state { $($f: $ft,)* }
        impl<$lt> $name<$lt> {
            /// Its own state, and what it borrowed.
            #[allow(dead_code)]
            $svis fn suspend(self) -> ($state, ($($rt,)*)) {
                ($state { $($f: self.$f,)* }, ($(self.$r,)*))
            }
            /// Back from [`Self::suspend`]'s state, with what it borrows.
            #[allow(dead_code, clippy::too_many_arguments)]
            $svis fn from_state($($r: $rt,)* s: $state) -> Self {
                $name { $($r,)* $($f: s.$f,)* }
            }
        }
    };
}

pub mod append;
pub mod ast;
pub mod cow;
pub mod diag;
pub mod dump;
pub mod intern;
pub mod lexer;
pub mod libm;
pub mod parse;
pub mod pp;
pub mod preamble;
pub mod sema;
pub mod source;
pub mod structured;

pub use diag::{Diagnostic, Severity};
pub use source::{FileId, SourceMap, Span};

/// Preprocesses and parses `text` (named `name`) with `config`, in one pass: the parser
/// pulls tokens from the preprocessor, so the token stream is never stored whole. On a
/// main file of [`PIPELINE_MIN_BYTES`] or more (and a machine with two cores), the
/// preprocessor runs on a thread of its own ([`parse::tokens`]). The diagnostics are the
/// preprocessor's, then the parser's.
pub fn parse_source(name: &str, path: Option<&std::path::Path>, text: &str, config: pp::PpConfig<'_>) -> Parsed {
    let two = worth_a_thread(text.len());
    parse_source_on(name, path, text, config, if two { Threads::Two } else { Threads::One })
}

/// Main files from this size on are preprocessed on a thread of their own (below it, the
/// thread costs more than it saves).
pub const PIPELINE_MIN_BYTES: usize = 64 << 10;

/// Whether a main file of `bytes` gets a second thread: [`PIPELINE_MIN_BYTES`] or more, on a
/// machine with two cores.
pub fn worth_a_thread(bytes: usize) -> bool {
    bytes >= PIPELINE_MIN_BYTES && std::thread::available_parallelism().is_ok_and(|n| n.get() > 1)
}

/// How many threads [`parse_source_on`] uses.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Threads {
    /// The parser runs the preprocessor as it needs tokens.
    One,
    /// The preprocessor runs on a thread of its own (the result is the same).
    Two,
}

/// [`parse_source`] on the given number of threads.
pub fn parse_source_on(name: &str, path: Option<&std::path::Path>, text: &str, config: pp::PpConfig<'_>, threads: Threads) -> Parsed {
    let mut sm = SourceMap::default();
    let mut interner = intern::Interner::default();
    let main = sm.add(name, path, text, source::FileKind::User);
    let prelude = parse::tokens::Prelude::new(&mut interner);
    let ast = ast::Ast::default();
    let (parse_diags, (mut diags, expansions)) = match threads {
        Threads::One => parse_direct(&mut sm, &mut interner, main, config, prelude, text.len(), &ast),
        Threads::Two => match parse_piped(&mut sm, &mut interner, main, config.clone(), prelude, text.len(), &ast) {
            Ok(r) => r,
            // No thread to be had: the same on this one.
            Err(prelude) => parse_direct(&mut sm, &mut interner, main, config, *prelude, text.len(), &ast),
        },
    };
    diags.extend(parse_diags);
    Parsed { sm, interner, ast, diags, expansions }
}

/// What [`sema::lower`] gives: the `cuda` dialect module and sema's diagnostics.
pub type Lowered = (cuprite_ir::Context, cuprite_ir::OpId, Vec<Diagnostic>);

/// [`parse_source`], then [`sema::lower`] on what it parsed: the same results, by way of a
/// [`preamble::Preamble`] (the implicit headers read first, then the main file as if the
/// stages had not stopped). On a main file of [`PIPELINE_MIN_BYTES`] or more (and two
/// cores) the parser and sema overlap ([`parse_and_lower_overlapped`]).
pub fn parse_and_lower(
    name: &str,
    path: Option<&std::path::Path>,
    text: &str,
    config: pp::PpConfig<'_>,
    options: sema::SemaOptions,
) -> (Parsed, Lowered) {
    let overlap = worth_a_thread(text.len());
    preamble::Preamble::new(config.clone(), options).lower(name, path, text, config, overlap)
}

/// Stack of the parser's thread in [`parse_and_lower_overlapped`]: the parser and the
/// preprocessor recurse (both to a limit), as on the driver's main thread.
const PARSE_STACK: usize = 64 << 20;

/// [`parse_and_lower`] with the parser on a thread of its own whatever the file's size:
/// the preprocessor and the parser run on a thread of their own and sema on this one,
/// taking each top-level declaration as soon as it is parsed: sema reads the syntax tree,
/// the spellings and the line tables while the parser adds to them (they only grow, and
/// what sema reads never moves: [`append`]), and is told of the files read so far along
/// with each declaration.
///
/// Nothing sema does depends on how far ahead the parser is: a declaration is analysed
/// with what was declared before it (as C++ reads a file, see [`sema`]), and the atoms
/// sema looks up by text are found or not the same way (an atom that has only been
/// spelled further down names nothing declared yet). Both ways give the same module and
/// diagnostics (tested). (If no thread can be started, this one does it all.)
pub fn parse_and_lower_overlapped(
    name: &str,
    path: Option<&std::path::Path>,
    text: &str,
    config: pp::PpConfig<'_>,
    options: sema::SemaOptions,
) -> (Parsed, Lowered) {
    preamble::Preamble::new(config.clone(), options).lower(name, path, text, config, true)
}

/// Stack of the preprocessor's thread: as much as the driver's main thread has, where the
/// preprocessor runs otherwise (macro arguments are expanded recursively, up to a limit).
const PP_STACK: usize = 16 << 20;

/// The parser's diagnostics, and the preprocessor's diagnostics and expansion records.
type ParseOutput = (Vec<Diagnostic>, (Vec<Diagnostic>, Vec<pp::Expansion>));

/// Preprocesses as the parser asks for tokens, on this thread, into `ast`.
fn parse_direct<'i>(
    sm: &'i mut SourceMap,
    interner: &'i mut intern::Interner,
    main: FileId,
    config: pp::PpConfig<'i>,
    prelude: parse::tokens::Prelude,
    bytes: usize,
    ast: &'i ast::Ast,
) -> ParseOutput {
    let pp = pp::Preprocessor::new(sm, interner, main, config);
    let (parse_diags, src) = parse::parse(parse::tokens::Tokens::Direct(pp), prelude, bytes, ast);
    let parse::tokens::Tokens::Direct(pp) = src else { unreachable!("the source stays direct") };
    (parse_diags, pp.finish())
}

/// Preprocesses on a thread of its own while this one parses; gives the prelude back if the
/// thread cannot be started.
fn parse_piped(
    sm: &mut SourceMap,
    interner: &mut intern::Interner,
    main: FileId,
    config: pp::PpConfig<'_>,
    prelude: parse::tokens::Prelude,
    bytes: usize,
    ast: &ast::Ast,
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
        let (parse_diags, src) = parse::parse(src, prelude, bytes, ast);
        let parse::tokens::Tokens::Piped(p) = src else { unreachable!("the source stays piped") };
        let mirror = p.into_interner();
        let pp_out = feeder.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
        Ok((parse_diags, mirror, pp_out))
    })?;
    let (parse_diags, mirror, pp_out) = out;
    interner.adopt_locals(&mirror);
    Ok((parse_diags, pp_out))
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
pub fn preprocess(name: &str, path: Option<&std::path::Path>, text: &str, config: pp::PpConfig<'_>) -> Preprocessed {
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
