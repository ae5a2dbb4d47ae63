"func.func"() <{function_type = (i32) -> (), sym_name = "arg_mismatch"}> ({
^bb0(%x: f32):
  "func.return"() : () -> ()
}) : () -> ()
