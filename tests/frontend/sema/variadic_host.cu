// RUN: --emit=cuda
// Variadic templates in host code around kernels: a launcher forwarding its pack to the
// kernel instantiates the kernel template; host-only helpers with packs are read, not
// compiled.
#include <cstdio>

template <typename T> __global__ void axpy(T a, const T *x, T *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

template <typename... Args> void check_all(const char *what, const Args &...codes) {
  int failed = ((codes != 0) + ... + 0);
  if (failed) printf("%s: %d failures\n", what, failed);
}

template <typename... Args> void launch(int n, Args... args) {
  axpy<float><<<(n + 255) / 256, 256>>>(args..., n);
}

int main() {
  float *x = nullptr, *y = nullptr;
  launch(1024, 2.0f, x, y);
  check_all("setup", 0, 0);
  return 0;
}
