//! `eqsat`: equality saturation with egg over the `nvvm` level's integer and address
//! arithmetic, and the greedy driver on the same rules.
//!
//! | file | what |
//! |---|---|
//! | [`lang`] | the egg language: [`lang::Op`], [`lang::Term`], ops to terms and back |
//! | [`facts`] | constants and signed/unsigned ranges, seeded by CUDA's guarantees, one transfer function for both drivers |
//! | [`rules`] | the rule language (`name: lhs => rhs if cond`), the rule table, magic numbers |
//! | [`egraph`] | the e-graph driver: per block, egg's runner with budgets and backoff, extraction, rebuilding |
//! | [`greedy`] | the greedy driver: the `simplify` rules as patterns of the core's greedy driver |
//! | [`cost`] | the SASS cost model extraction minimizes |
//!
//! One rule source, two drivers: `cuprite compile --rewrite-driver=eqsat|greedy|off` (and
//! `cuprite opt --pass-pipeline='...eqsat{driver=greedy}...'`) runs the same rule table
//! either way, so the strategies can be compared on the same code. The greedy driver
//! applies a rule wherever it matches (only rules marked `simplify`: the others, such as
//! commutativity, would cycle or make code worse on their own); equality saturation adds
//! every rule's right side beside its left, and extraction picks the cheapest term.
//!
//! Budgets per block (each hit is a remark, never a hang): [`ITERATIONS`], [`NODES`],
//! [`TIME_MS`]; egg's `BackoffScheduler` bans rules that match too often (commutativity and
//! associativity) for a few iterations, which keeps the graph from growing by permutations.
//!
//! `remarks=true` (`cuprite compile --remarks=eqsat`) reports, at each rewritten value's
//! source location, the original and chosen terms, their costs and the rules egg's
//! explanation of their equality uses. `--pass-statistics` counts rule applications.

pub mod bits;
pub mod cost;
pub mod egraph;
pub mod facts;
pub mod greedy;
pub mod lang;
pub mod rules;
pub mod scope;

use cuprite_ir::{
    pass::{Pass, PassFailure, PassState, Preserved},
    rewrite::greedy::{apply_patterns_greedily, GreedyConfig},
    verify::loc_span,
    Context, Diagnostic, OpId,
};
use std::sync::{Arc, OnceLock};

/// Iterations of the rules per block. The useful chains are short: a division by a
/// constant becomes its `mul.hi` form in one step, a narrowing through `trunc` and `zext`
/// in two, and each iteration applies every matching rule at once. Measured on the
/// 50,000-line generated file and the corpus: 12 iterations cost 20 times the compile time of
/// 3, and 2 cost 1.26 times a compile without the pass, all finding the same code on the
/// corpus (`bench/results/eqsat_drivers.md`, `eqsat_static.md`).
pub const ITERATIONS: usize = 2;
/// E-nodes per block. Blocks of real kernels hold tens to a few hundred arithmetic ops;
/// commutativity and associativity grow a graph with the permutations of its sums, and
/// 1,000 nodes stop that early without cutting off the rewrites the rules are for.
pub const NODES: usize = 1_000;
/// Wall-clock milliseconds per block: a safety net only (the node limit stops first on
/// every block we have measured); hitting it makes the result depend on the machine's
/// speed, which the remark says.
pub const TIME_MS: u64 = 200;

/// Which driver runs the rules.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Driver {
    /// Equality saturation (egg).
    #[default]
    Eqsat,
    /// The `simplify` rules on the greedy pattern driver.
    Greedy,
    /// Neither.
    Off,
}

impl Driver {
    /// `eqsat`, `greedy` or `off`.
    pub fn parse(s: &str) -> Option<Driver> {
        Some(match s {
            "eqsat" => Driver::Eqsat,
            "greedy" => Driver::Greedy,
            "off" => Driver::Off,
            _ => return None,
        })
    }
    /// The option's spelling.
    pub fn name(self) -> &'static str {
        match self {
            Driver::Eqsat => "eqsat",
            Driver::Greedy => "greedy",
            Driver::Off => "off",
        }
    }
}

