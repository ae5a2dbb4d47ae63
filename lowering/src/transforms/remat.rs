//! `remat`: NVIDIA's IR-level rematerialization (cicc's `nvvmrematerialize`, "Legacy IR
//! Remat", described in `../shared/seeds/rematerialization.txt`), with its knobs' names:
//! values that are cheap to recompute from what is live anyway are recomputed where they
//! are used instead of being kept in a register, when the function's register pressure
//! crosses an occupancy step (or a register ceiling).
//!
//! On a GPU the registers a thread needs decide how many warps an SM holds, in steps:
//! sm_90 holds 64 warps at 32 registers a thread and 51 at 40 (the register file is 64K
//! registers, allocated per warp in units of 256). A value such as `n * 4` or `p + 8`,
//! live across a long stretch only to be used at its end, costs a register through all of
//! it; recomputing it at the end costs one instruction.
//!
//! ## Algorithm (the seed's, on our SSA form with block arguments)
//!
//! 1. **Liveness**: per-block live-in and live-out bit vectors of every non-constant SSA
//!    value (backward data flow; a branch's operands are uses in its block), then a
//!    reverse walk of each block for the live set before each op. A value costs its
//!    32-bit registers (64-bit integers, doubles and pointers two). Free: predicates
//!    (`i1`, their own register file), constants (immediates), a kernel's parameters
//!    (ptxas reads them from the constant bank as operands and reloads them at will), and
//!    addresses instruction selection folds into `[base+imm]` (a use of one is a use of
//!    its base). The function's *pressure* is the largest live set; each block's *peak*
//!    is the point where its live set is largest. `dump-remat=2` reports
//!    `Block ^bbN: live-in = K` for each block, `dump-remat=3` the peaks above the
//!    target and each value pulled in.
//! 2. **Target** ([`target_registers`]): with `remat-maxreg-ceiling` set (as in cicc, 0 by
//!    default) and below the pressure, the ceiling. `-maxrregcount` and
//!    `__launch_bounds__` do not set it: ptxas meets those limits itself (it rematerializes
//!    and spills to fit them), and copies made here for them only cost instructions
//!    (measured on `tests/ptx/occupancy.cu`: ptxas allocates the same registers with or
//!    without them). Otherwise, with `remat-for-occ=N` (default 120) and a pressure of at
//!    most N registers, the top of the next occupancy step below the pressure (for the
//!    target `sm`, [`warps_per_sm`]), when it lies within 20% of the pressure (the seed's
//!    80% rule as the reach); no target (nothing to do) when it does not. With
//!    `remat-for-occ=0`, 80% of the pressure.
//! 3. **Candidates**: the blocks whose peak exceeds the target; the values live at every
//!    one of those peaks (the intersection of their live sets, the seed's AND of live-in
//!    vectors) and not read by the op at the peak. A candidate is *rematerializable* when
//!    its defining op is pure and cannot trap ([`super::licm::hoistable`]: arithmetic,
//!    casts, address arithmetic, special registers other than clocks). Each operand of a
//!    copy is a constant, a value live where the copy goes, a copy of its own definition
//!    (recursively, to a depth `do-remat` sets: 1 the op alone, 2 three levels, 3 six),
//!    or else the operand itself, kept alive longer (an operand of the definition
//!    dominates every use of the value, so it is available; its registers count against
//!    the saving).
//! 4. **Pull-in cost**: where the copies go: the first use in each block other than the
//!    defining one, then (in every block, the defining one from the definition on) before
//!    each later use that a stretch above the target separates from the last copy, so that
//!    no copy is live through such a stretch. `base_cost` is the cost of the ops a copy
//!    clones ([`UNIT`], 50, a simple op, twice that a multiply, doubled at 64 bits;
//!    long-latency ops such as conversions, divisions and special-register reads times
//!    `remat-lli-factor`); `use_factor` sums `remat-loop-trip ^ loop depth` over the
//!    copies; `pull_in_cost = base_cost * use_factor`. A candidate is dropped when it has
//!    more than `remat-use-limit` uses and a `use_factor` of at least `remat-loop-trip`,
//!    when it is an address (`ptradd`) costing more than `remat-gep-cost`, or when it
//!    costs more than `remat-single-cost-limit` (unless `remat-ignore-single-cost`).
//!    `dump-remat=4` reports `Total pull-in cost = N` for each.
//! 5. **Selection** (`select`): cheapest first, until the saving reaches what the target
//!    needs, at most `remat-max-live-limit` values a round. The saving is the candidates'
//!    registers less those of the operands they keep alive longer (once each, nothing for
//!    one live at every peak already); candidates whose kept-alive operand costs more than
//!    they save together are dropped, and nothing is done when the saving is not
//!    positive. A value another selected candidate's copies read is not taken (its copies
//!    rely on it staying live), nor a value whose copies read one taken.
//! 6. **Execution**: the copies are clones of the defining op (and of the chain below it),
//!    inserted before the first use they serve, carrying the seed's names as their
//!    `cuprite.name` (shown by `--emit=nvvm`): `remat_` for the first copy in a block the
//!    value was live into, `uclone_` for a copy that splits a live range inside a block
//!    (the defining block, or after an earlier copy). Each use reads the last copy at or
//!    before it in its block; a definition left without uses goes, with the chain below
//!    it that only it read.
//! 7. **Iteration**: up to 5 rounds, while the pressure is above the target and the last
//!    round lowered it.
//!
//! `no-remat=f,g` leaves the named functions alone (a remark says `Skip rematerialization
//! on f`); `do-remat=0` turns the pass off.
//!
//! Not here: the seed's sub-passes that share the pass in cicc: IV demotion (`remat-iv`)
//! is the separate [`super::iv_demote`] pass; load rematerialization (`remat-load`), add
//! factoring (`remat-add`) and live-out simplification (`simplify-live-out`, NLO) are not
//! built, and the machine-level `nv-remat-block` has no counterpart (ptxas allocates the
//! registers of our PTX). The pressure is an estimate over SSA values: ptxas's allocation
//! differs by a few registers either way.

