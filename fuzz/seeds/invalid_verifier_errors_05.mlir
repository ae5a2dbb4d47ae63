"func.func"() <{function_type = (i1, i32) -> (), sym_name = "succ_count"}> ({
^bb0(%c: i1, %x: i32):
  "cf.cond_br"(%c, %x)[^bb1, ^bb1] <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (i1, i32) -> ()
^bb1(%y: i32):
  "func.return"() : () -> ()
}) : () -> ()
