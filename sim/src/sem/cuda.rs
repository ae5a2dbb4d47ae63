//! Semantics of the `cuda` dialect: C++ semantics of a kernel as the frontend emitted it.
//!
//! - Structured control flow becomes jumps laid out in source order: `cuda.if` as
//!   test, then-region, else-region, join; `cuda.loop` as condition, body, step, exit
//!   (`do_while` enters at the body); `cuda.switch` as a compare chain into the case
//!   regions, laid out in order so that falling through is a jump forward. `yield`,
//!   `break`, `continue`, `condition` and `return` jump to the exits of their
//!   construct; every edge but a loop's back edge goes forward, so the machine's min-PC
//!   scheduling reconverges lanes at the end of each construct.
//! - Variables (`cuda.var`) are memory: per-thread local memory, or shared memory
//!   allocated once per block (also for a `__shared__` variable of a device function,
//!   however often it is inlined). Pointers carry their address space in their type: a
//!   `!cuda.ptr<T, local>` holds a local offset, a generic pointer a generic address;
//!   `ptr_cast` between spaces is `cvta`.
//! - Scalar arithmetic is `arith` ([`super::arith`]: the op names its signedness; the
//!   types are signless); pointer arithmetic scales by the pointee's size (NVPTX data
//!   layout) and sign-extends its offset; `ptr_cmp` compares addresses unsigned.
//! - Built-in functions (`cuda.intrinsic`) are implemented by their C/CUDA names, with
//!   the accuracy CUDA documents (`__expf(x)` is `2^(x log2 e)` approximated, as nvcc
//!   implements it); math functions without an instruction are not supported yet.

use super::nvvm::sreg_of;
use super::{find_kernel, loc_string, symbols_of, Symbols};
use crate::code::*;
use cuprite_dialects::cuda as cu;
use cuprite_dialects::cuda::types::{decode, AddrSpace, Decoded};
use cuprite_dialects::nvvm as nv;
use cuprite_dialects::nvvm::kernel_abi::KernelParam;
use cuprite_ir::{AttrKind, Context, OpId, RegionId, TypeId, TypeKind, ValueId};
use rustc_hash::FxHashMap;

/// Where the ways out of a region go.
#[derive(Clone)]
pub(super) struct Exits {
    /// `cuda.yield`: copy into these registers and jump to the label.
    pub(super) yield_to: Option<(Label, Vec<Reg>)>,
    /// The enclosing loops and switches, innermost last: where `break` goes and (loops)
    /// where `continue` goes.
    pub(super) targets: Vec<(Label, Option<Label>)>,
    /// `cuda.condition`: (body, exit).
    pub(super) cond: Option<(Label, Label)>,
    /// `func.return`/`cuda.return`: results and the label after the call (none: the kernel).
    pub(super) ret: Option<(Label, Vec<Reg>)>,
}

/// The translator of one kernel (and the functions it calls) at the `cuda` level; the
/// standard dialects' ops inside it are translated by their own modules.
pub(super) struct T {
    pub(super) ctx: Context,
    pub(super) syms: Symbols,
    pub(super) b: Builder,
    pub(super) globals: FxHashMap<String, Placement>,
    /// Shared variables by their `cuda.var` op: one allocation per block.
    shared_vars: FxHashMap<OpId, u64>,
    /// The labels of the non-entry blocks of the multi-block regions being translated.
    pub(super) block_labels: FxHashMap<cuprite_ir::BlockId, Label>,
    stack: Vec<String>,
    /// The kernel is an `nvvm.func` with `cuprite.ftz`: nvvm's f32 ops flush subnormals.
    pub(super) ftz: bool,
}

/// Translates kernel `kernel` of the `cuda` module `module`.
pub fn translate(ctx: &Context, module: OpId, kernel: &str) -> Result<Program, String> {
    // Type layout parses component types (which may intern new ones): work on a copy.
    let ctx = ctx.clone();
    // A module part-way through the conversions holds both levels' functions and globals.
    let syms = symbols_of(&ctx, module, &["func.func", "nvvm.func"], &["cuda.global", "nvvm.global"]);
    let (name, f) = find_kernel(&ctx, &syms, kernel, |f| cu::is_kernel(&ctx, f) || nv::is_kernel(&ctx, f))?;
    let ftz = nv::flushes_subnormals(&ctx, f);
    let mut t = T {
        ctx,
        syms,
        b: Builder::new(&name),
        globals: FxHashMap::default(),
        shared_vars: FxHashMap::default(),
        stack: Vec::new(),
        block_labels: FxHashMap::default(),
        ftz,
    };
    t.place_globals()?;
    let entry = t.ctx.entry_block(t.ctx.region(f, 0)).ok_or("kernel without a body")?;
    let args = if t.ctx.is_op(f, "nvvm.func") {
        t.b.prog.max_threads = super::dense_values(&t.ctx, nv::FuncOp(f).maxntid_attr(&t.ctx)).map(|v| v.iter().product::<i64>() as u32);
        t.nvvm_kernel_args(f, entry)?
    } else {
        t.b.prog.max_threads = cu::launch_bounds(&t.ctx, f).and_then(|v| v.first().map(|&m| m as u32));
        t.cuda_kernel_args(entry)?
    };
    t.func(f, &args, None)?;
    t.b.finish()
}

