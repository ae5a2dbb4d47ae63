//! Blocks and regions: arguments, op lists, predecessors, splitting, merging, inlining.

use super::*;

impl Context {
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
    /// Inserts an argument of type `ty` into `b` at position `i` (the later ones move up).
    pub fn insert_block_arg(&mut self, b: BlockId, i: usize, ty: TypeId) -> ValueId {
        let v = self.new_value(ty, ValueDef::BlockArg { block: b, index: i as u32 });
        self.blocks.get_mut(b.0).args.insert(i, v);
        let args = self.blocks.get(b.0).args.clone();
        for (j, a) in args.into_iter().enumerate().skip(i + 1) {
            self.values.get_mut(a.0).def = ValueDef::BlockArg { block: b, index: j as u32 };
        }
        v
    }
    /// Erases argument `i` of `b` (it must have no uses).
    pub fn erase_block_arg(&mut self, b: BlockId, i: usize) {
        let v = self.blocks.get_mut(b.0).args.remove(i);
        assert!(!self.has_uses(v), "erase_block_arg: argument still used");
        self.free_value(v);
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
        let extra = self.ops.get_mut(op.0).extra.as_mut().expect("the op has region i");
        let old = std::mem::replace(&mut extra.regions[i], fresh);
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
                    let u = self.ops.get(o.0).successors()[i];
                    self.unlink_block_use(u);
                }
                let d = self.ops.get_mut(o.0);
                let succ = d.take_successors();
                for u in succ {
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

    pub(crate) fn drop_all_nested_operands(&mut self, op: OpId) {
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
