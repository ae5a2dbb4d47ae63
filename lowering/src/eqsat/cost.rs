//! The cost model extraction minimizes: SASS instructions at sm_90, plus a register term.
//!
//! Each operator costs the SASS instructions ptxas 13.0 emits for it, measured by
//! `bench/sass_costs.py` (table in `bench/results/sass_costs.md`): every 32-bit add, logic
//! op, shift, `mul.lo`, `mul.hi` and min/max is 1; 64-bit add, logic and shift 2, 64-bit
//! `mul.lo` and min/max 4, `mul.hi.u64` 7; `div.u32` 18, `rem.u32` 17, `div.s32` 25,
//! `rem.s32` 23, `div.u64` 72, `div.s64` 88; `cvt` between 32 and 64 bits 1. A comparison is
//! one `ISETP` (two at 64 bits), a select one `SEL` (two at 64 bits).
//!
//! Adjustments, each with its reason:
//! * `zext` costs 0.9 against `sext`'s 1: its high word is the constant zero, which the 64-bit
//!   op that reads it often absorbs (`IADD3` with `RZ`), so between equals it wins.
//! * `trunc` costs 0.1: the low half of a 64-bit register pair is a register already (no
//!   SASS), but a trunc is never free to keep, so extraction prefers fewer of them.
//! * a 64-bit result adds [`WIDE_REGISTER`]: it holds two registers instead of one, which is
//!   what counts against occupancy.
//! * constants and leaves cost 0: constants are immediates in SASS.
//! * float `add`, `mul` and `fma` are one instruction each at either width (`FADD`/`DADD`,
//!   ...); `neg` is an operand modifier of its reader's instruction ([`FUSED`]).
//!
//! * fusions that instruction selection (`lowering/src/nvvm_to_ptx/rules.rs`) or ptxas
//!   make: a 64-bit multiply of two values extended from 32 bits (or constants that fit) is
//!   one `mul.wide` ([`MUL_WIDE`]); an add of a product or of a shifted value is part of a
//!   `mad` or an `LEA`, and a `ptradd` of a constant part of a `[reg+imm]` address
//!   ([`FUSED`]).
//!
//! Every operator costs more than zero, so a term is never cheaper than its own subterm and
//! the chosen terms have no cycles. The cost of a term is the sum of its nodes' costs (a
//! tree cost: a value two terms share counts in both).

use super::lang::{Op, Term};
use egg::{CostFunction, Id};

/// The register term of a 64-bit result (one more register, in instruction units).
pub const WIDE_REGISTER: f64 = 0.1;
/// `mul.wide` of two values extended from 32 bits. The extensions it absorbs are
/// children whose cost the tree cost adds anyway, so a `mul.wide` takes their cost back
/// (down to [`FUSED`]).
pub const MUL_WIDE: f64 = 1.0 + WIDE_REGISTER;
/// An op that instruction selection or ptxas folds into its neighbour: never zero, so that
/// terms stay acyclic.
pub const FUSED: f64 = 0.1;

/// The cost of one node of type width `w` (0: a pointer, whose arithmetic is 64-bit).
pub fn node_cost(op: Op, w: u32) -> f64 {
    let wide = w == 0 || w > 32;
    let pick = |narrow: f64, wide_cost: f64| if wide { wide_cost + WIDE_REGISTER } else { narrow };
    match op {
        Op::Const(_) | Op::Leaf(_) => 0.0,
        Op::Add { .. } | Op::Sub { .. } | Op::And | Op::Or | Op::Xor | Op::Shl { .. } | Op::Lshr | Op::Ashr => pick(1.0, 2.0),
        Op::PtrAdd => pick(1.0, 2.0),
        Op::Mul { .. } => pick(1.0, 4.0),
        Op::MulHi | Op::UMulHi => pick(1.0, 7.0),
        Op::Smin | Op::Smax | Op::Umin | Op::Umax => pick(1.0, 4.0),
        Op::Udiv => pick(18.0, 72.0),
        Op::Urem => pick(17.0, 72.0),
        Op::Sdiv => pick(25.0, 88.0),
        Op::Srem => pick(23.0, 88.0),
        Op::Sext => pick(1.0, 1.0),
        Op::Zext => pick(0.9, 0.9),
        Op::Trunc => 0.1,
        // The comparison's width is its operands'; the result is a predicate.
        Op::ICmp(_) => pick(1.0, 2.0) - if wide { WIDE_REGISTER } else { 0.0 },
        Op::Select => pick(1.0, 2.0),
        // `FADD`, `FMUL`, `FFMA` (and `DADD`, `DMUL`, `DFMA`): one instruction each; a
        // negation is an operand modifier of the instruction that reads it.
        Op::Fadd { .. } | Op::Fsub { .. } | Op::Fmul { .. } | Op::Fma => 1.0,
        Op::Fneg => FUSED,
    }
}

