// RUN: --pass-pipeline=builtin.module(nvvm.func(memory-space-opt,canonicalize))
// Kernel pointer parameters are global: the load and store through ptradd chains use
// ptr<1>; the pointer stored as a value and the one passed to a call stay generic. A
// shared pointer cast to generic is accessed as shared. The device function's parameter
// could point anywhere and stays generic.
module {
  nvvm.global shared @buf {align = 4 : i32, size = 64 : i64}
  nvvm.func device @keep(%arg0: !llvm.ptr) {
    %c = constant 0 : i32
    store %c, %arg0 {align = 4 : i32} : i32, !llvm.ptr
    return
  }
  nvvm.func kernel @k(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: !llvm.ptr) {
    %c4 = constant 4 : i64
    %c8 = constant 8 : i64
    %p = ptradd %arg0, %c4 : !llvm.ptr, i64
    %q = ptradd %p, %c8 : !llvm.ptr, i64
    %v = load %q {align = 4 : i32} : !llvm.ptr -> i32
    store %v, %arg1 {align = 4 : i32} : i32, !llvm.ptr
    store %arg1, %arg2 {align = 8 : i32} : !llvm.ptr, !llvm.ptr
    call @keep(%arg1) : (!llvm.ptr) -> ()
    %s = addressof @buf : !llvm.ptr<3>
    %g = addrspacecast %s : !llvm.ptr<3> to !llvm.ptr
    %e = ptradd %g, %c4 : !llvm.ptr, i64
    store %v, %e {align = 4 : i32} : i32, !llvm.ptr
    return
  }
}
