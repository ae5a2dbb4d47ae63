//! Index-typed arenas: the storage behind every IR entity.
//!
//! An [`Arena`] is a `Vec` of slots plus a free list. Ids are plain `u32` newtypes, so
//! references between entities are copyable integers, never pointers. A freed slot goes on
//! the free list and is reused by a later allocation; the IR only frees an entity once
//! nothing refers to it (erasing an op first drops its uses), so a live id never aliases.

use std::fmt;

/// Declares a `u32` id newtype.
macro_rules! id_type {
    ($(#[$m:meta])* $name:ident, $prefix:literal) => {
        $(#[$m])*
        #[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub(crate) u32);
        impl $name {
            /// The slot index of this id.
            pub fn index(self) -> usize {
                self.0 as usize
            }
            /// Rebuilds an id from a slot index (for dense side tables).
            pub fn from_index(i: usize) -> Self {
                Self(i as u32)
            }
        }
        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}{}", $prefix, self.0)
            }
        }
    };
}
pub(crate) use id_type;

/// A slot arena with a free list.
#[derive(Clone)]
pub struct Arena<T> {
    slots: Vec<Option<T>>,
    free: Vec<u32>,
    live: usize,
}

impl<T> Default for Arena<T> {
    fn default() -> Self {
        Self { slots: Vec::new(), free: Vec::new(), live: 0 }
    }
}

impl<T> fmt::Debug for Arena<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Arena({} live / {} slots)", self.live, self.slots.len())
    }
}

impl<T> Arena<T> {
    /// Makes room for `n` more values without reallocating.
    pub fn reserve(&mut self, n: usize) {
        self.slots.reserve(n.saturating_sub(self.free.len()));
    }

    /// Stores `value` and returns its slot index.
    pub fn alloc(&mut self, value: T) -> u32 {
        self.live += 1;
        if let Some(i) = self.free.pop() {
            self.slots[i as usize] = Some(value);
            i
        } else {
            self.slots.push(Some(value));
            (self.slots.len() - 1) as u32
        }
    }

    /// Frees slot `i`, returning its value.
    pub fn free(&mut self, i: u32) -> T {
        let v = self.slots[i as usize].take().expect("arena: double free");
        self.free.push(i);
        self.live -= 1;
        v
    }

    /// The value in slot `i`. Panics on a freed slot: that is a bug in the caller.
    #[inline]
    pub fn get(&self, i: u32) -> &T {
        self.slots[i as usize].as_ref().expect("arena: use of freed id")
    }

    /// The value in slot `i`, mutably.
    #[inline]
    pub fn get_mut(&mut self, i: u32) -> &mut T {
        self.slots[i as usize].as_mut().expect("arena: use of freed id")
    }

    /// Whether slot `i` holds a value.
    pub fn is_live(&self, i: u32) -> bool {
        self.slots.get(i as usize).is_some_and(|s| s.is_some())
    }

    /// Number of live values.
    pub fn len(&self) -> usize {
        self.live
    }

    /// Whether no value is live.
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// One past the largest slot index ever used (size for dense side tables).
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }
}
