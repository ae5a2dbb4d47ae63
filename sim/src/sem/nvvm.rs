//! Semantics of the `nvvm` dialect: a kernel's CFG (and those of the functions it calls,
//! inlined per call site) to machine code.
//!
//! Blocks are laid out in their order in the function (see `layout` in the parent module); a branch's block arguments become copies
//! on its edge (through temporaries when a destination is also a source: the copies of
//! an edge are parallel). Integer operations are signless (the opcode gives signedness);
//! pointers are 64-bit addresses in their address space (`!llvm.ptr<3>` holds a shared
//! offset, `!llvm.ptr` a generic address), so `addrspacecast` is `cvta`.

use super::{find_kernel, init_bytes, loc_string, symbols, ty_of, Symbols};
use crate::code::*;
use cuprite_dialects::nvvm as nv;
use cuprite_dialects::nvvm::kernel_abi::KernelParam;
use cuprite_ir::{AttrKind, BlockId, Context, OpId, TypeKind, ValueId};
use rustc_hash::FxHashMap;

struct T<'a> {
    ctx: &'a Context,
    syms: Symbols,
    b: Builder,
    globals: FxHashMap<String, Placement>,
    /// Functions being translated (inlined), innermost last: a recursion check.
    stack: Vec<String>,
    /// The kernel carries `cuprite.ftz` (`-ftz=true`, set on every function of the
    /// module): f32 operations flush subnormal inputs and results.
    ftz: bool,
}

/// Translates kernel `kernel` of the `nvvm` module `module`.
pub fn translate(ctx: &Context, module: OpId, kernel: &str) -> Result<Program, String> {
    let syms = symbols(ctx, module, "nvvm.func", "nvvm.global");
    let (name, f) = find_kernel(ctx, &syms, kernel, |f| nv::is_kernel(ctx, f))?;
    let ftz = nv::flushes_subnormals(ctx, f);
    let mut t = T { ctx, syms, b: Builder::new(&name), globals: FxHashMap::default(), stack: Vec::new(), ftz };
    t.place_globals();
    t.b.prog.max_threads = super::dense_values(ctx, nv::FuncOp(f).maxntid_attr(ctx)).map(|v| v.iter().product::<i64>() as u32);
    let entry = ctx.entry_block(ctx.region(f, 0)).ok_or("kernel without a body")?;
    let block_args = ctx.block_args(entry).to_vec();
    let mut args = vec![0; block_args.len()];
    let ty = |k: usize| {
        ty_of(ctx, ctx.value_type(block_args[k])).ok_or_else(|| format!("kernel argument {k} has a type the simulator does not know"))
    };
    for (i, p) in cuprite_dialects::nvvm::kernel_abi::kernel_params(ctx, f, block_args.len()).into_iter().enumerate() {
        match p {
            KernelParam::Scalar(k) => {
                let r = t.b.reg();
                t.b.prog.params.push(Param { name: format!("param{i}"), size: ty(k)?.bytes(), reg: Some(r), offset: 0 });
                args[k] = r;
            }
            // A struct by value: its bytes in param space, each scalar loaded from them.
            KernelParam::ByVal { size, align, leaves } => {
                let off = t.b.param_in_memory(format!("param{i}"), size, align);
                let base = t.b.reg();
                t.b.emit(Inst::Const { dst: base, bits: off });
                for (k, o) in leaves {
                    let r = t.b.reg();
                    let ty = ty(k)?;
                    t.b.emit(Inst::Load { space: Space::Param, ty, dst: r, addr: base, offset: o as i64, align: ty.bytes() });
                    args[k] = r;
                }
            }
        }
    }
    t.func(f, &args, &[], None)?;
    t.b.finish()
}

