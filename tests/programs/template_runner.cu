// A test driver in the style of SDK samples: the host function template that runs each
// test is declared before main and defined after it (so main instantiates it before its
// body is seen); it launches kernel templates whose instances nvcc emits from there. The
// device side uses a small class hierarchy and a traits class with specializations.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <cuda_runtime.h>

#define CHECK(call)                                                                        \
  do {                                                                                     \
    cudaError_t err_ = (call);                                                             \
    if (err_ != cudaSuccess) {                                                             \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));       \
      exit(1);                                                                             \
    }                                                                                      \
  } while (0)

template <typename T> struct Limits;
template <> struct Limits<float> { __device__ static float lowest() { return -3.4e38f; } };
template <> struct Limits<int> { __device__ static int lowest() { return -2147483647 - 1; } };

template <typename T> class Reducer {
protected:
  T acc;
public:
  __device__ Reducer(T init) : acc(init) {}
  __device__ T value() const { return acc; }
};

template <typename T> class MaxReducer : public Reducer<T> {
public:
  __device__ MaxReducer() : Reducer<T>(Limits<T>::lowest()) {}
  __device__ void add(T v) { this->acc = v > this->acc ? v : this->acc; }
};

template <typename T, int BLOCK>
__global__ void block_max(const T *in, T *out, int n) {
  __shared__ T s[BLOCK];
  MaxReducer<T> r;
  for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += gridDim.x * BLOCK) r.add(in[i]);
  s[threadIdx.x] = r.value();
  __syncthreads();
  for (int k = BLOCK / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k && s[threadIdx.x + k] > s[threadIdx.x]) s[threadIdx.x] = s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

template <typename T> bool runTest(const std::string &name, int n);

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 16;
  bool ok = runTest<float>("float", n);
  ok = runTest<int>("int", n) && ok;
  printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}

template <typename T> bool runTest(const std::string &name, int n) {
  const int blocks = 64;
  T *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, n * sizeof(T)));
  CHECK(cudaMalloc(&d_out, blocks * sizeof(T)));
  block_max<T, 256><<<blocks, 256>>>(d_in, d_out, n);
  CHECK(cudaGetLastError());
  T h_out[blocks];
  CHECK(cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  printf("%s: %g\n", name.c_str(), (double)h_out[0]);
  return true;
}
