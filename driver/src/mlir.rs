//! The driver's side of the bridge to upstream MLIR (`cuprite-mlir`, cargo feature `mlir`):
//! `cuprite opt --mlir-pass-pipeline` and `cuprite compile --backend=llvm`. Without the
//! feature, each entry point says so.

use cuprite_ir::{Context, OpId};

/// Why a flag needing the bridge cannot run in this build.
pub const NOT_BUILT: &str = "this cuprite was built without the `mlir` feature: install LLVM/MLIR 22 \
     (bash scripts/install-mlir.sh) and build with `--features cuprite/mlir`";

/// Whether this build has the bridge.
pub const AVAILABLE: bool = cfg!(feature = "mlir");

/// Moves `module` into upstream MLIR, runs `pipeline` there (as `mlir-opt --pass-pipeline`
/// reads it; MLIR verifies first) and brings the result back into a new context with
/// `ctx`'s registry. Errors are MLIR's diagnostics.
#[cfg(feature = "mlir")]
pub fn run_upstream(ctx: &Context, module: OpId, pipeline: &str) -> Result<(Context, OpId), String> {
    let bridge = cuprite_mlir::Bridge::new().map_err(|e| e.to_string())?;
    let mut m = bridge.export(ctx, module).map_err(|e| e.to_string())?;
    bridge.verify(&m).map_err(|e| e.to_string())?;
    bridge.run_pipeline(&mut m, pipeline).map_err(|e| e.to_string())?;
    let mut out = Context::new(ctx.registry().clone());
    out.allow_unregistered = ctx.allow_unregistered;
    let back = bridge.import(&m, &mut out).map_err(|e| e.to_string())?;
    Ok((out, back))
}

/// Without the bridge: the error saying so.
#[cfg(not(feature = "mlir"))]
pub fn run_upstream(_ctx: &Context, _module: OpId, _pipeline: &str) -> Result<(Context, OpId), String> {
    Err(NOT_BUILT.to_string())
}

/// What `--backend=llvm` carries over to LLVM.
pub struct LlvmBackend {
    pub sm: u32,
    pub opt_level: u8,
    pub fast_math: bool,
    /// `--emit=llvm`: the optimized LLVM IR instead of PTX.
    pub emit_llvm: bool,
}

/// LLVM's PTX (or LLVM IR) for an nvvm-level `module` (after the conversions and inlining).
#[cfg(feature = "mlir")]
pub fn llvm_backend(ctx: &Context, module: OpId, o: &LlvmBackend) -> Result<String, String> {
    let text = cuprite_mlir::llvm::to_llvm_dialect(ctx, module, o.fast_math).map_err(|e| e.to_string())?;
    let opts = cuprite_mlir::llvm::LlvmOptions { sm: o.sm, opt_level: o.opt_level, fast_math: o.fast_math, emit_llvm: o.emit_llvm };
    cuprite_mlir::llvm::compile(&text, &opts).map_err(|e| e.to_string())
}

/// Without the bridge: the error saying so.
#[cfg(not(feature = "mlir"))]
pub fn llvm_backend(_ctx: &Context, _module: OpId, _o: &LlvmBackend) -> Result<String, String> {
    Err(NOT_BUILT.to_string())
}

/// Upstream MLIR (`gpu`, `llvm`, `nvvm`, `arith`, `scf`, ... as mlir-opt's GPU pipeline
/// writes) as cuprite's `nvvm` level, in cuprite's generic form.
#[cfg(feature = "mlir")]
pub fn import_upstream(text: &str) -> Result<String, String> {
    cuprite_mlir::upstream::import_upstream(text).map_err(|e| e.to_string())
}

/// Without the bridge: the error saying so.
#[cfg(not(feature = "mlir"))]
pub fn import_upstream(_text: &str) -> Result<String, String> {
    Err(NOT_BUILT.to_string())
}
