// RUN: --pass-pipeline=builtin.module(nvvm.func(loop-reduce{lsr-rp-limit=12})) --pass-statistics
// loop-reduce with lsr-rp-limit=12 on the nvvm IR of two kernels of tests/ptx/invariants.cu just before the
// pass in the -O3 pipeline (`--print-ir-before=loop-reduce`). column_sum: the four
// unrolled copies' addresses `m[(r + k) * stride + c]` share one pointer that advances by
// `4 * stride * 4` bytes a round, each copy `+ k * stride * 4` from it, and the remainder
// loop gets its own. strides: the 64-bit counter's addresses become a pointer
// (do-lsr-64-bit); the unsigned index (a zero extension, not distributed) and the step
// known only at run time (blockDim.x) keep their arithmetic.
// With the limit at 12 registers, the loops whose pressure estimate passes it are left
// alone (`loops left for register pressure`).
module {
  nvvm.func kernel @_Z10column_sumPKfPK6ParamsPfi(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: !llvm.ptr, %arg3: i32) {
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
    %8 = constant 0.000000e+00 : f32
    %9 = constant 0 : i32
    br ^bb2(%8, %9 : f32, i32)
  ^bb2(%10: f32, %11: i32):
    %12 = icmp slt, %11, %arg3 : i32
    %13 = sub %arg3, %11 : i32
    %14 = constant 3 : i32
    %15 = icmp ugt, %13, %14 : i32
    %16 = and %12, %15 : i1
    cond_br %16, ^bb3, ^bb11(%10, %11 : f32, i32)
  ^bb3:
    %17 = load %1 {align = 4 : i32} : !llvm.ptr<1> -> i32
    %18 = constant 4 : i64
    %19 = ptradd %1, %18 : !llvm.ptr<1>, i64
    %20 = load %19 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %21 = sitofp %arg3 : i32 to f32
    %22 = constant 1 : i32
    br ^bb4(%10, %11 : f32, i32)
  ^bb4(%23: f32, %24: i32):
    %25 = mul %24, %17 nsw : i32
    %26 = add %25, %7 nsw : i32
    %27 = sext %26 : i32 to i64
    %28 = mul %27, %18 : i64
    %29 = ptradd %2, %28 : !llvm.ptr<1>, i64
    %30 = load %29 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %31 = fmul %30, %20 {contract} : f32
    %32 = fmul %31, %21 {contract} : f32
    %33 = fadd %23, %32 {contract} : f32
    %34 = add %24, %22 nsw : i32
    br ^bb5
  ^bb5:
    %35 = icmp slt, %34, %arg3 : i32
    br ^bb6
  ^bb6:
    %36 = mul %34, %17 nsw : i32
    %37 = add %36, %7 nsw : i32
    %38 = sext %37 : i32 to i64
    %39 = mul %38, %18 : i64
    %40 = ptradd %2, %39 : !llvm.ptr<1>, i64
    %41 = load %40 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %42 = fmul %41, %20 {contract} : f32
    %43 = fmul %42, %21 {contract} : f32
    %44 = fadd %33, %43 {contract} : f32
    %45 = add %34, %22 nsw : i32
    br ^bb7
  ^bb7:
    %46 = icmp slt, %45, %arg3 : i32
    br ^bb8
  ^bb8:
    %47 = mul %45, %17 nsw : i32
    %48 = add %47, %7 nsw : i32
    %49 = sext %48 : i32 to i64
    %50 = mul %49, %18 : i64
    %51 = ptradd %2, %50 : !llvm.ptr<1>, i64
    %52 = load %51 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %53 = fmul %52, %20 {contract} : f32
    %54 = fmul %53, %21 {contract} : f32
    %55 = fadd %44, %54 {contract} : f32
    %56 = add %45, %22 nsw : i32
    br ^bb9
  ^bb9:
    %57 = icmp slt, %56, %arg3 : i32
    br ^bb10
  ^bb10:
    %58 = mul %56, %17 nsw : i32
    %59 = add %58, %7 nsw : i32
    %60 = sext %59 : i32 to i64
    %61 = mul %60, %18 : i64
    %62 = ptradd %2, %61 : !llvm.ptr<1>, i64
    %63 = load %62 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %64 = fmul %63, %20 {contract} : f32
    %65 = fmul %64, %21 {contract} : f32
    %66 = fadd %55, %65 {contract} : f32
    %67 = add %56, %22 nsw : i32
    %68 = icmp slt, %67, %arg3 : i32
    %69 = sub %arg3, %67 : i32
    %70 = icmp ugt, %69, %14 : i32
    %71 = and %68, %70 : i1
    cond_br %71, ^bb4(%66, %67 : f32, i32), ^bb11(%66, %67 : f32, i32)
  ^bb11(%72: f32, %73: i32):
    %74 = icmp slt, %73, %arg3 : i32
    cond_br %74, ^bb12, ^bb14(%72 : f32)
  ^bb12:
    %75 = load %1 {align = 4 : i32} : !llvm.ptr<1> -> i32
    %76 = constant 4 : i64
    %77 = ptradd %1, %76 : !llvm.ptr<1>, i64
    %78 = load %77 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %79 = sitofp %arg3 : i32 to f32
    %80 = constant 1 : i32
    br ^bb13(%72, %73 : f32, i32)
  ^bb13(%81: f32, %82: i32):
    %83 = mul %82, %75 nsw : i32
    %84 = add %83, %7 nsw : i32
    %85 = sext %84 : i32 to i64
    %86 = mul %85, %76 : i64
    %87 = ptradd %2, %86 : !llvm.ptr<1>, i64
    %88 = load %87 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %89 = fmul %88, %78 {contract} : f32
    %90 = fmul %89, %79 {contract} : f32
    %91 = fadd %81, %90 {contract} : f32
    %92 = add %82, %80 nsw : i32
    %93 = icmp slt, %92, %arg3 : i32
    cond_br %93, ^bb13(%91, %92 : f32, i32), ^bb14(%91 : f32)
  ^bb14(%94: f32):
    br ^bb15
  ^bb15:
    %95 = sext %7 : i32 to i64
    %96 = constant 4 : i64
    %97 = mul %95, %96 : i64
    %98 = ptradd %0, %97 : !llvm.ptr<1>, i64
    store %94, %98 {align = 4 : i32} : f32, !llvm.ptr<1>
    return
  }
  nvvm.func kernel @_Z7stridesPKfPfji(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i32, %arg3: i32) {
    %0 = addrspacecast %arg1 : !llvm.ptr to !llvm.ptr<1>
    %1 = addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<1>
    br ^bb1
  ^bb1:
    %2 = sreg tid_x : i32
    %3 = constant 0.000000e+00 : f32
    %4 = constant 0 : i32
    br ^bb2(%3, %4 : f32, i32)
  ^bb2(%5: f32, %6: i32):
    %7 = icmp ult, %6, %arg2 : i32
    %8 = sub %arg2, %6 : i32
    %9 = constant 3 : i32
    %10 = icmp ugt, %8, %9 : i32
    %11 = and %7, %10 : i1
    %12 = constant 4 : i64
    %13 = constant 1 : i32
    cond_br %11, ^bb3(%5, %6 : f32, i32), ^bb10(%5, %6 : f32, i32)
  ^bb3(%14: f32, %15: i32):
    %16 = mul %15, %arg3 : i32
    %17 = add %16, %2 : i32
    %18 = zext %17 : i32 to i64
    %19 = mul %18, %12 : i64
    %20 = ptradd %1, %19 : !llvm.ptr<1>, i64
    %21 = load %20 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %22 = fadd %14, %21 {contract} : f32
    %23 = add %15, %13 : i32
    br ^bb4
  ^bb4:
    %24 = icmp ult, %23, %arg2 : i32
    br ^bb5
  ^bb5:
    %25 = mul %23, %arg3 : i32
    %26 = add %25, %2 : i32
    %27 = zext %26 : i32 to i64
    %28 = mul %27, %12 : i64
    %29 = ptradd %1, %28 : !llvm.ptr<1>, i64
    %30 = load %29 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %31 = fadd %22, %30 {contract} : f32
    %32 = add %23, %13 : i32
    br ^bb6
  ^bb6:
    %33 = icmp ult, %32, %arg2 : i32
    br ^bb7
  ^bb7:
    %34 = mul %32, %arg3 : i32
    %35 = add %34, %2 : i32
    %36 = zext %35 : i32 to i64
    %37 = mul %36, %12 : i64
    %38 = ptradd %1, %37 : !llvm.ptr<1>, i64
    %39 = load %38 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %40 = fadd %31, %39 {contract} : f32
    %41 = add %32, %13 : i32
    br ^bb8
  ^bb8:
    %42 = icmp ult, %41, %arg2 : i32
    br ^bb9
  ^bb9:
    %43 = mul %41, %arg3 : i32
    %44 = add %43, %2 : i32
    %45 = zext %44 : i32 to i64
    %46 = mul %45, %12 : i64
    %47 = ptradd %1, %46 : !llvm.ptr<1>, i64
    %48 = load %47 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %49 = fadd %40, %48 {contract} : f32
    %50 = add %41, %13 : i32
    %51 = icmp ult, %50, %arg2 : i32
    %52 = sub %arg2, %50 : i32
    %53 = icmp ugt, %52, %9 : i32
    %54 = and %51, %53 : i1
    cond_br %54, ^bb3(%49, %50 : f32, i32), ^bb10(%49, %50 : f32, i32)
  ^bb10(%55: f32, %56: i32):
    %57 = icmp ult, %56, %arg2 : i32
    %58 = constant 4 : i64
    %59 = constant 1 : i32
    cond_br %57, ^bb11(%55, %56 : f32, i32), ^bb12(%55 : f32)
  ^bb11(%60: f32, %61: i32):
    %62 = mul %61, %arg3 : i32
    %63 = add %62, %2 : i32
    %64 = zext %63 : i32 to i64
    %65 = mul %64, %58 : i64
    %66 = ptradd %1, %65 : !llvm.ptr<1>, i64
    %67 = load %66 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %68 = fadd %60, %67 {contract} : f32
    %69 = add %61, %59 : i32
    %70 = icmp ult, %69, %arg2 : i32
    cond_br %70, ^bb11(%68, %69 : f32, i32), ^bb12(%68 : f32)
  ^bb12(%71: f32):
    br ^bb13
  ^bb13:
    br ^bb14(%71, %4 : f32, i32)
  ^bb14(%72: f32, %73: i32):
    %74 = icmp slt, %73, %arg2 : i32
    %75 = constant 1 : i32
    %76 = constant 4 : i64
    %77 = sreg ntid_x : i32
    cond_br %74, ^bb15(%72, %73 : f32, i32), ^bb16(%72 : f32)
  ^bb15(%78: f32, %79: i32):
    %80 = mul %79, %arg3 nsw : i32
    %81 = add %80, %75 nsw : i32
    %82 = sext %81 : i32 to i64
    %83 = mul %82, %76 : i64
    %84 = ptradd %1, %83 : !llvm.ptr<1>, i64
    %85 = load %84 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %86 = fadd %78, %85 {contract} : f32
    %87 = add %79, %77 : i32
    %88 = icmp slt, %87, %arg2 : i32
    cond_br %88, ^bb15(%86, %87 : f32, i32), ^bb16(%86 : f32)
  ^bb16(%89: f32):
    br ^bb17
  ^bb17:
    %90 = constant 0 : i64
    %91 = sext %4 : i32 to i64
    br ^bb18(%89, %90 : f32, i64)
  ^bb18(%92: f32, %93: i64):
    %94 = zext %arg2 : i32 to i64
    %95 = icmp slt, %93, %94 : i64
    %96 = sext %arg3 : i32 to i64
    %97 = zext %2 : i32 to i64
    %98 = constant 4 : i64
    %99 = constant 5.000000e-01 : f32
    %100 = constant 1 : i64
    cond_br %95, ^bb19(%92, %93 : f32, i64), ^bb20(%92 : f32)
  ^bb19(%101: f32, %102: i64):
    %103 = mul %102, %96 nsw : i64
    %104 = add %103, %97 nsw : i64
    %105 = mul %104, %98 : i64
    %106 = ptradd %1, %105 : !llvm.ptr<1>, i64
    %107 = load %106 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %108 = fmul %107, %99 {contract} : f32
    %109 = fadd %101, %108 {contract} : f32
    %110 = add %102, %100 nsw : i64
    %111 = icmp slt, %110, %94 : i64
    cond_br %111, ^bb19(%109, %110 : f32, i64), ^bb20(%109 : f32)
  ^bb20(%112: f32):
    br ^bb21
  ^bb21:
    %113 = zext %2 : i32 to i64
    %114 = constant 4 : i64
    %115 = mul %113, %114 : i64
    %116 = ptradd %0, %115 : !llvm.ptr<1>, i64
    store %112, %116 {align = 4 : i32} : f32, !llvm.ptr<1>
    return
  }
}
