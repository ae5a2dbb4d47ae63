//! The preamble: the frontend's state after the predefined macros and the implicit
//! `cuda_runtime.h`, before the main file's first token, kept to compile many main files
//! from (an editor's edits, see the driver's incremental database).
//!
//! Every translation unit starts with the same 60 KB of built-in headers, read the same way
//! for the same flags: on a small file they are most of the frontend's time. So the
//! frontend reads them once, in three stages that stop where the main file would begin:
//! - the preprocessor ([`Preprocessor::new_preamble`]) gives `Eof` when only the main file
//!   is left, and [`Preprocessor::suspend`] keeps its macros, conditionals, counters and
//!   expansion records;
//! - the parser ([`parse::parse_preamble`]) parses up to that `Eof` and keeps its scopes of
//!   type and template names;
//! - sema declares what the headers declare ([`Sema::top_decl`]) and keeps its tables and
//!   its `cuda` module so far ([`Sema::suspend`]).
//!
//! The source map, interner and syntax tree are kept with them (the tree frozen: each
//! compile's tree grows on it without copying it, [`crate::ast::AstBase`]). The main file has its
//! number already (the first file, as when nothing is kept): [`Preamble::lower`] puts the
//! real one in its place and resumes the three stages, which then read the `-include`
//! files and the main file as if they had never stopped. Every compile goes this way
//! ([`crate::parse_and_lower`] makes a preamble and uses it at once), so a compile from a
//! kept preamble's copy ([`Clone`]) gives what a compile from nothing gives, byte for byte.
//!
//! A preamble depends on the preprocessor's configuration but for its `-include` files
//! (which are read after it), and on the files it looked for: the built-in headers are
//! found in the include directories first. [`Preambles`] keeps them by both.

