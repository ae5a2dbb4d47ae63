// Warp scans with shuffles, dynamic shared memory, 64-bit atomics and CAS loops.
__global__ void warp_scan(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  int v = i < n ? in[i] : 0;
  for (int o = 1; o < 32; o <<= 1) {
    int u = __shfl_up_sync(0xffffffffu, v, o);
    if (lane >= o) v += u;
  }
  if (i < n) out[i] = v;
}

__global__ void block_scan(const float *in, float *out, int n) {
  extern __shared__ float buf[];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  buf[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int o = 1; o < blockDim.x; o *= 2) {
    float x = t >= o ? buf[t - o] : 0.0f;
    __syncthreads();
    buf[t] += x;
    __syncthreads();
  }
  if (i < n) out[i] = buf[t];
}

__global__ void total64(const unsigned long long *in, unsigned long long *sum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(sum, in[i]);
}

__device__ float atomic_max_float(float *addr, float v) {
  int *a = (int *)addr;
  int old = *a, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= v) break;
    old = atomicCAS(a, assumed, __float_as_int(v));
  } while (assumed != old);
  return __int_as_float(old);
}

__global__ void max_float(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomic_max_float(out, in[i]);
}
