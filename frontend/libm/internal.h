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

// ln(2) = CL_LN2_HI + CL_LN2_LO, the high part with 32 significant bits (k * CL_LN2_HI
// is exact for |k| < 2^21).
#define CL_LN2_HI 0.6931471806019545
#define CL_LN2_LO -4.2009150726810846e-11
#define CL_LOG2E 1.4426950408889634

// The double-precision exponential kernel (explog_f64.cu's design notes).
// e^r = 1 + r + r^2 q(r), |r| <= ln(2)/2: fit exp_f64.
CL_INLINE double cl_exp_q(double r) {
  return fma(fma(fma(fma(fma(fma(fma(fma(fma(fma(2.0889444715183887e-09, r, 2.5105480412952794e-08), r,
                                                 2.7557349978141824e-07), r, 2.755725477575543e-06), r,
                                         2.4801587244762253e-05), r, 0.0001984126987530394), r,
                                 0.0013888888888918638), r, 0.008333333333326), r, 0.041666666666666616), r,
                 0.1666666666666667), r, 0.5);
}

// e^(xh + xl) = 2^k (h + *l), h in [0.7, 1.42], for |xh| < 746 and |xl| <= ulp(xh).
CL_INLINE double cl_exp_dd(double xh, double xl, double *l, int *k) {
  double kd = rint(xh * CL_LOG2E);
  double a = fma(kd, -CL_LN2_HI, xh);  // exact
  double b = fma(kd, -CL_LN2_LO, xl);
  double r = a + b;
  double rl = (a - r) + b;
  double t = fma(r * r, cl_exp_q(r), fma(rl, r, rl));  // e^(r + rl) - 1 - r
  double p = 1.0 + r;
  double pe = (1.0 - p) + r;
  double s = pe + t;
  double h = p + s;
  *l = (p - h) + s;
  *k = (int)kd;
  return h;
}

// e^(xh + xl) rounded once (twice when the result is subnormal: below half an ulp more).
CL_INLINE double cl_exp_dd_round(double xh, double xl) {
  double l;
  int k;
  double h = cl_exp_dd(xh, xl, &l, &k);
  return cl_scale(h + l, k);
}

// ex2.approx: for the fast-math intrinsics only.
__device__ float __exp2f(float x);

// e^r for |r| <= ln(2)/2 (with r's rounding): 1 + r + r^2 q(r), fit exp_f32.
CL_INLINE float cl_exp_poly(float r) {
  float q = fmaf(fmaf(fmaf(fmaf(0.001390135264955461f, r, 0.008363313041627407f), r, 0.04166685417294502f), r,
                      0.16666576266288757f), r, 0.5f);
  return 1.0f + fmaf(r * r, q, r);
}

// 1.5 2^23: adding it rounds a float below 2^22 in magnitude to an integer k, and the sum's
// low significand bits are k in two's complement.
#define CL_RINT_MAGIC 12582912.0f
