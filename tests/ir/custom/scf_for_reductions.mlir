// scf.for with and without iter_args, multiple loop-carried values, integer (i32/i64) induction variables, `unsigned`, nested loops, and scf.yield.
func.func @sum_to_n(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
    %next = arith.addi %acc, %i : index
    scf.yield %next : index
  }
  return %r : index
}

func.func @mean_and_max(%n: index, %x: f32) -> (f32, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%sum = %zero, %mx = %ninf) -> (f32, f32) {
    %fi = arith.index_cast %i : index to i32
    %fv = arith.sitofp %fi : i32 to f32
    %v = arith.mulf %fv, %x : f32
    %s = arith.addf %sum, %v : f32
    %m = arith.maximumf %mx, %v : f32
    scf.yield %s, %m : f32, f32
  }
  %ni = arith.index_cast %n : index to i64
  %nf = arith.sitofp %ni : i64 to f32
  %mean = arith.divf %res#0, %nf : f32
  return %mean, %res#1 : f32, f32
}

func.func @i32_loop(%lb: i32, %ub: i32, %step: i32) -> i32 {
  %zero = arith.constant 0 : i32
  %r = scf.for %i = %lb to %ub step %step iter_args(%acc = %zero) -> (i32) : i32 {
    %sq = arith.muli %i, %i : i32
    %next = arith.addi %acc, %sq : i32
    scf.yield %next : i32
  }
  return %r : i32
}

func.func @i64_side_effect_free(%ub: i64) {
  %c0 = arith.constant 0 : i64
  %c2 = arith.constant 2 : i64
  scf.for %i = %c0 to %ub step %c2 : i64 {
    %t = arith.addi %i, %c2 : i64
  }
  return
}

func.func @unsigned_bounds(%lb: index, %ub: index, %step: index) -> index {
  %init = arith.constant 0 : index
  %r = scf.for unsigned %i = %lb to %ub step %step iter_args(%cnt = %init) -> (index) {
    %c1 = arith.constant 1 : index
    %nc = arith.addi %cnt, %c1 : index
    scf.yield %nc : index
  }
  return %r : index
}

func.func @nested_matmul_like(%m: index, %n: index, %k: index, %a: f64, %b: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.000000e+00 : f64
  %total = scf.for %i = %c0 to %m step %c1 iter_args(%ti = %zero) -> (f64) {
    %row = scf.for %j = %c0 to %n step %c1 iter_args(%tj = %ti) -> (f64) {
      %dot = scf.for %l = %c0 to %k step %c1 iter_args(%tl = %tj) -> (f64) {
        %p = arith.mulf %a, %b : f64
        %s = arith.addf %tl, %p fastmath<contract> : f64
        scf.yield %s : f64
      }
      scf.yield %dot : f64
    }
    scf.yield %row : f64
  }
  return %total : f64
}

func.func @empty_and_void_loops(%n: index) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %n step %c4 {
  }
  scf.for %i = %c0 to %n step %c4 {
    scf.for %j = %i to %n step %c4 {
      %s = arith.addi %i, %j : index
    }
  }
  return
}

func.func @fib(%n: i32) -> i64 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %a0 = arith.constant 0 : i64
  %b0 = arith.constant 1 : i64
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %a0, %b = %b0) -> (i64, i64) : i32 {
    %s = arith.addi %a, %b : i64
    scf.yield %b, %s : i64, i64
  }
  return %r#0 : i64
}
