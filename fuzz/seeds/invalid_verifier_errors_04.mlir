"func.func"() <{function_type = () -> i64, sym_name = "bad_return"}> ({
  %0 = "arith.constant"() <{value = 1 : i32}> : () -> i32
  "func.return"(%0) : (i32) -> ()
}) : () -> ()
