// A ballot at the top of a loop whose body ends in a divergent switch: after -O3 the
// lanes come back to the ballot on different paths. The simulator required them
// converged; sm_70 and later wait for the member mask (independent thread scheduling),
// and so does the simulator now.
struct p6781_S0 { int f0; float f1; signed char f2; };
__constant__ int p6781_c[16] = {0, 33554432, 2147483647, 0, 716063430, (-980078835), 2147483647, (-2), 256, (-1), 8388608, 10, (-1688987459), 0, 2147483647, (-1)};

__global__ void p6781_kernel(const int *in_i, const int *in_s, const float *in_f, const double *in_d,
    unsigned long long *out_h, float *out_f, double *out_d, unsigned *acc, int n, float fs) {
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long h = 14695981039346656037ull;
  unsigned x6 = 0u;
  int w7 = 0;
  while (w7 < 4) {
    w7++;
    unsigned x8 = 4294967281u;
    x8 = __ballot_sync(0xffffffffu, false);
    x6 = (blockIdx.x * blockDim.x + threadIdx.x);
    switch ((unsigned)(__popc(x6)) & 3u) {
    case 0: {
    } break;
    case 1: {
      float a11[4] = {(float)(0.0f), (float)(0.0f), (float)(in_f[(size_t)(0ull) & 255u]), (float)(0.0f)};
    } break;
    case 2: {
    }
    case 3: {
    } break;
    default: {
    }
    }
  }
  h = (h ^ (unsigned long long)(x6)) * 1099511628211ull;
  out_h[tid] = h;
}
