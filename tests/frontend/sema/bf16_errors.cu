// RUN: --emit=cuda
// bfloat16 misuse: mixing it with half in one call, an operator it has no overload for,
// and a conversion to a type it has no conversion to.
#include <cuda_bf16.h>

__global__ void mixed(float *out, const __nv_bfloat16 *a, const __half *b) {
  int i = threadIdx.x;
  __nv_bfloat16 s = __hadd(a[i], b[i]);
  __nv_bfloat16 r = a[i] % a[i + 1];
  float *p = a[i];
  out[i] = __bfloat162float(s) + __bfloat162float(r) + *p;
}