use super::loops::find_loops;
use cuprite_dialects::nvvm as nv;
use cuprite_ir::{BlockId, Context, InsertPoint, OpId, TypeKind, ValueId};
use rustc_hash::{FxHashMap, FxHashSet};

/// The pass's options, cicc's knobs by their names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// `do-remat`: 0 off, 1 conservative (a single op), 2 normal, 3 full (default).
    pub do_remat: u32,
    /// `no-remat`: functions to leave alone.
    pub no_remat: Vec<String>,
    /// `remat-single-cost-limit` (6000).
    pub single_cost_limit: u64,
    /// `remat-ignore-single-cost` (false).
    pub ignore_single_cost: bool,
    /// `remat-loop-trip`: the trip count assumed for every loop (20).
    pub loop_trip: u64,
    /// `remat-gep-cost`: the most an address may cost (6000).
    pub gep_cost: u64,
    /// `remat-use-limit` (10).
    pub use_limit: u64,
    /// `remat-max-live-limit`: the most values pulled in a round (10).
    pub max_live_limit: u64,
    /// `remat-maxreg-ceiling` (0: none).
    pub maxreg_ceiling: u32,
    /// `remat-for-occ` (120; 0: aim at 80% of the pressure).
    pub for_occ: u32,
    /// `remat-lli-factor`: the cost factor of long-latency ops (10).
    pub lli_factor: u64,
    /// `dump-remat` (0 to 4).
    pub dump: u32,
    /// The target, `sm_<sm>`, for its occupancy steps.
    pub sm: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            do_remat: 3,
            no_remat: Vec::new(),
            single_cost_limit: 6000,
            ignore_single_cost: false,
            loop_trip: 20,
            gep_cost: 6000,
            use_limit: 10,
            max_live_limit: 10,
            maxreg_ceiling: 0,
            for_occ: 120,
            lli_factor: 10,
            dump: 0,
            sm: 90,
        }
    }
}

impl Options {
    /// The options that differ from the defaults, in the pass syntax.
    pub fn text(&self) -> String {
        let d = Options::default();
        let mut out = Vec::new();
        if self.do_remat != d.do_remat {
            out.push(format!("do-remat={}", self.do_remat));
        }
        if !self.no_remat.is_empty() {
            out.push(format!("no-remat={}", self.no_remat.join(",")));
        }
        let nums = [
            ("remat-single-cost-limit", self.single_cost_limit, d.single_cost_limit),
            ("remat-loop-trip", self.loop_trip, d.loop_trip),
            ("remat-gep-cost", self.gep_cost, d.gep_cost),
            ("remat-use-limit", self.use_limit, d.use_limit),
            ("remat-max-live-limit", self.max_live_limit, d.max_live_limit),
            ("remat-maxreg-ceiling", self.maxreg_ceiling.into(), d.maxreg_ceiling.into()),
            ("remat-for-occ", self.for_occ.into(), d.for_occ.into()),
            ("remat-lli-factor", self.lli_factor, d.lli_factor),
            ("dump-remat", self.dump.into(), d.dump.into()),
            ("sm", self.sm.into(), d.sm.into()),
        ];
        for (k, v, dv) in nums {
            if v != dv {
                out.push(format!("{k}={v}"));
            }
        }
        if self.ignore_single_cost {
            out.push("remat-ignore-single-cost=true".into());
        }
        out.join(" ")
    }

    /// Parses the pass options (`key=value` pairs).
    pub fn parse(o: &[(String, String)]) -> Result<Options, String> {
        let mut opts = Options::default();
        for (k, v) in o {
            let n = || v.parse::<u64>().map_err(|_| format!("option '{k}' of pass 'remat' expects a number, got '{v}'"));
            let n32 = || n().and_then(|x| u32::try_from(x).map_err(|_| format!("option '{k}' of pass 'remat' is too large: '{v}'")));
            match k.as_str() {
                "do-remat" => {
                    opts.do_remat =
                        n32().ok().filter(|l| *l <= 3).ok_or_else(|| format!("option 'do-remat' of pass 'remat' is a level from 0 (off) to 3, got '{v}'"))?
                }
                "no-remat" => opts.no_remat = v.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect(),
                "remat-single-cost-limit" => opts.single_cost_limit = n()?,
                "remat-ignore-single-cost" => opts.ignore_single_cost = crate::passes::parse_bool("remat", k, v)?,
                "remat-loop-trip" => opts.loop_trip = n()?.max(1),
                "remat-gep-cost" => opts.gep_cost = n()?,
                "remat-use-limit" => opts.use_limit = n()?,
                "remat-max-live-limit" => opts.max_live_limit = n()?,
                "remat-maxreg-ceiling" => opts.maxreg_ceiling = n32()?,
                "remat-for-occ" => opts.for_occ = n32()?,
                "remat-lli-factor" => opts.lli_factor = n()?,
                "dump-remat" => opts.dump = n32()?,
                "sm" => {
                    opts.sm = v
                        .trim_start_matches("sm_")
                        .parse()
                        .ok()
                        .filter(|s| (30..=200).contains(s))
                        .ok_or_else(|| format!("option 'sm' of pass 'remat' expects a target such as 90, got '{v}'"))?
                }
                _ => return Err(format!(
                    "pass 'remat' has no option '{k}' (options: do-remat, no-remat, remat-single-cost-limit, remat-ignore-single-cost, remat-loop-trip, remat-gep-cost, remat-use-limit, remat-max-live-limit, remat-maxreg-ceiling, remat-for-occ, remat-lli-factor, dump-remat, sm)"
                )),
            }
        }
        Ok(opts)
    }
}

