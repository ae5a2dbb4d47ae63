"demo.op"(%a) : () -> ()
