// RUN: --pass-pipeline=builtin.module(nvvm.func(canonicalize))
// Float negation folds: of a constant (the sign bit flipped, at any width), and of a
// negation (the math library's `-(-c * x)` shapes leave these).
module {
  nvvm.func device @negations(%x: f32, %y: f64) -> f32 {
    %c = constant 1.500000e+00 : f32
    %n = fneg %c : f32
    %nn = fneg %n : f32
    %a = fneg %x : f32
    %b = fneg %a : f32
    %s = fadd %b, %nn : f32
    %t = fadd %s, %n : f32
    %d = constant 2.500000e-01 : f64
    %e = fneg %d : f64
    %f = fneg %y : f64
    %g = fneg %f : f64
    %h = fmul %g, %e : f64
    %i = fptrunc %h : f64 to f32
    %j = fadd %t, %i : f32
    return %j : f32
  }
}
