//! Floating point as PTX defines it, bit-exact.
//!
//! - Results are correctly rounded in the instruction's mode (`.rn`, `.rz`, `.rm`, `.rp`):
//!   an `f32` operation is computed in `f64` with the exact residual (TwoSum for addition,
//!   exact products, the `fma` residual for division and square root), and [`round_f32`]
//!   rounds the exact value `s + e` in the requested mode; `f64` operations use the same
//!   residuals to step a round-to-nearest result the right way.
//! - `fma` is fused: `f32` through `f32::mul_add` (correctly rounded), directed modes
//!   through an exact `f64` product and TwoSum.
//! - `f16` and `bf16` (and the packed `.f16x2`/`.bf16x2`, run half by half) are computed
//!   in `f64` with the exact residual too, rounded to odd in `f32` and then to the 16-bit
//!   format: one correct rounding, `fma` included.
//! - `.ftz` flushes subnormal `f32` inputs and results to zero of the same sign.
//! - NaN results are the canonical NaN (`0x7fffffff`, `0x7fffffffffffffff`) as NVIDIA
//!   GPUs produce them.
//! - Approximate instructions (`ex2.approx`, `lg2.approx`, `sin.approx`, `cos.approx`,
//!   `rcp.approx`, `rsqrt.approx`, `sqrt.approx`, `div.approx`, `div.full`,
//!   `tanh.approx`) return the correctly rounded value of the exact function: within
//!   the error bounds PTX documents for them. Real hardware differs in the last bits;
//!   the simulator is exact so that two compilers that use the same approximate
//!   instruction agree.

use crate::code::{BinOp, Cvt, FMode, Rnd, Ty, UnOp};
use std::cmp::Ordering;

pub const NAN32: u32 = 0x7fff_ffff;
pub const NAN64: u64 = 0x7fff_ffff_ffff_ffff;

fn next_up32(x: f32) -> f32 {
    if x.is_nan() || x == f32::INFINITY {
        return x;
    }
    if x == 0.0 {
        return f32::from_bits(1);
    }
    let b = x.to_bits();
    f32::from_bits(if x > 0.0 { b + 1 } else { b - 1 })
}
fn next_down32(x: f32) -> f32 {
    -next_up32(-x)
}
fn next_up64(x: f64) -> f64 {
    if x.is_nan() || x == f64::INFINITY {
        return x;
    }
    if x == 0.0 {
        return f64::from_bits(1);
    }
    let b = x.to_bits();
    f64::from_bits(if x > 0.0 { b + 1 } else { b - 1 })
}
fn next_down64(x: f64) -> f64 {
    -next_up64(-x)
}

/// Adjusts `y` (a rounding of the exact value; `dir` is sign(y - exact)) to mode `rnd`.
macro_rules! directed {
    ($y:expr, $dir:expr, $rnd:expr, $up:ident, $down:ident) => {{
        let (y, dir) = ($y, $dir);
        match ($rnd, dir) {
            (_, Ordering::Equal) | (Rnd::Rn, _) => y,
            (Rnd::Rm, Ordering::Greater) => $down(y),
            (Rnd::Rp, Ordering::Less) => $up(y),
            (Rnd::Rz, Ordering::Greater) if y > 0.0 => $down(y),
            (Rnd::Rz, Ordering::Less) if y < 0.0 => $up(y),
            // Rz with y == 0 or already toward zero; Rm below; Rp above.
            _ => y,
        }
    }};
}

