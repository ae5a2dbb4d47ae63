// Loads and stores with cache operators as real kernels use them: the read-only path
// (__ldg) for scalars and vectors, streaming loads and stores (__ldcs/__stcs), a load that
// bypasses L1 (__ldcg), and __activemask() in warp-aggregated atomics, where the lanes
// that reach a branch elect a leader.

__global__ void blur_rows(float4 *__restrict__ out, const float4 *__restrict__ in, const float *__restrict__ w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 c = __ldg(&in[i]);
  float4 l = __ldg(&in[i > 0 ? i - 1 : i]);
  float4 r = __ldg(&in[i < n - 1 ? i + 1 : i]);
  float w0 = __ldg(&w[0]), w1 = __ldg(&w[1]);
  float4 o;
  o.x = w0 * c.x + w1 * (l.x + r.x);
  o.y = w0 * c.y + w1 * (l.y + r.y);
  o.z = w0 * c.z + w1 * (l.z + r.z);
  o.w = w0 * c.w + w1 * (l.w + r.w);
  __stcs(&out[i], o);
}

__global__ void stream_scale(int *out, const int *in, const unsigned char *flags, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    int v = __ldcs(&in[i]);
    unsigned char f = __ldg(&flags[i]);
    __stwt(&out[i], f ? v * 3 : __ldcg(&in[n - 1 - i]));
  }
}

// Warp-aggregated append: one atomic per warp for the lanes that pass the filter.
__global__ void compact_positive(int *out, int *count, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  if (v > 0.0f) {
    unsigned mask = __activemask();
    int lane = threadIdx.x & 31;
    int leader = __ffs(mask) - 1;
    int rank = __popc(mask & ((1u << lane) - 1));
    int base = 0;
    if (lane == leader) base = atomicAdd(count, __popc(mask));
    base = __shfl_sync(mask, base, leader);
    // The order warps append in depends on the schedule: store a value, not a position.
    atomicAdd(&out[(base + rank) % 64], 1);
  }
}
