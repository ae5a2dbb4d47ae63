// Double-precision hyperbolic functions, roots, erf and erfc, remainders, decomposition,
// rounding, classification.
//
// sinh, cosh, tanh: polynomials near zero (fits sinh_f64, cosh_f64, tanh_f64), else the
// exponential kernel's unrounded 2^k (h + l), so that e^x and e^-x combine with one
// rounding. erfc(x) = e^(-x^2) g(t), t = (x - 4) / (x + 4), g a polynomial in t (fit
// erfc_f64, after Shepherd and Laframboise's change of variable), with e^(-x^2) from the
// exact square; erf is a polynomial below 1 (fit erf_f64) and 1 - erfc above.
#include <__cuprite_libm.h>

#define LN2_H 0.6931471805599453
#define LN2_L 2.3190468138462996e-17

// e^a / 2 for 20 <= a: e^(a - ln 2) with the difference in double-double.
CL_INLINE double cl_exp_half(double a) {
  double h = a - LN2_H;
  double l = ((a - h) - LN2_H) - LN2_L;
  return cl_exp_dd_round(h, l);
}

CL_EXPORT double __cuprite_sinh(double x) {
  double a = fabs(x);
  if (!(a < INFINITY)) return x + x;  // +-inf, NaN
  if (a < 0x1p-27) return x;
  double r;
  if (a < 1.0) {
    double z = a * a;
    double p = fma(fma(fma(fma(fma(fma(fma(fma(8.309053425002288e-18, z, 2.811291438384247e-15), z,
                                           7.647165406902485e-13), z, 1.605904382696552e-10), z,
                                   2.5052108385475767e-08), z, 2.7557319223985825e-06), z, 0.0001984126984126984), z,
                   0.008333333333333333), z, 0.16666666666666666);
    r = fma(a * z, p, a);
  } else if (a < 20.0) {
    double l;
    int k;
    double h = cl_exp_dd(a, 0.0, &l, &k);
    double s = cl_pow2(k - 1);
    double eh = h * s, el = l * s;  // e^a / 2, exactly scaled
    r = eh + (el - 0.25 / eh);
  } else if (a < 711.0) {
    r = cl_exp_half(a);
  } else {
    r = INFINITY;
  }
  return copysign(r, x);
}

CL_EXPORT double __cuprite_cosh(double x) {
  double a = fabs(x);
  if (!(a < INFINITY)) return a + a;
  if (a < 0x1p-27) return 1.0;
  if (a < 1.0) {
    // 1 + z/2 + z^2 c(z), the first sum compensated
    double z = a * a;
    double zl = fma(a, a, -z);
    double c = fma(fma(fma(fma(fma(fma(fma(fma(4.150508740811336e-19, z, 1.5618452956803727e-16), z,
                                           4.7794780944924396e-14), z, 1.1470745593242659e-11), z,
                                   2.087675698788361e-09), z, 2.755731922398586e-07), z, 2.48015873015873e-05), z,
                   0.001388888888888889), z, 0.041666666666666664);
    double hz = 0.5 * z;
    double w = 1.0 + hz;
    double e = (1.0 - w) + hz;
    return w + (e + fma(z * z, c, 0.5 * zl));
  }
  if (a < 20.0) {
    double l;
    int k;
    double h = cl_exp_dd(a, 0.0, &l, &k);
    double s = cl_pow2(k - 1);
    double eh = h * s, el = l * s;
    return eh + (el + 0.25 / eh);
  }
  if (a < 711.0) return cl_exp_half(a);
  return INFINITY;
}

CL_EXPORT double __cuprite_tanh(double x) {
  double a = fabs(x);
  if (x != x) return x + x;
  if (a < 0x1p-27) return x;
  double r;
  if (a < 0.55) {
    double z = a * a;
    double t = fma(fma(fma(fma(fma(fma(fma(fma(fma(fma(fma(7.87444882845996e-06, z, -3.372109183588621e-05), z,
                                                       9.455153972385974e-05), z, -0.00023847280988280707), z,
                                               0.0005899053184395449), z, -0.0014558191006390044), z,
                                       0.0035921267703262205), z, -0.008863235463170437), z, 0.021869488534074805), z,
                           -0.053968253968220394), z, 0.1333333333333331), z, -0.3333333333333333);
    r = fma(a * z, t, a);
  } else if (a < 22.0) {
    // 1 - 2 / (e^2a + 1), the quotient in double-double
    double l;
    int k;
    double h = cl_exp_dd(a + a, 0.0, &l, &k);
    double s = cl_pow2(k);
    double eh = h * s, el = l * s;
    double d = eh + 1.0;  // Fast2Sum: eh > 1
    double dl = ((eh - d) + 1.0) + el;
    double q = 2.0 / d;
    double ql = (fma(-q, d, 2.0) - q * dl) / d;
    double w = 1.0 - q;  // Fast2Sum: q < 1
    double e = (1.0 - w) - q;
    r = w + (e - ql);
  } else {
    r = 1.0;
  }
  return copysign(r, x);
}

