module {
  cuda.global constant @coeffs : !cuda.array<4 x f32> = [1.0 : f32, 2.0 : f32, 3.0 : f32, 4.0 : f32]
  func.func @scale(%p: !cuda.ptr<f32, global>, %n: i32) attributes {cuda.kernel, cuda.launch_bounds = array<i32: 256, 2>} {
    %i = cuda.var "i" : !cuda.ptr<i32, local>
    %t = cuda.special tid_x : i32
    cuda.store %t, %i : i32, !cuda.ptr<i32, local>
    cuda.loop cond {
      %v = cuda.load %i : !cuda.ptr<i32, local> -> i32
      %b = arith.cmpi slt, %v, %n : i32
      cuda.condition %b
    } body {
      %v = cuda.load %i : !cuda.ptr<i32, local> -> i32
      %q = cuda.ptr_add %p, %v : !cuda.ptr<f32, global>, i32
      %x = cuda.load %q {volatile} : !cuda.ptr<f32, global> -> f32
      %two = arith.constant 2.0 : f32
      %y = arith.mulf %x, %two : f32
      %s = cuda.intrinsic "sqrtf"(%y) : (f32) -> f32
      cuda.store %s, %q : f32, !cuda.ptr<f32, global>
      %z = arith.cmpf ogt, %s, %two : f32
      cuda.if %z {
        cuda.break
      } else {
        cuda.yield
      }
      cuda.yield
    } step {
      %one = arith.constant 1 : i32
      %v = cuda.load %i : !cuda.ptr<i32, local> -> i32
      %w = arith.addi %v, %one overflow<nsw> : i32
      cuda.store %w, %i : i32, !cuda.ptr<i32, local>
      cuda.yield
    } {unroll = 4 : i32}
    %m = arith.constant -1 : i32
    %l = arith.constant 1 : i32
    %w = arith.constant 32 : i32
    %f = arith.constant 1.0 : f32
    %sh = cuda.shfl down %m, %f, %l, %w : f32
    %k = arith.constant 3 : i32
    cuda.switch %k : i32 [1 : i32, 2 : i32] {
      cuda.yield
    }, {
      cuda.break
    }
    %g = cuda.cast ptr_cast %p : !cuda.ptr<f32, global> to !cuda.ptr<f32>
    %nul = cuda.null : !cuda.ptr<f32>
    %ne = cuda.ptr_cmp ne, %g, %nul : !cuda.ptr<f32>
    %addr = cuda.cast ptr_to_int %g : !cuda.ptr<f32> to i64
    cuda.barrier sync
    %r = func.call @sq(%f) : (f32) -> f32
    return
  }
  func.func @sq(%x: f32) -> f32 {
    %y = arith.mulf %x, %x : f32
    return %y : f32
  }
}
