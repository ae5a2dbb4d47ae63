// RUN: --pass-pipeline='builtin.module(nvvm.func(remat{remat-maxreg-ceiling=24 remat-ignore-single-cost=true dump-remat=1}))' --pass-statistics
// remat with cicc's register ceiling (remat-maxreg-ceiling=24) on plain_taps of
// tests/ptx/occupancy.cu (its IR before `slsr` chained the hoisted strides, as in
// remat.mlir), with the per-value cost limit off: the taps (two flops from the parameters
// `w` and `s`) are recomputed before each use in the loop that a stretch above 24
// registers separates from the last copy (`remat_`, then `uclone_`), and the scaled
// strides before their loads, over 5 rounds: the estimate goes from 43 registers to 25.
// (tests/tests/remat.rs runs every corpus launch before and after remat with a ceiling of
// 16 and no cost limit: the simulator agrees bit for bit.)
module {
  nvvm.func kernel @_Z10plain_tapsPKfPf4Tapsii(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: f32, %arg3: f32, %arg4: i32, %arg5: i32) attributes {cuprite.byval = [array<i64>, array<i64>, array<i64: 8, 4, 0, 4>, array<i64>, array<i64>]} {
    %0 = constant 0.000000e+00 : f32
    %1 = constant 4 : i64
    %2 = constant 5.000000e-01 : f32
    %3 = constant 2.500000e-01 : f32
    %4 = constant 1.250000e-01 : f32
    %5 = constant 2.000000e+00 : f32
    %6 = constant 6.250000e-02 : f32
    %7 = constant 7.500000e-01 : f32
    %8 = constant 3.000000e+00 : f32
    %9 = constant 1.500000e+00 : f32
    %10 = constant 2.500000e+00 : f32
    %11 = constant 3.500000e+00 : f32
    %12 = constant 2 : i32
    %13 = constant 3 : i32
    %14 = constant 4 : i32
    %15 = constant 5 : i32
    %16 = constant 6 : i32
    %17 = constant 7 : i32
    %18 = addrspacecast %arg1 : !llvm.ptr to !llvm.ptr<1>
    %19 = addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<1>
    %20 = sreg ctaid_x : i32
    %21 = sreg ntid_x : i32
    %22 = mul %20, %21 : i32
    %23 = sreg tid_x : i32
    %24 = add %22, %23 : i32
    %25 = icmp slt, %24, %arg5 : i32
    %26 = fmul %arg2, %2 {contract} : f32
    %27 = fadd %26, %arg3 {contract} : f32
    %28 = fmul %arg2, %3 {contract} : f32
    %29 = fsub %28, %arg3 {contract} : f32
    %30 = fmul %arg2, %4 {contract} : f32
    %31 = fmul %5, %arg3 {contract} : f32
    %32 = fadd %30, %31 {contract} : f32
    %33 = fmul %arg2, %6 {contract} : f32
    %34 = fsub %33, %31 {contract} : f32
    %35 = fmul %arg2, %7 {contract} : f32
    %36 = fmul %arg3, %8 {contract} : f32
    %37 = fadd %35, %36 {contract} : f32
    %38 = fmul %arg2, %9 {contract} : f32
    %39 = fsub %38, %36 {contract} : f32
    %40 = fmul %arg2, %10 {contract} : f32
    %41 = fadd %40, %arg3 {contract} : f32
    %42 = fmul %arg2, %11 {contract} : f32
    %43 = fsub %42, %arg3 {contract} : f32
    %44 = sext %arg4 : i32 to i64
    %45 = mul %44, %1 : i64
    %46 = mul %arg4, %12 nsw : i32
    %47 = sext %46 : i32 to i64
    %48 = mul %47, %1 : i64
    %49 = mul %arg4, %13 nsw : i32
    %50 = sext %49 : i32 to i64
    %51 = mul %50, %1 : i64
    %52 = mul %arg4, %14 nsw : i32
    %53 = sext %52 : i32 to i64
    %54 = mul %53, %1 : i64
    %55 = mul %arg4, %15 nsw : i32
    %56 = sext %55 : i32 to i64
    %57 = mul %56, %1 : i64
    %58 = mul %arg4, %16 nsw : i32
    %59 = sext %58 : i32 to i64
    %60 = mul %59, %1 : i64
    %61 = mul %arg4, %17 nsw : i32
    %62 = sext %61 : i32 to i64
    %63 = mul %62, %1 : i64
    %64 = sreg nctaid_x : i32
    %65 = mul %64, %21 : i32
    cond_br %25, ^bb1(%24, %0, %0, %0, %0 : i32, f32, f32, f32, f32), ^bb2(%0, %0, %0, %0 : f32, f32, f32, f32)
  ^bb1(%66: i32, %67: f32, %68: f32, %69: f32, %70: f32):
    %71 = sext %66 : i32 to i64
    %72 = mul %71, %1 : i64
    %73 = ptradd %19, %72 : !llvm.ptr<1>, i64
    %74 = load %73 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %75 = ptradd %73, %45 : !llvm.ptr<1>, i64
    %76 = load %75 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %77 = ptradd %73, %48 : !llvm.ptr<1>, i64
    %78 = load %77 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %79 = ptradd %73, %51 : !llvm.ptr<1>, i64
    %80 = load %79 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %81 = ptradd %73, %54 : !llvm.ptr<1>, i64
    %82 = load %81 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %83 = ptradd %73, %57 : !llvm.ptr<1>, i64
    %84 = load %83 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %85 = ptradd %73, %60 : !llvm.ptr<1>, i64
    %86 = load %85 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %87 = ptradd %73, %63 : !llvm.ptr<1>, i64
    %88 = load %87 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %89 = fmul %27, %74 {contract} : f32
    %90 = fmul %29, %76 {contract} : f32
    %91 = fadd %89, %90 {contract} : f32
    %92 = fmul %32, %78 {contract} : f32
    %93 = fadd %91, %92 {contract} : f32
    %94 = fmul %34, %80 {contract} : f32
    %95 = fadd %93, %94 {contract} : f32
    %96 = fadd %70, %95 {contract} : f32
    %97 = fmul %37, %82 {contract} : f32
    %98 = fmul %39, %84 {contract} : f32
    %99 = fadd %97, %98 {contract} : f32
    %100 = fmul %41, %86 {contract} : f32
    %101 = fadd %99, %100 {contract} : f32
    %102 = fmul %43, %88 {contract} : f32
    %103 = fadd %101, %102 {contract} : f32
    %104 = fadd %69, %103 {contract} : f32
    %105 = fmul %27, %88 {contract} : f32
    %106 = fmul %43, %74 {contract} : f32
    %107 = fadd %105, %106 {contract} : f32
    %108 = fmul %34, %82 {contract} : f32
    %109 = fadd %107, %108 {contract} : f32
    %110 = fmul %37, %80 {contract} : f32
    %111 = fadd %109, %110 {contract} : f32
    %112 = fadd %68, %111 {contract} : f32
    %113 = fmul %29, %86 {contract} : f32
    %114 = fmul %41, %76 {contract} : f32
    %115 = fadd %113, %114 {contract} : f32
    %116 = fmul %32, %84 {contract} : f32
    %117 = fadd %115, %116 {contract} : f32
    %118 = fmul %39, %78 {contract} : f32
    %119 = fadd %117, %118 {contract} : f32
    %120 = fadd %67, %119 {contract} : f32
    %121 = add %66, %65 : i32
    %122 = icmp slt, %121, %arg5 : i32
    cond_br %122, ^bb1(%121, %120, %112, %104, %96 : i32, f32, f32, f32, f32), ^bb2(%120, %112, %104, %96 : f32, f32, f32, f32)
  ^bb2(%123: f32, %124: f32, %125: f32, %126: f32):
    cond_br %25, ^bb3, ^bb4
  ^bb3:
    %127 = sext %24 : i32 to i64
    %128 = mul %127, %1 : i64
    %129 = ptradd %18, %128 : !llvm.ptr<1>, i64
    store %126, %129 {align = 4 : i32} : f32, !llvm.ptr<1>
    %130 = sext %arg5 : i32 to i64
    %131 = constant 4 : i64
    %132 = mul %130, %131 : i64
    %133 = ptradd %129, %132 : !llvm.ptr<1>, i64
    store %125, %133 {align = 4 : i32} : f32, !llvm.ptr<1>
    %134 = ptradd %133, %132 : !llvm.ptr<1>, i64
    store %124, %134 {align = 4 : i32} : f32, !llvm.ptr<1>
    %135 = ptradd %134, %132 : !llvm.ptr<1>, i64
    store %123, %135 {align = 4 : i32} : f32, !llvm.ptr<1>
    br ^bb4
  ^bb4:
    return
  }
}
