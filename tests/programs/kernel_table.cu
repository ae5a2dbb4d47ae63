// Kernels reached from host code without a plain launch: through cudaLaunchKernel, a table
// of kernel pointers, cudaFuncSetAttribute and the occupancy API, plus host-only code that
// uses C++ cuprite does not compile (inheritance, a host container it does not ship).
#include <cstdio>
#include <map>
#include <stdexcept>
#include <cuda_runtime.h>

enum class Op { Add, Mul };

template <Op OP, typename T>
__global__ void apply(T *out, const T *a, const T *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = OP == Op::Add ? a[i] + b[i] : a[i] * b[i];
}

template <int TILE>
__global__ void transpose(float *out, const float *in, int w, int h) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  if (x < w && y < h) tile[threadIdx.y][threadIdx.x] = in[y * w + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  if (x < h && y < w) out[y * h + x] = tile[threadIdx.x][threadIdx.y];
}

template <typename T>
__global__ void scale(T *p, T s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= s;
}

__global__ void plain(int *p) { p[threadIdx.x] = threadIdx.x; }

typedef void (*BinaryKernel)(float *, const float *, const float *, int);
static BinaryKernel binary_table[] = {apply<Op::Add, float>, apply<Op::Mul, float>};

class CudaError : public std::runtime_error {
public:
  explicit CudaError(const char *what) : std::runtime_error(what) {}
};

static std::map<int, const char *> names = {{0, "add"}, {1, "mul"}};

static void check(cudaError_t e) {
  if (e != cudaSuccess) throw CudaError(cudaGetErrorString(e));
}

int main() {
  float *a, *b, *c;
  int n = 4096;
  check(cudaMalloc(&a, n * sizeof(float)));
  check(cudaMalloc(&b, n * sizeof(float)));
  check(cudaMalloc(&c, n * sizeof(float)));
  void *args[] = {&c, &a, &b, &n};
  check(cudaLaunchKernel((const void *)apply<Op::Add, int>, dim3(n / 256), dim3(256), args, 0, 0));
  for (int k = 0; k < 2; ++k) binary_table[k]<<<n / 256, 256>>>(c, a, b, n);
  check(cudaFuncSetAttribute(transpose<32>, cudaFuncAttributeMaxDynamicSharedMemorySize, 0));
  int grid = 0, block = 0;
  check(cudaOccupancyMaxPotentialBlockSize(&grid, &block, scale<double>, 0, 0));
  auto *ptr = &scale<float>;
  (void)ptr;
  plain<<<1, 32>>>((int *)a);
  printf("%s\n", names[0]);
  return 0;
}
