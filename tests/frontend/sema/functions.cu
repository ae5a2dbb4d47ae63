// RUN: --emit=cuda
// Calls: device functions and overloads, the math library (float and double, C++
// overloads), fast-math and integer intrinsics, atomics, warp shuffles and votes,
// warpSize, __launch_bounds__, #pragma unroll and inline asm.
__device__ int clampi(int x, int lo, int hi) { return x < lo ? lo : (x > hi ? hi : x); }
__device__ float clampi(float x, float lo, float hi) { return fminf(fmaxf(x, lo), hi); }

__device__ float warp_sum(float v) {
#pragma unroll
  for (int off = warpSize / 2; off > 0; off /= 2) v += __shfl_down_sync(0xffffffff, v, off);
  return v;
}

__global__ void __launch_bounds__(128, 4) calls(float *f, double *d, int *c, unsigned *bits) {
  int t = threadIdx.x;
  float x = f[t];
  f[t] = sqrtf(x) + sin(x) + __expf(x) + __fdividef(x, 3.0f) + powf(x, 2.0f) + clampi(x, 0.0f, 1.0f);
  d[t] = exp(d[t]) + fabs(d[t]) + max(d[t], 1.0);
  c[t] = clampi(c[t], 0, 9) + __popc(bits[t]) + __clz(c[t]) + __mul24(t, 3) + min(t, 4) + abs(-t);
  atomicAdd(&c[0], 1);
  atomicMax(&c[1], t);
  unsigned old = atomicCAS(&bits[0], 0u, 1u);
  bits[t] = __ballot_sync(0xffffffff, x > 0.0f) + old + __brev(bits[t]);
  float s = warp_sum(x);
  if (__all_sync(0xffffffff, s > 0.0f)) f[0] = s;
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  c[t] += lane;
  __syncwarp();
  __threadfence();
}
