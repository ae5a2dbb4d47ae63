"demo.op"() : () -> i7x