/// Extraction's cost function: the sum of node costs over the term (a tree cost).
pub struct SassCost<'a> {
    pub egraph: &'a super::egraph::Graph,
    /// The block's original nodes (children canonical): between equal costs, extraction
    /// keeps what the code already computes ([`ORIGINAL_BONUS`]).
    pub originals: &'a rustc_hash::FxHashSet<Term>,
}

/// What an original node's cost is lowered by: a tie-break, far below any real difference
/// (the smallest is [`FUSED`]), so that a commuted or flag-less copy of a value the block
/// computes anyway is not built beside it.
pub const ORIGINAL_BONUS: f64 = 0.01;

impl CostFunction<Term> for SassCost<'_> {
    type Cost = f64;
    fn cost<C>(&mut self, enode: &Term, mut costs: C) -> f64
    where
        C: FnMut(Id) -> f64,
    {
        let mut own = own_cost(self.egraph, enode);
        if !enode.args.is_empty() && self.originals.contains(enode) {
            own -= ORIGINAL_BONUS;
        }
        enode.args.iter().fold(own, |sum, &a| sum + costs(a))
    }
}

/// The cost of `enode` itself (without its children), fusions with its children's classes
/// included.
pub fn own_cost(eg: &super::egraph::Graph, enode: &Term) -> f64 {
    // A comparison costs by its operands' width, everything else by its result's.
    let w = match enode.op {
        Op::ICmp(_) => eg[enode.args[0]].data.width,
        _ => eg.analysis.width(enode.ty),
    };
    let mut own = node_cost(enode.op, w);
    let has = |id: Id, f: &dyn Fn(&Term) -> bool| eg[id].nodes.iter().any(f);
    // A value instruction selection widens for free: an extension from 32 bits or a
    // constant that fits.
    let narrow = |id: Id| {
        eg[id].data.konst().is_some_and(|c| i32::try_from(c).is_ok() || u32::try_from(c).is_ok())
            || has(id, &|n| matches!(n.op, Op::Sext | Op::Zext) && eg[n.args[0]].data.width == 32)
    };
    match enode.op {
        // `mul.wide.s32`/`.u32` (isel-mul-wide): one instruction.
        Op::Mul { .. } if w == 64 && narrow(enode.args[0]) && narrow(enode.args[1]) => {
            // The extensions it absorbs are counted by the children: take them back.
            let exts = enode.args.iter().filter(|&&a| has(a, &|n| matches!(n.op, Op::Sext | Op::Zext))).count() as f64;
            own = (MUL_WIDE - exts * node_cost(Op::Sext, 64)).max(FUSED)
        }
        // `mad` (isel-mad) absorbs an add of a product, and ptxas an add of a shifted
        // value (`LEA`): the add is nearly free.
        Op::Add { .. } if w >= 16 && enode.args.iter().any(|&a| has(a, &|n| matches!(n.op, Op::Mul { .. } | Op::Shl { .. }))) => {
            own = FUSED
        }
        // A constant byte offset is the `[reg+imm]` of the access (isel-ptradd-into-address).
        Op::PtrAdd if eg[enode.args[1]].data.konst().is_some() => own = FUSED,
        _ => {}
    }
    own
}