/// Rounds the exact value `s + e` (`s` an `f64`, `e` the exact residual, possibly only its
/// sign) to `f32` in mode `rnd`.
pub fn round_f32(s: f64, e: f64, rnd: Rnd) -> f32 {
    if s.is_nan() {
        return f32::from_bits(NAN32);
    }
    let mut y = s as f32;
    let yd = y as f64;
    let dir = if yd == s {
        // sign(y - exact) = -sign(e)
        0.0f64.partial_cmp(&e).unwrap_or(Ordering::Equal)
    } else {
        // A tie in f64 that `e` breaks: `s` halfway between two f32s.
        if rnd == Rnd::Rn && e != 0.0 && y.is_finite() {
            let other = if yd > s { next_down32(y) } else { next_up32(y) };
            if other.is_finite() && (s - other as f64).abs() == (yd - s).abs() {
                // exact = s + e: the nearer neighbour is on e's side.
                let toward = if e > 0.0 { yd.max(other as f64) } else { yd.min(other as f64) };
                y = toward as f32;
            }
            return y;
        }
        yd.partial_cmp(&s).unwrap_or(Ordering::Equal)
    };
    directed!(y, dir, rnd, next_up32, next_down32)
}

/// Steps the round-to-nearest `f64` result `s` of an operation with exact residual `e`
/// to mode `rnd`.
pub fn round_f64(s: f64, e: f64, rnd: Rnd) -> f64 {
    if s.is_nan() {
        return f64::from_bits(NAN64);
    }
    let dir = 0.0f64.partial_cmp(&e).unwrap_or(Ordering::Equal);
    // An overflow to infinity under Rz/Rm/Rp: the residual is not finite; compare instead.
    if s.is_infinite() && rnd != Rnd::Rn {
        let toward_zero = match rnd {
            Rnd::Rz => true,
            Rnd::Rm => s > 0.0,
            _ => s < 0.0,
        };
        return if toward_zero { f64::MAX.copysign(s) } else { s };
    }
    directed!(s, dir, rnd, next_up64, next_down64)
}

/// TwoSum: the exact error of `s = a + b`.
fn two_sum_err(a: f64, b: f64, s: f64) -> f64 {
    let bb = s - a;
    let aa = s - bb;
    (a - aa) + (b - bb)
}

pub fn flush32(x: f32) -> f32 {
    if x.is_subnormal() {
        0.0f32.copysign(x)
    } else {
        x
    }
}

fn canon32(x: f32) -> u64 {
    if x.is_nan() {
        NAN32 as u64
    } else {
        x.to_bits() as u64
    }
}
fn canon64(x: f64) -> u64 {
    if x.is_nan() {
        NAN64
    } else {
        x.to_bits()
    }
}

fn sat32(x: f32, sat: bool) -> f32 {
    if !sat {
        x
    } else if x.is_nan() {
        0.0
    } else {
        x.clamp(0.0, 1.0)
    }
}

/// `f32` result of the exact `s + e`, with the mode's rounding, flush and saturation.
fn fin32(s: f64, e: f64, m: FMode) -> u64 {
    let mut y = round_f32(s, e, m.rnd);
    if m.ftz {
        y = flush32(y);
    }
    canon32(sat32(y, m.sat))
}
fn fin64(s: f64, e: f64, m: FMode) -> u64 {
    let y = round_f64(s, e, m.rnd);
    let y = if m.sat && !y.is_nan() {
        y.clamp(0.0, 1.0)
    } else if m.sat {
        0.0
    } else {
        y
    };
    canon64(y)
}

pub fn f32in(bits: u64, ftz: bool) -> f32 {
    let x = f32::from_bits(bits as u32);
    if ftz {
        flush32(x)
    } else {
        x
    }
}

/// A 16-bit float (`f16` or `bf16`) as `f32` (exact).
fn halfin(ty: Ty, bits: u64) -> f32 {
    if ty == Ty::BF16 {
        f32::from_bits((bits as u32 & 0xffff) << 16)
    } else {
        half::f16::from_bits(bits as u16).to_f32()
    }
}

