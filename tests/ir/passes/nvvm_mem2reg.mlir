// RUN: --pass-pipeline=builtin.module(nvvm.func(mem2reg))
// A counted loop and a diamond: `i` and `s` become block arguments of the loop header,
// `m` one of the join; the array `a`, accessed only at a constant offset, is split into a
// scalar (whose store, never read, goes); the array `b`, indexed by a variable, and the
// volatile `v` stay in local memory; `u` is read before any store (zero).
module {
  nvvm.func kernel @k(%arg0: i32, %arg1: !llvm.ptr) {
    %i = alloca {align = 4 : i32, size = 4 : i64} : !llvm.ptr<5>
    %s = alloca {align = 4 : i32, size = 4 : i64} : !llvm.ptr<5>
    %m = alloca {align = 4 : i32, size = 4 : i64} : !llvm.ptr<5>
    %u = alloca {align = 4 : i32, size = 4 : i64} : !llvm.ptr<5>
    %a = alloca {align = 4 : i32, size = 16 : i64} : !llvm.ptr<5>
    %v = alloca {align = 4 : i32, size = 4 : i64} : !llvm.ptr<5>
    %b = alloca {align = 4 : i32, size = 16 : i64} : !llvm.ptr<5>
    %c0 = constant 0 : i32
    %c1 = constant 1 : i32
    %c4 = constant 4 : i64
    store %c0, %i {align = 4 : i32} : i32, !llvm.ptr<5>
    store %c0, %s {align = 4 : i32} : i32, !llvm.ptr<5>
    store %c1, %v {align = 4 : i32, volatile} : i32, !llvm.ptr<5>
    br ^head
  ^head:
    %iv = load %i {align = 4 : i32} : !llvm.ptr<5> -> i32
    %lt = icmp slt, %iv, %arg0 : i32
    cond_br %lt, ^body, ^exit
  ^body:
    %sv = load %s {align = 4 : i32} : !llvm.ptr<5> -> i32
    %sn = add %sv, %iv : i32
    store %sn, %s {align = 4 : i32} : i32, !llvm.ptr<5>
    %p = ptradd %a, %c4 : !llvm.ptr<5>, i64
    store %sn, %p {align = 4 : i32} : i32, !llvm.ptr<5>
    %off = ptrtoint %arg1 : !llvm.ptr to i64
    %q = ptradd %b, %off : !llvm.ptr<5>, i64
    store %sn, %q {align = 4 : i32} : i32, !llvm.ptr<5>
    %in = add %iv, %c1 : i32
    store %in, %i {align = 4 : i32} : i32, !llvm.ptr<5>
    br ^head
  ^exit:
    %sf = load %s {align = 4 : i32} : !llvm.ptr<5> -> i32
    %pos = icmp sgt, %sf, %c0 : i32
    cond_br %pos, ^then, ^else
  ^then:
    store %sf, %m {align = 4 : i32} : i32, !llvm.ptr<5>
    br ^join
  ^else:
    %uv = load %u {align = 4 : i32} : !llvm.ptr<5> -> i32
    store %uv, %m {align = 4 : i32} : i32, !llvm.ptr<5>
    br ^join
  ^join:
    %mv = load %m {align = 4 : i32} : !llvm.ptr<5> -> i32
    %vv = load %v {align = 4 : i32, volatile} : !llvm.ptr<5> -> i32
    %r = add %mv, %vv : i32
    store %r, %arg1 {align = 4 : i32} : i32, !llvm.ptr
    return
  }
}
