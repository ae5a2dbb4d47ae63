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
//! | `reassociate` | `nvvm.func` | known low bits under `and` masks, and the invariant addends of a loop's add trees summed apart, for `licm` ([`reassoc`]) |
//! | `licm` | `nvvm.func` | loop-invariant arithmetic and loads to the loop's preheader ([`licm`]) |
//! | `iv-demote` | `nvvm.func` | 64-bit induction variables proved to stay in 32 bits become 32-bit, cicc's `remat-iv` levels ([`iv_demote`]) |
//! | `loop-reduce` | `nvvm.func` | loop strength reduction of addresses: pointers that advance each trip, with cicc's LSR knobs ([`lsr`]) |
//! | `load-cse` | `nvvm.func` | redundant loads and store-to-load forwarding in any memory, along blocks and single-predecessor chains, alias analysis by space and allocation ([`gvn_loads`]) |
//! | `eqsat` | `nvvm.func` | equality saturation (egg) on each block's integer and address arithmetic, or the same rules greedily (`driver=greedy`) ([`crate::eqsat`]) |
//! | `slsr` | `nvvm.func` | straight-line strength reduction: addresses of one block a runtime stride apart become a chain of adds, and unsigned indices a constant apart one address plus constants ([`slsr`]) |
//! | `select-form` | `nvvm.func` | branches that only choose a value to `nvvm.select`, speculating small arms ([`select`]) |
//! | `remat` | `nvvm.func` | NVIDIA's IR-level rematerialization: cheap values recomputed at their uses when the register pressure crosses an occupancy step or a ceiling, with cicc's knobs ([`remat`]) |
//! | `fold-constant-loads` | `builtin.module` | loads from `readonly` globals (const C++ objects with initializers) at constant offsets become their values ([`const_loads`]) |
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
pub mod const_loads;
pub mod forward;
pub mod gvn_loads;
pub mod inline;
pub mod iv_demote;
pub mod licm;
pub mod loops;
pub mod lsr;
pub mod mem2reg;
pub mod memspace;
pub mod reassoc;
pub mod remat;
pub mod rotate;
pub mod sccp;
pub mod select;
pub mod slsr;
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

/// `loop-reduce` as a pass.
pub struct LsrPass(pub lsr::Options);

impl Pass for LsrPass {
    fn name(&self) -> &str {
        "loop-reduce"
    }
    fn anchor(&self) -> Option<&str> {
        Some("nvvm.func")
    }
    fn options(&self) -> String {
        let o = &self.0;
        format!(
            "lsr-check-rp={} lsr-rp-limit={} do-lsr-64-bit={} disable-lsr-for-sharedmem32-ptr={} lsr-loop-level={}",
            o.check_rp, o.rp_limit, o.lsr_64_bit, o.no_shared, o.loop_level
        )
    }
    fn run(&self, ctx: &mut Context, op: OpId, state: &mut PassState<'_>) -> Result<(), PassFailure> {
        let s = lsr::loop_reduce(ctx, op, &self.0);
        if s.pointers == 0 {
            state.preserved = Preserved::All;
        }
        state.statistics.push(("pointers made".into(), s.pointers));
        state.statistics.push(("addresses rewritten".into(), s.addresses));
        state.statistics.push(("loops left for register pressure".into(), s.rp_skipped));
        Ok(())
    }
}

/// `slsr` as a pass.
pub struct SlsrPass;

impl Pass for SlsrPass {
    fn name(&self) -> &str {
        "slsr"
    }
    fn anchor(&self) -> Option<&str> {
        Some("nvvm.func")
    }
    fn run(&self, ctx: &mut Context, op: OpId, state: &mut PassState<'_>) -> Result<(), PassFailure> {
        let n = slsr::slsr(ctx, op);
        if n == 0 {
            state.preserved = Preserved::All;
        }
        state.statistics.push(("addresses rewritten".into(), n));
        Ok(())
    }
}

/// `load-cse` as a pass.
pub struct LoadCsePass;

