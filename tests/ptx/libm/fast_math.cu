// --use_fast_math: the standard functions become their fast intrinsics (approximate PTX
// instructions), division and square root are approximate.
__global__ void fast(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    y[i] = expf(v) + sinf(v) * cosf(v) + logf(v) + powf(v, 1.5f) + tanf(v) + exp10f(v) + log10f(v) +
           log2f(v) + exp2f(v) + v / (v + 1.0f) + sqrtf(v);
  }
}
