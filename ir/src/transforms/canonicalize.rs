//! `canonicalize`: the greedy driver over every registered op's folder and
//! canonicalization patterns.

use crate::{
    context::{Context, OpId},
    pass::{Pass, PassState},
    rewrite::{
        greedy::{apply_patterns_greedily, GreedyConfig, StopReason},
        PatternSet,
    },
};
use std::sync::OnceLock;

/// The canonicalize pass.
pub struct Canonicalize {
    config: GreedyConfig,
    patterns: OnceLock<PatternSet>,
}

/// Builds the pass from `max-iterations=N`, `max-num-rewrites=N`, `fold=bool`,
/// `region-simplify=bool`.
pub fn create(opts: &[(String, String)]) -> Result<Box<dyn Pass>, String> {
    let mut config = GreedyConfig::default();
    for (k, v) in opts {
        match k.as_str() {
            "max-iterations" => config.max_iterations = super::uint_option("canonicalize", k, v)? as u32,
            "max-num-rewrites" => config.max_rewrites = Some(super::uint_option("canonicalize", k, v)?),
            "fold" => config.fold = v != "false",
            "region-simplify" => config.region_simplify = v != "false",
            _ => {
                return Err(format!(
                    "pass 'canonicalize' has no option '{k}' (options: max-iterations, max-num-rewrites, fold, region-simplify)"
                ))
            }
        }
    }
    Ok(Box::new(Canonicalize { config, patterns: OnceLock::new() }))
}

impl Pass for Canonicalize {
    fn name(&self) -> &str {
        "canonicalize"
    }
    fn run(&self, ctx: &mut Context, op: OpId, state: &mut PassState<'_>) -> Result<(), crate::pass::PassFailure> {
        let patterns = self.patterns.get_or_init(|| PatternSet::canonicalization(ctx.registry()));
        let r = apply_patterns_greedily(ctx, op, patterns, &self.config);
        state.statistics.push(("iterations (sweeps)".into(), r.iterations as u64));
        state.statistics.push(("rewrites".into(), r.rewrites));
        state.statistics.push(("folds".into(), r.folds));
        state.statistics.push(("dead ops erased".into(), r.erased_dead));
        state.statistics.push(("sweeps with region simplification".into(), r.region_simplifications));
        for p in &r.stats {
            state.statistics.push((format!("pattern {} tried", p.name), p.tried));
            state.statistics.push((format!("pattern {} applied", p.name), p.applied));
        }
        match r.stop {
            StopReason::Converged => {}
            StopReason::IterationBudget(n) => {
                super::budget_remark(state, "canonicalize", format!("did not converge in {n} iterations (max-iterations)"))
            }
            StopReason::RewriteBudget(n) => {
                super::budget_remark(state, "canonicalize", format!("stopped after {n} rewrites (max-num-rewrites)"))
            }
        }
        if !r.changed {
            state.preserved = crate::pass::Preserved::All;
        }
        Ok(())
    }
}
