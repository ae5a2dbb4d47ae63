// RUN: --pass-pipeline=builtin.module(nvvm.func(slsr,dce))
// Constant offsets through zext: `out[4 * t + k]` with `t` a thread index (so `4 * t + 3`
// cannot wrap) becomes one address plus constants. Must not fire: an index from a
// parameter (its `+ 1` may wrap: `zext(x + 1)` is 0 for x = 2^32 - 1), and a negative
// constant.
module {
  nvvm.func kernel @rows(%out: !llvm.ptr<1>, %x: i32) {
    %c1 = constant 1 : i32
    %c3 = constant 3 : i32
    %cm1 = constant -1 : i32
    %c4 = constant 4 : i32
    %s = constant 4 : i64
    %v = constant 7 : i32
    %t = sreg tid_x : i32
    %i = mul %t, %c4 : i32
    %z0 = zext %i : i32 to i64
    %o0 = mul %z0, %s : i64
    %p0 = ptradd %out, %o0 : !llvm.ptr<1>, i64
    store %v, %p0 {align = 4 : i32} : i32, !llvm.ptr<1>
    %i1 = add %i, %c1 : i32
    %z1 = zext %i1 : i32 to i64
    %o1 = mul %z1, %s : i64
    %p1 = ptradd %out, %o1 : !llvm.ptr<1>, i64
    store %v, %p1 {align = 4 : i32} : i32, !llvm.ptr<1>
    %i3 = add %i, %c3 : i32
    %z3 = zext %i3 : i32 to i64
    %o3 = mul %z3, %s : i64
    %p3 = ptradd %out, %o3 : !llvm.ptr<1>, i64
    store %v, %p3 {align = 4 : i32} : i32, !llvm.ptr<1>
    // Must not fire: x + 1 may wrap.
    %zx = zext %x : i32 to i64
    %ox = mul %zx, %s : i64
    %px = ptradd %out, %ox : !llvm.ptr<1>, i64
    store %v, %px {align = 4 : i32} : i32, !llvm.ptr<1>
    %x1 = add %x, %c1 : i32
    %zx1 = zext %x1 : i32 to i64
    %ox1 = mul %zx1, %s : i64
    %px1 = ptradd %out, %ox1 : !llvm.ptr<1>, i64
    store %v, %px1 {align = 4 : i32} : i32, !llvm.ptr<1>
    // Must not fire: a negative constant.
    %im = add %i, %cm1 : i32
    %zm = zext %im : i32 to i64
    %om = mul %zm, %s : i64
    %pm = ptradd %out, %om : !llvm.ptr<1>, i64
    store %v, %pm {align = 4 : i32} : i32, !llvm.ptr<1>
    return
  }
}
