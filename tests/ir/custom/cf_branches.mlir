// cf.br / cf.cond_br (block arguments, same-target branches, branch weights), plus cf.assert, in CFG-form loops and diamonds.
func.func @count_loop(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  cf.br ^header(%c0, %c0 : i32, i32)
^header(%i: i32, %acc: i32):
  %cont = arith.cmpi slt, %i, %n : i32
  cf.cond_br %cont, ^body, ^exit(%acc : i32)
^body:
  %acc2 = arith.addi %acc, %i : i32
  %i2 = arith.addi %i, %c1 : i32
  cf.br ^header(%i2, %acc2 : i32, i32)
^exit(%result: i32):
  return %result : i32
}

func.func @diamond(%c: i1, %x: f32) -> f32 {
  cf.cond_br %c, ^then, ^else
^then:
  %a = arith.addf %x, %x : f32
  cf.br ^merge(%a : f32)
^else:
  %b = arith.mulf %x, %x : f32
  cf.br ^merge(%b : f32)
^merge(%r: f32):
  return %r : f32
}

func.func @same_target(%flag: i1, %a: i64, %b: i64) -> i64 {
  cf.cond_br %flag, ^join(%a : i64), ^join(%b : i64)
^join(%v: i64):
  return %v : i64
}

func.func @weighted(%flag: i1, %p: i32) -> i32 {
  cf.cond_br %flag weights([90, 10]), ^hot(%p : i32), ^cold
^hot(%h: i32):
  return %h : i32
^cold:
  %z = arith.constant 0 : i32
  return %z : i32
}

func.func @guarded_div(%n: i32, %d: i32) -> i32 {
  %zero = arith.constant 0 : i32
  %nz = arith.cmpi ne, %d, %zero : i32
  cf.assert %nz, "division by zero"
  %q = arith.divsi %n, %d : i32
  return %q : i32
}

func.func @nested_loops_cfg(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  cf.br ^outer(%c0, %c0 : index, index)
^outer(%i: index, %total: index):
  %oc = arith.cmpi ult, %i, %n : index
  cf.cond_br %oc, ^inner_entry, ^end
^inner_entry:
  cf.br ^inner(%c0, %total : index, index)
^inner(%j: index, %t: index):
  %ic = arith.cmpi ult, %j, %i : index
  cf.cond_br %ic, ^inner_body, ^outer_latch(%t : index)
^inner_body:
  %t2 = arith.addi %t, %j : index
  %j2 = arith.addi %j, %c1 : index
  cf.br ^inner(%j2, %t2 : index, index)
^outer_latch(%tt: index):
  %i2 = arith.addi %i, %c1 : index
  cf.br ^outer(%i2, %tt : index, index)
^end:
  return %total : index
}
