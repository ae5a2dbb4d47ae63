//! Conversions between cuprite's dialects and PTX printing:
//!
//! - [`conversions`]: the conversions from the `cuda` level (with `arith`, `math`, `scf`,
//!   `cf`, `func`) to `nvvm`, each a pass made of named patterns;
//! - [`mod@nvvm_to_ptx`]: instruction selection from `nvvm` to `ptx` on virtual registers
//!   (NvvmToPtx);
//! - [`ptx_print`]: the PTX text of a `ptx` module, the only producer of PTX;
//! - [`transforms`]: the `nvvm` optimizations (inline, mem2reg, sccp) and the `-O` pipelines.
//!
//! The conversions to nvvm rewrite the module in place; instruction selection builds the
//! ptx module beside its input in the same [`cuprite_ir::Context`].

pub mod build;
pub mod conversions;
pub mod eqsat;
pub mod float_options;
pub mod nvvm_to_ptx;
pub mod passes;
pub mod ptx_print;
pub mod ptx_read;
pub use cuprite_dialects::nvvm::rounding;
pub mod transforms;

pub use build::{LowerError, FTZ};
pub use float_options::{DivMode, FloatOptions};
pub use nvvm_to_ptx::{
    assemble_ptx, globals_text, module_signatures, nvvm_to_ptx, nvvm_to_ptx_text, select_function_text, select_module, FuncText, KindSigs,
};
pub use ptx_print::{print_ptx, PtxOptions};

/// `-maxrregcount=N`: `maxnreg = N` on every kernel of nvvm `module` that has no launch
/// bounds or register limit of its own (as nvcc, where `__launch_bounds__` wins).
pub fn set_max_registers(ctx: &mut cuprite_ir::Context, module: cuprite_ir::OpId, n: u32) {
    for f in cuprite_ir::walk::collect_preorder(ctx, module) {
        let nf = cuprite_dialects::nvvm::FuncOp(f);
        if cuprite_dialects::nvvm::is_kernel(ctx, f) && nf.maxntid_attr(ctx).is_none() && nf.maxnreg_attr(ctx).is_none() {
            let i32t = ctx.int_type(32);
            let a = ctx.int_attr(n as i128, i32t);
            ctx.set_prop(f, "maxnreg", a);
        }
    }
}
