// RUN: --pass-pipeline=builtin.module(nvvm.func(eqsat,dce)) --pass-statistics
// A remainder by 2^k compared with a constant: `x % 4 == 0` tests the low bits, and
// `x % 4 == 2` the low bits and the sign (a negative x has a negative remainder), one `and`
// each instead of the signed remainder's shifts. Must not fire: a divisor that is no power
// of two (`x % 6 == 2`), a constant at or above the divisor (`x % 4 == 4`, always false
// but not this rule's), and a negative constant (`x % 4 == -2`, true for some negative x).
module {
  nvvm.func device @compares(%x: i32) -> i32 {
    %c4 = constant 4 : i32
    %c6 = constant 6 : i32
    %c0 = constant 0 : i32
    %c2 = constant 2 : i32
    %cm2 = constant -2 : i32
    %r4 = srem %x, %c4 : i32
    %r6 = srem %x, %c6 : i32
    %a = icmp eq, %r4, %c0 : i32
    %b = icmp ne, %r4, %c2 : i32
    %c = icmp eq, %r6, %c2 : i32
    %d = icmp eq, %r4, %c4 : i32
    %e = icmp eq, %r4, %cm2 : i32
    %ab = and %a, %b : i1
    %cd = or %c, %d : i1
    %abcd = xor %ab, %cd : i1
    %all = xor %abcd, %e : i1
    %z = zext %all : i1 to i32
    return %z : i32
  }
}
