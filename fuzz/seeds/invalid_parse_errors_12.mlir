%0 = "arith.frobnicate"() : () -> i32
