//! The cuprite driver: command-line entry points over the compiler crates.
//!
//! Subcommands: `opt` (the mlir-opt of this project; see [`opt`]), `compile` (CUDA
//! through the frontend; see [`compile`]) and `run` (the simulator; see [`mod@run`]).

pub mod compile;
pub mod float_flags;
pub mod incremental;
pub mod levels;
pub mod lsp;
pub mod mlir;
pub mod opt;
pub mod pipeline;
pub mod run;
pub mod watch;

/// Set by the `cuprite` binary: the process exits after [`run()`], so large structures need
/// not be freed. Library users (tests, editors) leave it unset.
pub static EXIT_AFTER_RUN: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The diagnostic for a panic caught in the compiler (`payload` from `catch_unwind`):
/// "internal compiler error" with the panic's message and place, never a Rust panic text.
pub fn ice_message(payload: &(dyn std::any::Any + Send)) -> String {
    let what = payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "unknown panic".into());
    let place = LAST_PANIC_PLACE.lock().ok().and_then(|p| p.clone()).map(|p| format!(" at {p}")).unwrap_or_default();
    format!("internal compiler error: {what}{place} (please report it with the input that caused it)")
}

/// Where the last panic happened (set by [`quiet_panics`]'s hook).
static LAST_PANIC_PLACE: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);

/// Replaces the panic hook with one that records where a panic happened and prints
/// nothing: the long-running commands (`cuprite lsp`, `cuprite watch`) catch panics of a
/// compile and report them as internal compiler errors ([`ice_message`]) instead. Salsa's
/// cancellation of a compile (an edit arrived) unwinds too and is not an error.
pub fn quiet_panics() {
    std::panic::set_hook(Box::new(|info| {
        if let Ok(mut p) = LAST_PANIC_PLACE.lock() {
            *p = info.location().map(|l| format!("{}:{}", l.file(), l.line()));
        }
    }));
}

/// Runs the `cuprite` command line; returns the process exit code.
pub fn run(args: &[String], stdin: &mut dyn std::io::Read, stdout: &mut dyn std::io::Write, stderr: &mut dyn std::io::Write) -> i32 {
    match args.first().map(String::as_str) {
        Some("opt") => opt::main(&args[1..], stdin, stdout, stderr),
        Some("compile") => compile::main(&args[1..], stdout, stderr),
        Some("run") => run::main(&args[1..], stdout, stderr),
        Some("watch") => watch::main(&args[1..], stdout, stderr),
        Some("lsp") => lsp::main(&args[1..], stdout, stderr),
        Some("--version") | Some("-V") => {
            let _ = writeln!(stdout, "cuprite {}", env!("CARGO_PKG_VERSION"));
            0
        }
        None | Some("--help") | Some("-h") | Some("help") => {
            let _ = write!(stdout, "{USAGE}");
            0
        }
        Some(other) => {
            let _ = writeln!(stderr, "error: unknown command '{other}'\n\n{USAGE}");
            2
        }
    }
}

const USAGE: &str = "\
cuprite: a multi-level CUDA compiler in the style of MLIR

Usage: cuprite <command> [options]

Commands:
  opt      Parse, verify, transform and print IR (like mlir-opt); `cuprite opt --help`
  compile  CUDA C++ to PTX (and every level between); `cuprite compile --help`
  run      Simulate a kernel launch on the CPU at any level; `cuprite run --help`
  lsp      A language server on stdio (diagnostics, hover, PTX per kernel); `cuprite lsp --help`
  watch    Recompile a .cu file on every save, only what changed; `cuprite watch --help`

Options:
  -h, --help     Print this help
  -V, --version  Print the version
";
