#loc2 = loc("control_flow.mlir":2:23)
#loc3 = loc("control_flow.mlir":2:32)
#loc7 = loc("control_flow.mlir":6:9)
#loc8 = loc("control_flow.mlir":6:18)
#loc16 = loc("control_flow.mlir":15:7)
#loc19 = loc("control_flow.mlir":19:27)
#loc24 = loc("control_flow.mlir":25:19)
#loc31 = loc("control_flow.mlir":35:32)
"builtin.module"() ({
  "func.func"() <{function_type = (i32, i32) -> i32, sym_name = "clamp_loop"}> ({
  ^bb0(%arg3: i32 loc("control_flow.mlir":2:23), %arg4: i32 loc("control_flow.mlir":2:32)):
    %4 = "arith.constant"() <{value = 0 : i32}> : () -> i32 loc(#loc4)
    %5 = "arith.constant"() <{value = 1 : i32}> : () -> i32 loc(#loc5)
    "cf.br"(%4, %4)[^bb1] : (i32, i32) -> () loc(#loc6)
  ^bb1(%6: i32 loc("control_flow.mlir":6:9), %7: i32 loc("control_flow.mlir":6:18)):  // 2 preds: ^bb0, ^bb2
    %8 = "arith.cmpi"(%6, %arg3) <{predicate = 5 : i64}> : (i32, i32) -> i1 loc(#loc9)
    "cf.cond_br"(%8, %7)[^bb3, ^bb2] <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (i1, i32) -> () loc(#loc10)
  ^bb2:  // pred: ^bb1
    %9 = "arith.cmpi"(%7, %arg4) <{predicate = 4 : i64}> : (i32, i32) -> i1 loc(#loc11)
    %10 = "arith.select"(%9, %arg4, %7) : (i1, i32, i32) -> i32 loc(#loc12)
    %11 = "arith.addi"(%10, %6) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32 loc(#loc13)
    %12 = "arith.addi"(%6, %5) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32 loc(#loc14)
    "cf.br"(%12, %11)[^bb1] : (i32, i32) -> () loc(#loc15)
  ^bb3(%13: i32 loc("control_flow.mlir":15:7)):  // pred: ^bb1
    "func.return"(%13) : (i32) -> () loc(#loc17)
  }) : () -> () loc(#loc1)
  "func.func"() <{function_type = (i32) -> i32, sym_name = "helper", sym_visibility = "private"}> ({
  ^bb0(%arg2: i32 loc("control_flow.mlir":19:27)):
    %2 = "arith.constant"() <{value = 3 : i32}> : () -> i32 loc(#loc20)
    %3 = "arith.muli"(%arg2, %2) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32 loc(#loc21)
    "func.return"(%3) : (i32) -> () loc(#loc22)
  }) : () -> () loc(#loc18)
  "func.func"() <{function_type = (i32) -> i32, sym_name = "caller"}> ({
  ^bb0(%arg1: i32 loc("control_flow.mlir":25:19)):
    %0 = "arith.constant"() <{value = true}> : () -> i1 loc(#loc25)
    "cf.cond_br"(%0)[^bb1, ^bb2] <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (i1) -> () loc(#loc26)
  ^bb1:  // pred: ^bb0
    %1 = "func.call"(%arg1) <{callee = @helper}> : (i32) -> i32 loc(#loc27)
    "func.return"(%1) : (i32) -> () loc(#loc28)
  ^bb2:  // pred: ^bb0
    "func.return"(%arg1) : (i32) -> () loc(#loc29)
  }) : () -> () loc(#loc23)
  "func.func"() <{function_type = (i64) -> i64, sym_name = "dead_helper", sym_visibility = "private"}> ({
  ^bb0(%arg0: i64 loc("control_flow.mlir":35:32)):
    "func.return"(%arg0) : (i64) -> () loc(#loc32)
  }) : () -> () loc(#loc30)
}) : () -> () loc(#loc)
#loc = loc("control_flow.mlir":0:0)
#loc1 = loc("control_flow.mlir":2:1)
#loc4 = loc("control_flow.mlir":3:9)
#loc5 = loc("control_flow.mlir":4:9)
#loc6 = loc("control_flow.mlir":5:3)
#loc9 = loc("control_flow.mlir":7:11)
#loc10 = loc("control_flow.mlir":8:3)
#loc11 = loc("control_flow.mlir":10:10)
#loc12 = loc("control_flow.mlir":11:11)
#loc13 = loc("control_flow.mlir":12:11)
#loc14 = loc("control_flow.mlir":13:9)
#loc15 = loc("control_flow.mlir":14:3)
#loc17 = loc("control_flow.mlir":16:3)
#loc18 = loc("control_flow.mlir":19:1)
#loc20 = loc("control_flow.mlir":20:9)
#loc21 = loc("control_flow.mlir":21:8)
#loc22 = loc("control_flow.mlir":22:3)
#loc23 = loc("control_flow.mlir":25:1)
#loc25 = loc("control_flow.mlir":26:8)
#loc26 = loc("control_flow.mlir":27:3)
#loc27 = loc("control_flow.mlir":29:8)
#loc28 = loc("control_flow.mlir":30:3)
#loc29 = loc("control_flow.mlir":32:3)
#loc30 = loc("control_flow.mlir":35:1)
#loc32 = loc("control_flow.mlir":36:3)

