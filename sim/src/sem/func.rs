//! The standard `func` dialect's semantics inside a `cuda`-level kernel: `func.call` of a
//! function with a body is inlined into the kernel's code (arguments copied into fresh
//! registers, the results written by the callee's returns, which jump back to the label
//! after the call); a call of a declaration (`vprintf`, `__assertfail`) is a runtime call;
//! `func.return` (and `cuda.return` from inside a construct) copies its operands into the
//! caller's result registers and jumps back, or ends the thread in the kernel itself.
//! `nvvm.call` and `nvvm.return` (a module part-way through `convert-func-to-nvvm`) run
//! the same way.

use super::cuda::{Exits, T};
use crate::code::{Inst, Reg};
use cuprite_ir::{OpId, ValueId};
use rustc_hash::FxHashMap;

impl T {
    /// Translates `func` op `op` (operands in `o`); `Ok(false)` if it is not one this level
    /// runs.
    pub(super) fn func_op(&mut self, op: OpId, o: &[Reg], vals: &mut FxHashMap<ValueId, Reg>, ex: &Exits) -> Result<bool, String> {
        match self.ctx.op_name_str(op) {
            "func.call" | "nvvm.call" => {
                let callee = match self.ctx.op_name_str(op) {
                    "func.call" => cuprite_dialects::func::CallOp(op).callee(&self.ctx),
                    _ => cuprite_dialects::nvvm::CallOp(op).callee(&self.ctx),
                }
                .unwrap_or_default()
                .to_string();
                let f = *self.syms.funcs.get(&callee).ok_or_else(|| format!("call to unknown function @{callee}"))?;
                let results: Vec<ValueId> = self.ctx.results(op).to_vec();
                let rs: Vec<Reg> = results.iter().map(|&r| self.val(vals, r)).collect();
                if !super::has_body(&self.ctx, f) {
                    super::runtime_call(&mut self.b, &callee, o, rs.first().copied())?;
                    return Ok(true);
                }
                let args = self.b.fresh_copies(o);
                let after = self.b.label();
                self.func(f, &args, Some((after, rs)))?;
                self.b.place(after);
            }
            "func.return" | "nvvm.return" => self.ret(o, ex),
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// A return: to the caller's label with the results copied, or the thread's exit.
    pub(super) fn ret(&mut self, o: &[Reg], ex: &Exits) {
        match &ex.ret {
            None => self.b.emit(Inst::Exit),
            Some((l, rs)) => {
                let (l, rs) = (*l, rs.clone());
                self.b.copies(&rs, o);
                self.b.jump(l);
            }
        }
    }
}
