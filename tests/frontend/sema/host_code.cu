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

// Defined in another file that only the host links: the __host__ __device__ functions
// that reach it are compiled for the device only if a kernel calls them (none does), as
// nvcc's whole-program compilation keeps only what kernels use.
extern "C" __host__ __device__ double series(double x, const double *c, int n);

__host__ __device__ double shifted(double x) {
  static const double c[] = {1.0, 0.5, 0.25};
  return series(x - 0.5, c, 2);
}

__host__ __device__ double pick(double x) { return x < 1.0 ? x : shifted(x); }

static void fill(int *p, int n) {
  for (int i = 0; i < n; ++i) p[i] = i;
}

int main(int argc, char **argv) {
  int n = 1 << 20;
  int *d = nullptr;
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  add_one<<<(n + 255) / 256, 256>>>(d, n);
  std::printf("%f\n", pick(2.0));
  CHECK(cudaDeviceSynchronize());
  std::printf("done\n");
  return 0;
}
