// Single-precision hyperbolic functions, roots, powers, erf, remainders, decomposition,
// rounding, classification.
#include <__cuprite_libm.h>

// e^|x| as p 2^k (p in [0.7, 1.42]) for 0 <= x <= 89.5: the part of expf before scaling, so
// that sinh and cosh near overflow halve the result without a second rounding.
CL_INLINE float cl_exp_parts(float x, int *k) {
  float kf = rintf(x * 1.44269502f);
  float r = fmaf(kf, -0.693145751953125f, x);
  r = fmaf(kf, -1.4286068203094172e-06f, r);
  float q = fmaf(fmaf(fmaf(fmaf(0.001390135264955461f, r, 0.008363313041627407f), r, 0.04166685417294502f), r,
                      0.16666576266288757f), r, 0.5f);
  *k = (int)kf;
  return 1.0f + fmaf(r * r, q, r);
}

CL_EXPORT float __cuprite_sinhf(float x) {
  float a = fabsf(x);
  if (!(a < INFINITY)) return x + x;  // +-inf, NaN
  if (a < 0x1p-12f) return x;
  float r;
  if (a < 1.0f) {
    float t = expm1f(a);
    r = 0.5f * (t + t / (t + 1.0f));
  } else if (a < 9.0f) {
    float e = expf(a);
    r = 0.5f * e - 0.5f / e;
  } else if (a < 89.5f) {
    int k;
    float p = cl_exp_parts(a, &k);  // e^-a is below 2^-25 relative
    r = cl_scalbnf(p, k - 1);
  } else {
    r = INFINITY;
  }
  return copysignf(r, x);
}

CL_EXPORT float __cuprite_coshf(float x) {
  float a = fabsf(x);
  if (!(a < INFINITY)) return a + a;
  if (a < 0x1p-12f) return 1.0f;
  if (a < 1.0f) {
    // cosh = 1 + t^2 / (2 (1 + t)), t = e^a - 1
    float t = expm1f(a);
    return 1.0f + (t * t) / (2.0f * (1.0f + t));
  }
  if (a < 9.0f) {
    float e = expf(a);
    return 0.5f * e + 0.5f / e;
  }
  if (a >= 89.5f) return INFINITY;
  int k;
  float p = cl_exp_parts(a, &k);
  return cl_scalbnf(p, k - 1);
}

// tanh(x) = x + x^3 t(x^2) for |x| < 0.55 (fit tanh_f32), else 1 - 2 / (e^2x + 1).
CL_EXPORT float __cuprite_tanhf(float x) {
  float a = fabsf(x);
  float r;
  if (a < 0.55f) {  // also tiny and subnormal x: r = a
    float z = a * a;
    float t = fmaf(fmaf(fmaf(fmaf(fmaf(0.0025264471769332886f, z, -0.008526375517249107f), z, 0.021818460896611214f), z,
                             -0.05396470054984093f), z, 0.1333332359790802f), z, -0.3333333432674408f);
    r = fmaf(a * z, t, a);
  } else if (a < 9.1f) {
    // 1 - 2 / (e^2a + 1), e^2a as expf computes it (2a in [1.1, 18.2]: no special case).
    float y = 2.0f * a;
    float t = fmaf(y, 1.44269502f, CL_RINT_MAGIC);
    float k = t - CL_RINT_MAGIC;
    float rr = fmaf(k, -0.693145751953125f, y);
    rr = fmaf(k, -1.4286068203094172e-06f, rr);
    float e = cl_exp_poly(rr) * __uint_as_float((__float_as_uint(t) << 23) + 0x3f800000u);
    r = 1.0f - 2.0f / (e + 1.0f);
  } else {
    if (x != x) return x + x;
    r = 1.0f;
  }
  return copysignf(r, x);
}

#define LN2F 0.693147182464599609375f

CL_EXPORT float __cuprite_asinhf(float x) {
  float a = fabsf(x);
  if (!(a < INFINITY)) return x + x;
  if (a < 0x1p-12f) return x;
  float r;
  if (a > 0x1p28f) {
    r = logf(a) + LN2F;
  } else if (a > 2.0f) {
    r = logf(2.0f * a + 1.0f / (sqrtf(fmaf(a, a, 1.0f)) + a));
  } else {
    float z = a * a;
    r = log1pf(a + z / (1.0f + sqrtf(1.0f + z)));
  }
  return copysignf(r, x);
}

