// Double-precision exponentials and logarithms: exp, exp2, exp10, expm1, log, log2, log10,
// log1p, pow.
//
// One exponential kernel for all of them: cl_exp_dd(xh, xl) is e^(xh + xl) as
// 2^k (h + l), with the argument in two parts so that exp2 (x ln 2), exp10 (x ln 10) and
// pow (y log x) pass their exact products: x = k ln(2) + r by Cody and Waite (ln 2 with a
// 32-bit high part, so k * LN2_HI is exact and the first fma too), then
// e^r = 1 + r + r^2 q(r) (fit exp_f64) summed in extra precision (Fast2Sum).
// Logarithms: x = 2^e m, m in [sqrt(1/2), sqrt(2)), log(m) = log1p(f) by the atanh series
// in s = f / (2 + f) as hi + lo (cl_log1p_red_d, fit log_f64); pow needs more: log|x| as a
// double-double good to about 2^-70 (cl_log_dd, fit logdd_f64), so that the error of
// y log|x| stays below 2^-56 relative to the result even at |y log x| = 745.
#include <__cuprite_libm.h>

#define LN2_HI CL_LN2_HI
#define LN2_LO CL_LN2_LO
// ln(2) to 106 bits.
#define LN2_H 0.6931471805599453
#define LN2_L 2.3190468138462996e-17
#define LOG2E_H 1.4426950408889634
#define LOG2E_L 2.0355273740931033e-17
#define LN10_H 2.302585092994046
#define LN10_L -2.1707562233822494e-16
#define LOG10E_H 0.4342944819032518
#define LOG10E_L 1.098319650216765e-17
// log10(2) = LOG10_2_HI + LOG10_2_LO, the high part with 32 significant bits.
#define LOG10_2_HI 0.3010299956658855
#define LOG10_2_LO -1.9043128467164274e-12

CL_EXPORT double __cuprite_exp(double x) {
  if (!(x <= 709.782712893384)) return x + INFINITY;  // overflow, +inf, NaN
  if (x < -745.2) return 0.0;
  if (fabs(x) < 0x1p-54) return 1.0 + x;
  return cl_exp_dd_round(x, 0.0);
}

CL_EXPORT double __cuprite_exp2(double x) {
  if (!(x < 1024.0)) return x + INFINITY;
  if (x < -1076.0) return 0.0;
  double k = rint(x);
  double r = x - k;  // exact
  if (r == 0.0) return cl_scale(1.0, (int)k);
  double h = r * LN2_H;
  double l = fma(r, LN2_H, -h) + r * LN2_L;
  double pl;
  int k2;
  double p = cl_exp_dd(h, l, &pl, &k2);
  return cl_scale(p + pl, (int)k + k2);
}

CL_EXPORT double __cuprite_exp10(double x) {
  if (!(x < 308.5)) return x + INFINITY;
  if (x < -324.0) return 0.0;
  if (fabs(x) < 0x1p-56) return 1.0 + x;
  double h = x * LN10_H;
  double l = fma(x, LN10_H, -h) + x * LN10_L;
  return cl_exp_dd_round(h, l);
}

CL_EXPORT double __cuprite_expm1(double x) {
  if (!(x <= 709.782712893384)) return x + INFINITY;
  if (x < -38.0) return -1.0;
  double ax = fabs(x);
  if (ax < 0.34657359027997264) {
    // x + x^2 q(x) with the exponential's q: k = 0 would cancel in e^x - 1
    if (ax < 0x1p-54) return x;  // also keeps -0
    double xx = x * x;
    double xl = fma(x, x, -xx);
    double q = cl_exp_q(x);
    return x + fma(xx, q, xl * q);
  }
  double l;
  int k;
  double h = cl_exp_dd(x, 0.0, &l, &k);
  if (k > 56) return cl_scale(h + l, k);  // the -1 is far below half an ulp
  // k != 0 here: 2^k h - 1 is exact for |k| = 1 (Sterbenz) and TwoSum keeps the rest.
  double s = cl_pow2(k);
  double hi = s * h;  // exact
  double t = hi - 1.0;
  double hv = t + 1.0;
  double err = (hi - hv) + (-1.0 - (t - hv));
  return t + (err + s * l);
}