use crate::ast::{Ast, AstBase};
use crate::intern::Interner;
use crate::parse::{self, tokens::Tokens, ParserState};
use crate::pp::{PpConfig, PpState, Preprocessor};
use crate::sema::bodies::{Bodies, BodyMemo};
use crate::sema::{Sema, SemaOptions, SemaState};
use crate::source::{FileId, FileKind, SourceMap};
use crate::{Lowered, Parsed};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The frontend stopped after the implicit headers (see the module's documentation).
#[derive(Clone)]
pub struct Preamble {
    sm: SourceMap,
    interner: Interner,
    /// Shared by the copies: each compile's tree grows on it.
    ast: AstBase,
    pp: PpState,
    parser: ParserState,
    sema: SemaState,
    /// This preamble's number (its copies share it): where the environment of kernel
    /// bodies starts ([`crate::sema::bodies`]).
    id: u64,
}

/// What the preamble's files are about the size of, for the parser's token window.
const PREAMBLE_BYTES: usize = 64 << 10;

/// The main file's number: the first file, before the preprocessor's scratch files.
const MAIN: FileId = FileId(0);

impl Preamble {
    /// Reads the predefined macros and the implicit headers with `config` (its `-include`
    /// files are not read: they come after the preamble).
    pub fn new(config: PpConfig<'_>, options: SemaOptions) -> Preamble {
        let mut sm = SourceMap::default();
        let mut interner = Interner::default();
        // The main file, unnamed and empty until `lower`.
        let main = sm.add("", None, "", FileKind::User);
        debug_assert_eq!(main, MAIN);
        let prelude = parse::tokens::Prelude::new(&mut interner);
        let ast = Ast::default();
        let pp = Preprocessor::new_preamble(&mut sm, &mut interner, main, config);
        let (parser, src) = parse::parse_preamble(Tokens::Direct(pp), prelude, PREAMBLE_BYTES, &ast);
        let Tokens::Direct(pp) = src else { unreachable!("the source stays direct") };
        let (pp, _) = pp.suspend();
        let names = interner.names();
        let mut s = Sema::new(&ast, &names, sm.infos_from(0), options, 0);
        for i in 0..ast.top.len() {
            s.top_decl(ast.top[i]);
        }
        let (mut sema, _) = s.suspend();
        sema.share();
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        let id = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Preamble { sm, interner, ast: ast.freeze(), pp, parser, sema, id }
    }

    /// Preprocesses, parses and checks the main file `text` (named `name`, at `path`) after
    /// the preamble, with `config` (the preamble's, and the `-include` files read before
    /// the main file): [`crate::parse_and_lower`]'s result. With `overlap` (and a thread to
    /// be had) sema runs on this thread while the parser and the preprocessor run on
    /// another, taking each top-level declaration as soon as it is parsed.
    pub fn lower(self, name: &str, path: Option<&Path>, text: &str, config: PpConfig<'_>, overlap: bool) -> (Parsed, Lowered) {
        let (p, l, _) = self.lower_with(name, path, text, config, overlap, true, None);
        (p, l)
    }

    /// [`Preamble::lower`] without verifying the emitted IR: the caller verifies what it
    /// needs to with [`crate::sema::verify_emitted`] (the incremental database, only the
    /// functions that changed since a compile that verified).
    pub fn lower_unverified(self, name: &str, path: Option<&Path>, text: &str, config: PpConfig<'_>, overlap: bool) -> (Parsed, Lowered) {
        let (p, l, _) = self.lower_with(name, path, text, config, overlap, false, None);
        (p, l)
    }

    /// [`Preamble::lower_unverified`] keeping track of the main file's pure kernel bodies,
    /// and reusing those of `memo` (an earlier compile's, from this preamble or a copy of
    /// it) where they are known: the module then has stubs for them
    /// ([`crate::sema::bodies`]).
    pub fn lower_reusing(
        self,
        name: &str,
        path: Option<&Path>,
        text: &str,
        config: PpConfig<'_>,
        overlap: bool,
        memo: Option<Arc<BodyMemo>>,
    ) -> (Parsed, Lowered, Bodies) {
        self.lower_with(name, path, text, config, overlap, false, Some(memo))
    }

    #[allow(clippy::too_many_arguments)]
    fn lower_with(
        self,
        name: &str,
        path: Option<&Path>,
        text: &str,
        config: PpConfig<'_>,
        overlap: bool,
        verify: bool,
        bodies: Option<Option<Arc<BodyMemo>>>,
    ) -> (Parsed, Lowered, Bodies) {
        if overlap {
            let options = self.sema.options().clone();
            let id = self.id;
            if let Some(r) = self.lower_overlapped(name, path, text, config.clone(), verify, bodies.clone()) {
                return r;
            }
            // No thread to be had: the same on this one, from the start (the same
            // environment for kernel bodies: the same preamble's).
            let mut again = Preamble::new(config.clone(), options);
            again.id = id;
            return again.lower_with(name, path, text, config, false, verify, bodies);
        }
        let Preamble { mut sm, mut interner, ast, pp, parser, sema, id } = self;
        let ast = Ast::on(&ast);
        sm.replace(MAIN, name, path, text, FileKind::User);
        let top = ast.top.len();
        if let Some(memo) = bodies {
            // Sema construct by construct as the parser finishes them, so that the parser
            // can ask it whether it knows a kernel body (and skip it), as below but for
            // the order of work.
            let names = interner.names();
            let mut sent = sm.files.len();
            let sema = std::cell::RefCell::new(Sema::resume(&ast, &names, sema, sm.infos_from(0), text.len() / 4));
            sema.borrow_mut().reuse_bodies(id, memo);
            let mut done = top;
            let (parse_diags, (mut diags, expansions)) = {
                let mut on_top = |src: &Tokens<'_>| {
                    let Tokens::Direct(pp) = src else { unreachable!("the source is direct") };
                    let files = pp.sm.infos_from(sent);
                    sent += files.len();
                    let mut s = sema.borrow_mut();
                    s.add_files(files);
                    let now = ast.top.len();
                    for i in done..now {
                        s.top_decl_at(i);
                    }
                    done = now;
                    true
                };
                let mut known = |head, body| sema.borrow().knows_body(head, body);
                let pp = Preprocessor::resume(&mut sm, &mut interner, config, pp);
                let (parse_diags, src) =
                    parse::parse_resumed(Tokens::Direct(pp), parser, text.len(), &ast, Some(&mut on_top), Some(&mut known));
                let Tokens::Direct(pp) = src else { unreachable!("the source stays direct") };
                (parse_diags, pp.finish())
            };
            diags.extend(parse_diags);
            let mut s = sema.into_inner();
            s.add_files(sm.infos_from(sent));
            for i in done..ast.top.len() {
                s.top_decl_at(i);
            }
            let bodies = s.take_bodies();
            let lowered = s.finish_with(verify);
            return (Parsed { sm, interner, ast, diags, expansions }, lowered, bodies);
        }
        let pp = Preprocessor::resume(&mut sm, &mut interner, config, pp);
        let (parse_diags, src) = parse::parse_resumed(Tokens::Direct(pp), parser, text.len(), &ast, None, None);
        let Tokens::Direct(pp) = src else { unreachable!("the source stays direct") };
        let (mut diags, expansions) = pp.finish();
        diags.extend(parse_diags);
        let names = interner.names();
        let mut s = Sema::resume(&ast, &names, sema, sm.infos_from(0), text.len() / 4);
        if let Some(memo) = bodies {
            s.reuse_bodies(id, memo);
        }
        for i in top..ast.top.len() {
            s.top_decl_at(i);
        }
        let bodies = s.take_bodies();
        let lowered = s.finish_with(verify);
        (Parsed { sm, interner, ast, diags, expansions }, lowered, bodies)
    }

    /// [`Preamble::lower`] with the parser on a thread of its own; `None` if the thread
    /// cannot be started.
    fn lower_overlapped(
        self,
        name: &str,
        path: Option<&Path>,
        text: &str,
        config: PpConfig<'_>,
        verify: bool,
        bodies: Option<Option<Arc<BodyMemo>>>,
    ) -> Option<(Parsed, Lowered, Bodies)> {
        let Preamble { mut sm, mut interner, ast, pp, parser, sema, id } = self;
        let ast = Ast::on(&ast);
        sm.replace(MAIN, name, path, text, FileKind::User);
        let top = ast.top.len();
        let names = interner.names();
        let files = sm.infos_from(0);
        // Per finished top-level construct: the files read since the last one, and how many
        // top-level declarations there are now.
        let (tx, rx) = std::sync::mpsc::channel::<(Vec<crate::source::FileInfo>, usize)>();
        let (parse_out, lowered) = std::thread::scope(|s| {
            let (sm_w, interner_w, ast_w) = (&mut sm, &mut interner, &ast);
            let tracked = bodies.is_some();
            let parser =
                std::thread::Builder::new().name("cuprite-parse".into()).stack_size(crate::PARSE_STACK).spawn_scoped(s, move || {
                    // Keys for sema's kernel bodies when it keeps track of them; the parser
                    // cannot ask it about a body (it is ahead of sema): none is skipped.
                    let mut never = |_: u128, _: u128| false;
                    let keys: Option<&mut dyn FnMut(u128, u128) -> bool> = if tracked { Some(&mut never) } else { None };
                    let mut sent = sm_w.files.len();
                    let mut on_top = |src: &Tokens<'_>| {
                        let Tokens::Direct(pp) = src else { unreachable!("the source is direct") };
                        let files = pp.sm.infos_from(sent);
                        sent += files.len();
                        // No receiver: sema has stopped (it panicked, which is re-raised once
                        // this thread ends): stop parsing.
                        tx.send((files, ast_w.top.len())).is_ok()
                    };
                    let pp = Preprocessor::resume(sm_w, interner_w, config, pp);
                    let (parse_diags, src) = parse::parse_resumed(Tokens::Direct(pp), parser, text.len(), ast_w, Some(&mut on_top), keys);
                    let Tokens::Direct(pp) = src else { unreachable!("the source stays direct") };
                    (parse_diags, pp.finish())
                });
            let parser = parser.ok()?;
            let mut sema = Sema::resume(&ast, &names, sema, files, text.len() / 4);
            if let Some(memo) = bodies {
                sema.reuse_bodies(id, memo);
            }
            let mut done = top;
            for (files, top) in rx {
                sema.add_files(files);
                for i in done..top {
                    sema.top_decl_at(i);
                }
                done = top;
            }
            let parse_out = parser.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
            let bodies = sema.take_bodies();
            Some((parse_out, (sema.finish_with(verify), bodies)))
        })?;
        let (parse_diags, (mut diags, expansions)) = parse_out;
        diags.extend(parse_diags);
        let (lowered, bodies) = lowered;
        Some((Parsed { sm, interner, ast, diags, expansions }, lowered, bodies))
    }
}

