// RUN: --pass-pipeline=builtin.module(nvvm.func(iv-demote,dce)) --pass-statistics
// iv-demote on the nvvm IR of tests/ptx/wide_iv.cu just before the pass in the -O3 pipeline
// (`--print-ir-before=iv-demote`). row_sums (tested at the bottom: 0 <= j < cols, an int)
// and polynomial (a #pragma unroll 1 loop tested at the top, k < 24) get 32-bit induction
// variables, with demoteIV, newInc, newICmp and substIV named; warp_strided (k += 32 below
// an int bound: the last increment may pass INT_MAX) and beyond_int (it runs to 2^33) keep
// their 64-bit ones: the range is not proved.
module {
  nvvm.func kernel @_Z8row_sumsPKfPfii(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i32, %arg3: i32) {
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
    %8 = constant 0.000000e+00 : f32
    %9 = constant 0 : i32
    %10 = constant 0 : i64
    %11 = sext %9 : i32 to i64
    br ^bb4(%8, %10 : f32, i64)
  ^bb4(%12: f32, %13: i64):
    %14 = sext %arg3 : i32 to i64
    %15 = icmp slt, %13, %14 : i64
    %16 = sext %6 : i32 to i64
    %17 = mul %16, %14 nsw : i64
    %18 = constant 4 : i64
    %19 = constant 1 : i64
    cond_br %15, ^bb5(%12, %13 : f32, i64), ^bb6(%12 : f32)
  ^bb5(%20: f32, %21: i64):
    %22 = add %17, %21 nsw : i64
    %23 = mul %22, %18 : i64
    %24 = ptradd %1, %23 : !llvm.ptr<1>, i64
    %25 = load %24 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %26 = fadd %20, %25 {contract} : f32
    %27 = add %21, %19 nsw : i64
    %28 = icmp slt, %27, %14 : i64
    cond_br %28, ^bb5(%26, %27 : f32, i64), ^bb6(%26 : f32)
  ^bb6(%29: f32):
    br ^bb7
  ^bb7:
    %30 = sext %6 : i32 to i64
    %31 = constant 4 : i64
    %32 = mul %30, %31 : i64
    %33 = ptradd %0, %32 : !llvm.ptr<1>, i64
    store %29, %33 {align = 4 : i32} : f32, !llvm.ptr<1>
    return
  }
  nvvm.func kernel @_Z10polynomialPKdPdS0_i(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: !llvm.ptr, %arg3: i32) {
    %0 = addrspacecast %arg2 : !llvm.ptr to !llvm.ptr<1>
    %1 = addrspacecast %arg1 : !llvm.ptr to !llvm.ptr<1>
    %2 = addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<1>
    br ^bb1
  ^bb1:
    %3 = sreg ctaid_x : i32
    %4 = sreg ntid_x : i32
    %5 = mul %3, %4 : i32
    %6 = sreg tid_x : i32
    %7 = add %5, %6 : i32
    %8 = icmp sge, %7, %arg3 : i32
    cond_br %8, ^bb2, ^bb3
  ^bb2:
    return
  ^bb3:
    %9 = constant 0.000000e+00 : f64
    %10 = constant 1.000000e+00 : f64
    %11 = constant 0 : i32
    %12 = constant 0 : i64
    %13 = sext %11 : i32 to i64
    %14 = constant 24 : i32
    %15 = constant 24 : i64
    %16 = sext %14 : i32 to i64
    %17 = constant 8 : i64
    %18 = sext %7 : i32 to i64
    %19 = mul %18, %17 : i64
    %20 = ptradd %0, %19 : !llvm.ptr<1>, i64
    %21 = load %20 {align = 8 : i32} : !llvm.ptr<1> -> f64
    %22 = constant 1 : i64
    br ^bb4(%9, %10, %12 : f64, f64, i64)
  ^bb4(%23: f64, %24: f64, %25: i64):
    %26 = icmp slt, %25, %15 : i64
    cond_br %26, ^bb5, ^bb6
  ^bb5:
    %27 = mul %25, %17 : i64
    %28 = ptradd %2, %27 : !llvm.ptr<1>, i64
    %29 = load %28 {align = 8 : i32} : !llvm.ptr<1> -> f64
    %30 = fmul %29, %24 {contract} : f64
    %31 = fadd %23, %30 {contract} : f64
    %32 = fmul %24, %21 {contract} : f64
    %33 = add %25, %22 nsw : i64
    br ^bb4(%31, %32, %33 : f64, f64, i64) {unroll = 1 : i32}
  ^bb6:
    %34 = sext %7 : i32 to i64
    %35 = constant 8 : i64
    %36 = mul %34, %35 : i64
    %37 = ptradd %1, %36 : !llvm.ptr<1>, i64
    store %23, %37 {align = 8 : i32} : f64, !llvm.ptr<1>
    return
  }
  nvvm.func kernel @_Z12warp_stridedPKiPii(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i32) {
    %0 = addrspacecast %arg1 : !llvm.ptr to !llvm.ptr<1>
    %1 = addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<1>
    br ^bb1
  ^bb1:
    %2 = constant 0 : i32
    %3 = sreg tid_x : i32
    %4 = zext %3 : i32 to i64
    br ^bb2(%2, %4 : i32, i64)
  ^bb2(%5: i32, %6: i64):
    %7 = sext %arg2 : i32 to i64
    %8 = icmp slt, %6, %7 : i64
    %9 = constant 4 : i64
    %10 = constant 32 : i32
    %11 = constant 32 : i64
    %12 = sext %10 : i32 to i64
    cond_br %8, ^bb3(%5, %6 : i32, i64), ^bb4(%5 : i32)
  ^bb3(%13: i32, %14: i64):
    %15 = mul %14, %9 : i64
    %16 = ptradd %1, %15 : !llvm.ptr<1>, i64
    %17 = load %16 {align = 4 : i32} : !llvm.ptr<1> -> i32
    %18 = add %13, %17 nsw : i32
    %19 = add %14, %11 nsw : i64
    %20 = icmp slt, %19, %7 : i64
    cond_br %20, ^bb3(%18, %19 : i32, i64), ^bb4(%18 : i32)
  ^bb4(%21: i32):
    br ^bb5
  ^bb5:
    %22 = constant 4 : i64
    %23 = mul %4, %22 : i64
    %24 = ptradd %0, %23 : !llvm.ptr<1>, i64
    store %21, %24 {align = 4 : i32} : i32, !llvm.ptr<1>
    return
  }
  nvvm.func kernel @_Z10beyond_intPx(%arg0: !llvm.ptr) {
    %0 = addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<1>
    br ^bb1
  ^bb1:
    %1 = constant 0 : i32
    %2 = constant 0 : i64
    %3 = sext %1 : i32 to i64
    %4 = sreg tid_x : i32
    %5 = zext %4 : i32 to i64
    %6 = constant 1 : i64
    %7 = constant 33 : i32
    %8 = constant 33 : i64
    %9 = sext %7 : i32 to i64
    %10 = constant 8589934592 : i64
    %11 = shl %6, %8 : i64
    %12 = constant 5368709120 : i64
    %13 = constant 30 : i32
    %14 = constant 30 : i64
    %15 = sext %13 : i32 to i64
    %16 = constant 1073741824 : i64
    %17 = shl %6, %14 : i64
    br ^bb2(%2, %2, %5 : i64, i64, i64)
  ^bb2(%18: i64, %19: i64, %20: i64):
    %21 = icmp slt, %20, %10 : i64
    %22 = icmp slt, %20, %12 : i64
    cond_br %22, ^bb3, ^bb10(%18, %19, %20 : i64, i64, i64)
  ^bb3:
    %23 = add %18, %6 nsw : i64
    %24 = add %20, %16 nsw : i64
    br ^bb4
  ^bb4:
    %25 = icmp slt, %24, %10 : i64
    br ^bb5
  ^bb5:
    %26 = add %23, %6 nsw : i64
    %27 = add %24, %16 nsw : i64
    br ^bb6
  ^bb6:
    %28 = icmp slt, %27, %10 : i64
    br ^bb7
  ^bb7:
    %29 = add %26, %6 nsw : i64
    %30 = add %27, %16 nsw : i64
    br ^bb8
  ^bb8:
    %31 = icmp slt, %30, %10 : i64
    br ^bb9
  ^bb9:
    %32 = add %29, %6 nsw : i64
    %33 = add %30, %16 nsw : i64
    br ^bb2(%32, %30, %33 : i64, i64, i64)
  ^bb10(%34: i64, %35: i64, %36: i64):
    %37 = icmp slt, %36, %10 : i64
    %38 = constant 30 : i32
    %39 = constant 30 : i64
    %40 = sext %38 : i32 to i64
    %41 = constant 1073741824 : i64
    %42 = shl %6, %39 : i64
    cond_br %37, ^bb11(%34, %36 : i64, i64), ^bb12(%34, %35 : i64, i64)
  ^bb11(%43: i64, %44: i64):
    %45 = add %43, %6 nsw : i64
    %46 = add %44, %41 nsw : i64
    %47 = icmp slt, %46, %10 : i64
    cond_br %47, ^bb11(%45, %46 : i64, i64), ^bb12(%45, %44 : i64, i64)
  ^bb12(%48: i64, %49: i64):
    br ^bb13
  ^bb13:
    %50 = constant 2 : i32
    %51 = mul %50, %4 : i32
    %52 = zext %51 : i32 to i64
    %53 = constant 8 : i64
    %54 = mul %52, %53 : i64
    %55 = ptradd %0, %54 : !llvm.ptr<1>, i64
    store %48, %55 {align = 8 : i32} : i64, !llvm.ptr<1>
    %56 = constant 1 : i32
    %57 = add %51, %56 : i32
    %58 = zext %57 : i32 to i64
    %59 = mul %58, %53 : i64
    %60 = ptradd %0, %59 : !llvm.ptr<1>, i64
    store %49, %60 {align = 8 : i32} : i64, !llvm.ptr<1>
    return
  }
}
