// Kernels that call the device math library (frontend/libm/): linked on demand, inlined.

// nvcc's math.h defines M_SQRT1_2, as cuprite's does; NVRTC's headers do not.
#ifndef M_SQRT1_2
#define M_SQRT1_2 0.70710678118654752440
#endif

// A damped wave and a log-based envelope (sums of positive terms: no cancellation).
__global__ void damped_wave(const float *t, float *y, float *env, float freq, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float x = t[i];
    y[i] = expf(-0.5f * x) * (2.0f + sinf(freq * x));
    env[i] = log1pf(x * x) + 2.0f + cosf(x);
  }
}

// Softplus and a GELU-like activation with tanh.
__global__ void activations(const float *x, float *soft, float *gelu, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    soft[i] = v > 20.0f ? v : logf(1.0f + expf(v));
    gelu[i] = 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
  }
}

// Polar coordinates, powers and remainders.
__global__ void polar(const float *x, const float *y, float *r, float *theta, float *p, float *m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float a = x[i], b = y[i];
    r[i] = hypotf(a, b);
    theta[i] = atan2f(b, a);
    p[i] = powf(fabsf(a) + 0.5f, b);
    m[i] = fmodf(a * 10.0f, 3.0f) + cbrtf(b) + asinf(b * 0.25f);
  }
}

// Double precision: a Black-Scholes-like price (exp, log, sqrt, erfc) and a mix of the
// trigonometric, hyperbolic and power functions.
__global__ void option_price(const double *s, const double *k, double *call, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    double r = 0.03, v = 0.25, t = 1.5;
    double sd = v * sqrt(t);
    double d1 = (log(s[i] / k[i]) + (r + 0.5 * v * v) * t) / sd;
    double d2 = d1 - sd;
    double n1 = 0.5 * erfc(-d1 * M_SQRT1_2);
    double n2 = 0.5 * erfc(-d2 * M_SQRT1_2);
    call[i] = s[i] * n1 - k[i] * exp(-r * t) * n2;
  }
}

__global__ void mixed_f64(const double *x, double *a, double *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    double v = x[i];
    a[i] = sin(v) * cos(0.5 * v) + 2.0 + atan2(v, 1.5) + cbrt(v) * tanh(v);
    b[i] = pow(fabs(v) + 0.25, 1.75) + cosh(0.1 * v) + log10(1.0 + v * v) + fmod(v * 7.0, 2.5);
  }
}

// Large arguments: both libraries take their Payne-Hanek reductions (NVRTC's with 32-bit
// carry chains and an aggregate return value); 3 + keeps the results away from zero.
__global__ void trig_f64_large(const double *x, double *s, double *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    double v = x[i];
    s[i] = 3.0 + sin(v);
    c[i] = 3.0 + cos(v) * tan(v * 1e-15);
  }
}
