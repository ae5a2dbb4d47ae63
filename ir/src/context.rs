//! The [`Context`]: one arena of operations, blocks, regions, values and uses, plus the
//! interners for symbols, types, attributes and locations.
//!
//! Layout (see DESIGN.md, "Shape of the core IR"):
//! - every entity lives in an [`Arena`] slot named by a `u32` id (`OpId`, `BlockId`,
//!   `RegionId`, `ValueId`, `UseId`); no `Rc`, no `RefCell`;
//! - an operand is a *use*: a slot in the use arena linked into an intrusive doubly-linked
//!   list headed at the used value, so adding or removing a use is O(1) and
//!   replace-all-uses-with is O(uses). Successor references are uses of blocks, linked the
//!   same way, so a block knows its predecessors;
//! - ops in a block form an intrusive doubly-linked list (O(1) insert/erase, iteration stays
//!   valid while the current op is rewritten); blocks of a region are a short `Vec`;
//! - a `Context` is `Send`; nothing in it is global except the `Arc<Registry>`.

use crate::{
    arena::{id_type, Arena},
    attrs::{AttrId, AttrKind, NamedAttr},
    location::{LocId, Location},
    registry::{OpInfo, Registry, Traits},
    symbol::{Interner, Symbol, SymbolTable},
    types::{FloatKind, Signedness, TypeId, TypeKind},
};
use smallvec::SmallVec;
use std::sync::Arc;

id_type!(
    /// An operation.
    OpId,
    "op"
);
id_type!(
    /// A block.
    BlockId,
    "bb"
);
id_type!(
    /// A region.
    RegionId,
    "region"
);
id_type!(
    /// An SSA value: an op result or a block argument.
    ValueId,
    "v"
);
id_type!(
    /// One use of a value (an operand) or of a block (a successor).
    UseId,
    "use"
);

/// Where a value comes from.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum ValueDef {
    Result {
        op: OpId,
        index: u32,
    },
    BlockArg {
        block: BlockId,
        index: u32,
    },
    /// A forward reference made by the parser, replaced once the definition is seen.
    Placeholder,
}

#[derive(Clone, Debug)]
pub(crate) struct OpData {
    pub name: Symbol,
    /// Registry index, or [`UNREGISTERED`].
    pub info: u32,
    /// Inline for up to four operands / two results: most ops need no heap list.
    pub operands: SmallVec<[UseId; 4]>,
    pub results: SmallVec<[ValueId; 2]>,
    /// Discardable attributes: an interned, sorted dictionary (shared by equal lists).
    pub attrs: AttrId,
    /// Properties (inherent attributes): an interned dictionary.
    pub props: AttrId,
    pub regions: Box<[RegionId]>,
    pub successors: Box<[UseId]>,
    pub loc: LocId,
}

/// Where an op sits: kept in a dense side table ([`Context`]'s `links`, by op slot) rather
/// than in [`OpData`], so walking and relinking ops touches 16 bytes per op, not a whole
/// op record (walks are bound by memory latency).
#[derive(Copy, Clone, Debug)]
pub(crate) struct OpLinks {
    pub parent: u32,
    pub prev: u32,
    pub next: u32,
    pub has_regions: bool,
}

const NO_LINK: u32 = u32::MAX;

impl OpLinks {
    const DETACHED: OpLinks = OpLinks { parent: NO_LINK, prev: NO_LINK, next: NO_LINK, has_regions: false };
}

#[inline]
fn link_op(x: u32) -> Option<OpId> {
    (x != NO_LINK).then_some(OpId(x))
}

#[inline]
fn raw_op(x: Option<OpId>) -> u32 {
    x.map_or(NO_LINK, |o| o.0)
}

#[derive(Clone, Debug)]
pub(crate) struct BlockData {
    pub args: Vec<ValueId>,
    pub parent: Option<RegionId>,
    pub first: Option<OpId>,
    pub last: Option<OpId>,
    pub first_use: Option<UseId>,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct RegionData {
    pub blocks: Vec<BlockId>,
    pub parent: Option<OpId>,
}

#[derive(Clone, Debug)]
pub(crate) struct ValueData {
    pub ty: TypeId,
    pub def: ValueDef,
    pub first_use: Option<UseId>,
    pub loc: Option<LocId>,
}

#[derive(Clone, Debug)]
pub(crate) struct UseData {
    pub owner: OpId,
    pub index: u32,
    /// The used value or block (raw id; which one depends on the list the use is in).
    pub target: u32,
    pub prev: Option<UseId>,
    pub next: Option<UseId>,
}

/// Everything needed to create an op.
#[derive(Clone, Debug)]
pub struct OperationState {
    pub name: Symbol,
    pub loc: LocId,
    pub operands: Vec<ValueId>,
    pub result_types: Vec<TypeId>,
    /// Discardable attributes (printed as `{...}`).
    pub attrs: Vec<NamedAttr>,
    /// Inherent attributes / properties (printed as `<{...}>`).
    pub props: Vec<NamedAttr>,
    /// Regions to attach; they must be detached (no parent op).
    pub regions: Vec<RegionId>,
    pub successors: Vec<BlockId>,
    /// An already-interned dictionary to use for the properties instead of `props`
    /// (the parser's shortcut: no per-op list).
    pub prop_dict: Option<AttrId>,
    /// Same for the discardable attributes.
    pub attr_dict: Option<AttrId>,
}

impl OperationState {
    /// A state for op `name` at `loc` with nothing else.
    pub fn new(ctx: &mut Context, name: &str, loc: LocId) -> Self {
        Self {
            name: ctx.sym(name),
            loc,
            operands: Vec::new(),
            result_types: Vec::new(),
            attrs: Vec::new(),
            props: Vec::new(),
            regions: Vec::new(),
            successors: Vec::new(),
            prop_dict: None,
            attr_dict: None,
        }
    }
}

/// Where to insert an op: before `before` in `block`, or at the end when `before` is `None`.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct InsertPoint {
    pub block: BlockId,
    pub before: Option<OpId>,
}

impl InsertPoint {
    /// At the end of `block`.
    pub fn end(block: BlockId) -> Self {
        Self { block, before: None }
    }
}

