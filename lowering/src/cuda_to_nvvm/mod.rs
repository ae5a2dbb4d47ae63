//! CudaToNvvm: the `cuda` dialect to the `nvvm` dialect, one function at a time.
//!
//! The translation walks each `func.func` once and builds its `nvvm.func` beside it in a
//! new module (the `cuda` module stays as it was, for `--emit=cuda` and for comparing). It
//! runs after the pattern-based conversions that work in place on the `cuda` module
//! ([`crate::passes::in_place_conversions`]): control flow is already blocks and `cf`
//! branches (`convert-scf-to-cf`, `lower-cuda-control-flow`), the GPU ops, `arith` and
//! `math` already nvvm; what they lower is an error here, naming the pass that lowers it.
//! What is left is the part that changes types and the ABI:
//!
//! 1. The function's CFG becomes an nvvm CFG, block by block (`FnLowering::lower_region`):
//!    `cf.br`/`cf.cond_br` branch between the new blocks, block arguments flattened as
//!    values are.
//! 2. Ops of other dialects (`arith`, or the `nvvm` ops `convert-arith-to-nvvm` made of
//!    it) move over unchanged on the lowered operands: scalar types are signless on both
//!    levels. Pointers become opaque `!llvm.ptr<space>`; `cuda.ptr_cmp` is an unsigned
//!    `icmp` of the addresses.
//! 3. Memory: a local `cuda.var` is an `nvvm.alloca` in the entry block (mem2reg promotes
//!    the scalar ones at `-O1`); a `__shared__` one is a module-level `nvvm.global` in space
//!    3 named `<function>$<variable>`; `ptr_add` scales the index to bytes (`ptradd`),
//!    `member_addr` adds the field's offset from the struct layout ([`cuprite_dialects::cuda::layout`]).
//! 4. Structs and arrays by value are their scalars ([`layout::leaves`]): loading one loads
//!    each scalar, storing one stores each; a device function takes an aggregate parameter
//!    as its scalars, and returns an aggregate by storing it through a pointer to a caller's
//!    local temporary, passed first (mem2reg's scalar replacement promotes the temporary
//!    once the call is inlined). A kernel's struct parameter is its scalars too, and the
//!    kernel carries where each lives in the host's bytes ([`cuprite_dialects::nvvm::kernel_abi`]).
//! 5. Textures, inline `asm` and calls map to their nvvm ops (a materialization cast from
//!    `convert-cuda-gpu-to-nvvm`, a cuda pointer as an `!llvm.ptr`, becomes the pointer
//!    lowered here); the built-in functions
//!    with a PTX instruction of the right accuracy map to `nvvm.intr`
//!    (`FnLowering::intrinsic`); the rest of the math library is a "not supported yet" error
//!    at the call (`link-math-library` links it first).
//!
//! Errors carry the op's location; the translation goes on after one (with a zero value in
//! place of what failed) so that all of a function's problems are reported at once.

use crate::FloatOptions;
use cuprite_dialects::cuda::layout;
use cuprite_dialects::cuda::types::{decode, AddrSpace, Decoded};
use cuprite_ir::{AttrId, AttrKind, BlockId, Context, LocId, OpId, OperationState, RegionId, Signedness, TypeId, TypeKind, ValueId};
use rustc_hash::{FxHashMap, FxHashSet};

/// The scalars of an aggregate type: (byte offset, cuda type) ([`layout::leaves`]).
type Leaves = std::rc::Rc<[(u64, TypeId)]>;

/// A problem lowering an op: where, and what.
#[derive(Clone, Debug)]
pub struct LowerError {
    pub loc: LocId,
    pub message: String,
}

pub use cuprite_dialects::nvvm::FTZ;

/// Lowers the `cuda` module `module` to a new `nvvm` module in the same context.
pub fn cuda_to_nvvm(ctx: &mut Context, module: OpId, opts: &FloatOptions) -> Result<OpId, Vec<LowerError>> {
    let loc = ctx.op_loc(module);
    let (new_module, body) = make_module(ctx, loc);
    let mut errors = Vec::new();
    let mut names = FxHashSet::default();
    let src_block = ctx.entry_block(ctx.region(module, 0)).expect("module body");
    let ops: Vec<OpId> = ctx.block_ops(src_block).collect();
    for op in &ops {
        if ctx.is_op(*op, "func.func") {
            names.insert(cuprite_dialects::func::FuncOp(*op).sym_name(ctx).unwrap_or_default().to_string());
        }
    }
    for op in ops {
        match ctx.op_name_str(op) {
            "cuda.global" => lower_global(ctx, op, body, &mut errors),
            "func.func" => {
                let mut f = FnLowering::new(ctx, op, body, &mut names);
                f.run(op);
                errors.append(&mut f.errors);
            }
            other => errors.push(LowerError { loc: ctx.op_loc(op), message: format!("cannot lower '{other}' at module level") }),
        }
    }
    if opts.ftz {
        let unit = ctx.unit_attr();
        let funcs: Vec<OpId> = ctx.block_ops(body).filter(|&o| ctx.is_op(o, "nvvm.func")).collect();
        for f in funcs {
            ctx.set_attr(f, FTZ, unit);
        }
    }
    if errors.is_empty() {
        Ok(new_module)
    } else {
        Err(errors)
    }
}

/// A new `builtin.module` (not inserted anywhere) and its block.
pub fn make_module(ctx: &mut Context, loc: LocId) -> (OpId, BlockId) {
    let r = ctx.create_region();
    let b = ctx.create_block(&[]);
    ctx.append_block(r, b);
    let mut st = OperationState::new(ctx, "builtin.module", loc);
    st.regions.push(r);
    (ctx.create_op(st), b)
}