#define LN2D 0.6931471805599453

CL_EXPORT double __cuprite_asinh(double x) {
  double a = fabs(x);
  if (!(a < INFINITY)) return x + x;
  if (a < 0x1p-27) return x;
  double r;
  if (a > 0x1p28) {
    r = log(a) + LN2D;
  } else if (a > 2.0) {
    r = log(2.0 * a + 1.0 / (sqrt(fma(a, a, 1.0)) + a));
  } else {
    double z = a * a;
    r = log1p(a + z / (1.0 + sqrt(1.0 + z)));
  }
  return copysign(r, x);
}

CL_EXPORT double __cuprite_acosh(double x) {
  if (x != x) return x + x;
  if (x < 1.0) return cl_nan();
  if (x == INFINITY) return x;
  if (x > 0x1p28) return log(x) + LN2D;
  if (x > 2.0) return log(2.0 * x - 1.0 / (x + sqrt(fma(x, x, -1.0))));
  double t = x - 1.0;  // exact
  return log1p(t + sqrt(fma(t, t, 2.0 * t)));
}

CL_EXPORT double __cuprite_atanh(double x) {
  double a = fabs(x);
  if (!(a <= 1.0)) return a == a ? cl_nan() : x + x;
  if (a == 1.0) return copysign(HUGE_VAL, x);
  if (a < 0x1p-27) return x;
  double r;
  if (a < 0.5) {
    double t = a + a;
    r = 0.5 * log1p(t + t * a / (1.0 - a));
  } else {
    r = 0.5 * log1p((a + a) / (1.0 - a));
  }
  return copysign(r, x);
}

// cbrt(a) for positive finite a as y + *yl: a bit-level first guess, two Halley steps
// (5 -> 15 -> 45 bits) and a Newton step with the residual a - y^3 in double-double.
CL_INLINE double cl_cbrt_dd(double a, double *yl) {
  // into [2^-474, 2^424], where the Halley products y (y^3 + 2a) cannot under- or overflow
  double scale = 1.0;
  if (a < 0x1p-300) {
    a *= 0x1p600;
    scale = 0x1p-200;
  } else if (a > 0x1p300) {
    a *= 0x1p-600;
    scale = 0x1p200;
  }
  long long bits = __double_as_longlong(a);
  double y = __longlong_as_double(bits / 3 + 0x2a9f7893782da1ceLL);
  double y3 = y * y * y;
  y = y * (y3 + 2.0 * a) / (2.0 * y3 + a);
  y3 = y * y * y;
  y = y * (y3 + 2.0 * a) / (2.0 * y3 + a);
  double y2 = y * y;
  double y2l = fma(y, y, -y2);
  double c = y2 * y;
  double cl = fma(y2, y, -c) + y2l * y;
  double res = (a - c) - cl;  // a - c is exact (Sterbenz)
  *yl = res / (3.0 * y2) * scale;
  return y * scale;
}

CL_EXPORT double __cuprite_cbrt(double x) {
  double a = fabs(x);
  if (a == 0.0 || !(a < INFINITY)) return x + x;
  double yl;
  double y = cl_cbrt_dd(a, &yl);
  return copysign(y + yl, x);
}

CL_EXPORT double __cuprite_rcbrt(double x) {
  double a = fabs(x);
  if (a == 0.0) return copysign(HUGE_VAL, x);
  if (a == INFINITY) return copysign(0.0, x);
  if (a != a) return x + x;
  double yl;
  double y = cl_cbrt_dd(a, &yl);
  double q = 1.0 / y;
  double ql = (fma(-q, y, 1.0) - q * yl) / y;
  return copysign(q + ql, x);
}

