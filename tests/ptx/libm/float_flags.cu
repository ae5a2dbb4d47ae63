// The floating-point flags (-ftz, -prec-div, -prec-sqrt, --use_fast_math) on plain
// arithmetic: the instructions each selects, and the simulator's agreement with them.
__global__ void arith(const float *a, const float *b, float *q, float *s, float *m, double *w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    q[i] = a[i] / b[i];
    s[i] = sqrtf(fabsf(a[i])) + fminf(a[i], b[i]);
    m[i] = a[i] * b[i] + (a[i] < b[i] ? 1.0f : 0.0f);
    w[i] = (double)a[i] * 0.5;
  }
}
