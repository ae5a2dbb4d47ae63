//! cuprite's SIMT simulator: runs a kernel launch on the CPU at any of the three levels
//! (`cuda`, `nvvm`, `ptx`) so that every lowering and rewrite can be checked on a
//! machine with no GPU, and NVIDIA's own PTX can be run against ours.
//!
//! Layers:
//! - [`sem`]: the semantics of each dialect's ops, as a translation of a kernel (and the
//!   functions it calls, inlined) into the machine's code ([`code`]);
//! - [`machine`]: warps of 32 lanes with min-PC reconvergence, block barriers, shuffles,
//!   votes, atomics, deterministic or seeded-random schedules;
//! - [`memory`]: global buffers, shared, local, constant and param space with bounds,
//!   alignment and never-written checks; [`fp`]: IEEE arithmetic with PTX's rounding
//!   modes, ftz and approximations;
//! - [`spec`]: launch descriptions (`--arg n:i32=1000`, TOML files), argument data,
//!   output summaries and comparisons.

pub mod code;
pub mod fp;
pub mod machine;
pub mod memory;
pub mod printf;
pub mod sem;
pub mod spec;
pub mod texture;

pub use code::Program;
pub use machine::{run, Launch, Schedule, SimError, Stats};
pub use memory::Global;

/// The IR level a kernel is simulated at.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    Cuda,
    Nvvm,
    Ptx,
}

impl Level {
    pub fn name(self) -> &'static str {
        match self {
            Level::Cuda => "cuda",
            Level::Nvvm => "nvvm",
            Level::Ptx => "ptx",
        }
    }
    pub fn parse(s: &str) -> Option<Level> {
        Some(match s {
            "cuda" => Level::Cuda,
            "nvvm" => Level::Nvvm,
            "ptx" => Level::Ptx,
            _ => return None,
        })
    }
}

/// Translates kernel `kernel` of `module` (a module of `level`'s dialect).
pub fn translate(level: Level, ctx: &cuprite_ir::Context, module: cuprite_ir::OpId, kernel: &str) -> Result<Program, String> {
    match level {
        Level::Cuda => sem::cuda::translate(ctx, module, kernel),
        Level::Nvvm => sem::nvvm::translate(ctx, module, kernel),
        Level::Ptx => sem::ptx::translate(ctx, module, kernel),
    }
}

/// Translates every function of PTX module `module` for the simulator and runs each that
/// translates once, with zeroed arguments (a block of 64 threads, at most
/// `max_instructions` warp instructions), ignoring what comes of it: for fuzzing and its
/// regressions, where the only requirement is no panic in bounded time and memory.
pub fn run_every_function_once(ctx: &cuprite_ir::Context, module: cuprite_ir::OpId, max_instructions: u64) {
    let Some(body) = ctx.regions(module).first().and_then(|&r| ctx.entry_block(r)) else { return };
    let funcs: Vec<String> = ctx
        .block_ops(body)
        .filter(|&o| ctx.is_op(o, cuprite_dialects::ptx::FuncOp::NAME))
        .filter_map(|o| ctx.symbol_name(o).map(str::to_string))
        .collect();
    for k in funcs {
        if let Ok(prog) = translate(Level::Ptx, ctx, module, &k) {
            let mut g = Global::default();
            let args: Vec<Vec<u8>> = prog.params.iter().map(|p| vec![0; (p.size as usize).min(4096)]).collect();
            let mut launch = Launch::new([1, 1, 1], [64, 1, 1], args);
            launch.max_instructions = max_instructions;
            let _ = run(&prog, &mut g, &launch);
        }
    }
}

/// What a launch produced.
#[derive(Clone, Debug)]
pub struct RunResult {
    pub outputs: Vec<spec::Output>,
    pub stats: Stats,
}

/// Runs `spec` on kernel `spec.kernel` of `module` at `level`: translation, buffers,
/// the launch. `Err` is a translation error or the run's [`SimError`], as text.
pub fn run_spec(
    ctx: &cuprite_ir::Context,
    module: cuprite_ir::OpId,
    level: Level,
    spec: &spec::LaunchSpec,
    schedule: Schedule,
    max_instructions: u64,
) -> Result<RunResult, String> {
    let prog = translate(level, ctx, module, &spec.kernel)?;
    run_program(&prog, spec, schedule, max_instructions)
}

/// Runs a translated kernel with the launch `spec`.
pub fn run_program(prog: &Program, spec: &spec::LaunchSpec, schedule: Schedule, max_instructions: u64) -> Result<RunResult, String> {
    let mut global = Global::default();
    let (args, bufs) = spec::materialize(spec, &mut global)?;
    let mut global_inits = Vec::new();
    for g in &spec.globals {
        global_inits.push((g.name.clone(), g.data()?));
    }
    let launch = Launch {
        grid: spec.grid,
        block: spec.block,
        dynamic_shared: spec.shared,
        args,
        schedule,
        max_instructions,
        global_inits,
        textures: spec.textures.clone(),
    };
    let stats = run(prog, &mut global, &launch).map_err(|e| e.to_string())?;
    Ok(RunResult { outputs: spec::outputs(&global, &bufs), stats })
}

/// The before/after check for rewrites: runs every launch of `specs` on `module` (a
/// module of `level`'s dialect) before and after `rewrite` changes it in place, and
/// requires identical output buffers (within each spec's float tolerance). A pass test
/// calls it with the pass (or pipeline) as `rewrite`; `Err` names the kernel and the first
/// differing element.
pub fn check_rewrite(
    ctx: &mut cuprite_ir::Context,
    module: cuprite_ir::OpId,
    level: Level,
    specs: &[spec::LaunchSpec],
    rewrite: impl FnOnce(&mut cuprite_ir::Context, cuprite_ir::OpId) -> Result<(), String>,
) -> Result<(), String> {
    let limit = 1 << 30;
    let before: Vec<RunResult> = specs
        .iter()
        .map(|s| run_spec(ctx, module, level, s, Schedule::InOrder, limit).map_err(|e| format!("before the rewrite: {e}")))
        .collect::<Result<_, _>>()?;
    rewrite(ctx, module)?;
    for (s, b) in specs.iter().zip(&before) {
        let a = run_spec(ctx, module, level, s, Schedule::InOrder, limit).map_err(|e| format!("after the rewrite: {e}"))?;
        spec::compare(&b.outputs, &a.outputs, s.tolerance_ulp)
            .map_err(|e| format!("kernel {}: the rewrite changed the results:\n{e}", s.kernel))?;
    }
    Ok(())
}

/// [`check_rewrite`] with a pass pipeline (`builtin.module(...)` text) from `registry`.
pub fn check_pipeline(
    ctx: &mut cuprite_ir::Context,
    module: cuprite_ir::OpId,
    level: Level,
    specs: &[spec::LaunchSpec],
    pipeline: &str,
    registry: &cuprite_ir::pass::PassRegistry,
) -> Result<(), String> {
    let pm = cuprite_ir::pass::parse_pipeline(pipeline, "builtin.module", registry).map_err(|e| format!("{e:?}"))?;
    check_rewrite(ctx, module, level, specs, |ctx, m| {
        cuprite_ir::pass::run_pipeline(ctx, m, &pm, &Default::default(), None)
            .map(|_| ())
            .map_err(|o| o.diagnostics.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n"))
    })
}
