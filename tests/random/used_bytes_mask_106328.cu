// NVRTC loads two array elements with one ld.local.v2 after a .pragma "used_bytes_mask
// 240" (only the second is used; the first was never written, its initial store removed
// as dead). The simulator reported a read of never-written local memory; the PTX reader
// now keeps the mask and the simulator reads bytes outside it without the warning.

__global__ void p106328_kernel(const int *in_i, const int *in_s, const float *in_f, const double *in_d,
    unsigned long long *out_h, float *out_f, double *out_d, unsigned *acc, int n, float fs) {
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long h = 14695981039346656037ull;
  unsigned a1[8] = {(unsigned)(0u), (unsigned)(0u), (unsigned)(0u), (unsigned)(0u), (unsigned)(0u), (unsigned)(0u), (unsigned)(0u), (unsigned)(0u)};
  for (int i2 = 2; i2 < (int)5; i2 += 1) {
    a1[(unsigned)(0u) & 7u] = a1[(size_t)(10675663727740823970ull) & 7u];
    a1[(unsigned)(n) & 7u] = 0u;
    a1[(size_t)(18446744073709551612ull) & 7u] = a1[(unsigned)(((short)(27237))) & 7u];
  }
  bool x10 = true;
  x10 = (__all_sync(0xffffffffu, false) != 0);
  h = (h ^ (unsigned long long)(a1[0])) * 1099511628211ull;
  h = (h ^ (unsigned long long)(a1[1])) * 1099511628211ull;
  h = (h ^ (unsigned long long)(a1[2])) * 1099511628211ull;
  h = (h ^ (unsigned long long)(a1[3])) * 1099511628211ull;
  h = (h ^ (unsigned long long)(a1[4])) * 1099511628211ull;
  h = (h ^ (unsigned long long)(a1[5])) * 1099511628211ull;
  h = (h ^ (unsigned long long)(a1[6])) * 1099511628211ull;
  h = (h ^ (unsigned long long)(a1[7])) * 1099511628211ull;
  h = (h ^ (unsigned long long)(x10)) * 1099511628211ull;
  out_h[tid] = h;
}
