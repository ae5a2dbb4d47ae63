// RUN: --emit=cuda
// Use before declaration is an error (as in nvcc and clang); so is calling a function
// that is declared but defined nowhere in the translation unit (reported at the end).
__device__ float never_defined(float x);

__global__ void kernel(float *p) {
  p[0] = defined_below(p[1]);
  p[1] = never_defined(p[2]);
  p[2] = later_global;
}

__device__ float defined_below(float x) { return x; }
__device__ float later_global = 1.0f;

// The members of a namespace are declarations of their own, in order.
namespace inner {
__device__ int first() { return second(); }
__device__ int second() { return 2; }
}
