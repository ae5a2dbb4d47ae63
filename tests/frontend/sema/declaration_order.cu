// RUN: --emit=cuda
// A body sees what is declared above it, as in C++: a function called before its
// definition needs a prototype, and the definition further down is the one called.
// Globals are listed first in the module, functions in the order they are defined.
__device__ __noinline__ float scale(float x);

struct Acc {
  float total;
  __device__ void add(float v);
};

__global__ void kernel(float *out, const float *in) {
  Acc a{0.0f};
  a.add(scale(in[threadIdx.x]));
  out[threadIdx.x] = a.total;
}

__device__ float factor = 2.0f;

__device__ float scale(float x) { return factor * x; }

__device__ void Acc::add(float v) { total += v; }

// In a namespace and an extern "C" block, each member sees the ones above it.
namespace inner {
__device__ int twice(int x) { return 2 * x; }
__device__ int quad(int x) { return twice(twice(x)); }
}
extern "C" {
__global__ void c_kernel(int *p) { p[0] = inner::quad(p[1]); }
}