/// The IR of one compilation unit (a function, or a module for `cuprite opt`).
#[derive(Clone)]
pub struct Context {
    registry: Arc<Registry>,
    pub(crate) ops: Arena<OpData>,
    pub(crate) links: Vec<OpLinks>,
    pub(crate) blocks: Arena<BlockData>,
    pub(crate) regions: Arena<RegionData>,
    pub(crate) values: Arena<ValueData>,
    pub(crate) uses: Arena<UseData>,
    symbols: SymbolTable,
    types: Interner<TypeKind>,
    attrs: Interner<AttrKind>,
    locs: Interner<Location>,
    /// Op-name symbol -> registry index (`u32::MAX`: unregistered), filled lazily.
    info_cache: Vec<u32>,
    unknown_loc: LocId,
    empty_dict: AttrId,
    value_sym: Symbol,
    /// Single-entry dictionaries by (name, value): constants' properties, without building
    /// a list to look them up.
    dict1_cache: rustc_hash::FxHashMap<(Symbol, AttrId), AttrId>,
    /// The file whose byte offsets [`LocId::offset`] locations refer to, with its line
    /// starts (set by the parser; one per context).
    offset_file: Option<(Symbol, std::sync::Arc<[u32]>)>,
    /// Whether ops of unregistered dialects may be created / parsed.
    pub allow_unregistered: bool,
}

const NOT_LOOKED_UP: u32 = u32::MAX - 1;
pub(crate) const UNREGISTERED: u32 = u32::MAX;

impl std::fmt::Debug for Context {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Context({} ops, {} values)", self.ops.len(), self.values.len())
    }
}

/// Iterator over the ops of a block.
pub struct BlockOps<'a> {
    ctx: &'a Context,
    next: Option<OpId>,
}

impl Iterator for BlockOps<'_> {
    type Item = OpId;
    fn next(&mut self) -> Option<OpId> {
        let cur = self.next?;
        self.next = link_op(self.ctx.links[cur.index()].next);
        Some(cur)
    }
}

/// Iterator over the uses in one use list, yielding `(owner op, operand index)`.
pub struct Uses<'a> {
    ctx: &'a Context,
    next: Option<UseId>,
}

impl Iterator for Uses<'_> {
    type Item = (OpId, u32);
    fn next(&mut self) -> Option<(OpId, u32)> {
        let cur = self.next?;
        let u = self.ctx.uses.get(cur.0);
        self.next = u.next;
        Some((u.owner, u.index))
    }
}

impl Context {
    /// A fresh context over `registry`.
    pub fn new(registry: Arc<Registry>) -> Self {
        let mut locs = Interner::default();
        let unknown_loc = LocId(locs.intern(Location::Unknown));
        let mut attrs = Interner::default();
        let empty_dict = AttrId(attrs.intern(AttrKind::Dict(Vec::new())));
        let mut symbols = SymbolTable::default();
        let value_sym = symbols.intern("value");
        Self {
            registry,
            ops: Arena::default(),
            links: Vec::new(),
            blocks: Arena::default(),
            regions: Arena::default(),
            values: Arena::default(),
            uses: Arena::default(),
            symbols,
            types: Interner::default(),
            attrs,
            locs,
            info_cache: Vec::new(),
            unknown_loc,
            empty_dict,
            value_sym,
            dict1_cache: Default::default(),
            offset_file: None,
            allow_unregistered: false,
        }
    }

    /// Makes room for about `ops` more ops (with as many values and twice as many uses), so
    /// that building large IR does not repeatedly grow and copy the arenas.
    pub fn reserve(&mut self, ops: usize) {
        self.ops.reserve(ops);
        self.values.reserve(ops);
        self.uses.reserve(2 * ops);
    }

    /// The registry this context was made with.
    pub fn registry(&self) -> &Arc<Registry> {
        &self.registry
    }

    // ----- interning -------------------------------------------------------------------

    /// Interns a string.
    pub fn sym(&mut self, s: &str) -> Symbol {
        self.symbols.intern(s)
    }
    /// The symbol of `s` if it exists (no interning).
    pub fn lookup_sym(&self, s: &str) -> Option<Symbol> {
        self.symbols.lookup(s)
    }
    /// The text of a symbol.
    #[inline]
    pub fn str(&self, s: Symbol) -> &str {
        self.symbols.get(s)
    }
    /// Interns a type.
    pub fn ty(&mut self, kind: TypeKind) -> TypeId {
        TypeId(self.types.intern(kind))
    }
    /// The structure of a type.
    #[inline]
    pub fn type_kind(&self, t: TypeId) -> &TypeKind {
        self.types.get(t.0)
    }
    /// Interns an attribute. Dictionaries are sorted by name here, so equal dictionaries
    /// are one id.
    pub fn attr(&mut self, kind: AttrKind) -> AttrId {
        let kind = match kind {
            AttrKind::Dict(mut entries) => {
                entries.sort_by(|a, b| self.symbols.get(a.0).cmp(self.symbols.get(b.0)));
                entries.dedup_by_key(|e| e.0);
                AttrKind::Dict(entries)
            }
            k => k,
        };
        AttrId(self.attrs.intern(kind))
    }
    /// The structure of an attribute.
    #[inline]
    pub fn attr_kind(&self, a: AttrId) -> &AttrKind {
        self.attrs.get(a.0)
    }
    /// Interns a location.
    pub fn loc(&mut self, l: Location) -> LocId {
        LocId(self.locs.intern(l))
    }
    /// The structure of a location. Offset locations (see [`LocId::offset`]) are expanded
    /// to a file location with line, column and a one-byte span.
    pub fn location(&self, l: LocId) -> Location {
        match (l.offset_value(), &self.offset_file) {
            (Some(off), Some((file, lines))) => {
                let line = lines.partition_point(|&s| s <= off).max(1);
                let col = off - lines[line - 1] + 1;
                Location::File {
                    file: *file,
                    start: crate::location::LineCol { line: line as u32, col },
                    end: None,
                    bytes: Some((off, off + 1)),
                }
            }
            (Some(_), None) => Location::Unknown,
            (None, _) => self.locs.get(l.0).clone(),
        }
    }
    /// Declares the file that offset locations of this context point into. Returns `false`
    /// (and changes nothing) if another file was declared already.
    pub fn set_offset_file(&mut self, file: Symbol, line_starts: std::sync::Arc<[u32]>) -> bool {
        match &self.offset_file {
            Some((f, _)) if *f != file => false,
            _ => {
                self.offset_file = Some((file, line_starts));
                true
            }
        }
    }
    /// The file offset locations point into.
    pub fn offset_file(&self) -> Option<Symbol> {
        self.offset_file.as_ref().map(|f| f.0)
    }
    /// The symbol `value` (constant ops' attribute), interned up front.
    pub fn value_sym(&self) -> Symbol {
        self.value_sym
    }
    /// The dictionary `{name = value}`.
    pub fn dict1(&mut self, name: Symbol, value: AttrId) -> AttrId {
        if let Some(&d) = self.dict1_cache.get(&(name, value)) {
            return d;
        }
        let d = self.attr(AttrKind::Dict(vec![(name, value)]));
        self.dict1_cache.insert((name, value), d);
        d
    }
    /// The empty dictionary attribute.
    pub fn empty_dict(&self) -> AttrId {
        self.empty_dict
    }
    fn dict_entries(&self, d: AttrId) -> &[NamedAttr] {
        match self.attrs.get(d.0) {
            AttrKind::Dict(e) => e,
            _ => &[],
        }
    }
    /// `loc(unknown)`.
    pub fn unknown_loc(&self) -> LocId {
        self.unknown_loc
    }

