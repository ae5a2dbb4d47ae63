// RUN: --pass-pipeline=builtin.module(nvvm.func(load-cse,dce)) --pass-statistics
// load-cse on the nvvm IR of tests/ptx/invariants.cu's reloads just before the pass in the
// -O3 pipeline (`--print-ir-before=load-cse`): the three loads of a[i] are one; after the
// store to b[i], which may alias a (both global, neither a distinct allocation), a[i] is
// read again; the value stored to s[tid] is forwarded to the load after it; the load of
// s[tid ^ 1] after the barrier and both volatile reads of *flag stay.
module {
  nvvm.global shared @_Z7reloadsPKfPfPViS1_i$s {align = 4 : i32, size = 256 : i64}
  nvvm.func kernel @_Z7reloadsPKfPfPViS1_i(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: !llvm.ptr, %arg3: !llvm.ptr, %arg4: i32) {
    %0 = constant 4 : i64
    %1 = constant 2.000000e+00 : f32
    %2 = constant 1 : i32
    %3 = addrspacecast %arg3 : !llvm.ptr to !llvm.ptr<1>
    %4 = addrspacecast %arg2 : !llvm.ptr to !llvm.ptr<1>
    %5 = addrspacecast %arg1 : !llvm.ptr to !llvm.ptr<1>
    %6 = addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<1>
    %7 = addressof @_Z7reloadsPKfPfPViS1_i$s : !llvm.ptr<3>
    %8 = sreg ctaid_x : i32
    %9 = sreg ntid_x : i32
    %10 = mul %8, %9 : i32
    %11 = sreg tid_x : i32
    %12 = add %10, %11 : i32
    %13 = icmp sge, %12, %arg4 : i32
    cond_br %13, ^bb1, ^bb2
  ^bb1:
    return
  ^bb2:
    %14 = sext %12 : i32 to i64
    %15 = mul %14, %0 : i64
    %16 = ptradd %6, %15 : !llvm.ptr<1>, i64
    %17 = load %16 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %18 = load %16 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %19 = fmul %17, %18 {contract} : f32
    %20 = load %16 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %21 = fadd %20, %19 {contract} : f32
    %22 = ptradd %5, %15 : !llvm.ptr<1>, i64
    store %21, %22 {align = 4 : i32} : f32, !llvm.ptr<1>
    %23 = load %16 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %24 = fadd %23, %21 {contract} : f32
    %25 = zext %11 : i32 to i64
    %26 = mul %25, %0 : i64
    %27 = ptradd %7, %26 : !llvm.ptr<3>, i64
    store %24, %27 {align = 4 : i32} : f32, !llvm.ptr<3>
    %28 = load %27 {align = 4 : i32} : !llvm.ptr<3> -> f32
    %29 = fmul %28, %1 {contract} : f32
    barrier sync() : () -> ()
    %30 = xor %11, %2 : i32
    %31 = zext %30 : i32 to i64
    %32 = mul %31, %0 : i64
    %33 = ptradd %7, %32 : !llvm.ptr<3>, i64
    %34 = load %33 {align = 4 : i32} : !llvm.ptr<3> -> f32
    %35 = ptradd %3, %15 : !llvm.ptr<1>, i64
    %36 = fadd %29, %34 {contract} : f32
    %37 = load %4 {align = 4 : i32, volatile} : !llvm.ptr<1> -> i32
    %38 = load %4 {align = 4 : i32, volatile} : !llvm.ptr<1> -> i32
    %39 = add %37, %38 nsw : i32
    %40 = sitofp %39 : i32 to f32
    %41 = fadd %36, %40 {contract} : f32
    store %41, %35 {align = 4 : i32} : f32, !llvm.ptr<1>
    return
  }
}
