//! Conversions written as sets of named rewrite patterns, run by the core's one-shot
//! conversion driver ([`cuprite_ir::rewrite::conversion`]) with a legality target: the
//! progressive-lowering design of `docs/architecture.md`. Each pattern has a name (what
//! `cuprite opt --list-patterns` lists and `--disable-patterns=a,b` leaves out), a root op
//! and a benefit (the driver tries the higher benefit first).
//!
//! | pass | patterns | what |
//! |---|---|---|
//! | `convert-arith-to-nvvm` | [`arith_to_nvvm`] | `arith` to `nvvm`, in any function; options `div=precise\|full\|approx fmad=B` |
//!
//! A pass built here reports, with `--pass-statistics`, how often each pattern was tried
//! and applied; an op no enabled pattern converts is an error at its location, with a note
//! naming the pass and the patterns that were disabled.
//!
//! How to add a pattern: `docs/lowering-patterns.md`.

pub mod arith_to_nvvm;

use cuprite_ir::{
    pass::{PassFailure, PassState},
    rewrite::conversion::{apply_conversion, ConversionMode, ConversionPattern, ConversionTarget, TypeConverter},
    Context, Diagnostic, OpId,
};

/// What `--list-patterns` says about one pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternInfo {
    /// The pass whose set holds it.
    pub pass: &'static str,
    pub name: &'static str,
    /// The op it rewrites.
    pub root: &'static str,
    pub benefit: u16,
    pub summary: &'static str,
}

/// Every pattern of every pattern-based conversion, pass by pass.
pub fn all_patterns() -> Vec<PatternInfo> {
    arith_to_nvvm::pattern_infos()
}

/// Runs the conversion `patterns` (less the ones `state` disables) on `root` as pass
/// `pass`: partial conversion to `target`, statistics per pattern, failures as errors at
/// their ops with a note naming the pass.
pub(crate) fn run_patterns(
    ctx: &mut Context,
    root: OpId,
    state: &mut PassState<'_>,
    pass: &str,
    target: &ConversionTarget,
    types: &TypeConverter,
    patterns: Vec<Box<dyn ConversionPattern>>,
) -> Result<(), PassFailure> {
    let disabled: Vec<&str> =
        patterns.iter().map(|p| p.name()).filter(|n| state.disabled_patterns.iter().any(|d| d == n)).collect::<Vec<_>>();
    let note = if disabled.is_empty() {
        format!("in pass '{pass}'")
    } else {
        format!("in pass '{pass}', with pattern(s) {} disabled", disabled.join(", "))
    };
    let enabled: Vec<Box<dyn ConversionPattern>> =
        patterns.into_iter().filter(|p| !state.disabled_patterns.iter().any(|d| d == p.name())).collect();
    let r = apply_conversion(ctx, root, target, types, &enabled, ConversionMode::Partial, state.sources);
    state.statistics.push(("ops converted".into(), r.rewrites));
    for s in &r.stats {
        state.statistics.push((format!("pattern {} tried", s.name), s.tried));
        state.statistics.push((format!("pattern {} applied", s.name), s.applied));
    }
    if let Some(b) = r.hit_budget {
        state.diagnostics.push(Diagnostic::remark(format!("{pass}: stopped after {b} rewrites (the conversion's rewrite budget)"), None));
    }
    if r.errors.is_empty() {
        return Ok(());
    }
    for e in r.errors {
        state.diagnostics.push(e.with_note(note.clone(), None));
    }
    Err(PassFailure)
}
