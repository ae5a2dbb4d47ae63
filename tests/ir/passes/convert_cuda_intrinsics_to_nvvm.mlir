// RUN: --convert-cuda-intrinsics-to-nvvm --pass-statistics
// The CUDA built-ins with an instruction of their accuracy, one or more of each pattern's:
// a rounded add and conversion, half-precision ones, the fast-math approximations (__expf
// as ex2 of a product), integer bit operations (__ffs and abs as short sequences),
// __activemask, bit casts, and cuda_bf16.h's bfloat16 instructions on bfloat16 bits. (The built-ins the pass leaves: convert_cuda_intrinsics_to_nvvm_others.mlir.)
module {
  func.func @builtins(%x: f32, %y: f32, %h: f16, %i: i32, %l: i64) -> i32 {
    %0 = cuda.intrinsic "__fadd_rz"(%x, %y) : (f32, f32) -> f32
    %1 = cuda.intrinsic "__float2int_rd"(%x) : (f32) -> i32
    %2 = cuda.intrinsic "hsqrt"(%h) : (f16) -> f16
    %3 = cuda.intrinsic "__hfma"(%h, %h, %h) : (f16, f16, f16) -> f16
    %4 = cuda.intrinsic "__expf"(%x) : (f32) -> f32
    %5 = cuda.intrinsic "__sinf"(%x) : (f32) -> f32
    %6 = cuda.intrinsic "__fdividef"(%x, %y) : (f32, f32) -> f32
    %7 = cuda.intrinsic "__logf"(%x) : (f32) -> f32
    %8 = cuda.intrinsic "__popc"(%i) : (i32) -> i32
    %9 = cuda.intrinsic "__ffsll"(%l) : (i64) -> i32
    %10 = cuda.intrinsic "abs"(%i) : (i32) -> i32
    %11 = cuda.intrinsic "__umul64hi"(%l, %l) : (i64, i64) -> i64
    %12 = cuda.intrinsic "__activemask"() : () -> i32
    %13 = cuda.intrinsic "__float_as_int"(%x) : (f32) -> i32
    %b0 = cuda.intrinsic "__cuprite_cvt_rn_bf16_f32"(%x) : (f32) -> i16
    %b1 = cuda.intrinsic "__cuprite_fma_rn_bf16"(%b0, %b0, %b0) : (i16, i16, i16) -> i16
    %b2 = cuda.intrinsic "__cuprite_cvt_f32_bf16"(%b1) : (i16) -> f32
    %b3 = cuda.intrinsic "__float_as_int"(%b2) : (f32) -> i32
    %15 = arith.addi %8, %9 : i32
    %16 = arith.addi %15, %10 : i32
    %17 = arith.addi %16, %12 : i32
    %18 = arith.addi %17, %13 : i32
    %19 = arith.addi %18, %1 : i32
    %20 = arith.addi %19, %b3 : i32
    return %20 : i32
  }
}