CL_EXPORT float __cuprite_acoshf(float x) {
  if (x != x) return x + x;
  if (x < 1.0f) return cl_nanf();
  if (x == INFINITY) return x;
  if (x > 0x1p28f) return logf(x) + LN2F;
  if (x > 2.0f) return logf(2.0f * x - 1.0f / (x + sqrtf(fmaf(x, x, -1.0f))));
  float t = x - 1.0f;  // exact
  return log1pf(t + sqrtf(fmaf(t, t, 2.0f * t)));
}

CL_EXPORT float __cuprite_atanhf(float x) {
  float a = fabsf(x);
  if (!(a <= 1.0f)) return a == a ? cl_nanf() : x + x;
  if (a == 1.0f) return copysignf(INFINITY, x);
  if (a < 0x1p-12f) return x;
  float r;
  if (a < 0.5f) {
    float t = a + a;
    r = 0.5f * log1pf(t + t * a / (1.0f - a));
  } else {
    r = 0.5f * log1pf((a + a) / (1.0f - a));
  }
  return copysignf(r, x);
}

// cbrt(a) for positive finite a, in double: a bit-level first guess, then two Halley steps
// (cubic convergence: 5 -> 15 -> 45 bits).
CL_INLINE double cl_cbrt_d(float a) {
  double d = (double)a;
  long long bits = __double_as_longlong(d);
  double y = __longlong_as_double(bits / 3 + 0x2a9f7893782da1ceLL);
  double y3 = y * y * y;
  y = y * (y3 + 2.0 * d) / (2.0 * y3 + d);
  y3 = y * y * y;
  return y * (y3 + 2.0 * d) / (2.0 * y3 + d);
}

// cbrt and 1/cbrt: cl_cbrt_d rounded once to float.
CL_EXPORT float __cuprite_cbrtf(float x) {
  float a = fabsf(x);
  if (a == 0.0f || !(a < INFINITY)) return x + x;
  return copysignf((float)cl_cbrt_d(a), x);
}

CL_EXPORT float __cuprite_rcbrtf(float x) {
  float a = fabsf(x);
  if (a == 0.0f) return copysignf(INFINITY, x);
  if (a == INFINITY) return copysignf(0.0f, x);
  if (a != a) return x + x;
  return copysignf((float)(1.0 / cl_cbrt_d(a)), x);
}

// 1/sqrt(x) from two correctly rounded operations (at most 1 ulp; CUDA's bound is 2).
CL_EXPORT float __cuprite_rsqrtf(float x) { return 1.0f / sqrtf(x); }

// hypot in double: the squares and their sum are exact or nearly so, one rounding at the end.
CL_EXPORT float __cuprite_hypotf(float x, float y) {
  float ax = fabsf(x), ay = fabsf(y);
  if (ax == INFINITY || ay == INFINITY) return INFINITY;
  if (ax != ax || ay != ay) return x + y;
  double dx = (double)ax, dy = (double)ay;
  return (float)sqrt(fma(dx, dx, dy * dy));
}

// erf(x) / x - 1 = p(x^2) for |x| < 1: fit erf_f32 less its constant term 2/sqrt(pi).
CL_INLINE float cl_erff_p(float z) {
  return fmaf(fmaf(fmaf(fmaf(fmaf(fmaf(fmaf(-9.64151604421204e-06f, z, 0.0001125694761867635f), z, -0.0008482828852720559f), z, 0.005220945458859205f), z, -0.0268654003739357f), z, 0.11283782124519348f), z, -0.37612637877464294f), z, 0.12837916f);
}

