// RUN: --convert-cuda-pointers-to-nvvm
// Pointer arithmetic on a pointer to an incomplete struct has no element size: it fails to
// legalize at its location.
module {
  func.func @bad(%p: !cuda.ptr<!cuda.struct<"opaque">>, %i: i32) -> !cuda.ptr<!cuda.struct<"opaque">> {
    %0 = cuda.ptr_add %p, %i : !cuda.ptr<!cuda.struct<"opaque">>, i32
    return %0 : !cuda.ptr<!cuda.struct<"opaque">>
  }
}