impl Pass for LoadCsePass {
    fn name(&self) -> &str {
        "load-cse"
    }
    fn anchor(&self) -> Option<&str> {
        Some("nvvm.func")
    }
    fn run(&self, ctx: &mut Context, op: OpId, state: &mut PassState<'_>) -> Result<(), PassFailure> {
        let n = gvn_loads::load_cse(ctx, op);
        if n == 0 {
            state.preserved = Preserved::All;
        }
        state.statistics.push(("loads replaced".into(), n));
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

/// `reassociate` as a pass.
pub struct ReassociatePass;

impl Pass for ReassociatePass {
    fn name(&self) -> &str {
        "reassociate"
    }
    fn anchor(&self) -> Option<&str> {
        Some("nvvm.func")
    }
    fn run(&self, ctx: &mut Context, op: OpId, state: &mut PassState<'_>) -> Result<(), PassFailure> {
        let s = reassoc::reassociate(ctx, op);
        if s.known_bits == 0 && s.trees == 0 {
            state.preserved = Preserved::All;
        }
        state.statistics.push(("ands simplified by known low bits".into(), s.known_bits));
        state.statistics.push(("add trees reassociated".into(), s.trees));
        state.statistics.push(("invariant addends grouped".into(), s.invariant_leaves));
        Ok(())
    }
}

/// `iv-demote` as a pass.
pub struct IvDemotePass(pub iv_demote::Options);

impl Pass for IvDemotePass {
    fn name(&self) -> &str {
        "iv-demote"
    }
    fn anchor(&self) -> Option<&str> {
        Some("nvvm.func")
    }
    fn run(&self, ctx: &mut Context, op: OpId, state: &mut PassState<'_>) -> Result<(), PassFailure> {
        let s = iv_demote::demote(ctx, op, &self.0);
        if s.demoted == 0 {
            state.preserved = Preserved::All;
        }
        state.statistics.push(("64-bit induction variables".into(), s.candidates));
        state.statistics.push(("demoted to 32 bits".into(), s.demoted));
        state.statistics.push(("left: range not proved".into(), s.out_of_range));
        state.statistics.push(("left: remat-iv level too low".into(), s.level_too_low));
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

/// `fold-constant-loads` as a pass.
pub struct FoldConstantLoadsPass;

impl Pass for FoldConstantLoadsPass {
    fn name(&self) -> &str {
        "fold-constant-loads"
    }
    fn anchor(&self) -> Option<&str> {
        Some("builtin.module")
    }
    fn run(&self, ctx: &mut Context, op: OpId, state: &mut PassState<'_>) -> Result<(), PassFailure> {
        let n = const_loads::fold_constant_loads(ctx, op);
        if n == 0 {
            state.preserved = Preserved::All;
        }
        state.statistics.push(("loads folded".into(), n));
        Ok(())
    }
}

/// `remat` as a pass.
pub struct RematPass(pub remat::Options);

impl Pass for RematPass {
    fn name(&self) -> &str {
        "remat"
    }
    fn anchor(&self) -> Option<&str> {
        Some("nvvm.func")
    }
    fn options(&self) -> String {
        self.0.text()
    }
    fn run(&self, ctx: &mut Context, op: OpId, state: &mut PassState<'_>) -> Result<(), PassFailure> {
        let s = remat::rematerialize(ctx, op, &self.0);
        if s.pulled == 0 {
            state.preserved = Preserved::All;
        }
        for r in s.remarks {
            state.diagnostics.push(cuprite_ir::Diagnostic::remark(r, None));
        }
        state.statistics.push(("functions above their register target".into(), s.over_target));
        state.statistics.push(("functions skipped (no-remat)".into(), s.skipped));
        state.statistics.push(("candidates live at every peak".into(), s.candidates));
        state.statistics.push(("candidates not rematerializable".into(), s.not_rematerializable));
        state.statistics.push(("candidates over a cost limit".into(), s.too_costly));
        state.statistics.push(("values rematerialized".into(), s.pulled));
        state.statistics.push(("remat_ copies".into(), s.remat_copies));
        state.statistics.push(("uclone_ copies".into(), s.uclone_copies));
        state.statistics.push(("estimated registers saved".into(), s.registers_saved));
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
            state.diagnostics.push(cuprite_ir::Diagnostic::remark(inline::budget_message(), None));
        }
        if s.inlined == 0 && s.functions_erased == 0 {
            state.preserved = Preserved::All;
        }
        state.statistics.push(("calls inlined".into(), s.inlined));
        state.statistics.push(("device functions erased".into(), s.functions_erased));
        Ok(())
    }
}

/// Each pass of `cuprite compile`'s pipeline with what does its job in NVIDIA's cicc (the
/// LLVM-based optimizer and backend inside nvcc and NVRTC, `../shared/seeds/`) or in
/// LLVM's NVPTX pipeline, which cicc follows: `cuprite compile --print-pipeline=cicc`
/// prints the pipeline one pass a line with these.
pub const CICC_COUNTERPARTS: &[(&str, &str)] = &[
    ("link-math-library", "libdevice linking and NVVMReflect (cicc links libdevice.10.bc and folds __nvvm_reflect)"),
    ("convert-scf-to-cf", "clang CodeGen / cicc's EDG front end emit loops as branches directly"),
    ("lower-cuda-control-flow", "clang CodeGen / cicc's EDG front end (break, continue, return as branches)"),
    ("convert-cuda-gpu-to-nvvm", "CodeGen of threadIdx etc. to llvm.nvvm.read.ptx.sreg.* and of barriers, shuffles, votes"),
    ("convert-arith-to-nvvm", "CodeGen of C arithmetic to LLVM IR (nsw on signed int, contract per -fmad)"),
    ("convert-math-to-nvvm", "libdevice's __nv_* math functions and NVVM intrinsic lowering"),
    ("convert-cuda-intrinsics-to-nvvm", "CodeGen of CUDA builtins to llvm.nvvm.* intrinsics (nvvm-intrinsic-lowering)"),
    ("convert-cuda-pointers-to-nvvm", "CodeGen of pointer arithmetic (getelementptr) and address spaces"),
    ("convert-cuda-to-nvvm", "CodeGen of variables, loads and stores (alloca, load, store, __shared__ globals)"),
    ("convert-func-to-nvvm", "CodeGen of the ABI (byval parameters, sret) and NVPTX's lowering of kernel parameters"),
    ("check-nvvm-level", "(cicc's IR verifier between front end and optimizer)"),
    ("nvvm-inline", "always-inline and the inliner (cicc inlines device functions aggressively)"),
    ("mem2reg", "SROA and mem2reg"),
    ("sccp", "SCCP / IPSCCP"),
    ("memory-space-opt", "NVVM's memory-space-opt (generic to specific address spaces) and nvptx-lower-args"),
    ("loop-unroll", "loop-unroll (full, runtime by 4 on NVPTX; unroll-threshold 300)"),
    ("load-forward", "GVN's load forwarding and EarlyCSE for locals"),
    ("select-form", "SimplifyCFG: FoldTwoEntryPHINode and SpeculativelyExecuteBB; InstCombine's min/max"),
    ("loop-rotate", "loop-rotate"),
    ("cse", "EarlyCSE / GVN"),
    ("reassociate", "InstCombine's demanded-bits simplification and Reassociate (rank by loop depth), before LICM"),
    ("licm", "LICM"),
    ("iv-demote", "NVIDIA's IV demotion inside nvvmrematerialize (remat-iv, default 4): demoteIV, newBaseIV, newICmp, iv_base_clone_, substIV"),
    ("loop-reduce", "NVIDIA's loop-reduce (LSR with lsr-check-rp, lsr-rp-limit, do-lsr-64-bit, disable-lsr-for-sharedmem32-ptr)"),
    ("load-cse", "GVN's and EarlyCSE's redundant load elimination, with BasicAA's address-space and allocation rules"),
    ("eqsat", "InstCombine's and the DAG combiner's strength reduction (mul/div/rem by constants as shifts and mul.hi magic numbers), range-based narrowing as NVPTX's and cicc's IV demotion"),
    ("slsr", "SLSR (straight-line strength reduction, in LLVM's NVPTX pipeline)"),
    ("canonicalize", "InstCombine and SimplifyCFG (folds, div/rem by powers of two, constants outward through addresses)"),
    ("dce", "ADCE / DCE"),
    ("remat", "NVIDIA's nvvmrematerialize (Legacy IR Remat: live-in intersection, pull-in cost, remat_/uclone_; do-remat, remat-for-occ, remat-maxreg-ceiling, ...)"),
    ("fold-constant-loads", "ConstantFolding of loads from constant globals (in InstCombine and GVN)"),
    ("nvvm-max-registers", "-maxrregcount (.maxnreg)"),
    ("convert-nvvm-to-ptx", "NVPTX instruction selection (NVPTXISelDAGToDAG), PHI elimination with copy coalescing, PTX printing"),
];

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
    reg.register("slsr", "Straight-line strength reduction: addresses of one block a runtime stride apart become a chain of adds", |o| {
        no_options("slsr", o)?;
        Ok(Box::new(SlsrPass))
    });
    reg.register(
        "load-cse",
        "Redundant loads and store-to-load forwarding along blocks, alias analysis by address space and allocation",
        |o| {
            no_options("load-cse", o)?;
            Ok(Box::new(LoadCsePass))
        },
    );
    reg.register(
        "loop-reduce",
        "Loop strength reduction of addresses (lsr-check-rp=BOOL lsr-rp-limit=N do-lsr-64-bit=BOOL disable-lsr-for-sharedmem32-ptr=BOOL lsr-loop-level=0|1)",
        |o| {
            let mut opts = lsr::Options::default();
            for (k, v) in o {
                let b = || match v.as_str() {
                    "true" | "1" => Ok(true),
                    "false" | "0" => Ok(false),
                    _ => Err(format!("option '{k}' of pass 'loop-reduce' expects true or false, got '{v}'")),
                };
                let n = || v.parse::<u64>().map_err(|_| format!("option '{k}' of pass 'loop-reduce' expects a number, got '{v}'"));
                match k.as_str() {
                    "lsr-check-rp" => opts.check_rp = b()?,
                    "lsr-rp-limit" => opts.rp_limit = n()?,
                    "do-lsr-64-bit" => opts.lsr_64_bit = b()?,
                    "disable-lsr-for-sharedmem32-ptr" => opts.no_shared = b()?,
                    "lsr-loop-level" => {
                        opts.loop_level = match n()? {
                            l @ (0 | 1) => l as u32,
                            _ => return Err(format!("option 'lsr-loop-level' of pass 'loop-reduce' is 0 (every loop) or 1 (innermost), got '{v}'")),
                        }
                    }
                    _ => {
                        return Err(format!(
                            "pass 'loop-reduce' has no option '{k}' (options: lsr-check-rp, lsr-rp-limit, do-lsr-64-bit, disable-lsr-for-sharedmem32-ptr, lsr-loop-level)"
                        ))
                    }
                }
            }
            Ok(Box::new(LsrPass(opts)))
        },
    );
    reg.register(
        "licm",
        "Loop-invariant code motion: invariant arithmetic, and loads no store in the loop can change, to the preheader",
        |o| {
            no_options("licm", o)?;
            Ok(Box::new(LicmPass))
        },
    );
    reg.register(
        "reassociate",
        "Known low bits under and-masks become constants; invariant addends of a loop's add trees are summed apart (for licm)",
        |o| {
            no_options("reassociate", o)?;
            Ok(Box::new(ReassociatePass))
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
    reg.register(
        "iv-demote",
        "NVIDIA's IV demotion: 64-bit induction variables proved to fit 32 bits become 32-bit (remat-iv=0..5)",
        |o| {
            let mut opts = iv_demote::Options::default();
            for (k, v) in o {
                match k.as_str() {
                    "remat-iv" => {
                        opts.level = v
                            .parse::<u32>()
                            .ok()
                            .filter(|l| *l <= 5)
                            .ok_or_else(|| format!("option 'remat-iv' of pass 'iv-demote' is a level from 0 (off) to 5, got '{v}'"))?
                    }
                    _ => return Err(format!("pass 'iv-demote' has no option '{k}' (options: remat-iv)")),
                }
            }
            Ok(Box::new(IvDemotePass(opts)))
        },
    );
    reg.register(
        "eqsat",
        "Equality saturation (egg) on integer and address arithmetic (and float contraction with floats=true), per block (driver=eqsat|greedy|off iter-limit=N node-limit=N time-limit-ms=N remarks=BOOL all-blocks=BOOL floats=BOOL)",
        |o| Ok(Box::new(crate::eqsat::EqsatPass::new(crate::eqsat::Options::parse(o)?))),
    );
    reg.register(
        "remat",
        "NVIDIA's IR-level rematerialization toward an occupancy step or register ceiling (do-remat=0..3 no-remat=F,G remat-for-occ=N remat-maxreg-ceiling=N remat-loop-trip=N remat-use-limit=N remat-gep-cost=N remat-single-cost-limit=N remat-ignore-single-cost=BOOL remat-max-live-limit=N remat-lli-factor=N dump-remat=N sm=N)",
        |o| Ok(Box::new(RematPass(remat::Options::parse(o)?))),
    );
    reg.register("fold-constant-loads", "Loads from readonly globals at constant offsets become the initializer's values", |o| {
        no_options("fold-constant-loads", o)?;
        Ok(Box::new(FoldConstantLoadsPass))
    });
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

/// The optimizer's switches that change the `-O` pipeline.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct OptFlags {
    /// `loop-unroll` in the pipeline (`-fno-unroll-loops`: without).
    pub unroll: bool,
    /// The driver of the `eqsat` rules (`--rewrite-driver=eqsat|greedy|off`).
    pub rewrite_driver: crate::eqsat::Driver,
    /// `--remarks=eqsat`: the `eqsat` pass explains its rewrites.
    pub eqsat_remarks: bool,
    /// `--remat-iv=N`: the level of induction-variable demotion (`iv-demote`; 0 off, 4
    /// the default).
    pub remat_iv: u32,
    /// The target (`--arch=sm_N`), for `remat`'s occupancy steps.
    pub sm: u32,
    /// `--do-remat=N`: `remat`'s `do-remat` level (0 off, 3 the default).
    pub remat: u32,
}

impl Default for OptFlags {
    fn default() -> Self {
        OptFlags { unroll: true, rewrite_driver: crate::eqsat::Driver::default(), eqsat_remarks: false, remat_iv: 4, sm: 90, remat: 3 }
    }
}

/// The pipeline of optimization level `level` (0 to 3), in the pass manager's syntax.
/// `loop-unroll` runs once the induction variables are SSA values, followed by `sccp` to
/// fold the copies' constants, `memory-space-opt` and `dce` so that the accesses of a
/// fully unrolled range-`for` over a local array are direct and its dead end pointers gone
/// (`mem2reg` then keeps the array in registers) (`flags.unroll` false leaves them out); `eqsat` runs after the
/// loop passes, on the addresses LSR made, with `flags`' driver, before `canonicalize`
/// cleans up what it leaves.
pub fn pipeline_text(level: u8, flags: &OptFlags) -> String {
    if level == 0 {
        return "builtin.module()".into();
    }
    let unroll = if flags.unroll { "loop-unroll,sccp,memory-space-opt,dce,load-forward,sccp,mem2reg," } else { "" };
    let eqsat = match (flags.rewrite_driver, flags.eqsat_remarks) {
        (crate::eqsat::Driver::Eqsat, false) => "eqsat".to_string(),
        (d, false) => format!("eqsat{{driver={}}}", d.name()),
        (d, true) => format!("eqsat{{driver={} remarks=true}}", d.name()),
    };
    let demote = if flags.remat_iv == 4 { "iv-demote".to_string() } else { format!("iv-demote{{remat-iv={}}}", flags.remat_iv) };
    let ropts = remat::Options { do_remat: flags.remat, sm: flags.sm, ..Default::default() }.text();
    let remat = if ropts.is_empty() { "remat".to_string() } else { format!("remat{{{ropts}}}") };
    format!(
        "builtin.module(nvvm-inline,nvvm.func(mem2reg,sccp,memory-space-opt,mem2reg,{unroll}select-form,loop-rotate,cse,reassociate,licm,{demote},loop-reduce,{eqsat},licm,canonicalize,cse,slsr,load-cse,dce),fold-constant-loads,nvvm.func({remat}))"
    )
}

/// The byte offset of `nvvm.ptradd` `op` when it is a constant (an `nvvm.constant`
/// integer): what instruction selection folds into `[base+off]` and scalar replacement
/// follows.
pub(crate) fn ptradd_const_offset(ctx: &cuprite_ir::Context, op: cuprite_ir::OpId) -> Option<i128> {
    cuprite_dialects::nvvm::int_constant(ctx, ctx.defining_op(ctx.operand(op, 1))?)
}
