// arith float binary/unary ops (addf, subf, mulf, divf, remf, maximumf, minimumf, maxnumf, minnumf, negf) with fastmath flags, on f16/bf16/f32/f64.
func.func @axpy_scalar(%alpha: f32, %x: f32, %y: f32) -> f32 {
  %ax = arith.mulf %alpha, %x : f32
  %r = arith.addf %ax, %y : f32
  return %r : f32
}

func.func @fast_variants(%a: f64, %b: f64) -> f64 {
  %0 = arith.addf %a, %b fastmath<fast> : f64
  %1 = arith.subf %0, %b fastmath<nnan,ninf> : f64
  %2 = arith.mulf %1, %a fastmath<reassoc,contract> : f64
  %3 = arith.divf %2, %b fastmath<arcp> : f64
  %4 = arith.remf %3, %a fastmath<nsz> : f64
  %5 = arith.negf %4 fastmath<afn> : f64
  %6 = arith.addf %5, %a fastmath<none> : f64
  return %6 : f64
}

func.func @relu6(%x: f32) -> f32 {
  %zero = arith.constant 0.000000e+00 : f32
  %six = arith.constant 6.000000e+00 : f32
  %lo = arith.maximumf %x, %zero : f32
  %hi = arith.minimumf %lo, %six : f32
  return %hi : f32
}

func.func @nan_aware_clamp(%x: f32, %lo: f32, %hi: f32) -> (f32, f32) {
  %a = arith.maxnumf %x, %lo : f32
  %b = arith.minnumf %a, %hi : f32
  %c = arith.maximumf %x, %lo fastmath<nnan> : f32
  %d = arith.minimumf %c, %hi fastmath<nnan> : f32
  return %b, %d : f32, f32
}

func.func @half_precision(%h0: f16, %h1: f16, %b0: bf16, %b1: bf16) -> (f16, bf16) {
  %hs = arith.addf %h0, %h1 : f16
  %hp = arith.mulf %hs, %h0 : f16
  %hq = arith.divf %hp, %h1 : f16
  %hn = arith.negf %hq : f16
  %bs = arith.subf %b0, %b1 : bf16
  %bp = arith.mulf %bs, %bs : bf16
  %br = arith.remf %bp, %b1 : bf16
  return %hn, %br : f16, bf16
}

func.func @horner(%x: f64) -> f64 {
  %c0 = arith.constant 1.000000e+00 : f64
  %c1 = arith.constant 5.000000e-01 : f64
  %c2 = arith.constant 0.16666666666666666 : f64
  %c3 = arith.constant 0.041666666666666664 : f64
  %t0 = arith.mulf %c3, %x fastmath<contract> : f64
  %t1 = arith.addf %t0, %c2 fastmath<contract> : f64
  %t2 = arith.mulf %t1, %x fastmath<contract> : f64
  %t3 = arith.addf %t2, %c1 fastmath<contract> : f64
  %t4 = arith.mulf %t3, %x fastmath<contract> : f64
  %t5 = arith.addf %t4, %c0 fastmath<contract> : f64
  %t6 = arith.mulf %t5, %x fastmath<contract> : f64
  %t7 = arith.addf %t6, %c0 fastmath<contract> : f64
  return %t7 : f64
}

func.func @dot4(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %b0: f32, %b1: f32, %b2: f32, %b3: f32) -> f32 {
  %p0 = arith.mulf %a0, %b0 : f32
  %p1 = arith.mulf %a1, %b1 : f32
  %p2 = arith.mulf %a2, %b2 : f32
  %p3 = arith.mulf %a3, %b3 : f32
  %s0 = arith.addf %p0, %p1 fastmath<reassoc> : f32
  %s1 = arith.addf %p2, %p3 fastmath<reassoc> : f32
  %s = arith.addf %s0, %s1 fastmath<reassoc> : f32
  return %s : f32
}

func.func @special_constants() -> (f32, f32, f32, f64, f64) {
  %nan = arith.constant 0x7FC00000 : f32
  %inf = arith.constant 0x7F800000 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %negzero = arith.constant -0.000000e+00 : f64
  %tiny = arith.constant 4.940660e-324 : f64
  %sum = arith.addf %nan, %inf : f32
  %neg = arith.negf %ninf : f32
  %m = arith.mulf %negzero, %tiny : f64
  return %sum, %neg, %ninf, %m, %tiny : f32, f32, f32, f64, f64
}