// 1/sqrt(x): the root as s + sl, then the reciprocal in double-double.
CL_EXPORT double __cuprite_rsqrt(double x) {
  if (x == 0.0) return copysign(HUGE_VAL, x);
  if (!(x > 0.0)) return x == x ? cl_nan() : x + x;
  if (x == INFINITY) return 0.0;
  double scale = 1.0;
  if (x < 0x1p-1000) {  // keep s * s normal, so that its residual is exact
    x *= 0x1p100;
    scale = 0x1p50;
  }
  double s = sqrt(x);
  double sl = fma(-s, s, x) / (s + s);
  double q = 1.0 / s;
  double ql = (fma(-q, s, 1.0) - q * sl) / s;
  return (q + ql) * scale;
}

// hypot: scaled into a safe range, the sum of squares in double-double, one rounding.
CL_EXPORT double __cuprite_hypot(double x, double y) {
  double ax = fabs(x), ay = fabs(y);
  if (ax == INFINITY || ay == INFINITY) return INFINITY;
  if (ax != ax || ay != ay) return x + y;
  if (ax < ay) {
    double t = ax;
    ax = ay;
    ay = t;
  }
  if (ay == 0.0) return ax;
  if (ay < ax * 0x1p-60) return ax + ay;
  double scale = 1.0;
  if (ax > 0x1p500) {
    ax *= 0x1p-600;
    ay *= 0x1p-600;
    scale = 0x1p600;
  } else if (ay < 0x1p-500) {
    ax *= 0x1p600;
    ay *= 0x1p600;
    scale = 0x1p-600;
  }
  double xx = ax * ax, xxl = fma(ax, ax, -xx);
  double yy = ay * ay, yyl = fma(ay, ay, -yy);
  double s = xx + yy;  // Fast2Sum: xx >= yy
  double sl = ((xx - s) + yy) + (xxl + yyl);
  double h = sqrt(s);
  double hl = (fma(-h, h, s) + sl) / (h + h);
  return (h + hl) * scale;
}

// erf(x) / x - 1 = p(x^2) for |x| < 1: fit erf_f64 less its constant term 2/sqrt(pi).
CL_INLINE double cl_erf_p(double z) {
  return fma(fma(fma(fma(fma(fma(fma(fma(fma(fma(fma(fma(fma(fma(2.8016239345526113e-13, z, -6.193159706782329e-12), z,
      9.322600867547294e-11), z, -1.22775269307346e-09), z, 1.4806002044334021e-08), z, -1.6365766563376344e-07), z,
      1.646211066039943e-06), z, -1.4925650231969102e-05), z, 0.00012055332978736251), z, -0.0008548327023400212), z,
      0.005223977625441639), z, -0.026866170645131218), z, 0.11283791670955126), z, -0.37612638903183754), z,
      0.1283791670955126);
}

// erfc(a) for a >= 0 as 2^*k v (v not rounded to the final exponent yet):
// e^(-a^2) g(t) / (1 + 2a). g is sensitive to t for large a (dx/dt = (a + 4)^2 / 8), so the
// rounding error tl of t is taken back with g's derivative, from
// d/dx (e^(x^2) erfc(x)) = 2x e^(x^2) erfc(x) - 2/sqrt(pi).
CL_INLINE double cl_erfc_pos(double a, int *k) {
  double n = a - 4.0;  // TwoSum
  double nv = n - a;
  double nl = (a - (n - nv)) + (-4.0 - nv);
  double d = a + 4.0;
  double dv = d - a;
  double dl = (a - (d - dv)) + (4.0 - dv);
  double t = n / d;
  double tl = (fma(-t, d, n) + (nl - t * dl)) / d;
  double g = fma(fma(fma(fma(fma(fma(fma(fma(fma(fma(fma(fma(fma(fma(fma(fma(fma(fma(fma(fma(fma(fma(fma(fma(2.7180360299240475e-10, t, 2.045151128283109e-09), t, 1.6929860504032532e-09), t, -1.643912129012389e-08), t, -1.9015231494709318e-08), t, 1.1307075164350512e-07), t, 7.685852405569769e-08), t, -8.276178637085269e-07), t, 2.9180283141480665e-07), t, 5.710713956726521e-06), t, -1.1220986006269523e-05), t, -2.4399493160586185e-05), t, 0.00015062133996485063), t, -0.0001992566440952515), t, -0.0007577732207123761), t, 0.005031969972161105), t, -0.016197734066252457), t, 0.037167515537905774), t, -0.06633036581160578), t, 0.09373283499833099), t, -0.10103906603632705), t, 0.06809705425469312), t, 0.015379652102620073), t, -0.13962111684056253), t, 1.2329951186255526);
  double a2 = a + a;
  double u = a2 + 1.0;  // TwoSum: 1 + 2a = u + ul
  double uv = u - a2;
  double ul = (a2 - (u - uv)) + (1.0 - uv);
  double dg = g * (2.0 / u + 2.0 * a) - 1.1283791670955126 * u;  // dg/dx
  g = fma(dg * (d * d * 0.125), tl, g);
  double q = g / u;
  double ql = (fma(-q, u, g) - q * ul) / u;
  double z = a * a;
  double zl = fma(a, a, -z);
  double l;
  double h = cl_exp_dd(-z, -zl, &l, k);
  return fma(h, q, fma(h, ql, l * q));
}

