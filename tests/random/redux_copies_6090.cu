// A warp reduction in a loop around a loop whose trip count is the lane's: NVRTC unswitches
// the outer loop on that count, so lanes reach two copies of the redux.sync. The simulator
// required one instruction; sm_70 and later meet across copies. Lanes waiting at an equal
// copy of a collective now join it with their own operands (found by the contraction
// campaign, seed 6090; reduced).
// Random program 6090 (cuprite-randprog): UB-free by construction.
// ulp bound under contraction: out_wf 264, out_wd 110
__device__ __forceinline__ int p6090_rem_i32(int a, int b) { return (b == 0 || (a == (-2147483647 - 1) && b == (int)-1)) ? a : (int)(a % b); }

__device__ __noinline__ int p6090_f0(int q0) {
  return 0;
}

__device__ int p6090_f1(signed char q0, signed char q1) {
  return 2147483647;
}

__global__ void p6090_kernel(const int *in_i, const int *in_s, const float *in_f, const double *in_d,
    unsigned long long *out_h, float *out_f, double *out_d, unsigned *acc, int n, float fs, float *out_wf, double *out_wd) {
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  float wf = 1.0f;
  double wd = 1.0;
  unsigned long long h = 14695981039346656037ull;
  int mp = 0;
  int a6[2] = {(int)(0), (int)(in_s[(unsigned)((threadIdx.x & 31u)) & 255u])};
  unsigned x11 = 5u;
  x11 = __shfl_sync(0xffffffffu, (unsigned)(0u), (int)((threadIdx.x + 7u) & 31u));
  bool x12 = false;
  x12 = (__any_sync(0xffffffffu, (p6090_rem_i32(a6[(size_t)(3356407140042342251ull) & 1u], a6[(unsigned)(x11) & 1u]) < 0)) != 0);
  for (size_t i14 = 1; i14 < (size_t)6; i14 += 1) {
    unsigned x15 = 4294967295u;
    x15 = __reduce_min_sync(0xffffffffu, (unsigned)(0u));
    for (unsigned i16 = 0; i16 < (unsigned)((unsigned)(a6[(unsigned)(((short)(32767))) & 1u]) & 7u); i16 += 1) {
      h = (h ^ ((__float_as_uint((-0.5f)) & 0x7fffffffu) > 0x7f800000u ? 1ull : (__float_as_uint((-0.5f)) & 0x7fffffffu) == 0u ? 0ull : (unsigned long long)__float_as_uint((-0.5f)))) * 1099511628211ull;
    }
  }
  h = (h ^ (unsigned long long)(a6[0])) * 1099511628211ull;
  h = (h ^ (unsigned long long)(a6[1])) * 1099511628211ull;
  h = (h ^ (unsigned long long)(x11)) * 1099511628211ull;
  h = (h ^ (unsigned long long)(x12)) * 1099511628211ull;
  out_wf[tid] = wf;
  out_wd[tid] = wd;
  out_h[tid] = h;
}