/// The pass's options.
#[derive(Clone, Debug)]
pub struct Options {
    pub driver: Driver,
    pub iterations: usize,
    pub nodes: usize,
    pub time_ms: u64,
    pub remarks: bool,
    /// Every block gets every rule, not only those in loops or with a division.
    pub all_blocks: bool,
    /// Float contraction by the rules (`fma-fadd` ...): off by default. Instruction
    /// selection fuses the same products under the same condition (a contractible
    /// single-use `fmul` of the block), so the PTX is the same either way; with the float
    /// terms in them, a float-heavy file's graphs cost a fifth more time (measured on
    /// `gen-cu`'s 8,000-line file: 0.91 s against 1.01 s at `-j1`). On, `--emit=nvvm`
    /// shows the `fma.rn`s, and a rule set can be studied with contraction in it.
    pub floats: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            driver: Driver::Eqsat,
            iterations: ITERATIONS,
            nodes: NODES,
            time_ms: TIME_MS,
            remarks: false,
            all_blocks: false,
            floats: false,
        }
    }
}

impl Options {
    /// Parses `driver=`, `iter-limit=`, `node-limit=`, `time-limit-ms=`, `remarks=`,
    /// `all-blocks=`, `floats=`.
    pub fn parse(o: &[(String, String)]) -> Result<Options, String> {
        let mut opts = Options::default();
        for (k, v) in o {
            let n = || v.parse::<u64>().map_err(|_| format!("option '{k}' of pass 'eqsat' expects a number, got '{v}'"));
            match k.as_str() {
                "driver" => {
                    opts.driver =
                        Driver::parse(v).ok_or_else(|| format!("option 'driver' of pass 'eqsat' is eqsat, greedy or off, got '{v}'"))?
                }
                "iter-limit" => opts.iterations = n()?.max(1) as usize,
                "node-limit" => opts.nodes = n()?.max(1) as usize,
                "time-limit-ms" => opts.time_ms = n()?.max(1),
                "remarks" | "all-blocks" | "floats" => {
                    let b = match v.as_str() {
                        "true" | "1" => true,
                        "false" | "0" => false,
                        _ => return Err(format!("option '{k}' of pass 'eqsat' expects true or false, got '{v}'")),
                    };
                    match k.as_str() {
                        "remarks" => opts.remarks = b,
                        "all-blocks" => opts.all_blocks = b,
                        _ => opts.floats = b,
                    }
                }
                _ => {
                    return Err(format!(
                        "pass 'eqsat' has no option '{k}' (options: driver, iter-limit, node-limit, time-limit-ms, remarks, all-blocks, floats)"
                    ))
                }
            }
        }
        Ok(opts)
    }
}

/// The rule table, parsed once.
pub fn rule_table() -> &'static [Arc<rules::Rule>] {
    static RULES: OnceLock<Vec<Arc<rules::Rule>>> = OnceLock::new();
    RULES.get_or_init(|| rules::rules().into_iter().map(Arc::new).collect())
}

/// The `eqsat` pass.
pub struct EqsatPass {
    pub opts: Options,
    rules: Vec<Arc<rules::Rule>>,
    rewrites: egraph::RuleSet,
    /// The `simplify` rules alone, for straight-line blocks.
    simplify: egraph::RuleSet,
}

impl EqsatPass {
    /// The pass on the whole rule table.
    pub fn new(opts: Options) -> EqsatPass {
        Self::with_rules(opts, rule_table().to_vec())
    }
    /// The pass on `rules` (tests plant rules here).
    pub fn with_rules(opts: Options, rules: Vec<Arc<rules::Rule>>) -> EqsatPass {
        let rewrites = egraph::rewrites(&rules);
        let simple: Vec<Arc<rules::Rule>> = rules.iter().filter(|r| r.kind == rules::Kind::Simplify).cloned().collect();
        let simplify = egraph::rewrites(&simple);
        EqsatPass { opts, rules, rewrites, simplify }
    }
}

