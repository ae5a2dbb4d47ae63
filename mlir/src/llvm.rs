//! The second backend: cuprite's `nvvm` level through upstream's `llvm` and `nvvm` dialects,
//! MLIR's translation to LLVM IR, LLVM's optimizer and its NVPTX backend, to PTX.
//!
//! [`to_llvm_dialect`] writes the module in the `llvm` dialect's custom form (with
//! upstream `nvvm` ops for the special registers), op by op:
//! - arithmetic, comparisons, casts, `select`, branches, calls, returns: their `llvm`
//!   namesakes (`nsw` as `overflow<nsw>`, `contract` as a fast-math flag; under fast math
//!   every float op gets `fast` and functions flush f32 denormals, as `--use_fast_math`);
//! - `ptradd` as an `i8` `getelementptr`; `alloca` as a generic-space byte array cast to
//!   the local space (as clang writes NVPTX allocas); loads and stores with their alignment,
//!   `volatile`, and `.nc` loads as `invariant`; atomics with the scope as an LLVM sync scope
//!   (`block`, `device`, system);
//! - globals as `llvm.mlir.global` byte arrays in their address space (shared ones
//!   undefined, others zero or their initializer);
//! - kernels carry `nvvm.kernel`, `nvvm.maxntid` and `nvvm.minctasm`;
//! - `intr` (PTX-named intrinsics with rounding modes) as the LLVM intrinsic that has that
//!   meaning (`fma.rn` f32 is `llvm.fma.f32`, `add.rz` is `llvm.nvvm.add.rz.f`, `clz` is
//!   `llvm.ctlz`, bf16 arithmetic on `i16` bits through `bfloat`...); warp and block
//!   collectives, fences and texture fetches likewise. What has no LLVM counterpart is an
//!   error naming it, never a guess.
//!
//! [`compile`] parses that text into a context with upstream's `llvm` and `nvvm` dialects,
//! verifies it, translates it to LLVM IR, runs LLVM's `default<On>` pipeline with the
//! NVPTX target machine (`sm_<N>`) and prints PTX (or the optimized LLVM IR).

use crate::bridge::{sref, Error};
use cuprite_dialects::nvvm;
use cuprite_ir::{AttrKind, BlockId, Context, OpId, TypeId, TypeKind, ValueId};
use rustc_hash::FxHashMap;
use std::ffi::{c_char, c_void, CStr, CString};
use std::fmt::Write;

/// What [`compile`] is asked for.
#[derive(Clone, Debug)]
pub struct LlvmOptions {
    /// `sm_<N>`: the NVPTX CPU.
    pub sm: u32,
    /// `-O0` .. `-O3`: LLVM's pipeline and code generation level.
    pub opt_level: u8,
    /// `--use_fast_math`: `fast` on every float op and f32 denormals flushed.
    pub fast_math: bool,
    /// Print the optimized LLVM IR instead of PTX.
    pub emit_llvm: bool,
}

/// The `llvm`-dialect text of cuprite's `nvvm`-level `module`.
pub fn to_llvm_dialect(ctx: &Context, module: OpId, fast_math: bool) -> Result<String, Error> {
    let mut w = Writer { ctx, out: String::new(), names: FxHashMap::default(), blocks: FxHashMap::default(), fast_math, tmp: 0 };
    w.out.push_str("module {\n");
    let body = ctx.entry_block(ctx.region(module, 0)).ok_or_else(|| Error("an empty module".into()))?;
    for op in ctx.block_ops(body) {
        match ctx.op_name_str(op) {
            "nvvm.global" => w.global(op)?,
            "nvvm.func" => w.func(op)?,
            other => return Err(Error(format!("--backend=llvm takes an nvvm-level module, and it holds `{other}`"))),
        }
    }
    w.out.push_str("}\n");
    Ok(w.out)
}

struct Writer<'c> {
    ctx: &'c Context,
    out: String,
    names: FxHashMap<ValueId, String>,
    blocks: FxHashMap<BlockId, String>,
    fast_math: bool,
    tmp: u32,
}

/// An atomic's scope as an LLVM sync scope (NVPTX's `block`, `device`; none is system).
fn sync_scope(scope: Option<nvvm::Scope>) -> &'static str {
    match scope {
        Some(nvvm::Scope::Cta) => " syncscope(\"block\")",
        Some(nvvm::Scope::Gpu) | None => " syncscope(\"device\")",
        Some(nvvm::Scope::Sys) => "",
    }
}

/// `@name`, quoted (symbols may hold `$` and `.`).
fn sym(name: &str) -> String {
    format!("@\"{}\"", name.replace('\\', "\\5C").replace('"', "\\22"))
}