pub(crate) fn space_num(s: AddrSpace) -> u32 {
    match s {
        AddrSpace::Generic => 0,
        AddrSpace::Global => 1,
        AddrSpace::Shared => 3,
        AddrSpace::Constant => 4,
        AddrSpace::Local => 5,
    }
}

/// The bytes of a scalar constant, little-endian, `size` long.
fn scalar_bytes(ctx: &Context, a: AttrId, size: u64) -> Option<Vec<i64>> {
    let bits: u128 = match ctx.attr_kind(a) {
        AttrKind::Integer { value, .. } => *value as u128,
        AttrKind::Float { bits, .. } => *bits as u128,
        _ => return None,
    };
    Some((0..size).map(|i| ((bits >> (8 * i)) & 0xff) as i8 as i64).collect())
}

/// Writes constant initializer `a` of a `ty` at byte `at` of `out`: a scalar, or an array
/// of them (nested for arrays of arrays; missing trailing elements stay zero).
fn init_bytes(ctx: &mut Context, a: AttrId, ty: TypeId, out: &mut [i64], at: usize) -> Option<()> {
    if let AttrKind::Array(items) = ctx.attr_kind(a).clone() {
        let Some(cuprite_dialects::cuda::types::Decoded::Array { n, elem }) = cuprite_dialects::cuda::types::decode(ctx, ty) else {
            return None;
        };
        let et = layout::parse_ty(ctx, &elem)?;
        let (stride, _) = layout::size_align(ctx, et)?;
        if items.len() as u64 > n {
            return None;
        }
        for (i, it) in items.into_iter().enumerate() {
            init_bytes(ctx, it, et, out, at + i * stride as usize)?;
        }
        return Some(());
    }
    let (size, _) = layout::size_align(ctx, ty)?;
    let b = scalar_bytes(ctx, a, size)?;
    out.get_mut(at..at + b.len())?.copy_from_slice(&b);
    Some(())
}

fn lower_global(ctx: &mut Context, op: OpId, module: BlockId, errors: &mut Vec<LowerError>) {
    let loc = ctx.op_loc(op);
    let g = cuprite_dialects::cuda::GlobalOp(op);
    let name = g.sym_name(ctx).unwrap_or_default().to_string();
    let space = g.space(ctx).map_or(1, |s| s as i64);
    let Some(ty) = g.r#type(ctx) else {
        return errors.push(LowerError { loc, message: format!("global '{name}' has no type") });
    };
    let Some((size, align)) = layout::size_align(ctx, ty) else {
        return errors.push(LowerError { loc, message: format!("global '{name}' has an incomplete type") });
    };
    let mut props = vec![
        ("space", i32_attr(ctx, space)),
        ("sym_name", ctx.str_attr(&name)),
        ("size", i64_attr(ctx, size as i64)),
        ("align", i32_attr(ctx, align as i64)),
    ];
    if let Some(init) = g.init_attr(ctx) {
        let mut bytes = vec![0i64; size as usize];
        match init_bytes(ctx, init, ty, &mut bytes, 0).map(|()| bytes) {
            Some(bytes) => {
                let elem = ctx.int_type(8);
                let a = ctx.attr(AttrKind::DenseArray { elem, values: bytes });
                props.push(("init", a));
            }
            None => errors.push(LowerError { loc, message: format!("the initializer of '{name}' is not supported yet") }),
        }
    }
    if cuprite_dialects::cuda::GlobalOp(op).managed(ctx) {
        props.push(("managed", ctx.unit_attr()));
    }
    let st = state(ctx, "nvvm.global", loc, &[], &[], &props, &[]);
    let g = ctx.create_op(st);
    ctx.insert_op(g, cuprite_ir::InsertPoint::end(module));
}

pub(crate) fn i32_attr(ctx: &mut Context, v: i64) -> AttrId {
    let t = ctx.i32();
    ctx.int_attr(v as i128, t)
}

pub(crate) fn i64_attr(ctx: &mut Context, v: i64) -> AttrId {
    let t = ctx.i64();
    ctx.int_attr(v as i128, t)
}

pub(crate) fn state(
    ctx: &mut Context,
    name: &str,
    loc: LocId,
    operands: &[ValueId],
    results: &[TypeId],
    props: &[(&str, AttrId)],
    successors: &[BlockId],
) -> OperationState {
    let mut st = OperationState::new(ctx, name, loc);
    st.operands = operands.to_vec();
    st.result_types = results.to_vec();
    for (k, v) in props {
        let k = ctx.sym(k);
        st.props.push((k, *v));
    }
    st.successors = successors.to_vec();
    st
}

struct FnLowering<'c, 'o> {
    ctx: &'c mut Context,
    module: BlockId,
    names: &'o mut FxHashSet<String>,
    fname: String,
    entry: BlockId,
    region: RegionId,
    cur: BlockId,
    map: FxHashMap<ValueId, ValueId>,
    /// The nvvm block of each non-entry block of a multi-block region ([`Self::lower_region`]).
    blocks: FxHashMap<BlockId, BlockId>,
    /// Struct and array values: their scalars, in [`layout::leaves`] order.
    agg: FxHashMap<ValueId, Vec<ValueId>>,
    /// [`layout::leaves`] by cuda type (`None`: a scalar).
    leaf_cache: FxHashMap<TypeId, Option<Leaves>>,
    /// Where a function returning an aggregate stores it (its first parameter).
    sret: Option<ValueId>,
    errors: Vec<LowerError>,
    loc: LocId,
}