    /// `iN` (signless).
    pub fn int_type(&mut self, width: u32) -> TypeId {
        self.ty(TypeKind::Integer { width, signedness: Signedness::Signless })
    }
    /// `i1`.
    pub fn i1(&mut self) -> TypeId {
        self.int_type(1)
    }
    /// `i32`.
    pub fn i32(&mut self) -> TypeId {
        self.int_type(32)
    }
    /// `i64`.
    pub fn i64(&mut self) -> TypeId {
        self.int_type(64)
    }
    /// `index`.
    pub fn index_type(&mut self) -> TypeId {
        self.ty(TypeKind::Index)
    }
    /// A float type.
    pub fn float_type(&mut self, k: FloatKind) -> TypeId {
        self.ty(TypeKind::Float(k))
    }
    /// `(inputs) -> results`.
    pub fn function_type(&mut self, inputs: Vec<TypeId>, results: Vec<TypeId>) -> TypeId {
        self.ty(TypeKind::Function { inputs, results })
    }
    /// An integer attribute of type `ty`, normalized to the type's width.
    pub fn int_attr(&mut self, value: i128, ty: TypeId) -> AttrId {
        let value = match self.type_kind(ty) {
            TypeKind::Integer { width, signedness } => normalize_int(value, *width, *signedness),
            TypeKind::Index => normalize_int(value, 64, Signedness::Signless),
            _ => value,
        };
        self.attr(AttrKind::Integer { value, ty })
    }
    /// A string attribute.
    pub fn str_attr(&mut self, s: &str) -> AttrId {
        self.attr(AttrKind::String(s.to_string()))
    }
    /// A type attribute.
    pub fn type_attr(&mut self, t: TypeId) -> AttrId {
        self.attr(AttrKind::Type(t))
    }
    /// `@name`.
    pub fn symbol_ref(&mut self, name: &str) -> AttrId {
        let root = self.sym(name);
        self.attr(AttrKind::SymbolRef { root, nested: Vec::new() })
    }
    /// `unit`.
    pub fn unit_attr(&mut self) -> AttrId {
        self.attr(AttrKind::Unit)
    }

    /// Integer width of `t` (`index` counts as 64), if it is an integer.
    pub fn int_width(&self, t: TypeId) -> Option<u32> {
        match self.type_kind(t) {
            TypeKind::Integer { width, .. } => Some(*width),
            TypeKind::Index => Some(64),
            _ => None,
        }
    }

    // ----- registry lookups ------------------------------------------------------------

    pub(crate) fn info_index(&mut self, name: Symbol) -> Option<u32> {
        let i = name.index();
        if self.info_cache.len() <= i {
            self.info_cache.resize(i + 1, NOT_LOOKED_UP);
        }
        if self.info_cache[i] == NOT_LOOKED_UP {
            self.info_cache[i] = self.registry.lookup(self.symbols.get(name)).unwrap_or(UNREGISTERED);
        }
        let v = self.info_cache[i];
        (v != UNREGISTERED).then_some(v)
    }

    /// The trait flags of op name `name` (none if unregistered), cached per symbol.
    pub fn traits_of_name(&mut self, name: Symbol) -> Option<Traits> {
        self.info_index(name).map(|i| self.registry.op(i).traits)
    }

    /// The registry entry of op `name`, if registered.
    pub fn op_info_by_name(&self, name: &str) -> Option<&OpInfo> {
        self.registry.lookup(name).map(|i| self.registry.op(i))
    }

    /// The registry entry of `op`, if its op is registered.
    #[inline]
    pub fn op_info(&self, op: OpId) -> Option<&OpInfo> {
        let i = self.ops.get(op.0).info;
        (i != UNREGISTERED).then(|| self.registry.op(i))
    }

    /// The trait flags of `op` (none for unregistered ops).
    #[inline]
    pub fn traits(&self, op: OpId) -> Traits {
        self.op_info(op).map_or(Traits::NONE, |i| i.traits)
    }

    /// Whether `op` has all of `t`.
    #[inline]
    pub fn has_trait(&self, op: OpId, t: Traits) -> bool {
        self.traits(op).contains(t)
    }

    /// Whether `op` is registered.
    pub fn is_registered(&self, op: OpId) -> bool {
        self.ops.get(op.0).info != UNREGISTERED
    }

    // ----- use lists -------------------------------------------------------------------

    fn link_use(uses: &mut Arena<UseData>, head: &mut Option<UseId>, owner: OpId, index: u32, target: u32) -> UseId {
        let id = UseId(uses.alloc(UseData { owner, index, target, prev: None, next: *head }));
        if let Some(h) = *head {
            uses.get_mut(h.0).prev = Some(id);
        }
        *head = Some(id);
        id
    }

    /// Unlinks use `u` from its list (O(1)) without freeing it.
    fn unlink_value_use(&mut self, u: UseId) {
        let UseData { prev, next, target, .. } = *self.uses.get(u.0);
        match prev {
            Some(p) => self.uses.get_mut(p.0).next = next,
            None => self.values.get_mut(target).first_use = next,
        }
        if let Some(n) = next {
            self.uses.get_mut(n.0).prev = prev;
        }
    }

