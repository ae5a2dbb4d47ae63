//! The cuprite driver: command-line entry points over the compiler crates.
//!
//! Subcommands: `opt` (the mlir-opt of this project; see [`opt`]), `compile` (CUDA
//! through the frontend; see [`compile`]) and `run` (the simulator; see [`mod@run`]).

pub mod compile;
pub mod float_flags;
pub mod incremental;
pub mod levels;
pub mod lsp;
pub mod opt;
pub mod pipeline;
pub mod run;
pub mod watch;

/// Set by the `cuprite` binary: the process exits after [`run()`], so large structures need
/// not be freed. Library users (tests, editors) leave it unset.
pub static EXIT_AFTER_RUN: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

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