/// Rounds the exact value `s + e` to the 16-bit float format `ty` in mode `rnd`; a NaN
/// becomes the canonical `0x7fff`. The value is first rounded to odd in `f32` (toward
/// zero, the last bit set when inexact), which keeps the information a second rounding
/// needs: `f32` has more than twice the bits of either half format plus two, so rounding
/// that to the half format is the correct rounding of the exact value (no double-rounding
/// error, also for `fma`, whose sum spans more than `f64` holds).
fn half_round(ty: Ty, s: f64, e: f64, rnd: Rnd) -> u64 {
    if s.is_nan() {
        return 0x7fff;
    }
    let t = round_f32(s, e, Rnd::Rz);
    let mut u = t.to_bits();
    if t.is_finite() && (t as f64 != s || e != 0.0) {
        u |= 1;
    }
    if ty == Ty::BF16 {
        let (hi, rest) = (u >> 16, u & 0xffff);
        let neg = u >> 31 != 0;
        let up = match rnd {
            Rnd::Rn => rest > 0x8000 || (rest == 0x8000 && hi & 1 == 1),
            Rnd::Rz => false,
            Rnd::Rp => rest != 0 && !neg,
            Rnd::Rm => rest != 0 && neg,
        };
        // Stepping the magnitude up carries into the exponent (to infinity at the top).
        (hi + up as u32) as u64
    } else {
        half::f16::from_f32(f32::from_bits(u)).to_bits() as u64
    }
}

/// A half result of the exact `s + e` with the mode's rounding and saturation.
fn half_fin(ty: Ty, s: f64, e: f64, m: FMode) -> u64 {
    if m.sat {
        if s.is_nan() {
            return 0;
        }
        let v = s + e;
        if v >= 1.0 {
            return half_round(ty, 1.0, 0.0, Rnd::Rn);
        }
        if v <= 0.0 {
            return 0;
        }
    }
    half_round(ty, s, e, m.rnd)
}

/// PTX `min`/`max` on floats: a NaN operand gives the other; -0 < +0.
fn fminmax(a: f64, b: f64, max: bool) -> f64 {
    if a.is_nan() {
        return b;
    }
    if b.is_nan() {
        return a;
    }
    if a == b {
        // ±0: min is -0 if either is, max +0 if either is.
        let neg = if max { a.is_sign_negative() && b.is_sign_negative() } else { a.is_sign_negative() || b.is_sign_negative() };
        return if neg { -a.abs() } else { a.abs() };
    }
    if (a < b) != max {
        a
    } else {
        b
    }
}

