"builtin.module"() ({
  "func.func"() <{function_type = () -> (i8, i8, i8, i8, i32, i32, i1, i1, i16, i32), sym_name = "int_edges"}> ({
    %12 = "arith.constant"() <{value = 127 : i8}> : () -> i8
    %13 = "arith.constant"() <{value = 1 : i8}> : () -> i8
    %14 = "arith.constant"() <{value = -1 : i8}> : () -> i8
    %15 = "arith.constant"() <{value = -128 : i8}> : () -> i8
    %16 = "arith.addi"(%12, %13) <{overflowFlags = #arith.overflow<none>}> : (i8, i8) -> i8
    %17 = "arith.muli"(%12, %12) <{overflowFlags = #arith.overflow<none>}> : (i8, i8) -> i8
    %18 = "arith.divui"(%14, %12) : (i8, i8) -> i8
    %19 = "arith.remsi"(%15, %12) : (i8, i8) -> i8
    %20 = "arith.constant"() <{value = 0 : i32}> : () -> i32
    %21 = "arith.constant"() <{value = 7 : i32}> : () -> i32
    %22 = "arith.divsi"(%21, %20) : (i32, i32) -> i32
    %23 = "arith.constant"() <{value = 40 : i32}> : () -> i32
    %24 = "arith.shli"(%21, %23) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %25 = "arith.cmpi"(%14, %13) <{predicate = 6 : i64}> : (i8, i8) -> i1
    %26 = "arith.cmpi"(%14, %13) <{predicate = 2 : i64}> : (i8, i8) -> i1
    %27 = "arith.extui"(%14) : (i8) -> i16
    %28 = "arith.shrsi"(%21, %21) : (i32, i32) -> i32
    "func.return"(%16, %17, %18, %19, %22, %24, %25, %26, %27, %28) : (i8, i8, i8, i8, i32, i32, i1, i1, i16, i32) -> ()
  }) : () -> ()
  "func.func"() <{function_type = () -> (f32, f32, f32, f64, f32, f32), sym_name = "float_edges"}> ({
    %0 = "arith.constant"() <{value = 0.000000e+00 : f32}> : () -> f32
    %1 = "arith.constant"() <{value = -0.000000e+00 : f32}> : () -> f32
    %2 = "arith.constant"() <{value = 0x7FC00000 : f32}> : () -> f32
    %3 = "arith.constant"() <{value = 1.000000e+00 : f32}> : () -> f32
    %4 = "arith.constant"() <{value = 3.000000e+00 : f64}> : () -> f64
    %5 = "arith.maximumf"(%0, %1) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %6 = "arith.minimumf"(%0, %1) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %7 = "arith.maximumf"(%3, %2) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %8 = "arith.divf"(%4, %4) <{fastmath = #arith.fastmath<none>}> : (f64, f64) -> f64
    %9 = "arith.negf"(%0) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %10 = "arith.constant"() <{value = 1.000000e-01 : f32}> : () -> f32
    %11 = "arith.mulf"(%10, %10) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    "func.return"(%5, %6, %7, %8, %9, %11) : (f32, f32, f32, f64, f32, f32) -> ()
  }) : () -> ()
}) : () -> ()

