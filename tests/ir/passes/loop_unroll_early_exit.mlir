// RUN: --pass-pipeline=builtin.module(nvvm.func(loop-unroll,sccp,canonicalize)) --pass-statistics
// Loops with an early exit (`goto found`, `break`), fully unrolled as counted loops: in
// find, the block the exit enters reads the loop's counter, so each of the 4 copies gets
// its own copy of it. Must not fire: in merged, the exit goes to a block that the loop's
// normal exit enters too and that reads the counter directly (no single copy's value is
// there): it stays a loop.
module {
  nvvm.func kernel @find(%row: !llvm.ptr<1>, %key: i32, %out: !llvm.ptr<1>) {
    %c0 = constant 0 : i32
    %c1 = constant 1 : i32
    %c4 = constant 4 : i32
    %c4w = constant 4 : i64
    %none = constant -1 : i32
    br ^head(%c0 : i32)
  ^head(%j: i32):
    %more = icmp slt, %j, %c4 : i32
    cond_br %more, ^body, ^miss
  ^body:
    %w = sext %j : i32 to i64
    %off = mul %w, %c4w : i64
    %p = ptradd %row, %off : !llvm.ptr<1>, i64
    %v = load %p {align = 4 : i32} : !llvm.ptr<1> -> i32
    %hit = icmp eq, %v, %key : i32
    cond_br %hit, ^found, ^latch
  ^found:
    %pos = add %j, %c1 nsw : i32
    br ^done(%pos : i32)
  ^latch:
    %j2 = add %j, %c1 nsw : i32
    br ^head(%j2 : i32)
  ^miss:
    br ^done(%none : i32)
  ^done(%r: i32):
    store %r, %out {align = 4 : i32} : i32, !llvm.ptr<1>
    return
  }
  nvvm.func kernel @merged(%row: !llvm.ptr<1>, %key: i32, %out: !llvm.ptr<1>) {
    %c0 = constant 0 : i32
    %c1 = constant 1 : i32
    %c4 = constant 4 : i32
    %c4w = constant 4 : i64
    br ^head(%c0 : i32)
  ^head(%j: i32):
    %more = icmp slt, %j, %c4 : i32
    cond_br %more, ^body, ^done
  ^body:
    %w = sext %j : i32 to i64
    %off = mul %w, %c4w : i64
    %p = ptradd %row, %off : !llvm.ptr<1>, i64
    %v = load %p {align = 4 : i32} : !llvm.ptr<1> -> i32
    %hit = icmp eq, %v, %key : i32
    cond_br %hit, ^done, ^latch
  ^latch:
    %j2 = add %j, %c1 nsw : i32
    br ^head(%j2 : i32)
  ^done:
    store %j, %out {align = 4 : i32} : i32, !llvm.ptr<1>
    return
  }
}
