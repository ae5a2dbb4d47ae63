// RUN: --canonicalize
// math folds on constants (float results rounded once to the type; erf is left alone),
// integer math (ctlz/cttz/ctpop/absi/ipowi, wrapping), classification, and cf folds
// (cond_br on a constant, assert of true).
func.func @float_math() -> (f32, f32, f64, f32, f32, f32, f32, f32, f32) {
  %two = arith.constant 2.0 : f32
  %sqrt = math.sqrt %two : f32
  %half = arith.constant -2.5 : f32
  %round = math.round %half : f32
  %even = math.roundeven %half : f32
  %one = arith.constant 1.0 : f64
  %exp = math.exp %one : f64
  %abs = math.absf %half : f32
  %floor = math.floor %half : f32
  %cs = math.copysign %two, %half : f32
  %p = math.powf %two, %two : f32
  %erf = math.erf %two : f32
  return %sqrt, %round, %exp, %even, %abs, %floor, %cs, %p, %erf : f32, f32, f64, f32, f32, f32, f32, f32, f32
}
func.func @int_math() -> (i32, i32, i32, i8, i32, i8) {
  %c = arith.constant 16 : i32
  %z = arith.constant 0 : i32
  %lz = math.ctlz %c : i32
  %tz = math.cttz %z : i32
  %pop = math.ctpop %c : i32
  %min = arith.constant -128 : i8
  %abs = math.absi %min : i8
  %three = arith.constant 3 : i32
  %pw = math.ipowi %three, %three : i32
  %b = arith.constant 3 : i8
  %e = arith.constant 5 : i8
  %wrap = math.ipowi %b, %e : i8
  return %lz, %tz, %pop, %abs, %pw, %wrap : i32, i32, i32, i8, i32, i8
}
func.func @clamp() -> (f32, f32, f32) {
  %x = arith.constant 5.0 : f32
  %lo = arith.constant 0.0 : f32
  %hi = arith.constant 1.0 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %a = math.clampf %x to [%lo, %hi] : f32
  %b = math.clampf %lo to [%x, %x] : f32
  %c = math.clampf %nan to [%lo, %hi] : f32
  return %a, %b, %c : f32, f32, f32
}
func.func @classify() -> (i1, i1, i1) {
  %nan = arith.constant 0x7FC00000 : f32
  %inf = arith.constant 0x7F800000 : f32
  %a = math.isnan %nan : f32
  %b = math.isinf %inf : f32
  %c = math.isfinite %inf : f32
  return %a, %b, %c : i1, i1, i1
}
func.func @branches(%x: i32) -> i32 {
  %true = arith.constant true
  cf.assert %true, "always holds"
  cf.cond_br %true, ^bb1(%x : i32), ^bb2
^bb1(%v: i32):
  return %v : i32
^bb2:
  %c0 = arith.constant 0 : i32
  return %c0 : i32
}