    fn unlink_block_use(&mut self, u: UseId) {
        let UseData { prev, next, target, .. } = *self.uses.get(u.0);
        match prev {
            Some(p) => self.uses.get_mut(p.0).next = next,
            None => self.blocks.get_mut(target).first_use = next,
        }
        if let Some(n) = next {
            self.uses.get_mut(n.0).prev = prev;
        }
    }

    fn relink_value_use(&mut self, u: UseId, to: ValueId) {
        self.unlink_value_use(u);
        let head = self.values.get(to.0).first_use;
        {
            let d = self.uses.get_mut(u.0);
            d.target = to.0;
            d.prev = None;
            d.next = head;
        }
        if let Some(h) = head {
            self.uses.get_mut(h.0).prev = Some(u);
        }
        self.values.get_mut(to.0).first_use = Some(u);
    }

    // ----- values ----------------------------------------------------------------------

    fn new_value(&mut self, ty: TypeId, def: ValueDef) -> ValueId {
        ValueId(self.values.alloc(ValueData { ty, def, first_use: None, loc: None }))
    }

    /// A forward-reference placeholder of type `ty` (parser use). Replace all its uses,
    /// then free it with [`Context::erase_placeholder`].
    pub fn create_placeholder(&mut self, ty: TypeId) -> ValueId {
        self.new_value(ty, ValueDef::Placeholder)
    }

    /// Frees a placeholder that has no uses left.
    pub fn erase_placeholder(&mut self, v: ValueId) {
        debug_assert!(self.values.get(v.0).first_use.is_none());
        debug_assert_eq!(self.values.get(v.0).def, ValueDef::Placeholder);
        self.values.free(v.0);
    }

