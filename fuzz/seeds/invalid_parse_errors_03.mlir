"demo.op"(%x) : (i32) -> ()
