// Parse errors: each case gets a diagnostic with the exact span.
"demo.op"() {s = "unterminated} : () -> ()
// -----
"demo.op"() {a = 1 : i32}
// -----
"demo.op"() : () -> i7x
// -----
"demo.op"(%x) : (i32) -> ()
// -----
%0 = "demo.a"() : () -> i32
%0 = "demo.b"() : () -> i32
// -----
%0 = "demo.a"() : () -> i32
"demo.b"(%0) : (i64) -> ()
// -----
"demo.top"() ({
  "demo.br"()[^nowhere] : () -> ()
}) : () -> ()
// -----
"demo.op"() {v = 256 : i8} : () -> ()
// -----
"demo.op"() {v = "bad \q escape"} : () -> ()
// -----
"demo.op"() {v = #demo.thing<unbalanced} : () -> ()
// -----
"demo.op"() {v = #nosuchalias} : () -> ()
// -----
// no-unregistered
"demo.op"() : () -> ()
// -----
%0 = "arith.frobnicate"() : () -> i32
// -----
"demo.op"() {v = [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]} : () -> ()
// -----
%0:2 = "demo.pair"() : () -> (i32, i32)
"demo.use"(%0#5) : (i32) -> ()
// -----
"demo.op"(%a) : () -> ()
// -----
"demo.top"() ({
  "demo.inner"() : () -> ()

// -----
"demo.op"() : () -> () loc("f.cu":x)
// -----
"demo.op"() : () -> () loc(#undefinedloc)
// -----
"demo.op"() {v = 1.5 : i32} : () -> ()
// -----
"demo.op"() é : () -> ()
// -----
%0 = "demo.a"() : () -> i32 
%1 = "demo.b"(%0) : (i32) -> i32
"demo.c"(%1) : (f32) -> ()
