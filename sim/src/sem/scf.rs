//! The standard `scf` dialect's semantics inside a `cuda` function (the frontend emits
//! `scf.if` and `scf.while` for C's structured `if` and loops): `scf.if` runs one of its two
//! regions and takes the results its `scf.yield` gives; `scf.while` runs `before` until its
//! `scf.condition` is false, running `after` in between. Loop-carried values are not
//! supported (the frontend has none: variables live in memory); they are an error.
//!
//! Laid out as the `cuda` level lays out its own constructs (a join after every path that
//! reaches it, the back edge last), which the machine's reconvergence relies on.

use super::cuda::{Exits, T};
use crate::code::Reg;
use cuprite_ir::{OpId, ValueId};
use rustc_hash::FxHashMap;

impl T {
    /// Translates `scf` op `op` (operands in `o`); `Ok(false)` if it is not one this
    /// level runs.
    pub(super) fn scf_op(&mut self, op: OpId, o: &[Reg], vals: &mut FxHashMap<ValueId, Reg>, ex: &Exits) -> Result<bool, String> {
        match self.ctx.op_name_str(op) {
            // Its semantics are cuda.if's (without early exits).
            "scf.if" => self.if_then_else(op, o[0], vals, ex)?,
            "scf.while" => {
                if !o.is_empty() || !self.ctx.results(op).is_empty() {
                    return Err("scf.while with loop-carried values is not simulated".into());
                }
                let (before, after, exit) = (self.b.label(), self.b.label(), self.b.label());
                self.b.place(before);
                let bx = Exits { cond: Some((after, exit)), yield_to: None, ..ex.clone() };
                self.region(self.ctx.region(op, 0), vals, &bx)?;
                self.b.place(after);
                let ax = Exits { yield_to: Some((before, vec![])), cond: None, ..ex.clone() };
                self.region(self.ctx.region(op, 1), vals, &ax)?;
                self.b.jump(before);
                self.b.place(exit);
            }
            "scf.yield" => {
                let (l, rs) = ex.yield_to.clone().ok_or("scf.yield outside an scf op")?;
                self.b.copies(&rs, o);
                self.b.jump(l);
            }
            "scf.condition" => {
                if o.len() != 1 {
                    return Err("scf.condition forwarding values is not simulated".into());
                }
                let (body, exit) = ex.cond.ok_or("scf.condition outside scf.while")?;
                self.b.branch(o[0], false, body, exit);
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}
