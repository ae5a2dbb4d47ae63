//! The `ptx` dialect: PTX instructions on virtual registers, after instruction selection
//! (see `ops.td`). Everything is declared in `ops.td`; the PTX text is written by the
//! printer in the `lowering` crate, the only producer of PTX.

/// Generated from `ops.td`.
#[allow(clippy::all, dead_code)]
pub mod ops {
    include!(concat!(env!("OUT_DIR"), "/ptx.rs"));
}
pub use ops::*;

use cuprite_ir::{parse::OpParser, print::OpPrinter, Diagnostic, OpId, OperationState};

fn print_imm(p: &mut OpPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    crate::arith::print_constant(p, op)
}

fn parse_imm(p: &mut OpParser<'_, '_>, st: &mut OperationState) -> Result<(), Diagnostic> {
    crate::arith::parse_constant(p, st)
}
