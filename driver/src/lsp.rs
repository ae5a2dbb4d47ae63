//! `cuprite lsp`: a language server on stdio (the `lsp-server` and `lsp-types` crates)
//! over the incremental database ([`crate::incremental`]).
//!
//! What an editor gets:
//! - diagnostics on open and on change (debounced), for the file and for the headers the
//!   diagnostics point into; notes with places (macro expansions, template
//!   instantiations) as related information;
//! - hover: over a function's name, its PTX figures (instructions, virtual registers,
//!   local memory) from the current compile; elsewhere, the type of the expression that
//!   starts there;
//! - document symbols (the functions), go to definition (of a local variable, a parameter
//!   or a function), a code lens over
//!   each function with PTX (`PTX 120 instrs, 14 regs`);
//! - the requests `cuprite/ptx` (`{textDocument, position}`: the PTX of the function under
//!   the cursor) and `cuprite/ir` (the same with `level`: `cuda`, `nvvm` or `ptx`: that
//!   function's IR at that level).
//!
//! Threads: the main thread owns the database and does all input changes; compiles run on
//! a worker thread with a handle on the database. An edit that arrives while a compile
//! runs cancels it (salsa's cancellation: the worker's next query unwinds and drops its
//! handle) and a new compile starts after the debounce; requests are answered from the
//! last finished compile, so the editor never waits on one. Each `.cu` file opened is the
//! main file of a translation unit compiled with the flags `cuprite lsp` was started
//! with; headers opened are inputs only (their unsaved text is what units including them
//! read).

use crate::incremental::{self, Database, Diag, FuncPtx, ModuleParts, Place, Unit};
use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::Notification as _;
use lsp_types::request::Request as _;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

const USAGE: &str = "\
Usage: cuprite lsp [compile options]

A language server on stdin/stdout (LSP, JSON-RPC): diagnostics, hover with registers and
PTX instruction counts, document symbols, go to definition, code lenses per kernel, and the
requests `cuprite/ptx` and `cuprite/ir`. Every opened .cu file is compiled with the given
`cuprite compile` options (-O, -arch, -I, -D, ...). See the README for editor set-up.

Options:
  --debounce=<ms>   Wait this long after an edit before compiling (default 150)
";

/// Runs `cuprite lsp` on the process's stdin and stdout.
pub fn main(args: &[String], stdout: &mut dyn Write, stderr: &mut dyn Write) -> i32 {
    let mut flags = Vec::new();
    let mut debounce = 150u64;
    for a in args {
        match a.as_str() {
            "-h" | "--help" => {
                let _ = write!(stdout, "{USAGE}");
                return 0;
            }
            "--stdio" => {}
            _ if a.starts_with("--debounce=") => match a[11..].parse() {
                Ok(n) => debounce = n,
                Err(_) => {
                    let _ = writeln!(stderr, "error: --debounce needs milliseconds\n\n{USAGE}");
                    return 2;
                }
            },
            _ => flags.push(a.clone()),
        }
    }
    if let Err(m) = incremental::parse_flags(&flags) {
        let _ = writeln!(stderr, "error: {m}\n\n{USAGE}");
        return 2;
    }
    crate::quiet_panics();
    let (conn, io) = Connection::stdio();
    let code = match serve(&conn, flags, Duration::from_millis(debounce)) {
        Ok(()) => 0,
        Err(e) => {
            let _ = writeln!(stderr, "cuprite lsp: {e}");
            1
        }
    };
    drop(conn);
    let _ = io.join();
    code
}

/// What the server advertises.
fn capabilities() -> Value {
    json!({
        "textDocumentSync": { "openClose": true, "change": 2, "save": { "includeText": false } },
        "hoverProvider": true,
        "documentSymbolProvider": true,
        "definitionProvider": true,
        "codeLensProvider": { "resolveProvider": false },
        "positionEncoding": "utf-16",
        "experimental": { "cupriteRequests": ["cuprite/ptx", "cuprite/ir"] }
    })
}

