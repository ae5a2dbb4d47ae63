// RUN: --convert-cuda-intrinsics-to-nvvm
// The built-ins convert-cuda-intrinsics-to-nvvm leaves alone: expf (the math library's, a
// call once link-math-library has run) and __trap (convert-cuda-to-nvvm ends its block there).
module {
  func.func @others(%x: f32, %i: i32) -> f32 {
    %0 = cuda.intrinsic "expf"(%x) : (f32) -> f32
    %1 = cuda.intrinsic "__popc"(%i) : (i32) -> i32
    cuda.intrinsic "__trap"() : () -> ()
    return %0 : f32
  }
}
