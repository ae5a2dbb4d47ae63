// RUN: --pass-pipeline=builtin.module(func.func(canonicalize{max-iterations=ten}))
"func.func"() <{function_type = () -> (), sym_name = "f"}> ({
  "func.return"() : () -> ()
}) : () -> ()
