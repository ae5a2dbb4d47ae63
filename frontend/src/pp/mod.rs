//! The preprocessor: files to a stream of macro-expanded tokens for the parser.
//!
//! 1. Each file is lexed as it is read ([`crate::lexer::Lexer`]); a frame per open
//!    `#include` holds its lexer and next token. A `#` first on a line starts a directive,
//!    which reads the rest of the line.
//! 2. Conditional blocks that are off are skipped line by line, tracking nesting only.
//! 3. Identifiers naming macros are expanded: the replacement (with arguments substituted,
//!    `#` stringified, `##` pasted, `__VA_ARGS__` and GNU's `, ## __VA_ARGS__`) goes on a
//!    pending stack followed by an end marker; until the marker is popped the macro is
//!    disabled, and a name found while disabled is marked never to expand (C's "painted
//!    blue" rule). Arguments are expanded on their own first, as the standard says.
//! 4. Every token made by an expansion points at its spelling (the `#define` line or the
//!    argument) and at an [`Expansion`] record of the invocation, so a diagnostic can say
//!    "in expansion of macro X" at the call site, through nested expansions.
//!
//! Limits (each reported with a diagnostic): include depth [`MAX_INCLUDE_DEPTH`], nested
//! expansions [`MAX_EXPANSION_DEPTH`], macro arguments [`MAX_MACRO_ARGS`].

pub mod expr;

use crate::diag::Diagnostic;
use crate::intern::{Atom, Interner};
use crate::lexer::{lex_single, Lexer, Punct, RawToken, TokenKind, AT_BOL, SPACE_BEFORE};
use crate::source::{FileId, FileKind, SourceMap, Span};
use rustc_hash::{FxHashMap, FxHashSet};
use std::path::{Path, PathBuf};

/// `#include` nesting limit (a file including itself without a guard hits it).
pub const MAX_INCLUDE_DEPTH: usize = 200;
/// Limit of macro expansions active at once (bounds runaway recursion through arguments).
pub const MAX_EXPANSION_DEPTH: usize = 512;
/// Limit of arguments in one macro invocation.
pub const MAX_MACRO_ARGS: usize = 4096;

/// The token never expands (it named a macro while that macro was being expanded).
pub const NO_EXPAND: u8 = 4;

/// A preprocessed token.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    /// The interned spelling.
    pub text: Atom,
    /// Where it is spelled (a `#define` body or argument for macro-made tokens).
    pub span: Span,
    /// [`AT_BOL`], [`SPACE_BEFORE`], [`NO_EXPAND`].
    pub flags: u8,
    /// The innermost macro expansion that made it: an index into
    /// [`Preprocessor::expansions`] (0: none).
    pub expansion: u32,
}

/// A macro invocation, for diagnostics.
#[derive(Clone, Debug)]
pub struct Expansion {
    pub name: Atom,
    /// The macro name at the invocation.
    pub call: Span,
    /// The `#define`'s name.
    pub def: Span,
    /// The expansion the invocation itself came from (0: none).
    pub parent: u32,
}

#[derive(Clone, Debug)]
struct Macro {
    /// `Some` for function-like macros.
    params: Option<Vec<Atom>>,
    variadic: bool,
    body: Vec<Token>,
    def: Span,
    /// `__FILE__`, `__LINE__`, `__COUNTER__`: computed at each use.
    dynamic: bool,
}

/// Where the preprocessor reads the files it includes (`#include`, `-include`): the disk
/// when [`PpConfig::files`] is `None`, else this. The driver's incremental database
/// implements it to read editors' unsaved buffers and to record each file a translation
/// unit reads (or looks for) as a dependency.
pub trait FileSource: Sync {
    /// Whether `path` names a file that can be read.
    fn is_file(&self, path: &Path) -> bool;
    /// The text of the file at `path` (invalid UTF-8 replaced).
    fn read(&self, path: &Path) -> std::io::Result<String>;
}

/// Preprocessor settings (command-line options and the target), with where files are
/// read from for the lifetime `'f`.
#[derive(Clone)]
pub struct PpConfig<'f> {
    /// `-I` directories, searched in order after the including file's directory.
    pub include_dirs: Vec<PathBuf>,
    /// `-D NAME[=VALUE]` and `-U NAME`, in command-line order.
    pub defines: Vec<(String, Option<String>)>,
    /// `-include FILE`s, read before the main file.
    pub pre_includes: Vec<PathBuf>,
    /// The target's SM version (90 for sm_90): `__CUDA_ARCH__` is ten times it.
    pub sm: u32,
    /// Include `cuda_runtime.h` first, as nvcc does.
    pub implicit_cuda_runtime: bool,
    /// Budget of tokens made by macro expansion in one translation unit: macros can grow
    /// exponentially (`#define a b b`, `#define b c c`, ...); past it, expansion stops with
    /// an error instead of running for hours.
    pub max_expanded_tokens: usize,
    /// Where included files are read from (`None`: the disk).
    pub files: Option<&'f dyn FileSource>,
}

impl std::fmt::Debug for PpConfig<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PpConfig")
            .field("include_dirs", &self.include_dirs)
            .field("defines", &self.defines)
            .field("pre_includes", &self.pre_includes)
            .field("sm", &self.sm)
            .field("implicit_cuda_runtime", &self.implicit_cuda_runtime)
            .field("max_expanded_tokens", &self.max_expanded_tokens)
            .field("files", &self.files.map(|_| "<file source>"))
            .finish()
    }
}

impl PpConfig<'_> {
    /// Whether `path` is a file, through [`PpConfig::files`].
    pub(crate) fn is_file(&self, path: &Path) -> bool {
        match self.files {
            Some(f) => f.is_file(path),
            None => path.is_file(),
        }
    }
    /// The text at `path`, through [`PpConfig::files`].
    pub(crate) fn read(&self, path: &Path) -> std::io::Result<String> {
        match self.files {
            Some(f) => f.read(path),
            None => {
                std::fs::read(path).map(|b| String::from_utf8(b).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
            }
        }
    }
}

impl Default for PpConfig<'_> {
    fn default() -> Self {
        PpConfig {
            include_dirs: Vec::new(),
            defines: Vec::new(),
            pre_includes: Vec::new(),
            sm: 90,
            implicit_cuda_runtime: true,
            max_expanded_tokens: 50_000_000,
            files: None,
        }
    }
}

/// cuprite's own headers, found by `#include <name>` when no `-I` directory has the file.
pub const BUILTIN_HEADERS: &[(&str, &str)] = &[
    ("cuda_runtime.h", include_str!("../../include/cuda_runtime.h")),
    ("cuda_runtime_api.h", include_str!("../../include/cuda_runtime.h")),
    ("cuda_host.h", include_str!("../../include/cuda_host.h")),
    ("texture_functions.h", include_str!("../../include/texture_functions.h")),
    ("texture_fetch_functions.h", include_str!("../../include/texture_functions.h")),
    ("texture_types.h", include_str!("../../include/texture_functions.h")),
    ("texture_indirect_functions.h", include_str!("../../include/texture_functions.h")),
    ("device_launch_parameters.h", include_str!("../../include/device_launch_parameters.h")),
    ("vector_types.h", include_str!("../../include/vector_types.h")),
    ("device_functions.h", include_str!("../../include/device_functions.h")),
    ("math.h", include_str!("../../include/math.h")),
    ("__cuprite_libm.h", include_str!("../../libm/internal.h")),
    ("cmath", include_str!("../../include/math.h")),
    ("stdio.h", include_str!("../../include/stdio.h")),
    ("cstdio", include_str!("../../include/stdio.h")),
    ("stdint.h", include_str!("../../include/stdint.h")),
    ("cstdint", include_str!("../../include/stdint.h")),
    ("limits.h", include_str!("../../include/limits.h")),
    ("climits", include_str!("../../include/limits.h")),
    ("float.h", include_str!("../../include/float.h")),
    ("cfloat", include_str!("../../include/float.h")),
    ("stddef.h", include_str!("../../include/stddef.h")),
    ("cstddef", include_str!("../../include/stddef.h")),
    ("cuda_fp16.h", include_str!("../../include/cuda_fp16.h")),
    ("cuda_bf16.h", include_str!("../../include/cuda_bf16.h")),
    ("cuComplex.h", include_str!("../../include/cuComplex.h")),
    ("cuda.h", include_str!("../../include/cuda.h")),
    ("cooperative_groups.h", include_str!("../../include/cooperative_groups.h")),
    ("cooperative_groups/reduce.h", include_str!("../../include/cooperative_groups.h")),
    ("cooperative_groups/scan.h", include_str!("../../include/cooperative_groups.h")),
    ("assert.h", include_str!("../../include/assert.h")),
    ("cassert", include_str!("../../include/assert.h")),
    ("time.h", include_str!("../../include/time.h")),
    ("ctime", include_str!("../../include/time.h")),
    // Host code's headers: what host declarations and launches around kernels need to be
    // read (host code is never compiled).
    ("string", include_str!("../../include/host/string")),
    ("vector", include_str!("../../include/host/vector")),
    ("iostream", include_str!("../../include/host/iostream")),
    ("ostream", include_str!("../../include/host/iostream")),
    ("istream", include_str!("../../include/host/iostream")),
    ("sstream", include_str!("../../include/host/iostream")),
    ("fstream", include_str!("../../include/host/iostream")),
    ("iomanip", include_str!("../../include/host/iostream")),
    ("stdlib.h", include_str!("../../include/host/stdlib.h")),
    ("cstdlib", include_str!("../../include/host/stdlib.h")),
    ("string.h", include_str!("../../include/host/string.h")),
    ("cstring", include_str!("../../include/host/string.h")),
];

