// RUN: --convert-scf-to-cf --pass-statistics
// scf.if (with a result, and one without an else) and scf.while in a cuda function, as
// the frontend emits them, become blocks and cf branches; the loop's unroll hint goes to
// its back edge.
module {
  func.func @scale(%p: !cuda.ptr<f32>, %n: i32) attributes {cuda.kernel} {
    %i = cuda.var "i" : !cuda.ptr<i32, local>
    %zero = arith.constant 0 : i32
    cuda.store %zero, %i : i32, !cuda.ptr<i32, local>
    scf.while : () -> () {
      %v = cuda.load %i : !cuda.ptr<i32, local> -> i32
      %c = arith.cmpi slt, %v, %n : i32
      scf.condition(%c)
    } do {
      %v = cuda.load %i : !cuda.ptr<i32, local> -> i32
      %q = cuda.ptr_add %p, %v : !cuda.ptr<f32>, i32
      %x = cuda.load %q : !cuda.ptr<f32> -> f32
      %neg = arith.constant 0.0 : f32
      %b = arith.cmpf olt, %x, %neg : f32
      %y = scf.if %b -> (f32) {
        %m = arith.negf %x : f32
        scf.yield %m : f32
      } else {
        scf.yield %x : f32
      }
      cuda.store %y, %q : f32, !cuda.ptr<f32>
      %one = arith.constant 1 : i32
      %w = arith.addi %v, %one : i32
      cuda.store %w, %i : i32, !cuda.ptr<i32, local>
      scf.yield
    } attributes {unroll = 4 : i32}
    %last = cuda.load %i : !cuda.ptr<i32, local> -> i32
    %e = arith.cmpi eq, %last, %zero : i32
    scf.if %e {
      cuda.store %zero, %i : i32, !cuda.ptr<i32, local>
      scf.yield
    } else {
      scf.yield
    }
    return
  }
}