/// What one run did.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Functions whose pressure was above their target.
    pub over_target: u64,
    /// Functions left alone by `no-remat`.
    pub skipped: u64,
    /// Values live at every peak above the target.
    pub candidates: u64,
    /// Candidates that could not be recomputed where needed.
    pub not_rematerializable: u64,
    /// Candidates over a cost limit.
    pub too_costly: u64,
    /// Values pulled in.
    pub pulled: u64,
    /// `remat_` copies made.
    pub remat_copies: u64,
    /// `uclone_` copies made.
    pub uclone_copies: u64,
    /// Register pressure (estimated 32-bit registers) taken off, summed over functions.
    pub registers_saved: u64,
    /// What `dump-remat` and `no-remat` report.
    pub remarks: Vec<String>,
}

/// Warps an SM of `sm_<sm>` holds at most.
pub fn max_warps(sm: u32) -> u32 {
    match sm {
        75 => 32,
        86 | 87 | 89 | 120 | 121 => 48,
        _ => 64,
    }
}

/// Warps an SM of `sm_<sm>` holds when each thread needs `regs` registers: 64K registers
/// an SM, allocated per warp in units of 256 (8 a thread); at most [`max_warps`].
pub fn warps_per_sm(sm: u32, regs: u32) -> u32 {
    let per_warp = regs.max(1).div_ceil(8) * 8 * 32;
    (65536 / per_warp).min(max_warps(sm))
}

/// The register target for a function whose pressure is `regs` ([the module docs](self),
/// step 2), with `ceiling` the `remat-maxreg-ceiling`; `None` when nothing is to be
/// gained.
pub fn target_registers(opts: &Options, regs: u32, ceiling: Option<u32>) -> Option<u32> {
    if let Some(c) = ceiling.filter(|&c| c < regs) {
        return Some(c);
    }
    if opts.for_occ == 0 {
        return Some(regs * 4 / 5).filter(|&t| t < regs);
    }
    if regs > opts.for_occ {
        return None;
    }
    let now = warps_per_sm(opts.sm, regs);
    let t = (1..regs).rev().find(|&t| warps_per_sm(opts.sm, t) > now)?;
    ((regs - t) * 5 <= regs).then_some(t)
}

/// 32-bit registers a value of the type takes; predicates, constants and a kernel's
/// parameters none (ptxas reads parameters from the constant bank, `c[0x0][...]`, as
/// operands, and reloads them at will).
fn weight(ctx: &Context, v: ValueId) -> u32 {
    if is_constant(ctx, v) {
        return 0;
    }
    if let cuprite_ir::ValueDef::BlockArg { block, .. } = ctx.value_def(v) {
        let entry = ctx
            .block_parent_op(block)
            .filter(|&f| nv::is_kernel(ctx, f))
            .and_then(|f| ctx.regions(f).first().and_then(|&r| ctx.region_blocks(r).first().copied()));
        if entry == Some(block) {
            return 0;
        }
    }
    match ctx.type_kind(ctx.value_type(v)) {
        TypeKind::Integer { width: 1, .. } => 0,
        TypeKind::Integer { width, .. } => width.div_ceil(32).max(1),
        TypeKind::Float(k) => k.width().div_ceil(32).max(1),
        TypeKind::Pointer { .. } => 2,
        _ => 1,
    }
}

fn is_constant(ctx: &Context, v: ValueId) -> bool {
    ctx.defining_op(v).is_some_and(|d| ctx.is_op(d, nv::ConstantOp::NAME) || ctx.is_op(d, nv::NullOp::NAME))
}

/// Whether `op` may be cloned where its value is used: one result, no regions, no effect,
/// no trap.
fn clonable(ctx: &Context, op: OpId) -> bool {
    ctx.num_results(op) == 1 && ctx.regions(op).is_empty() && !ctx.is_op(op, nv::ConstantOp::NAME) && super::licm::hoistable(ctx, op)
}

