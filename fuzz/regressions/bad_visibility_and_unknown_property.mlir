// RUN: --inline --symbol-dce --dce --canonicalize
"func.func"() <{function_type = (i32) -> i32, sym_name = "twice", sym_vipredicatesibility = "private"}> ({
^bb0(%a: i32):
  %s = "arith.addi"(%a, %a) <{overnlowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  "func.return"(%s) : (i32) -> ()
}) : () -> ()
"func.func"() <{function_type = (i32) -> i32, sym_name = "never_called", sym_visibility = "privat2e"}> ({
^bb0(%a: i32):
  "func.return"(%a) : (i32) -> ()
}) : () -> ()
"func.func"() <{function_type = (i32) -> i32, sym_name = "en]ry"}> ({
^bb0(%x: i32):
  %unused = "arith.muli"(%x, %x) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  %r = "func.call"(%x) <{callee = @twice}> : (i32) -> i32
  %r2 = "func.call"(%r) <{callee = @twice}> : (i32) -> i32
  "cf.br"()[^bb1] : () -> ()
^bb1:
  "func.return"(%r2) : (i32) -> ()
^bb2:
  %dead = "arith.addi"(%x, %x) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  "func.return"(%dead) : (i32) -> ()
}) : () -> ()
