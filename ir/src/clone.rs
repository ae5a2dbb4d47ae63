//! Deep copies of ops: within one context (inlining, duplication) and from one context into
//! another (per-function contexts, parallel pass execution). Both are iterative.
//!
//! Algorithm (both variants):
//! 1. Walk the source op in preorder; create every region and block (with argument types)
//!    first, so successors and uses that appear before their definition (graph regions,
//!    blocks out of dominance order) can be mapped.
//! 2. Create every op, results included, without operands, appending to its mapped block.
//! 3. Set the operands of every copied op through the value map. A value from outside the
//!    copied op maps through the caller's map, or to itself in the same context.

use crate::{
    attrs::{AttrId, AttrKind},
    context::{BlockId, Context, OpId, OperationState, RegionId, ValueId},
    location::{LocId, Location},
    symbol::Symbol,
    types::{TypeId, TypeKind},
};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

/// Value and block correspondences of a copy.
#[derive(Default, Debug, Clone)]
pub struct CloneMap {
    pub values: FxHashMap<ValueId, ValueId>,
    pub blocks: FxHashMap<BlockId, BlockId>,
}

/// Copies `op` and everything nested in it within `ctx`; the copy is detached. Operands
/// defined outside `op` map through `map` (else stay the same value).
pub fn clone_op(ctx: &mut Context, op: OpId, map: &mut CloneMap) -> OpId {
    let ops = crate::walk::collect_preorder(ctx, op);
    let mut region_map: FxHashMap<RegionId, RegionId> = FxHashMap::default();
    map.values.reserve(ops.len());
    for &o in &ops {
        for r in ctx.regions(o).to_vec() {
            let nr = ctx.create_region();
            region_map.insert(r, nr);
            for b in ctx.region_blocks(r).to_vec() {
                let tys: SmallVec<[TypeId; 4]> = ctx.block_args(b).iter().map(|&a| ctx.value_type(a)).collect();
                let nb = ctx.create_block(&tys);
                for i in 0..tys.len() {
                    let (a, na) = (ctx.block_args(b)[i], ctx.block_args(nb)[i]);
                    let l = ctx.value_loc(a);
                    ctx.set_value_loc(na, l);
                    map.values.insert(a, na);
                }
                ctx.append_block(nr, nb);
                map.blocks.insert(b, nb);
            }
        }
    }
    // Each op without operands first (they may be defined further down: a branch's block
    // arguments, a use before its definition in a graph region), then the operands.
    let mut new_ops = Vec::with_capacity(ops.len());
    for &o in &ops {
        let result_types: SmallVec<[TypeId; 4]> = ctx.results(o).iter().map(|&r| ctx.value_type(r)).collect();
        let regions: SmallVec<[RegionId; 2]> = ctx.regions(o).iter().map(|r| region_map[r]).collect();
        let successors: SmallVec<[BlockId; 2]> = ctx.successors(o).map(|b| map.blocks.get(&b).copied().unwrap_or(b)).collect();
        let (props, attrs) = ctx.attr_dicts(o);
        let n = ctx.create_op_parts(ctx.op_name(o), ctx.op_loc(o), &[], &result_types, props, attrs, &regions, &successors);
        for i in 0..result_types.len() {
            map.values.insert(ctx.result(o, i), ctx.result(n, i));
        }
        if o != op {
            let b = ctx.op_block(o).expect("nested op in block");
            ctx.insert_op(n, crate::context::InsertPoint::end(map.blocks[&b]));
        }
        new_ops.push(n);
    }
    for (&o, &n) in ops.iter().zip(&new_ops) {
        let operands: SmallVec<[ValueId; 4]> = ctx.operands(o).map(|v| map.values.get(&v).copied().unwrap_or(v)).collect();
        if !operands.is_empty() {
            ctx.set_operands(n, &operands);
        }
    }
    new_ops[0]
}

/// Translates interned types, attributes, locations and symbols from one context to another.
struct Translator<'s> {
    src: &'s Context,
    types: FxHashMap<TypeId, TypeId>,
    attrs: FxHashMap<AttrId, AttrId>,
    locs: FxHashMap<LocId, LocId>,
}

