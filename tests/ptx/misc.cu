// Launch bounds, a shared-memory transpose, device helpers and 64-bit loops.
#define TILE 32

__device__ __forceinline__ float lerp(float a, float b, float t) { return a + t * (b - a); }

__device__ int wrap(int i, int n) {
  int r = i % n;
  return r < 0 ? r + n : r;
}

__global__ void __launch_bounds__(128, 4) blend(const float *a, const float *b, float *out, float t, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = lerp(a[i], b[i], t);
}

// Padding the tile by one column keeps the column reads free of bank conflicts.
__global__ void transpose(const float *in, float *out, int rows, int cols) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += blockDim.y)
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += blockDim.y)
    if (x < rows && y + j < cols) out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void rotate(const int *in, int *out, int shift, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[wrap(i + shift, n)] = in[i];
}

__global__ void fill_pattern(unsigned long long *p, unsigned long long seed, size_t n) {
  size_t stride = (size_t)blockDim.x * gridDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    unsigned long long x = seed ^ (i * 0x9E3779B97F4A7C15ull);
    x ^= x >> 31;
    p[i] = x * 0xBF58476D1CE4E5B9ull;
  }
}

// A parenthesized expression that starts with a functional cast, `(uint(x) << 24)`, is
// not a C-style cast.
typedef unsigned int uint;
__global__ void pack_rgba(unsigned *out, const float4 *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 v = c[i];
  out[i] = (uint(v.w * 255.0f) << 24) | (uint(v.z * 255.0f) << 16) | (uint(v.y * 255.0f) << 8) | (int(v.x * 255.0f));
}

// Tables sized by their initializers, in constant and global memory (as a numerical code
// keeps factorials).
__constant__ static double factorials[] = {1.0, 1.0, 2.0, 6.0, 24.0, 120.0, 720.0, 5040.0, 40320.0};
__device__ int primes[] = {2, 3, 5, 7, 11, 13, 17, 19};

#define UNIT_Y make_double2(0.0, 1.0)
__device__ double2 cmul(double2 a, double2 b) { return {a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x}; }

__global__ void tables(double2 *out, const int *k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int j = k[i] % (int)(sizeof(factorials) / sizeof(factorials[0]));
  double2 z = {factorials[j], (double)primes[i % 8]};
  out[i] = cmul(z, UNIT_Y);
}

// Range-based for: over a local array (by value, by reference, by const reference), a
// fixed-size container class with const and non-const begin()/end(), and a non-owning
// span of global memory; with break and continue, and in a template.
template <class T, int N> struct Fixed {
  T items[N];
  __device__ T *begin() { return items; }
  __device__ T *end() { return items + N; }
  __device__ const T *begin() const { return items; }
  __device__ const T *end() const { return items + N; }
};

struct RowView {
  float *first;
  int len;
  __device__ float *begin() const { return first; }
  __device__ float *end() const { return first + len; }
};

template <class Range> __device__ float total(const Range &r) {
  float s = 0.0f;
  for (auto x : r) s += x;
  return s;
}

__global__ void ranges(const int *in, float *rows, int *out, int width) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int taps[4];
  int k = 0;
  for (int &v : taps) v = in[t * 4 + k++];
  for (auto &v : taps) v = v < 0 ? -v : v;
  int s = 0;
  for (const auto &v : taps) {
    if (v % 7 == 0) continue;
    s += v;
  }
  Fixed<float, 3> w = {{0.25f, 0.5f, 0.25f}};
  for (float &x : RowView{rows + t * width, width}) {
    if (x > 100.0f) break;
    x = x * w.items[0] + 1.0f;
  }
  out[t] = s + (int)total(w) + (int)total(RowView{rows + t * width, 2});
}
