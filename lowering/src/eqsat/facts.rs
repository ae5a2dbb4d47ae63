//! What is known about an integer value: its constant, its signed and unsigned ranges,
//! and its known bits ([`super::bits`]).
//!
//! One transfer function ([`transfer`]) computes the facts of an operator's result from
//! its operands' facts; the e-graph's analysis runs it on every e-node (and intersects the
//! facts of the nodes of one e-class, since they are one value), and the greedy driver runs
//! it over the IR ([`super::scope::ir_facts`]). Leaves start from what CUDA guarantees
//! ([`super::scope::leaf_facts`]): `threadIdx.x < blockDim.x <= 1024` (or the kernel's
//! `.maxntid`), `blockIdx.x < 2^31 - 1`, `gridDim.y <= 65535`, `warpSize == 32`,
//! `laneid < 32`, and a narrower integer zero- or sign-extended keeps its range; guards and
//! loop increments refine them ([`super::scope`]).
//!
//! Ranges are closed intervals of `i128`: `s` in `[-2^(w-1), 2^(w-1) - 1]`, `u` in
//! `[0, 2^w - 1]`. Every rule is sound for any value in the ranges, so a range may always
//! be wider than the truth; an empty intersection (unreachable code) keeps the old facts.

use super::bits;
use super::lang::{sext_bits, zext_bits, Op};
use cuprite_ir::TypeId;

/// Facts about one value of type `ty` (`width` 0: not an integer, e.g. a pointer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Facts {
    pub ty: TypeId,
    pub width: u32,
    /// Signed range.
    pub s: (i128, i128),
    /// Unsigned range.
    pub u: (i128, i128),
    /// Known bits ([`super::bits`]): bits of the value (as an unsigned number of `width`
    /// bits) known to be 0, and known to be 1.
    pub zeros: u128,
    pub ones: u128,
}

fn smin(w: u32) -> i128 {
    -(1i128 << (w - 1))
}
fn smax(w: u32) -> i128 {
    (1i128 << (w - 1)) - 1
}
fn umax(w: u32) -> i128 {
    (1i128 << w) - 1
}

impl Facts {
    /// Nothing known.
    pub fn full(ty: TypeId, width: u32) -> Facts {
        if width == 0 {
            return Facts { ty, width, s: (0, 0), u: (0, 0), zeros: 0, ones: 0 };
        }
        Facts { ty, width, s: (smin(width), smax(width)), u: (0, umax(width)), zeros: 0, ones: 0 }
    }

    /// The constant `c`.
    pub fn constant(ty: TypeId, width: u32, c: i128) -> Facts {
        let c = sext_bits(c, width);
        let z = zext_bits(c, width);
        let (zeros, ones) = if width == 0 { (0, 0) } else { (!(z as u128) & bits::mask(width), z as u128) };
        Facts { ty, width, s: (c, c), u: (z, z), zeros, ones }
    }

    /// Values in unsigned range `[lo, hi]` (nothing known when it leaves the type).
    pub fn urange(ty: TypeId, width: u32, lo: i128, hi: i128) -> Facts {
        let mut f = Facts::full(ty, width);
        if width > 0 && 0 <= lo && lo <= hi && hi <= umax(width) {
            f.u = (lo, hi);
            f.normalize();
        }
        f
    }

    /// Values in signed range `[lo, hi]` (nothing known when it leaves the type).
    pub fn srange(ty: TypeId, width: u32, lo: i128, hi: i128) -> Facts {
        let mut f = Facts::full(ty, width);
        if width > 0 && smin(width) <= lo && lo <= hi && hi <= smax(width) {
            f.s = (lo, hi);
            f.normalize();
        }
        f
    }

    /// The value, sign-extended from `width`, when known (a signed range of one value).
    pub fn konst(&self) -> Option<i128> {
        (self.width > 0 && self.s.0 == self.s.1).then_some(self.s.0)
    }

    /// Whether the value is known non-negative as a signed number.
    pub fn nonneg(&self) -> bool {
        self.width > 0 && self.s.0 >= 0
    }

