//! Dominance within regions: a dominator tree per multi-block region (Cooper, Harvey and
//! Kennedy's iterative algorithm over reverse post-order), plus the op-level queries built
//! on it. As in MLIR, an unreachable block is dominated by every block.

use crate::context::{BlockId, Context, OpId, RegionId};
use rustc_hash::FxHashMap;

/// Dominator trees of the regions queried so far.
#[derive(Default)]
pub struct DominanceInfo {
    trees: FxHashMap<RegionId, RegionDom>,
    /// Position of each op in its block (dense by op index), for same-block queries.
    order: Vec<u32>,
}

struct RegionDom {
    /// Reachable blocks in reverse post-order.
    order: Vec<BlockId>,
    /// Block -> RPO number (`u32::MAX`: unreachable).
    rpo_num: FxHashMap<BlockId, u32>,
    /// Immediate dominator by RPO number.
    idom: Vec<u32>,
}

impl DominanceInfo {
    /// Dominance for the IR as it is now (positions of every op are numbered).
    pub fn new(ctx: &Context, root: OpId) -> Self {
        let mut order = vec![0u32; ctx.op_capacity()];
        for op in crate::walk::collect_preorder(ctx, root) {
            for &r in ctx.regions(op) {
                for &b in ctx.region_blocks(r) {
                    for (i, o) in ctx.block_ops(b).enumerate() {
                        order[o.index()] = i as u32;
                    }
                }
            }
        }
        Self { trees: FxHashMap::default(), order }
    }

    /// Whether `a` comes before `b` (same block).
    pub fn is_before_in_block(&self, a: OpId, b: OpId) -> bool {
        self.order[a.index()] < self.order[b.index()]
    }

    fn tree(&mut self, ctx: &Context, r: RegionId) -> &RegionDom {
        self.trees.entry(r).or_insert_with(|| build(ctx, r))
    }

    /// Whether block `a` dominates block `b` (both in region `r`).
    pub fn block_dominates(&mut self, ctx: &Context, a: BlockId, b: BlockId) -> bool {
        if a == b {
            return true;
        }
        let Some(r) = ctx.block_region(a) else { return false };
        if ctx.region_blocks(r).len() < 2 {
            return true;
        }
        let t = self.tree(ctx, r);
        let (Some(&na), Some(&nb)) = (t.rpo_num.get(&a), t.rpo_num.get(&b)) else { return false };
        if nb == u32::MAX {
            return true;
        }
        if na == u32::MAX {
            return false;
        }
        let mut x = nb;
        loop {
            if x == na {
                return true;
            }
            if x == 0 {
                return false;
            }
            let next = t.idom[x as usize];
            if next == x {
                return false;
            }
            x = next;
        }
    }

    /// Immediate dominator of `b`, if any.
    pub fn idom(&mut self, ctx: &Context, b: BlockId) -> Option<BlockId> {
        let r = ctx.block_region(b)?;
        let t = self.tree(ctx, r);
        let n = *t.rpo_num.get(&b)?;
        if n == 0 || n == u32::MAX {
            return None;
        }
        Some(t.order[t.idom[n as usize] as usize])
    }
}

/// Blocks of `r` reachable from the entry, in reverse post-order (iterative DFS).
pub fn rpo(ctx: &Context, r: RegionId) -> Vec<BlockId> {
    let Some(entry) = ctx.entry_block(r) else { return Vec::new() };
    let mut post = Vec::new();
    let mut visited: FxHashMap<BlockId, ()> = FxHashMap::default();
    let mut stack: Vec<(BlockId, usize)> = vec![(entry, 0)];
    visited.insert(entry, ());
    while let Some(&mut (b, ref mut i)) = stack.last_mut() {
        let succs: Vec<BlockId> = ctx.last_op(b).map(|t| ctx.successors(t).collect()).unwrap_or_default();
        if *i < succs.len() {
            let s = succs[*i];
            *i += 1;
            if visited.insert(s, ()).is_none() && ctx.block_region(s) == Some(r) {
                stack.push((s, 0));
            }
        } else {
            post.push(b);
            stack.pop();
        }
    }
    post.reverse();
    post
}

fn build(ctx: &Context, r: RegionId) -> RegionDom {
    let order = rpo(ctx, r);
    let mut rpo_num: FxHashMap<BlockId, u32> = ctx.region_blocks(r).iter().map(|&b| (b, u32::MAX)).collect();
    for (i, &b) in order.iter().enumerate() {
        rpo_num.insert(b, i as u32);
    }
    let preds: Vec<Vec<u32>> = order
        .iter()
        .map(|&b| {
            ctx.predecessors(b)
                .filter_map(|(t, _)| ctx.op_block(t))
                .filter_map(|pb| rpo_num.get(&pb).copied())
                .filter(|&n| n != u32::MAX)
                .collect()
        })
        .collect();
    const UNDEF: u32 = u32::MAX;
    let mut idom = vec![UNDEF; order.len()];
    if !order.is_empty() {
        idom[0] = 0;
    }
    let mut changed = true;
    while changed {
        changed = false;
        for b in 1..order.len() {
            let mut new = UNDEF;
            for &p in &preds[b] {
                if idom[p as usize] == UNDEF {
                    continue;
                }
                new = if new == UNDEF { p } else { intersect(&idom, p, new) };
            }
            if new != UNDEF && idom[b] != new {
                idom[b] = new;
                changed = true;
            }
        }
    }
    RegionDom { order, rpo_num, idom }
}

fn intersect(idom: &[u32], mut a: u32, mut b: u32) -> u32 {
    while a != b {
        while a > b {
            a = idom[a as usize];
        }
        while b > a {
            b = idom[b as usize];
        }
    }
    a
}

/// The dominator tree of region `r` as block -> children (reachable blocks only).
pub fn dom_children(ctx: &Context, r: RegionId) -> FxHashMap<BlockId, Vec<BlockId>> {
    let t = build(ctx, r);
    let order = &t.order;
    let mut out: FxHashMap<BlockId, Vec<BlockId>> = FxHashMap::default();
    for (i, &b) in order.iter().enumerate().skip(1) {
        let d = t.idom[i];
        if d != u32::MAX {
            out.entry(order[d as usize]).or_default().push(b);
        }
    }
    out
}
