//! `cuprite watch`: recompiles a `.cu` file whenever it or a header it includes changes on
//! disk, through the incremental database ([`crate::incremental`]): only the functions an
//! edit changes are recompiled. Each round prints the diagnostics, what was recompiled
//! and how long it took; the output file is written only when the compile succeeds (a
//! broken save leaves the last good PTX in place).

use crate::incremental::{self, Database};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const USAGE: &str = "\
Usage: cuprite watch [compile options] <file.cu> [-o <file.ptx>]

Compiles <file.cu> to PTX, then again each time it or a header it includes is saved,
recompiling only the functions the change affects. Diagnostics, the functions recompiled
and the time each round took go to stderr; the PTX goes to -o (stdout without it) after
each successful round. Stop it with Ctrl-C.

Options:
  -o <file>          Write the PTX here (written only when the round has no errors)
  --rounds=<N>       Exit after N rounds (the first compile is round 1; for scripts)
  --debounce=<ms>    Wait this long after a change for more (default 50)
  (any `cuprite compile` option: -O, -arch, -I, -D, --use_fast_math, ...)
";

/// Runs `cuprite watch`.
pub fn main(args: &[String], stdout: &mut dyn Write, stderr: &mut dyn Write) -> i32 {
    let mut flags = Vec::new();
    let (mut input, mut output, mut rounds, mut debounce) = (None, None, None, 50u64);
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        match a {
            "-h" | "--help" => {
                let _ = write!(stdout, "{USAGE}");
                return 0;
            }
            "-o" => {
                i += 1;
                match args.get(i) {
                    Some(o) if o != "-" => output = Some(PathBuf::from(o)),
                    Some(_) => output = None,
                    None => return usage(stderr, "-o needs a file"),
                }
            }
            _ if a.starts_with("--rounds=") => match a[9..].parse::<u64>() {
                Ok(n) if n > 0 => rounds = Some(n),
                _ => return usage(stderr, "--rounds needs a positive number"),
            },
            _ if a.starts_with("--debounce=") => match a[11..].parse::<u64>() {
                Ok(n) => debounce = n,
                _ => return usage(stderr, "--debounce needs milliseconds"),
            },
            _ if a.ends_with(".cu") && !a.starts_with('-') && input.is_none() => input = Some(PathBuf::from(a)),
            _ => {
                // A compile flag, with its value when it takes one as the next argument.
                flags.push(a.to_string());
                if matches!(a, "-I" | "-D" | "-U" | "-include") {
                    i += 1;
                    if let Some(v) = args.get(i) {
                        flags.push(v.clone());
                    }
                }
            }
        }
        i += 1;
    }
    let Some(input) = input else { return usage(stderr, "no input file (a .cu file)") };
    if let Err(m) = incremental::parse_flags(&flags) {
        return usage(stderr, &m);
    }
    if !input.is_file() {
        let _ = writeln!(stderr, "error: cannot read '{}'", input.display());
        return 2;
    }
    let (tx, rx) = std::sync::mpsc::channel::<PathBuf>();
    let mut watcher = match notify::recommended_watcher(move |ev: notify::Result<notify::Event>| {
        if let Ok(ev) = ev {
            if matches!(ev.kind, notify::EventKind::Access(_)) {
                return;
            }
            for p in ev.paths {
                let _ = tx.send(p);
            }
        }
    }) {
        Ok(w) => w,
        Err(e) => {
            let _ = writeln!(stderr, "error: cannot watch files: {e}");
            return 2;
        }
    };
    crate::quiet_panics();
    let opts = Opts { input, output, rounds, debounce: Duration::from_millis(debounce), flags };
    run(&opts, &mut watcher, &rx, stdout, stderr)
}

fn usage(stderr: &mut dyn Write, m: &str) -> i32 {
    let _ = writeln!(stderr, "error: {m}\n\n{USAGE}");
    2
}

struct Opts {
    input: PathBuf,
    output: Option<PathBuf>,
    rounds: Option<u64>,
    debounce: Duration,
    flags: Vec<String>,
}

