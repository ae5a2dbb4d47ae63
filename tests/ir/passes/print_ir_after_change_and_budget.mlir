// RUN: --pass-pipeline=builtin.module(func.func(cse),canonicalize{max-num-rewrites=1}) --print-ir-after-change --no-threading
"func.func"() <{function_type = (i32) -> i32, sym_name = "f"}> ({
^bb0(%x: i32):
  %a = "arith.addi"(%x, %x) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  %b = "arith.addi"(%x, %x) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  %c = "arith.muli"(%a, %b) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  %z = "arith.constant"() <{value = 0 : i32}> : () -> i32
  %d = "arith.addi"(%c, %z) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  "func.return"(%d) : (i32) -> ()
}) : () -> ()
"func.func"() <{function_type = (i32) -> i32, sym_name = "g"}> ({
^bb0(%x: i32):
  "func.return"(%x) : (i32) -> ()
}) : () -> ()