impl Pass for EqsatPass {
    fn name(&self) -> &str {
        "eqsat"
    }
    fn anchor(&self) -> Option<&str> {
        Some("nvvm.func")
    }
    fn run(&self, ctx: &mut Context, func: OpId, state: &mut PassState<'_>) -> Result<(), PassFailure> {
        match self.opts.driver {
            Driver::Off => {
                state.preserved = Preserved::All;
            }
            Driver::Greedy => {
                let set = greedy::patterns(ctx, &self.rules, self.opts.floats);
                let r = apply_patterns_greedily(ctx, func, &set, &GreedyConfig::default());
                if !r.changed {
                    state.preserved = Preserved::All;
                }
                let total: u64 = r.stats.iter().map(|s| s.applied).sum();
                state.statistics.push(("rules applied".into(), total));
                for s in r.stats.iter().filter(|s| s.applied > 0) {
                    state.statistics.push((format!("rule {}", s.name), s.applied));
                }
                if !r.converged() {
                    state.diagnostics.push(Diagnostic::remark(
                        format!("eqsat{{driver=greedy}}: stopped before a fixpoint ({:?})", r.stop),
                        loc_span(ctx, ctx.op_loc(func), state.sources),
                    ));
                }
            }
            Driver::Eqsat => self.run_eqsat(ctx, func, state),
        }
        Ok(())
    }
}

impl EqsatPass {
    fn run_eqsat(&self, ctx: &mut Context, func: OpId, state: &mut PassState<'_>) {
        let budget = egraph::Budget {
            iterations: self.opts.iterations,
            nodes: self.opts.nodes,
            time: std::time::Duration::from_millis(self.opts.time_ms),
            floats: self.opts.floats,
        };
        let bound = scope::max_threads(ctx, func);
        // The blocks worth the whole rule set: those in loops, where a saved instruction is
        // saved every trip, and those with a division or remainder, dozens of SASS
        // instructions each. Straight-line code elsewhere runs once per thread: there the
        // rules that only explore (commutativity, associativity), which make a graph grow,
        // are left out (`all-blocks=true`: every block gets them all).
        let in_loops: rustc_hash::FxHashSet<cuprite_ir::BlockId> =
            crate::transforms::loops::find_loops(ctx, func).into_iter().flat_map(|l| l.blocks).collect();
        let worth = |ctx: &Context, b: cuprite_ir::BlockId| {
            self.opts.all_blocks
                || in_loops.contains(&b)
                || ctx
                    .block_ops(b)
                    .any(|o| matches!(lang::op_of(ctx, o), Some(lang::Op::Udiv | lang::Op::Urem | lang::Op::Sdiv | lang::Op::Srem)))
        };
        let blocks: Vec<cuprite_ir::BlockId> = ctx.regions(func).iter().flat_map(|&r| ctx.region_blocks(r).to_vec()).collect();
        let mut simplify_only = 0u64;
        let (mut rewritten, mut graphs, mut nodes, mut stops) = (0u64, 0u64, 0u64, 0u64);
        let mut applied: Vec<(String, u64)> = Vec::new();
        let mut dom = cuprite_ir::dominance::DominanceInfo::default();
        for b in blocks {
            let rules = if worth(ctx, b) {
                &self.rewrites
            } else {
                simplify_only += 1;
                &self.simplify
            };
            let r = egraph::optimize_block(ctx, b, &mut dom, rules, &budget, bound, self.opts.remarks);
            if r.iterations == 0 {
                continue;
            }
            graphs += 1;
            rewritten += r.rewritten;
            nodes = nodes.max(r.nodes);
            for (name, n) in r.applied {
                match applied.iter_mut().find(|p| p.0 == name) {
                    Some(p) => p.1 += n,
                    None => applied.push((name, n)),
                }
            }
            if let Some(why) = &r.stopped {
                stops += 1;
                if self.opts.remarks {
                    state.diagnostics.push(Diagnostic::remark(
                        format!("eqsat: a block's run stopped at its {why}; the cheapest terms found so far are used"),
                        loc_span(ctx, ctx.op_loc(func), state.sources),
                    ));
                }
            }
            for (loc, text) in r.remarks {
                state.diagnostics.push(Diagnostic::remark(text, loc_span(ctx, loc, state.sources)));
            }
        }
        if rewritten == 0 {
            state.preserved = Preserved::All;
        }
        applied.sort();
        state.statistics.push(("e-graphs built".into(), graphs));
        state.statistics.push(("of them straight-line, with the simplify rules only".into(), simplify_only));
        state.statistics.push(("values rewritten".into(), rewritten));
        state.statistics.push(("largest e-graph (nodes)".into(), nodes));
        state.statistics.push(("runs stopped by a budget".into(), stops));
        for (name, n) in applied {
            state.statistics.push((format!("rule {name}"), n));
        }
    }
}
