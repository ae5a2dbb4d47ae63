// scf.while (while and do-while forms, multiple carried values, after-region args differing from before-region) with scf.condition, and scf.if with/without results and else.
func.func @collatz_steps(%start: i64) -> i32 {
  %one = arith.constant 1 : i64
  %two = arith.constant 2 : i64
  %three = arith.constant 3 : i64
  %zero = arith.constant 0 : i32
  %inc = arith.constant 1 : i32
  %res:2 = scf.while (%v = %start, %steps = %zero) : (i64, i32) -> (i64, i32) {
    %more = arith.cmpi ugt, %v, %one : i64
    scf.condition(%more) %v, %steps : i64, i32
  } do {
  ^bb0(%cur: i64, %cnt: i32):
    %rem = arith.remui %cur, %two : i64
    %is_odd = arith.cmpi eq, %rem, %one : i64
    %next = scf.if %is_odd -> (i64) {
      %t = arith.muli %cur, %three : i64
      %u = arith.addi %t, %one : i64
      scf.yield %u : i64
    } else {
      %h = arith.divui %cur, %two : i64
      scf.yield %h : i64
    }
    %ncnt = arith.addi %cnt, %inc : i32
    scf.yield %next, %ncnt : i64, i32
  }
  return %res#1 : i32
}

func.func @do_while_halving(%x: f32) -> f32 {
  %half = arith.constant 5.000000e-01 : f32
  %eps = arith.constant 1.000000e-03 : f32
  %r = scf.while (%v = %x) : (f32) -> f32 {
    %next = arith.mulf %v, %half : f32
    %big = arith.cmpf ogt, %next, %eps : f32
    scf.condition(%big) %next : f32
  } do {
  ^bb0(%w: f32):
    scf.yield %w : f32
  }
  return %r : f32
}

func.func @while_type_change(%limit: i32) -> f64 {
  %c0 = arith.constant 0 : i32
  %r = scf.while (%i = %c0) : (i32) -> f64 {
    %lt = arith.cmpi slt, %i, %limit : i32
    %f = arith.sitofp %i : i32 to f64
    scf.condition(%lt) %f : f64
  } do {
  ^bb0(%f: f64):
    %i2 = arith.fptosi %f : f64 to i32
    %c1 = arith.constant 1 : i32
    %n = arith.addi %i2, %c1 : i32
    scf.yield %n : i32
  }
  return %r : f64
}

func.func @no_carried_values(%stop: i1) {
  scf.while : () -> () {
    scf.condition(%stop)
  } do {
    scf.yield
  }
  return
}

func.func @if_forms(%c: i1, %a: i32, %b: i32) -> (i32, i32, f32) {
  scf.if %c {
    %unused = arith.addi %a, %b : i32
  }
  scf.if %c {
    %x = arith.muli %a, %b : i32
  } else {
    %y = arith.subi %a, %b : i32
  }
  scf.if %c {
  } else {
  }
  %m = scf.if %c -> (i32) {
    scf.yield %a : i32
  } else {
    scf.yield %b : i32
  }
  %p:2 = scf.if %c -> (i32, f32) {
    %one = arith.constant 1.000000e+00 : f32
    scf.yield %b, %one : i32, f32
  } else {
    %two = arith.constant 2.000000e+00 : f32
    scf.yield %a, %two : i32, f32
  }
  return %m, %p#0, %p#1 : i32, i32, f32
}

func.func @piecewise(%x: f32) -> f32 {
  %zero = arith.constant 0.000000e+00 : f32
  %one = arith.constant 1.000000e+00 : f32
  %neg = arith.cmpf olt, %x, %zero : f32
  %r = scf.if %neg -> (f32) {
    scf.yield %zero : f32
  } else {
    %big = arith.cmpf ogt, %x, %one : f32
    %inner = scf.if %big -> (f32) {
      scf.yield %one : f32
    } else {
      %sq = arith.mulf %x, %x : f32
      scf.yield %sq : f32
    }
    scf.yield %inner : f32
  }
  return %r : f32
}
