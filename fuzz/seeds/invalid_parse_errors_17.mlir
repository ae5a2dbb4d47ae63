"demo.op"() : () -> () loc("f.cu":x)
