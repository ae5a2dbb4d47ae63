"builtin.module"() ({
  "func.func"() <{function_type = (i8, i64, f16, bf16) -> (i32, i16, f32, i64, index), sym_name = "casts"}> ({
  ^bb0(%arg0: i8, %arg1: i64, %arg2: f16, %arg3: bf16):
    %0 = "arith.extsi"(%arg0) : (i8) -> i32
    %1 = "arith.trunci"(%arg1) <{overflowFlags = #arith.overflow<none>}> : (i64) -> i16
    %2 = "arith.extf"(%arg2) : (f16) -> f32
    %3 = "arith.extf"(%arg3) : (bf16) -> f32
    %4 = "arith.addf"(%2, %3) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %5 = "arith.fptosi"(%4) : (f32) -> i64
    %6 = "arith.index_cast"(%0) : (i32) -> index
    %7 = "arith.constant"() <{value = 7 : index}> : () -> index
    %8 = "arith.addi"(%6, %7) <{overflowFlags = #arith.overflow<none>}> : (index, index) -> index
    %9 = "arith.constant"() <{value = -128 : i8}> : () -> i8
    %10 = "arith.extsi"(%9) : (i8) -> i32
    %11 = "arith.constant"() <{value = 170141183460469231731687303715884105727 : i128}> : () -> i128
    %12 = "arith.trunci"(%11) <{overflowFlags = #arith.overflow<none>}> : (i128) -> i64
    %13 = "arith.addi"(%5, %12) <{overflowFlags = #arith.overflow<none>}> : (i64, i64) -> i64
    %14 = "arith.addi"(%0, %10) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    "func.return"(%14, %1, %4, %13, %8) : (i32, i16, f32, i64, index) -> ()
  }) : () -> ()
}) : () -> ()

