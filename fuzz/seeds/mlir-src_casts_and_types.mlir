// Casts between widths and kinds, index arithmetic, and wide and unusual integer types.
func.func @casts(%a: i8, %b: i64, %f: f16, %g: bf16) -> (i32, i16, f32, i64, index) {
  %x = arith.extsi %a : i8 to i32
  %y = arith.trunci %b : i64 to i16
  %h = arith.extf %f : f16 to f32
  %gg = arith.extf %g : bf16 to f32
  %s = arith.addf %h, %gg : f32
  %i = arith.fptosi %s : f32 to i64
  %idx = arith.index_cast %x : i32 to index
  %c7 = arith.constant 7 : index
  %sum = arith.addi %idx, %c7 : index
  %k = arith.constant -128 : i8
  %kk = arith.extsi %k : i8 to i32
  %big = arith.constant 170141183460469231731687303715884105727 : i128
  %bt = arith.trunci %big : i128 to i64
  %z = arith.addi %i, %bt : i64
  %w = arith.addi %x, %kk : i32
  return %w, %y, %s, %z, %sum : i32, i16, f32, i64, index
}
