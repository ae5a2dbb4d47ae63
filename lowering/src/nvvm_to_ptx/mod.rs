//! NvvmToPtx: instruction selection from `nvvm` to `ptx` on virtual registers.
//!
//! 1. Every SSA value of a function (op result or block argument) gets a virtual register
//!    of its class (`i1` `.pred`, `i8`/`i16`/`f16` `.b16`, `i32` `.b32`, `i64` and pointers
//!    `.b64`, `f32`, `f64`); constants are immediates at their uses (`Sel::src`) except
//!    where PTX wants a register.
//! 2. Each op is selected by its own rule (`Sel::select`), one or a few PTX instructions;
//!    a load or store whose address is `ptradd(base, constant)` or a global's address uses
//!    PTX's `[reg+imm]` / `[symbol]` addressing.
//! 3. Block arguments become register copies on each incoming edge; the copies of one edge
//!    form a parallel copy, done through temporaries when a destination is also a source. A
//!    conditional branch with arguments gets an edge block for them.
//! 4. Kernel parameters are read with `ld.param` at entry with their exact C types;
//!    `.func` parameters and results follow the PTX ABI (sub-32-bit scalars widened to
//!    `.b32`), calls are `ptx.call` (printed as the call sequence).
//! 5. `nvvm.alloca`s get offsets in the function's local depot (`__local_depot<N>`).

mod coalesce;
mod rules;

pub use rules::pattern_infos;

use crate::build::{i32_attr, i64_attr, make_module, state, LowerError};
use crate::rounding::{Num, Rounded};
use cuprite_dialects::nvvm::{self, Scope as NvvmScope};
use cuprite_ir::{AttrId, AttrKind, BlockId, Context, FloatKind, InsertPoint, LocId, OpId, RegionId, TypeId, TypeKind, ValueId};
use rustc_hash::FxHashMap;

/// Lowers the `nvvm` module `module` to a new `ptx` module in the same context, with every
/// selection pattern.
pub fn nvvm_to_ptx(ctx: &mut Context, module: OpId) -> Result<OpId, Vec<LowerError>> {
    select_module(ctx, module, &[]).map(|(m, _)| m)
}

/// How often each selection pattern was tried and applied: (name, tried, applied).
pub type PatternStats = Vec<(&'static str, u64, u64)>;

/// Lowers the `nvvm` module `module` to a new `ptx` module in the same context, without
/// the patterns named in `disabled`; with the patterns' statistics.
pub fn select_module(ctx: &mut Context, module: OpId, disabled: &[String]) -> Result<(OpId, PatternStats), Vec<LowerError>> {
    let mut stats = vec![(0u64, 0u64); rules::RULES.len()];
    let loc = ctx.op_loc(module);
    let (new_module, body) = make_module(ctx, loc);
    let mut errors = Vec::new();
    let src = ctx.entry_block(ctx.region(module, 0)).expect("module body");
    let ops: Vec<OpId> = ctx.block_ops(src).collect();
    // Signatures first: calls need their callees' parameter types.
    let mut sigs = FxHashMap::default();
    for &op in &ops {
        if ctx.is_op(op, "nvvm.func") {
            if let Some((i, r)) = cuprite_dialects::func::function_type(ctx, op) {
                sigs.insert(nvvm::FuncOp(op).sym_name(ctx).unwrap_or_default().to_string(), (i.to_vec(), r.to_vec()));
            }
        }
    }
    let mut index = 0;
    for op in ops {
        match ctx.op_name_str(op) {
            "nvvm.global" => {
                lower_global(ctx, op, body);
            }
            "nvvm.func" => {
                let mut s = Sel::new(ctx, op, index, &sigs, disabled);
                s.run(op, body);
                errors.append(&mut s.errors);
                for (k, (t, a)) in s.stats.iter().enumerate() {
                    stats[k].0 += t;
                    stats[k].1 += a;
                }
                index += 1;
            }
            other => errors.push(LowerError { loc: ctx.op_loc(op), message: format!("cannot select '{other}' at module level") }),
        }
    }
    if errors.is_empty() {
        Ok((new_module, rules::RULES.iter().zip(stats).map(|(r, (t, a))| (r.name, t, a)).collect()))
    } else {
        Err(errors)
    }
}

/// `mods` of instruction `op` with `.ftz` where PTX has it for f32 (`add.rn.f32` ->
/// `add.rn.ftz.f32`, `cvt.rzi.s32.f32` -> `cvt.rzi.ftz.s32.f32`, `setp.lt.f32` ->
/// `setp.lt.ftz.f32`); `None` when the instruction has no f32 flush mode. `.ftz` goes
/// before `.sat` and the type(s), as the PTX grammar orders the modifiers.
fn with_ftz(op: &str, mods: &str) -> Option<String> {
    const FLUSHABLE: &[&str] = &[
        "add", "sub", "mul", "fma", "mad", "div", "sqrt", "rsqrt", "rcp", "abs", "neg", "min", "max", "setp", "ex2", "lg2", "sin", "cos",
        "cvt",
    ];
    if !FLUSHABLE.contains(&op) {
        return None;
    }
    let parts: Vec<&str> = mods.split('.').collect();
    if parts.contains(&"ftz") {
        return None;
    }
    let is_type = |p: &str| {
        let mut c = p.chars();
        matches!(c.next(), Some('f' | 's' | 'u' | 'b')) && p.len() > 1 && p[1..].chars().all(|d| d.is_ascii_digit())
    };
    let first = parts.iter().position(|p| *p == "sat" || is_type(p))?;
    let types: Vec<&str> = parts[first..].iter().copied().filter(|p| is_type(p)).collect();
    let flush = if op == "cvt" {
        // float to float or float to int with an f32 source; f64 (f16) to f32
        match types.as_slice() {
            [d, a] => *a == "f32" || (*d == "f32" && a.starts_with('f')),
            _ => false,
        }
    } else {
        types.last() == Some(&"f32")
    };
    if !flush {
        return None;
    }
    let mut out: Vec<&str> = parts[..first].to_vec();
    out.push("ftz");
    out.extend_from_slice(&parts[first..]);
    Some(out.join("."))
}

/// `nvvm.global` to `ptx.global` at the end of `body`.
fn lower_global(ctx: &mut Context, op: OpId, body: BlockId) -> OpId {
    let g = nvvm::GlobalOp(op);
    let space = match g.space(ctx) {
        Some(nvvm::Space::Shared) => ".shared",
        Some(nvvm::Space::Constant) => ".const",
        _ => ".global",
    };
    let mut props = vec![("space", ctx.str_attr(space))];
    for (k, a) in [
        ("sym_name", g.sym_name_attr(ctx)),
        ("size", g.size_attr(ctx)),
        ("align", g.align_attr(ctx)),
        ("init", g.init_attr(ctx)),
        ("extern", g.extern_attr(ctx)),
        ("managed", g.managed_attr(ctx)),
    ] {
        if let Some(a) = a {
            props.push((k, a));
        }
    }
    let l = ctx.op_loc(op);
    let st = state(ctx, "ptx.global", l, &[], &[], &props, &[]);
    let g = ctx.create_op(st);
    ctx.insert_op(g, InsertPoint::end(body));
    g
}

/// A function's PTX: its prototype (for a `.func`) and its text.
pub type FuncText = (Option<String>, String);

/// Signatures by function name, as type kinds (valid in any context).
pub type KindSigs = FxHashMap<String, (Vec<TypeKind>, Vec<TypeKind>)>;

/// The signatures of the `nvvm.func`s of `module` by name, for selecting its functions
/// one at a time ([`select_function_text`]); `None` when the module holds ops other than
/// functions and globals (such a module is selected whole).
pub fn module_signatures(ctx: &Context, module: OpId) -> Option<KindSigs> {
    let src = ctx.entry_block(ctx.region(module, 0))?;
    let mut sigs: KindSigs = FxHashMap::default();
    for op in ctx.block_ops(src) {
        if ctx.is_op(op, "nvvm.func") {
            if let Some((i, r)) = cuprite_dialects::func::function_type(ctx, op) {
                let k = |ts: &[TypeId]| ts.iter().map(|&t| ctx.type_kind(t).clone()).collect::<Vec<_>>();
                sigs.insert(nvvm::FuncOp(op).sym_name(ctx).unwrap_or_default().to_string(), (k(&i), k(&r)));
            }
        } else if !ctx.is_op(op, "nvvm.global") {
            return None;
        }
    }
    Some(sigs)
}

/// The PTX text of the `nvvm.global`s of `module` (lowered in a scratch module of `ctx`,
/// erased after), with the blank line that follows them when there are any.
pub fn globals_text(ctx: &mut Context, module: OpId) -> String {
    let mut out = String::new();
    let Some(src) = ctx.entry_block(ctx.region(module, 0)) else { return out };
    let ops: Vec<OpId> = ctx.block_ops(src).filter(|&o| ctx.is_op(o, "nvvm.global")).collect();
    if ops.is_empty() {
        return out;
    }
    let loc = ctx.op_loc(module);
    let (gmod, gbody) = make_module(ctx, loc);
    for op in ops {
        let g = lower_global(ctx, op, gbody);
        crate::ptx_print::print_global(ctx, g, &mut out);
    }
    ctx.erase_op(gmod);
    out.push('\n');
    out
}

/// A PTX file from its pieces: the header for `opts`, the globals' text
/// ([`globals_text`]), then the prototypes and the bodies of the functions in module order
/// (what [`select_function_text`] gives each).
pub fn assemble_ptx<'a>(opts: &crate::PtxOptions, globals: &str, parts: impl Iterator<Item = &'a FuncText> + Clone) -> String {
    let mut out = crate::ptx_print::header(opts);
    out.push_str(globals);
    let mut protos = false;
    for (p, _) in parts.clone() {
        if let Some(p) = p {
            out.push_str(p);
            out.push_str(";\n");
            protos = true;
        }
    }
    if protos {
        out.push('\n');
    }
    for (_, body) in parts {
        if !body.is_empty() {
            out.push_str(body);
            out.push('\n');
        }
    }
    out
}

