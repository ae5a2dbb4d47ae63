"demo.op"() {v = "bad \q escape"} : () -> ()
