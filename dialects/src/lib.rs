//! cuprite's dialects: `builtin`, `func`, `arith`, `math`, `scf`, `cf`, `ub`, `cuda`, `nvvm` and `ptx`. Each is declared
//! once in its `ops.td` (ODS in TableGen, read by `cuprite-tablegen` from `build.rs`, which
//! generates the op wrappers, the generated verifiers, the declarative assembly formats and
//! the registration); its `mod.rs` holds only the hand-written logic: verifiers beyond the
//! declared constraints, folders, canonicalization patterns and hand-written custom forms.

pub mod arith;
pub mod builtin;
pub mod cf;
pub mod cuda;
pub mod func;
pub mod hints;
pub mod math;
pub mod nvvm;
pub mod ptx;
pub mod scf;
pub mod ub;

use cuprite_ir::{pass::PassRegistry, Registry};
use std::sync::Arc;

/// Registers every dialect of this crate.
pub fn register_all(reg: &mut Registry) {
    builtin::register(reg);
    cf::register(reg);
    func::register(reg);
    arith::register(reg);
    math::register(reg);
    scf::register(reg);
    ub::register(reg);
    cuda::register(reg);
    nvvm::register(reg);
    ptx::register(reg);
}

/// A registry with every dialect of this crate.
pub fn registry() -> Arc<Registry> {
    let mut r = Registry::new();
    register_all(&mut r);
    Arc::new(r)
}

/// A pass registry with the generic passes.
pub fn passes() -> PassRegistry {
    let mut p = PassRegistry::new();
    cuprite_ir::transforms::register_passes(&mut p);
    p
}
