// Single-precision trigonometric functions: sinf, cosf, tanf, sincosf, sinpif, cospif,
// sincospif, asinf, acosf, atanf, atan2f.
//
// Argument reduction x = k pi/2 + r, |r| <= pi/4:
// * |x| < 2^17: Cody and Waite with pi/2 in three parts (P1 + P2 + P3) and fma; the first
//   fma is exact (x and k P1 are multiples of ulp(P1) and their difference is below 2).
// * larger |x|: Payne and Hanek: the 96 bits of 2/pi that matter for x's exponent, times
//   x's 24-bit significand in 64-bit integer arithmetic; the fraction is converted to
//   radians in double precision (this slow path is the only use of double here).
// sin and cos of r: odd and even polynomials (fits sin_f32, cos_f32).
#include <__cuprite_libm.h>

#define PIO2_1 1.5707963705062866f
#define PIO2_2 -4.371138828673793e-08f
#define PIO2_3 -1.7151245100058819e-15f

// Word j of the binary expansion of 2/pi, after two zero words (j = 2 is the first).
CL_INLINE unsigned int cl_2opi_word(int j) {
  switch (j) {
    case 2: return 0xA2F9836Eu;
    case 3: return 0x4E441529u;
    case 4: return 0xFC2757D1u;
    case 5: return 0xF534DDC0u;
    case 6: return 0xDB629599u;
    case 7: return 0x3C439041u;
    case 8: return 0xFE5163ABu;
    case 9: return 0xDEBBC561u;
    case 10: return 0xB7246E3Au;
    case 11: return 0x424DD2E0u;
    default: return 0u;
  }
}

// Payne-Hanek reduction of a finite |x| >= 2^17: r (with *rlo its low part), quadrant in *q.
CL_INLINE float cl_reduce_big(float x, float *rlo, int *q) {
  unsigned int ix = __float_as_uint(x) & 0x7fffffffu;
  int e = (int)(ix >> 23) - 150;  // |x| = m 2^e
  unsigned long long m = (unsigned long long)((ix & 0x007fffffu) | 0x00800000u);
  // The 96-bit window of 2/pi starting at bit t0 = e + 62 of the zero-padded expansion:
  // the bits before it contribute multiples of 4 to x 2/pi, and x 2/pi mod 4 =
  // (m W mod 2^96) 2^-94.
  int t0 = e + 62;
  int j = t0 >> 5;
  int sh = t0 & 31;
  unsigned long long a = ((unsigned long long)cl_2opi_word(j) << 32) | cl_2opi_word(j + 1);
  unsigned long long b = ((unsigned long long)cl_2opi_word(j + 2) << 32) | cl_2opi_word(j + 3);
  unsigned int w0 = (unsigned int)((a << sh) >> 32);
  unsigned int w1 = (unsigned int)(((a << sh) | (sh == 0 ? 0ull : (b >> (64 - sh)))) & 0xffffffffull);
  unsigned int w2 = (unsigned int)((b << sh) >> 32);
  unsigned long long p2 = m * w2;
  unsigned long long p1 = m * w1;
  unsigned long long p0 = m * w0;
  unsigned long long low = p2 + (p1 << 32);
  unsigned int carry = low < p2 ? 1u : 0u;
  unsigned int high = (unsigned int)(p1 >> 32) + (unsigned int)p0 + carry;
  unsigned long long frac = ((unsigned long long)high << 34) | (low >> 30);
  int quadrant = (int)(high >> 30) + (int)(frac >> 63);
  double r = (double)(long long)frac * 8.515303950216386e-20;  // pi/2 2^-64
  float rh = (float)r;
  float rl = (float)(r - (double)rh);
  if (x < 0.0f) {
    rh = -rh;
    rl = -rl;
    quadrant = -quadrant;
  }
  *rlo = rl;
  *q = quadrant;
  return rh;
}

// x = q pi/2 + r + *rlo for finite x.
CL_INLINE float cl_reduce(float x, float *rlo, int *q) {
  float ax = fabsf(x);
  *rlo = 0.0f;
  if (ax <= 0.78539816f) {
    *q = 0;
    return x;
  }
  if (ax < 131072.0f) {
    float k = rintf(x * 0.636619747f);
    float r = fmaf(k, -PIO2_1, x);
    r = fmaf(k, -PIO2_2, r);
    r = fmaf(k, -PIO2_3, r);
    *q = (int)k;
    return r;
  }
  return cl_reduce_big(x, rlo, q);
}

