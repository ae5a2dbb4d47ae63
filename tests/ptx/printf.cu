// Device printf and assert as real code uses them: a debug macro that prints from one
// thread, a per-block summary, every common conversion (widths, precision, flags, %s with
// string literals chosen at run time, %*d, %p-free so that runs compare), and asserts that
// hold. Printed text is compared between levels and with NVRTC's PTX on the simulator.
// printf and assert are used without an include, as nvcc and NVRTC make them visible (so
// that NVRTC, which ships no C library headers, compiles this file too).

#define DEBUG_ONCE(fmt, ...)                                         \
  do {                                                               \
    if (threadIdx.x == 0 && blockIdx.x == 0) printf(fmt, __VA_ARGS__); \
  } while (0)

struct Stats {
  float sum;
  int count;
};

__device__ const char *parity(int v) { return (v & 1) ? "odd" : "even"; }

__global__ void report(const float *x, Stats *out, int n, int verbose) {
  __shared__ float partial[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(blockDim.x <= 64);
  float v = i < n ? x[i] : 0.0f;
  partial[threadIdx.x] = v;
  __syncthreads();
  DEBUG_ONCE("report: n=%d, blocks=%u, threads=%u\n", n, gridDim.x, blockDim.x);
  if (verbose && i < n && i % 7 == 0) {
    printf("[%3d] x=%8.4f %-5s|%+.2e|%g|%#x|%05ld|%c\n", i, v, parity(i), (double)v, v, i * 255, (long)i * 1000,
           'a' + i % 26);
  }
  if (threadIdx.x == 0) {
    float s = 0.0f;
    for (int k = 0; k < blockDim.x; ++k) s += partial[k];
    out[blockIdx.x].sum = s;
    out[blockIdx.x].count = min(n - (int)(blockIdx.x * blockDim.x), (int)blockDim.x);
    assert(out[blockIdx.x].count > 0);
    printf("block %u: sum %.3f over %*d values (%s)\n", blockIdx.x, s, 3, out[blockIdx.x].count,
           s > 10.0f ? "large" : "small");
  }
}

__global__ void sizes(unsigned long long big, short s, unsigned char c, double d) {
  printf("%llu %lld %hd %hhu %u %.10f %e %%\n", (unsigned long long)big, -(long long)big, s, c, (unsigned)c, d, d);
  printf("no arguments at all\n");
}
