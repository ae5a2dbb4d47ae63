//! The conversions as passes of the core's pass manager, so that `cuprite opt` runs any of
//! them and `cuprite compile` is one textual pipeline (`cuprite compile --print-pipeline`):
//!
//! | pass | anchor | what |
//! |---|---|---|
//! | `convert-arith-to-nvvm` | any | `arith` to `nvvm` as named patterns ([`crate::conversions::arith_to_nvvm`]); options `div=precise\|full\|approx fmad=B` |
//! | `convert-cuda-intrinsics-to-nvvm` | any | the CUDA built-ins with an instruction to nvvm as named patterns ([`crate::conversions::cuda_intrinsics_to_nvvm`]) |
//! | `convert-cuda-pointers-to-nvvm` | any | pointer arithmetic, comparisons and casts to nvvm as named patterns ([`crate::conversions::cuda_pointers_to_nvvm`]) |
//! | `convert-math-to-nvvm` | any | `math` to nvvm intrinsics as named patterns ([`crate::conversions::math_to_nvvm`]); option `approx-sqrt=B` |
//! | `convert-cuda-gpu-to-nvvm` | any | thread indices, barriers, fences, shuffles, votes, atomics to nvvm as named patterns ([`crate::conversions::cuda_gpu_to_nvvm`]) |
//! | `lower-cuda-control-flow` | any | `cuda.if`/`cuda.loop`/`cuda.switch` and their exits to `cf` branches, named patterns on the walk driver ([`crate::conversions::cuda_cf`]) |
//! | `convert-scf-to-cf` | any | `scf.if`/`scf.while` to `cf` branches as named patterns ([`crate::conversions::scf_to_cf`]) |
//! | `convert-cuda-to-nvvm` | any | globals, variables, loads and stores, inline asm, textures, `__trap` to nvvm as named patterns ([`crate::conversions::cuda_to_nvvm`]) |
//! | `nvvm-max-registers` | `builtin.module` | `maxnreg = N` on kernels without launch bounds (`-maxrregcount`); option `max=N` |
//! | `convert-nvvm-to-ptx` | `builtin.module` | instruction selection as named patterns ([`mod@crate::nvvm_to_ptx`]) |
//!
//! The conversions to nvvm rewrite the module in place, each a partial conversion by the
//! core's conversion driver. Instruction selection builds the ptx module beside its input
//! (PTX registers are not SSA values; see [`mod@crate::nvvm_to_ptx`]), then the input's body
//! is replaced by it; an op it cannot select is an error at the op's location, with a note
//! naming the pass, and the module is left as it was.

use crate::conversions::{
    arith_to_nvvm::ConvertArithToNvvm, cuda_cf::LowerCudaControlFlow, cuda_gpu_to_nvvm::ConvertCudaGpuToNvvm,
    cuda_intrinsics_to_nvvm::ConvertCudaIntrinsicsToNvvm, cuda_pointers_to_nvvm::ConvertCudaPointersToNvvm,
    cuda_to_nvvm::ConvertCudaToNvvm, func_to_nvvm::ConvertFuncToNvvm, math_to_nvvm::ConvertMathToNvvm, scf_to_cf::ConvertScfToCf,
};
use crate::{DivMode, FloatOptions};
use cuprite_ir::{
    pass::{Pass, PassFailure, PassState},
    verify::loc_span,
    Context, Diagnostic, InsertPoint, OpId,
};

/// Replaces the body of module `module` by the body of module `new` (then erased), and
/// `module`'s attributes by `new`'s.
fn replace_module_body(ctx: &mut Context, module: OpId, new: OpId) {
    let old_block = ctx.entry_block(ctx.region(module, 0)).expect("module body");
    let new_block = ctx.entry_block(ctx.region(new, 0)).expect("module body");
    let old_ops: Vec<OpId> = ctx.block_ops(old_block).collect();
    for op in old_ops.into_iter().rev() {
        ctx.erase_op(op);
    }
    let new_ops: Vec<OpId> = ctx.block_ops(new_block).collect();
    for op in new_ops {
        ctx.move_op(op, InsertPoint::end(old_block));
    }
    ctx.erase_op(new);
}

