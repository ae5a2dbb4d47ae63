// cuprite's cuda_bf16.h: `__nv_bfloat16` and `__nv_bfloat162`.
//
// As in CUDA, `__nv_bfloat16` is a class holding the 16 bits (`__x`): the top half of an
// IEEE binary32, so converting to float is a shift. It converts from and to float and the
// integer types, and mangles as NVIDIA's (`13__nv_bfloat16`). `__nv_bfloat162` is a pair
// (`.x`, `.y`, 4-byte aligned).
//
// Arithmetic is done in float and rounded once to bfloat16 (round to nearest even; a NaN
// becomes the canonical 0x7FFF, as `cvt.rn.bf16.f32` gives). For +, -, * and / and square
// root that is the correctly rounded bfloat16 result, as NVIDIA's `add.bf16`, `mul.bf16`
// give: float holds more than twice bfloat16's 8 bits plus two, so rounding twice cannot
// differ from rounding once. `__hfma` computes the exact product, TwoSum's exact error of
// the sum, and breaks the one case rounding twice gets wrong (a float result exactly halfway
// between two bfloat16s) by that error's sign: the correctly rounded fused result. Wider
// sources (double, 32- and 64-bit integers) are first rounded to odd in float (toward zero,
// the last bit set when inexact), which keeps the second rounding correct.
//
// Division follows NVIDIA's algorithm (an approximate float division, scaled when the
// divisor is at least 2^126), so quotients agree bit for bit.
//
// Where the target has them, the bfloat16 instructions do it in one (cuprite's built-ins
// below, as NVIDIA's header's inline asm): the rounding conversion `cvt.rn.bf16.f32` and
// `fma.rn.bf16` from sm_80 (add, subtract and multiply as an fma with 1, -1 and -0, as
// NVIDIA's), with the directed conversions `cvt.rz/rm/rp.bf16.f32` and `max/min.bf16`;
// `add/sub/mul.rn.bf16`, the widening `cvt.f32.bf16` and the conversions from double and
// the integers (`cvt.<rounding>.bf16.f64/s32/u32/s64/u64`) from sm_90. They give
// the same bits as the float path. Not here yet: the packed `.bf16x2` forms.
#ifndef __CUPRITE_CUDA_BF16_H__
#define __CUPRITE_CUDA_BF16_H__

#include <cuda_fp16.h>

struct __nv_bfloat16_raw {
  unsigned short x;
};
struct __nv_bfloat162_raw {
  unsigned short x;
  unsigned short y;
};

// The bfloat16 instructions, on bfloat16 bits (sm_80: the conversion and fma; sm_90: the
// rest). Built-ins: convert-cuda-intrinsics-to-nvvm lowers them to `nvvm.intr`.
__device__ unsigned short __cuprite_cvt_rn_bf16_f32(float a);
__device__ float __cuprite_cvt_f32_bf16(unsigned short a);
__device__ unsigned short __cuprite_add_rn_bf16(unsigned short a, unsigned short b);
__device__ unsigned short __cuprite_sub_rn_bf16(unsigned short a, unsigned short b);
__device__ unsigned short __cuprite_mul_rn_bf16(unsigned short a, unsigned short b);
__device__ unsigned short __cuprite_fma_rn_bf16(unsigned short a, unsigned short b, unsigned short c);
__device__ unsigned short __cuprite_cvt_rz_bf16_f32(float a);
__device__ unsigned short __cuprite_cvt_rm_bf16_f32(float a);
__device__ unsigned short __cuprite_cvt_rp_bf16_f32(float a);
__device__ unsigned short __cuprite_cvt_rn_bf16_f64(double a);
__device__ unsigned short __cuprite_cvt_rn_bf16_s32(int a);
__device__ unsigned short __cuprite_cvt_rn_bf16_u32(unsigned int a);
__device__ unsigned short __cuprite_cvt_rn_bf16_s64(long long a);
__device__ unsigned short __cuprite_cvt_rn_bf16_u64(unsigned long long a);
__device__ unsigned short __cuprite_cvt_rz_bf16_f64(double a);
__device__ unsigned short __cuprite_cvt_rz_bf16_s32(int a);
__device__ unsigned short __cuprite_cvt_rz_bf16_u32(unsigned int a);
__device__ unsigned short __cuprite_cvt_rz_bf16_s64(long long a);
__device__ unsigned short __cuprite_cvt_rz_bf16_u64(unsigned long long a);
__device__ unsigned short __cuprite_cvt_rm_bf16_f64(double a);
__device__ unsigned short __cuprite_cvt_rm_bf16_s32(int a);
__device__ unsigned short __cuprite_cvt_rm_bf16_u32(unsigned int a);
__device__ unsigned short __cuprite_cvt_rm_bf16_s64(long long a);
__device__ unsigned short __cuprite_cvt_rm_bf16_u64(unsigned long long a);
__device__ unsigned short __cuprite_cvt_rp_bf16_f64(double a);
__device__ unsigned short __cuprite_cvt_rp_bf16_s32(int a);
__device__ unsigned short __cuprite_cvt_rp_bf16_u32(unsigned int a);
__device__ unsigned short __cuprite_cvt_rp_bf16_s64(long long a);
__device__ unsigned short __cuprite_cvt_rp_bf16_u64(unsigned long long a);
__device__ unsigned short __cuprite_max_bf16(unsigned short a, unsigned short b);
__device__ unsigned short __cuprite_min_bf16(unsigned short a, unsigned short b);

