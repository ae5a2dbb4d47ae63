"func.func"() <{function_type = () -> (), sym_name = "terminator_not_last"}> ({
  "func.return"() : () -> ()
  %0 = "arith.constant"() <{value = 1 : i32}> : () -> i32
}) : () -> ()