/// The defined macros, indexed by the name's atom number: the preprocessor asks for every
/// identifier it reads, so this is an array load rather than a hash lookup.
#[derive(Clone, Default)]
struct MacroTable {
    by_atom: Vec<Option<std::sync::Arc<Macro>>>,
}

impl MacroTable {
    #[inline]
    fn get(&self, a: &Atom) -> Option<&std::sync::Arc<Macro>> {
        self.by_atom.get(a.0 as usize).and_then(Option::as_ref)
    }
    fn contains_key(&self, a: &Atom) -> bool {
        self.get(a).is_some()
    }
    fn insert(&mut self, a: Atom, m: std::sync::Arc<Macro>) {
        let i = a.0 as usize;
        if self.by_atom.len() <= i {
            self.by_atom.resize(i + 1, None);
        }
        self.by_atom[i] = Some(m);
    }
    fn remove(&mut self, a: &Atom) {
        if let Some(slot) = self.by_atom.get_mut(a.0 as usize) {
            *slot = None;
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Cond {
    /// Some branch of this `#if` group was taken.
    taken: bool,
    /// `#else` was seen.
    saw_else: bool,
    /// Where the group started (for "unterminated #if").
    span: Span,
}

/// An open file: its lexer and the next raw token (the preprocessor looks one ahead).
#[derive(Clone)]
struct Frame {
    file: FileId,
    lexer: Lexer,
    cur: RawToken,
    conds: Vec<Cond>,
}

impl Frame {
    /// Moves to the next raw token, reporting lexing problems.
    fn step(&mut self, sm: &SourceMap, diags: &mut Vec<Diagnostic>, errs: &mut Vec<crate::lexer::LexError>) {
        self.cur = self.lexer.next(&sm.file(self.file).text, errs);
        for e in errs.drain(..) {
            diags.push(Diagnostic::error(Span { file: self.file, lo: e.lo, hi: e.hi }, e.message));
        }
    }
}

#[derive(Clone)]
enum Pending {
    Tok(Token),
    /// The end of macro `.0`'s expansion: re-enable it.
    End(Atom),
    /// The end of a token list being expanded in isolation (macro arguments, `#if`).
    Barrier,
}

suspendable! {
/// The preprocessor over one translation unit.
pub struct Preprocessor<'s> {
    refs {
        pub sm: &'s mut SourceMap,
        pub interner: &'s mut Interner,
        config: PpConfig<'s>,
    }
    /// The atom of each punctuator's canonical spelling (by `Punct as usize`; `u32::MAX`:
    /// not interned yet), so that most tokens are made without hashing their text.
    punct_atoms: [Atom; 64],
    pub diags: Vec<Diagnostic>,
    pub expansions: Vec<Expansion>,
    /// Shared so that an expansion holds its definition without copying it.
    macros: MacroTable,
    disabled: FxHashMap<Atom, u32>,
    frames: Vec<Frame>,
    /// Lexing problems of the current step (reused).
    lex_errs: Vec<crate::lexer::LexError>,
    pending: Vec<Pending>,
    pragma_once: FxHashSet<PathBuf>,
    /// For each included file, the `#include` that read it.
    include_sites: FxHashMap<FileId, Span>,
    builtin_once: FxHashSet<&'static str>,
    scratch: FileId,
    scratch_buf: String,
    /// Spellings made by macros of cuprite's built-in headers (a file of kind `Builtin`, so
    /// that what those macros declare is known to be the compiler's).
    builtin_scratch: FileId,
    builtin_scratch_buf: String,
    counter: i64,
    /// Nested [`Preprocessor::expand_list`] calls (macro arguments inside arguments), and
    /// whether passing the limit was reported.
    list_depth: usize,
    list_depth_reported: bool,
    /// The main file.
    main: FileId,
    expansion_depth: usize,
    /// Tokens made by expansions so far (against `config.max_expanded_tokens`).
    expanded_tokens: usize,
    /// Frequently used atoms.
    a: Atoms,
    /// Where the implicit headers end and the main file begins (see [`AtMain`]).
    at_main: AtMain,
}
/// A [`Preprocessor`] stopped where the main file begins ([`Preprocessor::suspend`]).
pub struct PpState;
}

/// What the preprocessor does when only the main file is left to read, after the
/// predefined macros and the implicit `cuda_runtime.h`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum AtMain {
    /// Queue the `-include` files (which are read before the main file) and go on.
    Enter,
    /// Give `Eof` (the preamble ends there, see [`crate::preamble`]).
    Stop,
    /// The main file has been entered.
    Entered,
}

#[derive(Clone)]
struct Atoms {
    defined: Atom,
    va_args: Atom,
    has_include: Atom,
    file: Atom,
    line: Atom,
    counter: Atom,
}

impl<'s> Preprocessor<'s> {
    /// A preprocessor for `main` (already in `sm`), with the predefined macros, `-D`/`-U`
    /// and the implicit `cuda_runtime.h` queued before it, and the `-include` files queued
    /// when those are read.
    pub fn new(sm: &'s mut SourceMap, interner: &'s mut Interner, main: FileId, config: PpConfig<'s>) -> Self {
        Self::start(sm, interner, main, config, AtMain::Enter)
    }

    /// A preprocessor that reads the predefined macros and the implicit headers and then
    /// gives `Eof`, without reading `main` or the `-include` files: [`Preprocessor::suspend`]
    /// it then, and [`Preprocessor::resume`] a copy of its state with the main file's text
    /// (see [`crate::preamble`]).
    pub fn new_preamble(sm: &'s mut SourceMap, interner: &'s mut Interner, main: FileId, config: PpConfig<'s>) -> Self {
        Self::start(sm, interner, main, config, AtMain::Stop)
    }

    /// Goes on from a state [`Preprocessor::new_preamble`] stopped in, with the main file's
    /// text now in `sm` (the same file number) and `config` (the one the preamble was read
    /// with, but for its `-include` files and file source): reads the `-include` files, then
    /// the main file, as [`Preprocessor::new`] would have.
    pub fn resume(sm: &'s mut SourceMap, interner: &'s mut Interner, config: PpConfig<'s>, state: PpState) -> Self {
        let mut pp = Self::from_state(sm, interner, config, state);
        debug_assert_eq!(pp.at_main, AtMain::Stop, "resumed from a preamble");
        debug_assert!(pp.pending.is_empty() && pp.frames.len() == 1, "the preamble ended between files");
        pp.at_main = AtMain::Enter;
        let main = pp.main;
        pp.frames.clear();
        pp.push_file(main, None);
        pp
    }

