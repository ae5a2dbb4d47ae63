//! Semantics of the `ptx` dialect: PTX instructions, as the PTX ISA defines them, to
//! machine code. The same code runs cuprite's own `ptx` modules and PTX text read back by
//! the PTX reader (`cuprite_lowering::ptx_read`), NVRTC's and clang's included.
//!
//! - An instruction is its op name plus its `mods` string (`ld` + `global.nc.v4.f32`);
//!   operands are registers (`ptx.reg`), immediates (`ptx.imm`) and symbol addresses
//!   (`ptx.sym`), destinations first.
//! - Immediates and symbol addresses are constants: each function instance computes them
//!   once at its entry. A `ptx.sym` of a special register (`%tid.x`) is read by `mov`.
//! - Kernel parameters live in param space (`ld.param` of `<kernel>_param_<i>`); a
//!   `.func`'s parameters and return values live in a per-thread frame of its call site
//!   (in local memory), written and read by the call, as the PTX calling convention
//!   describes; `ld.param` and `st.param` reach both.
//! - Calls are inlined per call site; the local depot (`__local_depot<N>`) of each
//!   instance is its own frame.

use super::{find_kernel, init_bytes, loc_string, symbols, ty_of, Symbols};
use crate::code::*;
use cuprite_dialects::ptx;
use cuprite_ir::{AttrKind, BlockId, Context, OpId, ValueId};
use rustc_hash::FxHashMap;

/// The kind of a PTX type suffix.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum K {
    S,
    U,
    B,
    F,
    Pred,
}

fn tyk(tok: &str) -> Option<(Ty, K)> {
    let k = match tok.as_bytes().first()? {
        b's' => K::S,
        b'u' => K::U,
        b'b' => K::B,
        b'f' => K::F,
        b'p' if tok == "pred" => return Some((Ty::I1, K::Pred)),
        _ => return None,
    };
    if tok == "bf16" {
        return Some((Ty::BF16, K::F));
    }
    let bits: u32 = tok[1..].parse().ok()?;
    let ty = match (k, bits) {
        (K::F, 16) => Ty::F16,
        (K::F, 32) => Ty::F32,
        (K::F, 64) => Ty::F64,
        (K::F, _) => return None,
        (_, b) => Ty::int(b)?,
    };
    Some((ty, k))
}

struct T<'a> {
    ctx: &'a Context,
    syms: Symbols,
    b: Builder,
    globals: FxHashMap<String, Placement>,
    /// Functions being translated (inlined), innermost last: a recursion check.
    stack: Vec<String>,
    /// The carry flag of `add.cc`, `addc`, ... (CC.CF), as a 0/1 register, once used.
    carry: Option<Reg>,
    /// Each function's address as a value (see [`T::func_addr`]).
    func_addrs: FxHashMap<String, u64>,
    /// The current load's used bytes (`used_bytes`, from `.pragma "used_bytes_mask"`).
    used_bytes: Option<u32>,
}

/// A function instance's view of symbols: its parameters, return values and depot.
struct Frame {
    vals: FxHashMap<ValueId, Reg>,
    /// Symbol name to its address in this instance (param, retval, depot).
    local_syms: FxHashMap<String, u64>,
}

/// Parses a parameter declaration (`.u64`, `.align 8 .b8 [16]`, `.u64 .ptr .global .align 4`):
/// (size, align). An `.align` after `.ptr` is the pointee's, not the parameter's.
fn param_layout(decl: &str) -> (u64, u64) {
    let mut size = 0u64;
    let mut align = 0u64;
    let mut pointee = false;
    let mut toks = decl.split_whitespace().peekable();
    while let Some(t) = toks.next() {
        if t == ".ptr" {
            pointee = true;
        } else if t == ".align" && pointee {
            toks.next();
        } else if t == ".align" {
            align = toks.next().and_then(|a| a.parse().ok()).unwrap_or(1);
        } else if let Some((ty, _)) = t.strip_prefix('.').and_then(tyk) {
            size = ty.bytes() as u64;
        } else if let Some(n) = t.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
            size *= n.parse::<u64>().unwrap_or(1);
        }
    }
    if align == 0 {
        align = size.clamp(1, 8);
    }
    (size.max(1), align)
}

fn layout(decls: &[String]) -> Vec<(u64, u64)> {
    let mut off = 0u64;
    decls
        .iter()
        .map(|d| {
            let (s, a) = param_layout(d);
            off = off.div_ceil(a) * a;
            let r = (off, s);
            off += s;
            r
        })
        .collect()
}

/// A function's parameter declarations (`.u64`, `.align 8 .b8 [16]`).
fn params_of(ctx: &Context, f: OpId) -> Vec<String> {
    ptx::string_list(ctx, ptx::FuncOp(f).params_attr(ctx))
}

/// A function's result declarations.
fn rets_of(ctx: &Context, f: OpId) -> Vec<String> {
    ptx::string_list(ctx, ptx::FuncOp(f).rets_attr(ctx))
}

/// Translates kernel `kernel` (an `.entry`) of the `ptx` module `module`.
pub fn translate(ctx: &Context, module: OpId, kernel: &str) -> Result<Program, String> {
    let syms = symbols(ctx, module, "ptx.func", "ptx.global");
    let (name, f) = find_kernel(ctx, &syms, kernel, |f| ptx::FuncOp(f).kind(ctx) == Some(ptx::FuncKind::Entry))?;
    let mut names: Vec<&String> = syms.funcs.keys().collect();
    names.sort();
    let func_addrs = names.into_iter().enumerate().map(|(i, n)| (n.clone(), crate::memory::FUNC_BASE + 16 * i as u64)).collect();
    let mut t = T {
        ctx,
        syms,
        b: Builder::new(&name),
        globals: FxHashMap::default(),
        stack: Vec::new(),
        carry: None,
        func_addrs,
        used_bytes: None,
    };
    t.place_globals()?;
    t.b.prog.max_threads = super::dense_values(ctx, ptx::FuncOp(f).maxntid_attr(ctx)).map(|v| v.iter().product::<i64>() as u32);
    let decls = params_of(ctx, f);
    let mut local_syms = FxHashMap::default();
    for (i, (off, size)) in layout(&decls).into_iter().enumerate() {
        t.b.prog.params.push(Param { name: format!("{name}_param_{i}"), size: size as u32, reg: None, offset: off });
        local_syms.insert(format!("{name}_param_{i}"), off);
    }
    t.func(f, local_syms, None)?;
    t.b.finish()
}

