//! cuprite's TableGen: a reader for the subset of LLVM's TableGen language our op
//! definitions use ([`parser`]), the ODS model of dialects and ops built from its records
//! ([`ods`]), and the backends generated from that model: Rust op wrappers with verifiers and
//! assembly formats ([`rust_gen`]), markdown docs ([`docs`]) and MLIR IRDL ([`irdl`]).

pub mod diag;
pub mod docs;
pub mod format;
pub mod irdl;
pub mod lexer;
pub mod ods;
pub mod parser;
pub mod record;
pub mod rust_gen;

pub use diag::{Diagnostic, FileId, Sources, Span};
pub use parser::{read_file, read_str, ReadError};
pub use record::{Field, Record, RecordKeeper, Ty, Value};

use std::path::{Path, PathBuf};

/// What a backend makes from a dialect's `.td` file.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Backend {
    Rust,
    Docs,
    Irdl,
}

/// Reads `td` (with `include_dirs`), builds the dialect's ODS model and runs `backend`.
/// `source` is how the file is named in generated headers. On error: the rendered
/// diagnostic.
pub fn generate(td: &Path, include_dirs: &[PathBuf], backend: Backend, source: &str) -> Result<String, String> {
    let rk = read_file(td, include_dirs).map_err(|e| e.render())?;
    let model = ods::build(&rk).map_err(|d| d.render(&rk.sources))?;
    Ok(match backend {
        Backend::Rust => rust_gen::generate(&model, source),
        Backend::Docs => docs::generate(&model, source),
        Backend::Irdl => irdl::generate(&model, source),
    })
}

/// For a dialect crate's `build.rs`: generates the Rust code of `td` into
/// `$OUT_DIR/<out_name>`, asks cargo to rerun when a `.td` file changes, and stops the build
/// with the rendered diagnostic on error.
pub fn build_rust(td: &Path, include_dirs: &[PathBuf], out_name: &str, source: &str) {
    println!("cargo:rerun-if-changed={}", td.display());
    for d in include_dirs {
        println!("cargo:rerun-if-changed={}", d.display());
    }
    match generate(td, include_dirs, Backend::Rust, source) {
        Ok(code) => {
            let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR is set for build scripts")).join(out_name);
            if let Err(e) = std::fs::write(&out, code) {
                eprintln!("cannot write {}: {e}", out.display());
                std::process::exit(1);
            }
        }
        Err(msg) => {
            eprintln!("{msg}");
            std::process::exit(1);
        }
    }
}