/// NvvmToPtx and PTX printing with each function in its own [`Context`], on up to
/// `threads` threads; the text is assembled in module order, byte-identical to
/// [`print_ptx`](crate::print_ptx) of [`nvvm_to_ptx`]'s module. Functions are
/// transplanted out of `ctx` one by one (cheap, sequential); selection and printing, the
/// expensive part, run in parallel. On a selection error the sequential path runs and
/// reports (its errors carry locations of `ctx`).
pub fn nvvm_to_ptx_text(
    ctx: &mut Context,
    module: OpId,
    opts: &crate::PtxOptions,
    threads: usize,
    disabled: &[String],
) -> Result<String, Vec<LowerError>> {
    let Some(sigs) = module_signatures(ctx, module) else {
        return select_module(ctx, module, disabled).map(|(m, _)| crate::print_ptx(ctx, m, opts));
    };
    let globals = globals_text(ctx, module);
    let src = ctx.entry_block(ctx.region(module, 0)).expect("module body");
    let ops: Vec<OpId> = ctx.block_ops(src).collect();
    // One context per function.
    let funcs: Vec<(usize, Context, OpId)> = ops
        .iter()
        .filter(|&&o| ctx.is_op(o, "nvvm.func"))
        .enumerate()
        .map(|(i, &f)| {
            let mut c = Context::new(ctx.registry().clone());
            let nf = cuprite_ir::clone::transplant(ctx, f, &mut c);
            (i, c, nf)
        })
        .collect();
    let threads = threads.clamp(1, funcs.len().max(1));
    let mut chunks: Vec<Vec<(usize, Context, OpId)>> = (0..threads).map(|_| Vec::new()).collect();
    for (k, job) in funcs.into_iter().enumerate() {
        chunks[k % threads].push(job);
    }
    let sigs = &sigs;
    let mut results: Vec<(usize, Result<FuncText, Vec<LowerError>>)> = std::thread::scope(|s| {
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|chunk| {
                s.spawn(move || {
                    chunk.into_iter().map(|(i, mut c, f)| (i, select_function_text(&mut c, f, i, sigs, disabled))).collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).collect()
    });
    results.sort_by_key(|r| r.0);
    if results.iter().any(|r| r.1.is_err()) {
        return select_module(ctx, module, disabled).map(|(m, _)| crate::print_ptx(ctx, m, opts));
    }
    let parts: Vec<FuncText> = results.into_iter().filter_map(|r| r.1.ok()).collect();
    Ok(assemble_ptx(opts, &globals, parts.iter()))
}

/// Selects function `f` (alone in context `c`, the `index`-th function of its module:
/// labels and the local depot are numbered by it) and prints it: its prototype if it is a
/// `.func`, and its text. `sigs` are the module's signatures ([`module_signatures`]), for
/// the calls. The errors carry locations of `c`.
pub fn select_function_text(
    c: &mut Context,
    f: OpId,
    index: usize,
    sigs: &KindSigs,
    disabled: &[String],
) -> Result<FuncText, Vec<LowerError>> {
    let sigs: FxHashMap<String, (Vec<TypeId>, Vec<TypeId>)> = sigs
        .iter()
        .map(|(n, (i, r))| {
            let i: Vec<TypeId> = i.iter().map(|k| c.ty(k.clone())).collect();
            let r: Vec<TypeId> = r.iter().map(|k| c.ty(k.clone())).collect();
            (n.clone(), (i, r))
        })
        .collect();
    let loc = c.op_loc(f);
    let (_m, body) = make_module(c, loc);
    let mut s = Sel::new(c, f, index, &sigs, disabled);
    s.run(f, body);
    if !s.errors.is_empty() {
        return Err(std::mem::take(&mut s.errors));
    }
    let Some(pf) = c.last_op(body) else { return Ok((None, String::new())) };
    let proto = (!crate::ptx_print::is_entry(c, pf)).then(|| crate::ptx_print::signature(c, pf));
    let mut text = String::new();
    crate::ptx_print::print_func(c, pf, index, &mut text);
    Ok((proto, text))
}

/// PTX's spelling of a register class / type for `t` with integer flavour `k` (`b`, `s`
/// or `u`; `f` for an arithmetic instruction's type, where `f16` is spelled `f16`, while
/// moves, loads and selects of halves are `b16`).
fn suffix(ctx: &Context, t: TypeId, k: char) -> String {
    match ctx.type_kind(t) {
        TypeKind::Integer { width: 1, .. } => "pred".into(),
        TypeKind::Integer { width, .. } => format!("{k}{}", (*width).max(8)),
        TypeKind::Float(FloatKind::F32) => "f32".into(),
        TypeKind::Float(FloatKind::F64) => "f64".into(),
        TypeKind::Float(FloatKind::F16) if k == 'f' => "f16".into(),
        TypeKind::Float(_) => "b16".into(),
        _ => format!("{k}64"),
    }
}

/// The register type of a value type (what class its register is).
fn reg_ty(ctx: &mut Context, t: TypeId) -> TypeId {
    match ctx.type_kind(t).clone() {
        TypeKind::Integer { width: 1, .. } => ctx.i1(),
        TypeKind::Integer { width, .. } if width <= 16 => ctx.int_type(16),
        TypeKind::Integer { width, .. } if width <= 32 => ctx.i32(),
        TypeKind::Float(FloatKind::F32) => ctx.float_type(FloatKind::F32),
        TypeKind::Float(FloatKind::F64) => ctx.float_type(FloatKind::F64),
        TypeKind::Float(_) => ctx.int_type(16),
        _ => ctx.i64(),
    }
}

/// The bit width of an nvvm value type (pointers: 64).
pub(crate) fn width(ctx: &Context, t: TypeId) -> u32 {
    match ctx.type_kind(t) {
        TypeKind::Integer { width, .. } => *width,
        TypeKind::Float(k) => k.width(),
        _ => 64,
    }
}

fn is_float(ctx: &Context, t: TypeId) -> bool {
    matches!(ctx.type_kind(t), TypeKind::Float(FloatKind::F32 | FloatKind::F64))
}

fn is_half(ctx: &Context, t: TypeId) -> bool {
    matches!(ctx.type_kind(t), TypeKind::Float(FloatKind::F16))
}

fn space_of(ctx: &Context, t: TypeId) -> &'static str {
    match ctx.type_kind(t) {
        TypeKind::Pointer { addr_space: 1 } => ".global",
        TypeKind::Pointer { addr_space: 3 } => ".shared",
        TypeKind::Pointer { addr_space: 4 } => ".const",
        TypeKind::Pointer { addr_space: 5 } => ".local",
        _ => "",
    }
}

/// An `atom`'s scope qualifier: none for the GPU (PTX's default), `.cta` or `.sys`.
fn atom_scope(scope: Option<NvvmScope>) -> &'static str {
    match scope {
        Some(NvvmScope::Cta) => ".cta",
        Some(NvvmScope::Sys) => ".sys",
        Some(NvvmScope::Gpu) | None => "",
    }
}

/// A `.func` parameter or result's PTX type (sub-32-bit scalars widened, as the ABI needs).
pub fn abi_ty(ctx: &Context, t: TypeId) -> &'static str {
    match ctx.type_kind(t) {
        TypeKind::Float(FloatKind::F32) => ".f32",
        TypeKind::Float(FloatKind::F64) => ".f64",
        TypeKind::Integer { width, .. } if *width <= 32 => ".b32",
        TypeKind::Float(_) => ".b32",
        _ => ".b64",
    }
}

