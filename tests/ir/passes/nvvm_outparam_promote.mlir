// RUN: --pass-pipeline=builtin.module(nvvm.func(mem2reg,memory-space-opt,mem2reg))
// An inlined out-parameter: the local `e` is written through a generic cast of its
// address. The first mem2reg cannot promote it (the cast is a use it does not know);
// memory-space-opt makes the store and load direct and erases the cast, and the second
// mem2reg promotes it, so no local memory is left.
module {
  nvvm.func kernel @k(%arg0: !llvm.ptr, %arg1: f64) {
    %e = alloca {align = 8 : i32, name = "e", size = 8 : i64} : !llvm.ptr<5>
    %g = addrspacecast %e : !llvm.ptr<5> to !llvm.ptr
    %m = fmul %arg1, %arg1 : f64
    store %m, %g {align = 8 : i32} : f64, !llvm.ptr
    %v = load %e {align = 8 : i32} : !llvm.ptr<5> -> f64
    store %v, %arg0 {align = 8 : i32} : f64, !llvm.ptr
    return
  }
}
