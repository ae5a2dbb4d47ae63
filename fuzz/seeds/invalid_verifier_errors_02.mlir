"func.func"() <{function_type = () -> (), sym_name = "no_terminator"}> ({
  %0 = "arith.constant"() <{value = 1 : i32}> : () -> i32
}) : () -> ()
