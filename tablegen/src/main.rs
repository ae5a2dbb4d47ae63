//! `cuprite-tblgen`: reads a `.td` file and prints its defs (`--print-records`), or fails with
//! an ariadne diagnostic.
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut includes = Vec::new();
    let mut file = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if let Some(d) = a.strip_prefix("-I") {
            includes.push(PathBuf::from(if d.is_empty() { args.next().unwrap_or_default() } else { d.to_string() }));
        } else if a == "--print-records" {
        } else {
            file = Some(PathBuf::from(a));
        }
    }
    let Some(file) = file else {
        eprintln!("usage: cuprite-tblgen [-I dir]... [--print-records] FILE.td");
        return ExitCode::from(2);
    };
    match cuprite_tablegen::read_file(&file, &includes) {
        Ok(rk) => {
            print!("{}", cuprite_tablegen::record::print_defs(&rk));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprint!("{}", e.render());
            ExitCode::from(1)
        }
    }
}
