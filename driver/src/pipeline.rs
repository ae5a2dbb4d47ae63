//! The whole cuda-to-ptx pipeline as one textual pass pipeline, and the registry of every
//! pass `cuprite opt` and `cuprite compile` can name.
//!
//! `cuprite compile` runs, on the `cuda` module sema emits:
//!
//! ```text
//! builtin.module(
//!   link-math-library{sm=80 fast-math=false},          the device math library, as cuda IR
//!   convert-scf-to-cf,                                 scf -> cf blocks, named patterns
//!   lower-cuda-control-flow,                           cuda.if/loop/switch -> cf blocks
//!   convert-cuda-gpu-to-nvvm,                          barriers, shuffles, votes -> nvvm
//!   convert-arith-to-nvvm{div=precise fmad=true},      arith -> nvvm, named patterns
//!   convert-math-to-nvvm{approx-sqrt=false},           math -> nvvm, named patterns
//!   convert-cuda-intrinsics-to-nvvm,                   built-ins with an instruction -> nvvm
//!   convert-cuda-pointers-to-nvvm,                     pointer arithmetic -> nvvm
//!   convert-cuda-to-nvvm,                              globals, variables, memory -> nvvm
//!   convert-func-to-nvvm{ftz=false},                   functions (the ABI), calls, branches
//!   check-nvvm-level,                                  nothing left above nvvm
//!   nvvm-inline, nvvm.func(mem2reg, sccp, ..., loop-unroll, ...), the -O pipeline (none at -O0)
//!   nvvm-max-registers{max=N},                         with -maxrregcount only
//!   convert-nvvm-to-ptx)                               instruction selection
//! ```
//!
//! `cuprite compile --print-pipeline` prints exactly what it would run for the other flags
//! given, and `cuprite opt --pass-pipeline='<that>' --emit=ptx` on the `--emit=cuda` output
//! gives the same PTX (`tests/tests/pipeline.rs` checks it on every test kernel). The only
//! difference in how `compile` runs it: for `--emit=ptx`, `convert-nvvm-to-ptx` and the PTX
//! printer run per function on several threads ([`cuprite_lowering::nvvm_to_ptx_text`]),
//! which gives the same text.

use cuprite_frontend::libm::{link, LinkOptions};
use cuprite_ir::{
    pass::{Pass, PassFailure, PassRegistry, PassState},
    Context, Diagnostic, OpId,
};
use cuprite_lowering::{
    passes::{lowering_pipeline, parse_bool},
    FloatOptions,
};

/// `link-math-library{sm=N fast-math=B}`: links the device math library (compiled for
/// `sm_N`) into a `cuda` module, turning `cuda.intrinsic` calls of library functions into
/// calls; with `fast-math`, the standard functions become their fast intrinsics first.
pub struct LinkMathLibrary(pub LinkOptions);

impl LinkMathLibrary {
    pub const NAME: &'static str = "link-math-library";
}

impl Pass for LinkMathLibrary {
    fn name(&self) -> &str {
        Self::NAME
    }
    fn anchor(&self) -> Option<&str> {
        Some("builtin.module")
    }
    fn options(&self) -> String {
        format!("sm={} fast-math={}", self.0.sm, self.0.fast_math)
    }
    fn run(&self, ctx: &mut Context, op: OpId, state: &mut PassState<'_>) -> Result<(), PassFailure> {
        match link(ctx, op, &self.0) {
            Ok(r) => {
                state.statistics.push(("library functions linked".into(), r.linked.len() as u64));
                state.statistics.push(("calls".into(), r.calls as u64));
                Ok(())
            }
            Err(errs) => {
                for e in errs {
                    state.diagnostics.push(Diagnostic::error(e.message, None));
                }
                Err(PassFailure)
            }
        }
    }
}

/// Every pass: the core's and the dialects', the `nvvm` optimizations, the conversions and
/// [`LinkMathLibrary`].
pub fn registry() -> PassRegistry {
    let mut reg = cuprite_lowering::passes::registry();
    reg.register(LinkMathLibrary::NAME, "Link the device math library into a cuda module (sm=N fast-math=B)", |o| {
        let mut opts = LinkOptions { sm: 80, fast_math: false };
        for (k, v) in o {
            match k.as_str() {
                "sm" => {
                    opts.sm =
                        v.trim_start_matches("sm_").parse().ok().filter(|n| (30..=200).contains(n)).ok_or_else(|| {
                            format!("option 'sm' of pass '{}' expects a target such as 80, got '{v}'", LinkMathLibrary::NAME)
                        })?
                }
                "fast-math" => opts.fast_math = parse_bool(LinkMathLibrary::NAME, k, v)?,
                _ => return Err(format!("pass '{}' has no option '{k}' (options: sm, fast-math)", LinkMathLibrary::NAME)),
            }
        }
        Ok(Box::new(LinkMathLibrary(opts)))
    });
    reg
}

/// The names of `--disable-patterns=a,b`, each checked against the patterns of the
/// pattern-based conversions.
pub fn parse_disabled_patterns(value: &str) -> Result<Vec<String>, String> {
    let known = cuprite_lowering::conversions::all_patterns();
    let mut out = Vec::new();
    for n in value.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        if !known.iter().any(|p| p.name == n) {
            return Err(format!("unknown pattern '{n}' in --disable-patterns (see `cuprite opt --list-patterns`)"));
        }
        out.push(n.to_string());
    }
    Ok(out)
}

/// What the pipeline of `cuprite compile` depends on.
pub struct PipelineConfig<'a> {
    pub sm: u32,
    pub fast_math: bool,
    pub lowering: &'a FloatOptions,
    pub level: u8,
    /// `-fno-unroll-loops`, `--rewrite-driver`, `--remarks=eqsat`.
    pub opt: cuprite_lowering::transforms::OptFlags,
    pub max_registers: Option<u32>,
    /// Ends with instruction selection (`convert-nvvm-to-ptx`); without it, at `nvvm`.
    pub select: bool,
}

/// The pipeline `cuprite compile` runs on sema's `cuda` module, in the pass manager's syntax.
pub fn compile_pipeline(c: &PipelineConfig<'_>) -> String {
    let mut passes =
        vec![format!("{}{{{}}}", LinkMathLibrary::NAME, LinkMathLibrary(LinkOptions { sm: c.sm, fast_math: c.fast_math }).options())];
    // `remat` aims at the target's occupancy steps.
    let opt = cuprite_lowering::transforms::OptFlags { sm: c.sm, ..c.opt };
    passes.extend(lowering_pipeline(c.lowering, c.level, &opt, c.max_registers, c.select));
    format!("builtin.module({})", passes.join(","))
}

/// `full` (a `builtin.module(...)` pipeline from [`compile_pipeline`]) cut after
/// `nvvm-inline` (or `check-nvvm-level` at `-O0`): the module stage (the conversions to
/// `nvvm` and inlining, which decides on the whole module) and the rest (per function).
pub fn split_after_inline(full: &str) -> (String, String) {
    let inner = full.trim();
    let inner = inner.strip_prefix("builtin.module(").and_then(|s| s.strip_suffix(')')).unwrap_or(inner);
    let passes = cuprite_lowering::passes::split_top_level(inner);
    let cut =
        passes.iter().position(|p| p == "nvvm-inline").or_else(|| passes.iter().position(|p| p == "check-nvvm-level")).map_or(0, |i| i + 1);
    (format!("builtin.module({})", passes[..cut].join(",")), format!("builtin.module({})", passes[cut..].join(",")))
}