impl T {
    /// The registers of a `func.func` kernel's parameters: scalars from param space, a
    /// struct by value as the address of a local copy of its bytes.
    fn cuda_kernel_args(&mut self, entry: cuprite_ir::BlockId) -> Result<Vec<Reg>, String> {
        let mut args = Vec::new();
        for (i, a) in self.ctx.block_args(entry).to_vec().into_iter().enumerate() {
            let r = self.b.reg();
            let at = self.ctx.value_type(a);
            if cuprite_dialects::cuda::layout::is_aggregate(&self.ctx, at) {
                // A struct by value arrives as its bytes in param space; its value (the address
                // of a local copy, as every aggregate value) starts as a copy of them.
                let (size, align) =
                    cuprite_dialects::cuda::layout::size_align(&mut self.ctx, at).ok_or("a kernel parameter of incomplete type")?;
                let off = self.b.param_in_memory(format!("param{i}"), size, align);
                let base = self.b.reg();
                self.b.emit(Inst::Const { dst: base, bits: off });
                let copy = self.b.alloc_local(size, align);
                self.b.emit(Inst::Const { dst: r, bits: copy });
                self.copy_aggregate(at, (r, Space::Local), (base, Space::Param))?;
            } else {
                let ty = self.scalar(at).map_err(|e| format!("kernel parameter {i}: {e}"))?;
                self.b.prog.params.push(Param { name: format!("param{i}"), size: ty.bytes(), reg: Some(r), offset: 0 });
            }
            args.push(r);
        }
        Ok(args)
    }

    /// The registers of an `nvvm.func` kernel's parameters ([`nv::kernel_abi`]): scalars, and
    /// the scalars of a struct by value loaded from its bytes in param space.
    fn nvvm_kernel_args(&mut self, f: OpId, entry: cuprite_ir::BlockId) -> Result<Vec<Reg>, String> {
        let block_args = self.ctx.block_args(entry).to_vec();
        let mut args = vec![0; block_args.len()];
        let tys: Vec<Ty> = block_args.iter().map(|&a| self.scalar(self.ctx.value_type(a))).collect::<Result<_, _>>()?;
        for (i, p) in nv::kernel_abi::kernel_params(&self.ctx, f, block_args.len()).into_iter().enumerate() {
            match p {
                KernelParam::Scalar(k) => {
                    let r = self.b.reg();
                    self.b.prog.params.push(Param { name: format!("param{i}"), size: tys[k].bytes(), reg: Some(r), offset: 0 });
                    args[k] = r;
                }
                KernelParam::ByVal { size, align, leaves } => {
                    let off = self.b.param_in_memory(format!("param{i}"), size, align);
                    let base = self.b.reg();
                    self.b.emit(Inst::Const { dst: base, bits: off });
                    for (k, o) in leaves {
                        let r = self.b.reg();
                        let ty = tys[k];
                        self.b.emit(Inst::Load { space: Space::Param, ty, dst: r, addr: base, offset: o as i64, align: ty.bytes() });
                        args[k] = r;
                    }
                }
            }
        }
        Ok(args)
    }
}

/// Bytes of a constant initializer of type `t`.
fn init_bytes(ctx: &mut Context, a: cuprite_ir::AttrId, t: TypeId, out: &mut Vec<u8>) -> Result<(), String> {
    let (size, _) = cuprite_dialects::cuda::layout::size_align(ctx, t).ok_or("an initializer of incomplete type")?;
    match ctx.attr_kind(a).clone() {
        AttrKind::Integer { value, .. } => out.extend_from_slice(&(value as u64).to_le_bytes()[..size as usize]),
        AttrKind::Float { bits, .. } => out.extend_from_slice(&bits.to_le_bytes()[..size as usize]),
        AttrKind::Array(xs) => {
            let elem = match decode(ctx, t) {
                Some(Decoded::Array { elem, .. }) => cuprite_dialects::cuda::layout::parse_ty(ctx, &elem).ok_or("bad array type")?,
                _ => return Err("an array initializer for a non-array".into()),
            };
            let start = out.len();
            for x in xs {
                init_bytes(ctx, x, elem, out)?;
            }
            out.resize(start + size as usize, 0);
        }
        _ => return Err("an initializer the simulator cannot read".into()),
    }
    Ok(())
}

