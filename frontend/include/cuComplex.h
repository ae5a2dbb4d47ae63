// cuprite's cuComplex.h: single and double precision complex numbers as CUDA's header
// declares them (a float2 / double2 holding the real and imaginary parts), with the same
// operations, written out here (division and magnitude scale their operands, as CUDA's do,
// so that intermediate products neither overflow nor underflow where the result would not).
#pragma once

typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
typedef cuFloatComplex cuComplex;

__host__ __device__ static __inline__ float cuCrealf(cuFloatComplex x) { return x.x; }
__host__ __device__ static __inline__ float cuCimagf(cuFloatComplex x) { return x.y; }
__host__ __device__ static __inline__ cuFloatComplex make_cuFloatComplex(float r, float i) {
  cuFloatComplex z;
  z.x = r;
  z.y = i;
  return z;
}
__host__ __device__ static __inline__ cuComplex make_cuComplex(float r, float i) { return make_cuFloatComplex(r, i); }
__host__ __device__ static __inline__ cuFloatComplex cuConjf(cuFloatComplex x) { return make_cuFloatComplex(cuCrealf(x), -cuCimagf(x)); }
__host__ __device__ static __inline__ cuFloatComplex cuCaddf(cuFloatComplex x, cuFloatComplex y) {
  return make_cuFloatComplex(cuCrealf(x) + cuCrealf(y), cuCimagf(x) + cuCimagf(y));
}
__host__ __device__ static __inline__ cuFloatComplex cuCsubf(cuFloatComplex x, cuFloatComplex y) {
  return make_cuFloatComplex(cuCrealf(x) - cuCrealf(y), cuCimagf(x) - cuCimagf(y));
}
__host__ __device__ static __inline__ cuFloatComplex cuCmulf(cuFloatComplex x, cuFloatComplex y) {
  return make_cuFloatComplex((cuCrealf(x) * cuCrealf(y)) - (cuCimagf(x) * cuCimagf(y)),
                             (cuCrealf(x) * cuCimagf(y)) + (cuCimagf(x) * cuCrealf(y)));
}
// x / y with both scaled by 1 / (|re y| + |im y|).
__host__ __device__ static __inline__ cuFloatComplex cuCdivf(cuFloatComplex x, cuFloatComplex y) {
  float s = fabsf(cuCrealf(y)) + fabsf(cuCimagf(y));
  float oos = 1.0f / s;
  float ars = cuCrealf(x) * oos, ais = cuCimagf(x) * oos;
  float brs = cuCrealf(y) * oos, bis = cuCimagf(y) * oos;
  s = (brs * brs) + (bis * bis);
  oos = 1.0f / s;
  return make_cuFloatComplex(((ars * brs) + (ais * bis)) * oos, ((ais * brs) - (ars * bis)) * oos);
}
// |x| as max * sqrt(1 + (min / max)^2); 0, infinities and NaN as their sum.
__host__ __device__ static __inline__ float cuCabsf(cuFloatComplex x) {
  float a = fabsf(cuCrealf(x)), b = fabsf(cuCimagf(x));
  float v = a > b ? a : b, w = a > b ? b : a;
  float t = w / v;
  t = 1.0f + t * t;
  t = v * sqrtf(t);
  if ((v == 0.0f) || (v > 3.402823466e38f) || (w > 3.402823466e38f)) t = v + w;
  return t;
}
// x * y + d.
__host__ __device__ static __inline__ cuFloatComplex cuCfmaf(cuFloatComplex x, cuFloatComplex y, cuFloatComplex d) {
  float re = (cuCrealf(x) * cuCrealf(y)) + cuCrealf(d);
  float im = (cuCrealf(x) * cuCimagf(y)) + cuCimagf(d);
  re = -(cuCimagf(x) * cuCimagf(y)) + re;
  im = (cuCimagf(x) * cuCrealf(y)) + im;
  return make_cuFloatComplex(re, im);
}

__host__ __device__ static __inline__ double cuCreal(cuDoubleComplex x) { return x.x; }
__host__ __device__ static __inline__ double cuCimag(cuDoubleComplex x) { return x.y; }
__host__ __device__ static __inline__ cuDoubleComplex make_cuDoubleComplex(double r, double i) {
  cuDoubleComplex z;
  z.x = r;
  z.y = i;
  return z;
}
__host__ __device__ static __inline__ cuDoubleComplex cuConj(cuDoubleComplex x) { return make_cuDoubleComplex(cuCreal(x), -cuCimag(x)); }
__host__ __device__ static __inline__ cuDoubleComplex cuCadd(cuDoubleComplex x, cuDoubleComplex y) {
  return make_cuDoubleComplex(cuCreal(x) + cuCreal(y), cuCimag(x) + cuCimag(y));
}
__host__ __device__ static __inline__ cuDoubleComplex cuCsub(cuDoubleComplex x, cuDoubleComplex y) {
  return make_cuDoubleComplex(cuCreal(x) - cuCreal(y), cuCimag(x) - cuCimag(y));
}
__host__ __device__ static __inline__ cuDoubleComplex cuCmul(cuDoubleComplex x, cuDoubleComplex y) {
  return make_cuDoubleComplex((cuCreal(x) * cuCreal(y)) - (cuCimag(x) * cuCimag(y)),
                              (cuCreal(x) * cuCimag(y)) + (cuCimag(x) * cuCreal(y)));
}
__host__ __device__ static __inline__ cuDoubleComplex cuCdiv(cuDoubleComplex x, cuDoubleComplex y) {
  double s = fabs(cuCreal(y)) + fabs(cuCimag(y));
  double oos = 1.0 / s;
  double ars = cuCreal(x) * oos, ais = cuCimag(x) * oos;
  double brs = cuCreal(y) * oos, bis = cuCimag(y) * oos;
  s = (brs * brs) + (bis * bis);
  oos = 1.0 / s;
  return make_cuDoubleComplex(((ars * brs) + (ais * bis)) * oos, ((ais * brs) - (ars * bis)) * oos);
}
__host__ __device__ static __inline__ double cuCabs(cuDoubleComplex x) {
  double a = fabs(cuCreal(x)), b = fabs(cuCimag(x));
  double v = a > b ? a : b, w = a > b ? b : a;
  double t = w / v;
  t = 1.0 + t * t;
  t = v * sqrt(t);
  if ((v == 0.0) || (v > 1.79769313486231570e+308) || (w > 1.79769313486231570e+308)) t = v + w;
  return t;
}
__host__ __device__ static __inline__ cuDoubleComplex cuCfma(cuDoubleComplex x, cuDoubleComplex y, cuDoubleComplex d) {
  double re = (cuCreal(x) * cuCreal(y)) + cuCreal(d);
  double im = (cuCreal(x) * cuCimag(y)) + cuCimag(d);
  re = -(cuCimag(x) * cuCimag(y)) + re;
  im = (cuCimag(x) * cuCreal(y)) + im;
  return make_cuDoubleComplex(re, im);
}

__host__ __device__ static __inline__ cuDoubleComplex cuComplexFloatToDouble(cuFloatComplex c) {
  return make_cuDoubleComplex((double)cuCrealf(c), (double)cuCimagf(c));
}
__host__ __device__ static __inline__ cuFloatComplex cuComplexDoubleToFloat(cuDoubleComplex c) {
  return make_cuFloatComplex((float)cuCreal(c), (float)cuCimag(c));
}
