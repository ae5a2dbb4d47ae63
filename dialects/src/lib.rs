//! cuprite's dialects. For now `builtin`, `func`, `arith` and `cf`, hand-written against the
//! `ir` registry (op traits, verifiers, folders, canonicalization patterns, custom forms);
//! the tablegen issue moves their declarations to `.td` files.

pub mod arith;
pub mod builtin;
pub mod cf;
pub mod func;

use cuprite_ir::{pass::PassRegistry, Registry};
use std::sync::Arc;

/// Registers every dialect of this crate.
pub fn register_all(reg: &mut Registry) {
    builtin::register(reg);
    cf::register(reg);
    func::register(reg);
    arith::register(reg);
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
