"demo.op"() : () -> () loc(#undefinedloc)
