// Reductions: shared memory trees, warp shuffles, atomics.
#define BLOCK 256

__device__ float warp_reduce(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

__global__ void __launch_bounds__(BLOCK) sum_shared(const float *in, float *out, int n) {
  __shared__ float s[BLOCK];
  int t = threadIdx.x;
  int i = blockIdx.x * BLOCK + t;
  s[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

__global__ void sum_warp(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  v = warp_reduce(v);
  if ((threadIdx.x & 31) == 0) atomicAdd(out, v);
}

__global__ void __launch_bounds__(128, 4) max_int(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : -2147483647;
  for (int o = 16; o > 0; o /= 2) {
    int w = __shfl_xor_sync(0xffffffffu, v, o);
    v = v > w ? v : w;
  }
  if (threadIdx.x % 32 == 0) atomicMax(out, v);
}

__global__ void count_positive(const float *in, unsigned *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool pos = i < n && in[i] > 0.0f;
  unsigned ballot = __ballot_sync(0xffffffffu, pos);
  if ((threadIdx.x & 31) == 0) atomicAdd(count, __popc(ballot));
}

__global__ void block_any(const int *flags, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int any = __syncthreads_or(i < n && flags[i] != 0);
  if (threadIdx.x == 0) out[blockIdx.x] = any;
}

// Dynamic shared memory declared once at namespace scope for several kernels, as some
// programs do; a kernel's own `__shared__` array of the same name hides it.
typedef int data;
__shared__ extern data sdata[];

__global__ void row_min(const data *m, data *out, int n) {
  sdata[threadIdx.x] = (int)threadIdx.x < n ? m[blockIdx.x * n + threadIdx.x] : 0x7fffffff;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) sdata[threadIdx.x] = min(sdata[threadIdx.x], sdata[threadIdx.x + s]);
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = sdata[0];
}

__global__ void row_max_hidden(const data *m, data *out, int n) {
  __shared__ data sdata[64];
  sdata[threadIdx.x] = (int)threadIdx.x < n ? m[blockIdx.x * n + threadIdx.x] : -0x7fffffff;
  __syncthreads();
  if (threadIdx.x == 0) {
    data best = sdata[0];
    for (int i = 1; i < 64; ++i) best = max(best, sdata[i]);
    out[blockIdx.x] = best;
  }
}