/// The cost of one copy of `op` ([the module docs](self), step 4).
fn op_cost(ctx: &Context, op: OpId, opts: &Options) -> u64 {
    let wide = if ctx.results(op).iter().any(|&r| weight(ctx, r) == 2) { 2 } else { 1 };
    let base = match ctx.op_name_str(op) {
        nv::MulOp::NAME => 2 * UNIT,
        nv::SdivOp::NAME | nv::UdivOp::NAME | nv::SremOp::NAME | nv::UremOp::NAME => 8 * UNIT,
        nv::IntrOp::NAME
            if matches!(
                nv::IntrOp(op).name(ctx).unwrap_or_default(),
                "min" | "max" | "smin" | "smax" | "umin" | "umax" | "abs" | "fma.rn"
            ) =>
        {
            UNIT
        }
        nv::SRegOp::NAME => UNIT * opts.lli_factor,
        _ if super::licm::float_division_intrinsic_or_conversion(ctx, op) => UNIT * opts.lli_factor,
        _ => UNIT,
    };
    base * wide
}

/// The cost of one simple ALU op: the default `remat-single-cost-limit` (6000) then allows
/// 120 op executions per register saved, e.g. two copies of a value of three ops inside a
/// loop (`remat-loop-trip` 20 trips each).
pub const UNIT: u64 = 50;

/// A bit vector over the function's values.
#[derive(Clone, PartialEq, Eq)]
struct Bits(Vec<u64>);

impl Bits {
    fn new(n: usize) -> Bits {
        Bits(vec![0; n.div_ceil(64)])
    }
    fn set(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }
    fn clear(&mut self, i: usize) {
        self.0[i / 64] &= !(1 << (i % 64));
    }
    fn has(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }
    fn or(&mut self, o: &Bits) {
        for (a, b) in self.0.iter_mut().zip(&o.0) {
            *a |= b;
        }
    }
    fn and(&mut self, o: &Bits) {
        for (a, b) in self.0.iter_mut().zip(&o.0) {
            *a &= b;
        }
    }
    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &x)| (0..64).filter(move |b| x >> b & 1 == 1).map(move |b| w * 64 + b))
    }
}

/// Liveness of one function's values ([the module docs](self), step 1).
struct Liveness {
    index: FxHashMap<ValueId, usize>,
    /// Addresses instruction selection folds into `[base+imm]` ([`folded_base`]), each
    /// to its base: a use of one is a use of the base.
    folded: FxHashMap<ValueId, ValueId>,
    values: Vec<ValueId>,
    weights: Vec<u32>,
    blocks: Vec<BlockId>,
    block_index: FxHashMap<BlockId, usize>,
    live_in: Vec<Bits>,
    live_out: Vec<Bits>,
}

/// A block's largest live set: its weight, the op before which it is live, the set.
struct Peak {
    weight: u32,
    at: usize,
    set: Bits,
}

/// If `v` is an address instruction selection folds into its uses (`[base+imm]`: a
/// `ptradd` by a constant that fits 32 bits, used only as loads' and stores' address, as
/// `match_address_offset` in the selector), its base: it takes no register of its own.
fn folded_base(ctx: &Context, v: ValueId) -> Option<ValueId> {
    let d = ctx.defining_op(v).filter(|&d| ctx.is_op(d, nv::PtrAddOp::NAME))?;
    let fits = super::ptradd_const_offset(ctx, d).is_some_and(|c| i32::try_from(c).is_ok());
    let only_addresses =
        ctx.uses(v).all(|(u, k)| (ctx.is_op(u, nv::LoadOp::NAME) && k == 0) || (ctx.is_op(u, nv::StoreOp::NAME) && k == 1));
    (fits && only_addresses).then(|| ctx.operand(d, 0))
}

impl Liveness {
    /// The liveness index of `v` as an operand: a folded address counts as its base.
    fn operand_index(&self, mut v: ValueId) -> Option<usize> {
        for _ in 0..64 {
            match self.folded.get(&v) {
                Some(&b) => v = b,
                None => break,
            }
        }
        self.index.get(&v).copied()
    }

    fn new(ctx: &Context, blocks: &[BlockId]) -> Liveness {
        let mut folded = FxHashMap::default();
        for &b in blocks {
            for o in ctx.block_ops(b) {
                for &r in ctx.results(o) {
                    if let Some(base) = folded_base(ctx, r) {
                        folded.insert(r, base);
                    }
                }
            }
        }
        let mut index = FxHashMap::default();
        let mut values = Vec::new();
        let mut add = |v: ValueId, values: &mut Vec<ValueId>| {
            index.entry(v).or_insert_with(|| {
                values.push(v);
                values.len() - 1
            });
        };
        for &b in blocks {
            for &a in ctx.block_args(b) {
                add(a, &mut values);
            }
            for o in ctx.block_ops(b) {
                for &r in ctx.results(o) {
                    if !is_constant(ctx, r) && !folded.contains_key(&r) {
                        add(r, &mut values);
                    }
                }
            }
        }
        let n = values.len();
        let weights = values.iter().map(|&v| weight(ctx, v)).collect();
        let block_index: FxHashMap<BlockId, usize> = blocks.iter().enumerate().map(|(i, &b)| (b, i)).collect();
        let mut lv =
            Liveness { index, folded, values, weights, blocks: blocks.to_vec(), block_index, live_in: Vec::new(), live_out: Vec::new() };
        // gen: used before (or without) a definition in the block; kill: defined in it.
        let mut gen = vec![Bits::new(n); blocks.len()];
        let mut kill = vec![Bits::new(n); blocks.len()];
        for (bi, &b) in blocks.iter().enumerate() {
            for &a in ctx.block_args(b) {
                kill[bi].set(lv.index[&a]);
            }
            for o in ctx.block_ops(b) {
                for v in ctx.operand_vec(o) {
                    if let Some(i) = lv.operand_index(v) {
                        if !kill[bi].has(i) {
                            gen[bi].set(i);
                        }
                    }
                }
                for &r in ctx.results(o) {
                    if let Some(&i) = lv.index.get(&r) {
                        kill[bi].set(i);
                    }
                }
            }
        }
        let succs: Vec<Vec<usize>> = blocks
            .iter()
            .map(|&b| {
                ctx.terminator(b).map(|t| ctx.successors(t).filter_map(|s| lv.block_index.get(&s).copied()).collect()).unwrap_or_default()
            })
            .collect();
        let mut live_in = gen.clone();
        let mut live_out = vec![Bits::new(n); blocks.len()];
        let mut changed = true;
        while changed {
            changed = false;
            for bi in (0..blocks.len()).rev() {
                let mut out = Bits::new(n);
                for &s in &succs[bi] {
                    out.or(&live_in[s]);
                }
                let mut inn = out.clone();
                for (a, (k, g)) in inn.0.iter_mut().zip(kill[bi].0.iter().zip(&gen[bi].0)) {
                    *a = (*a & !k) | g;
                }
                if inn != live_in[bi] {
                    live_in[bi] = inn;
                    changed = true;
                }
                live_out[bi] = out;
            }
        }
        lv.live_in = live_in;
        lv.live_out = live_out;
        lv
    }