impl Writer<'_> {
    fn ty(&self, t: TypeId) -> String {
        cuprite_ir::print::type_to_string(self.ctx, t)
    }

    fn vty(&self, v: ValueId) -> String {
        self.ty(self.ctx.value_type(v))
    }

    fn v(&mut self, v: ValueId) -> String {
        let n = self.names.len();
        self.names.entry(v).or_insert_with(|| format!("%v{n}")).clone()
    }

    fn fresh(&mut self) -> String {
        self.tmp += 1;
        format!("%t{}", self.tmp)
    }

    fn block(&mut self, b: BlockId) -> String {
        let n = self.blocks.len();
        self.blocks.entry(b).or_insert_with(|| format!("^bb{n}")).clone()
    }

    fn line(&mut self, s: &str) {
        self.out.push_str("    ");
        self.out.push_str(s);
        self.out.push('\n');
    }

    fn err(&self, op: OpId, what: &str) -> Error {
        Error(format!("--backend=llvm: {what} (`{}`)", cuprite_ir::print::print_op(self.ctx, op, Default::default()).trim()))
    }

    fn global(&mut self, op: OpId) -> Result<(), Error> {
        let ctx = self.ctx;
        let g = nvvm::GlobalOp(op);
        let name = g.sym_name(ctx).ok_or_else(|| self.err(op, "a global without a name"))?;
        let space = g.space(ctx).map_or(0, |s| s as i64);
        let external = g.extern_attr(ctx).is_some();
        // An `extern` (dynamic shared memory) is an unsized array: `.b8 name[]`.
        let size = if external { 0 } else { g.size(ctx).unwrap_or(0).max(1) };
        let align = g.align(ctx).unwrap_or(1);
        let ty = format!("!llvm.array<{size} x i8>");
        let attrs = format!("{{addr_space = {space} : i32, alignment = {align} : i64}}");
        if let Some(init) = g.init_attr(ctx) {
            let AttrKind::DenseArray { values, .. } = ctx.attr_kind(init) else {
                return Err(self.err(op, "an initializer that is not bytes"));
            };
            let mut bytes: Vec<String> = values.iter().map(|b| (*b as i8).to_string()).collect();
            bytes.resize(size as usize, "0".into());
            let constant = if space == nvvm::Space::Constant as i64 || g.readonly(ctx) { "constant " } else { "" };
            let _ = writeln!(
                self.out,
                "  llvm.mlir.global internal {constant}{}(dense<[{}]> : tensor<{size}xi8>) {attrs} : {ty}",
                sym(name),
                bytes.join(", ")
            );
        } else if external {
            let _ = writeln!(self.out, "  llvm.mlir.global external {}() {attrs} : {ty}", sym(name));
        } else {
            let (linkage, init) =
                if space == nvvm::Space::Shared as i64 { ("internal", "llvm.mlir.undef") } else { ("", "llvm.mlir.zero") };
            let _ = writeln!(
                self.out,
                "  llvm.mlir.global {linkage} {}() {attrs} : {ty} {{\n    %0 = {init} : {ty}\n    llvm.return %0 : {ty}\n  }}",
                sym(name)
            );
        }
        Ok(())
    }

    fn func(&mut self, op: OpId) -> Result<(), Error> {
        let ctx = self.ctx;
        let f = nvvm::FuncOp(op);
        let name = f.sym_name(ctx).ok_or_else(|| self.err(op, "a function without a name"))?.to_string();
        let fty = f.function_type(ctx).ok_or_else(|| self.err(op, "a function without a type"))?;
        let TypeKind::Function { inputs, results } = ctx.type_kind(fty) else { return Err(self.err(op, "a function without a type")) };
        if results.len() > 1 {
            return Err(self.err(op, "a function with several results"));
        }
        let ret = results.first().map(|&r| format!(" -> {}", self.ty(r))).unwrap_or_default();
        let kernel = f.kind(ctx) == Some(nvvm::FuncKind::Kernel);
        let mut attrs = Vec::new();
        if kernel {
            attrs.push("nvvm.kernel".to_string());
        }
        if let Some(a) = f.maxntid_attr(ctx) {
            attrs.push(format!("nvvm.maxntid = {}", cuprite_ir::print::attr_to_string(ctx, a)));
        }
        if let Some(n) = f.minnctapersm(ctx) {
            attrs.push(format!("nvvm.minctasm = {n} : i32"));
        }
        if self.fast_math {
            attrs.push("denormal_fp_math_f32 = \"preserve-sign\"".into());
        }
        let attrs = if attrs.is_empty() { String::new() } else { format!(" attributes {{{}}}", attrs.join(", ")) };
        let region = ctx.regions(op).first().copied();
        let blocks: Vec<BlockId> = region.map(|r| ctx.region_blocks(r).to_vec()).unwrap_or_default();
        if blocks.is_empty() {
            let params: Vec<String> = inputs.iter().map(|&t| self.ty(t)).collect();
            let _ = writeln!(self.out, "  llvm.func {}({}){ret}{attrs}", sym(&name), params.join(", "));
            return Ok(());
        }
        self.names.clear();
        self.blocks.clear();
        let linkage = if kernel { "" } else { "internal " };
        let args = ctx.block_args(blocks[0]).to_vec();
        // A struct by value is one byte block at the kernel's boundary (the attribute
        // `cuprite.byval`): LLVM's `byval` pointer, whose scalars the entry block loads.
        let mut params = Vec::new();
        let mut loads = Vec::new();
        for p in cuprite_dialects::nvvm::kernel_abi::kernel_params(ctx, op, args.len()) {
            match p {
                cuprite_dialects::nvvm::kernel_abi::KernelParam::Scalar(i) => {
                    let a = args[i];
                    params.push(format!("{}: {}", self.v(a), self.vty(a)));
                }
                cuprite_dialects::nvvm::kernel_abi::KernelParam::ByVal { size, align, leaves } => {
                    let base = self.fresh();
                    params
                        .push(format!("{base}: !llvm.ptr {{llvm.byval = !llvm.array<{} x i8>, llvm.align = {align} : i64}}", size.max(1)));
                    for (i, off) in leaves {
                        let a = args[i];
                        let (name, ty) = (self.v(a), self.vty(a));
                        let at = self.fresh();
                        let al = if off == 0 { align } else { align.min(1 << off.trailing_zeros()) };
                        loads.push(format!("{at} = llvm.getelementptr {base}[{off}] : (!llvm.ptr) -> !llvm.ptr, i8"));
                        loads.push(format!("{name} = llvm.load {at} {{alignment = {al} : i64}} : !llvm.ptr -> {ty}"));
                    }
                }
            }
        }
        let _ = writeln!(self.out, "  llvm.func {linkage}{}({}){ret}{attrs} {{", sym(&name), params.join(", "));
        for l in loads {
            self.line(&l);
        }
        for (i, &b) in blocks.iter().enumerate() {
            if i > 0 {
                let label = self.block(b);
                let args: Vec<String> = ctx.block_args(b).to_vec().into_iter().map(|a| format!("{}: {}", self.v(a), self.vty(a))).collect();
                if args.is_empty() {
                    let _ = writeln!(self.out, "  {label}:");
                } else {
                    let _ = writeln!(self.out, "  {label}({}):", args.join(", "));
                }
            } else {
                // The entry block has no label; a branch back to it needs one.
                if ctx.has_predecessors(b) {
                    return Err(self.err(op, "a branch to the entry block"));
                }
                self.block(b);
            }
            for o in ctx.block_ops(b).collect::<Vec<_>>() {
                self.op(o)?;
            }
        }
        self.out.push_str("  }\n");
        Ok(())
    }

    /// `(%a, %b : T, U)` for a branch's operands, or nothing.
    fn succ_args(&mut self, vals: &[ValueId]) -> String {
        if vals.is_empty() {
            return String::new();
        }
        let names: Vec<String> = vals.iter().map(|&v| self.v(v)).collect();
        let tys: Vec<String> = vals.iter().map(|&v| self.vty(v)).collect();
        format!("({} : {})", names.join(", "), tys.join(", "))
    }

    fn float_flags(&self, op: OpId) -> String {
        if self.fast_math {
            " {fastmathFlags = #llvm.fastmath<fast>}".into()
        } else if self.ctx.get_attr(op, "contract").is_some() {
            " {fastmathFlags = #llvm.fastmath<contract>}".into()
        } else {
            String::new()
        }
    }

    fn op(&mut self, op: OpId) -> Result<(), Error> {
        let ctx = self.ctx;
        let name = ctx.op_name_str(op).strip_prefix("nvvm.").ok_or_else(|| self.err(op, "an op of another dialect"))?.to_string();
        let ops: Vec<ValueId> = ctx.operands(op).collect();
        let o: Vec<String> = ops.iter().map(|&v| self.v(v)).collect();
        let res = ctx.results(op).first().copied();
        let r = res.map(|v| self.v(v)).unwrap_or_default();
        let rt = res.map(|v| self.vty(v)).unwrap_or_default();
        let t0 = ops.first().map(|&v| self.vty(v)).unwrap_or_default();
        match name.as_str() {
            "return" => {
                if ops.is_empty() {
                    self.line("llvm.return");
                } else {
                    self.line(&format!("llvm.return {} : {t0}", o[0]));
                }
            }
            "br" => {
                let b = ctx.successor(op, 0);
                let label = self.block(b);
                let args = self.succ_args(&ops);
                self.line(&format!("llvm.br {label}{args}"));
            }
            "cond_br" => {
                let seg = match ctx.get_attr(op, "operandSegmentSizes").map(|a| ctx.attr_kind(a)) {
                    Some(AttrKind::DenseArray { values, .. }) if values.len() == 3 => values.clone(),
                    _ => vec![1, 0, (ops.len() as i64 - 1).max(0)],
                };
                let (nt, _) = (seg[1] as usize, seg[2] as usize);
                let (t, f) = (self.block(ctx.successor(op, 0)), self.block(ctx.successor(op, 1)));
                let ta = self.succ_args(&ops[1..1 + nt]);
                let fa = self.succ_args(&ops[1 + nt..]);
                self.line(&format!("llvm.cond_br {}, {t}{ta}, {f}{fa}", o[0]));
            }
            "unreachable" => self.line("llvm.unreachable"),
            "constant" => {
                let a = ctx.get_attr(op, "value").ok_or_else(|| self.err(op, "a constant without a value"))?;
                let text = match ctx.attr_kind(a) {
                    AttrKind::Integer { value, .. } if rt == "i1" => (if *value != 0 { "true" } else { "false" }).to_string(),
                    _ => cuprite_ir::print::attr_to_string(ctx, a),
                };
                self.line(&format!("{r} = llvm.mlir.constant({text}) : {rt}"));
            }
            "null" => self.line(&format!("{r} = llvm.mlir.zero : {rt}")),
            "addressof" => {
                let callee = match ctx.get_attr(op, "name").map(|a| ctx.attr_kind(a)) {
                    Some(AttrKind::SymbolRef { root, .. }) => ctx.str(*root).to_string(),
                    _ => return Err(self.err(op, "addressof without a symbol")),
                };
                self.line(&format!("{r} = llvm.mlir.addressof {} : {rt}", sym(&callee)));
            }
            "call" => {
                let callee = match ctx.get_attr(op, "callee").map(|a| ctx.attr_kind(a)) {
                    Some(AttrKind::SymbolRef { root, .. }) => ctx.str(*root).to_string(),
                    _ => return Err(self.err(op, "a call without a callee")),
                };
                let tys: Vec<String> = ops.iter().map(|&v| self.vty(v)).collect();
                let results: Vec<String> = ctx.results(op).iter().map(|&v| self.vty(v)).collect();
                let lhs = if res.is_some() { format!("{r} = ") } else { String::new() };
                let ret = if results.is_empty() { "()".to_string() } else { results.join(", ") };
                self.line(&format!("{lhs}llvm.call {}({}) : ({}) -> {ret}", sym(&callee), o.join(", "), tys.join(", ")));
            }
            "add" | "sub" | "mul" | "shl" => {
                let nsw = if ctx.get_attr(op, "nsw").is_some() { " overflow<nsw>" } else { "" };
                self.line(&format!("{r} = llvm.{name} {}, {}{nsw} : {rt}", o[0], o[1]));
            }
            "sdiv" | "udiv" | "srem" | "urem" | "lshr" | "ashr" => self.line(&format!("{r} = llvm.{name} {}, {} : {rt}", o[0], o[1])),
            "and" | "or" | "xor" => self.line(&format!("{r} = llvm.{name} {}, {} : {rt}", o[0], o[1])),
            "fadd" | "fsub" | "fmul" | "fdiv" | "frem" => {
                let f = self.float_flags(op);
                self.line(&format!("{r} = llvm.{name} {}, {}{f} : {rt}", o[0], o[1]));
            }
            "fneg" => {
                let f = self.float_flags(op);
                self.line(&format!("{r} = llvm.fneg {}{f} : {rt}", o[0]));
            }
            "icmp" => {
                // Our predicates' keywords are LLVM's.
                let p = nvvm::ICmpOp(op).predicate(ctx).map(|p| p.keyword()).ok_or_else(|| self.err(op, "an unknown predicate"))?;
                self.line(&format!("{r} = llvm.icmp \"{p}\" {}, {} : {t0}", o[0], o[1]));
            }
            "fcmp" => {
                let p = nvvm::FCmpOp(op).predicate(ctx).map(|p| p.keyword()).ok_or_else(|| self.err(op, "an unknown predicate"))?;
                let f = self.float_flags(op);
                self.line(&format!("{r} = llvm.fcmp \"{p}\" {}, {}{f} : {t0}", o[0], o[1]));
            }
            "select" => self.line(&format!("{r} = llvm.select {}, {}, {} : i1, {rt}", o[0], o[1], o[2])),
            "trunc" | "zext" | "sext" | "fptosi" | "fptoui" | "sitofp" | "uitofp" | "fpext" | "fptrunc" | "bitcast" | "ptrtoint"
            | "inttoptr" | "addrspacecast" => self.line(&format!("{r} = llvm.{name} {} : {t0} to {rt}", o[0])),
            "ptradd" => {
                let t1 = self.vty(ops[1]);
                self.line(&format!("{r} = llvm.getelementptr {}[{}] : ({t0}, {t1}) -> {rt}, i8", o[0], o[1]));
            }
            "alloca" => {
                let a = nvvm::AllocaOp(op);
                let size = a.size(ctx).unwrap_or(1).max(1);
                let align = a.align(ctx).unwrap_or(1);
                let (one, p) = (self.fresh(), self.fresh());
                self.line(&format!("{one} = llvm.mlir.constant(1 : i32) : i32"));
                self.line(&format!(
                    "{p} = llvm.alloca {one} x !llvm.array<{size} x i8> {{alignment = {align} : i64}} : (i32) -> !llvm.ptr"
                ));
                if rt == "!llvm.ptr" {
                    self.line(&format!("{r} = llvm.bitcast {p} : !llvm.ptr to !llvm.ptr"));
                } else {
                    self.line(&format!("{r} = llvm.addrspacecast {p} : !llvm.ptr to {rt}"));
                }
            }
            "load" => {
                let l = nvvm::LoadOp(op);
                let vol = if l.volatile(ctx) { "volatile " } else { "" };
                let inv = if l.cache(ctx) == Some("nc") || l.invariant(ctx) { " invariant" } else { "" };
                let align = l.align(ctx).map(|a| format!(" {{alignment = {a} : i64}}")).unwrap_or_default();
                self.line(&format!("{r} = llvm.load {vol}{}{inv}{align} : {t0} -> {rt}", o[0]));
            }
            "store" => {
                let st = nvvm::StoreOp(op);
                let vol = if st.volatile(ctx) { "volatile " } else { "" };
                let align = st.align(ctx).map(|a| format!(" {{alignment = {a} : i64}}")).unwrap_or_default();
                let t1 = self.vty(ops[1]);
                self.line(&format!("llvm.store {vol}{}, {}{align} : {t0}, {t1}", o[0], o[1]));
            }
            "atomicrmw" => {
                let a = nvvm::AtomicRmwOp(op);
                // Our kinds in LLVM's words.
                let k = match a.kind(ctx).ok_or_else(|| self.err(op, "an unknown atomic"))? {
                    nvvm::RmwKind::Exch => "xchg",
                    nvvm::RmwKind::Smin => "min",
                    nvvm::RmwKind::Smax => "max",
                    nvvm::RmwKind::Inc => "uinc_wrap",
                    nvvm::RmwKind::Dec => "udec_wrap",
                    nvvm::RmwKind::And => "_and",
                    nvvm::RmwKind::Or => "_or",
                    nvvm::RmwKind::Xor => "_xor",
                    other => other.keyword(),
                };
                let scope = sync_scope(a.scope(ctx));
                let t1 = self.vty(ops[1]);
                self.line(&format!("{r} = llvm.atomicrmw {k} {}, {}{scope} monotonic : {t0}, {t1}", o[0], o[1]));
            }
            "cmpxchg" => {
                let scope = sync_scope(nvvm::CmpXchgOp(op).scope(ctx));
                let t1 = self.vty(ops[1]);
                let pair = self.fresh();
                self.line(&format!("{pair} = llvm.cmpxchg {}, {}, {}{scope} monotonic monotonic : {t0}, {t1}", o[0], o[1], o[2]));
                self.line(&format!("{r} = llvm.extractvalue {pair}[0] : !llvm.struct<({t1}, i1)>"));
            }
            "sreg" => {
                // `tid_x` is upstream's `tid.x`.
                let reg = nvvm::SRegOp(op).reg(ctx).ok_or_else(|| self.err(op, "an unknown special register"))?;
                let s = reg.keyword().replace('_', ".");
                self.line(&format!("{r} = nvvm.read.ptx.sreg.{s} : {rt}"));
            }
            "activemask" => self.call_intr(&r, "llvm.nvvm.activemask", &[], &[], &rt),
            "barrier" => match nvvm::BarrierOp(op).kind(ctx).unwrap_or(nvvm::BarrierKind::Sync) {
                nvvm::BarrierKind::Sync => {
                    let z = self.fresh();
                    self.line(&format!("{z} = llvm.mlir.constant(0 : i32) : i32"));
                    self.call_intr("", "llvm.nvvm.barrier.cta.sync.aligned.all", &[z], &["i32".into()], "");
                }
                k @ (nvvm::BarrierKind::Popc | nvvm::BarrierKind::And | nvvm::BarrierKind::Or) => {
                    let z = self.fresh();
                    self.line(&format!("{z} = llvm.mlir.constant(0 : i32) : i32"));
                    let p = self.as_i1(&o[0], &t0);
                    if k == nvvm::BarrierKind::Popc {
                        self.call_intr(&r, "llvm.nvvm.barrier.cta.red.popc.aligned.all", &[z, p], &["i32".into(), "i1".into()], "i32");
                    } else {
                        let which = k.keyword();
                        let q = self.fresh();
                        self.call_intr(
                            &q,
                            &format!("llvm.nvvm.barrier.cta.red.{which}.aligned.all"),
                            &[z, p],
                            &["i32".into(), "i1".into()],
                            "i1",
                        );
                        self.line(&format!("{r} = llvm.zext {q} : i1 to {rt}"));
                    }
                }
                nvvm::BarrierKind::Warp => self.call_intr("", "llvm.nvvm.bar.warp.sync", &o[..1], std::slice::from_ref(&t0), ""),
            },
            "fence" => {
                let s = match nvvm::FenceOp(op).scope(ctx) {
                    Some(nvvm::Scope::Cta) => "cta",
                    Some(nvvm::Scope::Sys) => "sys",
                    Some(nvvm::Scope::Gpu) | None => "gl",
                };
                self.call_intr("", &format!("llvm.nvvm.membar.{s}"), &[], &[], "");
            }
            "shfl" => {
                let m = nvvm::ShflOp(op).mode(ctx).map(|m| m.keyword()).ok_or_else(|| self.err(op, "an unknown shuffle"))?;
                let vt = self.vty(ops[1]);
                let suffix = match vt.as_str() {
                    "i32" => "i32",
                    "f32" => "f32",
                    _ => return Err(self.err(op, "a shuffle of other than 32 bits")),
                };
                let tys: Vec<String> = ops.iter().map(|&v| self.vty(v)).collect();
                self.call_intr(&r, &format!("llvm.nvvm.shfl.sync.{m}.{suffix}"), &o, &tys, &rt);
            }
            "vote" => {
                let m = nvvm::VoteOp(op).mode(ctx).map(|m| m.keyword()).ok_or_else(|| self.err(op, "an unknown vote"))?;
                let p = self.as_i1(&o[1], &self.vty(ops[1]));
                let mask = o[0].clone();
                self.call_intr(&r, &format!("llvm.nvvm.vote.{m}.sync"), &[mask, p], &["i32".into(), "i1".into()], &rt);
            }
            "redux" => {
                let k = match nvvm::ReduxOp(op).kind(ctx).ok_or_else(|| self.err(op, "an unknown reduction"))? {
                    nvvm::ReduxKind::Smin => "min",
                    nvvm::ReduxKind::Smax => "max",
                    other => other.keyword(),
                };
                let (m, v) = (o[0].clone(), o[1].clone());
                self.call_intr(&r, &format!("llvm.nvvm.redux.sync.{k}"), &[v, m], &["i32".into(), "i32".into()], &rt);
            }
            "match" => {
                let vt = self.vty(ops[1]);
                let w = match vt.as_str() {
                    "i32" | "f32" => "i32",
                    "i64" | "f64" => "i64",
                    _ => return Err(self.err(op, "a match of other than 32 or 64 bits")),
                };
                let mut v = o[1].clone();
                if vt.starts_with('f') {
                    let c = self.fresh();
                    self.line(&format!("{c} = llvm.bitcast {v} : {vt} to {w}"));
                    v = c;
                }
                let m = o[0].clone();
                if nvvm::MatchOp(op).mode(ctx) == Some(nvvm::MatchMode::All) {
                    let pair = self.fresh();
                    self.call_intr(
                        &pair,
                        &format!("llvm.nvvm.match.all.sync.{w}p"),
                        &[m, v],
                        &["i32".into(), w.into()],
                        "!llvm.struct<(i32, i1)>",
                    );
                    self.line(&format!("{r} = llvm.extractvalue {pair}[0] : !llvm.struct<(i32, i1)>"));
                } else {
                    self.call_intr(&r, &format!("llvm.nvvm.match.any.sync.{w}"), &[m, v], &["i32".into(), w.into()], &rt);
                }
            }
            "tex" => self.tex(op, &ops, &o)?,
            "inline_asm" => {
                let asm = nvvm::InlineAsmOp(op);
                let template = asm.template(ctx).unwrap_or_default();
                let constraints = asm.constraints(ctx).unwrap_or_default();
                let tys: Vec<String> = ops.iter().map(|&v| self.vty(v)).collect();
                let results: Vec<String> = ctx.results(op).iter().map(|&v| self.vty(v)).collect();
                if results.len() > 1 {
                    return Err(self.err(op, "inline assembly with several outputs"));
                }
                let lhs = if res.is_some() { format!("{r} = ") } else { String::new() };
                let ret = results.first().cloned().unwrap_or_else(|| "!llvm.void".into());
                let t = escape(&gcc_template_to_llvm(template));
                let c = escape(constraints);
                self.line(&format!(
                    "{lhs}llvm.inline_asm has_side_effects \"{t}\", \"{c}\" {} : ({}) -> {ret}",
                    o.join(", "),
                    tys.join(", ")
                ));
            }
            "intr" => {
                let iname = nvvm::IntrOp(op).name(ctx).unwrap_or_default().to_string();
                let tys: Vec<String> = ops.iter().map(|&v| self.vty(v)).collect();
                self.intr(op, &iname, &r, &o, &tys, &rt)?;
            }
            other => return Err(self.err(op, &format!("no LLVM mapping for `nvvm.{other}`"))),
        }
        Ok(())
    }

    /// `v` (of type `t`) as an `i1`: compared with zero unless it is one.
    fn as_i1(&mut self, v: &str, t: &str) -> String {
        if t == "i1" {
            return v.to_string();
        }
        let (z, p) = (self.fresh(), self.fresh());
        self.line(&format!("{z} = llvm.mlir.constant(0 : {t}) : {t}"));
        self.line(&format!("{p} = llvm.icmp \"ne\" {v}, {z} : {t}"));
        p
    }

    fn call_intr(&mut self, r: &str, name: &str, args: &[String], tys: &[String], rt: &str) {
        let lhs = if r.is_empty() { String::new() } else { format!("{r} = ") };
        let ret = if rt.is_empty() { "()".to_string() } else { rt.to_string() };
        self.line(&format!("{lhs}llvm.call_intrinsic \"{name}\"({}) : ({}) -> {ret}", args.join(", "), tys.join(", ")));
    }

    fn tex(&mut self, op: OpId, ops: &[ValueId], o: &[String]) -> Result<(), Error> {
        let ctx = self.ctx;
        let t = nvvm::TexOp(op);
        let geom = t.geom(ctx).unwrap_or_default();
        let kind = t.kind(ctx).unwrap_or("f32");
        // (LLVM's name, coordinates after the layer of an array texture, layered)
        let (lname, n, layered) = match geom {
            "1d" => ("1d", 1, false),
            "2d" => ("2d", 2, false),
            "3d" => ("3d", 3, false),
            "cube" => ("cube", 3, false),
            "a1d" => ("1d.array", 1, true),
            "a2d" => ("2d.array", 2, true),
            _ => return Err(self.err(op, "a texture geometry LLVM's fetch intrinsics here do not cover")),
        };
        let first = 1 + usize::from(layered);
        if ops.len() != first + n || (layered && self.vty(ops[1]) != "i32") {
            return Err(self.err(op, "a texture fetch with other operands than its geometry takes (a level?)"));
        }
        let coords = ops[first..].iter().map(|&c| self.vty(c)).collect::<Vec<_>>();
        let ct = match coords.first().map(String::as_str) {
            Some("f32") => "f32",
            Some("i32") if geom != "cube" => "s32",
            _ => "",
        };
        let et = match kind {
            "f32" => "f32",
            "s32" => "i32",
            "u32" => "i32",
            _ => "",
        };
        if ct.is_empty() || et.is_empty() || coords.iter().any(|c| *c != coords[0]) || ctx.results(op).len() != 4 {
            return Err(self.err(op, "a texture fetch other than four 32-bit values at f32 or s32 coordinates"));
        }
        let geom = lname;
        let tys: Vec<String> = ops.iter().map(|&v| self.vty(v)).collect();
        let st = format!("!llvm.struct<({et}, {et}, {et}, {et})>");
        let pair = self.fresh();
        self.call_intr(&pair, &format!("llvm.nvvm.tex.unified.{geom}.v4{kind}.{ct}"), o, &tys, &st);
        for (i, &rv) in ctx.results(op).to_vec().iter().enumerate() {
            let name = self.v(rv);
            self.line(&format!("{name} = llvm.extractvalue {pair}[{i}] : {st}"));
        }
        Ok(())
    }

    /// One PTX-named intrinsic (`name` with its rounding mode; types from the operands).
    fn intr(&mut self, op: OpId, name: &str, r: &str, o: &[String], tys: &[String], rt: &str) -> Result<(), Error> {
        let t0 = tys.first().map(String::as_str).unwrap_or("");
        // `f32`/`f64` → the NVVM intrinsics' `.f`/`.d`.
        let fd = match t0 {
            "f32" => Some("f"),
            "f64" => Some("d"),
            _ => None,
        };
        let (base, round) = match name.rsplit_once('.') {
            Some((b, m @ ("rn" | "rz" | "rm" | "rp"))) => (b, Some(m)),
            _ => (name, None),
        };
        if let Some(rest) = name.strip_prefix("cvt.") {
            return self.cvt(op, name, rest, r, o, tys, rt);
        }
        let direct = |w: &mut Self, llvm: String| {
            w.call_intr(r, &llvm, o, tys, rt);
            Ok(())
        };
        match (base, round) {
            ("fma", Some("rn")) if matches!(t0, "f32" | "f64" | "f16") => direct(self, format!("llvm.fma.{t0}")),
            ("add" | "mul" | "fma" | "div" | "rcp" | "sqrt", Some(m)) if fd.is_some() => {
                direct(self, format!("llvm.nvvm.{base}.{m}.{}", fd.unwrap_or_default()))
            }
            ("sqrt", Some("rn")) if t0 == "f16" => direct(self, "llvm.sqrt.f16".into()),
            // a - b rounded = a + (-b) rounded (negation is exact).
            ("sub", Some(m)) if fd.is_some() => {
                let n = self.fresh();
                self.line(&format!("{n} = llvm.fneg {} : {t0}", o[1]));
                self.call_intr(r, &format!("llvm.nvvm.add.{m}.{}", fd.unwrap_or_default()), &[o[0].clone(), n], tys, rt);
                Ok(())
            }
            ("div.full", None) => direct(self, "llvm.nvvm.div.full".into()),
            ("sin.approx" | "cos.approx", None) if t0 == "f32" => direct(self, format!("llvm.nvvm.{name}.f")),
            ("abs", None) if t0.starts_with('f') => direct(self, format!("llvm.fabs.{t0}")),
            ("abs", None) => self.with_false(&format!("llvm.abs.{t0}"), r, o, tys, rt),
            ("copysign" | "rint" | "trunc" | "floor" | "ceil", None) => direct(self, format!("llvm.{name}.{t0}")),
            ("max" | "min", None) if t0.starts_with('f') => direct(self, format!("llvm.{name}num.{t0}")),
            ("smax" | "smin" | "umax" | "umin", None) => direct(self, format!("llvm.{name}.{t0}")),
            ("brev", None) => direct(self, format!("llvm.bitreverse.{t0}")),
            ("popc", None) if t0 == rt => direct(self, format!("llvm.ctpop.{t0}")),
            ("clz", None) => {
                let wide = if t0 == rt { r.to_string() } else { self.fresh() };
                self.with_false(&format!("llvm.ctlz.{t0}"), &wide, o, tys, t0)?;
                if t0 != rt {
                    self.line(&format!("{r} = llvm.trunc {wide} : {t0} to {rt}"));
                }
                Ok(())
            }
            ("mulhi" | "umulhi", None) => {
                let s = match (base, t0) {
                    ("mulhi", "i32") => "i",
                    ("umulhi", "i32") => "ui",
                    ("mulhi", "i64") => "ll",
                    ("umulhi", "i64") => "ull",
                    _ => return Err(self.err(op, "a high multiplication of other than 32 or 64 bits")),
                };
                direct(self, format!("llvm.nvvm.mulhi.{s}"))
            }
            ("mul24", None) => direct(self, "llvm.nvvm.mul24.i".into()),
            ("umul24", None) => direct(self, "llvm.nvvm.mul24.ui".into()),
            ("prmt", None) => direct(self, "llvm.nvvm.prmt".into()),
            ("dp4a.s32.s32", None) => direct(self, "llvm.nvvm.idp4a.s.s".into()),
            ("dp4a.u32.u32", None) => direct(self, "llvm.nvvm.idp4a.u.u".into()),
            ("dp4a.s32.u32", None) => direct(self, "llvm.nvvm.idp4a.s.u".into()),
            ("dp4a.u32.s32", None) => direct(self, "llvm.nvvm.idp4a.u.s".into()),
            // shf.{l,r}.wrap d, a, b, c: the funnel of b (high) and a (low).
            ("shf.l.wrap" | "shf.r.wrap" | "shf.l.clamp" | "shf.r.clamp", None) => {
                let dir = if name.starts_with("shf.l") { "fshl" } else { "fshr" };
                let llvm = if name.ends_with("wrap") { format!("llvm.{dir}.{t0}") } else { format!("llvm.nvvm.{dir}.clamp.{t0}") };
                self.call_intr(r, &llvm, &[o[1].clone(), o[0].clone(), o[2].clone()], tys, rt);
                Ok(())
            }
            (b, None) if b.ends_with(".bf16") => self.bf16(op, b, r, o, rt),
            _ => Err(self.err(op, &format!("no LLVM intrinsic for `{name}` on ({})", tys.join(", ")))),
        }
    }

    /// An intrinsic with a trailing `i1 false` (`llvm.abs`, `llvm.ctlz`: poison on the edge
    /// case off).
    fn with_false(&mut self, llvm: &str, r: &str, o: &[String], tys: &[String], rt: &str) -> Result<(), Error> {
        let f = self.fresh();
        self.line(&format!("{f} = llvm.mlir.constant(false) : i1"));
        let mut args = o.to_vec();
        args.push(f);
        let mut ts = tys.to_vec();
        ts.push("i1".into());
        self.call_intr(r, llvm, &args, &ts, rt);
        Ok(())
    }

    /// Conversions, `cvt.[<rounding>.]<what>`: `f.s` float to signed, `f.u` to unsigned,
    /// `s.f`/`u.f` integers to float, `f.f` f64 to f32, and bf16 ones on `i16` bits.
    #[allow(clippy::too_many_arguments)]
    fn cvt(&mut self, op: OpId, name: &str, rest: &str, r: &str, o: &[String], tys: &[String], rt: &str) -> Result<(), Error> {
        let (m, rest) = match rest.split_once('.') {
            Some((m @ ("rn" | "rz" | "rm" | "rp"), rest)) => (m, rest),
            _ => ("", rest),
        };
        let t0 = tys[0].as_str();
        let short = |t: &str| match t {
            "f32" => "f",
            "f64" => "d",
            _ => "",
        };
        let int = |t: &str, signed: bool| match (t, signed) {
            ("i32", true) => "i",
            ("i32", false) => "ui",
            ("i64", true) => "ll",
            ("i64", false) => "ull",
            _ => "",
        };
        let llvm = match rest {
            "f.s" | "f.u" if !short(t0).is_empty() => format!("llvm.nvvm.{}2{}.{m}", short(t0), int(rt, rest == "f.s")),
            "s.f" | "u.f" if !short(rt).is_empty() => format!("llvm.nvvm.{}2{}.{m}", int(t0, rest == "s.f"), short(rt)),
            "f.f" if t0 == "f64" && rt == "f32" => format!("llvm.nvvm.d2f.{m}"),
            "f32.bf16" if t0 == "i16" && rt == "f32" => {
                // bf16 is the high half of an f32.
                let (w, s) = (self.fresh(), self.fresh());
                let sixteen = self.fresh();
                self.line(&format!("{w} = llvm.zext {} : i16 to i32", o[0]));
                self.line(&format!("{sixteen} = llvm.mlir.constant(16 : i32) : i32"));
                self.line(&format!("{s} = llvm.shl {w}, {sixteen} : i32"));
                self.line(&format!("{r} = llvm.bitcast {s} : i32 to f32"));
                return Ok(());
            }
            "bf16.f32" | "bf16.f64" | "bf16.s32" | "bf16.s64" if rt == "i16" => {
                let b = self.fresh();
                match (rest, m) {
                    ("bf16.f32", "rn" | "rz") => self.call_intr(&b, &format!("llvm.nvvm.f2bf16.{m}"), o, tys, "bf16"),
                    // Toward ±inf: toward zero, then one step away from zero when the
                    // value was inexact and on that side (not NaN).
                    ("bf16.f32", "rm" | "rp") => {
                        let z = self.fresh();
                        self.call_intr(&z, "llvm.nvvm.f2bf16.rz", o, tys, "bf16");
                        let t = [self.fresh(), self.fresh(), self.fresh(), self.fresh(), self.fresh(), self.fresh(), self.fresh()];
                        let [zi, bits, mask, lo, zero, inexact, side] = &t;
                        let (nan, ok, step, f) = (self.fresh(), self.fresh(), self.fresh(), self.fresh());
                        let pred = if m == "rm" { "slt" } else { "sge" };
                        for l in [
                            format!("{zi} = llvm.bitcast {z} : bf16 to i16"),
                            format!("{bits} = llvm.bitcast {} : f32 to i32", o[0]),
                            format!("{mask} = llvm.mlir.constant(65535 : i32) : i32"),
                            format!("{lo} = llvm.and {bits}, {mask} : i32"),
                            format!("{zero} = llvm.mlir.constant(0 : i32) : i32"),
                            format!("{inexact} = llvm.icmp \"ne\" {lo}, {zero} : i32"),
                            format!("{side} = llvm.icmp \"{pred}\" {bits}, {zero} : i32"),
                            format!("{nan} = llvm.fcmp \"uno\" {}, {} : f32", o[0], o[0]),
                            format!("{f} = llvm.mlir.constant(false) : i1"),
                            format!("{ok} = llvm.select {nan}, {f}, {inexact} : i1, i1"),
                            format!("{step} = llvm.and {ok}, {side} : i1"),
                        ] {
                            self.line(&l);
                        }
                        let inc = self.fresh();
                        self.line(&format!("{inc} = llvm.zext {step} : i1 to i16"));
                        self.line(&format!("{r} = llvm.add {zi}, {inc} : i16"));
                        return Ok(());
                    }
                    ("bf16.f64", "rn") => self.line(&format!("{b} = llvm.fptrunc {} : f64 to bf16", o[0])),
                    ("bf16.s32" | "bf16.s64", "rn") => self.line(&format!("{b} = llvm.sitofp {} : {t0} to bf16", o[0])),
                    _ => return Err(self.err(op, &format!("no LLVM conversion for `{name}`"))),
                }
                self.line(&format!("{r} = llvm.bitcast {b} : bf16 to i16"));
                return Ok(());
            }
            _ => String::new(),
        };
        if llvm.is_empty() || llvm.contains("2.") || llvm.ends_with('.') {
            return Err(self.err(op, &format!("no LLVM conversion for `{name}` from {t0} to {rt}")));
        }
        self.call_intr(r, &llvm, o, tys, rt);
        Ok(())
    }

    /// bf16 arithmetic on its `i16` bits: through `bfloat`.
    fn bf16(&mut self, op: OpId, name: &str, r: &str, o: &[String], rt: &str) -> Result<(), Error> {
        let args: Vec<String> = o
            .iter()
            .map(|a| {
                let b = self.fresh();
                self.line(&format!("{b} = llvm.bitcast {a} : i16 to bf16"));
                b
            })
            .collect();
        let out = self.fresh();
        match (name, args.len()) {
            ("add.rn.bf16" | "sub.rn.bf16" | "mul.rn.bf16", 2) => {
                let f = &name[..3];
                let f = if f == "add" {
                    "fadd"
                } else if f == "sub" {
                    "fsub"
                } else {
                    "fmul"
                };
                self.line(&format!("{out} = llvm.{f} {}, {} : bf16", args[0], args[1]));
            }
            ("fma.rn.bf16", 3) => self.call_intr(&out, "llvm.fma.bf16", &args, &["bf16".into(), "bf16".into(), "bf16".into()], "bf16"),
            ("max.bf16" | "min.bf16", 2) => {
                let f = if name.starts_with("max") { "llvm.maxnum.bf16" } else { "llvm.minnum.bf16" };
                self.call_intr(&out, f, &args, &["bf16".into(), "bf16".into()], "bf16");
            }
            _ => return Err(self.err(op, &format!("no LLVM mapping for `{name}`"))),
        }
        if rt == "i16" {
            self.line(&format!("{r} = llvm.bitcast {out} : bf16 to i16"));
        } else {
            return Err(self.err(op, &format!("`{name}` with a result of {rt}")));
        }
        Ok(())
    }
}

