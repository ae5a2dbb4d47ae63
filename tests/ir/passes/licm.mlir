// RUN: --pass-pipeline=builtin.module(nvvm.func(licm,canonicalize)) --pass-statistics
// licm on the nvvm IR of tests/ptx/invariants.cu just before the pass in the -O3 pipeline
// (`--print-ir-before=licm`). column_sum: the stride and scale loads (the loop writes no
// memory), the row conversion and the address arithmetic of the invariant parts move to
// the guard or a new preheader, the loads of the four unrolled copies becoming one each.
// axpy_rows: the __ldg coefficient (read-only) moves although the loop stores; the load
// of *bias must stay (the store to out may change it). must_stay: nothing that reads
// memory moves: the shared load between barriers, the volatile flag, the load under
// `i > 2`; nor the division by d, which may be zero.
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
    cond_br %16, ^bb3(%10, %11 : f32, i32), ^bb10(%10, %11 : f32, i32)
  ^bb3(%17: f32, %18: i32):
    %19 = load %1 {align = 4 : i32} : !llvm.ptr<1> -> i32
    %20 = mul %18, %19 : i32
    %21 = add %20, %7 : i32
    %22 = sext %21 : i32 to i64
    %23 = constant 4 : i64
    %24 = mul %22, %23 : i64
    %25 = ptradd %2, %24 : !llvm.ptr<1>, i64
    %26 = ptradd %1, %23 : !llvm.ptr<1>, i64
    %27 = load %25 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %28 = load %26 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %29 = fmul %27, %28 {contract} : f32
    %30 = sitofp %arg3 : i32 to f32
    %31 = fmul %29, %30 {contract} : f32
    %32 = fadd %17, %31 {contract} : f32
    %33 = constant 1 : i32
    %34 = add %18, %33 : i32
    br ^bb4
  ^bb4:
    %35 = icmp slt, %34, %arg3 : i32
    br ^bb5
  ^bb5:
    %36 = load %1 {align = 4 : i32} : !llvm.ptr<1> -> i32
    %37 = mul %34, %36 : i32
    %38 = add %37, %7 : i32
    %39 = sext %38 : i32 to i64
    %40 = mul %39, %23 : i64
    %41 = ptradd %2, %40 : !llvm.ptr<1>, i64
    %42 = load %41 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %43 = load %26 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %44 = fmul %42, %43 {contract} : f32
    %45 = fmul %44, %30 {contract} : f32
    %46 = fadd %32, %45 {contract} : f32
    %47 = add %34, %33 : i32
    br ^bb6
  ^bb6:
    %48 = icmp slt, %47, %arg3 : i32
    br ^bb7
  ^bb7:
    %49 = load %1 {align = 4 : i32} : !llvm.ptr<1> -> i32
    %50 = mul %47, %49 : i32
    %51 = add %50, %7 : i32
    %52 = sext %51 : i32 to i64
    %53 = mul %52, %23 : i64
    %54 = ptradd %2, %53 : !llvm.ptr<1>, i64
    %55 = load %54 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %56 = load %26 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %57 = fmul %55, %56 {contract} : f32
    %58 = fmul %57, %30 {contract} : f32
    %59 = fadd %46, %58 {contract} : f32
    %60 = add %47, %33 : i32
    br ^bb8
  ^bb8:
    %61 = icmp slt, %60, %arg3 : i32
    br ^bb9
  ^bb9:
    %62 = load %1 {align = 4 : i32} : !llvm.ptr<1> -> i32
    %63 = mul %60, %62 : i32
    %64 = add %63, %7 : i32
    %65 = sext %64 : i32 to i64
    %66 = mul %65, %23 : i64
    %67 = ptradd %2, %66 : !llvm.ptr<1>, i64
    %68 = load %67 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %69 = load %26 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %70 = fmul %68, %69 {contract} : f32
    %71 = fmul %70, %30 {contract} : f32
    %72 = fadd %59, %71 {contract} : f32
    %73 = add %60, %33 : i32
    %74 = icmp slt, %73, %arg3 : i32
    %75 = sub %arg3, %73 : i32
    %76 = icmp ugt, %75, %14 : i32
    %77 = and %74, %76 : i1
    cond_br %77, ^bb3(%72, %73 : f32, i32), ^bb10(%72, %73 : f32, i32)
  ^bb10(%78: f32, %79: i32):
    %80 = icmp slt, %79, %arg3 : i32
    cond_br %80, ^bb11(%78, %79 : f32, i32), ^bb12(%78 : f32)
  ^bb11(%81: f32, %82: i32):
    %83 = load %1 {align = 4 : i32} : !llvm.ptr<1> -> i32
    %84 = mul %82, %83 : i32
    %85 = add %84, %7 : i32
    %86 = sext %85 : i32 to i64
    %87 = constant 4 : i64
    %88 = mul %86, %87 : i64
    %89 = ptradd %2, %88 : !llvm.ptr<1>, i64
    %90 = ptradd %1, %87 : !llvm.ptr<1>, i64
    %91 = load %89 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %92 = load %90 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %93 = fmul %91, %92 {contract} : f32
    %94 = sitofp %arg3 : i32 to f32
    %95 = fmul %93, %94 {contract} : f32
    %96 = fadd %81, %95 {contract} : f32
    %97 = constant 1 : i32
    %98 = add %82, %97 : i32
    %99 = icmp slt, %98, %arg3 : i32
    cond_br %99, ^bb11(%96, %98 : f32, i32), ^bb12(%96 : f32)
  ^bb12(%100: f32):
    br ^bb13
  ^bb13:
    %101 = sext %7 : i32 to i64
    %102 = constant 4 : i64
    %103 = mul %101, %102 : i64
    %104 = ptradd %0, %103 : !llvm.ptr<1>, i64
    store %100, %104 {align = 4 : i32} : f32, !llvm.ptr<1>
    return
  }
  nvvm.func kernel @_Z9axpy_rowsPKfPfS0_S0_ii(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: !llvm.ptr, %arg3: !llvm.ptr, %arg4: i32, %arg5: i32) {
    %0 = addrspacecast %arg3 : !llvm.ptr to !llvm.ptr<1>
    %1 = addrspacecast %arg2 : !llvm.ptr to !llvm.ptr<1>
    %2 = addrspacecast %1 : !llvm.ptr<1> to !llvm.ptr
    %3 = addrspacecast %arg1 : !llvm.ptr to !llvm.ptr<1>
    %4 = addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<1>
    br ^bb1
  ^bb1:
    %5 = sreg ctaid_x : i32
    %6 = sreg ntid_x : i32
    %7 = mul %5, %6 : i32
    %8 = sreg tid_x : i32
    %9 = add %7, %8 : i32
    %10 = constant 0 : i32
    br ^bb2(%10 : i32)
  ^bb2(%11: i32):
    %12 = icmp slt, %11, %arg4 : i32
    %13 = sub %arg4, %11 : i32
    %14 = constant 3 : i32
    %15 = icmp ugt, %13, %14 : i32
    %16 = and %12, %15 : i1
    cond_br %16, ^bb3(%11 : i32), ^bb10(%11 : i32)
  ^bb3(%17: i32):
    %18 = mul %17, %arg5 : i32
    %19 = add %18, %9 : i32
    %20 = sext %19 : i32 to i64
    %21 = constant 4 : i64
    %22 = mul %20, %21 : i64
    %23 = ptradd %3, %22 : !llvm.ptr<1>, i64
    %24 = addrspacecast %2 : !llvm.ptr to !llvm.ptr<1>
    %25 = load %24 {align = 4 : i32, cache = "nc"} : !llvm.ptr<1> -> f32
    %26 = ptradd %4, %22 : !llvm.ptr<1>, i64
    %27 = load %26 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %28 = fmul %25, %27 {contract} : f32
    %29 = load %0 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %30 = fadd %28, %29 {contract} : f32
    store %30, %23 {align = 4 : i32} : f32, !llvm.ptr<1>
    %31 = constant 1 : i32
    %32 = add %17, %31 : i32
    br ^bb4
  ^bb4:
    %33 = icmp slt, %32, %arg4 : i32
    br ^bb5
  ^bb5:
    %34 = mul %32, %arg5 : i32
    %35 = add %34, %9 : i32
    %36 = sext %35 : i32 to i64
    %37 = mul %36, %21 : i64
    %38 = ptradd %3, %37 : !llvm.ptr<1>, i64
    %39 = load %24 {align = 4 : i32, cache = "nc"} : !llvm.ptr<1> -> f32
    %40 = ptradd %4, %37 : !llvm.ptr<1>, i64
    %41 = load %40 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %42 = fmul %39, %41 {contract} : f32
    %43 = load %0 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %44 = fadd %42, %43 {contract} : f32
    store %44, %38 {align = 4 : i32} : f32, !llvm.ptr<1>
    %45 = add %32, %31 : i32
    br ^bb6
  ^bb6:
    %46 = icmp slt, %45, %arg4 : i32
    br ^bb7
  ^bb7:
    %47 = mul %45, %arg5 : i32
    %48 = add %47, %9 : i32
    %49 = sext %48 : i32 to i64
    %50 = mul %49, %21 : i64
    %51 = ptradd %3, %50 : !llvm.ptr<1>, i64
    %52 = load %24 {align = 4 : i32, cache = "nc"} : !llvm.ptr<1> -> f32
    %53 = ptradd %4, %50 : !llvm.ptr<1>, i64
    %54 = load %53 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %55 = fmul %52, %54 {contract} : f32
    %56 = load %0 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %57 = fadd %55, %56 {contract} : f32
    store %57, %51 {align = 4 : i32} : f32, !llvm.ptr<1>
    %58 = add %45, %31 : i32
    br ^bb8
  ^bb8:
    %59 = icmp slt, %58, %arg4 : i32
    br ^bb9
  ^bb9:
    %60 = mul %58, %arg5 : i32
    %61 = add %60, %9 : i32
    %62 = sext %61 : i32 to i64
    %63 = mul %62, %21 : i64
    %64 = ptradd %3, %63 : !llvm.ptr<1>, i64
    %65 = load %24 {align = 4 : i32, cache = "nc"} : !llvm.ptr<1> -> f32
    %66 = ptradd %4, %63 : !llvm.ptr<1>, i64
    %67 = load %66 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %68 = fmul %65, %67 {contract} : f32
    %69 = load %0 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %70 = fadd %68, %69 {contract} : f32
    store %70, %64 {align = 4 : i32} : f32, !llvm.ptr<1>
    %71 = add %58, %31 : i32
    %72 = icmp slt, %71, %arg4 : i32
    %73 = sub %arg4, %71 : i32
    %74 = icmp ugt, %73, %14 : i32
    %75 = and %72, %74 : i1
    cond_br %75, ^bb3(%71 : i32), ^bb10(%71 : i32)
  ^bb10(%76: i32):
    %77 = icmp slt, %76, %arg4 : i32
    cond_br %77, ^bb11(%76 : i32), ^bb12
  ^bb11(%78: i32):
    %79 = mul %78, %arg5 : i32
    %80 = add %79, %9 : i32
    %81 = sext %80 : i32 to i64
    %82 = constant 4 : i64
    %83 = mul %81, %82 : i64
    %84 = ptradd %3, %83 : !llvm.ptr<1>, i64
    %85 = addrspacecast %2 : !llvm.ptr to !llvm.ptr<1>
    %86 = load %85 {align = 4 : i32, cache = "nc"} : !llvm.ptr<1> -> f32
    %87 = ptradd %4, %83 : !llvm.ptr<1>, i64
    %88 = load %87 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %89 = fmul %86, %88 {contract} : f32
    %90 = load %0 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %91 = fadd %89, %90 {contract} : f32
    store %91, %84 {align = 4 : i32} : f32, !llvm.ptr<1>
    %92 = constant 1 : i32
    %93 = add %78, %92 : i32
    %94 = icmp slt, %93, %arg4 : i32
    cond_br %94, ^bb11(%93 : i32), ^bb12
  ^bb12:
    return
  }
  nvvm.func kernel @_Z9must_stayPKiPViPiii(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: !llvm.ptr, %arg3: i32, %arg4: i32) {
    %0 = addrspacecast %arg2 : !llvm.ptr to !llvm.ptr<1>
    %1 = addrspacecast %arg1 : !llvm.ptr to !llvm.ptr<1>
    %2 = addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<1>
    %3 = addressof @_Z9must_stayPKiPViPiii$cell : !llvm.ptr<3>
    %4 = sreg tid_x : i32
    %5 = constant 0 : i32
    br ^bb1(%5, %5 : i32, i32)
  ^bb1(%6: i32, %7: i32):
    %8 = icmp slt, %7, %arg3 : i32
    %9 = sub %arg3, %7 : i32
    %10 = constant 3 : i32
    %11 = icmp ugt, %9, %10 : i32
    %12 = and %8, %11 : i1
    cond_br %12, ^bb2(%6, %7 : i32, i32), ^bb11(%6, %7 : i32, i32)
  ^bb2(%13: i32, %14: i32):
    %15 = icmp eq, %4, %5 : i32
    cond_br %15, ^bb3, ^bb4
  ^bb3:
    %16 = mul %14, %10 : i32
    store %16, %3 {align = 4 : i32} : i32, !llvm.ptr<3>
    br ^bb4
  ^bb4:
    barrier sync() : () -> ()
    %17 = load %3 {align = 4 : i32} : !llvm.ptr<3> -> i32
    %18 = add %13, %17 : i32
    barrier sync() : () -> ()
    %19 = constant 1 : i32
    %20 = add %14, %19 : i32
    %21 = icmp slt, %20, %arg3 : i32
    cond_br %15, ^bb5, ^bb6
  ^bb5:
    %22 = mul %20, %10 : i32
    store %22, %3 {align = 4 : i32} : i32, !llvm.ptr<3>
    br ^bb6
  ^bb6:
    barrier sync() : () -> ()
    %23 = load %3 {align = 4 : i32} : !llvm.ptr<3> -> i32
    %24 = add %18, %23 : i32
    barrier sync() : () -> ()
    %25 = add %20, %19 : i32
    %26 = icmp slt, %25, %arg3 : i32
    cond_br %15, ^bb7, ^bb8
  ^bb7:
    %27 = mul %25, %10 : i32
    store %27, %3 {align = 4 : i32} : i32, !llvm.ptr<3>
    br ^bb8
  ^bb8:
    barrier sync() : () -> ()
    %28 = load %3 {align = 4 : i32} : !llvm.ptr<3> -> i32
    %29 = add %24, %28 : i32
    barrier sync() : () -> ()
    %30 = add %25, %19 : i32
    %31 = icmp slt, %30, %arg3 : i32
    cond_br %15, ^bb9, ^bb10
  ^bb9:
    %32 = mul %30, %10 : i32
    store %32, %3 {align = 4 : i32} : i32, !llvm.ptr<3>
    br ^bb10
  ^bb10:
    barrier sync() : () -> ()
    %33 = load %3 {align = 4 : i32} : !llvm.ptr<3> -> i32
    %34 = add %29, %33 : i32
    barrier sync() : () -> ()
    %35 = add %30, %19 : i32
    %36 = icmp slt, %35, %arg3 : i32
    %37 = sub %arg3, %35 : i32
    %38 = icmp ugt, %37, %10 : i32
    %39 = and %36, %38 : i1
    cond_br %39, ^bb2(%34, %35 : i32, i32), ^bb11(%34, %35 : i32, i32)
  ^bb11(%40: i32, %41: i32):
    %42 = icmp slt, %41, %arg3 : i32
    cond_br %42, ^bb12(%40, %41 : i32, i32), ^bb15(%40 : i32)
  ^bb12(%43: i32, %44: i32):
    %45 = icmp eq, %4, %5 : i32
    cond_br %45, ^bb13, ^bb14
  ^bb13:
    %46 = mul %44, %10 : i32
    store %46, %3 {align = 4 : i32} : i32, !llvm.ptr<3>
    br ^bb14
  ^bb14:
    barrier sync() : () -> ()
    %47 = load %3 {align = 4 : i32} : !llvm.ptr<3> -> i32
    %48 = add %43, %47 : i32
    barrier sync() : () -> ()
    %49 = constant 1 : i32
    %50 = add %44, %49 : i32
    %51 = icmp slt, %50, %arg3 : i32
    cond_br %51, ^bb12(%48, %50 : i32, i32), ^bb15(%48 : i32)
  ^bb15(%52: i32):
    br ^bb16
  ^bb16:
    br ^bb17(%52, %5 : i32, i32)
  ^bb17(%53: i32, %54: i32):
    %55 = icmp slt, %54, %arg3 : i32
    %56 = sub %arg3, %54 : i32
    %57 = icmp ugt, %56, %10 : i32
    %58 = and %55, %57 : i1
    cond_br %58, ^bb18(%53, %54 : i32, i32), ^bb19(%53, %54 : i32, i32)
  ^bb18(%59: i32, %60: i32):
    %61 = load %1 {align = 4 : i32, volatile} : !llvm.ptr<1> -> i32
    %62 = add %59, %61 : i32
    %63 = constant 1 : i32
    %64 = add %60, %63 : i32
    %65 = icmp slt, %64, %arg3 : i32
    %66 = load %1 {align = 4 : i32, volatile} : !llvm.ptr<1> -> i32
    %67 = add %62, %66 : i32
    %68 = add %64, %63 : i32
    %69 = icmp slt, %68, %arg3 : i32
    %70 = load %1 {align = 4 : i32, volatile} : !llvm.ptr<1> -> i32
    %71 = add %67, %70 : i32
    %72 = add %68, %63 : i32
    %73 = icmp slt, %72, %arg3 : i32
    %74 = load %1 {align = 4 : i32, volatile} : !llvm.ptr<1> -> i32
    %75 = add %71, %74 : i32
    %76 = add %72, %63 : i32
    %77 = icmp slt, %76, %arg3 : i32
    %78 = sub %arg3, %76 : i32
    %79 = icmp ugt, %78, %10 : i32
    %80 = and %77, %79 : i1
    cond_br %80, ^bb18(%75, %76 : i32, i32), ^bb19(%75, %76 : i32, i32)
  ^bb19(%81: i32, %82: i32):
    %83 = icmp slt, %82, %arg3 : i32
    cond_br %83, ^bb20(%81, %82 : i32, i32), ^bb21(%81 : i32)
  ^bb20(%84: i32, %85: i32):
    %86 = load %1 {align = 4 : i32, volatile} : !llvm.ptr<1> -> i32
    %87 = add %84, %86 : i32
    %88 = constant 1 : i32
    %89 = add %85, %88 : i32
    %90 = icmp slt, %89, %arg3 : i32
    cond_br %90, ^bb20(%87, %89 : i32, i32), ^bb21(%87 : i32)
  ^bb21(%91: i32):
    br ^bb22
  ^bb22:
    br ^bb23(%91, %5 : i32, i32)
  ^bb23(%92: i32, %93: i32):
    %94 = icmp slt, %93, %arg3 : i32
    %95 = sub %arg3, %93 : i32
    %96 = icmp ugt, %95, %10 : i32
    %97 = and %94, %96 : i1
    cond_br %97, ^bb24(%92, %93 : i32, i32), ^bb41(%92, %93 : i32, i32)
  ^bb24(%98: i32, %99: i32):
    %100 = constant 2 : i32
    %101 = icmp sgt, %99, %100 : i32
    cond_br %101, ^bb25, ^bb26(%98 : i32)
  ^bb25:
    %102 = constant 0 : i64
    %103 = sext %5 : i32 to i64
    %104 = constant 4 : i64
    %105 = mul %102, %104 : i64
    %106 = ptradd %2, %102 : !llvm.ptr<1>, i64
    %107 = load %106 {align = 4 : i32} : !llvm.ptr<1> -> i32
    %108 = add %98, %107 : i32
    br ^bb26(%108 : i32)
  ^bb26(%109: i32):
    %110 = icmp ne, %arg4, %5 : i32
    %111 = constant 1 : i32
    %112 = sub %arg3, %111 : i32
    %113 = icmp eq, %99, %112 : i32
    %114 = constant false
    %115 = select %110, %113, %114 : i1
    cond_br %115, ^bb27, ^bb28(%109 : i32)
  ^bb27:
    %116 = sdiv %arg3, %arg4 : i32
    %117 = add %109, %116 : i32
    br ^bb28(%117 : i32)
  ^bb28(%118: i32):
    %119 = add %99, %111 : i32
    %120 = icmp slt, %119, %arg3 : i32
    %121 = icmp sgt, %119, %100 : i32
    cond_br %121, ^bb29, ^bb30(%118 : i32)
  ^bb29:
    %122 = constant 0 : i64
    %123 = sext %5 : i32 to i64
    %124 = constant 4 : i64
    %125 = mul %122, %124 : i64
    %126 = ptradd %2, %122 : !llvm.ptr<1>, i64
    %127 = load %126 {align = 4 : i32} : !llvm.ptr<1> -> i32
    %128 = add %118, %127 : i32
    br ^bb30(%128 : i32)
  ^bb30(%129: i32):
    %130 = icmp eq, %119, %112 : i32
    %131 = select %110, %130, %114 : i1
    cond_br %131, ^bb31, ^bb32(%129 : i32)
  ^bb31:
    %132 = sdiv %arg3, %arg4 : i32
    %133 = add %129, %132 : i32
    br ^bb32(%133 : i32)
  ^bb32(%134: i32):
    %135 = add %119, %111 : i32
    %136 = icmp slt, %135, %arg3 : i32
    %137 = icmp sgt, %135, %100 : i32
    cond_br %137, ^bb33, ^bb34(%134 : i32)
  ^bb33:
    %138 = constant 0 : i64
    %139 = sext %5 : i32 to i64
    %140 = constant 4 : i64
    %141 = mul %138, %140 : i64
    %142 = ptradd %2, %138 : !llvm.ptr<1>, i64
    %143 = load %142 {align = 4 : i32} : !llvm.ptr<1> -> i32
    %144 = add %134, %143 : i32
    br ^bb34(%144 : i32)
  ^bb34(%145: i32):
    %146 = icmp eq, %135, %112 : i32
    %147 = select %110, %146, %114 : i1
    cond_br %147, ^bb35, ^bb36(%145 : i32)
  ^bb35:
    %148 = sdiv %arg3, %arg4 : i32
    %149 = add %145, %148 : i32
    br ^bb36(%149 : i32)
  ^bb36(%150: i32):
    %151 = add %135, %111 : i32
    %152 = icmp slt, %151, %arg3 : i32
    %153 = icmp sgt, %151, %100 : i32
    cond_br %153, ^bb37, ^bb38(%150 : i32)
  ^bb37:
    %154 = constant 0 : i64
    %155 = sext %5 : i32 to i64
    %156 = constant 4 : i64
    %157 = mul %154, %156 : i64
    %158 = ptradd %2, %154 : !llvm.ptr<1>, i64
    %159 = load %158 {align = 4 : i32} : !llvm.ptr<1> -> i32
    %160 = add %150, %159 : i32
    br ^bb38(%160 : i32)
  ^bb38(%161: i32):
    %162 = icmp eq, %151, %112 : i32
    %163 = select %110, %162, %114 : i1
    cond_br %163, ^bb39, ^bb40(%161 : i32)
  ^bb39:
    %164 = sdiv %arg3, %arg4 : i32
    %165 = add %161, %164 : i32
    br ^bb40(%165 : i32)
  ^bb40(%166: i32):
    %167 = add %151, %111 : i32
    %168 = icmp slt, %167, %arg3 : i32
    %169 = sub %arg3, %167 : i32
    %170 = icmp ugt, %169, %10 : i32
    %171 = and %168, %170 : i1
    cond_br %171, ^bb24(%166, %167 : i32, i32), ^bb41(%166, %167 : i32, i32)
  ^bb41(%172: i32, %173: i32):
    %174 = icmp slt, %173, %arg3 : i32
    cond_br %174, ^bb42(%172, %173 : i32, i32), ^bb47(%172 : i32)
  ^bb42(%175: i32, %176: i32):
    %177 = constant 2 : i32
    %178 = icmp sgt, %176, %177 : i32
    cond_br %178, ^bb43, ^bb44(%175 : i32)
  ^bb43:
    %179 = constant 0 : i64
    %180 = sext %5 : i32 to i64
    %181 = constant 4 : i64
    %182 = mul %179, %181 : i64
    %183 = ptradd %2, %179 : !llvm.ptr<1>, i64
    %184 = load %183 {align = 4 : i32} : !llvm.ptr<1> -> i32
    %185 = add %175, %184 : i32
    br ^bb44(%185 : i32)
  ^bb44(%186: i32):
    %187 = icmp ne, %arg4, %5 : i32
    %188 = constant 1 : i32
    %189 = sub %arg3, %188 : i32
    %190 = icmp eq, %176, %189 : i32
    %191 = constant false
    %192 = select %187, %190, %191 : i1
    cond_br %192, ^bb45, ^bb46(%186 : i32)
  ^bb45:
    %193 = sdiv %arg3, %arg4 : i32
    %194 = add %186, %193 : i32
    br ^bb46(%194 : i32)
  ^bb46(%195: i32):
    %196 = add %176, %188 : i32
    %197 = icmp slt, %196, %arg3 : i32
    cond_br %197, ^bb42(%195, %196 : i32, i32), ^bb47(%195 : i32)
  ^bb47(%198: i32):
    br ^bb48
  ^bb48:
    %199 = sext %4 : i32 to i64
    %200 = constant 4 : i64
    %201 = mul %199, %200 : i64
    %202 = ptradd %0, %201 : !llvm.ptr<1>, i64
    store %198, %202 {align = 4 : i32} : i32, !llvm.ptr<1>
    return
  }
}
