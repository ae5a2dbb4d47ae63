%0 = "arith.constant"() <{value = 1 : i32}> : () -> i32
%1 = "arith.cmpi"(%0, %0) <{predicate = 12 : i64}> : (i32, i32) -> i1
