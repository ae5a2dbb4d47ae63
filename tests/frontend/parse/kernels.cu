// RUN: --emit=ast
// Kernels: thread indices, shared memory (static and extern), __launch_bounds__, casts,
// ?:, switch, do-while, #pragma unroll, inline asm, a function template call; host main skipped.
#include <cstdio>
#define BLOCK 256
struct Particle { float3 pos; float mass; __device__ float energy() const { return 0.5f * mass; } };
template <typename T, int N>
__device__ T sum(const T *v) {
  T acc = T(0);
#pragma unroll
  for (int i = 0; i < N; ++i) acc += v[i];
  return acc;
}
__global__ void __launch_bounds__(BLOCK, 2) saxpy(int n, float a, const float *__restrict__ x, float *y) {
  __shared__ float tile[BLOCK];
  extern __shared__ float dyn[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    tile[threadIdx.x] = x[i];
    __syncthreads();
    y[i] = a * tile[threadIdx.x] + y[i];
  } else if (i == n) { y[0] = sum<float, 4>(y); }
  float4 v = reinterpret_cast<const float4 *>(x)[i / 4];
  unsigned long long bits = (unsigned long long)__float_as_int(v.x) << 32;
  int k = i > 0 ? i : -i;
  switch (k & 3) { case 0: k++; break; default: break; }
  do { k >>= 1; } while (k);
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(k));
}
int main() {
  float *x;
  cudaMalloc(&x, 100);
  saxpy<<<1, 256>>>(100, 2.0f, x, x);
  printf("done\n");
}