/// A boolean pass option (`key`, `key=true`, `key=false`).
pub fn parse_bool(pass: &str, key: &str, v: &str) -> Result<bool, String> {
    match v {
        "true" | "1" | "" => Ok(true),
        "false" | "0" => Ok(false),
        _ => Err(format!("option '{key}' of pass '{pass}' expects true or false, got '{v}'")),
    }
}

/// The `div` option of a pass: `precise`, `full` or `approx`.
pub fn parse_div(pass: &str, v: &str) -> Result<DivMode, String> {
    match v {
        "precise" => Ok(DivMode::Precise),
        "full" => Ok(DivMode::Full),
        "approx" => Ok(DivMode::Approx),
        _ => Err(format!("option 'div' of pass '{pass}' is precise, full or approx, not '{v}'")),
    }
}

/// The `div` option's text for `mode`.
pub fn div_text(mode: DivMode) -> &'static str {
    match mode {
        DivMode::Precise => "precise",
        DivMode::Full => "full",
        DivMode::Approx => "approx",
    }
}

/// `check-nvvm-level`: every op of the module is of the nvvm level. The conversions are
/// partial (each lowers its ops and leaves the rest); this is where `cuprite compile`'s
/// pipeline requires them all done: an op left over, or a materialization cast between
/// types the conversions did not make equal, is an error at its location naming the
/// pass that lowers it ([`crate::conversions::lowered_by`]).
pub struct CheckNvvmLevel;

impl CheckNvvmLevel {
    pub const NAME: &'static str = "check-nvvm-level";
}

impl Pass for CheckNvvmLevel {
    fn name(&self) -> &str {
        Self::NAME
    }
    fn anchor(&self) -> Option<&str> {
        Some("builtin.module")
    }
    fn run(&self, ctx: &mut Context, op: OpId, state: &mut PassState<'_>) -> Result<(), PassFailure> {
        let mut failed = false;
        for o in cuprite_ir::walk::collect_preorder(ctx, op).into_iter().skip(1) {
            let name = ctx.op_name_str(o);
            if name.starts_with("nvvm.") {
                continue;
            }
            let message = crate::conversions::left_over_message(ctx, o);
            let span = loc_span(ctx, ctx.op_loc(o), state.sources);
            state.diagnostics.push(Diagnostic::error(message, span).with_note(format!("in pass '{}'", Self::NAME), None));
            failed = true;
        }
        if failed {
            Err(PassFailure)
        } else {
            Ok(())
        }
    }
}

/// `convert-nvvm-to-ptx`.
pub struct ConvertNvvmToPtx;

impl ConvertNvvmToPtx {
    pub const NAME: &'static str = "convert-nvvm-to-ptx";
}

impl Pass for ConvertNvvmToPtx {
    fn name(&self) -> &str {
        Self::NAME
    }
    fn anchor(&self) -> Option<&str> {
        Some("builtin.module")
    }
    fn run(&self, ctx: &mut Context, op: OpId, state: &mut PassState<'_>) -> Result<(), PassFailure> {
        match crate::nvvm_to_ptx::select_module(ctx, op, state.disabled_patterns) {
            Ok((new, stats)) => {
                let n = ctx.block_ops(ctx.entry_block(ctx.region(new, 0)).expect("module body")).count();
                replace_module_body(ctx, op, new);
                state.statistics.push(("functions and globals selected".into(), n as u64));
                for (name, tried, applied) in stats {
                    state.statistics.push((format!("pattern {name} tried"), tried));
                    state.statistics.push((format!("pattern {name} applied"), applied));
                }
                Ok(())
            }
            Err(errors) => {
                let disabled: Vec<&str> = crate::nvvm_to_ptx::pattern_infos()
                    .iter()
                    .map(|p| p.name)
                    .filter(|n| state.disabled_patterns.iter().any(|d| d == n))
                    .collect();
                let note = if disabled.is_empty() {
                    format!("in pass '{}'", Self::NAME)
                } else {
                    format!("in pass '{}', with pattern(s) {} disabled", Self::NAME, disabled.join(", "))
                };
                for e in errors {
                    let span = loc_span(ctx, e.loc, state.sources);
                    state.diagnostics.push(Diagnostic::error(e.message, span).with_note(note.clone(), None));
                }
                Err(PassFailure)
            }
        }
    }
}

/// `nvvm-max-registers{max=N}`: nvcc's `-maxrregcount=N` ([`crate::set_max_registers`]).
pub struct MaxRegisters(pub u32);

