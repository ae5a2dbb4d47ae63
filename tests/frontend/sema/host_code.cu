// RUN: --emit=cuda
// A complete program: host code (includes, a helper, main with a launch) is skipped;
// only the device code is compiled, as nvcc -ptx does.
#include <cstdio>
#include <cstdlib>

#define CHECK(x) do { if ((x) != cudaSuccess) { printf("error\n"); exit(1); } } while (0)

__global__ void add_one(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += 1;
}

static void fill(int *p, int n) {
  for (int i = 0; i < n; ++i) p[i] = i;
}

int main(int argc, char **argv) {
  int n = 1 << 20;
  int *d = nullptr;
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  add_one<<<(n + 255) / 256, 256>>>(d, n);
  CHECK(cudaDeviceSynchronize());
  std::printf("done\n");
  return 0;
}
