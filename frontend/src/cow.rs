//! [`CowVec`]: a vector whose first elements are shared by its copies, each element copied
//! on its first change.
//!
//! # Why
//!
//! Every compile starts from a copy of the preamble's state ([`crate::preamble`]), whose
//! sema knows the functions of the implicit headers (some 1,400 [`crate::sema::FuncInfo`]s,
//! each with its names, types and strings). A compile reads many of them and changes a few
//! (a function it calls gets a symbol, and is marked emitted): copying them all for every
//! compile cost most of the copy of the preamble.
//!
//! # How
//!
//! The elements below [`CowVec::share`]'s point are in an `Arc`ed base that clones share;
//! one changed through `&mut` is first copied into an overlay (by index), which reads see
//! instead; elements pushed later are the copy's own. Cloning costs an `Arc` and the
//! overlay and tail (empty right after `share`).

use rustc_hash::FxHashMap;
use std::sync::Arc;

#[derive(Clone, Debug)]
pub struct CowVec<T> {
    base: Arc<Vec<T>>,
    /// Changed elements of the base, by index.
    over: FxHashMap<usize, T>,
    /// The elements after the base.
    tail: Vec<T>,
}

impl<T> Default for CowVec<T> {
    fn default() -> Self {
        CowVec { base: Arc::new(Vec::new()), over: FxHashMap::default(), tail: Vec::new() }
    }
}

impl<T: Clone> CowVec<T> {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn len(&self) -> usize {
        self.base.len() + self.tail.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn push(&mut self, v: T) {
        self.tail.push(v);
    }

    pub fn get(&self, i: usize) -> Option<&T> {
        let n = self.base.len();
        if i < n {
            Some(if self.over.is_empty() { &self.base[i] } else { self.over.get(&i).unwrap_or(&self.base[i]) })
        } else {
            self.tail.get(i - n)
        }
    }

    pub fn get_mut(&mut self, i: usize) -> Option<&mut T> {
        let n = self.base.len();
        if i < n {
            let base = &self.base;
            Some(self.over.entry(i).or_insert_with(|| base[i].clone()))
        } else {
            self.tail.get_mut(i - n)
        }
    }

    /// The elements in order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &T> + '_ {
        (0..self.len()).map(move |i| &self[i])
    }

    /// Makes every element so far part of the shared base (copies made after this share
    /// them).
    pub fn share(&mut self) {
        if self.over.is_empty() && self.tail.is_empty() {
            return;
        }
        let mut all: Vec<T> = Vec::with_capacity(self.len());
        all.extend((0..self.base.len()).map(|i| self.over.remove(&i).unwrap_or_else(|| self.base[i].clone())));
        all.append(&mut self.tail);
        self.base = Arc::new(all);
        self.over.clear();
    }
}

impl<T: Clone> std::ops::Index<usize> for CowVec<T> {
    type Output = T;
    fn index(&self, i: usize) -> &T {
        self.get(i).unwrap_or_else(|| panic!("index {i} out of a CowVec of {}", self.len()))
    }
}

impl<T: Clone> std::ops::IndexMut<usize> for CowVec<T> {
    fn index_mut(&mut self, i: usize) -> &mut T {
        let n = self.len();
        self.get_mut(i).unwrap_or_else(|| panic!("index {i} out of a CowVec of {n}"))
    }
}

#[cfg(test)]
mod tests {
    use super::CowVec;

    #[test]
    fn copies_share_the_base_and_change_their_own_elements() {
        let mut v: CowVec<String> = CowVec::new();
        v.push("a".into());
        v.push("b".into());
        v.share();
        let mut c = v.clone();
        c[1].push('!');
        c.push("c".into());
        assert_eq!(c.iter().cloned().collect::<Vec<_>>(), ["a", "b!", "c"]);
        assert_eq!(v.iter().cloned().collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!((v.len(), c.len()), (2, 3));
        c.share();
        assert_eq!(c.iter().rev().cloned().collect::<Vec<_>>(), ["c", "b!", "a"]);
        assert!(c.get(3).is_none());
        let mut d = c.clone();
        d[0] = "z".into();
        assert_eq!((c[0].as_str(), d[0].as_str()), ("a", "z"));
    }
}
