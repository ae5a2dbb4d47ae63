//! Interned token spellings: an [`Atom`] is a `u32`, so the preprocessor's macro table and
//! the parser's keyword checks compare integers.
//!
//! # Two tiers, for two threads
//!
//! The preprocessor interns every spelling it reads, in order: atom `n` is the `n`th
//! distinct spelling ([`Interner::intern`]). The parser makes a few names of its own that no
//! token spells (`operator+`, `~S`, `<anonymous>`): those go to a second, local tier
//! ([`Interner::intern_local`]), whose atoms have [`Atom::LOCAL`] set.
//!
//! When the preprocessor runs on its own thread (`crate::parse_source` on large files),
//! the parser reads a mirror of its interner: each chunk of tokens comes with the spellings
//! interned since the last one ([`Interner::since`], [`Interner::extend`]), so the mirror
//! gives every atom in the chunk the same number and text. The parser's own names go to the
//! mirror's local tier, which no other thread writes; after the preprocessor is done they
//! are adopted into its interner ([`Interner::adopt_locals`]) with the same numbers.
//!
//! The tiers have separate maps: the main tier ([`Interner::intern`]) never hands out a
//! local atom, whatever the parser made. The parser only makes names no token spells
//! (`operator+`, `~S`, `<anonymous>`; an attribute keeps its token's atom), so no string has
//! an atom in both tiers, and both ways number every atom alike.

use crate::append::AppendVec;
use rustc_hash::FxHashMap;
use std::sync::Arc;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Atom(pub u32);

impl Atom {
    /// Set in atoms of the local tier.
    pub const LOCAL: u32 = 1 << 31;
    /// Whether the atom is in the local tier.
    #[inline]
    pub fn is_local(self) -> bool {
        self.0 & Atom::LOCAL != 0
    }
}

/// The spellings of both tiers, in atom order. Only its [`Interner`] adds to it; a
/// [`Names`] handle reads it, on any thread, while the interner goes on interning.
#[derive(Debug, Default)]
struct Store {
    strs: AppendVec<Arc<str>>,
    local: AppendVec<Arc<str>>,
}

#[derive(Debug, Default)]
pub struct Interner {
    map: FxHashMap<Arc<str>, Atom>,
    local_map: FxHashMap<Arc<str>, Atom>,
    store: Arc<Store>,
}

/// A copy has a store of its own (a mirror grows apart from the original).
impl Clone for Interner {
    fn clone(&self) -> Self {
        let store = Store { strs: self.store.strs.clone(), local: self.store.local.clone() };
        Interner { map: self.map.clone(), local_map: self.local_map.clone(), store: Arc::new(store) }
    }
}

/// Whatever gives atoms' spellings: an [`Interner`] or a [`Names`].
pub trait Spell {
    fn spell(&self, a: Atom) -> &str;
}

impl Spell for Interner {
    fn spell(&self, a: Atom) -> &str {
        self.str(a)
    }
}

impl Spell for Names {
    fn spell(&self, a: Atom) -> &str {
        self.str(a)
    }
}

/// Reads the spellings of an interner's atoms, on any thread, including those interned
/// after the handle was made (once the atom has reached the reader: see [`AppendVec`]).
#[derive(Clone, Debug)]
pub struct Names {
    store: Arc<Store>,
}

impl Names {
    /// The spelling of `a`.
    #[inline]
    pub fn str(&self, a: Atom) -> &str {
        if a.is_local() {
            &self.store.local[(a.0 & !Atom::LOCAL) as usize]
        } else {
            &self.store.strs[a.0 as usize]
        }
    }
    /// The main-tier spellings of atoms `main.0..main.1`, with their atoms, then the local
    /// tier's of `local.0..local.1` (what a reader has not indexed yet; the ends no more than
    /// [`Names::lens`] gave).
    pub fn between(&self, main: (usize, usize), local: (usize, usize)) -> impl Iterator<Item = (&Arc<str>, Atom)> + '_ {
        let m = self.store.strs.iter_from(main.0).take(main.1.saturating_sub(main.0));
        let l = self.store.local.iter_from(local.0).take(local.1.saturating_sub(local.0));
        let m = m.zip(main.0..).map(|(s, i)| (s, Atom(i as u32)));
        let l = l.zip(local.0..).map(|(s, i)| (s, Atom(Atom::LOCAL | i as u32)));
        m.chain(l)
    }
    /// How many atoms each tier has now.
    pub fn lens(&self) -> (usize, usize) {
        (self.store.strs.len(), self.store.local.len())
    }
}

