"func.func"() <{function_type = (i32, i64) -> (), sym_name = "mixed_types"}> ({
^bb0(%a: i32, %b: i64):
  %0 = "arith.addi"(%a, %b) <{overflowFlags = #arith.overflow<none>}> : (i32, i64) -> i32
  "func.return"() : () -> ()
}) : () -> ()