CL_EXPORT double __cuprite_erf(double x) {
  double a = fabs(x);
  if (x != x) return x + x;
  if (a < 1.0) {
    if (a < 0x1p-60) return fma(x, 0.1283791670955126, x);  // keeps -0
    return fma(x, cl_erf_p(x * x), x);
  }
  if (a >= 6.0) return copysign(1.0, x);
  int k;
  double v = cl_erfc_pos(a, &k);
  return copysign(1.0 - cl_scale(v, k), x);
}

CL_EXPORT double __cuprite_erfc(double x) {
  if (x != x) return x + x;
  if (x < -6.0) return 2.0;
  if (x > 27.3) return 0.0;
  if (fabs(x) < 0.5) {
    // 1 - erf(x), the subtraction from 1 compensated (TwoSum)
    double w = 1.0 - x;
    double wv = w - 1.0;
    double we = (1.0 - (w - wv)) + (-x - wv);
    return w + (we - x * cl_erf_p(x * x));
  }
  int k;
  double v = cl_erfc_pos(fabs(x), &k);
  if (x >= 0.0) return cl_scale(v, k);
  return 2.0 - cl_scale(v, k);
}

// fmod: exact, by long division of the integer significands, 11 bits a step.
CL_EXPORT double __cuprite_fmod(double x, double y) {
  unsigned long long ux = (unsigned long long)__double_as_longlong(x);
  unsigned long long uy = (unsigned long long)__double_as_longlong(y);
  unsigned long long sx = ux & 0x8000000000000000ull;
  ux &= 0x7fffffffffffffffull;
  uy &= 0x7fffffffffffffffull;
  if (uy == 0ull || ux >= 0x7ff0000000000000ull || uy > 0x7ff0000000000000ull) return (x * y) / (x * y);
  if (ux < uy) return x;
  if (ux == uy) return __longlong_as_double((long long)sx);
  int ex = (int)(ux >> 52), ey = (int)(uy >> 52);
  unsigned long long mx, my;
  const unsigned long long one = 0x0010000000000000ull;
  if (ex == 0) {  // subnormal: normalize
    mx = ux;
    ex = 1;
    while (mx < one) {
      mx <<= 1;
      ex--;
    }
  } else {
    mx = (ux & (one - 1ull)) | one;
  }
  if (ey == 0) {
    my = uy;
    ey = 1;
    while (my < one) {
      my <<= 1;
      ey--;
    }
  } else {
    my = (uy & (one - 1ull)) | one;
  }
  int d = ex - ey;
  while (d > 0) {
    int s = d < 11 ? d : 11;
    mx = (mx % my) << s;  // below 2^64
    d -= s;
  }
  mx %= my;
  if (mx == 0ull) return __longlong_as_double((long long)sx);
  ex = ey;
  while (mx < one) {
    mx <<= 1;
    ex--;
  }
  unsigned long long r;
  if (ex > 0)
    r = (mx - one) | ((unsigned long long)ex << 52);
  else
    r = mx >> (1 - ex);
  return __longlong_as_double((long long)(r | sx));
}