impl T<'_> {
    fn place_globals(&mut self) {
        let ctx = self.ctx;
        for &g in &self.syms.order {
            let gl = nv::GlobalOp(g);
            let name = gl.sym_name(ctx).unwrap_or_default().to_string();
            let size = gl.size(ctx).unwrap_or(0) as u64;
            let align = gl.align(ctx).unwrap_or(1) as u64;
            let space = gl.space(ctx).map_or(Space::Global, space_of_nvvm);
            let place = self.b.place_global(&name, space, gl.r#extern(ctx), size, align, init_bytes(ctx, gl.init_attr(ctx)));
            self.globals.insert(name, place);
        }
    }

    /// Emits function `f` with its parameters in `args`; its results go to `results` and
    /// control to `ret` (none: the kernel, whose return exits the thread).
    fn func(&mut self, f: OpId, args: &[Reg], results: &[Reg], ret: Option<Label>) -> Result<(), String> {
        let ctx = self.ctx;
        let name = ctx.symbol_name(f).unwrap_or_default().to_string();
        if self.stack.contains(&name) {
            return Err(format!(
                "{}: recursive call to {name}: the simulator inlines calls and cannot run recursion",
                loc_string(ctx, ctx.op_loc(f))
            ));
        }
        self.stack.push(name);
        let region = ctx.region(f, 0);
        let order = super::layout(ctx, region);
        let mut vals: FxHashMap<ValueId, Reg> = FxHashMap::default();
        let mut labels: FxHashMap<BlockId, Label> = FxHashMap::default();
        for &bb in &order {
            let l = self.b.label();
            labels.insert(bb, l);
        }
        if let Some(&entry) = order.first() {
            for (&a, &r) in ctx.block_args(entry).iter().zip(args) {
                vals.insert(a, r);
            }
        }
        for &bb in &order {
            self.b.place(labels[&bb]);
            for op in ctx.block_ops(bb) {
                self.b.set_loc(&loc_string(ctx, ctx.op_loc(op)));
                self.op(op, &mut vals, &labels, results, ret)?;
            }
        }
        self.stack.pop();
        Ok(())
    }

    fn val(&mut self, vals: &mut FxHashMap<ValueId, Reg>, v: ValueId) -> Reg {
        if let Some(&r) = vals.get(&v) {
            return r;
        }
        let r = self.b.reg();
        vals.insert(v, r);
        r
    }

    /// Copies `term`'s arguments for successor `i` and jumps there.
    fn edge(&mut self, term: OpId, i: usize, vals: &mut FxHashMap<ValueId, Reg>, labels: &FxHashMap<BlockId, Label>) -> Result<(), String> {
        let ctx = self.ctx;
        let succ = ctx.successor(term, i);
        let args = ctx.successor_args(term, i);
        let srcs: Vec<Reg> = args.iter().map(|&a| self.val(vals, a)).collect();
        let dsts: Vec<Reg> = ctx.block_args(succ).to_vec().into_iter().map(|a| self.val(vals, a)).collect();
        self.b.copies(&dsts, &srcs);
        let l = *labels.get(&succ).ok_or("branch to a block outside the function")?;
        self.b.jump(l);
        Ok(())
    }

    fn ty(&self, v: ValueId) -> Result<Ty, String> {
        let t = self.ctx.value_type(v);
        ty_of(self.ctx, t)
            .ok_or_else(|| format!("a value of type {} the simulator does not know", cuprite_ir::print::type_to_string(self.ctx, t)))
    }

    fn space_of(&self, v: ValueId) -> Space {
        match self.ctx.type_kind(self.ctx.value_type(v)) {
            TypeKind::Pointer { addr_space } => space_num(*addr_space as i64),
            _ => Space::Generic,
        }
    }

    fn op(
        &mut self,
        op: OpId,
        vals: &mut FxHashMap<ValueId, Reg>,
        labels: &FxHashMap<BlockId, Label>,
        results: &[Reg],
        ret: Option<Label>,
    ) -> Result<(), String> {
        let ctx = self.ctx;
        let name = ctx.op_name_str(op);
        let short = name.strip_prefix("nvvm.").unwrap_or(name);
        let ops: Vec<ValueId> = ctx.operands(op).collect();
        let o: Vec<Reg> = ops.iter().map(|&v| self.val(vals, v)).collect();
        let res = ctx.results(op).first().copied();
        let dst = match res {
            Some(r) => self.val(vals, r),
            None => 0,
        };
        let rty = match res {
            Some(r) => Some(self.ty(r)?),
            None => None,
        };
        let err = |m: String| format!("{}: {m}", loc_string(ctx, ctx.op_loc(op)));
        if name.starts_with("arith.") {
            return super::arith::translate(ctx, &mut self.b, op, &o, dst).map_err(err);
        }
        if name.starts_with("math.") {
            return super::math::translate(ctx, &mut self.b, op, &o, dst).map_err(err);
        }
        if let Some(r) = scalar_op(ctx, &mut self.b, self.ftz, op, &o, dst) {
            return r.map_err(err);
        }
        match short {
            "alloca" => {
                let alloca = nv::AllocaOp(op);
                let size = alloca.size(ctx).unwrap_or(0) as u64;
                let align = alloca.align(ctx).unwrap_or(1) as u64;
                let off = self.b.alloc_local(size, align);
                let generic = res.map(|r| self.space_of(r)) != Some(Space::Local);
                self.b.emit(Inst::Const { dst, bits: off + if generic { crate::memory::LOCAL_BASE } else { 0 } });
            }
            "load" => {
                let space = self.space_of(ops[0]);
                let align = nv::LoadOp(op).align(ctx).unwrap_or(1) as u32;
                self.b.emit(Inst::Load { space, ty: rty.unwrap_or(Ty::I32), dst, addr: o[0], offset: 0, align });
            }
            "store" => {
                let space = self.space_of(ops[1]);
                let align = nv::StoreOp(op).align(ctx).unwrap_or(1) as u32;
                let ty = self.ty(ops[0])?;
                self.b.emit(Inst::Store { space, ty, src: o[0], addr: o[1], offset: 0, align });
            }
            "tex" => {
                let tex = nv::TexOp(op);
                let geom = tex.geom(ctx).unwrap_or_default().to_string();
                let float_out = tex.kind(ctx) == Some("f32");
                let int_coords = ops.get(1).is_some_and(|&c| !matches!(ctx.type_kind(ctx.value_type(c)), TypeKind::Float(_)));
                let rs: Vec<Reg> = ctx.results(op).to_vec().into_iter().map(|r| self.val(vals, r)).collect();
                let i = super::tex_inst(&geom, float_out, geom == "1d" && int_coords, &rs, o[0], &o[1..])?;
                self.b.emit(i);
            }
            "addressof" => {
                let g = nv::AddressOfOp(op).name(ctx).unwrap_or_default().to_string();
                let place = *self.globals.get(&g).ok_or_else(|| err(format!("unknown global @{g}")))?;
                let to = res.map_or(Space::Generic, |r| self.space_of(r));
                self.b.global_addr(place, to, dst);
            }
            "call" => {
                let callee = nv::CallOp(op).callee(ctx).unwrap_or_default().to_string();
                let f = *self.syms.funcs.get(&callee).ok_or_else(|| err(format!("call to unknown function @{callee}")))?;
                let rs: Vec<Reg> = ctx.results(op).to_vec().into_iter().map(|r| self.val(vals, r)).collect();
                if !super::has_body(ctx, f) {
                    return super::runtime_call(&mut self.b, &callee, &o, rs.first().copied()).map_err(err);
                }
                let args = self.b.fresh_copies(&o);
                let after = self.b.label();
                self.func(f, &args, &rs, Some(after))?;
                self.b.place(after);
            }
            "return" => match ret {
                None => self.b.emit(Inst::Exit),
                Some(l) => {
                    self.b.copies(results, &o);
                    self.b.jump(l);
                }
            },
            "br" => self.edge(op, 0, vals, labels)?,
            "cond_br" => {
                let (t, f) = (self.b.label(), self.b.label());
                self.b.branch(o[0], false, t, f);
                self.b.place(t);
                self.edge(op, 0, vals, labels)?;
                self.b.place(f);
                self.edge(op, 1, vals, labels)?;
            }
            "unreachable" => self.b.emit(Inst::Trap),
            "inline_asm" => return Err(err("inline asm: the simulator runs it at the ptx level only".into())),
            other => return Err(err(format!("the simulator has no semantics for nvvm.{other}"))),
        }
        Ok(())
    }
}

