// RUN: --canonicalize
// Float folds: IEEE arithmetic (rounded once to the type), NaN propagation, signed zeros
// (x + -0.0 folds to x but x + 0.0 does not; x * 0.0 never folds), maximumf/minimumf vs
// NaN, negf flipping the sign bit, and cmpf's ordered/unordered predicates on NaN.
func.func @arithmetic() -> (f32, f32, f64, f16, f32) {
  %a = arith.constant 1.000000e-01 : f32
  %b = arith.constant 2.000000e-01 : f32
  %s = arith.addf %a, %b : f32
  %three = arith.constant 3.0 : f32
  %q = arith.divf %a, %three : f32
  %c = arith.constant 1.000000e-01 : f64
  %d = arith.constant 2.000000e-01 : f64
  %s64 = arith.addf %c, %d : f64
  %h1 = arith.constant 6.550400e+04 : f16
  %hs = arith.addf %h1, %h1 : f16
  %m = arith.constant 7.5 : f32
  %r = arith.remf %m, %three : f32
  return %s, %q, %s64, %hs, %r : f32, f32, f64, f16, f32
}
func.func @nan_and_zeros(%x: f32) -> (f32, f32, f32, f32, f32, f32, f32, f32) {
  %nan = arith.constant 0x7FC00000 : f32
  %one = arith.constant 1.0 : f32
  %pz = arith.constant 0.0 : f32
  %nz = arith.constant -0.0 : f32
  %a = arith.addf %nan, %one : f32
  %b = arith.maximumf %nan, %one : f32
  %c = arith.minimumf %pz, %nz : f32
  %d = arith.addf %x, %nz : f32
  %e = arith.addf %x, %pz : f32
  %f = arith.mulf %x, %pz : f32
  %g = arith.subf %x, %pz : f32
  %h = arith.negf %pz : f32
  return %a, %b, %c, %d, %e, %f, %g, %h : f32, f32, f32, f32, f32, f32, f32, f32
}
func.func @cmpf_nan() -> (i1, i1, i1, i1, i1, i1, i1, i1) {
  %nan = arith.constant 0x7FF8000000000000 : f64
  %one = arith.constant 1.0 : f64
  %oeq = arith.cmpf oeq, %nan, %nan : f64
  %ueq = arith.cmpf ueq, %nan, %one : f64
  %one_ = arith.cmpf one, %nan, %one : f64
  %une = arith.cmpf une, %nan, %nan : f64
  %ord = arith.cmpf ord, %one, %one : f64
  %uno = arith.cmpf uno, %nan, %one : f64
  %olt = arith.cmpf olt, %one, %one : f64
  %ole = arith.cmpf ole, %one, %one : f64
  return %oeq, %ueq, %one_, %une, %ord, %uno, %olt, %ole : i1, i1, i1, i1, i1, i1, i1, i1
}
func.func @cmpf_same_operand_not_folded(%x: f32) -> (i1, i1) {
  // x == x is false for NaN: not folded without knowing x.
  %a = arith.cmpf oeq, %x, %x : f32
  %b = arith.cmpf true, %x, %x : f32
  return %a, %b : i1, i1
}
