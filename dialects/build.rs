//! Generates each dialect's op definitions from its `ops.td` (see `cuprite-tablegen`).
use std::path::PathBuf;

/// The dialects of this crate, each with `src/<name>/ops.td`.
const DIALECTS: &[&str] = &["builtin", "func", "cf", "arith", "math", "scf", "ub", "cuda", "nvvm", "ptx"];

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let include = root.join("../tablegen/include");
    for d in DIALECTS {
        let td = root.join("src").join(d).join("ops.td");
        cuprite_tablegen::build_rust(&td, std::slice::from_ref(&include), &format!("{d}.rs"), &format!("dialects/src/{d}/ops.td"));
    }
}
