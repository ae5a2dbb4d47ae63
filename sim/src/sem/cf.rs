//! The standard `cf` dialect's semantics inside a `cuda` function (after
//! `convert-scf-to-cf`, its regions are CFGs): `cf.br` copies its operands into the
//! destination's block arguments (all at once: the copies of an edge are parallel) and
//! jumps; `cf.cond_br` does that on the edge its condition picks. `nvvm.br` and
//! `nvvm.cond_br` (a module part-way through `convert-func-to-nvvm`) run the same way.

use super::cuda::T;
use crate::code::Reg;
use cuprite_ir::{OpId, ValueId};
use rustc_hash::FxHashMap;

impl T {
    /// Translates `cf` op `op` (operands in `o`); `Ok(false)` if it is not one this level
    /// runs.
    pub(super) fn cf_op(&mut self, op: OpId, o: &[Reg], vals: &mut FxHashMap<ValueId, Reg>) -> Result<bool, String> {
        match self.ctx.op_name_str(op) {
            "cf.br" | "nvvm.br" => self.edge(op, 0, vals)?,
            "cf.cond_br" | "nvvm.cond_br" => {
                let (t, f) = (self.b.label(), self.b.label());
                self.b.branch(o[0], false, t, f);
                self.b.place(t);
                self.edge(op, 0, vals)?;
                self.b.place(f);
                self.edge(op, 1, vals)?;
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Copies `term`'s operands for successor `i` into its block arguments and jumps there.
    fn edge(&mut self, term: OpId, i: usize, vals: &mut FxHashMap<ValueId, Reg>) -> Result<(), String> {
        let succ = self.ctx.successor(term, i);
        let args = self.ctx.successor_args(term, i);
        let srcs: Vec<Reg> = args.iter().map(|&a| self.val(vals, a)).collect();
        let dsts: Vec<Reg> = self.ctx.block_args(succ).to_vec().into_iter().map(|a| self.val(vals, a)).collect();
        self.b.copies(&dsts, &srcs);
        let l = *self.block_labels.get(&succ).ok_or("a branch to a block outside its region")?;
        self.b.jump(l);
        Ok(())
    }
}