/// A GCC-style inline assembly template (`%0`, `%%`) in LLVM's (`$0`, `%`, `$$`).
fn gcc_template_to_llvm(t: &str) -> String {
    let mut out = String::new();
    let mut chars = t.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '$' => out.push_str("$$"),
            '%' => match chars.peek() {
                Some('%') => {
                    chars.next();
                    out.push('%');
                }
                Some(d) if d.is_ascii_digit() => out.push('$'),
                Some('{') => out.push('$'),
                _ => out.push('%'),
            },
            _ => out.push(c),
        }
    }
    out
}

/// A string for MLIR's string literal syntax.
fn escape(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        match b {
            b'"' | b'\\' => {
                let _ = write!(out, "\\{b:02X}");
            }
            0x20..=0x7e => out.push(b as char),
            _ => {
                let _ = write!(out, "\\{b:02X}");
            }
        }
    }
    out
}

// LLVM's C API: what the NVPTX code generation needs (libLLVM, linked with MLIR's C API).
type Ref = *mut c_void;
unsafe extern "C" {
    fn LLVMContextCreate() -> Ref;
    fn LLVMContextDispose(c: Ref);
    fn LLVMDisposeModule(m: Ref);
    fn LLVMSetTarget(m: Ref, triple: *const c_char);
    fn LLVMInitializeNVPTXTargetInfo();
    fn LLVMInitializeNVPTXTarget();
    fn LLVMInitializeNVPTXTargetMC();
    fn LLVMInitializeNVPTXAsmPrinter();
    fn LLVMGetTargetFromTriple(triple: *const c_char, t: *mut Ref, err: *mut *mut c_char) -> i32;
    fn LLVMCreateTargetMachine(
        t: Ref,
        triple: *const c_char,
        cpu: *const c_char,
        features: *const c_char,
        level: u32,
        reloc: u32,
        model: u32,
    ) -> Ref;
    fn LLVMDisposeTargetMachine(tm: Ref);
    fn LLVMCreateTargetDataLayout(tm: Ref) -> Ref;
    fn LLVMSetModuleDataLayout(m: Ref, dl: Ref);
    fn LLVMDisposeTargetData(dl: Ref);
    fn LLVMCreatePassBuilderOptions() -> Ref;
    fn LLVMDisposePassBuilderOptions(o: Ref);
    fn LLVMRunPasses(m: Ref, passes: *const c_char, tm: Ref, o: Ref) -> Ref;
    fn LLVMGetErrorMessage(e: Ref) -> *mut c_char;
    fn LLVMDisposeErrorMessage(m: *mut c_char);
    fn LLVMTargetMachineEmitToMemoryBuffer(tm: Ref, m: Ref, kind: u32, err: *mut *mut c_char, out: *mut Ref) -> i32;
    fn LLVMGetBufferStart(b: Ref) -> *const c_char;
    fn LLVMGetBufferSize(b: Ref) -> usize;
    fn LLVMDisposeMemoryBuffer(b: Ref);
    fn LLVMPrintModuleToString(m: Ref) -> *mut c_char;
    fn LLVMDisposeMessage(m: *mut c_char);
    fn LLVMVerifyModule(m: Ref, action: u32, out: *mut *mut c_char) -> i32;
}

