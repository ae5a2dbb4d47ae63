//! Incremental recompilation with salsa: the database behind `cuprite lsp` and `cuprite
//! watch`.
//!
//! Only the driver knows salsa (DESIGN.md invariant 1), and salsa holds inputs and
//! outputs, never IR (invariant 4): each query builds its IR in a context of its own and
//! returns text and figures.
//!
//! # Inputs
//! - [`SourceFile`]: a path and its text (`None`: no such file). The main file and every
//!   header the preprocessor reads (or looks for) are inputs, read through
//!   [`Database::file`]: the first read of a path takes it from the disk; after that the
//!   editor (`cuprite lsp`'s open buffers) or the file watcher (`cuprite watch`) sets it.
//! - [`Unit`]: a translation unit, its main file and the `cuprite compile` flags it is
//!   compiled with.
//!
//! # Queries, and where each edit stops
//! ```text
//! module_parts(unit)      preprocess, parse, sema, link the math library, convert to
//!                         nvvm, inline (module-wide decisions); per function its key,
//!                         the structural fingerprint of its nvvm (cuprite_ir::fingerprint:
//!                         locations and interning order left out), and its nvvm text,
//!                         printed only for a key the database has not seen (KeyTexts)
//!   function_unit(fn)     one function's key, picked out of module_parts; equal key:
//!                         backdated, nothing after it runs
//!     function_ptx(fn)    the -O pipeline, selection and PTX of that function (LRU)
//!   module_ptx(unit)      the PTX file assembled from the pieces, in module order
//!   diagnostics(unit)     module_parts' diagnostics, and the function stage's placed at
//!                         their function's current place
//! ```
//! - a comment or whitespace edit, or one that moves functions without changing them:
//!   `module_parts` runs, every `function_unit` is unchanged, no function is recompiled;
//! - an edit inside one kernel's body: that kernel's `function_ptx` only;
//! - a header edit: the functions whose nvvm text it changes;
//! - an edit of a device function inlined into two kernels: those two kernels (after
//!   inlining the device function is part of them, and is gone from the module).
//!
//! The module stage reuses what the unit's last whole module stage left ([`reuse`]): when
//! only kernels changed, and kept their calls, intrinsics and `__shared__` variables,
//! only they (with what they call) are converted and inlined, in a module of their own,
//! and the other functions' results are taken as they were; a comment edit reuses every
//! function's. The result is the same either way (tested on every corpus file).
//!
//! The frontend reads again only the kernel bodies it cannot know: a kernel whose tokens,
//! and everything above it that could change what they mean, are what the unit's last
//! compile read, gets a stub, and its results (its `cuda` fingerprint and interface, its
//! outline, moved with it) are that compile's ([`cuprite_frontend::sema::bodies`]). Where
//! a stub's results cannot be taken (the whole module stage must run), the frontend runs
//! again reading every body. [`Database::take_frontend_runs`] says how it ran.
//!
//! The frontend runs per translation unit, not per function: it streams preprocessing,
//! parsing and sema in one pass (sema emits the `cuda` dialect one top-level declaration
//! at a time), and it costs a few milliseconds on an ordinary file, against tens to
//! hundreds for the functions' optimization, which is what is cached. What every file
//! starts with, the predefined macros and the implicit `cuda_runtime.h` (60 KB of
//! built-in headers, most of a small file's frontend time), is read once per set of flags:
//! [`Db::preambles`] keeps the frontend's state after it
//! ([`cuprite_frontend::preamble`]), keyed by the flags and by what its header lookups
//! found (a header in an include directory shadowing a built-in one is a new preamble),
//! and each compile resumes a copy. Like [`KeyTexts`], it lives beside salsa, not in it:
//! its lookups are asked again through [`Db::file`] on every use, so the query still
//! depends on those files. A function's PTX
//! depends on its place among the module's functions (label and depot numbers), so
//! inserting a function before others recompiles those after it.
//!
//! Functions are keyed by [`FnKey`] (translation unit, PTX symbol). Memory is bounded by
//! salsa's LRU: `function_ptx` keeps at most [`FUNCTION_LRU`] results, the per-unit
//! queries 32 units' (an editor's open files).

