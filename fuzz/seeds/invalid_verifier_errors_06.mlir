"func.func"() <{function_type = (f32) -> (), sym_name = "succ_type"}> ({
^bb0(%x: f32):
  "cf.br"(%x)[^bb1] : (f32) -> ()
^bb1(%y: i32):
  "func.return"() : () -> ()
}) : () -> ()
