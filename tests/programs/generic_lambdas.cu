// Generic lambdas in device code, in a whole program: a templated "apply to every
// element" helper fed with `auto` lambdas for two element types.
#include <cstdio>
#include <cuda_runtime.h>

template <class T, class F> __device__ void apply_all(T *data, int n, F f) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) data[i] = f(data[i]);
}

__global__ void square_ints(int *v, long *wide, int n) {
  auto square = [](auto x) { return x * x; };
  apply_all(v, n, square);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) wide[i] = square(long(i) * 100000);
}

__global__ void clamp_doubles(double *v, int n, double lo, double hi) {
  auto clamp = [lo, hi](const auto &x) { return x < lo ? lo : (x > hi ? hi : x); };
  apply_all(v, n, clamp);
}

int main() {
  const int n = 1000;
  int *v;
  long *w;
  double *d;
  cudaMalloc(&v, n * sizeof(int));
  cudaMalloc(&w, n * sizeof(long));
  cudaMalloc(&d, n * sizeof(double));
  square_ints<<<4, 128>>>(v, w, n);
  clamp_doubles<<<4, 128>>>(d, n, -0.5, 0.5);
  cudaDeviceSynchronize();
  std::printf("done\n");
  return 0;
}