/// The memory of an nvvm address space.
pub(crate) fn space_of_nvvm(s: nv::Space) -> Space {
    match s {
        nv::Space::Global => Space::Global,
        nv::Space::Shared => Space::Shared,
        nv::Space::Constant => Space::Const,
        nv::Space::Local => Space::Local,
        nv::Space::Generic => Space::Generic,
    }
}

/// The memory of an `!llvm.ptr<N>`'s address space number.
pub(crate) fn space_num(n: i64) -> Space {
    nv::Space::from_i64(n).map_or(Space::Generic, space_of_nvvm)
}

/// The machine's special register for an nvvm one.
pub(crate) fn sreg_of(r: nv::SpecialReg) -> Sreg {
    use nv::SpecialReg as S;
    match r {
        S::TidX => Sreg::Tid(0),
        S::TidY => Sreg::Tid(1),
        S::TidZ => Sreg::Tid(2),
        S::NtidX => Sreg::Ntid(0),
        S::NtidY => Sreg::Ntid(1),
        S::NtidZ => Sreg::Ntid(2),
        S::CtaidX => Sreg::Ctaid(0),
        S::CtaidY => Sreg::Ctaid(1),
        S::CtaidZ => Sreg::Ctaid(2),
        S::NctaidX => Sreg::Nctaid(0),
        S::NctaidY => Sreg::Nctaid(1),
        S::NctaidZ => Sreg::Nctaid(2),
        S::Warpsize => Sreg::WarpSize,
        S::Laneid => Sreg::LaneId,
        S::Clock => Sreg::Clock,
        S::Clock64 => Sreg::Clock64,
    }
}

