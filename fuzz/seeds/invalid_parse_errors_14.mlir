%0:2 = "demo.pair"() : () -> (i32, i32)
"demo.use"(%0#5) : (i32) -> ()
