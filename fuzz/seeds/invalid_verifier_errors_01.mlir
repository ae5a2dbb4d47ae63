"func.func"() <{function_type = (i1) -> i32, sym_name = "not_dominating"}> ({
^bb0(%c: i1):
  "cf.cond_br"(%c)[^bb1, ^bb2] <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (i1) -> ()
^bb1:
  %v = "arith.constant"() <{value = 1 : i32}> : () -> i32
  "func.return"(%v) : (i32) -> ()
^bb2:
  "func.return"(%v) : (i32) -> ()
}) : () -> ()
