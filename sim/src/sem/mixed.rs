//! A module part-way through the conversions (`cuprite opt` with a prefix or a subset of
//! them): the `cuda`-level translator meets `nvvm` ops that are not scalar arithmetic, and
//! the materialization casts the conversions leave between converted values and the ops
//! still at the old level. Each runs as the nvvm level runs it:
//!
//! - `nvvm.alloca`: a slot of local memory (a generic pointer holds its generic address);
//!   `nvvm.load`/`nvvm.store` in the space of the pointer's type, at the op's alignment;
//!   `nvvm.addressof` of a global; `nvvm.tex`; `nvvm.unreachable` traps;
//!   `nvvm.call`/`nvvm.return` ([`super::func`]) and `nvvm.br`/`nvvm.cond_br`
//!   ([`super::cf`]) as their `func` and `cf` counterparts.
//! - A materialization cast: one value to one of another type (a pointer of either
//!   dialect) is the same bits; scalars joined into a struct or array by value (N:1) make
//!   the aggregate's value, the address of a local copy, by storing each at its offset;
//!   an aggregate split into its scalars (1:N) loads each.

use super::cuda::{Exits, T};
use crate::code::{Inst, Reg, Space, Ty};
use cuprite_dialects::cuda::layout;
use cuprite_dialects::nvvm as nv;
use cuprite_ir::{OpId, ValueId};
use rustc_hash::FxHashMap;

impl T {
    /// Translates nvvm op `op` (operands in `o`, first result in `dst`); `Ok(false)` if it is
    /// not one this level runs.
    pub(super) fn nvvm_op(
        &mut self,
        op: OpId,
        o: &[Reg],
        dst: Reg,
        vals: &mut FxHashMap<ValueId, Reg>,
        ex: &Exits,
    ) -> Result<bool, String> {
        let ops: Vec<ValueId> = self.ctx.operand_vec(op);
        let res = self.ctx.results(op).first().copied();
        match self.ctx.op_name_str(op) {
            "nvvm.alloca" => {
                let a = nv::AllocaOp(op);
                let size = a.size(&self.ctx).unwrap_or(0) as u64;
                let align = a.align(&self.ctx).unwrap_or(1) as u64;
                let off = self.b.alloc_local(size, align);
                let generic = res.map(|r| self.space(self.ctx.value_type(r))) != Some(Space::Local);
                self.b.emit(Inst::Const { dst, bits: off + if generic { crate::memory::LOCAL_BASE } else { 0 } });
            }
            "nvvm.load" => {
                let space = self.space(self.ctx.value_type(ops[0]));
                let align = nv::LoadOp(op).align(&self.ctx).unwrap_or(1) as u32;
                let ty = self.scalar(self.ctx.value_type(res.ok_or("a load without a result")?))?;
                self.b.emit(Inst::Load { space, ty, dst, addr: o[0], offset: 0, align });
            }
            "nvvm.store" => {
                let space = self.space(self.ctx.value_type(ops[1]));
                let align = nv::StoreOp(op).align(&self.ctx).unwrap_or(1) as u32;
                let ty = self.scalar(self.ctx.value_type(ops[0]))?;
                self.b.emit(Inst::Store { space, ty, src: o[0], addr: o[1], offset: 0, align });
            }
            "nvvm.addressof" => {
                let g = nv::AddressOfOp(op).name(&self.ctx).unwrap_or_default().to_string();
                let place = *self.globals.get(&g).ok_or_else(|| format!("unknown global @{g}"))?;
                let to = res.map_or(Space::Generic, |r| self.space(self.ctx.value_type(r)));
                self.b.global_addr(place, to, dst);
            }
            "nvvm.tex" => {
                let tex = nv::TexOp(op);
                let geom = tex.geom(&self.ctx).unwrap_or_default().to_string();
                let float_out = tex.kind(&self.ctx) == Some("f32");
                let int_coords =
                    ops.get(1).is_some_and(|&c| !matches!(self.ctx.type_kind(self.ctx.value_type(c)), cuprite_ir::TypeKind::Float(_)));
                let rs: Vec<Reg> = self.ctx.results(op).to_vec().into_iter().map(|r| self.val(vals, r)).collect();
                let i = super::tex_inst(&geom, float_out, geom == "1d" && int_coords, &rs, o[0], &o[1..])?;
                self.b.emit(i);
            }
            "nvvm.unreachable" => self.b.emit(Inst::Trap),
            "nvvm.inline_asm" => return Err("inline asm: the simulator runs it at the ptx level only".into()),
            "nvvm.call" | "nvvm.return" => return self.func_op(op, o, vals, ex),
            "nvvm.br" | "nvvm.cond_br" => return self.cf_op(op, o, vals),
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// A materialization cast ([`cuprite_ir::rewrite::conversion::CAST_OP`]): the same bits
    /// (1:1), a struct or array value made of its scalars (N:1), or its scalars (1:N).
    pub(super) fn materialization(&mut self, op: OpId, o: &[Reg], vals: &mut FxHashMap<ValueId, Reg>) -> Result<(), String> {
        let ops: Vec<ValueId> = self.ctx.operand_vec(op);
        let results: Vec<ValueId> = self.ctx.results(op).to_vec();
        let rs: Vec<Reg> = results.iter().map(|&r| self.val(vals, r)).collect();
        let aggregate = |t: &Self, v: ValueId| layout::is_aggregate(&t.ctx, t.ctx.value_type(v));
        match (ops.as_slice(), results.as_slice()) {
            ([a], [r]) if aggregate(self, *r) == aggregate(self, *a) => self.b.emit(Inst::Mov { dst: rs[0], src: o[0] }),
            (_, [r]) if aggregate(self, *r) => {
                let t = self.ctx.value_type(*r);
                let (size, align) = layout::size_align(&mut self.ctx, t).ok_or("a struct of incomplete type")?;
                let leaves = layout::leaves(&mut self.ctx, t).ok_or("a struct or array the simulator cannot copy")?;
                if leaves.len() != o.len() {
                    return Err(format!("a cast of {} values to a struct of {} scalars", o.len(), leaves.len()));
                }
                let off = self.b.alloc_local(size, align);
                self.b.emit(Inst::Const { dst: rs[0], bits: off });
                for ((offset, lt), &src) in leaves.into_iter().zip(o) {
                    let ty = self.scalar(lt)?;
                    self.b.emit(Inst::Store { space: Space::Local, ty, src, addr: rs[0], offset: offset as i64, align: ty.bytes() });
                }
            }
            ([a], _) if aggregate(self, *a) => {
                let t = self.ctx.value_type(*a);
                let leaves = layout::leaves(&mut self.ctx, t).ok_or("a struct or array the simulator cannot copy")?;
                if leaves.len() != rs.len() {
                    return Err(format!("a cast of a struct of {} scalars to {} values", leaves.len(), rs.len()));
                }
                for ((offset, lt), &dst) in leaves.into_iter().zip(&rs) {
                    let ty: Ty = self.scalar(lt)?;
                    self.b.emit(Inst::Load { space: Space::Local, ty, dst, addr: o[0], offset: offset as i64, align: ty.bytes() });
                }
            }
            _ => return Err(format!("a materialization cast of {} values to {}", o.len(), rs.len())),
        }
        Ok(())
    }
}
