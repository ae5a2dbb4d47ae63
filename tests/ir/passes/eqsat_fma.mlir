// RUN: --pass-pipeline='builtin.module(nvvm.func(eqsat{floats=true remarks=true}))' --pass-statistics
// Float contraction as rules (floats=true): x * y + z is one fma (fma-fadd); z - x * w and
// y * w - x stay a multiply and a subtraction (NVRTC contracts a subtraction only where a
// constant takes the negation, and instruction selection does that); of x * z + y * y only the first product fuses (not-fusable keeps fma-fadd-rhs off); the
// product w * w, read twice, stays a multiply (one-use) while shared * x fuses, as
// instruction selection and NVRTC decide.
module {
  nvvm.func kernel @_Z8contractPKfS0_S0_S0_Pfi(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: !llvm.ptr, %arg3: !llvm.ptr, %arg4: !llvm.ptr, %arg5: i32) {
    %0 = addrspacecast %arg4 : !llvm.ptr to !llvm.ptr<1>
    %1 = addrspacecast %arg3 : !llvm.ptr to !llvm.ptr<1>
    %2 = addrspacecast %arg2 : !llvm.ptr to !llvm.ptr<1>
    %3 = addrspacecast %arg1 : !llvm.ptr to !llvm.ptr<1>
    %4 = addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<1>
    br ^bb1
  ^bb1:
    %5 = sreg ctaid_x : i32
    %6 = sreg ntid_x : i32
    %7 = mul %5, %6 : i32
    %8 = sreg tid_x : i32
    %9 = add %7, %8 : i32
    %10 = icmp slt, %9, %arg5 : i32
    cond_br %10, ^bb2, ^bb3
  ^bb2:
    %11 = sext %9 : i32 to i64
    %12 = constant 4 : i64
    %13 = mul %11, %12 : i64
    %14 = ptradd %4, %13 : !llvm.ptr<1>, i64
    %15 = load %14 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %16 = ptradd %3, %13 : !llvm.ptr<1>, i64
    %17 = load %16 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %18 = ptradd %2, %13 : !llvm.ptr<1>, i64
    %19 = load %18 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %20 = ptradd %1, %13 : !llvm.ptr<1>, i64
    %21 = load %20 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %22 = constant 5 : i32
    %23 = mul %22, %9 nsw : i32
    %24 = sext %23 : i32 to i64
    %25 = mul %24, %12 : i64
    %26 = ptradd %0, %25 : !llvm.ptr<1>, i64
    %27 = fmul %15, %17 {contract} : f32
    %28 = fadd %27, %19 {contract} : f32
    store %28, %26 {align = 4 : i32} : f32, !llvm.ptr<1>
    %29 = constant 1 : i32
    %30 = add %23, %29 nsw : i32
    %31 = sext %30 : i32 to i64
    %32 = mul %31, %12 : i64
    %33 = ptradd %0, %32 : !llvm.ptr<1>, i64
    %34 = fmul %15, %21 {contract} : f32
    %35 = fsub %19, %34 {contract} : f32
    store %35, %33 {align = 4 : i32} : f32, !llvm.ptr<1>
    %36 = constant 2 : i32
    %37 = add %23, %36 nsw : i32
    %38 = sext %37 : i32 to i64
    %39 = mul %38, %12 : i64
    %40 = ptradd %0, %39 : !llvm.ptr<1>, i64
    %41 = fmul %17, %21 {contract} : f32
    %42 = fsub %41, %15 {contract} : f32
    store %42, %40 {align = 4 : i32} : f32, !llvm.ptr<1>
    %43 = constant 3 : i32
    %44 = add %23, %43 nsw : i32
    %45 = sext %44 : i32 to i64
    %46 = mul %45, %12 : i64
    %47 = ptradd %0, %46 : !llvm.ptr<1>, i64
    %48 = fmul %15, %19 {contract} : f32
    %49 = fmul %17, %17 {contract} : f32
    %50 = fadd %48, %49 {contract} : f32
    store %50, %47 {align = 4 : i32} : f32, !llvm.ptr<1>
    %51 = fmul %21, %21 {contract} : f32
    %52 = constant 4 : i32
    %53 = add %23, %52 nsw : i32
    %54 = sext %53 : i32 to i64
    %55 = mul %54, %12 : i64
    %56 = ptradd %0, %55 : !llvm.ptr<1>, i64
    %57 = fadd %51, %19 {contract} : f32
    %58 = fmul %51, %15 {contract} : f32
    %59 = fadd %57, %58 {contract} : f32
    store %59, %56 {align = 4 : i32} : f32, !llvm.ptr<1>
    br ^bb3
  ^bb3:
    return
  }
}
