// A block-wide sum: each block reduces its part of `in` in shared memory, with a warp
// shuffle for the last 32 values, and adds its total to `*out`.
#include <cstdio>

#define BLOCK 256

__device__ float warp_sum(float v) {
#pragma unroll
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__global__ void __launch_bounds__(BLOCK) block_sum(const float *__restrict__ in, float *out, int n) {
  __shared__ float partial[BLOCK];
  unsigned tid = threadIdx.x;
  float acc = 0.0f;
  for (int i = blockIdx.x * BLOCK + tid; i < n; i += gridDim.x * BLOCK) acc += in[i];
  partial[tid] = acc;
  __syncthreads();
  for (unsigned stride = BLOCK / 2; stride >= 32; stride /= 2) {
    if (tid < stride) partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (tid < 32) {
    float v = warp_sum(partial[tid]);
    if (tid == 0) atomicAdd(out, v);
  }
}

int main() {
  // Host code is skipped by `cuprite compile`, as by `nvcc -ptx`.
  float *in = nullptr, *out = nullptr;
  block_sum<<<64, BLOCK>>>(in, out, 1 << 20);
  std::printf("launched\n");
  return 0;
}