    fn start(sm: &'s mut SourceMap, interner: &'s mut Interner, main: FileId, config: PpConfig<'s>, at_main: AtMain) -> Self {
        let scratch = sm.add("<scratch space>", None, "", FileKind::Scratch);
        let builtin_scratch = sm.add("<built-in scratch space>", None, "", FileKind::Builtin);
        let a = Atoms {
            defined: interner.intern("defined"),
            va_args: interner.intern("__VA_ARGS__"),
            has_include: interner.intern("__has_include"),
            file: interner.intern("__FILE__"),
            line: interner.intern("__LINE__"),
            counter: interner.intern("__COUNTER__"),
        };
        let mut pp = Preprocessor {
            sm,
            interner,
            punct_atoms: [Atom(u32::MAX); 64],
            diags: Vec::new(),
            expansions: vec![Expansion { name: Atom(0), call: Span::default(), def: Span::default(), parent: 0 }],
            config,
            macros: MacroTable::default(),
            disabled: FxHashMap::default(),
            frames: Vec::new(),
            lex_errs: Vec::new(),
            pending: Vec::new(),
            pragma_once: FxHashSet::default(),
            include_sites: FxHashMap::default(),
            builtin_once: FxHashSet::default(),
            scratch,
            scratch_buf: String::new(),
            builtin_scratch,
            builtin_scratch_buf: String::new(),
            counter: 0,
            list_depth: 0,
            list_depth_reported: false,
            main,
            expansion_depth: 0,
            expanded_tokens: 0,
            a,
            at_main,
        };
        for name in [pp.a.file, pp.a.line, pp.a.counter] {
            pp.macros.insert(
                name,
                std::sync::Arc::new(Macro { params: None, variadic: false, body: Vec::new(), def: Span::default(), dynamic: true }),
            );
        }
        // Predefined macros and -D/-U, as one command-line file read like a header.
        let arch = pp.config.sm * 10;
        let mut cmdline = format!(
            "#define __CUDACC__ 1\n#define __NVCC__ 1\n#define __CUDA_ARCH__ {arch}\n#define __CUDA_ARCH_LIST__ {arch}\n\
             #define __CUDACC_VER_MAJOR__ 13\n#define __CUDACC_VER_MINOR__ 0\n#define __CUDACC_VER_BUILD__ 0\n\
             #define __CUDA_API_VER_MAJOR__ 13\n#define __CUDA_API_VER_MINOR__ 0\n#define CUDART_VERSION 13000\n\
             #define __cplusplus 201703L\n#define __STDC_HOSTED__ 1\n#define __linux__ 1\n#define __x86_64__ 1\n#define __LP64__ 1\n\
             #define __CHAR_BIT__ 8\n#define __SIZEOF_INT__ 4\n#define __SIZEOF_LONG__ 8\n#define __SIZEOF_LONG_LONG__ 8\n\
             #define __SIZEOF_POINTER__ 8\n#define __SIZEOF_SIZE_T__ 8\n\
             #define __DATE__ \"Jan  1 1970\"\n#define __TIME__ \"00:00:00\"\n#define __CUPRITE__ 1\n"
        );
        for (name, value) in pp.config.defines.clone() {
            match value {
                Some(v) => cmdline.push_str(&format!("#undef {name}\n#define {name} {v}\n")),
                None if name.starts_with('-') => cmdline.push_str(&format!("#undef {}\n", &name[1..])),
                None => cmdline.push_str(&format!("#undef {name}\n#define {name} 1\n")),
            }
        }
        // Frames are a stack: push the main file first so that it is read last (the
        // `-include` files go on it when only it is left: `enter_main`).
        pp.push_file(main, None);
        if pp.config.implicit_cuda_runtime {
            pp.builtin_once.insert("cuda_runtime.h");
            let text = BUILTIN_HEADERS[0].1;
            let f = pp.sm.add("<built-in>/cuda_runtime.h", None, text, FileKind::Builtin);
            pp.push_file(f, None);
        }
        let cl = pp.sm.add("<command line>", None, cmdline, FileKind::CommandLine);
        pp.push_file(cl, None);
        pp
    }

    /// Only the main file is left: queues the `-include` files over it.
    #[cold]
    fn enter_main(&mut self) {
        self.at_main = AtMain::Entered;
        for inc in self.config.pre_includes.clone().iter().rev() {
            match self.config.read(inc) {
                Ok(text) => {
                    let f = self.sm.add(inc.display().to_string(), Some(inc), text, FileKind::User);
                    self.push_file(f, None);
                }
                Err(e) => {
                    let d = Diagnostic::error(Span::default(), format!("cannot read -include file '{}': {e}", inc.display()));
                    self.diags.push(Diagnostic { span: None, ..d });
                }
            }
        }
    }

    /// Runs to the end: every token, then `Eof`; with [`Preprocessor::finish`]'s diagnostics
    /// and expansions. (The parser does not use this: it pulls [`Preprocessor::next_token`].)
    pub fn run(mut self) -> (Vec<Token>, Vec<Diagnostic>, Vec<Expansion>) {
        // Room for the files read so far plus what macros usually add, so that the output
        // does not grow (and copy) token by token; untouched capacity costs no memory.
        let bytes: usize = self.frames.iter().map(|f| self.sm.file(f.file).text.len()).sum();
        let mut out = Vec::with_capacity(bytes / 3 + 1024);
        loop {
            let t = self.next_token();
            out.push(t);
            if t.kind == TokenKind::Eof {
                break;
            }
        }
        let (diags, expansions) = self.finish();
        (out, diags, expansions)
    }

    /// Ends preprocessing (after `Eof`): the scratch files get their text, and diagnostics
    /// in headers get the chain of `#include`s as notes.
    pub fn finish(mut self) -> (Vec<Diagnostic>, Vec<Expansion>) {
        self.sm.flush_scratch(self.scratch, &self.scratch_buf);
        self.sm.flush_scratch(self.builtin_scratch, &self.builtin_scratch_buf);
        // "In file included from ...": for diagnostics in headers, the chain of #includes.
        for d in &mut self.diags {
            let mut f = d.span.map(|s| s.file);
            let mut n = 0;
            while let Some(at) = f.and_then(|f| self.include_sites.get(&f)).copied() {
                d.notes.push(crate::diag::Note { span: Some(at), message: "in file included from here".into() });
                f = Some(at.file);
                n += 1;
                if n > MAX_INCLUDE_DEPTH {
                    break;
                }
            }
        }
        (self.diags, self.expansions)
    }

    fn push_file(&mut self, file: FileId, included_at: Option<Span>) {
        if let Some(at) = included_at {
            self.include_sites.insert(file, at);
        }
        let mut frame =
            Frame { file, lexer: Lexer::default(), cur: RawToken { kind: TokenKind::Eof, lo: 0, hi: 0, flags: 0 }, conds: Vec::new() };
        frame.step(self.sm, &mut self.diags, &mut self.lex_errs);
        self.frames.push(frame);
    }

    fn raw_text(&self, file: FileId, t: &RawToken) -> &str {
        &self.sm.file(file).text[t.lo as usize..t.hi as usize]
    }

    #[inline]
    fn make(&mut self, file: FileId, t: RawToken) -> Token {
        let spelling = &self.sm.file(file).text[t.lo as usize..t.hi as usize];
        let text = match t.kind {
            // Digraphs (`<:`) keep their own spelling.
            TokenKind::Punct(p) if p.text() == spelling => {
                let slot = &mut self.punct_atoms[p as usize];
                if slot.0 == u32::MAX {
                    *slot = self.interner.intern(spelling);
                }
                *slot
            }
            _ => self.interner.intern(spelling),
        };
        Token { kind: t.kind, text, span: Span { file, lo: t.lo, hi: t.hi }, flags: t.flags, expansion: 0 }
    }

    /// A token with new spelling `text` (in the scratch file; the built-in one for a
    /// built-in header's macro).
    fn scratch_token(&mut self, kind: TokenKind, text: &str, flags: u8, expansion: u32) -> Token {
        let builtin =
            self.expansions.get(expansion as usize).is_some_and(|e| expansion != 0 && self.sm.file(e.def.file).kind == FileKind::Builtin);
        let span = if builtin {
            self.sm.append_scratch(self.builtin_scratch, &mut self.builtin_scratch_buf, text)
        } else {
            self.sm.append_scratch(self.scratch, &mut self.scratch_buf, text)
        };
        Token { kind, text: self.interner.intern(text), span, flags, expansion }
    }

    // ----- reading --------------------------------------------------------------------

