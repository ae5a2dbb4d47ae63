// Double-precision trigonometric functions: sin, cos, tan, sincos, sinpi, cospi, sincospi,
// asin, acos, atan, atan2.
//
// Argument reduction x = q pi/2 + r + rl (a double-double r + rl, |r| <= pi/4):
// * |x| < 2^30: Cody and Waite with pi/2 in three parts and fma; the first fma is exact (x
//   and q P1 are multiples of 2^-53 and their difference is below 1), the product q P2 is
//   kept exactly (fma) and summed with TwoSum, so r + rl is good to about 2^-120 absolute.
// * larger |x|: Payne and Hanek: the 192 bits of 2/pi that matter for x's exponent, times
//   x's 53-bit significand in 64-bit integer arithmetic (__umul64hi); the 128-bit fraction
//   is normalized and converted to radians in double-double. The closest double to a
//   multiple of pi/2 is about 2^-61 away from it, so 128 bits leave over 60 good ones.
// sin and cos of r + rl: odd and even polynomials (fits sin_f64, cos_f64) summed in extra
// precision; tan is their quotient, divided in double-double.
#include <__cuprite_libm.h>

#define PIO2_H 1.5707963267948966
#define PIO2_M 6.123233995736766e-17
#define PIO2_T -1.4973849048591698e-33
#define PI_H 3.141592653589793
#define PI_L 1.2246467991473532e-16
#define PIO4_H 0.7853981633974483
#define PIO4_L 3.061616997868383e-17

// Word j (j >= 1) of the binary expansion of 2/pi, after one zero word: word 1 holds
// the bits of weight 2^-1 to 2^-64 (scripts/libm_coeffs.py consts).
CL_INLINE unsigned long long cl_2opi_w64(int j) {
  switch (j) {
    case 1: return 0xA2F9836E4E441529ull;
    case 2: return 0xFC2757D1F534DDC0ull;
    case 3: return 0xDB6295993C439041ull;
    case 4: return 0xFE5163ABDEBBC561ull;
    case 5: return 0xB7246E3A424DD2E0ull;
    case 6: return 0x06492EEA09D1921Cull;
    case 7: return 0xFE1DEB1CB129A73Eull;
    case 8: return 0xE88235F52EBB4484ull;
    case 9: return 0xE99C7026B45F7E41ull;
    case 10: return 0x3991D639835339F4ull;
    case 11: return 0x9C845F8BBDF9283Bull;
    case 12: return 0x1FF897FFDE05980Full;
    case 13: return 0xEF2F118B5A0A6D1Full;
    case 14: return 0x6D367ECF27CB09B7ull;
    case 15: return 0x4F463F669E5FEA2Dull;
    case 16: return 0x7527BAC7EBE5F17Bull;
    case 17: return 0x3D0739F78A5292EAull;
    case 18: return 0x6BFB5FB11F8D5D08ull;
    case 19: return 0x56033046FC7B6BABull;
    default: return 0ull;
  }
}

// Bits [sh, sh + 64) of the 128-bit a:b.
CL_INLINE unsigned long long cl_funnel(unsigned long long a, unsigned long long b, int sh) {
  return sh == 0 ? a : (a << sh) | (b >> (64 - sh));
}

