// A loop counter's sign extension in the loop header, used after the counter's increment
// (in the switch's default): mul.wide reads the 32-bit counter at the multiply, but the
// register allocator's coalescing saw the counter's last use at the extension and gave the
// counter and its increment one register, so the multiply read the next value. Coalescing
// now counts what a fusion reads through as used at the fusion's root (found by the
// campaign, seed 4001281; reduced).
// Random program 4001281 (cuprite-randprog): UB-free by construction.
struct p4001281_S0 { unsigned long long f0; unsigned short f1; };
__constant__ int p4001281_c[16] = {1, 1, (-15), (-2147483647 - 1), 4194304, 1, 5, 4, 2147483647, (-14), 65536, (-49999842), 1, 0, (-4), 0};

__device__ int p4001281_f0(short q0, unsigned q1) {
  return 1583518065;
}

__global__ void p4001281_kernel(const int *in_i, const int *in_s, const float *in_f, const double *in_d,
    unsigned long long *out_h, float *out_f, double *out_d, unsigned *acc, int n, float fs) {
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long h = 14695981039346656037ull;
  int mp = 0;
  p4001281_S0 s5 = {(unsigned long long)(32768ull), (unsigned short)(((unsigned short)(0)))};
  for (size_t i8 = 1; i8 < (size_t)7; i8 += 1) {
    s5.f0 = ((unsigned long long)((unsigned long long)(1ull) + (unsigned long long)(i8)));
    switch ((unsigned)((blockIdx.x * blockDim.x + threadIdx.x)) & 3u) {
    case 0: {
    } break;
    case 1: {
    } break;
    case 2: {
    } break;
    case 3: {
      h = (h ^ ((unsigned long long)(__double_as_longlong(0.0) & 0x7fffffffffffffffll) > 0x7ff0000000000000ull ? 1ull : (__double_as_longlong(0.0) & 0x7fffffffffffffffll) == 0ll ? 0ull : (unsigned long long)__double_as_longlong(0.0))) * 1099511628211ull;
    }
    default: {
      h = (h ^ (unsigned long long)(((unsigned long long)((unsigned long long)(i8) << ((unsigned)(2ull) & 63u))))) * 1099511628211ull;
    }
    }
  }
  h = (h ^ (unsigned long long)(s5.f0)) * 1099511628211ull;
  h = (h ^ (unsigned long long)(s5.f1)) * 1099511628211ull;
  out_h[tid] = h;
}
