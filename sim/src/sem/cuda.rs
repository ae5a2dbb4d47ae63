//! Semantics of the `cuda` dialect (in progress).
use crate::code::Program;
pub fn translate(_ctx: &cuprite_ir::Context, _module: cuprite_ir::OpId, _kernel: &str) -> Result<Program, String> {
    Err("cuda level: not yet".into())
}
