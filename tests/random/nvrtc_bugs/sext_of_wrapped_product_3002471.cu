// NVRTC 13.0 miscompiles this program (-O3, sm_90, with or without -fmad): found by the
// random campaign (seed 3002471, reduced). The hash folds (unsigned long long)(int)(561561695u * w12)
// for w12 = 1..4; the unsigned product 2246246780 of the last iteration is -2048720516 as an int,
// so the 64-bit value is sign-extended (0xffffffff85e36e7c). NVRTC strength-reduces the
// product into a 64-bit induction variable (add.s64 %rd106, %rd106, 561561695) and xors it
// without the truncation and sign extension: 2246246780. cuprite's levels agree with the
// cuda level; tests/tests/random_programs.rs checks that, and that NVRTC's PTX still differs
// (so that a fixed NVRTC is noticed).
// Random program 3002471 (cuprite-randprog): UB-free by construction.
struct p3002471_S0 { double f0; float f1; int f2; };
__constant__ int p3002471_c[16] = {0, 2147483647, 1, 2147483647, (-1517367090), 2147483647, (-1739411631), 1201471786, 268435456, 0, 15, (-1), 0, 1, 0, 1};
__device__ __forceinline__ int p3002471_cvt_i32_f32(float x) { return (x > -2147483649.0 && x < 2147483648.0) ? (int)(int)x : (int)0; }

__device__ unsigned short p3002471_f0(short q0, int q1, short q2) {
  return ((unsigned short)(0));
}

__global__ void p3002471_kernel(const int *in_i, const int *in_s, const float *in_f, const double *in_d,
    unsigned long long *out_h, float *out_f, double *out_d, unsigned *acc, int n, float fs) {
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long h = 14695981039346656037ull;
  int mp = 0;
  int w12 = 0;
  do {
    w12++;
    for (int i13 = 2; i13 < (int)8; i13 += 1) {
      for (size_t i15 = 1; i15 < (size_t)8; i15 += 1) {
        atomicXor(&acc[3], (unsigned)(((unsigned char)(0))));
        h = (h ^ (unsigned long long)(i15)) * 1099511628211ull;
      }
    }
    switch ((unsigned)(0u) & 3u) {
    case 0: {
      h = (h ^ (unsigned long long)(((int)((unsigned)(561561695) * (unsigned)(w12))))) * 1099511628211ull;
    }
    case 1: {
      if ((in_s[(unsigned)(0) & 255u] >= 0)) {
        atomicOr(&acc[1], (unsigned)(p3002471_cvt_i32_f32(in_f[(unsigned)(((short)(16))) & 255u])));
        h = (h ^ (unsigned long long)(0ll)) * 1099511628211ull;
      }
    }
    case 2: {
    }
    case 3: {
    } break;
    default: {
    }
    }
  } while (w12 < 4);
  out_h[tid] = h;
}
