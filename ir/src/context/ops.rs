//! Ops: creation, operands, results, successors, attributes, placement in blocks, erasure.

use super::*;

impl Context {
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
        self.create_op_parts(st.name, st.loc, &st.operands, &st.result_types, props, attrs, &st.regions, &st.successors)
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
        regions: &[RegionId],
        successors: &[BlockId],
    ) -> OpId {
        let info = OpData::info_of(self.info_index(name).unwrap_or(UNREGISTERED));
        let op = OpId(
            self.ops.alloc(OpData {
                name,
                info,
                operands: SmallVec::new(),
                results: SmallVec::new(),
                attrs,
                props,
                extra: (!regions.is_empty() || !successors.is_empty())
                    .then(|| Box::new(OpExtra { regions: regions.into(), successors: SmallVec::new() })),
                loc,
            }),
        );
        let slot = op.index();
        let links = OpLinks { has_regions: !self.ops.get(op.0).regions().is_empty(), ..OpLinks::DETACHED };
        if slot < self.links.len() {
            // A slot from the free list.
            self.links[slot] = links;
        } else {
            self.links.resize(slot, OpLinks::DETACHED);
            self.links.push(links);
        }
        let mut uses = SmallVec::with_capacity(operands.len());
        for (i, v) in operands.iter().enumerate() {
            let mut head = self.values.get(v.0).first_use;
            uses.push(Self::link_use(&mut self.uses, &mut head, op, i as u32, v.0));
            self.values.get_mut(v.0).first_use = head;
        }
        let results: SmallVec<[ValueId; 2]> =
            result_types.iter().enumerate().map(|(i, &ty)| self.new_value(ty, ValueDef::Result { op, index: i as u32 })).collect();
        let mut succs = SmallVec::with_capacity(successors.len());
        for (i, b) in successors.iter().enumerate() {
            let mut head = self.blocks.get(b.0).first_use;
            succs.push(Self::link_use(&mut self.uses, &mut head, op, i as u32, b.0));
            self.blocks.get_mut(b.0).first_use = head;
        }
        {
            let d = self.ops.get_mut(op.0);
            d.operands = uses;
            d.results = results;
            if let Some(e) = &mut d.extra {
                e.successors = succs;
            }
        }
        for i in 0..self.ops.get(op.0).regions().len() {
            let r = self.ops.get(op.0).regions()[i];
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
    /// The symbol name of `op` (its `sym_name`: MLIR's `SymbolTable::getSymbolName`), if it
    /// is a symbol.
    pub fn symbol_name(&self, op: OpId) -> Option<&str> {
        match self.attr_kind(self.get_attr(op, "sym_name")?) {
            crate::attrs::AttrKind::String(s) => Some(s),
            _ => None,
        }
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
        self.ops.get(op.0).regions()
    }
    /// Region `i`.
    pub fn region(&self, op: OpId, i: usize) -> RegionId {
        self.ops.get(op.0).regions()[i]
    }
    /// Number of successors.
    pub fn num_successors(&self, op: OpId) -> usize {
        self.ops.get(op.0).successors().len()
    }
    /// Successor `i`.
    pub fn successor(&self, op: OpId, i: usize) -> BlockId {
        BlockId(self.uses.get(self.ops.get(op.0).successors()[i].0).target)
    }
    /// The values terminator `op` passes to the arguments of successor `i`, as its op's
    /// registered `successor_operands` says (none for an unregistered op).
    pub fn successor_args(&self, op: OpId, i: usize) -> Vec<ValueId> {
        match self.op_info(op).and_then(|info| info.successor_operands) {
            Some(f) => f(self, op, i).map(|k| self.operand(op, k)).collect(),
            None => Vec::new(),
        }
    }
    /// All successors.
    pub fn successors(&self, op: OpId) -> impl ExactSizeIterator<Item = BlockId> + '_ {
        self.ops.get(op.0).successors().iter().map(|u| BlockId(self.uses.get(u.0).target))
    }
    /// Sets successor `i`.
    pub fn set_successor(&mut self, op: OpId, i: usize, b: BlockId) {
        let u = self.ops.get(op.0).successors()[i];
        self.unlink_block_use(u);
        let head = self.blocks.get(b.0).first_use;
        {
            let d = self.uses.get_mut(u.0);
            d.target = b.0;
            d.prev = NO_LINK;
            d.next = raw_use(head);
        }
        if let Some(h) = head {
            self.uses.get_mut(h.0).prev = u.0;
        }
        self.blocks.get_mut(b.0).first_use = Some(u);
    }
    /// Removes every successor of `op`.
    pub fn clear_successors(&mut self, op: OpId) {
        let succ = self.ops.get_mut(op.0).take_successors();
        for u in succ {
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
    pub(crate) fn with_entry(&mut self, dict: AttrId, name: Symbol, value: Option<AttrId>) -> AttrId {
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
        // Inserting before an op that was erased, or that is in another block, would
        // corrupt the block's list of ops.
        debug_assert!(
            ip.before.is_none_or(|b| self.op_is_live(b) && self.op_block(b) == Some(ip.block)),
            "insertion point before an op that is not in the block"
        );
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
        let all: &[OpId] = if self.ops.get(op.0).regions().is_empty() {
            std::slice::from_ref(&op)
        } else {
            nested = crate::walk::collect_preorder(self, op);
            &nested
        };
        // 2. Drop every operand and successor use, so no value or block is still referenced.
        for &o in all {
            let d = self.ops.get_mut(o.0);
            let operands = std::mem::take(&mut d.operands);
            let succs = d.take_successors();
            for u in operands {
                self.unlink_value_use(u);
                self.uses.free(u.0);
            }
            for u in succs {
                self.unlink_block_use(u);
                self.uses.free(u.0);
            }
        }
        // 3. Free ops, their results, regions, blocks and block arguments.
        for &o in all {
            let d = self.ops.free(o.0);
            for &v in d.results.iter() {
                assert!(self.values.get(v.0).first_use.is_none(), "erase_op: result of '{}' still has uses", self.str(d.name));
                self.free_value(v);
            }
            for &r in d.regions().iter() {
                let rd = self.regions.free(r.0);
                for b in rd.blocks {
                    self.free_block_data(b);
                }
            }
        }
    }

    pub(crate) fn free_block_data(&mut self, b: BlockId) {
        let bd = self.blocks.free(b.0);
        debug_assert!(bd.first_use.is_none(), "erased block still has predecessors");
        for a in bd.args {
            assert!(self.values.get(a.0).first_use.is_none(), "erase: block argument still has uses");
            self.free_value(a);
        }
    }
}