// Rounds the float bits `u` (rounded to odd or exact) to bfloat16 bits.
static __device__ __forceinline__ unsigned short __cuprite_bf16_rn_bits(unsigned int u) {
#if __CUDA_ARCH__ >= 800
  return __cuprite_cvt_rn_bf16_f32(__uint_as_float(u));
#else
  if ((u & 0x7fffffffU) > 0x7f800000U) return (unsigned short)0x7fffU;
  return (unsigned short)((u + 0x7fffU + ((u >> 16) & 1U)) >> 16);
#endif
}
static __device__ __forceinline__ unsigned short __cuprite_bf16_rz_bits(unsigned int u) {
  if ((u & 0x7fffffffU) > 0x7f800000U) return (unsigned short)0x7fffU;
  return (unsigned short)(u >> 16);
}
// Toward +inf (`up`) or -inf: away from zero when the discarded bits are not zero and the
// sign is on that side.
static __device__ __forceinline__ unsigned short __cuprite_bf16_dir_bits(unsigned int u, bool up) {
  if ((u & 0x7fffffffU) > 0x7f800000U) return (unsigned short)0x7fffU;
  bool neg = (u >> 31) != 0;
  unsigned int away = ((u & 0xffffU) != 0U && neg != up) ? 1U : 0U;
  return (unsigned short)((u >> 16) + away);
}

struct __align__(2) __nv_bfloat16 {
  unsigned short __x;
  __nv_bfloat16() = default;
  __host__ __device__ __nv_bfloat16(const __nv_bfloat16_raw &r) : __x(r.x) {}
  __host__ __device__ __nv_bfloat16(float f) : __x(__cuprite_bf16_rn_bits(__float_as_uint(f))) {}
  __host__ __device__ __nv_bfloat16(double d);
  __host__ __device__ __nv_bfloat16(int i);
  __host__ __device__ __nv_bfloat16(unsigned int i);
  __host__ __device__ __nv_bfloat16(long long i);
  __host__ __device__ __nv_bfloat16(unsigned long long i);
  __host__ __device__ __nv_bfloat16(short i) : __x(__cuprite_bf16_rn_bits(__float_as_uint((float)i))) {}
  __host__ __device__ __nv_bfloat16(unsigned short i) : __x(__cuprite_bf16_rn_bits(__float_as_uint((float)i))) {}
  __host__ __device__ __nv_bfloat16 &operator=(const __nv_bfloat16_raw &r) {
    __x = r.x;
    return *this;
  }
  __host__ __device__ __nv_bfloat16 &operator=(float f) {
    __x = __cuprite_bf16_rn_bits(__float_as_uint(f));
    return *this;
  }
  __host__ __device__ operator __nv_bfloat16_raw() const {
    __nv_bfloat16_raw r;
    r.x = __x;
    return r;
  }
  __host__ __device__ operator float() const {
#if __CUDA_ARCH__ >= 900
    return __cuprite_cvt_f32_bf16(__x);
#else
    return __uint_as_float((unsigned int)__x << 16);
#endif
  }
};
typedef __nv_bfloat16 nv_bfloat16;

struct __align__(4) __nv_bfloat162 {
  __nv_bfloat16 x, y;
  __nv_bfloat162() = default;
  __host__ __device__ __nv_bfloat162(const __nv_bfloat16 &a, const __nv_bfloat16 &b) : x(a), y(b) {}
  __host__ __device__ __nv_bfloat162(const __nv_bfloat162_raw &r) {
    x.__x = r.x;
    y.__x = r.y;
  }
  __host__ __device__ operator __nv_bfloat162_raw() const {
    __nv_bfloat162_raw r;
    r.x = x.__x;
    r.y = y.__x;
    return r;
  }
};
typedef __nv_bfloat162 nv_bfloat162;

// Bits and raw values.
static __device__ __forceinline__ __nv_bfloat16 __cuprite_bf16(unsigned short bits) {
  __nv_bfloat16 h;
  h.__x = bits;
  return h;
}
static __device__ __forceinline__ unsigned short __bfloat16_as_ushort(const __nv_bfloat16 h) { return h.__x; }
static __device__ __forceinline__ short __bfloat16_as_short(const __nv_bfloat16 h) { return (short)h.__x; }
static __device__ __forceinline__ __nv_bfloat16 __ushort_as_bfloat16(const unsigned short i) { return __cuprite_bf16(i); }
static __device__ __forceinline__ __nv_bfloat16 __short_as_bfloat16(const short i) { return __cuprite_bf16((unsigned short)i); }

#define CUDART_INF_BF16 __ushort_as_bfloat16((unsigned short)0x7F80U)
#define CUDART_NAN_BF16 __ushort_as_bfloat16((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_BF16 __ushort_as_bfloat16((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_BF16 __ushort_as_bfloat16((unsigned short)0x7F7FU)
#define CUDART_NEG_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x8000U)
#define CUDART_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x0000U)
#define CUDART_ONE_BF16 __ushort_as_bfloat16((unsigned short)0x3F80U)