// erfc(a) for a >= 0 as 2^*k v: e^(-a^2) g(t) / (1 + 2a), t = (a - 4) / (a + 4), g a
// polynomial (fit erfc_f32); as the double version (special_f64.cu), with t's rounding
// error taken back through g's derivative and e^(-a^2) from the exact square, unrounded.
CL_INLINE float cl_erfcf_pos(float a, int *k) {
  float n = a - 4.0f;  // TwoSum
  float nv = n - a;
  float nl = (a - (n - nv)) + (-4.0f - nv);
  float d = a + 4.0f;
  float dv = d - a;
  float dl = (a - (d - dv)) + (4.0f - dv);
  float t = n / d;
  float tl = (fmaf(-t, d, n) + (nl - t * dl)) / d;
  float g = fmaf(fmaf(fmaf(fmaf(fmaf(fmaf(fmaf(fmaf(fmaf(fmaf(0.0008606436313129961f, t, 0.006947535090148449f), t, -0.015971554443240166f), t, 0.03640494868159294f), t, -0.06661766767501831f), t, 0.0938282310962677f), t, -0.10099159926176071f), t, 0.06809264421463013f), t, 0.015377345494925976f), t, -0.1396210491657257f), t, 1.2329951524734497f);
  float a2 = a + a;
  float u = a2 + 1.0f;  // TwoSum: 1 + 2a = u + ul
  float uv = u - a2;
  float ul = (a2 - (u - uv)) + (1.0f - uv);
  float dg = g * (2.0f / u + 2.0f * a) - 1.1283791f * u;  // dg/dx
  g = fmaf(dg * (d * d * 0.125f), tl, g);
  float q = g / u;
  float ql = (fmaf(-q, u, g) - q * ul) / u;
  // e^(-z - zl) = 2^k (ph + s): expf's reduction and polynomial, the sums compensated
  float z = a * a;
  float zl = fmaf(a, a, -z);
  float kf = rintf(-z * 1.44269502f);
  float a1 = fmaf(kf, -0.693145751953125f, -z);  // exact
  float b1 = fmaf(kf, -1.4286068203094172e-06f, -zl);
  float r = a1 + b1;
  float rl = (a1 - r) + b1;
  float pq = fmaf(fmaf(fmaf(fmaf(0.001390135264955461f, r, 0.008363313041627407f), r, 0.04166685417294502f), r,
                      0.16666576266288757f), r, 0.5f);
  float ph = 1.0f + r;
  float s = ((1.0f - ph) + r) + fmaf(r * r, pq, rl);
  *k = (int)kf;
  return fmaf(ph, q, fmaf(ph, ql, s * q));
}

CL_EXPORT float __cuprite_erff(float x) {
  float a = fabsf(x);
  if (x != x) return x + x;
  if (a < 1.0f) return fmaf(x, cl_erff_p(x * x), x);
  if (a >= 3.95f) return copysignf(1.0f, x);
  int k;
  float v = cl_erfcf_pos(a, &k);
  return copysignf(1.0f - cl_scalef(v, k), x);
}

CL_EXPORT float __cuprite_erfcf(float x) {
  if (x != x) return x + x;
  if (x < -4.0f) return 2.0f;
  if (x > 10.1f) return 0.0f;
  if (fabsf(x) < 0.5f) {
    // 1 - erf(x), the subtraction from 1 compensated (TwoSum)
    float w = 1.0f - x;
    float wv = w - 1.0f;
    float we = (1.0f - (w - wv)) + (-x - wv);
    return w + (we - x * cl_erff_p(x * x));
  }
  int k;
  float v = cl_erfcf_pos(fabsf(x), &k);
  if (x >= 0.0f) return cl_scalbnf(v, k);
  return 2.0f - cl_scalef(v, k);
}

// fmod: exact, by long division of the integer significands.
CL_EXPORT float __cuprite_fmodf(float x, float y) {
  unsigned int ux = __float_as_uint(x), uy = __float_as_uint(y);
  unsigned int sx = ux & 0x80000000u;
  ux &= 0x7fffffffu;
  uy &= 0x7fffffffu;
  if (uy == 0u || ux >= 0x7f800000u || uy > 0x7f800000u) return (x * y) / (x * y);
  if (ux < uy) return x;
  if (ux == uy) return __uint_as_float(sx);
  int ex = (int)(ux >> 23), ey = (int)(uy >> 23);
  unsigned int mx, my;
  if (ex == 0) {  // subnormal: normalize
    mx = ux;
    ex = 1;
    while (mx < 0x00800000u) {
      mx <<= 1;
      ex--;
    }
  } else {
    mx = (ux & 0x007fffffu) | 0x00800000u;
  }
  if (ey == 0) {
    my = uy;
    ey = 1;
    while (my < 0x00800000u) {
      my <<= 1;
      ey--;
    }
  } else {
    my = (uy & 0x007fffffu) | 0x00800000u;
  }
  for (; ex > ey; ex--) {
    if (mx >= my) mx -= my;
    mx <<= 1;
  }
  if (mx >= my) mx -= my;
  if (mx == 0u) return __uint_as_float(sx);
  while (mx < 0x00800000u) {
    mx <<= 1;
    ex--;
  }
  unsigned int r;
  if (ex > 0)
    r = (mx - 0x00800000u) | ((unsigned int)ex << 23);
  else
    r = mx >> (1 - ex);
  return __uint_as_float(r | sx);
}

