//! The `cuprite` binary.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    cuprite::EXIT_AFTER_RUN.store(true, std::sync::atomic::Ordering::Relaxed);
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    // The language server reads stdin and writes stdout on threads of its own: nothing
    // here may hold their locks.
    if args.first().is_some_and(|a| a == "lsp") {
        std::process::exit(cuprite::lsp::main(&args[1..], &mut std::io::stdout(), &mut std::io::stderr()));
    }
    let code = cuprite::run(&args, &mut std::io::stdin().lock(), &mut stdout.lock(), &mut stderr.lock());
    std::process::exit(code);
}
