//! String interning: op names, attribute names, dialect names and identifiers become
//! [`Symbol`]s, so comparing two names is an integer compare.

use rustc_hash::FxHashMap;
use std::sync::Arc;

crate::arena::id_type!(
    /// An interned string.
    Symbol,
    "sym"
);

/// Generic interner: each distinct value gets one dense id.
#[derive(Clone, Debug)]
pub struct Interner<T: std::hash::Hash + Eq + Clone> {
    values: Vec<T>,
    map: FxHashMap<T, u32>,
}

impl<T: std::hash::Hash + Eq + Clone> Default for Interner<T> {
    fn default() -> Self {
        Self { values: Vec::new(), map: FxHashMap::default() }
    }
}

impl<T: std::hash::Hash + Eq + Clone> Interner<T> {
    /// The id of `value`, adding it if new.
    pub fn intern(&mut self, value: T) -> u32 {
        if let Some(&i) = self.map.get(&value) {
            return i;
        }
        let i = self.values.len() as u32;
        self.values.push(value.clone());
        self.map.insert(value, i);
        i
    }

    /// The id of `value` if it was interned.
    pub fn lookup(&self, value: &T) -> Option<u32> {
        self.map.get(value).copied()
    }

    /// The value of id `i`.
    #[inline]
    pub fn get(&self, i: u32) -> &T {
        &self.values[i as usize]
    }

    /// Number of interned values.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether nothing is interned.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

/// String interner keyed by `Arc<str>` so lookups by `&str` need no allocation.
#[derive(Clone, Debug, Default)]
pub struct SymbolTable {
    strings: Vec<Arc<str>>,
    map: FxHashMap<Arc<str>, u32>,
}

impl SymbolTable {
    /// Interns `s`.
    pub fn intern(&mut self, s: &str) -> Symbol {
        if let Some(&i) = self.map.get(s) {
            return Symbol(i);
        }
        let a: Arc<str> = Arc::from(s);
        let i = self.strings.len() as u32;
        self.strings.push(a.clone());
        self.map.insert(a, i);
        Symbol(i)
    }

    /// The symbol of `s` if it was interned.
    pub fn lookup(&self, s: &str) -> Option<Symbol> {
        self.map.get(s).map(|&i| Symbol(i))
    }

    /// The text of `sym`.
    #[inline]
    pub fn get(&self, sym: Symbol) -> &str {
        &self.strings[sym.index()]
    }
}
