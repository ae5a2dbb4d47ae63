//! cuprite's TableGen: a reader for the subset of LLVM's TableGen language our op
//! definitions use ([`parser`]), the ODS model of dialects and ops built from its records
//! ([`ods`]), and the backends generated from that model: Rust op wrappers with verifiers and
//! assembly formats ([`rust_gen`]), markdown docs ([`docs`]) and MLIR IRDL ([`irdl`]).

pub mod diag;
pub mod lexer;
pub mod parser;
pub mod record;

pub use diag::{Diagnostic, FileId, Sources, Span};
pub use parser::{read_file, read_str, ReadError};
pub use record::{Field, Record, RecordKeeper, Ty, Value};