// x = 2^e m with m in [sqrt(1/2), sqrt(2)): returns f = m - 1 (exact) and sets *e; x
// positive and finite, subnormals included.
CL_INLINE double cl_log_reduce_d(double x, int *e) {
  int adj = 0;
  if (x < 0x1p-1022) {
    x *= 0x1p54;
    adj = -54;
  }
  long long b = __double_as_longlong(x) + (0x3ff0000000000000LL - 0x3fe6a09e667f3bcdLL);
  *e = (int)(b >> 52) - 1023 + adj;
  b = (b & 0x000fffffffffffffLL) + 0x3fe6a09e667f3bcdLL;
  return __longlong_as_double(b) - 1.0;
}

// log(1 + f) for f in [sqrt(1/2) - 1, sqrt(2) - 1] as hi + *lo: s = f / (2 + f),
// log(1 + f) = f - hfsq + s (hfsq + R(s^2)), R(z) = z (2/3 + 2z/5 + ...): fit log_f64.
CL_INLINE double cl_log1p_red_d(double f, double *lo) {
  double s = f / (2.0 + f);
  double z = s * s;
  double r = z * fma(fma(fma(fma(fma(fma(0.14619770880913607, z, 0.15331449435542208), z, 0.18182897436887543), z,
                                     0.2222221101866502), z, 0.28571428626702433), z, 0.39999999999897856), z,
                     0.666666666666667);
  double hfsq = 0.5 * f * f;
  double hfsq_lo = fma(0.5 * f, f, -hfsq);
  double hi = f - hfsq;
  *lo = (((f - hi) - hfsq) - hfsq_lo) + s * (hfsq + r);
  return hi;
}

// NaN, negative, zero, +inf: returns 1 and sets *r when x is one of them.
CL_INLINE int cl_log_special_d(double x, double *r) {
  if (x > 0.0 && x < INFINITY) return 0;
  if (x == 0.0)
    *r = -INFINITY;
  else if (x == INFINITY)
    *r = x;
  else if (x != x)
    *r = x + x;
  else
    *r = cl_nan();
  return 1;
}

CL_EXPORT double __cuprite_log(double x) {
  double sp;
  if (cl_log_special_d(x, &sp)) return sp;
  int e;
  double f = cl_log_reduce_d(x, &e);
  double lo;
  double hi = cl_log1p_red_d(f, &lo);
  if (e == 0) return hi + lo;
  double fe = (double)e;
  double p = fe * LN2_HI;  // exact
  double a = p + hi;       // Fast2Sum: |p| >= ln(2) > |hi|
  double err = (p - a) + hi;
  return a + (err + fma(fe, LN2_LO, lo));
}

CL_EXPORT double __cuprite_log2(double x) {
  double sp;
  if (cl_log_special_d(x, &sp)) return sp;
  int e;
  double f = cl_log_reduce_d(x, &e);
  double lo;
  double hi = cl_log1p_red_d(f, &lo);
  double p = hi * LOG2E_H;
  double pe = fma(hi, LOG2E_H, -p);
  double t = fma(hi, LOG2E_L, fma(lo, LOG2E_H, pe));
  if (e == 0) return p + t;
  double fe = (double)e;
  double a = fe + p;  // |e| >= 1 > |p|
  double err = (fe - a) + p;
  return a + (err + t);
}

CL_EXPORT double __cuprite_log10(double x) {
  double sp;
  if (cl_log_special_d(x, &sp)) return sp;
  int e;
  double f = cl_log_reduce_d(x, &e);
  double lo;
  double hi = cl_log1p_red_d(f, &lo);
  double p = hi * LOG10E_H;
  double pe = fma(hi, LOG10E_H, -p);
  double t = fma(hi, LOG10E_L, fma(lo, LOG10E_H, pe));
  if (e == 0) return p + t;
  double fe = (double)e;
  double q = fe * LOG10_2_HI;  // exact
  double a = q + p;            // |q| >= 0.301 > |p|
  double err = (q - a) + p;
  return a + (err + fma(fe, LOG10_2_LO, t));
}

