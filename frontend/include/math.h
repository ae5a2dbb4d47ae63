// cuprite's math.h / cmath: the constants device code uses and the math library's
// declarations.
#pragma once
#define M_E 2.71828182845904523536
#define M_LOG2E 1.44269504088896340736
#define M_LOG10E 0.434294481903251827651
#define M_LN2 0.693147180559945309417
#define M_LN10 2.30258509299404568402
#define M_PI 3.14159265358979323846
#define M_PI_2 1.57079632679489661923
#define M_PI_4 0.785398163397448309616
#define M_1_PI 0.318309886183790671538
#define M_2_PI 0.636619772367581343076
#define M_2_SQRTPI 1.12837916709551257390
#define M_SQRT2 1.41421356237309504880
#define M_SQRT1_2 0.707106781186547524401
#define HUGE_VAL (__builtin_huge_val())
#define HUGE_VALF (__builtin_huge_valf())
#define INFINITY (__builtin_inff())
#define NAN (__builtin_nanf(""))

// The math library: float (`sinf`) and double (`sin`) functions, with C++'s float
// overloads of the double names (`sin(float)` is `sinf`).
#define __CUPRITE_MATH1(F) \
  __device__ double F(double x); \
  __device__ float F##f(float x); \
  __device__ __attribute__((intrinsic(#F "f"))) float F(float x);
#define __CUPRITE_MATH2(F) \
  __device__ double F(double x, double y); \
  __device__ float F##f(float x, float y); \
  __device__ __attribute__((intrinsic(#F "f"))) float F(float x, float y);
__CUPRITE_MATH1(sqrt) __CUPRITE_MATH1(rsqrt) __CUPRITE_MATH1(cbrt) __CUPRITE_MATH1(rcbrt)
__CUPRITE_MATH1(exp) __CUPRITE_MATH1(exp2) __CUPRITE_MATH1(exp10) __CUPRITE_MATH1(expm1)
__CUPRITE_MATH1(log) __CUPRITE_MATH1(log2) __CUPRITE_MATH1(log10) __CUPRITE_MATH1(log1p) __CUPRITE_MATH1(logb)
__CUPRITE_MATH1(sin) __CUPRITE_MATH1(cos) __CUPRITE_MATH1(tan) __CUPRITE_MATH1(sinpi) __CUPRITE_MATH1(cospi)
__CUPRITE_MATH1(asin) __CUPRITE_MATH1(acos) __CUPRITE_MATH1(atan)
__CUPRITE_MATH1(sinh) __CUPRITE_MATH1(cosh) __CUPRITE_MATH1(tanh)
__CUPRITE_MATH1(asinh) __CUPRITE_MATH1(acosh) __CUPRITE_MATH1(atanh)
__CUPRITE_MATH1(erf) __CUPRITE_MATH1(erfc) __CUPRITE_MATH1(erfinv) __CUPRITE_MATH1(erfcinv)
__CUPRITE_MATH1(tgamma) __CUPRITE_MATH1(lgamma)
__CUPRITE_MATH1(floor) __CUPRITE_MATH1(ceil) __CUPRITE_MATH1(trunc) __CUPRITE_MATH1(round)
__CUPRITE_MATH1(rint) __CUPRITE_MATH1(nearbyint) __CUPRITE_MATH1(fabs)
__CUPRITE_MATH1(normcdf) __CUPRITE_MATH1(normcdfinv)
__CUPRITE_MATH2(pow) __CUPRITE_MATH2(atan2) __CUPRITE_MATH2(fmod) __CUPRITE_MATH2(remainder)
__CUPRITE_MATH2(fmin) __CUPRITE_MATH2(fmax) __CUPRITE_MATH2(hypot) __CUPRITE_MATH2(copysign)
__CUPRITE_MATH2(fdim) __CUPRITE_MATH2(nextafter)
__device__ double fma(double x, double y, double z);
__device__ float fmaf(float x, float y, float z);
__device__ __attribute__((intrinsic("fmaf"))) float fma(float x, float y, float z);
__device__ void sincos(double x, double *s, double *c);
__device__ void sincosf(float x, float *s, float *c);
__device__ void sincospi(double x, double *s, double *c);
__device__ void sincospif(float x, float *s, float *c);
__device__ double ldexp(double x, int e);
__device__ float ldexpf(float x, int e);
__device__ double frexp(double x, int *e);
__device__ float frexpf(float x, int *e);
__device__ double modf(double x, double *i);
__device__ float modff(float x, float *i);
__device__ long lround(double x);
__device__ long lroundf(float x);
__device__ long long llround(double x);
__device__ long long llroundf(float x);
__device__ long lrint(double x);
__device__ long lrintf(float x);
__device__ long long llrint(double x);
__device__ long long llrintf(float x);
__device__ int ilogb(double x);
__device__ int ilogbf(float x);
__device__ __attribute__((intrinsic("ilogbf"))) int ilogb(float x);
__device__ double scalbn(double x, int e);
__device__ float scalbnf(float x, int e);
__device__ __attribute__((intrinsic("scalbnf"))) float scalbn(float x, int e);
__device__ bool isnan(double x);
__device__ __attribute__((intrinsic("isnanf"))) bool isnan(float x);
__device__ bool isinf(double x);
__device__ __attribute__((intrinsic("isinff"))) bool isinf(float x);
__device__ bool isfinite(double x);
__device__ __attribute__((intrinsic("isfinitef"))) bool isfinite(float x);
__device__ bool signbit(double x);
__device__ __attribute__((intrinsic("signbitf"))) bool signbit(float x);

// Integer abs, min and max (and CUDA's min/max overloads for every arithmetic type).
__device__ int abs(int x);
__device__ long labs(long x);
__device__ long long llabs(long long x);
__device__ __attribute__((intrinsic("labs"))) long abs(long x);
__device__ __attribute__((intrinsic("llabs"))) long long abs(long long x);
__device__ __attribute__((intrinsic("fabsf"))) float abs(float x);
__device__ __attribute__((intrinsic("fabs"))) double abs(double x);
#define __CUPRITE_MINMAX(T) __device__ T min(T a, T b); __device__ T max(T a, T b);
__CUPRITE_MINMAX(int) __CUPRITE_MINMAX(unsigned int) __CUPRITE_MINMAX(long) __CUPRITE_MINMAX(unsigned long)
__CUPRITE_MINMAX(long long) __CUPRITE_MINMAX(unsigned long long)
__device__ __attribute__((intrinsic("fminf"))) float min(float a, float b);
__device__ __attribute__((intrinsic("fmaxf"))) float max(float a, float b);
__device__ __attribute__((intrinsic("fmin"))) double min(double a, double b);
__device__ __attribute__((intrinsic("fmax"))) double max(double a, double b);
__device__ unsigned int umin(unsigned int a, unsigned int b);
__device__ unsigned int umax(unsigned int a, unsigned int b);
__device__ long long llmin(long long a, long long b);
__device__ long long llmax(long long a, long long b);

// (Guarded: this text is both <math.h> and <cmath>.)
#ifndef __CUPRITE_NAN_DEFINED
#define __CUPRITE_NAN_DEFINED
// nan(tag) and nanf(tag): a quiet NaN whose payload is the number `tag` spells (decimal,
// octal after a leading 0, hexadecimal after 0x), as CUDA's: 0 when the tag has a
// character that is not a digit of its base, all ones when the number overflows.
static __host__ __device__ __forceinline__ unsigned long long __cuprite_nan_payload(const char *tag) {
  unsigned long long v = 0;
  unsigned base = 10;
  bool bad = false, big = false;
  if (tag && *tag == '0') {
    ++tag;
    base = 8;
    if (*tag == 'x' || *tag == 'X') {
      ++tag;
      base = 16;
    }
  }
  for (; tag && *tag; ++tag) {
    char c = *tag;
    unsigned d = 99;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
    if (d >= base) {
      bad = true;
      continue;
    }
    if (v > (~0ull - d) / base) big = true;
    v = v * base + d;
  }
  return bad ? 0ull : big ? ~0ull : v;
}
static __host__ __device__ __forceinline__ double nan(const char *tag) {
  return __longlong_as_double((long long)((__cuprite_nan_payload(tag) & 0x000fffffffffffffull) | 0x7ff8000000000000ull));
}
static __host__ __device__ __forceinline__ float nanf(const char *tag) {
  return __int_as_float((int)((__cuprite_nan_payload(tag) & 0x003fffffu) | 0x7fc00000u));
}
#endif
