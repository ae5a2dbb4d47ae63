// RUN: --canonicalize
// Integer folds: wrapping at the type's width, signed vs unsigned readings, division and
// remainder by zero and signed MIN / -1 left alone (undefined), over-wide shifts left alone,
// algebraic identities (x+0, x*1, x*0, x-x, x&x, x|0, x^x, x&-1, x|-1).
func.func @wrapping() -> (i8, i8, i8, i16, i32) {
  %c127 = arith.constant 127 : i8
  %c1 = arith.constant 1 : i8
  %cm128 = arith.constant -128 : i8
  %c2 = arith.constant 2 : i8
  %add = arith.addi %c127, %c1 : i8
  %sub = arith.subi %cm128, %c1 : i8
  %mul = arith.muli %c127, %c2 : i8
  %a = arith.constant 30000 : i16
  %b = arith.constant 30000 : i16
  %add16 = arith.addi %a, %b : i16
  %big = arith.constant 2147483647 : i32
  %c1_32 = arith.constant 1 : i32
  %add32 = arith.addi %big, %c1_32 : i32
  return %add, %sub, %mul, %add16, %add32 : i8, i8, i8, i16, i32
}
func.func @signedness() -> (i8, i8, i8, i8, i8, i8, i8, i8, i8, i8) {
  %m7 = arith.constant -7 : i8
  %c2 = arith.constant 2 : i8
  %ds = arith.divsi %m7, %c2 : i8
  %du = arith.divui %m7, %c2 : i8
  %rs = arith.remsi %m7, %c2 : i8
  %ru = arith.remui %m7, %c2 : i8
  %shrs = arith.shrsi %m7, %c2 : i8
  %shru = arith.shrui %m7, %c2 : i8
  %maxs = arith.maxsi %m7, %c2 : i8
  %maxu = arith.maxui %m7, %c2 : i8
  %mins = arith.minsi %m7, %c2 : i8
  %minu = arith.minui %m7, %c2 : i8
  return %ds, %du, %rs, %ru, %shrs, %shru, %maxs, %maxu, %mins, %minu : i8, i8, i8, i8, i8, i8, i8, i8, i8, i8
}
func.func @undefined_not_folded() -> (i32, i32, i32, i32, i8, i32) {
  %c7 = arith.constant 7 : i32
  %c0 = arith.constant 0 : i32
  %d0 = arith.divsi %c7, %c0 : i32
  %u0 = arith.divui %c7, %c0 : i32
  %r0 = arith.remsi %c7, %c0 : i32
  %ur0 = arith.remui %c7, %c0 : i32
  %min = arith.constant -128 : i8
  %m1 = arith.constant -1 : i8
  %ovf = arith.divsi %min, %m1 : i8
  %c32 = arith.constant 32 : i32
  %shl = arith.shli %c7, %c32 : i32
  return %d0, %u0, %r0, %ur0, %ovf, %shl : i32, i32, i32, i32, i8, i32
}
func.func @identities(%x: i32) -> (i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %cm1 = arith.constant -1 : i32
  %a = arith.addi %x, %c0 : i32
  %b = arith.muli %x, %c1 : i32
  %c = arith.muli %x, %c0 : i32
  %d = arith.subi %x, %x : i32
  %e = arith.andi %x, %x : i32
  %f = arith.ori %x, %c0 : i32
  %g = arith.xori %x, %x : i32
  %h = arith.andi %x, %cm1 : i32
  %i = arith.ori %x, %cm1 : i32
  %j = arith.divsi %x, %c1 : i32
  %k = arith.addi %c0, %x : i32
  return %a, %b, %c, %d, %e, %f, %g, %h, %i, %j, %k : i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32
}
func.func @reassociate(%x: index) -> index {
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %a = arith.addi %x, %c3 : index
  %b = arith.addi %a, %c4 : index
  return %b : index
}
func.func @compare() -> (i1, i1, i1, i1, i1, i1) {
  %m1 = arith.constant -1 : i32
  %c1 = arith.constant 1 : i32
  %slt = arith.cmpi slt, %m1, %c1 : i32
  %ult = arith.cmpi ult, %m1, %c1 : i32
  %sge = arith.cmpi sge, %m1, %c1 : i32
  %uge = arith.cmpi uge, %m1, %c1 : i32
  %eq = arith.cmpi eq, %m1, %m1 : i32
  %ne = arith.cmpi ne, %c1, %m1 : i32
  return %slt, %ult, %sge, %uge, %eq, %ne : i1, i1, i1, i1, i1, i1
}
func.func @compare_same_operand(%x: i64) -> (i1, i1, i1, i1) {
  %a = arith.cmpi sle, %x, %x : i64
  %b = arith.cmpi ult, %x, %x : i64
  %c = arith.cmpi eq, %x, %x : i64
  %d = arith.cmpi ne, %x, %x : i64
  return %a, %b, %c, %d : i1, i1, i1, i1
}
