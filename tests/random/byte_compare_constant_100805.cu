// A signed char compared with the constant -1: selection extended the byte to 16 bits
// (cvt.u16.u8, 255) but wrote the constant as a 16-bit -1 (0xffff), so the comparison was
// false for the byte 0xff. The constant is now extended as the register is.
struct p100805_S0 { long long f0; unsigned long long f1; float f2; };

__device__ __noinline__ int p100805_f0(float q0, bool q1) {
  return (-1110807217);
}

__device__ int p100805_f1(short q0) {
  return (-1);
}

__global__ void p100805_kernel(const int *in_i, const int *in_s, const float *in_f, const double *in_d,
    unsigned long long *out_h, float *out_f, double *out_d, unsigned *acc, int n, float fs) {
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long h = 14695981039346656037ull;
  int v7 = 0;
  v7 = ((int)((blockIdx.x * blockDim.x + threadIdx.x)));
  if ((((signed char)(v7)) == ((signed char)(-1)))) {
    h = (h ^ (unsigned long long)((-9223372036854775807ll - 1))) * 1099511628211ull;
  }
  h = (h ^ (unsigned long long)(v7)) * 1099511628211ull;
  out_h[tid] = h;
}
