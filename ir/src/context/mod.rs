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

mod blocks;
mod ops;
mod values;

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
    /// Registry index plus one, or [`UNREGISTERED`] (never zero: `Option<OpData>`, an arena
    /// slot, then needs no tag of its own).
    pub info: std::num::NonZeroU32,
    /// Inline for up to four operands / two results: most ops need no heap list.
    pub operands: SmallVec<[UseId; 4]>,
    pub results: SmallVec<[ValueId; 2]>,
    /// Discardable attributes: an interned, sorted dictionary (shared by equal lists).
    pub attrs: AttrId,
    /// Properties (inherent attributes): an interned dictionary.
    pub props: AttrId,
    /// Regions and successors, which most ops have none of (kept out of line: with the
    /// `info` niche, an op's arena slot is 80 bytes, not 104; sema emits about a million).
    pub extra: Option<Box<OpExtra>>,
    pub loc: LocId,
}

/// An arena slot (`Option<OpData>`) is no bigger than the op record.
const _: () = assert!(std::mem::size_of::<Option<OpData>>() == std::mem::size_of::<OpData>());

#[derive(Clone, Debug, Default)]
pub(crate) struct OpExtra {
    pub regions: SmallVec<[RegionId; 3]>,
    pub successors: SmallVec<[UseId; 2]>,
}

impl OpData {
    /// The registry index, or [`UNREGISTERED`].
    #[inline]
    pub fn info_index(&self) -> u32 {
        if self.info.get() == UNREGISTERED {
            UNREGISTERED
        } else {
            self.info.get() - 1
        }
    }
    /// The stored form of registry index `i` (or [`UNREGISTERED`]).
    pub fn info_of(i: u32) -> std::num::NonZeroU32 {
        std::num::NonZeroU32::new(if i == UNREGISTERED { UNREGISTERED } else { i + 1 }).expect("not zero")
    }
    #[inline]
    pub fn regions(&self) -> &[RegionId] {
        self.extra.as_ref().map_or(&[], |e| &e.regions)
    }
    #[inline]
    pub fn successors(&self) -> &[UseId] {
        self.extra.as_ref().map_or(&[], |e| &e.successors)
    }
    /// Takes the successor list (leaving none).
    pub fn take_successors(&mut self) -> SmallVec<[UseId; 2]> {
        self.extra.as_mut().map(|e| std::mem::take(&mut e.successors)).unwrap_or_default()
    }
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
}

#[derive(Clone, Debug)]
pub(crate) struct UseData {
    pub owner: OpId,
    pub index: u32,
    /// The used value or block (raw id; which one depends on the list the use is in).
    pub target: u32,
    /// The neighbours in the use list ([`NO_LINK`]: none), raw: a use's arena slot is 24
    /// bytes, not 28.
    pub prev: u32,
    pub next: u32,
}

impl UseData {
    #[inline]
    pub fn next_use(&self) -> Option<UseId> {
        use_of(self.next)
    }
}

#[inline]
fn use_of(raw: u32) -> Option<UseId> {
    (raw != NO_LINK).then_some(UseId(raw))
}

#[inline]
fn raw_use(u: Option<UseId>) -> u32 {
    u.map_or(NO_LINK, |u| u.0)
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
    /// Locations of the block arguments that have one (by value slot), kept aside: op
    /// results, nearly every value, have none.
    pub(crate) value_locs: rustc_hash::FxHashMap<u32, LocId>,
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
    /// In front of `dict1_cache`: the last `(name, value, dictionary)` per slot (a frontend
    /// asks for one per op; a compare beats a hash lookup).
    dict1_slots: Box<[(u32, u32, u32); 256]>,
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
        self.next = u.next_use();
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
            value_locs: rustc_hash::FxHashMap::default(),
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
            dict1_slots: Box::new([(u32::MAX, u32::MAX, 0); 256]),
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
        self.links.reserve(ops);
        self.blocks.reserve(ops / 8);
        self.regions.reserve(ops / 8);
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
    /// Makes offset locations point into `file` whatever they pointed into before (for a
    /// context none of whose locations is an offset yet).
    pub fn reset_offset_file(&mut self, file: Symbol, line_starts: std::sync::Arc<[u32]>) {
        self.offset_file = Some((file, line_starts));
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
        let slot = (name.0.wrapping_mul(0x9e37_79b9) ^ value.0) as usize % self.dict1_slots.len();
        let (n, v, d) = self.dict1_slots[slot];
        if (n, v) == (name.0, value.0) {
            return AttrId(d);
        }
        let d = match self.dict1_cache.get(&(name, value)) {
            Some(&d) => d,
            None => {
                let d = self.attr(AttrKind::Dict(vec![(name, value)]));
                self.dict1_cache.insert((name, value), d);
                d
            }
        };
        self.dict1_slots[slot] = (name.0, value.0, d.0);
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
    /// The string attribute `s` if one was made (none: no op carries it, e.g. as its
    /// `sym_name`, so a symbol of that name does not exist).
    pub fn lookup_str_attr(&self, s: &str) -> Option<AttrId> {
        self.attrs.lookup(&AttrKind::String(s.to_string())).map(AttrId)
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
        let i = self.ops.get(op.0).info_index();
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
        self.ops.get(op.0).info.get() != UNREGISTERED
    }

    // ----- use lists -------------------------------------------------------------------

    fn link_use(uses: &mut Arena<UseData>, head: &mut Option<UseId>, owner: OpId, index: u32, target: u32) -> UseId {
        let id = UseId(uses.alloc(UseData { owner, index, target, prev: NO_LINK, next: raw_use(*head) }));
        if let Some(h) = *head {
            uses.get_mut(h.0).prev = id.0;
        }
        *head = Some(id);
        id
    }

    /// Unlinks use `u` from its list (O(1)) without freeing it.
    fn unlink_value_use(&mut self, u: UseId) {
        let UseData { prev, next, target, .. } = *self.uses.get(u.0);
        match use_of(prev) {
            Some(p) => self.uses.get_mut(p.0).next = next,
            None => self.values.get_mut(target).first_use = use_of(next),
        }
        if let Some(n) = use_of(next) {
            self.uses.get_mut(n.0).prev = prev;
        }
    }

    fn unlink_block_use(&mut self, u: UseId) {
        let UseData { prev, next, target, .. } = *self.uses.get(u.0);
        match use_of(prev) {
            Some(p) => self.uses.get_mut(p.0).next = next,
            None => self.blocks.get_mut(target).first_use = use_of(next),
        }
        if let Some(n) = use_of(next) {
            self.uses.get_mut(n.0).prev = prev;
        }
    }

    fn relink_value_use(&mut self, u: UseId, to: ValueId) {
        self.unlink_value_use(u);
        let head = self.values.get(to.0).first_use;
        {
            let d = self.uses.get_mut(u.0);
            d.target = to.0;
            d.prev = NO_LINK;
            d.next = raw_use(head);
        }
        if let Some(h) = head {
            self.uses.get_mut(h.0).prev = u.0;
        }
        self.values.get_mut(to.0).first_use = Some(u);
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
