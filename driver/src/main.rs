//! The `cuprite` binary.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    cuprite::EXIT_AFTER_RUN.store(true, std::sync::atomic::Ordering::Relaxed);
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let code = cuprite::run(&args, &mut std::io::stdin().lock(), &mut stdout.lock(), &mut stderr.lock());
    std::process::exit(code);
}
