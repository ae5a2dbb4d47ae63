// Warp-level primitives as warp-aggregated and quantized code uses them: per-key
// aggregation with __match_any_sync (one atomic per group of equal keys), warp statistics
// with __reduce_*_sync (sm_80's redux.sync; butterfly shuffles before sm_80, as portable
// code writes it), an int8 dot product with __dp4a (signed and unsigned), a uniformity
// test with __match_all_sync, and a struct passed by value to a function that is not
// inlined (an aggregate call argument).
#define FULL_MASK 0xffffffffu
#define WARP_SIZE 32

struct RowSummary {
  int count;
  int sum;
  float mean;
  int lo, hi;
};

__global__ void keyed_count(const int *__restrict__ keys, int *__restrict__ counts, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool valid = i < n;  // every lane takes part in the match, valid or not
  int key = valid ? (keys[i] & 15) : -1;
  unsigned peers = __match_any_sync(FULL_MASK, key);
  int leader = __ffs(peers) - 1;
  if (valid && (int)(threadIdx.x % WARP_SIZE) == leader) atomicAdd(&counts[key], __popc(peers));
}

#if __CUDA_ARCH__ >= 800
#define WARP_REDUCE(op, x) __reduce_##op##_sync(FULL_MASK, x)
#else
struct Add { template <class T> __device__ T operator()(T a, T b) const { return a + b; } };
struct Min { template <class T> __device__ T operator()(T a, T b) const { return b < a ? b : a; } };
struct Max { template <class T> __device__ T operator()(T a, T b) const { return a < b ? b : a; } };
struct And { template <class T> __device__ T operator()(T a, T b) const { return a & b; } };
struct Or { template <class T> __device__ T operator()(T a, T b) const { return a | b; } };
struct Xor { template <class T> __device__ T operator()(T a, T b) const { return a ^ b; } };
template <class T, class Op> __device__ T butterfly(T x, Op op) {
  for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2) x = op(x, __shfl_xor_sync(FULL_MASK, x, offset));
  return x;
}
#define REDUCE_OP_add Add
#define REDUCE_OP_min Min
#define REDUCE_OP_max Max
#define REDUCE_OP_and And
#define REDUCE_OP_or Or
#define REDUCE_OP_xor Xor
#define WARP_REDUCE(op, x) butterfly(x, REDUCE_OP_##op())
#endif

__global__ void warp_stats(const int *__restrict__ v, int *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int x = i < n ? v[i] : 0;
  int sum = WARP_REDUCE(add, x);
  int lo = WARP_REDUCE(min, x);
  int hi = WARP_REDUCE(max, x);
  unsigned ux = (unsigned)x;
  unsigned uhi = WARP_REDUCE(max, ux);
  unsigned ulo = WARP_REDUCE(min, ux);
  unsigned all_bits = WARP_REDUCE(and, ux);
  unsigned any_bits = WARP_REDUCE(or, ux);
  unsigned parity = WARP_REDUCE(xor, ux);
  if (threadIdx.x % WARP_SIZE == 0) {
    int *o = out + 8 * (i / WARP_SIZE);
    o[0] = sum, o[1] = lo, o[2] = hi, o[3] = (int)uhi, o[4] = (int)ulo;
    o[5] = (int)all_bits, o[6] = (int)any_bits, o[7] = (int)parity;
  }
}

// Rows of 4*k packed int8 values: signed activations times signed weights, and the
// unsigned variant (uint8 zero-point arithmetic).
__global__ void int8_dot(const int *__restrict__ act, const int *__restrict__ w, const unsigned *__restrict__ uact,
                         const unsigned *__restrict__ uw, int *__restrict__ out, unsigned *__restrict__ uout, int words, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  int acc = -7;
  unsigned uacc = 3u;
  for (int k = 0; k < words; ++k) {
    acc = __dp4a(act[r * words + k], w[k], acc);
    uacc = __dp4a(uact[r * words + k], uw[k], uacc);
  }
  out[r] = acc;
  uout[r] = uacc;
}

__device__ __noinline__ int summarize(RowSummary s) { return s.count * 1000 + s.sum + (int)(s.mean * 4.0f) + s.lo - s.hi; }

__global__ void uniform_rows(const int *__restrict__ v, int *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int x = v[i / 8];  // groups of 8 lanes share a value; some warps are uniform
  int uniform;
  unsigned who = __match_all_sync(FULL_MASK, x >> 6, &uniform);
  unsigned same = __match_any_sync(FULL_MASK, (long long)x * 3);
  RowSummary s = {__popc(same), x, (float)x / 3.0f, x - (int)(threadIdx.x % WARP_SIZE), x + uniform};
  out[i] = summarize(s) ^ (int)who;
}