/// Preambles kept for later compiles (an editor's, a watcher's), each with the flags it
/// was read with and what it found looking for files; [`Preambles::get`] gives a copy of
/// one that still holds, or reads a new one.
#[derive(Default)]
pub struct Preambles(Mutex<Vec<Kept>>);

struct Kept {
    key: Key,
    /// What the preprocessor asked its file source, and the answers.
    probes: Vec<Probe>,
    preamble: Preamble,
}

/// What a preamble is read with: the configuration but for its `-include` files and file
/// source, and sema's options.
#[derive(Clone, PartialEq, Eq)]
struct Key {
    include_dirs: Vec<PathBuf>,
    defines: Vec<(String, Option<String>)>,
    sm: u32,
    implicit_cuda_runtime: bool,
    max_expanded_tokens: usize,
    arch: u32,
}

impl Key {
    fn new(config: &PpConfig<'_>, options: &SemaOptions) -> Key {
        Key {
            include_dirs: config.include_dirs.clone(),
            defines: config.defines.clone(),
            sm: config.sm,
            implicit_cuda_runtime: config.implicit_cuda_runtime,
            max_expanded_tokens: config.max_expanded_tokens,
            arch: options.arch,
        }
    }
}

/// A question the preprocessor asked its file source while reading a preamble.
#[derive(Clone, PartialEq, Eq)]
enum Probe {
    IsFile(PathBuf, bool),
    Read(PathBuf, Option<String>),
}