/// An open document.
struct Doc {
    path: PathBuf,
    text: String,
    /// For a `.cu` file: its translation unit.
    unit: Option<Unit>,
    /// The last finished compile.
    last: Option<Arc<Compiled>>,
    /// Files its last diagnostics were published to.
    published: BTreeSet<String>,
    /// Machine registers per function from ptxas, for the PTX of `last` (when ptxas is
    /// installed): (that PTX, registers by symbol).
    registers: Option<(Arc<String>, BTreeMap<String, u32>)>,
}

/// A finished compile of a unit: what requests are answered from.
struct Compiled {
    /// The text it compiled (positions refer to it).
    text: String,
    parts: ModuleParts,
    diags: Vec<Diag>,
    funcs: BTreeMap<String, FuncPtx>,
    /// The PTX file (`None` with errors).
    ptx: Option<String>,
    /// The target, for ptxas.
    sm: u32,
}

/// What the main loop waits for.
enum Event {
    Msg(Message),
    /// A compile finished (`None`: cancelled by an edit).
    Done(String, Option<Box<Compiled>>),
    /// A compile hit an internal compiler error (the message).
    Failed(String, String),
    /// ptxas's register counts for a document's PTX.
    Registers(String, Arc<String>, BTreeMap<String, u32>),
    /// The client's stream ended.
    Closed,
}

/// The server loop on `conn`: initialize, then messages until `shutdown` and `exit`.
pub fn serve(conn: &Connection, flags: Vec<String>, debounce: Duration) -> Result<(), String> {
    let (id, _params) = conn.initialize_start().map_err(|e| format!("initialize: {e}"))?;
    let result = json!({ "capabilities": capabilities(), "serverInfo": { "name": "cuprite", "version": env!("CARGO_PKG_VERSION") } });
    conn.initialize_finish(id, result).map_err(|e| format!("initialize: {e}"))?;
    let (tx, rx) = mpsc::channel::<Event>();
    let fwd = tx.clone();
    let receiver = conn.receiver.clone();
    std::thread::spawn(move || {
        for m in receiver {
            if fwd.send(Event::Msg(m)).is_err() {
                return;
            }
        }
        let _ = fwd.send(Event::Closed);
    });
    let mut shutdown = false;
    let mut s =
        Server { db: Database::default(), flags, docs: BTreeMap::new(), dirty: BTreeSet::new(), due: None, running: None, debounce, tx };
    loop {
        let ev = match s.due {
            Some(due) => match rx.recv_timeout(due.saturating_duration_since(Instant::now())) {
                Ok(ev) => Some(ev),
                Err(mpsc::RecvTimeoutError::Timeout) => None,
                Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(()),
            },
            None => match rx.recv() {
                Ok(ev) => Some(ev),
                Err(_) => return Ok(()),
            },
        };
        match ev {
            None => {
                s.due = None;
                s.start_compile();
            }
            Some(Event::Closed) => return Ok(()),
            Some(Event::Failed(uri, message)) => {
                s.running = None;
                let d = json!({ "range": range_value(((0, 0), (0, 0))), "severity": 1, "source": "cuprite", "message": message });
                publish(conn, &uri, vec![d]);
                if !s.dirty.is_empty() && s.due.is_none() {
                    s.start_compile();
                }
            }
            Some(Event::Registers(uri, ptx, regs)) => {
                if let Some(d) = s.docs.get_mut(&uri) {
                    if d.last.as_ref().and_then(|c| c.ptx.as_ref()) == Some(&*ptx) {
                        d.registers = Some((ptx, regs));
                    }
                }
            }
            Some(Event::Done(uri, compiled)) => {
                s.running = None;
                if let Some(c) = compiled {
                    s.finished(conn, &uri, *c);
                }
                if !s.dirty.is_empty() && s.due.is_none() {
                    s.start_compile();
                }
            }
            Some(Event::Msg(Message::Request(req))) => {
                let resp = if req.method == lsp_types::request::Shutdown::METHOD {
                    shutdown = true;
                    Response::new_ok(req.id.clone(), Value::Null)
                } else if shutdown {
                    Response::new_err(req.id.clone(), lsp_server::ErrorCode::InvalidRequest as i32, "the server is shutting down".into())
                } else {
                    s.request(&req)
                };
                conn.sender.send(Message::Response(resp)).map_err(|e| e.to_string())?;
            }
            Some(Event::Msg(Message::Notification(n))) => {
                if n.method == lsp_types::notification::Exit::METHOD {
                    return if shutdown { Ok(()) } else { Err("exit without shutdown".into()) };
                }
                s.notification(conn, n);
            }
            Some(Event::Msg(Message::Response(_))) => {}
        }
    }
}

