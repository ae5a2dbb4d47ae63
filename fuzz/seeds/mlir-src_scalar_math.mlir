// Integer and float arithmetic the canonicalizer should simplify.
func.func @scale_and_offset(%x: i32, %y: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %c5 = arith.constant 5 : i32
  %a = arith.addi %x, %c0 : i32
  %b = arith.muli %a, %c1 : i32
  %c = arith.addi %b, %c4 : i32
  %d = arith.addi %c, %c5 : i32
  %e = arith.muli %c4, %c5 : i32
  %f = arith.addi %d, %e : i32
  %g = arith.xori %y, %y : i32
  %h = arith.ori %f, %g : i32
  return %h : i32
}

func.func @float_mix(%x: f32, %y: f64) -> (f32, f64) {
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f64
  %negz = arith.constant -0.0 : f32
  %a = arith.mulf %x, %one : f32
  %b = arith.addf %a, %negz : f32
  %c = arith.addf %half, %half : f64
  %d = arith.mulf %y, %c : f64
  %e = arith.negf %b : f32
  return %e, %d : f32, f64
}

func.func @compare_select(%i: i64, %j: i64) -> i64 {
  %t = arith.cmpi sle, %i, %i : i64
  %u = arith.cmpi ult, %i, %j : i64
  %s = arith.select %t, %i, %j : i64
  %v = arith.select %u, %s, %s : i64
  %w = arith.extui %t : i1 to i64
  %r = arith.addi %v, %w : i64
  return %r : i64
}