impl T<'_> {
    /// The address a function has as a value (in a vtable, a register of an indirect
    /// call): one per function, in a window no memory is in.
    fn func_addr(&self, name: &str) -> Option<u64> {
        self.func_addrs.get(name).copied()
    }

    fn place_globals(&mut self) -> Result<(), String> {
        let ctx = self.ctx;
        for &g in &self.syms.order {
            let gl = ptx::GlobalOp(g);
            let name = gl.sym_name(ctx).unwrap_or_default().to_string();
            let size = gl.size(ctx).unwrap_or(0) as u64;
            let align = gl.align(ctx).unwrap_or(1).max(1) as u64;
            let space = gl.space(ctx).unwrap_or_default();
            let (space, dynamic) = match space.trim_start_matches('.') {
                "shared" => (Space::Shared, gl.r#extern(ctx)),
                "const" => (Space::Const, false),
                _ => (Space::Global, false),
            };
            let mut init = init_bytes(ctx, gl.init_attr(ctx));
            // Addresses in the initializer: functions' (a vtable's entries) and other
            // variables' (`generic($str)`).
            let offsets = super::dense_values(ctx, gl.init_sym_offsets_attr(ctx)).unwrap_or_default();
            let mut relocs = Vec::new();
            for (off, sym) in offsets.iter().zip(ptx::string_list(ctx, gl.init_syms_attr(ctx))) {
                let a = match (self.func_addr(&sym), self.globals.get(&sym)) {
                    (Some(a), _) => a,
                    (None, Some(Placement::Device(i))) => {
                        relocs.push((*off as u64, *i));
                        continue;
                    }
                    (None, Some(&Placement::Const(o))) => crate::memory::CONST_BASE + o,
                    (None, Some(&Placement::Shared(o))) => crate::memory::SHARED_BASE + o,
                    _ => return Err(format!("{name}: its initializer holds the address of {sym}, which is not defined before it")),
                };
                if let Some(b) = init.get_mut(*off as usize..*off as usize + 8) {
                    b.copy_from_slice(&a.to_le_bytes());
                }
            }
            let place = self.b.place_global(&name, space, dynamic, size, align, init);
            if let (Placement::Device(i), false) = (place, relocs.is_empty()) {
                self.b.prog.globals[i as usize].relocs = relocs;
            }
            self.globals.insert(name, place);
        }
        Ok(())
    }

    /// Emits function `f`; `local_syms` gives its parameter (and return value) symbols'
    /// addresses; `ret`: where its `ret` goes (none: the kernel's exits).
    fn func(&mut self, f: OpId, mut local_syms: FxHashMap<String, u64>, ret: Option<Label>) -> Result<(), String> {
        let ctx = self.ctx;
        let name = ctx.symbol_name(f).unwrap_or_default().to_string();
        if self.stack.contains(&name) {
            return Err(format!(
                "{}: recursive call to {name}: the simulator inlines calls and cannot run recursion",
                loc_string(ctx, ctx.op_loc(f))
            ));
        }
        self.stack.push(name);
        if let Some(size) = ptx::FuncOp(f).depot(ctx) {
            let align = ptx::FuncOp(f).depot_align(ctx).unwrap_or(8) as u64;
            let off = self.b.alloc_local(size as u64, align);
            local_syms.insert("__local_depot".into(), off);
        }
        let region = ctx.region(f, 0);
        let order = super::layout(ctx, region);
        let mut fr = Frame { vals: FxHashMap::default(), local_syms };
        // Registers, immediates and symbol addresses first.
        for &bb in &order {
            for op in ctx.block_ops(bb) {
                match ctx.op_name_str(op) {
                    "ptx.reg" => {
                        let r = self.b.reg();
                        fr.vals.insert(ctx.result(op, 0), r);
                    }
                    "ptx.imm" => {
                        self.b.set_loc(&loc_string(ctx, ctx.op_loc(op)));
                        let v = ctx.result(op, 0);
                        let bits = match ptx::ImmOp(op).value_attr(ctx).map(|a| ctx.attr_kind(a)) {
                            Some(AttrKind::Integer { value, .. }) => *value as u64,
                            Some(AttrKind::Float { bits, .. }) => *bits,
                            _ => return Err(format!("{}: ptx.imm without a value", loc_string(ctx, ctx.op_loc(op)))),
                        };
                        let mask = ty_of(ctx, ctx.value_type(v)).map_or(u64::MAX, Ty::mask);
                        let r = self.b.konst(bits & mask);
                        fr.vals.insert(v, r);
                    }
                    "ptx.sym" => {
                        let n = ptx::SymOp(op).name(ctx).unwrap_or_default().to_string();
                        if n.starts_with('%') {
                            continue;
                        }
                        self.b.set_loc(&loc_string(ctx, ctx.op_loc(op)));
                        let r = self.sym_addr(&n, &fr).map_err(|m| format!("{}: {m}", loc_string(ctx, ctx.op_loc(op))))?;
                        fr.vals.insert(ctx.result(op, 0), r);
                    }
                    _ => {}
                }
            }
        }
        let mut labels: FxHashMap<BlockId, Label> = FxHashMap::default();
        for &bb in &order {
            let l = self.b.label();
            labels.insert(bb, l);
        }
        for &bb in &order {
            self.b.place(labels[&bb]);
            for op in ctx.block_ops(bb) {
                self.b.set_loc(&loc_string(ctx, ctx.op_loc(op)));
                self.op(op, &mut fr, &labels, ret).map_err(|m| format!("{}: {m}", loc_string(ctx, ctx.op_loc(op))))?;
            }
        }
        self.stack.pop();
        Ok(())
    }

    /// The value of symbol `n` as an operand: a parameter's or depot's address, a
    /// global's address.
    fn sym_addr(&mut self, n: &str, fr: &Frame) -> Result<Reg, String> {
        if let Some(&a) = fr.local_syms.get(n) {
            return Ok(self.b.konst(a));
        }
        if n == "WARP_SZ" {
            return Ok(self.b.konst(32));
        }
        if n.starts_with("__local_depot") {
            let a = *fr.local_syms.get("__local_depot").ok_or_else(|| format!("{n}: the function declares no local depot"))?;
            return Ok(self.b.konst(a));
        }
        if let Some(a) = self.func_addr(n) {
            return Ok(self.b.konst(a));
        }
        match self.globals.get(n).copied() {
            // Its address in its own state space: `ld.const [sym]`, `mov.u64 %rd, sym; cvta.const`.
            Some(place) => {
                let r = self.b.reg();
                self.b.global_addr(place, place.space(), r);
                Ok(r)
            }
            None if self.syms.funcs.contains_key(n) => Ok(self.b.konst(0)),
            None => Err(format!("unknown symbol {n}")),
        }
    }

    fn op(&mut self, op: OpId, fr: &mut Frame, labels: &FxHashMap<BlockId, Label>, ret: Option<Label>) -> Result<(), String> {
        let ctx = self.ctx;
        let name = ctx.op_name_str(op);
        let short = name.strip_prefix("ptx.").unwrap_or(name);
        match short {
            "reg" | "imm" | "sym" => return Ok(()),
            "bra" => {
                let l = labels[&ctx.successor(op, 0)];
                self.b.jump(l);
                return Ok(());
            }
            "cbra" => {
                let c = self.reg_of(fr, ctx.operand(op, 0))?;
                let (t, f) = (labels[&ctx.successor(op, 0)], labels[&ctx.successor(op, 1)]);
                self.b.branch(c, false, t, f);
                return Ok(());
            }
            "ret" => {
                match ret {
                    None => self.b.emit(Inst::Exit),
                    Some(l) => self.b.jump(l),
                }
                return Ok(());
            }
            "unreachable" => {
                self.b.emit(Inst::Trap);
                return Ok(());
            }
            "call" => return self.call(op, fr),
            "call_indirect" => return self.call_indirect(op, fr),
            "asm" => return Err("inline asm in ptx IR is not simulated: run the printed PTX text (cuprite run reads it back)".into()),
            _ => {}
        }
        let mods = ptx::inst_mods(ctx, op).unwrap_or_default();
        let toks: Vec<&str> = mods.split('.').filter(|s| !s.is_empty()).collect();
        let args: Vec<ValueId> = ctx.operands(op).collect();
        let offset = ptx::inst_offset(ctx, op).unwrap_or(0);
        self.used_bytes = ptx::inst_used_bytes(ctx, op);
        // Special registers are read by `mov`.
        if short == "mov" {
            if args.len() < 2 {
                return Err(format!("mov needs a destination and a source, has {} operands", args.len()));
            }
            if let Some(d) = ctx.defining_op(args[1]).filter(|&d| ctx.is_op(d, "ptx.sym")) {
                let n = ptx::SymOp(d).name(ctx).unwrap_or_default().to_string();
                if let Some(sr) = n.strip_prefix('%') {
                    let sreg = special(sr).ok_or_else(|| format!("unknown special register %{sr}"))?;
                    let dst = self.reg_of(fr, args[0])?;
                    self.b.emit(Inst::Sreg { dst, sreg });
                    return Ok(());
                }
            }
        }
        let mut o = Vec::with_capacity(args.len());
        for &a in &args {
            o.push(self.reg_of(fr, a)?);
        }
        if short == "cp" {
            return self.cp_async(ctx, &toks, &args, &o, offset);
        }
        if short == "mov" {
            if let Some((at, len)) = ptx::inst_vector_element(ctx, op) {
                return self.mov_vector(&toks, &o, at as usize, len as usize);
            }
        }
        self.inst(short, &toks, &o, offset)
    }

    fn reg_of(&mut self, fr: &Frame, v: ValueId) -> Result<Reg, String> {
        if let Some(&r) = fr.vals.get(&v) {
            return Ok(r);
        }
        let ctx = self.ctx;
        match ctx.defining_op(v) {
            Some(d) if ctx.is_op(d, "ptx.sym") => {
                let n = ptx::SymOp(d).name(ctx).unwrap_or_default().to_string();
                Err(format!("special register {n} used as an operand of an instruction other than mov"))
            }
            _ => Err("an operand that is not a register, immediate or symbol".into()),
        }
    }

    /// A `.func` call: arguments to the callee's parameter frame, the inlined body,
    /// results back from its return-value frame.
    fn call(&mut self, op: OpId, fr: &mut Frame) -> Result<(), String> {
        let ctx = self.ctx;
        let callee = ptx::CallOp(op).callee(ctx).unwrap_or_default().to_string();
        let nres = ptx::CallOp(op).nresults(ctx).unwrap_or(0) as usize;
        let args: Vec<ValueId> = ctx.operands(op).collect();
        let mut o = Vec::new();
        for &a in &args {
            o.push(self.reg_of(fr, a)?);
        }
        self.call_to(&callee, nres, &args, &o)
    }

    /// `call (r), %rd, (a), prototype`: the function whose address `%rd` holds, among
    /// those the prototype fits (each inlined behind a comparison); another address traps.
    fn call_indirect(&mut self, op: OpId, fr: &mut Frame) -> Result<(), String> {
        let ctx = self.ctx;
        let call = ptx::CallIndirectOp(op);
        let nres = call.nresults(ctx).unwrap_or(0) as usize;
        let mut args: Vec<ValueId> = ctx.operands(op).collect();
        let mut o = Vec::new();
        for &a in &args {
            o.push(self.reg_of(fr, a)?);
        }
        if o.len() <= nres {
            return Err("an indirect call without a target".into());
        }
        let target = o.remove(nres);
        args.remove(nres);
        let (nrets, nparams) = (ptx::string_list(ctx, call.rets_attr(ctx)).len(), ptx::string_list(ctx, call.params_attr(ctx)).len());
        let mut names: Vec<String> = self
            .syms
            .funcs
            .iter()
            .filter(|(_, &f)| {
                ptx::FuncOp(f).kind(ctx) != Some(ptx::FuncKind::Entry)
                    && !ptx::FuncOp(f).r#extern(ctx)
                    && params_of(ctx, f).len() == nparams
                    && rets_of(ctx, f).len() == nrets
            })
            .map(|(n, _)| n.clone())
            .collect();
        names.sort();
        let end = self.b.label();
        for n in names {
            let a = self.func_addr(&n).unwrap_or(0);
            let k = self.b.konst(a);
            let eq = self.b.reg();
            self.b.emit(Inst::Cmp { cmp: Cmp::Eq, ty: Ty::I64, ftz: false, dst: eq, a: target, b: k });
            let (this, next) = (self.b.label(), self.b.label());
            self.b.branch(eq, false, this, next);
            self.b.place(this);
            self.call_to(&n, nres, &args, &o)?;
            self.b.jump(end);
            self.b.place(next);
        }
        self.b.emit(Inst::Trap);
        self.b.place(end);
        Ok(())
    }

    /// A call of `.func` `callee`: `o` (registers of `args`) holds the `nres` result
    /// registers, then the arguments.
    fn call_to(&mut self, callee: &str, nres: usize, args: &[ValueId], o: &[Reg]) -> Result<(), String> {
        let ctx = self.ctx;
        let callee = callee.to_string();
        let f = *self.syms.funcs.get(&callee).ok_or_else(|| format!("call to unknown function {callee}"))?;
        if ptx::FuncOp(f).r#extern(ctx) || ctx.regions(f).first().and_then(|&r| ctx.entry_block(r)).is_none() {
            let res = (nres > 0).then(|| o[0]);
            return super::runtime_call(&mut self.b, &callee, o.get(nres..).unwrap_or(&[]), res);
        }
        let params = params_of(ctx, f);
        let rets = rets_of(ctx, f);
        let mut syms = FxHashMap::default();
        let ins: Vec<(u64, u64)> = layout(&params);
        let outs: Vec<(u64, u64)> = layout(&rets);
        let pbase = self.b.alloc_local(ins.last().map_or(0, |(o, s)| o + s), 8);
        let rbase = self.b.alloc_local(outs.last().map_or(0, |(o, s)| o + s), 8);
        // Arguments: one register per scalar, one 64-bit word per 8 bytes of an aggregate.
        let mut next = nres;
        for (i, &(off, size)) in ins.iter().enumerate() {
            for j in 0..size.div_ceil(8).max(1) {
                let Some(&src) = o.get(next) else { return Err(format!("call to {callee} passes too few arguments")) };
                next += 1;
                let a = self.b.konst(pbase + off + 8 * j);
                let ty = Ty::int(((size - 8 * j).min(8) * 8) as u32).unwrap_or(Ty::I64);
                self.b.emit(Inst::Store { space: Space::Local, ty, src, addr: a, offset: 0, align: 1 });
            }
            syms.insert(format!("{callee}_param_{i}"), crate::memory::LOCAL_BASE + pbase + off);
        }
        for (i, &(off, size)) in outs.iter().enumerate() {
            syms.insert(format!("func_retval{i}"), crate::memory::LOCAL_BASE + rbase + off);
            // An aggregate comes back in 8-byte words: its padding is zeroed first, so that
            // reading a whole word never reads unwritten memory.
            if size > 8 {
                let zero = self.b.konst(0);
                for j in 0..size / 8 {
                    let a = self.b.konst(rbase + off + 8 * j);
                    self.b.emit(Inst::Store { space: Space::Local, ty: Ty::I64, src: zero, addr: a, offset: 0, align: 1 });
                }
            }
        }
        let after = self.b.label();
        self.func(f, syms, Some(after))?;
        self.b.place(after);
        // The call's results: one per scalar return value, one per 8 bytes of an aggregate.
        let words: Vec<(u64, u64)> =
            outs.iter().flat_map(|&(off, size)| (0..size.div_ceil(8).max(1)).map(move |j| (off + 8 * j, (size - 8 * j).min(8)))).collect();
        for (i, &(off, size)) in words.iter().enumerate().take(nres) {
            let a = self.b.konst(rbase + off);
            let ty = ty_of(ctx, ctx.value_type(args[i])).unwrap_or(Ty::int((size.min(8) * 8) as u32).unwrap_or(Ty::I64));
            let ty = if ty.is_float() { Ty::int(ty.bits()).unwrap_or(ty) } else { ty };
            let lty = Ty::int((size.min(8) * 8) as u32).unwrap_or(ty);
            let t = self.b.reg();
            self.b.emit(Inst::Load { space: Space::Local, ty: lty, dst: t, addr: a, offset: 0, align: 1 });
            let cvt = Cvt { from: lty, from_signed: false, to: ty, to_signed: false, rnd: Rnd::Rn, ftz: false, sat: false };
            self.b.emit(Inst::Cvt { cvt, dst: o[i], src: t });
        }
        Ok(())
    }

    /// `mov.bN {p0, p1, ...}, x` (`at` 0: x's bits split into N/len-bit parts, lowest
    /// first) or `mov.bN x, {p0, p1, ...}` (`at` 1: the parts joined).
    fn mov_vector(&mut self, toks: &[&str], o: &[Reg], at: usize, len: usize) -> Result<(), String> {
        let bits = toks.iter().rev().find_map(|t| tyk(t)).map_or(64, |(t, _)| t.bits());
        if len < 2 || o.len() != len + 1 || bits % len as u32 != 0 || at > 1 {
            return Err(format!("mov.{}: malformed vector operand", toks.join(".")));
        }
        let w = bits / len as u32;
        let mask = self.b.konst(if w == 64 { u64::MAX } else { (1u64 << w) - 1 });
        if at == 0 {
            let src = o[len];
            for (i, &dst) in o[..len].iter().enumerate() {
                let amt = self.b.konst(i as u64 * w as u64);
                let t = self.b.reg();
                self.b.emit(Inst::Bin { op: BinOp::LShr, ty: Ty::I64, dst: t, a: src, b: amt });
                self.b.emit(Inst::Bin { op: BinOp::And, ty: Ty::I64, dst, a: t, b: mask });
            }
        } else {
            let dst = o[0];
            let mut acc = self.b.konst(0);
            for (i, &part) in o[1..].iter().enumerate() {
                let amt = self.b.konst(i as u64 * w as u64);
                let (m, sh, or) = (self.b.reg(), self.b.reg(), self.b.reg());
                self.b.emit(Inst::Bin { op: BinOp::And, ty: Ty::I64, dst: m, a: part, b: mask });
                self.b.emit(Inst::Bin { op: BinOp::Shl, ty: Ty::I64, dst: sh, a: m, b: amt });
                self.b.emit(Inst::Bin { op: BinOp::Or, ty: Ty::I64, dst: or, a: acc, b: sh });
                acc = or;
            }
            self.b.emit(Inst::Mov { dst, src: acc });
        }
        Ok(())
    }

    /// The carry chain: `add.cc` / `addc[.cc]` (d = a + b + CF, CF the carry out),
    /// `sub.cc` / `subc[.cc]` (d = a - (b + CF), CF the borrow out), `mad.lo.cc` /
    /// `madc.{lo,hi}[.cc]` (the product's low or high half plus c [+ CF]).
    fn carry_arith(&mut self, opc: &str, set: bool, hi: bool, signed: bool, ty: Ty, o: &[Reg]) {
        let cf = match self.carry {
            Some(r) => r,
            None => {
                let r = self.b.reg();
                self.carry = Some(r);
                r
            }
        };
        let with_in = opc.ends_with('c');
        let sub = opc.starts_with("sub");
        let (mut a, b) = (o[1], if opc.starts_with("mad") { o[3] } else { o[2] });
        if opc.starts_with("mad") {
            let p = self.b.reg();
            let op = match (hi, signed) {
                (false, _) => BinOp::Mul,
                (true, true) => BinOp::MulHiS,
                (true, false) => BinOp::MulHiU,
            };
            self.b.emit(Inst::Bin { op, ty, dst: p, a: o[1], b: o[2] });
            a = p;
        }
        let (t1, c1) = (self.b.reg(), self.b.reg());
        if sub {
            self.b.emit(Inst::Bin { op: BinOp::Sub, ty, dst: t1, a, b });
            self.b.emit(Inst::Cmp { cmp: Cmp::ULt, ty, ftz: false, dst: c1, a, b });
        } else {
            self.b.emit(Inst::Bin { op: BinOp::Add, ty, dst: t1, a, b });
            self.b.emit(Inst::Cmp { cmp: Cmp::ULt, ty, ftz: false, dst: c1, a: t1, b: a });
        }
        let (res, out) = if with_in {
            let (t2, c2, c) = (self.b.reg(), self.b.reg(), self.b.reg());
            if sub {
                self.b.emit(Inst::Bin { op: BinOp::Sub, ty, dst: t2, a: t1, b: cf });
                self.b.emit(Inst::Cmp { cmp: Cmp::ULt, ty, ftz: false, dst: c2, a: t1, b: cf });
            } else {
                self.b.emit(Inst::Bin { op: BinOp::Add, ty, dst: t2, a: t1, b: cf });
                self.b.emit(Inst::Cmp { cmp: Cmp::ULt, ty, ftz: false, dst: c2, a: t2, b: t1 });
            }
            self.b.emit(Inst::Bin { op: BinOp::Or, ty: Ty::I32, dst: c, a: c1, b: c2 });
            (t2, c)
        } else {
            (t1, c1)
        };
        self.b.emit(Inst::Mov { dst: o[0], src: res });
        if set {
            self.b.emit(Inst::Mov { dst: cf, src: out });
        }
    }

    /// A packed-half instruction (`add.rn.bf16x2 d, a, b`) as the scalar instruction on the
    /// low halves and on the high halves of its operands, packed back into `d`. A
    /// conversion `cvt.rn.f16x2.f32 d, a, b` puts `a`'s result in the high half and `b`'s
    /// in the low one, as PTX defines.
    fn packed(&mut self, opc: &str, toks: &[&str], packed: &str, scalar: &str, o: &[Reg], offset: i64) -> Result<(), String> {
        let stoks: Vec<&str> = toks.iter().map(|t| if *t == packed { scalar } else { t }).collect();
        if o.len() < 2 {
            return Err(format!("{opc}.{} needs a destination and a source", toks.join(".")));
        }
        let (lo, hi) = (self.b.reg(), self.b.reg());
        if opc == "cvt" {
            if o.len() != 3 {
                return Err(format!("cvt.{} needs two sources", toks.join(".")));
            }
            self.inst(opc, &stoks, &[lo, o[2]], offset)?;
            self.inst(opc, &stoks, &[hi, o[1]], offset)?;
        } else {
            let (mask, sixteen) = (self.b.konst(0xffff), self.b.konst(16));
            let mut los = vec![lo];
            let mut his = vec![hi];
            for &src in &o[1..] {
                let (l, h) = (self.b.reg(), self.b.reg());
                self.b.emit(Inst::Bin { op: BinOp::And, ty: Ty::I32, dst: l, a: src, b: mask });
                self.b.emit(Inst::Bin { op: BinOp::LShr, ty: Ty::I32, dst: h, a: src, b: sixteen });
                los.push(l);
                his.push(h);
            }
            self.inst(opc, &stoks, &los, offset)?;
            self.inst(opc, &stoks, &his, offset)?;
        }
        let sixteen = self.b.konst(16);
        let shifted = self.b.reg();
        self.b.emit(Inst::Bin { op: BinOp::Shl, ty: Ty::I32, dst: shifted, a: hi, b: sixteen });
        self.b.emit(Inst::Bin { op: BinOp::Or, ty: Ty::I32, dst: o[0], a: lo, b: shifted });
        Ok(())
    }

    fn inst(&mut self, opc: &str, toks: &[&str], o: &[Reg], offset: i64) -> Result<(), String> {
        let has = |t: &str| toks.contains(&t);
        // Packed halves (`f16x2`, `bf16x2`) run as two scalar instructions on the halves;
        // fp8 types and vectors of packed halves are not modelled.
        if let Some(t) = toks.iter().find(|t| t.ends_with("x2") || t.starts_with("e4m3") || t.starts_with("e5m2")) {
            let vector = toks.iter().any(|t| matches!(*t, "v2" | "v4" | "v8"));
            let scalar = t.strip_suffix("x2").filter(|s| matches!(*s, "f16" | "bf16"));
            if matches!(opc, "atom" | "red") && *t == "f16x2" && has("add") && !vector {
                let op = AtomOp::FAdd2;
                let space = space_tok(toks).unwrap_or(Space::Generic);
                let n = if opc == "red" { 2 } else { 3 };
                if o.len() < n {
                    return Err(format!("{opc} needs {n} operands, has {}", o.len()));
                }
                if opc == "red" {
                    let d = self.b.reg();
                    self.b.emit(Inst::Atom { op, space, ty: Ty::I32, dst: d, addr: o[0], offset, a: o[1], b: o[1] });
                } else {
                    self.b.emit(Inst::Atom { op, space, ty: Ty::I32, dst: o[0], addr: o[1], offset, a: o[2], b: o[2] });
                }
                return Ok(());
            }
            match scalar {
                Some(scalar) if !vector && !matches!(opc, "atom" | "red" | "setp" | "set" | "ld" | "st" | "ldu") => {
                    return self.packed(opc, toks, t, scalar, o, offset);
                }
                _ => return Err(format!("{opc}.{}: the type .{t} is not simulated yet", toks.join("."))),
            }
        }
        let last_ty = toks.iter().rev().find_map(|t| tyk(t));
        let (ty, k) = last_ty.unwrap_or((Ty::I32, K::B));
        let rnd = if has("rz") {
            Rnd::Rz
        } else if has("rm") {
            Rnd::Rm
        } else if has("rp") {
            Rnd::Rp
        } else {
            Rnd::Rn
        };
        let mode = FMode { rnd, ftz: has("ftz"), sat: has("sat") };
        let need = |n: usize| -> Result<(), String> {
            if o.len() < n {
                Err(format!("{opc}.{} needs {n} operands, has {}", toks.join("."), o.len()))
            } else {
                Ok(())
            }
        };
        let float = k == K::F;
        macro_rules! bin {
            ($op:expr) => {{
                need(3)?;
                self.b.emit(Inst::Bin { op: $op, ty, dst: o[0], a: o[1], b: o[2] })
            }};
        }
        macro_rules! un {
            ($op:expr) => {{
                need(2)?;
                self.b.emit(Inst::Un { op: $op, ty, dst: o[0], a: o[1] })
            }};
        }
        match opc {
            "mov" => {
                need(2)?;
                self.b.emit(Inst::Mov { dst: o[0], src: o[1] });
            }
            "add" if float => bin!(BinOp::FAdd(mode)),
            "sub" if float => bin!(BinOp::FSub(mode)),
            "mul" if float => bin!(BinOp::FMul(mode)),
            "add" | "sub" | "addc" | "subc" | "mad" | "madc" if has("cc") || opc.ends_with('c') => {
                need(if opc.starts_with("mad") { 4 } else { 3 })?;
                if float || k == K::F {
                    return Err(format!("{opc}.{}: carry arithmetic is integer only", toks.join(".")));
                }
                self.carry_arith(opc, has("cc"), has("hi"), k == K::S, ty, o);
            }
            "add" => bin!(BinOp::Add),
            "sub" => bin!(BinOp::Sub),
            "mul" | "mad" if has("wide") => {
                need(if opc == "mad" { 4 } else { 3 })?;
                let wide = Ty::int(ty.bits() * 2).ok_or("mul.wide of a 64-bit type")?;
                let signed = k == K::S;
                let cvt = Cvt { from: ty, from_signed: signed, to: wide, to_signed: signed, rnd: Rnd::Rn, ftz: false, sat: false };
                let (a, b) = (self.b.reg(), self.b.reg());
                self.b.emit(Inst::Cvt { cvt, dst: a, src: o[1] });
                self.b.emit(Inst::Cvt { cvt, dst: b, src: o[2] });
                if opc == "mul" {
                    self.b.emit(Inst::Bin { op: BinOp::Mul, ty: wide, dst: o[0], a, b });
                } else {
                    let p = self.b.reg();
                    self.b.emit(Inst::Bin { op: BinOp::Mul, ty: wide, dst: p, a, b });
                    self.b.emit(Inst::Bin { op: BinOp::Add, ty: wide, dst: o[0], a: p, b: o[3] });
                }
            }
            "mul" if has("hi") => bin!(if k == K::S { BinOp::MulHiS } else { BinOp::MulHiU }),
            "mul" => bin!(BinOp::Mul),
            "mul24" => bin!(if has("hi") {
                if k == K::S {
                    BinOp::Mul24HiS
                } else {
                    BinOp::Mul24HiU
                }
            } else if k == K::S {
                BinOp::Mul24S
            } else {
                BinOp::Mul24U
            }),
            "mad" | "fma" if float => {
                need(4)?;
                self.b.emit(Inst::Fma { ty, mode, dst: o[0], a: o[1], b: o[2], c: o[3] });
            }
            "mad" => {
                need(4)?;
                let p = self.b.reg();
                let mop = if has("hi") {
                    if k == K::S {
                        BinOp::MulHiS
                    } else {
                        BinOp::MulHiU
                    }
                } else {
                    BinOp::Mul
                };
                self.b.emit(Inst::Bin { op: mop, ty, dst: p, a: o[1], b: o[2] });
                self.b.emit(Inst::Bin { op: BinOp::Add, ty, dst: o[0], a: p, b: o[3] });
            }
            "div" if float => {
                if has("approx") {
                    bin!(BinOp::FDivApprox(mode))
                } else if has("full") {
                    bin!(BinOp::FDivFull(mode))
                } else {
                    bin!(BinOp::FDiv(mode))
                }
            }
            "div" => bin!(BinOp::PtxDiv { signed: k == K::S }),
            "rem" => bin!(BinOp::PtxRem { signed: k == K::S }),
            "and" => bin!(BinOp::And),
            "or" => bin!(BinOp::Or),
            "xor" => bin!(BinOp::Xor),
            "not" => un!(UnOp::Not),
            "cnot" => {
                need(2)?;
                let z = self.b.konst(0);
                self.b.emit(Inst::Cmp { cmp: Cmp::Eq, ty, ftz: false, dst: o[0], a: o[1], b: z });
            }
            "shl" => bin!(BinOp::Shl),
            "shr" => bin!(if k == K::S { BinOp::AShr } else { BinOp::LShr }),
            "neg" if float => un!(UnOp::FNeg(mode.ftz)),
            "neg" => un!(UnOp::Neg),
            "abs" if float => un!(UnOp::FAbs(mode.ftz)),
            "abs" => un!(UnOp::Abs),
            "min" if float => bin!(BinOp::FMin(mode.ftz)),
            "max" if float => bin!(BinOp::FMax(mode.ftz)),
            "min" => bin!(if k == K::S { BinOp::SMin } else { BinOp::UMin }),
            "max" => bin!(if k == K::S { BinOp::SMax } else { BinOp::UMax }),
            "copysign" => {
                // copysign d, a, b: b's magnitude with a's sign.
                need(3)?;
                self.b.emit(Inst::Bin { op: BinOp::Copysign, ty, dst: o[0], a: o[2], b: o[1] });
            }
            "setp" => {
                need(3)?;
                let c = toks.first().copied().unwrap_or("");
                let cmp = setp_cmp(c, k).ok_or_else(|| format!("unknown comparison setp.{c}"))?;
                let combine = toks.iter().find_map(|t| match *t {
                    "and" => Some(BinOp::And),
                    "or" => Some(BinOp::Or),
                    "xor" => Some(BinOp::Xor),
                    _ => None,
                });
                match combine {
                    None => self.b.emit(Inst::Cmp { cmp, ty, ftz: mode.ftz, dst: o[0], a: o[1], b: o[2] }),
                    // setp.cmp.bop p[|q], a, b, c: p = (a cmp b) bop c, q = !(a cmp b) bop c.
                    Some(bop) => {
                        let (p, q, a, b, c) = match o.len() {
                            4 => (o[0], None, o[1], o[2], o[3]),
                            5 => (o[0], Some(o[1]), o[2], o[3], o[4]),
                            _ => return Err(format!("setp.{}: expected p[|q], a, b, c", toks.join("."))),
                        };
                        let t = self.b.reg();
                        self.b.emit(Inst::Cmp { cmp, ty, ftz: mode.ftz, dst: t, a, b });
                        if let Some(q) = q {
                            let one = self.b.konst(1);
                            let nt = self.b.reg();
                            self.b.emit(Inst::Bin { op: BinOp::Xor, ty: Ty::I32, dst: nt, a: t, b: one });
                            self.b.emit(Inst::Bin { op: bop, ty: Ty::I32, dst: q, a: nt, b: c });
                        }
                        self.b.emit(Inst::Bin { op: bop, ty: Ty::I32, dst: p, a: t, b: c });
                    }
                }
            }
            "selp" => {
                need(4)?;
                self.b.emit(Inst::Select { dst: o[0], cond: o[3], a: o[1], b: o[2] });
            }
            "cvt" => {
                need(2)?;
                let tys: Vec<(Ty, K)> = toks.iter().filter_map(|t| tyk(t)).collect();
                let [(to, tk), (from, fk)] = tys[..] else { return Err(format!("cvt.{} needs two types", toks.join("."))) };
                let irnd = toks.iter().find_map(|t| match *t {
                    "rni" => Some(Rnd::Rn),
                    "rzi" => Some(Rnd::Rz),
                    "rmi" => Some(Rnd::Rm),
                    "rpi" => Some(Rnd::Rp),
                    _ => None,
                });
                if tk == K::F && fk == K::F && to == from {
                    // cvt.rni.f32.f32 rounds to an integer; without an integer rounding it is a
                    // copy, clamped to [0, 1] with .sat (NVIDIA's expf uses cvt.sat.f32.f32).
                    match irnd {
                        Some(r) => self.b.emit(Inst::Un { op: UnOp::RoundInt(r, mode.ftz), ty: to, dst: o[0], a: o[1] }),
                        None if mode.sat => self.b.emit(Inst::Un { op: UnOp::Saturate(mode.ftz), ty: to, dst: o[0], a: o[1] }),
                        None => self.b.emit(Inst::Mov { dst: o[0], src: o[1] }),
                    }
                    if irnd.is_some() && mode.sat {
                        self.b.emit(Inst::Un { op: UnOp::Saturate(false), ty: to, dst: o[0], a: o[0] });
                    }
                } else {
                    let rnd = if fk == K::F && tk != K::F { irnd.unwrap_or(Rnd::Rz) } else { rnd };
                    let cvt =
                        Cvt { from, from_signed: fk == K::S, to, to_signed: tk == K::S, rnd, ftz: mode.ftz, sat: mode.sat && tk != K::F };
                    self.b.emit(Inst::Cvt { cvt, dst: o[0], src: o[1] });
                    if mode.sat && tk == K::F {
                        self.b.emit(Inst::Un { op: UnOp::Saturate(false), ty: to, dst: o[0], a: o[0] });
                    }
                }
            }
            "cvta" => {
                need(2)?;
                let to_generic = !has("to");
                let space = space_tok(toks).ok_or("cvta without a state space")?;
                self.b.emit(Inst::Cvta { space, to_generic, dst: o[0], src: o[1] });
            }
            "ld" | "ldu" | "st" => {
                let space = space_tok(toks).unwrap_or(Space::Generic);
                let n = if has("v4") {
                    4
                } else if has("v2") {
                    2
                } else {
                    1
                };
                need(n + 1)?;
                let esize = ty.bytes();
                let (addr, regs) = if opc == "st" { (o[0], &o[1..=n]) } else { (o[n], &o[..n]) };
                for (i, &r) in regs.iter().enumerate() {
                    let off = offset + (i as i64) * esize as i64;
                    let align = if i == 0 { esize * n as u32 } else { esize };
                    let used = self.used_bytes.is_none_or(|m| (m >> (i as u32 * esize)) & ((1 << esize) - 1) != 0);
                    if opc == "st" {
                        self.b.emit(Inst::Store { space, ty, src: r, addr, offset: off, align });
                    } else if !used {
                        // An element the load's used-bytes mask leaves out: loaded all the
                        // same (NVRTC's mask is not always right: it can leave out an
                        // element it reads later), but it may never have been written.
                        self.b.prog.quiet_loads.push(self.b.prog.code.len() as u32);
                        self.b.emit(Inst::Load { space, ty, dst: r, addr, offset: off, align });
                    } else {
                        self.b.emit(Inst::Load { space, ty, dst: r, addr, offset: off, align });
                        // `ld.s8`/`ld.s16` sign-extend into any wider register.
                        if k == K::S && ty.bits() < 64 {
                            let cvt =
                                Cvt { from: ty, from_signed: true, to: Ty::I64, to_signed: true, rnd: Rnd::Rn, ftz: false, sat: false };
                            self.b.emit(Inst::Cvt { cvt, dst: r, src: r });
                        }
                    }
                }
            }
            "atom" | "red" => {
                let space = space_tok(toks).unwrap_or(Space::Generic);
                let aop = toks
                    .iter()
                    .find_map(|t| {
                        Some(match *t {
                            "add" if k == K::F => AtomOp::FAdd,
                            "add" => AtomOp::Add,
                            "exch" => AtomOp::Exch,
                            "min" if k == K::S => AtomOp::SMin,
                            "max" if k == K::S => AtomOp::SMax,
                            "min" => AtomOp::UMin,
                            "max" => AtomOp::UMax,
                            "inc" => AtomOp::Inc,
                            "dec" => AtomOp::Dec,
                            "and" => AtomOp::And,
                            "or" => AtomOp::Or,
                            "xor" => AtomOp::Xor,
                            "cas" => AtomOp::Cas,
                            _ => return None,
                        })
                    })
                    .ok_or_else(|| format!("{opc}.{}: unknown operation", toks.join(".")))?;
                if opc == "red" {
                    need(2)?;
                    let d = self.b.reg();
                    self.b.emit(Inst::Atom { op: aop, space, ty, dst: d, addr: o[0], offset, a: o[1], b: o[1] });
                } else {
                    need(if aop == AtomOp::Cas { 4 } else { 3 })?;
                    let b = if aop == AtomOp::Cas { o[3] } else { o[2] };
                    self.b.emit(Inst::Atom { op: aop, space, ty, dst: o[0], addr: o[1], offset, a: o[2], b });
                }
            }
            "bar" | "barrier" => {
                if has("warp") {
                    need(1)?;
                    self.b.emit(Inst::WarpSync { mask: o[0] });
                } else if has("red") {
                    need(3)?;
                    let red = if has("popc") {
                        BarRed::Popc
                    } else if has("and") {
                        BarRed::And
                    } else {
                        BarRed::Or
                    };
                    let (dst, pred) = (o[0], o[o.len() - 1]);
                    self.b.emit(Inst::Barrier { red: Some(red), dst, pred });
                } else if o.len() == 2 || has("arrive") {
                    // bar.sync id, count / bar.arrive id, count: a named barrier.
                    need(2)?;
                    self.b.emit(Inst::NamedBarrier { id: o[0], count: o[1], arrive: has("arrive") });
                } else {
                    self.b.emit(Inst::Barrier { red: None, dst: 0, pred: 0 });
                }
            }
            "membar" | "fence" => self.b.emit(Inst::Fence),
            "shfl" => {
                let mode = if has("up") {
                    ShflMode::Up
                } else if has("down") {
                    ShflMode::Down
                } else if has("bfly") {
                    ShflMode::Bfly
                } else {
                    ShflMode::Idx
                };
                // shfl.sync d[|p], a, b, c, mask
                match o.len() {
                    5 => self.b.emit(Inst::Shfl { mode, dst: o[0], pred_dst: None, val: o[1], lane: o[2], clamp: o[3], mask: o[4] }),
                    6 => self.b.emit(Inst::Shfl { mode, dst: o[0], pred_dst: Some(o[1]), val: o[2], lane: o[3], clamp: o[4], mask: o[5] }),
                    _ => return Err("shfl.sync needs a destination, three sources and a mask".into()),
                }
            }
            "vote" => {
                need(3)?;
                let mode = if has("ballot") {
                    VoteMode::Ballot
                } else if has("all") {
                    VoteMode::All
                } else if has("any") {
                    VoteMode::Any
                } else {
                    VoteMode::Uni
                };
                self.b.emit(Inst::Vote { mode, dst: o[0], pred: o[1], neg: false, mask: o[2] });
            }
            "match" => {
                // match.any.sync.b32 d, a, mask; match.all.sync.b32 d[|p], a, mask
                let all = has("all");
                let (dst, pred, val, mask) = match o.len() {
                    3 => (o[0], None, o[1], o[2]),
                    4 if all => (o[0], Some(o[1]), o[2], o[3]),
                    _ => return Err(format!("match.{}: expected d[|p], a, membermask", toks.join("."))),
                };
                self.b.emit(Inst::Match { all, ty, dst, pred, val, mask });
            }
            "dp4a" => {
                need(4)?;
                let kinds: Vec<bool> = toks.iter().filter_map(|t| tyk(t)).map(|(_, k)| k == K::S).collect();
                let [a_signed, b_signed] = kinds[..] else {
                    return Err(format!("dp4a.{}: expected two operand types", toks.join(".")));
                };
                self.b.emit(Inst::Tern { op: TernOp::Dp4a { a_signed, b_signed }, dst: o[0], a: o[1], b: o[2], c: o[3] });
            }
            "activemask" => {
                need(1)?;
                self.b.emit(Inst::Activemask { dst: o[0] });
            }
            "redux" => {
                need(3)?;
                let signed = k == K::S;
                let op = match toks.iter().find(|t| matches!(**t, "add" | "min" | "max" | "and" | "or" | "xor")).copied() {
                    Some("add") => AtomOp::Add,
                    Some("min") if signed => AtomOp::SMin,
                    Some("max") if signed => AtomOp::SMax,
                    Some("min") => AtomOp::UMin,
                    Some("max") => AtomOp::UMax,
                    Some("and") => AtomOp::And,
                    Some("or") => AtomOp::Or,
                    Some("xor") => AtomOp::Xor,
                    _ => return Err(format!("redux.{}: only the 32-bit integer reductions are simulated", toks.join("."))),
                };
                self.b.emit(Inst::Redux { op, dst: o[0], val: o[1], mask: o[2] });
            }
            "fns" => {
                need(4)?;
                self.b.emit(Inst::Fns { dst: o[0], mask: o[1], base: o[2], offset: o[3] });
            }
            "sqrt" if has("approx") => un!(UnOp::SqrtApprox(mode)),
            "sqrt" => un!(UnOp::Sqrt(mode)),
            "rsqrt" => un!(UnOp::Rsqrt(mode)),
            "rcp" if has("approx") => un!(UnOp::RcpApprox(mode)),
            "rcp" => un!(UnOp::Rcp(mode)),
            "ex2" => un!(UnOp::Ex2(mode)),
            "lg2" => un!(UnOp::Lg2(mode)),
            "sin" => un!(UnOp::Sin(mode)),
            "cos" => un!(UnOp::Cos(mode)),
            "tanh" => un!(UnOp::Tanh(mode)),
            "popc" => un!(UnOp::Popc),
            "clz" => un!(UnOp::Clz),
            "brev" => un!(UnOp::Brev),
            // `tex.[level.]<geom>.v4.<result>.<coords> d0..d3, t, coords.., [level]`.
            "tex" => {
                need(6)?;
                let geom = toks.iter().find(|t| crate::texture::Geom::parse(t).is_some()).copied().unwrap_or("");
                let float_out = toks.iter().position(|t| *t == "v4").and_then(|i| toks.get(i + 1)) == Some(&"f32");
                let int_coords = toks.last() == Some(&"s32") && geom == "1d";
                let i = super::tex_inst(geom, float_out, int_coords, &o[..4], o[4], &o[5..])?;
                self.b.emit(i);
            }
            "bfind" => un!(UnOp::Bfind { signed: k == K::S, shiftamt: has("shiftamt") }),
            "testp" => {
                let op = if has("finite") {
                    UnOp::IsFinite
                } else if has("infinite") {
                    UnOp::IsInf
                } else if has("number") {
                    return Err("testp.number is not simulated".into());
                } else if has("notanumber") {
                    UnOp::IsNan
                } else if has("normal") {
                    UnOp::IsNormal
                } else {
                    UnOp::IsSubnormal
                };
                un!(op)
            }
            "bfe" => {
                need(4)?;
                self.bfe(ty, k == K::S, o)?;
            }
            "bfi" => {
                need(5)?;
                self.bfi(ty, o);
            }
            "prmt" => {
                need(4)?;
                if ["f4e", "b4e", "rc8", "ecl", "ecr", "rc16"].iter().any(|m| has(m)) {
                    return Err(format!("prmt's mode '{}' is not simulated", toks.join(".")));
                }
                self.b.emit(Inst::Tern { op: TernOp::Prmt, dst: o[0], a: o[1], b: o[2], c: o[3] });
            }
            "shf" => {
                need(4)?;
                self.b.emit(Inst::Tern { op: TernOp::Shf { left: has("l"), clamp: has("clamp") }, dst: o[0], a: o[1], b: o[2], c: o[3] });
            }
            "trap" => self.b.emit(Inst::Trap),
            "exit" => self.b.emit(Inst::Exit),
            other => {
                return Err(format!(
                    "the simulator has no semantics for PTX instruction '{other}{}{}'",
                    if toks.is_empty() { "" } else { "." },
                    toks.join(".")
                ));
            }
        }
        Ok(())
    }

    /// `bfe d, a, pos, len`: extracts `len` bits at `pos` (sign-extended for `.s`).
    fn bfe(&mut self, ty: Ty, signed: bool, o: &[Reg]) -> Result<(), String> {
        // d = len == 0 ? 0 : (a << (w - pos - len)) >> (w - len), with shifts clamped.
        let w = self.b.konst(ty.bits() as u64);
        let mask8 = self.b.konst(0xff);
        let (pos, len) = (self.b.reg(), self.b.reg());
        self.b.emit(Inst::Bin { op: BinOp::And, ty: Ty::I32, dst: pos, a: o[2], b: mask8 });
        self.b.emit(Inst::Bin { op: BinOp::And, ty: Ty::I32, dst: len, a: o[3], b: mask8 });
        let wl = self.b.reg();
        self.b.emit(Inst::Bin { op: BinOp::Sub, ty: Ty::I32, dst: wl, a: w, b: len });
        let lsh = self.b.reg();
        self.b.emit(Inst::Bin { op: BinOp::Sub, ty: Ty::I32, dst: lsh, a: wl, b: pos });
        // pos + len > w: take bits up to the top (lsh clamps at 0).
        let neg = self.b.reg();
        let zero = self.b.konst(0);
        self.b.emit(Inst::Cmp { cmp: Cmp::SLt, ty: Ty::I32, ftz: false, dst: neg, a: lsh, b: zero });
        let lsh2 = self.b.reg();
        self.b.emit(Inst::Select { dst: lsh2, cond: neg, a: zero, b: lsh });
        let rsh = self.b.reg();
        self.b.emit(Inst::Bin { op: BinOp::Add, ty: Ty::I32, dst: rsh, a: lsh2, b: pos });
        let t = self.b.reg();
        self.b.emit(Inst::Bin { op: BinOp::Shl, ty, dst: t, a: o[1], b: lsh2 });
        let r = self.b.reg();
        self.b.emit(Inst::Bin { op: if signed { BinOp::AShr } else { BinOp::LShr }, ty, dst: r, a: t, b: rsh });
        let is0 = self.b.reg();
        self.b.emit(Inst::Cmp { cmp: Cmp::Eq, ty: Ty::I32, ftz: false, dst: is0, a: len, b: zero });
        self.b.emit(Inst::Select { dst: o[0], cond: is0, a: zero, b: r });
        Ok(())
    }

    /// `cp.async.{ca,cg}.shared.global [d], [s], size[, src_size]`: done at once (a copy
    /// that completes before `cp.async.wait_group` returns may as well complete at issue:
    /// reading the destination earlier is a race); bytes past `src_size` are zeros. The
    /// group fences do nothing.
    fn cp_async(&mut self, ctx: &Context, toks: &[&str], args: &[ValueId], o: &[Reg], offset: i64) -> Result<(), String> {
        if toks.iter().any(|t| matches!(*t, "commit_group" | "wait_group" | "wait_all")) {
            return Ok(());
        }
        let imm = |i: usize| args.get(i).and_then(|&a| ctx.defining_op(a)).and_then(|d| ptx::int_immediate(ctx, d));
        let (Some(size), [dst, src, ..]) = (imm(2), o) else {
            return Err(format!("cp.{}: expected [dst], [src], size with an immediate size", toks.join(".")));
        };
        let src_size = match args.len() {
            3 => size,
            4 => imm(3).ok_or_else(|| format!("cp.{}: a source size in a register is not simulated", toks.join(".")))?,
            _ => return Err(format!("cp.{}: expected [dst], [src], size[, src_size]", toks.join("."))),
        };
        if !matches!(size, 4 | 8 | 16) || !(0..=size).contains(&src_size) || src_size % 4 != 0 {
            return Err(format!("cp.{}: sizes {size} and {src_size} are not simulated", toks.join(".")));
        }
        // The offset (one address may carry one) belongs to whichever address had it: the
        // reader records it once; PTX compilers put none on cp.async.
        if offset != 0 {
            return Err(format!("cp.{}: an address offset is not simulated", toks.join(".")));
        }
        let zero = self.b.konst(0);
        for k in 0..size / 4 {
            let v = if k * 4 < src_size {
                let t = self.b.reg();
                self.b.emit(Inst::Load { space: Space::Global, ty: Ty::I32, dst: t, addr: *src, offset: k as i64 * 4, align: 4 });
                t
            } else {
                zero
            };
            self.b.emit(Inst::Store { space: Space::Shared, ty: Ty::I32, src: v, addr: *dst, offset: k as i64 * 4, align: 4 });
        }
        Ok(())
    }

    /// `bfi d, a, b, pos, len`: inserts the low `len` bits of `a` into `b` at `pos`.
    fn bfi(&mut self, ty: Ty, o: &[Reg]) {
        let mask8 = self.b.konst(0xff);
        let (pos, len) = (self.b.reg(), self.b.reg());
        self.b.emit(Inst::Bin { op: BinOp::And, ty: Ty::I32, dst: pos, a: o[3], b: mask8 });
        self.b.emit(Inst::Bin { op: BinOp::And, ty: Ty::I32, dst: len, a: o[4], b: mask8 });
        let ones = self.b.konst(ty.mask());
        let w = self.b.konst(ty.bits() as u64);
        let sh = self.b.reg();
        self.b.emit(Inst::Bin { op: BinOp::Sub, ty: Ty::I32, dst: sh, a: w, b: len });
        let m0 = self.b.reg();
        self.b.emit(Inst::Bin { op: BinOp::LShr, ty, dst: m0, a: ones, b: sh });
        let zero = self.b.konst(0);
        let is0 = self.b.reg();
        self.b.emit(Inst::Cmp { cmp: Cmp::Eq, ty: Ty::I32, ftz: false, dst: is0, a: len, b: zero });
        let m1 = self.b.reg();
        self.b.emit(Inst::Select { dst: m1, cond: is0, a: zero, b: m0 });
        let m = self.b.reg();
        self.b.emit(Inst::Bin { op: BinOp::Shl, ty, dst: m, a: m1, b: pos });
        let ins = self.b.reg();
        self.b.emit(Inst::Bin { op: BinOp::Shl, ty, dst: ins, a: o[1], b: pos });
        let insm = self.b.reg();
        self.b.emit(Inst::Bin { op: BinOp::And, ty, dst: insm, a: ins, b: m });
        let nm = self.b.reg();
        self.b.emit(Inst::Un { op: UnOp::Not, ty, dst: nm, a: m });
        let keep = self.b.reg();
        self.b.emit(Inst::Bin { op: BinOp::And, ty, dst: keep, a: o[2], b: nm });
        self.b.emit(Inst::Bin { op: BinOp::Or, ty, dst: o[0], a: keep, b: insm });
    }
}