    /// The next token after expansion.
    pub fn next_token(&mut self) -> Token {
        loop {
            let Some(t) = self.next_unexpanded() else {
                return Token { kind: TokenKind::Eof, text: Atom(0), span: self.eof_span(), flags: AT_BOL, expansion: 0 };
            };
            if t.kind == TokenKind::Ident && t.flags & NO_EXPAND == 0 && self.macros.contains_key(&t.text) {
                if let Some(r) = self.try_expand(t) {
                    match r {
                        Expanded::Done => continue,
                        Expanded::NotAMacroCall(t) => return t,
                    }
                }
            }
            return t;
        }
    }

    /// Where "end of file" is: the end of the main file (errors such as an unclosed `{`
    /// point there).
    fn eof_span(&self) -> Span {
        let end = self.sm.file(self.main).text.len();
        Span::new(self.main, end, end)
    }

    /// The next token before macro expansion: from the pending stack, else from the files
    /// (running directives). `None` at the end of everything or at a barrier.
    #[inline]
    fn next_unexpanded(&mut self) -> Option<Token> {
        loop {
            match self.pending.pop() {
                Some(Pending::Tok(t)) => return Some(t),
                Some(Pending::End(name)) => {
                    self.enable(name);
                    continue;
                }
                Some(Pending::Barrier) => {
                    self.pending.push(Pending::Barrier);
                    return None;
                }
                None => {}
            }
            if self.at_main != AtMain::Entered && self.frames.len() <= 1 {
                if self.at_main == AtMain::Stop {
                    return None;
                }
                self.enter_main();
                continue;
            }
            let frame = self.frames.last_mut()?;
            let raw = frame.cur;
            let file = frame.file;
            if raw.kind == TokenKind::Eof {
                let f = self.frames.pop().expect("frame");
                for c in f.conds.iter().rev() {
                    self.diags.push(Diagnostic::error(c.span, "unterminated conditional directive (no #endif)"));
                }
                if self.frames.is_empty() {
                    return None;
                }
                continue;
            }
            frame.step(self.sm, &mut self.diags, &mut self.lex_errs);
            if raw.kind == TokenKind::Punct(Punct::Hash) && raw.flags & AT_BOL != 0 {
                self.directive(file, raw);
                continue;
            }
            return Some(self.make(file, raw));
        }
    }

    /// Peeks whether the next unexpanded token is `(` (for function-like macros), looking
    /// through expansion ends; files are not left (an invocation does not span files).
    fn next_is_lparen(&mut self) -> bool {
        for p in self.pending.iter().rev() {
            match p {
                Pending::Tok(t) => return t.kind == TokenKind::Punct(Punct::LParen),
                Pending::End(_) => continue,
                Pending::Barrier => return false,
            }
        }
        let Some(frame) = self.frames.last() else { return false };
        frame.cur.kind == TokenKind::Punct(Punct::LParen)
    }

    fn enable(&mut self, name: Atom) {
        if let Some(n) = self.disabled.get_mut(&name) {
            *n -= 1;
            if *n == 0 {
                self.disabled.remove(&name);
            }
        }
        self.expansion_depth = self.expansion_depth.saturating_sub(1);
    }

    // ----- macro expansion ---------------------------------------------------------------

    #[inline(never)]
    fn try_expand(&mut self, t: Token) -> Option<Expanded> {
        let m = self.macros.get(&t.text)?;
        let (dynamic, is_fn) = (m.dynamic, m.params.is_some());
        if self.disabled.contains_key(&t.text) {
            return Some(Expanded::NotAMacroCall(Token { flags: t.flags | NO_EXPAND, ..t }));
        }
        if dynamic {
            let tok = self.dynamic_macro(t);
            return Some(Expanded::NotAMacroCall(tok));
        }
        if is_fn && !self.next_is_lparen() {
            return Some(Expanded::NotAMacroCall(t));
        }
        if self.expansion_depth >= MAX_EXPANSION_DEPTH {
            self.error_at(t, format!("macro expansions nest more than {MAX_EXPANSION_DEPTH} deep"));
            return Some(Expanded::NotAMacroCall(Token { flags: t.flags | NO_EXPAND, ..t }));
        }
        let m = std::sync::Arc::clone(self.macros.get(&t.text)?);
        let args = if is_fn {
            match self.collect_args(t, &m) {
                Some(a) => Some(a),
                None => return Some(Expanded::Done),
            }
        } else {
            None
        };
        let exp = self.expansions.len() as u32;
        self.expansions.push(Expansion { name: t.text, call: t.span, def: m.def, parent: t.expansion });
        let body = self.substitute(&m, args, exp, t);
        let before = self.expanded_tokens;
        self.expanded_tokens += body.len() + 1;
        if self.expanded_tokens > self.config.max_expanded_tokens {
            if before <= self.config.max_expanded_tokens {
                let limit = self.config.max_expanded_tokens;
                self.error_at(t, format!("macro expansion made more than {limit} tokens; expansion stops here"));
            }
            return Some(Expanded::NotAMacroCall(Token { flags: t.flags | NO_EXPAND, ..t }));
        }
        self.pending.push(Pending::End(t.text));
        *self.disabled.entry(t.text).or_insert(0) += 1;
        self.expansion_depth += 1;
        for tok in body.into_iter().rev() {
            self.pending.push(Pending::Tok(tok));
        }
        Some(Expanded::Done)
    }

    fn dynamic_macro(&mut self, t: Token) -> Token {
        // The position of the outermost invocation.
        let mut at = t;
        let mut e = t.expansion;
        while e != 0 {
            let x = &self.expansions[e as usize];
            at.span = x.call;
            e = x.parent;
        }
        let (kind, text) = if t.text == self.a.file {
            let name = self.sm.file(at.span.file).name.clone();
            (TokenKind::Str, format!("\"{}\"", name.replace('\\', "\\\\").replace('"', "\\\"")))
        } else if t.text == self.a.line {
            (TokenKind::Number, self.sm.file(at.span.file).line_col(at.span.lo).0.to_string())
        } else {
            self.counter += 1;
            (TokenKind::Number, (self.counter - 1).to_string())
        };
        let mut tok = self.scratch_token(kind, &text, t.flags, t.expansion);
        tok.span = t.span;
        tok
    }

    /// Reads `( arg, ... )` after a function-like macro's name. `None` after an error.
    fn collect_args(&mut self, name: Token, m: &Macro) -> Option<Vec<Vec<Token>>> {
        let open = self.next_unexpanded();
        debug_assert!(open.is_some_and(|o| o.kind == TokenKind::Punct(Punct::LParen)));
        let nparams = m.params.as_ref().map_or(0, Vec::len);
        let mut args: Vec<Vec<Token>> = vec![Vec::new()];
        let mut depth = 0usize;
        loop {
            let Some(t) = self.next_unexpanded() else {
                let macro_name = self.interner.str(name.text).to_string();
                self.error_at(name, format!("unterminated invocation of macro '{macro_name}'"));
                return None;
            };
            match t.kind {
                TokenKind::Punct(Punct::LParen) => depth += 1,
                TokenKind::Punct(Punct::RParen) if depth == 0 => break,
                TokenKind::Punct(Punct::RParen) => depth -= 1,
                // Commas split arguments, except inside parentheses and in the variadic part.
                TokenKind::Punct(Punct::Comma) if depth == 0 && !(m.variadic && args.len() >= nparams) => {
                    if args.len() >= MAX_MACRO_ARGS {
                        self.error_at(t, format!("more than {MAX_MACRO_ARGS} macro arguments"));
                        return None;
                    }
                    args.push(Vec::new());
                    continue;
                }
                _ => {}
            }
            args.last_mut().expect("an argument").push(t);
        }
        // `f()` passes one empty argument, which is zero arguments for a macro without
        // parameters.
        if nparams == 0 && args.len() == 1 && args[0].is_empty() {
            args.clear();
        }
        if m.variadic && args.len() == nparams - 1 {
            // `f(a)` for `f(x, ...)`: __VA_ARGS__ is empty.
            args.push(Vec::new());
        }
        if args.len() != nparams {
            let macro_name = self.interner.str(name.text).to_string();
            let d = Diagnostic::error(name.span, format!("macro '{macro_name}' takes {nparams} argument(s), but {} given", args.len()))
                .note(Some(m.def), "macro defined here");
            self.push_with_expansion_notes(d, name.expansion);
            return None;
        }
        Some(args)
    }

