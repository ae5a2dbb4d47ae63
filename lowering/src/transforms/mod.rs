//! The optimizations that run on the `nvvm` level, as passes of `cuprite_ir`'s pass
//! manager, and the pipelines `cuprite compile -O<N>` runs.
//!
//! | pass | anchor | what |
//! |---|---|---|
//! | `nvvm-inline` | `builtin.module` | inlines device functions ([`inline`]) |
//! | `mem2reg` | `nvvm.func` | locals to SSA values ([`mem2reg`]) |
//! | `sccp` | `nvvm.func` | sparse conditional constant propagation ([`sccp`]) |
//! | `memory-space-opt` | `nvvm.func` | global space for kernel pointer parameters, specific spaces for accesses ([`memspace`]) |
//! | `load-forward` | `nvvm.func` | store-to-load forwarding for local variables whose address does not escape, per block ([`forward`]) |
//! | `loop-unroll` | `nvvm.func` | full unrolling of counted loops: `#pragma unroll`, and small constant-trip loops ([`unroll`]) |
//! | `loop-rotate` | `nvvm.func` | loops tested at the top become guarded loops tested at the bottom ([`rotate`]) |
//! | `licm` | `nvvm.func` | loop-invariant arithmetic and loads to the loop's preheader ([`licm`]) |
//! | `select-form` | `nvvm.func` | branches that only choose a value to `nvvm.select`, speculating small arms ([`select`]) |
//! | `canonicalize`, `cse`, `dce` | any | the core's generic passes, driven by the `nvvm` folders and patterns |
//!
//! `-O0` runs nothing; `-O1` and up run [`pipeline_text`]. `mem2reg` runs twice: first so
//! that `sccp` and `memory-space-opt` see pointers kept in locals as SSA values, then
//! after `memory-space-opt`, which turns accesses through `addrspacecast`s of allocas (the
//! out-parameters of inlined functions) into direct ones that mem2reg can promote. The
//! function-level part is a
//! nested pipeline on `nvvm.func`, which is isolated from above: with threading on, the
//! pass manager moves each function into its own `Context` and runs them in parallel.

pub mod cfg;
pub mod forward;
pub mod inline;
pub mod licm;
pub mod loops;
pub mod mem2reg;
pub mod memspace;
pub mod rotate;
pub mod sccp;
pub mod select;
pub mod unroll;

use cuprite_ir::{
    pass::{Pass, PassFailure, PassRegistry, PassState, Preserved},
    transforms::no_options,
    Context, OpId,
};

/// `mem2reg` as a pass.
pub struct Mem2RegPass;

impl Pass for Mem2RegPass {
    fn name(&self) -> &str {
        "mem2reg"
    }
    fn anchor(&self) -> Option<&str> {
        Some("nvvm.func")
    }
    fn run(&self, ctx: &mut Context, op: OpId, state: &mut PassState<'_>) -> Result<(), PassFailure> {
        let s = mem2reg::mem2reg(ctx, op);
        if s.promoted == 0 {
            state.preserved = Preserved::All;
        }
        state.statistics.push(("promoted allocas".into(), s.promoted));
        state.statistics.push(("block arguments kept".into(), s.block_args));
        Ok(())
    }
}

/// `sccp` as a pass (it also forwards branches through empty blocks and drops the block
/// arguments that became dead or trivial).
pub struct SccpPass;

impl Pass for SccpPass {
    fn name(&self) -> &str {
        "sccp"
    }
    fn anchor(&self) -> Option<&str> {
        Some("nvvm.func")
    }
    fn run(&self, ctx: &mut Context, op: OpId, state: &mut PassState<'_>) -> Result<(), PassFailure> {
        let mut n = sccp::sccp(ctx, op);
        if let Some(&r) = ctx.regions(op).first() {
            n += cfg::forward_empty_blocks(ctx, r);
            cuprite_ir::rewrite::region_simplify::erase_unreachable_blocks(ctx, r);
            n += cfg::simplify_block_args(ctx, r);
        }
        if n == 0 {
            state.preserved = Preserved::All;
        }
        state.statistics.push(("values and branches folded".into(), n));
        Ok(())
    }
}

/// `load-forward` as a pass.
pub struct LoadForwardPass;

impl Pass for LoadForwardPass {
    fn name(&self) -> &str {
        "load-forward"
    }
    fn anchor(&self) -> Option<&str> {
        Some("nvvm.func")
    }
    fn run(&self, ctx: &mut Context, op: OpId, state: &mut PassState<'_>) -> Result<(), PassFailure> {
        let n = forward::load_forward(ctx, op);
        if n == 0 {
            state.preserved = Preserved::All;
        }
        state.statistics.push(("loads forwarded".into(), n));
        Ok(())
    }
}

