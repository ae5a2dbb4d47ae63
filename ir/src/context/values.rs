//! Values: types, definitions, use lists, replace-all-uses-with.

use super::*;

impl Context {
    // ----- values ----------------------------------------------------------------------

    pub(crate) fn new_value(&mut self, ty: TypeId, def: ValueDef) -> ValueId {
        ValueId(self.values.alloc(ValueData { ty, def, first_use: None }))
    }

    /// Frees the slot of `v` (and forgets its location).
    pub(crate) fn free_value(&mut self, v: ValueId) {
        self.values.free(v.0);
        if !self.value_locs.is_empty() {
            self.value_locs.remove(&v.0);
        }
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
        self.free_value(v);
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
        self.value_locs.get(&v.0).copied()
    }
    /// Sets the location of a block argument.
    pub fn set_value_loc(&mut self, v: ValueId, loc: Option<LocId>) {
        match loc {
            Some(l) => self.value_locs.insert(v.0, l),
            None => self.value_locs.remove(&v.0),
        };
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
            Some(u) => self.uses.get(u.0).next_use().is_none(),
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
            cur = d.next_use();
            let (owner, index) = (d.owner, d.index);
            if from != to && pred(self, owner, index) {
                self.relink_value_use(u, to);
            }
        }
    }
}
