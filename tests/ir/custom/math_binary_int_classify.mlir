// math binary/ternary float ops (atan2, powf, copysign, fma, fpowi), integer ops (absi, ctlz, cttz, ctpop, ipowi) and classification (isnan, isinf, isfinite).
func.func @polar_angle(%y: f32, %x: f32) -> f32 {
  %a = math.atan2 %y, %x : f32
  return %a : f32
}

func.func @pow_family(%base: f64, %e: f64, %n: i32) -> f64 {
  %p = math.powf %base, %e : f64
  %pi = math.fpowi %base, %n : f64, i32
  %pf = math.powf %p, %pi fastmath<fast> : f64
  return %pf : f64
}

func.func @fused(%a: f32, %b: f32, %c: f32) -> f32 {
  %r0 = math.fma %a, %b, %c : f32
  %r1 = math.fma %r0, %b, %c fastmath<contract> : f32
  return %r1 : f32
}

func.func @signs(%mag: f64, %sgn: f64) -> f64 {
  %r = math.copysign %mag, %sgn : f64
  %r2 = math.copysign %r, %mag fastmath<nnan> : f64
  return %r2 : f64
}

func.func @bit_counts(%v: i32) -> (i32, i32, i32, i32) {
  %lz = math.ctlz %v : i32
  %tz = math.cttz %v : i32
  %pc = math.ctpop %v : i32
  %ab = math.absi %v : i32
  return %lz, %tz, %pc, %ab : i32, i32, i32, i32
}

func.func @narrow_int_math(%b: i8, %w: i16, %q: i64) -> (i8, i16, i64) {
  %b0 = math.ctpop %b : i8
  %b1 = math.absi %b0 : i8
  %w0 = math.ctlz %w : i16
  %w1 = math.cttz %w0 : i16
  %two = arith.constant 2 : i64
  %q0 = math.ipowi %q, %two : i64
  %q1 = math.absi %q0 : i64
  return %b1, %w1, %q1 : i8, i16, i64
}

func.func @ipow_loop(%base: i32, %exps: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %exps step %c1 iter_args(%acc = %init) -> (i32) {
    %e = arith.index_cast %i : index to i32
    %p = math.ipowi %base, %e : i32
    %s = arith.addi %acc, %p : i32
    scf.yield %s : i32
  }
  return %r : i32
}

func.func @sanitize(%x: f32, %fallback: f32) -> f32 {
  %nan = math.isnan %x : f32
  %inf = math.isinf %x : f32
  %fin = math.isfinite %x : f32
  %bad = arith.ori %nan, %inf : i1
  %ok = arith.xori %bad, %fin : i1
  %r = arith.select %ok, %x, %fallback : f32
  return %r : f32
}

func.func @classify_halves(%h: f16, %b: bf16, %d: f64) -> (i1, i1, i1) {
  %a = math.isnan %h : f16
  %c = math.isinf %b : bf16
  %e = math.isfinite %d : f64
  return %a, %c, %e : i1, i1, i1
}

func.func @fpowi_mixed(%h: f16, %k: i16, %d: f64, %j: i64) -> (f16, f64) {
  %a = math.fpowi %h, %k : f16, i16
  %b = math.fpowi %d, %j fastmath<afn> : f64, i64
  return %a, %b : f16, f64
}

func.func @saturate(%x: f32, %lo: f32, %hi: f32) -> f32 {
  %0 = math.clampf %x to [%lo, %hi] : f32
  %1 = math.clampf %0 to [%lo, %hi] fastmath<nnan> : f32
  return %1 : f32
}
