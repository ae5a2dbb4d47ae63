// Single-precision exponentials and logarithms: expf, exp2f, exp10f, expm1f, logf, log2f,
// log10f, log1pf, powf.
//
// Exponentials: x = k ln(b)/ln(2)... reduced by Cody and Waite, x = k log_b(2) + r with a
// short high part of log_b(2) so that k * hi is exact, e^r (2^r, 10^r) by a polynomial
// (fits of scripts/libm_coeffs.py), then scaled by 2^k with one rounding.
// Logarithms: x = 2^e m, m in [sqrt(1/2), sqrt(2)), log(m) = log1p(f) as hi + lo
// (cl_log1p_red), combined with e log_b(2) in extra precision (Fast2Sum).
#include <__cuprite_libm.h>

// ln(2) = LN2_HI + LN2_LO; LN2_HI has 15 significant bits, so k * LN2_HI is exact.
#define LN2_HI 0.693145751953125f
#define LN2_LO 1.4286068203094172e-06f

// e^x = 2^k e^r, x = k ln(2) + r (k = rint(x log2(e))). For |x| < 87, k is in [-126, 126]:
// 2^k is normal and the one product p 2^k rounds once (below 2^-126, into a subnormal).
CL_EXPORT float __cuprite_expf(float x) {
  float t = fmaf(x, 1.44269502f, CL_RINT_MAGIC);
  float k = t - CL_RINT_MAGIC;
  float r = fmaf(k, -LN2_HI, x);
  r = fmaf(k, -LN2_LO, r);
  float p = cl_exp_poly(r);
  if (fabsf(x) < 87.0f) return p * __uint_as_float((__float_as_uint(t) << 23) + 0x3f800000u);
  if (!(x <= 88.72283172607422f)) return x + INFINITY;  // overflow, +inf, NaN
  if (x < -104.0f) return 0.0f;
  return cl_scalef(p, (int)k);
}

CL_EXPORT float __cuprite_exp2f(float x) {
  if (!(x < 128.0f)) return x + INFINITY;
  if (x < -151.0f) return 0.0f;
  float k = rintf(x);
  float r = x - k;  // exact
  // 2^r = 1 + r q(r): fit exp2_f32
  float q = fmaf(fmaf(fmaf(fmaf(fmaf(0.00015403507859446108f, r, 0.0013390735257416964f), r, 0.009618237614631653f), r,
                           0.05550357326865196f), r, 0.24022649228572845f), r, 0.6931471824645996f);
  return cl_scalef(fmaf(r, q, 1.0f), (int)k);
}

// log10(2) = L10_HI + L10_LO, L10_HI with 11 significant bits.
#define LOG10_2_HI 0.301025390625f
#define LOG10_2_LO 4.605038981e-06f

CL_EXPORT float __cuprite_exp10f(float x) {
  if (!(x <= 38.5318374633789f)) return x + INFINITY;
  if (x < -46.0f) return 0.0f;
  float k = rintf(x * 3.32192802f);
  float r = fmaf(k, -LOG10_2_HI, x);
  r = fmaf(k, -LOG10_2_LO, r);
  // 10^r = 1 + r q(r): fit exp10_f32
  float q = fmaf(fmaf(fmaf(fmaf(fmaf(0.20699554681777954f, r, 0.5417108535766602f), r, 1.1712684631347656f), r,
                           2.034658670425415f), r, 2.650949001312256f), r, 2.3025851249694824f);
  return cl_scalef(fmaf(r, q, 1.0f), (int)k);
}

// e^r - 1 - r = r^2 q(r) for |r| <= 0.7: fit expm1_f32.
CL_INLINE float cl_expm1_q(float r) {
  return fmaf(fmaf(fmaf(fmaf(fmaf(fmaf(2.4879947886802256e-05f, r, 0.00020078047236893326f), r, 0.0013889472465962172f), r,
                           0.008332755416631699f), r, 0.04166664928197861f), r, 0.16666670143604279f), r, 0.5f);
}