fn take_message(p: *mut c_char) -> String {
    if p.is_null() {
        return String::new();
    }
    let s = unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned();
    unsafe { LLVMDisposeMessage(p) };
    s
}

const TRIPLE: &CStr = c"nvptx64-nvidia-cuda";

/// Compiles `llvm_dialect` (from [`to_llvm_dialect`]) to PTX (or LLVM IR) with LLVM.
pub fn compile(llvm_dialect: &str, opts: &LlvmOptions) -> Result<String, Error> {
    use mlir_sys::{
        mlirGetDialectHandle__llvm__, mlirGetDialectHandle__nvvm__, mlirOperationCreateParse, mlirOperationDestroy, mlirOperationVerify,
        mlirTranslateModuleToLLVMIR,
    };
    let handles = unsafe { [mlirGetDialectHandle__llvm__(), mlirGetDialectHandle__nvvm__()] };
    let (context, diags) = crate::bridge::context_with(|r| crate::bridge::insert_handles(r, &handles));
    melior::utility::register_all_llvm_translations(&context);
    let failed = |what: &str| Error(format!("{what}:\n{}", diags.borrow().join("\n")));
    let op = unsafe { mlirOperationCreateParse(context.to_raw(), sref(llvm_dialect), sref("<llvm-dialect>")) };
    if op.ptr.is_null() {
        return Err(failed("MLIR does not accept the llvm-dialect module"));
    }
    let result = (|| unsafe {
        if !mlirOperationVerify(op) {
            return Err(failed("MLIR's verifier rejects the llvm-dialect module"));
        }
        let llctx = LLVMContextCreate();
        let m = mlirTranslateModuleToLLVMIR(op, llctx.cast()) as Ref;
        if m.is_null() {
            LLVMContextDispose(llctx);
            return Err(failed("MLIR does not translate the module to LLVM IR"));
        }
        let out = codegen(m, opts);
        LLVMDisposeModule(m);
        LLVMContextDispose(llctx);
        out
    })();
    unsafe { mlirOperationDestroy(op) };
    result
}