fn space_tok(toks: &[&str]) -> Option<Space> {
    toks.iter().find_map(|t| {
        Some(match *t {
            "global" => Space::Global,
            "shared" => Space::Shared,
            "local" => Space::Local,
            "const" => Space::Const,
            "param" => Space::Param,
            _ => return None,
        })
    })
}

fn setp_cmp(c: &str, k: K) -> Option<Cmp> {
    use Cmp::*;
    let signed = k == K::S;
    Some(match (c, k) {
        ("eq", K::F) => FOeq,
        ("ne", K::F) => FOne,
        ("lt", K::F) => FOlt,
        ("le", K::F) => FOle,
        ("gt", K::F) => FOgt,
        ("ge", K::F) => FOge,
        ("equ", _) => FUeq,
        ("neu", _) => FUne,
        ("ltu", _) => FUlt,
        ("leu", _) => FUle,
        ("gtu", _) => FUgt,
        ("geu", _) => FUge,
        ("num", _) => FOrd,
        ("nan", _) => FUno,
        ("eq", _) => Eq,
        ("ne", _) => Ne,
        ("lt", _) if signed => SLt,
        ("le", _) if signed => SLe,
        ("gt", _) if signed => SGt,
        ("ge", _) if signed => SGe,
        ("lt" | "lo", _) => ULt,
        ("le" | "ls", _) => ULe,
        ("gt" | "hi", _) => UGt,
        ("ge" | "hs", _) => UGe,
        _ => return None,
    })
}