// Float conversions.
static __device__ __forceinline__ float __bfloat162float(const __nv_bfloat16 a) {
#if __CUDA_ARCH__ >= 900
  return __cuprite_cvt_f32_bf16(a.__x);
#else
  return __uint_as_float((unsigned int)a.__x << 16);
#endif
}
static __device__ __forceinline__ __nv_bfloat16 __float2bfloat16(const float a) { return __cuprite_bf16(__cuprite_bf16_rn_bits(__float_as_uint(a))); }
static __device__ __forceinline__ __nv_bfloat16 __float2bfloat16_rn(const float a) { return __float2bfloat16(a); }
#if __CUDA_ARCH__ >= 800
static __device__ __forceinline__ __nv_bfloat16 __float2bfloat16_rz(const float a) { return __cuprite_bf16(__cuprite_cvt_rz_bf16_f32(a)); }
static __device__ __forceinline__ __nv_bfloat16 __float2bfloat16_rd(const float a) { return __cuprite_bf16(__cuprite_cvt_rm_bf16_f32(a)); }
static __device__ __forceinline__ __nv_bfloat16 __float2bfloat16_ru(const float a) { return __cuprite_bf16(__cuprite_cvt_rp_bf16_f32(a)); }
#else
static __device__ __forceinline__ __nv_bfloat16 __float2bfloat16_rz(const float a) { return __cuprite_bf16(__cuprite_bf16_rz_bits(__float_as_uint(a))); }
static __device__ __forceinline__ __nv_bfloat16 __float2bfloat16_rd(const float a) { return __cuprite_bf16(__cuprite_bf16_dir_bits(__float_as_uint(a), false)); }
static __device__ __forceinline__ __nv_bfloat16 __float2bfloat16_ru(const float a) { return __cuprite_bf16(__cuprite_bf16_dir_bits(__float_as_uint(a), true)); }
#endif
// A float rounded toward zero with the sticky bit: `exact` says whether it was exact.
static __device__ __forceinline__ unsigned int __cuprite_odd(float rz, bool exact) {
  unsigned int u = __float_as_uint(rz);
  return exact ? u : (u | 1U);
}
static __device__ __forceinline__ __nv_bfloat16 __double2bfloat16(const double a) {
#if __CUDA_ARCH__ >= 900
  return __cuprite_bf16(__cuprite_cvt_rn_bf16_f64(a));
#else
  float f = __double2float_rz(a);
  return __cuprite_bf16(__cuprite_bf16_rn_bits(__cuprite_odd(f, a != a || (double)f == a)));
#endif
}
static __device__ __forceinline__ float2 __bfloat1622float2(const __nv_bfloat162 a) {
  return make_float2(__bfloat162float(a.x), __bfloat162float(a.y));
}
static __device__ __forceinline__ float __low2float(const __nv_bfloat162 a) { return __bfloat162float(a.x); }
static __device__ __forceinline__ float __high2float(const __nv_bfloat162 a) { return __bfloat162float(a.y); }

// Integer conversions: to an integer through the exact float; from one through float
// rounded to odd.
#define __CUPRITE_BF16_TO_INT(T, name) \
  static __device__ __forceinline__ T __bfloat162##name##_rn(const __nv_bfloat16 h) { return __float2##name##_rn(__bfloat162float(h)); } \
  static __device__ __forceinline__ T __bfloat162##name##_rz(const __nv_bfloat16 h) { return __float2##name##_rz(__bfloat162float(h)); } \
  static __device__ __forceinline__ T __bfloat162##name##_rd(const __nv_bfloat16 h) { return __float2##name##_rd(__bfloat162float(h)); } \
  static __device__ __forceinline__ T __bfloat162##name##_ru(const __nv_bfloat16 h) { return __float2##name##_ru(__bfloat162float(h)); }
__CUPRITE_BF16_TO_INT(int, int)
__CUPRITE_BF16_TO_INT(unsigned int, uint)
__CUPRITE_BF16_TO_INT(long long, ll)
__CUPRITE_BF16_TO_INT(unsigned long long, ull)
static __device__ __forceinline__ short __bfloat162short_rn(const __nv_bfloat16 h) {
  float f = fminf(fmaxf(rintf(__bfloat162float(h)), -32768.0f), 32767.0f);
  return __bfloat162float(h) != __bfloat162float(h) ? (short)0 : (short)f;
}
static __device__ __forceinline__ short __bfloat162short_rz(const __nv_bfloat16 h) {
  float f = fminf(fmaxf(truncf(__bfloat162float(h)), -32768.0f), 32767.0f);
  return __bfloat162float(h) != __bfloat162float(h) ? (short)0 : (short)f;
}
static __device__ __forceinline__ unsigned short __bfloat162ushort_rn(const __nv_bfloat16 h) {
  float f = fminf(fmaxf(rintf(__bfloat162float(h)), 0.0f), 65535.0f);
  return __bfloat162float(h) != __bfloat162float(h) ? (unsigned short)0 : (unsigned short)f;
}
static __device__ __forceinline__ unsigned short __bfloat162ushort_rz(const __nv_bfloat16 h) {
  float f = fminf(fmaxf(truncf(__bfloat162float(h)), 0.0f), 65535.0f);
  return __bfloat162float(h) != __bfloat162float(h) ? (unsigned short)0 : (unsigned short)f;
}
// sm_90 converts in one instruction (cvt.<rounding>.bf16.<s32|u32|s64|u64>).
#if __CUDA_ARCH__ >= 900
#define __CUPRITE_INT_TO_BF16(T, name, ptx) \
  static __device__ __forceinline__ __nv_bfloat16 __##name##2bfloat16_rn(const T i) { return __cuprite_bf16(__cuprite_cvt_rn_bf16_##ptx(i)); } \
  static __device__ __forceinline__ __nv_bfloat16 __##name##2bfloat16_rz(const T i) { return __cuprite_bf16(__cuprite_cvt_rz_bf16_##ptx(i)); } \
  static __device__ __forceinline__ __nv_bfloat16 __##name##2bfloat16_rd(const T i) { return __cuprite_bf16(__cuprite_cvt_rm_bf16_##ptx(i)); } \
  static __device__ __forceinline__ __nv_bfloat16 __##name##2bfloat16_ru(const T i) { return __cuprite_bf16(__cuprite_cvt_rp_bf16_##ptx(i)); }
