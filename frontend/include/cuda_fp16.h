// cuprite's cuda_fp16.h: `half` and `half2`.
//
// `__half` is the compiler's IEEE binary16 type `_Float16`, so the C++ operators work on it
// directly with C23's rules: `half op half` is a half operation (add.f16, mul.f16, setp.f16,
// ...; division, square root and the reciprocal go through f32, which rounds them correctly),
// `half op float` is a float one, integers convert to half. It mangles as NVIDIA's class
// `__half` does (`6__half`), so kernels keep nvcc's names.
//
// `__half2` is a pair of halves (`.x`, `.y`, 4-byte aligned as in CUDA), operated on half by
// half. Not here yet: the packed f16x2 instructions, rounding-mode variants other than
// round-to-nearest (`__float2half_rz`, ...), `__half_raw`, bfloat16.
#pragma once

typedef _Float16 __half;
typedef __half half;
struct __align__(4) __half2 {
  __half x, y;
};
typedef __half2 half2;

#define CUDART_INF_FP16 __ushort_as_half((unsigned short)0x7C00U)
#define CUDART_NAN_FP16 __ushort_as_half((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_FP16 __ushort_as_half((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_FP16 __ushort_as_half((unsigned short)0x7BFFU)
#define CUDART_ZERO_FP16 __ushort_as_half((unsigned short)0x0000U)
#define CUDART_ONE_FP16 __ushort_as_half((unsigned short)0x3C00U)

// Reinterpretations and the instructions the compiler selects (declared without a body).
__device__ unsigned short __half_as_ushort(__half h);
__device__ short __half_as_short(__half h);
__device__ __half __ushort_as_half(unsigned short i);
__device__ __half __short_as_half(short i);
__device__ __half __hfma(__half a, __half b, __half c);
__device__ __half __habs(__half a);
__device__ __half __hmin(__half a, __half b);
__device__ __half __hmax(__half a, __half b);
__device__ __half hsqrt(__half a);
__device__ __half hrsqrt(__half a);
__device__ __half hrcp(__half a);
__device__ __half hexp2(__half a);
__device__ __half hlog2(__half a);
__device__ __half hsin(__half a);
__device__ __half hcos(__half a);
__device__ __half htrunc(__half a);
__device__ __half hfloor(__half a);
__device__ __half hceil(__half a);
__device__ __half hrint(__half a);
__CUPRITE_SHFL(__half)

// Conversions (round to nearest even; `_rz`: toward zero, as C's conversion to integer).
static __device__ __forceinline__ __half __float2half(float a) { return (__half)a; }
static __device__ __forceinline__ __half __float2half_rn(float a) { return (__half)a; }
static __device__ __forceinline__ float __half2float(__half a) { return (float)a; }
static __device__ __forceinline__ __half __double2half(double a) { return (__half)a; }
static __device__ __forceinline__ __half __int2half_rn(int i) { return (__half)i; }
static __device__ __forceinline__ __half __uint2half_rn(unsigned int i) { return (__half)i; }
static __device__ __forceinline__ __half __short2half_rn(short i) { return (__half)i; }
static __device__ __forceinline__ __half __ushort2half_rn(unsigned short i) { return (__half)i; }
static __device__ __forceinline__ __half __ll2half_rn(long long i) { return (__half)i; }
static __device__ __forceinline__ __half __ull2half_rn(unsigned long long i) { return (__half)i; }
static __device__ __forceinline__ int __half2int_rz(__half h) { return (int)h; }
static __device__ __forceinline__ int __half2int_rn(__half h) { return (int)hrint(h); }
static __device__ __forceinline__ unsigned int __half2uint_rz(__half h) { return (unsigned int)h; }
static __device__ __forceinline__ unsigned int __half2uint_rn(__half h) { return (unsigned int)hrint(h); }
static __device__ __forceinline__ short __half2short_rz(__half h) { return (short)h; }
static __device__ __forceinline__ unsigned short __half2ushort_rz(__half h) { return (unsigned short)h; }
static __device__ __forceinline__ long long __half2ll_rz(__half h) { return (long long)h; }
static __device__ __forceinline__ unsigned long long __half2ull_rz(__half h) { return (unsigned long long)h; }