    /// Macro-expands a token list on its own (an argument, an `#if` line).
    fn expand_list(&mut self, toks: &[Token]) -> Vec<Token> {
        if !toks.iter().any(|t| t.kind == TokenKind::Ident) {
            return toks.to_vec();
        }
        // Arguments are expanded before the invocation is, so `F(F(F(...)))` nests these
        // calls (on the stack) as deep as the invocations: bounded like expansions.
        if self.list_depth >= MAX_EXPANSION_DEPTH {
            let t = toks[0];
            if !self.list_depth_reported {
                self.list_depth_reported = true;
                self.error_at(t, format!("macro arguments nest more than {MAX_EXPANSION_DEPTH} deep"));
            }
            return toks.iter().map(|&t| Token { flags: t.flags | NO_EXPAND, ..t }).collect();
        }
        self.list_depth += 1;
        let out = self.expand_list_inner(toks);
        self.list_depth -= 1;
        out
    }

    fn expand_list_inner(&mut self, toks: &[Token]) -> Vec<Token> {
        self.pending.push(Pending::Barrier);
        for t in toks.iter().rev() {
            self.pending.push(Pending::Tok(*t));
        }
        let mut out = Vec::new();
        while let Some(t) = self.next_unexpanded() {
            if t.kind == TokenKind::Ident && t.flags & NO_EXPAND == 0 {
                match self.try_expand(t) {
                    Some(Expanded::Done) => continue,
                    Some(Expanded::NotAMacroCall(t)) => out.push(t),
                    None => out.push(t),
                }
            } else {
                out.push(t);
            }
        }
        // Pop the barrier (and re-enable macros whose expansion ended right at it).
        while let Some(p) = self.pending.pop() {
            match p {
                Pending::Barrier => break,
                Pending::End(n) => self.enable(n),
                Pending::Tok(t) => out.push(t),
            }
        }
        out
    }

    /// The replacement of one invocation: parameters substituted (expanded, or raw next to
    /// `#`/`##`), stringification, pasting. Tokens get expansion `exp`.
    fn substitute(&mut self, m: &Macro, args: Option<Vec<Vec<Token>>>, exp: u32, call: Token) -> Vec<Token> {
        let params = m.params.clone().unwrap_or_default();
        let args = args.unwrap_or_default();
        let va_args = self.a.va_args;
        let (variadic, n) = (m.variadic, params.len());
        let param_index = move |a: Atom, params: &[Atom]| -> Option<usize> {
            if variadic && a == va_args {
                return Some(n - 1);
            }
            params.iter().position(|&p| p == a).filter(|&i| !(variadic && i == n - 1 && params[i] == va_args))
        };
        let mut expanded: Vec<Option<Vec<Token>>> = vec![None; args.len()];
        let mut out: Vec<Token> = Vec::with_capacity(m.body.len());
        // Whether the next piece is pasted onto the last token of `out`.
        let mut paste = false;
        // `out.len()` right after the last piece that was a placemarker (empty argument).
        let mut placemarker_at: Option<usize> = None;
        let body = &m.body;
        let mut i = 0;
        while i < body.len() {
            let bt = body[i];
            let next_is_paste = body.get(i + 1).is_some_and(|n| n.kind == TokenKind::Punct(Punct::HashHash));
            // `#param`
            if m.params.is_some() && bt.kind == TokenKind::Punct(Punct::Hash) {
                if let Some(pi) = body.get(i + 1).and_then(|n| param_index(n.text, &params)) {
                    let s = self.stringify(&args[pi]);
                    let flags = bt.flags & SPACE_BEFORE;
                    let t = self.scratch_token(TokenKind::Str, &s, flags, exp);
                    self.push_piece(&mut out, &[t], &mut paste, &mut placemarker_at, exp);
                    i += 2;
                    continue;
                }
            }
            if bt.kind == TokenKind::Punct(Punct::HashHash) && i > 0 && i + 1 < body.len() {
                // GNU: `, ## __VA_ARGS__` drops the comma when __VA_ARGS__ is empty.
                if m.variadic && body[i + 1].text == va_args && out.last().is_some_and(|t| t.kind == TokenKind::Punct(Punct::Comma)) {
                    let va = args.last().cloned().unwrap_or_default();
                    if va.is_empty() {
                        out.pop();
                    } else {
                        let mut toks = va;
                        for t in &mut toks {
                            t.expansion = exp;
                        }
                        out.extend(toks);
                    }
                    i += 2;
                    continue;
                }
                paste = true;
                i += 1;
                continue;
            }
            if let Some(pi) = (bt.kind == TokenKind::Ident).then(|| param_index(bt.text, &params)).flatten() {
                let raw = paste || next_is_paste;
                let mut toks = if raw {
                    args[pi].clone()
                } else {
                    if expanded[pi].is_none() {
                        expanded[pi] = Some(self.expand_list(&args[pi]));
                    }
                    expanded[pi].clone().unwrap_or_default()
                };
                if let Some(first) = toks.first_mut() {
                    first.flags = (first.flags & !(AT_BOL | SPACE_BEFORE)) | (bt.flags & SPACE_BEFORE);
                }
                for t in &mut toks {
                    t.flags &= !AT_BOL;
                    if t.expansion == 0 || raw {
                        t.expansion = exp;
                    }
                }
                self.push_piece(&mut out, &toks, &mut paste, &mut placemarker_at, exp);
                i += 1;
                continue;
            }
            let t = Token { expansion: exp, flags: bt.flags & SPACE_BEFORE, ..bt };
            self.push_piece(&mut out, &[t], &mut paste, &mut placemarker_at, exp);
            i += 1;
        }
        if let Some(first) = out.first_mut() {
            first.flags = (first.flags & !(AT_BOL | SPACE_BEFORE)) | (call.flags & (AT_BOL | SPACE_BEFORE));
        }
        out
    }

    /// Appends `piece` to `out`, pasting its first token onto `out`'s last if a `##` came
    /// before it. An empty piece is a placemarker: pasting with it leaves the other side.
    fn push_piece(&mut self, out: &mut Vec<Token>, piece: &[Token], paste: &mut bool, placemarker_at: &mut Option<usize>, exp: u32) {
        if !*paste {
            if piece.is_empty() {
                *placemarker_at = Some(out.len());
            }
            out.extend_from_slice(piece);
            return;
        }
        *paste = false;
        let left_is_placemarker = *placemarker_at == Some(out.len());
        let Some(first) = piece.first() else {
            *placemarker_at = Some(out.len());
            return;
        };
        if left_is_placemarker || out.is_empty() {
            out.extend_from_slice(piece);
            return;
        }
        let left = out.pop().expect("a token to paste onto");
        let text = format!("{}{}", self.interner.str(left.text), self.interner.str(first.text));
        match lex_single(&text) {
            Some(kind) => {
                let t = self.scratch_token(kind, &text, left.flags, exp);
                out.push(t);
            }
            None => {
                let d = Diagnostic::error(
                    left.span,
                    format!(
                        "pasting \"{}\" and \"{}\" does not give a valid preprocessing token",
                        self.interner.str(left.text),
                        self.interner.str(first.text)
                    ),
                );
                self.push_with_expansion_notes(d, exp);
                out.push(left);
                out.push(*first);
            }
        }
        out.extend_from_slice(&piece[1..]);
    }

    /// `#x`: the argument's spelling with single spaces where there was whitespace, `"`
    /// and `\` escaped in string and character literals.
    fn stringify(&self, toks: &[Token]) -> String {
        let mut s = String::from("\"");
        for (i, t) in toks.iter().enumerate() {
            if i > 0 && t.flags & (SPACE_BEFORE | AT_BOL) != 0 {
                s.push(' ');
            }
            let text = self.interner.str(t.text);
            if matches!(t.kind, TokenKind::Str | TokenKind::Char) {
                for c in text.chars() {
                    if c == '"' || c == '\\' {
                        s.push('\\');
                    }
                    s.push(c);
                }
            } else {
                s.push_str(text);
            }
        }
        s.push('"');
        s
    }

    // ----- diagnostics -------------------------------------------------------------------

    fn error_at(&mut self, t: Token, msg: String) {
        let d = Diagnostic::error(t.span, msg);
        self.push_with_expansion_notes(d, t.expansion);
    }

    /// Adds "in expansion of macro X" notes for expansion `e` and its parents.
    pub fn push_with_expansion_notes(&mut self, mut d: Diagnostic, mut e: u32) {
        let mut n = 0;
        while e != 0 && n < 16 {
            let x = &self.expansions[e as usize];
            d = d.note(Some(x.call), format!("in expansion of macro '{}'", self.interner.str(x.name)));
            e = x.parent;
            n += 1;
        }
        self.diags.push(d);
    }