#else
#define __CUPRITE_INT_TO_BF16(T, name, ptx) \
  static __device__ __forceinline__ unsigned int __cuprite_odd_##name(const T i) { \
    float f = __##name##2float_rz(i); \
    return __cuprite_odd(f, (T)f == i); \
  } \
  static __device__ __forceinline__ __nv_bfloat16 __##name##2bfloat16_rn(const T i) { return __cuprite_bf16(__cuprite_bf16_rn_bits(__cuprite_odd_##name(i))); } \
  static __device__ __forceinline__ __nv_bfloat16 __##name##2bfloat16_rz(const T i) { return __cuprite_bf16(__cuprite_bf16_rz_bits(__cuprite_odd_##name(i))); } \
  static __device__ __forceinline__ __nv_bfloat16 __##name##2bfloat16_rd(const T i) { return __cuprite_bf16(__cuprite_bf16_dir_bits(__cuprite_odd_##name(i), false)); } \
  static __device__ __forceinline__ __nv_bfloat16 __##name##2bfloat16_ru(const T i) { return __cuprite_bf16(__cuprite_bf16_dir_bits(__cuprite_odd_##name(i), true)); }
#endif
__CUPRITE_INT_TO_BF16(int, int, s32)
__CUPRITE_INT_TO_BF16(unsigned int, uint, u32)
__CUPRITE_INT_TO_BF16(long long, ll, s64)
__CUPRITE_INT_TO_BF16(unsigned long long, ull, u64)
static __device__ __forceinline__ __nv_bfloat16 __short2bfloat16_rn(const short i) { return __float2bfloat16((float)i); }
static __device__ __forceinline__ __nv_bfloat16 __ushort2bfloat16_rn(const unsigned short i) { return __float2bfloat16((float)i); }

__host__ __device__ inline __nv_bfloat16::__nv_bfloat16(double d) : __x(__double2bfloat16(d).__x) {}
__host__ __device__ inline __nv_bfloat16::__nv_bfloat16(int i) : __x(__int2bfloat16_rn(i).__x) {}
__host__ __device__ inline __nv_bfloat16::__nv_bfloat16(unsigned int i) : __x(__uint2bfloat16_rn(i).__x) {}
__host__ __device__ inline __nv_bfloat16::__nv_bfloat16(long long i) : __x(__ll2bfloat16_rn(i).__x) {}
__host__ __device__ inline __nv_bfloat16::__nv_bfloat16(unsigned long long i) : __x(__ull2bfloat16_rn(i).__x) {}