pub mod reuse;
pub mod unit;

use crate::compile::Args;
use cuprite_frontend::preamble::Preambles;
use salsa::Setter;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
pub use unit::{symbols_named, Diag, FuncPtx, FuncUnit, Item, ItemKind, KeyTexts, ModuleParts, Place, TypeAt};

/// How many function results `function_ptx` keeps (least recently used go first).
pub const FUNCTION_LRU: usize = 2048;

/// A file: its path and text (`None`: it does not exist or cannot be read).
#[salsa::input(debug)]
pub struct SourceFile {
    #[returns(ref)]
    pub path: PathBuf,
    #[returns(ref)]
    pub text: Option<Arc<str>>,
}

/// A translation unit: its main file and the `cuprite compile` flags.
#[salsa::input(debug)]
pub struct Unit {
    pub file: SourceFile,
    /// The main file's name as given (what `__FILE__` and diagnostics say).
    #[returns(ref)]
    pub name: String,
    #[returns(ref)]
    pub flags: Vec<String>,
}

/// One function of a translation unit, by its PTX symbol.
#[salsa::interned(debug)]
pub struct FnKey<'db> {
    pub unit: Unit,
    #[returns(ref)]
    pub symbol: String,
}

/// The database's interface for the queries.
#[salsa::db]
pub trait Db: salsa::Database {
    /// The input for the file at `path`, read from the disk the first time.
    fn file(&self, path: &Path) -> SourceFile;
    /// The texts of the files, as the inputs hold them (for the preprocessor, which reads
    /// through [`FileTexts`] and then registers what it read with [`Db::file`]).
    fn texts(&self) -> &FileTexts;
    /// Records that `function` was recompiled (for `cuprite watch` and the tests).
    fn recompiled(&self, function: &str);
    /// The functions' nvvm texts by key, so that the module stage prints only new ones.
    fn key_texts(&self) -> &KeyTexts;
    /// The frontend's state after the implicit headers, kept by flags (so that the module
    /// stage reads them once, not on every edit).
    fn preambles(&self) -> &Preambles;
    /// What each unit's last whole module stage left, so that an edit inside kernels
    /// converts and inlines those kernels only ([`reuse`]).
    fn module_memos(&self) -> &reuse::ModuleMemos;
}

/// The salsa database: the storage, the files by path, and logs of what ran.
#[salsa::db]
#[derive(Clone)]
pub struct Database {
    storage: salsa::Storage<Self>,
    files: Arc<Mutex<rustc_hash::FxHashMap<PathBuf, SourceFile>>>,
    texts: Arc<FileTexts>,
    /// The functions recompiled since the last [`Database::take_recompiled`].
    recompiled: Arc<Mutex<Vec<String>>>,
    key_texts: Arc<KeyTexts>,
    preambles: Arc<Preambles>,
    module_memos: Arc<reuse::ModuleMemos>,
    /// The queries salsa ran since the last [`Database::take_executed`] (with
    /// [`Database::with_events`]), by salsa's name for them (`function_ptx(Id(..))`).
    executed: Arc<Mutex<Option<Vec<String>>>>,
}

impl Default for Database {
    fn default() -> Self {
        Self::new(false)
    }
}

impl Database {
    /// A database; with `events`, salsa's `WillExecute` events are logged
    /// ([`Database::take_executed`]).
    pub fn new(events: bool) -> Self {
        let executed: Arc<Mutex<Option<Vec<String>>>> = Arc::new(Mutex::new(events.then(Vec::new)));
        let log = executed.clone();
        let storage = salsa::Storage::new(Some(Box::new(move |event: salsa::Event| {
            if let salsa::EventKind::WillExecute { database_key } = event.kind {
                if let Some(v) = lock(&log).as_mut() {
                    v.push(format!("{database_key:?}"));
                }
            }
        })));
        Database {
            storage,
            files: Default::default(),
            texts: Default::default(),
            recompiled: Default::default(),
            key_texts: Default::default(),
            preambles: Default::default(),
            module_memos: Default::default(),
            executed,
        }
    }