/// LLVM's pipeline and the NVPTX backend on module `m`.
unsafe fn codegen(m: Ref, opts: &LlvmOptions) -> Result<String, Error> {
    static INIT: std::sync::Once = std::sync::Once::new();
    INIT.call_once(|| unsafe {
        LLVMInitializeNVPTXTargetInfo();
        LLVMInitializeNVPTXTarget();
        LLVMInitializeNVPTXTargetMC();
        LLVMInitializeNVPTXAsmPrinter();
    });
    unsafe {
        let mut err = std::ptr::null_mut();
        if LLVMVerifyModule(m, 2, &mut err) != 0 {
            return Err(Error(format!("LLVM's verifier rejects the translated module: {}", take_message(err))));
        }
        take_message(err);
        let mut target = std::ptr::null_mut();
        let mut err = std::ptr::null_mut();
        if LLVMGetTargetFromTriple(TRIPLE.as_ptr(), &mut target, &mut err) != 0 {
            return Err(Error(format!("LLVM has no NVPTX target: {}", take_message(err))));
        }
        let cpu = CString::new(format!("sm_{}", opts.sm)).unwrap_or_default();
        let level = u32::from(opts.opt_level.min(3));
        // Reloc default, code model default.
        let tm = LLVMCreateTargetMachine(target, TRIPLE.as_ptr(), cpu.as_ptr(), c"".as_ptr(), level, 0, 0);
        if tm.is_null() {
            return Err(Error(format!("LLVM's NVPTX backend does not take sm_{}", opts.sm)));
        }
        LLVMSetTarget(m, TRIPLE.as_ptr());
        let dl = LLVMCreateTargetDataLayout(tm);
        LLVMSetModuleDataLayout(m, dl);
        LLVMDisposeTargetData(dl);
        let pipeline = CString::new(format!("default<O{}>", opts.opt_level.min(3))).unwrap_or_default();
        let po = LLVMCreatePassBuilderOptions();
        let e = LLVMRunPasses(m, pipeline.as_ptr(), tm, po);
        LLVMDisposePassBuilderOptions(po);
        if !e.is_null() {
            let msg = LLVMGetErrorMessage(e);
            let s = CStr::from_ptr(msg).to_string_lossy().into_owned();
            LLVMDisposeErrorMessage(msg);
            LLVMDisposeTargetMachine(tm);
            return Err(Error(format!("LLVM's pipeline failed: {s}")));
        }
        if opts.emit_llvm {
            LLVMDisposeTargetMachine(tm);
            return Ok(take_message(LLVMPrintModuleToString(m)));
        }
        let mut buf = std::ptr::null_mut();
        let mut err = std::ptr::null_mut();
        let failed = LLVMTargetMachineEmitToMemoryBuffer(tm, m, 0, &mut err, &mut buf) != 0;
        LLVMDisposeTargetMachine(tm);
        if failed {
            return Err(Error(format!("LLVM's NVPTX backend failed: {}", take_message(err))));
        }
        let bytes = std::slice::from_raw_parts(LLVMGetBufferStart(buf).cast::<u8>(), LLVMGetBufferSize(buf));
        let text = String::from_utf8_lossy(bytes).into_owned();
        LLVMDisposeMemoryBuffer(buf);
        Ok(text)
    }
}
