// Signed and unsigned arithmetic where C's rules decide the result: pointer offsets of
// unsigned type (also subtracted), mixed signed/unsigned comparisons, unsigned division
// and shifts, small types promoted to int, unsigned atomics and min/max.

typedef unsigned int u32;

// A ring buffer read backwards from a cursor: `base + head - back` with unsigned offsets.
__global__ void ring_lookback(const float *ring, float *out, u32 head, u32 cap, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float *cursor = ring + head;
  u32 back = (u32)i % cap;
  if (back > head) back = head;
  out[i] = *(cursor - back);
}

// -1 < 1u is false in C (the int converts to unsigned); -1 < 1L is true.
__global__ void mixed_compare(const int *a, const u32 *b, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = a[i];
  u32 y = b[i];
  int r = 0;
  if (x < y) r |= 1;
  if ((long)x < (long)y) r |= 2;
  if (x >= 0 && (u32)x >= y) r |= 4;
  out[i] = r;
}

// Division, remainder and right shifts: truncation toward zero for int, logical shifts
// and unsigned division for unsigned, and char/short promoted to int first.
__global__ void div_shift(const int *a, const signed char *c, const unsigned short *h, int *out, u32 *uout, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = a[i];
  u32 u = (u32)x;
  out[4 * i + 0] = x / 7 + x % 7;
  out[4 * i + 1] = x >> 3;
  out[4 * i + 2] = c[i] * h[i] - (c[i] >> 1);
  out[4 * i + 3] = (int)((long long)x * -3 / 5);
  uout[2 * i + 0] = u / 7 + u % 7;
  uout[2 * i + 1] = (u >> 3) ^ ~u;
}

// Unsigned and signed atomicMin/atomicMax, and the min/max built-ins on both.
__global__ void extremes(const int *v, int *smin, int *smax, u32 *umin_out, u32 *umax_out, int *pairs, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = v[i];
  atomicMin(smin, x);
  atomicMax(smax, x);
  atomicMin(umin_out, (u32)x);
  atomicMax(umax_out, (u32)x);
  pairs[2 * i] = min(x, 5) + max(x, -5);
  pairs[2 * i + 1] = (int)(min((u32)x, 5u) + umax((u32)x, 7u));
}

// Float to unsigned and back, and bool arithmetic.
__global__ void conversions(const float *f, u32 *u, float *g, int *flags, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = f[i];
  u32 k = x > 0.0f ? (u32)x : 0u;
  u[i] = k;
  g[i] = (float)k + (float)(k > 100u) - (float)(unsigned char)(k & 0x1ff);
  bool neg = x < 0.0f;
  flags[i] = neg + (x != x) * 2 + !neg * 4;
}