/// `loop-unroll` as a pass.
pub struct UnrollPass(pub unroll::Options);

impl Pass for UnrollPass {
    fn name(&self) -> &str {
        "loop-unroll"
    }
    fn anchor(&self) -> Option<&str> {
        Some("nvvm.func")
    }
    fn options(&self) -> String {
        format!("threshold={} max-trips={} runtime-factor={}", self.0.threshold, self.0.max_trips, self.0.runtime_factor)
    }
    fn run(&self, ctx: &mut Context, op: OpId, state: &mut PassState<'_>) -> Result<(), PassFailure> {
        let s = unroll::unroll_function(ctx, op, &self.0);
        if s.unrolled + s.partial == 0 {
            state.preserved = Preserved::All;
        }
        state.statistics.push(("loops fully unrolled".into(), s.unrolled));
        state.statistics.push(("loops unrolled by a factor".into(), s.partial));
        state.statistics.push(("of them by #pragma unroll".into(), s.by_pragma));
        state.statistics.push(("copies of loop bodies".into(), s.copies));
        state.statistics.push(("counted loops kept".into(), s.kept));
        Ok(())
    }
}

/// `select-form` as a pass.
pub struct SelectFormPass;

impl Pass for SelectFormPass {
    fn name(&self) -> &str {
        "select-form"
    }
    fn anchor(&self) -> Option<&str> {
        Some("nvvm.func")
    }
    fn run(&self, ctx: &mut Context, op: OpId, state: &mut PassState<'_>) -> Result<(), PassFailure> {
        let s = select::select_form(ctx, op);
        if s.branches == 0 {
            state.preserved = Preserved::All;
        }
        state.statistics.push(("branches to selects".into(), s.branches));
        state.statistics.push(("arms speculated".into(), s.speculated));
        state.statistics.push(("selects made".into(), s.selects));
        Ok(())
    }
}

/// `licm` as a pass.
pub struct LicmPass;

impl Pass for LicmPass {
    fn name(&self) -> &str {
        "licm"
    }
    fn anchor(&self) -> Option<&str> {
        Some("nvvm.func")
    }
    fn run(&self, ctx: &mut Context, op: OpId, state: &mut PassState<'_>) -> Result<(), PassFailure> {
        let s = licm::licm(ctx, op);
        if s.hoisted == 0 && s.preheaders == 0 {
            state.preserved = Preserved::All;
        }
        state.statistics.push(("ops hoisted".into(), s.hoisted));
        state.statistics.push(("of them loads".into(), s.loads));
        state.statistics.push(("preheaders made".into(), s.preheaders));
        Ok(())
    }
}

/// `loop-rotate` as a pass.
pub struct RotatePass;

impl Pass for RotatePass {
    fn name(&self) -> &str {
        "loop-rotate"
    }
    fn anchor(&self) -> Option<&str> {
        Some("nvvm.func")
    }
    fn run(&self, ctx: &mut Context, op: OpId, state: &mut PassState<'_>) -> Result<(), PassFailure> {
        let n = rotate::rotate_loops(ctx, op);
        if n == 0 {
            state.preserved = Preserved::All;
        }
        state.statistics.push(("loops rotated".into(), n));
        Ok(())
    }
}

/// `memory-space-opt` as a pass.
pub struct MemorySpacePass;

impl Pass for MemorySpacePass {
    fn name(&self) -> &str {
        "memory-space-opt"
    }
    fn anchor(&self) -> Option<&str> {
        Some("nvvm.func")
    }
    fn run(&self, ctx: &mut Context, op: OpId, state: &mut PassState<'_>) -> Result<(), PassFailure> {
        let n = memspace::memory_space_opt(ctx, op);
        state.statistics.push(("accesses given a state space".into(), n));
        Ok(())
    }
}

/// `nvvm-inline` as a pass.
pub struct InlinePass(pub inline::InlineOptions);

impl Pass for InlinePass {
    fn name(&self) -> &str {
        "nvvm-inline"
    }
    fn anchor(&self) -> Option<&str> {
        Some("builtin.module")
    }
    fn run(&self, ctx: &mut Context, op: OpId, state: &mut PassState<'_>) -> Result<(), PassFailure> {
        let s = inline::inline_module(ctx, op, &self.0);
        if s.budget_hit {
            state.diagnostics.push(cuprite_ir::Diagnostic::remark(
                format!("nvvm-inline: stopped after {} rounds; calls that could be inlined remain", inline::MAX_ROUNDS),
                None,
            ));
        }
        if s.inlined == 0 && s.functions_erased == 0 {
            state.preserved = Preserved::All;
        }
        state.statistics.push(("calls inlined".into(), s.inlined));
        state.statistics.push(("device functions erased".into(), s.functions_erased));
        Ok(())
    }
}