    // ----- directives --------------------------------------------------------------------

    /// The rest of the directive's line (raw tokens of the current file).
    fn line_tokens(&mut self) -> Vec<Token> {
        let mut out = Vec::new();
        loop {
            let frame = self.frames.last_mut().expect("frame");
            let raw = frame.cur;
            if raw.kind == TokenKind::Eof || raw.flags & AT_BOL != 0 {
                break;
            }
            frame.step(self.sm, &mut self.diags, &mut self.lex_errs);
            let file = frame.file;
            out.push(self.make(file, raw));
        }
        out
    }

    fn skip_line(&mut self) {
        let frame = self.frames.last_mut().expect("frame");
        while frame.cur.kind != TokenKind::Eof && frame.cur.flags & AT_BOL == 0 {
            frame.step(self.sm, &mut self.diags, &mut self.lex_errs);
        }
    }

    fn directive(&mut self, file: FileId, hash: RawToken) {
        let frame = self.frames.last_mut().expect("frame");
        let raw = frame.cur;
        let hash_span = Span { file, lo: hash.lo, hi: hash.hi };
        if raw.kind == TokenKind::Eof || raw.flags & AT_BOL != 0 {
            return; // the null directive
        }
        frame.step(self.sm, &mut self.diags, &mut self.lex_errs);
        let name_tok = self.make(file, raw);
        let name = self.raw_text(file, &raw).to_string();
        let dspan = hash_span.to(name_tok.span);
        match name.as_str() {
            "define" => self.define(dspan),
            "undef" => {
                let line = self.line_tokens();
                match line.first() {
                    Some(t) if t.kind == TokenKind::Ident => {
                        self.macros.remove(&t.text);
                        if line.len() > 1 {
                            self.diags.push(Diagnostic::warning(line[1].span, "extra tokens at end of #undef directive"));
                        }
                    }
                    _ => self.diags.push(Diagnostic::error(dspan, "#undef needs a macro name")),
                }
            }
            "include" | "include_next" | "import" => self.include(dspan),
            "if" => {
                let line = self.line_tokens();
                let v = self.eval_if(dspan, &line);
                self.open_cond(dspan, v);
            }
            "ifdef" | "ifndef" => {
                let line = self.line_tokens();
                let v = match line.first() {
                    Some(t) if t.kind == TokenKind::Ident => self.macros.contains_key(&t.text) == (name == "ifdef"),
                    _ => {
                        self.diags.push(Diagnostic::error(dspan, format!("#{name} needs a macro name")));
                        false
                    }
                };
                self.open_cond(dspan, v);
            }
            "elif" | "else" | "elifdef" | "elifndef" => {
                // Reached while a branch is live: the rest of the group is skipped.
                let frame = self.frames.last_mut().expect("frame");
                match frame.conds.last_mut() {
                    None => {
                        self.skip_line();
                        self.diags.push(Diagnostic::error(dspan, format!("#{name} without #if")));
                    }
                    Some(c) => {
                        if c.saw_else {
                            let sp = c.span;
                            self.skip_line();
                            self.diags.push(Diagnostic::error(dspan, format!("#{name} after #else")).note(Some(sp), "the #if is here"));
                        } else {
                            c.saw_else = name == "else";
                            c.taken = true;
                            self.skip_line();
                            self.skip_group();
                        }
                    }
                }
            }
            "endif" => {
                self.skip_line();
                let frame = self.frames.last_mut().expect("frame");
                if frame.conds.pop().is_none() {
                    self.diags.push(Diagnostic::error(dspan, "#endif without #if"));
                }
            }
            "error" | "warning" => {
                let line = self.line_tokens();
                let msg = self.line_text(&line);
                let d = if name == "error" {
                    Diagnostic::error(dspan, format!("#error {msg}"))
                } else {
                    Diagnostic::warning(dspan, format!("#warning {msg}"))
                };
                self.diags.push(d);
            }
            "line" => {
                let line = self.line_tokens();
                let line = self.expand_list(&line);
                let ok = line
                    .first()
                    .is_some_and(|t| t.kind == TokenKind::Number && self.interner.str(t.text).bytes().all(|b| b.is_ascii_digit()))
                    && line.get(1).is_none_or(|t| t.kind == TokenKind::Str);
                if !ok {
                    self.diags.push(Diagnostic::error(dspan, "#line needs a line number and an optional file name"));
                }
            }
            "pragma" => {
                let line = self.line_tokens();
                self.pragma(dspan, &line);
            }
            "ident" | "sccs" => self.skip_line(),
            _ => {
                self.skip_line();
                self.diags.push(Diagnostic::error(dspan, format!("invalid preprocessing directive '#{name}'")));
            }
        }
    }

    fn line_text(&self, line: &[Token]) -> String {
        let mut s = String::new();
        for (i, t) in line.iter().enumerate() {
            if i > 0 && t.flags & SPACE_BEFORE != 0 {
                s.push(' ');
            }
            s.push_str(self.interner.str(t.text));
        }
        s
    }

    fn pragma(&mut self, dspan: Span, line: &[Token]) {
        let Some(first) = line.first() else { return };
        match self.interner.str(first.text) {
            "once" => {
                let f = self.frames.last().expect("frame").file;
                match self.sm.file(f).path.clone() {
                    Some(p) => {
                        self.pragma_once.insert(p.canonicalize().unwrap_or(p));
                    }
                    None => {
                        let name = self.sm.file(f).name.clone();
                        if let Some(&(n, _)) = BUILTIN_HEADERS.iter().find(|(n, _)| name.ends_with(n)) {
                            self.builtin_once.insert(n);
                        }
                    }
                }
            }
            "unroll" | "nounroll" => {
                let count = if self.interner.str(first.text) == "nounroll" {
                    Some(1)
                } else if line.len() == 1 {
                    Some(0)
                } else {
                    let rest = self.expand_list(&line[1..]);
                    let toks: Result<Vec<_>, String> = rest.iter().map(|t| expr::classify(t.kind, self.interner.str(t.text))).collect();
                    match toks.map_err(|e| (0, e)).and_then(|t| expr::eval(&t)) {
                        Ok(v) if v.v > 0 && v.v <= u32::MAX as i64 => Some(v.v as u32),
                        Ok(_) => {
                            self.diags
                                .push(Diagnostic::error(dspan.to(line[line.len() - 1].span), "#pragma unroll count must be positive"));
                            None
                        }
                        Err((_, m)) => {
                            self.diags.push(Diagnostic::error(
                                line[1].span.to(line[line.len() - 1].span),
                                format!("invalid #pragma unroll count: {m}"),
                            ));
                            None
                        }
                    }
                };
                if let Some(n) = count {
                    let text = self.interner.intern(&n.to_string());
                    self.pending.push(Pending::Tok(Token {
                        kind: TokenKind::PragmaUnroll,
                        text,
                        span: dspan.to(line[line.len() - 1].span),
                        flags: AT_BOL,
                        expansion: 0,
                    }));
                }
            }
            // Other pragmas (GCC diagnostic, pack, message, ...) do not change device code.
            _ => {}
        }
    }

    fn open_cond(&mut self, span: Span, taken: bool) {
        let frame = self.frames.last_mut().expect("frame");
        frame.conds.push(Cond { taken, saw_else: false, span });
        if !taken {
            self.skip_group();
        }
    }