/// A kernel parameter's PTX type (exact, as NVRTC).
fn kernel_param_ty(ctx: &Context, t: TypeId) -> &'static str {
    match ctx.type_kind(t) {
        TypeKind::Integer { width, .. } if *width <= 8 => ".u8",
        TypeKind::Integer { width: 16, .. } => ".u16",
        TypeKind::Integer { width: 32, .. } => ".u32",
        TypeKind::Float(FloatKind::F32) => ".f32",
        TypeKind::Float(FloatKind::F64) => ".f64",
        TypeKind::Float(_) => ".b16",
        _ => ".u64",
    }
}

/// An operand: a register or an immediate/symbol value made for it.
type Operand = ValueId;

struct Sel<'c, 's> {
    ctx: &'c mut Context,
    sigs: &'s FxHashMap<String, (Vec<TypeId>, Vec<TypeId>)>,
    name: String,
    kernel: bool,
    /// The function carries [`FTZ`](crate::FTZ): f32 instructions get `.ftz`.
    ftz: bool,
    index: usize,
    region: RegionId,
    entry: BlockId,
    cur: BlockId,
    /// The edge blocks placed after a block so far (the block and how many), so that the
    /// next goes after them.
    edges_after: (BlockId, usize),
    blocks: FxHashMap<BlockId, BlockId>,
    regs: FxHashMap<ValueId, ValueId>,
    /// nvvm constants: (attribute, type).
    consts: FxHashMap<ValueId, AttrId>,
    depot: u64,
    depot_align: u64,
    loc: LocId,
    errors: Vec<LowerError>,
    /// The patterns `--disable-patterns` named.
    disabled: &'s [String],
    /// Ops a fusion pattern selects with the ops it absorbs ([`rules::Fusion`]), chosen
    /// bottom-up before selection; the absorbed ops select to nothing of their own.
    fused: FxHashMap<OpId, rules::Fusion>,
    absorbed: rustc_hash::FxHashSet<OpId>,
    /// Loads, stores and atomics address `[reg+imm]` through a constant `ptradd`
    /// (`isel-ptradd-into-address` enabled).
    fold_addresses: bool,
    /// Per pattern of [`rules::RULES`]: (tried, applied).
    stats: Vec<(u64, u64)>,
}

impl<'c, 's> Sel<'c, 's> {
    fn new(
        ctx: &'c mut Context,
        f: OpId,
        index: usize,
        sigs: &'s FxHashMap<String, (Vec<TypeId>, Vec<TypeId>)>,
        disabled: &'s [String],
    ) -> Self {
        let region = ctx.create_region();
        let entry = ctx.create_block(&[]);
        ctx.append_block(region, entry);
        let kernel = nvvm::FuncOp(f).kind(ctx) == Some(nvvm::FuncKind::Kernel);
        let ftz = nvvm::flushes_subnormals(ctx, f);
        let name = nvvm::FuncOp(f).sym_name(ctx).unwrap_or_default().to_string();
        let loc = ctx.op_loc(f);
        Sel {
            ctx,
            sigs,
            name,
            kernel,
            ftz,
            index,
            region,
            entry,
            cur: entry,
            edges_after: (entry, 0),
            blocks: FxHashMap::default(),
            regs: FxHashMap::default(),
            consts: FxHashMap::default(),
            depot: 0,
            depot_align: 1,
            loc,
            errors: Vec::new(),
            disabled,
            fused: FxHashMap::default(),
            absorbed: rustc_hash::FxHashSet::default(),
            fold_addresses: !disabled.iter().any(|d| d == rules::ADDRESS_FOLD),
            stats: vec![(0, 0); rules::RULES.len()],
        }
    }

    fn error(&mut self, msg: impl Into<String>) {
        self.errors.push(LowerError { loc: self.loc, message: msg.into() });
    }

    fn run(&mut self, f: OpId, module: BlockId) {
        let Some(results) = cuprite_dialects::func::function_type(self.ctx, f).map(|(_, r)| r.to_vec()) else {
            return;
        };
        let body = self.ctx.region(f, 0);
        let src_blocks: Vec<BlockId> = self.ctx.region_blocks(body).to_vec();
        if src_blocks.is_empty() {
            return self.declaration(f, &results, module);
        }
        for &b in &src_blocks {
            let nb = self.ctx.create_block(&[]);
            self.ctx.append_block(self.region, nb);
            self.blocks.insert(b, nb);
        }
        // Parameters.
        let mut params = Vec::new();
        if let Some(&e) = src_blocks.first() {
            let args: Vec<ValueId> = self.ctx.block_args(e).to_vec();
            let abi = if self.kernel {
                cuprite_dialects::nvvm::kernel_abi::kernel_params(self.ctx, f, args.len())
            } else {
                (0..args.len()).map(cuprite_dialects::nvvm::kernel_abi::KernelParam::Scalar).collect()
            };
            for (i, p) in abi.into_iter().enumerate() {
                let pname = format!("{}_param_{i}", self.name);
                match p {
                    cuprite_dialects::nvvm::kernel_abi::KernelParam::Scalar(k) => {
                        let a = args[k];
                        let t = self.ctx.value_type(a);
                        let decl = if self.kernel { kernel_param_ty(self.ctx, t) } else { abi_ty(self.ctx, t) };
                        params.push(self.ctx.str_attr(decl));
                        // A parameter nothing reads is declared, not loaded.
                        if self.ctx.has_uses(a) {
                            let sym = self.sym(&pname, t);
                            let r = self.reg(a);
                            self.load_param(r, sym, t, decl, None);
                        }
                    }
                    // A struct by value: one block of bytes, each scalar read at its offset.
                    cuprite_dialects::nvvm::kernel_abi::KernelParam::ByVal { size, align, leaves } => {
                        params.push(self.ctx.str_attr(&format!(".align {align} .b8 [{size}]")));
                        let i64t = self.ctx.i64();
                        let sym = self.sym(&pname, i64t);
                        for (k, off) in leaves {
                            let a = args[k];
                            if !self.ctx.has_uses(a) {
                                continue;
                            }
                            let t = self.ctx.value_type(a);
                            let r = self.reg(a);
                            self.load_param(r, sym, t, kernel_param_ty(self.ctx, t), Some(off as i64));
                        }
                    }
                }
            }
            let nb = self.blocks[&e];
            let st = state(self.ctx, "ptx.bra", self.loc, &[], &[], &[], &[nb]);
            let op = self.ctx.create_op(st);
            self.ctx.insert_op(op, InsertPoint::end(self.entry));
        }
        self.match_fusions(&src_blocks);
        let roots: rustc_hash::FxHashSet<OpId> = self.fused.keys().copied().collect();
        // What each fusion reads through: the operands of the ops it absorbs or shares,
        // and a widening multiply's 32-bit sources.
        let reads: FxHashMap<OpId, Vec<ValueId>> = self
            .fused
            .iter()
            .map(|(&root, f)| {
                let mut vs: Vec<ValueId> = f.absorbed.iter().chain(&f.shared).flat_map(|&a| self.ctx.operand_vec(a)).collect();
                vs.extend(f.wide.iter().flat_map(|&(a, b, _)| [a, b]));
                (root, vs)
            })
            .collect();
        for class in coalesce::coalesce(self.ctx, &src_blocks, &self.absorbed, &roots, &reads) {
            let r = self.new_reg(self.ctx.value_type(class[0]));
            for v in class {
                self.regs.insert(v, r);
            }
        }
        for &b in &src_blocks {
            self.cur = self.blocks[&b];
            let ops: Vec<OpId> = self.ctx.block_ops(b).collect();
            for op in ops {
                self.loc = self.ctx.op_loc(op);
                self.select(op, &results);
            }
        }
        let kind = i32_attr(self.ctx, if self.kernel { 0 } else { 1 });
        let params = self.ctx.attr(AttrKind::Array(params));
        let mut props = vec![("kind", kind), ("sym_name", self.ctx.str_attr(&self.name.clone())), ("params", params)];
        if !self.kernel {
            let rets: Vec<AttrId> =
                results.iter().map(|&t| abi_ty(self.ctx, t)).collect::<Vec<_>>().into_iter().map(|s| self.ctx.str_attr(s)).collect();
            props.push(("rets", self.ctx.attr(AttrKind::Array(rets))));
        }
        let nf = nvvm::FuncOp(f);
        for (k, a) in [
            ("maxntid", nf.maxntid_attr(self.ctx)),
            ("minnctapersm", nf.minnctapersm_attr(self.ctx)),
            ("maxnreg", nf.maxnreg_attr(self.ctx)),
        ] {
            if let Some(a) = a {
                props.push((k, a));
            }
        }
        props.push(("visible", self.ctx.unit_attr()));
        let mut st = state(self.ctx, "ptx.func", self.loc, &[], &[], &props, &[]);
        if self.depot > 0 {
            let k = self.ctx.sym("depot");
            let v = i64_attr(self.ctx, self.depot.div_ceil(self.depot_align) as i64 * self.depot_align as i64);
            st.props.push((k, v));
            let k = self.ctx.sym("depot_align");
            let v = i64_attr(self.ctx, self.depot_align as i64);
            st.props.push((k, v));
        }
        st.regions.push(self.region);
        let op = self.ctx.create_op(st);
        self.ctx.insert_op(op, InsertPoint::end(module));
    }

