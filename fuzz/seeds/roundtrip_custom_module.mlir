// The builtin module's custom form: named, with attributes, nested.
module @outer attributes {gpu.container, "demo.version" = 3 : i32} {
  module @inner {
    "func.func"() <{function_type = () -> (), sym_name = "empty"}> ({
      "func.return"() : () -> ()
    }) : () -> ()
  }
  module {
  }
  "builtin.module"() ({
    "demo.op"() : () -> ()
  }) {sym_name = "generic_spelling"} : () -> ()
}
