// Branches with block arguments, a loop, and a call.
func.func @clamp_loop(%n: i32, %limit: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  cf.br ^header(%c0, %c0 : i32, i32)
^header(%i: i32, %acc: i32):
  %done = arith.cmpi sge, %i, %n : i32
  cf.cond_br %done, ^exit(%acc : i32), ^body
^body:
  %big = arith.cmpi sgt, %acc, %limit : i32
  %next = arith.select %big, %limit, %acc : i32
  %acc2 = arith.addi %next, %i : i32
  %i2 = arith.addi %i, %c1 : i32
  cf.br ^header(%i2, %acc2 : i32, i32)
^exit(%r: i32):
  return %r : i32
}

func.func private @helper(%a: i32) -> i32 {
  %c3 = arith.constant 3 : i32
  %m = arith.muli %a, %c3 : i32
  return %m : i32
}

func.func @caller(%a: i32) -> i32 {
  %t = arith.constant true
  cf.cond_br %t, ^yes, ^no
^yes:
  %r = func.call @helper(%a) : (i32) -> i32
  return %r : i32
^no:
  return %a : i32
}

func.func private @dead_helper(%a: i64) -> i64 {
  return %a : i64
}
