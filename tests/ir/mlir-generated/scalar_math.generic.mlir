"builtin.module"() ({
  "func.func"() <{function_type = (i32, i32) -> i32, sym_name = "scale_and_offset"}> ({
  ^bb0(%arg4: i32, %arg5: i32):
    %14 = "arith.constant"() <{value = 0 : i32}> : () -> i32
    %15 = "arith.constant"() <{value = 1 : i32}> : () -> i32
    %16 = "arith.constant"() <{value = 4 : i32}> : () -> i32
    %17 = "arith.constant"() <{value = 5 : i32}> : () -> i32
    %18 = "arith.addi"(%arg4, %14) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %19 = "arith.muli"(%18, %15) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %20 = "arith.addi"(%19, %16) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %21 = "arith.addi"(%20, %17) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %22 = "arith.muli"(%16, %17) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %23 = "arith.addi"(%21, %22) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %24 = "arith.xori"(%arg5, %arg5) : (i32, i32) -> i32
    %25 = "arith.ori"(%23, %24) : (i32, i32) -> i32
    "func.return"(%25) : (i32) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (f32, f64) -> (f32, f64), sym_name = "float_mix"}> ({
  ^bb0(%arg2: f32, %arg3: f64):
    %6 = "arith.constant"() <{value = 1.000000e+00 : f32}> : () -> f32
    %7 = "arith.constant"() <{value = 5.000000e-01 : f64}> : () -> f64
    %8 = "arith.constant"() <{value = -0.000000e+00 : f32}> : () -> f32
    %9 = "arith.mulf"(%arg2, %6) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %10 = "arith.addf"(%9, %8) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %11 = "arith.addf"(%7, %7) <{fastmath = #arith.fastmath<none>}> : (f64, f64) -> f64
    %12 = "arith.mulf"(%arg3, %11) <{fastmath = #arith.fastmath<none>}> : (f64, f64) -> f64
    %13 = "arith.negf"(%10) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    "func.return"(%13, %12) : (f32, f64) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (i64, i64) -> i64, sym_name = "compare_select"}> ({
  ^bb0(%arg0: i64, %arg1: i64):
    %0 = "arith.cmpi"(%arg0, %arg0) <{predicate = 3 : i64}> : (i64, i64) -> i1
    %1 = "arith.cmpi"(%arg0, %arg1) <{predicate = 6 : i64}> : (i64, i64) -> i1
    %2 = "arith.select"(%0, %arg0, %arg1) : (i1, i64, i64) -> i64
    %3 = "arith.select"(%1, %2, %2) : (i1, i64, i64) -> i64
    %4 = "arith.extui"(%0) : (i1) -> i64
    %5 = "arith.addi"(%3, %4) <{overflowFlags = #arith.overflow<none>}> : (i64, i64) -> i64
    "func.return"(%5) : (i64) -> ()
  }) : () -> ()
}) : () -> ()

