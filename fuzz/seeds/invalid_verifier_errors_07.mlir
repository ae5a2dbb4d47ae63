"demo.holder"() ({
  %outer = "demo.def"() : () -> i32
  "func.func"() <{function_type = () -> i32, sym_name = "isolated"}> ({
    "func.return"(%outer) : (i32) -> ()
  }) : () -> ()
}) : () -> ()
