// Attribute and type aliases, forward references to values and blocks.
#map = affine_map<(d0) -> (d0 + 1)>
!vec = vector<8xi32>
#tag = "shared-tag"
"demo.container"() ({
  "demo.with_alias"() {m = #map, tag = #tag, t = !vec} : () -> ()
  "demo.jump"()[^later] : () -> ()
^first(%v: !vec):
  "demo.done"(%v) : (vector<8xi32>) -> ()
^later:
  %w = "demo.make"() : () -> !vec
  "demo.jump2"(%w)[^first] : (!vec) -> ()
}) : () -> ()
