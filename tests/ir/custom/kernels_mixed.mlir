// mixed scalar kernels inside an explicit named module: newton sqrt (scf.while), binary search, online softmax denominator, prime counting, scf.execute_region.
module @kernels {
  func.func @newton_sqrt(%x: f64) -> f64 {
    %half = arith.constant 5.000000e-01 : f64
    %tol = arith.constant 1.000000e-12 : f64
    %r = scf.while (%g = %x) : (f64) -> f64 {
      %q = arith.divf %x, %g : f64
      %s = arith.addf %g, %q : f64
      %n = arith.mulf %s, %half : f64
      %d = arith.subf %n, %g : f64
      %ad = math.absf %d : f64
      %go = arith.cmpf ogt, %ad, %tol : f64
      scf.condition(%go) %n : f64
    } do {
    ^bb0(%next: f64):
      scf.yield %next : f64
    }
    return %r : f64
  }

  func.func @lower_bound(%n: index, %key: i64, %stride: i64) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %res:2 = scf.while (%lo = %c0, %hi = %n) : (index, index) -> (index, index) {
      %lt = arith.cmpi ult, %lo, %hi : index
      scf.condition(%lt) %lo, %hi : index, index
    } do {
    ^bb0(%l: index, %h: index):
      %sum = arith.addi %l, %h : index
      %mid = arith.shrui %sum, %c1 : index
      %mi = arith.index_castui %mid : index to i64
      %val = arith.muli %mi, %stride : i64
      %less = arith.cmpi slt, %val, %key : i64
      %mid1 = arith.addi %mid, %c1 : index
      %nl = arith.select %less, %mid1, %l : index
      %nh = arith.select %less, %h, %mid : index
      scf.yield %nl, %nh : index, index
    }
    return %res#0 : index
  }

  func.func @softmax_denominator(%n: index, %scale: f32) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %ninf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.000000e+00 : f32
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%m = %ninf, %d = %zero) -> (f32, f32) {
      %ii = arith.index_cast %i : index to i32
      %xi = arith.sitofp %ii : i32 to f32
      %x = arith.mulf %xi, %scale : f32
      %nm = arith.maximumf %m, %x : f32
      %dm = arith.subf %m, %nm : f32
      %corr = math.exp %dm fastmath<afn> : f32
      %dx = arith.subf %x, %nm : f32
      %ex = math.exp %dx fastmath<afn> : f32
      %scaled = arith.mulf %d, %corr : f32
      %nd = arith.addf %scaled, %ex : f32
      scf.yield %nm, %nd : f32, f32
    }
    return %r#1 : f32
  }

  func.func @count_primes(%limit: i32) -> i32 {
    %c2 = arith.constant 2 : i32
    %c1 = arith.constant 1 : i32
    %c0 = arith.constant 0 : i32
    %count = scf.for %n = %c2 to %limit step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
      %isp = scf.for %d = %c2 to %n step %c1 iter_args(%p = %c1) -> (i32) : i32 {
        %r = arith.remui %n, %d : i32
        %div = arith.cmpi eq, %r, %c0 : i32
        %np = arith.select %div, %c0, %p : i32
        scf.yield %np : i32
      }
      %next = arith.addi %acc, %isp : i32
      scf.yield %next : i32
    }
    return %count : i32
  }

  func.func @region_blocks(%c: i1, %a: i32, %b: i32) -> i32 {
    %r = scf.execute_region -> i32 {
      cf.cond_br %c, ^bb1, ^bb2
    ^bb1:
      scf.yield %a : i32
    ^bb2:
      %s = arith.addi %a, %b : i32
      scf.yield %s : i32
    }
    return %r : i32
  }
}