impl MaxRegisters {
    pub const NAME: &'static str = "nvvm-max-registers";
}

impl Pass for MaxRegisters {
    fn name(&self) -> &str {
        Self::NAME
    }
    fn anchor(&self) -> Option<&str> {
        Some("builtin.module")
    }
    fn options(&self) -> String {
        format!("max={}", self.0)
    }
    fn run(&self, ctx: &mut Context, op: OpId, _state: &mut PassState<'_>) -> Result<(), PassFailure> {
        crate::set_max_registers(ctx, op, self.0);
        Ok(())
    }
}

/// The `nvvm` optimizations ([`crate::transforms::registry`]) and the conversions.
pub fn registry() -> cuprite_ir::pass::PassRegistry {
    let mut reg = crate::transforms::registry();
    reg.register(
        LowerCudaControlFlow::NAME,
        "C's control flow (cuda.if, cuda.loop, cuda.switch, break, continue) to cf branches, as named patterns",
        |o| {
            cuprite_ir::transforms::no_options(LowerCudaControlFlow::NAME, o)?;
            Ok(Box::new(LowerCudaControlFlow))
        },
    );
    reg.register(
        ConvertCudaGpuToNvvm::NAME,
        "The cuda dialect's thread-index, barrier, fence, shuffle and vote ops to nvvm, as named patterns",
        |o| {
            cuprite_ir::transforms::no_options(ConvertCudaGpuToNvvm::NAME, o)?;
            Ok(Box::new(ConvertCudaGpuToNvvm))
        },
    );
    reg.register(ConvertScfToCf::NAME, "Structured control flow (scf.if, scf.while) to cf branches, as named patterns", |o| {
        cuprite_ir::transforms::no_options(ConvertScfToCf::NAME, o)?;
        Ok(Box::new(ConvertScfToCf))
    });
    reg.register(
        ConvertCudaIntrinsicsToNvvm::NAME,
        "The CUDA built-ins with a PTX instruction (__popc, __sinf, __fadd_rz, hsqrt, ...) to nvvm, as named patterns",
        |o| {
            cuprite_ir::transforms::no_options(ConvertCudaIntrinsicsToNvvm::NAME, o)?;
            Ok(Box::new(ConvertCudaIntrinsicsToNvvm))
        },
    );
    reg.register(
        ConvertCudaPointersToNvvm::NAME,
        "Pointer arithmetic, comparisons and casts of the cuda dialect to nvvm, as named patterns",
        |o| {
            cuprite_ir::transforms::no_options(ConvertCudaPointersToNvvm::NAME, o)?;
            Ok(Box::new(ConvertCudaPointersToNvvm))
        },
    );
    reg.register(ConvertMathToNvvm::NAME, "Lower the math dialect to nvvm intrinsics, as named patterns (approx-sqrt=B)", |o| {
        Ok(Box::new(ConvertMathToNvvm::from_options(o)?))
    });
    reg.register(ConvertArithToNvvm::NAME, "Lower the arith dialect to nvvm, as named patterns (div=precise|full|approx fmad=B)", |o| {
        Ok(Box::new(ConvertArithToNvvm::from_options(o)?))
    });
    reg.register(
        ConvertCudaToNvvm::NAME,
        "The cuda dialect's globals, variables, loads and stores, inline asm, textures and __trap to nvvm, as named patterns",
        |o| {
            for (k, _) in o {
                if k == "ftz" {
                    return Err(format!("option 'ftz' of pass '{}' moved to '{}'", ConvertCudaToNvvm::NAME, ConvertFuncToNvvm::NAME));
                }
                if k == "div" || k == "fmad" {
                    return Err(format!("option '{k}' of pass '{}' moved to '{}'", ConvertCudaToNvvm::NAME, ConvertArithToNvvm::NAME));
                }
                if k == "approx-sqrt" {
                    return Err(format!("option '{k}' of pass '{}' moved to '{}'", ConvertCudaToNvvm::NAME, ConvertMathToNvvm::NAME));
                }
            }
            cuprite_ir::transforms::no_options(ConvertCudaToNvvm::NAME, o)?;
            Ok(Box::new(ConvertCudaToNvvm))
        },
    );
    reg.register(
        ConvertFuncToNvvm::NAME,
        "Functions, calls, returns and branches (func, cf, ub) to nvvm with the ABI's signature conversion, as named patterns (ftz=B)",
        |o| Ok(Box::new(ConvertFuncToNvvm::from_options(o)?)),
    );
    reg.register(
        CheckNvvmLevel::NAME,
        "Require every op to be of the nvvm level (an error naming the pass that lowers each one left)",
        |o| {
            cuprite_ir::transforms::no_options(CheckNvvmLevel::NAME, o)?;
            Ok(Box::new(CheckNvvmLevel))
        },
    );
    reg.register(ConvertNvvmToPtx::NAME, "Instruction selection: the nvvm dialect to ptx", |o| {
        cuprite_ir::transforms::no_options(ConvertNvvmToPtx::NAME, o)?;
        Ok(Box::new(ConvertNvvmToPtx))
    });
    reg.register(MaxRegisters::NAME, "maxnreg = N on kernels without launch bounds (-maxrregcount=N; max=N)", |o| {
        let mut n = None;
        for (k, v) in o {
            match k.as_str() {
                "max" => n = v.parse::<u32>().ok().filter(|&n| n > 0),
                _ => return Err(format!("pass '{}' has no option '{k}' (options: max)", MaxRegisters::NAME)),
            }
        }
        let n = n.ok_or_else(|| format!("pass '{}' needs max=N, a positive number of registers", MaxRegisters::NAME))?;
        Ok(Box::new(MaxRegisters(n)))
    });
    reg
}