    /// The type of `v`.
    #[inline]
    pub fn value_type(&self, v: ValueId) -> TypeId {
        self.values.get(v.0).ty
    }
    /// Changes the type of `v` (type conversion).
    pub fn set_value_type(&mut self, v: ValueId, ty: TypeId) {
        self.values.get_mut(v.0).ty = ty;
    }
    /// Where `v` is defined.
    #[inline]
    pub fn value_def(&self, v: ValueId) -> ValueDef {
        self.values.get(v.0).def
    }
    /// The op defining `v`, if it is an op result.
    #[inline]
    pub fn defining_op(&self, v: ValueId) -> Option<OpId> {
        match self.values.get(v.0).def {
            ValueDef::Result { op, .. } => Some(op),
            _ => None,
        }
    }
    /// The location of a block argument, if it has one.
    pub fn value_loc(&self, v: ValueId) -> Option<LocId> {
        self.values.get(v.0).loc
    }
    /// Sets the location of a block argument.
    pub fn set_value_loc(&mut self, v: ValueId, loc: Option<LocId>) {
        self.values.get_mut(v.0).loc = loc;
    }
    /// The block in which `v` is defined (its op's block, or its block for an argument).
    pub fn value_block(&self, v: ValueId) -> Option<BlockId> {
        match self.values.get(v.0).def {
            ValueDef::Result { op, .. } => self.op_block(op),
            ValueDef::BlockArg { block, .. } => Some(block),
            ValueDef::Placeholder => None,
        }
    }
    /// Whether `v` still exists.
    pub fn value_is_live(&self, v: ValueId) -> bool {
        self.values.is_live(v.0)
    }
    /// The uses of `v` as `(op, operand index)`.
    pub fn uses(&self, v: ValueId) -> Uses<'_> {
        Uses { ctx: self, next: self.values.get(v.0).first_use }
    }
    /// Whether `v` has any use.
    #[inline]
    pub fn has_uses(&self, v: ValueId) -> bool {
        self.values.get(v.0).first_use.is_some()
    }
    /// Whether `v` has exactly one use.
    pub fn has_one_use(&self, v: ValueId) -> bool {
        match self.values.get(v.0).first_use {
            Some(u) => self.uses.get(u.0).next.is_none(),
            None => false,
        }
    }
    /// Replaces every use of `from` with `to`, in O(uses of `from`).
    pub fn replace_all_uses_with(&mut self, from: ValueId, to: ValueId) {
        if from == to {
            return;
        }
        while let Some(u) = self.values.get(from.0).first_use {
            self.relink_value_use(u, to);
        }
    }
    /// Replaces the uses of `from` for which `pred(owner, index)` holds.
    pub fn replace_uses_with_if(&mut self, from: ValueId, to: ValueId, mut pred: impl FnMut(&Context, OpId, u32) -> bool) {
        let mut cur = self.values.get(from.0).first_use;
        while let Some(u) = cur {
            let d = self.uses.get(u.0);
            cur = d.next;
            let (owner, index) = (d.owner, d.index);
            if from != to && pred(self, owner, index) {
                self.relink_value_use(u, to);
            }
        }
    }

    // ----- ops -------------------------------------------------------------------------

    /// Creates a detached op (insert it with [`Context::insert_op`]).
    pub fn create_op(&mut self, st: OperationState) -> OpId {
        let attrs = match st.attr_dict {
            Some(d) => d,
            None if st.attrs.is_empty() => self.empty_dict,
            None => self.attr(AttrKind::Dict(st.attrs)),
        };
        let props = match st.prop_dict {
            Some(d) => d,
            None if st.props.is_empty() => self.empty_dict,
            None => self.attr(AttrKind::Dict(st.props)),
        };
        self.create_op_parts(st.name, st.loc, &st.operands, &st.result_types, props, attrs, st.regions, &st.successors)
    }

    /// [`Context::create_op`] from parts: `props` and `attrs` are interned dictionaries
    /// (e.g. [`Context::empty_dict`]). No intermediate lists are built.
    #[allow(clippy::too_many_arguments)]
    pub fn create_op_parts(
        &mut self,
        name: Symbol,
        loc: LocId,
        operands: &[ValueId],
        result_types: &[TypeId],
        props: AttrId,
        attrs: AttrId,
        regions: Vec<RegionId>,
        successors: &[BlockId],
    ) -> OpId {
        let info = self.info_index(name).unwrap_or(UNREGISTERED);
        let op = OpId(self.ops.alloc(OpData {
            name,
            info,
            operands: SmallVec::new(),
            results: SmallVec::new(),
            attrs,
            props,
            regions: regions.into_boxed_slice(),
            successors: Box::default(),
            loc,
        }));
        let slot = op.index();
        if self.links.len() <= slot {
            self.links.resize(slot + 1, OpLinks::DETACHED);
        }
        self.links[slot] = OpLinks { has_regions: !self.ops.get(op.0).regions.is_empty(), ..OpLinks::DETACHED };
        let mut uses = SmallVec::with_capacity(operands.len());
        for (i, v) in operands.iter().enumerate() {
            let mut head = self.values.get(v.0).first_use;
            uses.push(Self::link_use(&mut self.uses, &mut head, op, i as u32, v.0));
            self.values.get_mut(v.0).first_use = head;
        }
        let results: SmallVec<[ValueId; 2]> =
            result_types.iter().enumerate().map(|(i, &ty)| self.new_value(ty, ValueDef::Result { op, index: i as u32 })).collect();
        let mut succs = Vec::with_capacity(successors.len());
        for (i, b) in successors.iter().enumerate() {
            let mut head = self.blocks.get(b.0).first_use;
            succs.push(Self::link_use(&mut self.uses, &mut head, op, i as u32, b.0));
            self.blocks.get_mut(b.0).first_use = head;
        }
        {
            let d = self.ops.get_mut(op.0);
            d.operands = uses;
            d.results = results;
            d.successors = succs.into_boxed_slice();
        }
        for i in 0..self.ops.get(op.0).regions.len() {
            let r = self.ops.get(op.0).regions[i];
            debug_assert!(self.regions.get(r.0).parent.is_none(), "region already attached");
            self.regions.get_mut(r.0).parent = Some(op);
        }
        op
    }

    /// Whether `op` still exists.
    pub fn op_is_live(&self, op: OpId) -> bool {
        self.ops.is_live(op.0)
    }
    /// The name symbol of `op`.
    #[inline]
    pub fn op_name(&self, op: OpId) -> Symbol {
        self.ops.get(op.0).name
    }
    /// The name of `op` as text.
    #[inline]
    pub fn op_name_str(&self, op: OpId) -> &str {
        self.symbols.get(self.ops.get(op.0).name)
    }
    /// Whether `op` is named `name`.
    pub fn is_op(&self, op: OpId, name: &str) -> bool {
        self.op_name_str(op) == name
    }
    /// The location of `op`.
    #[inline]
    pub fn op_loc(&self, op: OpId) -> LocId {
        self.ops.get(op.0).loc
    }
    /// Sets the location of `op`.
    pub fn set_op_loc(&mut self, op: OpId, loc: LocId) {
        self.ops.get_mut(op.0).loc = loc;
    }
    /// Number of operands.
    #[inline]
    pub fn num_operands(&self, op: OpId) -> usize {
        self.ops.get(op.0).operands.len()
    }
    /// Operand `i`.
    #[inline]
    pub fn operand(&self, op: OpId, i: usize) -> ValueId {
        ValueId(self.uses.get(self.ops.get(op.0).operands[i].0).target)
    }
    /// All operands.
    pub fn operands(&self, op: OpId) -> impl ExactSizeIterator<Item = ValueId> + '_ {
        self.ops.get(op.0).operands.iter().map(|u| ValueId(self.uses.get(u.0).target))
    }
    /// All operands, collected.
    pub fn operand_vec(&self, op: OpId) -> Vec<ValueId> {
        self.operands(op).collect()
    }
    /// Sets operand `i` to `v`.
    pub fn set_operand(&mut self, op: OpId, i: usize, v: ValueId) {
        let u = self.ops.get(op.0).operands[i];
        if self.uses.get(u.0).target != v.0 {
            self.relink_value_use(u, v);
        }
    }
    /// Replaces the whole operand list.
    pub fn set_operands(&mut self, op: OpId, vals: &[ValueId]) {
        let old = std::mem::take(&mut self.ops.get_mut(op.0).operands);
        for u in old.into_vec() {
            self.unlink_value_use(u);
            self.uses.free(u.0);
        }
        let mut list = Vec::with_capacity(vals.len());
        for (i, v) in vals.iter().enumerate() {
            let mut head = self.values.get(v.0).first_use;
            let u = Self::link_use(&mut self.uses, &mut head, op, i as u32, v.0);
            self.values.get_mut(v.0).first_use = head;
            list.push(u);
        }
        self.ops.get_mut(op.0).operands = list.into_iter().collect();
    }
    /// Drops every operand of `op` (the op keeps existing with none).
    pub fn drop_operands(&mut self, op: OpId) {
        self.set_operands(op, &[]);
    }
    /// The results of `op`.
    #[inline]
    pub fn results(&self, op: OpId) -> &[ValueId] {
        &self.ops.get(op.0).results
    }
    /// Result `i`.
    #[inline]
    pub fn result(&self, op: OpId, i: usize) -> ValueId {
        self.ops.get(op.0).results[i]
    }
    /// Number of results.
    pub fn num_results(&self, op: OpId) -> usize {
        self.ops.get(op.0).results.len()
    }
    /// The regions of `op`.
    #[inline]
    pub fn regions(&self, op: OpId) -> &[RegionId] {
        &self.ops.get(op.0).regions
    }
    /// Region `i`.
    pub fn region(&self, op: OpId, i: usize) -> RegionId {
        self.ops.get(op.0).regions[i]
    }
    /// Number of successors.
    pub fn num_successors(&self, op: OpId) -> usize {
        self.ops.get(op.0).successors.len()
    }
    /// Successor `i`.
    pub fn successor(&self, op: OpId, i: usize) -> BlockId {
        BlockId(self.uses.get(self.ops.get(op.0).successors[i].0).target)
    }
    /// All successors.
    pub fn successors(&self, op: OpId) -> impl ExactSizeIterator<Item = BlockId> + '_ {
        self.ops.get(op.0).successors.iter().map(|u| BlockId(self.uses.get(u.0).target))
    }
    /// Sets successor `i`.
    pub fn set_successor(&mut self, op: OpId, i: usize, b: BlockId) {
        let u = self.ops.get(op.0).successors[i];
        self.unlink_block_use(u);
        let head = self.blocks.get(b.0).first_use;
        {
            let d = self.uses.get_mut(u.0);
            d.target = b.0;
            d.prev = None;
            d.next = head;
        }
        if let Some(h) = head {
            self.uses.get_mut(h.0).prev = Some(u);
        }
        self.blocks.get_mut(b.0).first_use = Some(u);
    }
    /// Removes every successor of `op`.
    pub fn clear_successors(&mut self, op: OpId) {
        let succ = std::mem::take(&mut self.ops.get_mut(op.0).successors);
        for u in succ.into_vec() {
            self.unlink_block_use(u);
            self.uses.free(u.0);
        }
    }
    /// Discardable attributes, sorted by name.
    pub fn attrs(&self, op: OpId) -> &[NamedAttr] {
        self.dict_entries(self.ops.get(op.0).attrs)
    }
    /// Properties (inherent attributes), sorted by name.
    pub fn props(&self, op: OpId) -> &[NamedAttr] {
        self.dict_entries(self.ops.get(op.0).props)
    }
    /// The interned dictionaries `(properties, discardable attributes)` of `op`.
    pub fn attr_dicts(&self, op: OpId) -> (AttrId, AttrId) {
        let d = self.ops.get(op.0);
        (d.props, d.attrs)
    }
    /// The attribute `name` of `op`, looking at properties first, then discardable attributes.
    pub fn get_attr(&self, op: OpId, name: &str) -> Option<AttrId> {
        // Attribute lists are short: comparing the names beats hashing `name`.
        let d = self.ops.get(op.0);
        self.dict_entries(d.props).iter().chain(self.dict_entries(d.attrs)).find(|a| self.symbols.get(a.0) == name).map(|a| a.1)
    }
    /// The attribute named by symbol `name` (properties first).
    pub fn get_attr_sym(&self, op: OpId, name: Symbol) -> Option<AttrId> {
        let d = self.ops.get(op.0);
        self.dict_entries(d.props).iter().chain(self.dict_entries(d.attrs)).find(|a| a.0 == name).map(|a| a.1)
    }
    fn with_entry(&mut self, dict: AttrId, name: Symbol, value: Option<AttrId>) -> AttrId {
        let mut e: Vec<NamedAttr> = self.dict_entries(dict).iter().copied().filter(|x| x.0 != name).collect();
        if let Some(v) = value {
            e.push((name, v));
        }
        self.attr(AttrKind::Dict(e))
    }
    /// Sets a discardable attribute.
    pub fn set_attr(&mut self, op: OpId, name: &str, value: AttrId) {
        let s = self.symbols.intern(name);
        let d = self.with_entry(self.ops.get(op.0).attrs, s, Some(value));
        self.ops.get_mut(op.0).attrs = d;
    }
    /// Sets a property (inherent attribute).
    pub fn set_prop(&mut self, op: OpId, name: &str, value: AttrId) {
        let s = self.symbols.intern(name);
        let d = self.with_entry(self.ops.get(op.0).props, s, Some(value));
        self.ops.get_mut(op.0).props = d;
    }
    /// Removes attribute `name` from both lists; returns whether it was there.
    pub fn remove_attr(&mut self, op: OpId, name: &str) -> bool {
        let Some(s) = self.symbols.lookup(name) else { return false };
        let (p, a) = self.attr_dicts(op);
        let (np, na) = (self.with_entry(p, s, None), self.with_entry(a, s, None));
        let d = self.ops.get_mut(op.0);
        d.props = np;
        d.attrs = na;
        np != p || na != a
    }

    /// The block containing `op`.
    #[inline]
    pub fn op_block(&self, op: OpId) -> Option<BlockId> {
        let p = self.links[op.index()].parent;
        (p != NO_LINK).then_some(BlockId(p))
    }
    /// The op whose region contains `op`.
    pub fn parent_op(&self, op: OpId) -> Option<OpId> {
        let b = self.op_block(op)?;
        self.block_parent_op(b)
    }
    /// The region containing `op`.
    pub fn op_region(&self, op: OpId) -> Option<RegionId> {
        self.blocks.get(self.op_block(op)?.0).parent
    }
    /// The op after `op` in its block.
    #[inline]
    pub fn next_op(&self, op: OpId) -> Option<OpId> {
        link_op(self.links[op.index()].next)
    }
    /// The op before `op` in its block.
    #[inline]
    pub fn prev_op(&self, op: OpId) -> Option<OpId> {
        link_op(self.links[op.index()].prev)
    }
    /// Whether `op` has regions (without touching the op record).
    #[inline]
    pub fn op_has_regions(&self, op: OpId) -> bool {
        self.links[op.index()].has_regions
    }
    /// Whether `op` is (or is nested in) `ancestor`.
    pub fn is_ancestor(&self, ancestor: OpId, mut op: OpId) -> bool {
        loop {
            if op == ancestor {
                return true;
            }
            match self.parent_op(op) {
                Some(p) => op = p,
                None => return false,
            }
        }
    }

    /// Inserts detached `op` at `ip`.
    pub fn insert_op(&mut self, op: OpId, ip: InsertPoint) {
        debug_assert!(self.op_block(op).is_none(), "op already in a block");
        let (prev, next) = match ip.before {
            Some(b) => (self.prev_op(b), Some(b)),
            None => (self.blocks.get(ip.block.0).last, None),
        };
        {
            let l = &mut self.links[op.index()];
            l.parent = ip.block.0;
            l.prev = raw_op(prev);
            l.next = raw_op(next);
        }
        match prev {
            Some(p) => self.links[p.index()].next = op.0,
            None => self.blocks.get_mut(ip.block.0).first = Some(op),
        }
        match next {
            Some(n) => self.links[n.index()].prev = op.0,
            None => self.blocks.get_mut(ip.block.0).last = Some(op),
        }
    }

    /// Removes `op` from its block, leaving it detached (and alive).
    pub fn unlink_op(&mut self, op: OpId) {
        let l = self.links[op.index()];
        if l.parent == NO_LINK {
            return;
        }
        let block = BlockId(l.parent);
        let (prev, next) = (link_op(l.prev), link_op(l.next));
        match prev {
            Some(p) => self.links[p.index()].next = l.next,
            None => self.blocks.get_mut(block.0).first = next,
        }
        match next {
            Some(n) => self.links[n.index()].prev = l.prev,
            None => self.blocks.get_mut(block.0).last = prev,
        }
        let has_regions = l.has_regions;
        self.links[op.index()] = OpLinks { has_regions, ..OpLinks::DETACHED };
    }

    /// Moves `op` (attached or not) to `ip`.
    pub fn move_op(&mut self, op: OpId, ip: InsertPoint) {
        self.unlink_op(op);
        self.insert_op(op, ip);
    }

    /// Erases `op` and everything nested in it. Its results must have no uses outside it.
    /// Iterative: nesting depth does not grow the stack.
    pub fn erase_op(&mut self, op: OpId) {
        self.unlink_op(op);
        // 1. Collect the op and everything nested (preorder).
        let nested;
        let all: &[OpId] = if self.ops.get(op.0).regions.is_empty() {
            std::slice::from_ref(&op)
        } else {
            nested = crate::walk::collect_preorder(self, op);
            &nested
        };
        // 2. Drop every operand and successor use, so no value or block is still referenced.
        for &o in all {
            let d = self.ops.get_mut(o.0);
            let operands = std::mem::take(&mut d.operands);
            let succs = std::mem::take(&mut d.successors);
            for u in operands {
                self.unlink_value_use(u);
                self.uses.free(u.0);
            }
            for u in succs.into_vec() {
                self.unlink_block_use(u);
                self.uses.free(u.0);
            }
        }
        // 3. Free ops, their results, regions, blocks and block arguments.
        for &o in all {
            let d = self.ops.free(o.0);
            for &v in d.results.iter() {
                assert!(self.values.get(v.0).first_use.is_none(), "erase_op: result of '{}' still has uses", self.str(d.name));
                self.values.free(v.0);
            }
            for &r in d.regions.iter() {
                let rd = self.regions.free(r.0);
                for b in rd.blocks {
                    self.free_block_data(b);
                }
            }
        }
    }

    fn free_block_data(&mut self, b: BlockId) {
        let bd = self.blocks.free(b.0);
        debug_assert!(bd.first_use.is_none(), "erased block still has predecessors");
        for a in bd.args {
            assert!(self.values.get(a.0).first_use.is_none(), "erase: block argument still has uses");
            self.values.free(a.0);
        }
    }

    // ----- blocks ----------------------------------------------------------------------

    /// Creates a detached block with arguments of the given types.
    pub fn create_block(&mut self, arg_types: &[TypeId]) -> BlockId {
        let b = BlockId(self.blocks.alloc(BlockData {
            args: Vec::with_capacity(arg_types.len()),
            parent: None,
            first: None,
            last: None,
            first_use: None,
        }));
        for &t in arg_types {
            self.add_block_arg(b, t);
        }
        b
    }
    /// Appends an argument to `b`.
    pub fn add_block_arg(&mut self, b: BlockId, ty: TypeId) -> ValueId {
        let index = self.blocks.get(b.0).args.len() as u32;
        let v = self.new_value(ty, ValueDef::BlockArg { block: b, index });
        self.blocks.get_mut(b.0).args.push(v);
        v
    }
    /// Erases argument `i` of `b` (it must have no uses).
    pub fn erase_block_arg(&mut self, b: BlockId, i: usize) {
        let v = self.blocks.get_mut(b.0).args.remove(i);
        assert!(!self.has_uses(v), "erase_block_arg: argument still used");
        self.values.free(v.0);
        let args = self.blocks.get(b.0).args.clone();
        for (j, a) in args.into_iter().enumerate().skip(i) {
            self.values.get_mut(a.0).def = ValueDef::BlockArg { block: b, index: j as u32 };
        }
    }
    /// The arguments of `b`.
    #[inline]
    pub fn block_args(&self, b: BlockId) -> &[ValueId] {
        &self.blocks.get(b.0).args
    }
    /// The ops of `b`, in order.
    pub fn block_ops(&self, b: BlockId) -> BlockOps<'_> {
        BlockOps { ctx: self, next: self.blocks.get(b.0).first }
    }
    /// The first op of `b`.
    pub fn first_op(&self, b: BlockId) -> Option<OpId> {
        self.blocks.get(b.0).first
    }
    /// The last op of `b`.
    pub fn last_op(&self, b: BlockId) -> Option<OpId> {
        self.blocks.get(b.0).last
    }
    /// The last op of `b` if it has the terminator trait.
    pub fn terminator(&self, b: BlockId) -> Option<OpId> {
        self.last_op(b).filter(|&o| self.has_trait(o, Traits::TERMINATOR))
    }
    /// Whether `b` has no ops.
    pub fn block_is_empty(&self, b: BlockId) -> bool {
        self.blocks.get(b.0).first.is_none()
    }
    /// The region containing `b`.
    #[inline]
    pub fn block_region(&self, b: BlockId) -> Option<RegionId> {
        self.blocks.get(b.0).parent
    }
    /// The op owning the region containing `b`.
    pub fn block_parent_op(&self, b: BlockId) -> Option<OpId> {
        self.regions.get(self.blocks.get(b.0).parent?.0).parent
    }
    /// The predecessors of `b` as `(terminator, successor index)`.
    pub fn predecessors(&self, b: BlockId) -> Uses<'_> {
        Uses { ctx: self, next: self.blocks.get(b.0).first_use }
    }
    /// Whether some terminator branches to `b`.
    pub fn has_predecessors(&self, b: BlockId) -> bool {
        self.blocks.get(b.0).first_use.is_some()
    }
    /// Whether `b` still exists.
    pub fn block_is_live(&self, b: BlockId) -> bool {
        self.blocks.is_live(b.0)
    }
    /// Erases `b` and its ops (nothing may branch to it or use its values).
    pub fn erase_block(&mut self, b: BlockId) {
        self.remove_block_from_region(b);
        while let Some(op) = self.last_op(b) {
            self.erase_op(op);
        }
        self.free_block_data(b);
    }
    /// Detaches `b` from its region (it stays alive).
    pub fn remove_block_from_region(&mut self, b: BlockId) {
        if let Some(r) = self.blocks.get(b.0).parent {
            self.regions.get_mut(r.0).blocks.retain(|&x| x != b);
            self.blocks.get_mut(b.0).parent = None;
        }
    }

    // ----- regions ---------------------------------------------------------------------

    /// Creates a detached, empty region.
    pub fn create_region(&mut self) -> RegionId {
        RegionId(self.regions.alloc(RegionData::default()))
    }
    /// The blocks of `r`, in order (the first is the entry block).
    #[inline]
    pub fn region_blocks(&self, r: RegionId) -> &[BlockId] {
        &self.regions.get(r.0).blocks
    }
    /// The entry block of `r`.
    pub fn entry_block(&self, r: RegionId) -> Option<BlockId> {
        self.regions.get(r.0).blocks.first().copied()
    }
    /// The op owning `r`.
    pub fn region_parent(&self, r: RegionId) -> Option<OpId> {
        self.regions.get(r.0).parent
    }
    /// Appends detached block `b` to `r`.
    pub fn append_block(&mut self, r: RegionId, b: BlockId) {
        self.insert_block(r, self.regions.get(r.0).blocks.len(), b);
    }
    /// Inserts detached block `b` at position `index` of `r`.
    pub fn insert_block(&mut self, r: RegionId, index: usize, b: BlockId) {
        debug_assert!(self.blocks.get(b.0).parent.is_none());
        self.blocks.get_mut(b.0).parent = Some(r);
        self.regions.get_mut(r.0).blocks.insert(index, b);
    }
    /// Position of `b` in its region.
    pub fn block_index(&self, b: BlockId) -> Option<usize> {
        let r = self.blocks.get(b.0).parent?;
        self.regions.get(r.0).blocks.iter().position(|&x| x == b)
    }

    /// Splits `b` before `at`: `at` and the ops after it move to a new block inserted right
    /// after `b`, which is returned. O(moved ops).
    pub fn split_block(&mut self, b: BlockId, at: OpId) -> BlockId {
        let nb = self.create_block(&[]);
        if let Some(r) = self.blocks.get(b.0).parent {
            let idx = self.block_index(b).unwrap_or(0);
            self.insert_block(r, idx + 1, nb);
        }
        let mut cur = Some(at);
        while let Some(o) = cur {
            cur = self.next_op(o);
            self.unlink_op(o);
            self.insert_op(o, InsertPoint::end(nb));
        }
        nb
    }

    /// Moves every op of `src` to `ip` (before `ip.before` in `ip.block`), replacing the
    /// uses of `src`'s arguments with `args`, and erases `src`.
    pub fn merge_block_into(&mut self, src: BlockId, ip: InsertPoint, args: &[ValueId]) {
        let src_args = self.block_args(src).to_vec();
        assert_eq!(src_args.len(), args.len(), "merge_block_into: argument count mismatch");
        for (a, &v) in src_args.iter().zip(args) {
            self.replace_all_uses_with(*a, v);
        }
        let mut cur = self.first_op(src);
        while let Some(o) = cur {
            cur = self.next_op(o);
            self.unlink_op(o);
            self.insert_op(o, ip);
        }
        self.remove_block_from_region(src);
        self.free_block_data(src);
    }

    /// Moves all blocks of `src` into `dest` starting at position `index` (MLIR's
    /// `inlineRegionBefore`). `src` ends empty.
    pub fn inline_region_before(&mut self, src: RegionId, dest: RegionId, index: usize) {
        let blocks = std::mem::take(&mut self.regions.get_mut(src.0).blocks);
        for (k, b) in blocks.into_iter().enumerate() {
            self.blocks.get_mut(b.0).parent = Some(dest);
            self.regions.get_mut(dest.0).blocks.insert(index + k, b);
        }
    }
    /// Replaces the region list of `op` (regions must be detached; old ones are erased).
    pub fn take_region(&mut self, op: OpId, i: usize) -> RegionId {
        let fresh = self.create_region();
        let old = std::mem::replace(&mut self.ops.get_mut(op.0).regions[i], fresh);
        self.regions.get_mut(fresh.0).parent = Some(op);
        self.regions.get_mut(old.0).parent = None;
        old
    }
    /// Frees a detached region whose blocks have been erased or moved.
    pub fn erase_detached_region(&mut self, r: RegionId) {
        let blocks = self.regions.get(r.0).blocks.clone();
        for b in blocks.into_iter().rev() {
            // Drop successor uses first so blocks can be freed in any order.
            let ops: Vec<OpId> = self.block_ops(b).collect();
            for o in ops {
                for i in 0..self.num_successors(o) {
                    let u = self.ops.get(o.0).successors[i];
                    self.unlink_block_use(u);
                }
                let d = self.ops.get_mut(o.0);
                let succ = std::mem::take(&mut d.successors);
                for u in succ.into_vec() {
                    self.uses.free(u.0);
                }
            }
        }
        let blocks = self.regions.get(r.0).blocks.clone();
        for b in blocks.into_iter().rev() {
            while let Some(op) = self.last_op(b) {
                self.drop_all_nested_operands(op);
                self.erase_op(op);
            }
        }
        let rd = self.regions.free(r.0);
        for b in rd.blocks {
            self.free_block_data(b);
        }
    }

    fn drop_all_nested_operands(&mut self, op: OpId) {
        for o in crate::walk::collect_preorder(self, op) {
            self.drop_operands(o);
        }
    }

    /// Live op count (all ops in the context).
    pub fn num_ops(&self) -> usize {
        self.ops.len()
    }
    /// Slot count of the op arena (size for dense side tables indexed by `OpId::index`).
    pub fn op_capacity(&self) -> usize {
        self.ops.capacity()
    }
    /// Slot count of the value arena.
    pub fn value_capacity(&self) -> usize {
        self.values.capacity()
    }
    /// Slot count of the block arena.
    pub fn block_capacity(&self) -> usize {
        self.blocks.capacity()
    }
}

/// Truncates `value` to `width` bits and re-extends it per `signedness`.
pub fn normalize_int(value: i128, width: u32, signedness: Signedness) -> i128 {
    if width >= 128 || width == 0 {
        return value;
    }
    let mask: u128 = (1u128 << width) - 1;
    let bits = (value as u128) & mask;
    match signedness {
        Signedness::Unsigned => bits as i128,
        _ if width == 1 => bits as i128,
        _ => {
            let sign = 1u128 << (width - 1);
            if bits & sign != 0 {
                (bits | !mask) as i128
            } else {
                bits as i128
            }
        }
    }
}
