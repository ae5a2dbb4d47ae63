// A remainder by blockIdx.x behind a zero-divisor guard: NVRTC computes rem.u32 before
// the guard (PTX gives an unspecified value for a zero divisor, no fault) and selects.
// The simulator faulted on it; at the ptx level it now gives the hardware's value (the
// dividend).
struct p5065_S0 { double f0; float f1; long long f2; };
__device__ __forceinline__ int p5065_div_i32(int a, int b) { return (b == 0 || (a == (-2147483647 - 1) && b == (int)-1)) ? a : (int)(a / b); }
__device__ __forceinline__ unsigned p5065_rem_u32(unsigned a, unsigned b) { return (b == 0) ? a : (unsigned)(a % b); }

__device__ double p5065_f0(double q0) {
  return 0.0;
}

__device__ int p5065_f1(short q0, signed char q1) {
  return 0;
}

__global__ void p5065_kernel(const int *in_i, const int *in_s, const float *in_f, const double *in_d,
    unsigned long long *out_h, float *out_f, double *out_d, unsigned *acc, int n, float fs) {
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long h = 14695981039346656037ull;
  for (int i15 = 2; i15 < (int)9; i15 += 1) {
    for (int i16 = 0; i16 < (int)3; i16 += 1) {
      h = (h ^ (unsigned long long)(p5065_div_i32(((int)((unsigned)0 - (unsigned)(i16))), in_i[(unsigned)(((short)(32767))) & 255u]))) * 1099511628211ull;
    }
    for (unsigned i17 = 1; i17 < (unsigned)7; i17 += 2) {
      h = (h ^ (unsigned long long)(p5065_rem_u32(((unsigned)((unsigned)(i17) + (unsigned)(blockIdx.x))), blockIdx.x))) * 1099511628211ull;
    }
  }
  out_h[tid] = h;
}