CL_EXPORT double __cuprite_log1p(double x) {
  if (!(x > -1.0) || x == INFINITY) {
    if (x == -1.0) return -INFINITY;
    if (x != x) return x + x;
    if (x == INFINITY) return x;
    return cl_nan();
  }
  if (fabs(x) < 0x1p-54) return x;  // keeps -0
  double lo;
  if (x > -0.2928932188134524 && x < 0.41421356237309503) {
    double hi = cl_log1p_red_d(x, &lo);
    return hi + lo;
  }
  // u = 1 + x exactly as u + c (TwoSum), log(1 + x) = log(u) + c/u
  double u = 1.0 + x;
  double uv = u - x;
  double c = ((1.0 - uv) + (x - (u - uv))) / u;
  int e;
  double f = cl_log_reduce_d(u, &e);
  double hi = cl_log1p_red_d(f, &lo);
  double fe = (double)e;
  double p = fe * LN2_HI;
  double a = p + hi;
  double err = (p - a) + hi;
  return a + (err + (fma(fe, LN2_LO, lo) + c));
}

// log(x) as *h + *l for positive finite x, to about 2^-70 relative. With s = f / (2 + f)
// as a double-double sh + sl: log(1 + f) = 2s + 2s^3/3 + s^5 P(s^2) (fit logdd_f64), the
// first two terms in double-double.
CL_INLINE void cl_log_dd(double x, double *h, double *l) {
  int e;
  double f = cl_log_reduce_d(x, &e);
  double d = 2.0 + f;
  double dl = (2.0 - d) + f;  // d + dl = 2 + f exactly
  double sh = f / d;
  double sl = (fma(-sh, d, f) - sh * dl) / d;
  double z = sh * sh;
  double zl = fma(sh, sh, -z) + 2.0 * sh * sl;
  double c3 = sh * z;  // s^3 = c3 + c3l
  double c3l = fma(sh, z, -c3) + (sh * zl + sl * z);
  double t3 = 0.6666666666666666 * c3;  // 2/3 s^3 = t3 + t3l
  double t3l = fma(0.6666666666666666, c3, -t3) + (0.6666666666666666 * c3l + 3.700743415417188e-17 * c3);
  double p = fma(fma(fma(fma(fma(fma(fma(fma(0.10765354697429941, z, 0.1045600188418175), z, 0.11766827743719556), z, 0.13333296193732092), z, 0.15384615765545964), z, 0.1818181817962658),
                             z, 0.22222222222228533), z, 0.28571428571428564), z, 0.4);
  double c5 = c3 * z * p;
  double s2 = 2.0 * sh;
  double a = s2 + t3;  // Fast2Sum: |2s| > |t3|
  double ae = (s2 - a) + t3;
  double lo = ae + (2.0 * sl + (t3l + c5));
  // + e ln(2)
  double fe = (double)e;
  double q = fe * LN2_HI;  // exact
  double sum = q + a;      // TwoSum
  double sv = sum - a;
  double se = (q - sv) + (a - (sum - sv));
  double tail = se + (lo + fe * LN2_LO);
  *h = sum + tail;
  *l = (sum - *h) + tail;
}

// pow: special cases as C99 Annex F.9.4.4, then e^(y log|x|) with the product in
// double-double.
CL_EXPORT double __cuprite_pow(double x, double y) {
  double ax = fabs(x), ay = fabs(y);
  if (y == 0.0 || x == 1.0) return 1.0;
  if (x != x || y != y) return x + y;
  int yint = ay >= 0x1p53 || (ay < INFINITY && trunc(y) == y);
  int yodd = ay < 0x1p53 && yint && ((long long)y & 1);
  if (ay == INFINITY) {
    if (ax == 1.0) return 1.0;
    return (ax < 1.0) == (y < 0.0) ? INFINITY : 0.0;
  }
  if (ax == 0.0 || ax == INFINITY) {
    double r = (ax == 0.0) == (y < 0.0) ? INFINITY : 0.0;
    return yodd ? copysign(r, x) : r;
  }
  if (x < 0.0 && !yint) return cl_nan();
  double lh, ll;
  cl_log_dd(ax, &lh, &ll);
  double th = y * lh;
  double tl = fma(y, lh, -th) + y * ll;
  double r;
  if (th > 709.8)
    r = INFINITY;
  else if (th < -745.2)
    r = 0.0;
  else
    r = cl_exp_dd_round(th, tl);
  return (x < 0.0 && yodd) ? -r : r;
}