struct Server {
    db: Database,
    flags: Vec<String>,
    /// Open documents by URI.
    docs: BTreeMap<String, Doc>,
    /// Units (by URI) waiting for a compile.
    dirty: BTreeSet<String>,
    /// When the debounce ends.
    due: Option<Instant>,
    /// The URI being compiled.
    running: Option<String>,
    debounce: Duration,
    tx: mpsc::Sender<Event>,
}

impl Server {
    fn notification(&mut self, conn: &Connection, n: Notification) {
        use lsp_types::notification::{DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, DidSaveTextDocument};
        match n.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let Some(td) = n.params.get("textDocument") else { return };
                let (Some(uri), Some(text)) = (td["uri"].as_str(), td["text"].as_str()) else { return };
                let path = uri_to_path(uri);
                self.db.set_file_text(&path, Some(text.to_string()));
                let unit = is_main_file(&path).then(|| self.db.unit(&path, self.flags.clone()));
                self.docs.insert(
                    uri.to_string(),
                    Doc { path, text: text.to_string(), unit, last: None, published: BTreeSet::new(), registers: None },
                );
                self.changed(uri, Duration::ZERO);
            }
            DidChangeTextDocument::METHOD => {
                let Some(uri) = n.params["textDocument"]["uri"].as_str() else { return };
                let Some(doc) = self.docs.get_mut(uri) else { return };
                if let Some(changes) = n.params["contentChanges"].as_array() {
                    for c in changes {
                        let Some(new) = c["text"].as_str() else { continue };
                        match c.get("range") {
                            Some(r) if !r.is_null() => {
                                let a = offset_of(&doc.text, &r["start"]);
                                let b = offset_of(&doc.text, &r["end"]).max(a);
                                doc.text.replace_range(a..b, new);
                            }
                            _ => doc.text = new.to_string(),
                        }
                    }
                }
                let (path, text) = (doc.path.clone(), doc.text.clone());
                // Cancels a running compile (its worker unwinds and lets go of the storage).
                self.db.set_file_text(&path, Some(text));
                let uri = uri.to_string();
                let debounce = self.debounce;
                self.changed(&uri, debounce);
            }
            DidSaveTextDocument::METHOD => {}
            DidCloseTextDocument::METHOD => {
                let Some(uri) = n.params["textDocument"]["uri"].as_str() else { return };
                if let Some(doc) = self.docs.remove(uri) {
                    // What is on disk counts again.
                    self.db.reload(&doc.path);
                    for f in doc.published {
                        publish(conn, &f, Vec::new());
                    }
                }
                self.dirty.remove(uri);
            }
            _ => {}
        }
    }

    /// Marks the units an edit of `uri` may change for a compile after `wait`.
    /// A header changes every unit that read it, and may be one a unit looked for and
    /// did not find (then the unit's file list does not name it): every open unit is
    /// compiled again after a header edit; salsa reruns only those whose inputs changed.
    fn changed(&mut self, uri: &str, wait: Duration) {
        let header = self.docs.get(uri).is_some_and(|d| d.unit.is_none());
        for (u, d) in &self.docs {
            let uses = u == uri || header;
            if d.unit.is_some() && uses {
                self.dirty.insert(u.clone());
            }
        }
        if !self.dirty.is_empty() {
            self.due = Some(Instant::now() + wait);
        }
    }

    /// Starts compiling the next dirty unit, unless a compile is running.
    fn start_compile(&mut self) {
        if self.running.is_some() {
            return;
        }
        let Some(uri) = self.dirty.pop_first() else { return };
        let Some(doc) = self.docs.get(&uri) else { return };
        let Some(unit) = doc.unit else { return };
        let text = doc.text.clone();
        let handle = self.db.clone();
        let tx = self.tx.clone();
        self.running = Some(uri.clone());
        let job = move || {
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                incremental::prime(&handle, unit, 0)
                    .and_then(|()| salsa::Cancelled::catch(std::panic::AssertUnwindSafe(|| compile(&handle, unit, text))))
            }));
            drop(handle);
            let ev = match r {
                Ok(r) => Event::Done(uri, r.ok().map(Box::new)),
                // A bug of the compiler: shown as a diagnostic, and the server goes on.
                Err(payload) => Event::Failed(uri, crate::ice_message(&*payload)),
            };
            let _ = tx.send(ev);
        };
        if std::thread::Builder::new().name("cuprite-compile".into()).stack_size(256 << 20).spawn(job).is_err() {
            self.running = None;
        }
    }

    /// A compile finished: keep it, publish its diagnostics.
    fn finished(&mut self, conn: &Connection, uri: &str, c: Compiled) {
        let Some(doc) = self.docs.get_mut(uri) else { return };
        let main_name = doc.path.display().to_string();
        let mut by_file: BTreeMap<String, Vec<Value>> = BTreeMap::new();
        by_file.insert(uri.to_string(), Vec::new());
        for d in &c.diags {
            let (file_uri, place) = match &d.place {
                Some(p) if p.file != main_name && !p.file.starts_with('<') => (path_to_uri(Path::new(&p.file)), range(None, p)),
                Some(p) if p.file == main_name => (uri.to_string(), range(Some(&c.text), p)),
                _ => (uri.to_string(), ((0, 0), (0, 0))),
            };
            let related: Vec<Value> = d
                .notes
                .iter()
                .filter_map(|(m, p)| {
                    let p = p.as_ref().filter(|p| !p.file.starts_with('<'))?;
                    let text = (p.file == main_name).then_some(c.text.as_str());
                    Some(json!({ "location": { "uri": path_to_uri(Path::new(&p.file)), "range": range(text, p) }, "message": m }))
                })
                .collect();
            let mut message = d.message.clone();
            for (m, p) in &d.notes {
                if p.is_none() {
                    message.push_str(&format!("\nnote: {m}"));
                }
            }
            let severity = match d.severity {
                cuprite_frontend::Severity::Error => 1,
                cuprite_frontend::Severity::Warning => 2,
                _ => 3,
            };
            let mut v = json!({ "range": range_value(place), "severity": severity, "source": "cuprite", "message": message });
            if !related.is_empty() {
                v["relatedInformation"] = Value::Array(related);
            }
            by_file.entry(file_uri).or_default().push(v);
        }
        let old = std::mem::take(&mut doc.published);
        for f in old.difference(&by_file.keys().cloned().collect()) {
            publish(conn, f, Vec::new());
        }
        doc.published = by_file.keys().cloned().collect();
        for (f, ds) in by_file {
            publish(conn, &f, ds);
        }
        // Machine registers from ptxas, off the main thread.
        if let (Some(ptx), Some(ptxas)) = (&c.ptx, ptxas()) {
            let (ptx, sm, tx, uri) = (Arc::new(ptx.clone()), c.sm, self.tx.clone(), uri.to_string());
            std::thread::spawn(move || {
                if let Some(regs) = ptxas_registers(&ptxas, &ptx, sm) {
                    let _ = tx.send(Event::Registers(uri, ptx, regs));
                }
            });
        }
        doc.last = Some(Arc::new(c));
    }

    fn request(&self, req: &Request) -> Response {
        use lsp_types::request::{CodeLensRequest, DocumentSymbolRequest, GotoDefinition, HoverRequest};
        let id: RequestId = req.id.clone();
        let p = &req.params;
        let uri = p["textDocument"]["uri"].as_str().unwrap_or_default();
        let last = self.docs.get(uri).and_then(|d| d.last.clone());
        let regs = self.docs.get(uri).and_then(|d| d.registers.as_ref()).map(|r| &r.1);
        let pos = (p["position"]["line"].as_u64().unwrap_or(0) as u32, p["position"]["character"].as_u64().unwrap_or(0) as u32);
        match req.method.as_str() {
            HoverRequest::METHOD => Response::new_ok(id, last.and_then(|c| hover(&c, pos, regs)).unwrap_or(Value::Null)),
            DocumentSymbolRequest::METHOD => Response::new_ok(id, last.map(|c| symbols(&c)).unwrap_or(json!([]))),
            GotoDefinition::METHOD => Response::new_ok(id, last.and_then(|c| definition(&c, uri, pos)).unwrap_or(Value::Null)),
            CodeLensRequest::METHOD => Response::new_ok(id, last.map(|c| lenses(&c, regs)).unwrap_or(json!([]))),
            "cuprite/ptx" => match last.as_ref().and_then(|c| function_at(c, pos).map(|i| (c, i))) {
                Some((c, item)) => match c.funcs.get(&item.symbol) {
                    Some(f) => Response::new_ok(id, json!({ "function": item.name, "symbol": item.symbol, "text": f.text })),
                    None => Response::new_ok(
                        id,
                        json!({ "function": item.name, "symbol": item.symbol, "text": Value::Null, "note": "inlined everywhere: no PTX of its own" }),
                    ),
                },
                None => Response::new_err(id, lsp_server::ErrorCode::InvalidParams as i32, "no function with PTX at this position".into()),
            },
            "cuprite/ir" => {
                let level = p["level"].as_str().unwrap_or("nvvm");
                let emit = match level {
                    "cuda" => "--emit=cuda",
                    "nvvm" => "--emit=nvvm",
                    "ptx" => "--emit=ptx-ir",
                    _ => {
                        return Response::new_err(
                            id,
                            lsp_server::ErrorCode::InvalidParams as i32,
                            format!("unknown level '{level}' (cuda, nvvm or ptx)"),
                        )
                    }
                };
                let (Some(c), Some(doc)) = (last.as_ref(), self.docs.get(uri)) else {
                    return Response::new_err(id, lsp_server::ErrorCode::InvalidParams as i32, "no compile of this document yet".into());
                };
                let Some(item) = function_at(c, pos) else {
                    return Response::new_err(id, lsp_server::ErrorCode::InvalidParams as i32, "no function at this position".into());
                };
                match function_ir(&doc.path, &c.text, &self.flags, emit, &item.symbol) {
                    Ok(text) => Response::new_ok(id, json!({ "function": item.name, "symbol": item.symbol, "level": level, "text": text })),
                    Err(m) => Response::new_err(id, lsp_server::ErrorCode::RequestFailed as i32, m),
                }
            }
            _ => Response::new_err(id, lsp_server::ErrorCode::MethodNotFound as i32, format!("unknown request '{}'", req.method)),
        }
    }
}

