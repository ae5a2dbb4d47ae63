// RUN: --pass-pipeline=builtin.module(fold-constant-loads) --pass-statistics
// @table is readonly (a const array with its initializer): its loads at constant offsets
// become constants (an f64 at 8, an i32 at 4 through an address-space cast, an i8 at 3,
// sign-extended: 0xF0 is -16), and their address arithmetic goes. What stays: a load of
// @table at a runtime offset, one past its 16 bytes, a volatile one, and every load of
// @tunable, which has an initializer but is not readonly (__constant__: the host may
// overwrite it).
module {
  nvvm.global global @table {align = 8 : i32, init = array<i8: 0, 0, 0, -16, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, -16, 63>, readonly, size = 16 : i64}
  nvvm.global constant @tunable {align = 4 : i32, init = array<i8: 1, 0, 0, 0>, size = 4 : i64}
  nvvm.func kernel @k(%i: i64, %out: !llvm.ptr<1>) {
    %c3 = constant 3 : i64
    %c4 = constant 4 : i64
    %c8 = constant 8 : i64
    %c16 = constant 16 : i64
    %t = addressof @table : !llvm.ptr<1>
    %p8 = ptradd %t, %c8 : !llvm.ptr<1>, i64
    %d = load %p8 {align = 8 : i32} : !llvm.ptr<1> -> f64
    %g = addrspacecast %t : !llvm.ptr<1> to !llvm.ptr
    %p4 = ptradd %g, %c4 : !llvm.ptr, i64
    %w = load %p4 {align = 4 : i32} : !llvm.ptr -> i32
    %p3 = ptradd %t, %c3 : !llvm.ptr<1>, i64
    %b = load %p3 {align = 1 : i32} : !llvm.ptr<1> -> i8
    %pi = ptradd %t, %i : !llvm.ptr<1>, i64
    %r = load %pi {align = 1 : i32} : !llvm.ptr<1> -> i8
    %p16 = ptradd %t, %c16 : !llvm.ptr<1>, i64
    %o = load %p16 {align = 4 : i32} : !llvm.ptr<1> -> i32
    %v = load %t {align = 4 : i32, volatile} : !llvm.ptr<1> -> i32
    %u = addressof @tunable : !llvm.ptr<4>
    %x = load %u {align = 4 : i32} : !llvm.ptr<4> -> i32
    store %d, %out {align = 8 : i32} : f64, !llvm.ptr<1>
    store %w, %out {align = 4 : i32} : i32, !llvm.ptr<1>
    store %b, %out {align = 1 : i32} : i8, !llvm.ptr<1>
    store %r, %out {align = 1 : i32} : i8, !llvm.ptr<1>
    store %o, %out {align = 4 : i32} : i32, !llvm.ptr<1>
    store %v, %out {align = 4 : i32} : i32, !llvm.ptr<1>
    store %x, %out {align = 4 : i32} : i32, !llvm.ptr<1>
    return
  }
}
