// arith constants of every scalar type and all cast ops: extsi/extui/trunci (overflow flags), sitofp/uitofp/fptosi/fptoui, extf/truncf (rounding modes, fastmath), index_cast(ui), bitcast.
func.func @constants() -> (i1, i1, i8, i16, i32, i64, index, f16, bf16, f32, f64) {
  %t = arith.constant true
  %f = arith.constant false
  %c8 = arith.constant -128 : i8
  %c16 = arith.constant 4095 : i16
  %c32 = arith.constant -7 : i32
  %c64 = arith.constant 9223372036854775807 : i64
  %ci = arith.constant 42 : index
  %h = arith.constant 1.500000e+00 : f16
  %b = arith.constant -2.500000e-01 : bf16
  %s = arith.constant 3.14159274 : f32
  %d = arith.constant 2.7182818284590451 : f64
  return %t, %f, %c8, %c16, %c32, %c64, %ci, %h, %b, %s, %d : i1, i1, i8, i16, i32, i64, index, f16, bf16, f32, f64
}

func.func @int_widths(%x: i8, %flag: i1) -> (i64, i32, i16, i8) {
  %s = arith.extsi %x : i8 to i64
  %u = arith.extui %x : i8 to i32
  %fl = arith.extui %flag : i1 to i16
  %w = arith.extsi %fl : i16 to i32
  %sum = arith.addi %u, %w : i32
  %t0 = arith.trunci %s : i64 to i16
  %t1 = arith.trunci %sum overflow<nsw> : i32 to i8
  %t2 = arith.trunci %s overflow<nuw> : i64 to i32
  %t3 = arith.trunci %t2 overflow<nsw, nuw> : i32 to i16
  %t4 = arith.addi %t0, %t3 : i16
  return %s, %sum, %t4, %t1 : i64, i32, i16, i8
}

func.func @int_float_conv(%i: i32, %u: i16, %x: f32, %d: f64) -> (f32, f64, i32, i64, i8) {
  %sf = arith.sitofp %i : i32 to f32
  %uf = arith.uitofp %u : i16 to f64
  %fi = arith.fptosi %x : f32 to i32
  %fu = arith.fptoui %d : f64 to i64
  %small = arith.fptosi %d : f64 to i8
  %hf = arith.sitofp %small : i8 to f16
  %hb = arith.uitofp %u : i16 to bf16
  %back = arith.fptoui %hb : bf16 to i16
  %back32 = arith.extui %back : i16 to i32
  %mix = arith.addi %fi, %back32 : i32
  %hf32 = arith.extf %hf : f16 to f32
  %res = arith.addf %sf, %hf32 : f32
  return %res, %uf, %mix, %fu, %small : f32, f64, i32, i64, i8
}

func.func @float_widths(%h: f16, %b: bf16, %s: f32, %d: f64) -> (f64, f32, bf16, f16) {
  %h32 = arith.extf %h : f16 to f32
  %b32 = arith.extf %b fastmath<fast> : bf16 to f32
  %s64 = arith.extf %s : f32 to f64
  %sum = arith.addf %h32, %b32 : f32
  %wide = arith.extf %sum : f32 to f64
  %acc = arith.addf %wide, %s64 : f64
  %r0 = arith.truncf %d : f64 to f32
  %r1 = arith.truncf %d to_nearest_even : f64 to f32
  %r2 = arith.truncf %s downward : f32 to bf16
  %r3 = arith.truncf %s upward : f32 to f16
  %r4 = arith.truncf %d toward_zero : f64 to f32
  %r5 = arith.truncf %d to_nearest_away fastmath<nnan> : f64 to f32
  %r6 = arith.truncf %d fastmath<afn> : f64 to f16
  %m0 = arith.addf %r0, %r1 : f32
  %m1 = arith.addf %r4, %r5 : f32
  %m2 = arith.addf %m0, %m1 : f32
  %m3 = arith.addf %r3, %r6 : f16
  return %acc, %m2, %r2, %m3 : f64, f32, bf16, f16
}

func.func @index_casts(%i: index, %n: i32, %k: i64) -> (index, i32, i64, index) {
  %a = arith.index_cast %n : i32 to index
  %b = arith.index_cast %i : index to i32
  %c = arith.index_castui %i : index to i64
  %d = arith.index_castui %k : i64 to index
  %e = arith.addi %a, %d : index
  return %e, %b, %c, %d : index, i32, i64, index
}

func.func @bit_tricks(%x: f32, %h: f16, %d: f64) -> (i32, bf16, f64, f32) {
  %bits = arith.bitcast %x : f32 to i32
  %one = arith.constant 1 : i32
  %sh = arith.shrui %bits, %one : i32
  %magic = arith.constant 1597463007 : i32
  %guess = arith.subi %magic, %sh : i32
  %approx = arith.bitcast %guess : i32 to f32
  %hb = arith.bitcast %h : f16 to bf16
  %di = arith.bitcast %d : f64 to i64
  %df = arith.bitcast %di : i64 to f64
  %hi = arith.bitcast %h : f16 to i16
  %hh = arith.bitcast %hi : i16 to f16
  %hw = arith.extf %hh : f16 to f32
  %r = arith.mulf %approx, %hw : f32
  return %guess, %hb, %df, %r : i32, bf16, f64, f32
}
