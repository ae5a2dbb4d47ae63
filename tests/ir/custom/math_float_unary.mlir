// math float unary ops (sqrt, rsqrt, exp, exp2, expm1, log, log2, log10, log1p, sin, cos, tan, tanh, atan, erf, absf, ceil, floor, round, roundeven, trunc, cbrt) with fastmath, in activation-style kernels.
func.func @sigmoid(%x: f32) -> f32 {
  %one = arith.constant 1.000000e+00 : f32
  %nx = arith.negf %x : f32
  %e = math.exp %nx : f32
  %d = arith.addf %one, %e : f32
  %r = arith.divf %one, %d : f32
  return %r : f32
}

func.func @softplus(%x: f64) -> f64 {
  %e = math.expm1 %x fastmath<afn> : f64
  %two = arith.constant 2.000000e+00 : f64
  %s = arith.addf %e, %two : f64
  %l = math.log %s : f64
  %l1 = math.log1p %e : f64
  %m = arith.maximumf %l, %l1 : f64
  return %m : f64
}

func.func @gelu_erf(%x: f32) -> f32 {
  %half = arith.constant 5.000000e-01 : f32
  %inv_sqrt2 = arith.constant 0.707106769 : f32
  %one = arith.constant 1.000000e+00 : f32
  %s = arith.mulf %x, %inv_sqrt2 : f32
  %e = math.erf %s : f32
  %p = arith.addf %one, %e : f32
  %h = arith.mulf %x, %half : f32
  %r = arith.mulf %h, %p : f32
  return %r : f32
}

func.func @gelu_tanh(%x: f32) -> f32 {
  %k = arith.constant 0.797884583 : f32
  %t = math.tanh %x fastmath<fast> : f32
  %y = arith.mulf %t, %k : f32
  return %y : f32
}

func.func @norms(%x: f32, %y: f32) -> (f32, f32) {
  %xx = arith.mulf %x, %x : f32
  %yy = arith.mulf %y, %y : f32
  %s = arith.addf %xx, %yy : f32
  %n = math.sqrt %s : f32
  %inv = math.rsqrt %s fastmath<arcp,afn> : f32
  %c = math.cbrt %s : f32
  %a = math.absf %c : f32
  return %n, %inv : f32, f32
}

func.func @logs_and_exps(%x: f64) -> f64 {
  %a = math.log2 %x : f64
  %b = math.log10 %x : f64
  %c = math.exp2 %a : f64
  %d = arith.addf %b, %c : f64
  return %d : f64
}

func.func @trig(%theta: f32) -> f32 {
  %s = math.sin %theta : f32
  %c = math.cos %theta : f32
  %t = math.tan %theta fastmath<nnan,ninf> : f32
  %at = math.atan %t : f32
  %sc = arith.mulf %s, %c : f32
  %r = arith.addf %sc, %at : f32
  return %r : f32
}

func.func @rounding(%x: f64, %h: f16, %b: bf16) -> (f64, f16, bf16) {
  %c = math.ceil %x : f64
  %f = math.floor %x : f64
  %r = math.round %x : f64
  %re = math.roundeven %x : f64
  %t = math.trunc %x : f64
  %s0 = arith.addf %c, %f : f64
  %s1 = arith.addf %r, %re : f64
  %s2 = arith.addf %s0, %s1 : f64
  %s3 = arith.addf %s2, %t : f64
  %hr = math.roundeven %h : f16
  %bf = math.floor %b : bf16
  return %s3, %hr, %bf : f64, f16, bf16
}

func.func @half_math(%h: f16, %b: bf16) -> (f16, bf16) {
  %e = math.exp %h : f16
  %l = math.log %e : f16
  %sq = math.sqrt %b : bf16
  %ab = math.absf %sq fastmath<nsz> : bf16
  return %l, %ab : f16, bf16
}
