// A size_t loop whose incremented counter also leaves the loop on the exit edge
// (LCSSA-like): IV demotion replaced the counter's other uses but kept the exit edge's,
// then erased the old increment while that edge still used it (an internal compiler
// error). The exit edge now gets the widened value.
struct p405690_S0 { signed char f0; unsigned long long f1; int f2; bool f3; };
__device__ __forceinline__ long long p405690_rem_i64(long long a, long long b) { return (b == 0 || (a == (-9223372036854775807ll - 1) && b == (long long)-1)) ? a : (long long)(a % b); }

__device__ signed char p405690_f0(int q0) {
  return ((signed char)(0));
}

__global__ void p405690_kernel(const int *in_i, const int *in_s, const float *in_f, const double *in_d,
    unsigned long long *out_h, float *out_f, double *out_d, unsigned *acc, int n, float fs) {
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long h = 14695981039346656037ull;
  int mp = 0;
  long long v5 = (-3ll);
  unsigned char v6 = ((unsigned char)(n));
  p405690_S0 s7 = {(signed char)(((signed char)(0))), (unsigned long long)(18446744073709551615ull), (int)(((int)(((unsigned short)(v6))))), (bool)(false)};
  for (size_t i11 = 0; i11 < (size_t)((unsigned)(s7.f2) & 7u); i11 += 1) {
    v5 = ((long long)((unsigned long long)(((long long)(i11))) + (unsigned long long)(p405690_rem_i64(1ll, (-9223372036854775807ll - 1)))));
  }
  h = (h ^ (unsigned long long)(v5)) * 1099511628211ull;
  h = (h ^ (unsigned long long)(v6)) * 1099511628211ull;
  h = (h ^ (unsigned long long)(s7.f0)) * 1099511628211ull;
  h = (h ^ (unsigned long long)(s7.f1)) * 1099511628211ull;
  h = (h ^ (unsigned long long)(s7.f2)) * 1099511628211ull;
  h = (h ^ (unsigned long long)(s7.f3)) * 1099511628211ull;
  out_h[tid] = h;
}
