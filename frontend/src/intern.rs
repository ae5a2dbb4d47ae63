//! Interned token spellings: an [`Atom`] is a `u32`, so the preprocessor's macro table and
//! the parser's keyword checks compare integers.

use rustc_hash::FxHashMap;
use std::sync::Arc;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Atom(pub u32);

#[derive(Debug, Default)]
pub struct Interner {
    map: FxHashMap<Arc<str>, Atom>,
    strs: Vec<Arc<str>>,
}

impl Interner {
    pub fn intern(&mut self, s: &str) -> Atom {
        if let Some(&a) = self.map.get(s) {
            return a;
        }
        let a = Atom(self.strs.len() as u32);
        let rc: Arc<str> = s.into();
        self.strs.push(rc.clone());
        self.map.insert(rc, a);
        a
    }
    pub fn get(&self, s: &str) -> Option<Atom> {
        self.map.get(s).copied()
    }
    pub fn str(&self, a: Atom) -> &str {
        &self.strs[a.0 as usize]
    }
}
