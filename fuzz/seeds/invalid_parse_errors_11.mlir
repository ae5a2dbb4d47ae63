// no-unregistered
"demo.op"() : () -> ()
