// RUN: --pass-pipeline=builtin.module(nvvm.func(slsr,dce)) --pass-statistics
// rows: out[t], out[n + t], out[2 * n + t], out[3 * n + t] (nsw, as C's int arithmetic
// gives) become one address and three adds of 4 * sext(n). Must not fire: in wraps, n + t
// without nsw (sext(n + t) is not sext(n) + sext(t) when the 32-bit sum wraps) stays; its
// third row, m + t with nsw on the add only, is read as row 0 plus one stride m (the add's
// nsw is all that needs); in apart, rows of two different bases; in gap, rows 0 and 2 only
// (no row one stride before the other: a multiply would cost what it saves).
module {
  nvvm.func kernel @rows(%out: !llvm.ptr<1>, %n: i32, %t: i32, %a: f32) {
    %c4 = constant 4 : i64
    %c2 = constant 2 : i32
    %c3 = constant 3 : i32
    %e0 = sext %t : i32 to i64
    %o0 = mul %e0, %c4 : i64
    %p0 = ptradd %out, %o0 : !llvm.ptr<1>, i64
    store %a, %p0 {align = 4 : i32} : f32, !llvm.ptr<1>
    %x1 = add %n, %t nsw : i32
    %e1 = sext %x1 : i32 to i64
    %o1 = mul %e1, %c4 : i64
    %p1 = ptradd %out, %o1 : !llvm.ptr<1>, i64
    store %a, %p1 {align = 4 : i32} : f32, !llvm.ptr<1>
    %m2 = mul %n, %c2 nsw : i32
    %x2 = add %m2, %t nsw : i32
    %e2 = sext %x2 : i32 to i64
    %o2 = mul %e2, %c4 : i64
    %p2 = ptradd %out, %o2 : !llvm.ptr<1>, i64
    store %a, %p2 {align = 4 : i32} : f32, !llvm.ptr<1>
    %m3 = mul %c3, %n nsw : i32
    %x3 = add %t, %m3 nsw : i32
    %e3 = sext %x3 : i32 to i64
    %o3 = mul %c4, %e3 : i64
    %p3 = ptradd %out, %o3 : !llvm.ptr<1>, i64
    store %a, %p3 {align = 4 : i32} : f32, !llvm.ptr<1>
    return
  }
  nvvm.func kernel @wraps(%out: !llvm.ptr<1>, %n: i32, %t: i32, %a: f32) {
    %c4 = constant 4 : i64
    %c2 = constant 2 : i32
    %e0 = sext %t : i32 to i64
    %o0 = mul %e0, %c4 : i64
    %p0 = ptradd %out, %o0 : !llvm.ptr<1>, i64
    store %a, %p0 {align = 4 : i32} : f32, !llvm.ptr<1>
    %x1 = add %n, %t : i32
    %e1 = sext %x1 : i32 to i64
    %o1 = mul %e1, %c4 : i64
    %p1 = ptradd %out, %o1 : !llvm.ptr<1>, i64
    store %a, %p1 {align = 4 : i32} : f32, !llvm.ptr<1>
    %m2 = mul %n, %c2 : i32
    %x2 = add %m2, %t nsw : i32
    %e2 = sext %x2 : i32 to i64
    %o2 = mul %e2, %c4 : i64
    %p2 = ptradd %out, %o2 : !llvm.ptr<1>, i64
    store %a, %p2 {align = 4 : i32} : f32, !llvm.ptr<1>
    return
  }
  nvvm.func kernel @apart(%out: !llvm.ptr<1>, %other: !llvm.ptr<1>, %n: i32, %t: i32, %a: f32) {
    %c4 = constant 4 : i64
    %e0 = sext %t : i32 to i64
    %o0 = mul %e0, %c4 : i64
    %p0 = ptradd %out, %o0 : !llvm.ptr<1>, i64
    store %a, %p0 {align = 4 : i32} : f32, !llvm.ptr<1>
    %x1 = add %n, %t nsw : i32
    %e1 = sext %x1 : i32 to i64
    %o1 = mul %e1, %c4 : i64
    %p1 = ptradd %other, %o1 : !llvm.ptr<1>, i64
    store %a, %p1 {align = 4 : i32} : f32, !llvm.ptr<1>
    return
  }
  nvvm.func kernel @gap(%out: !llvm.ptr<1>, %n: i32, %t: i32, %a: f32) {
    %c4 = constant 4 : i64
    %c2 = constant 2 : i32
    %e0 = sext %t : i32 to i64
    %o0 = mul %e0, %c4 : i64
    %p0 = ptradd %out, %o0 : !llvm.ptr<1>, i64
    store %a, %p0 {align = 4 : i32} : f32, !llvm.ptr<1>
    %m2 = mul %n, %c2 nsw : i32
    %x2 = add %m2, %t nsw : i32
    %e2 = sext %x2 : i32 to i64
    %o2 = mul %e2, %c4 : i64
    %p2 = ptradd %out, %o2 : !llvm.ptr<1>, i64
    store %a, %p2 {align = 4 : i32} : f32, !llvm.ptr<1>
    return
  }
}