    fn weight_of(&self, s: &Bits) -> u32 {
        s.iter().map(|i| self.weights[i]).sum()
    }

    /// The function's pressure: the weight of the largest live set before an op (or after
    /// a block's last), by a reverse walk of each block that keeps one set.
    fn max_pressure(&self, ctx: &Context) -> u32 {
        let mut top = 0;
        for (bi, &b) in self.blocks.iter().enumerate() {
            let mut live = self.live_out[bi].clone();
            let mut w = self.weight_of(&live);
            top = top.max(w);
            let ops: Vec<OpId> = ctx.block_ops(b).collect();
            for &o in ops.iter().rev() {
                for &r in ctx.results(o) {
                    if let Some(&i) = self.index.get(&r) {
                        if live.has(i) {
                            live.clear(i);
                            w -= self.weights[i];
                        }
                    }
                }
                for v in ctx.operand_vec(o) {
                    if let Some(i) = self.operand_index(v) {
                        if !live.has(i) {
                            live.set(i);
                            w += self.weights[i];
                        }
                    }
                }
                top = top.max(w);
            }
        }
        top
    }

    /// The live set before each op of block `bi` (the last entry: after the last op).
    fn before_each(&self, ctx: &Context, bi: usize) -> Vec<Bits> {
        let ops: Vec<OpId> = ctx.block_ops(self.blocks[bi]).collect();
        let mut out = vec![Bits::new(0); ops.len() + 1];
        let mut live = self.live_out[bi].clone();
        out[ops.len()] = live.clone();
        for (k, &o) in ops.iter().enumerate().rev() {
            for &r in ctx.results(o) {
                if let Some(&i) = self.index.get(&r) {
                    live.clear(i);
                }
            }
            for v in ctx.operand_vec(o) {
                if let Some(i) = self.operand_index(v) {
                    live.set(i);
                }
            }
            out[k] = live.clone();
        }
        out
    }

    fn peak(&self, sets: &[Bits]) -> Peak {
        let (at, weight) = sets.iter().enumerate().map(|(k, s)| (k, self.weight_of(s))).fold((0, 0), |a, x| if x.1 > a.1 { x } else { a });
        Peak { weight, at, set: sets[at].clone() }
    }
}

/// Where one copy of a candidate goes: before op `before` (the `at`-th of block `bi`),
/// serving the uses of the block from there to the next copy.
#[derive(Clone, Copy)]
struct Site {
    bi: usize,
    at: usize,
    uclone: bool,
}

/// One candidate with its plan.
struct Plan {
    v: ValueId,
    sites: Vec<Site>,
    /// The values the copies read (they must stay live), and of them those the copies
    /// keep alive longer.
    reads: FxHashSet<ValueId>,
    extended: FxHashSet<ValueId>,
    cost: u64,
}

/// What one copy reads: the values live where it goes, and those it keeps alive longer
/// (operands neither live there nor recomputable within the depth; an SSA operand of the
/// definition dominates every use of the value, so it is available).
#[derive(Default)]
struct Reads {
    live: FxHashSet<ValueId>,
    extended: FxHashSet<ValueId>,
}

/// Whether `v` can be computed before op `at` of block `bi`, whose live set is `live`:
/// adds the ops to clone (deepest first) to `chain` and what they read to `reads`, and
/// returns the cost of the cloned ops.
#[allow(clippy::too_many_arguments)]
fn chain_at(
    ctx: &Context,
    lv: &Liveness,
    live: &Bits,
    v: ValueId,
    depth: u32,
    opts: &Options,
    chain: &mut Vec<OpId>,
    reads: &mut Reads,
) -> Option<u64> {
    let d = ctx.defining_op(v)?;
    if depth == 0 || !clonable(ctx, d) {
        return None;
    }
    let mut cost = op_cost(ctx, d, opts);
    for u in ctx.operand_vec(d) {
        if is_constant(ctx, u) || chain.iter().any(|&c| ctx.results(c).contains(&u)) {
            continue;
        }
        if lv.index.get(&u).is_some_and(|&i| live.has(i)) {
            reads.live.insert(u);
            continue;
        }
        let (n, live_before, extended_before) = (chain.len(), reads.live.clone(), reads.extended.clone());
        match chain_at(ctx, lv, live, u, depth - 1, opts, chain, reads) {
            Some(c) => cost += c,
            None => {
                chain.truncate(n);
                reads.live = live_before;
                reads.extended = extended_before;
                reads.extended.insert(u);
            }
        }
    }
    chain.push(d);
    Some(cost)
}