/// The watch loop: a round, then wait for a change to a file the unit read.
fn run(
    o: &Opts,
    watcher: &mut notify::RecommendedWatcher,
    rx: &std::sync::mpsc::Receiver<PathBuf>,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> i32 {
    use notify::Watcher;
    let mut db = Database::default();
    let unit = db.unit(&o.input, o.flags.clone());
    let mut watched: std::collections::BTreeSet<PathBuf> = Default::default();
    // The input's directory from the start, so that a save during the first round is seen.
    if let Some(dir) = o.input.canonicalize().ok().and_then(|p| p.parent().map(Path::to_path_buf)) {
        if watcher.watch(&dir, notify::RecursiveMode::NonRecursive).is_ok() {
            watched.insert(dir);
        }
    }
    let mut round = 0u64;
    let mut changed: Vec<PathBuf> = Vec::new();
    loop {
        round += 1;
        let t = Instant::now();
        let got = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            // The functions to recompile on every core first (nothing cancels them here).
            let _ = incremental::prime(&db, unit, 0);
            incremental::on_worker(&db, move |db| {
                let ptx = incremental::module_ptx(db, unit).clone();
                (ptx, incremental::module_parts(db, unit).clone(), incremental::diagnostics(db, unit).clone())
            })
        }));
        let (ptx, parts, diags) = match got {
            Ok(Ok(r)) => r,
            // Nothing changes the inputs while the worker runs: it is never cancelled.
            Ok(Err(_)) => return 2,
            // A bug of the compiler: reported, and the watch goes on.
            Err(payload) => {
                let _ = writeln!(stderr, "error: {}", crate::ice_message(&*payload));
                (None, Default::default(), Vec::new())
            }
        };
        let parts = &parts;
        let elapsed = t.elapsed();
        // In module order: the functions compile on several threads, in any order.
        let mut recompiled = db.take_recompiled();
        recompiled.sort_by_key(|s| parts.funcs.iter().position(|f| &f.symbol == s).unwrap_or(usize::MAX));
        recompiled.dedup();
        if let Some(text) = &ptx {
            let res = match &o.output {
                Some(p) => write_atomically(p, text),
                None => stdout.write_all(text.as_bytes()).and_then(|_| stdout.flush()),
            };
            if let Err(e) = res {
                let _ = writeln!(stderr, "error: cannot write the output: {e}");
                return 2;
            }
        }
        for d in &diags {
            let _ = write!(stderr, "{}", d.rendered);
        }
        let total = parts.funcs.len();
        let what = if changed.is_empty() {
            String::new()
        } else {
            let names: Vec<String> = changed.iter().map(|p| p.display().to_string()).collect();
            format!(" after a change to {}", names.join(", "))
        };
        let mut names: Vec<String> = recompiled.iter().take(8).map(|s| item_name(parts, s).to_string()).collect();
        if recompiled.len() > 8 {
            names.push(format!("and {} more", recompiled.len() - 8));
        }
        let _ = writeln!(
            stderr,
            "[watch] round {round}{what}: {} in {:.1} ms; recompiled {} of {total} functions{}{}",
            if ptx.is_some() { "ok" } else { "errors" },
            elapsed.as_secs_f64() * 1e3,
            recompiled.len(),
            if names.is_empty() { "" } else { ": " },
            names.join(", ")
        );
        let _ = stderr.flush();
        if o.rounds.is_some_and(|n| round >= n) {
            return i32::from(ptx.is_none());
        }
        // Watch the directories of every file read (editors save by renaming).
        let mut files: Vec<PathBuf> = parts.files.iter().map(PathBuf::from).collect();
        files.push(o.input.clone());
        for f in files {
            let f = f.canonicalize().unwrap_or(f);
            if let Some(dir) = f.parent() {
                if watched.insert(dir.to_path_buf()) {
                    let _ = watcher.watch(dir, notify::RecursiveMode::NonRecursive);
                }
            }
        }
        // Wait for a change to a file the database has read; then for the burst to end.
        changed.clear();
        loop {
            let Ok(p) = rx.recv() else { return 0 };
            if db.knows(&p) {
                changed.push(p);
                break;
            }
        }
        let until = Instant::now() + o.debounce;
        while let Some(left) = until.checked_duration_since(Instant::now()) {
            match rx.recv_timeout(left) {
                Ok(p) if db.knows(&p) && !changed.contains(&p) => changed.push(p),
                Ok(_) => {}
                Err(_) => break,
            }
        }
        for p in &changed {
            db.reload(p);
        }
    }
}

/// The name an item has in the source, for a PTX symbol.
fn item_name<'a>(parts: &'a incremental::ModuleParts, symbol: &'a str) -> &'a str {
    parts.items.iter().find(|i| i.symbol == symbol).map_or(symbol, |i| i.name.as_str())
}

/// Writes `text` to `path` through a temporary file and a rename, so that a reader never
/// sees half a file.
fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    let tmp = path.with_extension(format!("{}.tmp", std::process::id()));
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)
}
