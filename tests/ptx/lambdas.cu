// Lambdas as device code uses them: a generic block reduction taking the combining
// operation, an element-wise transform helper taking the per-element function, captures
// by value and by reference (default and named), an init-capture, a mutable counter, and
// a lambda called where it is written. (Generic lambdas are in tests/programs: NVRTC
// takes their call operator templates for host code.)
#include <cuda_runtime.h>

#define BLOCK 64

template <class T, class Op> __device__ T block_reduce(T v, T *scratch, Op op) {
  scratch[threadIdx.x] = v;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) scratch[threadIdx.x] = op(scratch[threadIdx.x], scratch[threadIdx.x + s]);
    __syncthreads();
  }
  return scratch[0];
}

template <class F> __device__ void transform_n(const float *in, float *out, int n, F f) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = f(in[i], i);
}

__global__ void stats(const float *x, float *out, int n) {
  __shared__ float scratch[BLOCK];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  float total = block_reduce(v, scratch, [](float a, float b) { return a + b; });
  float top = block_reduce(v, scratch, [](float a, float b) { return a > b ? a : b; });
  if (threadIdx.x == 0) {
    out[2 * blockIdx.x] = total;
    out[2 * blockIdx.x + 1] = top;
  }
}

__global__ void affine(const float *in, float *out, int n, float scale, float shift) {
  transform_n(in, out, n, [=](float v, int i) { return scale * v + shift + (i & 1); });
}

__global__ void counters(const int *keys, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  int hits = 0, misses = 0;
  auto tally = [&hits, &misses](int k) {
    if (k % 3 == 0) ++hits;
    else ++misses;
  };
  for (int j = 0; j < 4; ++j) tally(keys[(t + j) % n]);
  auto ticket = [next = t * 10]() mutable { return next++; };
  int first = ticket();
  int second = ticket();
  auto square = [](long x) { return x * x; };
  long wide = square(hits) + square(misses);
  int bonus = [&] { return hits > misses ? 1000 : 0; }();
  out[t] = (int)wide + first + second + bonus;
}

// A lambda in a member function: `[this]` and `[=]` reach the object's fields and
// member functions.
struct Histogram {
  int *bins;
  int nbins;
  float lo, width;
  __device__ int bin_of(float v) const {
    int b = (int)((v - lo) / width);
    return b < 0 ? 0 : (b >= nbins ? nbins - 1 : b);
  }
  template <class F> __device__ void for_each(const float *x, int n, F f) const {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) f(x[i]);
  }
  __device__ void fill(const float *x, int n) {
    for_each(x, n, [this](float v) { atomicAdd(&bins[bin_of(v)], 1); });
  }
  __device__ void weigh(const float *x, int n, int weight) {
    for_each(x, n, [=](float v) { atomicAdd(&this->bins[bin_of(v)], weight + nbins); });
  }
  __device__ int spread(float v) {
    auto later = [*this](float u) { return bin_of(u) * nbins; };
    lo = 0.0f;  // the copy keeps the old bounds
    return later(v) + bin_of(v);
  }
};

__global__ void histogram(const float *x, int n, int *bins, int nbins) {
  Histogram h{bins, nbins, -1.0f, 0.25f};
  h.fill(x, n);
  h.weigh(x, n, 100);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[nbins + h.spread(x[i]) % 16], 1);
}