    /// The functions recompiled since the last call, in the order they were compiled.
    pub fn take_recompiled(&self) -> Vec<String> {
        std::mem::take(&mut *lock(&self.recompiled))
    }

    /// How the module stages since the last call ran ([`reuse`]), in order.
    pub fn take_module_stages(&self) -> Vec<reuse::ModuleStage> {
        self.module_memos.take_log()
    }

    /// How the frontend ran for each compile since the last call
    /// ([`reuse::FrontendRun`]: kernel bodies reused and read).
    pub fn take_frontend_runs(&self) -> Vec<reuse::FrontendRun> {
        self.module_memos.take_frontend_log()
    }

    /// The queries executed since the last call (empty without events).
    pub fn take_executed(&self) -> Vec<String> {
        lock(&self.executed).as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// Sets the text of the file at `path` (an editor's buffer, or what the disk has now);
    /// `None`: the file is gone.
    pub fn set_file_text(&mut self, path: &Path, text: Option<String>) {
        let key = normalize(path);
        let text: Option<Arc<str>> = text.map(Into::into);
        lock(&self.texts.0).insert(key.clone(), text.clone());
        let existing = lock(&self.files).get(&key).copied();
        match existing {
            Some(f) => {
                if f.text(self) != &text {
                    f.set_text(self).to(text);
                }
            }
            None => {
                let f = SourceFile::new(self, key.clone(), text);
                lock(&self.files).insert(key, f);
            }
        }
    }

    /// Re-reads `path` from the disk (after the file watcher saw it change).
    pub fn reload(&mut self, path: &Path) {
        let text = read_disk(path);
        self.set_file_text(path, text);
    }

    /// Whether the database has read `path`.
    pub fn knows(&self, path: &Path) -> bool {
        lock(&self.files).contains_key(&normalize(path))
    }

    /// A translation unit for the main file `path` with `flags` (`cuprite compile`'s,
    /// without the input and `-o`).
    pub fn unit(&self, path: &Path, flags: Vec<String>) -> Unit {
        let file = self.file(path);
        Unit::new(self, file, path.display().to_string(), flags)
    }
}

/// Runs `f` with a handle on `db` on a thread with a large stack (sema and the lowering
/// recurse over nesting), and gives back what it returns. The handle shares the storage;
/// a change to the inputs through `db` meanwhile cancels `f`'s queries (salsa's
/// cancellation: the call then returns `Err`).
pub fn on_worker<R: Send>(db: &Database, f: impl FnOnce(&Database) -> R + Send) -> Result<R, salsa::Cancelled> {
    let handle = db.clone();
    crate::compile::big_stack(move || salsa::Cancelled::catch(std::panic::AssertUnwindSafe(move || f(&handle))))
}

/// Compiles the functions of `unit` that need it on `threads` threads (0: one per core),
/// each with a handle on the database, so that [`module_ptx`] then finds them done: what
/// the batch compiler's per-function threads do, for a cold start or an edit that touches
/// many functions. Cancelled (`Err`) by an input change meanwhile.
pub fn prime(db: &Database, unit: Unit, threads: usize) -> Result<(), salsa::Cancelled> {
    let symbols: Vec<String> = on_worker(db, |db| module_parts(db, unit).funcs.iter().map(|f| f.symbol.clone()).collect())?;
    let threads = if threads == 0 { std::thread::available_parallelism().map_or(1, |n| n.get()) } else { threads };
    let threads = threads.clamp(1, symbols.len().max(1));
    if threads == 1 {
        return Ok(());
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<Result<(), salsa::Cancelled>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let (handle, next, symbols) = (db.clone(), &next, &symbols);
                std::thread::Builder::new().stack_size(256 << 20).spawn_scoped(s, move || {
                    salsa::Cancelled::catch(std::panic::AssertUnwindSafe(|| loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(sym) = symbols.get(i) else { break };
                        function_ptx(&handle, FnKey::new(&handle, unit, sym.clone()));
                    }))
                })
            })
            .collect();
        handles.into_iter().map(|h| h.map_or(Ok(()), |h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))).collect()
    });
    results.into_iter().collect()
}

