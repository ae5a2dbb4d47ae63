// arith integer binary ops (add/sub/mul with overflow flags, div/rem families with exact, bitwise, shifts, min/max) in small integer kernels.
func.func @mix_hash(%seed: i32, %value: i32) -> i32 {
  %c5 = arith.constant 5 : i32
  %c16 = arith.constant 16 : i32
  %prime = arith.constant -1640531535 : i32
  %mask = arith.constant 65535 : i32
  %x0 = arith.xori %seed, %value : i32
  %x1 = arith.muli %x0, %prime : i32
  %hi = arith.shrui %x1, %c16 : i32
  %x2 = arith.xori %x1, %hi : i32
  %rot_l = arith.shli %x2, %c5 : i32
  %x3 = arith.ori %rot_l, %hi : i32
  %x4 = arith.andi %x3, %mask : i32
  %x5 = arith.addi %x4, %seed overflow<nuw> : i32
  return %x5 : i32
}

func.func @overflow_flags(%a: i64, %b: i64) -> (i64, i64, i64, i64) {
  %s0 = arith.addi %a, %b overflow<nsw> : i64
  %s1 = arith.subi %a, %b overflow<nsw, nuw> : i64
  %s2 = arith.muli %s0, %s1 overflow<nuw> : i64
  %c3 = arith.constant 3 : i64
  %s3 = arith.shli %s2, %c3 overflow<nsw, nuw> : i64
  %t0 = arith.subi %s3, %a : i64
  return %s0, %s1, %s2, %t0 : i64, i64, i64, i64
}

func.func @division_family(%n: i32, %d: i32) -> i32 {
  %q0 = arith.divsi %n, %d : i32
  %q1 = arith.divui %n, %d : i32
  %q2 = arith.ceildivsi %n, %d : i32
  %q3 = arith.ceildivui %n, %d : i32
  %q4 = arith.floordivsi %n, %d : i32
  %r0 = arith.remsi %n, %d : i32
  %r1 = arith.remui %n, %d : i32
  %e0 = arith.divsi %n, %d exact : i32
  %e1 = arith.divui %n, %d exact : i32
  %a0 = arith.addi %q0, %q1 : i32
  %a1 = arith.addi %a0, %q2 : i32
  %a2 = arith.addi %a1, %q3 : i32
  %a3 = arith.addi %a2, %q4 : i32
  %a4 = arith.addi %a3, %r0 : i32
  %a5 = arith.addi %a4, %r1 : i32
  %a6 = arith.addi %a5, %e0 : i32
  %a7 = arith.addi %a6, %e1 : i32
  return %a7 : i32
}

func.func @shifts(%v: i16, %amt: i16) -> (i16, i16, i16, i16) {
  %l = arith.shli %v, %amt : i16
  %rs = arith.shrsi %v, %amt : i16
  %ru = arith.shrui %v, %amt : i16
  %rs_exact = arith.shrsi %v, %amt exact : i16
  %ru_exact = arith.shrui %v, %amt exact : i16
  %both = arith.ori %rs_exact, %ru_exact : i16
  return %l, %rs, %ru, %both : i16, i16, i16, i16
}

func.func @clamp_index(%i: index, %lo: index, %hi: index) -> index {
  %a = arith.maxsi %i, %lo : index
  %b = arith.minsi %a, %hi : index
  %c = arith.maxui %b, %lo : index
  %d = arith.minui %c, %hi : index
  return %d : index
}

func.func @gcd(%a0: i64, %b0: i64) -> i64 {
  %zero = arith.constant 0 : i64
  %res:2 = scf.while (%a = %a0, %b = %b0) : (i64, i64) -> (i64, i64) {
    %nz = arith.cmpi ne, %b, %zero : i64
    scf.condition(%nz) %a, %b : i64, i64
  } do {
  ^bb0(%x: i64, %y: i64):
    %r = arith.remui %x, %y : i64
    scf.yield %y, %r : i64, i64
  }
  return %res#0 : i64
}

func.func @narrow_bitwise(%p: i8, %q: i8, %flag: i1, %other: i1) -> (i8, i1) {
  %all = arith.constant -1 : i8
  %np = arith.xori %p, %all : i8
  %a = arith.andi %np, %q : i8
  %o = arith.ori %a, %p : i8
  %m = arith.maxui %o, %q : i8
  %f0 = arith.andi %flag, %other : i1
  %f1 = arith.xori %f0, %flag : i1
  %f2 = arith.ori %f1, %other : i1
  return %m, %f2 : i8, i1
}
