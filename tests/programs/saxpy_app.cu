// A whole program as applications write one: option parsing with std::string, an error-check
// macro, CUDA events for timing, device buffers in a helper class, and templated kernels
// launched from host code with explicit and deduced template arguments.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <climits>
#include <cstring>
#include <string>
#include <vector>
#include <iostream>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                  \
  do {                                                                                    \
    cudaError_t err_ = (call);                                                            \
    if (err_ != cudaSuccess) {                                                            \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));       \
      exit(EXIT_FAILURE);                                                                 \
    }                                                                                     \
  } while (0)

struct Options {
  std::string mode = "float";
  std::string output;
  int n = 1 << 20;
  int repeat = 10;
  bool verbose = false;
};

static bool starts_with(const std::string &s, const char *prefix) {
  return s.compare(0, strlen(prefix), prefix) == 0;
}

static Options parse_options(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "-n" && i + 1 < argc) o.n = atoi(argv[++i]);
    else if (starts_with(a, "--mode=")) o.mode = a.substr(7);
    else if (a == "-v") o.verbose = true;
    else o.output = a;
  }
  return o;
}

class GpuTimer {
  cudaEvent_t start_, stop_;
public:
  GpuTimer() { cudaEventCreate(&start_); cudaEventCreate(&stop_); }
  ~GpuTimer() { cudaEventDestroy(start_); cudaEventDestroy(stop_); }
  void start(cudaStream_t s = 0) { cudaEventRecord(start_, s); }
  float stop(cudaStream_t s = 0) {
    float ms = 0.0f;
    cudaEventRecord(stop_, s);
    cudaEventSynchronize(stop_);
    cudaEventElapsedTime(&ms, start_, stop_);
    return ms;
  }
};

template <typename T>
struct DeviceBuffer {
  T *ptr = nullptr;
  size_t count = 0;
  explicit DeviceBuffer(size_t n) : count(n) { CUDA_CHECK(cudaMalloc(&ptr, n * sizeof(T))); }
  ~DeviceBuffer() { cudaFree(ptr); }
  void upload(const std::vector<T> &h) { CUDA_CHECK(cudaMemcpy(ptr, h.data(), count * sizeof(T), cudaMemcpyHostToDevice)); }
};

template <typename T, int BLOCK>
__global__ void __launch_bounds__(BLOCK) saxpy(int n, T a, const T *__restrict__ x, T *__restrict__ y) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

template <typename T>
__global__ void fill(T *p, T v, uint64_t n) {
  for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x)
    p[i] = v;
}

template <typename T>
__global__ void checksum(const T *p, int n, unsigned long long *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && p[i] != T(0)) atomicAdd(out, 1ull);
}

// Never named by host code: nvcc emits no instance, and neither does cuprite.
template <typename T>
__global__ void unused_kernel(T *p) { p[threadIdx.x] = T(1); }

// A host function template that launches: its instances launch the kernel instances.
template <typename T>
static float run(const Options &o, T a) {
  DeviceBuffer<T> x(o.n), y(o.n);
  int blocks = (o.n + 255) / 256;
  fill<<<blocks, 256>>>(x.ptr, T(1), (uint64_t)o.n);
  fill<T><<<blocks, 256>>>(y.ptr, T(2), (uint64_t)o.n);
  GpuTimer t;
  t.start();
  for (int r = 0; r < o.repeat; ++r)
    saxpy<T, 256><<<blocks, 256>>>(o.n, a, x.ptr, y.ptr);
  float ms = t.stop();
  unsigned long long *d_count;
  CUDA_CHECK(cudaMalloc(&d_count, sizeof(unsigned long long)));
  checksum<<<blocks, 256>>>(y.ptr, o.n, d_count);
  CUDA_CHECK(cudaGetLastError());
  return ms;
}

int main(int argc, char **argv) {
  Options o = parse_options(argc, argv);
  if (o.n <= 0 || o.n > INT_MAX / 2) {
    std::cerr << "bad size " << o.n << std::endl;
    return 1;
  }
  float ms = o.mode == "double" ? run<double>(o, 2.0) : run(o, 2.0f);
  if (o.verbose) std::cout << o.mode << ": " << ms << " ms" << std::endl;
  CUDA_CHECK(cudaDeviceSynchronize());
  return 0;
}