// Arithmetic: in float, rounded once (exact products and sums of bfloat16s need no more).
static __device__ __forceinline__ __nv_bfloat16 __hadd(const __nv_bfloat16 a, const __nv_bfloat16 b) {
#if __CUDA_ARCH__ >= 900
  return __cuprite_bf16(__cuprite_add_rn_bf16(a.__x, b.__x));
#elif __CUDA_ARCH__ >= 800
  return __cuprite_bf16(__cuprite_fma_rn_bf16(a.__x, (unsigned short)0x3f80U, b.__x));
#else
  return __float2bfloat16(__fadd_rn(__bfloat162float(a), __bfloat162float(b)));
#endif
}
static __device__ __forceinline__ __nv_bfloat16 __hsub(const __nv_bfloat16 a, const __nv_bfloat16 b) {
#if __CUDA_ARCH__ >= 900
  return __cuprite_bf16(__cuprite_sub_rn_bf16(a.__x, b.__x));
#elif __CUDA_ARCH__ >= 800
  return __cuprite_bf16(__cuprite_fma_rn_bf16(b.__x, (unsigned short)0xbf80U, a.__x));
#else
  return __float2bfloat16(__fsub_rn(__bfloat162float(a), __bfloat162float(b)));
#endif
}
static __device__ __forceinline__ __nv_bfloat16 __hmul(const __nv_bfloat16 a, const __nv_bfloat16 b) {
#if __CUDA_ARCH__ >= 900
  return __cuprite_bf16(__cuprite_mul_rn_bf16(a.__x, b.__x));
#elif __CUDA_ARCH__ >= 800
  return __cuprite_bf16(__cuprite_fma_rn_bf16(a.__x, b.__x, (unsigned short)0x8000U));
#else
  return __float2bfloat16(__fmul_rn(__bfloat162float(a), __bfloat162float(b)));
#endif
}
static __device__ __forceinline__ __nv_bfloat16 __hadd_rn(const __nv_bfloat16 a, const __nv_bfloat16 b) { return __hadd(a, b); }
static __device__ __forceinline__ __nv_bfloat16 __hsub_rn(const __nv_bfloat16 a, const __nv_bfloat16 b) { return __hsub(a, b); }
static __device__ __forceinline__ __nv_bfloat16 __hmul_rn(const __nv_bfloat16 a, const __nv_bfloat16 b) { return __hmul(a, b); }
static __device__ __forceinline__ __nv_bfloat16 __hdiv(const __nv_bfloat16 a, const __nv_bfloat16 b) {
  float af = __bfloat162float(a), bf = __bfloat162float(b);
  bool big = fabsf(bf) >= 8.50705917e37f; // 2^126
  if (big) bf = __fmul_rn(bf, 0.25f);
  float q = __fdividef(af, bf);
  if (big) q = __fmaf_rn(q, 0.25f, -0.0f);
  return __float2bfloat16(q);
}
static __device__ __forceinline__ __nv_bfloat16 __hfma(const __nv_bfloat16 a, const __nv_bfloat16 b, const __nv_bfloat16 c) {
#if __CUDA_ARCH__ >= 800
  return __cuprite_bf16(__cuprite_fma_rn_bf16(a.__x, b.__x, c.__x));
#endif
  float p = __fmul_rn(__bfloat162float(a), __bfloat162float(b)); // exact
  float z = __bfloat162float(c);
  float s = __fadd_rn(p, z);
  // TwoSum: s + err == p + z exactly.
  float bb = __fsub_rn(s, p);
  float err = __fadd_rn(__fsub_rn(p, __fsub_rn(s, bb)), __fsub_rn(z, bb));
  unsigned int u = __float_as_uint(s);
  if ((u & 0xffffU) == 0x8000U && err != 0.0f && (u & 0x7fffffffU) < 0x7f800000U) {
    // Halfway in float only: the exact value is beyond or short of the midpoint.
    u = ((err > 0.0f) == ((u >> 31) == 0U)) ? (u | 1U) : (u - 1U);
  }
  return __cuprite_bf16(__cuprite_bf16_rn_bits(u));
}
static __device__ __forceinline__ __nv_bfloat16 __hfma_relu(const __nv_bfloat16 a, const __nv_bfloat16 b, const __nv_bfloat16 c) {
  __nv_bfloat16 r = __hfma(a, b, c);
  if ((r.__x & 0x7fffU) > 0x7f80U) return __cuprite_bf16((unsigned short)0x7fffU);
  return (r.__x & 0x8000U) ? __cuprite_bf16((unsigned short)0) : r;
}
static __device__ __forceinline__ __nv_bfloat16 __cuprite_bf16_sat(__nv_bfloat16 r) {
  float f = __bfloat162float(r);
  return __float2bfloat16(f != f ? 0.0f : fminf(fmaxf(f, 0.0f), 1.0f));
}
static __device__ __forceinline__ __nv_bfloat16 __hadd_sat(const __nv_bfloat16 a, const __nv_bfloat16 b) { return __cuprite_bf16_sat(__hadd(a, b)); }
static __device__ __forceinline__ __nv_bfloat16 __hsub_sat(const __nv_bfloat16 a, const __nv_bfloat16 b) { return __cuprite_bf16_sat(__hsub(a, b)); }
static __device__ __forceinline__ __nv_bfloat16 __hmul_sat(const __nv_bfloat16 a, const __nv_bfloat16 b) { return __cuprite_bf16_sat(__hmul(a, b)); }
static __device__ __forceinline__ __nv_bfloat16 __hfma_sat(const __nv_bfloat16 a, const __nv_bfloat16 b, const __nv_bfloat16 c) {
  return __cuprite_bf16_sat(__hfma(a, b, c));
}
// Sign operations act on the bits, NaNs included (as `neg.bf16`, `abs.bf16`).
static __device__ __forceinline__ __nv_bfloat16 __hneg(const __nv_bfloat16 a) { return __cuprite_bf16((unsigned short)(a.__x ^ 0x8000U)); }
static __device__ __forceinline__ __nv_bfloat16 __habs(const __nv_bfloat16 a) { return __cuprite_bf16((unsigned short)(a.__x & 0x7fffU)); }
// min/max: a NaN operand gives the other (fminf/fmaxf, exact on bfloat16 values); the
// `_nan` forms propagate it.
static __device__ __forceinline__ __nv_bfloat16 __hmax(const __nv_bfloat16 a, const __nv_bfloat16 b) {
#if __CUDA_ARCH__ >= 800
  return __cuprite_bf16(__cuprite_max_bf16(a.__x, b.__x));
#else
  return __float2bfloat16(fmaxf(__bfloat162float(a), __bfloat162float(b)));
#endif
}
static __device__ __forceinline__ __nv_bfloat16 __hmin(const __nv_bfloat16 a, const __nv_bfloat16 b) {
#if __CUDA_ARCH__ >= 800
  return __cuprite_bf16(__cuprite_min_bf16(a.__x, b.__x));
#else
  return __float2bfloat16(fminf(__bfloat162float(a), __bfloat162float(b)));
#endif
}
static __device__ __forceinline__ bool __hisnan(const __nv_bfloat16 a) { return (a.__x & 0x7fffU) > 0x7f80U; }
static __device__ __forceinline__ int __hisinf(const __nv_bfloat16 a) { return a.__x == 0x7f80U ? 1 : (a.__x == 0xff80U ? -1 : 0); }
static __device__ __forceinline__ __nv_bfloat16 __hmax_nan(const __nv_bfloat16 a, const __nv_bfloat16 b) {
  return (__hisnan(a) || __hisnan(b)) ? CUDART_NAN_BF16 : __hmax(a, b);
}
static __device__ __forceinline__ __nv_bfloat16 __hmin_nan(const __nv_bfloat16 a, const __nv_bfloat16 b) {
  return (__hisnan(a) || __hisnan(b)) ? CUDART_NAN_BF16 : __hmin(a, b);
}

// Comparisons (exact in float); the `u` forms are true for unordered operands.
#define __CUPRITE_BF16_CMP(name, op) \
  static __device__ __forceinline__ bool name(const __nv_bfloat16 a, const __nv_bfloat16 b) { return __bfloat162float(a) op __bfloat162float(b); } \
  static __device__ __forceinline__ bool name##u(const __nv_bfloat16 a, const __nv_bfloat16 b) { \
    return __hisnan(a) || __hisnan(b) || __bfloat162float(a) op __bfloat162float(b); \
  }
__CUPRITE_BF16_CMP(__heq, ==)
__CUPRITE_BF16_CMP(__hlt, <)
__CUPRITE_BF16_CMP(__hle, <=)
__CUPRITE_BF16_CMP(__hgt, >)
__CUPRITE_BF16_CMP(__hge, >=)
static __device__ __forceinline__ bool __hne(const __nv_bfloat16 a, const __nv_bfloat16 b) { return !__hisnan(a) && !__hisnan(b) && __bfloat162float(a) != __bfloat162float(b); }
static __device__ __forceinline__ bool __hneu(const __nv_bfloat16 a, const __nv_bfloat16 b) { return __bfloat162float(a) != __bfloat162float(b); }

