// Branches that only choose a value, written the ways CUDA code writes them, and arms that
// must stay branches (the select-form pass test, tests/ir/passes/select_form.mlir, is this
// file's nvvm IR); division and remainder by powers of two, signed and unsigned, 32- and
// 64-bit, on negative values and the extremes.
#define WARP 32
#define FULL_MASK 0xffffffffu

template <typename T> __device__ __forceinline__ T clamp_to(T v, T lo, T hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

// A warp's maximum and minimum: the tree loops unroll (their counter halves), each
// step's `?:` becomes max/min.
__global__ void warp_extremes(const int *in, int *hi, unsigned *lo, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : -2147483647;
  unsigned u = i < n ? (unsigned)in[i] : 0xffffffffu;
  for (int o = WARP / 2; o > 0; o /= 2) {
    int w = __shfl_xor_sync(FULL_MASK, v, o);
    v = v > w ? v : w;
    unsigned x = __shfl_down_sync(FULL_MASK, u, o);
    if (x < u) u = x;
  }
  if (threadIdx.x % WARP == 0) {
    atomicMax(hi, v);
    atomicMin(lo, u);
  }
}

// if/else assigning one variable, && and || in conditions, a clamp through a helper.
__global__ void pick(const int *a, const int *b, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = a[i], y = b[i];
  int flags = 0;
  if (x > 0 && y > 0) flags |= 1;
  if (x < 0 || y < 0) flags |= 2;
  int d;
  if (x > y) d = x - y;
  else d = (y - x) * 2;
  out[i] = clamp_to(d + flags, -100, 100);
}

// Arms the pass must not speculate: a load (it may fault where the guard protects it),
// a division (expensive, and undefined by zero), a store, and an arm of more than four
// ops.
__global__ void keep(const int *a, int *out, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int g = i < n ? a[i] : 0;
  int q = k != 0 ? n / k : 0;
  if (g > q) out[i % 8] = g;
  int big = g;
  if (q > 3) big = ((g * 3 + q) ^ (g << 2)) - (q >> 1) + 7;
  out[i] = big + q;
}

// Division and remainder by powers of two: C rounds toward zero, so a negative dividend
// needs its bias before the shift.
__global__ void pow2(const int *a, const long long *b, int *q, long long *r, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = a[i];
  unsigned ux = (unsigned)x;
  long long y = b[i];
  q[4 * i] = x / 2 + x % 2;
  q[4 * i + 1] = x / 16 - x % 16;
  q[4 * i + 2] = (int)(ux / 8u + ux % 64u);
  q[4 * i + 3] = x / 1073741824 + x % 1073741824;
  r[2 * i] = y / 4096 + y % 4096;
  r[2 * i + 1] = (long long)((unsigned long long)y / 32ull + (unsigned long long)y % 1024ull);
}
