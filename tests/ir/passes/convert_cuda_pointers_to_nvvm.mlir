// RUN: --convert-cuda-pointers-to-nvvm --pass-statistics
// Pointer arithmetic, comparisons and casts as nvvm on !llvm.ptr: an index scaled by the
// element size (sign-extended first), a difference divided by it, a member's offset, an
// unsigned address comparison, casts between spaces and to and from integers. The load
// and the function arguments stay cuda: materialization casts join the two pointer types.
module {
  func.func @pointers(%p: !cuda.ptr<f32>, %q: !cuda.ptr<f32>, %i: i32, %s: !cuda.ptr<!cuda.struct<"pair", {i32, f64}>>, %a: i64) -> i32 {
    %0 = cuda.ptr_add %p, %i : !cuda.ptr<f32>, i32
    %1 = cuda.ptr_diff %0, %q : !cuda.ptr<f32> -> i32
    %2 = cuda.member_addr %s[1 : i32] : !cuda.ptr<!cuda.struct<"pair", {i32, f64}>> -> !cuda.ptr<f64>
    %3 = cuda.null : !cuda.ptr<f32>
    %4 = cuda.ptr_cmp lt, %0, %q : !cuda.ptr<f32>
    %5 = cuda.cast ptr_cast %p : !cuda.ptr<f32> to !cuda.ptr<f32, global>
    %6 = cuda.cast ptr_to_int %5 : !cuda.ptr<f32, global> to i64
    %7 = cuda.cast int_to_ptr %a : i64 to !cuda.ptr<f64>
    %8 = cuda.load %2 : !cuda.ptr<f64> -> f64
    %9 = cuda.ptr_cmp eq, %3, %p : !cuda.ptr<f32>
    %10 = arith.extui %4 : i1 to i32
    %11 = arith.addi %1, %10 : i32
    return %11 : i32
  }
}
