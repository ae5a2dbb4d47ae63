// RUN: --convert-cuda-intrinsics-to-nvvm
// Built-ins called with the wrong number of arguments are not lowered: each fails to
// legalize at its location (no panic, no guess).
module {
  func.func @bad(%x: f32) -> f32 {
    %0 = cuda.intrinsic "__expf"() : () -> f32
    %1 = cuda.intrinsic "__fadd_rz"(%x) : (f32) -> f32
    %2 = cuda.intrinsic "__popc"() : () -> i32
    return %0 : f32
  }
}