// Arithmetic and comparisons.
static __device__ __forceinline__ __half __hadd(__half a, __half b) { return a + b; }
static __device__ __forceinline__ __half __hsub(__half a, __half b) { return a - b; }
static __device__ __forceinline__ __half __hmul(__half a, __half b) { return a * b; }
static __device__ __forceinline__ __half __hdiv(__half a, __half b) { return a / b; }
static __device__ __forceinline__ __half __hneg(__half a) { return -a; }
static __device__ __forceinline__ bool __heq(__half a, __half b) { return a == b; }
static __device__ __forceinline__ bool __hne(__half a, __half b) { return a != b; }
static __device__ __forceinline__ bool __hlt(__half a, __half b) { return a < b; }
static __device__ __forceinline__ bool __hle(__half a, __half b) { return a <= b; }
static __device__ __forceinline__ bool __hgt(__half a, __half b) { return a > b; }
static __device__ __forceinline__ bool __hge(__half a, __half b) { return a >= b; }
static __device__ __forceinline__ bool __hisnan(__half a) { return a != a; }
static __device__ __forceinline__ int __hisinf(__half a) {
  unsigned short u = __half_as_ushort(a);
  return u == 0x7C00U ? 1 : (u == 0xFC00U ? -1 : 0);
}
// The half functions computed in float with the fast intrinsics (whose error, a few
// float ulps, is far below a half ulp), then rounded to half once.
static __device__ __forceinline__ __half hexp(__half a) { return (__half)__expf((float)a); }
static __device__ __forceinline__ __half hexp10(__half a) { return (__half)__exp10f((float)a); }
static __device__ __forceinline__ __half hlog(__half a) { return (__half)__logf((float)a); }
static __device__ __forceinline__ __half hlog10(__half a) { return (__half)__log10f((float)a); }

