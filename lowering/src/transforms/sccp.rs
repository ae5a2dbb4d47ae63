//! `sccp`: sparse conditional constant propagation (Wegman and Zadeck) on `nvvm`
//! functions.
//!
//! Every SSA value starts unknown; the entry block is executable. Visiting an op of an
//! executable block computes its results from its operands with [`nvvm::fold::eval`]
//! (overdefined if any operand is, unknown while one is unknown); a `select` on a known
//! condition takes the chosen operand's state. A branch marks the edges it can take
//! executable (both if its condition is overdefined, one if known, none while unknown)
//! and meets the values it passes into the successors' arguments. Changes push the users
//! of the changed value; worklists, no recursion.
//!
//! Then values found constant are replaced by `nvvm.constant` ops and branches on known
//! conditions become unconditional; the blocks never reached are left for `dce` and
//! `canonicalize` to erase.
//!
//! [`nvvm::fold::eval`]: cuprite_dialects::nvvm::fold::eval

use super::cfg::branch_to;
use cuprite_dialects::{arith::int_value, nvvm};
use cuprite_ir::{AttrId, BlockId, Context, InsertPoint, OpId, ValueId};
use rustc_hash::{FxHashMap, FxHashSet};

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Lat {
    Unknown,
    Const(AttrId),
    Over,
}

struct Solver {
    lat: FxHashMap<ValueId, Lat>,
    exec: FxHashSet<BlockId>,
    ops: Vec<OpId>,
    blocks: Vec<BlockId>,
}

impl Solver {
    fn get(&self, v: ValueId) -> Lat {
        self.lat.get(&v).copied().unwrap_or(Lat::Unknown)
    }
    fn set(&mut self, ctx: &Context, v: ValueId, new: Lat) {
        let old = self.get(v);
        let m = match (old, new) {
            (Lat::Unknown, x) => x,
            (x, Lat::Unknown) => x,
            (Lat::Const(a), Lat::Const(b)) if a == b => old,
            _ => Lat::Over,
        };
        if m != old {
            self.lat.insert(v, m);
            for (u, _) in ctx.uses(v) {
                self.ops.push(u);
            }
        }
    }
    fn visit(&mut self, ctx: &mut Context, op: OpId) {
        if !ctx.op_is_live(op) || !ctx.op_block(op).is_some_and(|b| self.exec.contains(&b)) {
            return;
        }
        let n = ctx.num_successors(op);
        if n > 0 {
            let takes: Vec<usize> = if ctx.op_name_str(op) == "nvvm.cond_br" {
                match self.get(ctx.operand(op, 0)) {
                    Lat::Unknown => vec![],
                    Lat::Const(c) if int_value(ctx, c).is_some() => vec![usize::from(int_value(ctx, c) == Some(0))],
                    _ => vec![0, 1],
                }
            } else {
                (0..n).collect()
            };
            for s in takes {
                let dest = ctx.successor(op, s);
                let args = ctx.successor_args(op, s);
                let params = ctx.block_args(dest).to_vec();
                if args.len() == params.len() {
                    for (a, p) in args.into_iter().zip(params) {
                        let l = self.get(a);
                        self.set(ctx, p, l);
                    }
                } else {
                    for p in params {
                        self.set(ctx, p, Lat::Over);
                    }
                }
                if self.exec.insert(dest) {
                    self.blocks.push(dest);
                }
            }
            return;
        }
        if ctx.num_results(op) == 0 {
            return;
        }
        let ins: Vec<Lat> = ctx.operands(op).map(|v| self.get(v)).collect();
        let out = if ctx.op_name_str(op) == "nvvm.select" {
            match ins[0] {
                Lat::Const(c) => match int_value(ctx, c) {
                    Some(0) => ins[2],
                    Some(_) => ins[1],
                    None => Lat::Over,
                },
                Lat::Unknown => Lat::Unknown,
                Lat::Over if ins[1] == ins[2] => ins[1],
                Lat::Over => Lat::Over,
            }
        } else if ctx.num_results(op) != 1 || !ctx.has_trait(op, cuprite_ir::Traits::PURE) || ins.contains(&Lat::Over) {
            Lat::Over
        } else if ins.contains(&Lat::Unknown) {
            Lat::Unknown
        } else {
            let consts: Vec<Option<AttrId>> = ins.iter().map(|l| if let Lat::Const(c) = l { Some(*c) } else { None }).collect();
            nvvm::fold::eval(ctx, op, &consts).map_or(Lat::Over, Lat::Const)
        };
        for i in 0..ctx.num_results(op) {
            let r = ctx.result(op, i);
            self.set(ctx, r, out);
        }
    }
}

