//! `math-accuracy`: the accuracy table of the device math library (see the crate docs).
//!
//! Usage: math-accuracy [--samples N] [--sm N] [--ptx FILE] [--emit-source FILE] [function ...]
//!
//! `--emit-source FILE` writes the test kernels' CUDA source (one `k_<name>` per function)
//! and exits; `--ptx FILE` measures the kernels of that PTX instead of cuprite's (NVRTC's
//! PTX of the emitted source measures libdevice the same way: `bench/libm_cost.py`).

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut samples = 1 << 16;
    let mut sm = 90;
    let mut only = Vec::new();
    let mut ptx: Option<String> = None;
    let mut emit: Option<String> = None;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--samples" => {
                i += 1;
                samples = args.get(i).and_then(|v| v.parse().ok()).unwrap_or_else(|| usage());
            }
            "--sm" => {
                i += 1;
                sm = args.get(i).and_then(|v| v.parse().ok()).unwrap_or_else(|| usage());
            }
            "--ptx" => {
                i += 1;
                ptx = Some(args.get(i).cloned().unwrap_or_else(|| usage()));
            }
            "--emit-source" => {
                i += 1;
                emit = Some(args.get(i).cloned().unwrap_or_else(|| usage()));
            }
            "-h" | "--help" => usage(),
            a if a.starts_with('-') => usage(),
            a => only.push(a.to_string()),
        }
        i += 1;
    }
    let funcs: Vec<_> =
        cuprite_mathcheck::functions().into_iter().filter(|f| only.is_empty() || only.iter().any(|o| o == f.name)).collect();
    if let Some(path) = emit {
        if let Err(e) = std::fs::write(&path, cuprite_mathcheck::kernel_source(&funcs)) {
            eprintln!("cannot write {path}: {e}");
            std::process::exit(1);
        }
        return;
    }
    let compiled = match &ptx {
        Some(path) => std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {path}: {e}"))
            .and_then(|text| cuprite_mathcheck::Compiled::from_ptx(&text, path)),
        None => cuprite_mathcheck::Compiled::new(&funcs, sm),
    };
    let c = match compiled {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    println!("| function | CUDA bound (ulp) | measured max (ulp) | samples | worst input | verdict |");
    println!("|---|---:|---:|---:|---|---|");
    let mut failed = false;
    for f in &funcs {
        match cuprite_mathcheck::measure(&c, f, samples, 1) {
            Ok(m) => {
                let ok = m.max_ulp <= m.bound.max(0.5);
                failed |= !ok;
                println!(
                    "| {} | {} | {:.3} | {} | {:?} -> {:?} | {} |",
                    m.name,
                    m.bound,
                    m.max_ulp,
                    m.samples,
                    m.worst,
                    m.worst_got,
                    if ok { "ok" } else { "EXCEEDS" }
                );
            }
            Err(e) => {
                failed = true;
                println!("| {} | {} | error: {e} | | | |", f.name, f.bound);
            }
        }
    }
    std::process::exit(i32::from(failed));
}

fn usage() -> ! {
    eprintln!("usage: math-accuracy [--samples N] [--sm N] [--ptx FILE] [--emit-source FILE] [function ...]");
    std::process::exit(2);
}