// half2: pairs, half by half.
static __device__ __forceinline__ __half2 __halves2half2(__half a, __half b) {
  __half2 r;
  r.x = a;
  r.y = b;
  return r;
}
static __device__ __forceinline__ __half2 make_half2(__half a, __half b) { return __halves2half2(a, b); }
static __device__ __forceinline__ __half2 __half2half2(__half a) { return __halves2half2(a, a); }
static __device__ __forceinline__ __half2 __floats2half2_rn(float a, float b) { return __halves2half2((__half)a, (__half)b); }
static __device__ __forceinline__ __half2 __float2half2_rn(float a) { return __half2half2((__half)a); }
static __device__ __forceinline__ __half2 __float22half2_rn(float2 a) { return __floats2half2_rn(a.x, a.y); }
static __device__ __forceinline__ float2 __half22float2(__half2 a) { return make_float2((float)a.x, (float)a.y); }
static __device__ __forceinline__ __half __low2half(__half2 a) { return a.x; }
static __device__ __forceinline__ __half __high2half(__half2 a) { return a.y; }
static __device__ __forceinline__ float __low2float(__half2 a) { return (float)a.x; }
static __device__ __forceinline__ float __high2float(__half2 a) { return (float)a.y; }
static __device__ __forceinline__ __half2 __lows2half2(__half2 a, __half2 b) { return __halves2half2(a.x, b.x); }
static __device__ __forceinline__ __half2 __highs2half2(__half2 a, __half2 b) { return __halves2half2(a.y, b.y); }
static __device__ __forceinline__ __half2 __low2half2(__half2 a) { return __half2half2(a.x); }
static __device__ __forceinline__ __half2 __high2half2(__half2 a) { return __half2half2(a.y); }
static __device__ __forceinline__ __half2 __lowhigh2highlow(__half2 a) { return __halves2half2(a.y, a.x); }
static __device__ __forceinline__ __half2 __hadd2(__half2 a, __half2 b) { return __halves2half2(a.x + b.x, a.y + b.y); }
static __device__ __forceinline__ __half2 __hsub2(__half2 a, __half2 b) { return __halves2half2(a.x - b.x, a.y - b.y); }
static __device__ __forceinline__ __half2 __hmul2(__half2 a, __half2 b) { return __halves2half2(a.x * b.x, a.y * b.y); }
static __device__ __forceinline__ __half2 __h2div(__half2 a, __half2 b) { return __halves2half2(a.x / b.x, a.y / b.y); }
static __device__ __forceinline__ __half2 __hfma2(__half2 a, __half2 b, __half2 c) {
  return __halves2half2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
static __device__ __forceinline__ __half2 __hneg2(__half2 a) { return __halves2half2(-a.x, -a.y); }
static __device__ __forceinline__ __half2 __habs2(__half2 a) { return __halves2half2(__habs(a.x), __habs(a.y)); }
static __device__ __forceinline__ __half2 __hmin2(__half2 a, __half2 b) { return __halves2half2(__hmin(a.x, b.x), __hmin(a.y, b.y)); }
static __device__ __forceinline__ __half2 __hmax2(__half2 a, __half2 b) { return __halves2half2(__hmax(a.x, b.x), __hmax(a.y, b.y)); }
static __device__ __forceinline__ bool __hbeq2(__half2 a, __half2 b) { return a.x == b.x && a.y == b.y; }
static __device__ __forceinline__ __half2 h2sqrt(__half2 a) { return __halves2half2(hsqrt(a.x), hsqrt(a.y)); }
static __device__ __forceinline__ __half2 h2rcp(__half2 a) { return __halves2half2(hrcp(a.x), hrcp(a.y)); }
static __device__ __forceinline__ __half2 h2exp(__half2 a) { return __halves2half2(hexp(a.x), hexp(a.y)); }
static __device__ __forceinline__ __half2 h2log(__half2 a) { return __halves2half2(hlog(a.x), hlog(a.y)); }

static __device__ __forceinline__ __half2 operator+(const __half2 &a, const __half2 &b) { return __hadd2(a, b); }
static __device__ __forceinline__ __half2 operator-(const __half2 &a, const __half2 &b) { return __hsub2(a, b); }
static __device__ __forceinline__ __half2 operator*(const __half2 &a, const __half2 &b) { return __hmul2(a, b); }
static __device__ __forceinline__ __half2 operator/(const __half2 &a, const __half2 &b) { return __h2div(a, b); }
static __device__ __forceinline__ __half2 operator-(const __half2 &a) { return __hneg2(a); }
static __device__ __forceinline__ __half2 &operator+=(__half2 &a, const __half2 &b) { a = __hadd2(a, b); return a; }
static __device__ __forceinline__ __half2 &operator-=(__half2 &a, const __half2 &b) { a = __hsub2(a, b); return a; }
static __device__ __forceinline__ __half2 &operator*=(__half2 &a, const __half2 &b) { a = __hmul2(a, b); return a; }
static __device__ __forceinline__ __half2 &operator/=(__half2 &a, const __half2 &b) { a = __h2div(a, b); return a; }
static __device__ __forceinline__ bool operator==(const __half2 &a, const __half2 &b) { return __hbeq2(a, b); }

// Shuffles of a pair move its 32 bits at once.
static __device__ __forceinline__ unsigned int __cuprite_half2_bits(__half2 a) {
  return (unsigned int)__half_as_ushort(a.x) | ((unsigned int)__half_as_ushort(a.y) << 16);
}
static __device__ __forceinline__ __half2 __cuprite_bits_half2(unsigned int u) {
  return __halves2half2(__ushort_as_half((unsigned short)(u & 0xFFFFU)), __ushort_as_half((unsigned short)(u >> 16)));
}
static __device__ __forceinline__ __half2 __shfl_sync(unsigned int mask, __half2 var, int srcLane, int width = 32) {
  return __cuprite_bits_half2(__shfl_sync(mask, __cuprite_half2_bits(var), srcLane, width));
}
static __device__ __forceinline__ __half2 __shfl_up_sync(unsigned int mask, __half2 var, unsigned int delta, int width = 32) {
  return __cuprite_bits_half2(__shfl_up_sync(mask, __cuprite_half2_bits(var), delta, width));
}
static __device__ __forceinline__ __half2 __shfl_down_sync(unsigned int mask, __half2 var, unsigned int delta, int width = 32) {
  return __cuprite_bits_half2(__shfl_down_sync(mask, __cuprite_half2_bits(var), delta, width));
}
static __device__ __forceinline__ __half2 __shfl_xor_sync(unsigned int mask, __half2 var, int laneMask, int width = 32) {
  return __cuprite_bits_half2(__shfl_xor_sync(mask, __cuprite_half2_bits(var), laneMask, width));
}

// Atomics: `atom.add.noftz.f16` for a half (sm_70 and later). As CUDA documents for `__half2`
// (sm_60 and later), each half of the pair is added atomically on its own, not the 32 bits
// as one: from sm_70 as two half atomics, before as a compare-and-swap loop on the word.
__device__ __half atomicAdd(__half *address, __half val);
static __device__ __forceinline__ __half2 atomicAdd(__half2 *address, __half2 val) {
  __half2 old;
#if __CUDA_ARCH__ >= 700
  old.x = atomicAdd(&address->x, val.x);
  old.y = atomicAdd(&address->y, val.y);
#else
  unsigned int *word = (unsigned int *)address;
  unsigned int seen = *word, expected;
  do {
    expected = seen;
    old = __cuprite_bits_half2(expected);
    __half2 sum;
    sum.x = old.x + val.x;
    sum.y = old.y + val.y;
    seen = atomicCAS(word, expected, __cuprite_half2_bits(sum));
  } while (seen != expected);
#endif
  return old;
}