impl Probe {
    /// Whether `config`'s file source answers the question as it did.
    fn holds(&self, config: &PpConfig<'_>) -> bool {
        match self {
            Probe::IsFile(p, was) => config.is_file(p) == *was,
            Probe::Read(p, was) => config.read(p).ok().as_ref() == was.as_ref(),
        }
    }
}

/// A file source that logs what is asked of it.
struct Logged<'a> {
    config: PpConfig<'a>,
    log: Mutex<Vec<Probe>>,
}

impl crate::pp::FileSource for Logged<'_> {
    fn is_file(&self, path: &Path) -> bool {
        let r = self.config.is_file(path);
        self.log.lock().unwrap_or_else(|e| e.into_inner()).push(Probe::IsFile(path.to_path_buf(), r));
        r
    }
    fn read(&self, path: &Path) -> std::io::Result<String> {
        let r = self.config.read(path);
        let logged = r.as_ref().ok().cloned();
        self.log.lock().unwrap_or_else(|e| e.into_inner()).push(Probe::Read(path.to_path_buf(), logged));
        r
    }
}

impl Preambles {
    /// How many preambles are kept (the oldest goes first).
    pub const LIMIT: usize = 4;

    /// A preamble for `config` and `options`: a copy of a kept one read with the same
    /// flags whose file lookups `config`'s file source still answers alike (asking them
    /// again, so that a caller recording what is read sees them), or a new one, kept.
    pub fn get(&self, config: &PpConfig<'_>, options: &SemaOptions) -> Preamble {
        let key = Key::new(config, options);
        {
            let mut kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(i) = kept.iter().position(|k| k.key == key && k.probes.iter().all(|p| p.holds(config))) {
                let k = kept.remove(i);
                let copy = k.preamble.clone();
                kept.push(k);
                return copy;
            }
        }
        let logged = Logged { config: config.clone(), log: Mutex::new(Vec::new()) };
        let mut reading = config.clone();
        reading.files = Some(&logged);
        let preamble = Preamble::new(reading, options.clone());
        let probes = logged.log.into_inner().unwrap_or_else(|e| e.into_inner());
        let copy = preamble.clone();
        let mut kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        kept.retain(|k| k.key != key);
        if kept.len() >= Self::LIMIT {
            kept.remove(0);
        }
        kept.push(Kept { key, probes, preamble });
        copy
    }
}
