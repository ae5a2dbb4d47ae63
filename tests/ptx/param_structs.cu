// Structs passed to kernels by value, as real programs pass parameter blocks: a block of
// scalars and pointers, one with padding and a bool, an array member, a template instance,
// a stateless functor (an empty struct: still one parameter), and a struct whose address a
// device function takes (a reference to the kernel's copy, or a `__grid_constant__` one).


struct Params {
  float scale;
  int n;
  const float *in;
  float *out;
};

__global__ void apply(Params p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n) p.out[i] = p.in[i] * p.scale;
}

struct Grid {
  char tag;        // padding follows
  double h;
  int dims[3];
  bool periodic;   // one byte, then padding to 8
};

__device__ int wrap(const Grid &g, int i) { return g.periodic ? (i + g.dims[0]) % g.dims[0] : max(0, min(i, g.dims[0] - 1)); }

// `__grid_constant__`: read in place, the reference to it needs no copy.
__global__ void laplace(const double *u, double *v, __grid_constant__ const Grid g) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= g.dims[0]) return;
  double l = u[wrap(g, i - 1)] - 2.0 * u[i] + u[wrap(g, i + 1)];
  v[i] = l / (g.h * g.h) + (double)(g.tag + g.dims[1] * g.dims[2]);
}

template <typename T>
struct Span {
  T *data;
  size_t size;
  __device__ T &operator[](size_t i) const { return data[i]; }
};

template <typename T>
__global__ void fill_iota(Span<T> s, T start) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < s.size) s[i] = start + (T)i;
}

template __global__ void fill_iota<int>(Span<int>, int);

struct Square {
  __device__ float operator()(float x) const { return x * x; }
};

template <typename F>
__global__ void map(F f, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = f(x[i]);
}

template __global__ void map<Square>(Square, const float *, float *, int);

// A struct that is modified in the kernel: the kernel's own copy changes, nothing else.
struct Counter {
  int base;
  short step;
  unsigned char flags;
};

__global__ void count(Counter c, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  c.base += i * c.step;
  if (c.flags & 1) c.base = -c.base;
  out[i] = c.base;
}