// remainder: x - n y with n = x/y rounded to nearest even: fmod by 2|y|, then one step.
CL_EXPORT double __cuprite_remainder(double x, double y) {
  double ax = fabs(x), ay = fabs(y);
  if (ay == 0.0 || !(ax < INFINITY) || ay != ay) return (x * y) / (x * y);
  double r = ax;
  if (ay < 0x1p1023) r = __cuprite_fmod(ax, ay + ay);  // r in [0, 2|y|)
  if (ay < 0x1p-1021) {
    if (r + r > ay) {
      r -= ay;
      if (r + r >= ay) r -= ay;
    }
  } else {
    double h = 0.5 * ay;
    if (r > h) {
      r -= ay;
      if (r >= h) r -= ay;
    }
  }
  if (r == 0.0) r = 0.0;
  return __longlong_as_double(__double_as_longlong(r) ^ (__double_as_longlong(x) & (long long)0x8000000000000000ull));
}

CL_EXPORT double __cuprite_ldexp(double x, int n) {
  if (x == 0.0 || !(fabs(x) < INFINITY)) return x + x;
  if (n > 3000) n = 3000;
  if (n < -3000) n = -3000;
  while (n > 1023) {
    x *= 0x1p1023;
    n -= 1023;
  }
  while (n < -1022) {
    x *= 0x1p-969;
    n += 969;
  }
  return x * cl_pow2(n);
}

CL_EXPORT double __cuprite_scalbn(double x, int n) { return __cuprite_ldexp(x, n); }

CL_EXPORT double __cuprite_frexp(double x, int *e) {
  if (x == 0.0 || !(fabs(x) < INFINITY)) {
    *e = 0;
    return x + x;
  }
  int adj = 0;
  if (fabs(x) < 0x1p-1022) {
    x *= 0x1p54;
    adj = -54;
  }
  long long u = __double_as_longlong(x);
  *e = (int)((u >> 52) & 0x7ff) - 1022 + adj;
  return __longlong_as_double((u & (long long)0x800fffffffffffffull) | 0x3fe0000000000000ll);
}

CL_EXPORT int __cuprite_ilogb(double x) {
  if (x == 0.0) return -2147483647 - 1;
  if (x != x) return -2147483647 - 1;
  if (fabs(x) == INFINITY) return 2147483647;
  int e;
  __cuprite_frexp(x, &e);
  return e - 1;
}

CL_EXPORT double __cuprite_logb(double x) {
  if (x == 0.0) return -INFINITY;
  if (!(fabs(x) < INFINITY)) return x * x;
  return (double)__cuprite_ilogb(x);
}

CL_EXPORT double __cuprite_modf(double x, double *ip) {
  double i = trunc(x);
  *ip = i;
  if (fabs(x) == INFINITY) return copysign(0.0, x);
  return copysign(x - i, x);  // exact; NaN stays NaN
}

// round half away from zero (PTX's cvt has no such mode).
CL_EXPORT double __cuprite_round(double x) {
  double t = trunc(x);
  if (fabs(x - t) >= 0.5) t += copysign(1.0, x);
  return t;
}

CL_EXPORT long __cuprite_lround(double x) { return (long)__cuprite_round(x); }
CL_EXPORT long long __cuprite_llround(double x) { return (long long)__cuprite_round(x); }
CL_EXPORT long __cuprite_lrint(double x) { return (long)rint(x); }
CL_EXPORT long long __cuprite_llrint(double x) { return (long long)rint(x); }

CL_EXPORT double __cuprite_fdim(double x, double y) {
  if (x != x || y != y) return x + y;
  return x > y ? x - y : 0.0;
}

CL_EXPORT double __cuprite_nextafter(double x, double y) {
  if (x != x || y != y) return x + y;
  if (x == y) return y;
  if (x == 0.0) return copysign(0x1p-1074, y);
  long long u = __double_as_longlong(x);
  if ((x < y) == (x > 0.0))
    u += 1;
  else
    u -= 1;
  return __longlong_as_double(u);
}

CL_EXPORT bool __cuprite_isnan(double x) { return x != x; }
CL_EXPORT bool __cuprite_isinf(double x) { return fabs(x) == INFINITY; }
CL_EXPORT bool __cuprite_isfinite(double x) { return fabs(x) < INFINITY; }
CL_EXPORT bool __cuprite_signbit(double x) { return __double_as_longlong(x) < 0; }
