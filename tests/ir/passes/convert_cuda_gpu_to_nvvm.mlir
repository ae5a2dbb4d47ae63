// RUN: --convert-cuda-gpu-to-nvvm --pass-statistics
// Each GPU op of a cuda function as its nvvm op: the clock64 register 64-bit, a
// __syncthreads_count's int predicate compared with zero, the shuffle's packed width
// operand (without the 31 for `up`), a double shuffled as two 32-bit halves, a pointer
// through i64, a short through i32, votes (a ballot's i32; __any's i1 widened), a warp
// reduction and matches (of an i32 and of an f64), and
// atomics on a global and a shared address (subtraction as the addition of the negation;
// the address an !llvm.ptr through a materialization cast). Glue arithmetic is arith, for
// convert-arith-to-nvvm.
module {
  func.func @gpu_ops(%x: f64, %p: !cuda.ptr<f32>, %h: i16, %c: i32, %b: i1, %g: !cuda.ptr<i32, global>, %sh: !cuda.ptr<f32, shared>) -> i64 {
    %tid = cuda.special tid_x : i32
    %clk = cuda.special clock64 : i64
    cuda.barrier sync
    %n = cuda.barrier count(%c : i32) -> i32
    %mask = arith.constant -1 : i32
    cuda.barrier warp(%mask : i32)
    cuda.fence block
    cuda.fence system
    %w = arith.constant 32 : i32
    %xd = cuda.shfl down %mask, %x, %tid, %w : f64
    %pu = cuda.shfl up %mask, %p, %tid, %w : !cuda.ptr<f32>
    %pu_f = cuda.load %pu : !cuda.ptr<f32> -> f32
    %hb = cuda.shfl bfly %mask, %h, %tid, %w : i16
    %ci = cuda.shfl idx %mask, %c, %tid, %w : i32
    %bal = cuda.vote ballot %mask, %b : i32
    %any = cuda.vote any %mask, %b : i32
    %red = cuda.redux smin %mask, %c
    %m1 = cuda.match any %mask, %c : i32
    %m2 = cuda.match all %mask, %x : f64
    %old = cuda.atomic sub %g, %c : !cuda.ptr<i32, global>, i32
    %fold = cuda.atomic sub %sh, %pu_f : !cuda.ptr<f32, shared>, f32
    %cas = cuda.atomic_cas %g, %c, %old : !cuda.ptr<i32, global>, i32
    %s = arith.addi %n, %bal : i32
    %t = arith.addi %s, %any : i32
    %u0 = arith.addi %t, %ci : i32
    %u1 = arith.addi %u0, %cas : i32
    %u2 = arith.addi %u1, %red : i32
    %u3 = arith.addi %u2, %m1 : i32
    %u = arith.addi %u3, %m2 : i32
    %v = arith.extsi %u : i32 to i64
    %r = arith.addi %clk, %v : i64
    return %r : i64
  }
}
