// RUN: --pass-pipeline=builtin.module(nvvm.func(mem2reg))
// Scalar replacement: a struct temporary (a float2 passed by value) written and read field
// by field through constant ptradds, one through a chain of two, becomes one scalar per
// field and then SSA values. `w`, whose fields overlap (an i64 over two i32s), stays.
module {
  nvvm.func kernel @k(%arg0: f32, %arg1: f32, %arg2: !llvm.ptr) {
    %t = alloca {align = 8 : i32, size = 8 : i64} : !llvm.ptr<5>
    %w = alloca {align = 8 : i32, size = 8 : i64} : !llvm.ptr<5>
    %c2 = constant 2 : i64
    %c4 = constant 4 : i64
    store %arg0, %t {align = 4 : i32} : f32, !llvm.ptr<5>
    %y = ptradd %t, %c4 : !llvm.ptr<5>, i64
    store %arg1, %y {align = 4 : i32} : f32, !llvm.ptr<5>
    %a = load %t {align = 4 : i32} : !llvm.ptr<5> -> f32
    %h = ptradd %t, %c2 : !llvm.ptr<5>, i64
    %y2 = ptradd %h, %c2 : !llvm.ptr<5>, i64
    %b = load %y2 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %s = fadd %a, %b : f32
    store %s, %arg2 {align = 4 : i32} : f32, !llvm.ptr
    %wi = bitcast %s : f32 to i32
    store %wi, %w {align = 4 : i32} : i32, !llvm.ptr<5>
    %wl = load %w {align = 8 : i32} : !llvm.ptr<5> -> i64
    %wt = trunc %wl : i64 to i32
    store %wt, %arg2 {align = 4 : i32} : i32, !llvm.ptr
    return
  }
}