impl<'c, 'o> FnLowering<'c, 'o> {
    fn new(ctx: &'c mut Context, op: OpId, module: BlockId, names: &'o mut FxHashSet<String>) -> Self {
        let region = ctx.create_region();
        let entry = ctx.create_block(&[]);
        ctx.append_block(region, entry);
        let fname = cuprite_dialects::func::FuncOp(op).sym_name(ctx).unwrap_or_default().to_string();
        let loc = ctx.op_loc(op);
        FnLowering {
            ctx,
            module,
            names,
            fname,
            entry,
            region,
            cur: entry,
            map: FxHashMap::default(),
            blocks: FxHashMap::default(),
            agg: FxHashMap::default(),
            leaf_cache: FxHashMap::default(),
            sret: None,
            errors: Vec::new(),
            loc,
        }
    }

    fn error(&mut self, loc: LocId, message: impl Into<String>) {
        self.errors.push(LowerError { loc, message: message.into() });
    }

    fn run(&mut self, f: OpId) {
        let is_kernel = cuprite_dialects::cuda::is_kernel(self.ctx, f);
        let kind = if is_kernel { cuprite_dialects::nvvm::FuncKind::Kernel } else { cuprite_dialects::nvvm::FuncKind::Device } as i64;
        let (inputs, results) = match cuprite_dialects::func::function_type(self.ctx, f) {
            Some(t) => t,
            None => return self.error(self.loc, "function without a type"),
        };
        let inputs: Vec<TypeId> = inputs.to_vec();
        let results: Vec<TypeId> = results.to_vec();
        // Structs and arrays by value: a parameter is passed as its scalars, a result is
        // stored through a pointer the caller passes first (see `call`).
        // A kernel's struct parameter stays one block of bytes at the kernel boundary (see
        // `kernel_abi`).
        let mut byval: Vec<Option<(u64, u64, Vec<u64>)>> = Vec::new();
        if is_kernel {
            for &t in &inputs {
                byval.push(self.leaves(t).map(|l| {
                    let (size, align) = layout::size_align(self.ctx, t).unwrap_or((1, 1));
                    (size, align, l.iter().map(|&(off, _)| off).collect())
                }));
            }
        }
        let sret = results.first().is_some_and(|&t| self.leaves(t).is_some());
        let mut new_in: Vec<TypeId> = if sret { vec![self.local_ptr()] } else { Vec::new() };
        for &t in &inputs {
            new_in.extend(self.flat_tys(t));
        }
        let new_res: Vec<TypeId> = if sret { Vec::new() } else { results.iter().map(|&t| self.ty(t)).collect() };
        // The entry block holds the allocas and branches to the body's first block.
        let body_region = self.ctx.region(f, 0);
        let Some(src_entry) = self.ctx.entry_block(body_region) else {
            // An external function (`vprintf`): a declaration, with no body.
            let fty = self.ctx.function_type(new_in, new_res);
            let props = vec![
                ("kind", i32_attr(self.ctx, kind)),
                ("sym_name", self.ctx.str_attr(&self.fname.clone())),
                ("function_type", self.ctx.type_attr(fty)),
                ("sym_visibility", self.ctx.str_attr("private")),
            ];
            let mut st = state(self.ctx, "nvvm.func", self.loc, &[], &[], &props, &[]);
            st.regions.push(self.ctx.create_region());
            let op = self.ctx.create_op(st);
            self.ctx.insert_op(op, cuprite_ir::InsertPoint::end(self.module));
            return;
        };
        let start = self.new_block(&new_in);
        let src_args: Vec<ValueId> = self.ctx.block_args(src_entry).to_vec();
        let mut new_args = self.ctx.block_args(start).to_vec().into_iter();
        if sret {
            self.sret = new_args.next();
        }
        for a in src_args {
            self.bind(a, &mut new_args);
        }
        for &t in &new_in {
            self.ctx.add_block_arg(self.entry, t);
        }
        self.cur = start;
        self.lower_region(body_region);
        if !self.terminated() {
            if new_res.is_empty() {
                self.emit("nvvm.return", &[], &[], &[], &[]);
            } else {
                self.emit("nvvm.unreachable", &[], &[], &[], &[]);
            }
        }
        let entry_args: Vec<ValueId> = self.ctx.block_args(self.entry).to_vec();
        let st = state(self.ctx, "nvvm.br", self.loc, &entry_args, &[], &[], &[start]);
        let br = self.ctx.create_op(st);
        self.ctx.insert_op(br, cuprite_ir::InsertPoint::end(self.entry));
        // The function op.
        let fty = self.ctx.function_type(new_in, new_res);
        let mut props = vec![
            ("kind", i32_attr(self.ctx, kind)),
            ("sym_name", self.ctx.str_attr(&self.fname.clone())),
            ("function_type", self.ctx.type_attr(fty)),
        ];
        if let Some(values) = cuprite_dialects::cuda::launch_bounds(self.ctx, f) {
            if let Some(&n) = values.first() {
                let elem = self.ctx.int_type(32);
                props.push(("maxntid", self.ctx.attr(AttrKind::DenseArray { elem, values: vec![n] })));
            }
            if let Some(&m) = values.get(1) {
                props.push(("minnctapersm", i32_attr(self.ctx, m)));
            }
        }
        let mut st = state(self.ctx, "nvvm.func", self.loc, &[], &[], &props, &[]);
        st.regions.push(self.region);
        let op = self.ctx.create_op(st);
        if byval.iter().any(Option::is_some) {
            let a = cuprite_dialects::nvvm::kernel_abi::byval_attr(self.ctx, &byval);
            self.ctx.set_attr(op, cuprite_dialects::nvvm::kernel_abi::BYVAL, a);
        }
        // Inlining hints (`__noinline__`, `__forceinline__`) as LLVM spells them, and no
        // contraction for a `convert-arith-to-nvvm` that runs after this pass.
        cuprite_dialects::hints::copy_function_hints(self.ctx, f, op);
        self.ctx.insert_op(op, cuprite_ir::InsertPoint::end(self.module));
    }

