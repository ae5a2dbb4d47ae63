//! The `cuprite` binary.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let code = cuprite::run(&args, &mut std::io::stdin().lock(), &mut stdout.lock(), &mut stderr.lock());
    std::process::exit(code);
}
