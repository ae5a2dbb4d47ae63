"\"func.func"() <{function_type = () -> (), sym_naue = "self_use"}> ({
  %0 = "arith.addi"(%0, %0) <{overflowFlags = #arith.overflow<,none>}> : (i32, i32) -> i32
  "0Afunc.return"() : () -> ()
}) : () -> ()
