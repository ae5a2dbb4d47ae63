//! Copy coalescing for instruction selection: block arguments that can share a register
//! with the values passed to them, so that the edge's copy disappears.
//!
//! Out of SSA, a block argument is a register written by a copy on every incoming edge
//! (`mov.b32 %r8, %r11` at the end of a loop for `i = i + 1`). When the argument and the
//! value passed to it never hold different live values at once, one register serves both:
//! the instruction that computes `i + 1` writes the argument's register directly
//! (`add.s32 %r8, %r8, 1`), as LLVM's PHI elimination and register coalescer leave NVRTC's
//! PTX. `ptxas` would coalesce the copies itself, so this is about the PTX we show and the
//! instructions the simulator executes, not about the machine code.
//!
//! Values are grouped into classes (union-find); two classes merge only when no member of
//! one *interferes* with a member of the other: two SSA values interfere when one is live
//! right after the other is defined (liveness by the usual backward data flow over the
//! blocks; a branch's arguments are uses at the end of its block). A block argument is
//! defined at its block's entry. Besides interference:
//! - two arguments of one block never share (each edge's copies write both);
//! - an op that reads a member of the class it writes must select to one instruction that
//!   reads its operands before writing ([`reads_before_writing`]): `add`, `mul`, `fma` (fused
//!   or the intrinsic), `mul.hi`,
//!   `max` on 32- and 64-bit values, not a multi-instruction sequence that writes its
//!   result before its last read;
//! - constants (immediates), ops a fusion absorbs (no register), and the function's
//!   parameters (loaded at entry) stay out.

use cuprite_dialects::nvvm as nv;
use cuprite_ir::{BlockId, Context, OpId, ValueId};
use rustc_hash::{FxHashMap, FxHashSet};

/// Where a value is defined: its block and the op's index there (`-1`: a block argument).
#[derive(Copy, Clone)]
struct Def {
    block: usize,
    at: i64,
    op: Option<OpId>,
}

struct Liveness {
    index: FxHashMap<ValueId, usize>,
    values: Vec<ValueId>,
    defs: Vec<Def>,
    /// Per value: its uses as (block, op index).
    uses: Vec<Vec<(usize, i64)>>,
    live_out: Vec<Vec<u64>>,
}

fn has(set: &[u64], i: usize) -> bool {
    set[i / 64] >> (i % 64) & 1 == 1
}

impl Liveness {
    fn new(ctx: &Context, blocks: &[BlockId], reads: &FxHashMap<OpId, Vec<ValueId>>) -> Liveness {
        let bix: FxHashMap<BlockId, usize> = blocks.iter().enumerate().map(|(i, &b)| (b, i)).collect();
        let mut index = FxHashMap::default();
        let mut defs = Vec::new();
        let mut values = Vec::new();
        for (bi, &b) in blocks.iter().enumerate() {
            for &a in ctx.block_args(b) {
                index.insert(a, defs.len());
                defs.push(Def { block: bi, at: -1, op: None });
                values.push(a);
            }
            for (k, o) in ctx.block_ops(b).enumerate() {
                for &r in ctx.results(o) {
                    index.insert(r, defs.len());
                    defs.push(Def { block: bi, at: k as i64, op: Some(o) });
                    values.push(r);
                }
            }
        }
        let n = defs.len();
        let words = n.div_ceil(64).max(1);
        let mut uses = vec![Vec::new(); n];
        // gen: used in the block before any definition there (all of a block's uses come
        // after the definitions they see in SSA, unless defined in another block).
        let mut gen = vec![vec![0u64; words]; blocks.len()];
        let mut kill = vec![vec![0u64; words]; blocks.len()];
        let mut succs: Vec<Vec<usize>> = vec![Vec::new(); blocks.len()];
        for (bi, &b) in blocks.iter().enumerate() {
            for &a in ctx.block_args(b) {
                let i = index[&a];
                kill[bi][i / 64] |= 1 << (i % 64);
            }
            for (k, o) in ctx.block_ops(b).enumerate() {
                for v in ctx.operand_vec(o).into_iter().chain(reads.get(&o).into_iter().flatten().copied()) {
                    if let Some(&i) = index.get(&v) {
                        uses[i].push((bi, k as i64));
                        if !has(&kill[bi], i) {
                            gen[bi][i / 64] |= 1 << (i % 64);
                        }
                    }
                }
                for &r in ctx.results(o) {
                    let i = index[&r];
                    kill[bi][i / 64] |= 1 << (i % 64);
                }
                for s in ctx.successors(o) {
                    if let Some(&si) = bix.get(&s) {
                        succs[bi].push(si);
                    }
                }
            }
        }
        let mut live_in = gen.clone();
        let mut live_out = vec![vec![0u64; words]; blocks.len()];
        let mut changed = true;
        while changed {
            changed = false;
            for bi in (0..blocks.len()).rev() {
                let mut out = vec![0u64; words];
                for &s in &succs[bi] {
                    for (o, x) in out.iter_mut().zip(&live_in[s]) {
                        *o |= x;
                    }
                }
                let inn: Vec<u64> = out.iter().zip(&kill[bi]).zip(&gen[bi]).map(|((o, k), g)| (o & !k) | g).collect();
                if inn != live_in[bi] {
                    live_in[bi] = inn;
                    changed = true;
                }
                live_out[bi] = out;
            }
        }
        Liveness { index, values, defs, uses, live_out }
    }