CL_EXPORT float __cuprite_expm1f(float x) {
  if (!(x <= 88.72283172607422f)) return x + INFINITY;
  if (x < -17.5f) return -1.0f;
  float ax = fabsf(x);
  // Below ln(2)/2 a polynomial in x; above, the reduction (whose TwoSum keeps the
  // cancellation in 2^k (1 + e) - 1 exact for k = 1 and r near -ln(2)/2).
  if (ax < 0.34657359f) {
    if (ax < 0x1p-25f) return x;  // also keeps -0
    return fmaf(x * x, cl_expm1_q(x), x);
  }
  float k = rintf(x * 1.44269502f);
  float rh = fmaf(k, -LN2_HI, x);  // exact
  float r = fmaf(k, -LN2_LO, rh);
  float c = fmaf(k, -LN2_LO, rh - r);  // r + c = x - k ln2 to about 2^-48
  // e = e^(r + c) - 1 ~ r + small, small = r^2 q(r) + c (1 + r), kept apart from r: each
  // rounding of e itself would cost up to a quarter ulp of the result.
  float small = fmaf(r * r, cl_expm1_q(r), c * (1.0f + r));
  int ki = (int)k;
  if (ki > 127) {  // the -1 is far below half an ulp; 1 + r exactly as hi + lo (Fast2Sum)
    float hi = 1.0f + r;
    float lo = (1.0f - hi) + r;
    return cl_scalef(hi + (lo + small), ki);
  }
  // 2^k (1 + e) - 1 = a + b + cc with a = 2^k - 1 (exact for -24 <= k <= 24; beyond, the -1
  // goes into cc), b = 2^k r exact; a + b exactly as hi + lo (TwoSum), then one rounding.
  float s = cl_pow2f(ki);
  float a = ki > 24 ? s : s - 1.0f;
  float b = s * r;
  float cc = ki > 24 ? fmaf(s, small, -1.0f) : s * small;
  float hi = a + b;
  float bb = hi - a;
  float lo = (a - (hi - bb)) + (b - bb);
  return hi + (lo + cc);
}

// x = 2^e m with m in [sqrt(1/2), sqrt(2)): returns f = m - 1 (exact) and sets *e. x must
// be positive and finite (subnormals included).
CL_INLINE float cl_log_reduce(float x, int *e) {
  int adj = 0;
  if (x < 0x1p-126f) {
    x *= 0x1p24f;
    adj = -24;
  }
  unsigned int ix = __float_as_uint(x) + (0x3f800000u - 0x3f3504f3u);
  *e = (int)(ix >> 23) - 127 + adj;
  ix = (ix & 0x007fffffu) + 0x3f3504f3u;
  return __uint_as_float(ix) - 1.0f;
}

// The special cases shared by the logarithms: NaN, negative, zero, +inf. Returns 1 and
// sets *r when x is one of them.
CL_INLINE int cl_log_special(float x, float *r) {
  if (x > 0.0f && x < INFINITY) return 0;
  if (x == 0.0f)
    *r = -INFINITY;
  else if (x == INFINITY)
    *r = x;
  else if (x != x)
    *r = x + x;
  else
    *r = cl_nanf();
  return 1;
}

CL_EXPORT float __cuprite_logf(float x) {
  float sp;
  if (cl_log_special(x, &sp)) return sp;
  int e;
  float f = cl_log_reduce(x, &e);
  float lo;
  float hi = cl_log1p_red(f, &lo);
  if (e == 0) return hi + lo;
  float fe = (float)e;
  float p = fe * LN2_HI;  // exact
  float a = p + hi;       // Fast2Sum: |p| >= ln(2)/2 >= |hi|
  float err = (p - a) + hi;
  return a + (err + fmaf(fe, LN2_LO, lo));
}

// log2(e) = LOG2E_HI + LOG2E_LO
#define LOG2E_HI 1.44269502162933349609f
#define LOG2E_LO 1.925963033500011079e-08f

CL_EXPORT float __cuprite_log2f(float x) {
  float sp;
  if (cl_log_special(x, &sp)) return sp;
  int e;
  float f = cl_log_reduce(x, &e);
  float lo;
  float hi = cl_log1p_red(f, &lo);
  // (hi + lo) log2(e) = p + pe + ...
  float p = hi * LOG2E_HI;
  float pe = fmaf(hi, LOG2E_HI, -p);
  float t = fmaf(hi, LOG2E_LO, fmaf(lo, LOG2E_HI, pe));
  if (e == 0) return p + t;
  float fe = (float)e;
  float a = fe + p;  // |e| >= 1 > |p|
  float err = (fe - a) + p;
  return a + (err + t);
}

// log10(e) = LOG10E_HI + LOG10E_LO
#define LOG10E_HI 0.4342944920063018798828125f
#define LOG10E_LO -1.0103049952192578e-08f

CL_EXPORT float __cuprite_log10f(float x) {
  float sp;
  if (cl_log_special(x, &sp)) return sp;
  int e;
  float f = cl_log_reduce(x, &e);
  float lo;
  float hi = cl_log1p_red(f, &lo);
  float p = hi * LOG10E_HI;
  float pe = fmaf(hi, LOG10E_HI, -p);
  float t = fmaf(hi, LOG10E_LO, fmaf(lo, LOG10E_HI, pe));
  if (e == 0) return p + t;
  float fe = (float)e;
  float q = fe * LOG10_2_HI;  // exact
  float a = q + p;            // |q| >= 0.301 > |p| (|log10(m)| <= 0.151)
  float err = (q - a) + p;
  return a + (err + fmaf(fe, LOG10_2_LO, t));
}