// Payne-Hanek reduction of a finite |x| >= 2^30.
CL_INLINE double cl_reduce_big_d(double x, double *rl, int *q) {
  unsigned long long ix = (unsigned long long)__double_as_longlong(x) & 0x7fffffffffffffffull;
  int e = (int)(ix >> 52) - 1075;  // |x| = m 2^e, e >= -22
  unsigned long long m = (ix & 0x000fffffffffffffull) | 0x0010000000000000ull;
  // The window W of 192 bits starts at the bit of weight 2^(1 - e): the bits before it
  // contribute multiples of 4 to x 2/pi, and x 2/pi mod 4 = (m W mod 2^192) 2^-190.
  int p0 = e + 62;  // its position in the zero-padded expansion
  int j = p0 >> 6;
  int sh = p0 & 63;
  unsigned long long a0 = cl_2opi_w64(j), a1 = cl_2opi_w64(j + 1), a2 = cl_2opi_w64(j + 2), a3 = cl_2opi_w64(j + 3);
  unsigned long long w0 = cl_funnel(a0, a1, sh), w1 = cl_funnel(a1, a2, sh), w2 = cl_funnel(a2, a3, sh);
  unsigned long long l2 = m * w2;
  unsigned long long p1 = m * w1;
  unsigned long long l1 = __umul64hi(m, w2) + p1;
  unsigned long long l0 = __umul64hi(m, w1) + m * w0 + (l1 < p1 ? 1ull : 0ull);
  int quad = (int)(l0 >> 62);
  // The fraction, 128 bits: f0:f1 2^-128. At or above 1/2, go to the next quadrant.
  unsigned long long f0 = (l0 << 2) | (l1 >> 62);
  unsigned long long f1 = (l1 << 2) | (l2 >> 62);
  int neg = (int)(f0 >> 63);
  if (neg) {
    quad += 1;
    f0 = ~f0;
    f1 = ~f1 + 1ull;
    if (f1 == 0ull) f0 += 1ull;
  }
  double r, lo;
  if ((f0 | f1) == 0ull) {
    r = 0.0;
    lo = 0.0;
  } else {
    int lz = f0 != 0ull ? __clzll((long long)f0) : 64 + __clzll((long long)f1);
    unsigned long long t0, t1;
    if (lz >= 64) {
      t0 = f1 << (lz - 64);
      t1 = 0ull;
    } else {
      t0 = cl_funnel(f0, f1, lz);
      t1 = f1 << lz;
    }
    // fraction = (t0 + t1 2^-64) 2^-(64 + lz), in quarter turns
    double s = cl_pow2(-64 - lz);
    double fh = (double)(t0 & 0xfffffffffffff800ull) * s;  // exact
    double fl = ((double)(t0 & 0x7ffull) + (double)t1 * 0x1p-64) * s;
    double rh = fh * PIO2_H;
    double rlo = fma(fh, PIO2_H, -rh) + (fh * PIO2_M + fl * PIO2_H);
    r = rh + rlo;
    lo = (rh - r) + rlo;
  }
  if (neg) {
    r = -r;
    lo = -lo;
  }
  if (x < 0.0) {
    r = -r;
    lo = -lo;
    quad = -quad;
  }
  *rl = lo;
  *q = quad;
  return r;
}

// x = q pi/2 + r + *rl for finite x.
CL_INLINE double cl_reduce_d(double x, double *rl, int *q) {
  double ax = fabs(x);
  if (ax <= 0.7853981633974483) {
    *q = 0;
    *rl = 0.0;
    return x;
  }
  if (ax < 0x1p30) {
    double k = rint(x * 0.6366197723675814);
    double r1 = fma(k, -PIO2_H, x);  // exact
    double t = k * PIO2_M;
    double tl = fma(k, PIO2_M, -t);
    double r2 = r1 - t;  // TwoSum
    double v = r2 - r1;
    double e2 = (r1 - (r2 - v)) - (t + v);
    double lo = e2 - fma(k, PIO2_T, tl);
    double r = r2 + lo;
    *rl = (r2 - r) + lo;
    *q = (int)k;
    return r;
  }
  return cl_reduce_big_d(x, rl, q);
}

// sin(r + rl) = r + *lo (unevaluated), |r| <= pi/4: fit sin_f64.
CL_INLINE double cl_sin_k2(double r, double rl, double *lo) {
  double z = r * r;
  double s = fma(fma(fma(fma(fma(fma(-7.586030991446422e-13, z, 1.6058520156775785e-10), z, -2.5052106158966292e-08), z,
                                 2.755731921912372e-06), z, -0.0001984126984126478), z, 0.008333333333333331), z,
                 -0.16666666666666666);
  *lo = fma(r * z, s, fma(-0.5 * z, rl, rl));
  return r;
}

// cos(r + rl) = w + *lo (unevaluated): 1 - z/2 + z^2 c(z) with the subtraction from 1
// compensated; fit cos_f64.
CL_INLINE double cl_cos_k2(double r, double rl, double *lo) {
  double z = r * r;
  double zl = fma(r, r, -z);
  double c = fma(fma(fma(fma(fma(fma(4.745513921828178e-14, z, -1.147045474635555e-11), z, 2.087675575185104e-09), z,
                                 -2.7557319221288295e-07), z, 2.4801587301584496e-05), z, -0.0013888888888888887), z,
                 0.041666666666666664);
  double hz = 0.5 * z;
  double w = 1.0 - hz;
  *lo = (((1.0 - w) - hz) - 0.5 * zl) + fma(z * z, c, -r * rl);
  return w;
}