    /// Whether value `y` is live right after the definition of value `x`.
    fn live_after_def(&self, y: usize, x: usize) -> bool {
        let (dx, dy) = (self.defs[x], self.defs[y]);
        if dy.block == dx.block && dy.at > dx.at {
            return false;
        }
        has(&self.live_out[dx.block], y) || self.uses[y].iter().any(|&(b, k)| b == dx.block && k > dx.at)
    }

    fn interfere(&self, x: usize, y: usize) -> bool {
        self.live_after_def(y, x) || self.live_after_def(x, y)
    }
}

/// Whether `op` selects to one instruction that reads all its operands before writing its
/// result (so it may read and write one register).
fn reads_before_writing(ctx: &Context, op: OpId) -> bool {
    let Some(&r) = ctx.results(op).first() else { return false };
    let wide = match ctx.type_kind(ctx.value_type(r)) {
        cuprite_ir::TypeKind::Integer { width, .. } => matches!(width, 32 | 64),
        cuprite_ir::TypeKind::Float(k) => matches!(k, cuprite_ir::FloatKind::F32 | cuprite_ir::FloatKind::F64),
        cuprite_ir::TypeKind::Pointer { .. } => true,
        _ => false,
    };
    wide && match ctx.op_name_str(op) {
        nv::AddOp::NAME
        | nv::SubOp::NAME
        | nv::MulOp::NAME
        | nv::AndOp::NAME
        | nv::OrOp::NAME
        | nv::XorOp::NAME
        | nv::ShlOp::NAME
        | nv::LshrOp::NAME
        | nv::AshrOp::NAME
        | nv::FaddOp::NAME
        | nv::FsubOp::NAME
        | nv::FmulOp::NAME
        | nv::SelectOp::NAME
        | nv::PtrAddOp::NAME => true,
        nv::IntrOp::NAME => matches!(
            nv::IntrOp(op).name(ctx).unwrap_or_default(),
            "smax" | "smin" | "umax" | "umin" | "max" | "min" | "fma.rn" | "mulhi" | "umulhi"
        ),
        _ => false,
    }
}

/// The classes of values of the function whose blocks are `blocks` (entry first) that
/// share a register, each of two or more values; `absorbed`: ops a fusion selects with
/// their user (they have no register); `roots`: the ops that select together with ops
/// they absorb; `reads`: per root, the values its fusion reads besides its operands (the
/// operands of the ops it reads through: `mul.wide` reads the 32-bit source of a sign
/// extension at the multiply, wherever the extension is), which are live up to it.
pub(super) fn coalesce(
    ctx: &Context,
    blocks: &[BlockId],
    absorbed: &FxHashSet<OpId>,
    roots: &FxHashSet<OpId>,
    reads: &FxHashMap<OpId, Vec<ValueId>>,
) -> Vec<Vec<ValueId>> {
    if blocks.len() < 2 {
        return Vec::new();
    }
    let live = Liveness::new(ctx, blocks, reads);
    let n = live.defs.len();
    let values = &live.values;
    // Union-find with the members of each root.
    let mut parent: Vec<usize> = (0..n).collect();
    let mut members: Vec<Vec<usize>> = (0..n).map(|i| vec![i]).collect();
    fn find(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let eligible = |i: usize| -> bool {
        let d = live.defs[i];
        if d.block == 0 && d.at < 0 {
            return false;
        }
        match d.op {
            Some(o) => !absorbed.contains(&o) && !ctx.is_op(o, nv::ConstantOp::NAME),
            None => true,
        }
    };
    for &b in blocks {
        let Some(t) = ctx.terminator(b) else { continue };
        for s in 0..ctx.num_successors(t) {
            let dest = ctx.successor(t, s);
            for (&p, &a) in ctx.block_args(dest).iter().zip(&ctx.successor_args(t, s)) {
                let (Some(&pi), Some(&ai)) = (live.index.get(&p), live.index.get(&a)) else { continue };
                if !eligible(pi) || !eligible(ai) || ctx.value_type(p) != ctx.value_type(a) {
                    continue;
                }
                let (rp, ra) = (find(&mut parent, pi), find(&mut parent, ai));
                if rp == ra {
                    continue;
                }
                let (mp, ma) = (&members[rp], &members[ra]);
                if mp.iter().any(|&x| ma.iter().any(|&y| live.interfere(x, y))) {
                    continue;
                }
                // Two arguments of one block never share.
                let arg_blocks: FxHashSet<usize> = mp.iter().filter(|&&x| live.defs[x].at < 0).map(|&x| live.defs[x].block).collect();
                if ma.iter().any(|&y| live.defs[y].at < 0 && arg_blocks.contains(&live.defs[y].block)) {
                    continue;
                }
                // An op reading the class it writes must read before writing.
                let merged: FxHashSet<ValueId> = mp.iter().chain(ma).map(|&i| values[i]).collect();
                let unsafe_op = mp.iter().chain(ma).any(|&i| {
                    live.defs[i].op.is_some_and(|o| {
                        !reads_before_writing(ctx, o) && (roots.contains(&o) || ctx.operand_vec(o).iter().any(|v| merged.contains(v)))
                    })
                });
                if unsafe_op {
                    continue;
                }
                let moved = std::mem::take(&mut members[ra]);
                members[rp].extend(moved);
                parent[ra] = rp;
            }
        }
    }
    members.into_iter().filter(|m| m.len() > 1).map(|m| m.into_iter().map(|i| values[i]).collect()).collect()
}