CL_EXPORT float __cuprite_log1pf(float x) {
  if (!(x > -1.0f) || x == INFINITY) {
    if (x == -1.0f) return -INFINITY;
    if (x != x) return x + x;
    if (x == INFINITY) return x;
    return cl_nanf();
  }
  if (x == 0.0f) return x;  // keeps -0
  // One path for every x (no divergence): small x has e = 0 and f = u - 1, and c carries
  // what 1 + x lost (for x below 2^-24, all of x).
  float lo;
  float u = 1.0f + x;
  // c: the rounding error of 1 + x, relative to u (first-order correction of log(u)).
  float c = (x - (u - 1.0f)) / u;
  int e;
  float f = cl_log_reduce(u, &e);
  float hi = cl_log1p_red(f, &lo);
  float fe = (float)e;
  float p = fe * LN2_HI;
  float a = p + hi;
  float err = (p - a) + hi;
  return a + (err + (fmaf(fe, LN2_LO, lo) + c));
}

// powf: |x|^y = 2^(y log2|x|) evaluated in double precision (log2 to about 2^-52 relative,
// 2^t by its Taylor series on |r| <= 1/2), rounded once to float: the error is a few 2^-40
// relative before that rounding, so the result is correctly rounded but for rare ties
// (CUDA's bound for powf is 4 ulp). Special cases as C99 Annex F.9.4.4.
CL_INLINE double cl_log2_d(float x) {
  long long b = __double_as_longlong((double)x);  // float subnormals are normal doubles
  b += 0x3ff0000000000000LL - 0x3fe6a09e667f3bcdLL;
  int e = (int)(b >> 52) - 1023;
  b = (b & 0x000fffffffffffffLL) + 0x3fe6a09e667f3bcdLL;
  double f = __longlong_as_double(b) - 1.0;  // exact, in [sqrt(1/2) - 1, sqrt(2) - 1]
  double s = f / (2.0 + f);
  double z = s * s;
  double p = fma(fma(fma(fma(fma(fma(fma(fma(0.10526315789473684, z, 0.11764705882352941), z, 0.13333333333333333), z,
                                       0.15384615384615385), z, 0.18181818181818182), z, 0.2222222222222222), z,
                         0.2857142857142857), z, 0.4), z, 0.6666666666666666);
  double l = fma(s * z, p, 2.0 * s);  // log(1 + f)
  return fma(l, 1.4426950408889634, (double)e);
}

CL_INLINE double cl_exp2_d(double t) {  // |t| <= 160
  double k = rint(t);
  double r = t - k;
  double q = fma(fma(fma(fma(fma(fma(fma(fma(fma(fma(fma(fma(fma(6.778726354822545e-14, r, 1.3691488853904128e-12), r,
      2.5678435993488206e-11), r, 4.4455382718708116e-10), r, 7.054911620801123e-09), r, 1.01780860092397e-07), r,
      1.321548679014431e-06), r, 1.5252733804059841e-05), r, 0.0001540353039338161), r, 0.0013333558146428443), r,
      0.009618129107628477), r, 0.05550410866482158), r, 0.24022650695910072), r, 0.6931471805599453);
  return cl_scale(fma(r, q, 1.0), (int)k);
}

CL_EXPORT float __cuprite_powf(float x, float y) {
  float ax = fabsf(x), ay = fabsf(y);
  if (y == 0.0f || x == 1.0f) return 1.0f;
  if (x != x || y != y) return x + y;
  int yint = ay >= 0x1p24f || (ay < INFINITY && truncf(y) == y);
  int yodd = ay < 0x1p24f && yint && ((long long)y & 1);
  if (ay == INFINITY) {
    if (ax == 1.0f) return 1.0f;
    return (ax < 1.0f) == (y < 0.0f) ? INFINITY : 0.0f;
  }
  if (ax == 0.0f || ax == INFINITY) {
    float r = (ax == 0.0f) == (y < 0.0f) ? INFINITY : 0.0f;
    return yodd ? copysignf(r, x) : r;
  }
  if (x < 0.0f && !yint) return cl_nanf();
  double t = (double)y * cl_log2_d(ax);
  float r;
  if (t >= 128.0)
    r = INFINITY;
  else if (t < -151.0)
    r = 0.0f;
  else
    r = (float)cl_exp2_d(t);
  return (x < 0.0f && yodd) ? -r : r;
}