    /// An external function (`vprintf`): a `ptx.func` with no body and `extern`, printed
    /// as `.extern .func`.
    fn declaration(&mut self, f: OpId, results: &[TypeId], module: BlockId) {
        let inputs = cuprite_dialects::func::function_type(self.ctx, f).map(|(i, _)| i.to_vec()).unwrap_or_default();
        let params: Vec<AttrId> =
            inputs.iter().map(|&t| abi_ty(self.ctx, t)).collect::<Vec<_>>().into_iter().map(|s| self.ctx.str_attr(s)).collect();
        let rets: Vec<AttrId> =
            results.iter().map(|&t| abi_ty(self.ctx, t)).collect::<Vec<_>>().into_iter().map(|s| self.ctx.str_attr(s)).collect();
        let props = vec![
            ("kind", i32_attr(self.ctx, 1)),
            ("sym_name", self.ctx.str_attr(&self.name.clone())),
            ("params", self.ctx.attr(AttrKind::Array(params))),
            ("rets", self.ctx.attr(AttrKind::Array(rets))),
            ("extern", self.ctx.unit_attr()),
        ];
        let mut st = state(self.ctx, "ptx.func", self.loc, &[], &[], &props, &[]);
        st.regions.push(self.ctx.create_region());
        let op = self.ctx.create_op(st);
        self.ctx.insert_op(op, InsertPoint::end(module));
    }

    // ----- building ------------------------------------------------------------------

    fn at_entry_start(&self) -> InsertPoint {
        InsertPoint { block: self.entry, before: self.ctx.first_op(self.entry) }
    }

    /// A new virtual register of the class of `t`.
    fn new_reg(&mut self, t: TypeId) -> ValueId {
        let rt = reg_ty(self.ctx, t);
        let st = state(self.ctx, "ptx.reg", self.loc, &[], &[rt], &[], &[]);
        let op = self.ctx.create_op(st);
        let ip = self.at_entry_start();
        self.ctx.insert_op(op, ip);
        self.ctx.result(op, 0)
    }

    /// The register of an nvvm value.
    fn reg(&mut self, v: ValueId) -> ValueId {
        if let Some(&r) = self.regs.get(&v) {
            return r;
        }
        let t = self.ctx.value_type(v);
        let r = self.new_reg(t);
        self.regs.insert(v, r);
        r
    }

    fn imm(&mut self, a: AttrId, t: TypeId) -> ValueId {
        // An address immediate (a null pointer) is a 64-bit integer in PTX, and an integer
        // attribute must have an integer type for the IR to parse back.
        let t = if matches!(self.ctx.type_kind(t), TypeKind::Pointer { .. }) { self.ctx.i64() } else { t };
        let a = match self.ctx.attr_kind(a).clone() {
            AttrKind::Integer { value, .. } => self.ctx.int_attr(value, t),
            _ => a,
        };
        let st = state(self.ctx, "ptx.imm", self.loc, &[], &[t], &[("value", a)], &[]);
        let op = self.ctx.create_op(st);
        self.ctx.insert_op(op, InsertPoint::end(self.cur));
        self.ctx.result(op, 0)
    }

    fn imm_int(&mut self, v: i64, t: TypeId) -> ValueId {
        let a = self.ctx.int_attr(v as i128, t);
        self.imm(a, t)
    }

    fn sym(&mut self, name: &str, t: TypeId) -> ValueId {
        let n = self.ctx.symbol_ref(name);
        let i64t = if matches!(self.ctx.type_kind(t), TypeKind::Integer { width: 32, .. }) { t } else { self.ctx.i64() };
        let st = state(self.ctx, "ptx.sym", self.loc, &[], &[i64t], &[("name", n)], &[]);
        let op = self.ctx.create_op(st);
        self.ctx.insert_op(op, InsertPoint::end(self.cur));
        self.ctx.result(op, 0)
    }

    /// A source operand: an immediate for a constant, else the register.
    fn src(&mut self, v: ValueId) -> Operand {
        if let Some(&a) = self.consts.get(&v) {
            let t = self.ctx.value_type(v);
            // f16 instructions take no immediates.
            if width(self.ctx, t) != 1 && !is_half(self.ctx, t) {
                let rt = if is_float(self.ctx, t) { t } else { reg_ty(self.ctx, t) };
                return self.imm(a, rt);
            }
        }
        self.use_reg(v)
    }

    /// A source that must be a register (constants are moved into one).
    fn use_reg(&mut self, v: ValueId) -> ValueId {
        if let Some(&a) = self.consts.get(&v) {
            let t = self.ctx.value_type(v);
            let r = self.new_reg(t);
            if width(self.ctx, t) == 1 {
                let one = matches!(self.ctx.attr_kind(a), AttrKind::Integer { value, .. } if *value != 0);
                let i32t = self.ctx.i32();
                let x = self.imm_int(one as i64, i32t);
                let z = self.imm_int(0, i32t);
                self.inst("setp", "ne.u32", &[r, x, z], None);
            } else {
                let rt = if is_float(self.ctx, t) { t } else { reg_ty(self.ctx, t) };
                let a = match self.ctx.attr_kind(a).clone() {
                    // A half constant: its bits.
                    AttrKind::Float { bits, .. } if is_half(self.ctx, t) => self.ctx.int_attr(bits as i128, rt),
                    _ => a,
                };
                let i = self.imm(a, rt);
                let s = format!("b{}", width(self.ctx, rt).max(16));
                self.inst("mov", &s, &[r, i], None);
            }
            return r;
        }
        self.reg(v)
    }

    fn inst(&mut self, op: &str, mods: &str, args: &[ValueId], offset: Option<i64>) -> OpId {
        let ftz_mods = if self.ftz { with_ftz(op, mods) } else { None };
        let m = self.ctx.str_attr(ftz_mods.as_deref().unwrap_or(mods));
        let mut props = vec![("mods", m)];
        if let Some(o) = offset {
            props.push(("offset", i64_attr(self.ctx, o)));
        }
        let name = format!("ptx.{op}");
        let st = state(self.ctx, &name, self.loc, args, &[], &props, &[]);
        let o = self.ctx.create_op(st);
        self.ctx.insert_op(o, InsertPoint::end(self.cur));
        o
    }

    /// The cache operator of load or store `op` (`.nc`, `.cs`, ...): only on a global,
    /// non-volatile access (PTX has no other form).
    fn cache_op(&self, op: OpId, vol: &str, space: &str) -> String {
        match nvvm::cache_operator(self.ctx, op) {
            Some(c) if vol.is_empty() && space == ".global" => format!(".{c}"),
            _ => String::new(),
        }
    }

    /// Reads parameter `sym` (at byte `offset` of it) into `r`.
    fn load_param(&mut self, r: ValueId, sym: ValueId, t: TypeId, decl: &str, offset: Option<i64>) {
        let w = width(self.ctx, t);
        if w == 1 {
            let i16t = self.ctx.int_type(16);
            let tmp = self.new_reg(i16t);
            let ty = if self.kernel { "u8" } else { "u16" };
            self.inst("ld", &format!("param.{ty}"), &[tmp, sym], offset);
            let z = self.imm_int(0, i16t);
            self.inst("setp", "ne.b16", &[r, tmp, z], None);
            return;
        }
        let ty = if self.kernel { decl.trim_start_matches('.').to_string() } else { suffix(self.ctx, t, 'u').replace("u8", "u16") };
        self.inst("ld", &format!("param.{ty}"), &[r, sym], offset);
    }

    // ----- selection -----------------------------------------------------------------

    /// Whether pattern `name` is enabled.
    fn enabled(&self, name: &str) -> bool {
        self.disabled.is_empty() || !self.disabled.iter().any(|d| d == name)
    }

