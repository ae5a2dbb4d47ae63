// RUN: --canonicalize
// Cast folds (sign vs zero extension, truncation keeping the low bits, int to float) and
// select folds (constant condition, equal operands, i1 select of true/false).
func.func @casts() -> (i32, i32, i8, index, index, f32, f32, i64) {
  %m1 = arith.constant -1 : i8
  %s = arith.extsi %m1 : i8 to i32
  %z = arith.extui %m1 : i8 to i32
  %big = arith.constant 511 : i32
  %t = arith.trunci %big : i32 to i8
  %ic = arith.index_cast %m1 : i8 to index
  %icu = arith.index_castui %m1 : i8 to index
  %sf = arith.sitofp %m1 : i8 to f32
  %uf = arith.uitofp %m1 : i8 to f32
  %c = arith.constant 3 : index
  %back = arith.index_cast %c : index to i64
  return %s, %z, %t, %ic, %icu, %sf, %uf, %back : i32, i32, i8, index, index, f32, f32, i64
}
func.func @select(%c: i1, %a: i32, %b: i32) -> (i32, i32, i32, i1) {
  %true = arith.constant true
  %false = arith.constant false
  %x = arith.select %true, %a, %b : i32
  %y = arith.select %false, %a, %b : i32
  %z = arith.select %c, %a, %a : i32
  %w = arith.select %c, %true, %false : i1
  return %x, %y, %z, %w : i32, i32, i32, i1
}