/// A binary float instruction on `ty`; `None` if `op` is not a float operation.
pub fn fbin(op: BinOp, ty: Ty, a: u64, b: u64) -> Option<u64> {
    let mode = match op {
        BinOp::FAdd(m) | BinOp::FSub(m) | BinOp::FMul(m) | BinOp::FDiv(m) | BinOp::FDivApprox(m) | BinOp::FDivFull(m) => m,
        BinOp::FMin(f) | BinOp::FMax(f) => FMode { ftz: f, ..FMode::RN },
        _ => FMode::RN,
    };
    match ty {
        Ty::F16 | Ty::BF16 => {
            let (x, y) = (halfin(ty, a) as f64, halfin(ty, b) as f64);
            let exact = |v: f64| half_round(ty, v, 0.0, Rnd::Rn);
            Some(match op {
                BinOp::FAdd(m) | BinOp::FSub(m) => {
                    let y = if matches!(op, BinOp::FSub(_)) { -y } else { y };
                    let s = x + y;
                    half_fin(ty, s, if s.is_finite() { two_sum_err(x, y, s) } else { 0.0 }, m)
                }
                // Products of two halves are exact in f64.
                BinOp::FMul(m) => half_fin(ty, x * y, 0.0, m),
                BinOp::FDiv(m) | BinOp::FDivApprox(m) | BinOp::FDivFull(m) => {
                    let q = x / y;
                    let e = if q.is_finite() && q != 0.0 { (-q).mul_add(y, x) * y.signum() } else { 0.0 };
                    half_fin(ty, q, e, m)
                }
                BinOp::FRem => exact(x % y),
                BinOp::FMin(_) | BinOp::FMax(_) => {
                    if x.is_nan() && y.is_nan() {
                        0x7fff
                    } else {
                        exact(fminmax(x, y, matches!(op, BinOp::FMax(_))))
                    }
                }
                BinOp::Copysign => exact(x.abs().copysign(y)),
                _ => return None,
            })
        }
        Ty::F32 => {
            let (x, y) = (f32in(a, mode.ftz), f32in(b, mode.ftz));
            let (xd, yd) = (x as f64, y as f64);
            let r = match op {
                BinOp::FAdd(m) | BinOp::FSub(m) => {
                    let yd = if matches!(op, BinOp::FSub(_)) { -yd } else { yd };
                    let s = xd + yd;
                    fin32(s, two_sum_err(xd, yd, s), m)
                }
                BinOp::FMul(m) => fin32(xd * yd, 0.0, m),
                BinOp::FDiv(m) => {
                    let q = xd / yd;
                    let e = if q.is_finite() && q != 0.0 { (-q).mul_add(yd, xd) * yd.signum() } else { 0.0 };
                    fin32(q, e, m)
                }
                BinOp::FDivApprox(m) | BinOp::FDivFull(m) => fin32(xd / yd, 0.0, FMode { rnd: Rnd::Rn, ..m }),
                BinOp::FRem => canon32(x % y),
                BinOp::FMin(_) | BinOp::FMax(_) => {
                    let r = fminmax(xd, yd, matches!(op, BinOp::FMax(_)));
                    if x.is_nan() && y.is_nan() {
                        NAN32 as u64
                    } else {
                        let r = r as f32;
                        (if mode.ftz { flush32(r) } else { r }).to_bits() as u64
                    }
                }
                BinOp::Copysign => (x.abs().copysign(y)).to_bits() as u64,
                _ => return None,
            };
            Some(r)
        }
        Ty::F64 => {
            let (x, y) = (f64::from_bits(a), f64::from_bits(b));
            Some(match op {
                BinOp::FAdd(m) | BinOp::FSub(m) => {
                    let y = if matches!(op, BinOp::FSub(_)) { -y } else { y };
                    let s = x + y;
                    let e = if s.is_finite() { two_sum_err(x, y, s) } else { 0.0 };
                    fin64(s, e, m)
                }
                BinOp::FMul(m) => {
                    let p = x * y;
                    let e = if p.is_finite() { x.mul_add(y, -p) } else { 0.0 };
                    fin64(p, e, m)
                }
                BinOp::FDiv(m) | BinOp::FDivApprox(m) | BinOp::FDivFull(m) => {
                    let q = x / y;
                    let e = if q.is_finite() && q != 0.0 { (-q).mul_add(y, x) * y.signum() } else { 0.0 };
                    fin64(q, e, m)
                }
                BinOp::FRem => canon64(x % y),
                BinOp::FMin(_) | BinOp::FMax(_) => {
                    if x.is_nan() && y.is_nan() {
                        NAN64
                    } else {
                        fminmax(x, y, matches!(op, BinOp::FMax(_))).to_bits()
                    }
                }
                BinOp::Copysign => x.abs().copysign(y).to_bits(),
                _ => return None,
            })
        }
        _ => None,
    }
}

