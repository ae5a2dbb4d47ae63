// RUN: --pass-pipeline=builtin.module(nvvm.func(loop-rotate,canonicalize)) --pass-statistics
// loop-rotate on the nvvm IR of two kernels of tests/ptx/unrolling.cu just before the pass
// in the -O3 pipeline (`--print-ir-before=loop-rotate`). kept: the two loops unrolled by
// four and their remainder loops rotate (the first guard folds, its start being the
// constant 0); the #pragma unroll 1 loop must not (its back edge carries the nounroll
// hint). walk: the while loop rotates, and the sum and position its test reads, used
// after it, reach that code through a new exit block; the do-while is tested at the
// bottom already (its header is its latch) and stays as it is.
module {
  nvvm.func kernel @_Z4keptPKiPii(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i32) {
    %0 = addrspacecast %arg1 : !llvm.ptr to !llvm.ptr<1>
    %1 = addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<1>
    br ^bb1
  ^bb1:
    %2 = sreg ctaid_x : i32
    %3 = sreg ntid_x : i32
    %4 = mul %2, %3 : i32
    %5 = sreg tid_x : i32
    %6 = add %4, %5 : i32
    %7 = icmp sge, %6, %arg2 : i32
    cond_br %7, ^bb2, ^bb3
  ^bb2:
    return
  ^bb3:
    %8 = sext %6 : i32 to i64
    %9 = constant 4 : i64
    %10 = mul %8, %9 : i64
    %11 = ptradd %1, %10 : !llvm.ptr<1>, i64
    %12 = load %11 {align = 4 : i32} : !llvm.ptr<1> -> i32
    %13 = constant 0 : i32
    %14 = constant 0 : i32
    br ^bb4(%13, %14 : i32, i32)
  ^bb4(%15: i32, %16: i32):
    %17 = constant 4 : i32
    %18 = icmp slt, %16, %17 : i32
    cond_br %18, ^bb5, ^bb6
  ^bb5:
    %19 = constant 33 : i32
    %20 = mul %15, %19 : i32
    %21 = ashr %12, %16 : i32
    %22 = add %20, %21 : i32
    %23 = constant 1 : i32
    %24 = add %16, %23 : i32
    br ^bb4(%22, %24 : i32, i32) {unroll = 1 : i32}
  ^bb6:
    %25 = constant 0 : i32
    br ^bb7(%15, %25 : i32, i32)
  ^bb7(%26: i32, %27: i32):
    %28 = constant 200 : i32
    %29 = icmp slt, %27, %28 : i32
    %30 = constant 197 : i32
    %31 = icmp slt, %27, %30 : i32
    cond_br %31, ^bb8, ^bb15(%26, %27 : i32, i32)
  ^bb8:
    %32 = xor %12, %27 : i32
    %33 = constant 7 : i32
    %34 = and %32, %33 : i32
    %35 = add %26, %34 : i32
    %36 = constant 1 : i32
    %37 = add %27, %36 : i32
    br ^bb9
  ^bb9:
    %38 = constant 200 : i32
    %39 = icmp slt, %37, %38 : i32
    br ^bb10
  ^bb10:
    %40 = xor %12, %37 : i32
    %41 = constant 7 : i32
    %42 = and %40, %41 : i32
    %43 = add %35, %42 : i32
    %44 = constant 1 : i32
    %45 = add %37, %44 : i32
    br ^bb11
  ^bb11:
    %46 = constant 200 : i32
    %47 = icmp slt, %45, %46 : i32
    br ^bb12
  ^bb12:
    %48 = xor %12, %45 : i32
    %49 = constant 7 : i32
    %50 = and %48, %49 : i32
    %51 = add %43, %50 : i32
    %52 = constant 1 : i32
    %53 = add %45, %52 : i32
    br ^bb13
  ^bb13:
    %54 = constant 200 : i32
    %55 = icmp slt, %53, %54 : i32
    br ^bb14
  ^bb14:
    %56 = xor %12, %53 : i32
    %57 = constant 7 : i32
    %58 = and %56, %57 : i32
    %59 = add %51, %58 : i32
    %60 = constant 1 : i32
    %61 = add %53, %60 : i32
    br ^bb7(%59, %61 : i32, i32)
  ^bb15(%62: i32, %63: i32):
    %64 = constant 200 : i32
    %65 = icmp slt, %63, %64 : i32
    cond_br %65, ^bb16, ^bb17
  ^bb16:
    %66 = xor %12, %63 : i32
    %67 = constant 7 : i32
    %68 = and %66, %67 : i32
    %69 = add %62, %68 : i32
    %70 = constant 1 : i32
    %71 = add %63, %70 : i32
    br ^bb15(%69, %71 : i32, i32)
  ^bb17:
    %72 = constant 0 : i32
    br ^bb18(%62, %72 : i32, i32)
  ^bb18(%73: i32, %74: i32):
    %75 = constant 64 : i32
    %76 = icmp slt, %74, %75 : i32
    %77 = constant 61 : i32
    %78 = icmp slt, %74, %77 : i32
    cond_br %78, ^bb19, ^bb26(%73, %74 : i32, i32)
  ^bb19:
    %79 = and %74, %12 : i32
    %80 = sub %73, %79 : i32
    %81 = constant 1 : i32
    %82 = add %74, %81 : i32
    br ^bb20 {unroll = 4 : i32}
  ^bb20:
    %83 = constant 64 : i32
    %84 = icmp slt, %82, %83 : i32
    br ^bb21
  ^bb21:
    %85 = and %82, %12 : i32
    %86 = sub %80, %85 : i32
    %87 = constant 1 : i32
    %88 = add %82, %87 : i32
    br ^bb22 {unroll = 4 : i32}
  ^bb22:
    %89 = constant 64 : i32
    %90 = icmp slt, %88, %89 : i32
    br ^bb23
  ^bb23:
    %91 = and %88, %12 : i32
    %92 = sub %86, %91 : i32
    %93 = constant 1 : i32
    %94 = add %88, %93 : i32
    br ^bb24 {unroll = 4 : i32}
  ^bb24:
    %95 = constant 64 : i32
    %96 = icmp slt, %94, %95 : i32
    br ^bb25
  ^bb25:
    %97 = and %94, %12 : i32
    %98 = sub %92, %97 : i32
    %99 = constant 1 : i32
    %100 = add %94, %99 : i32
    br ^bb18(%98, %100 : i32, i32) {unroll = 4 : i32}
  ^bb26(%101: i32, %102: i32):
    %103 = constant 64 : i32
    %104 = icmp slt, %102, %103 : i32
    cond_br %104, ^bb27, ^bb28
  ^bb27:
    %105 = and %102, %12 : i32
    %106 = sub %101, %105 : i32
    %107 = constant 1 : i32
    %108 = add %102, %107 : i32
    br ^bb26(%106, %108 : i32, i32) {unroll = 4 : i32}
  ^bb28:
    %109 = sext %6 : i32 to i64
    %110 = constant 4 : i64
    %111 = mul %109, %110 : i64
    %112 = ptradd %0, %111 : !llvm.ptr<1>, i64
    store %101, %112 {align = 4 : i32} : i32, !llvm.ptr<1>
    return
  }
  nvvm.func kernel @_Z4walkPKiPiii(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i32, %arg3: i32) {
    %0 = addrspacecast %arg1 : !llvm.ptr to !llvm.ptr<1>
    %1 = addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<1>
    br ^bb1
  ^bb1:
    %2 = sreg tid_x : i32
    %3 = constant 0 : i32
    br ^bb2(%2, %3 : i32, i32)
  ^bb2(%4: i32, %5: i32):
    %6 = add %arg3, %2 : i32
    %7 = icmp slt, %5, %6 : i32
    cond_br %7, ^bb3, ^bb4
  ^bb3:
    %8 = srem %4, %arg2 : i32
    %9 = sext %8 : i32 to i64
    %10 = constant 4 : i64
    %11 = mul %9, %10 : i64
    %12 = ptradd %1, %11 : !llvm.ptr<1>, i64
    %13 = load %12 {align = 4 : i32} : !llvm.ptr<1> -> i32
    %14 = add %5, %13 : i32
    %15 = constant 3 : i32
    %16 = add %4, %15 : i32
    br ^bb2(%16, %14 : i32, i32)
  ^bb4:
    %17 = constant 0 : i32
    br ^bb5(%5, %17 : i32, i32)
  ^bb5(%18: i32, %19: i32):
    %20 = constant 3 : i32
    %21 = and %18, %20 : i32
    %22 = add %19, %21 : i32
    %23 = constant 1 : i32
    %24 = ashr %18, %23 : i32
    %25 = constant 0 : i32
    %26 = icmp sgt, %24, %25 : i32
    cond_br %26, ^bb5(%24, %22 : i32, i32), ^bb6
  ^bb6:
    %27 = sext %2 : i32 to i64
    %28 = constant 4 : i64
    %29 = mul %27, %28 : i64
    %30 = ptradd %0, %29 : !llvm.ptr<1>, i64
    %31 = constant 1000 : i32
    %32 = mul %4, %31 : i32
    %33 = add %32, %22 : i32
    store %33, %30 {align = 4 : i32} : i32, !llvm.ptr<1>
    return
  }
}
