"demo.op"() {v = #demo.thing<unbalanced} : () -> ()
