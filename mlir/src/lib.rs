//! cuprite's bridge to upstream MLIR, through melior and mlir-sys (LLVM/MLIR 22).
//!
//! Behind the cargo feature `mlir` (off by default: the default build needs cargo alone;
//! `scripts/install-mlir.sh` installs the packages the feature links). Without it the
//! crate is empty and the driver says, for every flag that needs it, that it was built
//! without it.
//!
//! # Design
//!
//! A `Bridge` owns a melior `Context` with upstream's own standard dialects (`builtin`,
//! `arith`, `cf`, `func`, `math`, `scf`, `ub`, and `llvm` for the pointer type the `nvvm`
//! level uses) and cuprite's `cuda`, `nvvm` and `ptx`
//! dialects loaded from the IRDL the tablegen backend writes (`dialects/irdl/`). Upstream's
//! `nvvm` dialect is not loaded there (it would collide with ours by name); the LLVM
//! backend (the `llvm` module) has a context of its own with upstream's `llvm` and `nvvm`.
//!
//! **Export** (`Bridge::export`) walks a cuprite module and builds the same operations
//! through MLIR's C API, one by one: op names, operands, result types, attributes (a
//! cuprite op's properties and discardable attributes both become MLIR attributes; for an
//! upstream op with properties, MLIR moves its inherent ones into them), regions, blocks
//! with their arguments, successors. Types and attributes cross by their text, as cuprite
//! prints them for IRDL (`--irdl-compatible`) and MLIR parses them (each distinct one once).
//! A use before its definition (a graph region, blocks out of dominance order) gets a
//! placeholder that is replaced when the definition is built. File locations map to
//! `FileLineColRange` and back; other locations become unknown.
//!
//! **Import** (`Bridge::import`) is the same walk the other way: types and attributes
//! printed by MLIR and parsed by cuprite, attributes split into properties and
//! discardable ones by cuprite's registry (as its parser does for a dictionary without
//! `<{...}>`).
//!
//! Export then import gives the module back identical (tested on every corpus file).
//! MLIR verifies what IRDL can express: a cuda-level module whose control flow is already
//! branches (after `convert-scf-to-cf,lower-cuda-control-flow`) verifies; `cuda.if` and
//! `cuda.loop`, whose regions end in `cuda.yield`, do not (MLIR 22's IRDL cannot declare a
//! terminator), nor the `nvvm` level, whose functions end in `nvvm.return` for the same
//! reason. `Bridge::run_pipeline` runs an upstream pass pipeline (textual, as
//! `mlir-opt --pass-pipeline` reads it) on an exported module; MLIR's pass manager
//! verifies before it runs.
#![cfg_attr(not(feature = "mlir"), allow(unused))]

#[cfg(feature = "mlir")]
mod bridge;
#[cfg(feature = "mlir")]
pub use bridge::{Bridge, Error};
#[cfg(feature = "mlir")]
pub mod llvm;
#[cfg(feature = "mlir")]
pub mod upstream;