CL_INLINE double cl_sin_k(double r, double rl) {
  double lo;
  double h = cl_sin_k2(r, rl, &lo);
  return h + lo;
}

CL_INLINE double cl_cos_k(double r, double rl) {
  double lo;
  double h = cl_cos_k2(r, rl, &lo);
  return h + lo;
}

CL_EXPORT double __cuprite_sin(double x) {
  if (fabs(x) < 0x1p-27) return x;  // sin x = x to 2^-55 relative; keeps -0
  if (!(fabs(x) < INFINITY)) return x - x;  // NaN for inf and NaN
  double rl;
  int q;
  double r = cl_reduce_d(x, &rl, &q);
  double v = (q & 1) ? cl_cos_k(r, rl) : cl_sin_k(r, rl);
  return (q & 2) ? -v : v;
}

CL_EXPORT double __cuprite_cos(double x) {
  if (fabs(x) < 0x1p-28) return 1.0;
  if (!(fabs(x) < INFINITY)) return x - x;
  double rl;
  int q;
  double r = cl_reduce_d(x, &rl, &q);
  double v = (q & 1) ? cl_sin_k(r, rl) : cl_cos_k(r, rl);
  return ((q + 1) & 2) ? -v : v;
}

CL_EXPORT void __cuprite_sincos(double x, double *sp, double *cp) {
  if (fabs(x) < 0x1p-28) {
    *sp = x;
    *cp = 1.0;
    return;
  }
  if (!(fabs(x) < INFINITY)) {
    *sp = x - x;
    *cp = x - x;
    return;
  }
  double rl;
  int q;
  double r = cl_reduce_d(x, &rl, &q);
  double s = cl_sin_k(r, rl);
  double c = cl_cos_k(r, rl);
  double ss = (q & 1) ? c : s;
  double cc = (q & 1) ? s : c;
  *sp = (q & 2) ? -ss : ss;
  *cp = ((q + 1) & 2) ? -cc : cc;
}

// tan = sin / cos (or -cos / sin), both as double-doubles, divided in double-double.
CL_EXPORT double __cuprite_tan(double x) {
  if (fabs(x) < 0x1p-27) return x;
  if (!(fabs(x) < INFINITY)) return x - x;
  double rl;
  int q;
  double r = cl_reduce_d(x, &rl, &q);
  double sl, cl;
  double sh = cl_sin_k2(r, rl, &sl);
  double ch = cl_cos_k2(r, rl, &cl);
  // renormalize: |sh| >= |sl|, |ch| >= |cl|
  double s = sh + sl;
  sl = (sh - s) + sl;
  double c = ch + cl;
  cl = (ch - c) + cl;
  double n = s, nl = sl, d = c, dl = cl;
  if (q & 1) {
    n = -c;
    nl = -cl;
    d = s;
    dl = sl;
  }
  if (d == 0.0) return n / d;  // tan(+-0) was handled above; cannot happen for doubles
  double t = n / d;
  double tl = (fma(-t, d, n) + (nl - t * dl)) / d;
  return t + tl;
}

// sinpi, cospi: x = k/2 + r (exact), |r| <= 1/4. sin(pi r) = pi r + r^3 p(r^2) with pi in
// two parts (fit sinpi3_f64), cos(pi r) = 1 + z c(z) (fit cospi_f64).
CL_INLINE double cl_sinpi_k(double r) {
  double z = r * r;
  double p = fma(fma(fma(fma(fma(fma(fma(7.894830243582944e-07, z, -2.1914772319174628e-05), z, 0.00046630277501392216), z,
                                     -0.0073704309448123315), z, 0.08214588661111386), z, -0.599264529320792), z,
                         2.5501640398773455), z, -5.16771278004997);
  double h = r * PI_H;
  double l = fma(r, PI_H, -h);
  return h + (l + r * fma(z, p, PI_L));
}

CL_INLINE double cl_cospi_k(double r) {
  double z = r * r;
  double zl = fma(r, r, -z);
  double c = fma(fma(fma(fma(fma(fma(fma(fma(-1.3777783132266828e-07, z, 4.3029509785359414e-06), z,
                                             -0.00010463809742011314), z, 0.0019295743091270337), z,
                                     -0.025806891390008056), z, 0.23533063035889312), z, -1.3352627688545895), z,
                         4.0587121264167685), z, -4.934802200544679);
  double t = fma(z, c, zl * c);  // in [-0.31, 0]
  double w = 1.0 + t;
  return w + ((1.0 - w) + t);
}

