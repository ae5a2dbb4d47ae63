// The index arithmetic of a saxpy-style kernel, written the way a frontend first emits it:
// redundant constants, a multiply by one, an add of zero, a repeated subexpression and a
// branch on a constant. `cuprite opt --canonicalize --cse` cleans it up.
"func.func"() <{function_type = (i32, i32, i32, i32) -> (i32, i1), sym_name = "saxpy_index"}> ({
^bb0(%tid: i32, %ctaid: i32, %ntid: i32, %n: i32):
  %c0 = "arith.constant"() <{value = 0 : i32}> : () -> i32
  %c1 = "arith.constant"() <{value = 1 : i32}> : () -> i32
  %c4 = "arith.constant"() <{value = 4 : i32}> : () -> i32
  %true = "arith.constant"() <{value = true}> : () -> i1
  %base = "arith.muli"(%ctaid, %ntid) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  %base1 = "arith.muli"(%base, %c1) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  %i = "arith.addi"(%base1, %tid) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  %i0 = "arith.addi"(%i, %c0) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  %again = "arith.muli"(%ctaid, %ntid) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  %i2 = "arith.addi"(%again, %tid) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  %inb = "arith.cmpi"(%i0, %n) <{predicate = 2 : i64}> : (i32, i32) -> i1
  %byte = "arith.muli"(%i2, %c4) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  "cf.cond_br"(%true, %byte, %c0)[^bb1, ^bb1] <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (i1, i32, i32) -> ()
^bb1(%off: i32):
  "func.return"(%off, %inb) : (i32, i1) -> ()
}) : () -> ()