/// Fused multiply-add.
pub fn fma(ty: Ty, m: FMode, a: u64, b: u64, c: u64) -> u64 {
    match ty {
        Ty::F64 => {
            let (x, y, z) = (f64::from_bits(a), f64::from_bits(b), f64::from_bits(c));
            let r = x.mul_add(y, z);
            // Directed modes: step by the sign of the exact residual x*y + z - r, computed
            // as (x*y - p) + (p + z - r) with p = x*y rounded (exact terms).
            let e = if m.rnd != Rnd::Rn && r.is_finite() {
                let p = x * y;
                let pe = x.mul_add(y, -p);
                let s = p + z;
                let se = two_sum_err(p, z, s);
                (s - r) + se + pe
            } else {
                0.0
            };
            fin64(r, e, m)
        }
        Ty::F16 | Ty::BF16 => {
            // The product is exact in f64; TwoSum gives the sum's exact residual.
            let (x, y, z) = (halfin(ty, a) as f64, halfin(ty, b) as f64, halfin(ty, c) as f64);
            let p = x * y;
            let s = p + z;
            half_fin(ty, s, if s.is_finite() { two_sum_err(p, z, s) } else { 0.0 }, m)
        }
        _ => {
            let (x, y, z) = (f32in(a, m.ftz), f32in(b, m.ftz), f32in(c, m.ftz));
            if m.rnd == Rnd::Rn {
                let r = x.mul_add(y, z);
                let r = if m.ftz { flush32(r) } else { r };
                canon32(sat32(r, m.sat))
            } else {
                // x*y is exact in f64; the sum's exact residual comes from TwoSum.
                let p = x as f64 * y as f64;
                let s = p + z as f64;
                fin32(s, two_sum_err(p, z as f64, s), m)
            }
        }
    }
}

/// A unary float instruction; `None` if `op` is not one.
pub fn fun(op: UnOp, ty: Ty, a: u64) -> Option<u64> {
    let mode = match op {
        UnOp::Sqrt(m)
        | UnOp::SqrtApprox(m)
        | UnOp::Rsqrt(m)
        | UnOp::Rcp(m)
        | UnOp::RcpApprox(m)
        | UnOp::Ex2(m)
        | UnOp::Lg2(m)
        | UnOp::Sin(m)
        | UnOp::Cos(m)
        | UnOp::Tanh(m) => m,
        UnOp::FNeg(f) | UnOp::FAbs(f) | UnOp::Saturate(f) | UnOp::RoundInt(_, f) => FMode { ftz: f, ..FMode::RN },
        _ => FMode::RN,
    };
    let is64 = ty == Ty::F64;
    let x: f64 = match ty {
        Ty::F64 => f64::from_bits(a),
        Ty::F16 | Ty::BF16 => halfin(ty, a) as f64,
        _ => f32in(a, mode.ftz) as f64,
    };
    let fin = |s: f64, e: f64, m: FMode| -> u64 {
        if is64 {
            fin64(s, e, m)
        } else if ty.is_half() {
            half_fin(ty, s, e, m)
        } else {
            fin32(s, e, m)
        }
    };
    let approx = FMode { rnd: Rnd::Rn, ..mode };
    let bits_of = |v: f64| -> u64 {
        if is64 {
            v.to_bits()
        } else if ty.is_half() {
            half_round(ty, v, 0.0, Rnd::Rn)
        } else {
            let v = v as f32;
            (if mode.ftz { flush32(v) } else { v }).to_bits() as u64
        }
    };
    Some(match op {
        UnOp::FNeg(_) => {
            if x.is_nan() {
                // neg flips the sign bit of a NaN too.
                return Some(a ^ (1u64 << (ty.bits() - 1)));
            }
            bits_of(-x)
        }
        UnOp::FAbs(_) => {
            if x.is_nan() {
                return Some(a & !(1u64 << (ty.bits() - 1)));
            }
            bits_of(x.abs())
        }
        UnOp::Sqrt(m) => {
            let r = x.sqrt();
            let e = if r.is_finite() && r > 0.0 { (-r).mul_add(r, x) } else { 0.0 };
            fin(r, e, m)
        }
        UnOp::SqrtApprox(m) => fin(x.sqrt(), 0.0, FMode { rnd: Rnd::Rn, ..m }),
        UnOp::Rsqrt(_) => fin(1.0 / x.sqrt(), 0.0, approx),
        UnOp::Rcp(m) => {
            let q = 1.0 / x;
            let e = if q.is_finite() && q != 0.0 { (-q).mul_add(x, 1.0) * x.signum() } else { 0.0 };
            fin(q, e, m)
        }
        UnOp::RcpApprox(_) => fin(1.0 / x, 0.0, approx),
        UnOp::Ex2(_) => fin(x.exp2(), 0.0, approx),
        UnOp::Lg2(_) => fin(x.log2(), 0.0, approx),
        UnOp::Sin(_) => fin(x.sin(), 0.0, approx),
        UnOp::Cos(_) => fin(x.cos(), 0.0, approx),
        UnOp::Tanh(_) => fin(x.tanh(), 0.0, approx),
        UnOp::RoundInt(r, _) => {
            let v = match r {
                Rnd::Rz => x.trunc(),
                Rnd::Rm => x.floor(),
                Rnd::Rp => x.ceil(),
                Rnd::Rn => x.round_ties_even(),
            };
            if x.is_nan() {
                return Some(if is64 {
                    NAN64
                } else if ty.is_half() {
                    0x7fff
                } else {
                    NAN32 as u64
                });
            }
            bits_of(v)
        }
        UnOp::Saturate(_) => bits_of(if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) }),
        UnOp::IsNan => x.is_nan() as u64,
        UnOp::IsInf => x.is_infinite() as u64,
        UnOp::IsFinite => x.is_finite() as u64,
        UnOp::IsNormal => {
            let n = if is64 { x.is_normal() } else { (x as f32).is_normal() };
            n as u64
        }
        UnOp::IsSubnormal => {
            let n = if is64 { x.is_subnormal() } else { f32::from_bits(a as u32).is_subnormal() };
            n as u64
        }
        _ => return None,
    })
}