// Functions: the float function (correctly rounded or a few ulps, far below a bfloat16 ulp),
// rounded once.
#define __CUPRITE_BF16_FN(name, expr) \
  static __device__ __forceinline__ __nv_bfloat16 name(const __nv_bfloat16 a) { \
    float x = __bfloat162float(a); \
    return __float2bfloat16(expr); \
  }
__CUPRITE_BF16_FN(hsqrt, __fsqrt_rn(x))
__CUPRITE_BF16_FN(hrsqrt, rsqrtf(x))
__CUPRITE_BF16_FN(hrcp, __frcp_rn(x))
__CUPRITE_BF16_FN(hexp, __expf(x))
__CUPRITE_BF16_FN(hexp2, exp2f(x))
__CUPRITE_BF16_FN(hexp10, __exp10f(x))
__CUPRITE_BF16_FN(hlog, __logf(x))
__CUPRITE_BF16_FN(hlog2, __log2f(x))
__CUPRITE_BF16_FN(hlog10, __log10f(x))
__CUPRITE_BF16_FN(hsin, __sinf(x))
__CUPRITE_BF16_FN(hcos, __cosf(x))
__CUPRITE_BF16_FN(htanh, tanhf(x))
__CUPRITE_BF16_FN(htrunc, truncf(x))
__CUPRITE_BF16_FN(hfloor, floorf(x))
__CUPRITE_BF16_FN(hceil, ceilf(x))
__CUPRITE_BF16_FN(hrint, rintf(x))

// Operators.
static __device__ __forceinline__ __nv_bfloat16 operator+(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hadd(a, b); }
static __device__ __forceinline__ __nv_bfloat16 operator-(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hsub(a, b); }
static __device__ __forceinline__ __nv_bfloat16 operator*(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hmul(a, b); }
static __device__ __forceinline__ __nv_bfloat16 operator/(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hdiv(a, b); }
static __device__ __forceinline__ __nv_bfloat16 operator-(const __nv_bfloat16 &a) { return __hneg(a); }
static __device__ __forceinline__ __nv_bfloat16 operator+(const __nv_bfloat16 &a) { return a; }
static __device__ __forceinline__ __nv_bfloat16 &operator+=(__nv_bfloat16 &a, const __nv_bfloat16 &b) { a = __hadd(a, b); return a; }
static __device__ __forceinline__ __nv_bfloat16 &operator-=(__nv_bfloat16 &a, const __nv_bfloat16 &b) { a = __hsub(a, b); return a; }
static __device__ __forceinline__ __nv_bfloat16 &operator*=(__nv_bfloat16 &a, const __nv_bfloat16 &b) { a = __hmul(a, b); return a; }
static __device__ __forceinline__ __nv_bfloat16 &operator/=(__nv_bfloat16 &a, const __nv_bfloat16 &b) { a = __hdiv(a, b); return a; }
static __device__ __forceinline__ __nv_bfloat16 &operator++(__nv_bfloat16 &a) { a = __hadd(a, CUDART_ONE_BF16); return a; }
static __device__ __forceinline__ __nv_bfloat16 &operator--(__nv_bfloat16 &a) { a = __hsub(a, CUDART_ONE_BF16); return a; }
static __device__ __forceinline__ bool operator==(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __heq(a, b); }
static __device__ __forceinline__ bool operator!=(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hneu(a, b); }
static __device__ __forceinline__ bool operator<(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hlt(a, b); }
static __device__ __forceinline__ bool operator<=(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hle(a, b); }
static __device__ __forceinline__ bool operator>(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hgt(a, b); }
static __device__ __forceinline__ bool operator>=(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hge(a, b); }

// Pairs, half by half.
static __device__ __forceinline__ __nv_bfloat162 __halves2bfloat162(const __nv_bfloat16 a, const __nv_bfloat16 b) {
  __nv_bfloat162 r;
  r.x = a;
  r.y = b;
  return r;
}
static __device__ __forceinline__ __nv_bfloat162 make_bfloat162(const __nv_bfloat16 a, const __nv_bfloat16 b) { return __halves2bfloat162(a, b); }
static __device__ __forceinline__ __nv_bfloat162 __bfloat162bfloat162(const __nv_bfloat16 a) { return __halves2bfloat162(a, a); }
static __device__ __forceinline__ __nv_bfloat162 __float2bfloat162_rn(const float a) { return __bfloat162bfloat162(__float2bfloat16(a)); }
static __device__ __forceinline__ __nv_bfloat162 __floats2bfloat162_rn(const float a, const float b) {
  return __halves2bfloat162(__float2bfloat16(a), __float2bfloat16(b));
}
static __device__ __forceinline__ __nv_bfloat162 __float22bfloat162_rn(const float2 a) { return __floats2bfloat162_rn(a.x, a.y); }
static __device__ __forceinline__ __nv_bfloat16 __low2bfloat16(const __nv_bfloat162 a) { return a.x; }
static __device__ __forceinline__ __nv_bfloat16 __high2bfloat16(const __nv_bfloat162 a) { return a.y; }
static __device__ __forceinline__ __nv_bfloat162 __low2bfloat162(const __nv_bfloat162 a) { return __halves2bfloat162(a.x, a.x); }
static __device__ __forceinline__ __nv_bfloat162 __high2bfloat162(const __nv_bfloat162 a) { return __halves2bfloat162(a.y, a.y); }
static __device__ __forceinline__ __nv_bfloat162 __lows2bfloat162(const __nv_bfloat162 a, const __nv_bfloat162 b) { return __halves2bfloat162(a.x, b.x); }
static __device__ __forceinline__ __nv_bfloat162 __highs2bfloat162(const __nv_bfloat162 a, const __nv_bfloat162 b) { return __halves2bfloat162(a.y, b.y); }
static __device__ __forceinline__ __nv_bfloat162 __lowhigh2highlow(const __nv_bfloat162 a) { return __halves2bfloat162(a.y, a.x); }
#define __CUPRITE_BF162_BIN(name, f) \
  static __device__ __forceinline__ __nv_bfloat162 name(const __nv_bfloat162 a, const __nv_bfloat162 b) { \
    return __halves2bfloat162(f(a.x, b.x), f(a.y, b.y)); \
  }