    /// The match phase of the fusion patterns: each block's ops bottom-up (a user before the
    /// ops it may absorb, as a DAG selector matches from the root), the higher benefit first;
    /// an op already absorbed is not matched again.
    fn match_fusions(&mut self, blocks: &[BlockId]) {
        // The fusions that read through each shared op (see [`rules::Fusion::shared`]).
        let mut shared: FxHashMap<OpId, usize> = FxHashMap::default();
        for &b in blocks {
            let ops: Vec<OpId> = self.ctx.block_ops(b).collect();
            for &op in ops.iter().rev() {
                if self.absorbed.contains(&op) {
                    continue;
                }
                for &k in rules::rules_for(self.ctx.op_name_str(op)) {
                    let r = &rules::RULES[k];
                    let rules::How::Fuse { matches, .. } = r.how else { continue };
                    if !self.enabled(r.name) {
                        continue;
                    }
                    self.stats[k].0 += 1;
                    if let Some(mut f) = matches(self.ctx, op) {
                        let taken = |a: &OpId| self.absorbed.contains(a) || self.fused.contains_key(a);
                        if f.absorbed.iter().any(taken) || f.shared.iter().any(|a| taken(a) || f.absorbed.contains(a)) {
                            continue;
                        }
                        self.stats[k].1 += 1;
                        f.rule = k;
                        self.absorbed.extend(f.absorbed.iter().copied());
                        for &a in &f.shared {
                            *shared.entry(a).or_default() += 1;
                        }
                        self.fused.insert(op, f);
                        break;
                    }
                }
            }
        }
        // A shared op is absorbed when fusions took every use of its result; otherwise
        // it is selected too (and the fusions still read its operands).
        for (a, n) in shared {
            let uses: usize = self.ctx.results(a).iter().map(|&r| self.ctx.uses(r).count()).sum();
            if uses == n && !self.absorbed.contains(&a) {
                self.absorbed.insert(a);
            }
        }
    }

    /// Selects `op`: nothing if a fusion absorbed it, its fusion's instructions if it roots
    /// one, else the first enabled selection pattern of its root (by benefit) that applies.
    fn select(&mut self, op: OpId, results: &[TypeId]) {
        if self.absorbed.contains(&op) {
            return;
        }
        let name = self.ctx.op_name_str(op).to_string();
        let res: Option<ValueId> = self.ctx.results(op).first().copied();
        let t = res.map(|r| self.ctx.value_type(r)).unwrap_or_else(|| self.ctx.i32());
        let a = rules::OpArgs { name: &name, ops: self.ctx.operand_vec(op), res, t, results };
        if let Some(f) = self.fused.remove(&op) {
            if let rules::How::Fuse { emit, .. } = rules::RULES[f.rule].how {
                emit(self, op, &a, &f);
                return;
            }
        }
        let mut any = false;
        for &k in rules::rules_for(&name) {
            let r = &rules::RULES[k];
            let rules::How::Select(select) = r.how else { continue };
            any = true;
            if !self.enabled(r.name) {
                continue;
            }
            self.stats[k].0 += 1;
            if select(self, op, &a) {
                self.stats[k].1 += 1;
                return;
            }
        }
        if any {
            self.error(format!("failed to legalize operation '{name}'"));
        } else if let Some((_, why)) = rules::UNSELECTABLE.iter().find(|(n, _)| *n == name) {
            self.error(*why);
        } else {
            self.error(format!("selecting '{name}' is not supported yet"));
        }
    }

    /// The target of an edge to `dest` passing `args`: `dest` itself, or a new block with
    /// the copies that branches there.
    fn edge(&mut self, dest: BlockId, args: &[ValueId]) -> BlockId {
        // No copies (none, or every argument shares the register of what it is passed).
        let params: Vec<ValueId> = self.ctx.block_args(dest).to_vec();
        if params
            .iter()
            .zip(args)
            .all(|(p, a)| !self.consts.contains_key(a) && self.regs.get(p).is_some_and(|r| self.regs.get(a) == Some(r)))
        {
            return self.blocks[&dest];
        }
        let saved = self.cur;
        let b = self.ctx.create_block(&[]);
        // Right after the branch's block (and its earlier edge blocks): between the branch
        // and its destinations, so the layout keeps following the control flow.
        let n = if self.edges_after.0 == saved { self.edges_after.1 } else { 0 };
        let at = self.ctx.block_index(saved).map_or(self.ctx.region_blocks(self.region).len(), |i| i + 1 + n);
        self.ctx.insert_block(self.region, at, b);
        self.edges_after = (saved, n + 1);
        self.cur = b;
        self.copies(dest, args);
        let nd = self.blocks[&dest];
        self.term("ptx.bra", &[], &[nd]);
        self.cur = saved;
        b
    }

    /// The copies an edge to `dest` passing `args` makes: (destination register, value),
    /// leaving out the arguments that share the register of their value.
    fn copy_pairs(&mut self, dest: BlockId, args: &[ValueId]) -> Vec<(ValueId, ValueId)> {
        let mut v = Vec::new();
        for (&p, &a) in self.ctx.block_args(dest).to_vec().iter().zip(args) {
            let d = self.reg(p);
            if self.consts.contains_key(&a) || self.regs.get(&a) != Some(&d) {
                v.push((d, a));
            }
        }
        v
    }

    /// The parallel copy of `args` into `dest`'s argument registers (an argument that shares
    /// the register of what it is passed needs none).
    fn copies(&mut self, dest: BlockId, args: &[ValueId]) {
        let mut params: Vec<ValueId> = Vec::new();
        let mut dsts: Vec<ValueId> = Vec::new();
        let mut srcs: Vec<ValueId> = Vec::new();
        for (&p, &a) in self.ctx.block_args(dest).to_vec().iter().zip(args) {
            let d = self.reg(p);
            let s = self.src(a);
            if d != s {
                params.push(p);
                dsts.push(d);
                srcs.push(s);
            }
        }
        let overlap = srcs.iter().any(|s| dsts.contains(s));
        let srcs = if overlap {
            let mut tmps = Vec::new();
            for (&s, &p) in srcs.iter().zip(&params) {
                let t = self.ctx.value_type(p);
                let tmp = self.new_reg(t);
                self.mov(tmp, s, t);
                tmps.push(tmp);
            }
            tmps
        } else {
            srcs
        };
        for ((&d, &s), &p) in dsts.iter().zip(&srcs).zip(&params) {
            if d != s {
                let t = self.ctx.value_type(p);
                self.mov(d, s, t);
            }
        }
    }

    fn mov(&mut self, d: ValueId, s: ValueId, t: TypeId) {
        let rt = reg_ty(self.ctx, t);
        let m = if width(self.ctx, rt) == 1 {
            "pred".to_string()
        } else if is_float(self.ctx, rt) {
            suffix(self.ctx, rt, 'f')
        } else {
            format!("b{}", width(self.ctx, rt))
        };
        self.inst("mov", &m, &[d, s], None);
    }

    fn term(&mut self, name: &str, operands: &[ValueId], succ: &[BlockId]) -> OpId {
        let st = state(self.ctx, name, self.loc, operands, &[], &[], succ);
        let op = self.ctx.create_op(st);
        self.ctx.insert_op(op, InsertPoint::end(self.cur));
        op
    }

    /// `[reg+imm]` or `[symbol]` addressing for an address value.
    fn address(&mut self, a: ValueId) -> (ValueId, Option<i64>) {
        if let Some(def) = self.ctx.defining_op(a).filter(|_| self.fold_addresses) {
            if self.ctx.is_op(def, "nvvm.ptradd") {
                // The constant's own op (not `consts`, which may not have seen it yet): the
                // `Fusions` absorbing this ptradd reads the same.
                if let Some(value) = crate::transforms::ptradd_const_offset(self.ctx, def) {
                    if i32::try_from(value).is_ok() {
                        let base = self.ctx.operand(def, 0);
                        let r = self.use_reg(base);
                        return (r, (value != 0).then_some(value as i64));
                    }
                }
            }
        }
        (self.use_reg(a), None)
    }