// sin(r + rl), |r| <= pi/4, |rl| <= ulp(r): fit sin_f32.
CL_INLINE float cl_sin_k(float r, float rl) {
  float z = r * r;
  float s = fmaf(fmaf(fmaf(2.7246344416198554e-06f, z, -0.00019840057939291f), z, 0.008333331905305386f), z,
                 -0.1666666716337204f);
  return r + fmaf(r * z, s, rl);
}

// cos(r + rl): 1 - z/2 + z^2 c(z), with the subtraction from 1 compensated; fit cos_f32.
CL_INLINE float cl_cos_k(float r, float rl) {
  float z = r * r;
  float c = fmaf(fmaf(fmaf(-2.729812820234656e-07f, z, 2.4800578103167936e-05f), z, -0.00138888880610466f), z,
                 0.0416666679084301f);
  float hz = 0.5f * z;
  float w = 1.0f - hz;
  return w + ((((1.0f - w) - hz) + z * z * c) - r * rl);
}

// 2^-12 <= |x| < 2^17, the common case, as one range test on the bits (NaN included in
// the rest).
#define CL_TRIG_FAST(ix) ((ix) - 0x39800000u < 0x48000000u - 0x39800000u)

// x = q pi/2 + r for 2^-12 <= |x| < 2^17 (Cody and Waite; exact for |x| <= pi/4, q = 0).
CL_INLINE float cl_reduce_mid(float x, int *q) {
  float k = rintf(x * 0.636619747f);
  float r = fmaf(k, -PIO2_1, x);
  r = fmaf(k, -PIO2_2, r);
  r = fmaf(k, -PIO2_3, r);
  *q = (int)k;
  return r;
}

// sin(r) and cos(r) with no low part, |r| <= pi/4: the same fits as cl_sin_k and cl_cos_k
// in Horner form, z = r^2 shared (about one ulp each; the bounds are two).
CL_INLINE float cl_sin_k0(float r, float z) {
  float s = fmaf(fmaf(fmaf(2.7246344416198554e-06f, z, -0.00019840057939291f), z, 0.008333331905305386f), z,
                 -0.1666666716337204f);
  return fmaf(r * z, s, r);
}
CL_INLINE float cl_cos_k0(float z) {
  float c = fmaf(fmaf(fmaf(-2.729812820234656e-07f, z, 2.4800578103167936e-05f), z, -0.00138888880610466f), z,
                 0.0416666679084301f);
  return fmaf(z, fmaf(z, c, -0.5f), 1.0f);
}

// The common case of sinf, cosf and sincosf: x = q pi/2 + r, sin(r) in *s and cos(r) in
// *c. Both polynomials are computed and the callers select: no branch, so a warp whose
// lanes fall in different quadrants does not run the two one after the other.
CL_INLINE int cl_sincos_mid(float x, float *s, float *c) {
  int q;
  float r = cl_reduce_mid(x, &q);
  float z = r * r;
  *s = cl_sin_k0(r, z);
  *c = cl_cos_k0(z);
  return q;
}

CL_EXPORT float __cuprite_sinf(float x) {
  unsigned int ix = __float_as_uint(x) & 0x7fffffffu;
  if (CL_TRIG_FAST(ix)) {
    float s, c;
    int q = cl_sincos_mid(x, &s, &c);
    float v = (q & 1) ? c : s;
    return (q & 2) ? -v : v;
  }
  if (ix < 0x39800000u) return x;   // sin x = x to 2^-25 relative; keeps -0
  if (ix >= 0x7f800000u) return x - x;  // NaN for inf and NaN
  float rl;
  int q;
  float r = cl_reduce_big(x, &rl, &q);
  float v = (q & 1) ? cl_cos_k(r, rl) : cl_sin_k(r, rl);
  return (q & 2) ? -v : v;
}

CL_EXPORT float __cuprite_cosf(float x) {
  unsigned int ix = __float_as_uint(x) & 0x7fffffffu;
  if (CL_TRIG_FAST(ix)) {
    float s, c;
    int q = cl_sincos_mid(x, &s, &c);
    float v = (q & 1) ? s : c;
    return ((q + 1) & 2) ? -v : v;
  }
  if (ix < 0x39800000u) return 1.0f;
  if (ix >= 0x7f800000u) return x - x;
  float rl;
  int q;
  float r = cl_reduce_big(x, &rl, &q);
  float v = (q & 1) ? cl_sin_k(r, rl) : cl_cos_k(r, rl);
  return ((q + 1) & 2) ? -v : v;
}