// remainder: x - n y with n = x/y rounded to nearest even: fmod by 2|y|, then one step.
CL_EXPORT float __cuprite_remainderf(float x, float y) {
  float ax = fabsf(x), ay = fabsf(y);
  if (ay == 0.0f || !(ax < INFINITY) || ay != ay) return (x * y) / (x * y);
  float r = ax;
  if (ay < 0x1p127f) r = __cuprite_fmodf(ax, ay + ay);  // r in [0, 2|y|)
  // r - |y| and 2r > |y| without overflow
  if (ay < 0x1p-125f) {
    if (r + r > ay) {
      r -= ay;
      if (r + r >= ay) r -= ay;
    }
  } else {
    float h = 0.5f * ay;
    if (r > h) {
      r -= ay;
      if (r >= h) r -= ay;
    }
  }
  if (r == 0.0f) r = 0.0f;
  return __uint_as_float(__float_as_uint(r) ^ (__float_as_uint(x) & 0x80000000u));
}

CL_EXPORT float __cuprite_ldexpf(float x, int n) {
  if (x == 0.0f || !(fabsf(x) < INFINITY)) return x + x;
  if (n > 400) n = 400;
  if (n < -400) n = -400;
  return cl_scalbnf(x, n);
}

CL_EXPORT float __cuprite_scalbnf(float x, int n) { return __cuprite_ldexpf(x, n); }

CL_EXPORT float __cuprite_frexpf(float x, int *e) {
  if (x == 0.0f || !(fabsf(x) < INFINITY)) {
    *e = 0;
    return x + x;
  }
  int adj = 0;
  if (fabsf(x) < 0x1p-126f) {
    x *= 0x1p24f;
    adj = -24;
  }
  unsigned int u = __float_as_uint(x);
  *e = (int)((u >> 23) & 0xffu) - 126 + adj;
  return __uint_as_float((u & 0x807fffffu) | 0x3f000000u);
}

CL_EXPORT int __cuprite_ilogbf(float x) {
  if (x == 0.0f) return -2147483647 - 1;
  if (x != x) return -2147483647 - 1;
  if (fabsf(x) == INFINITY) return 2147483647;
  int e;
  __cuprite_frexpf(x, &e);
  return e - 1;
}

CL_EXPORT float __cuprite_logbf(float x) {
  if (x == 0.0f) return -INFINITY;
  if (!(fabsf(x) < INFINITY)) return x * x;
  return (float)__cuprite_ilogbf(x);
}

CL_EXPORT float __cuprite_modff(float x, float *ip) {
  float i = truncf(x);
  *ip = i;
  if (fabsf(x) == INFINITY) return copysignf(0.0f, x);
  return copysignf(x - i, x);  // exact; NaN stays NaN
}

// round half away from zero (PTX's cvt has no such mode).
CL_EXPORT float __cuprite_roundf(float x) {
  float t = truncf(x);
  if (fabsf(x - t) >= 0.5f) t += copysignf(1.0f, x);
  return t;
}

CL_EXPORT long __cuprite_lroundf(float x) { return (long)__cuprite_roundf(x); }
CL_EXPORT long long __cuprite_llroundf(float x) { return (long long)__cuprite_roundf(x); }
CL_EXPORT long __cuprite_lrintf(float x) { return (long)rintf(x); }
CL_EXPORT long long __cuprite_llrintf(float x) { return (long long)rintf(x); }

CL_EXPORT float __cuprite_fdimf(float x, float y) {
  if (x != x || y != y) return x + y;
  return x > y ? x - y : 0.0f;
}

CL_EXPORT float __cuprite_nextafterf(float x, float y) {
  if (x != x || y != y) return x + y;
  if (x == y) return y;
  if (x == 0.0f) return copysignf(0x1p-149f, y);
  unsigned int u = __float_as_uint(x);
  if ((x < y) == (x > 0.0f))
    u += 1u;
  else
    u -= 1u;
  return __uint_as_float(u);
}

CL_EXPORT bool __cuprite_isnanf(float x) { return x != x; }
CL_EXPORT bool __cuprite_isinff(float x) { return fabsf(x) == INFINITY; }
CL_EXPORT bool __cuprite_isfinitef(float x) { return fabsf(x) < INFINITY; }
CL_EXPORT bool __cuprite_signbitf(float x) { return __float_as_int(x) < 0; }