    fn int_bin(&mut self, op: &str, ops: &[ValueId], res: ValueId, t: TypeId) {
        let w = width(self.ctx, t);
        let d = self.reg(res);
        if w == 1 {
            // `xor(x, true)` is `not.pred`.
            let is_true = |s: &Self, v: ValueId| {
                s.consts.get(&v).is_some_and(|&a| matches!(s.ctx.attr_kind(a), AttrKind::Integer { value, .. } if *value & 1 == 1))
            };
            if op == "xor" && (is_true(self, ops[0]) || is_true(self, ops[1])) {
                let x = if is_true(self, ops[1]) { ops[0] } else { ops[1] };
                let a = self.use_reg(x);
                self.inst("not", "pred", &[d, a], None);
                return;
            }
            let a = self.use_reg(ops[0]);
            let b = self.use_reg(ops[1]);
            match op {
                "and" | "or" | "xor" => {
                    self.inst(op, "pred", &[d, a, b], None);
                }
                _ => self.error(format!("'{op}' on i1 is not supported")),
            }
            return;
        }
        let rw = w.max(16);
        let narrow = w < rw;
        // Sub-register widths (i8 in a 16-bit register): extend the operands where the
        // upper bits would change the result.
        let norm = |s: &mut Self, v: ValueId, signed: bool| -> ValueId {
            let r = s.src(v);
            if !narrow || s.consts.contains_key(&v) {
                return r;
            }
            let rt = s.ctx.value_type(r);
            let tmp = s.new_reg(rt);
            let k = if signed { 's' } else { 'u' };
            s.inst("cvt", &format!("{k}{rw}.{k}{w}"), &[tmp, r], None);
            tmp
        };
        let (mnem, mods, sa, sb) = match op {
            "add" => ("add", format!("s{rw}"), false, false),
            "sub" => ("sub", format!("s{rw}"), false, false),
            "mul" => ("mul", format!("lo.s{rw}"), false, false),
            "sdiv" => ("div", format!("s{rw}"), true, true),
            "udiv" => ("div", format!("u{rw}"), true, true),
            "srem" => ("rem", format!("s{rw}"), true, true),
            "urem" => ("rem", format!("u{rw}"), true, true),
            "and" => ("and", format!("b{rw}"), false, false),
            "or" => ("or", format!("b{rw}"), false, false),
            "xor" => ("xor", format!("b{rw}"), false, false),
            "shl" => ("shl", format!("b{rw}"), false, false),
            "lshr" => ("shr", format!("u{rw}"), true, false),
            _ => ("shr", format!("s{rw}"), true, false),
        };
        let signed = op.starts_with('s') || op == "ashr";
        let a = if sa { norm(self, ops[0], signed) } else { self.src(ops[0]) };
        let b = if sb { norm(self, ops[1], signed) } else { self.src(ops[1]) };
        // Shift amounts are 32-bit in PTX.
        let b = if matches!(mnem, "shl" | "shr") && rw != 32 { self.shift_amount(b, rw) } else { b };
        // PTX wants a register as the first source of most instructions.
        let a = if self.ctx.defining_op(a).is_some_and(|o| self.ctx.is_op(o, "ptx.imm")) {
            let r = self.new_reg(t);
            let s = format!("b{rw}");
            self.inst("mov", &s, &[r, a], None);
            r
        } else {
            a
        };
        self.inst(mnem, &mods, &[d, a, b], None);
    }

    /// An integer `m` + `c` into `res`: `mad.lo` (`mad.wide` with `wide`, the multiply's
    /// 32-bit operands and signedness).
    fn mad(&mut self, m: OpId, c: ValueId, res: ValueId, t: TypeId, wide: Option<(ValueId, ValueId, bool)>) {
        let d = self.reg(res);
        let (x, y) = (self.ctx.operand(m, 0), self.ctx.operand(m, 1));
        let c = self.src(c);
        if let Some((a, b, signed)) = wide {
            let (a, b) = (self.use_reg(a), self.src32(b));
            let k = if signed { 's' } else { 'u' };
            self.inst("mad", &format!("wide.{k}32"), &[d, a, b, c], None);
        } else {
            let (a, b) = (self.use_reg(x), self.src(y));
            let rw = width(self.ctx, t).max(16);
            self.inst("mad", &format!("lo.s{rw}"), &[d, a, b, c], None);
        }
    }

    /// `op` (an `fadd` or `fsub`) = `m` (operand `i` of `op`) + the other operand, as one
    /// `fma.rn`, with the negation `neg` folds into a constant (see [`rules`]).
    fn fma(&mut self, op: OpId, m: OpId, i: usize, res: ValueId, t: TypeId, neg: rules::FmaNeg) {
        let d = self.reg(res);
        let s = suffix(self.ctx, t, 'f');
        let (mut x, mut y) = (self.ctx.operand(m, 0), self.ctx.operand(m, 1));
        // A constant factor goes second (the first source must be a register).
        if matches!(neg, rules::FmaNeg::None | rules::FmaNeg::Addend) && self.consts.contains_key(&x) && !self.consts.contains_key(&y) {
            std::mem::swap(&mut x, &mut y);
        }
        let c = self.ctx.operand(op, 1 - i);
        let (a, b, c) = match neg {
            rules::FmaNeg::None => (self.use_reg(x), self.src(y), self.src(c)),
            rules::FmaNeg::Addend => (self.use_reg(x), self.src(y), self.neg_imm(c)),
            rules::FmaNeg::Product(j) => (self.use_reg(self.ctx.operand(m, 1 - j)), self.neg_imm(self.ctx.operand(m, j)), self.src(c)),
            rules::FmaNeg::StripNeg(j) => {
                let n = self.ctx.defining_op(self.ctx.operand(m, j)).expect("an fneg");
                let (a, b) = (self.ctx.operand(n, 0), self.ctx.operand(m, 1 - j));
                (self.use_reg(a), self.src(b), self.src(c))
            }
            rules::FmaNeg::AddendProduct(m2, j) => {
                let p = self.new_reg(t);
                let (u, k) = (self.use_reg(self.ctx.operand(m2, 1 - j)), self.neg_imm(self.ctx.operand(m2, j)));
                self.inst("mul", &s, &[p, u, k], None);
                (self.use_reg(x), self.src(y), p)
            }
        };
        self.inst("fma", &format!("rn.{s}"), &[d, a, b, c], None);
    }

    /// `op` = `x + (-y)` as `x - y`, where `-y` is operand `i` of `op`: `n` (an `fneg` of
    /// `y`) itself, or product `m` of `n` (then `x - a * b`, the product selected as a
    /// `mul` of the negation's operand).
    fn sub_of_negation(&mut self, op: OpId, n: OpId, m: Option<OpId>, i: usize, res: ValueId, t: TypeId) {
        let s = suffix(self.ctx, t, 'f');
        let rn = |flags: nvvm::FloatFlags| if flags.contract { s.clone() } else { format!("rn.{s}") };
        let y = self.ctx.operand(n, 0);
        let sub = match m {
            None => self.use_reg(y),
            Some(m) => {
                let other = (0..2).map(|j| self.ctx.operand(m, j)).find(|&v| self.ctx.defining_op(v) != Some(n)).unwrap_or(y);
                let p = self.new_reg(t);
                let (a, b) = (self.use_reg(y), self.src(other));
                let mods = rn(nvvm::float_flags(self.ctx, m));
                self.inst("mul", &mods, &[p, a, b], None);
                p
            }
        };
        let d = self.reg(res);
        let x = self.src(self.ctx.operand(op, 1 - i));
        let mods = rn(nvvm::float_flags(self.ctx, op));
        self.inst("sub", &mods, &[d, x, sub], None);
    }

    /// Float constant `v` negated: an immediate (a `neg` of its register if it were not
    /// known as a constant).
    fn neg_imm(&mut self, v: ValueId) -> ValueId {
        let t = self.ctx.value_type(v);
        if let Some(cuprite_ir::AttrKind::Float { bits, ty }) = self.consts.get(&v).map(|&a| self.ctx.attr_kind(a).clone()) {
            let a = self.ctx.attr(cuprite_ir::AttrKind::Float { bits: bits ^ (1u64 << (width(self.ctx, t) - 1)), ty });
            return self.imm(a, t);
        }
        let (r, n) = (self.use_reg(v), self.new_reg(t));
        let s = suffix(self.ctx, t, 'f');
        self.inst("neg", &s, &[n, r], None);
        n
    }

    /// A 32-bit source for `mul.wide`/`mad.wide`: the value, or a constant as an i32
    /// immediate.
    fn src32(&mut self, v: ValueId) -> ValueId {
        match self.ctx.defining_op(v).and_then(|d| nvvm::int_constant(self.ctx, d)) {
            Some(value) => {
                let i32t = self.ctx.i32();
                self.imm_int(value as i64, i32t)
            }
            _ => self.use_reg(v),
        }
    }

    fn shift_amount(&mut self, b: ValueId, rw: u32) -> ValueId {
        let i32t = self.ctx.i32();
        if let Some(def) = self.ctx.defining_op(b) {
            if let Some(value) = cuprite_dialects::ptx::int_immediate(self.ctx, def) {
                return self.imm_int(value as i64, i32t);
            }
        }
        let r = self.new_reg(i32t);
        self.inst("cvt", &format!("u32.u{rw}"), &[r, b], None);
        r
    }