/// The value's machine type.
fn ty(ctx: &Context, v: ValueId) -> Result<Ty, String> {
    let t = ctx.value_type(v);
    ty_of(ctx, t).ok_or_else(|| format!("a value of type {} the simulator does not know", cuprite_ir::print::type_to_string(ctx, t)))
}

/// The address space of a pointer value's type (generic for anything else).
fn space_of(ctx: &Context, v: ValueId) -> Space {
    match ctx.type_kind(ctx.value_type(v)) {
        TypeKind::Pointer { addr_space } => space_num(*addr_space as i64),
        _ => Space::Generic,
    }
}

/// The semantics of nvvm's ops that need no memory, control flow or function state
/// (constants, integer and float arithmetic, comparisons, `select`, conversions,
/// intrinsics, special registers, barriers, fences, shuffles, votes, atomics on an address
/// in a register), so that any level's
/// function holding such an op runs it (a `cuda` function after `convert-arith-to-nvvm`
/// or `convert-cuda-gpu-to-nvvm`). `None`: `op` is not one of them. `ftz`: f32
/// operations flush subnormals (the function's `-ftz=true`).
pub(crate) fn scalar_op(ctx: &Context, b: &mut Builder, ftz: bool, op: OpId, o: &[Reg], dst: Reg) -> Option<Result<(), String>> {
    let name = ctx.op_name_str(op);
    let short = name.strip_prefix("nvvm.")?;
    let ops: Vec<ValueId> = ctx.operands(op).collect();
    let res = ctx.results(op).first().copied();
    let rty = match res.map(|r| ty(ctx, r)).transpose() {
        Ok(t) => t,
        Err(e) => return Some(Err(e)),
    };
    let r = (|| -> Result<bool, String> {
        let bin = |b: &mut Builder, op: BinOp| {
            let ty = rty.unwrap_or(Ty::I32);
            b.emit(Inst::Bin { op, ty, dst, a: o[0], b: o[1] });
        };
        // f32 arithmetic flushes subnormals under -ftz=true
        let fm = FMode { ftz: ftz && rty == Some(Ty::F32), ..FMode::RN };
        match short {
            "constant" => {
                let bits = match nv::ConstantOp(op).value_attr(ctx).map(|a| ctx.attr_kind(a)) {
                    Some(AttrKind::Integer { value, .. }) => *value as u64 & rty.map_or(u64::MAX, Ty::mask),
                    Some(AttrKind::Float { bits, .. }) => *bits,
                    _ => return Err("nvvm.constant without a value".into()),
                };
                b.emit(Inst::Const { dst, bits });
            }
            "null" => b.emit(Inst::Const { dst, bits: 0 }),
            // A pointer plus a byte offset (sign-extended to 64 bits).
            "ptradd" => {
                let oty = ty(ctx, ops[1])?;
                let off = if oty.bits() < 64 {
                    let t = b.reg();
                    let cvt = Cvt { from: oty, from_signed: true, to: Ty::I64, to_signed: true, rnd: Rnd::Rn, ftz: false, sat: false };
                    b.emit(Inst::Cvt { cvt, dst: t, src: o[1] });
                    t
                } else {
                    o[1]
                };
                b.emit(Inst::Bin { op: BinOp::Add, ty: Ty::I64, dst, a: o[0], b: off });
            }
            "add" => bin(b, BinOp::Add),
            "sub" => bin(b, BinOp::Sub),
            "mul" => bin(b, BinOp::Mul),
            "sdiv" => bin(b, BinOp::SDiv),
            "udiv" => bin(b, BinOp::UDiv),
            "srem" => bin(b, BinOp::SRem),
            "urem" => bin(b, BinOp::URem),
            "shl" => bin(b, BinOp::Shl),
            "lshr" => bin(b, BinOp::LShr),
            "ashr" => bin(b, BinOp::AShr),
            "and" => bin(b, BinOp::And),
            "or" => bin(b, BinOp::Or),
            "xor" => bin(b, BinOp::Xor),
            "fadd" => bin(b, BinOp::FAdd(fm)),
            "fsub" => bin(b, BinOp::FSub(fm)),
            "fmul" => bin(b, BinOp::FMul(fm)),
            "fdiv" => {
                let f32 = rty == Some(Ty::F32);
                bin(
                    b,
                    if f32 && nv::float_flags(ctx, op).approx {
                        BinOp::FDivApprox(fm)
                    } else if f32 && nv::float_flags(ctx, op).full {
                        BinOp::FDivFull(fm)
                    } else {
                        BinOp::FDiv(fm)
                    },
                )
            }
            "frem" => bin(b, BinOp::FRem),
            "fneg" => b.emit(Inst::Un { op: UnOp::FNeg(fm.ftz), ty: rty.unwrap_or(Ty::F32), dst, a: o[0] }),
            "icmp" => {
                let p = nv::ICmpOp(op).predicate(ctx).ok_or("icmp without a predicate")?;
                let cmp = super::int_cmp(p.keyword()).ok_or("an unknown icmp predicate")?;
                let ty = ty(ctx, ops[0])?;
                b.emit(Inst::Cmp { cmp, ty, ftz: false, dst, a: o[0], b: o[1] });
            }
            "fcmp" => {
                let p = nv::FCmpOp(op).predicate(ctx).ok_or("fcmp without a predicate")?;
                let cmp = super::float_cmp(p.keyword()).ok_or("an unknown fcmp predicate")?;
                let ty = ty(ctx, ops[0])?;
                let ftz = ftz && ty == Ty::F32;
                b.emit(Inst::Cmp { cmp, ty, ftz, dst, a: o[0], b: o[1] });
            }
            "select" => b.emit(Inst::Select { dst, cond: o[0], a: o[1], b: o[2] }),
            "trunc" | "zext" | "sext" | "ptrtoint" | "inttoptr" | "bitcast" => {
                let (from, to) = (ty(ctx, ops[0])?, rty.unwrap_or(Ty::I64));
                if from.bits() == to.bits() {
                    b.emit(Inst::Mov { dst, src: o[0] });
                } else {
                    let from = if from.is_float() { Ty::int(from.bits()).unwrap_or(from) } else { from };
                    let to = if to.is_float() { Ty::int(to.bits()).unwrap_or(to) } else { to };
                    let cvt = Cvt { from, from_signed: short == "sext", to, to_signed: false, rnd: Rnd::Rn, ftz: false, sat: false };
                    b.emit(Inst::Cvt { cvt, dst, src: o[0] });
                }
            }
            "fptosi" | "fptoui" | "sitofp" | "uitofp" | "fpext" | "fptrunc" => {
                let (from, to) = (ty(ctx, ops[0])?, rty.unwrap_or(Ty::F32));
                let signed = matches!(short, "fptosi" | "sitofp");
                let rnd = if short.starts_with("fpto") { Rnd::Rz } else { Rnd::Rn };
                let ftz = ftz && (from == Ty::F32 || (to == Ty::F32 && from.is_float()));
                let cvt = Cvt { from, from_signed: signed, to, to_signed: signed, rnd, ftz, sat: false };
                b.emit(Inst::Cvt { cvt, dst, src: o[0] });
            }
            "addrspacecast" => {
                let (from, to) = (space_of(ctx, ops[0]), res.map_or(Space::Generic, |r| space_of(ctx, r)));
                b.space_cast(from, to, dst, o[0]);
            }
            "intr" => {
                let n = nv::IntrOp(op).name(ctx).unwrap_or_default().to_string();
                let ty = rty.unwrap_or(Ty::F32);
                if let Some(r) = cuprite_dialects::nvvm::rounding::Rounded::from_nvvm(&n) {
                    let from = ops.first().and_then(|&v| ty_of(ctx, ctx.value_type(v))).unwrap_or(ty);
                    let i = super::rounded_inst(r, from, ty, dst, o, ftz)?;
                    b.emit(i);
                } else {
                    intr(ctx, b, ftz, &n, ty, dst, o, &ops)?;
                }
            }
            "sreg" => {
                let sreg = sreg_of(nv::SRegOp(op).reg(ctx).ok_or("unknown special register")?);
                b.emit(Inst::Sreg { dst, sreg });
            }
            "barrier" => {
                use cuprite_dialects::nvvm::BarrierKind as K;
                match nv::BarrierOp(op).kind(ctx).ok_or("unknown barrier kind")? {
                    K::Sync => b.emit(Inst::Barrier { red: None, dst: 0, pred: 0 }),
                    K::Warp => b.emit(Inst::WarpSync { mask: o[0] }),
                    k => {
                        let red = match k {
                            K::Popc => BarRed::Popc,
                            K::And => BarRed::And,
                            _ => BarRed::Or,
                        };
                        b.emit(Inst::Barrier { red: Some(red), dst, pred: o[0] });
                    }
                }
            }
            "fence" => b.emit(Inst::Fence),
            "shfl" => {
                use cuprite_dialects::nvvm::ShflMode as M;
                let mode = match nv::ShflOp(op).mode(ctx).ok_or("unknown shuffle mode")? {
                    M::Idx => ShflMode::Idx,
                    M::Up => ShflMode::Up,
                    M::Down => ShflMode::Down,
                    M::Bfly => ShflMode::Bfly,
                };
                b.emit(Inst::Shfl { mode, dst, pred_dst: None, val: o[1], lane: o[2], clamp: o[3], mask: o[0] });
            }
            "activemask" => b.emit(Inst::Activemask { dst }),
            "redux" => {
                let k = nv::ReduxOp(op).kind(ctx).ok_or("a warp reduction without a kind")?;
                let op = super::redux_op(k as i64);
                b.emit(Inst::Redux { op, dst, val: o[1], mask: o[0] });
            }
            "match" => {
                let all = nv::MatchOp(op).mode(ctx) == Some(cuprite_dialects::nvvm::MatchMode::All);
                let ty = ty(ctx, ops[1])?;
                b.emit(Inst::Match { all, ty, dst, pred: None, val: o[1], mask: o[0] });
            }
            "vote" => {
                use cuprite_dialects::nvvm::VoteMode as M;
                let mode = match nv::VoteOp(op).mode(ctx).ok_or("unknown vote mode")? {
                    M::All => VoteMode::All,
                    M::Any => VoteMode::Any,
                    M::Uni => VoteMode::Uni,
                    M::Ballot => VoteMode::Ballot,
                };
                b.emit(Inst::Vote { mode, dst, pred: o[1], neg: false, mask: o[0] });
            }
            "atomicrmw" => {
                use cuprite_dialects::nvvm::RmwKind as R;
                let aop = match nv::AtomicRmwOp(op).kind(ctx).ok_or("atomicrmw without a kind")? {
                    R::Add => AtomOp::Add,
                    R::Fadd => AtomOp::FAdd,
                    R::Exch => AtomOp::Exch,
                    R::Smin => AtomOp::SMin,
                    R::Smax => AtomOp::SMax,
                    R::Umin => AtomOp::UMin,
                    R::Umax => AtomOp::UMax,
                    R::Inc => AtomOp::Inc,
                    R::Dec => AtomOp::Dec,
                    R::And => AtomOp::And,
                    R::Or => AtomOp::Or,
                    R::Xor => AtomOp::Xor,
                };
                let space = space_of(ctx, ops[0]);
                b.emit(Inst::Atom { op: aop, space, ty: rty.unwrap_or(Ty::I32), dst, addr: o[0], offset: 0, a: o[1], b: o[1] });
            }
            "cmpxchg" => {
                let space = space_of(ctx, ops[0]);
                let ty = rty.unwrap_or(Ty::I32);
                b.emit(Inst::Atom { op: AtomOp::Cas, space, ty, dst, addr: o[0], offset: 0, a: o[1], b: o[2] });
            }
            _ => return Ok(false),
        }
        Ok(true)
    })();
    match r {
        Ok(true) => Some(Ok(())),
        Ok(false) => None,
        Err(e) => Some(Err(e)),
    }
}

