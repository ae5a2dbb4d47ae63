// RUN: --pass-pipeline=builtin.module(func.func(canonicalize,cse,canonicalize))
"func.func"() <{function_type = (i32, i32) -> i32, sym_name = "redundant"}> ({
^bb0(%x: i32, %y: i32):
  %c0 = "arith.constant"() <{value = 0 : i32}> : () -> i32
  %c2 = "arith.constant"() <{value = 2 : i32}> : () -> i32
  %c3 = "arith.constant"() <{value = 3 : i32}> : () -> i32
  %a = "arith.addi"(%x, %y) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  %b = "arith.addi"(%x, %y) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  %d = "arith.subi"(%a, %b) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  %e = "arith.muli"(%c2, %x) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  %f = "arith.muli"(%e, %c3) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  %g = "arith.addi"(%f, %d) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  %h = "arith.addi"(%g, %c0) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  "func.return"(%h) : (i32) -> ()
}) : () -> ()
"func.func"() <{function_type = (i1) -> i32, sym_name = "branches"}> ({
^bb0(%c: i1):
  %t = "arith.constant"() <{value = true}> : () -> i1
  %k1 = "arith.constant"() <{value = 10 : i32}> : () -> i32
  %k2 = "arith.constant"() <{value = 20 : i32}> : () -> i32
  "cf.cond_br"(%t, %k1, %k2)[^bb1, ^bb1] <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (i1, i32, i32) -> ()
^bb1(%v: i32):
  %dup = "arith.constant"() <{value = 10 : i32}> : () -> i32
  %s = "arith.addi"(%v, %dup) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  "func.return"(%s) : (i32) -> ()
}) : () -> ()
