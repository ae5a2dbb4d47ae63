// RUN: --convert-cuda-to-nvvm --pass-statistics
// convert-cuda-to-nvvm: globals (one with an initializer), local and __shared__ variables
// (an extern __shared__ array too), addresses of globals, scalar and struct loads and
// stores (volatile, __ldg's cache operator), inline asm, a texture fetch and __trap, as
// the compiler makes them from CUDA kernels written to use them all, after the conversions
// that run before this one. Made from tests/ir/sources/convert_cuda_to_nvvm.cu (see its
// header), with the func ops written with their `func.` prefix.
module {
  cuda.global constant @weights : !cuda.array<4 x f32> = [5.000000e-01 : f32, 2.500000e-01 : f32, 1.250000e-01 : f32, 1.250000e-01 : f32]
  cuda.global global @hits : i32
  func.func @_Z7advance8Particle6float3f(%arg0: !cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>, %arg1: !cuda.struct<"float3", {f32, f32, f32}>, %arg2: f32) -> !cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}> attributes {noinline} {
    %0 = cuda.var "p" : !cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>, local>
    cuda.store %arg0, %0 : !cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>, !cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>, local>
    %1 = cuda.var "v" : !cuda.ptr<!cuda.struct<"float3", {f32, f32, f32}>, local>
    cuda.store %arg1, %1 : !cuda.struct<"float3", {f32, f32, f32}>, !cuda.ptr<!cuda.struct<"float3", {f32, f32, f32}>, local>
    %2 = cuda.var "dt" : !cuda.ptr<f32, local>
    cuda.store %arg2, %2 : f32, !cuda.ptr<f32, local>
    %3 = builtin.unrealized_conversion_cast %0 : !cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>, local> to !llvm.ptr<5>
    %4 = builtin.unrealized_conversion_cast %3 : !llvm.ptr<5> to !cuda.ptr<f32, local>
    %5 = builtin.unrealized_conversion_cast %1 : !cuda.ptr<!cuda.struct<"float3", {f32, f32, f32}>, local> to !llvm.ptr<5>
    %6 = builtin.unrealized_conversion_cast %5 : !llvm.ptr<5> to !cuda.ptr<f32, local>
    %7 = cuda.load %6 : !cuda.ptr<f32, local> -> f32
    %8 = cuda.load %2 : !cuda.ptr<f32, local> -> f32
    %9 = nvvm.fmul %7, %8 {contract} : f32
    %10 = cuda.load %4 : !cuda.ptr<f32, local> -> f32
    %11 = nvvm.fadd %10, %9 {contract} : f32
    cuda.store %11, %4 : f32, !cuda.ptr<f32, local>
    %12 = builtin.unrealized_conversion_cast %0 : !cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>, local> to !llvm.ptr<5>
    %13 = nvvm.constant 4 : i64
    %14 = nvvm.ptradd %12, %13 : !llvm.ptr<5>, i64
    %15 = builtin.unrealized_conversion_cast %14 : !llvm.ptr<5> to !cuda.ptr<f32, local>
    %16 = builtin.unrealized_conversion_cast %1 : !cuda.ptr<!cuda.struct<"float3", {f32, f32, f32}>, local> to !llvm.ptr<5>
    %17 = nvvm.constant 4 : i64
    %18 = nvvm.ptradd %16, %17 : !llvm.ptr<5>, i64
    %19 = builtin.unrealized_conversion_cast %18 : !llvm.ptr<5> to !cuda.ptr<f32, local>
    %20 = cuda.load %19 : !cuda.ptr<f32, local> -> f32
    %21 = cuda.load %2 : !cuda.ptr<f32, local> -> f32
    %22 = nvvm.fmul %20, %21 {contract} : f32
    %23 = cuda.load %15 : !cuda.ptr<f32, local> -> f32
    %24 = nvvm.fadd %23, %22 {contract} : f32
    cuda.store %24, %15 : f32, !cuda.ptr<f32, local>
    %25 = builtin.unrealized_conversion_cast %0 : !cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>, local> to !llvm.ptr<5>
    %26 = nvvm.constant 8 : i64
    %27 = nvvm.ptradd %25, %26 : !llvm.ptr<5>, i64
    %28 = builtin.unrealized_conversion_cast %27 : !llvm.ptr<5> to !cuda.ptr<f32, local>
    %29 = builtin.unrealized_conversion_cast %1 : !cuda.ptr<!cuda.struct<"float3", {f32, f32, f32}>, local> to !llvm.ptr<5>
    %30 = nvvm.constant 8 : i64
    %31 = nvvm.ptradd %29, %30 : !llvm.ptr<5>, i64
    %32 = builtin.unrealized_conversion_cast %31 : !llvm.ptr<5> to !cuda.ptr<f32, local>
    %33 = cuda.load %32 : !cuda.ptr<f32, local> -> f32
    %34 = cuda.load %2 : !cuda.ptr<f32, local> -> f32
    %35 = nvvm.fmul %33, %34 {contract} : f32
    %36 = cuda.load %28 : !cuda.ptr<f32, local> -> f32
    %37 = nvvm.fadd %36, %35 {contract} : f32
    cuda.store %37, %28 : f32, !cuda.ptr<f32, local>
    %38 = cuda.load %0 : !cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>, local> -> !cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>
    func.return %38 : !cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>
  }
  func.func @_Z5widen6Boundsf(%arg0: !cuda.struct<"Bounds", {f32, f32}>, %arg1: f32) -> !cuda.struct<"Bounds", {f32, f32}> attributes {noinline} {
    %0 = cuda.var "b" : !cuda.ptr<!cuda.struct<"Bounds", {f32, f32}>, local>
    cuda.store %arg0, %0 : !cuda.struct<"Bounds", {f32, f32}>, !cuda.ptr<!cuda.struct<"Bounds", {f32, f32}>, local>
    %1 = cuda.var "by" : !cuda.ptr<f32, local>
    cuda.store %arg1, %1 : f32, !cuda.ptr<f32, local>
    %2 = nvvm.constant 0.000000e+00 : f32
    %3 = cuda.load %1 : !cuda.ptr<f32, local> -> f32
    %4 = nvvm.fcmp olt, %3, %2 : f32
    cf.cond_br %4, ^bb1, ^bb2
  ^bb1:
    cuda.intrinsic "__trap"() : () -> ()
    cf.br ^bb3
  ^bb2:
    cf.br ^bb3
  ^bb3:
    %5 = cuda.var "" : !cuda.ptr<!cuda.struct<"Bounds", {f32, f32}>, local>
    %6 = builtin.unrealized_conversion_cast %5 : !cuda.ptr<!cuda.struct<"Bounds", {f32, f32}>, local> to !llvm.ptr<5>
    %7 = builtin.unrealized_conversion_cast %6 : !llvm.ptr<5> to !cuda.ptr<f32, local>
    %8 = builtin.unrealized_conversion_cast %0 : !cuda.ptr<!cuda.struct<"Bounds", {f32, f32}>, local> to !llvm.ptr<5>
    %9 = builtin.unrealized_conversion_cast %8 : !llvm.ptr<5> to !cuda.ptr<f32, local>
    %10 = cuda.load %9 : !cuda.ptr<f32, local> -> f32
    %11 = cuda.load %1 : !cuda.ptr<f32, local> -> f32
    %12 = nvvm.fsub %10, %11 {contract} : f32
    cuda.store %12, %7 : f32, !cuda.ptr<f32, local>
    %13 = builtin.unrealized_conversion_cast %5 : !cuda.ptr<!cuda.struct<"Bounds", {f32, f32}>, local> to !llvm.ptr<5>
    %14 = nvvm.constant 4 : i64
    %15 = nvvm.ptradd %13, %14 : !llvm.ptr<5>, i64
    %16 = builtin.unrealized_conversion_cast %15 : !llvm.ptr<5> to !cuda.ptr<f32, local>
    %17 = builtin.unrealized_conversion_cast %0 : !cuda.ptr<!cuda.struct<"Bounds", {f32, f32}>, local> to !llvm.ptr<5>
    %18 = nvvm.constant 4 : i64
    %19 = nvvm.ptradd %17, %18 : !llvm.ptr<5>, i64
    %20 = builtin.unrealized_conversion_cast %19 : !llvm.ptr<5> to !cuda.ptr<f32, local>
    %21 = cuda.load %20 : !cuda.ptr<f32, local> -> f32
    %22 = cuda.load %1 : !cuda.ptr<f32, local> -> f32
    %23 = nvvm.fadd %21, %22 {contract} : f32
    cuda.store %23, %16 : f32, !cuda.ptr<f32, local>
    %24 = cuda.load %5 : !cuda.ptr<!cuda.struct<"Bounds", {f32, f32}>, local> -> !cuda.struct<"Bounds", {f32, f32}>
    func.return %24 : !cuda.struct<"Bounds", {f32, f32}>
  }
  func.func @_Z7sign_ofi(%arg0: i32) -> i32 attributes {noinline} {
    %0 = cuda.var "x" : !cuda.ptr<i32, local>
    cuda.store %arg0, %0 : i32, !cuda.ptr<i32, local>
    %1 = nvvm.constant 0 : i32
    %2 = cuda.load %0 : !cuda.ptr<i32, local> -> i32
    %3 = nvvm.icmp slt, %2, %1 : i32
    cf.cond_br %3, ^bb1, ^bb2
  ^bb1:
    %4 = nvvm.constant 1 : i32
    %5 = nvvm.constant 0 : i32
    %6 = nvvm.sub %5, %4 : i32
    func.return %6 : i32
  ^bb2:
    %7 = nvvm.constant 0 : i32
    %8 = cuda.load %0 : !cuda.ptr<i32, local> -> i32
    %9 = nvvm.icmp sgt, %8, %7 : i32
    %10 = nvvm.zext %9 : i1 to i32
    func.return %10 : i32
  ^bb3:
    ub.unreachable
  }
  func.func @_Z4stepP8ParticlePK6float36Boundsfi(%arg0: !cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>>, %arg1: !cuda.ptr<!cuda.struct<"float3", {f32, f32, f32}>>, %arg2: !cuda.struct<"Bounds", {f32, f32}>, %arg3: f32, %arg4: i32) attributes {cuda.kernel} {
    %0 = cuda.var "ps" : !cuda.ptr<!cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>>, local>
    cuda.store %arg0, %0 : !cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>>, !cuda.ptr<!cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>>, local>
    %1 = cuda.var "vel" : !cuda.ptr<!cuda.ptr<!cuda.struct<"float3", {f32, f32, f32}>>, local>
    cuda.store %arg1, %1 : !cuda.ptr<!cuda.struct<"float3", {f32, f32, f32}>>, !cuda.ptr<!cuda.ptr<!cuda.struct<"float3", {f32, f32, f32}>>, local>
    %2 = cuda.var "box" : !cuda.ptr<!cuda.struct<"Bounds", {f32, f32}>, local>
    cuda.store %arg2, %2 : !cuda.struct<"Bounds", {f32, f32}>, !cuda.ptr<!cuda.struct<"Bounds", {f32, f32}>, local>
    %3 = cuda.var "dt" : !cuda.ptr<f32, local>
    cuda.store %arg3, %3 : f32, !cuda.ptr<f32, local>
    %4 = cuda.var "n" : !cuda.ptr<i32, local>
    cuda.store %arg4, %4 : i32, !cuda.ptr<i32, local>
    %5 = cuda.var "tile" : !cuda.ptr<!cuda.array<32 x !cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>>, shared>
    %6 = cuda.var "i" : !cuda.ptr<i32, local>
    %7 = nvvm.sreg ctaid_x : i32
    %8 = nvvm.sreg ntid_x : i32
    %9 = nvvm.mul %7, %8 : i32
    %10 = nvvm.sreg tid_x : i32
    %11 = nvvm.add %9, %10 : i32
    cuda.store %11, %6 : i32, !cuda.ptr<i32, local>
    %12 = cuda.load %6 : !cuda.ptr<i32, local> -> i32
    %13 = cuda.load %4 : !cuda.ptr<i32, local> -> i32
    %14 = nvvm.icmp sge, %12, %13 : i32
    cf.cond_br %14, ^bb1, ^bb2
  ^bb1:
    func.return
  ^bb2:
    cf.br ^bb3
  ^bb3:
    %15 = cuda.var "p" : !cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>, local>
    %16 = cuda.load %6 : !cuda.ptr<i32, local> -> i32
    %17 = cuda.load %0 : !cuda.ptr<!cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>>, local> -> !cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>>
    %18 = builtin.unrealized_conversion_cast %17 : !cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>> to !llvm.ptr
    %19 = nvvm.sext %16 : i32 to i64
    %20 = nvvm.constant 20 : i64
    %21 = nvvm.mul %19, %20 : i64
    %22 = nvvm.ptradd %18, %21 : !llvm.ptr, i64
    %23 = builtin.unrealized_conversion_cast %22 : !llvm.ptr to !cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>>
    %24 = cuda.load %23 : !cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>> -> !cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>
    cuda.store %24, %15 : !cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>, !cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>, local>
    %25 = nvvm.sreg tid_x : i32
    %26 = nvvm.constant 32 : i32
    %27 = nvvm.urem %25, %26 : i32
    %28 = builtin.unrealized_conversion_cast %5 : !cuda.ptr<!cuda.array<32 x !cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>>, shared> to !llvm.ptr<3>
    %29 = nvvm.zext %27 : i32 to i64
    %30 = nvvm.constant 20 : i64
    %31 = nvvm.mul %29, %30 : i64
    %32 = nvvm.ptradd %28, %31 : !llvm.ptr<3>, i64
    %33 = builtin.unrealized_conversion_cast %32 : !llvm.ptr<3> to !cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>, shared>
    %34 = cuda.load %15 : !cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>, local> -> !cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>
    cuda.store %34, %33 : !cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>, !cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>, shared>
    nvvm.barrier sync() : () -> ()
    %35 = cuda.var "q" : !cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>, local>
    %36 = nvvm.sreg tid_x : i32
    %37 = nvvm.constant 32 : i32
    %38 = nvvm.urem %36, %37 : i32
    %39 = builtin.unrealized_conversion_cast %5 : !cuda.ptr<!cuda.array<32 x !cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>>, shared> to !llvm.ptr<3>
    %40 = nvvm.zext %38 : i32 to i64
    %41 = nvvm.constant 20 : i64
    %42 = nvvm.mul %40, %41 : i64
    %43 = nvvm.ptradd %39, %42 : !llvm.ptr<3>, i64
    %44 = builtin.unrealized_conversion_cast %43 : !llvm.ptr<3> to !cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>, shared>
    %45 = cuda.load %6 : !cuda.ptr<i32, local> -> i32
    %46 = cuda.load %1 : !cuda.ptr<!cuda.ptr<!cuda.struct<"float3", {f32, f32, f32}>>, local> -> !cuda.ptr<!cuda.struct<"float3", {f32, f32, f32}>>
    %47 = builtin.unrealized_conversion_cast %46 : !cuda.ptr<!cuda.struct<"float3", {f32, f32, f32}>> to !llvm.ptr
    %48 = nvvm.sext %45 : i32 to i64
    %49 = nvvm.constant 12 : i64
    %50 = nvvm.mul %48, %49 : i64
    %51 = nvvm.ptradd %47, %50 : !llvm.ptr, i64
    %52 = builtin.unrealized_conversion_cast %51 : !llvm.ptr to !cuda.ptr<!cuda.struct<"float3", {f32, f32, f32}>>
    %53 = cuda.addressof @weights : !cuda.ptr<!cuda.array<4 x f32>, constant>
    %54 = nvvm.constant 3 : i32
    %55 = cuda.load %6 : !cuda.ptr<i32, local> -> i32
    %56 = nvvm.and %55, %54 : i32
    %57 = builtin.unrealized_conversion_cast %53 : !cuda.ptr<!cuda.array<4 x f32>, constant> to !llvm.ptr<4>
    %58 = nvvm.sext %56 : i32 to i64
    %59 = nvvm.constant 4 : i64
    %60 = nvvm.mul %58, %59 : i64
    %61 = nvvm.ptradd %57, %60 : !llvm.ptr<4>, i64
    %62 = builtin.unrealized_conversion_cast %61 : !llvm.ptr<4> to !cuda.ptr<f32, constant>
    %63 = cuda.load %3 : !cuda.ptr<f32, local> -> f32
    %64 = cuda.load %62 : !cuda.ptr<f32, constant> -> f32
    %65 = nvvm.fmul %63, %64 {contract} : f32
    %66 = cuda.load %44 : !cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>, shared> -> !cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>
    %67 = cuda.load %52 : !cuda.ptr<!cuda.struct<"float3", {f32, f32, f32}>> -> !cuda.struct<"float3", {f32, f32, f32}>
    %68 = func.call @_Z7advance8Particle6float3f(%66, %67, %65) : (!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>, !cuda.struct<"float3", {f32, f32, f32}>, f32) -> !cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>
    cuda.store %68, %35 : !cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>, !cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>, local>
    %69 = cuda.var "b" : !cuda.ptr<!cuda.struct<"Bounds", {f32, f32}>, local>
    %70 = nvvm.constant 5.000000e-01 : f32
    %71 = cuda.load %2 : !cuda.ptr<!cuda.struct<"Bounds", {f32, f32}>, local> -> !cuda.struct<"Bounds", {f32, f32}>
    %72 = func.call @_Z5widen6Boundsf(%71, %70) : (!cuda.struct<"Bounds", {f32, f32}>, f32) -> !cuda.struct<"Bounds", {f32, f32}>
    cuda.store %72, %69 : !cuda.struct<"Bounds", {f32, f32}>, !cuda.ptr<!cuda.struct<"Bounds", {f32, f32}>, local>
    %73 = builtin.unrealized_conversion_cast %35 : !cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>, local> to !llvm.ptr<5>
    %74 = builtin.unrealized_conversion_cast %73 : !llvm.ptr<5> to !cuda.ptr<f32, local>
    %75 = builtin.unrealized_conversion_cast %35 : !cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>, local> to !llvm.ptr<5>
    %76 = builtin.unrealized_conversion_cast %75 : !llvm.ptr<5> to !cuda.ptr<f32, local>
    %77 = builtin.unrealized_conversion_cast %69 : !cuda.ptr<!cuda.struct<"Bounds", {f32, f32}>, local> to !llvm.ptr<5>
    %78 = builtin.unrealized_conversion_cast %77 : !llvm.ptr<5> to !cuda.ptr<f32, local>
    %79 = cuda.load %76 : !cuda.ptr<f32, local> -> f32
    %80 = cuda.load %78 : !cuda.ptr<f32, local> -> f32
    %81 = nvvm.intr "max"(%79, %80) : (f32, f32) -> f32
    %82 = builtin.unrealized_conversion_cast %69 : !cuda.ptr<!cuda.struct<"Bounds", {f32, f32}>, local> to !llvm.ptr<5>
    %83 = nvvm.constant 4 : i64
    %84 = nvvm.ptradd %82, %83 : !llvm.ptr<5>, i64
    %85 = builtin.unrealized_conversion_cast %84 : !llvm.ptr<5> to !cuda.ptr<f32, local>
    %86 = cuda.load %85 : !cuda.ptr<f32, local> -> f32
    %87 = nvvm.intr "min"(%81, %86) : (f32, f32) -> f32
    cuda.store %87, %74 : f32, !cuda.ptr<f32, local>
    %88 = builtin.unrealized_conversion_cast %35 : !cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>, local> to !llvm.ptr<5>
    %89 = builtin.unrealized_conversion_cast %88 : !llvm.ptr<5> to !cuda.ptr<f32, local>
    %90 = builtin.unrealized_conversion_cast %69 : !cuda.ptr<!cuda.struct<"Bounds", {f32, f32}>, local> to !llvm.ptr<5>
    %91 = nvvm.constant 4 : i64
    %92 = nvvm.ptradd %90, %91 : !llvm.ptr<5>, i64
    %93 = builtin.unrealized_conversion_cast %92 : !llvm.ptr<5> to !cuda.ptr<f32, local>
    %94 = cuda.load %89 : !cuda.ptr<f32, local> -> f32
    %95 = cuda.load %93 : !cuda.ptr<f32, local> -> f32
    %96 = nvvm.fcmp oeq, %94, %95 : f32
    cf.cond_br %96, ^bb4, ^bb5
  ^bb4:
    %97 = builtin.unrealized_conversion_cast %35 : !cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>, local> to !llvm.ptr<5>
    %98 = nvvm.constant 16 : i64
    %99 = nvvm.ptradd %97, %98 : !llvm.ptr<5>, i64
    %100 = builtin.unrealized_conversion_cast %99 : !llvm.ptr<5> to !cuda.ptr<i32, local>
    %101 = cuda.load %100 : !cuda.ptr<i32, local> -> i32
    %102 = func.call @_Z7sign_ofi(%101) : (i32) -> i32
    %103 = nvvm.constant 0 : i32
    %104 = nvvm.icmp sge, %102, %103 : i32
    cf.br ^bb6(%104 : i1)
  ^bb5:
    %105 = nvvm.constant false
    cf.br ^bb6(%105 : i1)
  ^bb6(%106: i1):
    cf.cond_br %106, ^bb7, ^bb8
  ^bb7:
    %107 = cuda.addressof @hits : !cuda.ptr<i32, global>
    %108 = builtin.unrealized_conversion_cast %107 : !cuda.ptr<i32, global> to !llvm.ptr<1>
    %109 = nvvm.addrspacecast %108 : !llvm.ptr<1> to !llvm.ptr
    %110 = builtin.unrealized_conversion_cast %35 : !cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>, local> to !llvm.ptr<5>
    %111 = nvvm.constant 16 : i64
    %112 = nvvm.ptradd %110, %111 : !llvm.ptr<5>, i64
    %113 = builtin.unrealized_conversion_cast %112 : !llvm.ptr<5> to !cuda.ptr<i32, local>
    %114 = cuda.load %113 : !cuda.ptr<i32, local> -> i32
    %115 = func.call @_Z7sign_ofi(%114) : (i32) -> i32
    %116 = nvvm.constant 1 : i32
    %117 = nvvm.add %115, %116 : i32
    %118 = nvvm.atomicrmw add %109, %117 gpu : !llvm.ptr, i32
    cf.br ^bb9
  ^bb8:
    cf.br ^bb9
  ^bb9:
    %119 = cuda.var "vp" : !cuda.ptr<!cuda.ptr<f32>, local>
    %120 = cuda.load %6 : !cuda.ptr<i32, local> -> i32
    %121 = cuda.load %0 : !cuda.ptr<!cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>>, local> -> !cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>>
    %122 = builtin.unrealized_conversion_cast %121 : !cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>> to !llvm.ptr
    %123 = nvvm.sext %120 : i32 to i64
    %124 = nvvm.constant 20 : i64
    %125 = nvvm.mul %123, %124 : i64
    %126 = nvvm.ptradd %122, %125 : !llvm.ptr, i64
    %127 = nvvm.constant 12 : i64
    %128 = nvvm.ptradd %126, %127 : !llvm.ptr, i64
    %129 = builtin.unrealized_conversion_cast %128 : !llvm.ptr to !cuda.ptr<f32>
    cuda.store %129, %119 : !cuda.ptr<f32>, !cuda.ptr<!cuda.ptr<f32>, local>
    %130 = cuda.load %119 : !cuda.ptr<!cuda.ptr<f32>, local> -> !cuda.ptr<f32>
    %131 = builtin.unrealized_conversion_cast %35 : !cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>, local> to !llvm.ptr<5>
    %132 = nvvm.constant 12 : i64
    %133 = nvvm.ptradd %131, %132 : !llvm.ptr<5>, i64
    %134 = builtin.unrealized_conversion_cast %133 : !llvm.ptr<5> to !cuda.ptr<f32, local>
    %135 = cuda.load %134 : !cuda.ptr<f32, local> -> f32
    cuda.store %135, %130 {volatile} : f32, !cuda.ptr<f32>
    %136 = cuda.load %6 : !cuda.ptr<i32, local> -> i32
    %137 = cuda.load %0 : !cuda.ptr<!cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>>, local> -> !cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>>
    %138 = builtin.unrealized_conversion_cast %137 : !cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>> to !llvm.ptr
    %139 = nvvm.sext %136 : i32 to i64
    %140 = nvvm.constant 20 : i64
    %141 = nvvm.mul %139, %140 : i64
    %142 = nvvm.ptradd %138, %141 : !llvm.ptr, i64
    %143 = builtin.unrealized_conversion_cast %142 : !llvm.ptr to !cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>>
    %144 = cuda.load %35 : !cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>, local> -> !cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>
    cuda.store %144, %143 : !cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>, !cuda.ptr<!cuda.struct<"Particle", {!cuda.struct<"float3", {f32, f32, f32}>, f32, i32}>>
    func.return
  }
  func.func @_Z6scaledPfPKfi(%arg0: !cuda.ptr<f32>, %arg1: !cuda.ptr<f32>, %arg2: i32) attributes {cuda.kernel} {
    %0 = cuda.var "out" : !cuda.ptr<!cuda.ptr<f32>, local>
    cuda.store %arg0, %0 : !cuda.ptr<f32>, !cuda.ptr<!cuda.ptr<f32>, local>
    %1 = cuda.var "in" : !cuda.ptr<!cuda.ptr<f32>, local>
    cuda.store %arg1, %1 : !cuda.ptr<f32>, !cuda.ptr<!cuda.ptr<f32>, local>
    %2 = cuda.var "n" : !cuda.ptr<i32, local>
    cuda.store %arg2, %2 : i32, !cuda.ptr<i32, local>
    %3 = cuda.var "buf" {dynamic} : !cuda.ptr<f32, shared>
    %4 = cuda.var "i" : !cuda.ptr<i32, local>
    %5 = nvvm.sreg tid_x : i32
    cuda.store %5, %4 : i32, !cuda.ptr<i32, local>
    %6 = cuda.load %4 : !cuda.ptr<i32, local> -> i32
    %7 = builtin.unrealized_conversion_cast %3 : !cuda.ptr<f32, shared> to !llvm.ptr<3>
    %8 = nvvm.sext %6 : i32 to i64
    %9 = nvvm.constant 4 : i64
    %10 = nvvm.mul %8, %9 : i64
    %11 = nvvm.ptradd %7, %10 : !llvm.ptr<3>, i64
    %12 = builtin.unrealized_conversion_cast %11 : !llvm.ptr<3> to !cuda.ptr<f32, shared>
    %13 = cuda.load %4 : !cuda.ptr<i32, local> -> i32
    %14 = cuda.load %1 : !cuda.ptr<!cuda.ptr<f32>, local> -> !cuda.ptr<f32>
    %15 = builtin.unrealized_conversion_cast %14 : !cuda.ptr<f32> to !llvm.ptr
    %16 = nvvm.sext %13 : i32 to i64
    %17 = nvvm.constant 4 : i64
    %18 = nvvm.mul %16, %17 : i64
    %19 = nvvm.ptradd %15, %18 : !llvm.ptr, i64
    %20 = builtin.unrealized_conversion_cast %19 : !llvm.ptr to !cuda.ptr<f32>
    %21 = cuda.load %20 {cache = "nc"} : !cuda.ptr<f32> -> f32
    cuda.store %21, %12 : f32, !cuda.ptr<f32, shared>
    nvvm.barrier sync() : () -> ()
    %22 = cuda.var "acc" : !cuda.ptr<f32, local>
    %23 = nvvm.constant 0.000000e+00 : f32
    cuda.store %23, %22 : f32, !cuda.ptr<f32, local>
    %24 = cuda.var "k" : !cuda.ptr<i32, local>
    %25 = nvvm.constant 0 : i32
    cuda.store %25, %24 : i32, !cuda.ptr<i32, local>
    cf.br ^bb1
  ^bb1:
    %26 = cuda.load %24 : !cuda.ptr<i32, local> -> i32
    %27 = cuda.load %2 : !cuda.ptr<i32, local> -> i32
    %28 = nvvm.icmp slt, %26, %27 : i32
    cf.cond_br %28, ^bb2, ^bb3
  ^bb2:
    %29 = cuda.load %4 : !cuda.ptr<i32, local> -> i32
    %30 = cuda.load %24 : !cuda.ptr<i32, local> -> i32
    %31 = nvvm.add %29, %30 : i32
    %32 = cuda.load %2 : !cuda.ptr<i32, local> -> i32
    %33 = nvvm.srem %31, %32 : i32
    %34 = builtin.unrealized_conversion_cast %3 : !cuda.ptr<f32, shared> to !llvm.ptr<3>
    %35 = nvvm.sext %33 : i32 to i64
    %36 = nvvm.constant 4 : i64
    %37 = nvvm.mul %35, %36 : i64
    %38 = nvvm.ptradd %34, %37 : !llvm.ptr<3>, i64
    %39 = builtin.unrealized_conversion_cast %38 : !llvm.ptr<3> to !cuda.ptr<f32, shared>
    %40 = cuda.load %22 : !cuda.ptr<f32, local> -> f32
    %41 = cuda.load %39 : !cuda.ptr<f32, shared> -> f32
    %42 = nvvm.fadd %40, %41 {contract} : f32
    cuda.store %42, %22 : f32, !cuda.ptr<f32, local>
    %43 = cuda.load %24 : !cuda.ptr<i32, local> -> i32
    %44 = nvvm.constant 1 : i32
    %45 = nvvm.add %43, %44 : i32
    cuda.store %45, %24 : i32, !cuda.ptr<i32, local>
    cf.br ^bb1
  ^bb3:
    %46 = cuda.var "lane" : !cuda.ptr<i32, local>
    %47 = cuda.asm "mov.u32 %0, %%laneid;", "=r"() {side_effects} : () -> i32
    cuda.store %47, %46 : i32, !cuda.ptr<i32, local>
    %48 = cuda.load %4 : !cuda.ptr<i32, local> -> i32
    %49 = cuda.load %0 : !cuda.ptr<!cuda.ptr<f32>, local> -> !cuda.ptr<f32>
    %50 = builtin.unrealized_conversion_cast %49 : !cuda.ptr<f32> to !llvm.ptr
    %51 = nvvm.sext %48 : i32 to i64
    %52 = nvvm.constant 4 : i64
    %53 = nvvm.mul %51, %52 : i64
    %54 = nvvm.ptradd %50, %53 : !llvm.ptr, i64
    %55 = builtin.unrealized_conversion_cast %54 : !llvm.ptr to !cuda.ptr<f32>
    %56 = cuda.load %46 : !cuda.ptr<i32, local> -> i32
    %57 = nvvm.uitofp %56 : i32 to f32
    %58 = cuda.load %22 : !cuda.ptr<f32, local> -> f32
    %59 = nvvm.fadd %58, %57 {contract} : f32
    cuda.store %59, %55 : f32, !cuda.ptr<f32>
    func.return
  }
  func.func @_Z6samplePfyi(%arg0: !cuda.ptr<f32>, %arg1: i64, %arg2: i32) attributes {cuda.kernel} {
    %0 = cuda.var "out" : !cuda.ptr<!cuda.ptr<f32>, local>
    cuda.store %arg0, %0 : !cuda.ptr<f32>, !cuda.ptr<!cuda.ptr<f32>, local>
    %1 = cuda.var "t" : !cuda.ptr<i64, local>
    cuda.store %arg1, %1 : i64, !cuda.ptr<i64, local>
    %2 = cuda.var "n" : !cuda.ptr<i32, local>
    cuda.store %arg2, %2 : i32, !cuda.ptr<i32, local>
    %3 = cuda.var "i" : !cuda.ptr<i32, local>
    %4 = nvvm.sreg tid_x : i32
    cuda.store %4, %3 : i32, !cuda.ptr<i32, local>
    %5 = cuda.load %3 : !cuda.ptr<i32, local> -> i32
    %6 = cuda.load %2 : !cuda.ptr<i32, local> -> i32
    %7 = nvvm.icmp slt, %5, %6 : i32
    cf.cond_br %7, ^bb1, ^bb2
  ^bb1:
    %8 = cuda.load %3 : !cuda.ptr<i32, local> -> i32
    %9 = cuda.load %0 : !cuda.ptr<!cuda.ptr<f32>, local> -> !cuda.ptr<f32>
    %10 = builtin.unrealized_conversion_cast %9 : !cuda.ptr<f32> to !llvm.ptr
    %11 = nvvm.sext %8 : i32 to i64
    %12 = nvvm.constant 4 : i64
    %13 = nvvm.mul %11, %12 : i64
    %14 = nvvm.ptradd %10, %13 : !llvm.ptr, i64
    %15 = builtin.unrealized_conversion_cast %14 : !llvm.ptr to !cuda.ptr<f32>
    %16 = nvvm.constant 5.000000e-01 : f32
    %17 = cuda.load %3 : !cuda.ptr<i32, local> -> i32
    %18 = nvvm.sitofp %17 : i32 to f32
    %19 = nvvm.fadd %18, %16 {contract} : f32
    %20 = nvvm.constant 5.000000e-01 : f32
    %21 = cuda.load %1 : !cuda.ptr<i64, local> -> i64
    %22 = func.call @_Z5tex2DIfET_yff(%21, %19, %20) : (i64, f32, f32) -> f32
    cuda.store %22, %15 : f32, !cuda.ptr<f32>
    cf.br ^bb3
  ^bb2:
    cf.br ^bb3
  ^bb3:
    func.return
  }
  func.func @_Z5tex2DIfET_yff(%arg0: i64, %arg1: f32, %arg2: f32) -> f32 attributes {alwaysinline} {
    %0 = cuda.var "t" : !cuda.ptr<i64, local>
    cuda.store %arg0, %0 : i64, !cuda.ptr<i64, local>
    %1 = cuda.var "x" : !cuda.ptr<f32, local>
    cuda.store %arg1, %1 : f32, !cuda.ptr<f32, local>
    %2 = cuda.var "y" : !cuda.ptr<f32, local>
    cuda.store %arg2, %2 : f32, !cuda.ptr<f32, local>
    %3 = cuda.var "r" : !cuda.ptr<f32, local>
    %4 = builtin.unrealized_conversion_cast %3 : !cuda.ptr<f32, local> to !llvm.ptr<5>
    %5 = nvvm.addrspacecast %4 : !llvm.ptr<5> to !llvm.ptr
    %6 = builtin.unrealized_conversion_cast %5 : !llvm.ptr to !cuda.ptr<f32>
    %7 = cuda.load %0 : !cuda.ptr<i64, local> -> i64
    %8 = cuda.load %1 : !cuda.ptr<f32, local> -> f32
    %9 = cuda.load %2 : !cuda.ptr<f32, local> -> f32
    func.call @_Z16__cuprite_tex_2dPfyff(%6, %7, %8, %9) : (!cuda.ptr<f32>, i64, f32, f32) -> ()
    %10 = cuda.load %3 : !cuda.ptr<f32, local> -> f32
    func.return %10 : f32
  }
  func.func @_Z16__cuprite_tex_2dPfyff(%arg0: !cuda.ptr<f32>, %arg1: i64, %arg2: f32, %arg3: f32) attributes {alwaysinline} {
    %0 = cuda.var "r" : !cuda.ptr<!cuda.ptr<f32>, local>
    cuda.store %arg0, %0 : !cuda.ptr<f32>, !cuda.ptr<!cuda.ptr<f32>, local>
    %1 = cuda.var "t" : !cuda.ptr<i64, local>
    cuda.store %arg1, %1 : i64, !cuda.ptr<i64, local>
    %2 = cuda.var "x" : !cuda.ptr<f32, local>
    cuda.store %arg2, %2 : f32, !cuda.ptr<f32, local>
    %3 = cuda.var "y" : !cuda.ptr<f32, local>
    cuda.store %arg3, %3 : f32, !cuda.ptr<f32, local>
    %4 = cuda.load %1 : !cuda.ptr<i64, local> -> i64
    %5 = cuda.load %2 : !cuda.ptr<f32, local> -> f32
    %6 = cuda.load %3 : !cuda.ptr<f32, local> -> f32
    %7:4 = cuda.tex "2d"(%4, %5, %6) : (i64, f32, f32) -> (f32, f32, f32, f32)
    %8 = cuda.var "texel" : !cuda.ptr<!cuda.struct<"float4", {f32, f32, f32, f32} align 16>, local>
    %9 = builtin.unrealized_conversion_cast %8 : !cuda.ptr<!cuda.struct<"float4", {f32, f32, f32, f32} align 16>, local> to !llvm.ptr<5>
    %10 = builtin.unrealized_conversion_cast %9 : !llvm.ptr<5> to !cuda.ptr<f32, local>
    cuda.store %7#0, %10 : f32, !cuda.ptr<f32, local>
    %11 = builtin.unrealized_conversion_cast %8 : !cuda.ptr<!cuda.struct<"float4", {f32, f32, f32, f32} align 16>, local> to !llvm.ptr<5>
    %12 = nvvm.constant 4 : i64
    %13 = nvvm.ptradd %11, %12 : !llvm.ptr<5>, i64
    %14 = builtin.unrealized_conversion_cast %13 : !llvm.ptr<5> to !cuda.ptr<f32, local>
    cuda.store %7#1, %14 : f32, !cuda.ptr<f32, local>
    %15 = builtin.unrealized_conversion_cast %8 : !cuda.ptr<!cuda.struct<"float4", {f32, f32, f32, f32} align 16>, local> to !llvm.ptr<5>
    %16 = nvvm.constant 8 : i64
    %17 = nvvm.ptradd %15, %16 : !llvm.ptr<5>, i64
    %18 = builtin.unrealized_conversion_cast %17 : !llvm.ptr<5> to !cuda.ptr<f32, local>
    cuda.store %7#2, %18 : f32, !cuda.ptr<f32, local>
    %19 = builtin.unrealized_conversion_cast %8 : !cuda.ptr<!cuda.struct<"float4", {f32, f32, f32, f32} align 16>, local> to !llvm.ptr<5>
    %20 = nvvm.constant 12 : i64
    %21 = nvvm.ptradd %19, %20 : !llvm.ptr<5>, i64
    %22 = builtin.unrealized_conversion_cast %21 : !llvm.ptr<5> to !cuda.ptr<f32, local>
    cuda.store %7#3, %22 : f32, !cuda.ptr<f32, local>
    %23 = cuda.load %8 : !cuda.ptr<!cuda.struct<"float4", {f32, f32, f32, f32} align 16>, local> -> !cuda.struct<"float4", {f32, f32, f32, f32} align 16>
    %24 = cuda.var "v" : !cuda.ptr<!cuda.struct<"float4", {f32, f32, f32, f32} align 16>, local>
    cuda.store %23, %24 : !cuda.struct<"float4", {f32, f32, f32, f32} align 16>, !cuda.ptr<!cuda.struct<"float4", {f32, f32, f32, f32} align 16>, local>
    %25 = cuda.load %0 : !cuda.ptr<!cuda.ptr<f32>, local> -> !cuda.ptr<f32>
    %26 = builtin.unrealized_conversion_cast %24 : !cuda.ptr<!cuda.struct<"float4", {f32, f32, f32, f32} align 16>, local> to !llvm.ptr<5>
    %27 = builtin.unrealized_conversion_cast %26 : !llvm.ptr<5> to !cuda.ptr<f32, local>
    %28 = cuda.load %27 : !cuda.ptr<f32, local> -> f32
    cuda.store %28, %25 : f32, !cuda.ptr<f32>
    func.return
  }
}
