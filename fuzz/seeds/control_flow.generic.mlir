"builtin.module"() ({
  "func.func"() <{function_type = (i32, i32) -> i32, sym_name = "clamp_loop"}> ({
  ^bb0(%arg3: i32, %arg4: i32):
    %4 = "arith.constant"() <{value = 0 : i32}> : () -> i32
    %5 = "arith.constant"() <{value = 1 : i32}> : () -> i32
    "cf.br"(%4, %4)[^bb1] : (i32, i32) -> ()
  ^bb1(%6: i32, %7: i32):  // 2 preds: ^bb0, ^bb2
    %8 = "arith.cmpi"(%6, %arg3) <{predicate = 5 : i64}> : (i32, i32) -> i1
    "cf.cond_br"(%8, %7)[^bb3, ^bb2] <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (i1, i32) -> ()
  ^bb2:  // pred: ^bb1
    %9 = "arith.cmpi"(%7, %arg4) <{predicate = 4 : i64}> : (i32, i32) -> i1
    %10 = "arith.select"(%9, %arg4, %7) : (i1, i32, i32) -> i32
    %11 = "arith.addi"(%10, %6) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %12 = "arith.addi"(%6, %5) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    "cf.br"(%12, %11)[^bb1] : (i32, i32) -> ()
  ^bb3(%13: i32):  // pred: ^bb1
    "func.return"(%13) : (i32) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (i32) -> i32, sym_name = "helper", sym_visibility = "private"}> ({
  ^bb0(%arg2: i32):
    %2 = "arith.constant"() <{value = 3 : i32}> : () -> i32
    %3 = "arith.muli"(%arg2, %2) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    "func.return"(%3) : (i32) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (i32) -> i32, sym_name = "caller"}> ({
  ^bb0(%arg1: i32):
    %0 = "arith.constant"() <{value = true}> : () -> i1
    "cf.cond_br"(%0)[^bb1, ^bb2] <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (i1) -> ()
  ^bb1:  // pred: ^bb0
    %1 = "func.call"(%arg1) <{callee = @helper}> : (i32) -> i32
    "func.return"(%1) : (i32) -> ()
  ^bb2:  // pred: ^bb0
    "func.return"(%arg1) : (i32) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (i64) -> i64, sym_name = "dead_helper", sym_visibility = "private"}> ({
  ^bb0(%arg0: i64):
    "func.return"(%arg0) : (i64) -> ()
  }) : () -> ()
}) : () -> ()