__CUPRITE_BF162_BIN(__hadd2, __hadd)
__CUPRITE_BF162_BIN(__hsub2, __hsub)
__CUPRITE_BF162_BIN(__hmul2, __hmul)
__CUPRITE_BF162_BIN(__h2div, __hdiv)
__CUPRITE_BF162_BIN(__hadd2_rn, __hadd)
__CUPRITE_BF162_BIN(__hsub2_rn, __hsub)
__CUPRITE_BF162_BIN(__hmul2_rn, __hmul)
__CUPRITE_BF162_BIN(__hadd2_sat, __hadd_sat)
__CUPRITE_BF162_BIN(__hsub2_sat, __hsub_sat)
__CUPRITE_BF162_BIN(__hmul2_sat, __hmul_sat)
__CUPRITE_BF162_BIN(__hmax2, __hmax)
__CUPRITE_BF162_BIN(__hmin2, __hmin)
__CUPRITE_BF162_BIN(__hmax2_nan, __hmax_nan)
__CUPRITE_BF162_BIN(__hmin2_nan, __hmin_nan)
static __device__ __forceinline__ __nv_bfloat162 __hfma2(const __nv_bfloat162 a, const __nv_bfloat162 b, const __nv_bfloat162 c) {
  return __halves2bfloat162(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
static __device__ __forceinline__ __nv_bfloat162 __hfma2_sat(const __nv_bfloat162 a, const __nv_bfloat162 b, const __nv_bfloat162 c) {
  return __halves2bfloat162(__hfma_sat(a.x, b.x, c.x), __hfma_sat(a.y, b.y, c.y));
}
static __device__ __forceinline__ __nv_bfloat162 __hfma2_relu(const __nv_bfloat162 a, const __nv_bfloat162 b, const __nv_bfloat162 c) {
  return __halves2bfloat162(__hfma_relu(a.x, b.x, c.x), __hfma_relu(a.y, b.y, c.y));
}
static __device__ __forceinline__ __nv_bfloat162 __hneg2(const __nv_bfloat162 a) { return __halves2bfloat162(__hneg(a.x), __hneg(a.y)); }
static __device__ __forceinline__ __nv_bfloat162 __habs2(const __nv_bfloat162 a) { return __halves2bfloat162(__habs(a.x), __habs(a.y)); }
static __device__ __forceinline__ bool __hbeq2(const __nv_bfloat162 a, const __nv_bfloat162 b) { return __heq(a.x, b.x) && __heq(a.y, b.y); }
static __device__ __forceinline__ bool __hbne2(const __nv_bfloat162 a, const __nv_bfloat162 b) { return __hne(a.x, b.x) && __hne(a.y, b.y); }
static __device__ __forceinline__ bool __hblt2(const __nv_bfloat162 a, const __nv_bfloat162 b) { return __hlt(a.x, b.x) && __hlt(a.y, b.y); }
static __device__ __forceinline__ bool __hble2(const __nv_bfloat162 a, const __nv_bfloat162 b) { return __hle(a.x, b.x) && __hle(a.y, b.y); }
static __device__ __forceinline__ bool __hbgt2(const __nv_bfloat162 a, const __nv_bfloat162 b) { return __hgt(a.x, b.x) && __hgt(a.y, b.y); }
static __device__ __forceinline__ bool __hbge2(const __nv_bfloat162 a, const __nv_bfloat162 b) { return __hge(a.x, b.x) && __hge(a.y, b.y); }
// Lane-wise comparisons give 1.0 or 0.0 in each half.
#define __CUPRITE_BF162_CMP(name, f) \
  static __device__ __forceinline__ __nv_bfloat162 name(const __nv_bfloat162 a, const __nv_bfloat162 b) { \
    return __halves2bfloat162(f(a.x, b.x) ? CUDART_ONE_BF16 : CUDART_ZERO_BF16, f(a.y, b.y) ? CUDART_ONE_BF16 : CUDART_ZERO_BF16); \
  }
__CUPRITE_BF162_CMP(__heq2, __heq)
__CUPRITE_BF162_CMP(__hne2, __hne)
__CUPRITE_BF162_CMP(__hlt2, __hlt)
__CUPRITE_BF162_CMP(__hle2, __hle)
__CUPRITE_BF162_CMP(__hgt2, __hgt)
__CUPRITE_BF162_CMP(__hge2, __hge)
static __device__ __forceinline__ __nv_bfloat162 __hisnan2(const __nv_bfloat162 a) {
  return __halves2bfloat162(__hisnan(a.x) ? CUDART_ONE_BF16 : CUDART_ZERO_BF16, __hisnan(a.y) ? CUDART_ONE_BF16 : CUDART_ZERO_BF16);
}
#define __CUPRITE_BF162_FN(name, f) \
  static __device__ __forceinline__ __nv_bfloat162 name(const __nv_bfloat162 a) { return __halves2bfloat162(f(a.x), f(a.y)); }
__CUPRITE_BF162_FN(h2sqrt, hsqrt)
__CUPRITE_BF162_FN(h2rsqrt, hrsqrt)
__CUPRITE_BF162_FN(h2rcp, hrcp)
__CUPRITE_BF162_FN(h2exp, hexp)
__CUPRITE_BF162_FN(h2exp2, hexp2)
__CUPRITE_BF162_FN(h2exp10, hexp10)
__CUPRITE_BF162_FN(h2log, hlog)
__CUPRITE_BF162_FN(h2log2, hlog2)
__CUPRITE_BF162_FN(h2log10, hlog10)
__CUPRITE_BF162_FN(h2sin, hsin)
__CUPRITE_BF162_FN(h2cos, hcos)
__CUPRITE_BF162_FN(h2trunc, htrunc)
__CUPRITE_BF162_FN(h2floor, hfloor)
__CUPRITE_BF162_FN(h2ceil, hceil)
__CUPRITE_BF162_FN(h2rint, hrint)

static __device__ __forceinline__ __nv_bfloat162 operator+(const __nv_bfloat162 &a, const __nv_bfloat162 &b) { return __hadd2(a, b); }
static __device__ __forceinline__ __nv_bfloat162 operator-(const __nv_bfloat162 &a, const __nv_bfloat162 &b) { return __hsub2(a, b); }
static __device__ __forceinline__ __nv_bfloat162 operator*(const __nv_bfloat162 &a, const __nv_bfloat162 &b) { return __hmul2(a, b); }
static __device__ __forceinline__ __nv_bfloat162 operator/(const __nv_bfloat162 &a, const __nv_bfloat162 &b) { return __h2div(a, b); }
static __device__ __forceinline__ __nv_bfloat162 operator-(const __nv_bfloat162 &a) { return __hneg2(a); }
static __device__ __forceinline__ __nv_bfloat162 &operator+=(__nv_bfloat162 &a, const __nv_bfloat162 &b) { a = __hadd2(a, b); return a; }
static __device__ __forceinline__ __nv_bfloat162 &operator-=(__nv_bfloat162 &a, const __nv_bfloat162 &b) { a = __hsub2(a, b); return a; }
static __device__ __forceinline__ __nv_bfloat162 &operator*=(__nv_bfloat162 &a, const __nv_bfloat162 &b) { a = __hmul2(a, b); return a; }
static __device__ __forceinline__ __nv_bfloat162 &operator/=(__nv_bfloat162 &a, const __nv_bfloat162 &b) { a = __h2div(a, b); return a; }
static __device__ __forceinline__ bool operator==(const __nv_bfloat162 &a, const __nv_bfloat162 &b) { return __hbeq2(a, b); }
static __device__ __forceinline__ bool operator!=(const __nv_bfloat162 &a, const __nv_bfloat162 &b) { return !__hbeq2(a, b); }

// Shuffles move the bits; a pair moves its 32 bits at once.
static __device__ __forceinline__ unsigned int __cuprite_bf162_bits(const __nv_bfloat162 a) {
  return (unsigned int)a.x.__x | ((unsigned int)a.y.__x << 16);
}
static __device__ __forceinline__ __nv_bfloat162 __cuprite_bits_bf162(unsigned int u) {
  return __halves2bfloat162(__cuprite_bf16((unsigned short)(u & 0xffffU)), __cuprite_bf16((unsigned short)(u >> 16)));
}
#define __CUPRITE_BF16_SHFL(name, D) \
  static __device__ __forceinline__ __nv_bfloat16 name(unsigned int mask, __nv_bfloat16 var, D d, int width = 32) { \
    return __cuprite_bf16((unsigned short)name(mask, (unsigned int)var.__x, d, width)); \
  } \
  static __device__ __forceinline__ __nv_bfloat162 name(unsigned int mask, __nv_bfloat162 var, D d, int width = 32) { \
    return __cuprite_bits_bf162(name(mask, __cuprite_bf162_bits(var), d, width)); \
  }
__CUPRITE_BF16_SHFL(__shfl_sync, int)
__CUPRITE_BF16_SHFL(__shfl_up_sync, unsigned int)
__CUPRITE_BF16_SHFL(__shfl_down_sync, unsigned int)
__CUPRITE_BF16_SHFL(__shfl_xor_sync, int)

// Cached loads and stores, through the bits.
#define __CUPRITE_BF16_LD(name) \
  static __device__ __forceinline__ __nv_bfloat16 name(const __nv_bfloat16 *p) { return __cuprite_bf16(name((const unsigned short *)p)); } \
  static __device__ __forceinline__ __nv_bfloat162 name(const __nv_bfloat162 *p) { return __cuprite_bits_bf162(name((const unsigned int *)p)); }
__CUPRITE_BF16_LD(__ldg)
__CUPRITE_BF16_LD(__ldcg)
__CUPRITE_BF16_LD(__ldca)
__CUPRITE_BF16_LD(__ldcs)
__CUPRITE_BF16_LD(__ldlu)
__CUPRITE_BF16_LD(__ldcv)

// Atomic addition: a compare-and-swap loop on the 16 bits (sm_70 and later), each half of
// a pair on its own, as CUDA documents.
static __device__ __forceinline__ __nv_bfloat16 atomicAdd(__nv_bfloat16 *address, const __nv_bfloat16 val) {
  unsigned short *bits = (unsigned short *)address;
  unsigned short seen = *bits, expected;
  do {
    expected = seen;
    seen = atomicCAS(bits, expected, __hadd(__cuprite_bf16(expected), val).__x);
  } while (seen != expected);
  return __cuprite_bf16(seen);
}
static __device__ __forceinline__ __nv_bfloat162 atomicAdd(__nv_bfloat162 *address, const __nv_bfloat162 val) {
  __nv_bfloat16 lo = atomicAdd(&address->x, val.x);
  __nv_bfloat16 hi = atomicAdd(&address->y, val.y);
  return __halves2bfloat162(lo, hi);
}

#endif
