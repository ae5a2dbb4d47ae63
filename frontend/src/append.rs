//! [`AppendVec`]: a vector that only grows, whose elements never move, and which one thread
//! may grow while others read what it has published.
//!
//! # Why
//!
//! On large files sema runs while the parser is still parsing ([`crate::parse_and_lower`]):
//! the parser appends nodes to the syntax tree and spellings to the interner, and sema reads
//! the nodes of every top-level declaration the parser has finished. A `Vec` cannot be read
//! while another thread pushes (it moves its elements when it grows); copying finished
//! declarations over would cost what the overlap saves.
//!
//! # How
//!
//! Elements live in buckets of doubling size: bucket `b` holds `FIRST << b` elements, from
//! index `(FIRST << b) - FIRST`. A bucket is allocated when the first element goes into it
//! and freed only with the vector, so an element's address never changes and `&T` stays
//! valid while the vector grows. Finding an element is a leading-zero count and two loads.
//!
//! The writer writes the element, then publishes the new length with `Release`; a reader
//! loads the length with `Acquire` and reads only below it, so it sees every element (and
//! bucket pointer) written before. Reading past the length is `None` (or a panic through
//! indexing), never a read of memory being written.
//!
//! There is one writer at a time: [`AppendVec::push_mut`] takes `&mut self`, and the shared
//! [`AppendVec::push`] is `unsafe`, for owners that guarantee it (the syntax tree's
//! [`crate::ast::AstWriter`], the interner's store).

use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};
use std::sync::Arc;

/// log2 of the first bucket's size.
const SHIFT: u32 = 8;
const FIRST: usize = 1 << SHIFT;
/// Enough buckets for any index.
const BUCKETS: usize = (usize::BITS - SHIFT) as usize;

pub struct AppendVec<T> {
    buckets: [AtomicPtr<T>; BUCKETS],
    /// The number of this vector's own published elements (after the base's).
    len: AtomicUsize,
    /// Elements shared with other vectors, which come before this one's own
    /// ([`AppendVec::on`]); nothing is ever pushed to a base.
    base: Option<Arc<AppendVec<T>>>,
    base_len: usize,
}

// SAFETY: the vector owns its elements (moved in by the writer, dropped with the vector:
// `T: Send`) and hands out `&T` to any thread that shares it (`T: Sync`). Readers only read
// published elements, which the writer never touches again. A base is shared through an
// `Arc` and only read (`T: Sync` for sending it too).
unsafe impl<T: Send + Sync> Send for AppendVec<T> {}
unsafe impl<T: Send + Sync> Sync for AppendVec<T> {}

/// Bucket and offset of index `i`.
#[inline(always)]
fn locate(i: usize) -> (usize, usize) {
    let j = i + FIRST;
    let b = (usize::BITS - 1 - j.leading_zeros() - SHIFT) as usize;
    (b, j - (FIRST << b))
}

impl<T> AppendVec<T> {
    pub const fn new() -> Self {
        AppendVec { buckets: [const { AtomicPtr::new(std::ptr::null_mut()) }; BUCKETS], len: AtomicUsize::new(0), base: None, base_len: 0 }
    }

    /// A vector whose first elements are `base`'s (shared, not copied: a preamble's syntax
    /// tree under each compile's), and which grows on its own from there. Nothing may be
    /// pushed to `base` any more.
    pub fn on(base: Arc<AppendVec<T>>) -> Self {
        let mut v = Self::new();
        v.base_len = base.len();
        v.base = Some(base);
        v
    }

    /// The number of published elements.
    #[inline]
    pub fn len(&self) -> usize {
        self.base_len + self.len.load(Ordering::Acquire)
    }

    /// Element `i`, which must be below a length this thread has read.
    #[inline]
    fn at(&self, i: usize) -> &T {
        if i < self.base_len {
            return match &self.base {
                Some(b) => b.at(i),
                None => unreachable!("a base length without a base"),
            };
        }
        let (b, off) = locate(i - self.base_len);
        // Ordered after the `Acquire` load of the length, which the bucket's allocation
        // happened before.
        let p = self.buckets[b].load(Ordering::Relaxed);
        // SAFETY: `i` is below the published length, so its bucket is allocated and the
        // element at `off` is initialized; the writer never writes it again.
        unsafe { &*p.add(off) }
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Element `i`, if published.
    #[inline]
    pub fn get(&self, i: usize) -> Option<&T> {
        if i >= self.len() {
            return None;
        }
        Some(self.at(i))
    }

    /// Appends `v`, returning its index.
    ///
    /// # Safety
    /// No other thread may push to this vector at the same time.
    #[inline]
    pub unsafe fn push(&self, v: T) -> usize {
        let i = self.len.load(Ordering::Relaxed);
        let (b, off) = locate(i);
        let mut p = self.buckets[b].load(Ordering::Relaxed);
        if p.is_null() {
            // Exactly `FIRST << b` slots (freed in `drop` as such).
            p = Box::into_raw(Box::<[T]>::new_uninit_slice(FIRST << b)).cast::<T>();
            self.buckets[b].store(p, Ordering::Relaxed);
        }
        // SAFETY: slot `off` of bucket `b` is within its capacity and not yet published:
        // no reader looks at it, and (by the caller's promise) no other writer.
        unsafe { p.add(off).write(v) };
        self.len.store(i + 1, Ordering::Release);
        self.base_len + i
    }

    /// Appends `v`, returning its index.
    #[inline]
    pub fn push_mut(&mut self, v: T) -> usize {
        // SAFETY: `&mut self` excludes every other access.
        unsafe { self.push(v) }
    }

    /// The published elements, in order.
    pub fn iter(&self) -> Iter<'_, T> {
        self.iter_from(0)
    }

