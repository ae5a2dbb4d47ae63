// RUN: --pass-pipeline=builtin.module(nvvm-inline,nvvm.func(mem2reg,canonicalize))
// A two-return device function with a local is inlined into a loop; its alloca moves to
// the kernel's entry block and mem2reg promotes it; the device function goes. The
// recursive `@rec` stays a call.
module {
  nvvm.func device @clampi(%arg0: i32, %arg1: i32) -> i32 {
    %t = alloca {align = 4 : i32, size = 4 : i64} : !llvm.ptr<5>
    store %arg0, %t {align = 4 : i32} : i32, !llvm.ptr<5>
    %gt = icmp sgt, %arg0, %arg1 : i32
    cond_br %gt, ^big, ^small
  ^big:
    return %arg1 : i32
  ^small:
    %x = load %t {align = 4 : i32} : !llvm.ptr<5> -> i32
    return %x : i32
  }
  nvvm.func device @rec(%arg0: i32) -> i32 {
    %r = call @rec(%arg0) : (i32) -> i32
    return %r : i32
  }
  nvvm.func kernel @k(%arg0: i32, %arg1: !llvm.ptr) {
    %c0 = constant 0 : i32
    %c1 = constant 1 : i32
    %c9 = constant 9 : i32
    br ^head(%c0 : i32)
  ^head(%i: i32):
    %lt = icmp slt, %i, %arg0 : i32
    cond_br %lt, ^body, ^exit
  ^body:
    %c = call @clampi(%i, %c9) : (i32, i32) -> i32
    %r = call @rec(%c) : (i32) -> i32
    store %r, %arg1 {align = 4 : i32} : i32, !llvm.ptr
    %in = add %i, %c1 : i32
    br ^head(%in : i32)
  ^exit:
    return
  }
}