    /// Skips lines of an `#if` group until a directive that ends or switches it (`#elif`
    /// that holds, `#else`, `#endif`), handling nested groups.
    fn skip_group(&mut self) {
        let mut depth = 0usize;
        loop {
            let frame = self.frames.last_mut().expect("frame");
            let raw = frame.cur;
            let file = frame.file;
            if raw.kind == TokenKind::Eof {
                return; // reported when the file ends
            }
            frame.step(self.sm, &mut self.diags, &mut self.lex_errs);
            if !(raw.kind == TokenKind::Punct(Punct::Hash) && raw.flags & AT_BOL != 0) {
                continue;
            }
            let next = frame.cur;
            if next.kind != TokenKind::Ident || next.flags & AT_BOL != 0 {
                continue;
            }
            frame.step(self.sm, &mut self.diags, &mut self.lex_errs);
            let name = self.raw_text(file, &next).to_string();
            let dspan = Span { file, lo: raw.lo, hi: next.hi };
            match name.as_str() {
                "if" | "ifdef" | "ifndef" => {
                    depth += 1;
                    self.skip_line();
                }
                "endif" if depth > 0 => {
                    depth -= 1;
                    self.skip_line();
                }
                "endif" => {
                    self.skip_line();
                    self.frames.last_mut().expect("frame").conds.pop();
                    return;
                }
                "else" | "elif" | "elifdef" | "elifndef" if depth == 0 => {
                    let frame = self.frames.last_mut().expect("frame");
                    let c = *frame.conds.last().expect("an open group");
                    if c.saw_else {
                        self.skip_line();
                        self.diags.push(Diagnostic::error(dspan, format!("#{name} after #else")).note(Some(c.span), "the #if is here"));
                        continue;
                    }
                    let holds = if c.taken {
                        self.skip_line();
                        false
                    } else if name == "else" {
                        self.skip_line();
                        true
                    } else if name == "elif" {
                        let line = self.line_tokens();
                        self.eval_if(dspan, &line)
                    } else {
                        let line = self.line_tokens();
                        match line.first() {
                            Some(t) if t.kind == TokenKind::Ident => self.macros.contains_key(&t.text) == (name == "elifdef"),
                            _ => false,
                        }
                    };
                    let frame = self.frames.last_mut().expect("frame");
                    let c = frame.conds.last_mut().expect("an open group");
                    c.saw_else = name == "else";
                    if holds {
                        c.taken = true;
                        return;
                    }
                }
                _ => self.skip_line(),
            }
        }
    }

    /// Evaluates an `#if`/`#elif` line: `defined X`, `__has_include(...)`, then macro
    /// expansion, then the constant expression. Errors count as false.
    fn eval_if(&mut self, dspan: Span, line: &[Token]) -> bool {
        // 1. `defined` and `__has_include` before expansion.
        let mut pre = Vec::with_capacity(line.len());
        let mut i = 0;
        let one = self.interner.intern("1");
        let zero = self.interner.intern("0");
        while i < line.len() {
            let t = line[i];
            if t.text == self.a.defined || t.text == self.a.has_include {
                let is_defined = t.text == self.a.defined;
                let paren = line.get(i + 1).is_some_and(|n| n.kind == TokenKind::Punct(Punct::LParen));
                let (value, used) = if is_defined {
                    let name_at = if paren { i + 2 } else { i + 1 };
                    match line.get(name_at) {
                        Some(n) if n.kind == TokenKind::Ident => {
                            let close_ok = !paren || line.get(name_at + 1).is_some_and(|c| c.kind == TokenKind::Punct(Punct::RParen));
                            if !close_ok {
                                self.diags.push(Diagnostic::error(n.span, "expected ')' after the macro name in 'defined('"));
                                return false;
                            }
                            (self.macros.contains_key(&n.text), if paren { name_at + 2 - i } else { 2 })
                        }
                        _ => {
                            self.diags.push(Diagnostic::error(t.span, "'defined' needs a macro name"));
                            return false;
                        }
                    }
                } else {
                    // __has_include("x") / __has_include(<x>)
                    let Some(close) = line[i..].iter().position(|c| c.kind == TokenKind::Punct(Punct::RParen)) else {
                        self.diags.push(Diagnostic::error(t.span, "expected '(' ... ')' after __has_include"));
                        return false;
                    };
                    let inner = &line[i + 2..i + close];
                    let found = match self.header_name(inner) {
                        Some((name, angled)) => self.find_include(&name, angled).is_some(),
                        None => false,
                    };
                    (found, close + 1)
                };
                pre.push(Token { kind: TokenKind::Number, text: if value { one } else { zero }, ..t });
                i += used;
                continue;
            }
            pre.push(t);
            i += 1;
        }
        // 2. Expansion.
        let toks = self.expand_list(&pre);
        // 3. Evaluation.
        let mut classified = Vec::with_capacity(toks.len());
        for t in &toks {
            match expr::classify(t.kind, self.interner.str(t.text)) {
                Ok(c) => classified.push(c),
                Err(m) => {
                    self.error_at(*t, m);
                    return false;
                }
            }
        }
        match expr::eval(&classified) {
            Ok(v) => v.truthy(),
            Err((at, m)) => {
                match toks.get(at) {
                    Some(t) => self.error_at(*t, m),
                    None => self.diags.push(Diagnostic::error(dspan, m)),
                }
                false
            }
        }
    }

    fn define(&mut self, dspan: Span) {
        let line = self.line_tokens();
        let Some(&name) = line.first() else {
            self.diags.push(Diagnostic::error(dspan, "#define needs a macro name"));
            return;
        };
        if name.kind != TokenKind::Ident {
            self.diags.push(Diagnostic::error(name.span, "macro names must be identifiers"));
            return;
        }
        if name.text == self.a.defined {
            self.diags.push(Diagnostic::error(name.span, "'defined' cannot be used as a macro name"));
            return;
        }
        let mut i = 1;
        let mut params = None;
        let mut variadic = false;
        // Function-like: `(` right after the name, without a space.
        if line.get(1).is_some_and(|t| t.kind == TokenKind::Punct(Punct::LParen) && t.flags & SPACE_BEFORE == 0) {
            let mut ps = Vec::new();
            i = 2;
            loop {
                let Some(t) = line.get(i) else {
                    self.diags.push(Diagnostic::error(name.span, "missing ')' in the macro parameter list"));
                    return;
                };
                match t.kind {
                    TokenKind::Punct(Punct::RParen) if ps.is_empty() || variadic => {
                        i += 1;
                        break;
                    }
                    TokenKind::Punct(Punct::Ellipsis) if !variadic => {
                        variadic = true;
                        ps.push(self.a.va_args);
                    }
                    TokenKind::Ident if !variadic => {
                        if ps.contains(&t.text) {
                            self.diags
                                .push(Diagnostic::error(t.span, format!("duplicate macro parameter '{}'", self.interner.str(t.text))));
                            return;
                        }
                        ps.push(t.text);
                        // GNU named variadic parameter `args...`.
                        if line.get(i + 1).is_some_and(|n| n.kind == TokenKind::Punct(Punct::Ellipsis)) {
                            if !line.get(i + 2).is_some_and(|n| n.kind == TokenKind::Punct(Punct::RParen)) {
                                self.diags.push(Diagnostic::error(line[i + 1].span, "expected ')' after a variadic parameter"));
                                return;
                            }
                            variadic = true;
                            let last = ps.pop().expect("param");
                            ps.push(self.a.va_args);
                            // Uses of the name in the body mean __VA_ARGS__.
                            let va = self.a.va_args;
                            let body: Vec<Token> =
                                line[i + 3..].iter().map(|t| if t.text == last { Token { text: va, ..*t } } else { *t }).collect();
                            return self.define_from(name, &body, 0, Some(ps), variadic);
                        }
                    }
                    _ => {
                        self.diags.push(Diagnostic::error(t.span, "expected a parameter name, '...' or ')' in the macro parameter list"));
                        return;
                    }
                }
                i += 1;
                match line.get(i) {
                    Some(t) if t.kind == TokenKind::Punct(Punct::Comma) => i += 1,
                    Some(t) if t.kind == TokenKind::Punct(Punct::RParen) => {
                        i += 1;
                        break;
                    }
                    Some(t) => {
                        self.diags.push(Diagnostic::error(t.span, "expected ',' or ')' in the macro parameter list"));
                        return;
                    }
                    None => {
                        self.diags.push(Diagnostic::error(name.span, "missing ')' in the macro parameter list"));
                        return;
                    }
                }
            }
            params = Some(ps);
        }
        self.define_from(name, &line, i, params, variadic);
    }