CL_EXPORT void __cuprite_sincosf(float x, float *sp, float *cp) {
  unsigned int ix = __float_as_uint(x) & 0x7fffffffu;
  float s, c;
  int q;
  if (CL_TRIG_FAST(ix)) {  // as sinf and cosf compute them
    q = cl_sincos_mid(x, &s, &c);
  } else if (ix < 0x39800000u) {
    *sp = x;
    *cp = 1.0f;
    return;
  } else if (ix >= 0x7f800000u) {
    *sp = x - x;
    *cp = x - x;
    return;
  } else {
    float rl;
    float r = cl_reduce_big(x, &rl, &q);
    s = cl_sin_k(r, rl);
    c = cl_cos_k(r, rl);
  }
  float ss = (q & 1) ? c : s;
  float cc = (q & 1) ? s : c;
  *sp = (q & 2) ? -ss : ss;
  *cp = ((q + 1) & 2) ? -cc : cc;
}

// tan = sin / cos of the reduced argument (CUDA's bound for tanf is 4 ulp).
CL_EXPORT float __cuprite_tanf(float x) {
  if (fabsf(x) < 0x1p-12f) return x;
  if (!(fabsf(x) < INFINITY)) return x - x;
  float rl;
  int q;
  float r = cl_reduce(x, &rl, &q);
  float s = cl_sin_k(r, rl);
  float c = cl_cos_k(r, rl);
  return (q & 1) ? -c / s : s / c;
}

// sinpi, cospi: x = k/2 + r (exact), |r| <= 1/4; sin(pi r) = r (pi + z s(z)) with pi in two
// parts, cos(pi r) = 1 + z c(z): fits sinpi_f32, cospi_f32.
#define PI_HI 3.1415927410125732f
#define PI_LO -8.742277657347586e-08f

CL_INLINE float cl_sinpi_k(float r) {
  float z = r * r;
  float s = fmaf(fmaf(fmaf(0.08099588006734848f, z, -0.5992013812065125f), z, 2.5501625537872314f), z, -5.167712688446045f);
  return fmaf(r, PI_HI, r * fmaf(z, s, PI_LO));
}

CL_INLINE float cl_cospi_k(float r) {
  float z = r * r;
  float c = fmaf(fmaf(fmaf(-0.025506330654025078f, z, 0.23531417548656464f), z, -1.335262417793274f), z, 4.058712005615234f);
  float t = z * z * c;
  float hz = -4.934802055358887f * z;  // in [-0.31, 0]
  float hz_err = fmaf(-4.934802055358887f, z, -hz);
  float w = 1.0f + hz;
  return w + (((1.0f - w) + hz) + (hz_err + t));
}

// x = k/2 + r; returns r and the quadrant k mod 4.
CL_INLINE float cl_reduce_pi(float x, int *q) {
  float k = rintf(x + x);
  *q = (int)k & 3;  // |2x| < 2^24 here, so k is an exact integer
  return fmaf(k, -0.5f, x);
}

CL_EXPORT float __cuprite_sinpif(float x) {
  if (!(fabsf(x) < INFINITY)) return x - x;
  if (fabsf(x) >= 0x1p23f) return x * 0.0f;  // an integer: +-0 with x's sign
  int q;
  float r = cl_reduce_pi(x, &q);
  float v = (q & 1) ? cl_cospi_k(r) : cl_sinpi_k(r);
  if (r == 0.0f && !(q & 1)) return x * 0.0f;
  return (q & 2) ? -v : v;
}

CL_EXPORT float __cuprite_cospif(float x) {
  if (!(fabsf(x) < INFINITY)) return x - x;
  if (fabsf(x) >= 0x1p24f) return 1.0f;  // an even integer
  int q;
  float r = cl_reduce_pi(x, &q);
  float v = (q & 1) ? cl_sinpi_k(r) : cl_cospi_k(r);
  if (r == 0.0f && (q & 1)) return 0.0f;  // cospi(n + 1/2) = +0
  return ((q + 1) & 2) ? -v : v;
}

CL_EXPORT void __cuprite_sincospif(float x, float *sp, float *cp) {
  *sp = __cuprite_sinpif(x);
  *cp = __cuprite_cospif(x);
}