    fn new_block(&mut self, args: &[TypeId]) -> BlockId {
        let b = self.ctx.create_block(args);
        self.ctx.append_block(self.region, b);
        b
    }

    /// A block not placed in the function yet: control-flow constructs create their
    /// blocks up front and [`Self::place`] each where its code begins, so the layout follows
    /// the source (a loop's exit after every block of the loop, an `if`'s merge after both
    /// branches). Divergent lanes then reconverge at the lowest address.
    fn unplaced_block(&mut self, args: &[TypeId]) -> BlockId {
        self.ctx.create_block(args)
    }

    /// Appends `b` (from [`Self::unplaced_block`]) to the function and continues in it.
    fn place(&mut self, b: BlockId) {
        self.ctx.append_block(self.region, b);
        self.cur = b;
    }

    fn terminated(&self) -> bool {
        self.ctx.terminator(self.cur).is_some()
    }

    /// Creates an op at the end of the current block; returns it.
    fn emit(&mut self, name: &str, operands: &[ValueId], results: &[TypeId], props: &[(&str, AttrId)], succ: &[BlockId]) -> OpId {
        let st = state(self.ctx, name, self.loc, operands, results, props, succ);
        let op = self.ctx.create_op(st);
        self.ctx.insert_op(op, cuprite_ir::InsertPoint::end(self.cur));
        op
    }

    fn emit1(&mut self, name: &str, operands: &[ValueId], result: TypeId, props: &[(&str, AttrId)]) -> ValueId {
        let op = self.emit(name, operands, &[result], props, &[]);
        self.ctx.result(op, 0)
    }

    /// The nvvm type of a cuda type.
    fn ty(&mut self, t: TypeId) -> TypeId {
        match self.ctx.type_kind(t).clone() {
            TypeKind::Integer { width, .. } => self.ctx.ty(TypeKind::Integer { width, signedness: Signedness::Signless }),
            _ => match decode(self.ctx, t) {
                Some(Decoded::Ptr { space, .. }) => self.ctx.ty(TypeKind::Pointer { addr_space: space_num(space) }),
                _ => t,
            },
        }
    }

    fn is_ptr(&self, t: TypeId) -> bool {
        matches!(self.ctx.type_kind(t), TypeKind::Pointer { .. })
    }

    fn v(&mut self, src: ValueId) -> ValueId {
        match self.map.get(&src) {
            Some(v) => *v,
            None if self.agg.contains_key(&src) => {
                let loc = self.loc;
                self.error(loc, "a struct or array value is not supported here yet");
                let i32t = self.ctx.i32();
                self.zero(i32t)
            }
            None => {
                // A value defined in a region that did not lower (an error was reported).
                let t = self.ctx.value_type(src);
                let t = self.ty(t);
                self.zero(t)
            }
        }
    }

    fn zero(&mut self, t: TypeId) -> ValueId {
        if self.is_ptr(t) {
            return self.emit1("nvvm.null", &[], t, &[]);
        }
        let a = match self.ctx.type_kind(t) {
            TypeKind::Float(_) => self.ctx.attr(AttrKind::Float { bits: 0, ty: t }),
            _ => self.ctx.int_attr(0, t),
        };
        self.emit1("nvvm.constant", &[], t, &[("value", a)])
    }

    fn const_int(&mut self, v: i64, t: TypeId) -> ValueId {
        let a = self.ctx.int_attr(v as i128, t);
        self.emit1("nvvm.constant", &[], t, &[("value", a)])
    }

    /// Lowers a function's body region `r`, its entry into the current block: every further
    /// block gets an nvvm block, placed in the region's order, its arguments flattened as
    /// values are; `cf.br`/`cf.cond_br` branch between them.
    fn lower_region(&mut self, r: RegionId) {
        let blocks = self.ctx.region_blocks(r).to_vec();
        let Some((&entry, rest)) = blocks.split_first() else { return };
        for &b in rest {
            let tys: Vec<TypeId> = self.ctx.block_args(b).to_vec().into_iter().map(|a| self.ctx.value_type(a)).collect();
            let tys: Vec<TypeId> = tys.into_iter().flat_map(|t| self.flat_tys(t)).collect();
            let nb = self.unplaced_block(&tys);
            self.blocks.insert(b, nb);
        }
        self.lower_block(entry);
        for &b in rest {
            if !self.terminated() {
                // The source block fell through without a terminator: nothing reaches
                // past it (a diagnostic was reported where it lost it).
                self.emit("nvvm.unreachable", &[], &[], &[], &[]);
            }
            let nb = self.blocks[&b];
            self.place(nb);
            let new_args: Vec<ValueId> = self.ctx.block_args(nb).to_vec();
            let mut it = new_args.into_iter();
            for a in self.ctx.block_args(b).to_vec() {
                self.bind(a, &mut it);
            }
            self.lower_block(b);
        }
    }

    /// The nvvm block of a block of a multi-block region, and the flattened values for its
    /// arguments.
    fn successor(&mut self, b: BlockId, args: &[ValueId]) -> Option<(BlockId, Vec<ValueId>)> {
        let nb = *self.blocks.get(&b)?;
        Some((nb, args.iter().flat_map(|&a| self.vals(a)).collect()))
    }

    fn lower_block(&mut self, b: BlockId) {
        let ops: Vec<OpId> = self.ctx.block_ops(b).collect();
        for op in ops {
            if self.terminated() {
                // Code after a return/break in the same block cannot run.
                break;
            }
            self.loc = self.ctx.op_loc(op);
            self.lower_op(op);
        }
    }

    /// Binds `op`'s results to `vals` (an aggregate result takes as many as it has scalars).
    fn set_results(&mut self, op: OpId, vals: &[ValueId]) {
        let rs: Vec<ValueId> = self.ctx.results(op).to_vec();
        let mut it = vals.iter().copied();
        for r in rs {
            self.bind(r, &mut it);
        }
    }

