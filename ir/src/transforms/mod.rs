//! Generic passes that need no knowledge of any dialect: they work through traits,
//! interfaces and the registry's hooks.

pub mod canonicalize;
pub mod cse;
pub mod dce;
pub mod inline;
pub mod symbol_dce;

use crate::diag::Diagnostic;
use crate::pass::{PassRegistry, PassState};

/// Registers canonicalize, cse, dce, symbol-dce and inline.
pub fn register_passes(reg: &mut PassRegistry) {
    reg.register("canonicalize", "Fold ops and apply canonicalization patterns until fixpoint (greedy driver)", canonicalize::create);
    reg.register("cse", "Eliminate common (pure, equivalent) subexpressions", |o| {
        no_options("cse", o)?;
        Ok(Box::new(cse::Cse))
    });
    reg.register("dce", "Erase unused side-effect-free ops and unreachable blocks", |o| {
        no_options("dce", o)?;
        Ok(Box::new(dce::Dce))
    });
    reg.register("symbol-dce", "Erase private symbols that nothing references", |o| {
        no_options("symbol-dce", o)?;
        Ok(Box::new(symbol_dce::SymbolDce))
    });
    reg.register("inline", "Inline calls to single-block callables (call/callable interfaces)", inline::create);
}

/// Fails when a pass that takes no options gets one.
pub fn no_options(pass: &str, o: &[(String, String)]) -> Result<(), String> {
    match o.first() {
        Some((k, _)) => Err(format!("pass '{pass}' has no option '{k}'")),
        None => Ok(()),
    }
}

/// Parses an unsigned integer option value.
pub(crate) fn uint_option(pass: &str, k: &str, v: &str) -> Result<u64, String> {
    v.parse().map_err(|_| format!("option '{k}' of pass '{pass}' expects an unsigned integer, got '{v}'"))
}

/// Adds a remark that a driver stopped on a budget.
pub(crate) fn budget_remark(state: &mut PassState<'_>, pass: &str, what: String) {
    state.diagnostics.push(Diagnostic::remark(format!("{pass}: {what}"), None));
}