/// Runs the pass on `nvvm.func` `f`.
pub fn rematerialize(ctx: &mut Context, f: OpId, opts: &Options) -> Stats {
    let mut stats = Stats::default();
    if opts.do_remat == 0 {
        return stats;
    }
    let name = nv::FuncOp::cast(ctx, f).and_then(|n| n.sym_name(ctx)).unwrap_or_default().to_string();
    if opts.no_remat.contains(&name) {
        stats.skipped += 1;
        stats.remarks.push(format!("Skip rematerialization on {name}"));
        return stats;
    }
    let Some(&region) = ctx.regions(f).first() else { return stats };
    let limit = (opts.maxreg_ceiling > 0).then_some(opts.maxreg_ceiling);
    let depth_limit = match opts.do_remat {
        1 => 1,
        2 => 3,
        _ => 6,
    };
    // The pressure and the target first, without the per-op live sets: most functions
    // are under their target and stop here.
    let lv = Liveness::new(ctx, ctx.region_blocks(region));
    let first = lv.max_pressure(ctx);
    let target = target_registers(opts, first, limit);
    if opts.dump >= 1 {
        let shown = target.map_or("none".to_string(), |t| t.to_string());
        stats.remarks.push(format!("remat on {name}: pressure {first} registers, target {shown}"));
    }
    if opts.dump >= 2 {
        for bi in 0..lv.blocks.len() {
            stats.remarks.push(format!("Block ^bb{bi}: live-in = {}", lv.weight_of(&lv.live_in[bi])));
        }
    }
    let t = match target {
        Some(t) if first > t => t,
        _ => return stats,
    };
    stats.over_target += 1;
    let mut last = u32::MAX;
    for _round in 0..5 {
        let blocks: Vec<BlockId> = ctx.region_blocks(region).to_vec();
        let lv = Liveness::new(ctx, &blocks);
        let sets: Vec<Vec<Bits>> = (0..blocks.len()).map(|bi| lv.before_each(ctx, bi)).collect();
        let peaks: Vec<Peak> = sets.iter().map(|s| lv.peak(s)).collect();
        let press: Vec<Vec<u32>> = sets.iter().map(|b| b.iter().map(|s| lv.weight_of(s)).collect()).collect();
        let pressure = peaks.iter().map(|p| p.weight).max().unwrap_or(0);
        if pressure <= t || pressure >= last {
            break;
        }
        last = pressure;
        let over: Vec<usize> = (0..blocks.len()).filter(|&bi| peaks[bi].weight > t).collect();
        let mut common: Option<Bits> = None;
        for &bi in &over {
            let mut s = peaks[bi].set.clone();
            if let Some(op) = ctx.block_ops(blocks[bi]).nth(peaks[bi].at) {
                for u in ctx.operand_vec(op) {
                    if let Some(i) = lv.operand_index(u) {
                        s.clear(i);
                    }
                }
            }
            match &mut common {
                None => common = Some(s),
                Some(c) => c.and(&s),
            }
        }
        let Some(common) = common else { break };
        let depth_of = loop_depths(ctx, f);
        let mut plans = Vec::new();
        for i in common.iter() {
            let v = lv.values[i];
            if lv.weights[i] == 0 {
                continue;
            }
            stats.candidates += 1;
            match plan(ctx, &lv, &sets, &press, t, v, depth_limit, opts, &depth_of) {
                Ok(p) => {
                    if opts.dump >= 4 {
                        stats.remarks.push(format!("Total pull-in cost = {}", p.cost));
                    }
                    plans.push(p)
                }
                Err(Reject::NotRematerializable) => stats.not_rematerializable += 1,
                Err(Reject::Cost) => stats.too_costly += 1,
            }
        }
        // Cheapest first; ties in the order of the values in the function.
        plans.sort_by_key(|p| (p.cost, lv.index[&p.v]));
        let taken = select(ctx, &lv, &common, plans, pressure - t, opts.max_live_limit);
        if opts.dump >= 3 {
            for &bi in &over {
                stats.remarks.push(format!("Block ^bb{bi}: peak {} before op {}", peaks[bi].weight, peaks[bi].at));
            }
            for p in &taken {
                let ext: Vec<usize> = p.extended.iter().filter_map(|u| lv.index.get(u).copied()).collect();
                stats.remarks.push(format!(
                    "Pull in value {} ({}, {} registers, cost {}, {} copies, keeps {} values alive longer: {:?})",
                    lv.index[&p.v],
                    ctx.defining_op(p.v).map_or("", |d| ctx.op_name_str(d)),
                    lv.weights[lv.index[&p.v]],
                    p.cost,
                    p.sites.len(),
                    p.extended.len(),
                    ext
                ));
            }
        }
        if taken.is_empty() {
            break;
        }
        // The ops the copies go before, found before any copy is made.
        let anchors: Vec<Vec<OpId>> = taken
            .iter()
            .map(|p| p.sites.iter().map(|s| ctx.block_ops(blocks[s.bi]).nth(s.at).expect("a site is an op of its block")).collect())
            .collect();
        let mut dead = Vec::new();
        for (p, a) in taken.iter().zip(&anchors) {
            execute(ctx, &lv, &sets, p, a, depth_limit, opts, &mut stats, &mut dead);
            stats.pulled += 1;
        }
        erase_dead(ctx, dead);
    }
    let now = Liveness::new(ctx, ctx.region_blocks(region)).max_pressure(ctx);
    stats.registers_saved += u64::from(first.saturating_sub(now));
    if opts.dump >= 1 {
        stats.remarks.push(format!("remat on {name}: pressure {first} -> {now} registers"));
    }
    stats
}

