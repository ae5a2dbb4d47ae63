//! The `ub` dialect (upstream MLIR's): `ub.unreachable`. Declared in `ops.td`.

/// Generated from `ops.td`.
#[allow(clippy::all, dead_code)]
pub mod ops {
    include!(concat!(env!("OUT_DIR"), "/ub.rs"));
}
pub use ops::{register, UnreachableOp};
