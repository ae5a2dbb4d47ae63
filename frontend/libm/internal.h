// cuprite's device math library: helpers shared by its translation units.
//
// Every function here and in the library uses only IEEE-exact operations (add, mul, fma,
// div.rn, sqrt.rn, conversions, integer and bit operations): never the approximate PTX
// instructions, so that any bit-exact simulation measures the code the GPU runs. Products
// that must be fused are written with fmaf/fma, so the results do not depend on -fmad.
#pragma once

#define CL_INLINE static __device__ __forceinline__
#define CL_EXPORT extern "C" __device__

CL_INLINE float cl_nanf() { return __int_as_float(0x7fffffff); }
CL_INLINE double cl_nan() { return __longlong_as_double(0x7fffffffffffffffll); }

// 2^k for k in [-126, 127].
CL_INLINE float cl_pow2f(int k) { return __int_as_float((k + 127) << 23); }
// 2^k for k in [-1022, 1023].
CL_INLINE double cl_pow2(int k) { return __longlong_as_double((long long)(k + 1023) << 52); }

// y * 2^n with one rounding (the last multiplication; the others are exact).
CL_INLINE float cl_scalbnf(float y, int n) {
  if (n > 127) {
    y *= 0x1p127f;
    n -= 127;
    if (n > 127) {
      y *= 0x1p127f;
      n -= 127;
      if (n > 127) n = 127;
    }
  } else if (n < -126) {
    y *= 0x1p-102f;
    n += 102;
    if (n < -126) {
      y *= 0x1p-102f;
      n += 102;
      if (n < -126) n = -126;
    }
  }
  return y * cl_pow2f(n);
}

CL_INLINE double cl_scalbn(double y, int n) {
  if (n > 1023) {
    y *= 0x1p1023;
    n -= 1023;
    if (n > 1023) {
      y *= 0x1p1023;
      n -= 1023;
      if (n > 1023) n = 1023;
    }
  } else if (n < -1022) {
    y *= 0x1p-969;
    n += 969;
    if (n < -1022) {
      y *= 0x1p-969;
      n += 969;
      if (n < -1022) n = -1022;
    }
  }
  return y * cl_pow2(n);
}

// p * 2^k, p in [0.5, 2): the fast path when the result is normal.
CL_INLINE float cl_scalef(float p, int k) {
  if (k > -126 && k < 128) return p * cl_pow2f(k);
  return cl_scalbnf(p, k);
}
CL_INLINE double cl_scale(double p, int k) {
  if (k > -1022 && k < 1024) return p * cl_pow2(k);
  return cl_scalbn(p, k);
}

// log(1 + f) for f in [sqrt(1/2) - 1, sqrt(2) - 1], as hi + lo (|lo| < ulp(hi)):
// s = f / (2 + f), log(1 + f) = 2 atanh(s) = f - hfsq + s (hfsq + R(s^2)), hfsq = f^2 / 2,
// R(z) = z (2/3 + 2z/5 + ...): fit log_f32 of scripts/libm_coeffs.py.
CL_INLINE float cl_log1p_red(float f, float *lo) {
  float s = f / (2.0f + f);
  float z = s * s;
  float r = z * fmaf(fmaf(0.2958272397518158f, z, 0.3998871445655823f), z, 0.6666668653488159f);
  float hfsq = 0.5f * f * f;
  float hfsq_lo = fmaf(0.5f * f, f, -hfsq);
  float hi = f - hfsq;
  *lo = (((f - hi) - hfsq) - hfsq_lo) + s * (hfsq + r);
  return hi;
}

// ex2.approx: for the fast-math intrinsics only.
__device__ float __exp2f(float x);