    /// Derives each range from the other where it can, and the constant from a range of
    /// one value.
    fn normalize(&mut self) {
        let w = self.width;
        if w == 0 {
            return;
        }
        // Unsigned values below 2^(w-1) are the same signed; non-negative signed values the
        // same unsigned; a negative signed range is the unsigned range shifted by 2^w.
        if self.u.1 <= smax(w) {
            self.s = (self.s.0.max(self.u.0), self.s.1.min(self.u.1));
        }
        if self.u.0 > smax(w) {
            self.s = (self.s.0.max(self.u.0 - (1i128 << w)), self.s.1.min(self.u.1 - (1i128 << w)));
        }
        if self.s.0 >= 0 {
            self.u = (self.u.0.max(self.s.0), self.u.1.min(self.s.1));
        } else if self.s.1 < 0 {
            self.u = (self.u.0.max(self.s.0 + (1i128 << w)), self.u.1.min(self.s.1 + (1i128 << w)));
        }
        // Known bits bound the unsigned value (known ones below, known zeros above), and
        // the unsigned range's top clears the bits above its highest.
        if self.u.0 <= self.u.1 && self.zeros & self.ones == 0 {
            self.zeros |= bits::above(self.u.1 as u128) & bits::mask(w);
            self.u = (self.u.0.max(self.ones as i128), self.u.1.min((!self.zeros & bits::mask(w)) as i128));
            if self.u.1 <= smax(w) {
                self.s = (self.s.0.max(self.u.0), self.s.1.min(self.u.1));
            }
        }
        if self.s.0 > self.s.1 || self.u.0 > self.u.1 || self.zeros & self.ones != 0 {
            // Contradiction: only in code that cannot run. Forget everything but the type.
            *self = Facts::full(self.ty, w);
            return;
        }
        if self.zeros | self.ones == bits::mask(w) {
            let c = sext_bits(self.ones as i128, w);
            self.s = (c, c);
        }
        if self.s.0 == self.s.1 {
            *self = Facts::constant(self.ty, w, self.s.0);
        }
    }

    /// The facts of a value that is either `self`'s or `other`'s (a block argument's
    /// incoming values): the hulls of the ranges.
    pub fn join(&self, other: &Facts) -> Facts {
        if self.width == 0 || other.width != self.width {
            return Facts::full(self.ty, self.width);
        }
        let mut n = *self;
        n.s = (n.s.0.min(other.s.0), n.s.1.max(other.s.1));
        n.u = (n.u.0.min(other.u.0), n.u.1.max(other.u.1));
        n.zeros &= other.zeros;
        n.ones &= other.ones;
        n
    }

    /// Intersects `other` (facts about the same value) into `self`; whether `self` changed.
    pub fn meet(&mut self, other: &Facts) -> bool {
        if self.width == 0 || other.width != self.width {
            return false;
        }
        let mut n = *self;
        n.s = (n.s.0.max(other.s.0), n.s.1.min(other.s.1));
        n.u = (n.u.0.max(other.u.0), n.u.1.min(other.u.1));
        n.zeros |= other.zeros;
        n.ones |= other.ones;
        if n.s.0 > n.s.1 || n.u.0 > n.u.1 || n.zeros & n.ones != 0 {
            return false;
        }
        n.normalize();
        let changed = n != *self;
        *self = n;
        changed
    }
}

/// The result of `op` on constants `a` (sign-extended from their widths `aw`) at result
/// width `w`; `None` where LLVM's semantics make it poison (division by zero, signed
/// `MIN / -1`, shifts by the width or more) or the op is not a value of constants.
pub fn eval(op: Op, w: u32, a: &[i128], aw: &[u32]) -> Option<i128> {
    let u = |i: usize| zext_bits(a[i], aw[i]);
    let s = |i: usize| a[i];
    let r = match op {
        Op::Const(c) => c,
        Op::Add { .. } => s(0).wrapping_add(s(1)),
        Op::Sub { .. } => s(0).wrapping_sub(s(1)),
        Op::Mul { .. } => zext_bits(u(0).wrapping_mul(u(1)), w),
        Op::Shl { .. } => {
            let k = u(1);
            (k < w as i128).then_some(())?;
            zext_bits(u(0), w) << k
        }
        Op::Lshr => {
            let k = u(1);
            (k < w as i128).then_some(())?;
            u(0) >> k
        }
        Op::Ashr => {
            let k = u(1);
            (k < w as i128).then_some(())?;
            s(0) >> k
        }
        Op::And => s(0) & s(1),
        Op::Or => s(0) | s(1),
        Op::Xor => s(0) ^ s(1),
        Op::Udiv => u(0).checked_div(u(1))?,
        Op::Urem => u(0).checked_rem(u(1))?,
        Op::Sdiv | Op::Srem => {
            (s(1) != 0 && !(s(0) == smin(w) && s(1) == -1)).then_some(())?;
            if op == Op::Sdiv {
                s(0) / s(1)
            } else {
                s(0) % s(1)
            }
        }
        Op::MulHi => (s(0) * s(1)) >> w,
        Op::UMulHi => {
            let p = (u(0) as u128).checked_mul(u(1) as u128)?;
            (p >> w) as i128
        }
        Op::Smin => s(0).min(s(1)),
        Op::Smax => s(0).max(s(1)),
        Op::Umin => u(0).min(u(1)),
        Op::Umax => u(0).max(u(1)),
        Op::Sext => s(0),
        Op::Zext => u(0),
        Op::Trunc => s(0),
        Op::ICmp(p) => cuprite_dialects::arith::eval_cmpi(p as i128, a[0], a[1], aw[0])? as i128,
        Op::Select => {
            if a[0] != 0 {
                a[1]
            } else {
                a[2]
            }
        }
        Op::PtrAdd | Op::Leaf(_) | Op::Fadd { .. } | Op::Fsub { .. } | Op::Fmul { .. } | Op::Fneg | Op::Fma => return None,
    };
    Some(sext_bits(r, w))
}