impl Interner {
    /// A reader of this interner's spellings (see [`Names`]).
    pub fn names(&self) -> Names {
        Names { store: self.store.clone() }
    }
    fn push_main(&mut self, s: Arc<str>) {
        // SAFETY: only this interner pushes to its store (copies get stores of their own;
        // a `Names` only reads), and `&mut self` makes its pushes one at a time.
        unsafe { self.store.strs.push(s) };
    }
    fn push_local(&mut self, s: Arc<str>) {
        // SAFETY: as in `push_main`.
        unsafe { self.store.local.push(s) };
    }

    /// The atom of `s`, interning it (in the main tier) if new.
    pub fn intern(&mut self, s: &str) -> Atom {
        if let Some(&a) = self.map.get(s) {
            return a;
        }
        let a = Atom(self.store.strs.len() as u32);
        let rc: Arc<str> = s.into();
        self.push_main(rc.clone());
        self.map.insert(rc, a);
        a
    }
    /// The atom of `s` (the main tier's if it has one), interning it in the local tier if new:
    /// for names the parser makes, which no token spells.
    pub fn intern_local(&mut self, s: &str) -> Atom {
        if let Some(&a) = self.map.get(s).or_else(|| self.local_map.get(s)) {
            return a;
        }
        debug_assert!(
            !s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'),
            "'{s}' could be a token's spelling: it must not go to the local tier"
        );
        let a = Atom(Atom::LOCAL | self.store.local.len() as u32);
        let rc: Arc<str> = s.into();
        self.push_local(rc.clone());
        self.local_map.insert(rc, a);
        a
    }
    /// The atom of `s`, if it has one (main tier first).
    pub fn get(&self, s: &str) -> Option<Atom> {
        self.map.get(s).or_else(|| self.local_map.get(s)).copied()
    }
    pub fn str(&self, a: Atom) -> &str {
        if a.is_local() {
            &self.store.local[(a.0 & !Atom::LOCAL) as usize]
        } else {
            &self.store.strs[a.0 as usize]
        }
    }
    /// The number of main-tier atoms.
    pub fn len(&self) -> usize {
        self.store.strs.len()
    }
    /// Whether the main tier is empty (as [`Interner::len`] counts).
    pub fn is_empty(&self) -> bool {
        self.store.strs.is_empty()
    }
    /// The main-tier spellings from atom `from` on (what a mirror has not seen yet).
    pub fn since(&self, from: usize) -> impl Iterator<Item = &Arc<str>> + '_ {
        self.store.strs.iter_from(from)
    }
    /// Appends spellings another interner gave the next main-tier atoms (see
    /// [`Interner::since`]).
    pub fn extend<'s>(&mut self, strs: impl IntoIterator<Item = &'s Arc<str>>) {
        for s in strs {
            let a = Atom(self.store.strs.len() as u32);
            self.push_main(s.clone());
            self.map.entry(s.clone()).or_insert(a);
        }
    }
    /// Takes the local tier of `mirror` (which has this interner's main tier as a prefix and
    /// made local atoms of its own), keeping their numbers.
    pub fn adopt_locals(&mut self, mirror: &Interner) {
        let have = self.store.local.len();
        for s in mirror.store.local.iter_from(have) {
            let a = Atom(Atom::LOCAL | self.store.local.len() as u32);
            self.push_local(s.clone());
            self.local_map.insert(s.clone(), a);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mirror_numbers_atoms_as_the_original_and_its_locals_are_adopted() {
        let mut pp = Interner::default();
        let mut mirror = pp.clone();
        let x = pp.intern("x");
        let y = pp.intern("y");
        mirror.extend(pp.since(0));
        let op = mirror.intern_local("operator+");
        assert!(op.is_local());
        assert_eq!(mirror.intern("y"), y);
        assert_eq!(mirror.intern_local("x"), x, "a main-tier spelling keeps its atom");
        assert_ne!(mirror.clone().intern("operator+"), op, "the main tier never hands out a local atom");
        let z = pp.intern("z");
        mirror.extend(pp.since(2));
        assert_eq!(mirror.str(z), "z");
        pp.adopt_locals(&mirror);
        assert_eq!(pp.str(op), "operator+");
        assert_eq!(pp.get("operator+"), Some(op));
    }
}
