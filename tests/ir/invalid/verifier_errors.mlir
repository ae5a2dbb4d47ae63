// Verifier errors: structural rules and op verifiers, pointing at the op.
"func.func"() <{function_type = (i32) -> i32, sym_name = "use_before_def"}> ({
^bb0(%arg0: i32):
  %0 = "arith.addi"(%arg0, %1) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  %1 = "arith.constant"() <{value = 1 : i32}> : () -> i32
  "func.return"(%0) : (i32) -> ()
}) : () -> ()
// -----
"func.func"() <{function_type = (i1) -> i32, sym_name = "not_dominating"}> ({
^bb0(%c: i1):
  "cf.cond_br"(%c)[^bb1, ^bb2] <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (i1) -> ()
^bb1:
  %v = "arith.constant"() <{value = 1 : i32}> : () -> i32
  "func.return"(%v) : (i32) -> ()
^bb2:
  "func.return"(%v) : (i32) -> ()
}) : () -> ()
// -----
"func.func"() <{function_type = () -> (), sym_name = "no_terminator"}> ({
  %0 = "arith.constant"() <{value = 1 : i32}> : () -> i32
}) : () -> ()
// -----
"func.func"() <{function_type = () -> (), sym_name = "terminator_not_last"}> ({
  "func.return"() : () -> ()
  %0 = "arith.constant"() <{value = 1 : i32}> : () -> i32
}) : () -> ()
// -----
"func.func"() <{function_type = () -> i64, sym_name = "bad_return"}> ({
  %0 = "arith.constant"() <{value = 1 : i32}> : () -> i32
  "func.return"(%0) : (i32) -> ()
}) : () -> ()
// -----
"func.func"() <{function_type = (i1, i32) -> (), sym_name = "succ_count"}> ({
^bb0(%c: i1, %x: i32):
  "cf.cond_br"(%c, %x)[^bb1, ^bb1] <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (i1, i32) -> ()
^bb1(%y: i32):
  "func.return"() : () -> ()
}) : () -> ()
// -----
"func.func"() <{function_type = (f32) -> (), sym_name = "succ_type"}> ({
^bb0(%x: f32):
  "cf.br"(%x)[^bb1] : (f32) -> ()
^bb1(%y: i32):
  "func.return"() : () -> ()
}) : () -> ()
// -----
"demo.holder"() ({
  %outer = "demo.def"() : () -> i32
  "func.func"() <{function_type = () -> i32, sym_name = "isolated"}> ({
    "func.return"(%outer) : (i32) -> ()
  }) : () -> ()
}) : () -> ()
// -----
"func.func"() <{function_type = (i32, i64) -> (), sym_name = "mixed_types"}> ({
^bb0(%a: i32, %b: i64):
  %0 = "arith.addi"(%a, %b) <{overflowFlags = #arith.overflow<none>}> : (i32, i64) -> i32
  "func.return"() : () -> ()
}) : () -> ()
// -----
%0 = "arith.constant"() <{value = 1 : i64}> : () -> i32
// -----
%0 = "arith.constant"() <{value = 1 : i32}> : () -> i32
%1 = "arith.cmpi"(%0, %0) <{predicate = 12 : i64}> : (i32, i32) -> i1
// -----
"func.func"() <{function_type = () -> (), sym_name = "entry_pred"}> ({
^bb0:
  "cf.br"()[^bb0] : () -> ()
}) : () -> ()
// -----
"func.func"() <{function_type = (i32) -> (), sym_name = "arg_mismatch"}> ({
^bb0(%x: f32):
  "func.return"() : () -> ()
}) : () -> ()
// -----
"func.func"() <{function_type = () -> (), sym_name = "self_use"}> ({
  %0 = "arith.addi"(%0, %0) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  "func.return"() : () -> ()
}) : () -> ()
// -----
"func.return"() : () -> ()