enum Reject {
    NotRematerializable,
    Cost,
}

/// The plans to carry out ([the module docs](self), step 5): cheapest first (`plans` is
/// sorted), until the saving reaches `need`. A value a copy keeps alive longer costs its
/// registers at the peaks (unless live at all of them already), once however many copies
/// read it; candidates whose extended values they alone do not pay for are dropped.
fn select(ctx: &Context, lv: &Liveness, common: &Bits, plans: Vec<Plan>, need: u32, limit: u64) -> Vec<Plan> {
    let ext_cost = |u: &ValueId| match lv.index.get(u) {
        Some(&i) if common.has(i) => 0,
        Some(&i) => lv.weights[i],
        None => weight(ctx, *u),
    };
    let gain = |p: &Plan| lv.weights[lv.index[&p.v]];
    let extended = |taken: &[Plan]| taken.iter().flat_map(|p| p.extended.iter().copied()).collect::<FxHashSet<ValueId>>();
    let net = |taken: &[Plan]| {
        let g: u32 = taken.iter().map(gain).sum();
        let c: u32 = extended(taken).iter().map(ext_cost).sum();
        i64::from(g) - i64::from(c)
    };
    let mut taken: Vec<Plan> = Vec::new();
    for p in plans {
        if net(&taken) >= i64::from(need) || taken.len() as u64 >= limit {
            break;
        }
        let conflict = taken
            .iter()
            .any(|q| q.reads.contains(&p.v) || q.extended.contains(&p.v) || p.reads.contains(&q.v) || p.extended.contains(&q.v));
        if !conflict {
            taken.push(p);
        }
    }
    // Drop the candidates an extended value costs more than they save together.
    loop {
        let ext = extended(&taken);
        let mut unpaid: Vec<ValueId> =
            ext.into_iter().filter(|u| taken.iter().filter(|p| p.extended.contains(u)).map(gain).sum::<u32>() <= ext_cost(u)).collect();
        unpaid.sort_by_key(|u| lv.index.get(u).copied().unwrap_or(usize::MAX));
        let Some(u) = unpaid.first() else { break };
        taken.retain(|p| !p.extended.contains(u));
    }
    if net(&taken) <= 0 {
        taken.clear();
    }
    taken
}

/// The loop depth of each block of `f`.
fn loop_depths(ctx: &Context, f: OpId) -> FxHashMap<BlockId, u32> {
    let mut d = FxHashMap::default();
    for l in find_loops(ctx, f) {
        for &b in &l.blocks {
            *d.entry(b).or_insert(0) += 1;
        }
    }
    d
}

/// The copies candidate `v` needs and their cost ([the module docs](self), step 4).
#[allow(clippy::too_many_arguments)]
fn plan(
    ctx: &Context,
    lv: &Liveness,
    sets: &[Vec<Bits>],
    pressure: &[Vec<u32>],
    target: u32,
    v: ValueId,
    depth_limit: u32,
    opts: &Options,
    depth_of: &FxHashMap<BlockId, u32>,
) -> Result<Plan, Reject> {
    let def = ctx.defining_op(v).ok_or(Reject::NotRematerializable)?;
    if !clonable(ctx, def) {
        return Err(Reject::NotRematerializable);
    }
    let dbi = lv.block_index[&ctx.op_block(def).ok_or(Reject::NotRematerializable)?];
    let def_at = ctx.block_ops(lv.blocks[dbi]).position(|o| o == def).ok_or(Reject::NotRematerializable)?;
    // The positions of the uses, by block.
    let mut uses: FxHashMap<usize, Vec<usize>> = FxHashMap::default();
    let mut n_uses = 0u64;
    for (user, _) in ctx.uses(v) {
        n_uses += 1;
        // A folded address keeps its base live up to its own uses: no copy before it helps.
        if ctx.results(user).iter().any(|r| lv.folded.contains_key(r)) {
            return Err(Reject::NotRematerializable);
        }
        let b = ctx.op_block(user).and_then(|b| lv.block_index.get(&b).copied()).ok_or(Reject::NotRematerializable)?;
        let at = ctx.block_ops(lv.blocks[b]).position(|o| o == user).ok_or(Reject::NotRematerializable)?;
        uses.entry(b).or_default().push(at);
    }
    let mut sites = Vec::new();
    let mut keys: Vec<usize> = uses.keys().copied().collect();
    keys.sort_unstable();
    for bi in keys {
        let mut at = uses[&bi].clone();
        at.sort_unstable();
        at.dedup();
        // A copy at each use after a stretch above the target since the last one (or
        // the definition): the value is live through no such stretch.
        let mut prev = (bi == dbi).then_some(def_at);
        for a in at {
            let split = match prev {
                None => true,
                Some(p) => pressure[bi][p + 1..=a].iter().any(|&w| w > target),
            };
            if split {
                sites.push(Site { bi, at: a, uclone: bi == dbi || prev.is_some() });
            }
            prev = Some(a);
        }
    }
    if sites.is_empty() {
        return Err(Reject::NotRematerializable);
    }
    let mut reads = Reads::default();
    let (mut base, mut use_factor) = (0u64, 0u64);
    for s in &sites {
        let mut chain = Vec::new();
        let c = chain_at(ctx, lv, &sets[s.bi][s.at], v, depth_limit, opts, &mut chain, &mut reads).ok_or(Reject::NotRematerializable)?;
        base = base.max(c);
        let depth = depth_of.get(&lv.blocks[s.bi]).copied().unwrap_or(0);
        use_factor = use_factor.saturating_add(opts.loop_trip.saturating_pow(depth));
    }
    let cost = base.saturating_mul(use_factor);
    if n_uses > opts.use_limit && use_factor >= opts.loop_trip {
        return Err(Reject::Cost);
    }
    if ctx.is_op(def, nv::PtrAddOp::NAME) && cost > opts.gep_cost {
        return Err(Reject::Cost);
    }
    if cost > opts.single_cost_limit && !opts.ignore_single_cost {
        return Err(Reject::Cost);
    }
    Ok(Plan { v, sites, reads: reads.live, extended: reads.extended, cost })
}