impl Translator<'_> {
    fn sym(&self, dst: &mut Context, s: Symbol) -> Symbol {
        dst.sym(self.src.str(s))
    }
    fn ty(&mut self, dst: &mut Context, t: TypeId) -> TypeId {
        if let Some(&x) = self.types.get(&t) {
            return x;
        }
        let k = match self.src.type_kind(t).clone() {
            TypeKind::Function { inputs, results } => TypeKind::Function {
                inputs: inputs.iter().map(|&x| self.ty(dst, x)).collect(),
                results: results.iter().map(|&x| self.ty(dst, x)).collect(),
            },
            TypeKind::BuiltinOpaque { keyword, body } => TypeKind::BuiltinOpaque { keyword: self.sym(dst, keyword), body },
            TypeKind::Opaque { dialect, body } => TypeKind::Opaque { dialect: self.sym(dst, dialect), body },
            k => k,
        };
        let n = dst.ty(k);
        self.types.insert(t, n);
        n
    }
    fn attr(&mut self, dst: &mut Context, a: AttrId) -> AttrId {
        if let Some(&x) = self.attrs.get(&a) {
            return x;
        }
        let k = match self.src.attr_kind(a).clone() {
            AttrKind::Integer { value, ty } => AttrKind::Integer { value, ty: self.ty(dst, ty) },
            AttrKind::Float { bits, ty } => AttrKind::Float { bits, ty: self.ty(dst, ty) },
            AttrKind::Type(t) => AttrKind::Type(self.ty(dst, t)),
            AttrKind::Array(items) => AttrKind::Array(items.iter().map(|&x| self.attr(dst, x)).collect()),
            AttrKind::Dict(e) => AttrKind::Dict(e.iter().map(|&(n, x)| (self.sym(dst, n), self.attr(dst, x))).collect()),
            AttrKind::SymbolRef { root, nested } => {
                AttrKind::SymbolRef { root: self.sym(dst, root), nested: nested.iter().map(|&n| self.sym(dst, n)).collect() }
            }
            AttrKind::DenseArray { elem, values } => AttrKind::DenseArray { elem: self.ty(dst, elem), values },
            AttrKind::BuiltinOpaque { keyword, body, ty } => {
                AttrKind::BuiltinOpaque { keyword: self.sym(dst, keyword), body, ty: ty.map(|t| self.ty(dst, t)) }
            }
            AttrKind::Opaque { dialect, body } => AttrKind::Opaque { dialect: self.sym(dst, dialect), body },
            k => k,
        };
        let n = dst.attr(k);
        self.attrs.insert(a, n);
        n
    }
    fn loc(&mut self, dst: &mut Context, l: LocId) -> LocId {
        if let Some(&x) = self.locs.get(&l) {
            return x;
        }
        // Offset locations stay offsets when both contexts point into the same file.
        if l.offset_value().is_some() && self.src.offset_file().map(|f| self.src.str(f)) == dst.offset_file().map(|f| dst.str(f)) {
            return l;
        }
        let k = match self.src.location(l) {
            Location::Unknown => Location::Unknown,
            Location::File { file, start, end, bytes } => Location::File { file: self.sym(dst, file), start, end, bytes },
            Location::Name { name, child } => Location::Name { name: self.sym(dst, name), child: child.map(|c| self.loc(dst, c)) },
            Location::Fused { locs, metadata } => {
                Location::Fused { locs: locs.iter().map(|&x| self.loc(dst, x)).collect(), metadata: metadata.map(|m| self.attr(dst, m)) }
            }
            Location::CallSite { callee, caller } => Location::CallSite { callee: self.loc(dst, callee), caller: self.loc(dst, caller) },
        };
        let n = dst.loc(k);
        self.locs.insert(l, n);
        n
    }
}

/// Copies `op` (from `src`) into `dst`, detached. `op` must not use values defined
/// outside it (it is isolated from above, or a top-level op).
pub fn transplant(src: &Context, op: OpId, dst: &mut Context) -> OpId {
    let mut tr = Translator { src, types: FxHashMap::default(), attrs: FxHashMap::default(), locs: FxHashMap::default() };
    let ops = crate::walk::collect_preorder(src, op);
    let mut values: FxHashMap<ValueId, ValueId> = FxHashMap::default();
    let mut blocks: FxHashMap<BlockId, BlockId> = FxHashMap::default();
    let mut region_map: FxHashMap<RegionId, RegionId> = FxHashMap::default();
    for &o in &ops {
        for &r in src.regions(o) {
            let nr = dst.create_region();
            region_map.insert(r, nr);
            for &b in src.region_blocks(r) {
                let tys: Vec<TypeId> = src.block_args(b).iter().map(|&a| tr.ty(dst, src.value_type(a))).collect();
                let nb = dst.create_block(&tys);
                for (i, &a) in src.block_args(b).iter().enumerate() {
                    let na = dst.block_args(nb)[i];
                    if let Some(l) = src.value_loc(a) {
                        let nl = tr.loc(dst, l);
                        dst.set_value_loc(na, Some(nl));
                    }
                    values.insert(a, na);
                }
                dst.append_block(nr, nb);
                blocks.insert(b, nb);
            }
        }
    }
    let mut new_ops = Vec::with_capacity(ops.len());
    for &o in &ops {
        let st = OperationState {
            name: tr.sym(dst, src.op_name(o)),
            loc: tr.loc(dst, src.op_loc(o)),
            operands: Vec::new(),
            result_types: src.results(o).iter().map(|&r| tr.ty(dst, src.value_type(r))).collect(),
            attrs: Vec::new(),
            props: Vec::new(),
            regions: src.regions(o).iter().map(|r| region_map[r]).collect(),
            successors: src.successors(o).map(|b| blocks[&b]).collect(),
            prop_dict: Some(tr.attr(dst, src.attr_dicts(o).0)),
            attr_dict: Some(tr.attr(dst, src.attr_dicts(o).1)),
        };
        let n = dst.create_op(st);
        for (i, &r) in src.results(o).iter().enumerate() {
            values.insert(r, dst.result(n, i));
        }
        if o != op {
            let b = src.op_block(o).expect("nested op in block");
            dst.insert_op(n, crate::context::InsertPoint::end(blocks[&b]));
        }
        new_ops.push(n);
    }
    for (&o, &n) in ops.iter().zip(&new_ops) {
        let operands: Vec<ValueId> =
            src.operands(o).map(|v| *values.get(&v).expect("transplant: op uses a value defined outside it")).collect();
        dst.set_operands(n, &operands);
    }
    new_ops[0]
}
