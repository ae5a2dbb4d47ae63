%0 = "arith.constant"() <{value = 1 : i64}> : () -> i32