    // ----- aggregates by value -----------------------------------------------------------

    /// The scalars of an aggregate cuda type (cached); `None` for a scalar.
    fn leaves(&mut self, t: TypeId) -> Option<Leaves> {
        if let Some(l) = self.leaf_cache.get(&t) {
            return l.clone();
        }
        let l: Option<Leaves> = if layout::is_aggregate(self.ctx, t) {
            match layout::leaves(self.ctx, t) {
                Some(l) => Some(l.into()),
                None => {
                    let loc = self.loc;
                    self.error(loc, format!("a struct or array of more than {} scalars by value is not supported yet", layout::MAX_LEAVES));
                    Some(Vec::new().into())
                }
            }
        } else {
            None
        };
        self.leaf_cache.insert(t, l.clone());
        l
    }

    /// The nvvm types a value of cuda type `t` travels as: its scalars' for an aggregate.
    fn flat_tys(&mut self, t: TypeId) -> Vec<TypeId> {
        match self.leaves(t) {
            Some(l) => l.iter().map(|&(_, lt)| self.ty(lt)).collect(),
            None => vec![self.ty(t)],
        }
    }

    /// The nvvm values of cuda value `src`: its scalars for an aggregate.
    fn vals(&mut self, src: ValueId) -> Vec<ValueId> {
        if let Some(l) = self.agg.get(&src) {
            return l.clone();
        }
        let t = self.ctx.value_type(src);
        if self.leaves(t).is_some() {
            // Made by an op that does not produce aggregates (or not lowered after an error):
            // reported, never silently zeros.
            let loc = self.loc;
            self.error(loc, "a struct or array value made this way is not supported yet");
            let tys = self.flat_tys(t);
            return tys.into_iter().map(|t| self.zero(t)).collect();
        }
        vec![self.v(src)]
    }

    /// Binds cuda value `src` to the next nvvm value(s) of `it`.
    fn bind(&mut self, src: ValueId, it: &mut impl Iterator<Item = ValueId>) {
        let t = self.ctx.value_type(src);
        match self.leaves(t) {
            Some(l) => {
                let vs: Vec<ValueId> = it.take(l.len()).collect();
                self.agg.insert(src, vs);
            }
            None => {
                if let Some(v) = it.next() {
                    self.map.insert(src, v);
                }
            }
        }
    }

    fn local_ptr(&mut self) -> TypeId {
        self.ctx.ty(TypeKind::Pointer { addr_space: space_num(AddrSpace::Local) })
    }

    /// `base + off` (bytes).
    fn offset(&mut self, base: ValueId, off: u64) -> ValueId {
        if off == 0 {
            return base;
        }
        let i64t = self.ctx.i64();
        let o = self.const_int(off as i64, i64t);
        let t = self.ctx.value_type(base);
        self.emit1("nvvm.ptradd", &[base, o], t, &[])
    }

