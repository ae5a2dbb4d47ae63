// RUN: --lower-cuda-control-flow --pass-statistics
// C's control flow that scf cannot state, as sema emits it: a loop left by break and
// continue, a switch whose cases fall through and break (a continue inside it goes to the
// loop), an if that returns, and a break two levels out of an inner loop. Children are
// lowered first, so each construct resolves the exits that target it and passes the
// others one level out.
module {
  func.func @walk(%v: !cuda.ptr<i32>, %n: i32) -> i32 {
    %s = cuda.var "s" : !cuda.ptr<i32, local>
    %i = cuda.var "i" : !cuda.ptr<i32, local>
    %zero = arith.constant 0 : i32
    cuda.store %zero, %s : i32, !cuda.ptr<i32, local>
    cuda.store %zero, %i : i32, !cuda.ptr<i32, local>
    cuda.loop cond {
      %iv = cuda.load %i : !cuda.ptr<i32, local> -> i32
      %c = arith.cmpi slt, %iv, %n : i32
      cuda.condition %c
    } body {
      %iv = cuda.load %i : !cuda.ptr<i32, local> -> i32
      %p = cuda.ptr_add %v, %iv : !cuda.ptr<i32>, i32
      %x = cuda.load %p : !cuda.ptr<i32> -> i32
      %neg = arith.cmpi slt, %x, %zero : i32
      cuda.if %neg {
        cuda.return %iv : i32
      } else {
        cuda.yield
      }
      %three = arith.constant 3 : i32
      %k = arith.andi %x, %three : i32
      cuda.switch %k : i32 [0 : i32, 1 : i32, 2 : i32] attributes {default_index = 2 : i32} {
        %sv = cuda.load %s : !cuda.ptr<i32, local> -> i32
        %one = arith.constant 1 : i32
        %t = arith.addi %sv, %one : i32
        cuda.store %t, %s : i32, !cuda.ptr<i32, local>
        cuda.break
      }, {
        cuda.continue
      }, {
        cuda.yield
      }
      cuda.loop cond {
        %true = arith.constant true
        cuda.condition %true
      } body {
        %big = arith.constant 100 : i32
        %sv = cuda.load %s : !cuda.ptr<i32, local> -> i32
        %over = arith.cmpi sgt, %sv, %big : i32
        cuda.if %over {
          cuda.break {levels = 2 : i32}
        } else {
          cuda.yield
        }
        cuda.break
      } step {
        cuda.yield
      }
      cuda.yield
    } step {
      %iv = cuda.load %i : !cuda.ptr<i32, local> -> i32
      %one = arith.constant 1 : i32
      %next = arith.addi %iv, %one : i32
      cuda.store %next, %i : i32, !cuda.ptr<i32, local>
      cuda.yield
    } {unroll = 2 : i32}
    %r = cuda.load %s : !cuda.ptr<i32, local> -> i32
    return %r : i32
  }
}
