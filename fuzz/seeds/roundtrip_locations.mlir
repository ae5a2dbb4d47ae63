// Locations of every kind, written inline and through aliases defined after their use
// (as mlir-opt prints them).
"demo.op"() : () -> () loc("k.cu":3:5)
"demo.op"() : () -> () loc("k.cu":3:5 to 3:9)
"demo.op"() : () -> () loc("k.cu":3:5 to :12)
"demo.op"() : () -> () loc("k.cu":3:5 to 7:1)
"demo.op"() : () -> () loc("my_name")
"demo.op"() : () -> () loc("my_name"("k.cu":1:1))
"demo.op"() : () -> () loc(fused["a.cu":1:1, "b.cu":2:2])
"demo.op"() : () -> () loc(fused<"meta">["a.cu":1:1, unknown])
"demo.op"() : () -> () loc(callsite("callee"("f.cu":10:3) at "main.cu":4:7))
"demo.op"() : () -> () loc(unknown)
"demo.op"() : () -> () loc(#loc1)
"demo.op"() ({
^bb0(%arg0: i32 loc(#loc2), %arg1: f32 loc("k.cu":8:8)):
  "demo.end"() : () -> () loc(#loc3)
}) : () -> ()
#loc1 = loc("alias.cu":5:5)
#loc2 = loc(fused[#loc1, "k.cu":9:9])
#loc3 = loc(callsite(#loc1 at #loc2))