/// The conversions from the `cuda` level to `nvvm`, in pipeline order, each with its part
/// of `opts`, as pass manager text: control flow to blocks (`convert-scf-to-cf`,
/// `lower-cuda-control-flow`), then the GPU ops, `arith`, `math`, the built-ins, pointers,
/// memory, and last functions and branches (`convert-func-to-nvvm`). Each is partial: any
/// subset in this order leaves IR that runs.
pub fn conversions(opts: &FloatOptions) -> Vec<String> {
    vec![
        ConvertScfToCf::NAME.to_string(),
        LowerCudaControlFlow::NAME.to_string(),
        ConvertCudaGpuToNvvm::NAME.to_string(),
        format!("{}{{{}}}", ConvertArithToNvvm::NAME, ConvertArithToNvvm(opts.arith()).options()),
        format!("{}{{{}}}", ConvertMathToNvvm::NAME, ConvertMathToNvvm(opts.math()).options()),
        ConvertCudaIntrinsicsToNvvm::NAME.to_string(),
        ConvertCudaPointersToNvvm::NAME.to_string(),
        ConvertCudaToNvvm::NAME.to_string(),
        format!(
            "{}{{{}}}",
            ConvertFuncToNvvm::NAME,
            ConvertFuncToNvvm(crate::conversions::func_to_nvvm::Options { ftz: opts.ftz }).options()
        ),
    ]
}

/// The pipeline `cuprite compile -O<level>` runs after the math library is linked: the
/// [`conversions`] (each with its part of `opts`), `check-nvvm-level`, the `-O` pipeline,
/// `-maxrregcount`, and (with `select`) instruction selection, as pass manager text. The
/// nvvm part is [`crate::transforms::pipeline_text`]'s.
pub fn lowering_pipeline(
    opts: &FloatOptions,
    level: u8,
    flags: &crate::transforms::OptFlags,
    max_registers: Option<u32>,
    select: bool,
) -> Vec<String> {
    let mut passes = conversions(opts);
    passes.push(CheckNvvmLevel::NAME.to_string());
    let o = crate::transforms::pipeline_text(level, flags);
    let inner = &o["builtin.module(".len()..o.len() - 1];
    if !inner.is_empty() {
        passes.extend(split_top_level(inner));
    }
    if let Some(n) = max_registers {
        passes.push(format!("{}{{max={n}}}", MaxRegisters::NAME));
    }
    if select {
        passes.push(ConvertNvvmToPtx::NAME.to_string());
    }
    passes
}

/// The elements of a pipeline list (`a,b(c,d),e`), split at its top-level commas.
pub fn split_top_level(s: &str) -> Vec<String> {
    let (mut out, mut depth, mut start) = (Vec::new(), 0i32, 0);
    for (i, c) in s.char_indices() {
        match c {
            '(' | '{' => depth += 1,
            ')' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(s[start..i].to_string());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(s[start..].to_string());
    out
}
