// Element-wise kernels: the shapes most GPU code starts from.
__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

__global__ void saxpy(int n, float alpha, const float *__restrict__ x, float *__restrict__ y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] = alpha * x[i] + y[i];
}

__global__ void scale_size_t(double *v, double s, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)blockDim.x * gridDim.x) v[i] *= s;
}

__global__ void clamp_int(int *v, int lo, int hi, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = v[i];
  v[i] = x < lo ? lo : (x > hi ? hi : x);
}

__global__ void int_math(int *out, const int *a, const int *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int x = a[i], y = b[i] | 1;
    unsigned u = (unsigned)x;
    out[i] = x / y + x % y + (x << 3) + (x >> 2) + (int)(u >> 5) + (int)(u / 7u) + (x ^ y) - (x & ~y);
  }
}

__global__ void conversions(float *f, double *d, const int *i, const unsigned char *c, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) {
    float x = (float)i[k] + (float)c[k];
    d[k] = (double)x * 0.5;
    f[k] = (float)(d[k] + 1.0) + (float)(int)x + (float)(long long)(x * 2.0f);
  }
}
