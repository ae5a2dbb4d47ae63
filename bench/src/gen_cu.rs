//! `gen-cu --lines N`: a deterministic CUDA file of about N lines of device code for the
//! frontend throughput benchmark: kernels and device functions with macros, loops with
//! `#pragma unroll`, shared memory, structs, templates and math calls, plus a host `main`
//! (whose body the frontend skips).

fn main() {
    let mut lines = 100_000usize;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--lines" => lines = args.next().and_then(|v| v.parse().ok()).unwrap_or(lines),
            _ => {
                eprintln!("usage: gen-cu [--lines N]");
                std::process::exit(2);
            }
        }
    }
    print!("{}", cuprite_bench::generate_cu(lines));
}