    /// The published elements from index `from` on.
    pub fn iter_from(&self, from: usize) -> Iter<'_, T> {
        let end = self.len();
        Iter { v: self, i: from.min(end), end }
    }
}

/// The elements of an [`AppendVec`] published when the iterator was made.
pub struct Iter<'a, T> {
    v: &'a AppendVec<T>,
    i: usize,
    end: usize,
}

impl<'a, T> Iterator for Iter<'a, T> {
    type Item = &'a T;
    #[inline]
    fn next(&mut self) -> Option<&'a T> {
        if self.i == self.end {
            return None;
        }
        let x = self.v.at(self.i);
        self.i += 1;
        Some(x)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.end - self.i, Some(self.end - self.i))
    }
}

impl<'a, T> IntoIterator for &'a AppendVec<T> {
    type Item = &'a T;
    type IntoIter = Iter<'a, T>;
    fn into_iter(self) -> Iter<'a, T> {
        self.iter()
    }
}

impl<T> Default for AppendVec<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> Drop for AppendVec<T> {
    /// Drops this vector's own elements (a base goes with its last `Arc`).
    fn drop(&mut self) {
        let mut left = *self.len.get_mut();
        for (b, slot) in self.buckets.iter_mut().enumerate() {
            let p = *slot.get_mut();
            if p.is_null() {
                break;
            }
            let n = left.min(FIRST << b);
            left -= n;
            // SAFETY: the bucket is a boxed slice of `FIRST << b` uninitialized slots (made in
            // `push`), whose first `n` hold elements: those are dropped here, once, then the
            // slice is freed. (An element's drop that panics leaks the rest.)
            unsafe {
                std::ptr::drop_in_place(std::ptr::slice_from_raw_parts_mut(p, n));
                drop(Box::from_raw(std::ptr::slice_from_raw_parts_mut(p.cast::<std::mem::MaybeUninit<T>>(), FIRST << b)));
            }
        }
    }
}

impl<T> std::ops::Index<usize> for AppendVec<T> {
    type Output = T;
    #[inline]
    fn index(&self, i: usize) -> &T {
        match self.get(i) {
            Some(v) => v,
            None => panic!("index {i} out of range for an AppendVec of length {}", self.len()),
        }
    }
}

/// A copy shares the base and copies the vector's own elements.
impl<T: Clone> Clone for AppendVec<T> {
    fn clone(&self) -> Self {
        let mut v = match &self.base {
            Some(b) => AppendVec::on(b.clone()),
            None => AppendVec::new(),
        };
        for x in self.iter_from(self.base_len) {
            v.push_mut(x.clone());
        }
        v
    }
}

impl<T> FromIterator<T> for AppendVec<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut v = AppendVec::new();
        for x in iter {
            v.push_mut(x);
        }
        v
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for AppendVec<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: PartialEq> PartialEq for AppendVec<T> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_vector_on_a_base_shares_it_and_grows_on_its_own() {
        let base: AppendVec<String> = (0..300).map(|i| i.to_string()).collect();
        let base = Arc::new(base);
        let mut a = AppendVec::on(base.clone());
        let mut b = AppendVec::on(base.clone());
        assert_eq!(a.len(), 300);
        assert_eq!(a.push_mut("a".into()), 300);
        assert_eq!(b.push_mut("b".into()), 300);
        assert_eq!((a[299].as_str(), a[300].as_str(), b[300].as_str()), ("299", "a", "b"));
        assert!(std::ptr::eq(&a[5], &base[5]), "the base's elements are shared");
        let c = a.clone();
        assert!(std::ptr::eq(&c[5], &base[5]));
        assert_eq!(c.iter().map(String::as_str).collect::<Vec<_>>(), a.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(a.iter_from(299).count(), 2);
        assert!(a.get(301).is_none());
    }

    #[test]
    fn indices_cross_buckets_and_elements_stay_put() {
        let mut v = AppendVec::new();
        v.push_mut("0".to_string());
        let first: *const String = &v[0];
        for i in 1..10_000 {
            assert_eq!(v.push_mut(i.to_string()), i);
        }
        assert_eq!(first, &v[0] as *const String, "an element moved when the vector grew");
        assert_eq!(v.len(), 10_000);
        assert!(v.iter().enumerate().all(|(i, s)| *s == i.to_string()));
        assert_eq!(v.iter_from(9_998).count(), 2);
        assert!(v.get(10_000).is_none());
        assert_eq!(locate(0), (0, 0));
        assert_eq!(locate(FIRST - 1), (0, FIRST - 1));
        assert_eq!(locate(FIRST), (1, 0));
        assert_eq!(locate(3 * FIRST - 1), (1, 2 * FIRST - 1));
        assert_eq!(locate(3 * FIRST), (2, 0));
    }

    #[test]
    fn a_reader_sees_what_the_writer_published() {
        let v = AppendVec::<Box<u64>>::new();
        std::thread::scope(|s| {
            s.spawn(|| {
                for i in 0..200_000u64 {
                    // SAFETY: this thread is the only writer.
                    unsafe { v.push(Box::new(i)) };
                }
            });
            let mut seen = 0;
            while seen < 200_000 {
                let n = v.len();
                for i in seen..n {
                    assert_eq!(*v[i], i as u64);
                }
                seen = n;
            }
        });
    }
}