fn special(s: &str) -> Option<Sreg> {
    let dim = |c: &str| -> Option<u8> {
        match c {
            "x" => Some(0),
            "y" => Some(1),
            "z" => Some(2),
            _ => None,
        }
    };
    if let Some((r, d)) = s.split_once('.') {
        let d = dim(d)?;
        return Some(match r {
            "tid" => Sreg::Tid(d),
            "ntid" => Sreg::Ntid(d),
            "ctaid" => Sreg::Ctaid(d),
            "nctaid" => Sreg::Nctaid(d),
            _ => return None,
        });
    }
    Some(match s {
        "laneid" => Sreg::LaneId,
        "warpid" => Sreg::WarpId,
        "clock" => Sreg::Clock,
        "clock64" => Sreg::Clock64,
        "lanemask_lt" => Sreg::LaneMaskLt,
        "lanemask_le" => Sreg::LaneMaskLe,
        "lanemask_eq" => Sreg::LaneMaskEq,
        "lanemask_ge" => Sreg::LaneMaskGe,
        "lanemask_gt" => Sreg::LaneMaskGt,
        "WARP_SZ" => Sreg::WarpSize,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::{layout, param_layout};

    #[test]
    fn param_layouts_read_the_pointee_alignment_of_ptr_as_the_pointees() {
        assert_eq!(param_layout(".u64"), (8, 8));
        assert_eq!(param_layout(".align 8 .b8 [16]"), (16, 8));
        // LLVM's `.ptr .align 1`: the pointee's alignment; the parameter is a .u64.
        assert_eq!(param_layout(".u64 .ptr .align 1"), (8, 8));
        assert_eq!(param_layout(".u64 .ptr .global .align 16"), (8, 8));
        let decls: Vec<String> = [".align 1 .b8 [1]", ".u64 .ptr .align 1", ".u32"].iter().map(|s| s.to_string()).collect();
        assert_eq!(layout(&decls), vec![(0, 1), (8, 8), (16, 4)]);
    }
}