// x = k/2 + r; returns r and sets *q = k mod 4. |x| < 2^52.
CL_INLINE double cl_reduce_pi_d(double x, int *q) {
  double k = rint(x + x);
  *q = (int)((long long)k & 3);
  return fma(k, -0.5, x);
}

CL_EXPORT double __cuprite_sinpi(double x) {
  if (!(fabs(x) < INFINITY)) return x - x;
  if (fabs(x) >= 0x1p52) return x * 0.0;  // an integer: +-0 with x's sign
  int q;
  double r = cl_reduce_pi_d(x, &q);
  if (r == 0.0 && !(q & 1)) return x * 0.0;
  double v = (q & 1) ? cl_cospi_k(r) : cl_sinpi_k(r);
  return (q & 2) ? -v : v;
}

CL_EXPORT double __cuprite_cospi(double x) {
  if (!(fabs(x) < INFINITY)) return x - x;
  if (fabs(x) >= 0x1p53) return 1.0;  // an even integer
  if (fabs(x) >= 0x1p52) return ((long long)x & 1) ? -1.0 : 1.0;
  int q;
  double r = cl_reduce_pi_d(x, &q);
  if (r == 0.0 && (q & 1)) return 0.0;  // cospi(n + 1/2) = +0
  double v = (q & 1) ? cl_sinpi_k(r) : cl_cospi_k(r);
  return ((q + 1) & 2) ? -v : v;
}

CL_EXPORT void __cuprite_sincospi(double x, double *sp, double *cp) {
  *sp = __cuprite_sinpi(x);
  *cp = __cuprite_cospi(x);
}

// atan(t + tl) - t for |t| <= 7/16: t^3 p(t^2) + tl (1 - t^2); fit atan_f64.
CL_INLINE double cl_atan_tail(double t, double tl) {
  double z = t * t;
  double p = fma(fma(fma(fma(fma(fma(fma(fma(fma(fma(fma(0.014783340041878413, z, -0.0331391846576379), z,
                                                         0.04492778188933437), z, -0.05216817354908507), z,
                                                 0.05876969108100508), z, -0.06666244317498063), z,
                                         0.07692285717356198), z, -0.09090908362474963), z, 0.11111111096814635), z,
                         -0.14285714285568954), z, 0.1999999999999942), z, -0.3333333333333333);
  return fma(t * z, p, fma(-z, tl, tl));
}

// atan(a) for a >= 0 (inf included) as h + *lo, by fdlibm's breakpoints: atan(a) =
// atan(c) + atan(t), t = (a - c) / (1 + a c) for c = 0, 1/2, 1, 3/2, inf, with t and
// its rounding error tl from exact residuals.
CL_INLINE double cl_atan_pos(double a, double *lo) {
  double ch, cl, n, d, dl;
  if (a < 0.4375) {
    *lo = cl_atan_tail(a, 0.0);
    return a;
  }
  if (a < 0.6875) {
    ch = 0.4636476090008061;
    cl = 2.2698777452961687e-17;
    n = 2.0 * a - 1.0;  // exact
    d = 2.0 + a;
    dl = (2.0 - d) + a;
  } else if (a < 1.1875) {
    ch = PIO4_H;
    cl = PIO4_L;
    n = a - 1.0;  // exact
    d = a + 1.0;
    double v = d - a;
    dl = (a - (d - v)) + (1.0 - v);
  } else if (a < 2.4375) {
    ch = 0.982793723247329;
    cl = 1.3903311031230998e-17;
    n = a - 1.5;  // exact
    double p = 1.5 * a;
    double pl = fma(1.5, a, -p);
    d = 1.0 + p;  // 1 + p + pl = d + dl
    dl = ((1.0 - d) + p) + pl;
  } else {
    ch = PIO2_H;
    cl = PIO2_M;
    if (a > 0x1p60) {
      *lo = cl;
      return ch;
    }
    n = -1.0;
    d = a;
    dl = 0.0;
  }
  double t = n / d;
  double tl = (fma(-t, d, n) - t * dl) / d;
  double v = cl_atan_tail(t, tl);
  double s = ch + t;  // Fast2Sum: |ch| > |t|
  double e = (ch - s) + t;
  *lo = e + (v + cl);
  return s;
}