/// The result of comparison `p` over ranges, when the ranges decide it.
fn decide(p: u8, a: &Facts, b: &Facts) -> Option<bool> {
    let (x, y) = if p >= 6 { (a.u, b.u) } else { (a.s, b.s) };
    let lt = |x: (i128, i128), y: (i128, i128)| {
        if x.1 < y.0 {
            Some(true)
        } else if x.0 >= y.1 {
            Some(false)
        } else {
            None
        }
    };
    let le = |x: (i128, i128), y: (i128, i128)| {
        if x.1 <= y.0 {
            Some(true)
        } else if x.0 > y.1 {
            Some(false)
        } else {
            None
        }
    };
    match p {
        0 | 1 => {
            let ne = x.1 < y.0 || y.1 < x.0;
            let eq = x.0 == x.1 && y.0 == y.1 && x.0 == y.0;
            let r = if ne {
                Some(false)
            } else if eq {
                Some(true)
            } else {
                None
            };
            r.map(|e| e == (p == 0))
        }
        2 | 6 => lt(x, y),
        3 | 7 => le(x, y),
        4 | 8 => lt(y, x),
        5 | 9 => le(y, x),
        _ => None,
    }
}

/// The smallest `2^k - 1` at least `v`.
fn ones_above(v: i128) -> i128 {
    let mut m = 0i128;
    while m < v {
        m = (m << 1) | 1;
    }
    m
}