#[salsa::db]
impl salsa::Database for Database {}

#[salsa::db]
impl Db for Database {
    fn file(&self, path: &Path) -> SourceFile {
        let key = normalize(path);
        if let Some(f) = lock(&self.files).get(&key) {
            return *f;
        }
        let text = self.texts.get(&key);
        let f = SourceFile::new(self, key.clone(), text);
        *lock(&self.files).entry(key).or_insert(f)
    }
    fn texts(&self) -> &FileTexts {
        &self.texts
    }
    fn recompiled(&self, function: &str) {
        lock(&self.recompiled).push(function.to_string());
    }
    fn key_texts(&self) -> &KeyTexts {
        &self.key_texts
    }
    fn preambles(&self) -> &Preambles {
        &self.preambles
    }
    fn module_memos(&self) -> &reuse::ModuleMemos {
        &self.module_memos
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The key a path is filed under: absolute, `.` and `..` folded where the file exists.
fn normalize(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()))
}

fn read_disk(path: &Path) -> Option<String> {
    let bytes = std::fs::read(path).ok()?;
    Some(String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}

/// The text of every file the database has read, by normalized path: the same texts as
/// the [`SourceFile`] inputs (set together), readable from any thread.
#[derive(Default)]
pub struct FileTexts(Mutex<rustc_hash::FxHashMap<PathBuf, Option<Arc<str>>>>);

impl FileTexts {
    /// The text at `key` (a normalized path): the one the inputs hold, or the disk's,
    /// which the next [`Db::file`] of the path then takes.
    fn get(&self, key: &Path) -> Option<Arc<str>> {
        if let Some(t) = lock(&self.0).get(key) {
            return t.clone();
        }
        let text: Option<Arc<str>> = read_disk(key).map(Arc::from);
        lock(&self.0).entry(key.to_path_buf()).or_insert(text).clone()
    }
}

/// The preprocessor's view of the database: it reads the inputs' texts and records each
/// path it reads or looks for; the query then reads those inputs through salsa
/// ([`Recorder::register`]), which makes them its dependencies.
struct Recorder<'a> {
    texts: &'a FileTexts,
    seen: Mutex<Vec<PathBuf>>,
}

impl Recorder<'_> {
    fn text(&self, path: &Path) -> Option<Arc<str>> {
        let key = normalize(path);
        let t = self.texts.get(&key);
        lock(&self.seen).push(key);
        t
    }
    /// Reads every recorded file through salsa, inside the running query.
    fn register(self, db: &dyn Db) {
        for p in self.seen.into_inner().unwrap_or_else(|e| e.into_inner()) {
            let _ = db.file(&p).text(db);
        }
    }
}

impl cuprite_frontend::pp::FileSource for Recorder<'_> {
    fn is_file(&self, path: &Path) -> bool {
        self.text(path).is_some()
    }
    fn read(&self, path: &Path) -> std::io::Result<String> {
        match self.text(path) {
            Some(t) => Ok(t.to_string()),
            None => Err(std::io::Error::new(std::io::ErrorKind::NotFound, "no such file")),
        }
    }
}

/// The flags of `unit`, parsed as `cuprite compile` parses them; `Err` with the message.
pub(crate) fn parse_flags(flags: &[String]) -> Result<Args, String> {
    let mut args = flags.to_vec();
    args.push("<unit>".into());
    match crate::compile::parse_args(&args)? {
        Some(a) => Ok(a),
        None => Err("--help is not a compile flag here".into()),
    }
}

/// The module stage of `unit` ([`unit::lower_module`]).
#[salsa::tracked(returns(ref), lru = 32)]
pub fn module_parts(db: &dyn Db, unit: Unit) -> ModuleParts {
    let file = unit.file(db);
    let name = unit.name(db).clone();
    let path = PathBuf::from(&name);
    let args = match parse_flags(unit.flags(db)) {
        Ok(a) => a,
        Err(m) => return error_parts(m),
    };
    let Some(text) = file.text(db).clone() else {
        return error_parts(format!("cannot read '{name}'"));
    };
    let files = Recorder { texts: db.texts(), seen: Mutex::new(Vec::new()) };
    let parts = unit::lower_module(
        &name,
        Some(&path),
        &text,
        &args,
        Some(&files),
        (db.key_texts(), db.preambles(), db.module_memos(), unit.flags(db)),
    );
    files.register(db);
    parts
}

