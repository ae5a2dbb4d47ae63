// Verifier errors: structural rules and op verifiers, pointing at the op.
"func.func"() <{function_type = (i32) -> i32, sym_name = "use_before_def"}> ({
^bb0(%arg0: i32):
  %0 = "arith.addi"(%arg0, %1) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  %1 = "arith.constant"() <{value = 1 : i32}> : () -> i32
  "func.return"(%0) : (i32) -> ()
}) : () -> ()
