// Generic-form syntax of unregistered dialects: results, successors, regions,
// attributes and types of every kind the parser knows.
"demo.top"() ({
^bb0(%a: i32, %b: f32):
  %0:2 = "demo.pair"(%a) : (i32) -> (i32, f32)
  %1 = "demo.use"(%0#1, %0#0, %b) : (f32, i32, f32) -> i64
  "demo.attrs"() {
    int = 42 : i32, neg = -7 : i8, wide = 18446744073709551615 : ui64, sint = -3 : si16,
    idx = 9 : index, t = true, f = false, u,
    f32v = 1.500000e+00 : f32, f64v = -2.000000e-03 : f64, h = 6.250000e-02 : f16,
    b = 3.000000e+00 : bf16, nan = 0x7FC00000 : f32, inf = 0x7FF0000000000000 : f64,
    tiny = 1.0e-45 : f32,
    str = "quote \" back \\ newline \0A tab \09 done",
    arr = [1 : i32, "two", [3 : i64, unit], {nested = @sym}],
    dict = {a = 1 : i64, "odd key" = 2 : i64},
    syms = [@root, @root::@leaf, @"quoted name"::@x],
    dense_i = array<i32: 1, -2, 3>, dense_e = array<i64>, dense_b = array<i1: true, false>,
    dense_f = array<f32: 1.000000e+00, -5.000000e-01>,
    ty = (i32, !llvm.ptr<3>) -> (f64, index), vec = vector<4xf32>, ten = tensor<?x8xi16>,
    mem = memref<16x16xf32, 3>, cplx = complex<f64>, tup = tuple<i32, f32>,
    d = dense<[1, 2, 3]> : tensor<3xi32>, map = affine_map<(d0, d1) -> (d1, d0)>,
    op_attr = #demo.thing<"a", [1, 2] : (i32) -> i32>, pretty = #demo<weird <nesting> -> ok>,
    ptr = !llvm.ptr, dty = !demo.type<i32, <4>>, prettyty = !demo<"x">, none = none
  } : () -> ()
  "demo.br"(%a)[^bb1] : (i32) -> ()
^bb1(%x: i32):
  %2 = "demo.region_op"(%x) ({
    %3 = "demo.inner"(%x, %1) : (i32, i64) -> i32
    "demo.yield"(%3) : (i32) -> ()
  }, {
  ^bb0(%y: i32):
    "demo.yield"(%y) : (i32) -> ()
  }, {
  }) : (i32) -> i32
  "demo.cond"(%2)[^bb2, ^bb3] : (i32) -> ()
^bb2:
  "demo.graph"() ({
    %late = "demo.use_later"(%early) : (i8) -> i8
    %early = "demo.def"() : () -> i8
  }) : () -> ()
  "demo.return"() : () -> ()
^bb3:
  "demo.return"() : () -> ()
}) : () -> ()