/// Runs SCCP on function `func`; returns how many values became constants plus how many
/// branches became unconditional.
pub fn sccp(ctx: &mut Context, func: OpId) -> u64 {
    let Some(&r) = ctx.regions(func).first() else { return 0 };
    let Some(entry) = ctx.entry_block(r) else { return 0 };
    let mut s = Solver { lat: FxHashMap::default(), exec: FxHashSet::default(), ops: Vec::new(), blocks: vec![entry] };
    for &a in ctx.block_args(entry) {
        s.lat.insert(a, Lat::Over);
    }
    s.exec.insert(entry);
    loop {
        if let Some(b) = s.blocks.pop() {
            let ops: Vec<OpId> = ctx.block_ops(b).collect();
            for o in ops {
                s.visit(ctx, o);
            }
        } else if let Some(o) = s.ops.pop() {
            s.visit(ctx, o);
        } else {
            break;
        }
    }
    // Rewrite: first branches whose condition is known take one way, then known values
    // become constants (at the entry for block arguments, before the op for results).
    let mut changed = 0;
    for b in ctx.region_blocks(r).to_vec() {
        if !s.exec.contains(&b) {
            continue;
        }
        if let Some(t) = ctx.last_op(b) {
            if ctx.op_name_str(t) == "nvvm.cond_br" {
                if let Lat::Const(c) = s.get(ctx.operand(t, 0)) {
                    if let Some(v) = int_value(ctx, c) {
                        branch_to(ctx, t, usize::from(v == 0));
                        changed += 1;
                    }
                }
            }
        }
    }
    for b in ctx.region_blocks(r).to_vec() {
        if !s.exec.contains(&b) {
            continue;
        }
        for a in ctx.block_args(b).to_vec() {
            if let (Lat::Const(c), true) = (s.get(a), ctx.has_uses(a)) {
                let loc = ctx.op_loc(func);
                if let Some(k) = constant(ctx, c, a, InsertPoint { block: entry, before: ctx.first_op(entry) }, loc) {
                    ctx.replace_all_uses_with(a, k);
                    changed += 1;
                }
            }
        }
        for o in ctx.block_ops(b).collect::<Vec<_>>() {
            if ctx.op_name_str(o) == "nvvm.constant" || ctx.num_results(o) != 1 {
                continue;
            }
            let v = ctx.result(o, 0);
            if let (Lat::Const(c), true) = (s.get(v), ctx.has_uses(v)) {
                let loc = ctx.op_loc(o);
                if let Some(k) = constant(ctx, c, v, InsertPoint { block: b, before: Some(o) }, loc) {
                    ctx.replace_all_uses_with(v, k);
                    changed += 1;
                }
            }
        }
    }
    changed
}

/// An `nvvm.constant` with value `c` and the type of `like`, inserted at `ip`.
fn constant(ctx: &mut Context, c: AttrId, like: ValueId, ip: InsertPoint, loc: cuprite_ir::LocId) -> Option<ValueId> {
    let ty = ctx.value_type(like);
    let op = nvvm::materialize_constant(ctx, c, ty, loc)?;
    ctx.insert_op(op, ip);
    Some(ctx.result(op, 0))
}
