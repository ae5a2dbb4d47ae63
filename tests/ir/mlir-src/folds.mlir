// Constant folding at the edges: wrapping, signedness, undefined cases left alone, IEEE
// signed zeros and NaN.
func.func @int_edges() -> (i8, i8, i8, i8, i32, i32, i1, i1, i16, i32) {
  %max = arith.constant 127 : i8
  %one = arith.constant 1 : i8
  %m1 = arith.constant -1 : i8
  %min = arith.constant -128 : i8
  %wrap = arith.addi %max, %one : i8
  %mulw = arith.muli %max, %max : i8
  %divu = arith.divui %m1, %max : i8
  %rems = arith.remsi %min, %max : i8
  %zero = arith.constant 0 : i32
  %seven = arith.constant 7 : i32
  %divz = arith.divsi %seven, %zero : i32
  %big = arith.constant 40 : i32
  %shl = arith.shli %seven, %big : i32
  %ult = arith.cmpi ult, %m1, %one : i8
  %slt = arith.cmpi slt, %m1, %one : i8
  %ext = arith.extui %m1 : i8 to i16
  %shr = arith.shrsi %seven, %seven : i32
  return %wrap, %mulw, %divu, %rems, %divz, %shl, %ult, %slt, %ext, %shr : i8, i8, i8, i8, i32, i32, i1, i1, i16, i32
}

func.func @float_edges() -> (f32, f32, f32, f64, f32, f32) {
  %pz = arith.constant 0.0 : f32
  %nz = arith.constant -0.0 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %one = arith.constant 1.0 : f32
  %three = arith.constant 3.0 : f64
  %a = arith.maximumf %pz, %nz : f32
  %b = arith.minimumf %pz, %nz : f32
  %c = arith.maximumf %one, %nan : f32
  %d = arith.divf %three, %three : f64
  %e = arith.negf %pz : f32
  %tenth = arith.constant 0.1 : f32
  %f = arith.mulf %tenth, %tenth : f32
  return %a, %b, %c, %d, %e, %f : f32, f32, f32, f64, f32, f32
}