CL_EXPORT double __cuprite_atan(double x) {
  double a = fabs(x);
  if (a < 0x1p-27) return x;
  if (x != x) return x + x;
  double lo;
  double h = cl_atan_pos(a, &lo);
  return copysign(h + lo, x);
}

CL_EXPORT double __cuprite_atan2(double y, double x) {
  if (x != x || y != y) return x + y;
  double ax = fabs(x), ay = fabs(y);
  int xneg = __double_as_longlong(x) < 0;
  double r;
  if (ay == 0.0) {
    r = xneg ? PI_H : 0.0;
  } else if (ax == 0.0) {
    r = PIO2_H;
  } else if (ax == INFINITY) {
    if (ay == INFINITY)
      r = xneg ? 2.356194490192345 : PIO4_H;
    else
      r = xneg ? PI_H : 0.0;
  } else if (ay == INFINITY) {
    r = PIO2_H;
  } else {
    // atan(q + ql), q + ql = |y| / |x| (the residual's derivative term added to the tail),
    // then pi - that for x < 0.
    double q = ay / ax;
    double h, lo;
    if (q == INFINITY) {
      h = PIO2_H;
      lo = PIO2_M;
    } else {
      double ql = 0.0;
      if (q > 0x1p-1000 && q < 0x1p1000) ql = fma(-q, ax, ay) / ax;
      h = cl_atan_pos(q, &lo);
      lo += ql / fma(q, q, 1.0);
    }
    if (xneg) {
      double s = PI_H - h;  // Fast2Sum: pi > h
      double e = (PI_H - s) - h;
      r = s + (e + (PI_L - lo));
    } else {
      r = h + lo;
    }
  }
  return copysign(r, y);
}

// (asin(t) - t) / t^3 = p(t^2) for |t| <= 1/2: fit asin_f64.
CL_INLINE double cl_asin_p(double z) {
  return fma(fma(fma(fma(fma(fma(fma(fma(fma(fma(fma(fma(fma(fma(fma(fma(0.033837793589477826, z, -0.03546190630797929), z, 0.03178126256362848), z, -0.006597280906911951), z, 0.009255150893336719), z, 0.00568985893367224), z, 0.007432573658587139), z, 0.00837622176549554), z, 0.009762838142175911), z, 0.011551722571078686), z, 0.013964847331079772), z, 0.01735276430954559), z, 0.022372159093277784), z, 0.03038194444441451), z, 0.044642857142857345), z, 0.075), z, 0.16666666666666666);
}

CL_EXPORT double __cuprite_asin(double x) {
  double a = fabs(x);
  if (!(a <= 1.0)) return a == a ? cl_nan() : x + x;
  if (a < 0x1p-27) return x;
  double r;
  if (a <= 0.5) {
    double z = a * a;
    r = fma(a * z, cl_asin_p(z), a);
  } else {
    // asin(a) = pi/2 - 2 asin(s), s = sqrt((1 - a)/2) (exact argument), s + sl = the root.
    double z = 0.5 - 0.5 * a;
    double s = sqrt(z);
    double sl = s > 0.0 ? fma(-s, s, z) / (s + s) : 0.0;
    double t = fma(s * z, cl_asin_p(z), sl);  // asin(s) - s
    double s2 = 2.0 * s;
    double h = PIO2_H - s2;  // Fast2Sum: pi/2 > 2s
    double e = (PIO2_H - h) - s2;
    r = h + (e + (PIO2_M - 2.0 * t));
  }
  return copysign(r, x);
}

CL_EXPORT double __cuprite_acos(double x) {
  double a = fabs(x);
  if (!(a <= 1.0)) return a == a ? cl_nan() : x + x;
  if (a <= 0.5) {
    // pi/2 - asin(x)
    double z = x * x;
    double t = x * z * cl_asin_p(z);
    double h = PIO2_H - x;
    double e = (PIO2_H - h) - x;
    return h + (e + (PIO2_M - t));
  }
  double z = 0.5 - 0.5 * a;
  double s = sqrt(z);
  double sl = s > 0.0 ? fma(-s, s, z) / (s + s) : 0.0;
  double t = fma(s * z, cl_asin_p(z), sl);  // 2 asin(s) = 2s + 2t
  if (x > 0.0) return 2.0 * s + 2.0 * t;
  double s2 = 2.0 * s;
  double h = PI_H - s2;
  double e = (PI_H - h) - s2;
  return h + (e + (PI_L - 2.0 * t));
}