    fn define_from(&mut self, name: Token, line: &[Token], body_at: usize, params: Option<Vec<Atom>>, variadic: bool) {
        let mut body: Vec<Token> = line[body_at.min(line.len())..].to_vec();
        if let Some(first) = body.first_mut() {
            first.flags &= !SPACE_BEFORE;
        }
        if body.first().is_some_and(|t| t.kind == TokenKind::Punct(Punct::HashHash))
            || body.last().is_some_and(|t| t.kind == TokenKind::Punct(Punct::HashHash))
        {
            let sp = if body[0].kind == TokenKind::Punct(Punct::HashHash) { body[0].span } else { body[body.len() - 1].span };
            self.diags.push(Diagnostic::error(sp, "'##' cannot appear at either end of a macro body"));
            return;
        }
        if let Some(ps) = &params {
            for (k, t) in body.iter().enumerate() {
                if t.kind == TokenKind::Punct(Punct::Hash) {
                    let ok = body.get(k + 1).is_some_and(|n| ps.contains(&n.text));
                    if !ok {
                        self.diags.push(Diagnostic::error(t.span, "'#' is not followed by a macro parameter"));
                        return;
                    }
                }
            }
        } else {
            for t in &body {
                if t.text == self.a.va_args {
                    self.diags.push(Diagnostic::warning(t.span, "__VA_ARGS__ can only appear in the body of a variadic macro"));
                }
            }
        }
        if self.macros.get(&name.text).is_some_and(|m| m.dynamic) {
            self.diags.push(Diagnostic::warning(name.span, format!("redefining builtin macro '{}'", self.interner.str(name.text))));
        }
        let new = Macro { params, variadic, body, def: name.span, dynamic: false };
        if let Some(old) = self.macros.get(&name.text) {
            if !old.dynamic && !same_definition(self.interner, old, &new) && !self.is_command_line(old.def) {
                let d = Diagnostic::warning(name.span, format!("'{}' macro redefined", self.interner.str(name.text)))
                    .note(Some(old.def), "previous definition is here");
                self.diags.push(d);
            }
        }
        self.macros.insert(name.text, std::sync::Arc::new(new));
    }

    fn is_command_line(&self, s: Span) -> bool {
        self.sm.file(s.file).kind == FileKind::CommandLine
    }

    /// `"name"` or `<name>` from directive tokens (after expansion if needed).
    fn header_name(&mut self, toks: &[Token]) -> Option<(String, bool)> {
        let first = *toks.first()?;
        match first.kind {
            TokenKind::Str => {
                let t = self.interner.str(first.text);
                Some((t.trim_matches('"').to_string(), false))
            }
            TokenKind::Punct(Punct::Lt) => {
                // The spelling between `<` and `>`, from the source text.
                let close = toks.iter().position(|t| t.kind == TokenKind::Punct(Punct::Gt))?;
                if close == 1 {
                    return None;
                }
                let (a, b) = (toks[1].span, toks[close - 1].span);
                let name = if a.file == b.file && a.lo <= b.hi {
                    self.sm.file(a.file).text[a.lo as usize..b.hi as usize].to_string()
                } else {
                    toks[1..close].iter().map(|t| self.interner.str(t.text)).collect()
                };
                Some((name, true))
            }
            _ => None,
        }
    }

    /// Where `#include` finds `name`: a path, or a built-in header.
    fn find_include(&self, name: &str, angled: bool) -> Option<Found> {
        if !angled {
            if let Some(dir) = self.frames.last().and_then(|f| self.sm.file(f.file).path.as_ref()).and_then(|p| p.parent()) {
                let p = dir.join(name);
                if self.config.is_file(&p) {
                    return Some(Found::Path(p));
                }
            }
        }
        for d in &self.config.include_dirs {
            let p = d.join(name);
            if self.config.is_file(&p) {
                return Some(Found::Path(p));
            }
        }
        if let Some(&(n, text)) = BUILTIN_HEADERS.iter().find(|(n, _)| *n == name) {
            return Some(Found::Builtin(n, text));
        }
        if !angled && Path::new(name).is_absolute() && self.config.is_file(Path::new(name)) {
            return Some(Found::Path(PathBuf::from(name)));
        }
        None
    }

    fn include(&mut self, dspan: Span) {
        let line = self.line_tokens();
        let header = match self.header_name(&line) {
            Some(h) => Some(h),
            None => {
                // `#include MACRO`
                let expanded = self.expand_list(&line);
                self.header_name(&expanded)
            }
        };
        let Some((name, angled)) = header else {
            self.diags.push(Diagnostic::error(dspan, "#include expects \"FILENAME\" or <FILENAME>"));
            return;
        };
        if self.frames.len() >= MAX_INCLUDE_DEPTH {
            self.diags
                .push(Diagnostic::error(dspan, format!("#include nested more than {MAX_INCLUDE_DEPTH} deep (a file including itself?)")));
            return;
        }
        match self.find_include(&name, angled) {
            Some(Found::Path(p)) => {
                let key = p.canonicalize().unwrap_or_else(|_| p.clone());
                if self.pragma_once.contains(&key) {
                    return;
                }
                match self.config.read(&p) {
                    Ok(text) => {
                        let f = self.sm.add(p.display().to_string(), Some(&p), text, FileKind::User);
                        self.push_file(f, Some(dspan));
                    }
                    Err(e) => self.diags.push(Diagnostic::error(dspan, format!("cannot read '{}': {e}", p.display()))),
                }
            }
            Some(Found::Builtin(n, text)) => {
                if self.builtin_once.contains(n) {
                    return;
                }
                let f = self.sm.add(format!("<built-in>/{n}"), None, text, FileKind::Builtin);
                self.push_file(f, Some(dspan));
            }
            None if angled => {
                // A system header cuprite does not ship: what device code needs from it is
                // declared by cuprite's own headers; host code using it is not compiled.
                // Host code (which is what needs it) is read tolerantly: a host-code note.
                let mut d = Diagnostic::warning(dspan, format!("system header <{name}> is not shipped with cuprite; skipped"));
                d.severity = crate::Severity::Host;
                self.diags.push(d);
            }
            None => self.diags.push(Diagnostic::error(dspan, format!("'{name}' file not found"))),
        }
    }
}

enum Found {
    Path(PathBuf),
    Builtin(&'static str, &'static str),
}

enum Expanded {
    /// The expansion is on the pending stack (or an error was reported).
    Done,
    /// Not expanded: return this token.
    NotAMacroCall(Token),
}

fn same_definition(i: &Interner, a: &Macro, b: &Macro) -> bool {
    a.params == b.params
        && a.variadic == b.variadic
        && a.body.len() == b.body.len()
        && a.body
            .iter()
            .zip(&b.body)
            .enumerate()
            .all(|(k, (x, y))| i.str(x.text) == i.str(y.text) && (k == 0 || (x.flags & SPACE_BEFORE != 0) == (y.flags & SPACE_BEFORE != 0)))
}

/// Prints tokens as text, one output line per source line start (for tests and `-E`).
/// Prints the token stream as text (`-E`). The content of cuprite's built-in headers (and
/// what their own macros expand to there) is left out: it is part of the compiler, not of
/// the user's translation unit; expansions of the headers' macros in the user's code stay.
pub fn print_tokens(tokens: &[Token], interner: &Interner, sm: &SourceMap, expansions: &[Expansion]) -> String {
    let mut s = String::new();
    for (i, t) in tokens.iter().enumerate() {
        if from_builtin_header(t, sm, expansions) {
            continue;
        }
        match t.kind {
            TokenKind::Eof => break,
            TokenKind::PragmaUnroll => {
                let n: u32 = interner.str(t.text).parse().unwrap_or(0);
                if !s.is_empty() && !s.ends_with('\n') {
                    s.push('\n');
                }
                if n == 0 {
                    s.push_str("#pragma unroll\n");
                } else {
                    s.push_str(&format!("#pragma unroll {n}\n"));
                }
                continue;
            }
            _ => {}
        }
        if i > 0 && t.flags & AT_BOL != 0 && !s.is_empty() && !s.ends_with('\n') {
            s.push('\n');
        } else if i > 0 && t.flags & SPACE_BEFORE != 0 && !s.is_empty() && !s.ends_with('\n') {
            s.push(' ');
        }
        s.push_str(interner.str(t.text));
    }
    if !s.is_empty() && !s.ends_with('\n') {
        s.push('\n');
    }
    s
}

/// Whether `t` comes from a built-in header: spelled there, or made by a macro invoked
/// there.
pub fn from_builtin_header(t: &Token, sm: &SourceMap, expansions: &[Expansion]) -> bool {
    let mut e = t.expansion;
    let mut span = t.span;
    let mut guard = 0;
    while e != 0 && guard < 1000 {
        let Some(x) = expansions.get(e as usize) else { break };
        span = x.call;
        e = x.parent;
        guard += 1;
    }
    sm.file(span.file).kind == FileKind::Builtin
}
