// RUN: --pass-pipeline=builtin.module(nvvm.func(loop-unroll,sccp,canonicalize)) --pass-statistics
// loop-unroll on the kernels of tests/ptx/unrolling.cu (`cuprite compile unrolling.cu
// -fno-unroll-loops --emit=nvvm`): fully unrolled are the #pragma unroll tap loop of fir,
// the three small loops of channels (no pragma; counting up, counting down, unsigned with
// !=) and the #pragma unroll loop nested in rows' loop; unrolled by a factor (a new loop
// in front runs that many trips a round while the bound is far enough, the loop itself
// the rest) are kept's 200-trip loop (by eight, which divides 200: the new loop leaves
// straight to the exit and the loop of the rest goes), its #pragma unroll 4 loop and
// runtime_trips' loops (by four); kept rolled are rows' outer loop (not innermost) and
// kept's #pragma unroll 1 loop.
module {
  nvvm.global constant @taps {align = 4 : i32, size = 36 : i64}
  nvvm.func kernel @_Z3firPKfPfi(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i32) {
    %0 = constant 4 : i32
    %1 = constant true
    %2 = constant 0.000000e+00 : f32
    %3 = constant -4 : i32
    %4 = constant 4 : i64
    %5 = constant 1 : i32
    %6 = addrspacecast %arg1 : !llvm.ptr to !llvm.ptr<1>
    %7 = addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<1>
    %8 = sreg ctaid_x : i32
    %9 = sreg ntid_x : i32
    %10 = mul %8, %9 : i32
    %11 = sreg tid_x : i32
    %12 = add %10, %11 : i32
    %13 = icmp slt, %12, %0 : i32
    cond_br %13, ^bb1, ^bb2
  ^bb1:
    br ^bb3(%1 : i1)
  ^bb2:
    %14 = sub %arg2, %0 : i32
    %15 = icmp sge, %12, %14 : i32
    br ^bb3(%15 : i1)
  ^bb3(%16: i1):
    cond_br %16, ^bb4, ^bb5
  ^bb4:
    return
  ^bb5:
    br ^bb6(%2, %3 : f32, i32)
  ^bb6(%17: f32, %18: i32):
    %19 = icmp sle, %18, %0 : i32
    cond_br %19, ^bb7, ^bb8
  ^bb7:
    %20 = addressof @taps : !llvm.ptr<4>
    %21 = add %18, %0 : i32
    %22 = sext %21 : i32 to i64
    %23 = mul %22, %4 : i64
    %24 = ptradd %20, %23 : !llvm.ptr<4>, i64
    %25 = add %12, %18 : i32
    %26 = sext %25 : i32 to i64
    %27 = mul %26, %4 : i64
    %28 = ptradd %7, %27 : !llvm.ptr<1>, i64
    %29 = load %24 {align = 4 : i32} : !llvm.ptr<4> -> f32
    %30 = load %28 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %31 = fmul %29, %30 {contract} : f32
    %32 = fadd %17, %31 {contract} : f32
    %33 = add %18, %5 : i32
    br ^bb6(%32, %33 : f32, i32) {unroll = 0 : i32}
  ^bb8:
    %34 = sext %12 : i32 to i64
    %35 = mul %34, %4 : i64
    %36 = ptradd %6, %35 : !llvm.ptr<1>, i64
    store %17, %36 {align = 4 : i32} : f32, !llvm.ptr<1>
    return
  }
  nvvm.func kernel @_Z8channelsPK5PixelPji(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i32) {
    %0 = constant 4 : i64
    %1 = constant 0 : i32
    %2 = constant 4 : i32
    %3 = constant 31 : i32
    %4 = constant 1 : i32
    %5 = constant 3 : i32
    %6 = constant 8 : i32
    %7 = constant 6 : i32
    %8 = constant 2 : i32
    %9 = addrspacecast %arg1 : !llvm.ptr to !llvm.ptr<1>
    %10 = addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<1>
    %11 = sreg ctaid_x : i32
    %12 = sreg ntid_x : i32
    %13 = mul %11, %12 : i32
    %14 = sreg tid_x : i32
    %15 = add %13, %14 : i32
    %16 = icmp sge, %15, %arg2 : i32
    cond_br %16, ^bb1, ^bb2
  ^bb1:
    return
  ^bb2:
    %17 = sext %15 : i32 to i64
    %18 = mul %17, %0 : i64
    %19 = ptradd %10, %18 : !llvm.ptr<1>, i64
    br ^bb3(%1, %1 : i32, i32)
  ^bb3(%20: i32, %21: i32):
    %22 = icmp slt, %21, %2 : i32
    cond_br %22, ^bb4, ^bb5
  ^bb4:
    %23 = mul %20, %3 : i32
    %24 = sext %21 : i32 to i64
    %25 = ptradd %19, %24 : !llvm.ptr<1>, i64
    %26 = load %25 {align = 1 : i32} : !llvm.ptr<1> -> i8
    %27 = zext %26 : i8 to i32
    %28 = add %23, %27 : i32
    %29 = add %21, %4 : i32
    br ^bb3(%28, %29 : i32, i32)
  ^bb5:
    br ^bb6(%20, %5 : i32, i32)
  ^bb6(%30: i32, %31: i32):
    %32 = icmp sge, %31, %1 : i32
    cond_br %32, ^bb7, ^bb8
  ^bb7:
    %33 = sext %31 : i32 to i64
    %34 = ptradd %19, %33 : !llvm.ptr<1>, i64
    %35 = load %34 {align = 1 : i32} : !llvm.ptr<1> -> i8
    %36 = zext %35 : i8 to i32
    %37 = mul %31, %6 : i32
    %38 = shl %36, %37 : i32
    %39 = xor %30, %38 : i32
    %40 = sub %31, %4 : i32
    br ^bb6(%39, %40 : i32, i32)
  ^bb8:
    br ^bb9(%30, %1 : i32, i32)
  ^bb9(%41: i32, %42: i32):
    %43 = icmp ne, %42, %7 : i32
    cond_br %43, ^bb10, ^bb11
  ^bb10:
    %44 = udiv %42, %8 : i32
    %45 = zext %44 : i32 to i64
    %46 = ptradd %19, %45 : !llvm.ptr<1>, i64
    %47 = load %46 {align = 1 : i32} : !llvm.ptr<1> -> i8
    %48 = zext %47 : i8 to i32
    %49 = mul %42, %48 : i32
    %50 = add %41, %49 : i32
    %51 = add %42, %8 : i32
    br ^bb9(%50, %51 : i32, i32)
  ^bb11:
    %52 = ptradd %9, %18 : !llvm.ptr<1>, i64
    store %41, %52 {align = 4 : i32} : i32, !llvm.ptr<1>
    return
  }
  nvvm.func kernel @_Z4rowsPKfPfii(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i32, %arg3: i32) {
    %0 = constant 1.000000e+30 : f32
    %1 = constant 0 : i32
    %2 = constant 0.000000e+00 : f32
    %3 = constant 8 : i32
    %4 = constant 4 : i64
    %5 = constant 1 : i32
    %6 = addrspacecast %arg1 : !llvm.ptr to !llvm.ptr<1>
    %7 = addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<1>
    %8 = sreg ctaid_x : i32
    %9 = sreg ntid_x : i32
    %10 = mul %8, %9 : i32
    %11 = sreg tid_x : i32
    %12 = add %10, %11 : i32
    %13 = icmp sge, %12, %arg2 : i32
    cond_br %13, ^bb1, ^bb2
  ^bb1:
    return
  ^bb2:
    %14 = fneg %0 : f32
    br ^bb3(%14, %1 : f32, i32)
  ^bb3(%15: f32, %16: i32):
    %17 = icmp slt, %16, %arg3 : i32
    cond_br %17, ^bb4, ^bb8
  ^bb4:
    br ^bb5(%2, %1 : f32, i32)
  ^bb5(%18: f32, %19: i32):
    %20 = icmp slt, %19, %3 : i32
    cond_br %20, ^bb6, ^bb7
  ^bb6:
    %21 = mul %12, %arg3 : i32
    %22 = add %21, %16 : i32
    %23 = add %22, %19 : i32
    %24 = sext %23 : i32 to i64
    %25 = mul %24, %4 : i64
    %26 = ptradd %7, %25 : !llvm.ptr<1>, i64
    %27 = load %26 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %28 = fadd %18, %27 {contract} : f32
    %29 = add %19, %5 : i32
    br ^bb5(%28, %29 : f32, i32) {unroll = 0 : i32}
  ^bb7:
    %30 = intr "max"(%15, %18) : (f32, f32) -> f32
    %31 = add %16, %3 : i32
    br ^bb3(%30, %31 : f32, i32)
  ^bb8:
    %32 = sext %12 : i32 to i64
    %33 = mul %32, %4 : i64
    %34 = ptradd %6, %33 : !llvm.ptr<1>, i64
    store %15, %34 {align = 4 : i32} : f32, !llvm.ptr<1>
    return
  }
  nvvm.func kernel @_Z4keptPKiPii(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i32) {
    %0 = constant 4 : i64
    %1 = constant 0 : i32
    %2 = constant 4 : i32
    %3 = constant 33 : i32
    %4 = constant 1 : i32
    %5 = constant 200 : i32
    %6 = constant 7 : i32
    %7 = constant 64 : i32
    %8 = addrspacecast %arg1 : !llvm.ptr to !llvm.ptr<1>
    %9 = addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<1>
    %10 = sreg ctaid_x : i32
    %11 = sreg ntid_x : i32
    %12 = mul %10, %11 : i32
    %13 = sreg tid_x : i32
    %14 = add %12, %13 : i32
    %15 = icmp sge, %14, %arg2 : i32
    cond_br %15, ^bb1, ^bb2
  ^bb1:
    return
  ^bb2:
    %16 = sext %14 : i32 to i64
    %17 = mul %16, %0 : i64
    %18 = ptradd %9, %17 : !llvm.ptr<1>, i64
    %19 = load %18 {align = 4 : i32} : !llvm.ptr<1> -> i32
    br ^bb3(%1, %1 : i32, i32)
  ^bb3(%20: i32, %21: i32):
    %22 = icmp slt, %21, %2 : i32
    cond_br %22, ^bb4, ^bb5
  ^bb4:
    %23 = mul %20, %3 : i32
    %24 = ashr %19, %21 : i32
    %25 = add %23, %24 : i32
    %26 = add %21, %4 : i32
    br ^bb3(%25, %26 : i32, i32) {unroll = 1 : i32}
  ^bb5:
    br ^bb6(%20, %1 : i32, i32)
  ^bb6(%27: i32, %28: i32):
    %29 = icmp slt, %28, %5 : i32
    cond_br %29, ^bb7, ^bb8
  ^bb7:
    %30 = xor %19, %28 : i32
    %31 = and %30, %6 : i32
    %32 = add %27, %31 : i32
    %33 = add %28, %4 : i32
    br ^bb6(%32, %33 : i32, i32)
  ^bb8:
    br ^bb9(%27, %1 : i32, i32)
  ^bb9(%34: i32, %35: i32):
    %36 = icmp slt, %35, %7 : i32
    cond_br %36, ^bb10, ^bb11
  ^bb10:
    %37 = and %35, %19 : i32
    %38 = sub %34, %37 : i32
    %39 = add %35, %4 : i32
    br ^bb9(%38, %39 : i32, i32) {unroll = 4 : i32}
  ^bb11:
    %40 = ptradd %8, %17 : !llvm.ptr<1>, i64
    store %34, %40 {align = 4 : i32} : i32, !llvm.ptr<1>
    return
  }
  nvvm.func kernel @_Z13runtime_tripsPKiPiiijii(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i32, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32) {
    %0 = constant 7 : i32
    %1 = constant 0 : i32
    %2 = constant 63 : i32
    %3 = constant 4 : i64
    %4 = constant 1 : i32
    %5 = constant 3 : i32
    %6 = constant 2 : i32
    %7 = constant 5 : i32
    %8 = constant 20 : i32
    %9 = addrspacecast %arg1 : !llvm.ptr to !llvm.ptr<1>
    %10 = addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<1>
    %11 = sreg tid_x : i32
    %12 = and %11, %0 : i32
    %13 = add %arg3, %12 : i32
    br ^bb1(%1, %arg2 : i32, i32)
  ^bb1(%14: i32, %15: i32):
    %16 = icmp slt, %15, %13 : i32
    cond_br %16, ^bb2, ^bb3(%14, %13 : i32, i32)
  ^bb2:
    %17 = add %15, %11 : i32
    %18 = and %17, %2 : i32
    %19 = sext %18 : i32 to i64
    %20 = mul %19, %3 : i64
    %21 = ptradd %10, %20 : !llvm.ptr<1>, i64
    %22 = load %21 {align = 4 : i32} : !llvm.ptr<1> -> i32
    %23 = add %14, %22 : i32
    %24 = add %15, %4 : i32
    br ^bb1(%23, %24 : i32, i32)
  ^bb3(%25: i32, %26: i32):
    %27 = icmp sge, %26, %arg2 : i32
    cond_br %27, ^bb4, ^bb5
  ^bb4:
    %28 = mul %26, %0 : i32
    %29 = add %28, %11 : i32
    %30 = and %29, %2 : i32
    %31 = sext %30 : i32 to i64
    %32 = mul %31, %3 : i64
    %33 = ptradd %10, %32 : !llvm.ptr<1>, i64
    %34 = load %33 {align = 4 : i32} : !llvm.ptr<1> -> i32
    %35 = xor %25, %34 : i32
    %36 = sub %26, %5 : i32
    br ^bb3(%35, %36 : i32, i32)
  ^bb5:
    br ^bb6(%25, %1 : i32, i32)
  ^bb6(%37: i32, %38: i32):
    %39 = add %arg4, %11 : i32
    %40 = icmp ult, %38, %39 : i32
    cond_br %40, ^bb7, ^bb8(%37, %arg2 : i32, i32)
  ^bb7:
    %41 = add %37, %38 : i32
    %42 = add %38, %6 : i32
    br ^bb6(%41, %42 : i32, i32)
  ^bb8(%43: i32, %44: i32):
    %45 = icmp ne, %44, %13 : i32
    cond_br %45, ^bb9, ^bb10(%43, %arg2 : i32, i32)
  ^bb9:
    %46 = sub %43, %44 : i32
    %47 = add %44, %4 : i32
    br ^bb8(%46, %47 : i32, i32)
  ^bb10(%48: i32, %49: i32):
    %50 = sub %13, %7 : i32
    %51 = icmp sle, %49, %50 : i32
    cond_br %51, ^bb11, ^bb12
  ^bb11:
    %52 = and %49, %11 : i32
    %53 = add %48, %52 : i32
    %54 = add %49, %7 : i32
    br ^bb10(%53, %54 : i32, i32)
  ^bb12:
    %55 = sub %arg5, %11 : i32
    br ^bb13(%48, %55 : i32, i32)
  ^bb13(%56: i32, %57: i32):
    %58 = icmp slt, %57, %arg6 : i32
    cond_br %58, ^bb14, ^bb15
  ^bb14:
    %59 = ashr %57, %8 : i32
    %60 = add %56, %59 : i32
    %61 = add %57, %4 : i32
    br ^bb13(%60, %61 : i32, i32)
  ^bb15:
    %62 = sext %11 : i32 to i64
    %63 = mul %62, %3 : i64
    %64 = ptradd %9, %63 : !llvm.ptr<1>, i64
    store %56, %64 {align = 4 : i32} : i32, !llvm.ptr<1>
    return
  }
}

