// Malformed cuda types, in either spelling (canonical or MLIR parameter syntax).
func.func @f(%p: !cuda.ptr<f32, "nonsense">) {
  return
}

// -----
func.func @f(%p: !cuda.ptr<f32, texture>) {
  return
}

// -----
func.func @f(%p: !cuda.array<x : i64, f32>) {
  return
}

// -----
func.func @f(%p: !cuda.array<4 by f32>) {
  return
}

// -----
func.func @f(%p: !cuda.struct_ref<>) {
  return
}

// -----
func.func @f(%p: !cuda.struct<"s", {f32} bogus>) {
  return
}

// -----
func.func @f(%p: !cuda.ptr<!cuda.vec<4>>) {
  return
}

// -----
func.func @f(%p: !cuda.vec<4>) {
  return
}

// -----
"builtin.module"() ({
  "cuda.global"() <{space = 1 : i32, sym_name = "g", type = !cuda.array<4 x>}> : () -> ()
}) : () -> ()
