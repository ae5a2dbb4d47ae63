"demo.op"() {a = 1 : i32}
