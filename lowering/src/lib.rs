//! Conversions between cuprite's dialects and PTX printing:
//!
//! - [`mod@cuda_to_nvvm`]: structured `cuda` functions to `nvvm` CFGs (CudaToNvvm);
//! - [`mod@nvvm_to_ptx`]: instruction selection from `nvvm` to `ptx` on virtual registers
//!   (NvvmToPtx);
//! - [`ptx_print`]: the PTX text of a `ptx` module, the only producer of PTX.
//!
//! Each conversion builds a new module in the same [`cuprite_ir::Context`] and leaves its
//! input as it was, so that every level can be printed (`--emit=cuda|nvvm|ptx-ir|ptx`).

pub mod cuda_to_nvvm;
pub mod layout;
pub mod nvvm_to_ptx;
pub mod ptx_print;

pub use cuda_to_nvvm::{cuda_to_nvvm, CudaToNvvmOptions, LowerError};
pub use nvvm_to_ptx::nvvm_to_ptx;
pub use ptx_print::{print_ptx, PtxOptions};
