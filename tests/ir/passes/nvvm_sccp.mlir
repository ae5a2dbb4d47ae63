// RUN: --pass-pipeline=builtin.module(nvvm.func(sccp,dce))
// `%k` is 3 on every edge into the loop, so `%k * 2 == 6` holds and the else branch goes;
// `%j` changes around the loop and stays a block argument.
module {
  nvvm.func kernel @k(%arg0: i32, %arg1: !llvm.ptr) {
    %c0 = constant 0 : i32
    %c1 = constant 1 : i32
    %c2 = constant 2 : i32
    %c3 = constant 3 : i32
    %c6 = constant 6 : i32
    br ^head(%c3, %c0 : i32, i32)
  ^head(%k: i32, %j: i32):
    %lt = icmp slt, %j, %arg0 : i32
    cond_br %lt, ^body, ^exit
  ^body:
    %d = mul %k, %c2 : i32
    %eq = icmp eq, %d, %c6 : i32
    cond_br %eq, ^same, ^other
  ^same:
    %jn = add %j, %c1 : i32
    br ^head(%k, %jn : i32, i32)
  ^other:
    br ^head(%c0, %j : i32, i32)
  ^exit:
    store %k, %arg1 {align = 4 : i32} : i32, !llvm.ptr
    return
  }
}
