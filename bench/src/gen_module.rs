//! `gen-module --ops N [--funcs F] [--seed S]`: prints [`cuprite_bench::generate`]'s module
//! to stdout.

use std::io::{self, BufWriter, Write};

const USAGE: &str = "usage: gen-module --ops N [--funcs F] [--seed S]\n\
  --ops N     about N ops in total (default 1000)\n\
  --funcs F   split across F functions (default max(1, N/1000))\n\
  --seed S    PRNG seed (default 1)\n";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mut ops, mut funcs, mut seed) = (1000usize, None::<usize>, 1u64);
    let mut i = 0;
    while i < args.len() {
        let (flag, inline) = match args[i].split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (args[i].clone(), None),
        };
        if flag == "-h" || flag == "--help" {
            print!("{USAGE}");
            return;
        }
        let value = match inline {
            Some(v) => v,
            None => {
                i += 1;
                match args.get(i) {
                    Some(v) => v.clone(),
                    None => die(&format!("option '{flag}' needs a value")),
                }
            }
        };
        let num = || value.parse::<u64>().unwrap_or_else(|_| die(&format!("bad number '{value}' for {flag}")));
        match flag.as_str() {
            "--ops" => ops = num() as usize,
            "--funcs" => funcs = Some(num() as usize),
            "--seed" => seed = num(),
            _ => die(&format!("unknown option '{flag}'")),
        }
        i += 1;
    }
    let funcs = funcs.unwrap_or(ops / 1000).max(1);
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 20, stdout.lock());
    let res = cuprite_bench::generate(&mut out, ops, funcs, seed).and_then(|n| out.flush().map(|()| n));
    match res {
        Ok(total) => eprintln!("gen-module: {total} ops in {funcs} function(s)"),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {}
        Err(e) => die(&format!("write error: {e}")),
    }
}

fn die(msg: &str) -> ! {
    eprintln!("gen-module: {msg}\n{USAGE}");
    std::process::exit(2);
}