// atan(t) for t in [0, 1]: t + t^3 a(t^2), fit atan_f32.
CL_INLINE float cl_atan_k(float t) {
  float z = t * t;
  float a = fmaf(fmaf(fmaf(fmaf(fmaf(fmaf(fmaf(fmaf(-0.002423536265268922f, z, 0.01365581527352333f), z,
                                               -0.03611573204398155f), z, 0.06271199882030487f), z,
                                     -0.08666948974132538f), z, 0.11036393791437149f), z, -0.1427890807390213f), z,
                     0.19999755918979645f), z, -0.3333333134651184f);
  return fmaf(t * z, a, t);
}

#define PIO2_HI 1.5707963705062866f
#define PIO2_LO -4.371138828673793e-08f
#define PI_F 3.1415927410125732f

CL_EXPORT float __cuprite_atanf(float x) {
  float a = fabsf(x);
  if (a < 0x1p-12f) return x;
  if (x != x) return x + x;
  float r;
  if (a > 0x1p25f)
    r = PIO2_HI;
  else if (a > 1.0f)
    r = PIO2_HI + (PIO2_LO - cl_atan_k(1.0f / a));
  else
    r = cl_atan_k(a);
  return copysignf(r, x);
}

CL_EXPORT float __cuprite_atan2f(float y, float x) {
  if (x != x || y != y) return x + y;
  float ax = fabsf(x), ay = fabsf(y);
  int xneg = __float_as_int(x) < 0;
  float r;
  if (ay == 0.0f) {
    r = xneg ? PI_F : 0.0f;
  } else if (ax == 0.0f) {
    r = PIO2_HI;
  } else if (ax == INFINITY) {
    if (ay == INFINITY)
      r = xneg ? 2.3561944961547852f : 0.78539818525314331f;
    else
      r = xneg ? PI_F : 0.0f;
  } else if (ay == INFINITY) {
    r = PIO2_HI;
  } else {
    // atan(min/max), then the octant.
    float t = ay > ax ? ax / ay : ay / ax;
    float a = cl_atan_k(t);
    if (ay > ax) a = PIO2_HI + (PIO2_LO - a);
    r = xneg ? PI_F + (2.0f * PIO2_LO - a) : a;
  }
  return copysignf(r, y);
}

// asin(t) = t + t^3 p(t^2) for t in [0, 1/2]: fit asin_f32.
CL_INLINE float cl_asin_p(float z) {
  return fmaf(fmaf(fmaf(fmaf(fmaf(0.033799655735492706f, z, 0.017081690952181816f), z, 0.03111531212925911f), z,
                      0.044598110020160675f), z, 0.07500098645687103f), z, 0.1666666567325592f);
}

CL_EXPORT float __cuprite_asinf(float x) {
  float a = fabsf(x);
  if (!(a <= 1.0f)) return a == a ? cl_nanf() : x + x;
  if (a < 0x1p-12f) return x;
  float r;
  if (a <= 0.5f) {
    float z = a * a;
    r = fmaf(a * z, cl_asin_p(z), a);
  } else {
    // asin(a) = pi/2 - 2 asin(s), s = sqrt((1 - a)/2) (exact argument), s + sl = the root.
    float z = 0.5f - 0.5f * a;
    float s = sqrtf(z);
    float sl = s > 0.0f ? fmaf(-s, s, z) / (s + s) : 0.0f;
    float t = fmaf(s * z, cl_asin_p(z), sl);  // asin(s) - s
    r = PIO2_HI - (2.0f * s - (PIO2_LO - 2.0f * t));
  }
  return copysignf(r, x);
}

CL_EXPORT float __cuprite_acosf(float x) {
  float a = fabsf(x);
  if (!(a <= 1.0f)) return a == a ? cl_nanf() : x + x;
  if (a <= 0.5f) {
    // pi/2 - asin(x)
    float z = x * x;
    float t = x * z * cl_asin_p(z);
    return PIO2_HI - (x - (PIO2_LO - t));
  }
  float z = 0.5f - 0.5f * a;
  float s = sqrtf(z);
  float sl = s > 0.0f ? fmaf(-s, s, z) / (s + s) : 0.0f;
  float t = fmaf(s * z, cl_asin_p(z), sl);  // 2 asin(s) = 2s + 2t
  if (x > 0.0f) return 2.0f * s + 2.0f * t;
  return PI_F - (2.0f * s - (2.0f * PIO2_LO - 2.0f * t));
}