    fn icmp(&mut self, op: OpId, ops: &[ValueId], res: ValueId) {
        use cuprite_dialects::nvvm::ICmpPredicate as P;
        let p = cuprite_dialects::nvvm::ICmpOp(op).predicate(self.ctx).unwrap_or(P::Eq);
        let at = self.ctx.value_type(ops[0]);
        let d = self.reg(res);
        let w = width(self.ctx, at);
        if w == 1 {
            let a = self.use_reg(ops[0]);
            let b = self.use_reg(ops[1]);
            let i1 = self.ctx.i1();
            // Unsigned, true is 1; signed, true is -1 (so `slt` is `ugt`).
            let (and, negate_a) = match p {
                P::Eq | P::Ne => {
                    if p == P::Eq {
                        let x = self.new_reg(i1);
                        self.inst("xor", "pred", &[x, a, b], None);
                        self.inst("not", "pred", &[d, x], None);
                    } else {
                        self.inst("xor", "pred", &[d, a, b], None);
                    }
                    return;
                }
                // a < b: !a & b; a <= b: !a | b; a > b: a & !b; a >= b: a | !b.
                P::Ult | P::Sgt => (true, true),
                P::Ule | P::Sge => (false, true),
                P::Ugt | P::Slt => (true, false),
                P::Uge | P::Sle => (false, false),
            };
            let (x, y) = if negate_a { (a, b) } else { (b, a) };
            let nx = self.new_reg(i1);
            self.inst("not", "pred", &[nx, x], None);
            self.inst(if and { "and" } else { "or" }, "pred", &[d, nx, y], None);
            return;
        }
        let rw = w.max(16);
        let signed = matches!(p, P::Slt | P::Sle | P::Sgt | P::Sge);
        let (cc, k) = match p {
            P::Eq => ("eq", 'b'),
            P::Ne => ("ne", 'b'),
            P::Slt => ("lt", 's'),
            P::Sle => ("le", 's'),
            P::Sgt => ("gt", 's'),
            P::Sge => ("ge", 's'),
            P::Ult => ("lo", 'u'),
            P::Ule => ("ls", 'u'),
            P::Ugt => ("hi", 'u'),
            P::Uge => ("hs", 'u'),
        };
        let mut a = self.use_reg(ops[0]);
        let mut b = self.src(ops[1]);
        if w < rw {
            let s = if signed { 's' } else { 'u' };
            let i16t = self.ctx.int_type(16);
            let ta = self.new_reg(i16t);
            self.inst("cvt", &format!("{s}16.{s}{w}"), &[ta, a], None);
            a = ta;
            match self.consts.get(&ops[1]).map(|&c| self.ctx.attr_kind(c).clone()) {
                // A constant operand is extended as the register one is: `x == (i8)-1`
                // compares the zero-extended byte with 255, not with 0xffff.
                Some(AttrKind::Integer { value, .. }) => {
                    let m = (1i128 << w) - 1;
                    let low = value & m;
                    let v = if signed && low >> (w - 1) != 0 { low - (1 << w) } else { low };
                    b = self.imm_int(v as i64, i16t);
                }
                Some(_) => {}
                None => {
                    let tb = self.new_reg(i16t);
                    self.inst("cvt", &format!("{s}16.{s}{w}"), &[tb, b], None);
                    b = tb;
                }
            }
        }
        self.inst("setp", &format!("{cc}.{k}{rw}"), &[d, a, b], None);
    }

    fn cast(&mut self, kind: &str, src: ValueId, res: ValueId) {
        let from = self.ctx.value_type(src);
        let to = self.ctx.value_type(res);
        let (fw, tw) = (width(self.ctx, from), width(self.ctx, to));
        let d = self.reg(res);
        let i32t = self.ctx.i32();
        match kind {
            "trunc" if tw == 1 => {
                let s = self.use_reg(src);
                let rw = fw.max(16);
                let rt = reg_ty(self.ctx, from);
                let tmp = self.new_reg(rt);
                let one = self.imm_int(1, rt);
                self.inst("and", &format!("b{rw}"), &[tmp, s, one], None);
                self.inst("setp", &format!("eq.b{rw}"), &[d, tmp, one], None);
            }
            "trunc" => {
                let s = self.use_reg(src);
                let (rf, rt) = (fw.max(16), tw.max(16));
                if rf == rt {
                    self.inst("mov", &format!("b{rt}"), &[d, s], None);
                } else {
                    self.inst("cvt", &format!("u{rt}.u{rf}"), &[d, s], None);
                }
            }
            "zext" | "sext" if fw == 1 => {
                let s = self.use_reg(src);
                let rt = reg_ty(self.ctx, to);
                let one = self.imm_int(if kind == "sext" { -1 } else { 1 }, rt);
                let z = self.imm_int(0, rt);
                self.inst("selp", &format!("b{}", tw.max(16)), &[d, one, z, s], None);
            }
            "zext" | "sext" => {
                let s = self.use_reg(src);
                let k = if kind == "sext" { 's' } else { 'u' };
                self.inst("cvt", &format!("{k}{}.{k}{fw}", tw.max(16)), &[d, s], None);
            }
            "fptosi" | "fptoui" => {
                let s = self.use_reg(src);
                let k = if kind == "fptosi" { 's' } else { 'u' };
                let f = suffix(self.ctx, from, 'f');
                if tw == 1 {
                    let tmp = self.new_reg(i32t);
                    self.inst("cvt", &format!("rzi.{k}32.{f}"), &[tmp, s], None);
                    let z = self.imm_int(0, i32t);
                    self.inst("setp", "ne.b32", &[d, tmp, z], None);
                } else {
                    self.inst("cvt", &format!("rzi.{k}{}.{f}", tw.max(16)), &[d, s], None);
                }
            }
            "sitofp" | "uitofp" => {
                let mut s = self.use_reg(src);
                let mut fw = fw;
                if fw == 1 {
                    let tmp = self.new_reg(i32t);
                    let one = self.imm_int(if kind == "sitofp" { -1 } else { 1 }, i32t);
                    let z = self.imm_int(0, i32t);
                    self.inst("selp", "b32", &[tmp, one, z, s], None);
                    s = tmp;
                    fw = 32;
                }
                let k = if kind == "sitofp" { 's' } else { 'u' };
                let f = suffix(self.ctx, to, 'f');
                self.inst("cvt", &format!("rn.{f}.{k}{fw}"), &[d, s], None);
            }
            "fpext" => {
                let s = self.use_reg(src);
                self.inst("cvt", &format!("f{tw}.f{fw}"), &[d, s], None);
            }
            "fptrunc" => {
                let s = self.use_reg(src);
                self.inst("cvt", &format!("rn.f{tw}.f{fw}"), &[d, s], None);
            }
            "bitcast" | "ptrtoint" | "inttoptr" => {
                let s = self.src(src);
                self.inst("mov", &format!("b{}", tw.max(16)), &[d, s], None);
            }
            _ => {
                // addrspacecast: cvta between generic and a state space.
                let s = self.use_reg(src);
                let (fs, ts) = (space_of(self.ctx, from), space_of(self.ctx, to));
                if fs.is_empty() && !ts.is_empty() {
                    self.inst("cvta", &format!("to{ts}.u64"), &[d, s], None);
                } else if !fs.is_empty() && ts.is_empty() {
                    self.inst("cvta", &format!("{}.u64", &fs[1..]), &[d, s], None);
                } else {
                    self.error("a cast between two non-generic address spaces");
                }
            }
        }
    }

