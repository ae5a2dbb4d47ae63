// arith multi-result ops addui_extended / mulsi_extended / mului_extended in wide-integer arithmetic kernels (128-bit add, 64x64->128 multiply, saturating add).
func.func @add128(%alo: i64, %ahi: i64, %blo: i64, %bhi: i64) -> (i64, i64) {
  %lo, %carry = arith.addui_extended %alo, %blo : i64, i1
  %carry64 = arith.extui %carry : i1 to i64
  %hi0 = arith.addi %ahi, %bhi : i64
  %hi = arith.addi %hi0, %carry64 : i64
  return %lo, %hi : i64, i64
}

func.func @umul_wide(%a: i64, %b: i64) -> (i64, i64) {
  %lo, %hi = arith.mului_extended %a, %b : i64
  return %lo, %hi : i64, i64
}

func.func @smul_high(%a: i32, %b: i32) -> i32 {
  %low, %high = arith.mulsi_extended %a, %b : i32
  %x = arith.xori %low, %high : i32
  return %x : i32
}

func.func @saturating_add_u8(%a: i8, %b: i8) -> i8 {
  %sum, %ov = arith.addui_extended %a, %b : i8, i1
  %max = arith.constant -1 : i8
  %r = arith.select %ov, %max, %sum : i8
  return %r : i8
}

func.func @mulhi_index(%a: index, %b: index) -> (index, index) {
  %ul, %uh = arith.mului_extended %a, %b : index
  %sl, %sh = arith.mulsi_extended %a, %b : index
  %l = arith.addi %ul, %sl : index
  %h = arith.addi %uh, %sh : index
  return %l, %h : index, index
}

func.func @checked_mul_i16(%a: i16, %b: i16) -> (i16, i1) {
  %lo, %hi = arith.mulsi_extended %a, %b : i16
  %c15 = arith.constant 15 : i16
  %sign = arith.shrsi %lo, %c15 : i16
  %overflow = arith.cmpi ne, %hi, %sign : i16
  return %lo, %overflow : i16, i1
}

func.func @sum_with_carry_chain(%n: index, %x: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %carries = %zero) -> (i32, i32) {
    %s, %c = arith.addui_extended %acc, %x : i32, i1
    %cw = arith.extui %c : i1 to i32
    %nc = arith.addi %carries, %cw : i32
    scf.yield %s, %nc : i32, i32
  }
  %unused = arith.addi %res#1, %one : i32
  return %res#0, %unused : i32, i32
}