/// Makes the copies of plan `p` before the `anchors` (one per site, found before any
/// plan of the round ran) and points the uses at them; the definition, if left without
/// uses, goes to `dead`.
#[allow(clippy::too_many_arguments)]
fn execute(
    ctx: &mut Context,
    lv: &Liveness,
    sets: &[Vec<Bits>],
    p: &Plan,
    anchors: &[OpId],
    depth_limit: u32,
    opts: &Options,
    stats: &mut Stats,
    dead: &mut Vec<OpId>,
) {
    let mut copies: Vec<(BlockId, OpId, ValueId)> = Vec::new();
    for (s, &anchor) in p.sites.iter().zip(anchors) {
        let block = lv.blocks[s.bi];
        let mut chain = Vec::new();
        let mut reads = Reads::default();
        chain_at(ctx, lv, &sets[s.bi][s.at], p.v, depth_limit, opts, &mut chain, &mut reads).expect("planned");
        let mut map: FxHashMap<ValueId, ValueId> = FxHashMap::default();
        let label = if s.uclone { "uclone_" } else { "remat_" };
        for c in chain {
            let st = cuprite_ir::OperationState {
                name: ctx.op_name(c),
                loc: ctx.op_loc(c),
                operands: ctx.operand_vec(c).into_iter().map(|u| map.get(&u).copied().unwrap_or(u)).collect(),
                result_types: ctx.results(c).iter().map(|&r| ctx.value_type(r)).collect(),
                attrs: ctx.attrs(c).to_vec(),
                props: ctx.props(c).to_vec(),
                regions: Vec::new(),
                successors: Vec::new(),
                prop_dict: None,
                attr_dict: None,
            };
            let op = ctx.create_op(st);
            ctx.insert_op(op, InsertPoint { block, before: Some(anchor) });
            cuprite_dialects::hints::set_value_name(ctx, op, label);
            map.insert(ctx.result(c, 0), ctx.result(op, 0));
        }
        if s.uclone {
            stats.uclone_copies += 1;
        } else {
            stats.remat_copies += 1;
        }
        copies.push((block, anchor, map[&p.v]));
    }
    // Each use reads the last copy at or before it in its block.
    let users: Vec<(OpId, u32)> = ctx.uses(p.v).collect();
    for (user, idx) in users {
        let Some(b) = ctx.op_block(user) else { continue };
        let pos = |o: OpId| ctx.block_ops(b).position(|x| x == o);
        let Some(up) = pos(user) else { continue };
        let best = copies
            .iter()
            .filter_map(|&(cb, a, c)| if cb == b { pos(a).filter(|&ap| ap <= up).map(|ap| (ap, c)) } else { None })
            .max_by_key(|&(ap, _)| ap);
        if let Some((_, c)) = best {
            ctx.set_operand(user, idx as usize, c);
        }
    }
    dead.push(ctx.defining_op(p.v).expect("an op's result"));
}

/// Erases the ops of `dead` left without uses, and the chains below them that only they
/// read.
fn erase_dead(ctx: &mut Context, mut dead: Vec<OpId>) {
    let mut erased: FxHashSet<OpId> = FxHashSet::default();
    while let Some(d) = dead.pop() {
        if erased.contains(&d) || ctx.op_block(d).is_none() || ctx.results(d).iter().any(|&r| ctx.has_uses(r)) || !clonable(ctx, d) {
            continue;
        }
        let operands = ctx.operand_vec(d);
        ctx.erase_op(d);
        erased.insert(d);
        dead.extend(operands.into_iter().filter_map(|u| ctx.defining_op(u)));
    }
}
