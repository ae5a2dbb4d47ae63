"builtin.module"() ({
  "func.func"() <{function_type = (i32, i32, i32, f32, f32) -> (i32, f32), sym_name = "f0"}> ({
  ^bb0(%arg0: i32, %arg1: i32, %arg2: i32, %arg3: f32, %arg4: f32):
    %0 = "arith.subi"(%arg1, %arg2) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %1 = "arith.constant"() <{value = -8 : i32}> : () -> i32
    %2 = "arith.constant"() <{value = 4 : i32}> : () -> i32
    %3 = "arith.subi"(%1, %2) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %4 = "arith.subi"(%arg1, %arg2) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %5 = "arith.constant"() <{value = -1 : i32}> : () -> i32
    %6 = "arith.andi"(%4, %5) : (i32, i32) -> i32
    %7 = "arith.constant"() <{value = 31 : i32}> : () -> i32
    %8 = "arith.constant"() <{value = 5 : i32}> : () -> i32
    %9 = "arith.addi"(%7, %8) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %10 = "arith.constant"() <{value = 4 : i32}> : () -> i32
    %11 = "arith.shli"(%5, %10) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %12 = "arith.constant"() <{value = 3 : i32}> : () -> i32
    %13 = "arith.constant"() <{value = 3 : i32}> : () -> i32
    %14 = "arith.addi"(%12, %13) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %15 = "arith.cmpi"(%6, %3) <{predicate = 4 : i64}> : (i32, i32) -> i1
    %16 = "arith.select"(%15, %14, %11) : (i1, i32, i32) -> i32
    %17 = "arith.mulf"(%arg4, %arg3) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %18 = "arith.constant"() <{value = 1 : i32}> : () -> i32
    %19 = "arith.shli"(%0, %18) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %20 = "arith.subi"(%9, %16) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %21 = "arith.addi"(%19, %20) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %22 = "arith.constant"() <{value = 100 : i32}> : () -> i32
    %23 = "arith.constant"() <{value = 255 : i32}> : () -> i32
    %24 = "arith.andi"(%22, %23) : (i32, i32) -> i32
    %25 = "arith.addi"(%9, %24) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %26 = "arith.subi"(%arg1, %arg2) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %27 = "arith.constant"() <{value = 0 : i32}> : () -> i32
    %28 = "arith.andi"(%27, %26) : (i32, i32) -> i32
    %29 = "arith.addi"(%21, %25) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %30 = "arith.addi"(%29, %28) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    "func.return"(%30, %17) : (i32, f32) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (i32, i32, i32, f32, f32) -> (i32, f32), sym_name = "f1"}> ({
  ^bb0(%arg0: i32, %arg1: i32, %arg2: i32, %arg3: f32, %arg4: f32):
    %0 = "arith.andi"(%arg1, %arg1) : (i32, i32) -> i32
    %1 = "arith.addf"(%arg3, %arg4) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %2 = "arith.muli"(%0, %0) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %3 = "arith.constant"() <{value = 100 : i32}> : () -> i32
    %4 = "arith.constant"() <{value = 255 : i32}> : () -> i32
    %5 = "arith.andi"(%3, %4) : (i32, i32) -> i32
    %6 = "arith.addi"(%5, %5) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %7 = "arith.constant"() <{value = 0 : i32}> : () -> i32
    %8 = "arith.subi"(%6, %7) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %9 = "arith.addf"(%arg3, %arg4) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %10 = "arith.addi"(%8, %7) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %11 = "arith.xori"(%10, %2) : (i32, i32) -> i32
    %12 = "arith.addi"(%11, %10) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %13 = "arith.addi"(%8, %7) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %14 = "arith.addi"(%11, %10) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %15 = "arith.constant"() <{value = -1 : i32}> : () -> i32
    %16 = "arith.andi"(%15, %12) : (i32, i32) -> i32
    %17 = "arith.xori"(%13, %16) : (i32, i32) -> i32
    %18 = "arith.shli"(%14, %7) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %19 = "arith.constant"() <{value = -8 : i32}> : () -> i32
    %20 = "arith.constant"() <{value = 255 : i32}> : () -> i32
    %21 = "arith.andi"(%19, %20) : (i32, i32) -> i32
    %22 = "arith.addi"(%18, %21) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %23 = "arith.andi"(%7, %17) : (i32, i32) -> i32
    %24 = "arith.constant"() <{value = 4 : i32}> : () -> i32
    %25 = "arith.muli"(%24, %15) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %26 = "arith.constant"() <{value = -0.000000e+00 : f32}> : () -> f32
    %27 = "arith.addf"(%9, %26) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %28 = "arith.addi"(%22, %23) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %29 = "arith.addi"(%28, %25) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %30 = "arith.addf"(%1, %27) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    "func.return"(%29, %30) : (i32, f32) -> ()
  }) : () -> ()
}) : () -> ()
