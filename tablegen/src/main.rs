//! `cuprite-tblgen`: reads a `.td` file and prints its defs (`--print-records`, the default),
//! or the output of a backend: `--gen-rust`, `--gen-docs`, `--gen-irdl`. Errors are ariadne
//! diagnostics on stderr, with exit code 1.
use cuprite_tablegen::Backend;
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: cuprite-tblgen [-I DIR]... [--print-records | --gen-rust | --gen-docs | --gen-irdl] [-o OUT] FILE.td";

fn main() -> ExitCode {
    let mut includes = Vec::new();
    let mut file = None;
    let mut out = None;
    let mut backend = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--print-records" => backend = None,
            "--gen-rust" => backend = Some(Backend::Rust),
            "--gen-docs" => backend = Some(Backend::Docs),
            "--gen-irdl" => backend = Some(Backend::Irdl),
            "-o" => out = args.next().map(PathBuf::from),
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            _ if a.starts_with("-I") => {
                let d = if a.len() > 2 { a[2..].to_string() } else { args.next().unwrap_or_default() };
                includes.push(PathBuf::from(d));
            }
            _ if a.starts_with('-') => {
                eprintln!("unknown option '{a}'\n{USAGE}");
                return ExitCode::from(2);
            }
            _ => file = Some(PathBuf::from(a)),
        }
    }
    let Some(file) = file else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let text = match backend {
        None => match cuprite_tablegen::read_file(&file, &includes) {
            Ok(rk) => cuprite_tablegen::record::print_defs(&rk),
            Err(e) => {
                eprint!("{}", e.render());
                return ExitCode::from(1);
            }
        },
        Some(b) => match cuprite_tablegen::generate(&file, &includes, b, &file.display().to_string()) {
            Ok(t) => t,
            Err(msg) => {
                eprint!("{msg}");
                return ExitCode::from(1);
            }
        },
    };
    match out {
        Some(p) => {
            if let Err(e) = std::fs::write(&p, text) {
                eprintln!("cannot write {}: {e}", p.display());
                return ExitCode::from(1);
            }
        }
        None => print!("{text}"),
    }
    ExitCode::SUCCESS
}
