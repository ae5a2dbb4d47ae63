// RUN: --pass-pipeline=builtin.module(convert-math-to-nvvm{approx-sqrt=true}) --pass-statistics
// Every op convert-math-to-nvvm has a pattern for, in a cuda function as the frontend
// emits them for sqrtf, fabsf, fmaf, copysignf, truncf, floorf, ceilf and rintf: each an
// nvvm intrinsic of the same accuracy; with approx-sqrt, the f32 square root is
// sqrt.approx and the f64 one stays sqrt.rn.
module {
  func.func @every_op(%x: f32, %y: f32, %z: f32, %d: f64) -> f32 {
    %0 = math.sqrt %x : f32
    %1 = math.sqrt %d : f64
    %2 = math.absf %0 : f32
    %3 = math.fma %2, %y, %z : f32
    %4 = math.copysign %3, %y : f32
    %5 = math.trunc %4 : f32
    %6 = math.floor %5 : f32
    %7 = math.ceil %6 : f32
    %8 = math.roundeven %7 : f32
    %9 = arith.truncf %1 : f64 to f32
    %10 = arith.addf %8, %9 : f32
    return %10 : f32
  }
}