/// The compile of `unit` a worker runs.
fn compile(db: &Database, unit: Unit, text: String) -> Compiled {
    let parts = incremental::module_parts(db, unit).clone();
    let diags = incremental::diagnostics(db, unit).clone();
    let mut funcs = BTreeMap::new();
    if !parts.has_errors {
        for f in &parts.funcs {
            let p = incremental::function_ptx(db, incremental::FnKey::new(db, unit, f.symbol.clone()));
            funcs.insert(f.symbol.clone(), p.clone());
        }
    }
    let ptx = incremental::module_ptx(db, unit).clone();
    db.take_recompiled();
    let sm = incremental::parse_flags(unit.flags(db)).map_or(90, |a| a.config.sm);
    Compiled { text, parts, diags, funcs, ptx, sm }
}

/// ptxas, where the project's install script put it (`CUPRITE_PTXAS` overrides), or on
/// the PATH.
fn ptxas() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("CUPRITE_PTXAS") {
        return Some(PathBuf::from(p));
    }
    let home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_default();
    let cached = home.join(".cache/cuprite-ptxas/site/nvidia/cu13/bin/ptxas");
    if cached.is_file() {
        return Some(cached);
    }
    std::env::var_os("PATH").and_then(|p| std::env::split_paths(&p).map(|d| d.join("ptxas")).find(|c| c.is_file()))
}

