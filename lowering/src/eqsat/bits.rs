//! Known bits: which bits of an integer value are known to be 0 and which 1, the part of
//! [`Facts`] that ranges cannot say (`x << 2` has its two low bits clear whatever `x` is;
//! `x | 1` is odd). Bits are those of the value as an unsigned number of its width, in the
//! low bits of a `u128`; a bit in neither mask is unknown. [`transfer`] gives the bits of
//! an operator's result from its operands' facts, as LLVM's `computeKnownBits` does for
//! the same operators; [`Facts`] turns them into ranges and back (a value whose every bit
//! is known is a constant).

use super::facts::Facts;
use super::lang::Op;

/// The low `w` bits.
pub fn mask(w: u32) -> u128 {
    if w >= 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    }
}

/// The bits above the highest set bit of `v` (every bit for 0).
pub fn above(v: u128) -> u128 {
    if v == 0 {
        u128::MAX
    } else {
        !mask(128 - v.leading_zeros())
    }
}

/// How many low bits are known in both masks (`known` = zeros | ones).
fn known_low(known: u128) -> u32 {
    known.trailing_ones()
}

/// The known zeros and ones of `op`'s result (width `w`) from its operands' facts; (0, 0)
/// when nothing is known.
pub fn transfer(op: Op, w: u32, a: &[Facts]) -> (u128, u128) {
    let m = mask(w);
    let k1 = a.get(1).and_then(|f| f.konst()).map(|k| (k as u128) & mask(a[1].width));
    let r = match op {
        Op::And => (a[0].zeros | a[1].zeros, a[0].ones & a[1].ones),
        Op::Or => (a[0].zeros & a[1].zeros, a[0].ones | a[1].ones),
        Op::Xor => ((a[0].zeros & a[1].zeros) | (a[0].ones & a[1].ones), (a[0].zeros & a[1].ones) | (a[0].ones & a[1].zeros)),
        Op::Shl { .. } => match k1 {
            Some(k) if k < w as u128 => ((a[0].zeros << k) | mask(k as u32), a[0].ones << k),
            _ => (0, 0),
        },
        Op::Lshr => match k1 {
            Some(k) if k < w as u128 => ((a[0].zeros >> k) | (m & !(m >> k)), a[0].ones >> k),
            _ => (0, 0),
        },
        Op::Udiv => match k1 {
            Some(c) if c.is_power_of_two() => {
                ((a[0].zeros >> c.trailing_zeros()) | (m & !(m >> c.trailing_zeros())), a[0].ones >> c.trailing_zeros())
            }
            _ => (0, 0),
        },
        Op::Urem => match k1 {
            Some(c) if c.is_power_of_two() => (a[0].zeros | !(c - 1), a[0].ones & (c - 1)),
            _ => (0, 0),
        },
        Op::Ashr => match k1 {
            Some(k) if k < w as u128 => {
                // The sign bit, when known, fills the top `k` bits.
                let top = m & !(m >> k);
                let sign = 1u128 << (w - 1);
                let fill_z = if a[0].zeros & sign != 0 { top } else { 0 };
                let fill_o = if a[0].ones & sign != 0 { top } else { 0 };
                ((a[0].zeros >> k) & (m >> k) | fill_z, (a[0].ones >> k) & (m >> k) | fill_o)
            }
            _ => (0, 0),
        },
        // A product has at least as many trailing zeros as its factors together.
        Op::Mul { .. } => {
            let tz = a[0].zeros.trailing_ones() + a[1].zeros.trailing_ones();
            (mask(tz.min(w)), 0)
        }
        // The low bits known in both operands give the low bits of the sum or difference
        // (carries and borrows only move up).
        Op::Add { .. } | Op::Sub { .. } => {
            let n = known_low(a[0].zeros | a[0].ones).min(known_low(a[1].zeros | a[1].ones)).min(w);
            let low = mask(n);
            let v = if matches!(op, Op::Add { .. }) { a[0].ones.wrapping_add(a[1].ones) } else { a[0].ones.wrapping_sub(a[1].ones) };
            (!v & low, v & low)
        }
        Op::Zext => (a[0].zeros | (m & !mask(a[0].width)), a[0].ones),
        Op::Sext => {
            let aw = a[0].width;
            let sign = 1u128 << (aw - 1);
            let high = m & !mask(aw);
            let fill_z = if a[0].zeros & sign != 0 { high } else { 0 };
            let fill_o = if a[0].ones & sign != 0 { high } else { 0 };
            (a[0].zeros | fill_z, a[0].ones | fill_o)
        }
        Op::Trunc => (a[0].zeros, a[0].ones),
        // The result is one of two operands: what both have in common.
        Op::Select => (a[1].zeros & a[2].zeros, a[1].ones & a[2].ones),
        Op::Smin | Op::Smax | Op::Umin | Op::Umax => (a[0].zeros & a[1].zeros, a[0].ones & a[1].ones),
        _ => (0, 0),
    };
    (r.0 & m, r.1 & m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cuprite_ir::TypeId;

    fn ty() -> TypeId {
        TypeId::from_index(0)
    }

    /// Every 6-bit value pair: the known bits of each result hold for the true result,
    /// whatever bits of the operands are masked out as unknown.
    #[test]
    fn transfer_is_sound_exhaustively_at_6_bits() {
        use super::super::facts::eval;
        let w = 6u32;
        let ops = [Op::And, Op::Or, Op::Xor, Op::Add { nsw: false }, Op::Sub { nsw: false }, Op::Mul { nsw: false }, Op::Smin, Op::Umax];
        let masks = [0u128, 0b1, 0b11, 0b101010, 0b111100, 0b111111];
        for op in ops {
            for x in 0..64u128 {
                for y in (0..64u128).step_by(5) {
                    for &mx in &masks {
                        for &my in &masks {
                            let f = |v: u128, known: u128| {
                                let mut f = Facts::full(ty(), w);
                                (f.zeros, f.ones) = (!v & known, v & known);
                                f
                            };
                            let (z, o) = transfer(op, w, &[f(x, mx), f(y, my)]);
                            let sx = super::super::lang::sext_bits(x as i128, w);
                            let sy = super::super::lang::sext_bits(y as i128, w);
                            let r = eval(op, w, &[sx, sy], &[w, w]).expect("defined") as u128 & mask(w);
                            assert_eq!(r & z, 0, "{op:?} {x} {y} zeros {z:b}");
                            assert_eq!(r & o, o, "{op:?} {x} {y} ones {o:b}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn shifted_values_have_clear_low_bits() {
        let x = Facts::full(ty(), 32);
        let k = Facts::constant(ty(), 32, 2);
        let (z, o) = transfer(Op::Shl { nsw: false }, 32, &[x, k]);
        assert_eq!((z, o), (0b11, 0));
        let (z, _) = transfer(Op::Lshr, 32, &[x, k]);
        assert_eq!(z, 0xC000_0000);
    }
}
