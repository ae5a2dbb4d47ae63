"demo.op"() {v = #nosuchalias} : () -> ()
