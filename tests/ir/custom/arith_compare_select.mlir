// arith.cmpi (all 10 predicates), arith.cmpf (all 16 predicates, fastmath), and arith.select used in branch-free kernels.
func.func @cmpi_all(%a: i32, %b: i32) -> i16 {
  %eq = arith.cmpi eq, %a, %b : i32
  %ne = arith.cmpi ne, %a, %b : i32
  %slt = arith.cmpi slt, %a, %b : i32
  %sle = arith.cmpi sle, %a, %b : i32
  %sgt = arith.cmpi sgt, %a, %b : i32
  %sge = arith.cmpi sge, %a, %b : i32
  %ult = arith.cmpi ult, %a, %b : i32
  %ule = arith.cmpi ule, %a, %b : i32
  %ugt = arith.cmpi ugt, %a, %b : i32
  %uge = arith.cmpi uge, %a, %b : i32
  %w0 = arith.extui %eq : i1 to i16
  %w1 = arith.extui %ne : i1 to i16
  %w2 = arith.extui %slt : i1 to i16
  %w3 = arith.extui %sle : i1 to i16
  %w4 = arith.extui %sgt : i1 to i16
  %w5 = arith.extui %sge : i1 to i16
  %w6 = arith.extui %ult : i1 to i16
  %w7 = arith.extui %ule : i1 to i16
  %w8 = arith.extui %ugt : i1 to i16
  %w9 = arith.extui %uge : i1 to i16
  %o0 = arith.ori %w0, %w1 : i16
  %o1 = arith.ori %o0, %w2 : i16
  %o2 = arith.ori %o1, %w3 : i16
  %o3 = arith.ori %o2, %w4 : i16
  %o4 = arith.ori %o3, %w5 : i16
  %o5 = arith.ori %o4, %w6 : i16
  %o6 = arith.ori %o5, %w7 : i16
  %o7 = arith.ori %o6, %w8 : i16
  %o8 = arith.ori %o7, %w9 : i16
  return %o8 : i16
}

func.func @cmpf_all(%x: f64, %y: f64) -> i1 {
  %p0 = arith.cmpf false, %x, %y : f64
  %p1 = arith.cmpf oeq, %x, %y : f64
  %p2 = arith.cmpf ogt, %x, %y : f64
  %p3 = arith.cmpf oge, %x, %y : f64
  %p4 = arith.cmpf olt, %x, %y : f64
  %p5 = arith.cmpf ole, %x, %y : f64
  %p6 = arith.cmpf one, %x, %y : f64
  %p7 = arith.cmpf ord, %x, %y : f64
  %p8 = arith.cmpf ueq, %x, %y : f64
  %p9 = arith.cmpf ugt, %x, %y : f64
  %p10 = arith.cmpf uge, %x, %y : f64
  %p11 = arith.cmpf ult, %x, %y : f64
  %p12 = arith.cmpf ule, %x, %y : f64
  %p13 = arith.cmpf une, %x, %y : f64
  %p14 = arith.cmpf uno, %x, %y : f64
  %p15 = arith.cmpf true, %x, %y fastmath<nnan> : f64
  %r0 = arith.xori %p0, %p1 : i1
  %r1 = arith.xori %r0, %p2 : i1
  %r2 = arith.xori %r1, %p3 : i1
  %r3 = arith.xori %r2, %p4 : i1
  %r4 = arith.xori %r3, %p5 : i1
  %r5 = arith.xori %r4, %p6 : i1
  %r6 = arith.xori %r5, %p7 : i1
  %r7 = arith.xori %r6, %p8 : i1
  %r8 = arith.xori %r7, %p9 : i1
  %r9 = arith.xori %r8, %p10 : i1
  %r10 = arith.xori %r9, %p11 : i1
  %r11 = arith.xori %r10, %p12 : i1
  %r12 = arith.xori %r11, %p13 : i1
  %r13 = arith.xori %r12, %p14 : i1
  %r14 = arith.andi %r13, %p15 : i1
  return %r14 : i1
}

func.func @branchless_abs(%v: i64) -> i64 {
  %zero = arith.constant 0 : i64
  %neg = arith.subi %zero, %v : i64
  %is_neg = arith.cmpi slt, %v, %zero : i64
  %r = arith.select %is_neg, %neg, %v : i64
  return %r : i64
}

func.func @leaky_relu(%x: f32, %slope: f32) -> f32 {
  %zero = arith.constant 0.000000e+00 : f32
  %pos = arith.cmpf ogt, %x, %zero fastmath<fast> : f32
  %scaled = arith.mulf %x, %slope : f32
  %r = arith.select %pos, %x, %scaled : f32
  return %r : f32
}

func.func @select_index_and_bool(%c: i1, %i: index, %j: index, %p: i1, %q: i1) -> (index, i1) {
  %m = arith.select %c, %i, %j : index
  %b = arith.select %c, %p, %q : i1
  %lt = arith.cmpi ult, %i, %j : index
  %n = arith.select %lt, %m, %j : index
  return %n, %b : index, i1
}

func.func @half_compare(%a: f16, %b: bf16) -> i1 {
  %z16 = arith.constant 0.000000e+00 : f16
  %zb = arith.constant 1.000000e+00 : bf16
  %c0 = arith.cmpf oge, %a, %z16 : f16
  %c1 = arith.cmpf ult, %b, %zb : bf16
  %c = arith.andi %c0, %c1 : i1
  return %c : i1
}