    fn intr(&mut self, op: OpId, ops: &[ValueId], res: ValueId, t: TypeId) {
        let name = nvvm::IntrOp(op).name(self.ctx).unwrap_or_default().to_string();
        let d = self.reg(res);
        // The first source must be a register: a constant first operand of a commutative
        // pair trades places with a register (`fmaf(K, r, c)` is `fma r, K, c`, no `mov`).
        let mut ops = ops.to_vec();
        let commutes = matches!(name.split('.').next(), Some("fma" | "add" | "mul"))
            || matches!(name.as_str(), "min" | "max" | "smin" | "smax" | "umin" | "umax" | "mul24" | "umul24" | "mulhi" | "umulhi");
        if commutes && ops.len() >= 2 && self.consts.contains_key(&ops[0]) && !self.consts.contains_key(&ops[1]) {
            ops.swap(0, 1);
        }
        let ops = ops.as_slice();
        let at = ops.first().map(|&o| self.ctx.value_type(o)).unwrap_or(t);
        let f = suffix(self.ctx, at, 'f');
        let aw = width(self.ctx, at);
        // `add.rz`, `cvt.rm.f.s`: an operation with an explicit rounding mode.
        // (Half precision has its own forms below.)
        if let Some(r) = Rounded::from_nvvm(&name).filter(|_| f != "f16") {
            let (mnem, mods) = match r {
                Rounded::Arith(op, mode) => (op, format!("{}.{f}", mode.ptx())),
                Rounded::Convert { from, to, mode } => {
                    let m = mode.ptx();
                    let int = |n: Num, w: u32| format!("{}{w}", if n == Num::Signed { 's' } else { 'u' });
                    let rf = suffix(self.ctx, t, 'f');
                    let mods = match (from, to) {
                        (Num::Float, Num::Float) => format!("{m}.{rf}.{f}"),
                        (Num::Float, _) => format!("{m}i.{}.{f}", int(to, width(self.ctx, t))),
                        _ => format!("{m}.{rf}.{}", int(from, aw)),
                    };
                    ("cvt", mods)
                }
            };
            let mut args = vec![d];
            for (i, &o) in ops.iter().enumerate() {
                // The first source is a register; the others may be immediates.
                let r = if i == 0 { self.use_reg(o) } else { self.src(o) };
                args.push(r);
            }
            self.inst(mnem, &mods, &args, None);
            return;
        }
        let (mnem, mods): (&str, String) = match name.as_str() {
            // No f16 square root or reciprocal in PTX: through f32, correctly rounded
            // (24 >= 2 * 11 + 2 bits) where the f32 instruction is.
            "sqrt.rn" | "sqrt.approx" | "rsqrt.approx" | "rcp.rn" | "rcp.approx" | "ex2.approx" | "lg2.approx" | "sin.approx"
            | "cos.approx"
                if f == "f16" =>
            {
                let (m, mods) = name.split_once('.').expect("dotted");
                return self.half_via_f32(m, &format!("{mods}.f32"), ops, res);
            }
            // abs.f16 needs PTX 6.5 (sm_75's minimum is 6.3): the sign bit cleared.
            "abs" if f == "f16" => {
                let a = self.use_reg(ops[0]);
                let i16t = self.ctx.int_type(16);
                let m = self.imm_int(0x7FFF, i16t);
                self.inst("and", "b16", &[d, a, m], None);
                return;
            }
            // min.f16 and max.f16 need sm_80: through f32 (exact).
            "min" | "max" if f == "f16" => return self.half_via_f32(&name, "f32", ops, res),
            "sqrt.rn" => ("sqrt", format!("rn.{f}")),
            "sqrt.approx" => ("sqrt", format!("approx.{f}")),
            "rsqrt.approx" if f == "f64" => ("rsqrt", "approx.ftz.f64".into()),
            "rsqrt.approx" => ("rsqrt", format!("approx.{f}")),
            "rcp.rn" => ("rcp", format!("rn.{f}")),
            "rcp.approx" => ("rcp", format!("approx.{f}")),
            "div.full" => ("div", "full.f32".into()),
            "div.approx" => ("div", "approx.f32".into()),
            "fma.rn" => ("fma", format!("rn.{f}")),
            "abs" => ("abs", f.clone()),
            "min" => ("min", f.clone()),
            "max" => ("max", f.clone()),
            "smin" => ("min", format!("s{aw}")),
            "smax" => ("max", format!("s{aw}")),
            "umin" => ("min", format!("u{aw}")),
            "umax" => ("max", format!("u{aw}")),
            "ex2.approx" => ("ex2", format!("approx.{f}")),
            "lg2.approx" => ("lg2", format!("approx.{f}")),
            "sin.approx" => ("sin", format!("approx.{f}")),
            "cos.approx" => ("cos", format!("approx.{f}")),
            "trunc" => ("cvt", format!("rzi.{f}.{f}")),
            "floor" => ("cvt", format!("rmi.{f}.{f}")),
            "ceil" => ("cvt", format!("rpi.{f}.{f}")),
            "rint" => ("cvt", format!("rni.{f}.{f}")),
            "saturate" => ("cvt", format!("sat.{f}.{f}")),
            "popc" => ("popc", format!("b{aw}")),
            "clz" => ("clz", format!("b{aw}")),
            "brev" => ("brev", format!("b{aw}")),
            "mul24" => ("mul24", "lo.s32".into()),
            "umul24" => ("mul24", "lo.u32".into()),
            "mulhi" => ("mul", format!("hi.s{aw}")),
            "umulhi" => ("mul", format!("hi.u{aw}")),
            "prmt" => ("prmt", "b32".into()),
            // bfloat16 instructions on 16-bit registers (no immediates): cuda_bf16.h's
            // built-ins, for the targets that have them (sm_80; add, sub, mul and the
            // widening cvt sm_90).
            n if cuprite_dialects::nvvm::is_bf16_instruction(n) => {
                let (mnem, mods) = name.split_once('.').unwrap_or((&name, ""));
                let mut args = vec![d];
                for &o in ops {
                    args.push(self.use_reg(o));
                }
                self.inst(mnem, mods, &args, None);
                return;
            }
            "dp4a.s32.s32" => ("dp4a", "s32.s32".into()),
            "dp4a.u32.u32" => ("dp4a", "u32.u32".into()),
            "shf.l.wrap" => ("shf", "l.wrap.b32".into()),
            "shf.r.wrap" => ("shf", "r.wrap.b32".into()),
            "shf.l.clamp" => ("shf", "l.clamp.b32".into()),
            "shf.r.clamp" => ("shf", "r.clamp.b32".into()),
            "copysign" => {
                // C copysign(x, y) has x's magnitude and y's sign; PTX takes the sign first.
                let x = self.use_reg(ops[0]);
                let y = self.use_reg(ops[1]);
                self.inst("copysign", &f, &[d, y, x], None);
                return;
            }
            other => {
                self.error(format!("selecting the intrinsic '{other}' is not supported yet"));
                return;
            }
        };
        let mut args = vec![d];
        for (i, &o) in ops.iter().enumerate() {
            // Unary instructions and cvt take a register source.
            let r = if i == 0 { self.use_reg(o) } else { self.src(o) };
            args.push(r);
        }
        self.inst(mnem, &mods, &args, None);
    }

    /// `res = cvt.rn.f16(mnem.mods(cvt.f32(ops...)))`: an f16 operation PTX lacks, done in f32.
    fn half_via_f32(&mut self, mnem: &str, mods: &str, ops: &[ValueId], res: ValueId) {
        let f32t = self.ctx.float_type(FloatKind::F32);
        let mut args = vec![self.new_reg(f32t)];
        for &o in ops {
            let h = self.use_reg(o);
            let w = self.new_reg(f32t);
            self.inst("cvt", "f32.f16", &[w, h], None);
            args.push(w);
        }
        let r = args[0];
        self.inst(mnem, mods, &args, None);
        let d = self.reg(res);
        self.inst("cvt", "rn.f16.f32", &[d, r], None);
    }

    /// A value as the ABI passes it: sub-32-bit integers widened to 32 bits.
    fn abi_widen(&mut self, v: ValueId, t: TypeId) -> ValueId {
        let w = width(self.ctx, t);
        let r = self.use_reg(v);
        if is_float(self.ctx, t) || w >= 32 {
            return r;
        }
        let i32t = self.ctx.i32();
        let tmp = self.new_reg(i32t);
        if w == 1 {
            let one = self.imm_int(1, i32t);
            let z = self.imm_int(0, i32t);
            self.inst("selp", "u32", &[tmp, one, z, r], None);
        } else {
            self.inst("cvt", "u32.u16", &[tmp, r], None);
        }
        tmp
    }

    fn call(&mut self, op: OpId, ops: &[ValueId]) {
        let callee = nvvm::CallOp(op).callee(self.ctx).unwrap_or_default().to_string();
        let Some((ins, outs)) = self.sigs.get(&callee).cloned() else {
            self.error(format!("call of '{callee}', which has no definition in this file (separate compilation is not supported yet)"));
            return;
        };
        let rs: Vec<ValueId> = self.ctx.results(op).to_vec();
        let mut args = Vec::new();
        let mut narrow = Vec::new();
        for (&r, &t) in rs.iter().zip(&outs) {
            let w = width(self.ctx, t);
            let d = self.reg(r);
            if !is_float(self.ctx, t) && w < 32 {
                let i32t = self.ctx.i32();
                let tmp = self.new_reg(i32t);
                narrow.push((d, tmp, w));
                args.push(tmp);
            } else {
                args.push(d);
            }
        }
        for (&v, &t) in ops.iter().zip(&ins) {
            let r = self.abi_widen(v, t);
            args.push(r);
        }
        let c = self.ctx.symbol_ref(&callee);
        let n = i32_attr(self.ctx, rs.len() as i64);
        let st = state(self.ctx, "ptx.call", self.loc, &args, &[], &[("callee", c), ("nresults", n)], &[]);
        let o = self.ctx.create_op(st);
        self.ctx.insert_op(o, InsertPoint::end(self.cur));
        for (d, tmp, w) in narrow {
            if w == 1 {
                let i32t = self.ctx.i32();
                let z = self.imm_int(0, i32t);
                self.inst("setp", "ne.b32", &[d, tmp, z], None);
            } else {
                self.inst("cvt", "u16.u32", &[d, tmp], None);
            }
        }
    }
}

/// A memory access's type suffix (`u32`, `f32`, `u64` for pointers, `u8` for i8).
fn mem_suffix(ctx: &Context, t: TypeId) -> String {
    match ctx.type_kind(t) {
        TypeKind::Float(FloatKind::F32) => "f32".into(),
        TypeKind::Float(FloatKind::F64) => "f64".into(),
        TypeKind::Float(_) => "b16".into(),
        TypeKind::Integer { width, .. } => format!("u{}", (*width).max(8)),
        _ => "u64".into(),
    }
}

/// Joins modifier pieces (`".volatile"`, `".global"`, `".u32"`) into a mods string
/// without the leading dot.
fn join(parts: &[&str]) -> String {
    parts.concat().trim_start_matches('.').to_string()
}
