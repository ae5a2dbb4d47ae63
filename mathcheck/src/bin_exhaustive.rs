//! `math-exhaustive`: the maximum ulp error of each unary single-precision function over
//! every float input (see `cuprite_mathcheck::exhaustive`).
//!
//! Usage: math-exhaustive [--stride S] [--threads T] [--check N] [--sm N] [function ...]
//!
//! `--stride S` takes every S-th bit pattern instead of all 2^32 (a quick run);
//! `--check N` is how many sampled inputs the replica must agree on with the simulator
//! first (default 65536); `--threads` defaults to the machine's cores.

use cuprite_mathcheck::{exhaustive, functions_f32, Compiled};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut stride = 1u64;
    let mut threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut check = 1usize << 16;
    let mut sm = 90;
    let mut only = Vec::new();
    let mut i = 0;
    let num = |i: usize| -> u64 { args.get(i).and_then(|v| v.parse().ok()).unwrap_or_else(|| usage()) };
    while i < args.len() {
        match args[i].as_str() {
            "--stride" => {
                i += 1;
                stride = num(i).max(1);
            }
            "--threads" => {
                i += 1;
                threads = num(i) as usize;
            }
            "--check" => {
                i += 1;
                check = num(i) as usize;
            }
            "--sm" => {
                i += 1;
                sm = num(i) as u32;
            }
            "-h" | "--help" => usage(),
            a if a.starts_with('-') => usage(),
            a => only.push(a.to_string()),
        }
        i += 1;
    }
    let funcs: Vec<_> = functions_f32()
        .into_iter()
        .filter(|f| f.arity == 1 && exhaustive::fast_reference(f.name).is_some())
        .filter(|f| only.is_empty() || only.iter().any(|o| o == f.name))
        .collect();
    if funcs.is_empty() {
        eprintln!("no unary single-precision function matches");
        std::process::exit(2);
    }
    let c = Compiled::new(&funcs, sm).unwrap_or_else(|e| fail(&e));
    let Compiled::Cuprite(levels) = &c else { unreachable!("compiled by cuprite") };
    let dir = std::env::temp_dir().join(format!("cuprite-replica-{}", std::process::id()));
    println!("| function | CUDA bound (ulp) | max error (ulp) | inputs | worst input | result | over bound | MPFR rechecks |");
    println!("|---|---:|---:|---:|---|---|---:|---:|");
    let mut failed = false;
    for f in &funcs {
        let t0 = std::time::Instant::now();
        let exe = exhaustive::build_replica(&levels.ptx_text, f.name, &dir).unwrap_or_else(|e| fail(&e));
        let agreed = exhaustive::check_replica(&c, f, &exe, check).unwrap_or_else(|e| fail(&e));
        let m = exhaustive::run(f, &exe, stride, threads).unwrap_or_else(|e| fail(&e));
        let ok = m.over_bound == 0;
        failed |= !ok;
        println!(
            "| {} | {} | {:.3} | {} | {:e} ({:#010x}) | {:e} | {} | {} |",
            m.name,
            m.bound,
            m.max_ulp,
            m.inputs,
            m.worst,
            m.worst.to_bits(),
            m.worst_got,
            m.over_bound,
            m.rechecked
        );
        eprintln!(
            "{}: replica agreed with the simulator on {agreed} inputs; estimate drift {:.1e} ulp; {:.1}s{}",
            m.name,
            m.estimate_drift,
            t0.elapsed().as_secs_f64(),
            if ok { String::new() } else { format!("; over the bound at {:?}", m.over_examples) }
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    std::process::exit(i32::from(failed));
}

fn fail(e: &str) -> ! {
    eprintln!("math-exhaustive: {e}");
    std::process::exit(1);
}

fn usage() -> ! {
    eprintln!("usage: math-exhaustive [--stride S] [--threads T] [--check N] [--sm N] [function ...]");
    std::process::exit(2);
}
