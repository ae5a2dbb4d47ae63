// Math functions without a PTX instruction of the right accuracy need the device math
// library (a later issue): an error at the call, never wrong PTX.
__global__ void waves(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = sinf(x[i]) + expf(x[i]);
}
