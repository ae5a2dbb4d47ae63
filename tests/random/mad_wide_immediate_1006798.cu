// mad.wide.s32 with an immediate addend of more than 32 bits (cuprite selects it for
// -(c + x) with a 64-bit c): the PTX reader typed the addend by the instruction's s32
// suffix and cut it to 32 bits, so cuprite's PTX read back (and any PTX with such an
// addend) ran differently. The addend of mad.wide is now read at twice the width.
struct p1006798_S0 { bool f0; unsigned f1; unsigned char f2; unsigned f3; };

__device__ float p1006798_f0(float q0, float q1) {
  return 0.0f;
}

__device__ __noinline__ double p1006798_f1(unsigned short q0) {
  return 0.0;
}

__device__ __noinline__ float p1006798_f2(short q0, float q1) {
  return 3e-5f;
}

__global__ void p1006798_kernel(const int *in_i, const int *in_s, const float *in_f, const double *in_d,
    unsigned long long *out_h, float *out_f, double *out_d, unsigned *acc, int n, float fs) {
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long h = 14695981039346656037ull;
  int mp = 0;
  int v13 = n;
  h = (h ^ (unsigned long long)(((unsigned long long)((unsigned long long)(18446744073709551615ull) * (unsigned long long)(((unsigned long long)((unsigned long long)((false ? (unsigned long long)(17999270874591919183ull) : (unsigned long long)(17444561513634093489ull))) + (unsigned long long)(((unsigned long long)(v13)))))))))) * 1099511628211ull;
  h = (h ^ (unsigned long long)(v13)) * 1099511628211ull;
  out_h[tid] = h;
}