/// Registers per function as `ptxas -v` reports them for `ptx`.
fn ptxas_registers(ptxas: &Path, ptx: &str, sm: u32) -> Option<BTreeMap<String, u32>> {
    let dir = std::env::temp_dir().join(format!("cuprite-lsp-ptxas-{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let file = dir.join(format!("{:x}.ptx", std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).ok()?.as_nanos()));
    std::fs::write(&file, ptx).ok()?;
    let out = std::process::Command::new(ptxas).arg("-v").arg(format!("-arch=sm_{sm}")).arg(&file).arg("-o").arg("/dev/null").output().ok();
    let _ = std::fs::remove_file(&file);
    let out = out?;
    if !out.status.success() {
        return None;
    }
    // `ptxas info    : Compiling entry function '_Z..' for 'sm_90'` then
    // `ptxas info    : Used 14 registers, ...`.
    let mut regs = BTreeMap::new();
    let mut current = None;
    for l in String::from_utf8_lossy(&out.stderr).lines() {
        if let Some(i) = l.find("Compiling entry function '").or_else(|| l.find("Function properties for ")) {
            let rest = &l[i..];
            current = rest
                .split('\'')
                .nth(1)
                .map(str::to_string)
                .or_else(|| rest.strip_prefix("Function properties for ").map(|s| s.trim().to_string()));
        } else if let (Some(i), Some(f)) = (l.find("Used "), current.as_ref()) {
            if let Some(n) = l[i + 5..].split_whitespace().next().and_then(|n| n.parse().ok()) {
                regs.insert(f.clone(), n);
            }
        }
    }
    Some(regs)
}

/// The function whose text holds the (0-based) position.
fn function_at(c: &Compiled, (line, _): (u32, u32)) -> Option<&incremental::Item> {
    let l = line + 1;
    c.parts.items.iter().filter(|i| i.place.start.0 <= l && l <= i.last_line).min_by_key(|i| i.last_line - i.place.start.0)
}

fn hover(c: &Compiled, pos: (u32, u32), regs: Option<&BTreeMap<String, u32>>) -> Option<Value> {
    let (line, col) = (pos.0 + 1, byte_col(&c.text, pos.0, pos.1) + 1);
    let word = word_at(&c.text, pos.0, col);
    if let Some((w, start)) = &word {
        if let Some(item) = c.parts.items.iter().find(|i| &i.name == w) {
            let kind = if item.kind == incremental::ItemKind::Kernel { "kernel" } else { "device function" };
            let machine = regs.and_then(|r| r.get(&item.symbol)).map_or(String::new(), |n| format!("\n\nptxas: {n} registers"));
            let body = match c.funcs.get(&item.symbol) {
                Some(f) => format!(
                    "**{kind}** `{}`\n\nPTX: {} instructions, {} virtual registers, {} bytes of local memory{machine}\n\nsymbol `{}`",
                    item.name, f.instructions, f.registers, f.local_bytes, item.symbol
                ),
                None => format!("**{kind}** `{}`\n\ninlined into its callers (no PTX of its own)\n\nsymbol `{}`", item.name, item.symbol),
            };
            return Some(json!({ "contents": { "kind": "markdown", "value": body } }));
        }
        // The type of what the operation starting at the word computes.
        let at = c.parts.types.iter().rev().find(|t| t.line == line && t.col == *start)?;
        return Some(json!({ "contents": { "kind": "markdown", "value": format!("`{w}`: `{}`", at.ty) } }));
    }
    let at = c.parts.types.iter().rev().find(|t| t.line == line && t.col == col)?;
    Some(json!({ "contents": { "kind": "markdown", "value": format!("`{}`", at.ty) } }))
}

fn symbols(c: &Compiled) -> Value {
    let v: Vec<Value> = c
        .parts
        .items
        .iter()
        .filter(|i| !i.place.file.starts_with('<'))
        .map(|i| {
            let sel = range(Some(&c.text), &i.place);
            let end_line = i.last_line.saturating_sub(1);
            let full = json!({ "start": { "line": i.place.start.0 - 1, "character": 0 }, "end": { "line": end_line, "character": line_len(&c.text, end_line) } });
            json!({ "name": i.name, "detail": i.symbol, "kind": 12, "range": full, "selectionRange": range_value(sel) })
        })
        .collect();
    Value::Array(v)
}

/// The definition of the name under the cursor: a local variable or parameter of the
/// function there (the nearest declaration of that name before the cursor: C's scoping,
/// approximately), else a function.
fn definition(c: &Compiled, uri: &str, pos: (u32, u32)) -> Option<Value> {
    let col = byte_col(&c.text, pos.0, pos.1) + 1;
    let (w, _) = word_at(&c.text, pos.0, col)?;
    let here = (pos.0 + 1, col);
    if let Some(f) = function_at(c, pos) {
        let var = c
            .parts
            .vars
            .iter()
            .filter(|v| v.name == w && v.function == f.symbol && (v.line, v.col) <= here)
            .max_by_key(|v| (v.line, v.col));
        if let Some(v) = var {
            // A declaration's place is where it starts (`int n`): the name is further on.
            let line = nth_line(&c.text, v.line - 1);
            let from = (v.col as usize).saturating_sub(1).min(line.len());
            let at = find_word(&line[from..], &w).map_or(v.col, |k| (from + k) as u32 + 1);
            let place = Place { file: f.place.file.clone(), start: (v.line, at), end: (v.line, at + w.len() as u32) };
            return Some(json!({ "uri": uri, "range": range_value(range(Some(&c.text), &place)) }));
        }
    }
    let item = c.parts.items.iter().find(|i| i.name == w)?;
    Some(json!({ "uri": uri, "range": range_value(range(Some(&c.text), &item.place)) }))
}

fn lenses(c: &Compiled, regs: Option<&BTreeMap<String, u32>>) -> Value {
    let v: Vec<Value> = c
        .parts
        .items
        .iter()
        .filter_map(|i| {
            let f = c.funcs.get(&i.symbol)?;
            // Machine registers when ptxas has counted them, else the PTX's virtual ones.
            let r = match regs.and_then(|r| r.get(&i.symbol)) {
                Some(n) => format!("{n} regs"),
                None => format!("{} virtual regs", f.registers),
            };
            let local = if f.local_bytes > 0 { format!(", {} B local", f.local_bytes) } else { String::new() };
            let title = format!("PTX {} instrs, {r}{local}", f.instructions);
            Some(json!({ "range": range_value(range(Some(&c.text), &i.place)), "command": { "title": title, "command": "" } }))
        })
        .collect();
    Value::Array(v)
}

/// One function's IR at a level: a batch compile of `text` with `emit`, cut to the
/// function's op.
fn function_ir(path: &Path, text: &str, flags: &[String], emit: &str, symbol: &str) -> Result<String, String> {
    let dir = std::env::temp_dir().join(format!("cuprite-lsp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    // The unsaved text, compiled where the file is so that its includes resolve.
    let src = path.with_file_name(format!(
        ".cuprite-lsp-{}-{}",
        std::process::id(),
        path.file_name().map_or("a.cu".into(), |n| n.to_string_lossy().to_string())
    ));
    std::fs::write(&src, text).map_err(|e| e.to_string())?;
    let mut args = vec!["compile".to_string()];
    args.extend(flags.iter().cloned());
    args.push(emit.to_string());
    args.push(src.display().to_string());
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let rc = crate::run(&args, &mut std::io::empty(), &mut out, &mut err);
    let _ = std::fs::remove_file(&src);
    if rc != 0 {
        return Err(String::from_utf8_lossy(&err).into_owned());
    }
    let out = String::from_utf8_lossy(&out);
    let head = format!("@{symbol}(");
    let mut lines = out.lines();
    let mut res = String::new();
    while let Some(l) = lines.next() {
        if l.starts_with("  ") && !l.starts_with("   ") && l.contains(&head) {
            res.push_str(l.trim_start());
            res.push('\n');
            for l in lines.by_ref() {
                res.push_str(l.strip_prefix("  ").unwrap_or(l));
                res.push('\n');
                if l == "  }" {
                    break;
                }
            }
            return Ok(res);
        }
    }
    Err(format!("'{symbol}' is not in the {emit} output (inlined into its callers?)"))
}

fn publish(conn: &Connection, uri: &str, diags: Vec<Value>) {
    let n = Notification::new(lsp_types::notification::PublishDiagnostics::METHOD.to_string(), json!({ "uri": uri, "diagnostics": diags }));
    let _ = conn.sender.send(Message::Notification(n));
}

/// A `.cu` file (anything else opened is a header).
fn is_main_file(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "cu")
}

/// ((line, character), (line, character)), 0-based, UTF-16 characters where the text is
/// known.
type LspRange = ((u32, u32), (u32, u32));

fn range(text: Option<&str>, p: &Place) -> LspRange {
    let conv = |(l, c): (u32, u32)| {
        let line = l.saturating_sub(1);
        let ch = match text {
            Some(t) => utf16_col(t, line, c.saturating_sub(1)),
            None => c.saturating_sub(1),
        };
        (line, ch)
    };
    let s = conv(p.start);
    let e = conv(p.end);
    (s, if e < s { s } else { e })
}

fn range_value(((sl, sc), (el, ec)): LspRange) -> Value {
    json!({ "start": { "line": sl, "character": sc }, "end": { "line": el, "character": ec } })
}

fn nth_line(text: &str, line: u32) -> &str {
    text.split('\n').nth(line as usize).unwrap_or("")
}

fn line_len(text: &str, line: u32) -> u32 {
    nth_line(text, line).encode_utf16().count() as u32
}

/// The UTF-16 column of byte column `col` (0-based) of `line`.
fn utf16_col(text: &str, line: u32, col: u32) -> u32 {
    let l = nth_line(text, line);
    let upto = l.get(..(col as usize).min(l.len())).unwrap_or(l);
    upto.encode_utf16().count() as u32
}

/// The byte column (0-based) of UTF-16 column `ch` of `line`.
fn byte_col(text: &str, line: u32, ch: u32) -> u32 {
    let l = nth_line(text, line);
    let mut units = 0;
    for (i, c) in l.char_indices() {
        if units >= ch {
            return i as u32;
        }
        units += c.len_utf16() as u32;
    }
    l.len() as u32
}

/// The byte offset of an LSP position in `text`.
fn offset_of(text: &str, pos: &Value) -> usize {
    let line = pos["line"].as_u64().unwrap_or(0) as usize;
    let ch = pos["character"].as_u64().unwrap_or(0) as u32;
    let mut start = 0;
    for _ in 0..line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let l = &text[start..];
    let l = &l[..l.find('\n').unwrap_or(l.len())];
    let mut units = 0;
    for (i, c) in l.char_indices() {
        if units >= ch {
            return start + i;
        }
        units += c.len_utf16() as u32;
    }
    start + l.len()
}

/// The identifier around 1-based byte column `col` of 0-based `line`, and its 1-based
/// start column.
fn word_at(text: &str, line: u32, col: u32) -> Option<(String, u32)> {
    let l = nth_line(text, line).as_bytes();
    let is_id = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let at = (col as usize).checked_sub(1)?;
    if at >= l.len() || !is_id(l[at]) {
        return None;
    }
    let mut s = at;
    while s > 0 && is_id(l[s - 1]) {
        s -= 1;
    }
    let mut e = at;
    while e < l.len() && is_id(l[e]) {
        e += 1;
    }
    if l[s].is_ascii_digit() {
        return None;
    }
    Some((String::from_utf8_lossy(&l[s..e]).into_owned(), s as u32 + 1))
}

/// The byte offset of `w` as a whole identifier in `text`.
fn find_word(text: &str, w: &str) -> Option<usize> {
    let b = text.as_bytes();
    let is_id = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut from = 0;
    while let Some(k) = text[from..].find(w) {
        let (s, e) = (from + k, from + k + w.len());
        if (s == 0 || !is_id(b[s - 1])) && (e >= b.len() || !is_id(b[e])) {
            return Some(s);
        }
        from = s + 1;
    }
    None
}

/// `file://` URI of a path (bytes outside the unreserved set percent-encoded).
pub fn path_to_uri(p: &Path) -> String {
    let abs = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let mut s = String::from("file://");
    for b in abs.to_string_lossy().bytes() {
        if b.is_ascii_alphanumeric() || b"/-_.~".contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    s
}

/// The path of a `file://` URI (percent-decoded).
pub fn uri_to_path(uri: &str) -> PathBuf {
    let rest = uri.strip_prefix("file://").unwrap_or(uri);
    let b = rest.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            if let Ok(v) = u8::from_str_radix(&rest[i + 1..i + 3], 16) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    PathBuf::from(String::from_utf8_lossy(&out).into_owned())
}