/// The dialects' passes (the core's generic ones) plus the `nvvm` ones: what `cuprite opt`
/// and `cuprite compile` can run.
pub fn registry() -> PassRegistry {
    let mut reg = cuprite_dialects::passes();
    reg.register("mem2reg", "Promote local variables (nvvm.alloca) to SSA values", |o| {
        no_options("mem2reg", o)?;
        Ok(Box::new(Mem2RegPass))
    });
    reg.register("sccp", "Sparse conditional constant propagation on nvvm functions", |o| {
        no_options("sccp", o)?;
        Ok(Box::new(SccpPass))
    });
    reg.register("memory-space-opt", "Kernel pointer parameters to global space; accesses through casts use the specific space", |o| {
        no_options("memory-space-opt", o)?;
        Ok(Box::new(MemorySpacePass))
    });
    reg.register("load-forward", "Store-to-load forwarding for local variables whose address does not escape, per block", |o| {
        no_options("load-forward", o)?;
        Ok(Box::new(LoadForwardPass))
    });
    reg.register("select-form", "Branches that only choose a value become selects, speculating arms of a few cheap ops", |o| {
        no_options("select-form", o)?;
        Ok(Box::new(SelectFormPass))
    });
    reg.register(
        "licm",
        "Loop-invariant code motion: invariant arithmetic, and loads no store in the loop can change, to the preheader",
        |o| {
            no_options("licm", o)?;
            Ok(Box::new(LicmPass))
        },
    );
    reg.register("loop-rotate", "Loops tested at the top become guarded loops tested at the bottom (one branch a trip)", |o| {
        no_options("loop-rotate", o)?;
        Ok(Box::new(RotatePass))
    });
    reg.register(
        "loop-unroll",
        "Unroll counted loops: fully under #pragma unroll and when small, by a factor otherwise (threshold=N max-trips=N runtime-factor=N)",
        |o| {
            let mut opts = unroll::Options::default();
            for (k, v) in o {
                let n = || v.parse::<u64>().map_err(|_| format!("option '{k}' of pass 'loop-unroll' expects a number, got '{v}'"));
                match k.as_str() {
                    "threshold" => opts.threshold = n()?,
                    "max-trips" => opts.max_trips = n()?,
                    "runtime-factor" => opts.runtime_factor = n()?,
                    _ => return Err(format!("pass 'loop-unroll' has no option '{k}' (options: threshold, max-trips, runtime-factor)")),
                }
            }
            Ok(Box::new(UnrollPass(opts)))
        },
    );
    reg.register("nvvm-inline", "Inline device functions into their callers (threshold=N ops)", |o| {
        let mut opts = inline::InlineOptions::default();
        for (k, v) in o {
            match k.as_str() {
                "threshold" => {
                    opts.threshold =
                        v.parse().map_err(|_| format!("option 'threshold' of pass 'nvvm-inline' expects a number, got '{v}'"))?
                }
                _ => return Err(format!("pass 'nvvm-inline' has no option '{k}' (options: threshold)")),
            }
        }
        Ok(Box::new(InlinePass(opts)))
    });
    reg
}

/// The pipeline of optimization level `level` (0 to 3), in the pass manager's syntax;
/// `unroll`: with `loop-unroll` (`-fno-unroll-loops` leaves it out), which runs once the
/// induction variables are SSA values, followed by `sccp` to fold the copies' constants.
pub fn pipeline_text(level: u8, unroll: bool) -> String {
    match (level, unroll) {
        (0, _) => "builtin.module()".into(),
        (_, true) => {
            "builtin.module(nvvm-inline,nvvm.func(mem2reg,sccp,memory-space-opt,mem2reg,loop-unroll,sccp,load-forward,sccp,mem2reg,select-form,loop-rotate,cse,licm,canonicalize,cse,dce))".into()
        }
        (_, false) => "builtin.module(nvvm-inline,nvvm.func(mem2reg,sccp,memory-space-opt,mem2reg,select-form,loop-rotate,cse,licm,canonicalize,cse,dce))".into(),
    }
}

/// The byte offset of `nvvm.ptradd` `op` when it is a constant (an `nvvm.constant`
/// integer): what instruction selection folds into `[base+off]` and scalar replacement
/// follows.
pub(crate) fn ptradd_const_offset(ctx: &cuprite_ir::Context, op: cuprite_ir::OpId) -> Option<i128> {
    cuprite_dialects::nvvm::int_constant(ctx, ctx.defining_op(ctx.operand(op, 1))?)
}
