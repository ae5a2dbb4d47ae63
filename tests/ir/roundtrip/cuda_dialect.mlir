module {
  cuda.global constant @coeffs : !cuda.array<4 x f32> = [1.0 : f32, 2.0 : f32, 3.0 : f32, 4.0 : f32]
  cuda.func kernel @scale(%p: !cuda.ptr<f32, global>, %n: si32) attributes {launch_bounds = array<i32: 256, 2>} {
    %i = cuda.var "i" : !cuda.ptr<si32, local>
    %t = cuda.special tid_x : ui32
    %c = cuda.cast int_resize %t : ui32 to si32
    cuda.store %c, %i : si32, !cuda.ptr<si32, local>
    cuda.loop cond {
      %v = cuda.load %i : !cuda.ptr<si32, local> -> si32
      %b = cuda.cmp lt, %v, %n : si32
      cuda.condition %b
    } body {
      %v = cuda.load %i : !cuda.ptr<si32, local> -> si32
      %q = cuda.ptr_add %p, %v : !cuda.ptr<f32, global>, si32
      %x = cuda.load %q {volatile} : !cuda.ptr<f32, global> -> f32
      %two = cuda.constant 2.0 : f32
      %y = cuda.binop mul, %x, %two : f32
      %s = cuda.intrinsic "sqrtf"(%y) : (f32) -> f32
      cuda.store %s, %q : f32, !cuda.ptr<f32, global>
      %z = cuda.cmp gt, %s, %two : f32
      cuda.if %z {
        cuda.break
      } else {
        cuda.yield
      }
      cuda.yield
    } step {
      %one = cuda.constant 1 : si32
      %v = cuda.load %i : !cuda.ptr<si32, local> -> si32
      %w = cuda.binop add, %v, %one : si32
      cuda.store %w, %i : si32, !cuda.ptr<si32, local>
      cuda.yield
    } {unroll = 4 : i32}
    %m = cuda.constant 4294967295 : ui32
    %l = cuda.constant 1 : si32
    %w = cuda.constant 32 : si32
    %f = cuda.constant 1.0 : f32
    %sh = cuda.shfl down %m, %f, %l, %w : f32
    %k = cuda.constant 3 : si32
    cuda.switch %k : si32 [1 : si32, 2 : si32] {
      cuda.yield
    }, {
      cuda.break
    }
    cuda.barrier sync
    %r = cuda.call @sq(%f) : (f32) -> f32
    cuda.return
  }
  cuda.func device @sq(%x: f32) -> f32 {
    %y = cuda.binop mul, %x, %x : f32
    cuda.return %y : f32
  }
}