fn error_parts(message: String) -> ModuleParts {
    let rendered = format!("error: {message}\n");
    ModuleParts {
        diagnostics: vec![Diag { severity: cuprite_frontend::Severity::Error, message, place: None, notes: Vec::new(), rendered }],
        has_errors: true,
        ..Default::default()
    }
}

/// One function's key: its unit from `module_parts` (`None` if the module has no such
/// function now).
#[salsa::tracked(returns(ref))]
pub fn function_unit<'db>(db: &'db dyn Db, key: FnKey<'db>) -> Option<(FuncUnit, String)> {
    let parts = module_parts(db, *key.unit(db));
    let symbol = key.symbol(db);
    parts.funcs.iter().find(|f| &f.symbol == symbol).map(|f| (f.clone(), parts.function_pipeline.clone()))
}

/// One function compiled: the `-O` pipeline, selection and its PTX.
#[salsa::tracked(returns(ref), lru = 2048)] // FUNCTION_LRU
pub fn function_ptx<'db>(db: &'db dyn Db, key: FnKey<'db>) -> FuncPtx {
    let Some((unit, pipeline)) = function_unit(db, key) else { return FuncPtx::default() };
    db.recompiled(&unit.symbol);
    let args = match parse_flags(key.unit(db).flags(db)) {
        Ok(a) => a,
        Err(m) => return FuncPtx { diagnostics: vec![(cuprite_frontend::Severity::Error, m)], ..Default::default() },
    };
    unit::compile_function(unit, pipeline, &args)
}

/// The PTX file of `unit`, assembled from its functions' PTX; `None` with errors.
#[salsa::tracked(returns(ref), lru = 32)]
pub fn module_ptx(db: &dyn Db, unit: Unit) -> Option<String> {
    let parts = module_parts(db, unit);
    if parts.has_errors {
        return None;
    }
    if let Some(w) = &parts.whole_ptx {
        return Some(w.clone());
    }
    let args = parse_flags(unit.flags(db)).ok()?;
    let mut pieces = Vec::with_capacity(parts.funcs.len());
    for f in &parts.funcs {
        let p = function_ptx(db, FnKey::new(db, unit, f.symbol.clone()));
        if p.diagnostics.iter().any(|d| d.0 == cuprite_frontend::Severity::Error) {
            return None;
        }
        pieces.push((p.prototype.clone(), p.text.clone()));
    }
    Some(cuprite_lowering::assemble_ptx(&cuprite_lowering::PtxOptions { sm: args.config.sm }, &parts.globals_ptx, pieces.iter()))
}

/// Every diagnostic of `unit`: the module stage's, then the function stage's, each placed
/// at its function's name.
#[salsa::tracked(returns(ref), lru = 32)]
pub fn diagnostics(db: &dyn Db, unit: Unit) -> Vec<Diag> {
    let parts = module_parts(db, unit);
    let mut out = parts.diagnostics.clone();
    if parts.has_errors || parts.whole_ptx.is_some() {
        return out;
    }
    for f in &parts.funcs {
        let p = function_ptx(db, FnKey::new(db, unit, f.symbol.clone()));
        if p.diagnostics.is_empty() {
            continue;
        }
        let item = parts.items.iter().find(|i| i.symbol == f.symbol);
        for (severity, message) in &p.diagnostics {
            let place = item.map(|i| i.place.clone());
            let at = place.as_ref().map(|p| format!("{}:{}:{}: ", p.file, p.start.0, p.start.1)).unwrap_or_default();
            let rendered = format!("{at}{}: {message} (in '{}')\n", severity.as_str(), f.symbol);
            out.push(Diag { severity: *severity, message: message.clone(), place, notes: Vec::new(), rendered });
        }
    }
    out
}