impl T {
    fn place_globals(&mut self) -> Result<(), String> {
        for g in self.syms.order.clone() {
            if self.ctx.is_op(g, "nvvm.global") {
                // Lowered already (`convert-cuda-to-nvvm`): its size, alignment and bytes.
                let gl = nv::GlobalOp(g);
                let name = gl.sym_name(&self.ctx).unwrap_or_default().to_string();
                let size = gl.size(&self.ctx).unwrap_or(0) as u64;
                let align = gl.align(&self.ctx).unwrap_or(1) as u64;
                let space = gl.space(&self.ctx).map_or(Space::Global, super::nvvm::space_of_nvvm);
                let init = super::init_bytes(&self.ctx, gl.init_attr(&self.ctx));
                let place = self.b.place_global(&name, space, gl.r#extern(&self.ctx), size, align, init);
                self.globals.insert(name, place);
                continue;
            }
            let gl = cu::GlobalOp(g);
            let name = gl.sym_name(&self.ctx).unwrap_or_default().to_string();
            let Some(ty) = gl.r#type(&self.ctx) else { return Err(format!("global @{name} without a type")) };
            let (size, align) = cuprite_dialects::cuda::layout::size_align(&mut self.ctx, ty)
                .ok_or_else(|| format!("global @{name} has an incomplete type"))?;
            let mut init = Vec::new();
            if let Some(a) = gl.init_attr(&self.ctx) {
                init_bytes(&mut self.ctx, a, ty, &mut init).map_err(|e| format!("global @{name}: {e}"))?;
            }
            let space = match gl.space(&self.ctx) {
                Some(cu::Space::Shared) => Space::Shared,
                Some(cu::Space::Constant) => Space::Const,
                Some(cu::Space::Local) => Space::Local,
                Some(cu::Space::Generic) => Space::Generic,
                Some(cu::Space::Global) | None => Space::Global,
            };
            let place = self.b.place_global(&name, space, false, size, align, init);
            self.globals.insert(name, place);
        }
        Ok(())
    }

    pub(super) fn scalar(&self, t: TypeId) -> Result<Ty, String> {
        super::ty_of(&self.ctx, t).ok_or_else(|| {
            format!("a value of type {} (the simulator runs scalars and pointers)", cuprite_ir::print::type_to_string(&self.ctx, t))
        })
    }

    fn is_float(&self, t: TypeId) -> bool {
        matches!(self.ctx.type_kind(t), TypeKind::Float(_))
    }

    pub(super) fn space(&self, t: TypeId) -> Space {
        if let TypeKind::Pointer { addr_space } = self.ctx.type_kind(t) {
            return super::nvvm::space_num(*addr_space as i64);
        }
        match decode(&self.ctx, t) {
            Some(Decoded::Ptr { space, .. }) => match space {
                AddrSpace::Generic => Space::Generic,
                AddrSpace::Global => Space::Global,
                AddrSpace::Shared => Space::Shared,
                AddrSpace::Constant => Space::Const,
                AddrSpace::Local => Space::Local,
            },
            _ => Space::Generic,
        }
    }

    /// Copies a value of aggregate type `t` from `from` to `to` (address, space), scalar by
    /// scalar.
    pub(super) fn copy_aggregate(&mut self, t: TypeId, to: (Reg, Space), from: (Reg, Space)) -> Result<(), String> {
        let leaves = cuprite_dialects::cuda::layout::leaves(&mut self.ctx, t).ok_or("a struct or array the simulator cannot copy")?;
        for (off, lt) in leaves {
            let ty = self.scalar(lt)?;
            let (_, align) = cuprite_dialects::cuda::layout::size_align(&mut self.ctx, lt).unwrap_or((1, 1));
            let r = self.b.reg();
            self.b.emit(Inst::Load { space: from.1, ty, dst: r, addr: from.0, offset: off as i64, align: align as u32 });
            self.b.emit(Inst::Store { space: to.1, ty, src: r, addr: to.0, offset: off as i64, align: align as u32 });
        }
        Ok(())
    }

    /// Size and alignment of what pointer type `t` points to.
    fn pointee_layout(&mut self, t: TypeId) -> Result<(u64, u64), String> {
        let p = cuprite_dialects::cuda::layout::pointee(&mut self.ctx, t).ok_or("not a pointer")?;
        cuprite_dialects::cuda::layout::size_align(&mut self.ctx, p).ok_or_else(|| "pointer to an incomplete type".to_string())
    }

    pub(super) fn func(&mut self, f: OpId, args: &[Reg], ret: Option<(Label, Vec<Reg>)>) -> Result<(), String> {
        let name = self.ctx.symbol_name(f).unwrap_or_default().to_string();
        if self.stack.contains(&name) {
            return Err(format!(
                "{}: recursive call to {name}: the simulator inlines calls and cannot run recursion",
                loc_string(&self.ctx, self.ctx.op_loc(f))
            ));
        }
        self.stack.push(name);
        let region = self.ctx.region(f, 0);
        let entry = self.ctx.entry_block(region).ok_or("a function without a body")?;
        let mut vals = FxHashMap::default();
        for (&a, &r) in self.ctx.block_args(entry).to_vec().iter().zip(args) {
            vals.insert(a, r);
        }
        let exits = Exits { yield_to: None, targets: Vec::new(), cond: None, ret: ret.clone() };
        self.region(region, &mut vals, &exits)?;
        // Falling off the end of a void function returns.
        match &ret {
            None => self.b.emit(Inst::Exit),
            Some((l, _)) => self.b.jump(*l),
        }
        self.stack.pop();
        Ok(())
    }

    /// Translates region `r` where the code is. A region of several blocks (a CFG after
    /// `convert-scf-to-cf`) is laid out in reverse post-order, each block at its label
    /// (`cf` branches jump between them, [`super::cf`]).
    /// A two-region conditional (`cuda.if`, `scf.if`): the regions' yields give the results.
    pub(super) fn if_then_else(&mut self, op: OpId, cond: Reg, vals: &mut FxHashMap<ValueId, Reg>, ex: &Exits) -> Result<(), String> {
        let results: Vec<ValueId> = self.ctx.results(op).to_vec();
        let rs: Vec<Reg> = results.iter().map(|&r| self.val(vals, r)).collect();
        let (then_l, else_l, merge) = (self.b.label(), self.b.label(), self.b.label());
        self.b.branch(cond, false, then_l, else_l);
        let inner = Exits { yield_to: Some((merge, rs)), ..ex.clone() };
        self.b.place(then_l);
        self.region(self.ctx.region(op, 0), vals, &inner)?;
        self.b.place(else_l);
        self.region(self.ctx.region(op, 1), vals, &inner)?;
        self.b.place(merge);
        Ok(())
    }

    pub(super) fn region(&mut self, r: RegionId, vals: &mut FxHashMap<ValueId, Reg>, ex: &Exits) -> Result<(), String> {
        let blocks = if self.ctx.region_blocks(r).len() > 1 { super::layout(&self.ctx, r) } else { self.ctx.region_blocks(r).to_vec() };
        for (i, &b) in blocks.iter().enumerate() {
            if i > 0 {
                let l = self.b.label();
                self.block_labels.insert(b, l);
            }
        }
        for (i, &b) in blocks.iter().enumerate() {
            if i > 0 {
                let l = self.block_labels[&b];
                self.b.place(l);
            }
            let ops: Vec<OpId> = self.ctx.block_ops(b).collect();
            for op in ops {
                let loc = loc_string(&self.ctx, self.ctx.op_loc(op));
                self.b.set_loc(&loc);
                self.op(op, vals, ex).map_err(|m| if m.contains(": ") && m.starts_with(&loc) { m } else { format!("{loc}: {m}") })?;
            }
        }
        Ok(())
    }

    pub(super) fn val(&mut self, vals: &mut FxHashMap<ValueId, Reg>, v: ValueId) -> Reg {
        if let Some(&r) = vals.get(&v) {
            return r;
        }
        let r = self.b.reg();
        vals.insert(v, r);
        r
    }

    fn cvt(&mut self, from: Ty, from_signed: bool, to: Ty, to_signed: bool, dst: Reg, src: Reg) {
        if from == to && !from.is_float() {
            self.b.emit(Inst::Mov { dst, src });
            return;
        }
        let rnd = if from.is_float() && !to.is_float() { Rnd::Rz } else { Rnd::Rn };
        self.b.emit(Inst::Cvt { cvt: Cvt { from, from_signed, to, to_signed, rnd, ftz: false, sat: false }, dst, src });
    }

    fn op(&mut self, op: OpId, vals: &mut FxHashMap<ValueId, Reg>, ex: &Exits) -> Result<(), String> {
        let name = self.ctx.op_name_str(op).to_string();
        let short = name.strip_prefix("cuda.").unwrap_or(&name).to_string();
        let ops: Vec<ValueId> = self.ctx.operands(op).collect();
        let o: Vec<Reg> = ops.iter().map(|&v| self.val(vals, v)).collect();
        let results: Vec<ValueId> = self.ctx.results(op).to_vec();
        let res = results.first().copied();
        let dst = match res {
            Some(r) => self.val(vals, r),
            None => 0,
        };
        let rt = res.map(|r| self.ctx.value_type(r));
        match short.as_str() {
            _ if name.starts_with("arith.") => super::arith::translate(&self.ctx, &mut self.b, op, &o, dst)?,
            _ if name.starts_with("math.") => super::math::translate(&self.ctx, &mut self.b, op, &o, dst)?,
            _ if name.starts_with("cf.") => {
                if !self.cf_op(op, &o, vals)? {
                    return Err(format!("'{name}' is not simulated"));
                }
            }
            _ if name.starts_with("func.") => {
                if !self.func_op(op, &o, vals, ex)? {
                    return Err(format!("'{name}' is not simulated"));
                }
            }
            _ if name.starts_with("scf.") => {
                if !self.scf_op(op, &o, vals, ex)? {
                    return Err(format!("'{name}' is not simulated"));
                }
            }
            // A materialization cast a pattern pass made ([`T::materialization`]).
            cuprite_ir::rewrite::conversion::CAST_OP => self.materialization(op, &o, vals)?,
            // nvvm's ops, where a conversion put them: the scalar ones as the nvvm level runs
            // them, memory, calls and branches in `mixed.rs`.
            _ if name.starts_with("nvvm.") => match super::nvvm::scalar_op(&self.ctx, &mut self.b, self.ftz, op, &o, dst) {
                Some(r) => r?,
                None => {
                    if !self.nvvm_op(op, &o, dst, vals, ex)? {
                        return Err(format!("'{name}' inside a cuda-level function is not simulated"));
                    }
                }
            },
            "null" => self.b.emit(Inst::Const { dst, bits: 0 }),
            "var" => {
                let t = rt.ok_or("var without a result")?;
                let (size, align) = self.pointee_layout(t)?;
                let var = cu::VarOp(op);
                let align = var.align(&self.ctx).map_or(align, |a| a as u64).max(1);
                match self.space(t) {
                    Space::Shared if var.dynamic(&self.ctx) => {
                        let r = self.b.dyn_shared(false);
                        self.b.emit(Inst::Mov { dst, src: r });
                    }
                    Space::Shared => {
                        let off = match self.shared_vars.get(&op) {
                            Some(&o) => o,
                            None => {
                                let o = self.b.alloc_shared(size, align);
                                self.shared_vars.insert(op, o);
                                o
                            }
                        };
                        self.b.emit(Inst::Const { dst, bits: off });
                    }
                    Space::Local => {
                        let off = self.b.alloc_local(size, align);
                        self.b.emit(Inst::Const { dst, bits: off });
                    }
                    s => return Err(format!("a variable in {} space", s.name())),
                }
            }
            // A struct or array value is the address of a local copy of it: loading one
            // copies it there (so later stores to the source do not change the value),
            // storing one copies it out; calls, returns and yields pass the address.
            "load" if rt.is_some_and(|t| cuprite_dialects::cuda::layout::is_aggregate(&self.ctx, t)) => {
                let t = rt.expect("checked");
                let (size, align) = cuprite_dialects::cuda::layout::size_align(&mut self.ctx, t).ok_or("a load of an incomplete type")?;
                let off = self.b.alloc_local(size, align);
                self.b.emit(Inst::Const { dst, bits: off });
                let from = self.space(self.ctx.value_type(ops[0]));
                self.copy_aggregate(t, (dst, Space::Local), (o[0], from))?;
            }
            "store" if cuprite_dialects::cuda::layout::is_aggregate(&self.ctx, self.ctx.value_type(ops[0])) => {
                let t = self.ctx.value_type(ops[0]);
                let to = self.space(self.ctx.value_type(ops[1]));
                self.copy_aggregate(t, (o[1], to), (o[0], Space::Local))?;
            }
            "load" => {
                let t = self.ctx.value_type(ops[0]);
                let ty = self.scalar(rt.ok_or("load without a result")?)?;
                let space = self.space(t);
                let (_, align) = self.pointee_layout(t)?;
                self.b.emit(Inst::Load { space, ty, dst, addr: o[0], offset: 0, align: align as u32 });
            }
            "store" => {
                let t = self.ctx.value_type(ops[1]);
                let ty = self.scalar(self.ctx.value_type(ops[0]))?;
                let space = self.space(t);
                let (_, align) = self.pointee_layout(t)?;
                self.b.emit(Inst::Store { space, ty, src: o[0], addr: o[1], offset: 0, align: align as u32 });
            }
            "ptr_add" => {
                let (size, _) = self.pointee_layout(self.ctx.value_type(ops[0]))?;
                // The offset is sign-extended (an unsigned one arrives zero-extended).
                let ity = self.scalar(self.ctx.value_type(ops[1]))?;
                let wide = self.b.reg();
                self.cvt(ity, true, Ty::I64, true, wide, o[1]);
                let k = self.b.konst(size);
                let scaled = self.b.reg();
                self.b.emit(Inst::Bin { op: BinOp::Mul, ty: Ty::I64, dst: scaled, a: wide, b: k });
                self.b.emit(Inst::Bin { op: BinOp::Add, ty: Ty::I64, dst, a: o[0], b: scaled });
            }
            "ptr_diff" => {
                let (size, _) = self.pointee_layout(self.ctx.value_type(ops[0]))?;
                let d = self.b.reg();
                self.b.emit(Inst::Bin { op: BinOp::Sub, ty: Ty::I64, dst: d, a: o[0], b: o[1] });
                let k = self.b.konst(size.max(1));
                let q = self.b.reg();
                self.b.emit(Inst::Bin { op: BinOp::SDiv, ty: Ty::I64, dst: q, a: d, b: k });
                let rty = self.scalar(rt.ok_or("ptr_diff without a result")?)?;
                self.cvt(Ty::I64, true, rty, true, dst, q);
            }
            "member_addr" => {
                let pt = self.ctx.value_type(ops[0]);
                let p = cuprite_dialects::cuda::layout::pointee(&mut self.ctx, pt).ok_or("member_addr of a non-pointer")?;
                let index = cu::MemberAddrOp(op).index(&self.ctx).unwrap_or(0) as usize;
                let (off, _) = cuprite_dialects::cuda::layout::field(&mut self.ctx, p, index).ok_or("member_addr of an unknown field")?;
                let k = self.b.konst(off);
                self.b.emit(Inst::Bin { op: BinOp::Add, ty: Ty::I64, dst, a: o[0], b: k });
            }
            "ptr_cmp" => {
                use cuprite_dialects::cuda::CmpKind;
                let cmp = match cuprite_dialects::cuda::PtrCmpOp(op).kind(&self.ctx).ok_or("ptr_cmp without a kind")? {
                    CmpKind::Eq => Cmp::Eq,
                    CmpKind::Ne => Cmp::Ne,
                    CmpKind::Lt => Cmp::ULt,
                    CmpKind::Le => Cmp::ULe,
                    CmpKind::Gt => Cmp::UGt,
                    CmpKind::Ge => Cmp::UGe,
                };
                self.b.emit(Inst::Cmp { cmp, ty: Ty::I64, ftz: false, dst, a: o[0], b: o[1] });
            }
            "cast" => self.cast(op, ops[0], o[0], rt.ok_or("cast without a result")?, dst)?,
            "special" => {
                // The cuda and nvvm dialects name the same registers.
                let reg = cu::SpecialOp(op).reg(&self.ctx).ok_or("unknown special register")?;
                let sreg = sreg_of(cuprite_dialects::nvvm::SpecialReg::from_keyword(reg.keyword()).ok_or("unknown special register")?);
                self.b.emit(Inst::Sreg { dst, sreg });
            }
            "addressof" => {
                let g = cu::AddressOfOp(op).name(&self.ctx).unwrap_or_default().to_string();
                let place = *self.globals.get(&g).ok_or_else(|| format!("unknown global @{g}"))?;
                let to = self.space(rt.ok_or("addressof without a result")?);
                self.b.global_addr(place, to, dst);
            }
            "barrier" => match cu::BarrierOp(op).kind(&self.ctx).ok_or("a barrier without a kind")? {
                cu::BarrierKind::Sync => self.b.emit(Inst::Barrier { red: None, dst: 0, pred: 0 }),
                cu::BarrierKind::Warp => self.b.emit(Inst::WarpSync { mask: o[0] }),
                k => {
                    let red = match k {
                        cu::BarrierKind::And => BarRed::And,
                        cu::BarrierKind::Or => BarRed::Or,
                        _ => BarRed::Popc,
                    };
                    // The predicate is any scalar: nonzero is true.
                    let pt = self.scalar(self.ctx.value_type(ops[0]))?;
                    let p = self.b.reg();
                    let z = self.b.konst(0);
                    self.b.emit(Inst::Cmp { cmp: Cmp::Ne, ty: pt, ftz: false, dst: p, a: o[0], b: z });
                    self.b.emit(Inst::Barrier { red: Some(red), dst, pred: p });
                }
            },
            "fence" => self.b.emit(Inst::Fence),
            "atomic" | "atomic_cas" => {
                let t = self.ctx.value_type(ops[1]);
                let ty = self.scalar(rt.ok_or("atomic without a result")?)?;
                let space = self.space(self.ctx.value_type(ops[0]));
                let f = self.is_float(t);
                if short == "atomic_cas" {
                    self.b.emit(Inst::Atom { op: AtomOp::Cas, space, ty, dst, addr: o[0], offset: 0, a: o[1], b: o[2] });
                } else {
                    let mut v = o[1];
                    use cu::AtomicKind as K;
                    let aop = match cu::AtomicOp(op).kind(&self.ctx).ok_or("an atomic without a kind")? {
                        K::Add if f => AtomOp::FAdd,
                        K::Add => AtomOp::Add,
                        K::Sub => {
                            let n = self.b.reg();
                            self.b.emit(Inst::Un { op: if f { UnOp::FNeg(false) } else { UnOp::Neg }, ty, dst: n, a: v });
                            v = n;
                            if f {
                                AtomOp::FAdd
                            } else {
                                AtomOp::Add
                            }
                        }
                        K::Exch => AtomOp::Exch,
                        K::Min => AtomOp::SMin,
                        K::Umin => AtomOp::UMin,
                        K::Max => AtomOp::SMax,
                        K::Umax => AtomOp::UMax,
                        K::Inc => AtomOp::Inc,
                        K::Dec => AtomOp::Dec,
                        K::And => AtomOp::And,
                        K::Or => AtomOp::Or,
                        K::Xor => AtomOp::Xor,
                    };
                    self.b.emit(Inst::Atom { op: aop, space, ty, dst, addr: o[0], offset: 0, a: v, b: v });
                }
            }
            "shfl" => {
                // __shfl*_sync(mask, v, lane, width): PTX's c operand from the width.
                let mode = match cu::ShflOp(op).mode(&self.ctx).ok_or("a shuffle without a mode")? {
                    cu::ShflMode::Idx => ShflMode::Idx,
                    cu::ShflMode::Up => ShflMode::Up,
                    cu::ShflMode::Down => ShflMode::Down,
                    cu::ShflMode::Bfly => ShflMode::Bfly,
                };
                let k32 = self.b.konst(32);
                let seg = self.b.reg();
                self.b.emit(Inst::Bin { op: BinOp::Sub, ty: Ty::I32, dst: seg, a: k32, b: o[3] });
                let k8 = self.b.konst(8);
                let c = self.b.reg();
                self.b.emit(Inst::Bin { op: BinOp::Shl, ty: Ty::I32, dst: c, a: seg, b: k8 });
                let clamp = if mode == ShflMode::Up {
                    c
                } else {
                    let k31 = self.b.konst(31);
                    let c2 = self.b.reg();
                    self.b.emit(Inst::Bin { op: BinOp::Or, ty: Ty::I32, dst: c2, a: c, b: k31 });
                    c2
                };
                self.b.emit(Inst::Shfl { mode, dst, pred_dst: None, val: o[1], lane: o[2], clamp, mask: o[0] });
            }
            "redux" => {
                let k = cu::ReduxOp(op).kind(&self.ctx).ok_or("a warp reduction without a kind")?;
                let op = super::redux_op(k as i64);
                self.b.emit(Inst::Redux { op, dst, val: o[1], mask: o[0] });
            }
            "match" => {
                let all = cu::MatchOp(op).mode(&self.ctx) == Some(cu::MatchMode::All);
                let ty = super::ty_of(&self.ctx, self.ctx.value_type(ops[1])).ok_or("match.sync of an unsupported type")?;
                self.b.emit(Inst::Match { all, ty, dst, pred: None, val: o[1], mask: o[0] });
            }
            "vote" => {
                let mode = match cu::VoteOp(op).mode(&self.ctx).ok_or("a vote without a mode")? {
                    cu::VoteMode::All => VoteMode::All,
                    cu::VoteMode::Any => VoteMode::Any,
                    cu::VoteMode::Uni => VoteMode::Uni,
                    cu::VoteMode::Ballot => VoteMode::Ballot,
                };
                self.b.emit(Inst::Vote { mode, dst, pred: o[1], neg: false, mask: o[0] });
            }
            "tex" => {
                let geom = cu::TexOp(op).geom(&self.ctx).unwrap_or_default().to_string();
                let float_out = rt.is_some_and(|t| self.is_float(t));
                let int_coords = ops.get(1).is_some_and(|&c| !self.is_float(self.ctx.value_type(c)));
                let rs: Vec<Reg> = results.iter().map(|&r| self.val(vals, r)).collect();
                let i = super::tex_inst(&geom, float_out, geom == "1d" && int_coords, &rs, o[0], &o[1..])?;
                self.b.emit(i);
            }
            "intrinsic" => {
                let n = cu::IntrinsicOp(op).name(&self.ctx).unwrap_or_default().to_string();
                let tys: Vec<TypeId> = ops.iter().map(|&v| self.ctx.value_type(v)).collect();
                self.intrinsic(&n, &o, &tys, rt, dst)?;
            }
            "return" => self.ret(&o, ex),
            "yield" => {
                let (l, rs) = ex.yield_to.clone().ok_or("yield outside a construct")?;
                self.b.copies(&rs, &o);
                self.b.jump(l);
            }
            "break" | "continue" => {
                // `levels`: the enclosing loop/switch it leaves (1: the innermost); without
                // it, `continue` goes to the innermost loop.
                let brk = short == "break";
                let n = ex.targets.len();
                let levels = if brk { cu::BreakOp(op).levels(&self.ctx) } else { cu::ContinueOp(op).levels(&self.ctx) };
                let target = match levels.map(|l| l as i64) {
                    Some(l) if l >= 1 && (l as usize) <= n => {
                        let (b, c) = ex.targets[n - l as usize];
                        if brk {
                            Some(b)
                        } else {
                            c
                        }
                    }
                    Some(_) => None,
                    None if brk => ex.targets.last().map(|t| t.0),
                    None => ex.targets.iter().rev().find_map(|t| t.1),
                };
                match target {
                    Some(l) => self.b.jump(l),
                    None if brk => return Err("break outside a loop or switch".into()),
                    None => return Err("continue outside a loop".into()),
                }
            }
            "condition" => {
                let (body, exit) = ex.cond.ok_or("condition outside a loop")?;
                self.b.branch(o[0], false, body, exit);
            }
            // `ub.unreachable`: a thread that gets there traps.
            "ub.unreachable" => self.b.emit(Inst::Trap),
            "if" => self.if_then_else(op, o[0], vals, ex)?,
            "loop" => {
                let (cond, body, step, exit) = (self.b.label(), self.b.label(), self.b.label(), self.b.label());
                if cu::LoopOp(op).do_while(&self.ctx) {
                    self.b.jump(body);
                }
                self.b.place(cond);
                let c = Exits { cond: Some((body, exit)), yield_to: None, ..ex.clone() };
                self.region(self.ctx.region(op, 0), vals, &c)?;
                self.b.place(body);
                let mut targets = ex.targets.clone();
                targets.push((exit, Some(step)));
                let bx = Exits { yield_to: Some((step, vec![])), targets, cond: None, ret: ex.ret.clone() };
                self.region(self.ctx.region(op, 1), vals, &bx)?;
                self.b.place(step);
                let sx = Exits { yield_to: Some((cond, vec![])), ..bx.clone() };
                self.region(self.ctx.region(op, 2), vals, &sx)?;
                self.b.jump(cond);
                self.b.place(exit);
            }
            "switch" => {
                let vt = self.ctx.value_type(ops[0]);
                let vty = self.scalar(vt)?;
                let cases: Vec<i64> = match cu::SwitchOp(op).cases_attr(&self.ctx).map(|a| self.ctx.attr_kind(a).clone()) {
                    Some(AttrKind::Array(xs)) => xs
                        .iter()
                        .map(|&x| match self.ctx.attr_kind(x) {
                            AttrKind::Integer { value, .. } => *value as i64,
                            _ => 0,
                        })
                        .collect(),
                    _ => Vec::new(),
                };
                let default = cu::SwitchOp(op).default_index(&self.ctx).map(|d| d as usize);
                let n = self.ctx.regions(op).len();
                let labels: Vec<Label> = (0..n).map(|_| self.b.label()).collect();
                let end = self.b.label();
                // The compare chain: case values in order, then the default.
                let mut ci = 0;
                for (i, &l) in labels.iter().enumerate() {
                    if Some(i) == default {
                        continue;
                    }
                    let Some(&v) = cases.get(ci) else { break };
                    ci += 1;
                    let k = self.b.konst(v as u64 & vty.mask());
                    let p = self.b.reg();
                    self.b.emit(Inst::Cmp { cmp: Cmp::Eq, ty: vty, ftz: false, dst: p, a: o[0], b: k });
                    let next = self.b.label();
                    self.b.branch(p, false, l, next);
                    self.b.place(next);
                }
                match default {
                    Some(d) => self.b.jump(labels[d]),
                    None => self.b.jump(end),
                }
                for i in 0..n {
                    self.b.place(labels[i]);
                    let next = labels.get(i + 1).copied().unwrap_or(end);
                    let mut targets = ex.targets.clone();
                    targets.push((end, None));
                    let sx = Exits { yield_to: Some((next, vec![])), targets, ..ex.clone() };
                    self.region(self.ctx.region(op, i), vals, &sx)?;
                }
                self.b.place(end);
            }
            "asm" => return Err("inline asm: the simulator runs it at the ptx level only".into()),
            other => return Err(format!("the simulator has no semantics for cuda.{other}")),
        }
        Ok(())
    }

    /// `cuda.cast`: between pointers (a change of address space converts the address),
    /// pointer to `i64` and back.
    fn cast(&mut self, op: OpId, src_v: ValueId, src: Reg, rt: TypeId, dst: Reg) -> Result<(), String> {
        use cuprite_dialects::cuda::CastKind;
        let st = self.ctx.value_type(src_v);
        let (fty, tty) = (self.scalar(st)?, self.scalar(rt)?);
        match cuprite_dialects::cuda::CastOp(op).kind(&self.ctx).ok_or("a cast without a known kind")? {
            CastKind::PtrCast | CastKind::ArrayDecay => {
                let (from, to) = (self.space(st), self.space(rt));
                self.b.space_cast(from, to, dst, src);
            }
            CastKind::PtrToInt | CastKind::IntToPtr => self.cvt(fty, false, tty, false, dst, src),
        }
        Ok(())
    }

    fn intrinsic(&mut self, n: &str, o: &[Reg], tys: &[TypeId], rt: Option<TypeId>, dst: Reg) -> Result<(), String> {
        let t = match rt {
            Some(t) => self.scalar(t)?,
            None => Ty::I32,
        };
        let at = match tys.first() {
            Some(&a) => self.scalar(a)?,
            None => t,
        };
        let m = FMode::RN;
        if let Some(i) = super::bf16_builtin(n).and_then(|p| super::bf16_inst(p, dst, o)) {
            self.b.emit(i?);
            return Ok(());
        }
        if let Some(r) = cuprite_dialects::nvvm::rounding::Rounded::from_cuda(n) {
            let i = super::rounded_inst(r, at, t, dst, o, false)?;
            self.b.emit(i);
            return Ok(());
        }
        // cuda_fp16.h's functions: fma and abs on halves; the others in f32, rounded to
        // half once (what the PTX does).
        const HALF_VIA_F32: &[(&str, &str)] = &[
            ("__hmin", "fminf"),
            ("__hmax", "fmaxf"),
            ("hsqrt", "sqrtf"),
            ("hrsqrt", "rsqrtf"),
            ("hrcp", "__frcp_rn"),
            ("hexp2", "__exp2f"),
            ("hlog2", "__log2f"),
            ("hsin", "__sinf"),
            ("hcos", "__cosf"),
            ("htrunc", "truncf"),
            ("hfloor", "floorf"),
            ("hceil", "ceilf"),
            ("hrint", "rintf"),
        ];
        if let Some(&(_, f)) = HALF_VIA_F32.iter().find(|(h, _)| *h == n) {
            let f32t = self.ctx.float_type(cuprite_ir::FloatKind::F32);
            let wide: Vec<Reg> = o
                .iter()
                .map(|&r| {
                    let w = self.b.reg();
                    self.cvt(Ty::F16, true, Ty::F32, true, w, r);
                    w
                })
                .collect();
            let r = self.b.reg();
            self.intrinsic(f, &wide, &vec![f32t; wide.len()], Some(f32t), r)?;
            self.cvt(Ty::F32, true, Ty::F16, true, dst, r);
            return Ok(());
        }
        let un = |s: &mut Self, op: UnOp| s.b.emit(Inst::Un { op, ty: t, dst, a: o[0] });
        let bin = |s: &mut Self, op: BinOp| s.b.emit(Inst::Bin { op, ty: t, dst, a: o[0], b: o[1] });
        match n {
            "sqrtf" | "sqrt" => un(self, UnOp::Sqrt(m)),
            "rsqrtf" => un(self, UnOp::Rsqrt(m)),
            "fabsf" | "fabs" | "__habs" => un(self, UnOp::FAbs(false)),
            "fminf" | "fmin" => bin(self, BinOp::FMin(false)),
            "fmaxf" | "fmax" => bin(self, BinOp::FMax(false)),
            "fmaf" | "fma" | "__hfma" => self.b.emit(Inst::Fma { ty: t, mode: m, dst, a: o[0], b: o[1], c: o[2] }),
            "copysignf" | "copysign" => bin(self, BinOp::Copysign),
            "truncf" | "trunc" => un(self, UnOp::RoundInt(Rnd::Rz, false)),
            "floorf" | "floor" => un(self, UnOp::RoundInt(Rnd::Rm, false)),
            "ceilf" | "ceil" => un(self, UnOp::RoundInt(Rnd::Rp, false)),
            "rintf" | "rint" | "nearbyintf" | "nearbyint" => un(self, UnOp::RoundInt(Rnd::Rn, false)),
            "__saturatef" => un(self, UnOp::Saturate(false)),
            "__fdividef" => bin(self, BinOp::FDivFull(m)),
            "__sinf" => un(self, UnOp::Sin(m)),
            "__cosf" => un(self, UnOp::Cos(m)),
            "__exp2f" => un(self, UnOp::Ex2(m)),
            "__log2f" => un(self, UnOp::Lg2(m)),
            "__expf" => {
                // As CUDA implements it: 2^(x * log2 e), approximated.
                let k = self.b.konst((std::f32::consts::LOG2_E).to_bits() as u64);
                let x = self.b.reg();
                self.b.emit(Inst::Bin { op: BinOp::FMul(m), ty: t, dst: x, a: o[0], b: k });
                self.b.emit(Inst::Un { op: UnOp::Ex2(m), ty: t, dst, a: x });
            }
            "__logf" => {
                let l = self.b.reg();
                self.b.emit(Inst::Un { op: UnOp::Lg2(m), ty: t, dst: l, a: o[0] });
                let k = self.b.konst((std::f32::consts::LN_2).to_bits() as u64);
                self.b.emit(Inst::Bin { op: BinOp::FMul(m), ty: t, dst, a: l, b: k });
            }
            "__popc" | "__popcll" | "__clz" | "__clzll" | "__brev" | "__brevll" => {
                let op = match &n[2..5] {
                    "pop" => UnOp::Popc,
                    "clz" => UnOp::Clz,
                    _ => UnOp::Brev,
                };
                self.b.emit(Inst::Un { op, ty: at, dst, a: o[0] });
            }
            "__byte_perm" | "__funnelshift_l" | "__funnelshift_r" | "__funnelshift_lc" | "__funnelshift_rc" | "__dp4a"
            | "__cuprite_udp4a"
                if o.len() == 3 =>
            {
                let (op, c) = if n.ends_with("dp4a") {
                    let s = n == "__dp4a";
                    (TernOp::Dp4a { a_signed: s, b_signed: s }, o[2])
                } else if n == "__byte_perm" {
                    let m = self.b.konst(0x7777);
                    let s = self.b.reg();
                    self.b.emit(Inst::Bin { op: BinOp::And, ty: Ty::I32, dst: s, a: o[2], b: m });
                    (TernOp::Prmt, s)
                } else {
                    (TernOp::Shf { left: n.starts_with("__funnelshift_l"), clamp: n.ends_with('c') }, o[2])
                };
                self.b.emit(Inst::Tern { op, dst, a: o[0], b: o[1], c });
            }
            "__mul24" => bin(self, BinOp::Mul24S),
            "__umul24" => bin(self, BinOp::Mul24U),
            "__mulhi" | "__mul64hi" => bin(self, BinOp::MulHiS),
            "__umulhi" | "__umul64hi" => bin(self, BinOp::MulHiU),
            "__ffs" | "__ffsll" => {
                // Position of the least significant set bit, 1-based; 0 for 0.
                let rev = self.b.reg();
                self.b.emit(Inst::Un { op: UnOp::Brev, ty: at, dst: rev, a: o[0] });
                let c = self.b.reg();
                self.b.emit(Inst::Un { op: UnOp::Clz, ty: at, dst: c, a: rev });
                let one = self.b.konst(1);
                let p = self.b.reg();
                self.b.emit(Inst::Bin { op: BinOp::Add, ty: t, dst: p, a: c, b: one });
                let z = self.b.konst(0);
                let is0 = self.b.reg();
                self.b.emit(Inst::Cmp { cmp: Cmp::Eq, ty: at, ftz: false, dst: is0, a: o[0], b: z });
                self.b.emit(Inst::Select { dst, cond: is0, a: z, b: p });
            }
            "abs" | "labs" | "llabs" => un(self, UnOp::Abs),
            "__int_as_float"
            | "__float_as_int"
            | "__uint_as_float"
            | "__float_as_uint"
            | "__longlong_as_double"
            | "__double_as_longlong"
            | "__half_as_ushort"
            | "__half_as_short"
            | "__ushort_as_half"
            | "__short_as_half" => self.b.emit(Inst::Mov { dst, src: o[0] }),
            "__trap" => self.b.emit(Inst::Trap),
            "__activemask" => self.b.emit(Inst::Activemask { dst }),
            other => return Err(format!("built-in function '{other}' is not supported yet (the math library is not written)")),
        }
        Ok(())
    }
}