    /// The address and the flags (`volatile`, `cache`) of `cuda.load`/`cuda.store` `op`
    /// through cuda pointer `ptr`: with a cache operator, a generic address is cast to
    /// global (the `ld.global.nc` family takes global addresses only).
    fn mem_access(&mut self, op: OpId, ptr: ValueId) -> (ValueId, Vec<(&'static str, AttrId)>) {
        let mut p = self.v(ptr);
        let mut flags = Vec::new();
        if cuprite_dialects::cuda::is_volatile(self.ctx, op) {
            flags.push(("volatile", self.ctx.unit_attr()));
        }
        if let Some(c) = cuprite_dialects::cuda::cache_operator_attr(self.ctx, op) {
            flags.push(("cache", c));
            if matches!(self.ctx.type_kind(self.ctx.value_type(p)), TypeKind::Pointer { addr_space: 0 }) {
                let g = self.ctx.ty(TypeKind::Pointer { addr_space: space_num(AddrSpace::Global) });
                p = self.emit1("nvvm.addrspacecast", &[p], g, &[]);
            }
        }
        (p, flags)
    }

    /// Loads aggregate type `t` from `p`, scalar by scalar.
    fn load_leaves(&mut self, p: ValueId, t: TypeId, flags: &[(&'static str, AttrId)]) -> Vec<ValueId> {
        let l = self.leaves(t).unwrap_or_else(|| Vec::new().into());
        let mut out = Vec::with_capacity(l.len());
        for &(off, lt) in l.iter() {
            let a = self.offset(p, off);
            let nt = self.ty(lt);
            let (_, align) = layout::size_align(self.ctx, lt).unwrap_or((1, 1));
            let mut props = vec![("align", i32_attr(self.ctx, align as i64))];
            props.extend_from_slice(flags);
            out.push(self.emit1("nvvm.load", &[a], nt, &props));
        }
        out
    }

    /// Stores the scalars `vals` of aggregate type `t` to `p`.
    fn store_leaves(&mut self, vals: &[ValueId], p: ValueId, t: TypeId, flags: &[(&'static str, AttrId)]) {
        let l = self.leaves(t).unwrap_or_else(|| Vec::new().into());
        for (&(off, lt), &x) in l.iter().zip(vals) {
            let a = self.offset(p, off);
            let (_, align) = layout::size_align(self.ctx, lt).unwrap_or((1, 1));
            let mut props = vec![("align", i32_attr(self.ctx, align as i64))];
            props.extend_from_slice(flags);
            self.emit("nvvm.store", &[x, a], &[], &props, &[]);
        }
    }

    /// A local temporary of type `t` (in the entry block, like every alloca).
    fn temp(&mut self, t: TypeId) -> ValueId {
        let (size, align) = layout::size_align(self.ctx, t).unwrap_or((1, 1));
        let pt = self.local_ptr();
        let props =
            [("size", i64_attr(self.ctx, size as i64)), ("align", i32_attr(self.ctx, align as i64)), ("name", self.ctx.str_attr(""))];
        let st = state(self.ctx, "nvvm.alloca", self.loc, &[], &[pt], &props, &[]);
        let a = self.ctx.create_op(st);
        self.ctx.insert_op(a, cuprite_ir::InsertPoint::end(self.entry));
        self.ctx.result(a, 0)
    }

    fn lower_op(&mut self, op: OpId) {
        let name = self.ctx.op_name_str(op).to_string();
        let operands: Vec<ValueId> = self.ctx.operand_vec(op);
        let res_ty: Option<TypeId> = self.ctx.results(op).first().map(|&r| self.ctx.value_type(r));
        let loc = self.loc;
        let val: Option<ValueId> = match name.as_str() {
            // Pointer arithmetic, comparisons and casts: `convert-cuda-pointers-to-nvvm`'s.
            _ if crate::conversions::cuda_pointers_to_nvvm::lowers(&name) => {
                self.error(
                    loc,
                    format!(
                        "'{name}' is lowered by '{}', which runs before '{}'",
                        crate::conversions::cuda_pointers_to_nvvm::NAME,
                        crate::passes::ConvertCudaToNvvm::NAME
                    ),
                );
                None
            }
            // A materialization a pattern pass made for a pointer (`convert-cuda-gpu-to-nvvm`'s
            // atomics): the pointer this conversion gives the operand is the value.
            cuprite_ir::rewrite::conversion::CAST_OP if operands.len() == 1 && res_ty.is_some() => {
                let v = self.v(operands[0]);
                let rt = self.ty(res_ty.expect("checked"));
                if self.ctx.value_type(v) == rt {
                    Some(v)
                } else {
                    self.error(loc, "a materialization cast between types this conversion does not make equal");
                    Some(self.zero(rt))
                }
            }
            // Ops of the other dialects (arith, nvvm) are not this conversion's: they move
            // over as they are, on the lowered operands (`convert-arith-to-nvvm` lowers
            // arith, before or after this pass).
            _ if !name.starts_with("cuda.")
                && !name.starts_with("scf.")
                && !name.starts_with("func.")
                && !name.starts_with("ub.")
                && self.ctx.regions(op).is_empty()
                && self.ctx.successors(op).len() == 0 =>
            {
                let ops: Vec<ValueId> = operands.iter().map(|&o| self.v(o)).collect();
                let rts: Vec<TypeId> = self.ctx.results(op).to_vec().into_iter().map(|r| self.ctx.value_type(r)).collect();
                let rts: Vec<TypeId> = rts.into_iter().map(|t| self.ty(t)).collect();
                let props: Vec<(String, AttrId)> = self.ctx.props(op).iter().map(|(k, v)| (self.ctx.str(*k).to_string(), *v)).collect();
                let props: Vec<(&str, AttrId)> = props.iter().map(|(k, v)| (k.as_str(), *v)).collect();
                let c = self.emit(&name, &ops, &rts, &props, &[]);
                let rs: Vec<ValueId> = self.ctx.results(c).to_vec();
                self.set_results(op, &rs);
                None
            }
            "cuda.var" => self.var(op, res_ty.expect("result")),
            "cuda.addressof" => {
                let t = self.ty(res_ty.expect("result"));
                let n = cuprite_dialects::cuda::AddressOfOp(op).name_attr(self.ctx).expect("verified: a name");
                Some(self.emit1("nvvm.addressof", &[], t, &[("name", n)]))
            }
            "cuda.load" => {
                let t = self.ty(res_ty.expect("result"));
                let Some((_, align)) = layout::size_align(self.ctx, t) else {
                    self.error(loc, "loading a value of an incomplete type");
                    return;
                };
                let (p, flags) = self.mem_access(op, operands[0]);
                if self.leaves(t).is_some() {
                    let vals = self.load_leaves(p, t, &flags);
                    let r = self.ctx.result(op, 0);
                    self.agg.insert(r, vals);
                    return;
                }
                if !self.is_scalar(t) {
                    self.error(loc, "loading a value of this type is not supported yet");
                    return;
                }
                let mut props = vec![("align", i32_attr(self.ctx, align as i64))];
                props.extend(flags);
                Some(self.emit1("nvvm.load", &[p], t, &props))
            }
            "cuda.store" => {
                let st = self.ctx.value_type(operands[0]);
                let (p, flags) = self.mem_access(op, operands[1]);
                if self.leaves(st).is_some() {
                    let vals = self.vals(operands[0]);
                    self.store_leaves(&vals, p, st, &flags);
                    return;
                }
                let x = self.v(operands[0]);
                let t = self.ctx.value_type(x);
                if !self.is_scalar(t) {
                    self.error(loc, "storing a value of this type is not supported yet");
                    return;
                }
                let (_, align) = layout::size_align(self.ctx, t).unwrap_or((1, 1));
                let mut props = vec![("align", i32_attr(self.ctx, align as i64))];
                props.extend(flags);
                self.emit("nvvm.store", &[x, p], &[], &props, &[]);
                None
            }
            "cuda.asm" => {
                let ops: Vec<ValueId> = operands.iter().map(|&o| self.v(o)).collect();
                let rts: Vec<TypeId> = self.ctx.results(op).to_vec().into_iter().map(|r| self.ctx.value_type(r)).collect();
                let rts: Vec<TypeId> = rts.into_iter().map(|t| self.ty(t)).collect();
                let asm = cuprite_dialects::cuda::AsmOp(op);
                let t = asm.template_attr(self.ctx).expect("template");
                let c = asm.constraints_attr(self.ctx).expect("constraints");
                let side_effects = asm.side_effects(self.ctx).then(|| self.ctx.unit_attr());
                let st = cuprite_dialects::nvvm::InlineAsmOp::build(self.ctx, self.loc, &rts, &ops, t, c, side_effects);
                let a = self.ctx.create_op(st);
                self.ctx.insert_op(a, cuprite_ir::InsertPoint::end(self.cur));
                let rs: Vec<ValueId> = self.ctx.results(a).to_vec();
                self.set_results(op, &rs);
                None
            }
            "func.call" => {
                // Aggregates by value: arguments as their scalars; a result through a
                // temporary whose address goes first (the callee's side is in `run`).
                let src_rts: Vec<TypeId> = self.ctx.results(op).to_vec().into_iter().map(|r| self.ctx.value_type(r)).collect();
                let sret = src_rts.first().copied().filter(|&t| self.leaves(t).is_some());
                let mut ops: Vec<ValueId> = Vec::new();
                let tmp = sret.map(|t| self.temp(t));
                ops.extend(tmp);
                for &o in &operands {
                    ops.extend(self.vals(o));
                }
                let rts: Vec<TypeId> = if sret.is_some() { Vec::new() } else { src_rts.iter().map(|&t| self.ty(t)).collect() };
                let callee = cuprite_dialects::func::CallOp(op).callee_attr(self.ctx).expect("verified: a callee");
                let c = self.emit("nvvm.call", &ops, &rts, &[("callee", callee)], &[]);
                let rs: Vec<ValueId> = match (sret, tmp) {
                    (Some(t), Some(p)) => self.load_leaves(p, t, &[]),
                    _ => self.ctx.results(c).to_vec(),
                };
                self.set_results(op, &rs);
                None
            }
            "cuda.tex" => {
                let ops: Vec<ValueId> = operands.iter().map(|&o| self.v(o)).collect();
                let src_rts: Vec<TypeId> = self.ctx.results(op).iter().map(|&r| self.ctx.value_type(r)).collect();
                let kind = match src_rts.first().map(|&t| self.ctx.type_kind(t).clone()) {
                    Some(TypeKind::Float(_)) => "f32",
                    _ if cuprite_dialects::cuda::TexOp(op).signed(self.ctx) => "s32",
                    _ => "u32",
                };
                let rts: Vec<TypeId> = src_rts.iter().map(|&t| self.ty(t)).collect();
                let tex = cuprite_dialects::cuda::TexOp(op);
                let geom = tex.geom_attr(self.ctx).expect("verified: a geometry");
                let mut props = vec![("geom", geom), ("kind", self.ctx.str_attr(kind))];
                if let Some(l) = tex.level_attr(self.ctx) {
                    props.push(("level", l));
                }
                let t = self.emit("nvvm.tex", &ops, &rts, &props, &[]);
                let rs: Vec<ValueId> = self.ctx.results(t).to_vec();
                self.set_results(op, &rs);
                None
            }
            "cuda.intrinsic" => {
                let iname = cuprite_dialects::cuda::IntrinsicOp(op).name(self.ctx).unwrap_or_default().to_string();
                let ops: Vec<ValueId> = operands.iter().map(|&o| self.v(o)).collect();
                let rt = res_ty.map(|t| self.ty(t));
                match self.intrinsic(&iname, &ops, rt) {
                    Some(v) => v,
                    None if crate::conversions::cuda_intrinsics_to_nvvm::handles(&iname) => {
                        self.error(
                            loc,
                            format!(
                                "'{iname}' is lowered by '{}', which runs before '{}'",
                                crate::conversions::cuda_intrinsics_to_nvvm::NAME,
                                crate::passes::ConvertCudaToNvvm::NAME
                            ),
                        );
                        rt.map(|t| self.zero(t))
                    }
                    None => {
                        self.error(loc, format!("'{iname}' is not supported yet (it needs the device math library)"));
                        rt.map(|t| self.zero(t))
                    }
                }
            }
            "cf.br" => {
                let dest = self.ctx.successor(op, 0);
                match self.successor(dest, &operands) {
                    Some((b, vals)) => {
                        let br = self.emit("nvvm.br", &vals, &[], &[], &[b]);
                        if let Some(n) = cuprite_dialects::hints::unroll(self.ctx, op) {
                            let u = i32_attr(self.ctx, n);
                            self.ctx.set_prop(br, "unroll", u);
                        }
                    }
                    None => self.error(loc, "'cf.br' to a block outside its region"),
                }
                None
            }
            "cf.cond_br" => {
                let c = self.v(operands[0]);
                let (t, f) = (self.ctx.successor(op, 0), self.ctx.successor(op, 1));
                let (ta, fa) = (self.ctx.successor_args(op, 0).to_vec(), self.ctx.successor_args(op, 1).to_vec());
                match (self.successor(t, &ta), self.successor(f, &fa)) {
                    (Some((tb, tv)), Some((fb, fv))) => {
                        let segs = self.segs(&[1, tv.len() as i64, fv.len() as i64]);
                        let mut ops = vec![c];
                        ops.extend(tv);
                        ops.extend(fv);
                        self.emit("nvvm.cond_br", &ops, &[], &[("operandSegmentSizes", segs)], &[tb, fb]);
                    }
                    _ => self.error(loc, "'cf.cond_br' to a block outside its region"),
                }
                None
            }
            // Lowered in place before this conversion (its prerequisites in the pipeline).
            "cuda.if" | "cuda.loop" | "cuda.switch" | "cuda.yield" | "cuda.condition" | "cuda.break" | "cuda.continue" => {
                self.error(
                    loc,
                    format!(
                        "'{name}' is lowered by 'lower-cuda-control-flow', which runs before '{}'",
                        crate::passes::ConvertCudaToNvvm::NAME
                    ),
                );
                None
            }
            _ if name.starts_with("scf.") => {
                self.error(
                    loc,
                    format!("'{name}' is lowered by 'convert-scf-to-cf', which runs before '{}'", crate::passes::ConvertCudaToNvvm::NAME),
                );
                None
            }
            "cuda.special" | "cuda.barrier" | "cuda.fence" | "cuda.shfl" | "cuda.vote" | "cuda.atomic" | "cuda.atomic_cas" => {
                self.error(
                    loc,
                    format!(
                        "'{name}' is lowered by 'convert-cuda-gpu-to-nvvm', which runs before '{}'",
                        crate::passes::ConvertCudaToNvvm::NAME
                    ),
                );
                None
            }
            "func.return" | "cuda.return" => {
                match self.sret {
                    Some(p) if !operands.is_empty() => {
                        let t = self.ctx.value_type(operands[0]);
                        let vals = self.vals(operands[0]);
                        self.store_leaves(&vals, p, t, &[]);
                        self.emit("nvvm.return", &[], &[], &[], &[]);
                    }
                    _ => {
                        let vals: Vec<ValueId> = operands.iter().map(|&o| self.v(o)).collect();
                        self.emit("nvvm.return", &vals, &[], &[], &[]);
                    }
                }
                None
            }
            "ub.unreachable" => {
                self.emit("nvvm.unreachable", &[], &[], &[], &[]);
                None
            }
            other => {
                self.error(loc, format!("lowering '{other}' is not supported yet"));
                let rts: Vec<ValueId> = self.ctx.results(op).to_vec();
                for r in rts {
                    let t = self.ctx.value_type(r);
                    let t = self.ty(t);
                    let z = self.zero(t);
                    self.map.insert(r, z);
                }
                None
            }
        };
        if let Some(v) = val {
            if let Some(&r) = self.ctx.results(op).first() {
                self.map.insert(r, v);
            }
        }
    }

    fn segs(&mut self, sizes: &[i64]) -> AttrId {
        let elem = self.ctx.int_type(32);
        self.ctx.attr(AttrKind::DenseArray { elem, values: sizes.to_vec() })
    }

    fn is_scalar(&self, t: TypeId) -> bool {
        matches!(self.ctx.type_kind(t), TypeKind::Integer { .. } | TypeKind::Float(_) | TypeKind::Pointer { .. })
    }

    fn var(&mut self, op: OpId, res: TypeId) -> Option<ValueId> {
        let loc = self.loc;
        let Some(Decoded::Ptr { space, .. }) = decode(self.ctx, res) else {
            self.error(loc, "variable of a non-pointer type");
            return None;
        };
        let pointee = layout::pointee(self.ctx, res)?;
        let var = cuprite_dialects::cuda::VarOp(op);
        let dynamic = var.dynamic(self.ctx);
        let Some((size, natural)) = layout::size_align(self.ctx, pointee).or(dynamic.then_some((0, 16))) else {
            self.error(loc, "variable of an incomplete type");
            return None;
        };
        let align = var.align(self.ctx).map_or(natural, |a| (a as u64).max(natural));
        let vname = var.name(self.ctx).unwrap_or_default().to_string();
        let t = self.ty(res);
        match space {
            AddrSpace::Local | AddrSpace::Generic => {
                let props = [
                    ("size", i64_attr(self.ctx, size as i64)),
                    ("align", i32_attr(self.ctx, align as i64)),
                    ("name", self.ctx.str_attr(&vname)),
                ];
                let st = state(self.ctx, "nvvm.alloca", loc, &[], &[t], &props, &[]);
                let a = self.ctx.create_op(st);
                self.ctx.insert_op(a, cuprite_ir::InsertPoint::end(self.entry));
                Some(self.ctx.result(a, 0))
            }
            AddrSpace::Shared => {
                // `extern __shared__` arrays all name the same dynamic memory.
                let gname = if dynamic { "__cuprite_dynamic_smem".to_string() } else { self.unique(&format!("{}${vname}", self.fname)) };
                if !dynamic || self.names.insert(gname.clone()) {
                    let mut props = vec![
                        ("space", i32_attr(self.ctx, 3)),
                        ("sym_name", self.ctx.str_attr(&gname)),
                        ("size", i64_attr(self.ctx, size as i64)),
                        ("align", i32_attr(self.ctx, if dynamic { 16 } else { align as i64 })),
                    ];
                    if dynamic {
                        props.push(("extern", self.ctx.unit_attr()));
                    }
                    let st = state(self.ctx, "nvvm.global", loc, &[], &[], &props, &[]);
                    let g = self.ctx.create_op(st);
                    self.ctx.insert_op(g, cuprite_ir::InsertPoint { block: self.module, before: self.ctx.first_op(self.module) });
                }
                let n = self.ctx.symbol_ref(&gname);
                Some(self.emit1("nvvm.addressof", &[], t, &[("name", n)]))
            }
            _ => {
                self.error(loc, "a local variable in this address space is not supported yet");
                None
            }
        }
    }

    fn unique(&mut self, base: &str) -> String {
        let mut name = base.to_string();
        let mut k = 1;
        while !self.names.insert(name.clone()) {
            k += 1;
            name = format!("{base}${k}");
        }
        name
    }

    /// The built-ins this conversion lowers itself (`Some(None)`: no result): `__trap`,
    /// which ends its block. The others with an instruction are
    /// `convert-cuda-intrinsics-to-nvvm`'s; `None`: not available without the math library.
    fn intrinsic(&mut self, name: &str, _ops: &[ValueId], _rt: Option<TypeId>) -> Option<Option<ValueId>> {
        match name {
            "__trap" => {
                self.emit("nvvm.unreachable", &[], &[], &[], &[]);
                // Code after the trap goes into a block of its own (never reached).
                self.cur = self.new_block(&[]);
                Some(None)
            }
            _ => None,
        }
    }
}