/// The facts of `op`'s result (type `ty`, width `w`, 0 for a pointer) from its operands'.
pub fn transfer(op: Op, ty: TypeId, w: u32, a: &[Facts]) -> Facts {
    if w == 0 {
        return Facts::full(ty, 0);
    }
    if let Op::Const(c) = op {
        return Facts::constant(ty, w, c);
    }
    if a.iter().all(|f| f.konst().is_some() || f.width == 0) && !a.is_empty() && a.iter().all(|f| f.width > 0) {
        let vals: smallvec::SmallVec<[i128; 3]> = a.iter().map(|f| f.konst().unwrap_or(0)).collect();
        let ws: smallvec::SmallVec<[u32; 3]> = a.iter().map(|f| f.width).collect();
        if let Some(c) = eval(op, w, &vals, &ws) {
            return Facts::constant(ty, w, c);
        }
    }
    let full = Facts::full(ty, w);
    let (um, smn, smx) = (umax(w), smin(w), smax(w));
    let ur = |lo: i128, hi: i128| Facts::urange(ty, w, lo, hi);
    let sr = |lo: i128, hi: i128| Facts::srange(ty, w, lo, hi);
    let both = |x: Facts, y: Facts| {
        let mut x = x;
        x.meet(&y);
        x
    };
    let k1 = a.get(1).and_then(|f| f.konst()).map(|k| zext_bits(k, w));
    let mut r = match op {
        Op::Add { nsw } => {
            let (x, y) = (a[0], a[1]);
            let uf = if x.u.1 + y.u.1 <= um { ur(x.u.0 + y.u.0, x.u.1 + y.u.1) } else { full };
            let (lo, hi) = (x.s.0 + y.s.0, x.s.1 + y.s.1);
            let sf = if nsw || (lo >= smn && hi <= smx) { sr(lo.max(smn), hi.min(smx)) } else { full };
            both(uf, sf)
        }
        Op::Sub { nsw } => {
            let (x, y) = (a[0], a[1]);
            let uf = if x.u.0 >= y.u.1 { ur(x.u.0 - y.u.1, x.u.1 - y.u.0) } else { full };
            let (lo, hi) = (x.s.0 - y.s.1, x.s.1 - y.s.0);
            let sf = if nsw || (lo >= smn && hi <= smx) { sr(lo.max(smn), hi.min(smx)) } else { full };
            both(uf, sf)
        }
        Op::Mul { nsw } => {
            let (x, y) = (a[0], a[1]);
            let uf = match x.u.1.checked_mul(y.u.1) {
                Some(p) if p <= um => ur(x.u.0 * y.u.0, p),
                _ => full,
            };
            let c = [x.s.0.checked_mul(y.s.0), x.s.0.checked_mul(y.s.1), x.s.1.checked_mul(y.s.0), x.s.1.checked_mul(y.s.1)];
            let sf = if c.iter().all(|p| p.is_some()) {
                let c: Vec<i128> = c.iter().map(|p| p.unwrap_or(0)).collect();
                let (lo, hi) = (*c.iter().min().unwrap_or(&0), *c.iter().max().unwrap_or(&0));
                if nsw || (lo >= smn && hi <= smx) {
                    sr(lo.max(smn), hi.min(smx))
                } else {
                    full
                }
            } else {
                full
            };
            both(uf, sf)
        }
        Op::Shl { nsw } => match k1 {
            Some(k) if k < w as i128 => {
                let x = a[0];
                let uf = if x.u.1 << k <= um { ur(x.u.0 << k, x.u.1 << k) } else { full };
                let (lo, hi) = (x.s.0 << k, x.s.1 << k);
                let sf = if nsw || (lo >= smn && hi <= smx) { sr(lo.max(smn), hi.min(smx)) } else { full };
                both(uf, sf)
            }
            _ => full,
        },
        Op::Lshr => match k1 {
            Some(k) if k < w as i128 => ur(a[0].u.0 >> k, a[0].u.1 >> k),
            _ => ur(0, a[0].u.1),
        },
        Op::Ashr => match k1 {
            Some(k) if k < w as i128 => sr(a[0].s.0 >> k, a[0].s.1 >> k),
            _ => sr(a[0].s.0.min(0), a[0].s.1.max(0)),
        },
        Op::And => {
            let mut f = ur(0, a[0].u.1.min(a[1].u.1));
            if a[0].nonneg() || a[1].nonneg() {
                f.meet(&sr(0, smx));
            }
            f
        }
        Op::Or => ur(a[0].u.0.max(a[1].u.0), ones_above(a[0].u.1.max(a[1].u.1))),
        Op::Xor => ur(0, ones_above(a[0].u.1.max(a[1].u.1))),
        Op::Udiv if a[1].u.0 > 0 => ur(a[0].u.0 / a[1].u.1, a[0].u.1 / a[1].u.0),
        Op::Udiv => ur(0, a[0].u.1),
        Op::Urem if a[1].u.1 > 0 => ur(0, a[0].u.1.min(a[1].u.1 - 1)),
        Op::Urem => ur(0, a[0].u.1),
        Op::Sdiv if a[0].nonneg() && a[1].s.0 > 0 => ur(a[0].u.0 / a[1].u.1, a[0].u.1 / a[1].u.0),
        Op::Srem if a[1].s.0 > 0 => {
            let m = a[1].s.1 - 1;
            if a[0].nonneg() {
                sr(0, a[0].s.1.min(m))
            } else {
                sr((-m).max(a[0].s.0.min(0)), m.min(a[0].s.1.max(0)))
            }
        }
        Op::UMulHi => {
            let lo = (a[0].u.0 as u128).checked_mul(a[1].u.0 as u128).map(|p| (p >> w) as i128);
            let hi = (a[0].u.1 as u128).checked_mul(a[1].u.1 as u128).map(|p| (p >> w) as i128);
            match (lo, hi) {
                (Some(l), Some(h)) => ur(l, h),
                _ => full,
            }
        }
        Op::Smin => sr(a[0].s.0.min(a[1].s.0), a[0].s.1.min(a[1].s.1)),
        Op::Smax => sr(a[0].s.0.max(a[1].s.0), a[0].s.1.max(a[1].s.1)),
        Op::Umin => ur(a[0].u.0.min(a[1].u.0), a[0].u.1.min(a[1].u.1)),
        Op::Umax => ur(a[0].u.0.max(a[1].u.0), a[0].u.1.max(a[1].u.1)),
        Op::Sext => {
            let mut f = sr(a[0].s.0, a[0].s.1);
            if a[0].nonneg() {
                f.meet(&ur(a[0].u.0, a[0].u.1));
            }
            f
        }
        Op::Zext => ur(a[0].u.0, a[0].u.1),
        Op::Trunc => {
            let mut f = full;
            if a[0].u.1 <= um {
                f.meet(&ur(a[0].u.0, a[0].u.1));
            }
            if a[0].s.0 >= smn && a[0].s.1 <= smx {
                f.meet(&sr(a[0].s.0, a[0].s.1));
            }
            f
        }
        Op::ICmp(p) => match decide(p, &a[0], &a[1]) {
            Some(b) => Facts::constant(ty, w, b as i128),
            None => full,
        },
        Op::Select => {
            let mut f = ur(a[1].u.0.min(a[2].u.0), a[1].u.1.max(a[2].u.1));
            f.meet(&sr(a[1].s.0.min(a[2].s.0), a[1].s.1.max(a[2].s.1)));
            f
        }
        _ => full,
    };
    let (zeros, ones) = bits::transfer(op, w, a);
    if zeros | ones != 0 {
        let mut k = Facts::full(ty, w);
        (k.zeros, k.ones) = (zeros, ones);
        k.normalize();
        r.meet(&k);
    }
    r
}
