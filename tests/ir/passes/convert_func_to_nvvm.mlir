// RUN: --convert-func-to-nvvm --pass-statistics
// convert-func-to-nvvm: kernels and device functions (structs by value as parameters, a
// struct result through sret, a kernel's struct parameter), calls, returns, branches with
// block arguments and ub.unreachable, as the compiler makes them from CUDA kernels, after
// convert-cuda-to-nvvm. Made from tests/ir/sources/convert_cuda_to_nvvm.cu (see its
// header), with the func ops written with their `func.` prefix.
module {
  nvvm.global shared @__cuprite_dynamic_smem {align = 16 : i32, extern, size = 4 : i64}
  nvvm.global shared @_Z4stepP8ParticlePK6float36Boundsfi$tile {align = 4 : i32, size = 640 : i64}
  nvvm.global constant @weights {align = 4 : i32, init = array<i8: 0, 0, 0, 63, 0, 0, -128, 62, 0, 0, 0, 62, 0, 0, 0, 62>, size = 16 : i64}
  nvvm.global global @hits {align = 4 : i32, size = 4 : i64}
  func.func @_Z7advance8Particle6float3f(%arg0: !cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>, %arg1: !cuda.struct<"float3", {f32, f32, f32}>, %arg2: f32) -> !cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}> attributes {noinline} {
    %0 = nvvm.alloca {align = 4 : i32, name = "p", size = 20 : i64} : !llvm.ptr<5>
    %1 = nvvm.alloca {align = 4 : i32, name = "v", size = 12 : i64} : !llvm.ptr<5>
    %2 = nvvm.alloca {align = 4 : i32, name = "dt", size = 4 : i64} : !llvm.ptr<5>
    %3:5 = builtin.unrealized_conversion_cast %arg0 : !cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}> to f32, f32, f32, f32, i32
    nvvm.store %3#0, %0 {align = 4 : i32} : f32, !llvm.ptr<5>
    %4 = nvvm.constant 4 : i64
    %5 = nvvm.ptradd %0, %4 : !llvm.ptr<5>, i64
    nvvm.store %3#1, %5 {align = 4 : i32} : f32, !llvm.ptr<5>
    %6 = nvvm.constant 8 : i64
    %7 = nvvm.ptradd %0, %6 : !llvm.ptr<5>, i64
    nvvm.store %3#2, %7 {align = 4 : i32} : f32, !llvm.ptr<5>
    %8 = nvvm.constant 12 : i64
    %9 = nvvm.ptradd %0, %8 : !llvm.ptr<5>, i64
    nvvm.store %3#3, %9 {align = 4 : i32} : f32, !llvm.ptr<5>
    %10 = nvvm.constant 16 : i64
    %11 = nvvm.ptradd %0, %10 : !llvm.ptr<5>, i64
    nvvm.store %3#4, %11 {align = 4 : i32} : i32, !llvm.ptr<5>
    %12:3 = builtin.unrealized_conversion_cast %arg1 : !cuda.struct<"float3", {f32, f32, f32}> to f32, f32, f32
    nvvm.store %12#0, %1 {align = 4 : i32} : f32, !llvm.ptr<5>
    %13 = nvvm.constant 4 : i64
    %14 = nvvm.ptradd %1, %13 : !llvm.ptr<5>, i64
    nvvm.store %12#1, %14 {align = 4 : i32} : f32, !llvm.ptr<5>
    %15 = nvvm.constant 8 : i64
    %16 = nvvm.ptradd %1, %15 : !llvm.ptr<5>, i64
    nvvm.store %12#2, %16 {align = 4 : i32} : f32, !llvm.ptr<5>
    nvvm.store %arg2, %2 {align = 4 : i32} : f32, !llvm.ptr<5>
    %17 = nvvm.load %1 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %18 = nvvm.load %2 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %19 = nvvm.fmul %17, %18 {contract} : f32
    %20 = nvvm.load %0 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %21 = nvvm.fadd %20, %19 {contract} : f32
    nvvm.store %21, %0 {align = 4 : i32} : f32, !llvm.ptr<5>
    %22 = nvvm.constant 4 : i64
    %23 = nvvm.ptradd %0, %22 : !llvm.ptr<5>, i64
    %24 = nvvm.constant 4 : i64
    %25 = nvvm.ptradd %1, %24 : !llvm.ptr<5>, i64
    %26 = nvvm.load %25 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %27 = nvvm.load %2 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %28 = nvvm.fmul %26, %27 {contract} : f32
    %29 = nvvm.load %23 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %30 = nvvm.fadd %29, %28 {contract} : f32
    nvvm.store %30, %23 {align = 4 : i32} : f32, !llvm.ptr<5>
    %31 = nvvm.constant 8 : i64
    %32 = nvvm.ptradd %0, %31 : !llvm.ptr<5>, i64
    %33 = nvvm.constant 8 : i64
    %34 = nvvm.ptradd %1, %33 : !llvm.ptr<5>, i64
    %35 = nvvm.load %34 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %36 = nvvm.load %2 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %37 = nvvm.fmul %35, %36 {contract} : f32
    %38 = nvvm.load %32 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %39 = nvvm.fadd %38, %37 {contract} : f32
    nvvm.store %39, %32 {align = 4 : i32} : f32, !llvm.ptr<5>
    %40 = nvvm.load %0 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %41 = nvvm.constant 4 : i64
    %42 = nvvm.ptradd %0, %41 : !llvm.ptr<5>, i64
    %43 = nvvm.load %42 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %44 = nvvm.constant 8 : i64
    %45 = nvvm.ptradd %0, %44 : !llvm.ptr<5>, i64
    %46 = nvvm.load %45 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %47 = nvvm.constant 12 : i64
    %48 = nvvm.ptradd %0, %47 : !llvm.ptr<5>, i64
    %49 = nvvm.load %48 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %50 = nvvm.constant 16 : i64
    %51 = nvvm.ptradd %0, %50 : !llvm.ptr<5>, i64
    %52 = nvvm.load %51 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %53 = builtin.unrealized_conversion_cast %40, %43, %46, %49, %52 : f32, f32, f32, f32, i32 to !cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>
    func.return %53 : !cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>
  }
  func.func @_Z5widen6Boundsf(%arg0: !cuda.struct<"Bounds", {f32, f32}>, %arg1: f32) -> !cuda.struct<"Bounds", {f32, f32}> attributes {noinline} {
    %0 = nvvm.alloca {align = 4 : i32, name = "b", size = 8 : i64} : !llvm.ptr<5>
    %1 = nvvm.alloca {align = 4 : i32, name = "by", size = 4 : i64} : !llvm.ptr<5>
    %2 = nvvm.alloca {align = 4 : i32, name = "", size = 8 : i64} : !llvm.ptr<5>
    %3:2 = builtin.unrealized_conversion_cast %arg0 : !cuda.struct<"Bounds", {f32, f32}> to f32, f32
    nvvm.store %3#0, %0 {align = 4 : i32} : f32, !llvm.ptr<5>
    %4 = nvvm.constant 4 : i64
    %5 = nvvm.ptradd %0, %4 : !llvm.ptr<5>, i64
    nvvm.store %3#1, %5 {align = 4 : i32} : f32, !llvm.ptr<5>
    nvvm.store %arg1, %1 {align = 4 : i32} : f32, !llvm.ptr<5>
    %6 = nvvm.constant 0.000000e+00 : f32
    %7 = nvvm.load %1 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %8 = nvvm.fcmp olt, %7, %6 : f32
    cf.cond_br %8, ^bb1, ^bb3
  ^bb1:
    nvvm.unreachable
  ^bb2:
    cf.br ^bb4
  ^bb3:
    cf.br ^bb4
  ^bb4:
    %9 = nvvm.load %0 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %10 = nvvm.load %1 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %11 = nvvm.fsub %9, %10 {contract} : f32
    nvvm.store %11, %2 {align = 4 : i32} : f32, !llvm.ptr<5>
    %12 = nvvm.constant 4 : i64
    %13 = nvvm.ptradd %2, %12 : !llvm.ptr<5>, i64
    %14 = nvvm.constant 4 : i64
    %15 = nvvm.ptradd %0, %14 : !llvm.ptr<5>, i64
    %16 = nvvm.load %15 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %17 = nvvm.load %1 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %18 = nvvm.fadd %16, %17 {contract} : f32
    nvvm.store %18, %13 {align = 4 : i32} : f32, !llvm.ptr<5>
    %19 = nvvm.load %2 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %20 = nvvm.constant 4 : i64
    %21 = nvvm.ptradd %2, %20 : !llvm.ptr<5>, i64
    %22 = nvvm.load %21 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %23 = builtin.unrealized_conversion_cast %19, %22 : f32, f32 to !cuda.struct<"Bounds", {f32, f32}>
    func.return %23 : !cuda.struct<"Bounds", {f32, f32}>
  }
  func.func @_Z7sign_ofi(%arg0: i32) -> i32 attributes {noinline} {
    %0 = nvvm.alloca {align = 4 : i32, name = "x", size = 4 : i64} : !llvm.ptr<5>
    nvvm.store %arg0, %0 {align = 4 : i32} : i32, !llvm.ptr<5>
    %1 = nvvm.constant 0 : i32
    %2 = nvvm.load %0 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %3 = nvvm.icmp slt, %2, %1 : i32
    cf.cond_br %3, ^bb1, ^bb2
  ^bb1:
    %4 = nvvm.constant 1 : i32
    %5 = nvvm.constant 0 : i32
    %6 = nvvm.sub %5, %4 : i32
    func.return %6 : i32
  ^bb2:
    %7 = nvvm.constant 0 : i32
    %8 = nvvm.load %0 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %9 = nvvm.icmp sgt, %8, %7 : i32
    %10 = nvvm.zext %9 : i1 to i32
    func.return %10 : i32
  ^bb3:
    ub.unreachable
  }
  func.func @_Z4stepP8ParticlePK6float36Boundsfi(%arg0: !cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>>, %arg1: !cuda.ptr<!cuda.struct<"float3", {f32, f32, f32}>>, %arg2: !cuda.struct<"Bounds", {f32, f32}>, %arg3: f32, %arg4: i32) attributes {cuda.kernel} {
    %0 = nvvm.alloca {align = 8 : i32, name = "ps", size = 8 : i64} : !llvm.ptr<5>
    %1 = nvvm.alloca {align = 8 : i32, name = "vel", size = 8 : i64} : !llvm.ptr<5>
    %2 = nvvm.alloca {align = 4 : i32, name = "box", size = 8 : i64} : !llvm.ptr<5>
    %3 = nvvm.alloca {align = 4 : i32, name = "dt", size = 4 : i64} : !llvm.ptr<5>
    %4 = nvvm.alloca {align = 4 : i32, name = "n", size = 4 : i64} : !llvm.ptr<5>
    %5 = nvvm.alloca {align = 4 : i32, name = "i", size = 4 : i64} : !llvm.ptr<5>
    %6 = nvvm.alloca {align = 4 : i32, name = "p", size = 20 : i64} : !llvm.ptr<5>
    %7 = nvvm.alloca {align = 4 : i32, name = "q", size = 20 : i64} : !llvm.ptr<5>
    %8 = nvvm.alloca {align = 4 : i32, name = "b", size = 8 : i64} : !llvm.ptr<5>
    %9 = nvvm.alloca {align = 8 : i32, name = "vp", size = 8 : i64} : !llvm.ptr<5>
    %10 = builtin.unrealized_conversion_cast %arg0 : !cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>> to !llvm.ptr
    nvvm.store %10, %0 {align = 8 : i32} : !llvm.ptr, !llvm.ptr<5>
    %11 = builtin.unrealized_conversion_cast %arg1 : !cuda.ptr<!cuda.struct<"float3", {f32, f32, f32}>> to !llvm.ptr
    nvvm.store %11, %1 {align = 8 : i32} : !llvm.ptr, !llvm.ptr<5>
    %12:2 = builtin.unrealized_conversion_cast %arg2 : !cuda.struct<"Bounds", {f32, f32}> to f32, f32
    nvvm.store %12#0, %2 {align = 4 : i32} : f32, !llvm.ptr<5>
    %13 = nvvm.constant 4 : i64
    %14 = nvvm.ptradd %2, %13 : !llvm.ptr<5>, i64
    nvvm.store %12#1, %14 {align = 4 : i32} : f32, !llvm.ptr<5>
    nvvm.store %arg3, %3 {align = 4 : i32} : f32, !llvm.ptr<5>
    nvvm.store %arg4, %4 {align = 4 : i32} : i32, !llvm.ptr<5>
    %15 = nvvm.addressof @_Z4stepP8ParticlePK6float36Boundsfi$tile : !llvm.ptr<3>
    %16 = nvvm.sreg ctaid_x : i32
    %17 = nvvm.sreg ntid_x : i32
    %18 = nvvm.mul %16, %17 : i32
    %19 = nvvm.sreg tid_x : i32
    %20 = nvvm.add %18, %19 : i32
    nvvm.store %20, %5 {align = 4 : i32} : i32, !llvm.ptr<5>
    %21 = nvvm.load %5 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %22 = nvvm.load %4 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %23 = nvvm.icmp sge, %21, %22 : i32
    cf.cond_br %23, ^bb1, ^bb2
  ^bb1:
    func.return
  ^bb2:
    cf.br ^bb3
  ^bb3:
    %24 = nvvm.load %5 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %25 = nvvm.load %0 {align = 8 : i32} : !llvm.ptr<5> -> !llvm.ptr
    %26 = nvvm.sext %24 : i32 to i64
    %27 = nvvm.constant 20 : i64
    %28 = nvvm.mul %26, %27 : i64
    %29 = nvvm.ptradd %25, %28 : !llvm.ptr, i64
    %30 = nvvm.load %29 {align = 4 : i32} : !llvm.ptr -> f32
    %31 = nvvm.constant 4 : i64
    %32 = nvvm.ptradd %29, %31 : !llvm.ptr, i64
    %33 = nvvm.load %32 {align = 4 : i32} : !llvm.ptr -> f32
    %34 = nvvm.constant 8 : i64
    %35 = nvvm.ptradd %29, %34 : !llvm.ptr, i64
    %36 = nvvm.load %35 {align = 4 : i32} : !llvm.ptr -> f32
    %37 = nvvm.constant 12 : i64
    %38 = nvvm.ptradd %29, %37 : !llvm.ptr, i64
    %39 = nvvm.load %38 {align = 4 : i32} : !llvm.ptr -> f32
    %40 = nvvm.constant 16 : i64
    %41 = nvvm.ptradd %29, %40 : !llvm.ptr, i64
    %42 = nvvm.load %41 {align = 4 : i32} : !llvm.ptr -> i32
    nvvm.store %30, %6 {align = 4 : i32} : f32, !llvm.ptr<5>
    %43 = nvvm.constant 4 : i64
    %44 = nvvm.ptradd %6, %43 : !llvm.ptr<5>, i64
    nvvm.store %33, %44 {align = 4 : i32} : f32, !llvm.ptr<5>
    %45 = nvvm.constant 8 : i64
    %46 = nvvm.ptradd %6, %45 : !llvm.ptr<5>, i64
    nvvm.store %36, %46 {align = 4 : i32} : f32, !llvm.ptr<5>
    %47 = nvvm.constant 12 : i64
    %48 = nvvm.ptradd %6, %47 : !llvm.ptr<5>, i64
    nvvm.store %39, %48 {align = 4 : i32} : f32, !llvm.ptr<5>
    %49 = nvvm.constant 16 : i64
    %50 = nvvm.ptradd %6, %49 : !llvm.ptr<5>, i64
    nvvm.store %42, %50 {align = 4 : i32} : i32, !llvm.ptr<5>
    %51 = nvvm.sreg tid_x : i32
    %52 = nvvm.constant 32 : i32
    %53 = nvvm.urem %51, %52 : i32
    %54 = nvvm.zext %53 : i32 to i64
    %55 = nvvm.constant 20 : i64
    %56 = nvvm.mul %54, %55 : i64
    %57 = nvvm.ptradd %15, %56 : !llvm.ptr<3>, i64
    %58 = nvvm.load %6 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %59 = nvvm.constant 4 : i64
    %60 = nvvm.ptradd %6, %59 : !llvm.ptr<5>, i64
    %61 = nvvm.load %60 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %62 = nvvm.constant 8 : i64
    %63 = nvvm.ptradd %6, %62 : !llvm.ptr<5>, i64
    %64 = nvvm.load %63 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %65 = nvvm.constant 12 : i64
    %66 = nvvm.ptradd %6, %65 : !llvm.ptr<5>, i64
    %67 = nvvm.load %66 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %68 = nvvm.constant 16 : i64
    %69 = nvvm.ptradd %6, %68 : !llvm.ptr<5>, i64
    %70 = nvvm.load %69 {align = 4 : i32} : !llvm.ptr<5> -> i32
    nvvm.store %58, %57 {align = 4 : i32} : f32, !llvm.ptr<3>
    %71 = nvvm.constant 4 : i64
    %72 = nvvm.ptradd %57, %71 : !llvm.ptr<3>, i64
    nvvm.store %61, %72 {align = 4 : i32} : f32, !llvm.ptr<3>
    %73 = nvvm.constant 8 : i64
    %74 = nvvm.ptradd %57, %73 : !llvm.ptr<3>, i64
    nvvm.store %64, %74 {align = 4 : i32} : f32, !llvm.ptr<3>
    %75 = nvvm.constant 12 : i64
    %76 = nvvm.ptradd %57, %75 : !llvm.ptr<3>, i64
    nvvm.store %67, %76 {align = 4 : i32} : f32, !llvm.ptr<3>
    %77 = nvvm.constant 16 : i64
    %78 = nvvm.ptradd %57, %77 : !llvm.ptr<3>, i64
    nvvm.store %70, %78 {align = 4 : i32} : i32, !llvm.ptr<3>
    nvvm.barrier sync() : () -> ()
    %79 = nvvm.sreg tid_x : i32
    %80 = nvvm.constant 32 : i32
    %81 = nvvm.urem %79, %80 : i32
    %82 = nvvm.zext %81 : i32 to i64
    %83 = nvvm.constant 20 : i64
    %84 = nvvm.mul %82, %83 : i64
    %85 = nvvm.ptradd %15, %84 : !llvm.ptr<3>, i64
    %86 = nvvm.load %5 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %87 = nvvm.load %1 {align = 8 : i32} : !llvm.ptr<5> -> !llvm.ptr
    %88 = nvvm.sext %86 : i32 to i64
    %89 = nvvm.constant 12 : i64
    %90 = nvvm.mul %88, %89 : i64
    %91 = nvvm.ptradd %87, %90 : !llvm.ptr, i64
    %92 = nvvm.addressof @weights : !llvm.ptr<4>
    %93 = nvvm.constant 3 : i32
    %94 = nvvm.load %5 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %95 = nvvm.and %94, %93 : i32
    %96 = nvvm.sext %95 : i32 to i64
    %97 = nvvm.constant 4 : i64
    %98 = nvvm.mul %96, %97 : i64
    %99 = nvvm.ptradd %92, %98 : !llvm.ptr<4>, i64
    %100 = nvvm.load %3 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %101 = nvvm.load %99 {align = 4 : i32} : !llvm.ptr<4> -> f32
    %102 = nvvm.fmul %100, %101 {contract} : f32
    %103 = nvvm.load %85 {align = 4 : i32} : !llvm.ptr<3> -> f32
    %104 = nvvm.constant 4 : i64
    %105 = nvvm.ptradd %85, %104 : !llvm.ptr<3>, i64
    %106 = nvvm.load %105 {align = 4 : i32} : !llvm.ptr<3> -> f32
    %107 = nvvm.constant 8 : i64
    %108 = nvvm.ptradd %85, %107 : !llvm.ptr<3>, i64
    %109 = nvvm.load %108 {align = 4 : i32} : !llvm.ptr<3> -> f32
    %110 = nvvm.constant 12 : i64
    %111 = nvvm.ptradd %85, %110 : !llvm.ptr<3>, i64
    %112 = nvvm.load %111 {align = 4 : i32} : !llvm.ptr<3> -> f32
    %113 = nvvm.constant 16 : i64
    %114 = nvvm.ptradd %85, %113 : !llvm.ptr<3>, i64
    %115 = nvvm.load %114 {align = 4 : i32} : !llvm.ptr<3> -> i32
    %116 = builtin.unrealized_conversion_cast %103, %106, %109, %112, %115 : f32, f32, f32, f32, i32 to !cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>
    %117 = nvvm.load %91 {align = 4 : i32} : !llvm.ptr -> f32
    %118 = nvvm.constant 4 : i64
    %119 = nvvm.ptradd %91, %118 : !llvm.ptr, i64
    %120 = nvvm.load %119 {align = 4 : i32} : !llvm.ptr -> f32
    %121 = nvvm.constant 8 : i64
    %122 = nvvm.ptradd %91, %121 : !llvm.ptr, i64
    %123 = nvvm.load %122 {align = 4 : i32} : !llvm.ptr -> f32
    %124 = builtin.unrealized_conversion_cast %117, %120, %123 : f32, f32, f32 to !cuda.struct<"float3", {f32, f32, f32}>
    %125 = func.call @_Z7advance8Particle6float3f(%116, %124, %102) : (!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>, !cuda.struct<"float3", {f32, f32, f32}>, f32) -> !cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>
    %126:5 = builtin.unrealized_conversion_cast %125 : !cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}> to f32, f32, f32, f32, i32
    nvvm.store %126#0, %7 {align = 4 : i32} : f32, !llvm.ptr<5>
    %127 = nvvm.constant 4 : i64
    %128 = nvvm.ptradd %7, %127 : !llvm.ptr<5>, i64
    nvvm.store %126#1, %128 {align = 4 : i32} : f32, !llvm.ptr<5>
    %129 = nvvm.constant 8 : i64
    %130 = nvvm.ptradd %7, %129 : !llvm.ptr<5>, i64
    nvvm.store %126#2, %130 {align = 4 : i32} : f32, !llvm.ptr<5>
    %131 = nvvm.constant 12 : i64
    %132 = nvvm.ptradd %7, %131 : !llvm.ptr<5>, i64
    nvvm.store %126#3, %132 {align = 4 : i32} : f32, !llvm.ptr<5>
    %133 = nvvm.constant 16 : i64
    %134 = nvvm.ptradd %7, %133 : !llvm.ptr<5>, i64
    nvvm.store %126#4, %134 {align = 4 : i32} : i32, !llvm.ptr<5>
    %135 = nvvm.constant 5.000000e-01 : f32
    %136 = nvvm.load %2 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %137 = nvvm.constant 4 : i64
    %138 = nvvm.ptradd %2, %137 : !llvm.ptr<5>, i64
    %139 = nvvm.load %138 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %140 = builtin.unrealized_conversion_cast %136, %139 : f32, f32 to !cuda.struct<"Bounds", {f32, f32}>
    %141 = func.call @_Z5widen6Boundsf(%140, %135) : (!cuda.struct<"Bounds", {f32, f32}>, f32) -> !cuda.struct<"Bounds", {f32, f32}>
    %142:2 = builtin.unrealized_conversion_cast %141 : !cuda.struct<"Bounds", {f32, f32}> to f32, f32
    nvvm.store %142#0, %8 {align = 4 : i32} : f32, !llvm.ptr<5>
    %143 = nvvm.constant 4 : i64
    %144 = nvvm.ptradd %8, %143 : !llvm.ptr<5>, i64
    nvvm.store %142#1, %144 {align = 4 : i32} : f32, !llvm.ptr<5>
    %145 = nvvm.load %7 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %146 = nvvm.load %8 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %147 = nvvm.intr "max"(%145, %146) : (f32, f32) -> f32
    %148 = nvvm.constant 4 : i64
    %149 = nvvm.ptradd %8, %148 : !llvm.ptr<5>, i64
    %150 = nvvm.load %149 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %151 = nvvm.intr "min"(%147, %150) : (f32, f32) -> f32
    nvvm.store %151, %7 {align = 4 : i32} : f32, !llvm.ptr<5>
    %152 = nvvm.constant 4 : i64
    %153 = nvvm.ptradd %8, %152 : !llvm.ptr<5>, i64
    %154 = nvvm.load %7 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %155 = nvvm.load %153 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %156 = nvvm.fcmp oeq, %154, %155 : f32
    cf.cond_br %156, ^bb4, ^bb5
  ^bb4:
    %157 = nvvm.constant 16 : i64
    %158 = nvvm.ptradd %7, %157 : !llvm.ptr<5>, i64
    %159 = nvvm.load %158 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %160 = func.call @_Z7sign_ofi(%159) : (i32) -> i32
    %161 = nvvm.constant 0 : i32
    %162 = nvvm.icmp sge, %160, %161 : i32
    cf.br ^bb6(%162 : i1)
  ^bb5:
    %163 = nvvm.constant false
    cf.br ^bb6(%163 : i1)
  ^bb6(%164: i1):
    cf.cond_br %164, ^bb7, ^bb8
  ^bb7:
    %165 = nvvm.addressof @hits : !llvm.ptr<1>
    %166 = nvvm.addrspacecast %165 : !llvm.ptr<1> to !llvm.ptr
    %167 = nvvm.constant 16 : i64
    %168 = nvvm.ptradd %7, %167 : !llvm.ptr<5>, i64
    %169 = nvvm.load %168 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %170 = func.call @_Z7sign_ofi(%169) : (i32) -> i32
    %171 = nvvm.constant 1 : i32
    %172 = nvvm.add %170, %171 : i32
    %173 = nvvm.atomicrmw add %166, %172 gpu : !llvm.ptr, i32
    cf.br ^bb9
  ^bb8:
    cf.br ^bb9
  ^bb9:
    %174 = nvvm.load %5 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %175 = nvvm.load %0 {align = 8 : i32} : !llvm.ptr<5> -> !llvm.ptr
    %176 = nvvm.sext %174 : i32 to i64
    %177 = nvvm.constant 20 : i64
    %178 = nvvm.mul %176, %177 : i64
    %179 = nvvm.ptradd %175, %178 : !llvm.ptr, i64
    %180 = nvvm.constant 12 : i64
    %181 = nvvm.ptradd %179, %180 : !llvm.ptr, i64
    nvvm.store %181, %9 {align = 8 : i32} : !llvm.ptr, !llvm.ptr<5>
    %182 = nvvm.load %9 {align = 8 : i32} : !llvm.ptr<5> -> !llvm.ptr
    %183 = nvvm.constant 12 : i64
    %184 = nvvm.ptradd %7, %183 : !llvm.ptr<5>, i64
    %185 = nvvm.load %184 {align = 4 : i32} : !llvm.ptr<5> -> f32
    nvvm.store %185, %182 {align = 4 : i32, volatile} : f32, !llvm.ptr
    %186 = nvvm.load %5 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %187 = nvvm.load %0 {align = 8 : i32} : !llvm.ptr<5> -> !llvm.ptr
    %188 = nvvm.sext %186 : i32 to i64
    %189 = nvvm.constant 20 : i64
    %190 = nvvm.mul %188, %189 : i64
    %191 = nvvm.ptradd %187, %190 : !llvm.ptr, i64
    %192 = nvvm.load %7 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %193 = nvvm.constant 4 : i64
    %194 = nvvm.ptradd %7, %193 : !llvm.ptr<5>, i64
    %195 = nvvm.load %194 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %196 = nvvm.constant 8 : i64
    %197 = nvvm.ptradd %7, %196 : !llvm.ptr<5>, i64
    %198 = nvvm.load %197 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %199 = nvvm.constant 12 : i64
    %200 = nvvm.ptradd %7, %199 : !llvm.ptr<5>, i64
    %201 = nvvm.load %200 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %202 = nvvm.constant 16 : i64
    %203 = nvvm.ptradd %7, %202 : !llvm.ptr<5>, i64
    %204 = nvvm.load %203 {align = 4 : i32} : !llvm.ptr<5> -> i32
    nvvm.store %192, %191 {align = 4 : i32} : f32, !llvm.ptr
    %205 = nvvm.constant 4 : i64
    %206 = nvvm.ptradd %191, %205 : !llvm.ptr, i64
    nvvm.store %195, %206 {align = 4 : i32} : f32, !llvm.ptr
    %207 = nvvm.constant 8 : i64
    %208 = nvvm.ptradd %191, %207 : !llvm.ptr, i64
    nvvm.store %198, %208 {align = 4 : i32} : f32, !llvm.ptr
    %209 = nvvm.constant 12 : i64
    %210 = nvvm.ptradd %191, %209 : !llvm.ptr, i64
    nvvm.store %201, %210 {align = 4 : i32} : f32, !llvm.ptr
    %211 = nvvm.constant 16 : i64
    %212 = nvvm.ptradd %191, %211 : !llvm.ptr, i64
    nvvm.store %204, %212 {align = 4 : i32} : i32, !llvm.ptr
    func.return
  }
  func.func @_Z6scaledPfPKfi(%arg0: !cuda.ptr<f32>, %arg1: !cuda.ptr<f32>, %arg2: i32) attributes {cuda.kernel} {
    %0 = nvvm.alloca {align = 8 : i32, name = "out", size = 8 : i64} : !llvm.ptr<5>
    %1 = nvvm.alloca {align = 8 : i32, name = "in", size = 8 : i64} : !llvm.ptr<5>
    %2 = nvvm.alloca {align = 4 : i32, name = "n", size = 4 : i64} : !llvm.ptr<5>
    %3 = nvvm.alloca {align = 4 : i32, name = "i", size = 4 : i64} : !llvm.ptr<5>
    %4 = nvvm.alloca {align = 4 : i32, name = "acc", size = 4 : i64} : !llvm.ptr<5>
    %5 = nvvm.alloca {align = 4 : i32, name = "k", size = 4 : i64} : !llvm.ptr<5>
    %6 = nvvm.alloca {align = 4 : i32, name = "lane", size = 4 : i64} : !llvm.ptr<5>
    %7 = builtin.unrealized_conversion_cast %arg0 : !cuda.ptr<f32> to !llvm.ptr
    nvvm.store %7, %0 {align = 8 : i32} : !llvm.ptr, !llvm.ptr<5>
    %8 = builtin.unrealized_conversion_cast %arg1 : !cuda.ptr<f32> to !llvm.ptr
    nvvm.store %8, %1 {align = 8 : i32} : !llvm.ptr, !llvm.ptr<5>
    nvvm.store %arg2, %2 {align = 4 : i32} : i32, !llvm.ptr<5>
    %9 = nvvm.addressof @__cuprite_dynamic_smem : !llvm.ptr<3>
    %10 = nvvm.sreg tid_x : i32
    nvvm.store %10, %3 {align = 4 : i32} : i32, !llvm.ptr<5>
    %11 = nvvm.load %3 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %12 = nvvm.sext %11 : i32 to i64
    %13 = nvvm.constant 4 : i64
    %14 = nvvm.mul %12, %13 : i64
    %15 = nvvm.ptradd %9, %14 : !llvm.ptr<3>, i64
    %16 = nvvm.load %3 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %17 = nvvm.load %1 {align = 8 : i32} : !llvm.ptr<5> -> !llvm.ptr
    %18 = nvvm.sext %16 : i32 to i64
    %19 = nvvm.constant 4 : i64
    %20 = nvvm.mul %18, %19 : i64
    %21 = nvvm.ptradd %17, %20 : !llvm.ptr, i64
    %22 = nvvm.addrspacecast %21 : !llvm.ptr to !llvm.ptr<1>
    %23 = nvvm.load %22 {align = 4 : i32, cache = "nc"} : !llvm.ptr<1> -> f32
    nvvm.store %23, %15 {align = 4 : i32} : f32, !llvm.ptr<3>
    nvvm.barrier sync() : () -> ()
    %24 = nvvm.constant 0.000000e+00 : f32
    nvvm.store %24, %4 {align = 4 : i32} : f32, !llvm.ptr<5>
    %25 = nvvm.constant 0 : i32
    nvvm.store %25, %5 {align = 4 : i32} : i32, !llvm.ptr<5>
    cf.br ^bb1
  ^bb1:
    %26 = nvvm.load %5 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %27 = nvvm.load %2 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %28 = nvvm.icmp slt, %26, %27 : i32
    cf.cond_br %28, ^bb2, ^bb3
  ^bb2:
    %29 = nvvm.load %3 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %30 = nvvm.load %5 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %31 = nvvm.add %29, %30 : i32
    %32 = nvvm.load %2 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %33 = nvvm.srem %31, %32 : i32
    %34 = nvvm.sext %33 : i32 to i64
    %35 = nvvm.constant 4 : i64
    %36 = nvvm.mul %34, %35 : i64
    %37 = nvvm.ptradd %9, %36 : !llvm.ptr<3>, i64
    %38 = nvvm.load %4 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %39 = nvvm.load %37 {align = 4 : i32} : !llvm.ptr<3> -> f32
    %40 = nvvm.fadd %38, %39 {contract} : f32
    nvvm.store %40, %4 {align = 4 : i32} : f32, !llvm.ptr<5>
    %41 = nvvm.load %5 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %42 = nvvm.constant 1 : i32
    %43 = nvvm.add %41, %42 : i32
    nvvm.store %43, %5 {align = 4 : i32} : i32, !llvm.ptr<5>
    cf.br ^bb1
  ^bb3:
    %44 = nvvm.inline_asm "mov.u32 %0, %%laneid;", "=r"() {volatile} : () -> i32
    nvvm.store %44, %6 {align = 4 : i32} : i32, !llvm.ptr<5>
    %45 = nvvm.load %3 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %46 = nvvm.load %0 {align = 8 : i32} : !llvm.ptr<5> -> !llvm.ptr
    %47 = nvvm.sext %45 : i32 to i64
    %48 = nvvm.constant 4 : i64
    %49 = nvvm.mul %47, %48 : i64
    %50 = nvvm.ptradd %46, %49 : !llvm.ptr, i64
    %51 = nvvm.load %6 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %52 = nvvm.uitofp %51 : i32 to f32
    %53 = nvvm.load %4 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %54 = nvvm.fadd %53, %52 {contract} : f32
    nvvm.store %54, %50 {align = 4 : i32} : f32, !llvm.ptr
    func.return
  }
  func.func @_Z6samplePfyi(%arg0: !cuda.ptr<f32>, %arg1: i64, %arg2: i32) attributes {cuda.kernel} {
    %0 = nvvm.alloca {align = 8 : i32, name = "out", size = 8 : i64} : !llvm.ptr<5>
    %1 = nvvm.alloca {align = 8 : i32, name = "t", size = 8 : i64} : !llvm.ptr<5>
    %2 = nvvm.alloca {align = 4 : i32, name = "n", size = 4 : i64} : !llvm.ptr<5>
    %3 = nvvm.alloca {align = 4 : i32, name = "i", size = 4 : i64} : !llvm.ptr<5>
    %4 = builtin.unrealized_conversion_cast %arg0 : !cuda.ptr<f32> to !llvm.ptr
    nvvm.store %4, %0 {align = 8 : i32} : !llvm.ptr, !llvm.ptr<5>
    nvvm.store %arg1, %1 {align = 8 : i32} : i64, !llvm.ptr<5>
    nvvm.store %arg2, %2 {align = 4 : i32} : i32, !llvm.ptr<5>
    %5 = nvvm.sreg tid_x : i32
    nvvm.store %5, %3 {align = 4 : i32} : i32, !llvm.ptr<5>
    %6 = nvvm.load %3 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %7 = nvvm.load %2 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %8 = nvvm.icmp slt, %6, %7 : i32
    cf.cond_br %8, ^bb1, ^bb2
  ^bb1:
    %9 = nvvm.load %3 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %10 = nvvm.load %0 {align = 8 : i32} : !llvm.ptr<5> -> !llvm.ptr
    %11 = nvvm.sext %9 : i32 to i64
    %12 = nvvm.constant 4 : i64
    %13 = nvvm.mul %11, %12 : i64
    %14 = nvvm.ptradd %10, %13 : !llvm.ptr, i64
    %15 = nvvm.constant 5.000000e-01 : f32
    %16 = nvvm.load %3 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %17 = nvvm.sitofp %16 : i32 to f32
    %18 = nvvm.fadd %17, %15 {contract} : f32
    %19 = nvvm.constant 5.000000e-01 : f32
    %20 = nvvm.load %1 {align = 8 : i32} : !llvm.ptr<5> -> i64
    %21 = func.call @_Z5tex2DIfET_yff(%20, %18, %19) : (i64, f32, f32) -> f32
    nvvm.store %21, %14 {align = 4 : i32} : f32, !llvm.ptr
    cf.br ^bb3
  ^bb2:
    cf.br ^bb3
  ^bb3:
    func.return
  }
  func.func @_Z5tex2DIfET_yff(%arg0: i64, %arg1: f32, %arg2: f32) -> f32 attributes {alwaysinline} {
    %0 = nvvm.alloca {align = 8 : i32, name = "t", size = 8 : i64} : !llvm.ptr<5>
    %1 = nvvm.alloca {align = 4 : i32, name = "x", size = 4 : i64} : !llvm.ptr<5>
    %2 = nvvm.alloca {align = 4 : i32, name = "y", size = 4 : i64} : !llvm.ptr<5>
    %3 = nvvm.alloca {align = 4 : i32, name = "r", size = 4 : i64} : !llvm.ptr<5>
    nvvm.store %arg0, %0 {align = 8 : i32} : i64, !llvm.ptr<5>
    nvvm.store %arg1, %1 {align = 4 : i32} : f32, !llvm.ptr<5>
    nvvm.store %arg2, %2 {align = 4 : i32} : f32, !llvm.ptr<5>
    %4 = nvvm.addrspacecast %3 : !llvm.ptr<5> to !llvm.ptr
    %5 = builtin.unrealized_conversion_cast %4 : !llvm.ptr to !cuda.ptr<f32>
    %6 = nvvm.load %0 {align = 8 : i32} : !llvm.ptr<5> -> i64
    %7 = nvvm.load %1 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %8 = nvvm.load %2 {align = 4 : i32} : !llvm.ptr<5> -> f32
    func.call @_Z16__cuprite_tex_2dPfyff(%5, %6, %7, %8) : (!cuda.ptr<f32>, i64, f32, f32) -> ()
    %9 = nvvm.load %3 {align = 4 : i32} : !llvm.ptr<5> -> f32
    func.return %9 : f32
  }
  func.func @_Z16__cuprite_tex_2dPfyff(%arg0: !cuda.ptr<f32>, %arg1: i64, %arg2: f32, %arg3: f32) attributes {alwaysinline} {
    %0 = nvvm.alloca {align = 8 : i32, name = "r", size = 8 : i64} : !llvm.ptr<5>
    %1 = nvvm.alloca {align = 8 : i32, name = "t", size = 8 : i64} : !llvm.ptr<5>
    %2 = nvvm.alloca {align = 4 : i32, name = "x", size = 4 : i64} : !llvm.ptr<5>
    %3 = nvvm.alloca {align = 4 : i32, name = "y", size = 4 : i64} : !llvm.ptr<5>
    %4 = nvvm.alloca {align = 16 : i32, name = "texel", size = 16 : i64} : !llvm.ptr<5>
    %5 = nvvm.alloca {align = 16 : i32, name = "v", size = 16 : i64} : !llvm.ptr<5>
    %6 = builtin.unrealized_conversion_cast %arg0 : !cuda.ptr<f32> to !llvm.ptr
    nvvm.store %6, %0 {align = 8 : i32} : !llvm.ptr, !llvm.ptr<5>
    nvvm.store %arg1, %1 {align = 8 : i32} : i64, !llvm.ptr<5>
    nvvm.store %arg2, %2 {align = 4 : i32} : f32, !llvm.ptr<5>
    nvvm.store %arg3, %3 {align = 4 : i32} : f32, !llvm.ptr<5>
    %7 = nvvm.load %1 {align = 8 : i32} : !llvm.ptr<5> -> i64
    %8 = nvvm.load %2 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %9 = nvvm.load %3 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %10:4 = nvvm.tex "2d"(%7, %8, %9) {kind = "f32"} : (i64, f32, f32) -> (f32, f32, f32, f32)
    nvvm.store %10#0, %4 {align = 4 : i32} : f32, !llvm.ptr<5>
    %11 = nvvm.constant 4 : i64
    %12 = nvvm.ptradd %4, %11 : !llvm.ptr<5>, i64
    nvvm.store %10#1, %12 {align = 4 : i32} : f32, !llvm.ptr<5>
    %13 = nvvm.constant 8 : i64
    %14 = nvvm.ptradd %4, %13 : !llvm.ptr<5>, i64
    nvvm.store %10#2, %14 {align = 4 : i32} : f32, !llvm.ptr<5>
    %15 = nvvm.constant 12 : i64
    %16 = nvvm.ptradd %4, %15 : !llvm.ptr<5>, i64
    nvvm.store %10#3, %16 {align = 4 : i32} : f32, !llvm.ptr<5>
    %17 = nvvm.load %4 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %18 = nvvm.constant 4 : i64
    %19 = nvvm.ptradd %4, %18 : !llvm.ptr<5>, i64
    %20 = nvvm.load %19 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %21 = nvvm.constant 8 : i64
    %22 = nvvm.ptradd %4, %21 : !llvm.ptr<5>, i64
    %23 = nvvm.load %22 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %24 = nvvm.constant 12 : i64
    %25 = nvvm.ptradd %4, %24 : !llvm.ptr<5>, i64
    %26 = nvvm.load %25 {align = 4 : i32} : !llvm.ptr<5> -> f32
    nvvm.store %17, %5 {align = 4 : i32} : f32, !llvm.ptr<5>
    %27 = nvvm.constant 4 : i64
    %28 = nvvm.ptradd %5, %27 : !llvm.ptr<5>, i64
    nvvm.store %20, %28 {align = 4 : i32} : f32, !llvm.ptr<5>
    %29 = nvvm.constant 8 : i64
    %30 = nvvm.ptradd %5, %29 : !llvm.ptr<5>, i64
    nvvm.store %23, %30 {align = 4 : i32} : f32, !llvm.ptr<5>
    %31 = nvvm.constant 12 : i64
    %32 = nvvm.ptradd %5, %31 : !llvm.ptr<5>, i64
    nvvm.store %26, %32 {align = 4 : i32} : f32, !llvm.ptr<5>
    %33 = nvvm.load %0 {align = 8 : i32} : !llvm.ptr<5> -> !llvm.ptr
    %34 = nvvm.load %5 {align = 4 : i32} : !llvm.ptr<5> -> f32
    nvvm.store %34, %33 {align = 4 : i32} : f32, !llvm.ptr
    func.return
  }
}