/// An `nvvm.intr` by its PTX name.
#[allow(clippy::too_many_arguments)]
fn intr(ctx: &Context, b: &mut Builder, ftz_fn: bool, n: &str, ty: Ty, dst: Reg, o: &[Reg], ops: &[ValueId]) -> Result<(), String> {
    let ftz = n.contains(".ftz") || (ftz_fn && ty == Ty::F32);
    let m = FMode { rnd: Rnd::Rn, ftz, sat: false };
    let base = n.trim_end_matches(".ftz");
    if let Some(i) = super::bf16_inst(base, dst, o) {
        b.emit(i?);
        return Ok(());
    }
    let un = |b: &mut Builder, op: UnOp| b.emit(Inst::Un { op, ty, dst, a: o[0] });
    let bin = |b: &mut Builder, op: BinOp| b.emit(Inst::Bin { op, ty, dst, a: o[0], b: o[1] });
    match base {
        "sqrt.rn" => un(b, UnOp::Sqrt(m)),
        "sqrt.approx" => un(b, UnOp::SqrtApprox(m)),
        "rsqrt.approx" => un(b, UnOp::Rsqrt(m)),
        "rcp.rn" => un(b, UnOp::Rcp(m)),
        "rcp.approx" => un(b, UnOp::RcpApprox(m)),
        "div.approx" => bin(b, BinOp::FDivApprox(m)),
        "div.full" => bin(b, BinOp::FDivFull(m)),
        "fma.rn" => b.emit(Inst::Fma { ty, mode: m, dst, a: o[0], b: o[1], c: o[2] }),
        "abs" if ty.is_float() => un(b, UnOp::FAbs(ftz)),
        "abs" => un(b, UnOp::Abs),
        "min" => bin(b, BinOp::FMin(ftz)),
        "max" => bin(b, BinOp::FMax(ftz)),
        "smin" => bin(b, BinOp::SMin),
        "smax" => bin(b, BinOp::SMax),
        "umin" => bin(b, BinOp::UMin),
        "umax" => bin(b, BinOp::UMax),
        "ex2.approx" => un(b, UnOp::Ex2(m)),
        "lg2.approx" => un(b, UnOp::Lg2(m)),
        "sin.approx" => un(b, UnOp::Sin(m)),
        "cos.approx" => un(b, UnOp::Cos(m)),
        "tanh.approx" => un(b, UnOp::Tanh(m)),
        "trunc" => un(b, UnOp::RoundInt(Rnd::Rz, ftz)),
        "floor" => un(b, UnOp::RoundInt(Rnd::Rm, ftz)),
        "ceil" => un(b, UnOp::RoundInt(Rnd::Rp, ftz)),
        "rint" => un(b, UnOp::RoundInt(Rnd::Rn, ftz)),
        "saturate" => un(b, UnOp::Saturate(ftz)),
        "popc" | "clz" | "brev" => {
            let at = self::ty(ctx, ops[0])?;
            let op = match base {
                "popc" => UnOp::Popc,
                "clz" => UnOp::Clz,
                _ => UnOp::Brev,
            };
            b.emit(Inst::Un { op, ty: at, dst, a: o[0] });
        }
        "mul24" => bin(b, BinOp::Mul24S),
        "umul24" => bin(b, BinOp::Mul24U),
        "mulhi" => bin(b, BinOp::MulHiS),
        "umulhi" => bin(b, BinOp::MulHiU),
        "copysign" => bin(b, BinOp::Copysign),
        "prmt" | "shf.l.wrap" | "shf.r.wrap" | "shf.l.clamp" | "shf.r.clamp" | "dp4a.s32.s32" | "dp4a.u32.u32" => {
            if o.len() != 3 {
                return Err(format!("'{base}' needs 3 operands"));
            }
            let op = if let Some(t) = base.strip_prefix("dp4a.") {
                TernOp::Dp4a { a_signed: t.starts_with('s'), b_signed: t.ends_with("s32") }
            } else if base == "prmt" {
                TernOp::Prmt
            } else {
                TernOp::Shf { left: base.starts_with("shf.l"), clamp: base.ends_with("clamp") }
            };
            b.emit(Inst::Tern { op, dst, a: o[0], b: o[1], c: o[2] });
        }
        other => return Err(format!("the simulator has no semantics for intrinsic '{other}'")),
    }
    Ok(())
}