/// Float comparison; `Some(None)` for a non-float comparison.
pub fn fcmp(cmp: crate::code::Cmp, ty: Ty, ftz: bool, a: u64, b: u64) -> bool {
    use crate::code::Cmp::*;
    let (x, y) = match ty {
        Ty::F64 => (f64::from_bits(a), f64::from_bits(b)),
        Ty::F16 | Ty::BF16 => (halfin(ty, a) as f64, halfin(ty, b) as f64),
        _ => (f32in(a, ftz) as f64, f32in(b, ftz) as f64),
    };
    let uno = x.is_nan() || y.is_nan();
    match cmp {
        FOeq | Eq => !uno && x == y,
        FOne => !uno && x != y,
        FOlt | SLt | ULt => !uno && x < y,
        FOle | SLe | ULe => !uno && x <= y,
        FOgt | SGt | UGt => !uno && x > y,
        FOge | SGe | UGe => !uno && x >= y,
        FUeq => uno || x == y,
        FUne | Ne => uno || x != y,
        FUlt => uno || x < y,
        FUle => uno || x <= y,
        FUgt => uno || x > y,
        FUge => uno || x >= y,
        FOrd => !uno,
        FUno => uno,
    }
}

/// A conversion.
pub fn cvt(c: Cvt, v: u64) -> u64 {
    let (from, to) = (c.from, c.to);
    match (from.is_float(), to.is_float()) {
        (false, false) => {
            let wide: i128 = if c.from_signed { from.sext(v & from.mask()) as i128 } else { (v & from.mask()) as i128 };
            if c.sat {
                let (lo, hi): (i128, i128) =
                    if c.to_signed { (-(1i128 << (to.bits() - 1)), (1i128 << (to.bits() - 1)) - 1) } else { (0, (1i128 << to.bits()) - 1) };
                (wide.clamp(lo, hi) as u64) & to.mask()
            } else {
                (wide as u64) & to.mask()
            }
        }
        (false, true) => {
            let w = v & from.mask();
            // The exact integer and its nearest f64 (with residual for 64-bit sources).
            let (s, e) = if c.from_signed {
                let i = from.sext(w);
                let s = i as f64;
                (s, (i as i128 - s as i128) as f64)
            } else {
                let s = w as f64;
                (s, (w as i128 - s as i128) as f64)
            };
            match to {
                Ty::F64 => round_f64(s, e, c.rnd).to_bits(),
                Ty::F32 => {
                    // s may itself be rounded (64-bit sources): s + e is exact.
                    let y = round_f32(s, e, c.rnd);
                    y.to_bits() as u64
                }
                _ => half_round(to, s, e, c.rnd),
            }
        }
        (true, false) => {
            let x = match from {
                Ty::F64 => f64::from_bits(v),
                Ty::F16 | Ty::BF16 => halfin(from, v) as f64,
                _ => f32in(v, c.ftz) as f64,
            };
            let r = match c.rnd {
                Rnd::Rz => x.trunc(),
                Rnd::Rm => x.floor(),
                Rnd::Rp => x.ceil(),
                Rnd::Rn => x.round_ties_even(),
            };
            // Saturating, NaN to 0 (PTX cvt and Rust `as` agree).
            let bits = match (to.bits(), c.to_signed) {
                (64, true) => r as i64 as u64,
                (64, false) => r as u64,
                (32, true) => r as i32 as u64,
                (32, false) => r as u32 as u64,
                (16, true) => r as i16 as u64,
                (16, false) => r as u16 as u64,
                (8, true) => r as i8 as u64,
                (8, false) => r as u8 as u64,
                _ => (r != 0.0) as u64,
            };
            bits & to.mask()
        }
        (true, true) => {
            let x = match from {
                Ty::F64 => f64::from_bits(v),
                Ty::F16 | Ty::BF16 => halfin(from, v) as f64,
                _ => f32in(v, c.ftz) as f64,
            };
            match to {
                Ty::F64 => canon64(x),
                Ty::F32 => {
                    let mut y = round_f32(x, 0.0, c.rnd);
                    if c.ftz {
                        y = flush32(y);
                    }
                    canon32(y)
                }
                _ => half_round(to, x, 0.0, c.rnd),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bfloat16_fma_is_rounded_once() {
        // a = 1 + 2^-4: a*a = 1 + 2^-3 + 2^-8, halfway between the bfloat16s 1 + 2^-3 and
        // 1 + 2^-3 + 2^-7 (ties to even: down). A tiny addend breaks the tie upward; an f32
        // sum would lose it and round down.
        let bf = |x: f32| (x.to_bits() >> 16) as u64;
        let a = bf(1.0625);
        let tiny = bf(1e-30);
        let r = fma(Ty::BF16, FMode::RN, a, a, tiny);
        assert_eq!(r, bf(1.0 + 0.125 + 1.0 / 128.0));
        let r0 = fma(Ty::BF16, FMode::RN, a, a, 0);
        assert_eq!(r0, bf(1.125));
        // And a tiny negative addend rounds down.
        let r1 = fma(Ty::BF16, FMode::RN, a, a, tiny | 0x8000);
        assert_eq!(r1, bf(1.125));
    }

    #[test]
    fn bfloat16_conversions() {
        let c = |to: Ty, rnd: Rnd| Cvt { from: Ty::F32, from_signed: false, to, to_signed: false, rnd, ftz: false, sat: false };
        // Ties to even; NaN to the canonical 0x7fff; directed modes by sign.
        assert_eq!(cvt(c(Ty::BF16, Rnd::Rn), 0x3f808000), 0x3f80);
        assert_eq!(cvt(c(Ty::BF16, Rnd::Rn), 0x3f818000), 0x3f82);
        assert_eq!(cvt(c(Ty::BF16, Rnd::Rn), 0xffc00001), 0x7fff);
        assert_eq!(cvt(c(Ty::BF16, Rnd::Rp), 0x3f800001), 0x3f81);
        assert_eq!(cvt(c(Ty::BF16, Rnd::Rp), 0xbf800001), 0xbf80);
        assert_eq!(cvt(c(Ty::BF16, Rnd::Rm), 0xbf800001), 0xbf81);
        // The largest float rounds to infinity.
        assert_eq!(cvt(c(Ty::BF16, Rnd::Rn), 0x7f7fffff), 0x7f80);
    }

    #[test]
    fn directed_rounding_of_f32_addition() {
        let one = 1.0f32.to_bits() as u64;
        let tiny = 1e-10f32.to_bits() as u64;
        let add = |rnd| f32::from_bits(fbin(BinOp::FAdd(FMode { rnd, ftz: false, sat: false }), Ty::F32, one, tiny).unwrap() as u32);
        assert_eq!(add(Rnd::Rn), 1.0);
        assert_eq!(add(Rnd::Rz), 1.0);
        assert_eq!(add(Rnd::Rm), 1.0);
        assert_eq!(add(Rnd::Rp), next_up32(1.0));
    }

    #[test]
    fn division_residual_and_canonical_nan() {
        let div = |a: f32, b: f32, rnd| {
            f32::from_bits(
                fbin(BinOp::FDiv(FMode { rnd, ftz: false, sat: false }), Ty::F32, a.to_bits() as u64, b.to_bits() as u64).unwrap() as u32,
            )
        };
        assert_eq!(div(1.0, 3.0, Rnd::Rn), 1.0f32 / 3.0);
        // 1/3 rounds up to nearest: rp keeps it, rz and rm step down.
        assert_eq!(div(1.0, 3.0, Rnd::Rp), 1.0f32 / 3.0);
        assert_eq!(div(1.0, 3.0, Rnd::Rz), next_down32(1.0f32 / 3.0));
        assert_eq!(div(-1.0, 3.0, Rnd::Rz), -next_down32(1.0f32 / 3.0));
        for (a, b) in [(2.0f32, 3.0f32), (1.0, 7.0), (5.0, 11.0), (-1.0, 10.0)] {
            let exact = a as f64 / b as f64;
            let (lo, hi) = (div(a, b, Rnd::Rm), div(a, b, Rnd::Rp));
            assert!((lo as f64) < exact && exact < hi as f64 && next_up32(lo) == hi, "{a}/{b}");
        }
        assert_eq!(div(0.0, 0.0, Rnd::Rn).to_bits(), NAN32);
    }

    #[test]
    fn fma_is_fused_and_ftz_flushes() {
        let (a, b, c) = (1.0f32 + f32::EPSILON, 1.0f32 - f32::EPSILON, -1.0f32);
        let r = f32::from_bits(fma(Ty::F32, FMode::RN, a.to_bits() as u64, b.to_bits() as u64, c.to_bits() as u64) as u32);
        assert_eq!(r, a.mul_add(b, c));
        assert_ne!(r, a * b + c);
        let sub = f32::from_bits(1).to_bits() as u64;
        let m = FMode { ftz: true, ..FMode::RN };
        assert_eq!(fbin(BinOp::FAdd(m), Ty::F32, sub, sub), Some(0));
    }

    #[test]
    fn conversions_saturate_and_round() {
        let c = Cvt { from: Ty::F32, from_signed: true, to: Ty::I32, to_signed: true, rnd: Rnd::Rz, ftz: false, sat: false };
        assert_eq!(cvt(c, 3e10f32.to_bits() as u64), i32::MAX as u32 as u64);
        assert_eq!(cvt(c, f32::NAN.to_bits() as u64), 0);
        assert_eq!(cvt(c, (-2.7f32).to_bits() as u64), (-2i32) as u32 as u64);
        let u = Cvt { from: Ty::I64, from_signed: false, to: Ty::F32, to_signed: false, rnd: Rnd::Rn, ftz: false, sat: false };
        // 2^24 + 1 is a tie in f32: rounds to even.
        assert_eq!(f32::from_bits(cvt(u, (1 << 24) + 1) as u32), 16777216.0);
        let big = u64::MAX;
        assert_eq!(f32::from_bits(cvt(u, big) as u32), 18446744073709551616.0);
    }
}
